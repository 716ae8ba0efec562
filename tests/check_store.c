/*
 * check_store: the SQLite results store and its sink (analysis/store.h).
 *
 * Every test works on a file in a fresh temporary directory and removes it at the end. The database is
 * inspected through a second, read-only SQLite connection, never through the store, so the tests see what
 * another program would. "Unchanged" means byte-identical: the whole file is read and compared.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scenario.h"
#include "sink.h"
#include "status.h"
#include "store.h"
#include "testutil.h"

#define TOL 1e-12  /* values go in and come out as doubles: only rounding of the text form would differ */

/* A path to a file that does not exist yet, in a fresh directory (returns owned). */
static char *tmp_path(const char *name)
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
static void tmp_remove(char *path)
{
	char journal[4096];
	char *slash;

	snprintf(journal, sizeof journal, "%s-journal", path);
	unlink(journal);
	unlink(path);
	slash = strrchr(path, '/');
	*slash = '\0';
	rmdir(path);
	free(path);
}

struct bytes {
	unsigned char *data;  /* owned */
	size_t len;
};

static struct bytes file_bytes(const char *path)
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
static void assert_unchanged(const char *path, struct bytes before)
{
	struct bytes now = file_bytes(path);

	ck_assert_uint_eq(now.len, before.len);
	ck_assert(memcmp(now.data, before.data, now.len) == 0);
	free(now.data);
	free(before.data);
}

/* Run one statement on a new connection to path (to build foreign or tampered files). */
static void raw_exec(const char *path, const char *sql)
{
	sqlite3 *db;

	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK, "%s", sqlite3_errmsg(db));
	sqlite3_close(db);
}

/* The first column of the first row of sql, read through a read-only connection; NaN for NULL. */
static double query_double(const char *path, const char *sql)
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
static int64_t query_int(const char *path, const char *sql)
{
	double v = query_double(path, sql);

	ck_assert(!isnan(v) && v == floor(v));
	return (int64_t)v;
}

/* As query_double, for a text result; returns owned ("(null)" for NULL). */
static char *query_text(const char *path, const char *sql)
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

static void assert_text(const char *path, const char *sql, const char *want)
{
	char *got = query_text(path, sql);

	ck_assert_str_eq(got, want);
	free(got);
}

static void scenario_fake(struct scenario *sc, const char *name, uint64_t seed)
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

static const struct sink_run_info run_info = { NULL, "2026-01-02T03:04:05Z", "0.1.0-test" };

static void sample_fill(struct sink_sample *s, double t_s)
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
static int run_write(struct sink sk, const struct scenario *sc, int nsamples, double p99, int end_status)
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
static struct store *store_with_one_run(char **path, struct diag *d)
{
	struct store *st = NULL;
	struct scenario sc;

	*path = tmp_path("results.sqlite");
	ck_assert_int_eq(store_open(&st, *path, d), STATUS_OK);
	scenario_fake(&sc, "first", 1);
	ck_assert_int_eq(run_write(store_sink(st, d), &sc, 3, 0.25, STATUS_OK), STATUS_OK);
	return st;
}

/* The run columns and one column per metric, by name (no "wall_s" metric column: runs.wall_s is there). */
static void assert_summary_columns(const char *path)
{
	static const char *const metrics[] = {
		"requests_total", "requests_served", "requests_dropped", "requests_timed_out",
		"requests_refused", "requests_unserved", "requests_interrupted_dropped", "slo_violations", "slo_violation_rate", "latency_mean_s", "latency_p50_s",
		"latency_p90_s", "latency_p95_s", "latency_p99_s", "latency_max_s", "wait_mean_s", "wait_p99_s",
		"waited_fraction", "ttft_mean_s", "ttft_p50_s", "ttft_p90_s", "ttft_p99_s",
		"ttft_slo_violations", "ttft_slo_violation_rate", "cost_total_usd", "cost_reserved_usd", "cost_on_demand_usd", "cost_spot_usd",
		"cost_odcr_usd", "cost_savings_plan_usd", "cost_capacity_block_usd", "cost_per_1k_requests_usd",
		"gpu_hours_paid", "gpu_hours_busy", "gpu_hours_idle", "gpu_hours_idle_reserved",
		"gpu_hours_idle_on_demand", "gpu_hours_idle_spot", "gpu_hours_idle_odcr",
		"gpu_hours_idle_savings_plan", "gpu_hours_idle_capacity_block", "gpu_hours_paid_reserved",
		"gpu_hours_paid_on_demand", "gpu_hours_paid_spot", "gpu_hours_paid_odcr", "gpu_hours_paid_savings_plan",
		"gpu_hours_paid_capacity_block", "gpu_hours_busy_reserved", "gpu_hours_busy_on_demand",
		"gpu_hours_busy_spot", "gpu_hours_busy_odcr", "gpu_hours_busy_savings_plan",
		"gpu_hours_busy_capacity_block", "gpu_utilization", "spot_interruptions", "block_terminations",
		"requests_interrupted", "launch_failures", "commitment_usd", "commitment_unused_usd",
		"commitment_utilization", "commitment_coverage", "commitment_after_horizon_usd",
		"instances_peak", "launches", "terminations", "scale_out_actions", "scale_in_actions",
		"time_under_provisioned_s", "time_over_provisioned_s", "copy_hours", "copy_loads",
		"sim_events",
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
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM pragma_table_info('run_summary')"),
			 (int64_t)(7 + nmetrics));
}

