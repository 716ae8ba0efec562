/*
 * check_world_slo: the meters of issue 12 on whole runs: the violation floor against the lognormal tail, the
 * violation split, the warm-up against a cold start, percentile SLOs over UTC windows on a hand-built trace,
 * the measured cost and GPU-hours, the split of commitments after the horizon, and count: auto.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "capture.h"
#include "testutil.h"

static struct capture cap;

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/*
 * A lognormal service time, mean 1 s and cv 1, against slo.latency_s 3 s, with capacity to spare (20
 * reserved instances of 1 slot for an offered load of 10 busy slots... and waits are then rare but not
 * impossible; the floor does not depend on them). Parameters of ln X: sigma^2 = ln(1 + cv^2) = ln 2,
 * mu = ln(mean) - sigma^2 / 2 = -ln(2) / 2; P(X > 3) = gsl_cdf_lognormal_Q(3, mu, sigma) = 0.0413 (z = (ln 3 -
 * mu) / sigma = 1.736). Over 2 h at 10/s, N ~ 72 000 requests; the floor is a binomial share, standard error
 * sqrt(p (1 - p) / N) ~ 0.00074; the test allows 4 standard errors (computed from the run's own N).
 */
static const char lognormal[] =
	"name: floor\nseed: 11\nhorizon: 2h\nslo: {latency_s: 3s}\n"
	"workload:\n  arrivals: {kind: poisson, rate_per_s: 10}\n  service: {kind: lognormal, mean_s: 1, cv: 1}\n"
	"serving: {queue: central, routing: first_free, instance_type: g5.xlarge, slots_per_instance: 1}\n"
	"fleet:\n  - {option: reserved, count: 20, scope: zonal}\n";

START_TEST(floor_is_the_lognormal_tail)
{
	double sigma = sqrt(log(2.0)), mu = -log(2.0) / 2, p = gsl_cdf_lognormal_Q(3.0, mu, sigma), n, se;

	capture_run(&cap, lognormal, NULL, 0);
	n = M("requests_total");
	se = sqrt(p * (1 - p) / n);
	ck_assert_double_eq_tol(p, 0.0413, 0.0005);  /* the hand value above */
	ck_assert_msg(fabs(M("slo_violation_rate_floor") - p) < 4 * se, "floor %g, tail %g, 4 SE %g",
		      M("slo_violation_rate_floor"), p, 4 * se);
	/* nothing dropped: every request over the floor was served over the threshold */
	ck_assert_double_eq(M("slo_violations_dropped"), 0);
	ck_assert_double_eq_tol(M("slo_violations_service"), M("slo_violation_rate_floor") * n, 1e-6);
}
END_TEST

/* service + wait + dropped = slo_violations exactly, dropped = requests_dropped, and the served part of the
 * floor is the service part; in scenarios that drop in each way. */
static void assert_split(void)
{
	double total = M("requests_total"), floor_n = M("slo_violation_rate_floor") * total;

	ck_assert_double_eq(M("slo_violations_service") + M("slo_violations_slowed") + M("slo_violations_wait") +
			    M("slo_violations_dropped"), M("slo_violations"));
	ck_assert_double_eq(M("slo_violations_dropped"), M("requests_dropped"));
	ck_assert(M("slo_violations_service") <= floor_n + 1e-6);
	ck_assert(M("slo_violation_rate_floor") <= M("slo_violation_rate"));
}

/* Too few instances for 10/s x 1 s (8 slots): waits, timeouts after 5 s, refusals past 50 waiting. */
static const char overloaded[] =
	"name: split\nseed: 5\nhorizon: 2h\nslo: {latency_s: 2s}\n"
	"workload:\n  arrivals: {kind: poisson, rate_per_s: 10}\n  service: {kind: lognormal, mean_s: 1, cv: 1}\n"
	"serving: {queue: central, routing: first_free, instance_type: g5.xlarge, slots_per_instance: 4, queue_timeout_s: 5, max_queue: 50}\n"
	"fleet:\n  - {option: reserved, count: 1, scope: zonal}\n  - {option: on_demand, count: 1}\n";

START_TEST(split_adds_up_with_timeouts_and_refusals)
{
	capture_run(&cap, overloaded, NULL, 0);
	assert_split();
	ck_assert(M("requests_timed_out") > 0);
	ck_assert(M("requests_refused") > 0);
	ck_assert(M("slo_violations_wait") > 0);
	ck_assert(M("slo_violations_service") > 0);
}
END_TEST

