/*
 * tracefile: a request trace in a CSV file (see tracefile.h).
 *
 * libcsv parses push-style (it calls back once per field and once per row) but callers pull one record at
 * a time, so the reader feeds libcsv one line at a time: each 64 KiB block is cut after every CR and LF,
 * each piece is checked (UTF-8 without NUL bytes, the row no longer than TRACEFILE_LINE_MAX) and given to
 * csv_parse(), and at most one row can end inside one piece. Memory is the block, libcsv's field buffer
 * (bounded by the row limit) and the few fields kept from the current row, whatever the file's length.
 *
 * Lines are counted by LF from 1 and a row's line is the one where it starts; blank lines are skipped. A
 * UTF-8 byte-order mark before the header is ignored, and libcsv trims spaces and tabs around unquoted
 * fields. tracefile_open() reads the header and the first row, so an empty or header-only file (or a bad
 * first row) fails at once; tracefile_rewind() does the same again from byte 0.
 */
#include "tracefile.h"

#include <assert.h>
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "units.h"

#define BLOCK (64 * 1024)        /* bytes read at a time */
#define FIELD_MAX 64             /* longest mapped field kept, with its NUL; no valid value is longer */
#define HEADER_LIST_MAX 256      /* bytes of "A, B, C" kept for messages */
#define QUOTE_MAX 40             /* bytes of a bad value quoted back */
#define GOT_BUF 96               /* room for them, quoted */
#define TOKENS_MAX 10000000      /* largest token count accepted */
#define TIME_MAX_US INT64_C(100000000000000000)  /* 1e11 s (year 5138): larger is not a time, and fits */

enum { C_TIME, C_IN, C_OUT, C_SERVICE, C_N };  /* the mapped columns */

static const char *const role[C_N] = { "arrival-time", "prompt-token", "output-token", "service-time" };
static const char *const what[C_N] = { "timestamp", "token count", "token count", "service time" };

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
	struct trace_record rec;      /* the row read last, */
	bool ready;                   /* ... not yet returned */
	int rc;                       /* the first failure; the reader stops there */
	struct diag err;              /* its message */
};

/* ---- messages -------------------------------------------------------------------------------------- */

/* Record the first failure (later ones are consequences) and return its status. */
static int __attribute__((format(printf, 4, 5)))
fail(struct tracefile *t, int status, int64_t line, const char *fmt, ...)
{
	char msg[DIAG_MSG_MAX];
	va_list ap;

	if (t->rc)
		return t->rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	t->rc = diag_at(&t->err, status, t->label, line > INT32_MAX ? 0 : (int)line, 0, "%s", msg);
	return t->rc;
}

/* The stored failure, copied into the caller's diag. */
static int report(const struct tracefile *t, struct diag *d)
{
	if (d)
		*d = t->err;
	return t->rc;
}

/* s quoted for a message, control characters shown as '?' and long text cut. Returns buf. */
static const char *quote(const char *s, char *buf)
{
	size_t n = strlen(s), i;

	buf[0] = '\'';
	for (i = 0; i < n && (i < QUOTE_MAX || (s[i] & 0xC0) == 0x80); i++)  /* cut between characters */
		buf[i + 1] = (unsigned char)s[i] < 0x20 || s[i] == 0x7F ? '?' : s[i];
	snprintf(buf + i + 1, GOT_BUF - i - 1, "%s'", i < n ? "..." : "");
	return buf;
}

static const char *expected(const struct tracefile *t, int k)
{
	static const char *const time[] = {
		[TRACE_TIME_ISO] = "an ISO-8601 UTC time from 1970 on, such as 2023-11-16 18:17:03.9799600 or "
				   "2023-11-16T18:17:03Z",
		[TRACE_TIME_EPOCH_S] = "seconds since 1970-01-01 UTC, a decimal number such as 1700158623.25",
		[TRACE_TIME_EPOCH_MS] = "milliseconds since 1970-01-01 UTC, a decimal number such as 1700158623250",
		[TRACE_TIME_SECONDS] = "seconds from the start of the trace, a decimal number >= 0 such as 12.5",
	};

	if (k == C_IN || k == C_OUT)
		return "a whole number from 0 to 10000000";
	return k == C_SERVICE ? "seconds, a decimal number >= 0" : time[t->m.time_format];
}

