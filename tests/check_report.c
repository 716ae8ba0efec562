/*
 * check_report: the page of gpucap report (analysis/report.h, report_svg.h) without a browser: every text
 * is escaped (a scenario named <script>alert(1)</script>, warnings, labels, chart titles), and the page
 * references nothing outside itself (no http:// or https://, no src=, href= or url().
 */
#include <check.h>
#include <math.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_svg.h"
#include "status.h"
#include "store.h"
#include "store_fixtures.h"
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

/*
 * The page's text, as a reader sees it (tags, and the <pre>, <code> and <style> elements, which quote files
 * and code, left out), has no number in scientific notation ("2.1203e+07"): numfmt.h prints every figure.
 */
static void assert_no_exponent(const char *page)
{
	static const char *const skip[][2] = { { "<pre", "</pre>" }, { "<code", "</code>" }, { "<style", "</style>" } };
	char *text = malloc(strlen(page) + 1);
	size_t n = 0;
	regex_t sci;
	regmatch_t m;

	ck_assert_ptr_nonnull(text);
	for (const char *p = page; *p;) {
		bool skipped = false;
		for (size_t i = 0; i < sizeof skip / sizeof skip[0] && !skipped; i++)
			if (strncmp(p, skip[i][0], strlen(skip[i][0])) == 0) {
				const char *end = strstr(p, skip[i][1]);
				p = end ? end + strlen(skip[i][1]) : p + strlen(p);
				skipped = true;
			}
		if (skipped)
			continue;
		if (*p == '<') {
			const char *end = strchr(p, '>');
			p = end ? end + 1 : p + strlen(p);
			text[n++] = ' ';
			continue;
		}
		text[n++] = *p++;
	}
	text[n] = '\0';
	ck_assert_int_eq(regcomp(&sci, "[0-9][eE][-+]?[0-9]+", REG_EXTENDED), 0);
	ck_assert_msg(regexec(&sci, text, 1, &m, 0) != 0, "scientific notation in the page's text: '%.40s'",
		      text + (m.rm_so > 20 ? m.rm_so - 20 : 0));
	regfree(&sci);
	free(text);
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

	report_svg_scatter(out, "chart-x", HOSTILE, "x (USD)", "y (%)", x, y, labels, hi, NULL, 2, true, "front");
	fclose(out);
	assert_self_contained(buf);
	ck_assert_ptr_nonnull(strstr(buf, HOSTILE_ESC));
	ck_assert_ptr_nonnull(strstr(buf, "b&amp;c"));
	free(buf);
}
END_TEST

/*
 * A scatter chart's labels lose nothing: 12 points on one spot with long labels cannot all be labelled whole
 * there, so some are drawn as their number (#N, class "label number") and the note under the chart names them;
 * every label is either drawn whole, or numbered and named in the note, or named in the note as unlabelled.
 */
START_TEST(scatter_labels_never_lost)
{
	double x[12], y[12];
	char names[12][48];
	const char *labels[12];
	bool hi[12] = { false };
	char *buf = NULL, *note;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int whole = 0, numbered = 0;

	for (int i = 0; i < 12; i++) {
		x[i] = 100, y[i] = 0.5;
		snprintf(names[i], sizeof names[i], "a-point-with-a-long-name-number-%d", i + 1);
		labels[i] = names[i];
	}
	hi[3] = true;
	report_svg_scatter(out, "chart-x", "t", "x (USD)", "y (%)", x, y, labels, hi, NULL, 12, false, "front");
	fclose(out);
	note = strstr(buf, "<p class=\"note\">In the chart above: ");
	ck_assert_ptr_nonnull(note);
	for (int i = 0; i < 12; i++) {
		char drawn[160], named[160], bare[160];  /* room for a label whole (under 48) */
		snprintf(drawn, sizeof drawn, ">%s</text>", labels[i]);
		snprintf(named, sizeof named, "<b>#%d</b> is %s (100, 0.5)", i + 1, labels[i]);
		snprintf(bare, sizeof bare, "not labelled (no room): %s (100, 0.5)", labels[i]);
		if (strstr(buf, drawn) && strstr(buf, drawn) < note)
			whole++;
		else if (strstr(note, named))
			numbered++;
		else
			ck_assert_msg(strstr(note, bare) != NULL, "point %d is lost: %s", i + 1, buf);
	}
	ck_assert_int_ge(whole, 1);
	ck_assert_int_ge(numbered, 1);
	ck_assert_ptr_nonnull(strstr(buf, "<text class=\"label number\""));
	free(buf);
}
END_TEST

