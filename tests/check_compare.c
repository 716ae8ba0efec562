/*
 * check_compare: the statistics of gpucap compare (analysis/compare.h): Student-t intervals, paired and
 * Welch differences against hand-worked values, and the coverage of the 95% interval over many independent
 * repetitions of a simulation whose true mean is known exactly.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "capture.h"
#include "compare.h"
#include "testutil.h"

#define TOL 1e-6  /* the hand values below are written to 7 significant digits */

/*
 * {1, 2, 3, 4, 5}: mean 3; s = sqrt((4 + 1 + 0 + 1 + 4) / 4) = sqrt(2.5) = 1.5811388; se = s / sqrt(5) =
 * 0.7071068; t(0.975, 4) = 2.776445; half-width 2.776445 x 0.7071068 = 1.9632432.
 */
START_TEST(interval_of_five_values)
{
	const double x[] = { 1, 2, 3, 4, 5 };
	struct compare_ci ci;

	compare_ci95(x, 5, &ci);
	ck_assert_int_eq(ci.n, 5);
	ck_assert_double_eq_tol(ci.mean, 3, 1e-12);
	ck_assert_double_eq_tol(ci.sd, 1.5811388, TOL);
	ck_assert_double_eq_tol(ci.se, 0.7071068, TOL);
	ck_assert_double_eq_tol(ci.half, 1.9632432, TOL);
}
END_TEST

/* NaN values are left out ({4, NaN, 6}: n 2, mean 5, s = sqrt(2) = 1.4142136, half 12.706205 x 1 = 12.706205);
 * one value has a mean but no interval; none has neither. */
START_TEST(interval_leaves_out_nan_and_needs_two)
{
	const double x[] = { 4, NAN, 6 };
	struct compare_ci ci;

	compare_ci95(x, 3, &ci);
	ck_assert_int_eq(ci.n, 2);
	ck_assert_double_eq_tol(ci.mean, 5, 1e-12);
	ck_assert_double_eq_tol(ci.sd, 1.4142136, TOL);
	ck_assert_double_eq_tol(ci.half, 12.706205, TOL);
	compare_ci95(x, 1, &ci);
	ck_assert_int_eq(ci.n, 1);
	ck_assert_double_eq(ci.mean, 4);
	ck_assert(isnan(ci.sd) && isnan(ci.half));
	compare_ci95(x + 1, 1, &ci);
	ck_assert_int_eq(ci.n, 0);
	ck_assert(isnan(ci.mean));
}
END_TEST

/*
 * Welch: x = {1, 2, 3, 4, 5} (mean 3, s^2 2.5, n 5), b = {2, 4, 6} (mean 4, s^2 4, n 3). diff = -1;
 * s_x^2/n_x = 0.5, s_b^2/n_b = 1.3333333; se = sqrt(1.8333333) = 1.3540064; df = 1.8333333^2 / (0.5^2 / 4 +
 * 1.3333333^2 / 2) = 3.3611111 / 0.9513889 = 3.5328467; t(0.975, 3.5328467) = 2.9274053 (GSL);
 * half = 2.9274053 x 1.3540064 = 3.9637257: the interval [-4.96, 2.96] holds 0, not significant.
 */
START_TEST(welch_by_hand)
{
	const double x[] = { 1, 2, 3, 4, 5 }, b[] = { 2, 4, 6 };
	struct compare_diff w;

	compare_welch(x, 5, b, 3, &w);
	ck_assert_double_eq_tol(w.diff, -1, 1e-12);
	ck_assert_double_eq_tol(w.se, 1.3540064, TOL);
	ck_assert_double_eq_tol(w.df, 3.5328467, TOL);
	ck_assert_double_eq_tol(w.half, 3.9637257, 1e-5);
	ck_assert(!w.significant);
	/* constant samples: se 0, the difference is exact (half 0) and, not being 0, significant */
	const double c1[] = { 7, 7 }, c2[] = { 5, 5, 5 };
	compare_welch(c1, 2, c2, 3, &w);
	ck_assert_double_eq(w.diff, 2);
	ck_assert_double_eq(w.half, 0);
	ck_assert(w.significant);
}
END_TEST

