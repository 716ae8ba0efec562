/*
 * check_warn: the warnings of a run (models/metering/warn.h), each provoked by one scenario and absent from another
 * that differs from it only where the rule looks. Runs are deterministic (uniform arrivals, constant
 * service) so the counts below are worked out by hand.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "warn.h"
#include "world.h"

static struct capture cap;

/* Run yaml (with overrides) into cap; the sink must have been told the warnings exactly once. */
static void run(const char *yaml, const char *const *sets, int nsets)
{
	capture_run(&cap, yaml, sets, nsets);
	ck_assert_int_eq(cap.warnings_calls, 1);
}

/* The warning's message must hold `words`. */
static void assert_warned(const char *code, const char *words)
{
	const struct sink_warning *w = capture_warning(&cap, code);

	ck_assert_msg(w != NULL, "no %s warning (%d warnings)", code, cap.nwarnings);
	ck_assert_msg(strstr(w->message, words), "%s: message '%s' lacks '%s'", code, w->message, words);
}

static void assert_not_warned(const char *code)
{
	const struct sink_warning *w = capture_warning(&cap, code);

	ck_assert_msg(w == NULL, "unexpected %s: %s", code, w ? w->message : "");
}

/*
 * A steady run: 10 requests/s of 1 s on 2 instances x 10 slots (20 slots, 10 busy: nobody waits), target
 * 0.7 on a concurrency of 0.5 (no action), 2 h, which is longer than the 15 x 60 s = 900 s the scale-in
 * alarm needs. No warning at all.
 */
static const char steady[] =
	"name: steady\nhorizon: 2h\nslo: {latency_s: 5}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10}\n  service: {kind: constant, mean_s: 1}\n"
	"serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
	"fleet:\n  - {option: on_demand, count: 2, max: 6, usd_per_h: 1}\n"
	"autoscaling: {policy: target_tracking, metric: concurrency_per_instance, target: 0.7, min: 2, max: 6}\n";

START_TEST(steady_run_has_no_warning)
{
	run(steady, NULL, 0);
	ck_assert_int_eq(cap.nwarnings, 0);
}
END_TEST

/*
 * fleet_at_max. min = max = 2 instances (20 slots) hold the fleet at its maximum all run; 100 one-minute
 * samples (horizon 100 min). From 30 min the rate is 30/s for D minutes, then 10/s again: the queue grows by
 * 30 - 20 = 10 requests/s for D minutes and drains at 20 - 10 = 10/s for D more, so requests wait during
 * (30 min, 30 + 2D min). D = 5: the samples at 31 ... 39 min see a queue, 9 of 100 = 9% > 5%: warned.
 * D = 1: only the sample at 31 min, 1 of 100 = 1%: not warned.
 */
#define PINNED_FLEET \
	"name: pinned\nhorizon: 100m\nslo: {latency_s: 500}\n" \
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 1800s, rate_per_s: 30}, " \
	"{at: 2100s, rate_per_s: 10}]}\n  service: {kind: constant, mean_s: 1}\n" \
	"serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n" \
	"fleet:\n  - {option: on_demand, count: 2, max: 2, usd_per_h: 1}\n"
static const char pinned[] = PINNED_FLEET
	"autoscaling: {policy: target_tracking, metric: concurrency_per_instance, target: 0.7, min: 2, max: 2}\n";

START_TEST(fleet_at_max_warned)
{
	run(pinned, NULL, 0);
	assert_warned("fleet_at_max", "in 9.0% of the measured samples (9 of 100;");
}
END_TEST

START_TEST(fleet_at_max_short_wait_not_warned)
{
	const char *sets[] = { "workload.arrivals.steps.1.at=1860s" };

	run(pinned, sets, 1);
	assert_not_warned("fleet_at_max");
}
END_TEST

/* Without a policy the fleet has no maximum to hit: the same long wait is not fleet_at_max. */
START_TEST(fleet_at_max_needs_a_policy)
{
	run(PINNED_FLEET, NULL, 0);
	assert_not_warned("fleet_at_max");
}
END_TEST

/*
 * The most reversals between scale-out and scale-in in one UTC clock hour, from the event log (the start
 * is 2026-01-01T00:00:00Z, on the hour), counted as the README states it: an action whose direction differs
 * from the previous action's counts in the clock hour it happens in.
 */
