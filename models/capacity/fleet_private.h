/*
 * fleet_private: what the fleet's own files (fleet.c, fleet_share.c, fleet_zone.c) and the purchase options
 * (option_*.c, reservation.c, option_table.c) share, and nothing else may use. fleet.h is what the fleet's
 * users see (world, serving, copies, jobs); an option sees this too: the ops table it fills in, and the
 * fleet functions it calls back (a plugin interface, as SQLite's VFS).
 */
#ifndef GPUCAP_FLEET_PRIVATE_H
#define GPUCAP_FLEET_PRIVATE_H

/* Private to models/capacity/: the build defines GPUCAP_IN_CAPACITY for that folder's files alone. */
#ifndef GPUCAP_IN_CAPACITY
#error "fleet_private.h is private to models/capacity/ (models/ARCHITECTURE.md)"
#endif

#include "fleet.h"

/*
 * What each purchase option does, one file per option (option_reserved.c, option_ondemand.c,
 * option_spot.c, option_odcr.c, option_block.c, option_plan.c, option_dws.c), registered in one table
 * (option_table.c, option_ops_of). Every hook may be NULL where the option has nothing to do.
 */
struct option_ops {
	/* When the fleet is built: set up the option's own state (struct fleet_group.opt). */
	void (*init)(struct fleet *f, struct fleet_group *g);
	/* At t = 0: schedule the option's own events (a block's window, Spot reclaims). */
	int (*start)(struct fleet *f, struct fleet_group *g);
	/* May n more instances launch now, together (1 for the serving fleet; a job's gang at once)? 0 if so,
	 * else a negative status and the reason in why. */
	int (*can_launch)(struct fleet *f, struct fleet_group *g, int n, char *why, size_t size);
	/* For policies that look before they ask (fleet_available): how many more instances the option's own
	 * capacity would take now (a Spot entry's availability trace, its pool's outage, its max price), drawing
	 * nothing and booking nothing, and in *next_us the next time that may change by itself (INT64_MAX: none
	 * known). NULL: no limit of the option's own, never changing. */
	int (*available)(const struct fleet *f, const struct fleet_group *g, int64_t *next_us);
	/* An instance of the group was launched (Spot: draw its interruption). */
	void (*launched)(struct fleet *f, struct fleet_group *g, struct instance *in);
	/* An instance ended at end_us (terminated early, or still live at the horizon): bill its usage to pay
	 * (the instance's user and type). At the horizon an instance with a notice still has its doom queued
	 * (when it would have been taken). */
	void (*ended)(struct fleet *f, struct fleet_group *g, struct instance *in, int64_t end_us, bool early,
		      const struct meter_payer *pay);
	/* The window closes at the horizon: cancel the option's own events, bill to pay (the group's user and
	 * type, and its jobs' share when shared by time of day) what is paid whether used or not, commitments. */
	void (*close)(struct fleet *f, struct fleet_group *g, int64_t horizon_us, const struct meter_payer *pay);
	/* The group's billing rate now, USD per hour (for the time series). */
	double (*rate)(const struct fleet *f, const struct fleet_group *g, int64_t now_us);
	/* Its zone's capacity is lost now (a zone-wide outage, fleet_zone.c): take the group's running
	 * instances. NULL: each is lost at once (fleet_zone_take(f, g, 0, ...)). */
	void (*zone_lost)(struct fleet *f, struct fleet_group *g, int64_t now_us);
	/* Its zone's capacity is back (the outage's end). NULL: nothing; the group is tried again when its
	 * backoff expires and the fleet needs instances. */
	void (*zone_back)(struct fleet *f, struct fleet_group *g);
	/* True if a zone outage gives its instances a notice instead of taking them at once (Spot): how the
	 * outage's event counts them ("noticed" or "lost"), before zone_lost runs. */
	bool zone_notice;
	/* True if the option alone decides when its instances come and go (reserved instances, Capacity
	 * Blocks): the fleet never launches into it nor scales it in, and its live instances are a floor. */
	bool self_managed;
	/* True if a launch that finds no capacity waits in the option's queue instead of failing at once (DWS
	 * Flex-start): the fleet leaves the zone-outage check to can_launch and the launched hook. */
	bool queues;
	/* True if its instances are the Spot market: a mixed allocation's Spot share, a zone's Spot pools. */
	bool spot_market;
	/* True if start() brings its instances into service at t = 0 for good (reserved instances): they are
	 * part of the initial fleet whatever managed_initial says. */
	bool live_from_start;
	/* True if its instances are taken away at the end of a window (Capacity Blocks, training plans): one
	 * taken while serving requests counts as a block termination (METER_BLOCK_TERMINATIONS). */
	bool window_ends;
};