/*
 * Paired: x = {10, 12, 15}, b = {9, 10, 14}: d = {1, 2, 1}, mean 4/3 = 1.3333333; s = sqrt((1/9 + 4/9 + 1/9)
 * / 2) = sqrt(1/3) = 0.5773503; se = 0.5773503 / sqrt(3) = 0.3333333; half = t(0.975, 2) x se = 4.302653 /
 * 3 = 1.4342177 > 1.3333333: not significant. Unpaired, the same numbers have se = sqrt(19/3 / 3 + 7 / 3) =
 * sqrt(40/9) = 2.1081851: pairing removes the variation the two share.
 * With x = {10, 12, 15}, b = {9, 10.5, 13.8}: d = {1, 1.5, 1.2}, mean 1.2333333, s = sqrt((0.0544444 +
 * 0.0711111 + 0.0011111) / 2) = 0.2516611, se 0.1452966, half 4.302653 x 0.1452966 = 0.6251609 < 1.2333333: significant.
 */
START_TEST(paired_by_hand)
{
	const double x[] = { 10, 12, 15 }, b[] = { 9, 10, 14 }, b2[] = { 9, 10.5, 13.8 };
	struct compare_diff p, w;

	compare_paired(x, b, 3, &p);
	compare_welch(x, 3, b, 3, &w);
	ck_assert_int_eq(p.n, 3);
	ck_assert_double_eq_tol(p.diff, 1.3333333, TOL);
	ck_assert_double_eq_tol(p.se, 0.3333333, TOL);
	ck_assert_double_eq_tol(p.half, 1.4342177, TOL);
	ck_assert(!p.significant);
	ck_assert_double_eq_tol(w.se, 2.1081851, TOL);
	compare_paired(x, b2, 3, &p);
	ck_assert_double_eq_tol(p.diff, 1.2333333, TOL);
	ck_assert_double_eq_tol(p.se, 0.1452966, TOL);
	ck_assert_double_eq_tol(p.half, 0.6251609, TOL);
	ck_assert(p.significant);
}
END_TEST

/*
 * The practical threshold (--min-effect, default 1% of the larger mean): a paired difference of 0.000003 on
 * violation rates of 0.00708 and 0.007083 with every seed agreeing (half-width 0: the interval excludes 0)
 * is real but negligible: not starred by default, starred with --min-effect 0. A difference of 0.00416
 * (about 10% of rates near 0.045) is starred; two equal means never are.
 */
START_TEST(min_effect_keeps_negligible_differences_unstarred)
{
	struct compare_point pts[2];
	struct compare c = { pts, 2, 0, 0, "" };
	int m = compare_metric_index("slo_violation_rate");

	memset(pts, 0, sizeof pts);
	pts[0].stat[m].mean = 0.00708;
	pts[1].stat[m].mean = 0.007083;
	pts[1].paired[m] = (struct compare_diff){ 3, 0.000003, 0, 2, 0, true };
	pts[1].welch[m] = (struct compare_diff){ 3, 0.000003, 0.0001, 4, 0.00003, false };
	compare_set_min_effect(&c, COMPARE_MIN_EFFECT);
	ck_assert(!pts[1].paired[m].significant);
	ck_assert(!pts[1].welch[m].significant);
	compare_set_min_effect(&c, 0);
	ck_assert(pts[1].paired[m].significant);
	ck_assert(!pts[1].welch[m].significant);  /* its interval holds 0 */
	pts[0].stat[m].mean = 0.04718;
	pts[1].stat[m].mean = 0.04302;
	pts[1].paired[m] = (struct compare_diff){ 3, -0.00416, 0.00005, 2, 0.00023, false };
	compare_set_min_effect(&c, COMPARE_MIN_EFFECT);
	ck_assert(pts[1].paired[m].significant);
	pts[1].stat[m].mean = pts[0].stat[m].mean = 0;
	pts[1].paired[m] = (struct compare_diff){ 3, 0, 0, 2, 0, false };
	compare_set_min_effect(&c, 0);
	ck_assert(!pts[1].paired[m].significant);
}
END_TEST

/*
 * The Pareto front within the intervals. Three points (cost per month, violation rate, each mean +- half):
 *   A $100 +- 10, 0.0100 +- 0.0005;  B $ 98 +- 10, 0.0300 +- 0.0005;  C $130 +- 1, 0.0101 +- 0.0005.
 * By the means none dominates another (B cheapest, A least violating, C neither: C is dominated by A).
 * Within the intervals B's $2 edge over A is inside their $10, while A violates 0.02 less, beyond 0.0005:
 * A dominates B, so only A is starred. With B's cost at $80 (an edge of 20, beyond the interval) both are.
 */