START_TEST(split_adds_up_with_a_warmup)
{
	/* the first hour not measured: about half the requests (10/s x 3600 s ~ 36 000 of 72 000) */
	const char *sets[] = { "warmup=1h" };

	capture_run(&cap, overloaded, sets, 1);
	assert_split();
	ck_assert_double_eq_tol(M("requests_total"), 36000, 4 * sqrt(36000.0));
	ck_assert_double_eq(M("warmup_s"), 3600);
	ck_assert_double_eq(M("measured_s"), 3600);
}
END_TEST

START_TEST(split_adds_up_with_interruptions)
{
	/* Spot instances interrupted often with a 1 s notice, their long requests dropped */
	capture_run(&cap,
		    "name: spot\nseed: 9\nhorizon: 6h\nslo: {latency_s: 60s}\n"
		    "workload:\n  arrivals: {kind: poisson, rate_per_s: 0.4}\n  service: {kind: exponential, mean_s: 30}\n"
		    "serving: {queue: central, routing: first_free, instance_type: g5.xlarge, slots_per_instance: 4, on_interrupt: drop, startup_s: 60}\n"
		    "autoscaling: {policy: target_tracking, target: 0.6, max: 10}\n"
		    "fleet:\n  - {option: spot, count: 3, max: 10, interruptions_per_hour: 2, notice_s: 1}\n", NULL, 0);
	assert_split();
	ck_assert(M("requests_interrupted_dropped") > 0);
}
END_TEST

/*
 * Warm-up against a cold start: 4/s x 1 s on 1-slot instances, target tracking at 0.7 from a single
 * instance (launches take 600 s), so the first hour queues. The steady state is a 7-day run measured after
 * its first day. A 1-day run measured after a 6 h warm-up agrees with it within 15% on the violation rate
 * and 5% on the mean latency; the same day measured from t = 0 does not (it has about twice the violation
 * rate and several times the mean latency, the cold-start bias). 15% is ~6 binomial standard errors of the
 * 1-day rate (~0.0075 over ~260 000 requests: SE 0.00017), wide because waits are correlated within a
 * busy period; observed: warm 0.0075, steady 0.0074, cold 0.0173 (seed 3).
 */
static const char cold[] =
	"name: cold\nseed: 3\nhorizon: 1d\nslo: {latency_s: 5s}\n"
	"workload:\n  arrivals: {kind: poisson, rate_per_s: 4}\n  service: {kind: exponential, mean_s: 1}\n"
	"serving: {queue: central, routing: first_free, instance_type: g5.xlarge, slots_per_instance: 1, startup_s: 600}\n"
	"autoscaling: {policy: target_tracking, metric: concurrency_per_instance, target: 0.7, max: 40}\n"
	"fleet:\n  - {option: on_demand, count: 1}\n";

START_TEST(warmup_removes_the_cold_start)
{
	const char *steady_sets[] = { "horizon=7d", "warmup=1d" }, *warm_sets[] = { "warmup=6h" };
	double steady_rate, steady_latency;

	capture_run(&cap, cold, steady_sets, 2);
	steady_rate = M("slo_violation_rate");
	steady_latency = M("latency_mean_s");
	capture_run(&cap, cold, warm_sets, 1);
	ck_assert_msg(fabs(M("slo_violation_rate") / steady_rate - 1) < 0.15, "warm %g, steady %g",
		      M("slo_violation_rate"), steady_rate);
	ck_assert_msg(fabs(M("latency_mean_s") / steady_latency - 1) < 0.05, "warm %g, steady %g",
		      M("latency_mean_s"), steady_latency);
	capture_run(&cap, cold, NULL, 0);
	ck_assert_msg(M("slo_violation_rate") / steady_rate - 1 > 0.5, "cold %g, steady %g",
		      M("slo_violation_rate"), steady_rate);
	ck_assert_msg(M("latency_mean_s") / steady_latency - 1 > 0.5, "cold %g, steady %g",
		      M("latency_mean_s"), steady_latency);
}
END_TEST

