/*
 * store_schema: a results file's schema. Reads what a file holds (one read transaction), creates the schema
 * in a new or empty file, migrates a file of an older version to STORE_SCHEMA_VERSION in one transaction,
 * and refuses anything else (see store.h for the rules). Private to the store (store_private.h).
 */
#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "status.h"
#include "store.h"
#include "store_private.h"

/* analysis/schema.sql (the tables) and analysis/summary_view.sql (run_summary), embedded by embed.cmake. */
extern const char store_schema_sql[];
extern const char store_summary_view_sql[];
extern const char store_stats_view_sql[];  /* analysis/stats_view.sql: t975, point_stats */

#define STORE_RUN_TABLES 4               /* runs, metrics, samples, events: every version has them */
#define STORE_V3_TABLES 6                /* and, from version 3, sweeps and sweep_params */
#define STORE_V4_TABLES 8                /* and, from version 4, warnings and labels */
#define STORE_V6_TABLES 9                /* and, from version 6, charges */
#define STORE_V7_TABLES 10               /* and, from version 7, hours (version 8 adds a column only) */
#define STORE_V9_TABLES 11               /* and, from version 9, type_samples */
#define STORE_V10_TABLES 13              /* and, from version 10, run_inputs and run_claims (and 3 indexes) */
#define STORE_TABLES 15                  /* and, from version 13, calibrations and calibration_hours */

/* What store_open() reads from a file to decide whether it is ours. */
struct schema_info {
	int app_id;   /* PRAGMA application_id */
	int version;  /* PRAGMA user_version */
	int objects;  /* rows of sqlite_master: tables, indexes, views, triggers */
	int tables;   /* how many of gpucap's tables (STORE_TABLES of them) exist */
};

/* Run a query that returns one integer (a PRAGMA, a count) into *val. */
static int query_int(struct store *st, const char *sql, int *val, struct diag *d)
{
	sqlite3_stmt *stmt;
	int status = STATUS_OK;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return store_db_error(st, d, "checking it is a gpucap results database");
	if (sqlite3_step(stmt) == SQLITE_ROW)
		*val = sqlite3_column_int(stmt, 0);
	else
		status = store_db_error(st, d, "checking it is a gpucap results database");
	sqlite3_finalize(stmt);
	return status;
}

/* Read what identifies the file; only reads, so an existing file is left as it was. */
static int schema_read(struct store *st, struct schema_info *in, struct diag *d)
{
	/*
	 * One read transaction for the four figures, so they come from one state of the file: read one by one,
	 * a file another process is creating can show its tables but not yet its application_id (the header is
	 * committed with them), and be taken for another program's database.
	 */
	bool own_txn = sqlite3_get_autocommit(st->db) != 0;
	int status = own_txn ? store_exec(st, "BEGIN", d, "reading the schema") : STATUS_OK;

	if (status == STATUS_OK)
		status = query_int(st, "PRAGMA main.application_id", &in->app_id, d);
	if (status == STATUS_OK)
		status = query_int(st, "PRAGMA main.user_version", &in->version, d);
	if (status == STATUS_OK)
		status = query_int(st, "SELECT count(*) FROM main.sqlite_master", &in->objects, d);
	if (status == STATUS_OK)
		status = query_int(st, "SELECT count(*) FROM main.sqlite_master WHERE type = 'table' AND "
				   "name IN ('runs', 'metrics', 'samples', 'events', 'sweeps', 'sweep_params', "
				   "'warnings', 'labels', 'charges', 'hours', 'type_samples', 'run_inputs', "
				   "'run_claims', 'calibrations', 'calibration_hours')",
				   &in->tables, d);
	if (own_txn) {
		int end = store_exec(st, status == STATUS_OK ? "COMMIT" : "ROLLBACK", d, "reading the schema");
		if (status == STATUS_OK)
			status = end;
	}
	return status;
}

/* A new file, or an empty one (size 0): nothing in it, no version, no owner. */
static bool schema_is_empty(const struct schema_info *in)
{
	return in->objects == 0 && in->version == 0 && in->app_id == 0;
}

/* How many of gpucap's tables a file of that version has. */
static int schema_tables(int version)
{
	return version >= 13 ? STORE_TABLES : version >= 10 ? STORE_V10_TABLES : version == 9 ? STORE_V9_TABLES : version >= 7 ? STORE_V7_TABLES :
	       version == 6 ? STORE_V6_TABLES : version >= 4 ? STORE_V4_TABLES : version == 3 ? STORE_V3_TABLES : STORE_RUN_TABLES;
}

