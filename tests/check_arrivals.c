/*
 * check_arrivals: the synthetic arrival sources (models/arrivals_{rate,profile,mmpp,flash,series}.c).
 *
 * Scenarios are built by hand (zeroed, then the arrival fields set). Each statistical test draws one seeded
 * sample (the seed is printed; GPUCAP_TEST_SEED replays it) and makes two assertions: the estimate is
 * within k standard errors (SE) of its expectation, and k SE is small enough to catch a plausible bug
 * (a 10% error in a rate, a factor read for the wrong hour or weekday). The SE comes from the model:
 *   - a Poisson count with mean N has SD sqrt(N);
 *   - a renewal-reward estimate over i.i.d. cycles (MMPP) has the SE worked out in its test;
 *   - a window of a rate series restarts its process, so its counts on successive passes (or in windows
 *     with the same parameters) are i.i.d.: for renewal windows the SE is the sample SD / sqrt(samples).
 * k is 4 for one comparison (a correct implementation fails about once in 16,000 seeds), 4.5 in a family
 * of up to 24 (under 2e-4 for the family), and 5 when the SE is itself estimated from 40 passes (Student
 * t, under 1e-4 per comparison). Seeds 100 to 399 all pass.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>

#include "arrivals.h"
#include "engine.h"
#include "rng.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"

#define US SIM_US_PER_S
#define START_2026 INT64_C(1767225600)  /* 2026-01-01T00:00:00Z, a Thursday */
#define SERIES TEST_DATA_DIR "/series/"

/* A source under test, its scenario and its streams. */
struct fixture {
	uint64_t seed;
	struct scenario sc;
	gsl_rng *rng;                /* "arrivals" */
	gsl_rng *state;              /* "arrivals.state" (MMPP) */
	struct arrival_source *src;
	struct arrival a;            /* the last arrival pulled */
	int64_t last_us;             /* its time, or 0 (after setup or a rewind) */
};

static void setup(struct fixture *f, const char *test, uint64_t fallback, enum arrival_kind kind, double rate)
{
	f->seed = test_seed(test, fallback);
	f->rng = rng_new(f->seed, "arrivals");
	f->state = rng_new(f->seed, "arrivals.state");
	f->src = NULL;
	f->last_us = 0;
	memset(&f->sc, 0, sizeof f->sc);
	f->sc.start_unix_us = START_2026 * US;
	f->sc.arrivals.kind = kind;
	f->sc.arrivals.rate_per_s = rate;
	f->sc.arrivals.window_us = 600 * US;
}

/* A rate_series fixture reading `n` files. */
static void setup_series(struct fixture *f, const char *test, uint64_t fallback, enum series_format format,
			 const char *const *paths, int n)
{
	setup(f, test, fallback, ARRIVAL_RATE_SERIES, 1);
	f->sc.arrivals.series_format = format;
	for (int i = 0; i < n; i++)
		snprintf(f->sc.arrivals.series[i], SCENARIO_PATH_MAX, "%s", paths[i]);
	f->sc.arrivals.nseries = n;
}

static void open_source(struct fixture *f)
{
	struct diag d = {{0}};
	int st;

	switch (f->sc.arrivals.kind) {
	case ARRIVAL_DIURNAL:
		f->src = arrivals_profile_new(&f->sc, f->rng);
		break;
	case ARRIVAL_MMPP:
		f->src = arrivals_mmpp_new(&f->sc, f->rng, f->state);
		break;
	case ARRIVAL_FLASH_CROWD:
		f->src = arrivals_flash_new(&f->sc, f->rng);
		break;
	case ARRIVAL_RATE_SERIES:
		st = arrivals_series_new(&f->src, &f->sc, f->rng, &d);
		ck_assert_msg(st == STATUS_OK, "%s: %s", status_str(st), d.msg);
		break;
	default:
		f->src = arrivals_rate_new(&f->sc, f->rng);
	}
	ck_assert_ptr_nonnull(f->src);
}

static void teardown(struct fixture *f)
{
	arrivals_free(f->src);
	gsl_rng_free(f->rng);
	gsl_rng_free(f->state);
}

static void rewind_source(struct fixture *f)
{
	ck_assert_int_eq(f->src->ops->rewind(f->src, NULL), STATUS_OK);
	f->last_us = 0;
}

/*
 * The next arrival into f->a, checked against what every synthetic source promises; false at STATUS_DONE
 * or from end_s on. Check records the place of every passing ck_assert (a write to a pipe), so these
 * per-arrival checks call it only on failure.
 */
static bool pull(struct fixture *f, double end_s)
{
	struct diag d = {{0}};
	int st = f->src->ops->next(f->src, &f->a, &d);

	if (st == STATUS_DONE)
		return false;
	if (st != STATUS_OK)
		ck_abort_msg("next: %s: %s", status_str(st), d.msg);
	if (f->a.t_us < f->last_us)
		ck_abort_msg("time went back: %lld after %lld", (long long)f->a.t_us, (long long)f->last_us);
	if (f->a.in_tokens != -1 || f->a.out_tokens != -1 || !isnan(f->a.service_s))
		ck_abort_msg("a synthetic arrival with sizes or a service time");
	f->last_us = f->a.t_us;
	return f->a.t_us < llround(end_s * US);
}

