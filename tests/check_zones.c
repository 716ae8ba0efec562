/*
 * check_zones: availability zones (models/capacity/fleet_zone.c, models/load/scenario_zones.c) in whole runs, against
 * timelines worked out by hand in the comments: a zone-wide outage that takes one zone's Spot pool and
 * ICE-blocks its on-demand while the other zone serves; the same outage on a plan that does not spread;
 * Spot entries of one zone reclaimed together, of two zones independently; of two types in one zone
 * independently; random streams named by zone.
 * The loader's errors are in tests/data/bad/zone_*.yaml (check_scenario, e2e_bad_scenarios).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "testutil.h"

#define CENT 0.005
#define TOL 1e-6

static struct capture cap;
static char yaml[8192];

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/*
 * One request every 1000 s (1 s each) on p5.48xlarge (8 slots, 600 s startup), 3 hours, no autoscaling (the
 * desired capacity stays the t = 0 count), zone use1-az1 out from 1 h to 2 h, use1-az2 never.
 */
static const char *zoned(const char *fleet)
{
	snprintf(yaml, sizeof yaml,
		 "name: zones\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: 3h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 8, startup_s: 600}\n"
		 "zones:\n  - {name: use1-az1, outages: [{start: 1h, end: 2h}]}\n  - {name: use1-az2}\n"
		 "fleet:\n%s", fleet);
	return yaml;
}

START_TEST(zone_outage_takes_spot_and_ices_on_demand_while_the_other_zone_serves)
{
	/*
	 * t = 0: three instances in service (each entry's count, warm): Spot A and on-demand A in use1-az1,
	 * on-demand B in use1-az2. The desired capacity is 3.
	 * t = 3600 s: use1-az1 loses its capacity (one zone_outage event, 2 instances). Spot A gets its 120 s
	 * notice (spot_interruptions = 1, taken at 3720 s: it is idle, so it waits for its doom); on-demand A is
	 * lost at once (terminated at 3600 s). The fleet needs 2 more: Spot A (max 2) is refused, then
	 * on-demand A (max 2) is refused, both as InsufficientInstanceCapacity (2 launch failures at 3600 s,
	 * spot then on_demand), and on-demand B launches 2 (one launch event, count 2, ready at 4200 s).
	 * The retry at 3630 s finds the fleet at its desired 3 and tries nothing; nothing happens at 7200 s when
	 * the zone is back: no other launch, no other failure. Every request is served (the one at 4000 s by
	 * on-demand B, the only one in service until 4200 s).
	 * Bills:
	 *   Spot A, in service at t = 0 (never in its first hour, option_spot.c), 0 -> 3720 s at 20 $/h:
	 *     20 x 3720 / 3600 = 20.6667
	 *   on-demand A, in service at t = 0 (no 60 s minimum), 0 -> 3600 s at 50 $/h: 50
	 *   on-demand B: 0 -> 10800 s at 60 $/h = 180, and 2 x (3600 -> 10800 s) = 2 x 2 h x 60 = 240
	 *   cost_on_demand_usd = 50 + 180 + 240 = 470 (430 if the fleet had relaunched in use1-az1 at 50 $/h)
	 */
	capture_run(&cap, zoned("  - {option: spot, zone: use1-az1, count: 1, max: 2, usd_per_h: 20}\n"
				"  - {option: on_demand, zone: use1-az1, count: 1, max: 2, usd_per_h: 50}\n"
				"  - {option: on_demand, zone: use1-az2, count: 1, max: 3, usd_per_h: 60}\n"), NULL, 0);
	const struct capture_event *e = capture_find(&cap, "zone_outage", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 3600, TOL);
	ck_assert_int_eq(e->count, 2);
	ck_assert_int_eq(capture_count(&cap, "zone_outage"), 1);
	ck_assert_double_eq(M("spot_interruptions"), 1);
	ck_assert_int_eq(capture_count(&cap, "interrupt"), 2);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 2);
	e = capture_find(&cap, "terminate", 0);
	ck_assert_str_eq(e->option, "on_demand");
	ck_assert_double_eq_tol(e->t_s, 3600, TOL);
	e = capture_find(&cap, "terminate", 1);
	ck_assert_str_eq(e->option, "spot");
	ck_assert_double_eq_tol(e->t_s, 3720, TOL);
	ck_assert_double_eq(M("launch_failures"), 2);
	ck_assert_str_eq(capture_find(&cap, "launch_failed", 0)->option, "spot");
	ck_assert_str_eq(capture_find(&cap, "launch_failed", 1)->option, "on_demand");
	for (int i = 0; i < 2; i++)
		ck_assert_double_eq_tol(capture_find(&cap, "launch_failed", i)->t_s, 3600, TOL);
	ck_assert_int_eq(capture_count(&cap, "launch"), 1);
	e = capture_find(&cap, "launch", 0);
	ck_assert_double_eq_tol(e->t_s, 3600, TOL);
	ck_assert_int_eq(e->count, 2);
	ck_assert_str_eq(e->option, "on_demand");
	ck_assert_int_eq(capture_count(&cap, "ready"), 2);
	ck_assert_double_eq_tol(capture_find(&cap, "ready", 1)->t_s, 4200, TOL);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 20.0 * 3720 / 3600, CENT);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 470, CENT);
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
	ck_assert_double_eq(M("requests_dropped"), 0);
}
END_TEST

