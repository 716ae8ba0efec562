/*
 * check_hist: the bounded-memory histogram (models/metering/hist.h).
 *
 * Quantiles are compared with the exact order statistic of the same values: sorted ascending, the value of
 * rank ceil(q n) (1-based), the definition hist.h gives. The histogram promises a relative error below
 * sqrt(1.02) - 1 (0.995%) inside its range; the tests allow 1% (QUANT_RTOL). Mean and maximum are kept
 * exactly, so they are compared to 1e-12 relative (EXACT_RTOL), which only forgives summation order.
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "hist.h"
#include "testutil.h"

#define QUANT_RTOL 0.01   /* quantile vs exact order statistic, relative */
#define EXACT_RTOL 1e-12  /* mean and max, relative */
#define NVALUES 200000    /* values per distribution */

static const double quantiles[] = { 0.5, 0.9, 0.95, 0.99, 0.999 };

/* |got - want| <= rtol |want| */
static void assert_rel(double got, double want, double rtol, const char *what)
{
	ck_assert_msg(fabs(got - want) <= rtol * fabs(want),
		      "%s: got %.17g, want %.17g (relative error %.3g > %.3g)", what, got, want,
		      fabs(got - want) / fabs(want), rtol);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

enum dist { DIST_LOGNORMAL, DIST_EXPONENTIAL, DIST_LOGUNIFORM };

static double draw(gsl_rng *r, enum dist d)
{
	switch (d) {
	case DIST_LOGNORMAL:     /* median 0.1 s, sigma 1.5: spans about 1 ms to 10 s */
		return gsl_ran_lognormal(r, log(0.1), 1.5);
	case DIST_EXPONENTIAL:   /* mean 50 ms; a few draws fall below 1 us */
		return gsl_ran_exponential(r, 0.05);
	case DIST_LOGUNIFORM:    /* uniform in log over eight decades, 10 us to 1000 s */
		return pow(10.0, gsl_ran_flat(r, -5.0, 3.0));
	}
	return 0.0;
}

/* Fill a histogram with NVALUES draws of d and compare it with the sorted values. */
static void check_against_sorted(enum dist d, const char *name, uint64_t fallback_seed)
{
	uint64_t seed = test_seed(name, fallback_seed);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double *v = malloc(NVALUES * sizeof *v);
	struct hist *h = malloc(sizeof *h);
	double sum = 0.0, max = 0.0;

	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(v);
	ck_assert_ptr_nonnull(h);
	gsl_rng_set(r, (unsigned long)seed);
	hist_init(h);
	for (int i = 0; i < NVALUES; i++) {
		v[i] = draw(r, d);
		hist_add(h, v[i]);
		sum += v[i];
		if (v[i] > max)
			max = v[i];
	}
	ck_assert_uint_eq(h->n, NVALUES);
	assert_rel(hist_mean(h), sum / NVALUES, EXACT_RTOL, "mean");
	assert_rel(hist_max(h), max, EXACT_RTOL, "max");

	qsort(v, NVALUES, sizeof *v, cmp_double);
	ck_assert(v[NVALUES - 1] == max);
	for (size_t k = 0; k < sizeof quantiles / sizeof quantiles[0]; k++) {
		double q = quantiles[k];
		size_t rank = (size_t)ceil(q * NVALUES);  /* 1-based */
		double got = hist_quantile(h, q);
		char what[64];

		snprintf(what, sizeof what, "%s q=%g", name, q);
		ck_assert_uint_ge(rank, 1);
		assert_rel(got, v[rank - 1], QUANT_RTOL, what);
		ck_assert(got <= max);  /* never more than the exact maximum */
	}
	/* q = 1 is the largest value's bucket, capped at the maximum. */
	assert_rel(hist_quantile(h, 1.0), max, QUANT_RTOL, "q=1");
	ck_assert(hist_quantile(h, 1.0) <= max);

	free(h);
	free(v);
	gsl_rng_free(r);
}

/* hist_add_zero is hist_add(h, 0.0), byte for byte, among other values (0 and positive, the sum and the
 * maximum included), and with zeros first (the maximum stays 0). */
START_TEST(add_zero_is_add_of_zero)
{
	static const double vals[] = { 0, 0.25, 0, 3e-7, 12.5, 0, 0, 1e-6, 0.031 };
	struct hist a, b;

	hist_init(&a);
	hist_init(&b);
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		hist_add(&a, vals[i]);
		if (vals[i] == 0)
			hist_add_zero(&b);
		else
			hist_add(&b, vals[i]);
		ck_assert_int_eq(memcmp(&a, &b, sizeof a), 0);
	}
	ck_assert_uint_eq(b.zero, 4 + 1);  /* the four zeros and 3e-7 (below HIST_MIN_S = 1e-6) */
	ck_assert_uint_eq(b.n, 9);
}
END_TEST