/* Arrivals before end_s. */
static double count(struct fixture *f, double end_s)
{
	double n = 0;

	while (pull(f, end_s))
		n++;
	return n;
}

/* |got - want| <= k x se, and k x se small enough to see an error of `catch` (in got's units). */
static void assert_close(double got, double want, double k, double se, double catch, const char *what)
{
	ck_assert_msg(fabs(got - want) <= k * se, "%s: got %.6g, want %.6g +- %.3g (%.1f SE)", what, got, want,
		      k * se, fabs(got - want) / se);
	ck_assert_msg(k * se < catch, "%s: tolerance %.3g cannot see an error of %.3g", what, k * se, catch);
}

/* A Poisson count: within k SD, and k SD under 10% of it. */
static void assert_poisson(double got, double want, double k, const char *what)
{
	assert_close(got, want, k, sqrt(want), 0.1 * want, what);
}

/* ---- rate: poisson and uniform with steps ---- */

START_TEST(poisson_mean_rate)
{
	struct fixture f;

	setup(&f, "poisson_mean_rate", 1, ARRIVAL_POISSON, 20);
	open_source(&f);
	/* 200,000 expected: 4 SD = 0.9%. */
	assert_poisson(count(&f, 10000), 20.0 * 10000, 4, "arrivals in 10,000 s at 20/s");
	teardown(&f);
}
END_TEST

START_TEST(poisson_steps_and_pause)
{
	const double rate[4] = {10, 30, 0, 5}, at[5] = {0, 1000, 2000, 3000, 5000};
	double n[4] = {0};
	struct fixture f;

	setup(&f, "poisson_steps_and_pause", 2, ARRIVAL_POISSON, 10);
	for (int i = 0; i < 3; i++)
		f.sc.arrivals.steps[i] = (struct rate_step){(int64_t)at[i + 1] * US, rate[i + 1]};
	f.sc.arrivals.nsteps = 3;
	open_source(&f);
	while (pull(&f, 5000))
		for (int i = 0; i < 4; i++)
			n[i] += f.a.t_us >= at[i] * US && f.a.t_us < at[i + 1] * US;
	ck_assert_msg(n[2] == 0, "%g arrivals while the rate was 0", n[2]);
	for (int i = 0; i < 4; i++) /* counts of 10,000, 30,000 and 10,000: 4.5 SD is at most 4.5% */
		if (i != 2)
			assert_poisson(n[i], rate[i] * (at[i + 1] - at[i]), 4.5, "arrivals in a step");
	teardown(&f);
}
END_TEST

START_TEST(uniform_is_evenly_spaced_and_ends_at_zero_rate)
{
	struct fixture f;
	int64_t k = 0;

	setup(&f, "uniform", 0, ARRIVAL_UNIFORM, 4);
	f.sc.arrivals.steps[0] = (struct rate_step){10 * US, 2};
	f.sc.arrivals.steps[1] = (struct rate_step){20 * US, 0};
	f.sc.arrivals.nsteps = 2;
	open_source(&f);
	while (pull(&f, 1e9)) { /* every 0.25 s up to 10 s, every 0.5 s up to 20 s, then rate 0 */
		k++;
		ck_assert_int_eq(f.a.t_us, k <= 40 ? k * US / 4 : 10 * US + (k - 40) * US / 2);
	}
	ck_assert_int_eq(k, 60);
	rewind_source(&f);
	ck_assert(pull(&f, 1e9) && f.a.t_us == US / 4);
	teardown(&f);
}
END_TEST

/* ---- profile: diurnal ---- */

/* Arrivals per hour of day and per weekday (Monday 0) over `days`, binned by the C library's UTC clock. */
static void count_clock(struct fixture *f, int days, double *hours, double *weekdays)
{
	struct tm tm;

	while (pull(f, days * 86400.0)) {
		time_t t = (time_t)((f->sc.start_unix_us + f->a.t_us) / US);

		gmtime_r(&t, &tm);
		hours[tm.tm_hour]++;
		weekdays[(tm.tm_wday + 6) % 7]++;
	}
}

