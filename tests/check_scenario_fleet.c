/*
 * check_scenario_fleet: the fleet side of loading scenarios (models/scenario/scenario.h): purchase options
 * (reserved terms and payments, spot, ODCR, Savings Plans, Capacity Blocks), quotas, launch retry,
 * allocation, catalogue overrides, and the autoscaling defaults that come from the fleet. Each purchase
 * option's prices are checked against values worked out by hand in comments. Floating-point values are
 * compared with a tolerance of 1e-9 (TOL in scenario_fixtures.h: parsed values, or a few operations away
 * from parsed, none above 1e6).
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "scenario.h"
#include "scenario_fixtures.h"
#include "status.h"
#include "testutil.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data (the CMake build defines it)"
#endif

START_TEST(new_catalog_type_has_no_reserved_discount)
{
	const char *sets[] = { "serving.instance_type=my-l4-box" };
	struct scenario sc;

	parse_ok(&sc, full_yaml, sets, 1);
	ck_assert_int_eq(sc.serving.gpus, 1);
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, 0.9, TOL);
	ck_assert_double_eq_tol(sc.serving.reserved_usd_per_h, 0.9, TOL);
	scenario_fini(&sc);
}
END_TEST

START_TEST(target_tracking_defaults_come_from_the_fleet)
{
	const char *sets[] = { "autoscaling.policy=target_tracking", "autoscaling.target=0.5" };
	struct scenario sc;

	parse_ok(&sc, small_yaml, sets, 2);
	ck_assert_int_eq(sc.autoscaling.min, 2);  /* the reserved count */
	ck_assert_int_eq(sc.autoscaling.max, 8);  /* 2 reserved + on_demand max 6 */
	ck_assert_double_eq_tol(sc.autoscaling.target, 0.5, TOL);
	scenario_fini(&sc);
}
END_TEST

START_TEST(on_demand_max_defaults_to_autoscaling_max)
{
	const char *sets[] = { "autoscaling.policy=target_tracking", "autoscaling.target=0.5",
			       "autoscaling.max=12" };
	const char *text = "name: x\nhorizon: 1d\nslo: {latency_s: 2}\n"
			   "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
			   "serving: {instance_type: g5.xlarge}\n"
			   "fleet: [{option: reserved, count: 2, scope: zonal}, {option: on_demand}]\n";
	struct scenario sc;

	parse_ok(&sc, text, sets, 3);
	ck_assert_int_eq(sc.fleet[1].max, 12);
	ck_assert_int_eq(sc.fleet[1].count, 0);
	scenario_fini(&sc);
	/* policy none: an on_demand entry without max holds its count */
	parse_ok(&sc, text, NULL, 0);
	ck_assert_int_eq(sc.fleet[1].max, 0);
	scenario_fini(&sc);
}
END_TEST

/*
 * autoscaling.max above what the entries can hold is a warning with the effective ceiling, and the ceiling
 * is the entries' (so a sweep can take an entry's max down without the scenario turning invalid): 20 on
 * entries of 2 + 8 = 10 instances; with copies, 9 on 2 instances of 4 one-GPU copies = 8 copies.
 */
START_TEST(autoscaling_max_above_the_entries_is_a_warning)
{
	const char *text = "name: x\nhorizon: 1d\nslo: {latency_s: 2}\n"
			   "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
			   "serving: {instance_type: g5.xlarge}\n"
			   "fleet: [{option: reserved, count: 2, scope: zonal}, {option: on_demand, max: 8}]\n"
			   "autoscaling: {policy: target_tracking, target: 0.7, max: 20}\n";
	const char *copies = "name: x\nhorizon: 1d\nslo: {latency_s: 2}\n"
			     "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
			     "serving: {instance_type: g6.12xlarge, copies: {gpus_per_copy: 1}}\n"
			     "fleet: [{option: on_demand, count: 1, max: 2}]\n"
			     "autoscaling: {policy: target_tracking, target: 0.5, max: 9}\n";
	struct scenario sc;

	parse_ok(&sc, text, NULL, 0);
	ck_assert_int_eq(sc.autoscaling.max, 10);
	ck_assert_str_eq(sc.warnings, "t.yaml:7:58: autoscaling.max: 20 is more than the fleet can hold (its "
			 "entries' max add up to 10): the effective ceiling is 10\n");
	scenario_fini(&sc);
	parse_ok(&sc, copies, NULL, 0);
	ck_assert_int_eq(sc.autoscaling.max, 8);
	ck_assert_msg(strstr(sc.warnings, "autoscaling.max: 9 is more than the fleet can hold (its entries' max add "
			     "up to 2 instances): the effective ceiling is 8"), "%s", sc.warnings);
	scenario_fini(&sc);
}
END_TEST

/* ---- purchase options ---------------------------------------------------------------------------- */

/*
 * Parse a scenario on p5.48xlarge (catalogue: on-demand 55.04, reserved 1y 35%, 3y 55%, Savings Plan 30%,
 * spot 50%, Capacity Block 39.33; 192 vCPUs) starting 2026-01-01T00:00:00Z (unix 1767225600) for 7 days.
 * `fleet` holds the list items, one per line, so the first entry is on line 8; `extra` is appended.
 */
