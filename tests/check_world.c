/*
 * check_world: whole runs of small scenarios whose answers are known by hand: the cost of a fixed fleet,
 * on-demand billing through a scale-out and scale-in, the target-tracking timeline on a deterministic load
 * that steps up then down, the GPU-hour identity, request accounting and determinism.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "capture.h"
#include "engine.h"
#include "scenario.h"
#include "store.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

static struct capture cap;

/* Run YAML text with optional overrides into the capture; fails the test on any error. */
static void run_text(const char *yaml, const char *const *sets, int nsets)
{
	capture_run(&cap, yaml, sets, nsets);
}

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/* A fixed fleet: 3 reserved at $10/h and 2 on-demand at $20/h running the whole 10 h. */
static const char fixed_fleet[] =
	"name: fixed\nseed: 7\nhorizon: 10h\nslo: {latency_s: 5}\n"
	"workload:\n  arrivals: {kind: poisson, rate_per_s: 2}\n  service: {kind: exponential, mean_s: 1}\n"
	"serving: {queue: central, routing: first_free, instance_type: g6.12xlarge, slots_per_instance: 4, startup_s: 300}\n"
	"catalog: {g6.12xlarge: {sells: [capacity_block, training_plan]}}  # (assumed)\n"
	"fleet:\n  - {option: reserved, count: 3, usd_per_h: 10, scope: zonal}\n  - {option: on_demand, count: 2, usd_per_h: 20}\n";

START_TEST(fixed_fleet_cost_to_the_cent)
{
	run_text(fixed_fleet, NULL, 0);
	/* count x price x hours: 3 x 10 x 10 = 300.00; 2 x 20 x 10 = 400.00 */
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 300.00, 0.005);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 400.00, 0.005);
	ck_assert_double_eq_tol(M("cost_total_usd"), 700.00, 0.005);
	/* 5 instances x 4 GPUs x 10 h */
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 200.0, 1e-9);
	ck_assert_double_eq(M("launches"), 0);
	ck_assert_double_eq(M("instances_peak"), 5);
}
END_TEST

START_TEST(fixed_fleet_cost_scales_with_overrides)
{
	/* other counts, prices and horizon: 6 x 12.5 x 36 = 2700; 1 x 3.25 x 36 = 117 */
	const char *sets[] = { "fleet.0.count=6", "fleet.0.usd_per_h=12.5", "fleet.1.count=1",
			       "fleet.1.usd_per_h=3.25", "horizon=36h" };
	run_text(fixed_fleet, sets, 5);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 2700.00, 0.005);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 117.00, 0.005);
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 7 * 4 * 36.0, 1e-9);
}
END_TEST

/*
 * A reserved, ODCR and Capacity Block entry of count 0 (what a sweep over counts reaches) buys nothing: no
 * cost, no paid GPU-hours, no instance; only the 2 on-demand instances serve. By hand over 10 h at $20/h:
 * 2 x 20 x 10 = 400.00 in all; paid GPU-hours 2 x 4 x 10 = 80 (g6.12xlarge has 4 GPUs). The block's
 * upfront_usd (5000) is ignored: a block of 0 instances costs 0.
 */
START_TEST(zero_count_entries_buy_nothing)
{
	run_text("name: zero\nseed: 7\nstart: 2026-01-01T00:00:00Z\nhorizon: 10h\nslo: {latency_s: 5}\n"
		 "workload:\n  arrivals: {kind: poisson, rate_per_s: 2}\n  service: {kind: exponential, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.12xlarge, slots_per_instance: 4, startup_s: 300}\n"
		 "catalog: {g6.12xlarge: {sells: [capacity_block, training_plan]}}  # (assumed)\n"
		 "fleet:\n  - {option: reserved, count: 0, usd_per_h: 10, scope: zonal}\n  - {option: odcr, count: 0}\n"
		 "  - {option: capacity_block, start: 2026-01-01T02:00:00Z, end: 2026-01-01T11:30:00Z, count: 0, "
		 "upfront_usd: 5000}\n  - {option: on_demand, count: 2, usd_per_h: 20}\n", NULL, 0);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 0, 1e-9);
	ck_assert_double_eq_tol(M("cost_odcr_usd"), 0, 1e-9);
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 0, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 400.00, 0.005);
	ck_assert_double_eq_tol(M("cost_total_usd"), 400.00, 0.005);
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 80.0, 1e-9);
	ck_assert_double_eq(M("instances_peak"), 2);
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 0, 1e-9);
}
END_TEST

START_TEST(gpu_hours_identity_and_littles_law)
{
	double paid, busy, idle, sum_paid = 0, sum_busy = 0, sum_idle = 0;
	const char *kinds[] = { "reserved", "on_demand", "spot", "odcr", "savings_plan", "capacity_block" };

	run_text(fixed_fleet, NULL, 0);
	paid = M("gpu_hours_paid");
	busy = M("gpu_hours_busy");
	idle = M("gpu_hours_idle");
	ck_assert_double_eq_tol(paid, busy + idle, 1e-9 * paid);
	ck_assert(busy > 0 && busy <= paid && idle >= 0);
	for (int k = 0; k < 6; k++) {
		char n[64];
		snprintf(n, sizeof n, "gpu_hours_paid_%s", kinds[k]);
		sum_paid += M(n);
		snprintf(n, sizeof n, "gpu_hours_busy_%s", kinds[k]);
		sum_busy += M(n);
		snprintf(n, sizeof n, "gpu_hours_idle_%s", kinds[k]);
		sum_idle += M(n);
	}
	ck_assert_double_eq_tol(sum_paid, paid, 1e-9 * paid);
	ck_assert_double_eq_tol(sum_busy, busy, 1e-9 * paid);
	ck_assert_double_eq_tol(sum_idle, idle, 1e-9 * paid);
	/* Little's law: mean busy slots = lambda x S = 2. Over 10 h that is 20 slot-hours = 20 GPU-hours
	 * (4 GPUs / 4 slots). The count of arrivals N in 10 h is Poisson(72000) and busy time is the sum of
	 * N exponential(1) services: its sd is sqrt(2 x 72000) s = 0.105 h; 5 sd = 0.53 GPU-hours. */
	ck_assert_double_eq_tol(busy, 20.0, 0.53);
	/* 20 slots for a load of 2: nobody waits */
	ck_assert_double_eq(M("waited_fraction"), 0);
}
END_TEST

