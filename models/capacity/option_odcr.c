/*
 * option_odcr: On-Demand Capacity Reservations.
 *
 * Rule (SOURCES.md [odcr-od-rate]): an ODCR is "charged at the equivalent On-Demand rate whether you run
 * instances in reserved capacity or not"; launches into it always succeed (the capacity is reserved). The
 * window's cost is count x rate x window hours, and the paid GPU-hours are the whole reservation's; instances
 * running in it cost nothing more. They are launched and scaled like on-demand instances (scaling them in
 * saves nothing, so put the entry early in the fleet order). "Savings Plans ... apply to CRs (used capacity
 * first)" (SOURCES.md [sp-odcr]): the reservation is recorded by clock hour for the settlement (savings.h),
 * split into the capacity instances ran in (launch to termination, or to the horizon) and the rest, and the
 * dollars a plan covers leave the ODCR bill for the plan's.
 */
#include "engine.h"
#include "fleet_private.h"
#include "status.h"


static void odcr_ended(struct fleet *f, struct fleet_group *g, struct instance *in, int64_t end_us, bool early,
		       const struct meter_payer *pay)
{
	(void)early;  /* the reservation pays for its instances: no minimum, no rounding */
	meter_odcr_used(f->meter, pay, in->launch_us, end_us, g->usd_per_h);
}

static void odcr_close(struct fleet *f, struct fleet_group *g, int64_t horizon_us, const struct meter_payer *pay)
{
	double hours = (double)horizon_us / SIM_US_PER_H_D, count = g->entry->count;

	meter_charge(f->meter, pay, OPTION_ODCR, count * g->usd_per_h * hours, count * (double)horizon_us, 0,
		     (double)horizon_us);
	meter_odcr_reserved(f->meter, pay, 0, horizon_us, count * g->usd_per_h);
}

static double odcr_rate(const struct fleet *f, const struct fleet_group *g, int64_t now_us)
{
	(void)f;
	(void)now_us;
	return g->entry->count * g->usd_per_h;
}

const struct option_ops option_odcr_ops = {
	.ended = odcr_ended,
	.close = odcr_close,
	.rate = odcr_rate,
};