START_TEST(diurnal_mean_rate_and_peak_to_trough)
{
	const double a = 0.5, days = 60, sinc = sin(M_PI / 24) / (M_PI / 24);
	double hours[24] = {0}, weekdays[7] = {0}, total = 0, want, off_by_an_hour;
	struct fixture f;

	setup(&f, "diurnal_mean_rate_and_peak_to_trough", 3, ARRIVAL_DIURNAL, 0.5);
	f.sc.start_unix_us += 13 * 3600 * US; /* start mid-day: 13:00 UTC */
	f.sc.arrivals.amplitude = a;
	f.sc.arrivals.peak_hour = 14.5; /* the peak in the middle of hour 14, the trough in hour 2 */
	open_source(&f);
	count_clock(&f, (int)days, hours, weekdays);
	for (int h = 0; h < 24; h++)
		total += hours[h];
	/* rate_per_s is the daily mean: 2.6 million expected, 4 SD = 0.25%. */
	assert_poisson(total, 0.5 * 86400 * days, 4, "diurnal arrivals in 60 days");
	/*
	 * An hour's count averages the sinusoid over the hour: 1 +- a sinc, sinc = sin(pi/24) / (pi/24), at the
	 * peak and trough hours, so the ratio is (1 + a sinc) / (1 - a sinc) = 2.989 (not quite (1 + a) /
	 * (1 - a) = 3). Relative SE sqrt(1/N_peak + 1/N_trough) = 0.5% (counts of 162,000 and 54,000); 4 SE =
	 * 2% catches an amplitude 10% off (ratio 2.64) and a peak an hour off (2.86).
	 */
	want = (1 + a * sinc) / (1 - a * sinc);
	off_by_an_hour = (1 + a * sinc * cos(M_PI / 12)) / (1 - a * sinc * cos(M_PI / 12));
	assert_close(hours[14] / hours[2], want, 4, want * sqrt(1 / hours[14] + 1 / hours[2]),
		     want - off_by_an_hour, "peak-to-trough ratio of hourly counts");
	ck_assert(fabs(want - (1 + a) / (1 - a)) < 0.02);
	teardown(&f);
}
END_TEST

START_TEST(diurnal_hourly_factors)
{
	double hours[24] = {0}, weekdays[7] = {0};
	struct fixture f;

	setup(&f, "diurnal_hourly_factors", 4, ARRIVAL_DIURNAL, 0.5);
	f.sc.start_unix_us += (5 * 3600 + 1234) * US; /* off the hour: each hour of day still gets 30 hours */
	f.sc.arrivals.has_hourly = true;
	for (int h = 0; h < 24; h++) /* distinct factors 0.2 to 2.5, and hour 3 closed */
		f.sc.arrivals.hourly[h] = h == 3 ? 0 : 0.2 + 0.1 * ((h * 7) % 24);
	open_source(&f);
	count_clock(&f, 30, hours, weekdays);
	ck_assert_msg(hours[3] == 0, "%g arrivals in the closed hour", hours[3]);
	for (int h = 0; h < 24; h++) /* 23 counts of at least 10,800: 4.5 SD is at most 4.3% */
		if (h != 3)
			assert_poisson(hours[h], 0.5 * 3600 * 30 * f.sc.arrivals.hourly[h], 4.5, "an hour of day");
	teardown(&f);
}
END_TEST

START_TEST(diurnal_weekly_factors)
{
	const double weekly[7] = {1.0, 1.2, 0.8, 1.5, 0.5, 0.3, 0.0};
	double hours[24] = {0}, weekdays[7] = {0};
	struct fixture f;

	setup(&f, "diurnal_weekly_factors", 5, ARRIVAL_DIURNAL, 0.2);
	f.sc.start_unix_us += (6 * 86400 + 5 * 3600) * US; /* a Wednesday, 05:00 */
	f.sc.arrivals.amplitude = 0.5;              /* whole days average it out */
	f.sc.arrivals.has_weekly = true;
	memcpy(f.sc.arrivals.weekly, weekly, sizeof weekly);
	open_source(&f);
	count_clock(&f, 7 * 8, hours, weekdays);
	ck_assert_msg(weekdays[6] == 0, "%g arrivals on the closed Sunday", weekdays[6]);
	for (int w = 0; w < 6; w++) /* counts of at least 41,000: 4.5 SD at most 2.2%, neighbours 20% apart */
		assert_poisson(weekdays[w], 0.2 * 86400 * 8 * weekly[w], 4.5, "a weekday");
	teardown(&f);
}
END_TEST

/*
 * The diurnal source thins against a bound per minute (arrivals_profile.c): every rate it can compute in a
 * minute must lie within that minute's bounds, or the process it draws is not the profile's. Profiles that
 * exercise each part of the bounds: a sinusoid starting off midnight; amplitude 1 (the trough's rate is 0)
 * with a peak near midnight (the peak's step wraps); an hourly table with a closed hour and weekly factors
 * with a closed day. Checked where bounds could go wrong: every step boundary of two days and a hair either
 * side, the peaks and troughs, hour marks and midnight 8 ulps either side, and a million random times.
 */
static void squeeze_profile(struct fixture *f, int which, double rate)
{
	static const double weekly[7] = {1.0, 1.3, 0.7, 1.0, 0.4, 0.0, 1.1};

	setup(f, "diurnal_squeeze", 6, ARRIVAL_DIURNAL, rate);
	f->sc.start_unix_us += (6 * 86400 + 13 * 3600 + 17 * 60 + 5) * US + 500000; /* Wednesday 13:17:05.5 */
	f->sc.arrivals.amplitude = 0.6;
	f->sc.arrivals.peak_hour = 14;
	if (which == 1) {
		f->sc.arrivals.amplitude = 1;
		f->sc.arrivals.peak_hour = 23.99;  /* peak 36 s before midnight, trough at 11:59:24 */
	} else if (which == 2) {
		f->sc.arrivals.has_hourly = true;
		for (int h = 0; h < 24; h++)
			f->sc.arrivals.hourly[h] = h == 3 ? 0 : 0.2 + 0.1 * ((h * 7) % 24);
		f->sc.arrivals.has_weekly = true;
		memcpy(f->sc.arrivals.weekly, weekly, sizeof weekly);
	}
	open_source(f);
}

