/*
 * evq: see evq.h. A 4-ary heap of (time, event) slots; the children of i are Di+1 .. Di+D, D = EVQ_D = 4.
 *
 * The order of events popped does not depend on how the heap is laid out: (t_us, seq) is a total order
 * (the engine never gives two events one sequence number), so any correct heap pops the same events in the
 * same order as the heap of event pointers this replaced, and runs are unchanged.
 */
#include "evq.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

#include "status.h"

/*
 * (t_us, seq) order; the sequence numbers are read from the events only on equal times. Written so that the
 * one branch (equal times, rare and so well predicted) comes first and the answer is a plain comparison
 * the compiler can use without branching: which child of a node is earlier is a coin toss that a branch
 * would mispredict half the time.
 */
static bool before(const struct evq_slot *a, const struct evq_slot *b)
{
	if (a->t_us != b->t_us)
		return a->t_us < b->t_us;
	return a->ev->seq < b->ev->seq;
}

static void place(struct evq *q, size_t i, struct evq_slot s)
{
	q->heap[i] = s;
	s.ev->heap_idx = i;
}

#define EVQ_D 4  /* children per node (evq.h) */

static void sift_up(struct evq *q, size_t i, struct evq_slot s)
{
	while (i > 0) {
		size_t parent = (i - 1) / EVQ_D;
		if (!before(&s, &q->heap[parent]))
			break;
		place(q, i, q->heap[parent]);
		i = parent;
	}
	place(q, i, s);
}

/* The earliest of the children of a node, from the first: a tournament of three comparisons when all four
 * are there (the common case), a scan otherwise. (t_us, seq) is a total order, so either finds the same. */
static size_t earliest_child(const struct evq *q, size_t first)
{
	const struct evq_slot *h = q->heap;
	size_t a, b, best, end;

	if (first + 3 < q->len) {
		a = first + before(&h[first + 1], &h[first]);
		b = first + 2 + before(&h[first + 3], &h[first + 2]);
		return before(&h[b], &h[a]) ? b : a;
	}
	best = first;
	end = q->len;
	for (size_t c = first + 1; c < end; c++)
		best = before(&h[c], &h[best]) ? c : best;
	return best;
}

/* Put s into the hole at i, moving the earliest child up while it is before s. */
static void sift_down(struct evq *q, size_t i, struct evq_slot s)
{
	for (;;) {
		size_t first = EVQ_D * i + 1, best;
		if (first >= q->len)
			break;
		best = earliest_child(q, first);
		if (!before(&q->heap[best], &s))
			break;
		place(q, i, q->heap[best]);
		i = best;
	}
	place(q, i, s);
}

void evq_init(struct evq *q)
{
	q->heap = NULL;
	q->len = 0;
	q->cap = 0;
	q->vacant = false;
}

void evq_fini(struct evq *q)
{
	for (size_t i = q->vacant; i < q->len; i++)
		q->heap[i].ev->heap_idx = EVQ_NOT_QUEUED;
	free(q->heap);
	evq_init(q);
}

int evq_reserve(struct evq *q, size_t n)
{
	struct evq_slot *heap;

	if (n <= q->cap)
		return STATUS_OK;
	if (n > SIZE_MAX / sizeof *heap)
		return STATUS_ENOMEM; /* the byte count would overflow */
	heap = realloc(q->heap, n * sizeof *heap);
	if (!heap)
		return STATUS_ENOMEM;
	q->heap = heap;
	q->cap = n; /* update only when the allocation succeeded */
	return STATUS_OK;
}

int evq_push(struct evq *q, struct event *ev)
{
	struct evq_slot s = { ev->t_us, ev };

	assert(!evq_queued(ev));
	if (q->vacant) {  /* fill the root evq_take() left: ev sinks from there to its place */
		q->vacant = false;
		sift_down(q, 0, s);
		return STATUS_OK;
	}
	if (evq_room(q) != STATUS_OK)
		return STATUS_ENOMEM;
	sift_up(q, q->len++, s);
	return STATUS_OK;
}

struct event *evq_peek(struct evq *q)
{
	evq_settle(q);
	return q->len ? q->heap[0].ev : NULL;
}

void evq_remove(struct evq *q, struct event *ev)
{
	size_t i = ev->heap_idx;
	struct evq_slot last;

	if (i == EVQ_NOT_QUEUED)
		return;
	evq_settle(q);  /* may move ev: read its position again */
	i = ev->heap_idx;
	assert(i < q->len && q->heap[i].ev == ev);
	ev->heap_idx = EVQ_NOT_QUEUED;
	last = q->heap[--q->len];
	if (i == q->len)
		return;
	if (i > 0 && before(&last, &q->heap[(i - 1) / EVQ_D]))
		sift_up(q, i, last);
	else
		sift_down(q, i, last);
}

struct event *evq_take(struct evq *q)
{
	struct event *ev;

	evq_settle(q);
	assert(q->len > 0);
	ev = q->heap[0].ev;
	ev->heap_idx = EVQ_NOT_QUEUED;
	q->vacant = true;
	return ev;
}

void evq_fill_vacancy(struct evq *q)
{
	struct evq_slot last;

	assert(q->vacant);
	/* the rest of a pop: the last slot goes into the vacant root and sinks */
	q->vacant = false;
	last = q->heap[--q->len];
	if (q->len > 0)
		sift_down(q, 0, last);
}

struct event *evq_pop(struct evq *q)
{
	struct event *ev;

	evq_settle(q);
	if (q->len == 0)
		return NULL;
	ev = evq_take(q);
	evq_settle(q);
	return ev;
}

bool evq_sanity(const struct evq *q)
{
	for (size_t i = q->vacant; i < q->len; i++) {
		const struct evq_slot *s = &q->heap[i];
		size_t parent = (i - 1) / EVQ_D;
		if (s->ev->heap_idx != i || s->t_us != s->ev->t_us)
			return false;
		if (i > 0 && !(parent == 0 && q->vacant) && before(s, &q->heap[parent]))
			return false;
	}
	return true;
}
