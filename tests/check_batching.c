/*
 * check_batching: whole runs of the serving model's batching, KV-cache and TPOT rules (serving_batch.c,
 * serving.c, meter_tokens.c; models/README.md "Serving model"). Every timeline is worked out by hand below from the
 * rules: with batching continuous every decoding request on an instance advances at decode_speed(b), b the
 * number decoding now; with prefill chunked an iteration takes 1/decode_speed(b) + chunk/prefill_speed; with
 * a KV cache a request starts only when its prompt + output fit beside what the instance holds.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "scenario.h"
#include "scenario_fixtures.h"
#include "serving.h"
#include "testutil.h"

static struct capture cap;

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/* One g6e.xlarge on demand all hour, requests from a trace of (t s, in tokens, out tokens); the service
 * block and extra serving keys are the test's. */
#define RUN(trace, service, serving)                                                                     \
	"name: batching\nhorizon: 1h\nslo: {latency_s: 1000}\n"                                          \
	"workload:\n  arrivals:\n    kind: trace\n    path: " TEST_DATA_DIR "/good/traces/" trace "\n"      \
	"    format: generic\n    columns: {time: t, time_format: seconds, input_tokens: in, "            \
	"output_tokens: out}\n"                                                                          \
	"  service: {kind: tokens, prefill_tokens_per_s: 1000" service "}\n"                              \
	"serving:\n  queue: central\n  routing: first_free\n  instance_type: g6e.xlarge\n  slots_per_instance: 3\n" serving                      \
	"fleet:\n  - {option: on_demand, count: 1, usd_per_h: 2}\n"

#define TABLE ", decode_table: [{concurrency: 1, tokens_per_s: 10}, {concurrency: 2, tokens_per_s: 8}, " \
	"{concurrency: 3, tokens_per_s: 5}]"

/*
 * Three requests join and leave one instance; decode table b=1: 10, b=2: 8, b=3: 5 tokens/s per request;
 * prefill 1000 tokens/s, so each 100-token prompt takes 0.1 s on its own. The prefill produces a request's
 * first output token; it decodes the other out - 1 in the batch. Decode clock V (tokens per request):
 *   t=0    R1 (in 100, out 100) arrives, prefills 0-0.1
 *   t=0.1  R1 decodes: joins at V=0, finishes at V=99; b=1, 10 tok/s
 *   t=1.9  R2 (out 40) arrives, prefills 1.9-2.0
 *   t=2.0  V = 10 x 1.9 = 19; R2 joins, finishes at V = 19 + 39 = 58; b=2, 8 tok/s
 *   t=3.9  R3 (out 20) arrives, prefills 3.9-4.0
 *   t=4.0  V = 19 + 8 x 2 = 35; R3 joins, finishes at V = 35 + 19 = 54; b=3, 5 tok/s
 *   t=7.8  V = 35 + 5 x 3.8 = 54: R3 leaves (latency 7.8 - 3.9 = 3.9); b=2
 *   t=8.3  V = 54 + 8 x 0.5 = 58: R2 leaves (latency 8.3 - 1.9 = 6.4); b=1
 *   t=12.4 V = 58 + 10 x 4.1 = 99: R1 leaves (latency 12.4)
 * Latency mean (12.4 + 6.4 + 3.9) / 3 = 7.566667 s, max 12.4 s. TTFT 0.1 s each. TPOT = (completion - first
 * token) / (out - 1): R1 12.3 / 99 = 0.1242424, R2 6.3 / 39 = 0.1615385, R3 3.8 / 19 = 0.2; mean 0.1619270.
 * The fixed model (speed fixed at start) gives R1 0.1 + 99/10 = 10.0, R2 0.1 + 39/8 = 4.975, R3 0.1 + 19/5 =
 * 3.9: mean 6.291667.
 */
START_TEST(three_requests_join_and_leave)
{
	capture_run(&cap, RUN("batch_three.csv", TABLE ", batching: continuous", ""), NULL, 0);
	ck_assert_double_eq(M("requests_served"), 3);
	ck_assert_double_eq_tol(M("latency_mean_s"), 22.7 / 3, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 12.4, 1e-6);
	ck_assert_double_eq_tol(M("ttft_mean_s"), 0.1, 1e-6);
	ck_assert_double_eq_tol(M("tpot_mean_s"), (12.3 / 99 + 6.3 / 39 + 3.8 / 19) / 3, 1e-6);
	ck_assert_double_eq(M("wait_mean_s"), 0);
}
END_TEST