/* Labels that all begin with the same "NAME:" (a sweep's points) are drawn without it; the note gives it. */
START_TEST(scatter_labels_common_prefix)
{
	const double x[2] = { 100, 200 }, y[2] = { 0.5, 0.1 };
	const char *const labels[2] = { "sweep-a:0", "sweep-a:1" };
	const bool hi[2] = { false, true };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	report_svg_scatter(out, "chart-x", "t", "x (USD)", "y (%)", x, y, labels, hi, NULL, 2, false, "front");
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, ">0</text>"));
	ck_assert_ptr_nonnull(strstr(buf, ">1</text>"));
	ck_assert_ptr_null(strstr(buf, ">sweep-a:0</text>"));
	ck_assert_ptr_nonnull(strstr(buf, "labels leave out the prefix <code>sweep-a:</code>"));
	free(buf);
}
END_TEST

/*
 * A legend name longer than the legend's room is wrapped into lines (tspans) of at most 20 characters, the
 * "SLO violations (over the threshold or dropped)" of the violations chart, cut at 960 before; the entry
 * after it moves down by its extra lines.
 */
START_TEST(legend_names_wrap)
{
	static const double v[2] = { 1, 2 };
	struct report_svg_series s[2] = {
		{ "SLO violations (over the threshold or dropped)", v, "#d62728", true, false },
		{ "an-unbroken-name-of-thirty-chars", v, "#000000", false, false },
	};
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int lines = 0;

	report_svg_xy(out, "chart-x", "t", "hours", "requests", 0.5, 1, 2, s, 2, NULL, 0, NAN, NULL, NAN);
	fclose(out);
	for (p = buf; (p = strstr(p, "<tspan")) != NULL; p++, lines++) {
		const char *text = strchr(p, '>') + 1;
		ck_assert_int_le((int)(strstr(text, "</tspan>") - text), 20);
	}
	ck_assert_int_eq(lines, 5);  /* SLO violations (over | the threshold or | dropped) ; 20 + 12 characters */
	ck_assert_ptr_nonnull(strstr(buf, ">SLO violations (over</tspan>"));
	ck_assert_ptr_nonnull(strstr(buf, "<text class=\"legend\" x=\"806\" y=\"90\""));  /* 42 + 20 + 2 x 14 */
	free(buf);
}
END_TEST

/*
 * The cost, commitment utilisation and coverage per hour come from the bill lines (charges), not from the
 * samples. A 2 h run with 1 on-demand and 2 reserved instances in every sample; its bill (clock hours 0 and
 * 1 from 2026-01-01T00:00:00Z, the scenario start), as (list, effective) USD:
 *   hour 0: on_demand usage (30, 10); reserved used (40, 20); savings_plan used (16, 12), unused (0, 4)
 *   hour 1: on_demand usage (90, 30); reserved used (40, 20); savings_plan unused (0, 16); odcr unused (10, 10)
 * cost on_demand = [10, 30] (the old spread over instance-hours gave 40 x 1/2 = [20, 20]), reserved [20, 20],
 * savings_plan [16, 16], odcr [0, 10];
 * utilisation = used / (used + unused): h0 (20 + 12) / (20 + 12 + 4) = 32/36 = 0.888889,
 *                                       h1 20 / (20 + 16 + 10) = 20/46 = 0.434783;
 * coverage = (reserved + plan used list) / (those + on-demand usage + ODCR list):
 *   h0 (40 + 16) / (40 + 16 + 30) = 56/86 = 0.651163; h1 40 / (40 + 90 + 10) = 40/140 = 0.285714.
 */
