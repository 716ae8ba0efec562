/*
 * check_spot: Spot in whole runs, against figures computed by hand (in the comments): a price that changes
 * mid-instance, a trace capped at On-Demand, a fixed discount, interruptions at a rate (Poisson) and from a trace
 * (at its ticks), pool reclaims, interrupted requests (requeue and drop), the 60 s minimum, the free first hour
 * of an interrupted instance and its edges, and draining under notice.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

#define CENT 0.005

static struct capture cap;
static char yaml[8192];

static void run_yaml(const char *text, const char *const *sets, int nsets)
{
	capture_run(&cap, text, sets, nsets);
}

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/* A light load (1 request/s of 1 s on 8-slot p5.48xlarge) and a fleet given by the caller. */
static const char *light(const char *horizon, const char *fleet, const char *extra)
{
	snprintf(yaml, sizeof yaml,
		 "name: cap\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: %s\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: p5.48xlarge, slots_per_instance: 8, startup_s: 600}\n"
		 "fleet:\n%s%s", horizon, fleet, extra ? extra : "");
	return yaml;
}

/*
 * Random streams are named by what they serve (fleet_private.h): an entry of another kind added before a
 * Spot entry leaves its draws as they were. A Spot entry of 4 instances at 0.05 interruptions per
 * instance-hour over 48 h, alone, then after an on-demand entry and a reserved entry that hold nothing
 * (count 0, max 0: they change no allocation): the same interruptions at the same microseconds, and the same
 * Spot bill to the cent. (Named by their place in the whole list, as before, the Spot entry's stream would
 * have been another.)
 */
START_TEST(streams_follow_the_entry_not_its_place)
{
	double t[2][64], usd[2];
	int n[2];

	for (int v = 0; v < 2; v++) {
		snprintf(yaml, sizeof yaml,
			 "name: streams\nseed: 11\nhorizon: 48h\nslo: {latency_s: 10}\n"
			 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 1}\n"
			 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, startup_s: 60}\n"
			 "fleet:\n%s  - {option: spot, count: 4, max: 8, interruptions_per_hour: 0.05}\n",
			 v ? "  - {option: on_demand, count: 0, max: 0}\n  - {option: reserved, count: 0, scope: zonal}\n" : "");
		run_yaml(yaml, NULL, 0);
		n[v] = capture_count(&cap, "interrupt");
		ck_assert_int_lt(n[v], 64);
		for (int i = 0; i < n[v]; i++)
			t[v][i] = capture_find(&cap, "interrupt", i)->t_s;
		usd[v] = M("cost_spot_usd");
	}
	ck_assert_int_gt(n[0], 2);
	ck_assert_int_eq(n[0], n[1]);
	for (int i = 0; i < n[0]; i++)
		ck_assert_double_eq(t[0][i], t[1][i]);
	ck_assert_double_eq_tol(usd[0], usd[1], CENT);
}
END_TEST

/* ---- Spot ---------------------------------------------------------------------------------------- */

START_TEST(spot_price_changes_mid_instance)
{
	/* g6.xlarge Spot from a price history: $0.10 until 00:30, $0.30 after. One instance for the 1 h
	 * window: 0.5 x 0.10 + 0.5 x 0.30 = $0.20 */
	char fleet[512];
	snprintf(fleet, sizeof fleet, "  - {option: spot, count: 1, max: 1, price_trace: %s/capacity/prices.txt}\n",
		 TEST_DATA_DIR);
	snprintf(yaml, sizeof yaml,
		 "name: spotprice\nstart: 2026-01-01T00:00:00Z\nhorizon: 1h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge}\nfleet:\n%s", fleet);
	run_yaml(yaml, NULL, 0);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 0.20, 1e-9);
	ck_assert_double_eq(M("spot_interruptions"), 0);
}
END_TEST

