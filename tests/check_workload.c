/*
 * check_workload: requests drawn from a scenario's workload (models/traffic/workload.h).
 *
 * Scenarios are built by hand (zeroed, then the workload fields set), so these tests do not depend on the
 * YAML loader. Most use a constant Poisson rate; rate steps and uniform arrivals have tests of their own.
 * The statistical tests use one seeded sample each and state their tolerance in standard errors (SE) of
 * the estimate, worked out from the distribution's moments:
 *   - a count of Poisson arrivals over T has mean and variance rate*T;
 *   - a sample mean has SE = sd / sqrt(n);
 *   - a sample coefficient of variation c has, by the delta method, variance
 *       c^2 / n * ((kurtosis - 1) / 4 - skewness * c + c^2),
 *     which is 1/n for the exponential (c 1, skewness 2, kurtosis 9).
 * Four SE fails a correct implementation about once in 16000 seeds; the seeded default passes.
 * The lognormal with cv 2 is heavy-tailed (kurtosis 947): its sample CV converges slowly and is skewed, so
 * that one test uses 4 million draws and a 5% relative tolerance on the CV (about 7 SE; over 400 seeds
 * the worst error seen was 4.4%).
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "workload.h"

#define NSE 4.0  /* tolerance, in standard errors */

/* Running mean and variance (Welford), so large samples need no storage. */
struct moments {
	uint64_t n;   /* values seen */
	double mean;  /* their mean */
	double m2;    /* sum of squared deviations from the mean */
};

static void moments_add(struct moments *m, double x)
{
	double d = x - m->mean;

	m->n++;
	m->mean += d / (double)m->n;
	m->m2 += d * (x - m->mean);
}

static double moments_cv(const struct moments *m)
{
	return sqrt(m->m2 / (double)(m->n - 1)) / m->mean;
}

/* SE of the sample CV (see the header comment). */
static double cv_se(double cv, double skewness, double kurtosis, uint64_t n)
{
	return cv * sqrt(((kurtosis - 1.0) / 4.0 - skewness * cv + cv * cv) / (double)n);
}

/* A scenario with only what the workload reads set. */
static void make_scenario(struct scenario *sc, uint64_t seed, double rate_per_s, double horizon_s,
			  enum service_kind kind, double mean_s, double cv)
{
	memset(sc, 0, sizeof *sc);
	sc->seed = seed;
	sc->horizon_us = llround(horizon_s * (double)SIM_US_PER_S);
	sc->arrivals.kind = ARRIVAL_POISSON;
	sc->arrivals.rate_per_s = rate_per_s;
	sc->service.kind = kind;
	sc->service.mean_s = mean_s;
	sc->service.cv = cv;
}

static void assert_within(double got, double want, double tol, const char *what)
{
	ck_assert_msg(fabs(got - want) <= tol, "%s: got %.9g, want %.9g +- %.3g (off by %.3g)", what, got,
		      want, tol, fabs(got - want));
}

/*
 * Run a Poisson workload to its end; return the moments of the gaps between arrivals in seconds (the first
 * gap is from time 0), so .n counts the arrivals.
 */
static struct moments poisson_gaps(const char *test, double rate, double horizon_s)
{
	uint64_t seed = test_seed(test, 1);
	struct moments gaps = { 0, 0.0, 0.0 };
	struct scenario sc;
	struct workload w;
	struct request_draw r;
	int64_t prev = 0;
	int rc;

	make_scenario(&sc, seed, rate, horizon_s, SERVICE_CONSTANT, 0.01, 0.0);
	ck_assert_int_eq(workload_init(&w, &sc, NULL), STATUS_OK);
	while ((rc = workload_next(&w, &r, NULL)) == STATUS_OK) {
		moments_add(&gaps, (double)(r.arrival_us - prev) / (double)SIM_US_PER_S);
		prev = r.arrival_us;
	}
	ck_assert_int_eq(rc, STATUS_DONE);
	workload_fini(&w);
	return gaps;
}

/* A Poisson count over T is within 4 sd (sqrt(rate T)) of rate T. */
START_TEST(poisson_count_within_4_sd)
{
	const double rate = 50.0, horizon_s = 3600.0;
	const double expect = rate * horizon_s;  /* 180000 */
	const double tol = NSE * sqrt(expect);   /* ~1700, 0.94% */
	struct moments gaps;

	/* The tolerance must be tight enough to notice a rate off by a factor of 2 either way. */
	ck_assert(tol < fabs(2.0 * expect - expect));
	ck_assert(tol < fabs(0.5 * expect - expect));
	gaps = poisson_gaps("workload poisson_count_within_4_sd", rate, horizon_s);
	assert_within((double)gaps.n, expect, tol, "arrivals in the horizon");
}
END_TEST

