/* meter: see meter.h. */
#include "meter.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "diag.h"
#include "status.h"


int meter_init(struct meter *m, struct sink sink, struct diag *d, int64_t slo_latency_us, int gpus,
	       int slots, int64_t horizon_us, int64_t hour_phase_us, int64_t period_us)
{
	int64_t hour = SIM_US_PER_H;

	assert(hour_phase_us >= 0 && hour_phase_us < hour);
	memset(m, 0, sizeof *m);
	m->hour_phase_us = hour_phase_us;
	m->nhours = (int)((hour_phase_us + horizon_us + hour - 1) / hour);
	m->usage_by_hour = calloc((size_t)m->nhours, sizeof *m->usage_by_hour);
	m->usage_meas_by_hour = calloc((size_t)m->nhours, sizeof *m->usage_meas_by_hour);
	m->bill = calloc((size_t)m->nhours * METER_USERS * OPTION_KIND_COUNT * CHARGE_KIND_COUNT, sizeof *m->bill);
	m->user_hour_usd = calloc((size_t)m->nhours * METER_USERS * SAVINGS_USAGE_COUNT, sizeof *m->user_hour_usd);
	m->hours = calloc((size_t)m->nhours, sizeof *m->hours);
	if (!m->usage_by_hour || !m->usage_meas_by_hour || !m->bill || !m->user_hour_usd || !m->hours) {
		meter_fini(m);
		return STATUS_ENOMEM;
	}
	for (int h = 0; h < m->nhours; h++) {
		/* clock hour h is [h x 1 h - phase, (h + 1) x 1 h - phase) on the run's clock */
		int64_t t0 = (int64_t)h * hour - hour_phase_us, t1 = t0 + hour;
		if (t0 < 0)
			t0 = 0;
		if (t1 > horizon_us)
			t1 = horizon_us;
		m->usage_by_hour[h].t0_h = (double)t0 / (double)hour;
		m->usage_by_hour[h].len_h = (double)(t1 - t0) / (double)hour;
		m->usage_meas_by_hour[h].t0_h = m->usage_by_hour[h].t0_h;  /* until meter_set_warmup */
		m->usage_meas_by_hour[h].len_h = m->usage_by_hour[h].len_h;
		m->hours[h].hour_start_s = (double)((int64_t)h * hour - hour_phase_us) / SIM_US_PER_S;
		m->hours[h].latency_p50_s = m->hours[h].latency_p95_s = m->hours[h].latency_p99_s = NAN;
	}
	m->hour_k = -1;
	hist_init(&m->hour_latency);
	m->horizon_us = horizon_us;
	m->warm_taken = true;  /* no warm-up: the snapshot at t = 0 is all zeros */
	m->worst_ratio = NAN;
	m->sink = sink;
	m->diag = d;
	m->slo_latency_us = slo_latency_us;
	m->gpus = gpus;
	m->slots = slots;
	m->horizon_h = (double)horizon_us / SIM_US_PER_H_D;
	m->period_us = period_us;
	hist_init(&m->latency);
	hist_init(&m->wait);
	hist_init(&m->ttft);
	hist_init(&m->win_latency);
	hist_init(&m->win_ttft);
	hist_init(&m->tpot);
	hist_init(&m->win_tpot);
	return STATUS_OK;
}

void meter_fini(struct meter *m)
{
	free(m->usage_by_hour);
	free(m->usage_meas_by_hour);
	free(m->bill);
	free(m->user_hour_usd);
	free(m->hours);
	m->bill = NULL;
	m->user_hour_usd = NULL;
	m->hours = NULL;
	m->usage_by_hour = NULL;
	m->usage_meas_by_hour = NULL;
}

void meter_set_prices(struct meter *m, int64_t start_unix_us, double list_usd_per_h)
{
	m->start_unix_us = start_unix_us;
	m->list_usd_per_h = list_usd_per_h;
}

int64_t meter_hour_end(const struct meter *m, int64_t t_us)
{
	int64_t hour = SIM_US_PER_H;

	return ((t_us + m->hour_phase_us) / hour + 1) * hour - m->hour_phase_us;
}

