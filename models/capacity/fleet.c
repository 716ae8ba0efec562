/* fleet: the life cycle of instances and the allocation of capacity (see fleet.h). */
#include "fleet_private.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "rng.h"
#include "status.h"

static int init_group(struct fleet *f, int g, int first, fleet_ops_of_fn *ops_of)
{
	const struct fleet_entry *e = &f->sc->fleet[g];
	struct fleet_group *grp = &f->group[g];
	char name[SCENARIO_ZONE_NAME_MAX + 32];

	grp->entry = e;
	grp->ops = ops_of(e);
	grp->kind = e->option;
	grp->spot_market = grp->ops && grp->ops->spot_market;
	grp->index = g;
	grp->first = first;
	grp->max = grp->ops ? e->max : 0;
	grp->usd_per_h = e->usd_per_h;
	grp->fleet = f;
	grp->user = e->use == USE_JOBS ? FLEET_USER_JOBS : FLEET_USER_SERVING;
	grp->outage_until_us = INT64_MIN;
	grp->retry_us = INT64_MIN;
	engine_event_init(&grp->share);
	engine_event_init(&grp->share_warm);
	if (grp->ops && grp->ops->init)
		grp->ops->init(f, grp);
	fleet_zone_stream_name(f, g, "fleet", name, sizeof name);
	grp->rng = rng_new(f->sc->seed, name);
	fleet_zone_stream_name(f, g, "startup", name, sizeof name);
	grp->startup_rng = rng_new(f->sc->seed, name);
	return grp->rng && grp->startup_rng ? STATUS_OK : STATUS_ENOMEM;
}

int fleet_init(struct fleet *f, const struct scenario *sc, struct engine *eng, struct meter *meter,
	       fleet_ops_of_fn *ops_of)
{
	int n = 0, rc;

	f->sc = sc;
	f->eng = eng;
	f->meter = meter;
	for (int u = 0; u < FLEET_USERS; u++)
		f->user[u] = (struct fleet_user){ 0 };
	f->managed_initial = false;
	f->ngroups = sc->nfleet;
	f->startup_us = sc->serving.startup_us;
	f->desired = 0;
	f->closed = false;
	f->hold_scale_in_until_us = INT64_MIN;
	f->quiet = 0;
	f->pool = NULL;  /* fleet_fini may run before the pool is made */
	f->npool = 0;
	engine_event_init(&f->retry);
	for (int z = 0; z < SCENARIO_ZONES_MAX; z++)
		for (int t = 0; t < SCENARIO_TYPES_MAX; t++)
			f->zone[z].pool[t].rng = NULL;  /* fleet_fini may run before fleet_zone_init */
	for (int g = 0; g < sc->nfleet; g++) {
		if ((rc = init_group(f, g, n, ops_of)) != STATUS_OK) {
			f->ngroups = g + 1;
			fleet_fini(f);
			return rc;
		}
		n += f->group[g].max;
	}
	if ((rc = fleet_zone_init(f)) != STATUS_OK) {
		fleet_fini(f);
		return rc;
	}
	f->npool = n;
	f->pool = calloc(n > 0 ? (size_t)n : 1, sizeof *f->pool);
	if (!f->pool) {
		fleet_fini(f);
		return STATUS_ENOMEM;
	}
	for (int g = 0; g < f->ngroups; g++) {
		for (int i = 0; i < f->group[g].max; i++) {
			struct instance *in = &f->pool[f->group[g].first + i];
			in->state = INSTANCE_FREE;
			in->group = g;
			in->fleet = f;
			engine_event_init(&in->ready);
			engine_event_init(&in->doom);
			engine_event_init(&in->notice);
		}
	}
	return STATUS_OK;
}

void fleet_fini(struct fleet *f)
{
	for (int g = 0; g < f->ngroups; g++) {
		gsl_rng_free(f->group[g].rng);
		gsl_rng_free(f->group[g].startup_rng);
		f->group[g].rng = NULL;
		f->group[g].startup_rng = NULL;
	}
	fleet_zone_fini(f);
	free(f->pool);
	f->pool = NULL;
	f->npool = 0;
}

int fleet_capacity(const struct fleet *f)
{
	return f->npool;
}

/* the meter keeps bills by user (meter.h, struct meter_payer) with the fleet's numbering */
_Static_assert(FLEET_USERS == METER_USERS, "the meter's users are the fleet's");

