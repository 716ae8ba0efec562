/*
 * check_capacity: every purchase option in whole runs, against figures computed by hand (in the comments):
 * reserved terms and amortised upfront payments, ODCR, Savings Plans (used and unused commitment), Spot at
 * a price that changes mid-instance, Spot interruptions at a rate (Poisson) and from a trace (at its ticks),
 * the free first hour of an interrupted Spot instance, billing at the window's edges,
 * Capacity Blocks (window, 30-minute termination, billing at the window's edges), quotas and insufficient
 * capacity, interrupted requests (requeue and drop), and the mixed-instances allocation.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

#define CENT 0.005

static struct capture cap;
static char yaml[8192];

static void run_yaml(const char *text, const char *const *sets, int nsets)
{
	capture_run(&cap, text, sets, nsets);
}

static double M(const char *name)
{
	double v = capture_metric(&cap, name);
	ck_assert_msg(!isnan(v), "metric %s missing or NaN", name);
	return v;
}

/* A light load (1 request/s of 1 s on 8-slot p5.48xlarge) and a fleet given by the caller. */
static const char *light(const char *horizon, const char *fleet, const char *extra)
{
	snprintf(yaml, sizeof yaml,
		 "name: cap\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: %s\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 8, startup_s: 600}\n"
		 "fleet:\n%s%s", horizon, fleet, extra ? extra : "");
	return yaml;
}

/* ---- reserved ------------------------------------------------------------------------------------ */

START_TEST(reserved_all_upfront_is_amortised)
{
	/* p5.48xlarge 1y: E = 55.04 x (1 - 0.35) = 35.776 $/h, all of it up front: 35.776 x 8760 per
	 * instance. A 10 h window bears 2 x 35.776 x 10 = 715.52; the term still owes 2 x 35.776 x 8750. */
	run_yaml(light("10h", "  - {option: reserved, count: 2, term: 1y, payment: all_upfront}\n", NULL), NULL, 0);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 715.52, CENT);
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 2 * 35.776 * 8750, 0.05);
	ck_assert_double_eq_tol(M("commitment_utilization"), 1.0, 1e-12);
	ck_assert_double_eq_tol(M("commitment_coverage"), 1.0, 1e-12);
}
END_TEST

START_TEST(reserved_partial_upfront_same_effective_rate)
{
	/* partial: half up front (0.5 x 35.776 x 8760), half hourly (17.888): the window pays the same */
	run_yaml(light("10h", "  - {option: reserved, count: 2, term: 1y, payment: partial_upfront}\n", NULL),
		 NULL, 0);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 715.52, CENT);
	/* explicit prices: $20/h plus $87,600 up front = 20 + 10 = $30/h; 3 x 30 x 10 = 900 */
	const char *sets[] = { "fleet.0.usd_per_h=20", "fleet.0.upfront_usd=87600", "fleet.0.count=3" };
	run_yaml(light("10h", "  - {option: reserved, count: 2, term: 1y, payment: partial_upfront}\n", NULL),
		 sets, 3);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 900.00, CENT);
}
END_TEST

START_TEST(reserved_term_ending_inside_the_window)
{
	/* term started 8755 h before the window: 5 h inside the term at 35.776, then 5 h On-Demand at
	 * 55.04 (RIs do not renew). 2 instances: reserved 357.76, on-demand 550.40. */
	run_yaml(light("10h", "  - {option: reserved, count: 2, term: 1y, term_start: 2025-01-01T05:00:00Z}\n",
		       NULL), NULL, 0);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 357.76, CENT);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 550.40, CENT);
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 0, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 2 * 8 * 10.0, 1e-9);
}
END_TEST

START_TEST(reserved_without_term_is_one_year)
{
	/* no `term`: a 1-year no-upfront term from `start`. 2 x 35.776 x 10 h = 715.52 in the window, and
	 * the term still owes 2 x 35.776 x (8760 - 10) = 626,080.00 after it */
	run_yaml(light("10h", "  - {option: reserved, count: 2}\n", NULL), NULL, 0);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 715.52, CENT);
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 626080.00, 0.05);
}
END_TEST

/* ---- ODCR and Savings Plans ---------------------------------------------------------------------- */

START_TEST(odcr_paid_whether_used_or_not)
{
	/* 3 reserved slots at $20/h for 10 h: $600, and 3 x 8 x 10 = 240 paid GPU-hours; the instances
	 * running in it cost nothing more */
	run_yaml(light("10h", "  - {option: odcr, count: 3, usd_per_h: 20}\n", NULL), NULL, 0);
	ck_assert_double_eq_tol(M("cost_odcr_usd"), 600.00, CENT);
	ck_assert_double_eq_tol(M("gpu_hours_paid_odcr"), 240.0, 1e-9);
	ck_assert_double_eq_tol(M("cost_total_usd"), 600.00, CENT);
}
END_TEST

START_TEST(savings_plan_covers_then_on_demand)
{
	/* one on-demand p5 for 10 h = $55.04/h of usage. Commitment $30/h at 30% off covers
	 * 30 / 0.7 = 42.857 $/h of it; the other 12.183 $/h is On-Demand. Per hour 30 + 12.183 = 42.183. */
	run_yaml(light("10h", "  - {option: on_demand, count: 1, max: 1}\n"
			      "  - {option: savings_plan, commit_usd_per_h: 30, discount: 0.3}\n", NULL), NULL, 0);
	ck_assert_double_eq_tol(M("cost_savings_plan_usd"), 300.00, CENT);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), (55.04 - 30 / 0.7) * 10, CENT);
	ck_assert_double_eq_tol(M("cost_total_usd"), 300 + (55.04 - 30 / 0.7) * 10, CENT);
	ck_assert_double_eq_tol(M("commitment_unused_usd"), 0, 1e-9);
	ck_assert_double_eq_tol(M("commitment_utilization"), 1.0, 1e-12);
	ck_assert_double_eq_tol(M("commitment_coverage"), (30 / 0.7) / 55.04, 1e-12);
}
END_TEST

START_TEST(savings_plan_unused_commitment)
{
	/* commitment $100/h, usage 55.04 x 0.7 = 38.528 $/h at SP rates: 61.472 $/h lost, 10 h -> 614.72 */
	run_yaml(light("10h", "  - {option: on_demand, count: 1, max: 1}\n"
			      "  - {option: savings_plan, commit_usd_per_h: 100, discount: 0.3}\n", NULL), NULL, 0);
	ck_assert_double_eq_tol(M("cost_savings_plan_usd"), 1000.00, CENT);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 0, CENT);
	ck_assert_double_eq_tol(M("commitment_unused_usd"), 614.72, CENT);
	ck_assert_double_eq_tol(M("commitment_utilization"), 0.38528, 1e-9);
	/* a 1-year plan starting with the window still owes 100 x (8760 - 10) */
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 100.0 * 8750, 0.01);
}
END_TEST

/* One $10/h g6.xlarge on demand from t = 0 and a second from 01:00 UTC (a scheduled min of 2), and a
 * Savings Plan of $7/h at 50% off (it covers $14/h of On-Demand usage); the window starts at `start`. */
