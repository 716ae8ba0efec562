/*
 * jobs_policy_reserved: reserved_first. A job takes the first self-managed jobs entry (reserved instances,
 * a Capacity Block, a training plan segment: the option decides when its instances exist) holding enough
 * idle instances; else the first On-Demand or ODCR jobs entry with room; else the first Spot one; else it
 * waits. Each tier in fleet order.
 */
#include "jobs.h"

static bool reserved(const struct fleet_group *g)
{
	return g->kind == OPTION_TRAINING_PLAN || fleet_group_self_managed(g);
}

static bool on_demand(const struct fleet_group *g)
{
	return g->kind == OPTION_ON_DEMAND || g->kind == OPTION_ODCR;
}

static bool spot(const struct fleet_group *g)
{
	return g->kind == OPTION_SPOT;
}

static int choose(struct jobs *j, struct job *job)
{
	int g = jobs_first(j, job, reserved);

	if (g < 0)
		g = jobs_first(j, job, on_demand);
	if (g < 0)
		g = jobs_first(j, job, spot);
	return g;
}

const struct jobs_policy_ops jobs_policy_reserved = { .choose = choose };