void meter_set_warmup(struct meter *m, int64_t warmup_us)
{
	int64_t hour = SIM_US_PER_H;

	assert(warmup_us >= 0 && warmup_us < m->horizon_us && m->last_us == 0);
	m->warmup_us = warmup_us;
	m->warm_taken = warmup_us == 0;
	/* the measured part of each clock hour: [warmup, horizon) within it */
	for (int h = 0; h < m->nhours; h++) {
		int64_t t0 = (int64_t)h * hour - m->hour_phase_us, t1 = t0 + hour;
		if (t0 < warmup_us)
			t0 = warmup_us;
		if (t1 > m->horizon_us)
			t1 = m->horizon_us;
		m->usage_meas_by_hour[h].t0_h = (double)t0 / (double)hour;
		m->usage_meas_by_hour[h].len_h = t1 > t0 ? (double)(t1 - t0) / (double)hour : 0;
	}
}

void meter_set_slo(struct meter *m, const struct meter_slo *slo)
{
	m->slo = *slo;
	m->slo_stated = slo->max_violation_rate >= 0;
	m->latency_pcts = false;
	for (int i = 0; i < METER_SLO_PCTS; i++) {
		m->slo_stated |= slo->latency_pct_us[i] > 0 || slo->ttft_pct_us[i] > 0 || slo->tpot_pct_us[i] > 0;
		m->latency_pcts |= slo->latency_pct_us[i] > 0;
	}
	if (m->slo.window_us > 0) {
		meter_window_setup(m);
		m->win_k = meter_window_of(m, m->warmup_us);
	}
}

/* Add usd_per_h over [t0_us, t1_us) to usage of kind k, clock hour by clock hour (the part past the
 * horizon goes to the last hour); with several types, also to the bill's type's (Savings Plans cover each
 * type at its own rate: savings.h); with user >= 0, also to that user's (user_hour_usd). */
static void usage_spread(struct meter *m, int type, int user, enum savings_usage k, int64_t t0_us, int64_t t1_us,
			 double usd_per_h)
{
	int64_t hour = SIM_US_PER_H;

	while (t0_us < t1_us) {
		int64_t h = (t0_us + m->hour_phase_us) / hour;
		int64_t end = h >= m->nhours - 1 ? t1_us : (h + 1) * hour - m->hour_phase_us;
		if (end > t1_us)
			end = t1_us;
		if (h > m->nhours - 1)
			h = m->nhours - 1;
		struct savings_hour *u = &m->usage_by_hour[h < 0 ? 0 : h];
		double usd = usd_per_h * (double)(end - t0_us) / (double)hour;
		u->usd[k] += usd;
		if (user >= 0)
			m->user_hour_usd[((size_t)(h < 0 ? 0 : h) * METER_USERS + (size_t)user) * SAVINGS_USAGE_COUNT + k] +=
				usd;
		if (m->types.n > 1) {
			u->ntypes = m->types.n;
			u->type_usd[k][type] += usd;
		}
		t0_us = end;
	}
}

/* usage_spread into both the whole window's hours and the measured part's (from warmup_us on). */
static void usage_add(struct meter *m, const struct meter_payer *pay, enum savings_usage k, int64_t t0_us,
		      int64_t t1_us, double usd_per_h)
{
	struct savings_hour *all = m->usage_by_hour;

	if (t1_us > t0_us && m->types.n > 1)
		m->types.type[pay->type].cost_usd += usd_per_h * (double)(t1_us - t0_us) / SIM_US_PER_H_D;
	usage_spread(m, pay->type, pay->user, k, t0_us, t1_us, usd_per_h);
	if (t0_us < m->warmup_us)
		t0_us = m->warmup_us;
	m->usage_by_hour = m->usage_meas_by_hour;
	usage_spread(m, pay->type, -1, k, t0_us, t1_us, usd_per_h);
	m->usage_by_hour = all;
}

void meter_od_usage(struct meter *m, const struct meter_payer *pay, int64_t t0_us, int64_t t1_us, double usd_per_h)
{
	usage_add(m, pay, SAVINGS_ON_DEMAND, t0_us, t1_us, usd_per_h);
}

void meter_odcr_reserved(struct meter *m, const struct meter_payer *pay, int64_t t0_us, int64_t t1_us,
			 double usd_per_h)
{
	usage_add(m, pay, SAVINGS_ODCR_UNUSED, t0_us, t1_us, usd_per_h);
}

void meter_odcr_used(struct meter *m, const struct meter_payer *pay, int64_t t0_us, int64_t t1_us, double usd_per_h)
{
	/* unused = reserved - used, kept as a running sum: the order of the calls does not matter */
	usage_add(m, pay, SAVINGS_ODCR_USED, t0_us, t1_us, usd_per_h);
	usage_add(m, pay, SAVINGS_ODCR_UNUSED, t0_us, t1_us, -usd_per_h);
}

