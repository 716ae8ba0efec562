/*
 * arrivals_profile: the `diurnal` kind, a non-homogeneous Poisson process whose rate follows the clock.
 *
 * The rate at t seconds from the start is
 *     rate(t) = rate_per_s x daily(h) x weekly(d)
 * where h (hours, [0, 24)) and d (0 = Monday) are the hour of day and day of week of sc->start_unix_us + t on
 * the wall clock of the scenario's `timezone` (UTC by default; models/README.md, "Local time"): the profile
 * is a function of local time, so on the days daylight saving starts or ends the local day has 23 or 25
 * hours, and the rate jumps with the clock (from the value at 02:00 to that at 03:00 when it springs
 * forward; an hour's values again when it falls back). daily(h) = 1 + amplitude cos(2 pi (h - peak_hour) / 24), whose mean over a day is 1, so rate_per_s
 * is the mean rate of an ordinary week with weekly factors of 1; with `hourly`, daily(h) = hourly[floor(h)]
 * (piecewise constant, and then rate_per_s x the mean of the 24 factors is the daily mean). weekly(d) =
 * weekly[d] with `weekly`, else 1.
 *
 * Arrivals are drawn exactly by thinning (Lewis and Shedler 1979) against a piecewise-constant bound: the
 * day is cut into 1440 steps of a minute, and for each step we keep a lower and an upper bound of the
 * rate, lo <= rate_per_s x daily <= hi, of the value the exact computation can return anywhere in it (the
 * exact rate at both ends, the sinusoid's peak or trough when it lies in the step, widened by 2^-30 of the
 * largest daily rate: floating-point error is under 1e-14 of it, see bound_steps). Inside a step,
 * candidates come from a Poisson process at hi x weekly (the step's day's weekly factor), and each is kept
 * with probability rate(t) / (hi x weekly): with u x hi x weekly < lo x weekly it is kept without
 * computing rate(t) (the squeeze), else rate(t) decides. A candidate past the step's end is not used: by
 * the exponential's lack of memory the process starts afresh at the end, at the next step's bound (a step
 * whose bound is 0, a closed hour or day, draws nothing). Each candidate costs two draws from the arrival
 * stream, an exponential gap and a uniform, and each step one more gap (the one that overshoots it).
 *
 * Why a bound per step rather than one for the whole profile (SOURCES.md [thinning-piecewise]): a
 * candidate costs a logarithm (its exponential gap), and with one bound a profile needs max / mean
 * candidates per arrival (1.6 at amplitude 0.6, 2 at amplitude 1, more for spiky hourly tables). A
 * minute's bound exceeds the rate in it by at most the rate's change over a minute, so a sinusoid needs
 * 1 + amplitude / 1440 candidates per arrival on average, plus one draw per step; the exact rate (a cos)
 * is needed for about one candidate in 2000 at amplitude 0.6 (those between the step's bounds). This
 * changed the draws from those of one global bound (issue 17): the same scenario and seed now give other
 * arrivals, from the same process.
 *
 * In a zone other than UTC the steps stay whole UTC minutes: the zone's offsets and changes are whole minutes
 * (tzone.h), so each step is one minute of the local day, k = (UTC minute + offset) mod 1440, whose bounds
 * hold as above, with the weekly factor of its local day. In UTC every number is computed as before.
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

#include "convert.h"
#include "engine.h"
#include "rng.h"
#include "scenario.h"
#include "status.h"
#include "tzone.h"

#define SECONDS_PER_HOUR 3600.0
#define SECONDS_PER_DAY 86400.0
#define EPOCH_WEEKDAY 3  /* 1970-01-01 was a Thursday: day 3 counting Monday as 0 */
#define STEP_S 60.0      /* the squeeze's step: a minute (an hour and the sinusoid's peak are whole steps
                            apart, and a minute's rate changes by at most 0.44% of the amplitude) */
#define NSTEPS 1440      /* steps in a day */

