/*
 * pricetrace: a Spot price history (see pricetrace.h).
 *
 * Both forms feed one row checker, take_row(), which validates every row (of any type, zone or product,
 * so a malformed file fails whichever instance type is asked for) and keeps only the rows asked for.
 * Text is streamed through libcsv 64 KiB at a time, so memory grows with the rows kept, not with the file.
 * libcsv's quoting and space trimming are switched off (the CLI and the public archives never quote), so a
 * field's byte column is the sum of the fields before it and messages can point at it. JSON is read whole
 * and parsed by libfyaml in JSON mode, its messages collected into a buffer so that nothing is printed.
 * Every byte is checked to be UTF-8 without NULs before a parser sees it, so a binary file gets one clear
 * message rather than a parser's guess.
 */
#include "pricetrace.h"

#include <assert.h>
#include <csv.h>
#include <errno.h>
#include <libfyaml.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsondoc.h"
#include "status.h"
#include "units.h"

#define BLOCK (64 * 1024)  /* bytes read at a time */
#define FIELD_MAX 128      /* longest field kept, with its NUL; no valid zone, type or price is longer */
#define NAMES_MAX 5        /* zones or types named in a message */
#define QUOTE_MAX 48       /* bytes of a bad value quoted back */
#define GOT_BUF 128        /* room for them, escaped */

enum { F_ZONE, F_TYPE, F_PRODUCT, F_PRICE, F_TIME, F_N };

static const char *const json_keys[F_N] = {
	"AvailabilityZone", "InstanceType", "ProductDescription", "SpotPrice", "Timestamp"
};

/* A kept price change; seq (its place in the file) is the tie-break that makes the sort stable. */
struct change {
	int64_t t_us;
	int64_t seq;
	double usd_per_h;
	int line;  /* where its row starts in the file */
};

/* Distinct names seen, the first NAMES_MAX of them kept for messages. */
struct names {
	char name[NAMES_MAX][FIELD_MAX];
	int n;      /* kept */
	bool more;  /* others were seen beyond those kept */
};

/* One row as read, in either form: its fields (the product may be NULL) and where each one is. */
struct row {
	const char *f[F_N];
	int line;         /* where the row starts */
	int fline[F_N];   /* where each field is (JSON spreads a record over lines); 0 when unknown */
	int col[F_N];
	int index;        /* place in SpotPriceHistory for JSON, -1 for text */
};

struct loader {
	const char *label, *type, *zone;  /* borrowed */
	struct diag *d;
	int rc;                           /* the first failure; later rows are ignored */
	struct change *c;                 /* kept rows, owned */
	int n, cap;
	struct names types;               /* Linux types present, for "no rows" */
	struct names zones;               /* zones of the asked type, for "several zones" */
	int zone2_line;                   /* first line of a second zone of the asked type; 0 if none */
	int need;                         /* UTF-8 check: continuation bytes still expected, */
	unsigned char lo, hi;             /* ... and the range allowed for the next one */
	int scan_line;                    /* UTF-8 check: line of the next byte, from 1 */
	int line;                         /* text: line of the current row */
	int nf;                           /* text: fields in the current row so far */
	char field[F_N + 1][FIELD_MAX];   /* text: its first six fields, cut to fit */
	size_t flen[F_N + 1];             /* text: their real lengths */
};

/* ---- small helpers -------------------------------------------------------------------------------- */

/* Feed n bytes to the UTF-8 check; false at the first bad byte, with L->scan_line at its line. */
static bool scan_bytes(struct loader *L, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (L->need > 0) {
			if (c < L->lo || c > L->hi)
				return false;
			L->lo = 0x80;
			L->hi = 0xBF;
			L->need--;
		} else if (c >= 0xC2 && c <= 0xF4) {  /* E0, ED, F0, F4 exclude overlongs and surrogates */
			L->need = c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
			L->lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
			L->hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
		} else if (c == 0 || c >= 0x80) {
			return false;
		}
		L->scan_line += c == '\n';
	}
	return true;
}

