/*
 * jobs_fixtures: whole runs of jobs-only scenarios for the jobs suites. A test parses a base scenario, then
 * fills sc.jobs and the entries' use directly in C (run_jobs); the run's metrics and events are read back
 * from rep and cap.
 */
#ifndef GPUCAP_JOBS_FIXTURES_H
#define GPUCAP_JOBS_FIXTURES_H

#include <stdbool.h>
#include <stddef.h>

#include "capture.h"
#include "scenario.h"
#include "world.h"

#define H 3.6e9  /* microseconds per hour */
#define S 1e6    /* microseconds per second */

extern struct capture cap;        /* the last run's events */
extern struct world_report rep;   /* the last run's metrics */
extern unsigned plan_entries;     /* bit i set: fleet entry i (a capacity_block in the YAML) becomes a training plan */

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
	bool managed_spot;         /* jobs.managed_spot: SageMaker managed Spot training */
};

/* A job of `instances` instances, work_h instance-hours, submitted at submit_h, with checkpoints every
 * interval_h costing cost_h and a restart overhead of restart_h (hours); no deadline, priority 0. */
struct job_spec job(int instances, double work_h, double submit_h, double interval_h, double cost_h,
		    double restart_h);

/* Parse yaml, make it a jobs-only scenario with these jobs, run it into cap and rep; fails the test on any
 * error. */
void run_jobs(const char *yaml, const struct job_spec *jobs, int n, const struct knobs *k);

/* The metric named name (it must be there). */
double M(const char *name);

/* True if the run gave a warning of this code. */
bool warned(const char *code);

/* The option, and the time in hours, of the i-th event of kind (it must exist). */
const char *event_option(const char *kind, int i);
double event_h(const char *kind, int i);

/* Spot at $1 on an availability trace (TRACE, under tests/data/spot) and On-Demand at $10, both instant:
 * entry 0 Spot, entry 1 On-Demand; notices of notice_s. */
void trace_fleet(char *buf, size_t size, const char *trace, int notice_s);

#endif