struct profile_source {
	struct arrival_source base;  /* must be first */
	gsl_rng *rng;                /* arrival stream (kept, owned by the caller) */
	double rate_per_s;           /* base rate */
	double amplitude;            /* of the daily sinusoid, [0, 1] */
	double peak_hour;            /* hour of day of its peak, [0, 24) */
	double hourly[24];           /* factors per hour of day, when has_hourly */
	bool has_hourly;
	double weekly[7];            /* factors per day of week, Monday first (all 1 without `weekly`) */
	double max_rate_per_s;       /* the largest value rate(t) takes (0: the profile is closed for good) */
	double start_tod_s;          /* time of day of the scenario start, seconds in [0, 86400) */
	int start_weekday;           /* day of week of the scenario start, 0 = Monday */
	int64_t first_step;          /* the step holding the start: floor(start_tod_s / 60) */
	double step_lo[NSTEPS];      /* per minute of day: at most rate_per_s x daily anywhere in it, per s */
	double step_hi[NSTEPS];      /* and at least it, per s (bound_steps) */
	double x;                    /* the last candidate (or step start), seconds from the start day's 00:00 */
	int64_t step;                /* the current step: x in [60 step, 60 (step + 1)) */
	double step_end;             /* 60 (step + 1) */
	double step_day;             /* its day, whole days from the start day: step / 1440 */
	double step_w;               /* that day's weekly factor */
	double step_lo_w, step_hi_w; /* the step's bounds times step_w: bounds of rate(t) in it */
	double step_gap;             /* 1 / step_hi_w: the mean gap between candidates (0 when hi_w is 0) */
	uint64_t candidates;         /* exponential gaps drawn so far (for tests: arrivals_profile_candidates) */
	struct tzone tz;             /* the scenario's zone (a copy) */
	bool local;                  /* tz is not UTC: steps are mapped to local minutes */
	int64_t start_day_s;         /* unix seconds of the start day's 00:00 UTC */
	int seg;                     /* tz's segment at the current step (a cursor; tzone_segment) */
	double step_shift;           /* local: local time of day minus UTC time of day in the step, s */
	double step_tod_lo;          /* local: the step's minute of the local day, [lo, lo + 60) s */
};

static double daily_factor(const struct profile_source *src, double hour)
{
	if (src->has_hourly) {
		int i = (int)hour;

		return src->hourly[i < 24 ? i : 23]; /* hour < 24 always; the guard is for rounding */
	}
	return 1.0 + src->amplitude * cos(2.0 * M_PI * (hour - src->peak_hour) / 24.0);
}

/*
 * Where t seconds from the start falls: *days, the day since the epoch (a whole number), and *tod_s, the
 * time of day in seconds. tod_s is exact given x (x - days x 86400 is exact: Sterbenz), below 86400, and
 * only negative, by less than an ulp of x, when x / 86400 rounds up to a whole day just before midnight.
 */
static void clock_of(const struct profile_source *src, double t_s, double *days, double *tod_s)
{
	double x = src->start_tod_s + t_s;

	if (src->local)  /* the local clock: the offset at that (whole) second */
		x += tzone_offset(&src->tz, src->start_day_s + (int64_t)floor(x));

	*days = floor(x / SECONDS_PER_DAY);
	*tod_s = x - *days * SECONDS_PER_DAY;
}

static double weekly_of(const struct profile_source *src, double days)
{
	return src->weekly[(int)(((src->start_weekday + (int64_t)days) % 7 + 7) % 7)];
}

/* rate(t) for t seconds from the start. */
static double profile_rate(const struct profile_source *src, double t_s)
{
	double days, tod;

	clock_of(src, t_s, &days, &tod);
	return src->rate_per_s * daily_factor(src, tod / SECONDS_PER_HOUR) * weekly_of(src, days);
}

/* For a step in a zone: the local day (from the start day) and minute of the local day of UTC step n. */
static void local_step(struct profile_source *src, int64_t n, int64_t *lday, int *k)
{
	int64_t unix_s = src->start_day_s + (int64_t)STEP_S * n, l;
	const struct tzone *tz = &src->tz;

	if ((src->seg >= 0 && tz->at_s[src->seg] > unix_s) ||
	    (src->seg + 1 < tz->nchanges && tz->at_s[src->seg + 1] <= unix_s))
		src->seg = tzone_segment(tz, unix_s);  /* a jump (rewind, a test); the run moves one step on */
	l = n + tzone_segment_offset(tz, src->seg) / (int32_t)STEP_S;  /* local minute from the start day */
	*lday = l >= 0 ? l / NSTEPS : -((-l + NSTEPS - 1) / NSTEPS);
	*k = (int)(l - *lday * NSTEPS);
}

