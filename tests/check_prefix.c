/*
 * check_prefix: whole runs of the prefix cache and cache-aware routing (serving.c, prefcache.c; models/README.md
 * "Prefix caching"). At admission a request's prefill skips min(hits x block_tokens, in_tokens - 1) prompt
 * tokens, hits being the leading blocks of its hash ids its instance's cache holds; then all its blocks are
 * cached. prefix_hit_rate = hit blocks / blocks over the admissions.
 */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "testutil.h"

static struct capture cap;

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/* One g6e.xlarge on demand all hour, 3 slots, a Mooncake-layout trace with blocks of 100 tokens; prefill
 * 1000 tokens/s, decode 10 tokens/s, no overhead. */
#define RUN(trace, service, serving)                                                                     \
	"name: prefix\nhorizon: 1h\nslo: {latency_s: 1000}\n"                                            \
	"workload:\n  arrivals:\n    kind: trace\n    path: " TEST_DATA_DIR "/good/traces/" trace "\n"      \
	"    format: mooncake\n    block_tokens: 100\n"                                                    \
	"  service: {kind: tokens, prefill_tokens_per_s: 1000, decode_tokens_per_s: 10" service "}\n"    \
	"serving:\n  instance_type: g6e.xlarge\n  slots_per_instance: 3\n" serving                      \
	"fleet:\n  - {option: on_demand, count: 1, usd_per_h: 2}\n"

/*
 * Two requests on one instance share 2 of 3 blocks (100 tokens each):
 *   R1 t=0   in 300, ids [1, 2, 3]: no hits, prefill 300/1000 = 0.3 s, TTFT 0.3 (the first of its 10 output
 *            tokens), the other 9 decoded in 9/10 = 0.9 s: 1.2 s
 *   R2 t=10  in 300, ids [1, 2, 9]: hits 2 (1, 2), prefill (300 - 2 x 100)/1000 = 0.1 s, TTFT 0.1: 1.0 s
 * R2's prefill is shorter by exactly 2 x 100 / 1000 = 0.2 s. TTFT mean (0.3 + 0.1)/2 = 0.2 s, latency mean
 * (1.2 + 1.0)/2 = 1.1 s; hit rate 2/6; tokens saved 200. Without a prefix cache: TTFT 0.3 each. The same
 * with batching continuous (each decodes alone: R1 is done at 1.2, before R2 arrives).
 */
START_TEST(shared_blocks_shorten_prefill)
{
	const char *const batching[] = { "", ", batching: continuous", ", batching: continuous, prefill: chunked" };

	for (int i = 0; i < 3; i++) {
		char yaml[2048];
		snprintf(yaml, sizeof yaml, RUN("prefix_two.jsonl", "%s", "  prefix_cache_blocks: 10\n"),
			 batching[i]);
		capture_run(&cap, yaml, NULL, 0);
		ck_assert_double_eq(M("requests_served"), 2);
		ck_assert_double_eq_tol(M("ttft_mean_s"), (0.3 + 0.1) / 2, 1e-6);
		ck_assert_double_eq_tol(M("latency_mean_s"), (1.2 + 1.0) / 2, 1e-6);
		ck_assert_double_eq(M("prefix_hit_rate"), 2.0 / 6);
		ck_assert_double_eq(M("prefill_tokens_saved"), 200);
	}
	capture_run(&cap, RUN("prefix_two.jsonl", "", ""), NULL, 0);
	ck_assert_double_eq_tol(M("ttft_mean_s"), 0.3, 1e-6);
	ck_assert(isnan(capture_metric(&cap, "prefix_hit_rate")));  /* not reported without a prefix cache */
}
END_TEST