/* Interarrival gaps: mean 1/rate within 4 SE ((1/rate) / sqrt(n)), CV 1 within 4 SE (1 / sqrt(n)). */
START_TEST(interarrival_mean_and_cv)
{
	const double rate = 50.0;
	struct moments gaps = poisson_gaps("workload interarrival_mean_and_cv", rate, 3600.0);

	ck_assert_uint_gt(gaps.n, 100000);
	assert_within(gaps.mean, 1.0 / rate, NSE * (1.0 / rate) / sqrt((double)gaps.n), "mean gap (s)");
	assert_within(moments_cv(&gaps), 1.0, NSE * cv_se(1.0, 2.0, 9.0, gaps.n), "gap CV");
}
END_TEST

/* Draw n requests (the horizon is far enough for them) and return the moments of their service times in s. */
static struct moments service_moments(const struct scenario *sc, uint64_t n)
{
	struct moments m = { 0, 0.0, 0.0 };
	struct workload w;
	struct request_draw r;
	uint64_t below_1us = 0;
	int rc = STATUS_OK;

	ck_assert_int_eq(workload_init(&w, sc, NULL), STATUS_OK);
	/* No ck_assert in this loop: each one costs Check a write to its pipe, and n is in the millions. */
	while (m.n < n && (rc = workload_next(&w, &r, NULL)) == STATUS_OK) {
		below_1us += r.service_us < 1;
		moments_add(&m, (double)r.service_us / (double)SIM_US_PER_S);
	}
	workload_fini(&w);
	ck_assert_int_eq(rc, STATUS_OK);
	ck_assert_uint_eq(m.n, n);
	ck_assert_uint_eq(below_1us, 0);
	return m;
}

/* Service rate 1000/s over 2x the time n requests need: running out before n would be a 1000-sd event. */
static void service_scenario(struct scenario *sc, uint64_t seed, uint64_t n, enum service_kind kind,
			     double mean_s, double cv)
{
	make_scenario(sc, seed, 1000.0, 2.0 * (double)n / 1000.0, kind, mean_s, cv);
}

START_TEST(service_constant_is_exact)
{
	struct scenario sc;
	struct workload w;
	struct request_draw r;

	service_scenario(&sc, 3, 1000, SERVICE_CONSTANT, 0.25, 0.0);
	ck_assert_int_eq(workload_init(&w, &sc, NULL), STATUS_OK);
	for (int i = 0; i < 1000; i++) {
		ck_assert_int_eq(workload_next(&w, &r, NULL), STATUS_OK);
		ck_assert_int_eq(r.service_us, 250000);
	}
	workload_fini(&w);
}
END_TEST

/* Exponential, mean 0.1 s: mean within 4 SE (mean / sqrt(n)), CV 1 within 4 SE (1 / sqrt(n)). */
START_TEST(service_exponential_mean_and_cv)
{
	const uint64_t n = 200000;
	const double mean = 0.1;
	uint64_t seed = test_seed("workload service_exponential_mean_and_cv", 4);
	struct scenario sc;
	struct moments m;

	service_scenario(&sc, seed, n, SERVICE_EXPONENTIAL, mean, 1.0);
	m = service_moments(&sc, n);
	assert_within(m.mean, mean, NSE * mean / sqrt((double)n), "exponential mean (s)");
	assert_within(moments_cv(&m), 1.0, NSE * cv_se(1.0, 2.0, 9.0, n), "exponential CV");
}
END_TEST

/* Skewness and kurtosis of a lognormal with coefficient of variation cv (w = 1 + cv^2). */
static void lognormal_shape(double cv, double *skewness, double *kurtosis)
{
	double w = 1.0 + cv * cv;

	*skewness = (w + 2.0) * sqrt(w - 1.0);
	*kurtosis = w * w * w * w + 2.0 * w * w * w + 3.0 * w * w - 3.0;
}

