/*
 * fleet: the instances a plan pays for, their life cycle, where new ones come from, and their bills.
 *
 * Each fleet entry of the scenario is a group: a purchase option with a range of instance slots in one
 * pool. Groups lie in the pool in allocation order, so "lowest pool index" means "first in fleet order";
 * serving relies on this to fill instances in fleet order. A group never holds more than its `max`
 * instances, counting those still draining (an instance is paid for until it terminates). A savings plan
 * holds no instances: it is a discount on on-demand and ODCR usage, applied when the bill is closed (savings.h).
 *
 * Life cycle: free -> launching (startup_us: boot and model load) -> serving -> draining -> free. A
 * draining instance takes no new requests and terminates when its last request completes, or when it is
 * taken away (`doom`: the end of a Spot notice, or 30 minutes before a Capacity Block or a training plan segment ends), whichever
 * comes first; requests still in flight then go back to the queue or are dropped (serving.on_interrupt).
 *
 * Capacity. fleet_set_desired(n) sets how many instances should be launching or serving. Some options
 * manage their instances themselves (reserved instances are live all along; a Capacity Block's instances
 * come at its start, adding to the desired capacity, and leave at its end): the fleet never launches into
 * them nor scales them in, and their live instances are a floor for the desired capacity. The rest are launched in fleet order and removed in reverse order:
 * removal cancels instances still launching first (newest first), then drains the serving instance with
 * the fewest busy slots (ties: the highest index). With allocation strategy `mixed` the desired capacity
 * is split as EC2 Auto Scaling's mixed-instances policy does: the first on_demand_base instances and
 * on_demand_pct percent of the rest (rounded up) come from the on-demand side (reserved, ODCR, blocks,
 * on-demand), the remainder from Spot; a Spot shortfall is filled on-demand when spot_fallback is set.
 * Every count here (desired, live, capacity, initial) is in autoscaling's unit (capacity_unit): an
 * instance counts its entry's weight, 1 for instances, its type's GPUs or slots otherwise; a launch is
 * whole (it may pass the target), and scale-in removes an instance only if what stays is still enough.
 *
 * Launches can fail: an option may refuse (quota, insufficient capacity, no Spot capacity, outside a
 * block's window). A refused group is skipped and retried after a backoff that grows by `multiplier` per
 * consecutive failure up to max_backoff; the fleet then falls through to the next group in order. Every
 * failed attempt is counted (meter.launch_failures) and logged.
 *
 * Users. The fleet knows no user by name: whatever uses an instance (serving with its model copies, or
 * training jobs: jobs.h) registers a struct fleet_user, and each instance belongs to one user, the one its
 * group serves (the fleet entry's `use`). The fleet tells that user when the instance comes up, goes down
 * (drain, notice) and is taken away; the user tells the fleet when a draining instance holds nothing more
 * (fleet_instance_idle). Only instances of serving groups count in the desired capacity and the scaling
 * functions above; a jobs group's instances are launched and retired by the jobs model, one at a time
 * (fleet_launch, fleet_retire).
 *
 * Bills go to the meter through each option's hooks (struct option_ops, fleet_private.h): per instance when it ends
 * (on-demand usage by clock hour, Spot at the price in force), and per group when the window closes
 * (reserved, ODCR and Capacity Blocks: paid whether used or not). After fleet_close nothing launches,
 * becomes ready, is interrupted or is billed.
 */
#ifndef GPUCAP_FLEET_H
#define GPUCAP_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "engine.h"
#include "meter.h"
#include "scenario.h"

struct request;
struct fleet;
struct fleet_group;

/* Who uses instances. */
enum { FLEET_USER_SERVING, FLEET_USER_JOBS, FLEET_USERS };

enum instance_state {
	INSTANCE_FREE,       /* pool slot not in use */
	INSTANCE_LAUNCHING,  /* paid for, not yet serving */
	INSTANCE_SERVING,    /* takes requests */
	INSTANCE_DRAINING    /* finishes its requests, takes no new ones */
};