/* A deterministic load that steps 10 -> 30 -> 10 requests/s, each 1 s long, on 10-slot instances. */
static const char step_load[] =
	"name: steps\nhorizon: 1h\nslo: {latency_s: 5}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 600s, rate_per_s: 30},"
	" {at: 1800s, rate_per_s: 10}]}\n  service: {kind: constant, mean_s: 1}\n"
	"serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
	"fleet:\n  - {option: reserved, count: 4, usd_per_h: 10, scope: zonal}\n  - {option: on_demand, max: 6, usd_per_h: 36}\n"
	"autoscaling: {policy: target_tracking, metric: concurrency_per_instance, target: 0.55, min: 4,"
	" max: 10, resolution_s: 60, scale_out_cooldown_s: 300, scale_in_cooldown_s: 300,"
	" scale_out_datapoints: 1, scale_in_datapoints: 1}\n";

START_TEST(target_tracking_timeline_by_hand)
{
	const struct capture_event *e;

	run_text(step_load, NULL, 0);
	/*
	 * By hand (SOURCES.md [tt-proportional], [tt-scale-in-margin]): before 600 s the metric is 10/40 =
	 * 0.25, below 0.55 x 0.9 = 0.495, but ceil(4 x 0.25 / 0.55) = 2 is raised to min 4: hold. The
	 * evaluation at 660 s sees ~0.74 over [600, 660]: ceil(4 x 0.74 / 0.55) = 6 -> scale out to 6,
	 * cooldown to 960 s with base 4. At 720 and 780 s: ceil(4 x 0.75 / 0.55) = 6, not larger: hold. The 2
	 * on-demand instances are ready at 780 s; from then the metric is 30/60 = 0.5, inside [0.495, 0.55]:
	 * hold. After the step down at 1800 s the evaluation at 1860 s sees ~0.17: ceil(6 x 0.17 / 0.55) = 2,
	 * raised to min 4 -> scale in to 4. Then 10/40 = 0.25 holds at min.
	 */
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 1);
	ck_assert_int_eq(capture_count(&cap, "scale_in"), 1);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_double_eq_tol(e->t_s, 660, 1e-9);
	ck_assert_int_eq(e->count, 6);
	e = capture_find(&cap, "scale_in", 0);
	ck_assert_double_eq_tol(e->t_s, 1860, 1e-9);
	ck_assert_int_eq(e->count, 4);
	e = capture_find(&cap, "launch", 0);
	ck_assert_double_eq_tol(e->t_s, 660, 1e-9);
	ck_assert_int_eq(e->count, 2);
	ck_assert_str_eq(e->option, "on_demand");
	ck_assert_int_eq(capture_count(&cap, "ready"), 2);
	ck_assert_double_eq_tol(capture_find(&cap, "ready", 1)->t_s, 780, 1e-9);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 2);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 1)->t_s, 1860, 1e-9);
	ck_assert_double_eq(M("scale_out_actions"), 1);
	ck_assert_double_eq(M("scale_in_actions"), 1);
	ck_assert_double_eq(M("launches"), 2);
	ck_assert_double_eq(M("instances_peak"), 6);
	/* no copies: no copy figures (NULL in the database) */
	ck_assert(isnan(cap.last_sample.copies) && isnan(capture_metric(&cap, "copy_hours")) &&
		  isnan(capture_metric(&cap, "copy_loads")));
}
END_TEST

/* A spike: 10 requests/s of 1 s, 40/s for two minutes from 600 s; 2 instances of 10 slots, target 0.5. */
static const char spike_load[] =
	"name: spike\nhorizon: 30m\nslo: {latency_s: 300}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 600s, rate_per_s: 40},"
	" {at: 720s, rate_per_s: 10}]}\n  service: {kind: constant, mean_s: 1}\n"
	"serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
	"fleet:\n  - {option: on_demand, count: 2, max: 6, usd_per_h: 1}\n"
	"autoscaling: {policy: target_tracking, target: 0.5, min: 2, max: 6, scale_out_datapoints: 1,"
	" scale_in_datapoints: 1}\n";

START_TEST(target_tracking_spike_by_hand)
{
	/*
	 * By hand (SOURCES.md [tt-proportional], [aas-cooldown-out]; cooldowns 300 s). The metric is
	 * (requests in service + waiting) / slots per instance in service
	 * (SOURCES.md [sm-concurrency-metric]: the concurrency metrics count queued requests).
	 *  - until 600 s: 10/20 = 0.5, neither above the target nor below 0.45: hold.
	 *  - 660 s: the 2 instances fill within the first third of a second (10 x (1 - x) + 40x = 20) and the
	 *    queue then grows by about 20/s, to about 1200 at 660 s: on average about 600 waiting, so the
	 *    metric is about (20 + 600) / 20 = 31 (the run says 30.8) -> ceil(2 x 31 / 0.5) = 124, clamped to
	 *    max 6: out to 6 (4 launched, ready at 780 s); scale-out cooldown to 960 s from base 2.
	 *  - 720 s: the queue still grows, to about 2400: hold (6 is all the policy may ask for).
	 *    780 s: it drains at 10/s on 2 instances (to about 1800): far above the target, still 6: hold.
	 *  - from 780 s 60 slots serve 60/s against 10/s of arrivals: the queue empties about 36 s later, at
	 *    about 816 s, and the last of it is served by 817 s. 840 s: busy about (60 x 36 + 10 x 24) / 60 =
	 *    40 plus on average 1800 x 36 / 2 / 60 = 540 waiting, over 60 slots: about 9.7, still above: hold.
	 *  - 900 s: 10 busy of 60, nobody waiting: 10/60 = 0.1667 < 0.45 -> ceil(6 x 0.1667 / 0.5) =
	 *    ceil(2.0) = 2: in to 2. The 4 on-demand instances hold no request (first fit keeps the 10 on the
	 *    first two), so they terminate at once.
	 * Before the metric counted the queue it was capped at 1 (busy / slots): ceil(2 x 1 / 0.5) = 4 at
	 * 660 s, then in to 3 at 900 s and to 2 at 1200 s.
	 */
	const struct capture_event *e;

	run_text(spike_load, NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 1);
	ck_assert_int_eq(capture_count(&cap, "scale_in"), 1);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_double_eq_tol(e->t_s, 660, 1e-9);
	ck_assert_int_eq(e->count, 6);
	e = capture_find(&cap, "scale_in", 0);
	ck_assert_double_eq_tol(e->t_s, 900, 1e-9);
	ck_assert_int_eq(e->count, 2);
	e = capture_find(&cap, "launch", 0);
	ck_assert_double_eq_tol(e->t_s, 660, 1e-9);
	ck_assert_int_eq(e->count, 4);
	ck_assert_int_eq(capture_count(&cap, "ready"), 4);
	ck_assert_double_eq_tol(capture_find(&cap, "ready", 3)->t_s, 780, 1e-9);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 4);
	for (int i = 0; i < 4; i++)
		ck_assert_double_eq_tol(capture_find(&cap, "terminate", i)->t_s, 900, 1e-9);
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
}
END_TEST