START_TEST(spot_trace_capped_at_on_demand)
{
	/* Spot never costs more than On-Demand (SOURCES.md [spot-max-od]): g6.xlarge (On-Demand $0.8048/h)
	 * from a history of $0.50 until 00:30, $1.20 from 00:30 and $0.90 from 00:45; both later prices are
	 * capped at 0.8048.
	 * One instance for the 1 h window: 0.5 x 0.50 + 0.25 x 0.8048 + 0.25 x 0.8048 = $0.6524 (uncapped:
	 * 0.25 + 0.30 + 0.225 = $0.775). */
	char fleet[512];
	snprintf(fleet, sizeof fleet, "  - {option: spot, count: 1, price_trace: %s/capacity/prices_above_od.txt}\n",
		 TEST_DATA_DIR);
	snprintf(yaml, sizeof yaml,
		 "name: spotcap\nstart: 2026-01-01T00:00:00Z\nhorizon: 1h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge}\nfleet:\n%s", fleet);
	run_yaml(yaml, NULL, 0);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 0.6524, 1e-9);
}
END_TEST

START_TEST(spot_fixed_discount)
{
	/* 2 g6.xlarge at 0.8048 x (1 - 0.6) = 0.32192 $/h for 5 h = $3.2192 */
	snprintf(yaml, sizeof yaml,
		 "name: spotfixed\nhorizon: 5h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge}\nfleet:\n  - {option: spot, count: 2, max: 2, discount: 0.6}\n");
	run_yaml(yaml, NULL, 0);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 2 * 0.8048 * 0.4 * 5, 1e-9);
}
END_TEST

START_TEST(spot_interruptions_follow_the_rate)
{
	/*
	 * 100 Spot instances, 0.05 interruptions per instance-hour, 200 h. Each notice launches a
	 * replacement at once (max 200 leaves room beside the draining one), so 100 instances are always
	 * exposed: rate x instance-hours = 0.05 x 100 x 200 = 1000. The count is Poisson(1000): the test
	 * allows 4 sd = 4 x sqrt(1000) = 126.5 (a false alarm about 6e-5); a rate off by 20% is caught.
	 */
	uint64_t seed = test_seed("spot_rate", 17);
	char s_seed[48];
	const char *sets[] = { s_seed };
	snprintf(s_seed, sizeof s_seed, "seed=%llu", (unsigned long long)seed);
	snprintf(yaml, sizeof yaml,
		 "name: spotrate\nhorizon: 200h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, startup_s: 60}\n"
		 "fleet:\n  - {option: spot, count: 100, max: 200, interruptions_per_hour: 0.05}\n");
	run_yaml(yaml, sets, 1);
	double n = M("spot_interruptions"), expect = 0.05 * 100 * 200;
	fprintf(stderr, "spot interruptions %g, expected %g +- %g\n", n, expect, 4 * sqrt(expect));
	ck_assert_double_le(fabs(n - expect), 4 * sqrt(expect));
	ck_assert_double_lt(4 * sqrt(expect), 0.2 * expect);
	/* the instance-hours really were ~20000: paid Spot GPU-hours (1 GPU each) within 2% */
	ck_assert_double_eq_tol(M("gpu_hours_paid_spot"), 20000, 400);
}
END_TEST

