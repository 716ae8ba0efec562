/*
 * scenario_workload: the workload half of the scenario loader (see scenario_load.h and scenario.h).
 *
 * `workload` has three parts: where requests come from (arrivals), how large they are (sizes), and how long
 * each takes to serve (service). Arrivals and service each name a kind, and each kind has its own keys; a
 * key of another kind is refused with "KEY does not apply to kind K; expected one of: ..." so that a
 * setting is never silently ignored. The transforms (scale_rate, speedup, growth_per_day, loop, offset)
 * apply to every arrival kind.
 *
 * Files are checked while loading, so that a run never starts on a bad one: a request trace is scanned
 * whole (tracefile_scan), and its messages, which name the trace file and line, pass on unchanged; a
 * rate-series file is read whole too (arrivals_series_check, the source's own row reader), its messages
 * naming the file and line.
 * Relative paths start from the scenario file's folder (for text, the current one).
 *
 * The cross-checks come last: a token-based service needs token counts from the trace or from sizes, a
 * trace-based service needs a trace with service times, and a time-to-first-token SLO needs a
 * token-based service (only it has a prefill).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arrivals.h"
#include "scenario_load.h"
#include "status.h"
#include "tracefile.h"

/*
 * Defaults and limits. Limits are sanity bounds that catch typos (a rate of 1e30, a window of 100000
 * days), not modelling assumptions.
 */
#define MAX_RATE_PER_S 1e7
#define MAX_MEAN_US (INT64_C(1000000) * S_US)      /* 1e6 s, about 11.6 days per request */
#define DEFAULT_CV 1.0
#define MAX_CV 100.0
#define MAX_TOKENS 1e7                              /* mean tokens of a request */
#define MAX_TOKENS_PER_S 1e9
#define MAX_PERIOD_US (400 * DAY_US)               /* burst, calm, decay, window lengths; offset */
#define DEFAULT_AMPLITUDE 0.5
#define DEFAULT_PEAK_HOUR 14.0                     /* mid-afternoon UTC: an assumption, like the amplitude */
#define MAX_MAGNITUDE 1e4
#define DEFAULT_WINDOW_US (600 * S_US)             /* ServeGen's aggregate series use 10-minute windows */
#define MAX_SCALE_RATE 1000.0
#define MAX_SPEEDUP 1e6
#define MAX_GROWTH_PER_DAY 10.0

static const char *const workload_keys[] = { "arrivals", "sizes", "service", "prefix_reuse", NULL };
static const char *const step_keys[] = { "at", "rate_per_s", NULL };
static const char *const sizes_keys[] = { "input_tokens", "output_tokens", NULL };
static const char *const column_keys[] = { "time", "time_format", "input_tokens", "output_tokens",
	"service_s", "delimiter", NULL };
static const char *const decode_keys[] = { "concurrency", "tokens_per_s", NULL };
static const char *const slowdown_keys[] = { "concurrency", "factor", NULL };

/* The keys of each kind, its own first, in the order messages list them. */
#define TRANSFORM_KEYS "scale_rate", "speedup", "growth_per_day", "loop", "offset"
static const char *const rate_keys[] = { "kind", "rate_per_s", "steps", TRANSFORM_KEYS, NULL };
static const char *const diurnal_keys[] = { "kind", "rate_per_s", "amplitude", "peak_hour", "hourly",
	"weekly", TRANSFORM_KEYS, NULL };
static const char *const mmpp_keys[] = { "kind", "rate_per_s", "burst_rate_per_s", "burst_mean_s",
	"calm_mean_s", TRANSFORM_KEYS, NULL };
static const char *const flash_keys[] = { "kind", "rate_per_s", "at", "magnitude", "decay_s", TRANSFORM_KEYS,
	NULL };
static const char *const trace_keys[] = { "kind", "path", "format", "columns", "hash_column", "block_tokens",
	"where", TRANSFORM_KEYS, NULL };
static const char *const series_keys[] = { "kind", "path", "paths", "format", "window_s", TRANSFORM_KEYS,
	NULL };
static const char *const cloudwatch_keys[] = { "kind", "path", "id", "label", "statistic", "period_s", "gaps",
	"within", TRANSFORM_KEYS, NULL };
static const char *const *const arrival_keys[] = { [ARRIVAL_POISSON] = rate_keys,
	[ARRIVAL_UNIFORM] = rate_keys, [ARRIVAL_DIURNAL] = diurnal_keys, [ARRIVAL_MMPP] = mmpp_keys,
	[ARRIVAL_FLASH_CROWD] = flash_keys, [ARRIVAL_TRACE] = trace_keys, [ARRIVAL_RATE_SERIES] = series_keys,
	[ARRIVAL_CLOUDWATCH] = cloudwatch_keys };

static const char *const mean_keys[] = { "kind", "mean_s", "slowdown", NULL };
static const char *const lognormal_keys[] = { "kind", "mean_s", "cv", "slowdown", NULL };
static const char *const tokens_keys[] = { "kind", "prefill_tokens_per_s", "decode_tokens_per_s",
	"decode_table", "overhead_s", "batching", "prefill", "chunk_tokens", NULL };
static const char *const trace_service_keys[] = { "kind", "slowdown", NULL };
static const char *const *const service_keys[] = { [SERVICE_CONSTANT] = mean_keys,
	[SERVICE_EXPONENTIAL] = mean_keys, [SERVICE_LOGNORMAL] = lognormal_keys, [SERVICE_TOKENS] = tokens_keys,
	[SERVICE_TRACE] = trace_service_keys };

/* Size kinds as written; index i is enum size_kind i + 1 (SIZE_NONE is never written). */
static const char *const size_dist_keys[] = { "kind", "mean", NULL };
static const char *const size_lognormal_keys[] = { "kind", "mean", "cv", NULL };
static const char *const *const size_keys[] = { size_dist_keys, size_dist_keys, size_lognormal_keys };

