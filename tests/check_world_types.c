/*
 * check_world_types: whole runs of a fleet holding several instance types (scenario_types.c, serving.h,
 * meter_types.c): which type serves which request, at which speed, and how each type is billed and
 * counted in GPU-hours; each entry's defaults (price, quota family) come from its own type. Every
 * timeline is worked out by hand from the rules in serving.h: a request starts on the first free slot in
 * pool (fleet) order, and its service time is the drawn one times its instance type's service_scale.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "capture.h"
#include "catalog.h"
#include "scenario.h"
#include "status.h"
#include "store.h"
#include "testutil.h"
#include "world.h"

static struct capture cap;

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/*
 * Two types. g6e.xlarge (1 GPU) is the serving type: 1 slot, scale 1; one reserved at $2/h. p4d.24xlarge
 * (8 GPUs): 2 slots, scale 0.5 (twice as fast); one on-demand at $30/h, up from t = 0. Pool order: the
 * g6e (fleet entry 0), then the p4d. Seven requests from the trace (arrival s, drawn service s):
 *
 *   req  arrives  drawn  instance  start  runs         ends   latency  why
 *   R1      0     100    g6e          0   100 x 1      100    100      g6e free (first in pool order)
 *   R2     10     100    p4d         10   100 x 0.5     60     50      g6e busy; p4d slot 1
 *   R3     20      40    p4d         20    40 x 0.5     40     20      p4d slot 2
 *   R4     30      60    p4d         40    60 x 0.5     70     40      all 3 slots busy: waits for R3
 *   R5     50      80    p4d         60    80 x 0.5    100     50      all busy: waits for R2
 *   R6     95      10    p4d         95    10 x 0.5    100      5      R4 left a p4d slot free at 70
 *   R7    120      30    g6e        120    30 x 1      150     30      g6e is first in pool order again
 *
 * Served: g6e 2 (R1, R7), p4d 5. Latency sum 100 + 50 + 20 + 40 + 50 + 5 + 30 = 295 s, mean 295 / 7 =
 * 42.142857 s, max 100 s; waits 10 + 10 = 20 s, mean 20 / 7 = 2.857143 s, 2 of 7 waited.
 * Busy slot-seconds: g6e 100 + 30 = 130; p4d 50 + 20 + 30 + 40 + 5 = 145. A busy slot holds its type's
 * GPUs / slots: g6e 1 / 1 = 1, p4d 8 / 2 = 4. Busy GPU-hours: g6e 130 x 1 / 3600 = 0.0361111; p4d
 * 145 x 4 / 3600 = 0.1611111; total 0.1972222.
 * The bill over 1 h: reserved 1 x $2 x 1 h = $2.00 (1 GPU x 1 h = 1 GPU-hour paid); on-demand 1 x $30 x 1 h
 * = $30.00 (8 GPUs x 1 h = 8 GPU-hours). Total $32.00, 9 GPU-hours paid (one type's GPUs, 1, for both
 * would say 2; the p4d's, 8, 16).
 */
#define TWO_TYPES_HEAD \
	"name: two-types\nhorizon: 1h\nslo: {latency_s: 1000}\n" \
	"workload:\n  arrivals:\n    kind: trace\n    path: " TEST_DATA_DIR "/good/traces/types_timeline.csv\n" \
	"    format: generic\n    columns: {time: t, time_format: seconds, service_s: svc}\n" \
	"  service: {kind: trace}\n" \
	"serving:\n  queue: central\n  routing: first_free\n  instance_type: g6e.xlarge\n  slots_per_instance: 1\n" \
	"  types: {p4d.24xlarge: {slots_per_instance: 2, service_scale: 0.5}}\n"
#define G6E_ENTRY "  - {option: reserved, count: 1, usd_per_h: 2, scope: zonal}\n"
#define P4D_ENTRY "  - {option: on_demand, instance_type: p4d.24xlarge, count: 1, usd_per_h: 30}\n"
static const char two_types[] = TWO_TYPES_HEAD "fleet:\n" G6E_ENTRY P4D_ENTRY;