void fleet_set_user(struct fleet *f, int which, const struct fleet_user *u)
{
	f->user[which] = *u;
}

/* True if group g's instances count in the serving capacity (fleet_set_desired, reconcile). */
static bool for_serving(const struct fleet_group *g)
{
	return g->user == FLEET_USER_SERVING;
}

bool fleet_serves(const struct fleet *f, int idx)
{
	return f->pool[idx].user == FLEET_USER_SERVING;
}

/* What one instance of group g counts for in the desired capacity (autoscaling.capacity_unit): 1 for
 * instances, else its type's GPUs or slots (scenario_types.c). */
static int weight(const struct fleet_group *g)
{
	return g->entry->weight;
}

int fleet_live(const struct fleet *f)
{
	int n = 0;

	for (int g = 0; g < f->ngroups; g++)
		if (for_serving(&f->group[g]))
			n += f->group[g].live * weight(&f->group[g]);
	return n;
}

int fleet_live_of(const struct fleet *f, int user)
{
	int n = 0;

	for (int i = 0; i < f->npool; i++)
		n += f->pool[i].state != INSTANCE_FREE && f->pool[i].user == user;
	return n;
}

int fleet_serving_capacity(const struct fleet *f)
{
	int n = 0;

	for (int g = 0; g < f->ngroups; g++)
		if (for_serving(&f->group[g]))
			n += f->group[g].max * weight(&f->group[g]);
	return n;
}

static int pool_index(const struct fleet *f, const struct instance *in)
{
	return (int)(in - f->pool);
}

static bool managed(const struct fleet_group *g)
{
	return g->ops && g->ops->self_managed;
}

bool fleet_group_self_managed(const struct fleet_group *g)
{
	return managed(g);
}

static void fail_run(struct fleet *f, int rc)
{
	meter_fail(f->meter, rc);
	engine_stop(f->eng);
}

/* ---- one instance ------------------------------------------------------------------------------- */

static void tell_up(struct fleet *f, struct instance *in)
{
	const struct fleet_user *u = &f->user[in->user];

	if (u->up)
		u->up(u->ctx, pool_index(f, in));
}

static void tell_down(struct fleet *f, struct instance *in)
{
	const struct fleet_user *u = &f->user[in->user];

	if (u->down)
		u->down(u->ctx, pool_index(f, in));
}

static void go_serving(struct fleet *f, struct instance *in);

/* Who pays for instance in of group g: its user, its type, no sharing. */
static struct meter_payer payer_of(const struct fleet_group *g, const struct instance *in)
{
	return (struct meter_payer){ .user = in->user, .type = g->entry->type, .jobs_share = -1 };
}

void fleet_hand_over_done(struct fleet *f, struct instance *in)
{
	struct fleet_group *g = &f->group[in->group];

	assert(in->state == INSTANCE_DRAINING && in->handover);
	in->handover = false;
	engine_cancel(f->eng, &in->doom);
	if (in->in_service && in->user == FLEET_USER_SERVING) {
		meter_in_service(f->meter, f->eng->now_us, -1);
		meter_type_in_service(f->meter, f->eng->now_us, g->entry->type, -1);
	}
	in->in_service = false;
	in->busy = 0;
	in->user = g->user;
	g->draining--;
	g->live++;
	meter_event(f->meter, f->eng->now_us, "handover", option_kind_name(g->kind), 1,
		    g->user == FLEET_USER_SERVING ? "to serving" : "to jobs");
	go_serving(f, in);
}

static void go_serving(struct fleet *f, struct instance *in)
{
	in->state = INSTANCE_SERVING;
	in->in_service = true;
	if (in->user == FLEET_USER_SERVING) {
		meter_in_service(f->meter, f->eng->now_us, +1);
		meter_type_in_service(f->meter, f->eng->now_us, f->group[in->group].entry->type, +1);
	}
	tell_up(f, in);
}

static void on_ready(struct engine *eng, struct event *ev)
{
	struct instance *in = container_of(ev, struct instance, ready);
	struct fleet *f = in->fleet;

	assert(in->state == INSTANCE_LAUNCHING);
	meter_event(f->meter, eng->now_us, "ready", option_kind_name(f->group[in->group].kind), 1, NULL);
	go_serving(f, in);
	if (f->sc->allocation.mixed)
		fleet_reconcile(f); /* a Spot instance serving may release an on-demand stand-in */
}