static const char *const arrival_names[] = { "poisson", "uniform", "diurnal", "mmpp", "flash_crowd", "trace",
	"rate_series", "cloudwatch" };
static const char *const service_names[] = { "constant", "exponential", "lognormal", "tokens", "trace" };
static const char *const size_names[] = { "constant", "exponential", "lognormal" };
/* Trace formats as written; generic and csv are the same (CSV with named columns). */
enum { TF_AZURE, TF_GENERIC, TF_CSV, TF_JSONL, TF_MOONCAKE };
static const char *const trace_format_names[] = { "azure", "generic", "csv", "jsonl", "mooncake" };
static const char *const time_format_names[] = { "iso", "epoch_s", "epoch_ms", "seconds", "milliseconds" };
static const char *const series_format_names[] = { "aggregate", "servegen" };
static const char *const bool_names[] = { "false", "true" };

#define COUNT(a) ((int)(sizeof (a) / sizeof (a)[0]))

static const struct yamldoc_bounds positive_rate = { 0, MAX_RATE_PER_S, true, false };
static const struct yamldoc_bounds any_rate = { 0, MAX_RATE_PER_S, false, false };
static const struct yamldoc_bounds cv_bounds = { 0, MAX_CV, true, false };
static const struct yamldoc_bounds slowdown_bounds = { 0, 1000, true, false };  /* (0, 1000] */
static const struct yamldoc_bounds token_bounds = { 0, MAX_TOKENS, true, false };
static const struct yamldoc_bounds token_speed = { 0, MAX_TOKENS_PER_S, true, false };
static const struct yamldoc_bounds amplitude_bounds = { 0, 1, false, false };      /* [0, 1] */
static const struct yamldoc_bounds hour_bounds = { 0, 24, false, true };           /* [0, 24) */
static const struct yamldoc_bounds factor_bounds = { 0, HUGE_VAL, false, false };
static const struct yamldoc_bounds magnitude_bounds = { 0, MAX_MAGNITUDE, false, false };
static const struct yamldoc_bounds scale_bounds = { 0, MAX_SCALE_RATE, true, false };
static const struct yamldoc_bounds speedup_bounds = { 0, MAX_SPEEDUP, true, false };
static const struct yamldoc_bounds growth_bounds = { -1, MAX_GROWTH_PER_DAY, true, false };

/* ---- helpers ------------------------------------------------------------------------------------ */


/* A duration as seconds in a double, by way of microseconds: > 0 (lo_open) or >= 0, and <= hi_us. */
static int read_seconds(struct load *l, const struct yamldoc_ref *r, bool lo_open, int64_t hi_us,
			double *out_s)
{
	int64_t us = 0;
	int rc = scenario_load_duration(l, r, 0, lo_open, hi_us, &us);

	if (rc == STATUS_OK && r->node)
		*out_s = (double)us / 1e6;
	return rc;
}

/* The required child `key` of map as a number within b. */
static int required_number(struct load *l, const struct yamldoc_ref *map, const char *key,
			   const char *what, const struct yamldoc_bounds *b, double *out)
{
	struct yamldoc_ref r;
	int rc;

	if ((rc = scenario_load_required(l, map, key, what, &r)))
		return rc;
	return yamldoc_number(&l->y, &r, b, out);
}

/* The required child `key` of map as a duration > 0 and <= hi_us. */
static int required_duration(struct load *l, const struct yamldoc_ref *map, const char *key,
			     const char *what, int64_t hi_us, int64_t *out_us)
{
	struct yamldoc_ref r;
	int rc;

	if ((rc = scenario_load_required(l, map, key, what, &r)))
		return rc;
	return scenario_load_duration(l, &r, 0, true, hi_us, out_us);
}

/* ---- arrivals by kind --------------------------------------------------------------------------- */

