/*
 * check_localtime: the scenario's `timezone` (models/README.md, "Local time"): the diurnal profile and its
 * weekly factors on a zone's wall clock (arrivals_profile.c, and fluid mode's integral, fluid_rate.c), the
 * loader's key, and a whole run whose scheduled action follows daylight saving; and the request traces'
 * times with UTC offsets, CSV delimiter and epoch_ms hint (tracefile.c, the loader's `columns`). America/New_York is UTC-5
 * (EST) until 2026-03-08 07:00 UTC and from 2026-11-01 06:00 UTC, UTC-4 (EDT) between; Asia/Kolkata is
 * UTC+5:30 all year. Times below are seconds from 2026-01-01T00:00:00Z (a Thursday), the scenarios' start.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "arrivals.h"
#include "capture.h"
#include "engine.h"
#include "fluid.h"
#include "rng.h"
#include "scenario.h"
#include "scenario_fixtures.h"
#include "status.h"
#include "testutil.h"
#include "tracefile.h"
#include "tzone.h"

#define START_2026 INT64_C(1767225600)  /* 2026-01-01T00:00:00Z, a Thursday */
#define HOUR 3600.0
#define DAY 86400.0
#define JAN15 (14 * DAY)                /* 2026-01-15T00:00:00Z, a Thursday, EST */
#define JUL15 (195 * DAY)               /* 2026-07-15T00:00:00Z, a Wednesday, EDT */
#define MON_JAN5 (4 * DAY)              /* 2026-01-05T00:00:00Z, a Monday */
#define SPRING_T (66 * DAY + 7 * HOUR)  /* 2026-03-08T07:00:00Z */
#define FALL_T (304 * DAY + 6 * HOUR)   /* 2026-11-01T06:00:00Z */

static char err[256];

/* A diurnal scenario (zeroed, then set) on the wall clock of zone `name` for 2026. */
static void diurnal_in(struct scenario *sc, const char *name, double amplitude, double peak_hour)
{
	memset(sc, 0, sizeof *sc);
	sc->start_unix_us = START_2026 * SIM_US_PER_S;
	sc->horizon_us = (int64_t)(365 * DAY) * SIM_US_PER_S;
	sc->arrivals.kind = ARRIVAL_DIURNAL;
	sc->arrivals.rate_per_s = 1;
	sc->arrivals.amplitude = amplitude;
	sc->arrivals.peak_hour = peak_hour;
	ck_assert_msg(tzone_load(&sc->tz, name, START_2026 - 86400, START_2026 + 367 * 86400, err, sizeof err) ==
		      STATUS_OK, "%s: %s", name, err);
}

/* A profile with a single open local hour: `hour`, at factor 24 (so rate_per_s is the daily mean). */
static void one_open_hour(struct scenario *sc, int hour)
{
	sc->arrivals.has_hourly = true;
	for (int h = 0; h < 24; h++)
		sc->arrivals.hourly[h] = h == hour ? 24 : 0;
}

/* A peak at 15:00 New York time: 20:00 UTC on a January day (EST), 19:00 UTC on a July day (EDT). */
START_TEST(diurnal_peak_follows_new_york_time)
{
	struct scenario sc;
	gsl_rng *rng = rng_new(1, "arrivals");
	struct arrival_source *src;
	double peak = 1 + 0.6;  /* rate_per_s x (1 + amplitude) at the peak */

	diurnal_in(&sc, "America/New_York", 0.6, 15);
	src = arrivals_profile_new(&sc, rng);
	ck_assert_double_eq_tol(arrivals_profile_rate(src, JAN15 + 20 * HOUR), peak, 1e-12);
	ck_assert_double_lt(arrivals_profile_rate(src, JAN15 + 19 * HOUR), peak - 0.01);
	ck_assert_double_lt(arrivals_profile_rate(src, JAN15 + 21 * HOUR), peak - 0.01);
	ck_assert_double_eq_tol(arrivals_profile_rate(src, JUL15 + 19 * HOUR), peak, 1e-12);
	ck_assert_double_lt(arrivals_profile_rate(src, JUL15 + 20 * HOUR), peak - 0.01);
	/* the trough, 03:00 local: 08:00 UTC in winter, 07:00 in summer */
	ck_assert_double_eq_tol(arrivals_profile_rate(src, JAN15 + 8 * HOUR), 1 - 0.6, 1e-12);
	ck_assert_double_eq_tol(arrivals_profile_rate(src, JUL15 + 7 * HOUR), 1 - 0.6, 1e-12);
	arrivals_free(src);
	/* in UTC the same profile peaks at 15:00 UTC */
	tzone_utc(&sc.tz);
	src = arrivals_profile_new(&sc, rng);
	ck_assert_double_eq_tol(arrivals_profile_rate(src, JAN15 + 15 * HOUR), peak, 1e-12);
	arrivals_free(src);
	gsl_rng_free(rng);
}
END_TEST

