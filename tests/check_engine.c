/*
 * check_engine: simulated time and the run loop (sim/engine.h).
 *
 * Handlers record what ran, and when, into a log that their event's owner points to (found with
 * container_of, as real models do); nothing is kept in statics, so the two-engine test means what it says.
 */
#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "status.h"
#include "testutil.h"

#define LOG_MAX 64

/* What ran: the owner's id and the clock when it ran, in order. */
struct log {
	int id[LOG_MAX];        /* owner ids, in the order their handlers ran */
	int64_t t_us[LOG_MAX];  /* engine time seen by each handler, microseconds */
	int n;                  /* entries used */
};

/* An event's owner. `other`, `at_us` and `stop` tell the handler what else to do. */
struct item {
	struct event ev;      /* the event; the handler finds the item with container_of */
	int id;               /* written to the log */
	struct log *log;      /* borrowed */
	struct item *other;   /* another item to schedule or cancel, or NULL */
	int64_t at_us;        /* when to schedule `other` */
	int repeat;           /* times left to reschedule itself, period_us apart */
	int64_t period_us;    /* its period */
	bool stop;            /* call engine_stop() */
};

static void item_init(struct item *it, int id, struct log *log)
{
	engine_event_init(&it->ev);
	it->id = id;
	it->log = log;
	it->other = NULL;
	it->at_us = 0;
	it->repeat = 0;
	it->period_us = 0;
	it->stop = false;
}

static void record(struct engine *eng, struct item *it)
{
	ck_assert_int_lt(it->log->n, LOG_MAX);
	it->log->id[it->log->n] = it->id;
	it->log->t_us[it->log->n] = eng->now_us;
	it->log->n++;
}

/* Log, then do what the item asks. */
static void on_item(struct engine *eng, struct event *ev)
{
	struct item *it = container_of(ev, struct item, ev);

	ck_assert(!evq_queued(ev));  /* popped before its handler runs */
	ck_assert_int_eq(eng->now_us, ev->t_us);
	record(eng, it);
	if (it->other)
		ck_assert_int_eq(engine_schedule(eng, &it->other->ev, it->at_us, on_item), STATUS_OK);
	if (it->repeat > 0) {
		it->repeat--;
		ck_assert_int_eq(engine_schedule(eng, ev, eng->now_us + it->period_us, on_item), STATUS_OK);
	}
	if (it->stop)
		engine_stop(eng);
}

/* Log, then cancel `other`. */
static void on_cancel_other(struct engine *eng, struct event *ev)
{
	struct item *it = container_of(ev, struct item, ev);

	record(eng, it);
	engine_cancel(eng, &it->other->ev);
}

static void sched(struct engine *eng, struct item *it, int64_t t_us)
{
	ck_assert_int_eq(engine_schedule(eng, &it->ev, t_us, on_item), STATUS_OK);
	ck_assert(evq_queued(&it->ev));
}

/* Check the log holds exactly these ids. */
static void expect_ids(const struct log *log, const int *ids, int n)
{
	ck_assert_int_eq(log->n, n);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(log->id[i], ids[i]);
}

START_TEST(init_state)
{
	struct engine eng;

	engine_init(&eng);
	ck_assert_int_eq(eng.now_us, 0);
	ck_assert_uint_eq(eng.events_run, 0);
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 0);  /* nothing to run */
	ck_assert_int_eq(eng.now_us, 0);
	engine_fini(&eng);
}
END_TEST

START_TEST(runs_in_time_then_schedule_order)
{
	static const int64_t times[] = { 30, 10, 20, 10, 30, 10, 0 };
	static const int want[] = { 6, 1, 3, 5, 2, 0, 4 };
	enum { N = sizeof times / sizeof times[0] };
	struct item it[N];
	struct log log = { .n = 0 };
	struct engine eng;

	engine_init(&eng);
	for (int i = 0; i < N; i++) {
		item_init(&it[i], i, &log);
		sched(&eng, &it[i], times[i]);
	}
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), N);
	expect_ids(&log, want, N);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(log.t_us[i], times[want[i]]);
	ck_assert_int_eq(eng.now_us, 30);
	engine_fini(&eng);
}
END_TEST

