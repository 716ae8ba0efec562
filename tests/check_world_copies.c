/*
 * check_world_copies: whole runs with model copies on instances (SageMaker inference components; copies.h):
 * copies moved by a schedule down to zero and back with the instances following, target tracking on the
 * per-copy metric placing copies on room before launching instances and emptying instances to release
 * them, and copies lost with their instance (a Capacity Block's end) loaded again elsewhere. Every
 * timeline is worked out by hand from the rules in copies.h.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "testutil.h"

static struct capture cap;

#define M(name) capture_metric(&cap, name)

/* Events of kind `kind` (and option, unless NULL) in [t0_s, t1_s], their counts added up. */
static int count_between(const char *kind, const char *option, double t0_s, double t1_s)
{
	int n = 0;

	for (int i = 0; i < cap.nevents; i++) {
		const struct capture_event *e = &cap.events[i];
		if (strcmp(e->kind, kind) == 0 && (!option || strcmp(e->option, option) == 0) &&
		    e->t_s >= t0_s && e->t_s <= t1_s)
			n += e->count;
	}
	return n;
}

/*
 * g6.12xlarge has 4 GPUs; 2 GPUs a copy -> 2 copies an instance, 1 slot a copy. Instances start in 60 s,
 * copies load in 30 s. 3 copies at t = 0 -> 2 instances warm (2 + 1 copies). A request every 70 s.
 */
static const char scheduled[] =
	"name: copies-scheduled\nhorizon: 1h\nslo: {latency_s: 3600}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 0.0142857142857}\n"
	"  service: {kind: constant, mean_s: 1}\n"
	"serving:\n  queue: central\n  routing: first_free\n  instance_type: g6.12xlarge\n  startup_s: 60\n"
	"  copies: {gpus_per_copy: 2, slots_per_copy: 1, startup_s: 30, initial: 3}\n"
	"fleet:\n  - {option: on_demand, max: 3, usd_per_h: 1}\n"
	"autoscaling:\n  policy: none\n  schedule:\n"
	"    - {at: 2026-01-01T00:10:00Z, min: 5, max: 5}\n"
	"    - {at: 2026-01-01T00:20:00Z, min: 1, max: 1}\n"
	"    - {at: 2026-01-01T00:30:00Z, min: 0, max: 0}\n"
	"    - {at: 2026-01-01T00:40:00Z, min: 3, max: 3}\n";

