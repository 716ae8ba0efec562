/*
 * check_plan: SageMaker training plans, loaded (models/load/scenario_plan.c: one fleet entry per segment, prices,
 * the fleet list's positions in messages) and run (models/capacity/option_plan.c: a segment's instances, their
 * notice at end - 30 min - expiry_notice and their end at end - 30 min, the upfront bill, the window's
 * edges). Every figure is worked out by hand in the comments. Money is compared to the cent (CENT), times
 * and GPU-hours, which are sums of exact binary fractions of whole seconds, with 1e-9. The malformed plans
 * of tests/data/bad/plan_*.yaml are checked with every bad file by check_scenario and e2e_bad_scenarios.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "scenario.h"
#include "scenario_fixtures.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

#define CENT 0.005

static struct capture cap;
static char yaml[16384];

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/* A light load (1 request/s of 1 s on 8-slot p5.48xlarge, startup 600 s) from 2026-01-01T00:00:00Z, and a
 * fleet given by the caller. */
static const char *light(const char *horizon, const char *fleet)
{
	snprintf(yaml, sizeof yaml,
		 "name: plan\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: %s\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 8, startup_s: 600}\n"
		 "fleet:\n%s", horizon, fleet);
	return yaml;
}

/* Run text; with jobs_use, the plan's segments (option training_plan) are given to the jobs user, as `use:
 * jobs` would (no jobs user is registered here: nothing gives their instances back early). */
static void run_plan(const char *text, bool jobs_use)
{
	struct scenario sc;
	struct world_report rep;
	struct diag d;
	struct sink sink = capture_sink(&cap);
	int rc = scenario_parse_string(&sc, text, "test.yaml", NULL, 0, &d);

	ck_assert_msg(rc == STATUS_OK, "scenario: %s", d.msg);
	for (int i = 0; jobs_use && i < sc.nfleet; i++)
		if (sc.fleet[i].option == OPTION_TRAINING_PLAN)
			sc.fleet[i].use = USE_JOBS;
	rc = world_run(&sc, &sink, "test", &rep, &d);
	ck_assert_msg(rc == STATUS_OK, "run: %s", d.msg);
	ck_assert_int_eq(cap.end_status, STATUS_OK);
	scenario_fini(&sc);
}

/* The events of kind `kind` under option `option`: how many, and each one's time must be t_s. */
static int events_at(const char *kind, const char *option, double t_s)
{
	int n = 0;

	for (int i = 0; i < cap.nevents; i++) {
		const struct capture_event *e = &cap.events[i];
		if (strcmp(e->kind, kind) != 0 || strcmp(e->option, option) != 0)
			continue;
		ck_assert_msg(fabs(e->t_s - t_s) < 1e-9, "%s %s at %.6f s, expected %.6f s", kind, option, e->t_s,
			      t_s);
		n += e->count;
	}
	return n;
}

/* ---- loading ------------------------------------------------------------------------------------- */

/*
 * Two plans between a reserved and an on_demand entry, from 2026-01-01T00:00:00Z:
 *  - plan 0, no price: the catalogue's Capacity Block rate of p5.48xlarge, 39.33; expiry notice 10 min by
 *    default. Segment 0 from 2026-01-03T11:30 = 2 d + 11.5 h = 214200 s, 3 days, 8 instances: upfront
 *    39.33 x 8 x 72 h = 22654.08. Segment 1 from 2026-01-07T11:30 = 6 d + 11.5 h = 559800 s, 2 days, 8
 *    instances, at its own 31.46: 31.46 x 8 x 48 = 12080.64.
 *  - plan 1, usd_per_h 20, expiry_notice 5m, one segment of 2 days x 8 paid 12000 up front: per
 *    instance-hour 12000 / (8 x 48) = 31.25.
 * Entries: reserved, plan 0's two segments, on_demand, plan 1's segment: 5.
 */