/* Inside the write transaction: the file is read again under the lock, and the scripts run only if it is
 * still empty (another process may have created the schema meanwhile). */
static int schema_create_body(struct store *st, void *arg, struct diag *d)
{
	struct schema_info in;
	int status;

	(void)arg;
	status = schema_read(st, &in, d);
	if (status == STATUS_OK && schema_is_empty(&in)) {
		status = store_exec(st, store_schema_sql, d, "creating the schema");
		if (status == STATUS_OK)
			status = store_exec(st, store_summary_view_sql, d, "creating the schema");
		if (status == STATUS_OK)
			status = store_exec(st, store_stats_view_sql, d, "creating the schema");
	}
	return status;
}

/* Create the schema in one transaction: the tables, then the views. */
static int schema_create(struct store *st, struct diag *d)
{
	return store_write_txn(st, schema_create_body, NULL, d, "creating the schema");
}

/*
 * A whole gpucap results database of an older schema version, which schema_migrate() brings up to date.
 * One that lacks some of the tables is damaged, and is refused rather than migrated.
 */
static bool schema_is_older(const struct schema_info *in)
{
	return in->app_id == STORE_APPLICATION_ID && in->version >= 1 && in->version < STORE_SCHEMA_VERSION &&
	       in->tables == schema_tables(in->version);
}

/* Version 3's tables, as analysis/schema.sql creates them (columns and constraints identical). */
static const char schema_v3_sql[] =
	"ALTER TABLE runs ADD COLUMN sweep_id INTEGER;"
	"ALTER TABLE runs ADD COLUMN point INTEGER;"
	"ALTER TABLE runs ADD COLUMN replication INTEGER;"
	"ALTER TABLE runs ADD COLUMN run_key TEXT;"
	"ALTER TABLE runs ADD COLUMN error TEXT;"
	"CREATE INDEX runs_by_key ON runs (run_key);"
	"CREATE TABLE sweeps (sweep_id INTEGER PRIMARY KEY, name TEXT NOT NULL, sweep_key TEXT NOT NULL UNIQUE, "
	"file_path TEXT, file_text TEXT NOT NULL, params TEXT NOT NULL, npoints INTEGER NOT NULL, "
	"nreps INTEGER NOT NULL, run_id_base INTEGER NOT NULL, created_at TEXT NOT NULL);"
	"CREATE TABLE sweep_params (sweep_id INTEGER NOT NULL REFERENCES sweeps ON DELETE CASCADE, "
	"point INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, numeric_value REAL, "
	"PRIMARY KEY (sweep_id, point, key)) WITHOUT ROWID;";

/* Version 4's tables, as analysis/schema.sql creates them (columns and constraints identical). */
static const char schema_v4_sql[] =
	"CREATE TABLE warnings (run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE, seq INTEGER NOT NULL, "
	"code TEXT NOT NULL, message TEXT NOT NULL, PRIMARY KEY (run_id, seq)) WITHOUT ROWID;"
	"CREATE TABLE labels (run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE, key TEXT NOT NULL, "
	"value TEXT NOT NULL, PRIMARY KEY (run_id, key)) WITHOUT ROWID;";

/* Version 6's table, as schema.sql creates it. */
static const char schema_v6_sql[] =
	"CREATE TABLE charges (run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE, hour INTEGER NOT NULL, "
	"option TEXT NOT NULL, kind TEXT NOT NULL, start_unix_s REAL NOT NULL, end_unix_s REAL NOT NULL, "
	"quantity_h REAL NOT NULL, list_usd REAL NOT NULL, billed_usd REAL NOT NULL, effective_usd REAL NOT NULL, "
	"PRIMARY KEY (run_id, hour, option, kind)) WITHOUT ROWID;";

/* Version 7's table, as schema.sql creates it. */
static const char schema_v7_sql[] =
	"CREATE TABLE hours (run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE, hour_start_s REAL NOT NULL, "
	"requests INTEGER NOT NULL, violations INTEGER NOT NULL, latency_p50_s REAL, latency_p95_s REAL, "
	"latency_p99_s REAL, PRIMARY KEY (run_id, hour_start_s)) WITHOUT ROWID;";

