/*
 * compare: the statistics of `gpucap compare` and the loading of its points (contract in compare.h).
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <sqlite3.h>

#include "compare.h"
#include "status.h"
#include "store.h"
#include "store_read.h"


const char *const compare_metrics[COMPARE_NMETRICS] = {
	"cost_total_usd", "cost_per_month_usd", "cost_reserved_usd", "cost_on_demand_usd", "cost_spot_usd",
	"cost_odcr_usd", "cost_savings_plan_usd", "cost_capacity_block_usd", "cost_training_plan_usd",
	"slo_violation_rate", "slo_met",
	"latency_mean_s", "latency_p50_s", "latency_p95_s", "latency_p99_s", "ttft_p50_s", "ttft_p95_s",
	"ttft_p99_s", "gpu_hours_idle", "commitment_utilization", "commitment_coverage", "requests_total",
};

int compare_metric_index(const char *name)
{
	for (int i = 0; i < COMPARE_NMETRICS; i++)
		if (strcmp(compare_metrics[i], name) == 0)
			return i;
	return -1;
}

/* t(0.975, df): the two-sided 95% Student quantile. */
static double t975(double df)
{
	return gsl_cdf_tdist_Pinv(0.975, df);
}

void compare_ci95(const double *x, int n, struct compare_ci *out)
{
	double sum = 0, ss = 0;
	int k = 0;

	for (int i = 0; i < n; i++)
		if (!isnan(x[i])) {
			sum += x[i];
			k++;
		}
	out->n = k;
	out->mean = k > 0 ? sum / k : NAN;
	out->sd = out->se = out->half = NAN;
	if (k < 2)
		return;
	/* two passes: the sum of squared deviations from the mean, not sum(x^2) - n mean^2 (cancellation) */
	for (int i = 0; i < n; i++)
		if (!isnan(x[i]))
			ss += (x[i] - out->mean) * (x[i] - out->mean);
	out->sd = sqrt(ss / (k - 1));
	out->se = out->sd / sqrt(k);
	out->half = t975(k - 1) * out->se;
}

/* Significant when the interval [diff - half, diff + half] is defined and leaves out 0. */
static bool excludes_zero(double diff, double half)
{
	return !isnan(half) && fabs(diff) > half;
}

void compare_paired(const double *x, const double *b, int n, struct compare_diff *out)
{
	double *dv = calloc(n > 0 ? n : 1, sizeof *dv);
	struct compare_ci ci;
	int k = 0;

	/* n is at most a point's replications: a small array; on malloc failure, no interval */
	if (!dv) {
		*out = (struct compare_diff){ 0, NAN, NAN, NAN, NAN, false };
		return;
	}
	for (int i = 0; i < n; i++)
		if (!isnan(x[i]) && !isnan(b[i]))
			dv[k++] = x[i] - b[i];
	compare_ci95(dv, k, &ci);
	free(dv);
	out->n = k;
	out->diff = ci.mean;
	out->se = ci.se;
	out->df = k >= 2 ? k - 1 : NAN;
	out->half = ci.half;
	out->significant = excludes_zero(out->diff, out->half);
}

void compare_welch(const double *x, int nx, const double *b, int nb, struct compare_diff *out)
{
	struct compare_ci cx, cb;

	compare_ci95(x, nx, &cx);
	compare_ci95(b, nb, &cb);
	out->n = cx.n < cb.n ? cx.n : cb.n;
	out->diff = cx.mean - cb.mean;
	out->se = out->df = out->half = NAN;
	out->significant = false;
	if (cx.n < 2 || cb.n < 2)
		return;
	double vx = cx.sd * cx.sd / cx.n, vb = cb.sd * cb.sd / cb.n;
	out->se = sqrt(vx + vb);
	if (out->se > 0) {
		out->df = (vx + vb) * (vx + vb) / (vx * vx / (cx.n - 1) + vb * vb / (cb.n - 1));
		out->half = t975(out->df) * out->se;
	} else {
		out->half = 0;  /* both samples constant: the difference is exact */
	}
	out->significant = excludes_zero(out->diff, out->half);
}

/* ---- loading ---- */

struct loader {
	struct store_reader rd;  /* the read-only connection; must not move while open */
	sqlite3 *db;             /* rd.db */
	const char *path;
	sqlite3_stmt *metric;  /* SELECT value FROM metrics WHERE run_id = ?1 AND name = ?2 */
	struct compare *c;
	int cap;               /* allocated points */
};

