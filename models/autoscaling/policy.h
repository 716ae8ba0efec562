/*
 * policy: the autoscaling-policy interface.
 *
 * Every `resolution` the run measures the policy's metric over the period just ended and asks the policy
 * what capacity it wants now. A policy answers from the metric, the current capacity (instances launching
 * or serving, as the scalable target reports its capacity) and the time; it keeps its own state (cooldowns)
 * and knows nothing of instances, money or the queue. The run clamps the answer to [min, max] and to what
 * the fleet can hold, and logs the decision with its reason.
 *
 * A missing metric (NaN: no instance was in service during the period) means "insufficient data", and
 * every policy then leaves capacity alone (SOURCES.md [aas-missing-data]: "Missing datapoints -> alarm
 * INSUFFICIENT_DATA -> no scaling until new data").
 *
 * Adding a policy is one file that fills in struct policy_ops and one case in policy_new().
 */
#ifndef GPUCAP_POLICY_H
#define GPUCAP_POLICY_H

#include <stdint.h>

#include "scenario.h"

enum policy_action {
	POLICY_HOLD = 0,
	POLICY_SCALE_OUT = 1,
	POLICY_SCALE_IN = -1
};

struct policy_input {
	int64_t now_us;   /* time of the evaluation */
	double metric;    /* the metric over the period just ended; NaN when missing */
	int capacity;     /* current capacity (launching + serving instances) */
	double ready;     /* instances (with copies: copies) in service over the period just ended, on
	                     average; fewer than capacity while some are still starting */
	double arrivals_per_s;      /* arrivals over the period just ended / the period, 1/s */
	double busy_per_arrival_s;  /* busy slot-seconds over the period / its arrivals, s; NaN: no arrival */
	int slots;                  /* request slots per instance (serving.slots) */
};

struct policy_decision {
	enum policy_action action;  /* what to do */
	int desired;                /* the new capacity (equal to input capacity when holding) */
	char reason[96];            /* one line: metric, target, rule applied */
};

struct policy;

struct policy_ops {
	const char *name;  /* scenario spelling */
	void (*decide)(struct policy *p, const struct policy_input *in, struct policy_decision *out);
	void (*free)(struct policy *p);
};

/*
 * The bounds live here, not in each policy, because the run moves them: a scheduled action
 * (SOURCES.md [scheduled-actions]) sets MinCapacity/MaxCapacity while the policy keeps its cooldowns and
 * history. A policy clamps its answers to [min, max] as they are at the evaluation; the run also clamps every
 * decision to them (so a policy that still keeps its own copy from the scenario cannot leave them).
 */
struct policy {
	const struct policy_ops *ops;  /* the implementation */
	int min;                       /* capacity bounds, instances: autoscaling.min, then scheduled */
	int max;                       /* ... autoscaling.max, then scheduled; min <= max */
};

/* The policy the scenario asks for (returns owned), or NULL for `none` and when out of memory: *status
 * tells which (STATUS_OK or STATUS_ENOMEM). */
struct policy *policy_new(const struct scenario *sc, int *status);

/* Free a policy; NULL allowed. */
void policy_free(struct policy *p);

/* Target tracking (policy_target.c). */
struct policy *policy_target_new(const struct scenario *sc);

/* Target tracking with another target value (one of autoscaling.also; the rest from the scenario). */
struct policy *policy_target_new_for(const struct scenario *sc, double target);

/* Step scaling on a scale-out and a scale-in alarm (policy_step.c); copies what it needs from sc. */
struct policy *policy_step_new(const struct scenario *sc);

/* Kubernetes HPA (policy_hpa.c): target metric value, tolerance (0.1), replica bounds, scale-down
 * stabilisation window (300 s), and the scale-up limit per period: the larger of up_percent of the current
 * replicas (100) and up_pods (4). */
struct policy *policy_hpa_new(double target, double tolerance, int min, int max, int64_t window_us,
			      double up_percent, int up_pods);

/* Predictive scaling on the traffic's own history (policy_predictive.c); copies what it needs from sc and
 * allocates its history once, here. NULL when out of memory. */
struct policy *policy_predictive_new(const struct scenario *sc);

/* The predictive policy's forecast of the arrival rate (1/s) for the period containing run time at_us,
 * from the history seen so far; NaN when the history does not reach it. For tests; p must be predictive. */
double policy_predictive_forecast(const struct policy *p, int64_t at_us);

#endif