static int reversals_per_hour_max(void)
{
	int last = 0, most = 0, hour = -1, n = 0;

	for (int i = 0; i < cap.nevents; i++) {
		int dir = strcmp(cap.events[i].kind, "scale_out") == 0 ? 1 :
			  strcmp(cap.events[i].kind, "scale_in") == 0 ? -1 : 0;
		int h = (int)(cap.events[i].t_s / 3600);
		if (!dir)
			continue;
		if (last && dir != last) {
			if (h != hour) {
				hour = h;
				n = 0;
			}
			if (++n > most)
				most = n;
		}
		last = dir;
	}
	return most;
}

/*
 * scaling_flaps. The rate alternates 10/s and 30/s every 5 minutes for an hour; with 1-datapoint alarms
 * and 60 s cooldowns the fleet follows every change: scale out at each rise, in at each fall, about 11
 * reversals in the first hour, over 4. The steady run has none.
 */
#define FLAP_FLEET \
	"  service: {kind: constant, mean_s: 1}\n" FLAP_REST
#define FLAP_REST \
	"serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 60}\n" \
	"fleet:\n  - {option: on_demand, count: 2, max: 8, usd_per_h: 1}\n" \
	"autoscaling: {policy: target_tracking, metric: concurrency_per_instance, target: 0.7, min: 2, max: 8," \
	" scale_out_cooldown_s: 60, scale_in_cooldown_s: 60, scale_out_datapoints: 1, scale_in_datapoints: 1}\n"
static const char flapping[] =
	"name: flapping\nhorizon: 1h\nslo: {latency_s: 60}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 300s, rate_per_s: 30}, "
	"{at: 600s, rate_per_s: 10}, {at: 900s, rate_per_s: 30}, {at: 1200s, rate_per_s: 10}, "
	"{at: 1500s, rate_per_s: 30}, {at: 1800s, rate_per_s: 10}, {at: 2100s, rate_per_s: 30}, "
	"{at: 2400s, rate_per_s: 10}, {at: 2700s, rate_per_s: 30}, {at: 3000s, rate_per_s: 10}, "
	"{at: 3300s, rate_per_s: 30}]}\n" FLAP_FLEET;

/* The same fleet and policy, the rate up once and down once: one scale-out, then scale-ins. */
static const char one_rise[] =
	"name: one rise\nhorizon: 1h\nslo: {latency_s: 60}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 300s, rate_per_s: 30}, "
	"{at: 600s, rate_per_s: 10}]}\n" FLAP_FLEET;

START_TEST(scaling_flaps_warned)
{
	char words[64];
	int most;

	run(flapping, NULL, 0);
	most = reversals_per_hour_max();
	ck_assert_int_gt(most, WARN_FLAPS_PER_HOUR);
	snprintf(words, sizeof words, "%d reversals", most);
	assert_warned("scaling_flaps", words);
	assert_warned("scaling_flaps", "2026-01-01T00:00:00Z");
}
END_TEST

/* Two changes of rate (scale-out, then scale-in: 1 reversal) are not flapping. */
START_TEST(scaling_flaps_few_reversals_not_warned)
{
	run(one_rise, NULL, 0);
	ck_assert_int_eq(reversals_per_hour_max(), 1);
	ck_assert_int_le(reversals_per_hour_max(), WARN_FLAPS_PER_HOUR);
	assert_not_warned("scaling_flaps");
	assert_not_warned("horizon_too_short"); /* 1-datapoint alarms need 60 s */
}
END_TEST

/*
 * Scale actions count only decisions that changed the desired capacity (models/README.md, "Metrics"): a
 * fleet of 4 reserved instances (its floor: reserved instances always run) under 1 request/s of 1 s on 40
 * slots reads a concurrency of 0.025, far below the target; with 1-datapoint alarms and 60 s cooldowns the
 * policy asks every minute for ceil(4 x 0.025 / 0.7) = 1 instance, which the fleet cannot go below 4 to
 * give: nothing changes, so no scale-in is counted or logged, and nothing flaps.
 */