/* A handler that schedules at the current time goes after the events already waiting at that time. */
START_TEST(schedule_at_now_runs_after_pending)
{
	struct item a, b, c, d, e;
	struct log log = { .n = 0 };
	struct engine eng;
	static const int want[] = { 1, 2, 3, 4, 5 };

	engine_init(&eng);
	item_init(&a, 1, &log);
	item_init(&b, 2, &log);
	item_init(&c, 3, &log);
	item_init(&d, 5, &log);
	item_init(&e, 4, &log);
	a.other = &e;        /* a, at 5, schedules e at 5 */
	a.at_us = 5;
	sched(&eng, &a, 5);
	sched(&eng, &b, 5);
	sched(&eng, &c, 5);
	sched(&eng, &d, 6);  /* scheduled before e, but later in time */
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 5);
	expect_ids(&log, want, 5);
	ck_assert_int_eq(log.t_us[3], 5);
	engine_fini(&eng);
}
END_TEST

START_TEST(cancel_prevents_firing)
{
	struct item it[4];
	struct log log = { .n = 0 };
	struct engine eng;
	static const int want[] = { 0, 3 };

	engine_init(&eng);
	for (int i = 0; i < 4; i++) {
		item_init(&it[i], i, &log);
		sched(&eng, &it[i], 10 * i);
	}
	engine_cancel(&eng, &it[1].ev);
	engine_cancel(&eng, &it[2].ev);
	ck_assert(!evq_queued(&it[1].ev));
	engine_cancel(&eng, &it[1].ev);  /* again: harmless */
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 2);
	expect_ids(&log, want, 2);
	ck_assert_uint_eq(eng.events_run, 2);
	engine_cancel(&eng, &it[0].ev);  /* already fired: harmless */
	engine_fini(&eng);
}
END_TEST

/* A handler may cancel an event due at its own time, later in the same instant. */
START_TEST(handler_cancels_same_time_event)
{
	struct item a, b, c;
	struct log log = { .n = 0 };
	struct engine eng;
	static const int want[] = { 1, 3 };

	engine_init(&eng);
	item_init(&a, 1, &log);
	item_init(&b, 2, &log);
	item_init(&c, 3, &log);
	a.other = &b;
	ck_assert_int_eq(engine_schedule(&eng, &a.ev, 7, on_cancel_other), STATUS_OK);
	sched(&eng, &b, 7);
	sched(&eng, &c, 7);
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 2);
	expect_ids(&log, want, 2);
	engine_fini(&eng);
}
END_TEST

/* A handler may reschedule its own event. */
START_TEST(handler_reschedules_itself)
{
	struct item tick;
	struct log log = { .n = 0 };
	struct engine eng;

	engine_init(&eng);
	item_init(&tick, 9, &log);
	tick.repeat = 4;
	tick.period_us = 250;
	sched(&eng, &tick, 1000);
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 5);
	ck_assert_int_eq(log.n, 5);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(log.t_us[i], 1000 + 250 * i);
	ck_assert(!evq_queued(&tick.ev));
	engine_fini(&eng);
}
END_TEST

/* engine_run(until) runs events at exactly until, none after, leaves them queued, and does not move the clock
 * past the last event it ran. */
START_TEST(run_until_is_inclusive)
{
	struct item it[4];
	struct log log = { .n = 0 };
	struct engine eng;
	static const int64_t times[] = { 10, 20, 20, 21 };

	engine_init(&eng);
	for (int i = 0; i < 4; i++) {
		item_init(&it[i], i, &log);
		sched(&eng, &it[i], times[i]);
	}
	ck_assert_uint_eq(engine_run(&eng, 19), 1);
	ck_assert_int_eq(eng.now_us, 10);
	ck_assert_uint_eq(engine_run(&eng, 20), 2);   /* both events at exactly 20 */
	ck_assert_int_eq(eng.now_us, 20);
	ck_assert(evq_queued(&it[3].ev));              /* 21 is after: still waiting */
	ck_assert_uint_eq(eng.q.len, 1);
	ck_assert_int_eq(log.n, 3);
	ck_assert_uint_eq(engine_run(&eng, 20), 0);   /* again: nothing due */
	ck_assert_int_eq(eng.now_us, 20);
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 1);
	ck_assert_int_eq(eng.now_us, 21);
	ck_assert_int_eq(log.id[3], 3);
	engine_fini(&eng);
}
END_TEST

