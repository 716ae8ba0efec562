/*
 * check_meter: the meter's bill by user (models/metering/meter.c; SOURCES.md [jobs-cost-share]). A Savings
 * Plan is settled clock hour by clock hour, and each hour's settled dollars go to the users who used the
 * capacity in that hour: the on-demand excess by each one's share of the hour's on-demand usage, the plan's
 * used commitment by each one's share of the usage it covered, the unused commitment to serving. The users'
 * bill lines (sink_charge.use) add up to their costs (jobs_cost_<option>_usd). Regional RIs the same way.
 * Worked by hand below;
 * tolerance 1e-9 USD.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "diag.h"
#include "engine.h"
#include "meter.h"
#include "status.h"
#include "testutil.h"
#include "tzone.h"

#define TOL 1e-9
#define H SIM_US_PER_H

static const struct meter_payer jobs_payer = { .user = 1, .type = 0, .jobs_share = -1 };

/*
 * Two clock hours from 2026-12-01T00:00Z under a $35/h plan at 30% off (it covers $50 of On-Demand usage an
 * hour). Hour 0: serving runs $200 of on-demand usage; the plan covers $50 of it for $35, $150 is billed
 * On-Demand: all serving's. Hour 1: the jobs run $20; the plan covers all of it for $14 (the jobs'), and
 * $21 of its commitment is unused (serving's). So the jobs pay on_demand $0 and savings_plan $14; serving
 * on_demand $150 and savings_plan $35 + $21 = $56. Split over the window instead (the rule before schema
 * version 12) the jobs would have paid 20 / 220 of the $150 excess and none of the plan.
 */
START_TEST(plan_hours_split_by_who_used_them)
{
	struct capture cap = { 0 };
	struct diag d = { "" };
	struct meter *m = calloc(1, sizeof *m);
	struct savings_plan_terms plan = { .commit_usd_per_h = 35, .discount = 0.30 };
	char why[256];

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(meter_init(m, capture_sink(&cap), &d, 10 * SIM_US_PER_S, 8, 1, 2 * H, 0, 60 * SIM_US_PER_S),
			 STATUS_OK);
	meter_set_prices(m, 1795996800LL * SIM_US_PER_S, 100);
	meter_od_usage(m, &METER_PAYER_SERVING, 0, H, 200);
	meter_od_usage(m, &jobs_payer, H, 2 * H, 20);
	meter_close(m, 2 * H);
	meter_settle(m, NULL, 0, &plan, 1);
	meter_finish(m);
	ck_assert_double_eq_tol(m->user_cost_usd[1][OPTION_ON_DEMAND], 0, TOL);
	ck_assert_double_eq_tol(m->user_cost_usd[1][OPTION_SAVINGS_PLAN], 14, TOL);
	ck_assert_double_eq_tol(m->user_cost_usd[0][OPTION_ON_DEMAND], 150, TOL);
	ck_assert_double_eq_tol(m->user_cost_usd[0][OPTION_SAVINGS_PLAN], 56, TOL);
	ck_assert_double_eq_tol(m->cost_usd[OPTION_SAVINGS_PLAN], 70, TOL);
	ck_assert_msg(meter_conserved(m, why, sizeof why), "%s", why);
	/* the bill lines carry the same split */
	ck_assert_int_eq(meter_emit_bill(m), STATUS_OK);
	ck_assert_double_eq_tol(cap.charge_use_effective[1][OPTION_SAVINGS_PLAN], 14, TOL);
	ck_assert_double_eq_tol(cap.charge_use_effective[1][OPTION_ON_DEMAND], 0, TOL);
	ck_assert_double_eq_tol(cap.charge_use_effective[0][OPTION_SAVINGS_PLAN], 56, TOL);
	ck_assert_double_eq_tol(cap.charge_use_effective[0][OPTION_ON_DEMAND], 150, TOL);
	meter_fini(m);
	free(m);
}
END_TEST

/*
 * One clock hour both users share: serving $60 and the jobs $40 of on-demand usage under the same plan
 * ($50 covered for $35, $50 excess). Each pays its share of the hour: the jobs 40% of the $35 and of the
 * $50 ($14 and $20), serving 60% ($21 and $30).
 */