START_TEST(copies_scale_to_zero_and_back_with_their_instances)
{
	/*
	 * By hand:
	 *  - 0 s: 2 instances, 3 copies serving (warm).
	 *  - 600 s: 5 copies: 1 goes to instance 1's free room (loads until 630); 1 waits and no room is coming
	 *    -> 1 instance launches (ready 660), where it loads until 690.
	 *  - 1200 s: 1 copy: 4 removed, each from the instance holding the fewest (ties: the highest index):
	 *    instance 2's one, instance 1's two, one of instance 0's. Instances 1 and 2 hold none -> released
	 *    (they terminate at once: nothing in service).
	 *  - 1800 s: 0 copies: the last is removed, instance 0 released: no instance at all.
	 *  - 2400 s: 3 copies: no room -> 2 instances launch (ready 2460): 2 copies on the first, 1 on the
	 *    second, serving at 2490.
	 * The endpoint is real-time (the default): a request that comes while no copy serves is refused
	 * (SOURCES.md [sm-realtime-refuse-at-zero]: "any attempts to invoke the endpoint will produce an
	 * error"). Requests come at 70k s, k = 1..51; no copy serves in [1800, 2490): k = 26 (1820 s) to 35
	 * (2450 s), 10 requests refused, the other 41 served at once (one 1 s request at a time, never two at
	 * once): nobody waits.
	 */
	capture_run(&cap, scheduled, NULL, 0);
	ck_assert_int_eq(count_between("start", "on_demand", 0, 0), 2);
	ck_assert_int_eq(count_between("start", "copies", 0, 0), 3);

	ck_assert_int_eq(count_between("copy_load", NULL, 600, 600), 1);
	ck_assert_int_eq(count_between("launch", "on_demand", 600, 600), 1);
	ck_assert_int_eq(count_between("ready", NULL, 660, 660), 1);
	ck_assert_int_eq(count_between("copy_load", NULL, 660, 660), 1);
	ck_assert_int_eq(count_between("copy_ready", NULL, 630, 630), 1);
	ck_assert_int_eq(count_between("copy_ready", NULL, 690, 690), 1);

	ck_assert_int_eq(count_between("copy_remove", NULL, 1200, 1200), 4);
	ck_assert_int_eq(count_between("release", "on_demand", 1200, 1200), 2);
	ck_assert_int_eq(count_between("terminate", "on_demand", 1200, 1200), 2);

	ck_assert_int_eq(count_between("copy_remove", NULL, 1800, 1800), 1);
	ck_assert_int_eq(count_between("release", "on_demand", 1800, 1800), 1);
	ck_assert_int_eq(count_between("terminate", "on_demand", 1800, 1800), 1);

	ck_assert_int_eq(count_between("launch", "on_demand", 2400, 2400), 2);
	ck_assert_int_eq(count_between("copy_load", NULL, 2460, 2460), 3);
	ck_assert_int_eq(count_between("copy_ready", NULL, 2490, 2490), 3);
	ck_assert_int_eq(count_between("launch", NULL, 0, 3600), 3);
	ck_assert_int_eq(count_between("terminate", NULL, 0, 3600), 3);

	/* copies serving: 3 x 630 + 4 x 60 + 5 x 510 + 1 x 600 + 0 x 690 + 3 x 1110 = 8610 copy-seconds */
	ck_assert_double_eq_tol(M("copy_hours"), 8610.0 / 3600, 1e-9);
	ck_assert_double_eq(M("copy_loads"), 5);
	/* instances paid: 0 (0-1800, 2400-3600) 3000 s, 1 (0-1200, 2400-3600) 2400 s, 2 (600-1200) 600 s */
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 6000.0 / 3600, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 4 * 6000.0 / 3600, 1e-9);
	/* a busy slot holds a copy's 2 GPUs: each 1 s request is 2 GPU-seconds */
	ck_assert_double_eq_tol(M("gpu_hours_busy"), 2 * M("requests_served") / 3600, 1e-9);
	/* the requests that came while no copy served were refused, the rest served without waiting */
	ck_assert_double_eq(M("requests_total"), 51);
	ck_assert_double_eq(M("requests_refused"), 10);
	ck_assert_double_eq(M("requests_served"), 41);
	ck_assert_double_eq_tol(M("latency_max_s"), 1.0, 1e-9);
	/* the time series carries the copies serving: 3 at the horizon */
	ck_assert_double_eq(cap.last_sample.copies, 3);
}
END_TEST

/*
 * 10 requests/s of 1 s: always 10 busy slots. g6.12xlarge, 1 GPU a copy -> 4 copies an instance, 5 slots
 * a copy; 2 copies at t = 0 (1 instance). Target tracking on concurrency per copy at 0.5, 1 datapoint,
 * no cooldowns; instances start in 60 s, copies load in 30 s.
 */
static const char tracked[] =
	"name: copies-tracked\nhorizon: 10m\nslo: {latency_s: 60}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10}\n  service: {kind: constant, mean_s: 1}\n"
	"serving:\n  queue: central\n  routing: first_free\n  instance_type: g6.12xlarge\n  startup_s: 60\n"
	"  copies: {gpus_per_copy: 1, slots_per_copy: 5, startup_s: 30, initial: 2}\n"
	"fleet:\n  - {option: on_demand, max: 4, usd_per_h: 1}\n"
	"autoscaling: {policy: target_tracking, target: 0.5, min: 1, max: 16, scale_out_datapoints: 1,"
	" scale_in_datapoints: 1, scale_out_cooldown_s: 0, scale_in_cooldown_s: 0}\n";

