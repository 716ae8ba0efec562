/*
 * check_evq: the event queue (sim/evq.h).
 *
 * The queue is tested on its own, without the engine: each test stamps t_us and seq by hand, as the engine
 * would. Order is (time, sequence); every test that changes the heap checks evq_sanity() afterwards. The
 * randomised test replays 100000 pushes, removals and pops against a sorted array kept beside the heap.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "evq.h"
#include "status.h"
#include "testutil.h"

#if defined(__SANITIZE_ADDRESS__)  /* GCC */
#define UNDER_ASAN 1
#elif defined(__has_feature)      /* Clang */
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#ifdef UNDER_ASAN
/*
 * AddressSanitizer aborts on an allocation it cannot satisfy instead of returning NULL; the ENOMEM tests
 * need malloc's ordinary behaviour, so ask for it (this hook is ASan's documented way to set defaults).
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#endif

/* An event that is not queued, at t_us with sequence seq. */
static void ev_set(struct event *ev, int64_t t_us, uint64_t seq)
{
	ev->t_us = t_us;
	ev->seq = seq;
	ev->heap_idx = EVQ_NOT_QUEUED;
	ev->fn = NULL;
}

/* True if a comes strictly before b in the queue's order. */
static int ev_before(const struct event *a, const struct event *b)
{
	return a->t_us < b->t_us || (a->t_us == b->t_us && a->seq < b->seq);
}

/* Pop everything and check it comes out as `want` (n events, in order); the queue is then empty. */
static void drain_expect(struct evq *q, struct event *const *want, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct event *ev = evq_pop(q);
		ck_assert_ptr_eq(ev, want[i]);
		ck_assert(!evq_queued(ev));
		ck_assert(evq_sanity(q));
	}
	ck_assert_uint_eq(q->len, 0);
	ck_assert_ptr_null(evq_pop(q));
}

START_TEST(empty_queue)
{
	struct evq q;

	evq_init(&q);
	ck_assert_uint_eq(q.len, 0);
	ck_assert_ptr_null(evq_peek(&q));
	ck_assert_ptr_null(evq_pop(&q));
	ck_assert(evq_sanity(&q));
	evq_fini(&q);
}
END_TEST

START_TEST(orders_by_time)
{
	static const int64_t times[] = { 50, 10, 40, 0, 30, 20, 70, 60 };
	enum { N = sizeof times / sizeof times[0] };
	struct event ev[N];
	struct event *want[N];
	struct evq q;

	evq_init(&q);
	for (size_t i = 0; i < N; i++) {
		ev_set(&ev[i], times[i], i);
		ck_assert_int_eq(evq_push(&q, &ev[i]), STATUS_OK);
		ck_assert(evq_queued(&ev[i]));
		ck_assert(evq_sanity(&q));
	}
	ck_assert_uint_eq(q.len, N);
	/* Times are distinct: sorted by time, 0, 10, ..., 70 are ev[3], ev[1], ev[5], ev[4], ev[2], ev[0], ... */
	want[0] = &ev[3]; want[1] = &ev[1]; want[2] = &ev[5]; want[3] = &ev[4];
	want[4] = &ev[2]; want[5] = &ev[0]; want[6] = &ev[7]; want[7] = &ev[6];
	ck_assert_ptr_eq(evq_peek(&q), &ev[3]);
	drain_expect(&q, want, N);
	evq_fini(&q);
}
END_TEST

/* Equal times come out in push order when seq is stamped in push order, as the engine does. */
START_TEST(equal_times_in_push_order)
{
	enum { N = 200 };
	struct event ev[N];
	struct event *want[N];
	struct evq q;
	size_t k = 0;

	evq_init(&q);
	/* Interleave two times so the heap has to reorder: even i at t=5, odd i at t=3. */
	for (size_t i = 0; i < N; i++) {
		ev_set(&ev[i], i % 2 ? 3 : 5, i);
		ck_assert_int_eq(evq_push(&q, &ev[i]), STATUS_OK);
	}
	ck_assert(evq_sanity(&q));
	for (size_t i = 1; i < N; i += 2)
		want[k++] = &ev[i];
	for (size_t i = 0; i < N; i += 2)
		want[k++] = &ev[i];
	drain_expect(&q, want, N);
	evq_fini(&q);
}
END_TEST