static void advance_to(struct meter *m, int64_t now_us);

void meter_advance(struct meter *m, int64_t now_us)
{
	if (m->closed || now_us <= m->last_us)
		return;
	if (!m->warm_taken && now_us >= m->warmup_us) {
		/* split the integrals at the warm-up's end: what follows is the measured window's */
		advance_to(m, m->warmup_us);
		for (int k = 0; k < OPTION_KIND_COUNT; k++)
			m->busy_slot_at_warmup[k] = m->busy_slot_us[k];
		meter_types_warmup(m);
		m->queued_at_warmup = m->queued_us;
		m->warm_taken = true;
	}
	advance_to(m, now_us);
}

_Static_assert(OPTION_KIND_COUNT <= 32, "meter.busy_kinds keeps one bit per option kind");
_Static_assert(METER_TYPES_MAX <= SINK_TYPES_MAX, "a sample holds every type's figures");
_Static_assert(METER_TYPES_MAX <= SAVINGS_TYPES_MAX, "an hour's usage holds every type's");

static void advance_to(struct meter *m, int64_t now_us)
{
	double dt;

	if (now_us <= m->last_us)
		return;
	dt = (double)(now_us - m->last_us);
	/* Only the kinds with busy slots, in kind order as before: a kind with none would add 0 x dt = +0.0,
	 * which leaves any sum but -0.0 as it is, and these sums start at +0.0 and so are never -0.0. Skipping
	 * it gives the same bits, and spares a serving run (one or two kinds) six dependent additions per
	 * change of a count. */
	for (unsigned kinds = m->busy_kinds; kinds; kinds &= kinds - 1) {
		int k = __builtin_ctz(kinds);
		m->busy_slot_us[k] += m->busy[k] * dt;
		m->busy_slot_us_all += m->busy[k] * dt;
	}
	m->service_inst_us += m->in_service * dt;
	if (m->types.n > 1)
		meter_types_advance(m, dt);
	if (m->copies != 0)  /* as above: 0 x dt would change no bit */
		m->service_copy_us += m->copies * dt;
	if (m->queued != 0) {
		m->queued_us += (double)m->queued * dt;
		if ((m->copy_gpus ? m->copies : m->in_service) > 0)
			m->queued_served_us += (double)m->queued * dt;
	}
	if (m->queued > 0) {
		m->under_us += dt;
	} else {
		int units = m->copy_gpus ? m->copies : m->in_service;  /* with copies, one copy too many */
		int slots = m->types.n > 1 ? m->types.in_service_slots : units * m->slots;
		/* several types: a reference (serving type) instance's worth of slots idle */
		if (slots - m->busy_all >= m->slots && units > 0)
			m->over_us += dt;
	}
	m->last_us = now_us;
}

void meter_queue(struct meter *m, int64_t now_us, int delta)
{
	meter_advance(m, now_us);
	m->queued += delta;
}

void meter_arrival(struct meter *m, int64_t arrival_us, int64_t alone_us)
{
	m->arrivals++;
	if (arrival_us < m->warmup_us)
		return;
	m->requests++;
	if (alone_us > m->slo_latency_us)
		m->floor_count++;
	for (int i = 0; m->latency_pcts && i < METER_SLO_PCTS; i++)
		if (m->slo.latency_pct_us[i] > 0 && alone_us > m->slo.latency_pct_us[i])
			m->floor_pct[i]++;
}

/* The quantile of each percentile SLO, by enum scenario_slo_pct (declared in meter.h). */
const double meter_slo_quantile[METER_SLO_PCTS] = { 0.50, 0.90, 0.95, 0.99 };


/* Check the current window's stated SLOs, count a breach, keep the worst ratio; then empty it. */
static void window_close(struct meter *m)
{
	uint64_t n = m->win_latency.n + m->win_dropped;
	bool breach = false;

	if (n > 0) {
		for (int i = 0; i < METER_SLO_PCTS; i++) {
			const int64_t thr[3] = { m->slo.latency_pct_us[i], m->slo.ttft_pct_us[i], m->slo.tpot_pct_us[i] };
			const struct hist *h[3] = { &m->win_latency, &m->win_ttft, &m->win_tpot };
			for (int j = 0; j < 3; j++) {
				if (thr[j] <= 0)
					continue;
				double seen = hist_quantile_above(h[j], meter_slo_quantile[i], m->win_dropped);
				double ratio = seen / ((double)thr[j] / SIM_US_PER_S);
				breach |= ratio > 1;
				if (isnan(m->worst_ratio) || ratio > m->worst_ratio) {
					int64_t start = meter_window_start(m, m->win_k);
					m->worst_ratio = ratio;
					m->worst_start_us = start > m->warmup_us ? start : m->warmup_us;
				}
			}
		}
		if (m->slo.max_violation_rate >= 0 &&
		    (double)m->win_violations > m->slo.max_violation_rate * (double)n)
			breach = true;
	}
	m->windows_breached += breach;
	if (n > 0) {
		hist_init(&m->win_latency);
		hist_init(&m->win_ttft);
		hist_init(&m->win_tpot);
	}
	m->win_dropped = 0;
	m->win_violations = 0;
}