START_TEST(two_type_timeline_by_hand)
{
	capture_run(&cap, two_types, NULL, 0);
	ck_assert_double_eq(M("requests_served"), 7);
	ck_assert_double_eq(M("type_g6e_xlarge_requests_served"), 2);
	ck_assert_double_eq(M("type_p4d_24xlarge_requests_served"), 5);
	ck_assert_double_eq_tol(M("latency_mean_s"), 295.0 / 7, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 100, 1e-6);
	ck_assert_double_eq_tol(M("wait_mean_s"), 20.0 / 7, 1e-6);
	ck_assert_double_eq_tol(M("waited_fraction"), 2.0 / 7, 1e-12);
	ck_assert_double_eq_tol(M("type_g6e_xlarge_gpu_hours_busy"), 130.0 / 3600, 1e-9);
	ck_assert_double_eq_tol(M("type_p4d_24xlarge_gpu_hours_busy"), 145.0 * 4 / 3600, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_busy"), (130.0 + 580.0) / 3600, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_busy_reserved"), 130.0 / 3600, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_busy_on_demand"), 580.0 / 3600, 1e-9);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 2.00, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 30.00, 1e-9);
	ck_assert_double_eq_tol(M("cost_total_usd"), 32.00, 1e-9);
	ck_assert_double_eq_tol(M("type_g6e_xlarge_cost_usd"), 2.00, 1e-9);
	ck_assert_double_eq_tol(M("type_p4d_24xlarge_cost_usd"), 30.00, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid_reserved"), 1, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid_on_demand"), 8, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 9, 1e-9);
	ck_assert_double_eq_tol(M("type_g6e_xlarge_gpu_hours_paid"), 1, 1e-9);
	ck_assert_double_eq_tol(M("type_p4d_24xlarge_gpu_hours_paid"), 8, 1e-9);
	ck_assert_double_eq_tol(M("type_p4d_24xlarge_instance_hours"), 1, 1e-9);
	/* the floor: every request alone on the fastest type (scale 0.5) is within 1000 s */
	ck_assert_double_eq(M("slo_violation_rate_floor"), 0);
}
END_TEST

