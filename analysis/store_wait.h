/*
 * store_wait: how every gpucap connection to a results database waits for another process's lock.
 *
 * SQLite answers "database is locked" (SQLITE_BUSY) when another connection holds a lock it needs: a writer
 * copying a finished run (milliseconds), or a sqlite3 shell left inside BEGIN. Every connection gpucap opens,
 * the writers' (store.c) and the readers' (store_read.c), installs one busy handler that waits instead, with
 * one bound: store_wait_timeout_ms(), STORE_BUSY_TIMEOUT_MS (10 minutes) unless the environment variable
 * GPUCAP_BUSY_TIMEOUT_MS gives another (a whole number of milliseconds > 0; anything else is ignored). While
 * it waits, and only when stderr is a terminal, it prints one line after a second ("gpucap: waiting for FILE:
 * another gpucap process holds its lock") and one a minute after that saying how long it has waited, so that
 * a command stuck behind a lock says why; into a file or a pipe it prints nothing (the store's contract that
 * it prints nothing holds for scripts). When the bound runs out SQLite's call fails with SQLITE_BUSY, and the
 * caller's message says how long it waited (store_wait_note()).
 *
 * A struct store_wait is caller-owned; SQLite keeps a pointer to it, so it must not move or end while the
 * connection is open.
 */
#ifndef GPUCAP_STORE_WAIT_H
#define GPUCAP_STORE_WAIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#define STORE_WAIT_NOTICE_MS 1000     /* a wait this long gets its line on a terminal */
#define STORE_WAIT_REPEAT_MS 60000    /* and then one line a minute */

struct store_wait {
	const char *path;     /* the file waited for, borrowed (for the line) */
	const char *also;     /* another file of the connection the lock may be on (merge's input), or NULL */
	int timeout_ms;       /* the longest one wait lasts, ms */
	bool tty;             /* stderr is a terminal: say what is waited for */
	int64_t start_ms;     /* monotonic clock at the start of the current wait, ms */
	int64_t told_ms;      /* how far into the current wait the last line was printed, ms; -1: none yet */
	int64_t waited_ms;    /* ms spent in waits that ran out, since store_wait_attach() */
};

/* The bound of one wait: GPUCAP_BUSY_TIMEOUT_MS when it is a whole number > 0, else STORE_BUSY_TIMEOUT_MS. */
int store_wait_timeout_ms(void);

/* Make db wait up to timeout_ms (> 0) for a lock, with w (kept: must outlive db's use) for its state;
 * path is kept for the terminal line. */
void store_wait_attach(struct store_wait *w, sqlite3 *db, const char *path, int timeout_ms);

/*
 * After a call of db failed: when it failed on a lock (SQLITE_BUSY), "; waited N s for another process's
 * lock (GPUCAP_BUSY_TIMEOUT_MS sets the wait)" into buf, else "". w may be NULL (then N is the bound of one
 * wait, store_wait_timeout_ms()). Returns buf.
 */
const char *store_wait_note(const struct store_wait *w, sqlite3 *db, char *buf, size_t size);

#endif
