/*
 * report: the data of `gpucap report` (report.h). The ids are resolved, and the database checked, by
 * compare_load; each run outside a sweep is then read again in detail (runs, metrics, samples, events,
 * warnings, labels) and its samples turned into hourly series.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "scenario.h"
#include "status.h"
#include "store.h"
#include "store_read.h"

static char *dup_text(sqlite3_stmt *stmt, int col)
{
	const char *s = (const char *)sqlite3_column_text(stmt, col);

	return strdup(s ? s : "");
}

static int db_fail(sqlite3 *db, const char *path, struct diag *d)
{
	return store_read_fail(db, NULL, path, d, "reading a run for the report");
}

/*
 * A stored scenario that names files by relative paths (traces) parses only beside its file: when the file it
 * was loaded from still holds exactly the stored text, load that file (so its paths resolve as they did).
 */
static bool same_file_loads(struct scenario *sc, const char *file, const char *text, const char *const *sets,
			    int nsets)
{
	struct diag ignored;
	FILE *f = file ? fopen(file, "rb") : NULL;
	size_t len = strlen(text), got;
	char *buf;
	bool same;

	if (!f)
		return false;
	buf = malloc(len + 2);
	got = buf ? fread(buf, 1, len + 1, f) : 0;
	fclose(f);
	same = buf && got == len && memcmp(buf, text, len) == 0;
	free(buf);
	return same && scenario_load(sc, file, sets, nsets, &ignored) == 0;
}

/* The runs row: texts, seed, horizon; then the scenario parsed again for slots and the SLO threshold. */
/* The lines of scenario_price_origin for each of sc's types, owned ("" when every type is priced from a
 * file); NULL when out of memory (the page then says nothing of them). */
static char *price_origins(const struct scenario *sc)
{
	char line[512], *all = calloc((size_t)sc->ntypes, sizeof line);
	size_t o = 0;

	for (int k = 0; all && k < sc->ntypes; k++)
		if (scenario_price_origin(sc, k, line, sizeof line))
			o += (size_t)snprintf(all + o, sizeof line, "%s\n", line);
	return all;
}

static int read_run(sqlite3 *db, struct report_run *run, const char *path, struct diag *d)
{
	char *path_loaded;
	sqlite3_stmt *stmt;
	int status = STATUS_OK;

	if (sqlite3_prepare_v2(db, "SELECT name, scenario_text, overrides, instance_type, seed, horizon_s, scenario_path "
			       "FROM runs WHERE run_id = ?1", -1, &stmt, NULL) != SQLITE_OK)
		return db_fail(db, path, d);
	sqlite3_bind_int64(stmt, 1, run->run_id);
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		sqlite3_finalize(stmt);
		return db_fail(db, path, d);
	}
	run->name = dup_text(stmt, 0);
	run->scenario_text = dup_text(stmt, 1);
	run->overrides = dup_text(stmt, 2);
	run->instance_type = dup_text(stmt, 3);
	run->seed = sqlite3_column_int64(stmt, 4);
	run->horizon_s = sqlite3_column_double(stmt, 5);
	path_loaded = sqlite3_column_type(stmt, 6) == SQLITE_TEXT ? dup_text(stmt, 6) : NULL;
	sqlite3_finalize(stmt);
	if (!run->name || !run->scenario_text || !run->overrides || !run->instance_type) {
		free(path_loaded);
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	}
	run->slo_latency_s = NAN;
	/* Best effort: a scenario whose traces moved cannot be parsed again; the page then draws no demand. */
	{
		const char *sets[64];
		int nsets = 0;
		char *ov = strdup(run->overrides), *save = NULL;
		struct scenario sc;
		struct diag ignored;

		if (!ov) {
			free(path_loaded);
			return diag_fail(d, STATUS_ENOMEM, "out of memory");
		}
		for (char *t = strtok_r(ov, "\n", &save); t && nsets < 64; t = strtok_r(NULL, "\n", &save))
			sets[nsets++] = t;
		if (scenario_parse_string(&sc, run->scenario_text, "stored scenario", sets, nsets, &ignored) == 0 ||
		    same_file_loads(&sc, path_loaded, run->scenario_text, sets, nsets)) {
			run->slots = sc.serving.slots;
			run->slo_latency_s = sc.slo.latency_us / 1e6;
			run->term_h = report_scenario_term_h(&sc);
			run->price_origins = price_origins(&sc);
			if (!report_jobs_from_scenario(run, &sc))
				status = diag_fail(d, STATUS_ENOMEM, "out of memory");
			scenario_fini(&sc);
		}
		free(ov);
	}
	free(path_loaded);
	return status;
}

