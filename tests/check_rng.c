/*
 * check_rng: named random streams (sim/rng.h).
 *
 * Streams are compared on their raw 32-bit outputs (gsl_rng_get), so equality is exact. The seed derivation
 * documented in rng.h (SplitMix64 of seed XOR FNV-1a-64 of the name, folded to 32 bits, 0 replaced) is
 * re-derived here independently; the zero case is reached by running SplitMix64 backwards from an output
 * that folds to 0, since no search could find one.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "rng.h"
#include "testutil.h"

#define DRAWS 8  /* outputs compared between streams */

/* A 64-bit value from two 32-bit draws (high half first). */
static uint64_t draw64(gsl_rng *r)
{
	uint64_t hi = gsl_rng_get(r);

	return (hi << 32) | gsl_rng_get(r);
}

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

START_TEST(is_mt19937)
{
	gsl_rng *r = rng_new(1, "arrivals");

	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(gsl_rng_name(r), "mt19937");
	gsl_rng_free(r);
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
	/* And the seed itself is a pure function of (seed, name). */
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
	/* MT19937 takes a 32-bit seed: the high half of the 64-bit seed must still count. */
	ck_assert(!same_draws(1, "arrivals", 1 + (UINT64_C(1) << 32), "arrivals"));
	ck_assert(!same_draws(7, "service", 7 | (UINT64_C(1) << 63), "service"));
}
END_TEST

/* A generator seeded with the stream seed produces the stream: rng_new adds nothing else. */
START_TEST(stream_seed_seeds_the_stream)
{
	enum { N = 100 };
	gsl_rng *a = rng_new(123456789, "arrivals");
	gsl_rng *b = gsl_rng_alloc(gsl_rng_mt19937);

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	gsl_rng_set(b, rng_stream_seed(123456789, "arrivals"));
	for (int i = 0; i < N; i++)
		ck_assert_uint_eq(gsl_rng_get(a), gsl_rng_get(b));
	gsl_rng_free(a);
	gsl_rng_free(b);
}
END_TEST

/* The documented derivation, written out again. */
static uint64_t ref_fnv1a64(const char *s)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return h;
}

static uint64_t ref_splitmix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/* x such that y == x ^ (x >> s). */
static uint64_t unxorshift(uint64_t y, int s)
{
	uint64_t x = y;

	for (int i = 0; i < 64 / s + 1; i++)
		x = y ^ (x >> s);
	return x;
}

/* The inverse of an odd number modulo 2^64 (Newton's iteration doubles the correct bits each step). */
static uint64_t inv_odd(uint64_t a)
{
	uint64_t x = a;

	for (int i = 0; i < 6; i++)
		x *= 2 - a * x;
	return x;
}

static uint64_t ref_splitmix64_inverse(uint64_t y)
{
	uint64_t x = unxorshift(y, 31);

	x = unxorshift(x * inv_odd(UINT64_C(0x94d049bb133111eb)), 27);
	x = unxorshift(x * inv_odd(UINT64_C(0xbf58476d1ce4e5b9)), 30);
	return x - UINT64_C(0x9e3779b97f4a7c15);
}

START_TEST(stream_seed_follows_documented_formula)
{
	static const char *const names[] = { "arrivals", "service", "", "spot/us-east-1a" };
	uint64_t seed = test_seed("rng stream_seed_follows_documented_formula", 99);
	gsl_rng *pick = gsl_rng_alloc(gsl_rng_mt19937);

	ck_assert_ptr_nonnull(pick);
	gsl_rng_set(pick, (unsigned long)seed);
	for (int i = 0; i < 10000; i++) {
		uint64_t s = draw64(pick);
		const char *name = names[i % 4];
		uint64_t x = ref_splitmix64(s ^ ref_fnv1a64(name));
		unsigned long want = (unsigned long)((x ^ (x >> 32)) & 0xffffffffu);

		ck_assert_uint_eq(ref_splitmix64_inverse(x), s ^ ref_fnv1a64(name));  /* the inverse is right */
		if (want != 0)
			ck_assert_uint_eq(rng_stream_seed(s, name), want);
	}
	gsl_rng_free(pick);
}
END_TEST

START_TEST(stream_seed_never_zero)
{
	uint64_t seed = test_seed("rng stream_seed_never_zero", 7);
	gsl_rng *pick = gsl_rng_alloc(gsl_rng_mt19937);

	ck_assert_ptr_nonnull(pick);
	gsl_rng_set(pick, (unsigned long)seed);
	for (int i = 0; i < 200000; i++) {
		uint64_t s = draw64(pick);
		unsigned long got = rng_stream_seed(s, i % 2 ? "arrivals" : "service");

		ck_assert_uint_ne(got, 0);
		ck_assert_uint_le(got, 0xffffffffu);
	}
	gsl_rng_free(pick);
	ck_assert_uint_ne(rng_stream_seed(0, ""), 0);
}
END_TEST

/*
 * The seeds whose mix folds to 0 -- x with equal 32-bit halves, such as 0, 0x0000000100000001 and
 * 0xdeadbeefdeadbeef --
 * found by running SplitMix64 backwards, still give a non-zero stream seed and a stream that is not GSL's
 * default one (which is what seed 0 would silently give).
 */
START_TEST(stream_seed_zero_fold_is_replaced)
{
	static const uint64_t folds_to_zero[] = { 0, UINT64_C(0x0000000100000001), UINT64_C(0xdeadbeefdeadbeef) };
	const char *name = "arrivals";

	for (size_t i = 0; i < sizeof folds_to_zero / sizeof folds_to_zero[0]; i++) {
		uint64_t s = ref_splitmix64_inverse(folds_to_zero[i]) ^ ref_fnv1a64(name);
		gsl_rng *dflt = gsl_rng_alloc(gsl_rng_mt19937);  /* seeded with GSL's default */
		unsigned long a[DRAWS], b[DRAWS];
		bool same = true;

		ck_assert_uint_eq(ref_splitmix64(s ^ ref_fnv1a64(name)), folds_to_zero[i]);
		ck_assert_uint_ne(rng_stream_seed(s, name), 0);
		ck_assert_ptr_nonnull(dflt);
		first_draws(s, name, a, DRAWS);
		for (int k = 0; k < DRAWS; k++) {
			b[k] = gsl_rng_get(dflt);
			same = same && a[k] == b[k];
		}
		ck_assert_msg(!same, "seed %llu gives GSL's default stream", (unsigned long long)s);
		gsl_rng_free(dflt);
	}
}
END_TEST

static Suite *rng_suite(void)
{
	Suite *s = suite_create("rng");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, is_mt19937);
	tcase_add_test(tc, same_seed_and_name_same_sequence);
	tcase_add_test(tc, different_names_differ);
	tcase_add_test(tc, different_seeds_differ);
	tcase_add_test(tc, stream_seed_seeds_the_stream);
	tcase_add_test(tc, stream_seed_follows_documented_formula);
	tcase_add_test(tc, stream_seed_never_zero);
	tcase_add_test(tc, stream_seed_zero_fold_is_replaced);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(rng_suite());
}
