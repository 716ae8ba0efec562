/*
 * jobs_policy_spot: jobs run on Spot jobs entries only, the first in fleet order with room, and checkpoint
 * and restart on interruptions (jobs.h); while no Spot entry can take the job, it waits (a refused launch
 * backs the entry off: the job tries again when the backoff expires).
 */
#include "jobs.h"

static bool spot(const struct fleet_group *g)
{
	return g->kind == OPTION_SPOT;
}

static int choose(struct jobs *j, struct job *job)
{
	return jobs_first(j, job, spot);
}

const struct jobs_policy_ops jobs_policy_spot = { .choose = choose };