START_TEST(concurrency_counts_waiting_requests)
{
	/*
	 * Overload, whole run: 2 instances of 10 slots (20 requests/s of 1 s) get 22/s during [600, 660] s,
	 * 10/s otherwise; target 0.5 on concurrency_per_instance, max 20, 1 datapoint each way, startup
	 * 120 s. The metric is (in service + waiting) / slots per instance in service
	 * (SOURCES.md [sm-concurrency-metric]). By hand:
	 *  - until 600 s: 10/20 = 0.5: hold.
	 *  - 660 s: the slots fill at 600 + 10/12 s (10 x (1 - x) + 22x = 20). From then each second n
	 *    (n = 0..59 from 600 s) the queue stays at 2n for 10/12 s, while the requests started at 22/s
	 *    end, and grows by 2 in the last 1/6 s, while those started at 10/s end (12/s more arrive than
	 *    start): mean 2n + 1/6, so the minute's mean is (2 x 1770 + 60/6) / 60 = 59.17 waiting. Busy:
	 *    15 on average for 10/12 s, then 20: (12.5 + 20 x 59.1667) / 60 = 19.93. Metric (19.93 + 59.17) / 20
	 *    = 3.955 -> ceil(2 x 3.955 / 0.5) = ceil(15.82) = 16: out to 16, 14 launched (ready at 780 s).
	 *    (Busy slots / slots alone is 19.93 / 20 = 0.997 -> ceil(3.99) = 4: the capped metric could
	 *    only double the fleet however long the queue.)
	 *  - 720 s: the queue of 120 at 660 s drains at 20 - 10 = 10/s, empty at 672 s; the metric over
	 *    [660, 720] is about (20 x 12 + 10 x 48 + 120 x 12 / 2) / 60 / 20 = 1.2 > 0.5, but in the
	 *    scale-out cooldown ceil(2 x 1.2 / 0.5) = 5 is not more than 16: hold. 780 s: 10/20 = 0.5: hold.
	 *  - 840 s: 10 busy of 160 slots: 0.0625 < 0.45 -> ceil(16 x 0.0625 / 0.5) = ceil(2.0) = 2: in to 2;
	 *    the 14 new instances hold no request and terminate at 840 s.
	 * Bill: 14 x 180 s + 2 x 1800 s at $1/h = 0.70 + 1.00 = $1.70. Requests: 10 x 600 + 22 x 60 +
	 * 10 x 1140 = 18720, all served; the longest wait is the request arriving at 660 s behind 120, which
	 * start at 20/s: 6 s, so the longest latency is 7 s.
	 */
	const struct capture_event *e;

	run_text("name: overload\nhorizon: 30m\nslo: {latency_s: 300}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 600s, rate_per_s: 22},"
		 " {at: 660s, rate_per_s: 10}]}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 120}\n"
		 "fleet:\n  - {option: on_demand, count: 2, max: 20, usd_per_h: 1}\n"
		 "autoscaling: {policy: target_tracking, target: 0.5, min: 2, max: 20, scale_out_datapoints: 1,"
		 " scale_in_datapoints: 1}\n", NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 1);
	ck_assert_int_eq(capture_count(&cap, "scale_in"), 1);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_double_eq_tol(e->t_s, 660, 1e-9);
	ck_assert_int_eq(e->count, 16);
	e = capture_find(&cap, "launch", 0);
	ck_assert_int_eq(e->count, 14);
	ck_assert_int_eq(capture_count(&cap, "ready"), 14);
	ck_assert_double_eq_tol(capture_find(&cap, "ready", 13)->t_s, 780, 1e-9);
	e = capture_find(&cap, "scale_in", 0);
	ck_assert_double_eq_tol(e->t_s, 840, 1e-9);
	ck_assert_int_eq(e->count, 2);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 14);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 13)->t_s, 840, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 1.70, 0.005);
	ck_assert_double_eq(M("requests_total"), 18720);
	ck_assert_double_eq(M("requests_served"), 18720);
	ck_assert_double_eq_tol(M("latency_max_s"), 7.0, 1e-9);
}
END_TEST