/* Lognormal, mean 0.2 s, cv 0.5: mean within 4 SE (cv mean / sqrt(n)), CV within 4 SE (delta method). */
START_TEST(service_lognormal_cv_half)
{
	const uint64_t n = 200000;
	const double mean = 0.2, cv = 0.5;
	uint64_t seed = test_seed("workload service_lognormal_cv_half", 5);
	double skew, kurt;
	struct scenario sc;
	struct moments m;

	lognormal_shape(cv, &skew, &kurt);
	service_scenario(&sc, seed, n, SERVICE_LOGNORMAL, mean, cv);
	m = service_moments(&sc, n);
	assert_within(m.mean, mean, NSE * cv * mean / sqrt((double)n), "lognormal(0.5) mean (s)");
	assert_within(moments_cv(&m), cv, NSE * cv_se(cv, skew, kurt, n), "lognormal(0.5) CV");
}
END_TEST

/*
 * Lognormal, mean 0.2 s, cv 2, 4 million draws: mean within 4 SE (cv mean / sqrt(n), 0.4%); CV within 5%
 * relative (the heavy tail makes the CV's own SE about 0.7% here, and its distribution skewed).
 */
START_TEST(service_lognormal_cv_two)
{
	const uint64_t n = 4000000;
	const double mean = 0.2, cv = 2.0;
	uint64_t seed = test_seed("workload service_lognormal_cv_two", 6);
	struct scenario sc;
	struct moments m;

	service_scenario(&sc, seed, n, SERVICE_LOGNORMAL, mean, cv);
	m = service_moments(&sc, n);
	assert_within(m.mean, mean, NSE * cv * mean / sqrt((double)n), "lognormal(2) mean (s)");
	assert_within(moments_cv(&m), cv, 0.05 * cv, "lognormal(2) CV");
}
END_TEST

/* Arrival times never decrease, never pass the horizon, and the stream then ends with STATUS_DONE. */
START_TEST(arrivals_ordered_within_horizon)
{
	uint64_t seed = test_seed("workload arrivals_ordered_within_horizon", 8);
	struct scenario sc;
	struct workload w;
	struct request_draw r;
	int64_t prev = 0;
	uint64_t n = 0, backwards = 0, beyond = 0, ties = 0;
	int rc;

	/* 2000/s, so microsecond rounding makes some equal neighbours; an odd horizon. */
	make_scenario(&sc, seed, 2000.0, 100.000123, SERVICE_EXPONENTIAL, 0.05, 1.0);
	ck_assert_int_eq(workload_init(&w, &sc, NULL), STATUS_OK);
	while ((rc = workload_next(&w, &r, NULL)) == STATUS_OK) {
		backwards += r.arrival_us < prev;
		beyond += r.arrival_us > sc.horizon_us;
		ties += r.arrival_us == prev;
		prev = r.arrival_us;
		n++;
	}
	ck_assert_int_eq(rc, STATUS_DONE);
	ck_assert_uint_gt(n, 0);
	ck_assert_uint_eq(backwards, 0);
	ck_assert_uint_eq(beyond, 0);
	ck_assert_uint_gt(ties, 0);  /* equal neighbours happened, and are allowed */
	/* The end is the end. */
	ck_assert_int_eq(workload_next(&w, &r, NULL), STATUS_DONE);
	workload_fini(&w);
}
END_TEST

/* A horizon shorter than the first gap gives STATUS_DONE at once (P(arrival in 1 us) = 1e-9 here). */
START_TEST(short_horizon_is_done_at_once)
{
	struct scenario sc;
	struct workload w;
	struct request_draw r;

	make_scenario(&sc, 9, 1e-3, 1e-6, SERVICE_CONSTANT, 1.0, 0.0);
	ck_assert_int_eq(sc.horizon_us, 1);
	ck_assert_int_eq(workload_init(&w, &sc, NULL), STATUS_OK);
	ck_assert_int_eq(workload_next(&w, &r, NULL), STATUS_DONE);
	workload_fini(&w);
}
END_TEST

/* Add a rate step to a scenario made by make_scenario. */
static void add_step(struct scenario *sc, double at_s, double rate_per_s)
{
	ck_assert_int_lt(sc->arrivals.nsteps, SCENARIO_STEPS_MAX);
	sc->arrivals.steps[sc->arrivals.nsteps].at_us = llround(at_s * (double)SIM_US_PER_S);
	sc->arrivals.steps[sc->arrivals.nsteps].rate_per_s = rate_per_s;
	sc->arrivals.nsteps++;
}

/*
 * Poisson with rate steps: 100/s for 600 s, 10/s for 600 s, paused (0/s) for 600 s, 50/s for 600 s. The
 * count in each window is within 4 sd (sqrt(rate x 600 s)) of rate x 600 s, and none arrive in the pause.
 */
