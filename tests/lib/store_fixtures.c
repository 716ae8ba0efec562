/*
 * store_fixtures: what the two store suites share (check_store.c, check_store_schema.c). See
 * store_fixtures.h for the contract of each helper.
 */
#include <check.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "status.h"
#include "store_fixtures.h"
#include "testutil.h"

/* A path to a file that does not exist yet, in a fresh directory (returns owned). */
char *tmp_path(const char *name)
{
	char tmpl[] = "/tmp/gpucap-store-XXXXXX";
	char *dir = mkdtemp(tmpl);
	char *path;

	ck_assert_ptr_nonnull(dir);
	path = malloc(strlen(dir) + strlen(name) + 2);
	ck_assert_ptr_nonnull(path);
	sprintf(path, "%s/%s", dir, name);
	return path;
}

/* Remove the file, its journal if any, and the directory tmp_path() or test_write_file() made; free path. */
void tmp_remove(char *path)
{
	test_remove_file(path);
}

struct bytes file_bytes(const char *path)
{
	struct bytes b = { NULL, 0 };
	FILE *f = fopen(path, "rb");
	long len;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	ck_assert_int_gt(len, 0);
	fseek(f, 0, SEEK_SET);
	b.data = malloc((size_t)len);
	ck_assert_ptr_nonnull(b.data);
	b.len = fread(b.data, 1, (size_t)len, f);
	ck_assert_uint_eq(b.len, (size_t)len);
	fclose(f);
	return b;
}

/* Assert that the file at path holds exactly `before`, and free it. */
void assert_unchanged(const char *path, struct bytes before)
{
	struct bytes now = file_bytes(path);

	ck_assert_uint_eq(now.len, before.len);
	ck_assert(memcmp(now.data, before.data, now.len) == 0);
	free(now.data);
	free(before.data);
}

/* Run one statement on a new connection to path (to build foreign or tampered files). */
void raw_exec(const char *path, const char *sql)
{
	sqlite3 *db;

	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK, "%s", sqlite3_errmsg(db));
	sqlite3_close(db);
}

/* The first column of the first row of sql, read through a read-only connection; NaN for NULL. */
double query_double(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *stmt;
	double v;

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK, "%s", sqlite3_errmsg(db));
	ck_assert_int_eq(sqlite3_step(stmt), SQLITE_ROW);
	v = sqlite3_column_type(stmt, 0) == SQLITE_NULL ? NAN : sqlite3_column_double(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return v;
}

/* As query_double, for an integer result (a count, a PRAGMA). */
int64_t query_int(const char *path, const char *sql)
{
	double v = query_double(path, sql);

	ck_assert(!isnan(v) && v == floor(v));
	return (int64_t)v;
}

/* As query_double, for a text result; returns owned ("(null)" for NULL). */
char *query_text(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *stmt;
	const unsigned char *t;
	char *s;

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK, "%s", sqlite3_errmsg(db));
	ck_assert_int_eq(sqlite3_step(stmt), SQLITE_ROW);
	t = sqlite3_column_text(stmt, 0);
	s = strdup(t ? (const char *)t : "(null)");
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return s;
}

void assert_text(const char *path, const char *sql, const char *want)
{
	char *got = query_text(path, sql);

	ck_assert_str_eq(got, want);
	free(got);
}

void scenario_fake(struct scenario *sc, const char *name, uint64_t seed)
{
	memset(sc, 0, sizeof *sc);
	snprintf(sc->name, sizeof sc->name, "%s", name);
	sc->seed = seed;
	sc->horizon_us = 3600 * (int64_t)1000000;
	snprintf(sc->serving.instance_type, sizeof sc->serving.instance_type, "p5.48xlarge");
	sc->path = "scenarios/fake.yaml";
	sc->text = "name: fake\nhorizon: 1h\n";
	sc->overrides = "seed=7\n";
}

const struct sink_run_info run_info = { NULL, "2026-01-02T03:04:05Z", "0.1.0-test" };

