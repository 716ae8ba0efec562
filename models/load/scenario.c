/*
 * scenario: the loader's orchestrator (see scenario.h, and scenario_load.h for the family's layers): it
 * reads the top level, serving and autoscaling's own keys, and calls the section readers in order.
 *
 * yamldoc.c parses the YAML and reads single values with positioned messages; the section readers know
 * which keys exist, what each may hold, what it defaults to, and how the keys constrain one another
 * (scenario_load.h says which part reads what); they call the small readers of scenario_read.c, never this
 * file. The load is built
 * in a struct load and copied to the caller's struct only when every step has succeeded; on failure
 * everything it gathered (traces, warnings) is freed.
 *
 * Reading order follows the dependencies, not the file: slo before the workload (slo.ttft_s needs a
 * token-based service, checked with the workload), the catalogue before serving (prices and GPUs come
 * from the instance type), autoscaling before the fleet (an on_demand entry's max defaults to
 * autoscaling.max under target tracking), the fleet before allocation (a mixed strategy needs a spot
 * entry), the fleet before the jobs (a job must fit in one entry), and autoscaling's defaults and
 * cross-checks last (its min and max default to fleet totals).
 */
#include "scenario.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "scenario_load.h"
#include "status.h"
#include "textfile.h"
#include "yamldoc.h"

/*
 * The format's defaults and limits, in one place. Limits are sanity bounds that catch typos (a rate of
 * 1e30, a horizon of 100000 days), not modelling assumptions.
 */
#define DEFAULT_SEED 1
#define DEFAULT_START_UNIX_US INT64_C(1767225600000000)   /* 2026-01-01T00:00:00Z */
#define DEFAULT_SAMPLE_PERIOD_US (60 * S_US)
#define MAX_HORIZON_US (400 * DAY_US)
#define DEFAULT_SLOTS 1
#define MAX_QUEUE_TIMEOUT_US DAY_US
#define DEFAULT_STARTUP_US (420 * S_US)            /* launch to ready: an assumption inside the 258-525 s
                                                      SageMaker scale-out range
                                                      (SOURCES.md [delay-startup-default]) */
#define MAX_STARTUP_US DAY_US
#define DEFAULT_MAX_QUEUE 1000000
#define MAX_MAX_QUEUE 100000000
#define MAX_TARGET_INVOCATIONS 1e9
#define DEFAULT_RESOLUTION_US (60 * S_US)
#define MAX_RESOLUTION_US (3600 * S_US)
#define DEFAULT_COOLDOWN_US (300 * S_US)           /* the AWS default (SOURCES.md [aas-cooldown-default]) */
#define MAX_COOLDOWN_US DAY_US
#define DEFAULT_SCALE_IN_MARGIN 0.10               /* SOURCES.md [tt-scale-in-margin] */
#define MAX_FILE_BYTES (16 << 20)                   /* a scenario is a few kB; refuse anything absurd */

static const char *const top_keys[] = { "name", "seed", "start", "horizon", "sample_period", "warmup", "slo",
	"workload", "serving", "fleet", "commitments", "autoscaling", "quotas", "launch_retry", "allocation", "catalog",
	"jobs", "mode", "fluid", "zones", "provider", "models", "region", "prices", "timezone", NULL };
static const char *const serving_keys[] = { "instance_type", "slots_per_instance", "queue_timeout_s",
	"startup_s", "max_queue", "on_interrupt", "endpoint", "copies", "types", "kv_cache_tokens", "kv_cache",
	"prefix_cache_blocks", "routing", "queue", "prefix_threshold", "partitions", "multi_model", NULL };