START_TEST(shared_hour_split_by_usage)
{
	struct capture cap = { 0 };
	struct diag d = { "" };
	struct meter *m = calloc(1, sizeof *m);
	struct savings_plan_terms plan = { .commit_usd_per_h = 35, .discount = 0.30 };
	char why[256];

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(meter_init(m, capture_sink(&cap), &d, 10 * SIM_US_PER_S, 8, 1, H, 0, 60 * SIM_US_PER_S),
			 STATUS_OK);
	meter_set_prices(m, 1795996800LL * SIM_US_PER_S, 100);
	meter_od_usage(m, &METER_PAYER_SERVING, 0, H, 60);
	meter_od_usage(m, &jobs_payer, 0, H, 40);
	meter_close(m, H);
	meter_settle(m, NULL, 0, &plan, 1);
	meter_finish(m);
	ck_assert_double_eq_tol(m->user_cost_usd[1][OPTION_SAVINGS_PLAN], 14, TOL);
	ck_assert_double_eq_tol(m->user_cost_usd[1][OPTION_ON_DEMAND], 20, TOL);
	ck_assert_double_eq_tol(m->user_cost_usd[0][OPTION_SAVINGS_PLAN], 21, TOL);
	ck_assert_double_eq_tol(m->user_cost_usd[0][OPTION_ON_DEMAND], 30, TOL);
	ck_assert_msg(meter_conserved(m, why, sizeof why), "%s", why);
	meter_fini(m);
	free(m);
}
END_TEST

/*
 * A regional RI (1 instance at $60/h, On-Demand $100/h) over two clock hours. Hour 0: serving runs $300 and
 * the jobs $100 of on-demand usage; the RI covers one instance-hour ($100), $300 is billed On-Demand. The
 * jobs had a quarter of the hour's usage: a quarter of the RI's used $60 ($15) and of the $300 ($75).
 * Hour 1: nothing runs, the RI's $60 is unused: serving's. Serving: reserved $45 + $60, on_demand $225.
 */
START_TEST(ri_hours_split_by_who_used_them)
{
	struct capture cap = { 0 };
	struct diag d = { "" };
	struct meter *m = calloc(1, sizeof *m);
	struct savings_ri_terms ri = { .type = 0, .count = 1, .od_usd_per_h = 100, .usd_per_h = 60,
				       .billed_usd_per_h = 60, .t0_h = 0, .t1_h = 10 };
	char why[256];

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(meter_init(m, capture_sink(&cap), &d, 10 * SIM_US_PER_S, 8, 1, 2 * H, 0, 60 * SIM_US_PER_S),
			 STATUS_OK);
	meter_set_prices(m, 1795996800LL * SIM_US_PER_S, 100);
	meter_od_usage(m, &METER_PAYER_SERVING, 0, H, 300);
	meter_od_usage(m, &jobs_payer, 0, H, 100);
	meter_close(m, 2 * H);
	meter_settle(m, &ri, 1, NULL, 0);
	meter_finish(m);
	ck_assert_double_eq_tol(m->cost_usd[OPTION_RESERVED], 120, TOL);
	ck_assert_double_eq_tol(m->user_cost_usd[1][OPTION_RESERVED], 15, TOL);
	ck_assert_double_eq_tol(m->user_cost_usd[1][OPTION_ON_DEMAND], 75, TOL);
	ck_assert_double_eq_tol(m->user_cost_usd[0][OPTION_RESERVED], 105, TOL);
	ck_assert_double_eq_tol(m->user_cost_usd[0][OPTION_ON_DEMAND], 225, TOL);
	ck_assert_msg(meter_conserved(m, why, sizeof why), "%s", why);
	ck_assert_int_eq(meter_emit_bill(m), STATUS_OK);
	ck_assert_double_eq_tol(cap.charge_use_effective[1][OPTION_RESERVED], 15, TOL);
	ck_assert_double_eq_tol(cap.charge_use_effective[0][OPTION_RESERVED], 105, TOL);
	meter_fini(m);
	free(m);
}
END_TEST

