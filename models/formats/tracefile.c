/*
 * tracefile: a request trace in a CSV or JSON-lines file (see tracefile.h).
 *
 * Both formats share the pull loop, the line cutting and UTF-8 check, and the value parsing: a row's mapped
 * fields (CSV) or keys (JSON) are copied as text into val[], then tracefile_take_row() applies the filter
 * and parses them. JSON lines are described with their callbacks in tracefile_json.c.
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
#include "tracefile_private.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "units.h"

const char *const tracefile_role[C_N] = { "arrival-time", "prompt-token", "output-token", "service-time", "hash-id",
	"filter", "filter", "filter", "filter" };
static const char *const what[C_N] = { "timestamp", "token count", "token count", "service time", "hash list",
	"value", "value", "value", "value" };


/* ---- messages -------------------------------------------------------------------------------------- */

/* Record the first failure (later ones are consequences) and return its status. */
int tracefile_fail(struct tracefile *t, int status, int64_t line, const char *fmt, ...)
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
const char *tracefile_quote(const char *s, char *buf)
{
	size_t n = strlen(s), i;

	buf[0] = '\'';
	for (i = 0; i < n && (i < QUOTE_MAX || (s[i] & 0xC0) == 0x80); i++)  /* cut between characters */
		buf[i + 1] = (unsigned char)s[i] < 0x20 || s[i] == 0x7F ? '?' : s[i];
	snprintf(buf + i + 1, GOT_BUF - i - 1, "%s'", i < n ? "..." : "");
	return buf;
}

const char *tracefile_expected(const struct tracefile *t, int k)
{
	static const char *const time[] = {
		[TRACE_TIME_ISO] = "an ISO-8601 UTC time from 1970 on, such as 2023-11-16 18:17:03.9799600 or "
				   "2023-11-16T18:17:03Z",
		[TRACE_TIME_EPOCH_S] = "seconds since 1970-01-01 UTC, a decimal number such as 1700158623.25",
		[TRACE_TIME_EPOCH_MS] = "milliseconds since 1970-01-01 UTC, a decimal number such as 1700158623250",
		[TRACE_TIME_SECONDS] = "seconds from the start of the trace, a decimal number >= 0 such as 12.5",
		[TRACE_TIME_MILLISECONDS] = "milliseconds from the start of the trace, a decimal number >= 0 such "
					    "as 27482",
	};

	if (k == C_IN || k == C_OUT)
		return "a whole number of tokens from 0 to 10000000 (such as 63, 63.0 or 6.3e1)";
	return k == C_SERVICE ? "seconds, a decimal number >= 0" : time[t->m.time_format];
}

/* A bad (or negative) value in mapped column k of the current row. */
static int bad_value(struct tracefile *t, int k, bool negative)
{
	char got[GOT_BUF];

	return tracefile_fail(t, STATUS_EINPUT, t->row_line, "%s %s %s in %s '%s'; expected %s",
		    negative ? "negative" : "bad", what[k], tracefile_quote(t->val[k], got), t->jsonl ? "key" : "column",
		    t->name[k], tracefile_expected(t, k));
}

static int not_text(struct tracefile *t)
{
	return tracefile_fail(t, STATUS_EINPUT, t->line, "a NUL byte or bytes that are not UTF-8; expected a text %s file",
		    t->jsonl ? "JSON-lines" : "CSV");
}

static int csv_failed(struct tracefile *t)
{
	int e = csv_error(&t->csv);

	if (e == CSV_ENOMEM || e == CSV_ETOOBIG)
		return tracefile_fail(t, STATUS_ENOMEM, t->row_line, "out of memory reading the trace (libcsv: %s); expected "
			    "rows that fit in memory", csv_strerror(e));
	return tracefile_fail(t, STATUS_EINPUT, t->row_line, "malformed quoting (libcsv: %s); expected a CSV trace with "
		    "fields either unquoted or wholly in double quotes", csv_strerror(e));
}

/* ---- values ---------------------------------------------------------------------------------------- */