static const char *plan_from(const char *start)
{
	snprintf(yaml, sizeof yaml,
		 "name: sphour\nstart: %s\nhorizon: 2h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
		 "fleet:\n  - {option: on_demand, count: 1, max: 2, usd_per_h: 10}\n"
		 "  - {option: savings_plan, commit_usd_per_h: 7, discount: 0.5}\n"
		 "autoscaling:\n  policy: none\n  schedule: [{at: 2026-01-01T01:00:00Z, min: 2}]\n", start);
	return yaml;
}

START_TEST(savings_plan_settles_by_clock_hour)
{
	/* start 00:30, horizon 2 h: the window touches the clock hours 00:00, 01:00 and 02:00
	 * (SOURCES.md [sp-clock-hour]: the plan settles each hour of the bill), the first and last for half an
	 * hour each.
	 *   00:30-01:00 (0.5 h): usage 1 x 10 x 0.5 = $5; commitment 7 x 0.5 = 3.50; 5 x 0.5 = 2.50 used,
	 *                        1.00 lost, nothing On-Demand.
	 *   01:00-02:00 (1 h):   usage 2 x 10 = $20; commitment 7 covers 14; $6 On-Demand.
	 *   02:00-02:30 (0.5 h): usage 2 x 10 x 0.5 = $10; commitment 3.50 covers 7; $3 On-Demand.
	 * Commitment 14.00, of which 1.00 unused; On-Demand 9.00; total 23.00; covered 5 + 14 + 7 = 26 of
	 * 5 + 20 + 10 = 35 eligible. (Counting hours from the start instead, 00:30-01:30 has $15 of usage
	 * and 01:30-02:30 $20: nothing unused and $1 + $6 = $7 On-Demand.) */
	run_yaml(plan_from("2026-01-01T00:30:00Z"), NULL, 0);
	ck_assert_int_eq(capture_find(&cap, "launch", 0)->count, 1);
	ck_assert_double_eq_tol(capture_find(&cap, "launch", 0)->t_s, 1800, 1e-9);
	ck_assert_double_eq_tol(M("cost_savings_plan_usd"), 14.00, CENT);
	ck_assert_double_eq_tol(M("commitment_unused_usd"), 1.00, CENT);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 9.00, CENT);
	ck_assert_double_eq_tol(M("cost_total_usd"), 23.00, CENT);
	ck_assert_double_eq_tol(M("commitment_coverage"), 26.0 / 35.0, 1e-9);
	ck_assert_double_eq_tol(M("commitment_utilization"), 13.0 / 14.0, 1e-9);
	/* started at 00:00 the window is two whole clock hours: 00:00-01:00 has $10 of usage, $5 at SP rates
	 * against $7 ($2 lost); 01:00-02:00 $20 ($6 On-Demand) */
	run_yaml(plan_from("2026-01-01T00:00:00Z"), NULL, 0);
	ck_assert_double_eq_tol(capture_find(&cap, "launch", 0)->t_s, 3600, 1e-9);
	ck_assert_double_eq_tol(M("commitment_unused_usd"), 2.00, CENT);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 6.00, CENT);
}
END_TEST

/* $10/h g6.xlarge: one on demand, an ODCR of two with one instance in it (min = max = 2 capacity), and a
 * Savings Plan of commit_usd_per_h (set by the caller) at 50% off. */
static const char odcr_plan[] =
	"name: spodcr\nhorizon: 2h\nslo: {latency_s: 10}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
	"serving: {instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
	"fleet:\n  - {option: on_demand, count: 1, max: 1, usd_per_h: 10}\n"
	"  - {option: odcr, count: 2, usd_per_h: 10}\n"
	"  - {option: savings_plan, commit_usd_per_h: 7.5, discount: 0.5}\n"
	"autoscaling: {policy: target_tracking, target: 0.7, min: 2, max: 2}\n";

START_TEST(savings_plan_covers_odcr_used_capacity_first)
{
	/* each hour: $10 on-demand usage, $10 of ODCR an instance runs in, $10 of ODCR nobody runs in.
	 * SOURCES.md [sp-odcr]: plans "apply to CRs (used capacity first)". $7.50/h at 50% off covers $15 an
	 * hour: the $10 on-demand, then $5 of the used ODCR. 2 h: on-demand 0, plan 15.00, ODCR 2 x (20 - 5)
	 * = 30.00, total 45.00; coverage 30 / 60 = 0.5; nothing unused. */
	run_yaml(odcr_plan, NULL, 0);
	ck_assert_double_eq_tol(M("gpu_hours_paid_odcr"), 2 * 2.0, 1e-9);  /* g6.xlarge: 1 GPU */
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 0.00, CENT);
	ck_assert_double_eq_tol(M("cost_savings_plan_usd"), 15.00, CENT);
	ck_assert_double_eq_tol(M("cost_odcr_usd"), 30.00, CENT);
	ck_assert_double_eq_tol(M("cost_total_usd"), 45.00, CENT);
	ck_assert_double_eq_tol(M("commitment_unused_usd"), 0.00, CENT);
	ck_assert_double_eq_tol(M("commitment_coverage"), 0.5, 1e-9);
	/* $20/h covers $40 an hour: all $30 (the unused reservation last), $15 at SP rates, $5 lost. 2 h:
	 * plan 40.00, ODCR 0, unused 10.00, utilization 30 / 40 = 0.75, coverage 1 */
	const char *sets[] = { "fleet.2.commit_usd_per_h=20" };
	run_yaml(odcr_plan, sets, 1);
	ck_assert_double_eq_tol(M("cost_savings_plan_usd"), 40.00, CENT);
	ck_assert_double_eq_tol(M("cost_odcr_usd"), 0.00, CENT);
	ck_assert_double_eq_tol(M("cost_total_usd"), 40.00, CENT);
	ck_assert_double_eq_tol(M("commitment_unused_usd"), 10.00, CENT);
	ck_assert_double_eq_tol(M("commitment_utilization"), 0.75, 1e-9);
	ck_assert_double_eq_tol(M("commitment_coverage"), 1.0, 1e-9);
}
END_TEST

/* ---- Spot ---------------------------------------------------------------------------------------- */

START_TEST(spot_price_changes_mid_instance)
{
	/* g6.xlarge Spot from a price history: $0.10 until 00:30, $0.30 after. One instance for the 1 h
	 * window: 0.5 x 0.10 + 0.5 x 0.30 = $0.20 */
	char fleet[512];
	snprintf(fleet, sizeof fleet, "  - {option: spot, count: 1, max: 1, price_trace: %s/capacity/prices.txt}\n",
		 TEST_DATA_DIR);
	snprintf(yaml, sizeof yaml,
		 "name: spotprice\nstart: 2026-01-01T00:00:00Z\nhorizon: 1h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge}\nfleet:\n%s", fleet);
	run_yaml(yaml, NULL, 0);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 0.20, 1e-9);
	ck_assert_double_eq(M("spot_interruptions"), 0);
}
END_TEST

