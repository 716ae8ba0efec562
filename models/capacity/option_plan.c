/*
 * option_plan: one segment (Reserved Capacity) of a SageMaker training plan. The loader expands a plan
 * into one fleet entry per segment (scenario_plan.c), so each group here is one segment.
 *
 * Rules (SOURCES.md [tp-upfront], [tp-expiry-30min], [tp-expiry-notice], [cb-instances-in-window]):
 *  - paid up front for the whole segment, used or not, exactly as a Capacity Block (reservation.c): the
 *    price is count x usd_per_h x duration, or the segment's upfront_usd; the window bears its share and
 *    the share after the horizon is commitment_after_horizon_training_plan_usd.
 *  - instances exist only inside the segment: launched at its start (startup later they are up), or
 *    already up at t = 0 when it began before the window. A segment used for serving adds them to the
 *    fleet's desired capacity while open; one used for jobs gives them to the jobs user and leaves the
 *    desired capacity alone (the fleet's group->user).
 *  - "You have full access to all reserved instances until 30 minutes before the Reserved Capacity end
 *    time. When there are 30 minutes remaining ... begin the process of terminating any running
 *    instances": every instance still there at end - 30 min is taken away then (its doom).
 *  - a job can read the expiry time (SAGEMAKER_CURRENT_CAPACITY_BLOCK_EXPIRATION_TIMESTAMP) and save a
 *    checkpoint first: at end - 30 min - expiry_notice (the entry's `expiry_notice`, default 10 min, an
 *    assumption) every instance up gets an interruption notice whose doom is end - 30 min
 *    (fleet_interrupt: it stops taking work, its user saves or finishes what runs on it, and it may go
 *    earlier when it holds nothing, fleet_instance_idle). An instance still launching then is cancelled:
 *    it would never be up. A serving segment's instances leave the desired capacity at the notice, so the
 *    policy and the other options take the load. There is no 40-minute EventBridge warning as for blocks.
 *  - a segment whose notice came before t = 0 holds nothing in the window (it is still billed its share).
 */
#include "reservation.h"

#define TERMINATE_US (30 * 60 * INT64_C(1000000))

enum { PHASE_OPEN, PHASE_NOTICE, PHASE_DONE };

static int64_t doom_us(const struct fleet_entry *e)
{
	return reservation_end_us(e) - TERMINATE_US;
}

static int64_t notice_us(const struct fleet_entry *e)
{
	return doom_us(e) - e->notice_us;
}

static void on_phase(struct engine *eng, struct event *ev);

/* The notice: every instance stops taking work and is taken at end - 30 min (SOURCES.md [tp-expiry-30min],
 * [tp-expiry-notice]). */
static void notice_plan(struct fleet *f, struct fleet_group *g)
{
	meter_event(f->meter, f->eng->now_us, "plan_expiring", "training_plan", g->live,
		    "training plan segment: instances taken 30 min before its end");
	reservation_leave(f, g, false, doom_us(g->entry), "training plan segment ending");
}

static void on_phase(struct engine *eng, struct event *ev)
{
	struct fleet_group *g = container_of(ev, struct fleet_group, opt.block.timer);
	struct fleet *f = g->fleet;

	(void)eng;
	if (g->opt.block.phase == PHASE_OPEN) {
		reservation_open(f, g, false, "training plan segment opens");
		reservation_schedule(f, g, PHASE_NOTICE, notice_us(g->entry), on_phase);
	} else if (g->opt.block.phase == PHASE_NOTICE) {
		notice_plan(f, g);
		g->opt.block.phase = PHASE_DONE;
	}
}

static void plan_init(struct fleet *f, struct fleet_group *g)
{
	(void)f;
	engine_event_init(&g->opt.block.timer);
	g->opt.block.phase = PHASE_DONE;
}

static int plan_start(struct fleet *f, struct fleet_group *g)
{
	const struct fleet_entry *e = g->entry;

	if (e->start_us <= 0 && notice_us(e) > 0) {
		reservation_open(f, g, true, "training plan segment open since before t=0");
		reservation_schedule(f, g, PHASE_NOTICE, notice_us(e), on_phase);
	} else if (e->start_us > 0) {
		reservation_schedule(f, g, PHASE_OPEN, e->start_us, on_phase);
	}
	return f->meter->status;
}

const struct option_ops option_plan_ops = {
	.init = plan_init,
	.start = plan_start,
	.close = reservation_close,
	.rate = reservation_rate,
	.self_managed = true,
	.window_ends = true,
};
