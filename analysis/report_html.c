/*
 * report_html: the page of `gpucap report` (report.h). One HTML file that needs nothing else: the style is
 * inline and uses the system's fonts, the charts are inline SVG (report_svg.h), there is no script and no
 * URL of any kind, so the page opens offline and makes no request. Every text from the database or a
 * scenario goes through report_html_escape (report_svg.h). Comparison first (when several points), then each run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "report.h"
#include "report_html_rec.h"
#include "report_svg.h"
#include "status.h"

static const char style[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;"
	"margin:24px;color:#222;background:#fff;max-width:1000px}"
	"h1{font-size:24px}h2{font-size:20px;border-top:2px solid #ddd;padding-top:12px}h3{font-size:16px}"
	"table{border-collapse:collapse;font-size:13px;margin:8px 0 20px}"
	"td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}th{background:#f3f3f3}"
	"td.l,th.l{text-align:left}pre{background:#f7f7f7;padding:8px;overflow:auto;font-size:12px;"
	"font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace}"
	".warn{color:#8a4b00}.note{color:#555;font-size:13px}svg.chart{display:block;margin:12px 0 4px}"
	/* nothing wider than the page: charts scale to the column (their viewBox keeps the proportions), tables
	 * shrink to it: headers wrap between words, text cells (long names) anywhere if they must */
	"svg.chart{width:100%;height:auto}table{max-width:100%}td.l{overflow-wrap:anywhere}"
	/* print: the decision alone on page one, the evidence from page two; no chart or row split by a page */
	"@page{margin:12mm}@media print{body{margin:0;max-width:none}#decision{break-after:page}"
	"svg.chart,tr,pre{break-inside:avoid}h2,h3{break-after:avoid}}";

/* The decision's styles (page one), apart from the page's. */
static const char style_decision[] =
	"table.decision{font-size:14px;width:100%}table.decision th{width:190px;vertical-align:top}"
	"table.decision td{text-align:left}.bad{color:#b00020}tr.infeasible td{color:#777}"
	"tr.infeasible td:nth-child(7){color:#b00020}";

/* The colour of each option kind, in enum option_kind order. */
static const char *const option_color[OPTION_KIND_COUNT] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#8c564b", "#9467bd", "#e377c2", "#17becf",
};

/* How a figure is printed (numfmt.h: never an exponent, thousands grouped). */
enum fig { FIG_USD, FIG_USD_CENTS, FIG_COUNT, FIG_RATE, FIG_SECONDS, FIG_HOURS, FIG_VALUE };

static const char *fig(double v, enum fig kind, char *buf, size_t size)
{
	switch (kind) {
	case FIG_USD: return numfmt_money(v, false, buf, size);
	case FIG_USD_CENTS: return numfmt_money(v, true, buf, size);
	case FIG_COUNT: return numfmt_fixed(v, 0, buf, size);
	case FIG_RATE: return numfmt_percent(v, NAN, buf, size);
	case FIG_SECONDS: return numfmt_sig(v, 4, buf, size);
	case FIG_HOURS: return numfmt_fixed(v, 1, buf, size);
	default: return numfmt_sig(v, 4, buf, size);
	}
}

static void num(FILE *out, double v, enum fig kind)
{
	char buf[128];

	if (isnan(v))
		fputs("&ndash;", out);
	else
		fputs(fig(v, kind, buf, sizeof buf), out);
}

/* The summary table: the metrics a planner looks at first. */
static void run_summary(FILE *out, const struct report_run *run)
{
	static const struct { const char *metric, *label; enum fig kind; } rows[] = {
		{ "cost_total_usd", "cost, total (USD)", FIG_USD_CENTS },
		{ "cost_per_month_usd", "cost per 30-day month (USD)", FIG_USD },
		{ "requests_total", "requests", FIG_COUNT }, { "slo_violation_rate", "SLO violation rate", FIG_RATE },
		{ "latency_p50_s", "latency p50 (s)", FIG_SECONDS }, { "latency_p99_s", "latency p99 (s)", FIG_SECONDS },
		{ "gpu_hours_paid", "GPU-hours paid", FIG_HOURS }, { "gpu_hours_idle", "GPU-hours idle", FIG_HOURS },
		{ "gpu_utilization", "GPU utilisation", FIG_RATE },
		{ "commitment_utilization", "commitment utilisation", FIG_RATE },
		{ "commitment_coverage", "commitment coverage", FIG_RATE },
		{ "instances_peak", "peak instances", FIG_COUNT },
		{ "cost_per_year_usd", "cost per year: the window's cost per hour x 8760 h (USD)", FIG_USD },
		{ "commitment_after_horizon_usd", "commitments still owed after the horizon (USD)", FIG_USD },
	};

	fprintf(out, "<table><tr><th class=\"l\">metric</th><th>value</th></tr>\n");
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fprintf(out, "<tr><td class=\"l\">%s</td><td>", rows[i].label);
		num(out, report_metric(run, rows[i].metric), rows[i].kind);
		fprintf(out, "</td></tr>\n");
	}
	fprintf(out, "</table>\n");
}