/*
 * The request counters, the hourly rows and the windowed SLO, worked by hand. SLO 10 s, windows of 1 h
 * (no percentile threshold; max_violation_rate 0.5: a window is breached when its violations > half its
 * requests), measured from warmup = 60 s, horizon 2 h.
 * Hour/window 0: (a) served at 100 s, latency exactly 10 s: not a violation (the rule is latency > SLO);
 * (b) served at 200 s after waiting 5 s, latency 15 s, alone 10 s: a violation by waiting (15 - 5 = 10 is
 * not over 10), and it waited; (c) served at 300 s in 1 s. Window 0: 3 requests, 1 violation: 1 > 1.5 is
 * false, not breached. Hour 0's row: 3 requests, 1 violation.
 * Hour/window 1: (d) served at 1 h + 100 s in 1 s; (e) dropped at 1 h + 200 s (timed out, it waited);
 * (f) served at 1 h + 300 s in 1 s; (g) dropped unserved exactly at the horizon (2 h), never waited: a
 * request ending at the horizon is the last hour's and the last window's. Window 1: 4 requests, 2
 * violations: 2 > 2 is false, not breached (were (g) a window of its own, 1 > 0.5 would breach it).
 * Hour 1's row: 4 requests, 2 violations.
 * Two interrupted requests, arrived at 59 s (before the warmup: not measured) and exactly at 60 s
 * (measured): requests_interrupted = 1.
 * Totals: served 5 (a, b, c, d, f), violations 3 (b, e, g), waited 2 (b, e), timed out 1, unserved 1, slo_wait 1,
 * windows breached 0.
 */
START_TEST(request_counters_hours_and_windows)
{
	struct capture *cap = calloc(1, sizeof *cap);
	struct diag d = { "" };
	struct meter *m = calloc(1, sizeof *m);
	struct meter_slo slo = { .max_violation_rate = 0.5, .window_us = H };
	const int64_t S = SIM_US_PER_S;

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(cap);
	ck_assert_int_eq(meter_init(m, capture_sink(cap), &d, 10 * S, 8, 1, 2 * H, 0, 60 * S), STATUS_OK);
	meter_set_warmup(m, 60 * S);
	meter_set_slo(m, &slo);
	meter_set_prices(m, 1795996800LL * S, 100);
	meter_served(m, 100 * S, 90 * S, 0, 10 * S, -1, 10 * S);
	meter_served(m, 200 * S, 185 * S, 5 * S, 15 * S, -1, 10 * S);
	meter_served(m, 300 * S, 299 * S, 0, 1 * S, -1, 1 * S);
	meter_served(m, H + 100 * S, H + 99 * S, 0, 1 * S, -1, 1 * S);
	meter_dropped(m, H + 200 * S, H + 150 * S, DROP_TIMEOUT, true);
	meter_served(m, H + 300 * S, H + 299 * S, 0, 1 * S, -1, 1 * S);
	meter_interrupted(m, 59 * S);
	meter_interrupted(m, 60 * S);
	meter_close(m, 2 * H);
	meter_dropped(m, 2 * H, 2 * H - 5 * S, DROP_UNSERVED, false);
	meter_finish(m);
	ck_assert_uint_eq(m->served, 5);
	ck_assert_uint_eq(m->slo_violations, 3);
	ck_assert_uint_eq(m->waited, 2);
	ck_assert_uint_eq(m->timed_out, 1);
	ck_assert_uint_eq(m->unserved, 1);
	ck_assert_uint_eq(m->refused, 0);
	ck_assert_uint_eq(m->slo_wait, 1);
	ck_assert_uint_eq(m->slo_service + m->slo_slowed, 0);
	ck_assert_uint_eq(m->requests_interrupted, 1);
	ck_assert_uint_eq(m->windows_breached, 0);
	ck_assert_int_eq(meter_emit_hours(m), STATUS_OK);
	ck_assert_int_eq(cap->nhours, 2);
	ck_assert_uint_eq(cap->hours[0].requests, 3);
	ck_assert_uint_eq(cap->hours[0].violations, 1);
	ck_assert_uint_eq(cap->hours[1].requests, 4);
	ck_assert_uint_eq(cap->hours[1].violations, 2);
	/* each hour's percentiles are of its own served latencies (buckets 2% wide): hour 0 {1, 10, 15} s,
	 * p50 10 and p99 15; hour 1 {1, 1} s */
	ck_assert_double_eq_tol(cap->hours[0].latency_p50_s, 10, 0.2);
	ck_assert_double_eq_tol(cap->hours[0].latency_p99_s, 15, 0.3);
	ck_assert_double_eq_tol(cap->hours[1].latency_p50_s, 1, 0.02);
	ck_assert_double_eq_tol(cap->hours[1].latency_p99_s, 1, 0.02);
	meter_fini(m);
	free(m);
	free(cap);
}
END_TEST

