/*
 * meter_tokens: the serving model's per-token metrics (see meter.h): time per output token (TPOT) of the
 * served requests, its SLO, and the KV-cache and prefix-cache results serving hands over at the end. They are reported only
 * in runs that use the serving model's newer keys (batching continuous, a KV cache, slo.tpot_s), so that
 * every other run's results stay as they were. Also a multi-model endpoint's results (mme.h), only in runs
 * that have one.
 */
#include "meter.h"

#include <math.h>
#include <stdio.h>

#include "engine.h"

void meter_set_tokens(struct meter *m, int64_t tpot_us, bool kv)
{
	m->tokens_used = true;
	m->slo_tpot_us = tpot_us;
	m->kv_used = kv;
	m->kv_utilization = NAN;
	m->kv_limited_share = NAN;
}

/* SOURCES.md [sv-tpot] */
void meter_tpot(struct meter *m, int64_t arrival_us, int64_t tpot_us)
{
	if (arrival_us < m->warmup_us)
		return;
	hist_add(&m->tpot, (double)tpot_us / SIM_US_PER_S);
	if (m->slo.window_us > 0)  /* the window meter_served entered for the same request */
		hist_add(&m->win_tpot, (double)tpot_us / SIM_US_PER_S);
	if (m->slo_tpot_us > 0 && tpot_us > m->slo_tpot_us)
		m->tpot_violations++;
}

void meter_set_kv(struct meter *m, double utilization, double limited_share, uint64_t too_large)
{
	m->kv_utilization = utilization;
	m->kv_limited_share = limited_share;
	m->kv_too_large = too_large;
}

void meter_set_prefix_used(struct meter *m)
{
	m->prefix_used = true;
	m->prefix_hit_rate = NAN;
}

void meter_set_prefix(struct meter *m, double hit_rate, uint64_t saved)
{
	m->prefix_hit_rate = hit_rate;
	m->prefix_saved = saved;
}

void meter_set_mme(struct meter *m, const struct meter_mme *mme)
{
	m->mme = *mme;
}

/* SOURCES.md [mme-metrics]: AWS's ModelCacheHit, ModelLoadingWaitTime, LoadedModelCount, and the counts. */
static int report_mme(const struct meter *m, struct sink_metric *list, int n)
{
	if (!m->mme.used)
		return n;
	n = meter_put(list, n, "model_cache_hit_ratio", m->mme.hit_ratio);
	n = meter_put(list, n, "model_loading_wait_mean_s", m->mme.wait_mean_s);
	n = meter_put(list, n, "model_loading_wait_p99_s", m->mme.wait_p99_s);
	n = meter_put(list, n, "loaded_models_per_instance", m->mme.loaded_per_instance);
	n = meter_put(list, n, "model_loads", (double)m->mme.loads);
	return meter_put(list, n, "model_evictions", (double)m->mme.evictions);
}

int meter_report_tokens(const struct meter *m, struct sink_metric *list, int n)
{
	double total = (double)m->requests;

	n = report_mme(m, list, n);
	if (!m->tokens_used)
		return n;
	n = meter_put(list, n, "tpot_mean_s", hist_mean(&m->tpot));
	n = meter_put(list, n, "tpot_p50_s", hist_quantile(&m->tpot, 0.50));
	n = meter_put(list, n, "tpot_p90_s", hist_quantile(&m->tpot, 0.90));
	n = meter_put(list, n, "tpot_p99_s", hist_quantile(&m->tpot, 0.99));
	n = meter_put(list, n, "tpot_slo_violations", m->slo_tpot_us > 0 ? (double)m->tpot_violations : NAN);
	n = meter_put(list, n, "tpot_slo_violation_rate", m->slo_tpot_us > 0 && total > 0 ?
		(double)m->tpot_violations / total : NAN);
	if (m->prefix_used) {
		n = meter_put(list, n, "prefix_hit_rate", m->prefix_hit_rate);
		n = meter_put(list, n, "prefill_tokens_saved", (double)m->prefix_saved);
	}
	if (!m->kv_used)
		return n;
	n = meter_put(list, n, "kv_cache_utilization", m->kv_utilization);
	n = meter_put(list, n, "kv_cache_limited_share", m->kv_limited_share);
	n = meter_put(list, n, "requests_kv_too_large", (double)m->kv_too_large);
	return n;
}
