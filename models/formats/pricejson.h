/*
 * pricejson: what the price-list readers (pricelist_aws.c, pricelist_azure.c) share: reading the keys of a
 * vendor's JSON document with messages that name the JSON path, and collecting the rows of one region.
 *
 * A struct pricejson is the reader's state, on its stack: the file's label and diag, where messages are
 * placed (a document inside a JSON string is placed at the string), the regions seen for the "no rows for
 * the region" message, and the list being filled. Every getter fails with STATUS_EINPUT and "FILE:LINE:COL:
 * PATH: what; expected what"; a `path` argument is the JSON path of the mapping read from, "" for the root.
 */
#ifndef GPUCAP_PRICEJSON_H
#define GPUCAP_PRICEJSON_H

#include <libfyaml.h>
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "pricelist.h"

#define PRICEJSON_PATH_MAX 512  /* bytes of a JSON path in a message */
#define PRICEJSON_REGIONS 6     /* regions named in a message */

struct pricejson {
	const char *label;        /* the file, in messages (borrowed) */
	struct diag *d;           /* receives the message (borrowed) */
	const char *region;       /* the region kept (borrowed) */
	bool placed;              /* the label holds the position (a document in a string): messages add none */
	int row_line;             /* the line rows are given when placed: the string's */
	char regions[PRICEJSON_REGIONS][PRICELIST_NAME_MAX];  /* other regions seen, for messages */
	int nregions;             /* kept in regions */
	bool more_regions;        /* more were seen */
	bool priced;              /* a row of any region was seen */
	struct pricelist *pl;     /* the list filled (borrowed) */
	int cap;                  /* rows allocated in pl->rows */
	void *extra;              /* a reader's own state (pricelist_gcp.c), or NULL */
	const struct pricelist_machine *machines;  /* gcp_skus: machines beside the built-in ones (borrowed) */
	int nmachines;            /* in machines */
};

/* Fail at node n (or `near` when n has no position): "LABEL:LINE:COL: PATH: message". */
int pricejson_fail(struct pricejson *c, struct fy_node *n, struct fy_node *near, const char *path,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Call item() on each element of the list root.key (required; `expect` describes it), with its path
 * "key[i]"; stop at the first failure. */
int pricejson_each(struct pricejson *c, struct fy_node *root, const char *key, const char *expect,
		   int (*item)(struct pricejson *c, struct fy_node *n, const char *path));

/* path + "." + key (or key alone at the root, or "[i]" when key is NULL) into buf (PRICEJSON_PATH_MAX). */
const char *pricejson_path(char *buf, const char *path, const char *key, int i);

/* The child of mapping `map` (at `path`) named key, which must be a mapping (want 'm'), a list ('l') or a
 * string ('s'); *out NULL and STATUS_OK when absent and !required. `expect` ends the message. */
int pricejson_child(struct pricejson *c, struct fy_node *map, const char *path, const char *key, char want,
		    bool required, const char *expect, struct fy_node **out);

/* The string child `key` copied into buf (size bytes, a longer one is an error); "" when absent and
 * !required. */
int pricejson_string(struct pricejson *c, struct fy_node *map, const char *path, const char *key,
		     bool required, char *buf, size_t size);

/* The child `key`, a decimal number >= 0 written as a JSON number or a string of one (AWS writes
 * "55.0400000000"), into *v. Required. */
int pricejson_number(struct pricejson *c, struct fy_node *map, const char *path, const char *key, double *v);

/* Note that a priced row of `region` was seen; true when it is the region kept. */
bool pricejson_region(struct pricejson *c, const char *region);

/* Append *r to the list (STATUS_ENOMEM when it cannot grow). */
int pricejson_add(struct pricejson *c, const struct pricelist_row *r);

/* At the end: fail when no row of the region was kept, naming what the file has ("what" names the rows, as
 * "Linux Shared On-Demand or Reserved rows"). */
int pricejson_finish(struct pricejson *c, const char *what);

/* The readers, each given the document's root (pricelist.c reads the file and dispatches): */
int pricelist_aws_read(struct pricejson *c, struct fy_node *root);         /* pricelist_aws.c */
int pricelist_aws_blocks_read(struct pricejson *c, struct fy_node *root);  /* pricelist_aws.c */
int pricelist_azure_read(struct pricejson *c, struct fy_node *root);       /* pricelist_azure.c */
int pricelist_gcp_read(struct pricejson *c, struct fy_node *root);         /* pricelist_gcp.c (root: a
									    * mapping or a list) */

#endif