/* Close the current clock hour: its served latencies' percentiles into its row, then empty the histogram
 * (as window_close does: nothing is allocated). */
static void hour_close(struct meter *m)
{
	struct sink_hour *r;

	if (m->hour_k < 0)
		return;
	r = &m->hours[m->hour_k];
	if (m->hour_latency.n > 0) {
		r->latency_p50_s = hist_quantile(&m->hour_latency, 0.50);
		r->latency_p95_s = hist_quantile(&m->hour_latency, 0.95);
		r->latency_p99_s = hist_quantile(&m->hour_latency, 0.99);
		hist_init(&m->hour_latency);
	}
}

/* The clock hour a measured request ended in (at now_us; after the horizon: the last one); its row. */
static struct sink_hour *hour_enter(struct meter *m, int64_t now_us)
{
	int64_t hour = SIM_US_PER_H;
	int k;

	if (now_us >= m->horizon_us)
		now_us = m->horizon_us - 1;
	k = (int)((now_us + m->hour_phase_us) / hour);
	if (k >= m->nhours)
		k = m->nhours - 1;
	assert(k >= m->hour_k);
	if (k != m->hour_k) {
		hour_close(m);
		m->hour_k = k;
	}
	return &m->hours[k];
}

/* The window a measured request finished in (served or dropped at now_us; after the horizon: the last). */
static void window_enter(struct meter *m, int64_t now_us)
{
	int64_t k;

	if (now_us >= m->horizon_us)
		now_us = m->horizon_us - 1;
	k = meter_window_next(m, now_us);
	assert(k >= m->win_k);
	if (k != m->win_k) {
		window_close(m);
		m->win_k = k;
	}
}

void meter_busy(struct meter *m, int64_t now_us, enum option_kind kind, int delta)
{
	meter_advance(m, now_us);
	m->busy[kind] += delta;
	m->busy_all += delta;
	if (m->busy[kind] != 0)
		m->busy_kinds |= 1u << kind;
	else
		m->busy_kinds &= ~(1u << kind);
}

void meter_job_held(struct meter *m, enum option_kind kind, int n, int64_t from_us, int64_t to_us)
{
	int64_t meas_from = from_us > m->warmup_us ? from_us : m->warmup_us;

	if (to_us > from_us)
		m->job_held_us[kind] += (double)n * (double)(to_us - from_us);
	if (to_us > meas_from)
		m->job_held_meas_us[kind] += (double)n * (double)(to_us - meas_from);
}

void meter_set_ttft_slo(struct meter *m, int64_t ttft_us)
{
	m->slo_ttft_us = ttft_us;
}

void meter_served(struct meter *m, int64_t now_us, int64_t arrival_us, int64_t wait_us, int64_t latency_us,
		  int64_t ttft_us, int64_t alone_us)
{
	bool window = m->slo.window_us > 0;
	double latency_s = (double)latency_us / SIM_US_PER_S;
	int latency_bucket;
	struct sink_hour *hr;

	if (arrival_us < m->warmup_us)
		return;
	if (window)
		window_enter(m, now_us);
	hr = hour_enter(m, now_us);
	hr->requests++;
	latency_bucket = hist_bucket(latency_s);  /* once for the run's, the hour's and the window's */
	hist_add_bucket(&m->hour_latency, latency_s, latency_bucket);
	if (ttft_us >= 0) {
		hist_add(&m->ttft, (double)ttft_us / SIM_US_PER_S);
		if (window)
			hist_add(&m->win_ttft, (double)ttft_us / SIM_US_PER_S);
		if (m->slo_ttft_us > 0 && ttft_us > m->slo_ttft_us)
			m->ttft_violations++;
	}
	m->served++;
	m->sojourn_us += (double)(now_us - arrival_us);
	if (wait_us > 0)
		m->waited++;
	if (latency_us > m->slo_latency_us) {
		m->slo_violations++;
		m->win_violations++;
		hr->violations++;
		/* why it missed: its service time alone was too long; or its service time where it ran, slowed by
		 * sharing its instance (the token model's decode table, workload.service.slowdown) or by a slower
		 * type, was; or waiting pushed it over */
		if (alone_us > m->slo_latency_us)
			m->slo_service++;
		else if (latency_us - wait_us > m->slo_latency_us)
			m->slo_slowed++;
		else
			m->slo_wait++;
	}
	hist_add_bucket(&m->latency, latency_s, latency_bucket);
	if (window)
		hist_add_bucket(&m->win_latency, latency_s, latency_bucket);
	if (wait_us == 0)
		hist_add_zero(&m->wait);  /* most requests wait not at all: spare the bucket's lookup */
	else
		hist_add(&m->wait, (double)wait_us / SIM_US_PER_S);
}

