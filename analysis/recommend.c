/* recommend: see recommend.h. */
#include "recommend.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "rebill.h"
#include "runpool.h"
#include "scenario.h"
#include "status.h"
#include "store.h"
#include "world.h"
#include "yamldoc.h"

#define TERM_1Y_H 8760.0   /* 365 days (SOURCES.md [ri-terms]) */
#define TERM_3Y_H 26280.0  /* 1095 days */
#define OWN_SETS_MAX (RECOMMEND_VARY_MAX + 6)                 /* the settings a run of the search makes */
#define WINDOWS_DEFAULT 4  /* --term windows without a count */
#define FLUID_DAYS_MAX 400 /* the longest horizon (scenarios/REFERENCE.md) */
#define SETS_MAX (OWN_SETS_MAX + RECOMMEND_SETS_MAX)          /* and the --set overrides */

/* How a candidate's Savings Plan is billed. */
enum sp_mode {
	SP_OPTIMISE,   /* the cheapest commitment for its own usage (recommend_sp_optimum), billed from it */
	SP_AT,         /* a given commitment (0: no plan), billed from the usage */
	SP_SIMULATED   /* the given commitment set in the scenario (> 0): the bill as simulated */
};

/* One replication's figures, as its run answered. */
struct rep {
	int status;              /* STATUS_OK, or why it did not run its course */
	bool load_failed;        /* its scenario did not load (status is the loader's) */
	char *msg;               /* the failure's message (owned), NULL when ok */
	double cost_meas_usd;    /* cost of the measured window, as simulated */
	double measured_h;
	double violation;
	double slo_met;          /* 1, 0, or NaN when the run states no verdict */
	double floor;            /* slo_violation_rate_floor (0 when no request was measured) */
	char unreachable[256];   /* the run's slo_unreachable warning, "" when it has none */
	char at_max[256];        /* its fleet_at_max warning, "" when it has none */
	struct savings_hour *hours;  /* eligible usage by hour (owned), until the candidate is billed */
	int nhours;
	char extrapolated[256];  /* its extrapolated_with_growth warning, "" when it has none */
	struct runpool_record *record;  /* --db: what it handed its sink (owned), until the frontier stores it */
};

/* The order in which one process makes the runs, which the frontier follows (see "the search" below). */
enum phase { PH_BASE, PH_LOW, PH_HIGH, PH_OD, PH_CHECK, PH_END };

/* One replication of a candidate as its term is billed (rebill.h). */
struct term {
	struct savings_hour *hours;  /* the usage the term is billed on (owned): the window's, the fluid run's, or
	                                the windows' spread over the term */
	int nhours;
	double base_usd;             /* its cost over those hours without the scenario's plan (and without the
	                                varied RIs, which the search's runs leave at 0) */
	double sim_usd;              /* its cost over those hours as simulated */
	double factor;               /* cost over the term = factor x cost over the hours */
};

/* How the first replication of a candidate that did not run its course ended. */
enum stop {
	STOP_NONE,     /* every replication ran */
	STOP_INVALID,  /* its scenario does not load (STATUS_EINPUT): the candidate is invalid, the search goes on */
	STOP_LOAD,     /* it does not load otherwise (a file missing, ...): the search stops */
	STOP_RUN,      /* the run failed: the search stops */
	STOP_VERDICT   /* it ran but states no SLO verdict the constraint needs: the search stops after it */
};

/* One candidate at one traffic level, billed as mode says, over the replications. */
struct eval {
	int index;                       /* in x->evals (runs are tagged index x RECOMMEND_REPS_MAX + k) */
	enum phase phase;
	int slot;                        /* in a search: its place in grid order, line x inner + j */
	int counts[RECOMMEND_VARY_MAX];  /* its levels */
	double scale;                    /* workload.arrivals.scale_rate of its runs */
	enum sp_mode mode;
	double commit;                   /* SP_AT, SP_SIMULATED: the commitment */
	enum recommend_term method;      /* how its term is found (the check's is the other one) */
	int per;                         /* runs per replication: the windows of RECOMMEND_TERM_WINDOWS, else 1 */
	int nruns;                       /* replications x per; run k is replication k / per, window k % per */
	bool exists;                     /* the search makes it (false: run ahead of its line's pruning) */
	bool dropped;                    /* ruled out by the pruning after it was run ahead: results thrown away */
	int handed, got;                 /* replications handed out, and answered */
	struct rep *reps;                /* the replications (owned; freed once the frontier is past it) */
	bool decided;                    /* every replication answered; c holds the figures unless stop says */
	enum stop stop;                  /* the first replication that did not run its course, */
	int stop_k;                      /* its index (the replications' count when none) */
	int stop_status;                 /* and its status */
	struct recommend_candidate c;    /* its figures: in a search, its cheapest commitment levels (combos) */
	struct recommend_candidate *combos;  /* in a search: each commitment level re-billed, x->ncombos (owned) */
	struct term *terms;              /* the replications' terms, kept for the ladder in the base search (owned) */
	int64_t *ids;                    /* --db: the run ids of its runs as stored (owned) */
};

/* One line of a search's grid (the last --vary's levels at fixed outer levels), as it is decided. */
struct line {
	int next;       /* candidates made (run or running): slots j < next */
	int decided;    /* candidates decided, in order (each existing) */
	bool done;      /* no candidate after them: pruned, or every level decided */
	double prev;    /* the last feasible candidate's mean term cost, NaN before one */
};

/* One search: the grid at one traffic level. */
struct srch {
	bool active;
	bool finished;                  /* out is filled */
	struct recommend_search *out;   /* filled when every line is done */
	double scale;
	int total, inner;               /* grid points, levels of the last --vary */
	struct eval **slot;             /* total entries, NULL until made (owned array) */
	struct eval **order;            /* out->cands[i]'s eval (owned array) */
	struct line *line;              /* total / inner lines (owned) */
	int lines_done;                 /* when all are, out is filled (finish_search) */
	char session[160];              /* --db: its recommend_session label ("" until its first run is stored) */
	int64_t session_run;            /* the run that carries recommend_session_state; 0: none yet */
};