static void parse_fleet(struct scenario *sc, const char *fleet, const char *extra)
{
	char text[4096];

	snprintf(text, sizeof text, "name: f\nstart: 2026-01-01T00:00:00Z\nhorizon: 7d\nslo: {latency_s: 2}\n"
		 "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		 "serving: {instance_type: p5.48xlarge}\nfleet:\n%s%s", fleet, extra);
	parse_ok(sc, text, NULL, 0);
}

#define START_UNIX_S INT64_C(1767225600)  /* 2026-01-01T00:00:00Z */

START_TEST(startup_delays)
{
	struct scenario sc;

	parse_fleet(&sc,
		    "  - {option: reserved, count: 1, scope: zonal}\n"
		    "  - {option: on_demand, max: 4, startup: {kind: lognormal, mean_s: 7m, cv: 0.3}}\n"
		    "  - {option: spot, max: 4, startup: {kind: empirical, values_s: [258, 346s, 6m]}}\n"
		    "  - {option: odcr, count: 1, startup: {kind: constant, mean_s: 90}}\n"
		    "  - {option: on_demand, max: 2}\n", "");
	ck_assert_int_eq(sc.fleet[0].startup.kind, DELAY_DEFAULT);
	ck_assert_int_eq(sc.fleet[1].startup.kind, DELAY_LOGNORMAL);
	ck_assert_int_eq(sc.fleet[1].startup.mean_us, 420 * S_US);
	ck_assert_double_eq_tol(sc.fleet[1].startup.cv, 0.3, TOL);
	ck_assert_int_eq(sc.fleet[2].startup.kind, DELAY_EMPIRICAL);
	ck_assert_int_eq(sc.fleet[2].startup.nvalues, 3);
	ck_assert_int_eq(sc.fleet[2].startup.values_us[0], 258 * S_US);
	ck_assert_int_eq(sc.fleet[2].startup.values_us[2], 360 * S_US);
	ck_assert_int_eq(sc.fleet[3].startup.kind, DELAY_CONSTANT);
	ck_assert_int_eq(sc.fleet[3].startup.mean_us, 90 * S_US);
	ck_assert_int_eq(sc.fleet[4].startup.kind, DELAY_DEFAULT);
	scenario_fini(&sc);
}
END_TEST

START_TEST(reserved_terms_and_payments)
{
	struct scenario sc;

	parse_fleet(&sc,
		    "  - {option: reserved, count: 1, scope: zonal}\n"
		    "  - {option: reserved, count: 1, term: 1y, scope: zonal}\n"
		    "  - {option: reserved, count: 1, term: 1y, payment: partial_upfront, scope: zonal}\n"
		    "  - {option: reserved, count: 1, term: 1y, payment: all_upfront, scope: zonal}\n"
		    "  - {option: reserved, count: 1, term: 3y, scope: zonal}\n"
		    "  - {option: reserved, count: 1, term: 3y, payment: all_upfront, scope: zonal}\n"
		    "  - {option: reserved, count: 2, term: 1y, payment: partial_upfront, upfront_usd: 100000,"
		    " term_start: 2025-06-01T00:00:00Z, scope: zonal}\n"
		    "  - {option: reserved, count: 1, term: 1y, payment: all_upfront, usd_per_h: 1.5, scope: zonal}\n", "");
	/* no term: a 1-year no_upfront term from the start, 55.04 x (1 - 0.35) = 35.776, nothing up front */
	ck_assert_int_eq(sc.fleet[0].term, TERM_1Y);
	ck_assert_int_eq(sc.fleet[0].payment, PAYMENT_NO_UPFRONT);
	ck_assert_int_eq(sc.fleet[0].term_start_unix_us, START_UNIX_S * S_US);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 35.776, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].upfront_usd, 0, TOL);
	ck_assert_int_eq(sc.fleet[0].max, 1);
	/* 1y no_upfront: E = 35.776 hourly, nothing up front; term_start defaults to the scenario start */
	ck_assert_int_eq(sc.fleet[1].term, TERM_1Y);
	ck_assert_int_eq(sc.fleet[1].payment, PAYMENT_NO_UPFRONT);
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 35.776, TOL);
	ck_assert_double_eq_tol(sc.fleet[1].upfront_usd, 0, TOL);
	ck_assert_int_eq(sc.fleet[1].term_start_unix_us, START_UNIX_S * S_US);
	ck_assert(!sc.fleet[1].price_given);
	/* 1y partial: 0.5 x 35.776 x 8760 = 156698.88 up front, 0.5 x 35.776 = 17.888 hourly */
	ck_assert_int_eq(sc.fleet[2].payment, PAYMENT_PARTIAL_UPFRONT);
	ck_assert_double_eq_tol(sc.fleet[2].upfront_usd, 156698.88, TOL);
	ck_assert_double_eq_tol(sc.fleet[2].usd_per_h, 17.888, TOL);
	/* 1y all: 35.776 x 8760 = 313397.76 up front, 0 hourly */
	ck_assert_int_eq(sc.fleet[3].payment, PAYMENT_ALL_UPFRONT);
	ck_assert_double_eq_tol(sc.fleet[3].upfront_usd, 313397.76, TOL);
	ck_assert_double_eq_tol(sc.fleet[3].usd_per_h, 0, TOL);
	/* 3y: d = 0.55, E = 55.04 x 0.45 = 24.768; all upfront 24.768 x 26280 = 650903.04 */
	ck_assert_int_eq(sc.fleet[4].term, TERM_3Y);
	ck_assert_double_eq_tol(sc.fleet[4].usd_per_h, 24.768, TOL);
	ck_assert_double_eq_tol(sc.fleet[4].upfront_usd, 0, TOL);
	ck_assert_double_eq_tol(sc.fleet[5].usd_per_h, 0, TOL);
	ck_assert_double_eq_tol(sc.fleet[5].upfront_usd, 650903.04, TOL);
	/* explicit upfront_usd replaces the upfront part only; term_start 2025-06-01 = unix 1748736000 */
	ck_assert_int_eq(sc.fleet[6].count, 2);
	ck_assert_int_eq(sc.fleet[6].max, 2);
	ck_assert_double_eq_tol(sc.fleet[6].upfront_usd, 100000, TOL);
	ck_assert_double_eq_tol(sc.fleet[6].usd_per_h, 17.888, TOL);
	ck_assert_int_eq(sc.fleet[6].term_start_unix_us, INT64_C(1748736000) * S_US);
	/* explicit usd_per_h replaces the hourly part only */
	ck_assert_double_eq_tol(sc.fleet[7].usd_per_h, 1.5, TOL);
	ck_assert_double_eq_tol(sc.fleet[7].upfront_usd, 313397.76, TOL);
	ck_assert(sc.fleet[7].price_given);
	ck_assert_int_eq(sc.autoscaling.min, 9);  /* the reserved counts */
	scenario_fini(&sc);
}
END_TEST

START_TEST(spot_discount_band_and_defaults)
{
	struct scenario sc;

	parse_fleet(&sc,
		    "  - {option: spot, count: 1, interruption_band: 5-10%}\n"
		    "  - {option: spot, count: 2, max: 5, discount: 0.7, interruptions_per_hour: 0.002, notice_s: 30,"
		    " reclaims_per_day: 0.5, reclaim_fraction: 0.25, outage_mean_s: 2h, ice_probability: 0.1,"
		    " ice_outages: [{start: 1h, end: 2h}, {start: 2h, end: 3h}]}\n"
		    "  - {option: spot, count: 0, usd_per_h: 20}\n"
		    "  - {option: spot, count: 0, interruption_band: '>20%'}\n", "");
	/* the catalogue discount 0.50: 55.04 x 0.5 = 27.52; band 5-10% -> p = 7.5% a month ->
	 * -ln(1 - 0.075) / 730 = 1.0679663215e-4 per instance-hour */
	ck_assert_double_eq_tol(sc.fleet[0].discount, 0.5, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 27.52, TOL);
	ck_assert(!sc.fleet[0].price_given);
	ck_assert_double_eq_tol(sc.fleet[0].interruptions_per_hour, -log(0.925) / 730, 1e-15);
	ck_assert_double_eq_tol(sc.fleet[0].interruptions_per_hour, 1.0679663215e-4, 1e-13);
	ck_assert_int_eq(sc.fleet[0].notice_us, 120 * S_US);
	ck_assert_double_eq_tol(sc.fleet[0].reclaims_per_day, 0, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].reclaim_fraction, 1, TOL);
	ck_assert_int_eq(sc.fleet[0].outage_mean_us, 3600 * S_US);
	ck_assert_double_eq_tol(sc.fleet[0].ice_probability, 0, TOL);
	ck_assert_int_eq(sc.fleet[0].noutages, 0);
	ck_assert_int_eq(sc.fleet[0].max, 1);  /* policy none: max = count */
	ck_assert_int_eq(sc.fleet[0].prices.n, 0);
	ck_assert_str_eq(sc.fleet[0].price_trace, "");
	/* discount 0.7: 55.04 x 0.3 = 16.512; the rest as written; touching outages are allowed */
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 16.512, TOL);
	ck_assert_int_eq(sc.fleet[1].count, 2);
	ck_assert_int_eq(sc.fleet[1].max, 5);
	ck_assert_double_eq_tol(sc.fleet[1].interruptions_per_hour, 0.002, TOL);
	ck_assert_int_eq(sc.fleet[1].notice_us, 30 * S_US);
	ck_assert_double_eq_tol(sc.fleet[1].reclaims_per_day, 0.5, TOL);
	ck_assert_double_eq_tol(sc.fleet[1].reclaim_fraction, 0.25, TOL);
	ck_assert_int_eq(sc.fleet[1].outage_mean_us, 7200 * S_US);
	ck_assert_double_eq_tol(sc.fleet[1].ice_probability, 0.1, TOL);
	ck_assert_int_eq(sc.fleet[1].noutages, 2);
	ck_assert_int_eq(sc.fleet[1].outages[0].start_us, 3600 * S_US);
	ck_assert_int_eq(sc.fleet[1].outages[0].end_us, 7200 * S_US);
	ck_assert_int_eq(sc.fleet[1].outages[1].start_us, 7200 * S_US);
	ck_assert_int_eq(sc.fleet[1].outages[1].end_us, 10800 * S_US);
	/* a fixed price: discount 0; no interruption model: rate 0 and a warning at the entry (line 10) */
	ck_assert_double_eq_tol(sc.fleet[2].usd_per_h, 20, TOL);
	ck_assert_double_eq_tol(sc.fleet[2].discount, 0, TOL);
	ck_assert(sc.fleet[2].price_given);
	ck_assert_double_eq_tol(sc.fleet[2].interruptions_per_hour, 0, TOL);
	/* band >20%: p = 25% -> -ln(0.75) / 730 = 3.9408503076e-4 */
	ck_assert_double_eq_tol(sc.fleet[3].interruptions_per_hour, 3.9408503076e-4, 1e-13);
	ck_assert_str_eq(sc.warnings, "t.yaml:10:6: fleet.2: spot entry has no interruption model "
			 "(interruptions_per_hour, interruption_band or availability_trace), no reclaims_per_day, no "
			 "zone outages; its instances are never interrupted\n");
	scenario_fini(&sc);
}
END_TEST

