/*
 * scenario_schema_table: one entry per key of the scenario format, for the schema (scenario_schema.h).
 *
 * Which keys exist comes from the loader (scenario_load.h) and is checked against these tables before the
 * schema is written; so do choices and number bounds, referenced here. What is written here: each key's
 * type, integer and duration ranges (the loader's arguments, from its macros where a header has them),
 * the default the manuals document (none where it is computed from other keys), and a one-line description.
 * Mappings are defined before the mappings that hold them.
 */
#include "scenario_schema.h"

#include "option.h"
#include "provider.h"
#include "tracefile.h"

#define H_US (3600 * S_US)
#define MAX_PERIOD_US (400 * DAY_US)    /* horizon, and the arrivals' periods and offsets */
#define MAX_MEAN_US (1000000 * S_US)    /* a service time's mean and overhead */
#define MAX_GPUS 64
#define MAX_VCPUS 4096
#define MAX_QUOTA 10000000
#define CRON_TEXT_MAX 128

#define REQ .required = SCHEMA_ALL
#define INT_(k, a, b) .key = k, .type = SCHEMA_INT, .lo = (a), .hi = (b)
#define NUM_(k, b) .key = k, .type = SCHEMA_NUMBER, .bounds = &(b)
#define DUR_(k, a, open_lo, b) .key = k, .type = SCHEMA_DURATION, .lo = (a), .lo_open = (open_lo), .hi = (b)
#define STR_(k, size) .key = k, .type = SCHEMA_STRING, .hi = (size) - 1
#define TIME_(k) .key = k, .type = SCHEMA_TIME
#define WHEN_(k) .key = k, .type = SCHEMA_WHEN
#define CHOICE_(k, n) .key = k, .type = SCHEMA_CHOICE, .names = &(n)
#define MAP_(k, m) .key = k, .type = SCHEMA_MAP, .map = &(m)
#define LIST_(k, a, b, it) .key = k, .type = SCHEMA_LIST, .lo = (a), .hi = (b), .item = &(it)
#define DICT_(k, size, it) .key = k, .type = SCHEMA_DICT, .hi = (size) - 1, .item = &(it)
#define END { .key = NULL }

/* ---- launch delays (scenario_delay.c) ------------------------------------------------------------ */

enum { D_CONSTANT, D_LOGNORMAL, D_EMPIRICAL };  /* scenario_load_startup_names */

static const struct scenario_schema_key delay_value = { DUR_(NULL, 0, false, DAY_US),
	.desc = "one observed launch-to-ready delay" };
static const struct scenario_schema_key startup_entries[] = {
	{ CHOICE_("kind", scenario_load_startup_names), REQ, .desc = "how the delay is drawn" },
	{ DUR_("mean_s", 0, false, DAY_US), .required = SCHEMA_V(D_CONSTANT) | SCHEMA_V(D_LOGNORMAL),
	  .desc = "constant and lognormal: the mean delay (lognormal: > 0)" },
	{ NUM_("cv", scenario_load_startup_cv), .dflt = "1", .desc = "lognormal: the coefficient of variation" },
	{ LIST_("values_s", 1, SCENARIO_DELAY_VALUES_MAX, delay_value), .required = SCHEMA_V(D_EMPIRICAL),
	  .desc = "empirical: observed delays, each drawn with equal probability" },
	END };
static const struct scenario_schema_only startup_only[] = {
	{ .key = "cv", .variants = SCHEMA_V(D_LOGNORMAL) | SCHEMA_V(D_EMPIRICAL) },  /* ignored by empirical */
	{ .key = NULL } };
static const struct scenario_schema_map startup_map = { "startup", &scenario_load_startup_keys, "kind",
	&scenario_load_startup_names, startup_only, NULL, false, startup_entries, NULL, NULL };

/* ---- workload (scenario_workload.c) -------------------------------------------------------------- */

#define A_RATED (SCHEMA_V(ARRIVAL_POISSON) | SCHEMA_V(ARRIVAL_UNIFORM) | SCHEMA_V(ARRIVAL_DIURNAL) | \
		 SCHEMA_V(ARRIVAL_MMPP) | SCHEMA_V(ARRIVAL_FLASH_CROWD))

static const struct scenario_schema_key step_entries[] = {
	{ DUR_("at", 0, true, MAX_PERIOD_US), REQ, .desc = "when the rate changes, from the start (within the "
	  "horizon, after the previous step)" },
	{ NUM_("rate_per_s", scenario_load_any_rate), REQ, .desc = "the rate from then on, requests per second" },
	END };
static const struct scenario_schema_map step_map = { "workload.arrivals.steps", &scenario_load_rate_step_keys,
	.entries = step_entries };
static const struct scenario_schema_key step_item = { MAP_(NULL, step_map), .desc = "a rate step" };
static const struct scenario_schema_key factor_item = { NUM_(NULL, scenario_load_factor),
	.desc = "a factor >= 0" };
static const struct scenario_schema_key path_item = { STR_(NULL, SCENARIO_PATH_MAX),
	.desc = "a rate-series CSV file, relative to the scenario's folder" };

static const struct scenario_schema_key column_entries[] = {
	{ STR_("time", TRACEFILE_COLUMN_MAX), REQ, .desc = "header name of the arrival-time column" },
	{ CHOICE_("time_format", scenario_load_time_format_names), .dflt = "\"iso\"",
	  .desc = "how the time column is written" },
	{ STR_("input_tokens", TRACEFILE_COLUMN_MAX), .desc = "header name of the prompt-token column" },
	{ STR_("output_tokens", TRACEFILE_COLUMN_MAX), .desc = "header name of the output-token column" },
	{ STR_("service_s", TRACEFILE_COLUMN_MAX), .desc = "header name of the service-time column (seconds)" },
	{ STR_("delimiter", 3), .dflt = "\",\"", .desc = "CSV only: the field separator, one character such as "
	  "\";\" or \"\\t\" (a tab; also written as the two characters \\t); not a double quote or a line "
	  "break" },
	END };
static const struct scenario_schema_map column_map = { "workload.arrivals.columns", &scenario_load_column_keys,
	.entries = column_entries };

static const struct scenario_schema_key where_value = { STR_(NULL, TRACEFILE_VALUE_MAX),
	.desc = "a value to keep, as its text is written in the trace" };
static const struct scenario_schema_key where_list = { LIST_(NULL, 1, TRACEFILE_WHERE_VALUES, where_value),
	.desc = "the values of this column whose rows are kept" };

