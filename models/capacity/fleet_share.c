/*
 * fleet_share: a capacity block or training plan shared between serving and jobs by time of day (use: shared),
 * the priority rule of SOURCES.md [share-by-hours]: serving has the reservation's instances inside the entry's
 * serving_hours (UTC, [from, to), wrapping midnight when from > to), jobs outside them.
 *
 * At each change of owner the group's user changes first, then every live instance is handed over
 * (fleet_hand_over): jobs leaving get the entry's notice_s (default 120 s) to save a checkpoint, as a
 * Spot interruption gives, and are taken off at its end; serving finishes the requests in service on each
 * instance (no new ones go there) before the instance comes up for jobs. The serving fleet keeps its
 * capacity through a switch: serving's startup delay (serving.startup_s) before the jobs take the
 * reservation, the desired capacity rises by the reservation's live instances, so the other serving entries
 * launch their replacements in time; at the switch it falls back by as much as the reservation leaves. When
 * serving gets the reservation back, its instances are a floor again and the other entries are scaled in
 * to the same desired capacity, in reverse fleet order. The policy scales as usual, except that it may not
 * scale in between the pre-warm and the switch (it counts the reservation's instances, about to leave).
 *
 * The reservation's bill (paid whether used or not) is split between serving and jobs in proportion to the
 * time each had it inside its window and the simulation (fleet_share_jobs_part).
 */
#include "fleet_private.h"
#include "status.h"

#define US_PER_S INT64_C(1000000)
#define DAY_US (86400 * US_PER_S)

/* Microseconds since the last UTC midnight at simulated time t_us. */
static int64_t time_of_day(const struct fleet *f, int64_t t_us)
{
	int64_t u = (f->sc->start_unix_us + t_us) % DAY_US;

	return u < 0 ? u + DAY_US : u;
}

static bool serving_at(const struct fleet_entry *e, int64_t tod_us)
{
	int64_t from = e->serving_from_s * US_PER_S, to = e->serving_to_s * US_PER_S;

	return from < to ? tod_us >= from && tod_us < to : tod_us >= from || tod_us < to;
}

/* The first change of owner after t_us (strictly later). */
static int64_t next_change(const struct fleet *f, const struct fleet_entry *e, int64_t t_us)
{
	int64_t tod = time_of_day(f, t_us), best = INT64_MAX;
	int64_t marks[2] = { e->serving_from_s * US_PER_S, e->serving_to_s * US_PER_S };

	for (int i = 0; i < 2; i++) {
		int64_t d = marks[i] - tod;
		if (d <= 0)
			d += DAY_US;
		if (d < best)
			best = d;
	}
	return t_us + best;
}

static void on_change(struct engine *eng, struct event *ev);

/* How long jobs have to leave: the entry's notice_s (default 120 s, SOURCES.md [share-by-hours]). */
static int64_t notice_us(const struct fleet_entry *e)
{
	return e->share_notice_us;
}

static void on_warm(struct engine *eng, struct event *ev);

/* Schedule the next change, and serving's pre-warm ahead of it when it goes to the jobs. */
static int schedule_next(struct fleet *f, struct fleet_group *g)
{
	int64_t t = next_change(f, g->entry, f->eng->now_us), warm = t - f->sc->serving.startup_us;
	int rc;

	if (t > f->sc->horizon_us)
		return STATUS_OK;
	if ((rc = engine_schedule(f->eng, &g->share, t, on_change)) != STATUS_OK)
		return rc;
	if (g->user == FLEET_USER_SERVING && f->sc->serving.startup_us > 0)
		rc = engine_schedule(f->eng, &g->share_warm, warm > f->eng->now_us ? warm : f->eng->now_us, on_warm);
	return rc;
}

/* Add the time since the last change to the user who had the group, inside the reservation's window. */
static void account(struct fleet *f, struct fleet_group *g, int64_t until_us)
{
	const struct fleet_entry *e = g->entry;
	int64_t w0 = e->start_us > 0 ? e->start_us : 0, w1 = e->start_us + e->duration_us;
	int64_t a = g->share_since_us > w0 ? g->share_since_us : w0;

	if (w1 > f->sc->horizon_us)
		w1 = f->sc->horizon_us;
	if (until_us < w1)
		w1 = until_us;
	if (w1 > a)
		g->share_us[g->user] += w1 - a;
	g->share_since_us = until_us;
}

double fleet_share_jobs_part(struct fleet *f, struct fleet_group *g, int64_t until_us)
{
	int64_t total;

	account(f, g, until_us);
	total = g->share_us[FLEET_USER_SERVING] + g->share_us[FLEET_USER_JOBS];
	if (total <= 0)
		return g->user == FLEET_USER_JOBS ? 1 : 0;
	return (double)g->share_us[FLEET_USER_JOBS] / (double)total;
}

static int live_count(const struct fleet *f, const struct fleet_group *g)
{
	int n = 0;

	for (int i = g->first; i < g->first + g->max; i++)
		n += f->pool[i].state == INSTANCE_LAUNCHING || f->pool[i].state == INSTANCE_SERVING;
	return n;
}

/* Serving's startup delay before a change to jobs: ask for the reservation's instances again elsewhere. */
static void on_warm(struct engine *eng, struct event *ev)
{
	struct fleet_group *g = container_of(ev, struct fleet_group, share_warm);
	struct fleet *f = g->fleet;

	g->prewarmed = live_count(f, g);
	if (g->share.t_us > f->hold_scale_in_until_us)
		f->hold_scale_in_until_us = g->share.t_us;
	meter_event(f->meter, eng->now_us, "share_prewarm", option_kind_name(g->kind), g->prewarmed,
		    "serving launches replacements before the jobs take the reservation");
	fleet_add_desired(f, g->prewarmed * g->entry->weight);  /* in autoscaling's unit */
}

static void on_change(struct engine *eng, struct event *ev)
{
	struct fleet_group *g = container_of(ev, struct fleet_group, share);
	struct fleet *f = g->fleet;
	int to = serving_at(g->entry, time_of_day(f, eng->now_us)) ? FLEET_USER_SERVING : FLEET_USER_JOBS;
	int moving;

	if (to != g->user) {
		moving = live_count(f, g);
		meter_event(f->meter, eng->now_us, "share_switch", option_kind_name(g->kind), moving,
			    to == FLEET_USER_SERVING ? "serving hours begin" : "serving hours end");
		int back = to == FLEET_USER_JOBS ? (g->prewarmed < moving ? g->prewarmed : moving) : 0;
		account(f, g, eng->now_us);
		f->quiet++; /* one reconcile once every instance has moved */
		g->user = to;
		for (int i = g->first; i < g->first + g->max; i++)
			fleet_hand_over(f, &f->pool[i], notice_us(g->entry));
		f->quiet--;
		g->prewarmed = 0;
		/* the same capacity (less what was asked for ahead), clamped to the new floor, reconciled */
		fleet_set_desired(f, f->desired - back * g->entry->weight);
	}
	if (schedule_next(f, g) != STATUS_OK) {
		meter_fail(f->meter, STATUS_ENOMEM);
		engine_stop(eng);
	}
}

int fleet_share_start(struct fleet *f, struct fleet_group *g)
{
	g->user = serving_at(g->entry, time_of_day(f, 0)) ? FLEET_USER_SERVING : FLEET_USER_JOBS;
	g->share_since_us = 0;
	g->prewarmed = 0;
	return schedule_next(f, g);
}
