/*
 * check_scenario_jobs: the jobs side of loading scenarios (models/load/scenario_jobs.c, scenario_jobfile.c): the
 * `jobs` section and its defaults, the CSV of jobs merged with the list and sorted, a fleet entry's `use`
 * and `serving_hours`, jobs-only scenarios without workload, and every error the jobs add, with its exact
 * message and position. Floating-point values are compared with TOL = 1e-9 (scenario_fixtures.h: parsed
 * values, or one product away from parsed).
 *
 * Every test here fails on the loader before the jobs: it refused `jobs` and `use` as unknown keys.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "scenario_fixtures.h"
#include "status.h"
#include "testutil.h"

#define H_US (3600 * S_US)

/* A jobs-only scenario: 8-GPU p5 instances, on-demand and spot entries for jobs, one job. */
static const char *const jobs_yaml =
	"name: train\n"                                                          /* line 1 */
	"horizon: 7d\n"
	"serving: {instance_type: p5.48xlarge}\n"
	"fleet:\n"
	"  - {option: on_demand, use: jobs, max: 16}\n"                          /* line 5 */
	"  - {option: spot, use: jobs, max: 8, interruptions_per_hour: 0.01}\n"
	"jobs:\n"
	"  list:\n"
	"    - {instances: 8, work_instance_hours: 240, submit: 6h}\n";        /* line 9 */

/* The scenario text `head` followed by `tail` (a few lines), in a static buffer. */
static const char *join(const char *head, const char *tail)
{
	static char buf[4096];

	snprintf(buf, sizeof buf, "%s%s", head, tail);
	return buf;
}

START_TEST(every_field_is_read)
{
	static const char *const text =
		"name: train\n"
		"horizon: 7d\n"
		"serving: {instance_type: p5.48xlarge}\n"
		"fleet:\n"
		"  - {option: on_demand, use: jobs, max: 16}\n"
		"  - {option: spot, use: jobs, max: 8, interruptions_per_hour: 0.01}\n"
		"jobs:\n"
		"  policy: deadline_spot\n"
		"  switch_margin: 10m\n"
		"  max_pending: 1d\n"
		"  failures: {per_instance_hour: 1.6e-4, recovery: none, replacement: 5m, restart_delay: 2h}\n"
		"  list:\n"
		"    - name: finetune\n"
		"      instances: 8\n"
		"      work_instance_hours: 240\n"
		"      submit: 2026-01-01T06:00:00Z\n"
		"      deadline: 72h\n"
		"      checkpoint_interval: 1h\n"
		"      checkpoint_cost: 5m\n"
		"      restart_overhead: 10m\n"
		"      priority: 3\n";
	struct scenario sc;
	const struct job_spec *j;

	parse_ok(&sc, text, NULL, 0);
	ck_assert(sc.no_traffic);
	ck_assert_int_eq(sc.jobs.policy, JOB_POLICY_DEADLINE_SPOT);
	ck_assert_int_eq(sc.jobs.switch_margin_us, 600 * S_US);
	ck_assert_int_eq(sc.jobs.max_pending_us, 86400 * S_US);
	ck_assert_double_eq_tol(sc.jobs.failures_per_instance_h, 1.6e-4, TOL);
	ck_assert(!sc.jobs.auto_resume);
	ck_assert_int_eq(sc.jobs.replacement_us, 300 * S_US);
	ck_assert_int_eq(sc.jobs.restart_delay_us, 7200 * S_US);
	ck_assert_int_eq(sc.jobs.n, 1);
	j = &sc.jobs.list[0];
	ck_assert_str_eq(j->name, "finetune");
	ck_assert_int_eq(j->instances, 8);
	ck_assert_double_eq_tol(j->work_h, 240, TOL);
	/* the scenario starts at 2026-01-01T00:00:00Z (the default): submitted 6 h in, 21600 s; the deadline
	 * 72 h after that, 6 + 72 = 78 h = 280800 s from the start */
	ck_assert_int_eq(j->submit_us, 21600 * S_US);
	ck_assert_int_eq(j->deadline_us, 280800 * S_US);
	ck_assert_int_eq(j->ckpt_interval_us, 3600 * S_US);
	ck_assert_int_eq(j->ckpt_cost_us, 300 * S_US);
	ck_assert_int_eq(j->restart_us, 600 * S_US);
	ck_assert_int_eq(j->priority, 3);
	ck_assert_int_eq(j->line, 13);  /* the item's first key, `name`, at line 13 column 7 */
	ck_assert_int_eq(j->col, 7);
	ck_assert_int_eq(sc.fleet[0].use, USE_JOBS);
	ck_assert_int_eq(sc.fleet[0].max, 16);
	scenario_fini(&sc);
}
END_TEST

