/* feed: see feed.h. */
#define _GNU_SOURCE  /* sched_getcpu, sched_getaffinity, pthread_setaffinity_np: Linux's, used where present */
#include "feed.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "status.h"

#define FEED_LINE 64  /* bytes in a cache line */

/*
 * The producer's side and what the two threads share, on cache lines of their own. The producer draws from
 * its own copy of the workload: the caller's lies in the simulation's structure, beside fields the
 * simulation writes at every event, and reading it from the other core would move those lines back and forth
 * (false sharing; measured: the two threads together slower than one). The copy's streams and source are
 * the caller's (pointers): only the copy's own fields are apart, and feed_stop puts them back.
 */
struct feed_shared {
	_Alignas(FEED_LINE) struct workload w;  /* the producer's copy of the caller's workload */
	struct diag d;                          /* the producer's failure message (read after its block is
	                                           handed over) */
	_Alignas(FEED_LINE) pthread_mutex_t mu;
	pthread_cond_t filled_cv;               /* a block was filled (made grew) */
	pthread_cond_t freed_cv;                /* a block was given back (freed grew), or stop was set */
	uint64_t made;                          /* blocks the producer has filled, under mu */
	uint64_t freed;                         /* blocks the consumer has given back, under mu */
	uint64_t wake_at;                       /* the producer sleeps until freed reaches this (0: awake),
	                                           under mu */
	bool stop;                              /* feed_stop: the producer ends at its next block, under mu */
	pthread_t thread;
	_Alignas(FEED_LINE) struct feed_block ring[FEED_BLOCKS];
};

bool feed_unsuitable(const struct workload *w)
{
	const struct scenario *sc = w->sc;

	return w->reuse != NULL || (sc->arrivals.kind == ARRIVAL_TRACE && sc->arrivals.mapping.hash_column[0] != '\0');
}

/* The producer: fill block k while the consumer reads the others; wait while all FEED_BLOCKS are its. */
static void *produce(void *arg)
{
	struct feed_shared *sh = arg;

	for (uint64_t k = 0;; k++) {
		struct feed_block *b = &sh->ring[k % FEED_BLOCKS];
		struct request_draw r;
		bool stop;
		int rc = STATUS_OK, n = 0;

		pthread_mutex_lock(&sh->mu);
		if (!sh->stop && k - sh->freed >= FEED_BLOCKS) {
			/* the ring is full: sleep until half of it is free, so that the consumer wakes this thread
			 * once per FEED_BLOCKS / 2 blocks rather than at every block (a wake is a system call) */
			sh->wake_at = k - FEED_BLOCKS / 2 + 1;
			while (!sh->stop && sh->freed < sh->wake_at)
				pthread_cond_wait(&sh->freed_cv, &sh->mu);
			sh->wake_at = 0;
		}
		stop = sh->stop;
		pthread_mutex_unlock(&sh->mu);
		if (stop)
			return NULL;
		while (n < FEED_BLOCK && (rc = workload_next(&sh->w, &r, &sh->d)) == STATUS_OK) {
			b->item[n++] = (struct feed_item){ .arrival_us = r.arrival_us, .service_us = r.service_us,
				.in_tokens = r.in_tokens, .out_tokens = r.out_tokens, .model = r.model };
		}
		b->n = n;
		b->status = rc;
		pthread_mutex_lock(&sh->mu);
		sh->made = k + 1;
		pthread_cond_signal(&sh->filled_cv);
		pthread_mutex_unlock(&sh->mu);
		if (rc != STATUS_OK)
			return NULL;  /* the end, or a failure: nothing follows */
	}
}

/* The CPUs this process may run on, less the one the calling thread is on now (none when unknown). */
static void other_cpus(cpu_set_t *set)
{
	int here = sched_getcpu();

	CPU_ZERO(set);
	if (sched_getaffinity(0, sizeof *set, set) != 0) {
		CPU_ZERO(set);
		return;
	}
	if (here >= 0 && CPU_ISSET(here, set))
		CPU_CLR(here, set);
}