START_TEST(hourly_cost_from_charges)
{
	struct diag d = { "" };
	struct store *st = NULL;
	struct scenario sc;
	struct report r;
	char *path = tmp_path("results.sqlite"), *buf = NULL;
	size_t len = 0;
	FILE *out;
	const double t0 = 1767225600;  /* 2026-01-01T00:00:00Z */
	char sql[2048];
	const struct report_run *run;

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	scenario_fake(&sc, "exact", 1);
	sc.horizon_us = 7200 * (int64_t)1000000;
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 120, 0.25, STATUS_OK), STATUS_OK);
	store_close(st);
	snprintf(sql, sizeof sql,
		 "INSERT INTO charges VALUES (1, 0, 'on_demand', 'usage', 'serving', %.0f, %.0f, 1, 30, 10, 10),"
		 "(1, 0, 'reserved', 'used', 'serving', %.0f, %.0f, 2, 40, 20, 20),"
		 "(1, 0, 'savings_plan', 'used', 'serving', %.0f, %.0f, 0.5, 16, 12, 12),"
		 "(1, 0, 'savings_plan', 'unused', 'serving', %.0f, %.0f, 0, 0, 4, 4),"
		 "(1, 1, 'on_demand', 'usage', 'serving', %.0f, %.0f, 3, 90, 30, 30),"
		 "(1, 1, 'reserved', 'used', 'serving', %.0f, %.0f, 2, 40, 20, 20),"
		 "(1, 1, 'savings_plan', 'unused', 'serving', %.0f, %.0f, 0, 0, 16, 16),"
		 "(1, 1, 'odcr', 'unused', 'serving', %.0f, %.0f, 0.33, 10, 10, 10);"
		 "INSERT INTO metrics VALUES (1, 'cost_on_demand_usd', 40), (1, 'cost_reserved_usd', 40),"
		 "(1, 'cost_savings_plan_usd', 32), (1, 'cost_odcr_usd', 10);"
		 "INSERT INTO hours VALUES (1, 3600, 50, 7, 2, 9, 12), (1, 0, 40, 0, 1, 1.5, NULL);"
		 /* figures that %g would print with an exponent */
		 "INSERT OR REPLACE INTO metrics VALUES (1, 'cost_total_usd', 21203000), "
		 "(1, 'slo_violation_rate', 0.0000123), (1, 'requests_total', 40191000);",
		 t0, t0 + 3600, t0, t0 + 3600, t0, t0 + 3600, t0, t0 + 3600, t0 + 3600, t0 + 7200, t0 + 3600,
		 t0 + 7200, t0 + 3600, t0 + 7200, t0 + 3600, t0 + 7200);
	raw_exec(path, sql);
	ck_assert_int_eq(report_load(&r, path, NULL, 0, &d), STATUS_OK);
	ck_assert_int_eq(r.nruns, 1);
	run = &r.runs[0];
	ck_assert(run->exact);
	ck_assert_int_eq(run->ncost, 2);
	ck_assert_double_eq_tol(run->cost_x0_h, 0, 1e-9);
	ck_assert_double_eq_tol(run->cost[OPTION_ON_DEMAND][0], 10, 1e-9);
	ck_assert_double_eq_tol(run->cost[OPTION_ON_DEMAND][1], 30, 1e-9);
	ck_assert_double_eq_tol(run->cost[OPTION_RESERVED][1], 20, 1e-9);
	ck_assert_double_eq_tol(run->cost[OPTION_SAVINGS_PLAN][0], 16, 1e-9);
	ck_assert_double_eq_tol(run->cost[OPTION_ODCR][0], 0, 1e-9);
	ck_assert_double_eq_tol(run->cost[OPTION_ODCR][1], 10, 1e-9);
	ck_assert_double_eq_tol(run->commit_util[0], 32.0 / 36, 1e-9);
	ck_assert_double_eq_tol(run->commit_util[1], 20.0 / 46, 1e-9);
	ck_assert_double_eq_tol(run->commit_cov[0], 56.0 / 86, 1e-9);
	ck_assert_double_eq_tol(run->commit_cov[1], 40.0 / 140, 1e-9);
	/* the stored hourly rows, in hour order whatever the row order: p99 NULL reads NaN */
	ck_assert_int_eq(run->nlat, 2);
	ck_assert_double_eq_tol(run->lat_x0_h, 0, 1e-9);
	ck_assert_double_eq(run->lat_req[0], 40);
	ck_assert_double_eq(run->lat_viol[1], 7);
	ck_assert_double_eq(run->lat_p95[1], 9);
	ck_assert(isnan(run->lat_p99[0]));
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(report_write_html(&r, out), 0);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "<svg id=\"chart-1-violations\""));
	ck_assert_ptr_nonnull(strstr(buf, "Requests by UTC clock hour"));
	ck_assert_ptr_nonnull(strstr(buf, "Bill by UTC clock hour"));
	ck_assert_ptr_null(strstr(buf, "approximation"));
	/* numbers for people: money with its currency and separators, a tiny rate as a percentage, no exponent */
	ck_assert_ptr_nonnull(strstr(buf, "<td>$21,203,000.00</td>"));
	ck_assert_ptr_nonnull(strstr(buf, "<td>40,191,000</td>"));
	ck_assert_ptr_nonnull(strstr(buf, "<td>0.00123%</td>"));
	assert_no_exponent(buf);
	/* a single run's decision: its verdict and its cost per month and per year, first on the page */
	ck_assert_ptr_eq(strstr(buf, "<section"), strstr(buf, "<section id=\"decision\">"));
	ck_assert_ptr_nonnull(strstr(buf, "<li>Run 1 (exact): "));
	ck_assert_ptr_nonnull(strstr(buf, " per 30-day month, "));
	free(buf);
	report_fini(&r);
	/* without bill lines (an older database): the labelled fallback */
	raw_exec(path, "DELETE FROM charges; DELETE FROM hours");
	ck_assert_int_eq(report_load(&r, path, NULL, 0, &d), STATUS_OK);
	ck_assert(!r.runs[0].exact);
	ck_assert_double_eq_tol(r.runs[0].cost[OPTION_ON_DEMAND][0], 20, 1e-9);
	buf = NULL;
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(report_write_html(&r, out), 0);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "approximation: no bill lines stored"));
	ck_assert_ptr_nonnull(strstr(buf, "no hourly rows stored"));
	free(buf);
	report_fini(&r);
	tmp_remove(path);
}
END_TEST

