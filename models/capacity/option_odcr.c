/*
 * option_odcr: On-Demand Capacity Reservations.
 *
 * Rule (SOURCES.md [odcr-od-rate]): an ODCR is "charged at the equivalent On-Demand rate whether you run
 * instances in reserved capacity or not"; launches into it always succeed (the capacity is reserved). The
 * window's cost is count x rate x the hours the reservation is active inside it, and the paid GPU-hours are
 * the whole reservation's; instances running in it cost nothing more. They are launched and scaled like
 * on-demand instances (scaling them in saves nothing, so put the entry early in the fleet order). "Savings
 * Plans ... apply to CRs (used capacity first)" (SOURCES.md [sp-odcr]): the reservation is recorded by clock
 * hour for the settlement (savings.h), split into the capacity instances ran in (launch to termination, or to
 * the horizon) and the rest, and the dollars a plan covers leave the ODCR bill for the plan's.
 *
 * Dates (scenario_odcr.c; models/README.md, "Dated ODCRs"). An entry without `start` and `end` is active over
 * the whole window, as ODCRs always were. Otherwise the reservation exists from entry->start_us to start_us +
 * duration_us (duration_us 0: unlimited, to the horizon), and only then:
 *  - it is billed only while it exists: "billing starts ... once the Capacity Reservation enters the active
 *    state" (SOURCES.md [odcr-fd-start]);
 *  - before its start nothing is launched into it nor placed in it at t = 0 (the group's retry_us holds
 *    launches off until then, fleet.c): the fleet's other entries take the load. At its start its instances
 *    are launched and add to the desired capacity, as a Capacity Block's do when it opens, so that the fleet
 *    moves into the reservation it now pays for; the policy then scales in what is surplus, later entries
 *    first. (gpucap does not move running instances of other entries into it, as AWS's open matching would:
 *    they are other entries' slots.)
 *  - a limited reservation ends at its `end`: AWS cancels it "within an hour" of that time (SOURCES.md
 *    [odcr-end-date]); gpucap ends it at the time given (the bill may be up to an hour short of AWS's). From
 *    then nothing launches into it, and the instances running in it "continue to run uninterrupted"
 *    (SOURCES.md [odcr-end-run-on]): they stay in the fleet and are billed as On-Demand Instances from the
 *    end, per second at the entry's rate, without a new 60 s minimum (they were already running), until
 *    they are scaled in (fleet order: last) or the horizon.
 */
#include "engine.h"
#include "provider.h"
#include "reservation.h"
#include "status.h"

enum { PHASE_OPEN, PHASE_END, PHASE_DONE };

static void on_phase(struct engine *eng, struct event *ev);

/* When the reservation ends, from the scenario start: INT64_MAX when it is unlimited. */
static int64_t odcr_end_us(const struct fleet_entry *e)
{
	return e->duration_us > 0 ? e->start_us + e->duration_us : INT64_MAX;
}

/* A future-dated reservation becomes active: launches may go into it, and its instances are launched. */
static void open_reservation(struct fleet *f, struct fleet_group *g)
{
	g->retry_us = f->eng->now_us;
	g->failures = 0;
	reservation_open(f, g, false, "future-dated capacity reservation starts");
}

/* A limited reservation ends: nothing launches into it any more; its instances run on, On-Demand. */
static void end_reservation(struct fleet *f, struct fleet_group *g)
{
	g->retry_us = INT64_MAX;
	meter_event(f->meter, f->eng->now_us, "odcr_ended", "odcr", g->live + g->draining,
		    "limited capacity reservation ends: its instances run on, billed On-Demand");
}

static void on_phase(struct engine *eng, struct event *ev)
{
	struct fleet_group *g = container_of(ev, struct fleet_group, opt.block.timer);
	struct fleet *f = g->fleet;

	(void)eng;
	if (g->opt.block.phase == PHASE_OPEN) {
		open_reservation(f, g);
		g->opt.block.phase = PHASE_DONE;
		if (g->entry->duration_us > 0)
			reservation_schedule(f, g, PHASE_END, odcr_end_us(g->entry), on_phase);
	} else if (g->opt.block.phase == PHASE_END) {
		end_reservation(f, g);
		g->opt.block.phase = PHASE_DONE;
	}
}