START_TEST(pinned_fleet_counts_no_scale_in)
{
	run("name: pinned\nhorizon: 2h\nslo: {latency_s: 60}\n"
	    "workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
	    "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 60}\n"
	    "fleet:\n  - {option: reserved, count: 4, scope: zonal}\n  - {option: on_demand, count: 0, max: 4, usd_per_h: 1}\n"
	    "autoscaling: {policy: target_tracking, metric: concurrency_per_instance, target: 0.7, min: 1, max: 8,"
	    " scale_out_cooldown_s: 60, scale_in_cooldown_s: 60, scale_out_datapoints: 1, scale_in_datapoints: 1}\n",
	    NULL, 0);
	ck_assert_double_eq(capture_need(&cap, "scale_in_actions"), 0);
	ck_assert_double_eq(capture_need(&cap, "scale_out_actions"), 0);
	ck_assert_int_eq(capture_count(&cap, "scale_in"), 0);
	ck_assert_double_eq(capture_need(&cap, "instances_peak"), 4);
	assert_not_warned("scaling_flaps");
}
END_TEST

/*
 * The loader's warnings are the run's too (code `scenario`, the loader's line as the message), so a stored
 * run keeps them: the steady run with a Spot entry that nothing interrupts (its loader warning).
 */
START_TEST(loader_warnings_are_stored)
{
	run("name: spotty\nhorizon: 2h\nslo: {latency_s: 5}\n"
	    "workload:\n  arrivals: {kind: uniform, rate_per_s: 10}\n  service: {kind: constant, mean_s: 1}\n"
	    "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
	    "fleet:\n  - {option: on_demand, count: 2, max: 6, usd_per_h: 1}\n  - {option: spot, count: 0, max: 1}\n"
	    "autoscaling: {policy: target_tracking, metric: concurrency_per_instance, target: 0.7, min: 2, max: 7}\n",
	    NULL, 0);
	assert_warned("scenario", ".yaml:10:6: fleet.1: spot entry has no interruption model");
	ck_assert_int_eq(cap.nwarnings, 1);
}
END_TEST

/*
 * scale_in_rebound, counted from the event log as the README states it: a policy scale-out within 900 s of
 * the policy scale-in before it (each scale-in counted once). Returns the count and the first one's times.
 */
static int rebounds_from_log(double *first_in_s)
{
	double last_in = -1;
	int n = 0;

	for (int i = 0; i < cap.nevents; i++) {
		if (strcmp(cap.events[i].kind, "scale_in") == 0) {
			last_in = cap.events[i].t_s;
		} else if (strcmp(cap.events[i].kind, "scale_out") == 0 && last_in >= 0) {
			if (cap.events[i].t_s - last_in <= 900.0 && n++ == 0)
				*first_in_s = last_in;
			last_in = -1;
		}
	}
	return n;
}

/* The flapping fleet rebounds: each fall of the rate is scaled in, each rise 5 minutes later scaled out. */
START_TEST(scale_in_rebound_warned)
{
	char words[64];
	double first = -1;
	int n;

	run(flapping, NULL, 0);
	n = rebounds_from_log(&first);
	ck_assert_int_ge(n, WARN_REBOUNDS);
	snprintf(words, sizeof words, "%d scale-outs within 15 min of a scale-in", n);
	assert_warned("scale_in_rebound", words);
	snprintf(words, sizeof words, "first at 2026-01-01T00:%02d:%02dZ", (int)first / 60, (int)first % 60);
	assert_warned("scale_in_rebound", words);
	/* load-independent service: no word about slowing */
	ck_assert_ptr_null(strstr(capture_warning(&cap, "scale_in_rebound")->message, "slower"));
}
END_TEST

/* The same alternation every 20 minutes: the rises come more than 15 minutes after the scale-ins. */
static const char slow_alternation[] =
	"name: slow alternation\nhorizon: 2h\nslo: {latency_s: 60}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 1200s, rate_per_s: 30}, "
	"{at: 2400s, rate_per_s: 10}, {at: 3600s, rate_per_s: 30}, {at: 4800s, rate_per_s: 10}, "
	"{at: 6000s, rate_per_s: 30}]}\n" FLAP_FLEET;

START_TEST(scale_in_rebound_needs_a_quick_scale_out)
{
	double first = -1;

	run(slow_alternation, NULL, 0);
	ck_assert_int_ge(capture_count(&cap, "scale_in"), 2);
	ck_assert_int_ge(capture_count(&cap, "scale_out"), 2);
	ck_assert_int_eq(rebounds_from_log(&first), 0);
	assert_not_warned("scale_in_rebound");
	run(one_rise, NULL, 0);
	assert_not_warned("scale_in_rebound");
}
END_TEST

