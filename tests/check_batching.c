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
	"serving:\n  instance_type: g6e.xlarge\n  slots_per_instance: 3\n" serving                      \
	"fleet:\n  - {option: on_demand, count: 1, usd_per_h: 2}\n"

#define TABLE ", decode_table: [{concurrency: 1, tokens_per_s: 10}, {concurrency: 2, tokens_per_s: 8}, " \
	"{concurrency: 3, tokens_per_s: 5}]"

/*
 * Three requests join and leave one instance; decode table b=1: 10, b=2: 8, b=3: 5 tokens/s per request;
 * prefill 1000 tokens/s, so each 100-token prompt takes 0.1 s on its own. Decode clock V (tokens per
 * request):
 *   t=0    R1 (in 100, out 100) arrives, prefills 0-0.1
 *   t=0.1  R1 decodes: joins at V=0, finishes at V=100; b=1, 10 tok/s
 *   t=1.9  R2 (out 40) arrives, prefills 1.9-2.0
 *   t=2.0  V = 10 x 1.9 = 19; R2 joins, finishes at V = 59; b=2, 8 tok/s
 *   t=3.9  R3 (out 20) arrives, prefills 3.9-4.0
 *   t=4.0  V = 19 + 8 x 2 = 35; R3 joins, finishes at V = 55; b=3, 5 tok/s
 *   t=8.0  V = 35 + 5 x 4 = 55: R3 leaves (latency 8.0 - 3.9 = 4.1); b=2
 *   t=8.5  V = 55 + 8 x 0.5 = 59: R2 leaves (latency 8.5 - 1.9 = 6.6); b=1
 *   t=12.6 V = 59 + 10 x 4.1 = 100: R1 leaves (latency 12.6)
 * Latency mean (12.6 + 6.6 + 4.1) / 3 = 7.766667 s, max 12.6 s. TTFT 0.1 s each. TPOT = (completion - first
 * token) / (out - 1): R1 12.5 / 99 = 0.1262626, R2 6.5 / 39 = 0.1666667, R3 4 / 19 = 0.2105263; mean 0.1678185.
 * The fixed model (speed fixed at start) gives R1 10.1, R2 0.1 + 40/8 = 5.1, R3 0.1 + 20/5 = 4.1: mean 6.433333.
 */
START_TEST(three_requests_join_and_leave)
{
	capture_run(&cap, RUN("batch_three.csv", TABLE ", batching: continuous", ""), NULL, 0);
	ck_assert_double_eq(M("requests_served"), 3);
	ck_assert_double_eq_tol(M("latency_mean_s"), 23.3 / 3, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 12.6, 1e-6);
	ck_assert_double_eq_tol(M("ttft_mean_s"), 0.1, 1e-6);
	ck_assert_double_eq_tol(M("tpot_mean_s"), (12.5 / 99 + 6.5 / 39 + 4.0 / 19) / 3, 1e-6);
	ck_assert_double_eq(M("wait_mean_s"), 0);
}
END_TEST

/* The same trace with batching fixed: today's model (above), and the TPOT of its fixed service times:
 * R1 (10.1 - 0.1) / 99, R2 (5.1 - 0.1) / 39, R3 (4.1 - 0.1) / 19 (tpot reported because slo.tpot_s is set). */
START_TEST(fixed_batching_is_todays_model)
{
	const char *const set[] = { "slo.tpot_s=1" };

	capture_run(&cap, RUN("batch_three.csv", TABLE, ""), set, 1);
	ck_assert_double_eq_tol(M("latency_mean_s"), (10.1 + 5.1 + 4.1) / 3, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 10.1, 1e-6);
	ck_assert_double_eq_tol(M("tpot_mean_s"), (10.0 / 99 + 5.0 / 39 + 4.0 / 19) / 3, 1e-6);
	ck_assert_double_eq(M("tpot_slo_violations"), 0);
}
END_TEST

