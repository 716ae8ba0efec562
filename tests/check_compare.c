/*
 * check_compare: the statistics of gpucap compare (analysis/compare.h): Student-t intervals, paired and
 * Welch differences against hand-worked values, and the coverage of the 95% interval over many independent
 * repetitions of a simulation whose true mean is known exactly.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * Only the n values given are read: x = {1, 2, 3, 1000} with n = 3 is {1, 2, 3}: mean 2, s = sqrt((1 + 0 + 1)
 * / 2) = 1, se = 1 / sqrt(3) = 0.5773503, half = t(0.975, 2) x se = 4.302653 x 0.5773503 = 2.4841377.
 * The paired difference of the first two of {5, 7, 1000} against {4, 5, 0}: d = {1, 2}, mean 1.5 (n 2); the
 * Welch difference of the first two of each: 6 - 4.5 = 1.5.
 */
START_TEST(interval_reads_only_the_values_given)
{
	const double x[] = { 1, 2, 3, 1000 }, a[] = { 5, 7, 1000 }, b[] = { 4, 5, 0 };
	struct compare_ci ci;
	struct compare_diff df;

	compare_ci95(x, 3, &ci);
	ck_assert_int_eq(ci.n, 3);
	ck_assert_double_eq_tol(ci.mean, 2, 1e-12);
	ck_assert_double_eq_tol(ci.sd, 1, 1e-12);
	ck_assert_double_eq_tol(ci.se, 0.5773503, TOL);
	ck_assert_double_eq_tol(ci.half, 2.4841377, TOL);
	compare_paired(a, b, 2, &df);
	ck_assert_int_eq(df.n, 2);
	ck_assert_double_eq_tol(df.diff, 1.5, 1e-12);
	compare_welch(a, 2, b, 2, &df);
	ck_assert_int_eq(df.n, 2);
	ck_assert_double_eq_tol(df.diff, 1.5, 1e-12);
}
END_TEST

/*
 * compare_set_min_effect marks the npoints points and no other: a third point in the array, past npoints,
 * whose difference (5 +- 0.5 over 3 pairs, means 5 and 0) would be significant, keeps its mark (false). A
 * difference over no pairs (n 0: a zeroed diff, or one whose other fields still hold figures) is never
 * significant, whatever its diff and half hold: here diff 5, half 0, which with n 3 would be.
 */
START_TEST(min_effect_marks_only_the_points_compared)
{
	struct compare_point pts[3];
	struct compare c = { pts, 2, 0, 0, "" };
	int m = compare_metric_index("cost_per_month_usd");

	memset(pts, 0, sizeof pts);
	pts[1].stat[m].mean = pts[2].stat[m].mean = 5;
	pts[2].paired[m] = (struct compare_diff){ 3, 5, 0.1, 2, 0.5, false };
	pts[1].paired[m] = (struct compare_diff){ 0, 5, 0, NAN, 0, true };
	pts[1].welch[m] = (struct compare_diff){ 3, 5, 0, NAN, 0, false };
	compare_set_min_effect(&c, COMPARE_MIN_EFFECT);
	ck_assert(!pts[2].paired[m].significant);
	ck_assert(!pts[1].paired[m].significant);
	ck_assert(pts[1].welch[m].significant);  /* the same figures over 3: 5 > 1% of 5, half 0 */
}
END_TEST

/* Two points' Pareto marks: P (cost cp +- hcp, violation rate vp +- hvp) and Q likewise; a half-width of NaN
 * is no interval (one run). Returns 2 x P's mark + Q's. */