/* At equal times the sequence number decides, whatever order the pushes came in. */
START_TEST(equal_times_ordered_by_seq)
{
	enum { N = 64 };
	struct event ev[N];
	struct event *want[N];
	struct evq q;

	evq_init(&q);
	for (size_t i = 0; i < N; i++) {
		ev_set(&ev[i], 7, N - 1 - i);  /* pushed in decreasing seq */
		ck_assert_int_eq(evq_push(&q, &ev[i]), STATUS_OK);
	}
	for (size_t i = 0; i < N; i++)
		want[i] = &ev[N - 1 - i];
	drain_expect(&q, want, N);
	evq_fini(&q);
}
END_TEST

/* Fill a queue with n events at times 0..n-1 pushed in a scrambled order (seq = time). */
static void fill_scrambled(struct evq *q, struct event *ev, size_t n)
{
	evq_init(q);
	for (size_t i = 0; i < n; i++) {
		size_t t = (i * 37) % n;  /* n is not a multiple of 37: a permutation */
		ev_set(&ev[t], (int64_t)t, t);
		ck_assert_int_eq(evq_push(q, &ev[t]), STATUS_OK);
	}
	ck_assert(evq_sanity(q));
}

/* Remove `victim` from a queue of the n events ev[0..n-1] (time = index) and check what is left. */
static void remove_and_check(struct evq *q, struct event *ev, size_t n, struct event *victim)
{
	struct event *want[64];
	size_t k = 0;

	ck_assert_uint_le(n, 64);
	evq_remove(q, victim);
	ck_assert(!evq_queued(victim));
	ck_assert_uint_eq(q->len, n - 1);
	ck_assert(evq_sanity(q));
	for (size_t i = 0; i < n; i++)
		if (&ev[i] != victim)
			want[k++] = &ev[i];
	drain_expect(q, want, k);
}

START_TEST(remove_root)
{
	enum { N = 31 };
	struct event ev[N];
	struct evq q;

	fill_scrambled(&q, ev, N);
	ck_assert_uint_eq(ev[0].heap_idx, 0);
	remove_and_check(&q, ev, N, &ev[0]);
	evq_fini(&q);
}
END_TEST

START_TEST(remove_last)
{
	enum { N = 31 };
	struct event ev[N];
	struct evq q;
	struct event *last;

	fill_scrambled(&q, ev, N);
	last = q.heap[q.len - 1].ev;
	remove_and_check(&q, ev, N, last);
	evq_fini(&q);
}
END_TEST

/* Every position in the middle, both when the moved last element must sift down and when it must sift up. */
START_TEST(remove_middle)
{
	enum { N = 31 };
	struct event ev[N];
	struct evq q;

	for (size_t pos = 1; pos + 1 < N; pos++) {
		fill_scrambled(&q, ev, N);
		remove_and_check(&q, ev, N, q.heap[pos].ev);
		evq_fini(&q);
	}
}
END_TEST

/*
 * The last element, moved into the hole, is earlier than the hole's parent: it must sift up. A 4-ary heap
 * (children of i: 4i + 1 .. 4i + 4) of times [0, 10, 1, 2, 3, 11, 12, 13, 14, 4]: 11..14 (indices 5..8) are
 * the children of 10 (index 1), 4 (index 9) the first child of 1 (index 2). Removing 11 (index 5) moves 4
 * there, and 4 < 10: it rises to index 1 and 10 goes down to 5.
 */
START_TEST(remove_middle_sifts_up)
{
	static const int64_t times[] = { 0, 10, 1, 2, 3, 11, 12, 13, 14, 4 };
	enum { N = sizeof times / sizeof times[0] };
	struct event ev[N];
	struct event *want[N - 1] = { &ev[0], &ev[2], &ev[3], &ev[4], &ev[9], &ev[1], &ev[6], &ev[7], &ev[8] };
	struct evq q;

	evq_init(&q);
	for (size_t i = 0; i < N; i++) {
		ev_set(&ev[i], times[i], i);
		ck_assert_int_eq(evq_push(&q, &ev[i]), STATUS_OK);
	}
	/* Pushed in heap order already, so nothing moved. */
	for (size_t i = 0; i < N; i++)
		ck_assert_uint_eq(ev[i].heap_idx, i);
	evq_remove(&q, &ev[5]);
	ck_assert(evq_sanity(&q));
	ck_assert_uint_eq(ev[9].heap_idx, 1);  /* 4 rose above 10 */
	ck_assert_uint_eq(ev[1].heap_idx, 5);  /* and 10 went down into the hole */
	drain_expect(&q, want, N - 1);
	evq_fini(&q);
}
END_TEST

