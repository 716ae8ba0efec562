/*
 * validation_erlang: the simulator against Erlang B (a loss system) and Erlang C up to 1000 servers.
 *
 * Loss system (M/M/c/c): Poisson arrivals at lambda, exponential service of mean 1/mu, c reserved
 * single-slot instances and serving.max_queue: 0, so a request that finds every slot busy is refused.
 * The share refused, requests_refused / requests_total, estimates Erlang B (PASTA: arrivals see time
 * averages). Erlang C at c = 1000: the same with the default (unbounded in practice) queue; waited_fraction
 * estimates C (tests/check_erlang.c goes to c = 250, and checks the mean wait too).
 * Tolerance: queueing.c (20 replications, within 5 standard errors, standard error under 4% of theory).
 * Every run also has littles_law_error under 1% (models/README.md, "Metrics"): these runs are long against the
 * requests' time in system, so the window's edges weigh < 1e-3.
 *
 * The formulas themselves are checked first, against hand-worked values and, at c = 1000 where a^c / c!
 * overflows, against the log-space formula and the Halfin-Whitt limit.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "capture.h"
#include "queueing.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

#define REPS 20

struct mmc_case {
	int id;         /* the case's number: its replications take seeds base + 100 id + 0..REPS-1 */
	double lambda, mu;
	int c;
	double horizon_h;
	int max_queue;  /* 0: loss system; -1: the default queue */
};