/*
 * Windowed percentile SLOs on tests/data/traces/slo_windows.csv, a hand-built trace: the run starts at
 * 00:30 UTC and lasts 4 h, so 1 h windows aligned to the clock are [00:30, 01:00) (partial), [01, 02),
 * [02, 03), [03, 04) and [04:00, 04:30) (partial): slo_windows = 5. One request a minute, each served at once
 * (10 instances of 1 slot, at most one request in service at a time), so latency = service time and each
 * request ends in the window it arrived in. slo.latency_p90_s = 5 s; the p90 of n values is the
 * ceil(0.9 n)-th smallest:
 *   00:30  10 x 1 s            p90 = 1 s                      met
 *   01:00  8 x 1 s, 2 x 10 s   9th smallest = 10 s, ratio 2   BREACHED
 *   02:00  9 x 1 s, 1 x 20 s   9th smallest = 1 s             met (the max alone does not breach a p90)
 *   03:00  10 x 6 s            p90 = 6 s, ratio 1.2           BREACHED
 *   04:00  5 x 1 s             p90 = 1 s                      met
 * So 2 breached of 5 (fraction 0.4), the worst is the 01:00 window (starts 1800 s after the run) with
 * ratio 10 / 5 = 2 (the histogram's 1% accuracy: tolerance 0.02), and slo_met = 0. Over the whole run the
 * 45 values hold 32 of 1 s: the 41st smallest (ceil(0.9 x 45)) is 6 s > 5 s, breached too.
 */
static const char windows_yaml[] =
	"name: windows\nstart: 2026-01-01T00:30:00Z\nhorizon: 4h\n"
	"slo: {latency_s: 100s, latency_p90_s: 5s, window: 1h}\n"
	"workload:\n  arrivals: {kind: trace, format: generic, path: " TEST_DATA_DIR "/traces/slo_windows.csv,\n"
	"    columns: {time: t, time_format: seconds, service_s: svc}}\n  service: {kind: trace}\n"
	"serving: {queue: central, routing: first_free, instance_type: g5.xlarge, slots_per_instance: 1}\n"
	"fleet:\n  - {option: reserved, count: 10, scope: zonal}\n";

START_TEST(windowed_percentiles_from_a_trace)
{
	capture_run(&cap, windows_yaml, NULL, 0);
	ck_assert_double_eq(M("requests_total"), 45);
	ck_assert_double_eq(M("slo_windows"), 5);
	ck_assert_double_eq(M("slo_windows_breached"), 2);
	ck_assert_double_eq_tol(M("slo_windows_breached_fraction"), 0.4, 1e-12);
	ck_assert_double_eq_tol(M("slo_worst_window_ratio"), 2.0, 0.02);
	ck_assert_double_eq(M("slo_worst_window_start_s"), 1800);
	ck_assert_double_eq(M("slo_met"), 0);
}
END_TEST

/*
 * The hourly series (always kept, analysis/README.md "Reports") on the same trace with slo.latency_s = 5 s: clock hours
 * start at -1800 s (00:00 UTC, the run starts at 00:30), 1800, 5400, 9000 and 12600 s. A request is in the
 * hour it ends in; the q-quantile of n values is about the ceil(q n)-th smallest (the histogram's 1%: tol 2%):
 *   -1800  10 x 1 s            10 requests, 0 violations, p50 1, p95 (10th) 1,  p99 1
 *    1800  8 x 1 s, 2 x 10 s   10 requests, 2 violations, p50 (5th) 1, p95 (10th) 10, p99 10
 *    5400  9 x 1 s, 1 x 20 s   10 requests, 1 violation,  p50 1, p95 20, p99 20
 *    9000  10 x 6 s            10 requests, 10 violations, p50 6, p95 6, p99 6
 *   12600  5 x 1 s              5 requests, 0 violations, p50 1, p95 1, p99 1
 * The violations sum to the run's 13 (max_violation_rate_per_window above).
 */
START_TEST(hourly_latency_rows)
{
	static const double start[5] = { -1800, 1800, 5400, 9000, 12600 };
	static const double req[5] = { 10, 10, 10, 10, 5 }, viol[5] = { 0, 2, 1, 10, 0 };
	static const double p50[5] = { 1, 1, 1, 6, 1 }, p95[5] = { 1, 10, 20, 6, 1 };
	const char *sets[] = { "slo.latency_s=5s" };

	capture_run(&cap, windows_yaml, sets, 1);
	ck_assert_int_eq(cap.nhours, 5);
	for (int h = 0; h < 5; h++) {
		const struct sink_hour *r = &cap.hours[h];
		ck_assert_double_eq(r->hour_start_s, start[h]);
		ck_assert_double_eq((double)r->requests, req[h]);
		ck_assert_double_eq((double)r->violations, viol[h]);
		ck_assert_double_eq_tol(r->latency_p50_s, p50[h], 0.02 * p50[h]);
		ck_assert_double_eq_tol(r->latency_p95_s, p95[h], 0.02 * p95[h]);
		ck_assert_double_eq_tol(r->latency_p99_s, p95[h], 0.02 * p95[h]);
	}
	ck_assert_double_eq(M("slo_violations"), 13);
}
END_TEST