bool tracefile_is_digit(char c)
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

	for (; tracefile_is_digit(**s); (*s)++, i++) {
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
	for (; tracefile_is_digit(*s); s++, digits++) {
		whole = whole * 10 + (*s - '0');
		if (whole > TIME_MAX_US / unit)
			return false;
	}
	if (*s == '.') {
		s++;
		digits += tracefile_is_digit(*s);
		frac = read_fraction(&s, p);
	}
	if (*s || digits == 0)
		return false;
	*out_us = whole * unit + frac;
	return true;
}

/*
 * A UTC offset at s, the whole rest of the value: "+HH:MM", "+HHMM" or "+HH" (or "-"), at most 18:00 either
 * way (ISO 8601; every zone's is within -12:00..+14:00), into seconds east of UTC. False when malformed.
 */
static bool parse_offset(const char *s, int32_t *out_s)
{
	int h, m = 0;
	size_t n = strlen(s);

	if ((s[0] != '+' && s[0] != '-') || !(n == 3 || n == 5 || n == 6))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!tracefile_is_digit(s[i]) && !(i == 3 && n == 6 && s[i] == ':'))
			return false;
	h = (s[1] - '0') * 10 + (s[2] - '0');
	if (n > 3)
		m = (s[n - 2] - '0') * 10 + (s[n - 1] - '0');
	if (m > 59 || h * 60 + m > 18 * 60)
		return false;
	*out_s = (s[0] == '-' ? -1 : 1) * (h * 3600 + m * 60);
	return true;
}

/*
 * "YYYY-MM-DDTHH:MM:SS" or with a space for the T, then optionally a fraction of any length (rounded to
 * the microsecond, halves up, as units_parse_time_us() does), then optionally "Z" or a UTC offset
 * (parse_offset: "+02:00", "-0500"), which is taken off to give UTC; no zone is UTC.
 * units_parse_time_us() checks the date. Returns ISO_OK, ISO_BAD or ISO_BAD_OFFSET (a sign after the time
 * that does not begin a valid offset; *offset then points at it).
 */
enum { ISO_OK, ISO_BAD, ISO_BAD_OFFSET };
static int parse_iso(const char *s, int64_t *out_us, const char **offset)
{
	char buf[24];
	const char *p;
	int64_t us, frac = 0;
	int32_t off_s = 0;

	if (strlen(s) < 19 || (s[10] != 'T' && s[10] != ' '))
		return ISO_BAD;
	p = s + 19;
	memcpy(buf, s, 19);
	buf[10] = 'T';
	memcpy(buf + 19, "Z", 2);
	if (*p == '.') {
		if (!tracefile_is_digit(*++p))
			return ISO_BAD;
		frac = read_fraction(&p, 6);
	}
	if ((*p == '+' || *p == '-') && !parse_offset(p, &off_s)) {
		*offset = p;
		return ISO_BAD_OFFSET;
	}
	if (*p && *p != '+' && *p != '-' && strcmp(p, "Z") != 0)
		return ISO_BAD;
	if (units_parse_time_us(buf, &us) != STATUS_OK)
		return ISO_BAD;
	us -= off_s * INT64_C(1000000);  /* local time minus its offset is UTC */
	if (us < 0 || us / 1000000 > TIME_MAX_US / 1000000)
		return ISO_BAD;
	*out_us = us + frac;
	return ISO_OK;
}

/*
 * epoch_s times of 10^11 s and more (the year 5138), 12 digits or more before any point, are almost surely
 * milliseconds: an error that says so (1700158623250 is 2023-11-16 in ms, the year 55847 in s; in us they
 * do not even fit). Returns STATUS_OK for a plausible time or a value that is not such a number.
 */