void sample_fill(struct sink_sample *s, double t_s)
{
	memset(s, 0, sizeof *s);
	s->t_s = t_s;
	s->arrival_rate_per_s = 12.5;
	s->queue_len = 3;
	s->busy_slots = 7.25;
	s->instances[OPTION_RESERVED] = 2;
	s->instances[OPTION_ON_DEMAND] = 1;
	s->instances_total = 3;
	s->cost_usd_per_h = 160.5;
}

/*
 * Write one whole run through the sink: nsamples samples, two events, three metrics (latency_p99_s is
 * p99), then end(end_status). Every call before end() must succeed. Returns what end() returned.
 */
int run_write(struct sink sk, const struct scenario *sc, int nsamples, double p99, int end_status)
{
	struct sink_run_info info = run_info;
	struct sink_sample s;
	const struct sink_event ev[] = {
		{ 60.0, "scale_out", "on_demand", 4, "concurrency 0.9 > target 0.7" },
		{ 61.0, "launch", NULL, 1, NULL },
	};
	const struct sink_metric m[] = {
		{ "requests_total", 1000 }, { "latency_p99_s", p99 }, { "cost_total_usd", 123.25 },
	};

	info.scenario = sc;
	ck_assert_int_eq(sk.ops->begin(sk.self, &info), STATUS_OK);
	for (int i = 0; i < nsamples; i++) {
		sample_fill(&s, 60.0 * (i + 1));
		ck_assert_int_eq(sk.ops->samples(sk.self, &s, 1), STATUS_OK);
	}
	ck_assert_int_eq(sk.ops->events(sk.self, ev, 2), STATUS_OK);
	ck_assert_int_eq(sk.ops->metrics(sk.self, m, 3), STATUS_OK);
	return sk.ops->end(sk.self, end_status, 1.5);
}

/* A new store at a fresh path with one committed run ("first"); *path returns owned. */
struct store *store_with_one_run(char **path, struct diag *d)
{
	struct store *st = NULL;
	struct scenario sc;

	*path = tmp_path("results.sqlite");
	ck_assert_int_eq(store_open(&st, *path, d), STATUS_OK);
	scenario_fake(&sc, "first", 1);
	ck_assert_int_eq(run_write(store_sink(st, d), &sc, 3, 0.25, STATUS_OK), STATUS_OK);
	return st;
}