static int db_error(struct loader *ld, struct diag *d, const char *what)
{
	return store_read_fail(ld->db, &ld->rd.wait, ld->path, d, what);
}

/* Prepare sql, failing with the database's message. */
static int prepare(struct loader *ld, const char *sql, sqlite3_stmt **stmt, struct diag *d)
{
	if (sqlite3_prepare_v2(ld->db, sql, -1, stmt, NULL) != SQLITE_OK)
		return db_error(ld, d, "reading runs to compare");
	return STATUS_OK;
}

/* One integer from a query without parameters. */
static int query_int(struct loader *ld, const char *sql, int64_t *val, struct diag *d)
{
	sqlite3_stmt *stmt;
	int status = prepare(ld, sql, &stmt, d);

	if (status)
		return status;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		*val = sqlite3_column_int64(stmt, 0);
	else
		status = db_error(ld, d, "reading runs to compare");
	sqlite3_finalize(stmt);
	return status;
}

/* Open read-only (store_read.h: waits for a lock, recovers a hot journal) a gpucap results database with
 * sweeps (version 3 or later). */
static int loader_open(struct loader *ld, const char *path, struct diag *d)
{
	int status = store_read_open(&ld->rd, path, 3, "gpucap compare", d);

	if (status)
		return status;
	ld->db = ld->rd.db;
	if (prepare(ld, "SELECT value FROM metrics WHERE run_id = ?1 AND name = ?2", &ld->metric, d))
		return db_error(ld, d, "reading metrics");
	return STATUS_OK;
}

/* A new point at the end of c (zeroed but for its arrays); NULL when out of memory. */
static struct compare_point *point_add(struct loader *ld)
{
	struct compare *c = ld->c;

	if (c->npoints == ld->cap) {
		int cap = ld->cap ? 2 * ld->cap : 16;
		struct compare_point *p = realloc(c->points, sizeof *p * cap);
		if (!p)
			return NULL;
		c->points = p;
		ld->cap = cap;
	}
	struct compare_point *p = &c->points[c->npoints++];
	memset(p, 0, sizeof *p);
	p->point = -1;
	return p;
}

/* Append an ok run (its metrics) to p. */
static int point_add_run(struct loader *ld, struct compare_point *p, int64_t run_id, int64_t seed,
			 struct diag *d)
{
	int64_t *ids = realloc(p->run_ids, sizeof *ids * (p->nruns + 1));
	if (!ids)
		return diag_fail(d, STATUS_ENOMEM, "out of memory reading runs");
	p->run_ids = ids;
	int64_t *seeds = realloc(p->seeds, sizeof *seeds * (p->nruns + 1));
	if (!seeds)
		return diag_fail(d, STATUS_ENOMEM, "out of memory reading runs");
	p->seeds = seeds;
	for (int m = 0; m < COMPARE_NMETRICS; m++) {
		double *v = realloc(p->values[m], sizeof *v * (p->nruns + 1));
		if (!v)
			return diag_fail(d, STATUS_ENOMEM, "out of memory reading runs");
		p->values[m] = v;
		v[p->nruns] = NAN;
		sqlite3_reset(ld->metric);
		sqlite3_bind_int64(ld->metric, 1, run_id);
		sqlite3_bind_text(ld->metric, 2, compare_metrics[m], -1, SQLITE_STATIC);
		int rc = sqlite3_step(ld->metric);
		if (rc == SQLITE_ROW && sqlite3_column_type(ld->metric, 0) != SQLITE_NULL)
			v[p->nruns] = sqlite3_column_double(ld->metric, 0);
		else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return db_error(ld, d, "reading metrics");
	}
	ids[p->nruns] = run_id;
	seeds[p->nruns] = seed;
	p->nruns++;
	return STATUS_OK;
}

/* Fill p from the runs selected by stmt (columns run_id, seed, status), already bound. */
static int point_read_runs(struct loader *ld, struct compare_point *p, sqlite3_stmt *stmt, struct diag *d)
{
	int rc, status = STATUS_OK;

	while (status == STATUS_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *st = (const char *)sqlite3_column_text(stmt, 2);
		if (st && strcmp(st, "ok") == 0)
			status = point_add_run(ld, p, sqlite3_column_int64(stmt, 0), sqlite3_column_int64(stmt, 1), d);
		else
			p->nfailed++;
	}
	if (status == STATUS_OK && rc != SQLITE_DONE)
		status = db_error(ld, d, "reading runs");
	return status;
}