static void chart_id(char *buf, size_t n, const struct report_run *run, const char *what)
{
	snprintf(buf, n, "chart-%lld-%s", (long long)run->run_id, what);
}

/* Instances by option stacked, demand as a line, scaling events marked; then the cost rate by option. */
/* The hours in run->cost[]: clock hours from the bill lines, else the sample hours (report.h). */
static int cost_hours(const struct report_run *run)
{
	return run->exact ? run->ncost : run->nhours;
}

static void run_fleet_cost(FILE *out, const struct report_run *run)
{
	struct report_svg_series s[OPTION_KIND_COUNT + 1];
	struct report_svg_marker *m = calloc(run->nevents ? (size_t)run->nevents : 1, sizeof *m);
	char id[64];
	int ns = 0;

	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		double sum = 0;
		for (int h = 0; h < run->nhours; h++)
			sum += run->inst[k][h];
		if (sum > 0)
			s[ns++] = (struct report_svg_series){ option_kind_name((enum option_kind)k), run->inst[k],
							      option_color[k], true, false };
	}
	if (run->slots > 0)
		s[ns++] = (struct report_svg_series){ "demand (busy)", run->demand, "#000000",
						      false, false };
	for (int j = 0; m && j < run->nevents; j++)
		m[j] = (struct report_svg_marker){ run->events[j].t_s / 3600, run->events[j].out == 1 };
	chart_id(id, sizeof id, run, "fleet");
	report_svg_xy(out, id, run->inst_jobs ? "Instances by purchase option, serving and training jobs together, against "
		      "serving demand (hourly means; apart below)" : "Instances by purchase option against demand (hourly means)",
		      "hours from the start (hourly means at mid-hour)",
		      "instances", 0.5, 1, run->nhours, s, ns, m, m ? run->nevents : 0, NAN, NULL, NAN);
	free(m);
	if (run->slots == 0)
		fprintf(out, "<p class=\"note\">The stored scenario could not be parsed again (a trace file moved?): "
			"demand is not drawn.</p>\n");
	ns = 0;
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		double sum = 0;
		for (int h = 0; h < cost_hours(run); h++)
			sum += run->cost[k][h];
		if (sum > 0)
			s[ns++] = (struct report_svg_series){ option_kind_name((enum option_kind)k), run->cost[k],
							      option_color[k], true, false };
	}
	chart_id(id, sizeof id, run, "cost");
	if (run->exact)
		report_svg_xy(out, id, "Cost by purchase option per UTC clock hour (the bill lines)",
			      "hours from the start (clock hours, at mid-hour)", "USD per hour", run->cost_x0_h + 0.5, 1,
			      run->ncost, s, ns, NULL, 0, NAN, NULL, NAN);
	else
		report_svg_xy(out, id, "Cost rate by purchase option (approximation: no bill lines stored)",
			      "hours from the start (hourly means at mid-hour)", "USD per hour", 0.5, 1, run->nhours,
			      s, ns, NULL, 0, NAN, NULL, NAN);
}

