/*
 * pricelist_gcp: Google Cloud's Billing Catalog SKUs (pricelist.h; SOURCES.md [gcp-billing-catalog],
 * [gcp-machine-components]): `gcloud billing skus list --service=6F81-5844-456A --format=json` (a JSON list of
 * SKUs) or the REST API's services.skus.list response ({"skus": [...], "nextPageToken": ...}).
 *
 * Google prices an accelerator-optimized machine by its parts: its GPUs per GPU-hour, its vCPUs per
 * vCPU-hour and its memory per GiB-hour, each a SKU whose description names the part ("Nvidia H100 80GB GPU
 * running in Americas", "A3 Instance Core running in Americas", "A3 Instance Ram running in Americas"). The
 * machine's On-Demand rate is the sum over its parts of count x unit price, with the shapes of the table
 * below and those the caller gives (pricelist_load_gcp; a scenario's `machines`). A SKU prices a part when its usageType is OnDemand, its description starts with the part's text and
 * the region is among its serviceRegions; the first such SKU in the file wins. A machine with some parts
 * found and not others is an error naming the machine, the part and the region (never a part at zero); one
 * with none is not priced by the file.
 *
 * Every SKU is checked, whatever it prices: description, category.usageType, serviceRegions and the first
 * pricingInfo's pricingExpression (usageUnit, tieredRates: the tier starting at 0 is the price; unitPrice
 * in USD, units a string of decimal digits (int64 in proto3 JSON), nanos an integer below 1e9; a field
 * proto3 JSON leaves out is 0). Commit1Yr/Commit3Yr (committed use) and Preemptible (Spot) SKUs are checked
 * and not used: Google names their parts differently ("Commitment v1: A3 Cpu in Americas for 1 Year",
 * "Spot Preemptible A3 Instance Core ..."), so their mapping to machines is not made here (models/README.md,
 * "Price lists"). The list's `published` is the latest effectiveTime of the SKUs used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsondoc.h"
#include "pricejson.h"
#include "status.h"

#define TEXT_MAX 256  /* bytes of a description or usage type kept */
#define NANOS 1000000000L

static const char *const part_names[3] = { "GPU", "vCPU", "memory" };
static const char *const part_units[3] = { "h", "h", "GiBy.h" };

/* The machine-types page gives memory in "GB"; they are taken as GiB, the unit of the RAM SKU's GiBy.h (an
 * assumption, SOURCES.md [gcp-machine-components]). */
static const struct pricelist_machine builtin[] = {
	{ "a3-highgpu-8g", { "Nvidia H100 80GB GPU", "A3 Instance Core", "A3 Instance Ram" }, { 8, 208, 1872 } },
};
#define NBUILTIN ((int)(sizeof builtin / sizeof builtin[0]))
#define NMACHINES (NBUILTIN + PRICELIST_MACHINES_MAX)

/* The reader's state: the machines (built in, then the caller's; one of the same type replaces a built-in
 * one), each machine part's unit price and where its SKU was. */
struct gcp {
	struct pricelist_machine m[NMACHINES];
	int n;
	double price[NMACHINES][3];
	int line[NMACHINES][3];   /* 0: not found */
	char published[PRICELIST_NAME_MAX];
};

/* unitPrice at path into *usd: currencyCode USD, units digits (string), nanos 0..999999999. */
static int read_price(struct pricejson *c, struct fy_node *up, const char *path, double *usd)
{
	struct fy_node *nanos = fy_node_mapping_lookup_value_by_simple_key(up, "nanos", (size_t)-1);
	const char *s = nanos && fy_node_is_scalar(nanos) ? fy_node_get_scalar0(nanos) : NULL;
	char cur[TEXT_MAX], units[32], sub[PRICEJSON_PATH_MAX], got[96];
	long n = 0;
	int rc;

	if ((rc = pricejson_string(c, up, path, "currencyCode", true, cur, sizeof cur)) ||
	    (rc = pricejson_string(c, up, path, "units", false, units, sizeof units)))
		return rc;
	if (strcmp(cur, "USD"))
		return pricejson_fail(c, up, NULL, path, "currencyCode '%s'; expected USD (the API's default "
				      "currency)", cur);
	if (strspn(units, "0123456789") != strlen(units) || strlen(units) > 12)
		return pricejson_fail(c, up, NULL, pricejson_path(sub, path, "units", 0), "'%s'; expected a string "
				      "of at most 12 decimal digits (whole USD)", units);
	if (nanos && (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9 ||
		      fy_node_get_style(nanos) != FYNS_PLAIN || (n = strtol(s, NULL, 10)) >= NANOS))
		return pricejson_fail(c, nanos, up, pricejson_path(sub, path, "nanos", 0), "expected an integer "
				      "from 0 to 999999999 (billionths of a USD), got %s",
				      jsondoc_describe(nanos, got, sizeof got));
	*usd = strtod(units[0] ? units : "0", NULL) + (double)n / NANOS;
	return STATUS_OK;
}