static const char flapping_slowed[] =
	"name: flapping slowed\nhorizon: 1h\nslo: {latency_s: 60}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 300s, rate_per_s: 30}, "
	"{at: 600s, rate_per_s: 10}, {at: 900s, rate_per_s: 30}, {at: 1200s, rate_per_s: 10}, "
	"{at: 1500s, rate_per_s: 30}, {at: 1800s, rate_per_s: 10}, {at: 2100s, rate_per_s: 30}, "
	"{at: 2400s, rate_per_s: 10}, {at: 2700s, rate_per_s: 30}, {at: 3000s, rate_per_s: 10}, "
	"{at: 3300s, rate_per_s: 30}]}\n"
	"  service: {kind: constant, mean_s: 0.4, slowdown: [{concurrency: 1, factor: 1}, {concurrency: 10, factor: 3}]}\n"
	FLAP_REST;

/* A service that slows as the instance fills, spread by the routing: the message says why a scale-in
 * overshoots (3x slower full); packed first-free routing does not get that sentence. */
START_TEST(scale_in_rebound_names_the_slowdown)
{
	const char *spread[] = { "serving.routing=random" };

	run(flapping_slowed, spread, 1);
	assert_warned("scale_in_rebound", "up to 3x slower on a full instance and the routing spreads");
	run(flapping_slowed, NULL, 0);
	if (capture_warning(&cap, "scale_in_rebound"))
		ck_assert_ptr_null(strstr(capture_warning(&cap, "scale_in_rebound")->message, "slower"));
}
END_TEST

/*
 * target_unreachable. Concurrency per instance reaches 1 with every slot busy, before anyone waits: a
 * target of 1 (or more) is warned, 0.99 is not. Invocations per instance per minute reach slots x 60 /
 * mean service = 10 x 60 / 1 = 600 with every slot busy: 600 is warned, 599 is not.
 */
START_TEST(target_unreachable_concurrency)
{
	const char *at[] = { "autoscaling.target=1" }, *below[] = { "autoscaling.target=0.99" };

	run(steady, at, 1);
	assert_warned("target_unreachable", "target 1 on concurrency_per_instance is at or above 1,");
	run(steady, below, 1);
	assert_not_warned("target_unreachable");
}
END_TEST

START_TEST(target_unreachable_invocations)
{
	const char *at[] = { "autoscaling.metric=invocations_per_instance", "autoscaling.target=600" };
	const char *below[] = { "autoscaling.metric=invocations_per_instance", "autoscaling.target=599" };

	run(steady, at, 2);
	assert_warned("target_unreachable", "target 600 on invocations_per_instance is at or above 600,");
	run(steady, below, 2);
	assert_not_warned("target_unreachable");
}
END_TEST

/*
 * price_stale. A Capacity Block of p5.48xlarge at the catalogue's rate ($39.33, valid until 2025-01-01) in
 * a scenario starting 2026-01-01 is warned; the same block with its own usd_per_h, or a scenario starting
 * in 2024, is not.
 */
static const char block[] =
	"name: block\nstart: 2026-01-01T00:00:00Z\nhorizon: 2h\nslo: {latency_s: 5}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
	"serving: {queue: central, routing: first_free, instance_type: p5.48xlarge, slots_per_instance: 4}\n"
	"fleet:\n  - {option: on_demand, count: 1, usd_per_h: 50}\n"
	"  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 1}\n";

START_TEST(price_stale_warned)
{
	run(block, NULL, 0);
	assert_warned("price_stale", "fleet.1: the catalogue's Capacity Block rate for p5.48xlarge ($39.33 per "
		      "instance-hour) was valid until 2025-01-01");
}
END_TEST

START_TEST(price_stale_own_price_or_early_start_not_warned)
{
	const char *own[] = { "fleet.1.usd_per_h=31.46" };
	const char *early[] = { "start=2024-06-01T00:00:00Z", "fleet.1.start=2024-06-01T11:30:00Z" };

	run(block, own, 1);
	assert_not_warned("price_stale");
	run(block, early, 2);
	assert_not_warned("price_stale");
}
END_TEST

/*
 * trace_past_horizon. tests/data/traces/batches.csv has 12 rows at 0, 0, 0, 1.5, 1.5, 2, 4, 4, 4, 4, 6 and
 * 7.25 s. A 5 s horizon replays the first 10 and drops the last 2: 7.25 - 5 = 2.25 s = 0.000625 h past it.
 * An 8 s horizon holds the whole trace; with loop the trace is meant to be cut.
 */
