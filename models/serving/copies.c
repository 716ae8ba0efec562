/* copies: model copies on instances (see copies.h). */
#include "copies.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include "fleet.h"
#include "rng.h"
#include "serving.h"
#include "status.h"

int copies_init(struct copies *c, const struct scenario *sc, struct engine *eng, struct meter *meter,
		struct fleet *fleet, struct serving *serving, int npool)
{
	size_t n = (size_t)(npool > 0 ? npool : 1) * (size_t)sc->copies.per_instance;

	c->sc = sc;
	c->eng = eng;
	c->meter = meter;
	c->fleet = fleet;
	c->serving = serving;
	c->per = sc->copies.per_instance;
	c->npool = npool;
	c->desired = c->placed = c->serving_n = 0;
	c->warm = false;
	engine_event_init(&c->settle);
	c->rec = calloc(n, sizeof *c->rec);
	c->placed_on = calloc(npool > 0 ? (size_t)npool : 1, sizeof *c->placed_on);
	c->serving_on = calloc(npool > 0 ? (size_t)npool : 1, sizeof *c->serving_on);
	c->rng = rng_new(sc->seed, "copies.startup");
	if (!c->rec || !c->placed_on || !c->serving_on || !c->rng) {
		copies_fini(c);
		return STATUS_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		c->rec[i].state = COPY_FREE;
		c->rec[i].owner = c;
		engine_event_init(&c->rec[i].ready);
	}
	return STATUS_OK;
}

void copies_fini(struct copies *c)
{
	free(c->rec);
	free(c->placed_on);
	free(c->serving_on);
	gsl_rng_free(c->rng);
	c->rec = NULL;
	c->placed_on = c->serving_on = NULL;
	c->rng = NULL;
}

static int inst_of(const struct copies *c, const struct copy *cp)
{
	return (int)(cp - c->rec) / c->per;
}

static void fail_run(struct copies *c, int rc)
{
	meter_fail(c->meter, rc);
	engine_stop(c->eng);
}

/* Instance idx's request slots are its serving copies' slots. */
static void update_capacity(struct copies *c, int idx)
{
	serving_set_capacity(c->serving, idx, c->serving_on[idx] * c->sc->serving.slots);
}

static void go_serving(struct copies *c, struct copy *cp)
{
	int idx = inst_of(c, cp);

	cp->state = COPY_SERVING;
	c->serving_on[idx]++;
	c->serving_n++;
	meter_copies(c->meter, c->eng->now_us, +1);
	update_capacity(c, idx);
}

static void on_ready(struct engine *eng, struct event *ev)
{
	struct copy *cp = container_of(ev, struct copy, ready);
	struct copies *c = cp->owner;

	assert(cp->state == COPY_LOADING);
	meter_event(c->meter, eng->now_us, "copy_ready", NULL, 1, NULL);
	go_serving(c, cp);
}

/* Place up to n copies on serving instance idx; returns how many. */
static int place_on(struct copies *c, int idx, int n)
{
	int done = 0;

	for (int j = 0; j < c->per && done < n; j++) {
		struct copy *cp = &c->rec[idx * c->per + j];
		if (cp->state != COPY_FREE)
			continue;
		cp->placed_us = c->eng->now_us;
		c->placed_on[idx]++;
		c->placed++;
		done++;
		if (c->warm) {
			go_serving(c, cp);
			continue;
		}
		cp->state = COPY_LOADING;
		meter_count(c->meter, METER_COPY_LOADS, 1);
		int rc = engine_schedule(c->eng, &cp->ready, c->eng->now_us +
					 fleet_delay_draw(&c->sc->copies.startup, c->rng, c->sc->copies.startup_us),
					 on_ready);
		if (rc != STATUS_OK)
			fail_run(c, rc);
	}
	if (done && !c->warm)
		meter_event(c->meter, c->eng->now_us, "copy_load", NULL, done, NULL);
	return done;
}

/* Take copy cp away now (removed, or its instance went down). */
static void unplace(struct copies *c, struct copy *cp)
{
	int idx = inst_of(c, cp);

	if (cp->state == COPY_SERVING) {
		c->serving_on[idx]--;
		c->serving_n--;
		meter_copies(c->meter, c->eng->now_us, -1);
	} else {
		engine_cancel(c->eng, &cp->ready);
	}
	cp->state = COPY_FREE;
	c->placed_on[idx]--;
	c->placed--;
}

/* The copy to remove first: a loading one (the newest; ties: highest index), else a serving one on the
 * instance with the fewest copies placed (ties: highest index). O(pool x per), only on a scale-in. */
static struct copy *pick_victim(struct copies *c)
{
	struct copy *best = NULL;
	int best_on = 0;

	for (int i = c->npool * c->per - 1; i >= 0; i--) {
		struct copy *cp = &c->rec[i];
		if (cp->state == COPY_LOADING && (!best || best->state != COPY_LOADING ||
						  cp->placed_us > best->placed_us))
			best = cp;
	}
	if (best)
		return best;
	for (int idx = c->npool - 1; idx >= 0; idx--) {
		if (c->serving_on[idx] == 0 || (best && c->placed_on[idx] >= best_on))
			continue;
		for (int j = c->per - 1; j >= 0; j--)
			if (c->rec[idx * c->per + j].state == COPY_SERVING) {
				best = &c->rec[idx * c->per + j];
				best_on = c->placed_on[idx];
				break;
			}
	}
	return best;
}

