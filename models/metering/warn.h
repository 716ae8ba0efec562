/*
 * warn: the warnings a planner needs about one run, each a code and a sentence (struct sink_warning).
 *
 * The world feeds a struct warn with what some warnings need while the run goes (warn_sample() once per
 * sample period, warn_scaling() once per policy scaling action, warn_arrival() per arrival: counters only,
 * no allocation, no I/O); warn_collect() then checks every rule against the scenario, those counts and the
 * run's metrics and writes the warnings that hold, in this order (models/README.md, "Warnings"):
 *
 *   slo_unreachable     the SLO cannot be met by any capacity (warn_slo_unreachable(): a hook, filled in
 *                       once the violation floor exists)
 *   fleet_at_max        with an autoscaling policy, the capacity serving sat at its maximum (autoscaling.max
 *                       in force, or the fleet entries' max) while requests waited, in more than
 *                       WARN_AT_MAX_FRACTION of the measured samples
 *   scaling_flaps       more than WARN_FLAPS_PER_HOUR direction reversals of policy scaling actions in one
 *                       UTC clock hour
 *   scale_in_rebound    at least WARN_REBOUNDS times a policy scale-out came within WARN_REBOUND_US of a
 *                       policy scale-in that removed 2 or more and at least half the fleet, and
 *                       restored at least half of what it removed: the scale-in removed more than the load allowed (a metric that
 *                       does not fall in proportion to capacity, such as concurrency on a service that
 *                       slows as an instance fills) or the traffic rose at once
 *   target_unreachable  a policy target at or above what its metric reaches before requests wait
 *   price_stale         a catalogue price used whose validity ended on or before the scenario start
 *   trace_past_horizon  a trace (without loop) runs past the horizon: its tail is dropped
 *   trace_shorter_than_horizon  a trace (without loop) ends before WARN_TRACE_SHORT_SHARE of the
 *                       horizon: the rest of the run has no traffic
 *   horizon_too_short   the horizon is shorter than the policy's alarms need to act once
 *   memory_budget       the run's queue, fleet pool and per-hour arrays could take more than
 *                       WARN_MEMORY_BUDGET_BYTES (world_memory_estimate() fills struct warn_memory in)
 *   extrapolated_with_growth  the traffic grows (growth_per_day), so the per-year figure, which stretches
 *                       the measured window, misstates the year; the message gives the year's traffic
 *                       against the window's
 *   jobs_stopped_max_wait  managed Spot training jobs (jobs.managed_spot) were stopped at their max_wait
 *                       (metric jobs_stopped_max_wait > 0)
 *   scenario            one per warning the loader gave (sc->warnings: a job submitted at or after the
 *                       horizon, an entry nothing uses, a Spot entry nothing interrupts, ...), its line
 *                       "FILE:LINE:COL: PATH: text" as the message, so they are stored with the run
 *
 * A struct warn is caller-owned storage (warn_init, nothing to free).
 */
#ifndef GPUCAP_WARN_H
#define GPUCAP_WARN_H

#include <stdbool.h>
#include <stdint.h>

#include "scenario.h"
#include "sink.h"

#define WARN_MAX 16                 /* warnings per run, at most (12 codes, and the loader's lines) */
#define WARN_AT_MAX_FRACTION 0.05   /* fleet_at_max: share of measured samples at max while waiting */
#define WARN_FLAPS_PER_HOUR 4       /* scaling_flaps: reversals allowed in one clock hour */
#define WARN_REBOUNDS 2             /* scale_in_rebound: rebounds that make a warning */
#define WARN_TRACE_SHORT_SHARE 0.8  /* trace_shorter_than_horizon: the trace ends before this share of it */
/* scale_in_rebound: a scale-out this soon after a scale-in rebounds from it (15 min: the default scale-in
 * alarm's span, so the scale-in's own datapoints had said the load was low that long) */
#define WARN_REBOUND_US (INT64_C(900) * 1000000)
/* memory_budget: 2 GiB a run may take (models/README.md, "Limits"; SOURCES.md [limit-memory-budget]) */
#define WARN_MEMORY_BUDGET_BYTES (INT64_C(2) << 30)

/* What a run's own structures could take at most, in bytes (world_memory_estimate(), world.h). */
struct warn_memory {
	double queue_bytes;   /* a full queue: serving.max_queue requests */
	double pool_bytes;    /* every instance the fleet may hold, each with every slot serving */
	double hours_bytes;   /* the meter's per-clock-hour arrays */
};

struct warn {
	int64_t measured_from_us;   /* samples before this (the warm-up) are not counted */
	int64_t hour_phase_us;      /* t = 0 lies this far past a UTC hour mark, [0, 1 h) */
	long samples;               /* samples taken in the measured window */
	long samples_at_max;        /* of those, at max capacity with at least one request waiting */
	int last_direction;         /* +1 scale-out, -1 scale-in, 0 no action yet */
	int64_t hour;               /* UTC clock hour (index from t = 0's hour) reversals counts */
	int reversals;              /* direction reversals in that hour */
	int reversals_max;          /* most reversals in any one clock hour */
	int64_t reversals_max_hour; /* the first hour with that many */
	int64_t last_in_us;         /* the latest policy scale-in (INT64_MIN: none yet) */
	int last_in_from, last_in_to; /* ... the capacity it went from and to */
	int rebounds;               /* scale-outs within WARN_REBOUND_US of the scale-in before them that
	                               removed 2 or more and half the fleet, restoring half of it */
	int64_t rebound_first_us;   /* the first of them: the scale-in's time, capacities, and where the */
	int rebound_from, rebound_to, rebound_back; /* scale-out took the capacity back to */
	int64_t arrivals;           /* arrivals before the horizon (trace_past_horizon's count) */
	struct warn_memory mem;     /* the run's memory estimate (memory_budget); zero: not estimated */
};

/* Start counting. measured_from_us: the warm-up's end (0 without one). */
void warn_init(struct warn *w, int64_t measured_from_us, int64_t hour_phase_us);

/* A sample at now_us: the capacity serving (instances in service, or copies serving), the most the scalable
 * target may hold now, and the requests waiting. At max while requests wait means the ceiling binds: more
 * capacity was not allowed, not merely still launching. */
void warn_sample(struct warn *w, int64_t now_us, int capacity, int max, int64_t queue_len);

/* A policy's scaling action at now_us: direction +1 (out) or -1 (in), the capacity going from `from` to
 * `to`. Scheduled actions do not count. */
void warn_scaling(struct warn *w, int64_t now_us, int direction, int from, int to);

/* An arrival before the horizon. */
static inline void warn_arrival(struct warn *w)
{
	w->arrivals++;
}

/*
 * Every warning that holds, into out (room for max, WARN_MAX is enough); returns how many. metrics (n of
 * them, borrowed) are the run's metrics, for the rules that read them.
 */
int warn_collect(const struct warn *w, const struct scenario *sc, const struct sink_metric *metrics, int n,
		 struct sink_warning *out, int max);

/*
 * memory_budget: true (and the warning, code and message, in *out) when m's total is above
 * WARN_MEMORY_BUDGET_BYTES. Also used before a run starts (cmd_run), so that a run that then runs out of
 * memory has said so first.
 */
bool warn_memory_budget(const struct warn_memory *m, const struct scenario *sc, struct sink_warning *out);

/*
 * slo_unreachable, the hook: true (and the message in *out) when the SLO cannot be met by any capacity.
 * Left false until the violation floor (slo_violation_rate_floor) exists to decide it.
 */
bool warn_slo_unreachable(const struct scenario *sc, const struct sink_metric *metrics, int n,
			  struct sink_warning *out);

#endif
