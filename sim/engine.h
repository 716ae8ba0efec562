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
 * A run whose clock stops advancing is stopped too (models/README.md, "Limits"): more than same_instant_max events
 * (ENGINE_SAME_INSTANT_MAX unless a caller lowers it) run at one simulated instant means a handler that keeps
 * scheduling at "now" (a rate or a gap that rounds to zero), never a legitimate burst; engine_run() then
 * returns without running the next event at that instant, sets engine.stalled, and keeps up to
 * ENGINE_STALL_KINDS events of distinct handlers among the last ENGINE_STALL_WINDOW run there (borrowed), so
 * that the caller can name the kinds in its message. The check costs one comparison per event.
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
/*
 * Microseconds per hour, the one definition (hours are where prices and bills live). SIM_US_PER_H is the
 * int64 form, for times; SIM_US_PER_H_D the same value as a double, for the arithmetic in hours and dollars
 * that was written with a double literal: an integer constant there could change the arithmetic (n *
 * SIM_US_PER_H with an int n multiplies in integers), and results must not move by a bit. 3.6e9 is exact
 * in a double, so the two are equal.
 */
#define SIM_US_PER_H (3600 * SIM_US_PER_S)
#define SIM_US_PER_H_D 3.6e9
#define SIM_TIME_MAX INT64_MAX
/*
 * Events allowed at one simulated instant. The largest legitimate bursts are a trace's requests that share
 * one timestamp (arrival, and a completion or a queue timeout later: 1 event at the instant per request,
 * x scale_rate copies) and a Capacity Block opening its instances (a few events each, 64 instances at most
 * per entry): 10^8 leaves room for a hundred million requests at one microsecond, and stops a runaway loop
 * after about 10 s at 9 million events per second (tests/README.md, "Performance"; SOURCES.md [limit-same-instant]).
 */
#define ENGINE_SAME_INSTANT_MAX UINT64_C(100000000)
#define ENGINE_STALL_WINDOW 4096  /* the last events at a stalled instant whose kinds are kept */
#define ENGINE_STALL_KINDS 4      /* distinct handlers kept for the message */

struct engine {
	int64_t now_us;       /* current simulated time */
	uint64_t next_seq;    /* sequence number for the next scheduled event */
	uint64_t events_run;  /* handlers run so far */
	bool stopping;        /* engine_stop() was called */
	struct evq q;         /* pending events */
	const struct event *refused;  /* the first event scheduled into the past (borrowed), NULL if none */
	int64_t refused_t_us;         /* the time it asked for */
	int64_t refused_now_us;       /* the clock when it asked */
	uint64_t same_instant;        /* events run at now_us so far */
	uint64_t same_instant_max;    /* more than this many at one instant stalls the run (engine_init: the default) */
	bool stalled;                 /* the clock stopped advancing: engine_run() returned early, for good */
	const struct event *stalled_ev[ENGINE_STALL_KINDS];  /* events of distinct handlers run at that instant
	                                                        (addresses only: never dereferenced) */
	void (*stalled_fn[ENGINE_STALL_KINDS])(struct engine *eng, struct event *ev);  /* their handlers */
	int nstalled_ev;              /* how many of them */
	struct event *lane;           /* the one event scheduled with engine_schedule_lane, or NULL (borrowed) */
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

/*
 * As engine_schedule, for the one event of a source whose events come one after another (the next
 * arrival): it waits beside the heap instead of in it, and engine_run() compares it with the heap's
 * earliest by the same (time, sequence) order, so events run in exactly the order they would from the heap.
 * An arrival is nearly always among the earliest pending events: kept out of the heap, it saves a sift
 * through the heap on each arrival, about half the queue's work on a serving run (tests/README.md, "Performance").
 * At most one event at a time: the lane must be empty (the previous one has run or was cancelled).
 */
int engine_schedule_lane(struct engine *eng, struct event *ev, int64_t t_us,
			 void (*fn)(struct engine *eng, struct event *ev));

/* Cancel ev if it is queued (in the heap or the lane); harmless otherwise. */
void engine_cancel(struct engine *eng, struct event *ev);

/* Initialise an event that is not queued (call once on storage before first use). */
void engine_event_init(struct event *ev);

/*
 * Run events in (time, sequence) order while the earliest is at or before until_us, or until a handler
 * calls engine_stop(), or until more than same_instant_max events have run at one instant (then
 * engine.stalled is set and every later call returns at once). The clock then stands at the last event run (it is not advanced to until_us; call
 * engine_advance for that). Returns the number of events run.
 */
uint64_t engine_run(struct engine *eng, int64_t until_us);

/* Move the clock forward to t_us (>= now) without running anything. */
void engine_advance(struct engine *eng, int64_t t_us);

/* Ask engine_run to return after the current handler. */
void engine_stop(struct engine *eng);

#endif
