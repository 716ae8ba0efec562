/*
 * scenario_gpumetric: the keys of the GPU metrics (models/README.md, "GPU metrics"; gpumetric.h, metriclag.h).
 *
 *  - autoscaling.metric (and autoscaling.also's) gpu_utilization or gpu_memory_utilization: the target is in
 *    percent summed over an instance's GPUs, (0, 100 x GPUs] (the most GPUs of a serving type); with copies
 *    the metric is per copy and normalised, (0, 100] (SOURCES.md [sm-gpu-metrics]). The period,
 *    autoscaling.resolution_s, must be one SageMaker can publish at: 10, 30, 60, 120, 180, 240 or 300 s
 *    (SOURCES.md [sm-metric-publish-frequency]). Not in fluid mode, which has no requests on instances.
 *  - gpu_memory_utilization needs the memory model of serving.kv_cache (gpu_memory_gb, model_gb,
 *    bytes_per_token) and no copies.
 *  - serving.kv_cache.preallocate: true (default, vLLM's behaviour) or false.
 *  - autoscaling.metric_delay_s: a whole number of periods, at most 1 h, default 0; not with policy none
 *    (SOURCES.md [cw-metric-delay]).
 */
#include "scenario_load.h"
#include "status.h"

static const int64_t publish_s[] = { 10, 30, 60, 120, 180, 240, 300 };

static bool is_gpu(enum metric_kind m)
{
	return m == METRIC_GPU_UTIL || m == METRIC_GPU_MEM;
}

/* The metric and target of policy i (-1: autoscaling's own, else autoscaling.also[i]) into *metric, *target. */
static void policy_refs(struct load *l, int i, struct yamldoc_ref *metric, struct yamldoc_ref *target)
{
	struct yamldoc_ref list, e;

	if (i < 0) {
		yamldoc_child(&l->autoscaling, "metric", metric);
		yamldoc_child(&l->autoscaling, "target", target);
		return;
	}
	yamldoc_child(&l->autoscaling, "also", &list);
	yamldoc_item(&list, i, &e);
	yamldoc_child(&e, "metric", metric);
	yamldoc_child(&e, "target", target);
}

/* One policy on GPU metric m with target `target`, written at mr and tr. */
static int check_policy(struct load *l, enum metric_kind m, double target, const struct yamldoc_ref *mr,
			const struct yamldoc_ref *tr)
{
	const struct scenario *sc = &l->sc;
	int gpus = 0;
	double hi;

	if (sc->mode == MODE_FLUID)
		return yamldoc_fail(&l->y, mr, "GPU metrics come from requests running on instances, which "
					  "fluid mode does not model; expected mode: requests, or another metric");
	if (m == METRIC_GPU_MEM && sc->copies.enabled)
		return yamldoc_fail(&l->y, mr, "gpu_memory_utilization is not modelled per model copy; "
					  "expected no serving.copies, or another metric");
	if (m == METRIC_GPU_MEM && sc->serving.kv_gpu_memory_gb <= 0)
		return yamldoc_fail(&l->y, mr, "gpu_memory_utilization needs the KV-cache memory model; "
					  "expected serving.kv_cache {gpu_memory_gb, model_gb, bytes_per_token}, or "
					  "another metric");
	for (int i = 0; i < sc->ntypes; i++)
		if (sc->types[i].gpus > gpus)
			gpus = sc->types[i].gpus;
	hi = sc->copies.enabled ? 100.0 : 100.0 * gpus;
	if (target > hi)
		return yamldoc_fail(&l->y, tr, "%s is in percent %s; expected a target in (0, %g], got %g",
					  scenario_metric_name(m), sc->copies.enabled ? "per model copy (0-100)" :
					  "summed over an instance's GPUs (0-100 x GPUs)", hi, target);
	return STATUS_OK;
}

/* The period must be one SageMaker publishes at. */
static int check_period(struct load *l, const struct yamldoc_ref *mr)
{
	struct yamldoc_ref r;
	int64_t us = l->sc.autoscaling.resolution_us;

	for (size_t i = 0; i < sizeof publish_s / sizeof publish_s[0]; i++)
		if (us == publish_s[i] * S_US)
			return STATUS_OK;
	yamldoc_child(&l->autoscaling, "resolution_s", &r);
	return yamldoc_fail(&l->y, r.node ? &r : mr, "a GPU metric is published every 10, 30, 60, 120, "
				  "180, 240 or 300 s (MetricPublishFrequencyInSeconds); expected resolution_s one of "
				  "them, got %gs", (double)us / S_US);
}

static int read_delay(struct load *l)
{
	struct yamldoc_ref r;
	int64_t period = l->sc.autoscaling.resolution_us;
	int rc;

	l->sc.autoscaling.metric_delay_us = 0;
	yamldoc_child(&l->autoscaling, "metric_delay_s", &r);
	if (!r.node)
		return STATUS_OK;
	if (l->sc.autoscaling.policy == POLICY_NONE)
		return yamldoc_fail(&l->y, &r, "metric_delay_s delays what a policy sees; expected no "
					  "metric_delay_s with policy none");
	if ((rc = scenario_load_duration(l, &r, 0, false, SCENARIO_MAX_METRIC_DELAY_US,
					 &l->sc.autoscaling.metric_delay_us)))
		return rc;
	if (l->sc.autoscaling.metric_delay_us % period != 0)
		return yamldoc_fail(&l->y, &r, "a metric is published once a period; expected "
					  "metric_delay_s a whole number of periods (resolution_s %gs), got %gs",
					  (double)period / S_US, (double)l->sc.autoscaling.metric_delay_us / S_US);
	return STATUS_OK;
}

int scenario_load_gpumetric(struct load *l)
{
	static const char *const flags[] = { "false", "true" };
	struct yamldoc_ref serving, kv, r, mr, tr;
	int flag = 1, rc;
	bool gpu = false;

	yamldoc_child(&l->root, "serving", &serving);
	yamldoc_child(&serving, "kv_cache", &kv);
	yamldoc_child(&kv, "preallocate", &r);
	if ((rc = yamldoc_choice(&l->y, &r, flags, 2, &flag)))
		return rc;
	l->sc.serving.kv_preallocate = flag == 1;
	if ((rc = read_delay(l)))
		return rc;
	if (l->sc.autoscaling.policy == POLICY_NONE)
		return STATUS_OK;
	for (int i = -1; i < l->sc.autoscaling.nalso; i++) {
		enum metric_kind m = i < 0 ? l->sc.autoscaling.metric : l->sc.autoscaling.also[i].metric;
		double target = i < 0 ? l->sc.autoscaling.target : l->sc.autoscaling.also[i].target;
		if (!is_gpu(m))
			continue;
		policy_refs(l, i, &mr, &tr);
		if ((rc = check_policy(l, m, target, &mr, tr.node ? &tr : &mr)))
			return rc;
		gpu = true;
	}
	return gpu ? check_period(l, &mr) : STATUS_OK;
}