START_TEST(pareto_within_the_intervals)
{
	struct compare_point pts[3];
	struct compare c = { pts, 3, 0, 0, "" };
	int cost = compare_metric_index("cost_per_month_usd"), viol = compare_metric_index("slo_violation_rate");
	const double mc[3] = { 100, 98, 130 }, hc[3] = { 10, 10, 1 }, mv[3] = { 0.01, 0.03, 0.0101 };

	memset(pts, 0, sizeof pts);
	for (int i = 0; i < 3; i++) {
		pts[i].stat[cost] = (struct compare_ci){ 3, mc[i], 0, 0, hc[i] };
		pts[i].stat[viol] = (struct compare_ci){ 3, mv[i], 0, 0, 0.0005 };
	}
	compare_pareto(&c);
	ck_assert(pts[0].pareto);
	ck_assert(!pts[1].pareto);
	ck_assert(!pts[2].pareto);
	pts[1].stat[cost].mean = 80;
	compare_pareto(&c);
	ck_assert(pts[0].pareto && pts[1].pareto && !pts[2].pareto);
}
END_TEST

/* A pair with a NaN on either side is left out: {1, NaN, 3} - {0, 5, NaN} has one pair, d = 1, no interval. */
START_TEST(paired_leaves_out_missing_pairs)
{
	const double x[] = { 1, NAN, 3 }, b[] = { 0, 5, NAN };
	struct compare_diff p;

	compare_paired(x, b, 3, &p);
	ck_assert_int_eq(p.n, 1);
	ck_assert_double_eq(p.diff, 1);
	ck_assert(isnan(p.half));
	ck_assert(!p.significant);
}
END_TEST

/*
 * Coverage. requests_total of a Poisson arrival process of rate 2/s over a 60 s horizon is Poisson with mean
 * exactly 2 x 60 = 120. Each repetition k (0 .. COV_REPS-1) runs COV_N replications with seeds
 * COV_SEED + COV_N k + r (r = 0 .. COV_N-1: every run has its own seed, so repetitions are independent), builds
 * the 95% interval with compare_ci95 and checks whether it holds 120. The coverage must be within 92-98%
 * (the binomial standard deviation of the observed rate at 95% over 400 repetitions is 1.1%).
 */
#define COV_REPS 400
#define COV_N 5
#define COV_SEED 1000
static const char poisson_yaml[] =
	"name: coverage\nseed: 1\nhorizon: 60s\nslo: {latency_s: 5}\n"
	"workload:\n  arrivals: {kind: poisson, rate_per_s: 2}\n  service: {kind: exponential, mean_s: 1}\n"
	"serving: {instance_type: g6.12xlarge, slots_per_instance: 4, startup_s: 300}\n"
	"fleet:\n  - {option: reserved, count: 3, usd_per_h: 10, scope: zonal}\n";

START_TEST(interval_covers_known_mean)
{
	static struct capture cap;
	int covered = 0;
	double grand = 0;

	printf("interval_covers_known_mean: seeds %d .. %d\n", COV_SEED, COV_SEED + COV_REPS * COV_N - 1);
	for (int k = 0; k < COV_REPS; k++) {
		double x[COV_N];
		struct compare_ci ci;
		for (int r = 0; r < COV_N; r++) {
			char seed[32];
			const char *sets[] = { seed };
			snprintf(seed, sizeof seed, "seed=%d", COV_SEED + COV_N * k + r);
			capture_run(&cap, poisson_yaml, sets, 1);
			x[r] = capture_metric(&cap, "requests_total");
			grand += x[r];
		}
		compare_ci95(x, COV_N, &ci);
		covered += fabs(ci.mean - 120) <= ci.half;
	}
	printf("interval_covers_known_mean: %d of %d intervals hold 120 (%.1f%%); grand mean %.3f\n", covered,
	       COV_REPS, 100.0 * covered / COV_REPS, grand / (COV_REPS * COV_N));
	/* the grand mean of 2000 Poisson(120) counts is within 4 standard errors (4 sqrt(120/2000) = 0.98) of 120 */
	ck_assert_double_eq_tol(grand / (COV_REPS * COV_N), 120, 0.98);
	ck_assert_int_ge(covered, (int)(0.92 * COV_REPS));
	ck_assert_int_le(covered, (int)(0.98 * COV_REPS));
}
END_TEST

static Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, interval_of_five_values);
	tcase_add_test(tc, interval_leaves_out_nan_and_needs_two);
	tcase_add_test(tc, welch_by_hand);
	tcase_add_test(tc, min_effect_keeps_negligible_differences_unstarred);
	tcase_add_test(tc, pareto_within_the_intervals);
	tcase_add_test(tc, paired_by_hand);
	tcase_add_test(tc, paired_leaves_out_missing_pairs);
	tcase_add_test(tc, interval_covers_known_mean);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(compare_suite());
}