static const char *const autoscaling_keys[] = { "policy", "metric", "target", "min", "max",
	"resolution_s", "scale_out_cooldown_s", "scale_in_cooldown_s", "scale_in_margin", "adjustment_type",
	"min_adjustment_magnitude", "scale_out", "scale_in", "tolerance", "stabilization_window_s",
	"scale_up_percent", "scale_up_pods", "schedule",
	"scale_out_datapoints", "scale_in_datapoints", "also", /* target tracking's alarms, more policies */
	"scale_from_zero", "capacity_unit",
	"forecast", "lead_s", "alpha", "beta", "gamma", /* predictive */
	"metric_delay_s", /* scenario_gpumetric.c */
	NULL };
static const char *const also_keys[] = { "metric", "target", NULL };  /* each of autoscaling.also */

static const char *const interrupt_names[] = { "requeue", "drop" };
static const char *const endpoint_names[] = { "realtime", "async" };

#define EMPTY_MSG "empty file; expected a YAML mapping with at least name, horizon, slo, workload, serving, " \
		  "fleet"

static const struct yamldoc_bounds fraction_bounds = { 0, 1, false, true };     /* [0, 1) */
static const struct yamldoc_bounds concurrency_target = { 0, 1, true, false };  /* (0, 1] */
static const struct yamldoc_bounds invocations_target = { 0, MAX_TARGET_INVOCATIONS, true, false };
/* GPU metrics: percent summed over GPUs; the loader narrows it to the type's GPUs (scenario_gpumetric.c) */
static const struct yamldoc_bounds gpu_target = { 0, 100.0 * MAX_GPUS, true, false };

/* The bounds of a target on metric m. */
static const struct yamldoc_bounds *target_bounds(int m)
{
	return m == METRIC_CONCURRENCY ? &concurrency_target : m >= METRIC_GPU_UTIL ? &gpu_target :
	       &invocations_target;
}

/* ---- top level -------------------------------------------------------------------------- */

static int read_head(struct load *l)
{
	struct yamldoc_ref r;
	int64_t seed = DEFAULT_SEED;
	int rc;

	if ((rc = scenario_load_required(l, &l->root, "name", "a non-empty string naming the scenario",
					 &r)) ||
	    (rc = yamldoc_string(&l->y, &r, l->sc.name, sizeof l->sc.name)))
		return rc;
	yamldoc_child(&l->root, "seed", &r);
	if ((rc = yamldoc_int(&l->y, &r, 0, INT64_MAX, &seed)))
		return rc;
	l->sc.seed = (uint64_t)seed;
	l->sc.start_unix_us = DEFAULT_START_UNIX_US;
	yamldoc_child(&l->root, "start", &r);
	if ((rc = scenario_load_time(l, &r, &l->sc.start_unix_us)))
		return rc;
	if ((rc = scenario_load_required(l, &l->root, "horizon", "the simulated length, a duration such as "
					 "7d", &r)) ||
	    (rc = scenario_load_duration(l, &r, 0, true, MAX_HORIZON_US, &l->sc.horizon_us)))
		return rc;
	l->sc.sample_period_us = DEFAULT_SAMPLE_PERIOD_US;
	yamldoc_child(&l->root, "sample_period", &r);
	if ((rc = scenario_load_duration(l, &r, S_US, false, MAX_HORIZON_US, &l->sc.sample_period_us)))
		return rc;
	if (l->sc.sample_period_us > l->sc.horizon_us)
		return yamldoc_fail(&l->y, r.node ? &r : &l->root, "the sample period (%g s) is longer "
					  "than the horizon (%g s); expected sample_period <= horizon",
					  (double)l->sc.sample_period_us / 1e6, (double)l->sc.horizon_us / 1e6);
	yamldoc_child(&l->root, "warmup", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, MAX_HORIZON_US, &l->sc.warmup_us)))
		return rc;
	if (r.node && l->sc.warmup_us >= l->sc.horizon_us)
		return yamldoc_fail(&l->y, &r, "the warm-up (%g s) is not shorter than the horizon (%g s); "
					  "expected warmup < horizon, so that something is measured",
					  (double)l->sc.warmup_us / 1e6, (double)l->sc.horizon_us / 1e6);
	return STATUS_OK;
}

