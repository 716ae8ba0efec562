/*
 * billfile_private: what the two halves of the bill reader share (billfile.c: the file, libcsv and the rows'
 * fields; billfile_row.c: the header's columns, each row's rules and the cells). billfile.c calls
 * billfile_row.c, never the other way. Not for other modules: their interface is billfile.h.
 */
#ifndef GPUCAP_BILLFILE_PRIVATE_H
#define GPUCAP_BILLFILE_PRIVATE_H

/* Private to models/formats/: the build defines GPUCAP_IN_FORMATS for that folder's files alone. */
#ifndef GPUCAP_IN_FORMATS
#error "billfile_private.h is private to models/formats/ (models/ARCHITECTURE.md)"
#endif

#include <stdbool.h>
#include <stdio.h>

#include <csv.h>

#include "billfile.h"

#define FIELD_MAX 256  /* bytes kept of one field, with the NUL: longer values are cut (none we read is) */

/* The columns read, FOCUS's then CUR's (billfile_cols names them). */
enum col {
	F_START, F_END, F_CATEGORY, F_QTY, F_UNIT, F_EFFECTIVE, F_PRICING, F_CD_STATUS, F_CD_TYPE, F_CD_CATEGORY,
	F_SUBCATEGORY, F_CR_ID, F_CR_STATUS, F_SKU, F_RTYPE, F_X_USAGE_TYPE, F_X_INSTANCE_TYPE,
	U_START, U_END, U_TYPE, U_USAGE_TYPE, U_AMOUNT, U_UNBLENDED, U_TERM, U_INSTANCE_TYPE, U_SP_EFFECTIVE,
	U_RI_EFFECTIVE, U_RI_UNUSED_UPFRONT, U_RI_UNUSED_RECURRING, U_SP_COMMITMENT, U_SP_USED, C_N
};

/* Each column's name, and whether a file of its format must have it. */
struct billfile_col {
	const char *name;
	bool required;
};
extern const struct billfile_col billfile_cols[C_N];

/* One read of a bill. */
struct reader {
	const char *path;
	FILE *f;
	struct csv_parser csv;
	struct billfile *b;
	const char *const *types;
	int ntypes;
	int col[C_N];            /* field number of each column, -1 when absent */
	char val[C_N][FIELD_MAX];
	int nf;                  /* fields of the current row so far */
	int ncols;               /* fields of the header; 0 while reading it */
	int64_t line;            /* the line being fed, from 1 */
	int64_t row_line;        /* the line the current row started on */
	size_t line_bytes;       /* bytes of the current line so far */
	int64_t alloc_lo;        /* the unix hour of b->cells[0] while reading (cover_hours) */
	int64_t alloc_n;         /* hours allocated from it */
	int rc;
	struct diag *d;
};

/* Fail the read: "FILE:LINE:COL: COLUMN: fmt(what); expected EXPECTED" (k C_N: "row" and no column). */
int billfile_fail_at(struct reader *r, enum col k, const char *fmt, const char *what, const char *expected);

/* The header is read (r->col set): decide the format and check its columns. */
int billfile_end_header(struct reader *r);

/* A data row is read (r->val set): leave it out, counted, or add it up. */
int billfile_end_row(struct reader *r);

#endif