/* A run outside or inside a sweep, by id: one point of one run. */
static int load_run(struct loader *ld, int64_t run_id, struct diag *d)
{
	sqlite3_stmt *stmt;
	struct compare_point *p;
	int status = prepare(ld, "SELECT run_id, seed, status, overrides, error, name, instance_type FROM runs "
			     "WHERE run_id = ?1", &stmt, d);

	if (status)
		return status;
	sqlite3_bind_int64(stmt, 1, run_id);
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		sqlite3_finalize(stmt);
		return diag_fail(d, STATUS_EINPUT, "%s: no run %" PRId64 " in the database", ld->path, run_id);
	}
	const char *st = (const char *)sqlite3_column_text(stmt, 2);
	if (!st || strcmp(st, "ok") != 0) {
		const char *err = (const char *)sqlite3_column_text(stmt, 4);
		status = diag_fail(d, STATUS_EINPUT, "%s: run %" PRId64 " failed (%s); nothing to compare", ld->path,
				   run_id, err ? err : "no message");
		sqlite3_finalize(stmt);
		return status;
	}
	p = point_add(ld);
	if (!p) {
		sqlite3_finalize(stmt);
		return diag_fail(d, STATUS_ENOMEM, "out of memory reading runs");
	}
	snprintf(p->id, sizeof p->id, "%" PRId64, run_id);
	snprintf(p->scenario, sizeof p->scenario, "%s (%s)", (const char *)sqlite3_column_text(stmt, 5),
		 (const char *)sqlite3_column_text(stmt, 6));
	const char *ov = (const char *)sqlite3_column_text(stmt, 3);
	snprintf(p->params, sizeof p->params, "%s", ov ? ov : "");
	for (char *nl = strchr(p->params, '\n'); nl; nl = strchr(nl, '\n'))
		*nl = ' ';
	status = point_add_run(ld, p, run_id, sqlite3_column_int64(stmt, 1), d);
	sqlite3_finalize(stmt);
	return status;
}

/* The swept KEY=VALUE of a sweep point, space-separated, into p->params. */
static int point_params(struct loader *ld, struct compare_point *p, struct diag *d)
{
	sqlite3_stmt *stmt;
	size_t o = 0;
	int status = prepare(ld, "SELECT sp.key, sp.value FROM sweep_params AS sp JOIN sweeps AS s USING (sweep_id) "
			     "WHERE sp.sweep_id = ?1 AND sp.point = ?2 ORDER BY instr(char(10) || s.params || "
			     "char(10), char(10) || sp.key || char(10))", &stmt, d);

	if (status)
		return status;
	sqlite3_bind_int64(stmt, 1, p->sweep_id);
	sqlite3_bind_int(stmt, 2, p->point);
	while (sqlite3_step(stmt) == SQLITE_ROW && o < sizeof p->params) {
		int n = snprintf(p->params + o, sizeof p->params - o, "%s%s=%s", o ? " " : "",
				 (const char *)sqlite3_column_text(stmt, 0), (const char *)sqlite3_column_text(stmt, 1));
		o += n > 0 ? (size_t)n : 0;
	}
	sqlite3_finalize(stmt);
	return STATUS_OK;
}

/* The replications each point of the point's sweep was meant to have, into p->nreps. */
static int point_nreps(struct loader *ld, struct compare_point *p, struct diag *d)
{
	sqlite3_stmt *stmt;
	int status = prepare(ld, "SELECT nreps FROM sweeps WHERE sweep_id = ?1", &stmt, d);

	if (status)
		return status;
	sqlite3_bind_int64(stmt, 1, p->sweep_id);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		p->nreps = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	return STATUS_OK;
}