START_TEST(spot_trace_capped_at_on_demand)
{
	/* Spot never costs more than On-Demand (SOURCES.md [spot-max-od]): g6.xlarge (On-Demand $0.8048/h)
	 * from a history of $0.50 until 00:30, $1.20 from 00:30 and $0.90 from 00:45; both later prices are
	 * capped at 0.8048.
	 * One instance for the 1 h window: 0.5 x 0.50 + 0.25 x 0.8048 + 0.25 x 0.8048 = $0.6524 (uncapped:
	 * 0.25 + 0.30 + 0.225 = $0.775). */
	char fleet[512];
	snprintf(fleet, sizeof fleet, "  - {option: spot, count: 1, price_trace: %s/capacity/prices_above_od.txt}\n",
		 TEST_DATA_DIR);
	snprintf(yaml, sizeof yaml,
		 "name: spotcap\nstart: 2026-01-01T00:00:00Z\nhorizon: 1h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge}\nfleet:\n%s", fleet);
	run_yaml(yaml, NULL, 0);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 0.6524, 1e-9);
}
END_TEST

START_TEST(spot_fixed_discount)
{
	/* 2 g6.xlarge at 0.8048 x (1 - 0.6) = 0.32192 $/h for 5 h = $3.2192 */
	snprintf(yaml, sizeof yaml,
		 "name: spotfixed\nhorizon: 5h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge}\nfleet:\n  - {option: spot, count: 2, max: 2, discount: 0.6}\n");
	run_yaml(yaml, NULL, 0);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 2 * 0.8048 * 0.4 * 5, 1e-9);
}
END_TEST

START_TEST(spot_interruptions_follow_the_rate)
{
	/*
	 * 100 Spot instances, 0.05 interruptions per instance-hour, 200 h. Each notice launches a
	 * replacement at once (max 200 leaves room beside the draining one), so 100 instances are always
	 * exposed: rate x instance-hours = 0.05 x 100 x 200 = 1000. The count is Poisson(1000): the test
	 * allows 4 sd = 4 x sqrt(1000) = 126.5 (a false alarm about 6e-5); a rate off by 20% is caught.
	 */
	uint64_t seed = test_seed("spot_rate", 17);
	char s_seed[48];
	const char *sets[] = { s_seed };
	snprintf(s_seed, sizeof s_seed, "seed=%llu", (unsigned long long)seed);
	snprintf(yaml, sizeof yaml,
		 "name: spotrate\nhorizon: 200h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, startup_s: 60}\n"
		 "fleet:\n  - {option: spot, count: 100, max: 200, interruptions_per_hour: 0.05}\n");
	run_yaml(yaml, sets, 1);
	double n = M("spot_interruptions"), expect = 0.05 * 100 * 200;
	fprintf(stderr, "spot interruptions %g, expected %g +- %g\n", n, expect, 4 * sqrt(expect));
	ck_assert_double_le(fabs(n - expect), 4 * sqrt(expect));
	ck_assert_double_lt(4 * sqrt(expect), 0.2 * expect);
	/* the instance-hours really were ~20000: paid Spot GPU-hours (1 GPU each) within 2% */
	ck_assert_double_eq_tol(M("gpu_hours_paid_spot"), 20000, 400);
}
END_TEST

START_TEST(spot_trace_interrupts_at_its_ticks)
{
	/*
	 * The availability trace (600 s ticks) shows 4, 4, 2, 2, 0, 4...: 2 notices at 1200 s, 2 more at
	 * 2400 s, each taken 120 s later; replacements come from the on-demand entry after the spot one.
	 */
	const struct capture_event *e;
	char fleet[512];
	snprintf(fleet, sizeof fleet,
		 "  - {option: spot, count: 4, max: 8, availability_trace: %s/capacity/avail_ticks.json}\n"
		 "  - {option: on_demand, max: 4}\n", TEST_DATA_DIR);
	run_yaml(light("2h", fleet, NULL), NULL, 0);
	ck_assert_double_eq(M("spot_interruptions"), 4);
	ck_assert_int_eq(capture_count(&cap, "interrupt"), 4);
	for (int i = 0; i < 4; i++) {
		e = capture_find(&cap, "interrupt", i);
		ck_assert_double_eq_tol(e->t_s, i < 2 ? 1200 : 2400, 1e-9);
		ck_assert_str_eq(e->option, "spot");
	}
	/*
	 * Each is taken notice_s = 120 s after its notice (SOURCES.md [spot-notice-2min]) unless it finishes
	 * its requests first (a drained instance goes at once). The load (1 request/s of 1 s) sits on the
	 * first instance in fleet order and notices go to the newest: the two noticed at 1200 s are idle and
	 * go at 1200 + 120 = 1320 s; at 2400 s the last two are noticed, the idle one goes at 2520 s, the
	 * loaded one when its request ends, at most 1 s later (2400 s here, its request ending then).
	 */
	int at_notice_end = 0;
	ck_assert_int_eq(capture_count(&cap, "terminate"), 4);
	for (int i = 0; i < 4; i++) {
		double noticed = i < 2 ? 1200 : 2400, t = capture_find(&cap, "terminate", i)->t_s;
		ck_assert_double_ge(t, noticed);
		ck_assert_double_le(t, noticed + 120 + 1e-9);
		at_notice_end += fabs(t - (noticed + 120)) < 1e-9;
	}
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 1320, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 1)->t_s, 1320, 1e-9);
	ck_assert_int_eq(at_notice_end, 3);
	/* spot relaunches fail while the trace shows no room; the on-demand entry stands in */
	ck_assert(M("launch_failures") >= 1);
	ck_assert(M("cost_on_demand_usd") > 0);
	ck_assert_double_eq(M("requests_dropped"), 0);
	/* notice_s set: the idle ones noticed at 1200 s go at 1200 + 300 = 1500 s */
	const char *notice[] = { "fleet.0.notice_s=300" };
	run_yaml(light("2h", fleet, NULL), notice, 1);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 1500, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 1)->t_s, 1500, 1e-9);
}
END_TEST

START_TEST(interrupted_requests_requeue_or_drop)
{
	/* Long requests (300 s) on Spot instances interrupted often: in-flight work is either put back in
	 * the queue (everything still served) or dropped (counted, and violating the SLO). An async endpoint,
	 * so that a moment with every instance interrupted queues the arrivals rather than refusing them. */
	const char *fleet = "  - {option: spot, count: 4, max: 8, interruptions_per_hour: 2}\n"
			    "  - {option: on_demand, max: 8}\n";
	const char *sets_req[] = { "workload.service.mean_s=300", "serving.on_interrupt=requeue",
				   "serving.endpoint=async" };
	const char *sets_drop[] = { "workload.service.mean_s=300", "serving.on_interrupt=drop",
				    "serving.endpoint=async" };

	run_yaml(light("6h", fleet, NULL), sets_req, 3);
	ck_assert(M("requests_interrupted") > 0);
	ck_assert_double_eq(M("requests_dropped"), 0);
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
	run_yaml(light("6h", fleet, NULL), sets_drop, 3);
	ck_assert(M("requests_interrupted") > 0);
	ck_assert_double_eq(M("requests_interrupted_dropped"), M("requests_interrupted"));
	ck_assert_double_eq(M("requests_served") + M("requests_dropped"), M("requests_total"));
	ck_assert(M("slo_violations") >= M("requests_interrupted"));
}
END_TEST

