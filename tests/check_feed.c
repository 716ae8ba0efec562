/*
 * check_feed: a workload's requests drawn ahead on a second thread (models/traffic/feed.h) are the requests
 * workload_next gives, in the same order, with the same end.
 *
 * Each test draws one workload inline and a twin (same scenario, same seed) through a feed, and compares
 * request by request. The workloads are long enough that the ring (FEED_BLOCKS blocks of FEED_BLOCK) turns
 * over several times, so a block handed over twice, skipped or read before it is filled shows as a
 * difference; a failure half-way through a block must arrive after exactly the requests before it, with
 * workload_next's own message.
 */
#define _GNU_SOURCE  /* sched_setaffinity, CPU_SET */
#include <check.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "feed.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "workload.h"

/* A diurnal workload with lognormal service and lognormal prompt sizes: three streams in play. */
static void make_scenario(struct scenario *sc, uint64_t seed, double horizon_s)
{
	memset(sc, 0, sizeof *sc);
	sc->seed = seed;
	sc->horizon_us = (int64_t)(horizon_s * (double)SIM_US_PER_S);
	sc->arrivals.kind = ARRIVAL_DIURNAL;
	sc->arrivals.rate_per_s = 60;
	sc->arrivals.amplitude = 0.5;
	sc->arrivals.peak_hour = 14;
	for (int i = 0; i < 7; i++)
		sc->arrivals.weekly[i] = 1;
	sc->service.kind = SERVICE_LOGNORMAL;
	sc->service.mean_s = 2.0;
	sc->service.cv = 0.6;
	sc->sizes.input.kind = SIZE_LOGNORMAL;
	sc->sizes.input.mean = 500;
	sc->sizes.input.cv = 1;
}

static void assert_same(const struct request_draw *a, const struct request_draw *b, long i)
{
	ck_assert_msg(a->arrival_us == b->arrival_us && a->service_us == b->service_us &&
		      a->in_tokens == b->in_tokens && a->out_tokens == b->out_tokens && a->model == b->model &&
		      a->nhashes == b->nhashes && a->hashes == NULL && b->hashes == NULL,
		      "request %ld: inline (%lld us, %lld us, %d, %d) but fed (%lld us, %lld us, %d, %d)", i,
		      (long long)a->arrival_us, (long long)a->service_us, a->in_tokens, a->out_tokens,
		      (long long)b->arrival_us, (long long)b->service_us, b->in_tokens, b->out_tokens);
}

/* Draw from w inline and from f side by side until they end, each request the same; returns how many came
 * before the end, whose status (the same from both) goes to *rc. */
static long draw_both(struct workload *w, struct feed *f, struct diag *d1, struct diag *d2, int *rc)
{
	struct request_draw a, b;
	long n = 0;

	for (;;) {
		*rc = workload_next(w, &a, d1);
		ck_assert_int_eq(feed_next(f, &b, d2), *rc);
		if (*rc != STATUS_OK)
			return n;
		assert_same(&a, &b, n++);
	}
}

/* Every request of half an hour from midnight (60/s at 0.57 of the mean: ~60,000; the ring holds 16,384)
 * and the end. */
START_TEST(same_requests_as_workload_next)
{
	uint64_t seed = test_seed("feed same_requests_as_workload_next", 7);
	struct scenario sc;
	struct workload inline_w, fed_w;
	struct feed f;
	struct request_draw b;
	struct diag d1 = {{0}}, d2 = {{0}};
	long n;
	int rc1;

	make_scenario(&sc, seed, 1800.0);
	ck_assert_int_eq(workload_init(&inline_w, &sc, &d1), STATUS_OK);
	ck_assert_int_eq(workload_init(&fed_w, &sc, &d2), STATUS_OK);
	ck_assert(!feed_unsuitable(&fed_w));
	ck_assert_int_eq(feed_start(&f, &fed_w), STATUS_OK);
	n = draw_both(&inline_w, &f, &d1, &d2, &rc1);
	ck_assert_int_eq(rc1, STATUS_DONE);
	ck_assert_int_gt(n, 2 * FEED_BLOCK * FEED_BLOCKS);  /* the ring turned over */
	ck_assert_int_eq(feed_next(&f, &b, &d2), STATUS_DONE);  /* and stays at its end */
	feed_stop(&f);
	workload_fini(&fed_w);
	workload_fini(&inline_w);
}
END_TEST

/*
 * A trace that goes wrong part-way: loaded whole and good, then rewritten with a malformed row (row 20000
 * of 30000, inside the ring's second turn) before the workload opens it, so the failure is found while
 * streaming. Fed, the 19999 rows before it come, then the failure with the same message, then the same
 * failure again.
 */