START_TEST(defaults)
{
	const char *g5[] = { "serving.instance_type=g5.xlarge" };
	struct scenario sc;
	const struct job_spec *j;

	parse_ok(&sc, jobs_yaml, NULL, 0);
	ck_assert_int_eq(sc.jobs.policy, JOB_POLICY_ON_DEMAND);
	ck_assert_int_eq(sc.jobs.switch_margin_us, 0);
	ck_assert_int_eq(sc.jobs.max_pending_us, 2 * 86400 * S_US);  /* 2 days = 172800 s */
	/* 1.97e-5 failures per GPU-hour x 8 GPUs (p5.48xlarge) = 1.576e-4 per instance-hour */
	ck_assert_double_eq_tol(sc.jobs.failures_per_instance_h, 1.576e-4, TOL);
	ck_assert(sc.jobs.auto_resume);
	ck_assert_int_eq(sc.jobs.replacement_us, 600 * S_US);
	ck_assert_int_eq(sc.jobs.restart_delay_us, 3600 * S_US);
	j = &sc.jobs.list[0];
	ck_assert_str_eq(j->name, "job-1");
	ck_assert_int_eq(j->deadline_us, INT64_MAX);
	ck_assert_int_eq(j->ckpt_interval_us, 0);
	ck_assert_int_eq(j->ckpt_cost_us, 0);
	ck_assert_int_eq(j->restart_us, 0);
	ck_assert_int_eq(j->priority, 0);
	ck_assert_int_eq(sc.fleet[0].use, USE_JOBS);
	ck_assert_str_eq(sc.jobs.trace, "");
	/* the default policy, on_demand, never uses the spot entry: a warning at `jobs` (no policy key) */
	ck_assert_str_eq(sc.warnings, "t.yaml:7:1: jobs: fleet entry 2 (spot, use: jobs) is never used by "
			 "jobs.policy on_demand\n");
	scenario_fini(&sc);
	/* 1.97e-5 x 1 GPU (g5.xlarge) */
	parse_ok(&sc, jobs_yaml, g5, 1);
	ck_assert_double_eq_tol(sc.jobs.failures_per_instance_h, 1.97e-5, TOL);
	scenario_fini(&sc);
}
END_TEST

START_TEST(submit_and_deadline_forms)
{
	static const char *const list =
		"    - {instances: 1, work_instance_hours: 1, submit: 2026-01-01T00:00:01.5Z, "
		"deadline: 2026-01-02T00:00:00Z}\n"
		"    - {instances: 1, work_instance_hours: 1, submit: 90m, deadline: 3600}\n"
		"    - {instances: 1, work_instance_hours: 1, submit: 7200}\n";
	const char *start[] = { "start=2026-01-01T00:00:00.5Z" };
	struct scenario sc;

	parse_ok(&sc, join(jobs_yaml, list), NULL, 0);
	ck_assert_int_eq(sc.jobs.n, 4);
	/* sorted by submit: 1.5 s, 90 min = 5400 s, 7200 s, 6 h = 21600 s */
	ck_assert_int_eq(sc.jobs.list[0].submit_us, 1500000);        /* fractional ISO seconds kept */
	ck_assert_int_eq(sc.jobs.list[0].deadline_us, 86400 * S_US); /* a UTC time: 1 day from the start */
	ck_assert_int_eq(sc.jobs.list[1].submit_us, 5400 * S_US);
	ck_assert_int_eq(sc.jobs.list[1].deadline_us, 9000 * S_US);  /* 3600 s after submit: 5400 + 3600 */
	ck_assert_int_eq(sc.jobs.list[2].submit_us, 7200 * S_US);    /* plain seconds */
	ck_assert_int_eq(sc.jobs.list[3].submit_us, 6 * H_US);
	scenario_fini(&sc);
	/* times are taken from the scenario start, fractions included: 1.5 s - 0.5 s = 1 s */
	parse_ok(&sc, join(jobs_yaml, list), start, 1);
	ck_assert_int_eq(sc.jobs.list[0].submit_us, 1 * S_US);
	ck_assert_int_eq(sc.jobs.list[1].submit_us, 5400 * S_US);   /* a duration is from the start as given */
	scenario_fini(&sc);
}
END_TEST

