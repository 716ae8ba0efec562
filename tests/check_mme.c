/*
 * check_mme: multi-model endpoints (mme.c, the serving hooks, scenario_mme.c; models/README.md "Multi-model
 * endpoints"). A request's model is loaded on its instance on demand (load_s, during which its slot is held);
 * a loaded model is a hit; when memory is full the least recently used model no request uses is unloaded.
 * The endpoint scales on the load of all its models together.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "mme.h"
#include "status.h"
#include "testutil.h"

static struct capture cap;

static double M(const char *name)
{
	return capture_need(&cap, name);
}

#define S(x) ((int64_t)((x) * 1000000))

/* A scenario with models a, b, c of 10 GB each (loads 5, 4, 3 s) in 20 GB, horizon 100 s. */
static struct scenario *three_models(void)
{
	static const struct scenario_mme_model models[] = {
		{ "a", 10, S(5), 1 }, { "b", 10, S(4), 1 }, { "c", 10, S(3), 1 },
	};
	struct scenario *sc = calloc(1, sizeof *sc);

	ck_assert_ptr_nonnull(sc);
	sc->horizon_us = S(100);
	sc->mme.memory_gb = 20;
	sc->mme.n = 3;
	sc->mme.models = (struct scenario_mme_model *)models;  /* not freed: the test frees sc only */
	return sc;
}

/*
 * One instance, open from 0 to the horizon (100 s); admissions and releases (model: admitted, done):
 *   R1 a  t=0  -> absent: load a, ready at 5: wait 5 (its latency would be 5 + service)
 *   R2 a  t=2  -> loading: waits for the same load, 5 - 2 = 3 (no second load)
 *   R1, R2 done at 7, 8; R3 a t=10 -> hit, wait 0; done 11 (a last used 11)
 *   R4 b  t=20 -> load b, ready 24: wait 4; memory 20 of 20; done 25 (b last used 25)
 *   R5 c  t=30 -> no room: the LRU unused model is a (11 < 25): a evicted; load c, wait 3; done 34
 *   R6 b  t=40 -> hit (b stayed); done 41
 *   R7 a  t=50 -> a was evicted: load again, wait 5; LRU of b (41) and c (34) is c: c evicted; done 56
 * Hits 2 of 7 = 0.2857; the 5 waits 5, 3, 4, 3, 5: mean 4 s; loads a, b, c, a = 4; evictions 2.
 * Loaded models: 1 on [0, 20), 2 on [20, 100): (1 x 20 + 2 x 80) / 100 = 1.8 per instance.
 */
START_TEST(timeline_by_hand)
{
	struct scenario *sc = three_models();
	struct mme m;
	struct meter_mme out;

	ck_assert_int_eq(mme_init(&m, sc, 1, 0), STATUS_OK);
	mme_set_open(&m, 0, true, 0);
	ck_assert(!mme_has(&m, 0, 0));
	ck_assert_int_eq(mme_admit(&m, 0, 0, S(0), S(0)), S(5));
	ck_assert(mme_has(&m, 0, 0));
	ck_assert_int_eq(mme_admit(&m, 0, 0, S(2), S(2)), S(3));
	mme_release(&m, 0, 0, S(7));
	mme_release(&m, 0, 0, S(8));
	ck_assert_int_eq(mme_admit(&m, 0, 0, S(10), S(10)), 0);
	mme_release(&m, 0, 0, S(11));
	ck_assert_int_eq(mme_admit(&m, 0, 1, S(20), S(20)), S(4));
	mme_release(&m, 0, 1, S(25));
	ck_assert(mme_fits(&m, 0, 2));  /* full, but a and b are unused */
	ck_assert_int_eq(mme_admit(&m, 0, 2, S(30), S(30)), S(3));
	ck_assert(!mme_has(&m, 0, 0) && mme_has(&m, 0, 1) && mme_has(&m, 0, 2));  /* a, the LRU, went */
	mme_release(&m, 0, 2, S(34));
	ck_assert_int_eq(mme_admit(&m, 0, 1, S(40), S(40)), 0);
	mme_release(&m, 0, 1, S(41));
	ck_assert_int_eq(mme_admit(&m, 0, 0, S(50), S(50)), S(5));  /* pays the load again */
	ck_assert(mme_has(&m, 0, 0) && mme_has(&m, 0, 1) && !mme_has(&m, 0, 2));  /* c (34) before b (41) */
	mme_release(&m, 0, 0, S(56));
	mme_report(&m, S(100), &out);
	ck_assert_double_eq_tol(out.hit_ratio, 2.0 / 7, 1e-12);
	ck_assert_double_eq_tol(out.wait_mean_s, 4, 1e-9);
	ck_assert_double_eq_tol(out.wait_p99_s, 5, 5 * 0.01);  /* hist.h: within 1% */
	ck_assert_double_eq_tol(out.loaded_per_instance, 1.8, 1e-12);
	ck_assert_int_eq(out.loads, 4);
	ck_assert_int_eq(out.evictions, 2);
	mme_fini(&m);
	free(sc);
}
END_TEST