START_TEST(per_copy_metric_fills_room_before_launching)
{
	/*
	 * By hand (metric = busy slot-seconds / (copy-seconds serving x 5)):
	 *  -  60 s: 600 / (2 x 60 x 5) = 1.0 -> ceil(2 x 1.0 / 0.5) = 4 copies; the instance has room for 2
	 *    more: no launch.
	 *  - 120 s: copies 2 until 90 s, 4 after: 600 / (180 x 5) = 0.667 -> ceil(4 x 0.667 / 0.5) = 6; the
	 *    instance is full -> 1 launch (ready 180 s, its 2 copies serve from 210 s).
	 *  - 180 s: 600 / (240 x 5) = 0.5 -> hold.
	 *  - 240 s: 4 copies until 210 s, 6 after: 600 / (300 x 5) = 0.4 < 0.45 -> ceil(6 x 0.4 / 0.5) = 5:
	 *    the copy removed is on the instance holding fewer (2 against 4; packing makes it the last one
	 *    too), which keeps 1: no release.
	 *  - 300 s: 600 / (300 x 5) = 0.4 -> ceil(5 x 0.4 / 0.5) = 4: the second instance's last copy goes,
	 *    and the instance with it (IDLE_RELEASE).
	 *  - 360 s on: 600 / (240 x 5) = 0.5 -> hold.
	 */
	const struct capture_event *e;
	const double t[4] = { 60, 120, 240, 300 };
	const int n[4] = { 4, 6, 5, 4 };
	const char *kind[4] = { "scale_out", "scale_out", "scale_in", "scale_in" };

	capture_run(&cap, tracked, NULL, 0);
	for (int i = 0; i < 4; i++) {
		e = capture_find(&cap, kind[i], i < 2 ? i : i - 2);
		ck_assert_msg(e != NULL, "no %s number %d", kind[i], i < 2 ? i : i - 2);
		ck_assert_double_eq_tol(e->t_s, t[i], 1e-9);
		ck_assert_int_eq(e->count, n[i]);
	}
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 2);
	ck_assert_int_eq(capture_count(&cap, "scale_in"), 2);
	ck_assert_int_eq(count_between("launch", NULL, 0, 119), 0);
	ck_assert_int_eq(count_between("launch", NULL, 120, 120), 1);
	ck_assert_int_eq(count_between("copy_load", NULL, 60, 60), 2);
	ck_assert_int_eq(count_between("copy_load", NULL, 180, 180), 2);
	ck_assert_int_eq(count_between("copy_remove", NULL, 240, 240), 1);
	ck_assert_int_eq(count_between("release", NULL, 0, 299), 0);
	ck_assert_int_eq(count_between("release", NULL, 300, 300), 1);
	ck_assert_int_eq(count_between("terminate", NULL, 300, 301), 1);
	/* the second instance was paid from 120 s to 300 s, the first all along */
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), (600.0 + 180.0) / 3600, 1e-6);
}
END_TEST

/*
 * p5.48xlarge has 8 GPUs; 4 GPUs a copy -> 2 an instance. A 1-day Capacity Block, open since 11:30 the day
 * before the start and ending at 11:30 (41400 s), holds the 2 copies; on-demand is there for what it
 * cannot hold. No policy.
 */
static const char block_end[] =
	"name: copies-block\nhorizon: 2d\nslo: {latency_s: 600}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 1}\n"
	"serving:\n  queue: central\n  routing: first_free\n  instance_type: p5.48xlarge\n  startup_s: 60\n"
	"  copies: {gpus_per_copy: 4, startup_s: 30, initial: 2}\n"
	"fleet:\n  - {option: capacity_block, start: 2025-12-31T11:30:00Z, duration: 1d, count: 1, usd_per_h: 40}\n"
	"  - {option: on_demand, max: 2, usd_per_h: 50}\n";

