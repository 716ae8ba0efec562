/*
 * scenario_catalog: the instance types a scenario may name (scenario_load.h): each entry of its `catalog:`
 * (a built-in catalogue row changed, or a new type), and the resolution of a type name into a struct
 * instance_type, the scenario's entry first, else the built-in catalogue's row. The serving type
 * (scenario.c) and every further type (scenario_types.c) are resolved here.
 */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "provider.h"
#include "scenario_load.h"
#include "status.h"

#define MAX_VCPUS 4096

static const char *const type_keys[] = { "gpus", "gpu_model", "vcpus", "usd_per_h", "reserved_discount",
	"reserved_3y_discount", "savings_plan_discount", "spot_discount", "cb_usd_per_h", "provider", "sells", NULL };
static const char *const product_names[] = { "capacity_block", "training_plan", "gcp_calendar" };


static const struct yamldoc_bounds price_bounds = { 0, MAX_USD_PER_H, false, false };
static const struct yamldoc_bounds fraction_bounds = { 0, 1, false, true };     /* [0, 1) */

/* The serving type as the built-in catalogue row c describes it. */
static void type_from_catalog(const struct catalog_entry *c, struct instance_type *t)
{
	*t = (struct instance_type){ .gpus = c->gpus, .vcpus = c->vcpus, .od_usd_per_h = c->od_usd_per_h,
				     .reserved_discount = c->reserved_discount,
				     .reserved_3y_discount = c->reserved_3y_discount,
				     .savings_plan_discount = c->savings_plan_discount,
				     .spot_discount = c->spot_discount, .cb_usd_per_h = c->cb_usd_per_h,
				     .provider = c->provider, .sells = c->sells };
}

/* A catalog: entry's `sells`, the time-bound products it is offered as (SOURCES.md [sold-types]): a list of
 * product names, replacing the row's (or, for a new type, the rule's: catalog_sells_by_name). */
static int read_type_sells(struct load *l, const struct yamldoc_ref *e, struct instance_type *t)
{
	struct yamldoc_ref r, v;
	int n, p, rc;

	yamldoc_child(e, "sells", &r);
	if (!r.node)
		return STATUS_OK;
	if ((rc = yamldoc_list(&l->y, &r, 0, 3, "products: capacity_block, training_plan, gcp_calendar", &n)))
		return rc;
	t->sells = 0;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_item(&r, &walk, &v);
		if ((rc = yamldoc_choice(&l->y, &v, product_names, 3, &p)))
			return rc;
		t->sells |= 1u << p;
	}
	return STATUS_OK;
}

/* Why a catalogue row without a price needs one from the scenario (SOURCES.md [gcp-price-unknown],
 * [az-price-unknown]). */
static const char *no_price_why(const struct catalog_entry *c, char *buf, size_t size)
{
	snprintf(buf, size, "the catalogue has no price for %s: no %s list price was found, so the scenario "
		 "must give usd_per_h, the price per instance-hour it pays", c->name, provider_name(c->provider));
	return buf;
}

/* A catalog: entry's `provider`; a built-in row's may not change (it is whose machine type it is). */
static int read_type_provider(struct load *l, const struct yamldoc_ref *e, const struct catalog_entry *base,
			      struct instance_type *t)
{
	struct yamldoc_ref r;
	int p = (int)t->provider, rc;

	yamldoc_child(e, "provider", &r);
	if (!r.node)
		return STATUS_OK;
	if ((rc = yamldoc_choice(&l->y, &r, provider_names, PROVIDER_COUNT, &p)))
		return rc;
	if (base && p != (int)base->provider)
		return yamldoc_fail(&l->y, &r, "%s is %s %s type of the built-in catalogue; expected provider: "
					  "%s (or a new type name)", base->name, provider_article(base->provider),
					  provider_name(base->provider),
					  provider_name(base->provider));
	t->provider = (enum provider)p;
	t->provider_given = true;
	return STATUS_OK;
}

/*
 * Read one entry of the scenario's catalog: map (`name` -> settings) into *t. A type the built-in catalogue
 * has starts from its row; a new type must give gpus and usd_per_h, and has no discounts, no Capacity
 * Block rate and unknown vCPUs (0) unless it says so. What it is sold as (`sells`) is the row's, or for a new
 * type what its name says by the rule of catalog_sells_by_name (a p5-like name sells Capacity Blocks), unless
 * the entry lists it: a planner's assumption, written where a reader sees it.
 */
static int read_type(struct load *l, const struct yamldoc_ref *e, const char *name,
		     struct instance_type *t)
{
	const struct catalog_entry *base = catalog_find(name);
	const char *why = "a new instance type needs gpus and usd_per_h";
	char whybuf[256];
	const struct { const char *key; double *value; const struct yamldoc_bounds *b; } numbers[] = {
		{ "reserved_discount", &t->reserved_discount, &fraction_bounds },
		{ "reserved_3y_discount", &t->reserved_3y_discount, &fraction_bounds },
		{ "savings_plan_discount", &t->savings_plan_discount, &fraction_bounds },
		{ "spot_discount", &t->spot_discount, &fraction_bounds },
		{ "cb_usd_per_h", &t->cb_usd_per_h, &price_bounds },
	};
	struct yamldoc_ref r;
	char model[SCENARIO_NAME_MAX];
	int rc;