/* Metrics, scaling events, warnings and labels. */
static int read_lists(sqlite3 *db, struct report_run *run, const char *path, struct diag *d)
{
	static const char *const sql[4] = {
		"SELECT name, value FROM metrics WHERE run_id = ?1 ORDER BY name",
		"SELECT t_s, kind, count FROM events WHERE run_id = ?1 AND kind IN ('scale_out', 'scale_in') ORDER BY seq",
		"SELECT code, message FROM warnings WHERE run_id = ?1 ORDER BY seq",
		"SELECT key, value FROM labels WHERE run_id = ?1 ORDER BY key",
	};
	size_t lab_len = 0;

	run->labels = strdup("");
	if (!run->labels)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	for (int q = 0; q < 4; q++) {
		sqlite3_stmt *stmt;
		int cap = 0, *n = q == 0 ? &run->nmetrics : q == 1 ? &run->nevents : q == 2 ? &run->nwarnings : &cap;

		if (sqlite3_prepare_v2(db, sql[q], -1, &stmt, NULL) != SQLITE_OK)
			return db_fail(db, path, d);
		sqlite3_bind_int64(stmt, 1, run->run_id);
		while (sqlite3_step(stmt) == SQLITE_ROW) {
			void *p = NULL;
			if (q == 0)
				p = run->metrics = realloc(run->metrics, (size_t)(*n + 1) * sizeof *run->metrics);
			else if (q == 1)
				p = run->events = realloc(run->events, (size_t)(*n + 1) * sizeof *run->events);
			else if (q == 2)
				p = run->warnings = realloc(run->warnings, (size_t)(*n + 1) * sizeof *run->warnings);
			else {
				const char *k = (const char *)sqlite3_column_text(stmt, 0);
				const char *v = (const char *)sqlite3_column_text(stmt, 1);
				size_t add = strlen(k ? k : "") + strlen(v ? v : "") + 2;
				p = realloc(run->labels, lab_len + add + 1);
				if (p) {
					run->labels = p;
					lab_len += (size_t)snprintf(run->labels + lab_len, add + 1, "%s=%s\n", k ? k : "",
								    v ? v : "");
				}
			}
			if (!p) {
				sqlite3_finalize(stmt);
				return diag_fail(d, STATUS_ENOMEM, "out of memory");
			}
			if (q == 0) {
				run->metrics[*n].name = dup_text(stmt, 0);
				run->metrics[*n].value = sqlite3_column_type(stmt, 1) == SQLITE_NULL ? NAN
							 : sqlite3_column_double(stmt, 1);
				(*n)++;
			} else if (q == 1) {
				const char *kind = (const char *)sqlite3_column_text(stmt, 1);
				run->events[*n] = (struct report_event){ sqlite3_column_double(stmt, 0),
									strcmp(kind ? kind : "", "scale_out") == 0,
									sqlite3_column_int(stmt, 2) };
				(*n)++;
			} else if (q == 2) {
				run->warnings[*n].code = dup_text(stmt, 0);
				run->warnings[*n].message = dup_text(stmt, 1);
				(*n)++;
			}
		}
		sqlite3_finalize(stmt);
	}
	return STATUS_OK;
}

/* The columns of samples per option kind, in enum option_kind order. */
static const char *const inst_cols[OPTION_KIND_COUNT] = {
	"instances_reserved", "instances_on_demand", "instances_spot", "instances_odcr", "instances_savings_plan",
	"instances_capacity_block", "instances_training_plan",
};

static int alloc_series(struct report_run *run, int nh, struct diag *d)
{
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		run->inst[k] = calloc((size_t)nh, sizeof(double));
		run->cost[k] = calloc((size_t)nh, sizeof(double));
		if (!run->inst[k] || !run->cost[k])
			return diag_fail(d, STATUS_ENOMEM, "out of memory");
	}
	run->demand = calloc((size_t)nh, sizeof(double));
	run->wait_s = calloc((size_t)nh, sizeof(double));
	run->coverage = calloc((size_t)nh, sizeof(double));
	run->commit_busy = calloc((size_t)nh, sizeof(double));
	if (!run->demand || !run->wait_s || !run->coverage || !run->commit_busy)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	return STATUS_OK;
}