START_TEST(trace_merged_and_sorted)
{
	/* columns in another order, CRLF, a blank line, a quoted name with a comma and a quote, empty cells */
	char *csv = test_write_file("jobs.csv",
		"priority,submit,work_instance_hours,instances,name,deadline,checkpoint_interval\r\n"
		"5,30m,16,4,\"eval, \"\"big\"\"\",2h,\r\n"
		"\r\n"
		",1h,2.5,1,,,15m\r\n"
		"0,2026-01-01T00:10:00.25Z,1,2,early,2026-01-01T01:00:00Z,\r\n");
	char text[2048];
	struct scenario sc;
	const struct job_spec *j;

	snprintf(text, sizeof text, "%s    - {name: a, instances: 1, work_instance_hours: 1, submit: 2h}\n"
		 "    - {name: b, instances: 1, work_instance_hours: 1, submit: 1h}\n  trace: %s\n", jobs_yaml, csv);
	parse_ok(&sc, text, NULL, 0);
	ck_assert_str_eq(sc.jobs.trace, csv);
	ck_assert_int_eq(sc.jobs.n, 6);
	/* by submit, ties in order of appearance (the list's, then the trace's): early (10 min 0.25 s),
	 * 'eval, "big"' (30 min), b (1 h, list), job-5 (1 h, the trace's second row: 3 list items + 2), a (2 h),
	 * job-1 (6 h) */
	ck_assert_str_eq(sc.jobs.list[0].name, "early");
	ck_assert_str_eq(sc.jobs.list[1].name, "eval, \"big\"");
	ck_assert_str_eq(sc.jobs.list[2].name, "b");
	ck_assert_str_eq(sc.jobs.list[3].name, "job-5");
	ck_assert_str_eq(sc.jobs.list[4].name, "a");
	ck_assert_str_eq(sc.jobs.list[5].name, "job-1");
	j = &sc.jobs.list[0];
	ck_assert_int_eq(j->submit_us, 600250000);          /* 600.25 s */
	ck_assert_int_eq(j->deadline_us, 3600 * S_US);
	ck_assert_int_eq(j->instances, 2);
	ck_assert_int_eq(j->line, 5);                        /* the CSV row's line */
	j = &sc.jobs.list[1];
	ck_assert_int_eq(j->priority, 5);
	ck_assert_int_eq(j->instances, 4);
	ck_assert_double_eq_tol(j->work_h, 16, TOL);
	ck_assert_int_eq(j->deadline_us, (1800 + 7200) * S_US);  /* 2 h after the submission at 30 min */
	ck_assert_int_eq(j->ckpt_interval_us, 0);                /* empty cell: the default */
	j = &sc.jobs.list[3];
	ck_assert_int_eq(j->priority, 0);
	ck_assert_int_eq(j->deadline_us, INT64_MAX);
	ck_assert_int_eq(j->ckpt_interval_us, 900 * S_US);
	ck_assert_double_eq_tol(j->work_h, 2.5, TOL);
	scenario_fini(&sc);
	test_remove_file(csv);
}
END_TEST