static const struct scenario_schema_key arrival_entries[] = {
	{ .key = "kind", .type = SCHEMA_SELECTOR, REQ, .desc = "where requests come from (see "
	  "models/README.md, \"Traffic\")" },
	{ NUM_("rate_per_s", scenario_load_positive_rate), .variants = A_RATED, .required = A_RATED,
	  .desc = "requests per second: the rate (poisson, uniform), mean rate (diurnal), calm rate (mmpp) or "
	  "base rate (flash_crowd)" },
	{ LIST_("steps", 1, SCENARIO_STEPS_MAX, step_item), .desc = "poisson, uniform: rate changes "
	  "[{at, rate_per_s}] in time order" },
	{ NUM_("amplitude", scenario_load_amplitude), .dflt = "0.5", .desc = "diurnal: the daily sinusoid's "
	  "amplitude, a fraction of the mean rate (not with hourly)" },
	{ NUM_("peak_hour", scenario_load_hour), .dflt = "14", .desc = "diurnal: the UTC hour of the daily peak "
	  "(not with hourly)" },
	{ LIST_("hourly", 24, 24, factor_item), .desc = "diurnal: 24 factors of the mean rate, hour 0 UTC first, "
	  "not all 0 (instead of amplitude and peak_hour)" },
	{ LIST_("weekly", 7, 7, factor_item), .desc = "diurnal: 7 factors of the rate, Monday first, not all 0 "
	  "(default all 1)" },
	{ NUM_("burst_rate_per_s", scenario_load_any_rate), .variants = SCHEMA_V(ARRIVAL_MMPP),
	  .required = SCHEMA_V(ARRIVAL_MMPP), .desc = "mmpp: the rate during a burst, requests per second" },
	{ DUR_("burst_mean_s", 0, true, MAX_PERIOD_US), .required = SCHEMA_V(ARRIVAL_MMPP),
	  .desc = "mmpp: the mean length of a burst" },
	{ DUR_("calm_mean_s", 0, true, MAX_PERIOD_US), .required = SCHEMA_V(ARRIVAL_MMPP),
	  .desc = "mmpp: the mean time between bursts" },
	{ DUR_("at", 0, false, MAX_PERIOD_US), .required = SCHEMA_V(ARRIVAL_FLASH_CROWD),
	  .desc = "flash_crowd: when the crowd arrives, from the start (within the horizon)" },
	{ NUM_("magnitude", scenario_load_magnitude), .required = SCHEMA_V(ARRIVAL_FLASH_CROWD),
	  .desc = "flash_crowd: the extra rate at the peak, a multiple of rate_per_s" },
	{ DUR_("decay_s", 0, true, MAX_PERIOD_US), .required = SCHEMA_V(ARRIVAL_FLASH_CROWD),
	  .desc = "flash_crowd: the time constant of the exponential decay" },
	{ STR_("path", SCENARIO_PATH_MAX), .required = SCHEMA_V(ARRIVAL_TRACE) | SCHEMA_V(ARRIVAL_CLOUDWATCH),
	  .desc = "trace: the request trace; rate_series: one rate-series file (or paths); CSV, relative to the "
	  "scenario's folder; cloudwatch: the JSON of `aws cloudwatch get-metric-data` or "
	  "`get-metric-statistics`" },
	{ LIST_("paths", 1, SCENARIO_SERIES_MAX, path_item), .desc = "rate_series: rate-series CSV files whose "
	  "rates add up (or path)" },
	{ CHOICE_("format", scenario_load_trace_format_names), .variants = SCHEMA_V(ARRIVAL_TRACE),
	  .dflt = "\"azure\"", .desc = "trace: the trace's layout (generic and csv: CSV with named columns; "
	  "jsonl: JSON lines with named keys; mooncake: JSON lines with timestamp (ms), input_length, "
	  "output_length and hash_ids)" },
	{ STR_("hash_column", TRACEFILE_COLUMN_MAX), .variants = SCHEMA_V(ARRIVAL_TRACE), .desc = "trace, format "
	  "jsonl: the key of each row's prefix block ids (an array of whole numbers)" },
	{ INT_("block_tokens", 1, 10000000), .variants = SCHEMA_V(ARRIVAL_TRACE), .dflt = "512",
	  .desc = "trace with hash ids (mooncake, or jsonl with hash_column): tokens per prefix block" },
	{ DICT_("where", TRACEFILE_COLUMN_MAX, where_list), .variants = SCHEMA_V(ARRIVAL_TRACE),
	  .desc = "trace: keep only the rows whose column's value is one of the listed ones (1 to 4 columns, "
	  "all must match)" },
	{ CHOICE_("format", scenario_load_series_format_names), .variants = SCHEMA_V(ARRIVAL_RATE_SERIES),
	  .dflt = "\"aggregate\"", .desc = "rate_series: the files' layout" },
	{ MAP_("columns", column_map), .desc = "trace, format generic, csv or jsonl (required then): which "
	  "header names (jsonl: keys) hold what" },
	{ DUR_("window_s", 0, true, MAX_PERIOD_US), .dflt = "\"600s\"", .desc = "rate_series: the length of "
	  "one row's window" },
	{ STR_("id", CWMETRICS_NAME_MAX), .desc = "cloudwatch: the Id of the get-metric-data result to replay "
	  "(id or label is needed when the file has several)" },
	{ STR_("label", CWMETRICS_NAME_MAX), .desc = "cloudwatch: the Label of the result to replay" },
	{ CHOICE_("statistic", scenario_load_cw_stat_names), .dflt = "\"Sum\"", .desc = "cloudwatch, "
	  "get-metric-statistics: the statistic that counts requests per period" },
	{ DUR_("period_s", 0, true, 7 * DAY_US), .desc = "cloudwatch: the period of the series (default: the "
	  "smallest gap between its timestamps)" },
	{ CHOICE_("gaps", scenario_load_cw_gaps_names), .dflt = "\"zero\"", .desc = "cloudwatch: what a "
	  "period with no datapoint holds (CloudWatch omits periods with nothing recorded)" },
	{ CHOICE_("within", scenario_load_cw_within_names), .dflt = "\"poisson\"", .desc = "cloudwatch: "
	  "how a period's count arrives (poisson: a Poisson process at count / period; even: exactly the "
	  "count, evenly spaced)" },
	{ NUM_("scale_rate", scenario_load_scale), .dflt = "1", .desc = "multiply the rate (thinning or "
	  "copying requests)" },
	{ NUM_("speedup", scenario_load_speedup), .dflt = "1", .desc = "compress time: arrivals come this many "
	  "times faster" },
	{ NUM_("growth_per_day", scenario_load_growth), .dflt = "0", .desc = "compound growth of the rate per "
	  "day (0.01 = 1%/day)" },
	{ CHOICE_("loop", scenario_load_bool_names), .dflt = "false", .desc = "replay the source again when it "
	  "ends before the horizon" },
	{ DUR_("offset", 0, false, MAX_PERIOD_US), .dflt = "0", .desc = "start this far into the source" },
	END };
static const struct scenario_schema_map arrival_map = { "workload.arrivals", .variants = &scenario_load_arrivals,
	.entries = arrival_entries };

static const struct scenario_schema_key size_entries[] = {
	{ .key = "kind", .type = SCHEMA_SELECTOR, REQ, .desc = "the distribution of token counts" },
	{ NUM_("mean", scenario_load_tokens), REQ, .desc = "the mean number of tokens" },
	{ NUM_("cv", scenario_load_cv), .dflt = "1", .desc = "lognormal: the coefficient of variation" },
	END };
static const struct scenario_schema_map size_map = { "workload.sizes.*", .variants = &scenario_load_size,
	.entries = size_entries };
static const struct scenario_schema_key sizes_entries[] = {
	{ MAP_("input_tokens", size_map), .desc = "prompt tokens per request, when the source does not give "
	  "them" },
	{ MAP_("output_tokens", size_map), .desc = "output tokens per request, when the source does not give "
	  "them" },
	END };
static const struct scenario_schema_map sizes_map = { "workload.sizes", &scenario_load_sizes_keys,
	.entries = sizes_entries };

static const struct scenario_schema_key reuse_entries[] = {
	{ NUM_("share", scenario_load_reuse_share), REQ, .desc = "the probability that a request continues "
	  "one of the recent conversations (sharing its leading prompt blocks) instead of starting a new one" },
	{ INT_("conversations", 1, 1000000), .dflt = "100", .desc = "how many of the most recently started "
	  "conversations a request may continue (uniformly); an assumption" },
	{ INT_("block_tokens", 1, 1000000), .dflt = "512", .desc = "prompt tokens per block (the prefix cache's "
	  "unit)" },
	END };
static const struct scenario_schema_map reuse_map = { "workload.prefix_reuse", &scenario_load_reuse_keys,
	.entries = reuse_entries };

#define S_MEAN (SCHEMA_V(SERVICE_CONSTANT) | SCHEMA_V(SERVICE_EXPONENTIAL) | SCHEMA_V(SERVICE_LOGNORMAL))

static const struct scenario_schema_key decode_entries[] = {
	{ INT_("concurrency", 1, MAX_SLOTS), REQ, .desc = "requests in service at once (rows in increasing "
	  "order)" },
	{ NUM_("tokens_per_s", scenario_load_token_speed), REQ, .desc = "the decode speed of each request at "
	  "that concurrency, output tokens per second" },
	END };
static const struct scenario_schema_map decode_map = { "workload.service.decode_table",
	&scenario_load_decode_keys, .entries = decode_entries };
static const struct scenario_schema_key decode_item = { MAP_(NULL, decode_map), .desc = "a row" };
static const struct scenario_schema_key slowdown_entries[] = {
	{ INT_("concurrency", 1, MAX_SLOTS), REQ, .desc = "requests in service at once on the instance (copy), "
	  "the one starting included (rows in increasing order)" },
	{ NUM_("factor", scenario_load_slowdown_factor), REQ, .desc = "how many times its drawn time a request "
	  "starting at that concurrency takes" },
	END };
static const struct scenario_schema_map slowdown_map = { "workload.service.slowdown",
	&scenario_load_slowdown_keys, .entries = slowdown_entries };
static const struct scenario_schema_key slowdown_item = { MAP_(NULL, slowdown_map), .desc = "a row" };
static const struct scenario_schema_key service_entries[] = {
	{ .key = "kind", .type = SCHEMA_SELECTOR, REQ, .desc = "the service time of one request on one slot "
	  "(see models/README.md, \"Serving model\")" },
	{ DUR_("mean_s", 0, true, MAX_MEAN_US), .required = S_MEAN, .desc = "the mean service time" },
	{ NUM_("cv", scenario_load_cv), .dflt = "1", .desc = "lognormal: the coefficient of variation" },
	{ LIST_("slowdown", 1, SCENARIO_DECODE_MAX, slowdown_item), .desc = "not tokens: how a request's time "
	  "grows with its instance's load, [{concurrency, factor}], interpolated between rows and held beyond them, "
	  "fixed when it starts; absent: the drawn time whatever the load (an assumption the run output states)" },
	{ NUM_("prefill_tokens_per_s", scenario_load_token_speed), .required = SCHEMA_V(SERVICE_TOKENS),
	  .desc = "tokens: prompt tokens processed per second" },
	{ NUM_("decode_tokens_per_s", scenario_load_token_speed), .desc = "tokens: output tokens per second per "
	  "request (or decode_table; one is required)" },
	{ LIST_("decode_table", 1, SCENARIO_DECODE_MAX, decode_item), .desc = "tokens: decode speed by "
	  "concurrency, [{concurrency, tokens_per_s}] (or decode_tokens_per_s)" },
	{ DUR_("overhead_s", 0, false, MAX_MEAN_US), .dflt = "0", .desc = "tokens: a fixed time added to every "
	  "request" },
	{ CHOICE_("batching", scenario_load_batching_names), .dflt = "\"fixed\"", .desc = "tokens: fixed (a "
	  "request's decode speed is fixed when it starts) or continuous (the requests decoding on an instance "
	  "share iterations; their speed follows the batch size as requests join and leave)" },
	{ CHOICE_("prefill", scenario_load_prefill_names), .dflt = "\"whole\"", .desc = "tokens, batching "
	  "continuous: whole (a prompt prefills on its own before decoding) or chunked (prefill chunks share "
	  "the decode iterations and slow them)" },
	{ INT_("chunk_tokens", 1, 1000000), .dflt = "512", .desc = "prefill chunked: prompt tokens per "
	  "iteration (the chunk budget)" },
	END };
static const struct scenario_schema_map service_map = { "workload.service", .variants = &scenario_load_service,
	.entries = service_entries };