/* SOURCES.md [delay-measurements], [delay-lognormal]: measured scale-outs vary a lot, hence a distribution.
 * A lognormal with mean m and coefficient of variation cv has sigma^2 = ln(1 + cv^2) and
 * mu = ln(m) - sigma^2 / 2. */
int64_t fleet_delay_draw(const struct delay_dist *d, gsl_rng *rng, int64_t default_us)
{
	double sigma, x;

	switch (d->kind) {
	case DELAY_CONSTANT:
		return d->mean_us;
	case DELAY_LOGNORMAL:
		sigma = sqrt(log1p(d->cv * d->cv));
		x = rng_lognormal(rng, log((double)d->mean_us) - 0.5 * sigma * sigma, sigma);
		return x > 86400e6 ? (int64_t)86400e6 : (int64_t)x;
	case DELAY_EMPIRICAL:
		return d->values_us[rng_uniform_int(rng, (unsigned long)d->nvalues)];
	case DELAY_DEFAULT:
		break;
	}
	return default_us;
}

/* The launch-to-ready delay of one launch in group g. */
static int64_t startup_delay(struct fleet *f, struct fleet_group *g)
{
	return fleet_delay_draw(&g->entry->startup, g->startup_rng, f->startup_us);
}

bool fleet_take_slot(struct fleet *f, struct fleet_group *g, bool warm)
{
	for (int i = g->first; i < g->first + g->max; i++) {
		struct instance *in = &f->pool[i];
		if (in->state != INSTANCE_FREE)
			continue;
		in->launch_us = f->eng->now_us;
		in->busy = 0;
		in->cap = 0;
		in->inflight = NULL;
		in->noticed = false;
		in->warm = warm;
		in->handover = false;
		in->user = g->user;
		g->live++;
		meter_live(f->meter, f->eng->now_us, g->kind, +1);
		if (warm) {
			go_serving(f, in);
		} else {
			in->state = INSTANCE_LAUNCHING;
			meter_count(f->meter, METER_LAUNCHES, 1);
			int rc = engine_schedule(f->eng, &in->ready, f->eng->now_us + startup_delay(f, g), on_ready);
			if (rc != STATUS_OK)
				fail_run(f, rc);
		}
		if (g->ops->launched)
			g->ops->launched(f, g, in);
		return true;
	}
	return false;
}

static void terminate(struct fleet *f, struct instance *in)
{
	struct fleet_group *g = &f->group[in->group];

	if (in->state == INSTANCE_DRAINING)
		g->draining--;
	else
		g->live--;
	if (in->in_service && in->user == FLEET_USER_SERVING) {
		meter_in_service(f->meter, f->eng->now_us, -1);
		meter_type_in_service(f->meter, f->eng->now_us, g->entry->type, -1);
	}
	in->in_service = false;
	engine_cancel(f->eng, &in->ready);
	engine_cancel(f->eng, &in->doom);
	engine_cancel(f->eng, &in->notice);
	in->state = INSTANCE_FREE;
	if (f->closed)
		return;
	if (g->ops->ended) {
		struct meter_payer pay = payer_of(g, in);
		g->ops->ended(f, g, in, f->eng->now_us, true, &pay);
	}
	meter_live(f->meter, f->eng->now_us, g->kind, -1);
	meter_count(f->meter, METER_TERMINATIONS, 1);
	meter_event(f->meter, f->eng->now_us, "terminate", option_kind_name(g->kind), 1, NULL);
}

static void on_doom(struct engine *eng, struct event *ev);

/* Stop instance `in` taking requests; it terminates at once if it has none. */
static void drain(struct fleet *f, struct instance *in, const char *kind)
{
	struct fleet_group *g = &f->group[in->group];
	bool was_serving = in->state == INSTANCE_SERVING;

	assert(in->state == INSTANCE_SERVING || in->state == INSTANCE_LAUNCHING);
	engine_cancel(f->eng, &in->ready);
	in->state = INSTANCE_DRAINING;
	g->live--;
	g->draining++;
	if (was_serving)
		tell_down(f, in);
	meter_event(f->meter, f->eng->now_us, kind, option_kind_name(g->kind), 1, NULL);
	if (in->state != INSTANCE_DRAINING || in->busy > 0 || evq_queued(&in->doom))
		return; /* let go by its user inside down, still busy, or kept until its doom */
	if (in->handover)
		fleet_hand_over_done(f, in);
	else
		terminate(f, in);
}