START_TEST(on_demand_billed_from_launch_to_termination)
{
	run_text(step_load, NULL, 0);
	/* 2 instances x (1860 - 660) s x $36/h = $24.00; reserved 4 x $10 x 1 h = $40.00 */
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 24.00, 0.005);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 40.00, 0.005);
	/* 1 GPU each: 2 x 1200 s = 0.6667 GPU-hours paid. First-fit packing keeps the 30 busy slots on
	 * the reserved instances, so the on-demand GPUs sat idle the whole time. */
	ck_assert_double_eq_tol(M("gpu_hours_paid_on_demand"), 2 * 1200 / 3600.0, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_busy_on_demand"), 0, 1e-9);
	/* served everything: 10 x 600 + 30 x 1200 + 10 x 1800 = 60000 requests, none waited */
	ck_assert_double_eq(M("requests_total"), 60000);
	ck_assert_double_eq(M("requests_served"), 60000);
	ck_assert_double_eq_tol(M("latency_max_s"), 1.0, 1e-9);
}
END_TEST

START_TEST(short_lived_on_demand_pays_60s_minimum)
{
	/* Scale in right after the instances were launched: they are cancelled before ready and each
	 * pays 60 s. A spike 600..660 s makes the 660 s evaluation scale out; at 720 s the metric is back
	 * to 0.25 -> scale in (the scale-in cooldown has not started; scale-out cooldown does not block it). */
	const char *sets[] = { "workload.arrivals.steps.1.at=660s", "serving.startup_s=600" };
	run_text(step_load, sets, 2);
	ck_assert_int_eq(capture_count(&cap, "scale_in"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "scale_in", 0)->t_s, 720, 1e-9);
	ck_assert_int_eq(capture_count(&cap, "ready"), 0);
	/* 2 x 60 s x $36/h = $1.20 (they lived 60 s: exactly the minimum) */
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 1.20, 0.005);
	/*
	 * A lifetime under the minimum, which the run above cannot tell apart from per-second billing: a
	 * scheduled action raises min to 3 at 600 s (2 on-demand launches beside the reserved instance), the
	 * next lowers max to 1 at 630 s, which cancels both 30 s after launch. Billed 60 s each:
	 * 2 x 60 / 3600 x $36/h = $1.20 (per second without the minimum: 2 x 30 / 3600 x 36 = $0.60).
	 */
	run_text("name: odmin\nstart: 2026-01-01T00:00:00Z\nhorizon: 1h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, startup_s: 600}\ncatalog: {g6.xlarge: {usd_per_h: 36}}\n"
		 "fleet:\n  - {option: reserved, count: 1, usd_per_h: 0, scope: zonal}\n  - {option: on_demand, max: 2}\n"
		 "autoscaling: {policy: none, schedule: [{at: 2026-01-01T00:10:00Z, min: 3},"
		 " {at: 2026-01-01T00:10:30Z, min: 1, max: 1}]}\n", NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "launch"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "launch", 0)->t_s, 600, 1e-9);
	ck_assert_int_eq(capture_find(&cap, "launch", 0)->count, 2);
	ck_assert_int_eq(capture_count(&cap, "cancel"), 2);
	for (int i = 0; i < 2; i++)
		ck_assert_double_eq_tol(capture_find(&cap, "cancel", i)->t_s, 630, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 1.20, 1e-9);
}
END_TEST

START_TEST(every_request_is_accounted_for)
{
	/* Overload: 1 instance x 2 slots for 3 requests/s of exactly 1 s; 5 s timeout; queue of at most 50. (A
	 * constant service time makes the bound on what is served below exact: with exponential ones two slots
	 * serve a Poisson-like count of mean 7200 an hour, over the bound about half the time.) */
	const char *sets[] = { "fleet.0.count=1", "fleet.1.count=0", "serving.slots_per_instance=2",
			       "serving.queue_timeout_s=5", "serving.max_queue=50", "workload.arrivals.rate_per_s=3",
			       "horizon=1h", "workload.service.kind=constant" };
	run_text(fixed_fleet, sets, 8);
	double total = M("requests_total");
	ck_assert_double_eq(M("requests_served") + M("requests_dropped"), total);
	ck_assert_double_eq(M("requests_dropped"),
				M("requests_timed_out") + M("requests_refused") + M("requests_unserved"));
	ck_assert(M("requests_timed_out") > 0);
	/* Served at most 2 per second while a request can start: every served request arrived before the
	 * horizon and started within the 5 s timeout of its arrival, so in [0, 3605 s]; each slot starts at most
	 * one a second there, 3605 + 1 (the run's drain, after the horizon, is included) */
	ck_assert_msg(M("requests_served") <= 2 * (3600 + 5) + 2, "served %g", M("requests_served"));
	/* no served request waited more than the timeout (1% histogram resolution) */
	ck_assert(M("wait_p99_s") <= 5.0 * 1.01);
	ck_assert(M("slo_violations") >= M("requests_dropped"));
}
END_TEST

/* One slot, a request every 0.25 s (at 0.25 k s, k = 1..2400 in 10 min), each 0.9 s long: the slot is
 * busy from 0.25 s on and frees at 0.25 + 0.9 j s. Queue settings are added by the caller. */
static const char *const one_slot[] = { "fleet.0.count=1", "fleet.1.count=0", "serving.slots_per_instance=1",
					"workload.arrivals.kind=uniform", "workload.arrivals.rate_per_s=4",
					"workload.service.kind=constant", "workload.service.mean_s=0.9", "horizon=10m",
					NULL };

START_TEST(full_queue_refuses)
{
	/*
	 * max_queue 3: the first request (0.25 s) is served at once, the next three (0.5, 0.75, 1 s) fill the
	 * queue, and from then on each departure at 0.25 + 0.9 j s frees one place, taken by the next arrival
	 * (at or after it: at a tie the arrival is either refused and the next one 0.25 s later admitted, or
	 * admitted: one either way); every other arrival finds 3 waiting and is refused. Departures before the
	 * last arrival (600 s): 0.25 + 0.9 j <= 600, j <= 666.4, so 666, each followed by an arrival by 600 s.
	 * Admitted: 1 + 3 + 666 = 670, all served (the drain after the horizon finishes them); refused:
	 * 2400 - 670 = 1730. (A queue that took 4: 671 and 1729.)
	 */
	const char *sets[10] = { "serving.max_queue=3" };
	for (int i = 0; one_slot[i]; i++)
		sets[i + 1] = one_slot[i];
	run_text(fixed_fleet, sets, 9);
	ck_assert_double_eq(M("requests_total"), 2400);
	ck_assert_double_eq(M("requests_served"), 670);
	ck_assert_double_eq(M("requests_refused"), 1730);
	ck_assert_double_eq(M("requests_timed_out"), 0);
	ck_assert_double_eq(M("requests_served") + M("requests_dropped"), M("requests_total"));
}
END_TEST