static const struct scenario_schema_key workload_entries[] = {
	{ MAP_("arrivals", arrival_map), REQ, .desc = "where requests come from: kind and its keys, plus "
	  "transforms" },
	{ MAP_("sizes", sizes_map), .desc = "request sizes in tokens, drawn when the source does not give them" },
	{ MAP_("service", service_map), REQ, .desc = "how long a request takes to serve" },
	{ MAP_("prefix_reuse", reuse_map), .desc = "with serving.prefix_cache_blocks, for sources without hash "
	  "ids: a synthetic model of which prompts share prefixes (conversations that continue)" },
	END };
static const struct scenario_schema_map workload_map = { "workload", &scenario_load_workload_keys,
	.entries = workload_entries };

/* ---- slo, serving, copies (scenario.c, scenario_copies.c) --------------------------------------- */

static const struct scenario_schema_key slo_entries[] = {
	{ DUR_("latency_s", 0, true, DAY_US), REQ, .desc = "a served request violates the SLO when its latency "
	  "exceeds this" },
	{ DUR_("ttft_s", 0, true, DAY_US), .desc = "service kind tokens only: a request misses the TTFT SLO when "
	  "its time to first token exceeds this" },
	{ DUR_("tpot_s", 0, true, DAY_US), .desc = "service kind tokens only: a request misses the TPOT SLO when "
	  "its time per output token after the first exceeds this" },
#define PCT_(k, what, p) { DUR_(k, 0, true, DAY_US), .desc = "the " p "th percentile of " what " must not " \
	"exceed this, over the measured run and in every window (dropped requests count as never answered)" }
	PCT_("latency_p50_s", "latency", "50"), PCT_("latency_p90_s", "latency", "90"),
	PCT_("latency_p95_s", "latency", "95"), PCT_("latency_p99_s", "latency", "99"),
	PCT_("ttft_p50_s", "time to first token (service kind tokens)", "50"),
	PCT_("ttft_p90_s", "time to first token (service kind tokens)", "90"),
	PCT_("ttft_p95_s", "time to first token (service kind tokens)", "95"),
	PCT_("ttft_p99_s", "time to first token (service kind tokens)", "99"),
	PCT_("tpot_p50_s", "time per output token (service kind tokens)", "50"),
	PCT_("tpot_p90_s", "time per output token (service kind tokens)", "90"),
	PCT_("tpot_p95_s", "time per output token (service kind tokens)", "95"),
	PCT_("tpot_p99_s", "time per output token (service kind tokens)", "99"),
#undef PCT_
	{ NUM_("max_violation_rate", scenario_load_rate_share), .desc = "the share of requests allowed over "
	  "latency_s, over the measured run and in every window" },
	{ DUR_("window", 0, true, DAY_US), .desc = "check the SLOs also in every window of this length, aligned "
	  "to clock times from midnight on the `timezone` clock (UTC by default; 1d is a local calendar day, "
	  "23 or 25 hours on daylight-saving change days; the repeated hour of a fall-back change stays in the "
	  "window open when the clock went back); it must divide a day; needs a percentile SLO or "
	  "max_violation_rate" },
	END };
static const struct scenario_schema_map slo_map = { "slo", &scenario_load_slo_keys, .entries = slo_entries };

static const struct scenario_schema_key copies_entries[] = {
	{ INT_("gpus_per_copy", 1, MAX_GPUS), REQ, .desc = "the GPUs one model copy needs, at most the "
	  "instance's (NumberOfAcceleratorDevicesRequired)" },
	{ INT_("per_instance", 1, MAX_GPUS), .desc = "copies per instance; default and most: the instance's "
	  "GPUs / gpus_per_copy" },
	{ INT_("slots_per_copy", 1, MAX_SLOTS), .dflt = "1", .desc = "requests one copy serves at once" },
	{ DUR_("startup_s", 0, false, DAY_US), .dflt = "\"120s\"", .desc = "the time to load a copy on a ready "
	  "instance (or startup)" },
	{ MAP_("startup", startup_map), .desc = "the copy load delay as a distribution (or startup_s)" },
	{ INT_("initial", 0, (int64_t)MAX_INSTANCES * MAX_GPUS), .desc = "copies at t = 0; default: a full "
	  "load of the starting instances" },
	{ INT_("min_instances", 0, MAX_INSTANCES), .dflt = "0", .desc = "instances kept however few copies "
	  "run (ManagedInstanceScaling MinInstanceCount)" },
	END };
static const struct scenario_schema_map copies_map = { "serving.copies", &scenario_load_copies_keys,
	.entries = copies_entries };

static const struct scenario_schema_key serving_type_entries[] = {
	{ INT_("slots_per_instance", 1, MAX_SLOTS), .desc = "requests one instance of the type serves at once; "
	  "default serving.slots_per_instance" },
	{ NUM_("service_scale", scenario_load_service_scale), .dflt = "1", .desc = "a request's service time "
	  "on the type is the drawn (or token-model) time x this (0.5: twice as fast as the serving type)" },
	{ NUM_("prefill_tokens_per_s", scenario_load_token_speed), .desc = "tokens: the type's prompt tokens "
	  "per second; default the workload's" },
	{ NUM_("decode_tokens_per_s", scenario_load_token_speed), .desc = "tokens: the type's output tokens per "
	  "second per request (or decode_table); default the workload's decode speed" },
	{ LIST_("decode_table", 1, SCENARIO_DECODE_MAX, decode_item), .desc = "tokens: the type's decode speed by "
	  "concurrency (or decode_tokens_per_s); default the workload's" },
	{ INT_("kv_cache_tokens", 1, 2000000000), .desc = "tokens: KV-cache tokens of one instance of the type; "
	  "default serving.kv_cache_tokens or what serving.kv_cache derives for its GPUs" },
	END };
static const struct scenario_schema_map serving_type_map = { "serving.types.*", &scenario_load_serving_type_keys,
	.entries = serving_type_entries };
static const struct scenario_schema_key serving_type_item = { MAP_(NULL, serving_type_map),
	.desc = "an instance type of the catalogue (or catalog:) other than serving.instance_type, and its speed" };

static const struct scenario_schema_key kv_entries[] = {
	{ NUM_("gpu_memory_gb", scenario_load_factor), REQ, .desc = "memory per GPU, GB (1e9 bytes)" },
	{ NUM_("model_gb", scenario_load_factor), REQ, .desc = "the model's weights on one instance, GB" },
	{ NUM_("bytes_per_token", scenario_load_factor), REQ, .desc = "KV-cache bytes one token holds" },
	{ NUM_("utilization", scenario_load_rate_share), .dflt = "0.9", .desc = "the share of GPU memory the "
	  "server may use (vLLM gpu_memory_utilization)" },
	{ CHOICE_("preallocate", scenario_load_bool_names), .dflt = "true", .desc = "for gpu_memory_utilization: "
	  "the server holds utilization x GPU memory from an instance's first request on (vLLM), else the "
	  "weights plus the KV cache's high-water mark" },
	END };
static const struct scenario_schema_map kv_map = { "serving.kv_cache", &scenario_load_kv_keys,
	.entries = kv_entries };

static const struct scenario_schema_key mig_count = { INT_(NULL, 1, 7), .desc = "instances of the profile on "
	"every GPU (NVIDIA's most per GPU, and the layout must fit one GPU)" };
static const struct scenario_schema_key partitions_entries[] = {
	{ DICT_("layout", 16, mig_count), REQ, .desc = "MIG profile (such as 3g.40gb) to count, on every GPU of "
	  "every instance; fits one GPU (7 compute, 8 memory slices); no +me profiles" },
	END };
static const struct scenario_schema_map partitions_map = { "serving.partitions",
	&scenario_load_partitions_keys, .entries = partitions_entries };
static const struct scenario_schema_key mme_model_entries[] = {
	{ STR_("name", SCENARIO_NAME_MAX), REQ, .desc = "the model's name, unique" },
	{ NUM_("size_gb", scenario_load_mme_memory), REQ, .desc = "memory the model takes on an instance once "
	  "loaded, GB; at most memory_gb" },
	{ DUR_("load_s", 0, false, DAY_US), REQ, .desc = "time to load it on an instance (download and load); "
	  "the first request for it there waits this long" },
	{ NUM_("share", scenario_load_model_share), .dflt = "1", .desc = "its relative share of the requests "
	  "(shares are normalised; not all 0)" },
	END };
static const struct scenario_schema_map mme_model_map = { "serving.multi_model.models", &scenario_load_mme_model_keys,
	.entries = mme_model_entries };
static const struct scenario_schema_key mme_model_item = { MAP_(NULL, mme_model_map), .desc = "a model" };

static const struct scenario_schema_key mme_entries[] = {
	{ NUM_("memory_gb", scenario_load_mme_memory), REQ, .desc = "model memory of one instance, GB: loaded "
	  "models must fit in it" },
	{ LIST_("models", 1, SCENARIO_MME_MODELS_MAX, mme_model_item), REQ, .desc = "the models the endpoint serves" },
	END };
static const struct scenario_schema_map mme_map = { "serving.multi_model", &scenario_load_mme_keys,
	.entries = mme_entries };

