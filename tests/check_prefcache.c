/*
 * check_prefcache: one instance's prefix cache (models/serving/prefcache.h): leading hits, LRU eviction with a
 * prompt's tail going before its prefix, capacities 0 and smaller than a prompt, unbounded growth, and a
 * random run against a plain reference model (an array in recency order) with the sanity check after every
 * call. Exact integer results: no tolerance.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "prefcache.h"
#include "status.h"
#include "testutil.h"

#define LEN(a) ((int32_t)(sizeof(a) / sizeof((a)[0])))

static void init_ok(struct prefcache *c, int64_t capacity)
{
	ck_assert_int_eq(prefcache_init(c, capacity), STATUS_OK);
	ck_assert(prefcache_sane(c));
}

static void insert_ok(struct prefcache *c, const uint64_t *ids, int32_t n)
{
	ck_assert_int_eq(prefcache_insert(c, ids, n), STATUS_OK);
	ck_assert(prefcache_sane(c));
}

/* Hits count leading blocks only: [1 2 3] held, so [1 2 3 4] hits 3, [1 9 3] hits 1, [2 3] hits 2 (block 2
 * is held whatever came before it in this prompt), [9 1] hits 0. Looking up changes nothing. */
START_TEST(hits_are_leading_blocks)
{
	static const uint64_t a[] = { 1, 2, 3 }, b[] = { 1, 2, 3, 4 }, d[] = { 1, 9, 3 }, e[] = { 2, 3 },
		f[] = { 9, 1 };
	struct prefcache c;

	init_ok(&c, 8);
	ck_assert_int_eq(prefcache_hits(&c, a, LEN(a)), 0);
	insert_ok(&c, a, LEN(a));
	ck_assert_int_eq(c.n, 3);
	ck_assert_int_eq(prefcache_hits(&c, b, LEN(b)), 3);
	ck_assert_int_eq(prefcache_hits(&c, d, LEN(d)), 1);
	ck_assert_int_eq(prefcache_hits(&c, e, LEN(e)), 2);
	ck_assert_int_eq(prefcache_hits(&c, f, LEN(f)), 0);
	ck_assert_int_eq(prefcache_hits(&c, a, 0), 0);
	ck_assert_int_eq(c.n, 3);
	prefcache_fini(&c);
}
END_TEST

/*
 * Capacity 4, by hand. Insert [1 2 3]: touched 3, 2, 1, so recency (most recent first) is 1 2 3. Insert
 * [10 11]: 11 comes in (1 2 3 -> 11 1 2 3, full), then 10 evicts the least recent, 3: 10 11 1 2. So [1 2 3]
 * now hits 2: the tail went, the prefix stayed. Insert [1 2]: both held, recency 1 2 10 11. Insert [20]:
 * evicts 11: 20 1 2 10.
 */
START_TEST(lru_evicts_the_tail_first)
{
	static const uint64_t a[] = { 1, 2, 3 }, b[] = { 10, 11 }, p[] = { 1, 2 }, q[] = { 20 };
	struct prefcache c;

	init_ok(&c, 4);
	insert_ok(&c, a, LEN(a));
	insert_ok(&c, b, LEN(b));
	ck_assert_int_eq(c.n, 4);
	ck_assert(!prefcache_holds(&c, 3));
	ck_assert_int_eq(prefcache_hits(&c, a, LEN(a)), 2);
	ck_assert_int_eq(prefcache_hits(&c, b, LEN(b)), 2);
	insert_ok(&c, p, LEN(p));
	insert_ok(&c, q, LEN(q));
	ck_assert(!prefcache_holds(&c, 11));
	ck_assert(prefcache_holds(&c, 20) && prefcache_holds(&c, 1) && prefcache_holds(&c, 2) &&
		  prefcache_holds(&c, 10));
	ck_assert_int_eq(c.nodes[c.mru].id, 20);
	ck_assert_int_eq(c.nodes[c.lru].id, 10);
	prefcache_fini(&c);
}
END_TEST

/* A prompt longer than the cache keeps its leading blocks: capacity 2, [1 2 3] touched 3, 2, then 1 evicts
 * 3: {1, 2}, hits 2. Capacity 0 keeps nothing. A negative capacity other than unbounded is refused. */
