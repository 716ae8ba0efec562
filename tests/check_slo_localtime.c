/*
 * check_slo_localtime: SLO windows on the scenario's `timezone` clock (meter_window.c; models/README.md
 * "Local time"). America/New_York is UTC-5 (EST) until 2026-03-08 07:00 UTC (02:00 EST jumps to 03:00
 * EDT) and from 2026-11-01 06:00 UTC (02:00 EDT goes back to 01:00 EST), UTC-4 (EDT) between;
 * Asia/Kolkata is UTC+5:30 all year. Run times below are seconds from 2026-01-01T00:00:00Z, the start.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "meter.h"
#include "diag.h"
#include "engine.h"
#include "status.h"
#include "testutil.h"
#include "tzone.h"

#define START_2026 INT64_C(1767225600)  /* 2026-01-01T00:00:00Z */
#define H INT64_C(3600)
#define D (24 * H)
#define S(x) ((int64_t)(x) * SIM_US_PER_S)
#define JAN15 (14 * D)                  /* 2026-01-15T00:00:00Z */
#define JUL15 (195 * D)                 /* 2026-07-15T00:00:00Z */
#define MAR8 (66 * D)                   /* 2026-03-08T00:00:00Z */
#define NOV1 (304 * D)                  /* 2026-11-01T00:00:00Z */

static struct tzone tz;
static struct capture cap;
static struct diag d;

/* A meter over [warmup_s, horizon_s) of 2026 with windows of window_s on zone `name` (NULL: UTC), every
 * request allowed no violation beyond max_rate; the SLO latency is 10 s. */
static struct meter *meter_on(const char *name, int64_t window_s, int64_t warmup_s, int64_t horizon_s,
			      double max_rate)
{
	struct meter *m = calloc(1, sizeof *m);
	char err[256];

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(meter_init(m, capture_sink(&cap), &d, S(10), 8, 1, S(horizon_s), 0, S(60)), STATUS_OK);
	meter_set_prices(m, S(START_2026), 100);
	if (warmup_s > 0)
		meter_set_warmup(m, S(warmup_s));
	if (name)
		ck_assert_msg(tzone_load(&tz, name, START_2026 - D, START_2026 + 367 * D, err, sizeof err) ==
			      STATUS_OK, "%s: %s", name, err);
	meter_set_slo(m, &(struct meter_slo){ .max_violation_rate = max_rate, .window_us = S(window_s),
					      .tz = name ? &tz : NULL });
	return m;
}

static void meter_free(struct meter *m)
{
	meter_close(m, m->horizon_us);
	meter_finish(m);
	meter_fini(m);
	free(m);
}

/*
 * 1 d windows in New York are local calendar days: from local midnight, 05:00 UTC in winter (EST), 04:00
 * UTC in summer (EDT). Mar 8 runs from 05:00 UTC to 04:00 UTC on Mar 9: 23 h; Nov 1 from 04:00 UTC to
 * 05:00 UTC on Nov 2: 25 h, holding 04:30 UTC Nov 1 (00:30 EDT) and 04:30 UTC Nov 2 (23:30 EST, Nov 1).
 * The year [Jan 1 00:00 UTC, Jan 1 2027 00:00 UTC) is Dec 31 19:00 EST to Dec 31 2026 19:00 EST: the local
 * days Dec 31 2025 to Dec 31 2026, 366 windows.
 */
START_TEST(new_york_days)
{
	struct meter *m = meter_on("America/New_York", D, 0, 365 * D, 0);
	int64_t k;

	k = meter_window_of(m, S(JAN15 + 12 * H));
	ck_assert_int_eq(meter_window_start(m, k), S(JAN15 + 5 * H));
	ck_assert_int_eq(meter_window_of(m, S(JAN15 + 5 * H) - 1), k - 1);
	k = meter_window_of(m, S(JUL15 + 12 * H));
	ck_assert_int_eq(meter_window_start(m, k), S(JUL15 + 4 * H));
	ck_assert_int_eq(meter_window_of(m, S(JUL15 + 4 * H) - 1), k - 1);
	k = meter_window_of(m, S(MAR8 + 12 * H));
	ck_assert_int_eq(meter_window_start(m, k), S(MAR8 + 5 * H));
	ck_assert_int_eq(meter_window_start(m, k + 1) - meter_window_start(m, k), S(23 * H));
	k = meter_window_of(m, S(NOV1 + 4 * H + 1800));
	ck_assert_int_eq(meter_window_of(m, S(NOV1 + D + 4 * H + 1800)), k);
	ck_assert_int_eq(meter_window_of(m, S(NOV1 + D + 5 * H)), k + 1);
	ck_assert_int_eq(meter_window_start(m, k), S(NOV1 + 4 * H));
	ck_assert_int_eq(meter_window_start(m, k + 1) - meter_window_start(m, k), S(25 * H));
	ck_assert_double_eq(meter_window_count(m), 366);
	meter_free(m);
}
END_TEST