START_TEST(poisson_rate_steps)
{
	static const double rate[] = { 100.0, 10.0, 0.0, 50.0 };
	const double window_s = 600.0;
	uint64_t seed = test_seed("workload poisson_rate_steps", 10);
	uint64_t count[4] = { 0, 0, 0, 0 };
	struct scenario sc;
	struct workload w;
	struct request_draw r;
	int rc;

	make_scenario(&sc, seed, rate[0], 4 * window_s, SERVICE_CONSTANT, 0.01, 0.0);
	for (int i = 1; i < 4; i++)
		add_step(&sc, i * window_s, rate[i]);
	ck_assert_int_eq(workload_init(&w, &sc, NULL), STATUS_OK);
	while ((rc = workload_next(&w, &r, NULL)) == STATUS_OK) {
		int k = (int)(r.arrival_us / llround(window_s * (double)SIM_US_PER_S));
		count[k < 4 ? k : 3]++;  /* an arrival at exactly the horizon belongs to the last window */
	}
	ck_assert_int_eq(rc, STATUS_DONE);
	workload_fini(&w);
	for (int i = 0; i < 4; i++) {
		double expect = rate[i] * window_s;
		char what[64];

		snprintf(what, sizeof what, "arrivals in window %d (%g/s)", i, rate[i]);
		assert_within((double)count[i], expect, NSE * sqrt(expect), what);
	}
	/* Rates 100 and 10 differ tenfold: 4 sd must tell them apart. */
	ck_assert(NSE * sqrt(100.0 * window_s) < 0.5 * 100.0 * window_s);
}
END_TEST

/* A last step to rate 0 ends the arrivals: STATUS_DONE, not a loop, although the horizon is far off. */
START_TEST(zero_rate_last_step_ends_arrivals)
{
	struct scenario sc;
	struct workload w;
	struct request_draw r;
	int64_t last = -1;
	int rc;

	make_scenario(&sc, 12, 10.0, 1000.0, SERVICE_CONSTANT, 0.01, 0.0);
	add_step(&sc, 5.0, 0.0);
	ck_assert_int_eq(workload_init(&w, &sc, NULL), STATUS_OK);
	while ((rc = workload_next(&w, &r, NULL)) == STATUS_OK)
		last = r.arrival_us;
	ck_assert_int_eq(rc, STATUS_DONE);
	ck_assert_int_ge(last, 0);
	ck_assert_int_le(last, 5 * SIM_US_PER_S);
	ck_assert_int_eq(workload_next(&w, &r, NULL), STATUS_DONE);
	workload_fini(&w);
}
END_TEST

/*
 * Uniform arrivals are evenly spaced at 1/rate, exactly to the microsecond: 8/s for 10 s is 80 arrivals at
 * k x 125000 us, the last one exactly at the horizon (which is still in: "no arrivals after this").
 */
START_TEST(uniform_arrivals_evenly_spaced)
{
	struct scenario sc;
	struct workload w;
	struct request_draw r;
	int64_t k = 0;
	int rc;

	make_scenario(&sc, 13, 8.0, 10.0, SERVICE_CONSTANT, 0.01, 0.0);
	sc.arrivals.kind = ARRIVAL_UNIFORM;
	ck_assert_int_eq(workload_init(&w, &sc, NULL), STATUS_OK);
	while ((rc = workload_next(&w, &r, NULL)) == STATUS_OK) {
		k++;
		ck_assert_int_eq(r.arrival_us, k * 125000);
	}
	ck_assert_int_eq(rc, STATUS_DONE);
	ck_assert_int_eq(k, 80);
	workload_fini(&w);
}
END_TEST

/* Uniform arrivals across a step: 10/s up to 1 s (0.1, ..., 1.0 s), then 20/s (1.05, 1.10, ... 2.0 s). */
START_TEST(uniform_arrivals_follow_steps)
{
	struct scenario sc;
	struct workload w;
	struct request_draw r;
	int k = 0;
	int rc;

	make_scenario(&sc, 14, 10.0, 2.0, SERVICE_CONSTANT, 0.01, 0.0);
	sc.arrivals.kind = ARRIVAL_UNIFORM;
	add_step(&sc, 1.0, 20.0);
	ck_assert_int_eq(workload_init(&w, &sc, NULL), STATUS_OK);
	while ((rc = workload_next(&w, &r, NULL)) == STATUS_OK) {
		int64_t want = k < 10 ? (k + 1) * 100000 : 1000000 + (k - 9) * 50000;
		ck_assert_int_eq(r.arrival_us, want);
		k++;
	}
	ck_assert_int_eq(rc, STATUS_DONE);
	ck_assert_int_eq(k, 30);
	workload_fini(&w);
}
END_TEST