START_TEST(use_and_serving_hours)
{
	static const char *const text =
		"name: shared\n"
		"horizon: 1d\n"
		"slo: {latency_s: 2}\n"
		"workload:\n"
		"  arrivals: {kind: poisson, rate_per_s: 10}\n"
		"  service: {kind: exponential, mean_s: 1}\n"
		"serving: {instance_type: p5.48xlarge}\n"
		"fleet:\n"
		"  - {option: reserved, count: 2, scope: zonal}\n"
		"  - {option: reserved, count: 3, use: jobs, scope: zonal}\n"
		"  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 4, use: shared,\n"
		"     serving_hours: \"20:00-08:00\"}\n"
		"  - {option: on_demand, count: 1, max: 6}\n"
		"autoscaling: {policy: target_tracking, target: 0.7}\n"
		"jobs:\n"
		"  policy: reserved_first\n"
		"  list: [{instances: 4, work_instance_hours: 8, submit: 0}]\n";
	struct scenario sc;

	parse_ok(&sc, text, NULL, 0);
	ck_assert(!sc.no_traffic);
	ck_assert_int_eq(sc.fleet[0].use, USE_SERVING);
	ck_assert_int_eq(sc.fleet[1].use, USE_JOBS);
	ck_assert_int_eq(sc.fleet[2].use, USE_SHARED);
	ck_assert_int_eq(sc.fleet[2].serving_from_s, 20 * 3600);  /* 72000 s */
	ck_assert_int_eq(sc.fleet[2].serving_to_s, 8 * 3600);     /* 28800 s: wraps midnight */
	/* autoscaling counts serving entries only: min = the serving reserved count, 2 (not 2 + 3 = 5);
	 * max = the serving entries' max, 2 + 4 (the shared block) + 6 = 12 (not 15 with the jobs' 3) */
	ck_assert_int_eq(sc.autoscaling.min, 2);
	ck_assert_int_eq(sc.autoscaling.max, 12);
	scenario_fini(&sc);
}
END_TEST

START_TEST(warnings)
{
	struct scenario sc;

	const char *sets[] = { "jobs.policy=deadline_spot" };

	parse_ok(&sc, join(jobs_yaml, "    - {instances: 1, work_instance_hours: 1, submit: 7d}\n"), sets, 1);
	/* submitted at the horizon (7 days after 2026-01-01): the warning is at the item's submit, line 10
	 * column 54 (4 spaces, "- {" and "instances: 1, work_instance_hours: 1, submit: " are 53 characters) */
	ck_assert_str_eq(sc.warnings, "t.yaml:10:54: jobs.list.1.submit: job 'job-2' is submitted at "
			 "2026-01-08T00:00:00Z, at or after the horizon; it never runs\n");
	scenario_fini(&sc);
	/* a spot entry for jobs that policy on_demand never uses */
	parse_ok(&sc, join(jobs_yaml, "  policy: on_demand\n"), NULL, 0);
	ck_assert_str_eq(sc.warnings, "t.yaml:10:11: jobs.policy: fleet entry 2 (spot, use: jobs) is never used "
			 "by jobs.policy on_demand\n");
	scenario_fini(&sc);
}
END_TEST

/* ---- malformed ------------------------------------------------------------------------------------ */