START_TEST(queue_timeout_drops_by_hand)
{
	/*
	 * The same load with queue_timeout_s 2.01 and no queue limit: a request still waiting 2.01 s after
	 * it arrived leaves the queue, timed out. Each time the slot frees (0.25 + 0.9 j s) it takes the
	 * oldest request not yet timed out, one that arrived after 0.25 + 0.9 j - 2.01 s; 0.9 j - 0.25 k is
	 * never 1.76 (90 j - 25 k is a multiple of 5, 176 is not), so no timeout falls on a departure. The slot
	 * never idles while arrivals last, and after the last (600 s) it goes on while some request is under
	 * 2.01 s old: starts at 0.25 + 0.9 j for 0.25 + 0.9 j < 602.01, j <= 668, so 669 served and
	 * 2400 - 669 = 1731 timed out. Every served request waited under 2.01 s.
	 */
	const char *sets[10] = { "serving.queue_timeout_s=2.01" };
	for (int i = 0; one_slot[i]; i++)
		sets[i + 1] = one_slot[i];
	run_text(fixed_fleet, sets, 9);
	ck_assert_double_eq(M("requests_total"), 2400);
	ck_assert_double_eq(M("requests_served"), 669);
	ck_assert_double_eq(M("requests_timed_out"), 1731);
	ck_assert_double_eq(M("requests_refused"), 0);
	ck_assert_double_le(M("wait_p99_s"), 2.01);
}
END_TEST

START_TEST(provisioning_times)
{
	/* The step load above: 10 busy slots of 40 before 600 s, 30 of 40 until the 2 on-demand instances
	 * serve at 780 s, then 30 of 60, then 10 of 40: never a queue, and always at least one instance's
	 * worth (10 slots) idle: under-provisioned 0 s, over-provisioned the whole 3600 s. */
	run_text(step_load, NULL, 0);
	ck_assert_double_eq_tol(M("time_under_provisioned_s"), 0, 1e-9);
	ck_assert_double_eq_tol(M("time_over_provisioned_s"), 3600, 1e-6);
	/* One instance of 5 slots for 10 requests/s of 1 s: the 6th request (0.6 s) is the first to wait
	 * and the queue never empties: under 3600 - 0.6 s; over only while no slot was busy, [0, 0.1 s). */
	run_text("name: over\nhorizon: 1h\nslo: {latency_s: 5}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 10}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 5}\n"
		 "fleet:\n  - {option: reserved, count: 1, scope: zonal}\n", NULL, 0);
	ck_assert_double_eq_tol(M("time_under_provisioned_s"), 3600 - 0.6, 1e-6);
	ck_assert_double_eq_tol(M("time_over_provisioned_s"), 0.1, 1e-6);
}
END_TEST

START_TEST(high_resolution_metric_scales_out_sooner)
{
	/*
	 * The step load with target tracking's alarm needing 3 datapoints above the target. The load steps
	 * up at 600 s; every datapoint after it is ~0.75 > 0.55.
	 *  - 60 s metric: datapoints at 660, 720, 780 -> scale out at 780 s;
	 *  - 10 s metric (the high-resolution concurrency metric): 610, 620, 630 -> scale out at 630 s.
	 * Both to ceil(4 x 0.75 / 0.55) = 6.
	 */
	const char *slow[] = { "autoscaling.scale_out_datapoints=3", "autoscaling.resolution_s=60" };
	const char *fast[] = { "autoscaling.scale_out_datapoints=3", "autoscaling.resolution_s=10" };
	const struct capture_event *e;
	double t_slow, t_fast;

	run_text(step_load, slow, 2);
	e = capture_find(&cap, "scale_out", 0);
	t_slow = e->t_s;
	ck_assert_double_eq_tol(t_slow, 780, 1e-9);
	ck_assert_int_eq(e->count, 6);
	run_text(step_load, fast, 2);
	e = capture_find(&cap, "scale_out", 0);
	t_fast = e->t_s;
	ck_assert_double_eq_tol(t_fast, 630, 1e-9);
	ck_assert_int_eq(e->count, 6);
	ck_assert(t_fast < t_slow);
}
END_TEST

START_TEST(scale_in_waits_for_its_datapoints)
{
	/* The step load, scale-in alarm of 15 datapoints: the load falls at 1800 s; the datapoints from 1860 s
	 * on are below 0.495, the 15th at 1800 + 15 x 60 = 2700 s -> scale in to 4 then (not at 1860). */
	const char *sets[] = { "autoscaling.scale_in_datapoints=15" };
	run_text(step_load, sets, 1);
	ck_assert_int_eq(capture_count(&cap, "scale_in"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "scale_in", 0)->t_s, 2700, 1e-9);
	ck_assert_int_eq(capture_find(&cap, "scale_in", 0)->count, 4);
}
END_TEST