/* A Spot-only fleet of 4 g6.xlarge (max 8) under a light load, with pool reclaims as given. */
static const char *reclaim_pool(const char *horizon, const char *reclaims)
{
	snprintf(yaml, sizeof yaml,
		 "name: reclaim\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: %s\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, startup_s: 60}\n"
		 "fleet:\n  - {option: spot, count: 4, max: 8, %s}\n", horizon, reclaims);
	return yaml;
}

START_TEST(spot_pool_reclaims_take_a_fraction_and_close_the_pool)
{
	/*
	 * Each reclaim gives a notice to ceil(reclaim_fraction x running) instances, newest first, and closes
	 * the pool for an exponential time of mean outage_mean_s (SOURCES.md [spot-pool-reclaims]). With a
	 * mean outage of 300 days the pool never reopens in 2 days (each draw is under 2 days with probability
	 * 1 - exp(-2/300) = 0.7%), so the running count only falls: 4, then 4 - ceil(0.5 x 4) = 2, then
	 * 2 - ceil(0.5 x 2) = 1, then 1 - ceil(0.5 x 1) = 0: the reclaims take 2, 1, 1, then 0 (4 a day, about
	 * 8 in 2 days: this seed has at least 3). spot_interruptions = 2 + 1 + 1 = 4; each is taken 120 s
	 * after its reclaim.
	 */
	int running = 4, taken = 0, n;

	run_yaml(reclaim_pool("2d", "reclaims_per_day: 4, reclaim_fraction: 0.5, outage_mean_s: 300d"), NULL, 0);
	n = capture_count(&cap, "spot_reclaim");
	ck_assert_int_ge(n, 3);
	ck_assert_int_eq(capture_count(&cap, "launch"), 0);  /* the pool never reopened */
	for (int i = 0; i < n; i++) {
		int k = (int)ceil(0.5 * running);
		ck_assert_int_eq(capture_find(&cap, "spot_reclaim", i)->count, k);
		running -= k;
		taken += k;
	}
	ck_assert_int_eq(taken, 4);
	ck_assert_double_eq(M("spot_interruptions"), 4);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 4);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s,
				capture_find(&cap, "spot_reclaim", 0)->t_s + 120, 1e-6);
	/*
	 * The launch-retry backoff (SOURCES.md [launch-retry-backoff]): the replacements asked for at the
	 * first reclaim t1 fail (the pool is closed) and are retried after 30 s, then each wait doubles up to
	 * 600 s: failures at t1 + 0, 30, 90, 210, 450, 930, 1530, 2130 (waits 30, 60, 120, 240, 480, 600,
	 * 600), as long as no second reclaim comes first (this seed: the second is 10400 s later).
	 */
	const double at[] = { 0, 30, 90, 210, 450, 930, 1530, 2130 };
	double t1 = capture_find(&cap, "spot_reclaim", 0)->t_s;
	ck_assert_double_gt(capture_find(&cap, "spot_reclaim", 1)->t_s, t1 + 2130);
	for (int i = 0; i < 8; i++) {
		const struct capture_event *e = capture_find(&cap, "launch_failed", i);
		ck_assert_ptr_nonnull(e);
		ck_assert_double_eq_tol(e->t_s, t1 + at[i], 1e-6);
	}
}
END_TEST

START_TEST(spot_pool_reclaims_follow_their_rate_and_outage)
{
	/*
	 * 2 reclaims a day for 50 days: their count is Poisson(100); the test allows 4 sd = 40 (a rate off by
	 * half is caught). After each, the pool is closed for an exponential time of mean 1 h (the default
	 * outage_mean_s); the replacements, retried with the backoff above (waits up to 600 s), launch at the
	 * first retry after it reopens: the delay D from the reclaim to that launch is the outage plus at most
	 * 600 s. Counting only delays that end before the next reclaim (the next one is an exponential of mean
	 * 12 h away) conditions the outage to a mean of 1 / (1/1 h + 1/12 h) = 3323 s, so the mean of D lies
	 * in [3323, 3600 + 600 = 4200] s, give or take 4 standard errors of the mean, 4 x 3600 / sqrt(n) s.
	 */
	double sum = 0;
	int n = 0, nreclaims, nlaunch;

	uint64_t seed = test_seed("spot_reclaims", 3);
	char s_seed[48];
	const char *sets[] = { s_seed };
	snprintf(s_seed, sizeof s_seed, "seed=%llu", (unsigned long long)seed);
	run_yaml(reclaim_pool("50d", "reclaims_per_day: 2, reclaim_fraction: 0.5"), sets, 1);
	nreclaims = capture_count(&cap, "spot_reclaim");
	nlaunch = capture_count(&cap, "launch");
	ck_assert_int_le(abs(nreclaims - 100), 40);
	for (int i = 0; i < nreclaims; i++) {
		double t = capture_find(&cap, "spot_reclaim", i)->t_s;
		double next = i + 1 < nreclaims ? capture_find(&cap, "spot_reclaim", i + 1)->t_s : INFINITY;
		for (int j = 0; j < nlaunch; j++) {
			double l = capture_find(&cap, "launch", j)->t_s;
			if (l <= t)
				continue;
			if (l < next) {
				sum += l - t;
				n++;
			}
			break;
		}
	}
	double mean = sum / n, se = 3600 / sqrt(n);
	fprintf(stderr, "spot reclaims %d (expected 100 +- 40); mean delay to relaunch %.0f s over %d,"
		" expected in [%.0f, %.0f]\n", nreclaims, mean, n, 3323 - 4 * se, 4200 + 4 * se);
	ck_assert_int_ge(n, 50);
	ck_assert_double_ge(mean, 3323 - 4 * se);
	ck_assert_double_le(mean, 4200 + 4 * se);
}
END_TEST

/* ---- Capacity Blocks ----------------------------------------------------------------------------- */

