/*
 * compare_print: the outputs of `gpucap compare` (contract in compare.h): a table for people (four
 * blocks of at most 120 columns), the same figures as Markdown tables (GitHub style) for a ticket, JSON and
 * CSV for scripts. NaN (undefined: no value, or n < 2 for an
 * interval) is "-" in the table, null in JSON and empty in CSV.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "status.h"

static int M(const char *name)
{
	return compare_metric_index(name);
}

/* "mean +- half" with `dec` decimals; "-" parts when undefined. */
static void fmt_pm(char *buf, size_t size, double mean, double half, int dec)
{
	if (isnan(mean))
		snprintf(buf, size, "-");
	else if (isnan(half))
		snprintf(buf, size, "%.*f", dec, mean);
	else
		snprintf(buf, size, "%.*f +- %.*f", dec, mean, dec, half);
}

static void fmt_num(char *buf, size_t size, double v, int dec)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.*f", dec, v);
}

/* A difference: "diff +- half" and "*" when significant. */
static void fmt_diff(char *buf, size_t size, const struct compare_diff *df, int dec)
{
	char pm[48];

	fmt_pm(pm, sizeof pm, df->n > 0 ? df->diff : NAN, df->half, dec);
	snprintf(buf, size, "%s%s", pm, df->significant ? " *" : "");
}

static int id_width(const struct compare *c)
{
	int w = 5;

	for (int i = 0; i < c->npoints; i++) {
		int n = (int)strlen(c->points[i].id);
		w = n > w ? n : w;
	}
	return w > 40 ? 40 : w;
}

static void print_points(const struct compare *c, FILE *out, int w)
{
	fprintf(out, "points (what differs):\n");
	for (int i = 0; i < c->npoints; i++) {
		const struct compare_point *p = &c->points[i];
		fprintf(out, "  %-*s  %s%s", w, p->id, p->params[0] ? p->params : "(no overrides)",
			i == c->baseline ? "  [baseline]" : "");
		if (p->nfailed)
			fprintf(out, "  [%d of %d runs failed; the %d ok used]", p->nfailed, p->nfailed + p->nruns,
				p->nruns);
		if (p->nruns < p->nreps)
			fprintf(out, "  [short: %d of %d replications]", p->nruns, p->nreps);
		fputc('\n', out);
	}
}

static void print_cost_slo(const struct compare *c, FILE *out, int w)
{
	char a[64], b[64], e[64], f[64];

	fprintf(out, "\ncost and SLO (mean +- 95%% half-width; * on the Pareto front of cost/month against violation rate)\n");
	fprintf(out, "%-*s %1s %3s  %-22s %-20s %-21s %-7s %s\n", w, "point", "", "n", "cost/month $", "cost $ (run)",
		"SLO violation rate", "SLO met", "idle GPU-h");
	for (int i = 0; i < c->npoints; i++) {
		const struct compare_point *p = &c->points[i];
		const struct compare_ci *s = p->stat;
		char met[16];
		fmt_pm(a, sizeof a, s[M("cost_per_month_usd")].mean, s[M("cost_per_month_usd")].half, 0);
		fmt_pm(b, sizeof b, s[M("cost_total_usd")].mean, s[M("cost_total_usd")].half, 2);
		fmt_pm(e, sizeof e, s[M("slo_violation_rate")].mean, s[M("slo_violation_rate")].half, 5);
		fmt_pm(f, sizeof f, s[M("gpu_hours_idle")].mean, s[M("gpu_hours_idle")].half, 1);
		if (s[M("slo_met")].n > 0)
			snprintf(met, sizeof met, "%d/%d", p->slo_met_runs, s[M("slo_met")].n);
		else
			snprintf(met, sizeof met, "-");  /* no verdict: the scenario sets no slo.max_violation_rate */
		fprintf(out, "%-*s %1s %3d  %-22s %-20s %-21s %-7s %s\n", w, p->id, p->pareto ? "*" : "", p->nruns, a, b,
			e, met, f);
	}
}