/* Hand instance `in` (launching or serving) over to its group's user, now g->user: see fleet.h. */
void fleet_hand_over(struct fleet *f, struct instance *in, int64_t notice_us)
{
	if (in->state == INSTANCE_LAUNCHING) {
		in->user = f->group[in->group].user; /* it comes up for the new user */
		return;
	}
	if (in->state != INSTANCE_SERVING)
		return;
	in->handover = true;
	if (in->user == FLEET_USER_JOBS && in->busy > 0 && notice_us >= 0 &&
	    engine_schedule(f->eng, &in->doom, f->eng->now_us + notice_us, on_doom) != STATUS_OK) {
		fail_run(f, STATUS_ENOMEM);
		return;
	}
	drain(f, in, "drain");
}

/* The instance of group g to remove first: a launching one (newest), else the least busy serving one. */
static struct instance *pick_victim(struct fleet *f, const struct fleet_group *g)
{
	struct instance *best = NULL;

	for (int i = g->first + g->max - 1; i >= g->first; i--) {
		struct instance *in = &f->pool[i];
		if (in->state == INSTANCE_LAUNCHING && (!best || best->state != INSTANCE_LAUNCHING ||
							in->launch_us > best->launch_us))
			best = in;
		else if (in->state == INSTANCE_SERVING && (!best || (best->state == INSTANCE_SERVING &&
								      in->busy < best->busy)))
			best = in;
	}
	return best;
}

bool fleet_remove_one(struct fleet *f, struct fleet_group *g)
{
	struct instance *in = pick_victim(f, g);

	if (!in)
		return false;
	if (in->state == INSTANCE_LAUNCHING) {
		meter_event(f->meter, f->eng->now_us, "cancel", option_kind_name(g->kind), 1,
			    "launch cancelled before ready");
		terminate(f, in);
	} else {
		drain(f, in, "drain");
	}
	return true;
}

bool fleet_may_release(const struct fleet *f, int idx)
{
	const struct instance *in = &f->pool[idx];

	return !f->closed && !managed(&f->group[in->group]) && for_serving(&f->group[in->group]) &&
	       (in->state == INSTANCE_LAUNCHING || in->state == INSTANCE_SERVING);
}

/* Take `in` (launching or serving) out of service: cancel a launch (logged with why), else drain under the
 * event kind `kind`; either way it terminates at once unless it has requests in service. */
static void take_out(struct fleet *f, struct instance *in, const char *kind, const char *why)
{
	if (in->state == INSTANCE_LAUNCHING) {
		meter_event(f->meter, f->eng->now_us, "cancel", option_kind_name(f->group[in->group].kind), 1, why);
		terminate(f, in);
	} else {
		drain(f, in, kind);
	}
}

bool fleet_release(struct fleet *f, int idx)
{
	struct instance *in = &f->pool[idx];

	if (!fleet_may_release(f, idx))
		return false;
	f->desired -= weight(&f->group[in->group]);
	take_out(f, in, "release", "launch cancelled: no copy needs it");
	return true;
}

void fleet_retire(struct fleet *f, int idx, const char *why)
{
	struct instance *in = &f->pool[idx];

	if (f->closed || (in->state != INSTANCE_LAUNCHING && in->state != INSTANCE_SERVING))
		return;
	take_out(f, in, "drain", why);
	fleet_reconcile(f);
}

static void on_doom(struct engine *eng, struct event *ev)
{
	struct instance *in = container_of(ev, struct instance, doom);
	struct fleet *f = in->fleet;
	int idx = pool_index(f, in);

	(void)eng;
	if (in->handover) { /* a shared group's notice ran out: take it from its user, give it to the other */
		if (f->user[in->user].reclaim)
			f->user[in->user].reclaim(f->user[in->user].ctx, idx);
		fleet_hand_over_done(f, in);
		fleet_reconcile(f);
		return;
	}
	/* block_terminations counts instances taken away while serving requests at the end of a window (a
	 * block or a training plan segment: option_block.c, option_plan.c) */
	if (f->group[in->group].ops && f->group[in->group].ops->window_ends && in->busy > 0)
		meter_count(f->meter, METER_BLOCK_TERMINATIONS, 1);
	if (f->user[in->user].reclaim)
		f->user[in->user].reclaim(f->user[in->user].ctx, idx);
	if (in->state != INSTANCE_FREE)
		terminate(f, in);
	fleet_reconcile(f);
}