/*
 * Every heap size from 1 to 70, so that the last node has one child or two: pushed in reverse time order
 * (every push sifts up to the root), then drained in order.
 */
START_TEST(pop_every_size)
{
	enum { N = 70 };
	struct event ev[N];
	struct event *want[N];
	struct evq q;

	for (size_t n = 1; n <= N; n++) {
		evq_init(&q);
		for (size_t i = 0; i < n; i++) {
			ev_set(&ev[i], (int64_t)(n - i), i);
			ck_assert_int_eq(evq_push(&q, &ev[i]), STATUS_OK);
			ck_assert_uint_eq(ev[i].heap_idx, 0);
		}
		ck_assert(evq_sanity(&q));
		for (size_t i = 0; i < n; i++)
			want[i] = &ev[n - 1 - i];
		drain_expect(&q, want, n);
		evq_fini(&q);
	}
}
END_TEST

/* Each slot keeps a copy of its event's time; evq_sanity notices when an event's time was changed while it
 * was queued (a bug: the heap would be ordered by the old time). */
START_TEST(sanity_checks_slot_times)
{
	enum { N = 9 };
	struct event ev[N];
	struct evq q;

	fill_scrambled(&q, ev, N);
	for (size_t i = 0; i < N; i++) {
		ck_assert_int_eq(q.heap[ev[i].heap_idx].t_us, ev[i].t_us);
		ck_assert_ptr_eq(q.heap[ev[i].heap_idx].ev, &ev[i]);
	}
	ev[4].t_us = 100;
	ck_assert(!evq_sanity(&q));
	ev[4].t_us = 4;
	ck_assert(evq_sanity(&q));
	evq_fini(&q);
}
END_TEST

/* Move the event in heap slot i to time t, slot and event alike (evq_sanity compares the two). */
static void slot_time(struct evq *q, size_t i, int64_t t)
{
	q->heap[i].t_us = t;
	q->heap[i].ev->t_us = t;
}

/*
 * evq_sanity finds a slot earlier than its parent wherever it is: a child of the root (slot 1) while the
 * root is full, and a grandchild (slot 5, whose parent is slot 1: (5 - 1) / 4) while the root is vacant
 * after evq_take, the one time a root's children are not compared with it (the root's slot is stale).
 * fill_scrambled gives times 0 to 8, so -1 is earlier than any parent.
 */
START_TEST(sanity_finds_a_slot_before_its_parent)
{
	enum { N = 9 };
	struct event ev[N];
	struct evq q;
	int64_t keep;

	fill_scrambled(&q, ev, N);
	keep = q.heap[1].t_us;
	slot_time(&q, 1, -1);
	ck_assert(!evq_sanity(&q));
	slot_time(&q, 1, keep);
	ck_assert(evq_sanity(&q));
	ck_assert_ptr_eq(evq_take(&q), &ev[0]);
	ck_assert(q.vacant);
	ck_assert(evq_sanity(&q));
	keep = q.heap[5].t_us;
	slot_time(&q, 5, -1);
	ck_assert(!evq_sanity(&q));
	slot_time(&q, 5, keep);
	ck_assert(evq_sanity(&q));
	evq_fini(&q);
}
END_TEST

/*
 * Equal times are ordered by the sequence numbers read from the events themselves (slots copy only the
 * time): ties pushed in decreasing seq into a heap that also holds other times, then removed from the
 * middle, still come out by seq.
 */
