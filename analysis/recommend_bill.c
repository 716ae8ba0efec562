/* recommend_bill: a candidate's bill over the term, from its runs' hourly usage, every commitment level re-billed (recommend_private.h). */
#include "recommend_private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "rebill.h"
#include "status.h"

/* Free terms[0 .. n) and the array. */
void recommend_free_terms(struct term *terms, int n)
{
	for (int k = 0; terms && k < n; k++)
		free(terms[k].hours);
	free(terms);
}

/*
 * The terms of e's replications from its runs (which ran their course), into *out (returns owned: free_terms).
 * The runs' hours move into the terms. The window and fluid methods bill the run's own hours, scaled to the
 * term by term hours / measured hours; the windows method builds the term's hours from its windows
 * (rebill_term_of_windows), each window's cost per measured hour standing for its segment.
 */
static int make_terms(struct ctx *x, struct eval *e, struct term **out)
{
	int n = x->o->replications, rc = STATUS_OK;
	struct term *terms = calloc((size_t)n, sizeof *terms);
	double seg_h = x->r->term_h / e->per;

	if (!terms)
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	for (int k = 0; k < n && rc == STATUS_OK; k++) {
		struct term *t = &terms[k];
		struct rep *w = &e->reps[k * e->per];
		if (e->per == 1) {
			t->hours = w->hours;
			t->nhours = w->nhours;
			w->hours = NULL;
			t->sim_usd = w->cost_meas_usd;
			t->base_usd = w->cost_meas_usd - rebill_plan(t->hours, t->nhours, x->sp_loaded_usd_per_h,
								     x->sp_discount, NULL);
			t->factor = x->r->term_h / w->measured_h;
			continue;
		}
		{
			const struct savings_hour *win[RECOMMEND_REPS_MAX];
			int nwin_h[RECOMMEND_REPS_MAX];
			for (int i = 0; i < e->per; i++) {
				win[i] = w[i].hours;
				nwin_h[i] = w[i].nhours;
				t->sim_usd += w[i].cost_meas_usd / w[i].measured_h * seg_h;
				t->base_usd += (w[i].cost_meas_usd - rebill_plan(w[i].hours, w[i].nhours,
					x->sp_loaded_usd_per_h, x->sp_discount, NULL)) / w[i].measured_h * seg_h;
			}
			t->factor = 1;
			rc = rebill_term_of_windows(win, nwin_h, e->per, x->r->term_h, &t->hours, &t->nhours);
			if (rc)
				rc = diag_fail(x->d, rc, rc == STATUS_ENOMEM ? "out of memory" :
					       "recommend: a window of the term has no measured hour");
		}
	}
	if (rc) {
		recommend_free_terms(terms, n);
		return rc;
	}
	*out = terms;
	return STATUS_OK;
}

/*
 * The replications' costs over the term (cost[k]) and plan use (util[k], NaN without one) with the regional
 * RIs ris[0 .. nris) added to what the runs had, and the Savings Plan as mode says (*sp: its commitment, NaN
 * when the scenario has no plan): SP_OPTIMISE its optimum over what the RIs leave of all the replications'
 * hours pooled, SP_AT the commitment given, both billed from the hours in place of the scenario's own plan;
 * SP_SIMULATED the cost as simulated. One allocation for the pooled hours.
 */
int recommend_bill(struct ctx *x, const struct term *t, const struct savings_ri_terms *ris, int nris,
		enum sp_mode mode, double commit, double *cost, double *util, double *sp)
{
	int n = x->o->replications, total = 0, at = 0;
	double d_ri[RECOMMEND_REPS_MAX];
	struct savings_hour *pool;