START_TEST(segments_expand_in_order)
{
	static const char text[] =
		"name: p\nstart: 2026-01-01T00:00:00Z\nhorizon: 20d\nslo: {latency_s: 2}\n"
		"workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		"serving: {instance_type: p5.48xlarge}\n"
		"fleet:\n"
		"  - {option: reserved, count: 1, scope: zonal}\n"
		"  - option: training_plan\n"
		"    segments:\n"
		"      - {start: 2026-01-03T11:30:00Z, days: 3, count: 8}\n"
		"      - {start: 2026-01-07T11:30:00Z, days: 2, count: 8, usd_per_h: 31.46}\n"
		"  - {option: on_demand, count: 1}\n"
		"  - option: training_plan\n"
		"    usd_per_h: 20\n"
		"    expiry_notice: 5m\n"
		"    segments: [{start: 2026-01-10T00:00:00Z, days: 2, count: 8, upfront_usd: 12000}]\n";
	const struct fleet_entry *f;
	struct scenario sc;

	parse_ok(&sc, text, NULL, 0);
	ck_assert_int_eq(sc.nfleet, 5);
	ck_assert_int_eq(sc.fleet[0].option, OPTION_RESERVED);
	ck_assert_int_eq(sc.fleet[3].option, OPTION_ON_DEMAND);
	f = &sc.fleet[1];
	ck_assert_int_eq(f->option, OPTION_TRAINING_PLAN);
	ck_assert_int_eq(f->plan_id, 0);
	ck_assert_int_eq(f->segment, 0);
	ck_assert_int_eq(f->start_us, 214200 * S_US);
	ck_assert_int_eq(f->duration_us, 3 * 86400 * S_US);
	ck_assert_int_eq(f->count, 8);
	ck_assert_int_eq(f->max, 8);
	ck_assert_double_eq_tol(f->usd_per_h, 39.33, TOL);
	ck_assert_double_eq_tol(f->upfront_usd, 22654.08, 1e-6);
	ck_assert(!f->price_given);
	ck_assert_int_eq(f->notice_us, 600 * S_US);
	f = &sc.fleet[2];
	ck_assert_int_eq(f->option, OPTION_TRAINING_PLAN);
	ck_assert_int_eq(f->plan_id, 0);
	ck_assert_int_eq(f->segment, 1);
	ck_assert_int_eq(f->start_us, 559800 * S_US);
	ck_assert_int_eq(f->duration_us, 2 * 86400 * S_US);
	ck_assert_double_eq_tol(f->usd_per_h, 31.46, TOL);
	ck_assert_double_eq_tol(f->upfront_usd, 12080.64, 1e-6);
	ck_assert(f->price_given);
	f = &sc.fleet[4];
	ck_assert_int_eq(f->option, OPTION_TRAINING_PLAN);
	ck_assert_int_eq(f->plan_id, 1);
	ck_assert_int_eq(f->segment, 0);
	ck_assert_int_eq(f->notice_us, 300 * S_US);
	ck_assert_double_eq_tol(f->upfront_usd, 12000, TOL);
	ck_assert_double_eq_tol(f->usd_per_h, 31.25, TOL);
	ck_assert(f->price_given);
	scenario_fini(&sc);
}
END_TEST

/*
 * A message about a fleet entry after a plan names the entry's place in the list, not in sc.fleet: the
 * plan's two segments are sc.fleet 0 and 1, the on_demand entry 2 and the spot entry 3, but the second
 * count: auto is written at fleet.2 (the list's third item), and the first one at the list's entry 2.
 */
START_TEST(messages_name_the_list_item)
{
	static const char text[] =
		"name: p\nstart: 2026-01-01T00:00:00Z\nhorizon: 2d\nslo: {latency_s: 2}\n"
		"workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		"serving: {instance_type: p5.48xlarge}\n"
		"autoscaling: {policy: target_tracking, target: 0.5}\n"
		"fleet:\n"
		"  - option: training_plan\n"
		"    segments: [{start: 2026-01-01T12:00:00Z, days: 1, count: 1}, {start: 2026-01-02T12:00:00Z, days: 1,"
		" count: 1}]\n"
		"  - {option: on_demand, count: auto, max: 4}\n"
		"  - {option: spot, count: auto, max: 4, interruptions_per_hour: 0}\n";

	parse_fails(text, NULL, 0, "t.yaml:12:27: fleet.2.count: only one fleet entry may have count: auto (entry 2 "
		    "has it too); expected a number here");
}
END_TEST

