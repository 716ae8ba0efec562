/* store_wait: see store_wait.h. */
#include "store_wait.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "store.h"

int store_wait_timeout_ms(void)
{
	const char *s = getenv("GPUCAP_BUSY_TIMEOUT_MS");
	char *end;
	long v;

	if (!s || !*s)
		return STORE_BUSY_TIMEOUT_MS;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0 || v > 24L * 3600 * 1000)
		return STORE_BUSY_TIMEOUT_MS;
	return (int)v;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The line on a terminal: the first after STORE_WAIT_NOTICE_MS, then one every STORE_WAIT_REPEAT_MS. */
static void tell(struct store_wait *w, int64_t waited)
{
	const char *also = w->also ? " or " : "", *other = w->also ? w->also : "";

	if (!w->tty || waited < STORE_WAIT_NOTICE_MS)
		return;
	if (w->told_ms < 0) {
		fprintf(stderr, "gpucap: waiting for %s%s%s: another gpucap process holds its lock (waits up to "
			"%d s)\n", w->path, also, other, (w->timeout_ms + 999) / 1000);
		w->told_ms = waited;
	} else if (waited - w->told_ms >= STORE_WAIT_REPEAT_MS) {
		fprintf(stderr, "gpucap: still waiting for %s%s%s after %lld s (gives up after %d s)\n", w->path,
			also, other, (long long)(waited / 1000), (w->timeout_ms + 999) / 1000);
		w->told_ms = waited;
	}
}

/*
 * SQLite's busy handler: count is 0 at the start of each wait. Sleeps a little longer each time (1 ms up to
 * 100 ms, as SQLite's own handler), so a lock held for milliseconds costs milliseconds. Returns 0 (give up:
 * SQLITE_BUSY) once the wait has lasted timeout_ms.
 */
static int wait_busy(void *arg, int count)
{
	static const int delay_ms[] = { 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 };
	const int ndelays = (int)(sizeof delay_ms / sizeof delay_ms[0]);
	struct store_wait *w = arg;
	int64_t waited, left;
	int ms;

	if (count == 0) {
		w->start_ms = now_ms();
		w->told_ms = -1;
	}
	waited = now_ms() - w->start_ms;
	left = w->timeout_ms - waited;
	if (left <= 0) {
		w->waited_ms += waited;
		return 0;
	}
	tell(w, waited);
	ms = delay_ms[count < ndelays ? count : ndelays - 1];
	if (ms > left)
		ms = (int)left;
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
	return 1;
}

void store_wait_attach(struct store_wait *w, sqlite3 *db, const char *path, int timeout_ms)
{
	assert(timeout_ms > 0);
	*w = (struct store_wait){ .path = path, .timeout_ms = timeout_ms, .tty = isatty(STDERR_FILENO) == 1,
				  .told_ms = -1 };
	sqlite3_busy_handler(db, wait_busy, w);
}

const char *store_wait_note(const struct store_wait *w, sqlite3 *db, char *buf, size_t size)
{
	int64_t ms = w && w->waited_ms > 0 ? w->waited_ms : store_wait_timeout_ms();

	buf[0] = '\0';
	if ((sqlite3_errcode(db) & 0xff) == SQLITE_BUSY)
		snprintf(buf, size, "; waited %.1f s for another process's lock (GPUCAP_BUSY_TIMEOUT_MS sets the "
			 "wait)", (double)ms / 1000);
	return buf;
}
