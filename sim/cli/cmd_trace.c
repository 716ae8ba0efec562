/*
 * cmd_trace: `gpucap trace stats FILE [...]`: read a request trace once, checking every row, and say what
 * is in it: requests, first and last arrival, span, mean rate, requests per minute (percentiles and empty
 * minutes) and token sizes. `gpucap trace gen` lives in cmd_trace_gen.c; this file only dispatches to it.
 *
 * One streaming pass, bounded memory: token sizes go into fixed-size histograms (hist.h, percentiles within
 * 1%), and requests per minute into a growable array of one int per minute of the span, which grows with
 * the span rather than the number of rows (a 30-day trace is 43,200 ints, 169 KiB); spans beyond
 * MINUTES_MAX are not counted per minute. The minute counts are exact, sorted once at the end.
 *
 * Inter-arrival times: the coefficient of variation of the gaps between consecutive requests (rows the
 * `--where` filter leaves out are not requests), std / mean with the population standard deviation (divided
 * by the number of gaps), accumulated with Welford's method in microseconds. Prefix reuse (traces with hash
 * ids): each request's leading ids already seen in an earlier request, counted until its first unseen one,
 * over all ids; the set of seen ids is an open-addressing hash table that grows with the number of distinct
 * ids (16 bytes per id at most: a 75% load factor is never passed).
 */
#include <assert.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cwmetrics.h"
#include "diag.h"
#include "hist.h"
#include "outfile.h"
#include "status.h"
#include "tracefile.h"
#include "units.h"

#define US_PER_S INT64_C(1000000)
#define US_PER_MIN (60 * US_PER_S)
#define MINUTES_MAX (400 * 1440)  /* per-minute counts kept for spans up to 400 days (2.2 MiB) */
#define PEEK_MAX 4096             /* bytes of the first line looked at to recognise the Azure header */

static const char trace_usage[] =
	"usage: gpucap trace <command> [options]\n"
	"\n"
	"commands:\n"
	"  stats FILE [options]                 summarise a request trace (CSV or JSON lines): requests, span,\n"
	"                                       rate, requests per minute, gaps, token sizes, prefix reuse\n"
	"  gen --scenario FILE -o OUT.csv       write the requests a scenario's workload draws as a CSV trace\n"
	"\n"
	"`gpucap trace <command> --help` explains a command.\n";

static const char stats_usage[] =
	"usage: gpucap trace stats FILE [--format azure|generic|csv|jsonl|mooncake|cloudwatch] [--time-column C]\n"
	"                          [--time-format iso|epoch_s|epoch_ms|seconds|milliseconds]\n"
	"                          [--input-column C] [--output-column C] [--service-column C]\n"
	"                          [--hash-column C] [--where COL=V1,V2,...] [--json]\n"
	"\n"
	"Read a request trace (CSV: one row per request, a header line naming the columns; or JSON lines: one\n"
	"object per line, its keys named like columns) once, checking every row, and print: the number of\n"
	"requests; the first and last arrival (UTC for absolute time formats); the span from first to last in\n"
	"seconds; the mean rate (requests / span); requests per minute over the whole minutes of the span,\n"
	"counted from the first arrival (p50, p90, p99, max, and how many minutes had none); the coefficient\n"
	"of variation of the gaps between consecutive requests (population std / mean; 1 for Poisson\n"
	"arrivals); for each mapped size column its mean, p50, p99 and max (percentiles within 1%); with a\n"
	"filter, how many rows it left out; and with hash ids, the prefix reuse ratio: over all requests, the\n"
	"leading hash ids already seen in an earlier request (counted until the first unseen one), divided\n"
	"by all hash ids. Memory does not grow with the number of rows, except the set of distinct hash ids\n"
	"seen (16 bytes per id at most).\n"
	"\n"
	"CloudWatch metrics (the JSON of `aws cloudwatch get-metric-data` or `get-metric-statistics`) are\n"
	"recognised by their top-level key (or --format cloudwatch): for each result, its id, label, status,\n"
	"points, period, first and last period, gaps (periods with no datapoint), sum, peak per period and mean\n"
	"rate.\n"
	"\n"
	"The Azure LLM inference traces (header TIMESTAMP,ContextTokens,GeneratedTokens, times such as\n"
	"2023-11-16 18:17:03.9799600 in UTC) are recognised by their header; for any other trace name the\n"
	"time column.\n"
	"  --format F              azure: the columns above (the options below override them); generic or\n"
	"                          csv: a CSV trace with only the columns named below; jsonl: JSON lines with\n"
	"                          the keys named below; mooncake: JSON lines with timestamp (ms from the\n"
	"                          trace's start), input_length, output_length and hash_ids (the options\n"
	"                          below override them)\n"
	"  --time-column C         the arrival-time column (needed unless the format is azure or mooncake)\n"
	"  --time-format F         iso (default; 2023-11-16T18:17:03Z or 2023-11-16 18:17:03.98, UTC when no\n"
	"                          zone), epoch_s, epoch_ms, seconds or milliseconds (from the trace's start,\n"
	"                          any origin)\n"
	"  --input-column C        prompt tokens per request (whole numbers)\n"
	"  --output-column C       output tokens per request\n"
	"  --service-column C      service time per request, seconds\n"
	"  --hash-column C         JSON lines: each request's prefix block ids, an array of whole numbers\n"
	"  --where COL=V1,V2,...   keep only the rows whose COL is one of the values, compared as text (up\n"
	"                          to 4 options, all must hold; up to 16 values each)\n"
	"  --json                  print one JSON object instead of text\n"
	"\n"
	"Exit codes: 0 success, 2 bad trace or usage (the message names FILE:LINE), 1 other failures.\n";