START_TEST(zone_outage_without_spread_waits_for_the_backoff)
{
	/*
	 * The same plan with on-demand B in use1-az1 too: at 3600 s all three instances are taken and every
	 * launch fails until the zone is back. The fleet retries after the backoff (30 s, doubling, at most
	 * 600 s): attempts at 3600, 3630, 3690, 3810, 4050, 4530, 5130, 5730, 6330, 6930 s fail (3 entries each:
	 * 30 failures), and the one at 6930 + 600 = 7530 s, after the outage's end at 7200 s, launches 3 in fleet
	 * order: Spot A (max 2) takes 2, on-demand A 1, ready at 8130 s. Nothing serves from 3720 s (Spot A's
	 * doom) to 8130 s, so the requests of 4000 ... 8000 s (5 of them) wait at least 130 s, past the 10 s SLO.
	 */
	const double at[] = { 3600, 3630, 3690, 3810, 4050, 4530, 5130, 5730, 6330, 6930 };

	capture_run(&cap, zoned("  - {option: spot, zone: use1-az1, count: 1, max: 2, usd_per_h: 20}\n"
				"  - {option: on_demand, zone: use1-az1, count: 1, max: 2, usd_per_h: 50}\n"
				"  - {option: on_demand, zone: use1-az1, count: 1, max: 3, usd_per_h: 60}\n"), NULL, 0);
	ck_assert_int_eq(capture_find(&cap, "zone_outage", 0)->count, 3);
	ck_assert_double_eq(M("launch_failures"), 30);
	for (int i = 0; i < 30; i++)
		ck_assert_double_eq_tol(capture_find(&cap, "launch_failed", i)->t_s, at[i / 3], TOL);
	ck_assert_int_eq(capture_count(&cap, "launch"), 2);
	ck_assert_double_eq_tol(capture_find(&cap, "launch", 0)->t_s, 7530, TOL);
	ck_assert_str_eq(capture_find(&cap, "launch", 0)->option, "spot");
	ck_assert_int_eq(capture_find(&cap, "launch", 0)->count, 2);
	ck_assert_str_eq(capture_find(&cap, "launch", 1)->option, "on_demand");
	ck_assert_int_eq(capture_find(&cap, "launch", 1)->count, 1);
	ck_assert_double_eq_tol(capture_find(&cap, "ready", 0)->t_s, 8130, TOL);
	ck_assert_double_ge(M("slo_violations"), 5);
}
END_TEST

START_TEST(zone_outage_takes_a_capacity_block_until_the_zone_is_back)
{
	/*
	 * A 1-day Capacity Block of 2 instances in use1-az1, from 2025-12-31 11:30 to 2026-01-01 11:30 UTC
	 * (41400 s), open at t = 0, beside on-demand B (1 instance, use1-az2); 3 h window.
	 * t = 0: the block's 2 instances and B in service; desired capacity 3.
	 * t = 3600 s: use1-az1 is out: the block's 2 are lost at once (zone_outage count 2, both terminated at
	 * 3600 s) and leave the desired capacity (3 - 2 = 1, which B covers: no launch, no failure).
	 * t = 7200 s: the zone is back and the block still in its window (its warning comes at 41400 - 2400 =
	 * 39000 s): it launches its 2 again (one launch event, count 2), serving at 7200 + 600 = 7800 s.
	 * Bills: the block is paid whether used or not: the window holds 3 h of it, 2 x 30 x 3 = 180 (the
	 * outage changes nothing); on-demand B 3 h x 60 = 180.
	 */
	capture_run(&cap, zoned("  - {option: capacity_block, zone: use1-az1, start: 2025-12-31T11:30:00Z, "
				"duration: 1d, count: 2, usd_per_h: 30}\n"
				"  - {option: on_demand, zone: use1-az2, count: 1, max: 3, usd_per_h: 60}\n"), NULL, 0);
	ck_assert_int_eq(capture_find(&cap, "zone_outage", 0)->count, 2);
	for (int i = 0; i < 2; i++) {
		const struct capture_event *e = capture_find(&cap, "terminate", i);
		ck_assert_str_eq(e->option, "capacity_block");
		ck_assert_double_eq_tol(e->t_s, 3600, TOL);
	}
	ck_assert_double_eq(M("launch_failures"), 0);
	ck_assert_int_eq(capture_count(&cap, "launch"), 1);
	const struct capture_event *e = capture_find(&cap, "launch", 0);
	ck_assert_str_eq(e->option, "capacity_block");
	ck_assert_double_eq_tol(e->t_s, 7200, TOL);
	ck_assert_int_eq(e->count, 2);
	ck_assert_double_eq_tol(capture_find(&cap, "ready", 0)->t_s, 7800, TOL);
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 180, CENT);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 180, CENT);
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
}
END_TEST

