/*
 * recommend_private: what the files of `gpucap recommend` share (recommend.c: the search and its worker pool;
 * recommend_bill.c: a candidate's bill over the term, every commitment level re-billed; recommend_choice.c:
 * the choice under several traffic cases, the regret and the ladder; recommend_scenario.c: the scenario checked
 * against the options). Not part of the interface: analysis/recommend.h is.
 */
#ifndef GPUCAP_RECOMMEND_PRIVATE_H
#define GPUCAP_RECOMMEND_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "recommend.h"
#include "runpool.h"
#include "savings.h"
#include "store.h"
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

/* Levels of vary v. */
static inline int levels(const struct recommend_vary *v)
{
	return (v->hi - v->lo) / v->step + 1;
}

/* The search of phase ph, NULL outside one. */
static inline struct srch *srch_of(struct ctx *x, enum phase ph)
{
	return ph == PH_BASE ? &x->srch[0] : ph == PH_LOW ? &x->srch[1] : ph == PH_HIGH ? &x->srch[2] : NULL;
}

/* Free terms[0 .. n) and the array (NULL: nothing). */
void recommend_free_terms(struct term *terms, int n);

/* The replications' costs over the term with RIs ris added and the Savings Plan as mode says. */
int recommend_bill(struct ctx *x, const struct term *t, const struct savings_ri_terms *ris, int nris,
		enum sp_mode mode, double commit, double *cost, double *util, double *sp);

/* Commitment level combination j: the varied counts it sets in counts[], its RIs into ris; returns how
 * many. */
int recommend_combo(const struct ctx *x, int j, int *counts, struct savings_ri_terms *ris);

/* c's scenario does not load: keep the loader's message as its reason, and no figures. */
void recommend_mark_invalid(struct recommend_candidate *c, const char *msg);

/* e ran its course: its terms, then its figures (every commitment level in a search). */
int recommend_bill_eval(struct ctx *x, struct eval *e);

/* Why s has no choice (s->none, s->none_why). */
void recommend_none_why(struct recommend_search *s);

/* The cheapest candidate of s that keeps the SLO, the first on a tie; -1 when none does. */
int recommend_cheapest(const struct recommend_search *s);

/* --growth: price every plan in every case, then the choice by the rule. */
int recommend_choose_rule(struct ctx *x);

/* The ladder of the choice's first varied regional RI, when the term method follows the term. */
int recommend_ladder(struct ctx *x);

/* The scenario with the --set overrides: its figures, checked against the options. */
int recommend_load_base(struct ctx *x);

#endif