START_TEST(quantiles_lognormal)
{
	check_against_sorted(DIST_LOGNORMAL, "hist quantiles_lognormal", 11);
}
END_TEST

START_TEST(quantiles_exponential)
{
	check_against_sorted(DIST_EXPONENTIAL, "hist quantiles_exponential", 12);
}
END_TEST

START_TEST(quantiles_loguniform_decades)
{
	check_against_sorted(DIST_LOGUNIFORM, "hist quantiles_loguniform_decades", 13);
}
END_TEST

START_TEST(empty_is_nan)
{
	struct hist h;

	hist_init(&h);
	ck_assert_uint_eq(h.n, 0);
	ck_assert(isnan(hist_quantile(&h, 0.5)));
	ck_assert(isnan(hist_quantile(&h, 0.0)));
	ck_assert(isnan(hist_quantile(&h, 1.0)));
	ck_assert(isnan(hist_mean(&h)));
	ck_assert(isnan(hist_max(&h)));
}
END_TEST

START_TEST(single_value)
{
	static const double qs[] = { 0.0, 0.001, 0.5, 0.999, 1.0 };
	const double v = 0.123456;
	struct hist h;

	hist_init(&h);
	hist_add(&h, v);
	ck_assert(hist_mean(&h) == v);
	ck_assert(hist_max(&h) == v);
	for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
		assert_rel(hist_quantile(&h, qs[i]), v, QUANT_RTOL, "single value");
		ck_assert(hist_quantile(&h, qs[i]) <= v);
	}
}
END_TEST

/* Values below HIST_MIN_S (1 us) are reported as 0; the mean and maximum still see them exactly. */
START_TEST(below_one_us_is_zero)
{
	static const double tiny[] = { 0.0, 1e-9, 5e-7, 9.99e-7 };
	struct hist h;

	hist_init(&h);
	for (size_t i = 0; i < 4; i++)
		hist_add(&h, tiny[i]);
	ck_assert(hist_quantile(&h, 0.0) == 0.0);
	ck_assert(hist_quantile(&h, 0.5) == 0.0);
	ck_assert(hist_quantile(&h, 1.0) == 0.0);
	ck_assert(hist_max(&h) == 9.99e-7);
	assert_rel(hist_mean(&h), (1e-9 + 5e-7 + 9.99e-7) / 4, EXACT_RTOL, "tiny mean");

	/* Add one value of 2 s: the top quarter is it, the rest still 0. */
	hist_add(&h, 2.0);
	ck_assert(hist_quantile(&h, 0.8) == 0.0);   /* rank 4 of 5 */
	assert_rel(hist_quantile(&h, 0.81), 2.0, QUANT_RTOL, "rank 5 of 5");
	ck_assert(hist_max(&h) == 2.0);
}
END_TEST

/* Exactly 1 us is in range (the first bucket), not zero. */
START_TEST(one_us_is_not_zero)
{
	struct hist h;

	hist_init(&h);
	hist_add(&h, HIST_MIN_S);
	ck_assert_uint_eq(h.zero, 0);
	ck_assert_uint_eq(h.counts[0], 1);
	assert_rel(hist_quantile(&h, 0.5), HIST_MIN_S, QUANT_RTOL, "1 us");
}
END_TEST

/*
 * Every bucket keeps the promise, including at its edges where log() rounding could put a value one bucket
 * off: a value at each lower edge, just above it and just below it reads back within 1%.
 */