/*
 * Draws, all year: with only local hour 15 open, every arrival must fall in 15:00-16:00 New York time, so
 * in 20:00-21:00 UTC under EST and 19:00-20:00 UTC under EDT, and the change days themselves (Sundays
 * 2026-03-08 and 2026-11-01) draw on the new clock. At a mean of 0.002/s a day gets 172.8 (SD 13.1).
 */
START_TEST(diurnal_draws_in_the_open_local_hour_all_year)
{
	struct scenario sc;
	gsl_rng *rng = rng_new(test_seed("diurnal_draws_in_the_open_local_hour_all_year", 7), "arrivals");
	struct arrival_source *src;
	struct arrival a;
	struct diag d = {{0}};
	long n = 0, on_spring = 0, on_fall = 0, wrong = 0;

	diurnal_in(&sc, "America/New_York", 0, 0);
	sc.arrivals.rate_per_s = 0.002;  /* 0.048/s in the open hour: 172.8 a day */
	one_open_hour(&sc, 15);
	src = arrivals_profile_new(&sc, rng);
	while (src->ops->next(src, &a, &d) == STATUS_OK && a.t_us < (int64_t)(365 * DAY) * SIM_US_PER_S) {
		int64_t unix_s = START_2026 + a.t_us / SIM_US_PER_S;
		int64_t local = unix_s + tzone_offset(&sc.tz, unix_s);
		double t = (double)a.t_us / SIM_US_PER_S;

		n++;
		if (local % 86400 / 3600 != 15)
			wrong++;
		on_spring += t >= 66 * DAY && t < 67 * DAY;
		on_fall += t >= 304 * DAY && t < 305 * DAY;
	}
	ck_assert_int_eq(wrong, 0);
	ck_assert_int_gt(n, 62000);        /* 365 x 172.8 = 63,072 expected (SD 251) */
	ck_assert_int_gt(on_spring, 120);  /* 172.8 expected (4 SD below: 120): 19:00-20:00 UTC that day */
	ck_assert_int_gt(on_fall, 120);    /* 20:00-21:00 UTC */
	arrivals_free(src);
	gsl_rng_free(rng);
}
END_TEST

/* The weekly factors follow local days: Monday (factor 2) begins at 05:00 UTC in New York in January. */
START_TEST(weekly_factors_follow_local_days)
{
	struct scenario sc;
	gsl_rng *rng = rng_new(1, "arrivals");
	struct arrival_source *src;

	diurnal_in(&sc, "America/New_York", 0, 0);
	sc.arrivals.has_weekly = true;
	for (int i = 0; i < 7; i++)
		sc.arrivals.weekly[i] = i == 0 ? 2 : 1;  /* Monday first */
	src = arrivals_profile_new(&sc, rng);
	ck_assert_double_eq_tol(arrivals_profile_rate(src, MON_JAN5 + 4.9 * HOUR), 1, 1e-12);  /* Sun 23:54 */
	ck_assert_double_eq_tol(arrivals_profile_rate(src, MON_JAN5 + 5.1 * HOUR), 2, 1e-12);  /* Mon 00:06 */
	ck_assert_double_eq_tol(arrivals_profile_rate(src, MON_JAN5 + DAY + 4.9 * HOUR), 2, 1e-12);
	ck_assert_double_eq_tol(arrivals_profile_rate(src, MON_JAN5 + DAY + 5.1 * HOUR), 1, 1e-12);
	arrivals_free(src);
	gsl_rng_free(rng);
}
END_TEST