/* 63 segments after an on_demand entry fill the 64 entries; 64 would make 65. */
START_TEST(segments_count_against_the_fleet_limit)
{
	char text[16384];
	int n;

	for (int segs = 63; segs <= 64; segs++) {
		n = snprintf(text, sizeof text, "name: p\nstart: 2026-01-01T00:00:00Z\nhorizon: 1d\nslo: {latency_s: 2}\n"
			     "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
			     "serving: {instance_type: p5.48xlarge}\n"
			     "fleet:\n  - {option: on_demand, count: 1}\n  - option: training_plan\n    segments:\n");
		for (int s = 0; s < segs; s++) {
			/* one day each, on days 1 to 28 of January, February and March */
			n += snprintf(text + n, sizeof text - (size_t)n, "      - {start: 2026-%02d-%02dT00:00:00Z, days: 1, "
				      "count: 1}\n", 1 + s / 28, 1 + s % 28);
		}
		if (segs == 63) {
			struct scenario sc;
			parse_ok(&sc, text, NULL, 0);
			ck_assert_int_eq(sc.nfleet, 64);
			ck_assert_int_eq(sc.fleet[63].segment, 62);
			scenario_fini(&sc);
		} else {
			parse_fails(text, NULL, 0, "t.yaml:10:5: fleet.1.segments: the plan's 64 segments would make the "
				    "fleet 65 entries long; expected at most 64 fleet entries in all (each segment of a "
				    "training plan is one)");
		}
	}
}
END_TEST

/* ---- running ------------------------------------------------------------------------------------- */

/*
 * A 1-day segment of 2 instances from 02:00 (7200 s) to 02:00 the next day (93600 s), expiry_notice 15 min,
 * used by jobs (no jobs run, so nothing gives an instance back early), beside 1 on-demand instance serving
 * the load. Launched at 7200, up at 7800 (startup 600 s); the notice at 93600 - 1800 - 900 = 90900, when
 * both instances get an interruption notice; both taken at 93600 - 1800 = 91800. The jobs' instances do
 * not serve requests: no busy GPU-hour; the bill is 2 x $30 x 24 h = $1440, GPU-hours paid 2 x 8 x 24 = 384.
 */
START_TEST(segment_notice_then_gone_30_min_before_its_end)
{
	run_plan(light("2d", "  - option: training_plan\n    usd_per_h: 30\n    expiry_notice: 15m\n"
			     "    segments: [{start: 2026-01-01T02:00:00Z, days: 1, count: 2}]\n"
			     "  - {option: on_demand, count: 1, max: 1}\n"), true);
	ck_assert_int_eq(events_at("launch", "training_plan", 7200), 2);
	ck_assert_int_eq(events_at("ready", "training_plan", 7800), 2);
	ck_assert_int_eq(events_at("plan_expiring", "training_plan", 90900), 2);
	ck_assert_int_eq(events_at("interrupt", "training_plan", 90900), 2);
	ck_assert_int_eq(events_at("terminate", "training_plan", 91800), 2);
	ck_assert_double_eq_tol(M("cost_training_plan_usd"), 1440.00, CENT);
	ck_assert_double_eq_tol(M("gpu_hours_paid_training_plan"), 384, 1e-9);
	ck_assert_double_eq(M("gpu_hours_busy_training_plan"), 0);
	ck_assert_double_eq_tol(M("gpu_hours_idle_training_plan"), 384, 1e-9);
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
}
END_TEST

/*
 * The same segment serving (the default use), beside an on-demand entry of 1 that may grow to 3, no
 * policy. The segment adds its 2 instances to the desired capacity when it opens (1 -> 3) and takes them
 * out at its notice (3 -> 1): the fleet never launches an on-demand instance to make up for them, so the
 * run's only launches are the segment's 2. Fleet order puts the load on the segment's instances while they
 * serve (busy GPU-hours > 0); a busy one drains and goes when its request ends, an idle one at its doom, so
 * each goes between the notice (90900) and 91800; every request is served.
 */