/*
 * Coverage with Spot in the mix: Spot is never committed capacity, and never eligible for a commitment.
 * A 3 h run. Its samples (the instance-time fallback, report.h: committed = reserved, ODCR, Savings Plan,
 * Capacity Block, training plan over all instances), hour h holding h x 3600 < t_s <= (h + 1) x 3600:
 *   hour 0: t 1800 s: reserved 2, on-demand 1, spot 3, capacity block 2, training plan 1;  t 3600 s (the
 *           hour's last instant, still hour 0): reserved 2, on-demand 1, spot 5, capacity block 2, plan 1
 *           means reserved 2, on-demand 1, spot 4, block 2, plan 1: coverage (2 + 2 + 1) / (2 + 1 + 4 + 2 + 1)
 *           = 5/10 = 0.5 (with Spot counted as committed it would be 9/10; left out of all instances, 5/6;
 *           the training plan's instance left out, 4/9)
 *   hour 1: t 5400 s: spot 6 alone: coverage 0 / 6 = 0 (instances, none committed: 0, not undefined)
 *   hour 2: t 9000 s: no instance: coverage NaN.
 * Its bill (coverage = reserved and savings_plan used list / those + on_demand usage + odcr list; spot and
 * capacity blocks are not eligible), as (list, effective) USD:
 *   hour 0: on_demand usage (30, 30); reserved used (40, 20); spot usage (50, 15); capacity_block usage (20, 12)
 *           coverage 40 / (40 + 30) = 4/7 = 0.571429 (with Spot eligible 40/120, with blocks too 40/140);
 *           utilisation 20 / 20 = 1 (Spot's and the block's lines are not commitments' used or unused)
 *   hour 1: spot usage (60, 18) alone: nothing eligible, no commitment: coverage and utilisation NaN;
 *           cost spot [15, 18], capacity block [12, 0].
 */
START_TEST(coverage_with_spot)
{
	struct diag d = { "" };
	struct store *st = NULL;
	struct scenario sc;
	struct report r;
	char *path = tmp_path("results.sqlite");
	const double t0 = 1767225600;  /* 2026-01-01T00:00:00Z */
	char sql[2048];
	const struct report_run *run;

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	scenario_fake(&sc, "spot", 1);
	sc.horizon_us = 3 * 3600 * (int64_t)1000000;
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 0, 0.25, STATUS_OK), STATUS_OK);
	store_close(st);
	snprintf(sql, sizeof sql,
		 "INSERT INTO samples (run_id, t_s, arrival_rate_per_s, queue_len, busy_slots, instances_reserved, "
		 "instances_on_demand, instances_spot, instances_odcr, instances_savings_plan, instances_capacity_block, "
		 "instances_total, cost_usd_per_h, instances_training_plan) VALUES (1, 1800, 1, 0, 1, 2, 1, 3, 0, 0, 2, 9,"
		 "10, 1), (1, 3600, 1, 0, 1, 2, 1, 5, 0, 0, 2, 11, 10, 1), (1, 5400, 1, 0, 1, 0, 0, 6, 0, 0, 0, 6, 10, 0),"
		 "(1, 9000, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);"
		 "INSERT INTO charges VALUES (1, 0, 'on_demand', 'usage', 'serving', %.0f, %.0f, 1, 30, 30, 30),"
		 "(1, 0, 'reserved', 'used', 'serving', %.0f, %.0f, 2, 40, 20, 20),"
		 "(1, 0, 'spot', 'usage', 'serving', %.0f, %.0f, 4, 50, 15, 15),"
		 "(1, 0, 'capacity_block', 'usage', 'serving', %.0f, %.0f, 2, 20, 12, 12),"
		 "(1, 1, 'spot', 'usage', 'serving', %.0f, %.0f, 6, 60, 18, 18);",
		 t0, t0 + 3600, t0, t0 + 3600, t0, t0 + 3600, t0, t0 + 3600, t0 + 3600, t0 + 7200);
	raw_exec(path, sql);
	ck_assert_int_eq(report_load(&r, path, NULL, 0, &d), STATUS_OK);
	ck_assert_int_eq(r.nruns, 1);
	run = &r.runs[0];
	/* the samples: hourly means and the instance-time coverage */
	ck_assert_int_eq(run->nhours, 3);
	ck_assert_double_eq_tol(run->inst[OPTION_SPOT][0], 4, 1e-12);
	ck_assert_double_eq_tol(run->inst[OPTION_CAPACITY_BLOCK][0], 2, 1e-12);
	ck_assert_double_eq_tol(run->inst[OPTION_SPOT][1], 6, 1e-12);
	ck_assert_double_eq_tol(run->inst[OPTION_TRAINING_PLAN][0], 1, 1e-12);
	ck_assert_double_eq_tol(run->coverage[0], 0.5, 1e-12);
	ck_assert_double_eq(run->coverage[1], 0);
	ck_assert(isnan(run->coverage[2]));
	/* the bill: coverage at On-Demand prices, Spot and blocks not eligible */
	ck_assert(run->exact);
	ck_assert_int_eq(run->ncost, 2);
	ck_assert_double_eq_tol(run->commit_cov[0], 4.0 / 7, 1e-12);
	ck_assert_double_eq_tol(run->commit_util[0], 1, 1e-12);
	ck_assert(isnan(run->commit_cov[1]));
	ck_assert(isnan(run->commit_util[1]));
	ck_assert_double_eq_tol(run->cost[OPTION_SPOT][0], 15, 1e-12);
	ck_assert_double_eq_tol(run->cost[OPTION_SPOT][1], 18, 1e-12);
	ck_assert_double_eq_tol(run->cost[OPTION_CAPACITY_BLOCK][0], 12, 1e-12);
	ck_assert_double_eq(run->cost[OPTION_CAPACITY_BLOCK][1], 0);
	report_fini(&r);
	tmp_remove(path);
}
END_TEST