START_TEST(high_resolution_metric_scales_in_at_standard_speed)
{
	/*
	 * The step load at resolution_s 10 with a scale-in alarm of 15 datapoints
	 * (SOURCES.md [tt-high-res-scale-in]: a high-resolution metric scales in "at the same speed as standard
	 * metrics"). By hand:
	 *  - 610 s: over [600, 610] busy ramps from 10 to 30 in the first second: (20 + 9 x 30) / 10 / 40 =
	 *    0.725 -> out to ceil(4 x 0.725 / 0.55) = 6 (1 datapoint); ready at 730 s; then 30/60 = 0.5 holds.
	 *  - the load falls at 1800 s: every 10 s sample from 1810 s is below 0.495 (11/60 = 0.18, then
	 *    10/60 = 0.17), and so is every one-minute average from (1800, 1860] on. The 15th one-minute
	 *    datapoint closes at 1800 + 15 x 60 = 2700 s -> scale in to ceil(6 x 0.167 / 0.55) = 2, raised to
	 *    min 4, at 2700 s: 900 s after the drop, as at resolution_s 60, not after 15 x 10 = 150 s (1950 s).
	 */
	const char *sets[] = { "autoscaling.resolution_s=10", "autoscaling.scale_in_datapoints=15" };
	const struct capture_event *e;

	run_text(step_load, sets, 2);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_double_eq_tol(e->t_s, 610, 1e-9);
	ck_assert_int_eq(e->count, 6);
	ck_assert_int_eq(capture_count(&cap, "scale_in"), 1);
	e = capture_find(&cap, "scale_in", 0);
	ck_assert_double_eq_tol(e->t_s, 2700, 1e-9);
	ck_assert_int_eq(e->count, 4);
}
END_TEST

START_TEST(several_policies_on_one_target)
{
	/*
	 * The step load (concurrency target 0.55, 1 datapoint) plus a second policy on invocations per
	 * instance per minute, target 120 (SOURCES.md [tt-multiple-policies]: out if ANY, in only if ALL, the
	 * largest capacity wins):
	 *  - 60 s: 600 arrivals / 4 instances = 150 > 120 -> the second policy asks ceil(4 x 150 / 120) = 5;
	 *    concurrency 10 / 40 = 0.25 would scale in but sits at min 4: out to 5 (ANY).
	 *  - 240 s: the 5th instance serves (since 180 s): 600 / 5 = 120, the second policy holds;
	 *    concurrency 10 / 50 = 0.2 asks to scale in to 4: not ALL agree -> no scale-in before the step.
	 *  - 660 s: concurrency ~0.59 asks ceil(5 x 0.594 / 0.55) = 6, invocations 1800 / 5 = 360 asks
	 *    ceil(5 x 360 / 120) = 15 -> max 10: out to 10 (the LARGEST).
	 */
	const struct capture_event *e;
	char text[2048];
	const char *cut = strstr(step_load, "scale_in_datapoints: 1}");

	snprintf(text, sizeof text, "%.*sscale_in_datapoints: 1, also: [{metric: invocations_per_instance, "
		 "target: 120}]}\n", (int)(cut - step_load), step_load);
	run_text(text, NULL, 0);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_double_eq_tol(e->t_s, 60, 1e-9);
	ck_assert_int_eq(e->count, 5);
	for (int i = 0; (e = capture_find(&cap, "scale_in", i)); i++)
		ck_assert_msg(e->t_s > 600, "scale-in at %g s although a policy held", e->t_s);
	e = capture_find(&cap, "scale_out", 1);
	ck_assert_double_eq_tol(e->t_s, 660, 1e-9);
	ck_assert_int_eq(e->count, 10);
}
END_TEST

START_TEST(scale_to_zero_and_back)
{
	/*
	 * 10 requests/s of 1 s on 2 instances of 10 slots until 600 s, nothing until 1800 s, then 10/s again;
	 * target tracking at 0.5 with min 0 (1 datapoint), scale-in cooldown 300 s, startup 60 s,
	 * scale_from_zero, on an async endpoint (a real-time one without copies may not go below 1 instance,
	 * SOURCES.md [sm-realtime-min1]; an async one queues what arrives at zero). By hand:
	 *  - 660 s: the metric over [600, 660] is tiny but not 0 (the last requests end at 601 s):
	 *    ceil(2 x 0.004 / 0.5) = 1 -> in to 1;
	 *  - 960 s (cooldown over): a real 0 -> ceil(1 x 0 / 0.5) = 0 -> in to 0
	 *    (SOURCES.md [tt-scale-to-zero]);
	 *  - 1800 s: requests wait with no capacity; the backlog datapoints at 1860 and 1920 s -> out to 1 at
	 *    1920 s (ready at 1980 s);
	 *  - 2040 s: over [1980, 2040] 10 busy slots of 10 and the 1800 requests that arrived since 1800 s
	 *    less the 10 that started at 1980 s still waiting (10/s arrive, 10/s start): (10 + 1790) / 10 =
	 *    180 -> ceil(1 x 180 / 0.5) = 360,
	 *    max 4 -> out to 4 (the time with nothing serving, [1800, 1980], does not count).
	 */
	const struct capture_event *e;
	run_text("name: zero\nhorizon: 1h\nslo: {latency_s: 600}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 600s, rate_per_s: 0},"
		 " {at: 1800s, rate_per_s: 10}]}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 60, endpoint: async}\n"
		 "fleet:\n  - {option: on_demand, count: 2, max: 4}\n"
		 "autoscaling: {policy: target_tracking, target: 0.5, min: 0, max: 4, scale_out_datapoints: 1,"
		 " scale_in_datapoints: 1, scale_out_cooldown_s: 0, scale_from_zero: true}\n", NULL, 0);
	e = capture_find(&cap, "scale_in", 0);
	ck_assert_double_eq_tol(e->t_s, 660, 1e-9);
	ck_assert_int_eq(e->count, 1);
	e = capture_find(&cap, "scale_in", 1);
	ck_assert_double_eq_tol(e->t_s, 960, 1e-9);
	ck_assert_int_eq(e->count, 0);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_double_eq_tol(e->t_s, 1920, 1e-9);
	ck_assert_int_eq(e->count, 1);
	e = capture_find(&cap, "scale_out", 1);
	ck_assert_double_eq_tol(e->t_s, 2040, 1e-9);
	ck_assert_int_eq(e->count, 4);
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
}
END_TEST