/* The hourly means of the samples (report.h), then the derived series. */
static int read_hours(sqlite3 *db, struct report_run *run, const char *path, struct diag *d)
{
	sqlite3_stmt *stmt;
	char sql[512];
	int nh = (int)ceil(run->horizon_s / 3600), status;
	double *n, *busy, *queue, *arr;

	if (nh < 1)
		nh = 1;
	status = alloc_series(run, nh, d);
	n = calloc((size_t)nh * 4, sizeof(double));
	if (status || !n) {
		free(n);
		return status ? status : diag_fail(d, STATUS_ENOMEM, "out of memory");
	}
	busy = n + nh, queue = busy + nh, arr = queue + nh;
	/* one column per option kind; files before schema version 8 have no instances_training_plan: 0 there */
	for (int old = 0; old < 2; old++) {
		snprintf(sql, sizeof sql, "SELECT t_s, busy_slots, queue_len, arrival_rate_per_s, %s, %s, %s, %s, %s, "
			 "%s, %s FROM samples WHERE run_id = ?1 ORDER BY t_s", inst_cols[0], inst_cols[1], inst_cols[2],
			 inst_cols[3], inst_cols[4], inst_cols[5], old ? "0" : inst_cols[6]);
		if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK)
			break;
		if (old) {
			free(n);
			return db_fail(db, path, d);
		}
	}
	sqlite3_bind_int64(stmt, 1, run->run_id);
	run->nhours = 0;
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		/* hour h holds h*3600 < t <= (h+1)*3600 */
		int h = (int)ceil(sqlite3_column_double(stmt, 0) / 3600) - 1;
		if (h < 0)
			h = 0;
		if (h >= nh)
			continue;
		n[h] += 1;
		busy[h] += sqlite3_column_double(stmt, 1);
		queue[h] += sqlite3_column_double(stmt, 2);
		arr[h] += sqlite3_column_double(stmt, 3);
		for (int k = 0; k < OPTION_KIND_COUNT; k++)
			run->inst[k][h] += sqlite3_column_double(stmt, 4 + k);
		if (h + 1 > run->nhours)
			run->nhours = h + 1;
	}
	sqlite3_finalize(stmt);
	for (int h = 0; h < nh; h++) {
		double c = n[h] > 0 ? n[h] : 1, committed = 0, total = 0;
		for (int k = 0; k < OPTION_KIND_COUNT; k++) {
			run->inst[k][h] /= c;
			total += run->inst[k][h];
			if (k != OPTION_ON_DEMAND && k != OPTION_SPOT)
				committed += run->inst[k][h];
		}
		run->demand[h] = run->slots > 0 && n[h] > 0 ? busy[h] / c / run->slots : NAN;
		run->wait_s[h] = arr[h] > 0 ? queue[h] / arr[h] : NAN;  /* (queue/c) / (arr/c) */
		run->coverage[h] = total > 0 ? committed / total : NAN;
		run->commit_busy[h] = committed > 0 && !isnan(run->demand[h])
				      ? fmin(run->demand[h], committed) / committed : NAN;
	}
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		char name[64];
		double usd, ih = 0;
		snprintf(name, sizeof name, "cost_%s_usd", option_kind_name((enum option_kind)k));
		usd = report_metric(run, name);
		if (isnan(usd) || run->nhours == 0)
			continue;
		for (int h = 0; h < run->nhours; h++)
			ih += run->inst[k][h];
		for (int h = 0; h < run->nhours; h++)
			run->cost[k][h] = ih > 0 ? usd * run->inst[k][h] / ih : usd / run->nhours;
	}
	free(n);
	return STATUS_OK;
}

/*
 * The exact hourly cost and commitment series from the run's bill lines (charges, analysis/README.md "Reports"): none
 * for runs stored without them (the samples-based fallback of read_hours stays). Clock hour h starts at
 * cost_x0_h + h hours from the scenario start; the scenario start is the start of hour 0's line (a line's
 * start_unix_s - hour x 3600 is the clock hour 0 start otherwise, at most the scenario start).
 */