START_TEST(copies_lost_with_their_instance_load_again_elsewhere)
{
	/*
	 * By hand: the block's instance holds both copies from t = 0, so no on-demand instance starts. At the
	 * 40-minute warning (41400 - 2400 = 39000 s) it drains and its 2 copies are lost; nothing else has room
	 * -> 1 on-demand instance launches at 39000 s (ready 39060 s), the copies load there until 39090 s.
	 * Requests come every 100 s; the one at 39000 s comes just after the warning (scheduled long before
	 * it, it runs first) and finds no copy serving: a real-time endpoint refuses it. The next, at
	 * 39100 s, finds the new copies: 1728 requests, 1727 served, 1 refused.
	 */
	capture_run(&cap, block_end, NULL, 0);
	ck_assert_int_eq(count_between("start", "on_demand", 0, 0), 0);
	ck_assert_int_eq(count_between("start", "copies", 0, 0), 2);
	ck_assert_int_eq(count_between("copy_lost", NULL, 39000, 39000), 2);
	ck_assert_int_eq(count_between("launch", "on_demand", 39000, 39000), 1);
	ck_assert_int_eq(count_between("launch", "on_demand", 0, 172800), 1);
	ck_assert_int_eq(count_between("copy_load", NULL, 39060, 39060), 2);
	ck_assert_int_eq(count_between("copy_ready", NULL, 39090, 39090), 2);
	/* 2 copies serve all along but for the 90 s between the warning and the new copies */
	ck_assert_double_eq_tol(M("copy_hours"), 2 * (172800.0 - 90) / 3600, 1e-9);
	ck_assert_double_eq(M("requests_total"), 1728);
	ck_assert_double_eq(M("requests_refused"), 1);
	ck_assert_double_eq(M("requests_served"), 1727);
}
END_TEST

/*
 * One copy of 10 slots a g6.12xlarge (4 GPUs a copy), 1 request/s of 1 s at 1..300 s and 1201..1800 s,
 * nothing between; target tracking at 0.5 down to 0 copies, 1 datapoint, no cooldowns, scale_from_zero;
 * instances start in 60 s, copies load in 25.5 s.
 */
static const char from_zero[] =
	"name: copies-from-zero\nhorizon: 30m\nslo: {latency_s: 600}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 1, steps: [{at: 300s, rate_per_s: 0},"
	" {at: 1200s, rate_per_s: 1}]}\n  service: {kind: constant, mean_s: 1}\n"
	"serving:\n  queue: central\n  routing: first_free\n  instance_type: g6.12xlarge\n  startup_s: 60\n"
	"  copies: {gpus_per_copy: 4, slots_per_copy: 10, startup_s: 25.5, initial: 1}\n"
	"fleet:\n  - {option: on_demand, max: 2, usd_per_h: 1}\n"
	"autoscaling: {policy: target_tracking, target: 0.5, min: 0, max: 2, scale_out_datapoints: 1,"
	" scale_in_datapoints: 1, scale_out_cooldown_s: 0, scale_in_cooldown_s: 0, scale_from_zero: true}\n";