/* Draw up to max requests into out; returns how many (the stream ended, or max was reached). */
static size_t draw_all(const struct scenario *sc, struct request_draw *out, size_t max)
{
	struct workload w;
	size_t n = 0;

	ck_assert_int_eq(workload_init(&w, sc, NULL), STATUS_OK);
	while (n < max && workload_next(&w, &out[n], NULL) == STATUS_OK)
		n++;
	workload_fini(&w);
	return n;
}

#define SEQ_MAX 20000  /* requests compared between runs */

START_TEST(same_seed_same_requests)
{
	struct request_draw *a = malloc(SEQ_MAX * sizeof *a), *b = malloc(SEQ_MAX * sizeof *b);
	struct scenario sc;
	size_t na, nb;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	make_scenario(&sc, 77, 100.0, 60.0, SERVICE_LOGNORMAL, 0.3, 1.5);
	na = draw_all(&sc, a, SEQ_MAX);
	nb = draw_all(&sc, b, SEQ_MAX);
	ck_assert_uint_lt(na, SEQ_MAX);  /* both ran to STATUS_DONE */
	ck_assert_uint_eq(na, nb);
	for (size_t i = 0; i < na; i++) {
		ck_assert_int_eq(a[i].arrival_us, b[i].arrival_us);
		ck_assert_int_eq(a[i].service_us, b[i].service_us);
	}

	/* Another seed: other arrivals and other service times. */
	sc.seed = 78;
	nb = draw_all(&sc, b, SEQ_MAX);
	ck_assert_uint_gt(nb, 10);
	ck_assert_int_ne(a[0].arrival_us, b[0].arrival_us);
	ck_assert(a[0].service_us != b[0].service_us || a[1].service_us != b[1].service_us);
	free(a);
	free(b);
}
END_TEST

/*
 * Named streams: the service distribution does not touch the arrival times, and the arrival rate does not
 * touch the i-th service time.
 */
START_TEST(streams_are_independent)
{
	static const struct {
		enum service_kind kind;
		double mean_s, cv;
	} svc[] = {
		{ SERVICE_EXPONENTIAL, 0.1, 1.0 },
		{ SERVICE_LOGNORMAL, 0.1, 0.5 },
		{ SERVICE_LOGNORMAL, 2.0, 2.0 },
		{ SERVICE_CONSTANT, 5.0, 0.0 },
	};
	struct request_draw *base = malloc(SEQ_MAX * sizeof *base), *other = malloc(SEQ_MAX * sizeof *other);
	struct scenario sc;
	size_t nbase, n;

	ck_assert_ptr_nonnull(base);
	ck_assert_ptr_nonnull(other);
	make_scenario(&sc, 2024, 100.0, 100.0, SERVICE_CONSTANT, 0.1, 0.0);
	nbase = draw_all(&sc, base, SEQ_MAX);
	ck_assert_uint_lt(nbase, SEQ_MAX);
	for (size_t k = 0; k < sizeof svc / sizeof svc[0]; k++) {
		make_scenario(&sc, 2024, 100.0, 100.0, svc[k].kind, svc[k].mean_s, svc[k].cv);
		n = draw_all(&sc, other, SEQ_MAX);
		ck_assert_uint_eq(n, nbase);
		for (size_t i = 0; i < n; i++)
			ck_assert_int_eq(other[i].arrival_us, base[i].arrival_us);
	}

	/* Same service, a different rate: the i-th service time is unchanged. */
	make_scenario(&sc, 2024, 100.0, 100.0, SERVICE_LOGNORMAL, 0.1, 0.5);
	nbase = draw_all(&sc, base, SEQ_MAX);
	make_scenario(&sc, 2024, 37.0, 100.0, SERVICE_LOGNORMAL, 0.1, 0.5);
	n = draw_all(&sc, other, SEQ_MAX);
	ck_assert_uint_lt(n, nbase);
	ck_assert_uint_gt(n, 1000);
	ck_assert_int_ne(other[0].arrival_us, base[0].arrival_us);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(other[i].service_us, base[i].service_us);
	free(base);
	free(other);
}
END_TEST