static int read_charges(sqlite3 *db, struct report_run *run, const char *path, struct diag *d)
{
	sqlite3_stmt *stmt;
	int nh = 0;
	double s0 = NAN, *used, *unused, *cov, *elig;

	if (sqlite3_prepare_v2(db, "SELECT count(*), max(hour), max(start_unix_s - hour * 3600) FROM charges "
			       "WHERE run_id = ?1", -1, &stmt, NULL) != SQLITE_OK)
		return db_fail(db, path, d);
	sqlite3_bind_int64(stmt, 1, run->run_id);
	if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_int64(stmt, 0) > 0) {
		nh = sqlite3_column_int(stmt, 1) + 1;
		s0 = sqlite3_column_double(stmt, 2);
	}
	sqlite3_finalize(stmt);
	if (nh < 1)
		return STATUS_OK;
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		free(run->cost[k]);
		run->cost[k] = calloc((size_t)nh, sizeof(double));
		if (!run->cost[k])
			return diag_fail(d, STATUS_ENOMEM, "out of memory");
	}
	run->commit_util = calloc((size_t)nh, sizeof(double));
	run->commit_cov = calloc((size_t)nh, sizeof(double));
	used = calloc((size_t)nh * 4, sizeof(double));
	if (!run->commit_util || !run->commit_cov || !used) {
		free(used);
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	}
	unused = used + nh, cov = unused + nh, elig = cov + nh;
	run->exact = true;
	run->ncost = nh;
	run->cost_x0_h = (floor(s0 / 3600) * 3600 - s0) / 3600;
	if (sqlite3_prepare_v2(db, "SELECT hour, option, kind, list_usd, effective_usd FROM charges "
			       "WHERE run_id = ?1", -1, &stmt, NULL) != SQLITE_OK) {
		free(used);
		return db_fail(db, path, d);
	}
	sqlite3_bind_int64(stmt, 1, run->run_id);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		int h = sqlite3_column_int(stmt, 0);
		const char *opt = (const char *)sqlite3_column_text(stmt, 1);
		const char *kind = (const char *)sqlite3_column_text(stmt, 2);
		double list = sqlite3_column_double(stmt, 3), eff = sqlite3_column_double(stmt, 4);
		enum option_kind k;
		bool commit, is_used, is_unused;

		if (h < 0 || h >= nh || !opt || !kind || !option_kind_parse(opt, &k))
			continue;
		run->cost[k][h] += eff;
		commit = k == OPTION_RESERVED || k == OPTION_SAVINGS_PLAN || k == OPTION_ODCR;
		is_used = strcmp(kind, "used") == 0, is_unused = strcmp(kind, "unused") == 0;
		if (commit && is_used)
			used[h] += eff;
		if (commit && is_unused)
			unused[h] += eff;
		/* coverage as the run's commitment_coverage: reserved and plan-covered usage over those, the
		 * on-demand usage and the ODCR capacity, at On-Demand prices */
		if ((k == OPTION_RESERVED || k == OPTION_SAVINGS_PLAN) && is_used)
			cov[h] += list, elig[h] += list;
		if ((k == OPTION_ON_DEMAND && strcmp(kind, "usage") == 0) || (k == OPTION_ODCR && (is_used || is_unused)))
			elig[h] += list;
	}
	sqlite3_finalize(stmt);
	for (int h = 0; h < nh; h++) {
		run->commit_util[h] = used[h] + unused[h] > 0 ? used[h] / (used[h] + unused[h]) : NAN;
		run->commit_cov[h] = elig[h] > 0 ? cov[h] / elig[h] : NAN;
	}
	free(used);
	return STATUS_OK;
}

