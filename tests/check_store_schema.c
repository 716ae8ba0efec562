/*
 * check_store_schema: the schema version of a results database (analysis/store.h, STORE_SCHEMA_VERSION).
 * A file of a newer version is refused; files of versions 1 to 4 are upgraded by store_open() in one
 * transaction (run_summary rebuilt, rows untouched; a version-2 file ends with the shape of a new file), and
 * the upgrade is all or nothing: a migration that fails, or whose
 * commit a reader blocks, leaves the file byte for byte as it was, and a damaged version-1 file is refused.
 *
 * As in check_store.c, every test works on a file in a fresh temporary directory and removes it at the end,
 * and inspects it through a second, read-only SQLite connection (store_fixtures.h). "Unchanged" means
 * byte-identical.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "store.h"
#include "store_fixtures.h"
#include "testutil.h"

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
		char sql[400];

		/* version 1's columns of runs and samples (versions 2 and 3 added columns at the end) */
		snprintf(sql, sizeof sql, "SELECT %s FROM %s ORDER BY 1, 2", t == 2 ? "run_id, t_s, "
			 "arrival_rate_per_s, queue_len, busy_slots, instances_reserved, instances_on_demand, "
			 "instances_spot, instances_odcr, instances_savings_plan, instances_capacity_block, "
			 "instances_total, cost_usd_per_h" : t == 0 ? "run_id, name, scenario_path, scenario_text, "
			 "overrides, seed, status, started_at, wall_s, version, horizon_s, instance_type" : "*",
			 tables[t]);
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
	ck_assert(!has_column(path, "samples", "copies"));
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
	ck_assert(has_column(path, "samples", "copies"));
	ck_assert(has_column(path, "runs", "run_key"));
	ck_assert(has_column(path, "sweeps", "run_id_base"));
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM samples WHERE run_id = 1 AND copies IS NULL"), 1);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs WHERE run_id = 1 AND run_key IS NULL"), 1);
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
 * back, and the next open, with the reader gone, migrates the file. Each attempt waits BLOCK_MS
 * (store_open_wait), 1 + STORE_BUSY_RETRIES attempts.
 */
#define BLOCK_MS 300

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
	ck_assert_int_eq(store_open_wait(&st, path, BLOCK_MS, &d), STATUS_EDB);
	ck_assert_ptr_null(st);
	snprintf(words, sizeof words, "database is locked (while upgrading the results database from schema "
		 "version 1 to %d)", STORE_SCHEMA_VERSION);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, words), "message: %s", d.msg);
	sqlite3_exec(reader, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(reader);
	assert_unchanged(path, before);
	ck_assert(!has_column(path, "run_summary", "copy_hours"));
	ck_assert(!has_column(path, "samples", "copies"));

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

/*
 * Version 2 -> 3. A version-2 file is made by running the schema of that time (tests/data/store/schema_v2.sql,
 * frozen) and inserting one run by hand, as such a build would have.
 */
static char *v2_file_with_run(void)
{
	char *path = tmp_path("v2.sqlite");
	char *schema = file_text(TEST_DATA_DIR "/store/schema_v2.sql");

	raw_exec(path, schema);
	free(schema);
	raw_exec(path, "INSERT INTO runs VALUES (1, 'released', 'scenarios/old.yaml', 'name: released\n', 'seed=3\n', "
		 "3, 'ok', '2025-09-01T00:00:00Z', 2.5, '0.2.0', 3600.0, 'p5.48xlarge');"
		 "INSERT INTO metrics VALUES (1, 'latency_p99_s', 0.25), (1, 'copy_hours', 12.5);"
		 "INSERT INTO samples VALUES (1, 60.0, 12.5, 3, 7.25, 2, 1, 0, 0, 0, 0, 3, 160.5, 4);"
		 "INSERT INTO events VALUES (1, 1, 60.0, 'scale_out', 'on_demand', 4, 'concurrency 0.9 > 0.7');");
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), 2);
	ck_assert(has_column(path, "samples", "copies"));
	ck_assert(!has_column(path, "runs", "run_key"));
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'sweeps'"), 0);
	return path;
}

/* Every column (name, declared type, NOT NULL, primary key) of every table and view, and every index. */
static char *schema_shape(const char *path)
{
	return query_text(path, "SELECT group_concat(line, ';') FROM (SELECT m.type || ' ' || m.name || '(' || "
			  "(SELECT group_concat(c.name || ' ' || c.type || ' ' || c.\"notnull\" || ' ' || c.pk, ',') "
			  "FROM pragma_table_info(m.name) AS c) || ')' AS line FROM sqlite_master AS m "
			  "WHERE m.type IN ('table', 'view') UNION ALL SELECT 'index ' || name || ' on ' || tbl_name "
			  "FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY 1)");
}