static void print_latency(const struct compare *c, FILE *out, int w)
{
	static const char *const names[] = { "latency_p50_s", "latency_p95_s", "latency_p99_s", "ttft_p50_s",
					     "ttft_p95_s", "ttft_p99_s", "commitment_utilization",
					     "commitment_coverage" };
	char v[32];

	fprintf(out, "\nlatency and TTFT percentiles (s), commitments (means over the replications; --json has intervals)\n");
	fprintf(out, "%-*s  %9s %9s %9s %9s %9s %9s %11s %9s\n", w, "point", "lat p50", "lat p95", "lat p99",
		"ttft p50", "ttft p95", "ttft p99", "commit use", "coverage");
	for (int i = 0; i < c->npoints; i++) {
		fprintf(out, "%-*s ", w, c->points[i].id);
		for (int k = 0; k < 8; k++) {
			fmt_num(v, sizeof v, c->points[i].stat[M(names[k])].mean, 3);
			fprintf(out, k == 6 ? " %11s" : " %9s", v);
		}
		fputc('\n', out);
	}
}

static void print_options(const struct compare *c, FILE *out, int w)
{
	static const char *const names[] = { "cost_reserved_usd", "cost_on_demand_usd", "cost_spot_usd",
					     "cost_odcr_usd", "cost_savings_plan_usd", "cost_capacity_block_usd",
					     "cost_training_plan_usd", "cost_total_usd" };
	char v[32];

	fprintf(out, "\ncost by option over the run ($, means)\n");
	fprintf(out, "%-*s  %11s %11s %11s %11s %11s %11s %11s %11s\n", w, "point", "reserved", "on-demand", "spot",
		"odcr", "savings pl.", "cap. block", "train. plan", "total");
	for (int i = 0; i < c->npoints; i++) {
		fprintf(out, "%-*s ", w, c->points[i].id);
		for (int k = 0; k < 8; k++) {
			fmt_num(v, sizeof v, c->points[i].stat[M(names[k])].mean, 2);
			fprintf(out, " %11s", v);
		}
		fputc('\n', out);
	}
}

static void print_diffs(const struct compare *c, FILE *out, int w)
{
	char a[64], b[64], e[64], f[64];
	int cost = M("cost_per_month_usd"), viol = M("slo_violation_rate");

	fprintf(out, "\nagainst the baseline %s (point - baseline, 95%% interval; * significant: the interval "
		"excludes 0\nand the difference is more than %.4g%% of the larger mean, --min-effect)\n",
		c->points[c->baseline].id, 100 * c->min_effect);
	fprintf(out, "%-*s %3s  %-21s %-21s %s\n", w, "", "", "cost/month $", "", "SLO violation rate");
	fprintf(out, "%-*s %3s  %-21s %-21s %-21s %s\n", w, "point", "n", "paired (same seeds)", "unpaired (Welch)",
		"paired (same seeds)", "unpaired (Welch)");
	for (int i = 0; i < c->npoints; i++) {
		const struct compare_point *p = &c->points[i];
		if (i == c->baseline) {
			fprintf(out, "%-*s %3d  (baseline)\n", w, p->id, p->nruns);
			continue;
		}
		fmt_diff(a, sizeof a, &p->paired[cost], 0);
		fmt_diff(b, sizeof b, &p->welch[cost], 0);
		fmt_diff(e, sizeof e, &p->paired[viol], 5);
		fmt_diff(f, sizeof f, &p->welch[viol], 5);
		fprintf(out, "%-*s %3d  %-21s %-21s %-21s %s\n", w, p->id, p->paired[cost].n, a, b, e, f);
	}
}

int compare_print_table(const struct compare *c, FILE *out)
{
	int w = id_width(c);

	fprintf(out, "gpucap compare: %d point%s from %s; 95%% intervals: mean +- t(0.975, n-1) s/sqrt(n)\n\n",
		c->npoints, c->npoints == 1 ? "" : "s", c->db);
	print_points(c, out, w);
	print_cost_slo(c, out, w);
	print_latency(c, out, w);
	print_options(c, out, w);
	print_diffs(c, out, w);
	return ferror(out) ? STATUS_EIO : STATUS_OK;
}