/* One value of a query on the results file at path (the first column of its first row). */
static double db_value(const char *path, const char *sql)
{
	sqlite3 *q;
	sqlite3_stmt *stmt;
	double v;

	ck_assert_int_eq(sqlite3_open_v2(path, &q, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_msg(sqlite3_prepare_v2(q, sql, -1, &stmt, NULL) == SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(q));
	ck_assert_msg(sqlite3_step(stmt) == SQLITE_ROW, "no row: %s", sql);
	v = sqlite3_column_double(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_close(q);
	return v;
}

/*
 * Samples by type (table type_samples), on the timeline above with a 30 s sample period. Each row is one
 * (sample, type): the type's instances in service at the sample instant (the g6e reserved and the p4d
 * on-demand, both 1 all along) and its busy slots averaged over the period, from the table above:
 *   g6e (R1 0-100, R7 120-150):  (0,30] 30/30 = 1; (30,60] 1; (60,90] 1; (90,120] 10/30 = 0.333333;
 *                                (120,150] 30/30 = 1; (150,180] 0
 *   p4d (R2 10-60, R3 20-40, R4 40-70, R5 60-100, R6 95-100):
 *        (0,30]   R2 20 + R3 10 = 30 slot-s -> 1
 *        (30,60]  R2 30 + R3 10 + R4 20 = 60 -> 2
 *        (60,90]  R4 10 + R5 30 = 40 -> 1.333333
 *        (90,120] R5 10 + R6 5 = 15 -> 0.5
 *        (120,150] 0
 * The types' busy slots add up to the samples row's (at 60 s: 1 + 2 = 3), and over the hour to the
 * busy slot-seconds above: g6e 130, p4d 145 (sum of busy_slots x 30 s). 120 samples x 2 types = 240 rows.
 */
START_TEST(samples_by_type_by_hand)
{
	static const char *const want[][3] = {
		{ "30", "1", "1" }, { "60", "1", "2" }, { "90", "1", "1.3333333333" }, { "120", "0.3333333333", "0.5" },
		{ "150", "1", "0" }, { "180", "0", "0" },
	};
	char *text = malloc(sizeof two_types + 32), *scen, *db, sql[256];
	struct world_report *rep = calloc(1, sizeof *rep);
	struct store *st = NULL;
	struct scenario sc;
	struct sink sink;
	struct diag d = {{0}};

	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(rep);
	snprintf(text, sizeof two_types + 32, "%ssample_period: 30s\n", two_types);
	scen = test_write_file("types.yaml", text);
	db = test_write_file("types.sqlite", "");
	remove(db);
	ck_assert_msg(scenario_load(&sc, scen, NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(store_open(&st, db, &d) == STATUS_OK, "%s", d.msg);
	sink = store_sink(st, &d);
	ck_assert_msg(world_run(&sc, &sink, "test", rep, &d) == STATUS_OK, "%s", d.msg);
	store_close(st);
	ck_assert_double_eq(db_value(db, "SELECT count(*) FROM type_samples"), 240);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		static const char *const type[2] = { "g6e.xlarge", "p4d.24xlarge" };
		for (int t = 0; t < 2; t++) {
			snprintf(sql, sizeof sql, "SELECT instances FROM type_samples WHERE t_s = %s AND type = '%s'",
				 want[i][0], type[t]);
			ck_assert_double_eq_tol(db_value(db, sql), 1, 1e-9);
			snprintf(sql, sizeof sql, "SELECT busy_slots FROM type_samples WHERE t_s = %s AND type = '%s'",
				 want[i][0], type[t]);
			ck_assert_double_eq_tol(db_value(db, sql), atof(want[i][1 + t]), 1e-9);
		}
	}
	ck_assert_double_eq_tol(db_value(db, "SELECT busy_slots FROM samples WHERE t_s = 60"), 3, 1e-9);
	ck_assert_double_eq_tol(db_value(db, "SELECT 30 * sum(busy_slots) FROM type_samples WHERE type = 'g6e.xlarge'"),
				130, 1e-6);
	ck_assert_double_eq_tol(db_value(db, "SELECT 30 * sum(busy_slots) FROM type_samples WHERE type = "
					 "'p4d.24xlarge'"), 145, 1e-6);
	scenario_fini(&sc);
	free(rep);
	free(text);
	test_remove_file(db);
	test_remove_file(scen);
}
END_TEST

/*
 * The same requests with the types swapped in pool order (the p4d entry first): the p4d now takes what the
 * g6e took.
 *   R1  0 -> p4d  0..50      (100 x 0.5)       R5 50 -> waits (3 slots busy); at 60 R2's end (queued at 10,
 *   R2 10 -> p4d 10..60                                 before R3's at 20) fires first: p4d 60..100
 *   R3 20 -> g6e 20..60      (40 x 1)          R6 95 -> p4d (a slot free since R4 ended at 80) 95..100
 *   R4 30 -> waits; R1 ends at 50: p4d 50..80   R7 120 -> p4d 120..135
 * Served: p4d 6, g6e 1 (R3). Latencies 50 + 50 + 40 + 50 + 50 + 5 + 15 = 260 s, mean 260 / 7.
 * Busy: p4d 50 + 50 + 30 + 40 + 5 + 15 = 190 slot-s x 4 GPUs = 760 GPU-s; g6e 40 slot-s x 1 GPU = 40 GPU-s.
 * The bill is the same: $32.00.
 */
START_TEST(allocation_order_decides_the_type)
{
	/* two_types with its fleet entries swapped */
	static const char swapped[] = TWO_TYPES_HEAD "fleet:\n" P4D_ENTRY G6E_ENTRY;
	capture_run(&cap, swapped, NULL, 0);
	ck_assert_double_eq(M("type_g6e_xlarge_requests_served"), 1);
	ck_assert_double_eq(M("type_p4d_24xlarge_requests_served"), 6);
	ck_assert_double_eq_tol(M("latency_mean_s"), 260.0 / 7, 1e-6);
	ck_assert_double_eq_tol(M("type_p4d_24xlarge_gpu_hours_busy"), 760.0 / 3600, 1e-9);
	ck_assert_double_eq_tol(M("type_g6e_xlarge_gpu_hours_busy"), 40.0 / 3600, 1e-9);
	ck_assert_double_eq_tol(M("cost_total_usd"), 32.00, 1e-9);
}
END_TEST

/*
 * An entry's defaults are its own type's: an on-demand p4d.24xlarge without usd_per_h is billed at the
 * p4d's catalogue price (1 instance x 1 h), not the serving g6e.xlarge's; and a Spot p4d at the p4d's
 * price less its spot discount.
 */
START_TEST(entry_prices_default_to_its_own_type)
{
	const struct catalog_entry *p4d = catalog_find("p4d.24xlarge"), *g6e = catalog_find("g6e.xlarge");
	const char text[] =
		"name: defaults\nhorizon: 1h\nslo: {latency_s: 10}\n"
		"workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 1}\n"
		"serving:\n  queue: central\n  routing: first_free\n  instance_type: g6e.xlarge\n  types: {p4d.24xlarge: {}}\n"
		"fleet:\n  - {option: on_demand, count: 1}\n  - {option: on_demand, instance_type: p4d.24xlarge, count: 1}\n"
		"  - {option: spot, instance_type: p4d.24xlarge, count: 1}\n";

	ck_assert_ptr_nonnull(p4d);
	ck_assert_ptr_nonnull(g6e);
	capture_run(&cap, text, NULL, 0);
	/* on-demand: (g6e + p4d) x 1 h; spot: p4d x (1 - its spot discount) x 1 h */
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), g6e->od_usd_per_h + p4d->od_usd_per_h, 1e-6);
	ck_assert_double_eq_tol(M("cost_spot_usd"), p4d->od_usd_per_h * (1 - p4d->spot_discount), 1e-6);
	/* GPUs: g6e 1 + p4d 8 on-demand, 8 Spot */
	ck_assert_double_eq_tol(M("gpu_hours_paid_on_demand"), 9, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid_spot"), 8, 1e-9);
}
END_TEST

/*
 * A Savings Plan over two types, each at its own rate (SOURCES.md [sp-highest-discount]). One clock hour
 * (00:00-01:00 UTC); catalogue prices g6e.xlarge $2/h, p4d.24xlarge $30/h; one on-demand instance of each
 * in service all hour: $2 + $30 of eligible usage. The plan commits $12/h with rates g6e 1.6 (discount
 * 1 - 1.6/2 = 20%) and p4d 15 (1 - 15/30 = 50%). Highest discount first: the p4d's $30 costs 30 x 0.5 =
 * $15 > $12, so $12 covers 12 / 0.5 = $24 of it ($6 left); nothing is left for the g6e ($2). On-demand
 * bill 6 + 2 = $8, the plan $12, total $20, nothing unused. (One rate for both, the serving type's 20%:
 * 12 / 0.8 = $15 covered, $17 on-demand, $29 in all.)
 * Then `discount: 0.5` and no rates: every type at 50% (equal discounts: type order, the g6e's $2
 * first, then $22 of the p4d's): 12 / 0.5 = $24 covered, $8 on-demand, as in any order. And a $20 commitment at the rates: p4d $15 (all $30 covered), then the g6e's $2
 * costs $1.60, so $3.40 of the commitment is lost: on-demand $0, plan $20, unused $3.40.
 */
START_TEST(savings_plan_rates_per_type)
{
	const char *base =
		"name: sp-types\nstart: 2026-01-01T00:00:00Z\nhorizon: 1h\nslo: {latency_s: 10}\n"
		"workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 1}\n"
		"catalog: {g6e.xlarge: {usd_per_h: 2}, p4d.24xlarge: {usd_per_h: 30}}\n"
		"serving:\n  queue: central\n  routing: first_free\n  instance_type: g6e.xlarge\n  types: {p4d.24xlarge: {}}\n"
		"fleet:\n  - {option: on_demand, count: 1}\n  - {option: on_demand, instance_type: p4d.24xlarge, count: 1}\n"
		"commitments:\n  - {option: savings_plan, commit_usd_per_h: %s}\n";
	char text[1024];

	snprintf(text, sizeof text, base, "12, rates: {g6e.xlarge: 1.6, p4d.24xlarge: 15}");
	capture_run(&cap, text, NULL, 0);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 8, 1e-6);
	ck_assert_double_eq_tol(M("cost_savings_plan_usd"), 12, 1e-6);
	ck_assert_double_eq_tol(M("cost_total_usd"), 20, 1e-6);
	snprintf(text, sizeof text, base, "12, discount: 0.5");
	capture_run(&cap, text, NULL, 0);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 8, 1e-6);
	snprintf(text, sizeof text, base, "20, rates: {g6e.xlarge: 1.6, p4d.24xlarge: 15}");
	capture_run(&cap, text, NULL, 0);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 0, 1e-6);
	ck_assert_double_eq_tol(M("cost_savings_plan_usd"), 20, 1e-6);
	ck_assert_double_eq_tol(M("commitment_unused_usd"), 3.4, 1e-6);
}
END_TEST

