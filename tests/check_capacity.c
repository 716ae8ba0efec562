/*
 * check_capacity: reserved and ODCR purchase options in whole runs, against figures computed by hand (in the
 * comments): reserved terms and amortised upfront payments, ODCR, Savings Plans (used and unused commitment, by
 * clock hour, ODCR capacity first), billing at the window's edges, quotas and insufficient capacity, the Spot
 * shortfall's fallback and the mixed-instances allocation. Spot is in check_spot.c, Capacity Blocks in
 * check_blocks.c.
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
	return capture_need(&cap, name);
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
	run_yaml(light("10h", "  - {option: reserved, count: 2, term: 1y, payment: all_upfront, scope: zonal}\n", NULL), NULL, 0);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 715.52, CENT);
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 2 * 35.776 * 8750, 0.05);
	ck_assert_double_eq_tol(M("commitment_utilization"), 1.0, 1e-12);
	ck_assert_double_eq_tol(M("commitment_coverage"), 1.0, 1e-12);
}
END_TEST

START_TEST(reserved_partial_upfront_same_effective_rate)
{
	/* partial: half up front (0.5 x 35.776 x 8760), half hourly (17.888): the window pays the same */
	run_yaml(light("10h", "  - {option: reserved, count: 2, term: 1y, payment: partial_upfront, scope: zonal}\n", NULL),
		 NULL, 0);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 715.52, CENT);
	/* explicit prices: $20/h plus $87,600 up front = 20 + 10 = $30/h; 3 x 30 x 10 = 900 */
	const char *sets[] = { "fleet.0.usd_per_h=20", "fleet.0.upfront_usd=87600", "fleet.0.count=3" };
	run_yaml(light("10h", "  - {option: reserved, count: 2, term: 1y, payment: partial_upfront, scope: zonal}\n", NULL),
		 sets, 3);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 900.00, CENT);
}
END_TEST

START_TEST(reserved_term_ending_inside_the_window)
{
	/* term started 8755 h before the window: 5 h inside the term at 35.776, then 5 h On-Demand at
	 * 55.04 (RIs do not renew). 2 instances: reserved 357.76, on-demand 550.40. */
	run_yaml(light("10h", "  - {option: reserved, count: 2, term: 1y, term_start: 2025-01-01T05:00:00Z, scope: zonal}\n",
		       NULL), NULL, 0);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 357.76, CENT);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 550.40, CENT);
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 0, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 2 * 8 * 10.0, 1e-9);
}
END_TEST

/*
 * A term that ends exactly at the horizon: 1y (8760 h, 2025 has 365 days) from 2025-01-01T10:00:00Z ends
 * at 2026-01-01T10:00:00Z, the 10 h horizon. Inside the window it is all term: 2 x 35.776 x 10 = 715.52,
 * nothing On-Demand. At the last sample, at the horizon itself, the term is over ([t0, t1) holds the term):
 * the fleet's rate is On-Demand's, 2 x 55.04 = 110.08 $/h (in the term it would be 2 x 35.776 = 71.552).
 * Both reserved instances are in service from t = 0 (nothing launched) to that sample.
 */
START_TEST(reserved_term_ends_at_the_horizon)
{
	run_yaml(light("10h", "  - {option: reserved, count: 2, term: 1y, term_start: 2025-01-01T10:00:00Z, scope: zonal}\n",
		       NULL), NULL, 0);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 715.52, CENT);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 0, 1e-9);
	ck_assert_double_eq_tol(cap.last_sample.t_s, 36000, 1e-9);
	ck_assert_double_eq_tol(cap.last_sample.cost_usd_per_h, 2 * 55.04, 1e-9);
	ck_assert_double_eq(cap.last_sample.instances[OPTION_RESERVED], 2);
	ck_assert_double_eq(M("launches"), 0);
	ck_assert_int_eq(capture_count(&cap, "start"), 1);  /* its event: 2 in service at t = 0 */
	ck_assert_int_eq(capture_find(&cap, "start", 0)->count, 2);
}
END_TEST

/*
 * An all-upfront term that starts exactly at the horizon (2026-01-01T10:00:00Z, 10 h): its upfront fee is
 * paid at the horizon, outside the window [0, 10 h), so no upfront bill line; its instance runs On-Demand
 * through the window: 55.04 x 10 = 550.40, nothing reserved. A term starting a second earlier pays its fee in
 * the window: 35.776 x 8760 = 313,397.76 up front (billed), and 1 s of the term.
 */
