/*
 * check_world_predictive: the shipped scenario predictive-diurnal.yaml (a diurnal load, 20 min startup, 4
 * days) run twice on the same seed, with policy predictive and with target_tracking at the same 0.7
 * target and its default alarms and cooldowns. Predictive must violate the SLO less often, at a total
 * cost within +-15% of target tracking's. The numbers are printed (they are quoted in README.md). And a
 * deterministic two-day load whose predictive timeline is worked out by hand.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

static struct capture cap;

/* Run the shipped scenario with one override into the capture; fails the test on any error. */
static void run_policy(const char *policy, double *violations, double *rate, double *cost)
{
	char path[512], set[64];
	const char *sets[] = { set };
	struct scenario sc;
	struct world_report rep;
	struct diag d;
	struct sink sink = capture_sink(&cap);
	int rc;

	snprintf(path, sizeof path, "%s/predictive-diurnal.yaml", SCENARIO_DIR);
	snprintf(set, sizeof set, "autoscaling.policy=%s", policy);
	rc = scenario_load(&sc, path, sets, 1, &d);
	ck_assert_msg(rc == STATUS_OK, "scenario: %s", d.msg);
	rc = world_run(&sc, &sink, "test", &rep, &d);
	ck_assert_msg(rc == STATUS_OK, "run: %s", d.msg);
	ck_assert_int_eq(cap.end_status, STATUS_OK);
	*violations = capture_metric(&cap, "slo_violations");
	*rate = capture_metric(&cap, "slo_violation_rate");
	*cost = capture_metric(&cap, "cost_total_usd");
	ck_assert(!isnan(*violations) && !isnan(*rate) && !isnan(*cost));
	printf("predictive-diurnal seed %llu, %-15s: %.0f SLO violations (%.4f%%), cost $%.2f\n",
	       (unsigned long long)sc.seed, policy, *violations, 100 * *rate, *cost);
	scenario_fini(&sc);
}

START_TEST(predictive_beats_target_tracking_on_a_diurnal_load)
{
	double pv, pr, pc, tv, tr, tc;

	run_policy("predictive", &pv, &pr, &pc);
	run_policy("target_tracking", &tv, &tr, &tc);
	ck_assert_msg(pv < tv, "predictive %.0f violations, target tracking %.0f", pv, tv);
	ck_assert_msg(fabs(pc / tc - 1) <= 0.15, "cost: predictive $%.2f, target tracking $%.2f", pc, tc);
}
END_TEST

/*
 * 10 requests/s of exactly 1 s, 30/s from 10:00 to 12:00 UTC on both days; 10 slots an instance, target
 * 0.5, one-hour periods, instances ready 10 minutes after launch, so lead = 600 + 3600 = 4200 s: the
 * evaluation at hour j forecasts period j + 2 (the hour ending at (j + 2) h) from period j + 2 - 24.
 */
static const char daily_step[] =
	"name: predictive-daily-step\nhorizon: 2d\nslo: {latency_s: 60}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 10h, rate_per_s: 30},"
	" {at: 12h, rate_per_s: 10}, {at: 34h, rate_per_s: 30}, {at: 36h, rate_per_s: 10}]}\n"
	"  service: {kind: constant, mean_s: 1}\n"
	"serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 600}\n"
	"fleet:\n  - {option: on_demand, count: 6, max: 10, usd_per_h: 1}\n"
	"autoscaling: {policy: predictive, target: 0.5, min: 1, max: 10, resolution_s: 3600}\n";

START_TEST(predictive_timeline_by_hand)
{
	/*
	 * By hand (models/README.md, "Autoscaling: predictive"):
	 *  - hours 1-22: no forecast yet (period j + 2 - 24 < 1): only scale-outs to the floor, and the metric
	 *    (10/60, then 30/60 = 0.5 in the busy hours) is never above 0.5: hold at 6.
	 *  - hour 23: forecast of period 25 from period 1: 10/s x 1 s / (10 x 0.5) = 2; floor 10 / 5 = 2; metric
	 *    below target -> scale in to 2.
	 *  - hour 33 (09:00 on day 2): period 35 (10:00-11:00) from period 11: 30/s -> P = 6 -> scale out to 6,
	 *    ready at 09:10, before the step.
	 *  - hours 34-36: forecasts 6, 2, 2 but the floor is 2, 6, 6 (the hour just ended at 30/s): hold at 6.
	 *  - hour 37 (13:00): forecast 2; the floor counts the peak's last requests, which ended in the first
	 *    second after 12:00: (10 x 3600 + 10) slot-s / 3600 s = 10.003 busy slots -> ceil(2.0006) = 3;
	 *    metric below target -> scale in to 3.
	 *  - hour 38: forecast 2, floor 2 -> scale in to 2; then hold to the end.
	 * The second day's peak is met by instances that are already serving: nobody waits.
	 */
	const double t[4] = { 23 * 3600.0, 33 * 3600.0, 37 * 3600.0, 38 * 3600.0 };
	const int n[4] = { 2, 6, 3, 2 };
	const char *kind[4] = { "scale_in", "scale_out", "scale_in", "scale_in" };
	const int nth[4] = { 0, 0, 1, 2 };
	const struct capture_event *e;

	capture_run(&cap, daily_step, NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "scale_in"), 3);
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 1);
	for (int i = 0; i < 4; i++) {
		e = capture_find(&cap, kind[i], nth[i]);
		ck_assert_double_eq_tol(e->t_s, t[i], 1e-9);
		ck_assert_int_eq(e->count, n[i]);
	}
	e = capture_find(&cap, "launch", 0);
	ck_assert_double_eq_tol(e->t_s, 33 * 3600.0, 1e-9);
	ck_assert_int_eq(e->count, 4);
	ck_assert_double_eq_tol(capture_find(&cap, "ready", 3)->t_s, 33 * 3600.0 + 600, 1e-9);
	/* the first day's peak was served by the 6 instances of the start, the second's by those launched
	 * ahead of it: no request waited on either day */
	ck_assert_double_eq(capture_metric(&cap, "waited_fraction"), 0);
	ck_assert_double_eq(capture_metric(&cap, "requests_served"), capture_metric(&cap, "requests_total"));
}
END_TEST

static Suite *world_predictive_suite(void)
{
	Suite *s = suite_create("world_predictive");
	TCase *tc = tcase_create("comparison");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, predictive_beats_target_tracking_on_a_diurnal_load);
	tcase_add_test(tc, predictive_timeline_by_hand);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(world_predictive_suite());
}