/* Latency percentiles against the SLO threshold; the mean wait per hour; idle GPU-hours; commitment. */
static void run_latency_idle(FILE *out, const struct report_run *run)
{
	static const char *const lat[] = { "latency_mean_s", "latency_p50_s", "latency_p90_s", "latency_p95_s",
					   "latency_p99_s" };
	static const char *const lat_label[] = { "mean", "p50", "p90", "p95", "p99" };
	double v[OPTION_KIND_COUNT > 5 ? OPTION_KIND_COUNT : 5];
	const char *labels[OPTION_KIND_COUNT];
	struct report_svg_series s[2];
	char id[64];

	for (int i = 0; i < 5; i++)
		v[i] = report_metric(run, lat[i]);
	chart_id(id, sizeof id, run, "latency");
	if (run->nlat > 0) {
		struct report_svg_series ls[3] = {
			{ "p50", run->lat_p50, "#2ca02c", false, false },
			{ "p95", run->lat_p95, "#ff7f0e", false, false },
			{ "p99", run->lat_p99, "#d62728", false, false },
		};
		report_svg_xy(out, id, "End-to-end latency percentiles per UTC clock hour against the SLO",
			      "hours from the start (clock hours, at mid-hour)", "seconds", run->lat_x0_h + 0.5, 1,
			      run->nlat, ls, 3, NULL, 0, run->slo_latency_s, "SLO latency threshold", NAN);
		ls[0] = (struct report_svg_series){ "SLO violations (over the threshold or dropped)", run->lat_viol,
						    "#d62728", true, false };
		chart_id(id, sizeof id, run, "violations");
		report_svg_xy(out, id, "SLO violations per UTC clock hour", "hours from the start (clock hours, at "
			      "mid-hour)", "requests", run->lat_x0_h + 0.5, 1, run->nlat, ls, 1, NULL, 0, NAN, NULL, NAN);
	} else {
		report_svg_bars(out, id, "End-to-end latency over the run against the SLO (no hourly rows stored)",
				"seconds", lat_label, v, 5, run->slo_latency_s, "SLO latency threshold");
	}
	fprintf(out, "<p>SLO violations: ");
	num(out, report_metric(run, "slo_violations"), FIG_COUNT);
	fprintf(out, " (rate ");
	num(out, report_metric(run, "slo_violation_rate"), FIG_RATE);
	fprintf(out, "): ");
	num(out, report_metric(run, "slo_violations") / (run->horizon_s / 3600), FIG_HOURS);
	fprintf(out, " per hour on average.</p>\n");
	s[0] = (struct report_svg_series){ "mean wait", run->wait_s, "#1f77b4", false, false };
	chart_id(id, sizeof id, run, "wait");
	report_svg_xy(out, id, "Mean queueing wait per hour (queue length / arrival rate)", "hours from the start (hourly means at mid-hour)",
		      "seconds", 0.5, 1, run->nhours, s, 1, NULL, 0, run->slo_latency_s, "SLO latency threshold", NAN);
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		char name[64];
		snprintf(name, sizeof name, "gpu_hours_idle_%s", option_kind_name((enum option_kind)k));
		v[k] = report_metric(run, name);
		labels[k] = option_kind_name((enum option_kind)k);
	}
	chart_id(id, sizeof id, run, "idle");
	report_svg_bars(out, id, "Idle GPU-hours by purchase option", "GPU-hours", labels, v, OPTION_KIND_COUNT, NAN,
			NULL);
	chart_id(id, sizeof id, run, "commitment");
	if (run->exact) {
		s[0] = (struct report_svg_series){ "coverage", run->commit_cov, "#2ca02c", false, false };
		s[1] = (struct report_svg_series){ "utilisation", run->commit_util, "#9467bd", false, true };
		report_svg_xy(out, id, "Commitment coverage and utilisation per UTC clock hour (the bill lines)",
			      "hours from the start (clock hours, at mid-hour)", "fraction", run->cost_x0_h + 0.5, 1,
			      run->ncost, s, 2, NULL, 0, NAN, NULL, 1.0);
		return;
	}
	s[0] = (struct report_svg_series){ "coverage (instance time)", run->coverage, "#2ca02c", false, false };
	s[1] = (struct report_svg_series){ "committed busy", run->commit_busy, "#9467bd", false, true };
	report_svg_xy(out, id, "Commitment coverage and utilisation per hour (approximation: no bill lines stored)",
		      "hours from the start (hourly means at mid-hour)", "fraction", 0.5, 1, run->nhours, s, 2, NULL,
		      0, NAN, NULL, 1.0);
}