/* Until with no events due leaves the clock alone; engine_advance moves it, and scheduling at the new now
 * works. */
START_TEST(advance_moves_clock)
{
	struct item a;
	struct log log = { .n = 0 };
	struct engine eng;

	engine_init(&eng);
	item_init(&a, 1, &log);
	sched(&eng, &a, 500);
	ck_assert_uint_eq(engine_run(&eng, 400), 0);
	ck_assert_int_eq(eng.now_us, 0);
	engine_advance(&eng, 400);
	ck_assert_int_eq(eng.now_us, 400);
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 1);
	ck_assert_int_eq(log.t_us[0], 500);
	engine_advance(&eng, 500);  /* to now: allowed */
	sched(&eng, &a, 500);       /* at now: allowed */
	ck_assert_uint_eq(engine_run(&eng, 500), 1);
	engine_fini(&eng);
}
END_TEST

/* engine_stop returns after the current handler, even with more events due at the same time; the next
 * engine_run carries on. */
START_TEST(stop_returns_after_current_handler)
{
	struct item it[4];
	struct log log = { .n = 0 };
	struct engine eng;
	static const int first[] = { 0, 1 };
	static const int all[] = { 0, 1, 2, 3 };

	engine_init(&eng);
	for (int i = 0; i < 4; i++)
		item_init(&it[i], i, &log);
	it[1].stop = true;
	sched(&eng, &it[0], 1);
	sched(&eng, &it[1], 2);
	sched(&eng, &it[2], 2);
	sched(&eng, &it[3], 3);
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 2);
	expect_ids(&log, first, 2);
	ck_assert_int_eq(eng.now_us, 2);
	ck_assert(evq_queued(&it[2].ev));
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 2);
	expect_ids(&log, all, 4);
	engine_fini(&eng);
}
END_TEST

/* events_run counts handlers over all runs; each engine_run returns its own share. */
START_TEST(events_run_counts)
{
	enum { N = 40 };
	struct item it[N];
	struct log log = { .n = 0 };
	struct engine eng;
	uint64_t total = 0;

	engine_init(&eng);
	for (int i = 0; i < N; i++) {
		item_init(&it[i], i, &log);
		sched(&eng, &it[i], i);
	}
	engine_cancel(&eng, &it[5].ev);
	for (int64_t until = 9; until < N + 10; until += 10) {
		uint64_t ran = engine_run(&eng, until);
		total += ran;
		ck_assert_uint_eq(eng.events_run, total);
	}
	ck_assert_uint_eq(total, N - 1);
	ck_assert_int_eq(log.n, N - 1);
	engine_fini(&eng);
}
END_TEST

/* Two engines in one process keep their own clocks, sequences, counts and queues. */
START_TEST(two_engines_are_independent)
{
	struct item a[3], b[3];
	struct log la = { .n = 0 }, lb = { .n = 0 };
	struct engine e1, e2;
	static const int want_a[] = { 0, 1, 2 };
	static const int want_b[] = { 12, 10, 11 };

	engine_init(&e1);
	engine_init(&e2);
	for (int i = 0; i < 3; i++) {
		item_init(&a[i], i, &la);
		item_init(&b[i], 10 + i, &lb);
	}
	sched(&e1, &a[0], 100);
	sched(&e2, &b[0], 50);
	sched(&e1, &a[1], 100);
	sched(&e2, &b[1], 50);
	sched(&e2, &b[2], 5);
	sched(&e1, &a[2], 200);
	/* Each engine numbers its own events from 0. */
	ck_assert_uint_eq(a[0].ev.seq, 0);
	ck_assert_uint_eq(b[0].ev.seq, 0);
	ck_assert_uint_eq(a[2].ev.seq, 2);

	ck_assert_uint_eq(engine_run(&e1, 150), 2);
	ck_assert_int_eq(e1.now_us, 100);
	ck_assert_int_eq(e2.now_us, 0);
	ck_assert_uint_eq(e2.events_run, 0);
	ck_assert_uint_eq(e2.q.len, 3);
	/* e2 can still run at times e1 has passed. */
	ck_assert_uint_eq(engine_run(&e2, 49), 1);
	ck_assert_int_eq(e2.now_us, 5);
	ck_assert_uint_eq(engine_run(&e2, SIM_TIME_MAX), 2);
	ck_assert_int_eq(e2.now_us, 50);
	ck_assert_int_eq(e1.now_us, 100);
	ck_assert_uint_eq(engine_run(&e1, SIM_TIME_MAX), 1);
	ck_assert_int_eq(e1.now_us, 200);
	expect_ids(&la, want_a, 3);
	expect_ids(&lb, want_b, 3);  /* b[2] at 5, then b[0] and b[1] at 50 in schedule order */
	ck_assert_uint_eq(e1.events_run, 3);
	ck_assert_uint_eq(e2.events_run, 3);
	engine_fini(&e1);
	engine_fini(&e2);
}
END_TEST