/*
 * Open path, an older file (store_open migrates it), and a new file, and check what every migration must
 * give: the current version, the shape of a new file (tables, views, columns, indexes; `drop_view`, when not
 * NULL, is a sweep view an older build made, which a new file has not, and is left out), every row as it
 * was, an intact file. Returns the migrated file's shape (returns owned) for the caller's own checks.
 */
static char *assert_migrates_like_new(const char *path, const char *drop_view)
{
	struct diag d = { "" };
	struct store *st = NULL;
	char *fresh_path = tmp_path("new.sqlite");
	char *rows_before = rows_dump(path);
	char *rows_after, *shape, *fresh_shape, sql[128];

	ck_assert_msg(store_open(&st, path, &d) == STATUS_OK, "message: %s", d.msg);
	store_close(st);
	ck_assert_int_eq(store_open(&st, fresh_path, &d), STATUS_OK);
	store_close(st);
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	if (drop_view) {
		snprintf(sql, sizeof sql, "DROP VIEW %s", drop_view);
		raw_exec(path, sql);
	}
	shape = schema_shape(path);
	fresh_shape = schema_shape(fresh_path);
	ck_assert_str_eq(shape, fresh_shape);
	rows_after = rows_dump(path);
	ck_assert_str_eq(rows_after, rows_before);
	assert_text(path, "PRAGMA integrity_check", "ok");
	free(fresh_shape);
	free(rows_after);
	free(rows_before);
	tmp_remove(fresh_path);
	return shape;
}

/* A file of an older version made by its frozen schema (tests/data/store/schema_vN.sql) and the SQL rows. */
static char *file_of_version(int version, const char *rows)
{
	char name[64], *path, *schema;

	snprintf(name, sizeof name, "v%d.sqlite", version);
	path = tmp_path(name);
	snprintf(name, sizeof name, TEST_DATA_DIR "/store/schema_v%d.sql", version);
	schema = file_text(name);
	raw_exec(path, schema);
	free(schema);
	raw_exec(path, rows);
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), version);
	return path;
}

/*
 * The migrated file has the shape of a new one (every table, view, column and index alike), version 3,
 * and the old run's values, with NULL in the new columns (it belongs to no sweep and has no key).
 */
START_TEST(version_2_file_is_migrated)
{
	char *path = v2_file_with_run();
	char *shape = assert_migrates_like_new(path, NULL);

	ck_assert_ptr_nonnull(strstr(shape, "table sweeps(sweep_id INTEGER 0 1,name TEXT 1 0,sweep_key TEXT 1 0,"));
	ck_assert_ptr_nonnull(strstr(shape, "index runs_by_key on runs"));
	assert_text(path, "SELECT quote(sweep_id) || quote(point) || quote(replication) || quote(run_key) || "
		    "quote(error) FROM runs WHERE run_id = 1", "NULLNULLNULLNULLNULL");
	ck_assert_double_eq_tol(query_double(path, "SELECT copies FROM samples WHERE run_id = 1"), 4, TOL);
	ck_assert_double_eq_tol(query_double(path, "SELECT copy_hours FROM run_summary WHERE run_id = 1"), 12.5, TOL);
	assert_summary_columns(path);
	free(shape);
	tmp_remove(path);
}
END_TEST

/* After the migration the file takes a new run, at the next run id, with its run key. */
START_TEST(migrated_version_2_file_takes_runs)
{
	struct diag d = { "" };
	struct store *st = NULL;
	struct scenario sc;
	char *path = v2_file_with_run();

	ck_assert_msg(store_open(&st, path, &d) == STATUS_OK, "message: %s", d.msg);
	scenario_fake(&sc, "after migration", 12);
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 2, 0.5, STATUS_OK), STATUS_OK);
	ck_assert_int_eq(store_last_run_id(st), 2);
	store_close(st);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs WHERE run_id = 2 AND length(run_key) = 32"), 1);
	tmp_remove(path);
}
END_TEST

/*
 * A 2 -> 3 migration that fails half-way (an index of the name version 3 creates, made by hand, makes
 * CREATE INDEX fail after the ALTER TABLEs) is rolled back: the file is byte for byte as it was.
 */
START_TEST(failed_version_2_migration_leaves_file_unchanged)
{
	char *path = v2_file_with_run();

	raw_exec(path, "CREATE INDEX runs_by_key ON runs (name)");
	assert_refused(path, "index runs_by_key already exists (while upgrading the results database from schema "
		       "version 2 to 13)");
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), 2);
	ck_assert(!has_column(path, "runs", "run_key"));
	tmp_remove(path);
}
END_TEST

/*
 * Version 3 -> 4. A version-3 file is made by running the schema of that time (tests/data/store/schema_v3.sql,
 * frozen), with one run of a sweep and its sweep view as a version-3 build wrote them.
 */