/*
 * prefix_small.jsonl, one instance, unbounded cache, blocks of 100 tokens (ids: leading hits):
 *   R1 in 300 [1,2,3]    0 of 3                   saved 0
 *   R2 in 300 [1,2,4]    2 of 3 (1, 2)            saved 200
 *   R3 in 250 [1,5,6]    1 of 3 (1)               saved 100
 *   R4 in 400 [1,2,3,7]  3 of 4 (1, 2, 3)         saved 300
 *   R5 in 200 [8,2]      0 of 2 (8 is new: 2 is not leading)
 *   R6 in 100 [1]        1 of 1: 100 tokens, but one is always prefilled: saved min(100, 100 - 1) = 99
 * Hit rate 7 / 16 = 0.4375; tokens saved 200 + 100 + 300 + 99 = 699.
 */
START_TEST(hit_rate_by_hand)
{
	capture_run(&cap, RUN("prefix_small.jsonl", "", "  prefix_cache_blocks: unbounded\n"), NULL, 0);
	ck_assert_double_eq(M("prefix_hit_rate"), 7.0 / 16);
	ck_assert_double_eq(M("prefill_tokens_saved"), 699);
}
END_TEST

/*
 * Routing by hand: two instances of one slot each, blocks of 100 tokens.
 *   R1 t=0    [1,2,3] in 300: instance 0 (the first free), done at 0.3 + 1 = 1.3
 *   R2 t=0.1  [7,8]   in 200: instance 1 (0 is busy), done at 0.1 + 0.2 + 1 = 1.3
 *   R3 t=10   [7,8,9] in 300: both free. first_free: instance 0, whose cache holds 1, 2, 3: no hit, prefill
 *             0.3 s. cache_aware: instance 0 gives 0 hits, instance 1 gives 2 (7, 8): instance 1, prefill
 *             (300 - 200)/1000 = 0.1 s.
 * Hit rate: first_free 0 / 8, cache_aware 2 / 8. TTFT mean: first_free (0.3 + 0.2 + 0.3)/3, cache_aware
 * (0.3 + 0.2 + 0.1)/3.
 */
START_TEST(cache_aware_routes_by_hand)
{
#define ROUTE(routing) "name: route\nhorizon: 1h\nslo: {latency_s: 1000}\nworkload:\n  arrivals:\n    kind: trace\n" \
	"    path: " TEST_DATA_DIR "/good/traces/prefix_route.jsonl\n    format: mooncake\n    block_tokens: 100\n" \
	"  service: {kind: tokens, prefill_tokens_per_s: 1000, decode_tokens_per_s: 10}\n"                    \
	"serving: {instance_type: g6e.xlarge, slots_per_instance: 1, prefix_cache_blocks: 100, routing: "      \
	routing "}\nfleet:\n  - {option: on_demand, count: 2, usd_per_h: 2}\n"
	capture_run(&cap, ROUTE("first_free"), NULL, 0);
	ck_assert_double_eq(M("prefix_hit_rate"), 0);
	ck_assert_double_eq_tol(M("ttft_mean_s"), (0.3 + 0.2 + 0.3) / 3, 1e-6);
	capture_run(&cap, ROUTE("cache_aware"), NULL, 0);
	ck_assert_double_eq(M("prefix_hit_rate"), 2.0 / 8);
	ck_assert_double_eq(M("prefill_tokens_saved"), 200);
	ck_assert_double_eq_tol(M("ttft_mean_s"), (0.3 + 0.2 + 0.1) / 3, 1e-6);
#undef ROUTE
}
END_TEST

/*
 * Cache-aware routing's ties (central queue): the most leading blocks cached, the lowest pool index on a tie.
 * Two single-slot instances of different types so that where a request went shows: instance 0 a g6e.xlarge,
 * instance 1 a p4d.24xlarge at service_scale 2 (its times doubled); blocks of 100 tokens, one output token
 * each (service = prefill at 1000 tokens/s), prefix_tie.jsonl:
 *   R1 t=0    [1,2,3] in 300: 0 hits on both, a tie: instance 0 (g6e), 0.3 s.
 *   R2 t=0.1  [1,2,4] in 300: instance 0 busy: instance 1 (p4d), 0.3 x 2 = 0.6 s.
 *   R3 t=10   [1,2,9] in 300: 2 hits on both (1, 2), a tie: instance 0, prefill 100 tokens: 0.1 s.
 *   R4 t=20   [1,2,4,5] in 400: instance 0 holds 1, 2 (2 hits), instance 1 holds 1, 2, 4 (3): instance 1,
 *             prefill 100 tokens x 2: 0.2 s.
 * Served g6e 2, p4d 2; latency mean (0.3 + 0.6 + 0.1 + 0.2)/4 = 0.3 s; hit rate (0 + 0 + 2 + 3)/13, saved 500.
 * (Ties to the higher index: R1 on the p4d, 0.6; R2 on the g6e, 0.3; R3 on the p4d, 0.2: g6e 1 of the first
 * three, mean over those 1.1/3 instead of 1.0/3.)
 */