static char trace_yaml[1024];

static const char *trace_scenario(void)
{
	snprintf(trace_yaml, sizeof trace_yaml,
		 "name: tail\nhorizon: 5s\nsample_period: 1s\nslo: {latency_s: 20}\n"
		 "workload:\n  arrivals: {kind: trace, path: %s/traces/batches.csv, format: generic,\n"
		 "    columns: {time: time_s, time_format: seconds, service_s: service_s}}\n"
		 "  service: {kind: trace}\n"
		 "serving: {queue: central, routing: first_free, instance_type: p5.48xlarge, slots_per_instance: 4}\n"
		 "fleet:\n  - {option: reserved, count: 2, scope: zonal}\n", TEST_DATA_DIR);
	return trace_yaml;
}

START_TEST(trace_past_horizon_warned)
{
	run(trace_scenario(), NULL, 0);
	assert_warned("trace_past_horizon", "the trace runs 0.000625 h past the horizon");
	assert_warned("trace_past_horizon", "its last 2 of 12 requests were not replayed");
}
END_TEST

START_TEST(trace_within_horizon_not_warned)
{
	const char *longer[] = { "horizon=8s" }, *loop[] = { "workload.arrivals.loop=true" };

	run(trace_scenario(), longer, 1);
	assert_not_warned("trace_past_horizon");
	run(trace_scenario(), loop, 1);
	assert_not_warned("trace_past_horizon");
}
END_TEST

/*
 * trace_shorter_than_horizon: the same trace (last arrival 7.25 s) under a 10 s horizon ends before
 * 0.8 x 10 = 8 s: warned, 10 / 7.25 = 1.38 times shorter, the last 2.75 s (0.0007639 h) without traffic.
 * Under a 9 s horizon it ends after 0.8 x 9 = 7.2 s: not warned; with loop it fills any horizon.
 */
START_TEST(trace_shorter_than_horizon_warned)
{
	const char *ten[] = { "horizon=10s" }, *nine[] = { "horizon=9s" },
		   *loop[] = { "horizon=10s", "workload.arrivals.loop=true" };

	run(trace_scenario(), ten, 1);
	assert_warned("trace_shorter_than_horizon", "the trace ends 0.002014 h into a 0.002778 h horizon");
	assert_warned("trace_shorter_than_horizon", "1.38 times shorter: the last 0.0007639 h have no traffic");
	assert_not_warned("trace_past_horizon");
	run(trace_scenario(), nine, 1);
	assert_not_warned("trace_shorter_than_horizon");
	run(trace_scenario(), loop, 2);
	assert_not_warned("trace_shorter_than_horizon");
}
END_TEST

/*
 * horizon_too_short. Target tracking's scale-in alarm needs scale_in_datapoints (15) one-minute datapoints,
 * 900 s: a 10-minute horizon is warned, a 15-minute one is not. Step scaling: datapoints_to_alarm x
 * resolution_s; HPA: the stabilization window plus one period.
 */
START_TEST(horizon_too_short_warned)
{
	const char *sets[] = { "horizon=10m" };

	run(steady, sets, 1);
	assert_warned("horizon_too_short", "the horizon (600 s) is shorter than target tracking's scale-in alarm");
	assert_warned("horizon_too_short", "(900 s)");
}
END_TEST

START_TEST(horizon_long_enough_not_warned)
{
	const char *sets[] = { "horizon=15m" };

	run(steady, sets, 1);
	assert_not_warned("horizon_too_short");
}
END_TEST

/*
 * slo_unreachable. Exponential service times of mean 1 s on the steady fleet (20 slots for 10 busy: nobody
 * waits), 2 h at 10/s: N = 72000 measured requests. P(X > t) = exp(-t), so:
 *  - slo.latency_s 5: the floor is exp(-5) = 0.00674 (binomial SE sqrt(0.00674 x 0.99326 / 72000) =
 *    0.00031); with slo.max_violation_rate 0.001 it is 22 SE above what is allowed: warned; with 0.02 it is
 *    43 SE below: not warned.
 *  - slo.latency_p99_s 3: exp(-3) = 0.0498 of service times exceed it, 4.98 times the 1% a p99 allows
 *    (SE 0.0008 / 0.01 = 0.081 on the ratio): warned; slo.latency_p99_s 6: exp(-6) = 0.00248, ratio 0.248:
 *    not warned.
 */