static char *v3_file_with_sweep_run(void)
{
	char *path = tmp_path("v3.sqlite");
	char *schema = file_text(TEST_DATA_DIR "/store/schema_v3.sql");

	raw_exec(path, schema);
	free(schema);
	raw_exec(path, "INSERT INTO sweeps VALUES (1, 'grid', 'k', 'grid.yaml', 'name: grid\n', 'seed\n', 1, 1, 1, "
		 "'2025-10-01T00:00:00Z');"
		 "INSERT INTO sweep_params VALUES (1, 0, 'seed', '3', 3);"
		 "INSERT INTO runs VALUES (1, 'v3 run', 'scenarios/old.yaml', 'name: v3 run\n', 'seed=3\n', 3, 'ok', "
		 "'2025-10-01T00:00:00Z', 2.5, '0.3.0', 7200.0, 'p5.48xlarge', 1, 0, 0, "
		 "'0123456789abcdef0123456789abcdef', NULL);"
		 "INSERT INTO metrics VALUES (1, 'latency_p99_s', 0.5), (1, 'cost_total_usd', 110.08);"
		 "INSERT INTO samples VALUES (1, 60.0, 12.5, 3, 7.25, 2, 1, 0, 0, 0, 0, 3, 160.5, NULL);"
		 "INSERT INTO events VALUES (1, 1, 60.0, 'scale_out', 'on_demand', 4, 'concurrency 0.9 > 0.7');"
		 "CREATE VIEW main.sweep_grid AS SELECT r.sweep_id, r.point, r.replication, r.status, r.error, "
		 "(SELECT coalesce(p.numeric_value, p.value) FROM sweep_params AS p WHERE p.sweep_id = r.sweep_id "
		 "AND p.point = r.point AND p.key = 'seed') AS \"seed_param\", s.\"latency_p99_s\", "
		 "s.\"cost_total_usd\" FROM runs AS r JOIN run_summary AS s ON s.run_id = r.run_id "
		 "WHERE r.sweep_id = 1 AND s.run_id BETWEEN 1 AND 1;");
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), 3);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'warnings'"), 0);
	return path;
}

/*
 * The migrated file has the shape of a new one but for the sweep view (kept as it was), the current version, every
 * row as it was, the tables warnings and labels empty, and run_summary with the new run columns: horizon_s
 * 7200, the path and overrides as stored, 0 warnings. The sweep view written by version 3 still reads.
 */
START_TEST(version_3_file_is_migrated)
{
	char *path = v3_file_with_sweep_run();
	char *shape = assert_migrates_like_new(path, "sweep_grid");

	ck_assert_ptr_nonnull(strstr(shape, "table warnings(run_id INTEGER 1 1,seq INTEGER 1 2,code TEXT 1 0,"
				     "message TEXT 1 0)"));
	ck_assert_ptr_nonnull(strstr(shape, "table labels(run_id INTEGER 1 1,key TEXT 1 2,value TEXT 1 0)"));
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM warnings") + query_int(path, "SELECT count(*) FROM labels"),
			 0);
	assert_text(path, "SELECT horizon_s || '|' || scenario_path || '|' || overrides || '|' || warnings FROM "
		    "run_summary WHERE run_id = 1", "7200.0|scenarios/old.yaml|seed=3\n|0");
	assert_summary_columns(path);
	free(shape);
	tmp_remove(path);
}
END_TEST

/* The sweep view a version-3 build made names run_summary's columns of its time: it reads after the
 * migration rebuilt run_summary (110.08 and 0.5 as inserted). */
START_TEST(version_3_sweep_view_survives_migration)
{
	struct diag d = { "" };
	struct store *st = NULL;
	char *path = v3_file_with_sweep_run();

	ck_assert_msg(store_open(&st, path, &d) == STATUS_OK, "message: %s", d.msg);
	store_close(st);
	ck_assert_double_eq_tol(query_double(path, "SELECT cost_total_usd FROM sweep_grid WHERE point = 0"), 110.08,
				TOL);
	ck_assert_double_eq_tol(query_double(path, "SELECT latency_p99_s + seed_param FROM sweep_grid"), 3.5, TOL);
	tmp_remove(path);
}
END_TEST

/*
 * A 3 -> 4 migration that fails half-way (a view named labels, made by hand, makes CREATE TABLE labels fail
 * after CREATE TABLE warnings) is rolled back: the file is as it was, still version 3, without warnings.
 */
START_TEST(failed_version_3_migration_leaves_file_unchanged)
{
	char *path = v3_file_with_sweep_run();

	raw_exec(path, "CREATE VIEW labels AS SELECT 1 AS one");
	assert_refused(path, "(while upgrading the results database from schema version 3 to 13)");
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), 3);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'warnings'"), 0);
	tmp_remove(path);
}
END_TEST