/* The stored hourly request rows (analysis/README.md "Reports"), when the file has the table (schema 7) and rows. */
static int read_lat_hours(sqlite3 *db, struct report_run *run, const char *path, struct diag *d)
{
	sqlite3_stmt *stmt;
	int n = 0, has = 0;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'hours'", -1,
			       &stmt, NULL) != SQLITE_OK)
		return db_fail(db, path, d);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		has = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	if (!has)
		return STATUS_OK;
	if (sqlite3_prepare_v2(db, "SELECT count(*), min(hour_start_s) FROM hours WHERE run_id = ?1", -1, &stmt,
			       NULL) != SQLITE_OK)
		return db_fail(db, path, d);
	sqlite3_bind_int64(stmt, 1, run->run_id);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		n = sqlite3_column_int(stmt, 0);
		run->lat_x0_h = sqlite3_column_double(stmt, 1) / 3600;
	}
	sqlite3_finalize(stmt);
	if (n < 1)
		return STATUS_OK;
	run->lat_req = calloc((size_t)n * 5, sizeof(double));
	if (!run->lat_req)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	run->lat_viol = run->lat_req + n, run->lat_p50 = run->lat_viol + n, run->lat_p95 = run->lat_p50 + n;
	run->lat_p99 = run->lat_p95 + n;
	for (int i = 0; i < n; i++)
		run->lat_p50[i] = run->lat_p95[i] = run->lat_p99[i] = NAN;
	run->nlat = n;
	if (sqlite3_prepare_v2(db, "SELECT hour_start_s, requests, violations, latency_p50_s, latency_p95_s, "
			       "latency_p99_s FROM hours WHERE run_id = ?1 ORDER BY hour_start_s", -1, &stmt, NULL) != SQLITE_OK)
		return db_fail(db, path, d);
	sqlite3_bind_int64(stmt, 1, run->run_id);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		/* the rows are consecutive clock hours; placed by their start all the same */
		int i = (int)lround(sqlite3_column_double(stmt, 0) / 3600 - run->lat_x0_h);
		if (i < 0 || i >= n)
			continue;
		run->lat_req[i] = sqlite3_column_double(stmt, 1);
		run->lat_viol[i] = sqlite3_column_double(stmt, 2);
		for (int j = 0; j < 3; j++)
			if (sqlite3_column_type(stmt, 3 + j) != SQLITE_NULL)
				(j == 0 ? run->lat_p50 : j == 1 ? run->lat_p95 : run->lat_p99)[i] =
					sqlite3_column_double(stmt, 3 + j);
	}
	sqlite3_finalize(stmt);
	return STATUS_OK;
}

double report_metric(const struct report_run *run, const char *name)
{
	for (int i = 0; i < run->nmetrics; i++)
		if (strcmp(run->metrics[i].name, name) == 0)
			return run->metrics[i].value;
	return NAN;
}

static bool in_points(const struct report *r, int64_t id)
{
	for (int i = 0; i < r->cmp.npoints; i++)
		for (int j = 0; j < r->cmp.points[i].nruns; j++)
			if (r->cmp.points[i].run_ids[j] == id)
				return true;
	return false;
}

/*
 * Whether session id was stopped before its search ended: its recommend_session_state label says
 * "incomplete" (recommend.c writes it with the first candidate and replaces it by "complete" last). A session
 * without the label was stored before it existed, and is taken as it was then: complete.
 */
static bool session_incomplete(sqlite3_stmt *st, const char *id)
{
	bool incomplete;

	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	incomplete = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_reset(st);
	return incomplete;
}

/*
 * How session id decided (recommend.c, label_decision): the labels of its choice's first run that say how the
 * term was priced, by which rule, and the ladder, as "key=value" lines (returns owned; "" when there are none,
 * NULL when out of memory).
 */
static char *session_decision(sqlite3 *db, const char *id)
{
	sqlite3_stmt *q;
	char *out = calloc(1, 1);
	size_t len = 0;

	if (!out || sqlite3_prepare_v2(db, "SELECT key, value FROM labels WHERE run_id = (SELECT min(s.run_id) FROM "
				       "labels s JOIN labels ch ON ch.run_id = s.run_id AND ch.key = 'recommend_choice' "
				       "WHERE s.key = 'recommend_session' AND s.value = ?1) AND key IN "
				       "('recommend_term_method', 'recommend_choose', 'recommend_ladder', "
				       "'recommend_owed_after_term_usd') ORDER BY key", -1, &q, NULL) != SQLITE_OK)
		return out;  /* no labels table: nothing to say */
	sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(q, 0), *v = (const char *)sqlite3_column_text(q, 1);
		size_t add = strlen(k) + strlen(v ? v : "") + 2;
		char *p = realloc(out, len + add + 1);
		if (!p) {
			free(out);
			out = NULL;
			break;
		}
		out = p;
		len += (size_t)snprintf(out + len, add + 1, "%s=%s\n", k, v ? v : "");
	}
	sqlite3_finalize(q);
	return out;
}