/*
 * The thinning bounds (arrivals_profile.c) hold on the local clock: at every minute of both change days, a
 * hair either side of each, a profile with hourly and weekly factors has its step's rate within the step's
 * bounds and equal to the exact rate.
 */
START_TEST(step_bounds_hold_across_the_changes)
{
	struct scenario sc;
	gsl_rng *rng = rng_new(1, "arrivals");
	struct arrival_source *src;
	const double days[2] = { 66 * DAY, 304 * DAY };

	diurnal_in(&sc, "America/New_York", 0, 0);
	sc.arrivals.has_hourly = sc.arrivals.has_weekly = true;
	for (int h = 0; h < 24; h++)
		sc.arrivals.hourly[h] = 0.2 + 0.1 * ((h * 7) % 24);
	for (int i = 0; i < 7; i++)
		sc.arrivals.weekly[i] = 0.5 + 0.25 * i;
	src = arrivals_profile_new(&sc, rng);
	for (int k = 0; k < 2; k++)
		for (int m = 0; m < 1440; m++) {
			double t0 = days[k] + 60.0 * m, ts[3] = { t0, nextafter(t0, INFINITY), t0 + 59.999 };

			for (int j = 0; j < 3; j++) {
				double lo, rate, hi, exact = arrivals_profile_rate(src, ts[j]);

				arrivals_profile_step(src, ts[j], &lo, &rate, &hi);
				if (!(lo <= rate && rate <= hi) || fabs(rate - exact) > 1e-9)
					ck_abort_msg("t = %.17g: rate %g exact %g bounds [%g, %g]", ts[j], rate, exact, lo, hi);
			}
		}
	arrivals_free(src);
	gsl_rng_free(rng);
}
END_TEST

/* Fluid mode's integral of the same profiles: an open local hour 15 holds the day's 86,400 arrivals (rate
 * 1/s), in 20:00-21:00 UTC in January, 19:00-20:00 in July; in Kolkata (+05:30) in 09:30-10:30 UTC, half in
 * each UTC hour (the period is cut at local hour marks). */
START_TEST(fluid_integral_on_the_local_clock)
{
	struct scenario sc;

#define INTEGRAL(a, b) fluid_rate_integral(&sc, (int64_t)((a) * SIM_US_PER_S), (int64_t)((b) * SIM_US_PER_S))
	diurnal_in(&sc, "America/New_York", 0, 0);
	one_open_hour(&sc, 15);
	ck_assert_double_eq_tol(INTEGRAL(JAN15 + 20 * HOUR, JAN15 + 21 * HOUR), 86400, 1e-6);
	ck_assert_double_eq_tol(INTEGRAL(JAN15 + 19 * HOUR, JAN15 + 20 * HOUR), 0, 1e-6);
	ck_assert_double_eq_tol(INTEGRAL(JUL15 + 19 * HOUR, JUL15 + 20 * HOUR), 86400, 1e-6);
	ck_assert_double_eq_tol(INTEGRAL(SPRING_T - 7 * HOUR, SPRING_T + 17 * HOUR), 86400, 1e-6);
	diurnal_in(&sc, "Asia/Kolkata", 0, 0);
	one_open_hour(&sc, 15);
	ck_assert_double_eq_tol(INTEGRAL(JAN15 + 9 * HOUR, JAN15 + 10 * HOUR), 43200, 1e-6);
	ck_assert_double_eq_tol(INTEGRAL(JAN15 + 10 * HOUR, JAN15 + 11 * HOUR), 43200, 1e-6);
	ck_assert_double_eq_tol(INTEGRAL(JAN15, JAN15 + DAY), 86400, 1e-6);
#undef INTEGRAL
}
END_TEST

/* The smallest diurnal scenario, with a timezone line appended. */
#define BASE "name: tz\nhorizon: 1d\nslo: {latency_s: 5}\n" \
	"workload:\n  arrivals: {kind: diurnal, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n" \
	"serving: {instance_type: g6.xlarge}\nfleet:\n  - {option: on_demand, count: 1}\n"