/*
 * Version 4 -> 5. A version-4 file is made by running the schema of that time (tests/data/store/schema_v4.sql,
 * frozen), with one sweep point of three replications (one failed) and a plain run, as a version-4 build
 * wrote them.
 */
static char *v4_file_with_sweep(void)
{
	char *path = tmp_path("v4.sqlite");
	char *schema = file_text(TEST_DATA_DIR "/store/schema_v4.sql");

	raw_exec(path, schema);
	free(schema);
	raw_exec(path, "INSERT INTO sweeps VALUES (1, 'grid', 'k', 'grid.yaml', 'name: grid\n', 'fleet.0.count\n', 1, 3, "
		 "1, '2025-10-01T00:00:00Z');"
		 "INSERT INTO sweep_params VALUES (1, 0, 'fleet.0.count', '2', 2);"
		 "INSERT INTO runs VALUES (1, 'g', NULL, 'name: g\n', 'fleet.0.count=2\nseed=1\n', 1, 'ok', "
		 "'2025-10-01T00:00:00Z', 1, '0.4.0', 3600, 'p5.48xlarge', 1, 0, 0, NULL, NULL),"
		 "(2, 'g', NULL, 'name: g\n', 'fleet.0.count=2\nseed=2\n', 2, 'ok', "
		 "'2025-10-01T00:00:00Z', 1, '0.4.0', 3600, 'p5.48xlarge', 1, 0, 1, NULL, NULL),"
		 "(3, 'g', NULL, 'name: g\n', 'fleet.0.count=2\nseed=3\n', 3, 'failed', "
		 "'2025-10-01T00:00:00Z', 1, '0.4.0', 0, '', 1, 0, 2, NULL, 'boom'),"
		 "(4, 'plain', NULL, 'name: plain\n', '', 9, 'ok', '2025-10-01T00:00:00Z', 1, '0.4.0', 3600, "
		 "'p5.48xlarge', NULL, NULL, NULL, NULL, NULL);"
		 "INSERT INTO metrics VALUES (1, 'cost_total_usd', 100), (2, 'cost_total_usd', 104), "
		 "(1, 'latency_p99_s', 0.5), (2, 'latency_p99_s', NULL), (4, 'cost_total_usd', 1000);");
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), 4);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'point_stats'"), 0);
	return path;
}

/*
 * The migrated file has the shape of a new one (the views t975 and point_stats included), version 5, every
 * row as it was, and point_stats reads the old runs: cost_total_usd over runs 1 and 2 (run 3 failed, run 4
 * is no sweep's): n = 2, mean (100 + 104) / 2 = 102, stddev sqrt(((100-102)^2 + (104-102)^2) / 1) =
 * sqrt(8) = 2.828427, ci95 = t(0.975, 1) 2.828427 / sqrt(2) = 12.706205 x 2 = 25.412410. latency_p99_s has
 * one non-NULL value: n = 1, mean 0.5, no stddev or ci95.
 */
START_TEST(version_4_file_is_migrated)
{
	char *path = v4_file_with_sweep();

	free(assert_migrates_like_new(path, NULL));
	assert_text(path, "SELECT sweep || '|' || point || '|' || n FROM point_stats WHERE name = 'cost_total_usd'",
		    "grid|0|2");
	ck_assert_double_eq_tol(query_double(path, "SELECT mean FROM point_stats WHERE name = 'cost_total_usd'"), 102,
				1e-9);
	ck_assert_double_eq_tol(query_double(path, "SELECT stddev FROM point_stats WHERE name = 'cost_total_usd'"),
				2.828427, 1e-6);
	ck_assert_double_eq_tol(query_double(path, "SELECT ci95 FROM point_stats WHERE name = 'cost_total_usd'"),
				25.412410, 1e-5);
	assert_text(path, "SELECT n || '|' || mean || '|' || coalesce(stddev, 'null') || '|' || coalesce(ci95, 'null') "
		    "FROM point_stats WHERE name = 'latency_p99_s'", "1|0.5|null|null");
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM point_stats"), 2);
	tmp_remove(path);
}
END_TEST

/*
 * Version 5 -> 6. A version-5 file made by the schema of that time (tests/data/store/schema_v5.sql, frozen)
 * with one run: migrated, it has the shape of a new file (the table charges included), version 6, the run
 * as it was, and no charges for it (a version-5 build recorded none).
 */
START_TEST(version_5_file_is_migrated)
{
	char *path = file_of_version(5,
		"INSERT INTO runs VALUES (1, 'plain', NULL, 'name: plain\n', '', 9, 'ok', '2025-10-01T00:00:00Z', "
		"1, '0.5.0', 3600, 'p5.48xlarge', NULL, NULL, NULL, NULL, NULL);"
		"INSERT INTO metrics VALUES (1, 'cost_total_usd', 1000);");

	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'charges'"), 0);
	free(assert_migrates_like_new(path, NULL));
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM charges"), 0);
	tmp_remove(path);
}
END_TEST