START_TEST(backlog_metric)
{
	/* One instance of 5 slots for 10 requests/s of 1 s: the queue grows by 5 per second from 0.6 s, so
	 * its average over the first minute is about 5 x 59.4^2 / 2 / 60 = 147 requests on 1 instance.
	 * Target 10 per instance: ceil(1 x 147 / 10) = 15, capped at max 12, at the first evaluation. */
	const struct capture_event *e;
	run_text("name: backlog\nhorizon: 10m\nslo: {latency_s: 600}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 10}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 5, startup_s: 60}\n"
		 "fleet:\n  - {option: on_demand, count: 1, max: 12}\n"
		 "autoscaling: {policy: target_tracking, metric: backlog_per_instance, target: 10, min: 1, max: 12,"
		 " scale_out_datapoints: 1}\n", NULL, 0);
	e = capture_find(&cap, "scale_out", 0);
	ck_assert_msg(e != NULL, "no scale-out");
	ck_assert_double_eq_tol(e->t_s, 60, 1e-9);
	ck_assert_int_eq(e->count, 12);
}
END_TEST

START_TEST(hpa_timeline_by_hand)
{
	/*
	 * The same step load on an HPA (SOURCES.md [hpa-formula], [hpa-not-ready]): 4 on-demand instances at
	 * t = 0, target 0.5, 15 s loop, startup 60 s, max 10. The metric counts waiting requests too ((in
	 * service + waiting) / slots per instance in service, SOURCES.md [sm-concurrency-metric]). By hand:
	 *  - 15 s: 10 busy / 40 slots = 0.25, ratio 0.5 -> recommends ceil(4 x 0.5) = 2; the window holds
	 *    only that recommendation -> scale in to 2.
	 *  - until 600 s: 10 / 20 = 0.5, ratio 1 -> 2: hold.
	 *  - 615 s: the load steps to 30/s at 600 s; busy ramps from 10 to 20 slots by 600.5 s (10 x (1 - x)
	 *    + 30x = 20), mean busy (15 x 0.5 + 20 x 14.5) / 15 = 19.833. Then in each second n from 600 s
	 *    the queue stays at 10n for half a second (the requests started at 30/s end as fast as they
	 *    arrive) and grows by 10 in the other half (those started at 10/s end): mean 10n + 2.5, so over
	 *    n = 0..14 (10 x 105 + 37.5) / 15 = 72.5 waiting. Metric (19.833 + 72.5) / 20 = 4.617, ratio 9.23
	 *    -> ceil(2 x 9.23) = 19, max 10, limited to max(2 x 2, 2 + 4) = 6 -> scale out to 6 (ready 675 s).
	 *  - 630 s: still 2 serving, queue 150 -> 300 (mean 10 x 330 / 15 + 2.5 = 222.5): (20 + 222.5) / 20 =
	 *    12.125, ratio 24.25, with 2 of 6 ready x 2/6 = 8.08 -> ceil(6 x 8.08) = 49, max 10, within
	 *    max(6 x 2, 6 + 4) = 12 -> scale out to 10 (ready at 690 s).
	 *  - 645-690 s: at max, every recommendation is 10: hold. The queue reaches 750 at 675 s; 40 start on
	 *    the 4 new instances, and it drains at 60 - 30 = 30/s to 260 at 690 s, where the last 4 take 40:
	 *    220, draining at 70/s to empty at about 693.1 s.
	 *  - 705 s: over [690, 705] about 100 busy for 4 s then 30, plus 220 x 3.1 / 2 waiting on average
	 *    over the period's 15 s: (742 + 346) / 15 / 100 = 0.73, ratio 1.45 -> recommends 10 again.
	 *  - 720 s on: 30 busy / 100 slots = 0.3, ratio 0.6 -> recommends 6; the window holds the 10
	 *    recommended at 705 s until 1005 s -> scale in to 6 at 1020 s.
	 *  - 1035-1800 s: 30 / 60 = 0.5: ratio 1, recommends 6.
	 *  - 1815 s: the load is back to 10/s from 1800 s; the last 30/s requests end in its first second:
	 *    (10 x 15 + 10) / 15 / 60 = 0.178, ratio 0.356 -> ceil(6 x 0.356) = 3; from 1830 s 10/60 -> 2.
	 *    The window holds a 6 until 2100 s, then the 3 until 2115 s -> scale in to 3 at 2115 s (the 6 of
	 *    1800 s has aged out), to 2 at 2130 s.
	 * (With busy slots / slots alone, capped at 1, the ratio was 1.98 at 615 s: out to 4, then 8 at 690 s
	 * and in to 6 at 1065 s.)
	 */
	const struct capture_event *e;
	const double t[6] = { 15, 615, 630, 1020, 2115, 2130 };
	const int n[6] = { 2, 6, 10, 6, 3, 2 };
	const char *kind[6] = { "scale_in", "scale_out", "scale_out", "scale_in", "scale_in", "scale_in" };
	const int nth[6] = { 0, 0, 1, 1, 2, 3 };
	run_text("name: hpa\nhorizon: 1h\nslo: {latency_s: 60}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 10, steps: [{at: 600s, rate_per_s: 30},"
		 " {at: 1800s, rate_per_s: 10}]}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 10, startup_s: 60}\n"
		 "fleet:\n  - {option: on_demand, count: 4, max: 10, usd_per_h: 1}\n"
		 "autoscaling: {policy: hpa, target: 0.5, min: 1, max: 10}\n", NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "scale_out"), 2);
	ck_assert_int_eq(capture_count(&cap, "scale_in"), 4);
	for (int i = 0; i < 6; i++) {
		e = capture_find(&cap, kind[i], nth[i]);
		ck_assert_msg(e != NULL, "scaling action %d missing", i);
		ck_assert_double_eq_tol(e->t_s, t[i], 1e-9);
		ck_assert_int_eq(e->count, n[i]);
	}
}
END_TEST

static void metrics_of(const char *yaml, const char *const *sets, int nsets, struct sink_metric *out, int *n)
{
	run_text(yaml, sets, nsets);
	memcpy(out, cap.metrics, sizeof cap.metrics[0] * (size_t)cap.nmetrics);
	*n = cap.nmetrics;
}