void fleet_interrupt(struct fleet *f, int idx, int64_t doom_us, const char *why)
{
	struct instance *in = &f->pool[idx];
	int rc;

	if (in->state == INSTANCE_FREE || in->noticed || f->closed)
		return;
	if (in->handover) { /* taken away for good: no longer handed over */
		in->handover = false;
		engine_cancel(f->eng, &in->doom);
	}
	in->noticed = true;
	in->noticed_us = f->eng->now_us;
	meter_event(f->meter, f->eng->now_us, "interrupt", option_kind_name(f->group[in->group].kind), 1, why);
	rc = engine_schedule(f->eng, &in->doom, doom_us, on_doom);
	if (rc != STATUS_OK) {
		fail_run(f, rc);
		return;
	}
	if (in->state != INSTANCE_DRAINING)
		drain(f, in, "drain");
	fleet_reconcile(f);
}

/*
 * Spot notices to the k running instances (not already under notice) of the listed groups launched last,
 * ties to the highest pool index; each gets its own entry's notice_s and counts as a Spot interruption.
 * One reconcile at the end, so replacements are launched once. O(k x instances of the groups): k is a
 * reclaim's or a trace tick's count, and this runs only at those events.
 */
void fleet_notice_newest(struct fleet *f, const int *groups, int ngroups, int k, const char *why)
{
	f->quiet++;
	while (k-- > 0) {
		struct instance *pick = NULL;
		for (int j = 0; j < ngroups; j++) {
			const struct fleet_group *grp = &f->group[groups[j]];
			for (int i = grp->first; i < grp->first + grp->max; i++) {
				struct instance *in = &f->pool[i];
				if (in->state != INSTANCE_FREE && !in->noticed && (!pick || in->launch_us >= pick->launch_us))
					pick = in;
			}
		}
		if (!pick)
			break;
		meter_count(f->meter, METER_SPOT_INTERRUPTIONS, 1);
		fleet_interrupt(f, pool_index(f, pick), f->eng->now_us + f->group[pick->group].entry->notice_us, why);
	}
	f->quiet--;
	fleet_reconcile(f);
}

void fleet_instance_idle(struct fleet *f, int idx)
{
	struct instance *in = &f->pool[idx];

	assert(in->state == INSTANCE_DRAINING && in->busy == 0);
	if (in->handover)
		fleet_hand_over_done(f, in);
	else
		terminate(f, in);
	fleet_reconcile(f);
}

/* ---- launch failures and retries ---------------------------------------------------------------- */

static void on_retry(struct engine *eng, struct event *ev)
{
	struct fleet *f = container_of(ev, struct fleet, retry);

	(void)eng;
	fleet_reconcile(f);
}

void fleet_launch_failed(struct fleet *f, struct fleet_group *g, const char *why)
{
	const struct scenario *sc = f->sc;
	double backoff = (double)sc->launch_retry.backoff_us * pow(sc->launch_retry.multiplier, g->failures);
	int64_t wait_us = backoff > (double)sc->launch_retry.max_backoff_us ? sc->launch_retry.max_backoff_us :
		(int64_t)backoff;

	meter_count(f->meter, METER_LAUNCH_FAILURES, 1);
	g->failures++;
	g->retry_us = f->eng->now_us + wait_us;
	meter_event(f->meter, f->eng->now_us, "launch_failed", option_kind_name(g->kind), 1, why);
	if (evq_queued(&f->retry)) {
		if (f->retry.t_us <= g->retry_us)
			return;
		engine_cancel(f->eng, &f->retry);
	}
	if (engine_schedule(f->eng, &f->retry, g->retry_us, on_retry) != STATUS_OK)
		fail_run(f, STATUS_ENOMEM);
}

/* Launch one instance in group g if the option lets it; false (and the failure booked) if not. */
static bool try_launch(struct fleet *f, struct fleet_group *g)
{
	char why[160];

	if (f->eng->now_us < g->retry_us || g->live + g->draining >= g->max)
		return false;
	if (!g->ops->queues && fleet_zone_refuses(f, g, why, sizeof why)) {
		fleet_launch_failed(f, g, why);
		return false;
	}
	if (g->ops->can_launch && g->ops->can_launch(f, g, 1, why, sizeof why) != STATUS_OK) {
		fleet_launch_failed(f, g, why);
		return false;
	}
	if (!fleet_take_slot(f, g, false))
		return false;
	g->failures = 0;
	return true;
}

