/*
 * fleet_zone: availability zones (see fleet.h; models/README.md, "Zones").
 *
 * Rules (SOURCES.md [zone-ice], [zone-spot-pool], [zone-outage-loss], [zone-streams]):
 *  - A zone-wide outage (`zones[].outages`) is a loss of the zone's capacity from its start to its end. At
 *    its start every running instance of every entry in the zone is taken: a Spot instance gets its
 *    interruption notice (notice_s, counted in spot_interruptions and billed as an interruption by EC2,
 *    option_spot.c: free when in its first hour), any other is lost at once (its requests in flight go back
 *    to the queue or are dropped, serving.on_interrupt; it is billed as if terminated then: on-demand for the
 *    seconds it ran, 60 s minimum unless it was in service at t = 0; an ODCR keeps being paid whether used
 *    or not; a Capacity Block in its window loses its instances too, they leave the desired capacity, and
 *    it launches them again at the outage's end if still before its expiration warning). Until its end,
 *    every launch in the zone fails as InsufficientInstanceCapacity (counted, logged
 *    and backed off as any failed launch), so the fleet falls through to the next entry in order, in
 *    another zone if the plan has one. Nothing else happens at its end: the zone's entries are tried again when
 *    their backoff expires and the fleet still needs instances.
 *  - Spot capacity is a pool per instance type and zone: the Spot entries of one zone and one type share
 *    one pool; entries of different types in one zone are different pools. A pool's reclaims
 *    (reclaims_per_day, which its entries give alike) take ceil(reclaim_fraction x running) of the pool's
 *    running instances, newest first whatever their entry, and close the pool to all of them for the same
 *    exponential outage (mean outage_mean_s). Pools (other types, other zones) are reclaimed
 *    independently. Per-instance interruptions (interruptions_per_hour) and availability traces stay per
 *    entry.
 *  - Random streams are named by zone: a zone's pool of the serving type draws from "spot_pool.<zone>" (as
 *    before types), its pool of another type from "spot_pool.<zone>.<type>", and its k-th entry's streams
 *    are "<option>.<zone>.<k>" and "startup.<zone>.<k>"; adding an entry, a type or a zone changes no other
 *    pool's draws. Entries without a zone keep "<option>.<index>" and their own pool, as before zones.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "convert.h"
#include "fleet_private.h"
#include "option.h"
#include "provider.h"
#include "rng.h"
#include "status.h"

#define DAY_US_F 86400e6

/* The types a zone has pools for: sc->ntypes (at least 1: a scenario built by hand may leave it 0). */
static int pool_types(const struct scenario *sc)
{
	return sc->ntypes > 0 ? sc->ntypes : 1;
}

/* True if group g's entry names zone z (an index in sc->zones). */
static bool in_zone(const struct fleet_group *g, int z)
{
	return g->entry->zone == z + 1;
}

void fleet_zone_stream_name(const struct fleet *f, int g, const char *prefix, char *buf, size_t size)
{
	const struct scenario *sc = f->sc;
	const struct fleet_entry *e = &sc->fleet[g];
	const char *kind = e->variant ? provider_variant_name(e->variant) : option_kind_name(e->option);
	int zone = e->zone, k = 0;

	/* named by what it serves: its kind (a provider's own product by that name) and its place among the
	 * entries of that kind in its zone, so adding or deleting another kind's entry, or another zone's,
	 * leaves this entry's draws as they were */
	for (int i = 0; i < g; i++)
		k += sc->fleet[i].option == e->option && sc->fleet[i].variant == e->variant && sc->fleet[i].zone == zone;
	if (zone == 0)
		snprintf(buf, size, "%s.%s.%d", prefix, kind, k);
	else
		snprintf(buf, size, "%s.%s.%s.%d", prefix, kind, sc->zones[zone - 1].name, k);
}

static const struct fleet_entry *pool_entry(const struct fleet *f, int z, int t);

