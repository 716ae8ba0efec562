/*
 * tracefile: a request trace in a CSV or JSON-lines file, read a block at a time.
 *
 * One row is one request. A header line names the columns; a struct trace_mapping says which column holds
 * the arrival time (and in which format) and, optionally, the prompt tokens, output tokens and service
 * time. The Azure LLM inference traces of 2023 (header TIMESTAMP,ContextTokens,GeneratedTokens; times
 * "2023-11-16 18:17:03.9799600", UTC) read with tracefile_azure_mapping() and no other setting.
 *
 * JSON lines (mapping.format TRACE_FORMAT_JSONL): one JSON object per line, blank lines skipped; the mapping
 * names keys instead of header columns, and hash_column an array of prefix block ids (whole numbers, at
 * most TRACEFILE_HASHES_MAX a row) that each record points to. The Mooncake traces read with
 * tracefile_mooncake_mapping(). In both formats token counts may be integral decimals (63.0, 6.3e1), and
 * mapping.where keeps only the rows whose filter columns hold one of the listed texts (the others are
 * counted in tracefile_filtered() and trace_summary.filtered, and are not requests).
 *
 * Streaming: the file is read 64 KiB at a time (libcsv or YAJL 2); memory does not grow with the file's
 * length (the hash-id buffers grow to the longest row). A row longer than TRACEFILE_LINE_MAX bytes (JSON
 * lines: TRACEFILE_JSONL_LINE_MAX) is an error (a binary or corrupted file), as are NUL bytes.
 *
 * CSV fields are separated by mapping.delimiter (',' by default; ';' or a tab, say).
 *
 * Errors (STATUS_EINPUT, message "FILE:LINE: what; expected what", LINE counting from 1 with the header as
 * line 1): a missing header column, a row with too few fields, a bad or negative timestamp, a bad UTC
 * offset in an ISO time ("+25:00"; expected +HH:MM), an epoch_s time of 10^11 s or more (the year 5138:
 * the message asks "did you mean epoch_ms?"), a timestamp
 * earlier than the previous row's ("out of order"), a token count that is negative or not an integer, a
 * service time that is negative or not a number, an empty file or one with a header only, a binary file,
 * an over-long line, every row left out by the filter; in JSON lines also a line that is not one complete
 * object, a missing mapped key or one of the wrong type, a bad hash id. STATUS_ENOENT for a file that cannot
 * be opened, STATUS_EIO for a read error.
 */
#ifndef GPUCAP_TRACEFILE_H
#define GPUCAP_TRACEFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"

#define TRACEFILE_LINE_MAX (64 * 1024)   /* longest row accepted, bytes */
#define TRACEFILE_JSONL_LINE_MAX (1024 * 1024)  /* longest JSON-lines row accepted (hash lists are long) */
#define TRACEFILE_COLUMN_MAX 64           /* bytes in a column name, including the NUL */
#define TRACEFILE_HASHES_MAX 16384        /* hash ids accepted in one row */
#define TRACEFILE_WHERE_MAX 4             /* columns a row filter may test */
#define TRACEFILE_WHERE_VALUES 16         /* values listed for one such column */
#define TRACEFILE_VALUE_MAX 64            /* bytes in one listed value, including the NUL */
#define TRACEFILE_BLOCK_TOKENS 512        /* tokens per hash block by default: the Mooncake traces' (SOURCES.md
                                             [mooncake-trace]) */

enum trace_format {
	TRACE_FORMAT_CSV,     /* a header line naming the columns, then one row per line (libcsv) */
	TRACE_FORMAT_JSONL    /* one JSON object per line, its keys named by the mapping (YAJL 2) */
};

enum trace_time_format {
	TRACE_TIME_ISO,       /* ISO-8601: "2026-12-01T00:00:00Z", "2023-11-16 18:17:03.9799600" (no zone = UTC),
	                         "2026-03-08T14:00:00+02:00" (an offset, taken off: UTC) */
	TRACE_TIME_EPOCH_S,   /* seconds since 1970-01-01 UTC, may have a fraction */
	TRACE_TIME_EPOCH_MS,  /* milliseconds since 1970-01-01 UTC */
	TRACE_TIME_SECONDS,   /* seconds from the start of the trace (any origin), may have a fraction */
	TRACE_TIME_MILLISECONDS  /* milliseconds from the start of the trace (any origin): Mooncake's */
};

