/* store: see store.h. */
#include "store.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "scenario.h"
#include "status.h"

/* analysis/schema.sql (the tables) and analysis/summary_view.sql (run_summary), embedded by embed.cmake. */
extern const char store_schema_sql[];
extern const char store_summary_view_sql[];

#define STORE_APPLICATION_ID 0x47504350  /* 'GPCP': PRAGMA application_id, set by schema.sql */
#define STORE_TABLES 4                   /* runs, metrics, samples, events */
#define US_PER_S 1e6

/* The statements a store prepares once, at open, and resets and rebinds for every row. */
enum stmt_id {
	STMT_RUN,     /* insert the runs row at begin() */
	STMT_FINISH,  /* mark the run ok and record wall_s at end() */
	STMT_SAMPLE,  /* insert one samples row */
	STMT_EVENT,   /* insert one events row */
	STMT_METRIC,  /* insert one metrics row */
	STMT_COUNT
};

/* samples has one instances_* column per option kind, in enum order (option.h), bound as ?6 ... ?11. */
_Static_assert(OPTION_KIND_COUNT == 6, "update schema.sql, the samples statement and its binding");

/* Multi-line literals are parenthesised so that clang does not take them for a missing comma. */
static const char *const stmt_sql[STMT_COUNT] = {
	[STMT_RUN] = ("INSERT INTO runs (name, scenario_path, scenario_text, overrides, seed, status, "
		      "started_at, version, horizon_s, instance_type) "
		      "VALUES (?1, ?2, ?3, ?4, ?5, 'running', ?6, ?7, ?8, ?9)"),
	[STMT_FINISH] = "UPDATE runs SET status = 'ok', wall_s = ?2 WHERE run_id = ?1",
	[STMT_SAMPLE] = ("INSERT INTO samples (run_id, t_s, arrival_rate_per_s, queue_len, busy_slots, "
			 "instances_reserved, instances_on_demand, instances_spot, instances_odcr, "
			 "instances_savings_plan, instances_capacity_block, instances_total, cost_usd_per_h, copies) "
			 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"),
	[STMT_EVENT] = ("INSERT INTO events (run_id, seq, t_s, kind, option, count, detail) "
			"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"),
	[STMT_METRIC] = "INSERT INTO metrics (run_id, name, value) VALUES (?1, ?2, ?3)",
};

struct store {
	sqlite3 *db;                       /* the connection, owned */
	char *path;                        /* the file name as given, owned, for messages */
	sqlite3_stmt *stmt[STMT_COUNT];    /* prepared statements, owned */
	struct diag *d;                    /* where the sink's messages go, kept; NULL drops them */
	int64_t run_id;                    /* the run being written, 0 between runs */
	int64_t event_seq;                 /* seq of the last event written in the open run */
	int64_t last_run_id;               /* the last run committed, 0 if none */
	bool failed;                       /* a call of the open run failed: only end(failure) may follow */
};

/* What store_open() reads from a file to decide whether it is ours. */
struct schema_info {
	int app_id;   /* PRAGMA application_id */
	int version;  /* PRAGMA user_version */
	int objects;  /* rows of sqlite_master: tables, indexes, views, triggers */
	int tables;   /* how many of gpucap's tables exist */
};

/*
 * Write "FILE: SQLite's message (while what)" for the connection's last error into d and return
 * STATUS_ENOMEM if SQLite ran out of memory, STATUS_EDB otherwise. Call it before anything else touches
 * the connection (a ROLLBACK would replace the message).
 */
static int db_error(const struct store *st, struct diag *d, const char *what)
{
	int status = sqlite3_errcode(st->db) == SQLITE_NOMEM ? STATUS_ENOMEM : STATUS_EDB;

	return diag_fail(d, status, "%s: %s (while %s)", st->path, sqlite3_errmsg(st->db), what);
}

/* Run one statement with no result rows (BEGIN, COMMIT, a PRAGMA); returns STATUS_OK or db_error(). */
static int exec_sql(struct store *st, const char *sql, struct diag *d, const char *what)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(st, d, what);
	return STATUS_OK;
}