START_TEST(windowed_percentiles_met_with_a_looser_slo)
{
	/* p90 at 12 s: the 01:00 window's 10 s and the 03:00 window's 6 s are within it; the whole run's 6 s
	 * too: nothing breached, slo_met = 1, the worst ratio is 10 / 12 in the 01:00 window */
	const char *sets[] = { "slo.latency_p90_s=12s" };

	capture_run(&cap, windows_yaml, sets, 1);
	ck_assert_double_eq(M("slo_windows_breached"), 0);
	ck_assert_double_eq(M("slo_met"), 1);
	ck_assert_double_eq_tol(M("slo_worst_window_ratio"), 10.0 / 12, 0.01);
	ck_assert_double_eq(M("slo_worst_window_start_s"), 1800);
}
END_TEST

START_TEST(max_violation_rate_per_window)
{
	/* latency_s 5 s: violations are the 2 x 10 s, the 20 s and the ten 6 s (13 of 45, 0.289). Allowing 0.25
	 * per window: 01:00 has 2/10 (met), 02:00 1/10 (met), 03:00 10/10 (breached): 1 of 5. Over the run
	 * 0.289 > 0.25: slo_met = 0; no percentile SLO, so no worst ratio. */
	const char *sets[] = { "slo.latency_s=5s", "slo.latency_p90_s=1d", "slo.max_violation_rate=0.25" };

	capture_run(&cap, windows_yaml, sets, 3);
	ck_assert_double_eq(M("slo_violations"), 13);
	ck_assert_double_eq(M("slo_windows_breached"), 1);
	ck_assert_double_eq(M("slo_met"), 0);
}
END_TEST

START_TEST(no_stated_slo_no_verdict)
{
	/* only latency_s: slo_met and the window metrics are NaN (nothing to pass or fail) */
	capture_run(&cap, lognormal, NULL, 0);
	ck_assert(isnan(capture_metric(&cap, "slo_met")));
	ck_assert(isnan(capture_metric(&cap, "slo_windows")));
}
END_TEST

/*
 * The measured cost of a fixed fleet: 2 reserved at $10/h and 1 on-demand at $20/h for 10 h, warm-up 4 h.
 * Measured: 6 h x (2 x 10 + 20) = $240, of $400 in all; paid GPU-hours 3 x 1 GPU x 6 h = 18 of 30.
 * Normalised: 240 / 6 = $40/h, x 720 = $28 800 a 30-day month, x 8760 = $350 400 a year.
 */
START_TEST(measured_cost_of_a_fixed_fleet)
{
	capture_run(&cap,
		    "name: measured\nhorizon: 10h\nwarmup: 4h\nslo: {latency_s: 5}\n"
		    "workload:\n  arrivals: {kind: poisson, rate_per_s: 1}\n  service: {kind: exponential, mean_s: 1}\n"
		    "serving: {queue: central, routing: first_free, instance_type: g5.xlarge, slots_per_instance: 2}\n"
		    "fleet:\n  - {option: reserved, count: 2, usd_per_h: 10, scope: zonal}\n"
		    "  - {option: on_demand, count: 1, usd_per_h: 20}\n", NULL, 0);
	ck_assert_double_eq_tol(M("cost_total_usd"), 400, 1e-6);
	ck_assert_double_eq_tol(M("cost_measured_usd"), 240, 1e-6);
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 30, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_paid_measured"), 18, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_idle_measured"),
				M("gpu_hours_paid_measured") - M("gpu_hours_busy_measured"), 1e-9);
	ck_assert(M("gpu_hours_busy_measured") < M("gpu_hours_busy"));
	ck_assert_double_eq_tol(M("cost_per_hour_usd"), 40, 1e-9);
	ck_assert_double_eq_tol(M("cost_per_month_usd"), 28800, 1e-6);
	ck_assert_double_eq_tol(M("cost_per_year_usd"), 350400, 1e-6);
}
END_TEST

/*
 * Commitments after the horizon, by option: a 1-year reserved instance (no upfront, $10/h) and a Savings
 * Plan of $5/h, both starting with the run, over 100 h: each still owes (8760 - 100) h; 8660 x 10 = 86 600 and
 * 8660 x 5 = 43 300, adding up to commitment_after_horizon_usd.
 */