static int front2(double cp, double hcp, double vp, double hvp, double cq, double hcq, double vq, double hvq)
{
	struct compare_point pts[2];
	struct compare c = { pts, 2, 0, 0, "" };
	int cost = compare_metric_index("cost_per_month_usd"), viol = compare_metric_index("slo_violation_rate");

	memset(pts, 0, sizeof pts);
	pts[0].stat[cost] = (struct compare_ci){ 3, cp, 0, 0, hcp };
	pts[0].stat[viol] = (struct compare_ci){ 3, vp, 0, 0, hvp };
	pts[1].stat[cost] = (struct compare_ci){ 3, cq, 0, 0, hcq };
	pts[1].stat[viol] = (struct compare_ci){ 3, vq, 0, 0, hvq };
	compare_pareto(&c);
	return 2 * pts[0].pareto + pts[1].pareto;
}

/*
 * Pareto dominance at its ties (compare.h: "both no larger, one of them strictly smaller"; within the
 * intervals "no worse by more than the wider half-width, better by more than it on one"). Figures are
 * binary fractions, so every sum below is exact. With P = (100 +- 8, 0.25 +- 0.125):
 *  - equal on both (the same point twice, with or without intervals): neither dominates, both on the front;
 *  - equal cost, less violating by 0.0625 (inside the interval): Q = (100, 0.1875) dominates by the means,
 *    P is off the front; equal rate, cheaper by 4 (inside): Q = (96, 0.25) likewise;
 *  - better by exactly the interval is not better by more than it: Q = (92 +- 8, 0.375 +- 0.125) is cheaper by
 *    8 = the half-width, P less violating by 0.125 = the half-width: neither dominates, both on the front;
 *  - worse by exactly the interval is no worse by more than it: Q = (108, 0) costs 8 more and violates 0.25
 *    less (more than 0.125): Q dominates; Q = (84, 0.375) violates 0.125 more and costs 16 less: dominates.
 */
START_TEST(pareto_ties)
{
	const double n = NAN;

	ck_assert_int_eq(front2(100, 8, 0.25, 0.125, 100, 8, 0.25, 0.125), 3);
	ck_assert_int_eq(front2(100, n, 0.25, n, 100, n, 0.25, n), 3);
	ck_assert_int_eq(front2(100, 8, 0.25, 0.125, 100, 8, 0.1875, 0.125), 1);
	ck_assert_int_eq(front2(100, 8, 0.25, 0.125, 96, 8, 0.25, 0.125), 1);
	ck_assert_int_eq(front2(100, n, 0.25, n, 100, n, 0.1875, n), 1);
	ck_assert_int_eq(front2(100, n, 0.25, n, 96, n, 0.25, n), 1);
	ck_assert_int_eq(front2(100, 8, 0.25, 0.125, 92, 8, 0.375, 0.125), 3);
	ck_assert_int_eq(front2(100, 8, 0.25, 0.125, 108, 8, 0, 0.125), 1);
	ck_assert_int_eq(front2(100, 8, 0.25, 0.125, 84, 8, 0.375, 0.125), 1);
	/* the wider of the two half-widths counts: Q's own 1 would make its 4 cheaper beyond the noise */
	ck_assert_int_eq(front2(100, 8, 0.25, 0.125, 96, 1, 0.375, 0.125), 3);
	/* the other way round: Q = (100, 0.5) costs the same and violates more; P dominates it */
	ck_assert_int_eq(front2(100, 8, 0.25, 0.125, 100, 8, 0.5, 0.125), 2);
}
END_TEST

/*
 * Two points to print, a (run 3 times) and b, the baseline (second, so that "the first point" cannot pass for
 * it), in an array of three whose third, past npoints, has a long id that must not show nor widen the table.
 * Every statistic NaN (printed "-", null, empty) but a's paired cost difference, -4 +- 3 over 3 pairs,
 * significant (se 1, df 2), a's latency means and a Welch cost difference of a over no pairs (n 0) whose diff
 * still holds 7: undefined, it prints as "-", null or empty, never 7.
 */