static int epoch_hint(struct tracefile *t, const char *s)
{
	char got[GOT_BUF];
	const char *p = s;
	int digits = 0;

	if (t->m.time_format != TRACE_TIME_EPOCH_S)
		return STATUS_OK;
	while (*p == '0')
		p++;
	for (; tracefile_is_digit(*p); p++)
		digits++;
	if (*p == '.')
		for (p++; tracefile_is_digit(*p); p++)
			;
	if (*p || digits < EPOCH_S_HINT_DIGITS)
		return STATUS_OK;
	return tracefile_fail(t, STATUS_EINPUT, t->row_line, "time %s in column '%s' is %.3g s after 1970, "
			      "thousands of years ahead; expected seconds since 1970-01-01 UTC (did you mean "
			      "epoch_ms? the values look like milliseconds)", tracefile_quote(s, got), t->name[C_TIME],
			      strtod(s, NULL));
}

static int parse_time(struct tracefile *t, int64_t *t_us)
{
	const char *s = t->val[C_TIME];
	int p = t->m.time_format == TRACE_TIME_EPOCH_MS || t->m.time_format == TRACE_TIME_MILLISECONDS ? 3 : 6;
	int64_t ignored;
	int rc;

	if (t->vlen[C_TIME] >= FIELD_MAX)
		return bad_value(t, C_TIME, false);
	if (t->m.time_format == TRACE_TIME_ISO) {
		const char *offset = NULL;
		char got[GOT_BUF], whole[GOT_BUF];
		int iso = parse_iso(s, t_us, &offset);

		if (iso == ISO_OK)
			return STATUS_OK;
		if (iso == ISO_BAD_OFFSET)
			return tracefile_fail(t, STATUS_EINPUT, t->row_line, "bad time offset %s in %s in column '%s'; "
					      "expected +HH:MM or -HH:MM (also +HHMM, +HH) up to 18:00, or Z",
					      tracefile_quote(offset, got), tracefile_quote(s, whole),
					      t->name[C_TIME]);
	} else if ((rc = epoch_hint(t, s)) != STATUS_OK) {
		return rc;
	} else if (parse_fixed(s, p, t_us)) {
		return STATUS_OK;
	}
	return bad_value(t, C_TIME, t->m.time_format != TRACE_TIME_ISO && s[0] == '-' &&
			 parse_fixed(s + 1, p, &ignored));
}

/*
 * A decimal number written DIGITS[.DIGITS][(e|E)[+|-]DIGITS] (at least one digit before the exponent) whose
 * value is a whole number from 0 to TOKENS_MAX, judged exactly on the digits (63, 63.0, 63., 6.3e1, 630e-1
 * are 63; 63.5 and 1e-1 are not whole). Returns false when it is not such a number.
 */
static bool parse_whole(const char *s, int32_t *out)
{
	char dig[FIELD_MAX];   /* the significant digits, leading zeros dropped */
	int nd = 0, exp = 0, e = 0, esign = 1, mant = 0;
	int64_t v = 0;

	for (; tracefile_is_digit(*s); s++, mant++)
		if (nd > 0 || *s != '0')
			dig[nd++] = *s;
	if (*s == '.')
		for (s++; tracefile_is_digit(*s); s++, mant++, exp--)
			if (nd > 0 || *s != '0')
				dig[nd++] = *s;
	if (mant == 0)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			esign = *s++ == '-' ? -1 : 1;
		if (!tracefile_is_digit(*s))
			return false;
		for (; tracefile_is_digit(*s); s++)
			e = e < 1000 ? e * 10 + (*s - '0') : e;
	}
	if (*s)
		return false;
	exp += esign * e;
	while (nd > 0 && exp < 0 && dig[nd - 1] == '0') {  /* trailing zeros of the fraction */
		nd--;
		exp++;
	}
	if (nd == 0) {
		*out = 0;
		return true;
	}
	if (exp < 0 || nd + exp > 8)  /* a fraction left, or more than 8 digits (TOKENS_MAX has 8) */
		return false;
	for (int i = 0; i < nd; i++)
		v = v * 10 + (dig[i] - '0');
	for (int i = 0; i < exp; i++)
		v *= 10;
	if (v > TOKENS_MAX)
		return false;
	*out = (int32_t)v;
	return true;
}