START_TEST(block_serves_only_inside_its_window)
{
	/*
	 * A 1-day block of 2 instances from 11:30 (41400 s) to 11:30 next day (127800 s), in a 2-day window,
	 * beside 1 on-demand instance. Launched at 41400, serving 600 s later; drained at the expiration
	 * warning (127800 - 2400 = 125400) and gone by 127800 - 1800 = 126000.
	 */
	const struct capture_event *e;
	run_yaml(light("2d", "  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 2,"
			     " usd_per_h: 30}\n  - {option: on_demand, count: 1, max: 3}\n", NULL), NULL, 0);
	e = capture_find(&cap, "launch", 0);
	ck_assert_str_eq(e->option, "capacity_block");
	ck_assert_double_eq_tol(e->t_s, 41400, 1e-9);
	ck_assert_int_eq(e->count, 2);
	for (int i = 0; i < capture_count(&cap, "ready"); i++) {
		e = capture_find(&cap, "ready", i);
		if (strcmp(e->option, "capacity_block") == 0)
			ck_assert_double_eq_tol(e->t_s, 42000, 1e-9);
	}
	/* At the warning the idle instance goes at once and the loaded one (1 s requests, first in fleet
	 * order) as soon as its request ends: the one that arrived at 125399 s ends at 125400 s. Neither is
	 * still there at the termination (126000 s), so none counts in block_terminations. */
	int block_terms = 0;
	for (int i = 0; i < capture_count(&cap, "terminate"); i++) {
		e = capture_find(&cap, "terminate", i);
		if (strcmp(e->option, "capacity_block") != 0)
			continue;
		block_terms++;
		ck_assert_double_eq_tol(e->t_s, 125400, 1e-9);
	}
	ck_assert_int_eq(block_terms, 2);
	ck_assert_double_eq(M("block_terminations"), 0);
	e = capture_find(&cap, "block_expiring", 0);
	ck_assert_double_eq_tol(e->t_s, 125400, 1e-9);
	/* the whole block is in the window: 2 x $30 x 24 h = $1440; GPU-hours paid 2 x 8 x 24 */
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 1440.00, CENT);
	ck_assert_double_eq_tol(M("gpu_hours_paid_capacity_block"), 384, 1e-9);
	/* it served while open (first-fit puts the load on it, first in fleet order) ... */
	ck_assert(M("gpu_hours_busy_capacity_block") > 0);
	/* ... and the service went on from on-demand: every request served, none waited long */
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
	ck_assert_double_eq(M("slo_violations"), 0);
	/* the time series shows no block instance at the end */
	ck_assert_double_eq(cap.last_sample.instances[OPTION_CAPACITY_BLOCK], 0);
}
END_TEST

/*
 * Requests of 1500 s arrive every 1000 s (uniform, at 1000 k), one slot an instance. A 1-day block of 3
 * instances opens at 11:30 (41400 s), serves from 42050 s; 2 on-demand instances carry the rest. Fleet
 * order fills the block first: from request 43 on, each request takes the block's first free instance, so
 * they alternate between two of them and the third never serves. The block ends at 127800 s: warning at
 * 127800 - 2400 = 125400, termination at 127800 - 1800 = 126000. At the warning request 124 (124000 to
 * 125500) and request 125 (125000 to 126500) are in service on the block; the third instance is idle:
 *  - the idle one is released at the warning: terminated at 125400, not counted;
 *  - request 124's instance drains and is released at 125500, when its request ends: not counted;
 *  - request 125's instance still serves at 126000: taken away, its request requeued: block_terminations
 *    = 1, requests_interrupted = 1.
 * (Before, the idle instance waited for the termination and counted too: block_terminations was 2.)
 * The bill does not move: 3 x $30 x 24 h = $2160; GPU-hours paid 3 x 8 x 24 = 576. Busy on the block:
 * requests 43 to 124 whole (82 x 1500 s) and 1000 s of request 125, at 8 GPUs a slot:
 * 8 x (123000 + 1000) / 3600 = 275.5556 h; idle = 576 - 275.5556 = 300.4444 h (the released instances'
 * GPUs to the block's end are paid, and idle).
 */
START_TEST(block_idle_instances_released_at_the_warning)
{
	double t[3] = { 0 };
	int n = 0;

	snprintf(yaml, sizeof yaml,
		 "name: cap\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: 2d\nslo: {latency_s: 5000}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n"
		 "  service: {kind: constant, mean_s: 1500}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 1, startup_s: 650}\n"
		 "fleet:\n  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 3,"
		 " usd_per_h: 30}\n  - {option: on_demand, count: 2, max: 2}\n");
	run_yaml(yaml, NULL, 0);
	for (int i = 0; i < capture_count(&cap, "terminate"); i++) {
		const struct capture_event *e = capture_find(&cap, "terminate", i);
		if (strcmp(e->option, "capacity_block") != 0)
			continue;
		ck_assert_int_lt(n, 3);
		t[n++] = e->t_s;
	}
	ck_assert_int_eq(n, 3);
	ck_assert_double_eq_tol(t[0], 125400, 1e-9);
	ck_assert_double_eq_tol(t[1], 125500, 1e-9);
	ck_assert_double_eq_tol(t[2], 126000, 1e-9);
	ck_assert_double_eq(M("block_terminations"), 1);
	ck_assert_double_eq(M("requests_interrupted"), 1);
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 2160.00, CENT);
	ck_assert_double_eq_tol(M("gpu_hours_paid_capacity_block"), 576, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_busy_capacity_block"), 8 * 124000.0 / 3600, 1e-6);
	ck_assert_double_eq_tol(M("gpu_hours_idle_capacity_block"), 576 - 8 * 124000.0 / 3600, 1e-6);
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
}
END_TEST

/*
 * Requests long enough to be cut: 3500 s each, one every 1000 s (uniform, at 1000 k), one slot an instance,
 * on a 1-day block of 4 instances (11:30 to 11:30, 41400 to 127800 s, serving from 42050 s) that takes
 * the load first, beside 5 on-demand instances. At most 4 requests are in service at once (those that
 * arrived in the last 3500 s), so the block holds them all. At the warning (127800 - 2400 = 125400 s) the
 * requests that arrived at 122000, 123000, 124000 and 125000 s are in service on the block, one each:
 *  - 122000's ends at 125500: its instance is released then, not counted;
 *  - 123000's, 124000's and 125000's would end at 126500, 127500, 128500: still there at the termination,
 *    127800 - 1800 = 126000 s exactly (SOURCES.md [cb-expiry-30min]), their instances taken away then:
 *    block_terminations = 3, requests_interrupted = 3 (requeued, then served on on-demand).
 * Bill: 4 x $30 x 24 h = $2880, whatever the terminations.
 */
START_TEST(block_cuts_busy_instances_30_min_before_the_end)
{
	double t[4] = { 0 };
	int n = 0;

	snprintf(yaml, sizeof yaml,
		 "name: cap\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: 2d\nslo: {latency_s: 5000}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n"
		 "  service: {kind: constant, mean_s: 3500}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 1, startup_s: 650}\n"
		 "fleet:\n  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 4,"
		 " usd_per_h: 30}\n  - {option: on_demand, count: 5, max: 5}\n");
	run_yaml(yaml, NULL, 0);
	for (int i = 0; i < capture_count(&cap, "terminate"); i++) {
		const struct capture_event *e = capture_find(&cap, "terminate", i);
		if (strcmp(e->option, "capacity_block") != 0)
			continue;
		ck_assert_int_lt(n, 4);
		t[n++] = e->t_s;
	}
	ck_assert_int_eq(n, 4);
	ck_assert_double_eq_tol(t[0], 125500, 1e-9);
	for (int i = 1; i < 4; i++)
		ck_assert_double_eq_tol(t[i], 127800 - 1800, 1e-9);
	ck_assert_double_eq(M("block_terminations"), 3);
	ck_assert_double_eq(M("requests_interrupted"), 3);
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 2880.00, CENT);
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
}
END_TEST