/* ---- serving and the provider ---------------------------------------------------------------------- */

/* The scenario's `region`: a label for the bill (a non-empty string); absent, the provider's default. */
static int read_region(struct load *l)
{
	struct yamldoc_ref r;

	yamldoc_child(&l->root, "region", &r);
	if (!r.node) {
		snprintf(l->sc.region, sizeof l->sc.region, "%s", provider_default_region(l->sc.provider));
		return STATUS_OK;
	}
	return yamldoc_string(&l->y, &r, l->sc.region, sizeof l->sc.region);
}

/*
 * The scenario's `provider` (aws | gcp | azure). Absent: the serving type's (a catalogue row's, a catalog:
 * entry's `provider`, else aws). Present: a built-in type or a catalog: entry that names its provider must
 * be that provider's (a mismatch is an error at the instance type); a new type without one takes it.
 */
static int read_provider(struct load *l, const struct yamldoc_ref *it)
{
	const char *type = l->sc.serving.instance_type;
	bool fixed = catalog_find(type) != NULL || l->type.provider_given;
	struct yamldoc_ref r;
	char where[128];
	int p = (int)l->type.provider, rc;

	yamldoc_child(&l->root, "provider", &r);
	if ((rc = yamldoc_choice(&l->y, &r, provider_names, PROVIDER_COUNT, &p)))
		return rc;
	l->sc.provider = (enum provider)p;
	if ((rc = read_region(l)))
		return rc;
	if (!r.node || !fixed || p == (int)l->type.provider)
		return STATUS_OK;
	return yamldoc_fail(&l->y, it, "%s is %s %s instance type, but the scenario's provider is %s "
				  "(%s); expected an instance type of %s, or provider: %s",
				  type, provider_article(l->type.provider), provider_name(l->type.provider),
				  provider_name(l->sc.provider),
				  yamldoc_where_text(&r, where, sizeof where), provider_name(l->sc.provider),
				  provider_name(l->type.provider));
}

static int read_serving(struct load *l)
{
	struct yamldoc_ref serving, r;
	int on_interrupt = INTERRUPT_REQUEUE, endpoint = ENDPOINT_REALTIME, rc;

	if ((rc = scenario_load_required(l, &l->root, "serving", "a mapping with at least instance_type",
					 &serving)) ||
	    (rc = yamldoc_mapping(&l->y, &serving, serving_keys, NULL, NULL)) ||
	    (rc = scenario_load_required(l, &serving, "instance_type", "an instance type such as p5.48xlarge",
					 &r)) ||
	    (rc = yamldoc_string(&l->y, &r, l->sc.serving.instance_type,
				       sizeof l->sc.serving.instance_type)) ||
	    (rc = scenario_load_type(l, &r, l->sc.serving.instance_type, &l->type)) || (rc = read_provider(l, &r)))
		return rc;
	scenario_load_serve_type(l);
	l->sc.serving.slots = DEFAULT_SLOTS;
	l->sc.serving.queue_timeout_us = 0;
	l->sc.serving.startup_us = DEFAULT_STARTUP_US;
	l->sc.serving.max_queue = DEFAULT_MAX_QUEUE;
	yamldoc_child(&serving, "slots_per_instance", &r);
	if ((rc = scenario_load_int(l, &r, 1, MAX_SLOTS, &l->sc.serving.slots)))
		return rc;
	yamldoc_child(&serving, "queue_timeout_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, MAX_QUEUE_TIMEOUT_US,
					 &l->sc.serving.queue_timeout_us)))
		return rc;
	yamldoc_child(&serving, "startup_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, MAX_STARTUP_US, &l->sc.serving.startup_us)))
		return rc;
	yamldoc_child(&serving, "max_queue", &r);
	if ((rc = scenario_load_int(l, &r, 0, MAX_MAX_QUEUE, &l->sc.serving.max_queue)))
		return rc;
	yamldoc_child(&serving, "on_interrupt", &r);
	if ((rc = yamldoc_choice(&l->y, &r, interrupt_names, 2, &on_interrupt)))
		return rc;
	l->sc.serving.on_interrupt = (enum interrupt_kind)on_interrupt;
	yamldoc_child(&serving, "endpoint", &r);
	if ((rc = yamldoc_choice(&l->y, &r, endpoint_names, 2, &endpoint)))
		return rc;
	l->sc.serving.endpoint = (enum endpoint_kind)endpoint;
	if ((rc = scenario_load_copies(l, &serving)) || (rc = scenario_load_types(l, &serving)) ||
	    (rc = scenario_load_prices_unused(l)))
		return rc;
	if ((rc = scenario_load_kv(l, &serving)))
		return rc;
	return scenario_load_prefix(l, &serving);
}

