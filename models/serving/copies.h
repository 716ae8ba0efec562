/*
 * copies: model copies on instances, the second scaling dimension (SageMaker inference components with
 * managed instance scaling; SOURCES.md [sm-ic-copies], [sm-ic-binpack], [sm-ic-idle-release],
 * [sm-ic-scale-in-order], models/README.md "Autoscaling: model copies").
 *
 * The policies scale copies (DesiredCopyCount); the instances follow. A copy needs gpus_per_copy GPUs,
 * an instance holds per_instance copies, and a copy serves serving.slots requests at once. A copy is
 * placed on an instance that is serving, loads for the copy startup delay, then serves: its instance's
 * request slots grow by serving.slots (serving_set_capacity). Copies are the unit every policy metric is
 * divided by (ConcurrentRequestsPerCopy, invocations per copy; meter_copies).
 *
 * Rules, decided here where SageMaker does not document them (models/README.md, "Autoscaling: model copies"):
 * - Placement packs: copies go to the serving instance with room that comes first in pool (fleet) order
 *   (the BINPACK placement strategy of InferenceComponentSchedulingConfig).
 * - Instances follow: when copies wait for room that the instances already asked for (launching ones,
 *   per_instance each) will not give, the fleet is asked for as many more as the rest needs. Copies wait
 *   while the fleet cannot grow (its max, quotas, capacity errors) and are placed when room appears.
 * - Scale-in removes loading copies first (newest first), then serving copies from the instance holding
 *   the fewest (ties: the highest index), so instances empty. A removed copy takes no new request; its
 *   requests in service finish (at the instance level: no new request starts there while its busy slots
 *   are as many as its remaining copies' slots).
 * - An instance with no copy is released at once (ScaleInPolicy IDLE_RELEASE, "releases instances that
 *   have no hosted inference component copies"), launching ones first (newest first), as long as the
 *   instances asked for still hold every copy wanted and stay at or above min_instances. Self-managed
 *   instances (reserved, Capacity Blocks) are never released.
 * - An instance that stops serving (a Spot interruption, a Capacity Block's end, a drain) loses its copies;
 *   they are placed again elsewhere, loading again, and instances are asked for if needed.
 *
 * All copy records are made at init (pool x per_instance); nothing is allocated per event. When an
 * instance goes down inside the fleet, the follow-up (placing its copies again, asking for instances) runs
 * in a separate event at the same time, so the fleet is never re-entered from its own calls.
 */
#ifndef GPUCAP_COPIES_H
#define GPUCAP_COPIES_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "engine.h"
#include "meter.h"
#include "scenario.h"

struct fleet;
struct serving;
struct copies;

enum copy_state {
	COPY_FREE,     /* record not in use */
	COPY_LOADING,  /* placed, loading the model */
	COPY_SERVING   /* takes requests */
};

struct copy {
	enum copy_state state;  /* where it is in its life */
	int64_t placed_us;      /* when it was placed */
	struct event ready;     /* end of loading */
	struct copies *owner;   /* kept */
};

struct copies {
	const struct scenario *sc;  /* kept */
	struct engine *eng;         /* kept */
	struct meter *meter;        /* kept */
	struct fleet *fleet;        /* kept */
	struct serving *serving;    /* kept */
	int per;                    /* copies per instance */
	int npool;                  /* instances in the fleet's pool */
	struct copy *rec;           /* owned, npool x per: instance i's records are rec[i * per ...] */
	int *placed_on;             /* owned, per instance: copies loading or serving there */
	int *serving_on;            /* owned, per instance: copies serving there */
	int desired;                /* copies asked for (DesiredCopyCount) */
	int placed;                 /* copies loading or serving */
	int serving_n;              /* copies serving */
	bool warm;                  /* placements serve at once (at t = 0) */
	gsl_rng *rng;               /* copy startup delays ("copies.startup"), owned */
	struct event settle;        /* a deferred copies_reconcile after an instance went down */
};

/* Set up for the fleet's pool (npool instances). STATUS_OK or STATUS_ENOMEM (nothing held). */
int copies_init(struct copies *c, const struct scenario *sc, struct engine *eng, struct meter *meter,
		struct fleet *fleet, struct serving *serving, int npool);
void copies_fini(struct copies *c);

/* At t = 0, before the fleet starts: `initial` copies wanted, placed warm as instances come up; then the
 * fleet starts the instances they need (at least min_instances). STATUS_OK or the fleet's failure. */
int copies_start(struct copies *c, int initial);

/* Ask for n copies (>= 0): place or remove copies and let the instances follow. Returns n. */
int copies_set_desired(struct copies *c, int n);

/* The fleet: instance idx began serving (place waiting copies there). */
void copies_instance_up(struct copies *c, int idx);

/* The fleet: instance idx stops serving (drained or taken away): its copies are lost, placed again later. */
void copies_instance_down(struct copies *c, int idx);

/* Place waiting copies, ask the fleet for instances they need, release instances holding none. */
void copies_reconcile(struct copies *c);

/* Stop everything at the horizon (pending loads and the deferred reconcile). */
void copies_close(struct copies *c);

#endif