/* Service times round to whole microseconds and are at least 1 us, even when the draw is smaller. */
START_TEST(service_at_least_one_us)
{
	static const struct {
		enum service_kind kind;
		double mean_s, cv;
	} svc[] = {
		{ SERVICE_CONSTANT, 1e-7, 0.0 },     /* 0.1 us: rounds to 0 */
		{ SERVICE_EXPONENTIAL, 1e-6, 1.0 },  /* 39% of draws are below 0.5 us */
		{ SERVICE_LOGNORMAL, 1e-6, 2.0 },
	};
	struct request_draw *r = malloc(SEQ_MAX * sizeof *r);
	struct scenario sc;

	ck_assert_ptr_nonnull(r);
	for (size_t k = 0; k < sizeof svc / sizeof svc[0]; k++) {
		size_t n, ones = 0;

		make_scenario(&sc, 31, 1000.0, 10.0, svc[k].kind, svc[k].mean_s, svc[k].cv);
		n = draw_all(&sc, r, SEQ_MAX);
		ck_assert_uint_gt(n, 1000);
		for (size_t i = 0; i < n; i++) {
			ck_assert_int_ge(r[i].service_us, 1);
			ones += r[i].service_us == 1;
		}
		ck_assert_uint_gt(ones, 0);  /* the clamp was exercised */
	}
	free(r);
}
END_TEST

/*
 * A trace written in batches (tests/data/traces/batches.csv: 12 rows at 0, 0, 0, 1.5, 1.5, 2, 4, 4, 4, 4,
 * 6 and 7.25 s), transformed as `extra` says (YAML keys of workload.arrivals), drawn to the end into t[]
 * (microseconds; at most max); returns how many. Fails the test if any arrival comes before the one
 * before it: time never runs backwards.
 */