/* Version 9's table, as schema.sql creates it. */
static const char schema_v9_sql[] =
	"CREATE TABLE type_samples (run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE, t_s REAL NOT NULL, "
	"type TEXT NOT NULL, instances REAL NOT NULL, busy_slots REAL NOT NULL, PRIMARY KEY (run_id, t_s, type)) "
	"WITHOUT ROWID;";

/*
 * Version 10's indexes, as schema.sql creates them (issue 29: reads of one sweep, and of recommend's labels,
 * without a scan of every run).
 */
static const char schema_v10_indexes_sql[] =
	"CREATE INDEX runs_by_sweep ON runs (sweep_id, point, replication);"
	"CREATE INDEX sweeps_by_name ON sweeps (name);"
	"CREATE INDEX labels_by_key ON labels (key, value);";

/*
 * Version 10's tables, as schema.sql creates them (issue 29, inputs that cannot mix): run_inputs and
 * run_claims. The 9 -> 10 step runs both blocks.
 */
static const char schema_v10_inputs_sql[] =
	"CREATE TABLE run_inputs (run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE, seq INTEGER NOT NULL, "
	"path TEXT NOT NULL, content_hash TEXT NOT NULL, bytes INTEGER NOT NULL, PRIMARY KEY (run_id, seq)) "
	"WITHOUT ROWID;"
	"CREATE TABLE run_claims (run_id INTEGER PRIMARY KEY, sweep_id INTEGER NOT NULL REFERENCES sweeps ON "
	"DELETE CASCADE, host TEXT NOT NULL, pid INTEGER NOT NULL, pid_start TEXT NOT NULL, claimed_at TEXT NOT "
	"NULL);";

/*
 * Version 12 (issue 34, FOCUS for allocation): charges gains use in its primary key, so the table is built
 * again as schema.sql creates it and the rows already there copied with use = 'serving' (exact for runs
 * without jobs; a run with jobs written before did not split its bill); samples gains instances_jobs and
 * runs gains region (NULL in the rows already there).
 */
static const char schema_v12_sql[] =
	"CREATE TABLE charges_v12 (run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE, hour INTEGER NOT NULL, "
	"option TEXT NOT NULL, kind TEXT NOT NULL, use TEXT NOT NULL, start_unix_s REAL NOT NULL, "
	"end_unix_s REAL NOT NULL, quantity_h REAL NOT NULL, list_usd REAL NOT NULL, billed_usd REAL NOT NULL, "
	"effective_usd REAL NOT NULL, PRIMARY KEY (run_id, hour, option, kind, use)) WITHOUT ROWID;"
	"INSERT INTO charges_v12 SELECT run_id, hour, option, kind, 'serving', start_unix_s, end_unix_s, quantity_h, "
	"list_usd, billed_usd, effective_usd FROM charges;"
	"DROP TABLE charges;"
	"ALTER TABLE charges_v12 RENAME TO charges;"
	"ALTER TABLE samples ADD COLUMN instances_jobs REAL;"
	"ALTER TABLE runs ADD COLUMN region TEXT;";

/* Version 13's tables (issue 36, `gpucap calibrate`), as analysis/schema.sql creates them. */
static const char schema_v13_sql[] =
	"CREATE TABLE calibrations (calibration_id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs ON "
	"DELETE CASCADE, created_at TEXT NOT NULL, bill_path TEXT NOT NULL, bill_hash TEXT NOT NULL, bill_format "
	"TEXT NOT NULL, types TEXT NOT NULL, start_unix_s INTEGER NOT NULL, hours INTEGER NOT NULL, rows INTEGER "
	"NOT NULL, rows_kept INTEGER NOT NULL, rows_other_type INTEGER NOT NULL, rows_not_usage INTEGER NOT NULL, "
	"billed_instance_hours REAL NOT NULL, simulated_instance_hours REAL NOT NULL, billed_cost_usd REAL NOT "
	"NULL, simulated_cost_usd REAL NOT NULL, hours_mape_pct REAL, hours_worst_unix_s INTEGER, hours_worst_pct "
	"REAL, hours_total_pct REAL, cost_mape_pct REAL, cost_worst_unix_s INTEGER, cost_worst_pct REAL, "
	"cost_total_pct REAL);"
	"CREATE INDEX calibrations_by_run ON calibrations (run_id);"
	"CREATE TABLE calibration_hours (calibration_id INTEGER NOT NULL REFERENCES calibrations ON DELETE CASCADE, "
	"hour_unix_s INTEGER NOT NULL, class TEXT NOT NULL, billed_h REAL NOT NULL, simulated_h REAL NOT NULL, "
	"billed_usd REAL NOT NULL, simulated_usd REAL NOT NULL, billed_used_h REAL NOT NULL, simulated_used_h REAL "
	"NOT NULL, billed_unused_usd REAL NOT NULL, simulated_unused_usd REAL NOT NULL, PRIMARY KEY "
	"(calibration_id, hour_unix_s, class)) WITHOUT ROWID;";