/* The same trace with batching fixed: the fixed model (above), and the TPOT of its fixed service times:
 * R1 (10.0 - 0.1) / 99, R2 (4.975 - 0.1) / 39, R3 (3.9 - 0.1) / 19 (tpot reported because slo.tpot_s is set). */
START_TEST(fixed_batching_is_todays_model)
{
	const char *const set[] = { "slo.tpot_s=1" };

	capture_run(&cap, RUN("batch_three.csv", TABLE, ""), set, 1);
	ck_assert_double_eq_tol(M("latency_mean_s"), (10.0 + 4.975 + 3.9) / 3, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 10.0, 1e-6);
	ck_assert_double_eq_tol(M("tpot_mean_s"), (9.9 / 99 + 4.875 / 39 + 3.8 / 19) / 3, 1e-6);
	ck_assert_double_eq(M("tpot_slo_violations"), 0);
}
END_TEST

/*
 * Chunked prefill slows the decoding requests. Decode 10 tokens/s at any b, prefill 1000 tokens/s, chunks
 * of 100 tokens. Prefill clock U, decode clock V:
 *   t=0   R1 (in 100, out 50) prefills alone: iteration 100/1000 = 0.1 s, 100 tokens each: done at 0.1
 *   t=0.1 R1's first token; it decodes the other 49 at 10 tok/s, finishing at V = 49
 *   t=1   V = 9. R2 (in 1000, out 10) prefills beside R1: iteration 1/10 + 100/1000 = 0.2 s, so R1 decodes
 *         at 1/0.2 = 5 tok/s and R2 prefills at 100/0.2 = 500 tok/s: done after 1000/500 = 2 s
 *   t=3   V = 9 + 5 x 2 = 19; R2's first token (TTFT 2.0); it decodes 9 more, to V = 28; b=2, 10 tok/s
 *   t=3.9 R2 leaves (latency 2.9); t = 3.9 + (49 - 28)/10 = 6.0: R1 leaves (latency 6.0)
 * Mean latency 4.45 s, max 6.0 s, mean TTFT (0.1 + 2.0)/2 = 1.05 s. With prefill whole: R1 0.1 + 4.9 = 5.0,
 * R2 prefills 1.0-2.0 and ends at 2.9 (latency 1.9): mean 3.45, max 5.0, TTFT mean 0.55.
 */
START_TEST(chunked_prefill_slows_decoding)
{
	capture_run(&cap, RUN("batch_chunked.csv", ", decode_tokens_per_s: 10, batching: continuous, "
			      "prefill: chunked, chunk_tokens: 100", ""), NULL, 0);
	ck_assert_double_eq_tol(M("latency_mean_s"), 4.45, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 6.0, 1e-6);
	ck_assert_double_eq_tol(M("ttft_mean_s"), 1.05, 1e-6);
	capture_run(&cap, RUN("batch_chunked.csv", ", decode_tokens_per_s: 10, batching: continuous", ""), NULL, 0);
	ck_assert_double_eq_tol(M("latency_mean_s"), 3.45, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 5.0, 1e-6);
	ck_assert_double_eq_tol(M("ttft_mean_s"), 0.55, 1e-6);
}
END_TEST

/*
 * KV cache of 1000 tokens, 3 slots, batching fixed, decode 10 tok/s, prefill 1000 tok/s:
 *   R1 t=0  in 300 out 100 (400 tokens): starts, runs 0.3 + 99/10 = 10.2 s (the first output token from
 *           the prefill), ends 10.2
 *   R2 t=1  in 300 out 100 (400): 800 reserved, ends 11.2
 *   R3 t=2  in 200 out 100 (300): 800 + 300 > 1000 -- waits although a slot is free; starts at 10.2
 *           when R1 frees 400 (700 reserved), runs 0.2 + 9.9 = 10.1, ends 20.3: latency 18.3, wait 8.2
 *   R4 t=30 in 900 out 200 (1100 > 1000): refused, larger than any cache
 * Latency mean (10.2 + 10.2 + 18.3)/3 = 12.9; wait mean 8.2/3 (served). The cache limited admission
 * from 2 to 10.2: 8.2 s of 3600. Utilisation: 400 x 10.2 + 400 x 10.2 + 300 x 10.1 = 11190 token-s of
 * 1000 x 3600.
 */