/* A whole number of tokens, 0 to TOKENS_MAX (see parse_whole). */
static int parse_tokens(struct tracefile *t, int k, int32_t *out)
{
	const char *s = t->val[k];
	int32_t ignored;

	if (t->vlen[k] < FIELD_MAX && parse_whole(s, out))
		return STATUS_OK;
	return bad_value(t, k, t->vlen[k] < FIELD_MAX && s[0] == '-' && parse_whole(s + 1, &ignored));
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
			return tracefile_fail(t, STATUS_EINPUT, t->row_line, "no column '%s' in the header (%s); expected the "
				    "%s column named in the mapping (names are case-sensitive)", t->name[k],
				    t->header, tracefile_role[k]);
	t->ncols = t->nf;
	t->header_line = t->row_line;
	return STATUS_OK;
}

/* Whether the current row passes every `where` filter (its value, as text, one of the listed ones). */
bool tracefile_kept(const struct tracefile *t)
{
	for (int i = 0; i < t->m.nwhere; i++) {
		const struct trace_where *w = &t->m.where[i];
		int k = C_WHERE + i, j;

		for (j = 0; j < w->nvalues; j++)
			if (t->vlen[k] == strlen(w->values[j]) && memcmp(t->val[k], w->values[j], t->vlen[k]) == 0)
				break;
		if (j == w->nvalues)
			return false;
	}
	return true;
}

