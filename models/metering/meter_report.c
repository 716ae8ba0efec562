/* meter_report: the run's metrics as the named list meter_report() hands to the sink (see meter.h). */
#include "meter.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"


/*
 * The floor of the stated latency percentile SLOs: for each, the share of measured requests whose service
 * time alone exceeds its threshold, over the share the percentile allows (1 - p); the largest of these.
 * Above 1, no capacity can meet that SLO over the run (its percentile of service times alone is already
 * over the threshold). NaN when no latency percentile SLO is stated or nothing was measured.
 */
static double pct_floor_ratio(const struct meter *m)
{
	double worst = NAN;

	for (int i = 0; i < METER_SLO_PCTS; i++) {
		double r;
		if (m->slo.latency_pct_us[i] <= 0 || m->requests == 0)
			continue;
		r = (double)m->floor_pct[i] / (double)m->requests / (1.0 - meter_slo_quantile[i]);
		if (isnan(worst) || r > worst)
			worst = r;
	}
	return worst;
}


static int put_kind(struct sink_metric *list, int n, const char *fmt, enum option_kind k, double value)
{
	char name[48];

	snprintf(name, sizeof name, fmt, option_kind_name(k));
	return meter_put(list, n, name, value);
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

/* Whether the percentile and violation-rate SLOs hold over the whole measured run (dropped requests count as
 * never answered). */
static bool run_slo_met(const struct meter *m)
{
	uint64_t dropped = m->timed_out + m->refused + m->unserved + m->interrupted_dropped;
	bool met = true;

	for (int i = 0; i < METER_SLO_PCTS; i++) {
		if (m->slo.latency_pct_us[i] > 0)
			met &= !(hist_quantile_above(&m->latency, meter_slo_quantile[i], dropped) >
				 (double)m->slo.latency_pct_us[i] / SIM_US_PER_S);
		if (m->slo.ttft_pct_us[i] > 0)
			met &= !(hist_quantile_above(&m->ttft, meter_slo_quantile[i], dropped) >
				 (double)m->slo.ttft_pct_us[i] / SIM_US_PER_S);
		if (m->slo.tpot_pct_us[i] > 0)
			met &= !(hist_quantile_above(&m->tpot, meter_slo_quantile[i], dropped) >
				 (double)m->slo.tpot_pct_us[i] / SIM_US_PER_S);
	}
	if (m->slo.max_violation_rate >= 0)
		met &= !((double)m->slo_violations > m->slo.max_violation_rate * (double)m->requests);
	return met;
}

/* The SLO verdict and the window metrics (models/README.md, "SLOs"). */
static int put_slo(const struct meter *m, struct sink_metric *list, int n)
{
	bool windows = m->slo.window_us > 0;
	double nwin = NAN;

	if (windows)
		nwin = meter_window_count(m);
	n = meter_put(list, n, "slo_met", m->slo_stated ? (run_slo_met(m) && m->windows_breached == 0) : NAN);
	n = meter_put(list, n, "slo_windows", nwin);
	n = meter_put(list, n, "slo_windows_breached", windows ? (double)m->windows_breached : NAN);
	n = meter_put(list, n, "slo_windows_breached_fraction", windows ? (double)m->windows_breached / nwin : NAN);
	n = meter_put(list, n, "slo_worst_window_start_s",
		windows && !isnan(m->worst_ratio) ? (double)m->worst_start_us / SIM_US_PER_S : NAN);
	n = meter_put(list, n, "slo_worst_window_ratio", windows ? m->worst_ratio : NAN);
	return n;
}

/* Busy GPU-hours of kind k: the slots serving requests, and the instances jobs held (whole instances). */
static double kind_busy_h(const struct meter *m, enum option_kind k, double gpu_per_slot_h)
{
	if (m->types.n > 1)  /* each busy slot weighed by its own type's GPUs per slot (meter_types.c) */
		return m->types.busy_gpu_us[k] / SIM_US_PER_H_D + m->job_held_us[k] * m->gpus / SIM_US_PER_H_D;
	return m->busy_slot_us[k] * gpu_per_slot_h + m->job_held_us[k] * m->gpus / SIM_US_PER_H_D;
}

/* Cost and GPU-hours of the measured window [warmup, horizon), and the cost normalised by its length. */
static int put_measured(const struct meter *m, double gpu_per_slot_h, struct sink_metric *list, int n)
{
	double cost = 0, paid = 0, busy = 0, measured_h = (double)(m->horizon_us - m->warmup_us) / SIM_US_PER_H_D;

	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		cost += m->cost_meas_usd[k];
		paid += m->paid_gpu_meas_us[k] / SIM_US_PER_H_D;
		busy += (m->types.n > 1 ? (m->types.busy_gpu_us[k] - m->types.busy_gpu_at_warmup[k]) / SIM_US_PER_H_D :
			 (m->busy_slot_us[k] - m->busy_slot_at_warmup[k]) * gpu_per_slot_h) +
			m->job_held_meas_us[k] * m->gpus / SIM_US_PER_H_D;
	}
	n = meter_put(list, n, "warmup_s", (double)m->warmup_us / SIM_US_PER_S);
	n = meter_put(list, n, "measured_s", (double)(m->horizon_us - m->warmup_us) / SIM_US_PER_S);
	n = meter_put(list, n, "cost_measured_usd", cost);
	n = meter_put(list, n, "gpu_hours_paid_measured", paid);
	n = meter_put(list, n, "gpu_hours_busy_measured", busy);
	n = meter_put(list, n, "gpu_hours_idle_measured", paid - busy);
	n = meter_put(list, n, "cost_per_hour_usd", cost / measured_h);
	n = meter_put(list, n, "cost_per_month_usd", cost / measured_h * 24 * 30);
	n = meter_put(list, n, "cost_per_year_usd", cost / measured_h * 24 * 365);
	return n;
}