START_TEST(bad_jobs)
{
	parse_fails(join(jobs_yaml, "    - {instances: 1, work_instance_hours: -3, submit: 0}\n"), NULL, 0,
		    "t.yaml:10:43: jobs.list.1.work_instance_hours: expected a number > 0 and <= 1000000000, "
		    "got '-3'");
	parse_fails(join(jobs_yaml, "    - {instances: 1, work_instance_hours: 1, submit: 6h, deadline: "
			 "2026-01-01T05:00:00Z}\n"), NULL, 0,
		    "t.yaml:10:68: jobs.list.1.deadline: job 'job-2' has its deadline (2026-01-01T05:00:00Z) before "
		    "its submission (2026-01-01T06:00:00Z); expected a deadline after submit");
	parse_fails(join(jobs_yaml, "    - {instances: 1, work_instance_hours: 1, submit: 6h, deadline: 0}\n"),
		    NULL, 0, "t.yaml:10:68: jobs.list.1.deadline: job 'job-2' has its deadline "
		    "(2026-01-01T06:00:00Z) at its submission (2026-01-01T06:00:00Z); expected a deadline after "
		    "submit");
	/* the largest entry policy on_demand can use is the on_demand one, max 16 */
	parse_fails(join(jobs_yaml, "    - {name: big, instances: 17, work_instance_hours: 1, submit: 0}\n"), NULL,
		    0, "t.yaml:10:30: jobs.list.1.instances: job 'big' needs 17 instances at once, more than any "
		    "fleet entry jobs.policy on_demand can use holds (the largest: fleet entry 1, on_demand, 16 "
		    "instances); expected at most 16, or a larger entry (a job's instances all come from one entry)");
	parse_fails(join(jobs_yaml, "    - {instances: 1, work_instance_hours: 1, submit: 0, gpus: 8}\n"), NULL, 0,
		    "t.yaml:10:57: jobs.list.1: unknown key 'gpus'; expected one of: name, instances, "
		    "work_instance_hours, submit, deadline, checkpoint_interval, checkpoint_cost, restart_overhead, "
		    "priority, team, priority_class, max_wait");
	parse_fails(join(jobs_yaml, "    - {instances: 1, work_instance_hours: 1, submit: 2025-12-31T00:00:00Z}\n"),
		    NULL, 0, "t.yaml:10:54: jobs.list.1.submit: job 'job-2' is submitted at 2025-12-31T00:00:00Z, "
		    "before the scenario start (2026-01-01T00:00:00Z); expected a time at or after the start, or a "
		    "duration after it");
	parse_fails(join(jobs_yaml, "    - {instances: 0, work_instance_hours: 1, submit: 0}\n"), NULL, 0,
		    "t.yaml:10:19: jobs.list.1.instances: expected an integer from 1 to 100000, got '0'");
	parse_fails(join(jobs_yaml, "    - {instances: 1, work_instance_hours: 1, submit: soon}\n"), NULL, 0,
		    "t.yaml:10:54: jobs.list.1.submit: expected a UTC time such as 2026-01-01T06:00:00Z, or a "
		    "duration after the scenario start such as 6h, got 'soon'");
	parse_fails(join(jobs_yaml, "  failures: {per_instance_hour: -1e-5}\n"), NULL, 0,
		    "t.yaml:10:33: jobs.failures.per_instance_hour: expected a number >= 0 and <= 100, got '-1e-5'");
}
END_TEST