/* True if pool instance idx is serving requests (an instance of the serving user, not a job's). */
static bool serving_instance(const struct copies *c, int idx)
{
	return c->fleet->pool[idx].state == INSTANCE_SERVING && fleet_serves(c->fleet, idx);
}

/* Instances the fleet has asked for beyond those serving now (launching, or still to launch). */
static int instances_coming(const struct copies *c)
{
	int serving = 0;

	for (int i = 0; i < c->npool; i++)
		serving += serving_instance(c, i);
	return c->fleet->desired > serving ? c->fleet->desired - serving : 0;
}

/* Room for copies on serving instances now. */
static int room_now(const struct copies *c)
{
	int room = 0;

	for (int i = 0; i < c->npool; i++)
		if (serving_instance(c, i))
			room += c->per - c->placed_on[i];
	return room;
}

/* Release one instance that holds no copy: one still to launch (its launches failed), else the newest
 * launching one, else the serving one with the highest index. False if the fleet may release none. */
static bool release_one(struct copies *c)
{
	struct fleet *f = c->fleet;
	int newest = -1, empty = -1, before = f->desired;

	if (fleet_live(f) < f->desired)
		return fleet_set_desired(f, f->desired - 1) < before;
	for (int i = 0; i < c->npool; i++) {
		const struct instance *in = &f->pool[i];
		if (!fleet_may_release(f, i))
			continue;
		if (in->state == INSTANCE_LAUNCHING) {
			if (newest < 0 || in->launch_us >= f->pool[newest].launch_us)
				newest = i;
		} else if (in->state == INSTANCE_SERVING && c->placed_on[i] == 0) {
			empty = i;
		}
	}
	if (newest >= 0)
		return fleet_release(f, newest);
	return empty >= 0 && fleet_release(f, empty);
}

void copies_reconcile(struct copies *c)
{
	struct fleet *f = c->fleet;
	int pending, future;

	if (f->closed)
		return;
	/* place what waits, packing from the first instance in pool order */
	for (int i = 0; i < c->npool && c->placed < c->desired; i++)
		if (serving_instance(c, i) && c->placed_on[i] < c->per)
			place_on(c, i, c->desired - c->placed);
	pending = c->desired - c->placed;
	future = room_now(c) + instances_coming(c) * c->per;
	if (pending > future) {
		fleet_set_desired(f, f->desired + (pending - future + c->per - 1) / c->per);
		return;
	}
	/* IDLE_RELEASE: give back whole instances of room that no copy will need */
	while (future - pending >= c->per && f->desired > c->sc->copies.min_instances && release_one(c))
		future = room_now(c) + instances_coming(c) * c->per;
}

static void on_settle(struct engine *eng, struct event *ev)
{
	(void)eng;
	copies_reconcile(container_of(ev, struct copies, settle));
}

int copies_set_desired(struct copies *c, int n)
{
	int removed = 0;

	c->desired = n;
	while (c->placed > c->desired) {
		struct copy *cp = pick_victim(c);
		int idx;
		assert(cp);
		idx = inst_of(c, cp);
		unplace(c, cp);
		update_capacity(c, idx);
		removed++;
	}
	if (removed)
		meter_event(c->meter, c->eng->now_us, "copy_remove", NULL, removed, NULL);
	copies_reconcile(c);
	return n;
}

int copies_start(struct copies *c, int initial)
{
	int need = (initial + c->per - 1) / c->per, rc;

	if (need < c->sc->copies.min_instances)
		need = c->sc->copies.min_instances;
	c->desired = initial;
	c->warm = true;
	rc = fleet_start(c->fleet, need);
	c->warm = false;
	if (rc == STATUS_OK && c->placed > 0)
		meter_event(c->meter, 0, "start", "copies", c->placed, "in service at t=0");
	if (rc == STATUS_OK)
		copies_reconcile(c);
	return rc;
}

void copies_instance_up(struct copies *c, int idx)
{
	if (c->placed < c->desired)
		place_on(c, idx, c->desired - c->placed);
}

void copies_instance_down(struct copies *c, int idx)
{
	int lost = 0;

	for (int j = 0; j < c->per; j++) {
		struct copy *cp = &c->rec[idx * c->per + j];
		if (cp->state == COPY_FREE)
			continue;
		unplace(c, cp);
		lost++;
	}
	serving_set_capacity(c->serving, idx, 0);
	if (!lost || c->fleet->closed)
		return;
	meter_event(c->meter, c->eng->now_us, "copy_lost", NULL, lost, "its instance stopped serving");
	if (!evq_queued(&c->settle)) {
		int rc = engine_schedule(c->eng, &c->settle, c->eng->now_us, on_settle);
		if (rc != STATUS_OK)
			fail_run(c, rc);
	}
}

void copies_close(struct copies *c)
{
	engine_cancel(c->eng, &c->settle);
	for (int i = 0; i < c->npool * c->per; i++)
		engine_cancel(c->eng, &c->rec[i].ready);
}
