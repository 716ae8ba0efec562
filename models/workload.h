/*
 * workload: where requests come from and how much work each one is.
 *
 * A workload answers one question, "what is the next request?": its arrival time and its service time on
 * one serving slot. Arrivals and service times draw from separate named streams ("arrivals", "service"),
 * so a change of policy or fleet replays identical traffic. Service times are drawn with the arrival, in
 * arrival order, for the same reason: which instance serves a request cannot change how long it takes.
 *
 * Arrival kinds: Poisson, or evenly spaced ("uniform", a deterministic load), at a rate that is constant or
 * changes in steps. Both are drawn in the time scale of the integrated rate L(t) = integral of rate from 0
 * to t: the n-th arrival is at the time where L reaches u_n, with u_n = u_{n-1} + Exp(1) for Poisson (a
 * unit-rate Poisson process mapped through the inverse of L is a Poisson process of the given rate, exact
 * for piecewise-constant rates) and u_n = n for uniform. A step to rate 0 pauses arrivals. Service kinds: constant, exponential, lognormal parameterised by
 * mean and coefficient of variation (sigma^2 = ln(1 + cv^2), mu = ln(mean) - sigma^2 / 2). Service times
 * are rounded to whole microseconds and are at least 1 us.
 *
 * The workload ends (STATUS_DONE) at the first arrival after the horizon. Owned streams are freed by
 * workload_fini. Nothing is allocated per request.
 */
#ifndef GPUCAP_WORKLOAD_H
#define GPUCAP_WORKLOAD_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "scenario.h"

struct workload {
	enum arrival_kind arrival_kind;  /* how arrivals are drawn */
	struct rate_step steps[SCENARIO_STEPS_MAX + 1];  /* rate from t = 0, then the scenario's steps */
	double cum[SCENARIO_STEPS_MAX + 1];              /* L(t) at each step's start */
	int nsteps;                      /* entries used, >= 1 */
	int step;                        /* the step the last arrival fell in */
	double u;                        /* L at the last arrival */
	enum service_kind service_kind;  /* service-time distribution */
	double mean_s;                   /* its mean, seconds */
	double ln_mu, ln_sigma;          /* lognormal parameters (of ln of seconds) */
	int64_t horizon_us;              /* no arrivals after this */
	gsl_rng *arrivals;               /* stream "arrivals", owned */
	gsl_rng *service;                /* stream "service", owned */
};

struct request_draw {
	int64_t arrival_us;  /* arrival time, microseconds from the start */
	int64_t service_us;  /* service time on one slot, microseconds, >= 1 */
};

/* Set up from a validated scenario. STATUS_OK or STATUS_ENOMEM (then nothing is held). */
int workload_init(struct workload *w, const struct scenario *sc);
void workload_fini(struct workload *w);

/* Draw the next request into *out: STATUS_OK, or STATUS_DONE when it would arrive after the horizon. */
int workload_next(struct workload *w, struct request_draw *out);

#endif