/* Point `point` of the sweep (sweep_id, named name): every replication. */
static int load_point(struct loader *ld, int64_t sweep_id, const char *name, int point, struct diag *d)
{
	sqlite3_stmt *stmt;
	struct compare_point *p = point_add(ld);
	int status;

	if (!p)
		return diag_fail(d, STATUS_ENOMEM, "out of memory reading runs");
	snprintf(p->id, sizeof p->id, "%s:%d", name, point);
	p->sweep_id = sweep_id;
	p->point = point;
	status = point_params(ld, p, d);
	if (status == STATUS_OK)
		status = point_nreps(ld, p, d);
	if (status == STATUS_OK)
		status = prepare(ld, "SELECT run_id, seed, status FROM runs WHERE sweep_id = ?1 AND point = ?2 "
				 "ORDER BY replication, run_id", &stmt, d);
	if (status)
		return status;
	sqlite3_bind_int64(stmt, 1, sweep_id);
	sqlite3_bind_int(stmt, 2, point);
	status = point_read_runs(ld, p, stmt, d);
	sqlite3_finalize(stmt);
	if (status == STATUS_OK && p->nruns == 0 && p->nfailed > 0)
		status = diag_fail(d, STATUS_EINPUT, "%s: point %s has no successful run: all %d of its runs failed",
				   ld->path, p->id, p->nfailed);
	else if (status == STATUS_OK && p->nruns == 0)
		status = diag_fail(d, STATUS_EINPUT, "%s: point %s has no runs in the database yet (gpucap sweep "
				   "--resume runs them)", ld->path, p->id);
	return status;
}

/* A sweep by name (the most recently registered one of that name): its id and number of points. */
static int find_sweep(struct loader *ld, const char *name, int64_t *sweep_id, int *npoints, struct diag *d)
{
	sqlite3_stmt *stmt;
	int status = prepare(ld, "SELECT sweep_id, npoints FROM sweeps WHERE name = ?1 ORDER BY sweep_id DESC "
			     "LIMIT 1", &stmt, d);

	if (status)
		return status;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		*sweep_id = sqlite3_column_int64(stmt, 0);
		*npoints = sqlite3_column_int(stmt, 1);
	} else {
		status = diag_fail(d, STATUS_EINPUT, "%s: no run, sweep or point '%s' in the database; expected a "
				   "run id, a sweep name or SWEEP:POINT", ld->path, name);
	}
	sqlite3_finalize(stmt);
	return status;
}

/* A decimal integer, the whole text. */
static bool parse_int(const char *s, int64_t *out)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || v < 0)
		return false;
	*out = v;
	return true;
}

/* Load one identifier: a run id, SWEEP:P or SWEEP; only_one refuses a whole sweep (for the baseline). */
static int load_id(struct loader *ld, const char *id, bool only_one, struct diag *d)
{
	int64_t run_id, sweep_id = 0, pt = 0;
	int npoints = 0, status;
	char name[160];
	const char *colon = strrchr(id, ':');

	if (parse_int(id, &run_id))
		return load_run(ld, run_id, d);
	snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - id) : (int)strlen(id), id);
	if (colon && !parse_int(colon + 1, &pt))
		return diag_fail(d, STATUS_EINPUT, "'%s': expected SWEEP:POINT with a point number after ':'", id);
	status = find_sweep(ld, name, &sweep_id, &npoints, d);
	if (status)
		return status;
	if (colon) {
		if (pt >= npoints)
			return diag_fail(d, STATUS_EINPUT, "%s: sweep %s has points 0 to %d; no point %" PRId64,
					 ld->path, name, npoints - 1, pt);
		return load_point(ld, sweep_id, name, (int)pt, d);
	}
	if (only_one)
		return diag_fail(d, STATUS_EINPUT, "--baseline %s: expected one run or one point (SWEEP:POINT), not "
				 "a whole sweep", id);
	for (int p = 0; p < npoints && status == STATUS_OK; p++)
		status = load_point(ld, sweep_id, name, p, d);
	return status;
}

/* No ids: every point of every sweep, then every run outside a sweep. */
static int load_all(struct loader *ld, struct diag *d)
{
	sqlite3_stmt *stmt;
	int status = prepare(ld, "SELECT sweep_id, name, npoints FROM sweeps ORDER BY sweep_id", &stmt, d);
	while (status == STATUS_OK && sqlite3_step(stmt) == SQLITE_ROW) {
		int64_t sid = sqlite3_column_int64(stmt, 0);
		char name[160];
		snprintf(name, sizeof name, "%s", (const char *)sqlite3_column_text(stmt, 1));
		for (int p = 0, np = sqlite3_column_int(stmt, 2); p < np && status == STATUS_OK; p++)
			status = load_point(ld, sid, name, p, d);
	}
	sqlite3_finalize(stmt);
	if (status == STATUS_OK)
		status = prepare(ld, "SELECT run_id FROM runs WHERE sweep_id IS NULL AND status = 'ok' ORDER BY run_id",
				 &stmt, d);
	if (status)
		return status;
	while (status == STATUS_OK && sqlite3_step(stmt) == SQLITE_ROW)
		status = load_run(ld, sqlite3_column_int64(stmt, 0), d);
	sqlite3_finalize(stmt);
	return status;
}