bool feed_worthwhile(void)
{
	cpu_set_t set;

	other_cpus(&set);
	return CPU_COUNT(&set) > 0 || sched_getaffinity(0, sizeof set, &set) != 0;
}

int feed_start(struct feed *f, struct workload *w)
{
	cpu_set_t apart;

	struct feed_shared *sh;
	size_t size = (sizeof *sh + FEED_LINE - 1) / FEED_LINE * FEED_LINE;  /* aligned_alloc's rule */

	if (feed_unsuitable(w))
		return STATUS_EINTERNAL;
	other_cpus(&apart);
	if (!(sh = aligned_alloc(FEED_LINE, size)))
		return STATUS_ENOMEM;
	sh->w = *w;
	diag_clear(&sh->d);
	sh->made = sh->freed = sh->wake_at = 0;
	sh->stop = false;  /* the ring needs no clearing: a block is read only once the producer has filled it */
	if (pthread_mutex_init(&sh->mu, NULL) != 0)
		goto out_free;
	if (pthread_cond_init(&sh->filled_cv, NULL) != 0)
		goto out_destroy_mu;
	if (pthread_cond_init(&sh->freed_cv, NULL) != 0)
		goto out_destroy_filled;
	if (pthread_create(&sh->thread, NULL, produce, sh) != 0)
		goto out_destroy_freed;
	/* Kept off the simulation's CPU: the producer sleeps while the ring is full, and the simulation's
	 * thread wakes it, and Linux tends to wake a thread on its waker's CPU, where the two then take turns
	 * (measured: an M/M/c run 0.30 s instead of 0.22). A failure leaves the placement to the scheduler. */
	if (CPU_COUNT(&apart) > 0)
		(void)pthread_setaffinity_np(sh->thread, sizeof apart, &apart);
	f->cur = NULL;
	f->pos = f->len = 0;
	f->taken = 0;
	f->w = w;
	f->sh = sh;  /* the caller's workload is the producer's from here to feed_stop */
	return STATUS_OK;

out_destroy_freed:
	pthread_cond_destroy(&sh->freed_cv);
out_destroy_filled:
	pthread_cond_destroy(&sh->filled_cv);
out_destroy_mu:
	pthread_mutex_destroy(&sh->mu);
out_free:
	free(sh);
	return STATUS_ENOMEM;
}

void feed_stop(struct feed *f)
{
	struct feed_shared *sh = f->sh;

	pthread_mutex_lock(&sh->mu);
	sh->stop = true;
	pthread_cond_signal(&sh->freed_cv);
	pthread_mutex_unlock(&sh->mu);
	pthread_join(sh->thread, NULL);
	*f->w = sh->w;  /* the copy's own fields (a reuse model's count, say) as the producer left them */
	pthread_cond_destroy(&sh->freed_cv);
	pthread_cond_destroy(&sh->filled_cv);
	pthread_mutex_destroy(&sh->mu);
	free(sh);
	f->sh = NULL;
	f->cur = NULL;
	f->pos = f->len = 0;
}

/* The current block is read out: its end if it was the last, else give it back and take the next. */
int feed_refill(struct feed *f, struct request_draw *out, struct diag *d)
{
	struct feed_shared *sh = f->sh;

	for (;;) {
		if (f->pos < f->len)
			return feed_next(f, out, d);
		if (f->cur && f->cur->status != STATUS_OK) {
			if (f->cur->status != STATUS_DONE)
				*d = sh->d;  /* written before the block was handed over */
			return f->cur->status;
		}
		pthread_mutex_lock(&sh->mu);
		if (f->cur && ++sh->freed == sh->wake_at)
			pthread_cond_signal(&sh->freed_cv);
		while (sh->made == f->taken)
			pthread_cond_wait(&sh->filled_cv, &sh->mu);
		pthread_mutex_unlock(&sh->mu);
		f->cur = &sh->ring[f->taken++ % FEED_BLOCKS];
		f->pos = 0;
		f->len = f->cur->n;
	}
}