/*
 * "Never interrupted" only when nothing can interrupt: a Spot entry without an interruption model is still
 * interrupted by pool reclaims, by its zone's outages, or (azure) by a price trace rising above its max
 * price: no warning for those; the same entries without them (no reclaims, a zone with no outages, a max
 * price over a fixed price) are warned, each at its line.
 */
START_TEST(spot_never_interrupted_only_when_nothing_can)
{
	struct scenario sc;
	char text[2048];

	parse_fleet(&sc,
		    "  - {option: spot, count: 1, reclaims_per_day: 2}\n"
		    "  - {option: spot, count: 1, zone: z1}\n"
		    "  - {option: spot, count: 1, zone: z2}\n",
		    "zones:\n  - {name: z1, outages: [{start: 1h, end: 2h}]}\n  - {name: z2}\n");
	ck_assert_str_eq(sc.warnings, "t.yaml:10:6: fleet.2: spot entry has no interruption model "
			 "(interruptions_per_hour, interruption_band or availability_trace), no reclaims_per_day, no "
			 "zone outages; its instances are never interrupted\n");
	scenario_fini(&sc);
	snprintf(text, sizeof text, "name: f\nstart: 2026-01-01T00:00:00Z\nhorizon: 6h\nprovider: azure\n"
		 "slo: {latency_s: 2}\n"
		 "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		 "serving: {instance_type: Standard_NC24ads_A100_v4}\n"
		 "catalog:\n  Standard_NC24ads_A100_v4: {usd_per_h: 4}\nfleet:\n"
		 "  - {option: spot, count: 1, max_usd_per_h: 2, price_trace: %s/spot/azure-prices.txt}\n"
		 "  - {option: spot, count: 1, max_usd_per_h: 2, usd_per_h: 1}\n", TEST_DATA_DIR);
	parse_ok(&sc, text, NULL, 0);
	ck_assert_str_eq(sc.warnings, "t.yaml:12:6: fleet.1: spot entry has no interruption model "
			 "(interruptions_per_hour, interruption_band or availability_trace), no reclaims_per_day, no "
			 "zone outages and no max_usd_per_h with a price_trace; its instances are never interrupted\n");
	scenario_fini(&sc);
}
END_TEST

START_TEST(spot_trace_paths)
{
	const char *path = TEST_DATA_DIR "/good/spot_traces.yaml";
	const char *text = "name: t\nstart: 2026-01-01T00:00:00Z\nhorizon: 1d\nslo: {latency_s: 2}\n"
			   "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
			   "serving: {instance_type: g5.xlarge}\n"
			   "fleet: [{option: spot, count: 1, price_trace: traces/g5_prices.txt, price_zone: us-east-1a,"
			   " availability_trace: traces/g5_avail.json}]\n";
	struct scenario sc;
	struct diag d;
	char cwd[4096];
	int rc;

	ck_assert_msg(scenario_load(&sc, path, NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	/* paths resolve against the scenario's folder */
	ck_assert_str_eq(sc.fleet[0].price_trace, TEST_DATA_DIR "/good/traces/g5_prices.txt");
	ck_assert_str_eq(sc.fleet[0].price_zone, "us-east-1b");
	/* zone us-east-1b: 0.40 from 2025-12-31T18:00Z, 0.45 from 2026-01-01T06:00Z (unix 1767247200) */
	ck_assert_int_eq(sc.fleet[0].prices.n, 2);
	ck_assert_int_eq(sc.fleet[0].prices.at_unix_us[1], INT64_C(1767247200) * S_US);
	ck_assert_double_eq_tol(sc.fleet[0].prices.usd_per_h[1], 0.45, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 0.40, TOL);  /* the price at the scenario start */
	ck_assert_double_eq_tol(sc.fleet[0].discount, 0, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].interruptions_per_hour, -log(0.925) / 730, 1e-15);
	ck_assert_str_eq(sc.fleet[1].availability_trace, TEST_DATA_DIR "/good/traces/g5_avail.json");
	ck_assert_int_eq(sc.fleet[1].avail.n, 5);
	ck_assert_int_eq(sc.fleet[1].avail.gap_us, 600 * S_US);
	ck_assert_int_eq(sc.fleet[1].avail.count[4], 3);
	ck_assert_double_eq_tol(sc.fleet[1].interruptions_per_hour, 0, TOL);
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 1.006 * 0.4, TOL);  /* discount 0.6 */
	ck_assert_str_eq(sc.warnings, "");
	scenario_fini(&sc);
	ck_assert_int_eq(sc.fleet[0].prices.n, 0);
	/* text has no folder: paths are taken as written, from the current directory */
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	ck_assert_int_eq(chdir(TEST_DATA_DIR "/good"), 0);
	rc = scenario_parse_string(&sc, text, "t.yaml", NULL, 0, &d);
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_msg(rc == STATUS_OK, "%s", d.msg);
	ck_assert_str_eq(sc.fleet[0].price_trace, "traces/g5_prices.txt");
	ck_assert_str_eq(sc.fleet[0].availability_trace, "traces/g5_avail.json");
	ck_assert_int_eq(sc.fleet[0].prices.n, 1);  /* zone us-east-1a: one row */
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 0.35, TOL);
	scenario_fini(&sc);
}
END_TEST