/* What one pass gathers. */
struct stats {
	int64_t rows;          /* requests */
	int64_t first_us;      /* first arrival, in the trace's time scale */
	int64_t last_us;       /* last arrival */
	int32_t *per_min;      /* requests in each minute from the first arrival, owned */
	int64_t nmin;          /* minutes in per_min so far */
	int64_t cap;           /* room in per_min */
	bool too_long;         /* the span passed MINUTES_MAX: no per-minute counts */
	struct hist in, out;   /* prompt and output tokens, as plain numbers */
	struct hist service;   /* service times, seconds */
	int64_t filtered;      /* rows the filter left out */
	int64_t gaps;          /* gaps between consecutive requests, */
	double gap_mean, gap_m2;  /* ... their running mean and sum of squared deviations (microseconds) */
	uint64_t *seen;        /* distinct hash ids seen, each stored as id + 1 (0: an empty slot), owned */
	int64_t seen_n, seen_cap; /* ids in the table, and its slots (a power of 2) */
	int64_t ids, reused;   /* hash ids over all requests, and the leading ones already seen */
};

/* ---- options ------------------------------------------------------------------------------------- */

/* Copy a column name into the mapping; false when it does not fit. */
static bool set_column(char *dst, const char *name)
{
	if (strlen(name) >= TRACEFILE_COLUMN_MAX)
		return false;
	strcpy(dst, name);
	return true;
}

static bool parse_time_format(const char *s, enum trace_time_format *f)
{
	static const char *const names[] = { "iso", "epoch_s", "epoch_ms", "seconds", "milliseconds" };

	for (int i = 0; i < 5; i++)
		if (strcmp(s, names[i]) == 0) {
			*f = (enum trace_time_format)i;
			return true;
		}
	return false;
}

static const char *time_format_name(enum trace_time_format f)
{
	return f == TRACE_TIME_ISO ? "iso" : f == TRACE_TIME_EPOCH_S ? "epoch_s"
	       : f == TRACE_TIME_EPOCH_MS ? "epoch_ms" : f == TRACE_TIME_SECONDS ? "seconds" : "milliseconds";
}

/* Whether the name at [s, s + n), without spaces, quotes or a byte-order mark, is one of the Azure ones. */
static int azure_name(const char *s, size_t n)
{
	static const char *const names[] = { "TIMESTAMP", "ContextTokens", "GeneratedTokens" };

	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
		s += 3;
		n -= 3;
	}
	while (n > 0 && strchr(" \t\"\r\n", s[0])) {
		s++;
		n--;
	}
	while (n > 0 && strchr(" \t\"\r\n", s[n - 1]))
		n--;
	for (int i = 0; i < 3; i++)
		if (strlen(names[i]) == n && memcmp(s, names[i], n) == 0)
			return 1 << i;
	return 0;
}

