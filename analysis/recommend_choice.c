/* recommend_choice: the choice under several traffic cases, the regret and the ladder (recommend_private.h). */
#include "recommend_private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

/*
 * Why s has no choice: slo_unreachable when every valid candidate is (capacity cannot help), else
 * fleet_at_max when every valid candidate sat at the fleet's maximum, else none in the range searched.
 */
void recommend_none_why(struct recommend_search *s)
{
	int valid = 0, unreachable = 0, at_max = 0, last_at_max = -1;

	s->none = RECOMMEND_CHOSEN;
	s->none_why[0] = '\0';
	if (s->best >= 0)
		return;
	for (int i = 0; i < s->ncands; i++) {
		if (s->cands[i].invalid)
			continue;
		valid++;
		unreachable += s->cands[i].slo_unreachable;
		if (s->cands[i].at_max_reps > 0) {
			at_max++;
			last_at_max = i;
		}
	}
	s->none = RECOMMEND_NONE_IN_RANGE;
	if (valid && unreachable == valid) {
		s->none = RECOMMEND_SLO_UNREACHABLE;
		for (int i = 0; i < s->ncands && !s->none_why[0]; i++)
			if (!s->cands[i].invalid)
				snprintf(s->none_why, sizeof s->none_why, "%s", s->cands[i].warning);
	} else if (valid && at_max == valid) {
		s->none = RECOMMEND_FLEET_AT_MAX;
		snprintf(s->none_why, sizeof s->none_why, "%s", s->cands[last_at_max].warning);
	}
}

double recommend_regret(const struct recommend_result *r, int i, double regret[3])
{
	const struct recommend_search *cs[3] = { &r->low, &r->base, &r->high };
	double worst = 0;

	for (int c = 0; c < 3; c++) {
		const struct recommend_candidate *k;
		if (r->case_best[c] < 0) {
			regret[c] = NAN;
			continue;
		}
		k = &cs[c]->cands[i];
		regret[c] = k->feasible ? r->case_cost[c][i] - r->case_cost[c][r->case_best[c]] : INFINITY;
		if (regret[c] > worst)
			worst = regret[c];
	}
	return worst;
}

/*
 * --growth: each candidate of the base search as a plan (its counts and its Savings Plan $/h at BASE) priced in
 * case c: its runs at that traffic re-billed with the base's plan held (not re-optimised), into
 * r->case_cost[c][i]; the cheapest that keeps the SLO there into r->case_best[c].
 */
static int price_cases(struct ctx *x)
{
	struct recommend_result *r = x->r;
	double cost[RECOMMEND_REPS_MAX], util[RECOMMEND_REPS_MAX], sp;
	struct savings_ri_terms ris[RECOMMEND_VARY_MAX];

	for (int c = 0; c < 3; c++) {
		const struct srch *s = &x->srch[c == 0 ? 1 : c == 1 ? 0 : 2];
		const struct recommend_search *out = s->out;
		if (!(r->case_cost[c] = calloc((size_t)(out->ncands ? out->ncands : 1), sizeof *r->case_cost[c])))
			return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
		r->case_best[c] = -1;
		for (int i = 0; i < out->ncands; i++) {
			const struct recommend_candidate *b = &r->base.cands[i];
			const struct eval *e = s->order[i];
			int counts[RECOMMEND_VARY_MAX], nris, rc;
			double mean = 0;
			r->case_cost[c][i] = out->cands[i].cost_term_usd;
			if (out->cands[i].invalid || !e->terms || x->sp_index < 0)
				continue;
			memcpy(counts, b->counts, sizeof counts);
			nris = recommend_combo(x, i % x->ncombos, counts, ris);
			if ((rc = recommend_bill(x, e->terms, ris, nris, SP_AT, b->sp_usd_per_h, cost, util, &sp)))
				return rc;
			for (int k = 0; k < x->o->replications; k++)
				mean += cost[k] / x->o->replications;
			r->case_cost[c][i] = mean;
		}
		for (int i = 0; i < out->ncands; i++)
			if (out->cands[i].feasible && (r->case_best[c] < 0 || r->case_cost[c][i] < r->case_cost[c][r->case_best[c]]))
				r->case_best[c] = i;
	}
	return STATUS_OK;
}

/* The cheapest candidate of s that keeps the SLO, the first on a tie; -1 when none does. */
int recommend_cheapest(const struct recommend_search *s)
{
	int best = -1;

	for (int i = 0; i < s->ncands; i++)
		if (s->cands[i].feasible && (best < 0 || s->cands[i].cost_term_usd < s->cands[best].cost_term_usd))
			best = i;
	return best;
}

