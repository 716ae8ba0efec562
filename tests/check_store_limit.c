/*
 * check_store_limit: what a run adds to a results database (analysis/store_limit.h): the rows and bytes
 * estimated from a scenario, the refusal of a run over STORE_RUN_BYTES_MAX without --force, and the store
 * sink stopping a run whose staged rows pass its limit (store_set_size_limit, store.h).
 *
 * Every expected number is worked out by hand in the test's comment from the bytes per row of
 * store_limit.h (samples 64, hours 64, charges 80, events 64).
 */
#include <check.h>
#include <string.h>

#include "status.h"
#include "store.h"
#include "store_fixtures.h"
#include "store_limit.h"
#include "testutil.h"

#define S_US INT64_C(1000000)
#define DAY_US (86400 * S_US)

/* A 400-day horizon sampled every second, on_demand and spot: the "several GB" run. */
static void scenario_big(struct scenario *sc)
{
	scenario_fake(sc, "big", 1);
	sc->horizon_us = 400 * DAY_US;
	sc->sample_period_us = 1 * S_US;
	sc->nfleet = 2;
	sc->fleet[0].option = OPTION_ON_DEMAND;
	sc->fleet[1].option = OPTION_SPOT;
}

/*
 * 400 d = 34,560,000 s: samples 34,560,000 / 1 s = 34,560,000 rows; hours ceil(9600) + 1 = 9601; options 2
 * (on_demand, spot); charges 9601 x 2 x 2 + 2 = 38,406. Bytes 34,560,000 x 64 + 9601 x 64 + 38,406 x 80 =
 * 2,211,840,000 + 614,464 + 3,072,480 = 2,215,526,944 (2.06 GiB).
 */
START_TEST(estimate_counts_rows_and_bytes)
{
	struct scenario sc;
	struct store_estimate e;

	scenario_big(&sc);
	store_estimate_run(&sc, &e);
	ck_assert_int_eq(e.samples, 34560000);
	ck_assert_int_eq(e.hours, 9601);
	ck_assert_int_eq(e.options, 2);
	ck_assert_int_eq(e.charges, 38406);
	ck_assert_double_eq_tol(e.bytes, 2215526944.0, 0.5);
}
END_TEST

/*
 * A horizon off the hour and jobs: 90 min sampled every 60 s gives 5400 / 60 = 90 samples; hours
 * ceil(1.5) + 1 = 3; options: reserved, and on_demand and spot for the jobs = 3; charges (3 x 2 x 3 + 3) x 2
 * users (serving and the jobs each have their bill lines, schema version 12) = 42.
 * Bytes 90 x 64 + 3 x 64 + 42 x 80 = 5760 + 192 + 3360 = 9312.
 */
START_TEST(estimate_counts_jobs_options)
{
	struct scenario sc;
	struct store_estimate e;

	scenario_fake(&sc, "jobs", 1);
	sc.horizon_us = 90 * 60 * S_US;
	sc.sample_period_us = 60 * S_US;
	sc.nfleet = 1;
	sc.fleet[0].option = OPTION_RESERVED;
	sc.jobs.n = 1;
	store_estimate_run(&sc, &e);
	ck_assert_int_eq(e.samples, 90);
	ck_assert_int_eq(e.hours, 3);
	ck_assert_int_eq(e.options, 3);
	ck_assert_int_eq(e.charges, 42);
	ck_assert_double_eq_tol(e.bytes, 9312.0, 0.5);
}
END_TEST

/*
 * 2,215,526,944 bytes > 1 GiB = 1,073,741,824: refused with the estimate in the message, allowed with
 * force. Every 30 s instead: 1,152,000 x 64 + 614,464 + 3,072,480 = 77,414,944 bytes, allowed.
 */
START_TEST(run_over_the_limit_is_refused_unless_forced)
{
	struct scenario sc;
	struct diag d = { "" };

	scenario_big(&sc);
	ck_assert_int_eq(store_check_run_size(&sc, false, &d), STATUS_EUSAGE);
	ck_assert_msg(strstr(d.msg, "about 2.06 GiB") && strstr(d.msg, "34560000 samples") &&
		      strstr(d.msg, "--force"), "message: %s", d.msg);
	ck_assert_int_eq(store_check_run_size(&sc, true, &d), STATUS_OK);
	sc.sample_period_us = 30 * S_US;
	ck_assert_int_eq(store_check_run_size(&sc, false, &d), STATUS_OK);
}
END_TEST

/*
 * The sink counts what it stages. Limit 200 bytes: 3 samples are 192 bytes (allowed), one event more makes
 * 256 > 200: refused, and the run leaves nothing in the file. Without a limit (0) the same run is stored.
 */
START_TEST(sink_stops_a_run_past_its_limit)
{
	struct diag d = { "" };
	struct scenario sc;
	struct store *st = NULL;
	char *path = tmp_path("results.sqlite");
	struct sink_run_info info = run_info;
	struct sink_sample s[3];
	const struct sink_event ev = { 61.0, "launch", NULL, 1, NULL };
	struct sink sk;

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	store_set_size_limit(st, 200);
	scenario_fake(&sc, "limited", 1);
	info.scenario = &sc;
	sk = store_sink(st, &d);
	for (int i = 0; i < 3; i++)
		sample_fill(&s[i], 60.0 * (i + 1));
	ck_assert_int_eq(sk.ops->begin(sk.self, &info), STATUS_OK);
	ck_assert_int_eq(sk.ops->samples(sk.self, s, 3), STATUS_OK);
	ck_assert_int_eq(sk.ops->events(sk.self, &ev, 1), STATUS_EUSAGE);
	ck_assert_msg(strstr(d.msg, "more than") && strstr(d.msg, "events") && strstr(d.msg, "--force"),
		      "message: %s", d.msg);
	sk.ops->end(sk.self, STATUS_EUSAGE, 0.1);
	ck_assert_int_eq(store_last_run_id(st), 0);
	store_set_size_limit(st, 0);
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 3, 0.5, STATUS_OK), STATUS_OK);
	ck_assert_int_eq(store_last_run_id(st), 1);
	store_close(st);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs"), 1);
	tmp_remove(path);
}
END_TEST

static Suite *store_limit_suite(void)
{
	Suite *s = suite_create("store_limit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, estimate_counts_rows_and_bytes);
	tcase_add_test(tc, estimate_counts_jobs_options);
	tcase_add_test(tc, run_over_the_limit_is_refused_unless_forced);
	tcase_add_test(tc, sink_stops_a_run_past_its_limit);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(store_limit_suite());
}
