/*
 * store_read: opening a results database to read it. Every command that reads one (compare, report,
 * export, merge's inputs) opens it here, so that all of them refuse the same files with the same words and
 * wait for a lock the same way.
 *
 * store_read_open() opens the file read-only and refuses (nothing is written, the message names the file):
 * "" (STATUS_EUSAGE); a missing file (STATUS_ENOENT); a directory ("FILE: is a directory, not a results
 * database"), a FIFO or a device, a file that is not SQLite, an SQLite file of another program, a file of a
 * newer schema version than this build ("... is newer than this gpucap knows (N)", both versions named) or
 * one older than the caller can read (all STATUS_EINPUT). It waits for another process's lock as writers do
 * (store_wait.h); a wait that runs out is STATUS_EDB with "waited N s" in the message.
 *
 * A hot journal (FILE-journal left by a writer killed inside a transaction) makes every read-only connection
 * fail with "attempt to write a readonly database" (SQLITE_READONLY_ROLLBACK) until someone rolls it back.
 * store_read_open() does that itself: it opens the file read-write once (never creating it), lets SQLite roll
 * the journal back (the file is then as it was before the killed transaction) and opens it read-only again.
 * When this user cannot write the file or its folder, it fails (STATUS_EDB) with a message that says so and
 * what to run.
 */
#ifndef GPUCAP_STORE_READ_H
#define GPUCAP_STORE_READ_H

#include <sqlite3.h>

#include "diag.h"
#include "store_wait.h"

/* An open read-only connection. Caller-owned storage; it must not move while open (store_wait.h). */
struct store_reader {
	sqlite3 *db;             /* the connection, owned */
	const char *path;        /* the file as given, borrowed: must outlive the reader */
	int version;             /* the file's schema version (PRAGMA user_version) */
	struct store_wait wait;  /* the busy handler's state */
};

/*
 * Open path read-only as r (on failure r->db is NULL and nothing needs closing). min_version is the oldest
 * schema version the caller reads (1 ... STORE_SCHEMA_VERSION); command names the reader for the message
 * about an older file ("gpucap compare"). Returns STATUS_OK or the failures above.
 */
int store_read_open(struct store_reader *r, const char *path, int min_version, const char *command,
		    struct diag *d);

/* Close the connection (r->db may be NULL). */
void store_read_close(struct store_reader *r);

/*
 * "PATH: SQLite's message (while what)" for the last failed call of db into d, with store_wait_note()'s
 * words when it failed on a lock; STATUS_ENOMEM when SQLite ran out of memory, else STATUS_EDB. For readers
 * that keep only the connection and the path; w may be NULL.
 */
int store_read_fail(sqlite3 *db, const struct store_wait *w, const char *path, struct diag *d, const char *what);

#endif