static const struct scenario_schema_key serving_entries[] = {
	{ STR_("instance_type", SCENARIO_NAME_MAX), REQ, .desc = "an instance type of the catalogue (gpucap "
	  "catalog) or one defined under catalog:" },
	{ INT_("slots_per_instance", 1, MAX_SLOTS), .dflt = "1", .desc = "requests one instance serves at once "
	  "(not with copies)" },
	{ DUR_("queue_timeout_s", 0, false, DAY_US), .dflt = "0", .desc = "a request waiting longer is "
	  "dropped; 0 = wait as long as needed" },
	{ DUR_("startup_s", 0, false, DAY_US), .dflt = "\"420s\"", .desc = "launch-to-ready delay of a new "
	  "instance (an assumption within the measured 258-525 s)" },
	{ INT_("max_queue", 0, 100000000), .dflt = "1000000", .desc = "waiting requests beyond this are "
	  "refused (dropped); 0 = no waiting: a request that finds no free slot is refused (a loss system)" },
	{ CHOICE_("on_interrupt", scenario_load_interrupt_names), .dflt = "\"requeue\"", .desc = "what happens "
	  "to requests in service on an instance taken away" },
	{ CHOICE_("endpoint", scenario_load_endpoint_names), .dflt = "\"realtime\"", .desc = "realtime "
	  "refuses a request while nothing is in service; async queues it" },
	{ MAP_("copies", copies_map), .desc = "model copies on instances (SageMaker inference components)" },
	{ DICT_("types", SCENARIO_NAME_MAX, serving_type_item), .desc = "other instance types fleet entries may "
	  "hold, each with its own speed (not with copies, nor in mode fluid)" },
	{ INT_("kv_cache_tokens", 1, 2000000000), .desc = "service kind tokens: tokens an instance's KV cache "
	  "holds; a request starts only when its prompt plus output fit beside those in service (or kv_cache)" },
	{ MAP_("kv_cache", kv_map), .desc = "service kind tokens: the KV cache derived from memory: floor((GPUs x "
	  "gpu_memory_gb x utilization - model_gb) x 1e9 / bytes_per_token) tokens (or kv_cache_tokens)" },
	{ INT_("prefix_cache_blocks", 1, 1 << 30), .or_word = "unbounded", .desc = "service kind tokens, a trace "
	  "with hash ids or workload.prefix_reuse: prefix blocks one instance's cache keeps (LRU), or unbounded; a request's cached "
	  "leading blocks skip prefill; absent: no prefix cache" },
	{ CHOICE_("routing", scenario_load_routing_names), .dflt = "\"random\"", .desc = "how requests are "
	  "spread over instances: first_free (the first in fleet order that can start it), random (SageMaker's "
	  "default), least_outstanding (fewest in service and waiting, ties at random), round_robin, power_of_two "
	  "(two drawn, the less loaded), prefix_aware (with prefix_cache_blocks: where its prefix is cached; "
	  "cache_aware is its former name)" },
	{ CHOICE_("queue", scenario_load_queue_names), .dflt = "\"per_instance\"", .desc = "where a request that "
	  "cannot start waits: central (one queue; a freed slot takes its head) or per_instance (sent to an "
	  "instance on arrival and waits there, as behind a SageMaker endpoint)" },
	{ INT_("prefix_threshold", 1, 4096000), .desc = "prefix_aware with queue per_instance: the in-flight "
	  "requests (in service and waiting) at which a prefix's instance stops taking it and the least loaded "
	  "instance does; default the instance's slots" },
	{ MAP_("partitions", partitions_map), .desc = "with models: the MIG layout of every GPU (SageMaker "
	  "accelerator partitioning); each model's copies take the partitions of its profile" },
	{ MAP_("multi_model", mme_map), .desc = "a multi-model endpoint: models loaded on demand into each "
	  "instance's model memory, least recently used unloaded first (models/README.md \"Multi-model endpoints\"); not "
	  "with copies, continuous batching, a KV or prefix cache, jobs or mode fluid" },
	END };
static const struct scenario_schema_map serving_map = { "serving", &scenario_load_serving_keys,
	.entries = serving_entries };

/* ---- fleet (scenario_fleet.c) -------------------------------------------------------------------- */

#define O(k) SCHEMA_V(OPTION_##k)
#define O_SCALES (O(ON_DEMAND) | O(SPOT))

static const struct scenario_schema_key outage_entries[] = {
	{ DUR_("start", 0, false, MAX_PERIOD_US), REQ, .desc = "when launches start failing, from the start "
	  "(in order, not overlapping, within the horizon)" },
	{ DUR_("end", 0, true, MAX_PERIOD_US), REQ, .desc = "when capacity is back, from the start (after "
	  "start)" },
	END };
static const struct scenario_schema_map outage_map = { "fleet.*.ice_outages", &scenario_load_outage_keys,
	.entries = outage_entries };
static const struct scenario_schema_key outage_item = { MAP_(NULL, outage_map), .desc = "an outage window" };
static const struct scenario_schema_key segment_entries[] = {
	{ TIME_("start"), REQ, .desc = "when the segment begins, a UTC time (any time of day)" },
	{ INT_("days", 1, 182), .desc = "the segment's length in whole days, 1 to 182 (days or hours is required)" },
	{ INT_("hours", 1, 4368), .desc = "instead of days: the length in hours, as AWS reports a reservation "
	  "(DurationHours), so a first day cut short can be written; 1 to 4368" },
	{ INT_("count", 1, 64), REQ, .desc = "the instances reserved: 1, 2, 4, 8, 16, 32 or 64" },
	{ NUM_("usd_per_h", scenario_load_price), .desc = "this segment's price per instance-hour; default the "
	  "plan's usd_per_h" },
	{ NUM_("upfront_usd", scenario_load_upfront), .desc = "this segment's whole price (instead of "
	  "usd_per_h)" },
	END };
static const struct scenario_schema_map segment_map = { "fleet.*.segments", &scenario_load_segment_keys,
	.entries = segment_entries };
static const struct scenario_schema_key segment_item = { MAP_(NULL, segment_map),
	.desc = "a segment (Reserved Capacity) of a training plan; segments must not overlap" };
static const struct scenario_schema_key rate_item = { NUM_(NULL, scenario_load_rate),
	.desc = "the Savings Plans rate of the type, USD per instance-hour (at most its on-demand price)" };

/* zones (scenario_zones.c) */
static const struct scenario_schema_key zone_outage_entries[] = {
	{ DUR_("start", 0, false, MAX_PERIOD_US), REQ, .desc = "when the zone loses its capacity, from the start "
	  "(in order, not overlapping, within the horizon)" },
	{ DUR_("end", 0, true, MAX_PERIOD_US), REQ, .desc = "when the zone's capacity is back, from the start "
	  "(after start)" },
	END };
static const struct scenario_schema_map zone_outage_map = { "zones.*.outages", &scenario_load_zone_outage_keys,
	.entries = zone_outage_entries };
static const struct scenario_schema_key zone_outage_item = { MAP_(NULL, zone_outage_map),
	.desc = "a zone-wide capacity loss" };
static const struct scenario_schema_key zone_entries[] = {
	{ STR_("name", SCENARIO_ZONE_NAME_MAX), REQ, .desc = "the zone's name, unique in the list" },
	{ LIST_("outages", 1, SCENARIO_OUTAGES_MAX, zone_outage_item), .desc = "zone-wide capacity losses "
	  "[{start, end}]: the zone's instances are taken at start (Spot with their notice), its launches fail "
	  "until end" },
	END };
static const struct scenario_schema_map zone_map = { "zones.*", &scenario_load_zone_keys,
	.entries = zone_entries };
static const struct scenario_schema_key zone_item = { MAP_(NULL, zone_map), .desc = "an availability zone" };