/* ---- Markdown ---- */

/* A table cell: text with "|" escaped, and no line break (GitHub-flavoured Markdown). */
static void mcell(FILE *out, const char *s)
{
	fputs("| ", out);
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			fputc('\\', out);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
	}
	fputc(' ', out);
}

/* A header row of n columns and its rule; the first column left-aligned, the others right-aligned. */
static void mheader(FILE *out, const char *const *names, int n)
{
	for (int k = 0; k < n; k++)
		fprintf(out, "| %s ", names[k]);
	fputs("|\n", out);
	for (int k = 0; k < n; k++)
		fputs(k ? "| ---: " : "| :--- ", out);
	fputs("|\n", out);
}

/* "mean ± half" in Markdown (the text table's "+-"). */
static void mpm(FILE *out, double mean, double half, int dec)
{
	char buf[64], *pm;

	fmt_pm(buf, sizeof buf, mean, half, dec);
	pm = strstr(buf, " +- ");
	if (pm)
		fprintf(out, "| %.*s ± %s ", (int)(pm - buf), buf, pm + 4);
	else
		fprintf(out, "| %s ", buf);
}

static void mdiff(FILE *out, const struct compare_diff *df, int dec)
{
	mpm(out, df->n > 0 ? df->diff : NAN, df->half, dec);
	if (df->significant)
		fputs("\\* ", out);
}