START_TEST(cache_aware_ties_to_the_lowest_index)
{
	capture_run(&cap, "name: tie\nhorizon: 1h\nslo: {latency_s: 1000}\nworkload:\n  arrivals:\n    kind: trace\n"
		    "    path: " TEST_DATA_DIR "/good/traces/prefix_tie.jsonl\n    format: mooncake\n    block_tokens: 100\n"
		    "  service: {kind: tokens, prefill_tokens_per_s: 1000, decode_tokens_per_s: 10}\n"
		    "serving:\n  instance_type: g6e.xlarge\n  slots_per_instance: 1\n  prefix_cache_blocks: 100\n"
		    "  routing: cache_aware\n  types: {p4d.24xlarge: {slots_per_instance: 1, service_scale: 2}}\n"
		    "fleet:\n  - {option: reserved, count: 1, scope: zonal}\n"
		    "  - {option: on_demand, instance_type: p4d.24xlarge, count: 1}\n", NULL, 0);
	ck_assert_double_eq(M("requests_served"), 4);
	ck_assert_double_eq(M("type_g6e_xlarge_requests_served"), 2);
	ck_assert_double_eq(M("type_p4d_24xlarge_requests_served"), 2);
	ck_assert_double_eq_tol(M("latency_mean_s"), (0.3 + 0.6 + 0.1 + 0.2) / 4, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 0.6, 1e-6);
	ck_assert_double_eq(M("prefix_hit_rate"), 5.0 / 13);
	ck_assert_double_eq(M("prefill_tokens_saved"), 500);
}
END_TEST

/*
 * SageMaker's PREFIX_AWARE by hand (per-instance queues): two instances of one slot, blocks of 100 tokens, one
 * output token each (the prefill gives it: service = prefill).
 *   R1 t=0    [1,2,3] in 300: cached nowhere, so the least outstanding: both 0, one drawn (call it A);
 *             prefill 0.3 s, done 0.3.
 *   R2 t=0.1  [1,2,9] in 300: A holds 1, 2 (2 hits) but has 1 outstanding (R1).
 *             threshold 1: reached, so the least outstanding, B: no hit, 0.3 s, done 0.4; no wait.
 *             threshold 2: not reached, so A: waits there until 0.3 (0.2 s), prefill (300 - 200)/1000 = 0.1.
 *   R3 t=10   [1,2,3,4] in 400, both idle: A holds 1, 2, 3 (3 hits), B 1, 2 (threshold 1) or nothing
 *             (threshold 2): A, prefill (400 - 300)/1000 = 0.1.
 * Hits over blocks looked up (3 + 3 + 4): threshold 1 (0 + 0 + 3)/10, saved 300, wait mean 0; threshold 2
 * (0 + 2 + 3)/10, saved 500, wait mean 0.2/3. Which instance A is does not matter (the draw is symmetric).
 */