static int not_text(struct loader *L)
{
	return diag_at(L->d, STATUS_EINPUT, L->label, L->scan_line, 0, "a NUL byte or bytes that are not "
		       "UTF-8; expected a text file (JSON or tab-separated)");
}

static int nomem(struct loader *L)
{
	return diag_at(L->d, STATUS_ENOMEM, L->label, 0, 0, "out of memory while reading the price history");
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

/* A decimal number: digits, sign, point and exponent only (no hex, inf or nan), read whole by strtod. */
static bool parse_decimal(const char *s, double *v)
{
	char *end;

	if (strspn(s, "0123456789+-.eE") != strlen(s) || !strpbrk(s, "0123456789"))
		return false;
	*v = strtod(s, &end);
	return *end == '\0' && isfinite(*v);
}

/* A Timestamp, to the microsecond (more digits round to the nearest, halves up: units_parse_time_us). */
static bool parse_time_us(const char *s, int64_t *t_us)
{
	return units_parse_time_us(s, t_us) == STATUS_OK;
}

/* Add name to the set unless it is there. */
static void note_name(struct names *ns, const char *name)
{
	for (int i = 0; i < ns->n; i++)
		if (strcmp(ns->name[i], name) == 0)
			return;
	if (ns->n < NAMES_MAX)
		snprintf(ns->name[ns->n++], FIELD_MAX, "%s", name);
	else
		ns->more = true;
}

/* "a, b, c", then ", ..." when there were more. Returns buf. */
static const char *list_names(const struct names *ns, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < ns->n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", ns->name[i]);
	if (ns->more && o < size)
		snprintf(buf + o, size - o, ", ...");
	return buf;
}

/* ---- rows ------------------------------------------------------------------------------------------ */

static int row_fail(struct loader *L, const struct row *r, int k, const char *what, const char *expect)
{
	char got[GOT_BUF], key[64] = "";

	if (r->index >= 0)
		snprintf(key, sizeof key, "SpotPriceHistory[%d].%s: ", r->index, json_keys[k]);
	return diag_at(L->d, STATUS_EINPUT, L->label, r->fline[k], r->col[k], "%s%s %s; expected %s", key,
		       what, quote(r->f[k], got), expect);
}

static int keep(struct loader *L, int64_t t_us, double usd, int line)
{
	struct change *c;
	int cap = L->cap ? 2 * L->cap : 256;

	if (L->n == L->cap) {
		if (L->cap > INT32_MAX / 2 || !(c = realloc(L->c, (size_t)cap * sizeof *c)))
			return nomem(L);
		L->c = c;
		L->cap = cap;
	}
	L->c[L->n] = (struct change){ t_us, L->n, usd, line };
	L->n++;
	return STATUS_OK;
}

/* Check one row, whatever it is for, and keep it if it is a Linux price of the type and zone asked for. */
static int take_row(struct loader *L, const struct row *r)
{
	const char *product = r->f[F_PRODUCT];
	static const char price[] = "a decimal number of USD per hour >= 0";
	int64_t t_us;
	double usd;

	if (!r->f[F_ZONE][0])
		return row_fail(L, r, F_ZONE, "empty availability zone", "a zone such as us-east-1a");
	if (!r->f[F_TYPE][0])
		return row_fail(L, r, F_TYPE, "empty instance type", "a type such as p5.48xlarge");
	if (!parse_decimal(r->f[F_PRICE], &usd))
		return row_fail(L, r, F_PRICE, "bad price", price);
	if (usd < 0)
		return row_fail(L, r, F_PRICE, "negative price", price);
	if (!parse_time_us(r->f[F_TIME], &t_us))
		return row_fail(L, r, F_TIME, "bad timestamp",
				"ISO-8601 UTC such as 2025-01-01T00:00:00Z or 2025-01-01T00:00:00.000+00:00");
	if (product && strncmp(product, "Linux/UNIX", 10) != 0)
		return STATUS_OK;  /* Windows, SUSE, Red Hat: other prices, not what we model */
	note_name(&L->types, r->f[F_TYPE]);
	if (strcmp(r->f[F_TYPE], L->type) != 0)
		return STATUS_OK;
	note_name(&L->zones, r->f[F_ZONE]);
	if (!L->zone && L->zone2_line == 0 && strcmp(r->f[F_ZONE], L->zones.name[0]) != 0)
		L->zone2_line = r->line;
	if (L->zone && strcmp(r->f[F_ZONE], L->zone) != 0)
		return STATUS_OK;
	return keep(L, t_us, usd, r->line);
}

/* ---- text ------------------------------------------------------------------------------------------ */

static void on_field(void *s, size_t len, void *user)
{
	struct loader *L = user;
	size_t n = len < FIELD_MAX ? len : FIELD_MAX - 1;

	if (L->nf <= F_N) {
		if (n > 0)  /* libcsv may pass NULL for an empty field */
			memcpy(L->field[L->nf], s, n);
		L->field[L->nf][n] = '\0';
		L->flen[L->nf] = len;
	}
	L->nf++;
}

static int end_row(struct loader *L)
{
	struct row r = { .line = L->line, .index = -1 };
	int skip, col = 1, blank = 1;

	for (int i = 0; i < L->nf && i <= F_N; i++)
		blank &= strspn(L->field[i], " ") == L->flen[i];
	if (blank || strcmp(L->field[0], "NEXTTOKEN") == 0)
		return STATUS_OK;  /* a blank line; the page token that `--max-items` makes the CLI print */
	skip = strcmp(L->field[0], "SPOTPRICEHISTORY") == 0;
	if (L->nf != F_N + skip)
		return diag_at(L->d, STATUS_EINPUT, L->label, L->line, 0, "%d column%s%s; expected 5 (zone, "
			       "instance type, product, price, timestamp)%s", L->nf - skip,
			       L->nf - skip == 1 ? "" : "s", skip ? " after SPOTPRICEHISTORY" : "",
			       skip ? "" : ", optionally after SPOTPRICEHISTORY");
	for (int i = 0; i < L->nf; i++) {
		if (L->flen[i] >= FIELD_MAX)
			return diag_at(L->d, STATUS_EINPUT, L->label, L->line, col, "column %d is %zu bytes "
				       "long; expected at most %d", i + 1, L->flen[i], FIELD_MAX - 1);
		if (i >= skip) {
			r.f[i - skip] = L->field[i];
			r.fline[i - skip] = L->line;
			r.col[i - skip] = col;
		}
		col += (int)L->flen[i] + 1;
	}
	return take_row(L, &r);
}

static void on_row(int c, void *user)
{
	struct loader *L = user;

	if (!L->rc)
		L->rc = end_row(L);
	L->nf = 0;
	L->line += c == '\n';  /* each LF ends a line; a CR before it ends the row, then an empty one */
}

static int no_space(unsigned char c)
{
	(void)c;
	return 0;
}

/*
 * Read f to its end in blocks, checking that each is text, and give each block to the CSV parser; or, when
 * csv is NULL, gather them into *all (returns owned; JSON, which libfyaml wants whole) and *len.
 */
static int read_blocks(struct loader *L, FILE *f, struct csv_parser *csv, char **all, size_t *len)
{
	size_t cap = BLOCK, o = 0, n;
	char *buf = malloc(cap), *bigger;

	if (!buf)
		return nomem(L);
	while (!L->rc && (n = fread(buf + o, 1, BLOCK, f)) > 0) {
		if (!scan_bytes(L, (unsigned char *)buf + o, n)) {
			L->rc = not_text(L);
		} else if (csv && csv_parse(csv, buf, n, on_field, on_row, L) != n && !L->rc) {
			L->rc = diag_at(L->d, STATUS_ENOMEM, L->label, L->line, 0, "libcsv: %s",
					csv_strerror(csv_error(csv)));
		} else if (!csv && (o += n) + BLOCK > cap) {
			if ((bigger = realloc(buf, 2 * cap))) {
				buf = bigger;
				cap *= 2;
			} else {
				L->rc = nomem(L);
			}
		}
	}
	if (!L->rc && ferror(f))
		L->rc = diag_at(L->d, STATUS_ENOENT, L->label, 0, 0, "cannot read: %s", strerror(errno));
	if (!L->rc && L->need > 0)
		L->rc = not_text(L);  /* the file ends inside a character */
	if (L->rc || csv) {
		free(buf);
		return L->rc;
	}
	*all = buf;
	*len = o;
	return STATUS_OK;
}

static int read_text(struct loader *L, FILE *f)
{
	struct csv_parser p;

	if (csv_init(&p, CSV_STRICT | CSV_REPALL_NL) != 0)
		return nomem(L);
	csv_set_delim(&p, CSV_TAB);
	csv_set_quote(&p, '\0');  /* NUL never reaches the parser (scan_bytes), so nothing is a quote */
	csv_set_space_func(&p, no_space);
	L->line = 1;
	if (!read_blocks(L, f, &p, NULL, NULL))
		csv_fini(&p, on_field, on_row, L);
	csv_free(&p);
	return L->rc;
}

/* ---- JSON ------------------------------------------------------------------------------------------ */

/* "a mapping", "a list" or the quoted scalar. Returns buf. */
static const char *describe(struct fy_node *n, char *buf)
{
	if (fy_node_is_mapping(n))
		return "a mapping";
	if (fy_node_is_sequence(n))
		return "a list";
	return quote(fy_node_get_scalar0(n) ? fy_node_get_scalar0(n) : "", buf);
}

/* Fail with msg at node n, or at `near` when n has no position (an empty collection, a missing key). */
static int json_fail(struct loader *L, struct fy_node *n, struct fy_node *near, const char *msg)
{
	int line = 0, col = 0;

	if (!jsondoc_node_pos(n, &line, &col))
		jsondoc_node_pos(near, &line, &col);
	return diag_at(L->d, STATUS_EINPUT, L->label, line, col, "%s", msg);
}

/* Copy the value of key k of record i into buf and note where it is in *r. */
static int json_field(struct loader *L, struct fy_node *item, int i, int k, char *buf, struct row *r)
{
	struct fy_node *v = fy_node_mapping_lookup_value_by_simple_key(item, json_keys[k], (size_t)-1);
	char msg[400], got[GOT_BUF];
	const char *s = NULL;
	size_t len = 0;

	if (!v && k == F_PRODUCT)
		return STATUS_OK;  /* optional: some tools leave it out when the request filtered on it */
	if (!v)
		snprintf(msg, sizeof msg, "SpotPriceHistory[%d]: missing key '%s'; expected "
			 "AvailabilityZone, InstanceType, SpotPrice and Timestamp", i, json_keys[k]);
	else if (!fy_node_is_scalar(v) || (k != F_PRICE && fy_node_get_style(v) != FYNS_DOUBLE_QUOTED))
		snprintf(msg, sizeof msg, "SpotPriceHistory[%d].%s: expected a string%s, got %s", i,
			 json_keys[k], k == F_PRICE ? " or number" : "", describe(v, got));
	else if (!(s = fy_node_get_scalar(v, &len)) || len >= FIELD_MAX || memchr(s, '\0', len))
		snprintf(msg, sizeof msg, "SpotPriceHistory[%d].%s: expected at most %d bytes without NUL, "
			 "got %zu", i, json_keys[k], FIELD_MAX - 1, len);
	else
		msg[0] = '\0';
	if (msg[0])
		return json_fail(L, v, item, msg);
	memcpy(buf, s, len);
	buf[len] = '\0';
	r->f[k] = buf;
	jsondoc_node_pos(v, &r->fline[k], &r->col[k]);
	return STATUS_OK;
}

static int parse_json(struct loader *L, const char *text, size_t len)
{
	char buf[F_N][FIELD_MAX], got[GOT_BUF], msg[256];
	struct jsondoc j;
	struct fy_node *root, *list, *item;
	struct fy_node_pair *p;
	void *it = NULL;
	int rc, i, col;

	if ((rc = jsondoc_load(&j, text, len, L->label, "the price history", L->d)))
		goto out_close;
	root = fy_document_root(j.fyd);
	p = fy_node_is_mapping(root)
	    ? fy_node_mapping_lookup_pair_by_simple_key(root, "SpotPriceHistory", (size_t)-1) : NULL;
	list = p ? fy_node_pair_value(p) : NULL;
	if (!p) {
		rc = json_fail(L, root, NULL, "no key SpotPriceHistory; expected the output of `aws ec2 "
			       "describe-spot-price-history`: {\"SpotPriceHistory\": [...]}");
	} else if (!fy_node_is_sequence(list)) {
		snprintf(msg, sizeof msg, "SpotPriceHistory: expected a list of price records, got %s",
			 list ? describe(list, got) : "nothing");
		rc = json_fail(L, list, fy_node_pair_key(p), msg);
	}
	for (i = 0; !rc && (item = fy_node_sequence_iterate(list, &it)); i++) {
		struct row r = { .index = i };

		if (!fy_node_is_mapping(item)) {
			snprintf(msg, sizeof msg, "SpotPriceHistory[%d]: expected a price record (a "
				 "mapping), got %s", i, describe(item, got));
			rc = json_fail(L, item, fy_node_pair_key(p), msg);
			break;
		}
		jsondoc_node_pos(item, &r.line, &col);  /* a row's line is where its record starts */
		for (int k = 0; !rc && k < F_N; k++)
			rc = json_field(L, item, i, k, buf[k], &r);
		if (!rc)
			rc = take_row(L, &r);
	}
out_close:
	jsondoc_fini(&j);
	return rc;
}

static int read_json(struct loader *L, FILE *f)
{
	size_t len;
	char *text;
	int rc;

	if ((rc = read_blocks(L, f, NULL, &text, &len)))
		return rc;
	rc = parse_json(L, text, len);
	free(text);
	return rc;
}

/* ---- the series ----------------------------------------------------------------------------------- */

static int by_time(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	if (x->t_us != y->t_us)
		return x->t_us < y->t_us ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* After the whole file: fail if nothing or too much was selected, else sort into *pt. */
static int finish(struct loader *L, struct pricetrace *pt)
{
	char list[NAMES_MAX * FIELD_MAX + 16];
	int n = 0;

	if (L->n == 0 && L->zone && L->zones.n > 0)
		return diag_at(L->d, STATUS_EINPUT, L->label, 0, 0, "no Linux/UNIX rows for instance type "
			       "'%s' in zone '%s'; expected one of its zones: %s", L->type, L->zone,
			       list_names(&L->zones, list, sizeof list));
	if (L->n == 0)
		return diag_at(L->d, STATUS_EINPUT, L->label, 0, 0, "no Linux/UNIX rows for instance type "
			       "'%s'; expected one of the types present: %s", L->type,
			       L->types.n ? list_names(&L->types, list, sizeof list) : "(none)");
	if (L->zone2_line)
		return diag_at(L->d, STATUS_EINPUT, L->label, L->zone2_line, 0, "rows for '%s' in several "
			       "availability zones (%s); expected a zone to be chosen", L->type,
			       list_names(&L->zones, list, sizeof list));
	pt->at_unix_us = malloc((size_t)L->n * sizeof *pt->at_unix_us);
	pt->usd_per_h = malloc((size_t)L->n * sizeof *pt->usd_per_h);
	pt->line = malloc((size_t)L->n * sizeof *pt->line);
	if (!pt->at_unix_us || !pt->usd_per_h || !pt->line) {
		pricetrace_fini(pt);
		return nomem(L);
	}
	/*
	 * Two changes at one instant: the history gives no order between them, so we keep the one last in
	 * file order (for the CLI, which lists newest first, the one it listed last). It is an arbitrary
	 * choice but the same every run; the sort is stable, so the tie is decided by the file alone.
	 */
	qsort(L->c, (size_t)L->n, sizeof *L->c, by_time);
	for (int i = 0; i < L->n; i++) {
		if (n > 0 && pt->at_unix_us[n - 1] == L->c[i].t_us)
			n--;
		pt->at_unix_us[n] = L->c[i].t_us;
		pt->line[n] = L->c[i].line;
		pt->usd_per_h[n++] = L->c[i].usd_per_h;
	}
	pt->n = n;
	return STATUS_OK;
}

int pricetrace_load(struct pricetrace *pt, const char *path, const char *label, const char *instance_type,
		    const char *zone, struct diag *d)
{
	struct loader L = { .label = label ? label : path, .type = instance_type, .zone = zone, .d = d,
			    .scan_line = 1 };
	FILE *f;
	int rc, c;

	memset(pt, 0, sizeof *pt);
	if (!(f = fopen(path, "rb")))
		return diag_at(d, STATUS_ENOENT, L.label, 0, 0, "cannot open: %s", strerror(errno));
	while ((c = getc(f)) == ' ' || c == '\t' || c == '\r' || c == '\n')
		continue;  /* the first other byte tells the form */
	if (c == EOF && !ferror(f))
		rc = diag_at(d, STATUS_EINPUT, L.label, 1, 0, "the file is empty; expected a Spot price "
			     "history (`aws ec2 describe-spot-price-history` JSON or tab-separated text)");
	else if (ferror(f) || fseek(f, 0, SEEK_SET) != 0)
		rc = diag_at(d, STATUS_ENOENT, L.label, 0, 0, "cannot read: %s", strerror(errno));
	else
		rc = c == '{' ? read_json(&L, f) : read_text(&L, f);
	if (!rc)
		rc = finish(&L, pt);
	free(L.c);
	fclose(f);
	return rc;
}

double pricetrace_at(const struct pricetrace *pt, int64_t t_unix_us)
{
	int lo = 0, hi = pt->n - 1;

	assert(pt->n >= 1);
	/* Invariant: the answer is in [lo, hi]; index 0 also stands for every time before the first. */
	while (lo < hi) {
		int mid = lo + (hi - lo + 1) / 2;

		if (pt->at_unix_us[mid] <= t_unix_us)
			lo = mid;
		else
			hi = mid - 1;
	}
	return pt->usd_per_h[lo];
}

int pricetrace_cap(struct pricetrace *pt, double max_usd_per_h)
{
	int n = 0;

	for (int i = 0; i < pt->n; i++)
		if (pt->usd_per_h[i] > max_usd_per_h) {
			pt->usd_per_h[i] = max_usd_per_h;
			n++;
		}
	return n;
}

/*
 * Google Cloud Spot prices "can change up to once every day" (SOURCES.md [gcp-spot-daily-price]). Days are
 * UTC calendar days (00:00 to 24:00 UTC): a day may hold any number of rows, but at most one of them may
 * change the price in force (a row at the same price as the one before it is no change). The first entry
 * sets the starting price and is no change.
 */
int pricetrace_check_daily(const struct pricetrace *pt, const char *label, struct diag *d)
{
	int64_t day_us = 86400 * INT64_C(1000000), changed_day = INT64_MIN;

	for (int i = 1; i < pt->n; i++) {
		int64_t t = pt->at_unix_us[i], day = t >= 0 ? t / day_us : -((-t - 1) / day_us) - 1;

		if (pt->usd_per_h[i] == pt->usd_per_h[i - 1])
			continue;
		if (day == changed_day)
			return diag_at(d, STATUS_EINPUT, label, pt->line[i], 0, "a second Spot price change on "
				       "one UTC day (%.10g -> %.10g); expected at most one change per calendar day "
				       "(UTC): Google Cloud Spot prices change up to once every day", pt->usd_per_h[i - 1],
				       pt->usd_per_h[i]);
		changed_day = day;
	}
	return STATUS_OK;
}

void pricetrace_fini(struct pricetrace *pt)
{
	if (!pt)
		return;
	free(pt->at_unix_us);
	free(pt->usd_per_h);
	free(pt->line);
	memset(pt, 0, sizeof *pt);
}