/* ---- autoscaling -------------------------------------------------------------------------------- */

/* Read autoscaling's own keys; min and max defaults wait for the fleet (scenario_load_finish). */
static int read_autoscaling(struct load *l)
{
	struct yamldoc_ref *as = &l->autoscaling, r;
	int policy = POLICY_NONE, metric = METRIC_CONCURRENCY, rc;

	yamldoc_child(&l->root, "autoscaling", as);
	if ((rc = yamldoc_mapping(&l->y, as, autoscaling_keys, NULL, NULL)))
		return rc;
	yamldoc_child(as, "policy", &r);
	if ((rc = yamldoc_choice(&l->y, &r, scenario_policy_names, 5, &policy)))
		return rc;
	yamldoc_child(as, "metric", &r);
	if ((rc = yamldoc_choice(&l->y, &r, scenario_metric_names, METRIC_KINDS, &metric)))
		return rc;
	l->sc.autoscaling.policy = (enum policy_kind)policy;
	l->sc.autoscaling.metric = (enum metric_kind)metric;
	yamldoc_child(as, "target", &r);
	if (!r.node && (policy == POLICY_TARGET_TRACKING || policy == POLICY_HPA))
		return yamldoc_missing(&l->y, as, "target", "the metric value to hold, such as 0.7");
	if ((rc = yamldoc_number(&l->y, &r, target_bounds(metric), &l->sc.autoscaling.target)))
		return rc;
	yamldoc_child(as, "min", &r);
	l->min_given = r.node != NULL;
	if ((rc = scenario_load_int(l, &r, 0, MAX_INSTANCES, &l->sc.autoscaling.min)))
		return rc;
	yamldoc_child(as, "max", &r);
	l->max_given = r.node != NULL;
	if ((rc = scenario_load_int(l, &r, 0, MAX_INSTANCES, &l->sc.autoscaling.max)))
		return rc;
	return STATUS_OK;
}

/*
 * Target tracking's alarms: the policy acts when the last N datapoints (one per resolution_s) all breach.
 * AWS does not publish the alarms it creates; the defaults, 3 for scale-out and 15 for scale-in, are the
 * commonly cited ones (SOURCES.md [tt-alarms]): an assumption, to override.
 */
static int read_tt_datapoints(struct load *l)
{
	const char *keys[2] = { "scale_out_datapoints", "scale_in_datapoints" };
	int *out[2] = { &l->sc.autoscaling.scale_out_datapoints, &l->sc.autoscaling.scale_in_datapoints };
	struct yamldoc_ref r;
	int rc;

	l->sc.autoscaling.scale_out_datapoints = 3;
	l->sc.autoscaling.scale_in_datapoints = 15;
	for (int i = 0; i < 2; i++) {
		yamldoc_child(&l->autoscaling, keys[i], &r);
		if (r.node && l->sc.autoscaling.policy != POLICY_TARGET_TRACKING)
			return yamldoc_fail(&l->y, &r, "%s applies only to policy target_tracking; expected no %s",
						  keys[i], keys[i]);
		if ((rc = scenario_load_int(l, &r, 1, 100, out[i])))
			return rc;
	}
	return STATUS_OK;
}

