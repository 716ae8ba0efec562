/*
 * option_odcr: On-Demand Capacity Reservations.
 *
 * Rule (FACTS.md 3): an ODCR is "charged at the equivalent On-Demand rate whether you run instances in
 * reserved capacity or not"; launches into it always succeed (the capacity is reserved). The window's cost
 * is count x rate x window hours, and the paid GPU-hours are the whole reservation's; instances running in
 * it cost nothing more. They are launched and scaled like on-demand instances (scaling them in saves
 * nothing, so put the entry early in the fleet order). Savings Plans are not applied to ODCRs here (AWS
 * applies them to the used part of a reservation: a simplification, see README).
 */
#include "fleet.h"
#include "status.h"

#define US_PER_H 3.6e9

static void odcr_close(struct fleet *f, struct fleet_group *g, int64_t horizon_us)
{
	double hours = (double)horizon_us / US_PER_H, count = g->entry->count;

	meter_charge(f->meter, OPTION_ODCR, count * g->usd_per_h * hours, count * (double)horizon_us);
}

static double odcr_rate(const struct fleet *f, const struct fleet_group *g, int64_t now_us)
{
	(void)f;
	(void)now_us;
	return g->entry->count * g->usd_per_h;
}

const struct option_ops option_odcr_ops = {
	.close = odcr_close,
	.rate = odcr_rate,
};
