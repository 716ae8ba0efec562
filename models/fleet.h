/*
 * fleet: the instances a plan pays for, their life cycle and their bills.
 *
 * Each fleet entry of the scenario is a group: a purchase option with a range of instance slots in one
 * pool. Groups lie in the pool in allocation order, so "lowest pool index" means "first in fleet order";
 * serving relies on this to fill instances in fleet order. A group never holds more than its `max`
 * instances, counting those still draining (an instance is paid for until it terminates).
 *
 * Life cycle: free -> launching (startup_us: boot and model load) -> serving -> draining -> free.
 * Reserved instances and the initial on-demand `count` are serving from t = 0 (already warm when the
 * simulated window opens). fleet_set_desired(n) is the only way capacity changes: it launches in fleet order
 * (reserved before on-demand) and removes in reverse order, never below the reserved count; within a group it
 * first cancels instances still launching (newest first), then drains the serving instance with the fewest
 * busy slots (ties: the highest index). A draining instance takes no new requests and terminates when its
 * last request completes. When an instance terminates and the fleet is below the desired capacity (a group
 * was full of draining instances), the fleet launches again.
 *
 * Bills follow option_bill() (option.h) and go to the meter when an instance terminates, or at
 * fleet_close(horizon) for those still live. After fleet_close nothing launches, becomes ready or is billed.
 */
#ifndef GPUCAP_FLEET_H
#define GPUCAP_FLEET_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "meter.h"
#include "scenario.h"

struct serving;

enum instance_state {
	INSTANCE_FREE,       /* pool slot not in use */
	INSTANCE_LAUNCHING,  /* paid for, not yet serving */
	INSTANCE_SERVING,    /* takes requests */
	INSTANCE_DRAINING    /* finishes its requests, takes no new ones */
};

struct instance {
	enum instance_state state;  /* where it is in its life */
	int group;                  /* fleet entry it belongs to */
	int busy;                   /* slots serving a request (kept by serving) */
	int64_t launch_us;          /* when billing started */
	struct event ready;         /* end of startup */
	struct fleet *fleet;        /* owner, kept */
};

struct fleet_group {
	enum option_kind kind;  /* purchase option */
	int first;              /* its first pool index */
	int max;                /* pool slots it owns */
	int live;               /* launching + serving */
	int draining;           /* draining */
	double usd_per_h;       /* price per instance-hour */
};

struct fleet {
	struct engine *eng;       /* kept */
	struct meter *meter;      /* kept */
	struct serving *serving;  /* kept; told when instances start and stop taking requests */
	struct instance *pool;    /* owned, npool entries */
	int npool;
	struct fleet_group group[SCENARIO_FLEET_MAX];
	int ngroups;
	int64_t startup_us;       /* launch to ready */
	int reserved;             /* instances that can never be removed */
	int desired;              /* capacity asked for (launching + serving) */
	bool closed;              /* past the horizon */
};

/* Build the pool from a validated scenario. STATUS_OK or STATUS_ENOMEM (nothing held). */
int fleet_init(struct fleet *f, const struct scenario *sc, struct engine *eng, struct meter *meter,
	       struct serving *serving);
void fleet_fini(struct fleet *f);

/* Put `initial` instances in service at t = 0 (at least the reserved ones), in fleet order. */
void fleet_start(struct fleet *f, int initial);

/* Ask for n instances (launching + serving); clamped to [reserved, capacity]. Returns the new desired. */
int fleet_set_desired(struct fleet *f, int n);

/* The most instances the fleet can hold (sum of group max). */
int fleet_capacity(const struct fleet *f);

/* Instances launching or serving / serving only. */
int fleet_live(const struct fleet *f);
int fleet_serving(const struct fleet *f);

/* Serving reports that a draining instance has no request left: terminate it. */
void fleet_instance_idle(struct fleet *f, int idx);

/* Bill every live instance up to horizon_us and stop all launches; later terminations are not billed. */
void fleet_close(struct fleet *f, int64_t horizon_us);

#endif