START_TEST(failure_comes_after_the_requests_before_it)
{
	const int rows = 30000, bad = 20000;
	char text[1024], *trace, *path;
	FILE *fp;
	struct scenario sc;
	struct workload inline_w, fed_w;
	struct feed f;
	struct request_draw b;
	struct diag d0 = {{0}}, d1 = {{0}}, d2 = {{0}};
	long n;
	int rc1;

	trace = test_write_file("feed.csv", "time_s,service_s\n");
	ck_assert_ptr_nonnull(trace);
	ck_assert_ptr_nonnull(fp = fopen(trace, "a"));
	for (int i = 1; i <= rows; i++)
		fprintf(fp, "%.3f,0.5\n", i * 0.01);
	fclose(fp);
	snprintf(text, sizeof text,
		 "name: feed\nseed: 1\nhorizon: 1h\nslo: {latency_s: 20}\n"
		 "workload:\n  arrivals: {kind: trace, path: %s, format: generic,\n"
		 "    columns: {time: time_s, time_format: seconds, service_s: service_s}}\n"
		 "  service: {kind: trace}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 4}\n"
		 "fleet:\n  - {option: reserved, count: 2, scope: zonal}\n", trace);
	path = test_write_file("feed.yaml", text);
	ck_assert_msg(scenario_load(&sc, path, NULL, 0, &d0) == STATUS_OK, "%s", d0.msg);
	/* the same file, row `bad` now malformed */
	ck_assert_ptr_nonnull(fp = fopen(trace, "w"));
	fprintf(fp, "time_s,service_s\n");
	for (int i = 1; i <= rows; i++)
		fprintf(fp, i == bad ? "%.3f,half a second\n" : "%.3f,0.5\n", i * 0.01);
	fclose(fp);
	ck_assert_msg(workload_init(&inline_w, &sc, &d1) == STATUS_OK, "%s", d1.msg);
	ck_assert_msg(workload_init(&fed_w, &sc, &d2) == STATUS_OK, "%s", d2.msg);
	ck_assert_int_eq(feed_start(&f, &fed_w), STATUS_OK);
	n = draw_both(&inline_w, &f, &d1, &d2, &rc1);
	ck_assert_int_eq(n, bad - 1);
	ck_assert_int_lt(rc1, 0);  /* a failure, not the end */
	ck_assert_msg(d1.msg[0] != '\0', "the inline failure has a message");
	ck_assert_str_eq(d2.msg, d1.msg);
	memset(&d2, 0, sizeof d2);
	ck_assert_int_eq(feed_next(&f, &b, &d2), rc1);
	ck_assert_str_eq(d2.msg, d1.msg);
	feed_stop(&f);
	workload_fini(&fed_w);
	workload_fini(&inline_w);
	scenario_fini(&sc);
	test_remove_file(path);
	test_remove_file(trace);
}
END_TEST

/* A feed stopped long before its workload's end (the producer asleep on a full ring, or filling a block)
 * stops, and the workload then goes on inline from where the producer left it: later requests, in order. */
START_TEST(stop_before_the_end)
{
	struct scenario sc;
	struct workload w;
	struct feed f;
	struct request_draw r, after;
	struct diag d = {{0}};
	int64_t last = -1;

	make_scenario(&sc, 3, 30 * 86400.0);  /* about 1e8 requests: never reached */
	ck_assert_int_eq(workload_init(&w, &sc, &d), STATUS_OK);
	for (int round = 0; round < 3; round++) {
		ck_assert_int_eq(feed_start(&f, &w), STATUS_OK);
		for (int i = 0; i < 10 + round * FEED_BLOCK; i++) {
			ck_assert_int_eq(feed_next(&f, &r, &d), STATUS_OK);
			ck_assert_int_ge(r.arrival_us, last);
			last = r.arrival_us;
		}
		feed_stop(&f);
		ck_assert_int_eq(workload_next(&w, &after, &d), STATUS_OK);
		ck_assert_int_ge(after.arrival_us, last);  /* drawn after what the producer drew */
		last = after.arrival_us;
	}
	workload_fini(&w);
}
END_TEST

/* Draws that carry prefix ids point into the workload's buffer: no feed for them. */
START_TEST(no_feed_for_prefix_ids)
{
	struct scenario sc;
	struct workload w;
	struct feed f;
	struct diag d = {{0}};

	make_scenario(&sc, 1, 60.0);
	sc.reuse.share = 0.5;
	sc.reuse.conversations = 10;
	sc.reuse.block_tokens = 16;
	ck_assert_msg(workload_init(&w, &sc, &d) == STATUS_OK, "%s", d.msg);
	if (w.reuse == NULL) {
		workload_fini(&w);
		ck_abort_msg("the scenario did not turn the reuse model on: the test needs it");
	}
	ck_assert(feed_unsuitable(&w));
	ck_assert_int_eq(feed_start(&f, &w), STATUS_EINTERNAL);
	workload_fini(&w);
	make_scenario(&sc, 1, 60.0);
	sc.arrivals.kind = ARRIVAL_TRACE;
	strcpy(sc.arrivals.mapping.hash_column, "hash_ids");
	w.sc = &sc;
	w.reuse = NULL;
	ck_assert(feed_unsuitable(&w));
	sc.arrivals.mapping.hash_column[0] = '\0';
	ck_assert(!feed_unsuitable(&w));
}
END_TEST

/* Held to one CPU, a process gains nothing from a second thread (feed_worthwhile false); with two or more
 * allowed it does. (Check runs each test in a process of its own: the pinning ends with it.) */
START_TEST(not_worthwhile_on_one_cpu)
{
	cpu_set_t all, one;
	int first = -1;

	ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
	if (CPU_COUNT(&all) >= 2)
		ck_assert(feed_worthwhile());
	for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &all))
			first = c;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
	ck_assert(!feed_worthwhile());
}
END_TEST

static Suite *feed_suite(void)
{
	Suite *s = suite_create("feed");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	test_add(tc, same_requests_as_workload_next);
	test_add(tc, failure_comes_after_the_requests_before_it);
	test_add(tc, stop_before_the_end);
	test_add(tc, no_feed_for_prefix_ids);
	test_add(tc, not_worthwhile_on_one_cpu);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(feed_suite());
}