/* The first pricingInfo's unit and the price of its tier starting at 0. */
static int read_pricing(struct pricejson *c, struct fy_node *sku, const char *path, char *unit, double *usd,
			char *when)
{
	char sub[PRICEJSON_PATH_MAX], list[PRICEJSON_PATH_MAX], tpath[PRICEJSON_PATH_MAX], upath[PRICEJSON_PATH_MAX];
	char start[32];
	struct fy_node *infos, *info, *expr, *tiers, *t, *up;
	void *it = NULL;
	int rc, i = 0;

	if ((rc = pricejson_child(c, sku, path, "pricingInfo", 'l', true, "a list of pricing info "
				  "{pricingExpression, effectiveTime}", &infos)))
		return rc;
	pricejson_path(sub, path, "pricingInfo[0]", 0);
	if (!(info = fy_node_sequence_get_by_index(infos, 0)) || !fy_node_is_mapping(info))
		return pricejson_fail(c, info, infos, sub, "expected a pricing info {pricingExpression, "
				      "effectiveTime}");
	if ((rc = pricejson_string(c, info, sub, "effectiveTime", false, when, PRICELIST_NAME_MAX)) ||
	    (rc = pricejson_child(c, info, sub, "pricingExpression", 'm', true, "a mapping {usageUnit, "
				  "tieredRates}", &expr)))
		return rc;
	pricejson_path(sub, path, "pricingInfo[0].pricingExpression", 0);
	if ((rc = pricejson_string(c, expr, sub, "usageUnit", true, unit, TEXT_MAX)) ||
	    (rc = pricejson_child(c, expr, sub, "tieredRates", 'l', true, "a list of tiers {startUsageAmount, "
				  "unitPrice}", &tiers)))
		return rc;
	pricejson_path(list, sub, "tieredRates", 0);
	while ((t = fy_node_sequence_iterate(tiers, &it))) {
		struct fy_node *s = fy_node_mapping_lookup_value_by_simple_key(t, "startUsageAmount", (size_t)-1);

		pricejson_path(tpath, list, NULL, i++);
		if (!fy_node_is_mapping(t))
			return pricejson_fail(c, t, tiers, tpath, "expected a tier {startUsageAmount, unitPrice}");
		snprintf(start, sizeof start, "%s", !s ? "0" : fy_node_is_scalar(s) ? fy_node_get_scalar0(s) : "?");
		if (strspn(start, "0.") != strlen(start))
			continue;  /* a later tier (sustained or bulk use): not the list price */
		if ((rc = pricejson_child(c, t, tpath, "unitPrice", 'm', true, "a mapping {currencyCode, units, "
					  "nanos}", &up)))
			return rc;
		return read_price(c, up, pricejson_path(upath, tpath, "unitPrice", 0), usd);
	}
	return pricejson_fail(c, tiers, expr, list, "no tier with "
			      "startUsageAmount 0; expected the tier the price starts at");
}

/* Is region among the SKU's serviceRegions (each noted for the "no rows for the region" message)? */
static int in_region(struct pricejson *c, struct fy_node *sku, const char *path, bool note, bool *yes)
{
	char list[PRICEJSON_PATH_MAX], sub[PRICEJSON_PATH_MAX], got[96];
	struct fy_node *regions, *r;
	void *it = NULL;
	int rc, i = 0;

	*yes = false;
	if ((rc = pricejson_child(c, sku, path, "serviceRegions", 'l', true, "a list of region names", &regions)))
		return rc;
	pricejson_path(list, path, "serviceRegions", 0);
	while ((r = fy_node_sequence_iterate(regions, &it))) {
		const char *s = fy_node_is_scalar(r) ? fy_node_get_scalar0(r) : NULL;

		if (!s || fy_node_get_style(r) != FYNS_DOUBLE_QUOTED || strlen(s) >= PRICELIST_NAME_MAX)
			return pricejson_fail(c, r, regions, pricejson_path(sub, list, NULL, i),
					      "expected a region name (a string "
					      "under %d bytes), got %s", PRICELIST_NAME_MAX, jsondoc_describe(r, got,
					      sizeof got));
		i++;
		if (note && pricejson_region(c, s))
			*yes = true;
	}
	return STATUS_OK;
}