START_TEST(third_request_waits_for_memory)
{
	capture_run(&cap, RUN("kv_timeline.csv", ", decode_tokens_per_s: 10", "  kv_cache_tokens: 1000\n"),
		    NULL, 0);
	ck_assert_double_eq(M("requests_served"), 3);
	ck_assert_double_eq(M("requests_refused"), 1);
	ck_assert_double_eq(M("requests_kv_too_large"), 1);
	ck_assert_double_eq_tol(M("latency_mean_s"), 38.7 / 3, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 18.3, 1e-6);
	ck_assert_double_eq_tol(M("wait_mean_s"), 8.2 / 3, 1e-6);
	ck_assert_double_eq_tol(M("kv_cache_limited_share"), 8.2 / 3600, 1e-9);
	ck_assert_double_eq_tol(M("kv_cache_utilization"), 11190.0 / 3600000, 1e-9);
}
END_TEST

/*
 * The chunked prefill's shared budget, exactly full and one token over. Decode 10 tokens/s at any b, prefill
 * 1000 tokens/s, chunks of 100 tokens; R0 (in 100, out 41) decodes while two prompts share the budget:
 *   t=0    R0 prefills alone: iteration 100/1000 = 0.1 s, its 100 tokens in one: first token at 0.1; it decodes
 *          its other 40, to V = 40, at 10 tokens/s
 *   t=1    V = 9. R1 and R2 (out 1: done at their first token) prefill beside R0: an iteration takes
 *          1/10 + 100/1000 = 0.2 s; R0 gains 1 token per iteration (5 tokens/s), and the budget of 100 is
 *          shared, 50 each per iteration (250 tokens/s each).
 *   Exactly full (chunk_exact.csv: R1 and R2 in 50 each): both prompts end with the first iteration, at 1.2
 *          (TTFT and latency 0.2 each); V = 9 + 5 x 0.2 = 10; R0 alone again decodes 30 more in 3 s: done at
 *          4.2. Latency mean (4.2 + 0.2 + 0.2)/3, max 4.2; TTFT mean (0.1 + 0.2 + 0.2)/3.
 *   One token over (chunk_over.csv: R1 in 51, R2 in 50): at 1.2 R2 is done and R1 has 1 token left, now with
 *          the whole budget: 100/0.2 = 500 tokens/s, 0.002 s: R1 done at 1.202 (0.202). R0 gained
 *          5 x 0.002 = 0.01 more: V = 10.01, then 29.99 at 10 tokens/s = 2.999 s: done at 4.201.
 *          Latency mean (4.201 + 0.202 + 0.2)/3, max 4.201; TTFT mean (0.1 + 0.202 + 0.2)/3.
 */
START_TEST(chunked_budget_exactly_full_and_one_over)
{
#define CHUNKED ", decode_tokens_per_s: 10, batching: continuous, prefill: chunked, chunk_tokens: 100"
	capture_run(&cap, RUN("chunk_exact.csv", CHUNKED, ""), NULL, 0);
	ck_assert_double_eq(M("requests_served"), 3);
	ck_assert_double_eq_tol(M("latency_mean_s"), (4.2 + 0.2 + 0.2) / 3, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 4.2, 1e-6);
	ck_assert_double_eq_tol(M("ttft_mean_s"), (0.1 + 0.2 + 0.2) / 3, 1e-6);
	capture_run(&cap, RUN("chunk_over.csv", CHUNKED, ""), NULL, 0);
	ck_assert_double_eq(M("requests_served"), 3);
	ck_assert_double_eq_tol(M("latency_mean_s"), (4.201 + 0.202 + 0.2) / 3, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 4.201, 1e-6);
	ck_assert_double_eq_tol(M("ttft_mean_s"), (0.1 + 0.202 + 0.2) / 3, 1e-6);
#undef CHUNKED
}
END_TEST

