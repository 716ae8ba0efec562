/*
 * check_world_schedule: whole runs with scheduled scaling actions (SOURCES.md [scheduled-actions],
 * [scheduled-cron-utc]): a
 * fixed fleet moved by a schedule, and a target-tracking fleet whose scheduled min is not held back by the
 * policy's scale-out cooldown ("cooldowns apply only to policy-driven activities").
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "capture.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

static struct capture cap;

/* Run YAML text into the capture; fails the test on any error. */
static void run_text(const char *yaml)
{
	capture_run(&cap, yaml, NULL, 0);
}

/* How many events of kind `kind` fall in [t0_s, t1_s]. */
static int count_between(const char *kind, double t0_s, double t1_s)
{
	int n = 0;

	for (int i = 0; i < cap.nevents; i++)
		if (strcmp(cap.events[i].kind, kind) == 0 && cap.events[i].t_s >= t0_s && cap.events[i].t_s <= t1_s)
			n += cap.events[i].count;
	return n;
}

/* Two on-demand instances, no policy; the start is 2026-01-01T00:00:00Z (the default). */
static const char fixed_fleet[] =
	"name: fixed\nhorizon: 4h\nslo: {latency_s: 5}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
	"serving: {instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
	"fleet:\n  - {option: on_demand, count: 2, max: 8, usd_per_h: 1}\n"
	"autoscaling:\n  policy: none\n  schedule:\n"
	"    - {at: 2026-01-01T01:00:00Z, min: 5}\n"
	"    - {at: 2026-01-01T03:00:00Z, max: 3}\n";

START_TEST(fixed_fleet_follows_the_schedule)
{
	const struct capture_event *e;

	run_text(fixed_fleet);
	/* at 1 h: min 5 > 2 -> scale out to 5 (3 launches, ready 120 s later); at 3 h: max 3 < 5 -> scale in
	 * to 3, and min follows max down (the bound given wins) */
	ck_assert_int_eq(capture_count(&cap, "scheduled"), 2);
	e = capture_find(&cap, "scheduled", 0);
	ck_assert_double_eq_tol(e->t_s, 3600, 1e-9);
	ck_assert_int_eq(e->count, 5);
	e = capture_find(&cap, "scheduled", 1);
	ck_assert_double_eq_tol(e->t_s, 10800, 1e-9);
	ck_assert_int_eq(e->count, 3);
	ck_assert_int_eq(capture_count(&cap, "launch"), 1);
	e = capture_find(&cap, "launch", 0);
	ck_assert_double_eq_tol(e->t_s, 3600, 1e-9);
	ck_assert_int_eq(e->count, 3);
	ck_assert_str_eq(e->option, "on_demand");
	ck_assert_int_eq(count_between("ready", 3720, 3720), 3);
	/* an instance busy with a 1 s request drains first: every termination is within a second */
	ck_assert_int_eq(count_between("terminate", 0, 10799), 0);
	ck_assert_int_eq(count_between("terminate", 10800, 10801), 2);
	ck_assert_int_eq(capture_count(&cap, "scale_out") + capture_count(&cap, "scale_in"), 0);
}
END_TEST

/*
 * A fleet with no instance at t = 0 and a schedule that brings them ("a valid plan", not "the fleet has no
 * instances"): on-demand count 0, policy none, min 2 at 01:00, then min 1 and max 1 at 03:00. Before 1 h
 * nothing serves: the first hour's 3,600 requests are not served. At 1 h two instances launch (billed from
 * then, ready at 3,720 s); at 3 h one of them goes. Bill: 2 h + 3 h = 5 instance-hours at $1/h = $5.00
 * (the one that goes finishes its 1 s request first: under a cent).
 */
START_TEST(empty_fleet_with_a_schedule_is_a_plan)
{
	run_text("name: later\nhorizon: 4h\nslo: {latency_s: 5}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120, queue_timeout_s: 60}\n"
		 "fleet:\n  - {option: on_demand, count: 0, max: 4, usd_per_h: 1}\n"
		 "autoscaling:\n  policy: none\n  schedule:\n"
		 "    - {at: 2026-01-01T01:00:00Z, min: 2}\n"
		 "    - {at: 2026-01-01T03:00:00Z, min: 1, max: 1}\n");
	ck_assert_int_eq(count_between("launch", 3600, 3600), 2);
	ck_assert_int_eq(count_between("launch", 0, 3599), 0);
	ck_assert_int_eq(count_between("terminate", 10800, 10801), 1);
	ck_assert_double_eq_tol(capture_need(&cap, "cost_on_demand_usd"), 5.00, 0.005);
	ck_assert(capture_need(&cap, "requests_served") < capture_need(&cap, "requests_total") - 3000);
}
END_TEST

