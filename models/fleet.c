/* fleet: see fleet.h. */
#include "fleet.h"

#include <assert.h>
#include <stdlib.h>

#include "serving.h"
#include "status.h"

int fleet_init(struct fleet *f, const struct scenario *sc, struct engine *eng, struct meter *meter,
	       struct serving *serving)
{
	int n = 0;

	f->eng = eng;
	f->meter = meter;
	f->serving = serving;
	f->ngroups = sc->nfleet;
	f->startup_us = sc->serving.startup_us;
	f->reserved = 0;
	f->desired = 0;
	f->closed = false;
	for (int g = 0; g < sc->nfleet; g++) {
		const struct fleet_entry *e = &sc->fleet[g];
		struct fleet_group *grp = &f->group[g];
		grp->kind = e->option;
		grp->first = n;
		grp->max = e->option == OPTION_RESERVED ? e->count : e->max;
		grp->live = 0;
		grp->draining = 0;
		grp->usd_per_h = e->usd_per_h;
		if (e->option == OPTION_RESERVED)
			f->reserved += e->count;
		n += grp->max;
	}
	f->npool = n;
	f->pool = calloc(n > 0 ? (size_t)n : 1, sizeof *f->pool);
	if (!f->pool)
		return STATUS_ENOMEM;
	for (int g = 0; g < f->ngroups; g++) {
		for (int i = 0; i < f->group[g].max; i++) {
			struct instance *in = &f->pool[f->group[g].first + i];
			in->state = INSTANCE_FREE;
			in->group = g;
			in->fleet = f;
			engine_event_init(&in->ready);
		}
	}
	return STATUS_OK;
}

void fleet_fini(struct fleet *f)
{
	free(f->pool);
	f->pool = NULL;
	f->npool = 0;
}

int fleet_capacity(const struct fleet *f)
{
	return f->npool;
}

int fleet_live(const struct fleet *f)
{
	int n = 0;

	for (int g = 0; g < f->ngroups; g++)
		n += f->group[g].live;
	return n;
}

int fleet_serving(const struct fleet *f)
{
	int n = 0;

	for (int i = 0; i < f->npool; i++)
		n += f->pool[i].state == INSTANCE_SERVING;
	return n;
}

static int pool_index(const struct fleet *f, const struct instance *in)
{
	return (int)(in - f->pool);
}

static void go_serving(struct fleet *f, struct instance *in)
{
	in->state = INSTANCE_SERVING;
	meter_in_service(f->meter, f->eng->now_us, +1);
	serving_instance_up(f->serving, pool_index(f, in));
}

static void on_ready(struct engine *eng, struct event *ev)
{
	struct instance *in = container_of(ev, struct instance, ready);
	struct fleet *f = in->fleet;

	assert(in->state == INSTANCE_LAUNCHING);
	meter_event(f->meter, eng->now_us, "ready", option_kind_name(f->group[in->group].kind), 1, NULL);
	go_serving(f, in);
}

/* Take a free slot of group g into service (warm) or into launching; false if the group is full. */
static bool take_slot(struct fleet *f, int g, bool warm)
{
	struct fleet_group *grp = &f->group[g];

	for (int i = grp->first; i < grp->first + grp->max; i++) {
		struct instance *in = &f->pool[i];
		if (in->state != INSTANCE_FREE)
			continue;
		in->launch_us = f->eng->now_us;
		in->busy = 0;
		grp->live++;
		meter_live(f->meter, f->eng->now_us, grp->kind, +1, grp->usd_per_h);
		if (warm) {
			go_serving(f, in);
		} else {
			in->state = INSTANCE_LAUNCHING;
			f->meter->launches++;
			int rc = engine_schedule(f->eng, &in->ready, f->eng->now_us + f->startup_us, on_ready);
			if (rc != STATUS_OK) {
				meter_fail(f->meter, rc);
				engine_stop(f->eng);
			}
		}
		return true;
	}
	return false;
}

static void bill(struct fleet *f, struct instance *in, int64_t end_us, bool early)
{
	const struct fleet_group *grp = &f->group[in->group];
	double usd = 0, billed_us = 0;

	if (option_bill(grp->kind, grp->usd_per_h, in->launch_us, end_us, early, &usd, &billed_us) == STATUS_OK)
		meter_charge(f->meter, grp->kind, usd, billed_us);
}