/* The point of c with that id, or -1. */
static int find_point(const struct compare *c, const char *id)
{
	for (int i = 0; i < c->npoints; i++)
		if (strcmp(c->points[i].id, id) == 0)
			return i;
	return -1;
}

/* Pair p's runs with the baseline's by seed: bx[i] is the baseline's value for p's i-th seed, or NaN. */
static void pair_by_seed(const struct compare_point *p, const struct compare_point *b, int m, double *bx)
{
	for (int i = 0; i < p->nruns; i++) {
		bx[i] = NAN;
		for (int j = 0; j < b->nruns; j++)
			if (b->seeds[j] == p->seeds[i])
				bx[i] = b->values[m][j];
	}
}

/* Significant: the interval excludes 0 and |diff| is more than `fraction` of the larger |mean| compared. */
static void mark(struct compare_diff *df, double point_mean, double base_mean, double fraction)
{
	double big = fmax(fabs(point_mean), fabs(base_mean));

	df->significant = df->n > 0 && excludes_zero(df->diff, df->half) && fabs(df->diff) > fraction * big &&
			  df->diff != 0;
}

void compare_set_min_effect(struct compare *c, double fraction)
{
	const struct compare_point *b = &c->points[c->baseline];

	c->min_effect = fraction;
	for (int i = 0; i < c->npoints; i++) {
		struct compare_point *p = &c->points[i];
		for (int m = 0; m < COMPARE_NMETRICS; m++) {
			mark(&p->paired[m], p->stat[m].mean, b->stat[m].mean, fraction);
			mark(&p->welch[m], p->stat[m].mean, b->stat[m].mean, fraction);
		}
	}
}

/* Every statistic: intervals, differences against the baseline, the Pareto front. */
static int compute(struct compare *c, struct diag *d)
{
	const struct compare_point *b = &c->points[c->baseline];
	int met = compare_metric_index("slo_met");

	for (int i = 0; i < c->npoints; i++) {
		struct compare_point *p = &c->points[i];
		double *bx = malloc(sizeof *bx * p->nruns);
		if (!bx)
			return diag_fail(d, STATUS_ENOMEM, "out of memory comparing runs");
		for (int m = 0; m < COMPARE_NMETRICS; m++) {
			compare_ci95(p->values[m], p->nruns, &p->stat[m]);
			pair_by_seed(p, b, m, bx);
			compare_paired(p->values[m], bx, p->nruns, &p->paired[m]);
			compare_welch(p->values[m], p->nruns, b->values[m], b->nruns, &p->welch[m]);
		}
		free(bx);
		p->slo_met_runs = 0;
		for (int r = 0; r < p->nruns; r++)
			p->slo_met_runs += p->values[met][r] == 1;
	}
	compare_set_min_effect(c, COMPARE_MIN_EFFECT);
	compare_pareto(c);
	return STATUS_OK;
}

/* The 95% half-width of a point's mean, 0 when it has none (one run). */
static double half_or_zero(const struct compare_ci *ci)
{
	return isnan(ci->half) ? 0 : ci->half;
}

/*
 * q dominates p: at most as costly and at most as violating, and better in one (by the means); or within
 * the intervals: no worse than p by more than the wider of their two intervals on either axis, and better
 * than p by more than that on one (the intervals cannot tell p's advantage from noise, q's they can).
 */