/* workload.arrivals.steps: a list of {at, rate_per_s}, `at` strictly increasing inside the horizon. */
static int read_steps(struct load *l, const struct yamldoc_ref *arr)
{
	struct yamldoc_ref list, e, r;
	int n = 0, rc;

	yamldoc_child(arr, "steps", &list);
	if (!list.node)
		return STATUS_OK;
	if ((rc = yamldoc_list(&l->y, &list, 1, SCENARIO_STEPS_MAX, "steps such as '- {at: 2h, "
				     "rate_per_s: 80}'", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		struct rate_step *st = &l->sc.arrivals.steps[i];
		int64_t after = i ? st[-1].at_us : 0;
		yamldoc_next_item(&list, &walk, &e);
		if ((rc = yamldoc_mapping(&l->y, &e, step_keys, NULL, NULL)) ||
		    (rc = scenario_load_required(l, &e, "at", "when the rate changes, a duration from the "
						 "start", &r)) ||
		    (rc = scenario_load_duration(l, &r, 0, true, l->sc.horizon_us, &st->at_us)))
			return rc;
		if (st->at_us <= after)
			return yamldoc_fail(&l->y, &r, "steps must be in time order; expected a time after "
						  "the previous step's");
		if ((rc = scenario_load_required(l, &e, "rate_per_s", "the rate from then on, requests per "
						 "second", &r)) ||
		    (rc = yamldoc_number(&l->y, &r, &any_rate, &st->rate_per_s)))
			return rc;
	}
	l->sc.arrivals.nsteps = n;
	return STATUS_OK;
}

/* poisson and uniform: a rate, and steps that change it. */
static int read_rate(struct load *l, const struct yamldoc_ref *arr)
{
	int rc = required_number(l, arr, "rate_per_s", "a positive number: requests per second", &positive_rate,
				 &l->sc.arrivals.rate_per_s);

	return rc ? rc : read_steps(l, arr);
}

/* A list of exactly n factors >= 0, not all 0, at `key` of arr; `items` describes them. */
static int read_factors(struct load *l, const struct yamldoc_ref *arr, const char *key, int n,
			const char *items, double *out, bool *given)
{
	struct yamldoc_ref list, r;
	double sum = 0;
	int count, rc;

	yamldoc_child(arr, key, &list);
	if (!list.node)
		return STATUS_OK;
	if ((rc = yamldoc_list(&l->y, &list, n, n, items, &count)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_item(&list, &walk, &r);
		if ((rc = yamldoc_number(&l->y, &r, &factor_bounds, &out[i])))
			return rc;
		sum += out[i];
	}
	if (sum == 0)
		return yamldoc_fail(&l->y, &list, "all %d factors are 0 (no traffic ever); expected at "
					  "least one above 0", n);
	*given = true;
	return STATUS_OK;
}

/* diurnal: a mean rate shaped by a daily sinusoid (or 24 hourly factors) and 7 weekday factors. */
static int read_diurnal(struct load *l, const struct yamldoc_ref *arr)
{
	struct yamldoc_ref r;
	int rc;

	l->sc.arrivals.amplitude = DEFAULT_AMPLITUDE;
	l->sc.arrivals.peak_hour = DEFAULT_PEAK_HOUR;
	for (int i = 0; i < 7; i++)
		l->sc.arrivals.weekly[i] = 1;
	if ((rc = required_number(l, arr, "rate_per_s", "the mean rate, requests per second", &positive_rate,
				  &l->sc.arrivals.rate_per_s)) ||
	    (rc = scenario_load_exclusive(l, arr, "hourly", "amplitude")) || (rc = scenario_load_exclusive(l, arr, "hourly", "peak_hour")))
		return rc;
	yamldoc_child(arr, "amplitude", &r);
	if ((rc = yamldoc_number(&l->y, &r, &amplitude_bounds, &l->sc.arrivals.amplitude)))
		return rc;
	yamldoc_child(arr, "peak_hour", &r);
	if ((rc = yamldoc_number(&l->y, &r, &hour_bounds, &l->sc.arrivals.peak_hour)) ||
	    (rc = read_factors(l, arr, "hourly", 24, "factors >= 0 (hour 0 UTC first)", l->sc.arrivals.hourly,
			       &l->sc.arrivals.has_hourly)))
		return rc;
	return read_factors(l, arr, "weekly", 7, "factors >= 0 (Monday first)", l->sc.arrivals.weekly,
			    &l->sc.arrivals.has_weekly);
}

/* mmpp: calm at rate_per_s, bursts at burst_rate_per_s, with exponential state lengths. */
static int read_mmpp(struct load *l, const struct yamldoc_ref *arr)
{
	int rc;

	if ((rc = required_number(l, arr, "rate_per_s", "the calm rate, requests per second", &positive_rate,
				  &l->sc.arrivals.rate_per_s)) ||
	    (rc = required_number(l, arr, "burst_rate_per_s", "the rate during a burst, requests per second",
				  &any_rate, &l->sc.arrivals.burst_rate_per_s)) ||
	    (rc = required_duration(l, arr, "burst_mean_s", "the mean length of a burst, a duration",
				    MAX_PERIOD_US, &l->sc.arrivals.burst_mean_us)))
		return rc;
	return required_duration(l, arr, "calm_mean_s", "the mean time between bursts, a duration",
				 MAX_PERIOD_US, &l->sc.arrivals.calm_mean_us);
}

/* flash_crowd: a base rate and a spike at `at` that decays exponentially. */
static int read_flash(struct load *l, const struct yamldoc_ref *arr)
{
	struct yamldoc_ref r;
	int rc;

	if ((rc = required_number(l, arr, "rate_per_s", "the base rate, requests per second", &positive_rate,
				  &l->sc.arrivals.rate_per_s)) ||
	    (rc = scenario_load_required(l, arr, "at", "when the crowd arrives, a duration from the start",
					 &r)) ||
	    (rc = scenario_load_duration(l, &r, 0, false, l->sc.horizon_us, &l->sc.arrivals.flash_at_us)) ||
	    (rc = required_number(l, arr, "magnitude", "the extra rate at the peak, as a multiple of "
				  "rate_per_s", &magnitude_bounds, &l->sc.arrivals.flash_magnitude)))
		return rc;
	return required_duration(l, arr, "decay_s", "the time constant of the decay, a duration",
				 MAX_PERIOD_US, &l->sc.arrivals.flash_decay_us);
}

/* A column name (1..TRACEFILE_COLUMN_MAX - 1 bytes) at `key` of cols, if given. */
static int read_column(struct load *l, const struct yamldoc_ref *cols, const char *key, char *buf)
{
	struct yamldoc_ref r;

	yamldoc_child(cols, key, &r);
	return yamldoc_string(&l->y, &r, buf, TRACEFILE_COLUMN_MAX);
}

/* `columns.delimiter` (CSV): one byte, or the two characters \t for a tab; not a double quote or a line
 * break (libcsv's quote and row end), nor a NUL. Absent: 0, which the reader takes as ','. */
static int read_delimiter(struct load *l, const struct yamldoc_ref *cols, struct trace_mapping *m)
{
	static const char expect[] = "one character other than a double quote or a line break, such as \";\" or "
				     "\"\\t\" (a tab); default \",\"";
	struct yamldoc_ref r;
	const char *d;
	char c;
	int rc;

	yamldoc_child(cols, "delimiter", &r);
	if (!r.node)
		return STATUS_OK;
	if ((rc = yamldoc_scalar(&l->y, &r, expect, &d)))
		return rc;
	c = strcmp(d, "\\t") == 0 ? '\t' : strlen(d) == 1 ? d[0] : '\0';
	if (c == '\0' || c == '"' || c == '\n' || c == '\r' || (unsigned char)c >= 0x80)
		return yamldoc_bad(&l->y, &r, expect);
	m->delimiter = c;
	return STATUS_OK;
}

/* `columns` of a generic trace into m: which header names hold what. */
static int read_columns(struct load *l, const struct yamldoc_ref *arr, struct trace_mapping *m)
{
	struct yamldoc_ref cols, r;
	int format = TRACE_TIME_ISO, rc;

	memset(m, 0, sizeof *m);
	if ((rc = scenario_load_required(l, arr, "columns", "formats generic, csv and jsonl name their columns: "
					 "{time, time_format, input_tokens, output_tokens, service_s}", &cols)) ||
	    (rc = yamldoc_mapping(&l->y, &cols, column_keys, NULL, NULL)) ||
	    (rc = scenario_load_required(l, &cols, "time", "the header name of the arrival-time column",
					 &r)) ||
	    (rc = yamldoc_string(&l->y, &r, m->time_column, sizeof m->time_column)))
		return rc;
	yamldoc_child(&cols, "time_format", &r);
	if ((rc = yamldoc_choice(&l->y, &r, time_format_names, COUNT(time_format_names), &format)) ||
	    (rc = read_column(l, &cols, "input_tokens", m->input_tokens_column)) ||
	    (rc = read_column(l, &cols, "output_tokens", m->output_tokens_column)))
		return rc;
	m->time_format = (enum trace_time_format)format;
	if ((rc = read_column(l, &cols, "service_s", m->service_column)))
		return rc;
	return read_delimiter(l, &cols, m);
}

/* `where: {COLUMN: [V1, V2], ...}`: keep the rows whose COLUMN's text is one of the values (all must hold). */
static int read_where(struct load *l, const struct yamldoc_ref *arr, struct trace_mapping *m)
{
	struct yamldoc_ref w, vals, v;
	const char *name;
	int n, nv, rc;

	yamldoc_child(arr, "where", &w);
	if (!w.node)
		return STATUS_OK;
	if ((rc = yamldoc_mapping(&l->y, &w, NULL, "a mapping {COLUMN: [VALUE, ...]} of the columns to "
					"filter on", &n)))
		return rc;
	if (n < 1 || n > TRACEFILE_WHERE_MAX)
		return yamldoc_fail(&l->y, &w, "%d column%s; expected 1 to %d columns to filter on", n,
					  n == 1 ? "" : "s", TRACEFILE_WHERE_MAX);
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		struct trace_where *tw = &m->where[i];

		yamldoc_next_pair(&w, &walk, &vals, &name);
		if (strlen(name) >= sizeof tw->column)
			return yamldoc_fail(&l->y, &vals, "column name '%.80s' is too long; expected at most %d "
						  "bytes", name, TRACEFILE_COLUMN_MAX - 1);
		snprintf(tw->column, sizeof tw->column, "%s", name);
		if ((rc = yamldoc_list(&l->y, &vals, 1, TRACEFILE_WHERE_VALUES, "values to keep, as "
					     "written in the trace", &nv)))
			return rc;
		struct yamldoc_walk walk_j = YAMLDOC_WALK_INIT;
		for (int j = 0; j < nv; j++) {
			yamldoc_next_item(&vals, &walk_j, &v);
			if ((rc = yamldoc_string(&l->y, &v, tw->values[j], TRACEFILE_VALUE_MAX)))
				return rc;
		}
		tw->nvalues = nv;
	}
	m->nwhere = n;
	return STATUS_OK;
}

/* hash_column (jsonl) and block_tokens (with a hash column: default TRACEFILE_BLOCK_TOKENS). */
static int read_hashes(struct load *l, const struct yamldoc_ref *arr, int format, struct trace_mapping *m)
{
	struct yamldoc_ref r;
	int rc;

	yamldoc_child(arr, "hash_column", &r);
	if (r.node && format != TF_JSONL)
		return yamldoc_fail(&l->y, &r, "hash_column applies only to format jsonl (mooncake's is "
					  "hash_ids; a CSV field cannot hold a list); expected format: jsonl, or no "
					  "hash_column");
	if (r.node && (rc = yamldoc_string(&l->y, &r, m->hash_column, sizeof m->hash_column)))
		return rc;
	m->block_tokens = TRACEFILE_BLOCK_TOKENS;
	yamldoc_child(arr, "block_tokens", &r);
	if (r.node && !m->hash_column[0])
		return yamldoc_fail(&l->y, &r, "block_tokens is the number of tokens per hash id; expected "
					  "it only with a hash column (format mooncake, or jsonl with hash_column)");
	return r.node ? scenario_load_int(l, &r, 1, (int)MAX_TOKENS, &m->block_tokens) : STATUS_OK;
}

/* trace: a request trace, scanned whole now so that a malformed one fails the load. */
static int read_trace(struct load *l, const struct yamldoc_ref *arr)
{
	struct yamldoc_ref r, cols;
	int format = 0, rc;

	if ((rc = scenario_load_required(l, arr, "path", "the request trace, a CSV file", &r)) ||
	    (rc = scenario_load_path(l, &r, l->sc.arrivals.path)))
		return rc;
	yamldoc_child(arr, "format", &r);
	if ((rc = yamldoc_choice(&l->y, &r, trace_format_names, COUNT(trace_format_names), &format)))
		return rc;
	yamldoc_child(arr, "columns", &cols);
	if (format == TF_AZURE && cols.node)
		return yamldoc_fail(&l->y, &cols, "columns applies only to format generic (format is "
					  "azure, whose columns are fixed); expected format: generic, or no columns");
	if (format == TF_MOONCAKE && cols.node)
		return yamldoc_fail(&l->y, &cols, "columns does not apply to format mooncake (its keys are "
					  "fixed: timestamp, input_length, output_length, hash_ids); expected format: "
					  "jsonl with columns, or no columns");
	if (format == TF_AZURE)
		tracefile_azure_mapping(&l->sc.arrivals.mapping);
	else if (format == TF_MOONCAKE)
		tracefile_mooncake_mapping(&l->sc.arrivals.mapping);
	else if ((rc = read_columns(l, arr, &l->sc.arrivals.mapping)))
		return rc;
	if (format == TF_JSONL)
		l->sc.arrivals.mapping.format = TRACE_FORMAT_JSONL;
	if (format == TF_JSONL && l->sc.arrivals.mapping.delimiter) {
		yamldoc_child(&cols, "delimiter", &r);
		return yamldoc_fail(&l->y, &r, "delimiter applies only to CSV traces (format generic or csv); "
					  "expected no delimiter with format: jsonl");
	}
	if ((rc = read_hashes(l, arr, format, &l->sc.arrivals.mapping)) ||
	    (rc = read_where(l, arr, &l->sc.arrivals.mapping)))
		return rc;
	return tracefile_scan(l->sc.arrivals.path, NULL, &l->sc.arrivals.mapping, &l->sc.arrivals.summary,
			      l->y.d);
}

/*
 * Fail with STATUS_ENOENT (the message placed at r, naming the file) unless the file at path opens and
 * reads: its rows are checked when it is replayed, but a missing file is found before anything runs.
 */
static int check_readable(struct load *l, const struct yamldoc_ref *r, const char *path)
{
	FILE *f = fopen(path, "rb");
	bool failed;
	int err;

	if (!f) {
		err = errno;
		yamldoc_fail(&l->y, r, "cannot open %s: %s; expected a readable file", path, strerror(err));
		return STATUS_ENOENT;
	}
	(void)getc(f);  /* a directory opens but does not read */
	failed = ferror(f);
	err = errno;
	fclose(f);
	if (failed) {
		yamldoc_fail(&l->y, r, "cannot read %s: %s; expected a readable file", path, strerror(err));
		return STATUS_ENOENT;
	}
	return STATUS_OK;
}

/* rate_series: one file (`path`) or several (`paths`) whose rates add up, in windows of window_s. */
static int read_series(struct load *l, const struct yamldoc_ref *arr)
{
	struct yamldoc_ref list, r;
	int n = 1, format = SERIES_AGGREGATE, rc;

	if ((rc = scenario_load_exclusive(l, arr, "path", "paths")))
		return rc;
	yamldoc_child(arr, "path", &r);
	yamldoc_child(arr, "paths", &list);
	if (!r.node && !list.node)
		return yamldoc_missing(&l->y, arr, "paths", "a list of rate-series CSV files, or path: "
					     "one file");
	if (list.node &&
	    (rc = yamldoc_list(&l->y, &list, 1, SCENARIO_SERIES_MAX, "rate-series CSV files", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		if (list.node)
			yamldoc_next_item(&list, &walk, &r);
		if ((rc = scenario_load_path(l, &r, l->sc.arrivals.series[i])) ||
		    (rc = check_readable(l, &r, l->sc.arrivals.series[i])))
			return rc;
	}
	l->sc.arrivals.nseries = n;
	yamldoc_child(arr, "format", &r);
	if ((rc = yamldoc_choice(&l->y, &r, series_format_names, COUNT(series_format_names), &format)))
		return rc;
	l->sc.arrivals.series_format = (enum series_format)format;
	for (int i = 0; i < n; i++) /* every row now, so that a run never starts on a malformed file */
		if ((rc = arrivals_series_check(l->sc.arrivals.series[i], l->sc.arrivals.series_format, l->y.d)))
			return rc;
	l->sc.arrivals.window_us = DEFAULT_WINDOW_US;
	yamldoc_child(arr, "window_s", &r);
	return scenario_load_duration(l, &r, 0, true, MAX_PERIOD_US, &l->sc.arrivals.window_us);
}

/* How each arrival kind's own keys are read, after its keys are checked. */
static int (*const read_arrival_kind[])(struct load *, const struct yamldoc_ref *) = {
	[ARRIVAL_POISSON] = read_rate, [ARRIVAL_UNIFORM] = read_rate, [ARRIVAL_DIURNAL] = read_diurnal,
	[ARRIVAL_MMPP] = read_mmpp, [ARRIVAL_FLASH_CROWD] = read_flash, [ARRIVAL_TRACE] = read_trace,
	[ARRIVAL_RATE_SERIES] = read_series, [ARRIVAL_CLOUDWATCH] = scenario_load_cloudwatch };

/* The transforms, which every kind takes. */
static int read_transforms(struct load *l, const struct yamldoc_ref *arr)
{
	struct yamldoc_ref r;
	int loop = 0, rc;

	l->sc.arrivals.scale_rate = 1;
	l->sc.arrivals.speedup = 1;
	l->sc.arrivals.growth_per_day = 0;
	yamldoc_child(arr, "scale_rate", &r);
	if ((rc = yamldoc_number(&l->y, &r, &scale_bounds, &l->sc.arrivals.scale_rate)))
		return rc;
	yamldoc_child(arr, "speedup", &r);
	if ((rc = yamldoc_number(&l->y, &r, &speedup_bounds, &l->sc.arrivals.speedup)))
		return rc;
	yamldoc_child(arr, "growth_per_day", &r);
	if ((rc = yamldoc_number(&l->y, &r, &growth_bounds, &l->sc.arrivals.growth_per_day)))
		return rc;
	yamldoc_child(arr, "loop", &r);
	if ((rc = yamldoc_choice(&l->y, &r, bool_names, 2, &loop)))
		return rc;
	l->sc.arrivals.loop = loop;
	yamldoc_child(arr, "offset", &r);
	return scenario_load_duration(l, &r, 0, false, MAX_PERIOD_US, &l->sc.arrivals.offset_us);
}

/*
 * A looped trace must span some time (models/README.md, "Limits"): a pass whose last request is at t = 0 on the run's
 * clock (every row at the first row's time, or at 0 with time_format: seconds) has a mean gap of 0, so each
 * pass would start 1 us after the last and the requests would flood the run without time advancing.
 */
static int check_loop_span(struct load *l, const struct yamldoc_ref *arr)
{
	const struct trace_summary *s = &l->sc.arrivals.summary;
	struct yamldoc_ref r;
	int64_t origin;

	if (l->sc.arrivals.kind != ARRIVAL_TRACE || !l->sc.arrivals.loop)
		return STATUS_OK;
	origin = tracefile_relative(l->sc.arrivals.mapping.time_format) ? 0 : s->first_us;
	if (s->last_us - origin > 0)
		return STATUS_OK;
	yamldoc_child(arr, "loop", &r);
	return yamldoc_fail(&l->y, &r, "the trace's %lld requests all arrive at t = 0, so a loop would "
				  "repeat them without time advancing; expected a trace whose requests span some time, "
				  "or no loop", (long long)s->rows);
}

static int read_arrivals(struct load *l, const struct yamldoc_ref *workload)
{
	struct yamldoc_ref arr, r;
	int kind = 0, n, rc;

	if ((rc = scenario_load_required(l, workload, "arrivals", "a mapping with kind and rate_per_s",
					 &arr)) ||
	    (rc = yamldoc_mapping(&l->y, &arr, NULL, "a mapping such as {kind: poisson, rate_per_s: 10}",
					&n)) ||
	    (rc = scenario_load_required(l, &arr, "kind", "poisson, uniform, diurnal, mmpp, flash_crowd, trace, "
					 "rate_series or cloudwatch", &r)) ||
	    (rc = yamldoc_choice(&l->y, &r, arrival_names, COUNT(arrival_names), &kind)) ||
	    (rc = scenario_load_check_keys(l, &arr, n, arrival_keys, COUNT(arrival_keys), kind, "kind", arrival_names[kind])))
		return rc;
	l->sc.arrivals.kind = (enum arrival_kind)kind;
	if ((rc = read_arrival_kind[kind](l, &arr)) || (rc = read_transforms(l, &arr)) ||
	    (rc = scenario_load_cloudwatch_check(l, &arr)))
		return rc;
	return check_loop_span(l, &arr);
}

/* ---- sizes -------------------------------------------------------------------------------------- */

/* One token-count distribution at r (absent: SIZE_NONE, as zeroed). */
static int read_size(struct load *l, const struct yamldoc_ref *r, struct size_dist *out)
{
	struct yamldoc_ref k;
	int kind = 0, n, rc;

	if (!r->node)
		return STATUS_OK;
	if ((rc = yamldoc_mapping(&l->y, r, NULL, "a mapping such as {kind: lognormal, mean: 800, "
					"cv: 1.5}", &n)) ||
	    (rc = scenario_load_required(l, r, "kind", "constant, exponential or lognormal", &k)) ||
	    (rc = yamldoc_choice(&l->y, &k, size_names, COUNT(size_names), &kind)) ||
	    (rc = scenario_load_check_keys(l, r, n, size_keys, COUNT(size_keys), kind, "kind", size_names[kind])) ||
	    (rc = required_number(l, r, "mean", "the mean number of tokens", &token_bounds, &out->mean)))
		return rc;
	out->kind = (enum size_kind)(kind + 1);
	out->cv = DEFAULT_CV;
	yamldoc_child(r, "cv", &k);
	return yamldoc_number(&l->y, &k, &cv_bounds, &out->cv);
}

static int read_sizes(struct load *l, const struct yamldoc_ref *workload)
{
	struct yamldoc_ref sizes, r;
	int rc;

	yamldoc_child(workload, "sizes", &sizes);
	if ((rc = yamldoc_mapping(&l->y, &sizes, sizes_keys, NULL, NULL)))
		return rc;
	yamldoc_child(&sizes, "input_tokens", &r);
	if ((rc = read_size(l, &r, &l->sc.sizes.input)))
		return rc;
	yamldoc_child(&sizes, "output_tokens", &r);
	return read_size(l, &r, &l->sc.sizes.output);
}

/* ---- service ------------------------------------------------------------------------------------ */

/* `decode_table`: rows {concurrency, tokens_per_s}, concurrency strictly increasing, into out[0..*n). */
int scenario_load_decode_table(struct load *l, const struct yamldoc_ref *list, struct decode_point *out,
			       int *nout)
{
	struct yamldoc_ref e, r;
	int n, rc;

	if ((rc = yamldoc_list(&l->y, list, 1, SCENARIO_DECODE_MAX, "rows such as '- {concurrency: 8, "
				     "tokens_per_s: 40}'", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		struct decode_point *p = &out[i];
		yamldoc_next_item(list, &walk, &e);
		if ((rc = yamldoc_mapping(&l->y, &e, decode_keys, NULL, NULL)) ||
		    (rc = scenario_load_required(l, &e, "concurrency", "requests in service at once, an integer "
						 ">= 1", &r)) ||
		    (rc = scenario_load_int(l, &r, 1, MAX_SLOTS, &p->concurrency)))
			return rc;
		if (i > 0 && p->concurrency <= p[-1].concurrency)
			return yamldoc_fail(&l->y, &r, "rows must be in increasing concurrency; expected "
						  "more than the previous row's %d", p[-1].concurrency);
		if ((rc = required_number(l, &e, "tokens_per_s", "the decode speed of each request, output "
					  "tokens per second", &token_speed, &p->tokens_per_s)))
			return rc;
	}
	*nout = n;
	return STATUS_OK;
}

/*
 * `slowdown` (kinds other than tokens): rows {concurrency, factor}, concurrency strictly increasing, factor
 * in (0, 1000]; models/README.md "Serving model". The tokens kind has its decode table instead.
 */
static int read_slowdown(struct load *l, const struct yamldoc_ref *svc)
{
	struct yamldoc_ref list, e, r;
	int n, rc;

	l->sc.service.nslowdown = 0;
	yamldoc_child(svc, "slowdown", &list);
	if (!list.node)
		return STATUS_OK;
	if ((rc = yamldoc_list(&l->y, &list, 1, SCENARIO_DECODE_MAX, "rows such as '- {concurrency: 8, "
				     "factor: 1.5}'", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		struct slowdown_point *p = &l->sc.service.slowdown[i];
		yamldoc_next_item(&list, &walk, &e);
		if ((rc = yamldoc_mapping(&l->y, &e, slowdown_keys, NULL, NULL)) ||
		    (rc = scenario_load_required(l, &e, "concurrency", "requests in service at once, an integer "
						 ">= 1", &r)) ||
		    (rc = scenario_load_int(l, &r, 1, MAX_SLOTS, &p->concurrency)))
			return rc;
		if (i > 0 && p->concurrency <= p[-1].concurrency)
			return yamldoc_fail(&l->y, &r, "rows must be in increasing concurrency; expected "
						  "more than the previous row's %d", p[-1].concurrency);
		if ((rc = required_number(l, &e, "factor", "how many times its time alone a request takes at "
					  "that concurrency, above 0", &slowdown_bounds, &p->factor)))
			return rc;
	}
	l->sc.service.nslowdown = n;
	return STATUS_OK;
}

/* tokens: prefill and decode speeds (one, or a table by concurrency) and a fixed overhead. */
static int read_tokens_service(struct load *l, const struct yamldoc_ref *svc)
{
	struct yamldoc_ref r, table;
	int rc;

	if ((rc = required_number(l, svc, "prefill_tokens_per_s", "prompt tokens processed per second",
				  &token_speed, &l->sc.service.prefill_tokens_per_s)) ||
	    (rc = scenario_load_exclusive(l, svc, "decode_tokens_per_s", "decode_table")))
		return rc;
	yamldoc_child(svc, "decode_table", &table);
	if (table.node)
		rc = scenario_load_decode_table(l, &table, l->sc.service.decode, &l->sc.service.ndecode);
	else if ((rc = required_number(l, svc, "decode_tokens_per_s", "output tokens per second per request, "
				       "or a decode_table", &token_speed,
				       &l->sc.service.decode[0].tokens_per_s)) == STATUS_OK) {
		l->sc.service.decode[0].concurrency = 1;
		l->sc.service.ndecode = 1;
	}
	if (rc)
		return rc;
	yamldoc_child(svc, "overhead_s", &r);
	if ((rc = read_seconds(l, &r, false, MAX_MEAN_US, &l->sc.service.overhead_s)))
		return rc;
	return scenario_load_batching(l, svc);
}

static int read_service(struct load *l, const struct yamldoc_ref *workload)
{
	struct yamldoc_ref svc, r;
	int kind = 0, n, rc;

	if ((rc = scenario_load_required(l, workload, "service", "a mapping with kind and mean_s", &svc)) ||
	    (rc = yamldoc_mapping(&l->y, &svc, NULL, "a mapping such as {kind: exponential, mean_s: 1}",
					&n)) ||
	    (rc = scenario_load_required(l, &svc, "kind", "constant, exponential, lognormal, tokens or trace",
					 &r)) ||
	    (rc = yamldoc_choice(&l->y, &r, service_names, COUNT(service_names), &kind)))
		return rc;
	l->sc.service.kind = (enum service_kind)kind;
	l->sc.service.cv = DEFAULT_CV;
	yamldoc_child(&svc, "cv", &r);
	if (r.node && (kind == SERVICE_CONSTANT || kind == SERVICE_EXPONENTIAL))  /* the older wording */
		return yamldoc_fail(&l->y, &r, "cv applies only to kind lognormal (kind is %s); "
					  "expected no cv", service_names[kind]);
	if ((rc = scenario_load_check_keys(l, &svc, n, service_keys, COUNT(service_keys), kind, "kind", service_names[kind])))
		return rc;
	if (kind == SERVICE_TOKENS)
		return read_tokens_service(l, &svc);
	if ((rc = read_slowdown(l, &svc)))
		return rc;
	if (kind == SERVICE_TRACE)
		return STATUS_OK;
	if ((rc = scenario_load_required(l, &svc, "mean_s", "the mean service time, a duration", &r)) ||
	    (rc = read_seconds(l, &r, true, MAX_MEAN_US, &l->sc.service.mean_s)))
		return rc;
	yamldoc_child(&svc, "cv", &r);
	return yamldoc_number(&l->y, &r, &cv_bounds, &l->sc.service.cv);
}

/*
 * The service kind against what the arrivals provide, and slo.ttft_s against the service kind. Token counts
 * may come per field: the trace's column when it has one, else workload.sizes.
 */
static int check_service(struct load *l, const struct yamldoc_ref *workload)
{
	const struct trace_mapping *m = &l->sc.arrivals.mapping;
	bool trace = l->sc.arrivals.kind == ARRIVAL_TRACE;
	bool in = (trace && m->input_tokens_column[0]) || l->sc.sizes.input.kind != SIZE_NONE;
	bool out = (trace && m->output_tokens_column[0]) || l->sc.sizes.output.kind != SIZE_NONE;
	struct yamldoc_ref svc, kind, slo, ttft;

	yamldoc_child(workload, "service", &svc);
	yamldoc_child(&svc, "kind", &kind);
	if (l->sc.service.kind == SERVICE_TOKENS && !(in && out))
		return yamldoc_fail(&l->y, &kind, "service kind tokens needs token counts: a trace with "
					  "input and output token columns, or workload.sizes.input_tokens and "
					  "output_tokens");
	if (l->sc.service.kind == SERVICE_TRACE && !(trace && m->service_column[0]))
		return yamldoc_fail(&l->y, &kind, "service kind trace takes each request's service time "
					  "from the trace; expected workload.arrivals.kind trace with "
					  "columns.service_s");
	yamldoc_child(&l->root, "slo", &slo);
	yamldoc_child(&slo, "ttft_s", &ttft);
	if (ttft.node && l->sc.service.kind != SERVICE_TOKENS)
		return yamldoc_fail(&l->y, &ttft, "ttft_s needs workload.service.kind tokens: time to "
					  "first token is the wait plus the prefill (kind is %s); expected no "
					  "ttft_s", service_names[l->sc.service.kind]);
	for (int i = 0; i < 1 + SCENARIO_SLO_PCTS; i++) {
		static const char *const keys[] = { "tpot_s", "tpot_p50_s", "tpot_p90_s", "tpot_p95_s", "tpot_p99_s" };
		yamldoc_child(&slo, keys[i], &ttft);
		if (ttft.node && l->sc.service.kind != SERVICE_TOKENS)
			return yamldoc_fail(&l->y, &ttft, "%s needs workload.service.kind tokens: time per "
						  "output token comes from the token counts (kind is %s); expected no "
						  "%s", keys[i], service_names[l->sc.service.kind], keys[i]);
	}
	/* the same for the TTFT percentile SLOs (scenario_slo.c read them) */
	for (int i = 0; i < SCENARIO_SLO_PCTS; i++) {
		static const char *const keys[] = { "ttft_p50_s", "ttft_p90_s", "ttft_p95_s", "ttft_p99_s" };
		yamldoc_child(&slo, keys[i], &ttft);
		if (ttft.node && l->sc.service.kind != SERVICE_TOKENS)
			return yamldoc_fail(&l->y, &ttft, "%s needs workload.service.kind tokens: time to "
						  "first token is the wait plus the prefill (kind is %s); expected "
						  "no %s", keys[i], service_names[l->sc.service.kind], keys[i]);
	}
	return STATUS_OK;
}

int scenario_load_workload(struct load *l)
{
	struct yamldoc_ref workload;
	int rc;

	if ((rc = scenario_load_required(l, &l->root, "workload", "a mapping with arrivals and service",
					 &workload)) ||
	    (rc = yamldoc_mapping(&l->y, &workload, workload_keys, NULL, NULL)) ||
	    (rc = read_arrivals(l, &workload)) || (rc = read_sizes(l, &workload)) ||
	    (rc = read_service(l, &workload)) || (rc = check_service(l, &workload)))
		return rc;
	return scenario_load_reuse(l, &workload);
}

const char *scenario_service_name(enum service_kind k)
{
	return (unsigned)k < sizeof service_names / sizeof service_names[0] ? service_names[k] : "?";
}

/* ---- tables shared with the schema (scenario_load.h) --------------------------------------------- */

const struct scenario_load_names scenario_load_workload_keys = SCENARIO_LOAD_KEYS(workload_keys);
const struct scenario_load_names scenario_load_rate_step_keys = SCENARIO_LOAD_KEYS(step_keys);
const struct scenario_load_names scenario_load_sizes_keys = SCENARIO_LOAD_KEYS(sizes_keys);
const struct scenario_load_names scenario_load_column_keys = SCENARIO_LOAD_KEYS(column_keys);
const struct scenario_load_names scenario_load_decode_keys = SCENARIO_LOAD_KEYS(decode_keys);
const struct scenario_load_names scenario_load_slowdown_keys = SCENARIO_LOAD_KEYS(slowdown_keys);
const struct yamldoc_bounds *const scenario_load_slowdown_factor = &slowdown_bounds;
const struct scenario_load_names scenario_load_trace_format_names = SCENARIO_LOAD_NAMES(trace_format_names);
const struct scenario_load_names scenario_load_time_format_names = SCENARIO_LOAD_NAMES(time_format_names);
const struct scenario_load_names scenario_load_series_format_names = SCENARIO_LOAD_NAMES(series_format_names);
const struct scenario_load_names scenario_load_bool_names = SCENARIO_LOAD_NAMES(bool_names);
const struct scenario_load_variants scenario_load_arrivals = { "kind", arrival_names, COUNT(arrival_keys),
	arrival_keys };
const struct scenario_load_variants scenario_load_service = { "kind", service_names, COUNT(service_keys),
	service_keys };
const struct scenario_load_variants scenario_load_size = { "kind", size_names, COUNT(size_keys), size_keys };
const struct yamldoc_bounds *const scenario_load_positive_rate = &positive_rate;
const struct yamldoc_bounds *const scenario_load_any_rate = &any_rate;
const struct yamldoc_bounds *const scenario_load_cv = &cv_bounds;
const struct yamldoc_bounds *const scenario_load_tokens = &token_bounds;
const struct yamldoc_bounds *const scenario_load_token_speed = &token_speed;
const struct yamldoc_bounds *const scenario_load_amplitude = &amplitude_bounds;
const struct yamldoc_bounds *const scenario_load_hour = &hour_bounds;
const struct yamldoc_bounds *const scenario_load_factor = &factor_bounds;
const struct yamldoc_bounds *const scenario_load_magnitude = &magnitude_bounds;
const struct yamldoc_bounds *const scenario_load_scale = &scale_bounds;
const struct yamldoc_bounds *const scenario_load_speedup = &speedup_bounds;
const struct yamldoc_bounds *const scenario_load_growth = &growth_bounds;
