/*
 * scenario_zones: availability zones in the scenario loader (see scenario_load.h; models/README.md, "Zones").
 *
 *     zones:
 *       - {name: use1-az1, outages: [{start: 2h, end: 3h}]}
 *       - {name: use1-az2}
 *     fleet:
 *       - {option: spot, zone: use1-az1, ...}
 *
 * `zones` lists the zones a plan uses, each with its zone-wide capacity losses (`outages`: windows from the
 * start, in time order, not overlapping, inside the horizon, each ending after it starts). An on_demand,
 * spot, odcr or capacity_block entry may name one of them in `zone`; an entry without `zone` is in the implicit zone, which
 * has no outages and keeps today's behaviour (each Spot entry its own pool). Names are unique.
 *
 * Spot entries of one zone and one instance type share that zone's Spot pool of the type (SOURCES.md
 * [zone-spot-pool]; entries of other types are other pools): a pool reclaim takes instances of all of them
 * together, so they must agree on the pool's reclaims_per_day, reclaim_fraction and outage_mean_s; the
 * second one that differs is refused at its key.
 */
#include <stdio.h>
#include <string.h>

#include "scenario_load.h"
#include "status.h"

static const char *const zone_keys[] = { "name", "outages", NULL };
static const char *const zone_outage_keys[] = { "start", "end", NULL };

/* zones[i].outages (present): windows in time order, not overlapping, inside the horizon. */
static int read_outages(struct load *l, const struct yamldoc_ref *list, struct zone *z)
{
	struct yamldoc_ref o, r;
	int n, rc;

	if ((rc = yamldoc_list(&l->y, list, 1, SCENARIO_OUTAGES_MAX, "windows such as '- {start: 2h, "
				     "end: 3h}'", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		struct outage *w = &z->outages[i];
		int64_t after = i ? w[-1].end_us : 0;

		yamldoc_next_item(list, &walk, &o);
		if ((rc = yamldoc_mapping(&l->y, &o, zone_outage_keys, NULL, NULL)) ||
		    (rc = scenario_load_required(l, &o, "start", "when the zone loses its capacity, a duration "
						 "from the start", &r)) ||
		    (rc = scenario_load_duration(l, &r, 0, false, l->sc.horizon_us, &w->start_us)))
			return rc;
		if (w->start_us < after)
			return yamldoc_fail(&l->y, &r, "zone outages must be in time order and must not "
						  "overlap; expected a start at or after the previous outage's end "
						  "(%g s)", (double)after / 1e6);
		if ((rc = scenario_load_required(l, &o, "end", "when the zone's capacity is back, a duration "
						 "from the start, after start", &r)) ||
		    (rc = scenario_load_duration(l, &r, w->start_us, true, l->sc.horizon_us, &w->end_us)))
			return rc;
	}
	z->noutages = n;
	return STATUS_OK;
}

int scenario_load_zones(struct load *l)
{
	struct yamldoc_ref list, item, r;
	int n, rc;

	l->sc.nzones = 0;
	yamldoc_child(&l->root, "zones", &list);
	if (!list.node)
		return STATUS_OK;
	if ((rc = yamldoc_list(&l->y, &list, 1, SCENARIO_ZONES_MAX, "zones such as '- {name: use1-az1}'",
				     &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		struct zone *z = &l->sc.zones[i];

		yamldoc_next_item(&list, &walk, &item);
		if ((rc = yamldoc_mapping(&l->y, &item, zone_keys, "a mapping such as {name: use1-az1, "
						"outages: [{start: 2h, end: 3h}]}", NULL)) ||
		    (rc = scenario_load_required(l, &item, "name", "the zone's name, such as use1-az1", &r)) ||
		    (rc = yamldoc_string(&l->y, &r, z->name, sizeof z->name)))
			return rc;
		for (int j = 0; j < i; j++)
			if (strcmp(l->sc.zones[j].name, z->name) == 0)
				return yamldoc_fail(&l->y, &r, "zone '%s' is listed twice (zones.%d); "
							  "expected a name not listed before", z->name, j);
		z->noutages = 0;
		yamldoc_child(&item, "outages", &r);
		if (r.node && (rc = read_outages(l, &r, z)))
			return rc;
	}
	l->sc.nzones = n;
	return STATUS_OK;
}

int scenario_load_zone(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref r;
	char name[SCENARIO_ZONE_NAME_MAX], listed[SCENARIO_ZONES_MAX * (SCENARIO_ZONE_NAME_MAX + 2)] = "";
	int rc;

	f->zone = 0;
	yamldoc_child(e, "zone", &r);
	if (!r.node)
		return STATUS_OK;
	if ((rc = yamldoc_string(&l->y, &r, name, sizeof name)))
		return rc;
	for (int i = 0; i < l->sc.nzones; i++) {
		if (strcmp(l->sc.zones[i].name, name) == 0) {
			f->zone = i + 1;
			return STATUS_OK;
		}
		strcat(listed, i ? ", " : "");
		strcat(listed, l->sc.zones[i].name);
	}
	if (l->sc.nzones == 0)
		return yamldoc_fail(&l->y, &r, "zone '%s' is not listed: the scenario has no zones; expected "
					  "a top-level 'zones: [{name: %s}]', or no zone", name, name);
	return yamldoc_fail(&l->y, &r, "zone '%s' is not in zones; expected one of: %s", name, listed);
}

const struct scenario_load_names scenario_load_zone_keys = SCENARIO_LOAD_KEYS(zone_keys);
const struct scenario_load_names scenario_load_zone_outage_keys = SCENARIO_LOAD_KEYS(zone_outage_keys);