/* What the searches need, shared by their candidates. */
struct ctx {
	const struct recommend_opts *o;
	struct recommend_result *r;
	struct diag *d;
	struct store *st;        /* --db, or NULL */
	struct runpool *pool;    /* the workers */
	uint64_t seed;           /* the scenario's seed: replication k runs seed + k */
	double scale_rate;       /* the scenario's own scale_rate */
	int sp_index;            /* fleet index of the savings_plan entry, -1 if none */
	double sp_loaded_usd_per_h;  /* its commitment as the scenario sets it */
	double sp_discount;
	char name[128];          /* the scenario's name */
	char (*set_key)[YAMLDOC_PATH_MAX];  /* the --set overrides' keys, as yamldoc_set_key writes them (owned) */
	bool as_max_stated;      /* the scenario states autoscaling.max, under a policy */
	long as_max;             /* autoscaling.max as loaded */
	long capacity;           /* what the fleet entries hold as loaded, in autoscaling.max's units */
	int level_loaded[RECOMMEND_VARY_MAX];  /* per varied entry: its count or max as loaded */
	int unit[RECOMMEND_VARY_MAX];          /* per varied entry: autoscaling.max units one instance counts
	                                          for (0: an entry for jobs only) */
	int ncombos;             /* commitment levels re-billed on each simulated candidate (1: none varied) */
	struct savings_ri_terms ri[RECOMMEND_VARY_MAX];  /* a varied commitments.I.count: its RI, count 1 */
	double growth_per_day;   /* the scenario's workload.arrivals.growth_per_day (the windows' dates) */
	enum recommend_term term;  /* the term method, resolved (never RECOMMEND_TERM_AUTO) */
	int nwin;                /* the windows of RECOMMEND_TERM_WINDOWS */
	struct eval **evals;     /* every candidate evaluation made (owned), nevals of cap_evals */
	int nevals, cap_evals;
	struct srch srch[3];     /* the searches at BASE, LOW and HIGH */
	struct eval *od, *check; /* the on-demand-only plan; the choice with its plan set (NULL: none) */
	bool base_ended;         /* the base search's choice and session state are stored (end_search) */
	enum phase f_phase;      /* the frontier: the phase, */
	int f_slot;              /* and in a search the grid point, it has reached */
};

/*
 * The key is read as an override reads it (yamldoc_set_key: "fleet.00.count" is entry 0) and kept in
 * that one spelling, so that two --vary of one entry are found (recommend_run) and its runs' --set name it
 * as the search does.
 */
int recommend_parse_vary(const char *text, struct recommend_vary *v, struct diag *d)
{
	const char *eq = strchr(text, '=');
	char key[sizeof v->key], canon[YAMLDOC_PATH_MAX], tail[8], what[8];
	int idx, lo, hi, step = 1, n = 0;

	memset(v, 0, sizeof *v);
	if (!eq || (size_t)(eq - text) >= sizeof key)
		goto bad;
	memcpy(key, text, (size_t)(eq - text));
	key[eq - text] = '\0';
	v->commit = strncmp(key, "commitments.", 12) == 0;
	if (!yamldoc_set_key(key, canon, sizeof canon) ||
	    sscanf(canon, v->commit ? "commitments.%d.%5[a-z]%n" : "fleet.%d.%5[a-z]%n", &idx, what, &n) != 2 ||
	    canon[n] || idx < 0 || (strcmp(what, "count") != 0 && (v->commit || strcmp(what, "max") != 0)))
		goto bad;
	v->max = strcmp(what, "max") == 0;
	snprintf(v->key, sizeof v->key, "%s.%d.%s", v->commit ? "commitments" : "fleet", idx, what);
	if (strcmp(v->key, canon) != 0)  /* "fleet.+1.count": sscanf reads it, an override does not */
		goto bad;
	n = sscanf(eq + 1, "%d..%d%7s", &lo, &hi, tail);
	if (n == 3 && sscanf(eq + 1, "%d..%d:%d%7s", &lo, &hi, &step, tail) != 3)
		goto bad;
	if (n < 2 || lo < 0 || hi < lo || step < 1)
		goto bad;
	v->text = text;
	v->fleet_index = idx;
	v->lo = lo;
	v->hi = hi;
	v->step = step;
	return STATUS_OK;
bad:
	return diag_fail(d, STATUS_EINPUT, "--vary '%s': expected fleet.I.count=LO..HI[:STEP] (or fleet.I.max=..., "
			 "commitments.I.count=...) with integers 0 <= LO <= HI and STEP >= 1", text);
}

/* The day window i of the windows method starts: the middle of its segment of the term, (i + 1/2) x term / n
 * days, in whole weeks (a weekly or daily pattern keeps its phase). */
static double window_day(const struct ctx *x, int i)
{
	return 7 * floor(x->r->term_h / 24 * (i + 0.5) / x->nwin / 7 + 0.5);
}

/*
 * The --set texts of run k of e (replication k / e->per, window k % e->per): the search's own settings, then
 * the --set overrides of the other keys (one of a key set here gave the base its value; this run's replaces
 * it). A varied commitment count is the eval's (0 in a search: its levels are re-billed), the Savings Plan's
 * commitment is set only for SP_SIMULATED; the fluid method runs the term, a window of the windows method
 * runs at the traffic of its day: scale_rate x (1 + growth_per_day)^day.
 */
static int make_sets(const struct ctx *x, const struct eval *e, int k, char buf[OWN_SETS_MAX][96],
		     const char *sets[SETS_MAX])
{
	int n = 0, own, rep = k / e->per;
	double scale = e->scale;

	if (e->method == RECOMMEND_TERM_WINDOWS)
		scale *= pow(1 + x->growth_per_day, window_day(x, k % e->per));
	for (int i = 0; i < x->o->nvary; i++)
		snprintf(buf[n++], 96, "%s=%d", x->o->vary[i].key, e->counts[i]);
	snprintf(buf[n++], 96, "seed=%" PRIu64, x->seed + (uint64_t)rep);
	snprintf(buf[n++], 96, "workload.arrivals.scale_rate=%.17g", scale);
	if (e->mode == SP_SIMULATED && x->sp_index >= 0)
		snprintf(buf[n++], 96, "commitments.%d.commit_usd_per_h=%.2f", x->sp_index, e->commit);
	if (e->method == RECOMMEND_TERM_FLUID) {
		snprintf(buf[n++], 96, "horizon=%.0fd", x->r->term_h / 24);
		snprintf(buf[n++], 96, "mode=fluid");
	}
	if (x->as_max_stated) {  /* a stated autoscaling.max above what these levels hold is lowered to it */
		long capacity = x->capacity;
		for (int i = 0; i < x->o->nvary; i++)
			capacity += (long)(e->counts[i] - x->level_loaded[i]) * x->unit[i];
		if (capacity < x->as_max)
			snprintf(buf[n++], 96, "autoscaling.max=%ld", capacity > 0 ? capacity : 0);
	}
	for (int i = 0; i < n; i++)
		sets[i] = buf[i];
	own = n;
	for (int u = 0; u < x->o->nsets; u++) {
		bool mine = false;
		for (int i = 0; i < own && !mine; i++)
			mine = strncmp(buf[i], x->set_key[u], strlen(x->set_key[u])) == 0 &&
			       buf[i][strlen(x->set_key[u])] == '=';
		if (!mine)
			sets[n++] = x->o->sets[u];
	}
	return n;
}