START_TEST(commitment_after_horizon_by_option)
{
	capture_run(&cap,
		    "name: commit\nhorizon: 100h\nslo: {latency_s: 5}\n"
		    "workload:\n  arrivals: {kind: poisson, rate_per_s: 1}\n  service: {kind: exponential, mean_s: 1}\n"
		    "serving: {queue: central, routing: first_free, instance_type: g5.xlarge, slots_per_instance: 2}\n"
		    "fleet:\n  - {option: reserved, count: 1, usd_per_h: 10, term: 1y, payment: no_upfront, scope: zonal}\n"
		    "  - {option: on_demand, count: 1}\n"
		    "commitments:\n  - {option: savings_plan, commit_usd_per_h: 5}\n", NULL, 0);
	ck_assert_double_eq_tol(M("commitment_after_horizon_reserved_usd"), 86600, 1e-6);
	ck_assert_double_eq_tol(M("commitment_after_horizon_savings_plan_usd"), 43300, 1e-6);
	ck_assert_double_eq(M("commitment_after_horizon_capacity_block_usd"), 0);
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 86600 + 43300, 1e-6);
}
END_TEST

/*
 * count: auto. 10/s x 2 s = 20 busy slots; 4 slots an instance at a concurrency target of 0.7 needs
 * ceil(20 / (4 x 0.7)) = ceil(7.14) = 8 instances; 2 reserved are there already: the on-demand entry starts
 * with 6, warm, so the run begins at 8 with no launch in the first minutes.
 */
static const char auto_yaml[] =
	"name: auto\nhorizon: 1h\nslo: {latency_s: 10s}\n"
	"workload:\n  arrivals: {kind: poisson, rate_per_s: 10}\n  service: {kind: exponential, mean_s: 2}\n"
	"serving: {queue: central, routing: first_free, instance_type: g5.xlarge, slots_per_instance: 4}\n"
	"autoscaling: {policy: target_tracking, metric: concurrency_per_instance, target: 0.7, max: 20}\n"
	"fleet:\n  - {option: reserved, count: 2, scope: zonal}\n  - {option: on_demand, count: auto}\n";

START_TEST(count_auto_by_hand)
{
	capture_run(&cap, auto_yaml, NULL, 0);
	ck_assert_int_ge(cap.nevents, 1);
	ck_assert_double_eq(cap.events[0].t_s, 0);
	/* the instances at t = 0: 2 reserved + 6 on-demand (the start events give each entry's count) */
	int at_start = 0;
	for (int i = 0; i < cap.nevents && cap.events[i].t_s == 0; i++)
		if (strcmp(cap.events[i].kind, "start") == 0)
			at_start += cap.events[i].count;
	ck_assert_int_eq(at_start, 8);
}
END_TEST

START_TEST(count_auto_invocations)
{
	/* invocations_per_instance target 100 a minute: 60 x 10 / 100 = 6 instances, less 2 reserved = 4 */
	const char *sets[] = { "autoscaling.metric=invocations_per_instance", "autoscaling.target=100" };
	int at_start = 0;

	capture_run(&cap, auto_yaml, sets, 2);
	for (int i = 0; i < cap.nevents && cap.events[i].t_s == 0; i++)
		if (strcmp(cap.events[i].kind, "start") == 0)
			at_start += cap.events[i].count;
	ck_assert_int_eq(at_start, 6);
}
END_TEST

static Suite *world_slo_suite(void)
{
	Suite *s = suite_create("world_slo");
	TCase *tc = tcase_create("runs");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, floor_is_the_lognormal_tail);
	tcase_add_test(tc, split_adds_up_with_timeouts_and_refusals);
	tcase_add_test(tc, split_adds_up_with_a_warmup);
	tcase_add_test(tc, split_adds_up_with_interruptions);
	tcase_add_test(tc, warmup_removes_the_cold_start);
	tcase_add_test(tc, windowed_percentiles_from_a_trace);
	tcase_add_test(tc, hourly_latency_rows);
	tcase_add_test(tc, windowed_percentiles_met_with_a_looser_slo);
	tcase_add_test(tc, max_violation_rate_per_window);
	tcase_add_test(tc, no_stated_slo_no_verdict);
	tcase_add_test(tc, measured_cost_of_a_fixed_fleet);
	tcase_add_test(tc, commitment_after_horizon_by_option);
	tcase_add_test(tc, count_auto_by_hand);
	tcase_add_test(tc, count_auto_invocations);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(world_slo_suite());
}