START_TEST(ties_read_seq_from_events)
{
	enum { N = 40 };
	struct event ev[N];
	struct event *want[N - 1];
	struct evq q;
	size_t k = 0;

	evq_init(&q);
	for (size_t i = 0; i < N; i++) {
		/* ev[0..19] at t=5 with seq 19..0; ev[20..39] at t=1..20 with seq 100.. */
		if (i < 20)
			ev_set(&ev[i], 5, 19 - i);
		else
			ev_set(&ev[i], (int64_t)(i - 19), 100 + i);
		ck_assert_int_eq(evq_push(&q, &ev[i]), STATUS_OK);
	}
	evq_remove(&q, &ev[7]);  /* t=5, seq 12 */
	ck_assert(evq_sanity(&q));
	for (int64_t t = 1; t <= 20; t++) {
		if (t == 5)
			for (size_t i = 20; i-- > 0;)
				if (i != 7)
					want[k++] = &ev[i];
		want[k++] = &ev[t + 19];
	}
	ck_assert_uint_eq(k, N - 1);
	drain_expect(&q, want, N - 1);
	evq_fini(&q);
}
END_TEST

/*
 * evq_take removes the earliest event and leaves the root vacant; a push fills it (sinking from the root)
 * without growing the heap, and the order is as if the event had been popped and the other pushed.
 */
START_TEST(take_then_push_fills_the_root)
{
	enum { N = 31 };
	struct event ev[N], late, early;
	struct event *want[N + 1];
	struct evq q;
	size_t k = 0;

	fill_scrambled(&q, ev, N);
	ck_assert_ptr_eq(evq_take(&q), &ev[0]);
	ck_assert(!evq_queued(&ev[0]));
	ck_assert(q.vacant);
	ck_assert_uint_eq(q.len, N);  /* the vacant root still counts as a slot */
	ck_assert(evq_sanity(&q));
	ev_set(&late, 17, 100);       /* sinks to the middle, after ev[17] (same time, earlier seq) */
	ck_assert_int_eq(evq_push(&q, &late), STATUS_OK);
	ck_assert(!q.vacant);
	ck_assert_uint_eq(q.len, N);
	ck_assert(evq_sanity(&q));
	ck_assert_ptr_eq(evq_take(&q), &ev[1]);
	ev_set(&early, 0, 101);       /* earlier than everything: stays at the root */
	ck_assert_int_eq(evq_push(&q, &early), STATUS_OK);
	ck_assert_uint_eq(early.heap_idx, 0);
	ck_assert(evq_sanity(&q));
	want[k++] = &early;
	for (size_t i = 2; i < N; i++) {
		want[k++] = &ev[i];
		if (i == 17)
			want[k++] = &late;
	}
	drain_expect(&q, want, k);
	evq_fini(&q);
}
END_TEST

/* Every other call settles a vacant root first: peek, remove, pop, evq_settle, and a take after a take. */
START_TEST(vacant_root_is_settled_by_every_call)
{
	enum { N = 10 };
	struct event ev[N];
	struct evq q;

	fill_scrambled(&q, ev, N);
	ck_assert_ptr_eq(evq_take(&q), &ev[0]);
	ck_assert_ptr_eq(evq_peek(&q), &ev[1]);
	ck_assert(!q.vacant);
	ck_assert_uint_eq(q.len, N - 1);

	ck_assert_ptr_eq(evq_take(&q), &ev[1]);
	evq_remove(&q, &ev[5]);
	ck_assert(!q.vacant);
	ck_assert_uint_eq(q.len, N - 3);
	ck_assert(evq_sanity(&q));

	ck_assert_ptr_eq(evq_take(&q), &ev[2]);
	ck_assert_ptr_eq(evq_take(&q), &ev[3]);
	ck_assert_uint_eq(q.len, N - 4);  /* N - 5 events and the vacant root */
	ck_assert_ptr_eq(evq_pop(&q), &ev[4]);
	ck_assert(!q.vacant);

	ck_assert_ptr_eq(evq_take(&q), &ev[6]);
	evq_settle(&q);
	ck_assert(!q.vacant);
	evq_settle(&q);  /* harmless when nothing is vacant */
	ck_assert_uint_eq(q.len, N - 7);
	ck_assert(evq_sanity(&q));

	/* taking the last event leaves an empty queue once settled */
	ck_assert_ptr_eq(evq_take(&q), &ev[7]);
	ck_assert_ptr_eq(evq_take(&q), &ev[8]);
	ck_assert_ptr_eq(evq_take(&q), &ev[9]);
	ck_assert_ptr_null(evq_peek(&q));
	ck_assert_uint_eq(q.len, 0);
	evq_fini(&q);
}
END_TEST