START_TEST(loader_reads_the_zone)
{
	struct scenario sc;

	parse_ok(&sc, BASE, NULL, 0);
	ck_assert(tzone_is_utc(&sc.tz));
	ck_assert_str_eq(sc.tz.name, "UTC");
	scenario_fini(&sc);
	parse_ok(&sc, BASE "timezone: America/New_York\n", NULL, 0);
	ck_assert_str_eq(sc.tz.name, "America/New_York");
	ck_assert_int_eq(sc.tz.off0_s, -18000);
	scenario_fini(&sc);
	parse_fails(BASE "timezone: America/Springfield\n", NULL, 0,
		    "t.yaml:10:11: timezone: no time zone \"America/Springfield\" in /usr/share/zoneinfo (is tzdata "
		    "installed?); expected an IANA time zone name such as America/New_York, Europe/Berlin or UTC");
	parse_fails(BASE "timezone: ../../etc/passwd\n", NULL, 0,
		    "t.yaml:10:11: timezone: \"../../etc/passwd\" is not a time zone name; expected an IANA time "
		    "zone name such as America/New_York, Europe/Berlin or UTC");
}
END_TEST

/* A whole run: "0 9 * * 1-5" in New York from Friday 2026-03-06 over 4 days fires at 14:00 UTC on Friday
 * (EST) and at 13:00 UTC on Monday 03-09 (EDT), and not on the weekend. */
START_TEST(run_with_a_new_york_schedule)
{
	static struct capture cap;
	const struct capture_event *e;

	capture_run(&cap, "name: tz\nstart: 2026-03-06T00:00:00Z\nhorizon: 4d\nslo: {latency_s: 5}\n"
		    "timezone: America/New_York\n"
		    "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 1}\n"
		    "serving: {instance_type: g6.xlarge, slots_per_instance: 10}\n"
		    "fleet:\n  - {option: on_demand, count: 1, max: 8, usd_per_h: 1}\n"
		    "autoscaling:\n  policy: none\n  schedule:\n"
		    "    - {cron: \"0 9 * * 1-5\", min: 2}\n    - {cron: \"0 17 * * 1-5\", min: 1, max: 1}\n",
		    NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "scheduled"), 4);
	e = capture_find(&cap, "scheduled", 0);
	ck_assert_double_eq_tol(e->t_s, 14 * HOUR, 1e-9);           /* Fri 09:00 EST */
	e = capture_find(&cap, "scheduled", 1);
	ck_assert_double_eq_tol(e->t_s, 22 * HOUR, 1e-9);           /* Fri 17:00 EST */
	e = capture_find(&cap, "scheduled", 2);
	ck_assert_double_eq_tol(e->t_s, 3 * DAY + 13 * HOUR, 1e-9); /* Mon 09:00 EDT */
	e = capture_find(&cap, "scheduled", 3);
	ck_assert_double_eq_tol(e->t_s, 3 * DAY + 21 * HOUR, 1e-9); /* Mon 17:00 EDT */
}
END_TEST


/* ---- request traces ---- */

#define MAR8_NOON_US (INT64_C(1772971200) * SIM_US_PER_S)  /* 2026-03-08T12:00:00Z */

/* Read the whole CSV text under mapping m; returns the status, rows and the first rows' times. */
static int read_text(const char *text, const struct trace_mapping *m, int64_t *t_us, int n, int *rows,
		     struct diag *d)
{
	char *path = test_write_file("x.csv", text);
	struct tracefile *t;
	struct trace_record r;
	int rc;

	ck_assert_ptr_nonnull(path);
	*rows = 0;
	if ((rc = tracefile_open(&t, path, "x.csv", m, d)) == STATUS_OK) {
		while ((rc = tracefile_next(t, &r, d)) == STATUS_OK)
			if ((*rows)++ < n)
				t_us[*rows - 1] = r.t_us;
		tracefile_close(t);
	}
	test_remove_file(path);
	return rc == STATUS_DONE ? STATUS_OK : rc;
}