/* Models in use are never evicted: with a and b both in use, c does not fit (the request must wait); once
 * one is released it does. An instance that stops serving unloads what no request uses, and a model still
 * in use there when its last request ends. */
START_TEST(in_use_not_evicted)
{
	struct scenario *sc = three_models();
	struct mme m;

	ck_assert_int_eq(mme_init(&m, sc, 2, 0), STATUS_OK);
	mme_set_open(&m, 0, true, 0);
	mme_set_open(&m, 1, true, 0);
	mme_admit(&m, 0, 0, 0, 0);
	mme_admit(&m, 0, 1, 0, 0);
	ck_assert(!mme_fits(&m, 0, 2));
	ck_assert(mme_fits(&m, 1, 2));  /* the other instance is empty */
	mme_release(&m, 0, 1, S(10));
	ck_assert(mme_fits(&m, 0, 2));
	mme_set_open(&m, 0, false, S(20));
	ck_assert(mme_has(&m, 0, 0) && !mme_has(&m, 0, 1));  /* a still in use */
	mme_release(&m, 0, 0, S(30));
	ck_assert(!mme_has(&m, 0, 0));
	mme_fini(&m);
	free(sc);
}
END_TEST

/*
 * The LRU order at its ties and the load wait at its edges, one instance of 20 GB, models a, b, c of 10 GB
 * (loads 5, 4, 3 s); admissions and releases by hand:
 *   t=0   a: absent, loads, ready 5: wait 5. b: absent; 10 + 10 = 20 GB, exactly the memory: it fits beside
 *         a (no eviction), ready 4: wait 4.
 *   t=6   a and b released: both last used at 6, a tie.
 *   t=10  c: full; the unused a and b tie at 6: the lower index, a, is evicted; c ready 13: wait 3.
 *   t=13 - 1 us: c is still loading: wait 1 us, not a hit. t=13: c ready exactly now: a hit, wait 0.
 *   t=14  the three c released (c last used 14).
 *   t=20  a: LRU of b (6) and c (14) is b: evicted; a ready 25, wait 5.
 *   t=21  b: a is in use, so c (14) goes; b ready 25, wait 4.
 *   t=30  b released; t=31 a released. By admission a (20) is older than b (21), but recency is the later of
 *         admission and completion: b (30) before a (31).
 *   t=40  c: b evicted (30 < 31), a stays; c ready 43, wait 3.
 * 8 admissions, 1 hit; loads a, b, c, a, b, c = 6; evictions a, b, c, b = 4; the 7 waits 5 + 4 + 3 +
 * 0.000001 + 5 + 4 + 3 = 24.000001 s, mean 24.000001 / 7.
 */