/*
 * Bring a file of schema version `from` up to STORE_SCHEMA_VERSION, inside the caller's transaction.
 * The steps, by version:
 *   1 -> 2  samples gained the column copies (NULL in earlier rows: those runs had no copies);
 *           run_summary gained time_under_provisioned_s, time_over_provisioned_s, copy_hours and
 *           copy_loads.
 *   2 -> 3  runs gained sweep_id, point, replication, run_key and error (NULL in earlier rows: those runs
 *           belong to no sweep and have no key); the tables sweeps and sweep_params and the index
 *           runs_by_key were created.
 *   3 -> 4  the tables warnings and labels were created (empty: earlier runs recorded none); run_summary
 *           gained horizon_s, scenario_path, overrides, the warning count and the issue-12 metrics. The
 *           per-sweep views name run_summary's columns of their time, all still there, and are kept.
 *   4 -> 5  the views t975 and point_stats (analysis/stats_view.sql) were created; no table changed.
 *   5 -> 6  the table charges was created (empty: earlier runs recorded no bill lines).
 *   6 -> 7  the table hours was created (empty: earlier runs recorded no hourly latency).
 *   7 -> 8  samples gained the column instances_training_plan (NULL in earlier rows: no training plans).
 *   8 -> 9  the table type_samples was created (empty: earlier runs recorded no samples by type).
 *   9 -> 10 the indexes runs_by_sweep, sweeps_by_name and labels_by_key were created (no row changes);
 *           and the tables run_inputs and run_claims were created (empty: earlier runs recorded no input files;
 *           a resume runs again those whose scenario names a file, their keys having changed).
 *   10 -> 11 run_summary gained slo_violations_slowed (the view only: no step of its own).
 *   11 -> 12 charges gained use (the table built again, earlier rows 'serving'), samples instances_jobs and
 *           runs region (NULL in earlier rows).
 *   12 -> 13 the tables calibrations and calibration_hours were created (empty).
 * run_summary is derived from the tables and holds no rows, so it is always rebuilt last, from the current
 * summary_view.sql, whatever shape the older build wrote: a version that changes a table adds its step
 * above the rebuild (guarded by `from`); one that changes only the view needs no step of its own.
 */