/*
 * A file written before schema version 8 has no samples.instances_training_plan (the report opens files
 * read-only, unmigrated): it still loads, with no training-plan instances. A version-7 file (the frozen
 * schema, tests/data/store/schema_v7.sql) with one run of 1 h and one sample at t 60 s: reserved 2,
 * on-demand 3, spot 1: hour 0's coverage 2 / (2 + 3 + 1) = 1/3.
 */
START_TEST(coverage_of_a_file_before_training_plans)
{
	struct diag d = { "" };
	struct report r;
	char *path = tmp_path("v7.sqlite");
	struct bytes b = file_bytes(TEST_DATA_DIR "/store/schema_v7.sql");
	char *schema = realloc(b.data, b.len + 1);

	ck_assert_ptr_nonnull(schema);
	schema[b.len] = '\0';
	raw_exec(path, schema);
	free(schema);
	raw_exec(path, "INSERT INTO runs VALUES (1, 'plain', NULL, 'name: plain\n', '', 9, 'ok', "
		 "'2025-10-01T00:00:00Z', 1, '0.7.0', 3600, 'p5.48xlarge', NULL, NULL, NULL, NULL, NULL);"
		 "INSERT INTO samples VALUES (1, 60, 2, 0, 1.5, 2, 3, 1, 0, 0, 0, 6, 110.5, NULL);");
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), 7);
	ck_assert_msg(report_load(&r, path, NULL, 0, &d) == STATUS_OK, "message: %s", d.msg);
	ck_assert_int_eq(r.nruns, 1);
	ck_assert_int_eq(r.runs[0].nhours, 1);
	ck_assert_double_eq(r.runs[0].inst[OPTION_TRAINING_PLAN][0], 0);
	ck_assert_double_eq(r.runs[0].inst[OPTION_SPOT][0], 1);
	ck_assert_double_eq_tol(r.runs[0].coverage[0], 1.0 / 3, 1e-12);
	report_fini(&r);
	tmp_remove(path);
}
END_TEST

/* Count the occurrences of needle in hay. */
static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *q = strstr(hay, needle); q; q = strstr(q + 1, needle))
		n++;
	return n;
}

/*
 * The commitment-versus-cost curve of a recommend session, from its labels: runs 1-6 are one session's
 * three candidates (fleet.0.count=0, 1, 2; two replications each) with mean term costs 300, 200 and 250,
 * the choice (recommend_choice=1) on count 1; run 7 is an ordinary run. The curve has three points, at x 0,
 * 1 and 2 with the costs of their labels, exactly one of them (count 1) drawn as the recommended one (the
 * orange, larger marker), and a report without ids shows the ordinary run in detail and none of the
 * session's runs (the curve stands for them).
 */