/*
 * Little's law over the measured window [warmup, horizon) of length T (models/README.md, "Metrics"): L = (integral of
 * requests waiting + requests in service) / T, from the meter's integrals; lambda = measured arrivals / T;
 * W = the mean time in system of those arrivals (arrival to served or dropped, after the horizon too; 0 for
 * a refusal). |L - lambda W| / (lambda W): T cancels, leaving the integral against the summed times. The
 * two differ only at the window's edges (requests in the system at warmup or at the horizon), so a large
 * value means the integrals and the requests disagree. NaN when the measured requests spent no time at all
 * in the system (no traffic).
 */
static double littles_law_error(const struct meter *m)
{
	double in_system_us = m->queued_us - m->queued_at_warmup;

	for (int k = 0; k < OPTION_KIND_COUNT; k++)
		in_system_us += m->busy_slot_us[k] - m->busy_slot_at_warmup[k];
	return m->sojourn_us > 0 ? fabs(in_system_us - m->sojourn_us) / m->sojourn_us : NAN;
}

int meter_report(const struct meter *m, uint64_t sim_events, double wall_s, struct sink_metric *list)
{
	double total = (double)m->requests, cost = 0, paid = 0, busy = 0;
	/* a busy slot holds its share of an instance's GPUs, or with copies of a copy's */
	double gpu_per_slot_h = (double)(m->copy_gpus ? m->copy_gpus : m->gpus) / m->slots / SIM_US_PER_H_D;
	int n = 0;

	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		cost += m->cost_usd[k];
		paid += m->paid_gpu_us[k] / SIM_US_PER_H_D;
		busy += kind_busy_h(m, (enum option_kind)k, gpu_per_slot_h);
	}
	n = meter_put(list, n, "requests_total", total);
	n = meter_put(list, n, "requests_served", (double)m->served);
	n = meter_put(list, n, "requests_dropped",
		(double)(m->timed_out + m->refused + m->unserved + m->interrupted_dropped));
	n = meter_put(list, n, "requests_timed_out", (double)m->timed_out);
	n = meter_put(list, n, "requests_refused", (double)m->refused);
	n = meter_put(list, n, "requests_unserved", (double)m->unserved);
	n = meter_put(list, n, "requests_interrupted_dropped", (double)m->interrupted_dropped);
	n = meter_put(list, n, "slo_violations", (double)m->slo_violations);
	n = meter_put(list, n, "slo_violation_rate", ratio((double)m->slo_violations, total));
	n = meter_put(list, n, "latency_mean_s", hist_mean(&m->latency));
	n = meter_put(list, n, "latency_p50_s", hist_quantile(&m->latency, 0.50));
	n = meter_put(list, n, "latency_p90_s", hist_quantile(&m->latency, 0.90));
	n = meter_put(list, n, "latency_p95_s", hist_quantile(&m->latency, 0.95));
	n = meter_put(list, n, "latency_p99_s", hist_quantile(&m->latency, 0.99));
	n = meter_put(list, n, "latency_max_s", hist_max(&m->latency));
	n = meter_put(list, n, "wait_mean_s", hist_mean(&m->wait));
	n = meter_put(list, n, "wait_p99_s", hist_quantile(&m->wait, 0.99));
	n = meter_put(list, n, "waited_fraction", ratio((double)m->waited, total));
	n = meter_put(list, n, "ttft_mean_s", hist_mean(&m->ttft));
	n = meter_put(list, n, "ttft_p50_s", hist_quantile(&m->ttft, 0.50));
	n = meter_put(list, n, "ttft_p90_s", hist_quantile(&m->ttft, 0.90));
	n = meter_put(list, n, "ttft_p99_s", hist_quantile(&m->ttft, 0.99));
	n = meter_put(list, n, "ttft_slo_violations", m->slo_ttft_us > 0 ? (double)m->ttft_violations : NAN);
	n = meter_put(list, n, "ttft_slo_violation_rate", m->slo_ttft_us > 0 ? ratio((double)m->ttft_violations, total) : NAN);
	n = meter_put(list, n, "cost_total_usd", cost);
	for (int k = 0; k < OPTION_KIND_COUNT; k++)
		n = put_kind(list, n, "cost_%s_usd", (enum option_kind)k, m->cost_usd[k]);
	n = meter_put(list, n, "cost_per_1k_requests_usd", ratio(cost * 1000.0, (double)m->served));
	n = meter_put(list, n, "gpu_hours_paid", paid);
	n = meter_put(list, n, "gpu_hours_busy", busy);
	n = meter_put(list, n, "gpu_hours_idle", paid - busy);
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		double kpaid = m->paid_gpu_us[k] / SIM_US_PER_H_D, kbusy = kind_busy_h(m, (enum option_kind)k, gpu_per_slot_h);
		n = put_kind(list, n, "gpu_hours_paid_%s", (enum option_kind)k, kpaid);
		n = put_kind(list, n, "gpu_hours_busy_%s", (enum option_kind)k, kbusy);
		n = put_kind(list, n, "gpu_hours_idle_%s", (enum option_kind)k, kpaid - kbusy);
	}
	n = meter_put(list, n, "gpu_utilization", ratio(busy, paid));
	n = meter_put(list, n, "spot_interruptions", (double)m->spot_interruptions);
	n = meter_put(list, n, "block_terminations", (double)m->block_terminations);
	n = meter_put(list, n, "requests_interrupted", (double)m->requests_interrupted);
	n = meter_put(list, n, "launch_failures", (double)m->launch_failures);
	n = meter_report_tokens(m, list, n);
	if (m->dws_used) {  /* only then, so that other runs' results are as they were */
		n = meter_put(list, n, "dws_requests", (double)m->dws_requests);
		n = meter_put(list, n, "dws_requests_failed", (double)m->dws_failed);
		n = meter_put(list, n, "dws_wait_mean_s", ratio(m->dws_wait_us / SIM_US_PER_S, (double)m->dws_granted));
	}
	if (m->dealloc_used) {
		n = meter_put(list, n, "spot_deallocated", (double)m->spot_deallocated);
		n = meter_put(list, n, "spot_disk_usd", m->spot_disk_usd);
	}
	n = meter_put(list, n, "commitment_usd", m->committed_usd);
	n = meter_put(list, n, "commitment_unused_usd", m->committed_usd - m->commit_used_usd);
	n = meter_put(list, n, "commitment_utilization", ratio(m->commit_used_usd, m->committed_usd));
	n = meter_put(list, n, "commitment_coverage", ratio(m->covered_od_usd, m->eligible_od_usd));
	n = meter_put(list, n, "commitment_after_horizon_usd", m->after_horizon_usd);
	n = meter_put(list, n, "instances_peak", m->live_peak);
	n = meter_put(list, n, "launches", (double)m->launches);
	n = meter_put(list, n, "terminations", (double)m->terminations);
	n = meter_put(list, n, "scale_out_actions", (double)m->scale_outs);
	n = meter_put(list, n, "scale_in_actions", (double)m->scale_ins);
	n = meter_put(list, n, "time_under_provisioned_s", m->under_us / SIM_US_PER_S);
	n = meter_put(list, n, "time_over_provisioned_s", m->over_us / SIM_US_PER_S);
	n = meter_put(list, n, "copy_hours", m->copy_gpus ? m->service_copy_us / SIM_US_PER_H_D : NAN);
	n = meter_put(list, n, "copy_loads", m->copy_gpus ? (double)m->copy_loads : NAN);
	n = meter_put(list, n, "slo_violations_service", (double)m->slo_service);
	n = meter_put(list, n, "slo_violations_slowed", (double)m->slo_slowed);
	n = meter_put(list, n, "slo_violations_wait", (double)m->slo_wait);
	n = meter_put(list, n, "slo_violations_dropped",
		      (double)(m->slo_violations - m->slo_service - m->slo_slowed - m->slo_wait));
	n = meter_put(list, n, "slo_violation_rate_floor", ratio((double)m->floor_count, total));
	n = meter_put(list, n, "slo_percentile_floor_ratio", pct_floor_ratio(m));
	n = put_slo(m, list, n);
	n = put_measured(m, gpu_per_slot_h, list, n);
	n = put_kind(list, n, "commitment_after_horizon_%s_usd", OPTION_RESERVED,
		     m->after_horizon_kind_usd[OPTION_RESERVED]);
	n = put_kind(list, n, "commitment_after_horizon_%s_usd", OPTION_SAVINGS_PLAN,
		     m->after_horizon_kind_usd[OPTION_SAVINGS_PLAN]);
	n = put_kind(list, n, "commitment_after_horizon_%s_usd", OPTION_CAPACITY_BLOCK,
		     m->after_horizon_kind_usd[OPTION_CAPACITY_BLOCK]);
	n = put_kind(list, n, "commitment_after_horizon_%s_usd", OPTION_TRAINING_PLAN,
		     m->after_horizon_kind_usd[OPTION_TRAINING_PLAN]);
	n = meter_put(list, n, "littles_law_error", littles_law_error(m));
	n = meter_put(list, n, "sim_events", (double)sim_events);
	n = meter_put(list, n, "wall_s", wall_s);
	return meter_types_report(m, list, n);
}