/* A bad (or negative) value in mapped column k of the current row. */
static int bad_value(struct tracefile *t, int k, bool negative)
{
	char got[GOT_BUF];

	return fail(t, STATUS_EINPUT, t->row_line, "%s %s %s in column '%s'; expected %s",
		    negative ? "negative" : "bad", what[k], quote(t->val[k], got), t->name[k], expected(t, k));
}

static int not_text(struct tracefile *t)
{
	return fail(t, STATUS_EINPUT, t->line, "a NUL byte or bytes that are not UTF-8; expected a text CSV file");
}

static int csv_failed(struct tracefile *t)
{
	int e = csv_error(&t->csv);

	if (e == CSV_ENOMEM || e == CSV_ETOOBIG)
		return fail(t, STATUS_ENOMEM, t->row_line, "out of memory reading the trace (libcsv: %s)",
			    csv_strerror(e));
	return fail(t, STATUS_EINPUT, t->row_line, "malformed quoting (libcsv: %s); expected a CSV trace with "
		    "fields either unquoted or wholly in double quotes", csv_strerror(e));
}

/* ---- values ---------------------------------------------------------------------------------------- */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The digits at *s as the fraction of a unit of 10^p microseconds, rounded to the microsecond (halves up:
 * only the first digit after the p kept ones decides). Advances *s past all the digits.
 */
static int64_t read_fraction(const char **s, int p)
{
	int64_t v = 0;
	bool up = false;
	int i = 0;

	for (; is_digit(**s); (*s)++, i++) {
		if (i < p)
			v = v * 10 + (**s - '0');
		else if (i == p)
			up = **s >= '5';
	}
	for (; i < p; i++)
		v *= 10;
	return v + up;
}

/*
 * A decimal number of units of 10^p microseconds (p = 6: seconds, 3: milliseconds), to the nearest
 * microsecond: digits, then optionally a point and digits; no sign, exponent or spaces. Read exactly, with
 * no binary floating point, so 1700158623.9799600 keeps its microseconds.
 */
static bool parse_fixed(const char *s, int p, int64_t *out_us)
{
	int64_t unit = 1, whole = 0, frac = 0;
	int digits = 0;

	for (int i = 0; i < p; i++)
		unit *= 10;
	for (; is_digit(*s); s++, digits++) {
		whole = whole * 10 + (*s - '0');
		if (whole > TIME_MAX_US / unit)
			return false;
	}
	if (*s == '.') {
		s++;
		digits += is_digit(*s);
		frac = read_fraction(&s, p);
	}
	if (*s || digits == 0)
		return false;
	*out_us = whole * unit + frac;
	return true;
}

/*
 * "YYYY-MM-DDTHH:MM:SS" or with a space for the T, then optionally a fraction of any length (rounded to
 * the microsecond, halves up, as units_parse_time_us() does), then optionally "Z" or "+00:00"; no zone is
 * UTC. units_parse_time_us() checks the date.
 */
static bool parse_iso(const char *s, int64_t *out_us)
{
	char buf[24];
	const char *p;
	int64_t us, frac = 0;

	if (strlen(s) < 19 || (s[10] != 'T' && s[10] != ' '))
		return false;
	p = s + 19;
	memcpy(buf, s, 19);
	buf[10] = 'T';
	memcpy(buf + 19, "Z", 2);
	if (*p == '.') {
		if (!is_digit(*++p))
			return false;
		frac = read_fraction(&p, 6);
	}
	if (*p && strcmp(p, "Z") != 0 && strcmp(p, "+00:00") != 0)
		return false;
	if (units_parse_time_us(buf, &us) != STATUS_OK || us < 0 || us / 1000000 > TIME_MAX_US / 1000000)
		return false;
	*out_us = us + frac;
	return true;
}

static int parse_time(struct tracefile *t, int64_t *t_us)
{
	const char *s = t->val[C_TIME];
	int p = t->m.time_format == TRACE_TIME_EPOCH_MS ? 3 : 6;  /* the unit is 10^p microseconds */
	int64_t ignored;

	if (t->vlen[C_TIME] >= FIELD_MAX)
		return bad_value(t, C_TIME, false);
	if (t->m.time_format == TRACE_TIME_ISO ? parse_iso(s, t_us) : parse_fixed(s, p, t_us))
		return STATUS_OK;
	return bad_value(t, C_TIME, t->m.time_format != TRACE_TIME_ISO && s[0] == '-' &&
			 parse_fixed(s + 1, p, &ignored));
}

