/* fleet_probe: what a job policy that looks before it asks may know of an entry's capacity (fleet.h,
 * fleet_available). */
#include <limits.h>
#include <stdio.h>

#include "engine.h"
#include "fleet_private.h"

int fleet_available(const struct fleet *f, int g, int64_t *next_us)
{
	const struct fleet_group *grp = &f->group[g];
	char why[160];
	int64_t next = INT64_MAX;
	int n = grp->max - grp->live - grp->draining, own;

	if (f->closed || !grp->ops || n <= 0 || (!grp->ops->queues && fleet_zone_refuses(f, grp, why, sizeof why)))
		n = 0;
	if (grp->ops && grp->ops->available) {
		own = grp->ops->available(f, grp, &next);
		n = own < n ? own : n;
	}
	if (next_us)
		*next_us = next;
	return n;
}