/* evq_fini with a vacant root marks every event still queued, and no more. */
START_TEST(fini_with_vacant_root)
{
	enum { N = 5 };
	struct event ev[N];
	struct evq q;

	fill_scrambled(&q, ev, N);
	ck_assert_ptr_eq(evq_take(&q), &ev[0]);
	evq_fini(&q);
	for (size_t i = 0; i < N; i++)
		ck_assert(!evq_queued(&ev[i]));
	ck_assert_uint_eq(q.len, 0);
	ck_assert(!q.vacant);
}
END_TEST

START_TEST(remove_not_queued_is_noop)
{
	enum { N = 10 };
	struct event ev[N];
	struct event stray;
	struct evq q;

	fill_scrambled(&q, ev, N);
	ev_set(&stray, 3, 3);
	evq_remove(&q, &stray);  /* never pushed */
	ck_assert_uint_eq(q.len, N);
	ck_assert(evq_sanity(&q));

	ck_assert_ptr_eq(evq_pop(&q), &ev[0]);
	evq_remove(&q, &ev[0]);  /* already popped */
	ck_assert_uint_eq(q.len, N - 1);
	ck_assert(evq_sanity(&q));

	evq_remove(&q, &ev[5]);
	evq_remove(&q, &ev[5]);  /* already removed */
	ck_assert_uint_eq(q.len, N - 2);
	ck_assert(evq_sanity(&q));
	evq_fini(&q);
}
END_TEST

/* A removed or popped event can be pushed again, and takes its new place. */
START_TEST(repush_after_remove)
{
	enum { N = 10 };
	struct event ev[N];
	struct evq q;

	fill_scrambled(&q, ev, N);
	evq_remove(&q, &ev[4]);
	ev[4].t_us = 100;
	ev[4].seq = 100;
	ck_assert_int_eq(evq_push(&q, &ev[4]), STATUS_OK);
	ck_assert(evq_sanity(&q));
	for (size_t i = 0; i < N; i++) {
		if (i == 4)
			continue;
		ck_assert_ptr_eq(evq_pop(&q), &ev[i]);
	}
	ck_assert_ptr_eq(evq_pop(&q), &ev[4]);
	ck_assert_ptr_null(evq_pop(&q));
	evq_fini(&q);
}
END_TEST

START_TEST(reserve_growth)
{
	enum { N = 100 };
	struct event ev[2 * N + 1];
	struct evq_slot *heap;
	struct evq q;

	evq_init(&q);
	ck_assert_int_eq(evq_reserve(&q, 0), STATUS_OK);
	ck_assert_uint_eq(q.cap, 0);
	ck_assert_int_eq(evq_reserve(&q, N), STATUS_OK);
	ck_assert_uint_ge(q.cap, N);
	ck_assert_uint_eq(q.len, 0);
	heap = q.heap;
	/* A smaller reservation changes nothing. */
	ck_assert_int_eq(evq_reserve(&q, N / 2), STATUS_OK);
	ck_assert_ptr_eq(q.heap, heap);
	ck_assert_uint_ge(q.cap, N);

	/* Pushes up to the reservation do not reallocate. */
	for (size_t i = 0; i < N; i++) {
		ev_set(&ev[i], (int64_t)(N - i), i);
		ck_assert_int_eq(evq_push(&q, &ev[i]), STATUS_OK);
		ck_assert_ptr_eq(q.heap, heap);
	}
	/* One more doubles the array (evq.h: "grows by doubling"), keeping every event. */
	ev_set(&ev[N], 0, N);
	ck_assert_int_eq(evq_push(&q, &ev[N]), STATUS_OK);
	ck_assert_uint_eq(q.cap, 2 * N);
	ck_assert_uint_eq(q.len, N + 1);
	ck_assert(evq_sanity(&q));
	for (size_t i = N + 1; i < 2 * N + 1; i++) {
		ev_set(&ev[i], (int64_t)i, i);
		ck_assert_int_eq(evq_push(&q, &ev[i]), STATUS_OK);
		ck_assert_uint_ge(q.cap, q.len);
	}
	ck_assert_uint_eq(q.cap, 4 * N);
	ck_assert(evq_sanity(&q));
	/* Earliest first: ev[N] (t=0), then ev[N-1] (t=1), ... */
	ck_assert_ptr_eq(evq_pop(&q), &ev[N]);
	ck_assert_ptr_eq(evq_pop(&q), &ev[N - 1]);
	evq_fini(&q);
}
END_TEST

