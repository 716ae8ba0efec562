/*
 * check_cwmetrics: CloudWatch metrics JSON (models/formats/cwmetrics.h) and the arrivals kind that replays
 * it (models/traffic/arrivals_cloudwatch.c).
 *
 * tests/data/cloudwatch/get-metric-data.json (written for these tests, as the CLI prints it) has two
 * results, newest first: m1 "Invocations", Complete, Sum per minute from 10:00 to 10:09 UTC with 10:04
 * missing: 12, 30, 7, 18, -, 25, 9, 40, 3, 16 (9 points, 10 periods, total 160, peak 40); m2 "Invocations
 * variant-b", PartialData, 5, 6, 7 at 10:00 to 10:02. get-metric-statistics.json lists, in no order, Sum
 * 10, 20, 5, -, 8, 2 at 10:00 to 10:05 (10:03 missing; total 45) with SampleCount 1 each. Every file in
 * tests/data/cloudwatch/bad/ is listed in bad[] with the message it must give.
 *
 * The Poisson test replays m1 200 times (rewinding the source; seed printed, GPUCAP_TEST_SEED replays).
 * Minute k's count in one pass is Poisson(v_k), so over 200 passes its total is Poisson(200 v_k): each of
 * the 9 minutes with a point must be within 4.5 SD of 200 v_k (a family of 9: a false alarm about 6e-5),
 * and the dispersion sum over passes and minutes of (c - v)^2 / v, chi-square-like with 1800 degrees of
 * freedom (mean 1800, SD 60), must be within 5 SD of 1800 (Poisson counts, not evenly spread ones, whose
 * sum would be about 0). The gap minute has no arrival in any pass.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arrivals.h"
#include "cwmetrics.h"
#include "engine.h"
#include "rng.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data (the CMake build defines it)"
#endif

#define CW TEST_DATA_DIR "/cloudwatch/"
#define US INT64_C(1000000)
#define T_1000 INT64_C(1793613600)  /* 2026-11-02T10:00:00Z, unix seconds */

static const double m1[10] = { 12, 30, 7, 18, NAN, 25, 9, 40, 3, 16 };

static struct cwmetrics load_ok(const char *path, const struct cwmetrics_query *q)
{
	struct cwmetrics m;
	struct diag d = { "" };
	int rc = cwmetrics_load(&m, path, NULL, q, &d);

	ck_assert_msg(rc == STATUS_OK, "%s: rc %d: %s", path, rc, d.msg);
	return m;
}

static struct cwmetrics_query query(const char *id, const char *label)
{
	struct cwmetrics_query q = { .index = -1 };

	snprintf(q.id, sizeof q.id, "%s", id);
	snprintf(q.label, sizeof q.label, "%s", label);
	return q;
}

START_TEST(data_result_by_id)
{
	struct cwmetrics_query q = query("m1", "");
	struct cwmetrics m = load_ok(CW "get-metric-data.json", &q);

	ck_assert_int_eq(m.shape, CWMETRICS_DATA);
	ck_assert_int_eq(m.nresults, 2);
	ck_assert_int_eq(m.index, 0);
	ck_assert_str_eq(m.label, "Invocations");
	ck_assert_str_eq(m.status, "Complete");
	ck_assert_int_eq(m.period_us, 60 * US);       /* the smallest gap */
	ck_assert_int_eq(m.first_unix_us, T_1000 * US);
	ck_assert_int_eq(m.nperiods, 10);             /* 10:00 to 10:09 */
	ck_assert_int_eq(m.npoints, 9);               /* 10:04 missing */
	for (int i = 0; i < 10; i++)
		ck_assert_msg(isnan(m1[i]) ? isnan(m.value[i]) : m.value[i] == m1[i], "period %d: %g", i, m.value[i]);
	ck_assert(!m.more_pages);
	cwmetrics_fini(&m);
}
END_TEST

START_TEST(data_result_by_label_and_index)
{
	struct cwmetrics_query q = query("", "Invocations variant-b");
	struct cwmetrics m = load_ok(CW "get-metric-data.json", &q);

	ck_assert_int_eq(m.index, 1);
	ck_assert_str_eq(m.id, "m2");
	ck_assert_str_eq(m.status, "PartialData");
	ck_assert_int_eq(m.nperiods, 3);
	ck_assert(m.value[0] == 5 && m.value[1] == 6 && m.value[2] == 7);  /* sorted: newest was first */
	cwmetrics_fini(&m);
	q = query("", "");
	q.index = 1;
	m = load_ok(CW "get-metric-data.json", &q);
	ck_assert_str_eq(m.id, "m2");
	cwmetrics_fini(&m);
}
END_TEST