START_TEST(prefix_aware_threshold_by_hand)
{
#define PA(threshold) "name: route\nhorizon: 1h\nslo: {latency_s: 1000}\nworkload:\n  arrivals:\n    kind: trace\n" \
	"    path: " TEST_DATA_DIR "/good/traces/prefix_threshold.jsonl\n    format: mooncake\n    block_tokens: 100\n" \
	"  service: {kind: tokens, prefill_tokens_per_s: 1000, decode_tokens_per_s: 10}\n"                    \
	"serving: {instance_type: g6e.xlarge, slots_per_instance: 1, prefix_cache_blocks: 100, routing: "      \
	"prefix_aware, queue: per_instance, prefix_threshold: " threshold "}\n"                                \
	"fleet:\n  - {option: on_demand, count: 2, usd_per_h: 2}\n"
	for (int seed = 1; seed <= 4; seed++) {  /* whichever instance the first tie draws */
		char set[32];
		const char *sets[] = { set };
		snprintf(set, sizeof set, "seed=%d", seed);
		capture_run(&cap, PA("1"), sets, 1);
		ck_assert_double_eq(M("prefix_hit_rate"), 3.0 / 10);
		ck_assert_double_eq(M("prefill_tokens_saved"), 300);
		ck_assert_double_eq_tol(M("wait_mean_s"), 0, 1e-9);
		ck_assert_double_eq_tol(M("latency_mean_s"), (0.3 + 0.3 + 0.1) / 3, 1e-6);
		capture_run(&cap, PA("2"), sets, 1);
		ck_assert_double_eq(M("prefix_hit_rate"), 5.0 / 10);
		ck_assert_double_eq(M("prefill_tokens_saved"), 500);
		ck_assert_double_eq_tol(M("wait_mean_s"), 0.2 / 3, 1e-6);
		ck_assert_double_eq_tol(M("latency_mean_s"), (0.3 + 0.3 + 0.1) / 3, 1e-6);
	}
#undef PA
}
END_TEST

/* --- the trace's own prefix reuse ratio, computed here from its hash_ids --- */

struct idset {
	uint64_t *at;   /* open addressing, UINT64_MAX = empty */
	size_t mask;
	size_t n;
};

static bool idset_has(const struct idset *s, uint64_t id)
{
	for (size_t b = (id * 0x9E3779B97F4A7C15u) & s->mask;; b = (b + 1) & s->mask) {
		if (s->at[b] == UINT64_MAX)
			return false;
		if (s->at[b] == id)
			return true;
	}
}

static void idset_add(struct idset *s, uint64_t id)
{
	size_t b = (id * 0x9E3779B97F4A7C15u) & s->mask;

	if (2 * (s->n + 1) > s->mask + 1) {  /* grow */
		struct idset g = { malloc(2 * (s->mask + 1) * sizeof *g.at), 2 * (s->mask + 1) - 1, 0 };
		ck_assert_ptr_nonnull(g.at);
		memset(g.at, 0xff, (g.mask + 1) * sizeof *g.at);
		for (size_t i = 0; i <= s->mask; i++)
			if (s->at[i] != UINT64_MAX)
				idset_add(&g, s->at[i]);
		free(s->at);
		*s = g;
		b = (id * 0x9E3779B97F4A7C15u) & s->mask;
	}
	for (;; b = (b + 1) & s->mask) {
		if (s->at[b] == id)
			return;
		if (s->at[b] == UINT64_MAX) {
			s->at[b] = id;
			s->n++;
			return;
		}
	}
}

/* Walk each request's hash_ids in file order: a block counts as reused when it and every block before it in
 * the same request were seen in an earlier request. */
static void reuse_of(const char *path, uint64_t *hits, uint64_t *blocks)
{
	static char line[1 << 20];
	static uint64_t ids[1 << 15];
	struct idset seen = { malloc(1024 * sizeof(uint64_t)), 1023, 0 };
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(seen.at);
	memset(seen.at, 0xff, 1024 * sizeof(uint64_t));
	*hits = *blocks = 0;
	while (fgets(line, sizeof line, f)) {
		char *p = strstr(line, "\"hash_ids\"");
		size_t n = 0;
		bool leading = true;
		if (!p)
			continue;
		p = strchr(p, '[') + 1;
		while (*p && *p != ']') {
			char *end;
			uint64_t id = strtoull(p, &end, 10);
			if (end == p) {
				p++;
				continue;
			}
			ck_assert_uint_lt(n, sizeof ids / sizeof ids[0]);
			ids[n++] = id;
			p = end;
		}
		for (size_t i = 0; i < n; i++) {
			leading = leading && idset_has(&seen, ids[i]);
			*hits += leading;
		}
		*blocks += n;
		for (size_t i = 0; i < n; i++)
			idset_add(&seen, ids[i]);
	}
	fclose(f);
	free(seen.at);
}

