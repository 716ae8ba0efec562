/*
 * check_recommend_term: `gpucap recommend` over the whole term of a growing service, against a simulation of
 * the whole term.
 *
 * The service: a diurnal chat load (mean 1 request/s, amplitude 0.6, peak 18:00 UTC) that grows 0.2% a day
 * (x2.07 over the year), lognormal 6 s service (cv 0.6), 8 slots per p5.48xlarge, target tracking at 0.6
 * between 2 and 48; a 2-day window; a regional RI commitment varied 0 .. 6 and a Savings Plan computed. The
 * reference is the same plan simulated request by request for the 365 days of the term (horizon 365d, the
 * window method: nothing extrapolated, every RI count re-billed on the year's own hourly usage).
 *
 * Tolerances: the windows method within 3% of the full-term simulation (measured 0.2-0.9% over the counts);
 * the one-window extrapolation must miss it by more than 10% (it misses by 25-26%), so the 3% bound tells
 * the methods apart. The ladder's cost must equal the simulated bill of its own two RI purchases to the cent
 * per replication (the same fluid run, billed by the meter instead of re-billed).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "recommend.h"
#include "status.h"
#include "store_fixtures.h"
#include "testutil.h"

static const char growing[] =
	"name: growing\nseed: 7\nstart: 2027-01-04T00:00:00Z\nhorizon: 2d\n"
	"slo: {latency_s: 20, max_violation_rate: 0.02}\n"
	"workload:\n  arrivals: {kind: diurnal, rate_per_s: %s, amplitude: 0.6, peak_hour: 18, growth_per_day: %s}\n"
	"  service: {kind: lognormal, mean_s: 6.0, cv: 0.6}\n"
	"serving: {instance_type: p5.48xlarge, slots_per_instance: 8, queue_timeout_s: 60, startup_s: 7m}\n"
	"fleet:\n  - {option: on_demand, count: 4, max: %s}\n"
	"commitments:\n%s"
	"autoscaling: {policy: target_tracking, target: 0.6, min: 2, max: %s}\n";

static char *path;
static struct diag d;

/* Write the growing service with these figures and commitments; returns its path (static). */
static const char *scenario(const char *rate, const char *growth, const char *max, const char *commitments)
{
	char text[4096];

	snprintf(text, sizeof text, growing, rate, growth, max, commitments, max);
	if (path)
		test_remove_file(path);
	path = test_write_file("growing.yaml", text);
	return path;
}

static void teardown(void)
{
	if (path)
		test_remove_file(path);
	path = NULL;
}

static int search(struct recommend_opts *o, struct recommend_result *r)
{
	diag_clear(&d);
	return recommend_run(o, r, &d);
}