START_TEST(serving_segment_adds_capacity_while_open)
{
	int gone = 0;

	run_plan(light("2d", "  - option: training_plan\n    usd_per_h: 30\n    expiry_notice: 15m\n"
			     "    segments: [{start: 2026-01-01T02:00:00Z, days: 1, count: 2}]\n"
			     "  - {option: on_demand, count: 1, max: 3}\n"), false);
	ck_assert_int_eq(events_at("launch", "training_plan", 7200), 2);
	ck_assert_int_eq(events_at("plan_expiring", "training_plan", 90900), 2);
	ck_assert_double_eq(M("launches"), 2);
	ck_assert_int_eq(capture_count(&cap, "launch_failed"), 0);
	for (int i = 0; i < cap.nevents; i++) {
		const struct capture_event *e = &cap.events[i];
		if (strcmp(e->kind, "terminate") != 0 || strcmp(e->option, "training_plan") != 0)
			continue;
		ck_assert(e->t_s >= 90900 && e->t_s <= 91800);
		gone += e->count;
	}
	ck_assert_int_eq(gone, 2);
	ck_assert(M("gpu_hours_busy_training_plan") > 0);
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
	ck_assert_double_eq(cap.last_sample.instances[OPTION_TRAINING_PLAN], 0);
}
END_TEST

/*
 * A two-segment plan at $30 per instance-hour in a 10-day window:
 *  - segment 0: 2026-01-02T00:00 (86400 s), 1 day x 2 instances: 2 x 30 x 24 = $1440;
 *  - segment 1: 2026-01-04T00:00 (259200 s), 2 days x 1 instance, upfront_usd 1000: $1000.
 * Both lie inside the window: cost_training_plan_usd = 1440 + 1000 = $2440, all paid up front (two
 * purchase lines, 2440 billed) and spread over the used hours (2440 effective, 2 x 24 + 1 x 48 = 96
 * instance-hours); GPU-hours paid 8 x 96 = 768; nothing left after the horizon. Each segment launches its
 * own instances at its start.
 */
START_TEST(two_segment_bill)
{
	run_plan(light("10d", "  - option: training_plan\n    usd_per_h: 30\n    segments:\n"
			      "      - {start: 2026-01-02T00:00:00Z, days: 1, count: 2}\n"
			      "      - {start: 2026-01-04T00:00:00Z, days: 2, count: 1, upfront_usd: 1000}\n"
			      "  - {option: on_demand, count: 1, max: 1}\n"), true);
	ck_assert_double_eq_tol(M("cost_training_plan_usd"), 2440.00, CENT);
	ck_assert_double_eq_tol(cap.charge_billed[OPTION_TRAINING_PLAN][CHARGE_UPFRONT], 2440.00, CENT);
	ck_assert_double_eq_tol(cap.charge_effective[OPTION_TRAINING_PLAN][CHARGE_USED], 2440.00, CENT);
	ck_assert_double_eq_tol(cap.charge_quantity[OPTION_TRAINING_PLAN][CHARGE_USED], 96, 1e-9);
	ck_assert_double_eq(cap.charge_effective[OPTION_TRAINING_PLAN][CHARGE_UPFRONT], 0);
	ck_assert_double_eq_tol(M("gpu_hours_paid_training_plan"), 768, 1e-9);
	ck_assert_double_eq(M("commitment_after_horizon_training_plan_usd"), 0);
	ck_assert_int_eq(capture_count(&cap, "launch"), 2);  /* the on-demand instance is up at t = 0 */
	ck_assert_double_eq_tol(capture_find(&cap, "launch", 0)->t_s, 86400, 1e-9);
	ck_assert_int_eq(capture_find(&cap, "launch", 0)->count, 2);
	ck_assert_double_eq_tol(capture_find(&cap, "launch", 1)->t_s, 259200, 1e-9);
	ck_assert_int_eq(capture_find(&cap, "launch", 1)->count, 1);
	ck_assert_int_eq(capture_count(&cap, "plan_expiring"), 2);
	ck_assert_double_eq_tol(capture_find(&cap, "plan_expiring", 1)->t_s, 259200 + 2 * 86400 - 1800 - 600, 1e-9);
}
END_TEST

/*
 * A segment written in hours, as AWS reports DurationHours: a first day cut short, 44 h from
 * 2026-01-02T15:30 (to 2026-01-04T11:30), 2 instances at $30: 2 x 30 x 44 = $2,640; its expiry notice
 * (10 min) at 44 h - 30 min - 10 min after its start, its instances gone at 44 h - 30 min. 8 GPUs each:
 * 2 x 8 x 44 = 704 GPU-hours paid. days and hours together, or hours too short for the notice, are refused.
 */
