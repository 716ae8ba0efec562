/*
 * report_html_rec: the recommend parts of the report's page (report_html.c), from a search's stored result
 * (report_rec.h): page one's decision (what to buy, for how long and from when; the cost over the term
 * against on-demand only and the savings; the SLO verdict and the risk; the regret under low and high growth;
 * what is still owed after the term; how the term was priced) and the candidates' table, each candidate that
 * breaks the SLO marked and why. Every figure is recommend's own (its --json), printed for people (numfmt.h).
 */
#include "report_html_rec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "numfmt.h"
#include "report_svg.h"

/* An option as a planner names what is bought. */
static const char *bought(const char *option)
{
	static const struct { const char *option, *name; } names[] = {
		{ "reserved", "reserved instances" }, { "odcr", "On-Demand Capacity Reservations" },
		{ "capacity_block", "Capacity Block instances" }, { "training_plan", "training-plan instances" },
		{ "on_demand", "On-Demand instances at most (a ceiling, nothing bought ahead)" },
		{ "spot", "Spot instances at most (a ceiling, nothing bought ahead)" },
		{ "savings_plan", "Savings Plan" },
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(option, names[i].option) == 0)
			return names[i].name;
	return option;
}

static const char *money(double usd, char *buf, size_t size)
{
	return isnan(usd) ? "&ndash;" : numfmt_money(usd, false, buf, size);
}

/* "1 year (8,760 h)" */
static void term(FILE *out, double term_h)
{
	char h[32];

	if (fabs(term_h - 8760) < 0.5 || fabs(term_h - 26280) < 0.5)
		fprintf(out, "%d year%s (%s h)", term_h > 9000 ? 3 : 1, term_h > 9000 ? "s" : "",
			numfmt_fixed(term_h, 0, h, sizeof h));
	else
		fprintf(out, "%s h", numfmt_fixed(term_h, 0, h, sizeof h));
}

static void date(FILE *out, double unix_s)
{
	time_t t;
	struct tm tm;
	char buf[32];

	if (!isfinite(unix_s) || fabs(unix_s) > 1e12)
		return;
	t = (time_t)llround(unix_s);
	if (!gmtime_r(&t, &tm))
		return;
	strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
	fputs(buf, out);
}

const char *report_rec_why(const struct report_rec *rec, const struct report_cand *c, char *buf, size_t size)
{
	char v[64];

	if (c->invalid[0])
		snprintf(buf, size, "not a valid scenario: %s", c->invalid);
	else if (c->feasible)
		snprintf(buf, size, "%s", "");
	else if (c->slo_unreachable)
		snprintf(buf, size, "SLO unreachable from service time: no capacity keeps it");
	else if (c->at_max_reps > 0)
		snprintf(buf, size, "fleet at its maximum with requests waiting in %d of %d replications", c->at_max_reps,
			 rec->replications);
	else
		snprintf(buf, size, "breaks the SLO: kept in %d of %d replications, worst violation rate %s",
			 c->slo_met_reps, rec->replications, numfmt_percent(c->violation_worst, NAN, v, sizeof v));
	return buf;
}

/* What the choice buys: each varied level in words, then the Savings Plan. */
static void buy(FILE *out, const struct report_rec *rec, const struct report_cand *c)
{
	char usd[64];
	int n = 0;

	for (int i = 0; i < rec->nvary; i++) {
		fprintf(out, "%s<b>%d</b> %s (<code>", n++ ? "; " : "", c->counts[i], bought(rec->vary_option[i]));
		report_html_escape(out, rec->vary_key[i]);
		fprintf(out, "</code>)");
	}
	if (!isnan(c->sp_usd_per_h))
		fprintf(out, "%s%s", n++ ? "; " : "", c->sp_usd_per_h > 0 ? "a Savings Plan of <b>" : "no Savings Plan");
	if (!isnan(c->sp_usd_per_h) && c->sp_usd_per_h > 0)
		fprintf(out, "%s per hour</b>", numfmt_money(c->sp_usd_per_h, true, usd, sizeof usd));
	if (!n)
		fprintf(out, "the scenario's plan as it is");
}

static void row(FILE *out, const char *what)
{
	fprintf(out, "<tr><th class=\"l\">%s</th><td class=\"l\">", what);
}

