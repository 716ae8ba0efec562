/*
 * check_traffic: whole runs that replay traces and transform traffic, and the token serving model, against
 * counts and times known independently or by hand.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

static struct capture cap;
static char yaml[4096];

static void run_yaml(const char *text, const char *const *sets, int nsets)
{
	capture_run(&cap, text, sets, nsets);
}

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/* Data rows of a CSV file, counted without gpucap's reader: lines after the first, the last one
 * counted even without a final newline. */
static long count_rows(const char *path)
{
	FILE *f = fopen(path, "r");
	long lines = 0;
	int c, last = '\n';

	ck_assert_msg(f != NULL, "cannot open %s", path);
	while ((c = fgetc(f)) != EOF) {
		if (c == '\n')
			lines++;
		last = c;
	}
	fclose(f);
	if (last != '\n')
		lines++;
	return lines - 1;
}

static const char *azure(const char *file, const char *extra)
{
	snprintf(yaml, sizeof yaml,
		 "name: azure\nhorizon: 2h\nslo: {latency_s: 30}\n"
		 "workload:\n  arrivals: {kind: trace, path: %s/traces/%s%s}\n"
		 "  service: {kind: tokens, prefill_tokens_per_s: 20000, decode_tokens_per_s: 40}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 64}\n"
		 "fleet:\n  - {option: reserved, count: 8, scope: zonal}\n",
		 SCENARIO_DIR, file, extra ? extra : "");
	return yaml;
}

START_TEST(azure_code_every_row_served)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/traces/AzureLLMInferenceTrace_code.csv", SCENARIO_DIR);
	run_yaml(azure("AzureLLMInferenceTrace_code.csv", NULL), NULL, 0);
	ck_assert_double_eq(M("requests_total"), (double)count_rows(path));
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
}
END_TEST

START_TEST(azure_conv_every_row_served)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/traces/AzureLLMInferenceTrace_conv.csv", SCENARIO_DIR);
	run_yaml(azure("AzureLLMInferenceTrace_conv.csv", NULL), NULL, 0);
	ck_assert_double_eq(M("requests_total"), (double)count_rows(path));
	ck_assert_double_eq(M("requests_served"), M("requests_total"));
	ck_assert(M("ttft_p99_s") > 0);
}
END_TEST

START_TEST(trace_transforms)
{
	char path[1024];
	long rows;
	snprintf(path, sizeof path, "%s/traces/AzureLLMInferenceTrace_code.csv", SCENARIO_DIR);
	rows = count_rows(path);
	/* the trace spans ~57 min: looped over 6 h it plays 6 passes (the 6th cut by the horizon) */
	run_yaml(azure("AzureLLMInferenceTrace_code.csv", ", loop: true"), (const char *[]){ "horizon=6h" }, 1);
	ck_assert(M("requests_total") > 5 * rows && M("requests_total") < 7 * rows);
	/* speedup 2 on the unlooped trace: every row still arrives, in half the time */
	run_yaml(azure("AzureLLMInferenceTrace_code.csv", ", speedup: 2"), (const char *[]){ "horizon=30m" }, 1);
	ck_assert_double_eq(M("requests_total"), (double)rows);
	/* scale_rate 2: twice the requests, within 4 sd of the copies' Bernoulli draws (exactly 2x here) */
	run_yaml(azure("AzureLLMInferenceTrace_code.csv", ", scale_rate: 2"), NULL, 0);
	ck_assert_double_eq(M("requests_total"), 2.0 * (double)rows);
	/* scale_rate 0.5 keeps each row with probability 1/2: binomial, 4 sd */
	run_yaml(azure("AzureLLMInferenceTrace_code.csv", ", scale_rate: 0.5"), NULL, 0);
	ck_assert_double_le(fabs(M("requests_total") - rows / 2.0), 4 * sqrt(rows * 0.25));
	/* offset 30 min: only the rows after the first 30 minutes */
	run_yaml(azure("AzureLLMInferenceTrace_code.csv", ", offset: 30m"), NULL, 0);
	ck_assert(M("requests_total") > 0.3 * rows && M("requests_total") < 0.7 * rows);
}
END_TEST