START_TEST(recommend_curve_marks_the_choice)
{
	struct diag d = { "" };
	struct store *st = NULL;
	struct scenario sc;
	struct report r;
	char *path = tmp_path("results.sqlite"), *buf = NULL;
	size_t len = 0;
	FILE *out;
	const char *chart;

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	scenario_fake(&sc, "rec", 1);
	for (int i = 0; i < 7; i++)
		ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 10, 0.25, STATUS_OK), STATUS_OK);
	store_close(st);
	raw_exec(path,
		 "INSERT INTO labels SELECT run_id, 'recommend', 'x' FROM runs WHERE run_id <= 6;"
		 "INSERT INTO labels SELECT run_id, 'recommend_session', 'rec#1' FROM runs WHERE run_id <= 6;"
		 "INSERT INTO labels SELECT run_id, 'recommend_candidate', 'fleet.0.count=' || ((run_id - 1) / 2) "
		 "FROM runs WHERE run_id <= 6;"
		 "INSERT INTO labels SELECT run_id, 'recommend_term_cost_usd', "
		 "CASE (run_id - 1) / 2 WHEN 0 THEN '300' WHEN 1 THEN '200' ELSE '250' END FROM runs WHERE run_id <= 6;"
		 "INSERT INTO labels VALUES (3, 'recommend_choice', '1'), (4, 'recommend_choice', '1');"
		 /* how the choice was decided: on its runs (the first one's are read) */
		 "INSERT INTO labels VALUES (3, 'recommend_term_method', 'windows:4'), (3, 'recommend_choose', 'regret'),"
		 " (3, 'recommend_ladder', 'commitments.0.count=1+2@2190'), (3, 'recommend_owed_after_term_usd', '125.5'),"
		 " (1, 'recommend_term_method', 'fluid');");
	ck_assert_msg(report_load(&r, path, NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(r.nsessions, 1);
	ck_assert_str_eq(r.sessions[0].decision, "recommend_choose=regret\nrecommend_ladder=commitments.0.count=1+2@2190\n"
			 "recommend_owed_after_term_usd=125.5\nrecommend_term_method=windows:4\n");
	ck_assert_int_eq(r.sessions[0].ncand, 3);
	for (int i = 0; i < 3; i++) {
		ck_assert_double_eq_tol(r.sessions[0].x[i], i, 1e-12);
		ck_assert_int_eq(r.sessions[0].chosen[i], i == 1);
	}
	ck_assert_double_eq_tol(r.sessions[0].cost[0], 300, 1e-9);
	ck_assert_double_eq_tol(r.sessions[0].cost[1], 200, 1e-9);
	ck_assert_double_eq_tol(r.sessions[0].cost[2], 250, 1e-9);
	ck_assert_int_eq(r.nruns, 1);  /* run 7 only: the session's runs are grouped in the curve */
	ck_assert_int_eq(r.runs[0].run_id, 7);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(report_write_html(&r, out), 0);
	fclose(out);
	chart = strstr(buf, "<svg id=\"chart-recommend-1\"");
	ck_assert_ptr_nonnull(chart);
	/* page one is the decision: the first section, naming the choice and its term cost in dollars */
	ck_assert_ptr_eq(strstr(buf, "<section"), strstr(buf, "<section id=\"decision\">"));
	ck_assert_ptr_nonnull(strstr(buf, "<li>Recommend: <b>rec <span class=\"note\">(session rec#1)</span></b>: buy "
				  "<b>fleet.0.count=1</b>, $200 over the term"));
	ck_assert_ptr_nonnull(strstr(buf, "The choice: <code>recommend_choose=regret\nrecommend_ladder="));
	/* the run's page: what a year costs at the window's rate, and what its commitments still owe */
	ck_assert_ptr_nonnull(strstr(buf, "<td class=\"l\">commitments still owed after the horizon (USD)</td>"));
	ck_assert_ptr_nonnull(strstr(buf, "<td class=\"l\">cost per year: the window's cost per hour x 8760 h (USD)</td>"));
	/* within the curve's SVG: three markers, one of them the recommended (orange, r=7) one */
	{
		const char *end = strstr(chart, "</svg>");
		char *svg = strndup(chart, (size_t)(end - chart));
		ck_assert_int_eq(count_of(svg, "<circle "), 3);
		ck_assert_int_eq(count_of(svg, "r=\"7\" fill=\"#ff7f0e\""), 1);
		ck_assert_ptr_nonnull(strstr(svg, "recommended"));
		free(svg);
	}
	assert_self_contained(buf);
	free(buf);
	report_fini(&r);
	tmp_remove(path);
}
END_TEST


/* The text of the page's decision section (owned), or NULL. */
static char *decision_of(const char *page)
{
	const char *a = strstr(page, "<section id=\"decision\">"), *b = a ? strstr(a, "</section>") : NULL;

	return b ? strndup(a, (size_t)(b - a)) : NULL;
}

/*
 * A search stored with its result (label recommend_result, as recommend --json writes it; numbers worked by
 * hand): the choice, candidate 1, buys 2 reserved instances and a $12.50/h Savings Plan at $20/h, $175,200
 * over the 8,760-h term; on-demand only costs $30/h, $262,800, so the savings are $87,600 (33.3%), $7,200 a
 * month. Candidate 0 sat at the fleet's maximum, candidate 2 is not a valid scenario. Under low growth the
 * choice costs $1,500 over that case's best; under high growth it breaks the SLO; a ladder leaves $4,380 owed.
 * Page one says all of it, the growth searches are named by their case, and the candidates' table marks the
 * two ruled out and why, the choice starred.
 */
START_TEST(recommend_decision_from_result)
{
	static const char json[] =
		"{\"best\": null, \"no_choice\": null, \"best_index\": 1, \"vary\": [{\"key\": \"commitments.0.count\", "
		"\"option\": \"reserved\", \"max\": false}], \"start_unix_s\": 1799020800, \"candidates\": ["
		"{\"counts\": {\"commitments.0.count\": 0}, \"plan\": \"commitments.0.count=0, Savings Plan $20.00/h\", "
		"\"sp_usd_per_h\": 20, \"cost_per_month_usd\": 14976, \"cost_term_usd\": 182208, \"cost_term_p90_usd\": "
		"183000, \"violation_rate_mean\": 0.05, \"violation_rate_worst\": 0.08, \"slo_met_replications\": 0, "
		"\"feasible\": false, \"invalid\": null, \"slo_unreachable\": false, \"fleet_at_max_replications\": 2},"
		"{\"counts\": {\"commitments.0.count\": 2}, \"plan\": \"commitments.0.count=2, Savings Plan $12.50/h\", "
		"\"sp_usd_per_h\": 12.5, \"cost_per_month_usd\": 14400, \"cost_term_usd\": 175200, \"cost_term_p90_usd\": "
		"178704, \"violation_rate_mean\": 0.001, \"violation_rate_worst\": 0.002, \"slo_met_replications\": 2, "
		"\"feasible\": true, \"invalid\": null, \"slo_unreachable\": false, \"fleet_at_max_replications\": 0},"
		"{\"counts\": {\"commitments.0.count\": 9}, \"plan\": \"commitments.0.count=9\", \"sp_usd_per_h\": null, "
		"\"cost_term_usd\": null, \"slo_met_replications\": 0, \"feasible\": false, \"invalid\": "
		"\"commitments.0.count: 9 is above the limit\", \"slo_unreachable\": false, \"fleet_at_max_replications\": 0}"
		"], \"runs\": 9, \"term_h\": 8760, \"replications\": 2, \"on_demand_only\": {\"counts\": {}, \"plan\": "
		"\"on-demand\", \"cost_per_month_usd\": 21600, \"cost_term_usd\": 262800, \"feasible\": true}, "
		"\"savings_per_month_usd\": 7200, \"savings_term_usd\": 87600, \"term\": {\"method\": \"window\"}, "
		"\"ladder\": {\"better\": true, \"key\": \"commitments.0.count\", \"now\": 1, \"later\": 1, \"later_at_h\": "
		"4380, \"cost_term_usd\": 174000, \"owed_after_term_usd\": 4380}, \"regret\": [{\"candidate\": 1, "
		"\"low\": 1500, \"base\": 0, \"high\": null, \"worst\": null, \"cost_low_usd\": 150000, \"cost_high_usd\": "
		"200000, \"breaks_slo\": [false, false, true]}], \"growth\": {\"low\": {\"scale_rate\": 0.8, \"best\": "
		"{\"plan\": \"commitments.0.count=1, Savings Plan $9.00/h\", \"cost_term_usd\": 148000}}, \"high\": {\"scale_rate\": 1.25, "
		"\"best\": null}}}";
	struct diag d = { "" };
	struct store *st = NULL;
	struct scenario sc;
	struct report r;
	char *path = tmp_path("results.sqlite"), *buf = NULL, *dec, *sql;
	size_t len = 0;
	FILE *out;

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	scenario_fake(&sc, "svc", 1);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 10, 0.25, STATUS_OK), STATUS_OK);
	store_close(st);
	raw_exec(path, "INSERT INTO labels SELECT run_id, 'recommend', 'x' FROM runs;"
		 "INSERT INTO labels SELECT run_id, 'recommend_session', 'svc#' || run_id FROM runs;"
		 "INSERT INTO labels SELECT run_id, 'recommend_candidate', 'commitments.0.count=2' FROM runs;"
		 "INSERT INTO labels SELECT run_id, 'recommend_term_cost_usd', '175200' FROM runs;"
		 "INSERT INTO labels VALUES (1, 'recommend_choice', '1'), (1, 'recommend_case', 'base'), "
		 "(2, 'recommend_case', 'low'), (3, 'recommend_case', 'high');");
	sql = malloc(sizeof json + 64);
	snprintf(sql, sizeof json + 64, "INSERT INTO labels VALUES (1, 'recommend_result', '%s');", json);
	raw_exec(path, sql);
	free(sql);
	ck_assert_msg(report_load(&r, path, NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(r.nsessions, 3);
	ck_assert(r.sessions[0].rec.ok);
	ck_assert(!r.sessions[1].rec.ok);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(report_write_html(&r, out), 0);
	fclose(out);
	dec = decision_of(buf);
	ck_assert_ptr_nonnull(dec);
	ck_assert_ptr_nonnull(strstr(dec, "<b>2</b> reserved instances (<code>commitments.0.count</code>); a Savings "
				  "Plan of <b>$12.50 per hour</b>"));
	ck_assert_ptr_nonnull(strstr(dec, "1 year (8,760 h) from 2027-01-04 00:00 UTC"));
	ck_assert_ptr_nonnull(strstr(dec, "<b>$175,200</b> ($14,400 per 30-day month"));
	ck_assert_ptr_nonnull(strstr(dec, "$262,800 over the term ($21,600 per month); keeps the SLO"));
	ck_assert_ptr_nonnull(strstr(dec, "<b>$87,600 over the term</b> (33.3% of on-demand only), $7,200 per month"));
	ck_assert_ptr_nonnull(strstr(dec, "<b>kept</b> in 2 of 2 replications"));
	ck_assert_ptr_nonnull(strstr(dec, "$178,704 (2.00% above the mean)"));
	ck_assert_ptr_nonnull(strstr(dec, "low growth (traffic &times; 0.8): the choice costs $150,000 over the term, "
				  "<b>$1,500</b> more than the best candidate bought as at base; searched afresh at that "
				  "traffic: <code>commitments.0.count=1, Savings Plan $9.00/h</code>, $148,000"));
	ck_assert_ptr_nonnull(strstr(dec, "high growth (traffic &times; 1.25): the choice <b class=\"bad\">breaks the SLO</b>; "
				  "searched afresh at that traffic, no plan keeps the SLO"));
	ck_assert_ptr_nonnull(strstr(dec, "<b>$4,380</b>: the ladder's later purchase runs past the term"));
	ck_assert_ptr_nonnull(strstr(dec, "2 of 3 break the SLO"));
	ck_assert_ptr_nonnull(strstr(dec, "extrapolated"));
	/* the growth searches are not decided apart: the base one's regret speaks for them */
	ck_assert_ptr_null(strstr(dec, "low growth <span"));
	ck_assert_ptr_nonnull(strstr(buf, "<h2>Commitment versus cost: svc, low growth <span class=\"note\">"));
	/* the candidates' table: the two ruled out marked and why, the choice starred */
	ck_assert_int_eq(count_of(buf, "<tr class=\"infeasible\">"), 2);
	ck_assert_ptr_nonnull(strstr(buf, "&#10007; fleet at its maximum with requests waiting in 2 of 2 replications"));
	ck_assert_ptr_nonnull(strstr(buf, "&#10007; not a valid scenario: commitments.0.count: 9 is above the limit"));
	ck_assert_ptr_nonnull(strstr(buf, "&#10003; kept</td><td>&#9733;</td>"));
	/* the curve: every candidate with a cost, the one at the fleet's maximum a red cross (the invalid one has
	 * no cost to draw), the choice highlighted */
	ck_assert_int_eq(count_of(buf, "<path class=\"bad\""), 1);
	ck_assert_ptr_nonnull(strstr(buf, ">breaks the SLO</tspan>"));
	ck_assert_int_eq(count_of(buf, "r=\"7\" fill=\"#ff7f0e\""), 1);
	assert_self_contained(buf);
	free(dec);
	free(buf);
	report_fini(&r);
	tmp_remove(path);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");

	test_add(tc, escape_every_special_character);
	test_add(tc, page_escapes_database_strings);
	test_add(tc, scatter_labels_escaped);
	test_add(tc, scatter_labels_never_lost);
	test_add(tc, scatter_labels_common_prefix);
	test_add(tc, legend_names_wrap);
	test_add(tc, hourly_cost_from_charges);
	test_add(tc, coverage_with_spot);
	test_add(tc, coverage_of_a_file_before_training_plans);
	test_add(tc, recommend_curve_marks_the_choice);
	test_add(tc, recommend_decision_from_result);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(report_suite());
}