/* The hourly numbers under the charts, collapsed: the sample hours, then the bill's clock hours if any. */
static void run_hour_table(FILE *out, const struct report_run *run)
{
	fprintf(out, "<details><summary>Hourly table</summary><table><tr><th>hour</th>");
	for (int k = 0; k < OPTION_KIND_COUNT; k++)
		fprintf(out, "<th>%s instances</th>", option_kind_name((enum option_kind)k));
	fprintf(out, "<th>demand (instances)</th>%s<th>mean wait (s)</th>%s</tr>\n",
		run->exact ? "" : "<th>cost (USD, approx.)</th>",
		run->exact ? "" : "<th>coverage (instance time)</th><th>committed busy</th>");
	for (int h = 0; h < run->nhours; h++) {
		double usd = 0;
		fprintf(out, "<tr><td>%d</td>", h);
		for (int k = 0; k < OPTION_KIND_COUNT; k++) {
			fprintf(out, "<td>%.2f</td>", run->inst[k][h]);
			if (!run->exact)
				usd += run->cost[k][h];
		}
		fprintf(out, "<td>");
		num(out, run->demand[h], FIG_VALUE);
		if (!run->exact)
			fprintf(out, "</td><td>%.2f", usd);
		fprintf(out, "</td><td>");
		num(out, run->wait_s[h], FIG_SECONDS);
		if (!run->exact) {
			fprintf(out, "</td><td>");
			num(out, run->coverage[h], FIG_RATE);
			fprintf(out, "</td><td>");
			num(out, run->commit_busy[h], FIG_RATE);
		}
		fprintf(out, "</td></tr>\n");
	}
	fprintf(out, "</table></details>\n");
	if (run->nlat > 0) {
		fprintf(out, "<details><summary>Requests by UTC clock hour</summary><table><tr><th>starts at (h from "
			"the start)</th><th>requests</th><th>SLO violations</th><th>latency p50 (s)</th><th>p95 (s)"
			"</th><th>p99 (s)</th></tr>\n");
		for (int h = 0; h < run->nlat; h++) {
			fprintf(out, "<tr><td>%s</td><td>", numfmt_sig(run->lat_x0_h + h, 6, (char[64]){ 0 }, 64));
			num(out, run->lat_req[h], FIG_COUNT);
			fprintf(out, "</td><td>");
			num(out, run->lat_viol[h], FIG_COUNT);
			fprintf(out, "</td><td>");
			num(out, run->lat_p50[h], FIG_SECONDS);
			fprintf(out, "</td><td>");
			num(out, run->lat_p95[h], FIG_SECONDS);
			fprintf(out, "</td><td>");
			num(out, run->lat_p99[h], FIG_SECONDS);
			fprintf(out, "</td></tr>\n");
		}
		fprintf(out, "</table></details>\n");
	}
	if (!run->exact)
		return;
	fprintf(out, "<details><summary>Bill by UTC clock hour</summary><table><tr><th>clock hour</th>"
		"<th>starts at (h from the start)</th>");
	for (int k = 0; k < OPTION_KIND_COUNT; k++)
		fprintf(out, "<th>%s (USD)</th>", option_kind_name((enum option_kind)k));
	fprintf(out, "<th>total (USD)</th><th>commitment utilisation</th><th>coverage</th></tr>\n");
	for (int h = 0; h < run->ncost; h++) {
		double usd = 0;
		fprintf(out, "<tr><td>%d</td><td>%s</td>", h, numfmt_sig(run->cost_x0_h + h, 6, (char[64]){ 0 }, 64));
		for (int k = 0; k < OPTION_KIND_COUNT; k++) {
			fprintf(out, "<td>%.2f</td>", run->cost[k][h]);
			usd += run->cost[k][h];
		}
		fprintf(out, "<td>%.2f</td><td>", usd);
		num(out, run->commit_util[h], FIG_RATE);
		fprintf(out, "</td><td>");
		num(out, run->commit_cov[h], FIG_RATE);
		fprintf(out, "</td></tr>\n");
	}
	fprintf(out, "</table></details>\n");
}

static void run_section(FILE *out, const struct report_run *run)
{
	fprintf(out, "<section id=\"run-%lld\"><h2>Run %lld: ", (long long)run->run_id, (long long)run->run_id);
	report_html_escape(out, run->name);
	fprintf(out, "</h2>\n<p>%s h on ", numfmt_sig(run->horizon_s / 3600, 6, (char[64]){ 0 }, 64));
	report_html_escape(out, run->instance_type);
	fprintf(out, ", seed %lld", (long long)run->seed);
	if (*run->overrides) {
		fprintf(out, "; overrides: <code>");
		report_html_escape(out, run->overrides);
		fprintf(out, "</code>");
	}
	if (*run->labels) {
		fprintf(out, "; labels: <code>");
		report_html_escape(out, run->labels);
		fprintf(out, "</code>");
	}
	fprintf(out, "</p>\n<details><summary>Scenario</summary><pre>");
	report_html_escape(out, run->scenario_text);
	fprintf(out, "</pre></details>\n");
	run_summary(out, run);
	if (run->price_origins && *run->price_origins) {  /* a type priced from a file has its warning below */
		fprintf(out, "<p class=\"prices\">Prices: ");
		report_html_escape(out, run->price_origins);
		fprintf(out, "</p>\n");
	}
	if (run->nwarnings) {
		fprintf(out, "<ul class=\"warn\">\n");
		for (int w = 0; w < run->nwarnings; w++) {
			fprintf(out, "<li><b>");
			report_html_escape(out, run->warnings[w].code);
			fprintf(out, "</b>: ");
			report_html_escape(out, run->warnings[w].message);
			fprintf(out, "</li>\n");
		}
		fprintf(out, "</ul>\n");
	} else {
		fprintf(out, "<p>No warnings.</p>\n");
	}
	run_fleet_cost(out, run);
	report_jobs_section(out, run);
	run_latency_idle(out, run);
	run_hour_table(out, run);
	if (run->exact)
		fprintf(out, "<p class=\"note\">Instances, demand and the mean wait are means of the stored samples in "
			"each hour from the start. Cost, commitment utilisation and coverage are exact, from the run's "
			"bill lines per UTC clock hour (the cost sums to the run's cost by option); utilisation counts "
			"ODCR capacity as a commitment, unlike the run's commitment_utilization. The mean wait is queue "
			"length / arrival rate (Little's law).</p></section>\n");
	else
		fprintf(out, "<p class=\"note\">Approximations: this run has no bill lines stored (a database "
			"written before schema version 6). Hourly series are means of the stored samples in each hour. "
			"The cost per hour spreads each option's cost over its instance-hours (sums to the run's cost "
			"by option); the mean wait is queue length / arrival rate (Little's law); coverage counts "
			"instance time, not On-Demand-priced usage as the run's commitment_coverage does.</p>"
			"</section>\n");
}