/* A run that failed hands no hourly rows to the sink: meter_emit_hours returns the failure and the sink
 * sees none (the 2 hours of a run that had succeeded would be rows). */
START_TEST(failed_run_emits_no_hours)
{
	struct capture *cap = calloc(1, sizeof *cap);
	struct diag d = { "" };
	struct meter *m = calloc(1, sizeof *m);

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(cap);
	ck_assert_int_eq(meter_init(m, capture_sink(cap), &d, 10 * SIM_US_PER_S, 8, 1, 2 * H, 0, 60 * SIM_US_PER_S),
			 STATUS_OK);
	meter_served(m, 100 * SIM_US_PER_S, 90 * SIM_US_PER_S, 0, 10 * SIM_US_PER_S, -1, 10 * SIM_US_PER_S);
	meter_close(m, 2 * H);
	meter_finish(m);
	meter_fail(m, STATUS_ENOMEM);
	ck_assert_int_eq(meter_emit_hours(m), STATUS_ENOMEM);
	ck_assert_int_eq(cap->nhours, 0);
	meter_fini(m);
	free(m);
	free(cap);
}
END_TEST

/*
 * meter_hour_end is the end of the clock hour holding t (the first clock hour mark past it): with the
 * run's start on the hour, 0 -> 1 h, 1 h - 1 us -> 1 h, exactly 1 h -> 2 h. With t = 0 lying 15 min past
 * the hour mark (phase 900 s), the mark 45 min later ends hour 0: 0 -> 2700 s, 2700 s -> 6300 s.
 */
START_TEST(hour_end_is_the_next_mark)
{
	struct capture cap = { 0 };
	struct diag d = { "" };
	struct meter *m = calloc(1, sizeof *m);

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(meter_init(m, capture_sink(&cap), &d, 10 * SIM_US_PER_S, 8, 1, 3 * H, 0, 60 * SIM_US_PER_S),
			 STATUS_OK);
	ck_assert_int_eq(meter_hour_end(m, 0), H);
	ck_assert_int_eq(meter_hour_end(m, H - 1), H);
	ck_assert_int_eq(meter_hour_end(m, H), 2 * H);
	meter_fini(m);
	ck_assert_int_eq(meter_init(m, capture_sink(&cap), &d, 10 * SIM_US_PER_S, 8, 1, 3 * H, 900 * SIM_US_PER_S,
				    60 * SIM_US_PER_S),
			 STATUS_OK);
	ck_assert_int_eq(meter_hour_end(m, 0), 2700 * SIM_US_PER_S);
	ck_assert_int_eq(meter_hour_end(m, 2700 * SIM_US_PER_S), 6300 * SIM_US_PER_S);
	meter_fini(m);
	free(m);
}
END_TEST

/*
 * The floor of the SLO: measured arrivals whose service time alone is over slo.latency_s (10 s) and over
 * each stated latency percentile threshold (p99 at 5 s here). Arrivals alone 4, 5, 6 and 11 s after the
 * warm-up (60 s), and one of 20 s before it (not measured): the rule is alone > threshold, so 5 s is not
 * over the p99's 5 s: floor_pct[p99] = 2 (6 and 11 s), floor_count = 1 (11 s), the p50 (none stated) 0.
 */
START_TEST(slo_floor_counts_arrivals_over_each_threshold)
{
	struct capture cap = { 0 };
	struct diag d = { "" };
	struct meter *m = calloc(1, sizeof *m);
	struct meter_slo slo = { .max_violation_rate = -1 };
	const int64_t S = SIM_US_PER_S;

	ck_assert_ptr_nonnull(m);
	slo.latency_pct_us[3] = 5 * S;
	ck_assert_int_eq(meter_init(m, capture_sink(&cap), &d, 10 * S, 8, 1, 2 * H, 0, 60 * S), STATUS_OK);
	meter_set_warmup(m, 60 * S);
	meter_set_slo(m, &slo);
	meter_arrival(m, 30 * S, 20 * S);
	meter_arrival(m, 60 * S, 4 * S);
	meter_arrival(m, 70 * S, 5 * S);
	meter_arrival(m, 80 * S, 6 * S);
	meter_arrival(m, 90 * S, 11 * S);
	ck_assert_uint_eq(m->arrivals, 5);
	ck_assert_uint_eq(m->requests, 4);
	ck_assert_uint_eq(m->floor_count, 1);
	ck_assert_uint_eq(m->floor_pct[3], 2);
	ck_assert_uint_eq(m->floor_pct[0], 0);
	meter_fini(m);
	free(m);
}
END_TEST