	if (strlen(name) >= SCENARIO_NAME_MAX)
		return yamldoc_fail(&l->y, e, "instance type name too long; expected at most %d bytes",
					  SCENARIO_NAME_MAX - 1);
	if ((rc = yamldoc_mapping(&l->y, e, type_keys, NULL, NULL)))
		return rc;
	if (base)
		type_from_catalog(base, t);
	else
		*t = (struct instance_type){ 0 };
	scenario_load_prices_apply(l, name, t);  /* a price list's prices replace the row's */
	yamldoc_child(e, "gpus", &r);
	if ((!base && !r.node && (rc = yamldoc_missing(&l->y, e, "gpus", why))) ||
	    (rc = scenario_load_int(l, &r, 1, MAX_GPUS, &t->gpus)))
		return rc;
	yamldoc_child(e, "usd_per_h", &r);
	if ((!base && !r.node && t->od_usd_per_h == 0 && (rc = yamldoc_missing(&l->y, e, "usd_per_h", why))) ||
	    (base && !r.node && t->od_usd_per_h == 0 &&
	     (rc = yamldoc_missing(&l->y, e, "usd_per_h", no_price_why(base, whybuf, sizeof whybuf)))) ||
	    (rc = yamldoc_number(&l->y, &r, &price_bounds, &t->od_usd_per_h)) ||
	    (rc = read_type_provider(l, e, base, t)))
		return rc;
	if (!base)
		t->sells = catalog_sells_by_name(name, t->provider);
	if ((rc = read_type_sells(l, e, t)))
		return rc;
	for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
		yamldoc_child(e, numbers[i].key, &r);
		if ((rc = yamldoc_number(&l->y, &r, numbers[i].b, numbers[i].value)))
			return rc;
	}
	yamldoc_child(e, "vcpus", &r);
	if ((rc = scenario_load_int(l, &r, 1, MAX_VCPUS, &t->vcpus)))
		return rc;
	yamldoc_child(e, "gpu_model", &r);
	return yamldoc_string(&l->y, &r, model, sizeof model);
}

/* The list of catalogue type names, for the unknown-type message. */
static const char *catalog_names(char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < catalog_count() && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", catalog_at(i)->name);
	return buf;
}

/* Check every entry of `catalog:` and resolve the type (at ref `it`, named `type`) into *out. */
int scenario_load_type(struct load *l, const struct yamldoc_ref *it, const char *type,
		       struct instance_type *out)
{
	struct yamldoc_ref cat, e;
	const struct catalog_entry *base;
	struct instance_type t;
	const char *name;
	bool found = false;
	char names[1024];
	int n, rc;

	if ((rc = scenario_load_prices(l)))
		return rc;
	yamldoc_child(&l->root, "catalog", &cat);
	if ((rc = yamldoc_mapping(&l->y, &cat, NULL, "a mapping of instance type names to "
					"{gpus, gpu_model, vcpus, usd_per_h, reserved_discount, "
					"reserved_3y_discount, savings_plan_discount, spot_discount, "
					"cb_usd_per_h, provider, sells}", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_pair(&cat, &walk, &e, &name);
		if ((rc = read_type(l, &e, name, &t)))
			return rc;
		if (strcmp(name, type) == 0) {
			*out = t;
			found = true;
		}
	}
	if (found)
		return STATUS_OK;
	base = catalog_find(type);
	if (!base)
		return yamldoc_fail(&l->y, it, "unknown instance type '%s'; expected a type from the "
					  "catalogue (%s) or one defined under catalog:", type,
					  catalog_names(names, sizeof names));
	type_from_catalog(base, out);
	scenario_load_prices_apply(l, type, out);
	if (out->od_usd_per_h == 0)
		return yamldoc_fail(&l->y, it, "%s; expected catalog: {%s: {usd_per_h: PRICE}}, or a price list "
					  "under prices: that has it", no_price_why(base, names, sizeof names), type);
	return STATUS_OK;
}

int scenario_load_check_sold(struct load *l, const struct yamldoc_ref *e, unsigned product)
{
	const char *type = l->sc.serving.instance_type, *what = catalog_product_name(product);
	const char *rule = product == SELLS_CALENDAR
				   ? "Google Cloud's calendar-mode reservations are for A3 and newer GPU machine types "
				     "(and TPUs)"
				   : "AWS offers Capacity Blocks and training plans for P-family GPU and Trn instance "
				     "types only";
	struct yamldoc_ref r;

	if (l->type.sells & product)
		return STATUS_OK;
	yamldoc_child(e, "option", &r);
	return yamldoc_fail(&l->y, &r, "%s: %s (SOURCES.md [sold-types]), and %s is not one; expected an "
				  "instance type sold as %s (%s), or catalog: {%s: {sells: [%s]}} to assume it is",
				  what, rule, type, what, product == SELLS_CALENDAR ? "a3-highgpu-8g, ..." :
				  "p5.48xlarge, p4d.24xlarge, trn1.32xlarge, ...", type, what);
}

/* The serving values that come from the instance type (after catalog: overrides). */
void scenario_load_serve_type(struct load *l)
{
	const struct instance_type *t = &l->type;

	l->sc.serving.gpus = t->gpus;
	l->sc.serving.vcpus = t->vcpus;
	l->sc.serving.family = l->sc.serving.instance_type[0];  /* SOURCES.md [od-quota-vcpus] */
	l->sc.serving.od_usd_per_h = t->od_usd_per_h;
	l->sc.serving.reserved_usd_per_h = t->od_usd_per_h * (1.0 - t->reserved_discount);
	l->sc.serving.spot_discount = t->spot_discount;
	l->sc.serving.reserved_3y_discount = t->reserved_3y_discount;
	l->sc.serving.savings_plan_discount = t->savings_plan_discount;
	l->sc.serving.capacity_block_usd_per_h = t->cb_usd_per_h;
}

const struct scenario_load_names scenario_load_type_keys = SCENARIO_LOAD_KEYS(type_keys);
const struct scenario_load_names scenario_load_product_names = { product_names, 3 };
const struct yamldoc_bounds *const scenario_load_type_price = &price_bounds;
const struct yamldoc_bounds *const scenario_load_type_fraction = &fraction_bounds;
