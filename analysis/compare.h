/*
 * compare: runs and sweep points of a results database side by side, with 95% confidence intervals, paired
 * (common random numbers) and unpaired (Welch) differences against a baseline, and the Pareto front of
 * cost against SLO violation rate (`gpucap compare`, analysis/README.md "Comparing runs").
 *
 * A point is what is compared: one run (given by its run id), or every replication of one point of a sweep
 * ("SWEEP:P"; "SWEEP" alone stands for all its points). Each point holds, for each metric of compare_metrics,
 * the values of its runs with status 'ok' (a run that failed is counted in nfailed and left out; a metric
 * a run did not report, or reported as NULL, is NaN and left out of that metric's statistics only).
 *
 * A sweep point with fewer 'ok' runs than the sweep's replications (nreps) is short, and flagged as such
 * in every output ("3 of 5 replications"): its interval is wider than the sweep meant, and a paired
 * difference pairs only the seeds both points ran.
 *
 * Statistics (all at 95%, two-sided):
 *   interval   mean +- t(0.975, n-1) s / sqrt(n), s the sample standard deviation (n - 1 in the
 *              denominator), t the Student quantile (gsl_cdf_tdist_Pinv); n < 2 gives no interval (NaN).
 *   paired     against the baseline: d_i = x_i - b_i over the seeds both points ran (replication r of a sweep
 *              runs with the base seed + r, so equal seeds mean the same random numbers: the same traffic,
 *              the same service times); the interval of the mean of d as above. Significant when that
 *              interval excludes 0 (n >= 2; a zero-width interval [m, m] excludes 0 when m != 0).
 *   unpaired   Welch: mean(x) - mean(b), se = sqrt(s_x^2/n_x + s_b^2/n_b), Welch-Satterthwaite degrees of
 *              freedom df = se^4 / ((s_x^2/n_x)^2/(n_x-1) + (s_b^2/n_b)^2/(n_b-1)), half-width t(0.975, df) se
 *              (0 when se = 0); significant when the interval excludes 0. Needs n_x, n_b >= 2.
 *   Pareto     a point is on the front when no other point has a mean cost_per_month_usd and a mean
 *              slo_violation_rate both no larger, one of them strictly smaller (points without both means
 *              are not on it).
 *
 * Errors: STATUS_ENOENT (no such database file), STATUS_EINPUT (an unknown run id, sweep or point; an empty
 * database; a point whose every run failed; a database of another program or version), STATUS_EDB (SQLite
 * failed), STATUS_ENOMEM, with the message in the diag. The database is opened read-only and never changed.
 */
#ifndef GPUCAP_COMPARE_H
#define GPUCAP_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"

/* The metrics compared, in output order (names of the metrics table; units in the names). */
#define COMPARE_NMETRICS 22
extern const char *const compare_metrics[COMPARE_NMETRICS];
/* The index in compare_metrics of a name, or -1. */
int compare_metric_index(const char *name);

/* A sample's mean and 95% confidence interval. */
struct compare_ci {
	int n;           /* values used (NaN left out) */
	double mean;     /* their mean; NaN when n = 0 */
	double sd;       /* sample standard deviation; NaN when n < 2 */
	double se;       /* standard error sd / sqrt(n); NaN when n < 2 */
	double half;     /* half-width of the 95% interval, t(0.975, n-1) se; NaN when n < 2 */
};

/* A difference point - baseline, with its 95% interval. */
struct compare_diff {
	int n;             /* pairs (paired) or the smaller sample (Welch) */
	double diff;       /* the mean difference (paired) or the difference of the means (Welch) */
	double se;         /* its standard error; NaN when not defined */
	double df;         /* degrees of freedom of the t quantile; NaN when not defined */
	double half;       /* half-width of the 95% interval; NaN when not defined */
	bool significant;  /* the interval is defined and excludes 0, and the difference is larger than the
	                      practical threshold (compare_set_min_effect) */
};

/* The interval of the n values x (borrowed; NaN values left out) into *out. */
void compare_ci95(const double *x, int n, struct compare_ci *out);