/*
 * 1 h windows over Nov 1 04:00-08:00 UTC: 00:00-01:00 EDT, then 01:00 EDT to 06:00 UTC where the clock
 * goes back to 01:00 EST: the repeated hour stays in the window open, 01:00-02:00 local, 05:00-07:00 UTC;
 * then 02:00-03:00 EST. Three windows. A request every 5 min (48); those of the repeated hour (06:00-07:00
 * UTC, 12) all over the SLO, the rest within it; max_violation_rate 0.5: the merged window holds 12 of 24
 * over, not more than half, so no window is breached. Were the repeated hour a window of its own it would
 * be breached; were the index to go back, the meter's assertion would fail.
 */
START_TEST(new_york_fall_back_hours)
{
	struct meter *m = meter_on("America/New_York", H, NOV1 + 4 * H, NOV1 + 8 * H, 0.5);
	int64_t k0 = meter_window_of(m, S(NOV1 + 4 * H)), last = k0;

	for (int i = 0; i < 48; i++) {
		int64_t t = NOV1 + 4 * H + i * 300, k = meter_window_of(m, S(t));
		bool over = t >= NOV1 + 6 * H && t < NOV1 + 7 * H;
		ck_assert_int_ge(k, last);
		ck_assert_int_eq(k, k0 + (t < NOV1 + 5 * H ? 0 : t < NOV1 + 7 * H ? 1 : 2));
		last = k;
		meter_served(m, S(t), S(t), 0, over ? S(20) : S(1), 0, 0);
	}
	ck_assert_int_eq(meter_window_start(m, k0 + 1), S(NOV1 + 5 * H));
	ck_assert_int_eq(meter_window_start(m, k0 + 2), S(NOV1 + 7 * H));
	ck_assert_double_eq(meter_window_count(m), 3);
	meter_close(m, S(NOV1 + 8 * H));
	meter_finish(m);
	ck_assert_int_eq(m->windows_breached, 0);
	meter_fini(m);
	free(m);
}
END_TEST

/* 15 m windows: 01:45-02:00 EDT (05:45 UTC) holds the repeated hour too, to 02:00 EST (07:00 UTC). */
START_TEST(new_york_fall_back_quarters)
{
	struct meter *m = meter_on("America/New_York", 900, NOV1, NOV1 + D, 0);
	int64_t k = meter_window_of(m, S(NOV1 + 5 * H + 2700));

	ck_assert_int_eq(meter_window_start(m, k), S(NOV1 + 5 * H + 2700));
	ck_assert_int_eq(meter_window_of(m, S(NOV1 + 6 * H)), k);
	ck_assert_int_eq(meter_window_of(m, S(NOV1 + 7 * H) - 1), k);
	ck_assert_int_eq(meter_window_of(m, S(NOV1 + 7 * H)), k + 1);
	ck_assert_int_eq(meter_window_start(m, k + 1), S(NOV1 + 7 * H));
	/* [Nov 1 00:00, Nov 2 00:00 UTC) is Oct 31 20:00 EDT to Nov 1 19:00 EST: 20:00-02:00 local (EDT) is
	 * 24 quarters, the last holding the repeated hour; 02:00-19:00 EST 68 more: 92 */
	ck_assert_double_eq(meter_window_count(m), 92);
	meter_free(m);
}
END_TEST

/* At the spring-forward change (Mar 8 07:00 UTC, 02:00 EST to 03:00 EDT) the 02:00-03:00 window does not
 * occur: 01:00 EST is 06:00-07:00 UTC, 03:00 EDT starts at the jump. [06:00, 08:00 UTC): 2 windows. */
START_TEST(new_york_spring_forward_hours)
{
	struct meter *m = meter_on("America/New_York", H, MAR8 + 6 * H, MAR8 + 8 * H, 0);
	int64_t k = meter_window_of(m, S(MAR8 + 6 * H + 1800));

	ck_assert_int_eq(meter_window_start(m, k), S(MAR8 + 6 * H));
	ck_assert_int_eq(meter_window_of(m, S(MAR8 + 7 * H)), k + 2);
	ck_assert_int_eq(meter_window_start(m, k + 1), S(MAR8 + 7 * H));
	ck_assert_int_eq(meter_window_start(m, k + 2), S(MAR8 + 7 * H));
	ck_assert_double_eq(meter_window_count(m), 2);
	meter_free(m);
}
END_TEST