START_TEST(segment_in_hours)
{
	const double t0 = 86400 + 15.5 * 3600;

	run_plan(light("10d", "  - option: training_plan\n    usd_per_h: 30\n    segments:\n"
			      "      - {start: 2026-01-02T15:30:00Z, hours: 44, count: 2}\n"
			      "  - {option: on_demand, count: 1, max: 1}\n"), true);
	ck_assert_double_eq_tol(M("cost_training_plan_usd"), 2640.00, CENT);
	ck_assert_double_eq_tol(M("gpu_hours_paid_training_plan"), 704, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "launch", 0)->t_s, t0, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "plan_expiring", 0)->t_s, t0 + 44 * 3600 - 1800 - 600, 1e-9);
}
END_TEST

START_TEST(segment_days_or_hours)
{
	static const char head[] =
		"name: p\nstart: 2026-01-01T00:00:00Z\nhorizon: 20d\nslo: {latency_s: 2}\n"
		"workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		"serving: {instance_type: p5.48xlarge}\nfleet:\n  - option: training_plan\n";
	char text[1024];
	struct scenario sc;

	snprintf(text, sizeof text, "%s    segments:\n      - {start: 2026-01-03T11:30:00Z, days: 1, hours: 24, "
		 "count: 8}\n", head);
	parse_fails(text, NULL, 0, "t.yaml:10:55: fleet.0.segments.0.hours: days and hours cannot both be given; "
		    "expected the segment's length once, in whole days (as offered) or in hours (as AWS reports it)");
	snprintf(text, sizeof text, "%s    segments:\n      - {start: 2026-01-03T11:30:00Z, hours: 4368, count: 8}\n",
		 head);
	parse_ok(&sc, text, NULL, 0);
	ck_assert_int_eq(sc.fleet[0].duration_us, INT64_C(4368) * 3600 * S_US);
	scenario_fini(&sc);
	snprintf(text, sizeof text, "%s    segments:\n      - {start: 2026-01-03T11:30:00Z, hours: 4369, count: 8}\n",
		 head);
	parse_fails(text, NULL, 0, "t.yaml:10:46: fleet.0.segments.0.hours: expected whole hours from 1 to 4368 "
		    "(182 days; SOURCES.md [tp-durations]), got '4369'");
	snprintf(text, sizeof text, "%s    expiry_notice: 2h\n    segments:\n      - {start: 2026-01-03T11:30:00Z, "
		 "hours: 2, count: 8}\n", head);
	parse_fails(text, NULL, 0, "t.yaml:11:46: fleet.0.segments.0.hours: a segment of 2 hours ends before its "
		    "expiry notice (120 min) and the 30 minutes before the end when the instances are taken; "
		    "expected more than 2.5 hours");
}
END_TEST

/*
 * The window's edges, in a 2-day window:
 *  - segment 0 began 12 h before it (2025-12-31T12:00), 1 day x 1 instance at $24: price $576; the window
 *    bears 12 of its 24 h, $288; its instance is up at t = 0 (a "start" event, no launch); no purchase
 *    line (bought before the window).
 *  - segment 1 begins at 2026-01-02T12:00 (36 h), 2 days x 2 instances at $10: price 2 x 10 x 48 = $960,
 *    paid up front inside the window (a purchase line of 960); the window bears 12 of its 48 h, $240; the
 *    36 h after the horizon, 960 x 36 / 48 = $720, are commitment_after_horizon_training_plan_usd.
 * cost_training_plan_usd = 288 + 240 = $528; GPU-hours paid 8 x (1 x 12 + 2 x 12) = 288; launches: segment
 * 1's 2 (the on-demand instance is up at t = 0).
 */