/* Make step n current: its span, its day and that day's weekly factor, its bounds. */
static void enter_step(struct profile_source *src, int64_t n)
{
	int64_t day = n / NSTEPS, lday = day;  /* n >= 0 */
	int k = (int)(n % NSTEPS);

	if (src->local) {
		local_step(src, n, &lday, &k);
		src->step_shift = (double)(tzone_segment_offset(&src->tz, src->seg) - (lday - day) * NSTEPS * 60);
		src->step_tod_lo = STEP_S * k;
	}
	src->step = n;
	src->step_end = STEP_S * (double)(n + 1);
	src->step_day = (double)day;
	src->step_w = src->weekly[((src->start_weekday + lday) % 7 + 7) % 7];
	src->step_lo_w = src->step_lo[k] * src->step_w;
	src->step_hi_w = src->step_hi[k] * src->step_w;
	src->step_gap = src->step_hi_w > 0 ? 1.0 / src->step_hi_w : 0;
}

/*
 * rate(t) for a candidate at x in the current step, as profile_rate computes it but on the step's own day:
 * tod = x - day x 86400 is exact (Sterbenz) and lies in the step's minute, so the value is within the
 * step's bounds (bound_steps; a product by step_w >= 0 keeps the order, rounding being monotone) even where
 * x / 86400 would round to the next day a hair before midnight.
 */
static double step_rate(const struct profile_source *src, double x)
{
	double tod = x - src->step_day * SECONDS_PER_DAY;

	if (src->local) {  /* tod is exact and the shift a whole number: only rounding can leave the minute */
		tod += src->step_shift;
		if (tod < src->step_tod_lo)
			tod = src->step_tod_lo;
		else if (tod >= src->step_tod_lo + STEP_S)
			tod = nextafter(src->step_tod_lo + STEP_S, 0.0);
	}

	return src->rate_per_s * daily_factor(src, tod / SECONDS_PER_HOUR) * src->step_w;
}

/* True while x seconds from the start day's 00:00 is still on the clock (arrivals_seconds_to_us's test). */
static bool on_clock(const struct profile_source *src, double x)
{
	return (x - src->start_tod_s) * (double)SIM_US_PER_S < CONVERT_TIME_MAX_US;
}