START_TEST(growth_per_day)
{
	/* 1 request/s growing 100% a day for 2 days: integral of (1 + 1)^(t / 1 d) = 86400 x 3 / ln 2
	 * = 373,934 requests. The copies are Bernoulli draws around that: sd < sqrt(373934 / 4) ~ 306; the
	 * test allows 1% (3,739), and a growth read as per hour or as linear would be far outside. */
	run_yaml("name: growth\nhorizon: 2d\nslo: {latency_s: 30}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 1, growth_per_day: 1.0}\n"
		 "  service: {kind: constant, mean_s: 0.1}\n"
		 "serving: {instance_type: g6.xlarge, slots_per_instance: 8}\nfleet:\n  - {option: reserved, count: 2, scope: zonal}\n",
		 NULL, 0);
	ck_assert_double_eq_tol(M("requests_total"), 86400 * 3 / log(2.0), 86400 * 3 / log(2.0) * 0.01);
}
END_TEST

/* One request at a time on a big instance: the token model by hand. */
static const char *tokens(const char *decode)
{
	snprintf(yaml, sizeof yaml,
		 "name: tokens\nhorizon: 1h\nslo: {latency_s: 30, ttft_s: 0.5}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n"
		 "  sizes: {input_tokens: {kind: constant, mean: 1000}, output_tokens: {kind: constant, mean: 100}}\n"
		 "  service: {kind: tokens, prefill_tokens_per_s: 10000, %s, overhead_s: 0.05}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 8}\n"
		 "fleet:\n  - {option: reserved, count: 1, scope: zonal}\n", decode);
	return yaml;
}

START_TEST(token_model_by_hand)
{
	/* ttft = 0.05 + 1000 / 10000 = 0.15 s, when the prefill gives the first of the 100 output tokens; the other
	 * 99 decode at 50 tokens/s: latency = 0.15 + 99 / 50 = 2.13 s; alone on the instance */
	run_yaml(tokens("decode_tokens_per_s: 50"), NULL, 0);
	ck_assert_double_eq_tol(M("ttft_p50_s"), 0.15, 0.15 * 0.01);
	ck_assert_double_eq_tol(M("ttft_mean_s"), 0.15, 1e-9);
	ck_assert_double_eq_tol(M("latency_mean_s"), 2.13, 1e-9);
	ck_assert_double_eq(M("ttft_slo_violations"), 0);
	/* a tighter TTFT SLO: every request misses it */
	run_yaml(tokens("decode_tokens_per_s: 50"), (const char *[]){ "slo.ttft_s=0.1" }, 1);
	ck_assert_double_eq(M("ttft_slo_violations"), M("requests_total"));
}
END_TEST

START_TEST(decode_speed_depends_on_concurrency)
{
	/* Requests every 1 s. Table {1: 60, 5: 20}: at concurrency 3 the speed is 60 - (2/4) x 40 = 40 tok/s,
	 * so a request takes 0.15 + 100 / 40 = 2.65 s: at each start the two previous requests (started 1
	 * and 2 s before) are still running, so concurrency 3 is self-consistent. Only the first two
	 * requests start at lower concurrency: the median latency is 2.65 s. */
	const char *sets[] = { "workload.arrivals.rate_per_s=1" };
	run_yaml(tokens("decode_table: [{concurrency: 1, tokens_per_s: 60}, {concurrency: 5, tokens_per_s: 20}]"),
		 sets, 1);
	ck_assert_double_eq_tol(M("latency_p50_s"), 0.15 + 2.5, (0.15 + 2.5) * 0.01);
}
END_TEST

static Suite *traffic_suite(void)
{
	Suite *s = suite_create("traffic");
	TCase *tc = tcase_create("replay");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, azure_code_every_row_served);
	tcase_add_test(tc, azure_conv_every_row_served);
	tcase_add_test(tc, trace_transforms);
	tcase_add_test(tc, growth_per_day);
	tcase_add_test(tc, token_model_by_hand);
	tcase_add_test(tc, decode_speed_depends_on_concurrency);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(traffic_suite());
}