/*
 * Scheduling into the past is refused in every build, not only by an assert that NDEBUG removes
 * (engine.h): at now = 100, asking for 99 returns STATUS_EINTERNAL, b stays unqueued and untouched
 * (t_us 0, seq 0, no handler), the clock stays at 100, the refusal (b, 99, 100) is recorded, and the
 * engine carries on: b scheduled at 100 afterwards runs at 100, a second refusal (at 50) keeps the first
 * record. This suite is also built with NDEBUG defined (check_engine_ndebug) to show it.
 */
START_TEST(schedule_into_past_is_refused)
{
	struct item a, b;
	struct log log = { .n = 0 };
	struct engine eng;

	engine_init(&eng);
	ck_assert_ptr_null(eng.refused);
	item_init(&a, 1, &log);
	item_init(&b, 2, &log);
	sched(&eng, &a, 100);
	engine_run(&eng, SIM_TIME_MAX);
	ck_assert_int_eq(engine_schedule(&eng, &b.ev, 99, on_item), STATUS_EINTERNAL);
	ck_assert(!evq_queued(&b.ev));
	ck_assert_int_eq(b.ev.t_us, 0);
	ck_assert_uint_eq(b.ev.seq, 0);
	ck_assert_ptr_null(b.ev.fn);
	ck_assert_int_eq(eng.now_us, 100);
	ck_assert_ptr_eq(eng.refused, &b.ev);
	ck_assert_int_eq(eng.refused_t_us, 99);
	ck_assert_int_eq(eng.refused_now_us, 100);
	ck_assert_int_eq(engine_schedule(&eng, &a.ev, 50, on_item), STATUS_EINTERNAL);
	ck_assert_ptr_eq(eng.refused, &b.ev);
	ck_assert_int_eq(eng.refused_t_us, 99);
	sched(&eng, &b, 100);
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 1);
	ck_assert_int_eq(log.n, 2);
	ck_assert_int_eq(log.id[1], 2);
	ck_assert_int_eq(log.t_us[1], 100);
	engine_fini(&eng);
}
END_TEST

/* A handler that reschedules itself at "now" while it has budget left: a clock that stops advancing. */
struct spin {
	struct event ev;  /* the handler finds the spin with container_of */
	long left;        /* reschedules left */
};

static void on_spin(struct engine *eng, struct event *ev)
{
	struct spin *sp = container_of(ev, struct spin, ev);

	if (sp->left-- > 0)
		ck_assert_int_eq(engine_schedule(eng, ev, eng->now_us, on_spin), STATUS_OK);
}

/* The same, under another handler: a second kind of event at the stalled instant. */
static void on_spin_other(struct engine *eng, struct event *ev)
{
	struct spin *sp = container_of(ev, struct spin, ev);

	if (sp->left-- > 0)
		ck_assert_int_eq(engine_schedule(eng, ev, eng->now_us, on_spin_other), STATUS_OK);
}