/* A whole number of tokens, 0 to TOKENS_MAX, digits only. */
static int parse_tokens(struct tracefile *t, int k, int32_t *out)
{
	const char *s = t->val[k];
	int32_t v = 0;

	if (t->vlen[k] < FIELD_MAX && is_digit(*s)) {
		for (; is_digit(*s) && v <= TOKENS_MAX; s++)
			v = v * 10 + (*s - '0');
		if (!*s && v <= TOKENS_MAX) {
			*out = v;
			return STATUS_OK;
		}
	}
	s = t->val[k];
	return bad_value(t, k, s[0] == '-' && is_digit(s[1]) && strspn(s + 1, "0123456789") == strlen(s + 1));
}

/* A decimal number of seconds >= 0: digits, sign, point and exponent only (no hex, inf or nan). */
static int parse_service(struct tracefile *t, double *out_s)
{
	const char *s = t->val[C_SERVICE];
	char *end;
	double v;

	if (t->vlen[C_SERVICE] >= FIELD_MAX || strspn(s, "0123456789+-.eE") != strlen(s) ||
	    !strpbrk(s, "0123456789"))
		return bad_value(t, C_SERVICE, false);
	v = strtod(s, &end);
	if (*end || !isfinite(v))
		return bad_value(t, C_SERVICE, false);
	if (v < 0)
		return bad_value(t, C_SERVICE, true);
	*out_s = v + 0.0;  /* -0 is 0 */
	return STATUS_OK;
}

/* ---- rows ------------------------------------------------------------------------------------------ */

/* One header name: kept for messages, and matched against the mapping (the first of equal names wins). */
static void header_field(struct tracefile *t, const char *s, size_t len)
{
	size_t o = strlen(t->header);

	if (t->nf == 0 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {  /* a byte-order mark */
		s += 3;
		len -= 3;
	}
	if (o + len + 8 < sizeof t->header)
		snprintf(t->header + o, sizeof t->header - o, "%s%.*s", o ? ", " : "", (int)len, s);
	else if (o + 6 < sizeof t->header && !strstr(t->header, ", ..."))
		snprintf(t->header + o, sizeof t->header - o, ", ...");
	for (int k = 0; k < C_N; k++)
		if (t->name[k][0] && t->col[k] < 0 && strlen(t->name[k]) == len && memcmp(t->name[k], s, len) == 0)
			t->col[k] = t->nf;
}

static void on_field(void *s, size_t len, void *user)
{
	struct tracefile *t = user;

	if (t->rc)
		return;
	t->blank &= len == 0;
	if (t->ncols == 0) {
		header_field(t, s ? s : "", len);  /* libcsv may pass NULL for an empty field */
	} else {
		for (int k = 0; k < C_N; k++) {
			size_t n = len < FIELD_MAX ? len : FIELD_MAX - 1;

			if (t->col[k] != t->nf)
				continue;
			if (n > 0)
				memcpy(t->val[k], s, n);
			t->val[k][n] = '\0';
			t->vlen[k] = len;
		}
	}
	t->nf++;
}

static int end_header(struct tracefile *t)
{
	for (int k = 0; k < C_N; k++)
		if (t->name[k][0] && t->col[k] < 0)
			return fail(t, STATUS_EINPUT, t->row_line, "no column '%s' in the header (%s); expected the "
				    "%s column named in the mapping (names are case-sensitive)", t->name[k],
				    t->header, role[k]);
	t->ncols = t->nf;
	t->header_line = t->row_line;
	return STATUS_OK;
}

static int end_row(struct tracefile *t)
{
	struct trace_record r = { .line = t->row_line, .in_tokens = -1, .out_tokens = -1, .service_s = NAN };
	int rc;

	if (t->nf != t->ncols)
		return fail(t, STATUS_EINPUT, t->row_line, "%d field%s; expected %d, as in the header", t->nf,
			    t->nf == 1 ? "" : "s", t->ncols);
	if ((rc = parse_time(t, &r.t_us)))
		return rc;
	if (t->prev_line > 0 && r.t_us < t->prev_us)
		return fail(t, STATUS_EINPUT, t->row_line, "timestamp earlier than the previous row's (line %lld); "
			    "expected rows in time order", (long long)t->prev_line);
	if (t->col[C_IN] >= 0 && (rc = parse_tokens(t, C_IN, &r.in_tokens)))
		return rc;
	if (t->col[C_OUT] >= 0 && (rc = parse_tokens(t, C_OUT, &r.out_tokens)))
		return rc;
	if (t->col[C_SERVICE] >= 0 && (rc = parse_service(t, &r.service_s)))
		return rc;
	t->prev_us = r.t_us;
	t->prev_line = r.line;
	t->rec = r;
	t->ready = true;
	return STATUS_OK;
}

static void on_row(int c, void *user)
{
	struct tracefile *t = user;
	bool blank = t->nf == 0 || (t->nf == 1 && t->blank);  /* ",," is a row of empty fields, not blank */

	if (!t->rc && !blank && t->ncols > 0)
		end_row(t);
	else if (!t->rc && !blank)
		end_header(t);
	if (blank && t->ncols == 0) {  /* a blank line before the header: forget what it matched */
		t->header[0] = '\0';
		for (int k = 0; k < C_N; k++)
			t->col[k] = -1;
	}
	t->nf = 0;
	t->blank = true;
	t->row_bytes = 0;
	t->row_line = t->line + (c == '\n');  /* a CR ends a row; its LF then ends an empty one */
}

/* ---- feeding the parser ----------------------------------------------------------------------------- */

/* Check bytes as UTF-8 without NULs up to and including the first CR or LF; *len is how many. */
static bool scan_line(struct tracefile *t, const unsigned char *p, size_t n, size_t *len)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (t->need == 0 && c >= 0x20 && c < 0x80)
			continue;  /* the common case first */
		if (t->need > 0) {
			if (c < t->lo || c > t->hi)
				return false;
			t->lo = 0x80;
			t->hi = 0xBF;
			t->need--;
		} else if (c == '\n' || c == '\r') {
			i++;
			break;
		} else if (c >= 0xC2 && c <= 0xF4) {  /* E0, ED, F0, F4 exclude overlongs and surrogates */
			t->need = c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
			t->lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
			t->hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
		} else if (c == 0 || c >= 0x80) {
			return false;
		}
	}
	*len = i;
	return true;
}