/*
 * A KV cache filled exactly, and one token over. 1000 tokens, 3 slots, batching fixed, decode 10 tokens/s,
 * prefill 1000 tokens/s; a request reserves in + out tokens:
 *   kv_exact.csv: R1 t=0 in 299 out 101 (400): 0.299 + 100/10 = 10.299 s, ends 10.299.
 *                 R2 t=1 in 499 out 101 (600): 400 + 600 = 1000, exactly the cache: starts at once, 0.499 + 10
 *                 = 10.499 s. R3 t=30 in 899 out 101 (1000): exactly the largest cache: admitted (not
 *                 refused), alone: 0.899 + 10 = 10.899 s.
 *                 Served 3, none waits, latency mean (10.299 + 10.499 + 10.899)/3, limited share 0.
 *   kv_over.csv:  R2 in 500 (601): 1001 > 1000: waits, though a slot is free, until R1 frees its 400 at
 *                 10.299; 0.5 + 10 = 10.5 s: ends 20.799, latency 19.799, wait 9.299. R3 in 900 (1001 > 1000):
 *                 refused on arrival, too large for any cache. Served 2, latency mean (10.299 + 19.799)/2,
 *                 wait mean 9.299/2; the cache limited admission from 1 to 10.299: 9.299 s of 3600.
 * The same with per-instance queues (first_free sends R2 to instance 0, where it waits for room).
 */
START_TEST(kv_cache_filled_exactly_and_one_over)
{
	const char *const per_instance[] = { "serving.queue=per_instance" };

	for (int i = 0; i < 2; i++) {
		capture_run(&cap, RUN("kv_exact.csv", ", decode_tokens_per_s: 10", "  kv_cache_tokens: 1000\n"),
			    per_instance, i);
		ck_assert_double_eq(M("requests_served"), 3);
		ck_assert_double_eq(M("requests_refused"), 0);
		ck_assert_double_eq(M("requests_kv_too_large"), 0);
		ck_assert_double_eq_tol(M("latency_mean_s"), (10.299 + 10.499 + 10.899) / 3, 1e-6);
		ck_assert_double_eq_tol(M("wait_mean_s"), 0, 1e-9);
		ck_assert_double_eq_tol(M("kv_cache_limited_share"), 0, 1e-12);
		capture_run(&cap, RUN("kv_over.csv", ", decode_tokens_per_s: 10", "  kv_cache_tokens: 1000\n"),
			    per_instance, i);
		ck_assert_double_eq(M("requests_served"), 2);
		ck_assert_double_eq(M("requests_refused"), 1);
		ck_assert_double_eq(M("requests_kv_too_large"), 1);
		ck_assert_double_eq_tol(M("latency_mean_s"), (10.299 + 19.799) / 2, 1e-6);
		ck_assert_double_eq_tol(M("wait_mean_s"), 9.299 / 2, 1e-6);
		ck_assert_double_eq_tol(M("kv_cache_limited_share"), 9.299 / 3600, 1e-9);
	}
}
END_TEST

/*
 * TPOT and its SLO, batching fixed: R1 in 100 out 11: TTFT 0.1 (its first output token), the other 10
 * decoded at 10 tokens/s, done at 0.1 + 10/10 = 1.1, TPOT (1.1 - 0.1)/10 = 0.1 s > 0.09: a violation. R2 out
 * 1: done at its first token, no TPOT (needs 2 output tokens), no violation.
 */
START_TEST(tpot_by_hand)
{
	const char *const set[] = { "slo.tpot_s=0.09" };

	capture_run(&cap, RUN("tpot_two.csv", ", decode_tokens_per_s: 10", ""), set, 1);
	ck_assert_double_eq_tol(M("tpot_mean_s"), 0.1, 1e-6);
	ck_assert_double_eq_tol(M("tpot_p50_s"), 0.1, 0.1 * 0.01);
	ck_assert_double_eq(M("tpot_slo_violations"), 1);
	ck_assert_double_eq_tol(M("tpot_slo_violation_rate"), 0.5, 1e-12);
}
END_TEST

/*
 * One request, 100 prompt tokens at 1000 tokens/s and 2 output tokens at 20 tokens/s, both batchings: the
 * prefill takes 0.1 s and produces the first output token (TTFT 0.1 s); the second is decoded in 1/20 = 0.05 s:
 * latency 0.150 s, TPOT (0.150 - 0.100) / (2 - 1) = 0.050 s (vLLM's definitions, SOURCES.md [sv-tpot]).
 */