/* A compare cell: mean +- half, each to the interval's precision; rates as percentages, money in dollars. */
static const char *interval(const struct compare_ci *ci, const char *metric, char *buf, size_t size)
{
	char m[128], h[128];
	size_t n = strlen(metric);

	if (isnan(ci->mean))
		return "&ndash;";
	if (strstr(metric, "rate") || strstr(metric, "utilization") || strstr(metric, "coverage")) {
		numfmt_percent(ci->mean, ci->half, m, sizeof m);
		if (isnan(ci->half) || ci->half <= 0)
			return snprintf(buf, size, "%s", m), buf;
		numfmt_percent(ci->half, ci->half, h, sizeof h);
		snprintf(buf, size, "%s &plusmn; %s", m, h);
		return buf;
	}
	return numfmt_pm(ci->mean, ci->half, n > 4 && strcmp(metric + n - 4, "_usd") == 0, buf, size);
}

/* The comparison: the Pareto plot of mean cost per month against mean violation rate, then the table. */
static void compare_section(FILE *out, const struct compare *c)
{
	static const char *const cols[] = { "cost_per_month_usd", "slo_violation_rate", "latency_p99_s",
					    "gpu_hours_idle", "commitment_utilization", "commitment_coverage" };
	/* the headers in words with their units, so that they wrap between words (the table fits the page) */
	static const char *const head[] = { "cost per 30-day month (USD)", "SLO violation rate (%)",
					    "latency p99 (s)", "idle GPU-hours (h)", "commitment utilisation (%)",
					    "commitment coverage (%)" };
	int icost = compare_metric_index("cost_per_month_usd"), iviol = compare_metric_index("slo_violation_rate");
	double *x = calloc((size_t)c->npoints, sizeof *x), *y = calloc((size_t)c->npoints, sizeof *y);
	const char **lab = calloc((size_t)c->npoints, sizeof *lab);
	bool *hi = calloc((size_t)c->npoints, sizeof *hi), *bad = calloc((size_t)c->npoints, sizeof *bad);
	int imet = compare_metric_index("slo_met");

	fprintf(out, "<section id=\"compare\"><h2>Comparison of %d points</h2>\n", c->npoints);
	if (x && y && lab && hi && bad) {
		for (int i = 0; i < c->npoints; i++) {
			const struct compare_point *p = &c->points[i];
			x[i] = p->stat[icost].mean;
			y[i] = p->stat[iviol].mean * 100;
			lab[i] = p->id;
			hi[i] = p->pareto;
			bad[i] = p->stat[imet].n > 0 && p->slo_met_runs < p->stat[imet].n;  /* ruled out */
		}
		report_svg_scatter(out, "chart-pareto", "Cost against SLO violations (means over replications)",
				   "cost per 30-day month (USD)", "SLO violation rate (%)", x, y, lab, hi, bad,
				   c->npoints, false, "Pareto front");
	}
	free(x), free(y), free(lab), free(hi), free(bad);
	fprintf(out, "<table><tr><th class=\"l\">point</th><th class=\"l\">parameters</th><th>runs</th>"
		"<th>Pareto</th>");
	for (size_t j = 0; j < sizeof cols / sizeof cols[0]; j++)
		fprintf(out, "<th>%s, mean &plusmn; 95%%</th>", head[j]);
	fprintf(out, "</tr>\n");
	for (int i = 0; i < c->npoints; i++) {
		const struct compare_point *p = &c->points[i];
		char cell[512];

		fprintf(out, "<tr><td class=\"l\">");
		report_html_escape(out, p->id);
		fprintf(out, "</td><td class=\"l\">");
		report_html_escape(out, p->params);
		fprintf(out, "</td><td>%d</td><td>%s</td>", p->nruns, p->pareto ? "&#9733;" : "");
		for (size_t j = 0; j < sizeof cols / sizeof cols[0]; j++) {
			const struct compare_ci *ci = &p->stat[compare_metric_index(cols[j])];
			fprintf(out, "<td>%s</td>", interval(ci, cols[j], cell, sizeof cell));
		}
		fprintf(out, "</tr>\n");
	}
	fprintf(out, "</table><p class=\"note\">Intervals: mean &plusmn; t(0.975, n&minus;1) s/&radic;n over the "
		"point's runs (as gpucap compare). &#9733;: on the Pareto front of mean cost against mean violation "
		"rate.</p></section>\n");
}

