/* jobs_report: the jobs metrics (see jobs.h, "Metrics"). */
#include "jobs.h"
#include "jobs_private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest rank: the smallest value with at least ceil(q n) of the n values at or below it; NaN if n = 0.
 * Sorts v (at the end of the run: fine). */
static double quantile(double *v, int n, double q)
{
	int k;

	if (n == 0)
		return NAN;
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	k = (int)ceil(q * n - 1e-9);
	return v[k < 1 ? 0 : k - 1];
}

int jobs_report(const struct jobs *j, struct sink_metric *list, int n)
{
	const struct meter *m = j->meter;
	double paid = 0, held = j->held_inst_us * m->gpus / SIM_US_PER_H_D;
	char name[48];

	n = meter_put(list, n, "jobs_submitted", (double)j->submitted);
	n = meter_put(list, n, "jobs_completed", (double)j->completed);
	n = meter_put(list, n, "jobs_missed_deadline", (double)j->missed);
	n = meter_put(list, n, "jobs_terminated", (double)j->terminated);
	if (j->sc->jobs.managed_spot)
		n = meter_put(list, n, "jobs_stopped_max_wait", (double)j->stopped);
	n = meter_put(list, n, "job_completion_p50_s", quantile(j->completion_s, (int)j->completed, 0.50));
	n = meter_put(list, n, "job_completion_p99_s", quantile(j->completion_s, (int)j->completed, 0.99));
	n = meter_put(list, n, "job_wait_mean_s", j->started ? j->wait_us / (double)j->started / SIM_US_PER_S : NAN);
	n = meter_put(list, n, "work_lost_instance_hours", j->lost_inst_us / SIM_US_PER_H_D);
	n = meter_put(list, n, "job_interruptions", (double)j->interruptions);
	n = meter_put(list, n, "job_failures", (double)j->failures);
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		/* the bills of jobs entries (SOURCES.md [jobs-cost-share]) */
		snprintf(name, sizeof name, "jobs_cost_%s_usd", option_kind_name((enum option_kind)k));
		n = meter_put(list, n, name, m->user_cost_usd[FLEET_USER_JOBS][k]);
		paid += m->user_paid_gpu_us[FLEET_USER_JOBS][k] / SIM_US_PER_H_D;
	}
	n = meter_put(list, n, "jobs_gpu_hours_paid", paid);
	n = meter_put(list, n, "jobs_gpu_hours_idle", paid - held);
	if (jobs_regret_known(j)) {
		double cost = 0;
		for (int k = 0; k < OPTION_KIND_COUNT; k++)
			cost += m->user_cost_usd[FLEET_USER_JOBS][k];
		n = meter_put(list, n, "job_cost_optimal_usd", j->optimal_usd);
		n = meter_put(list, n, "jobs_regret_usd", cost - j->optimal_usd);
	}
	return jobs_teams_report(j, list, n);
}

bool jobs_conserved(const struct jobs *j, char *why, size_t n)
{
	uint64_t seen = 0, done = 0, terminated = 0;

	for (int i = 0; i < j->n; i++) {
		enum job_state s = j->job[i].state;
		seen += s != JOB_PENDING;  /* a job leaves JOB_PENDING when it is submitted */
		done += s == JOB_DONE;
		terminated += s == JOB_TERMINATED;
	}
	if (seen != j->submitted || done != j->completed || terminated != j->terminated || j->missed > j->submitted) {
		snprintf(why, n, "jobs: submitted %llu (%llu seen), completed %llu (%llu done), terminated %llu (%llu "
			 "seen), missed %llu", (unsigned long long)j->submitted, (unsigned long long)seen,
			 (unsigned long long)j->completed, (unsigned long long)done,
			 (unsigned long long)j->terminated, (unsigned long long)terminated,
			 (unsigned long long)j->missed);
		return false;
	}
	return true;
}