struct instance {
	enum instance_state state;  /* where it is in its life */
	int group;                  /* fleet entry it belongs to */
	int user;                   /* whose it is: FLEET_USER_SERVING or FLEET_USER_JOBS, set at launch */
	int busy;                   /* slots serving a request (kept by serving) */
	int cap;                    /* request slots it serves now (kept by serving): slots_per_instance,
	                               or with copies its serving copies' slots; busy may exceed it for a
	                               while after a copy is removed */
	struct request *inflight;   /* requests in service on it, a list kept by serving */
	int64_t launch_us;          /* when billing started (a DWS Flex-start request waiting in its queue: when
	                               its VM will start, or INT64_MAX if it never will; option_dws.c) */
	int64_t noticed_us;         /* when that notice was given (when noticed) */
	bool noticed;               /* an interruption notice was given (Spot, block end) */
	bool warm;                  /* in service at t = 0: launched before the window (no 60 s minimum) */
	bool in_service;            /* it has served (counted in the meter's instances in service) */
	bool handover;              /* draining to change user (a shared group's switch, fleet_share.c): when
	                               idle, or at its doom, it goes to its group's user instead of ending */
	struct event ready;         /* end of startup */
	struct event doom;          /* when it is taken away: end of a Spot notice, block termination */
	struct event notice;        /* Spot: when its interruption notice comes (drawn at launch) */
	struct fleet *fleet;        /* owner, kept */
};

struct option_ops;  /* what a purchase option does: fleet_private.h */

struct fleet_group {
	const struct fleet_entry *entry;  /* the scenario's entry, kept */
	const struct option_ops *ops;     /* what the option does */
	enum option_kind kind;            /* purchase option */
	bool spot_market;                 /* true for Spot (the other side of a mixed allocation) */
	int index;                        /* position in the fleet */
	int first;                        /* its first pool index */
	int max;                          /* pool slots it owns */
	int live;                         /* launching + serving */
	int draining;                     /* draining */
	int deallocated;                  /* azure Spot, eviction_policy: deallocate: evicted VMs kept stopped,
	                                     which still count against the quota (option_spot.c) */
	double usd_per_h;                 /* price per instance-hour (Spot: the fixed price when no trace) */
	int failures;                     /* consecutive failed launch attempts */
	int64_t retry_us;                 /* no launch attempt before then (a backoff; or held by its option:
	                                     an ODCR before its start or after its end), nor an instance
	                                     placed at t = 0 */
	int64_t outage_until_us;          /* Spot: pool unavailable until then (after a reclaim) */
	gsl_rng *rng;                     /* the option's stream ("<option>.<index>"), owned */
	gsl_rng *startup_rng;             /* launch delays ("startup.<index>"), owned */
	int user;                         /* whose its instances are now (FLEET_USER_*): from the entry's use */
	union {                           /* the option's own state, set up by its init hook */
		struct {
			struct event timer;   /* the window's next phase */
			int phase;
		} block;                  /* capacity_block and training_plan (reservation.h) */
		struct {
			struct event reclaim; /* the next pool reclaim */
			struct event tick;    /* the next availability-trace tick */
			int next_tick;
			struct event price;   /* the next price-trace change, with an azure max price */
			int next_price;       /* the trace entry to look for it from */
		} spot;
		struct {
			int64_t start_us;     /* the request just allowed: when its VM starts */
			bool fails;           /*   or true: no capacity within max_wait, it fails then */
		} dws;                    /* gcp_dws_flex (option_dws.c) */
	} opt;
	struct event share;               /* use: shared (fleet_share.c): the next change of user */
	struct event share_warm;          /*   serving's replacements launched ahead of a change to jobs */
	int prewarmed;                    /*   instances asked for ahead of that change */
	int64_t share_since_us;           /*   since when the group has had its user */
	int64_t share_us[FLEET_USERS];    /*   time each user had it inside the reservation's window */
	struct fleet *fleet;              /* owner, kept */
};

/*
 * What uses an instance, seen from the fleet. Every hook gets the user's ctx and the instance's pool index.
 */
struct fleet_user {
	/* The instance is ready (or warm at t = 0): it may be given work. */
	void (*up)(void *ctx, int idx);
	/* The instance stops taking work (drained, or under notice until its doom, queued in its `doom` event):
	 * finish or save what runs on it. An instance whose busy is 0 when down returns is let go at once;
	 * otherwise set busy to 0 and call fleet_instance_idle when nothing is left. Called only for an
	 * instance that was up. */
	void (*down)(void *ctx, int idx);
	/* The instance is taken away now (its doom): whatever still runs on it is lost. */
	void (*reclaim)(void *ctx, int idx);
	void *ctx;
};