START_TEST(same_seed_same_metrics)
{
	static struct sink_metric a[128], b[128];
	int na, nb, differ = 0;
	const char *s1[] = { "seed=11" }, *s2[] = { "seed=12" };

	metrics_of(step_load, NULL, 0, a, &na);
	metrics_of(fixed_fleet, s1, 1, a, &na);
	metrics_of(fixed_fleet, s1, 1, b, &nb);
	ck_assert_int_eq(na, nb);
	for (int i = 0; i < na; i++) {
		ck_assert_str_eq(a[i].name, b[i].name);
		if (strcmp(a[i].name, "wall_s") == 0)
			continue;
		ck_assert_msg(memcmp(&a[i].value, &b[i].value, sizeof(double)) == 0, "%s differs", a[i].name);
	}
	metrics_of(fixed_fleet, s2, 1, b, &nb);
	for (int i = 0; i < na; i++)
		differ += strcmp(a[i].name, "wall_s") && !(a[i].value == b[i].value);
	ck_assert_msg(differ > 0, "another seed gave identical metrics");
}
END_TEST

START_TEST(samples_every_period)
{
	run_text(fixed_fleet, NULL, 0);
	/* 10 h at 60 s: 600 samples, the last at the horizon with the 5 instances */
	ck_assert_int_eq(cap.nsamples, 600);
	ck_assert_double_eq_tol(cap.last_sample.t_s, 36000, 1e-9);
	ck_assert_double_eq(cap.last_sample.instances_total, 5);
	ck_assert_double_eq_tol(cap.last_sample.cost_usd_per_h, 3 * 10 + 2 * 20, 1e-9);
}
END_TEST

/*
 * Time never runs backwards, in any build (sim/engine.h): an arrival source that goes back in time fails
 * the run instead of moving the clock back. No loader accepts such a source, so the test breaks a loaded
 * scenario by hand: uniform arrivals (u_n = n on the integrated-rate scale) at 1/s from 0, a step at 10 s
 * (rate 1/s) and then a step placed *before* it, at 5 s, with rate 100/s. Arrivals 1..10 come at
 * 1, 2, ..., 10 s; the 11th inverts through the last step, whose integrated rate starts at
 * L = 10 + 1 x (5 - 10) = 5: t = 5 + (11 - 5) / 100 = 5.06 s, while the clock stands at 10 s. The run
 * must fail with STATUS_EINTERNAL (exit 1, not a user error), say which event and both times, and leave
 * no run in the database (the store rolls the run back).
 */
START_TEST(arrival_into_the_past_fails_the_run)
{
	char *scen = test_write_file("past.yaml", fixed_fleet), *db = test_write_file("past.sqlite", "");
	struct world_report *rep = calloc(1, sizeof *rep);
	struct store *st = NULL;
	struct scenario sc;
	struct sink sink;
	struct diag d = {{0}};
	sqlite3 *q;
	sqlite3_stmt *stmt;
	int rc;

	ck_assert_ptr_nonnull(rep);
	remove(db);  /* a fresh database, as `gpucap run --db` makes it */
	ck_assert_msg(scenario_load(&sc, scen, NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	sc.arrivals.kind = ARRIVAL_UNIFORM;
	sc.arrivals.rate_per_s = 1;
	sc.arrivals.steps[0].at_us = 10 * SIM_US_PER_S;
	sc.arrivals.steps[0].rate_per_s = 1;
	sc.arrivals.steps[1].at_us = 5 * SIM_US_PER_S;
	sc.arrivals.steps[1].rate_per_s = 100;
	sc.arrivals.nsteps = 2;
	ck_assert_msg(store_open(&st, db, &d) == STATUS_OK, "%s", d.msg);
	sink = store_sink(st, &d);
	rc = world_run(&sc, &sink, "test", rep, &d);
	store_close(st);
	ck_assert_int_eq(rc, STATUS_EINTERNAL);
	ck_assert(!status_is_user_error(rc));  /* gpucap run exits 1 */
	ck_assert_msg(strstr(d.msg, "the arrival event was scheduled at t = 5.060000 s, before the clock "
			  "(t = 10.000000 s)") != NULL, "message: %s", d.msg);
	ck_assert_int_eq(sqlite3_open_v2(db, &q, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(q, "SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM "
					    "metrics) + (SELECT count(*) FROM samples) + (SELECT count(*) FROM "
					    "events)", -1, &stmt, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(stmt), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(stmt, 0), 0);
	sqlite3_finalize(stmt);
	sqlite3_close(q);
	scenario_fini(&sc);
	free(rep);
	test_remove_file(db);
	test_remove_file(scen);
}
END_TEST

static Suite *world_suite(void)
{
	Suite *s = suite_create("world");
	TCase *tc = tcase_create("runs");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, fixed_fleet_cost_to_the_cent);
	tcase_add_test(tc, fixed_fleet_cost_scales_with_overrides);
	tcase_add_test(tc, zero_count_entries_buy_nothing);
	tcase_add_test(tc, gpu_hours_identity_and_littles_law);
	tcase_add_test(tc, target_tracking_timeline_by_hand);
	tcase_add_test(tc, on_demand_billed_from_launch_to_termination);
	tcase_add_test(tc, short_lived_on_demand_pays_60s_minimum);
	tcase_add_test(tc, every_request_is_accounted_for);
	tcase_add_test(tc, full_queue_refuses);
	tcase_add_test(tc, queue_timeout_drops_by_hand);
	tcase_add_test(tc, same_seed_same_metrics);
	tcase_add_test(tc, samples_every_period);
	tcase_add_test(tc, provisioning_times);
	tcase_add_test(tc, hpa_timeline_by_hand);
	tcase_add_test(tc, backlog_metric);
	tcase_add_test(tc, several_policies_on_one_target);
	tcase_add_test(tc, scale_to_zero_and_back);
	tcase_add_test(tc, target_tracking_spike_by_hand);
	tcase_add_test(tc, concurrency_counts_waiting_requests);
	tcase_add_test(tc, high_resolution_metric_scales_out_sooner);
	tcase_add_test(tc, scale_in_waits_for_its_datapoints);
	tcase_add_test(tc, arrival_into_the_past_fails_the_run);
	tcase_add_test(tc, high_resolution_metric_scales_in_at_standard_speed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(world_suite());
}
