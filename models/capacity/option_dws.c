/*
 * option_dws: Google Cloud DWS Flex-start VMs (`option: gcp_dws_flex`), an on-demand entry with a queue.
 *
 * Rules (SOURCES.md [gcp-dws-flex], [gcp-dws-queue]):
 *  - A launch is a request. The account quota is checked at once (Flex-start VMs "consume preemptible
 *    quota": quotas.spot_vcpus / spot_instances); a refusal is an ordinary failed launch.
 *  - Otherwise the request waits in the queue until capacity is available: the first instant at or after
 *    the request outside every window in which the scenario says there is none (the entry's `ice_outages`
 *    and its zone's `outages`, which may chain). If that instant is within the entry's `max_wait_s`
 *    (default 7200 s: "up to two hours") of the request, the VM starts then: billing starts then (per second
 *    after a minute, as on_demand), its `startup` delay runs from then, and its 7-day maximum counts from
 *    then. If not, or if the per-attempt `ice_probability` draw says there is no capacity, the request
 *    fails `max_wait_s` after it was made: counted in dws_requests_failed and launch_failures, logged, and
 *    the entry backs off (`launch_retry`) while the fleet tries the next entries, as for an
 *    InsufficientInstanceCapacity error.
 *  - Nothing is billed while a request waits, nor for a request that fails or is cancelled (scale-in
 *    removes a waiting request first, as the newest launch) before its VM starts.
 *  - Each VM is stopped 7 days after it started, with no notice (a VM in service at t = 0 counts from 0).
 * Entries with `use: jobs` or `shared` do not queue: a launch that finds no capacity fails at once, as
 * before the queue was modelled (the jobs model holds a job's instances from their launch).
 * While waiting a request holds one of the entry's `max` slots and counts as a launching instance in the
 * desired capacity (the autoscaler waits for it as for a VM booting). A zone outage leaves waiting requests
 * alone: their start already lies after it.
 */
#include <stdio.h>

#include "fleet_private.h"
#include "provider.h"
#include "rng.h"
#include "status.h"

#define FLEX_MAX_US (7 * 24 * 3600 * INT64_C(1000000))  /* SOURCES.md [gcp-dws-flex] */

static void fail_run(struct fleet *f, int rc)
{
	meter_fail(f->meter, rc);
	engine_stop(f->eng);
}

/* The end of the window of `w` (n of them, in time order, not overlapping) holding t, or t if none does. */
static int64_t past_windows(const struct outage *w, int n, int64_t t)
{
	for (int i = 0; i < n; i++)  /* at most SCENARIO_OUTAGES_MAX: a scan is fine */
		if (t >= w[i].start_us && t < w[i].end_us)
			return w[i].end_us;
	return t;
}

/* The first instant at or after now when group g's entry has capacity: outside its ice_outages and its
 * zone's outages. The two lists may chain (one window ending inside the other), hence the loop. */
static int64_t capacity_from(const struct fleet *f, const struct fleet_group *g, int64_t now)
{
	const struct fleet_entry *e = g->entry;
	const struct zone *zn = e->zone ? &f->sc->zones[e->zone - 1] : NULL;
	int64_t t = now, next;

	for (;;) {
		next = past_windows(e->outages, e->noutages, t);
		if (zn)
			next = past_windows(zn->outages, zn->noutages, next);
		if (next == t)
			return t;
		t = next;
	}
}

/* Only the serving fleet's requests queue: the jobs model holds a job's instances from their launch and
 * has no notion of a launch that may still fail, so a `use: jobs` (or shared) entry keeps the immediate
 * failure of an on-demand launch without capacity (README: a limitation). */
static bool serves(const struct fleet_group *g)
{
	return g->entry->use == USE_SERVING;
}

/* The quota is checked now; the capacity decides when the request's VM starts (or that it fails). */
static int dws_can_launch(struct fleet *f, struct fleet_group *g, int n, char *why, size_t size)
{
	const struct fleet_entry *e = g->entry;
	int64_t now = f->eng->now_us, start;
	int rc;

	g->opt.dws.start_us = now;
	g->opt.dws.fails = false;
	if (!serves(g)) {  /* jobs: no queue, a launch without capacity fails at once (see the top) */
		if (fleet_zone_refuses(f, g, why, size))
			return STATUS_EINPUT;
		return fleet_check_capacity(f, g, n, f->sc->quotas.spot_vcpus, f->sc->quotas.spot_instances,
					    "Preemptible (DWS Flex-start)", why, size);
	}
	/* Flex-start VMs "consume preemptible quota" */
	if ((rc = fleet_check_quota(f, g, n, f->sc->quotas.spot_vcpus, f->sc->quotas.spot_instances,
				    "Preemptible (DWS Flex-start)", why, size)) != STATUS_OK)
		return rc;
	start = capacity_from(f, g, now);
	g->opt.dws.fails = start - now > e->max_wait_us;
	if (e->ice_probability > 0 && rng_uniform(g->rng) < e->ice_probability)
		g->opt.dws.fails = true;  /* no capacity for this request during its wait */
	g->opt.dws.start_us = start;
	return STATUS_OK;
}