START_TEST(reserved_upfront_at_the_horizon_is_outside)
{
	run_yaml(light("10h", "  - {option: reserved, count: 1, term: 1y, payment: all_upfront, "
		       "term_start: 2026-01-01T10:00:00Z, scope: zonal}\n", NULL), NULL, 0);
	ck_assert_double_eq_tol(cap.charge_billed[OPTION_RESERVED][CHARGE_UPFRONT], 0, 1e-9);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 0, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 550.40, CENT);
	const char *earlier[] = { "fleet.0.term_start=2026-01-01T09:59:59Z" };
	run_yaml(light("10h", "  - {option: reserved, count: 1, term: 1y, payment: all_upfront, "
		       "term_start: 2026-01-01T10:00:00Z, scope: zonal}\n", NULL), earlier, 1);
	ck_assert_double_eq_tol(cap.charge_billed[OPTION_RESERVED][CHARGE_UPFRONT], 35.776 * 8760, 0.01);
}
END_TEST

/*
 * An all-upfront term that starts exactly at the window's start (term_start = start, t0 = 0): its fee is paid
 * inside the window [0, 10 h) and is an upfront bill line, 2 x 35.776 x 8760 = 626,795.52 (p5.48xlarge 1y:
 * 55.04 x (1 - 0.35) = 35.776 $/h, all of it up front); the window bears 2 x 35.776 x 10 = 715.52 of it.
 */
START_TEST(reserved_upfront_at_the_window_start_is_inside)
{
	run_yaml(light("10h", "  - {option: reserved, count: 2, term: 1y, payment: all_upfront, "
		       "term_start: 2026-01-01T00:00:00Z, scope: zonal}\n", NULL), NULL, 0);
	ck_assert_double_eq_tol(cap.charge_billed[OPTION_RESERVED][CHARGE_UPFRONT], 2 * 35.776 * 8760, 0.01);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 715.52, CENT);
}
END_TEST

START_TEST(reserved_without_term_is_one_year)
{
	/* no `term`: a 1-year no-upfront term from `start`. 2 x 35.776 x 10 h = 715.52 in the window, and
	 * the term still owes 2 x 35.776 x (8760 - 10) = 626,080.00 after it */
	run_yaml(light("10h", "  - {option: reserved, count: 2, scope: zonal}\n", NULL), NULL, 0);
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

/*
 * An ODCR whose start is exactly the window's start (start: 0s) is not future-dated: it exists at t = 0, its
 * 2 instances are in service then (a "start" event of 2, nothing launched into it), and its limited end at
 * 1 d is its only phase (an "odcr_ended" event of 2 at 86400 s): it never "opens", so no launch event. Bill
 * over 2 days, $10/h: the reservation 2 x 10 x 24 = $480.00; its instances run on to the horizon as
 * on-demand ones, 2 x 10 x 24 = $480.00, with the on-demand instance's 48 h x $10 = $480: $960.00 on-demand.
 */
START_TEST(odcr_starting_at_the_window_start_exists_at_t0)
{
	run_yaml("name: fd\nstart: 2026-01-01T00:00:00Z\nhorizon: 2d\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 600}\n"
		 "catalog: {g6.xlarge: {usd_per_h: 10}}\n"
		 "fleet:\n  - {option: odcr, count: 2, start: 0s, end: 1d}\n"
		 "  - {option: on_demand, count: 1, max: 1}\n", NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "launch"), 0);  /* no launch event, not even of 0 instances */
	ck_assert_double_eq(M("launches"), 0);
	ck_assert_int_eq(capture_find(&cap, "start", 0)->count, 2);
	ck_assert_str_eq(capture_find(&cap, "start", 0)->option, "odcr");
	ck_assert_int_eq(capture_count(&cap, "odcr_ended"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "odcr_ended", 0)->t_s, 86400, 1e-9);
	ck_assert_int_eq(capture_find(&cap, "odcr_ended", 0)->count, 2);
	ck_assert_double_eq_tol(M("cost_odcr_usd"), 480.00, CENT);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 960.00, CENT);
}
END_TEST

/*
 * A future-dated ODCR (SOURCES.md [odcr-fd-start], [odcr-fd-commitment]) of 2 g6.xlarge (g family: AWS offers
 * them, [odcr-fd-families]) at the on-demand price of $10/h, from day 1 with the minimum commitment of 14 days
 * and a limited end at day 15.5, in a 17-day run beside one on-demand instance (policy none):
 *  - before day 1 nothing runs in it: only the on-demand instance is in service at t = 0 (the ODCR's count
 *    cannot be placed there, and on_demand's max is 1);
 *  - at day 1 (86400 s) its 2 instances launch; at day 15.5 (1339200 s) it ends, and they run on;
 *  - it is billed only while it exists: 2 x 10 x (15.5 - 1) x 24 = 2 x 10 x 348 = $6960.00, and 2 x 348 =
 *    696 paid GPU-hours (1 GPU each), not 2 x 10 x 17 x 24 = $8160 over the whole run;
 *  - the on-demand bill: the on-demand instance for 17 x 24 = 408 h, $4080, plus the ODCR's 2 instances run
 *    on from day 15.5 to the horizon as on-demand instances ([odcr-end-run-on]), 2 x 36 h x $10 = $720:
 *    $4800.00. Total $11760.00.
 */