/* lo <= rate <= hi for the step holding t_s, and the step's rate is the exact rate (but within the margin). */
static void bounds_hold(struct fixture *f, double t_s)
{
	double lo, rate, hi, exact = arrivals_profile_rate(f->src, t_s);

	if (t_s < 0)
		return;
	arrivals_profile_step(f->src, t_s, &lo, &rate, &hi);
	if (!(lo <= rate && rate <= hi))
		ck_abort_msg("t = %.17g s: rate %.17g outside the step's bounds [%.17g, %.17g]", t_s, rate, lo, hi);
	/* the step's day and the clock's agree but within an ulp of midnight (the profiles start at 13:17:05.5),
	 * where a weekly factor can change: there only the bounds matter */
	if (fabs(rate - exact) > 1e-9 * (hi + 1) && fabs(remainder(t_s + 13 * 3600 + 17 * 60 + 5.5, 86400.0)) > 1e-6)
		ck_abort_msg("t = %.17g s: the step's rate %.17g is not the exact rate %.17g", t_s, rate, exact);
}

START_TEST(diurnal_step_bounds_hold)
{
	/* start_tod_s: 13:17:05.5; t such that start_tod_s + t is a given time of day of day `day` */
	const double start_tod = 13 * 3600 + 17 * 60 + 5.5;
	struct fixture f;

	for (int which = 0; which < 3; which++) {
		squeeze_profile(&f, which, 100);
		for (int day = 0; day < 8; day += 7) { /* the first day and a week later (same weekday) */
			for (int k = 0; k <= 1440; k++) {
				double x = day * 86400.0 + 60.0 * k, t = x - start_tod;
				bounds_hold(&f, t);
				bounds_hold(&f, nextafter(t, -INFINITY));
				bounds_hold(&f, nextafter(t, INFINITY));
				bounds_hold(&f, t + 1e-6);
				bounds_hold(&f, t - 1e-6);
				bounds_hold(&f, t + 30);
				if (k % 60 == 0) { /* hour marks and midnight: 8 ulps either side */
					double lo = t, hi = t;
					for (int j = 0; j < 8; j++) {
						lo = nextafter(lo, -INFINITY);
						hi = nextafter(hi, INFINITY);
						bounds_hold(&f, lo);
						bounds_hold(&f, hi);
					}
				}
			}
			/* peaks and troughs of both sinusoids, and a hair around them */
			const double extremes_h[4] = { 14, 2, 23.99, 11.99 };
			for (int e = 0; e < 4; e++)
				for (int d = -1; d <= 1; d++)
					bounds_hold(&f, (day + 1) * 86400.0 + extremes_h[e] * 3600 - start_tod + d * 1e-3);
		}
		for (int i = 0; i < 1000000; i++)
			bounds_hold(&f, gsl_rng_uniform(f.state) * 14 * 86400.0);
		teardown(&f);
	}
}
END_TEST

/*
 * Candidates per arrival with a bound per minute, for amplitude a = 0.6 at rate_per_s R = 100 over 3 days:
 * in a minute holding no extreme the bound is the larger end's rate, which exceeds the rate by at most its
 * change over the minute; summed over the day the excess is about half the total variation per minute,
 *     (R x a x 4 / 2) x 60 s per day / 1440 steps... more simply: the mean excess is R x a / 1440 per s
 * (the sinusoid's |slope| averages R x a x 4 / 86400 per s, times half a minute), so candidates per second
 * are R (1 + a / 1440) = 100.0417, plus one overshooting draw per minute (1/60 per s) = 100.058, against
 * R = 100 arrivals per second: 1.00058 candidates per arrival. One bound for the whole profile draws
 * 1 + a = 1.6. Over 3 days (25.9 M arrivals) the ratio is pinned to well under 1e-4; asserted within
 * 1.0003..1.0012, which 1.6 (and a bound per hour: 1 + 0.6 x 60 / 1440 / ... = 1.025) cannot meet.
 */
START_TEST(diurnal_few_candidates_per_arrival)
{
	struct fixture f;
	uint64_t n = 0;
	double ratio;

	squeeze_profile(&f, 0, 100);
	while (pull(&f, 3 * 86400.0))
		n++;
	ratio = (double)arrivals_profile_candidates(f.src) / (double)n;
	ck_assert_msg(ratio > 1.0003 && ratio < 1.0012, "%.6f candidates per arrival, want about 1.00058", ratio);
	assert_poisson((double)n, 100.0 * 3 * 86400, 4, "arrivals in 3 days");
	teardown(&f);
}
END_TEST