/* The run columns, the warning count and one column per metric, by name (no "wall_s" metric column: runs.wall_s is there). */
void assert_summary_columns(const char *path)
{
	static const char *const metrics[] = {
		"requests_total", "requests_served", "requests_dropped", "requests_timed_out",
		"requests_refused", "requests_unserved", "requests_interrupted_dropped", "slo_violations", "slo_violation_rate", "latency_mean_s", "latency_p50_s",
		"latency_p90_s", "latency_p95_s", "latency_p99_s", "latency_max_s", "wait_mean_s", "wait_p99_s",
		"waited_fraction", "ttft_mean_s", "ttft_p50_s", "ttft_p90_s", "ttft_p99_s",
		"ttft_slo_violations", "ttft_slo_violation_rate", "cost_total_usd", "cost_reserved_usd", "cost_on_demand_usd", "cost_spot_usd",
		"cost_odcr_usd", "cost_savings_plan_usd", "cost_capacity_block_usd", "cost_training_plan_usd", "cost_per_1k_requests_usd",
		"gpu_hours_paid", "gpu_hours_busy", "gpu_hours_idle", "gpu_hours_idle_reserved",
		"gpu_hours_idle_on_demand", "gpu_hours_idle_spot", "gpu_hours_idle_odcr",
		"gpu_hours_idle_savings_plan", "gpu_hours_idle_capacity_block", "gpu_hours_idle_training_plan", "gpu_hours_paid_reserved",
		"gpu_hours_paid_on_demand", "gpu_hours_paid_spot", "gpu_hours_paid_odcr", "gpu_hours_paid_savings_plan",
		"gpu_hours_paid_capacity_block", "gpu_hours_paid_training_plan", "gpu_hours_busy_reserved", "gpu_hours_busy_on_demand",
		"gpu_hours_busy_spot", "gpu_hours_busy_odcr", "gpu_hours_busy_savings_plan",
		"gpu_hours_busy_capacity_block", "gpu_hours_busy_training_plan", "gpu_utilization", "spot_interruptions", "block_terminations",
		"requests_interrupted", "launch_failures", "commitment_usd", "commitment_unused_usd",
		"commitment_utilization", "commitment_coverage", "commitment_after_horizon_usd",
		"instances_peak", "launches", "terminations", "scale_out_actions", "scale_in_actions",
		"time_under_provisioned_s", "time_over_provisioned_s", "copy_hours", "copy_loads",
		"sim_events", "ttft_p95_s", "slo_violations_service", "slo_violations_slowed", "slo_violations_wait", "slo_violations_dropped", "slo_violation_rate_floor", "slo_percentile_floor_ratio", "slo_met", "slo_windows", "slo_windows_breached", "slo_windows_breached_fraction", "slo_worst_window_start_s", "slo_worst_window_ratio", "warmup_s", "measured_s", "cost_measured_usd", "gpu_hours_paid_measured", "gpu_hours_busy_measured", "gpu_hours_idle_measured", "cost_per_hour_usd", "cost_per_month_usd", "cost_per_year_usd", "commitment_after_horizon_reserved_usd", "commitment_after_horizon_savings_plan_usd", "commitment_after_horizon_capacity_block_usd", "commitment_after_horizon_training_plan_usd",
		"littles_law_error",
		"jobs_submitted", "jobs_completed", "jobs_missed_deadline", "jobs_terminated", "job_completion_p50_s", "job_completion_p99_s",
		"job_wait_mean_s", "work_lost_instance_hours", "job_interruptions", "job_failures", "jobs_cost_reserved_usd", "jobs_cost_on_demand_usd",
		"jobs_cost_spot_usd", "jobs_cost_odcr_usd", "jobs_cost_savings_plan_usd", "jobs_cost_capacity_block_usd", "jobs_cost_training_plan_usd", "jobs_gpu_hours_paid", "jobs_gpu_hours_idle",
		"tpot_mean_s", "tpot_p50_s", "tpot_p90_s", "tpot_p99_s", "tpot_slo_violations", "tpot_slo_violation_rate", "kv_cache_utilization", "kv_cache_limited_share", "requests_kv_too_large",
		"prefix_hit_rate", "prefill_tokens_saved",
		"model_cache_hit_ratio", "model_loading_wait_mean_s", "model_loading_wait_p99_s",
		"loaded_models_per_instance", "model_loads", "model_evictions",
	};
	const size_t nmetrics = sizeof metrics / sizeof metrics[0];
	char sql[256];

	assert_text(path, "SELECT group_concat(name, ' ') FROM (SELECT name FROM pragma_table_info('run_summary') "
		    "ORDER BY cid LIMIT 7)", "run_id name seed status started_at wall_s instance_type");
	for (size_t i = 0; i < nmetrics; i++) {
		snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_table_info('run_summary') WHERE name = '%s'",
			 metrics[i]);
		ck_assert_msg(query_int(path, sql) == 1, "run_summary has no column %s", metrics[i]);
	}
	assert_text(path, "SELECT group_concat(name, ' ') FROM (SELECT name FROM pragma_table_info('run_summary') "
		    "ORDER BY cid LIMIT 4 OFFSET 7)", "horizon_s scenario_path overrides warnings");
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM pragma_table_info('run_summary')"),
			 (int64_t)(11 + nmetrics));
}

/* Open must fail with STATUS_EDB, name the file and contain `words`, and leave the file as it was. */
void assert_refused(const char *path, const char *words)
{
	struct diag d = { "" };
	struct store *st = NULL;
	struct bytes before = file_bytes(path);

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_EDB);
	ck_assert_ptr_null(st);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, words), "message: %s", d.msg);
	assert_unchanged(path, before);
}