START_TEST(lru_ties_and_the_load_wait_edges)
{
	struct scenario *sc = three_models();
	struct mme m;
	struct meter_mme out;

	ck_assert_int_eq(mme_init(&m, sc, 1, 0), STATUS_OK);
	mme_set_open(&m, 0, true, 0);
	ck_assert_int_eq(mme_admit(&m, 0, 0, 0, 0), S(5));
	ck_assert(mme_room(&m, 0, 1));  /* 10 + 10 = 20: exactly the memory */
	ck_assert_int_eq(mme_admit(&m, 0, 1, 0, 0), S(4));
	ck_assert(mme_has(&m, 0, 0) && mme_has(&m, 0, 1));
	ck_assert(!mme_room(&m, 0, 2));
	mme_release(&m, 0, 0, S(6));
	mme_release(&m, 0, 1, S(6));
	ck_assert_int_eq(mme_admit(&m, 0, 2, S(10), S(10)), S(3));
	ck_assert(!mme_has(&m, 0, 0) && mme_has(&m, 0, 1) && mme_has(&m, 0, 2));  /* the tie: a, the lower, went */
	ck_assert_int_eq(mme_admit(&m, 0, 2, S(13) - 1, S(13) - 1), 1);
	ck_assert_int_eq(mme_admit(&m, 0, 2, S(13), S(13)), 0);
	for (int i = 0; i < 3; i++)
		mme_release(&m, 0, 2, S(14));
	ck_assert_int_eq(mme_admit(&m, 0, 0, S(20), S(20)), S(5));
	ck_assert(mme_has(&m, 0, 0) && !mme_has(&m, 0, 1) && mme_has(&m, 0, 2));
	ck_assert_int_eq(mme_admit(&m, 0, 1, S(21), S(21)), S(4));
	ck_assert(mme_has(&m, 0, 0) && mme_has(&m, 0, 1) && !mme_has(&m, 0, 2));
	mme_release(&m, 0, 1, S(30));
	mme_release(&m, 0, 0, S(31));
	ck_assert_int_eq(mme_admit(&m, 0, 2, S(40), S(40)), S(3));
	ck_assert(mme_has(&m, 0, 0) && !mme_has(&m, 0, 1) && mme_has(&m, 0, 2));  /* b, completed first, went */
	mme_report(&m, S(100), &out);
	ck_assert_double_eq_tol(out.hit_ratio, 1.0 / 8, 1e-12);
	ck_assert_double_eq_tol(out.wait_mean_s, 24.000001 / 7, 1e-9);
	ck_assert_int_eq(out.loads, 6);
	ck_assert_int_eq(out.evictions, 4);
	mme_fini(&m);
	free(sc);
}
END_TEST

/*
 * A model that loads in no time (load_s 0, which the loader accepts), loaded at t = 0: it is ready at 0, and
 * when its instance stops serving with nothing using it, it is unloaded like any other: t=0 admitted (wait
 * 0, not a hit: it was absent), released at 0; the instance closes at 1 s: z is gone; the instance serves
 * again at 2 s and a request for z loads it again (a second load).
 */
START_TEST(instant_load_unloaded_at_close)
{
	static const struct scenario_mme_model models[] = { { "z", 10, 0, 1 } };
	struct scenario *sc = calloc(1, sizeof *sc);
	struct mme m;
	struct meter_mme out;

	ck_assert_ptr_nonnull(sc);
	sc->horizon_us = S(100);
	sc->mme.memory_gb = 10;
	sc->mme.n = 1;
	sc->mme.models = (struct scenario_mme_model *)models;
	ck_assert_int_eq(mme_init(&m, sc, 1, 0), STATUS_OK);
	mme_set_open(&m, 0, true, 0);
	ck_assert_int_eq(mme_admit(&m, 0, 0, 0, 0), 0);
	mme_release(&m, 0, 0, 0);
	ck_assert(mme_has(&m, 0, 0));
	mme_set_open(&m, 0, false, S(1));
	ck_assert(!mme_has(&m, 0, 0));
	mme_set_open(&m, 0, true, S(2));
	ck_assert_int_eq(mme_admit(&m, 0, 0, S(2), S(2)), 0);
	mme_report(&m, S(100), &out);
	ck_assert_int_eq(out.loads, 2);
	ck_assert_double_eq(out.hit_ratio, 0);
	mme_fini(&m);
	free(sc);
}
END_TEST