START_TEST(committed_run_is_stored)
{
	struct diag d = { "" };
	struct scenario sc;
	struct store *st = NULL;
	char *path = tmp_path("results.sqlite");

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	ck_assert_int_eq(store_last_run_id(st), 0);
	scenario_fake(&sc, "baseline", 42);
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 3, 0.75, STATUS_OK), STATUS_OK);
	ck_assert_int_eq(store_last_run_id(st), 1);
	store_close(st);

	assert_text(path, "SELECT name || '|' || seed || '|' || status || '|' || started_at || '|' || version "
		    "|| '|' || instance_type || '|' || scenario_path || '|' || overrides FROM runs",
		    "baseline|42|ok|2026-01-02T03:04:05Z|0.1.0-test|p5.48xlarge|scenarios/fake.yaml|seed=7\n");
	assert_text(path, "SELECT scenario_text FROM runs", "name: fake\nhorizon: 1h\n");
	ck_assert_double_eq_tol(query_double(path, "SELECT horizon_s FROM runs"), 3600.0, TOL);
	ck_assert_double_eq_tol(query_double(path, "SELECT wall_s FROM runs"), 1.5, TOL);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM metrics WHERE run_id = 1"), 3);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM samples WHERE run_id = 1"), 3);
	ck_assert_double_eq_tol(query_double(path, "SELECT busy_slots FROM samples WHERE t_s = 120"), 7.25, TOL);
	ck_assert_double_eq_tol(query_double(path, "SELECT instances_on_demand + instances_spot FROM samples "
					     "WHERE t_s = 180"), 1.0, TOL);
	assert_text(path, "SELECT group_concat(seq || ':' || kind || ':' || coalesce(option, '-') || ':' || count, "
		    "' ') FROM (SELECT * FROM events WHERE run_id = 1 ORDER BY seq)",
		    "1:scale_out:on_demand:4 2:launch:-:1");
	ck_assert_double_eq_tol(query_double(path, "SELECT latency_p99_s FROM run_summary WHERE run_id = 1"),
				0.75, TOL);
	ck_assert_double_eq_tol(query_double(path, "SELECT cost_total_usd FROM run_summary"), 123.25, TOL);
	ck_assert(isnan(query_double(path, "SELECT gpu_utilization FROM run_summary")));
	assert_summary_columns(path);
	tmp_remove(path);
}
END_TEST

START_TEST(failed_run_leaves_file_unchanged)
{
	struct diag d = { "" };
	struct scenario sc;
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct bytes before = file_bytes(path);

	scenario_fake(&sc, "second", 2);
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 50, 0.5, STATUS_EIO), STATUS_OK);
	ck_assert_int_eq(store_last_run_id(st), 1);
	assert_unchanged(path, before);
	store_close(st);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs"), 1);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM samples"), 3);
	tmp_remove(path);
}
END_TEST

START_TEST(close_with_open_run_rolls_back)
{
	struct diag d = { "" };
	struct scenario sc;
	struct sink_run_info info = run_info;
	struct sink_sample s;
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct sink sk = store_sink(st, &d);
	struct bytes before = file_bytes(path);

	scenario_fake(&sc, "abandoned", 3);
	info.scenario = &sc;
	sample_fill(&s, 60);
	ck_assert_int_eq(sk.ops->begin(sk.self, &info), STATUS_OK);
	ck_assert_int_eq(sk.ops->samples(sk.self, &s, 1), STATUS_OK);
	store_close(st);
	assert_unchanged(path, before);
	tmp_remove(path);
}
END_TEST