/*
 * `autoscaling.also`: up to two more target-tracking policies on other metrics, sharing min, max, the
 * cooldowns and the alarms' datapoints: [{metric: invocations_per_instance, target: 70}].
 */
static int read_also(struct load *l)
{
	const char *const *keys = also_keys;
	struct yamldoc_ref list, e, r;
	int n, rc, metric;

	yamldoc_child(&l->autoscaling, "also", &list);
	if (!list.node)
		return STATUS_OK;
	if (l->sc.autoscaling.policy != POLICY_TARGET_TRACKING)
		return yamldoc_fail(&l->y, &list, "also applies only to policy target_tracking; expected no also");
	if ((rc = yamldoc_list(&l->y, &list, 1, 2, "policies such as '- {metric: invocations_per_instance, "
				     "target: 70}'", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_item(&list, &walk, &e);
		if ((rc = yamldoc_mapping(&l->y, &e, keys, NULL, NULL)) ||
		    (rc = scenario_load_required(l, &e, "metric", "the policy's metric", &r)) ||
		    (rc = yamldoc_choice(&l->y, &r, scenario_metric_names, METRIC_KINDS, &metric)))
			return rc;
		for (int k = -1; k < i; k++)
			if ((enum metric_kind)metric == (k < 0 ? l->sc.autoscaling.metric : l->sc.autoscaling.also[k].metric))
				return yamldoc_fail(&l->y, &r, "a policy on this metric already exists; expected "
							  "another metric");
		l->sc.autoscaling.also[i].metric = (enum metric_kind)metric;
		if ((rc = scenario_load_required(l, &e, "target", "the metric value to hold", &r)) ||
		    (rc = yamldoc_number(&l->y, &r, target_bounds(metric), &l->sc.autoscaling.also[i].target)))
			return rc;
	}
	l->sc.autoscaling.nalso = n;
	return STATUS_OK;
}

/* The timing keys of autoscaling. */
static int read_autoscaling_timing(struct load *l)
{
	struct yamldoc_ref *as = &l->autoscaling, r;
	int rc;

	/* the HPA's control loop runs every 15 s by default (SOURCES.md [hpa-sync-period]) */
	l->sc.autoscaling.resolution_us = l->sc.autoscaling.policy == POLICY_HPA ? 15 * S_US : DEFAULT_RESOLUTION_US;
	l->sc.autoscaling.scale_out_cooldown_us = DEFAULT_COOLDOWN_US;
	l->sc.autoscaling.scale_in_cooldown_us = DEFAULT_COOLDOWN_US;
	l->sc.autoscaling.scale_in_margin = DEFAULT_SCALE_IN_MARGIN;
	yamldoc_child(as, "resolution_s", &r);
	if ((rc = scenario_load_duration(l, &r, S_US, false, MAX_RESOLUTION_US,
					 &l->sc.autoscaling.resolution_us)))
		return rc;
	yamldoc_child(as, "scale_out_cooldown_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, MAX_COOLDOWN_US,
					 &l->sc.autoscaling.scale_out_cooldown_us)))
		return rc;
	yamldoc_child(as, "scale_in_cooldown_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, MAX_COOLDOWN_US,
					 &l->sc.autoscaling.scale_in_cooldown_us)))
		return rc;
	yamldoc_child(as, "scale_in_margin", &r);
	if ((rc = yamldoc_number(&l->y, &r, &fraction_bounds, &l->sc.autoscaling.scale_in_margin)))
		return rc;
	if ((rc = read_tt_datapoints(l)) || (rc = read_also(l)))
		return rc;
	yamldoc_child(as, "scale_from_zero", &r);
	if (!r.node)
		return STATUS_OK;
	if (l->sc.autoscaling.policy == POLICY_NONE)
		return yamldoc_fail(&l->y, &r, "scale_from_zero needs a scaling policy; expected no "
					  "scale_from_zero with policy none");
	int flag = 0;
	static const char *const flags[] = { "false", "true" };
	if ((rc = yamldoc_choice(&l->y, &r, flags, 2, &flag)))
		return rc;
	l->sc.autoscaling.scale_from_zero = flag == 1;
	return STATUS_OK;
}