START_TEST(capacity_block_opening_in_an_outage_comes_when_the_zone_is_back)
{
	/*
	 * The zone is out over the block's start. The block starts at 2026-01-01T11:30:00Z (41400 s, 1 day,
	 * ending 127800 s, inside the 2-day window), the zone use1-az1 is out from 11 h (39600 s) to
	 * 12 h (43200 s): at 41400 s its launch is refused (one launch failure, logged with count 2), at
	 * 43200 s it launches its 2 (ready at 43800 s). Its price is unchanged: 2 x 30 x 24 = 1440 in a 2-day
	 * window.
	 */
	snprintf(yaml, sizeof yaml,
		 "name: zones\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: 2d\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 8, startup_s: 600}\n"
		 "zones:\n  - {name: use1-az1, outages: [{start: 11h, end: 12h}]}\n  - {name: use1-az2}\n"
		 "fleet:\n  - {option: capacity_block, zone: use1-az1, start: 2026-01-01T11:30:00Z, duration: 1d,"
		 " count: 2, usd_per_h: 30}\n  - {option: on_demand, zone: use1-az2, count: 1, max: 3}\n");
	capture_run(&cap, yaml, NULL, 0);
	ck_assert_double_eq(M("launch_failures"), 1);
	const struct capture_event *e = capture_find(&cap, "launch_failed", 0);
	ck_assert_str_eq(e->option, "capacity_block");
	ck_assert_double_eq_tol(e->t_s, 41400, TOL);
	e = capture_find(&cap, "launch", 0);
	ck_assert_str_eq(e->option, "capacity_block");
	ck_assert_double_eq_tol(e->t_s, 43200, TOL);
	ck_assert_int_eq(e->count, 2);
	ck_assert_double_eq_tol(capture_find(&cap, "ready", 0)->t_s, 43800, TOL);
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 1440, CENT);
}
END_TEST

/* A light load on 2 days with the fleet given; zones use1-az1 and use1-az2, no outages. */
static const char *pools(const char *fleet)
{
	snprintf(yaml, sizeof yaml,
		 "name: pools\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: 2d\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, startup_s: 60}\n"
		 "zones:\n  - {name: use1-az1}\n  - {name: use1-az2}\n  - {name: use1-az3}\n"
		 "fleet:\n%s", fleet);
	return yaml;
}

#define POOL "reclaims_per_day: 4, reclaim_fraction: 1, outage_mean_s: 300d"

