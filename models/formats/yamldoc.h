/*
 * yamldoc: a YAML document read with positioned messages, as jsondoc is for JSON. The scenario loader reads
 * scenarios with it, and analysis/sweepfile.c reads sweep files with it, so both have the same messages.
 *
 * It knows YAML and positions but not the scenario schema. yamldoc_open() parses text with libfyaml,
 * whose diagnostics are collected rather than printed (nothing reaches stderr); yamldoc_apply_sets()
 * edits the parsed document with `--set` overrides; the typed readers (int, number, string, choice, mapping,
 * list) check one value each, and yamldoc_scalar()/yamldoc_bad() let the schema add its own
 * (durations and times live in scenario_read.c, next to the units they convert).
 *
 * Values are addressed by a struct yamldoc_ref: the node, the key that names it, the enclosing ref and
 * the dotted path used in messages ("fleet.1.usd_per_h"). Every failure returns STATUS_EINPUT (STATUS_ENOMEM
 * when libfyaml or malloc fails) and writes one line into the diag:
 *     FILE:LINE:COL: KEY.PATH: what was wrong; expected what
 * The position is the value's own, else its key's, else the enclosing mapping's; a node that an override
 * created or replaced has no position, so the message names the override instead ("--set a.b=x: a.b: ...").
 * Lines and columns count from 1.
 *
 * Readers of optional values leave *out unchanged and return STATUS_OK when the key is absent (r->node ==
 * NULL), so a caller sets the default first and then reads.
 */
#ifndef GPUCAP_YAMLDOC_H
#define GPUCAP_YAMLDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct fy_diag;
struct fy_document;
struct fy_node;
struct fy_parser;

#define YAMLDOC_PATH_MAX 320  /* bytes in a dotted path, NUL included */

struct yamldoc_set;  /* one applied override; node metadata points at it */

struct yamldoc {
	const char *label;              /* file name in messages, borrowed */
	struct diag *d;                 /* where a failure is written, borrowed */
	struct fy_diag *fydiag;         /* libfyaml's diagnostics, collected; owned */
	struct fy_parser *fyp;          /* owned */
	struct fy_document *fyd;        /* the document, owned; NULL until opened */
	struct yamldoc_set *sets; /* the overrides applied, owned */
	int nsets;                      /* entries in sets */
	char libmsg[256];               /* libfyaml output that was not a collected error (first line) */
};

struct yamldoc_ref {
	struct fy_node *node;                  /* the value; NULL when the key is absent */
	struct fy_node *key;                   /* the key naming it; NULL for the root and list items */
	const struct yamldoc_ref *up;    /* the enclosing mapping or list (borrowed); NULL at the root */
	char path[YAMLDOC_PATH_MAX];     /* "serving.slots_per_instance"; "" for the root */
};

/* Bounds of a number: lo (or lo_open: above lo) to hi (or hi_open: below hi); hi = HUGE_VAL for none. */
struct yamldoc_bounds {
	double lo;
	double hi;
	bool lo_open;
	bool hi_open;
};

/*
 * Parse `len` bytes of `text` (borrowed; must outlive y) into y, caller-owned storage. `label` (borrowed,
 * kept) names the file in messages, `d` (kept) receives them. Fails on a NUL byte or invalid UTF-8 ("LINE:COL:
 * a NUL byte" / "invalid UTF-8 (byte 0xAE)", checked first: libfyaml 0.7 does not reliably reject them, and
 * hangs on some), on invalid YAML (libfyaml's message and position) or a second document. An empty document is not a failure: the root ref then has node == NULL.
 * YAML aliases are rejected where they are read ("got an alias"). yamldoc_close() must be called
 * whatever this returns.
 */
int yamldoc_open(struct yamldoc *y, const char *text, size_t len, const char *label,
		       struct diag *d);

/* Free everything y owns. Harmless on a zeroed or closed struct. */
void yamldoc_close(struct yamldoc *y);

/*
 * Apply the overrides "a.b.0.c=value" (borrowed, kept until close) to the document, in order. Two of them
 * that name one setting (yamldoc_set_key: "fleet.0.count" and "fleet.00.count") are refused, since
 * the later would silently replace the earlier: "--set B: KEY is already set by --set A". The root
 * must be a mapping. `dotted_map` names a top-level mapping whose keys may contain dots ("catalog"): a key
 * created in it takes every path component but the last.
 */
int yamldoc_apply_sets(struct yamldoc *y, const char *const *sets, int nsets,
			     const char *dotted_map);

/*
 * The setting that the override key `key` ("fleet.00.count", without "=VALUE") names, written one way into
 * canon (size bytes): split at its dots as yamldoc_apply_sets() splits it, each component that it
 * would read as a list index ("00", "-0") written as that index in decimal ("fleet.0.count"); any other
 * component is kept as written (mapping keys match exactly). Two keys with the same canon set the same value.
 * Returns false when key is not a KEY.PATH (an empty component, too many) or canon is too small.
 */