void meter_interrupted(struct meter *m, int64_t arrival_us)
{
	if (arrival_us >= m->warmup_us)
		m->requests_interrupted++;
}

void meter_dropped(struct meter *m, int64_t now_us, int64_t arrival_us, enum drop_reason why, bool waited)
{
	struct sink_hour *hr;

	if (arrival_us < m->warmup_us)
		return;
	if (m->slo.window_us > 0) {
		window_enter(m, now_us);
		m->win_dropped++;
		m->win_violations++;
	}
	hr = hour_enter(m, now_us);
	hr->requests++;
	hr->violations++;
	m->sojourn_us += (double)(now_us - arrival_us);  /* 0 for a refusal: it never entered */
	/* A dropped request always counts against the SLO. */
	m->slo_violations++;
	m->ttft_violations++;
	m->tpot_violations++;
	if (waited)
		m->waited++;
	if (why == DROP_TIMEOUT)
		m->timed_out++;
	else if (why == DROP_REFUSED)
		m->refused++;
	else if (why == DROP_INTERRUPTED)
		m->interrupted_dropped++;
	else
		m->unserved++;
}

void meter_live(struct meter *m, int64_t now_us, enum option_kind kind, int delta)
{
	int total = 0;

	meter_advance(m, now_us);
	m->live[kind] += delta;
	for (int k = 0; k < OPTION_KIND_COUNT; k++)
		total += m->live[k];
	if (total > m->live_peak)
		m->live_peak = total;
}

void meter_in_service(struct meter *m, int64_t now_us, int delta)
{
	meter_advance(m, now_us);
	m->in_service += delta;
}

void meter_type_busy(struct meter *m, int64_t now_us, int type, enum option_kind kind, int delta)
{
	struct meter_types *t = &m->types;

	if (t->n <= 1)
		return;
	meter_advance(m, now_us);
	t->type[type].busy += delta;
	t->busy_gpus[kind] += delta * (double)t->type[type].gpus / t->type[type].slots;
	assert(t->type[type].busy >= 0);
}

void meter_type_in_service(struct meter *m, int64_t now_us, int type, int delta)
{
	struct meter_types *t = &m->types;

	if (t->n <= 1)
		return;
	meter_advance(m, now_us);
	t->type[type].in_service += delta;
	t->in_service_slots += delta * t->type[type].slots;
	assert(t->type[type].in_service >= 0);
}

void meter_set_copies(struct meter *m, int gpus)
{
	m->copy_gpus = gpus;
}

void meter_copies(struct meter *m, int64_t now_us, int delta)
{
	meter_advance(m, now_us);
	m->copies += delta;
}

void meter_charge_split(struct meter *m, const struct meter_payer *pay, enum option_kind kind, double usd,
			double paid_inst_us, double meas_usd, double meas_inst_us)
{
	int gpus = meter_types_bill_gpus(m, pay->type);  /* the instances' type's (meter_types.c) */

	m->cost_usd[kind] += usd;
	m->paid_gpu_us[kind] += paid_inst_us * gpus;
	if (m->types.n > 1) {
		m->types.type[pay->type].cost_usd += usd;
		m->types.type[pay->type].paid_gpu_us += paid_inst_us * gpus;
	}
	if (pay->jobs_share < 0) {
		m->user_cost_usd[pay->user][kind] += usd;
		m->user_paid_gpu_us[pay->user][kind] += paid_inst_us * gpus;
	} else {
		for (int u = 0; u < METER_USERS; u++) {  /* 0 serving, 1 jobs */
			double share = u == 1 ? pay->jobs_share : 1 - pay->jobs_share;
			m->user_cost_usd[u][kind] += usd * share;
			m->user_paid_gpu_us[u][kind] += paid_inst_us * gpus * share;
		}
	}
	m->cost_meas_usd[kind] += meas_usd;
	m->paid_gpu_meas_us[kind] += meas_inst_us * gpus;
}