	for (int k = 0; k < n; k++)
		total += t[k].nhours;
	if (!(pool = calloc((size_t)(total > 0 ? total : 1), sizeof *pool)))
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	for (int k = 0; k < n; k++) {
		d_ri[k] = rebill_ris(t[k].hours, t[k].nhours, ris, nris, pool + at);
		at += t[k].nhours;
	}
	*sp = x->sp_index >= 0 ? commit : NAN;
	if (x->sp_index >= 0 && mode == SP_OPTIMISE && rebill_sp_optimum(pool, total, x->sp_discount, sp)) {
		free(pool);
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	}
	at = 0;
	for (int k = 0; k < n; k++) {
		double d_sp = x->sp_index >= 0 ? rebill_plan(pool + at, t[k].nhours, *sp, x->sp_discount, &util[k]) : 0;
		if (x->sp_index < 0)
			util[k] = NAN;
		cost[k] = t[k].factor * (mode == SP_SIMULATED ? t[k].sim_usd : t[k].base_usd + d_ri[k] + d_sp);
		at += t[k].nhours;
	}
	free(pool);
	return STATUS_OK;
}

/*
 * The figures of a candidate from its replications' costs over the term (cost[k], factor: the term over the
 * hours billed) and the verdicts of its runs (every window's: a replication keeps the SLO when each of its
 * runs does; the violation rates are the runs' mean and worst).
 */
static void summarise(const struct ctx *x, const struct eval *e, const struct term *t, const double *cost,
		      const double *util, struct recommend_candidate *c)
{
	const struct rep *reps = e->reps;
	int n = x->o->replications, nr = e->nruns;
	double term[RECOMMEND_REPS_MAX], sum_w = 0, sum_u = 0, sum_v = 0, sum_f = 0, sum_t = 0;
	int nu = 0;

	c->violation_worst = 0;
	c->slo_met_reps = 0;
	c->slo_unreachable = false;
	c->at_max_reps = 0;
	c->warning[0] = '\0';
	c->extrapolated[0] = '\0';
	for (int k = 0; k < nr; k++) {
		sum_f += reps[k].floor;
		sum_v += reps[k].violation;
		if (reps[k].violation > c->violation_worst)
			c->violation_worst = reps[k].violation;
		if (x->o->slo != RECOMMEND_SLO_RATE && reps[k].unreachable[0] && !c->slo_unreachable) {
			c->slo_unreachable = true;
			snprintf(c->warning, sizeof c->warning, "%s", reps[k].unreachable);
		}
		if (reps[k].at_max[0] && !c->at_max_reps++ && !c->slo_unreachable)
			snprintf(c->warning, sizeof c->warning, "%s", reps[k].at_max);
		if (reps[k].extrapolated[0] && !c->extrapolated[0])
			snprintf(c->extrapolated, sizeof c->extrapolated, "%s", reps[k].extrapolated);
	}
	if (x->o->slo == RECOMMEND_SLO_RATE && sum_f / nr > x->o->max_violation_rate) {
		c->slo_unreachable = true;
		snprintf(c->warning, sizeof c->warning, "%.3g%% of requests take longer than slo.latency_s on service "
			 "time alone (slo_violation_rate_floor), more than the %.4g%% --max-violation-rate allows: no "
			 "capacity can keep it", 100 * sum_f / nr, 100 * x->o->max_violation_rate);
	}
	for (int k = 0; k < n; k++) {
		bool met = true;
		for (int i = 0; i < e->per; i++)
			met &= reps[k * e->per + i].slo_met > 0;
		c->slo_met_reps += met;
		term[k] = cost[k];
		sum_t += cost[k];
		sum_w += cost[k] / t[k].factor;
		if (!isnan(util[k])) {
			sum_u += util[k];
			nu++;
		}
	}
	c->cost_window_usd = sum_w / n;
	c->cost_term_usd = sum_t / n;
	c->cost_per_hour_usd = c->cost_term_usd / x->r->term_h;
	c->violation_mean = sum_v / nr;
	c->sp_utilization = nu ? sum_u / nu : NAN;
	c->cost_term_sd_usd = n > 1 ? gsl_stats_sd(term, 1, (size_t)n) : 0;
	gsl_sort(term, 1, (size_t)n);
	c->cost_term_p90_usd = gsl_stats_quantile_from_sorted_data(term, 1, (size_t)n, 0.9);
	if (x->o->slo == RECOMMEND_SLO_RATE)
		c->feasible = c->violation_mean <= x->o->max_violation_rate;
	else
		c->feasible = c->slo_met_reps == n;
}