/* A VM runs "for a maximum of seven days", then Compute Engine stops it: taken then, with no notice. */
static void on_limit(struct engine *eng, struct event *ev)
{
	struct instance *in = container_of(ev, struct instance, notice);

	fleet_interrupt(in->fleet, (int)(in - in->fleet->pool), eng->now_us, "DWS Flex-start 7-day maximum");
}

/* max_wait_s after its request, no capacity came: the request fails and is taken out unbilled. */
static void on_fail(struct engine *eng, struct event *ev)
{
	struct instance *in = container_of(ev, struct instance, notice);
	struct fleet *f = in->fleet;
	struct fleet_group *g = &f->group[in->group];
	char why[96];

	snprintf(why, sizeof why, "DWS Flex-start: no capacity within max_wait_s (%.0f s)",
		 (double)g->entry->max_wait_us / 1e6);
	meter_count(f->meter, METER_DWS_FAILED, 1);
	fleet_launch_failed(f, g, why);  /* backs the entry off before the fleet looks for a replacement */
	fleet_retire(f, (int)(in - f->pool), "DWS Flex-start request failed");  /* never up: no user to tell */
	(void)eng;
}

static void schedule(struct fleet *f, struct event *ev, int64_t at_us, void (*fn)(struct engine *, struct event *))
{
	if (at_us > f->sc->horizon_us)
		return;
	if (engine_schedule(f->eng, ev, at_us, fn) != STATUS_OK)
		fail_run(f, STATUS_ENOMEM);
}

/* A request was let in (dws_can_launch just ran), or a VM is in service at t = 0 (warm). */
static void dws_launched(struct fleet *f, struct fleet_group *g, struct instance *in)
{
	int64_t now = f->eng->now_us, ready_us;

	if (in->warm) {  /* already running at t = 0: no request, 7 days from 0 */
		schedule(f, &in->notice, FLEX_MAX_US, on_limit);
		return;
	}
	if (!serves(g)) {
		schedule(f, &in->notice, now + FLEX_MAX_US, on_limit);
		return;
	}
	meter_count(f->meter, METER_DWS_REQUESTS, 1);
	if (g->opt.dws.fails) {
		in->launch_us = INT64_MAX;  /* never starts */
		engine_cancel(f->eng, &in->ready);
		schedule(f, &in->notice, now + g->entry->max_wait_us, on_fail);
		return;
	}
	meter_dws_granted(f->meter, (double)(g->opt.dws.start_us - now));
	if (g->opt.dws.start_us > now) {  /* waits in the queue: its startup runs from its start */
		ready_us = in->ready.t_us + (g->opt.dws.start_us - now);
		in->launch_us = g->opt.dws.start_us;
		engine_cancel(f->eng, &in->ready);
		if (engine_schedule(f->eng, &in->ready, ready_us, in->ready.fn) != STATUS_OK) {
			fail_run(f, STATUS_ENOMEM);
			return;
		}
	}
	schedule(f, &in->notice, in->launch_us + FLEX_MAX_US, on_limit);
}

extern const struct option_ops option_on_demand_ops;  /* option_ondemand.c: a started VM bills as on_demand */

/* Billed as on_demand from its start; a request that never started costs nothing. */
static void dws_ended(struct fleet *f, struct fleet_group *g, struct instance *in, int64_t end_us, bool early,
		      const struct meter_payer *pay)
{
	if (in->launch_us == INT64_MAX || end_us < in->launch_us || (early && !in->warm && end_us == in->launch_us))
		return;  /* still waiting, failed, or cancelled at its start: no VM ran */
	option_on_demand_ops.ended(f, g, in, end_us, early, pay);
}

/* VMs that have started, at the on-demand rate (requests still waiting cost nothing). */
static double dws_rate(const struct fleet *f, const struct fleet_group *g, int64_t now_us)
{
	int n = 0;

	for (int i = g->first; i < g->first + g->max; i++)  /* O(max) per sample: fine */
		n += f->pool[i].state != INSTANCE_FREE && f->pool[i].launch_us <= now_us;
	return n * g->usd_per_h;
}

static void dws_init(struct fleet *f, struct fleet_group *g)
{
	(void)g;
	meter_report_dws(f->meter);
}

const struct option_ops option_dws_ops = {
	.init = dws_init,
	.can_launch = dws_can_launch,
	.launched = dws_launched,
	.ended = dws_ended,
	.rate = dws_rate,
	.queues = true,
};
