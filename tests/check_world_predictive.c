/*
 * check_world_predictive: the shipped scenario predictive-diurnal.yaml (a diurnal load, 20 min startup, 4
 * days) run twice on the same seed, with policy predictive and with target_tracking at the same 0.7
 * target and its default alarms and cooldowns. Predictive must violate the SLO less often, at a total
 * cost within +-15% of target tracking's. The numbers are printed (they are quoted in README.md).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>

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

static Suite *world_predictive_suite(void)
{
	Suite *s = suite_create("world_predictive");
	TCase *tc = tcase_create("comparison");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, predictive_beats_target_tracking_on_a_diurnal_load);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(world_predictive_suite());
}