/* check_world.c's deterministic step load (10 -> 30 -> 10 requests/s, 1 s each, 10-slot instances) under
 * target tracking with a long scale-out cooldown, and a scheduled min of 8 at 900 s. */
static const char tracked_fleet[] =
	"name: tracked\nhorizon: 1h\nslo: {latency_s: 5}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 600s, rate_per_s: 30},"
	" {at: 1800s, rate_per_s: 10}]}\n  service: {kind: constant, mean_s: 1}\n"
	"serving: {instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
	"fleet:\n  - {option: reserved, count: 4, usd_per_h: 10, scope: zonal}\n  - {option: on_demand, max: 6, usd_per_h: 36}\n"
	"autoscaling:\n  policy: target_tracking\n  metric: concurrency_per_instance\n  target: 0.55\n"
	"  min: 4\n  max: 10\n  resolution_s: 60\n  scale_out_cooldown_s: 600\n  scale_in_cooldown_s: 300\n"
	"  schedule: [{at: 2026-01-01T00:15:00Z, min: 8}]\n";

START_TEST(scheduled_min_is_not_blocked_by_the_cooldown)
{
	const struct capture_event *out, *e;

	run_text(tracked_fleet);
	/*
	 * From 600 s the metric is ~0.75 on 4 instances: the policy scales out to ceil(4 x 0.75 / 0.55) = 6
	 * (after one or more datapoints above the target, as the policy counts them) and starts a 600 s
	 * scale-out cooldown, which is still running at 900 s. The scheduled min 8 raises the desired capacity
	 * to 8 at once anyway. Afterwards the metric (30 / 80 = 0.375, then 10 / 80) asks for a scale-in,
	 * which the new min (8) turns into a hold: no scale-in.
	 */
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 1);
	out = capture_find(&cap, "scale_out", 0);
	ck_assert_int_eq(out->count, 6);
	ck_assert(out->t_s < 900 && out->t_s + 600 > 900);  /* the cooldown covers the action */
	ck_assert_int_eq(capture_count(&cap, "scheduled"), 1);
	e = capture_find(&cap, "scheduled", 0);
	ck_assert_double_eq_tol(e->t_s, 900, 1e-9);
	ck_assert_int_eq(e->count, 8);
	ck_assert_int_eq(count_between("launch", 900, 900), 2);
	ck_assert_int_eq(count_between("ready", 1020, 1020), 2);
	ck_assert_int_eq(capture_count(&cap, "scale_in"), 0);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 0);
}
END_TEST

/* A recurring action and two one-off actions due together, on the fixed fleet. */
static const char recurring[] =
	"name: recurring\nhorizon: 4h\nslo: {latency_s: 5}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
	"serving: {instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
	"fleet:\n  - {option: on_demand, count: 2, max: 8, usd_per_h: 1}\n"
	"autoscaling:\n  schedule:\n"
	"    - {cron: \"30 * * * *\", min: 3}\n"
	"    - {at: 2026-01-01T02:00:00Z, min: 6}\n"
	"    - {at: 2026-01-01T02:00:00Z, max: 4}\n";

START_TEST(cron_recurs_and_same_time_actions_run_in_order)
{
	const struct capture_event *e;

	run_text(recurring);
	/* the cron action fires at minute 30 of every hour: 1800, 5400, 9000, 12600 s */
	ck_assert_int_eq(capture_count(&cap, "scheduled"), 6);
	e = capture_find(&cap, "scheduled", 0);
	ck_assert_double_eq_tol(e->t_s, 1800, 1e-9);
	ck_assert_int_eq(e->count, 3);
	ck_assert_double_eq_tol(capture_find(&cap, "scheduled", 1)->t_s, 5400, 1e-9);
	/* at 7200 s, in list order: min 6 -> 6, then max 4 -> 4 (min follows down to 4); the other order
	 * would end at 6 */
	e = capture_find(&cap, "scheduled", 2);
	ck_assert_double_eq_tol(e->t_s, 7200, 1e-9);
	ck_assert_int_eq(e->count, 6);
	e = capture_find(&cap, "scheduled", 3);
	ck_assert_double_eq_tol(e->t_s, 7200, 1e-9);
	ck_assert_int_eq(e->count, 4);
	/* then min 3 with max 4: the capacity stays 4. Launches: 1 at 1800 s (2 -> 3), 3 at 7200 s (3 -> 6),
	 * 2 of which are cancelled at once (6 -> 4) */
	ck_assert_double_eq_tol(capture_find(&cap, "scheduled", 4)->t_s, 9000, 1e-9);
	ck_assert_int_eq(capture_find(&cap, "scheduled", 4)->count, 4);
	ck_assert_int_eq(count_between("launch", 1800, 1800), 1);
	ck_assert_int_eq(count_between("launch", 7200, 7200), 3);
	ck_assert_int_eq(count_between("cancel", 7200, 7200), 2);
}
END_TEST