START_TEST(odcr_future_dated_billed_only_inside_its_window)
{
	int odcr_launches = 0;

	run_yaml("name: fd\nstart: 2026-01-01T00:00:00Z\nhorizon: 17d\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 600}\n"
		 "catalog: {g6.xlarge: {usd_per_h: 10}}\n"
		 "fleet:\n  - {option: odcr, count: 2, start: 1d, commitment_duration: 14d, end: 15.5d}\n"
		 "  - {option: on_demand, count: 1, max: 1}\n", NULL, 0);
	ck_assert_double_eq_tol(M("cost_odcr_usd"), 6960.00, CENT);
	ck_assert_double_eq_tol(M("gpu_hours_paid_odcr"), 696.0, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 4800.00, CENT);
	ck_assert_double_eq_tol(M("cost_total_usd"), 11760.00, CENT);
	for (int i = 0; i < cap.nevents; i++) {
		const struct capture_event *e = &cap.events[i];
		if (strcmp(e->option, "odcr") != 0)
			continue;
		ck_assert_msg(strcmp(e->kind, "start") != 0, "an ODCR instance in service at t = 0");
		if (strcmp(e->kind, "launch") == 0) {
			ck_assert_double_eq_tol(e->t_s, 86400, 1e-9);
			ck_assert_int_eq(e->count, 2);
			odcr_launches++;
		}
	}
	ck_assert_int_eq(odcr_launches, 1);
	ck_assert_int_eq(capture_count(&cap, "odcr_ended"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "odcr_ended", 0)->t_s, 15.5 * 86400, 1e-9);
	ck_assert_int_eq(capture_find(&cap, "odcr_ended", 0)->count, 2);
}
END_TEST

/*
 * The same future-dated ODCR in a run that ends exactly at its start (horizon 1 d): it is billed from its
 * start ([start, end)), so nothing in the window: cost_odcr_usd 0, and the on-demand instance's 24 h x $10 =
 * $240. At the last sample, at the horizon, the reservation exists: the fleet's rate is its 2 x $10/h plus
 * the on-demand instance's $10/h = $30/h (before its start it would be $10/h).
 */
START_TEST(odcr_rate_from_its_start)
{
	const char *sets[] = { "horizon=1d" };

	run_yaml("name: fd\nstart: 2026-01-01T00:00:00Z\nhorizon: 17d\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 600}\n"
		 "catalog: {g6.xlarge: {usd_per_h: 10}}\n"
		 "fleet:\n  - {option: odcr, count: 2, start: 1d, commitment_duration: 14d, end: 15.5d}\n"
		 "  - {option: on_demand, count: 1, max: 1}\n", sets, 1);
	ck_assert_double_eq_tol(M("cost_odcr_usd"), 0, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 240.00, CENT);
	ck_assert_double_eq_tol(cap.last_sample.t_s, 86400, 1e-9);
	ck_assert_double_eq_tol(cap.last_sample.cost_usd_per_h, 30, 1e-9);
}
END_TEST