START_TEST(full_disk_rolls_back_run)
{
	struct diag d = { "" };
	struct scenario sc;
	struct sink_run_info info = run_info;
	struct sink_sample rows[100];
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct sink sk = store_sink(st, &d);
	struct bytes before = file_bytes(path);
	int pages = (int)query_int(path, "PRAGMA page_count");
	int status = STATUS_OK;

	ck_assert_int_eq(store_limit_pages(st, pages), STATUS_OK);
	scenario_fake(&sc, "too big", 4);
	info.scenario = &sc;
	ck_assert_int_eq(sk.ops->begin(sk.self, &info), STATUS_OK);
	for (int batch = 0; batch < 100 && status == STATUS_OK; batch++) {
		for (int i = 0; i < 100; i++)
			sample_fill(&rows[i], 100.0 * batch + i);
		status = sk.ops->samples(sk.self, rows, 100);
	}
	ck_assert_int_eq(status, STATUS_EDB);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, "full") && strstr(d.msg, "(while inserting samples)"),
		      "message: %s", d.msg);
	ck_assert_int_eq(sk.ops->end(sk.self, status, 0), STATUS_OK);
	assert_unchanged(path, before);

	/* With room again, the next run commits. */
	ck_assert_int_eq(store_limit_pages(st, 1 << 30), STATUS_OK);
	ck_assert_int_eq(run_write(sk, &sc, 3, 0.5, STATUS_OK), STATUS_OK);
	ck_assert_int_eq(store_last_run_id(st), 2);
	store_close(st);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM samples WHERE run_id = 1"), 3);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs"), 2);
	tmp_remove(path);
}
END_TEST

START_TEST(failed_begin_leaves_nothing)
{
	struct diag d = { "" };
	struct scenario sc;
	struct sink_run_info info = run_info;
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct sink sk = store_sink(st, &d);
	struct bytes before = file_bytes(path);
	char *text = malloc(100000);
	int status;

	/* A scenario text far larger than a page needs new pages for the runs row itself. */
	memset(text, 'x', 99999);
	text[99999] = '\0';
	scenario_fake(&sc, "huge text", 9);
	sc.text = text;
	info.scenario = &sc;
	ck_assert_int_eq(store_limit_pages(st, (int)query_int(path, "PRAGMA page_count")), STATUS_OK);
	status = sk.ops->begin(sk.self, &info);
	ck_assert_int_eq(status, STATUS_EDB);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, "(while starting a run)"), "message: %s", d.msg);
	ck_assert_int_eq(sk.ops->end(sk.self, status, 0), STATUS_OK);
	assert_unchanged(path, before);

	/* The store is ready for the next run. */
	ck_assert_int_eq(store_limit_pages(st, 1 << 30), STATUS_OK);
	ck_assert_int_eq(run_write(sk, &sc, 1, 0.5, STATUS_OK), STATUS_OK);
	store_close(st);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs"), 2);
	free(text);
	tmp_remove(path);
}
END_TEST

/*
 * A reader that keeps a read transaction open past the busy timeout blocks the commit: end(STATUS_OK) fails
 * with SQLite's "database is locked" and the run is rolled back. Takes STORE_BUSY_TIMEOUT_MS.
 */