START_TEST(realtime_refuses_at_zero_async_queues)
{
	/*
	 * By hand, both endpoints:
	 *  - 360 s: the request of 300 s ended at 301 s: 1 / (60 x 10) = 0.0017 -> ceil(1 x 0.0017 / 0.5) = 1:
	 *    hold. 420 s: a real 0 -> 0 copies; the instance holds none and is released.
	 *  - requests come again from 1201 s. Real-time (SOURCES.md [sm-realtime-refuse-at-zero]): each finds
	 *    no copy serving and is refused; the datapoints of refused invocations
	 *    (NoCapacityInvocationFailures) at 1260 and 1320 s -> 1 copy at 1320 s: an instance launches
	 *    (ready 1380 s), the copy loads until 1405.5 s. Refused: the requests of 1201..1405 s, 205 of
	 *    them (also while the instance and copy were launching); the other 695 of 900 are served at once
	 *    (1 busy slot of 10): nobody waits, the longest latency is 1 s.
	 *  - async: the same requests queue; the backlog datapoints at 1260 and 1320 s -> 1 copy at 1320 s,
	 *    serving at 1405.5 s; nothing is refused, the request of 1201 s waits 204.5 s (latency 205.5 s).
	 *    1440 s: over [1380, 1440] the copy served 34.5 s, busy 10 for about 23 s while the 195 left
	 *    waiting drain at 9/s, then 1: about (10 x 23 + 12 + 195 x 21.7 / 2) / (34.5 x 10) = 6.8 ->
	 *    ceil(1 x 6.8 / 0.5) = 14, max 2: out to 2.
	 */
	const char *async[] = { "serving.endpoint=async" };
	const struct capture_event *e;

	capture_run(&cap, from_zero, NULL, 0);
	e = capture_find(&cap, "scale_in", 0);
	ck_assert_double_eq_tol(e->t_s, 420, 1e-9);
	ck_assert_int_eq(e->count, 0);
	ck_assert_int_eq(count_between("release", NULL, 420, 420), 1);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_double_eq_tol(e->t_s, 1320, 1e-9);
	ck_assert_int_eq(e->count, 1);
	ck_assert_int_eq(count_between("copy_ready", NULL, 1405.5, 1405.5), 1);
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 1);
	ck_assert_double_eq(M("requests_total"), 900);
	ck_assert_double_eq(M("requests_refused"), 205);
	ck_assert_double_eq(M("requests_served"), 695);
	ck_assert_double_eq_tol(M("latency_max_s"), 1.0, 1e-9);

	capture_run(&cap, from_zero, async, 1);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_double_eq_tol(e->t_s, 1320, 1e-9);
	ck_assert_int_eq(e->count, 1);
	ck_assert_int_eq(count_between("copy_ready", NULL, 1405.5, 1405.5), 1);
	e = capture_find(&cap, "scale_out", 1);
	ck_assert_double_eq_tol(e->t_s, 1440, 1e-9);
	ck_assert_int_eq(e->count, 2);
	ck_assert_double_eq(M("requests_refused"), 0);
	ck_assert_double_eq(M("requests_served"), 900);
	ck_assert_double_eq_tol(M("latency_max_s"), 205.5, 1e-9);
}
END_TEST

/*
 * Copy concurrency: a request starting on an instance shares its model with the requests of one copy, those
 * of the instance spread evenly over its serving copies, rounded up (serving.c, copy_concurrency). g6.12xlarge,
 * 2 GPUs a copy -> 2 copies an instance, 2 slots a copy; 2 copies at t = 0 (1 instance, 4 slots). Every
 * request 10 s as drawn (copies_concurrency.csv), slowdown x1 at 1 request on its copy, x2 at 2:
 *   R1 t=0    1 in service on 2 copies: ceil(1/2) = 1 -> x1: 10 s
 *   R2 t=0.1  2 on 2 copies: 1 each, exactly one per copy -> x1: 10 s
 *   R3 t=0.2  3 on 2 copies: one over, ceil(3/2) = 2 -> x2: 20 s
 *   R4 t=0.3  4 on 2 copies: 2 each -> x2: 20 s
 * Latency mean (10 + 10 + 20 + 20)/4 = 15 s, max 20 s; nobody waits.
 */
START_TEST(copy_concurrency_rounds_up)
{
	capture_run(&cap, "name: copies-concurrency\nhorizon: 1h\nslo: {latency_s: 100}\n"
		    "workload:\n  arrivals:\n    kind: trace\n    path: " TEST_DATA_DIR "/good/traces/copies_concurrency.csv\n"
		    "    format: generic\n    columns: {time: t, time_format: seconds, service_s: svc}\n"
		    "  service:\n    kind: trace\n    slowdown:\n      - {concurrency: 1, factor: 1.0}\n"
		    "      - {concurrency: 2, factor: 2.0}\n"
		    "serving:\n  queue: central\n  routing: first_free\n  instance_type: g6.12xlarge\n  startup_s: 60\n"
		    "  copies: {gpus_per_copy: 2, slots_per_copy: 2, startup_s: 30, initial: 2}\n"
		    "fleet:\n  - {option: on_demand, max: 1, usd_per_h: 1}\n", NULL, 0);
	ck_assert_double_eq(M("requests_served"), 4);
	ck_assert_double_eq_tol(M("latency_mean_s"), 15, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 20, 1e-6);
	ck_assert_double_eq_tol(M("wait_mean_s"), 0, 1e-9);
}
END_TEST