/* Done when of issue 19: with one instance and an unbounded cache, prefix_hit_rate is the trace's own reuse
 * ratio, whatever the concurrency (blocks count as cached from their request's admission). On the Mooncake
 * synthetic trace this walk gives 77953 of 121877 blocks (gpucap trace stats agrees: 0.6396). */
START_TEST(hit_rate_is_trace_reuse)
{
	char path[1024];
	uint64_t hits, blocks;

	snprintf(path, sizeof path, "%s/good/traces/prefix_small.jsonl", TEST_DATA_DIR);
	reuse_of(path, &hits, &blocks);
	ck_assert_uint_eq(hits, 7);
	ck_assert_uint_eq(blocks, 16);
	snprintf(path, sizeof path, "%s/traces/mooncake_synthetic_trace.jsonl", SCENARIO_DIR);
	reuse_of(path, &hits, &blocks);
	ck_assert_uint_eq(hits, 77953);
	ck_assert_uint_eq(blocks, 121877);
	capture_run(&cap, "name: reuse\nhorizon: 20m\nslo: {latency_s: 60}\nworkload:\n  arrivals: {kind: trace, "
		    "path: " SCENARIO_DIR "/traces/mooncake_synthetic_trace.jsonl, format: mooncake}\n"
		    "  service: {kind: tokens, prefill_tokens_per_s: 8000, decode_tokens_per_s: 40}\n"
		    "serving: {instance_type: p5.48xlarge, slots_per_instance: 64, prefix_cache_blocks: unbounded}\n"
		    "fleet:\n  - {option: on_demand, count: 1}\n", NULL, 0);
	ck_assert_double_eq(M("requests_served"), 3993);
	ck_assert_double_eq(M("prefix_hit_rate"), (double)hits / (double)blocks);
}
END_TEST

/*
 * Done when of issue 19: the Mooncake example (scenarios/mooncake-synthetic.yaml) with 16 slots per
 * instance and at least 4 instances, a cache of 4000 blocks per instance: cache-aware routing finds more of
 * each prompt cached than first-free (which fills instance 0 first and scatters a conversation's turns) and
 * so prefills less: a higher prefix_hit_rate and a lower mean TTFT, at the same cost (models/README.md "Prefix
 * caching" quotes both runs; e2e_readme_figures checks them).
 */
START_TEST(cache_aware_beats_first_free)
{
	const char *const common[] = { "serving.slots_per_instance=16", "autoscaling.min=4",
				       "serving.prefix_cache_blocks=4000", "serving.routing=first_free" };
	const char *const aware[] = { "serving.slots_per_instance=16", "autoscaling.min=4",
				      "serving.prefix_cache_blocks=4000", "serving.routing=cache_aware" };
	char path[1024], *yaml;
	double ff_hit, ff_ttft, ff_cost;
	FILE *f;
	long len;

	snprintf(path, sizeof path, "%s/mooncake-synthetic.yaml", SCENARIO_DIR);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	yaml = calloc((size_t)len + 512, 1);
	ck_assert_ptr_nonnull(yaml);
	ck_assert_int_eq(fread(yaml, 1, (size_t)len, f), len);
	fclose(f);
	{  /* the trace path is relative to the scenario: make it absolute */
		char *at = strstr(yaml, "path: traces/");
		ck_assert_ptr_nonnull(at);
		memmove(at + 6 + strlen(SCENARIO_DIR) + 1, at + 6, strlen(at + 6) + 1);
		memcpy(at + 6, SCENARIO_DIR "/", strlen(SCENARIO_DIR) + 1);
	}
	capture_run(&cap, yaml, common, 4);
	ck_assert_double_eq(M("instances_peak"), 4);
	ff_hit = M("prefix_hit_rate");
	ff_ttft = M("ttft_mean_s");
	ff_cost = M("cost_total_usd");
	capture_run(&cap, yaml, aware, 4);
	ck_assert_double_gt(M("prefix_hit_rate"), ff_hit + 0.05);
	ck_assert_double_lt(M("ttft_mean_s"), ff_ttft);
	ck_assert_double_eq_tol(M("cost_total_usd"), ff_cost, 1e-9);
	free(yaml);
}
END_TEST

