/*
 * check_capacity: every purchase option in whole runs, against figures computed by hand (in the comments):
 * reserved terms and amortised upfront payments, ODCR, Savings Plans (used and unused commitment), Spot at
 * a price that changes mid-instance, Spot interruptions at a rate (Poisson) and from a trace (at its ticks),
 * Capacity Blocks (window, 30-minute termination, billing at the window's edges), quotas and insufficient
 * capacity, interrupted requests (requeue and drop), and the mixed-instances allocation.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
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
	/* spot relaunches fail while the trace shows no room; the on-demand entry stands in */
	ck_assert(M("launch_failures") >= 1);
	ck_assert(M("cost_on_demand_usd") > 0);
	ck_assert_double_eq(M("requests_dropped"), 0);
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
	int block_terms = 0;
	for (int i = 0; i < capture_count(&cap, "terminate"); i++) {
		e = capture_find(&cap, "terminate", i);
		if (strcmp(e->option, "capacity_block") != 0)
			continue;
		block_terms++;
		ck_assert(e->t_s >= 125400 && e->t_s <= 126000);
	}
	ck_assert_int_eq(block_terms, 2);
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
		 "fleet:\n  - {option: reserved, count: 4, usd_per_h: 10}\n  - {option: spot, max: 6, usd_per_h: 36}\n"
		 "autoscaling: {policy: target_tracking, target: 0.55, min: 4, max: 10,"
		 " scale_out_datapoints: 1, scale_in_datapoints: 1}\n", NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "cancel"), 2);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 1.20, 1e-9);
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
	tcase_add_test(tc, odcr_paid_whether_used_or_not);
	tcase_add_test(tc, savings_plan_covers_then_on_demand);
	tcase_add_test(tc, savings_plan_unused_commitment);
	tcase_add_test(tc, spot_price_changes_mid_instance);
	tcase_add_test(tc, spot_fixed_discount);
	tcase_add_test(tc, spot_interruptions_follow_the_rate);
	tcase_add_test(tc, spot_trace_interrupts_at_its_ticks);
	tcase_add_test(tc, interrupted_requests_requeue_or_drop);
	tcase_add_test(tc, block_serves_only_inside_its_window);
	tcase_add_test(tc, block_billed_for_its_share_of_the_window);
	tcase_add_test(tc, several_blocks);
	tcase_add_test(tc, spot_pays_60s_minimum);
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