/* ---- loading ------------------------------------------------------------------------------------ */

/* Read the whole document into l->sc. */
static int read_all(struct load *l, const char *const *sets, int nsets)
{
	int rc;

	yamldoc_root(&l->y, &l->root);
	if (!l->root.node)
		return diag_at(l->y.d, STATUS_EINPUT, l->y.label, 0, 0, EMPTY_MSG);
	if ((rc = yamldoc_mapping(&l->y, &l->root, NULL, "a YAML mapping with at least name, horizon, "
					"slo, workload, serving, fleet", NULL)) ||
	    (rc = yamldoc_apply_sets(&l->y, sets, nsets, "catalog")) ||
	    (rc = yamldoc_mapping(&l->y, &l->root, top_keys, NULL, NULL)))
		return rc;
	/* a jobs-only scenario (scenario_load_traffic) has neither slo nor workload */
	if ((rc = read_head(l)) || (rc = scenario_load_traffic(l)) ||
	    (!l->sc.no_traffic && ((rc = scenario_load_models(l)) ||
				   (!l->sc.nmodels && ((rc = scenario_load_slo(l)) || (rc = scenario_load_workload(l)))))) ||
	    (rc = read_serving(l)) || (rc = read_autoscaling(l)) || (rc = read_autoscaling_timing(l)) ||
	    (rc = scenario_load_capacity_unit(l)) ||
	    (rc = scenario_load_step(l)) || (rc = scenario_load_hpa(l)) || (rc = scenario_load_predictive(l)) ||
	    (rc = scenario_load_schedule(l)) ||
	    (rc = scenario_load_zones(l)) || (rc = scenario_load_fleet(l)) || (rc = scenario_load_commitments(l)) ||
	    (rc = scenario_load_limits(l)) || (rc = scenario_load_jobs(l)) ||
	    (rc = scenario_load_finish(l)) || (rc = scenario_load_timezone(l)))
		return rc;
	if ((rc = scenario_load_mode(l)))
		return rc;
	if ((rc = scenario_load_gpumetric(l)))
		return rc;
	if ((rc = scenario_load_partitions(l)))
		return rc;

	return scenario_load_mme(l);
}

/* A copy of len bytes of text, NUL-terminated; NULL when out of memory. */
static char *copy_text(const char *text, size_t len)
{
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, text, len);
		s[len] = '\0';
	}
	return s;
}

/* The overrides joined by newlines ("" for none); NULL when out of memory. */
static char *join_sets(const char *const *sets, int nsets)
{
	size_t len = 0, o = 0;
	char *s;

	for (int i = 0; i < nsets; i++)
		len += strlen(sets[i]) + 1;
	s = malloc(len + 1);
	if (!s)
		return NULL;
	for (int i = 0; i < nsets; i++)
		o += (size_t)sprintf(s + o, "%s%s", i ? "\n" : "", sets[i]);
	s[o] = '\0';
	return s;
}

