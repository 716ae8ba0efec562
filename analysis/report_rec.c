/* report_rec: see report_rec.h. The keys are those of recommend_json.c (analysis/README.md, "The figures"). */
#include "report_rec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_tree.h>

static yajl_val get(yajl_val v, const char *key)
{
	const char *path[] = { key, NULL };

	return v ? yajl_tree_get(v, path, yajl_t_any) : NULL;
}

/* A number, NaN for null or absent; null stands for a figure recommend could not define (or infinite). */
static double num(yajl_val v, const char *key)
{
	yajl_val x = get(v, key);

	return YAJL_IS_NUMBER(x) ? YAJL_GET_DOUBLE(x) : NAN;
}

/* A count, 0 for null or absent (never a NaN cast to int). */
static int inum(yajl_val v, const char *key)
{
	double x = num(v, key);

	return isfinite(x) && fabs(x) < 1e9 ? (int)x : 0;
}

static bool flag(yajl_val v, const char *key)
{
	return YAJL_IS_TRUE(get(v, key));
}

static void text(yajl_val v, const char *key, char *buf, size_t size)
{
	const char *s = YAJL_GET_STRING(get(v, key));

	snprintf(buf, size, "%s", s ? s : "");
}

static void cand(yajl_val v, struct report_cand *c)
{
	yajl_val counts = get(v, "counts");

	memset(c, 0, sizeof *c);
	text(v, "plan", c->plan, sizeof c->plan);
	c->x = YAJL_IS_OBJECT(counts) && counts->u.object.len > 0 && YAJL_IS_NUMBER(counts->u.object.values[0]) ?
	       YAJL_GET_DOUBLE(counts->u.object.values[0]) : NAN;
	for (size_t i = 0; YAJL_IS_OBJECT(counts) && i < counts->u.object.len && i < REPORT_REC_VARY_MAX; i++)
		c->counts[i] = YAJL_IS_INTEGER(counts->u.object.values[i]) ? (int)YAJL_GET_INTEGER(counts->u.object.values[i]) : 0;
	c->sp_usd_per_h = num(v, "sp_usd_per_h");
	c->cost_term = num(v, "cost_term_usd");
	c->cost_term_p90 = num(v, "cost_term_p90_usd");
	c->cost_month = num(v, "cost_per_month_usd");
	c->violation_mean = num(v, "violation_rate_mean");
	c->violation_worst = num(v, "violation_rate_worst");
	c->slo_met_reps = inum(v, "slo_met_replications");
	c->feasible = flag(v, "feasible");
	c->slo_unreachable = flag(v, "slo_unreachable");
	c->at_max_reps = inum(v, "fleet_at_max_replications");
	text(v, "invalid", c->invalid, sizeof c->invalid);
}

/* The regret row of candidate best (regret[] is by candidate index). */
static void regret(yajl_val root, struct report_rec *rec)
{
	yajl_val list = get(root, "regret");

	rec->regret_low = rec->regret_high = rec->regret_worst = rec->cost_low = rec->cost_high = NAN;
	if (!YAJL_IS_ARRAY(list) || rec->best < 0)
		return;
	for (size_t i = 0; i < list->u.array.len; i++) {
		yajl_val row = list->u.array.values[i], breaks = get(row, "breaks_slo");
		if (inum(row, "candidate") != rec->best)
			continue;
		rec->regret_low = num(row, "low");
		rec->regret_high = num(row, "high");
		rec->regret_worst = num(row, "worst");
		rec->cost_low = num(row, "cost_low_usd");
		rec->cost_high = num(row, "cost_high_usd");
		if (YAJL_IS_ARRAY(breaks) && breaks->u.array.len == 3) {  /* null there: broke it, not undefined */
			if (YAJL_IS_TRUE(breaks->u.array.values[0]))
				rec->regret_low = INFINITY;
			if (YAJL_IS_TRUE(breaks->u.array.values[2]))
				rec->regret_high = INFINITY;
			if (YAJL_IS_TRUE(breaks->u.array.values[0]) || YAJL_IS_TRUE(breaks->u.array.values[2]))
				rec->regret_worst = INFINITY;
		}
	}
}