START_TEST(spot_never_above_on_demand)
{
	/* g6.xlarge: On-Demand 0.8048. tests/data/capacity/prices_above_od.txt has 0.50 (from 2025-12-31T23:00Z),
	 * 1.20 (from 00:30) and 0.90 (from 00:45): the last two are capped at 0.8048, with a warning. */
	const char *text = "name: t\nstart: 2026-01-01T00:00:00Z\nhorizon: 1d\nslo: {latency_s: 2}\n"
			   "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
			   "serving: {instance_type: g6.xlarge}\n"
			   "fleet:\n  - {option: spot, count: 1, interruption_band: 5-10%, price_trace: "
			   TEST_DATA_DIR "/capacity/prices_above_od.txt}\n";
	const char *sets_od[] = { "catalog.g6.xlarge.usd_per_h=0.4" };
	struct scenario sc;

	parse_ok(&sc, text, NULL, 0);
	ck_assert_int_eq(sc.fleet[0].prices.n, 3);
	ck_assert_double_eq_tol(sc.fleet[0].prices.usd_per_h[0], 0.5, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].prices.usd_per_h[1], 0.8048, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].prices.usd_per_h[2], 0.8048, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 0.5, TOL);  /* the price at the start */
	ck_assert_str_eq(sc.warnings, "t.yaml:8:69: fleet.0.price_trace: 2 of the trace's 3 prices of g6.xlarge "
			 "are above its On-Demand price (0.8048); capped at 0.8048: Spot never costs more than "
			 "On-Demand\n");
	scenario_fini(&sc);
	/* the bound is the On-Demand price after catalog: overrides: at 0.4 all three are capped */
	parse_ok(&sc, text, sets_od, 1);
	ck_assert_double_eq_tol(sc.fleet[0].prices.usd_per_h[0], 0.4, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 0.4, TOL);
	ck_assert_ptr_nonnull(strstr(sc.warnings, "3 of the trace's 3 prices"));
	scenario_fini(&sc);
	/* a fixed price equal to the On-Demand price is allowed ("not exceeding"); above it is refused */
	parse_fleet(&sc, "  - {option: spot, count: 1, usd_per_h: 55.04}\n", "");
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 55.04, TOL);
	scenario_fini(&sc);
	const char *sets_above[] = { "fleet.0.usd_per_h=55.05" };
	parse_fails("name: t\nhorizon: 1d\nslo: {latency_s: 2}\n"
		    "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		    "serving: {instance_type: p5.48xlarge}\nfleet: [{option: spot, count: 1, usd_per_h: 20}]\n",
		    sets_above, 1, "--set fleet.0.usd_per_h=55.05: fleet.0.usd_per_h: expected a number from 0 to "
		    "55.04 (the On-Demand price of p5.48xlarge), got '55.05'");
}
END_TEST

START_TEST(trace_failure_frees_what_was_loaded)
{
	/* the first entry's traces are loaded, then the second entry fails: nothing may leak (ASan) */
	const char *sets[] = { "fleet.1.discount=2" };
	const char *text = "name: t\nhorizon: 1d\nslo: {latency_s: 2}\n"
			   "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
			   "serving: {instance_type: g5.xlarge}\n"
			   "fleet:\n  - {option: spot, count: 1, price_trace: " TEST_DATA_DIR "/good/traces/g5_prices.txt,"
			   " price_zone: us-east-1a, availability_trace: " TEST_DATA_DIR "/good/traces/g5_avail.json}\n"
			   "  - {option: spot, count: 1}\n";

	parse_fails(text, sets, 1, "--set fleet.1.discount=2: fleet.1.discount: expected a number >= 0 and "
		    "< 1, got '2'");
}
END_TEST

START_TEST(odcr_takes_the_on_demand_price)
{
	struct scenario sc;

	parse_fleet(&sc, "  - {option: odcr, count: 3}\n  - {option: odcr, count: 1, usd_per_h: 50}\n", "");
	ck_assert_int_eq(sc.fleet[0].option, OPTION_ODCR);
	ck_assert_int_eq(sc.fleet[0].count, 3);
	ck_assert_int_eq(sc.fleet[0].max, 3);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 55.04, TOL);  /* "the equivalent On-Demand rate" */
	ck_assert(!sc.fleet[0].price_given);
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 50, TOL);
	ck_assert_int_eq(sc.autoscaling.max, 4);
	scenario_fini(&sc);
}
END_TEST

/*
 * An odcr entry's dates (scenario_odcr.c): none is the reservation over the whole window (as always); a start
 * after the scenario start is future-dated, which AWS offers "for instance types in the C, M, R, I, T, and G
 * instance families only" (SOURCES.md [odcr-fd-families]): a g6.xlarge one loads, a p5.48xlarge one is refused
 * at its start, naming the rule.
 */
START_TEST(odcr_future_dated_only_for_the_families_aws_allows)
{
	const char *fd = "name: f\nstart: 2026-01-01T00:00:00Z\nhorizon: 20d\nslo: {latency_s: 2}\n"
			 "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
			 "serving: {instance_type: g6.xlarge}\n"
			 "fleet:\n  - {option: odcr, count: 2, start: 1d, commitment_duration: 14d, end: 2026-01-16T12:00:00Z}\n";
	const char *p5[] = { "serving.instance_type=p5.48xlarge" };
	struct scenario sc;

	parse_fleet(&sc, "  - {option: odcr, count: 3}\n", "");
	ck_assert_int_eq(sc.fleet[0].start_us, 0);
	ck_assert_int_eq(sc.fleet[0].duration_us, 0);  /* unlimited */
	ck_assert_int_eq(sc.fleet[0].commitment_us, 0);
	scenario_fini(&sc);
	parse_ok(&sc, fd, NULL, 0);
	ck_assert_int_eq(sc.fleet[0].start_us, INT64_C(86400000000));
	ck_assert_int_eq(sc.fleet[0].commitment_us, 14 * INT64_C(86400000000));
	ck_assert_int_eq(sc.fleet[0].duration_us, INT64_C(1339200000000) - INT64_C(86400000000));  /* to 15.5 d */
	scenario_fini(&sc);
	parse_fails(fd, p5, 1, "t.yaml:8:37: fleet.0.start: p5.48xlarge is of the p family: AWS offers "
		    "future-dated Capacity Reservations \"for instance types in the C, M, R, I, T, and G instance "
		    "families only\" (SOURCES.md [odcr-fd-families]); expected a type of those families (such as "
		    "g6.xlarge), or a reservation for immediate use (no commitment_duration, no start after the "
		    "scenario start)");
}
END_TEST

