/*
 * report: the numbers behind `gpucap report` (analysis/README.md "Reports"), read from a results database and turned
 * into hourly series; report_svg.h draws them and report_html.c writes the page.
 *
 * A run's hourly series are derived from its stored samples (one every sample period): hour h covers the
 * samples with h * 3600 < t_s <= (h + 1) * 3600, and each series is the mean over those samples of:
 *   inst[k]       live instances of option k (the samples count them at the sample instant)
 *   demand        busy slots / slots per instance: the instances the requests in service kept busy (NaN
 *                 when the stored scenario cannot be parsed again, then the page says so)
 *   cost[k]       when the run has bill lines (the charges table, exact): the effective_usd of option k's
 *                 lines in each UTC clock hour, on the clock-hour grid (ncost, cost_x0_h), together with
 *                 commit_util = used / (used + unused) effective USD of the reserved, savings_plan and odcr
 *                 lines, and commit_cov = list USD of reserved and savings_plan `used` lines / list USD of
 *                 those plus on_demand `usage` and odcr `used` and `unused` lines (the eligible usage of the
 *                 run's commitment_coverage). Otherwise (older databases) the fallback,
 *                 an approximation: the run's cost_<option>_usd spread over the option's instance-hours,
 *                 cost[k][h] = inst[k][h] * cost_k / sum_h inst[k][h] (spread evenly over the hours when the
 *                 option ran no instance); its sum over the hours is cost_<option>_usd exactly.
 *   wait          mean queue_len / mean arrival rate: the hour's mean wait by Little's law (an estimate:
 *                 per-hour latency percentiles are not stored).
 *   coverage      committed instances (reserved, ODCR, Savings Plan, Capacity Block, training plan) / all
 *                 instances: the share of the hour's instance time that commitments covered, in instance
 *                 time rather than at On-Demand prices (the run's commitment_coverage weighs by price).
 *   commit_busy   min(demand, committed) / committed: the share of the committed instances the demand kept
 *                 busy (NaN without committed instances or without demand).
 *
 * Ownership: report_load fills a caller-owned struct report; report_fini frees it. Errors as compare.h
 * (STATUS_ENOENT, STATUS_EINPUT for unknown ids, STATUS_EDB, STATUS_ENOMEM) with the message in the diag.
 */
#ifndef GPUCAP_REPORT_H
#define GPUCAP_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "compare.h"
#include "diag.h"
#include "option.h"
#include "report_jobs.h"
#include "report_rec.h"

#define REPORT_RUNS_MAX 50  /* runs shown in detail; more are refused (the page would not be read) */

struct report_metric {
	char *name;      /* owned */
	double value;    /* NaN when NULL */
};

struct report_event {
	double t_s;      /* seconds from the scenario start */
	int out;         /* 1 scale_out, 0 scale_in */
	int count;       /* the new desired capacity */
};

struct report_warning {
	char *code;      /* owned */
	char *message;   /* owned */
};

struct report_run {
	int64_t run_id;
	char *name;                  /* scenario name, owned (unescaped: the page escapes it) */
	char *scenario_text;         /* owned */
	char *overrides;             /* owned, one per line */
	char *instance_type;         /* owned */
	char *labels;                /* "key=value" lines, owned */
	char *price_origins;         /* where the types' prices come from, one line each (scenario_price_origin),
	                                owned; NULL when the stored scenario no longer loads */
	int64_t seed;
	double horizon_s;            /* simulated seconds */
	int slots;                   /* slots per instance from the re-parsed scenario; 0 when unknown */
	double slo_latency_s;        /* slo.latency_s; NaN when unknown */
	double term_h;               /* the longest commitment term of its scenario (8760 or 26280 h), 0: none */
	struct report_metric *metrics;  /* [nmetrics], owned */
	int nmetrics;
	struct report_event *events;    /* [nevents] scaling events, owned */
	int nevents;
	struct report_warning *warnings;  /* [nwarnings], owned */
	int nwarnings;
	int nhours;                  /* hours with at least one sample */
	double *inst[OPTION_KIND_COUNT];  /* [nhours] each, owned: mean live instances */
	double *cost[OPTION_KIND_COUNT];  /* [nhours] each, owned: USD in the hour (see above) */
	double *demand;              /* [nhours] instances kept busy, NaN when unknown */
	double *wait_s;              /* [nhours] mean wait by Little's law, NaN without arrivals */
	double *coverage;            /* [nhours] committed share of instance time, NaN without instances */
	double *commit_busy;         /* [nhours] busy share of committed instances, NaN when undefined */
	/* From the charges table (exact; all 0 / NULL for runs stored without charges, schema < 6): */
	bool exact;                  /* the run has bill lines: cost[] below is per clock hour, from them */
	int ncost;                   /* clock hours in cost[], commit_util, commit_cov (exact only) */
	double cost_x0_h;            /* the start of clock hour 0, in hours from the scenario start (<= 0) */
	double *commit_util;         /* [ncost] used / (used + unused) commitment USD, NaN without any */
	double *commit_cov;          /* [ncost] covered / eligible usage at On-Demand prices, NaN without any */
	/* From the hours table (schema 7; nlat = 0 for runs stored without it): per UTC clock hour, from lat_x0_h
	 * (the first row's hour_start_s / 3600) on, one hour apart */
	int nlat;
	double lat_x0_h;
	double *lat_req;             /* [nlat] requests ended in the hour (served or dropped) */
	double *lat_viol;            /* [nlat] of those, over slo.latency_s or dropped */
	double *lat_p50, *lat_p95, *lat_p99;  /* [nlat] latency percentiles of the served ones, NaN when none */
	/* Training jobs (report_jobs.h): the first REPORT_JOBS_SHOWN, and how many the scenario has */
	struct report_job *jobs;     /* [njobs], owned */
	int njobs, njobs_total;
	double *inst_jobs;           /* [nhours] mean instances the jobs held (samples.instances_jobs, schema 12),
	                                owned; NULL when the run stored none (no jobs, or an older file) */
	double *cost_jobs;           /* [ncost] the jobs' part of each clock hour's bill (charges.use = 'jobs'),
	                                owned; NULL as inst_jobs */
};