static int batches(const char *test, uint64_t fallback, const char *extra, const char *horizon, int64_t *t,
		   int max)
{
	uint64_t seed = test_seed(test, fallback);
	char text[1024], *path;
	struct scenario sc;
	struct workload w;
	struct request_draw r;
	struct diag d = {{0}};
	int n = 0, rc;

	snprintf(text, sizeof text,
		 "name: batches\nseed: %llu\nhorizon: %s\nsample_period: 1s\nslo: {latency_s: 20}\n"
		 "workload:\n  arrivals: {kind: trace, path: %s/traces/batches.csv, format: generic,\n"
		 "    columns: {time: time_s, time_format: seconds, service_s: service_s}, %s}\n"
		 "  service: {kind: trace}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 4}\n"
		 "fleet:\n  - {option: reserved, count: 2, scope: zonal}\n",
		 (unsigned long long)seed, horizon, TEST_DATA_DIR, extra);
	path = test_write_file("batches.yaml", text);
	ck_assert_msg(scenario_load(&sc, path, NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(workload_init(&w, &sc, &d), STATUS_OK);
	while ((rc = workload_next(&w, &r, &d)) == STATUS_OK) {
		ck_assert_int_lt(n, max);
		ck_assert_msg(n == 0 || r.arrival_us >= t[n - 1], "%s: arrival %d at %lld us comes before the one "
			      "before it (%lld us)", extra, n, (long long)r.arrival_us, (long long)t[n - 1]);
		t[n++] = r.arrival_us;
	}
	ck_assert_int_eq(rc, STATUS_DONE);
	workload_fini(&w);
	scenario_fini(&sc);
	test_remove_file(path);
	return n;
}

/*
 * A trace's hash ids reach each request_draw, also through a transform's one-row look-ahead (scale_rate 2:
 * every row twice, the copy before the next row): rows are told apart by their prompt tokens (10, 20, 30,
 * 40), and each draw must carry its row's ids. Without a hash column a draw has none (NULL, 0).
 */
START_TEST(hash_ids_reach_the_request)
{
	static const uint64_t ids[4][3] = { { 7, 8, 0 }, { 7, 9, 11 }, { 0 }, { 7, 8, 12 } };
	static const int32_t nids[4] = { 2, 3, 0, 3 };
	char *trace = test_write_file("h.jsonl",
		"{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 1, \"hash_ids\": [7, 8]}\n"
		"{\"timestamp\": 1000, \"input_length\": 20, \"output_length\": 1, \"hash_ids\": [7, 9, 11]}\n"
		"{\"timestamp\": 1000, \"input_length\": 30, \"output_length\": 1, \"hash_ids\": []}\n"
		"{\"timestamp\": 2500, \"input_length\": 40, \"output_length\": 1, \"hash_ids\": [7, 8, 12]}\n");
	const char *const extra[] = { "format: mooncake", "format: mooncake, scale_rate: 2",
		"format: jsonl, columns: {time: timestamp, time_format: milliseconds, input_tokens: input_length}" };
	const int want[] = { 4, 8, 4 };

	ck_assert_ptr_nonnull(trace);
	for (int k = 0; k < 3; k++) {
		char text[1024], *path;
		struct scenario sc;
		struct workload w;
		struct request_draw r;
		struct diag d = {{0}};
		int n = 0, rc;

		snprintf(text, sizeof text, "name: h\nhorizon: 1m\nslo: {latency_s: 20}\nworkload:\n"
			 "  arrivals: {kind: trace, path: %s, %s}\n  service: {kind: constant, mean_s: 1}\n"
			 "serving: {instance_type: p5.48xlarge, slots_per_instance: 4}\n"
			 "fleet:\n  - {option: reserved, count: 2, scope: zonal}\n", trace, extra[k]);
		path = test_write_file("h.yaml", text);
		ck_assert_msg(scenario_load(&sc, path, NULL, 0, &d) == STATUS_OK, "%s", d.msg);
		ck_assert_int_eq(workload_init(&w, &sc, &d), STATUS_OK);
		while ((rc = workload_next(&w, &r, &d)) == STATUS_OK) {
			int row = r.in_tokens / 10 - 1;

			ck_assert(row >= 0 && row < 4);
			n++;
			if (k == 2) {
				ck_assert(r.hashes == NULL && r.nhashes == 0);
				continue;
			}
			ck_assert_msg(r.nhashes == nids[row], "%s: row %d: %d ids", extra[k], row, r.nhashes);
			for (int i = 0; i < r.nhashes; i++)
				ck_assert_msg(r.hashes[i] == ids[row][i], "%s: row %d id %d", extra[k], row, i);
		}
		ck_assert_int_eq(rc, STATUS_DONE);
		ck_assert_int_eq(n, want[k]);
		workload_fini(&w);
		scenario_fini(&sc);
		test_remove_file(path);
	}
	test_remove_file(trace);
}
END_TEST

/* Arrivals in [lo_s, hi_s), or exactly at lo_s when hi_s == lo_s. */
static int between(const int64_t *t, int n, double lo_s, double hi_s)
{
	int64_t lo = llround(lo_s * SIM_US_PER_S), hi = llround(hi_s * SIM_US_PER_S);
	int k = 0;

	for (int i = 0; i < n; i++)
		k += hi == lo ? t[i] == lo : t[i] >= lo && t[i] < hi;
	return k;
}

/*
 * scale_rate 2 on a trace with equal timestamps: each row comes exactly twice (floor(2) = 2, frac 0), the
 * copy at t + floor(u x gap) with gap the time to the next row, so before it. A row followed by a row at
 * the same time has gap 0: its copy is at t itself. By hand, rows (and copies) per interval:
 *   [0, 1.5)    rows 1-3 at 0, + 3 copies  = 6, of which exactly at 0: rows 1-3 + copies of rows 1, 2 >= 5
 *   [1.5, 2)    rows 4, 5     + 2 copies  = 4, exactly at 1.5: rows 4, 5 + copy of row 4 >= 3
 *   [2, 4)      row 6         + 1 copy    = 2
 *   [4, 6)      rows 7-10     + 4 copies  = 8, exactly at 4: rows 7-10 + copies of rows 7-9 >= 7
 *   [6, 7.25)   row 11        + 1 copy    = 2
 *   [7.25, 8.25) row 12 (the last: gap 1 s) + 1 copy = 2;  24 in all.
 * The old rule spread the copy of a row tied with the next over a default 1 s, after rows it precedes
 * (a copy at 0.59 s, then a row at 0 s): batches() fails on that.
 */
START_TEST(scale_rate_keeps_ties_in_time_order)
{
	int64_t t[64];
	int n = batches("workload scale_rate_keeps_ties_in_time_order", 3, "scale_rate: 2", "20s", t, 64);

	ck_assert_int_eq(n, 24);
	ck_assert_int_eq(between(t, n, 0, 1.5), 6);
	ck_assert_int_ge(between(t, n, 0, 0), 5);
	ck_assert_int_eq(between(t, n, 1.5, 2), 4);
	ck_assert_int_ge(between(t, n, 1.5, 1.5), 3);
	ck_assert_int_eq(between(t, n, 2, 4), 2);
	ck_assert_int_eq(between(t, n, 4, 6), 8);
	ck_assert_int_ge(between(t, n, 4, 4), 7);
	ck_assert_int_eq(between(t, n, 6, 7.25), 2);
	ck_assert_int_eq(between(t, n, 7.25, 8.25), 2);
}
END_TEST

/*
 * scale_rate 3.5: each row comes 3 or 4 times (floor 3, once more with probability 0.5), all before the
 * next row, so an interval holding k rows holds 3k to 4k arrivals: [0, 1.5) 9-12, [1.5, 2) 6-8, [2, 4)
 * 3-4, [4, 6) 12-16, [6, 7.25) 3-4, [7.25, 8.25) 3-4; 36 to 48 in all. Exactly at 0: rows 1-3 and every
 * copy of rows 1 and 2, at least 3 + 2 x 2 = 7.
 */
START_TEST(scale_rate_fraction_keeps_ties_in_time_order)
{
	int64_t t[64];
	int n = batches("workload scale_rate_fraction_keeps_ties_in_time_order", 4, "scale_rate: 3.5", "20s",
			t, 64);
	static const double lo_s[] = { 0, 1.5, 2, 4, 6, 7.25 }, hi_s[] = { 1.5, 2, 4, 6, 7.25, 8.25 };
	static const int rows[] = { 3, 2, 1, 4, 1, 1 };

	ck_assert_int_ge(n, 36);
	ck_assert_int_le(n, 48);
	for (int i = 0; i < 6; i++) {
		int k = between(t, n, lo_s[i], hi_s[i]);
		ck_assert_msg(k >= 3 * rows[i] && k <= 4 * rows[i], "[%g, %g): %d arrivals, expected %d to %d",
			      lo_s[i], hi_s[i], k, 3 * rows[i], 4 * rows[i]);
	}
	ck_assert_int_ge(between(t, n, 0, 0), 7);
}
END_TEST

/*
 * Every other transform with the batches, alone and together, never runs backwards (batches() checks each
 * arrival against the one before), with ties at every pass of a loop and after speedup's rounding. Thinning
 * (scale_rate 0.6) only drops rows: 12 at most, each kept one at its row's own time.
 */
START_TEST(transforms_never_run_backwards)
{
	static const char *const extras[] = {
		"scale_rate: 0.6", "speedup: 3", "offset: 1s", "growth_per_day: 10", "loop: true",
		"scale_rate: 3.5, speedup: 2, loop: true, offset: 1s, growth_per_day: 10",
		"scale_rate: 0.6, speedup: 0.5, loop: true",
	};
	static int64_t t[4096];
	int n;

	for (size_t i = 0; i < sizeof extras / sizeof extras[0]; i++)
		ck_assert_int_gt(batches("workload transforms_never_run_backwards", 5, extras[i], "60s", t, 4096), 0);
	n = batches("workload transforms_never_run_backwards", 5, "scale_rate: 0.6", "60s", t, 4096);
	ck_assert_int_le(n, 12);
	for (int i = 0; i < n; i++)
		ck_assert(t[i] == 0 || t[i] == 1500000 || t[i] == 2000000 || t[i] == 4000000 || t[i] == 6000000 ||
			  t[i] == 7250000);
}
END_TEST

static Suite *workload_suite(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("core");
	TCase *slow;

	tcase_add_test(tc, poisson_count_within_4_sd);
	tcase_add_test(tc, interarrival_mean_and_cv);
	tcase_add_test(tc, service_constant_is_exact);
	tcase_add_test(tc, service_exponential_mean_and_cv);
	tcase_add_test(tc, service_lognormal_cv_half);
	tcase_add_test(tc, arrivals_ordered_within_horizon);
	tcase_add_test(tc, short_horizon_is_done_at_once);
	tcase_add_test(tc, poisson_rate_steps);
	tcase_add_test(tc, zero_rate_last_step_ends_arrivals);
	tcase_add_test(tc, uniform_arrivals_evenly_spaced);
	tcase_add_test(tc, uniform_arrivals_follow_steps);
	tcase_add_test(tc, same_seed_same_requests);
	tcase_add_test(tc, streams_are_independent);
	tcase_add_test(tc, service_at_least_one_us);
	tcase_add_test(tc, scale_rate_keeps_ties_in_time_order);
	tcase_add_test(tc, scale_rate_fraction_keeps_ties_in_time_order);
	tcase_add_test(tc, transforms_never_run_backwards);
	tcase_add_test(tc, hash_ids_reach_the_request);
	suite_add_tcase(s, tc);

	/* 4 million draws: about 0.5 s plain, several times that under sanitizers; Check's default is 4 s. */
	slow = tcase_create("large_sample");
	tcase_set_timeout(slow, 60);
	tcase_add_test(slow, service_lognormal_cv_two);
	suite_add_tcase(s, slow);
	return s;
}

int main(void)
{
	return test_run_suite(workload_suite());
}