/*
 * A block that starts at 14:00 (50400 s) and ends at 11:30 the next day (127800 s): the offering just under
 * 1 day, 21.5 h long. Launched at 50400, serving 600 s later; warning at 127800 - 2400 = 125400; paid
 * 2 x $30 x 21.5 h = $1290 up front, all inside the 2-day window; GPU-hours paid 2 x 8 x 21.5 = 344.
 */
START_TEST(block_from_any_start_ends_at_1130)
{
	const struct capture_event *e;

	run_yaml(light("2d", "  - {option: capacity_block, start: 2026-01-01T14:00:00Z, end: 2026-01-02T11:30:00Z,"
			     " count: 2, usd_per_h: 30}\n  - {option: on_demand, count: 1, max: 3}\n", NULL), NULL, 0);
	e = capture_find(&cap, "launch", 0);
	ck_assert_str_eq(e->option, "capacity_block");
	ck_assert_double_eq_tol(e->t_s, 50400, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "block_expiring", 0)->t_s, 125400, 1e-9);
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 1290.00, CENT);
	ck_assert_double_eq_tol(M("gpu_hours_paid_capacity_block"), 344, 1e-9);
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
}
END_TEST

START_TEST(block_billed_for_its_share_of_the_window)
{
	/* A block of 1 day that began 12.5 h before the window (2025-12-31T11:30), priced $2400 up front;
	 * the window is 6 h: it bears 6/24 of the price ($600); the 5.5 h from the horizon to the block's
	 * end (11:30) are still to come: 2400 x 5.5 / 24 = $550. Its instance is serving from t = 0. */
	run_yaml(light("6h", "  - {option: capacity_block, start: 2025-12-31T11:30:00Z, duration: 1d, count: 1,"
			     " upfront_usd: 2400}\n  - {option: on_demand, max: 2}\n", NULL), NULL, 0);
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 600.00, CENT);
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 550.00, CENT);
	ck_assert_double_eq_tol(M("gpu_hours_paid_capacity_block"), 8 * 6.0, 1e-9);
	ck_assert(M("gpu_hours_busy_capacity_block") > 0);
	ck_assert_double_eq(M("launches"), 0);
}
END_TEST

START_TEST(several_blocks)
{
	/* two 1-day blocks back to back (1 and 2 instances, $10 and $20 per instance-hour) in a 3-day window:
	 * 1 x 10 x 24 + 2 x 20 x 24 = $1200, and each opens with its own launch */
	run_yaml(light("3d", "  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 1,"
			     " usd_per_h: 10}\n  - {option: capacity_block, start: 2026-01-02T11:30:00Z, duration: 1d,"
			     " count: 2, usd_per_h: 20}\n  - {option: on_demand, count: 1, max: 3}\n", NULL), NULL, 0);
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 1200.00, CENT);
	ck_assert_int_eq(capture_count(&cap, "block_expiring"), 2);
	ck_assert_double_eq_tol(capture_find(&cap, "block_expiring", 0)->t_s, 41400 + 86400 - 2400, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "block_expiring", 1)->t_s, 41400 + 2 * 86400 - 2400, 1e-9);
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
}
END_TEST

START_TEST(spot_pays_60s_minimum)
{
	/* A 60 s spike at 600 s makes target tracking launch 2 Spot instances at 660 s; the next evaluation
	 * (720 s) scales in and cancels them before they serve: 2 x 60 s at $36/h = $1.20 */
	run_yaml("name: spotmin\nhorizon: 1h\nslo: {latency_s: 5}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 600s, rate_per_s: 30},"
		 " {at: 660s, rate_per_s: 10}]}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 600}\n"
		 "catalog: {g6.xlarge: {usd_per_h: 36}}\n"
		 "fleet:\n  - {option: reserved, count: 4, usd_per_h: 10}\n  - {option: spot, max: 6, usd_per_h: 36}\n"
		 "autoscaling: {policy: target_tracking, target: 0.55, min: 4, max: 10,"
		 " scale_out_datapoints: 1, scale_in_datapoints: 1}\n", NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "cancel"), 2);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 1.20, 1e-9);
	/*
	 * The run above lives exactly 60 s, so it cannot see the minimum. Here a scheduled action raises min
	 * to 3 at 600 s (2 Spot launches beside a $0 reserved instance) and the next lowers max to 1 at 630 s,
	 * cancelling both 30 s after launch (stopped by us, not interrupted by EC2: no free first hour).
	 * Billed 60 s each: 2 x 60 / 3600 x $36/h = $1.20 (per second without the minimum: $0.60).
	 */
	run_yaml("name: spotmin30\nstart: 2026-01-01T00:00:00Z\nhorizon: 1h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, startup_s: 600}\ncatalog: {g6.xlarge: {usd_per_h: 36}}\n"
		 "fleet:\n  - {option: reserved, count: 1, usd_per_h: 0}\n  - {option: spot, max: 2, usd_per_h: 36}\n"
		 "autoscaling: {policy: none, schedule: [{at: 2026-01-01T00:10:00Z, min: 3},"
		 " {at: 2026-01-01T00:10:30Z, min: 1, max: 1}]}\n", NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "launch"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "launch", 0)->t_s, 600, 1e-9);
	ck_assert_int_eq(capture_count(&cap, "cancel"), 2);
	for (int i = 0; i < 2; i++)
		ck_assert_double_eq_tol(capture_find(&cap, "cancel", i)->t_s, 630, 1e-9);
	ck_assert_double_eq(M("spot_interruptions"), 0);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 1.20, 1e-9);
}
END_TEST

/*
 * Two g6.xlarge Spot instances at $0.50/h launched at t = 0 by a scheduled action (so inside the window:
 * a reserved instance at $0 carries the first place of the fleet and the light load), ready at 600 s. The
 * availability trace (600 s ticks) shows 2, then 1 from 1800 s, 0 from 4200 s: one notice at 1800 s, the
 * other at 4200 s, each taken 120 s later (idle instances wait out their notice).
 */
static const char *spot_first_hour(void)
{
	snprintf(yaml, sizeof yaml,
		 "name: spotfree\nstart: 2026-01-01T00:00:00Z\nhorizon: 2h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, startup_s: 600}\n"
		 "fleet:\n  - {option: reserved, count: 1, usd_per_h: 0}\n"
		 "  - {option: spot, max: 2, usd_per_h: 0.5, availability_trace: %s/capacity/avail_first_hour.json}\n"
		 "autoscaling: {policy: none, schedule: [{at: 2026-01-01T00:00:00Z, min: 3}]}\n", TEST_DATA_DIR);
	return yaml;
}