/*
 * One Spot pool of a zone: the zone's Spot entries of one instance type (fleet_zone.c; SOURCES.md
 * [zone-spot-pool]). Its reclaims take instances of those entries only.
 */
struct fleet_spot_pool {
	int zone;                   /* index in sc->zones */
	int type;                   /* index in sc->types */
	struct event reclaim;       /* the pool's next reclaim (when its entries have reclaims) */
	gsl_rng *rng;               /* its reclaims ("spot_pool.<zone>" for the serving type, types[0];
	                               "spot_pool.<zone>.<type>" for another), owned; NULL when it has none */
	struct fleet *fleet;        /* owner, kept */
};

/*
 * One availability zone of the scenario (fleet_zone.c; models/README.md, "Zones"): its zone-wide outages and its Spot
 * pools, one per instance type. Entries without a zone are in no struct fleet_zone and behave as they
 * always have.
 */
struct fleet_zone {
	int index;                  /* in sc->zones */
	struct event outage;        /* the start of its next outage */
	struct event back;          /* the end of the outage under way: Capacity Blocks relaunch */
	int next_outage;            /* index of that outage in sc->zones[index].outages */
	struct fleet_spot_pool pool[SCENARIO_TYPES_MAX];  /* by type (index in sc->types) */
	struct fleet *fleet;        /* owner, kept */
};

struct fleet {
	const struct scenario *sc;  /* kept */
	struct engine *eng;         /* kept */
	struct meter *meter;        /* kept */
	struct fleet_user user[FLEET_USERS];  /* who is told when instances come and go; hooks may be NULL */
	bool managed_initial;       /* self-managed instances count toward fleet_start's `initial` (with model
	                               copies every instance is room for copies, a block's open at t = 0 too) */
	struct instance *pool;      /* owned, npool entries */
	int npool;
	struct fleet_group group[SCENARIO_FLEET_MAX];
	int ngroups;
	int64_t startup_us;         /* launch to ready */
	int desired;                /* capacity asked for (launching + serving) */
	bool closed;                /* past the horizon */
	int64_t hold_scale_in_until_us;  /* no policy scale-in before then: serving's replacements for a shared
	                                    reservation are launching (fleet_share.c) */
	int quiet;                  /* > 0: changes are being made in a batch; reconcile once at the end */
	struct event retry;         /* the next backoff expiry, to try failed launches again */
	struct fleet_zone zone[SCENARIO_ZONES_MAX];  /* sc->nzones of them */
};

/* What an entry buys: its option's ops (NULL for a savings plan, which holds no instances). The fleet is
 * handed the table, rather than naming it, so that it sits beneath the options that use it: a run passes
 * option_ops_of (option_table.c), a test its own fake. */
typedef const struct option_ops *fleet_ops_of_fn(const struct fleet_entry *e);
const struct option_ops *option_ops_of(const struct fleet_entry *e);

/* Build the pool from a validated scenario, each entry's option from ops_of. STATUS_OK or STATUS_ENOMEM
 * (nothing held). */
int fleet_init(struct fleet *f, const struct scenario *sc, struct engine *eng, struct meter *meter,
	       fleet_ops_of_fn *ops_of);

/* Register what uses the instances of one kind (FLEET_USER_*); the hooks are copied. */
void fleet_set_user(struct fleet *f, int which, const struct fleet_user *u);

/* True if instance idx belongs to the serving user. */
bool fleet_serves(const struct fleet *f, int idx);

/* Launch n instances in group g at once for the jobs model (a jobs group the fleet does not manage itself),
 * all or nothing: true with their pool indices in idx[0..n-1]; false, nothing launched, if the group is
 * backing off or lacks n free slots, or the option refused the n together (counted, logged and backed off as
 * a failed launch). */
bool fleet_launch_gang(struct fleet *f, struct fleet_group *g, int n, int *idx);
void fleet_fini(struct fleet *f);