/* A session as people name it: the scenario, the growth case, then its id in small ("chat-serving, base
 * growth (session chat-serving#1)"). */
static void session_title(FILE *out, const struct report_session *ss)
{
	const char *hash = strrchr(ss->id, '#');
	char name[256];

	snprintf(name, sizeof name, "%.*s", hash ? (int)(hash - ss->id) : (int)strlen(ss->id), ss->id);
	report_html_escape(out, name);
	if (ss->case_name) {
		fprintf(out, ", ");
		report_html_escape(out, ss->case_name);
		fprintf(out, " growth");
	}
	fprintf(out, " <span class=\"note\">(session ");
	report_html_escape(out, ss->id);
	fprintf(out, ")</span>");
}

/* A recommend session: its commitment-versus-cost curve, the choice marked, and its table. */
static void session_section(FILE *out, const struct report_session *ss, int i)
{
	char id[32];

	snprintf(id, sizeof id, "chart-recommend-%d", i + 1);
	fprintf(out, "<section class=\"recommend\"><h2>Commitment versus cost: ");
	session_title(out, ss);
	fprintf(out, "%s</h2>\n", ss->incomplete ? " (incomplete)" : "");
	if (ss->incomplete)  /* a killed search: its curve is what it had reached, not an answer */
		fprintf(out, "<p class=\"note\">Incomplete: this search was stopped before it ended (its process was "
			"killed or failed), so the curve shows only the %d candidate%s it had finished and nothing is "
			"recommended. Run <code>gpucap recommend</code> again for an answer.</p>\n", ss->ncand,
			ss->ncand == 1 ? "" : "s");
	if (!ss->rec.ok && ss->decision && *ss->decision) {  /* the decision's table says it, when there is one */
		fprintf(out, "<p>The choice: <code>");
		report_html_escape(out, ss->decision);
		fprintf(out, "</code> (recommend_term_method: window extrapolates the simulated window to the term; "
			"fluid and windows follow it. recommend_ladder: KEY=NOW+LATER@HOURS from the term's start; "
			"recommend_owed_after_term_usd: what the later purchase still costs after the term.)</p>\n");
	}
	if (ss->rec.ok) {  /* every candidate, re-billed levels too, and why each one ruled out is */
		report_rec_curve(out, id, ss);
		report_rec_table(out, ss);
		fprintf(out, "</section>\n");
		return;
	}
	report_svg_scatter(out, id, "Commitment versus cost (mean term cost over replications)",
			   "commitment level (count; several varied keys: candidate in order)", "term cost (USD)",
			   ss->x, ss->cost, (const char *const *)ss->cand, ss->chosen, NULL, ss->ncand, true, "recommended");
	fprintf(out, "<table><tr><th>#</th><th class=\"l\">candidate</th><th>term cost (USD)</th>"
		"<th>recommended</th></tr>\n");
	for (int j = 0; j < ss->ncand; j++) {
		fprintf(out, "<tr><td>%d</td><td class=\"l\">", j + 1);
		report_html_escape(out, ss->cand[j]);
		fprintf(out, "</td><td>%s</td><td>%s</td></tr>\n", numfmt_money(ss->cost[j], true, (char[64]){ 0 }, 64),
			ss->chosen[j] ? "&#9733;" : "");
	}
	fprintf(out, "</table></section>\n");
}

/* Why a plan breaks the SLO, over its n runs: the runs warned slo_unreachable, fleet_at_max, those whose jobs
 * missed a deadline, else simply over the SLO. */
static void why_broken(FILE *out, const struct report_why *w, int met, int n)
{
	int k = 0;

	if (w->unreachable)
		k += fprintf(out, "%sSLO unreachable from service time (no capacity keeps it)", k ? "; " : "") > 0;
	if (w->unreachable && n > 1)
		fprintf(out, " in %d of %d runs", w->unreachable, n);
	if (w->at_max)
		k += fprintf(out, "%sfleet at its maximum with requests waiting", k ? "; " : "") > 0;
	if (w->at_max && n > 1)
		fprintf(out, " in %d of %d runs", w->at_max, n);
	if (w->missed)
		k += fprintf(out, "%sa job missed its deadline", k ? "; " : "") > 0;
	if (w->missed && n > 1)
		fprintf(out, " in %d of %d runs", w->missed, n);
	if (!k && n > 1)
		fprintf(out, "over the SLO in %d of %d runs", n - met, n);
	else if (!k)
		fprintf(out, "over the SLO with capacity to spare (none of the reasons above)");
}