/* Parse len bytes of text, named `label` in messages; `path` (may be NULL) is recorded in the result. */
static int parse(struct scenario *out, const char *text, size_t len, const char *label, const char *path,
		 const char *const *sets, int nsets, struct diag *d)
{
	struct load *l = calloc(1, sizeof *l);
	int rc;

	if (!l)
		return diag_at(d, STATUS_ENOMEM, label, 0, 0, "out of memory while reading the scenario");
	l->path = path;
	rc = yamldoc_open(&l->y, text, len, label, d);  /* checks UTF-8 and NUL bytes first */
	if (rc == STATUS_OK)
		rc = read_all(l, sets, nsets);
	scenario_load_prices_fini(l);
	yamldoc_close(&l->y);
	if (rc != STATUS_OK)
		goto out_fini_scenario;
	l->sc.text = copy_text(text, len);
	l->sc.overrides = join_sets(sets, nsets);
	l->sc.path = path ? copy_text(path, strlen(path)) : NULL;
	if (!l->sc.warnings)
		l->sc.warnings = copy_text("", 0);
	if (!l->sc.text || !l->sc.overrides || (path && !l->sc.path) || !l->sc.warnings) {
		rc = diag_at(d, STATUS_ENOMEM, label, 0, 0, "out of memory while reading the scenario");
		goto out_fini_scenario;
	}
	*out = l->sc;
	free(l);
	return STATUS_OK;
out_fini_scenario:
	scenario_fini(&l->sc);  /* the traces and warnings read so far */
	free(l);
	return rc;
}

int scenario_load(struct scenario *sc, const char *path, const char *const *sets, int nsets,
		  struct diag *d)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	memset(sc, 0, sizeof *sc);
	diag_clear(d);
	rc = textfile_read(path, MAX_FILE_BYTES, "a scenario file", &text, &len, d);
	if (rc != STATUS_OK)
		return rc;
	rc = parse(sc, text, len, path, path, sets, nsets, d);
	free(text);
	return rc;
}

int scenario_parse_string(struct scenario *sc, const char *text, const char *label,
			  const char *const *sets, int nsets, struct diag *d)
{
	memset(sc, 0, sizeof *sc);
	diag_clear(d);
	return parse(sc, text, strlen(text), label, NULL, sets, nsets, d);
}

void scenario_fini(struct scenario *sc)
{
	if (!sc)
		return;
	free(sc->path);
	free(sc->text);
	free(sc->overrides);
	free(sc->inputs.path);
	free(sc->warnings);
	free(sc->jobs.list);
	for (int i = 0; sc->models && i < sc->nmodels; i++)
		free(sc->models[i].blocks);
	free(sc->models);
	free(sc->mme.models);
	for (int i = 0; i < SCENARIO_FLEET_MAX; i++) {  /* all: a failed load may stop inside the list */
		pricetrace_fini(&sc->fleet[i].prices);
		availtrace_fini(&sc->fleet[i].avail);
	}
	memset(sc, 0, sizeof *sc);
}

/* ---- tables shared with the schema (scenario_load.h) --------------------------------------------- */

const struct scenario_load_names scenario_load_top_keys = SCENARIO_LOAD_KEYS(top_keys);
const struct scenario_load_names scenario_load_serving_keys = SCENARIO_LOAD_KEYS(serving_keys);
const struct scenario_load_names scenario_load_autoscaling_keys = SCENARIO_LOAD_KEYS(autoscaling_keys);
const struct scenario_load_names scenario_load_provider_names = { provider_names, PROVIDER_COUNT };
const struct scenario_load_names scenario_load_also_keys = SCENARIO_LOAD_KEYS(also_keys);
const struct scenario_load_names scenario_load_policy_names = SCENARIO_LOAD_NAMES(scenario_policy_names);
const struct scenario_load_names scenario_load_metric_names = SCENARIO_LOAD_NAMES(scenario_metric_names);
const struct scenario_load_names scenario_load_interrupt_names = SCENARIO_LOAD_NAMES(interrupt_names);
const struct scenario_load_names scenario_load_endpoint_names = SCENARIO_LOAD_NAMES(endpoint_names);
const struct yamldoc_bounds *const scenario_load_concurrency_target = &concurrency_target;
const struct yamldoc_bounds *const scenario_load_invocations_target = &invocations_target;
const struct yamldoc_bounds *const scenario_load_gpu_target = &gpu_target;
