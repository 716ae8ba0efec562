/*
 * arrivals_flash: a flash crowd (the `flash_crowd` kind), a Poisson process at
 *     rate(t) = rate_per_s                                            for t < at
 *     rate(t) = rate_per_s x (1 + magnitude x exp(-(t - at) / decay))  for t >= at,
 * so the spike jumps to (1 + magnitude) times the base rate at `at` and brings rate_per_s x magnitude x
 * decay requests on top of the base load in all.
 *
 * Before `at` the rate is constant and arrivals are plain exponential gaps; a gap that would cross `at` is
 * dropped and the process restarts at `at` (memorylessness makes this exact). From `at` on the rate only
 * decreases, so the rate at the current time bounds it for everything later: each candidate is drawn at the
 * bound rate(t) of the time it starts from and kept with probability rate(candidate) / bound (thinning,
 * Lewis and Shedler 1979, with a bound refreshed at every candidate, rejected or not). The share rejected is
 * about the relative fall of the rate over one gap: small whenever the decay spans many arrivals.
 * Candidates and coin flips come from the one arrival stream.
 *
 * The source never ends by itself (see arrivals_rate.c), except when time no longer fits in int64 us.
 */
#include "arrivals.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "engine.h"
#include "rng.h"
#include "scenario.h"
#include "status.h"

struct flash_source {
	struct arrival_source base;  /* must be first */
	gsl_rng *rng;                /* arrival stream (kept, owned by the caller) */
	double rate_per_s;           /* base rate, before and long after the spike */
	double at_s;                 /* start of the spike, seconds from the start */
	double magnitude;            /* extra rate at the peak, a multiple of rate_per_s */
	double decay_s;              /* time constant of the decay, > 0 (or the spike is ignored) */
	double t_s;                  /* the last candidate (or `at`, after a restart there) */
};

/* rate(t) for t >= at. */
static double spike_rate(const struct flash_source *src, double t_s)
{
	if (!(src->decay_s > 0))
		return src->rate_per_s;
	return src->rate_per_s * (1.0 + src->magnitude * exp(-(t_s - src->at_s) / src->decay_s));
}

/* Advance src->t_s to the next arrival; false when no arrival will ever come. */
static bool advance(struct flash_source *src)
{
	double bound, cand;

	while (src->t_s < src->at_s) {
		cand = src->t_s + rng_exponential(src->rng, 1.0 / src->rate_per_s);
		if (cand < src->at_s) {
			src->t_s = cand;
			return true;
		}
		src->t_s = src->at_s; /* the gap crossed `at`: restart there at the spike's rate */
	}
	for (;;) {
		bound = spike_rate(src, src->t_s);
		cand = src->t_s + rng_exponential(src->rng, 1.0 / bound);
		if (!(cand < INFINITY))
			return false;
		src->t_s = cand;
		/* uniform is in [0, 1): a candidate whose rate equals the bound is always kept */
		if (rng_uniform(src->rng) * bound < spike_rate(src, cand))
			return true;
	}
}

static int flash_next(struct arrival_source *base, struct arrival *out, struct diag *d)
{
	struct flash_source *src = (struct flash_source *)base;
	int64_t t_us;

	(void)d;
	if (!(src->rate_per_s > 0))
		return STATUS_DONE; /* the loader requires rate_per_s > 0; this keeps the loops finite */
	if (!advance(src) || !arrivals_seconds_to_us(src->t_s, &t_us))
		return STATUS_DONE;
	out->t_us = t_us;
	out->in_tokens = -1;
	out->out_tokens = -1;
	out->service_s = NAN;
	return STATUS_OK;
}

static int flash_rewind(struct arrival_source *base, struct diag *d)
{
	struct flash_source *src = (struct flash_source *)base;

	(void)d;
	src->t_s = 0.0;
	return STATUS_OK;
}

static void flash_free(struct arrival_source *base)
{
	free(base);
}

static const struct arrival_source_ops flash_ops = {
	.next = flash_next,
	.rewind = flash_rewind,
	.free = flash_free,
};

struct arrival_source *arrivals_flash_new(const struct scenario *sc, gsl_rng *rng)
{
	struct flash_source *src = calloc(1, sizeof *src);

	if (!src)
		return NULL;
	src->base.ops = &flash_ops;
	src->rng = rng;
	src->rate_per_s = sc->arrivals.rate_per_s * arrivals_rate_scale(sc);
	src->at_s = (double)sc->arrivals.flash_at_us / (double)SIM_US_PER_S;
	src->magnitude = sc->arrivals.flash_magnitude;
	src->decay_s = (double)sc->arrivals.flash_decay_us / (double)SIM_US_PER_S;
	src->t_s = 0.0;
	return &src->base;
}