int fleet_zone_init(struct fleet *f)
{
	const struct scenario *sc = f->sc;
	char name[SCENARIO_ZONE_NAME_MAX + SCENARIO_NAME_MAX + 16];

	for (int z = 0; z < SCENARIO_ZONES_MAX; z++)
		for (int t = 0; t < SCENARIO_TYPES_MAX; t++)
			f->zone[z].pool[t].rng = NULL;
	for (int z = 0; z < sc->nzones; z++) {
		struct fleet_zone *fz = &f->zone[z];
		fz->index = z;
		fz->next_outage = 0;
		fz->fleet = f;
		engine_event_init(&fz->outage);
		engine_event_init(&fz->back);
		for (int t = 0; t < pool_types(sc); t++) {
			struct fleet_spot_pool *p = &fz->pool[t];
			p->zone = z;
			p->type = t;
			p->fleet = f;
			engine_event_init(&p->reclaim);
			if (!pool_entry(f, z, t))
				continue;  /* no reclaims: no draws (streams are named, so no other pool's change) */
			if (t == 0)
				snprintf(name, sizeof name, "spot_pool.%s", sc->zones[z].name);
			else
				snprintf(name, sizeof name, "spot_pool.%s.%s", sc->zones[z].name, sc->types[t].name);
			if (!(p->rng = rng_new(sc->seed, name)))
				return STATUS_ENOMEM;
		}
	}
	return STATUS_OK;
}

void fleet_zone_fini(struct fleet *f)
{
	for (int z = 0; z < SCENARIO_ZONES_MAX; z++)
		for (int t = 0; t < SCENARIO_TYPES_MAX; t++) {
			gsl_rng_free(f->zone[z].pool[t].rng);
			f->zone[z].pool[t].rng = NULL;
		}
}

bool fleet_zone_refuses(const struct fleet *f, const struct fleet_group *g, char *why, size_t size)
{
	const struct zone *zn;
	int64_t now = f->eng->now_us;

	if (g->entry->zone == 0)
		return false;
	zn = &f->sc->zones[g->entry->zone - 1];
	for (int i = 0; i < zn->noutages; i++)  /* at most SCENARIO_OUTAGES_MAX: a scan is fine */
		if (now >= zn->outages[i].start_us && now < zn->outages[i].end_us) {
			snprintf(why, size, "InsufficientInstanceCapacity (zone %s outage until %.0f s)", zn->name,
				 (double)zn->outages[i].end_us / 1e6);
			return true;
		}
	return false;
}

static void fail_run(struct fleet *f, int rc)
{
	meter_fail(f->meter, rc);
	engine_stop(f->eng);
}

/* Schedule ev at t_us unless that is past the horizon. */
static void schedule(struct fleet *f, struct event *ev, int64_t t_us, void (*fn)(struct engine *, struct event *))
{
	if (t_us <= f->sc->horizon_us && engine_schedule(f->eng, ev, t_us, fn) != STATUS_OK)
		fail_run(f, STATUS_ENOMEM);
}

/* ---- zone-wide outages ---------------------------------------------------------------------------- */

/* The end of an outage: each option of the zone with a zone_back hook acts (a Capacity Block still in its
 * window launches its instances again: option_block.c). Nothing else moves: other entries are retried as
 * they need. */
static void on_back(struct engine *eng, struct event *ev)
{
	struct fleet_zone *fz = container_of(ev, struct fleet_zone, back);
	struct fleet *f = fz->fleet;

	(void)eng;
	for (int g = 0; g < f->ngroups; g++) {
		struct fleet_group *grp = &f->group[g];
		if (grp->ops && grp->ops->zone_back && in_zone(grp, fz->index))
			grp->ops->zone_back(f, grp);
	}
}