/* Roll back the open transaction, if SQLite has not already done so (it does on some errors). */
static int rollback(struct store *st, struct diag *d)
{
	if (sqlite3_get_autocommit(st->db))
		return STATUS_OK;
	return exec_sql(st, "ROLLBACK", d, "rolling back a run");
}

/* Run a query that returns one integer (a PRAGMA, a count) into *val. */
static int query_int(struct store *st, const char *sql, int *val, struct diag *d)
{
	sqlite3_stmt *stmt;
	int status = STATUS_OK;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return db_error(st, d, "checking it is a gpucap results database");
	if (sqlite3_step(stmt) == SQLITE_ROW)
		*val = sqlite3_column_int(stmt, 0);
	else
		status = db_error(st, d, "checking it is a gpucap results database");
	sqlite3_finalize(stmt);
	return status;
}

/* Read what identifies the file; only reads, so an existing file is left as it was. */
static int schema_read(struct store *st, struct schema_info *in, struct diag *d)
{
	int status;

	status = query_int(st, "PRAGMA application_id", &in->app_id, d);
	if (status == STATUS_OK)
		status = query_int(st, "PRAGMA user_version", &in->version, d);
	if (status == STATUS_OK)
		status = query_int(st, "SELECT count(*) FROM sqlite_master", &in->objects, d);
	if (status == STATUS_OK)
		status = query_int(st, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
				   "name IN ('runs', 'metrics', 'samples', 'events')", &in->tables, d);
	return status;
}

/* A new file, or an empty one (size 0): nothing in it, no version, no owner. */
static bool schema_is_empty(const struct schema_info *in)
{
	return in->objects == 0 && in->version == 0 && in->app_id == 0;
}

/*
 * Create the schema in one transaction: the tables, then the view. BEGIN IMMEDIATE waits for another
 * process that may be creating it too; the file is read again under the lock and the scripts run only if
 * it is still empty.
 */
static int schema_create(struct store *st, struct diag *d)
{
	struct schema_info in;
	int status;

	status = exec_sql(st, "BEGIN IMMEDIATE", d, "creating the schema");
	if (status != STATUS_OK)
		return status;
	status = schema_read(st, &in, d);
	if (status == STATUS_OK && schema_is_empty(&in)) {
		status = exec_sql(st, store_schema_sql, d, "creating the schema");
		if (status == STATUS_OK)
			status = exec_sql(st, store_summary_view_sql, d, "creating the schema");
	}
	if (status == STATUS_OK)
		status = exec_sql(st, "COMMIT", d, "creating the schema");
	if (status != STATUS_OK)
		rollback(st, NULL);  /* the first message is the one to keep */
	return status;
}

/*
 * A whole gpucap results database of an older schema version, which schema_migrate() brings up to date.
 * One that lacks some of the tables is damaged, and is refused rather than migrated.
 */
static bool schema_is_older(const struct schema_info *in)
{
	return in->app_id == STORE_APPLICATION_ID && in->version >= 1 && in->version < STORE_SCHEMA_VERSION &&
	       in->tables == STORE_TABLES;
}

/*
 * Bring a file of schema version `from` up to STORE_SCHEMA_VERSION, inside the caller's transaction.
 * The steps, by version:
 *   1 -> 2  samples gained the column copies (NULL in earlier rows: those runs had no copies);
 *           run_summary gained time_under_provisioned_s, time_over_provisioned_s, copy_hours and
 *           copy_loads.
 * run_summary is derived from the tables and holds no rows, so it is always rebuilt last, from the current
 * summary_view.sql, whatever shape the older build wrote: a version that changes a table adds its step
 * above the rebuild (guarded by `from`); one that changes only the view needs no step of its own.
 */