/* "over the term (3 years): $X at the window's rate", or that there is no commitment term. */
static void over_term(FILE *out, double usd_per_year, double term_h)
{
	char t[64];

	if (term_h <= 0)
		fprintf(out, "; no reserved or Savings Plan term in the plan");
	else
		fprintf(out, "; %s over its commitments' term (%d year%s) <span class=\"warn\">at the window's rate, "
			"an extrapolation</span>", numfmt_money(usd_per_year * term_h / 8760, false, t, sizeof t),
			term_h > 9000 ? 3 : 1, term_h > 9000 ? "s" : "");
}

/* The compared plans that do not meet the SLO in every run, and why (the evidence for the decision). */
static void ruled_out_section(FILE *out, const struct report *r)
{
	int imet = compare_metric_index("slo_met"), n = 0;

	for (int i = 0; i < r->cmp.npoints; i++) {
		const struct compare_point *p = &r->cmp.points[i];
		n += p->stat[imet].n > 0 && p->slo_met_runs < p->stat[imet].n;
	}
	if (!n)
		return;
	fprintf(out, "<section id=\"ruled-out\"><h2>Plans ruled out: %d of %d do not meet the SLO in every run</h2>\n"
		"<table><tr><th class=\"l\">point</th><th class=\"l\">parameters</th><th>runs meeting the SLO</th>"
		"<th class=\"l\">why</th></tr>\n", n, r->cmp.npoints);
	for (int i = 0; i < r->cmp.npoints; i++) {
		const struct compare_point *p = &r->cmp.points[i];
		int runs = p->stat[imet].n;
		if (runs == 0 || p->slo_met_runs == runs)
			continue;
		fprintf(out, "<tr class=\"infeasible\"><td class=\"l\">");
		report_html_escape(out, p->id);
		fprintf(out, "</td><td class=\"l\">");
		report_html_escape(out, p->params);
		fprintf(out, "</td><td>%d of %d</td><td class=\"l\">&#10007; ", p->slo_met_runs, runs);
		why_broken(out, &r->why[i], p->slo_met_runs, runs);
		fprintf(out, "</td></tr>\n");
	}
	fprintf(out, "</table></section>\n");
}

/* A recommend session's part of the decision: the chosen candidate and its term cost, or why none. */
static void decision_session(FILE *out, const struct report_session *ss)
{
	char usd[64];

	fprintf(out, "<li>Recommend: <b>");
	session_title(out, ss);
	fprintf(out, "</b>%s", ss->rec.ok ? "" : ": ");
	if (ss->rec.ok) {  /* the whole decision, as recommend made it */
		fprintf(out, "</li></ul>\n");
		report_rec_decision(out, ss);
		fprintf(out, "<ul>\n");
		return;
	}
	for (int j = 0; j < ss->ncand; j++)
		if (ss->chosen[j]) {
			fprintf(out, "buy <b>");
			report_html_escape(out, ss->cand[j]);
			fprintf(out, "</b>, %s over the term (the mean of its replications; the candidates and how the "
				"choice was made are below).</li>\n", numfmt_money(ss->cost[j], false, usd, sizeof usd));
			return;
		}
	fprintf(out, "%s</li>\n", ss->incomplete ? "no answer: the search was stopped before it ended" :
		"no candidate meets the SLO: nothing is recommended");
}

/* The compared points' part: the cheapest point whose every run met the SLO, per month and per year. */
static void decision_points(FILE *out, const struct compare *c, const struct report_why *why)
{
	int ruled = 0;
	int icost = compare_metric_index("cost_per_month_usd"), imet = compare_metric_index("slo_met");
	const struct compare_point *best = NULL;
	char m[64], y[64];

	for (int i = 0; i < c->npoints; i++) {
		const struct compare_point *p = &c->points[i];
		if (p->stat[imet].n > 0 && p->slo_met_runs == p->stat[imet].n &&
		    (!best || p->stat[icost].mean < best->stat[icost].mean))
			best = p;
	}
	fprintf(out, "<li>");
	if (!best) {
		fprintf(out, "Of the %d plans compared, none met the SLO in every run (or the runs state no SLO "
			"verdict): see the comparison below.</li>\n", c->npoints);
		return;
	}
	fprintf(out, "The cheapest of the %d plans compared that met the SLO in every run: <b>", c->npoints);
	report_html_escape(out, best->id);
	fprintf(out, "</b>");
	if (*best->params) {
		fprintf(out, " (<code>");
		report_html_escape(out, best->params);
		fprintf(out, "</code>)");
	}
	fprintf(out, ", %s per 30-day month, %s per year at that rate", numfmt_money(best->stat[icost].mean, false, m,
		sizeof m), numfmt_money(best->stat[icost].mean * 8760 / 720, false, y, sizeof y));
	over_term(out, best->stat[icost].mean * 8760 / 720, why ? why[best - c->points].term_h : 0);
	fprintf(out, " (the mean of %d run%s).", best->nruns, best->nruns == 1 ? "" : "s");
	for (int i = 0; i < c->npoints; i++)
		ruled += c->points[i].stat[imet].n > 0 && c->points[i].slo_met_runs < c->points[i].stat[imet].n;
	if (ruled)
		fprintf(out, " %d of the %d plans do not meet the SLO in every run: <i>Plans ruled out</i> below says why.",
			ruled, c->npoints);
	fprintf(out, "</li>\n");
}

