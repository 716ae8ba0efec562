/*
 * feed: a workload's requests drawn ahead, on a second thread.
 *
 * A request's draws (its arrival from the source, its service time, its sizes) depend only on the
 * workload's own random streams and files, never on what the simulation does with the requests before it
 * (workload.h: common random numbers). So they can be made ahead of the simulation, on another core, and
 * handed over in order: the simulation reads exactly the requests workload_next() would have given it, in
 * the same order, with the same statuses, and its results are byte for byte the same (check_feed, and
 * e2e_golden's runs). On a serving run the draws are about a quarter of the work per request (a
 * 30-day diurnal replay: tests/README.md, "Performance"); the simulation's thread is left the rest.
 *
 * The producer fills blocks of FEED_BLOCK requests, FEED_BLOCKS of them in a ring (512 KB, whatever
 * the trace's length: memory stays flat), and waits while the ring is full; the consumer takes a block at a
 * time. A block's handover costs a mutex and a condition variable, once per FEED_BLOCK requests; nothing is
 * allocated after feed_start. The producer stops at the workload's end (STATUS_DONE, the first arrival
 * past the horizon) or its first failure; the consumer sees that status, and the failure's message, after
 * the requests before it, exactly where workload_next would have returned it.
 *
 * Not for a workload whose draws carry prefix block ids (feed_unsuitable): those point into the
 * workload's own buffer, valid only until its next draw. The caller then draws inline, as it does when the
 * thread cannot be started.
 *
 * While a feed runs, its workload belongs to the producer: the caller must not touch it until feed_stop.
 */
#ifndef GPUCAP_FEED_H
#define GPUCAP_FEED_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "workload.h"

#define FEED_BLOCK 2048  /* requests per block (64 KB) */
#define FEED_BLOCKS 8    /* blocks in the ring: how far the producer may run ahead */
#define FEED_PREFETCH 8  /* requests ahead of the one read whose line is asked for */

/* A request as the feed carries it: a request_draw without prefix ids (a feed's never has any), in 32
 * bytes where a request_draw takes 40, so that fewer cache lines cross from one core to the other. */
struct feed_item {
	int64_t arrival_us;   /* request_draw's fields, as workload_next gave them */
	int64_t service_us;
	int32_t in_tokens;
	int32_t out_tokens;
	int32_t model;
};

struct feed_block {
	struct feed_item item[FEED_BLOCK];     /* the requests, in order */
	int n;                                 /* how many are filled */
	int status;                            /* STATUS_OK: more follow; else the workload's end or failure,
	                                          after these n */
};

struct feed_shared;  /* the producer's side and what the two share (feed.c) */

/* The consumer's side: the simulation's thread only. */
struct feed {
	const struct feed_block *cur; /* the block being read, NULL before the first */
	int pos;                      /* the next request of cur to hand out */
	int len;                      /* cur->n (0 with no block) */
	uint64_t taken;               /* blocks taken so far */
	struct workload *w;           /* the caller's: the producer draws from a copy, put back by feed_stop */
	struct feed_shared *sh;       /* owned; cache-line aligned, apart from the consumer's fields, so that
	                                 neither thread's writes evict what the other reads */
};

/* False when this process may run on one CPU only (taskset, a cgroup's cpuset): a second thread would
 * only take turns with the first there, so the caller draws inline. True when that cannot be told. */
bool feed_worthwhile(void);

/* True if w's draws can carry prefix block ids (synthetic reuse, or a trace's hash column): no feed then. */
bool feed_unsuitable(const struct workload *w);

/*
 * Start drawing w's requests ahead on a new thread (w is kept: the producer's until feed_stop).
 * STATUS_OK; STATUS_EINTERNAL when w's draws carry ids (feed_unsuitable: a caller's bug); STATUS_ENOMEM
 * when the ring or the thread cannot be had. The producer is kept off the CPU the caller runs on when it
 * starts, where the process may use another (feed.c). On failure nothing is held and w is untouched: draw inline instead.
 */
int feed_start(struct feed *f, struct workload *w);

/* Stop the producer (it finishes the block it is filling) and free the ring. The workload is the caller's
 * again, drawn up to where the producer stopped. */
void feed_stop(struct feed *f);

int feed_refill(struct feed *f, struct request_draw *out, struct diag *d);

/* The next request, as workload_next(w, out, d) would give it: STATUS_OK, STATUS_DONE, or the workload's
 * failure with its message in *d (and the same status again at every later call). */
static inline int feed_next(struct feed *f, struct request_draw *out, struct diag *d)
{
	if (f->pos < f->len) {
		/* the block was written on the other core: ask for the lines a few requests on now, so that they
		 * have come over by the time they are read (a read of such a line otherwise waits for it) */
		const struct feed_item *it = &f->cur->item[f->pos++];

		__builtin_prefetch(it + FEED_PREFETCH);
		out->arrival_us = it->arrival_us;
		out->service_us = it->service_us;
		out->in_tokens = it->in_tokens;
		out->out_tokens = it->out_tokens;
		out->hashes = NULL;
		out->nhashes = 0;
		out->model = it->model;
		return 0;  /* STATUS_OK */
	}
	return feed_refill(f, out, d);
}

#endif
