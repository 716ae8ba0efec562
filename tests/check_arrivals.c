/*
 * check_arrivals: the synthetic arrival sources (models/arrivals_{rate,profile,mmpp,flash,series}.c).
 *
 * Scenarios are built by hand (zeroed, then the arrival fields set). Each statistical test draws one seeded
 * sample (the seed is printed; GPUCAP_TEST_SEED replays it) and makes two assertions: the estimate is
 * within k standard errors (SE) of its expectation, and k SE is small enough to catch a plausible bug
 * (a 10% error in a rate, a factor read for the wrong hour or weekday). The SE comes from the model:
 *   - a Poisson count with mean N has SD sqrt(N);
 *   - a renewal-reward estimate over i.i.d. cycles (MMPP) has the SE worked out in its test;
 *   - counts of a window of a rate series repeat independently on every pass (each window restarts its
 *     process), so for renewal windows the SE is the sample SD over passes / sqrt(passes).
 * k is 4 for one comparison (a correct implementation fails about once in 16,000 seeds) and 4.5 for a
 * family of up to 24 (under 2e-4 for the family); 5 when the SE is itself estimated from 40 or more passes
 * (Student t, under 1e-4 per comparison).
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

static void make_scenario(struct scenario *sc, enum arrival_kind kind, double rate_per_s)
{
	memset(sc, 0, sizeof *sc);
	sc->start_unix_s = START_2026;
	sc->arrivals.kind = kind;
	sc->arrivals.rate_per_s = rate_per_s;
	sc->arrivals.peak_hour = 14;
	sc->arrivals.window_us = 600 * US;
}

/* The next arrival, checked against what every synthetic source promises; false at STATUS_DONE. */
static bool pull(struct arrival_source *src, struct arrival *a, int64_t *last_us)
{
	struct diag d = {{0}};
	int st = src->ops->next(src, a, &d);

	if (st == STATUS_DONE)
		return false;
	ck_assert_msg(st == STATUS_OK, "next: %s: %s", status_str(st), d.msg);
	ck_assert_msg(a->t_us >= *last_us, "time went back: %lld after %lld", (long long)a->t_us,
		      (long long)*last_us);
	ck_assert(a->in_tokens == -1 && a->out_tokens == -1 && isnan(a->service_s));
	*last_us = a->t_us;
	return true;
}