/* Heavy load (50 requests/s of 1 s on 8-slot instances: ~9 instances at the 0.7 target) with autoscaling.max
 * 4 at first; at 1 h a scheduled action raises max to 12: target tracking then scales past the old max. */
static const char widened[] =
	"name: widen\nstart: 2026-01-01T00:00:00Z\nhorizon: 2h\nslo: {latency_s: 30}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 50}\n  service: {kind: constant, mean_s: 1}\n"
	"serving: {instance_type: g6.xlarge, slots_per_instance: 8, startup_s: 60, queue_timeout_s: 30}\n"
	"fleet:\n  - {option: on_demand, count: 4, max: 12}\n"
	"autoscaling:\n  policy: target_tracking\n  target: 0.7\n  min: 1\n  max: 4\n"
	"  schedule: [{at: 2026-01-01T01:00:00Z, max: 12}]\n";

START_TEST(scheduled_max_widens_target_tracking)
{
	const struct capture_event *e;
	int before = 0, after = 0;

	run_text(widened);
	for (int i = 0; (e = capture_find(&cap, "scale_out", i)); i++) {
		if (e->t_s < 3600)
			before++;
		else if (e->count > 4)
			after++;
	}
	ck_assert_int_eq(before, 0);  /* already at the first max, 4 */
	ck_assert(after > 0);         /* beyond it once the schedule allows */
	ck_assert(cap.last_sample.instances_total > 4);
}
END_TEST

/*
 * Fractions of a second in ISO times are kept to the microsecond (they were dropped). The run starts at
 * 00:00:00.6; the one-off action at 00:20:00.4 fires 20 x 60 + 0.4 - 0.6 = 1199.8 s into the run, and the
 * cron action "30 0 * * *" at the whole minute 00:30:00, 30 x 60 - 0.6 = 1799.4 s into it.
 */
START_TEST(fractional_seconds_place_actions_to_the_microsecond)
{
	const struct capture_event *e;

	run_text("name: frac\nhorizon: 1h\nstart: 2026-01-01T00:00:00.6Z\nslo: {latency_s: 5}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
		 "fleet:\n  - {option: on_demand, count: 2, max: 8, usd_per_h: 1}\n"
		 "autoscaling:\n  policy: none\n  schedule:\n"
		 "    - {at: 2026-01-01T00:20:00.4Z, min: 5}\n"
		 "    - {cron: \"30 0 * * *\", max: 3}\n");
	ck_assert_int_eq(capture_count(&cap, "scheduled"), 2);
	e = capture_find(&cap, "scheduled", 0);
	ck_assert_double_eq_tol(e->t_s, 1199.8, 1e-9);
	ck_assert_int_eq(e->count, 5);
	e = capture_find(&cap, "scheduled", 1);
	ck_assert_double_eq_tol(e->t_s, 1799.4, 1e-9);
	ck_assert_int_eq(e->count, 3);
}
END_TEST

static Suite *world_schedule_suite(void)
{
	Suite *s = suite_create("world_schedule");
	TCase *tc = tcase_create("runs");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, fixed_fleet_follows_the_schedule);
	tcase_add_test(tc, empty_fleet_with_a_schedule_is_a_plan);
	tcase_add_test(tc, scheduled_min_is_not_blocked_by_the_cooldown);
	tcase_add_test(tc, cron_recurs_and_same_time_actions_run_in_order);
	tcase_add_test(tc, scheduled_max_widens_target_tracking);
	tcase_add_test(tc, fractional_seconds_place_actions_to_the_microsecond);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(world_schedule_suite());
}
