/*
 * check_store: the SQLite results store and its sink (analysis/store.h): runs committed or rolled back
 * whole (failed runs, full disk, constraint errors, a blocked commit, two writers), which files store_open()
 * refuses, and how values are stored. The schema version of a file, and the upgrade of version-1 files, are
 * tested in check_store_schema.c; the fixtures both suites use are in store_fixtures.h.
 *
 * Every test works on a file in a fresh temporary directory and removes it at the end. The database is
 * inspected through a second, read-only SQLite connection, never through the store, so the tests see what
 * another program would. "Unchanged" means byte-identical: the whole file is read and compared.
 */
#include <check.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "status.h"
#include "store.h"
#include "store_fixtures.h"
#include "testutil.h"

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

/* Write a run with two warnings through the sink, then end it with end_status. */
static int run_with_warnings(struct store *st, struct diag *d, const char *name, int end_status)
{
	struct sink sk = store_sink(st, d);
	struct sink_run_info info = { NULL, "2026-01-02T03:04:05Z", "0.1.0-test" };
	struct scenario sc;
	const struct sink_warning w[] = {
		{ "fleet_at_max", "the fleet sat at its maximum" },
		{ "price_stale", "fleet.1: the catalogue's rate was valid until 2025-01-01" },
	};
	const struct sink_metric m[] = { { "requests_total", 10 } };

	scenario_fake(&sc, name, 5);
	info.scenario = &sc;
	ck_assert_int_eq(sk.ops->begin(sk.self, &info), STATUS_OK);
	ck_assert_int_eq(sk.ops->warnings(sk.self, w, 2), STATUS_OK);
	ck_assert_int_eq(sk.ops->metrics(sk.self, m, 1), STATUS_OK);
	return sk.ops->end(sk.self, end_status, 0.5);
}

/*
 * Warnings are stored in order with their run, labels (split at the first '=') with theirs; run_summary counts
 * the warnings and shows horizon_s, scenario_path and overrides. Labels last one run: the next has none. A
 * failed run leaves no warning or label behind.
 */
START_TEST(warnings_and_labels_are_stored)
{
	static const char *const labels[] = { "team=search", "note=a=b", "empty=" };
	struct diag d = { "" };
	struct store *st = NULL;
	char *path = tmp_path("results.sqlite");

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	store_set_labels(st, labels, 3);
	ck_assert_int_eq(run_with_warnings(st, &d, "labelled", STATUS_OK), STATUS_OK);
	ck_assert_int_eq(run_with_warnings(st, &d, "plain", STATUS_OK), STATUS_OK);
	store_set_labels(st, labels, 3);
	ck_assert_int_eq(run_with_warnings(st, &d, "failed", STATUS_EIO), STATUS_OK);
	store_close(st);
	assert_text(path, "SELECT group_concat(run_id || ':' || seq || ':' || code, ' ') FROM (SELECT * FROM warnings "
		    "ORDER BY run_id, seq)", "1:1:fleet_at_max 1:2:price_stale 2:1:fleet_at_max 2:2:price_stale");
	assert_text(path, "SELECT message FROM warnings WHERE run_id = 1 AND seq = 2",
		    "fleet.1: the catalogue's rate was valid until 2025-01-01");
	assert_text(path, "SELECT group_concat(run_id || ':' || key || '=' || value, ' ') FROM (SELECT * FROM labels "
		    "ORDER BY run_id, key)", "1:empty= 1:note=a=b 1:team=search");
	assert_text(path, "SELECT warnings || '|' || horizon_s || '|' || scenario_path || '|' || overrides FROM "
		    "run_summary WHERE run_id = 2", "2|3600.0|scenarios/fake.yaml|seed=7\n");
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs"), 2);
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

/*
 * A run that does not fit: the samples are staged in memory, so the full disk shows at end(STATUS_OK), when
 * the run is copied into the file; that transaction is rolled back and the file is as it was.
 */
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

	ck_assert_int_eq(store_limit_pages(st, pages), STATUS_OK);
	scenario_fake(&sc, "too big", 4);
	info.scenario = &sc;
	ck_assert_int_eq(sk.ops->begin(sk.self, &info), STATUS_OK);
	for (int batch = 0; batch < 100; batch++) {
		for (int i = 0; i < 100; i++)
			sample_fill(&rows[i], 100.0 * batch + i);
		ck_assert_int_eq(sk.ops->samples(sk.self, rows, 100), STATUS_OK);
	}
	assert_unchanged(path, file_bytes(path));  /* staging wrote nothing to the file */
	ck_assert_int_eq(sk.ops->end(sk.self, STATUS_OK, 1.0), STATUS_EDB);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, "full") && strstr(d.msg, "(while committing a run)"),
		      "message: %s", d.msg);
	ck_assert_int_eq(store_last_run_id(st), 1);
	assert_unchanged(path, before);

	/* With room again, the next run commits. */
	ck_assert_int_eq(store_limit_pages(st, 1 << 30), STATUS_OK);
	ck_assert_int_eq(run_write(sk, &sc, 3, 0.5, STATUS_OK), STATUS_OK);
	ck_assert_int_eq(store_last_run_id(st), 2);
	store_close(st);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM samples WHERE run_id = 1"), 3);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM samples WHERE run_id = 2"), 3);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs"), 2);
	tmp_remove(path);
}
END_TEST