/*
 * Whether the file's first line names TIMESTAMP, ContextTokens and GeneratedTokens. When it cannot tell (no
 * file, no line, a line too long or with control bytes: not a text header) it says yes, and the reader
 * then gives the real message.
 */
static bool looks_azure(const char *path)
{
	char line[PEEK_MAX];
	int found = 0;
	FILE *f = fopen(path, "rb");
	bool whole;

	if (!f)
		return true;
	if (!fgets(line, sizeof line, f)) {
		fclose(f);
		return true;
	}
	whole = strchr(line, '\n') || feof(f);  /* false too when a NUL cut the line short */
	fclose(f);
	for (const unsigned char *c = (const unsigned char *)line; *c; c++)
		whole &= *c >= 0x20 || *c == '\t' || *c == '\r' || *c == '\n';
	if (!whole)
		return true;
	for (const char *p = line;; p++) {
		size_t n = strcspn(p, ",");
		found |= azure_name(p, n);
		p += n;
		if (!*p)
			break;
	}
	return found == 7;
}

/* Whether the file's first byte (after spaces and a byte-order mark) opens a JSON object. */
static bool looks_json(const char *path)
{
	char head[64] = "";
	FILE *f = fopen(path, "rb");
	size_t n;
	const char *p = head;

	if (!f)
		return false;
	n = fread(head, 1, sizeof head - 1, f);
	fclose(f);
	head[n] = '\0';
	if (strncmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	p += strspn(p, " \t\r\n");
	return *p == '{';
}

/* ---- the pass ------------------------------------------------------------------------------------ */

static int count_minute(struct stats *s, int64_t t_us, struct diag *d)
{
	int64_t k = (t_us - s->first_us) / US_PER_MIN;

	if (s->too_long || k >= MINUTES_MAX) {
		s->too_long = true;
		return STATUS_OK;
	}
	if (k >= s->cap) {
		int64_t cap = s->cap ? s->cap : 64;
		int32_t *bigger;

		while (cap <= k)
			cap *= 2;
		if (!(bigger = realloc(s->per_min, (size_t)cap * sizeof *bigger)))
			return diag_fail(d, STATUS_ENOMEM, "out of memory counting requests per minute");
		memset(bigger + s->cap, 0, (size_t)(cap - s->cap) * sizeof *bigger);
		s->per_min = bigger;
		s->cap = cap;
	}
	s->per_min[k]++;
	s->nmin = k + 1 > s->nmin ? k + 1 : s->nmin;
	return STATUS_OK;
}

/* ---- the set of seen hash ids ------------------------------------------------------------------- */

static uint64_t mix(uint64_t x)  /* SplitMix64's finaliser */
{
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/* The slot of id in the table: where it is, or the empty slot where it would go. */
static int64_t slot(const struct stats *s, uint64_t id)
{
	int64_t i = (int64_t)(mix(id) & (uint64_t)(s->seen_cap - 1));

	while (s->seen[i] && s->seen[i] != id + 1)
		i = (i + 1) & (s->seen_cap - 1);
	return i;
}

static bool seen(const struct stats *s, uint64_t id)
{
	return s->seen_cap > 0 && s->seen[slot(s, id)] != 0;
}

/* Add id (ids are at most INT64_MAX, so id + 1 is never 0); grows the table past 75% full. */
static int add_seen(struct stats *s, uint64_t id, struct diag *d)
{
	int64_t i;

	if ((s->seen_n + 1) * 4 > s->seen_cap * 3) {
		struct stats old = *s;
		int64_t cap = s->seen_cap ? s->seen_cap * 2 : 1024;

		if (!(s->seen = calloc((size_t)cap, sizeof *s->seen))) {
			s->seen = old.seen;
			return diag_fail(d, STATUS_ENOMEM, "out of memory keeping the set of hash ids seen");
		}
		s->seen_cap = cap;
		for (int64_t k = 0; k < old.seen_cap; k++)
			if (old.seen[k])
				s->seen[slot(s, old.seen[k] - 1)] = old.seen[k];
		free(old.seen);
	}
	i = slot(s, id);
	if (!s->seen[i]) {
		s->seen[i] = id + 1;
		s->seen_n++;
	}
	return STATUS_OK;
}

/* One request's ids: count its leading ids already seen (until the first unseen one), then add them all. */
static int count_reuse(struct stats *s, const uint64_t *h, int32_t n, struct diag *d)
{
	int32_t lead = 0;
	int rc;

	while (lead < n && seen(s, h[lead]))
		lead++;
	s->reused += lead;
	s->ids += n;
	for (int32_t i = lead; i < n; i++)
		if ((rc = add_seen(s, h[i], d)))
			return rc;
	return STATUS_OK;
}

static int gather(const char *path, const struct trace_mapping *m, struct stats *s, struct diag *d)
{
	struct tracefile *t;
	struct trace_record r;
	int rc;

	if ((rc = tracefile_open(&t, path, NULL, m, d)))
		return rc;
	while ((rc = tracefile_next(t, &r, d)) == STATUS_OK) {
		if (s->rows > 0) {  /* Welford: the gap's running mean and squared deviations */
			double gap = (double)(r.t_us - s->last_us), delta = gap - s->gap_mean;

			s->gaps++;
			s->gap_mean += delta / (double)s->gaps;
			s->gap_m2 += delta * (gap - s->gap_mean);
		}
		if (s->rows++ == 0)
			s->first_us = r.t_us;
		s->last_us = r.t_us;
		if ((rc = count_minute(s, r.t_us, d)))
			break;
		if (m->hash_column[0] && (rc = count_reuse(s, r.hashes, r.nhashes, d)))
			break;
		if (r.in_tokens >= 0)
			hist_add(&s->in, r.in_tokens);
		if (r.out_tokens >= 0)
			hist_add(&s->out, r.out_tokens);
		if (!isnan(r.service_s))
			hist_add(&s->service, r.service_s);
	}
	s->filtered = tracefile_filtered(t);
	tracefile_close(t);
	return rc == STATUS_DONE ? STATUS_OK : rc;
}

/* The gaps' coefficient of variation (population std / mean); NaN without a gap or when the mean is 0. */
static double gap_cv(const struct stats *s)
{
	if (s->gaps == 0 || s->gap_mean <= 0)
		return NAN;
	return sqrt(s->gap_m2 / (double)s->gaps) / s->gap_mean;
}

/* The prefix reuse ratio; NaN without hash ids. */
static double reuse_ratio(const struct stats *s)
{
	return s->ids > 0 ? (double)s->reused / (double)s->ids : NAN;
}

static int by_value(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* Per-minute results over the whole minutes of the span. */
struct minutes {
	int64_t n;            /* whole minutes; 0 when the span is under a minute or too long */
	int64_t empty;        /* of those, minutes without a request */
	int32_t p50;          /* requests in a minute: the median of the whole minutes */
	int32_t p90;          /* the 90th percentile */
	int32_t p99;          /* the 99th percentile */
	int32_t max;          /* the busiest minute */
};

/* Sorts s->per_min. Percentiles are nearest-rank: the smallest count with at least ceil(q n) at or below. */
static struct minutes minute_stats(struct stats *s)
{
	struct minutes mn = { .n = s->too_long ? 0 : (s->last_us - s->first_us) / US_PER_MIN };
	static const double q[3] = { 0.50, 0.90, 0.99 };
	int32_t *v[3] = { &mn.p50, &mn.p90, &mn.p99 };

	if (mn.n == 0)
		return mn;
	assert(s->nmin > mn.n);  /* the last arrival is in minute n, just after the whole ones */
	for (int64_t k = 0; k < mn.n; k++)
		mn.empty += s->per_min[k] == 0;
	qsort(s->per_min, (size_t)mn.n, sizeof *s->per_min, by_value);
	for (int i = 0; i < 3; i++) {
		int64_t rank = (int64_t)ceil(q[i] * (double)mn.n);
		*v[i] = s->per_min[(rank < 1 ? 1 : rank) - 1];
	}
	mn.max = s->per_min[mn.n - 1];
	return mn;
}

/* ---- output -------------------------------------------------------------------------------------- */

static bool absolute(const struct trace_mapping *m)
{
	return !tracefile_relative(m->time_format);
}

/* "2023-11-16T18:17:03.979960Z" for an absolute time, "12.500000" seconds for a relative one. */
static void format_time(const struct trace_mapping *m, int64_t t_us, char *buf, size_t size)
{
	char iso[32];

	if (!absolute(m)) {
		snprintf(buf, size, "%lld.%06lld", (long long)(t_us / US_PER_S), (long long)(t_us % US_PER_S));
		return;
	}
	units_format_time(t_us / US_PER_S, iso, sizeof iso);  /* t_us >= 0: the reader rejects earlier times */
	iso[strlen(iso) - 1] = '\0';                           /* drop the Z to add the microseconds */
	snprintf(buf, size, "%s.%06lldZ", iso, (long long)(t_us % US_PER_S));
}

/* A number for JSON: null when not finite (no rows, no span). */
static void json_number(const char *key, double v, const char *fmt)
{
	printf(", \"%s\": ", key);
	if (isfinite(v))
		printf(fmt, v);
	else
		fputs("null", stdout);
}

/* Mean, p50, p99 and max; the percentiles rounded to whole numbers when the values are token counts. */
static void json_sizes(const char *name, const struct hist *h, bool whole)
{
	char key[64];
	double v[4] = { hist_mean(h), hist_quantile(h, 0.5), hist_quantile(h, 0.99), hist_max(h) };
	static const char *const part[4] = { "mean", "p50", "p99", "max" };

	for (int i = 0; i < 4; i++) {
		snprintf(key, sizeof key, "%s_%s", name, part[i]);
		json_number(key, v[i], i == 0 ? "%.6f" : i == 3 || !whole ? "%.6g" : "%.0f");
	}
}

static void print_json(const char *path, const char *format, const struct trace_mapping *m,
		       const struct stats *s, const struct minutes *mn)
{
	double span_s = (double)(s->last_us - s->first_us) / US_PER_S;
	char first[48], last[48];

	format_time(m, s->first_us, first, sizeof first);
	format_time(m, s->last_us, last, sizeof last);
	fputs("{\"file\": ", stdout);
	cmd_json_string(path);
	printf(", \"format\": \"%s\", \"time_column\": ", format);
	cmd_json_string(m->time_column);
	printf(", \"time_format\": \"%s\", \"requests\": %lld", time_format_name(m->time_format),
	       (long long)s->rows);
	if (absolute(m))
		printf(", \"first\": \"%s\", \"last\": \"%s\"", first, last);
	else
		printf(", \"first\": null, \"last\": null");
	json_number("first_s", (double)s->first_us / US_PER_S, "%.6f");
	json_number("last_s", (double)s->last_us / US_PER_S, "%.6f");
	json_number("span_s", span_s, "%.6f");
	json_number("rate_per_s", span_s > 0 ? (double)s->rows / span_s : NAN, "%.6f");
	printf(", \"minutes\": %lld", (long long)mn->n);
	json_number("per_minute_p50", mn->n ? mn->p50 : NAN, "%.0f");
	json_number("per_minute_p90", mn->n ? mn->p90 : NAN, "%.0f");
	json_number("per_minute_p99", mn->n ? mn->p99 : NAN, "%.0f");
	json_number("per_minute_max", mn->n ? mn->max : NAN, "%.0f");
	json_number("empty_minutes", mn->n ? (double)mn->empty : NAN, "%.0f");
	if (m->input_tokens_column[0])
		json_sizes("input_tokens", &s->in, true);
	if (m->output_tokens_column[0])
		json_sizes("output_tokens", &s->out, true);
	if (m->service_column[0])
		json_sizes("service_s", &s->service, false);
	json_number("interarrival_cv", gap_cv(s), "%.6f");
	if (m->nwhere > 0)
		printf(", \"filtered\": %lld", (long long)s->filtered);
	if (m->hash_column[0]) {
		printf(", \"hash_column\": ");
		cmd_json_string(m->hash_column);
		printf(", \"hash_ids\": %lld, \"hash_ids_reused\": %lld, \"distinct_hash_ids\": %lld",
		       (long long)s->ids, (long long)s->reused, (long long)s->seen_n);
		json_number("prefix_reuse_ratio", reuse_ratio(s), "%.6f");
	}
	puts("}");
}

static void print_tokens(const char *name, const struct hist *h)
{
	printf("%-14s mean %.1f  p50 %.0f  p99 %.0f  max %.0f\n", name, hist_mean(h), hist_quantile(h, 0.5),
	       hist_quantile(h, 0.99), hist_max(h));
}

static void print_text(const char *path, const char *format, const struct trace_mapping *m,
		       const struct stats *s, const struct minutes *mn)
{
	double span_s = (double)(s->last_us - s->first_us) / US_PER_S;
	char first[48], last[48];

	format_time(m, s->first_us, first, sizeof first);
	format_time(m, s->last_us, last, sizeof last);
	printf("%-14s %s\n", "trace", path);
	printf("%-14s %s: time '%s' (%s)", "format", format, m->time_column, time_format_name(m->time_format));
	if (m->input_tokens_column[0])
		printf(", input '%s'", m->input_tokens_column);
	if (m->output_tokens_column[0])
		printf(", output '%s'", m->output_tokens_column);
	if (m->service_column[0])
		printf(", service '%s'", m->service_column);
	if (m->hash_column[0])
		printf(", hashes '%s'", m->hash_column);
	for (int i = 0; i < m->nwhere; i++) {
		printf(", where '%s' in (", m->where[i].column);
		for (int j = 0; j < m->where[i].nvalues; j++)
			printf("%s'%s'", j ? ", " : "", m->where[i].values[j]);
		putchar(')');
	}
	printf("\n%-14s %lld\n", "requests", (long long)s->rows);
	printf("%-14s %s%s\n", "first", first, absolute(m) ? "" : " s from the trace's origin");
	printf("%-14s %s%s\n", "last", last, absolute(m) ? "" : " s from the trace's origin");
	printf("%-14s %.6f\n", "span_s", span_s);
	if (span_s > 0)
		printf("%-14s %.4f\n", "rate_per_s", (double)s->rows / span_s);
	else
		printf("%-14s n/a (all requests at one instant)\n", "rate_per_s");
	if (mn->n > 0)
		printf("%-14s p50 %d  p90 %d  p99 %d  max %d  empty %lld  (over %lld whole minutes)\n", "per_minute",
		       mn->p50, mn->p90, mn->p99, mn->max, (long long)mn->empty, (long long)mn->n);
	else
		printf("%-14s n/a (%s)\n", "per_minute", s->too_long ? "span over 400 days" : "span under a minute");
	if (m->input_tokens_column[0])
		print_tokens("input_tokens", &s->in);
	if (m->output_tokens_column[0])
		print_tokens("output_tokens", &s->out);
	if (m->service_column[0])
		printf("%-14s mean %.6g s  p50 %.4g s  p99 %.4g s  max %.6g s\n", "service_s", hist_mean(&s->service),
		       hist_quantile(&s->service, 0.5), hist_quantile(&s->service, 0.99), hist_max(&s->service));
	if (isfinite(gap_cv(s)))
		printf("%-14s cv %.4f  (std / mean of the %lld gaps between requests; 1 for Poisson)\n",
		       "interarrival", gap_cv(s), (long long)s->gaps);
	else
		printf("%-14s n/a (%s)\n", "interarrival", s->gaps ? "all requests at one instant" : "one request");
	if (m->nwhere > 0)
		printf("%-14s %lld rows left out by the filter\n", "filtered", (long long)s->filtered);
	if (m->hash_column[0] && s->ids > 0)
		printf("%-14s %.4f  (%lld of %lld hash ids lead a prefix seen before; %lld distinct)\n",
		       "prefix_reuse", reuse_ratio(s), (long long)s->reused, (long long)s->ids, (long long)s->seen_n);
	else if (m->hash_column[0])
		printf("%-14s n/a (no hash ids)\n", "prefix_reuse");
}

/* ---- the commands -------------------------------------------------------------------------------- */

static int stats_fail(const char *fmt, const char *arg)
{
	fputs("gpucap trace stats: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(" (see gpucap trace stats --help)\n", stderr);
	return CMD_EXIT_USAGE;
}

/* `--where COL=V1,V2` into the next filter of set; false with a message in msg when it is malformed. */
static bool parse_where(const char *arg, struct trace_mapping *set, char *msg, size_t size)
{
	const char *eq = strchr(arg, '='), *v;
	struct trace_where *w;
	size_t n;

	if (set->nwhere >= TRACEFILE_WHERE_MAX) {
		snprintf(msg, size, "more than %d --where options; expected at most %d", TRACEFILE_WHERE_MAX,
			 TRACEFILE_WHERE_MAX);
		return false;
	}
	if (!eq || eq == arg || (size_t)(eq - arg) >= TRACEFILE_COLUMN_MAX || !eq[1]) {
		snprintf(msg, size, "bad --where '%.80s'; expected COLUMN=VALUE[,VALUE...] (a column name of at "
			 "most 63 bytes and at least one value)", arg);
		return false;
	}
	w = &set->where[set->nwhere];
	memset(w, 0, sizeof *w);
	memcpy(w->column, arg, (size_t)(eq - arg));
	for (v = eq + 1;; v += n + 1) {
		n = strcspn(v, ",");
		if (n == 0 || n >= TRACEFILE_VALUE_MAX || w->nvalues >= TRACEFILE_WHERE_VALUES) {
			snprintf(msg, size, "bad --where '%.80s'; expected up to %d non-empty values of at most %d "
				 "bytes, separated by commas", arg, TRACEFILE_WHERE_VALUES, TRACEFILE_VALUE_MAX - 1);
			return false;
		}
		memcpy(w->values[w->nvalues++], v, n);
		if (!v[n])
			break;
	}
	set->nwhere++;
	return true;
}

/* Options into the mapping; returns an exit code, or -1 to go on. */
static int stats_options(int argc, char **argv, struct trace_mapping *m, const char **format, bool *json,
			 const char **path)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },        { "time-column", required_argument, NULL, 't' },
		{ "time-format", required_argument, NULL, 'F' },   { "input-column", required_argument, NULL, 'i' },
		{ "output-column", required_argument, NULL, 'o' }, { "service-column", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },                { "help", no_argument, NULL, 'h' },
		{ "hash-column", required_argument, NULL, 'H' },   { "where", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	struct trace_mapping set = { .time_format = TRACE_TIME_ISO };
	static const char *const formats[] = { "azure", "generic", "csv", "jsonl", "mooncake", "cloudwatch" };
	bool has_time_format = false;
	char msg[256];
	int c;

	*format = NULL;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		char *column = c == 't' ? set.time_column : c == 'i' ? set.input_tokens_column
			     : c == 'o' ? set.output_tokens_column : c == 's' ? set.service_column
			     : c == 'H' ? set.hash_column : NULL;

		if (column && !set_column(column, optarg))
			return stats_fail("column name '%.80s' is too long; expected at most 63 bytes", optarg);
		switch (c) {
		case 't': case 'i': case 'o': case 's': case 'H':
			break;
		case 'w':
			if (!parse_where(optarg, &set, msg, sizeof msg))
				return stats_fail("%s", msg);
			break;
		case 'h':
			fputs(stats_usage, stdout);
			return CMD_EXIT_OK;
		case 'j':
			*json = true;
			break;
		case 'f':
			for (int i = 0; i < 6; i++)
				if (strcmp(optarg, formats[i]) == 0)
					*format = formats[i];
			if (!*format)
				return stats_fail("unknown format '%s'; expected azure, generic, csv, jsonl, "
						  "mooncake or cloudwatch", optarg);
			break;
		case 'F':
			if (!parse_time_format(optarg, &set.time_format))
				return stats_fail("unknown time format '%s'; expected iso, epoch_s, epoch_ms, "
						  "seconds or milliseconds", optarg);
			has_time_format = true;
			break;
		case ':':
			return stats_fail("option '%s' needs a value", argv[optind - 1]);
		default:
			return stats_fail("bad option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return stats_fail("%s", optind >= argc ? "no trace file given" : "more than one trace file given");
	*path = argv[optind];
	if (*format ? strcmp(*format, "cloudwatch") == 0 : cwmetrics_sniff(*path)) {
		*format = "cloudwatch";  /* CloudWatch metrics JSON: cmd_trace_cw.c; the column options do not apply */
		return -1;
	}
	if (!*format)
		*format = set.time_column[0] ? "generic" : looks_azure(*path) ? "azure" : NULL;
	if (!*format && looks_json(*path)) {
		fprintf(stderr, "gpucap: %s:1: the file holds JSON lines but no format was given; expected --format "
			"mooncake, or --format jsonl with --time-column (see gpucap trace stats --help)\n", *path);
		return CMD_EXIT_USAGE;
	}
	if (!*format) {
		fprintf(stderr, "gpucap: %s:1: the header is not the Azure trace's (TIMESTAMP,ContextTokens,"
			"GeneratedTokens); expected --time-column naming the arrival-time column (see gpucap trace "
			"stats --help)\n", *path);
		return CMD_EXIT_USAGE;
	}
	bool named = strcmp(*format, "azure") != 0 && strcmp(*format, "mooncake") != 0;  /* columns as given */

	if (named && !set.time_column[0])
		return stats_fail("--format %s needs --time-column", *format);
	if (set.hash_column[0] && strcmp(*format, "jsonl") != 0 && strcmp(*format, "mooncake") != 0)
		return stats_fail("%s", "--hash-column applies to JSON lines only (--format jsonl or mooncake)");
	if (strcmp(*format, "azure") == 0)
		tracefile_azure_mapping(m);
	else if (strcmp(*format, "mooncake") == 0)
		tracefile_mooncake_mapping(m);
	else
		memset(m, 0, sizeof *m);
	if (strcmp(*format, "jsonl") == 0)
		m->format = TRACE_FORMAT_JSONL;
	if (set.time_column[0])
		strcpy(m->time_column, set.time_column);
	if (has_time_format || named)
		m->time_format = set.time_format;
	if (set.hash_column[0])
		strcpy(m->hash_column, set.hash_column);
	m->nwhere = set.nwhere;
	memcpy(m->where, set.where, sizeof m->where);
	if (set.input_tokens_column[0])
		strcpy(m->input_tokens_column, set.input_tokens_column);
	if (set.output_tokens_column[0])
		strcpy(m->output_tokens_column, set.output_tokens_column);
	if (set.service_column[0])
		strcpy(m->service_column, set.service_column);
	return -1;
}

static int trace_stats(int argc, char **argv)
{
	struct trace_mapping m;
	struct stats *s;
	struct minutes mn;
	struct diag d = { "" };
	const char *path, *format;
	bool json = false;
	int rc;

	if ((rc = stats_options(argc, argv, &m, &format, &json, &path)) >= 0)
		return rc;
	if (strcmp(format, "cloudwatch") == 0)
		return cmd_trace_cloudwatch(path, json);
	if (!(s = calloc(1, sizeof *s))) {  /* three histograms: ~37 KiB, kept off the stack */
		fputs("gpucap: out of memory\n", stderr);
		return CMD_EXIT_FAIL;
	}
	hist_init(&s->in);
	hist_init(&s->out);
	hist_init(&s->service);
	rc = gather(path, &m, s, &d);
	if (rc == STATUS_OK) {
		mn = minute_stats(s);
		if (json)
			print_json(path, format, &m, s, &mn);
		else
			print_text(path, format, &m, s, &mn);
		rc = outfile_check_stdout(&d);
	}
	if (rc != STATUS_OK)
		fprintf(stderr, "gpucap: %s\n", d.msg);
	free(s->per_min);
	free(s->seen);
	free(s);
	return cmd_exit_code(rc);
}

int cmd_trace(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "gpucap trace: expected a command, stats or gen (see gpucap trace --help)\n");
		return CMD_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		fputs(trace_usage, stdout);
		return CMD_EXIT_OK;
	}
	if (strcmp(argv[1], "stats") == 0)
		return trace_stats(argc - 1, argv + 1);

	/* ---- `gpucap trace gen`: written in cmd_trace_gen.c --------------------------------------- */
	if (strcmp(argv[1], "gen") == 0)
		return cmd_trace_gen(argc - 1, argv + 1);

	fprintf(stderr, "gpucap trace: unknown command '%s'; expected stats or gen (see gpucap trace --help)\n",
		argv[1]);
	return CMD_EXIT_USAGE;
}