static int schema_upgrade(struct store *st, int from, struct diag *d, const char *what)
{
	char sql[48];
	int status;

	assert(from >= 1 && from < STORE_SCHEMA_VERSION);
	status = from < 2 ? exec_sql(st, "ALTER TABLE samples ADD COLUMN copies REAL", d, what) : STATUS_OK;
	if (status == STATUS_OK)
		status = exec_sql(st, "DROP VIEW IF EXISTS run_summary", d, what);
	if (status == STATUS_OK)
		status = exec_sql(st, store_summary_view_sql, d, what);
	if (status == STATUS_OK) {
		snprintf(sql, sizeof sql, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
		status = exec_sql(st, sql, d, what);
	}
	return status;
}

/*
 * Migrate an older file (schema_is_older()) to STORE_SCHEMA_VERSION in one transaction. BEGIN IMMEDIATE
 * waits for another process that may be migrating it too, or writing a run; the file is read again under
 * the lock and changed only if it still needs it. On failure the transaction is rolled back, so the file
 * is as it was, and the message names the file and the versions.
 */
static int schema_migrate(struct store *st, struct diag *d)
{
	struct schema_info in;
	char what[96];
	int status;

	snprintf(what, sizeof what, "upgrading the results database to schema version %d", STORE_SCHEMA_VERSION);
	status = exec_sql(st, "BEGIN IMMEDIATE", d, what);
	if (status != STATUS_OK)
		return status;
	status = schema_read(st, &in, d);
	if (status == STATUS_OK && schema_is_older(&in)) {
		snprintf(what, sizeof what, "upgrading the results database from schema version %d to %d",
			 in.version, STORE_SCHEMA_VERSION);
		status = schema_upgrade(st, in.version, d, what);
	}
	if (status == STATUS_OK)
		status = exec_sql(st, "COMMIT", d, what);
	if (status != STATUS_OK)
		rollback(st, NULL);  /* the first message is the one to keep */
	return status;
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
				 STORE_TABLES);
	return STATUS_OK;
}

/*
 * Create the schema in a new or empty file, or migrate a file of an older version, then check that the
 * file is one we can write.
 */
static int schema_ensure(struct store *st, struct diag *d)
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

/* Settings of the connection only (nothing is written to the file). */
static int connection_setup(struct store *st, struct diag *d)
{
	sqlite3_busy_timeout(st->db, STORE_BUSY_TIMEOUT_MS);
	return exec_sql(st, "PRAGMA foreign_keys = ON", d, "opening");
}

static void stmts_finalize(struct store *st)
{
	for (int i = 0; i < STMT_COUNT; i++) {
		sqlite3_finalize(st->stmt[i]);  /* NULL is a no-op */
		st->stmt[i] = NULL;
	}
}

static int stmts_prepare(struct store *st, struct diag *d)
{
	for (int i = 0; i < STMT_COUNT; i++) {
		if (sqlite3_prepare_v3(st->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &st->stmt[i],
				       NULL) != SQLITE_OK)
			return db_error(st, d, "preparing statements");
	}
	return STATUS_OK;
}

int store_open(struct store **out, const char *path, struct diag *d)
{
	struct store *st;
	int status;

	st = calloc(1, sizeof *st);
	if (!st)
		return diag_fail(d, STATUS_ENOMEM, "%s: out of memory opening the results database", path);
	st->path = strdup(path);
	if (!st->path) {
		status = diag_fail(d, STATUS_ENOMEM, "%s: out of memory opening the results database", path);
		goto out_free_store;
	}
	/* On failure SQLite still returns a handle (NULL only without memory) that must be closed. */
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		status = db_error(st, d, "opening");
		goto out_close_db;
	}
	status = connection_setup(st, d);
	if (status == STATUS_OK)
		status = schema_ensure(st, d);
	if (status != STATUS_OK)
		goto out_close_db;
	status = stmts_prepare(st, d);
	if (status != STATUS_OK)
		goto out_finalize;
	*out = st;
	return STATUS_OK;

out_finalize:
	stmts_finalize(st);
out_close_db:
	sqlite3_close(st->db);
	free(st->path);
out_free_store:
	free(st);
	return status;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	rollback(st, NULL);  /* a run begun and never ended leaves nothing */
	stmts_finalize(st);
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

