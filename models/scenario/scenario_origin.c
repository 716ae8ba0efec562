/*
 * scenario_origin: where a scenario's instance-type prices come from, for the run summary and the report
 * (models/README.md, "Price lists"). A type priced from a vendor's price list (`prices:`) already has a
 * loader warning "TYPE is priced from FILE ..." naming the file, its region and publication date; every
 * other type takes its On-Demand price from the built-in catalogue (a dated us-east-1 list price) or from the
 * scenario's own `catalog:` keys, and its commitment prices from the catalogue's typical discounts, which
 * are assumptions (SOURCES.md [price-reserved-discount], [price-sp-discount]). The text says which, where the
 * price is printed.
 */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "scenario.h"

bool scenario_price_origin(const struct scenario *sc, int k, char *buf, size_t size)
{
	const struct scenario_type *t = &sc->types[k];
	const struct catalog_entry *e = catalog_find(t->name);
	char key[SCENARIO_NAME_MAX + 24];

	snprintf(key, sizeof key, "%s is priced from ", t->name);
	for (const char *w = sc->warnings; w && (w = strstr(w, key)); w++)
		if (w == sc->warnings || w[-1] == '\n' || w[-1] == ' ')
			return false;  /* the loader's warning names the price list */
	if (e && e->od_usd_per_h > 0 && e->od_usd_per_h == t->od_usd_per_h)
		snprintf(buf, size, "%s On-Demand $%.4g/h: built-in catalogue, us-east-1, observed %s (%s); "
			 "commitment prices the scenario does not give use its typical discounts (assumptions)",
			 t->name, t->od_usd_per_h, e->price_date, e->price_source);
	else
		snprintf(buf, size, "%s On-Demand $%.4g/h: as the scenario gives it (catalog: or the fleet's keys)",
			 t->name, t->od_usd_per_h);
	return true;
}