START_TEST(one_request_first_token_from_the_prefill)
{
	const char *const set[] = { "slo.tpot_s=1" };

	for (int i = 0; i < 2; i++) {
		if (i == 0)
			capture_run(&cap, RUN("one_request.csv", ", decode_tokens_per_s: 20", ""), set, 1);
		else
			capture_run(&cap, RUN("one_request.csv", ", decode_tokens_per_s: 20, batching: continuous", ""),
				    set, 1);
		ck_assert_double_eq(M("requests_served"), 1);
		ck_assert_double_eq_tol(M("ttft_mean_s"), 0.100, 1e-6);
		ck_assert_double_eq_tol(M("latency_mean_s"), 0.150, 1e-6);
		ck_assert_double_eq_tol(M("tpot_mean_s"), 0.050, 1e-6);
	}
}
END_TEST

/*
 * The TPOT percentile SLOs on the same run: one TPOT, 0.1 s (R2 has none), nothing dropped, so its p50 is
 * 0.1 (within the histogram's 1%): slo.tpot_p50_s 0.09 is missed (slo_met 0), 0.2 is met (slo_met 1).
 */
START_TEST(tpot_percentile_slo)
{
	const char *const missed[] = { "slo.tpot_p50_s=0.09" }, *const met[] = { "slo.tpot_p50_s=0.2" };

	capture_run(&cap, RUN("tpot_two.csv", ", decode_tokens_per_s: 10", ""), missed, 1);
	ck_assert_double_eq(M("slo_met"), 0);
	capture_run(&cap, RUN("tpot_two.csv", ", decode_tokens_per_s: 10", ""), met, 1);
	ck_assert_double_eq(M("slo_met"), 1);
	ck_assert_double_eq_tol(M("tpot_p50_s"), 0.1, 0.1 * 0.01);
}
END_TEST

/* Without the new keys the run reports none of the new metrics (its results stay as they were). */
START_TEST(no_new_metrics_by_default)
{
	capture_run(&cap, RUN("tpot_two.csv", ", decode_tokens_per_s: 10", ""), NULL, 0);
	for (int i = 0; i < cap.nmetrics; i++)
		ck_assert_msg(strncmp(cap.metrics[i].name, "tpot_", 5) && strncmp(cap.metrics[i].name, "kv_", 3),
			      "%s reported", cap.metrics[i].name);
}
END_TEST

/* The cache derived from memory: g6e.xlarge has 1 GPU; floor((1 x 48 x 0.9 - 16) x 1e9 / 131072) =
 * floor(27.2e9 / 131072) = floor(207519.53) = 207519 tokens. */
START_TEST(kv_tokens_derived_from_memory)
{
	struct scenario sc;

	parse_ok(&sc, RUN("tpot_two.csv", ", decode_tokens_per_s: 10",
			  "  kv_cache: {gpu_memory_gb: 48, model_gb: 16, bytes_per_token: 131072}\n"), NULL, 0);
	ck_assert_int_eq(serving_kv_tokens(&sc, 0), 207519);
	ck_assert_double_eq_tol(sc.serving.kv_utilization, 0.9, 1e-12);
	scenario_fini(&sc);
}
END_TEST

/* A type's own kv_cache_tokens wins over the serving's: g6e.xlarge (the serving type) 1000, p4d.24xlarge
 * 5000. */
START_TEST(kv_tokens_per_type)
{
	struct scenario sc;

	parse_ok(&sc, RUN("tpot_two.csv", ", decode_tokens_per_s: 10", "  kv_cache_tokens: 1000\n"
			  "  types: {p4d.24xlarge: {kv_cache_tokens: 5000}}\n"), NULL, 0);
	ck_assert_int_eq(serving_kv_tokens(&sc, 0), 1000);
	ck_assert_int_eq(serving_kv_tokens(&sc, 1), 5000);
	scenario_fini(&sc);
}
END_TEST

/*
 * An instance taken away mid-batch (the capacity-block timeline of check_blocks.c's
 * block_idle_instances_released_at_the_warning, with tokens: in 1000 at 1000 tokens/s (1 s, giving the first
 * of 1500 output tokens), the other 1499 at 1 token/s, so 1500 s alone, as there): request 125 (started
 * 125000, due 126500) is still on
 * the block at 126000 and goes back to the queue; the instance's batch is reset and the request starts
 * again from scratch elsewhere. Checked: exactly one interruption, and every request accounted for (the run
 * ends with none in service: the 2-day horizon leaves time). Not a hand-worked latency: the reclaim path's
 * bookkeeping (slots, batch, KV) under continuous batching with a KV cache.
 */