/*
 * On-Demand vCPU quotas are per family (SOURCES.md [od-quota-vcpus]): with a quota of 96 vCPUs, a g6e.xlarge
 * (G family, 4 vCPUs) and a p4d.24xlarge (P family, 96 vCPUs) both launch, each within its family's 96.
 * Counted together (100 > 96) the p4d would be refused. A second p4d (192 > 96) is refused.
 */
START_TEST(vcpu_quota_per_family)
{
	const char text[] =
		"name: quota\nhorizon: 1h\nslo: {latency_s: 10}\n"
		"workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 1}\n"
		"serving:\n  queue: central\n  routing: first_free\n  instance_type: g6e.xlarge\n  startup_s: 60\n  types: {p4d.24xlarge: {}}\n"
		"quotas: {on_demand_vcpus: 96}\n"
		"fleet:\n  - {option: reserved, count: 1, usd_per_h: 0, scope: zonal}\n  - {option: on_demand, max: 1}\n"
		"  - {option: on_demand, instance_type: p4d.24xlarge, max: 2}\n"
		"autoscaling: {policy: none, schedule: [{at: 2026-01-01T00:10:00Z, min: 3}, "
		"{at: 2026-01-01T00:20:00Z, min: 4}]}\n";

	capture_run(&cap, text, NULL, 0);
	/* 600 s: two launches (the g6e, then the p4d) and no failure; 1200 s: the second p4d is refused */
	ck_assert_int_eq(capture_count(&cap, "launch_failed") > 0, 1);
	ck_assert_double_eq_tol(capture_find(&cap, "launch_failed", 0)->t_s, 1200, 1e-9);
	ck_assert_double_eq(M("instances_peak"), 3);
}
END_TEST