#define EXPONENTIAL_SERVICE \
	"name: tail\nhorizon: 2h\n" \
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10}\n  service: {kind: exponential, mean_s: 1}\n" \
	"serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n" \
	"fleet:\n  - {option: on_demand, count: 2, max: 2, usd_per_h: 1}\n"

START_TEST(slo_unreachable_by_the_floor)
{
	run(EXPONENTIAL_SERVICE "slo: {latency_s: 5, max_violation_rate: 0.001}\n", NULL, 0);
	ck_assert_msg(fabs(capture_metric(&cap, "slo_violation_rate_floor") - exp(-5)) < 4 * 0.00031,
		      "floor %g", capture_metric(&cap, "slo_violation_rate_floor"));
	assert_warned("slo_unreachable", "more than the 0.1% slo.max_violation_rate allows");
	run(EXPONENTIAL_SERVICE "slo: {latency_s: 5, max_violation_rate: 0.02}\n", NULL, 0);
	assert_not_warned("slo_unreachable");
}
END_TEST

START_TEST(slo_unreachable_by_a_percentile)
{
	run(EXPONENTIAL_SERVICE "slo: {latency_s: 30, latency_p99_s: 3}\n", NULL, 0);
	ck_assert_msg(fabs(capture_metric(&cap, "slo_percentile_floor_ratio") - exp(-3) / 0.01) < 4 * 0.081,
		      "ratio %g", capture_metric(&cap, "slo_percentile_floor_ratio"));
	assert_warned("slo_unreachable", "latency percentile SLO");
	run(EXPONENTIAL_SERVICE "slo: {latency_s: 30, latency_p99_s: 6}\n", NULL, 0);
	ck_assert_msg(fabs(capture_metric(&cap, "slo_percentile_floor_ratio") - exp(-6) / 0.01) < 4 * 0.019,
		      "ratio %g", capture_metric(&cap, "slo_percentile_floor_ratio"));
	assert_not_warned("slo_unreachable");
	run(steady, NULL, 0);  /* no percentile SLO stated: no ratio */
	ck_assert(isnan(capture_metric(&cap, "slo_percentile_floor_ratio")));
}
END_TEST

/*
 * memory_budget (x86-64 sizes: a request 120 bytes, an instance 160, a savings_hour 240 (its start and
 * length, its usage by kind, and by kind and type: 8 + 8 + 3 x 8 + 8 + 3 x 8 x 8), a bill line 32, a
 * sink_hour 48). The steady run with serving.max_queue 15,000,000: queue 15,000,000 x (120 + 3 x 8) =
 * 2,160,000,000; pool 6 instances (the entry's max) x (160 + 10 slots x 120) = 8,160; hours (2 + 1) x
 * (2 x 240 + 7 options x 4 kinds x 32 + 48) = 3 x 1424 = 4,272; total 2,160,012,432 bytes = 2.01 GiB > 2 GiB
 * = 2,147,483,648: warned. With 14,900,000: 2,145,600,000 + 12,432 = 2,145,612,432 < 2 GiB: not warned.
 */
/*
 * extrapolated_with_growth: the steady run over 2 h with 1%/day growth, measured from a 30-minute warm-up:
 * the window's traffic averages (1.01^(2/24) - 1.01^(0.5/24)) / (1.5/24 x ln 1.01) of the start's, the next
 * 365 days' (1.01^(365 + 0.5/24) - 1.01^(0.5/24)) / (365 ln 1.01): their ratio, worked here, is in the
 * message. No growth: no warning.
 */
START_TEST(extrapolated_with_growth)
{
	const char *grows[] = { "workload.arrivals.growth_per_day=0.01", "warmup=30m" };
	double l = log(1.01), a = 0.5 / 24, b = 2.0 / 24;
	double window = (exp(l * b) - exp(l * a)) / ((b - a) * l), year = (exp(l * (a + 365)) - exp(l * a)) / (365 * l);
	char want[64];

	run(steady, NULL, 0);
	assert_not_warned("extrapolated_with_growth");
	run(steady, grows, 2);
	snprintf(want, sizeof want, "traffic %.2fx the window's (%+.0f%%)", year / window, 100 * (year / window - 1));
	ck_assert_msg(year / window > 10 && year / window < 10.3, "%g", year / window);  /* 1.01^365 = 37.8: 10.1 on average */
	assert_warned("extrapolated_with_growth", want);
	assert_warned("extrapolated_with_growth", "the 0.0625-day window");
}
END_TEST