/*
 * More than same_instant_max events at one instant stop the run (engine.h), exactly at the limit; a burst
 * of exactly the limit is allowed. With same_instant_max = 1000: a runs 1 + 999 = 1000 times at t = 10 (the
 * limit, allowed); at t = 20 b and c alternate, rescheduling at now (100000 times each, so that an engine
 * without the check still returns): 1000 events run there and the 1001st is refused, so engine_run returns
 * 1000 + 1000 = 2000 with the clock at 20, the engine stalled, the kinds kept (b then c: 2 distinct
 * handlers), and d (t = 30) never run; a later engine_run runs nothing.
 */
START_TEST(clock_that_stops_advancing_is_stopped)
{
	struct spin a = { .left = 999 }, b = { .left = 100000 }, c = { .left = 100000 }, d = { .left = 0 };
	struct engine eng;

	engine_init(&eng);
	ck_assert_uint_eq(eng.same_instant_max, ENGINE_SAME_INSTANT_MAX);
	eng.same_instant_max = 1000;
	engine_event_init(&a.ev);
	engine_event_init(&b.ev);
	engine_event_init(&c.ev);
	engine_event_init(&d.ev);
	ck_assert_int_eq(engine_schedule(&eng, &a.ev, 10, on_spin), STATUS_OK);
	ck_assert_int_eq(engine_schedule(&eng, &b.ev, 20, on_spin), STATUS_OK);
	ck_assert_int_eq(engine_schedule(&eng, &c.ev, 20, on_spin_other), STATUS_OK);
	ck_assert_int_eq(engine_schedule(&eng, &d.ev, 30, on_spin), STATUS_OK);
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 2000);
	ck_assert(eng.stalled);
	ck_assert_int_eq(eng.now_us, 20);
	ck_assert_int_eq(a.left, -1);
	ck_assert_int_eq(eng.nstalled_ev, 2);
	ck_assert_ptr_eq(eng.stalled_ev[0], &b.ev);
	ck_assert_ptr_eq(eng.stalled_ev[1], &c.ev);
	ck_assert(evq_queued(&d.ev));
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 0);
	engine_fini(&eng);
}
END_TEST

/* Five more kinds of spinning event, for the window of kinds kept at a stall (below). */
#define SPIN_KIND(name)                                                                               \
	static void name(struct engine *eng, struct event *ev)                                       \
	{                                                                                             \
		struct spin *sp = container_of(ev, struct spin, ev);                                  \
		if (sp->left-- > 0)                                                                   \
			ck_assert_int_eq(engine_schedule(eng, ev, eng->now_us, name), STATUS_OK);     \
	}
SPIN_KIND(on_kind0)
SPIN_KIND(on_kind1)
SPIN_KIND(on_kind2)
SPIN_KIND(on_kind3)
SPIN_KIND(on_kind4)

/* An event that runs left + 1 times at one instant, then schedules the five spinners there, in order. */
struct opener {
	struct spin sp;       /* its own budget; the handler finds the opener with container_of */
	struct spin *next;    /* the five spinners */
};

static void on_opener(struct engine *eng, struct event *ev)
{
	static void (*const kind[5])(struct engine *, struct event *) = {
		on_kind0, on_kind1, on_kind2, on_kind3, on_kind4,
	};
	struct opener *op = container_of(ev, struct opener, sp.ev);

	if (op->sp.left-- > 0) {
		ck_assert_int_eq(engine_schedule(eng, ev, eng->now_us, on_opener), STATUS_OK);
		return;
	}
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(engine_schedule(eng, &op->next[i].ev, eng->now_us, kind[i]), STATUS_OK);
}

/*
 * The kinds kept for a stall's message come from the last ENGINE_STALL_WINDOW events before the limit
 * only, and at most ENGINE_STALL_KINDS (4) of them (engine.h). With same_instant_max = WINDOW + 10, the
 * window is the events numbered 11 to WINDOW + 10 at the instant (n + WINDOW > max, engine.c). The opener
 * runs 10 times at t = 20 (numbers 1 to 10, just outside the window), then the five spinners (kinds 0-4)
 * take turns from number 11 to the limit, WINDOW + 10 events in all, and the next is refused. So by hand:
 * engine_run returns WINDOW + 10, the clock stands at 20, and the kinds kept are the spinners 0, 1, 2, 3
 * in that order: not the opener (one event before the window), and not spinner 4 (a fifth kind).
 */