static void terminate(struct fleet *f, struct instance *in)
{
	struct fleet_group *grp = &f->group[in->group];

	if (in->state == INSTANCE_DRAINING)
		grp->draining--;
	else
		grp->live--;
	if (in->state == INSTANCE_SERVING || in->state == INSTANCE_DRAINING)
		meter_in_service(f->meter, f->eng->now_us, -1);
	engine_cancel(f->eng, &in->ready);
	in->state = INSTANCE_FREE;
	if (f->closed)
		return;
	bill(f, in, f->eng->now_us, true);
	meter_live(f->meter, f->eng->now_us, grp->kind, -1, grp->usd_per_h);
	f->meter->terminations++;
	meter_event(f->meter, f->eng->now_us, "terminate", option_kind_name(grp->kind), 1, NULL);
}

void fleet_start(struct fleet *f, int initial)
{
	int placed = 0;

	for (int g = 0; g < f->ngroups; g++) {
		struct fleet_group *grp = &f->group[g];
		int want = grp->kind == OPTION_RESERVED ? grp->max : initial - placed;
		int n = 0;
		while (n < want && take_slot(f, g, true))
			n++;
		placed += n;
		if (n > 0)
			meter_event(f->meter, 0, "start", option_kind_name(grp->kind), n, "in service at t=0");
	}
	f->desired = placed;
}

static void add(struct fleet *f, int n)
{
	for (int g = 0; g < f->ngroups && n > 0; g++) {
		int launched = 0;
		while (n > 0 && take_slot(f, g, false)) {
			launched++;
			n--;
		}
		if (launched)
			meter_event(f->meter, f->eng->now_us, "launch", option_kind_name(f->group[g].kind),
				    launched, NULL);
	}
}

/* The instance of group g to remove first: a launching one (newest), else the least busy serving one. */
static struct instance *pick_victim(struct fleet *f, int g)
{
	const struct fleet_group *grp = &f->group[g];
	struct instance *best = NULL;

	for (int i = grp->first + grp->max - 1; i >= grp->first; i--) {
		struct instance *in = &f->pool[i];
		if (in->state == INSTANCE_LAUNCHING && (!best || in->launch_us > best->launch_us ||
							best->state != INSTANCE_LAUNCHING))
			best = in;
		else if (in->state == INSTANCE_SERVING && (!best || (best->state == INSTANCE_SERVING &&
								      in->busy < best->busy)))
			best = in;
	}
	return best;
}

static void remove_one(struct fleet *f, struct instance *in)
{
	struct fleet_group *grp = &f->group[in->group];

	if (in->state == INSTANCE_LAUNCHING) {
		meter_event(f->meter, f->eng->now_us, "cancel", option_kind_name(grp->kind), 1,
			    "launch cancelled before ready");
		terminate(f, in);
		return;
	}
	in->state = INSTANCE_DRAINING;
	grp->live--;
	grp->draining++;
	serving_instance_down(f->serving, pool_index(f, in));
	meter_event(f->meter, f->eng->now_us, "drain", option_kind_name(grp->kind), 1, NULL);
	if (in->busy == 0)
		terminate(f, in);
}

static void shrink(struct fleet *f, int n)
{
	for (int g = f->ngroups - 1; g >= 0 && n > 0; g--) {
		if (f->group[g].kind == OPTION_RESERVED)
			continue; /* reserved instances are paid for regardless: never scaled in */
		struct instance *in;
		while (n > 0 && (in = pick_victim(f, g)) != NULL) {
			remove_one(f, in);
			n--;
		}
	}
}

static void reconcile(struct fleet *f)
{
	int live = fleet_live(f);

	if (f->closed)
		return;
	if (f->desired > live)
		add(f, f->desired - live);
	else if (f->desired < live)
		shrink(f, live - f->desired);
}

int fleet_set_desired(struct fleet *f, int n)
{
	if (n < f->reserved)
		n = f->reserved;
	if (n > f->npool)
		n = f->npool;
	f->desired = n;
	reconcile(f);
	return n;
}

void fleet_instance_idle(struct fleet *f, int idx)
{
	struct instance *in = &f->pool[idx];

	assert(in->state == INSTANCE_DRAINING && in->busy == 0);
	terminate(f, in);
	reconcile(f);
}

void fleet_close(struct fleet *f, int64_t horizon_us)
{
	for (int i = 0; i < f->npool; i++) {
		struct instance *in = &f->pool[i];
		if (in->state == INSTANCE_FREE)
			continue;
		engine_cancel(f->eng, &in->ready);
		bill(f, in, horizon_us, false);
	}
	f->closed = true;
}