/*
 * A bill line split by jobs_share (>= 0: the jobs' share, the rest serving's; < 0: all to the payer's user).
 * $100 of on-demand over hour 0: with jobs_share exactly 0 the jobs' user pays none of it, serving all
 * $100; with 0.25 the jobs $25 and serving $75 (total $125 for both lines, serving $175).
 */
START_TEST(bill_split_at_jobs_share_zero)
{
	struct capture *cap = calloc(1, sizeof *cap);
	struct diag d = { "" };
	struct meter *m = calloc(1, sizeof *m);
	const struct meter_payer none = { .user = 1, .type = 0, .jobs_share = 0 };
	const struct meter_payer quarter = { .user = 1, .type = 0, .jobs_share = 0.25 };

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(cap);
	ck_assert_int_eq(meter_init(m, capture_sink(cap), &d, 10 * SIM_US_PER_S, 8, 1, 2 * H, 0, 60 * SIM_US_PER_S),
			 STATUS_OK);
	meter_set_prices(m, 1795996800LL * SIM_US_PER_S, 100);
	meter_bill(m, &none, OPTION_ON_DEMAND, CHARGE_USAGE, 0, (double)H, 1, 100, 100);
	meter_bill(m, &quarter, OPTION_ON_DEMAND, CHARGE_USAGE, 0, (double)H, 1, 100, 100);
	meter_close(m, 2 * H);
	meter_finish(m);
	ck_assert_int_eq(meter_emit_bill(m), STATUS_OK);
	ck_assert_double_eq_tol(cap->charge_use_effective[1][OPTION_ON_DEMAND], 25, TOL);
	ck_assert_double_eq_tol(cap->charge_use_effective[0][OPTION_ON_DEMAND], 175, TOL);
	meter_fini(m);
	free(m);
	free(cap);
}
END_TEST

/*
 * A line of no length (t0 == t1: an upfront fee, dated at one instant) falls whole in the clock hour holding
 * that instant, also exactly at an hour's mark (meter_bill: the last hour of [t0, t1) is the one holding
 * t1 - 1 us only when t1 > t0). A $300 Capacity Block fee:
 *   on a 2 h run from a whole hour (phase 0): dated at t = 1 h, the mark between hours 0 and 1: hour 1's
 *   line gets $300, hour 0's none; dated at t = 1 h - 1 us: hour 0's.
 *   on a 2 h run starting 15 min past an hour (phase 900 s, clock hours 0..2): dated at t = 2700 s, the
 *   mark of clock hour 1: hour 1's line.
 * The bill handed to the sink: one line of $300 each time.
 */
START_TEST(instant_fee_at_an_hour_mark_bills_that_hour)
{
	static const struct {
		int64_t phase_us, at_us;
		int hour;
	} cases[] = { { 0, H, 1 }, { 0, H - 1, 0 }, { 900 * SIM_US_PER_S, 2700 * SIM_US_PER_S, 1 } };
	const struct meter_payer serving = METER_PAYER_SERVING;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct capture *cap = calloc(1, sizeof *cap);
		struct diag d = { "" };
		struct meter *m = calloc(1, sizeof *m);

		ck_assert_ptr_nonnull(m);
		ck_assert_ptr_nonnull(cap);
		ck_assert_int_eq(meter_init(m, capture_sink(cap), &d, 10 * SIM_US_PER_S, 8, 1, 2 * H, cases[i].phase_us,
					    60 * SIM_US_PER_S), STATUS_OK);
		meter_set_prices(m, 1795996800LL * SIM_US_PER_S + cases[i].phase_us, 100);
		meter_bill(m, &serving, OPTION_CAPACITY_BLOCK, CHARGE_UPFRONT, (double)cases[i].at_us,
			   (double)cases[i].at_us, 0, 300, 300);
		for (int h = 0; h < m->nhours; h++)
			ck_assert_double_eq_tol(
				m->bill[meter_bill_index(h, 0, OPTION_CAPACITY_BLOCK, CHARGE_UPFRONT)].effective_usd,
				h == cases[i].hour ? 300 : 0, TOL);
		meter_close(m, 2 * H);
		meter_finish(m);
		ck_assert_int_eq(meter_emit_bill(m), STATUS_OK);
		ck_assert_int_eq(cap->ncharges, 1);
		ck_assert_double_eq_tol(cap->charge_effective[OPTION_CAPACITY_BLOCK][CHARGE_UPFRONT], 300, TOL);
		meter_fini(m);
		free(m);
		free(cap);
	}
}
END_TEST