START_TEST(every_bucket_within_one_percent)
{
	struct hist h;

	for (int i = 0; i < HIST_BUCKETS; i++) {
		double edge = HIST_MIN_S * pow(HIST_RATIO, i);
		double vals[3] = { edge, nextafter(edge, INFINITY), nextafter(edge, 0.0) };

		for (int k = 0; k < 3; k++) {
			if (vals[k] < HIST_MIN_S)
				continue;
			hist_init(&h);
			hist_add(&h, vals[k]);
			assert_rel(hist_quantile(&h, 0.5), vals[k], QUANT_RTOL, "bucket edge");
		}
	}
}
END_TEST

/* Beyond the last bucket values are clamped into it; the maximum stays exact. */
START_TEST(beyond_top_bucket_clamps)
{
	const double top_mid = HIST_MIN_S * pow(HIST_RATIO, HIST_BUCKETS - 0.5);
	const double huge = 1e9;  /* s: about 32 years, beyond 1.02^1536 us (~1.6e7 s) */
	struct hist h;

	ck_assert(huge > HIST_MIN_S * pow(HIST_RATIO, HIST_BUCKETS));
	hist_init(&h);
	hist_add(&h, huge);
	ck_assert_uint_eq(h.counts[HIST_BUCKETS - 1], 1);
	ck_assert(hist_max(&h) == huge);
	ck_assert(hist_mean(&h) == huge);
	/* Reported as the top bucket's middle, never above the maximum. */
	assert_rel(hist_quantile(&h, 1.0), top_mid, EXACT_RTOL, "clamped quantile");

	/* A value far beyond clamps too, without overflowing the bucket index. */
	hist_add(&h, 1e300);
	ck_assert_uint_eq(h.counts[HIST_BUCKETS - 1], 2);
	ck_assert(hist_max(&h) == 1e300);
	assert_rel(hist_quantile(&h, 0.5), top_mid, EXACT_RTOL, "clamped quantile, two values");
}
END_TEST

/* Quantiles of a small known set: ranks ceil(q n) of 1..10 (in seconds). */
START_TEST(ranks_of_small_set)
{
	struct hist h;

	hist_init(&h);
	for (int i = 10; i >= 1; i--)
		hist_add(&h, (double)i);
	assert_rel(hist_quantile(&h, 0.0), 1.0, QUANT_RTOL, "q=0 is the minimum");
	assert_rel(hist_quantile(&h, 0.1), 1.0, QUANT_RTOL, "rank 1");
	assert_rel(hist_quantile(&h, 0.11), 2.0, QUANT_RTOL, "rank 2");
	assert_rel(hist_quantile(&h, 0.5), 5.0, QUANT_RTOL, "rank 5");
	assert_rel(hist_quantile(&h, 0.51), 6.0, QUANT_RTOL, "rank 6");
	assert_rel(hist_quantile(&h, 1.0), 10.0, QUANT_RTOL, "rank 10");
	ck_assert(hist_mean(&h) == 5.5);
	ck_assert(hist_max(&h) == 10.0);
}
END_TEST

/*
 * hist_bucket() looks buckets up in a table instead of taking a logarithm (hist.c). The definition it must
 * reproduce for every double is the formula gpucap used before the table, written out again here:
 * -1 below HIST_MIN_S and for NaN, else floor(log(v / MIN) / log(RATIO)) clamped to the last bucket.
 */
static int bucket_formula(double v_s)
{
	if (!(v_s >= HIST_MIN_S))
		return -1;
	double i = floor(log(v_s / HIST_MIN_S) / log(HIST_RATIO));
	return i >= HIST_BUCKETS - 1 ? HIST_BUCKETS - 1 : (int)i;
}

static double from_bits(uint64_t b)
{
	double v;

	memcpy(&v, &b, sizeof v);
	return v;
}

static uint64_t to_bits(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof b);
	return b;
}

static void assert_same_bucket(double v)
{
	int want = bucket_formula(v), got = hist_bucket(v);

	ck_assert_msg(got == want, "hist_bucket(%a = %.17g) = %d, formula %d", v, v, got, want);
}

/* Special values: zero and negative zero, negatives, NaN, infinities, denormals, the smallest and largest
 * doubles, HIST_MIN_S and its neighbours, and the clamped top. */