/*
 * autoscaling.capacity_unit: gpus. One reserved g6e.xlarge (1 GPU, $0), then on-demand p4d.24xlarge (8 GPUs,
 * $30/h, max 2), then on-demand g6e.xlarge (1 GPU, max 4). Capacity 1 + 2 x 8 + 4 x 1 = 21 GPUs.
 *   600 s, min 10 GPUs: live 1 < 10, the p4d entry comes first: launch one (9 < 10), another (17 >= 10):
 *          2 p4d launched, no g6e (the allocation order decides the type; each launch is whole).
 *   1200 s, min = max = 9: desired 9. Scale-in in reverse order: no on-demand g6e; a p4d leaves 17 - 8 = 9
 *          >= 9: one p4d drains (idle: terminated at once); another would leave 1 < 9.
 * Bill: p4d 600..3600 s and 600..1200 s = 3600 s x $30/h = $30.00; 8 GPUs x 3600 s = 8 GPU-hours.
 * With capacity_unit slots (p4d 16 slots, g6e 1): 600 s: 1 < 10, one p4d gives 17 >= 10; 1200 s: removing
 * it would leave 1 < 9, so it stays: 600..3600 s = 3000 s x $30/h = $25.00.
 */
static const char gpu_units[] =
	"name: units\nhorizon: 1h\nslo: {latency_s: 10}\n"
	"workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 1}\n"
	"serving:\n  queue: central\n  routing: first_free\n  instance_type: g6e.xlarge\n  startup_s: 60\n  types: {p4d.24xlarge: {slots_per_instance: 16}}\n"
	"fleet:\n  - {option: reserved, count: 1, usd_per_h: 0, scope: zonal}\n"
	"  - {option: on_demand, instance_type: p4d.24xlarge, max: 2, usd_per_h: 30}\n"
	"  - {option: on_demand, max: 4, usd_per_h: 2}\n"
	"autoscaling: {policy: none, capacity_unit: gpus, schedule: [{at: 2026-01-01T00:10:00Z, min: 10}, "
	"{at: 2026-01-01T00:20:00Z, min: 9, max: 9}]}\n";

START_TEST(capacity_in_gpus_and_slots_by_hand)
{
	const char *slots[] = { "autoscaling.capacity_unit=slots" };

	capture_run(&cap, gpu_units, NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "launch"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "launch", 0)->t_s, 600, 1e-9);
	ck_assert_int_eq(capture_find(&cap, "launch", 0)->count, 2);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 1);
	ck_assert_double_eq_tol(capture_find(&cap, "terminate", 0)->t_s, 1200, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 30.00, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid_on_demand"), 8, 1e-9);
	ck_assert_double_eq(M("instances_peak"), 3);

	capture_run(&cap, gpu_units, slots, 1);
	ck_assert_int_eq(capture_find(&cap, "launch", 0)->count, 1);
	ck_assert_int_eq(capture_count(&cap, "terminate"), 0);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 25.00, 1e-9);
}
END_TEST

