/*
 * check_jobs: training and batch jobs (models/jobs.h) in whole runs whose answers are worked out by hand:
 * the failure-free timeline and bill, the mean time and lost work under node failures and Spot
 * interruptions against their closed forms, the deadline-aware switch on a replayed availability trace,
 * the checkpoint at an interruption notice, the queue order.
 *
 * The jobs loader is not part of these tests: each one parses a base scenario, then fills sc.jobs and the
 * entries' use directly in C.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "engine.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

#define H 3.6e9  /* microseconds per hour */
#define S 1e6    /* microseconds per second */

static struct capture cap;
static struct world_report rep;

/* The knobs of sc.jobs a test sets (the rest: no failures, automatic recovery, no margin). */
struct knobs {
	enum job_policy policy;
	double failures_per_instance_h;
	bool recovery_none;
	double replacement_h;
	double restart_delay_h;
	double switch_margin_h;
	uint64_t seed;             /* 0: the scenario's */
	unsigned serving_entries;  /* bit i: fleet entry i stays a serving entry (default: every entry is jobs) */
};

/* A job of `instances` instances, work_h instance-hours, submitted at submit_h, with checkpoints every
 * interval_h costing cost_h and a restart overhead of restart_h (hours); no deadline, priority 0. */
static struct job_spec job(int instances, double work_h, double submit_h, double interval_h, double cost_h,
			   double restart_h)
{
	struct job_spec s = { .instances = instances, .work_h = work_h, .submit_us = llround(submit_h * H),
			      .deadline_us = INT64_MAX, .ckpt_interval_us = llround(interval_h * H),
			      .ckpt_cost_us = llround(cost_h * H), .restart_us = llround(restart_h * H) };
	static int row;
	snprintf(s.name, sizeof s.name, "job-%d", row++);
	return s;
}

/* Parse yaml, make it a jobs-only scenario with these jobs, run it into cap and rep; fails the test on any
 * error. */
static void run_jobs(const char *yaml, const struct job_spec *jobs, int n, const struct knobs *k)
{
	struct scenario sc;
	struct diag d;
	struct sink sink = capture_sink(&cap);
	int rc = scenario_parse_string(&sc, yaml, "test.yaml", NULL, 0, &d);

	ck_assert_msg(rc == STATUS_OK, "scenario: %s", d.msg);
	for (int i = 0; i < sc.nfleet; i++)
		sc.fleet[i].use = (k->serving_entries >> i) & 1 ? USE_SERVING : USE_JOBS;
	sc.no_traffic = k->serving_entries == 0;
	if (k->seed)
		sc.seed = k->seed;
	sc.jobs.policy = k->policy;
	sc.jobs.list = malloc(sizeof *sc.jobs.list * (size_t)n);
	ck_assert_ptr_nonnull(sc.jobs.list);
	memcpy(sc.jobs.list, jobs, sizeof *jobs * (size_t)n);
	sc.jobs.n = n;
	sc.jobs.failures_per_instance_h = k->failures_per_instance_h;
	sc.jobs.auto_resume = !k->recovery_none;
	sc.jobs.replacement_us = llround(k->replacement_h * H);
	sc.jobs.restart_delay_us = llround(k->restart_delay_h * H);
	sc.jobs.switch_margin_us = llround(k->switch_margin_h * H);
	sc.jobs.max_pending_us = 2 * 24 * (int64_t)H;
	rc = world_run(&sc, &sink, "test", &rep, &d);
	ck_assert_msg(rc == STATUS_OK, "run: %s", d.msg);
	ck_assert_int_eq(cap.end_status, STATUS_OK);
	scenario_fini(&sc);
}

/* The metric named name (it must be there; it may be NaN only if nan_ok). */
static double M(const char *name)
{
	for (int i = 0; i < rep.nmetrics; i++)
		if (strcmp(rep.metrics[i].name, name) == 0)
			return rep.metrics[i].value;
	ck_abort_msg("metric %s missing", name);
	return NAN;
}

/* The time of the i-th event of kind, in hours (it must exist). */
static double event_h(const char *kind, int i)
{
	const struct capture_event *e = capture_find(&cap, kind, i);

	ck_assert_msg(e != NULL, "no event %s #%d", kind, i);
	return e->t_s / 3600.0;
}

/* On-demand only, instant launches, $10 per instance-hour, g6.12xlarge (4 GPUs). */
static const char od_fleet[] =
	"name: jobs\nseed: 7\nhorizon: 24h\nslo: {latency_s: 5}\n"
	"workload:\n  arrivals: {kind: poisson, rate_per_s: 1}\n  service: {kind: exponential, mean_s: 1}\n"
	"serving: {instance_type: g6.12xlarge, slots_per_instance: 4, startup_s: 300}\n"
	"fleet:\n  - {option: on_demand, count: 1, max: 8, usd_per_h: 10, startup: {kind: constant, mean_s: 0}}\n";

/*
 * One job, nothing going wrong. 4 instances, 40 instance-hours: T = 40 / 4 = 10 h of compute. Submitted at
 * 1 h; launches at once and is ready at once (startup 0); restart overhead 0.25 h; a checkpoint every 3 h
 * costing 0.1 h, at progress 3, 6 and 9 h (ceil(10 / 3) - 1 = 3 of them; none at the end).
 * End = 1 + 0.25 + 10 + 3 x 0.1 = 11.55 h; completion = 11.55 - 1 = 10.55 h = 37980 s; wait 0.
 * Bill: 4 instances from 1 h to 11.55 h at $10: 4 x 10.55 x 10 = $422.00. Paid GPU-hours 4 x 4 x 10.55 =
 * 168.8, all held by the job: idle 0.
 */
START_TEST(failure_free_timeline_and_bill)
{
	struct job_spec j = job(4, 40, 1, 3, 0.1, 0.25);

	run_jobs(od_fleet, &j, 1, &(struct knobs){ .policy = JOB_POLICY_ON_DEMAND });
	ck_assert_double_eq(M("jobs_submitted"), 1);
	ck_assert_double_eq(M("jobs_completed"), 1);
	ck_assert_double_eq_tol(event_h("job_end", 0), 11.55, 1e-9);
	ck_assert_double_eq_tol(M("job_completion_p50_s"), 37980, 1e-6);
	ck_assert_double_eq_tol(M("job_completion_p99_s"), 37980, 1e-6);
	ck_assert_double_eq_tol(M("job_wait_mean_s"), 0, 1e-9);
	ck_assert_double_eq_tol(M("jobs_cost_on_demand_usd"), 422.00, 0.005);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 422.00, 0.005);
	ck_assert_double_eq_tol(M("jobs_gpu_hours_paid"), 168.8, 1e-6);
	ck_assert_double_eq_tol(M("jobs_gpu_hours_idle"), 0, 1e-6);
	ck_assert_double_eq(M("work_lost_instance_hours"), 0);
	ck_assert_double_eq(M("job_interruptions"), 0);
	ck_assert_double_eq(M("jobs_missed_deadline"), 0);
	/* no traffic: serving metrics are defined (0) or undefined (NaN), never garbage */
	ck_assert_double_eq(M("requests_total"), 0);
	ck_assert(isnan(M("latency_p50_s")));
}
END_TEST

static Suite *jobs_suite(void)
{
	Suite *s = suite_create("jobs");
	TCase *tc = tcase_create("runs");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, failure_free_timeline_and_bill);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(jobs_suite());
}
