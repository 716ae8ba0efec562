/*
 * autoscale: the run's autoscaler. It measures every metric a policy may track over each autoscaling
 * period (autoscaling.resolution_s), asks the policies (policy.h) what capacity they want, combines their
 * answers, clamps them to the bounds in force and sets the scalable target: the fleet's desired instances,
 * or with model copies the desired copies. It also scales from zero, and runs the scheduled actions that move
 * the bounds (SOURCES.md [scheduled-actions]). The policies decide; this file measures, combines and acts.
 *
 * The world (world.c) owns one struct autoscale and the models it points to, and calls, in this order:
 * autoscale_init() once the fleet, serving, copies and jobs are set up; autoscale_start() when the run's
 * other events are scheduled (its evaluation and its first scheduled action come after them at equal
 * times); autoscale_stop() at the horizon; autoscale_fini() after the engine's. It counts its scalings in
 * the meter (scale_outs, scale_ins), logs them as events (meter_event) and tells the warnings (warn_scaling).
 *
 * Units: run time in microseconds (engine.h); capacity in autoscaling's unit (instances, GPUs or slots, or
 * copies with copies). Errors: init returns a status; an event the engine refuses fails the run through the
 * meter (meter_fail) and stops the engine, as the world's own events do.
 */
#ifndef GPUCAP_AUTOSCALE_H
#define GPUCAP_AUTOSCALE_H

#include <stdbool.h>
#include <stdint.h>

#include "copies.h"
#include "engine.h"
#include "fleet.h"
#include "gpumetric.h"
#include "meter.h"
#include "metriclag.h"
#include "policy.h"
#include "scenario.h"
#include "serving.h"
#include "warn.h"

struct autoscale {
	const struct scenario *sc;   /* borrowed */
	struct engine *eng;          /* kept */
	struct meter *meter;         /* kept */
	struct fleet *fleet;         /* kept: the scalable target without copies */
	struct serving *serving;     /* kept: its queue and refusals feed scale from zero */
	struct copies *copies;       /* kept: the scalable target with copies; NULL without */
	struct warn *warn;           /* kept: told of every scaling (warn_scaling) */
	struct gpumetric gm;         /* GPU metrics (gpumetric.h), when gm_on */
	bool gm_on;                  /* a policy uses a GPU metric */
	struct metriclag lag;        /* autoscaling.metric_delay_s (metriclag.h); periods 0 = none */
	struct policy *policy;       /* owned; NULL for `none` */
	struct policy *also[2];      /* owned: more target-tracking policies (autoscaling.also) */
	int nalso;
	int backlog_periods;         /* consecutive evaluations with no capacity and requests waiting (async)
	                                or refused (realtime) */
	uint64_t refused_at_eval;    /* serving's refusals for want of capacity at the previous evaluation */
	struct event evaluate;       /* the next policy evaluation */
	struct event scheduled;      /* the next scheduled action's firing */
	int64_t action_next_us[SCENARIO_SCHEDULE_MAX];  /* each action's next firing; INT64_MAX = none */
	int min, max;                /* the autoscaling bounds now: the scenario's, then as scheduled */
	double busy_at_eval;         /* meter integrals at the previous evaluation */
	double service_at_eval;
	double slots_at_eval;        /* several types: the meter's service_slot_us at the previous evaluation */
	double type_service_at_eval[METER_TYPES_MAX];  /* several types, capacity_unit gpus or slots: each
	                                                   type's service_inst_us then */
	double queued_at_eval;
	double queued_served_at_eval;
	uint64_t arrivals_at_eval;
};

/*
 * Set a up for sc on zeroed storage: the GPU metrics when a policy uses one (and serving->gm pointed at
 * them), the metrics' delay, the policies. All the pointers are kept; copies is NULL without copies.
 * Returns STATUS_OK, or STATUS_ENOMEM (or a policy's or gpumetric's status); autoscale_fini() frees what
 * was made either way.
 */
int autoscale_init(struct autoscale *a, const struct scenario *sc, struct engine *eng, struct meter *meter,
		   struct fleet *fleet, struct serving *serving, struct copies *copies, struct warn *warn);

/* Schedule the first evaluation (when a policy scales) and the first scheduled action (when any). */
void autoscale_start(struct autoscale *a);

/* Cancel both events (at the horizon: nothing scales while the run drains). */
void autoscale_stop(struct autoscale *a);

/* Free the policies and the metrics' state; a zeroed struct is allowed. Call after engine_fini(). */
void autoscale_fini(struct autoscale *a);

/* Starting capacity: the counts in the fleet, raised to autoscaling.min and capped at max if scaling;
 * with copies, the initial copies (the scenario loader settled them). */
int autoscale_initial_capacity(const struct scenario *sc);

/* The most the scalable target may hold now: the autoscaling max in force, and for instances the fleet
 * entries' max (fleet_serving_capacity) too. */
int autoscale_capacity_max(const struct autoscale *a);

/* The name of ev for messages when it is one of the autoscaler's events, else NULL. */
const char *autoscale_event_name(const struct autoscale *a, const struct event *ev);

#endif
