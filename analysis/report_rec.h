/*
 * report_rec: a recommend search's result as the report's decision reads it. `gpucap recommend --db` stores the
 * object it prints with --json on the session's first run (label recommend_result, recommend_json.c); this
 * parses the part the page shows: the choice, every candidate with whether and why it breaks the SLO, the
 * on-demand-only plan and the savings, the risk, the ladder and what it still owes, the regret under low and
 * high growth. A session stored before the label existed, or killed before its end, has none: rec->ok false.
 */
#ifndef GPUCAP_REPORT_REC_H
#define GPUCAP_REPORT_REC_H

#include <stdbool.h>

#define REPORT_REC_VARY_MAX 8

/* One candidate of the search, as recommend --json writes it. */
struct report_cand {
	char plan[256];          /* "commitments.0.count=3, Savings Plan $68.10/h" */
	double x;                /* the first varied key's count (NaN without one) */
	int counts[REPORT_REC_VARY_MAX];  /* each varied key's level, in the order of report_rec's vary_key */
	double sp_usd_per_h;     /* the Savings Plan's commitment, NaN without a plan */
	double cost_term, cost_term_p90, cost_month;  /* USD; NaN for an invalid candidate */
	double violation_mean, violation_worst;       /* shares of requests */
	int slo_met_reps;
	bool feasible;           /* keeps the SLO (recommend's constraint) */
	bool slo_unreachable;    /* service time alone breaks the SLO: no capacity can keep it */
	int at_max_reps;         /* replications that sat at the fleet's maximum with requests waiting */
	char invalid[256];       /* the loader's message for a candidate that is no valid scenario; "" else */
};

struct report_rec {
	bool ok;                 /* the label was there and parsed */
	struct report_cand *cand;  /* [ncand], owned */
	int ncand;
	int best;                /* index into cand, -1: no choice */
	char none_reason[32];    /* without a choice: none_in_range, slo_unreachable or fleet_at_max */
	char none_message[256];
	int replications;
	double term_h, start_unix_s;
	char term_method[16];    /* window, fluid or windows */
	int nvary;
	char vary_key[REPORT_REC_VARY_MAX][64], vary_option[REPORT_REC_VARY_MAX][24];
	bool od_ok;              /* the on-demand-only plan was simulated */
	struct report_cand od;
	double savings_term, savings_month;  /* on-demand only less the choice, USD (NaN without both) */
	bool ladder;             /* buying part later costs less: */
	char ladder_key[64];
	int ladder_now, ladder_later;
	double ladder_at_h, ladder_cost_term, owed_after_term;
	bool growth;             /* --growth: the low and high searches and the regret */
	double scale_low, scale_high;
	char best_low[256], best_high[256];  /* each case's own best plan, searched afresh ("" when none keeps it) */
	double best_low_cost, best_high_cost;  /* their cost over the term */
	double regret_low, regret_high, regret_worst;  /* the choice's; NaN where undefined, INFINITY where it breaks
	                                                  the SLO in that case */
	double cost_low, cost_high;  /* the choice's plan over the term under low and high growth */
};

/* Parse json (a recommend_result label) into *rec (zeroed first); rec->ok false when it is not one. Returns
 * false only when out of memory. */
bool report_rec_parse(const char *json, struct report_rec *rec);

void report_rec_fini(struct report_rec *rec);

#endif