static bool dominates(const struct compare_point *q, const struct compare_point *p, int cost, int viol)
{
	double qc = q->stat[cost].mean, qv = q->stat[viol].mean, pc = p->stat[cost].mean, pv = p->stat[viol].mean;
	double hc = fmax(half_or_zero(&q->stat[cost]), half_or_zero(&p->stat[cost]));
	double hv = fmax(half_or_zero(&q->stat[viol]), half_or_zero(&p->stat[viol]));

	if (isnan(qc) || isnan(qv))
		return false;
	if (qc <= pc && qv <= pv && (qc < pc || qv < pv))
		return true;
	return qc <= pc + hc && qv <= pv + hv && (qc < pc - hc || qv < pv - hv);
}

void compare_pareto(struct compare *c)
{
	int cost = compare_metric_index("cost_per_month_usd"), viol = compare_metric_index("slo_violation_rate");

	for (int i = 0; i < c->npoints; i++) {
		struct compare_point *p = &c->points[i];
		p->pareto = !isnan(p->stat[cost].mean) && !isnan(p->stat[viol].mean);
		for (int j = 0; j < c->npoints && p->pareto; j++)
			if (j != i && dominates(&c->points[j], p, cost, viol))
				p->pareto = false;
	}
}

/*
 * Runs of different scenarios (another name or serving type: the same workload planned on two providers,
 * say) differ by more than their overrides, so when the runs compared are not all of one scenario, each
 * run's params start with its scenario, "NAME (INSTANCE_TYPE)". Runs of one scenario keep their overrides
 * alone, as before. Sweep points are left alone: their swept keys say what differs.
 */
static void label_scenarios(struct compare *c)
{
	const char *first = NULL;
	bool differ = false;

	for (int i = 0; i < c->npoints; i++) {
		if (c->points[i].point >= 0)
			continue;
		if (!first)
			first = c->points[i].scenario;
		else if (strcmp(first, c->points[i].scenario) != 0)
			differ = true;
	}
	for (int i = 0; differ && i < c->npoints; i++) {
		struct compare_point *p = &c->points[i];
		size_t ls = strlen(p->scenario), lp = strlen(p->params);  /* ls < 160: room for both */
		if (p->point >= 0)
			continue;
		if (ls + 1 + lp >= sizeof p->params)  /* the overrides are cut short, as load_run cuts them */
			lp = sizeof p->params - ls - 2;
		memmove(p->params + ls + 1, p->params, lp);
		memcpy(p->params, p->scenario, ls);
		p->params[ls] = ' ';
		p->params[ls + (lp ? 1 : 0) + lp] = '\0';
	}
}

int compare_load(struct compare *c, const char *path, const char *const *ids, int nids, const char *baseline,
		 struct diag *d)
{
	struct loader ld = { .path = path, .c = c };
	int status;

	memset(c, 0, sizeof *c);
	snprintf(c->db, sizeof c->db, "%s", path);
	int64_t nruns = 0;
	status = loader_open(&ld, path, d);
	if (status == STATUS_OK)
		status = query_int(&ld, "SELECT EXISTS (SELECT 1 FROM runs)", &nruns, d);
	if (status == STATUS_OK && nruns == 0)
		status = diag_fail(d, STATUS_EINPUT, "%s: the database has no runs; nothing to compare", path);
	for (int i = 0; i < nids && status == STATUS_OK; i++)
		status = load_id(&ld, ids[i], false, d);
	if (status == STATUS_OK && nids == 0)
		status = load_all(&ld, d);
	if (status == STATUS_OK && baseline) {
		int64_t id;
		char canon[160];
		/* "SWEEP:P" and a run id name points as their ids are shown; load the baseline if not given */
		snprintf(canon, sizeof canon, "%s", baseline);
		if (parse_int(baseline, &id))
			snprintf(canon, sizeof canon, "%" PRId64, id);
		c->baseline = find_point(c, canon);
		if (c->baseline < 0) {
			status = load_id(&ld, baseline, true, d);
			c->baseline = c->npoints - 1;
		}
	}
	if (status == STATUS_OK) {
		label_scenarios(c);
		status = compute(c, d);
	}
	sqlite3_finalize(ld.metric);
	store_read_close(&ld.rd);
	if (status != STATUS_OK)
		compare_fini(c);
	return status;
}

void compare_fini(struct compare *c)
{
	for (int i = 0; i < c->npoints; i++) {
		free(c->points[i].run_ids);
		free(c->points[i].seeds);
		for (int m = 0; m < COMPARE_NMETRICS; m++)
			free(c->points[i].values[m]);
	}
	free(c->points);
	memset(c, 0, sizeof *c);
}
