/*
 * recommend: which commitments to buy, chosen by simulation (`gpucap recommend`, analysis/README.md "Recommending what
 * to buy").
 *
 * Candidates are the levels named by the --vary ranges. Levels that change capacity (the `max` of `on_demand` and
 * `spot` entries, the counts of zonal `reserved`, `odcr` and `capacity_block` entries) are simulated, a Spot
 * entry's interruptions included; levels that change only the bill (the count of a regional `reserved`
 * commitment, commitments.I.count) are re-billed on those runs' hourly usage (rebill.h), as is the scenario's
 * Savings Plan, whose commitment is computed (rebill_sp_optimum over what the RIs leave), not searched. The
 * loader refuses an autoscaling.max above what the fleet entries hold (their max added up, in autoscaling's
 * units); so when the scenario states autoscaling.max under a policy, a run whose levels hold less sets
 * autoscaling.max to what they hold (the stated value stays the cap above it).
 *
 * Every simulated candidate runs `replications` times with seeds seed, seed + 1, ... (the scenario's seed; the
 * same seeds for every candidate: common random numbers), keeping only the metrics and the hourly usage (and,
 * with --db, storing each run labelled `recommend=...`). The runs are made by `jobs` worker processes
 * (runpool.h), or in this process, and taken up in the order one process makes them (recommend.c, "the
 * frontier"): the results, the runs stored, their ids and labels do not depend on jobs. A candidate's cost over
 * the term (8760 h, or 26280 h when a varied entry or the plan has `term: 3y`) is found by the term method
 * (enum recommend_term): the window's cost per measured hour x the term's hours, one fluid run over the term,
 * or request-level windows spread over it. The objective is the mean over the replications; the constraint is
 * the SLO (mean slo_violation_rate <= max_violation_rate, or slo_met in every run). With --growth every
 * candidate is priced at LOW, BASE and HIGH and the choice follows enum recommend_choose.
 *
 * A candidate whose levels make the scenario invalid (the loader refuses it: a count over an entry's limit,
 * autoscaling bounds the fleet cannot hold) is not an error: it is kept as an infeasible candidate with the
 * loader's message (invalid, why) and counted in its search's `invalid`, and the search goes on.
 *
 * Errors: bad options and an invalid base scenario are STATUS_EINPUT (or what scenario_load returns) with
 * the message in the diag; a run that fails stops the search with its status (the first in that order).
 */
#ifndef GPUCAP_RECOMMEND_H
#define GPUCAP_RECOMMEND_H

#include <stdbool.h>
#include <stdio.h>

#include "diag.h"
#include "option.h"
#include "savings.h"

#define RECOMMEND_VARY_MAX 4       /* --vary options */
#define RECOMMEND_GRID_MAX 1000    /* candidates of the grid, before pruning */
#define RECOMMEND_REPS_MAX 1000    /* --replications */
#define RECOMMEND_SETS_MAX 256     /* --set options (as gpucap run's) */
#define RECOMMEND_JOBS_MAX 1024    /* --jobs (as gpucap sweep's) */

/* How a candidate's cost over the commitment's term is found (analysis/README.md, "The term"). */
enum recommend_term {
	RECOMMEND_TERM_AUTO,     /* windows when the scenario's traffic grows (growth_per_day != 0), else window */
	RECOMMEND_TERM_WINDOW,   /* the scenario's window, its cost per hour taken to hold for the whole term */
	RECOMMEND_TERM_FLUID,    /* one run over the whole term in fluid mode (1-year terms: the longest horizon
	                            is 400 days) */
	RECOMMEND_TERM_WINDOWS   /* term_windows request-level runs of the scenario's window at dates spread over
	                            the term, each standing for its segment of it */
};

/* Which candidate is the choice when --growth gives three traffic cases. */
enum recommend_choose {
	RECOMMEND_CHOOSE_BASE,      /* the cheapest at BASE that keeps the SLO there (also without --growth) */
	RECOMMEND_CHOOSE_EXPECTED,  /* the least mean cost over the cases, among those keeping the SLO in each */
	RECOMMEND_CHOOSE_REGRET     /* the least worst regret over the cases, among those keeping it at BASE */
};

enum recommend_slo {
	RECOMMEND_SLO_DEFAULT,  /* slo_met in every replication when the runs state one, else an error */
	RECOMMEND_SLO_RATE,     /* mean slo_violation_rate <= max_violation_rate */
	RECOMMEND_SLO_MET       /* slo_met in every replication */
};

struct recommend_vary {
	const char *text; /* the option as given ("fleet.00.count=0..4"), borrowed */
	char key[64];     /* "fleet.I.count" or "fleet.I.max", I in decimal however the option wrote it */
	int fleet_index;  /* I */
	bool commit;      /* the key is commitments.I.count (a regional RI), not fleet.I.count */
	bool max;         /* the entry's max (an on_demand or spot entry), not its count (a commitment) */
	int lo, hi, step; /* levels lo, lo + step, ... <= hi; 0 <= lo <= hi, step >= 1 */
};