/* One `recommend` search stored with --db (labels recommend_session, _candidate, _term_cost_usd, _choice). */
struct report_session {
	char *id;                    /* the recommend_session label, owned */
	bool incomplete;             /* its recommend_session_state is "incomplete": the search was stopped (killed)
	                                before it ended, so its curve is partial and it has no choice */
	int ncand;
	char **cand;                 /* [ncand] recommend_candidate labels, owned, in the order first run */
	double *cost;                /* [ncand] recommend_term_cost_usd */
	double *x;                   /* [ncand] one varied key: its count; several: 1, 2, ... */
	bool *chosen;                /* [ncand] recommend_choice=1 */
	char *decision;              /* the choice's recommend_term_method, recommend_choose, recommend_ladder and
	                                recommend_owed_after_term_usd labels as "key=value" lines (owned; "" when
	                                the session stored none: no choice, or stored before them) */
	char *case_name;             /* its recommend_case label: "base", "low" or "high" growth (owned; NULL when
	                                stored before the label) */
	struct report_rec rec;       /* its recommend_result label, parsed (rec.ok false without one) */
};

/* Why a compared plan breaks the SLO, over its runs (report_why.c), and its term. */
struct report_why {
	int unreachable;             /* runs warned slo_unreachable: service time alone breaks the SLO */
	int at_max;                  /* runs warned fleet_at_max: the fleet at its maximum with requests waiting */
	int missed;                  /* runs whose jobs missed a deadline */
	double term_h;               /* the longest commitment term of its scenario (8760 or 26280 h), 0: none */
};

struct report {
	struct report_session *sessions;  /* [nsessions], owned */
	int nsessions;
	struct report_run *runs;     /* [nruns], owned: the runs shown in detail */
	int nruns;
	struct compare cmp;          /* the comparison of every point asked for (loaded when ncmp > 0) */
	int ncmp;                    /* points compared: 0 when a single run was asked for */
	struct report_why *why;      /* [cmp.npoints], owned (NULL without points) */
	char db[512];                /* the database file, for the page */
};

/*
 * Load what ids[0..nids) (borrowed: run ids, SWEEP or SWEEP:P) name from the database at path: every run id
 * in detail, and a comparison (compare_load) of all the ids when there are two points or more, or any sweep.
 * nids = 0 takes every run outside a sweep in detail and every point in the comparison.
 */
int report_load(struct report *r, const char *path, const char *const *ids, int nids, struct diag *d);

/* The value of metric name of run, or NaN when absent or NULL. */
double report_metric(const struct report_run *run, const char *name);

/* The longest commitment term (8760 or 26280 h) of a stored scenario with its overrides (one per line); 0
 * when it has none or cannot be parsed again (report_why.c). */
double report_term_h(const char *scenario_text, const char *overrides);
struct scenario;
double report_scenario_term_h(const struct scenario *sc);  /* the same of a parsed scenario */

/* Fill r->why for r->cmp's points from db (report_why.c). STATUS_OK or STATUS_ENOMEM. */
struct sqlite3;
int report_read_why(struct sqlite3 *db, struct report *r, struct diag *d);

/* Free what report_load allocated; a zeroed report is allowed. */
void report_fini(struct report *r);

/* Write the page (report_html.c); STATUS_OK or STATUS_EIO when writing failed. */
int report_write_html(const struct report *r, FILE *out);

#endif