/* Without a reservation, the first push allocates and later ones grow the array as needed. */
START_TEST(push_grows_without_reserve)
{
	enum { N = 1000 };
	struct event *ev = malloc(N * sizeof *ev);
	struct evq q;

	ck_assert_ptr_nonnull(ev);
	evq_init(&q);
	for (size_t i = 0; i < N; i++) {
		ev_set(&ev[i], (int64_t)((i * 7919) % N), i);
		ck_assert_int_eq(evq_push(&q, &ev[i]), STATUS_OK);
		ck_assert_uint_ge(q.cap, q.len);
	}
	ck_assert(evq_sanity(&q));
	for (int64_t t = 0; t < N; t++)
		ck_assert_int_eq(evq_pop(&q)->t_us, t);
	evq_fini(&q);
	free(ev);
}
END_TEST

/* A reservation that cannot be met fails with STATUS_ENOMEM and leaves the queue as it was. */
START_TEST(reserve_enomem_leaves_queue)
{
	struct event ev;
	struct evq q;
	size_t cap;
	struct evq_slot *heap;

	evq_init(&q);
	ev_set(&ev, 1, 0);
	ck_assert_int_eq(evq_push(&q, &ev), STATUS_OK);
	cap = q.cap;
	heap = q.heap;
	/* SIZE_MAX / sizeof (slot) slots is nearly 2^64 bytes: no allocator can give that. */
	ck_assert_int_eq(evq_reserve(&q, SIZE_MAX / sizeof(struct evq_slot)), STATUS_ENOMEM);
	ck_assert_uint_eq(q.cap, cap);
	ck_assert_ptr_eq(q.heap, heap);
	ck_assert_uint_eq(q.len, 1);
	ck_assert_ptr_eq(evq_pop(&q), &ev);
	evq_fini(&q);
}
END_TEST

/*
 * A count whose size in bytes does not fit in size_t must fail too: n * sizeof (slot) would wrap around
 * to a small number, and a small allocation would be taken for room for n events.
 */
START_TEST(reserve_overflowing_count_fails)
{
	struct evq q;

	evq_init(&q);
	ck_assert_int_eq(evq_reserve(&q, SIZE_MAX / sizeof(struct evq_slot) + 3), STATUS_ENOMEM);
	ck_assert_uint_eq(q.cap, 0);
	ck_assert_ptr_null(q.heap);
	evq_fini(&q);
}
END_TEST

/* The reference: a sorted array of queued events, earliest first. */
struct ref {
	struct event **a;  /* sorted by (t_us, seq); borrowed events */
	size_t len;        /* events in a */
};

/* Index of the first element of r not before ev (binary search). */
static size_t ref_lower(const struct ref *r, const struct event *ev)
{
	size_t lo = 0, hi = r->len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ev_before(r->a[mid], ev))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void ref_insert(struct ref *r, struct event *ev)
{
	size_t i = ref_lower(r, ev);

	memmove(&r->a[i + 1], &r->a[i], (r->len - i) * sizeof r->a[0]);
	r->a[i] = ev;
	r->len++;
}

static void ref_erase(struct ref *r, const struct event *ev)
{
	size_t i = ref_lower(r, ev);

	ck_assert_uint_lt(i, r->len);
	ck_assert_ptr_eq(r->a[i], ev);
	memmove(&r->a[i], &r->a[i + 1], (r->len - i - 1) * sizeof r->a[0]);
	r->len--;
}