struct recommend_opts {
	const char *scenario;                            /* the scenario file, borrowed */
	struct recommend_vary vary[RECOMMEND_VARY_MAX];  /* the varied counts, outermost first */
	int nvary;
	enum recommend_slo slo;                          /* the constraint */
	double max_violation_rate;                       /* RECOMMEND_SLO_RATE: the bound, [0, 1] */
	int replications;                                /* >= 1 */
	bool growth_given;                               /* --growth given */
	double growth[3];                                /* LOW, BASE, HIGH: multiples of scale_rate */
	const char *db;                                  /* store every run here; NULL: keep nothing */
	const char *const *sets;                         /* --set KEY.PATH=VALUE overrides (borrowed), nsets of
	                                                    them, applied to the scenario before the search and
	                                                    to every run; one of a key the search sets itself (a
	                                                    varied key, seed, workload.arrivals.scale_rate, the
	                                                    plan's commit_usd_per_h) gives its starting value,
	                                                    which each run's own setting replaces */
	int nsets;
	int jobs;                                        /* worker processes (runpool.h); 0 or 1: the runs are
	                                                    made in this process. The results do not depend on it */
	enum recommend_term term;                        /* how the term's cost is found */
	int term_windows;                                /* RECOMMEND_TERM_WINDOWS: how many (2 to 52; 0: 4) */
	enum recommend_choose choose;                    /* the choice's rule under --growth */
};

/* One candidate: its levels and what its replications gave. */
struct recommend_candidate {
	int counts[RECOMMEND_VARY_MAX];  /* the varied levels (counts, or maxes), as vary[] */
	double sp_usd_per_h;             /* the Savings Plan commitment (recommend_sp_optimum); 0 = none or
	                                    not worth buying; NaN when the scenario has no savings_plan */
	double cost_window_usd;          /* mean cost of the hours billed, at sp_usd_per_h: the window's (window
	                                    method), the fluid run's, or the term's (windows method) */
	double cost_per_hour_usd;        /* cost_term_usd / the term's hours */
	double cost_term_usd;            /* mean cost over the term, by the term method */
	double cost_term_p90_usd;        /* 90th percentile of the replications' term costs */
	double cost_term_sd_usd;         /* their standard deviation (0 with one replication) */
	double violation_mean;           /* mean slo_violation_rate */
	double violation_worst;          /* largest slo_violation_rate of a replication */
	int slo_met_reps;                /* replications with slo_met = 1 */
	bool feasible;                   /* meets the constraint */
	double sp_utilization;           /* with a plan: share of its commitment that covered usage (mean) */
	bool invalid;                    /* its scenario does not load (a level the scenario refuses): not run,
	                                    not feasible, its figures NaN; why says why */
	char why[DIAG_MSG_MAX];          /* the loader's message when invalid, else "" */
	bool slo_unreachable;            /* no capacity can keep the constraint: with --max-violation-rate R,
	                                    the mean slo_violation_rate_floor (requests over slo.latency_s on
	                                    service time alone) is above R; else a replication was warned
	                                    slo_unreachable (the scenario's SLO, models/metering/warn.h) */
	int at_max_reps;                 /* replications warned fleet_at_max (capacity at its maximum while
	                                    requests waited, in more than WARN_AT_MAX_FRACTION of the samples) */
	char warning[256];               /* why slo_unreachable, else the first fleet_at_max warning's message;
	                                    "" when neither */
	char extrapolated[256];          /* a run's extrapolated_with_growth warning (the window stretched to the
	                                    term while the traffic grows), "" when none */
};

/* A ladder: part of a commitment bought at the start of the term, more of it later (its term_start). */
struct recommend_ladder {
	bool tried;           /* the term method follows the term (not RECOMMEND_TERM_WINDOW) and a regional RI
	                         count is varied: ladders were priced */
	bool better;          /* a ladder costs less over the term than buying everything at the start */
	int vary;             /* the varied commitment (index into vary[]) */
	int now, later;       /* its count bought at the start, and added at at_h */
	double at_h;          /* when the later part starts, hours from the term's start */
	double sp_usd_per_h;  /* the Savings Plan over what the ladder leaves (NaN without a plan) */
	double cost_term_usd; /* the ladder's mean cost over the term (re-billed; the later part's hours after the
	                         term are not in it) */
	double owed_usd;      /* what the later part still costs after the term ends */
};

/* Why a search has no choice. */
enum recommend_none {
	RECOMMEND_CHOSEN,           /* it has one */
	RECOMMEND_NONE_IN_RANGE,    /* no level searched keeps the SLO (or none is valid): widen --vary */
	RECOMMEND_SLO_UNREACHABLE,  /* every valid candidate is slo_unreachable: service time alone breaks it */
	RECOMMEND_FLEET_AT_MAX      /* every valid candidate sat at the fleet's maximum (at_max_reps > 0) */
};