/*
 * TPOT is measured for the requests that arrive from the warmup's end on, the instant itself included, as
 * every other measured figure (meter_arrival: arrival_us < warmup is not measured). Warmup 60 s, TPOT SLO
 * 0.09 s; three requests with TPOT 0.1 s (each over the SLO) arriving at 59.999999 s, 60 s and 61 s: the
 * first is not measured, the other two are: 2 TPOTs (mean 0.1 s), 2 TPOT violations.
 */
START_TEST(tpot_measured_from_the_warmup_instant)
{
	struct capture cap = { 0 };
	struct diag d = { "" };
	struct meter *m = calloc(1, sizeof *m);
	const int64_t S = SIM_US_PER_S;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(meter_init(m, capture_sink(&cap), &d, 10 * S, 8, 1, 2 * H, 0, 60 * S), STATUS_OK);
	meter_set_warmup(m, 60 * S);
	meter_set_tokens(m, 90000, false);
	meter_tpot(m, 60 * S - 1, 100000);
	meter_tpot(m, 60 * S, 100000);
	meter_tpot(m, 61 * S, 100000);
	ck_assert_uint_eq(m->tpot.n, 2);
	ck_assert_uint_eq(m->tpot_violations, 2);
	ck_assert_double_eq_tol(hist_mean(&m->tpot), 0.1, 1e-9);
	meter_fini(m);
	free(m);
}
END_TEST

/*
 * SLO windows on a zone's clock at a change forward (meter_window.c), on a table made by hand: New York's
 * 2026 spring change alone, UTC-5 (EST) until 2026-03-08T07:00:00Z (unix 1772953200; local 02:00 EST), UTC-4
 * (EDT) from then on. The run starts at local midnight, 05:00 UTC (unix 1772946000), for 23 h (to local
 * midnight EDT), 1 h windows. Window K0 = 1772928000 / 3600 = 492480 is local 00:00-01:00 (the local epoch
 * hour of Mar 8 00:00); local 02:00-03:00 (K0 + 2) is jumped over.
 *   the window at run time 0 is K0; at 2 h - 1 us (06:59:59.999999 UTC, 01:59:59.999999 EST) K0 + 1; at 2 h
 *   (07:00 UTC, 03:00 EDT) K0 + 3.
 *   window K0 + 3 (03:00 EDT, the last segment of the table) starts at 07:00 UTC: run time 2 h; so does the
 *   jumped-over K0 + 2 (its local start lies in the jump: the first instant past it is the jump itself),
 *   which is the window after K0 + 1: a tally at 1.5 h (06:30 UTC) ends at 2 h.
 *   windows that occur over [0, 23 h): local hours 00-01 and 03-23, 2 + 21 = 23 (the clock skips one: K0 to
 *   K0 + 23 would be 24).
 */