START_TEST(statistics_sum_and_sample_count)
{
	struct cwmetrics_query q = query("", "Invocations");
	struct cwmetrics m = load_ok(CW "get-metric-statistics.json", &q);
	static const double sum[6] = { 10, 20, 5, NAN, 8, 2 };

	ck_assert_int_eq(m.shape, CWMETRICS_STATISTICS);
	ck_assert_int_eq(m.nresults, 1);
	ck_assert_str_eq(m.status, "");
	ck_assert_int_eq(m.nperiods, 6);
	ck_assert_int_eq(m.npoints, 5);
	for (int i = 0; i < 6; i++)
		ck_assert(isnan(sum[i]) ? isnan(m.value[i]) : m.value[i] == sum[i]);
	cwmetrics_fini(&m);
	q.stat = CWMETRICS_SAMPLE_COUNT;
	m = load_ok(CW "get-metric-statistics.json", &q);
	ck_assert(m.value[0] == 1 && m.value[5] == 1 && isnan(m.value[3]));
	cwmetrics_fini(&m);
}
END_TEST

START_TEST(stated_period_and_offsets)
{
	struct cwmetrics_query q = query("m1", "");
	struct cwmetrics m;
	char *path;

	q.period_us = 30 * US;  /* every minute is on a 30 s grid: 19 periods, 9 points */
	m = load_ok(CW "get-metric-data.json", &q);
	ck_assert_int_eq(m.nperiods, 19);
	ck_assert_int_eq(m.npoints, 9);
	ck_assert(m.value[2] == 30 && isnan(m.value[1]));
	cwmetrics_fini(&m);
	/* 05:00-05:00, 11:01+01:00 and 10:02Z are 10:00, 10:01 and 10:02 UTC; a fraction is kept */
	path = test_write_file("offsets.json", "{\"MetricDataResults\": [{\"Id\": \"a\", \"Timestamps\": "
			       "[\"2026-11-02T05:00:00-05:00\", \"2026-11-02T11:01:00+01:00\", \"2026-11-02T10:02:00Z\"], "
			       "\"Values\": [1, 2, 3e0]}], \"NextToken\": \"abc\"}");
	q = query("", "");
	m = load_ok(path, &q);
	ck_assert_int_eq(m.first_unix_us, T_1000 * US);
	ck_assert_int_eq(m.nperiods, 3);
	ck_assert(m.value[0] == 1 && m.value[1] == 2 && m.value[2] == 3);
	ck_assert(m.more_pages);
	ck_assert_str_eq(m.label, "");
	cwmetrics_fini(&m);
	test_remove_file(path);
}
END_TEST

/* Points 10 at period 0 and 40 at period 3: gaps 1 and 2 become 0, 0 / 10, 10 / 20, 30. */
START_TEST(gaps_filled_three_ways)
{
	static const double want[3][2] = { { 0, 0 }, { 10, 10 }, { 20, 30 } };
	char *path = test_write_file("gaps.json", "{\"Label\": \"x\", \"Datapoints\": [{\"Timestamp\": "
				     "\"2026-11-02T10:03:00Z\", \"Sum\": 40}, {\"Timestamp\": \"2026-11-02T10:00:00Z\", "
				     "\"Sum\": 10}]}");
	struct cwmetrics_query q = query("", "");

	q.period_us = 60 * US;
	for (int how = 0; how < 3; how++) {
		struct cwmetrics m = load_ok(path, &q);

		cwmetrics_fill(&m, (enum cwmetrics_gaps)how);
		ck_assert_int_eq(m.nperiods, 4);
		ck_assert(m.value[0] == 10 && m.value[3] == 40);
		ck_assert_msg(m.value[1] == want[how][0] && m.value[2] == want[how][1], "gaps %d: %g %g", how,
			      m.value[1], m.value[2]);
		cwmetrics_fini(&m);
	}
	test_remove_file(path);
}
END_TEST