int64_t store_last_run_id(const struct store *st)
{
	return st->last_run_id;
}

int store_limit_pages(struct store *st, int max_pages)
{
	char sql[64];

	assert(max_pages > 0);
	snprintf(sql, sizeof sql, "PRAGMA max_page_count = %d", max_pages);
	return exec_sql(st, sql, NULL, "limiting the file size");
}

/*
 * Binding one row. The first failing bind is kept in rc and the rest are skipped, so that SQLite's
 * message for it is still there when the row is given up. Texts are bound without a copy: every row is
 * stepped before the sink call returns, while the caller's strings are alive.
 */
struct binder {
	sqlite3_stmt *stmt;  /* the statement being bound, borrowed */
	int rc;              /* SQLITE_OK, or the first bind's error */
};

static void bind_real(struct binder *b, int i, double v)
{
	if (b->rc == SQLITE_OK)
		b->rc = isnan(v) ? sqlite3_bind_null(b->stmt, i) : sqlite3_bind_double(b->stmt, i, v);
}

static void bind_int64(struct binder *b, int i, int64_t v)
{
	if (b->rc == SQLITE_OK)
		b->rc = sqlite3_bind_int64(b->stmt, i, v);
}

/* Bind text of len bytes (-1: up to the NUL); NULL binds SQL NULL. */
static void bind_text(struct binder *b, int i, const char *s, int len)
{
	if (b->rc == SQLITE_OK)
		b->rc = sqlite3_bind_text(b->stmt, i, s, len, SQLITE_STATIC);
}

/*
 * Step a bound statement that returns no rows and reset it. On failure the open run is marked failed and
 * the message ("while <what>") goes to the sink's diag.
 */
static int row_write(struct store *st, struct binder *b, const char *what)
{
	int status = STATUS_OK;

	if (b->rc == SQLITE_OK)
		b->rc = sqlite3_step(b->stmt);
	if (b->rc != SQLITE_DONE) {
		status = db_error(st, st->d, what);
		st->failed = true;
	}
	sqlite3_reset(b->stmt);
	return status;
}

/* The unsigned seed as the int64 with the same bits (SQLite integers are signed), without overflow. */
static int64_t seed_as_int64(uint64_t seed)
{
	return seed <= INT64_MAX ? (int64_t)seed : -(int64_t)(UINT64_MAX - seed) - 1;
}

static int sink_begin(void *self, const struct sink_run_info *info)
{
	struct store *st = self;
	const struct scenario *sc = info->scenario;
	struct binder b = { st->stmt[STMT_RUN], SQLITE_OK };
	int status;

	assert(st->run_id == 0 && sqlite3_get_autocommit(st->db));
	assert(sc->text && sc->overrides && info->started_at && info->version);
	status = exec_sql(st, "BEGIN IMMEDIATE", st->d, "starting a run");
	if (status != STATUS_OK)
		return status;
	bind_text(&b, 1, sc->name, -1);
	bind_text(&b, 2, sc->path, -1);
	bind_text(&b, 3, sc->text, -1);
	bind_text(&b, 4, sc->overrides, -1);
	bind_int64(&b, 5, seed_as_int64(sc->seed));
	bind_text(&b, 6, info->started_at, -1);
	bind_text(&b, 7, info->version, -1);
	bind_real(&b, 8, (double)sc->horizon_us / US_PER_S);
	bind_text(&b, 9, sc->serving.instance_type, -1);
	status = row_write(st, &b, "starting a run");
	if (status != STATUS_OK) {
		rollback(st, NULL);  /* no run is open: end() after this has nothing to undo */
		st->failed = false;
		return status;
	}
	st->run_id = sqlite3_last_insert_rowid(st->db);
	st->event_seq = 0;
	return STATUS_OK;
}