/* The search, under one traffic level. */
struct recommend_search {
	double scale_rate;                  /* workload.arrivals.scale_rate of its runs */
	struct recommend_candidate *cands;  /* evaluated candidates, in grid order (owned) */
	int ncands;
	int best;                           /* index into cands, -1 if none is feasible */
	int pruned;                         /* grid points skipped by the pruning rule */
	int invalid;                        /* candidates among cands whose scenario does not load */
	enum recommend_none none;           /* why best is -1 (RECOMMEND_CHOSEN when it is not) */
	char none_why[256];                 /* with SLO_UNREACHABLE and FLEET_AT_MAX: a run's message (a valid
	                                       candidate's warning, the last one's for FLEET_AT_MAX) */
};

struct recommend_result {
	double term_h;                     /* 8760 or 26280 */
	enum recommend_term term;          /* the method (never RECOMMEND_TERM_AUTO: as it was resolved) */
	bool term_auto;                    /* it was chosen by RECOMMEND_TERM_AUTO */
	int term_windows;                  /* RECOMMEND_TERM_WINDOWS: how many */
	int ncombos;                       /* commitment levels re-billed on each simulated candidate (the product
	                                      of the commitments.I.count levels; 1 when none is varied) */
	int simulated;                     /* candidates of the base search that were simulated */
	struct recommend_search base;      /* at BASE (scale_rate x 1 without --growth) */
	struct recommend_search low, high; /* at LOW and HIGH (--growth only) */
	struct recommend_candidate od;     /* on-demand only: every varied count 0, every varied spot max 0,
	                                      every varied on_demand max at its highest level, no Savings Plan */
	bool od_ok;                        /* od was run (false when that fleet is not a valid scenario: no
	                                      on-demand entry, say; od_why says why) */
	char od_why[DIAG_MSG_MAX];         /* the loader's message when !od_ok */
	struct recommend_candidate check;  /* the choice simulated with its commitments set (when it has a plan
	                                      or a varied RI count > 0, or the term method follows the term;
	                                      else a copy of it); with a term method that follows the term, by
	                                      the other such method (check_term), so the two can be compared */
	bool checked;                      /* check was simulated */
	enum recommend_term check_term;    /* the method of the check */
	char check_why[DIAG_MSG_MAX];      /* why there is no check by the other method, "" when there is */
	enum recommend_choose choose;      /* the choice's rule */
	bool regret;                       /* --growth: every candidate priced under LOW, BASE and HIGH (the
	                                      three searches' candidates are the same, in the same order) */
	double *case_cost[3];              /* regret: per case (LOW, BASE, HIGH), each base candidate's plan (its
	                                      counts and its Savings Plan $/h at BASE, held) over the term at that
	                                      case's traffic (owned; base.ncands each) */
	int case_best[3];                  /* regret: per case, the candidate with the least case_cost that keeps
	                                      the SLO there; -1 when none does */
	struct recommend_ladder ladder;
	double start_unix_s;               /* the scenario's start (the term's), seconds since the epoch */
	double od_usd_per_h;               /* On-Demand rate of the serving type (the on_demand entry's) */
	double break_even[RECOMMEND_VARY_MAX];  /* per varied count: its effective hourly rate / od_usd_per_h,
	                                           the share of hours it must displace on-demand to pay off;
	                                           NaN for a varied max */
	enum option_kind vary_kind[RECOMMEND_VARY_MAX];  /* the varied entries' options */
	double sp_discount;                /* the plan's discount; NaN without a plan */
	int runs;                          /* simulation runs made */
};


/*
 * Run the search described by *o; fill *r (caller-owned; recommend_result_fini it, also after a failure).
 */
int recommend_run(const struct recommend_opts *o, struct recommend_result *r, struct diag *d);

void recommend_result_fini(struct recommend_result *r);

/*
 * The regret of candidate i of r->base.cands (r->regret): per case (LOW, BASE, HIGH) into regret[], its cost over
 * the term there less that case's best (case_best); INFINITY where it breaks the SLO, NaN where no candidate
 * keeps it. Returns the worst over the cases that have a best (INFINITY when it breaks the SLO in one of them).
 */
double recommend_regret(const struct recommend_result *r, int i, double regret[3]);

/* enum recommend_none, enum recommend_term and enum recommend_choose as the options, the text and the JSON name
 * them (recommend_json.c) */
extern const char *const recommend_none_name[];
extern const char *const recommend_term_name[];
extern const char *const recommend_choose_name[];

/* Candidate c's plan for people: "fleet.0.count=3 fleet.2.count=1, Savings Plan $14.00/h" ("the scenario as it
 * is" when nothing is varied). */
void recommend_describe(const struct recommend_opts *o, const struct recommend_candidate *c, char *buf, size_t size);

/* r as JSON on out, one line: the object `gpucap recommend --json` prints (analysis/README.md). */
void recommend_write_json(FILE *out, const struct recommend_opts *o, const struct recommend_result *r);

/* Parse "fleet.I.count=LO..HI[:STEP]" or "fleet.I.max=..." into *v (without checking the entry). STATUS_EINPUT
 * on bad text. */
int recommend_parse_vary(const char *text, struct recommend_vary *v, struct diag *d);

#endif
