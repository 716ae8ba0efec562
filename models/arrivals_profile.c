/*
 * arrivals_profile: the `diurnal` kind, a non-homogeneous Poisson process whose rate follows the clock.
 *
 * The rate at t seconds from the start is
 *     rate(t) = rate_per_s x daily(h) x weekly(d)
 * where h (hours, [0, 24)) and d (0 = Monday) are the hour of day and day of week of sc->start_unix_us + t in
 * UTC. daily(h) = 1 + amplitude cos(2 pi (h - peak_hour) / 24), whose mean over a day is 1, so rate_per_s
 * is the mean rate of an ordinary week with weekly factors of 1; with `hourly`, daily(h) = hourly[floor(h)]
 * (piecewise constant, and then rate_per_s x the mean of the 24 factors is the daily mean). weekly(d) =
 * weekly[d] with `weekly`, else 1.
 *
 * Arrivals are drawn exactly by thinning (Lewis and Shedler 1979): candidates come from a Poisson process at
 * the largest rate the profile reaches, max_rate, and each is kept with probability rate(t) / max_rate.
 * This costs max_rate / mean rate candidates per arrival: 2 for amplitude 1, more for spiky hourly tables,
 * which is fine for the profiles planners write (a table of mostly zeros would be better served by bounds
 * per hour). Both the candidates and the coin flips come from the one arrival stream.
 *
 * Like every synthetic source this one knows nothing of the horizon (see arrivals_rate.c); it ends only if
 * the profile is zero everywhere or time no longer fits in int64 microseconds.
 */
#include "arrivals.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include <gsl/gsl_math.h>  /* M_PI, which strict C11 does not define */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "engine.h"
#include "scenario.h"
#include "status.h"

#define SECONDS_PER_HOUR 3600.0
#define SECONDS_PER_DAY 86400.0
#define EPOCH_WEEKDAY 3  /* 1970-01-01 was a Thursday: day 3 counting Monday as 0 */

struct profile_source {
	struct arrival_source base;  /* must be first */
	gsl_rng *rng;                /* arrival stream (kept, owned by the caller) */
	double rate_per_s;           /* base rate */
	double amplitude;            /* of the daily sinusoid, [0, 1] */
	double peak_hour;            /* hour of day of its peak, [0, 24) */
	double hourly[24];           /* factors per hour of day, when has_hourly */
	bool has_hourly;
	double weekly[7];            /* factors per day of week, Monday first (all 1 without `weekly`) */
	double max_rate_per_s;       /* the largest value rate(t) takes: the thinning bound */
	double start_tod_s;          /* time of day of the scenario start, seconds in [0, 86400) */
	int start_weekday;           /* day of week of the scenario start, 0 = Monday */
	double t_s;                  /* the last candidate, seconds from the start */
};

static double daily_factor(const struct profile_source *src, double hour)
{
	if (src->has_hourly) {
		int i = (int)hour;

		return src->hourly[i < 24 ? i : 23]; /* hour < 24 always; the guard is for rounding */
	}
	return 1.0 + src->amplitude * cos(2.0 * M_PI * (hour - src->peak_hour) / 24.0);
}

/* rate(t) for t seconds from the start. */
static double profile_rate(const struct profile_source *src, double t_s)
{
	double x = src->start_tod_s + t_s;
	double days = floor(x / SECONDS_PER_DAY);
	double tod = x - days * SECONDS_PER_DAY;
	int weekday = (int)((src->start_weekday + (int64_t)days) % 7);

	return src->rate_per_s * daily_factor(src, tod / SECONDS_PER_HOUR) * src->weekly[weekday];
}

static int profile_next(struct arrival_source *base, struct arrival *out, struct diag *d)
{
	struct profile_source *src = (struct profile_source *)base;
	double max = src->max_rate_per_s;
	int64_t t_us;

	(void)d;
	if (!(max > 0))
		return STATUS_DONE;
	for (;;) {
		src->t_s += gsl_ran_exponential(src->rng, 1.0 / max);
		if (!arrivals_seconds_to_us(src->t_s, &t_us))
			return STATUS_DONE;
		/* Keep with probability rate / max: uniform is in [0, 1), so rate == max always keeps. */
		if (gsl_rng_uniform(src->rng) * max < profile_rate(src, src->t_s))
			break;
	}
	out->t_us = t_us;
	out->in_tokens = -1;
	out->out_tokens = -1;
	out->service_s = NAN;
	return STATUS_OK;
}

static int profile_rewind(struct arrival_source *base, struct diag *d)
{
	struct profile_source *src = (struct profile_source *)base;

	(void)d;
	src->t_s = 0.0;
	return STATUS_OK;
}

static void profile_free(struct arrival_source *base)
{
	free(base);
}

static const struct arrival_source_ops profile_ops = {
	.next = profile_next,
	.rewind = profile_rewind,
	.free = profile_free,
};

static double max_of(const double *v, int n)
{
	double m = v[0];

	for (int i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

struct arrival_source *arrivals_profile_new(const struct scenario *sc, gsl_rng *rng)
{
	struct profile_source *src = calloc(1, sizeof *src);
	int64_t s0 = sc->start_unix_us, day_us = 86400 * INT64_C(1000000);
	int64_t day = s0 / day_us, tod = s0 % day_us;
	double max_daily;

	if (!src)
		return NULL;
	src->base.ops = &profile_ops;
	src->rng = rng;
	src->rate_per_s = sc->arrivals.rate_per_s * arrivals_rate_scale(sc);
	src->amplitude = sc->arrivals.amplitude;
	src->peak_hour = sc->arrivals.peak_hour;
	src->has_hourly = sc->arrivals.has_hourly;
	for (int i = 0; i < 24; i++)
		src->hourly[i] = sc->arrivals.hourly[i];
	for (int i = 0; i < 7; i++)
		src->weekly[i] = sc->arrivals.has_weekly ? sc->arrivals.weekly[i] : 1.0;
	if (tod < 0) { /* C division truncates toward zero; a start before 1970 needs the floor */
		tod += day_us;
		day--;
	}
	src->start_tod_s = (double)tod / 1e6;
	src->start_weekday = (int)(((day + EPOCH_WEEKDAY) % 7 + 7) % 7);
	max_daily = src->has_hourly ? max_of(src->hourly, 24) : 1.0 + src->amplitude;
	src->max_rate_per_s = src->rate_per_s * max_daily * max_of(src->weekly, 7);
	return &src->base;
}