/*
 * IDLE_RELEASE of an instance still launching at pool index 0. g6.12xlarge, 4 GPUs a copy -> 1 copy an
 * instance; 1 copy at t = 0 (instance 0, warm). At 600 s 0 copies: the copy goes and instance 0, holding none,
 * is released. At 1200 s 1 copy: no room and none coming -> an instance launches in pool index 0 again (it
 * would be ready at 1260). At 1230 s 0 copies: the launching instance holds none and is released at once
 * (newest launching first), before it ever serves: its launch is cancelled and it terminates at 1230 s.
 * Launches at 1200 s only, a release at 600 s, no instance ready after t = 0, no copy loaded.
 */
START_TEST(launching_instance_zero_released)
{
	capture_run(&cap, "name: copies-release-launching\nhorizon: 1h\nslo: {latency_s: 3600}\n"
		    "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		    "serving:\n  endpoint: async\n  queue: central\n  routing: first_free\n  instance_type: g6.12xlarge\n"
		    "  startup_s: 60\n  copies: {gpus_per_copy: 4, slots_per_copy: 1, startup_s: 30, initial: 1}\n"
		    "fleet:\n  - {option: on_demand, max: 2, usd_per_h: 1}\n"
		    "autoscaling:\n  policy: none\n  schedule:\n"
		    "    - {at: 2026-01-01T00:10:00Z, min: 0, max: 0}\n"
		    "    - {at: 2026-01-01T00:20:00Z, min: 1, max: 1}\n"
		    "    - {at: 2026-01-01T00:20:30Z, min: 0, max: 0}\n", NULL, 0);
	ck_assert_int_eq(count_between("launch", NULL, 1200, 1200), 1);
	ck_assert_int_eq(count_between("launch", NULL, 0, 3600), 1);
	ck_assert_int_eq(count_between("release", NULL, 600, 600), 1);
	ck_assert_int_eq(count_between("cancel", NULL, 1230, 1230), 1);
	ck_assert_int_eq(count_between("terminate", NULL, 1230, 1230), 1);
	ck_assert_int_eq(count_between("ready", NULL, 1, 3600), 0);
	ck_assert_double_eq(M("copy_loads"), 0);
}
END_TEST

/* Write a trace of (t s, svc s) rows and run `yaml` (one %s for the trace's path) on it. */
static void run_with_trace(const char *yaml, const char *rows)
{
	char text[2048], *trace = test_write_file("copies-trace.csv", rows);

	ck_assert_ptr_nonnull(trace);
	snprintf(text, sizeof text, yaml, trace);
	capture_run(&cap, text, NULL, 0);
	test_remove_file(trace);
}

#define TRACE_ARRIVALS \
	"  arrivals: {kind: trace, path: %s, format: generic, columns: {time: t, time_format: seconds, service_s: svc}}\n" \
	"  service: {kind: trace}\n"

/*
 * A copy removed while both its instance's slots are busy leaves the instance with more in service than
 * slots: it has no free slot until the excess has left (serving.c serving_set_capacity: free only while
 * busy < cap). g6.12xlarge, 2 GPUs a copy -> 2 copies an instance, 1 slot a copy; 2 copies at t = 0, on
 * instance 0 (cap 2). Central queue, first free. From the trace: R1 and R2 at 0 s for 1000 s (both slots);
 * at 600 s the schedule says 1 copy: one of instance 0's is removed (cap 1, busy 2; the instance keeps the
 * other, so it is not released); R3 at 700 s for 1 s finds no free slot and waits. At 1000 s R1 and R2
 * leave (after the first, busy 1 = cap 1: still none free; after the second, one): R3 starts at 1000 s,
 * ends at 1001 s. Served 3, latency (1000 + 1000 + 301) / 3, max 1000 s, wait 300 / 3 s, 1 of 3 waited.
 * (Counting the instance free because it serves, though busy >= cap, starts R3 at 700 s: no wait.)
 */
