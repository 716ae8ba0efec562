/*
 * store: the SQLite results database, and the sink that writes runs into it.
 *
 * One file holds many runs; its schema is analysis/schema.sql (the tables, compiled in as store_schema_sql)
 * and analysis/summary_view.sql (the run_summary view, store_summary_view_sql), versioned by PRAGMA
 * user_version and marked as gpucap's by PRAGMA application_id. store_open() creates the file and the
 * schema when the file is new or empty, and otherwise reads it to check that it is a gpucap results
 * database of a version this build knows: opening an existing file of the current version and closing it
 * without a run leaves its bytes unchanged. A file of an older version (written by an older gpucap) is
 * first migrated to the current one, in one transaction that changes no row of an earlier run; if the
 * migration fails, it is rolled back and the file is left as it was. A file that is not SQLite, an SQLite
 * file of another program, a file written by a newer gpucap and a damaged one (tables missing) are refused
 * (STATUS_EDB, the message names the file); nothing is written to them.
 *
 * Each run is one transaction (BEGIN IMMEDIATE at sink begin(), COMMIT at end(STATUS_OK)), so a run is in
 * the file whole or not at all: a failed run, a full disk or a killed process leaves the runs committed
 * before it intact and nothing of itself. Several processes may write one file: each waits up to
 * STORE_BUSY_TIMEOUT_MS for the others' runs to commit rather than fail. The write lock is held from
 * begin() to end(), so a writer whose run takes longer than that makes the others fail ("database is
 * locked"), and a reader holding a transaction that long makes a commit fail: for sweeps over many
 * processes, give each process its own file and merge them. The journal is SQLite's default rollback
 * journal, so no -wal/-shm files are left beside the database.
 *
 * Errors are STATUS_EDB (STATUS_ENOMEM when SQLite ran out of memory) with "FILE: SQLite's message (while
 * doing what)" in the diag. The store prints nothing. One store is one connection: use it from one thread.
 */
#ifndef GPUCAP_STORE_H
#define GPUCAP_STORE_H

#include <stdint.h>

#include "diag.h"
#include "sink.h"

#define STORE_SCHEMA_VERSION 2        /* the PRAGMA user_version this build writes and reads */
#define STORE_BUSY_TIMEOUT_MS 5000    /* how long a writer waits for another process's transaction */

struct store;  /* opaque: one open results database */

/*
 * Open the results database at `path` (borrowed; copied for messages), creating the file and the schema if
 * the file does not exist or is empty. On success *out is a new store (returns owned: store_close() it);
 * on failure *out is unchanged and the message in *d names the file.
 * Returns STATUS_OK, STATUS_EDB (cannot open or create, not a database, a foreign SQLite file, a newer
 * schema version, a damaged file, an older file whose migration failed) or STATUS_ENOMEM.
 */
int store_open(struct store **out, const char *path, struct diag *d);

/*
 * Close the database and free the store. A run still open (begin() without end()) is rolled back.
 * NULL is allowed.
 */
void store_close(struct store *st);

/*
 * A sink (models/sink.h) that writes each run into st: begin() starts the transaction and inserts the runs
 * row, samples()/events()/metrics() insert rows (NaN is stored as NULL), end(STATUS_OK, wall_s) records
 * wall_s and commits, end(any failure) rolls everything of the run back. The sink keeps st and d (both must
 * outlive it); d receives the messages of failed calls. A store serves one sink at a time: a later
 * store_sink() call redirects messages to its d.
 */
struct sink store_sink(struct store *st, struct diag *d);

/* The run_id of the last run committed through this store, 0 if none since store_open(). */
int64_t store_last_run_id(const struct store *st);

/*
 * Cap the database file at max_pages pages (> 0) for the rest of this connection (PRAGMA max_page_count;
 * the file is not changed). A write that would grow the file past the cap fails as a full disk would.
 * A cap below the current size holds the file at its current size. Returns STATUS_OK or STATUS_EDB.
 */
int store_limit_pages(struct store *st, int max_pages);

#endif