bool fleet_launch_gang(struct fleet *f, struct fleet_group *g, int n, int *idx)
{
	char why[160];
	int got = 0;

	assert(!for_serving(g) && !managed(g) && n >= 1);
	if (f->closed || f->eng->now_us < g->retry_us || g->live + g->draining + n > g->max)
		return false;
	if (!g->ops->queues && fleet_zone_refuses(f, g, why, sizeof why)) {
		fleet_launch_failed(f, g, why);
		return false;
	}
	if (g->ops->can_launch && g->ops->can_launch(f, g, n, why, sizeof why) != STATUS_OK) {
		fleet_launch_failed(f, g, why);
		return false;
	}
	for (int i = g->first; i < g->first + g->max && got < n; i++)
		if (f->pool[i].state == INSTANCE_FREE) {
			idx[got++] = i; /* fleet_take_slot takes the first free slot */
			fleet_take_slot(f, g, false);
		}
	assert(got == n);
	g->failures = 0;
	meter_event(f->meter, f->eng->now_us, "launch", option_kind_name(g->kind), n, "for a job");
	return true;
}

/* ---- allocation ---------------------------------------------------------------------------------- */

enum market { MARKET_ALL, MARKET_ON_DEMAND, MARKET_SPOT };

static bool in_market(const struct fleet_group *g, enum market m)
{
	return g->ops && for_serving(g) && (m == MARKET_ALL || (m == MARKET_SPOT) == g->spot_market);
}

static int market_live(const struct fleet *f, enum market m, bool serving_only)
{
	int n = 0;

	for (int g = 0; g < f->ngroups; g++) {
		const struct fleet_group *grp = &f->group[g];
		if (!in_market(grp, m))
			continue;
		if (!serving_only) {
			n += grp->live * weight(grp);
			continue;
		}
		for (int i = grp->first; i < grp->first + grp->max; i++)
			n += (f->pool[i].state == INSTANCE_SERVING) * weight(grp);
	}
	return n;
}

/* Launch or remove instances of market m until target are live (launching or serving), as far as the
 * options allow. Self-managed groups are neither launched into nor removed from here. Counted in
 * autoscaling's unit: a launch adds its group's weight (it may go past target: the last instance launched
 * is whole), and an instance is removed only if what stays live is still at least target. */
static void adjust(struct fleet *f, enum market m, int target)
{
	int live = market_live(f, m, false);

	for (int g = 0; g < f->ngroups && live < target; g++) {
		struct fleet_group *grp = &f->group[g];
		int launched = 0;
		if (!in_market(grp, m) || managed(grp))
			continue;
		while (live < target && try_launch(f, grp)) {
			launched++;
			live += weight(grp);
		}
		if (launched)
			meter_event(f->meter, f->eng->now_us, "launch", option_kind_name(grp->kind), launched, NULL);
	}
	for (int g = f->ngroups - 1; g >= 0 && live > target; g--) {
		struct fleet_group *grp = &f->group[g];
		if (!in_market(grp, m) || managed(grp))
			continue;
		while (live - weight(grp) >= target && fleet_remove_one(f, grp))
			live -= weight(grp);
	}
}

/* EC2 Auto Scaling mixed instances: base on-demand, then a percentage of the rest on-demand (rounded up:
 * an assumption, see README), the remainder Spot. Returns the Spot part of n. */
static int spot_share(const struct scenario *sc, int n)
{
	int od = n < sc->allocation.on_demand_base ? n : sc->allocation.on_demand_base;

	od += (int)ceil((double)(n - od) * sc->allocation.on_demand_pct / 100.0 - 1e-9);
	return n - od;
}

void fleet_reconcile(struct fleet *f)
{
	const struct scenario *sc = f->sc;
	int n = f->desired, od, spot, shortfall;

	if (f->closed || f->quiet > 0)
		return;
	if (!sc->allocation.mixed) {
		adjust(f, MARKET_ALL, n);
		return;
	}
	spot = spot_share(sc, n);
	od = n - spot;
	adjust(f, MARKET_SPOT, spot);
	shortfall = spot - market_live(f, MARKET_SPOT, true);
	adjust(f, MARKET_ON_DEMAND, od + (sc->allocation.spot_fallback && shortfall > 0 ? shortfall : 0));
}

