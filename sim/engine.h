/*
 * engine: simulated time and the run loop. It knows nothing of GPUs, money or files.
 *
 * Time is an int64 count of microseconds from the scenario's start (SIM_US_PER_S per second); it only moves
 * forward. engine_schedule() stamps each event with the next sequence number, so events at equal times run
 * in the order they were scheduled. Scheduling into the past is a bug, but one that input can provoke (an
 * arrival source that runs backwards), so it is checked in every build, not only by an assert that release
 * builds remove: engine_schedule() refuses it with STATUS_EINTERNAL, leaves the event and the clock as they
 * were, and records the first refusal (engine.refused) so the caller can name the event in its message.
 * Handlers run one at a time and may schedule or cancel any event, including their own.
 *
 * The engine is caller-owned (engine_init/engine_fini) and holds no global state; two engines can run in
 * one process. It allocates only when the heap must grow past its largest size so far.
 */
#ifndef GPUCAP_ENGINE_H
#define GPUCAP_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "evq.h"

#define SIM_US_PER_S INT64_C(1000000)
#define SIM_TIME_MAX INT64_MAX

struct engine {
	int64_t now_us;       /* current simulated time */
	uint64_t next_seq;    /* sequence number for the next scheduled event */
	uint64_t events_run;  /* handlers run so far */
	bool stopping;        /* engine_stop() was called */
	struct evq q;         /* pending events */
	const struct event *refused;  /* the first event scheduled into the past (borrowed), NULL if none */
	int64_t refused_t_us;         /* the time it asked for */
	int64_t refused_now_us;       /* the clock when it asked */
};

#define container_of(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

void engine_init(struct engine *eng);
void engine_fini(struct engine *eng);

/*
 * Schedule ev (kept until it fires or is cancelled) to run fn at t_us >= now. The event must not be
 * queued already. STATUS_OK, STATUS_ENOMEM, or STATUS_EINTERNAL when t_us is before now (the event is
 * then not queued, and the first such refusal is recorded in eng->refused*); both failures leave the
 * event as it was.
 */
int engine_schedule(struct engine *eng, struct event *ev, int64_t t_us,
		    void (*fn)(struct engine *eng, struct event *ev));

/* Cancel ev if it is queued; harmless otherwise. */
void engine_cancel(struct engine *eng, struct event *ev);

/* Initialise an event that is not queued (call once on storage before first use). */
void engine_event_init(struct event *ev);

/*
 * Run events in (time, sequence) order while the earliest is at or before until_us, or until a handler
 * calls engine_stop(). The clock then stands at the last event run (it is not advanced to until_us; call
 * engine_advance for that). Returns the number of events run.
 */
uint64_t engine_run(struct engine *eng, int64_t until_us);

/* Move the clock forward to t_us (>= now) without running anything. */
void engine_advance(struct engine *eng, int64_t t_us);

/* Ask engine_run to return after the current handler. */
void engine_stop(struct engine *eng);

#endif