START_TEST(commit_blocked_by_reader_fails)
{
	struct diag d = { "" };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct sink sk = store_sink(st, &d);
	struct sink_run_info info = run_info;
	struct scenario sc;
	sqlite3 *reader;
	struct bytes before = file_bytes(path);

	ck_assert_int_eq(sqlite3_open_v2(path, &reader, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM runs", NULL, NULL, NULL), SQLITE_OK);
	scenario_fake(&sc, "blocked", 10);
	info.scenario = &sc;
	ck_assert_int_eq(sk.ops->begin(sk.self, &info), STATUS_OK);
	ck_assert_int_eq(sk.ops->end(sk.self, STATUS_OK, 1.0), STATUS_EDB);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, "locked") && strstr(d.msg, "(while committing a run)"),
		      "message: %s", d.msg);
	ck_assert_int_eq(store_last_run_id(st), 1);
	sqlite3_exec(reader, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(reader);
	assert_unchanged(path, before);
	store_close(st);
	tmp_remove(path);
}
END_TEST

START_TEST(constraint_error_rolls_back_run)
{
	struct diag d = { "" };
	struct scenario sc;
	struct sink_run_info info = run_info;
	const struct sink_metric twice[] = { { "launches", 1 }, { "launches", 2 } };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct sink sk = store_sink(st, &d);
	struct bytes before = file_bytes(path);
	int status;

	scenario_fake(&sc, "duplicate metric", 5);
	info.scenario = &sc;
	ck_assert_int_eq(sk.ops->begin(sk.self, &info), STATUS_OK);
	status = sk.ops->metrics(sk.self, twice, 2);
	ck_assert_int_eq(status, STATUS_EDB);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, "UNIQUE constraint failed") &&
		      strstr(d.msg, "(while inserting metrics)"), "message: %s", d.msg);
	ck_assert_int_eq(sk.ops->end(sk.self, status, 0), STATUS_OK);
	store_close(st);
	assert_unchanged(path, before);
	tmp_remove(path);
}
END_TEST

/* Open must fail with STATUS_EDB, name the file and contain `words`, and leave the file as it was. */
static void assert_refused(const char *path, const char *words)
{
	struct diag d = { "" };
	struct store *st = NULL;
	struct bytes before = file_bytes(path);

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_EDB);
	ck_assert_ptr_null(st);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, words), "message: %s", d.msg);
	assert_unchanged(path, before);
}

START_TEST(refuses_non_database)
{
	char *path = test_write_file("notes.sqlite", "these are my notes, not a database\n");

	ck_assert_ptr_nonnull(path);
	assert_refused(path, "not a database");
	tmp_remove(path);
}
END_TEST

START_TEST(refuses_newer_version)
{
	struct diag d = { "" };
	char sql[64], words[64];
	char *path;

	store_close(store_with_one_run(&path, &d));
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION + 1);
	raw_exec(path, sql);
	snprintf(words, sizeof words, "version %d is newer", STORE_SCHEMA_VERSION + 1);
	assert_refused(path, words);
	tmp_remove(path);
}
END_TEST

/* A file of the current version that lost a table is damaged: refused, not repaired. */
START_TEST(refuses_damaged_file)
{
	struct diag d = { "" };
	char *path;

	store_close(store_with_one_run(&path, &d));
	raw_exec(path, "DROP TABLE events");
	assert_refused(path, "3 of its 4 tables; the file is damaged");
	tmp_remove(path);
}
END_TEST

START_TEST(refuses_foreign_sqlite_file)
{
	char *path = tmp_path("accounts.db");

	raw_exec(path, "CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT)");
	assert_refused(path, "not a gpucap results database");
	tmp_remove(path);
}
END_TEST

START_TEST(refuses_foreign_file_with_runs_table)
{
	char *path = tmp_path("other.db");

	raw_exec(path, "CREATE TABLE runs (run_id INTEGER PRIMARY KEY, km REAL)");
	assert_refused(path, "not a gpucap results database");
	tmp_remove(path);
}
END_TEST

START_TEST(refuses_unopenable_path)
{
	struct diag d = { "" };
	struct store *st = NULL;
	const char *path = "/nonexistent-gpucap-dir/results.sqlite";

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_EDB);
	ck_assert_ptr_null(st);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, "unable to open"), "message: %s", d.msg);
}
END_TEST

START_TEST(reopen_leaves_bytes_identical)
{
	struct diag d = { "" };
	struct store *st = NULL;
	char *path;
	struct bytes before;

	store_close(store_with_one_run(&path, &d));
	before = file_bytes(path);
	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	ck_assert_int_eq(store_limit_pages(st, 1000), STATUS_OK);
	store_close(st);
	assert_unchanged(path, before);
	tmp_remove(path);
}
END_TEST

START_TEST(empty_file_gets_schema)
{
	struct diag d = { "" };
	struct store *st = NULL;
	char *path = test_write_file("empty.sqlite", "");

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	store_close(st);
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM run_summary"), 0);
	tmp_remove(path);
}
END_TEST

