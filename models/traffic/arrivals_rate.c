/*
 * arrivals_rate: a Poisson process, or evenly spaced arrivals, at rate_per_s from t = 0 and then at each
 * step's rate (sc->arrivals.steps), as a source (see arrivals.h).
 *
 * Both kinds are drawn in the time scale of the integrated rate L(t) = integral of the rate from 0 to t:
 * the n-th arrival is at the time where L reaches u_n, with u_n = u_{n-1} + Exp(1) for Poisson and
 * u_n = n for uniform. A unit-rate Poisson process mapped through the inverse of L is a Poisson process of
 * the given rate, and for a piecewise-constant rate the inverse is exact (no thinning, no discretisation).
 * A step to rate 0 pauses arrivals; a last step at rate 0 ends the source (STATUS_DONE).
 *
 * The source knows nothing of the horizon: it yields arrivals for ever (the caller stops at its horizon,
 * after any transform has rescaled time), and ends only when the rate stays 0 or when the next time would
 * no longer fit in an int64 count of microseconds. The Poisson kind draws exactly one Exp(1) per arrival
 * from its stream (rng_exponential), and nothing else.
 */
#include "arrivals.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "convert.h"
#include "engine.h"
#include "rng.h"
#include "scenario.h"
#include "status.h"

struct rate_source {
	struct arrival_source base;      /* must be first */
	gsl_rng *rng;                    /* arrival stream (kept, owned by the caller) */
	bool poisson;                    /* Poisson (true) or evenly spaced (false) */
	struct rate_step steps[SCENARIO_STEPS_MAX + 1];  /* rate from t = 0, then the scenario's steps */
	double cum[SCENARIO_STEPS_MAX + 1];              /* L(t) at each step's start, in arrivals */
	double us_per[SCENARIO_STEPS_MAX + 1];           /* microseconds per arrival in each step, 1e6 / rate */
	int nsteps;                      /* entries used, >= 1 */
	int step;                        /* the step the last arrival fell in */
	double u;                        /* L at the last arrival */
};

/* The time in microseconds where the integrated rate reaches src->u, or +inf if it never does: the step's
 * start plus the arrivals past it times the step's microseconds per arrival (a multiplication, where a
 * division by the rate per arrival cost as much as the rest of the draw). */
static double invert_us(struct rate_source *src)
{
	while (src->step + 1 < src->nsteps && src->u > src->cum[src->step + 1])
		src->step++;
	if (src->steps[src->step].rate_per_s <= 0)
		return INFINITY; /* a zero rate in the last step: no more arrivals */
	return (double)src->steps[src->step].at_us + (src->u - src->cum[src->step]) * src->us_per[src->step];
}

static int rate_next(struct arrival_source *base, struct arrival *out, struct diag *d)
{
	struct rate_source *src = (struct rate_source *)base;
	int64_t t_us;

	(void)d;
	if (src->poisson)
		src->u += rng_exponential(src->rng, 1.0);
	else
		src->u += 1.0;
	if (convert_time_us(invert_us(src), &t_us) != STATUS_OK)
		return STATUS_DONE;
	out->t_us = t_us;
	out->in_tokens = -1;
	out->out_tokens = -1;
	out->service_s = NAN;
	return STATUS_OK;
}

/* Start again from t = 0; the stream is not rewound, so a loop draws fresh times. */
static int rate_rewind(struct arrival_source *base, struct diag *d)
{
	struct rate_source *src = (struct rate_source *)base;

	(void)d;
	src->step = 0;
	src->u = 0.0;
	return STATUS_OK;
}

static void rate_free(struct arrival_source *base)
{
	free(base);
}

static const struct arrival_source_ops rate_ops = {
	.next = rate_next,
	.rewind = rate_rewind,
	.free = rate_free,
};

struct arrival_source *arrivals_rate_new(const struct scenario *sc, gsl_rng *rng)
{
	struct rate_source *src = calloc(1, sizeof *src);

	if (!src)
		return NULL;
	src->base.ops = &rate_ops;
	src->rng = rng;
	src->poisson = sc->arrivals.kind != ARRIVAL_UNIFORM;
	src->steps[0].at_us = 0;
	src->steps[0].rate_per_s = sc->arrivals.rate_per_s * arrivals_rate_scale(sc);
	src->cum[0] = 0.0;
	for (int i = 0; i < sc->arrivals.nsteps; i++) {
		const struct rate_step *prev = &src->steps[i];

		src->steps[i + 1] = sc->arrivals.steps[i];
		src->steps[i + 1].rate_per_s *= arrivals_rate_scale(sc);
		src->cum[i + 1] = src->cum[i] + prev->rate_per_s *
			(double)(src->steps[i + 1].at_us - prev->at_us) / (double)SIM_US_PER_S;
	}
	src->nsteps = sc->arrivals.nsteps + 1;
	for (int i = 0; i < src->nsteps; i++)
		src->us_per[i] = src->steps[i].rate_per_s > 0 ? (double)SIM_US_PER_S / src->steps[i].rate_per_s : INFINITY;
	return &src->base;
}