START_TEST(spot_trace_interrupts_at_its_ticks)
{
	/*
	 * The availability trace (600 s ticks) shows 4, 4, 2, 2, 0, 4...: 2 notices at 1200 s, 2 more at
	 * 2400 s, each taken 120 s later; replacements come from the on-demand entry after the spot one.
	 */
	const struct capture_event *e;
	char fleet[512];
	snprintf(fleet, sizeof fleet,
		 "  - {option: spot, count: 4, max: 8, availability_trace: %s/capacity/avail_ticks.json}\n"
		 "  - {option: on_demand, max: 4}\n", TEST_DATA_DIR);
	run_yaml(light("2h", fleet, NULL), NULL, 0);
	ck_assert_double_eq(M("spot_interruptions"), 4);
	ck_assert_int_eq(capture_count(&cap, "interrupt"), 4);
	for (int i = 0; i < 4; i++) {
		e = capture_find(&cap, "interrupt", i);
		ck_assert_double_eq_tol(e->t_s, i < 2 ? 1200 : 2400, 1e-9);
		ck_assert_str_eq(e->option, "spot");
	}
	/*
	 * Each is taken notice_s = 120 s after its notice (SOURCES.md [spot-notice-2min]) unless it finishes
	 * its requests first (a drained instance goes at once). The load (1 request/s of 1 s) sits on the
	 * first instance in fleet order and notices go to the newest: the two noticed at 1200 s are idle and
	 * go at 1200 + 120 = 1320 s; at 2400 s the last two are noticed, the idle one goes at 2520 s, the
	 * loaded one when its request ends, at most 1 s later (2400 s here, its request ending then).
	 */
	int at_notice_end = 0;
	ck_assert_int_eq(capture_count(&cap, "terminate"), 4);
	for (int i = 0; i < 4; i++) {
		double noticed = i < 2 ? 1200 : 2400, t = capture_find(&cap, "terminate", i)->t_s;
		ck_assert_double_ge(t, noticed);
		ck_assert_double_le(t, noticed + 120 + 1e-9);
		at_notice_end += fabs(t - (noticed + 120)) < 1e-9;
	}
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 1320, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 1)->t_s, 1320, 1e-9);
	ck_assert_int_eq(at_notice_end, 3);
	/* spot relaunches fail while the trace shows no room; the on-demand entry stands in */
	ck_assert(M("launch_failures") >= 1);
	ck_assert(M("cost_on_demand_usd") > 0);
	ck_assert_double_eq(M("requests_dropped"), 0);
	/* notice_s set: the idle ones noticed at 1200 s go at 1200 + 300 = 1500 s */
	const char *notice[] = { "fleet.0.notice_s=300" };
	run_yaml(light("2h", fleet, NULL), notice, 1);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 1500, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 1)->t_s, 1500, 1e-9);
}
END_TEST

START_TEST(interrupted_requests_requeue_or_drop)
{
	/* Long requests (300 s) on Spot instances interrupted often: in-flight work is either put back in
	 * the queue (everything still served) or dropped (counted, and violating the SLO). An async endpoint,
	 * so that a moment with every instance interrupted queues the arrivals rather than refusing them. */
	const char *fleet = "  - {option: spot, count: 4, max: 8, interruptions_per_hour: 2}\n"
			    "  - {option: on_demand, max: 8}\n";
	const char *sets_req[] = { "workload.service.mean_s=300", "serving.on_interrupt=requeue",
				   "serving.endpoint=async" };
	const char *sets_drop[] = { "workload.service.mean_s=300", "serving.on_interrupt=drop",
				    "serving.endpoint=async" };

	run_yaml(light("6h", fleet, NULL), sets_req, 3);
	ck_assert(M("requests_interrupted") > 0);
	ck_assert_double_eq(M("requests_dropped"), 0);
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
	run_yaml(light("6h", fleet, NULL), sets_drop, 3);
	ck_assert(M("requests_interrupted") > 0);
	ck_assert_double_eq(M("requests_interrupted_dropped"), M("requests_interrupted"));
	ck_assert_double_eq(M("requests_served") + M("requests_dropped"), M("requests_total"));
	ck_assert(M("slo_violations") >= M("requests_interrupted"));
}
END_TEST

/* A Spot-only fleet of 4 g6.xlarge (max 8) under a light load, with pool reclaims as given. */
static const char *reclaim_pool(const char *horizon, const char *reclaims)
{
	snprintf(yaml, sizeof yaml,
		 "name: reclaim\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: %s\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, startup_s: 60}\n"
		 "fleet:\n  - {option: spot, count: 4, max: 8, %s}\n", horizon, reclaims);
	return yaml;
}