/* One g5.xlarge, one slot, a request every 10 s (uniform: at 10, 20, ..., 3600 s: 360), 1 s each. */
#define ONE(models)                                                                                      \
	"name: mme\nhorizon: 1h\nslo: {latency_s: 10}\n"                                                 \
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"  \
	"serving:\n  instance_type: g5.xlarge\n  slots_per_instance: 1\n  multi_model:\n"               \
	"    memory_gb: 10\n    models:\n" models                                                         \
	"fleet:\n  - {option: on_demand, count: 1, usd_per_h: 1}\n"

/*
 * Through the whole run: only model a is invoked (b has share 0). The first request (t = 10 s) pays the
 * load: latency 5 + 1 = 6 s; the other 359 are hits of 1 s. Latency mean (6 + 359) / 360; hit ratio
 * 359/360; one load, no eviction; a loaded from 10 s to 3600 s on the one instance: 3590/3600.
 */
START_TEST(first_request_pays_the_load)
{
	capture_run(&cap, ONE("      - {name: a, size_gb: 10, load_s: 5}\n"
			      "      - {name: b, size_gb: 10, load_s: 5, share: 0}\n"), NULL, 0);
	ck_assert_double_eq(M("requests_served"), 360);
	ck_assert_double_eq_tol(M("latency_mean_s"), (6.0 + 359) / 360, 1e-9);
	ck_assert_double_eq_tol(M("latency_max_s"), 6, 1e-9);
	ck_assert_double_eq_tol(M("wait_mean_s"), 0, 1e-12);  /* the load is not queue wait */
	ck_assert_double_eq_tol(M("model_cache_hit_ratio"), 359.0 / 360, 1e-12);
	ck_assert_double_eq_tol(M("model_loading_wait_mean_s"), 5, 1e-9);
	ck_assert_double_eq(M("model_loads"), 1);
	ck_assert_double_eq(M("model_evictions"), 0);
	ck_assert_double_eq_tol(M("loaded_models_per_instance"), 3590.0 / 3600, 1e-9);
}
END_TEST

/*
 * Two models of 10 GB in 10 GB, shares 1:1, one slot, never two requests at once: a request is a hit
 * exactly when the one before it invoked the same model, else it waits 5 s to load (evicting the other,
 * except at the very first load). Whatever the draws: loads = misses = 360 (1 - hit ratio), evictions =
 * loads - 1, latency mean = 1 + 5 (1 - hit ratio), load wait mean 5; and about half are hits.
 */
START_TEST(alternating_models_relations)
{
	double miss, loads;

	capture_run(&cap, ONE("      - {name: a, size_gb: 10, load_s: 5}\n"
			      "      - {name: b, size_gb: 10, load_s: 5}\n"), NULL, 0);
	miss = 1 - M("model_cache_hit_ratio");
	loads = M("model_loads");
	ck_assert_double_eq_tol(loads, 360 * miss, 1e-9);
	ck_assert_double_eq(M("model_evictions"), loads - 1);
	ck_assert_double_eq_tol(M("latency_mean_s"), 1 + 5 * miss, 1e-9);
	ck_assert_double_eq_tol(M("model_loading_wait_mean_s"), 5, 1e-9);
	/* hits ~ Binomial(359, 1/2): sd 9.5, 5 sd ~ 47 of 360 */
	ck_assert_double_eq_tol(miss * 360, 180, 47);
}
END_TEST

