/*
 * fluid_rate: the expected arrivals of one fluid period, the integral of the scenario's arrival rate over
 * [t0, t1) (fluid.h). The rate functions are those the request-level generators draw from (arrivals_rate.c,
 * arrivals_profile.c, arrivals_flash.c, arrivals_transform.c), written again here without the draws:
 *   poisson, uniform: rate_per_s, then each step's rate from its `at` (piecewise constant: exact);
 *   diurnal: rate_per_s x daily(hour of day) x weekly(day of week) on the wall clock of the scenario's
 *     `timezone` (UTC by default) from `start`; the period is cut at every UTC hour mark (and in a zone at
 *     every local hour mark and change of offset), inside which the weekly factor and an `hourly` factor are constant and the
 *     sinusoid 1 + A cos(2 pi (h - peak) / 24) has a closed-form integral (exact);
 *   flash_crowd: rate_per_s x (1 + magnitude exp(-(t - at) / decay)) from `at` on (closed form: exact);
 * all times scale_rate, and times (1 + growth_per_day)^(t / 1 day), which is taken at the middle of each
 * piece (a relative error of about (g dt / 1 day)^2 / 24: below 1e-12 for a minute at 10%/day).
 */
#include "fluid.h"

#include <math.h>

#include <gsl/gsl_math.h>  /* M_PI */

#include "engine.h"

#define SECONDS_PER_HOUR 3600.0
#define SECONDS_PER_DAY 86400.0
#define EPOCH_WEEKDAY 3  /* 1970-01-01 was a Thursday: day 3 counting Monday as 0 (as arrivals_profile.c) */

static double scale_of(const struct scenario *sc)
{
	return sc->arrivals.scale_rate > 0 ? sc->arrivals.scale_rate : 1.0;
}

/* The integral of the constant-with-steps rate over [a, b) seconds. */
static double steps_integral(const struct scenario *sc, double a, double b)
{
	double sum = 0, from = 0, rate = sc->arrivals.rate_per_s;

	for (int i = 0; i <= sc->arrivals.nsteps; i++) {
		double to = i < sc->arrivals.nsteps ? (double)sc->arrivals.steps[i].at_us / SIM_US_PER_S : INFINITY;
		double lo = a > from ? a : from, hi = b < to ? b : to;
		if (hi > lo)
			sum += rate * (hi - lo);
		if (i < sc->arrivals.nsteps) {
			from = to;
			rate = sc->arrivals.steps[i].rate_per_s;
		}
	}
	return sum;
}

/* The day (from the epoch, floored) and time of day (s) of run time t_s. */
static void clock_of(const struct scenario *sc, double t_s, int64_t *day, double *tod_s)
{
	double x = (double)sc->start_unix_us / SIM_US_PER_S + t_s;

	if (!tzone_is_utc(&sc->tz))  /* local time: the offset at that (whole) second */
		x += tzone_offset(&sc->tz, (int64_t)floor(x));
	double d = floor(x / SECONDS_PER_DAY);

	*day = (int64_t)d;
	*tod_s = x - d * SECONDS_PER_DAY;
}

/* The integral of the diurnal profile over [a, b) seconds, b - a within one clock hour of the zone. */
static double diurnal_piece(const struct scenario *sc, double a, double b)
{
	int64_t day;
	double tod, h0, h1, daily, weekly = 1;
	int wd;

	clock_of(sc, 0.5 * (a + b), &day, &tod);  /* the middle: the clock hour and day of the whole piece */
	wd = (int)(((day + EPOCH_WEEKDAY) % 7 + 7) % 7);
	if (sc->arrivals.has_weekly)
		weekly = sc->arrivals.weekly[wd];
	if (sc->arrivals.has_hourly) {
		int hr = (int)(tod / SECONDS_PER_HOUR);
		daily = sc->arrivals.hourly[hr < 24 ? hr : 23] * (b - a);
	} else {
		/* integral of 1 + A cos(2 pi (h - p) / 24) dt with h = tod / 3600 */
		double w = 2.0 * M_PI / SECONDS_PER_DAY, p = sc->arrivals.peak_hour * SECONDS_PER_HOUR;
		h0 = tod - 0.5 * (b - a);
		h1 = tod + 0.5 * (b - a);
		daily = (b - a) + sc->arrivals.amplitude * (sin(w * (h1 - p)) - sin(w * (h0 - p))) / w;
	}
	return sc->arrivals.rate_per_s * daily * weekly;
}

/* The integral of the flash crowd's rate over [a, b) seconds. */
static double flash_integral(const struct scenario *sc, double a, double b)
{
	double at = (double)sc->arrivals.flash_at_us / SIM_US_PER_S, tau = (double)sc->arrivals.flash_decay_us / SIM_US_PER_S;
	double sum = sc->arrivals.rate_per_s * (b - a), lo = a > at ? a : at;

	if (tau > 0 && b > lo)
		sum += sc->arrivals.rate_per_s * sc->arrivals.flash_magnitude * tau *
		       (exp(-(lo - at) / tau) - exp(-(b - at) / tau));
	return sum;
}

/* The unscaled integral over [a, b), with b - a inside one UTC clock hour (for diurnal). */
static double piece(const struct scenario *sc, double a, double b)
{
	switch (sc->arrivals.kind) {
	case ARRIVAL_DIURNAL:
		return diurnal_piece(sc, a, b);
	case ARRIVAL_FLASH_CROWD:
		return flash_integral(sc, a, b);
	default:
		return steps_integral(sc, a, b);  /* poisson, uniform (the loader refuses the other kinds) */
	}
}

/* The first of utc_mark, the next local hour mark after a and the next change of offset (run seconds). */
static double local_mark(const struct scenario *sc, double a, double utc_mark)
{
	double start_s = (double)sc->start_unix_us / SIM_US_PER_S, at = start_s + a;
	int seg = tzone_segment(&sc->tz, (int64_t)floor(at));
	double off = tzone_segment_offset(&sc->tz, seg), mark = utc_mark;
	double local = (floor((at + off) / SECONDS_PER_HOUR) + 1) * SECONDS_PER_HOUR - off - start_s;

	if (local < mark)
		mark = local;
	if (seg + 1 < sc->tz.nchanges && (double)sc->tz.at_s[seg + 1] - start_s < mark)
		mark = (double)sc->tz.at_s[seg + 1] - start_s;
	return mark > a ? mark : utc_mark;
}

double fluid_rate_integral(const struct scenario *sc, int64_t t0_us, int64_t t1_us)
{
	double a = (double)t0_us / SIM_US_PER_S, b = (double)t1_us / SIM_US_PER_S, sum = 0, g;
	double phase = fmod((double)sc->start_unix_us / SIM_US_PER_S, SECONDS_PER_HOUR);

	if (phase < 0)
		phase += SECONDS_PER_HOUR;
	g = sc->arrivals.growth_per_day;
	while (a < b) {
		/* the next UTC hour mark after a, on the run's clock */
		double mark = (floor((a + phase) / SECONDS_PER_HOUR) + 1) * SECONDS_PER_HOUR - phase;
		double e;

		if (!tzone_is_utc(&sc->tz))
			mark = local_mark(sc, a, mark);
		e = mark < b ? mark : b;
		double grow = g != 0 ? pow(1.0 + g, 0.5 * (a + e) / SECONDS_PER_DAY) : 1.0;
		sum += piece(sc, a, e) * grow;
		a = e;
	}
	return sum * scale_of(sc);
}