START_TEST(savings_plan_discount_and_rates)
{
	struct scenario sc;

	parse_fleet(&sc,
		    "  - {option: reserved, count: 2, scope: zonal}\n"
		    "commitments:\n  - {option: savings_plan, commit_usd_per_h: 100}\n"
		    "  - {option: savings_plan, commit_usd_per_h: 50, term: 3y, discount: 0.45,"
		    " term_start: 2025-06-01T00:00:00Z}\n"
		    "  - {option: savings_plan, commit_usd_per_h: 20, rates: {p5.48xlarge: 41.28, g5.xlarge: 0.7}}\n",
		    "");
	/* catalogue discount 0.30: rate 55.04 x 0.7 = 38.528; term 1y from the scenario start; no instances */
	ck_assert_double_eq_tol(sc.commit[0].commit_usd_per_h, 100, TOL);
	ck_assert_double_eq_tol(sc.commit[0].discount, 0.30, TOL);
	ck_assert_double_eq_tol(sc.commit[0].usd_per_h, 38.528, TOL);
	ck_assert_int_eq(sc.commit[0].term, TERM_1Y);
	ck_assert_int_eq(sc.commit[0].term_start_unix_us, START_UNIX_S * S_US);
	ck_assert_int_eq(sc.commit[0].count, 0);
	ck_assert_int_eq(sc.commit[0].max, 0);
	/* discount 0.45: 55.04 x 0.55 = 30.272 */
	ck_assert_int_eq(sc.commit[1].term, TERM_3Y);
	ck_assert_double_eq_tol(sc.commit[1].usd_per_h, 30.272, TOL);
	ck_assert_int_eq(sc.commit[1].term_start_unix_us, INT64_C(1748736000) * S_US);
	/* rates: only the serving type's is used, discount = 1 - 41.28 / 55.04 = 0.25 */
	ck_assert_double_eq_tol(sc.commit[2].discount, 0.25, TOL);
	ck_assert_double_eq_tol(sc.commit[2].usd_per_h, 41.28, TOL);
	ck_assert_int_eq(sc.ncommit, 3);
	ck_assert_int_eq(sc.nfleet, 1);
	ck_assert_int_eq(sc.autoscaling.max, 2);  /* the plans hold nothing */
	scenario_fini(&sc);
}
END_TEST

START_TEST(capacity_block_times_prices_and_warnings)
{
	struct scenario sc;

	parse_fleet(&sc,
		    "  - {option: capacity_block, start: 2026-01-02T11:30:00Z, duration: 7d, count: 4}\n"
		    "  - {option: capacity_block, start: 2026-01-03T00:00:00Z, end: 2026-01-05T11:30:00Z, count: 2, upfront_usd: 2975}\n"
		    "  - {option: capacity_block, start: 2025-12-20T11:30:00Z, duration: 1d, count: 1, usd_per_h: 30}\n"
		    "  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 2w, count: 64}\n"
		    "  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 182d, count: 1}\n", "");
	/* starts 1 day 11.5 h = 127800 s after the scenario start; 4 x 168 h x 39.33 = 26429.76 for the block */
	ck_assert_int_eq(sc.fleet[0].option, OPTION_CAPACITY_BLOCK);
	ck_assert_int_eq(sc.fleet[0].start_us, 127800 * S_US);
	ck_assert_int_eq(sc.fleet[0].duration_us, 7 * 86400 * S_US);
	ck_assert_int_eq(sc.fleet[0].count, 4);
	ck_assert_int_eq(sc.fleet[0].max, 4);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 39.33, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].upfront_usd, 26429.76, TOL);
	ck_assert(!sc.fleet[0].price_given);
	/* 2 days 11.5 h = 59.5 h from 2 days after the start; 2975 for 2 instances x 59.5 h: 25 per
	 * instance-hour */
	ck_assert_int_eq(sc.fleet[1].start_us, 2 * 86400 * S_US);
	ck_assert_int_eq(sc.fleet[1].duration_us, 214200 * S_US);
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 25, TOL);
	ck_assert_double_eq_tol(sc.fleet[1].upfront_usd, 2975, TOL);
	ck_assert(sc.fleet[1].price_given);
	/* 11 days 12.5 h = 995400 s before the start; 1 x 24 h x 30 = 720 */
	ck_assert_int_eq(sc.fleet[2].start_us, -995400 * S_US);
	ck_assert_double_eq_tol(sc.fleet[2].upfront_usd, 720, TOL);
	ck_assert_int_eq(sc.fleet[3].duration_us, 14 * 86400 * S_US);
	ck_assert_int_eq(sc.fleet[4].duration_us, 182 * 86400 * S_US);
	ck_assert_int_eq(sc.autoscaling.max, 4 + 2 + 1 + 64 + 1);
	/* the one before the horizon (line 10) warns */
	ck_assert_str_eq(sc.warnings,
			 "t.yaml:10:37: fleet.2.start: capacity block from 2025-12-20T11:30:00Z to "
			 "2025-12-21T11:30:00Z lies entirely outside the simulated window (2026-01-01T00:00:00Z to "
			 "2026-01-08T00:00:00Z); it never serves\n");
	scenario_fini(&sc);
}
END_TEST

/*
 * A block may start at any time; it ends at 11:30 UTC, within a day of an allowed whole-day length
 * (the offerings "slightly less" and "slightly greater" than N days, SOURCES.md [cb-start-any-time]). By
 * hand, from the scenario start 2026-01-01T00:00:00Z, at the catalogue's 39.33 per instance-hour:
 *  - 14:00 to 11:30 next day: 21.5 h (the offering just under 1 day); 2 x 21.5 x 39.33 = 1691.19
 *  - 08:55 to 11:30 the same day: 2 h 35 min = 9300 s (just under 1 day: the API's example of 35 minutes)
 *  - 14:00 + 45.5h = 11:30 two days later: 21.5 h + 1 day (just over 1 day)
 *  - 14:00 to 11:30 20 days and 21.5 h later (just under 21 days): 501.5 h; 1 x 501.5 x 39.33 = 19723.995
 *  - four blocks of 64 = 256 instances in all: the most there may be
 */
START_TEST(capacity_block_end_at_1130_from_any_start)
{
	struct scenario sc;

	parse_fleet(&sc,
		    "  - {option: capacity_block, start: 2026-01-01T14:00:00Z, end: 2026-01-02T11:30:00Z, count: 2}\n"
		    "  - {option: capacity_block, start: 2026-01-01T08:55:00Z, end: 2026-01-01T11:30:00Z, count: 1}\n"
		    "  - {option: capacity_block, start: 2026-01-01T14:00:00Z, duration: 45.5h, count: 1}\n"
		    "  - {option: capacity_block, start: 2026-01-01T14:00:00Z, end: 2026-01-22T11:30:00Z, count: 1}\n"
		    "  - {option: capacity_block, start: 2026-01-02T11:30:00Z, duration: 7d, count: 64}\n"
		    "  - {option: capacity_block, start: 2026-01-02T11:30:00Z, duration: 7d, count: 64}\n"
		    "  - {option: capacity_block, start: 2026-01-02T11:30:00Z, duration: 7d, count: 64}\n"
		    "  - {option: capacity_block, start: 2026-01-02T11:30:00Z, duration: 7d, count: 59}\n", "");
	ck_assert_int_eq(sc.fleet[0].start_us, 50400 * S_US);
	ck_assert_int_eq(sc.fleet[0].duration_us, 77400 * S_US);
	ck_assert_double_eq_tol(sc.fleet[0].upfront_usd, 1691.19, TOL);
	ck_assert_int_eq(sc.fleet[1].start_us, 32100 * S_US);
	ck_assert_int_eq(sc.fleet[1].duration_us, 9300 * S_US);
	ck_assert_int_eq(sc.fleet[2].duration_us, (77400 + 86400) * S_US);
	ck_assert_int_eq(sc.fleet[3].duration_us, (77400 + 20 * 86400) * S_US);
	ck_assert_double_eq_tol(sc.fleet[3].upfront_usd, 19723.995, TOL);
	ck_assert_int_eq(sc.fleet[4].count + sc.fleet[5].count + sc.fleet[6].count + sc.fleet[7].count +
			 sc.fleet[0].count + sc.fleet[1].count + sc.fleet[2].count + sc.fleet[3].count, 256);
	ck_assert_str_eq(sc.warnings, "");
	scenario_fini(&sc);
}
END_TEST