/* The expected arrivals of the sinusoid R (1 + a cos(2 pi (h - p) / 24)) between hours h0 and h1. */
static double sinusoid_integral(double r, double a, double p, double h0, double h1)
{
	double w = 2 * M_PI / 24;

	return r * 3600 * ((h1 - h0) + a / w * (sin(w * (h1 - p)) - sin(w * (h0 - p))));
}

/*
 * The arrivals follow the rate at a fine grain: counts in each 10-minute bin of the day over 400 days at
 * R = 1 per s, amplitude 1, peak at 23:59:24 (so the peak's and the trough's minutes are inside bins and the
 * peak's step wraps over midnight), against the integral of the rate over the bin. Chi-square with 144
 * degrees of freedom: mean 144, SD 17; asserted below 144 + 5 x 17 = 229 (a false alarm about 1 in 10^5).
 * A thinning bound below the rate anywhere (the peak's step bounded by its ends only, say) loses arrivals
 * there; the sinusoid's integral per bin is computed in closed form, independently of the source.
 */
START_TEST(diurnal_counts_follow_the_rate)
{
	enum { BINS = 144, DAYS = 400 };
	static double count[BINS];
	struct fixture f;
	double chi2 = 0;

	setup(&f, "diurnal_counts_follow_the_rate", 7, ARRIVAL_DIURNAL, 1.0);
	f.sc.arrivals.amplitude = 1;
	f.sc.arrivals.peak_hour = 23.99;
	open_source(&f);
	for (int b = 0; b < BINS; b++)
		count[b] = 0;
	while (pull(&f, DAYS * 86400.0)) {
		double tod = fmod((double)f.a.t_us / US, 86400.0);
		count[(int)(tod / 600.0)]++;
	}
	for (int b = 0; b < BINS; b++) {
		double want = DAYS * sinusoid_integral(1.0, 1.0, 23.99, b / 6.0, (b + 1) / 6.0);
		chi2 += (count[b] - want) * (count[b] - want) / want;
	}
	ck_assert_msg(chi2 < 229, "chi-square %.1f over %d bins: the counts do not follow the rate", chi2, BINS);
	teardown(&f);
}
END_TEST

/* ---- mmpp ---- */

START_TEST(mmpp_mean_rate_and_burst_fraction)
{
	/*
	 * Calm Tc = 300 s at R = 0.1/s, bursts Tb = 60 s at B = 1/s, for T = 3.6e6 s (n = 10,000 cycles). A
	 * cycle has X ~ Poisson(B D) arrivals in its burst D ~ Exp(Tb), Var X = B Tb + (B Tb)^2, and Y in its
	 * calm C likewise. Renewal-reward: the mean rate m = E(X+Y) / E(D+C) has SE sqrt(Var(X + Y - m (D+C))
	 * / (E(D+C) T)) with Var(X - m D) = B Tb + (B - m)^2 Tb^2 (calm likewise); the burst fraction
	 * p = E X / E(X+Y) has SE sqrt(((1-p)^2 Var X + p^2 Var Y) / n) / E(X+Y).
	 */
	const double r = 0.1, b = 1, tc = 300, tb = 60, t_end = 3.6e6;
	double ex = b * tb, ey = r * tc, m = (ex + ey) / (tb + tc), p = ex / (ex + ey), n = t_end / (tb + tc);
	double all = 0, in_burst = 0, end_s, se;
	struct fixture f;
	int burst = 0;
	gsl_rng *path;

	setup(&f, "mmpp_mean_rate_and_burst_fraction", 6, ARRIVAL_MMPP, r);
	f.sc.arrivals.burst_rate_per_s = b;
	f.sc.arrivals.calm_mean_us = (int64_t)tc * US;
	f.sc.arrivals.burst_mean_us = (int64_t)tb * US;
	open_source(&f);
	path = rng_new(f.seed, "arrivals.state"); /* replays the modulation: calm first, then alternating */
	end_s = rng_exponential(path, tc);
	while (pull(&f, t_end)) {
		while ((double)f.a.t_us / US >= end_s) {
			burst = !burst;
			end_s += rng_exponential(path, burst ? tb : tc);
		}
		all++;
		in_burst += burst;
	}
	/* m = 0.25/s, SE 0.0018/s: 4 SE = 2.9%. */
	se = sqrt((ex + pow(b - m, 2) * tb * tb + ey + pow(r - m, 2) * tc * tc) / ((tb + tc) * t_end));
	assert_close(all / t_end, m, 4, se, 0.1 * m, "MMPP mean rate");
	/* p = 2/3, SE 0.0032: 4 SE = 0.013; a burst rate 10% high gives p = 0.6875. */
	se = sqrt((pow(1 - p, 2) * (ex + ex * ex) + p * p * (ey + ey * ey)) / n) / (ex + ey);
	assert_close(in_burst / all, p, 4, se, 1.1 * ex / (1.1 * ex + ey) - p, "fraction of arrivals in bursts");
	gsl_rng_free(path);
	teardown(&f);
}
END_TEST