/* The value of label key on session id's runs (the first run that has it), owned; NULL when none has it or
 * out of memory (*nomem then). */
static char *session_label(sqlite3 *db, const char *id, const char *key, bool *nomem)
{
	sqlite3_stmt *q;
	char *v = NULL;

	if (sqlite3_prepare_v2(db, "SELECT l.value FROM labels s JOIN labels l ON l.run_id = s.run_id AND l.key = ?2 "
			       "WHERE s.key = 'recommend_session' AND s.value = ?1 ORDER BY s.run_id LIMIT 1", -1, &q,
			       NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL && !(v = dup_text(q, 0)))
		*nomem = true;
	sqlite3_finalize(q);
	return v;
}

/* The recommend sessions: all (nids = 0), or those with a run among the points asked for. */
static int read_sessions(sqlite3 *db, struct report *r, int nids, const char *path, struct diag *d)
{
	sqlite3_stmt *s, *c, *st;

	if (sqlite3_prepare_v2(db, "SELECT value, group_concat(run_id) FROM labels WHERE key = 'recommend_session' "
			       "GROUP BY value ORDER BY min(run_id)", -1, &s, NULL) != SQLITE_OK)
		return STATUS_OK;  /* no labels table: no session */
	if (sqlite3_prepare_v2(db, "SELECT c.value, t.value, max(coalesce(ch.value, 0)) FROM labels s "
			       "JOIN labels c ON c.run_id = s.run_id AND c.key = 'recommend_candidate' "
			       "JOIN labels t ON t.run_id = s.run_id AND t.key = 'recommend_term_cost_usd' "
			       "LEFT JOIN labels ch ON ch.run_id = s.run_id AND ch.key = 'recommend_choice' "
			       "WHERE s.key = 'recommend_session' AND s.value = ?1 GROUP BY c.value ORDER BY min(s.run_id)",
			       -1, &c, NULL) != SQLITE_OK) {
		sqlite3_finalize(s);
		return db_fail(db, path, d);
	}
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM labels s JOIN labels t ON t.run_id = s.run_id AND "
			       "t.key = 'recommend_session_state' AND t.value = 'incomplete' "
			       "WHERE s.key = 'recommend_session' AND s.value = ?1 LIMIT 1", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(s);
		sqlite3_finalize(c);
		return db_fail(db, path, d);
	}
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *ids = (const char *)sqlite3_column_text(s, 1);
		bool want = nids == 0, several = false;
		struct report_session *ss;
		void *p;
		for (const char *q = ids; q && *q && !want; q = strchr(q, ',') ? strchr(q, ',') + 1 : "")
			want = in_points(r, strtoll(q, NULL, 10));
		if (!want)
			continue;
		if (!(p = realloc(r->sessions, (size_t)(r->nsessions + 1) * sizeof *r->sessions)))
			goto nomem;
		r->sessions = p;
		ss = &r->sessions[r->nsessions++];
		memset(ss, 0, sizeof *ss);
		if (!(ss->id = dup_text(s, 0)))
			goto nomem;
		ss->incomplete = session_incomplete(st, ss->id);
		sqlite3_bind_text(c, 1, ss->id, -1, SQLITE_STATIC);
		while (sqlite3_step(c) == SQLITE_ROW) {
			int n = ss->ncand + 1;
			if (!(p = realloc(ss->cand, (size_t)n * sizeof *ss->cand)))
				goto nomem;
			ss->cand = p;
			if (!(p = realloc(ss->cost, (size_t)n * sizeof *ss->cost)))
				goto nomem;
			ss->cost = p;
			if (!(p = realloc(ss->x, (size_t)n * sizeof *ss->x)))
				goto nomem;
			ss->x = p;
			if (!(p = realloc(ss->chosen, (size_t)n * sizeof *ss->chosen)))
				goto nomem;
			ss->chosen = p;
			if (!(ss->cand[n - 1] = dup_text(c, 0)))
				goto nomem;
			ss->ncand = n;
			ss->cost[n - 1] = strtod((const char *)sqlite3_column_text(c, 1), NULL);
			ss->chosen[n - 1] = sqlite3_column_int(c, 2) == 1;
			several |= strchr(ss->cand[n - 1], ' ') != NULL || !strchr(ss->cand[n - 1], '=');
		}
		sqlite3_reset(c);
		for (int i = 0; i < ss->ncand; i++)
			ss->x[i] = several ? i + 1 : strtod(strchr(ss->cand[i], '=') + 1, NULL);
		if (!(ss->decision = session_decision(db, ss->id)))
			goto nomem;
		{
			bool nomem = false;
			char *json = session_label(db, ss->id, "recommend_result", &nomem);
			ss->case_name = session_label(db, ss->id, "recommend_case", &nomem);
			nomem |= !report_rec_parse(ss->incomplete ? NULL : json, &ss->rec);  /* a killed search has none */
			free(json);
			if (nomem)
				goto nomem;
		}
	}
	sqlite3_finalize(s);
	sqlite3_finalize(c);
	sqlite3_finalize(st);
	return STATUS_OK;