static int managed_live(const struct fleet *f)
{
	int n = 0;

	for (int g = 0; g < f->ngroups; g++)
		if (managed(&f->group[g]) && for_serving(&f->group[g]))
			n += f->group[g].live * weight(&f->group[g]);
	return n;
}

int fleet_set_desired(struct fleet *f, int n)
{
	int floor = managed_live(f);

	if (n < floor)
		n = floor;
	if (n > fleet_serving_capacity(f))
		n = fleet_serving_capacity(f);
	f->desired = n;
	fleet_reconcile(f);
	return n;
}

/* ---- start and close ----------------------------------------------------------------------------- */

/* Put up to `want` warm instances in group g (at most `cap` of them); returns how many. */
static int place_warm(struct fleet *f, struct fleet_group *g, int want, int cap)
{
	int n = 0;
	char why[160];

	if (fleet_zone_refuses(f, g, why, sizeof why))
		return 0; /* its zone has no capacity at t = 0 */
	if (f->eng->now_us < g->retry_us)
		return 0; /* held off by its option: an ODCR that starts later (option_odcr.c) */
	while (n < want && n < cap && fleet_take_slot(f, g, true))
		n++;
	return n;
}

/*
 * t = 0: reserved instances and blocks already open place themselves (start hooks); then `initial`
 * instances in all other groups, warm: first each group's own count, then, if autoscaling.min asks for
 * more, fleet order up to each group's max.
 */
int fleet_start(struct fleet *f, int initial)
{
	int placed = 0, n[SCENARIO_FLEET_MAX] = { 0 }, rc;

	for (int g = 0; g < f->ngroups; g++) {
		struct fleet_group *grp = &f->group[g];
		if (grp->entry->use == USE_SHARED && (rc = fleet_share_start(f, grp)) != STATUS_OK)
			return rc;
		if (grp->ops && grp->ops->start && (rc = grp->ops->start(f, grp)) != STATUS_OK)
			return rc;
		/* with copies every instance is room for copies, a block's open at t = 0 too */
		bool live = (grp->ops && grp->ops->live_from_start) || (f->managed_initial && managed(grp));
		if (for_serving(grp) && live)
			placed += grp->live * weight(grp);
	}
	if ((rc = fleet_zone_start(f)) != STATUS_OK)
		return rc;
	for (int pass = 0; pass < 2; pass++) {
		/* with a mixed allocation, the second pass fills each market to its share */
		int spot_left = spot_share(f->sc, initial) - market_live(f, MARKET_SPOT, false);
		for (int g = 0; g < f->ngroups && placed < initial; g++) {
			struct fleet_group *grp = &f->group[g];
			int want = initial - placed;
			if (!grp->ops || managed(grp) || !for_serving(grp))
				continue;
			if (pass == 1 && f->sc->allocation.mixed) {
				int sl = spot_left > 0 ? spot_left : 0;
				want = grp->spot_market ? (sl < want ? sl : want) : want - sl;
			}
			/* want is in autoscaling's unit: whole instances enough to cover it */
			int k = place_warm(f, grp, (want + weight(grp) - 1) / weight(grp),
					   pass == 0 ? grp->entry->count : grp->max);
			if (grp->spot_market)
				spot_left -= k * weight(grp);
			n[g] += k;
			placed += k * weight(grp);
		}
	}
	for (int g = 0; g < f->ngroups; g++)
		if (n[g] > 0)
			meter_event(f->meter, 0, "start", option_kind_name(f->group[g].kind), n[g], "in service at t=0");
	f->desired = fleet_live(f);
	return meter_flush(f->meter) == STATUS_OK ? STATUS_OK : f->meter->status;
}

void fleet_add_desired(struct fleet *f, int delta)
{
	fleet_set_desired(f, f->desired + delta);
}

int fleet_count_kind(const struct fleet *f, enum option_kind k)
{
	int n = 0;

	for (int g = 0; g < f->ngroups; g++)
		if (f->group[g].kind == k)
			n += f->group[g].live + f->group[g].draining;
	return n;
}