bool yamldoc_set_key(const char *key, char *canon, size_t size);

/* The root of the document. */
void yamldoc_root(struct yamldoc *y, struct yamldoc_ref *out);

/* The value of `key` in the mapping `map` (checked with yamldoc_mapping first); node NULL if absent. */
void yamldoc_child(const struct yamldoc_ref *map, const char *key,
			 struct yamldoc_ref *out);

/* The i-th pair of the mapping `map`: out names the value, *name is the key's text (owned by the doc). */
void yamldoc_pair(const struct yamldoc_ref *map, int i, struct yamldoc_ref *out,
			const char **name);

/* Item i of the list `seq` (checked with yamldoc_list first). */
void yamldoc_item(const struct yamldoc_ref *seq, int i, struct yamldoc_ref *out);

/*
 * A walk over the items of a list or the pairs of a mapping, in order. yamldoc_item() and
 * yamldoc_pair() are O(i) (libfyaml keeps both in linked lists), so a loop over n of them is O(n^2):
 * 340,000 values took minutes. Each step of a walk is O(1). Start it with YAMLDOC_WALK_INIT.
 */
struct yamldoc_walk {
	void *at;  /* libfyaml's cursor (the item or pair returned last); NULL before the first step */
	int i;     /* the index of the item or pair returned last; -1 before the first step */
};

#define YAMLDOC_WALK_INIT { NULL, -1 }

/* The next item of the list `seq` into *out, named as yamldoc_item() names it; false at the end. */
bool yamldoc_next_item(const struct yamldoc_ref *seq, struct yamldoc_walk *w,
			     struct yamldoc_ref *out);

/* The next pair of the mapping `map`, as yamldoc_pair() gives it; false at the end. */
bool yamldoc_next_pair(const struct yamldoc_ref *map, struct yamldoc_walk *w,
			     struct yamldoc_ref *out, const char **name);

/*
 * Check that r is a mapping whose keys are all in `keys` (NULL-terminated; NULL allows any key that is a
 * non-empty scalar). `what` describes the mapping in the type error, or NULL for "a mapping with keys ...".
 * *npairs (may be NULL) receives the number of pairs. An absent r is fine (0 pairs).
 */
int yamldoc_mapping(struct yamldoc *y, const struct yamldoc_ref *r,
			  const char *const *keys, const char *what, int *npairs);

/* Check that r is a list of min..max items, each described by `items` in the message; *n = the count. */
int yamldoc_list(struct yamldoc *y, const struct yamldoc_ref *r, int min, int max,
		       const char *items, int *n);

/* Where r is, as a message would place it: *line and *col from 1, both 0 when unknown (or an override). */
void yamldoc_where(const struct yamldoc_ref *r, int *line, int *col);

/* Where r is, in words for a message that points elsewhere: "line 9, column 11", "--set provider=gcp" for a
 * node an override made, or "an unknown place". Returns buf. */
const char *yamldoc_where_text(const struct yamldoc_ref *r, char *buf, size_t size);

/* Fail with "PATH: missing required key 'KEY' (WHAT)" at the mapping `map`. */
int yamldoc_missing(struct yamldoc *y, const struct yamldoc_ref *map, const char *key,
			  const char *what);

/* Fail with "PATH: <message>" at r's position (or its override). */
int yamldoc_fail(struct yamldoc *y, const struct yamldoc_ref *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The NUL-terminated text of r (present), which must be a scalar; `expect` describes the value wanted, for
 * the message when r is a mapping, a list, an alias, or text with a NUL character.
 */
int yamldoc_scalar(struct yamldoc *y, const struct yamldoc_ref *r, const char *expect,
			 const char **text);

/* Fail with "PATH: expected EXPECT, got 'VALUE'". */
int yamldoc_bad(struct yamldoc *y, const struct yamldoc_ref *r, const char *expect);

/* Read a decimal integer in [lo, hi]. */
int yamldoc_int(struct yamldoc *y, const struct yamldoc_ref *r, int64_t lo, int64_t hi,
		      int64_t *out);

/* Read a finite number within b. */
int yamldoc_number(struct yamldoc *y, const struct yamldoc_ref *r,
			 const struct yamldoc_bounds *b, double *out);

/* Read a non-empty string without control characters, shorter than size bytes, into buf. */
int yamldoc_string(struct yamldoc *y, const struct yamldoc_ref *r, char *buf,
			 size_t size);

/* Read one of names[0..n) and store its index in *out. */
int yamldoc_choice(struct yamldoc *y, const struct yamldoc_ref *r,
			 const char *const *names, int n, int *out);

#endif
