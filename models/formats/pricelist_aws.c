/*
 * pricelist_aws: the two AWS price lists (pricelist.h): `aws pricing get-products` (the Price List Query
 * API, SOURCES.md [aws-price-list-api]) and `aws ec2 describe-capacity-block-offerings` (SOURCES.md
 * [cb-offerings-api]).
 *
 * get-products: each PriceList element is a product document written as a JSON string; it is parsed on its
 * own, so its messages are placed at the string in the file and give the path inside it. Every product's
 * terms are checked, whatever it is; the rows kept are those of Linux, Shared tenancy, no pre-installed
 * software, capacitystatus Used (the price of a running instance, not of an unused Capacity Reservation),
 * marketoption OnDemand or absent (its CapacityBlock products are left to the offerings file, which has
 * the rate of a block one can buy), in the region asked for.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsondoc.h"
#include "pricejson.h"
#include "status.h"

#define ATTR_MAX 64  /* bytes of an attribute value kept */

/* The product's attributes the filter reads. */
struct product {
	char type[PRICELIST_NAME_MAX], region[PRICELIST_NAME_MAX];
	char os[ATTR_MAX], tenancy[ATTR_MAX], sw[ATTR_MAX], capstatus[ATTR_MAX], market[ATTR_MAX];
	bool compute;  /* productFamily "Compute Instance" */
};

