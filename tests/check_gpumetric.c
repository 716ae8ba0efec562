/*
 * check_gpumetric: the GPU metrics (gpumetric.c), their publishing delay (metriclag.c) and whole runs of
 * policies on them (autoscale.c, models/README.md "GPU metrics"). Every figure is worked out by hand in the comments.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "capture.h"
#include "gpumetric.h"
#include "metriclag.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"

#define S 1000000LL  /* one second, us */

static struct capture cap;

/* A scenario with one type of `gpus` GPUs and `slots` slots; the memory model of a 70B model on 80 GB
 * GPUs: weights 140 GB, 327,680 KV bytes per token, 0.9 usable. */
static void fake(struct scenario *sc, int gpus, int slots, bool prealloc)
{
	memset(sc, 0, sizeof *sc);
	sc->ntypes = 1;
	sc->types[0].gpus = gpus;
	sc->serving.slots = slots;
	sc->serving.kv_gpu_memory_gb = 80;
	sc->serving.kv_model_gb = 140;
	sc->serving.kv_bytes_per_token = 327680;
	sc->serving.kv_utilization = 0.9;
	sc->serving.kv_preallocate = prealloc;
}

/*
 * Two requests on a 2-GPU instance over a 60 s period: A runs 0-20 s, B 10-40 s. Some request runs from 0 to
 * 40 s, so both GPUs are busy 40 of 60 s: 2 x 100 x 40/60 = 133.33%, though the slots are far from full.
 * A second instance open and idle all period halves the per-instance average: 66.67%.
 */
START_TEST(utilization_two_requests_by_hand)
{
	struct scenario sc;
	struct gpumetric g;
	double u, m;

	fake(&sc, 2, 4, true);
	ck_assert_int_eq(gpumetric_init(&g, &sc, 2), STATUS_OK);
	gpumetric_note(&g, 0, 0, 0, 0, 4, true, 0);
	gpumetric_note(&g, 0, 0, 0, 1, 4, true, 0);       /* A starts */
	gpumetric_note(&g, 10 * S, 0, 0, 2, 4, true, 0);  /* B starts */
	gpumetric_note(&g, 20 * S, 0, 0, 1, 4, true, 0);  /* A ends */
	gpumetric_note(&g, 40 * S, 0, 0, 0, 4, true, 0);  /* B ends */
	gpumetric_take(&g, 60 * S, &u, &m);
	ck_assert_double_eq_tol(u, 200.0 * 40 / 60, 1e-9);
	/* the same again with instance 1 open and idle */
	gpumetric_note(&g, 60 * S, 1, 0, 0, 4, true, 0);
	gpumetric_note(&g, 60 * S, 0, 0, 1, 4, true, 0);
	gpumetric_note(&g, 70 * S, 0, 0, 2, 4, true, 0);
	gpumetric_note(&g, 80 * S, 0, 0, 1, 4, true, 0);
	gpumetric_note(&g, 100 * S, 0, 0, 0, 4, true, 0);
	gpumetric_take(&g, 120 * S, &u, &m);
	ck_assert_double_eq_tol(u, 200.0 * 40 / 60 / 2, 1e-9);
	/* nothing counted: no datapoint */
	gpumetric_note(&g, 120 * S, 0, 0, 0, 0, false, 0);
	gpumetric_note(&g, 120 * S, 1, 0, 0, 0, false, 0);
	gpumetric_take(&g, 180 * S, &u, &m);
	ck_assert(isnan(u) && isnan(m));
	gpumetric_fini(&g);
}
END_TEST

/*
 * Copies, normalised per copy: 2 slots a copy, an instance with 4 slots holds 2 copies. 1 request for 30 s,
 * then 3 for 30 s: busy copies min(1, 2) = 1, then min(3, 2) = 2; copy-seconds busy 30 + 60 = 90 of 2 x 60 =
 * 120: 75%, whatever the GPUs per copy.
 */
START_TEST(per_copy_normalised_by_hand)
{
	struct scenario sc;
	struct gpumetric g;
	double u, m;

	fake(&sc, 8, 2, true);
	sc.copies.enabled = true;
	ck_assert_int_eq(gpumetric_init(&g, &sc, 1), STATUS_OK);
	gpumetric_note(&g, 0, 0, 0, 1, 4, true, 0);
	gpumetric_note(&g, 30 * S, 0, 0, 3, 4, true, 0);
	gpumetric_take(&g, 60 * S, &u, &m);
	ck_assert_double_eq_tol(u, 75.0, 1e-9);
	ck_assert(isnan(m)); /* memory is not modelled per copy */
	gpumetric_fini(&g);
}
END_TEST

/*
 * Preallocated memory on 8 x 80 GB: before its first request an instance holds its weights, 100 x 140 / 80 =
 * 175% (summed over GPUs); from its first request on 8 x 90 = 720%, kept when it is idle again. Period 1:
 * first request at 30 s (to 40 s): (175 x 30 + 720 x 30) / 60 = 447.5. Period 2, no request: 720.
 */