/* Whether a and b agree to within rounding: 1e-9 of their size, and 1e-6 absolute (a millionth of a dollar
 * or a GPU-microsecond: sums of thousands of terms carry that much dust). */
static bool same(double a, double b)
{
	return fabs(a - b) <= 1e-6 + 1e-9 * (fabs(a) + fabs(b));
}

bool meter_conserved(const struct meter *m, char *why, size_t n)
{
	uint64_t ended = m->served + m->timed_out + m->refused + m->unserved + m->interrupted_dropped;
	double gpu_per_slot = (double)(m->copy_gpus ? m->copy_gpus : m->gpus) / m->slots;
	int busy = 0;

	for (int k = 0; k < OPTION_KIND_COUNT; k++)
		busy += m->busy[k];
	if (ended != m->requests) {
		snprintf(why, n, "requests: served %llu + dropped %llu != arrived %llu", (unsigned long long)m->served,
			 (unsigned long long)(ended - m->served), (unsigned long long)m->requests);
		return false;
	}
	if (m->queued != 0 || busy != 0) {
		snprintf(why, n, "requests still in the system after the run: %lld waiting, %d in service",
			 (long long)m->queued, busy);
		return false;
	}
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		const char *name = option_kind_name((enum option_kind)k);
		double lines = 0, user_lines[METER_USERS] = { 0 }, users_paid = 0, busy_gpu_us = (m->types.n > 1 ? m->types.busy_gpu_us[k] :
								     m->busy_slot_us[k] * gpu_per_slot) +
							       m->job_held_us[k] * m->gpus;
		for (int h = 0; h < m->nhours; h++)
			for (int u = 0; u < METER_USERS; u++)
				for (int c = 0; c < CHARGE_KIND_COUNT; c++)
					user_lines[u] += m->bill[meter_bill_index(h, u, k, c)].effective_usd;
		for (int u = 0; u < METER_USERS; u++)
			lines += user_lines[u];
		for (int u = 0; u < METER_USERS; u++)
			users_paid += m->user_paid_gpu_us[u][k];
		if (!same(lines, m->cost_usd[k])) {
			snprintf(why, n, "cost: the %s bill lines add up to USD %.9g, its cost is USD %.9g", name,
				 lines, m->cost_usd[k]);
			return false;
		}
		for (int u = 0; u < METER_USERS; u++) {
			if (!same(user_lines[u], m->user_cost_usd[u][k])) {
				snprintf(why, n, "cost: %s's %s bill lines add up to USD %.9g, its cost is USD %.9g",
					 meter_user_names[u], name, user_lines[u], m->user_cost_usd[u][k]);
				return false;
			}
		}
		if (!same(users_paid, m->paid_gpu_us[k])) {
			snprintf(why, n, "paid GPU-time: %s's users add up to %.9g GPU-us, its total is %.9g", name,
				 users_paid, m->paid_gpu_us[k]);
			return false;
		}
		if (busy_gpu_us > m->paid_gpu_us[k] && !same(busy_gpu_us, m->paid_gpu_us[k])) {
			snprintf(why, n, "GPU-time: %s busy %.9g GPU-us > paid %.9g GPU-us (idle < 0)", name,
				 busy_gpu_us, m->paid_gpu_us[k]);
			return false;
		}
	}
	return true;
}