/* The index of s in names (n of them), or -1. */
static int choice(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

static int read_product(struct pricejson *c, struct fy_node *doc, struct product *p)
{
	static const char *const keys[] = { "operatingSystem", "tenancy", "preInstalledSw", "capacitystatus",
					    "marketoption" };
	char *const out[] = { p->os, p->tenancy, p->sw, p->capstatus, p->market };
	struct fy_node *prod, *attr;
	char family[ATTR_MAX];
	int rc;

	if ((rc = pricejson_child(c, doc, "", "product", 'm', true, "a mapping {productFamily, attributes, sku}",
				  &prod)) ||
	    (rc = pricejson_string(c, prod, "product", "productFamily", false, family, sizeof family)))
		return rc;
	p->compute = strcmp(family, "Compute Instance") == 0;
	if (!p->compute)
		return STATUS_OK;  /* hosts, data transfer, IPs ...: no instance price */
	if ((rc = pricejson_child(c, prod, "product", "attributes", 'm', true, "a mapping of attributes "
				  "{instanceType, regionCode, operatingSystem, tenancy, ...}", &attr)) ||
	    (rc = pricejson_string(c, attr, "product.attributes", "instanceType", true, p->type, sizeof p->type)) ||
	    (rc = pricejson_string(c, attr, "product.attributes", "regionCode", true, p->region, sizeof p->region)))
		return rc;
	for (int i = 0; i < 5; i++)
		if ((rc = pricejson_string(c, attr, "product.attributes", keys[i], false, out[i], ATTR_MAX)))
			return rc;
	return STATUS_OK;
}

/* One priceDimensions entry at path: its unit ("Hrs" or, if quantity_ok, "Quantity") and USD price. */
static int read_dimension(struct pricejson *c, struct fy_node *dim, const char *path, bool quantity_ok,
			  double *hourly, double *upfront)
{
	char unit[ATTR_MAX], sub[PRICEJSON_PATH_MAX];
	struct fy_node *ppu;
	double usd;
	int rc;

	if (!fy_node_is_mapping(dim))
		return pricejson_fail(c, dim, NULL, path, "expected a price dimension {unit, pricePerUnit}");
	if ((rc = pricejson_string(c, dim, path, "unit", true, unit, sizeof unit)) ||
	    (rc = pricejson_child(c, dim, path, "pricePerUnit", 'm', true, "a mapping {\"USD\": \"PRICE\"}",
				  &ppu)) ||
	    (rc = pricejson_number(c, ppu, pricejson_path(sub, path, "pricePerUnit", 0), "USD", &usd)))
		return rc;
	if (strcmp(unit, "Hrs") == 0)
		*hourly += usd;
	else if (quantity_ok && strcmp(unit, "Quantity") == 0)
		*upfront += usd;
	else
		return pricejson_fail(c, dim, NULL, pricejson_path(sub, path, "unit", 0), "unknown unit '%s'; "
				      "expected Hrs%s", unit, quantity_ok ? " or Quantity (an upfront fee)" : "");
	return STATUS_OK;
}

/* The terms of one offer: its priceDimensions summed into *hourly and *upfront. */
static int read_dimensions(struct pricejson *c, struct fy_node *term, const char *path, bool reserved,
			   double *hourly, double *upfront)
{
	struct fy_node *dims;
	struct fy_node_pair *pr;
	char sub[PRICEJSON_PATH_MAX], dpath[PRICEJSON_PATH_MAX];
	void *it = NULL;
	int rc, n = 0;

	*hourly = *upfront = 0;
	if ((rc = pricejson_child(c, term, path, "priceDimensions", 'm', true, "a mapping of price dimensions",
				  &dims)))
		return rc;
	pricejson_path(sub, path, "priceDimensions", 0);
	while ((pr = fy_node_mapping_iterate(dims, &it))) {
		const char *key = fy_node_get_scalar0(fy_node_pair_key(pr));

		if ((rc = read_dimension(c, fy_node_pair_value(pr), pricejson_path(dpath, sub, key ? key : "?", 0),
					 reserved, hourly, upfront)))
			return rc;
		n++;
	}
	if (n == 0)
		return pricejson_fail(c, dims, term, sub, "no price dimension; expected at least one");
	return STATUS_OK;
}

/* A Reserved offer's termAttributes into *r. */
static int read_term_attributes(struct pricejson *c, struct fy_node *term, const char *path,
				struct pricelist_row *r)
{
	static const char *const lengths[] = { "1yr", "3yr" }, *const classes[] = { "standard", "convertible" },
			  *const payments[] = { "No Upfront", "Partial Upfront", "All Upfront" };
	static const char *const keys[] = { "LeaseContractLength", "OfferingClass", "PurchaseOption" };
	static const char *const expect[] = { "1yr or 3yr", "standard or convertible",
					      "No Upfront, Partial Upfront or All Upfront" };
	const char *const *names[] = { lengths, classes, payments };
	const int count[] = { 2, 2, 3 };
	char v[ATTR_MAX], sub[PRICEJSON_PATH_MAX], vpath[PRICEJSON_PATH_MAX];
	struct fy_node *ta;
	int rc, got[3];

	if ((rc = pricejson_child(c, term, path, "termAttributes", 'm', true, "a mapping {LeaseContractLength, "
				  "OfferingClass, PurchaseOption}", &ta)))
		return rc;
	pricejson_path(sub, path, "termAttributes", 0);
	for (int k = 0; k < 3; k++) {
		if ((rc = pricejson_string(c, ta, sub, keys[k], true, v, sizeof v)))
			return rc;
		if ((got[k] = choice(v, names[k], count[k])) < 0)
			return pricejson_fail(c, fy_node_mapping_lookup_value_by_simple_key(ta, keys[k], (size_t)-1),
					      ta, pricejson_path(vpath, sub, keys[k], 0), "unknown value '%s'; "
					      "expected %s", v, expect[k]);
	}
	r->term_years = got[0] ? 3 : 1;
	r->convertible = got[1] == 1;
	r->payment = (enum pricelist_payment)got[2];
	return STATUS_OK;
}

/* terms.OnDemand or terms.Reserved (kind): every offer checked, each kept as a row when keep. */
static int read_terms(struct pricejson *c, struct fy_node *terms, const char *key, enum pricelist_kind kind,
		      const struct product *p, bool keep)
{
	struct fy_node *offers;
	struct fy_node_pair *pr;
	char sub[PRICEJSON_PATH_MAX], opath[PRICEJSON_PATH_MAX];
	void *it = NULL;
	int rc;

	if ((rc = pricejson_child(c, terms, "terms", key, 'm', false, "a mapping of offers", &offers)) || !offers)
		return rc;
	pricejson_path(sub, "terms", key, 0);
	while ((pr = fy_node_mapping_iterate(offers, &it))) {
		struct fy_node *term = fy_node_pair_value(pr);
		const char *name = fy_node_get_scalar0(fy_node_pair_key(pr));
		struct pricelist_row r = { .kind = kind, .line = c->row_line };

		pricejson_path(opath, sub, name ? name : "?", 0);
		if (!fy_node_is_mapping(term))
			return pricejson_fail(c, term, NULL, opath, "expected an offer {priceDimensions, ...}");
		if ((kind == PRICELIST_RESERVED && (rc = read_term_attributes(c, term, opath, &r))) ||
		    (rc = read_dimensions(c, term, opath, kind == PRICELIST_RESERVED, &r.usd_per_h, &r.upfront_usd)))
			return rc;
		snprintf(r.type, sizeof r.type, "%s", p->type);
		if (keep && (rc = pricejson_add(c, &r)))
			return rc;
	}
	return STATUS_OK;
}

/* Is this the price of a running Linux instance on shared hardware, bought On-Demand or reserved? */
static bool wanted(const struct product *p)
{
	return p->compute && strcmp(p->os, "Linux") == 0 && strcmp(p->tenancy, "Shared") == 0 &&
	       strcmp(p->sw, "NA") == 0 && strcmp(p->capstatus, "Used") == 0 &&
	       (!p->market[0] || strcmp(p->market, "OnDemand") == 0);
}

/* One product document (the root of a PriceList string). */
static int read_document(struct pricejson *c, struct fy_node *doc)
{
	struct product p = { .compute = false };
	struct fy_node *terms;
	char date[PRICELIST_NAME_MAX];
	bool keep;
	int rc;

	if (!fy_node_is_mapping(doc))
		return pricejson_fail(c, doc, NULL, "", "expected a product document {product, terms, ...}");
	if ((rc = read_product(c, doc, &p)) ||
	    (rc = pricejson_string(c, doc, "", "publicationDate", false, date, sizeof date)))
		return rc;
	if (strcmp(date, c->pl->published) > 0)
		memcpy(c->pl->published, date, sizeof date);
	if (!p.compute)
		return STATUS_OK;
	keep = wanted(&p) && pricejson_region(c, p.region);
	if ((rc = pricejson_child(c, doc, "", "terms", 'm', true, "a mapping {OnDemand, Reserved}", &terms)))
		return rc;
	if ((rc = read_terms(c, terms, "OnDemand", PRICELIST_ON_DEMAND, &p, keep)))
		return rc;
	return read_terms(c, terms, "Reserved", PRICELIST_RESERVED, &p, keep);
}

/* PriceList[i], a JSON string holding a product document. */
static int read_element(struct pricejson *c, struct fy_node *item, int i)
{
	char label[PRICEJSON_PATH_MAX], got[96];
	struct pricejson inner;
	struct jsondoc j;
	const char *s;
	size_t len = 0;
	int rc, line = 1, col = 0;

	jsondoc_node_pos(item, &line, &col);
	if (!fy_node_is_scalar(item) || fy_node_get_style(item) != FYNS_DOUBLE_QUOTED)
		return diag_at(c->d, STATUS_EINPUT, c->label, line, col, "PriceList[%d]: expected a product "
			       "document written as a JSON string (as `aws pricing get-products` prints it), got %s",
			       i, jsondoc_describe(item, got, sizeof got));
	s = fy_node_get_scalar(item, &len);
	snprintf(label, sizeof label, "%s:%d:%d: PriceList[%d] (a JSON document in a string)", c->label, line, col,
		 i);
	if ((rc = jsondoc_load(&j, s ? s : "", len, label, "the price list", c->d)))
		return rc;
	/* messages inside the string: placed at the string, the path prefixed with the element */
	inner = *c;
	snprintf(label, sizeof label, "%s:%d:%d: PriceList[%d]", c->label, line, col, i);
	inner.label = label;
	inner.placed = true;
	inner.row_line = line;
	rc = read_document(&inner, fy_document_root(j.fyd));
	c->cap = inner.cap;
	memcpy(c->regions, inner.regions, sizeof c->regions);
	c->nregions = inner.nregions;
	c->more_regions = inner.more_regions;
	c->priced = inner.priced;
	jsondoc_fini(&j);
	return rc;
}

int pricelist_aws_read(struct pricejson *c, struct fy_node *root)
{
	struct fy_node *list, *item;
	char version[ATTR_MAX];
	void *it = NULL;
	int rc, i = 0;

	if ((rc = pricejson_string(c, root, "", "FormatVersion", false, version, sizeof version)))
		return rc;
	if (version[0] && strcmp(version, "aws_v1") != 0)
		return pricejson_fail(c, fy_node_mapping_lookup_value_by_simple_key(root, "FormatVersion", (size_t)-1),
				      root, "FormatVersion", "unknown version '%s'; expected aws_v1", version);
	if ((rc = pricejson_child(c, root, "", "PriceList", 'l', true, "a list of product documents, the output "
				  "of `aws pricing get-products --service-code AmazonEC2`", &list)))
		return rc;
	while ((item = fy_node_sequence_iterate(list, &it)))
		if ((rc = read_element(c, item, i++)))
			return rc;
	return pricejson_finish(c, "Linux, Shared-tenancy Compute Instance prices");
}

/* ---- Capacity Block offerings ---------------------------------------------------------------------- */

/* The region of an availability zone: the name less its final letters (us-east-1a -> us-east-1). */
static void zone_region(const char *zone, char *region, size_t size)
{
	size_t n = strlen(zone);

	while (n > 0 && islower((unsigned char)zone[n - 1]))
		n--;
	snprintf(region, size, "%.*s", (int)n, zone);
}

/* A count or duration of offering `path` that must be a whole number in [lo, 1e6]. */
static int read_whole(struct pricejson *c, struct fy_node *o, const char *path, const char *key, double lo,
		      bool required, double *v)
{
	char sub[PRICEJSON_PATH_MAX];
	int rc;

	*v = 0;
	if (!required && !fy_node_mapping_lookup_value_by_simple_key(o, key, (size_t)-1))
		return STATUS_OK;
	if ((rc = pricejson_number(c, o, path, key, v)))
		return rc;
	if (*v != floor(*v) || *v < lo || *v > 1e6)
		return pricejson_fail(c, fy_node_mapping_lookup_value_by_simple_key(o, key, (size_t)-1), o,
				      pricejson_path(sub, path, key, 0), "%g; expected a whole number from %g to "
				      "1000000", *v, lo);
	return STATUS_OK;
}

static int read_offering(struct pricejson *c, struct fy_node *o, const char *path)
{
	char zone[PRICELIST_NAME_MAX], region[PRICELIST_NAME_MAX], cur[ATTR_MAX], tenancy[ATTR_MAX];
	struct pricelist_row r = { .kind = PRICELIST_BLOCK };
	double count, hours, minutes, fee;
	int rc, col;

	if (!fy_node_is_mapping(o))
		return pricejson_fail(c, o, NULL, path, "expected an offering {InstanceType, AvailabilityZone, "
				      "InstanceCount, CapacityBlockDurationHours, UpfrontFee, ...}");
	jsondoc_node_pos(o, &r.line, &col);
	if ((rc = pricejson_string(c, o, path, "InstanceType", true, r.type, sizeof r.type)) ||
	    (rc = pricejson_string(c, o, path, "AvailabilityZone", true, zone, sizeof zone)) ||
	    (rc = pricejson_string(c, o, path, "CurrencyCode", false, cur, sizeof cur)) ||
	    (rc = pricejson_string(c, o, path, "Tenancy", false, tenancy, sizeof tenancy)) ||
	    (rc = read_whole(c, o, path, "InstanceCount", 1, true, &count)) ||
	    (rc = read_whole(c, o, path, "CapacityBlockDurationHours", 0, true, &hours)) ||
	    (rc = read_whole(c, o, path, "CapacityBlockDurationMinutes", 0, false, &minutes)) ||
	    (rc = pricejson_number(c, o, path, "UpfrontFee", &fee)))
		return rc;
	if (cur[0] && strcmp(cur, "USD") != 0)
		return pricejson_fail(c, fy_node_mapping_lookup_value_by_simple_key(o, "CurrencyCode", (size_t)-1), o,
				      path, "CurrencyCode '%s'; expected USD", cur);
	if (hours * 60 + minutes <= 0)
		return pricejson_fail(c, o, NULL, path, "a block of no duration; expected "
				      "CapacityBlockDurationHours (and Minutes) > 0");
	zone_region(zone, region, sizeof region);
	if ((tenancy[0] && strcmp(tenancy, "default") != 0) || !pricejson_region(c, region))
		return STATUS_OK;  /* dedicated blocks, other regions */
	r.usd_per_h = fee / (count * (hours + minutes / 60));
	return pricejson_add(c, &r);
}

int pricelist_aws_blocks_read(struct pricejson *c, struct fy_node *root)
{
	int rc = pricejson_each(c, root, "CapacityBlockOfferings", "a list of offerings, the output of `aws ec2 "
				"describe-capacity-block-offerings`", read_offering);

	return rc ? rc : pricejson_finish(c, "default-tenancy Capacity Block offerings");
}