/* The synthetic reuse model (workload.prefix_reuse; workload.h): a trace without hash ids, one instance,
 * blocks of 100 tokens, prefill 1000 tokens/s, decode 10 tokens/s. */
#define REUSE(reuse, cache)                                                                              \
	"name: reuse\nhorizon: 1h\nslo: {latency_s: 1000}\n"                                             \
	"workload:\n  arrivals:\n    kind: trace\n    path: " TEST_DATA_DIR "/good/traces/reuse_four.jsonl\n"  \
	"    format: jsonl\n    columns: {time: timestamp, time_format: milliseconds, input_tokens: "         \
	"input_length, output_tokens: output_length}\n"                                                     \
	"  prefix_reuse: " reuse "\n"                                                                     \
	"  service: {kind: tokens, prefill_tokens_per_s: 1000, decode_tokens_per_s: 10}\n"                \
	"serving:\n  instance_type: g6e.xlarge\n  slots_per_instance: 3\n  prefix_cache_blocks: " cache "\n" \
	"fleet:\n  - {option: on_demand, count: 1, usd_per_h: 2}\n"

/*
 * share 1, one conversation: every request after the first continues conversation 0, whose block j has the
 * same id in every turn, so a turn hits the leading min(its blocks, blocks cached) (ids by block index):
 *   R1 t=0   in 300: 3 blocks, new conversation, 0 hits        prefill 0.300 s
 *   R2 t=10  in 200: 2 blocks, cached 0-2: 2 hits, saved min(200, 199) = 199, prefill 1 token: 0.001 s
 *   R3 t=20  in 450: 5 blocks, cached 0-2: 3 hits, saved 300, prefill 150 tokens: 0.150 s
 *   R4 t=30  in 100: 1 block,  cached 0-4: 1 hit,  saved min(100, 99) = 99: 0.001 s
 * Hit rate (0 + 2 + 3 + 1) / (3 + 2 + 5 + 1) = 6/11; saved 598; TTFT mean (0.3 + 0.001 + 0.15 + 0.001)/4 =
 * 0.113 s. share 0: four conversations, no block shared: no hit, TTFT mean (0.3 + 0.2 + 0.45 + 0.1)/4.
 */
START_TEST(synthetic_reuse_by_hand)
{
	capture_run(&cap, REUSE("{share: 1, conversations: 1, block_tokens: 100}", "unbounded"), NULL, 0);
	ck_assert_double_eq(M("requests_served"), 4);
	ck_assert_double_eq(M("prefix_hit_rate"), 6.0 / 11);
	ck_assert_double_eq(M("prefill_tokens_saved"), 598);
	ck_assert_double_eq_tol(M("ttft_mean_s"), (0.3 + 0.001 + 0.15 + 0.001) / 4, 1e-6);
	/* the same with a bounded cache just large enough (5 blocks) */
	capture_run(&cap, REUSE("{share: 1, conversations: 1, block_tokens: 100}", "5"), NULL, 0);
	ck_assert_double_eq(M("prefix_hit_rate"), 6.0 / 11);
	/* a cache of 2 blocks: R2 hits 2 (blocks 0, 1 of R1; R1's tail went first), R3 hits 2, R4 hits 1 */
	capture_run(&cap, REUSE("{share: 1, conversations: 1, block_tokens: 100}", "2"), NULL, 0);
	ck_assert_double_eq(M("prefix_hit_rate"), 5.0 / 11);
	capture_run(&cap, REUSE("{share: 0, conversations: 1, block_tokens: 100}", "unbounded"), NULL, 0);
	ck_assert_double_eq(M("prefix_hit_rate"), 0);
	ck_assert_double_eq(M("prefill_tokens_saved"), 0);
	ck_assert_double_eq_tol(M("ttft_mean_s"), (0.3 + 0.2 + 0.45 + 0.1) / 4, 1e-6);
	/* blocks of 1000 tokens: R1..R4 are one block each, so each later turn hits its one block */
	capture_run(&cap, REUSE("{share: 1, conversations: 1, block_tokens: 1000}", "unbounded"), NULL, 0);
	ck_assert_double_eq(M("prefix_hit_rate"), 3.0 / 4);
}
END_TEST