static const struct scenario_schema_key entry_entries[] = {
	{ .key = "option", .type = SCHEMA_SELECTOR, REQ, .desc = "the purchase option (see "
	  "models/README.md, \"Purchase options\")" },
	{ CHOICE_("scope", scenario_load_scope_names), .variants = O(RESERVED), REQ, .desc = "reserved: zonal, "
	  "capacity reserved in a zone and in service from t = 0 (a regional RI is a commitment, not a fleet "
	  "entry)" },
	{ INT_("count", 0, MAX_INSTANCES), .variants = O(RESERVED) | O(ODCR), REQ,
	  .desc = "the instances bought" },
	{ INT_("count", 0, MAX_INSTANCES), .variants = O_SCALES, .dflt = "0", .or_auto = true,
	  .desc = "instances at the start, or auto: what target tracking's target needs for the arrival rate at "
	  "t = 0" },
	{ INT_("count", 0, 64), .variants = O(CAPACITY_BLOCK), REQ, .desc = "instances in the block (at most "
	  "64)" },
	{ INT_("max", 0, MAX_INSTANCES), .desc = "the most instances the entry may hold (>= count); default "
	  "count, or autoscaling.max with a policy" },
	{ NUM_("usd_per_h", scenario_load_price), .desc = "the price per instance-hour; default from the "
	  "catalogue for the option (training_plan: the Capacity Block rate, for every segment)" },
	{ CHOICE_("term", scenario_load_term_names), .desc = "reserved: a term splits the price by payment "
	  "(default 1y)" },
	{ CHOICE_("payment", scenario_load_payment_names), .dflt = "\"no_upfront\"", .desc = "reserved, with "
	  "term: how the term is paid" },
	{ NUM_("upfront_usd", scenario_load_upfront), .desc = "reserved with term: the upfront payment per "
	  "instance; capacity_block: the block's price (or usd_per_h)" },
	{ TIME_("term_start"), .desc = "when the term began (reserved: with term); default the scenario start" },
	{ NUM_("ice_probability", scenario_load_fraction), .dflt = "0", .desc = "the chance that a launch "
	  "fails for lack of capacity" },
	{ LIST_("ice_outages", 1, SCENARIO_OUTAGES_MAX, outage_item), .desc = "windows in which every launch "
	  "fails, [{start, end}]" },
	{ MAP_("startup", startup_map), .desc = "the launch-to-ready delay of this entry's instances; default "
	  "serving.startup_s" },
	{ NUM_("discount", scenario_load_fraction), .desc = "spot: the fraction off on-demand (default the "
	  "catalogue's)" },
	{ STR_("price_trace", SCENARIO_PATH_MAX), .desc = "spot: a Spot price history file (JSON), instead of "
	  "discount or usd_per_h" },
	{ STR_("price_zone", 64), .desc = "spot, with price_trace: the availability zone to follow" },
	{ NUM_("interruptions_per_hour", scenario_load_interruption), .desc = "spot: interruptions per "
	  "instance-hour (one interruption model at most)" },
	{ CHOICE_("interruption_band", scenario_load_band_names), .desc = "spot: the Spot Instance Advisor's "
	  "monthly interruption band" },
	{ STR_("availability_trace", SCENARIO_PATH_MAX), .desc = "spot: a capacity availability file (JSON)" },
	{ DUR_("notice_s", 0, false, H_US), .dflt = "\"120s\"", .desc = "spot: the interruption notice before "
	  "an instance is taken (default 120 s on aws, 30 s on gcp and azure); use shared: the notice jobs "
	  "get when serving's hours begin" },
	{ NUM_("reclaims_per_day", scenario_load_reclaim), .dflt = "0", .desc = "spot: pool-wide reclaims per "
	  "day" },
	{ NUM_("reclaim_fraction", scenario_load_share), .dflt = "1", .desc = "spot: the share of the entry's "
	  "instances a reclaim takes" },
	{ DUR_("outage_mean_s", 0, true, MAX_PERIOD_US), .dflt = "\"3600s\"", .desc = "spot: the mean time "
	  "the pool stays empty after a reclaim" },
	{ NUM_("max_usd_per_h", scenario_load_rate), .desc = "spot, provider azure only: the max price; while "
	  "a traced price is above it the VMs are evicted, and none is launched unless the price is below it "
	  "(absent: never evicted for price)" },
	{ CHOICE_("eviction_policy", scenario_load_eviction_names), .dflt = "\"deallocate\"", .desc = "spot, "
	  "provider azure only: an evicted VM is kept stopped (deallocate: it counts against the quota and its "
	  "disks are billed, disk_usd_per_h, to the horizon) or deleted" },
	{ NUM_("disk_usd_per_h", scenario_load_price), .dflt = "0", .desc = "spot, provider azure, deallocate: "
	  "the storage cost of one evicted VM's disks per hour" },
	{ DUR_("max_wait_s", 0, false, 7200 * S_US), .dflt = "\"7200s\"", .desc = "gcp_dws_flex: the longest "
	  "a request waits in the queue for capacity before it fails (at most 2 h)" },
	{ WHEN_("start"), .variants = O(ODCR), .desc = "odcr (aws): when the reservation becomes active, a UTC "
	  "time or a duration after the scenario start; default the scenario start. A later start is a "
	  "future-dated reservation: c, m, r, i, t or g instance families only, with commitment_duration" },
	{ WHEN_("end"), .variants = O(ODCR), .desc = "odcr (aws): a limited reservation's end, a UTC time or a "
	  "duration after the scenario start, not before the commitment ends; default none (unlimited). Its "
	  "instances run on, billed on-demand" },
	{ DUR_("commitment_duration", 14 * DAY_US, false, 3660 * DAY_US), .variants = O(ODCR), .desc = "odcr "
	  "(aws): a future-dated reservation's commitment from its start, at least 14 days (required with a "
	  "start after the scenario start)" },
	{ TIME_("start"), .variants = O(CAPACITY_BLOCK), .required = O(CAPACITY_BLOCK), .desc = "capacity_block: when the block begins" },
	{ DUR_("duration", 0, true, 183 * DAY_US), .desc = "capacity_block: the block's length (or give end); "
	  "it must end at 11:30 UTC, within a day of 1-14 days or 21-182 days in steps of 7 (gcp_calendar: "
	  "1-90 whole days; azure_block: 1-14 whole days or 3-26 whole weeks, any start time)" },
	{ TIME_("end"), .variants = O(CAPACITY_BLOCK), .desc = "capacity_block: when the block ends, 11:30 UTC (instead of duration)" },
	{ TIME_("requested"), .variants = O(CAPACITY_BLOCK), .desc = "azure_block only: when the reservation is "
	  "asked for, a UTC time; its start must be that date or up to 56 days later, and a same-day request "
	  "before 11:30 UTC; default none (not checked)" },
	{ STR_("instance_type", SCENARIO_NAME_MAX), .desc = "the entry's instance "
	  "type: serving.instance_type (default) or one listed under serving.types; prices default to its own" },
	{ CHOICE_("use", scenario_load_use_names), .dflt = "\"serving\"", .desc = "who the instances are for: "
	  "serving, jobs, or shared (capacity_block, training_plan: serving inside serving_hours, jobs outside them)" },
	{ STR_("serving_hours", 12), .variants = O(CAPACITY_BLOCK) | O(TRAINING_PLAN), .desc = "use shared (required then): the "
	  "UTC hours serving has the instances, \"HH:MM-HH:MM\" (may wrap midnight, from != to)" },
	{ LIST_("segments", 1, SCENARIO_FLEET_MAX, segment_item), .required = O(TRAINING_PLAN),
	  .desc = "training_plan: its segments, one fleet entry each" },
	{ DUR_("expiry_notice", 0, false, 23 * H_US), .dflt = "\"10m\"", .desc = "training_plan: the notice "
	  "before a segment's instances are taken, 30 min before its end" },
	{ STR_("zone", SCENARIO_ZONE_NAME_MAX), .desc = "on_demand, spot, odcr, capacity_block: the "
	  "availability zone, one of zones; default none (no zone outages; a spot entry is its own pool)" },
	END };
/* The providers' own products (provider.h) take the keys of the kind they stand for. */
static bool option_alias(int i, const char **name, int *v)
{
	enum option_kind kind;

	if (!provider_variant_at(i, name, &kind))
		return false;
	*v = (int)kind;
	return true;
}

static const struct scenario_schema_map entry_map = { "fleet.*", .variants = &scenario_load_option,
	.alias = option_alias, .entries = entry_entries };
static const struct scenario_schema_key entry_item = { MAP_(NULL, entry_map), .desc = "a fleet entry" };

static const struct scenario_schema_key commit_entries[] = {
	{ .key = "option", .type = SCHEMA_SELECTOR, REQ, .desc = "reserved (a regional reserved instance) or "
	  "savings_plan" },
	{ INT_("count", 0, MAX_INSTANCES), .variants = O(RESERVED), REQ, .desc = "instances reserved: "
	  "instance-hours of usage of the type it may cover in each clock hour" },
	{ NUM_("usd_per_h", scenario_load_price), .variants = O(RESERVED), .desc = "the hourly fee per "
	  "instance; default from the catalogue's reserved discount and the payment" },
	{ CHOICE_("term", scenario_load_term_names), .dflt = "\"1y\"", .desc = "the term: billed every hour of "
	  "it, used or not" },
	{ CHOICE_("payment", scenario_load_payment_names), .variants = O(RESERVED), .dflt = "\"no_upfront\"",
	  .desc = "how the term is paid" },
	{ NUM_("upfront_usd", scenario_load_upfront), .variants = O(RESERVED), .desc = "the upfront payment per "
	  "instance" },
	{ TIME_("term_start"), .desc = "when the term begins; default the scenario start" },
	{ STR_("instance_type", SCENARIO_NAME_MAX), .variants = O(RESERVED), .desc = "the type it covers: "
	  "serving.instance_type (default) or one of serving.types" },
	{ NUM_("commit_usd_per_h", scenario_load_commit), .required = O(SAVINGS_PLAN), .desc = "the hourly "
	  "commitment in USD (0: none, for a what-if)" },
	{ NUM_("discount", scenario_load_fraction), .variants = O(SAVINGS_PLAN), .desc = "the plan's fraction "
	  "off on-demand (default the catalogue's; or rates)" },
	{ DICT_("rates", SCENARIO_NAME_MAX, rate_item), .variants = O(SAVINGS_PLAN), .desc = "Savings Plans "
	  "rates by instance type, one for the serving type; each type of the fleet is covered at its own" },
	END };
static const struct scenario_schema_map commit_map = { "commitments.*", .variants = &scenario_load_commit_option,
	.entries = commit_entries };
static const struct scenario_schema_key commit_item = { MAP_(NULL, commit_map), .desc = "a commitment" };

static const struct scenario_schema_key quota_entries[] = {
	{ INT_("on_demand_vcpus", 0, MAX_QUOTA), .desc = "running on-demand vCPUs of the serving type's family "
	  "(needs the type's vcpus); default no limit" },
	{ INT_("on_demand_instances", 0, MAX_QUOTA), .desc = "running on-demand instances; default no limit" },
	{ INT_("spot_vcpus", 0, MAX_QUOTA), .desc = "running Spot vCPUs of the family; default no limit" },
	{ INT_("spot_instances", 0, MAX_QUOTA), .desc = "running Spot instances; default no limit" },
	END };
static const struct scenario_schema_map quota_map = { "quotas", &scenario_load_quota_keys,
	.entries = quota_entries };

static const struct scenario_schema_key retry_entries[] = {
	{ DUR_("backoff_s", 0, true, DAY_US), .dflt = "\"30s\"", .desc = "the wait after a first failed launch" },
	{ DUR_("max_backoff_s", 0, false, DAY_US), .desc = "the longest wait (>= backoff_s); default 600s, or "
	  "backoff_s when longer" },
	{ NUM_("multiplier", scenario_load_multiplier), .dflt = "2", .desc = "the wait grows by this per "
	  "failure" },
	END };