START_TEST(nan_metric_is_null)
{
	struct diag d = { "" };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct scenario sc;

	scenario_fake(&sc, "nothing served", 6);
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 1, NAN, STATUS_OK), STATUS_OK);
	store_close(st);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM metrics WHERE run_id = 2 AND "
					     "name = 'latency_p99_s' AND value IS NULL"), 1);
	ck_assert(isnan(query_double(path, "SELECT latency_p99_s FROM run_summary WHERE run_id = 2")));
	tmp_remove(path);
}
END_TEST

START_TEST(runs_get_distinct_ids)
{
	struct diag d = { "" };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct scenario sc;
	int64_t first = store_last_run_id(st);

	scenario_fake(&sc, "first", 1);  /* the same scenario again is another run */
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 3, 0.25, STATUS_OK), STATUS_OK);
	ck_assert_int_ne(store_last_run_id(st), first);
	store_close(st);
	ck_assert_int_eq(query_int(path, "SELECT count(DISTINCT run_id) FROM runs"), 2);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM run_summary"), 2);
	tmp_remove(path);
}
END_TEST

START_TEST(large_seed_round_trips)
{
	struct diag d = { "" };
	struct store *st = NULL;
	struct scenario sc;
	char *path = tmp_path("results.sqlite");

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	scenario_fake(&sc, "big seed", UINT64_MAX);
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 1, 0.5, STATUS_OK), STATUS_OK);
	store_close(st);
	assert_text(path, "SELECT seed FROM runs", "-1");
	tmp_remove(path);
}
END_TEST

/*
 * A second process holds a run open for a while; this one's begin() waits for it (busy timeout) instead of
 * failing, and both runs are committed.
 */
START_TEST(second_writer_waits)
{
	struct diag d = { "" };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct scenario sc;
	int ready[2], wstatus;
	char byte;
	pid_t pid;

	store_close(st);
	ck_assert_int_eq(pipe(ready), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct store *mine = NULL;
		struct sink_run_info info = run_info;
		struct sink sk;

		scenario_fake(&sc, "child", 7);
		info.scenario = &sc;
		if (store_open(&mine, path, NULL) != STATUS_OK)
			_exit(1);
		sk = store_sink(mine, NULL);
		if (sk.ops->begin(sk.self, &info) != STATUS_OK)
			_exit(2);
		(void)!write(ready[1], "x", 1);
		sleep(1);
		_exit(sk.ops->end(sk.self, STATUS_OK, 1.0) == STATUS_OK ? 0 : 3);
	}
	ck_assert_int_eq(read(ready[0], &byte, 1), 1);
	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	scenario_fake(&sc, "parent", 8);
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 3, 0.5, STATUS_OK), STATUS_OK);
	store_close(st);
	ck_assert_int_eq(waitpid(pid, &wstatus, 0), pid);
	ck_assert(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
	close(ready[0]);
	close(ready[1]);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs"), 3);
	tmp_remove(path);
}
END_TEST

/*
 * Schema migration. A version-1 file is made by running the schema that builds of that time wrote
 * (tests/data/store/schema_v1.sql, frozen) and inserting one run by hand, as such a build would have.
 */

/* The whole text of a file, NUL-terminated (returns owned). */
static char *file_text(const char *path)
{
	struct bytes b = file_bytes(path);
	char *text = realloc(b.data, b.len + 1);

	ck_assert_ptr_nonnull(text);
	text[b.len] = '\0';
	return text;
}

/*
 * Every row of the four tables, in key order, as text (returns owned): what a migration must not change.
 * Each value is written with its SQLite type, so that 1 and '1' or NULL and '' differ.
 */
static char *rows_dump(const char *path)
{
	static const char *const tables[] = { "runs", "metrics", "samples", "events" };
	sqlite3 *db;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
		sqlite3_stmt *stmt;
		char sql[64];

		snprintf(sql, sizeof sql, "SELECT * FROM %s ORDER BY 1, 2", tables[t]);
		ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK, "%s", sqlite3_errmsg(db));
		fprintf(out, "%s:\n", tables[t]);
		while (sqlite3_step(stmt) == SQLITE_ROW) {
			for (int c = 0; c < sqlite3_column_count(stmt); c++)
				fprintf(out, "%d:%s|", sqlite3_column_type(stmt, c),
					(const char *)sqlite3_column_text(stmt, c));
			fputc('\n', out);
		}
		sqlite3_finalize(stmt);
	}
	sqlite3_close(db);
	ck_assert_int_eq(fclose(out), 0);
	return text;
}

