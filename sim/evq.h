/*
 * evq: the event queue, a 4-ary min-heap of intrusive events ordered by (time, sequence).
 *
 * Events are caller-owned: a struct event lives inside whatever object it concerns (a request, an
 * instance, a policy), and the queue holds only pointers to them, so pushing and popping allocate nothing.
 * Each heap slot holds a copy of its event's time beside the pointer, so that sifting compares times in the
 * heap array itself and reads an event only when two times are equal (to compare sequence numbers): the
 * events are scattered over requests and instances, and reading them was most of the queue's time. Each
 * node has four children (D = 4, EVQ_D in evq.c): half the levels of a binary heap, so half the moves, each
 * of which also writes the moved event's heap_idx into the event, where the cache misses are; the four
 * children are compared in the heap array. Measured as whole processes alternating with the binary heap
 * (2026-12-04): 0.29 against 0.30 s on tests/bench/mmc-95.yaml (about 100 pending events), 2.50 against
 * 2.65 s on two days of tests/bench/diurnal-30d.yaml (about 600); D = 8 was between the two. (Slots that also
 * copy seq were slower: the slot no longer fits four to a cache line.)
 * The heap array grows by doubling when more events are pending than ever before (amortised, and bounded
 * by the peak number of pending events, not by how many events a run processes); evq_reserve() sizes it up
 * front. Each event remembers its heap position, so evq_remove() cancels in O(log n).
 *
 * Ordering: earlier time first; equal times in the order they were pushed (the sequence number the caller
 * stamps, see engine.h), as libuv orders its timers and Cimba its events. A run is therefore reproducible.
 *
 * Invariant (evq_sanity): every queued event's heap_idx is its position, every slot's time is its event's
 * t_us, and no parent is after its child (a root left vacant by evq_take holds nothing and is skipped).
 */
#ifndef GPUCAP_EVQ_H
#define GPUCAP_EVQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct engine;

#define EVQ_NOT_QUEUED SIZE_MAX
#define EVQ_LANE (SIZE_MAX - 1)  /* heap_idx of the event in the engine's lane (engine.h): queued, not here */

struct event {
	int64_t t_us;      /* when it fires, microseconds from the scenario start */
	uint64_t seq;      /* tie-break: order of scheduling */
	size_t heap_idx;   /* position in the heap, EVQ_NOT_QUEUED when not queued */
	void (*fn)(struct engine *eng, struct event *ev);  /* handler; finds its owner with container_of */
};

/* One heap slot: the event's time, copied when it is pushed (an event's time does not change while it is
 * queued), and the event. */
struct evq_slot {
	int64_t t_us;       /* ev->t_us */
	struct event *ev;   /* the queued event (borrowed) */
};

struct evq {
	struct evq_slot *heap;  /* heap[0] is the earliest event; owned */
	size_t len;           /* slots in use: the events queued, plus the root while it is vacant */
	size_t cap;           /* slots allocated */
	bool vacant;          /* evq_take() emptied heap[0]: the next push or evq_settle() fills it */
};

/* Initialise an empty queue (no allocation). */
void evq_init(struct evq *q);

/* Free the heap array; the events themselves belong to their owners. */
void evq_fini(struct evq *q);

/* Make room for n queued events. STATUS_OK or STATUS_ENOMEM (queue unchanged). */
int evq_reserve(struct evq *q, size_t n);

/* Queue ev (keeps the pointer until it is popped or removed; its t_us and seq must not change meanwhile).
 * STATUS_OK or STATUS_ENOMEM; after evq_room() returned STATUS_OK, the next push cannot fail. */
int evq_push(struct evq *q, struct event *ev);

/* Make room for one more push: STATUS_OK (the heap has it, or grew) or STATUS_ENOMEM (queue unchanged). */
static inline int evq_room(struct evq *q)
{
	if (q->vacant || q->len < q->cap)
		return 0;  /* STATUS_OK */
	return evq_reserve(q, q->cap ? 2 * q->cap : 64);
}

/* The earliest event, or NULL if empty; evq_pop also removes it. */
struct event *evq_peek(struct evq *q);
struct event *evq_pop(struct evq *q);

/*
 * Half a pop, for the engine's loop: remove the earliest event (the queue must not be empty) but leave its
 * slot vacant instead of moving the last slot there. A handler nearly always schedules an event next; the
 * push then goes straight into the vacant root and sifts down once, where a whole pop and a push would sift
 * down and then up. Every other call settles the vacancy first (as evq_settle: the rest of the pop), so
 * the vacancy is invisible but to q->len; the events come out in the same order either way.
 */
struct event *evq_take(struct evq *q);
void evq_fill_vacancy(struct evq *q);  /* the rest of the pop: evq_settle's work when the root is vacant */

static inline void evq_settle(struct evq *q)
{
	if (q->vacant)
		evq_fill_vacancy(q);
}

/* Remove a queued event (no-op if it is not queued). */
void evq_remove(struct evq *q, struct event *ev);

/* True if ev is queued. */
static inline bool evq_queued(const struct event *ev)
{
	return ev->heap_idx != EVQ_NOT_QUEUED;
}

/* Check the heap invariant; for assert() in tests. */
bool evq_sanity(const struct evq *q);

#endif