START_TEST(mmpp_equal_rates_is_poisson)
{
	struct fixture f;

	setup(&f, "mmpp_equal_rates_is_poisson", 7, ARRIVAL_MMPP, 2);
	f.sc.arrivals.burst_rate_per_s = 2;
	f.sc.arrivals.calm_mean_us = 50 * US;
	f.sc.arrivals.burst_mean_us = 5 * US;
	open_source(&f);
	/* With equal rates the switches must not show: Poisson, 200,000 expected, 4 SD = 0.9%. */
	assert_poisson(count(&f, 100000), 2.0 * 100000, 4, "MMPP with equal rates");
	teardown(&f);
}
END_TEST

/* ---- flash crowd ---- */

START_TEST(flash_crowd_excess)
{
	const double r = 1, mag = 50, tau = 600, at = 3600, end = at + 20 * tau;
	double before = 0, first_tau = 0, after = 0, want;
	struct fixture f;

	setup(&f, "flash_crowd_excess", 8, ARRIVAL_FLASH_CROWD, r);
	f.sc.arrivals.flash_at_us = (int64_t)at * US;
	f.sc.arrivals.flash_magnitude = mag;
	f.sc.arrivals.flash_decay_us = (int64_t)tau * US;
	open_source(&f);
	while (pull(&f, end)) {
		double t = (double)f.a.t_us / US;

		before += t < at;
		after += t >= at;
		first_tau += t >= at && t < at + tau;
	}
	/* Three Poisson counts, 4.5 SD each. Before `at`: 3,600 at the base rate, 4.5 SD = 7.5%. */
	assert_poisson(before, r * at, 4.5, "arrivals before the spike");
	/* Excess after `at`: r mag tau = 30,000 (less e^-20), SD sqrt(45,600) = 214, 4.5 SD = 3.2%. */
	want = r * mag * tau * (1 - exp(-20));
	assert_close(after - r * (end - at), want, 4.5, sqrt(after), 0.1 * want, "excess arrivals of the spike");
	/* Shape: r tau (1 + mag (1 - 1/e)) = 19,564 in the first decay time; a half-life taken for the time
	   constant would give 15,600. */
	assert_poisson(first_tau, r * tau * (1 + mag * (1 - exp(-1))), 4.5, "arrivals in the first decay time");
	teardown(&f);
}
END_TEST

/* ---- rate series ---- */

#define WINDOWS_MAX 8

/*
 * Arrivals per window (window w is [start_s[w], start_s[w+1]), nw of them) over `passes` passes of the
 * source up to start_s[nw], rewound between: mean[] and the SE of each mean from the spread over passes.
 */
static void series_counts(struct fixture *f, const double *start_s, int nw, int passes, double *mean,
			  double *se)
{
	double sum[WINDOWS_MAX] = {0}, sum2[WINDOWS_MAX] = {0};

	for (int p = 0; p < passes; p++) {
		double n[WINDOWS_MAX] = {0};
		int w = 0;

		if (p > 0)
			rewind_source(f);
		while (pull(f, start_s[nw])) {
			while (f->a.t_us >= llround(start_s[w + 1] * US))
				w++;
			n[w]++;
		}
		for (w = 0; w < nw; w++) {
			sum[w] += n[w];
			sum2[w] += n[w] * n[w];
		}
	}
	for (int w = 0; w < nw; w++) {
		mean[w] = sum[w] / passes;
		se[w] = sqrt((sum2[w] - sum[w] * mean[w]) / (passes - 1) / passes);
	}
}

START_TEST(series_aggregate_counts)
{
	const char *path = SERIES "aggregate.csv";
	const double start[6] = {0, 600, 1200, 1800, 3000, 3600}, rate[5] = {5, 20, 0, 12.5, 40};
	double mean[WINDOWS_MAX], se[WINDOWS_MAX];
	struct fixture f;

	setup_series(&f, "series_aggregate_counts", 9, SERIES_AGGREGATE, &path, 1);
	open_source(&f);
	series_counts(&f, start, 5, 10, mean, se);
	ck_assert_msg(mean[2] == 0, "arrivals in a window of rate 0");
	for (int w = 0; w < 5; w++) { /* Poisson: the mean of 10 passes has SE sqrt(want / 10), 4.5 SE <= 2.6% */
		double want = rate[w] * (start[w + 1] - start[w]);

		if (want > 0)
			assert_close(mean[w], want, 4.5, sqrt(want / 10), 0.1 * want, "aggregate window");
	}
	teardown(&f);
}
END_TEST

/* Check a ServeGen test file's mean counts per window (6 windows) over 40 passes against the rate. */
static void check_servegen(const char *test, uint64_t fallback, const char *path, bool weibull,
			   const double *start, const double *rate, const double *shape, const double *scale)
{
	double mean[WINDOWS_MAX], se[WINDOWS_MAX];
	struct fixture f;

	setup_series(&f, test, fallback, SERIES_SERVEGEN, &path, 1);
	open_source(&f);
	series_counts(&f, start, 6, 40, mean, se);
	for (int w = 0; w < 6; w++) {
		double fit = weibull ? scale[w] * gsl_sf_gamma(1 + 1 / shape[w]) : shape[w] * scale[w];
		double gap = shape[w] == 0 || fabs(fit * rate[w] - 1) > 0.01 ? 1 / rate[w] : fit; /* the 1% rule */
		double want = rate[w] > 0 ? (start[w + 1] - start[w]) / gap : 0;

		/* SE from 40 passes, 5 SE; in the burstiest window (cv^2 10) that is still under 10%. */
		if (want == 0)
			ck_assert_msg(mean[w] == 0, "%s: arrivals in a window of rate 0", path);
		else
			assert_close(mean[w], want, 5, se[w], 0.1 * want, path);
	}
	teardown(&f);
}