/*
 * Chunked prefill slows the decoding requests. Decode 10 tokens/s at any b, prefill 1000 tokens/s, chunks
 * of 100 tokens. Prefill clock U, decode clock V:
 *   t=0   R1 (in 100, out 50) prefills alone: iteration 100/1000 = 0.1 s, 100 tokens each: done at 0.1
 *   t=0.1 R1 decodes at 10 tok/s, finishes at V = 50
 *   t=1   V = 9. R2 (in 1000, out 10) prefills beside R1: iteration 1/10 + 100/1000 = 0.2 s, so R1 decodes
 *         at 1/0.2 = 5 tok/s and R2 prefills at 100/0.2 = 500 tok/s: done after 1000/500 = 2 s
 *   t=3   V = 9 + 5 x 2 = 19; R2's first token (TTFT 2.0); it decodes to V = 29; b=2, 10 tok/s
 *   t=4   R2 leaves (latency 3.0); t = 4 + (50 - 29)/10 = 6.1: R1 leaves (latency 6.1)
 * Mean latency 4.55 s, max 6.1 s, mean TTFT (0.1 + 2.0)/2 = 1.05 s. With prefill whole: R1 5.1, R2 prefills
 * 1.0-2.0 and ends at 3.0 (latency 2.0): mean 3.55, max 5.1, TTFT mean 0.55.
 */
START_TEST(chunked_prefill_slows_decoding)
{
	capture_run(&cap, RUN("batch_chunked.csv", ", decode_tokens_per_s: 10, batching: continuous, "
			      "prefill: chunked, chunk_tokens: 100", ""), NULL, 0);
	ck_assert_double_eq_tol(M("latency_mean_s"), 4.55, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 6.1, 1e-6);
	ck_assert_double_eq_tol(M("ttft_mean_s"), 1.05, 1e-6);
	capture_run(&cap, RUN("batch_chunked.csv", ", decode_tokens_per_s: 10, batching: continuous", ""), NULL, 0);
	ck_assert_double_eq_tol(M("latency_mean_s"), 3.55, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 5.1, 1e-6);
	ck_assert_double_eq_tol(M("ttft_mean_s"), 0.55, 1e-6);
}
END_TEST

/*
 * KV cache of 1000 tokens, 3 slots, batching fixed, decode 10 tok/s, prefill 1000 tok/s:
 *   R1 t=0  in 300 out 100 (400 tokens): starts, runs 0.3 + 10 = 10.3 s, ends 10.3
 *   R2 t=1  in 300 out 100 (400): 800 reserved, ends 11.3
 *   R3 t=2  in 200 out 100 (300): 800 + 300 > 1000 -- waits although a slot is free; starts at 10.3
 *           when R1 frees 400 (700 reserved), runs 0.2 + 10 = 10.2, ends 20.5: latency 18.5, wait 8.3
 *   R4 t=30 in 900 out 200 (1100 > 1000): refused, larger than any cache
 * Latency mean (10.3 + 10.3 + 18.5)/3 = 13.033333; wait mean 8.3/3 (served). The cache limited admission
 * from 2 to 10.3: 8.3 s of 3600 = 0.0023055556. Utilisation: 400 x 10.3 + 400 x 10.3 + 300 x 10.2 = 11300
 * token-s of 1000 x 3600: 0.0031388889.
 */
START_TEST(third_request_waits_for_memory)
{
	capture_run(&cap, RUN("kv_timeline.csv", ", decode_tokens_per_s: 10", "  kv_cache_tokens: 1000\n"),
		    NULL, 0);
	ck_assert_double_eq(M("requests_served"), 3);
	ck_assert_double_eq(M("requests_refused"), 1);
	ck_assert_double_eq(M("requests_kv_too_large"), 1);
	ck_assert_double_eq_tol(M("latency_mean_s"), 39.1 / 3, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 18.5, 1e-6);
	ck_assert_double_eq_tol(M("wait_mean_s"), 8.3 / 3, 1e-6);
	ck_assert_double_eq_tol(M("kv_cache_limited_share"), 8.3 / 3600, 1e-9);
	ck_assert_double_eq_tol(M("kv_cache_utilization"), 11300.0 / 3600000, 1e-9);
}
END_TEST