/* Arrivals before end_us. */
static double count_until(struct arrival_source *src, int64_t end_us)
{
	struct arrival a;
	int64_t last = 0;
	double n = 0;

	while (pull(src, &a, &last) && a.t_us < end_us)
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

/* ---- rate: poisson and uniform with steps ---- */

START_TEST(poisson_mean_rate)
{
	struct scenario sc;
	gsl_rng *rng = rng_new(test_seed("poisson_mean_rate", 1), "arrivals");
	struct arrival_source *src;
	double n, want = 20.0 * 10000;

	make_scenario(&sc, ARRIVAL_POISSON, 20.0);
	src = arrivals_rate_new(&sc, rng);
	n = count_until(src, 10000 * US);
	/* Poisson count: SD sqrt(N) = 447, 4 SD = 0.9%; a 10% rate error is 20,000. */
	assert_close(n, want, 4, sqrt(want), 0.1 * want, "arrivals in 10,000 s at 20/s");
	arrivals_free(src);
	gsl_rng_free(rng);
}
END_TEST

START_TEST(poisson_steps_and_pause)
{
	struct scenario sc;
	gsl_rng *rng = rng_new(test_seed("poisson_steps_and_pause", 2), "arrivals");
	struct arrival_source *src;
	const double rate[4] = {10, 30, 0, 5}, at[5] = {0, 1000, 2000, 3000, 5000};
	double n[4] = {0};
	struct arrival a;
	int64_t last = 0;

	make_scenario(&sc, ARRIVAL_POISSON, 10);
	for (int i = 0; i < 3; i++)
		sc.arrivals.steps[i] = (struct rate_step){(int64_t)at[i + 1] * US, rate[i + 1]};
	sc.arrivals.nsteps = 3;
	src = arrivals_rate_new(&sc, rng);
	while (pull(src, &a, &last) && a.t_us < 5000 * US)
		for (int i = 0; i < 4; i++)
			n[i] += a.t_us >= at[i] * US && a.t_us < at[i + 1] * US;
	ck_assert_msg(n[2] == 0, "%g arrivals while the rate was 0", n[2]);
	for (int i = 0; i < 4; i++) {
		double want = rate[i] * (at[i + 1] - at[i]);

		/* 3 Poisson counts (10,000, 30,000, 10,000): 4.5 SD is at most 4.5% of each. */
		if (want > 0)
			assert_close(n[i], want, 4.5, sqrt(want), 0.1 * want, "arrivals in a step");
	}
	arrivals_free(src);
	gsl_rng_free(rng);
}
END_TEST

START_TEST(uniform_is_evenly_spaced_and_ends_at_zero_rate)
{
	struct scenario sc;
	struct arrival_source *src;
	struct arrival a;
	int64_t last = 0, k = 0;

	make_scenario(&sc, ARRIVAL_UNIFORM, 4.0);
	sc.arrivals.steps[0] = (struct rate_step){10 * US, 2.0};
	sc.arrivals.steps[1] = (struct rate_step){20 * US, 0.0};
	sc.arrivals.nsteps = 2;
	src = arrivals_rate_new(&sc, NULL); /* uniform draws nothing */
	while (pull(src, &a, &last)) {
		k++;
		/* 40 arrivals every 0.25 s up to 10 s, then 20 every 0.5 s up to 20 s; then the rate is 0 */
		ck_assert_int_eq(a.t_us, k <= 40 ? k * US / 4 : 10 * US + (k - 40) * US / 2);
	}
	ck_assert_int_eq(k, 60);
	ck_assert_int_eq(src->ops->rewind(src, NULL), STATUS_OK);
	ck_assert(pull(src, &a, &(int64_t){0}) && a.t_us == US / 4);
	arrivals_free(src);
}
END_TEST

/* ---- profile: diurnal ---- */

/* Hour of day and weekday (Monday 0) of an arrival, from the C library's UTC calendar. */
static void clock_of(const struct scenario *sc, int64_t t_us, int *hour, int *weekday)
{
	time_t t = (time_t)(sc->start_unix_s + t_us / US);
	struct tm tm;

	gmtime_r(&t, &tm);
	*hour = tm.tm_hour;
	*weekday = (tm.tm_wday + 6) % 7;
}

/* Arrivals per hour of day and per weekday over `days` (a whole number) from the start. */
static void count_clock(const struct scenario *sc, struct arrival_source *src, int days, double *hours,
			double *weekdays)
{
	struct arrival a;
	int64_t last = 0;
	int h, w;

	while (pull(src, &a, &last) && a.t_us < days * 86400 * US) {
		clock_of(sc, a.t_us, &h, &w);
		hours[h]++;
		weekdays[w]++;
	}
}

START_TEST(diurnal_mean_rate_and_peak_to_trough)
{
	struct scenario sc;
	gsl_rng *rng = rng_new(test_seed("diurnal_peak_to_trough", 3), "arrivals");
	struct arrival_source *src;
	const double a = 0.5, days = 60;
	double hours[24] = {0}, weekdays[7] = {0}, total = 0, peak, trough, sinc, want, se;

	make_scenario(&sc, ARRIVAL_DIURNAL, 0.5);
	sc.start_unix_s = START_2026 + 13 * 3600; /* start mid-day: 13:00 UTC */
	sc.arrivals.amplitude = a;
	sc.arrivals.peak_hour = 14.5; /* the peak in the middle of hour 14, the trough in hour 2 */
	src = arrivals_profile_new(&sc, rng);
	count_clock(&sc, src, (int)days, hours, weekdays);
	for (int h = 0; h < 24; h++)
		total += hours[h];
	/* rate_per_s is the daily mean: Poisson count of 2.6 million, SD 0.06%. */
	want = 0.5 * 86400 * days;
	assert_close(total, want, 4, sqrt(want), 0.1 * want, "diurnal arrivals in 60 days");
	/*
	 * An hour's count averages the sinusoid over the hour: 1 +- a x sinc with sinc = sin(pi/24) / (pi/24)
	 * = 0.99715 at the peak and trough hours, so the ratio is (1 + a sinc) / (1 - a sinc) = 2.989 (vs
	 * (1 + a) / (1 - a) = 3). Its relative SE is sqrt(1/N_peak + 1/N_trough) = 0.5% (Poisson counts of
	 * 162,000 and 54,000); 4 SE = 2% catches an amplitude 10% off (ratio 2.64) and a peak an hour off (2.86).
	 */
	peak = hours[14];
	trough = hours[2];
	sinc = sin(M_PI / 24) / (M_PI / 24);
	want = (1 + a * sinc) / (1 - a * sinc);
	se = want * sqrt(1 / peak + 1 / trough);
	assert_close(peak / trough, want, 4, se, want - (1 + a * sinc * cos(M_PI / 12)) /
		     (1 - a * sinc * cos(M_PI / 12)), "peak-to-trough ratio of hourly counts");
	ck_assert(fabs(want - (1 + a) / (1 - a)) < 0.02);
	arrivals_free(src);
	gsl_rng_free(rng);
}
END_TEST

START_TEST(diurnal_hourly_factors)
{
	struct scenario sc;
	gsl_rng *rng = rng_new(test_seed("diurnal_hourly_factors", 4), "arrivals");
	struct arrival_source *src;
	const int days = 30;
	double hours[24] = {0}, weekdays[7] = {0};

	make_scenario(&sc, ARRIVAL_DIURNAL, 0.5);
	sc.start_unix_s = START_2026 + 5 * 3600 + 1234; /* not on an hour: bins still get 30 hours each */
	sc.arrivals.has_hourly = true;
	for (int h = 0; h < 24; h++) /* distinct factors 0.2..2.5, and hour 3 closed */
		sc.arrivals.hourly[h] = h == 3 ? 0.0 : 0.2 + 0.1 * ((h * 7) % 24);
	src = arrivals_profile_new(&sc, rng);
	count_clock(&sc, src, days, hours, weekdays);
	for (int h = 0; h < 24; h++) {
		double want = 0.5 * 3600 * days * sc.arrivals.hourly[h];

		/* 24 Poisson counts of at least 10,800: 4.5 SD is at most 4.3% of each. */
		if (want == 0)
			ck_assert_msg(hours[h] == 0, "%g arrivals in closed hour %d", hours[h], h);
		else
			assert_close(hours[h], want, 4.5, sqrt(want), 0.1 * want, "arrivals in one hour of day");
	}
	arrivals_free(src);
	gsl_rng_free(rng);
}
END_TEST

START_TEST(diurnal_weekly_factors)
{
	struct scenario sc;
	gsl_rng *rng = rng_new(test_seed("diurnal_weekly_factors", 5), "arrivals");
	struct arrival_source *src;
	const double weekly[7] = {1.0, 1.2, 0.8, 1.5, 0.5, 0.3, 0.0};
	const int weeks = 8;
	double hours[24] = {0}, weekdays[7] = {0};

	make_scenario(&sc, ARRIVAL_DIURNAL, 0.2);
	sc.start_unix_s = START_2026 + 6 * 86400 + 5 * 3600; /* a Wednesday, 05:00 */
	sc.arrivals.amplitude = 0.5; /* whole days average the sinusoid out */
	sc.arrivals.has_weekly = true;
	memcpy(sc.arrivals.weekly, weekly, sizeof weekly);
	src = arrivals_profile_new(&sc, rng);
	count_clock(&sc, src, 7 * weeks, hours, weekdays);
	for (int w = 0; w < 7; w++) {
		double want = 0.2 * 86400 * weeks * weekly[w];

		/* 7 Poisson counts of at least 41,000: 4.5 SD is at most 2.2%; neighbours differ by 20% or more. */
		if (want == 0)
			ck_assert_msg(weekdays[w] == 0, "%g arrivals on closed weekday %d", weekdays[w], w);
		else
			assert_close(weekdays[w], want, 4.5, sqrt(want), 0.1 * want, "arrivals on one weekday");
	}
	arrivals_free(src);
	gsl_rng_free(rng);
}
END_TEST

/* ---- mmpp ---- */

/*
 * Calm 300 s at 0.1/s, bursts 60 s at 1/s, over 10,000 cycles (3.6e6 s). A cycle (burst D ~ Exp(Tb) with
 * X ~ Poisson(B D) arrivals, calm C ~ Exp(Tc) with Y ~ Poisson(R C)) has Var X = B Tb + (B Tb)^2, Var Y = R Tc
 * + (R Tc)^2. Renewal-reward gives the SE of the mean rate m = E(X+Y) / E(D+C) over time T as
 * sqrt(Var(X + Y - m (D + C)) / (E(D+C) T)), with Var(X - m D) = B Tb + (B - m)^2 Tb^2 (and the same for
 * calm); and of the burst fraction p = E X / E(X+Y) over n cycles as
 * sqrt(((1-p)^2 Var X + p^2 Var Y) / n) / E(X+Y).
 */
#define MMPP_R 0.1
#define MMPP_B 1.0
#define MMPP_TC 300.0
#define MMPP_TB 60.0
#define MMPP_T 3.6e6

START_TEST(mmpp_mean_rate_and_burst_fraction)
{
	uint64_t seed = test_seed("mmpp_mean_rate_and_burst_fraction", 6);
	gsl_rng *rng = rng_new(seed, "arrivals"), *state = rng_new(seed, "arrivals.state");
	gsl_rng *path = rng_new(seed, "arrivals.state"); /* replays the modulation: calm first, then bursts */
	double ex = MMPP_B * MMPP_TB, ey = MMPP_R * MMPP_TC, cycle = MMPP_TB + MMPP_TC, m = (ex + ey) / cycle;
	double vx = ex + ex * ex, vy = ey + ey * ey, p = ex / (ex + ey), n = MMPP_T / cycle;
	double all = 0, in_burst = 0, end_s, se;
	struct scenario sc;
	struct arrival_source *src;
	struct arrival a;
	int64_t last = 0;
	int burst = 0;

	make_scenario(&sc, ARRIVAL_MMPP, MMPP_R);
	sc.arrivals.burst_rate_per_s = MMPP_B;
	sc.arrivals.calm_mean_us = (int64_t)MMPP_TC * US;
	sc.arrivals.burst_mean_us = (int64_t)MMPP_TB * US;
	src = arrivals_mmpp_new(&sc, rng, state);
	end_s = gsl_ran_exponential(path, MMPP_TC);
	while (pull(src, &a, &last) && a.t_us < (int64_t)MMPP_T * US) {
		while ((double)a.t_us / US >= end_s) {
			burst = !burst;
			end_s += gsl_ran_exponential(path, burst ? MMPP_TB : MMPP_TC);
		}
		all++;
		in_burst += burst;
	}
	/* m = 0.25/s; SE 0.0018/s (0.7%), 4 SE = 2.9%. */
	se = sqrt((MMPP_B * MMPP_TB + pow(MMPP_B - m, 2) * MMPP_TB * MMPP_TB + MMPP_R * MMPP_TC +
		   pow(MMPP_R - m, 2) * MMPP_TC * MMPP_TC) / (cycle * MMPP_T));
	assert_close(all / MMPP_T, m, 4, se, 0.1 * m, "MMPP mean rate");
	/* p = 2/3, SE 0.0032, 4 SE = 0.013; a burst rate 10% high gives p = 0.6875. */
	se = sqrt(((1 - p) * (1 - p) * vx + p * p * vy) / n) / (ex + ey);
	assert_close(in_burst / all, p, 4, se, 1.1 * ex / (1.1 * ex + ey) - p, "fraction of arrivals in bursts");
	arrivals_free(src);
	gsl_rng_free(rng);
	gsl_rng_free(state);
	gsl_rng_free(path);
}
END_TEST

START_TEST(mmpp_equal_rates_is_poisson)
{
	uint64_t seed = test_seed("mmpp_equal_rates_is_poisson", 7);
	gsl_rng *rng = rng_new(seed, "arrivals"), *state = rng_new(seed, "arrivals.state");
	struct scenario sc;
	struct arrival_source *src;
	double n, want = 2.0 * 100000;

	make_scenario(&sc, ARRIVAL_MMPP, 2.0);
	sc.arrivals.burst_rate_per_s = 2.0;
	sc.arrivals.calm_mean_us = 50 * US;
	sc.arrivals.burst_mean_us = 5 * US;
	src = arrivals_mmpp_new(&sc, rng, state);
	n = count_until(src, 100000 * US);
	/* With equal rates the switches must not show: a Poisson count, 4 SD = 0.9%. */
	assert_close(n, want, 4, sqrt(want), 0.1 * want, "MMPP with equal rates");
	arrivals_free(src);
	gsl_rng_free(rng);
	gsl_rng_free(state);
}
END_TEST

/* ---- flash crowd ---- */

START_TEST(flash_crowd_excess)
{
	struct scenario sc;
	gsl_rng *rng = rng_new(test_seed("flash_crowd_excess", 8), "arrivals");
	struct arrival_source *src;
	const double r = 1, mag = 50, tau = 600, at = 3600, end = at + 20 * tau;
	double before = 0, first_tau = 0, after = 0, want;
	struct arrival a;
	int64_t last = 0;

	make_scenario(&sc, ARRIVAL_FLASH_CROWD, r);
	sc.arrivals.flash_at_us = (int64_t)at * US;
	sc.arrivals.flash_magnitude = mag;
	sc.arrivals.flash_decay_us = (int64_t)tau * US;
	src = arrivals_flash_new(&sc, rng);
	while (pull(src, &a, &last) && a.t_us < (int64_t)end * US) {
		double t = (double)a.t_us / US;

		before += t < at;
		first_tau += t >= at && t < at + tau;
		after += t >= at;
	}
	/* Three Poisson counts, 4.5 SD each. Before `at`: 3,600 at the base rate. */
	assert_close(before, r * at, 4.5, sqrt(r * at), 0.1 * r * at, "arrivals before the spike");
	/* Excess after `at` over the base: r mag tau = 30,000 (less e^-20), SD sqrt(45,600) = 214. */
	want = r * mag * tau * (1 - exp(-20));
	assert_close(after - r * (end - at), want, 4.5, sqrt(after), 0.1 * want, "excess arrivals of the spike");
	/* Shape: r tau (1 + mag (1 - 1/e)) = 19,564 in the first decay time; a half-life mistaken for the
	   time constant gives 15,600. */
	want = r * tau * (1 + mag * (1 - exp(-1)));
	assert_close(first_tau, want, 4.5, sqrt(want), 0.1 * want, "arrivals in the first decay time");
	arrivals_free(src);
	gsl_rng_free(rng);
}
END_TEST

/* ---- rate series ---- */

#define SERIES_WINDOWS_MAX 8

/* A scenario reading `n` series files. */
static void make_series(struct scenario *sc, enum series_format format, const char *const *paths, int n)
{
	make_scenario(sc, ARRIVAL_RATE_SERIES, 1.0);
	sc->arrivals.series_format = format;
	for (int i = 0; i < n; i++)
		snprintf(sc->arrivals.series[i], SCENARIO_PATH_MAX, "%s", paths[i]);
	sc->arrivals.nseries = n;
}

/*
 * Arrivals per window (windows start at start_s[0..nw-1], the last ends at start_s[nw]) over `passes`
 * passes of the source (rewound between): mean[] and the SE of each mean from the spread over passes.
 */
static void series_counts(struct arrival_source *src, const double *start_s, int nw, int passes,
			  double *mean, double *se)
{
	double sum[SERIES_WINDOWS_MAX] = {0}, sum2[SERIES_WINDOWS_MAX] = {0};

	for (int p = 0; p < passes; p++) {
		double n[SERIES_WINDOWS_MAX] = {0};
		struct arrival a;
		int64_t last = 0;
		int w = 0;

		if (p > 0)
			ck_assert_int_eq(src->ops->rewind(src, NULL), STATUS_OK);
		while (pull(src, &a, &last)) {
			while (w < nw && a.t_us >= llround(start_s[w + 1] * US))
				w++;
			ck_assert_msg(w < nw, "arrival at %lld after the last window", (long long)a.t_us);
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
	gsl_rng *rng = rng_new(test_seed("series_aggregate_counts", 9), "arrivals");
	double mean[SERIES_WINDOWS_MAX], se[SERIES_WINDOWS_MAX];
	struct arrival_source *src;
	struct scenario sc;
	const int passes = 10;

	make_series(&sc, SERIES_AGGREGATE, &path, 1);
	ck_assert_int_eq(arrivals_series_new(&src, &sc, rng, NULL), STATUS_OK);
	series_counts(src, start, 5, passes, mean, se);
	for (int w = 0; w < 5; w++) {
		double want = rate[w] * (start[w + 1] - start[w]);

		/* Poisson: the mean of 10 passes has SE sqrt(want / 10); 4.5 SE is at most 2.6%. */
		if (want == 0)
			ck_assert_msg(mean[w] == 0, "arrivals in a window of rate 0");
		else
			assert_close(mean[w], want, 4.5, sqrt(want / passes), 0.1 * want, "aggregate window");
	}
	arrivals_free(src);
	gsl_rng_free(rng);
}
END_TEST

/* The mean gap the reader uses for a ServeGen row: the fit when within 1% of 1 / rate, else 1 / rate. */
static double servegen_mean_gap(double rate, bool weibull, double shape, double scale)
{
	double fit;

	if (shape == 0)
		return 1 / rate; /* Poisson */
	fit = weibull ? scale * gsl_sf_gamma(1 + 1 / shape) : shape * scale;
	return fabs(fit * rate - 1) > 0.01 ? 1 / rate : fit;
}

/* Check the per-window counts of one ServeGen test file against rate x length. */
static void check_servegen_file(const char *name, bool weibull, const double *start, const double *rate,
				const double *shape, const double *scale, uint64_t seed)
{
	const char *path = name;
	gsl_rng *rng = rng_new(seed, "arrivals");
	double mean[SERIES_WINDOWS_MAX], se[SERIES_WINDOWS_MAX];
	struct arrival_source *src;
	struct scenario sc;
	const int passes = 40;

	make_series(&sc, SERIES_SERVEGEN, &path, 1);
	ck_assert_int_eq(arrivals_series_new(&src, &sc, rng, NULL), STATUS_OK);
	series_counts(src, start, 6, passes, mean, se);
	for (int w = 0; w < 6; w++) {
		double want = rate[w] > 0 ? (start[w + 1] - start[w]) /
			servegen_mean_gap(rate[w], weibull, shape[w], scale[w]) : 0;

		/* SE estimated from 40 passes: 5 SE; the burstiest window (cv 3.1) still gets under 10%. */
		if (want == 0)
			ck_assert_msg(mean[w] == 0, "%s: arrivals in a window of rate 0", name);
		else
			assert_close(mean[w], want, 5, se[w], 0.1 * want, name);
	}
	arrivals_free(src);
	gsl_rng_free(rng);
}

START_TEST(series_servegen_gamma)
{
	/* Rows 0 and 4 fit 1 / rate exactly, row 1 is 25% off (rescaled), row 5 0.5% off (kept), row 3 Poisson. */
	const double start[7] = {0, 600, 1200, 1800, 2400, 3000, 3600}, rate[6] = {2, 5, 0, 1, 3, 0.5};
	const double shape[6] = {0.25, 0.5, 0, 0, 1.0 / 9, 1}, scale[6] = {2, 0.5, 0, 0, 3, 2.01};

	check_servegen_file(SERIES "servegen-gamma.csv", false, start, rate, shape, scale,
			    test_seed("series_servegen_gamma", 10));
}
END_TEST

START_TEST(series_servegen_weibull)
{
	/* Rows 0, 1 fit exactly, 2 and 5 are off by half or more (rescaled), 4 is 0.3% off (kept). */
	const double start[7] = {0, 600, 1200, 1800, 2100, 2700, 3300}, rate[6] = {2, 4, 3, 0, 1.5, 0.5};
	const double shape[6] = {1, 0.5, 0.4, 0, 2, 0.7}, scale[6] = {0.5, 0.125, 0.05, 0, 0.75, 1};

	check_servegen_file(SERIES "servegen-weibull.csv", true, start, rate, shape, scale,
			    test_seed("series_servegen_weibull", 11));
}
END_TEST

/* Write `text` to a temporary file; *path is owned by the caller, removed with remove_file. */
static char *write_file(const char *name, const char *text)
{
	char *path = test_write_file(name, text);

	ck_assert_ptr_nonnull(path);
	return path;
}

static void remove_file(char *path)
{
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	free(path);
}

START_TEST(series_equilibrium_start)
{
	/*
	 * 500 windows of 10 s at rate 1 with Gamma(0.1, 10) gaps (cv^2 = 10). Each window restarts, so its
	 * count is i.i.d. over windows: the mean of 2,000 windows has SE sd / sqrt(2,000) (sd estimated). The
	 * stationary start gives exactly 10 per window; an ordinary renewal process started at each window's
	 * start gives about (cv^2 - 1) / 2 = 4.5 more.
	 */
	static char text[500 * 32];
	gsl_rng *rng = rng_new(test_seed("series_equilibrium_start", 12), "arrivals");
	double sum = 0, sum2 = 0, mean, se, n[500];
	struct arrival_source *src;
	struct scenario sc;
	struct arrival a;
	char *path;
	size_t len = 0;

	for (int i = 0; i < 500; i++)
		len += (size_t)snprintf(text + len, sizeof text - len, "%d,1,3.16,Gamma,0.1,10\n", 10 * i);
	path = write_file("equilibrium.csv", text);
	make_series(&sc, SERIES_SERVEGEN, (const char *const *)&path, 1);
	sc.arrivals.window_us = 10 * US;
	ck_assert_int_eq(arrivals_series_new(&src, &sc, rng, NULL), STATUS_OK);
	for (int p = 0; p < 4; p++) {
		int64_t last = 0;

		memset(n, 0, sizeof n);
		if (p > 0)
			ck_assert_int_eq(src->ops->rewind(src, NULL), STATUS_OK);
		while (pull(src, &a, &last))
			n[a.t_us / (10 * US)]++;
		for (int w = 0; w < 500; w++) {
			sum += n[w];
			sum2 += n[w] * n[w];
		}
	}
	mean = sum / 2000;
	se = sqrt((sum2 - sum * mean) / 1999 / 2000);
	assert_close(mean, 10, 4, se, 0.5 * 4.5, "arrivals per 10 s window, cv^2 10");
	arrivals_free(src);
	remove_file(path);
	gsl_rng_free(rng);
}
END_TEST

START_TEST(series_merges_files)
{
	char *extra = write_file("extra.csv", "window_start_s,rate_per_s\n0,7\n900,3\n");
	const char *paths[3] = {SERIES "aggregate.csv", extra, SERIES "aggregate.csv"};
	gsl_rng *rng = rng_new(test_seed("series_merges_files", 13), "arrivals");
	struct arrival_source *src;
	struct scenario sc;
	double n, want = 2 * 54000 + 7 * 900 + 3 * 600;

	make_series(&sc, SERIES_AGGREGATE, paths, 3);
	ck_assert_int_eq(arrivals_series_new(&src, &sc, rng, NULL), STATUS_OK);
	n = count_until(src, INT64_MAX); /* pull() checks the merged order */
	/* A sum of Poisson processes is Poisson: 116,100 expected, 4 SD = 1.2%. */
	assert_close(n, want, 4, sqrt(want), 0.1 * want, "arrivals of three merged files");
	arrivals_free(src);
	remove_file(extra);
	gsl_rng_free(rng);
}
END_TEST

/* Open `text` as a one-file series and expect `status` with `words` in the message. */
static void expect_error(enum series_format format, const char *text, int status, const char *words)
{
	char *path = write_file("bad.csv", text);
	gsl_rng *rng = rng_new(1, "arrivals"); /* the first window's first arrival is drawn on opening */
	struct arrival_source *src = NULL;
	struct diag d = {{0}};
	struct scenario sc;
	int st;

	make_series(&sc, format, (const char *const *)&path, 1);
	st = arrivals_series_new(&src, &sc, rng, &d);
	ck_assert_msg(st == status && strstr(d.msg, words) && strstr(d.msg, path),
		      "'%s': got %s '%s', want '%s'", text, status_str(st), d.msg, words);
	ck_assert_ptr_null(src);
	remove_file(path);
	gsl_rng_free(rng);
}

START_TEST(series_errors)
{
	const char *missing = "/nonexistent/series.csv";
	struct arrival_source *src = NULL;
	struct diag d = {{0}};
	struct scenario sc;

	make_series(&sc, SERIES_SERVEGEN, &missing, 1);
	ck_assert_int_eq(arrivals_series_new(&src, &sc, NULL, &d), STATUS_ENOENT);
	ck_assert_ptr_nonnull(strstr(d.msg, missing));
	expect_error(SERIES_AGGREGATE, "start,rate\n0,5\n600,x\n", STATUS_EINPUT, ":3: rate 'x' is not a number");
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
}
END_TEST

START_TEST(series_error_while_streaming)
{
	static char text[64 * 40];
	gsl_rng *rng = rng_new(test_seed("series_error_while_streaming", 14), "arrivals");
	struct arrival_source *src;
	struct diag d = {{0}};
	struct scenario sc;
	struct arrival a;
	size_t len = 0;
	int64_t last = -1;
	char *path, want[64];
	int st;

	for (int i = 0; i < 40; i++) /* line 31 is bad */
		len += (size_t)snprintf(text + len, sizeof text - len, i == 30 ? "%d,1,1,Gamma,1,oops\n" :
					"%d,1,1,,0,0\n", 60 * i);
	path = write_file("late.csv", text);
	make_series(&sc, SERIES_SERVEGEN, (const char *const *)&path, 1);
	ck_assert_int_eq(arrivals_series_new(&src, &sc, rng, &d), STATUS_OK);
	while ((st = src->ops->next(src, &a, &d)) == STATUS_OK)
		last = a.t_us;
	/* Line 30's window (from 29 x 60 s) starts only once line 31 is read: the arrivals before it came out. */
	snprintf(want, sizeof want, "%s:31:", path);
	ck_assert_msg(st == STATUS_EINPUT && strstr(d.msg, want), "got %s '%s'", status_str(st), d.msg);
	ck_assert(last > 28 * 60 * US && last < 29 * 60 * US);
	d.msg[0] = '\0';
	ck_assert_int_eq(src->ops->next(src, &a, &d), STATUS_EINPUT); /* and it stays failed */
	ck_assert_ptr_nonnull(strstr(d.msg, want));
	arrivals_free(src);
	remove_file(path);
	gsl_rng_free(rng);
}
END_TEST

static Suite *arrivals_suite(void)
{
	Suite *s = suite_create("arrivals");
	TCase *tc = tcase_create("core");

	/* Samples of up to 2.6 million arrivals: well under 1 s each plain, slower under sanitizers. */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, poisson_mean_rate);
	tcase_add_test(tc, poisson_steps_and_pause);
	tcase_add_test(tc, uniform_is_evenly_spaced_and_ends_at_zero_rate);
	tcase_add_test(tc, diurnal_mean_rate_and_peak_to_trough);
	tcase_add_test(tc, diurnal_hourly_factors);
	tcase_add_test(tc, diurnal_weekly_factors);
	tcase_add_test(tc, mmpp_mean_rate_and_burst_fraction);
	tcase_add_test(tc, mmpp_equal_rates_is_poisson);
	tcase_add_test(tc, flash_crowd_excess);
	tcase_add_test(tc, series_aggregate_counts);
	tcase_add_test(tc, series_servegen_gamma);
	tcase_add_test(tc, series_servegen_weibull);
	tcase_add_test(tc, series_equilibrium_start);
	tcase_add_test(tc, series_merges_files);
	tcase_add_test(tc, series_errors);
	tcase_add_test(tc, series_error_while_streaming);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	gsl_set_error_handler_off(); /* as the program does: GSL failures are statuses, not aborts */
	return test_run_suite(arrivals_suite());
}