/* The regret row: what the choice costs above each growth case's own best, and each case's best. */
static void regret(FILE *out, const struct report_rec *rec)
{
	char a[64], b[64];

	row(out, "Regret if growth differs");
	if (!rec->growth) {
		fprintf(out, "not examined: <code>gpucap recommend --growth LOW,BASE,HIGH</code> prices the choice "
			"under other traffic</td></tr>\n");
		return;
	}
	for (int k = 0; k < 2; k++) {
		double r = k ? rec->regret_high : rec->regret_low, scale = k ? rec->scale_high : rec->scale_low;
		const char *best = k ? rec->best_high : rec->best_low;
		fprintf(out, "%s growth (traffic &times; %s): ", k ? "<br>high" : "low", numfmt_sig(scale, 3, a,
			sizeof a));
		if (rec->best < 0)
			fprintf(out, "no choice at base to price");
		else if (isinf(r))
			fprintf(out, "the choice <b class=\"bad\">breaks the SLO</b>");
		else if (!isnan(r))
			fprintf(out, "the choice costs %s over the term, <b>%s</b> more than the best candidate bought as "
				"at base", money(k ? rec->cost_high : rec->cost_low, b, sizeof b), money(r, a, sizeof a));
		else
			fprintf(out, "no candidate bought as at base keeps the SLO");
		if (best[0]) {
			fprintf(out, "; searched afresh at that traffic: <code>");
			report_html_escape(out, best);
			fprintf(out, "</code>, %s", money(k ? rec->best_high_cost : rec->best_low_cost, a, sizeof a));
		} else {
			fprintf(out, "; searched afresh at that traffic, no plan keeps the SLO");
		}
	}
	if (rec->best >= 0 && !isnan(rec->regret_worst) && !isinf(rec->regret_worst))
		fprintf(out, "<br>worst regret <b>%s</b>", money(rec->regret_worst, a, sizeof a));
	fprintf(out, "</td></tr>\n");
}

/* How many candidates break the SLO, by why. */
static void infeasible(FILE *out, const struct report_rec *rec)
{
	int n = 0, unreachable = 0, at_max = 0, invalid = 0;

	for (int i = 0; i < rec->ncand; i++) {
		const struct report_cand *c = &rec->cand[i];
		n += !c->feasible;
		invalid += c->invalid[0] != 0;
		unreachable += !c->invalid[0] && !c->feasible && c->slo_unreachable;
		at_max += !c->invalid[0] && !c->feasible && !c->slo_unreachable && c->at_max_reps > 0;
	}
	row(out, "Candidates ruled out");
	if (!n) {
		fprintf(out, "none: all %d candidates keep the SLO</td></tr>\n", rec->ncand);
		return;
	}
	fprintf(out, "%d of %d break the SLO (marked &#10007; in the table below): %d with the SLO unreachable from "
		"service time, %d with the fleet at its maximum, %d not valid scenarios, %d over the SLO in a replication"
		"</td></tr>\n",
		n, rec->ncand, unreachable, at_max, invalid, n - unreachable - at_max - invalid);
}

static void method(FILE *out, const struct report_rec *rec)
{
	row(out, "How the term was priced");
	if (strcmp(rec->term_method, "window") == 0)
		fprintf(out, "<span class=\"warn\">extrapolated: the simulated window's cost per hour &times; the term's "
			"hours (traffic growth within the term is not followed; <code>--term fluid</code> or "
			"<code>windows</code> follow it)</span>");
	else if (strcmp(rec->term_method, "fluid") == 0)
		fprintf(out, "one fluid run over the whole term (an approximation of the queue; the choice was checked "
			"by simulation)");
	else
		fprintf(out, "day-long windows simulated across the term");
	fprintf(out, "</td></tr>\n");
}

