/*
 * check_blocks: EC2 Capacity Blocks in whole runs, against figures computed by hand (in the comments): the
 * window, idle instances released at the warning, busy ones cut 30 minutes before the end, a block bought at any
 * start ending at 11:30 UTC, billing for the block's share of the window, and several blocks.
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
		 "serving: {queue: central, routing: first_free, instance_type: p5.48xlarge, slots_per_instance: 8, startup_s: 600}\n"
		 "fleet:\n%s%s", horizon, fleet, extra ? extra : "");
	return yaml;
}

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
		 "serving: {queue: central, routing: first_free, instance_type: p5.48xlarge, slots_per_instance: 1, startup_s: 650}\n"
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
		 "serving: {queue: central, routing: first_free, instance_type: p5.48xlarge, slots_per_instance: 1, startup_s: 650}\n"
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
/*
 * A block begun before the window whose expiration warning (40 min before its 11:30 end) falls exactly at
 * t = 0 (SOURCES.md [cb-warning-40min]): a window from 10:50:00 UTC, a 1-day block from 2025-12-31T11:30
 * (count 1, $2400 up front). At t = 0 it is already draining: none of its instances serves, and no warning
 * comes in the window. Its price is still borne for its share of the window: the 40 min from 10:50 to its
 * end at 11:30 of its 24 h, 2400 x 40 / 1440 = $66.67, nothing after the 1 h horizon, and its 8 GPUs count as
 * paid (idle) for those 40 min: 8 x 2400 / 3600 = 5.3333 GPU-hours, none busy. A window from 10:49:59 puts
 * the warning 1 s in: the block serves from t = 0 and its warning comes at exactly 1 s.
 */
START_TEST(block_warning_at_the_window_start)
{
	const char *blk = "name: cap\nseed: 3\nstart: 2026-01-01T10:50:00Z\nhorizon: 1h\nslo: {latency_s: 10}\n"
			  "workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
			  "serving: {queue: central, routing: first_free, instance_type: p5.48xlarge, slots_per_instance: 8, "
			  "startup_s: 600}\n"
			  "fleet:\n  - {option: capacity_block, start: 2025-12-31T11:30:00Z, duration: 1d, count: 1,"
			  " upfront_usd: 2400}\n  - {option: on_demand, count: 1, max: 2}\n";
	const char *second_early[] = { "start=2026-01-01T10:49:59Z" };

	run_yaml(blk, NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "block_expiring"), 0);
	ck_assert_double_eq_tol(M("gpu_hours_busy_capacity_block"), 0, 1e-12);
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 2400 * 40 / 1440.0, CENT);
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 0, CENT);
	ck_assert_double_eq_tol(M("gpu_hours_paid_capacity_block"), 8 * 2400 / 3600.0, 1e-9);
	run_yaml(blk, second_early, 1);
	ck_assert_int_eq(capture_count(&cap, "block_expiring"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "block_expiring", 0)->t_s, 1, 1e-9);
}
END_TEST

/*
 * A block that starts exactly at t = 0 (a window from 11:30 UTC, a 1-day block from 11:30 the same day,
 * count 1, $2400 up front) is open from t = 0: its instance is in service at t = 0 like one begun before the
 * window (SOURCES.md [cb-instances-in-window]), so nothing is launched (the on-demand instance is in
 * service at t = 0 too) and the block serves. Its bill: 1 h of its 24 h in the window, 2400 / 24 = $100,
 * and 23 h after the horizon, 2400 x 23 / 24 = $2300; 8 GPU-hours paid.
 */
START_TEST(block_starting_at_t0_serves_from_t0)
{
	run_yaml("name: cap\nseed: 3\nstart: 2026-01-01T11:30:00Z\nhorizon: 1h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: p5.48xlarge, slots_per_instance: 8, "
		 "startup_s: 600}\n"
		 "fleet:\n  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 1,"
		 " upfront_usd: 2400}\n  - {option: on_demand, count: 1, max: 2}\n", NULL, 0);
	ck_assert_double_eq(M("launches"), 0);
	ck_assert(M("gpu_hours_busy_capacity_block") > 0);
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 100, CENT);
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 2300, CENT);
	ck_assert_double_eq_tol(M("gpu_hours_paid_capacity_block"), 8, 1e-9);
}
END_TEST

static Suite *blocks_suite(void)
{
	Suite *s = suite_create("blocks");
	TCase *tc = tcase_create("blocks");

	tcase_set_timeout(tc, 120);
	test_add(tc, block_serves_only_inside_its_window);
	test_add(tc, block_idle_instances_released_at_the_warning);
	test_add(tc, block_cuts_busy_instances_30_min_before_the_end);
	test_add(tc, block_from_any_start_ends_at_1130);
	test_add(tc, block_billed_for_its_share_of_the_window);
	test_add(tc, several_blocks);
	test_add(tc, block_warning_at_the_window_start);
	test_add(tc, block_starting_at_t0_serves_from_t0);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(blocks_suite());
}