static void growth(yajl_val root, struct report_rec *rec)
{
	yajl_val g = get(root, "growth"), low = get(g, "low"), high = get(g, "high");

	if (!YAJL_IS_OBJECT(g))
		return;
	rec->growth = true;
	rec->scale_low = num(low, "scale_rate");
	rec->scale_high = num(high, "scale_rate");
	text(get(low, "best"), "plan", rec->best_low, sizeof rec->best_low);
	text(get(high, "best"), "plan", rec->best_high, sizeof rec->best_high);
	rec->best_low_cost = num(get(low, "best"), "cost_term_usd");
	rec->best_high_cost = num(get(high, "best"), "cost_term_usd");
}

static void ladder(yajl_val root, struct report_rec *rec)
{
	yajl_val l = get(root, "ladder");

	rec->ladder = flag(l, "better");
	rec->owed_after_term = 0;
	if (!rec->ladder)
		return;
	text(l, "key", rec->ladder_key, sizeof rec->ladder_key);
	rec->ladder_now = inum(l, "now");
	rec->ladder_later = inum(l, "later");
	rec->ladder_at_h = num(l, "later_at_h");
	rec->ladder_cost_term = num(l, "cost_term_usd");
	rec->owed_after_term = num(l, "owed_after_term_usd");
}

bool report_rec_parse(const char *json, struct report_rec *rec)
{
	yajl_val root, list, vary, none, best;

	memset(rec, 0, sizeof *rec);
	rec->best = -1;
	if (!json || !(root = yajl_tree_parse(json, NULL, 0)))
		return true;  /* no label, or not JSON: the page says less */
	list = get(root, "candidates");
	best = get(root, "best_index");
	if (!YAJL_IS_OBJECT(root) || !YAJL_IS_ARRAY(list)) {
		yajl_tree_free(root);
		return true;
	}
	if (list->u.array.len > 0 && !(rec->cand = calloc(list->u.array.len, sizeof *rec->cand))) {
		yajl_tree_free(root);
		return false;
	}
	rec->ncand = (int)list->u.array.len;
	for (int i = 0; i < rec->ncand; i++)
		cand(list->u.array.values[i], &rec->cand[i]);
	rec->best = YAJL_IS_INTEGER(best) && YAJL_GET_INTEGER(best) >= 0 && YAJL_GET_INTEGER(best) < rec->ncand ?
		    (int)YAJL_GET_INTEGER(best) : -1;
	none = get(root, "no_choice");
	text(none, "reason", rec->none_reason, sizeof rec->none_reason);
	text(none, "message", rec->none_message, sizeof rec->none_message);
	rec->replications = inum(root, "replications");
	rec->term_h = num(root, "term_h");
	rec->start_unix_s = num(root, "start_unix_s");
	text(get(root, "term"), "method", rec->term_method, sizeof rec->term_method);
	vary = get(root, "vary");
	for (size_t i = 0; YAJL_IS_ARRAY(vary) && i < vary->u.array.len && i < REPORT_REC_VARY_MAX; i++) {
		text(vary->u.array.values[i], "key", rec->vary_key[i], sizeof rec->vary_key[i]);
		text(vary->u.array.values[i], "option", rec->vary_option[i], sizeof rec->vary_option[i]);
		rec->nvary = (int)i + 1;
	}
	rec->od_ok = YAJL_IS_OBJECT(get(root, "on_demand_only"));
	if (rec->od_ok)
		cand(get(root, "on_demand_only"), &rec->od);
	rec->savings_term = num(root, "savings_term_usd");
	rec->savings_month = num(root, "savings_per_month_usd");
	ladder(root, rec);
	growth(root, rec);
	regret(root, rec);
	rec->ok = true;
	yajl_tree_free(root);
	return true;
}

void report_rec_fini(struct report_rec *rec)
{
	free(rec->cand);
	memset(rec, 0, sizeof *rec);
}