START_TEST(preallocated_memory_is_kept)
{
	struct scenario sc;
	struct gpumetric g;
	double u, m;

	fake(&sc, 8, 64, true);
	ck_assert_int_eq(gpumetric_init(&g, &sc, 1), STATUS_OK);
	gpumetric_note(&g, 0, 0, 0, 0, 64, true, 0);
	gpumetric_note(&g, 30 * S, 0, 0, 1, 64, true, 1000);
	gpumetric_note(&g, 40 * S, 0, 0, 0, 64, true, 0);
	gpumetric_take(&g, 60 * S, &u, &m);
	ck_assert_double_eq_tol(m, 447.5, 1e-9);
	ck_assert_double_eq_tol(u, 800.0 * 10 / 60, 1e-9);
	gpumetric_take(&g, 120 * S, &u, &m);
	ck_assert_double_eq_tol(m, 720.0, 1e-9);
	ck_assert_double_eq_tol(u, 0.0, 1e-9);
	/* the instance ends: a new one in its pool slot starts from its weights */
	gpumetric_note(&g, 120 * S, 0, 0, 0, 0, false, 0);
	gpumetric_note(&g, 120 * S, 0, 0, 0, 64, true, 0);
	gpumetric_take(&g, 180 * S, &u, &m);
	ck_assert_double_eq_tol(m, 175.0, 1e-9);
	gpumetric_fini(&g);
}
END_TEST

/*
 * Without preallocation memory follows the KV cache's high-water mark: 1,000,000 tokens x 327,680 bytes =
 * 327.68 GB from 10 s to 20 s, then none. Held: 140 + 327.68 = 467.68 GB = 100 x 467.68 / 80 = 584.6%, kept
 * after the tokens are freed. Period 1: (175 x 10 + 584.6 x 50) / 60 = 516.333...; period 2: 584.6.
 */
START_TEST(no_preallocation_high_water_mark)
{
	struct scenario sc;
	struct gpumetric g;
	double u, m;

	fake(&sc, 8, 64, false);
	ck_assert_int_eq(gpumetric_init(&g, &sc, 1), STATUS_OK);
	gpumetric_note(&g, 0, 0, 0, 0, 64, true, 0);
	gpumetric_note(&g, 10 * S, 0, 0, 1, 64, true, 1000000);
	gpumetric_note(&g, 20 * S, 0, 0, 0, 64, true, 0);
	gpumetric_take(&g, 60 * S, &u, &m);
	ck_assert_double_eq_tol(m, (175.0 * 10 + 584.6 * 50) / 60, 1e-9);
	gpumetric_take(&g, 120 * S, &u, &m);
	ck_assert_double_eq_tol(m, 584.6, 1e-9);
	gpumetric_fini(&g);
}
END_TEST

/* A delay of 2 periods: the first two pushes give NaN, the third gives the first vector. */
START_TEST(lag_by_hand)
{
	struct metriclag lag;
	double v[2];

	ck_assert_int_eq(metriclag_init(&lag, 2, 2), STATUS_OK);
	for (int k = 1; k <= 4; k++) {
		v[0] = k;
		v[1] = 10 * k;
		metriclag_push(&lag, v);
		if (k <= 2) {
			ck_assert(isnan(v[0]) && isnan(v[1]));
		} else {
			ck_assert_double_eq(v[0], k - 2);
			ck_assert_double_eq(v[1], 10 * (k - 2));
		}
	}
	metriclag_fini(&lag);
}
END_TEST

/* One request of 7200 s at t = 0 on one instance of a 2-GPU type with 8 slots; the policy's metric and
 * target, and more keys, are the test's. */
#define ONE_LONG(metric, more)                                                                            \
	"name: gpu\nhorizon: 1h\nslo: {latency_s: 86400}\n"                                             \
	"workload:\n  arrivals:\n    kind: trace\n    path: " TEST_DATA_DIR "/good/traces/gpu_one_long.csv\n" \
	"    format: generic\n    columns: {time: t, time_format: seconds, service_s: svc}\n"            \
	"  service: {kind: trace}\n"                                                                      \
	"catalog: {twogpu: {gpus: 2, usd_per_h: 2}}\n"                                                   \
	"serving: {instance_type: twogpu, slots_per_instance: 8, startup_s: 60s}\n"                      \
	"fleet:\n  - {option: on_demand, count: 1, max: 2}\n"                                           \
	"autoscaling: {policy: target_tracking, min: 1, max: 2, " metric more "}\n"

/*
 * One request busies every GPU: with it running the instance's utilization is 2 x 100 = 200% every period,
 * above a target of 100, while its concurrency is 1 / 8 = 0.125, below 0.6. Evaluations every 60 s; target
 * tracking scales out after 3 datapoints above the target: the ones at 60, 120 and 180 s, so at 180 s, to
 * ceil(1 x 200 / 100) = 2. On concurrency it never scales out.
 */