/* A runs row too large for the file: begin() stages it, end() cannot copy it, and leaves the file as it was. */
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

	/* A scenario text far larger than a page needs new pages for the runs row itself. */
	memset(text, 'x', 99999);
	text[99999] = '\0';
	scenario_fake(&sc, "huge text", 9);
	sc.text = text;
	info.scenario = &sc;
	ck_assert_int_eq(store_limit_pages(st, (int)query_int(path, "PRAGMA page_count")), STATUS_OK);
	ck_assert_int_eq(sk.ops->begin(sk.self, &info), STATUS_OK);
	ck_assert_int_eq(sk.ops->end(sk.self, STATUS_OK, 0), STATUS_EDB);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, "(while committing a run)"), "message: %s", d.msg);
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
 * with SQLite's "database is locked" and the run is rolled back. The store waits BLOCK_MS per attempt
 * (store_open_wait), 1 + STORE_BUSY_RETRIES attempts: 4 x 400 ms.
 */
#define BLOCK_MS 400

START_TEST(commit_blocked_by_reader_fails)
{
	struct diag d = { "" };
	char *path;
	struct store *st = NULL;
	struct sink sk;
	struct sink_run_info info = run_info;
	struct scenario sc;
	sqlite3 *reader;
	struct bytes before;

	store_close(store_with_one_run(&path, &d));
	before = file_bytes(path);
	ck_assert_int_eq(store_open_wait(&st, path, BLOCK_MS, &d), STATUS_OK);
	sk = store_sink(st, &d);
	ck_assert_int_eq(sqlite3_open_v2(path, &reader, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM runs", NULL, NULL, NULL), SQLITE_OK);
	scenario_fake(&sc, "blocked", 10);
	info.scenario = &sc;
	ck_assert_int_eq(sk.ops->begin(sk.self, &info), STATUS_OK);
	ck_assert_int_eq(sk.ops->end(sk.self, STATUS_OK, 1.0), STATUS_EDB);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, "locked") && strstr(d.msg, "(while committing a run)"),
		      "message: %s", d.msg);
	ck_assert_int_eq(store_last_run_id(st), 0);
	sqlite3_exec(reader, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(reader);
	assert_unchanged(path, before);
	store_close(st);
	tmp_remove(path);
}
END_TEST

/*
 * Another connection holds the write lock (as a writer copying its run does) for 1 s, longer than one
 * attempt waits (BLOCK_MS): the run is not lost but written once the lock is free, by a later attempt.
 */
START_TEST(writer_retries_after_busy_timeout)
{
	struct diag d = { "" };
	char *path;
	struct store *st = NULL;
	struct scenario sc;
	int ready[2], wstatus;
	char byte;
	pid_t pid;

	store_close(store_with_one_run(&path, &d));
	ck_assert_int_eq(pipe(ready), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		sqlite3 *db;

		if (sqlite3_open(path, &db) != SQLITE_OK || sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL))
			_exit(1);
		(void)!write(ready[1], "x", 1);
		sleep(1);
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
		sqlite3_close(db);
		_exit(0);
	}
	ck_assert_int_eq(read(ready[0], &byte, 1), 1);
	ck_assert_int_eq(store_open_wait(&st, path, BLOCK_MS, &d), STATUS_OK);
	scenario_fake(&sc, "waited", 8);
	ck_assert_msg(run_write(store_sink(st, &d), &sc, 3, 0.5, STATUS_OK) == STATUS_OK, "message: %s", d.msg);
	ck_assert_int_eq(store_last_run_id(st), 2);
	store_close(st);
	ck_assert_int_eq(waitpid(pid, &wstatus, 0), pid);
	ck_assert(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
	close(ready[0]);
	close(ready[1]);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs"), 2);
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

START_TEST(refuses_non_database)
{
	char *path = test_write_file("notes.sqlite", "these are my notes, not a database\n");

	ck_assert_ptr_nonnull(path);
	assert_refused(path, "not a database");
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
	assert_refused(path, "14 of its 15 tables; the file is damaged");
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
 * A second process holds a run open (begun, not ended) for a while; this one writes a whole run meanwhile,
 * since a run takes the file's lock only at end(), and both runs are committed.
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

/* "" and ":memory:" would open a database that vanishes at close: a run would seem stored and be lost. */
START_TEST(refuses_paths_that_keep_nothing)
{
	static const char *const paths[] = { "", ":memory:" };

	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		struct diag d = { "" };
		struct store *st = NULL;

		ck_assert_int_eq(store_open(&st, paths[i], &d), STATUS_EUSAGE);
		ck_assert_ptr_null(st);
		ck_assert_msg(strstr(d.msg, "keeps nothing"), "message: %s", d.msg);
	}
}
END_TEST

/* /dev/null and a directory are not results files; SQLite would leave /dev/null-journal behind. */
START_TEST(refuses_non_regular_file)
{
	struct diag d = { "" };
	struct store *st = NULL;
	char *path = tmp_path("results.sqlite");
	char *dir = strdup(path);
	struct stat sb;

	*strrchr(dir, '/') = '\0';
	ck_assert_int_eq(store_open(&st, "/dev/null", &d), STATUS_EUSAGE);
	ck_assert_ptr_null(st);
	ck_assert_msg(strstr(d.msg, "/dev/null: not a regular file"), "message: %s", d.msg);
	ck_assert_int_ne(stat("/dev/null-journal", &sb), 0);
	ck_assert_int_eq(store_open(&st, dir, &d), STATUS_EUSAGE);
	ck_assert_ptr_null(st);
	free(dir);
	tmp_remove(path);
}
END_TEST

/*
 * A schema creation that fails (here: no byte may be written, RLIMIT_FSIZE 0 with SIGXFSZ ignored, as on a
 * full disk) leaves no empty file behind, and no journal.
 */
START_TEST(failed_creation_leaves_no_file)
{
	struct diag d = { "" };
	struct store *st = NULL;
	char *path = tmp_path("results.sqlite");
	char journal[4096];
	struct rlimit old, none;
	struct stat sb;
	int rc;

	snprintf(journal, sizeof journal, "%s-journal", path);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	none = old;
	none.rlim_cur = 0;
	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &none), 0);
	rc = store_open(&st, path, &d);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	ck_assert_int_eq(rc, STATUS_EDB);
	ck_assert_ptr_null(st);
	ck_assert_msg(strstr(d.msg, path), "message: %s", d.msg);
	ck_assert_msg(stat(path, &sb) != 0, "%s left behind (%lld bytes)", path, (long long)sb.st_size);
	ck_assert_int_ne(stat(journal, &sb), 0);
	tmp_remove(path);
}
END_TEST

static Suite *store_suite(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("core");
	TCase *slow;

	tcase_add_test(tc, committed_run_is_stored);
	tcase_add_test(tc, warnings_and_labels_are_stored);
	tcase_add_test(tc, failed_run_leaves_file_unchanged);
	tcase_add_test(tc, close_with_open_run_rolls_back);
	tcase_add_test(tc, full_disk_rolls_back_run);
	tcase_add_test(tc, constraint_error_rolls_back_run);
	tcase_add_test(tc, refuses_non_database);
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
	tcase_add_test(tc, refuses_paths_that_keep_nothing);
	tcase_add_test(tc, refuses_non_regular_file);
	tcase_add_test(tc, failed_creation_leaves_no_file);
	suite_add_tcase(s, tc);

	/* Waits out the (shortened) busy timeout, several times. */
	slow = tcase_create("busy");
	tcase_set_timeout(slow, 30);
	tcase_add_test(slow, commit_blocked_by_reader_fails);
	tcase_add_test(slow, writer_retries_after_busy_timeout);
	suite_add_tcase(s, slow);
	return s;
}

int main(void)
{
	return test_run_suite(store_suite());
}