int compare_print_md(const struct compare *c, FILE *out)
{
	static const char *const h_points[] = { "point", "what differs", "runs", "failed", "baseline" };
	static const char *const h_cost[] = { "point", "Pareto", "n", "cost/month $", "cost $ (run)",
					      "SLO violation rate", "SLO met", "idle GPU-h" };
	static const char *const h_lat[] = { "point", "lat p50", "lat p95", "lat p99", "ttft p50", "ttft p95",
					     "ttft p99", "commit use", "coverage" };
	static const char *const n_lat[] = { "latency_p50_s", "latency_p95_s", "latency_p99_s", "ttft_p50_s",
					     "ttft_p95_s", "ttft_p99_s", "commitment_utilization",
					     "commitment_coverage" };
	static const char *const h_opt[] = { "point", "reserved", "on-demand", "spot", "odcr", "savings plan",
					     "capacity block", "training plan", "total" };
	static const char *const n_opt[] = { "cost_reserved_usd", "cost_on_demand_usd", "cost_spot_usd",
					     "cost_odcr_usd", "cost_savings_plan_usd", "cost_capacity_block_usd",
					     "cost_training_plan_usd", "cost_total_usd" };
	static const char *const h_diff[] = { "point", "n", "cost/month $ paired (same seeds)",
					      "cost/month $ unpaired (Welch)", "violation rate paired (same seeds)",
					      "violation rate unpaired (Welch)" };
	int cost = M("cost_per_month_usd"), viol = M("slo_violation_rate");
	char v[32];

	fprintf(out, "**gpucap compare**: %d point%s from `%s`; 95%% intervals: mean ± t(0.975, n-1) s/sqrt(n)\n\n",
		c->npoints, c->npoints == 1 ? "" : "s", c->db);
	fputs("### Points\n\n", out);
	mheader(out, h_points, 5);
	for (int i = 0; i < c->npoints; i++) {
		const struct compare_point *p = &c->points[i];
		mcell(out, p->id);
		mcell(out, p->params[0] ? p->params : "(no overrides)");
		fprintf(out, "| %d", p->nruns + p->nfailed);
		if (p->nruns < p->nreps)
			fprintf(out, " (short: %d of %d replications)", p->nruns, p->nreps);
		fprintf(out, " | %d | %s |\n", p->nfailed, i == c->baseline ? "yes" : "");
	}
	fputs("\n### Cost and SLO\n\nMean ± 95% half-width; Pareto: on the front of cost/month against violation "
	      "rate.\n\n", out);
	mheader(out, h_cost, 8);
	for (int i = 0; i < c->npoints; i++) {
		const struct compare_point *p = &c->points[i];
		const struct compare_ci *s = p->stat;
		mcell(out, p->id);
		fprintf(out, "| %s | %d ", p->pareto ? "yes" : "", p->nruns);
		mpm(out, s[cost].mean, s[cost].half, 0);
		mpm(out, s[M("cost_total_usd")].mean, s[M("cost_total_usd")].half, 2);
		mpm(out, s[viol].mean, s[viol].half, 5);
		if (s[M("slo_met")].n > 0)
			fprintf(out, "| %d/%d ", p->slo_met_runs, s[M("slo_met")].n);
		else
			fputs("| - ", out);
		mpm(out, s[M("gpu_hours_idle")].mean, s[M("gpu_hours_idle")].half, 1);
		fputs("|\n", out);
	}
	fputs("\n### Latency and TTFT percentiles (s), commitments\n\nMeans over the replications.\n\n", out);
	mheader(out, h_lat, 9);
	for (int i = 0; i < c->npoints; i++) {
		mcell(out, c->points[i].id);
		for (int k = 0; k < 8; k++) {
			fmt_num(v, sizeof v, c->points[i].stat[M(n_lat[k])].mean, 3);
			fprintf(out, "| %s ", v);
		}
		fputs("|\n", out);
	}
	fputs("\n### Cost by option over the run ($, means)\n\n", out);
	mheader(out, h_opt, 9);
	for (int i = 0; i < c->npoints; i++) {
		mcell(out, c->points[i].id);
		for (int k = 0; k < 8; k++) {
			fmt_num(v, sizeof v, c->points[i].stat[M(n_opt[k])].mean, 2);
			fprintf(out, "| %s ", v);
		}
		fputs("|\n", out);
	}
	fputs("\n### Against the baseline ", out);
	for (const char *s = c->points[c->baseline].id; *s; s++)
		fprintf(out, strchr("|\\*_`", *s) ? "\\%c" : "%c", *s);
	fprintf(out, "\n\nPoint - baseline, 95%% interval; \\* significant: the interval excludes 0 and the "
		"difference is more than %.4g%% of the larger mean (`--min-effect`).\n\n", 100 * c->min_effect);
	mheader(out, h_diff, 6);
	for (int i = 0; i < c->npoints; i++) {
		const struct compare_point *p = &c->points[i];
		mcell(out, p->id);
		if (i == c->baseline) {
			fprintf(out, "| %d | (baseline) | | | |\n", p->nruns);
			continue;
		}
		fprintf(out, "| %d ", p->paired[cost].n);
		mdiff(out, &p->paired[cost], 0);
		mdiff(out, &p->welch[cost], 0);
		mdiff(out, &p->paired[viol], 5);
		mdiff(out, &p->welch[viol], 5);
		fputs("|\n", out);
	}
	return ferror(out) ? STATUS_EIO : STATUS_OK;
}

/* ---- JSON ---- */

static void jnum(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", out);
	else
		fprintf(out, "%.17g", v);
}