START_TEST(segments_at_the_window_edges)
{
	run_plan(light("2d", "  - option: training_plan\n    segments:\n"
			     "      - {start: 2025-12-31T12:00:00Z, days: 1, count: 1, usd_per_h: 24}\n"
			     "      - {start: 2026-01-02T12:00:00Z, days: 2, count: 2, usd_per_h: 10}\n"
			     "  - {option: on_demand, count: 1, max: 1}\n"), true);
	ck_assert_int_eq(events_at("start", "training_plan", 0), 1);
	ck_assert_int_eq(events_at("launch", "training_plan", 129600), 2);
	ck_assert_double_eq_tol(M("cost_training_plan_usd"), 528.00, CENT);
	ck_assert_double_eq_tol(cap.charge_billed[OPTION_TRAINING_PLAN][CHARGE_UPFRONT], 960.00, CENT);
	ck_assert_double_eq_tol(M("commitment_after_horizon_training_plan_usd"), 720.00, CENT);
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 720.00, CENT);
	ck_assert_double_eq_tol(M("gpu_hours_paid_training_plan"), 288, 1e-9);
	ck_assert_double_eq(M("launches"), 2);
	/* segment 0's notice at 43200 - 1800 - 600 = 40800, its end at 41400 */
	ck_assert_int_eq(events_at("plan_expiring", "training_plan", 40800), 1);
	ck_assert_int_eq(events_at("terminate", "training_plan", 41400), 1);
}
END_TEST

/*
 * A segment begun before the window whose notice falls exactly at t = 0 holds nothing in the window, as one
 * whose notice came earlier (the top of option_plan.c; a Capacity Block whose warning is at t = 0 is the
 * same, check_blocks): 1 day x 1 instance at $24 from 2025-12-31T00:40, ending at 00:40 (2400 s) of the
 * 2-hour window; its notice at 2400 - 1800 - 600 (expiry_notice 10 min by default) = 0. No instance is up
 * ("start"), no notice event, nothing taken; the window still bears 40 min of its 24 h: 576 x 40 / 1440 =
 * $16.00, its 8 GPUs paid (idle) for those 40 min, 8 x 2400 / 3600 = 5.3333 GPU-hours. Starting a second
 * later (from 00:40:01), its notice comes 1 s into the window: its instance is up at t = 0 and noticed at 1 s.
 */
START_TEST(segment_notice_at_the_window_start)
{
	run_plan(light("2h", "  - option: training_plan\n    segments:\n"
			     "      - {start: 2025-12-31T00:40:00Z, days: 1, count: 1, usd_per_h: 24}\n"
			     "  - {option: on_demand, count: 1, max: 1}\n"), true);
	ck_assert_int_eq(events_at("start", "training_plan", 0), 0);
	ck_assert_int_eq(capture_count(&cap, "plan_expiring"), 0);
	ck_assert_double_eq_tol(M("cost_training_plan_usd"), 16.00, CENT);
	ck_assert_double_eq_tol(M("gpu_hours_paid_training_plan"), 8 * 2400 / 3600.0, 1e-9);
	ck_assert_double_eq(M("gpu_hours_busy_training_plan"), 0);
	run_plan(light("2h", "  - option: training_plan\n    segments:\n"
			     "      - {start: 2025-12-31T00:40:01Z, days: 1, count: 1, usd_per_h: 24}\n"
			     "  - {option: on_demand, count: 1, max: 1}\n"), true);
	ck_assert_int_eq(events_at("start", "training_plan", 0), 1);
	ck_assert_int_eq(events_at("plan_expiring", "training_plan", 1), 1);
}
END_TEST

#define ADD(s, fn)                                          \
	do {                                                \
		TCase *tc_ = tcase_create(#fn);             \
		tcase_add_test(tc_, fn);                    \
		suite_add_tcase(s, tc_);                    \
	} while (0)

static Suite *plan_suite(void)
{
	Suite *s = suite_create("plan");

	ADD(s, segments_expand_in_order);
	ADD(s, messages_name_the_list_item);
	ADD(s, segments_count_against_the_fleet_limit);
	ADD(s, segment_notice_then_gone_30_min_before_its_end);
	ADD(s, serving_segment_adds_capacity_while_open);
	ADD(s, two_segment_bill);
	ADD(s, segment_in_hours);
	ADD(s, segment_days_or_hours);
	ADD(s, segments_at_the_window_edges);
	ADD(s, segment_notice_at_the_window_start);
	return s;
}

int main(void)
{
	return test_run_suite(plan_suite());
}