/* Commitment level combination j (0 .. ncombos): the varied counts of counts[] it sets, and its RIs into ris;
 * returns how many RIs (a count of 0 adds none). */
int recommend_combo(const struct ctx *x, int j, int *counts, struct savings_ri_terms *ris)
{
	int nris = 0;

	for (int i = x->o->nvary - 1; i >= 0; i--) {
		const struct recommend_vary *v = &x->o->vary[i];
		int lv;
		if (!v->commit)
			continue;
		lv = (v->hi - v->lo) / v->step + 1;
		counts[i] = v->lo + j % lv * v->step;
		j /= lv;
	}
	for (int i = 0; i < x->o->nvary; i++)
		if (x->o->vary[i].commit && counts[i] > 0) {
			ris[nris] = x->ri[i];
			ris[nris++].count = counts[i];
		}
	return nris;
}

/* c's scenario does not load: keep the loader's message as its reason, and no figures. */
void recommend_mark_invalid(struct recommend_candidate *c, const char *msg)
{
	c->invalid = true;
	c->feasible = false;
	snprintf(c->why, sizeof c->why, "%s", msg ? msg : "");
	c->sp_usd_per_h = c->cost_window_usd = c->cost_per_hour_usd = c->cost_term_usd = NAN;
	c->cost_term_p90_usd = c->cost_term_sd_usd = c->violation_mean = c->violation_worst = NAN;
	c->sp_utilization = NAN;
}

/*
 * e ran its course: its terms, then its figures. In a search every commitment level is re-billed on its runs
 * (combos) and e->c is the cheapest of them; the on-demand-only plan and the check are billed as their mode
 * says. The base search's terms are kept for the ladder.
 */
int recommend_bill_eval(struct ctx *x, struct eval *e)
{
	double cost[RECOMMEND_REPS_MAX], util[RECOMMEND_REPS_MAX];
	struct savings_ri_terms ris[RECOMMEND_VARY_MAX];
	struct term *terms = NULL;
	int rc;

	if ((rc = make_terms(x, e, &terms)))
		return rc;
	if (!srch_of(x, e->phase)) {
		rc = recommend_bill(x, terms, NULL, 0, e->mode, e->commit, cost, util, &e->c.sp_usd_per_h);
		if (!rc)
			summarise(x, e, terms, cost, util, &e->c);
		recommend_free_terms(terms, x->o->replications);
		return rc;
	}
	if (!(e->combos = calloc((size_t)x->ncombos, sizeof *e->combos))) {
		recommend_free_terms(terms, x->o->replications);
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	}
	for (int j = 0; j < x->ncombos && !rc; j++) {
		struct recommend_candidate *c = &e->combos[j];
		int nris;
		memcpy(c->counts, e->counts, sizeof c->counts);
		nris = recommend_combo(x, j, c->counts, ris);
		rc = recommend_bill(x, terms, ris, nris, SP_OPTIMISE, 0, cost, util, &c->sp_usd_per_h);
		if (!rc)
			summarise(x, e, terms, cost, util, c);
		/* the cheapest level stands for e in its line (they keep or break the SLO alike) */
		if (!rc && (j == 0 || c->cost_term_usd < e->c.cost_term_usd))
			e->c = *c;
	}
	if (!rc)  /* kept for the ladder and the regret (priced at the base choice's plan) */
		e->terms = terms;
	else
		recommend_free_terms(terms, x->o->replications);
	return rc;
}
