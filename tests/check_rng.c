/*
 * check_rng: named random streams and their draws (sim/rng.h).
 *
 * The generator is checked against xoshiro256++ written out again here from its published definition
 * (Blackman and Vigna 2021), and on one output worked by hand: from the state {1, 2, 3, 4} the first output
 * is rotl(1 + 4, 23) + 1 = 5 x 2^23 + 1 = 41943041. The seeding (SplitMix64 of seed XOR FNV-1a-64 of the
 * name; the state the next four SplitMix64 outputs) is re-derived independently too. Each inline draw is
 * compared with its formula on a copy of the same stream, and its distribution with theory, at a stated
 * number of standard errors.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "rng.h"
#include "testutil.h"

#define DRAWS 8  /* outputs compared between streams */

/* Fill out[0..n) with the first n outputs of stream (seed, name). */
static void first_draws(uint64_t seed, const char *name, unsigned long *out, int n)
{
	gsl_rng *r = rng_new(seed, name);

	ck_assert_ptr_nonnull(r);
	for (int i = 0; i < n; i++)
		out[i] = gsl_rng_get(r);
	gsl_rng_free(r);
}

static bool same_draws(uint64_t seed_a, const char *name_a, uint64_t seed_b, const char *name_b)
{
	unsigned long a[DRAWS], b[DRAWS];

	first_draws(seed_a, name_a, a, DRAWS);
	first_draws(seed_b, name_b, b, DRAWS);
	for (int i = 0; i < DRAWS; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* --- the published algorithms, written out again --- */

static uint64_t ref_fnv1a64(const char *s)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return h;
}

static uint64_t ref_splitmix64(uint64_t *x)
{
	uint64_t z = *x += UINT64_C(0x9e3779b97f4a7c15);

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t ref_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t ref_next(uint64_t s[4])
{
	const uint64_t result = ref_rotl(s[0] + s[3], 23) + s[0];
	const uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ref_rotl(s[3], 45);
	return result;
}

START_TEST(is_xoshiro256pp)
{
	gsl_rng *r = rng_new(1, "arrivals");

	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(gsl_rng_name(r), "xoshiro256++");
	ck_assert_ptr_eq(r->type, rng_xoshiro256pp);
	ck_assert_uint_eq(gsl_rng_max(r), UINT64_MAX);
	ck_assert_uint_eq(gsl_rng_min(r), 0);
	gsl_rng_free(r);
}
END_TEST

/* From the state {1, 2, 3, 4}: the first output worked by hand (top of the file), then the reference. */
START_TEST(output_matches_the_definition)
{
	gsl_rng *r = rng_new(0, "");
	uint64_t ref[4] = { 1, 2, 3, 4 };

	ck_assert_ptr_nonnull(r);
	memcpy(r->state, ref, sizeof ref);
	ck_assert_uint_eq(gsl_rng_get(r), UINT64_C(41943041));
	ck_assert_uint_eq(ref_next(ref), UINT64_C(41943041));
	for (int i = 0; i < 1000; i++)
		ck_assert_uint_eq(gsl_rng_get(r), ref_next(ref));
	gsl_rng_free(r);
}
END_TEST

/* rng_new(seed, name): state = the next four SplitMix64 outputs from SplitMix64(seed ^ FNV-1a-64(name)). */
START_TEST(stream_follows_documented_seeding)
{
	static const char *const names[] = { "arrivals", "service", "", "spot/us-east-1a" };
	uint64_t seed = test_seed("rng stream_follows_documented_seeding", 99);

	for (int i = 0; i < 400; i++) {
		uint64_t s = seed * UINT64_C(6364136223846793005) + (uint64_t)i * UINT64_C(1442695040888963407);
		const char *name = names[i % 4];
		uint64_t x = s ^ ref_fnv1a64(name), st[4];
		uint64_t stream_seed = ref_splitmix64(&x);
		gsl_rng *r = rng_new(s, name);

		ck_assert_ptr_nonnull(r);
		ck_assert_uint_eq(rng_stream_seed(s, name), stream_seed);
		x = stream_seed;
		for (int k = 0; k < 4; k++)
			st[k] = ref_splitmix64(&x);
		for (int k = 0; k < DRAWS; k++)
			ck_assert_uint_eq(gsl_rng_get(r), ref_next(st));
		gsl_rng_free(r);
	}
}
END_TEST

START_TEST(same_seed_and_name_same_sequence)
{
	enum { N = 10000 };
	gsl_rng *a = rng_new(42, "service");
	gsl_rng *b = rng_new(42, "service");

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	for (int i = 0; i < N; i++)
		ck_assert_uint_eq(gsl_rng_get(a), gsl_rng_get(b));
	gsl_rng_free(a);
	gsl_rng_free(b);
	ck_assert_uint_eq(rng_stream_seed(42, "service"), rng_stream_seed(42, "service"));
}
END_TEST

START_TEST(different_names_differ)
{
	ck_assert(!same_draws(1, "arrivals", 1, "service"));
	ck_assert(!same_draws(1, "arrivals", 1, "arrivals2"));
	ck_assert(!same_draws(1, "a", 1, "b"));
	ck_assert(!same_draws(1, "", 1, "arrivals"));
	ck_assert(!same_draws(1, "ab", 1, "ba"));  /* order of letters matters */
}
END_TEST

START_TEST(different_seeds_differ)
{
	ck_assert(!same_draws(1, "arrivals", 2, "arrivals"));
	ck_assert(!same_draws(0, "arrivals", 1, "arrivals"));
	/* every bit of the 64-bit seed counts: the high half and the top bit too */
	ck_assert(!same_draws(1, "arrivals", 1 + (UINT64_C(1) << 32), "arrivals"));
	ck_assert(!same_draws(7, "service", 7 | (UINT64_C(1) << 63), "service"));
}
END_TEST

/* The seed that makes the stream seed 0 (SplitMix64 run backwards would find it; here: gsl_rng_set(r, 0)
 * directly) still gives a working generator: its state is not all zero, and its outputs are not. */
START_TEST(zero_seed_still_a_stream)
{
	gsl_rng *r = gsl_rng_alloc(rng_xoshiro256pp);
	const uint64_t *st;
	int nonzero = 0;

	ck_assert_ptr_nonnull(r);
	gsl_rng_set(r, 0);
	st = r->state;
	ck_assert(st[0] | st[1] | st[2] | st[3]);
	for (int i = 0; i < DRAWS; i++)
		nonzero += gsl_rng_get(r) != 0;
	ck_assert_int_eq(nonzero, DRAWS);
	gsl_rng_free(r);
}
END_TEST

/* --- the inline draws --- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* rng_uniform is gsl_rng_uniform (the top 53 bits over 2^53), on two copies of one stream. */
START_TEST(uniform_is_top_53_bits)
{
	gsl_rng *a = rng_new(5, "u"), *b = rng_new(5, "u"), *c = rng_new(5, "u");
	double lo = 1, hi = 0;

	for (int i = 0; i < 100000; i++) {
		double u = rng_uniform(a), g = gsl_rng_uniform(b);
		uint64_t x = gsl_rng_get(c);
		ck_assert(u == g);
		ck_assert(u == (double)(x >> 11) / 9007199254740992.0);
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	ck_assert(lo >= 0 && lo < 1e-4);   /* 100000 draws: P(min > 1e-4) = e^-10 */
	ck_assert(hi < 1 && hi > 1 - 1e-4);
	gsl_rng_free(a);
	gsl_rng_free(b);
	gsl_rng_free(c);
}
END_TEST

/*
 * The ziggurat's tables (rng.h) are Marsaglia and Tsang's: every layer has the area v = 3.949659822581572e-3.
 * Layer i >= 1 is the rectangle [0, x_i] x [exp(-x_i), exp(-x_(i-1))], x_i = w[i] 2^53 and f[i] = exp(-x_i),
 * so x_i (f[i-1] - f[i]) = v; the base layer is [0, r] x [0, exp(-r)] plus the tail beyond r, whose area
 * is exp(-r): r exp(-r) + exp(-r) = v, r = 7.69711747013104972. The layers' rectangles nest: k[i] / 2^53 =
 * x_(i-1) / x_i < 1 for i >= 2.
 */
START_TEST(ziggurat_tables_have_equal_areas)
{
	const double v = 3.949659822581572e-3, r = 7.69711747013104972, two53 = 9007199254740992.0;
	gsl_rng *g = rng_new(1, "tables");  /* the tables are built when the first generator is set */

	ck_assert_ptr_nonnull(g);
	ck_assert_double_eq_tol(rng_zig_w[255] * two53, r, 1e-12);
	ck_assert_double_eq_tol((r + 1) * exp(-r), v, 1e-15);
	ck_assert_double_eq_tol(rng_zig_f[255], exp(-r), 1e-18);
	ck_assert(rng_zig_f[0] == 1.0);
	/* the base layer: width v / exp(-r) (its area v spread as a rectangle of height exp(-r)), of which the
	 * rectangle [0, r] is the share r exp(-r) / v = 0.8850; past it the tail is drawn by the slow path */
	ck_assert_double_eq_tol(rng_zig_w[0] * two53, v / exp(-r), 1e-9);
	ck_assert_double_eq_tol((double)rng_zig_k[0] / two53, r * exp(-r) / v, 1e-12);
	ck_assert_double_eq_tol((double)rng_zig_k[0] / two53, 0.8850, 1e-4);
	ck_assert_uint_eq(rng_zig_k[1], 0);  /* the top layer is all wedge (Marsaglia and Tsang's setup) */
	for (int i = 1; i < 256; i++) {
		double x = rng_zig_w[i] * two53;
		ck_assert_msg(fabs(x * (rng_zig_f[i - 1] - rng_zig_f[i]) - v) < 1e-9, "layer %d area %.12g", i,
			      x * (rng_zig_f[i - 1] - rng_zig_f[i]));
		ck_assert_double_eq_tol(rng_zig_f[i], exp(-x), 1e-15);
		if (i >= 2) {
			ck_assert_double_eq_tol((double)rng_zig_k[i] / two53, rng_zig_w[i - 1] / rng_zig_w[i], 1e-12);
			ck_assert_uint_lt(rng_zig_k[i], (uint64_t)1 << 53);
		}
	}
	gsl_rng_free(g);
}
END_TEST

/*
 * rng_exponential(r, m): on a copy of the stream, a draw whose output x falls in its layer's rectangle (j =
 * x >> 11 below k[x & 255]) is exactly m j w[x & 255]; the others are left to the distribution tests. The
 * sample mean and variance agree with m and m^2, the empirical CDF with 1 - exp(-x / m) (Kolmogorov-Smirnov),
 * and the share beyond r m (the tail, drawn by the slow path) with exp(-r).
 */
START_TEST(exponential_formula_and_moments)
{
	enum { N = 200000 };
	const double m = 2.5, r = 7.69711747013104972;
	gsl_rng *a = rng_new(test_seed("rng exponential", 11), "e"), *b = gsl_rng_clone(a);
	static double xs[N];
	double sum = 0, sum2 = 0, mean, var, dmax = 0;
	long fast = 0, tail = 0;

	for (int i = 0; i < N; i++) {
		uint64_t x = gsl_rng_get(b), j = x >> 11;
		double e = rng_exponential(a, m);
		if (j < rng_zig_k[x & 255]) {
			if (e != m * ((double)j * rng_zig_w[x & 255]))
				ck_abort_msg("draw %d: %.17g, not m j w = %.17g", i, e, m * ((double)j * rng_zig_w[x & 255]));
			fast++;
		} else {
			gsl_rng_memcpy(b, a);  /* the slow path drew more: follow it */
		}
		if (!(e >= 0))
			ck_abort_msg("draw %d negative: %g", i, e);
		tail += e > r * m;
		xs[i] = e;
		sum += e;
		sum2 += e * e;
	}
	mean = sum / N;
	var = sum2 / N - mean * mean;
	/* SE of the mean m / sqrt(N) = 0.0056; of the variance about m^2 sqrt(8 / N) = 0.040: 5 SE each */
	ck_assert_msg(fabs(mean - m) < 5 * m / sqrt(N), "mean %g", mean);
	ck_assert_msg(fabs(var - m * m) < 5 * m * m * sqrt(8.0 / N), "variance %g", var);
	/* the fast path is taken with probability the mean of k[i] / 2^53 over the layers (97.8%): 5 SD */
	{
		double p = 0;
		for (int i = 0; i < 256; i++)
			p += (double)rng_zig_k[i] / 9007199254740992.0 / 256;
		ck_assert_msg(p > 0.97 && p < 0.99, "fast share %g", p);
		ck_assert_msg(fabs(fast - N * p) < 5 * sqrt(N * p * (1 - p)), "fast path %ld of %d, expected %g", fast,
			      N, N * p);
	}
	/* tail: p = exp(-r) = 4.54e-4, N p = 91, SD 9.5: 5 SD */
	ck_assert_msg(fabs(tail - N * exp(-r)) < 5 * sqrt(N * exp(-r)), "beyond r m: %ld", tail);
	/* KS: P(sqrt(N) D > 1.95) = 0.001 */
	qsort(xs, N, sizeof xs[0], cmp_double);
	for (int i = 0; i < N; i++) {
		double f = 1 - exp(-xs[i] / m), d1 = fabs(f - (double)i / N), d2 = fabs(f - (double)(i + 1) / N);
		dmax = fmax(dmax, fmax(d1, d2));
	}
	ck_assert_msg(sqrt(N) * dmax < 1.95, "Kolmogorov-Smirnov sqrt(N) D = %g", sqrt(N) * dmax);
	gsl_rng_free(a);
	gsl_rng_free(b);
}
END_TEST

/* rng_uniform_int(r, n) is floor(x n / 2^64) for the output x (Lemire), redrawn only in the rare rejection
 * zone; its counts over n values pass a chi-square test. */
START_TEST(uniform_int_formula_and_counts)
{
	static const unsigned long ns[] = { 1, 2, 3, 7, 100, 1000003 };
	gsl_rng *a = rng_new(test_seed("rng uniform_int", 13), "i"), *b = gsl_rng_clone(a);

	for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
		unsigned long n = ns[j];
		for (int i = 0; i < 20000; i++) {
			unsigned long k = rng_uniform_int(a, n);
			rng_u128 m = (rng_u128)gsl_rng_get(b) * n;
			ck_assert_uint_lt(k, n);
			/* for these n the rejection zone (below 2^64 mod n < 2^20) is hit with chance < 2^-44 */
			ck_assert_uint_eq(k, (unsigned long)(m >> 64));
		}
	}
	/* chi-square over 7 values, 70000 draws: 6 degrees of freedom, P(X2 > 22.46) = 0.001 */
	{
		enum { N = 70000, K = 7 };
		long count[K] = { 0 };
		double x2 = 0;
		for (int i = 0; i < N; i++)
			count[rng_uniform_int(a, K)]++;
		for (int k = 0; k < K; k++)
			x2 += (count[k] - N / K) * (double)(count[k] - N / K) / (N / K);
		ck_assert_msg(x2 < 22.46, "chi-square %g", x2);
	}
	gsl_rng_free(a);
	gsl_rng_free(b);
}
END_TEST

/* In the rejection zone a draw is redrawn: with n = 2^63 + 1, 2^64 mod n = 2^63 - 1, so an output x whose
 * low product half x n mod 2^64 is below that is refused. The stream is set to a state whose first output
 * is refused (searched from {2, 2, 3, i}: from {1, 2, 3, i} the first output is odd and below 2^63, never
 * refused), and the result must be the second output's. */
START_TEST(uniform_int_rejects_the_biased_zone)
{
	const unsigned long n = (UINT64_C(1) << 63) + 1;
	const uint64_t threshold = (0 - (uint64_t)n) % n;
	gsl_rng *r = rng_new(0, "");
	uint64_t st[4], copy[4], x1, x2;
	bool found = false;

	ck_assert_uint_eq(threshold, (UINT64_C(1) << 63) - 1);
	for (uint64_t i = 1; i < 1000 && !found; i++) {
		st[0] = 2, st[1] = 2, st[2] = 3, st[3] = i;
		memcpy(copy, st, sizeof st);
		x1 = ref_next(copy);
		found = (uint64_t)((rng_u128)x1 * n) < threshold;
	}
	ck_assert(found);
	x2 = ref_next(copy);
	ck_assert((uint64_t)((rng_u128)x2 * n) >= threshold);  /* the second is kept */
	memcpy(r->state, st, sizeof st);
	ck_assert_uint_eq(rng_uniform_int(r, n), (unsigned long)(((rng_u128)x2 * n) >> 64));
	gsl_rng_free(r);
}
END_TEST

/* rng_lognormal(r, zeta, sigma): log of the draws has mean zeta and standard deviation sigma. */
START_TEST(lognormal_moments)
{
	enum { N = 400000 };
	const double zeta = 0.4, sigma = 0.55;
	gsl_rng *r = rng_new(test_seed("rng lognormal", 17), "l");
	double sum = 0, sum2 = 0, mean, sd;

	for (int i = 0; i < N; i++) {
		double y = log(rng_lognormal(r, zeta, sigma));
		sum += y;
		sum2 += y * y;
	}
	mean = sum / N;
	sd = sqrt(sum2 / N - mean * mean);
	/* SE of the mean sigma / sqrt(N) = 0.00087; of the SD sigma / sqrt(2N) = 0.00061: 5 SE each */
	ck_assert_msg(fabs(mean - zeta) < 5 * sigma / sqrt(N), "mean of logs %g", mean);
	ck_assert_msg(fabs(sd - sigma) < 5 * sigma / sqrt(2.0 * N), "SD of logs %g", sd);
	gsl_rng_free(r);
}
END_TEST

/* A generator of another type gets GSL's own draws from the inline functions. */
START_TEST(other_types_fall_back_to_gsl)
{
	gsl_rng *a = gsl_rng_alloc(gsl_rng_mt19937), *b = gsl_rng_alloc(gsl_rng_mt19937);

	for (int i = 0; i < 1000; i++) {
		ck_assert(rng_uniform(a) == gsl_rng_uniform(b));
		ck_assert_uint_eq(rng_uniform_int(a, 37), gsl_rng_uniform_int(b, 37));
	}
	gsl_rng_free(a);
	gsl_rng_free(b);
}
END_TEST

static Suite *rng_suite(void)
{
	Suite *s = suite_create("rng");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, is_xoshiro256pp);
	tcase_add_test(tc, output_matches_the_definition);
	tcase_add_test(tc, stream_follows_documented_seeding);
	tcase_add_test(tc, same_seed_and_name_same_sequence);
	tcase_add_test(tc, different_names_differ);
	tcase_add_test(tc, different_seeds_differ);
	tcase_add_test(tc, zero_seed_still_a_stream);
	tcase_add_test(tc, uniform_is_top_53_bits);
	tcase_add_test(tc, ziggurat_tables_have_equal_areas);
	tcase_add_test(tc, exponential_formula_and_moments);
	tcase_add_test(tc, uniform_int_formula_and_counts);
	tcase_add_test(tc, uniform_int_rejects_the_biased_zone);
	tcase_add_test(tc, lognormal_moments);
	tcase_add_test(tc, other_types_fall_back_to_gsl);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(rng_suite());
}