/*
 * The allowed lengths at their edges (SOURCES.md [cb-durations]: "1-day increments up to 14 days, and in
 * 7-day increments up to 182 days"). A block from 11:30 UTC (r = 0) by duration: 1 to 14 days, then 21, 28,
 * ..., 182 days; 15, 20 and 22 days are refused, and so is 189 days (27 x 7: a step of 7 past 182). A block
 * from 14:00 (r = 21.5 h to the first 11:30, the next day) by end, at 11:30 k days after that first 11:30
 * (SOURCES.md [cb-start-any-time]): allowed when k or k + 1 is an allowed length. k = 14 (14) and
 * 20 (21), 181 (182) and 182 (182) are taken; k = 15 (15, 16), 19 (19, 20), 22 (22, 23) and 183 (183, 184)
 * are refused. A taken block lasts k x 86400 + 77400 s (21.5 h).
 */
static int block_rc(const char *entry, int64_t *duration_us, char *msg, size_t size)
{
	struct scenario sc;
	struct diag d;
	char text[1024];
	int rc;

	snprintf(text, sizeof text, "name: f\nstart: 2026-01-01T00:00:00Z\nhorizon: 7d\nslo: {latency_s: 2}\n"
		 "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		 "serving: {instance_type: p5.48xlarge}\nfleet:\n  - {option: capacity_block, %s, count: 1}\n", entry);
	rc = scenario_parse_string(&sc, text, "t.yaml", NULL, 0, &d);
	*duration_us = rc == STATUS_OK ? sc.fleet[0].duration_us : -1;
	snprintf(msg, size, "%s", rc == STATUS_OK ? "" : d.msg);
	if (rc == STATUS_OK)
		scenario_fini(&sc);
	return rc;
}

START_TEST(capacity_block_lengths_at_their_edges)
{
	static const struct { const char *entry; int days; bool ok; } from_1130[] = {
		{ "start: 2026-01-01T11:30:00Z, duration: 14d", 14, true },
		{ "start: 2026-01-01T11:30:00Z, duration: 15d", 15, false },
		{ "start: 2026-01-01T11:30:00Z, duration: 20d", 20, false },
		{ "start: 2026-01-01T11:30:00Z, duration: 21d", 21, true },
		{ "start: 2026-01-01T11:30:00Z, duration: 22d", 22, false },
		{ "start: 2026-01-01T11:30:00Z, duration: 28d", 28, true },
		{ "start: 2026-01-01T11:30:00Z, duration: 175d", 175, true },
		{ "start: 2026-01-01T11:30:00Z, duration: 182d", 182, true },
		{ "start: 2026-01-01T11:30:00Z, duration: 189d", 189, false },
		{ "start: 2026-01-01T11:30:00Z, end: 2026-07-09T11:30:00Z", 189, false },
	};
	static const struct { const char *end; int k; bool ok; } from_1400[] = {
		{ "2026-01-16T11:30:00Z", 14, true },  { "2026-01-17T11:30:00Z", 15, false },
		{ "2026-01-21T11:30:00Z", 19, false }, { "2026-01-22T11:30:00Z", 20, true },
		{ "2026-01-24T11:30:00Z", 22, false }, { "2026-07-02T11:30:00Z", 181, true },
		{ "2026-07-03T11:30:00Z", 182, true }, { "2026-07-04T11:30:00Z", 183, false },
	};
	char entry[128], msg[1024];
	int64_t len;

	for (size_t i = 0; i < sizeof from_1130 / sizeof from_1130[0]; i++) {
		int rc = block_rc(from_1130[i].entry, &len, msg, sizeof msg);
		ck_assert_msg(rc == (from_1130[i].ok ? STATUS_OK : STATUS_EINPUT), "%s: rc %d %s", from_1130[i].entry,
			      rc, msg);
		if (from_1130[i].ok)
			ck_assert_int_eq(len, from_1130[i].days * INT64_C(86400) * S_US);
		else
			ck_assert_msg(strstr(msg, "whole days from 1 to 14, or 21 to 182 in steps of 7 days"), "%s", msg);
	}
	for (size_t i = 0; i < sizeof from_1400 / sizeof from_1400[0]; i++) {
		snprintf(entry, sizeof entry, "start: 2026-01-01T14:00:00Z, end: %s", from_1400[i].end);
		int rc = block_rc(entry, &len, msg, sizeof msg);
		ck_assert_msg(rc == (from_1400[i].ok ? STATUS_OK : STATUS_EINPUT), "%s: rc %d %s", entry, rc, msg);
		if (from_1400[i].ok)
			ck_assert_int_eq(len, (from_1400[i].k * INT64_C(86400) + 77400) * S_US);
		else
			ck_assert_msg(strstr(msg, "[cb-start-any-time]"), "%s", msg);
	}
}
END_TEST

/*
 * ISO times keep their fraction of a second: a block starting at 2026-01-02T11:29:59.75Z starts
 * 127799 s + 0.75 s = 127799750000 us after the scenario start; it ends at 11:30 the next day, a quarter of
 * a second to the first 11:30 plus 1 day (an offering "slightly greater" than 1 day), so it loads without a
 * warning and lasts 86400.25 s; a Savings Plan's term_start at 2025-06-01T00:00:00.5Z is
 * 1748736000 s + 500000 us since the epoch.
 */
START_TEST(iso_fractions_kept_to_the_microsecond)
{
	struct scenario sc;

	parse_fleet(&sc,
		    "  - {option: capacity_block, start: 2026-01-02T11:29:59.75Z, end: 2026-01-03T11:30:00Z, count: 1}\n"
		    "commitments:\n  - {option: savings_plan, commit_usd_per_h: 10, term_start: 2025-06-01T00:00:00.5Z}\n", "");
	ck_assert_int_eq(sc.fleet[0].start_us, 127799 * S_US + 750000);
	ck_assert_int_eq(sc.fleet[0].duration_us, 86400 * S_US + 250000);
	ck_assert_int_eq(sc.commit[0].term_start_unix_us, INT64_C(1748736000) * S_US + 500000);
	ck_assert_str_eq(sc.warnings, "");
	scenario_fini(&sc);
}
END_TEST

START_TEST(quotas_retry_allocation_values)
{
	const char *sets[] = { "serving.on_interrupt=drop" };
	struct scenario sc;
	char text[2048];

	snprintf(text, sizeof text, "%s%s", small_yaml,
		 "  - {option: spot, count: 1, interruption_band: '<5%'}\n"
		 "quotas: {on_demand_vcpus: 384, on_demand_instances: 3, spot_vcpus: 0, spot_instances: 10}\n"
		 "launch_retry: {backoff_s: 1m, max_backoff_s: 15m, multiplier: 1.5}\n"
		 "allocation: {strategy: mixed, on_demand_base_capacity: 2, on_demand_percentage_above_base: 25,"
		 " spot_fallback: false}\n");
	parse_ok(&sc, text, sets, 1);
	ck_assert_int_eq(sc.serving.on_interrupt, INTERRUPT_DROP);
	ck_assert_int_eq(sc.quotas.on_demand_vcpus, 384);
	ck_assert_int_eq(sc.quotas.on_demand_instances, 3);
	ck_assert_int_eq(sc.quotas.spot_vcpus, 0);
	ck_assert_int_eq(sc.quotas.spot_instances, 10);
	ck_assert_int_eq(sc.launch_retry.backoff_us, 60 * S_US);
	ck_assert_int_eq(sc.launch_retry.max_backoff_us, 900 * S_US);
	ck_assert_double_eq_tol(sc.launch_retry.multiplier, 1.5, TOL);
	ck_assert(sc.allocation.mixed);
	ck_assert_int_eq(sc.allocation.on_demand_base, 2);
	ck_assert_double_eq_tol(sc.allocation.on_demand_pct, 25, TOL);
	ck_assert(!sc.allocation.spot_fallback);
	scenario_fini(&sc);
}
END_TEST

START_TEST(retry_cap_follows_a_long_first_wait)
{
	const char *sets[] = { "launch_retry.backoff_s=20m" };
	const char *below[] = { "launch_retry.backoff_s=20m", "launch_retry.max_backoff_s=10m" };
	struct scenario sc;

	parse_ok(&sc, small_yaml, sets, 1);
	ck_assert_int_eq(sc.launch_retry.max_backoff_us, 1200 * S_US);  /* not the 600 s default below it */
	scenario_fini(&sc);
	parse_fails(small_yaml, below, 2, "--set launch_retry.max_backoff_s=10m: launch_retry.max_backoff_s: "
		    "expected a duration >= 20m and <= 1d (seconds, or a number with a unit: ms, s, m, h, d, w), "
		    "got '10m'");
}
END_TEST

START_TEST(catalog_overrides_new_keys)
{
	const char *sets[] = { "catalog.p5.48xlarge.vcpus=96", "catalog.p5.48xlarge.spot_discount=0.4",
			       "catalog.p5.48xlarge.reserved_3y_discount=0.6",
			       "catalog.p5.48xlarge.savings_plan_discount=0.2", "catalog.p5.48xlarge.cb_usd_per_h=30" };
	struct scenario sc;

	parse_ok(&sc, full_yaml, sets, 5);
	ck_assert_int_eq(sc.serving.vcpus, 96);
	ck_assert_int_eq(sc.serving.family, 'p');
	ck_assert_double_eq_tol(sc.serving.spot_discount, 0.4, TOL);
	ck_assert_double_eq_tol(sc.serving.reserved_3y_discount, 0.6, TOL);
	ck_assert_double_eq_tol(sc.serving.savings_plan_discount, 0.2, TOL);
	ck_assert_double_eq_tol(sc.serving.capacity_block_usd_per_h, 30, TOL);
	scenario_fini(&sc);
}
END_TEST

/*
 * Who sells what (SOURCES.md [sold-types]): a Capacity Block of a G type is refused at its option, the rule
 * quoted; a catalog: entry may assume it is sold; a new type takes the rule from its name (p9.test sells
 * blocks, x9.test nothing, trn9.test training plans); Google Cloud's calendar mode wants A3 or newer; and
 * every built-in row's column agrees with the rule.
 */
static int sold(const char *type, const char *catalog, const char *option, const char *provider, char msg[1024])
{
	static char text[2048];
	struct scenario sc;
	struct diag d;
	int rc;

	snprintf(text, sizeof text,
		 "name: sold\nstart: 2026-01-01T00:00:00Z\nhorizon: 1d\n%sslo: {latency_s: 2}\n"
		 "workload:\n  arrivals: {kind: poisson, rate_per_s: 1}\n  service: {kind: exponential, mean_s: 1}\n"
		 "serving: {instance_type: %s}\n%s"
		 "fleet:\n  - {option: on_demand, count: 1, usd_per_h: 5}\n"
		 "  - {option: %s, start: 2026-01-01T11:30:00Z, duration: 7d, count: 2, usd_per_h: 20}\n",
		 provider, type, catalog, option);
	rc = scenario_parse_string(&sc, text, "t.yaml", NULL, 0, &d);
	if (rc == STATUS_OK)
		ck_assert_int_eq(sc.fleet[1].option, OPTION_CAPACITY_BLOCK);
	snprintf(msg, 1024, "%s", rc == STATUS_OK ? "" : d.msg);
	scenario_fini(&sc);
	return rc;
}

START_TEST(sold_types_follow_the_catalogue)
{
	char msg[1024];

	ck_assert_int_eq(sold("g6.xlarge", "", "capacity_block", "", msg), STATUS_EINPUT);
	ck_assert_str_eq(msg, "t.yaml:11:14: fleet.1.option: capacity_block: AWS offers Capacity Blocks and "
		      "training plans for P-family GPU and Trn instance types only (SOURCES.md [sold-types]), and "
		      "g6.xlarge is not one; expected an instance type sold as capacity_block (p5.48xlarge, "
		      "p4d.24xlarge, trn1.32xlarge, ...), or catalog: {g6.xlarge: {sells: [capacity_block]}} to "
		      "assume it is");
	ck_assert_int_eq(sold("g6.xlarge", "catalog: {g6.xlarge: {sells: [capacity_block]}}\n", "capacity_block",
			      "", msg), STATUS_OK);
	ck_assert_int_eq(sold("g6.xlarge", "catalog: {g6.xlarge: {sells: [training_plan]}}\n", "capacity_block",
			      "", msg), STATUS_EINPUT);
	ck_assert_int_eq(sold("p5.48xlarge", "", "capacity_block", "", msg), STATUS_OK);
	ck_assert_int_eq(sold("p5.48xlarge", "catalog: {p5.48xlarge: {sells: []}}\n", "capacity_block", "", msg),
			 STATUS_EINPUT);
	ck_assert_int_eq(sold("p9.test", "catalog: {p9.test: {gpus: 8, usd_per_h: 90}}\n", "capacity_block", "",
			      msg), STATUS_OK);
	ck_assert_int_eq(sold("x9.test", "catalog: {x9.test: {gpus: 8, usd_per_h: 90}}\n", "capacity_block", "",
			      msg), STATUS_EINPUT);
	ck_assert_int_eq(sold("a3-highgpu-8g", "catalog: {a3-highgpu-8g: {usd_per_h: 80}}\n", "gcp_calendar",
			      "provider: gcp\n", msg), STATUS_OK);
	ck_assert_int_eq(sold("a2-highgpu-8g", "catalog: {a2-highgpu-8g: {usd_per_h: 30}}\n", "gcp_calendar",
			      "provider: gcp\n", msg), STATUS_EINPUT);
	ck_assert_msg(strstr(msg, "gcp_calendar: Google Cloud's calendar-mode reservations are for A3 and newer"),
		      "%s", msg);
	ck_assert_int_eq(sold("a4-highgpu-8g", "catalog: {a4-highgpu-8g: {gpus: 8, usd_per_h: 90, provider: gcp}}\n",
			      "gcp_calendar", "provider: gcp\n", msg), STATUS_OK);
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct catalog_entry *c = catalog_at(i);

		ck_assert_msg(c->sells == catalog_sells_by_name(c->name, c->provider), "%s", c->name);
	}
	ck_assert_uint_eq(catalog_sells_by_name("trn2.48xlarge", PROVIDER_AWS), SELLS_BLOCKS);
	ck_assert_uint_eq(catalog_sells_by_name("p5.48xlarge", PROVIDER_GCP), 0);
	ck_assert_uint_eq(catalog_sells_by_name("pluto", PROVIDER_AWS), 0);
}
END_TEST