static void two_points(struct compare_point *pts, struct compare *c)
{
	static const double lat[8] = { 0.5, 1, 2, 0.25, 0.75, 1.5, 0.8, 0.6 };
	static const char *const lat_names[8] = { "latency_p50_s", "latency_p95_s", "latency_p99_s", "ttft_p50_s",
						  "ttft_p95_s", "ttft_p99_s", "commitment_utilization",
						  "commitment_coverage" };
	static int64_t run_ids[3] = { 1, 2, 3 };
	int cost = compare_metric_index("cost_per_month_usd");

	memset(pts, 0, 3 * sizeof *pts);
	for (int i = 0; i < 3; i++) {
		for (int m = 0; m < COMPARE_NMETRICS; m++) {
			pts[i].stat[m] = (struct compare_ci){ 0, NAN, NAN, NAN, NAN };
			pts[i].paired[m] = pts[i].welch[m] = (struct compare_diff){ 0, NAN, NAN, NAN, NAN, false };
		}
		pts[i].nruns = 3;
		pts[i].run_ids = run_ids;
		pts[i].point = -1;
	}
	snprintf(pts[0].id, sizeof pts[0].id, "a");
	snprintf(pts[1].id, sizeof pts[1].id, "b");
	snprintf(pts[2].id, sizeof pts[2].id, "not-compared-but-in-the-array");
	pts[0].paired[cost] = (struct compare_diff){ 3, -4, 1, 2, 3, true };
	pts[0].welch[cost] = (struct compare_diff){ 0, 7, NAN, NAN, NAN, false };
	for (int k = 0; k < 8; k++)
		pts[0].stat[compare_metric_index(lat_names[k])].mean = lat[k];
	*c = (struct compare){ pts, 2, 1, COMPARE_MIN_EFFECT, "x.sqlite" };
}

/* What print (one of compare_print_*) writes for c; owned. */
static char *printed(int (*print)(const struct compare *, FILE *), const struct compare *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(print(c, out), 0);
	fclose(out);
	return buf;
}

/*
 * The table: ids 5 wide (the least; "a" and "b" are shorter); the points block marks b "[baseline]":
 * "  " + "a    " + "  " + "(no overrides)". The latency row: "a    " + " ", then each mean with 3 decimals
 * right-aligned in " %9s", but commit use (the 7th) in " %11s": 5 + 6 spaces before "0.500" ... and 7
 * before "0.800". The differences: b's row "b    " + " " + "  3" + "  (baseline)"; a's "a    " + " " + "  3"
 * + "  " + "-4 +- 3 *" padded to 21, " ", then "-" (Welch over no pairs) padded to 21, and so on.
 */
START_TEST(table_marks_the_baseline_and_only_the_points)
{
	struct compare_point pts[3];
	struct compare c;
	char *t;

	two_points(pts, &c);
	t = printed(compare_print_table, &c);
	ck_assert_ptr_nonnull(strstr(t, "\n  a      (no overrides)\n  b      (no overrides)  [baseline]\n"));
	ck_assert_ptr_nonnull(strstr(t, "\na          0.500     1.000     2.000     0.250     0.750     1.500       0.800"
				     "     0.600\nb              -         -"));
	ck_assert_ptr_nonnull(strstr(t, "against the baseline b (point - baseline"));
	ck_assert_ptr_nonnull(strstr(t, "\na       3  -4 +- 3 *             -                     -                     -\n"
				     "b       3  (baseline)\n"));
	ck_assert_ptr_null(strstr(t, "not-compared"));
	ck_assert_ptr_null(strstr(t, " 7 "));
	free(t);
}
END_TEST

/* The same in Markdown, JSON and CSV: b is the baseline, a's Welch cost difference over no pairs is "-",
 * null or empty (not 7), the third point nowhere. The CSV row of a's cost per month: id, params, baseline 0,
 * runs 3, failed 0, pareto 0, the metric, n 0, four empty statistics, then paired n 3, -4, se 1, df 2, half
 * 3, significant 1, then Welch n 0, four empty, 0. */