/* Whether times in format f count from the trace's own origin (kept as written when replayed). */
static inline bool tracefile_relative(enum trace_time_format f)
{
	return f == TRACE_TIME_SECONDS || f == TRACE_TIME_MILLISECONDS;
}

/* A row filter: keep a row only when its column's value, as text, is one of the listed values. */
struct trace_where {
	char column[TRACEFILE_COLUMN_MAX];
	int nvalues;                                              /* 1..TRACEFILE_WHERE_VALUES */
	char values[TRACEFILE_WHERE_VALUES][TRACEFILE_VALUE_MAX];
};

struct trace_mapping {
	char time_column[TRACEFILE_COLUMN_MAX];           /* header name of the arrival-time column, required */
	enum trace_time_format time_format;               /* how it is written */
	char input_tokens_column[TRACEFILE_COLUMN_MAX];   /* prompt tokens; "" = none */
	char output_tokens_column[TRACEFILE_COLUMN_MAX];  /* output tokens; "" = none */
	char service_column[TRACEFILE_COLUMN_MAX];       /* service time in seconds; "" = none */
	enum trace_format format;                         /* CSV (the default, 0) or JSON lines */
	char hash_column[TRACEFILE_COLUMN_MAX];           /* JSON lines only: an array of prefix block ids; "" = none */
	int32_t block_tokens;                             /* tokens per hash block (kept for the prefix cache) */
	int nwhere;                                       /* row filters, all must hold; 0 = keep every row */
	struct trace_where where[TRACEFILE_WHERE_MAX];
	char delimiter;                                   /* CSV: the field separator, 0 = ',' (the default);
	                                                     one byte, never '"', '\r', '\n' (the loader checks) */
};

struct trace_record {
	int64_t t_us;        /* arrival time in microseconds: since the epoch for ISO/epoch formats, since
	                        the file's origin for TRACE_TIME_SECONDS */
	int64_t line;        /* the row's line number */
	int32_t in_tokens;   /* prompt tokens, -1 when the mapping has no such column */
	int32_t out_tokens;  /* output tokens, -1 when none */
	double service_s;    /* service time, NaN when none */
	const uint64_t *hashes;  /* the row's hash ids, in the reader's buffers: valid until the call after next
	                            (two buffers alternate, so a one-row look-ahead keeps them); NULL when the
	                            mapping has no hash column */
	int32_t nhashes;     /* how many, 0..TRACEFILE_HASHES_MAX */
};

struct trace_summary {
	int64_t rows;             /* requests */
	int64_t first_us, last_us;/* first and last arrival (same scale as trace_record.t_us) */
	bool has_tokens;          /* the mapping has token columns */
	double in_sum, out_sum;   /* token totals */
	int32_t in_max, out_max;  /* largest token counts */
	int64_t filtered;         /* rows the mapping's `where` left out (not requests) */
};

struct tracefile;  /* opaque: an open trace */

/* The mapping of the Azure LLM inference traces 2023. */
void tracefile_azure_mapping(struct trace_mapping *m);

/* The mapping of the Mooncake traces (FAST 2025): JSON lines, `timestamp` in ms from the trace's start,
 * `input_length`, `output_length`, `hash_ids` in blocks of TRACEFILE_BLOCK_TOKENS tokens. */
void tracefile_mooncake_mapping(struct trace_mapping *m);

/* Open `path` (label names it in messages; NULL: the path) and read its header. Returns owned in *out. */
int tracefile_open(struct tracefile **out, const char *path, const char *label, const struct trace_mapping *m,
		   struct diag *d);

/* The next row into *rec: STATUS_OK, STATUS_DONE at the end, or an error (the reader is then unusable). */
int tracefile_next(struct tracefile *t, struct trace_record *rec, struct diag *d);

/* Start again from the first row: a full restart from byte 0 (header, first row), also after a failure. */
int tracefile_rewind(struct tracefile *t, struct diag *d);

/* Rows the `where` filter has left out since the last open or rewind. */
int64_t tracefile_filtered(const struct tracefile *t);

/* Close; NULL allowed. */
void tracefile_close(struct tracefile *t);

/* Read the whole file once, checking every row, and summarise it (bounded memory). */
int tracefile_scan(const char *path, const char *label, const struct trace_mapping *m, struct trace_summary *out,
		   struct diag *d);

#endif
