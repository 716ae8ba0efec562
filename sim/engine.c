/* engine: see engine.h. */
#include "engine.h"

#include <assert.h>
#include <stddef.h>

#include "status.h"

void engine_init(struct engine *eng)
{
	eng->now_us = 0;
	eng->next_seq = 0;
	eng->events_run = 0;
	eng->stopping = false;
	eng->refused = NULL;
	eng->refused_t_us = 0;
	eng->refused_now_us = 0;
	eng->same_instant = 0;
	eng->same_instant_max = ENGINE_SAME_INSTANT_MAX;
	eng->stalled = false;
	eng->nstalled_ev = 0;
	eng->lane = NULL;
	evq_init(&eng->q);
}

void engine_fini(struct engine *eng)
{
	engine_cancel(eng, eng->lane);
	evq_fini(&eng->q);
}

void engine_event_init(struct event *ev)
{
	ev->t_us = 0;
	ev->seq = 0;
	ev->heap_idx = EVQ_NOT_QUEUED;
	ev->fn = NULL;
}

/* Refuse (and record the first) scheduling into the past: a checked failure in every build (engine.h). */
static bool in_past(struct engine *eng, const struct event *ev, int64_t t_us)
{
	if (t_us >= eng->now_us)
		return false;
	if (!eng->refused) {
		eng->refused = ev;
		eng->refused_t_us = t_us;
		eng->refused_now_us = eng->now_us;
	}
	return true;
}

int engine_schedule(struct engine *eng, struct event *ev, int64_t t_us,
		    void (*fn)(struct engine *eng, struct event *ev))
{
	int rc;

	if (in_past(eng, ev, t_us))
		return STATUS_EINTERNAL;
	assert(!evq_queued(ev));
	if ((rc = evq_room(&eng->q)) != STATUS_OK)
		return rc;  /* before ev is touched: a failed call leaves the event as it was */
	ev->t_us = t_us;
	ev->seq = eng->next_seq++;
	ev->fn = fn;
	rc = evq_push(&eng->q, ev);
	assert(rc == STATUS_OK);  /* evq_room made room */
	(void)rc;
	return STATUS_OK;
}

int engine_schedule_lane(struct engine *eng, struct event *ev, int64_t t_us,
			 void (*fn)(struct engine *eng, struct event *ev))
{
	if (in_past(eng, ev, t_us))
		return STATUS_EINTERNAL;
	assert(!evq_queued(ev) && eng->lane == NULL);
	ev->t_us = t_us;
	ev->seq = eng->next_seq++;  /* numbered as engine_schedule numbers: the order is the heap's */
	ev->fn = fn;
	ev->heap_idx = EVQ_LANE;
	eng->lane = ev;
	return STATUS_OK;
}

void engine_cancel(struct engine *eng, struct event *ev)
{
	if (ev && ev == eng->lane) {
		eng->lane = NULL;
		ev->heap_idx = EVQ_NOT_QUEUED;
		return;
	}
	if (ev)
		evq_remove(&eng->q, ev);
}

/* The earliest pending event, from the heap or the lane, by (time, sequence); NULL if none. The heap's is
 * compared by the time its slot holds (evq.h), its event read only on a tie. */
static struct event *earliest(struct engine *eng)
{
	struct evq *q = &eng->q;
	struct event *l = eng->lane;
	const struct evq_slot *top;

	evq_settle(q);
	if (q->len == 0)
		return l;
	top = &q->heap[0];
	if (l && (l->t_us < top->t_us || (l->t_us == top->t_us && l->seq < top->ev->seq)))
		return l;
	return top->ev;
}

/*
 * One more event at the current instant: false when that is one too many (the run is stalled). Over the
 * last ENGINE_STALL_WINDOW events before the limit, keep one event per distinct handler for the message.
 */
static bool same_instant_ok(struct engine *eng, const struct event *ev)
{
	if (eng->same_instant >= eng->same_instant_max) {
		eng->stalled = true;
		return false;
	}
	if (++eng->same_instant + ENGINE_STALL_WINDOW > eng->same_instant_max &&
	    eng->nstalled_ev < ENGINE_STALL_KINDS) {
		for (int i = 0; i < eng->nstalled_ev; i++)
			if (eng->stalled_fn[i] == ev->fn)
				return true;
		eng->stalled_fn[eng->nstalled_ev] = ev->fn;
		eng->stalled_ev[eng->nstalled_ev++] = ev;
	}
	return true;
}

uint64_t engine_run(struct engine *eng, int64_t until_us)
{
	uint64_t before = eng->events_run;

	eng->stopping = eng->stalled;
	while (!eng->stopping) {
		struct event *ev = earliest(eng);
		if (!ev || ev->t_us > until_us)
			break;
		if (ev->t_us != eng->now_us) {
			eng->same_instant = 0;
			eng->nstalled_ev = 0;
		}
		if (!same_instant_ok(eng, ev))
			break;  /* ev stays queued */
		if (ev == eng->lane) {
			eng->lane = NULL;
			ev->heap_idx = EVQ_NOT_QUEUED;
		} else {
			evq_take(&eng->q);  /* a pop whose second half the handler's first schedule saves (evq.h) */
		}
		assert(ev->t_us >= eng->now_us);
		eng->now_us = ev->t_us;
		eng->events_run++;
		ev->fn(eng, ev);
	}
	evq_settle(&eng->q);  /* leave the queue as a plain heap for callers that look into it */
	return eng->events_run - before;
}

void engine_advance(struct engine *eng, int64_t t_us)
{
	assert(t_us >= eng->now_us);
	eng->now_us = t_us;
}

void engine_stop(struct engine *eng)
{
	eng->stopping = true;
}
