/* evq: see evq.h. A plain binary heap; children of i are 2i+1 and 2i+2. */
#include "evq.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

#include "status.h"

static bool before(const struct event *a, const struct event *b)
{
	return a->t_us < b->t_us || (a->t_us == b->t_us && a->seq < b->seq);
}

static void place(struct evq *q, size_t i, struct event *ev)
{
	q->heap[i] = ev;
	ev->heap_idx = i;
}

static void sift_up(struct evq *q, size_t i)
{
	struct event *ev = q->heap[i];

	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (!before(ev, q->heap[parent]))
			break;
		place(q, i, q->heap[parent]);
		i = parent;
	}
	place(q, i, ev);
}

static void sift_down(struct evq *q, size_t i)
{
	struct event *ev = q->heap[i];

	for (;;) {
		size_t child = 2 * i + 1;
		if (child >= q->len)
			break;
		if (child + 1 < q->len && before(q->heap[child + 1], q->heap[child]))
			child++;
		if (!before(q->heap[child], ev))
			break;
		place(q, i, q->heap[child]);
		i = child;
	}
	place(q, i, ev);
}

void evq_init(struct evq *q)
{
	q->heap = NULL;
	q->len = 0;
	q->cap = 0;
}

void evq_fini(struct evq *q)
{
	for (size_t i = 0; i < q->len; i++)
		q->heap[i]->heap_idx = EVQ_NOT_QUEUED;
	free(q->heap);
	evq_init(q);
}

int evq_reserve(struct evq *q, size_t n)
{
	struct event **heap;

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
	assert(!evq_queued(ev));
	if (q->len == q->cap) {
		int rc = evq_reserve(q, q->cap ? 2 * q->cap : 64);
		if (rc)
			return rc;
	}
	q->len++;
	place(q, q->len - 1, ev);
	sift_up(q, q->len - 1);
	return STATUS_OK;
}

struct event *evq_peek(const struct evq *q)
{
	return q->len ? q->heap[0] : NULL;
}

void evq_remove(struct evq *q, struct event *ev)
{
	size_t i = ev->heap_idx;
	struct event *last;

	if (i == EVQ_NOT_QUEUED)
		return;
	assert(i < q->len && q->heap[i] == ev);
	ev->heap_idx = EVQ_NOT_QUEUED;
	last = q->heap[--q->len];
	if (i == q->len)
		return;
	place(q, i, last);
	if (i > 0 && before(last, q->heap[(i - 1) / 2]))
		sift_up(q, i);
	else
		sift_down(q, i);
}

struct event *evq_pop(struct evq *q)
{
	struct event *ev = evq_peek(q);

	if (ev)
		evq_remove(q, ev);
	return ev;
}

bool evq_sanity(const struct evq *q)
{
	for (size_t i = 0; i < q->len; i++) {
		if (q->heap[i]->heap_idx != i)
			return false;
		if (i > 0 && before(q->heap[i], q->heap[(i - 1) / 2]))
			return false;
	}
	return true;
}
