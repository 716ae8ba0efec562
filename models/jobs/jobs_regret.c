/*
 * jobs_regret: each job's offline optimum on the Spot availability it saw, and the run's regret (jobs.h,
 * "Regret"; SOURCES.md [cant-be-late-optimum]).
 *
 * At the horizon (jobs_close), for each submitted job with a deadline, when the run can say what the
 * optimum is, jobs_opt_solve (jobs_optimal.h) gives the cheapest way to run it, knowing the whole future:
 *  - Spot: the first Spot jobs entry, which must replay an availability trace (without one the availability
 *    the job saw is a draw of the interruption model, not a trace the optimum could know); usable when the
 *    trace shows the job's instances (the optimum assumes it has the trace's capacity to itself: other jobs
 *    and serving are not in its way); priced as the entry bills (its price trace, or its fixed price);
 *    AWS's free first hour for interrupted Spot counted (not for SageMaker managed Spot training);
 *  - On-Demand: the first On-Demand jobs entry, at its price, always there;
 *  - each start costs that entry's mean launch delay + the job's restart overhead (the study's changeover
 *    delay d, paid, no progress);
 *  - the compute: T plus the checkpoints any plan must take ((ceil(T / interval) - 1) x cost), with free,
 *    continuous saving otherwise (no progress lost at an interruption) and no node failures.
 * Each job's figure is an event job_optimum at the horizon ("NAME: offline optimum $X: Spot A h, On-Demand
 * B h, resolution D s"), or why there is none. When every submitted job has one, and the run's jobs use
 * only Spot and On-Demand entries and no commitment discounts them, jobs_report adds job_cost_optimal_usd
 * (their sum) and jobs_regret_usd (the jobs' bills less that sum): what a better policy could still save,
 * at most. A job not ended by the horizon has paid only up to it, so its regret is understated (it missed
 * its deadline: jobs_missed_deadline says so).
 */
#include "jobs.h"
#include "jobs_private.h"

#include <math.h>
#include <stdio.h>

#include "jobs_optimal.h"
#include "provider.h"
#include "status.h"

struct price_ctx {
	const struct jobs *j;
	int g;
};

static double spot_price(void *ctx, int64_t t_us)
{
	const struct price_ctx *c = ctx;

	return jobs_entry_usd_per_h(c->j, c->g, t_us);
}

/* Why the run's jobs have no optimum (NULL: they may have one). */
static const char *run_without(const struct jobs *j, int spot, int od)
{
	if (spot < 0 || od < 0)
		return "the jobs have no Spot or no On-Demand entry";
	if (j->fleet->group[spot].entry->avail.n == 0)
		return "the Spot entry replays no availability trace";
	return NULL;
}

static int64_t compute_with_checkpoints(const struct job *job)
{
	int64_t t = job->t_us, every = job->spec->ckpt_interval_us;

	return t + (every > 0 && t > 0 ? ((t + every - 1) / every - 1) * job->spec->ckpt_cost_us : 0);
}

/* Solve job's optimum; STATUS_OK (its event logged), or STATUS_ENOMEM. */
static int solve(struct jobs *j, struct job *job, int spot, int od)
{
	const struct fleet_group *gs = &j->fleet->group[spot];
	struct price_ctx price = { j, spot };
	struct jobs_opt_input in = {
		.submit_us = job->spec->submit_us, .deadline_us = job->spec->deadline_us,
		.compute_us = compute_with_checkpoints(job), .instances = job->spec->instances,
		.avail = gs->entry->avail.count, .navail = gs->entry->avail.n, .gap_us = gs->entry->avail.gap_us,
		.overhead_spot_us = jobs_entry_restart_us(j, spot, job),
		.overhead_od_us = jobs_entry_restart_us(j, od, job),
		.spot_price = spot_price, .price_ctx = &price, .od_usd_per_h = j->fleet->group[od].usd_per_h,
		.first_hour_free = provider_spot_first_hour_free(j->sc->provider) && !j->sc->jobs.managed_spot,
	};
	struct jobs_opt_result r;
	char note[160];
	int rc = jobs_opt_solve(&in, &r);

	if (rc == STATUS_ENOMEM)
		return rc;
	if (rc == STATUS_OK) {
		job->optimal_usd = r.cost_usd;
		j->optimal_usd += r.cost_usd;
		j->optimal_n++;
		snprintf(note, sizeof note, "offline optimum $%.2f: Spot %.2f h, On-Demand %.2f h, resolution %.0f s",
			 r.cost_usd, r.spot_h, r.od_h, (double)r.resolution_us / SIM_US_PER_S);
	} else {
		snprintf(note, sizeof note, "no offline optimum: %s", rc == STATUS_DONE ?
			 "no plan meets the deadline" : "the job's window or prices are out of the optimum's range");
	}
	jobs_log(j, job, "job_optimum", note);
	return STATUS_OK;
}

int jobs_regret_close(struct jobs *j)
{
	int spot = jobs_first_of(j, OPTION_SPOT), od = jobs_first_of(j, OPTION_ON_DEMAND);
	const char *without = run_without(j, spot, od);
	int rc;

	j->optimal_usd = 0;
	j->optimal_n = 0;
	for (int i = 0; i < j->n; i++) {
		struct job *job = &j->job[i];
		job->optimal_usd = NAN;
		if (job->state == JOB_PENDING || job->spec->deadline_us == INT64_MAX)
			continue;
		if (without) {
			char note[96];
			snprintf(note, sizeof note, "no offline optimum: %s", without);
			jobs_log(j, job, "job_optimum", note);
			continue;
		}
		if ((rc = solve(j, job, spot, od)) != STATUS_OK)
			return rc;
	}
	return STATUS_OK;
}

bool jobs_regret_known(const struct jobs *j)
{
	const struct scenario *sc = j->sc;

	if (j->submitted == 0 || j->optimal_n != j->submitted || sc->ncommit > 0)
		return false;
	for (int g = 0; g < j->fleet->ngroups; g++) {
		const struct fleet_group *grp = &j->fleet->group[g];
		if (grp->user == FLEET_USER_JOBS && grp->kind != OPTION_SPOT && grp->kind != OPTION_ON_DEMAND)
			return false;
	}
	return true;
}