static void jstr(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

static void jdiff(FILE *out, const struct compare_diff *df)
{
	fprintf(out, "{\"n\": %d, \"diff\": ", df->n);
	jnum(out, df->n > 0 ? df->diff : NAN);
	fputs(", \"se\": ", out);
	jnum(out, df->se);
	fputs(", \"df\": ", out);
	jnum(out, df->df);
	fputs(", \"ci95\": ", out);
	jnum(out, df->half);
	fprintf(out, ", \"significant\": %s}", df->significant ? "true" : "false");
}

static void jpoint(const struct compare *c, int i, FILE *out)
{
	const struct compare_point *p = &c->points[i];

	fputs("    {\"id\": ", out);
	jstr(out, p->id);
	fputs(", \"params\": ", out);
	jstr(out, p->params);
	fprintf(out, ", \"baseline\": %s, \"runs\": %d, \"failed\": %d, \"slo_met_runs\": %d, \"pareto\": %s,\n",
		i == c->baseline ? "true" : "false", p->nruns, p->nfailed, p->slo_met_runs, p->pareto ? "true" : "false");
	/* a sweep point's replications, and whether it has fewer 'ok' runs than that (null for a run) */
	if (p->nreps)
		fprintf(out, "     \"replications\": %d, \"short\": %s,\n", p->nreps, p->nruns < p->nreps ? "true" : "false");
	else
		fputs("     \"replications\": null, \"short\": false,\n", out);
	fputs("     \"run_ids\": [", out);
	for (int r = 0; r < p->nruns; r++)
		fprintf(out, "%s%lld", r ? ", " : "", (long long)p->run_ids[r]);
	fputs("],\n     \"metrics\": {", out);
	for (int m = 0; m < COMPARE_NMETRICS; m++) {
		const struct compare_ci *s = &p->stat[m];
		fprintf(out, "%s\n      \"%s\": {\"n\": %d, \"mean\": ", m ? "," : "", compare_metrics[m], s->n);
		jnum(out, s->mean);
		fputs(", \"sd\": ", out);
		jnum(out, s->sd);
		fputs(", \"se\": ", out);
		jnum(out, s->se);
		fputs(", \"ci95\": ", out);
		jnum(out, s->half);
		fputs(", \"paired\": ", out);
		jdiff(out, &p->paired[m]);
		fputs(", \"welch\": ", out);
		jdiff(out, &p->welch[m]);
		fputc('}', out);
	}
	fputs("}}", out);
}

int compare_print_json(const struct compare *c, FILE *out)
{
	fputs("{\"database\": ", out);
	jstr(out, c->db);
	fprintf(out, ", \"confidence\": 0.95, \"min_effect\": %.17g, \"baseline\": ", c->min_effect);
	jstr(out, c->points[c->baseline].id);
	fputs(",\n  \"points\": [\n", out);
	for (int i = 0; i < c->npoints; i++) {
		jpoint(c, i, out);
		fputs(i + 1 < c->npoints ? ",\n" : "\n", out);
	}
	fputs("  ]}\n", out);
	return ferror(out) ? STATUS_EIO : STATUS_OK;
}

/* ---- CSV: one row per (point, metric) ---- */

static void cnum(FILE *out, double v)
{
	if (!isnan(v) && !isinf(v))
		fprintf(out, "%.17g", v);
}

static void cstr(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void cdiff(FILE *out, const struct compare_diff *df)
{
	fprintf(out, ",%d,", df->n);
	cnum(out, df->n > 0 ? df->diff : NAN);
	fputc(',', out);
	cnum(out, df->se);
	fputc(',', out);
	cnum(out, df->df);
	fputc(',', out);
	cnum(out, df->half);
	fprintf(out, ",%d", df->significant ? 1 : 0);
}

int compare_print_csv(const struct compare *c, FILE *out)
{
	fputs("point,params,baseline,runs,failed,pareto,metric,n,mean,sd,se,ci95,paired_n,paired_diff,paired_se,"
	      "paired_df,paired_ci95,paired_significant,welch_n,welch_diff,welch_se,welch_df,welch_ci95,"
	      "welch_significant\n", out);
	for (int i = 0; i < c->npoints; i++) {
		const struct compare_point *p = &c->points[i];
		for (int m = 0; m < COMPARE_NMETRICS; m++) {
			const struct compare_ci *s = &p->stat[m];
			cstr(out, p->id);
			fputc(',', out);
			cstr(out, p->params);
			fprintf(out, ",%d,%d,%d,%d,%s,%d,", i == c->baseline, p->nruns, p->nfailed, p->pareto,
				compare_metrics[m], s->n);
			cnum(out, s->mean);
			fputc(',', out);
			cnum(out, s->sd);
			fputc(',', out);
			cnum(out, s->se);
			fputc(',', out);
			cnum(out, s->half);
			cdiff(out, &p->paired[m]);
			cdiff(out, &p->welch[m]);
			fputc('\n', out);
		}
	}
	return ferror(out) ? STATUS_EIO : STATUS_OK;
}
