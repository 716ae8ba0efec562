/*
 * scenario_price: what a fleet entry pays and buys, shared by the option readers (scenario_fleet.c for
 * reserved, odcr and savings_plan; scenario_spot.c, scenario_block.c, scenario_plan.c): an entry's
 * `usd_per_h`, a bought `count`, and the bounds prices, rates, upfront payments and fractions are read with.
 * Beneath the option readers: it calls only the small readers (scenario_read.c) and yamldoc.
 */
#include "scenario_load.h"
#include "status.h"

#define MAX_UPFRONT_USD 1e10             /* a 3-year all-upfront p5 is about 1.4e6 per instance */

static const struct yamldoc_bounds price_bounds = { 0, MAX_USD_PER_H, false, false };
static const struct yamldoc_bounds rate_bounds = { 0, MAX_USD_PER_H, true, false };  /* (0, max] */
static const struct yamldoc_bounds upfront_bounds = { 0, MAX_UPFRONT_USD, false, false };
static const struct yamldoc_bounds fraction_bounds = { 0, 1, false, true };  /* [0, 1) */

/* usd_per_h of an entry (*f->usd_per_h holds the default). */
int scenario_load_entry_price(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref r;

	yamldoc_child(e, "usd_per_h", &r);
	f->price_given = r.node != NULL;
	return yamldoc_number(&l->y, &r, &price_bounds, &f->usd_per_h);
}

/* A required instance count in [lo, hi]; the entry holds exactly that many (max = count). A count of 0 is
 * allowed for reserved, odcr and capacity_block so that a sweep can vary it down to nothing: the entry then
 * buys nothing and costs nothing (its price is ignored). */
int scenario_load_bought(struct load *l, const struct yamldoc_ref *e, int lo, int hi, const char *what,
			 struct fleet_entry *f)
{
	struct yamldoc_ref r;
	int rc;

	if ((rc = scenario_load_required(l, e, "count", what, &r)) ||
	    (rc = scenario_load_int(l, &r, lo, hi, &f->count)))
		return rc;
	f->max = f->count;
	return STATUS_OK;
}

const struct yamldoc_bounds *const scenario_load_price = &price_bounds;
const struct yamldoc_bounds *const scenario_load_rate = &rate_bounds;
const struct yamldoc_bounds *const scenario_load_upfront = &upfront_bounds;
const struct yamldoc_bounds *const scenario_load_fraction = &fraction_bounds;