/*
 * Version 6 -> 7. A version-6 file made by the schema of that time (tests/data/store/schema_v6.sql, frozen)
 * with one run and a bill line: migrated, it has the shape of a new file (the table hours included),
 * version 7, its rows as they were, and no hours for the run (a version-6 build recorded none).
 */
START_TEST(version_6_file_is_migrated)
{
	char *path = file_of_version(6,
		"INSERT INTO runs VALUES (1, 'plain', NULL, 'name: plain\n', '', 9, 'ok', '2025-10-01T00:00:00Z', "
		"1, '0.6.0', 3600, 'p5.48xlarge', NULL, NULL, NULL, NULL, NULL);"
		"INSERT INTO metrics VALUES (1, 'cost_total_usd', 1000);"
		"INSERT INTO charges VALUES (1, 0, 'on_demand', 'usage', 0, 3600, 1, 1000, 1000, 1000);");

	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'hours'"), 0);
	free(assert_migrates_like_new(path, NULL));
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM hours"), 0);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM charges"), 1);
	tmp_remove(path);
}
END_TEST

/*
 * Version 7 -> 8. A version-7 file made by the schema of that time (tests/data/store/schema_v7.sql, frozen)
 * with one run: migrated, it has the shape of a new file (samples with instances_training_plan), version 8,
 * its rows as they were. A second file with a sample row keeps the row's values and reads NULL in the new
 * column (a version-7 build had no training plans).
 */
START_TEST(version_7_file_is_migrated)
{
	static const char run[] =
		"INSERT INTO runs VALUES (1, 'plain', NULL, 'name: plain\n', '', 9, 'ok', '2025-10-01T00:00:00Z', "
		"1, '0.7.0', 3600, 'p5.48xlarge', NULL, NULL, NULL, NULL, NULL);"
		"INSERT INTO metrics VALUES (1, 'cost_total_usd', 1000);";
	char *path = file_of_version(7, run), *with_sample, rows[1024];
	struct diag d = { "" };
	struct store *st = NULL;

	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM pragma_table_info('samples') "
				       "WHERE name = 'instances_training_plan'"), 0);
	free(assert_migrates_like_new(path, NULL));
	tmp_remove(path);
	snprintf(rows, sizeof rows, "%sINSERT INTO samples VALUES (1, 60, 2, 0, 1.5, 2, 3, 0, 0, 0, 0, 5, 110.5, NULL);",
		 run);
	with_sample = file_of_version(7, rows);
	ck_assert_msg(store_open(&st, with_sample, &d) == STATUS_OK, "message: %s", d.msg);
	store_close(st);
	assert_text(with_sample, "SELECT quote(instances_on_demand) || ' ' || quote(instances_total) || ' ' || "
		    "quote(cost_usd_per_h) || ' ' || quote(instances_training_plan) FROM samples", "3.0 5.0 110.5 NULL");
	tmp_remove(with_sample);
}
END_TEST

/*
 * Version 8 -> 9. A version-8 file made by the schema of that time (tests/data/store/schema_v8.sql, frozen)
 * with one run, a metric and a sample: migrated, it has the shape of a new file (the table type_samples
 * included), version 9, its rows as they were (cost_total_usd 1000, the sample's 3 on-demand instances and
 * 110.5 $/h), and no type_samples for the run (a version-8 build recorded none). It then takes a new run.
 */
START_TEST(version_8_file_is_migrated)
{
	static const char run[] =
		"INSERT INTO runs VALUES (1, 'plain', NULL, 'name: plain\n', '', 9, 'ok', '2025-10-01T00:00:00Z', "
		"1, '0.8.0', 3600, 'p5.48xlarge', NULL, NULL, NULL, NULL, NULL);"
		"INSERT INTO metrics VALUES (1, 'cost_total_usd', 1000);"
		"INSERT INTO samples VALUES (1, 60, 2, 0, 1.5, 2, 3, 0, 0, 0, 0, 5, 110.5, NULL, 0);";
	char *path = file_of_version(8, run);

	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'type_samples'"), 0);
	free(assert_migrates_like_new(path, NULL));
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM type_samples"), 0);
	ck_assert_double_eq_tol(query_double(path, "SELECT value FROM metrics WHERE name = 'cost_total_usd'"), 1000,
				TOL);
	assert_text(path, "SELECT quote(instances_on_demand) || ' ' || quote(cost_usd_per_h) || ' ' || "
		    "quote(instances_training_plan) FROM samples", "3.0 110.5 0.0");
	/* deleting the run still cascades to its rows, the new table included */
	raw_exec(path, "PRAGMA foreign_keys = ON; INSERT INTO type_samples VALUES (1, 60, 'p5.48xlarge', 1, 0.5); "
		 "DELETE FROM runs WHERE run_id = 1");
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM type_samples"), 0);
	tmp_remove(path);
}
END_TEST