START_TEST(memory_budget_warned)
{
	const char *sets[] = { "serving.max_queue=15000000" };
	struct scenario sc;
	struct warn_memory m;
	struct diag d = { "" };

	ck_assert_int_eq(scenario_parse_string(&sc, steady, "steady", sets, 1, &d), STATUS_OK);
	world_memory_estimate(&sc, &m);
	scenario_fini(&sc);
	ck_assert_double_eq_tol(m.queue_bytes, 2160000000.0, 0.5);
	ck_assert_double_eq_tol(m.pool_bytes, 8160.0, 0.5);
	/* 3 clock hours x (2 savings_hour of 240 + the users' usage 2 x 3 x 8 + 2 users x 7 options x 4 kinds
	 * x a 32-byte bill line + a 48-byte sink_hour) = 3 x 2368 */
	ck_assert_double_eq_tol(m.hours_bytes, 7104.0, 0.5);
	run(steady, sets, 1);
	assert_warned("memory_budget", "the run could use 2.01 GiB of memory, more than the 2 GiB budget: queue "
		      "2.01 GiB (serving.max_queue 15000000)");
}
END_TEST

START_TEST(memory_within_budget_not_warned)
{
	const char *sets[] = { "serving.max_queue=14900000" };

	run(steady, sets, 1);
	assert_not_warned("memory_budget");
}
END_TEST

/*
 * scale_in_rebound's time rule at its edge: a scale-out counts when it comes within WARN_REBOUND_US (900 s)
 * of the scale-in, 900 s itself included. A scale-in from 4 to 2 (2 removed, half the fleet) at 1000 s, a
 * scale-out from 2 to 3 (1 back, half of the 2) at 1900 s: exactly 900 s later, a rebound (the first, from
 * the scale-in at 1000 s: 4 -> 2, back to 3). The same at 3000 s and 3900 s + 1 us: 1 us too late, no
 * second one.
 */
START_TEST(scale_in_rebound_at_exactly_900_s)
{
	const int64_t S = 1000000;
	struct warn w;

	warn_init(&w, 0, 0);
	warn_scaling(&w, 1000 * S, -1, 4, 2);
	warn_scaling(&w, 1900 * S, +1, 2, 3);
	ck_assert_int_eq(w.rebounds, 1);
	ck_assert_int_eq(w.rebound_first_us, 1000 * S);
	ck_assert_int_eq(w.rebound_from, 4);
	ck_assert_int_eq(w.rebound_to, 2);
	ck_assert_int_eq(w.rebound_back, 3);
	warn_scaling(&w, 3000 * S, -1, 4, 2);
	warn_scaling(&w, 3900 * S + 1, +1, 2, 3);
	ck_assert_int_eq(w.rebounds, 1);
}
END_TEST

/*
 * price_stale on a full fleet (SCENARIO_FLEET_MAX, 64 entries): every entry is looked at, the last
 * included, and none past it. The block scenario's p5.48xlarge (catalogue Capacity Block rate $39.33, valid
 * until 2025-01-01) starting 2026-01-01: an On-Demand entry and 63 empty On-Demand entries (max 0) hold no
 * Capacity Block: not warned. The 64th entry made the block at the catalogue's rate: warned, as fleet.63.
 */
START_TEST(price_stale_on_a_full_fleet)
{
	static char yaml[8192];

	for (int last_is_block = 0; last_is_block < 2; last_is_block++) {
		int n = snprintf(yaml, sizeof yaml,
				 "name: block\nstart: 2026-01-01T00:00:00Z\nhorizon: 2h\nslo: {latency_s: 5}\n"
				 "workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
				 "serving: {queue: central, routing: first_free, instance_type: p5.48xlarge, slots_per_instance: 4}\n"
				 "fleet:\n  - {option: on_demand, count: 1, usd_per_h: 50}\n");
		for (int i = 1; i < SCENARIO_FLEET_MAX; i++)
			n += snprintf(yaml + n, sizeof yaml - (size_t)n, "%s",
				      last_is_block && i == SCENARIO_FLEET_MAX - 1 ?
				      "  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 1}\n" :
				      "  - {option: on_demand, count: 0, max: 0}\n");
		ck_assert_int_lt(n, (int)sizeof yaml);
		run(yaml, NULL, 0);
		if (last_is_block)
			assert_warned("price_stale", "fleet.63: the catalogue's Capacity Block rate for p5.48xlarge");
		else
			assert_not_warned("price_stale");
	}
}
END_TEST