START_TEST(series_servegen_gamma)
{
	/* Rows 0 and 4 fit 1 / rate exactly, row 1 is 25% off (rescaled), row 5 0.5% off (kept), 3 Poisson. */
	const double start[7] = {0, 600, 1200, 1800, 2400, 3000, 3600}, rate[6] = {2, 5, 0, 1, 3, 0.5};
	const double shape[6] = {0.25, 0.5, 0, 0, 1.0 / 9, 1}, scale[6] = {2, 0.5, 0, 0, 3, 2.01};

	check_servegen("series_servegen_gamma", 10, SERIES "servegen-gamma.csv", false, start, rate, shape,
		       scale);
}
END_TEST

START_TEST(series_servegen_weibull)
{
	/* Rows 0 and 1 fit exactly, 2 and 5 are off by a third or more (rescaled), 4 is 0.3% off (kept). */
	const double start[7] = {0, 600, 1200, 1800, 2100, 2700, 3300}, rate[6] = {2, 4, 3, 0, 1.5, 0.5};
	const double shape[6] = {1, 0.5, 0.4, 0, 2, 0.7}, scale[6] = {0.5, 0.125, 0.05, 0, 0.75, 1};

	check_servegen("series_servegen_weibull", 11, SERIES "servegen-weibull.csv", true, start, rate, shape,
		       scale);
}
END_TEST

/* Write `text` to a fresh temporary file (returned owned; remove with remove_file). */
static char *write_file(const char *name, const char *text)
{
	char *path = test_write_file(name, text);

	ck_assert_ptr_nonnull(path);
	return path;
}


START_TEST(series_equilibrium_start)
{
	/*
	 * 500 windows of 10 s at rate 1 with Gamma(0.1, 10) gaps (cv^2 = 10), 4 passes: 2,000 i.i.d. window
	 * counts. The stationary start gives exactly 10 per window; an ordinary renewal process started at
	 * each window's start about (cv^2 - 1) / 2 = 4.5 more (15.0 measured).
	 */
	static char text[500 * 32];
	double n[500], sum = 0, sum2 = 0, mean;
	struct fixture f;
	size_t len = 0;
	char *path;

	for (int i = 0; i < 500; i++)
		len += (size_t)snprintf(text + len, sizeof text - len, "%d,1,3.16,Gamma,0.1,10\n", 10 * i);
	path = write_file("equilibrium.csv", text);
	setup_series(&f, "series_equilibrium_start", 12, SERIES_SERVEGEN, (const char *const *)&path, 1);
	f.sc.arrivals.window_us = 10 * US;
	open_source(&f);
	for (int p = 0; p < 4; p++) {
		memset(n, 0, sizeof n);
		if (p > 0)
			rewind_source(&f);
		while (pull(&f, 5000))
			n[f.a.t_us / (10 * US)]++;
		for (int w = 0; w < 500; w++) {
			sum += n[w];
			sum2 += n[w] * n[w];
		}
	}
	mean = sum / 2000;
	assert_close(mean, 10, 4, sqrt((sum2 - sum * mean) / 1999 / 2000), 2.25, "arrivals per window, cv^2 10");
	teardown(&f);
	test_remove_file(path);
}
END_TEST

START_TEST(series_merges_files)
{
	char *extra = write_file("extra.csv", "window_start_s,rate_per_s\n0,7\n900,3\n");
	const char *paths[3] = {SERIES "aggregate.csv", extra, SERIES "aggregate.csv"};
	struct fixture f;

	setup_series(&f, "series_merges_files", 13, SERIES_AGGREGATE, paths, 3);
	open_source(&f);
	/* A sum of Poisson processes is Poisson: 116,100 expected, 4 SD = 1.2%; pull() checks the order. */
	assert_poisson(count(&f, 1e9), 2 * 54000 + 7 * 900 + 3 * 600, 4, "three merged files");
	teardown(&f);
	test_remove_file(extra);
}
END_TEST

/* Open `text` as a one-file series, read to its end, and expect `status` with `words` in the message. */
static void expect_error(enum series_format format, const char *text, int status, const char *words)
{
	char *path = write_file("bad.csv", text);
	struct diag d = {{0}};
	struct fixture f;
	int st;

	setup_series(&f, "expect_error", 1, format, (const char *const *)&path, 1);
	st = arrivals_series_new(&f.src, &f.sc, f.rng, &d);
	if (st != STATUS_OK)
		ck_assert_ptr_null(f.src);
	else /* some errors are found only when the reader gets there */
		while ((st = f.src->ops->next(f.src, &f.a, &d)) == STATUS_OK)
			;
	ck_assert_msg(st == status && strstr(d.msg, words) && strstr(d.msg, path),
		      "'%s': got %s '%s', want '%s'", text, status_str(st), d.msg, words);
	teardown(&f);
	test_remove_file(path);
}