int fleet_zone_take(struct fleet *f, struct fleet_group *g, int64_t notice_us, const char *why)
{
	int64_t now = f->eng->now_us;
	int n = 0;

	for (int i = g->first; i < g->first + g->max; i++) {
		struct instance *in = &f->pool[i];
		if (in->state == INSTANCE_FREE || in->noticed)
			continue; /* an instance already under notice goes at its own doom */
		if (in->launch_us > now)
			continue; /* a DWS Flex-start request in its queue: its wait counted this outage */
		n++;
		fleet_interrupt(f, i, now + notice_us, why);
	}
	return n;
}

static void on_outage(struct engine *eng, struct event *ev)
{
	struct fleet_zone *fz = container_of(ev, struct fleet_zone, outage);
	struct fleet *f = fz->fleet;
	const struct zone *zn = &f->sc->zones[fz->index];
	const struct outage *w = &zn->outages[fz->next_outage];
	int noticed = 0, lost = 0;
	char why[SCENARIO_ZONE_NAME_MAX + 96];

	for (int g = 0; g < f->ngroups; g++) {
		const struct fleet_group *grp = &f->group[g];
		if (!grp->ops || !in_zone(grp, fz->index))
			continue;
		for (int i = grp->first; i < grp->first + grp->max; i++)
			if (f->pool[i].state != INSTANCE_FREE && !f->pool[i].noticed &&
			    f->pool[i].launch_us <= eng->now_us) {
				noticed += grp->ops->zone_notice;
				lost += !grp->ops->zone_notice;
			}
	}
	snprintf(why, sizeof why, "zone %s loses its capacity until %.0f s: %d spot noticed, %d lost", zn->name,
		 (double)w->end_us / 1e6, noticed, lost);
	meter_event(f->meter, eng->now_us, "zone_outage", "zone", noticed + lost, why);
	f->quiet++; /* replacements are launched once, after every instance is taken */
	for (int g = 0; g < f->ngroups; g++) {
		struct fleet_group *grp = &f->group[g];
		if (!grp->ops || !in_zone(grp, fz->index))
			continue;
		if (grp->ops->zone_lost)
			grp->ops->zone_lost(f, grp, eng->now_us);  /* the option's own rule (Spot, Capacity Blocks) */
		else
			fleet_zone_take(f, grp, 0, "zone outage: capacity lost");
	}
	f->quiet--;
	fleet_reconcile(f);
	schedule(f, &fz->back, w->end_us, on_back);
	if (++fz->next_outage < zn->noutages)  /* after `back`: outages do not overlap */
		schedule(f, &fz->outage, zn->outages[fz->next_outage].start_us, on_outage);
}

/* ---- the zone's Spot pools, one per type ----------------------------------------------------------- */

static bool pool_member(const struct fleet_group *g, int z, int t)
{
	return g->spot_market && in_zone(g, z) && g->entry->type == t;
}

/* The first Spot entry of pool (z, t) with pool reclaims (they all agree: scenario_zones.c), or NULL. */
static const struct fleet_entry *pool_entry(const struct fleet *f, int z, int t)
{
	for (int g = 0; g < f->ngroups; g++) {
		const struct fleet_group *grp = &f->group[g];
		if (pool_member(grp, z, t) && grp->entry->reclaims_per_day > 0)
			return grp->entry;
	}
	return NULL;
}

/* Running Spot instances of pool (z, t) not under notice. */
static int pool_running(const struct fleet *f, int z, int t)
{
	int n = 0;

	for (int g = 0; g < f->ngroups; g++) {
		const struct fleet_group *grp = &f->group[g];
		if (!pool_member(grp, z, t))
			continue;
		for (int i = grp->first; i < grp->first + grp->max; i++)
			n += f->pool[i].state != INSTANCE_FREE && !f->pool[i].noticed;
	}
	return n;
}