START_TEST(stall_keeps_the_window_kinds)
{
	struct spin next[5];
	struct opener op = { .sp = { .left = 9 }, .next = next };
	struct engine eng;

	engine_init(&eng);
	eng.same_instant_max = ENGINE_STALL_WINDOW + 10;
	engine_event_init(&op.sp.ev);
	for (int i = 0; i < 5; i++) {
		next[i].left = 1000000;
		engine_event_init(&next[i].ev);
	}
	ck_assert_int_eq(engine_schedule(&eng, &op.sp.ev, 20, on_opener), STATUS_OK);
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), ENGINE_STALL_WINDOW + 10);
	ck_assert(eng.stalled);
	ck_assert_int_eq(eng.now_us, 20);
	ck_assert_int_eq(op.sp.left, -1);
	ck_assert_int_eq(eng.nstalled_ev, ENGINE_STALL_KINDS);
	for (int i = 0; i < ENGINE_STALL_KINDS; i++)
		ck_assert_ptr_eq(eng.stalled_ev[i], &next[i].ev);
	engine_fini(&eng);
}
END_TEST

/*
 * The lane (engine_schedule_lane) keeps one event beside the heap; events still run in (time, sequence)
 * order. Schedule, in this order: A at 20 (heap), L at 10 (lane), B at 10 (heap), C at 5 (heap). By time,
 * C (5) first; at 10, L was scheduled before B, so L then B; then A (20). And a lane event scheduled after
 * a heap event at an equal time runs after it: D at 30 (heap), then M at 30 (lane): D, M.
 */
START_TEST(lane_keeps_time_then_schedule_order)
{
	struct item it[6];
	struct log log = { .n = 0 };
	struct engine eng;
	static const int want[] = { 3, 1, 2, 0, 4, 5 };

	engine_init(&eng);
	for (int i = 0; i < 6; i++)
		item_init(&it[i], i, &log);
	sched(&eng, &it[0], 20);
	ck_assert_int_eq(engine_schedule_lane(&eng, &it[1].ev, 10, on_item), STATUS_OK);
	ck_assert(evq_queued(&it[1].ev));
	sched(&eng, &it[2], 10);
	sched(&eng, &it[3], 5);
	ck_assert_uint_eq(engine_run(&eng, 20), 4);  /* the lane is free again once L has run */
	sched(&eng, &it[4], 30);
	ck_assert_int_eq(engine_schedule_lane(&eng, &it[5].ev, 30, on_item), STATUS_OK);
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 2);
	expect_ids(&log, want, 6);
	ck_assert_int_eq(log.t_us[1], 10);
	ck_assert(!evq_queued(&it[1].ev) && !evq_queued(&it[5].ev));
	engine_fini(&eng);
}
END_TEST

/* A lane event can be cancelled (then the lane takes another), is refused in the past like any event, and
 * engine_fini leaves it not queued. */
START_TEST(lane_cancel_refuse_fini)
{
	struct item it[3];
	struct log log = { .n = 0 };
	struct engine eng;

	engine_init(&eng);
	for (int i = 0; i < 3; i++)
		item_init(&it[i], i, &log);
	ck_assert_int_eq(engine_schedule_lane(&eng, &it[0].ev, 10, on_item), STATUS_OK);
	engine_cancel(&eng, &it[0].ev);
	ck_assert(!evq_queued(&it[0].ev));
	engine_cancel(&eng, &it[0].ev);  /* harmless twice */
	ck_assert_int_eq(engine_schedule_lane(&eng, &it[1].ev, 15, on_item), STATUS_OK);
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 1);
	ck_assert_int_eq(log.id[0], 1);
	ck_assert_int_eq(eng.now_us, 15);
	ck_assert_int_eq(engine_schedule_lane(&eng, &it[2].ev, 14, on_item), STATUS_EINTERNAL);
	ck_assert_ptr_eq(eng.refused, &it[2].ev);
	ck_assert(!evq_queued(&it[2].ev));
	ck_assert_int_eq(engine_schedule_lane(&eng, &it[2].ev, 40, on_item), STATUS_OK);
	engine_fini(&eng);
	ck_assert(!evq_queued(&it[2].ev));
}
END_TEST