/* A training plan follows the same rule; a trn type's plan is accepted. */
START_TEST(sold_types_cover_training_plans)
{
	const char *plan = "name: p\nstart: 2026-01-01T00:00:00Z\nhorizon: 4d\n"
			   "jobs:\n  policy: reserved_first\n  list:\n    - {instances: 2, work_instance_hours: 10, submit: 0}\n"
			   "serving: {instance_type: g5.48xlarge}\n"
			   "fleet:\n  - {option: training_plan, use: jobs, usd_per_h: 10, segments: [{start: 2026-01-01T11:30:00Z, "
			   "days: 1, count: 2}]}\n";
	const char *trn[] = { "serving.instance_type=trn1.test", "catalog.trn1.test.gpus=16",
			      "catalog.trn1.test.usd_per_h=21.5" };
	struct scenario sc;

	parse_fails(plan, NULL, 0, "t.yaml:10:14: fleet.0.option: training_plan: AWS offers Capacity Blocks and "
		    "training plans for P-family GPU and Trn instance types only (SOURCES.md [sold-types]), and "
		    "g5.48xlarge is not one; expected an instance type sold as training_plan (p5.48xlarge, "
		    "p4d.24xlarge, trn1.32xlarge, ...), or catalog: {g5.48xlarge: {sells: [training_plan]}} to "
		    "assume it is");
	parse_ok(&sc, plan, trn, 3);
	ck_assert_int_eq(sc.fleet[0].option, OPTION_TRAINING_PLAN);
	scenario_fini(&sc);
}
END_TEST

