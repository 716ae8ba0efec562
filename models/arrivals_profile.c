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
 * The squeeze (issue 17): deciding a candidate exactly costs a cos (or a table look-up), a floor, a
 * division and a modulo, and most candidates do not need it. At construction the day is cut into 1440 steps
 * of a minute, and for each step we keep a lower and an upper bound, lo <= rate_per_s x daily <= hi, of the
 * value the exact computation can return anywhere in it (the exact rate at both ends, the sinusoid's peak
 * or trough when it lies in the step, widened by 2^-30 of the largest daily rate: floating-point error is
 * under 1e-14 of it, see bound_steps). A candidate with u x max_rate < lo x weekly is then kept and one with
 * u x max_rate >= hi x weekly dropped, with no cos; only those in between compute rate(t) as before: for a
 * sinusoid, the rate's variation over a day (4 x amplitude x rate_per_s) spread over 1440 steps and divided
 * by the largest rate, 1 candidate in 960 at amplitude 0.6. The decision is exactly the one rate(t) gives, and the draws are the same
 * two per candidate, so arrivals are identical to the bit. The bounds of the current step, times its day's
 * weekly factor, are kept with the step's span of time, so that most candidates cost only comparisons.
 * Steps of a minute rather than an hour keep that share small for a sinusoid; with an hourly table, which
 * is constant inside an hour, only candidates in an hour's last minute that fall between two hours' rates
 * need rate(t).
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
#include "scenario.h"
#include "status.h"

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
	double max_rate_per_s;       /* the largest value rate(t) takes: the thinning bound */
	double start_tod_s;          /* time of day of the scenario start, seconds in [0, 86400) */
	int start_weekday;           /* day of week of the scenario start, 0 = Monday */
	double t_s;                  /* the last candidate, seconds from the start */
	double step_lo[NSTEPS];      /* per minute of day: at most rate_per_s x daily anywhere in it, per s */
	double step_hi[NSTEPS];      /* and at least it, per s (bound_steps) */
	double step_x0, step_x1;     /* the current step, as start_tod_s + t_s in [step_x0, step_x1]; empty
	                                (x0 > x1) before the first candidate */
	double step_lo_w, step_hi_w; /* its bounds times its day's weekly factor: bounds of rate(t) in it */
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

	*days = floor(x / SECONDS_PER_DAY);
	*tod_s = x - *days * SECONDS_PER_DAY;
}

static double weekly_of(const struct profile_source *src, double days)
{
	return src->weekly[(int)((src->start_weekday + (int64_t)days) % 7)];
}

/* rate(t) for t seconds from the start. */
static double profile_rate(const struct profile_source *src, double t_s)
{
	double days, tod;

	clock_of(src, t_s, &days, &tod);
	return src->rate_per_s * daily_factor(src, tod / SECONDS_PER_HOUR) * weekly_of(src, days);
}

/*
 * The squeeze step of time of day tod_s, k = floor(tod_s / 60) but for rounding. Nothing rests on it being
 * exact: enter_step makes [x0, x1] the span of step k itself, so a candidate a hair outside step k would
 * fall outside that span and be decided by its exact rate. The clamp only keeps the index in the table
 * (tod_s < 86400 gives at most 1439; a tod_s rounded a hair below 0 truncates to 0).
 */
static int step_of(double tod_s)
{
	int k = (int)(tod_s * (1.0 / STEP_S));

	return k < NSTEPS - 1 ? k : NSTEPS - 1;
}

/*
 * Make the step holding t_s the current one: x0 = days x 86400 + k x 60 and x1 = x0 + 60 (the last step of
 * a day ends at 86399 s, a second short). For any x = start_tod_s + t in [x0, x1], x / 86400 is at least
 * days and short of days + 1 by 1/86400, far more than its rounding error (days < 2^26 while times fit the
 * clock), so clock_of gives the same day and
 * tod = x - days x 86400 in step k: rate(t) lies in [step_lo[k] x w, step_hi[k] x w] for that day's weekly
 * factor w (rounding is monotone and w >= 0). A time of day rounded below 0 (x a hair short of midnight)
 * gives k = 0 and x0 = days x 86400 > x: that candidate is outside the step and decided exactly.
 */
