/*
 * scenario_job: one job of the `jobs` section, as the list (scenario_jobs.c) and the CSV of jobs.trace
 * (scenario_jobfile.c) both read it: the job's keys (the CSV's column names), the policies' names, which
 * fleet entries a policy uses, the checks of one job that need the scenario, and the append to the list.
 * Beneath both readers, so that neither calls the other back.
 */
#include <stdio.h>
#include <stdlib.h>

#include "scenario_load.h"
#include "status.h"
#include "units.h"

#define MAX_WORK_H 1e9                        /* a sanity bound on a job's instance-hours */

/* the keys of a job, also the CSV's column names (scenario_jobfile.c), in this order */
static const char *const job_keys[] = { "name", "instances", "work_instance_hours", "submit", "deadline",
	"checkpoint_interval", "checkpoint_cost", "restart_overhead", "priority", NULL };
static const char *const policy_names[] = { "on_demand", "spot", "deadline_spot", "reserved_first",
	"uniform_progress", "adaptive_progress" };

static const struct yamldoc_bounds work_bounds = { 0, MAX_WORK_H, true, false };          /* (0, max] */

/* ---- which entries a policy uses ---------------------------------------------------------------- */

/* Whether jobs under policy p may take instances from entry f. */
bool scenario_jobs_usable(enum job_policy p, const struct fleet_entry *f)
{
	if (f->use == USE_SERVING)
		return false;
	switch (p) {
	case JOB_POLICY_ON_DEMAND:
		return f->option == OPTION_ON_DEMAND;
	case JOB_POLICY_SPOT:
		return f->option == OPTION_SPOT;
	case JOB_POLICY_DEADLINE_SPOT:
	case JOB_POLICY_UNIFORM_PROGRESS:
	case JOB_POLICY_ADAPTIVE_PROGRESS:
		return f->option == OPTION_ON_DEMAND || f->option == OPTION_SPOT;
	case JOB_POLICY_RESERVED_FIRST:
		return true;
	}
	return false;
}

/* The index of the entry with the most instances the policy can use (the first of equals), or -1. */
static int largest(const struct scenario *sc)
{
	int best = -1;

	for (int i = 0; i < sc->nfleet; i++)
		if (scenario_jobs_usable(sc->jobs.policy, &sc->fleet[i]) && (best < 0 || sc->fleet[i].max > sc->fleet[best].max))
			best = i;
	return best;
}

/* The UTC time at t_us from the scenario start, to the second, into buf (32 bytes). */
const char *scenario_jobs_utc(const struct load *l, int64_t t_us, char *buf)
{
	units_format_time(units_floor_s(l->sc.start_unix_us + t_us), buf, 32);
	return buf;
}

bool scenario_jobs_submit_ok(const struct load *l, const struct job_spec *j, char *msg, size_t size)
{
	char at[32], start[32];

	if (j->submit_us >= 0)
		return true;
	snprintf(msg, size, "job '%s' is submitted at %s, before the scenario start (%s); expected a time at "
		 "or after the start, or a duration after it", j->name, scenario_jobs_utc(l, j->submit_us, at),
		 scenario_jobs_utc(l, 0, start));
	return false;
}

bool scenario_jobs_deadline_ok(const struct load *l, const struct job_spec *j, char *msg, size_t size)
{
	char at[32], submit[32];

	if (j->deadline_us > j->submit_us)
		return true;
	snprintf(msg, size, "job '%s' has its deadline (%s) %s its submission (%s); expected a deadline after "
		 "submit", j->name, scenario_jobs_utc(l, j->deadline_us, at),
		 j->deadline_us == j->submit_us ? "at" : "before", scenario_jobs_utc(l, j->submit_us, submit));
	return false;
}

bool scenario_jobs_fit_ok(const struct load *l, const struct job_spec *j, char *msg, size_t size)
{
	int best = largest(&l->sc);
	const struct fleet_entry *f = &l->sc.fleet[best < 0 ? 0 : best];

	if (best >= 0 && j->instances <= f->max)
		return true;
	snprintf(msg, size, "job '%s' needs %d instances at once, more than any fleet entry jobs.policy %s can use "
		 "holds (the largest: fleet entry %d, %s, %d instances); expected at most %d, or a larger entry "
		 "(a job's instances all come from one entry)", j->name, j->instances,
		 policy_names[l->sc.jobs.policy], l->fleet_item[best < 0 ? 0 : best] + 1, option_kind_name(f->option),
		 f->max, f->max);
	return false;
}

bool scenario_jobs_when(const struct load *l, const char *s, int64_t base_us, int64_t *out_us)
{
	int64_t t;

	if (units_parse_time_us(s, &t) == STATUS_OK) {
		*out_us = t - l->sc.start_unix_us;
		return true;
	}
	if (units_parse_duration(s, &t) != STATUS_OK)
		return false;
	*out_us = base_us + t;
	return true;
}

int scenario_jobs_append(struct load *l, const struct yamldoc_ref *r, const struct job_spec *j)
{
	struct scenario_jobs *jobs = &l->sc.jobs;
	/* room for 16, then doubled: the list is full when n is 0 or a power of two from 16 on */
	bool full = jobs->n == 0 || (jobs->n >= 16 && (jobs->n & (jobs->n - 1)) == 0);
	struct job_spec *grown;

	if (jobs->n >= MAX_JOBS)
		return yamldoc_fail(&l->y, r, "more than %d jobs in the list and the trace together; expected "
					  "at most %d", MAX_JOBS, MAX_JOBS);
	if (full) {
		grown = realloc(jobs->list, (size_t)(jobs->n ? 2 * jobs->n : 16) * sizeof *grown);
		if (!grown)
			return diag_at(l->y.d, STATUS_ENOMEM, l->y.label, 0, 0, "out of memory reading the jobs");
		jobs->list = grown;
	}
	jobs->list[jobs->n++] = *j;
	return STATUS_OK;
}

const struct scenario_load_names scenario_load_job_keys = SCENARIO_LOAD_KEYS(job_keys);
const struct scenario_load_names scenario_load_job_policy_names = SCENARIO_LOAD_NAMES(policy_names);
const struct yamldoc_bounds *const scenario_load_work = &work_bounds;
