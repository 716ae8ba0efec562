/*
 * jobs_teams_report: the per-team metrics (models/README.md, "Team shares"), only when the scenario has jobs.teams.
 * For team <name>: team_<name>_jobs_completed; team_<name>_wait_mean_s and team_<name>_wait_p95_s (submit to
 * first start over the team's started jobs, p95 by nearest rank; NaN when none started);
 * team_<name>_gpu_hours (GPU-hours its jobs held their instances, within the horizon);
 * team_<name>_borrowed_instance_hours (the integral of max(0, used - quota)); team_<name>_preempted (its jobs
 * preempted, by a lender's reclaim or a higher priority); team_<name>_cost_usd: the jobs entries' whole bill
 * split by the GPU-hours each team held (SOURCES.md [team-cost-share]), idle instances included: the idle
 * cost goes to the teams in proportion to their use (all to none when no team held anything). Then
 * jobs_preemptions, all teams together.
 */
#include "jobs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Team t's waits in seconds into w (j->n slots); returns how many. */
static int waits(const struct jobs *j, int t, double *w)
{
	int k = 0;

	for (int i = 0; i < j->n; i++)
		if (j->job[i].spec->team == t && j->job[i].start_us >= 0)
			w[k++] = (double)(j->job[i].start_us - j->job[i].spec->submit_us) / SIM_US_PER_S;
	return k;
}

static int put(struct sink_metric *list, int n, const char *team, const char *what, double v)
{
	char name[80];

	snprintf(name, sizeof name, "team_%s_%s", team, what);
	return meter_put(list, n, name, v);
}

int jobs_teams_report(const struct jobs *j, struct sink_metric *list, int n)
{
	const struct meter *m = j->meter;
	double cost = 0, held_all = 0, *w;

	if (!j->team)
		return n;
	/* at the end of the run, not in the event loop; without memory the waits are NaN */
	w = malloc(sizeof *w * (size_t)(j->n > 0 ? j->n : 1));
	for (int k = 0; k < OPTION_KIND_COUNT; k++)
		cost += m->user_cost_usd[FLEET_USER_JOBS][k];
	for (int t = 0; t < j->sc->jobs.nteams; t++)
		held_all += j->team[t].held_inst_us;
	for (int t = 0; t < j->sc->jobs.nteams; t++) {
		const char *name = j->sc->jobs.teams[t].name;
		int done = 0, nw = w ? waits(j, t, w) : 0;
		double sum = 0, p95 = NAN;
		for (int i = 0; i < j->n; i++)
			done += j->job[i].spec->team == t && j->job[i].state == JOB_DONE;
		for (int i = 0; i < nw; i++)
			sum += w[i];
		if (nw > 0) {
			int r = (int)ceil(0.95 * nw - 1e-9);
			qsort(w, (size_t)nw, sizeof *w, cmp_double);
			p95 = w[r < 1 ? 0 : r - 1];
		}
		n = put(list, n, name, "jobs_completed", done);
		n = put(list, n, name, "wait_mean_s", nw ? sum / nw : NAN);
		n = put(list, n, name, "wait_p95_s", p95);
		n = put(list, n, name, "gpu_hours", j->team[t].held_inst_us * m->gpus / SIM_US_PER_H_D);
		n = put(list, n, name, "borrowed_instance_hours", j->team[t].borrowed_inst_us / SIM_US_PER_H_D);
		n = put(list, n, name, "preempted", (double)j->team[t].preempted);
		n = put(list, n, name, "cost_usd", held_all > 0 ? cost * j->team[t].held_inst_us / held_all : 0);
	}
	free(w);
	return meter_put(list, n, "jobs_preemptions", (double)j->preemptions);
}