/* The current row's values (fields or keys, in val[]) into a record, unless the filter leaves it out. */
int tracefile_take_row(struct tracefile *t)
{
	struct trace_record r = { .line = t->row_line, .in_tokens = -1, .out_tokens = -1, .service_s = NAN };
	int rc;

	if (!tracefile_kept(t)) {
		t->filtered++;
		return STATUS_OK;
	}
	if (t->m.hash_column[0]) {
		r.hashes = t->hashes;
		r.nhashes = t->nhashes;
		t->hswap = true;
	}
	if ((rc = parse_time(t, &r.t_us)))
		return rc;
	if (t->prev_line > 0 && r.t_us < t->prev_us)
		return tracefile_fail(t, STATUS_EINPUT, t->row_line, "timestamp earlier than the previous row's (line %lld); "
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

static int end_row(struct tracefile *t)
{
	if (t->nf != t->ncols)
		return tracefile_fail(t, STATUS_EINPUT, t->row_line, "%d field%s; expected %d, as in the header", t->nf,
			    t->nf == 1 ? "" : "s", t->ncols);
	return tracefile_take_row(t);
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
	if ((t->row_bytes += body) > (t->jsonl ? TRACEFILE_JSONL_LINE_MAX : TRACEFILE_LINE_MAX)) {
		tracefile_fail(t, STATUS_EINPUT, t->line, "line longer than %d bytes; expected a %s trace",
		     t->jsonl ? TRACEFILE_JSONL_LINE_MAX : TRACEFILE_LINE_MAX, t->jsonl ? "JSON-lines" : "CSV");
		return;
	}
	if (t->jsonl) {
		if (t->line == 1 && t->bpos == 0 && len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
			p += 3, len -= 3, t->bpos += 3;  /* a byte-order mark */
		if (len > 0 && yajl_parse(t->y, p, len) != yajl_status_ok)
			tracefile_json_failed(t);
		if (newline)
			tracefile_json_line_end(t);
	} else if (csv_parse(&t->csv, p, len, on_field, on_row, t) != len) {
		csv_failed(t);
	}
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
		tracefile_fail(t, STATUS_EIO, t->line, "cannot read: %s; expected a readable trace file", strerror(errno));
		return;
	}
	t->eof = true;
	if (t->need > 0) {
		not_text(t);  /* the file ends inside a character */
	} else if (t->jsonl) {
		if (t->any_object && yajl_complete_parse(t->y) != yajl_status_ok)
			tracefile_json_failed(t);
		tracefile_json_line_end(t);
	} else if (csv_fini(&t->csv, on_field, on_row, t) != 0) {
		csv_failed(t);
	}
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
	if (t->y)
		yajl_free(t->y);
	t->y = NULL;
	if (t->jsonl) {
		if (!(t->y = yajl_alloc(&tracefile_jcallbacks, NULL, t)))
			return tracefile_fail(t, STATUS_ENOMEM, 0, "out of memory; expected room for the JSON parser");
		yajl_config(t->y, yajl_allow_multiple_values, 1);
	} else if (csv_init(&t->csv, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL) != 0) {
		return tracefile_fail(t, STATUS_ENOMEM, 0, "out of memory; expected room for the CSV parser");
	}
	if (!t->jsonl)
		csv_set_delim(&t->csv, t->m.delimiter ? (unsigned char)t->m.delimiter : ',');
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
	t->filtered = 0;
	t->depth = 0;
	t->keymask = 0;
	t->in_hash = false;
	t->objects = 0;
	t->any_object = false;
	t->nhashes = 0;
	for (int k = 0; k < C_N && t->jsonl; k++)
		t->col[k] = t->name[k][0] ? k : -1;  /* keys are looked up by name; col[] says which are mapped */
	t->ready = false;
	if (fseek(t->f, 0, SEEK_SET) != 0)
		return tracefile_fail(t, STATUS_EIO, 0, "cannot read: %s; expected a readable trace file", strerror(errno));
	rc = pull(t);
	if (rc == STATUS_DONE && t->filtered > 0)
		return tracefile_fail(t, STATUS_EINPUT, t->line > 1 ? t->line - 1 : 1, "all %lld rows were left out by the "
			    "`where` filter; expected at least one row that the filter keeps", (long long)t->filtered);
	if (rc == STATUS_DONE && t->jsonl)
		return tracefile_fail(t, STATUS_EINPUT, 1, "no objects in the file; expected one JSON object per line");
	if (rc == STATUS_DONE && t->ncols == 0)
		return tracefile_fail(t, STATUS_EINPUT, 1, "empty file; expected a header line and rows");
	if (rc == STATUS_DONE)
		return tracefile_fail(t, STATUS_EINPUT, t->header_line, "no rows after the header; expected at least one "
			    "row, one request per line");
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

/* SOURCES.md [mooncake-trace]: JSON lines, times in ms from the trace's start, 512-token blocks. */
void tracefile_mooncake_mapping(struct trace_mapping *m)
{
	memset(m, 0, sizeof *m);
	m->format = TRACE_FORMAT_JSONL;
	snprintf(m->time_column, sizeof m->time_column, "timestamp");
	m->time_format = TRACE_TIME_MILLISECONDS;
	snprintf(m->input_tokens_column, sizeof m->input_tokens_column, "input_length");
	snprintf(m->output_tokens_column, sizeof m->output_tokens_column, "output_length");
	snprintf(m->hash_column, sizeof m->hash_column, "hash_ids");
	m->block_tokens = TRACEFILE_BLOCK_TOKENS;
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
	t->name[C_HASH] = t->m.hash_column;
	for (int i = 0; i < TRACEFILE_WHERE_MAX; i++)
		t->name[C_WHERE + i] = i < t->m.nwhere ? t->m.where[i].column : "";
	t->jsonl = m->format == TRACE_FORMAT_JSONL;
	assert(t->jsonl || !m->hash_column[0]);  /* the loader and the CLI refuse hash lists in CSV */
	if (!(t->f = fopen(path, "rb"))) {
		rc = diag_at(d, STATUS_ENOENT, label, 0, 0, "cannot open: %s; expected a readable trace file",
			     strerror(errno));
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
int64_t tracefile_filtered(const struct tracefile *t)
{
	return t->filtered;
}

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
	if (t->y)
		yajl_free(t->y);
	free(t->hashes);
	free(t->hspare);
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
	s.filtered = t->filtered;
	tracefile_close(t);
	if (rc != STATUS_DONE)
		return rc;
	*out = s;  /* only once the whole file has passed */
	return STATUS_OK;
}