/* Give a notice to the k running instances of pool (z, t) launched last (ties: the highest pool index). */
static void pool_interrupt_newest(struct fleet *f, int z, int t, int k)
{
	int groups[SCENARIO_FLEET_MAX], n = 0;

	for (int g = 0; g < f->ngroups; g++)
		if (pool_member(&f->group[g], z, t))
			groups[n++] = g;
	fleet_notice_newest(f, groups, n, k, "spot pool reclaim");
}

static void on_pool_reclaim(struct engine *eng, struct event *ev);

/* The next reclaim of pool p after from_us: an exponential gap drawn from the pool's stream (a gap past the
 * clock's range is no reclaim at all, SOURCES.md [rate-never]). */
static void schedule_reclaim(struct fleet *f, struct fleet_spot_pool *p, const struct fleet_entry *e,
			     int64_t from_us)
{
	int64_t t_us;
	int rc = convert_after_us(from_us, rng_exponential(p->rng, DAY_US_F / e->reclaims_per_day), &t_us);

	if (rc == STATUS_OK)
		schedule(f, &p->reclaim, t_us, on_pool_reclaim);
	else if (rc != STATUS_DONE)
		meter_fail(f->meter, rc);
}

static void on_pool_reclaim(struct engine *eng, struct event *ev)
{
	struct fleet_spot_pool *p = container_of(ev, struct fleet_spot_pool, reclaim);
	struct fleet *f = p->fleet;
	const struct fleet_entry *e = pool_entry(f, p->zone, p->type);
	int k = (int)ceil(e->reclaim_fraction * pool_running(f, p->zone, p->type) - 1e-9);
	int64_t until_us;
	char why[SCENARIO_ZONE_NAME_MAX + SCENARIO_NAME_MAX + 96];

	/* an outage whose end is past the clock's range lasts to the end of the run */
	if (convert_after_us(eng->now_us, rng_exponential(p->rng, (double)e->outage_mean_us),
			     &until_us) != STATUS_OK)
		until_us = SIM_TIME_MAX;
	for (int g = 0; g < f->ngroups; g++)
		if (pool_member(&f->group[g], p->zone, p->type))
			f->group[g].outage_until_us = until_us;
	if (p->type == 0)  /* the serving type's pool words its event as before types */
		snprintf(why, sizeof why, "spot pool reclaim in zone %s: %d instances, pool out for %.0f s",
			 f->sc->zones[p->zone].name, k, (double)(until_us - eng->now_us) / 1e6);
	else
		snprintf(why, sizeof why, "spot pool reclaim in zone %s (%s): %d instances, pool out for %.0f s",
			 f->sc->zones[p->zone].name, f->sc->types[p->type].name, k,
			 (double)(until_us - eng->now_us) / 1e6);
	meter_event(f->meter, eng->now_us, "spot_reclaim", "spot", k, why);
	pool_interrupt_newest(f, p->zone, p->type, k);
	schedule_reclaim(f, p, e, eng->now_us);
}

/* ---- start and close ------------------------------------------------------------------------------ */

int fleet_zone_start(struct fleet *f)
{
	for (int z = 0; z < f->sc->nzones; z++) {
		struct fleet_zone *fz = &f->zone[z];
		const struct zone *zn = &f->sc->zones[z];

		if (zn->noutages > 0)
			schedule(f, &fz->outage, zn->outages[0].start_us, on_outage);
		for (int t = 0; t < pool_types(f->sc); t++) {
			const struct fleet_entry *e = pool_entry(f, z, t);
			if (e)
				schedule_reclaim(f, &fz->pool[t], e, 0);
		}
	}
	return f->meter->status;
}

void fleet_zone_close(struct fleet *f)
{
	for (int z = 0; z < f->sc->nzones; z++) {
		engine_cancel(f->eng, &f->zone[z].outage);
		engine_cancel(f->eng, &f->zone[z].back);
		for (int t = 0; t < pool_types(f->sc); t++)
			engine_cancel(f->eng, &f->zone[z].pool[t].reclaim);
	}
}