START_TEST(spot_pool_reclaims_take_a_fraction_and_close_the_pool)
{
	/*
	 * Each reclaim gives a notice to ceil(reclaim_fraction x running) instances, newest first, and closes
	 * the pool for an exponential time of mean outage_mean_s (SOURCES.md [spot-pool-reclaims]). With a
	 * mean outage of 300 days the pool never reopens in 2 days (each draw is under 2 days with probability
	 * 1 - exp(-2/300) = 0.7%), so the running count only falls: 4, then 4 - ceil(0.5 x 4) = 2, then
	 * 2 - ceil(0.5 x 2) = 1, then 1 - ceil(0.5 x 1) = 0: the reclaims take 2, 1, 1, then 0 (4 a day, about
	 * 8 in 2 days: this seed has at least 3). spot_interruptions = 2 + 1 + 1 = 4; each is taken 120 s
	 * after its reclaim.
	 */
	int running = 4, taken = 0, n;

	run_yaml(reclaim_pool("2d", "reclaims_per_day: 4, reclaim_fraction: 0.5, outage_mean_s: 300d"), NULL, 0);
	n = capture_count(&cap, "spot_reclaim");
	ck_assert_int_ge(n, 3);
	ck_assert_int_eq(capture_count(&cap, "launch"), 0);  /* the pool never reopened */
	for (int i = 0; i < n; i++) {
		int k = (int)ceil(0.5 * running);
		ck_assert_int_eq(capture_find(&cap, "spot_reclaim", i)->count, k);
		running -= k;
		taken += k;
	}
	ck_assert_int_eq(taken, 4);
	ck_assert_double_eq(M("spot_interruptions"), 4);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 4);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s,
				capture_find(&cap, "spot_reclaim", 0)->t_s + 120, 1e-6);
	/*
	 * The launch-retry backoff (SOURCES.md [launch-retry-backoff]): the replacements asked for at the
	 * first reclaim t1 fail (the pool is closed) and are retried after 30 s, then each wait doubles up to
	 * 600 s: failures at t1 + 0, 30, 90, 210, 450, 930, 1530, 2130 (waits 30, 60, 120, 240, 480, 600,
	 * 600), as long as no second reclaim comes first (this seed: the second is 10400 s later).
	 */
	const double at[] = { 0, 30, 90, 210, 450, 930, 1530, 2130 };
	double t1 = capture_find(&cap, "spot_reclaim", 0)->t_s;
	ck_assert_double_gt(capture_find(&cap, "spot_reclaim", 1)->t_s, t1 + 2130);
	for (int i = 0; i < 8; i++) {
		const struct capture_event *e = capture_find(&cap, "launch_failed", i);
		ck_assert_ptr_nonnull(e);
		ck_assert_double_eq_tol(e->t_s, t1 + at[i], 1e-6);
	}
}
END_TEST

START_TEST(spot_pool_reclaims_follow_their_rate_and_outage)
{
	/*
	 * 2 reclaims a day for 50 days: their count is Poisson(100); the test allows 4 sd = 40 (a rate off by
	 * half is caught). After each, the pool is closed for an exponential time of mean 1 h (the default
	 * outage_mean_s); the replacements, retried with the backoff above (waits up to 600 s), launch at the
	 * first retry after it reopens: the delay D from the reclaim to that launch is the outage plus at most
	 * 600 s. Counting only delays that end before the next reclaim (the next one is an exponential of mean
	 * 12 h away) conditions the outage to a mean of 1 / (1/1 h + 1/12 h) = 3323 s, so the mean of D lies
	 * in [3323, 3600 + 600 = 4200] s, give or take 4 standard errors of the mean, 4 x 3600 / sqrt(n) s.
	 */
	double sum = 0;
	int n = 0, nreclaims, nlaunch;

	uint64_t seed = test_seed("spot_reclaims", 3);
	char s_seed[48];
	const char *sets[] = { s_seed };
	snprintf(s_seed, sizeof s_seed, "seed=%llu", (unsigned long long)seed);
	run_yaml(reclaim_pool("50d", "reclaims_per_day: 2, reclaim_fraction: 0.5"), sets, 1);
	nreclaims = capture_count(&cap, "spot_reclaim");
	nlaunch = capture_count(&cap, "launch");
	ck_assert_int_le(abs(nreclaims - 100), 40);
	for (int i = 0; i < nreclaims; i++) {
		double t = capture_find(&cap, "spot_reclaim", i)->t_s;
		double next = i + 1 < nreclaims ? capture_find(&cap, "spot_reclaim", i + 1)->t_s : INFINITY;
		for (int j = 0; j < nlaunch; j++) {
			double l = capture_find(&cap, "launch", j)->t_s;
			if (l <= t)
				continue;
			if (l < next) {
				sum += l - t;
				n++;
			}
			break;
		}
	}
	double mean = sum / n, se = 3600 / sqrt(n);
	fprintf(stderr, "spot reclaims %d (expected 100 +- 40); mean delay to relaunch %.0f s over %d,"
		" expected in [%.0f, %.0f]\n", nreclaims, mean, n, 3323 - 4 * se, 4200 + 4 * se);
	ck_assert_int_ge(n, 50);
	ck_assert_double_ge(mean, 3323 - 4 * se);
	ck_assert_double_le(mean, 4200 + 4 * se);
}
END_TEST


