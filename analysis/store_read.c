/* store_read: see store_read.h. */
#include "store_read.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "status.h"
#include "store.h"

int store_read_fail(sqlite3 *db, const struct store_wait *w, const char *path, struct diag *d, const char *what)
{
	int status = sqlite3_errcode(db) == SQLITE_NOMEM ? STATUS_ENOMEM : STATUS_EDB;
	char note[128];

	return diag_fail(d, status, "%s: %s (while %s)%s", path, sqlite3_errmsg(db), what,
			 store_wait_note(w, db, note, sizeof note));
}

/* What can be refused before SQLite sees the path: "", a missing file, a directory, a FIFO, a device. */
static int path_check(const char *path, struct diag *d)
{
	struct stat sb;

	if (path[0] == '\0')
		return diag_fail(d, STATUS_EUSAGE, "'': expected the path of a results database");
	if (stat(path, &sb) != 0)
		return diag_fail(d, STATUS_ENOENT, "%s: %s; expected a results database (gpucap run --db, gpucap "
				 "sweep --db)", path, strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return diag_fail(d, STATUS_EINPUT, "%s: is a directory, not a results database", path);
	if (!S_ISREG(sb.st_mode))
		return diag_fail(d, STATUS_EINPUT, "%s: not a regular file, not a results database", path);
	return STATUS_OK;
}

/* The file's application_id and user_version, read in one statement (one read transaction). Returns
 * SQLite's result code; the message stays on r->db. */
static int header_read(struct store_reader *r, int *app_id)
{
	sqlite3_stmt *stmt;
	int rc = sqlite3_prepare_v2(r->db, "SELECT (SELECT application_id FROM pragma_application_id), "
				    "(SELECT user_version FROM pragma_user_version)", -1, &stmt, NULL);

	if (rc != SQLITE_OK)
		return sqlite3_extended_errcode(r->db);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		*app_id = sqlite3_column_int(stmt, 0);
		r->version = sqlite3_column_int(stmt, 1);
		rc = SQLITE_OK;
	} else {
		rc = sqlite3_extended_errcode(r->db);
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int reader_connect(struct store_reader *r, struct diag *d)
{
	/* On failure SQLite still returns a handle (NULL only without memory) that must be closed. */
	if (sqlite3_open_v2(r->path, &r->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		int status = store_read_fail(r->db, NULL, r->path, d, "opening it to read");
		store_read_close(r);
		return status;
	}
	store_wait_attach(&r->wait, r->db, r->path, store_wait_timeout_ms());
	return STATUS_OK;
}

/*
 * Roll back the hot journal beside r->path: a read-write connection (the file is never created: it exists)
 * rolls it back on its first read. Fails, saying what to run, when this user cannot write the file or the
 * folder (SQLite then opens the file read-only, or cannot delete the journal).
 */
static int journal_recover(struct store_reader *r, struct diag *d)
{
	struct store_wait w = { .path = NULL };  /* zero: store_wait_note() may read it after a failed open */
	sqlite3 *rw = NULL;
	int rc = sqlite3_open_v2(r->path, &rw, SQLITE_OPEN_READWRITE, NULL), status = STATUS_OK;
	char *copy, note[128];

	if (rc == SQLITE_OK) {
		store_wait_attach(&w, rw, r->path, store_wait_timeout_ms());
		rc = sqlite3_exec(rw, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
	}
	if (rc == SQLITE_OK) {
		sqlite3_close(rw);
		return STATUS_OK;
	}
	if ((rc & 0xff) == SQLITE_BUSY) {
		status = diag_fail(d, STATUS_EDB, "%s: %s (while rolling back %s-journal, left by a killed writer)%s",
				   r->path, sqlite3_errmsg(rw), r->path, store_wait_note(&w, rw, note, sizeof note));
		sqlite3_close(rw);
		return status;
	}
	copy = strdup(r->path);
	status = diag_fail(d, STATUS_EDB, "%s: %s-journal, left by a writer that was killed inside a transaction, "
			   "must be rolled back before the file can be read, and this user cannot (%s): run `sqlite3 "
			   "%s 'PRAGMA integrity_check'` (or any gpucap command on it) as a user who can write %s and "
			   "the folder %s", r->path, r->path, sqlite3_errmsg(rw), r->path, r->path,
			   copy ? dirname(copy) : "it is in");
	free(copy);
	sqlite3_close(rw);
	return status;
}

/* Refuse a file that is not a gpucap results database of a version the caller reads. */
static int version_check(const struct store_reader *r, int app_id, int min_version, const char *command,
			 struct diag *d)
{
	if (app_id != STORE_APPLICATION_ID)
		return diag_fail(d, STATUS_EINPUT, "%s: not a gpucap results database (an SQLite file of another "
				 "program, or an empty one)", r->path);
	if (r->version > STORE_SCHEMA_VERSION)
		return diag_fail(d, STATUS_EINPUT, "%s: results database schema version %d is newer than this "
				 "gpucap knows (%d); use a newer gpucap", r->path, r->version, STORE_SCHEMA_VERSION);
	if (r->version < min_version && min_version == STORE_SCHEMA_VERSION)
		return diag_fail(d, STATUS_EINPUT, "%s: results database schema version %d, but %s takes only "
				 "version %d (the version this gpucap writes; `gpucap run --db` on a copy of an older "
				 "file upgrades it)", r->path, r->version, command, STORE_SCHEMA_VERSION);
	if (r->version < min_version)
		return diag_fail(d, STATUS_EINPUT, "%s: results database schema version %d; %s reads versions %d to "
				 "%d (`gpucap run --db` on a copy of an older file upgrades it)", r->path, r->version,
				 command, min_version, STORE_SCHEMA_VERSION);
	return STATUS_OK;
}

int store_read_open(struct store_reader *r, const char *path, int min_version, const char *command,
		    struct diag *d)
{
	int status, rc, app_id = 0;

	*r = (struct store_reader){ .path = path };
	status = path_check(path, d);
	if (status == STATUS_OK)
		status = reader_connect(r, d);
	if (status != STATUS_OK)
		return status;
	rc = header_read(r, &app_id);
	if (rc == SQLITE_READONLY_ROLLBACK) {
		store_read_close(r);
		status = journal_recover(r, d);
		if (status == STATUS_OK)
			status = reader_connect(r, d);
		if (status != STATUS_OK)
			return status;
		rc = header_read(r, &app_id);
	}
	if ((rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT)
		status = diag_fail(d, STATUS_EINPUT, "%s: not a results database, or a damaged one (%s)", path,
				   sqlite3_errmsg(r->db));
	else if (rc != SQLITE_OK)
		status = store_read_fail(r->db, &r->wait, path, d, "opening it to read");
	else
		status = version_check(r, app_id, min_version, command, d);
	if (status != STATUS_OK)
		store_read_close(r);
	return status;
}

void store_read_close(struct store_reader *r)
{
	sqlite3_close(r->db);  /* NULL is a no-op */
	r->db = NULL;
}