/* One self-rescheduling source through the lane, many heap events at random times (ties included): the
 * same run order as with every event in the heap. */
struct log2 {
	int id[4096];
	int n;
};

struct chain {
	struct event ev;
	struct log2 *log;
	int left;
	uint64_t x;           /* a small generator for the gaps */
	bool lane;            /* reschedule through the lane */
};

static uint64_t next_x(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

struct rnd_item {
	struct event ev;
	int id;
	struct log2 *log;
};

static void on_rnd(struct engine *eng, struct event *ev)
{
	struct rnd_item *it = container_of(ev, struct rnd_item, ev);

	(void)eng;
	it->log->id[it->log->n++] = it->id;
}

static void on_chain(struct engine *eng, struct event *ev)
{
	struct chain *c = container_of(ev, struct chain, ev);
	int64_t at = eng->now_us + (int64_t)(next_x(&c->x) % 4);

	c->log->id[c->log->n++] = -1;
	if (--c->left > 0) {
		int rc = c->lane ? engine_schedule_lane(eng, ev, at, on_chain) : engine_schedule(eng, ev, at, on_chain);
		ck_assert_int_eq(rc, STATUS_OK);
	}
}

static void run_mix(bool lane, uint64_t seed, struct log2 *log)
{
	static struct rnd_item items[1000];
	struct chain c = { .log = log, .left = 1000, .x = seed, .lane = lane };
	struct engine eng;
	uint64_t x = seed ^ 0x9e3779b97f4a7c15ULL;

	log->n = 0;
	engine_init(&eng);
	engine_event_init(&c.ev);
	for (int i = 0; i < 1000; i++) {
		engine_event_init(&items[i].ev);
		items[i].id = i;
		items[i].log = log;
		ck_assert_int_eq(engine_schedule(&eng, &items[i].ev, (int64_t)(next_x(&x) % 1500), on_rnd), STATUS_OK);
	}
	if (lane)
		ck_assert_int_eq(engine_schedule_lane(&eng, &c.ev, 0, on_chain), STATUS_OK);
	else
		ck_assert_int_eq(engine_schedule(&eng, &c.ev, 0, on_chain), STATUS_OK);
	ck_assert_uint_eq(engine_run(&eng, SIM_TIME_MAX), 2000);
	engine_fini(&eng);
}

START_TEST(lane_runs_as_the_heap_would)
{
	static struct log2 a, b;
	uint64_t seed = test_seed("lane_runs_as_the_heap_would", 17);

	for (int r = 0; r < 20; r++) {
		run_mix(false, seed + (uint64_t)r, &a);
		run_mix(true, seed + (uint64_t)r, &b);
		ck_assert_int_eq(a.n, 2000);
		ck_assert_int_eq(b.n, 2000);
		for (int i = 0; i < a.n; i++)
			ck_assert_msg(a.id[i] == b.id[i], "seed %llu round %d: event %d differs (%d vs %d)",
				      (unsigned long long)seed, r, i, a.id[i], b.id[i]);
	}
}
END_TEST

static Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, init_state);
	tcase_add_test(tc, runs_in_time_then_schedule_order);
	tcase_add_test(tc, schedule_at_now_runs_after_pending);
	tcase_add_test(tc, cancel_prevents_firing);
	tcase_add_test(tc, handler_cancels_same_time_event);
	tcase_add_test(tc, handler_reschedules_itself);
	tcase_add_test(tc, run_until_is_inclusive);
	tcase_add_test(tc, advance_moves_clock);
	tcase_add_test(tc, stop_returns_after_current_handler);
	tcase_add_test(tc, stall_keeps_the_window_kinds);
	tcase_add_test(tc, events_run_counts);
	tcase_add_test(tc, two_engines_are_independent);
	tcase_add_test(tc, schedule_into_past_is_refused);
	tcase_add_test(tc, clock_that_stops_advancing_is_stopped);
	tcase_add_test(tc, lane_keeps_time_then_schedule_order);
	tcase_add_test(tc, lane_cancel_refuse_fini);
	tcase_add_test(tc, lane_runs_as_the_heap_would);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(engine_suite());
}
