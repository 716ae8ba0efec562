/*
 * option_block: EC2 Capacity Blocks for ML.
 *
 * Rules (SOURCES.md [cb-upfront], [cb-instances-in-window], [cb-warning-40min], [cb-expiry-30min]):
 *  - paid up front for the whole block, used or not ("Capacity Block pricing = reservation fee (charged up
 *    front at purchase time)"): the price is count x usd_per_h x duration, or upfront_usd. The simulated
 *    window bears the share of the block that falls inside it; the share after the horizon is reported as
 *    commitment_after_horizon_usd.
 *  - instances exist only inside the block. They are launched when it starts (startup_s later they serve),
 *    or are already serving at t = 0 when the block began before the window. They add to the fleet's
 *    desired capacity while the block is open.
 *  - "Forty minutes before your Capacity Block reservation ends, you receive another EventBridge event that
 *    tells you that any instances running in the reservation will begin to terminate in 10 minutes", and
 *    "Thirty minutes before the reservation expires, we begin to terminate any instances that are still
 *    running": at end - 40 min the block's instances stop taking requests (the desired capacity drops by
 *    the block's instances, so the policy and the other options take the load). An instance with no
 *    request in service then (idle, or still launching) is released at once, as a drained on-demand
 *    instance is at scale-in; a busy one drains and is released when its last request completes, or, if
 *    it still has requests at end - 30 min, is taken away then (requests in flight requeued or dropped,
 *    serving.on_interrupt). Only these last count in block_terminations. Releasing early changes no
 *    bill: the block is paid for its whole window, so its GPUs count as paid (and idle) to its end.
 * A Google Cloud calendar-mode reservation (`option: gcp_calendar`, SOURCES.md [gcp-calendar-limits]) is
 * simulated here too, billed the same way (whether it is charged used or not is not documented: an
 * assumption), but with no warning: "At the end of the defined duration, the VMs will be terminated", so
 * its VMs are taken at its end, requests in flight included. An Azure block capacity reservation
 * (`option: azure_block`, SOURCES.md [az-block-reservation]) is run the same way: billed for the whole
 * block, and its VMs taken at its end with no warning. What Azure does with a block's VMs when it ends is
 * not in the pages cited: taking them then is an assumption.
 */
#include "reservation.h"

#define WARNING_US (40 * 60 * INT64_C(1000000))
#define TERMINATE_US (30 * 60 * INT64_C(1000000))

enum { PHASE_OPEN, PHASE_DRAIN, PHASE_DONE };

static void on_phase(struct engine *eng, struct event *ev);

/* The expiration warning: idle instances go now, busy ones drain until the termination
 * (SOURCES.md [cb-warning-40min], [cb-expiry-30min]). */
static void drain_block(struct fleet *f, struct fleet_group *g)
{
	if (g->entry->variant == VARIANT_AZURE_BLOCK) {
		meter_event(f->meter, f->eng->now_us, "block_expiring", "capacity_block", g->live,
			    "azure block capacity reservation ends: its VMs are taken (an assumption)");
		reservation_leave(f, g, true, reservation_end_us(g->entry), "azure block reservation ended");
		return;
	}
	if (g->entry->variant == VARIANT_CALENDAR) {
		meter_event(f->meter, f->eng->now_us, "block_expiring", "capacity_block", g->live,
			    "calendar-mode reservation ends: its VMs are terminated");
		reservation_leave(f, g, true, reservation_end_us(g->entry), "calendar reservation ended");
		return;
	}
	meter_event(f->meter, f->eng->now_us, "block_expiring", "capacity_block", g->live,
		    "capacity block ends in 40 min: idle instances go now, busy ones drain (taken in 10 min)");
	reservation_leave(f, g, true, reservation_end_us(g->entry) - TERMINATE_US, "capacity block ending");
}

/* When the block's instances start to leave: the expiration warning, 40 min before the end; a gcp
 * calendar-mode reservation's VMs "will be terminated" at its end (SOURCES.md [gcp-calendar-limits]), and
 * an azure block's are taken then (an assumption, SOURCES.md [az-block-reservation]). */
static int64_t drain_at_us(const struct fleet_entry *e)
{
	return reservation_end_us(e) - (e->variant == VARIANT_NONE ? WARNING_US : 0);
}

static void on_phase(struct engine *eng, struct event *ev)
{
	struct fleet_group *g = container_of(ev, struct fleet_group, opt.block.timer);
	struct fleet *f = g->fleet;

	(void)eng;
	if (g->opt.block.phase == PHASE_OPEN) {
		reservation_open(f, g, false, "capacity block opens");
		reservation_schedule(f, g, PHASE_DRAIN, drain_at_us(g->entry), on_phase);
	} else if (g->opt.block.phase == PHASE_DRAIN) {
		drain_block(f, g);
		g->opt.block.phase = PHASE_DONE;
	}
}

static void block_init(struct fleet *f, struct fleet_group *g)
{
	(void)f;
	engine_event_init(&g->opt.block.timer);
	g->opt.block.phase = PHASE_DONE;
}

static int block_start(struct fleet *f, struct fleet_group *g)
{
	const struct fleet_entry *e = g->entry;
	int64_t drain_at = drain_at_us(e);

	if (e->start_us <= 0 && drain_at > 0) {
		reservation_open(f, g, true, "capacity block open since before t=0");
		reservation_schedule(f, g, PHASE_DRAIN, drain_at, on_phase);
	} else if (e->start_us > 0) {
		reservation_schedule(f, g, PHASE_OPEN, e->start_us, on_phase);
	}
	return f->meter->status;
}

/* Open and before its expiration warning: what a zone's outage takes from it comes back with the zone. */
static bool in_window(const struct fleet_group *g)
{
	return g->opt.block.phase == PHASE_DRAIN;
}

/* A zone outage (fleet_zone.c; models/README.md, "Zones"): in its window the block's instances are lost at once and
 * leave the desired capacity until the zone is back; outside it, nothing runs but what the fleet takes. */
static void block_zone_lost(struct fleet *f, struct fleet_group *g, int64_t now_us)
{
	if (in_window(g))
		reservation_leave(f, g, false, now_us, "zone outage: capacity lost");
	else
		fleet_zone_take(f, g, 0, "zone outage: capacity lost");
}

/* The zone's capacity is back: still in its window, the block launches its instances again (it is paid
 * for whether used or not). */
static void block_zone_back(struct fleet *f, struct fleet_group *g)
{
	if (in_window(g))
		reservation_open(f, g, false, "zone capacity back");
}

const struct option_ops option_block_ops = {
	.init = block_init,
	.start = block_start,
	.close = reservation_close,
	.rate = reservation_rate,
	.zone_lost = block_zone_lost,
	.zone_back = block_zone_back,
	.self_managed = true,
	.window_ends = true,
};
