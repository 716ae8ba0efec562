/*
 * pricelist_azure: the Azure Retail Prices API's JSON (pricelist.h; SOURCES.md [az-retail-prices-api]).
 *
 * Every item is checked; the rows kept are Virtual Machines items of the region (armRegionName) that are
 * not Windows (productName) and not Spot or Low Priority meters (meterName: those are other products, the
 * Spot price a trace gives): Consumption items as On-Demand rows, Reservation items as reserved rows. A
 * reservation's retailPrice is the price of the whole term, so it becomes an all-upfront row (that price up
 * front) and a no-upfront row (the same total spread over the term's hours: Azure charges nothing extra for
 * monthly payments, SOURCES.md [az-ri-terms]). DevTestConsumption items are skipped.
 */
#include <stdio.h>
#include <string.h>

#include "jsondoc.h"
#include "pricejson.h"
#include "status.h"

#define TEXT_MAX 256  /* bytes of a name kept */
#define HOURS_PER_YEAR 8760.0  /* 365 days, as the reserved option counts a term (option_reserved.c) */

static int read_item(struct pricejson *c, struct fy_node *o, const char *path)
{
	char service[TEXT_MAX], cur[TEXT_MAX], region[PRICELIST_NAME_MAX], type[TEXT_MAX], product[TEXT_MAX];
	char meter[TEXT_MAX], term[TEXT_MAX], unit[TEXT_MAX];
	struct pricelist_row r = { .kind = PRICELIST_ON_DEMAND };
	double price;
	int rc, col;

	if (!fy_node_is_mapping(o))
		return pricejson_fail(c, o, NULL, path, "expected a price item {armSkuName, armRegionName, type, "
				      "retailPrice, ...}");
	jsondoc_node_pos(o, &r.line, &col);
	if ((rc = pricejson_string(c, o, path, "serviceName", false, service, sizeof service)) ||
	    (rc = pricejson_string(c, o, path, "currencyCode", false, cur, sizeof cur)) ||
	    (rc = pricejson_string(c, o, path, "armSkuName", true, r.type, sizeof r.type)) ||
	    (rc = pricejson_string(c, o, path, "armRegionName", true, region, sizeof region)) ||
	    (rc = pricejson_string(c, o, path, "type", true, type, sizeof type)) ||
	    (rc = pricejson_string(c, o, path, "productName", false, product, sizeof product)) ||
	    (rc = pricejson_string(c, o, path, "meterName", false, meter, sizeof meter)) ||
	    (rc = pricejson_string(c, o, path, "reservationTerm", false, term, sizeof term)) ||
	    (rc = pricejson_string(c, o, path, "unitOfMeasure", false, unit, sizeof unit)) ||
	    (rc = pricejson_number(c, o, path, "retailPrice", &price)))
		return rc;
	if (cur[0] && strcmp(cur, "USD") != 0)
		return pricejson_fail(c, o, NULL, path, "currencyCode '%s'; expected USD (the API's default "
				      "currency)", cur);
	if (strcmp(type, "Reservation") == 0) {
		if (strcmp(term, "1 Year") && strcmp(term, "3 Years"))
			return pricejson_fail(c, o, NULL, path, "reservationTerm '%s'; expected 1 Year or 3 Years",
					      term);
		r.kind = PRICELIST_RESERVED;
		r.term_years = term[0] == '1' ? 1 : 3;
	} else if (strcmp(type, "Consumption") == 0) {
		if (strcmp(unit, "1 Hour"))
			return pricejson_fail(c, o, NULL, path, "unitOfMeasure '%s'; expected 1 Hour", unit);
	} else if (strcmp(type, "DevTestConsumption")) {
		return pricejson_fail(c, o, NULL, path, "type '%s'; expected Consumption, Reservation or "
				      "DevTestConsumption", type);
	}
	if ((service[0] && strcmp(service, "Virtual Machines")) || strcmp(type, "DevTestConsumption") == 0 ||
	    strstr(product, "Windows") || strstr(meter, "Spot") || strstr(meter, "Low Priority") ||
	    !pricejson_region(c, region))
		return STATUS_OK;
	if (r.kind == PRICELIST_ON_DEMAND) {
		r.usd_per_h = price;
		return pricejson_add(c, &r);
	}
	r.payment = PRICELIST_ALL_UPFRONT;
	r.upfront_usd = price;
	if ((rc = pricejson_add(c, &r)))
		return rc;
	r.payment = PRICELIST_NO_UPFRONT;
	r.upfront_usd = 0;
	r.usd_per_h = price / (r.term_years * HOURS_PER_YEAR);
	return pricejson_add(c, &r);
}

int pricelist_azure_read(struct pricejson *c, struct fy_node *root)
{
	int rc = pricejson_each(c, root, "Items", "a list of price items, the Azure Retail Prices API's response",
				read_item);

	return rc ? rc : pricejson_finish(c, "Linux Virtual Machines Consumption or Reservation prices");
}