static const struct scenario_schema_map retry_map = { "launch_retry", &scenario_load_retry_keys,
	.entries = retry_entries };

static const struct scenario_schema_key allocation_entries[] = {
	{ CHOICE_("strategy", scenario_load_strategy_names), .dflt = "\"order\"", .desc = "order: fill the "
	  "fleet in list order; mixed: an on-demand base, then a percentage (needs a spot entry)" },
	{ INT_("on_demand_base_capacity", 0, MAX_INSTANCES), .dflt = "0", .desc = "mixed: the first instances "
	  "on-demand" },
	{ NUM_("on_demand_percentage_above_base", scenario_load_percent), .dflt = "100", .desc = "mixed: the "
	  "percentage of the rest on-demand (rounded up)" },
	{ CHOICE_("spot_fallback", scenario_load_bool_names), .dflt = "true", .desc = "fill a Spot shortfall "
	  "with on-demand" },
	END };
static const struct scenario_schema_map allocation_map = { "allocation", &scenario_load_allocation_keys,
	.entries = allocation_entries };

/* ---- jobs (scenario_jobs.c) ---------------------------------------------------------------------- */

static const struct scenario_schema_key failure_entries[] = {
	{ NUM_("per_instance_hour", scenario_load_failure_rate), .desc = "node failures per instance-hour "
	  "(Poisson); default 1.97e-5 x the instance type's GPUs (Llama 3's rate per GPU-hour)" },
	{ CHOICE_("recovery", scenario_load_recovery_names), .dflt = "\"automatic\"", .desc = "automatic: the "
	  "node is replaced and the job resumes from its last checkpoint; none: it queues again after "
	  "restart_delay" },
	{ DUR_("replacement", 0, false, MAX_JOB_US), .dflt = "\"10m\"", .desc = "recovery automatic: the time "
	  "to replace a failed node (an assumption)" },
	{ DUR_("restart_delay", 0, false, MAX_JOB_US), .dflt = "\"1h\"", .desc = "recovery none: the wait "
	  "before a failed job queues again (an assumption)" },
	END };
static const struct scenario_schema_map failure_map = { "jobs.failures", &scenario_load_failure_keys,
	.entries = failure_entries };

static const struct scenario_schema_key job_entries[] = {
	{ STR_("name", 64), .desc = "the job's name; default job-N, N its place among the list's items, then "
	  "the trace's rows" },
	{ INT_("instances", 1, MAX_INSTANCES), REQ, .desc = "instances the job needs at once (gang-scheduled), "
	  "all from one fleet entry its policy can use" },
	{ NUM_("work_instance_hours", scenario_load_work), REQ, .desc = "the job's compute at full size, in "
	  "instance-hours" },
	{ WHEN_("submit"), REQ, .desc = "when the job is submitted: a UTC time (not before start), or a "
	  "duration after the scenario start" },
	{ WHEN_("deadline"), .desc = "when the job is due: a UTC time, or a duration after submit (after "
	  "submit); default none" },
	{ DUR_("checkpoint_interval", 0, false, MAX_JOB_US), .dflt = "0", .desc = "compute between "
	  "checkpoints; 0 = never" },
	{ DUR_("checkpoint_cost", 0, false, MAX_JOB_US), .dflt = "0", .desc = "a checkpoint pauses computing "
	  "this long" },
	{ DUR_("restart_overhead", 0, false, MAX_JOB_US), .dflt = "0", .desc = "from instances up to "
	  "computing again, also at the first start" },
	{ INT_("priority", -MAX_PRIORITY, MAX_PRIORITY), .dflt = "0", .desc = "higher leaves the queue first" },
	{ STR_("team", 64), .desc = "with jobs.teams (required then): the team the job belongs to" },
	{ STR_("priority_class", 64), .desc = "a class of jobs.priority_classes: the priority becomes its weight "
	  "(not with priority)" },
	{ DUR_("max_wait", 0, true, MAX_JOB_US), .desc = "with jobs.managed_spot (MaxWaitTimeInSeconds): waiting "
	  "plus running time from submit, at least the job's failure-free run; past it the job is stopped and "
	  "counted missed; default none" },
	END };
static const struct scenario_schema_map job_map = { "jobs.list", &scenario_load_job_list_keys,
	.entries = job_entries };
static const struct scenario_schema_key job_item = { MAP_(NULL, job_map), .desc = "a job" };

static const struct scenario_schema_key team_entries[] = {
	{ STR_("name", 32), REQ, .desc = "the team's name (letters, digits, '_' or '-'; it names metrics)" },
	{ INT_("quota", 0, MAX_INSTANCES), REQ, .desc = "instances of the jobs entries the team is entitled to" },
	{ INT_("fair_share_weight", 0, 100), .dflt = "0", .desc = "idle quota is lent in proportion to it; 0 "
	  "gets only what weighted teams leave" },
	{ CHOICE_("lending", scenario_load_lending_names), .dflt = "\"lend_and_borrow\"", .desc = "whether the "
	  "team's idle quota is lent, and whether it borrows" },
	{ INT_("borrow_limit", 1, 500), .dflt = "50", .desc = "at most this percent of the team's quota borrowed" },
	END };
static const struct scenario_schema_map team_map = { "jobs.teams", &scenario_load_team_keys,
	.entries = team_entries };
static const struct scenario_schema_key team_item = { MAP_(NULL, team_map), .desc = "a team" };
static const struct scenario_schema_key class_entries[] = {
	{ STR_("name", 32), REQ, .desc = "the class's name" },
	{ INT_("weight", 0, 100), REQ, .desc = "higher goes first and preempts lower within a team" },
	END };
static const struct scenario_schema_map class_map = { "jobs.priority_classes", &scenario_load_class_keys,
	.entries = class_entries };
static const struct scenario_schema_key class_item = { MAP_(NULL, class_map), .desc = "a priority class" };

static const struct scenario_schema_key jobs_entries[] = {
	{ CHOICE_("policy", scenario_load_job_policy_names), .dflt = "\"on_demand\"", .desc = "where jobs run "
	  "(see models/README.md, \"Jobs\")" },
	{ DUR_("switch_margin", 0, false, MAX_JOB_US), .dflt = "0", .desc = "deadline_spot: switch to "
	  "on-demand when the slack is below a restart plus this; uniform_progress, adaptive_progress: the "
	  "safety net's margin on top of two restarts" },
	{ DUR_("max_pending", 0, true, MAX_JOB_US), .dflt = "\"2d\"", .desc = "a job pending this long on a "
	  "training plan is terminated" },
	{ MAP_("failures", failure_map), .desc = "node failures and recovery" },
	{ LIST_("list", 1, MAX_JOBS, job_item), .desc = "the jobs (list, trace or both)" },
	{ STR_("trace", SCENARIO_PATH_MAX), .desc = "a CSV of jobs, one per row, added to the list (relative "
	  "to the scenario's folder)" },
	{ LIST_("teams", 1, JOB_TEAMS_MAX, team_item), .desc = "team shares of the jobs entries "
	  "(models/README.md, \"Team shares\")" },
	{ LIST_("priority_classes", 1, JOB_CLASSES_MAX, class_item), .desc = "named priorities for jobs" },
	{ CHOICE_("fair_share", scenario_load_bool_names), .dflt = "true", .desc = "with teams: idle quota by "
	  "fair-share weight (true) or first-come first-served" },
	{ CHOICE_("managed_spot", scenario_load_bool_names), .dflt = "false", .desc = "SageMaker managed Spot "
	  "training (policy spot, aws): Spot instances pay their seconds even if interrupted in their first hour; "
	  "jobs may set max_wait" },
	END };
static const struct scenario_schema_map jobs_map = { "jobs", &scenario_load_jobs_keys,
	.entries = jobs_entries };

/* ---- autoscaling (scenario.c, scenario_policy.c) ------------------------------------------------- */

#define P(k) SCHEMA_V(POLICY_##k)

static const struct scenario_schema_key adjustment_entries[] = {
	{ NUM_("lower", scenario_load_any_number), .desc = "the step's lower bound, relative to the threshold; "
	  "default -infinity (first step only)" },
	{ NUM_("upper", scenario_load_any_number), .desc = "the step's upper bound; default +infinity (last "
	  "step only)" },
	{ INT_("adjustment", -MAX_INSTANCES, MAX_INSTANCES), REQ, .desc = "instances, a capacity or a percent "
	  "(-100 to 1000), as adjustment_type says" },
	END };
static const struct scenario_schema_map adjustment_map = { "autoscaling.*.steps",
	&scenario_load_adjustment_keys, .entries = adjustment_entries };
static const struct scenario_schema_key adjustment_item = { MAP_(NULL, adjustment_map),
	.desc = "a step adjustment" };
static const struct scenario_schema_key alarm_entries[] = {
	{ NUM_("threshold", scenario_load_any_number), REQ, .desc = "the metric value the alarm compares with" },
	{ CHOICE_("comparison", scenario_load_comparison_names), .desc = "default greater_or_equal for "
	  "scale_out, less_or_equal for scale_in" },
	{ INT_("evaluation_periods", 1, SCENARIO_ALARM_PERIODS_MAX), .dflt = "1", .desc = "periods the alarm "
	  "looks back over" },
	{ INT_("datapoints_to_alarm", 1, SCENARIO_ALARM_PERIODS_MAX), .desc = "breaching periods that fire it "
	  "(<= evaluation_periods); default evaluation_periods" },
	{ LIST_("steps", 1, SCENARIO_ALARM_STEPS_MAX, adjustment_item), REQ, .desc = "step adjustments in "
	  "ascending order, no gap or overlap" },
	END };