/* The paired difference: pairs (x[i], b[i]) for i < n where neither is NaN. */
void compare_paired(const double *x, const double *b, int n, struct compare_diff *out);

/* The Welch difference mean(x) - mean(b) of two independent samples (NaN values left out). */
void compare_welch(const double *x, int nx, const double *b, int nb, struct compare_diff *out);

/* One compared point. */
struct compare_point {
	char id[160];                          /* as it is shown: "17" or "SWEEP:P" */
	char params[512];                      /* the swept KEY=VALUE of a sweep point, space-separated; the
						* run's overrides (one line each, joined by spaces) for a run, after
						* its scenario when the runs compared are of different scenarios */
	char scenario[160];                    /* a run's scenario: "NAME (INSTANCE_TYPE)"; "" for a sweep point */
	int64_t sweep_id;                      /* 0 for a run */
	int point;                             /* the sweep point; -1 for a run */
	int nruns;                             /* runs with status 'ok' used */
	int nfailed;                           /* runs of the point that failed, left out */
	int nreps;                             /* the sweep's replications of a point; 0 for a run. A point with
						* nruns < nreps is short (a sweep killed, runs failed): every output
						* says "N of M replications" */
	int64_t *run_ids;                      /* [nruns], owned */
	int64_t *seeds;                        /* [nruns], the runs' seeds, owned */
	double *values[COMPARE_NMETRICS];      /* [nruns] each, NaN when absent; owned */
	struct compare_ci stat[COMPARE_NMETRICS];
	struct compare_diff paired[COMPARE_NMETRICS];  /* against the baseline (the baseline's own: paired with
	                                                  itself, n = its runs, every difference 0) */
	struct compare_diff welch[COMPARE_NMETRICS];
	int slo_met_runs;                      /* runs whose slo_met is 1 */
	bool pareto;                           /* on the front of mean cost per month against violation rate */
};

struct compare {
	struct compare_point *points;  /* [npoints], owned */
	int npoints;
	int baseline;                  /* index of the baseline point */
	double min_effect;             /* the practical threshold (compare_set_min_effect) */
	char db[512];                  /* the database file, for messages */
};

/*
 * Load the points named by ids[0..nids) (borrowed) from the database at path, in the order given (a sweep
 * name expands to its points in order); nids = 0 takes every sweep point and every run outside a sweep.
 * baseline (NULL: the first point) names one run or one sweep point, loaded if not among the ids. Computes
 * every statistic. On success *c is filled (compare_fini() it); on failure *c is empty.
 */
int compare_load(struct compare *c, const char *path, const char *const *ids, int nids, const char *baseline,
		 struct diag *d);

/* The practical threshold by default: a difference is significant only when it is also more than 1% of the
 * larger of the two means it compares (so "0.00000 +- 0.00000 *", a real but negligible difference, is not
 * starred). */
#define COMPARE_MIN_EFFECT 0.01

/* Set the practical threshold (a fraction >= 0 of the larger mean, |point| or |baseline|) and mark every
 * difference again; compare_load() applies COMPARE_MIN_EFFECT. */
void compare_set_min_effect(struct compare *c, double fraction);

/*
 * Mark the Pareto front of mean cost per month against mean violation rate (compare_load() does): a point is
 * on it unless another dominates it, by the means (at most as costly and as violating, better in one) or
 * within the intervals (no worse by more than the wider 95% half-width on either axis, and better by more
 * than it on one): a plan whose edge is inside the noise while another's is not is not starred.
 */
void compare_pareto(struct compare *c);

/* Free what compare_load() allocated. */
void compare_fini(struct compare *c);

/* Output (compare_print.c). Each returns STATUS_OK or STATUS_EIO when writing to out failed. */
int compare_print_table(const struct compare *c, FILE *out);
/* The table's figures as Markdown tables (GitHub style), one per block, cells with | \\ * _ ` escaped. */
int compare_print_md(const struct compare *c, FILE *out);
int compare_print_json(const struct compare *c, FILE *out);
int compare_print_csv(const struct compare *c, FILE *out);

#endif