START_TEST(series_errors)
{
	const char *missing = "/nonexistent/series.csv";
	struct diag d = {{0}};
	struct fixture f;

	setup_series(&f, "series_errors", 1, SERIES_SERVEGEN, &missing, 1);
	ck_assert_int_eq(arrivals_series_new(&f.src, &f.sc, f.rng, &d), STATUS_ENOENT);
	ck_assert_ptr_nonnull(strstr(d.msg, missing));
	teardown(&f);
	expect_error(SERIES_AGGREGATE, "start,rate\n0,5\n600,x\n", STATUS_EINPUT, ":3: rate 'x' is not a finite number");
	expect_error(SERIES_AGGREGATE, "start,rate\n0,-5\n", STATUS_EINPUT, ":2: rate -5 is negative");
	expect_error(SERIES_AGGREGATE, "0,5\n600,5\n", STATUS_EINPUT, ":1: a data row; expected a header");
	expect_error(SERIES_AGGREGATE, "start,rate\n", STATUS_EINPUT, "no windows");
	expect_error(SERIES_AGGREGATE, "start,rate\n0,1\n600,1\n600,1\n", STATUS_EINPUT,
		     ":4: window start 600 s is not after line 3's");
	expect_error(SERIES_SERVEGEN, "0,1,1,Lognormal,1,1\n", STATUS_EINPUT, ":1: unknown distribution");
	expect_error(SERIES_SERVEGEN, "0,1,1,Gamma,0,1\n", STATUS_EINPUT, "expected both > 0");
	expect_error(SERIES_SERVEGEN, "0,1,1,Weibull,1,-2\n", STATUS_EINPUT, "expected both > 0");
	expect_error(SERIES_SERVEGEN, "0,1,1,Gamma,1\n", STATUS_EINPUT, "5 fields; expected 6");
	expect_error(SERIES_SERVEGEN, "-600,1,1,,0,0\n", STATUS_EINPUT, "window start -600 is negative");
	expect_error(SERIES_SERVEGEN, "0,1,1,Weibull,1e-48,1\n", STATUS_EINPUT, "rescaled scale out of range");
}
END_TEST

START_TEST(series_error_while_streaming)
{
	static char text[64 * 40];
	struct diag d = {{0}};
	struct fixture f;
	size_t len = 0;
	int64_t last = -1;
	char *path, want[128];
	int st;

	for (int i = 0; i < 40; i++) /* line 31 is bad */
		len += (size_t)snprintf(text + len, sizeof text - len,
					i == 30 ? "%d,1,1,Gamma,1,oops\n" : "%d,1,1,,0,0\n", 60 * i);
	path = write_file("late.csv", text);
	setup_series(&f, "series_error_while_streaming", 14, SERIES_SERVEGEN, (const char *const *)&path, 1);
	open_source(&f);
	while ((st = f.src->ops->next(f.src, &f.a, &d)) == STATUS_OK)
		last = f.a.t_us;
	/* Line 30's window (from 29 x 60 s) starts only once line 31 is read: the arrivals before it came out. */
	snprintf(want, sizeof want, "%s:31:", path);
	ck_assert_msg(st == STATUS_EINPUT && strstr(d.msg, want), "got %s '%s'", status_str(st), d.msg);
	ck_assert(last > 28 * 60 * US && last < 29 * 60 * US);
	d.msg[0] = '\0';
	ck_assert_int_eq(f.src->ops->next(f.src, &f.a, &d), STATUS_EINPUT); /* and it stays failed */
	ck_assert_ptr_nonnull(strstr(d.msg, want));
	teardown(&f);
	test_remove_file(path);
}
END_TEST

static Suite *arrivals_suite(void)
{
	const TTest *tests[] = {
		poisson_mean_rate, poisson_steps_and_pause, uniform_is_evenly_spaced_and_ends_at_zero_rate,
		diurnal_mean_rate_and_peak_to_trough, diurnal_hourly_factors, diurnal_weekly_factors,
		diurnal_step_bounds_hold, diurnal_few_candidates_per_arrival, diurnal_counts_follow_the_rate,
		mmpp_mean_rate_and_burst_fraction, mmpp_equal_rates_is_poisson, flash_crowd_excess,
		series_aggregate_counts, series_servegen_gamma, series_servegen_weibull, series_equilibrium_start,
		series_merges_files, series_errors, series_error_while_streaming,
	};
	Suite *s = suite_create("arrivals");
	TCase *tc = tcase_create("core");

	/* Samples of up to 2.6 million arrivals: about 0.3 s each plain, more under sanitizers. */
	tcase_set_timeout(tc, 60);
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
		test_add(tc, tests[i]);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	gsl_set_error_handler_off(); /* as the program does: GSL failures are statuses, not aborts */
	return test_run_suite(arrivals_suite());
}