START_TEST(small_and_zero_capacities)
{
	static const uint64_t a[] = { 1, 2, 3 };
	struct prefcache c;

	init_ok(&c, 2);
	insert_ok(&c, a, LEN(a));
	ck_assert_int_eq(c.n, 2);
	ck_assert_int_eq(prefcache_hits(&c, a, LEN(a)), 2);
	prefcache_fini(&c);
	init_ok(&c, 0);
	insert_ok(&c, a, LEN(a));
	ck_assert_int_eq(c.n, 0);
	ck_assert_int_eq(prefcache_hits(&c, a, LEN(a)), 0);
	prefcache_fini(&c);
	ck_assert_int_eq(prefcache_init(&c, -5), STATUS_EINPUT);
	prefcache_fini(&c);
	ck_assert_int_eq(prefcache_init(&c, (INT64_C(1) << 30) + 1), STATUS_EINPUT);
	prefcache_fini(&c);
}
END_TEST

/* Unbounded: 5000 distinct blocks (past the first room of 1024, so it grows three times) are all held. */
START_TEST(unbounded_grows_and_never_evicts)
{
	uint64_t ids[100];
	struct prefcache c;

	init_ok(&c, PREFCACHE_UNBOUNDED);
	for (int r = 0; r < 50; r++) {
		for (int i = 0; i < 100; i++)
			ids[i] = (uint64_t)(r * 100 + i) * UINT64_C(0x100000001);  /* spread over the hash */
		insert_ok(&c, ids, 100);
	}
	ck_assert_int_eq(c.n, 5000);
	for (uint64_t k = 0; k < 5000; k++)
		ck_assert(prefcache_holds(&c, k * UINT64_C(0x100000001)));
	prefcache_fini(&c);
}
END_TEST

/* The reference: ids in recency order, most recent first, at most cap. */
struct ref {
	uint64_t ids[64];
	int n, cap;
};

static void ref_touch(struct ref *r, uint64_t id)
{
	int at = r->n;

	for (int i = 0; i < r->n; i++)
		if (r->ids[i] == id)
			at = i;
	if (at == r->n && r->n == r->cap)
		at = --r->n;  /* evict the last */
	memmove(&r->ids[1], &r->ids[0], (size_t)at * sizeof r->ids[0]);
	r->ids[0] = id;
	if (at == r->n)
		r->n++;
}

/* 20000 random prompts (1 to 12 blocks, ids from a small space so that they collide and evict) against the
 * reference, checking what is held, in which order, and the hits. The seed is printed on failure. */
START_TEST(random_against_reference)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct prefcache c;
	struct ref r = { .cap = 16 };
	uint64_t ids[12];

	gsl_rng_set(rng, 20261201);
	init_ok(&c, r.cap);
	for (int it = 0; it < 20000; it++) {
		int32_t n = 1 + (int32_t)gsl_rng_uniform_int(rng, 12), want = 0;
		for (int i = 0; i < n; i++)
			ids[i] = gsl_rng_uniform_int(rng, 40);
		for (int i = 0; i < n; i++) {  /* leading hits in the reference */
			bool held = false;
			for (int j = 0; j < r.n; j++)
				held = held || r.ids[j] == ids[i];
			if (!held)
				break;
			want++;
		}
		ck_assert_msg(prefcache_hits(&c, ids, n) == want, "seed 20261201, step %d", it);
		insert_ok(&c, ids, n);
		for (int i = n - 1; i >= 0; i--)
			ref_touch(&r, ids[i]);
		ck_assert_int_eq(c.n, r.n);
		int32_t k = c.mru;
		for (int i = 0; i < r.n; i++, k = c.nodes[k].next)
			ck_assert_msg(c.nodes[k].id == r.ids[i], "seed 20261201, step %d, rank %d", it, i);
	}
	prefcache_fini(&c);
	gsl_rng_free(rng);
}
END_TEST

static Suite *prefcache_suite(void)
{
	Suite *s = suite_create("prefcache");
	TCase *tc = tcase_create("cache");

	tcase_add_test(tc, hits_are_leading_blocks);
	tcase_add_test(tc, lru_evicts_the_tail_first);
	tcase_add_test(tc, small_and_zero_capacities);
	tcase_add_test(tc, unbounded_grows_and_never_evicts);
	tcase_add_test(tc, random_against_reference);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(prefcache_suite());
}