static void enter_step(struct profile_source *src, double t_s)
{
	double days, tod, w;
	int k;

	clock_of(src, t_s, &days, &tod);
	k = step_of(tod);
	w = weekly_of(src, days);
	src->step_x0 = days * SECONDS_PER_DAY + STEP_S * k;
	src->step_x1 = k < NSTEPS - 1 ? src->step_x0 + STEP_S : days * SECONDS_PER_DAY + (SECONDS_PER_DAY - 1.0);
	src->step_lo_w = src->step_lo[k] * w;
	src->step_hi_w = src->step_hi[k] * w;
}

/*
 * Whether a candidate at t_s with uniform u is kept: u x max_rate < rate(t_s), decided by the current
 * step's bounds when they apply and can (*exact untouched), else by computing rate(t_s) (*exact set). A
 * squeeze decision is the one the exact comparison would make, since lo_w <= rate(t_s) <= hi_w. Most
 * candidates cost an addition and four comparisons: the division, floor, modulo and cos of the exact rate
 * are paid once a simulated minute, when a candidate leaves the step.
 */
static bool keeps(struct profile_source *src, double t_s, double u, bool *exact)
{
	double x = src->start_tod_s + t_s, m = u * src->max_rate_per_s;

	if (!(x >= src->step_x0 && x <= src->step_x1))
		enter_step(src, t_s);
	/* outside [lo_w, hi_w): kept below it, dropped above it (one test on the rare band, then the answer
	 * as a value: a branch on a coin toss would be mispredicted half the time) */
	if (x >= src->step_x0 && x <= src->step_x1 && !(m >= src->step_lo_w && m < src->step_hi_w))
		return m < src->step_lo_w;
	*exact = true;
	return m < profile_rate(src, t_s);
}

static int profile_next(struct arrival_source *base, struct arrival *out, struct diag *d)
{
	struct profile_source *src = (struct profile_source *)base;
	double max = src->max_rate_per_s;
	bool exact;
	int64_t t_us;

	(void)d;
	if (!(max > 0))
		return STATUS_DONE;
	for (;;) {
		src->t_s += gsl_ran_exponential(src->rng, 1.0 / max);
		/* the test arrivals_seconds_to_us makes (t_s >= 0), without its rounding for a candidate that
		 * may be dropped: the source ends at the first candidate past the clock, as it always did */
		if (!(src->t_s * (double)SIM_US_PER_S < CONVERT_TIME_MAX_US))
			return STATUS_DONE;
		/* Keep with probability rate / max: uniform is in [0, 1), so rate == max always keeps. */
		if (keeps(src, src->t_s, gsl_rng_uniform(src->rng), &exact))
			break;
	}
	(void)arrivals_seconds_to_us(src->t_s, &t_us);  /* it fits: tested in the loop */
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
	src->start_weekday = (int)(((day + EPOCH_WEEKDAY) % 7 + 7) % 7);
	max_daily = src->has_hourly ? max_of(src->hourly, 24) : 1.0 + src->amplitude;
	src->max_rate_per_s = src->rate_per_s * max_daily * max_of(src->weekly, 7);
	src->step_x0 = 1.0; /* no current step */
	src->step_x1 = 0.0;
	bound_steps(src);
	return &src->base;
}

double arrivals_profile_rate(const struct arrival_source *base, double t_s)
{
	return profile_rate((const struct profile_source *)base, t_s);
}

bool arrivals_profile_keeps(struct arrival_source *base, double t_s, double u, bool *exact)
{
	*exact = false;
	return keeps((struct profile_source *)base, t_s, u, exact);
}

double arrivals_profile_max_rate(const struct arrival_source *base)
{
	return ((const struct profile_source *)base)->max_rate_per_s;
}