/*
 * Routing prefers free memory to an eviction: two models of 10 GB, 10 GB per instance, two instances of one
 * slot, shares 1:1, one request every 10 s (never two at once). The first request of each model loads it,
 * the first on instance 0, the other (instance 0 holds the other model) on the empty instance 1, not by
 * evicting; from then each model's requests go where it is: 2 loads, 0 evictions, 358 hits of 360, latency
 * mean (2 x 6 + 358 x 1) / 360. (Evicting on instance 0 instead would reload at almost every switch.)
 */
START_TEST(routing_spreads_models)
{
	static const char yaml[] = ONE("      - {name: a, size_gb: 10, load_s: 5}\n"
				       "      - {name: b, size_gb: 10, load_s: 5}\n");
	char buf[2048];

	snprintf(buf, sizeof buf, "%s", yaml);
	*strstr(buf, "count: 1") = '\0';
	strcat(buf, "count: 2, usd_per_h: 1}\n");
	capture_run(&cap, buf, NULL, 0);
	ck_assert_double_eq(M("model_loads"), 2);
	ck_assert_double_eq(M("model_evictions"), 0);
	ck_assert_double_eq_tol(M("model_cache_hit_ratio"), 358.0 / 360, 1e-12);
	ck_assert_double_eq_tol(M("latency_mean_s"), (2 * 6.0 + 358) / 360, 1e-9);
}
END_TEST

/*
 * The endpoint scales on its total load (SOURCES.md [mme-aggregate-scaling]). Two models, shares 1:1, on
 * 4 instances (min 4); invocations_per_instance target 100 per minute. Uniform arrivals at 5/s, then 10/s
 * from 600 s. Before 600 s: 300/min over 4 = 75 per instance, below target (ceil(4 x 75/100) = 3, held at
 * min 4). From 600 s each model alone brings 300/min = 75 per instance, below 100, but together 150: the
 * evaluation at 660 s sees 150 and scales out to ceil(4 x 150 / 100) = 6. The same run with one model
 * gives the same scale-out (the metric does not look at models).
 */
#define SCALE(models)                                                                                    \
	"name: mme-scale\nhorizon: 20m\nslo: {latency_s: 30}\n"                                          \
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 5, steps: [{at: 600s, rate_per_s: 10}]}\n"    \
	"  service: {kind: constant, mean_s: 1}\n"                                                       \
	"serving:\n  instance_type: g5.xlarge\n  slots_per_instance: 10\n  startup_s: 120\n"             \
	"  multi_model:\n    memory_gb: 20\n    models:\n" models                                          \
	"fleet:\n  - {option: on_demand, count: 4, max: 10, usd_per_h: 1}\n"                             \
	"autoscaling: {policy: target_tracking, metric: invocations_per_instance, target: 100, min: 4,"    \
	" max: 10, resolution_s: 60, scale_out_cooldown_s: 300, scale_in_cooldown_s: 300,"                \
	" scale_out_datapoints: 1, scale_in_datapoints: 1}\n"

START_TEST(scales_on_total_load)
{
	const struct capture_event *e;

	capture_run(&cap, SCALE("      - {name: a, size_gb: 10, load_s: 1}\n"
				"      - {name: b, size_gb: 10, load_s: 1}\n"), NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 1);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_double_eq_tol(e->t_s, 660, 1e-9);
	ck_assert_int_eq(e->count, 6);
}
END_TEST

static Suite *mme_suite(void)
{
	Suite *s = suite_create("mme");
	TCase *tc = tcase_create("mme");

	tcase_set_timeout(tc, 60);
	test_add(tc, timeline_by_hand);
	test_add(tc, in_use_not_evicted);
	test_add(tc, lru_ties_and_the_load_wait_edges);
	test_add(tc, instant_load_unloaded_at_close);
	test_add(tc, first_request_pays_the_load);
	test_add(tc, alternating_models_relations);
	test_add(tc, routing_spreads_models);
	test_add(tc, scales_on_total_load);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(mme_suite());
}