static bool has_column(const char *path, const char *view, const char *column)
{
	char sql[256];

	snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_table_info('%s') WHERE name = '%s'", view, column);
	return query_int(path, sql) == 1;
}

/* A new version-1 file, as a build of that time left it after one run (run_id 1); returns owned. */
static char *v1_file_with_run(void)
{
	char *path = tmp_path("old.sqlite");
	char *schema = file_text(TEST_DATA_DIR "/store/schema_v1.sql");

	raw_exec(path, schema);
	free(schema);
	raw_exec(path, "INSERT INTO runs VALUES (1, 'released', 'scenarios/old.yaml', 'name: released\n', '', 11, "
		 "'ok', '2025-06-01T00:00:00Z', 2.5, '0.1.0', 3600.0, 'p5.48xlarge');"
		 "INSERT INTO metrics VALUES (1, 'latency_p99_s', 0.25), (1, 'cost_total_usd', 99.5), "
		 "(1, 'scale_in_actions', 3);"
		 "INSERT INTO samples VALUES (1, 60.0, 12.5, 3, 7.25, 2, 1, 0, 0, 0, 0, 3, 160.5);"
		 "INSERT INTO events VALUES (1, 1, 60.0, 'scale_out', 'on_demand', 4, 'concurrency 0.9 > 0.7');");
	/* It really is the old shape: version 1, gpucap's, a run_summary without the new columns. */
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), 1);
	ck_assert_int_eq(query_int(path, "PRAGMA application_id"), 0x47504350);
	ck_assert(has_column(path, "run_summary", "latency_p99_s"));
	ck_assert(!has_column(path, "run_summary", "copy_hours"));
	ck_assert(!has_column(path, "run_summary", "time_over_provisioned_s"));
	return path;
}

/* The migrated file: current version, current view, and the old run still there and summarised. */
static void assert_migrated(const char *path)
{
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(query_int(path, "PRAGMA application_id"), 0x47504350);
	ck_assert(has_column(path, "run_summary", "copy_hours"));
	ck_assert(has_column(path, "run_summary", "time_over_provisioned_s"));
	assert_summary_columns(path);
	assert_text(path, "SELECT name || '|' || seed || '|' || status FROM run_summary WHERE run_id = 1",
		    "released|11|ok");
	ck_assert_double_eq_tol(query_double(path, "SELECT latency_p99_s FROM run_summary WHERE run_id = 1"),
				0.25, TOL);
	ck_assert(isnan(query_double(path, "SELECT copy_hours FROM run_summary WHERE run_id = 1")));
	assert_text(path, "PRAGMA integrity_check", "ok");
}

START_TEST(version_1_file_is_migrated)
{
	struct diag d = { "" };
	struct store *st = NULL;
	char *path = v1_file_with_run();
	char *rows_before = rows_dump(path);
	char *rows_after;

	ck_assert_msg(store_open(&st, path, &d) == STATUS_OK, "message: %s", d.msg);
	store_close(st);
	assert_migrated(path);
	rows_after = rows_dump(path);
	ck_assert_str_eq(rows_after, rows_before);
	free(rows_after);
	free(rows_before);
	tmp_remove(path);
}
END_TEST

/* A migrated file opens again without change, and takes new runs beside the old one. */
START_TEST(migrated_file_reopens_unchanged)
{
	struct diag d = { "" };
	struct store *st = NULL;
	struct scenario sc;
	char *path = v1_file_with_run();
	struct bytes before;

	ck_assert_msg(store_open(&st, path, &d) == STATUS_OK, "message: %s", d.msg);
	store_close(st);
	assert_migrated(path);
	before = file_bytes(path);
	ck_assert_msg(store_open(&st, path, &d) == STATUS_OK, "message: %s", d.msg);
	store_close(st);
	assert_unchanged(path, before);

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	scenario_fake(&sc, "after migration", 12);
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 2, 0.5, STATUS_OK), STATUS_OK);
	ck_assert_int_eq(store_last_run_id(st), 2);
	store_close(st);
	assert_migrated(path);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM run_summary"), 2);
	ck_assert_double_eq_tol(query_double(path, "SELECT latency_p99_s FROM run_summary WHERE run_id = 2"),
				0.5, TOL);
	tmp_remove(path);
}
END_TEST