/* The details of sql's query plan (EXPLAIN QUERY PLAN), joined by "; "; returns owned. */
static char *query_plan(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *stmt;
	char *explain = sqlite3_mprintf("EXPLAIN QUERY PLAN %s", sql), out[1024] = "";
	size_t n = 0;

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_msg(sqlite3_prepare_v2(db, explain, -1, &stmt, NULL) == SQLITE_OK, "%s", sqlite3_errmsg(db));
	while (sqlite3_step(stmt) == SQLITE_ROW && n < sizeof out)
		n += (size_t)snprintf(out + n, sizeof out - n, "%s%s", n ? "; " : "",
				      (const char *)sqlite3_column_text(stmt, 3));
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	sqlite3_free(explain);
	return strdup(out);
}

/*
 * Version 12 -> 13 (issue 36, `gpucap calibrate`). A version-12 file made by the schema of that time
 * (tests/data/store/schema_v12.sql, frozen) with one run and a bill line: migrated, it has the shape of a new
 * file (calibrations, its index and calibration_hours), its run and bill line as they were, the new tables
 * empty; a calibration of the run can be added, and deleting the run cascades to the calibration and its
 * hours. Fails on a build without the step (no table calibrations).
 */
START_TEST(version_12_file_gains_calibrations)
{
	static const char rows[] =
		"INSERT INTO runs VALUES (1, 'plain', NULL, 'name: plain\n', '', 9, 'ok', '2026-11-01T00:00:00Z', "
		"1, '0.12.0', 3600, 'p5.48xlarge', NULL, NULL, NULL, NULL, NULL, 'us-east-1');"
		"INSERT INTO charges VALUES (1, 0, 'on_demand', 'usage', 'serving', 0, 3600, 1, 55.04, 55.04, 55.04);";
	char *path = file_of_version(12, rows);

	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'calibration%'"), 0);
	free(assert_migrates_like_new(path, NULL));
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'calibration%'"), 3);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM calibrations"), 0);
	ck_assert_double_eq_tol(query_double(path, "SELECT total(effective_usd) FROM charges"), 55.04, TOL);
	raw_exec(path, "PRAGMA foreign_keys = ON; INSERT INTO calibrations VALUES (1, 1, 'now', 'b.csv', 'h', 'cur', "
		 "'p5.48xlarge', 0, 1, 1, 1, 0, 0, 1, 1, 55.04, 55.04, 0, 0, 0, 0, 0, 0, 0, 0); "
		 "INSERT INTO calibration_hours VALUES (1, 0, 'on_demand', 1, 1, 55.04, 55.04, 0, 0, 0, 0)");
	raw_exec(path, "PRAGMA foreign_keys = ON; DELETE FROM runs WHERE run_id = 1");
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM calibrations"), 0);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM calibration_hours"), 0);
	tmp_remove(path);
}
END_TEST

/*
 * Version 9 -> 10. A version-9 file made by the schema of that time (tests/data/store/schema_v9.sql, frozen)
 * with a sweep of one run and a plain run: migrated, it has the shape of a new file (the indexes
 * runs_by_sweep, sweeps_by_name and labels_by_key included), version 10, its rows as they were, and a
 * sweep point is read through runs_by_sweep, not by a scan of every run.
 */
START_TEST(version_9_file_is_migrated)
{
	static const char rows[] =
		"INSERT INTO sweeps VALUES (1, 's', 'k', NULL, '', 'x\n', 1, 1, 1, '2025-10-01T00:00:00Z');"
		"INSERT INTO runs VALUES (1, 's', NULL, 'name: s\n', '', 9, 'ok', '2025-10-01T00:00:00Z', "
		"1, '0.9.0', 3600, 'p5.48xlarge', 1, 0, 0, NULL, NULL);"
		"INSERT INTO runs VALUES (2, 'plain', NULL, 'name: plain\n', '', 9, 'ok', '2025-10-01T00:00:00Z', "
		"1, '0.9.0', 3600, 'p5.48xlarge', NULL, NULL, NULL, NULL, NULL);"
		"INSERT INTO metrics VALUES (1, 'cost_total_usd', 1000);";
	char *path = file_of_version(9, rows);
	char *shape, *plan;

	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'runs_by_sweep'"), 0);
	shape = assert_migrates_like_new(path, NULL);
	ck_assert_ptr_nonnull(strstr(shape, "index runs_by_sweep on runs"));
	ck_assert_ptr_nonnull(strstr(shape, "index sweeps_by_name on sweeps"));
	ck_assert_ptr_nonnull(strstr(shape, "index labels_by_key on labels"));
	free(shape);
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs WHERE sweep_id = 1 AND point = 0"), 1);
	ck_assert_double_eq_tol(query_double(path, "SELECT value FROM metrics WHERE name = 'cost_total_usd'"), 1000,
				TOL);
	plan = query_plan(path, "SELECT run_id, seed, status FROM runs WHERE sweep_id = 1 AND point = 0 "
			  "ORDER BY replication, run_id");
	ck_assert_str_eq(plan, "SEARCH runs USING INDEX runs_by_sweep (sweep_id=? AND point=?)");
	free(plan);
	tmp_remove(path);
}
END_TEST