START_TEST(bucket_matches_formula_special)
{
	const double vals[] = { 0.0, -0.0, -1.0, -INFINITY, NAN, -NAN, INFINITY, DBL_MAX, -DBL_MAX, DBL_MIN,
				DBL_TRUE_MIN, 4.9e-320, 1e-300, HIST_MIN_S, nextafter(HIST_MIN_S, 0),
				nextafter(HIST_MIN_S, 1), 2 * HIST_MIN_S, 1.0, 2.0, 1.6e7, 1e8, 1e300 };

	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
		assert_same_bucket(vals[i]);
	ck_assert_int_eq(hist_bucket(NAN), -1);
	ck_assert_int_eq(hist_bucket(INFINITY), HIST_BUCKETS - 1);
	ck_assert_int_eq(hist_bucket(HIST_MIN_S), 0);
}
END_TEST

/*
 * Every double within 4096 ulps of each bucket's edge (about 12.6 million values): the edge in doubles is
 * where the formula's floor steps from i - 1 to i, near HIST_MIN_S * RATIO^i; the window is checked to
 * contain that step, so the comparison straddles every edge the table holds.
 */
START_TEST(bucket_matches_formula_at_every_edge)
{
	enum { ULPS = 4096 };

	for (int i = 1; i < HIST_BUCKETS; i++) {
		uint64_t mid = to_bits(HIST_MIN_S * pow(HIST_RATIO, i));
		ck_assert_msg(bucket_formula(from_bits(mid - ULPS)) < i && bucket_formula(from_bits(mid + ULPS)) >= i,
			      "the window of bucket %d misses its edge", i);
		for (uint64_t b = mid - ULPS; b <= mid + ULPS; b++) {
			double v = from_bits(b);
			int want = bucket_formula(v), got = hist_bucket(v);
			if (got != want)
				ck_abort_msg("hist_bucket(%a) = %d, formula %d", v, got, want);
		}
	}
}
END_TEST

/*
 * Ten million random doubles: half with uniformly random bit patterns among the positive doubles from
 * 2^-30 to 2^30 (every exponent equally often, so the tiny and the huge are as common as the usual), half
 * log-uniform over 1e-7 .. 1e8 s, plus the same values negated (all -1), and ten million fully random bit
 * patterns (every sign, exponent, denormal, infinity and NaN).
 */
START_TEST(bucket_matches_formula_random)
{
	enum { N = 5000000 };
	uint64_t seed = test_seed("hist bucket_matches_formula_random", 20261201);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	uint64_t lo = to_bits(0x1p-30), hi = to_bits(0x1p30);

	ck_assert_ptr_nonnull(rng);
	gsl_rng_set(rng, (unsigned long)seed);
	for (int k = 0; k < N; k++) {
		uint64_t r = ((uint64_t)gsl_rng_get(rng) << 32) | gsl_rng_get(rng);
		double a = from_bits(lo + r % (hi - lo));
		double b = 1e-7 * pow(10.0, 15.0 * gsl_rng_uniform(rng));
		double c = from_bits(((uint64_t)gsl_rng_get(rng) << 32) | gsl_rng_get(rng));
		double d = from_bits(((uint64_t)gsl_rng_get(rng) << 32) | gsl_rng_get(rng));
		int wa = bucket_formula(a), wb = bucket_formula(b), wc = bucket_formula(c), wd = bucket_formula(d);
		if (hist_bucket(a) != wa || hist_bucket(b) != wb || hist_bucket(-a) != -1 || hist_bucket(c) != wc ||
		    hist_bucket(d) != wd)
			ck_abort_msg("hist_bucket differs from the formula at %a, %a, %a or %a", a, b, c, d);
	}
	gsl_rng_free(rng);
}
END_TEST

/* hist_edge(i) is the smallest value of bucket i: it goes there and the double below it into bucket i - 1. */
START_TEST(edges_are_bucket_starts)
{
	ck_assert(hist_edge(0) == HIST_MIN_S);
	ck_assert(isinf(hist_edge(HIST_BUCKETS)));
	for (int i = 0; i < HIST_BUCKETS; i++) {
		double e = hist_edge(i);
		ck_assert_int_eq(hist_bucket(e), i);
		ck_assert_int_eq(hist_bucket(nextafter(e, 0.0)), i - 1);
	}
}
END_TEST