static int profile_next(struct arrival_source *base, struct arrival *out, struct diag *d)
{
	struct profile_source *src = (struct profile_source *)base;
	int64_t t_us;

	(void)d;
	if (!(src->max_rate_per_s > 0))
		return STATUS_DONE;  /* closed every hour of every day: the loop below would never end */
	for (;;) {
		if (src->step_hi_w > 0) {
			double x = src->x + rng_exponential(src->rng, src->step_gap);

			src->candidates++;
			if (x < src->step_end) {
				double m;

				src->x = x;
				if (!on_clock(src, x))
					return STATUS_DONE;
				/* keep with probability rate / hi_w: below lo_w without computing the rate */
				m = rng_uniform(src->rng) * src->step_hi_w;
				if (m < src->step_lo_w || m < step_rate(src, x))
					break;
				continue;
			}
		}
		/* past the step (or a step with no traffic): the process starts afresh at its end */
		src->x = src->step_end;
		if (!on_clock(src, src->x))
			return STATUS_DONE;
		enter_step(src, src->step + 1);
	}
	(void)arrivals_seconds_to_us(src->x - src->start_tod_s, &t_us);  /* it fits: tested in the loop */
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
	src->x = src->start_tod_s;
	enter_step(src, src->first_step);
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

/* True if the sinusoid's extreme at time of day e_s (or a day either side) lies in [a_s, b_s] widened by a
 * second: more than enough for the rounding of peak_hour x 3600 against where the cos peaks. */
static bool holds_extreme(double a_s, double b_s, double e_s)
{
	for (int i = -1; i <= 1; i++) {
		double e = e_s + i * SECONDS_PER_DAY;
		if (e >= a_s - 1 && e <= b_s + 1)
			return true;
	}
	return false;
}

/*
 * Fill step_lo and step_hi: for step k, [k x 60, (k + 1) x 60] seconds of the day, bounds of what
 * rate_per_s x daily_factor(tod / 3600) evaluates to for any tod in it.
 *  - hourly: daily_factor takes the factor of (int)(tod / 3600), a monotone function of tod, so inside the
 *    step it is one of the two ends' factors; the ends bound it exactly.
 *  - sinusoid: the real function is monotone on a step holding no extreme, so it lies between its values at
 *    the ends; where a step holds the peak (trough) the bound is rate_per_s x (1 + a) (x (1 - a)), which the
 *    computed cos (in [-1, 1]) cannot pass. The computed value differs from the real one by the rounding of
 *    tod / 3600, of the argument (|arg| <= 2 pi), of cos (glibc: under an ulp) and of the sums and
 *    products: under 1e-14 x rate_per_s x (1 + a) in all, at the ends as inside.
 * Each bound is then widened by 2^-30 (9.3e-10) of the largest daily rate, which covers that error 10^4 times
 * over and costs nothing measurable: a candidate lands in the widening with probability about 2 x 10^-9.
 */
static void bound_steps(struct profile_source *src)
{
	double top = src->rate_per_s * (src->has_hourly ? max_of(src->hourly, 24) : 1.0 + src->amplitude);
	double margin = ldexp(top, -30);
	double peak_s = src->peak_hour * SECONDS_PER_HOUR;
	double trough_s = fmod(src->peak_hour + 12.0, 24.0) * SECONDS_PER_HOUR;

	for (int k = 0; k < NSTEPS; k++) {
		double a_s = STEP_S * k, b_s = STEP_S * (k + 1);
		double va = src->rate_per_s * daily_factor(src, a_s / SECONDS_PER_HOUR);
		double vb = src->rate_per_s * daily_factor(src, b_s / SECONDS_PER_HOUR);
		double lo = va < vb ? va : vb, hi = va < vb ? vb : va;

		if (!src->has_hourly && holds_extreme(a_s, b_s, peak_s))
			hi = src->rate_per_s * (1.0 + src->amplitude);
		if (!src->has_hourly && holds_extreme(a_s, b_s, trough_s))
			lo = src->rate_per_s * (1.0 - src->amplitude);
		src->step_lo[k] = lo - margin;
		src->step_hi[k] = hi + margin;
	}
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
	src->tz = sc->tz;
	src->local = !tzone_is_utc(&sc->tz);
	src->start_day_s = day * 86400;
	src->seg = tzone_segment(&sc->tz, src->start_day_s);
	src->start_weekday = (int)(((day + EPOCH_WEEKDAY) % 7 + 7) % 7);
	max_daily = src->has_hourly ? max_of(src->hourly, 24) : 1.0 + src->amplitude;
	src->max_rate_per_s = src->rate_per_s * max_daily * max_of(src->weekly, 7);
	bound_steps(src);
	/* the step holding the start; a quotient rounded up to a whole minute is taken back one */
	src->first_step = (int64_t)(src->start_tod_s / STEP_S);
	if (STEP_S * (double)src->first_step > src->start_tod_s)
		src->first_step--;
	src->x = src->start_tod_s;
	enter_step(src, src->first_step);
	return &src->base;
}

double arrivals_profile_rate(const struct arrival_source *base, double t_s)
{
	return profile_rate((const struct profile_source *)base, t_s);
}

void arrivals_profile_step(struct arrival_source *base, double t_s, double *lo, double *rate, double *hi)
{
	struct profile_source *src = (struct profile_source *)base;
	double x = src->start_tod_s + t_s;
	int64_t n = (int64_t)(x / STEP_S);

	if (STEP_S * (double)n > x)
		n--;
	else if (STEP_S * (double)(n + 1) <= x)
		n++;
	enter_step(src, n);
	*lo = src->step_lo_w;
	*hi = src->step_hi_w;
	*rate = step_rate(src, x);
}

uint64_t arrivals_profile_candidates(const struct arrival_source *base)
{
	return ((const struct profile_source *)base)->candidates;
}