/*
 * 100000 random operations on a pool of 2000 events: push a free event at a random time (few distinct
 * times, so ties are common), remove a random queued one, or pop (or take, leaving the root vacant for
 * whatever comes next) and compare with the reference's first.
 * evq_sanity() is checked every 1000 operations, and the final drain must equal the reference.
 */
START_TEST(random_ops_match_sorted_reference)
{
	enum { POOL = 2000, OPS = 100000, TIMES = 500, SANITY_EVERY = 1000 };
	uint64_t seed = test_seed("evq random_ops_match_sorted_reference", 20240601);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct event *pool = malloc(POOL * sizeof *pool);
	struct ref ref = { malloc(POOL * sizeof *ref.a), 0 };
	uint64_t seq = 0;
	struct evq q;

	ck_assert_ptr_nonnull(rng);
	ck_assert_ptr_nonnull(pool);
	ck_assert_ptr_nonnull(ref.a);
	gsl_rng_set(rng, (unsigned long)seed);
	evq_init(&q);
	for (size_t i = 0; i < POOL; i++)
		ev_set(&pool[i], 0, 0);

	for (int op = 0; op < OPS; op++) {
		unsigned long dice = gsl_rng_uniform_int(rng, 10);
		struct event *ev = &pool[gsl_rng_uniform_int(rng, POOL)];

		if (dice < 5) {          /* push, if the chosen event is free */
			if (evq_queued(ev))
				continue;
			ev->t_us = (int64_t)gsl_rng_uniform_int(rng, TIMES);
			ev->seq = seq++;
			ck_assert_int_eq(evq_push(&q, ev), STATUS_OK);
			ref_insert(&ref, ev);
		} else if (dice < 7) {   /* remove the chosen event (a no-op if it is not queued) */
			if (evq_queued(ev))
				ref_erase(&ref, ev);
			evq_remove(&q, ev);
			ck_assert(!evq_queued(ev));
		} else {                 /* pop, or (dice 9) half a pop: the next operation sees a vacant root */
			struct event *got = dice == 9 && ref.len > 0 ? evq_take(&q) : evq_pop(&q);
			if (ref.len == 0) {
				ck_assert_ptr_null(got);
				continue;
			}
			ck_assert_ptr_eq(got, ref.a[0]);
			ck_assert(!evq_queued(got));
			ref_erase(&ref, got);
		}
		ck_assert_uint_eq(q.len - q.vacant, ref.len);
		if (op % SANITY_EVERY == 0)
			ck_assert(evq_sanity(&q));
	}
	ck_assert(evq_sanity(&q));
	ck_assert_uint_gt(ref.len, 0);  /* the drain below has something to check */
	drain_expect(&q, ref.a, ref.len);

	evq_fini(&q);
	free(ref.a);
	free(pool);
	gsl_rng_free(rng);
}
END_TEST

static Suite *evq_suite(void)
{
	Suite *s = suite_create("evq");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, empty_queue);
	tcase_add_test(tc, orders_by_time);
	tcase_add_test(tc, equal_times_in_push_order);
	tcase_add_test(tc, equal_times_ordered_by_seq);
	tcase_add_test(tc, remove_root);
	tcase_add_test(tc, remove_last);
	tcase_add_test(tc, remove_middle);
	tcase_add_test(tc, remove_middle_sifts_up);
	tcase_add_test(tc, pop_every_size);
	tcase_add_test(tc, sanity_checks_slot_times);
	tcase_add_test(tc, sanity_finds_a_slot_before_its_parent);
	tcase_add_test(tc, ties_read_seq_from_events);
	tcase_add_test(tc, take_then_push_fills_the_root);
	tcase_add_test(tc, vacant_root_is_settled_by_every_call);
	tcase_add_test(tc, fini_with_vacant_root);
	tcase_add_test(tc, remove_not_queued_is_noop);
	tcase_add_test(tc, repush_after_remove);
	tcase_add_test(tc, reserve_growth);
	tcase_add_test(tc, push_grows_without_reserve);
	tcase_add_test(tc, reserve_enomem_leaves_queue);
	tcase_add_test(tc, reserve_overflowing_count_fails);
	tcase_add_test(tc, random_ops_match_sorted_reference);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(evq_suite());
}