END_TEST

START_TEST(spot_pays_60s_minimum)
{
	/* A 60 s spike at 600 s makes target tracking launch 2 Spot instances at 660 s; the next evaluation
	 * (720 s) scales in and cancels them before they serve: 2 x 60 s at $36/h = $1.20 */
	run_yaml("name: spotmin\nhorizon: 1h\nslo: {latency_s: 5}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 600s, rate_per_s: 30},"
		 " {at: 660s, rate_per_s: 10}]}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 600}\n"
		 "catalog: {g6.xlarge: {usd_per_h: 36}}\n"
		 "fleet:\n  - {option: reserved, count: 4, usd_per_h: 10, scope: zonal}\n  - {option: spot, max: 6, usd_per_h: 36}\n"
		 "autoscaling: {policy: target_tracking, target: 0.55, min: 4, max: 10,"
		 " scale_out_datapoints: 1, scale_in_datapoints: 1}\n", NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "cancel"), 2);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 1.20, 1e-9);
	/*
	 * The run above lives exactly 60 s, so it cannot see the minimum. Here a scheduled action raises min
	 * to 3 at 600 s (2 Spot launches beside a $0 reserved instance) and the next lowers max to 1 at 630 s,
	 * cancelling both 30 s after launch (stopped by us, not interrupted by EC2: no free first hour).
	 * Billed 60 s each: 2 x 60 / 3600 x $36/h = $1.20 (per second without the minimum: $0.60).
	 */
	run_yaml("name: spotmin30\nstart: 2026-01-01T00:00:00Z\nhorizon: 1h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, startup_s: 600}\ncatalog: {g6.xlarge: {usd_per_h: 36}}\n"
		 "fleet:\n  - {option: reserved, count: 1, usd_per_h: 0, scope: zonal}\n  - {option: spot, max: 2, usd_per_h: 36}\n"
		 "autoscaling: {policy: none, schedule: [{at: 2026-01-01T00:10:00Z, min: 3},"
		 " {at: 2026-01-01T00:10:30Z, min: 1, max: 1}]}\n", NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "launch"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "launch", 0)->t_s, 600, 1e-9);
	ck_assert_int_eq(capture_count(&cap, "cancel"), 2);
	for (int i = 0; i < 2; i++)
		ck_assert_double_eq_tol(capture_find(&cap, "cancel", i)->t_s, 630, 1e-9);
	ck_assert_double_eq(M("spot_interruptions"), 0);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 1.20, 1e-9);
}
END_TEST

/*
 * Two g6.xlarge Spot instances at $0.50/h launched at t = 0 by a scheduled action (so inside the window:
 * a reserved instance at $0 carries the first place of the fleet and the light load), ready at 600 s. The
 * availability trace (600 s ticks) shows 2, then 1 from 1800 s, 0 from 4200 s: one notice at 1800 s, the
 * other at 4200 s, each taken 120 s later (idle instances wait out their notice).
 */