START_TEST(bad_policies_and_uses)
{
	static const char *const serving_only =
		"name: train\nhorizon: 7d\nserving: {instance_type: p5.48xlarge}\nfleet:\n"
		"  - {option: on_demand, max: 16}\n"
		"jobs:\n  list: [{instances: 1, work_instance_hours: 1, submit: 0}]\n";

	parse_fails(join(jobs_yaml, "  policy: spot\n"), (const char *[]){ "fleet.1.use=serving" }, 1,
		    "t.yaml:10:11: jobs.policy: policy spot needs a spot fleet entry with use: jobs; expected one, "
		    "or another policy");
	{
		const char *no_spot[] = { "fleet.1.use=serving", "jobs.policy=deadline_spot" };
		parse_fails(jobs_yaml, no_spot, 2, "--set jobs.policy=deadline_spot: jobs.policy: policy "
			    "deadline_spot needs a spot fleet entry with use: jobs; expected one, or another policy");
	}
	for (int i = 0; i < 2; i++) {  /* the two policies that need both kinds */
		const char *name = i == 0 ? "uniform_progress" : "adaptive_progress";
		char set[64], want[256];
		const char *no_spot[] = { "fleet.1.use=serving", set }, *no_od[] = { "fleet.0.use=serving", set };

		snprintf(set, sizeof set, "jobs.policy=%s", name);
		snprintf(want, sizeof want, "--set %s: jobs.policy: policy %s needs a spot fleet entry with use: jobs; "
			 "expected one, or another policy", set, name);
		parse_fails(jobs_yaml, no_spot, 2, want);
		snprintf(want, sizeof want, "--set %s: jobs.policy: policy %s needs an on_demand fleet entry with use: "
			 "jobs; expected one, or another policy", set, name);
		parse_fails(jobs_yaml, no_od, 2, want);
	}
	parse_fails(serving_only, NULL, 0, "t.yaml:6:1: jobs: no fleet entry is for jobs; expected at least one "
		    "entry with use: jobs (or use: shared)");
	parse_fails(join(jobs_yaml, "  polcy: spot\n"), NULL, 0, "t.yaml:10:3: jobs: unknown key 'polcy'; "
		    "expected one of: policy, switch_margin, max_pending, failures, list, trace, teams, priority_classes, fair_share, managed_spot");
	parse_fails("name: t\nhorizon: 1d\nserving: {instance_type: p5.48xlarge}\nfleet:\n"
		    "  - {option: on_demand, use: jobs, max: 4}\ncommitments:\n"
		    "  - {option: savings_plan, commit_usd_per_h: 10, use: jobs}\n"
		    "jobs: {list: [{instances: 1, work_instance_hours: 1, submit: 0}]}\n", NULL, 0,
		    "t.yaml:7:55: commitments.0.use: use does not apply to a commitment, which runs no instances (the "
		    "fleet's entries do); expected one of: option, commit_usd_per_h, discount, rates, term, term_start");
	parse_fails("name: t\nhorizon: 1d\nserving: {instance_type: p5.48xlarge}\nfleet:\n"
		    "  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 4, use: shared}\n"
		    "jobs: {policy: reserved_first, list: [{instances: 1, work_instance_hours: 1, submit: 0}]}\n",
		    NULL, 0, "t.yaml:5:6: fleet.0: missing required key 'serving_hours' (with use: shared, the UTC "
		    "hours in which serving has the instances, such as \"08:00-20:00\")");
	parse_fails("name: t\nhorizon: 1d\nserving: {instance_type: p5.48xlarge}\nfleet:\n"
		    "  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 4, use: jobs,\n"
		    "     serving_hours: \"08:00-20:00\"}\n"
		    "jobs: {policy: reserved_first, list: [{instances: 1, work_instance_hours: 1, submit: 0}]}\n",
		    NULL, 0, "t.yaml:6:22: fleet.0.serving_hours: serving_hours applies only with use: shared; "
		    "expected use: shared too, or no serving_hours");
	parse_fails("name: t\nhorizon: 1d\nserving: {instance_type: p5.48xlarge}\nfleet:\n"
		    "  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 4, use: shared,\n"
		    "     serving_hours: \"08:00-08:00\"}\n"
		    "jobs: {policy: reserved_first, list: [{instances: 1, work_instance_hours: 1, submit: 0}]}\n",
		    NULL, 0, "t.yaml:6:22: fleet.0.serving_hours: expected hours as \"HH:MM-HH:MM\" (UTC, from 00:00 "
		    "to 23:59, the two different; \"20:00-08:00\" wraps midnight), got '08:00-08:00'");
	parse_fails(join(jobs_yaml, "  policy: reserved_first\n"), (const char *[]){ "fleet.0.use=shared" }, 1,
		    "--set fleet.0.use=shared: fleet.0.use: use: shared applies only to capacity_block and "
		    "training_plan entries (shared by time of day); expected serving or jobs");
	parse_fails("name: t\nhorizon: 1d\nserving: {instance_type: p5.48xlarge}\nfleet:\n"
		    "  - {option: on_demand, use: jobs}\n"
		    "jobs: {list: [{instances: 1, work_instance_hours: 1, submit: 0}]}\n", NULL, 0,
		    "t.yaml:5:6: fleet.0: missing required key 'max' (with use: jobs, the most instances jobs may take "
		    "from this entry)");
}
END_TEST

START_TEST(traffic_rules)
{
	/* no jobs, no workload: the error of before */
	parse_fails("name: t\nhorizon: 1d\nslo: {latency_s: 2}\nserving: {instance_type: g5.xlarge}\nfleet:\n"
		    "  - {option: reserved, count: 1, scope: zonal}\n", NULL, 0,
		    "t.yaml:1:1: missing required key 'workload' (a mapping with arrivals and service)");
	/* without workload, slo and autoscaling have nothing to govern */
	parse_fails(join(jobs_yaml, "slo: {latency_s: 2}\n"), NULL, 0, "t.yaml:10:1: slo: slo applies only with "
		    "workload; expected workload too, or no slo");
	parse_fails(join(jobs_yaml, "autoscaling: {policy: none}\n"), NULL, 0, "t.yaml:10:1: autoscaling: "
		    "autoscaling applies only with workload; expected workload too, or no autoscaling");
	/* with workload, a fleet whose every entry is for jobs serves nothing */
	parse_fails(join(small_yaml, "jobs: {list: [{instances: 1, work_instance_hours: 1, submit: 0}]}\n"),
		    (const char *[]){ "fleet.0.use=jobs", "fleet.1.use=jobs" }, 2, "t.yaml:9:1: fleet: no entry "
		    "serves the workload (the entries that hold instances have use: jobs); expected at least one "
		    "entry with use: serving (the default) or shared");
}
END_TEST