/* A single run's part: its SLO verdict and what it costs per month and per year, and what it still owes. */
static void decision_run(FILE *out, const struct report_run *run)
{
	double met = report_metric(run, "slo_met"), owed = report_metric(run, "commitment_after_horizon_usd");
	char m[64], y[64], o[64];

	fprintf(out, "<li>Run %lld (", (long long)run->run_id);
	report_html_escape(out, run->name);
	fprintf(out, "): %s; %s per 30-day month, %s per year at the window's rate",
		isnan(met) ? "the scenario states no SLO verdict" : met == 1 ? "<b>meets its SLO</b>" :
		"<b>breaks its SLO</b>",
		numfmt_money(report_metric(run, "cost_per_month_usd"), false, m, sizeof m),
		numfmt_money(report_metric(run, "cost_per_year_usd"), false, y, sizeof y));
	over_term(out, report_metric(run, "cost_per_year_usd"), run->term_h);
	if (!isnan(report_metric(run, "jobs_submitted")))  /* the jobs' verdict: their deadlines */
		fprintf(out, "; training jobs: %.0f of %.0f submitted completed, <b%s>%.0f missed a deadline</b>",
			report_metric(run, "jobs_completed"), report_metric(run, "jobs_submitted"),
			report_metric(run, "jobs_missed_deadline") > 0 ? " class=\"bad\"" : "",
			report_metric(run, "jobs_missed_deadline"));
	if (!isnan(owed) && owed > 0)
		fprintf(out, "; commitments still owed after the window: %s", numfmt_money(owed, false, o, sizeof o));
	if (met == 0) {
		struct report_why w = { .missed = report_metric(run, "jobs_missed_deadline") > 0 };
		for (int i = 0; i < run->nwarnings; i++) {
			w.unreachable |= strcmp(run->warnings[i].code, "slo_unreachable") == 0;
			w.at_max |= strcmp(run->warnings[i].code, "fleet_at_max") == 0;
		}
		fprintf(out, ". Why it breaks the SLO: ");
		why_broken(out, &w, 0, 1);
	}
	fprintf(out, ".</li>\n");
}

/*
 * Page one is the decision: what the evidence below says to do, first. For recommend searches, what each
 * chose and its term cost; for compared plans, the cheapest that met the SLO in every run, per month and per
 * year; for a single run, its SLO verdict and cost. The charts and tables follow as the evidence.
 */
static void decision_section(FILE *out, const struct report *r)
{
	bool base_rec = false;

	fprintf(out, "<section id=\"decision\"><h2>The decision</h2>\n<ul>\n");
	for (int i = 0; i < r->nsessions; i++)
		base_rec |= r->sessions[i].rec.ok && r->sessions[i].rec.growth;
	for (int i = 0; i < r->nsessions; i++) {
		const char *k = r->sessions[i].case_name;
		if (base_rec && k && strcmp(k, "base") != 0)
			continue;  /* the base search's regret row speaks for the low and high growth searches */
		decision_session(out, &r->sessions[i]);
	}
	if (r->ncmp)
		decision_points(out, &r->cmp, r->why);
	else if (r->nruns == 1 && r->nsessions == 0)
		decision_run(out, &r->runs[0]);
	if (!r->ncmp && r->nsessions == 0 && r->nruns != 1)
		fprintf(out, "<li>Nothing to decide: no run in this report.</li>\n");
	fprintf(out, "</ul></section>\n");
}

int report_write_html(const struct report *r, FILE *out)
{
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<meta name=\"viewport\" content=\"width=device-width\"><title>gpucap report</title>"
		"<style>%s%s</style></head><body>\n<h1>gpucap report</h1>\n<p>Results database <code>", style,
		style_decision);
	report_html_escape(out, r->db);
	fprintf(out, "</code>, gpucap %s.</p>\n", GPUCAP_VERSION);
	decision_section(out, r);
	if (r->ncmp) {
		compare_section(out, &r->cmp);
		ruled_out_section(out, r);
	}
	for (int i = 0; i < r->nsessions; i++)
		session_section(out, &r->sessions[i], i);
	for (int i = 0; i < r->nruns; i++)
		run_section(out, &r->runs[i]);
	fprintf(out, "</body></html>\n");
	return ferror(out) ? STATUS_EIO : STATUS_OK;
}
