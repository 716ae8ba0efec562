/*
 * arrivals_mmpp: bursts, as a two-state Markov-modulated Poisson process (the `mmpp` kind).
 *
 * The process starts calm. Calm periods last Exp(calm_mean) and bursts Exp(burst_mean), alternating; while
 * calm, requests arrive as a Poisson process at rate_per_s, and during a burst at burst_rate_per_s. In the
 * long run the mean rate is (rate x calm_mean + burst_rate x burst_mean) / (calm_mean + burst_mean) and a
 * fraction burst_rate x burst_mean / (burst_rate x burst_mean + rate x calm_mean) of requests arrive in
 * bursts.
 *
 * The two parts draw from separate streams. The modulation (the path of states) draws from state_rng: one
 * rng_exponential per period, calm first, in order, and nothing else, so the path does not depend on
 * the arrival rates. Arrivals draw from rng, one Exp(1) per arrival and nothing else: given the path, the
 * arrivals are a unit-rate Poisson process mapped through the path's integrated rate L(t) (as in
 * arrivals_rate.c), exact because the rate is piecewise constant. Changing the burst rate therefore moves
 * arrivals but neither re-draws the bursts nor changes which unit-rate points are used.
 *
 * The source never ends by itself (see arrivals_rate.c), except when time no longer fits in int64 us.
 */
#include "arrivals.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "engine.h"
#include "rng.h"
#include "scenario.h"
#include "status.h"

struct mmpp_source {
	struct arrival_source base;  /* must be first */
	gsl_rng *rng;                /* arrival stream (kept, owned by the caller) */
	gsl_rng *state_rng;          /* modulation stream (kept, owned by the caller) */
	double rate_per_s[2];        /* Poisson rate while calm [0] and in a burst [1] */
	double mean_s[2];            /* mean length of a calm period [0] and of a burst [1], > 0 */
	int state;                   /* 0 calm, 1 burst: the state of the current period */
	double period_start_s;       /* when the current period began, seconds from the start */
	double period_end_s;         /* when it ends */
	double period_start_u;       /* L at period_start_s */
	double u;                    /* L at the last arrival */
};

/* Begin a period of `state` at t_s, drawing its length from the modulation stream. */
static void begin_period(struct mmpp_source *src, int state, double t_s, double u)
{
	src->state = state;
	src->period_start_s = t_s;
	src->period_start_u = u;
	src->period_end_s = t_s + rng_exponential(src->state_rng, src->mean_s[state]);
}

static int mmpp_next(struct arrival_source *base, struct arrival *out, struct diag *d)
{
	struct mmpp_source *src = (struct mmpp_source *)base;
	double rate, end_u, t_s;
	int64_t t_us;

	(void)d;
	if (!(src->rate_per_s[0] > 0) && !(src->rate_per_s[1] > 0))
		return STATUS_DONE; /* no arrivals in either state (the loader requires rate_per_s > 0) */
	src->u += rng_exponential(src->rng, 1.0);
	for (;;) {
		rate = src->rate_per_s[src->state];
		end_u = src->period_start_u + rate * (src->period_end_s - src->period_start_s);
		if (src->u <= end_u && rate > 0)
			break;
		if (!(src->period_end_s < INFINITY))
			return STATUS_DONE;
		begin_period(src, 1 - src->state, src->period_end_s, end_u);
	}
	t_s = src->period_start_s + (src->u - src->period_start_u) / rate;
	if (t_s > src->period_end_s)
		t_s = src->period_end_s; /* rounding only: u <= end_u puts it inside the period */
	if (!arrivals_seconds_to_us(t_s, &t_us))
		return STATUS_DONE;
	out->t_us = t_us;
	out->in_tokens = -1;
	out->out_tokens = -1;
	out->service_s = NAN;
	return STATUS_OK;
}

/* Start again calm at t = 0; neither stream is rewound, so a loop draws a fresh path and fresh times. */
static int mmpp_rewind(struct arrival_source *base, struct diag *d)
{
	struct mmpp_source *src = (struct mmpp_source *)base;

	(void)d;
	src->u = 0.0;
	begin_period(src, 0, 0.0, 0.0);
	return STATUS_OK;
}

static void mmpp_free(struct arrival_source *base)
{
	free(base);
}

static const struct arrival_source_ops mmpp_ops = {
	.next = mmpp_next,
	.rewind = mmpp_rewind,
	.free = mmpp_free,
};

struct arrival_source *arrivals_mmpp_new(const struct scenario *sc, gsl_rng *rng, gsl_rng *state_rng)
{
	struct mmpp_source *src;

	/* The loader requires positive means; zero-length periods would spin without advancing time. */
	assert(sc->arrivals.calm_mean_us > 0 && sc->arrivals.burst_mean_us > 0);
	src = calloc(1, sizeof *src);
	if (!src)
		return NULL;
	src->base.ops = &mmpp_ops;
	src->rng = rng;
	src->state_rng = state_rng;
	src->rate_per_s[0] = sc->arrivals.rate_per_s * arrivals_rate_scale(sc);
	src->rate_per_s[1] = sc->arrivals.burst_rate_per_s * arrivals_rate_scale(sc);
	src->mean_s[0] = (double)sc->arrivals.calm_mean_us / (double)SIM_US_PER_S;
	src->mean_s[1] = (double)sc->arrivals.burst_mean_us / (double)SIM_US_PER_S;
	src->u = 0.0;
	begin_period(src, 0, 0.0, 0.0);
	return &src->base;
}