/* Launch-failure bookkeeping for options: count it, log it, back the group off. */
void fleet_launch_failed(struct fleet *f, struct fleet_group *g, const char *why);

/* Start a warm or launching instance in group g now; false if the group has no free slot. */
bool fleet_take_slot(struct fleet *f, struct fleet_group *g, bool warm);

/* Remove one instance of group g now (cancel a launch or drain); false if it has none live. */
bool fleet_remove_one(struct fleet *f, struct fleet_group *g);

/* The checks on-demand and Spot launches share, for n instances launched together: capacity outage windows,
 * the per-attempt chance of an insufficient-capacity error (one draw per attempt, whatever n), and the
 * account quota (vCPUs or instances, -1 = none) for instances of the group's kind. 0 if the launch may go
 * ahead, else STATUS_EINPUT with the reason in why. */
int fleet_check_capacity(struct fleet *f, struct fleet_group *g, int n, int quota_vcpus, int quota_instances,
			 const char *quota_name, char *why, size_t size);

/* The account quota part of fleet_check_capacity alone (no outage window, no draw). */
int fleet_check_quota(struct fleet *f, struct fleet_group *g, int n, int quota_vcpus, int quota_instances,
		      const char *quota_name, char *why, size_t size);

/* Instances of kind k that are running (launching, serving or draining). */
int fleet_count_kind(const struct fleet *f, enum option_kind k);

/* Change the desired capacity by delta (a Capacity Block opening or draining) and reconcile. */
void fleet_add_desired(struct fleet *f, int delta);

/*
 * use: shared (fleet_share.c). A capacity block or training plan shared by time of day belongs to serving
 * inside the entry's serving hours (UTC) and to jobs outside them. fleet_share_start gives the group its
 * user at t = 0 and schedules every change; at a change each live instance is handed over: a launching one
 * just changes user; one in use drains from its user (serving finishes its requests; jobs get a notice of
 * the entry's notice_s to save a checkpoint and are taken off at its end) and, once idle, comes up for the
 * other user. The serving fleet's desired capacity stays as it was: the other serving entries make up for the
 * reservation while jobs have it, and are scaled in when serving gets it back.
 */
int fleet_share_start(struct fleet *f, struct fleet_group *g);

/* Hand instance `in` over to its group's user (already changed): a launching one just changes user, a serving
 * one drains (from jobs with its doom notice_us from now) and comes up for the new user when idle. Defined in
 * fleet.c, beside the instance life cycle it drives. */
void fleet_hand_over(struct fleet *f, struct instance *in, int64_t notice_us);

/* The share of a shared group's bills that is the jobs' (time they had it inside its window / the window's
 * time inside the simulation), closing the accounts at until_us. */
double fleet_share_jobs_part(struct fleet *f, struct fleet_group *g, int64_t until_us);

/* Finish the handover of instance in (idle, or its notice ran out): it comes up for its group's user.
 * Defined in fleet.c. */
void fleet_hand_over_done(struct fleet *f, struct instance *in);

/*
 * Zones (fleet_zone.c). fleet_zone_stream_name names a group's random streams by what they serve:
 * "fleet.<kind>.<k>" and "startup.<kind>.<k>" for the k-th entry (from 0, fleet order) of its kind (the
 * option, or a provider's own product such as gcp_preemptible) without a zone, "fleet.<kind>.<zone>.<k>"
 * and "startup.<kind>.<zone>.<k>" for the k-th of its kind in a named zone; so adding or deleting an entry
 * of another kind or zone changes no other entry's draws. fleet_zone_init sets up the zones' events and
 * pool streams. STATUS_OK or STATUS_ENOMEM.
 */
void fleet_zone_stream_name(const struct fleet *f, int g, const char *prefix, char *buf, size_t size);
int fleet_zone_init(struct fleet *f);
void fleet_zone_fini(struct fleet *f);

/* At t = 0: schedule each zone's first outage and its Spot pool's first reclaim. */
int fleet_zone_start(struct fleet *f);

/* At the horizon: cancel the zones' events. */
void fleet_zone_close(struct fleet *f);

/* Does group g's zone refuse launches now (a zone-wide outage)? If so the reason is in why. */
bool fleet_zone_refuses(const struct fleet *f, const struct fleet_group *g, char *why, size_t size);

/* For an option's zone_lost hook: give each running instance of g not already under notice (and not a DWS
 * request still waiting for its start) a notice ending notice_us from now, 0 to take it at once (`why` in
 * the event log). Returns how many it noticed. */
int fleet_zone_take(struct fleet *f, struct fleet_group *g, int64_t notice_us, const char *why);
#endif