static int read_sku(struct pricejson *c, struct fy_node *sku, const char *path)
{
	struct gcp *g = c->extra;
	char desc[TEXT_MAX], usage[TEXT_MAX], unit[TEXT_MAX], when[PRICELIST_NAME_MAX], sub[PRICEJSON_PATH_MAX];
	struct fy_node *cat;
	bool match = false, here;
	double usd = 0;
	int rc, line = 0, col;

	if (!fy_node_is_mapping(sku))
		return pricejson_fail(c, sku, NULL, path, "expected a SKU {description, category, serviceRegions, "
				      "pricingInfo}");
	jsondoc_node_pos(sku, &line, &col);
	if ((rc = pricejson_string(c, sku, path, "description", true, desc, sizeof desc)) ||
	    (rc = pricejson_child(c, sku, path, "category", 'm', true, "a mapping {resourceGroup, usageType}",
				  &cat)) ||
	    (rc = pricejson_string(c, cat, pricejson_path(sub, path, "category", 0), "usageType", true, usage,
				   sizeof usage)) ||
	    (rc = read_pricing(c, sku, path, unit, &usd, when)))
		return rc;
	for (int m = 0; m < g->n; m++)
		for (int k = 0; k < 3; k++)
			match |= strncmp(desc, g->m[m].part[k], strlen(g->m[m].part[k])) == 0;
	match &= strcmp(usage, "OnDemand") == 0;
	if ((rc = in_region(c, sku, path, match, &here)) || !match || !here)
		return rc;
	for (int m = 0; m < g->n; m++)
		for (int k = 0; k < 3; k++) {
			if (strncmp(desc, g->m[m].part[k], strlen(g->m[m].part[k])) || g->line[m][k])
				continue;
			if (strcmp(unit, part_units[k]))
				return pricejson_fail(c, sku, NULL, path, "usageUnit '%s' for %s's %s; expected %s",
						      unit, g->m[m].type, part_names[k], part_units[k]);
			g->price[m][k] = usd;
			g->line[m][k] = line ? line : 1;
			if (strcmp(when, g->published) > 0)
				snprintf(g->published, sizeof g->published, "%s", when);
		}
	return STATUS_OK;
}

/* The machines' rows from their parts' prices. */
static int compose(struct pricejson *c, struct gcp *g)
{
	for (int m = 0; m < g->n; m++) {
		struct pricelist_row r = { .kind = PRICELIST_ON_DEMAND };
		int found = 0, rc;

		for (int k = 0; k < 3; k++)
			found += g->line[m][k] != 0;
		if (found == 0)
			continue;
		for (int k = 0; k < 3; k++)
			if (!g->line[m][k])
				return diag_at(c->d, STATUS_EINPUT, c->label, 0, 0, "%s: no OnDemand SKU for its %s "
					       "('%s ...') in region %s; expected one for each of its GPUs, vCPUs and "
					       "memory", g->m[m].type, part_names[k], g->m[m].part[k], c->region);
		snprintf(r.type, sizeof r.type, "%s", g->m[m].type);
		for (int k = 0; k < 3; k++)
			r.usd_per_h += g->m[m].count[k] * g->price[m][k];
		r.line = g->line[m][0];
		if ((rc = pricejson_add(c, &r)))
			return rc;
	}
	snprintf(c->pl->published, sizeof c->pl->published, "%s", g->published);
	return STATUS_OK;
}

int pricelist_gcp_read(struct pricejson *c, struct fy_node *root)
{
	struct gcp g;  /* about 5 kB */
	struct fy_node *n;
	char path[PRICEJSON_PATH_MAX];
	void *it = NULL;
	int rc = STATUS_OK, i = 0;

	memset(&g, 0, sizeof g);
	memcpy(g.m, builtin, sizeof builtin);
	g.n = NBUILTIN;
	for (int k = 0; k < c->nmachines && k < PRICELIST_MACHINES_MAX; k++) {
		int m = 0;

		while (m < g.n && strcmp(g.m[m].type, c->machines[k].type))
			m++;
		g.m[m] = c->machines[k];
		g.n += m == g.n;
	}
	c->extra = &g;
	if (fy_node_is_mapping(root))
		rc = pricejson_each(c, root, "skus", "a list of SKUs, the Cloud Billing Catalog API's response",
				    read_sku);
	else
		while (!rc && (n = fy_node_sequence_iterate(root, &it)))
			rc = read_sku(c, n, pricejson_path(path, "", NULL, i++));
	if (!rc)
		rc = compose(c, &g);
	c->extra = NULL;
	return rc ? rc : pricejson_finish(c, "OnDemand GPU, vCPU and memory SKUs of a machine type");
}