/*
 * --growth: the choice by the rule (recommend.h, enum recommend_choose) among the candidates that keep the SLO
 * at BASE, over the cases where some candidate keeps it (a case none keeps tells no plan from another):
 * EXPECTED the least mean cost (a candidate that breaks the SLO in such a case is out), REGRET the least
 * worst regret (one that breaks it has an infinite regret there). The first in grid order on a tie.
 */
int recommend_choose_rule(struct ctx *x)
{
	struct recommend_result *r = x->r;
	const struct recommend_search *cs[3] = { &r->low, &r->base, &r->high };
	int best = -1;
	double best_v = INFINITY;

	int rc;

	r->regret = x->o->growth_given && r->low.ncands == r->base.ncands && r->high.ncands == r->base.ncands;
	if (!r->regret)
		return STATUS_OK;
	if ((rc = price_cases(x)))
		return rc;
	if (r->choose == RECOMMEND_CHOOSE_BASE)
		return STATUS_OK;
	for (int i = 0; i < r->base.ncands; i++) {
		double regret[3], v = 0;
		int n = 0;
		if (!r->base.cands[i].feasible)
			continue;
		if (r->choose == RECOMMEND_CHOOSE_REGRET) {
			v = recommend_regret(r, i, regret);
		} else {
			for (int c = 0; c < 3; c++)
				if (r->case_best[c] >= 0) {
					v += cs[c]->cands[i].feasible ? r->case_cost[c][i] : INFINITY;
					n++;
				}
			v /= n;
		}
		if (v < best_v) {
			best_v = v;
			best = i;
		}
	}
	r->base.best = best;  /* -1 when every candidate keeping the SLO at BASE breaks it in a case (EXPECTED) */
	recommend_none_why(&r->base);
	return STATUS_OK;
}

/*
 * A ladder for the first varied regional RI of the choice (re-billed on the choice's terms, which follow the
 * term): part of it bought at the term's start and more at the start of a later quarter (a second purchase
 * with its own full term from there), with the other commitments as chosen and the Savings Plan optimised
 * over what they leave. The cheapest such ladder is kept when it costs less over the term than buying the
 * chosen count at the start.
 */
int recommend_ladder(struct ctx *x)
{
	const struct recommend_opts *o = x->o;
	struct recommend_result *r = x->r;
	struct recommend_ladder *L = &r->ladder;
	const struct recommend_candidate *b;
	struct savings_ri_terms ris[RECOMMEND_VARY_MAX + 1];
	double cost[RECOMMEND_REPS_MAX], util[RECOMMEND_REPS_MAX], best = INFINITY;
	const struct eval *e;
	int v = -1, nris = 0, rc;

	for (int i = 0; i < o->nvary && v < 0; i++)
		if (o->vary[i].commit)
			v = i;
	if (x->term == RECOMMEND_TERM_WINDOW || r->base.best < 0 || v < 0)
		return STATUS_OK;
	b = &r->base.cands[r->base.best];
	e = x->srch[0].order[r->base.best];
	if (!e->terms)
		return STATUS_OK;
	L->tried = true;
	L->vary = v;
	best = b->cost_term_usd - 0.005;  /* a ladder must save at least a cent */
	for (int i = 0; i < o->nvary; i++)
		if (o->vary[i].commit && i != v && b->counts[i] > 0) {
			ris[nris] = x->ri[i];
			ris[nris++].count = b->counts[i];
		}
	for (int q = 1; q < 4; q++)
		for (int now = o->vary[v].lo; now <= b->counts[v]; now += o->vary[v].step)
			for (int later = o->vary[v].step; now + later <= o->vary[v].hi; later += o->vary[v].step) {
				int m = nris;
				double at_h = r->term_h * q / 4, mean = 0, sp;
				if (now > 0) {
					ris[m] = x->ri[v];
					ris[m++].count = now;
				}
				ris[m] = x->ri[v];
				ris[m].count = later;
				ris[m].t0_h += at_h;
				ris[m].t1_h += at_h;
				m++;
				if ((rc = recommend_bill(x, e->terms, ris, m, SP_OPTIMISE, 0, cost, util, &sp)))
					return rc;
				for (int k = 0; k < o->replications; k++)
					mean += cost[k] / o->replications;
				if (mean < best) {
					best = mean;
					L->better = true;
					L->now = now;
					L->later = later;
					L->at_h = at_h;
					L->sp_usd_per_h = sp;
					L->cost_term_usd = mean;
					L->owed_usd = later * x->ri[v].usd_per_h *
						      fmax(0, x->ri[v].t1_h + at_h - r->term_h);
				}
			}
	return STATUS_OK;
}