START_TEST(spot_interrupted_in_first_hour_is_free)
{
	/*
	 * SOURCES.md [spot-billing], Linux, interrupted by Amazon EC2: "Interrupted in the first hour: No
	 * charge", "Interrupted in any hour after the first hour: Charged for the seconds used".
	 * The first instance is taken at 1920 s, 1920 s after its launch: free. The second is taken at 4320 s,
	 * in its second hour: 4320 s x $0.50/h = $0.60. Without the rule: (1920 + 4320) / 3600 x 0.5 = $0.8667.
	 * Both count as paid GPU-hours (the free one at $0): (1920 + 4320) / 3600 = 1.7333.
	 */
	run_yaml(spot_first_hour(), NULL, 0);
	ck_assert_double_eq(M("spot_interruptions"), 2);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 2);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 1920, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 1)->t_s, 4320, 1e-9);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 0.60, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid_spot"), 6240 / 3600.0, 1e-9);
}
END_TEST

START_TEST(spot_first_hour_edges)
{
	/* Still under notice at the horizon (1900 s): the first instance would be taken at 1920 s, inside
	 * its first hour, so it is free; the second runs to the horizon: 1900 / 3600 x 0.5 = $0.263889. */
	const char *at_horizon[] = { "horizon=1900s" };
	run_yaml(spot_first_hour(), at_horizon, 1);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 1900 / 3600.0 * 0.5, 1e-9);
	/* both count as paid up to the horizon, the free one at $0: 2 x 1900 / 3600 GPU-hours */
	ck_assert_double_eq_tol(M("gpu_hours_paid_spot"), 2 * 1900 / 3600.0, 1e-9);
	/* A 35-minute notice: the notice comes in the first hour (1800 s) but the instance is taken at 3900 s,
	 * in its second hour: charged. The second, noticed at 4200 s, is taken at 6300 s.
	 * (3900 + 6300) / 3600 x 0.5 = $1.416667. */
	const char *long_notice[] = { "fleet.1.notice_s=35m" };
	run_yaml(spot_first_hour(), long_notice, 1);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 10200 / 3600.0 * 0.5, 1e-9);
	/* In service at t = 0 (count 2): launched before the window at an unknown time, so never taken to be
	 * in its first hour: both pay, (1920 + 4320) / 3600 x 0.5 = $0.866667. */
	const char *warm[] = { "fleet.1.count=2" };
	run_yaml(spot_first_hour(), warm, 1);
	ck_assert_int_eq(capture_count(&cap, "launch"), 0);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 6240 / 3600.0 * 0.5, 1e-9);
}
END_TEST

START_TEST(spot_drained_under_notice_counts_as_interrupted)
{
	/*
	 * Overload (a 45 s request every 10 s, 1 slot per instance) keeps every instance busy back to back.
	 * The Spot instances serve from 600 s; the one noticed at 1800 s is in the request it started at
	 * 600 + 26 x 45 = 1770 s, finishes it at 1815 s and is terminated then, before its notice runs out
	 * (1920 s). The notice came from EC2, so it was interrupted in its first hour: free. The other runs to
	 * the 1 h horizon: 3600 s x $0.50/h = $0.50 (without the rule: 0.5 + 1815 / 3600 x 0.5 = $0.752083).
	 */
	const char *sets[] = { "horizon=1h", "workload.arrivals.rate_per_s=0.1", "workload.service.mean_s=45",
			       "serving.slots_per_instance=1" };
	run_yaml(spot_first_hour(), sets, 4);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 1815, 1e-9);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 0.50, 1e-9);
	/* paid GPU-hours: the free one's 1815 s (at $0) and the other's 3600 s */
	ck_assert_double_eq_tol(M("gpu_hours_paid_spot"), (1815 + 3600) / 3600.0, 1e-9);
}
END_TEST

/* ---- the window's edges ---------------------------------------------------------------------------- */

START_TEST(horizon_bills_exactly_to_the_horizon)
{
	/*
	 * One on-demand and one Spot g6.xlarge (On-Demand overridden to $36/h, Spot fixed at $18/h), both
	 * running from t = 0 to a horizon of 10800.5 s: each is billed 10800.5 s, not rounded up to 10801 s.
	 * On-demand 10800.5 / 3600 x 36 = $108.005, Spot 10800.5 / 3600 x 18 = $54.0025 (rounding up gave
	 * $108.01 and $54.005); paid GPU-hours 2 x 10800.5 / 3600 = 6.000277...
	 */
	run_yaml("name: edge\nhorizon: 10800.5s\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge}\ncatalog: {g6.xlarge: {usd_per_h: 36}}\n"
		 "fleet:\n  - {option: on_demand, count: 1}\n  - {option: spot, count: 1, usd_per_h: 18}\n", NULL, 0);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 108.005, 1e-9);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 54.0025, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 2 * 10800.5 / 3600, 1e-9);
}
END_TEST

START_TEST(warm_instance_ended_early_pays_no_minimum)
{
	/*
	 * Two on-demand instances at $36/h in service at t = 0 (launched before the window); a scheduled
	 * action at 35 s lowers max to 1 and the idle one (the last in fleet order; the light load sits on
	 * the first) terminates at 35 s. It pays 35 s, not the 60 s minimum: it was not launched inside the
	 * window. (3600 + 35) / 3600 x 36 = $36.35 (with the minimum again: 3660 s, $36.60).
	 */
	run_yaml("name: warm\nstart: 2026-01-01T00:00:00Z\nhorizon: 1h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge}\n"
		 "fleet:\n  - {option: on_demand, count: 2, usd_per_h: 36}\n"
		 "autoscaling: {policy: none, schedule: [{at: 2026-01-01T00:00:35Z, max: 1}]}\n", NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 35, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 36.35, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 3635 / 3600.0, 1e-9);
}
END_TEST

/* ---- launch limits ------------------------------------------------------------------------------- */

/* Heavy load so that target tracking wants ~10 p5 instances. */
static const char *heavy(const char *fleet, const char *extra)
{
	snprintf(yaml, sizeof yaml,
		 "name: heavy\nseed: 5\nhorizon: 3h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 50}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 8, startup_s: 120, queue_timeout_s: 30}\n"
		 "fleet:\n%s"
		 "autoscaling: {policy: target_tracking, target: 0.7, min: 1, max: 12, scale_out_cooldown_s: 60}\n%s",
		 fleet, extra ? extra : "");
	return yaml;
}

START_TEST(quota_limits_the_fleet)
{
	/* 384 vCPUs of Running On-Demand P instances = 2 p5.48xlarge (192 vCPUs each) */
	run_yaml(heavy("  - {option: reserved, count: 1}\n  - {option: on_demand, max: 11}\n",
		       "quotas: {on_demand_vcpus: 384}\n"), NULL, 0);
	ck_assert_double_eq(M("instances_peak"), 3);
	ck_assert(M("launch_failures") > 0);
	ck_assert(M("requests_dropped") > 0); /* 3 x 8 slots cannot carry 50 requests/s */
	/* in instances: at most 4 */
	run_yaml(heavy("  - {option: reserved, count: 1}\n  - {option: on_demand, max: 11}\n",
		       "quotas: {on_demand_instances: 4}\n"), NULL, 0);
	ck_assert_double_eq(M("instances_peak"), 5);
	ck_assert(M("launch_failures") > 0);
}
END_TEST

