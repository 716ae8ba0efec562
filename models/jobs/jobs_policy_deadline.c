/*
 * jobs_policy_deadline: deadline_spot, the uniform-progress rule of "Can't Be Late" (Wu et al., NSDI 2024;
 * SOURCES.md [cant-be-late]).
 *
 * A job with a deadline runs on Spot (the first Spot jobs entry with room) while its slack covers one more
 * restart; from the moment it no longer does, it runs on On-Demand (the first On-Demand jobs entry with room)
 * to its end. With
 *   remaining = (T - s) + checkpoint_cost x (ceil((T - s) / checkpoint_interval) - 1)   (no checkpoints:
 *               interval 0), the compute and checkpoints still needed from the SAVED progress s,
 *   slack     = deadline - now - remaining,
 *   restart   = the first On-Demand jobs entry's mean startup delay (serving.startup_s by default) +
 *               restart_overhead,
 * the job switches when slack < restart + jobs.switch_margin, i.e. at
 *   t_switch = deadline - remaining - restart - switch_margin.
 * Measuring from s rather than from the progress p makes one more interruption safe: losing p - s costs
 * nothing the slack did not already leave out. t_switch moves only when s does (a checkpoint), so a wake-up
 * is set for it whenever the job waits for Spot or runs on it; at t_switch a waiting job goes On-Demand, a
 * running one checkpoints first if it is computing (and checkpoints at all; else it rolls back to s), then
 * moves (jobs_switch). Once switched it stays On-Demand. A job without a deadline is treated as by the spot
 * policy.
 */
#include "jobs.h"

static bool spot(const struct fleet_group *g)
{
	return g->kind == OPTION_SPOT;
}

static bool on_demand(const struct fleet_group *g)
{
	return g->kind == OPTION_ON_DEMAND;
}

/* The mean of a launch delay distribution (DELAY_DEFAULT: default_us). */
static int64_t delay_mean(const struct delay_dist *d, int64_t default_us)
{
	double sum = 0;

	switch (d->kind) {
	case DELAY_CONSTANT:
	case DELAY_LOGNORMAL:
		return d->mean_us;
	case DELAY_EMPIRICAL:
		for (int i = 0; i < d->nvalues; i++)
			sum += (double)d->values_us[i];
		return d->nvalues > 0 ? (int64_t)(sum / d->nvalues) : default_us;
	case DELAY_DEFAULT:
		break;
	}
	return default_us;
}

int64_t jobs_entry_restart_us(const struct jobs *j, int g, const struct job *job)
{
	return delay_mean(&j->fleet->group[g].entry->startup, j->sc->serving.startup_us) + job->spec->restart_us;
}

double jobs_entry_usd_per_h(const struct jobs *j, int g, int64_t t_us)
{
	const struct fleet_group *grp = &j->fleet->group[g];

	if (grp->entry->prices.n > 0)
		return pricetrace_at(&grp->entry->prices, j->sc->start_unix_us + t_us);
	return grp->usd_per_h;
}

/* The cost of one more restart on On-Demand: its launch delay and the restart overhead (jobs.h). */
int64_t jobs_restart_cost_us(const struct jobs *j, const struct job *job)
{
	const struct fleet *f = j->fleet;

	for (int g = 0; g < f->ngroups; g++)
		if (f->group[g].user == FLEET_USER_JOBS && on_demand(&f->group[g]))
			return jobs_entry_restart_us(j, g, job);
	return j->sc->serving.startup_us + job->spec->restart_us;
}

static int64_t switch_at(const struct jobs *j, const struct job *job)
{
	return job->spec->deadline_us - jobs_remaining_us(j, job) - jobs_restart_cost_us(j, job) - j->sc->jobs.switch_margin_us;
}

static void on_wake(struct engine *eng, struct event *ev)
{
	struct job *job = container_of(ev, struct job, wake);

	(void)eng;
	jobs_switch(job->jobs, job);
}

static int choose(struct jobs *j, struct job *job)
{
	bool deadline = job->spec->deadline_us != INT64_MAX;

	if (deadline && !job->od_only && j->eng->now_us >= switch_at(j, job)) {
		engine_cancel(j->eng, &job->wake);
		jobs_switch(j, job); /* queued: it only logs the switch (and walks the queue once more) */
	}
	return jobs_first(j, job, job->od_only ? on_demand : spot);
}

static void update(struct jobs *j, struct job *job)
{
	if (job->spec->deadline_us == INT64_MAX || job->od_only) {
		engine_cancel(j->eng, &job->wake);
		return;
	}
	jobs_schedule(j, &job->wake, switch_at(j, job), on_wake);
}

const struct jobs_policy_ops jobs_policy_deadline = { .choose = choose, .update = update };