START_TEST(spot_entries_of_one_zone_share_its_pool)
{
	/*
	 * Two Spot entries of 2 instances each in use1-az1: one pool. Its first reclaim takes ceil(1 x 4) = 4
	 * instances, both entries' (4 notices at that moment), and closes the pool to both for a mean 300 days
	 * (no launch in 2 days: 1 - exp(-2/300) = 0.7% per draw), so there is exactly one reclaim that takes
	 * anything: spot_interruptions = 4, every notice at the first reclaim's time.
	 */
	capture_run(&cap, pools("  - {option: spot, zone: use1-az1, count: 2, max: 4, " POOL "}\n"
				"  - {option: spot, zone: use1-az1, count: 2, max: 4, " POOL "}\n"), NULL, 0);
	const struct capture_event *first = capture_find(&cap, "spot_reclaim", 0);
	ck_assert_ptr_nonnull(first);
	ck_assert_int_eq(first->count, 4);
	ck_assert_double_eq(M("spot_interruptions"), 4);
	ck_assert_int_eq(capture_count(&cap, "interrupt"), 4);
	for (int i = 0; i < 4; i++)
		ck_assert_double_eq_tol(capture_find(&cap, "interrupt", i)->t_s, first->t_s, TOL);
	ck_assert_int_eq(capture_count(&cap, "launch"), 0);
	/*
	 * In two zones (max 2 each, so that one zone's replacements cannot go to the other entry), two pools:
	 * each reclaim takes ceil(1 x 2) = 2, the zone's own; the two first reclaims
	 * come at different times (independent exponential draws from "spot_pool.use1-az1" and
	 * "spot_pool.use1-az2"), and each zone's two notices come together.
	 */
	capture_run(&cap, pools("  - {option: spot, zone: use1-az1, count: 2, max: 2, " POOL "}\n"
				"  - {option: spot, zone: use1-az2, count: 2, max: 2, " POOL "}\n"), NULL, 0);
	/* (a closed, empty pool's later reclaims take 0) */
	double t[2];
	int taking = 0;
	const struct capture_event *e;
	for (int i = 0; (e = capture_find(&cap, "spot_reclaim", i)); i++) {
		if (e->count == 0)
			continue;
		ck_assert_int_lt(taking, 2);
		ck_assert_int_eq(e->count, 2);
		t[taking++] = e->t_s;
	}
	ck_assert_int_eq(taking, 2);
	ck_assert_double_gt(t[1], t[0]);
	ck_assert_double_eq(M("spot_interruptions"), 4);
	for (int i = 0; i < 4; i++)
		ck_assert_double_eq_tol(capture_find(&cap, "interrupt", i)->t_s, t[i / 2], TOL);
}
END_TEST

/* pools() with a second type, g6e.xlarge, beside the serving type g6.xlarge. */
static const char *typed_pools(const char *fleet)
{
	snprintf(yaml, sizeof yaml,
		 "name: pools\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: 2d\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, startup_s: 60, types: {g6e.xlarge: {service_scale: 1}}}\n"
		 "zones:\n  - {name: use1-az1}\n  - {name: use1-az2}\n  - {name: use1-az3}\n"
		 "fleet:\n%s", fleet);
	return yaml;
}

/* The times of the reclaims that took something, in order, into t[0 .. max); their count in *n. */
static void taking_reclaims(double *t, int *counts, int max, int *n)
{
	const struct capture_event *e;

	*n = 0;
	for (int i = 0; (e = capture_find(&cap, "spot_reclaim", i)); i++) {
		if (e->count == 0)
			continue;  /* a closed, empty pool's later reclaims take 0 */
		ck_assert_int_lt(*n, max);
		t[*n] = e->t_s;
		counts[(*n)++] = e->count;
	}
}

START_TEST(spot_pools_are_per_type_and_zone)
{
	/*
	 * In use1-az1: two Spot entries of g6.xlarge (the serving type) and one of g6e.xlarge, 2 instances each
	 * (max 2: no replacement can launch, every pool is closed for a mean 300 days after its reclaim, and the
	 * other entries are full). The g6.xlarge entries share one pool, "spot_pool.use1-az1"; g6e.xlarge is
	 * another, "spot_pool.use1-az1.g6e.xlarge". So there are exactly two reclaims that take anything, at
	 * different times: the g6 pool's takes ceil(1 x (2 + 2)) = 4 at once, the g6e pool's ceil(1 x 2) = 2;
	 * spot_interruptions = 4 + 2 = 6. (With one pool per zone, as before, the first reclaim took all
	 * ceil(1 x 6) = 6.)
	 */
	const char *g6 = "  - {option: spot, zone: use1-az1, count: 2, max: 2, " POOL "}\n";
	const char *g6e = "  - {option: spot, zone: use1-az1, instance_type: g6e.xlarge, count: 2, max: 2, " POOL "}\n";
	char fleet[1024];
	double t[4], t_g6, t_g6e;
	int counts[4], n;

	snprintf(fleet, sizeof fleet, "%s%s%s", g6, g6, g6e);
	capture_run(&cap, typed_pools(fleet), NULL, 0);
	taking_reclaims(t, counts, 4, &n);
	ck_assert_int_eq(n, 2);
	ck_assert_double_gt(t[1], t[0]);
	ck_assert_int_eq(counts[0] + counts[1], 6);
	ck_assert(counts[0] == 4 || counts[1] == 4);
	ck_assert(counts[0] == 2 || counts[1] == 2);
	ck_assert_double_eq(M("spot_interruptions"), 6);
	t_g6 = counts[0] == 4 ? t[0] : t[1];
	t_g6e = counts[0] == 4 ? t[1] : t[0];
	/* each reclaim's notices come at its own time: 4 at the g6 pool's, 2 at the g6e pool's */
	ck_assert_int_eq(capture_count(&cap, "interrupt"), 6);
	for (int i = 0, at_g6 = 0; i < 6; i++) {
		double at = capture_find(&cap, "interrupt", i)->t_s;
		ck_assert(fabs(at - t_g6) < TOL || fabs(at - t_g6e) < TOL);
		at_g6 += fabs(at - t_g6) < TOL;
		if (i == 5)
			ck_assert_int_eq(at_g6, 4);
	}
	/* Each pool draws from its own stream: the g6 pool alone reclaims at the same time (its stream's name
	 * is the one it had before types), and so does the g6e pool alone. */
	snprintf(fleet, sizeof fleet, "%s%s", g6, g6);
	capture_run(&cap, typed_pools(fleet), NULL, 0);
	taking_reclaims(t, counts, 4, &n);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(counts[0], 4);
	ck_assert_double_eq_tol(t[0], t_g6, TOL);
	capture_run(&cap, typed_pools(g6e), NULL, 0);
	taking_reclaims(t, counts, 4, &n);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(counts[0], 2);
	ck_assert_double_eq_tol(t[0], t_g6e, TOL);
}
END_TEST