START_TEST(savings_plan_covers_then_on_demand)
{
	/* one on-demand p5 for 10 h = $55.04/h of usage. Commitment $30/h at 30% off covers
	 * 30 / 0.7 = 42.857 $/h of it; the other 12.183 $/h is On-Demand. Per hour 30 + 12.183 = 42.183. */
	run_yaml(light("10h", "  - {option: on_demand, count: 1, max: 1}\n"
			      "commitments:\n  - {option: savings_plan, commit_usd_per_h: 30, discount: 0.3}\n", NULL), NULL, 0);
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
			      "commitments:\n  - {option: savings_plan, commit_usd_per_h: 100, discount: 0.3}\n", NULL), NULL, 0);
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
		 "commitments:\n  - {option: savings_plan, commit_usd_per_h: 7, discount: 0.5}\n"
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
	"commitments:\n  - {option: savings_plan, commit_usd_per_h: 7.5, discount: 0.5}\n"
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
	const char *sets[] = { "commitments.0.commit_usd_per_h=20" };
	run_yaml(odcr_plan, sets, 1);
	ck_assert_double_eq_tol(M("cost_savings_plan_usd"), 40.00, CENT);
	ck_assert_double_eq_tol(M("cost_odcr_usd"), 0.00, CENT);
	ck_assert_double_eq_tol(M("cost_total_usd"), 40.00, CENT);
	ck_assert_double_eq_tol(M("commitment_unused_usd"), 10.00, CENT);
	ck_assert_double_eq_tol(M("commitment_utilization"), 0.75, 1e-9);
	ck_assert_double_eq_tol(M("commitment_coverage"), 1.0, 1e-9);
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
	run_yaml(heavy("  - {option: reserved, count: 1, scope: zonal}\n  - {option: on_demand, max: 11}\n",
		       "quotas: {on_demand_vcpus: 384}\n"), NULL, 0);
	ck_assert_double_eq(M("instances_peak"), 3);
	ck_assert(M("launch_failures") > 0);
	ck_assert(M("requests_dropped") > 0); /* 3 x 8 slots cannot carry 50 requests/s */
	/* in instances: at most 4 */
	run_yaml(heavy("  - {option: reserved, count: 1, scope: zonal}\n  - {option: on_demand, max: 11}\n",
		       "quotas: {on_demand_instances: 4}\n"), NULL, 0);
	ck_assert_double_eq(M("instances_peak"), 5);
	ck_assert(M("launch_failures") > 0);
}
END_TEST

START_TEST(insufficient_capacity_fails_and_retries)
{
	/* no capacity for the first hour: every attempt fails (counted), then the fleet grows */
	const struct capture_event *e;
	run_yaml(heavy("  - {option: reserved, count: 1, scope: zonal}\n"
		       "  - {option: on_demand, max: 11, ice_outages: [{start: 0s, end: 1h}]}\n", NULL), NULL, 0);
	ck_assert(M("launch_failures") >= 3);
	for (int i = 0; (e = capture_find(&cap, "launch_failed", i)); i++)
		ck_assert(e->t_s < 3600);
	ck_assert(M("instances_peak") >= 9);
	e = capture_find(&cap, "launch", 0);
	ck_assert(e->t_s >= 3600);
	/* a 50% chance per attempt: failures and launches both happen */
	run_yaml(heavy("  - {option: reserved, count: 1, scope: zonal}\n  - {option: on_demand, max: 11, ice_probability: 0.5}\n",
		       NULL), NULL, 0);
	ck_assert(M("launch_failures") > 0);
	ck_assert(M("launches") > 0);
}
END_TEST

START_TEST(spot_shortfall_falls_back_in_order)
{
	/* a Spot pool that is never available: launches fail and the on-demand entry after it serves */
	char fleet[512];
	snprintf(fleet, sizeof fleet, "  - {option: reserved, count: 1, scope: zonal}\n  - {option: spot, max: 11,"
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
	run_yaml(heavy("  - {option: reserved, count: 1, scope: zonal}\n"
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
	run_yaml(heavy("  - {option: reserved, count: 1, scope: zonal}\n"
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
	test_add(tc, reserved_all_upfront_is_amortised);
	test_add(tc, reserved_partial_upfront_same_effective_rate);
	test_add(tc, reserved_term_ending_inside_the_window);
	test_add(tc, reserved_term_ends_at_the_horizon);
	test_add(tc, reserved_upfront_at_the_horizon_is_outside);
	test_add(tc, reserved_upfront_at_the_window_start_is_inside);
	test_add(tc, reserved_without_term_is_one_year);
	test_add(tc, odcr_paid_whether_used_or_not);
	test_add(tc, odcr_starting_at_the_window_start_exists_at_t0);
	test_add(tc, odcr_future_dated_billed_only_inside_its_window);
	test_add(tc, odcr_rate_from_its_start);
	test_add(tc, savings_plan_covers_then_on_demand);
	test_add(tc, savings_plan_unused_commitment);
	test_add(tc, savings_plan_settles_by_clock_hour);
	test_add(tc, savings_plan_covers_odcr_used_capacity_first);
	test_add(tc, horizon_bills_exactly_to_the_horizon);
	test_add(tc, warm_instance_ended_early_pays_no_minimum);
	test_add(tc, quota_limits_the_fleet);
	test_add(tc, insufficient_capacity_fails_and_retries);
	test_add(tc, spot_shortfall_falls_back_in_order);
	test_add(tc, mixed_allocation_splits_capacity);
	test_add(tc, launch_delays_per_entry);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(capacity_suite());
}