static const char *spot_first_hour(void)
{
	snprintf(yaml, sizeof yaml,
		 "name: spotfree\nstart: 2026-01-01T00:00:00Z\nhorizon: 2h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, startup_s: 600}\n"
		 "fleet:\n  - {option: reserved, count: 1, usd_per_h: 0, scope: zonal}\n"
		 "  - {option: spot, max: 2, usd_per_h: 0.5, availability_trace: %s/capacity/avail_first_hour.json}\n"
		 "autoscaling: {policy: none, schedule: [{at: 2026-01-01T00:00:00Z, min: 3}]}\n", TEST_DATA_DIR);
	return yaml;
}

START_TEST(spot_interrupted_in_first_hour_is_free)
{
	/*
	 * SOURCES.md [spot-billing], Linux, interrupted by Amazon EC2: "Interrupted in the first hour: No
	 * charge", "Interrupted in any hour after the first hour: Charged for the seconds used".
	 * The first instance is taken at 1920 s, 1920 s after its launch: free. The second is taken at 4320 s,
	 * in its second hour: 4320 s x $0.50/h = $0.60. Without the rule: (1920 + 4320) / 3600 x 0.5 = $0.8667.
	 * Both count as paid GPU-hours (the free one at $0): (1920 + 4320) / 3600 = 1.7333.
	 */
	run_yaml(spot_first_hour(), NULL, 0);
	ck_assert_double_eq(M("spot_interruptions"), 2);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 2);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 1920, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 1)->t_s, 4320, 1e-9);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 0.60, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid_spot"), 6240 / 3600.0, 1e-9);
}
END_TEST

START_TEST(spot_first_hour_edges)
{
	/* Still under notice at the horizon (1900 s): the first instance would be taken at 1920 s, inside
	 * its first hour, so it is free; the second runs to the horizon: 1900 / 3600 x 0.5 = $0.263889. */
	const char *at_horizon[] = { "horizon=1900s" };
	run_yaml(spot_first_hour(), at_horizon, 1);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 1900 / 3600.0 * 0.5, 1e-9);
	/* both count as paid up to the horizon, the free one at $0: 2 x 1900 / 3600 GPU-hours */
	ck_assert_double_eq_tol(M("gpu_hours_paid_spot"), 2 * 1900 / 3600.0, 1e-9);
	/* A 35-minute notice: the notice comes in the first hour (1800 s) but the instance is taken at 3900 s,
	 * in its second hour: charged. The second, noticed at 4200 s, is taken at 6300 s.
	 * (3900 + 6300) / 3600 x 0.5 = $1.416667. */
	const char *long_notice[] = { "fleet.1.notice_s=35m" };
	run_yaml(spot_first_hour(), long_notice, 1);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 10200 / 3600.0 * 0.5, 1e-9);
	/* In service at t = 0 (count 2): launched before the window at an unknown time, so never taken to be
	 * in its first hour: both pay, (1920 + 4320) / 3600 x 0.5 = $0.866667. */
	const char *warm[] = { "fleet.1.count=2" };
	run_yaml(spot_first_hour(), warm, 1);
	ck_assert_int_eq(capture_count(&cap, "launch"), 0);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 6240 / 3600.0 * 0.5, 1e-9);
}
END_TEST

START_TEST(spot_drained_under_notice_counts_as_interrupted)
{
	/*
	 * Overload (a 45 s request every 10 s, 1 slot per instance) keeps every instance busy back to back.
	 * The Spot instances serve from 600 s; the one noticed at 1800 s is in the request it started at
	 * 600 + 26 x 45 = 1770 s, finishes it at 1815 s and is terminated then, before its notice runs out
	 * (1920 s). The notice came from EC2, so it was interrupted in its first hour: free. The other runs to
	 * the 1 h horizon: 3600 s x $0.50/h = $0.50 (without the rule: 0.5 + 1815 / 3600 x 0.5 = $0.752083).
	 */
	const char *sets[] = { "horizon=1h", "workload.arrivals.rate_per_s=0.1", "workload.service.mean_s=45",
			       "serving.slots_per_instance=1" };
	run_yaml(spot_first_hour(), sets, 4);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 1815, 1e-9);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 0.50, 1e-9);
	/* paid GPU-hours: the free one's 1815 s (at $0) and the other's 3600 s */
	ck_assert_double_eq_tol(M("gpu_hours_paid_spot"), (1815 + 3600) / 3600.0, 1e-9);
}
END_TEST