START_TEST(md_json_csv_mark_the_baseline_and_only_the_points)
{
	struct compare_point pts[3];
	struct compare c;
	char *t;

	two_points(pts, &c);
	t = printed(compare_print_md, &c);
	ck_assert_ptr_nonnull(strstr(t, "\n| a | (no overrides) | 3 | 0 |  |\n| b | (no overrides) | 3 | 0 | yes |\n"));
	ck_assert_ptr_nonnull(strstr(t, "\n| a | 0.500 | 1.000 | 2.000 | 0.250 | 0.750 | 1.500 | 0.800 | 0.600 |\n"));
	ck_assert_ptr_nonnull(strstr(t, "### Against the baseline b\n"));
	ck_assert_ptr_nonnull(strstr(t, "\n| a | 3 | -4 ± 3 \\* | - | - | - |\n| b | 3 | (baseline) | | | |\n"));
	ck_assert_ptr_null(strstr(t, "not-compared"));
	free(t);
	t = printed(compare_print_json, &c);
	ck_assert_ptr_nonnull(strstr(t, "\"baseline\": \"b\","));
	ck_assert_ptr_nonnull(strstr(t, "{\"id\": \"a\", \"params\": \"\", \"baseline\": false,"));
	ck_assert_ptr_nonnull(strstr(t, "{\"id\": \"b\", \"params\": \"\", \"baseline\": true,"));
	ck_assert_ptr_nonnull(strstr(t, "\"welch\": {\"n\": 0, \"diff\": null, "));
	ck_assert_ptr_null(strstr(t, "\"diff\": 7"));
	ck_assert_ptr_null(strstr(t, "not-compared"));
	free(t);
	t = printed(compare_print_csv, &c);
	ck_assert_ptr_nonnull(strstr(t, "\n\"a\",\"\",0,3,0,0,cost_per_month_usd,0,,,,,3,-4,1,2,3,1,0,,,,,0\n"));
	ck_assert_ptr_nonnull(strstr(t, "\n\"b\",\"\",1,3,0,0,cost_per_month_usd,0,"));
	ck_assert_ptr_null(strstr(t, "not-compared"));
	free(t);
}
END_TEST

/*
 * The id column is as wide as the longest id, 5 at least and 40 at most: with a 41-character id the latency
 * header is "point" padded to 40, two spaces, then "lat p50" right-aligned in 9 (two spaces before it):
 * "lat p50" starts at column 40 + 2 + 2 = 44; with a 40-character id the same; with 39, at 43.
 */
START_TEST(id_column_at_most_40_wide)
{
	struct compare_point pts[3];
	struct compare c;
	const int len[3] = { 41, 40, 39 }, col[3] = { 44, 44, 43 };

	for (int k = 0; k < 3; k++) {
		two_points(pts, &c);
		memset(pts[0].id, 'x', len[k]);
		pts[0].id[len[k]] = '\0';
		char *t = printed(compare_print_table, &c), *h = strstr(t, "lat p50"), *line = h;
		ck_assert_ptr_nonnull(h);
		while (line > t && line[-1] != '\n')
			line--;
		ck_assert_int_eq((int)(h - line), col[k]);
		free(t);
	}
}
END_TEST

static Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("core");

	test_add(tc, interval_of_five_values);
	test_add(tc, interval_leaves_out_nan_and_needs_two);
	test_add(tc, welch_by_hand);
	test_add(tc, min_effect_keeps_negligible_differences_unstarred);
	test_add(tc, pareto_within_the_intervals);
	test_add(tc, paired_by_hand);
	test_add(tc, paired_leaves_out_missing_pairs);
	test_add(tc, interval_reads_only_the_values_given);
	test_add(tc, min_effect_marks_only_the_points_compared);
	test_add(tc, pareto_ties);
	test_add(tc, table_marks_the_baseline_and_only_the_points);
	test_add(tc, md_json_csv_mark_the_baseline_and_only_the_points);
	test_add(tc, id_column_at_most_40_wide);
	test_add(tc, interval_covers_known_mean);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(compare_suite());
}