/* Times with offsets are the same instant in UTC: 14:00 at +02:00 is 12:00Z, 07:00 at -05:00 too. */
START_TEST(trace_times_with_offsets)
{
	struct trace_mapping m = { .time_column = "t", .time_format = TRACE_TIME_ISO };
	int64_t t[6];
	int rows;
	struct diag d = { "" };

	ck_assert_msg(read_text("t\n2026-03-08T14:00:00+02:00\n2026-03-08T12:00:00Z\n2026-03-08T07:00:00-05:00\n"
				"2026-03-08T17:30:00+0530\n2026-03-08 13:00:00.5+01\n2026-03-08T12:00:01-00:00\n",
				&m, t, 6, &rows, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(rows, 6);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(t[i], MAR8_NOON_US);
	ck_assert_int_eq(t[4], MAR8_NOON_US + SIM_US_PER_S / 2);
	ck_assert_int_eq(t[5], MAR8_NOON_US + SIM_US_PER_S);
}
END_TEST

START_TEST(trace_bad_offsets_are_refused)
{
	static const char *const bad[] = { "+25:00", "+18:01", "+02:60", "+2:00", "+02:00:00", "+02-00", "-1", "+" };
	struct trace_mapping m = { .time_column = "t", .time_format = TRACE_TIME_ISO };
	char text[96], want[160];
	int64_t t;
	int rows;
	struct diag d = { "" };

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(text, sizeof text, "t\n2026-03-08T14:00:00Z\n2026-03-08T15:00:00%s\n", bad[i]);
		snprintf(want, sizeof want, "x.csv:3: bad time offset '%s' in '2026-03-08T15:00:00%s' in column 't'; "
			 "expected +HH:MM or -HH:MM (also +HHMM, +HH) up to 18:00, or Z", bad[i], bad[i]);
		ck_assert_int_eq(read_text(text, &m, &t, 1, &rows, &d), STATUS_EINPUT);
		ck_assert_str_eq(d.msg, want);
	}
	/* an offset that takes a 1970 time before the epoch */
	ck_assert_int_eq(read_text("t\n1970-01-01T01:00:00+02:00\n", &m, &t, 1, &rows, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "x.csv:2: bad timestamp") == d.msg, "%s", d.msg);
}
END_TEST

/* `;` and tab as delimiters; a semicolon file read with the default ',' has one column named "t;n". */
START_TEST(trace_delimiters)
{
	struct trace_mapping m = { .time_column = "t", .time_format = TRACE_TIME_SECONDS,
				   .input_tokens_column = "n", .delimiter = ';' };
	int64_t t[3];
	int rows;
	struct diag d = { "" };

	ck_assert_msg(read_text("t;n\n0;5\n1.5;6\n\"2\";7\n", &m, t, 3, &rows, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(rows, 3);
	ck_assert_int_eq(t[1], 3 * SIM_US_PER_S / 2);
	m.delimiter = '\t';
	ck_assert_msg(read_text("t\tn\n0\t5\n1.5\t6\n", &m, t, 3, &rows, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(rows, 2);
	ck_assert_int_eq(t[1], 3 * SIM_US_PER_S / 2);
	m.delimiter = 0;
	ck_assert_int_eq(read_text("t;n\n0;5\n", &m, t, 1, &rows, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "x.csv:1: no column 't' in the header (t;n)") == d.msg, "%s", d.msg);
}
END_TEST

/* epoch_s values of 1e11 and more are refused with a hint; 99,999,999,999 s (the year 5138) still reads. */
START_TEST(trace_epoch_ms_hint)
{
	struct trace_mapping m = { .time_column = "t", .time_format = TRACE_TIME_EPOCH_S };
	int64_t t;
	int rows;
	struct diag d = { "" };

	ck_assert_int_eq(read_text("t\n1772971200250\n", &m, &t, 1, &rows, &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "x.csv:2: time '1772971200250' in column 't' is 1.77e+12 s after 1970, thousands of "
			 "years ahead; expected seconds since 1970-01-01 UTC (did you mean epoch_ms? the values look "
			 "like milliseconds)");
	ck_assert_int_eq(read_text("t\n99999999999\n", &m, &t, 1, &rows, &d), STATUS_OK);  /* 11 digits */
	ck_assert_int_eq(read_text("t\n100000000000.5\n", &m, &t, 1, &rows, &d), STATUS_EINPUT);  /* 12 */
	ck_assert_msg(strstr(d.msg, "(did you mean epoch_ms?") != NULL, "%s", d.msg);
	m.time_format = TRACE_TIME_EPOCH_MS;
	ck_assert_int_eq(read_text("t\n1772971200250\n", &m, &t, 1, &rows, &d), STATUS_OK);
	ck_assert_int_eq(t, MAR8_NOON_US + 250000);
}
END_TEST

/* The loader's `columns.delimiter`: one character, "\\t" spelled out, refused with jsonl. */
START_TEST(loader_reads_the_delimiter)
{
	char *path = test_write_file("d.csv", "t;n\n0;5\n1;6\n"), *tab;
	char yaml[1024], want[600];
	struct scenario sc;
	static const char *const bad[] = { "\"ab\"", "'\"'", "\"\"" };

#define TRACE_YAML "name: d\nhorizon: 1h\nslo: {latency_s: 5}\nworkload:\n  arrivals:\n    kind: trace\n" \
	"    path: %s\n    format: %s\n    columns: {time: t, time_format: seconds, delimiter: %s}\n" \
	"  service: {kind: constant, mean_s: 1}\nserving: {instance_type: g6.xlarge}\n" \
	"fleet:\n  - {option: on_demand, count: 1}\n"
	ck_assert_ptr_nonnull(path);
	snprintf(yaml, sizeof yaml, TRACE_YAML, path, "generic", "\";\"");
	parse_ok(&sc, yaml, NULL, 0);
	ck_assert_int_eq(sc.arrivals.mapping.delimiter, ';');
	ck_assert_int_eq(sc.arrivals.summary.rows, 2);
	scenario_fini(&sc);
	tab = test_write_file("tab.csv", "t\tn\n0\t5\n");
	ck_assert_ptr_nonnull(tab);
	snprintf(yaml, sizeof yaml, TRACE_YAML, tab, "generic", "'\\t'");  /* backslash t, spelled out */
	parse_ok(&sc, yaml, NULL, 0);
	ck_assert_int_eq(sc.arrivals.mapping.delimiter, '\t');
	ck_assert_int_eq(sc.arrivals.summary.rows, 1);
	scenario_fini(&sc);
	test_remove_file(tab);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct diag d;

		snprintf(yaml, sizeof yaml, TRACE_YAML, path, "generic", bad[i]);
		ck_assert_int_eq(scenario_parse_string(&sc, yaml, "t.yaml", NULL, 0, &d), STATUS_EINPUT);
		snprintf(want, sizeof want, "t.yaml:9:58: workload.arrivals.columns.delimiter: expected one character "
			 "other than a double quote or a line break");
		ck_assert_msg(strstr(d.msg, want) == d.msg, "%s", d.msg);
		scenario_fini(&sc);
	}
	snprintf(yaml, sizeof yaml, TRACE_YAML, path, "jsonl", "\";\"");
	parse_fails(yaml, NULL, 0, "t.yaml:9:58: workload.arrivals.columns.delimiter: delimiter applies only to CSV "
		    "traces (format generic or csv); expected no delimiter with format: jsonl");
#undef TRACE_YAML
	test_remove_file(path);
}
END_TEST

static Suite *localtime_suite(void)
{
	Suite *s = suite_create("localtime");
	TCase *tc = tcase_create("localtime");

	tcase_add_test(tc, diurnal_peak_follows_new_york_time);
	tcase_add_test(tc, diurnal_draws_in_the_open_local_hour_all_year);
	tcase_add_test(tc, weekly_factors_follow_local_days);
	tcase_add_test(tc, step_bounds_hold_across_the_changes);
	tcase_add_test(tc, fluid_integral_on_the_local_clock);
	tcase_add_test(tc, loader_reads_the_zone);
	tcase_add_test(tc, run_with_a_new_york_schedule);
	tcase_add_test(tc, trace_times_with_offsets);
	tcase_add_test(tc, trace_bad_offsets_are_refused);
	tcase_add_test(tc, trace_delimiters);
	tcase_add_test(tc, trace_epoch_ms_hint);
	tcase_add_test(tc, loader_reads_the_delimiter);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(localtime_suite());
}