/* Give the parser the next piece of the block: up to and including its next CR or LF. */
static void feed(struct tracefile *t)
{
	const unsigned char *p = t->block + t->bpos;
	size_t len, body;
	bool newline;

	if (!scan_line(t, p, t->blen - t->bpos, &len)) {
		not_text(t);
		return;
	}
	newline = p[len - 1] == '\n';
	body = len - (newline || p[len - 1] == '\r');
	if ((t->row_bytes += body) > TRACEFILE_LINE_MAX) {
		fail(t, STATUS_EINPUT, t->line, "line longer than %d bytes; expected a CSV trace",
		     TRACEFILE_LINE_MAX);
		return;
	}
	if (csv_parse(&t->csv, p, len, on_field, on_row, t) != len)
		csv_failed(t);
	t->bpos += len;
	t->line += newline;
}

/* Read the next block; at the end of the file, finish the parser (which ends a last row without LF). */
static void refill(struct tracefile *t)
{
	t->bpos = 0;
	t->blen = fread(t->block, 1, BLOCK, t->f);
	if (t->blen > 0)
		return;
	if (ferror(t->f)) {
		fail(t, STATUS_EIO, t->line, "cannot read: %s", strerror(errno));
		return;
	}
	t->eof = true;
	if (t->need > 0)
		not_text(t);  /* the file ends inside a character */
	else if (csv_fini(&t->csv, on_field, on_row, t) != 0)
		csv_failed(t);
}

/* Feed the parser until a row is ready (STATUS_OK), the file ends (STATUS_DONE) or something fails. */
static int pull(struct tracefile *t)
{
	while (!t->ready && !t->rc) {
		if (t->bpos < t->blen)
			feed(t);
		else if (t->eof)
			return STATUS_DONE;
		else
			refill(t);
	}
	return t->rc;
}