/*
 * TPOT and its SLO, batching fixed: R1 in 100 out 11: TTFT 0.1, done at 0.1 + 11/10 = 1.2, TPOT (1.2 -
 * 0.1)/10 = 0.11 s > 0.1: a violation. R2 out 1: no TPOT (needs 2 output tokens), no violation.
 */
START_TEST(tpot_by_hand)
{
	const char *const set[] = { "slo.tpot_s=0.1" };

	capture_run(&cap, RUN("tpot_two.csv", ", decode_tokens_per_s: 10", ""), set, 1);
	ck_assert_double_eq_tol(M("tpot_mean_s"), 0.11, 1e-6);
	ck_assert_double_eq_tol(M("tpot_p50_s"), 0.11, 0.11 * 0.01);
	ck_assert_double_eq(M("tpot_slo_violations"), 1);
	ck_assert_double_eq_tol(M("tpot_slo_violation_rate"), 0.5, 1e-12);
}
END_TEST

/*
 * The TPOT percentile SLOs on the same run: one TPOT, 0.11 s (R2 has none), nothing dropped, so its p50 is
 * 0.11 (within the histogram's 1%): slo.tpot_p50_s 0.1 is missed (slo_met 0), 0.2 is met (slo_met 1).
 */
START_TEST(tpot_percentile_slo)
{
	const char *const missed[] = { "slo.tpot_p50_s=0.1" }, *const met[] = { "slo.tpot_p50_s=0.2" };

	capture_run(&cap, RUN("tpot_two.csv", ", decode_tokens_per_s: 10", ""), missed, 1);
	ck_assert_double_eq(M("slo_met"), 0);
	capture_run(&cap, RUN("tpot_two.csv", ", decode_tokens_per_s: 10", ""), met, 1);
	ck_assert_double_eq(M("slo_met"), 1);
	ck_assert_double_eq_tol(M("tpot_p50_s"), 0.11, 0.11 * 0.01);
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
 * block_idle_instances_released_at_the_warning, with tokens: in 1000 at 1000 tokens/s, out 1500 at 1 token/s,
 * so 1 + 1500 = 1501 s alone, as its 1500 s plus 1): request 125 (started 125000, due 126501) is still on
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
		    "serving: {instance_type: p5.48xlarge, slots_per_instance: 1, startup_s: 650, kv_cache_tokens: 3000}\n"
		    "fleet:\n  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 3,"
		    " usd_per_h: 30}\n  - {option: on_demand, count: 2, max: 2}\n", NULL, 0);
	ck_assert_double_eq(M("requests_interrupted"), 1);
	ck_assert_double_eq(M("requests_served") + M("requests_dropped"), M("requests_total"));
	ck_assert_double_eq(M("requests_kv_too_large"), 0);
	/* one slot each, so every request decodes alone: 1500 tokens at 1 token/s after its first token,
	 * TPOT = 1500 / (1500 - 1) = 1.000667 s */
	ck_assert_double_eq_tol(M("tpot_mean_s"), 1500.0 / 1499, 1e-6);
}
END_TEST

static Suite *batching_suite(void)
{
	Suite *s = suite_create("batching");
	TCase *tc = tcase_create("runs");

	tcase_add_test(tc, three_requests_join_and_leave);
	tcase_add_test(tc, fixed_batching_is_todays_model);
	tcase_add_test(tc, chunked_prefill_slows_decoding);
	tcase_add_test(tc, third_request_waits_for_memory);
	tcase_add_test(tc, tpot_by_hand);
	tcase_add_test(tc, tpot_percentile_slo);
	tcase_add_test(tc, no_new_metrics_by_default);
	tcase_add_test(tc, kv_tokens_derived_from_memory);
	tcase_add_test(tc, kv_tokens_per_type);
	tcase_add_test(tc, instance_taken_away_mid_batch);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(batching_suite());
}