/* Free terms[0 .. n) and the array. */
static void free_terms(struct term *terms, int n)
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
		free_terms(terms, n);
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
static int bill(struct ctx *x, const struct term *t, const struct savings_ri_terms *ris, int nris,
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
static int combo(const struct ctx *x, int j, int *counts, struct savings_ri_terms *ris)
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

/*
 * --db, at the frontier: label e's runs with its search's session, its levels ("fleet.0.count=3
 * fleet.2.count=1", "-" when nothing is varied) and its mean term cost.
 */
static int label_candidate(struct ctx *x, struct srch *s, const struct eval *e)
{
	char counts[RECOMMEND_VARY_MAX * 80 + 2] = "-", cost[40];
	int n = e->nruns, o = 0, rc;

	for (int i = 0; i < x->o->nvary; i++)
		o += snprintf(counts + o, sizeof counts - (size_t)o, "%s%s=%d", i ? " " : "", x->o->vary[i].key,
			      e->c.counts[i]);
	snprintf(cost, sizeof cost, "%.17g", e->c.cost_term_usd);
	rc = store_label_runs(x->st, e->ids, n, "recommend_session", s->session, x->d);
	if (!rc)
		rc = store_label_runs(x->st, e->ids, n, "recommend_candidate", counts, x->d);
	if (!rc)
		rc = store_label_runs(x->st, e->ids, n, "recommend_term_cost_usd", cost, x->d);
	/* the session is stored as its candidates end: it says it is incomplete until the search ends */
	if (!rc && !s->session_run) {
		rc = store_label_runs(x->st, e->ids, 1, "recommend_session_state", "incomplete", x->d);
		s->session_run = rc ? 0 : e->ids[0];
	}
	return rc;
}

/* c's scenario does not load: keep the loader's message as its reason, and no figures. */
static void mark_invalid(struct recommend_candidate *c, const char *msg)
{
	c->invalid = true;
	c->feasible = false;
	snprintf(c->why, sizeof c->why, "%s", msg ? msg : "");
	c->sp_usd_per_h = c->cost_window_usd = c->cost_per_hour_usd = c->cost_term_usd = NAN;
	c->cost_term_p90_usd = c->cost_term_sd_usd = c->violation_mean = c->violation_worst = NAN;
	c->sp_utilization = NAN;
}

/*
 * Why s has no choice: slo_unreachable when every valid candidate is (capacity cannot help), else
 * fleet_at_max when every valid candidate sat at the fleet's maximum, else none in the range searched.
 */
static void none_why(struct recommend_search *s)
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

/* Levels of vary v. */
static int levels(const struct recommend_vary *v)
{
	return (v->hi - v->lo) / v->step + 1;
}

/* Levels of vary v in the grid of simulated candidates: a commitment's count is re-billed, not simulated. */
static int grid_levels(const struct recommend_vary *v)
{
	return v->commit ? 1 : levels(v);
}

/* The innermost varied entry that changes capacity (a line of the grid runs along it); -1 when none does. */
static int inner_vary(const struct recommend_opts *o)
{
	int i = o->nvary - 1;

	while (i >= 0 && o->vary[i].commit)
		i--;
	return i;
}

/* ---- the search, its runs in worker processes ------------------------------------------------------ */

/*
 * The runs are made by a runpool (--jobs workers, or this process) in whatever order they finish, and taken
 * up again in the order one process made them before there were workers: the base search's candidates in
 * grid order, the on-demand-only plan, the check, then the low and the high searches. That order (the
 * frontier) is where runs are counted, stored with their labels and failures reported, so the figures, the
 * run ids, the labels and the messages do not depend on the number of workers: a candidate's figures come
 * from its own runs only, and a line's pruning from its candidates before. When nothing needed is left to
 * hand out, a line's next candidate is run ahead of the pruning decision, so that workers are not idle; if
 * the pruning then rules it out, its runs are thrown away (never counted nor stored). With one worker
 * nothing is ever run ahead, and the runs are made in the frontier's order.
 */

static struct srch *srch_of(struct ctx *x, enum phase ph)
{
	return ph == PH_BASE ? &x->srch[0] : ph == PH_LOW ? &x->srch[1] : ph == PH_HIGH ? &x->srch[2] : NULL;
}

/* A new candidate evaluation into *out, kept in x->evals. STATUS_OK or STATUS_ENOMEM. */
static int new_eval(struct ctx *x, enum phase ph, int slot, const int *counts, double scale, enum sp_mode mode,
		    double commit, bool exists, struct eval **out)
{
	struct eval *e = calloc(1, sizeof *e);
	enum recommend_term method = x->term;
	int per;

	if (ph == PH_CHECK)  /* a method that follows the term is checked by the other one */
		method = x->r->check_term;
	per = method == RECOMMEND_TERM_WINDOWS ? x->nwin : 1;

	if (e && x->nevals == x->cap_evals) {
		int cap = x->cap_evals ? 2 * x->cap_evals : 64;
		struct eval **p = realloc(x->evals, (size_t)cap * sizeof *p);
		if (p) {
			x->evals = p;
			x->cap_evals = cap;
		}
	}
	if (!e || x->nevals == x->cap_evals || !(e->reps = calloc((size_t)(x->o->replications * per), sizeof *e->reps)) ||
	    (x->st && !(e->ids = calloc((size_t)(x->o->replications * per), sizeof *e->ids)))) {
		if (e)
			free(e->reps);
		free(e);
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	}
	e->index = x->nevals;
	e->phase = ph;
	e->slot = slot;
	memcpy(e->counts, counts, sizeof e->counts);
	e->scale = scale;
	e->mode = mode;
	e->commit = commit;
	e->method = method;
	e->per = per;
	e->nruns = x->o->replications * per;
	e->exists = exists;
	x->evals[x->nevals++] = e;
	*out = e;
	return STATUS_OK;
}

/* Free what the replications of e still hold (their hours, messages and recordings). */
static void free_reps(struct ctx *x, struct eval *e)
{
	if (!e->reps)
		return;
	for (int k = 0; k < e->nruns; k++) {
		struct runpool_result res = { .hours = e->reps[k].hours, .record = e->reps[k].record };
		runpool_result_fini(x->pool, &res);
		free(e->reps[k].msg);
	}
	free(e->reps);
	e->reps = NULL;
}

/* Make the candidate of line l, level j of search s (exists false: run ahead), into *out (may be NULL). */
static int line_eval(struct ctx *x, struct srch *s, int l, int j, bool exists, struct eval **out)
{
	const struct recommend_opts *o = x->o;
	int counts[RECOMMEND_VARY_MAX] = { 0 }, in = inner_vary(o), rest = l, rc;
	struct eval *e;

	/* the capacity levels; a commitment's count stays 0 in the runs (its levels are re-billed) */
	for (int i = o->nvary - 1; i >= 0; i--) {
		int lv = grid_levels(&o->vary[i]);
		if (i == in || o->vary[i].commit)
			continue;
		counts[i] = o->vary[i].lo + rest % lv * o->vary[i].step;
		rest /= lv;
	}
	if (in >= 0)
		counts[in] = o->vary[in].lo + j * o->vary[in].step;
	rc = new_eval(x, s == &x->srch[0] ? PH_BASE : s == &x->srch[1] ? PH_LOW : PH_HIGH, l * s->inner + j, counts,
		      s->scale, SP_OPTIMISE, 0, exists, &e);
	if (rc)
		return rc;
	s->slot[l * s->inner + j] = e;
	s->line[l].next = j + 1;
	if (out)
		*out = e;
	return STATUS_OK;
}

/* Make search s at scale: every line's first candidate. */
static int start_search(struct ctx *x, struct srch *s, struct recommend_search *out, double scale)
{
	const struct recommend_opts *o = x->o;

	s->active = true;
	s->out = out;
	s->scale = scale;
	out->scale_rate = scale;
	out->best = -1;
	s->total = 1;
	for (int i = 0; i < o->nvary; i++)
		s->total *= grid_levels(&o->vary[i]);
	s->inner = inner_vary(o) >= 0 ? levels(&o->vary[inner_vary(o)]) : 1;
	if (!(s->slot = calloc((size_t)s->total, sizeof *s->slot)) ||
	    !(s->line = calloc((size_t)(s->total / s->inner), sizeof *s->line)))
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	for (int l = 0; l < s->total / s->inner; l++) {
		int rc;
		s->line[l].prev = NAN;
		if ((rc = line_eval(x, s, l, 0, true, NULL)))
			return rc;
	}
	return STATUS_OK;
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
			nris = combo(x, i % x->ncombos, counts, ris);
			if ((rc = bill(x, e->terms, ris, nris, SP_AT, b->sp_usd_per_h, cost, util, &sp)))
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
static int cheapest(const struct recommend_search *s)
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
static int choose_by_rule(struct ctx *x)
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
	none_why(&r->base);
	return STATUS_OK;
}

/*
 * A ladder for the first varied regional RI of the choice (re-billed on the choice's terms, which follow the
 * term): part of it bought at the term's start and more at the start of a later quarter (a second purchase
 * with its own full term from there), with the other commitments as chosen and the Savings Plan optimised
 * over what they leave. The cheapest such ladder is kept when it costs less over the term than buying the
 * chosen count at the start.
 */
static int ladder(struct ctx *x)
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
				if ((rc = bill(x, e->terms, ris, m, SP_OPTIMISE, 0, cost, util, &sp)))
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

/*
 * Every search has finished: the choice by its rule, the ladder, then the check: the choice simulated with its
 * commitments set (when it has a plan or a varied RI, or the term method follows the term; by the other such
 * method then).
 */
static int choose(struct ctx *x)
{
	struct recommend_result *r = x->r;
	const struct recommend_candidate *b;
	bool commits = false;
	int rc;

	if ((rc = choose_by_rule(x)))
		return rc;
	if (r->base.best < 0)
		return STATUS_OK;
	if ((rc = ladder(x)))
		return rc;
	b = &r->base.cands[r->base.best];
	for (int i = 0; i < x->o->nvary; i++)
		commits |= x->o->vary[i].commit && b->counts[i] > 0;
	if (!commits && !(x->sp_index >= 0 && b->sp_usd_per_h > 0) && x->term == RECOMMEND_TERM_WINDOW)
		return STATUS_OK;
	/* a scenario's plan cannot be set to $0 (the loader wants > 0): no plan is billed by taking the
	 * scenario's own off the hours, as the search does (SP_AT 0) */
	return new_eval(x, PH_CHECK, 0, b->counts, r->base.scale_rate,
			x->sp_index >= 0 && b->sp_usd_per_h > 0 ? SP_SIMULATED : SP_AT,
			x->sp_index >= 0 ? b->sp_usd_per_h : 0, true, &x->check);
}

/*
 * Every line of s is done: its candidates in grid order into s->out (each simulated candidate's commitment
 * levels one after the other, in --vary order), the cheapest that keeps the constraint (the first on a tie)
 * and why there is none. When every search is done, the choice (choose).
 */
static int finish_search(struct ctx *x, struct srch *s)
{
	struct recommend_search *out = s->out;
	int n = 0, per = x->ncombos;

	for (int l = 0; l < s->total / s->inner; l++)
		n += s->line[l].decided * per;
	if (!(out->cands = calloc((size_t)(n ? n : 1), sizeof *out->cands)) ||
	    !(s->order = calloc((size_t)(n ? n : 1), sizeof *s->order)))
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	for (int l = 0; l < s->total / s->inner; l++)
		for (int j = 0; j < s->line[l].decided; j++) {
			struct eval *e = s->slot[l * s->inner + j];
			for (int c = 0; c < per; c++) {
				struct recommend_candidate *k = &out->cands[out->ncands];
				struct savings_ri_terms ris[RECOMMEND_VARY_MAX];
				s->order[out->ncands] = e;
				if (e->combos) {
					*k = e->combos[c];
				} else {  /* invalid: every level of it */
					*k = e->c;
					combo(x, c, k->counts, ris);
				}
				out->invalid += k->invalid;
				out->ncands++;
			}
		}
	out->best = cheapest(out);
	none_why(out);
	s->finished = true;
	for (int i = 0; i < 3; i++)
		if (x->srch[i].active && !x->srch[i].finished)
			return STATUS_OK;
	return choose(x);
}

/*
 * Decide line l of s as far as its candidates allow, in order: once a feasible candidate costs more than the
 * feasible one before it, the rest of the line is pruned (a candidate run ahead is dropped); else the next
 * level is made. A candidate that failed stops the line there (the frontier reports it).
 */
static int advance_line(struct ctx *x, struct srch *s, int l)
{
	struct line *ln = &s->line[l];
	int rc;

	if (ln->done)
		return STATUS_OK;
	while (!ln->done) {
		int j = ln->decided;
		struct eval *e = s->slot[l * s->inner + j], *ahead;
		if (!e || !e->decided || (e->stop != STOP_NONE && e->stop != STOP_INVALID))
			return STATUS_OK;
		ln->decided++;
		/* with --growth every candidate is priced in every case (the regret), so nothing is pruned */
		if (e->c.feasible && !isnan(ln->prev) && e->c.cost_term_usd > ln->prev && !x->o->growth_given) {
			s->out->pruned += s->inner - j - 1;
			ln->done = true;
			if (j + 1 < s->inner && (ahead = s->slot[l * s->inner + j + 1])) {
				ahead->dropped = true;
				free_reps(x, ahead);
				s->slot[l * s->inner + j + 1] = NULL;
			}
		} else {
			if (e->c.feasible)
				ln->prev = e->c.cost_term_usd;
			if (j + 1 == s->inner)
				ln->done = true;
			else if ((ahead = s->slot[l * s->inner + j + 1]))
				ahead->exists = true;
			else if ((rc = line_eval(x, s, l, j + 1, true, NULL)))
				return rc;
		}
	}
	if (++s->lines_done == s->total / s->inner)
		return finish_search(x, s);
	return STATUS_OK;
}

/*
 * e ran its course: its terms, then its figures. In a search every commitment level is re-billed on its runs
 * (combos) and e->c is the cheapest of them; the on-demand-only plan and the check are billed as their mode
 * says. The base search's terms are kept for the ladder.
 */
static int bill_eval(struct ctx *x, struct eval *e)
{
	double cost[RECOMMEND_REPS_MAX], util[RECOMMEND_REPS_MAX];
	struct savings_ri_terms ris[RECOMMEND_VARY_MAX];
	struct term *terms = NULL;
	int rc;

	if ((rc = make_terms(x, e, &terms)))
		return rc;
	if (!srch_of(x, e->phase)) {
		rc = bill(x, terms, NULL, 0, e->mode, e->commit, cost, util, &e->c.sp_usd_per_h);
		if (!rc)
			summarise(x, e, terms, cost, util, &e->c);
		free_terms(terms, x->o->replications);
		return rc;
	}
	if (!(e->combos = calloc((size_t)x->ncombos, sizeof *e->combos))) {
		free_terms(terms, x->o->replications);
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	}
	for (int j = 0; j < x->ncombos && !rc; j++) {
		struct recommend_candidate *c = &e->combos[j];
		int nris;
		memcpy(c->counts, e->counts, sizeof c->counts);
		nris = combo(x, j, c->counts, ris);
		rc = bill(x, terms, ris, nris, SP_OPTIMISE, 0, cost, util, &c->sp_usd_per_h);
		if (!rc)
			summarise(x, e, terms, cost, util, c);
		/* the cheapest level stands for e in its line (they keep or break the SLO alike) */
		if (!rc && (j == 0 || c->cost_term_usd < e->c.cost_term_usd))
			e->c = *c;
	}
	if (!rc)  /* kept for the ladder and the regret (priced at the base choice's plan) */
		e->terms = terms;
	else
		free_terms(terms, x->o->replications);
	return rc;
}

/*
 * Every run of e has answered: find where it stopped, if it did, and else bill it and summarise it.
 */
static int decide(struct ctx *x, struct eval *e)
{
	struct recommend_candidate *c = &e->c;
	struct rep *reps = e->reps;
	int rc = STATUS_OK;

	memset(c, 0, sizeof *c);
	memcpy(c->counts, e->counts, sizeof c->counts);
	e->stop = STOP_NONE;
	for (e->stop_k = 0; e->stop_k < e->nruns; e->stop_k++) {
		struct rep *rp = &reps[e->stop_k];
		e->stop_status = rp->status;
		if (rp->status != STATUS_OK) {
			e->stop = !rp->load_failed ? STOP_RUN : rp->status == STATUS_EINPUT ? STOP_INVALID : STOP_LOAD;
			break;
		}
		if (x->o->slo != RECOMMEND_SLO_RATE && isnan(rp->slo_met)) {
			e->stop = STOP_VERDICT;
			e->stop_status = STATUS_EINPUT;
			break;
		}
	}
	if (e->stop == STOP_INVALID)  /* not a failure: an infeasible candidate, and the search goes on */
		mark_invalid(c, reps[e->stop_k].msg);
	else if (e->stop == STOP_NONE && (rc = bill_eval(x, e)))
		return rc;
	for (int k = 0; k < e->nruns; k++) {  /* the usage is billed: only the recordings wait for the frontier */
		free(reps[k].hours);
		reps[k].hours = NULL;
	}
	e->decided = true;
	if (srch_of(x, e->phase) && e->exists)
		return advance_line(x, srch_of(x, e->phase), e->slot / srch_of(x, e->phase)->inner);
	return STATUS_OK;
}

/* Take a finished run into its candidate (a dropped one's results are thrown away). */
static int take(struct ctx *x, struct runpool_result *res)
{
	struct eval *e = x->evals[res->tag / RECOMMEND_REPS_MAX];
	struct rep *rp;

	if (e->dropped) {
		runpool_result_fini(x->pool, res);
		return STATUS_OK;
	}
	rp = &e->reps[res->tag % RECOMMEND_REPS_MAX];
	rp->status = res->status;
	rp->load_failed = res->load_failed;
	if (res->status != STATUS_OK) {
		size_t len = strlen(res->msg) + 1;
		if (!(rp->msg = malloc(len))) {
			runpool_result_fini(x->pool, res);
			return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
		}
		memcpy(rp->msg, res->msg, len);
	}
	if (res->status == STATUS_OK) {
		const struct world_report *rep = &res->rep;
		rp->cost_meas_usd = world_report_get(rep, "cost_measured_usd");
		rp->measured_h = world_report_get(rep, "measured_s") / 3600;
		rp->violation = world_report_get(rep, "slo_violation_rate");
		rp->slo_met = world_report_get(rep, "slo_met");
		rp->floor = world_report_get(rep, "slo_violation_rate_floor");
		if (isnan(rp->violation))
			rp->violation = 0;  /* no measured request: nothing violated */
		if (isnan(rp->floor))
			rp->floor = 0;
		for (int w = 0; w < rep->nwarnings; w++) {
			if (strcmp(rep->warnings[w].code, "slo_unreachable") == 0)
				snprintf(rp->unreachable, sizeof rp->unreachable, "%s", rep->warnings[w].message);
			if (strcmp(rep->warnings[w].code, "fleet_at_max") == 0)
				snprintf(rp->at_max, sizeof rp->at_max, "%s", rep->warnings[w].message);
			if (strcmp(rep->warnings[w].code, "extrapolated_with_growth") == 0)
				snprintf(rp->extrapolated, sizeof rp->extrapolated, "%s", rep->warnings[w].message);
		}
		rp->hours = res->hours;
		rp->nhours = res->nhours;
		rp->record = res->record;
		res->hours = NULL;
		res->record = NULL;
	}
	runpool_result_fini(x->pool, res);
	return ++e->got == e->nruns ? decide(x, e) : STATUS_OK;
}

/*
 * The candidate whose next run to hand out (*out, NULL: none): the earliest (in the frontier's order) that the
 * searches need; else one run ahead; else a line's next candidate, run ahead of its pruning decision.
 */
static int pick(struct ctx *x, struct eval **out)
{
	struct eval *best = NULL;

	for (int pass = 0; pass < 2 && !best; pass++)
		for (int i = 0; i < x->nevals; i++) {
			struct eval *e = x->evals[i];
			if (e->dropped || e->handed == e->nruns || e->exists != (pass == 0))
				continue;
			if (!best || e->phase < best->phase || (e->phase == best->phase && e->slot < best->slot))
				best = e;
		}
	*out = best;
	if (best)
		return STATUS_OK;
	for (int i = 0; i < 3; i++) {
		struct srch *s = &x->srch[i];
		for (int l = 0; s->active && l < s->total / s->inner; l++) {
			struct line *ln = &s->line[l];
			const struct eval *pending = s->slot[l * s->inner + ln->decided];
			/* one candidate ahead of the one being decided, unless that one has failed */
			if (!ln->done && ln->next == ln->decided + 1 && ln->next < s->inner && pending && !pending->decided)
				return line_eval(x, s, l, ln->next, false, out);
		}
	}
	return STATUS_OK;
}

/* The label "recommend=" + the overrides, space-separated (owned, NULL when out of memory). */
static char *run_label(const char *const *sets, int n)
{
	size_t size = sizeof "recommend=", o;
	char *label;

	for (int i = 0; i < n; i++)
		size += strlen(sets[i]) + 1;
	if (!(label = malloc(size)))
		return NULL;
	o = (size_t)snprintf(label, size, "recommend=");
	for (int i = 0; i < n; i++)
		o += (size_t)snprintf(label + o, size - o, "%s%s", i ? " " : "", sets[i]);
	return label;
}

/* Give every idle worker a run. */
static int hand_out(struct ctx *x)
{
	while (runpool_idle(x->pool) > 0) {
		char buf[OWN_SETS_MAX][96];
		const char *sets[SETS_MAX];
		struct eval *e;
		int k, n, rc;
		if ((rc = pick(x, &e)) || !e)
			return rc;
		k = e->handed++;
		n = make_sets(x, e, k, buf, sets);
		if ((rc = runpool_submit(x->pool, (int64_t)e->index * RECOMMEND_REPS_MAX + k, sets, n, x->d)))
			return rc;
	}
	return STATUS_OK;
}

/*
 * At the frontier: count e's runs, store them (--db) in order with their labels, and stop the search where a
 * run failed, as one process making them in this order would have (a run that states no verdict is stored,
 * then stops it). s: e's search, NULL outside one.
 */
static int settle(struct ctx *x, struct eval *e, struct srch *s)
{
	int n = e->stop == STOP_VERDICT ? e->stop_k + 1 : e->stop_k, rc = STATUS_OK;

	for (int k = 0; k < n && rc == STATUS_OK; k++) {
		char buf[OWN_SETS_MAX][96], *label;
		const char *sets[SETS_MAX];
		int nsets;
		x->r->runs++;
		if (!x->st)
			continue;
		nsets = make_sets(x, e, k, buf, sets);
		if (!(label = run_label(sets, nsets))) {
			rc = diag_fail(x->d, STATUS_ENOMEM, "out of memory");
			break;
		}
		rc = runpool_store(x->pool, &(struct runpool_result){ .record = e->reps[k].record }, sets, nsets, x->st,
				   (const char *const[]){ label }, 1, &e->ids[k], x->d);
		e->reps[k].record = NULL;
		free(label);
		if (!rc && s && !s->session[0])
			snprintf(s->session, sizeof s->session, "%s#%" PRId64, x->name, e->ids[k]);
	}
	if (rc)
		return rc;
	switch (e->stop) {
	case STOP_RUN:
		x->r->runs++;  /* it ran */
		/* fall through */
	case STOP_LOAD:
		return diag_fail(x->d, e->stop_status, "%s", e->reps[e->stop_k].msg);
	case STOP_VERDICT:
		return diag_fail(x->d, STATUS_EINPUT, "%s states no SLO verdict (slo.max_violation_rate or a percentile "
				 "SLO): give --max-violation-rate R", x->o->scenario);
	case STOP_INVALID:
		break;
	case STOP_NONE:
		if (s && x->st)
			rc = label_candidate(x, s, e);
		break;
	}
	free_reps(x, e);
	return rc;
}

/* --db, a search's end: recommend_choice=1 on the choice's runs, then its session complete (its last write). */
static int end_search(struct ctx *x, struct srch *s)
{
	int rc = STATUS_OK;

	if (x->st && s->out->best >= 0)
		rc = store_label_runs(x->st, s->order[s->out->best]->ids, s->order[s->out->best]->nruns,
				      "recommend_choice", "1", x->d);
	if (!rc && x->st && s->session_run)  /* last: a session killed before here stays incomplete */
		rc = store_label_runs(x->st, &s->session_run, 1, "recommend_session_state", "complete", x->d);
	return rc;
}

/* Move the frontier as far as the decided candidates allow; x->f_phase is PH_END when all is done. */
static int frontier(struct ctx *x)
{
	struct recommend_result *r = x->r;
	int rc;

	while (x->f_phase != PH_END) {
		struct srch *s = srch_of(x, x->f_phase);
		struct eval *e;
		if (s && s->active) {
			while (x->f_slot < s->total) {
				int l = x->f_slot / s->inner, j = x->f_slot % s->inner;
				if (s->line[l].done && j >= s->line[l].decided) {  /* pruned: the next line */
					x->f_slot = (l + 1) * s->inner;
					continue;
				}
				if (!(e = s->slot[x->f_slot]) || !e->exists || !e->decided)
					return STATUS_OK;
				if ((rc = settle(x, e, s)))
					return rc;
				x->f_slot++;
			}
			/* the base search's choice may follow the others (choose_by_rule): it ends with the check */
			if (s != &x->srch[0] && (rc = end_search(x, s)))
				return rc;
		} else if (x->f_phase == PH_OD) {
			if (!(e = x->od)->decided)
				return STATUS_OK;
			if ((rc = settle(x, e, NULL)))
				return rc;
			r->od = e->c;
			r->od_ok = !e->c.invalid;
			if (e->c.invalid)  /* that fleet cannot be loaded: say so, and go on */
				snprintf(r->od_why, sizeof r->od_why, "%s", e->c.why);
		} else if (x->f_phase == PH_CHECK) {
			if (!x->base_ended && (rc = end_search(x, &x->srch[0])))
				return rc;
			x->base_ended = true;
			if (r->base.best >= 0)
				r->check = r->base.cands[r->base.best];
			if (r->base.best >= 0 && (e = x->check)) {
				if (!e->decided)
					return STATUS_OK;
				if ((rc = settle(x, e, NULL)))
					return rc;
				if (e->c.invalid && e->method != x->term) {  /* the other method refuses the scenario */
					snprintf(r->check_why, sizeof r->check_why, "%s", e->c.why);
				} else if (e->c.invalid) {  /* the commitments, set, are refused: say so */
					return diag_fail(x->d, STATUS_EINPUT, "%s", e->c.why);
				} else {
					r->check = e->c;
					r->checked = true;
				}
			}
		}
		x->f_phase++;
		x->f_slot = 0;
	}
	return STATUS_OK;
}

/* Run the searches: hand out runs, take them back, move the frontier, until it has passed everything. */
static int run_all(struct ctx *x, const int *od_levels, double base)
{
	const struct recommend_opts *o = x->o;
	int rc;

	if ((rc = start_search(x, &x->srch[0], &x->r->base, x->scale_rate * base)) ||
	    (rc = new_eval(x, PH_OD, 0, od_levels, x->scale_rate * base, SP_AT, 0, true, &x->od)))
		return rc;
	if (o->growth_given && ((rc = start_search(x, &x->srch[1], &x->r->low, x->scale_rate * o->growth[0])) ||
				(rc = start_search(x, &x->srch[2], &x->r->high, x->scale_rate * o->growth[2]))))
		return rc;
	for (;;) {
		struct runpool_result res;
		if ((rc = frontier(x)) || x->f_phase == PH_END || (rc = hand_out(x)))
			return rc;
		if (runpool_busy(x->pool) == 0)  /* nothing running, nothing handed out: no worker is left */
			return diag_fail(x->d, STATUS_EINTERNAL, "recommend: no worker process is left to run the search");
		if ((rc = runpool_next(x->pool, &res, x->d)) || (rc = take(x, &res)))
			return rc;
	}
}

/*
 * Whether the scenario's text with the --set overrides writes autoscaling.max (the loader's default, the
 * entries' max added up, follows a varied max by itself).
 */
static int states_as_max(struct ctx *x, const struct scenario *sc, bool *stated)
{
	struct yamldoc y = { 0 };
	struct yamldoc_ref root, as, max;
	int rc = yamldoc_open(&y, sc->text, strlen(sc->text), x->o->scenario, x->d);

	if (!rc)
		rc = yamldoc_apply_sets(&y, x->o->sets, x->o->nsets, "catalog");
	if (!rc) {
		yamldoc_root(&y, &root);
		yamldoc_child(&root, "autoscaling", &as);
		yamldoc_child(&as, "max", &max);
		*stated = max.node != NULL;
	}
	yamldoc_close(&y);
	return rc;
}

/* Check the varied entries and the plan against the scenario; fill the rates and the term. */
static int inspect(struct ctx *x, const struct scenario *sc)
{
	const struct recommend_opts *o = x->o;
	struct recommend_result *r = x->r;
	bool three = false, as_max_stated = false;
	int plans = 0, rc, per = sc->copies.enabled ? sc->copies.per_instance : 1;

	if ((rc = states_as_max(x, sc, &as_max_stated)))
		return rc;
	/* as scenario_finish.c adds up what the fleet holds: the max of every entry that serves */
	x->as_max_stated = as_max_stated && sc->autoscaling.policy != POLICY_NONE;
	x->as_max = sc->autoscaling.max;
	x->capacity = 0;
	for (int i = 0; i < sc->nfleet; i++)
		x->capacity += sc->fleet[i].use != USE_JOBS ? (long)sc->fleet[i].max * sc->fleet[i].weight * per : 0;
	for (int v = 0; v < o->nvary; v++) {
		const struct fleet_entry *e;
		x->unit[v] = 0;  /* a commitment (commitments.I.count) holds no capacity */
		x->level_loaded[v] = 0;
		if (o->vary[v].commit || o->vary[v].fleet_index >= sc->nfleet)
			continue;
		e = &sc->fleet[o->vary[v].fleet_index];
		x->unit[v] = e->use != USE_JOBS ? e->weight * per : 0;
		x->level_loaded[v] = e->count;  /* = max for a capacity reservation; a varied max below */
	}
	r->od_usd_per_h = sc->serving.od_usd_per_h;
	for (int i = 0; i < sc->nfleet; i++)
		if (sc->fleet[i].option == OPTION_ON_DEMAND) {
			r->od_usd_per_h = sc->fleet[i].usd_per_h;
			break;
		}
	x->sp_index = -1;
	r->sp_discount = NAN;
	for (int i = 0; i < sc->ncommit; i++) {
		if (sc->commit[i].option != OPTION_SAVINGS_PLAN)
			continue;
		if (plans++)
			return diag_fail(x->d, STATUS_EINPUT, "%s: recommend chooses one Savings Plan; commitments.%d "
					 "is a second savings_plan entry", o->scenario, i);
		x->sp_index = i;
		x->sp_loaded_usd_per_h = sc->commit[i].commit_usd_per_h;
		x->sp_discount = r->sp_discount = sc->commit[i].discount;
		three |= sc->commit[i].term == TERM_3Y;
	}
	for (int v = 0; v < o->nvary; v++) {
		const struct recommend_vary *vy = &o->vary[v];
		const struct fleet_entry *e;
		for (int w = 0; w < v; w++)
			if (o->vary[w].fleet_index == vy->fleet_index && o->vary[w].commit == vy->commit)
				return diag_fail(x->d, STATUS_EINPUT, "--vary %s: %s is already varied by --vary %s; "
						 "expected each entry once", vy->text, vy->key, o->vary[w].text);
		if (vy->fleet_index >= (vy->commit ? sc->ncommit : sc->nfleet))
			return diag_fail(x->d, STATUS_EINPUT, "--vary %s: %s has %d %s entries", vy->key,
					 o->scenario, vy->commit ? sc->ncommit : sc->nfleet,
					 vy->commit ? "commitments" : "fleet");
		e = vy->commit ? &sc->commit[vy->fleet_index] : &sc->fleet[vy->fleet_index];
		r->vary_kind[v] = e->option;
		if (vy->commit && e->option != OPTION_RESERVED)
			return diag_fail(x->d, STATUS_EINPUT, "--vary %s: commitments.%d is %s; expected a reserved "
					 "entry (a Savings Plan's commitment is computed, not varied)", vy->key,
					 vy->fleet_index, option_kind_name(e->option));
		if (vy->max) {
			if (e->option != OPTION_ON_DEMAND && e->option != OPTION_SPOT)
				return diag_fail(x->d, STATUS_EINPUT, "--vary %s: fleet.%d is %s; expected an on_demand "
						 "or spot entry for a max (a commitment's count: fleet.%d.count)", vy->key,
						 vy->fleet_index, option_kind_name(e->option), vy->fleet_index);
			x->level_loaded[v] = e->max;
			r->break_even[v] = NAN;
			continue;
		}
		if (!vy->commit && e->option != OPTION_RESERVED && e->option != OPTION_ODCR &&
		    e->option != OPTION_CAPACITY_BLOCK)
			return diag_fail(x->d, STATUS_EINPUT, "--vary %s: fleet.%d is %s; expected a reserved, odcr "
					 "or capacity_block entry (or, for an on_demand or spot entry, fleet.%d.max)", vy->key,
					 vy->fleet_index, option_kind_name(e->option), vy->fleet_index);
		three |= e->term == TERM_3Y;
		/* the effective hourly rate: reserved pays upfront over the term's hours (option_reserved.c) */
		r->break_even[v] = (e->usd_per_h + (e->option == OPTION_RESERVED ? e->upfront_usd /
				    (e->term == TERM_3Y ? TERM_3Y_H : TERM_1Y_H) : 0)) / r->od_usd_per_h;
	}
	r->term_h = three ? TERM_3Y_H : TERM_1Y_H;
	/* a varied regional RI, re-billed: its terms at count 1, as the run's bill has them (world_ri_terms) */
	{
		struct savings_ri_terms ris[SCENARIO_COMMIT_MAX];
		int from[SCENARIO_COMMIT_MAX], nri = world_ri_terms(sc, ris, from);
		x->ncombos = 1;
		for (int v = 0; v < o->nvary; v++) {
			if (!o->vary[v].commit)
				continue;
			x->ncombos *= levels(&o->vary[v]);
			for (int i = 0; i < nri; i++)
				if (from[i] == o->vary[v].fleet_index) {
					x->ri[v] = ris[i];
					x->ri[v].count = 1;
				}
		}
		if (x->ncombos > RECOMMEND_GRID_MAX)
			return diag_fail(x->d, STATUS_EINPUT, "the commitments.I.count ranges make %d levels; at most %d",
					 x->ncombos, RECOMMEND_GRID_MAX);
		r->ncombos = x->ncombos;
	}
	x->growth_per_day = sc->arrivals.growth_per_day;
	x->nwin = o->term_windows > 0 ? o->term_windows : WINDOWS_DEFAULT;
	x->term = o->term;
	if (x->term == RECOMMEND_TERM_AUTO) {  /* a growing service is followed over the term by default */
		x->term = x->growth_per_day != 0 ? RECOMMEND_TERM_WINDOWS : RECOMMEND_TERM_WINDOW;
		r->term_auto = true;
	}
	r->term = x->term;
	r->term_windows = x->term == RECOMMEND_TERM_WINDOWS ? x->nwin : 0;
	r->check_term = x->term == RECOMMEND_TERM_FLUID ? RECOMMEND_TERM_WINDOWS :
			x->term == RECOMMEND_TERM_WINDOWS ? RECOMMEND_TERM_FLUID : RECOMMEND_TERM_WINDOW;
	if (r->term_h / 24 > FLUID_DAYS_MAX) {
		if (x->term == RECOMMEND_TERM_FLUID)
			return diag_fail(x->d, STATUS_EINPUT, "--term fluid: the term is %.0f days (a 3-year commitment), "
					 "longer than a run's longest horizon (%d days); use --term windows", r->term_h / 24,
					 FLUID_DAYS_MAX);
		if (x->term == RECOMMEND_TERM_WINDOWS) {  /* no fluid run of the term: checked by the windows again */
			r->check_term = RECOMMEND_TERM_WINDOWS;
			snprintf(r->check_why, sizeof r->check_why, "the %.0f-day term is longer than a fluid run's longest "
				 "horizon (%d days)", r->term_h / 24, FLUID_DAYS_MAX);
		}
	}
	if (x->term == RECOMMEND_TERM_WINDOWS && x->o->replications * x->nwin > RECOMMEND_REPS_MAX)
		return diag_fail(x->d, STATUS_EINPUT, "--replications %d x %d windows: at most %d runs per candidate",
				 x->o->replications, x->nwin, RECOMMEND_REPS_MAX);
	r->start_unix_s = (double)sc->start_unix_us / 1e6;
	x->seed = sc->seed;
	snprintf(x->name, sizeof x->name, "%s", sc->name);
	x->scale_rate = sc->arrivals.scale_rate;
	return STATUS_OK;
}

/* The scenario with the --set overrides: its figures, and the overrides' keys (as the loader took them). */
static int load_base(struct ctx *x)
{
	struct scenario sc;
	int rc = scenario_load(&sc, x->o->scenario, x->o->sets, x->o->nsets, x->d);

	if (rc)
		return rc;
	rc = inspect(x, &sc);
	scenario_fini(&sc);
	if (rc)
		return rc;
	x->set_key = calloc((size_t)(x->o->nsets > 0 ? x->o->nsets : 1), sizeof *x->set_key);
	if (!x->set_key)
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	for (int u = 0; u < x->o->nsets; u++) {
		const char *eq = strchr(x->o->sets[u], '=');
		char key[YAMLDOC_PATH_MAX];
		size_t len = eq ? (size_t)(eq - x->o->sets[u]) : 0;
		/* the loader took it, so it is KEY=VALUE with a key yamldoc_set_key reads */
		if (len < sizeof key) {
			memcpy(key, x->o->sets[u], len);
			key[len] = '\0';
			yamldoc_set_key(key, x->set_key[u], sizeof x->set_key[u]);
		}
	}
	return STATUS_OK;
}

/* The most runs a search could make: every grid point of each search and the two plans, each replicated. */
static int runs_at_most(const struct recommend_opts *o, int total)
{
	return ((o->growth_given ? 3 : 1) * total + 2) * o->replications;
}

int recommend_run(const struct recommend_opts *o, struct recommend_result *r, struct diag *d)
{
	struct ctx x = { .o = o, .r = r, .d = d };
	int od_levels[RECOMMEND_VARY_MAX] = { 0 }, total = 1, jobs, rc;
	double base = o->growth_given ? o->growth[1] : 1;

	memset(r, 0, sizeof *r);
	r->base.best = r->low.best = r->high.best = -1;
	r->case_best[0] = r->case_best[1] = r->case_best[2] = -1;
	r->choose = o->choose;
	if (o->choose != RECOMMEND_CHOOSE_BASE && !o->growth_given)
		return diag_fail(d, STATUS_EINPUT, "--choose expected or regret needs --growth LOW,BASE,HIGH (the cases "
				 "to weigh)");
	if (o->term_windows != 0 && (o->term_windows < 2 || o->term_windows > 52))
		return diag_fail(d, STATUS_EINPUT, "--term windows:%d: expected 2 to 52 windows", o->term_windows);
	for (int i = 0; i < o->nvary; i++)
		total *= levels(&o->vary[i]);
	if (total > RECOMMEND_GRID_MAX)
		return diag_fail(d, STATUS_EINPUT, "the --vary ranges make %d candidates; at most %d", total,
				 RECOMMEND_GRID_MAX);
	if (o->replications < 1 || o->replications > RECOMMEND_REPS_MAX)
		return diag_fail(d, STATUS_EINPUT, "--replications %d: expected 1 to %d", o->replications,
				 RECOMMEND_REPS_MAX);
	if (o->nsets < 0 || o->nsets > RECOMMEND_SETS_MAX)
		return diag_fail(d, STATUS_EINPUT, "at most %d --set options", RECOMMEND_SETS_MAX);
	if (o->jobs < 0 || o->jobs > RECOMMEND_JOBS_MAX)
		return diag_fail(d, STATUS_EINPUT, "--jobs %d: expected 1 to %d", o->jobs, RECOMMEND_JOBS_MAX);
	jobs = o->jobs < 1 ? 1 : o->jobs < runs_at_most(o, total) ? o->jobs : runs_at_most(o, total);
	/* the workers start before the database is opened: no SQLite connection crosses a fork */
	if ((rc = load_base(&x)) || (rc = runpool_open(&x.pool, o->scenario, jobs, o->db != NULL, d)) ||
	    (o->db && (rc = store_open(&x.st, o->db, d))))
		goto out;
	/* on-demand only: no commitment, no Spot, the most on-demand capacity searched */
	for (int i = 0; i < o->nvary; i++)
		if (o->vary[i].max && r->vary_kind[i] == OPTION_ON_DEMAND)
			od_levels[i] = o->vary[i].lo + (levels(&o->vary[i]) - 1) * o->vary[i].step;
	rc = run_all(&x, od_levels, base);
out:
	for (int i = 0; i < x.nevals; i++) {  /* before the pool: recordings left in its spool */
		free_reps(&x, x.evals[i]);
		free(x.evals[i]->combos);
		free_terms(x.evals[i]->terms, o->replications);
		free(x.evals[i]->ids);
		free(x.evals[i]);
	}
	free(x.evals);
	runpool_close(x.pool);  /* a run still going (one run ahead and ruled out) is killed */
	for (int i = 0; i < 3; i++) {
		free(x.srch[i].slot);
		free(x.srch[i].order);
		free(x.srch[i].line);
	}
	store_close(x.st);
	free(x.set_key);
	return rc;
}

void recommend_result_fini(struct recommend_result *r)
{
	for (int c = 0; c < 3; c++)
		free(r->case_cost[c]);
	free(r->base.cands);
	free(r->low.cands);
	free(r->high.cands);
	memset(r, 0, sizeof *r);
}