/*
 * The first hour's edge, exactly (SOURCES.md [spot-billing]: "Interrupted in the first hour: No charge";
 * free_interruption: 3600 s exactly is not in the first hour). The run of spot_first_hour: both instances
 * launched at t = 0, noticed at 1800 s and 4200 s, $0.50/h.
 *  - notice 30 min: the first is taken at 1800 + 1800 = 3600 s, exactly 1 h after its launch: charged,
 *    3600 s = $0.50; the second is taken at 4200 + 1800 = 6000 s: 6000 / 3600 x 0.5 = $0.833333.
 *    $1.333333 in all (with the first free: $0.833333).
 *  - notice 1799 s: the first is taken at 3599 s, a second inside its first hour: free; the second at
 *    4200 + 1799 = 5999 s: 5999 / 3600 x 0.5 = $0.833194 in all.
 */
START_TEST(spot_first_hour_ends_at_exactly_3600_s)
{
	const char *hour[] = { "fleet.1.notice_s=30m" };
	run_yaml(spot_first_hour(), hour, 1);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 2);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 3600, 1e-9);
	ck_assert_double_eq_tol(M("cost_spot_usd"), (3600 + 6000) / 3600.0 * 0.5, 1e-9);
	const char *under[] = { "fleet.1.notice_s=1799s" };
	run_yaml(spot_first_hour(), under, 1);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 3599, 1e-9);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 5999 / 3600.0 * 0.5, 1e-9);
}
END_TEST

/*
 * Under notice at the horizon, the first hour is judged at the end of the notice, when AWS would take it
 * (free_interruption). Horizon 3599 s, notice 30 min: the first instance, noticed at 1800 s, would be
 * taken at 3600 s, exactly 1 h after its launch, not in its first hour: it pays its 3599 s like the second,
 * which no notice reaches and which AWS does not interrupt: 2 x 3599 / 3600 x 0.5 = $0.999722 (with the
 * first free: $0.499861). Horizon 3599 s, notice 1799 s: the first is taken at 3599 s, the horizon itself,
 * 3599 s after its launch: free; the second pays 3599 s: $0.499861.
 * Horizon 1800 s, the trace's drop to 1: its tick at exactly the horizon still runs (events at the horizon
 * do), so the newest instance gets its notice then; it would be taken at 1920 s, in its first hour: free,
 * and the other pays 1800 s: $0.25 (no notice: both pay, $0.50), one interruption. The same run with
 * reclaims_per_day: 1e-10, whose mean gap (8.64e20 us) is past the clock's range: no reclaim is ever
 * scheduled, and the run is as without it (SOURCES.md [rate-never]).
 */
START_TEST(spot_first_hour_at_the_horizon)
{
	const char *hour[] = { "horizon=3599s", "fleet.1.notice_s=30m" };
	run_yaml(spot_first_hour(), hour, 2);
	ck_assert_double_eq(M("spot_interruptions"), 1);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 2 * 3599 / 3600.0 * 0.5, 1e-9);
	const char *under[] = { "horizon=3599s", "fleet.1.notice_s=1799s" };
	run_yaml(spot_first_hour(), under, 2);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 3599 / 3600.0 * 0.5, 1e-9);
	/* both count as paid to the horizon, the free one at $0 */
	ck_assert_double_eq_tol(M("gpu_hours_paid_spot"), 2 * 3599 / 3600.0, 1e-9);
	const char *tick[] = { "horizon=1800s", "fleet.1.reclaims_per_day=1e-10" };
	run_yaml(spot_first_hour(), tick, 2);
	ck_assert_int_eq(cap.end_status, STATUS_OK);
	ck_assert_double_eq(M("spot_interruptions"), 1);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 1800 / 3600.0 * 0.5, 1e-9);
}
END_TEST