START_TEST(instance_taken_away_mid_batch)
{
	capture_run(&cap, "name: cap\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: 2d\nslo: {latency_s: 5000}\n"
		    "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n"
		    "  sizes: {input_tokens: {kind: constant, mean: 1000}, output_tokens: {kind: constant, mean: 1500}}\n"
		    "  service: {kind: tokens, prefill_tokens_per_s: 1000, decode_tokens_per_s: 1, batching: continuous}\n"
		    "serving: {queue: central, routing: first_free, instance_type: p5.48xlarge, slots_per_instance: 1, startup_s: 650, kv_cache_tokens: 3000}\n"
		    "fleet:\n  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 3,"
		    " usd_per_h: 30}\n  - {option: on_demand, count: 2, max: 2}\n", NULL, 0);
	ck_assert_double_eq(M("requests_interrupted"), 1);
	ck_assert_double_eq(M("requests_served") + M("requests_dropped"), M("requests_total"));
	ck_assert_double_eq(M("requests_kv_too_large"), 0);
	/* one slot each, so every request decodes alone: 1499 tokens at 1 token/s after its first token,
	 * TPOT = 1499 / (1500 - 1) = 1 s */
	ck_assert_double_eq_tol(M("tpot_mean_s"), 1.0, 1e-6);
}
END_TEST

/*
 * Four requests leave a batch in the order of their thresholds, whatever their places in the heap
 * (serving_batch.c heap_pop: the smaller child moves up). One instance of 4 slots, decode 10 tokens/s per
 * request at any b, prefill 1000 tokens/s (each 100-token prompt 0.1 s on its own). batch_four.csv: R1..R4
 * at 0, 0.01, 0.02, 0.03 s, out 11, 21, 31, 41. Decode clock V = 10 (t - 0.1) from R1's first token:
 *   R1 joins at 0.10 (V 0.0), finishes at V = 0.0 + 10 = 10.0     heap [R1 10.0]
 *   R2 joins at 0.11 (V 0.1), finishes at V = 0.1 + 20 = 20.1     heap [R1, R2 20.1]
 *   R3 joins at 0.12 (V 0.2), finishes at V = 0.2 + 30 = 30.2     heap [R1, R2, R3 30.2]
 *   R4 joins at 0.13 (V 0.3), finishes at V = 0.3 + 40 = 40.3     heap [R1, R2, R3, R4 40.3]
 *   t=1.10 R1 leaves (latency 1.10): R4 goes down from the top, the smaller child R2 comes up: [R2, R4, R3]
 *   t=2.11 R2 leaves (2.10); t=3.12 R3 (3.10); t=4.13 R4 (4.10).
 * Latency mean (1.1 + 2.1 + 3.1 + 4.1) / 4 = 2.6 s, max 4.1 s. (Taking the right child R3 up instead leaves
 * R2 under it: R2 leaves with R3 at 3.12, latency 3.11, mean 2.8525.)
 */
START_TEST(four_requests_leave_in_threshold_order)
{
	const char *const set[] = { "serving.slots_per_instance=4" };

	capture_run(&cap, RUN("batch_four.csv", ", decode_tokens_per_s: 10, batching: continuous", ""), set, 1);
	ck_assert_double_eq(M("requests_served"), 4);
	ck_assert_double_eq_tol(M("latency_mean_s"), 10.4 / 4, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 4.1, 1e-6);
	ck_assert_double_eq_tol(M("ttft_mean_s"), 0.1, 1e-6);
	ck_assert_double_eq(M("wait_mean_s"), 0);
}
END_TEST

static Suite *batching_suite(void)
{
	Suite *s = suite_create("batching");
	TCase *tc = tcase_create("runs");

	test_add(tc, one_request_first_token_from_the_prefill);
	test_add(tc, three_requests_join_and_leave);
	test_add(tc, four_requests_leave_in_threshold_order);
	test_add(tc, fixed_batching_is_todays_model);
	test_add(tc, chunked_prefill_slows_decoding);
	test_add(tc, third_request_waits_for_memory);
	test_add(tc, chunked_budget_exactly_full_and_one_over);
	test_add(tc, kv_cache_filled_exactly_and_one_over);
	test_add(tc, tpot_by_hand);
	test_add(tc, tpot_percentile_slo);
	test_add(tc, no_new_metrics_by_default);
	test_add(tc, kv_tokens_derived_from_memory);
	test_add(tc, kv_tokens_per_type);
	test_add(tc, instance_taken_away_mid_batch);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(batching_suite());
}