/*
 * The token model with a decode table per type. g6e.xlarge (serving type, 1 slot): the workload's speeds,
 * prefill 1000 tokens/s, decode 10 tokens/s; p4d.24xlarge (1 slot): its own prefill 4000 and decode table
 * [{1, 40}]; scale 1 both, no overhead. generic_4.csv: arrivals 0, 1.5, 3, 7.25 s; prompts 100, 200, 50,
 * 400; outputs 20, 40, 10, 80, the first of each from the prefill, the rest decoded.
 *   R1 0    -> g6e: 100 / 1000 + 19 / 10 = 2.0 s (ends 2.0),  TTFT 0.1
 *   R2 1.5  -> p4d (g6e busy): 200 / 4000 + 39 / 40 = 1.025 s,  TTFT 0.05
 *   R3 3    -> g6e (free again, first in pool order): 0.05 + 0.9 = 0.95 s, TTFT 0.05
 *   R4 7.25 -> g6e: 0.4 + 7.9 = 8.3 s,                           TTFT 0.4
 * Latency mean (2.0 + 1.025 + 0.95 + 8.3) / 4 = 3.06875 s; TTFT mean (0.1 + 0.05 + 0.05 + 0.4) / 4 = 0.15 s.
 * SLO 5 s: R4 violates. Alone on the fastest type (the p4d) R4 takes 0.1 + 79 / 40 = 2.075 s <= 5, so the
 * floor is 0 and the violation is not the service's (it is counted with those pushed over by waiting).
 * Busy GPU-seconds: g6e (2.0 + 0.95 + 8.3) x 1 = 11.25; p4d 1.025 x 8 = 8.2.
 */
START_TEST(token_model_speed_per_type)
{
	capture_run(&cap, "name: tokens\nhorizon: 1h\nslo: {latency_s: 5}\n"
		    "workload:\n  arrivals:\n    kind: trace\n    path: " TEST_DATA_DIR "/good/traces/generic_4.csv\n"
		    "    format: generic\n    columns: {time: t, time_format: seconds, input_tokens: prompt, "
		    "output_tokens: completion}\n"
		    "  service: {kind: tokens, prefill_tokens_per_s: 1000, decode_tokens_per_s: 10}\n"
		    "serving:\n  queue: central\n  routing: first_free\n  instance_type: g6e.xlarge\n"
		    "  types: {p4d.24xlarge: {prefill_tokens_per_s: 4000, decode_table: [{concurrency: 1, "
		    "tokens_per_s: 40}]}}\n"
		    "fleet:\n  - {option: reserved, count: 1, scope: zonal}\n  - {option: on_demand, instance_type: p4d.24xlarge, "
		    "count: 1}\n", NULL, 0);
	ck_assert_double_eq(M("type_g6e_xlarge_requests_served"), 3);
	ck_assert_double_eq(M("type_p4d_24xlarge_requests_served"), 1);
	ck_assert_double_eq_tol(M("latency_mean_s"), 3.06875, 1e-6);
	ck_assert_double_eq_tol(M("latency_max_s"), 8.3, 1e-6);
	ck_assert_double_eq_tol(M("ttft_mean_s"), 0.15, 1e-6);
	ck_assert_double_eq(M("slo_violations"), 1);
	ck_assert_double_eq(M("slo_violation_rate_floor"), 0);
	ck_assert_double_eq(M("slo_violations_service"), 0);
	ck_assert_double_eq_tol(M("type_g6e_xlarge_gpu_hours_busy"), 11.25 / 3600, 1e-9);
	ck_assert_double_eq_tol(M("type_p4d_24xlarge_gpu_hours_busy"), 8.2 / 3600, 1e-9);
}
END_TEST

static Suite *world_types_suite(void)
{
	Suite *s = suite_create("world_types");
	TCase *tc = tcase_create("runs");

	tcase_add_test(tc, two_type_timeline_by_hand);
	tcase_add_test(tc, samples_by_type_by_hand);
	tcase_add_test(tc, savings_plan_rates_per_type);
	tcase_add_test(tc, allocation_order_decides_the_type);
	tcase_add_test(tc, entry_prices_default_to_its_own_type);
	tcase_add_test(tc, vcpu_quota_per_family);
	tcase_add_test(tc, capacity_in_gpus_and_slots_by_hand);
	tcase_add_test(tc, token_model_speed_per_type);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(world_types_suite());
}