START_TEST(one_request_busies_every_gpu)
{
	const struct capture_event *e;

	capture_run(&cap, ONE_LONG("metric: gpu_utilization, target: 100", ""), NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 1);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_double_eq_tol(e->t_s, 180, 1e-9);
	ck_assert_int_eq(e->count, 2);
	capture_run(&cap, ONE_LONG("metric: concurrency_per_instance, target: 0.6", ""), NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 0);
}
END_TEST

/*
 * metric_delay_s 120 (2 periods): the evaluations at 60 and 120 s see no datapoint yet; those at 180, 240 and
 * 300 s see the periods ending 60, 120 and 180 s (each 200%): the scale-out comes at 300 s = 180 + 120.
 */
START_TEST(delay_moves_the_scale_out)
{
	const struct capture_event *e;

	capture_run(&cap, ONE_LONG("metric: gpu_utilization, target: 100", ", metric_delay_s: 120"), NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 1);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_double_eq_tol(e->t_s, 300, 1e-9);
}
END_TEST

/*
 * The memory trap. p5.48xlarge (8 GPUs), a 70B model with preallocation: an instance that has served shows
 * 720% for good, one that has not 175%. Target 300 on gpu_memory_utilization; a burst of 12/s from 1 h to
 * 2 h over a base of 0.5/s, horizon 5 h. During the burst requests spread over every instance, and each of
 * them then holds 720% > 300 until the end: after the burst (from 2 h on) no scale-in can happen, since the
 * average over instances that all served stays at 720 (and any unserved ones only lower it towards 175 when
 * more come). So 0 scale-ins after 2 h, and the fleet ends at its peak. The same scenario on concurrency
 * (target 0.6) scales in after the burst.
 */
#define TRAP(metric)                                                                                       \
	"name: trap\nseed: 42\nhorizon: 5h\nslo: {latency_s: 60}\n"                                       \
	"workload:\n  arrivals: {kind: poisson, rate_per_s: 0.5, steps: [{at: 1h, rate_per_s: 12}, "     \
	"{at: 2h, rate_per_s: 0.5}]}\n"                                                                  \
	"  sizes: {input_tokens: {kind: constant, mean: 1000}, output_tokens: {kind: constant, mean: 300}}\n" \
	"  service: {kind: tokens, prefill_tokens_per_s: 8000, decode_table: [{concurrency: 1, "         \
	"tokens_per_s: 70}, {concurrency: 64, tokens_per_s: 18}]}\n"                                     \
	"serving:\n  instance_type: p5.48xlarge\n  slots_per_instance: 64\n  startup_s: 7m\n"           \
	"  kv_cache: {gpu_memory_gb: 80, model_gb: 140, bytes_per_token: 327680}\n"                      \
	"fleet:\n  - {option: on_demand, count: 1, max: 12}\n"                                          \
	"autoscaling: {policy: target_tracking, min: 1, max: 12, " metric "}\n"

static void after(double from_s, const char *kind, int *n, int *last_count, int *peak)
{
	*n = 0;
	for (int i = 0; i < cap.nevents; i++) {
		const struct capture_event *e = &cap.events[i];
		if (strcmp(e->kind, "scale_out") == 0 || strcmp(e->kind, "scale_in") == 0) {
			*last_count = e->count;
			if (e->count > *peak)
				*peak = e->count;
			if (e->t_s >= from_s && strcmp(e->kind, kind) == 0)
				(*n)++;
		}
	}
}

START_TEST(memory_metric_never_scales_in)
{
	int n, last = 1, peak = 1;

	capture_run(&cap, TRAP("metric: gpu_memory_utilization, target: 300"), NULL, 0);
	ck_assert_int_gt(capture_count(&cap, "scale_out"), 0);
	after(7200, "scale_in", &n, &last, &peak);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(last, peak);
	ck_assert_int_gt(peak, 1);
	last = 1;
	peak = 1;
	capture_run(&cap, TRAP("metric: concurrency_per_instance, target: 0.6"), NULL, 0);
	after(7200, "scale_in", &n, &last, &peak);
	ck_assert_int_gt(n, 0);
	ck_assert_int_lt(last, peak);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gpumetric");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, utilization_two_requests_by_hand);
	tcase_add_test(tc, per_copy_normalised_by_hand);
	tcase_add_test(tc, preallocated_memory_is_kept);
	tcase_add_test(tc, no_preallocation_high_water_mark);
	tcase_add_test(tc, lag_by_hand);
	tcase_add_test(tc, one_request_busies_every_gpu);
	tcase_add_test(tc, delay_moves_the_scale_out);
	tcase_add_test(tc, memory_metric_never_scales_in);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