void report_rec_decision(FILE *out, const struct report_session *ss)
{
	const struct report_rec *rec = &ss->rec;
	const struct report_cand *c = rec->best >= 0 ? &rec->cand[rec->best] : NULL;
	char a[64], b[64], p[64];

	fprintf(out, "<table class=\"decision\">\n");
	row(out, "Buy");
	if (c)
		buy(out, rec, c);
	else
		fprintf(out, "<b class=\"bad\">nothing: no candidate keeps the SLO</b> (%s", rec->none_reason);
	if (!c && rec->none_message[0]) {
		fputs(": ", out);
		report_html_escape(out, rec->none_message);
	}
	fprintf(out, "%s</td></tr>\n", c ? "" : ")");
	row(out, "Term");
	term(out, rec->term_h);
	fprintf(out, " from ");
	date(out, rec->start_unix_s);
	if (rec->ladder) {
		fprintf(out, "; a ladder costs less: <b>%d</b> of <code>", rec->ladder_now);
		report_html_escape(out, rec->ladder_key);
		fprintf(out, "</code> at the start and <b>%d</b> more from ", rec->ladder_later);
		date(out, rec->start_unix_s + rec->ladder_at_h * 3600);
		fprintf(out, " (%s over the term)", money(rec->ladder_cost_term, a, sizeof a));
	}
	fprintf(out, "</td></tr>\n");
	if (c) {
		row(out, "Cost over the term");
		fprintf(out, "<b>%s</b> (%s per 30-day month; the mean of %d replication%s)",
			money(c->cost_term, a, sizeof a), money(c->cost_month, b, sizeof b), rec->replications,
			rec->replications == 1 ? "" : "s");
		fprintf(out, "</td></tr>\n");
	}
	row(out, "On-demand only");
	if (rec->od_ok)
		fprintf(out, "%s over the term (%s per month); %s", money(rec->od.cost_term, a, sizeof a),
			money(rec->od.cost_month, b, sizeof b), rec->od.feasible ? "keeps the SLO" :
			"<span class=\"bad\">breaks the SLO</span>");
	else
		fprintf(out, "not simulated: that fleet is not a valid scenario");
	fprintf(out, "</td></tr>\n");
	if (c && !isnan(rec->savings_term)) {
		row(out, "Savings");
		fprintf(out, "<b>%s over the term</b> (%s of on-demand only), %s per month",
			money(rec->savings_term, a, sizeof a),
			rec->od.cost_term > 0 ? numfmt_percent(rec->savings_term / rec->od.cost_term, NAN, p, sizeof p) :
			"&ndash;", money(rec->savings_month, b, sizeof b));
		fprintf(out, "</td></tr>\n");
	}
	if (c) {
		row(out, "SLO");
		fprintf(out, "<b>kept</b> in %d of %d replications; violation rate %s mean, %s worst",
			c->slo_met_reps, rec->replications, numfmt_percent(c->violation_mean, NAN, a, sizeof a),
			numfmt_percent(c->violation_worst, NAN, b, sizeof b));
		fprintf(out, "</td></tr>\n");
		row(out, "Risk");
		fprintf(out, "term cost at the 90th percentile of the replications %s (%s above the mean)",
			money(c->cost_term_p90, a, sizeof a),
			c->cost_term > 0 ? numfmt_percent(c->cost_term_p90 / c->cost_term - 1, NAN, b, sizeof b) : "&ndash;");
		fprintf(out, "</td></tr>\n");
	}
	regret(out, rec);
	row(out, "Still owed after the term");
	fprintf(out, rec->ladder ? "<b>%s</b>: the ladder's later purchase runs past the term" :
		"none: each commitment bought runs for the term%s", rec->ladder ? money(rec->owed_after_term, a, sizeof a) : "");
	fprintf(out, "</td></tr>\n");
	infeasible(out, rec);
	method(out, rec);
	fprintf(out, "</table>\n");
}

void report_rec_curve(FILE *out, const char *id, const struct report_session *ss)
{
	const struct report_rec *rec = &ss->rec;
	int n = rec->ncand;
	double *x = calloc(n > 0 ? (size_t)n : 1, sizeof *x), *y = calloc(n > 0 ? (size_t)n : 1, sizeof *y);
	const char **lab = calloc(n > 0 ? (size_t)n : 1, sizeof *lab);
	bool *hi = calloc(n > 0 ? (size_t)n : 1, sizeof *hi), *bad = calloc(n > 0 ? (size_t)n : 1, sizeof *bad);

	if (x && y && lab && hi && bad) {
		for (int j = 0; j < n; j++) {
			x[j] = rec->nvary == 1 ? rec->cand[j].counts[0] : j + 1;
			y[j] = rec->cand[j].cost_term;
			lab[j] = rec->cand[j].plan;
			hi[j] = j == rec->best;
			bad[j] = !rec->cand[j].feasible;
		}
		report_svg_scatter(out, id, "Commitment versus cost (mean term cost over replications)", rec->nvary == 1 ?
				   "commitment level (count)" : "candidate, in the order searched (#)", "term cost (USD)",
				   x, y, lab, hi, bad, n, true, "recommended");
	}
	free(x), free(y), free(lab), free(hi), free(bad);
}

void report_rec_table(FILE *out, const struct report_session *ss)
{
	const struct report_rec *rec = &ss->rec;
	char a[64], b[64], v[64], w[64], why[320];

	fprintf(out, "<table class=\"candidates\"><tr><th>#</th><th class=\"l\">plan</th><th>term cost (USD, mean)"
		"</th><th>term cost (USD, p90)</th><th>violation rate (mean)</th><th>violation rate (worst)</th>"
		"<th class=\"l\">SLO</th><th>chosen</th></tr>\n");
	for (int j = 0; j < rec->ncand; j++) {
		const struct report_cand *c = &rec->cand[j];
		fprintf(out, "<tr%s><td>%d</td><td class=\"l\">", c->feasible ? "" : " class=\"infeasible\"", j + 1);
		report_html_escape(out, c->plan);
		fprintf(out, "</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"l\">",
			money(c->cost_term, a, sizeof a), money(c->cost_term_p90, b, sizeof b),
			isnan(c->violation_mean) ? "&ndash;" : numfmt_percent(c->violation_mean, NAN, v, sizeof v),
			isnan(c->violation_worst) ? "&ndash;" : numfmt_percent(c->violation_worst, NAN, w, sizeof w));
		if (c->feasible) {
			fprintf(out, "&#10003; kept");
		} else {
			fprintf(out, "&#10007; ");
			report_html_escape(out, report_rec_why(rec, c, why, sizeof why));
		}
		fprintf(out, "</td><td>%s</td></tr>\n", j == rec->best ? "&#9733;" : "");
	}
	fprintf(out, "</table>\n");
}