START_TEST(unknown_choice_lists_the_results)
{
	struct cwmetrics m;
	struct diag d = { "" };
	struct cwmetrics_query q = query("m9", "");

	ck_assert_int_eq(cwmetrics_load(&m, CW "get-metric-data.json", "f.json", &q, &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "f.json:4:14: MetricDataResults: no result with id 'm9'; expected one of: id 'm1' "
			 "(label 'Invocations'), id 'm2' (label 'Invocations variant-b')");
	q = query("m1", "Invocations variant-b");  /* both must match */
	ck_assert_int_eq(cwmetrics_load(&m, CW "get-metric-data.json", "f.json", &q, &d), STATUS_EINPUT);
	ck_assert_ptr_nonnull(strstr(d.msg, "no result with id 'm1' and label 'Invocations variant-b'"));
	q = query("", "ModelLatency");
	ck_assert_int_eq(cwmetrics_load(&m, CW "get-metric-statistics.json", "s.json", &q, &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "s.json:2:6: Label 'Invocations'; expected 'ModelLatency' (the label asked for)");
	q = query("m1", "");
	ck_assert_int_eq(cwmetrics_load(&m, CW "get-metric-statistics.json", "s.json", &q, &d), STATUS_EINPUT);
	ck_assert_ptr_nonnull(strstr(d.msg, "no Ids; expected no id, or label"));
	ck_assert_ptr_null(m.value);
}
END_TEST

START_TEST(missing_file_is_enoent)
{
	struct cwmetrics m;
	struct diag d = { "" };
	struct cwmetrics_query q = query("", "");

	ck_assert_int_eq(cwmetrics_load(&m, CW "no-such.json", NULL, &q, &d), STATUS_ENOENT);
	ck_assert_ptr_nonnull(strstr(d.msg, "cannot open"));
	ck_assert_int_eq(m.nperiods, 0);
	cwmetrics_fini(NULL);
	cwmetrics_fini(&m);
}
END_TEST

START_TEST(sniff_tells_cloudwatch_from_others)
{
	ck_assert(cwmetrics_sniff(CW "get-metric-data.json"));
	ck_assert(cwmetrics_sniff(CW "get-metric-statistics.json"));
	ck_assert(!cwmetrics_sniff(TEST_DATA_DIR "/spot/avail.json"));
	ck_assert(!cwmetrics_sniff(CW "no-such.json"));
}
END_TEST

/* ---- the bad files -------------------------------------------------------------------------------- */

static const struct {
	const char *file;  /* under tests/data/cloudwatch/bad/ */
	const char *msg;   /* the whole message, after the file name */
} bad[] = {
	{ "cw-bad-timestamp.json", ":6:58: MetricDataResults[0].Timestamps[1]: bad timestamp, got the string "
	  "'2026-11-02 10:00:00'; expected an ISO-8601 time such as 2026-11-02T10:05:00+00:00 (Z or an offset "
	  "+HH:MM/-HH:MM)" },
	{ "cw-datapoint-not-mapping.json", ":4:9: Datapoints[0]: expected a datapoint (a mapping with Timestamp and "
	  "Sum), got 3.0" },
	{ "cw-duplicate-timestamp.json", ":6:87: MetricDataResults[0].Timestamps[2]: the same time as "
	  "MetricDataResults[0].Timestamps[0]; expected one point per period" },
	{ "cw-empty.json", ":1: the file is empty; expected the JSON of `aws cloudwatch get-metric-data` or "
	  "`get-metric-statistics`" },
	{ "cw-id-not-string.json", ":4:19: MetricDataResults[0].Id: expected a string of at most 255 bytes, got 1" },
	{ "cw-negative-value.json", ":7:29: MetricDataResults[0].Values[1]: -1 is negative; expected a count >= 0 "
	  "and <= 1e+12" },
	{ "cw-neither-shape.json", ":2:6: neither MetricDataResults nor Datapoints at the top level; expected the "
	  "JSON of `aws cloudwatch get-metric-data` or `get-metric-statistics`" },
	{ "cw-no-datapoints.json", ":4:14: MetricDataResults[0].Timestamps: no datapoints (StatusCode Forbidden); "
	  "expected at least one" },
	{ "cw-off-grid.json", ":6:29: MetricDataResults[0].Timestamps[0]: 150 s after the first point "
	  "(2026-11-02T10:00:00Z), off the 60 s period grid; expected whole periods from the first point" },
	{ "cw-results-empty.json", ":2:6: MetricDataResults: an empty list; expected at least one result (did the "
	  "query match no metric?)" },
	{ "cw-several-results.json", ":4:14: MetricDataResults: 2 results; expected one, or id or label to choose "
	  "among: id 'm1' (label 'Invocations'), id 'm2' (label 'ModelLatency')" },
	{ "cw-single-point.json", ":6:29: MetricDataResults[0].Timestamps: a single datapoint gives no period; "
	  "expected the period to be stated (period_s)" },
	{ "cw-statistic-missing.json", ":10:14: Datapoints[1]: no key 'Sum'; expected Timestamp and the statistic "
	  "asked for, Sum (the CLI prints only the --statistics requested)" },
	{ "cw-timestamps-missing.json", ":4:14: MetricDataResults[0]: no key 'Timestamps'; expected a list of "
	  "timestamps" },
	{ "cw-too-many-periods.json", ":6:29: MetricDataResults[0].Timestamps: 315532802 periods of 1 s from the "
	  "first point to the last; expected at most 5000000" },
	{ "cw-truncated.json", ":5:1: invalid JSON: " },
	{ "cw-value-null.json", ":7:29: MetricDataResults[0].Values[1]: null is not a number; expected a JSON "
	  "number >= 0" },
	{ "cw-value-string.json", ":7:30: MetricDataResults[0].Values[1]: the string '4' is not a number; expected "
	  "a JSON number >= 0" },
	{ "cw-values-length.json", ":7:24: MetricDataResults[0].Values: 1 values for 2 timestamps; expected one "
	  "value per timestamp" },
};

#define NBAD ((int)(sizeof bad / sizeof bad[0]))

static const char *bad_name(int i)
{
	return bad[i].file;
}

START_TEST(bad_file_fails_with_its_message)
{
	char path[512], want[1024];
	struct cwmetrics m;
	struct diag d = { "" };
	struct cwmetrics_query q = query("", "");

	snprintf(path, sizeof path, CW "bad/%s", bad[_i].file);
	snprintf(want, sizeof want, "%s%s", bad[_i].file, bad[_i].msg);
	ck_assert_int_eq(cwmetrics_load(&m, path, bad[_i].file, &q, &d), STATUS_EINPUT);
	ck_assert_msg(strncmp(d.msg, want, strlen(want)) == 0, "%s: got \"%s\"", bad[_i].file, d.msg);
	ck_assert_int_eq(m.nperiods, 0);
	ck_assert_ptr_null(m.value);
}
END_TEST

START_TEST(every_bad_file_is_listed)
{
	test_assert_files_listed(CW "bad", "cw-", bad_name, NBAD);
}
END_TEST

/* ---- the arrivals ----------------------------------------------------------------------------------- */

/* The scenario tests/data/good/cloudwatch.yaml (m1, within: even) with `sets`. */
static void load_scenario(struct scenario *sc, const char *const *sets, int nsets)
{
	struct diag d = { "" };
	int rc = scenario_load(sc, TEST_DATA_DIR "/good/cloudwatch.yaml", sets, nsets, &d);

	ck_assert_msg(rc == STATUS_OK, "%s", d.msg);
}

/* Arrivals per minute of one pass of src into count[10]; checks time order. */
static void count_pass(struct arrival_source *src, long count[10])
{
	struct arrival a;
	int64_t last = 0;
	int rc;

	memset(count, 0, 10 * sizeof *count);
	while ((rc = src->ops->next(src, &a, NULL)) == STATUS_OK) {
		if (a.t_us < last || a.t_us < 0 || a.t_us >= 600 * US)
			ck_abort_msg("arrival at %lld us after %lld", (long long)a.t_us, (long long)last);
		last = a.t_us;
		count[a.t_us / (60 * US)]++;
	}
	ck_assert_int_eq(rc, STATUS_DONE);
}

START_TEST(even_gives_each_minute_its_sum)
{
	struct scenario sc;
	struct arrival_source *src;
	gsl_rng *rng;
	long c[10];
	struct diag d = { "" };
	/* scale_rate 0.5 halves the sums: 6, 15, 3.5, 9, 0, 12.5, 4.5, 20, 1.5, 8. A half left over is carried
	 * into the next minute: 3.5 -> 3 (carry 0.5), 9.5 -> 9 (0.5), 0.5 -> 0 (0.5), 13 -> 13, 4.5 -> 4 (0.5),
	 * 20.5 -> 20 (0.5), 2 -> 2, 8: in all 80, half of 160. */
	static const long half[10] = { 6, 15, 3, 9, 0, 13, 4, 20, 2, 8 };
	const char *sets[] = { "workload.arrivals.scale_rate=0.5" };

	load_scenario(&sc, NULL, 0);
	rng = rng_new(1, "arrivals");
	ck_assert_int_eq(arrivals_cloudwatch_new(&src, &sc, rng, &d), STATUS_OK);
	count_pass(src, c);
	for (int i = 0; i < 10; i++)
		ck_assert_msg(c[i] == (isnan(m1[i]) ? 0 : (long)m1[i]), "minute %d: %ld", i, c[i]);
	ck_assert_int_eq(src->ops->rewind(src, NULL), STATUS_OK);  /* a second pass is the same */
	count_pass(src, c);
	ck_assert_int_eq(c[7], 40);
	arrivals_free(src);
	scenario_fini(&sc);
	load_scenario(&sc, sets, 1);
	ck_assert_int_eq(arrivals_cloudwatch_new(&src, &sc, rng, &d), STATUS_OK);
	count_pass(src, c);
	for (int i = 0; i < 10; i++)
		ck_assert_msg(c[i] == half[i], "minute %d: %ld, expected %ld", i, c[i], half[i]);
	arrivals_free(src);
	scenario_fini(&sc);
	gsl_rng_free(rng);
}
END_TEST

START_TEST(poisson_counts_have_the_sums_as_means)
{
	const char *sets[] = { "workload.arrivals.within=poisson" };
	uint64_t seed = test_seed("poisson_counts_have_the_sums_as_means", 36);
	struct scenario sc;
	struct arrival_source *src;
	struct diag d = { "" };
	gsl_rng *rng = rng_new(seed, "arrivals");
	long c[10], total[10] = { 0 };
	double disp = 0;
	const int passes = 200, df = passes * 9;

	load_scenario(&sc, sets, 1);
	ck_assert(!sc.arrivals.cw_even);
	ck_assert_int_eq(arrivals_cloudwatch_new(&src, &sc, rng, &d), STATUS_OK);
	for (int p = 0; p < passes; p++) {
		if (p)
			ck_assert_int_eq(src->ops->rewind(src, NULL), STATUS_OK);
		count_pass(src, c);
		for (int i = 0; i < 10; i++) {
			total[i] += c[i];
			if (!isnan(m1[i]))
				disp += (c[i] - m1[i]) * (c[i] - m1[i]) / m1[i];
		}
	}
	ck_assert_int_eq(total[4], 0);  /* the gap */
	for (int i = 0; i < 10; i++) {
		double mean = isnan(m1[i]) ? 0 : passes * m1[i], z = mean > 0 ? (total[i] - mean) / sqrt(mean) : 0;

		ck_assert_msg(fabs(z) < 4.5, "seed %llu: minute %d: %ld arrivals in %d passes, expected %g (z %.2f)",
			      (unsigned long long)seed, i, total[i], passes, mean, z);
	}
	ck_assert_msg(fabs(disp - df) < 5 * sqrt(2.0 * df), "seed %llu: dispersion %g, expected %d +- %g",
		      (unsigned long long)seed, disp, df, 5 * sqrt(2.0 * df));
	arrivals_free(src);
	scenario_fini(&sc);
	gsl_rng_free(rng);
}
END_TEST

static Suite *make(void)
{
	Suite *s = suite_create("cwmetrics");
	TCase *tc = tcase_create("core");

	test_add(tc, data_result_by_id);
	test_add(tc, data_result_by_label_and_index);
	test_add(tc, statistics_sum_and_sample_count);
	test_add(tc, stated_period_and_offsets);
	test_add(tc, gaps_filled_three_ways);
	test_add(tc, unknown_choice_lists_the_results);
	test_add(tc, missing_file_is_enoent);
	test_add(tc, sniff_tells_cloudwatch_from_others);
	tcase_add_loop_test(tc, bad_file_fails_with_its_message, 0, NBAD);
	test_add(tc, every_bad_file_is_listed);
	test_add(tc, even_gives_each_minute_its_sum);
	test_add(tc, poisson_counts_have_the_sums_as_means);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(make());
}