/* Kolkata (+05:30): 1 h windows start at :30 UTC; Jan 15 00:00 UTC is 05:30 IST, in 05:00-06:00 IST,
 * which started at 23:30 UTC. UTC (tz NULL): windows on the UTC hour, the phase 0 (start a midnight). */
START_TEST(kolkata_and_utc_hours)
{
	struct meter *m = meter_on("Asia/Kolkata", H, 0, 30 * D, 0);
	int64_t k = meter_window_of(m, S(JAN15));

	ck_assert_int_eq(meter_window_start(m, k), S(JAN15 - 1800));
	ck_assert_int_eq(meter_window_start(m, k + 1), S(JAN15 + 1800));
	ck_assert_int_eq(meter_window_of(m, S(JAN15 + 1800)), k + 1);
	ck_assert_double_eq(meter_window_count(m), 30 * 24 + 1);  /* 05:30 IST to 05:30 IST: one extra part */
	meter_free(m);
	m = meter_on(NULL, H, 0, 30 * D, 0);
	k = meter_window_of(m, S(JAN15));
	ck_assert_int_eq(meter_window_start(m, k), S(JAN15));
	ck_assert_double_eq(meter_window_count(m), 30 * 24);
	meter_free(m);
}
END_TEST

/*
 * A run (tests/data/traces/slo_windows.csv, as in check_world_slo: one request a minute in bursts, each
 * served at once, latency = its service time) from 2026-01-15 03:00 UTC (22:00 EST on Jan 14) for 4 h,
 * slo.latency_s 5 s, max_violation_rate 0.5 and latency_p90_s 5 s in 1 d windows. In New York the local day
 * Jan 14 ends at 05:00 UTC, run time 7200 s: it holds the bursts at 0-2340 s (18 x 1 s, 2 x 10 s) and
 * 5400-5940 s (9 x 1 s, 1 x 20 s): 3 of 30 over 5 s, p90 (27th smallest) 1 s: met. Jan 15 from 7200 s holds
 * 9000-9540 s (10 x 6 s) and 12600-12840 s (5 x 1 s): 10 of 15 over (more than half) and p90 (14th
 * smallest) 6 s, ratio 1.2: breached, the worst window, starting at 7200 s. On UTC the run lies in one day:
 * 13 of 45 over, not more than half (the p90 is left out there: 6 s would breach the UTC day too).
 */
static const char *const run_yaml =
	"name: local-day\nstart: 2026-01-15T03:00:00Z\nhorizon: 4h\n%s"
	"slo: {latency_s: 5s, max_violation_rate: 0.5, %swindow: 1d}\n"
	"workload:\n  arrivals: {kind: trace, format: generic, path: " TEST_DATA_DIR "/traces/slo_windows.csv,\n"
	"    columns: {time: t, time_format: seconds, service_s: svc}}\n  service: {kind: trace}\n"
	"serving: {queue: central, routing: first_free, instance_type: g5.xlarge, slots_per_instance: 1}\n"
	"fleet:\n  - {option: reserved, count: 10, scope: zonal}\n";

START_TEST(run_breaches_one_local_day)
{
	char yaml[1024];

	snprintf(yaml, sizeof yaml, run_yaml, "timezone: America/New_York\n", "latency_p90_s: 5s, ");
	capture_run(&cap, yaml, NULL, 0);
	ck_assert_double_eq(capture_need(&cap, "requests_total"), 45);
	ck_assert_double_eq(capture_need(&cap, "slo_windows"), 2);
	ck_assert_double_eq(capture_need(&cap, "slo_windows_breached"), 1);
	ck_assert_double_eq(capture_need(&cap, "slo_worst_window_start_s"), 7200);
	ck_assert_double_eq_tol(capture_need(&cap, "slo_worst_window_ratio"), 1.2, 0.02);
	memset(&cap, 0, sizeof cap);
	snprintf(yaml, sizeof yaml, run_yaml, "", "");
	capture_run(&cap, yaml, NULL, 0);
	ck_assert_double_eq(capture_need(&cap, "slo_windows"), 1);
	ck_assert_double_eq(capture_need(&cap, "slo_windows_breached"), 0);
}
END_TEST

static Suite *slo_localtime_suite(void)
{
	Suite *s = suite_create("slo_localtime");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, new_york_days);
	tcase_add_test(tc, new_york_fall_back_hours);
	tcase_add_test(tc, new_york_fall_back_quarters);
	tcase_add_test(tc, new_york_spring_forward_hours);
	tcase_add_test(tc, kolkata_and_utc_hours);
	tcase_add_test(tc, run_breaches_one_local_day);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(slo_localtime_suite());
}