/*
 * Version 11 -> 12 (issue 34, FOCUS for allocation). A version-11 file made by the schema of that time
 * (tests/data/store/schema_v11.sql, frozen) with one run, two bill lines and a sample: migrated, it has the
 * shape of a new file (charges with use in its primary key, samples.instances_jobs, runs.region), version
 * 12; its bill lines are serving's ('serving': a build before 12 did not split the bill), the new columns
 * of its sample and run are NULL, a jobs line of the same hour, option and kind can then be added beside
 * the serving one, and deleting the run still cascades to charges. Fails on a build without the step (no
 * column use).
 */
START_TEST(version_11_file_gains_use)
{
	static const char rows[] =
		"INSERT INTO runs VALUES (1, 'plain', NULL, 'name: plain\n', '', 9, 'ok', '2025-10-01T00:00:00Z', "
		"1, '0.11.0', 3600, 'p5.48xlarge', NULL, NULL, NULL, NULL, NULL);"
		"INSERT INTO metrics VALUES (1, 'cost_total_usd', 1000);"
		"INSERT INTO samples VALUES (1, 60.0, 12.5, 3, 7.25, 2, 1, 0, 0, 0, 0, 3, 160.5, NULL, 0);"
		"INSERT INTO charges VALUES (1, 0, 'on_demand', 'usage', 0, 3600, 1, 1000, 1000, 1000);"
		"INSERT INTO charges VALUES (1, 0, 'savings_plan', 'unused', 0, 3600, 0, 0, 10, 10);";
	char *path = file_of_version(11, rows);
	char *shape;

	ck_assert_int_eq(has_column(path, "charges", "use"), false);
	shape = assert_migrates_like_new(path, NULL);
	ck_assert_ptr_nonnull(strstr(shape, "use TEXT 1 5"));
	free(shape);
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM charges WHERE use = 'serving'"), 2);
	ck_assert_double_eq_tol(query_double(path, "SELECT total(effective_usd) FROM charges"), 1010, TOL);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM samples WHERE instances_jobs IS NULL"), 1);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs WHERE region IS NULL"), 1);
	raw_exec(path, "INSERT INTO charges VALUES (1, 0, 'on_demand', 'usage', 'jobs', 0, 3600, 1, 5, 5, 5)");
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM charges"), 3);
	raw_exec(path, "PRAGMA foreign_keys = ON; DELETE FROM runs WHERE run_id = 1");
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM charges"), 0);
	tmp_remove(path);
}
END_TEST

/*
 * Version 9 -> 10. A version-9 file made by the schema of that time (tests/data/store/schema_v9.sql, frozen)
 * with one run of a scenario that names a trace: migrated, it has the shape of a new file (run_inputs and
 * run_claims included), version 10, its run as it was with no input files recorded (a version-9 build
 * recorded none), and deleting the run cascades to the new table.
 */
START_TEST(version_9_file_gains_input_tables)
{
	static const char run[] =
		"INSERT INTO runs VALUES (1, 'traced', 's.yaml', 'name: traced\n', '', 9, 'ok', '2025-10-01T00:00:00Z', "
		"1, '0.9.0', 3600, 'p5.48xlarge', NULL, NULL, NULL, 'k', NULL);"
		"INSERT INTO metrics VALUES (1, 'cost_total_usd', 1000);";
	char *path = file_of_version(9, run);

	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name IN ('run_inputs', "
				   "'run_claims')"), 0);
	free(assert_migrates_like_new(path, NULL));
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM run_inputs"), 0);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM run_claims"), 0);
	ck_assert_double_eq_tol(query_double(path, "SELECT value FROM metrics WHERE name = 'cost_total_usd'"), 1000,
				TOL);
	raw_exec(path, "PRAGMA foreign_keys = ON; INSERT INTO run_inputs VALUES (1, 1, 't.csv', 'h', 3); "
		 "DELETE FROM runs WHERE run_id = 1");
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM run_inputs"), 0);
	tmp_remove(path);
}
END_TEST