void meter_charge(struct meter *m, const struct meter_payer *pay, enum option_kind kind, double usd,
		  double paid_inst_us, double t0_us, double t1_us)
{
	double lo = t0_us > (double)m->warmup_us ? t0_us : (double)m->warmup_us;
	double hi = t1_us < (double)m->horizon_us ? t1_us : (double)m->horizon_us;
	double share = t1_us > t0_us ? (hi > lo ? (hi - lo) / (t1_us - t0_us) : 0) : 1;

	assert(t1_us >= t0_us);
	if (m->warmup_us == 0)
		share = 1;  /* the whole bill is measured, exactly */
	meter_charge_split(m, pay, kind, usd, paid_inst_us, usd * share, paid_inst_us * share);
}

void meter_after_horizon(struct meter *m, enum option_kind kind, double usd)
{
	m->after_horizon_usd += usd;
	m->after_horizon_kind_usd[kind] += usd;
}

static void keep_status(struct meter *m, int rc)
{
	if (rc != STATUS_OK && m->status == STATUS_OK)
		m->status = rc;
}

void meter_fail(struct meter *m, int status)
{
	if (m->status == STATUS_OK)
		diag_fail(m->diag, status, "simulation failed: %s", status_str(status));
	keep_status(m, status);
}

int meter_flush(struct meter *m)
{
	if (m->status != STATUS_OK)
		return m->status;
	if (m->nsamples)
		keep_status(m, m->sink.ops->samples(m->sink.self, m->samples, (size_t)m->nsamples));
	if (m->nevents && m->status == STATUS_OK)
		keep_status(m, m->sink.ops->events(m->sink.self, m->events, (size_t)m->nevents));
	m->nsamples = 0;
	m->nevents = 0;
	return m->status;
}

void meter_event(struct meter *m, int64_t now_us, const char *kind, const char *option, int count,
		 const char *detail)
{
	struct sink_event *e;

	if (m->nevents == METER_BATCH)
		meter_flush(m);
	e = &m->events[m->nevents];
	e->t_s = (double)now_us / SIM_US_PER_S;
	e->kind = kind;
	e->option = option;
	e->count = count;
	e->detail = NULL;
	if (detail) {
		snprintf(m->event_detail[m->nevents], sizeof m->event_detail[0], "%s", detail);
		e->detail = m->event_detail[m->nevents];
	}
	m->nevents++;
}

void meter_sample(struct meter *m, int64_t now_us, int64_t queue_len, double cost_usd_per_h,
		  double instances_jobs)
{
	struct sink_sample *s;
	double span_us = (double)(now_us - m->t_at_sample);

	meter_advance(m, now_us);
	if (m->nsamples == METER_BATCH)
		meter_flush(m);
	s = &m->samples[m->nsamples++];
	s->t_s = (double)now_us / SIM_US_PER_S;
	s->arrival_rate_per_s = span_us > 0 ? (double)(m->arrivals - m->arrivals_at_sample) * SIM_US_PER_S / span_us : 0;
	s->queue_len = (double)queue_len;
	s->busy_slots = span_us > 0 ? (m->busy_slot_us_all - m->busy_at_sample) / span_us : 0;
	s->instances_total = 0;
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		s->instances[k] = m->live[k];
		s->instances_total += m->live[k];
	}
	s->cost_usd_per_h = cost_usd_per_h;
	s->instances_jobs = instances_jobs;
	s->copies = m->copy_gpus ? (double)m->copies : NAN;
	s->ntypes = m->types.n > 1 ? m->types.n : 0;
	for (int i = 0; i < s->ntypes; i++) {  /* several types: meter_types.c keeps their integrals */
		struct meter_type *y = &m->types.type[i];
		s->type_instances[i] = y->in_service;
		s->type_busy_slots[i] = span_us > 0 ? (y->busy_slot_us - y->busy_at_sample) / span_us : 0;
		y->busy_at_sample = y->busy_slot_us;
	}
	m->arrivals_at_sample = m->arrivals;
	m->busy_at_sample = m->busy_slot_us_all;
	m->t_at_sample = now_us;
}