int fleet_check_capacity(struct fleet *f, struct fleet_group *g, int n, int quota_vcpus, int quota_instances,
			 const char *quota_name, char *why, size_t size)
{
	const struct fleet_entry *e = g->entry;
	int64_t now = f->eng->now_us;
	int rc;

	for (int i = 0; i < e->noutages; i++)
		if (now >= e->outages[i].start_us && now < e->outages[i].end_us) {
			snprintf(why, size, "InsufficientInstanceCapacity (outage window)");
			return STATUS_EINPUT;
		}
	if ((rc = fleet_check_quota(f, g, n, quota_vcpus, quota_instances, quota_name, why, size)) != STATUS_OK)
		return rc;
	if (e->ice_probability > 0 && rng_uniform(g->rng) < e->ice_probability) {
		snprintf(why, size, "InsufficientInstanceCapacity (p = %g per attempt)", e->ice_probability);
		return STATUS_EINPUT;
	}
	return STATUS_OK;
}

int fleet_check_quota(struct fleet *f, struct fleet_group *g, int n, int quota_vcpus, int quota_instances,
		      const char *quota_name, char *why, size_t size)
{
	const struct fleet_entry *e = g->entry;
	const struct scenario_type *t = &f->sc->types[e->type];
	int running = 0, running_vcpus = 0, vcpus = t->vcpus;
	char family = t->family;

	/* instances of the kind running in the same family (with one type: all of them), and their vCPUs */
	for (int i = 0; i < f->ngroups; i++) {
		const struct fleet_group *o = &f->group[i];
		const struct scenario_type *ot = &f->sc->types[o->entry->type];
		if (o->kind != g->kind || ot->family != family)
			continue;
		running += o->live + o->draining + o->deallocated;
		running_vcpus += (o->live + o->draining + o->deallocated) * ot->vcpus;
	}

	/* On-Demand quotas are vCPUs per family group ("Running On-Demand P instances";
	 * SOURCES.md [od-quota-vcpus]) */
	if (quota_vcpus >= 0 && running_vcpus + n * vcpus > quota_vcpus) {
		snprintf(why, size, "quota: %d vCPUs of %s %c instances (%d running x %d vCPUs)", quota_vcpus,
			 quota_name, family - 32, running, vcpus);
		return STATUS_EINPUT;
	}
	running = fleet_count_kind(f, g->kind);
	for (int i = 0; i < f->ngroups; i++)  /* deallocated azure Spot VMs count against the quota */
		running += f->group[i].kind == g->kind ? f->group[i].deallocated : 0;
	if (quota_instances >= 0 && running + n > quota_instances) {
		snprintf(why, size, "quota: %d %s instances", quota_instances, quota_name);
		return STATUS_EINPUT;
	}
	return STATUS_OK;
}

double fleet_cost_rate(const struct fleet *f, int64_t now_us)
{
	double rate = 0;

	for (int g = 0; g < f->ngroups; g++)
		if (f->group[g].ops && f->group[g].ops->rate)
			rate += f->group[g].ops->rate(f, &f->group[g], now_us);
	return rate;
}

void fleet_close(struct fleet *f, int64_t horizon_us)
{
	for (int i = 0; i < f->npool; i++) {
		struct instance *in = &f->pool[i];
		struct fleet_group *g = &f->group[in->group];
		if (in->state == INSTANCE_FREE)
			continue;
		engine_cancel(f->eng, &in->ready);
		engine_cancel(f->eng, &in->notice);
		struct meter_payer pay = payer_of(g, in);
		if (g->ops->ended)  /* the doom is still queued: when it would have been taken */
			g->ops->ended(f, g, in, horizon_us, false, &pay);
		engine_cancel(f->eng, &in->doom);
	}
	for (int g = 0; g < f->ngroups; g++) {
		struct fleet_group *grp = &f->group[g];
		engine_cancel(f->eng, &grp->share);
		engine_cancel(f->eng, &grp->share_warm);
		struct meter_payer pay = {grp->user, grp->entry->type, -1};
		if (grp->entry->use == USE_SHARED)
			pay.jobs_share = fleet_share_jobs_part(f, grp, horizon_us);
		if (grp->ops && grp->ops->close)
			grp->ops->close(f, grp, horizon_us, &pay);
	}
	engine_cancel(f->eng, &f->retry);
	fleet_zone_close(f);
	f->closed = true;
}