/* At t = 0: each option starts its own events (reserved instances and open blocks go live), then `initial`
 * instances of the other groups, warm: each group's count first, then fleet order. STATUS_OK or a failure. */
int fleet_start(struct fleet *f, int initial);

/* Ask for n instances (launching + serving), in autoscaling's unit (capacity_unit: instances by default);
 * clamped to [self-managed live, capacity]. Returns the new desired capacity. */
int fleet_set_desired(struct fleet *f, int n);

/* The most instances the fleet can hold (sum of group max, all users). */
int fleet_capacity(const struct fleet *f);

/* The most serving may hold: the serving groups' max, in autoscaling's unit (each instance its weight). */
int fleet_serving_capacity(const struct fleet *f);

/* Instances launching or serving, serving groups only, in autoscaling's unit (each instance its weight). */
int fleet_live(const struct fleet *f);

/* Instances paid for now (launching, serving or draining; the meter's live count) whose user is `user`
 * (FLEET_USER_*), a shared entry's counted with whoever has them now. O(pool): for the samples only. */
int fleet_live_of(const struct fleet *f, int user);

/* Serving reports that a draining instance has no request left: terminate it. */
void fleet_instance_idle(struct fleet *f, int idx);

/* Take instance idx out of service now and have it taken away at doom_us (>= now): an interruption
 * notice. `why` names the cause in the event log. The fleet launches a replacement in allocation order. */
void fleet_interrupt(struct fleet *f, int idx, int64_t doom_us, const char *why);

/* Give a Spot interruption notice (each its entry's notice_s, counted in spot_interruptions) to the k
 * running instances not under notice of groups[0 .. ngroups) (borrowed; in ascending order) launched last
 * (ties: the highest pool index), then reconcile once. Fewer if fewer are running. */
void fleet_notice_newest(struct fleet *f, const int *groups, int ngroups, int k, const char *why);

/* May instance idx be released on its own (fleet_release)? True if it is launching or serving in a group
 * the fleet manages (not reserved instances nor a Capacity Block's). */
bool fleet_may_release(const struct fleet *f, int idx);

/* Release instance idx now and lower the desired capacity by one: a launching instance is cancelled, a
 * serving one drains. False (nothing done) unless fleet_may_release. For copies' IDLE_RELEASE. */
bool fleet_release(struct fleet *f, int idx);

/* Take instance idx of any group out of service now, leaving the desired capacity alone: a launching one is
 * cancelled (`why` goes to the event log), a serving one drains and terminates at once if it has no request
 * in service, else when its last one completes. For an option ending its own instances (a Capacity Block's
 * idle instances at the expiration warning). Nothing happens to a free or draining instance, or after
 * fleet_close. */
void fleet_retire(struct fleet *f, int idx, const char *why);

/* One launch or load delay drawn from d with rng; DELAY_DEFAULT gives default_us. */
int64_t fleet_delay_draw(const struct delay_dist *d, gsl_rng *rng, int64_t default_us);

/*
 * What a job policy that looks before it asks may know (a controller polling the cloud's capacity, as the
 * Can't Be Late prototype does): how many more instances entry g could launch now as far as its own slots,
 * its zone's outages and its option's capacity go (a Spot entry's availability trace, pool outage and max
 * price), ignoring quotas, the chance of an insufficient-capacity error and any backoff; it draws nothing
 * and books nothing. *next_us (may be NULL): the next time that may change by itself (the trace's next tick,
 * the outage's end; INT64_MAX: none known). fleet_probe.c.
 */
int fleet_available(const struct fleet *f, int g, int64_t *next_us);

/* Bring the fleet to the desired capacity again (after a change of what can launch). */
void fleet_reconcile(struct fleet *f);

/* The fleet's billing rate now, USD per hour. */
double fleet_cost_rate(const struct fleet *f, int64_t now_us);

/* Bill every live instance up to horizon_us, close every group's window, and stop all launches. */
void fleet_close(struct fleet *f, int64_t horizon_us);

/* True if group g's option alone decides when its instances come and go (reserved instances, Capacity
 * Blocks, training plans): the fleet never launches into it nor scales it in. */
bool fleet_group_self_managed(const struct fleet_group *g);

#endif