nomem:
	sqlite3_finalize(s);
	sqlite3_finalize(c);
	sqlite3_finalize(st);
	return diag_fail(d, STATUS_ENOMEM, "out of memory");
}

/*
 * The ids a report without ids shows: every sweep by name and every run outside a sweep, except the runs
 * `recommend --db` made (labelled `recommend`), which their session's commitment-versus-cost curve stands
 * for. *out (returns owned: free each string and the array) may be empty. Returns STATUS_OK, STATUS_DONE
 * when the file has no labels table (an older database: show everything, as compare_load does with no
 * ids), or a failure (a file store_read_open() refuses: its message, so that it is not waited for twice).
 */
static int default_ids(const char *path, char ***out, int *nout, struct diag *d)
{
	static const char sql[] =
		"SELECT name FROM (SELECT name, max(sweep_id) AS id FROM sweeps GROUP BY name) ORDER BY id";
	static const char runs_sql[] =
		"SELECT run_id FROM runs WHERE sweep_id IS NULL AND run_id NOT IN "
		"(SELECT run_id FROM labels WHERE key = 'recommend') ORDER BY run_id";
	struct store_reader rd;
	sqlite3 *db;
	sqlite3_stmt *st = NULL;
	char **ids = NULL;
	int n = 0, status;

	*out = NULL;
	*nout = 0;
	status = store_read_open(&rd, path, 3, "gpucap report", d);
	if (status != STATUS_OK)
		return status;
	db = rd.db;
	for (int pass = 0; pass < 2 && status == STATUS_OK; pass++) {
		if (sqlite3_prepare_v2(db, pass ? runs_sql : sql, -1, &st, NULL) != SQLITE_OK) {
			status = STATUS_DONE;  /* no sweeps or labels table */
			break;
		}
		while (sqlite3_step(st) == SQLITE_ROW) {
			char **p = realloc(ids, (size_t)(n + 1) * sizeof *ids);
			if (!p || !(p[n] = strdup((const char *)sqlite3_column_text(st, 0)))) {
				ids = p ? p : ids;
				status = diag_fail(d, STATUS_ENOMEM, "out of memory");
				break;
			}
			ids = p;
			n++;
		}
		sqlite3_finalize(st);
	}
	if (status == STATUS_OK) {
		*out = ids;
		*nout = n;
		ids = NULL;
		n = 0;
	}
	for (int i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	store_read_close(&rd);
	return status;
}

int report_load(struct report *r, const char *path, const char *const *ids, int nids, struct diag *d)
{
	struct store_reader rd = { .db = NULL };
	sqlite3 *db = NULL;
	int status, ndetail = 0, ndefault = 0;
	bool any_sweep = false;
	char **defaults = NULL;

	memset(r, 0, sizeof *r);
	snprintf(r->db, sizeof r->db, "%s", path);
	status = nids ? STATUS_DONE : default_ids(path, &defaults, &ndefault, d);
	if (status < 0)
		return status;
	/* With no ids and nothing but recommend's runs (or nothing), r->cmp stays empty: only sessions, and
	 * "no runs" is said below once the sessions are read. */
	if (status == STATUS_OK && ndefault > 0)
		status = compare_load(&r->cmp, path, (const char *const *)defaults, ndefault, NULL, d);
	else if (status != STATUS_OK)
		status = compare_load(&r->cmp, path, ids, nids, NULL, d);
	for (int i = 0; i < ndefault; i++)
		free(defaults[i]);
	free(defaults);
	if (status)
		return status;
	for (int i = 0; i < r->cmp.npoints; i++) {
		if (r->cmp.points[i].point < 0)
			ndetail++;
		else
			any_sweep = true;
	}
	if (ndetail > REPORT_RUNS_MAX) {
		compare_fini(&r->cmp);
		return diag_fail(d, STATUS_EINPUT, "%s: %d runs to show in detail; a report shows at most %d (name "
				 "the runs, or put them in a sweep)", path, ndetail, REPORT_RUNS_MAX);
	}
	r->ncmp = r->cmp.npoints >= 2 || any_sweep ? r->cmp.npoints : 0;
	r->runs = calloc(ndetail ? (size_t)ndetail : 1, sizeof *r->runs);
	if (!r->runs) {
		status = diag_fail(d, STATUS_ENOMEM, "out of memory");
		goto out_fini;
	}
	status = store_read_open(&rd, path, 3, "gpucap report", d);
	if (status != STATUS_OK)
		goto out_fini;
	db = rd.db;
	status = read_sessions(db, r, nids, path, d);
	if (status == STATUS_OK && r->ncmp)
		status = report_read_why(db, r, d);
	if (status == STATUS_OK && r->cmp.npoints == 0 && r->nsessions == 0)
		status = diag_fail(d, STATUS_EINPUT, "%s: no runs to report", path);
	for (int i = 0; i < r->cmp.npoints && status == STATUS_OK; i++) {
		struct report_run *run;
		if (r->cmp.points[i].point >= 0)
			continue;
		run = &r->runs[r->nruns++];
		run->run_id = r->cmp.points[i].run_ids[0];
		status = read_run(db, run, path, d);
		if (status == STATUS_OK)
			status = read_lists(db, run, path, d);
		if (status == STATUS_OK)
			status = read_hours(db, run, path, d);
		if (status == STATUS_OK)
			status = read_charges(db, run, path, d);
		if (status == STATUS_OK)
			status = read_lat_hours(db, run, path, d);
		if (status == STATUS_OK)
			status = report_jobs_read(db, run, d);
	}
	store_read_close(&rd);
	if (status == STATUS_OK)
		return STATUS_OK;
out_fini:
	store_read_close(&rd);
	report_fini(r);
	return status;
}

void report_fini(struct report *r)
{
	for (int i = 0; i < r->nruns; i++) {
		struct report_run *run = &r->runs[i];
		free(run->name);
		free(run->scenario_text);
		free(run->overrides);
		free(run->instance_type);
		free(run->labels);
		free(run->price_origins);
		for (int m = 0; m < run->nmetrics; m++)
			free(run->metrics[m].name);
		free(run->metrics);
		free(run->events);
		for (int w = 0; w < run->nwarnings; w++) {
			free(run->warnings[w].code);
			free(run->warnings[w].message);
		}
		free(run->warnings);
		for (int k = 0; k < OPTION_KIND_COUNT; k++) {
			free(run->inst[k]);
			free(run->cost[k]);
		}
		free(run->demand);
		free(run->wait_s);
		free(run->coverage);
		free(run->commit_busy);
		free(run->commit_util);
		free(run->commit_cov);
		free(run->lat_req);
		free(run->jobs);
		free(run->inst_jobs);
		free(run->cost_jobs);
	}
	free(r->runs);
	for (int i = 0; i < r->nsessions; i++) {
		struct report_session *ss = &r->sessions[i];
		for (int j = 0; j < ss->ncand; j++)
			free(ss->cand[j]);
		free(ss->id), free(ss->cand), free(ss->cost), free(ss->x), free(ss->chosen), free(ss->decision);
		free(ss->case_name);
		report_rec_fini(&ss->rec);
	}
	free(r->sessions);
	free(r->why);
	if (r->cmp.points)
		compare_fini(&r->cmp);
	memset(r, 0, sizeof *r);
}