/* Poisson arrivals at 1/s for 1 h, every prompt 1000 tokens (10 blocks of 100), one instance of 8 slots. */
#define REUSE_GEN(reuse, cache)                                                                          \
	"name: reuse\nhorizon: 1h\nslo: {latency_s: 1000}\nworkload:\n"                                  \
	"  arrivals: {kind: poisson, rate_per_s: 1}\n"                                                    \
	"  sizes: {input_tokens: {kind: constant, mean: 1000}, output_tokens: {kind: constant, mean: 10}}\n" \
	"  prefix_reuse: " reuse "\n"                                                                     \
	"  service: {kind: tokens, prefill_tokens_per_s: 1000, decode_tokens_per_s: 100}\n"               \
	"serving: {instance_type: g6e.xlarge, slots_per_instance: 8, prefix_cache_blocks: " cache "}\n"   \
	"fleet:\n  - {option: on_demand, count: 1, usd_per_h: 2}\n"

/*
 * With one conversation to continue (conversations 1) every continuing request finds its conversation's
 * 10 blocks cached (they were the last touched), and a new conversation finds none: the hit rate is the
 * share of requests that continue, binomial with p = share = 0.3 over N ~ 3600 requests (the first always
 * starts): sd = sqrt(0.3 x 0.7 / 3600) = 0.0076, tolerance 4 sd = 0.03. Each hit saves 999 tokens (one
 * prompt token is always prefilled), so tokens saved = hit rate x N x 10 blocks / 10 x 999 exactly. The
 * reuse draws come from their own stream: the arrivals are the same as with share 0. With 1000
 * conversations to continue and a cache of 50 blocks (5 prompts), most continued conversations have left
 * the cache: the hit rate falls far below the share.
 */
START_TEST(synthetic_reuse_share)
{
	double n, hit;

	capture_run(&cap, REUSE_GEN("{share: 0, conversations: 1, block_tokens: 100}", "unbounded"), NULL, 0);
	n = M("requests_served");
	ck_assert_double_gt(n, 3400);
	ck_assert_double_eq(M("prefix_hit_rate"), 0);
	capture_run(&cap, REUSE_GEN("{share: 0.3, conversations: 1, block_tokens: 100}", "50"), NULL, 0);
	ck_assert_double_eq(M("requests_served"), n);
	hit = M("prefix_hit_rate");
	ck_assert_double_eq_tol(hit, 0.3, 0.03);
	ck_assert_double_eq_tol(M("prefill_tokens_saved"), hit * n * 999, 1e-6);
	capture_run(&cap, REUSE_GEN("{share: 0.3, conversations: 1000, block_tokens: 100}", "50"), NULL, 0);
	ck_assert_double_lt(M("prefix_hit_rate"), hit / 2);
	ck_assert_double_gt(M("prefix_hit_rate"), 0);
}
END_TEST

static Suite *prefix_suite(void)
{
	Suite *s = suite_create("prefix");
	TCase *tc = tcase_create("runs");

	tcase_set_timeout(tc, 60);
	test_add(tc, shared_blocks_shorten_prefill);
	test_add(tc, hit_rate_by_hand);
	test_add(tc, cache_aware_routes_by_hand);
	test_add(tc, cache_aware_ties_to_the_lowest_index);
	test_add(tc, prefix_aware_threshold_by_hand);
	test_add(tc, hit_rate_is_trace_reuse);
	test_add(tc, cache_aware_beats_first_free);
	test_add(tc, synthetic_reuse_by_hand);
	test_add(tc, synthetic_reuse_share);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(prefix_suite());
}
