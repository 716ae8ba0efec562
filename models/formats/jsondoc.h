/*
 * jsondoc: a JSON text parsed whole by libfyaml in JSON mode, with libfyaml's messages collected into the
 * struct rather than printed, and the positions of its nodes for messages. The trace readers (pricetrace,
 * availtrace) share it; each checks the document's contents itself.
 *
 * A struct jsondoc is caller-owned storage: jsondoc_load fills it, jsondoc_fini frees what it holds. Its
 * address is handed to libfyaml while loading, so it must not move in between. Errors: the first error
 * libfyaml collects becomes STATUS_EINPUT "LABEL:LINE:COL: invalid JSON: <libfyaml's message>"; an error
 * without one becomes "LABEL:1: invalid JSON: <libfyaml's first line of output>"; STATUS_ENOMEM when
 * libfyaml cannot allocate. Lines and columns count from 1, as messages do.
 */
#ifndef GPUCAP_JSONDOC_H
#define GPUCAP_JSONDOC_H

#include <libfyaml.h>
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

struct jsondoc {
	struct fy_diag *diag;     /* collects libfyaml's errors; owned */
	struct fy_parser *fyp;    /* the parser of text; owned */
	struct fy_document *fyd;  /* the parsed document (its root: fy_document_root); owned */
	char libmsg[256];         /* first line of libfyaml output that was not a collected error, text */
};

/*
 * Parse len bytes of text (keeps it: text must outlive the load until jsondoc_fini) into *j, which is
 * zeroed first. `label` names the file in messages; `what` ends the out-of-memory message "out of memory
 * while reading WHAT". On failure *j is freed and left zeroed (jsondoc_fini on it is a no-op).
 */
int jsondoc_load(struct jsondoc *j, const char *text, size_t len, const char *label, const char *what,
		 struct diag *d);

/* Free what *j holds and zero it; NULL and zeroed structs allowed. */
void jsondoc_fini(struct jsondoc *j);

/*
 * Where node n starts, into *line and *col: a scalar's token, or a collection's first child's. False when
 * unknown (n NULL, or an empty collection), leaving *line and *col as they were.
 */
bool jsondoc_node_pos(struct fy_node *n, int *line, int *col);

/* The value of a JSON number written in n (plain: not a string, true, false or null), finite; false, with
 * *v unchanged, when n is none. */
bool jsondoc_number(struct fy_node *n, double *v);

/* The line (from 1) of the first NUL or non-UTF-8 byte of len bytes of s, or 0 when they are all UTF-8 text
 * (a character cut off at the end counts as bad). libfyaml is given only text that passes. */
int jsondoc_bad_text_line(const unsigned char *s, size_t len);

/* What n holds, for "got ...": "a mapping", "a list", "nothing", or its text (strings quoted, long text
 * cut). Returns buf (size bytes, >= 64) or a constant. */
const char *jsondoc_describe(struct fy_node *n, char *buf, size_t size);

/* STATUS_EINPUT with the printf-style message at node n's position in `label`, or at `near` when n has
 * none (an empty list, a missing key), or at line 1. */
int jsondoc_fail(struct diag *d, const char *label, struct fy_node *n, struct fy_node *near,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