/*
 * Fractional masses: each cumulative count within 1/2 of the cumulative mass (so a quantile's rank is off by
 * at most half a value), the total the rounded total, what is rounded away carried to the next call, and the
 * maximum the middle of the highest bucket given a value. Masses 0.3 below 1 us, then 0.3, 0.3, 0.3, 1.2,
 * -1 (counts as 0) and 0.2 in buckets 0 .. 5: cumulative 0.3 0.6 0.9 1.2 2.4 2.4 2.6, rounded 0 1 1 1 2 2 3.
 */
START_TEST(mass_rounded_cumulatively)
{
	static const double mass[] = { 0.3, 0.3, 0.3, 0.3, 1.2, -1, 0.2 };
	static const uint64_t want[] = { 1, 0, 0, 1, 0, 1 };
	struct hist h;
	double carry = 0;

	hist_init(&h);
	ck_assert_uint_eq(hist_add_mass(&h, mass, 0, 6, 7.5, &carry), 3);
	ck_assert_uint_eq(h.zero, 0);
	for (int i = 0; i < 6; i++)
		ck_assert_uint_eq(h.counts[i], want[i]);
	ck_assert_uint_eq(h.n, 3);
	ck_assert(h.sum_s == 7.5);
	assert_rel(hist_max(&h), HIST_MIN_S * pow(HIST_RATIO, 5.5), EXACT_RTOL, "max: bucket 5's middle");
	ck_assert_double_eq_tol(carry, -0.4, 1e-12);
	/* the -0.4 carried: 0.3 more rounds to nothing, then 0.6 to one value (total 3.5 -> 4) */
	ck_assert_uint_eq(hist_add_mass(&h, mass, 1, 1, 0, &carry), 0);
	ck_assert_uint_eq(hist_add_mass(&h, (const double[]){ 0, 0.6 }, 1, 1, 0, &carry), 1);
	ck_assert_uint_eq(h.n, 4);
	ck_assert_uint_eq(h.counts[0], 2);
}
END_TEST

/* A merge adds counts, sums and maxima: the same as adding every value to one histogram. */
START_TEST(merge_is_adding)
{
	const double a[] = { 1e-7, 0.5, 3, 3.01 }, b[] = { 0.2, 7, 1e-8 };
	struct hist ha, hb, all;

	hist_init(&ha);
	hist_init(&hb);
	hist_init(&all);
	for (int i = 0; i < 4; i++) {
		hist_add(&ha, a[i]);
		hist_add(&all, a[i]);
	}
	for (int i = 0; i < 3; i++) {
		hist_add(&hb, b[i]);
		hist_add(&all, b[i]);
	}
	hist_merge(&ha, &hb);
	ck_assert(memcmp(ha.counts, all.counts, sizeof all.counts) == 0);
	ck_assert_uint_eq(ha.zero, all.zero);
	ck_assert_uint_eq(ha.n, all.n);
	assert_rel(ha.sum_s, all.sum_s, EXACT_RTOL, "sum");
	ck_assert(ha.max_s == all.max_s);
}
END_TEST

static Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, add_zero_is_add_of_zero);
	tcase_add_test(tc, quantiles_lognormal);
	tcase_add_test(tc, quantiles_exponential);
	tcase_add_test(tc, quantiles_loguniform_decades);
	tcase_add_test(tc, empty_is_nan);
	tcase_add_test(tc, single_value);
	tcase_add_test(tc, below_one_us_is_zero);
	tcase_add_test(tc, one_us_is_not_zero);
	tcase_add_test(tc, every_bucket_within_one_percent);
	tcase_add_test(tc, beyond_top_bucket_clamps);
	tcase_add_test(tc, ranks_of_small_set);
	tcase_add_test(tc, bucket_matches_formula_special);
	tcase_add_test(tc, bucket_matches_formula_at_every_edge);
	tcase_add_test(tc, bucket_matches_formula_random);
	tcase_add_test(tc, edges_are_bucket_starts);
	tcase_add_test(tc, mass_rounded_cumulatively);
	tcase_add_test(tc, merge_is_adding);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(hist_suite());
}