/*
 * Azure Spot at scale-in (SOURCES.md [az-spot-eviction-policy]): only an eviction (the end of a notice)
 * leaves a deallocated VM; a VM the fleet scales in is deleted by the fleet, and nothing remains. Two Spot VMs
 * ($1/h, eviction policy deallocate, disks $0.5/h, a quota of 2 Spot VMs, no availability limit, no
 * interruption) launched at t = 0 by a scheduled min of 2; at 1200 s max 1 scales one in; at 2400 s min
 * and max 2 launch one again, which the quota allows only if the scaled-in VM holds no quota.
 * Bill, whole minutes (Azure): 3600 s + 1200 s + 1200 s = 6000 s x $1/h = $1.666667; no disks, no
 * deallocated VM, no interruption; launches of 2 VMs at 0 s and 1 at 2400 s.
 */
START_TEST(azure_spot_scale_in_is_not_an_eviction)
{
	run_yaml("name: azin\nseed: 1\nstart: 2026-01-01T00:00:00Z\nhorizon: 1h\nprovider: azure\nslo: {latency_s: 100}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: Standard_NC24ads_A100_v4, slots_per_instance: 8, startup_s: 0}\n"
		 "catalog:\n  Standard_NC24ads_A100_v4: {usd_per_h: 4}\nquotas: {spot_instances: 2}\n"
		 "fleet:\n  - {option: spot, max: 2, usd_per_h: 1, disk_usd_per_h: 0.5}\n"
		 "autoscaling: {policy: none, min: 0, max: 2, schedule: [{at: 2026-01-01T00:00:00Z, min: 2},"
		 " {at: 2026-01-01T00:20:00Z, min: 1, max: 1}, {at: 2026-01-01T00:40:00Z, min: 2, max: 2}]}\n",
		 NULL, 0);
	ck_assert_double_eq(M("spot_interruptions"), 0);
	ck_assert_double_eq(M("spot_deallocated"), 0);
	ck_assert_double_eq_tol(M("spot_disk_usd"), 0, 1e-12);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 1200, 1e-9);
	ck_assert_int_eq(capture_count(&cap, "launch"), 2);  /* 2 VMs at 0 s, 1 at 2400 s */
	ck_assert_int_eq(capture_find(&cap, "launch", 1)->count, 1);
	ck_assert_double_eq_tol(capture_find(&cap, "launch", 1)->t_s, 2400, 1e-9);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 6000 / 3600.0, 1e-9);
	/* an AWS Spot entry has no eviction policy: no deallocation metric is reported, and its two instances
	 * interrupted by the trace (spot_interrupted_in_first_hour_is_free) are terminated, not deallocated */
	run_yaml(spot_first_hour(), NULL, 0);
	ck_assert(isnan(capture_metric(&cap, "spot_deallocated")));
	ck_assert_double_eq(M("spot_interruptions"), 2);
	ck_assert_int_eq(capture_count(&cap, "deallocate"), 0);
}
END_TEST

static Suite *spot_suite(void)
{
	Suite *s = suite_create("spot");
	TCase *tc = tcase_create("spot");

	tcase_set_timeout(tc, 120);
	test_add(tc, spot_price_changes_mid_instance);
	test_add(tc, spot_trace_capped_at_on_demand);
	test_add(tc, spot_fixed_discount);
	test_add(tc, spot_interruptions_follow_the_rate);
	test_add(tc, streams_follow_the_entry_not_its_place);
	test_add(tc, spot_trace_interrupts_at_its_ticks);
	test_add(tc, interrupted_requests_requeue_or_drop);
	test_add(tc, spot_pool_reclaims_take_a_fraction_and_close_the_pool);
	test_add(tc, spot_pool_reclaims_follow_their_rate_and_outage);
	test_add(tc, spot_pays_60s_minimum);
	test_add(tc, spot_interrupted_in_first_hour_is_free);
	test_add(tc, spot_first_hour_edges);
	test_add(tc, spot_drained_under_notice_counts_as_interrupted);
	test_add(tc, spot_first_hour_ends_at_exactly_3600_s);
	test_add(tc, spot_first_hour_at_the_horizon);
	test_add(tc, azure_spot_scale_in_is_not_an_eviction);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(spot_suite());
}
