/*
 * recommend_json: a search's result as JSON (recommend.h), the object `gpucap recommend --json` prints and
 * `--db` stores on the session's first run as the label recommend_result (the report's decision reads it).
 * The keys are analysis/README.md's ("The figures"); numbers are %.17g, undefined ones null.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "jsonout.h"
#include "option.h"
#include "recommend.h"

const char *const recommend_none_name[] = { "chosen", "none_in_range", "slo_unreachable", "fleet_at_max" };
const char *const recommend_term_name[] = { "auto", "window", "fluid", "windows" };
const char *const recommend_choose_name[] = { "base", "expected", "regret" };

/* "fleet.0.count=3 fleet.2.count=1, Savings Plan $14.00/h" */
void recommend_describe(const struct recommend_opts *o, const struct recommend_candidate *c, char *buf, size_t size)
{
	int n = 0;

	buf[0] = 0;
	for (int i = 0; i < o->nvary && (size_t)n < size; i++)
		n += snprintf(buf + n, size - (size_t)n, "%s%s=%d", i ? " " : "", o->vary[i].key, c->counts[i]);
	if (!isnan(c->sp_usd_per_h) && (size_t)n < size) {
		if (c->sp_usd_per_h > 0)
			snprintf(buf + n, size - (size_t)n, "%sSavings Plan $%.2f/h", n ? ", " : "", c->sp_usd_per_h);
		else
			snprintf(buf + n, size - (size_t)n, "%sno Savings Plan", n ? ", " : "");
	}
	if (!buf[0])
		snprintf(buf, size, "the scenario as it is");
}

static void json_num(FILE *out, const char *name, double v, bool comma)
{
	if (isfinite(v))
		fprintf(out, "%s\"%s\": %.17g", comma ? ", " : "", name, v);
	else
		fprintf(out, "%s\"%s\": null", comma ? ", " : "", name);
}

static void json_candidate(FILE *out, const struct recommend_opts *o, const struct recommend_candidate *c)
{
	char plan[512];

	fprintf(out, "{\"counts\": {");
	for (int i = 0; i < o->nvary; i++)
		fprintf(out, "%s\"%s\": %d", i ? ", " : "", o->vary[i].key, c->counts[i]);
	fprintf(out, "}, \"plan\": ");
	recommend_describe(o, c, plan, sizeof plan);
	jsonout_string(out, plan);
	json_num(out, "sp_usd_per_h", c->sp_usd_per_h, true);
	json_num(out, "cost_window_usd", c->cost_window_usd, true);
	json_num(out, "cost_per_hour_usd", c->cost_per_hour_usd, true);
	json_num(out, "cost_per_month_usd", c->cost_per_hour_usd * 720, true);
	json_num(out, "cost_term_usd", c->cost_term_usd, true);
	json_num(out, "cost_term_p90_usd", c->cost_term_p90_usd, true);
	json_num(out, "cost_term_sd_usd", c->cost_term_sd_usd, true);
	json_num(out, "violation_rate_mean", c->violation_mean, true);
	json_num(out, "violation_rate_worst", c->violation_worst, true);
	json_num(out, "sp_utilization", c->sp_utilization, true);
	fprintf(out, ", \"slo_met_replications\": %d, \"feasible\": %s, \"invalid\": ", c->slo_met_reps,
	       c->feasible ? "true" : "false");
	jsonout_string(out, c->invalid ? c->why : NULL);
	fprintf(out, ", \"slo_unreachable\": %s, \"fleet_at_max_replications\": %d}", c->slo_unreachable ? "true" : "false",
	       c->at_max_reps);
}

/* "best": the choice or null, then "no_choice": null or {"reason", "message"} */
static void json_best(FILE *out, const struct recommend_opts *o, const struct recommend_search *s)
{
	fprintf(out, "\"best\": ");
	if (s->best < 0)
		fprintf(out, "null");
	else
		json_candidate(out, o, &s->cands[s->best]);
	fprintf(out, ", \"no_choice\": ");
	if (s->none == RECOMMEND_CHOSEN) {
		fprintf(out, "null");
		return;
	}
	fprintf(out, "{\"reason\": \"%s\", \"message\": ", recommend_none_name[s->none]);
	jsonout_string(out, s->none_why[0] ? s->none_why : NULL);
	fprintf(out, "}");
}

