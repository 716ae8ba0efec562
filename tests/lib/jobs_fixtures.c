/* jobs_fixtures: whole runs of jobs-only scenarios for the jobs suites (check_jobs.c, check_jobs_uniform.c):
 * see jobs_fixtures.h. */
#include "jobs_fixtures.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

struct capture cap;
struct world_report rep;
unsigned plan_entries;

/* A job of `instances` instances, work_h instance-hours, submitted at submit_h, with checkpoints every
 * interval_h costing cost_h and a restart overhead of restart_h (hours); no deadline, priority 0. */
struct job_spec job(int instances, double work_h, double submit_h, double interval_h, double cost_h,
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
void run_jobs(const char *yaml, const struct job_spec *jobs, int n, const struct knobs *k)
{
	struct scenario sc;
	struct diag d;
	struct sink sink = capture_sink(&cap);
	int rc = scenario_parse_string(&sc, yaml, "test.yaml", NULL, 0, &d);

	ck_assert_msg(rc == STATUS_OK, "scenario: %s", d.msg);
	/* (the masks have 32 bits: an entry past them, in a fleet of up to SCENARIO_FLEET_MAX, is a jobs entry
	 * of the option the YAML gives it) */
	for (int i = 0; i < sc.nfleet; i++)
		sc.fleet[i].use = i < 32 && (k->serving_entries >> i) & 1 ? USE_SERVING : USE_JOBS;
	for (int i = 0; i < sc.nfleet && i < 32; i++)  /* the same window and size as a training plan segment */
		if (plan_entries & (1u << i))
			sc.fleet[i].option = OPTION_TRAINING_PLAN;
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
	sc.jobs.managed_spot = k->managed_spot;
	rc = world_run(&sc, &sink, "test", &rep, &d);
	ck_assert_msg(rc == STATUS_OK, "run: %s", d.msg);
	ck_assert_int_eq(cap.end_status, STATUS_OK);
	scenario_fini(&sc);
}

/* The metric named name (it must be there; it may be NaN only if nan_ok). */
double M(const char *name)
{
	for (int i = 0; i < rep.nmetrics; i++)
		if (strcmp(rep.metrics[i].name, name) == 0)
			return rep.metrics[i].value;
	ck_abort_msg("metric %s missing", name);
	return NAN;
}

/* True if the run gave a warning of this code. */
bool warned(const char *code)
{
	for (int i = 0; i < rep.nwarnings; i++)
		if (strcmp(rep.warnings[i].code, code) == 0)
			return true;
	return false;
}

/* The option of the i-th event of kind (it must exist). */
const char *event_option(const char *kind, int i)
{
	const struct capture_event *e = capture_find(&cap, kind, i);

	ck_assert_msg(e != NULL, "no event %s #%d", kind, i);
	return e->option;
}

/* The time of the i-th event of kind, in hours (it must exist). */
double event_h(const char *kind, int i)
{
	const struct capture_event *e = capture_find(&cap, kind, i);

	ck_assert_msg(e != NULL, "no event %s #%d", kind, i);
	return e->t_s / 3600.0;
}

/* Spot at $1 on an availability trace (TRACE, under tests/data/spot) and On-Demand at $10, both instant:
 * entry 0 Spot, entry 1 On-Demand. */
void trace_fleet(char *buf, size_t size, const char *trace, int notice_s)
{
	snprintf(buf, size,
		 "name: jobs\nseed: 7\nhorizon: 24h\nslo: {latency_s: 5}\n"
		 "workload:\n  arrivals: {kind: poisson, rate_per_s: 1}\n  service: {kind: exponential, mean_s: 1}\n"
		 "serving: {instance_type: g6.12xlarge, slots_per_instance: 4, startup_s: 300}\n"
		 "catalog: {g6.12xlarge: {sells: [capacity_block, training_plan]}}  # (assumed)\n"
		 "fleet:\n  - {option: spot, count: 1, max: 8, usd_per_h: 1, notice_s: %d, "
		 "availability_trace: %s/spot/%s, startup: {kind: constant, mean_s: 0}}\n"
		 "  - {option: on_demand, max: 8, usd_per_h: 10, startup: {kind: constant, mean_s: 0}}\n",
		 notice_s, TEST_DATA_DIR, trace);
}