static const struct scenario_schema_map alarm_map = { "autoscaling.scale_out", &scenario_load_alarm_keys,
	.entries = alarm_entries };

static const struct scenario_schema_key action_entries[] = {
	{ TIME_("at"), .desc = "when the action runs (or cron)" },
	{ STR_("cron", CRON_TEXT_MAX), .desc = "a recurring UTC schedule MIN HOUR DOM MON DOW, such as "
	  "\"0 8 * * 1-5\" (or at)" },
	{ INT_("min", 0, MAX_INSTANCES), .desc = "the new autoscaling min (min, max or both)" },
	{ INT_("max", 0, MAX_INSTANCES), .desc = "the new autoscaling max (>= min)" },
	END };
static const struct scenario_schema_map action_map = { "autoscaling.schedule", &scenario_load_action_keys,
	.entries = action_entries };
static const struct scenario_schema_key action_item = { MAP_(NULL, action_map),
	.desc = "a scheduled action" };

static const struct scenario_schema_key also_entries[] = {
	{ CHOICE_("metric", scenario_load_metric_names), REQ, .desc = "the policy's metric (not one already "
	  "used)" },
	{ NUM_("target", scenario_load_invocations_target), REQ, .desc = "the metric value to hold" },
	END };
static const struct scenario_schema_map also_map = { "autoscaling.also", &scenario_load_also_keys,
	.target_by_metric = true, .entries = also_entries };
static const struct scenario_schema_key also_item = { MAP_(NULL, also_map),
	.desc = "another target-tracking policy" };

#define P_TARGET (P(TARGET_TRACKING) | P(HPA) | P(PREDICTIVE))

static const struct scenario_schema_key autoscaling_entries[] = {
	{ CHOICE_("policy", scenario_load_policy_names), .dflt = "\"none\"", .desc = "how the fleet scales "
	  "(see models/README.md, \"Autoscaling\")" },
	{ CHOICE_("metric", scenario_load_metric_names), .dflt = "\"concurrency_per_instance\"",
	  .desc = "the metric the policy holds at target" },
	{ NUM_("target", scenario_load_invocations_target), .required = P_TARGET, .desc = "the metric value to "
	  "hold: concurrency (0, 1], GPU metrics (0, 100 x GPUs] (copies: (0, 100]), the others (0, 1e9]" },
	{ DUR_("metric_delay_s", 0, false, H_US), .dflt = "0", .desc = "the policies see each period's metrics "
	  "this much later: a whole number of periods (not with policy none)" },
	{ INT_("min", 0, MAX_INSTANCES), .desc = "the least capacity (copies with serving.copies); default the "
	  "reserved count" },
	{ INT_("max", 0, MAX_INSTANCES), .desc = "the most capacity; default the sum of the fleet's max" },
	{ DUR_("resolution_s", S_US, false, H_US), .desc = "how often the policy evaluates; default 60s (hpa: "
	  "15s); with a GPU metric 10, 30, 60, 120, 180, 240 or 300s" },
	{ DUR_("scale_out_cooldown_s", 0, false, DAY_US), .dflt = "\"300s\"", .desc = "the wait after a "
	  "scale-out" },
	{ DUR_("scale_in_cooldown_s", 0, false, DAY_US), .dflt = "\"300s\"", .desc = "the wait after a "
	  "scale-in" },
	{ NUM_("scale_in_margin", scenario_load_type_fraction), .dflt = "0.1", .desc = "scale in only below "
	  "target x (1 - margin)" },
	{ CHOICE_("adjustment_type", scenario_load_adjustment_names), .dflt = "\"change_in_capacity\"",
	  .desc = "step: what a step's adjustment means" },
	{ INT_("min_adjustment_magnitude", 1, MAX_INSTANCES), .desc = "step, percent_change_in_capacity: the "
	  "least instances a step changes" },
	{ MAP_("scale_out", alarm_map), .desc = "step: the scale-out alarm (scale_out, scale_in or both)" },
	{ MAP_("scale_in", alarm_map), .desc = "step: the scale-in alarm" },
	{ NUM_("tolerance", scenario_load_tolerance), .dflt = "0.1", .desc = "hpa: no change while the ratio "
	  "to target is within 1 +- tolerance" },
	{ DUR_("stabilization_window_s", 0, false, H_US), .dflt = "\"300s\"", .desc = "hpa: scale down to the "
	  "highest recommendation of this window" },
	{ NUM_("scale_up_percent", scenario_load_scale_up_percent), .dflt = "100", .desc = "hpa: scale-up "
	  "policy, percent of the current replicas per period" },
	{ INT_("scale_up_pods", 0, MAX_INSTANCES), .dflt = "4", .desc = "hpa: scale-up policy, replicas per "
	  "period" },
	{ LIST_("schedule", 1, SCENARIO_SCHEDULE_MAX, action_item), .desc = "scheduled actions, any policy: "
	  "[{at or cron, min, max}]" },
	{ INT_("scale_out_datapoints", 1, 100), .dflt = "3", .desc = "target_tracking: breaching datapoints "
	  "before a scale-out" },
	{ INT_("scale_in_datapoints", 1, 100), .dflt = "15", .desc = "target_tracking: datapoints below the "
	  "scale-in threshold before a scale-in" },
	{ LIST_("also", 1, 2, also_item), .desc = "target_tracking: more target-tracking policies on other "
	  "metrics, [{metric, target}]" },
	{ CHOICE_("scale_from_zero", scenario_load_bool_names), .dflt = "false", .desc = "with a desired "
	  "capacity of 0, requests waiting at 2 evaluations in a row bring it to 1 (not with policy none)" },
	{ CHOICE_("capacity_unit", scenario_load_capacity_unit_names), .dflt = "\"instances\"", .desc = "what "
	  "min, max and the desired capacity count: instances of any type, or each instance's GPUs or slots "
	  "(gpus and slots: metric concurrency_per_instance, no copies, no predictive policy)" },
	{ CHOICE_("forecast", scenario_load_forecast_names), .dflt = "\"same_time_yesterday\"",
	  .desc = "predictive: how the traffic is forecast" },
	{ DUR_("lead_s", 0, false, DAY_US), .desc = "predictive: how far ahead to plan; default "
	  "serving.startup_s + resolution_s (+ a copy's load)" },
	{ NUM_("alpha", scenario_load_open_unit), .dflt = "0.5", .desc = "predictive, holt_winters: level "
	  "smoothing" },
	{ NUM_("beta", scenario_load_open_unit), .dflt = "0.1", .desc = "predictive, holt_winters: trend "
	  "smoothing" },
	{ NUM_("gamma", scenario_load_open_unit), .dflt = "0.3", .desc = "predictive, holt_winters: season "
	  "smoothing" },
	END };
/* The step, hpa and predictive lists are the loader's; target tracking's own keys and scale_from_zero are
 * refused under other policies by code (scenario.c) that has no list. */
static const struct scenario_schema_only autoscaling_only[] = {
	{ .keys = &scenario_load_step_keys, .variants = P(STEP) },
	{ .keys = &scenario_load_hpa_keys, .variants = P(HPA) },
	{ .keys = &scenario_load_predictive_keys, .variants = P(PREDICTIVE) },
	{ .key = "scale_out_datapoints", .variants = P(TARGET_TRACKING) },
	{ .key = "scale_in_datapoints", .variants = P(TARGET_TRACKING) },
	{ .key = "also", .variants = P(TARGET_TRACKING) },
	{ .key = "scale_from_zero", .variants = SCHEMA_ALL & ~P(NONE) },
	{ .key = "metric_delay_s", .variants = SCHEMA_ALL & ~P(NONE) },
	{ .key = NULL } };
static const struct scenario_schema_map autoscaling_map = { "autoscaling", &scenario_load_autoscaling_keys,
	"policy", &scenario_load_policy_names, autoscaling_only, NULL, true, autoscaling_entries, NULL, NULL };

/* ---- catalog and the top level (scenario.c) ------------------------------------------------------ */

static const struct scenario_schema_key product_item = { CHOICE_(NULL, scenario_load_product_names),
	.desc = "a product" };
static const struct scenario_schema_key type_entries[] = {
	{ INT_("gpus", 1, MAX_GPUS), .desc = "GPUs per instance (required for a new type)" },
	{ STR_("gpu_model", SCENARIO_NAME_MAX), .desc = "the GPU model, for reports" },
	{ INT_("vcpus", 1, MAX_VCPUS), .desc = "vCPUs per instance (for quotas in vCPUs)" },
	{ NUM_("usd_per_h", scenario_load_type_price), .desc = "the On-Demand price per instance-hour "
	  "(required for a new type)" },
	{ NUM_("reserved_discount", scenario_load_type_fraction), .desc = "the 1-year reserved fraction off "
	  "On-Demand" },
	{ NUM_("reserved_3y_discount", scenario_load_type_fraction), .desc = "the 3-year reserved fraction off "
	  "On-Demand" },
	{ NUM_("savings_plan_discount", scenario_load_type_fraction), .desc = "the Savings Plan fraction off "
	  "On-Demand" },
	{ NUM_("spot_discount", scenario_load_type_fraction), .desc = "the typical Spot fraction off "
	  "On-Demand" },
	{ NUM_("cb_usd_per_h", scenario_load_type_price), .desc = "the Capacity Block rate per instance-hour "
	  "(0 = unknown)" },
	{ CHOICE_("provider", scenario_load_provider_names), .desc = "whose type it is (a new type; a built-in "
	  "one keeps its own): aws, gcp or azure" },
	{ LIST_("sells", 0, 3, product_item), .desc = "the time-bound products the type is sold as "
	  "(capacity_block, training_plan, gcp_calendar); default the catalogue row's, or for a new type its "
	  "name's (P-family and Trn: capacity_block, training_plan; gcp A3 and newer: gcp_calendar)" },
	END };