/* One replication: refused share, waited_fraction and wait_mean_s. */
static void one_run(const struct mmc_case *m, uint64_t seed, double *refused, double *pw, double *w)
{
	static struct capture cap;
	char yaml[1024], queue[32] = "";
	struct scenario sc;
	struct world_report rep;
	struct diag d;
	struct sink sink = capture_sink(&cap);
	double ll;

	if (m->max_queue >= 0)
		snprintf(queue, sizeof queue, ", max_queue: %d", m->max_queue);
	snprintf(yaml, sizeof yaml,
		 "name: erlang\nseed: %llu\nhorizon: %gh\nslo: {latency_s: 1000}\n"
		 "workload:\n  arrivals: {kind: poisson, rate_per_s: %.17g}\n"
		 "  service: {kind: exponential, mean_s: %.17g}\n"
		 "serving: {queue: central, instance_type: g6.xlarge, slots_per_instance: 1%s}\n"
		 "fleet:\n  - {option: reserved, count: %d, scope: zonal}\n",
		 (unsigned long long)seed, m->horizon_h, m->lambda, 1.0 / m->mu, queue, m->c);
	ck_assert_msg(scenario_parse_string(&sc, yaml, "erlang.yaml", NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(world_run(&sc, &sink, "test", &rep, &d) == STATUS_OK, "%s", d.msg);
	*refused = world_report_get(&rep, "requests_refused") / world_report_get(&rep, "requests_total");
	*pw = world_report_get(&rep, "waited_fraction");
	*w = world_report_get(&rep, "wait_mean_s");
	ll = world_report_get(&rep, "littles_law_error");
	ck_assert_msg(ll < 0.01, "littles_law_error %g (seed %llu)", ll, (unsigned long long)seed);
	scenario_fini(&sc);
}

static void run_case(const struct mmc_case *m, double *refused, double *pw, double *w)
{
	/* a different base per case, so the cases do not share random numbers */
	uint64_t base = test_seed("validation_erlang", 5000) + 100 * (uint64_t)m->id;

	fprintf(stderr, "M/M/%d%s lambda=%g mu=%g a=%g, %d x %g h\n", m->c, m->max_queue == 0 ? "/loss" : "",
		m->lambda, m->mu, m->lambda / m->mu, REPS, m->horizon_h);
	for (int r = 0; r < REPS; r++)
		one_run(m, base + (uint64_t)r, &refused[r], &pw[r], &w[r]);
}

static void check_loss(const struct mmc_case *m)
{
	double refused[REPS], pw[REPS], w[REPS];

	run_case(m, refused, pw, w);
	queueing_check_close("refused share", refused, REPS, queueing_erlang_b(m->c, m->lambda / m->mu));
}

START_TEST(erlang_formulas_hand_worked)
{
	/* B(1, a) = a / (1 + a): B(1, 0.8) = 0.8 / 1.8 = 0.444...; B(2, 1) = (1/2) / (1 + 1 + 1/2) = 0.2;
	 * C(2, 1) = 0.2 / (1 - 0.5 x 0.8) = 1/3; C(1, rho) = rho. */
	ck_assert_double_eq_tol(queueing_erlang_b(1, 0.8), 0.8 / 1.8, 1e-15);
	ck_assert_double_eq_tol(queueing_erlang_b(2, 1.0), 0.2, 1e-15);
	ck_assert_double_eq_tol(queueing_erlang_c(2, 1.0), 1.0 / 3.0, 1e-15);
	ck_assert_double_eq_tol(queueing_erlang_c(1, 0.7), 0.7, 1e-15);
	/* the published Erlang B table: 10 servers at 8 Erlangs block 12.17% */
	ck_assert_double_eq_tol(queueing_erlang_b(10, 8.0), 0.1217, 5e-5);
}
END_TEST

START_TEST(erlang_c_stable_to_1000)
{
	/* a^c / c! is out of double range from c = 171 (1000^1000 / 1000! ~ 1e434): the recursion never forms
	 * it. Against the log-space formula, relative 1e-9, for c up to 1000 at loads 0.5 .. 0.99. */
	const int cs[] = { 1, 10, 100, 171, 250, 500, 1000 };
	const double rhos[] = { 0.5, 0.8, 0.95, 0.99 };

	for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
		for (size_t j = 0; j < sizeof rhos / sizeof rhos[0]; j++) {
			double a = rhos[j] * cs[i], b = queueing_erlang_b(cs[i], a), bl = queueing_erlang_b_log(cs[i], a);
			double c = queueing_erlang_c(cs[i], a);
			ck_assert_msg(fabs(b - bl) <= 1e-9 * bl, "B(%d, %g): recursion %.17g, log formula %.17g", cs[i],
				      a, b, bl);
			ck_assert_msg(isfinite(c) && c > 0 && c < 1, "C(%d, %g) = %g", cs[i], a, c);
		}
	/*
	 * Halfin-Whitt: with c servers at rho = 1 - beta / sqrt(c), C -> 1 / (1 + beta Phi(beta) / phi(beta)) as
	 * c grows. c = 1000, a = 970: beta = 0.03 x sqrt(1000) = 0.94868; Phi(beta) = 0.82859, phi(beta) =
	 * 0.25440, so C ~ 1 / (1 + 0.94868 x 3.25704) = 0.24451. The exact value is 0.24282: the limit is
	 * 0.7% off at c = 1000, so 2% is the stated tolerance.
	 */
	double beta = 0.03 * sqrt(1000.0);
	double phi = exp(-beta * beta / 2) / sqrt(2 * acos(-1.0)), cdf = 0.5 * erfc(-beta / sqrt(2.0));
	double hw = 1.0 / (1.0 + beta * cdf / phi);
	ck_assert_double_eq_tol(hw, 0.24451, 5e-5);
	ck_assert_msg(fabs(queueing_erlang_c(1000, 970.0) - hw) <= 0.02 * hw, "C(1000, 970) = %.6g vs %.6g",
		      queueing_erlang_c(1000, 970.0), hw);
}
END_TEST

START_TEST(loss_mm1)
{
	struct mmc_case m = { 1, 0.8, 1.0, 1, 4, 0 };
	check_loss(&m);
}
END_TEST

START_TEST(loss_mm10)
{
	struct mmc_case m = { 2, 8.0, 1.0, 10, 2, 0 };
	check_loss(&m);
}
END_TEST

START_TEST(loss_mm50)
{
	struct mmc_case m = { 3, 45.0, 1.0, 50, 0.5, 0 };
	check_loss(&m);
}
END_TEST

START_TEST(loss_llm_like)
{
	/* 20 s replies, 40 single-slot instances, 2 requests/s: 40 Erlangs on 40 servers */
	struct mmc_case m = { 4, 2.0, 1.0 / 20, 40, 4, 0 };
	check_loss(&m);
}
END_TEST

START_TEST(loss_mm1000)
{
	/* 1000 servers at 1000 Erlangs (20 s replies, 50 requests/s) */
	struct mmc_case m = { 5, 50.0, 1.0 / 20, 1000, 1, 0 };
	check_loss(&m);
}
END_TEST

START_TEST(erlang_c_mm1000)
{
	/*
	 * 1000 servers, 20 s replies, 48.5 requests/s: a = 970, rho = 0.97; C(1000, 970) = 0.24282 (Erlang B
	 * recursion). Only the probability of waiting is held to theory here: the mean wait C / (c mu - lambda)
	 * = 0.24282 / 1.5 = 0.16188 s varies too much between replications near saturation at this size (a
	 * standard error of 6.7% of theory with 2 h runs and still 6.2% with 8 h ones), so no run short enough for
	 * the suite pins it to 4%; tests/check_erlang.c checks the mean wait up to c = 250.
	 */
	struct mmc_case m = { 6, 48.5, 1.0 / 20, 1000, 6, -1 };
	double refused[REPS], pw[REPS], w[REPS];

	run_case(&m, refused, pw, w);
	queueing_check_close("waited_fraction", pw, REPS, queueing_erlang_c(1000, 970.0));
}
END_TEST

static Suite *erlang_suite(void)
{
	Suite *s = suite_create("validation_erlang");
	TCase *tc = tcase_create("erlang");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, erlang_formulas_hand_worked);
	tcase_add_test(tc, erlang_c_stable_to_1000);
	tcase_add_test(tc, loss_mm1);
	tcase_add_test(tc, loss_mm10);
	tcase_add_test(tc, loss_mm50);
	tcase_add_test(tc, loss_llm_like);
	tcase_add_test(tc, loss_mm1000);
	tcase_add_test(tc, erlang_c_mm1000);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(erlang_suite());
}
