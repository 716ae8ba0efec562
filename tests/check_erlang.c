/*
 * check_erlang: the simulator against queueing theory.
 *
 * M/M/c: Poisson arrivals at rate lambda, exponential service with mean 1/mu, c reserved single-slot
 * instances, no autoscaling, no timeout. Erlang C gives the probability of waiting
 *     C(c, a) = B / (1 - rho (1 - B)),  a = lambda / mu, rho = a / c, B = Erlang B (by its recursion),
 * and the mean wait W = C / (c mu - lambda). waited_fraction estimates C (PASTA) and wait_mean_s W.
 *
 * Tolerance, stated: R = 20 independent replications (seeds base..base+19), each long against the queue's
 * relaxation time; the estimate is their mean and its standard error SE their sample sd / sqrt(R). The
 * test asserts |mean - theory| <= 5 SE (with Student's t on 19 degrees of freedom a false alarm has
 * probability about 1e-4 per check, ~0.1% for the suite, whatever the seed) AND SE <= 4% of theory, so
 * the check cannot pass by being imprecise: a 20% error in the simulator is always caught.
 * Also Little's law: mean busy slots = a, from gpu_hours_busy.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "capture.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

#define REPS 20

static double erlang_c(int c, double a)
{
	double b = 1.0;

	for (int k = 1; k <= c; k++)
		b = a * b / (k + a * b);
	return b / (1.0 - (a / c) * (1.0 - b));
}

struct mmc_case {
	double lambda, mu;
	int c;
	double horizon_h;
};

static void one_run(const struct mmc_case *m, uint64_t seed, double *pw, double *w, double *busy_slots)
{
	static struct capture cap;
	char yaml[1024];
	struct scenario sc;
	struct world_report rep;
	struct diag d;
	struct sink sink = capture_sink(&cap);

	snprintf(yaml, sizeof yaml,
		 "name: mmc\nseed: %llu\nhorizon: %gh\nslo: {latency_s: 1000}\n"
		 "workload:\n  arrivals: {kind: poisson, rate_per_s: %.17g}\n"
		 "  service: {kind: exponential, mean_s: %.17g}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 1}\n"
		 "fleet:\n  - {option: reserved, count: %d, scope: zonal}\n",
		 (unsigned long long)seed, m->horizon_h, m->lambda, 1.0 / m->mu, m->c);
	ck_assert_msg(scenario_parse_string(&sc, yaml, "mmc.yaml", NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(world_run(&sc, &sink, "test", &rep, &d) == STATUS_OK, "%s", d.msg);
	*pw = world_report_get(&rep, "waited_fraction");
	*w = world_report_get(&rep, "wait_mean_s");
	/* g6.xlarge has 1 GPU and 1 slot: busy GPU-hours / hours = mean busy slots */
	*busy_slots = world_report_get(&rep, "gpu_hours_busy") / m->horizon_h;
	scenario_fini(&sc);
}

static void check_close(const char *what, const double *x, double theory)
{
	double mean = 0, var = 0, se;

	for (int i = 0; i < REPS; i++)
		mean += x[i] / REPS;
	for (int i = 0; i < REPS; i++)
		var += (x[i] - mean) * (x[i] - mean) / (REPS - 1);
	se = sqrt(var / REPS);
	fprintf(stderr, "  %-16s sim %.6g +- %.2g (SE)  theory %.6g  (%.2f SE off)\n", what, mean, se, theory,
		fabs(mean - theory) / se);
	ck_assert_msg(se <= 0.04 * theory, "%s: SE %g is too large to test against %g", what, se, theory);
	ck_assert_msg(fabs(mean - theory) <= 5 * se, "%s: %g vs Erlang C %g (SE %g)", what, mean, theory, se);
}

static void check_case(const struct mmc_case *m)
{
	double pw[REPS], w[REPS], busy[REPS];
	double a = m->lambda / m->mu, c_prob = erlang_c(m->c, a);
	double wait = c_prob / (m->c * m->mu - m->lambda);
	/* a different base per case, so the cases do not share random numbers */
	uint64_t base = test_seed("erlang", 1000) + 100 * (uint64_t)m->c;

	fprintf(stderr, "M/M/%d lambda=%g mu=%g rho=%.3f, %d x %g h\n", m->c, m->lambda, m->mu, a / m->c, REPS,
		m->horizon_h);
	for (int r = 0; r < REPS; r++)
		one_run(m, base + (uint64_t)r, &pw[r], &w[r], &busy[r]);
	check_close("waited_fraction", pw, c_prob);
	check_close("wait_mean_s", w, wait);
	check_close("busy slots", busy, a);
}

START_TEST(mm1)
{
	struct mmc_case m = { 0.7, 1.0, 1, 20 };
	check_case(&m);
}
END_TEST

START_TEST(mm10)
{
	struct mmc_case m = { 8.0, 1.0, 10, 4 };
	check_case(&m);
}
END_TEST

START_TEST(mm100)
{
	struct mmc_case m = { 90.0, 1.0, 100, 1.5 };
	check_case(&m);
}
END_TEST

START_TEST(mm250_slow_service)
{
	/* LLM-like: 40 s replies, 250 single-slot servers, 5.8 requests/s (rho 0.928) */
	struct mmc_case m = { 5.8, 1.0 / 40, 250, 26 };
	check_case(&m);
}
END_TEST

START_TEST(erlang_c_reference_values)
{
	/* The formula itself against published values: M/M/1 C = rho; M/M/2 with a = 1: C = 1/3. */
	ck_assert_double_eq_tol(erlang_c(1, 0.7), 0.7, 1e-12);
	ck_assert_double_eq_tol(erlang_c(2, 1.0), 1.0 / 3.0, 1e-12);
}
END_TEST

static Suite *erlang_suite(void)
{
	Suite *s = suite_create("erlang");
	TCase *tc = tcase_create("mmc");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, erlang_c_reference_values);
	tcase_add_test(tc, mm1);
	tcase_add_test(tc, mm10);
	tcase_add_test(tc, mm100);
	tcase_add_test(tc, mm250_slow_service);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(erlang_suite());
}