/*
 * horizon_too_short names the alarm that needs longer, the scale-in one on a tie.
 *  - target tracking with scale_out_datapoints 15 at the 60 s resolution (15 x 60 = 900 s) and the default
 *    scale_in_datapoints 15 (15 x max(60, 60) = 900 s): a 10-minute horizon is warned, naming the scale-in
 *    alarm, 900 s.
 *  - step scaling at the 60 s resolution, both alarms 3 datapoints_to_alarm (3 x 60 = 180 s each): a 2-minute
 *    horizon (120 s) is warned, naming the step scale-in alarm, 180 s.
 */
static const char step_tie[] =
	"name: steps\nhorizon: 2m\nslo: {latency_s: 5}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10}\n  service: {kind: constant, mean_s: 1}\n"
	"serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
	"fleet:\n  - {option: on_demand, count: 2, max: 6, usd_per_h: 1}\n"
	"autoscaling:\n  policy: step\n  metric: concurrency_per_instance\n  min: 2\n  max: 6\n  resolution_s: 60\n"
	"  adjustment_type: change_in_capacity\n"
	"  scale_out: {threshold: 0.65, comparison: greater_or_equal, evaluation_periods: 3, datapoints_to_alarm: 3,"
	" steps: [{lower: 0, adjustment: 1}]}\n"
	"  scale_in: {threshold: 0.3, comparison: less_or_equal, evaluation_periods: 3, datapoints_to_alarm: 3,"
	" steps: [{upper: 0, adjustment: -1}]}\n";

START_TEST(horizon_too_short_names_scale_in_on_a_tie)
{
	const char *sets[] = { "horizon=10m", "autoscaling.scale_out_datapoints=15" };

	run(steady, sets, 2);
	assert_warned("horizon_too_short", "the horizon (600 s) is shorter than target tracking's scale-in alarm");
	assert_warned("horizon_too_short", "(900 s)");
	run(step_tie, NULL, 0);
	assert_warned("horizon_too_short", "the horizon (120 s) is shorter than the step scale-in alarm");
	assert_warned("horizon_too_short", "(180 s)");
}
END_TEST

static Suite *warn_suite(void)
{
	Suite *s = suite_create("warn");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, steady_run_has_no_warning);
	tcase_add_test(tc, fleet_at_max_warned);
	tcase_add_test(tc, fleet_at_max_short_wait_not_warned);
	tcase_add_test(tc, fleet_at_max_needs_a_policy);
	tcase_add_test(tc, scaling_flaps_warned);
	tcase_add_test(tc, scaling_flaps_few_reversals_not_warned);
	tcase_add_test(tc, pinned_fleet_counts_no_scale_in);
	tcase_add_test(tc, loader_warnings_are_stored);
	tcase_add_test(tc, scale_in_rebound_warned);
	tcase_add_test(tc, scale_in_rebound_needs_a_quick_scale_out);
	tcase_add_test(tc, scale_in_rebound_names_the_slowdown);
	tcase_add_test(tc, target_unreachable_concurrency);
	tcase_add_test(tc, target_unreachable_invocations);
	tcase_add_test(tc, price_stale_warned);
	tcase_add_test(tc, price_stale_own_price_or_early_start_not_warned);
	tcase_add_test(tc, trace_past_horizon_warned);
	tcase_add_test(tc, trace_within_horizon_not_warned);
	tcase_add_test(tc, trace_shorter_than_horizon_warned);
	tcase_add_test(tc, horizon_too_short_warned);
	tcase_add_test(tc, horizon_long_enough_not_warned);
	tcase_add_test(tc, slo_unreachable_by_the_floor);
	tcase_add_test(tc, slo_unreachable_by_a_percentile);
	tcase_add_test(tc, memory_budget_warned);
	tcase_add_test(tc, extrapolated_with_growth);
	tcase_add_test(tc, memory_within_budget_not_warned);
	test_add(tc, scale_in_rebound_at_exactly_900_s);
	test_add(tc, price_stale_on_a_full_fleet);
	test_add(tc, horizon_too_short_names_scale_in_on_a_tie);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(warn_suite());
}
