/*
 * check_report: the page of gpucap report (analysis/report.h, report_svg.h) without a browser: every text
 * is escaped (a scenario named <script>alert(1)</script>, warnings, labels, chart titles), and the page
 * references nothing outside itself (no http:// or https://, no src=, href= or url().
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_svg.h"
#include "testutil.h"

#define HOSTILE "<script>alert(1)</script>"
#define HOSTILE_ESC "&lt;script&gt;alert(1)&lt;/script&gt;"

/* No reference to anything outside the page, and no markup an attacker could have injected. */
static void assert_self_contained(const char *page)
{
	static const char *const banned[] = { "http://", "https://", "src=", "href=", "url(", "@import", "<script",
					      "<link", "<img", "<iframe" };

	for (size_t i = 0; i < sizeof banned / sizeof banned[0]; i++)
		ck_assert_msg(strstr(page, banned[i]) == NULL, "the page contains '%s'", banned[i]);
}

START_TEST(escape_every_special_character)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	report_html_escape(out, "<a href=\"x\">'&'</a>");
	report_html_escape(out, NULL);
	fclose(out);
	ck_assert_str_eq(buf, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
	free(buf);
}
END_TEST

/* A hand-made run of 3 hours whose every text is hostile: the page shows each escaped. */
START_TEST(page_escapes_database_strings)
{
	static double zero[3], demand[3] = { 1, 2, 1 }, inst[3] = { 2, 2, 2 }, frac[3] = { 1, 0.5, NAN };
	struct report_metric metrics[1] = { { "cost_total_usd", 12.5 } };
	struct report_event events[1] = { { 3600, 1, 3 } };
	struct report_warning warnings[1] = { { HOSTILE, "message " HOSTILE } };
	struct report_run run = { .run_id = 7, .name = HOSTILE, .scenario_text = "name: " HOSTILE "\n",
				  .overrides = "name=" HOSTILE, .instance_type = HOSTILE, .labels = "k=" HOSTILE "\n",
				  .seed = 1, .horizon_s = 10800, .slots = 4, .slo_latency_s = 20, .metrics = metrics,
				  .nmetrics = 1, .events = events, .nevents = 1, .warnings = warnings, .nwarnings = 1,
				  .nhours = 3, .demand = demand, .wait_s = frac, .coverage = frac, .commit_busy = frac };
	struct report r = { .runs = &run, .nruns = 1 };
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int seen = 0;

	snprintf(r.db, sizeof r.db, "%s.sqlite", HOSTILE);
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		run.inst[k] = k == OPTION_RESERVED ? inst : zero;
		run.cost[k] = k == OPTION_RESERVED ? inst : zero;
	}
	metrics[0].name = strdup("cost_total_usd");
	ck_assert_int_eq(report_write_html(&r, out), 0);
	fclose(out);
	free(metrics[0].name);
	assert_self_contained(buf);
	/* the name (title), the scenario text, overrides, labels, instance type, warning code and message, db */
	for (p = buf; (p = strstr(p, HOSTILE_ESC)) != NULL; p++)
		seen++;
	ck_assert_int_ge(seen, 8);
	ck_assert_ptr_nonnull(strstr(buf, "<svg id=\"chart-7-fleet\""));
	ck_assert_ptr_nonnull(strstr(buf, "<svg id=\"chart-7-commitment\""));
	free(buf);
}
END_TEST

/* The scatter plot's point labels (sweep and point names) are escaped. */
START_TEST(scatter_labels_escaped)
{
	const double x[2] = { 100, 200 }, y[2] = { 0.5, 0.1 };
	const char *const labels[2] = { HOSTILE, "b&c" };
	const bool hi[2] = { true, false };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	report_svg_scatter(out, "chart-x", HOSTILE, "x (USD)", "y (%)", x, y, labels, hi, 2, true, "front");
	fclose(out);
	assert_self_contained(buf);
	ck_assert_ptr_nonnull(strstr(buf, HOSTILE_ESC));
	ck_assert_ptr_nonnull(strstr(buf, "b&amp;c"));
	free(buf);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, escape_every_special_character);
	tcase_add_test(tc, page_escapes_database_strings);
	tcase_add_test(tc, scatter_labels_escaped);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(report_suite());
}