START_TEST(streams_are_named_by_zone)
{
	/*
	 * A Spot entry in use1-az1 with pool reclaims (4 a day, half the pool, 1 h outages) and per-instance
	 * interruptions (0.5 per instance-hour), max 8 so that replacements launch at the notice; then the same
	 * with a Spot entry of use1-az3 (no reclaims, no interruptions, always full) listed before it. The
	 * use1-az1 entry's draws come from "spot.use1-az1.0" and "spot_pool.use1-az1" in both runs (before
	 * zones its stream was "spot.<index>", index 0 then 1), so every reclaim and every interruption comes at
	 * the same time in both.
	 */
	const char *az1 = "  - {option: spot, zone: use1-az1, count: 2, max: 8, interruptions_per_hour: 0.5,"
			  " reclaims_per_day: 4, reclaim_fraction: 0.5, outage_mean_s: 1h}\n";
	char fleet[512];
	static double t_reclaim[64], t_interrupt[256];
	int nr, ni;

	capture_run(&cap, pools(az1), NULL, 0);
	nr = capture_count(&cap, "spot_reclaim");
	ni = capture_count(&cap, "interrupt");
	ck_assert_int_ge(nr, 3);
	ck_assert_int_ge(ni, 10);
	ck_assert_int_le(nr, 64);
	ck_assert_int_le(ni, 256);
	for (int i = 0; i < nr; i++)
		t_reclaim[i] = capture_find(&cap, "spot_reclaim", i)->t_s;
	for (int i = 0; i < ni; i++)
		t_interrupt[i] = capture_find(&cap, "interrupt", i)->t_s;
	snprintf(fleet, sizeof fleet, "  - {option: spot, zone: use1-az3, count: 2, max: 2}\n%s", az1);
	capture_run(&cap, pools(fleet), NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "spot_reclaim"), nr);
	ck_assert_int_eq(capture_count(&cap, "interrupt"), ni);
	for (int i = 0; i < nr; i++)
		ck_assert_double_eq_tol(capture_find(&cap, "spot_reclaim", i)->t_s, t_reclaim[i], TOL);
	for (int i = 0; i < ni; i++)
		ck_assert_double_eq_tol(capture_find(&cap, "interrupt", i)->t_s, t_interrupt[i], TOL);
}
END_TEST

static Suite *zones_suite(void)
{
	Suite *s = suite_create("zones");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, zone_outage_takes_spot_and_ices_on_demand_while_the_other_zone_serves);
	tcase_add_test(tc, zone_outage_without_spread_waits_for_the_backoff);
	tcase_add_test(tc, zone_outage_takes_a_capacity_block_until_the_zone_is_back);
	tcase_add_test(tc, capacity_block_opening_in_an_outage_comes_when_the_zone_is_back);
	tcase_add_test(tc, spot_entries_of_one_zone_share_its_pool);
	tcase_add_test(tc, spot_pools_are_per_type_and_zone);
	tcase_add_test(tc, streams_are_named_by_zone);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(zones_suite());
}
