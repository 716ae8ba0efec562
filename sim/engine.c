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
	evq_init(&eng->q);
}

void engine_fini(struct engine *eng)
{
	evq_fini(&eng->q);
}

void engine_event_init(struct event *ev)
{
	ev->t_us = 0;
	ev->seq = 0;
	ev->heap_idx = EVQ_NOT_QUEUED;
	ev->fn = NULL;
}

int engine_schedule(struct engine *eng, struct event *ev, int64_t t_us,
		    void (*fn)(struct engine *eng, struct event *ev))
{
	struct event old = *ev;
	int rc;

	if (t_us < eng->now_us) {  /* a checked failure in every build, not an assert (see engine.h) */
		if (!eng->refused) {
			eng->refused = ev;
			eng->refused_t_us = t_us;
			eng->refused_now_us = eng->now_us;
		}
		return STATUS_EINTERNAL;
	}
	assert(!evq_queued(ev));
	ev->t_us = t_us;
	ev->seq = eng->next_seq;
	ev->fn = fn;
	rc = evq_push(&eng->q, ev);
	if (rc != STATUS_OK) {
		*ev = old; /* a failed call leaves the event as it was */
		return rc;
	}
	eng->next_seq++;
	return STATUS_OK;
}

void engine_cancel(struct engine *eng, struct event *ev)
{
	evq_remove(&eng->q, ev);
}

uint64_t engine_run(struct engine *eng, int64_t until_us)
{
	uint64_t before = eng->events_run;

	eng->stopping = false;
	while (!eng->stopping) {
		struct event *ev = evq_peek(&eng->q);
		if (!ev || ev->t_us > until_us)
			break;
		evq_pop(&eng->q);
		assert(ev->t_us >= eng->now_us);
		eng->now_us = ev->t_us;
		eng->events_run++;
		ev->fn(eng, ev);
	}
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