/* From byte 0: reset, read the header and the first row. */
static int start(struct tracefile *t)
{
	int rc;

	csv_free(&t->csv);
	if (csv_init(&t->csv, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL) != 0)
		return fail(t, STATUS_ENOMEM, 0, "out of memory");
	t->ncols = 0;
	t->header[0] = '\0';
	for (int k = 0; k < C_N; k++)
		t->col[k] = -1;
	t->blen = t->bpos = 0;
	t->eof = false;
	t->line = t->row_line = 1;
	t->row_bytes = 0;
	t->need = 0;
	t->nf = 0;
	t->blank = true;
	t->prev_line = 0;
	t->ready = false;
	if (fseek(t->f, 0, SEEK_SET) != 0)
		return fail(t, STATUS_EIO, 0, "cannot read: %s", strerror(errno));
	rc = pull(t);
	if (rc == STATUS_DONE && t->ncols == 0)
		return fail(t, STATUS_EINPUT, 0, "empty file; expected a header line and rows");
	if (rc == STATUS_DONE)
		return fail(t, STATUS_EINPUT, t->header_line, "no rows after the header");
	return rc;
}

/* ---- the interface --------------------------------------------------------------------------------- */

void tracefile_azure_mapping(struct trace_mapping *m)
{
	memset(m, 0, sizeof *m);
	snprintf(m->time_column, sizeof m->time_column, "TIMESTAMP");
	m->time_format = TRACE_TIME_ISO;
	snprintf(m->input_tokens_column, sizeof m->input_tokens_column, "ContextTokens");
	snprintf(m->output_tokens_column, sizeof m->output_tokens_column, "GeneratedTokens");
}

int tracefile_open(struct tracefile **out, const char *path, const char *label, const struct trace_mapping *m,
		   struct diag *d)
{
	struct tracefile *t;
	int rc;

	assert(m->time_column[0]);  /* the loader and the CLI always name one */
	label = label ? label : path;
	t = calloc(1, sizeof *t);
	if (!t || !(t->label = strdup(label))) {
		free(t);
		return diag_at(d, STATUS_ENOMEM, label, 0, 0, "out of memory opening the trace");
	}
	t->m = *m;
	t->name[C_TIME] = t->m.time_column;
	t->name[C_IN] = t->m.input_tokens_column;
	t->name[C_OUT] = t->m.output_tokens_column;
	t->name[C_SERVICE] = t->m.service_column;
	if (!(t->f = fopen(path, "rb"))) {
		rc = diag_at(d, STATUS_ENOENT, label, 0, 0, "cannot open: %s", strerror(errno));
		tracefile_close(t);
		return rc;
	}
	if ((rc = start(t)) != STATUS_OK) {
		report(t, d);
		tracefile_close(t);
		return rc;
	}
	*out = t;
	return STATUS_OK;
}

int tracefile_next(struct tracefile *t, struct trace_record *rec, struct diag *d)
{
	int rc = pull(t);

	if (rc == STATUS_OK) {
		*rec = t->rec;
		t->ready = false;
	} else if (rc < 0) {
		report(t, d);
	}
	return rc;
}

/* A full restart, so it also clears a failure (which, the file being the same, will come back). */
int tracefile_rewind(struct tracefile *t, struct diag *d)
{
	t->rc = STATUS_OK;
	diag_clear(&t->err);
	if (start(t) != STATUS_OK)
		return report(t, d);
	return STATUS_OK;
}

void tracefile_close(struct tracefile *t)
{
	if (!t)
		return;
	csv_free(&t->csv);
	if (t->f)
		fclose(t->f);
	free(t->label);
	free(t);
}

int tracefile_scan(const char *path, const char *label, const struct trace_mapping *m, struct trace_summary *out,
		   struct diag *d)
{
	struct trace_summary s = { .has_tokens = m->input_tokens_column[0] || m->output_tokens_column[0] };
	struct trace_record r;
	struct tracefile *t;
	int rc;

	if ((rc = tracefile_open(&t, path, label, m, d)))
		return rc;
	while ((rc = tracefile_next(t, &r, d)) == STATUS_OK) {
		if (s.rows++ == 0)
			s.first_us = r.t_us;
		s.last_us = r.t_us;
		if (r.in_tokens >= 0) {
			s.in_sum += r.in_tokens;
			s.in_max = r.in_tokens > s.in_max ? r.in_tokens : s.in_max;
		}
		if (r.out_tokens >= 0) {
			s.out_sum += r.out_tokens;
			s.out_max = r.out_tokens > s.out_max ? r.out_tokens : s.out_max;
		}
	}
	tracefile_close(t);
	if (rc != STATUS_DONE)
		return rc;
	*out = s;  /* only once the whole file has passed */
	return STATUS_OK;
}