START_TEST(windows_follow_the_full_term)
{
	static const char *const year[] = { "horizon=365d", "sample_period=1h" };
	struct recommend_opts o = { .replications = 1, .jobs = 2 };  /* the default method: windows, as it grows */
	struct recommend_result win, full, one;
	const struct recommend_candidate *a, *b;

	ck_assert_int_eq(recommend_parse_vary("commitments.0.count=0..6", &o.vary[o.nvary++], &d), STATUS_OK);
	o.scenario = scenario("1", "0.002", "48", "  - {option: reserved, count: 0, term: 1y}\n"
			      "  - {option: savings_plan, commit_usd_per_h: 5, discount: 0.30, term: 1y}\n");
	ck_assert_msg(search(&o, &win) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(win.term, RECOMMEND_TERM_WINDOWS);
	ck_assert(win.term_auto);
	ck_assert_int_eq(win.term_windows, 4);
	o.term = RECOMMEND_TERM_WINDOW;
	o.sets = year;
	o.nsets = 2;
	ck_assert_msg(search(&o, &full) == STATUS_OK, "%s", d.msg);
	o.nsets = 0;
	ck_assert_msg(search(&o, &one) == STATUS_OK, "%s", d.msg);
	ck_assert_int_ge(win.base.best, 0);
	ck_assert_int_ge(full.base.best, 0);
	ck_assert_int_eq(win.base.ncands, full.base.ncands);
	a = &win.base.cands[win.base.best];
	b = &full.base.cands[win.base.best];
	/* the windows' choice is the full term's, and its cost is the full term's within 3% */
	ck_assert_int_eq(a->counts[0], full.base.cands[full.base.best].counts[0]);
	ck_assert_msg(fabs(a->cost_term_usd / b->cost_term_usd - 1) < 0.03, "windows $%.2f, full term $%.2f",
		      a->cost_term_usd, b->cost_term_usd);
	for (int i = 0; i < full.base.ncands; i++)
		ck_assert(full.base.cands[i].cost_term_usd >= b->cost_term_usd - 0.005);
	/* one window stretched to the year misses the growth by far more */
	ck_assert_msg(fabs(one.base.cands[win.base.best].cost_term_usd / b->cost_term_usd - 1) > 0.10,
		      "one window $%.2f, full term $%.2f", one.base.cands[win.base.best].cost_term_usd, b->cost_term_usd);
	ck_assert(one.base.cands[0].extrapolated[0] != '\0');
	ck_assert(full.base.cands[0].extrapolated[0] == '\0');
	/* the windows are checked by a fluid run over the term */
	ck_assert(win.checked);
	ck_assert_int_eq(win.check_term, RECOMMEND_TERM_FLUID);
	recommend_result_fini(&win);
	recommend_result_fini(&full);
	recommend_result_fini(&one);
}
END_TEST

/*
 * At 0.3% a day the load triples over the year: buying part of the RIs at the start and more in a later
 * quarter costs less over the term than the best count bought at the start. The ladder is re-billed; here it is
 * simulated: the same fluid run over the year with its two purchases written as commitments (the later one with
 * its term_start) costs what the ladder said, and the later purchase's hours after the term are what the run
 * says is still to pay. With 2 workers it is the same ladder (the hours' start times cross the pipe).
 */
START_TEST(ladder_is_the_bill_of_its_purchases)
{
	struct recommend_opts o = { .replications = 1, .jobs = 1, .term = RECOMMEND_TERM_FLUID };
	struct recommend_result r, r2, sim;
	char commit[512], date[32];
	time_t at;
	struct tm tm;

	ck_assert_int_eq(recommend_parse_vary("commitments.0.count=0..16:2", &o.vary[o.nvary++], &d), STATUS_OK);
	o.scenario = scenario("5", "0.003", "64", "  - {option: reserved, count: 0, term: 1y}\n");
	char *db = tmp_path("ladder.sqlite"), want[128], *got;

	o.db = db;
	ck_assert_msg(search(&o, &r) == STATUS_OK, "%s", d.msg);
	o.db = NULL;
	ck_assert(r.ladder.tried);
	ck_assert(r.ladder.better);
	/* the database keeps the decision on the choice's runs: the method, the rule, the ladder, what it owes */
	assert_text(db, "SELECT DISTINCT value FROM labels WHERE key = 'recommend_term_method'", "fluid");
	assert_text(db, "SELECT DISTINCT value FROM labels WHERE key = 'recommend_choose'", "base");
	snprintf(want, sizeof want, "commitments.0.count=%d+%d@%.17g", r.ladder.now, r.ladder.later, r.ladder.at_h);
	assert_text(db, "SELECT DISTINCT value FROM labels WHERE key = 'recommend_ladder'", want);
	ck_assert_double_eq_tol(query_double(db, "SELECT DISTINCT CAST(value AS REAL) FROM labels WHERE "
					     "key = 'recommend_owed_after_term_usd'"), r.ladder.owed_usd, 1e-6);
	got = query_text(db, "SELECT DISTINCT c.value FROM labels c JOIN labels h ON h.run_id = c.run_id AND "
			 "h.key = 'recommend_choice' WHERE c.key = 'recommend_candidate'");
	snprintf(want, sizeof want, "commitments.0.count=%d", r.base.cands[r.base.best].counts[0]);
	ck_assert_str_eq(got, want);
	free(got);
	tmp_remove(db);
	ck_assert_double_lt(r.ladder.cost_term_usd, r.base.cands[r.base.best].cost_term_usd);
	ck_assert_int_gt(r.ladder.later, 0);
	o.jobs = 2;
	ck_assert_msg(search(&o, &r2) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(r2.ladder.now, r.ladder.now);
	ck_assert_int_eq(r2.ladder.later, r.ladder.later);
	ck_assert_double_eq_tol(r2.ladder.cost_term_usd, r.ladder.cost_term_usd, 1e-6);
	/* the ladder as the scenario's own commitments, simulated over the year */
	at = (time_t)(r.start_unix_s + r.ladder.at_h * 3600);
	gmtime_r(&at, &tm);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(commit, sizeof commit, "  - {option: reserved, count: %d, term: 1y}\n"
		 "  - {option: reserved, count: %d, term: 1y, term_start: %s}\n", r.ladder.now, r.ladder.later, date);
	o.nvary = 0;
	o.jobs = 1;
	o.scenario = scenario("5", "0.003", "64", commit);
	ck_assert_msg(search(&o, &sim) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(sim.base.ncands, 1);
	ck_assert_double_eq_tol(sim.base.cands[0].cost_term_usd, r.ladder.cost_term_usd, 0.01);
	recommend_result_fini(&r);
	recommend_result_fini(&r2);
	recommend_result_fini(&sim);
}
END_TEST

/*
 * --growth prices each plan of the base search (its RI count and its Savings Plan $/h at BASE, held) in every
 * case: at BASE that is the base's own cost; at LOW and HIGH never less than the case's own optimum for the same
 * count (its plan re-optimised), and more for some count (the plan is held, not re-optimised). Each rule's choice
 * is worked out again here from the case costs: regret the least worst regret, expected the least mean over the
 * cases, base the cheapest at BASE.
 */
START_TEST(regret_holds_the_plan_and_each_rule_chooses_its_own)
{
	static const enum recommend_choose rules[] = { RECOMMEND_CHOOSE_BASE, RECOMMEND_CHOOSE_EXPECTED,
						       RECOMMEND_CHOOSE_REGRET };
	static const char *const day[] = { "horizon=1d" };  /* one day a window: the regret needs no more */
	struct recommend_opts o = { .replications = 1, .jobs = 2, .growth_given = true, .growth = { 0.8, 1, 1.25 },
				    .sets = day, .nsets = 1 };

	ck_assert_int_eq(recommend_parse_vary("commitments.0.count=0..12:2", &o.vary[o.nvary++], &d), STATUS_OK);
	o.scenario = scenario("5", "0.002", "48", "  - {option: reserved, count: 0, term: 1y}\n"
			      "  - {option: savings_plan, commit_usd_per_h: 5, discount: 0.30, term: 1y}\n");
	for (int u = 0; u < 3; u++) {
		struct recommend_result r;
		const struct recommend_search *cs[3];
		int want = -1, held = 0;
		double want_v = INFINITY;
		o.choose = rules[u];
		ck_assert_msg(search(&o, &r) == STATUS_OK, "%s", d.msg);
		cs[0] = &r.low;
		cs[1] = &r.base;
		cs[2] = &r.high;
		ck_assert(r.regret);
		for (int i = 0; i < r.base.ncands; i++) {
			double regret[3], worst = recommend_regret(&r, i, regret), v = 0;
			ck_assert_double_eq_tol(r.case_cost[1][i], r.base.cands[i].cost_term_usd, 1e-6);
			for (int c = 0; c < 3; c += 2) {
				ck_assert(r.case_cost[c][i] >= cs[c]->cands[i].cost_term_usd - 0.005);
				held += r.case_cost[c][i] > cs[c]->cands[i].cost_term_usd + 1;
			}
			for (int c = 0; c < 3; c++) {
				ck_assert_int_ge(r.case_best[c], 0);
				if (cs[c]->cands[i].feasible)
					ck_assert(r.case_cost[c][i] >= r.case_cost[c][r.case_best[c]] - 1e-9);
				v += r.case_cost[c][i] / 3;
			}
			v = rules[u] == RECOMMEND_CHOOSE_REGRET ? worst : rules[u] == RECOMMEND_CHOOSE_EXPECTED ? v :
			    r.base.cands[i].cost_term_usd;
			if (r.base.cands[i].feasible && v < want_v) {
				want_v = v;
				want = i;
			}
		}
		ck_assert_int_gt(held, 0);
		ck_assert_int_eq(r.base.best, want);
		recommend_result_fini(&r);
	}
}
END_TEST

/* The options that cannot be followed are refused before any run. */
START_TEST(term_options_are_checked)
{
	struct recommend_opts o = { .replications = 1, .term = RECOMMEND_TERM_FLUID };
	struct recommend_result r;

	o.scenario = scenario("1", "0.002", "48", "  - {option: savings_plan, commit_usd_per_h: 5, discount: 0.3, "
			      "term: 3y}\n");
	ck_assert_int_eq(search(&o, &r), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "--term fluid: the term is 1095 days"), "%s", d.msg);
	ck_assert_int_eq(r.runs, 0);
	recommend_result_fini(&r);
	/* a scenario fluid mode refuses is refused once, with the loader's words, not as every candidate invalid */
	o.scenario = scenario("1", "0.002", "48", "  - {option: reserved, count: 0, term: 1y}\n");
	o.sets = (const char *const[]){ "serving.max_queue=0" };
	o.nsets = 1;
	ck_assert_int_eq(search(&o, &r), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "--term fluid runs the scenario over the term in fluid mode, which refuses it: ") &&
		      strstr(d.msg, "serving.max_queue") && strstr(d.msg, "use --term windows"), "%s", d.msg);
	ck_assert_int_eq(r.runs, 0);
	recommend_result_fini(&r);
	o.nsets = 0;
	o.term = RECOMMEND_TERM_WINDOW;
	o.choose = RECOMMEND_CHOOSE_REGRET;
	ck_assert_int_eq(search(&o, &r), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "needs --growth"), "%s", d.msg);
	recommend_result_fini(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("recommend_term");
	TCase *tc = tcase_create("term");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 900);
	test_add(tc, windows_follow_the_full_term);
	test_add(tc, ladder_is_the_bill_of_its_purchases);
	test_add(tc, regret_holds_the_plan_and_each_rule_chooses_its_own);
	test_add(tc, term_options_are_checked);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