START_TEST(vcpu_quota_needs_known_vcpus)
{
	const char *sets[] = { "serving.instance_type=my-l4-box", "quotas.on_demand_vcpus=64" };
	const char *count[] = { "serving.instance_type=my-l4-box", "quotas.on_demand_instances=4" };
	struct scenario sc;

	parse_fails(full_yaml, sets, 2, "--set quotas.on_demand_vcpus=64: quotas.on_demand_vcpus: the vCPUs of "
		    "my-l4-box are unknown; expected catalog.my-l4-box.vcpus, or a quota in instances");
	parse_ok(&sc, full_yaml, count, 2);
	ck_assert_int_eq(sc.serving.vcpus, 0);  /* a new type that does not say */
	ck_assert_int_eq(sc.quotas.on_demand_instances, 4);
	scenario_fini(&sc);
}
END_TEST

START_TEST(keys_of_other_options_do_not_apply)
{
	const char *sets[] = { "fleet.0.discount=0.2" };

	parse_fails(small_yaml, sets, 1, "--set fleet.0.discount=0.2: fleet.0.discount: discount does not apply "
		    "to reserved; expected one of: option, scope, count, usd_per_h, term, payment, upfront_usd, "
		    "term_start, use, instance_type");
}
END_TEST


#define ADD(s, fn)                                          \
	do {                                                \
		TCase *tc_ = tcase_create(#fn);             \
		test_add(tc_, fn);                          \
		suite_add_tcase(s, tc_);                    \
	} while (0)


/* A gcp_preemptible entry without an interruption model still stops at 24 h: the warning names the option as
 * written and says so (line 9 is the entry). */
START_TEST(preemptible_warning_names_its_option)
{
	struct scenario sc;

	parse_ok(&sc, "name: f\nhorizon: 1d\nslo: {latency_s: 2}\nprovider: gcp\n"
		 "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		 "serving: {instance_type: a3-highgpu-8g}\ncatalog: {a3-highgpu-8g: {usd_per_h: 80}}\n"
		 "fleet:\n  - {option: gcp_preemptible, count: 1, usd_per_h: 20}\n", NULL, 0);
	ck_assert_str_eq(sc.warnings, "t.yaml:9:6: fleet.0: gcp_preemptible entry has no interruption model "
			 "(interruptions_per_hour, interruption_band or availability_trace) and no reclaims or zone "
			 "outages; its VMs are stopped only by the 24-hour limit\n");
	scenario_fini(&sc);
}
END_TEST

static Suite *scenario_fleet_suite(void)
{
	Suite *s = suite_create("scenario_fleet");

	ADD(s, new_catalog_type_has_no_reserved_discount);
	ADD(s, target_tracking_defaults_come_from_the_fleet);
	ADD(s, on_demand_max_defaults_to_autoscaling_max);
	ADD(s, autoscaling_max_above_the_entries_is_a_warning);
	ADD(s, startup_delays);
	ADD(s, reserved_terms_and_payments);
	ADD(s, spot_discount_band_and_defaults);
	ADD(s, spot_never_interrupted_only_when_nothing_can);
	ADD(s, spot_trace_paths);
	ADD(s, trace_failure_frees_what_was_loaded);
	ADD(s, odcr_takes_the_on_demand_price);
	ADD(s, odcr_future_dated_only_for_the_families_aws_allows);
	ADD(s, savings_plan_discount_and_rates);
	ADD(s, capacity_block_times_prices_and_warnings);
	ADD(s, iso_fractions_kept_to_the_microsecond);
	ADD(s, capacity_block_end_at_1130_from_any_start);
	ADD(s, capacity_block_lengths_at_their_edges);
	ADD(s, spot_never_above_on_demand);
	ADD(s, quotas_retry_allocation_values);
	ADD(s, retry_cap_follows_a_long_first_wait);
	ADD(s, catalog_overrides_new_keys);
	ADD(s, sold_types_follow_the_catalogue);
	ADD(s, sold_types_cover_training_plans);
	ADD(s, vcpu_quota_needs_known_vcpus);
	ADD(s, keys_of_other_options_do_not_apply);
	ADD(s, preemptible_warning_names_its_option);
	return s;
}

int main(void)
{
	return test_run_suite(scenario_fleet_suite());
}