void meter_settle(struct meter *m, const struct savings_ri_terms *ris, int nris, const struct savings_plan_terms *plans,
		  int nplans)
{
	struct savings_result r;
	double usage = 0;

	for (int h = 0; h < m->nhours; h++) {
		struct savings_hour *u = &m->usage_by_hour[h];
		/* a fully used reservation leaves rounding dust, never more */
		assert(u->usd[SAVINGS_ODCR_UNUSED] > -1e-9 * (1.0 + u->usd[SAVINGS_ODCR_USED]));
		if (u->usd[SAVINGS_ODCR_UNUSED] < 0)
			u->usd[SAVINGS_ODCR_UNUSED] = 0;
		for (int t = 0; t < u->ntypes; t++)  /* the same dust, by type */
			if (u->type_usd[SAVINGS_ODCR_UNUSED][t] < 0)
				u->type_usd[SAVINGS_ODCR_UNUSED][t] = 0;
		for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
			usage += u->usd[k];
	}
	meter_bill_settled(m, ris, nris, plans, nplans);
	savings_settle_all(m->usage_by_hour, m->nhours, ris, nris, plans, nplans, &r);
	m->cost_usd[OPTION_ON_DEMAND] += r.excess_usd[SAVINGS_ON_DEMAND];
	/* the ODCR bill (option_odcr.c) holds the whole reservation; what a plan covered is paid by the plan */
	m->cost_usd[OPTION_ODCR] -= r.covered_usd[SAVINGS_ODCR_USED] + r.covered_usd[SAVINGS_ODCR_UNUSED] +
				    r.ri_covered_usd[SAVINGS_ODCR_USED] + r.ri_covered_usd[SAVINGS_ODCR_UNUSED];
	m->cost_usd[OPTION_SAVINGS_PLAN] += r.commit_usd;
	m->cost_usd[OPTION_RESERVED] += r.ri_commit_usd;
	m->committed_usd += r.commit_usd + r.ri_commit_usd;
	m->commit_used_usd += r.commit_usd - r.unused_usd + r.ri_commit_usd - r.ri_unused_usd;
	for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
		m->covered_od_usd += r.covered_usd[k] + r.ri_covered_usd[k];
	m->eligible_od_usd += usage;
	/* the measured window's bill: the same settlement over the measured part of each clock hour (the
	 * hour holding the warm-up's end is pro-rated like a partial first hour) */
	if (m->warmup_us > 0) {
		int h0 = 0;
		while (m->usage_meas_by_hour[h0].len_h <= 0)
			h0++;  /* hours wholly inside the warm-up; warmup < horizon leaves at least one */
		for (int h = h0; h < m->nhours; h++)
			if (m->usage_meas_by_hour[h].usd[SAVINGS_ODCR_UNUSED] < 0)
				m->usage_meas_by_hour[h].usd[SAVINGS_ODCR_UNUSED] = 0;
		for (int h = h0; h < m->nhours; h++)
			for (int t = 0; t < m->usage_meas_by_hour[h].ntypes; t++)
				if (m->usage_meas_by_hour[h].type_usd[SAVINGS_ODCR_UNUSED][t] < 0)
					m->usage_meas_by_hour[h].type_usd[SAVINGS_ODCR_UNUSED][t] = 0;
		savings_settle_all(m->usage_meas_by_hour + h0, m->nhours - h0, ris, nris, plans, nplans, &r);
	}
	m->cost_meas_usd[OPTION_ON_DEMAND] += r.excess_usd[SAVINGS_ON_DEMAND];
	m->cost_meas_usd[OPTION_ODCR] -= r.covered_usd[SAVINGS_ODCR_USED] + r.covered_usd[SAVINGS_ODCR_UNUSED] +
					 r.ri_covered_usd[SAVINGS_ODCR_USED] + r.ri_covered_usd[SAVINGS_ODCR_UNUSED];
	m->cost_meas_usd[OPTION_SAVINGS_PLAN] += r.commit_usd;
	m->cost_meas_usd[OPTION_RESERVED] += r.ri_commit_usd;
}

void meter_close(struct meter *m, int64_t horizon_us)
{
	meter_advance(m, horizon_us);
	m->closed = true;
}

void meter_finish(struct meter *m)
{
	if (m->slo.window_us > 0)
		window_close(m);
	hour_close(m);
}

int meter_emit_hours(struct meter *m)
{
	int64_t hour = SIM_US_PER_H;
	int h0 = (int)((m->warmup_us + m->hour_phase_us) / hour);

	/* the clock hours [warm-up, horizon) touches: from the one holding the warm-up's end */
	if (h0 >= m->nhours || m->status != STATUS_OK)
		return m->status;
	keep_status(m, m->sink.ops->hours(m->sink.self, m->hours + h0, (size_t)(m->nhours - h0)));
	return m->status;
}

