/*
 * validation_conserved_runs: the example scenarios run with the end-of-run conservation check compiled in.
 *
 * This suite links its own copy of models/run/world.c built without NDEBUG (tests/CMakeLists.txt), so
 * check_conserved() runs at the end of each run even in a release build of the suite: a broken identity
 * (tests/README.md, "How the numbers are checked") fails the run with STATUS_EINTERNAL and the identity in the
 * message. The scenarios are the examples quick enough for the suite, together covering reserved, Spot (a
 * trace), on-demand, Savings Plans and reservations, a Capacity Block, a training plan, copies, autoscaling
 * and jobs; spot-burst and chat-serving are cut to 2 h. Their Little's law error is checked as well.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "capture.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

static void run_example(const char *name, const char *set)
{
	static struct capture cap;
	char path[512];
	struct scenario sc;
	struct world_report rep;
	struct diag d;
	struct sink sink = capture_sink(&cap);
	const char *sets[1] = { set };
	double ll;

	snprintf(path, sizeof path, "%s/%s", SCENARIO_DIR, name);
	ck_assert_msg(scenario_load(&sc, path, sets, set ? 1 : 0, &d) == STATUS_OK, "%s: %s", name, d.msg);
	ck_assert_msg(world_run(&sc, &sink, "test", &rep, &d) == STATUS_OK, "%s: %s", name, d.msg);
	ll = world_report_get(&rep, "littles_law_error");
	ck_assert_msg(world_report_get(&rep, "requests_total") > 0 ? ll < 0.01 : isnan(ll),
		      "%s: littles_law_error %g", name, ll);
	scenario_fini(&sc);
}

START_TEST(examples_conserve)
{
	static const char *const quick[] = { "azure-conv.yaml", "azure-code.yaml", "jobs-finetune.yaml",
		"jobs-finetune-plan.yaml", "jobs-finetune-block.yaml", "jobs-loadtest.yaml",
		"recommend-commitments.yaml", "spot-trace.yaml", "copies-scale-to-zero.yaml" };

	for (size_t i = 0; i < sizeof quick / sizeof quick[0]; i++)
		run_example(quick[i], NULL);
	run_example("spot-burst.yaml", "horizon=2h");
	run_example("chat-serving.yaml", "horizon=2h");
}
END_TEST

static Suite *conserved_suite(void)
{
	Suite *s = suite_create("validation_conserved_runs");
	TCase *tc = tcase_create("examples");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, examples_conserve);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(conserved_suite());
}
