/*
 * store_db: the connection helpers every file of the store uses (store_private.h): SQLite's errors in the
 * project's words, statements without rows, write transactions that wait for another writer, and the run
 * ids of the file (the next free one, a sweep's, making room for one). Beneath store.c, store_schema.c,
 * store_sweep.c and merge.c, which call into it and which it never calls: it knows only the connection
 * and the statements store.c prepared (st->stmt).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "status.h"
#include "store_private.h"

int store_db_error(const struct store *st, struct diag *d, const char *what)
{
	int status = sqlite3_errcode(st->db) == SQLITE_NOMEM ? STATUS_ENOMEM : STATUS_EDB;
	char note[128];

	return diag_fail(d, status, "%s: %s (while %s)%s", st->path, sqlite3_errmsg(st->db), what,
			 store_wait_note(&st->wait, st->db, note, sizeof note));
}

int store_exec(struct store *st, const char *sql, struct diag *d, const char *what)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_db_error(st, d, what);
	return STATUS_OK;
}

int store_rollback(struct store *st, struct diag *d)
{
	if (sqlite3_get_autocommit(st->db))
		return STATUS_OK;
	return store_exec(st, "ROLLBACK", d, "rolling back a run");
}

/* Another connection held the lock longer than the busy timeout: worth trying the transaction again. */
static bool is_busy(const struct store *st)
{
	int rc = sqlite3_errcode(st->db);

	return rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
}

int store_write_txn(struct store *st, int (*body)(struct store *st, void *arg, struct diag *d), void *arg,
		    struct diag *d, const char *what)
{
	int status = STATUS_OK;

	for (int attempt = 0; attempt <= STORE_BUSY_RETRIES; attempt++) {
		bool busy;

		status = store_exec(st, "BEGIN IMMEDIATE", d, what);
		if (status == STATUS_OK)
			status = body(st, arg, d);
		if (status == STATUS_OK)
			status = store_exec(st, "COMMIT", d, what);
		if (status == STATUS_OK)
			return STATUS_OK;
		busy = is_busy(st);
		if (sqlite3_errcode(st->db) == SQLITE_FULL)
			st->disk_full = true;
		store_rollback(st, NULL);  /* the first message is the one to keep */
		if (!busy)
			break;
	}
	return status;
}

int store_next_run_id(struct store *st, int64_t *run_id, struct diag *d, const char *what)
{
	static const char sql[] = ("SELECT max(coalesce((SELECT max(run_id) FROM main.runs), 0), "
				   "coalesce((SELECT max(run_id_base + npoints * nreps - 1) FROM main.sweeps), 0)) + 1");
	sqlite3_stmt *stmt;
	int status = STATUS_OK;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return store_db_error(st, d, what);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		*run_id = sqlite3_column_int64(stmt, 0);
	else
		status = store_db_error(st, d, what);
	sqlite3_finalize(stmt);
	return status;
}

void store_now(char out[32])
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int64_t store_seed_as_int64(uint64_t seed)
{
	return seed <= INT64_MAX ? (int64_t)seed : -(int64_t)(UINT64_MAX - seed) - 1;
}

int store_step_done(const struct store *st, sqlite3_stmt *stmt, int rc, struct diag *d, const char *what)
{
	int status = rc == SQLITE_DONE ? STATUS_OK : store_db_error(st, d, what);

	sqlite3_reset(stmt);
	return status;
}

int store_step_with_id(struct store *st, enum store_stmt_id id, int64_t run_id, struct diag *d,
			const char *what)
{
	sqlite3_stmt *stmt = st->stmt[id];
	int rc = sqlite3_bind_int64(stmt, 1, run_id);

	if (rc == SQLITE_OK)
		rc = sqlite3_step(stmt);
	return store_step_done(st, stmt, rc, d, what);
}

/*
 * The status of run run_id in the file ('ok', 'failed', ...) into status_out (size 16), "" when there is
 * no such run.
 */
static int run_status(struct store *st, int64_t run_id, char status_out[16], struct diag *d, const char *what)
{
	sqlite3_stmt *stmt = st->stmt[STMT_STATUS];
	int rc = sqlite3_bind_int64(stmt, 1, run_id);

	status_out[0] = '\0';
	if (rc == SQLITE_OK)
		rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		snprintf(status_out, 16, "%s", (const char *)sqlite3_column_text(stmt, 0));
		rc = SQLITE_DONE;
	}
	return store_step_done(st, stmt, rc, d, what);
}

int store_tag_run_id(struct store *st, const struct store_run_tag *tag, int64_t *run_id, struct diag *d,
		      const char *what)
{
	sqlite3_stmt *stmt;
	int status = STATUS_OK;

	if (tag->run_id) {
		*run_id = tag->run_id;
		return STATUS_OK;
	}
	if (!tag->sweep_id)
		return store_next_run_id(st, run_id, d, what);
	if (sqlite3_prepare_v2(st->db, "SELECT run_id_base + ?2 * nreps + ?3 FROM main.sweeps WHERE sweep_id = ?1",
			       -1, &stmt, NULL) != SQLITE_OK)
		return store_db_error(st, d, what);
	sqlite3_bind_int64(stmt, 1, tag->sweep_id);
	sqlite3_bind_int(stmt, 2, tag->point);
	sqlite3_bind_int(stmt, 3, tag->replication);
	switch (sqlite3_step(stmt)) {
	case SQLITE_ROW: *run_id = sqlite3_column_int64(stmt, 0); break;
	case SQLITE_DONE:
		status = diag_fail(d, STATUS_EDB, "%s: no sweep %lld (while %s)", st->path,
				   (long long)tag->sweep_id, what);
		break;
	default: status = store_db_error(st, d, what); break;
	}
	sqlite3_finalize(stmt);
	return status;
}

int store_run_slot(struct store *st, int64_t run_id, bool *skip, struct diag *d, const char *what)
{
	char status_text[16];
	int status = run_status(st, run_id, status_text, d, what);

	*skip = false;
	if (status != STATUS_OK || !status_text[0])
		return status;
	if (strcmp(status_text, "failed") != 0) {
		*skip = true;
		return STATUS_OK;
	}
	return store_step_with_id(st, STMT_DELETE, run_id, d, what);
}