void recommend_write_json(FILE *out, const struct recommend_opts *o, const struct recommend_result *r)
{
	const struct recommend_search *s = &r->base;
	int n = 0;

	fprintf(out, "{");
	json_best(out, o, s);
	fprintf(out, ", \"best_index\": %d, \"vary\": [", s->best);
	for (int i = 0; i < o->nvary; i++)
		fprintf(out, "%s{\"key\": \"%s\", \"option\": \"%s\", \"max\": %s}", i ? ", " : "", o->vary[i].key,
			option_kind_name(r->vary_kind[i]), o->vary[i].max ? "true" : "false");
	fprintf(out, "]");
	json_num(out, "start_unix_s", r->start_unix_s, true);
	json_num(out, "od_usd_per_h", r->od_usd_per_h, true);
	fprintf(out, ", \"candidates\": [");
	for (int i = 0; i < s->ncands; i++) {
		fprintf(out, i ? ", " : "");
		json_candidate(out, o, &s->cands[i]);
	}
	fprintf(out, "], \"runs\": %d, \"term_h\": %.17g, \"replications\": %d, \"pruned\": %d, \"invalid\": %d, "
	       "\"on_demand_only\": ", r->runs, r->term_h, o->replications, s->pruned, s->invalid);
	if (r->od_ok)
		json_candidate(out, o, &r->od);
	else
		fprintf(out, "null");
	if (s->best >= 0 && r->od_ok) {
		double save_h = r->od.cost_per_hour_usd - s->cands[s->best].cost_per_hour_usd;
		json_num(out, "savings_per_month_usd", save_h * 720, true);
		json_num(out, "savings_term_usd", save_h * r->term_h, true);
	}
	fprintf(out, ", \"checked\": ");
	if (r->checked)
		json_candidate(out, o, &r->check);
	else
		fprintf(out, "null");
	fprintf(out, ", \"break_even\": {");
	for (int i = 0; i < o->nvary; i++)
		if (!o->vary[i].max)  /* a max buys nothing ahead: no break-even */
			fprintf(out, "%s\"%s\": %.17g", n++ ? ", " : "", o->vary[i].key, r->break_even[i]);
	if (!isnan(r->sp_discount))
		fprintf(out, "%s\"savings_plan\": %.17g", n ? ", " : "", 1 - r->sp_discount);
	fprintf(out, "}");
	fprintf(out, ", \"term\": {\"method\": \"%s\", \"default\": %s, \"windows\": %d, \"check_method\": \"%s\", "
	       "\"check_not_done\": ", recommend_term_name[r->term], r->term_auto ? "true" : "false", r->term_windows,
	       recommend_term_name[r->check_term]);
	jsonout_string(out, r->check_why[0] && !r->checked ? r->check_why : NULL);
	fprintf(out, "}, \"ladder\": ");
	if (!r->ladder.tried || !r->ladder.better) {
		fprintf(out, r->ladder.tried ? "{\"better\": false}" : "null");
	} else {
		fprintf(out, "{\"better\": true, \"key\": \"%s\", \"now\": %d, \"later\": %d", o->vary[r->ladder.vary].key,
		       r->ladder.now, r->ladder.later);
		json_num(out, "later_at_h", r->ladder.at_h, true);
		json_num(out, "sp_usd_per_h", r->ladder.sp_usd_per_h, true);
		json_num(out, "cost_term_usd", r->ladder.cost_term_usd, true);
		json_num(out, "owed_after_term_usd", r->ladder.owed_usd, true);
		fprintf(out, "}");
	}
	fprintf(out, ", \"choose\": \"%s\"", recommend_choose_name[r->choose]);
	if (r->regret) {
		fprintf(out, ", \"regret\": [");
		for (int i = 0; i < s->ncands; i++) {
			double regret[3], worst = recommend_regret(r, i, regret);
			fprintf(out, "%s{\"candidate\": %d", i ? ", " : "", i);
			json_num(out, "low", regret[0], true);
			json_num(out, "base", regret[1], true);
			json_num(out, "high", regret[2], true);
			json_num(out, "worst", worst, true);
			json_num(out, "cost_low_usd", r->case_cost[0][i], true);
			json_num(out, "cost_base_usd", r->case_cost[1][i], true);
			json_num(out, "cost_high_usd", r->case_cost[2][i], true);
			fprintf(out, ", \"breaks_slo\": [%s, %s, %s]}", isinf(regret[0]) ? "true" : "false",
			       isinf(regret[1]) ? "true" : "false", isinf(regret[2]) ? "true" : "false");
		}
		fprintf(out, "], \"case_best\": [%d, %d, %d]", r->case_best[0], r->case_best[1], r->case_best[2]);
	}
	if (o->growth_given) {
		fprintf(out, ", \"growth\": {\"low\": {\"scale_rate\": %.17g, ", r->low.scale_rate);
		json_best(out, o, &r->low);
		fprintf(out, "}, \"high\": {\"scale_rate\": %.17g, ", r->high.scale_rate);
		json_best(out, o, &r->high);
		fprintf(out, "}}");
	}
	fprintf(out, "}\n");
}

