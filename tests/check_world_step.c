/*
 * check_world_step: a whole run under step scaling whose timeline is computed by hand
 * (SOURCES.md [step-alarms], [step-bounds], [aas-cooldown-out]), on the deterministic load of check_world.c's
 * target-tracking timeline: uniform arrivals that step 10 -> 30 -> 10 requests/s, each 1 s long, on 10-slot
 * instances.
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

/* Run YAML text with optional overrides into the capture; fails the test on any error. */
static void run_text(const char *yaml, const char *const *sets, int nsets)
{
	capture_run(&cap, yaml, sets, nsets);
}

static double M(const char *name)
{
	return capture_need(&cap, name);
}

static const char step_load[] =
	"name: steps\nhorizon: 1h\nslo: {latency_s: 5}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 600s, rate_per_s: 30},"
	" {at: 1800s, rate_per_s: 10}]}\n  service: {kind: constant, mean_s: 1}\n"
	"serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
	"fleet:\n  - {option: reserved, count: 4, usd_per_h: 10, scope: zonal}\n  - {option: on_demand, max: 6, usd_per_h: 36}\n"
	"autoscaling:\n"
	"  policy: step\n  metric: concurrency_per_instance\n  min: 4\n  max: 10\n  resolution_s: 60\n"
	"  adjustment_type: change_in_capacity\n  scale_out_cooldown_s: 300\n  scale_in_cooldown_s: 300\n"
	"  scale_out: {threshold: 0.65, comparison: greater_or_equal, evaluation_periods: 2,"
	" datapoints_to_alarm: 2,\n              steps: [{lower: 0, upper: 0.05, adjustment: 1},"
	" {lower: 0.05, adjustment: 2}]}\n"
	"  scale_in: {threshold: 0.3, comparison: less_or_equal, evaluation_periods: 3,"
	" datapoints_to_alarm: 3, steps: [{upper: 0, adjustment: -1}]}\n";

START_TEST(step_timeline_by_hand)
{
	const struct capture_event *e;

	run_text(step_load, NULL, 0);
	/*
	 * By hand (SOURCES.md [step-alarms], [step-bounds], [aas-cooldown-out]). Before 600 s the metric is
	 * 10/40 = 0.25 <= 0.3: the scale-in alarm is in ALARM from 180 s (3 of 3), but 4 - 1 = 3 is raised to
	 * min 4: hold. At 660 s the datapoint over [600, 660] is ~0.74 >= 0.65: 1 of 2, no alarm yet. At 720
	 * s, 0.75: 2 of 2, ALARM; 0.75 - 0.65 = 0.10 is in [0.05, +inf): +2 -> 6, scale-out cooldown to 1020
	 * s from base 4. Two on-demand instances launch at 720 s and are ready at 840 s. At 780 and 840 s the
	 * alarm is still in ALARM (4 instances in service, 0.75) but in the cooldown +2 from base 4 is 6, no
	 * more: hold. From 900 s the metric is 30/60 = 0.5: no alarm. After the step down at 1800 s the
	 * metric is 10/60 = 0.17: the scale-in alarm reaches 3 of 3 at 1980 s: -1 -> 5, scale-in cooldown to
	 * 2280 s; 10/50 = 0.2 keeps it in ALARM, blocked until 2280 s: -1 -> 4. Then min 4 holds.
	 */
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 1);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_double_eq_tol(e->t_s, 720, 1e-9);
	ck_assert_int_eq(e->count, 6);
	e = capture_find(&cap, "launch", 0);
	ck_assert_double_eq_tol(e->t_s, 720, 1e-9);
	ck_assert_int_eq(e->count, 2);
	ck_assert_str_eq(e->option, "on_demand");
	ck_assert_int_eq(capture_count(&cap, "ready"), 2);
	ck_assert_double_eq_tol(capture_find(&cap, "ready", 1)->t_s, 840, 1e-9);
	ck_assert_int_eq(capture_count(&cap, "scale_in"), 2);
	e = capture_find(&cap, "scale_in", 0);
	ck_assert_double_eq_tol(e->t_s, 1980, 1e-9);
	ck_assert_int_eq(e->count, 5);
	e = capture_find(&cap, "scale_in", 1);
	ck_assert_double_eq_tol(e->t_s, 2280, 1e-9);
	ck_assert_int_eq(e->count, 4);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 2);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 1980, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 1)->t_s, 2280, 1e-9);
	ck_assert_double_eq(M("scale_out_actions"), 1);
	ck_assert_double_eq(M("scale_in_actions"), 2);
	ck_assert_double_eq(M("instances_peak"), 6);
	/* on-demand: (1980 - 720) + (2280 - 720) = 2820 s x $36/h = $28.20 */
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 28.20, 0.005);
}
END_TEST

START_TEST(single_datapoint_alarm_scales_out_sooner)
{
	/* With evaluation_periods 1 the first datapoint over 0.65 (~0.74 at 660 s) alarms: +2 at 660 s,
	 * ready at 780 s; everything else as above, so the scale-ins stay at 1980 and 2280 s. */
	const char *sets[] = { "autoscaling.scale_out.evaluation_periods=1",
			       "autoscaling.scale_out.datapoints_to_alarm=1" };
	run_text(step_load, sets, 2);
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "scale_out", 0)->t_s, 660, 1e-9);
	ck_assert_int_eq(capture_find(&cap, "scale_out", 0)->count, 6);
	ck_assert_double_eq_tol(capture_find(&cap, "ready", 1)->t_s, 780, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "scale_in", 0)->t_s, 1980, 1e-9);
}
END_TEST

static Suite *world_step_suite(void)
{
	Suite *s = suite_create("world_step");
	TCase *tc = tcase_create("runs");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, step_timeline_by_hand);
	tcase_add_test(tc, single_datapoint_alarm_scales_out_sooner);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(world_step_suite());
}