START_TEST(copy_removed_under_busy_slots_frees_none)
{
	run_with_trace("name: copies-busy-removal\nhorizon: 1h\nslo: {latency_s: 3600}\nworkload:\n" TRACE_ARRIVALS
		       "serving:\n  queue: central\n  routing: first_free\n  instance_type: g6.12xlarge\n"
		       "  copies: {gpus_per_copy: 2, slots_per_copy: 1, initial: 2}\n"
		       "fleet:\n  - {option: on_demand, max: 1, usd_per_h: 1}\n"
		       "autoscaling:\n  policy: none\n  schedule:\n    - {at: 2026-01-01T00:10:00Z, min: 1, max: 1}\n",
		       "t,svc\n0,1000\n0,1000\n700,1\n");
	ck_assert_int_eq(count_between("copy_remove", NULL, 600, 600), 1);
	ck_assert_int_eq(count_between("release", NULL, 0, 3600), 0);
	ck_assert_double_eq(M("requests_served"), 3);
	ck_assert_double_eq_tol(M("latency_mean_s"), 2301.0 / 3, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 1000, 1e-6);
	ck_assert_double_eq_tol(M("wait_mean_s"), 100, 1e-6);
	ck_assert_double_eq_tol(M("waited_fraction"), 1.0 / 3, 1e-12);
}
END_TEST

/*
 * An instance kept (copies.min_instances) after its last copy is removed serves nothing: it is not open to
 * routing (serving.c serving_set_capacity: open only with a slot). g6.12xlarge, 4 GPUs a copy -> 1 copy an
 * instance; 2 copies at t = 0 on instances 0 and 1; min_instances 2. At 600 s the schedule says 1 copy: the
 * one removed is on the instance with the fewest placed, ties the highest index: instance 1's; both
 * instances are kept (2 is the minimum). Per-instance queues, round robin over the open instances: from
 * 700 s ten requests of 1 s, 10 s apart, all go to instance 0 (the only one open) and start at once:
 * served 10, no wait, latency 1 s each. (Instance 1 left open would take every other one, 5 of the 10,
 * to wait there for a slot that never comes: unserved at the horizon.)
 */
START_TEST(instance_without_copies_is_not_routed_to)
{
	char rows[256] = "t,svc\n";

	for (int i = 0; i < 10; i++)
		snprintf(rows + strlen(rows), sizeof rows - strlen(rows), "%d,1\n", 700 + 10 * i);
	run_with_trace("name: copies-kept-empty\nhorizon: 1h\nslo: {latency_s: 3600}\nworkload:\n" TRACE_ARRIVALS
		       "serving:\n  queue: per_instance\n  routing: round_robin\n  instance_type: g6.12xlarge\n"
		       "  copies: {gpus_per_copy: 4, slots_per_copy: 1, initial: 2, min_instances: 2}\n"
		       "fleet:\n  - {option: on_demand, max: 2, usd_per_h: 1}\n"
		       "autoscaling:\n  policy: none\n  schedule:\n    - {at: 2026-01-01T00:10:00Z, min: 1, max: 1}\n",
		       rows);
	ck_assert_int_eq(count_between("copy_remove", NULL, 600, 600), 1);
	ck_assert_int_eq(count_between("release", NULL, 0, 3600), 0);
	ck_assert_double_eq(M("requests_total"), 10);
	ck_assert_double_eq(M("requests_served"), 10);
	ck_assert_double_eq_tol(M("wait_mean_s"), 0, 1e-9);
	ck_assert_double_eq_tol(M("latency_max_s"), 1, 1e-6);
}
END_TEST

static Suite *world_copies_suite(void)
{
	Suite *s = suite_create("world_copies");
	TCase *tc = tcase_create("runs");

	tcase_set_timeout(tc, 120);
	test_add(tc, copies_scale_to_zero_and_back_with_their_instances);
	test_add(tc, realtime_refuses_at_zero_async_queues);
	test_add(tc, per_copy_metric_fills_room_before_launching);
	test_add(tc, copies_lost_with_their_instance_load_again_elsewhere);
	test_add(tc, copy_concurrency_rounds_up);
	test_add(tc, launching_instance_zero_released);
	test_add(tc, copy_removed_under_busy_slots_frees_none);
	test_add(tc, instance_without_copies_is_not_routed_to);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(world_copies_suite());
}
