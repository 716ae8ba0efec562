/*
 * jobs_policy_on_demand: jobs run on On-Demand jobs entries only, the first in fleet order with room
 * (jobs.h, "Room"); with none, the job waits.
 */
#include "jobs.h"

static bool on_demand(const struct fleet_group *g)
{
	return g->kind == OPTION_ON_DEMAND;
}

static int choose(struct jobs *j, struct job *job)
{
	return jobs_first(j, job, on_demand);
}

const struct jobs_policy_ops jobs_policy_on_demand = { .choose = choose };