START_TEST(insufficient_capacity_fails_and_retries)
{
	/* no capacity for the first hour: every attempt fails (counted), then the fleet grows */
	const struct capture_event *e;
	run_yaml(heavy("  - {option: reserved, count: 1}\n"
		       "  - {option: on_demand, max: 11, ice_outages: [{start: 0s, end: 1h}]}\n", NULL), NULL, 0);
	ck_assert(M("launch_failures") >= 3);
	for (int i = 0; (e = capture_find(&cap, "launch_failed", i)); i++)
		ck_assert(e->t_s < 3600);
	ck_assert(M("instances_peak") >= 9);
	e = capture_find(&cap, "launch", 0);
	ck_assert(e->t_s >= 3600);
	/* a 50% chance per attempt: failures and launches both happen */
	run_yaml(heavy("  - {option: reserved, count: 1}\n  - {option: on_demand, max: 11, ice_probability: 0.5}\n",
		       NULL), NULL, 0);
	ck_assert(M("launch_failures") > 0);
	ck_assert(M("launches") > 0);
}
END_TEST

START_TEST(spot_shortfall_falls_back_in_order)
{
	/* a Spot pool that is never available: launches fail and the on-demand entry after it serves */
	char fleet[512];
	snprintf(fleet, sizeof fleet, "  - {option: reserved, count: 1}\n  - {option: spot, max: 11,"
		 " ice_outages: [{start: 0s, end: 3h}]}\n  - {option: on_demand, max: 11}\n");
	run_yaml(heavy(fleet, NULL), NULL, 0);
	ck_assert_double_eq(M("cost_spot_usd"), 0);
	ck_assert(M("cost_on_demand_usd") > 0);
	ck_assert(M("launch_failures") > 0);
}
END_TEST

START_TEST(mixed_allocation_splits_capacity)
{
	/* fixed 10 instances, base 2 on-demand, 50% of the rest on-demand: 2 + ceil(8 x 0.5) = 6 on-demand,
	 * 4 Spot; at the end of a quiet run the fleet holds exactly that */
	run_yaml(light("2h", "  - {option: spot, max: 10}\n  - {option: on_demand, max: 10}\n",
		       "autoscaling: {policy: target_tracking, target: 0.9, min: 10, max: 10}\n"
		       "allocation: {strategy: mixed, on_demand_base_capacity: 2,"
		       " on_demand_percentage_above_base: 50}\n"), NULL, 0);
	ck_assert_double_eq(cap.last_sample.instances[OPTION_ON_DEMAND], 6);
	ck_assert_double_eq(cap.last_sample.instances[OPTION_SPOT], 4);
}
END_TEST

START_TEST(launch_delays_per_entry)
{
	/* 10 warm instances, then scale-outs: every launch of the on-demand entry becomes ready 120 s or
	 * 240 s after it (the empirical list), and both values occur among its launches */
	const struct capture_event *e;
	int early = 0, late = 0;
	run_yaml(heavy("  - {option: reserved, count: 1}\n"
		       "  - {option: on_demand, max: 11, startup: {kind: empirical, values_s: [120, 240]}}\n", NULL),
		 NULL, 0);
	/* every ready event at t must come from a launch at t - 120 or t - 240 */
	for (int i = 0; (e = capture_find(&cap, "ready", i)); i++) {
		bool from120 = false, from240 = false;
		const struct capture_event *l;
		for (int j = 0; (l = capture_find(&cap, "launch", j)); j++) {
			from120 |= fabs(l->t_s - (e->t_s - 120)) < 1e-6;
			from240 |= fabs(l->t_s - (e->t_s - 240)) < 1e-6;
		}
		ck_assert_msg(from120 || from240, "ready at %g s matches no launch 120 or 240 s before", e->t_s);
		early += from120 && !from240;
		late += from240 && !from120;
	}
	ck_assert(early > 0 && late > 0);
	/* a constant override: every launch ready 60 s later */
	run_yaml(heavy("  - {option: reserved, count: 1}\n"
		       "  - {option: on_demand, max: 11, startup: {kind: constant, mean_s: 60}}\n", NULL), NULL, 0);
	e = capture_find(&cap, "launch", 0);
	ck_assert_double_eq_tol(capture_find(&cap, "ready", 0)->t_s, e->t_s + 60, 1e-6);
}
END_TEST

static Suite *capacity_suite(void)
{
	Suite *s = suite_create("capacity");
	TCase *tc = tcase_create("options");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, reserved_all_upfront_is_amortised);
	tcase_add_test(tc, reserved_partial_upfront_same_effective_rate);
	tcase_add_test(tc, reserved_term_ending_inside_the_window);
	tcase_add_test(tc, reserved_without_term_is_one_year);
	tcase_add_test(tc, odcr_paid_whether_used_or_not);
	tcase_add_test(tc, savings_plan_covers_then_on_demand);
	tcase_add_test(tc, savings_plan_unused_commitment);
	tcase_add_test(tc, savings_plan_settles_by_clock_hour);
	tcase_add_test(tc, savings_plan_covers_odcr_used_capacity_first);
	tcase_add_test(tc, spot_price_changes_mid_instance);
	tcase_add_test(tc, spot_fixed_discount);
	tcase_add_test(tc, spot_trace_capped_at_on_demand);
	tcase_add_test(tc, spot_interruptions_follow_the_rate);
	tcase_add_test(tc, spot_trace_interrupts_at_its_ticks);
	tcase_add_test(tc, interrupted_requests_requeue_or_drop);
	tcase_add_test(tc, spot_pool_reclaims_take_a_fraction_and_close_the_pool);
	tcase_add_test(tc, spot_pool_reclaims_follow_their_rate_and_outage);
	tcase_add_test(tc, block_serves_only_inside_its_window);
	tcase_add_test(tc, block_idle_instances_released_at_the_warning);
	tcase_add_test(tc, block_cuts_busy_instances_30_min_before_the_end);
	tcase_add_test(tc, block_from_any_start_ends_at_1130);
	tcase_add_test(tc, block_billed_for_its_share_of_the_window);
	tcase_add_test(tc, several_blocks);
	tcase_add_test(tc, spot_pays_60s_minimum);
	tcase_add_test(tc, spot_interrupted_in_first_hour_is_free);
	tcase_add_test(tc, spot_first_hour_edges);
	tcase_add_test(tc, spot_drained_under_notice_counts_as_interrupted);
	tcase_add_test(tc, horizon_bills_exactly_to_the_horizon);
	tcase_add_test(tc, warm_instance_ended_early_pays_no_minimum);
	tcase_add_test(tc, quota_limits_the_fleet);
	tcase_add_test(tc, insufficient_capacity_fails_and_retries);
	tcase_add_test(tc, spot_shortfall_falls_back_in_order);
	tcase_add_test(tc, mixed_allocation_splits_capacity);
	tcase_add_test(tc, launch_delays_per_entry);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(capacity_suite());
}