static void odcr_init(struct fleet *f, struct fleet_group *g)
{
	(void)f;
	engine_event_init(&g->opt.block.timer);
	g->opt.block.phase = PHASE_DONE;
}

static int odcr_start(struct fleet *f, struct fleet_group *g)
{
	const struct fleet_entry *e = g->entry;

	if (e->start_us > 0) {
		g->retry_us = e->start_us;  /* no launch, and no instance at t = 0, before it exists */
		reservation_schedule(f, g, PHASE_OPEN, e->start_us, on_phase);
	} else if (e->duration_us > 0) {
		reservation_schedule(f, g, PHASE_END, odcr_end_us(e), on_phase);
	}
	return f->meter->status;
}

/* After a limited reservation's end: [from_us, end_us) of an instance that ran on, billed as an On-Demand
 * Instance already running (no minimum; rounded up to a second if it ended early), at the entry's rate. */
static void bill_run_on(struct fleet *f, struct fleet_group *g, int64_t from_us, int64_t end_us, bool early,
			const struct meter_payer *pay)
{
	double usd, billed_us;

	provider_bill(f->sc->provider, g->usd_per_h, from_us, end_us, early, true, &usd, &billed_us);
	meter_od_usage(f->meter, pay, from_us, from_us + (int64_t)billed_us, g->usd_per_h);
	meter_charge(f->meter, pay, OPTION_ON_DEMAND, 0, billed_us, (double)from_us, (double)from_us + billed_us);
}

static void odcr_ended(struct fleet *f, struct fleet_group *g, struct instance *in, int64_t end_us, bool early,
		       const struct meter_payer *pay)
{
	int64_t until_us = odcr_end_us(g->entry);

	/* the reservation pays for its instances while it exists: no minimum, no rounding */
	if (end_us <= until_us) {
		meter_odcr_used(f->meter, pay, in->launch_us, end_us, g->usd_per_h);
		return;
	}
	if (in->launch_us < until_us)
		meter_odcr_used(f->meter, pay, in->launch_us, until_us, g->usd_per_h);
	bill_run_on(f, g, in->launch_us < until_us ? until_us : in->launch_us, end_us, early, pay);
}

static void odcr_close(struct fleet *f, struct fleet_group *g, int64_t horizon_us, const struct meter_payer *pay)
{
	const struct fleet_entry *e = g->entry;
	int64_t t0 = e->start_us > 0 ? e->start_us : 0, t1 = odcr_end_us(e) < horizon_us ? odcr_end_us(e) : horizon_us;
	int64_t inside = t1 > t0 ? t1 - t0 : 0;
	double hours = (double)inside / SIM_US_PER_H_D, count = e->count;

	engine_cancel(f->eng, &g->opt.block.timer);
	meter_charge(f->meter, pay, OPTION_ODCR, count * g->usd_per_h * hours, count * (double)inside, (double)t0,
		     (double)(t0 + inside));
	if (inside > 0)
		meter_odcr_reserved(f->meter, pay, t0, t0 + inside, count * g->usd_per_h);
}

static double odcr_rate(const struct fleet *f, const struct fleet_group *g, int64_t now_us)
{
	(void)f;
	if (now_us >= odcr_end_us(g->entry))
		return (g->live + g->draining) * g->usd_per_h;  /* its instances run on, On-Demand */
	return now_us < g->entry->start_us ? 0 : g->entry->count * g->usd_per_h;
}

const struct option_ops option_odcr_ops = {
	.init = odcr_init,
	.start = odcr_start,
	.ended = odcr_ended,
	.close = odcr_close,
	.rate = odcr_rate,
};