static int schema_upgrade(struct store *st, int from, struct diag *d, const char *what)
{
	char sql[48];
	int status;

	assert(from >= 1 && from < STORE_SCHEMA_VERSION);
	status = from < 2 ? store_exec(st, "ALTER TABLE samples ADD COLUMN copies REAL", d, what) : STATUS_OK;
	if (status == STATUS_OK && from < 3)
		status = store_exec(st, schema_v3_sql, d, what);
	if (status == STATUS_OK && from < 4)
		status = store_exec(st, schema_v4_sql, d, what);
	if (status == STATUS_OK && from < 6)
		status = store_exec(st, schema_v6_sql, d, what);
	if (status == STATUS_OK && from < 7)
		status = store_exec(st, schema_v7_sql, d, what);
	if (status == STATUS_OK && from < 8)
		status = store_exec(st, "ALTER TABLE samples ADD COLUMN instances_training_plan REAL", d, what);
	if (status == STATUS_OK && from < 9)
		status = store_exec(st, schema_v9_sql, d, what);
	/* 9 -> 10, issue 29: indexes only (kept as its own step, apart from any other change of version 10) */
	if (status == STATUS_OK && from < 10)
		status = store_exec(st, schema_v10_indexes_sql, d, what);
	/* 9 -> 10, issue 29 (inputs that cannot mix): run_inputs and run_claims */
	if (status == STATUS_OK && from < 10)
		status = store_exec(st, schema_v10_inputs_sql, d, what);
	/* 11 -> 12, issue 34: use in charges, instances_jobs, region */
	if (status == STATUS_OK && from < 12)
		status = store_exec(st, schema_v12_sql, d, what);
	/* 12 -> 13, issue 36: calibrations */
	if (status == STATUS_OK && from < 13)
		status = store_exec(st, schema_v13_sql, d, what);
	if (status == STATUS_OK)
		status = store_exec(st, "DROP VIEW IF EXISTS run_summary", d, what);
	if (status == STATUS_OK)
		status = store_exec(st, store_summary_view_sql, d, what);
	/* like run_summary, the statistics views hold no rows: always rebuilt from the current script */
	if (status == STATUS_OK)
		status = store_exec(st, "DROP VIEW IF EXISTS point_stats; DROP VIEW IF EXISTS t975", d, what);
	if (status == STATUS_OK)
		status = store_exec(st, store_stats_view_sql, d, what);
	if (status == STATUS_OK) {
		snprintf(sql, sizeof sql, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
		status = store_exec(st, sql, d, what);
	}
	return status;
}

/* The message of a migration, by the versions it goes between. */
struct migration {
	char what[96];
};

/* Inside the write transaction: the file is read again under the lock and changed only if it still
 * needs it (another process may have migrated it meanwhile). */
static int schema_migrate_body(struct store *st, void *arg, struct diag *d)
{
	struct migration *m = arg;
	struct schema_info in;
	int status;

	status = schema_read(st, &in, d);
	if (status == STATUS_OK && schema_is_older(&in)) {
		snprintf(m->what, sizeof m->what, "upgrading the results database from schema version %d to %d",
			 in.version, STORE_SCHEMA_VERSION);
		status = schema_upgrade(st, in.version, d, m->what);
	}
	return status;
}

/*
 * Migrate an older file (schema_is_older()) to STORE_SCHEMA_VERSION in one transaction. On failure the
 * transaction is rolled back, so the file is as it was, and the message names the file and the versions.
 */
static int schema_migrate(struct store *st, struct diag *d)
{
	struct migration m;

	snprintf(m.what, sizeof m.what, "upgrading the results database to schema version %d", STORE_SCHEMA_VERSION);
	return store_write_txn(st, schema_migrate_body, &m, d, m.what);
}

/* Accept a gpucap results database of a version this build knows; refuse anything else. */
static int schema_check(const struct store *st, const struct schema_info *in, struct diag *d)
{
	if (in->app_id != STORE_APPLICATION_ID)
		return diag_fail(d, STATUS_EDB, "%s: an SQLite database of another program, not a gpucap "
				 "results database (it lacks gpucap's application_id and runs table); give a new file",
				 st->path);
	if (in->version > STORE_SCHEMA_VERSION)
		return diag_fail(d, STATUS_EDB, "%s: results database schema version %d is newer than this "
				 "gpucap knows (%d); use a newer gpucap", st->path, in->version,
				 STORE_SCHEMA_VERSION);
	/*
	 * Whole files of versions 1 ... STORE_SCHEMA_VERSION - 1 were migrated by schema_migrate() before this
	 * check: an older version here means missing tables, which no migration can make up.
	 */
	if (in->version != STORE_SCHEMA_VERSION || in->tables != STORE_TABLES)
		return diag_fail(d, STATUS_EDB, "%s: a gpucap results database with schema version %d and "
				 "%d of its %d tables; the file is damaged", st->path, in->version, in->tables,
				 in->version >= 1 ? schema_tables(in->version) : STORE_TABLES);
	return STATUS_OK;
}

/*
 * Create the schema in a new or empty file, or migrate a file of an older version, then check that the
 * file is one we can write.
 */
int store_schema_ensure(struct store *st, struct diag *d)
{
	struct schema_info in;
	int status;

	status = schema_read(st, &in, d);
	if (status == STATUS_OK && schema_is_empty(&in)) {
		status = schema_create(st, d);
		if (status == STATUS_OK)
			status = schema_read(st, &in, d);
	}
	if (status == STATUS_OK && schema_is_older(&in)) {
		status = schema_migrate(st, d);
		if (status == STATUS_OK)
			status = schema_read(st, &in, d);
	}
	if (status == STATUS_OK)
		status = schema_check(st, &in, d);
	return status;
}