START_TEST(bad_trace)
{
	static const struct { const char *csv, *msg; } cases[] = {
		/* line 3, the cell ' -2' starts at column 6 (after "1h,1,"; libcsv trims the space) */
		{ "submit,instances,work_instance_hours\n30m,1,1\n1h,1, -2\n",
		  ":3:6: column 'work_instance_hours': expected a number > 0 and <= 1000000000 (instance-hours), "
		  "got '-2'" },
		{ "submit,instances,work_instance_hours,gpus\n30m,1,1,8\n",
		  ":1:38: unknown column 'gpus'; expected columns among: name, instances, work_instance_hours, submit, "
		  "deadline, checkpoint_interval, checkpoint_cost, restart_overhead, priority" },
		{ "submit,instances\n30m,1\n",
		  ":1:1: no column 'work_instance_hours' in the header; expected the columns instances, "
		  "work_instance_hours and submit, and any of name, deadline, checkpoint_interval, checkpoint_cost, "
		  "restart_overhead, priority" },
		{ "name,submit,instances,work_instance_hours,deadline\nx,2h,1,1,2026-01-01T01:00:00Z\n",
		  ":2:10: column 'deadline': job 'x' has its deadline (2026-01-01T01:00:00Z) before its submission "
		  "(2026-01-01T02:00:00Z); expected a deadline after submit" },
		{ "submit,instances,work_instance_hours\n30m,17,1\n",
		  ":2:5: column 'instances': job 'job-2' needs 17 instances at once, more than any fleet entry "
		  "jobs.policy on_demand can use holds (the largest: fleet entry 1, on_demand, 16 instances); "
		  "expected at most 16, or a larger entry (a job's instances all come from one entry)" },
		{ "submit,instances,work_instance_hours\n30m,1\n", ":2:1: 2 fields; expected 3, as in the header" },
		{ "submit,instances,work_instance_hours\n30m,1,1,9\n", ":2:9: more fields than the header's 3; "
		  "expected 3" },
		{ "submit,instances,work_instance_hours\n,1,1\n", ":2:1: column 'submit': empty; expected a value (the "
		  "column is required)" },
		{ "submit,instances,submit\n", ":1:18: column 'submit' is named twice (also field 1); expected each "
		  "column once" },
		{ "submit,instances,work_instance_hours\n\n", ":1: no rows after the header; expected a job per row" },
		{ "", ": empty file; expected a header line and rows" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *csv = test_write_file("jobs.csv", cases[i].csv);
		char text[2048], msg[1024];

		snprintf(text, sizeof text, "%s  trace: %s\n", jobs_yaml, csv);
		snprintf(msg, sizeof msg, "%s%s", csv, cases[i].msg);
		parse_fails(text, NULL, 0, msg);
		test_remove_file(csv);
	}
}
END_TEST

/*
 * jobs.managed_spot and a job's max_wait (SOURCES.md [sm-managed-spot]): read with policy spot on aws; off
 * and no limit by default; max_wait only with managed_spot, and at least the job's failure-free run: 8
 * instances x 240 instance-hours = T 30 h, restart 0.5 h, checkpoints every 10 h at 0.25 h (ceil(30 / 10) -
 * 1 = 2): 30 + 0.5 + 0.5 = 31 h.
 */
START_TEST(managed_spot_and_max_wait)
{
	static const char *const msp =
		"name: train\nhorizon: 7d\nserving: {instance_type: p5.48xlarge}\nfleet:\n"
		"  - {option: spot, use: jobs, max: 8, interruptions_per_hour: 0.01}\n"  /* line 5 */
		"jobs:\n  policy: spot\n  managed_spot: true\n  list:\n"
		"    - {instances: 8, work_instance_hours: 240, submit: 6h, restart_overhead: 30m, "
		"checkpoint_interval: 10h, checkpoint_cost: 15m, max_wait: %s}\n";  /* line 10 */
	char text[1024];
	struct scenario sc;

	snprintf(text, sizeof text, msp, "31h");
	parse_ok(&sc, text, NULL, 0);
	ck_assert(sc.jobs.managed_spot);
	ck_assert_int_eq(sc.jobs.list[0].max_wait_us, 31 * H_US);
	scenario_fini(&sc);
	parse_ok(&sc, jobs_yaml, NULL, 0);
	ck_assert(!sc.jobs.managed_spot);
	ck_assert_int_eq(sc.jobs.list[0].max_wait_us, 0);
	scenario_fini(&sc);
	snprintf(text, sizeof text, msp, "30h");
	parse_fails(text, NULL, 0, "t.yaml:10:141: jobs.list.0.max_wait: job 'job-1' has max_wait 30 h, shorter "
		    "than it runs with nothing going wrong (restart_overhead + compute + checkpoints: 31 h), so it "
		    "could never complete; expected at least 31 h");
	snprintf(text, sizeof text, msp, "0");
	parse_fails(text, NULL, 0, "t.yaml:10:141: jobs.list.0.max_wait: expected a duration > 0 and <= 400d "
		    "(seconds, or a number with a unit: ms, s, m, h, d, w), got '0'");
	parse_fails(join(jobs_yaml, "    - {instances: 1, work_instance_hours: 1, submit: 0, max_wait: 2h}\n"),
		    NULL, 0, "t.yaml:10:67: jobs.list.1.max_wait: max_wait applies only with jobs.managed_spot: true "
		    "(a managed Spot training job's MaxWaitTimeInSeconds); expected managed_spot too, or no max_wait");
	parse_fails(join(jobs_yaml, "  managed_spot: true\n"), NULL, 0, "t.yaml:10:17: jobs.managed_spot: "
		    "managed_spot (SageMaker managed Spot training) runs jobs on Spot only; expected jobs.policy: "
		    "spot, or no managed_spot");
	parse_fails(join(jobs_yaml, "  managed_spot: yes\n"), NULL, 0, "t.yaml:10:17: jobs.managed_spot: "
		    "expected false or true, got 'yes'");
	parse_fails("name: train\nhorizon: 7d\nprovider: gcp\nserving: {instance_type: a3-highgpu-8g}\n"
		    "catalog:\n  a3-highgpu-8g: {usd_per_h: 88}\nfleet:\n"
		    "  - {option: spot, use: jobs, max: 8, interruptions_per_hour: 0.01}\n"
		    "jobs:\n  policy: spot\n  managed_spot: true\n"
		    "  list: [{instances: 8, work_instance_hours: 240, submit: 6h}]\n", NULL, 0,
		    "t.yaml:11:17: jobs.managed_spot: managed_spot is SageMaker's, on aws; expected provider aws, "
		    "or no managed_spot");
}
END_TEST

#define ADD(s, fn)                                          \
	do {                                                \
		TCase *tc_ = tcase_create(#fn);             \
		tcase_add_test(tc_, fn);                    \
		suite_add_tcase(s, tc_);                    \
	} while (0)

static Suite *scenario_jobs_suite(void)
{
	Suite *s = suite_create("scenario_jobs");

	ADD(s, every_field_is_read);
	ADD(s, defaults);
	ADD(s, submit_and_deadline_forms);
	ADD(s, trace_merged_and_sorted);
	ADD(s, use_and_serving_hours);
	ADD(s, warnings);
	ADD(s, bad_jobs);
	ADD(s, bad_policies_and_uses);
	ADD(s, traffic_rules);
	ADD(s, bad_trace);
	ADD(s, managed_spot_and_max_wait);
	return s;
}

int main(void)
{
	return test_run_suite(scenario_jobs_suite());
}