START_TEST(windows_at_a_change_forward)
{
	static struct tzone tz;
	struct capture cap = { 0 };
	struct diag d = { "" };
	struct meter *m = calloc(1, sizeof *m);
	const int64_t K0 = 492480;

	ck_assert_ptr_nonnull(m);
	memset(&tz, 0, sizeof tz);
	tz.off0_s = -5 * 3600;
	tz.nchanges = 1;
	tz.at_s[0] = 1772953200;
	tz.off_s[0] = -4 * 3600;
	tz.dst[0] = true;
	ck_assert_int_eq(meter_init(m, capture_sink(&cap), &d, 10 * SIM_US_PER_S, 8, 1, 23 * H, 0, 60 * SIM_US_PER_S),
			 STATUS_OK);
	meter_set_prices(m, 1772946000LL * SIM_US_PER_S, 100);
	meter_set_slo(m, &(struct meter_slo){ .max_violation_rate = 0, .window_us = H, .tz = &tz });
	ck_assert_int_eq(meter_window_of(m, 0), K0);
	ck_assert_int_eq(meter_window_of(m, 2 * H - 1), K0 + 1);
	ck_assert_int_eq(meter_window_of(m, 2 * H), K0 + 3);
	ck_assert_int_eq(meter_window_start(m, K0 + 3), 2 * H);
	ck_assert_int_eq(meter_window_start(m, K0 + 2), 2 * H);
	ck_assert_int_eq(meter_window_start(m, K0 + 1), H);
	ck_assert_int_eq(meter_tally_end(m, 3 * H / 2), 2 * H);
	ck_assert_double_eq(meter_window_count(m), 23);
	meter_fini(m);
	free(m);
}
END_TEST

/*
 * The same on a full table (TZONE_CHANGES_MAX = 256 changes, each forward by 1 min, every hour from
 * T0 = 2026-01-01T00:00:00Z: change i at T0 + i h to UTC+(i + 1) min): times in order through every change
 * (meter_window_next's kept segment) find the window the search finds, up to the last segment, which
 * reaches to the end of time; there, at T0 + 256 h (the run starts at T0) the local time is T0 + 256 h +
 * 256 min: window T0 / 3600 + 260 = 490896 + 260 = 491156, and the next window, 491157, starts where local
 * time reaches T0 + 261 h: at T0 + 261 h - 256 min = run time 256 h 44 min.
 */
START_TEST(windows_on_a_full_zone_table)
{
	static struct tzone tz;
	struct capture cap = { 0 };
	struct diag d = { "" };
	struct meter *m = calloc(1, sizeof *m);
	const int64_t T0 = 1767225600, MIN = 60 * SIM_US_PER_S;

	ck_assert_ptr_nonnull(m);
	memset(&tz, 0, sizeof tz);
	tz.nchanges = TZONE_CHANGES_MAX;
	for (int i = 0; i < TZONE_CHANGES_MAX; i++) {
		tz.at_s[i] = T0 + 3600LL * i;
		tz.off_s[i] = 60 * (i + 1);
	}
	ck_assert_int_eq(meter_init(m, capture_sink(&cap), &d, 10 * SIM_US_PER_S, 8, 1, 300 * H, 0, 60 * SIM_US_PER_S),
			 STATUS_OK);
	meter_set_prices(m, T0 * SIM_US_PER_S, 100);
	meter_set_slo(m, &(struct meter_slo){ .max_violation_rate = 0, .window_us = H, .tz = &tz });
	for (int64_t t = 0; t <= 260 * H; t += 30 * MIN)
		ck_assert_int_eq(meter_window_next(m, t), meter_window_local(m, t));
	ck_assert_int_eq(meter_window_next(m, 256 * H + 1), 491156);
	ck_assert_int_eq(meter_window_start(m, 491157), 256 * H + 44 * MIN);
	meter_fini(m);
	free(m);
}
END_TEST

static Suite *meter_suite(void)
{
	Suite *s = suite_create("meter");
	TCase *tc = tcase_create("users");

	tcase_add_test(tc, plan_hours_split_by_who_used_them);
	tcase_add_test(tc, shared_hour_split_by_usage);
	tcase_add_test(tc, ri_hours_split_by_who_used_them);
	test_add(tc, request_counters_hours_and_windows);
	test_add(tc, hour_end_is_the_next_mark);
	test_add(tc, failed_run_emits_no_hours);
	test_add(tc, slo_floor_counts_arrivals_over_each_threshold);
	test_add(tc, bill_split_at_jobs_share_zero);
	test_add(tc, instant_fee_at_an_hour_mark_bills_that_hour);
	test_add(tc, tpot_measured_from_the_warmup_instant);
	test_add(tc, windows_at_a_change_forward);
	test_add(tc, windows_on_a_full_zone_table);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(meter_suite());
}