/*
 * ci95 for n > 31 uses 1.96 (t975 stops at df 30): 32 runs of one point with the values 0 and 1 alternating
 * have mean 0.5, stddev sqrt(32 x 0.25 / 31) = 0.5080005, ci95 = 1.96 x 0.5080005 / sqrt(32) = 0.176013; 31
 * runs (df 30: the table's last row, t = 2.042272) of 16 zeros and 15 ones have mean 15/31 and stddev
 * sqrt((16 (15/31)^2 + 15 (16/31)^2) / 30), ci95 = 2.042272 stddev / sqrt(31).
 */
START_TEST(point_stats_t_table_and_beyond)
{
	struct diag d = { "" };
	struct store *st = NULL;
	char *path = tmp_path("stats.sqlite");
	char sql[256];

	ck_assert_msg(store_open(&st, path, &d) == STATUS_OK, "message: %s", d.msg);
	store_close(st);
	raw_exec(path, "INSERT INTO sweeps VALUES (1, 's', 'k', NULL, '', 'x\n', 2, 32, 1, '2025-10-01T00:00:00Z')");
	for (int i = 0; i < 63; i++) {
		int point = i < 32 ? 0 : 1;
		snprintf(sql, sizeof sql, "INSERT INTO runs VALUES (%d, 's', NULL, '', '', %d, 'ok', 'x', 1, 'v', 1, 't', 1, "
			 "%d, %d, NULL, NULL, NULL); INSERT INTO metrics VALUES (%d, 'm', %d)", i + 1, i, point, i % 32, i + 1,
			 i % 2);
		raw_exec(path, sql);
	}
	ck_assert_double_eq_tol(query_double(path, "SELECT ci95 FROM point_stats WHERE point = 0"), 0.176013, 1e-6);
	/* point 1: runs 32..62, i % 2 gives 16 zeros (even i) and 15 ones */
	double mean = 15.0 / 31, sd = sqrt((16 * mean * mean + 15 * (1 - mean) * (1 - mean)) / 30);
	ck_assert_int_eq(query_int(path, "SELECT n FROM point_stats WHERE point = 1"), 31);
	ck_assert_double_eq_tol(query_double(path, "SELECT mean FROM point_stats WHERE point = 1"), mean, 1e-12);
	ck_assert_double_eq_tol(query_double(path, "SELECT ci95 FROM point_stats WHERE point = 1"),
				2.042272 * sd / sqrt(31), 1e-9);
	tmp_remove(path);
}
END_TEST

/*
 * A 4 -> 5 migration that fails (a table named point_stats, made by hand, makes DROP VIEW IF EXISTS
 * point_stats fail) is rolled back: the file is byte for byte as it was, still version 4.
 */
START_TEST(failed_version_4_migration_leaves_file_unchanged)
{
	char *path = v4_file_with_sweep();
	struct bytes before;

	raw_exec(path, "CREATE TABLE point_stats (x)");
	before = file_bytes(path);
	assert_refused(path, "(while upgrading the results database from schema version 4 to 13)");
	assert_unchanged(path, before);
	ck_assert_int_eq(query_int(path, "PRAGMA user_version"), 4);
	tmp_remove(path);
}
END_TEST

static Suite *store_schema_suite(void)
{
	Suite *s = suite_create("store_schema");
	TCase *tc = tcase_create("core");
	TCase *slow;

	test_add(tc, refuses_newer_version);
	test_add(tc, version_1_file_is_migrated);
	test_add(tc, migrated_file_reopens_unchanged);
	test_add(tc, failed_migration_leaves_file_unchanged);
	test_add(tc, refuses_damaged_version_1_file);
	test_add(tc, version_2_file_is_migrated);
	test_add(tc, migrated_version_2_file_takes_runs);
	test_add(tc, failed_version_2_migration_leaves_file_unchanged);
	test_add(tc, version_3_file_is_migrated);
	test_add(tc, version_3_sweep_view_survives_migration);
	test_add(tc, failed_version_3_migration_leaves_file_unchanged);
	test_add(tc, version_4_file_is_migrated);
	test_add(tc, point_stats_t_table_and_beyond);
	test_add(tc, version_5_file_is_migrated);
	test_add(tc, version_6_file_is_migrated);
	test_add(tc, version_7_file_is_migrated);
	test_add(tc, version_8_file_is_migrated);
	test_add(tc, version_9_file_is_migrated);
	test_add(tc, version_11_file_gains_use);
	test_add(tc, version_12_file_gains_calibrations);
	test_add(tc, version_9_file_gains_input_tables);
	test_add(tc, failed_version_4_migration_leaves_file_unchanged);
	suite_add_tcase(s, tc);

	/* Waits out the (shortened) busy timeout, several times. */
	slow = tcase_create("busy");
	tcase_set_timeout(slow, 30);
	test_add(slow, migration_blocked_by_reader_rolls_back);
	suite_add_tcase(s, slow);
	return s;
}

int main(void)
{
	return test_run_suite(store_schema_suite());
}