void meter_served_batch(struct meter *m, int64_t now_us, const struct hist *latency, uint64_t violations,
			uint64_t viol_service, uint64_t waited, double sojourn_us)
{
	bool window = m->slo.window_us > 0;
	uint64_t n = latency ? latency->n : 0;
	struct sink_hour *hr;

	if (n == 0 && violations == 0 && waited == 0)
		return;
	if (window)
		window_enter(m, now_us);
	hr = hour_enter(m, now_us);
	hr->requests += n;
	hr->violations += violations;
	if (n > 0) {
		hist_merge(&m->hour_latency, latency);
		hist_merge(&m->latency, latency);
		if (window)
			hist_merge(&m->win_latency, latency);
	}
	if (window)
		m->win_violations += violations;
	m->served += n;
	m->sojourn_us += sojourn_us;
	m->waited += waited;
	m->slo_violations += violations;
	m->slo_service += viol_service;
	m->slo_wait += violations - viol_service;
}

void meter_waits_batch(struct meter *m, const struct hist *wait)
{
	hist_merge(&m->wait, wait);
}

int64_t meter_tally_end(const struct meter *m, int64_t t_us)
{
	int64_t end = meter_hour_end(m, t_us);

	if (m->slo.window_us > 0) {
		int64_t w = meter_window_start(m, meter_window_of(m, t_us) + 1);
		if (w < end)
			end = w;
	}
	return end;
}

void meter_dropped_batch(struct meter *m, int64_t now_us, enum drop_reason why, uint64_t n, uint64_t waited,
			 double sojourn_us)
{
	struct sink_hour *hr;

	if (n == 0)
		return;
	if (m->slo.window_us > 0) {
		window_enter(m, now_us);
		m->win_dropped += n;
		m->win_violations += n;
	}
	hr = hour_enter(m, now_us);
	hr->requests += n;
	hr->violations += n;
	m->sojourn_us += sojourn_us;
	m->slo_violations += n;
	m->ttft_violations += n;
	m->tpot_violations += n;
	m->waited += waited;
	if (why == DROP_TIMEOUT)
		m->timed_out += n;
	else if (why == DROP_REFUSED)
		m->refused += n;
	else if (why == DROP_INTERRUPTED)
		m->interrupted_dropped += n;
	else
		m->unserved += n;
}

int meter_put(struct sink_metric *list, int n, const char *name, double value)
{
	if (n >= METER_MAX_METRICS)
		return n;
	snprintf(list[n].name, sizeof list[n].name, "%s", name);
	list[n].value = value;
	return n + 1;
}

void meter_count(struct meter *m, enum meter_counter c, uint64_t n)
{
	switch (c) {
	case METER_LAUNCHES: m->launches += n; break;
	case METER_TERMINATIONS: m->terminations += n; break;
	case METER_LAUNCH_FAILURES: m->launch_failures += n; break;
	case METER_SPOT_INTERRUPTIONS: m->spot_interruptions += n; break;
	case METER_BLOCK_TERMINATIONS: m->block_terminations += n; break;
	case METER_COPY_LOADS: m->copy_loads += n; break;
	case METER_DWS_REQUESTS: m->dws_requests += n; break;
	case METER_DWS_FAILED: m->dws_failed += n; break;
	case METER_SPOT_DEALLOCATED: m->spot_deallocated += n; break;
	}
}

void meter_dws_granted(struct meter *m, double wait_us)
{
	m->dws_granted++;
	m->dws_wait_us += wait_us;
}

void meter_report_dws(struct meter *m)
{
	m->dws_used = true;
}

void meter_report_dealloc(struct meter *m)
{
	m->dealloc_used = true;
}

void meter_spot_disk(struct meter *m, double usd)
{
	m->spot_disk_usd += usd;
}

void meter_commitment(struct meter *m, double committed_usd, double used_usd, double covered_od_usd,
		      double eligible_od_usd)
{
	m->committed_usd += committed_usd;
	m->commit_used_usd += used_usd;
	m->covered_od_usd += covered_od_usd;
	m->eligible_od_usd += eligible_od_usd;
}

void meter_set_slo_latency(struct meter *m, int64_t slo_latency_us)
{
	m->slo_latency_us = slo_latency_us;
}

void meter_failed(struct meter *m, int status)
{
	keep_status(m, status);
}