static const struct scenario_schema_map type_map = { "catalog.*", &scenario_load_type_keys,
	.entries = type_entries };
static const struct scenario_schema_key type_item = { MAP_(NULL, type_map), .desc = "an instance type: "
	"overrides of a catalogue entry, or a new type" };

/* ---- price lists (scenario_prices.c) ---------------------------------------------------------------- */

static const struct scenario_schema_key machine_entries[] = {
	{ STR_("gpu", PRICELIST_NAME_MAX), REQ, .desc = "the start of the GPU SKU's description, as \"Nvidia H100 "
	  "80GB GPU\"" },
	{ INT_("gpus", 1, 64), REQ, .desc = "GPUs of the machine" },
	{ STR_("core", PRICELIST_NAME_MAX), REQ, .desc = "the start of the vCPU SKU's description, as \"A3 "
	  "Instance Core\"" },
	{ INT_("vcpus", 1, 4096), REQ, .desc = "vCPUs of the machine" },
	{ STR_("ram", PRICELIST_NAME_MAX), REQ, .desc = "the start of the memory SKU's description, as \"A3 "
	  "Instance Ram\"" },
	{ NUM_("memory_gib", scenario_load_machine_gib), REQ, .desc = "memory of the machine in GiB (the RAM SKU is per "
	  "GiB-hour)" },
	END };
static const struct scenario_schema_map machine_map = { "prices.machines.*", &scenario_load_machine_keys,
	.entries = machine_entries };
static const struct scenario_schema_key machine_item = { MAP_(NULL, machine_map), .desc = "a machine type "
	"and its parts" };

static const struct scenario_schema_key price_entries[] = {
	{ STR_("file", SCENARIO_PATH_MAX), REQ, .desc = "the price list's JSON, relative to the scenario's "
	  "folder" },
	{ CHOICE_("format", scenario_load_price_formats), REQ, .desc = "aws_price_list (aws pricing "
	  "get-products), aws_capacity_blocks (aws ec2 describe-capacity-block-offerings), azure_retail (the "
	  "Azure Retail Prices API) or gcp_skus (gcloud billing skus list: machine types priced from their GPU, "
	  "vCPU and memory SKUs)" },
	{ STR_("region", PRICELIST_NAME_MAX), .desc = "the region whose prices are kept; default the scenario's "
	  "region, else the format's provider's default (us-east-1, eastus, us-central1)" },
	{ CHOICE_("offering_class", scenario_load_offering_classes), .dflt = "\"standard\"", .desc = "which "
	  "EC2 reserved offers reserved entries pay (aws_price_list only)" },
	{ DICT_("machines", PRICELIST_NAME_MAX, machine_item), .desc = "gcp_skus only: machine types priced by "
	  "their GPU, vCPU and memory SKUs, beside the built-in a3-highgpu-8g (the same name replaces it)" },
	END };
static const struct scenario_schema_map price_map = { "prices", &scenario_load_price_keys,
	.entries = price_entries };
static const struct scenario_schema_key price_item = { MAP_(NULL, price_map), .desc = "a price list file" };

/* ---- the run mode (scenario_mode.c) ------------------------------------------------------------- */

static const struct scenario_schema_key fluid_entries[] = {
	{ DUR_("period_s", 0, true, H_US), .dflt = "\"60s\"", .desc = "the fluid tick: arrivals and queueing "
	  "are computed per period (divides autoscaling.resolution_s, sample_period and slo.window with the "
	  "start's offset in it; default: the largest period dividing 60 s and them)" },
	END };
static const struct scenario_schema_map fluid_map = { "fluid", &scenario_load_fluid_keys,
	.entries = fluid_entries };

/* ---- several models (scenario_models.c) ----------------------------------------------------------- */

static const struct scenario_schema_key model_entries[] = {
	{ STR_("name", SCENARIO_MODEL_NAME_MAX), REQ, .desc = "the model's name (a-z, 0-9, _, -): its metrics "
	  "are model.NAME.*" },
	{ STR_("partition", 16), REQ, .desc = "the MIG profile of serving.partitions.layout each copy takes "
	  "(one model per profile)" },
	{ MAP_("slo", slo_map), REQ, .desc = "the model's SLO, as the top-level slo (latency_s only)" },
	{ MAP_("workload", workload_map), REQ, .desc = "the model's traffic and service time on its partition, "
	  "as the top-level workload (service kind not tokens, batching fixed)" },
	END };
static const struct scenario_schema_map model_map = { "models", &scenario_load_model_keys,
	.entries = model_entries };
static const struct scenario_schema_key model_item = { MAP_(NULL, model_map), .desc = "a model" };

static const struct scenario_schema_key top_entries[] = {
	{ STR_("name", SCENARIO_NAME_MAX), REQ, .desc = "the scenario's name, stored with each run" },
	{ INT_("seed", 0, INT64_MAX), .dflt = "1", .desc = "the random seed" },
	{ TIME_("start"), .dflt = "\"2026-01-01T00:00:00Z\"", .desc = "the wall-clock time of t = 0 (UTC)" },
	{ DUR_("horizon", 0, true, MAX_PERIOD_US), REQ, .desc = "the simulated length" },
	{ DUR_("sample_period", S_US, false, MAX_PERIOD_US), .dflt = "\"60s\"", .desc = "the time-series "
	  "resolution (<= horizon)" },
	{ DUR_("warmup", 0, false, MAX_PERIOD_US), .dflt = "0", .desc = "request metrics count only requests "
	  "arriving from here on; measured costs and GPU-hours start here (< horizon)" },
	{ MAP_("slo", slo_map), .desc = "the latency service-level objective (required with workload; not "
	  "without)" },
	{ MAP_("workload", workload_map), .desc = "the traffic: arrivals, sizes and service (required unless "
	  "jobs is given)" },
	{ MAP_("serving", serving_map), REQ, .desc = "the instance type and how it serves" },
	{ LIST_("fleet", 1, SCENARIO_FLEET_MAX, entry_item), REQ, .desc = "purchase options in allocation "
	  "order" },
	{ LIST_("commitments", 0, SCENARIO_COMMIT_MAX, commit_item), .desc = "what only discounts usage, "
	  "applied by the bill each UTC clock hour: regional reserved instances first, then Savings Plans; "
	  "they change no instance, no maximum and no scaling" },
	{ MAP_("autoscaling", autoscaling_map), .desc = "how the fleet scales" },
	{ MAP_("quotas", quota_map), .desc = "account quotas for running instances" },
	{ MAP_("launch_retry", retry_map), .desc = "the wait after a failed launch" },
	{ MAP_("allocation", allocation_map), .desc = "how launches are split across the fleet" },
	{ DICT_("catalog", SCENARIO_NAME_MAX, type_item), .desc = "instance types: override a catalogue entry "
	  "or define a new one" },
	{ MAP_("jobs", jobs_map), .desc = "training and batch jobs (a scenario with jobs may have no workload)" },
	{ CHOICE_("mode", scenario_load_mode_names), .dflt = "\"requests\"", .desc = "requests: one event per "
	  "request; fluid: per-period queueing formulas for long horizons (a subset of the format)" },
	{ MAP_("fluid", fluid_map), .desc = "fluid-mode settings (only with mode: fluid)" },
	{ LIST_("zones", 1, SCENARIO_ZONES_MAX, zone_item), .desc = "availability zones that fleet entries "
	  "may name, with zone-wide outages" },
	{ CHOICE_("provider", scenario_load_provider_names), .desc = "the cloud: aws, gcp or "
	  "azure (default: the serving type's); which purchase options exist and how they bill "
	  "(models/README.md, \"Providers\")" },
	{ STR_("region", SCENARIO_NAME_MAX), .desc = "the cloud region the bill is for, a label stored with each "
	  "run (the FOCUS export's RegionId); default the provider's: aws us-east-1, gcp us-central1, azure eastus "
	  "(models/README.md, \"Providers\")" },
	{ LIST_("prices", 1, SCENARIO_PRICE_FILES, price_item), .desc = "vendors' price lists whose prices "
	  "replace the catalogue's for the types they have (models/README.md, \"Price lists\")" },
	{ LIST_("models", 1, SCENARIO_MODELS_MAX, model_item), .desc = "several models on one fleet, each with "
	  "its own slo and workload, on MIG partitions (needs serving.partitions; then no top-level slo or "
	  "workload, no autoscaling)" },
	{ STR_("timezone", TZONE_NAME_MAX), .dflt = "\"UTC\"", .desc = "the IANA time zone (tz database, with "
	  "daylight saving) whose wall clock the diurnal profile, weekly factors, autoscaling.schedule cron "
	  "and slo.window's windows follow; billing hours and serving_hours stay UTC (models/README.md, \"Local "
	  "time\")" },
	END };
/* the loader: slo is required with a workload (scenario_slo.c) and refused without one (scenario_jobs.c) */
static const char *const top_depends[] = { "workload", "slo", "slo", "workload", NULL };

const struct scenario_schema_map scenario_schema_root = { "(top level)", &scenario_load_top_keys,
	.entries = top_entries, .depends = top_depends };
