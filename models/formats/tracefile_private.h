/*
 * tracefile_private: what the two halves of the trace reader share (tracefile.c: the pull loop, line cutting,
 * values and CSV rows; tracefile_json.c: JSON lines). Not for other modules: their interface is tracefile.h.
 */
#ifndef GPUCAP_TRACEFILE_PRIVATE_H
#define GPUCAP_TRACEFILE_PRIVATE_H

/* Private to models/formats/: the build defines GPUCAP_IN_FORMATS for that folder's files alone. */
#ifndef GPUCAP_IN_FORMATS
#error "tracefile_private.h is private to models/formats/ (models/ARCHITECTURE.md)"
#endif

#include <csv.h>
#include <stdio.h>
#include <yajl/yajl_parse.h>

#include "tracefile.h"

#define BLOCK (64 * 1024)        /* bytes read at a time */
#define FIELD_MAX 64             /* longest mapped field kept, with its NUL; no valid value is longer */
#define HEADER_LIST_MAX 256      /* bytes of "A, B, C" kept for messages */
#define QUOTE_MAX 40             /* bytes of a bad value quoted back */
#define GOT_BUF 96               /* room for them, quoted */
#define EPOCH_S_HINT_DIGITS 12   /* epoch_s with this many digits, >= 1e11 s (the year 5138): milliseconds? */
#define TOKENS_MAX 10000000      /* largest token count accepted */
#define TIME_MAX_US INT64_C(100000000000000000)  /* 1e11 s (year 5138): larger is not a time, and fits */

enum { C_TIME, C_IN, C_OUT, C_SERVICE, C_HASH, C_WHERE, C_N = C_WHERE + TRACEFILE_WHERE_MAX };  /* mapped */


enum jtype { J_NONE, J_STRING, J_NUMBER, J_OTHER, J_ARRAY, J_OBJECT };  /* a JSON value's type */

struct tracefile {
	FILE *f;                      /* the open file, owned */
	char *label;                  /* name in messages, owned */
	struct trace_mapping m;       /* copied at open */
	const char *name[C_N];        /* the mapped column names (in m), "" when not mapped */
	int col[C_N];                 /* their index in the header, -1 until found or when not mapped */
	int ncols;                    /* columns in the header; 0 until it has been read */
	int64_t header_line;          /* where the header is */
	char header[HEADER_LIST_MAX]; /* its names, "A, B, C", cut to fit */
	struct csv_parser csv;
	unsigned char block[BLOCK];   /* the block being fed, bytes [bpos, blen) not yet */
	size_t blen, bpos;
	bool eof;                     /* the file has ended and the parser is finished */
	int64_t line;                 /* line of the next byte fed */
	int64_t row_line;             /* line where the current row starts */
	size_t row_bytes;             /* bytes of the current row fed so far (terminators not counted) */
	int need;                     /* UTF-8 check: continuation bytes still expected, */
	unsigned char lo, hi;         /* ... and the range allowed for the next one */
	int nf;                       /* fields of the current row so far */
	bool blank;                   /* all of them empty so far */
	char val[C_N][FIELD_MAX];     /* its mapped fields, cut to fit */
	size_t vlen[C_N];             /* their real lengths */
	int64_t prev_us, prev_line;   /* the previous row's time and line; prev_line 0 before the first */
	int64_t filtered;             /* rows the `where` filter left out so far */
	bool jsonl;                   /* JSON lines (below) rather than CSV */
	yajl_handle y;                /* JSON lines: the parser, owned, one for the whole file */
	int depth;                    /* nesting depth of the current JSON value */
	unsigned keymask;             /* mapped columns the current depth-1 key names (bit k) */
	bool in_hash;                 /* inside the hash-id array */
	int objects;                  /* top-level objects ended on the current line */
	bool any_object;              /* an object has begun since the start (else there is nothing to finish) */
	enum jtype jt[C_N];           /* the types met for the mapped keys of the current object, J_NONE: absent */
	uint64_t *hashes;             /* the current row's hash ids, owned, grown to the largest row */
	int32_t nhashes, hcap;
	uint64_t *hspare;             /* the last row returned's, owned: the two alternate, so a record's hash */
	int32_t hspare_cap;           /* ... ids stay valid while the next row is read (one-row look-ahead) */
	bool hswap;                   /* a row has been returned from hashes: swap at the next object */
	struct trace_record rec;      /* the row read last, */
	bool ready;                   /* ... not yet returned */
	int rc;                       /* the first failure; the reader stops there */
	struct diag err;              /* its message */
};

/* The role of each mapped column, for messages ("arrival-time"). */
extern const char *const tracefile_role[C_N];

/* Record the first failure (later ones are consequences) as "FILE:LINE: message" and return its status. */
int __attribute__((format(printf, 4, 5)))
tracefile_fail(struct tracefile *t, int status, int64_t line, const char *fmt, ...);

/* s quoted for a message, control characters shown as '?' and long text cut; buf holds GOT_BUF bytes. */
const char *tracefile_quote(const char *s, char *buf);

/* What mapped column k must hold, for "expected ..." (its time format for the time column). */
const char *tracefile_expected(const struct tracefile *t, int k);

/* Whether c is an ASCII digit. */
bool tracefile_is_digit(char c);

/* Whether the current row passes every `where` filter (its value, as text, one of the listed ones). */
bool tracefile_kept(const struct tracefile *t);

/* The current row's values (fields or keys, in val[]) into t->rec (ready), unless the filter leaves it out;
 * a bad value is a recorded failure. */
int tracefile_take_row(struct tracefile *t);

/* JSON lines (tracefile_json.c): YAJL's callbacks for the reader, the failure of a line YAJL refused, and
 * the end of a line (or of the file), which must not be inside an object. */
extern const yajl_callbacks tracefile_jcallbacks;
int tracefile_json_failed(struct tracefile *t);
void tracefile_json_line_end(struct tracefile *t);

#endif