/*
 * A migration that fails is rolled back: the file stays version 1, byte for byte. A table named run_summary
 * (made by hand) makes DROP VIEW fail, half-way through the migration's transaction.
 */
START_TEST(failed_migration_leaves_file_unchanged)
{
	char *path = v1_file_with_run();
	char words[160];

	raw_exec(path, "DROP VIEW run_summary; CREATE TABLE run_summary (run_id INTEGER)");
	snprintf(words, sizeof words, "use DROP TABLE to delete table run_summary (while upgrading the results "
		 "database from schema version 1 to %d)", STORE_SCHEMA_VERSION);
	assert_refused(path, words);
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), 1);
	tmp_remove(path);
}
END_TEST

/*
 * A reader that keeps a read transaction open past the busy timeout blocks the migration's COMMIT, after the
 * view was already dropped and re-created inside the transaction: store_open() fails, everything is rolled
 * back, and the next open, with the reader gone, migrates the file. Takes STORE_BUSY_TIMEOUT_MS.
 */
START_TEST(migration_blocked_by_reader_rolls_back)
{
	struct diag d = { "" };
	struct store *st = NULL;
	char *path = v1_file_with_run();
	struct bytes before = file_bytes(path);
	char words[128];
	sqlite3 *reader;

	ck_assert_int_eq(sqlite3_open_v2(path, &reader, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM runs", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(store_open(&st, path, &d), STATUS_EDB);
	ck_assert_ptr_null(st);
	snprintf(words, sizeof words, "database is locked (while upgrading the results database from schema "
		 "version 1 to %d)", STORE_SCHEMA_VERSION);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, words), "message: %s", d.msg);
	sqlite3_exec(reader, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(reader);
	assert_unchanged(path, before);
	ck_assert(!has_column(path, "run_summary", "copy_hours"));

	ck_assert_msg(store_open(&st, path, &d) == STATUS_OK, "message: %s", d.msg);
	store_close(st);
	assert_migrated(path);
	tmp_remove(path);
}
END_TEST

/* A version-1 file that lost a table is damaged: refused, not migrated. */
START_TEST(refuses_damaged_version_1_file)
{
	char *path = v1_file_with_run();

	raw_exec(path, "DROP TABLE events");
	assert_refused(path, "schema version 1 and 3 of its 4 tables; the file is damaged");
	tmp_remove(path);
}
END_TEST

static Suite *store_suite(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("core");
	TCase *slow;

	tcase_add_test(tc, committed_run_is_stored);
	tcase_add_test(tc, failed_run_leaves_file_unchanged);
	tcase_add_test(tc, close_with_open_run_rolls_back);
	tcase_add_test(tc, full_disk_rolls_back_run);
	tcase_add_test(tc, constraint_error_rolls_back_run);
	tcase_add_test(tc, refuses_non_database);
	tcase_add_test(tc, refuses_newer_version);
	tcase_add_test(tc, refuses_damaged_file);
	tcase_add_test(tc, refuses_foreign_sqlite_file);
	tcase_add_test(tc, refuses_foreign_file_with_runs_table);
	tcase_add_test(tc, refuses_unopenable_path);
	tcase_add_test(tc, reopen_leaves_bytes_identical);
	tcase_add_test(tc, empty_file_gets_schema);
	tcase_add_test(tc, nan_metric_is_null);
	tcase_add_test(tc, runs_get_distinct_ids);
	tcase_add_test(tc, large_seed_round_trips);
	tcase_add_test(tc, second_writer_waits);
	tcase_add_test(tc, failed_begin_leaves_nothing);
	tcase_add_test(tc, version_1_file_is_migrated);
	tcase_add_test(tc, migrated_file_reopens_unchanged);
	tcase_add_test(tc, failed_migration_leaves_file_unchanged);
	tcase_add_test(tc, refuses_damaged_version_1_file);
	suite_add_tcase(s, tc);

	/* Waits out the busy timeout; give it room beyond Check's 4 s default. */
	slow = tcase_create("busy");
	tcase_set_timeout(slow, 4 * STORE_BUSY_TIMEOUT_MS / 1000);
	tcase_add_test(slow, commit_blocked_by_reader_fails);
	tcase_add_test(slow, migration_blocked_by_reader_rolls_back);
	suite_add_tcase(s, slow);
	return s;
}

int main(void)
{
	return test_run_suite(store_suite());
}