static int sink_samples(void *self, const struct sink_sample *rows, size_t n)
{
	struct store *st = self;

	assert(st->run_id != 0 && !st->failed);
	for (size_t i = 0; i < n; i++) {
		const struct sink_sample *r = &rows[i];
		struct binder b = { st->stmt[STMT_SAMPLE], SQLITE_OK };
		int status;

		bind_int64(&b, 1, st->run_id);
		bind_real(&b, 2, r->t_s);
		bind_real(&b, 3, r->arrival_rate_per_s);
		bind_real(&b, 4, r->queue_len);
		bind_real(&b, 5, r->busy_slots);
		for (int k = 0; k < OPTION_KIND_COUNT; k++)
			bind_real(&b, 6 + k, r->instances[k]);
		bind_real(&b, 6 + OPTION_KIND_COUNT, r->instances_total);
		bind_real(&b, 7 + OPTION_KIND_COUNT, r->cost_usd_per_h);
		bind_real(&b, 8 + OPTION_KIND_COUNT, r->copies);
		status = row_write(st, &b, "inserting samples");
		if (status != STATUS_OK)
			return status;
	}
	return STATUS_OK;
}

static int sink_events(void *self, const struct sink_event *rows, size_t n)
{
	struct store *st = self;

	assert(st->run_id != 0 && !st->failed);
	for (size_t i = 0; i < n; i++) {
		const struct sink_event *r = &rows[i];
		struct binder b = { st->stmt[STMT_EVENT], SQLITE_OK };
		int status;

		bind_int64(&b, 1, st->run_id);
		bind_int64(&b, 2, ++st->event_seq);
		bind_real(&b, 3, r->t_s);
		bind_text(&b, 4, r->kind, -1);
		bind_text(&b, 5, r->option, -1);
		bind_int64(&b, 6, r->count);
		bind_text(&b, 7, r->detail, -1);
		status = row_write(st, &b, "inserting events");
		if (status != STATUS_OK)
			return status;
	}
	return STATUS_OK;
}

static int sink_metrics(void *self, const struct sink_metric *list, size_t n)
{
	struct store *st = self;

	assert(st->run_id != 0 && !st->failed);
	for (size_t i = 0; i < n; i++) {
		struct binder b = { st->stmt[STMT_METRIC], SQLITE_OK };
		int status;

		bind_int64(&b, 1, st->run_id);
		/* The name is a fixed array: never read past it, even if it is not terminated. */
		bind_text(&b, 2, list[i].name, (int)strnlen(list[i].name, sizeof list[i].name));
		bind_real(&b, 3, list[i].value);
		status = row_write(st, &b, "inserting metrics");
		if (status != STATUS_OK)
			return status;
	}
	return STATUS_OK;
}

/* Mark the open run ok and commit it; on failure roll it back and keep the first message. */
static int run_commit(struct store *st, double wall_s)
{
	struct binder b = { st->stmt[STMT_FINISH], SQLITE_OK };
	int status;

	bind_int64(&b, 1, st->run_id);
	bind_real(&b, 2, wall_s);
	status = row_write(st, &b, "committing a run");
	if (status == STATUS_OK)
		status = exec_sql(st, "COMMIT", st->d, "committing a run");
	if (status != STATUS_OK) {
		rollback(st, NULL);
		return status;
	}
	st->last_run_id = st->run_id;
	return STATUS_OK;
}

/*
 * end(STATUS_OK) commits the run; any other status rolls it back (also when begin() failed, or a write
 * failed and SQLite already rolled back). Either way the store is ready for the next begin().
 */
static int sink_end(void *self, int status, double wall_s)
{
	struct store *st = self;
	int rc;

	if (status == STATUS_OK) {
		assert(st->run_id != 0 && !st->failed);
		rc = run_commit(st, wall_s);
	} else {
		rc = rollback(st, st->d);
	}
	st->run_id = 0;
	st->failed = false;
	return rc;
}

static const struct sink_ops store_ops = {
	sink_begin, sink_samples, sink_events, sink_metrics, sink_end,
};

struct sink store_sink(struct store *st, struct diag *d)
{
	struct sink sink = { &store_ops, st };

	st->d = d;
	return sink;
}
