/*
 * scenario_fleet: the fleet half of the scenario loader (see scenario_load.h and scenario.h).
 *
 * Each fleet entry names a purchase option, and each option has its own keys; a key of another option is
 * refused with "KEY does not apply to OPTION; expected one of: ..." so that a price or a limit is never
 * silently ignored. Defaults come from the serving instance type (the catalogue after the scenario's
 * catalog: overrides). The rules each option follows are cited from models/SOURCES.md by ID where the numbers
 * come from AWS documentation, and called assumptions where they do not.
 *
 * This file holds the list, the key tables, and the reserved, odcr and savings_plan entries. The on_demand
 * and spot entries are read in scenario_spot.c (Spot entries may name trace files, read while loading so
 * that a malformed trace fails the load like a malformed key), capacity blocks in scenario_block.c, the
 * top-level quotas, launch_retry and allocation in scenario_limits.c.
 */
#include <stdio.h>
#include <string.h>

#include "provider.h"
#include "scenario_load.h"
#include "status.h"
#include "units.h"

#define TERM_1Y_H 8760.0                 /* 365 days (SOURCES.md [ri-terms]: 31,536,000 s) */
#define TERM_3Y_H 26280.0                /* 1095 days */
#define PARTIAL_UPFRONT_SHARE 0.5        /* an assumption (SOURCES.md [ri-partial-upfront-split]) */

static const struct yamldoc_bounds commit_bounds = { 0, 1e6, false, false };  /* 0: none (a what-if) */

/* The keys of each option, in the order messages list them. */
static const char *const reserved_keys[] = { "option", "scope", "count", "usd_per_h", "term", "payment",
	"upfront_usd", "term_start", "use", "instance_type", NULL };
static const char *const on_demand_keys[] = { "option", "count", "max", "usd_per_h", "ice_probability",
	"ice_outages", "startup", "use", "zone", "instance_type", "max_wait_s", NULL };
static const char *const spot_keys[] = { "option", "count", "max", "discount", "usd_per_h", "price_trace",
	"price_zone", "interruptions_per_hour", "interruption_band", "availability_trace", "notice_s",
	"reclaims_per_day", "reclaim_fraction", "outage_mean_s", "ice_probability", "ice_outages", "startup", "use",
	"zone", "instance_type", "max_usd_per_h", "eviction_policy", "disk_usd_per_h", NULL };
static const char *const odcr_keys[] = { "option", "count", "usd_per_h", "startup", "use", "zone", "instance_type",
	"start", "end", "commitment_duration", NULL };
static const char *const savings_plan_keys[] = { "option", "commit_usd_per_h", "discount", "rates", "term",
	"term_start", NULL };
static const char *const capacity_block_keys[] = { "option", "start", "duration", "end", "count",
	"usd_per_h", "upfront_usd", "startup", "use", "serving_hours", "notice_s", "zone", "instance_type",
	"requested", NULL };
static const char *const training_plan_keys[] = { "option", "usd_per_h", "segments", "expiry_notice", "startup",
	"use", "serving_hours", "notice_s", "instance_type", NULL };
static const char *const *const option_keys[OPTION_KIND_COUNT] = { [OPTION_RESERVED] = reserved_keys,
	[OPTION_ON_DEMAND] = on_demand_keys, [OPTION_SPOT] = spot_keys, [OPTION_ODCR] = odcr_keys,
	[OPTION_CAPACITY_BLOCK] = capacity_block_keys, [OPTION_TRAINING_PLAN] = training_plan_keys };
/* `commitments` entries: a regional reserved instance and a Savings Plan */
static const char *const commit_reserved_keys[] = { "option", "count", "usd_per_h", "term", "payment",
	"upfront_usd", "term_start", "instance_type", NULL };
static const char *const *const commit_keys[OPTION_KIND_COUNT] = { [OPTION_RESERVED] = commit_reserved_keys,
	[OPTION_SAVINGS_PLAN] = savings_plan_keys };
static const char *const scope_names[] = { "zonal" };

static const char *const term_names[] = { "1y", "3y" };
static const char *const payment_names[] = { "no_upfront", "partial_upfront", "all_upfront" };

/* ---- helpers ------------------------------------------------------------------------------------ */

/* `term` (1y | 3y; absent: *term unchanged) and `term_start` (default the scenario start). */
static int read_term(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref r;
	int t = f->term == TERM_3Y, rc;

	yamldoc_child(e, "term", &r);
	if ((rc = yamldoc_choice(&l->y, &r, term_names, 2, &t)))
		return rc;
	if (r.node)
		f->term = t ? TERM_3Y : TERM_1Y;
	f->term_start_unix_us = l->sc.start_unix_us;
	yamldoc_child(e, "term_start", &r);
	return scenario_load_time(l, &r, &f->term_start_unix_us);
}

/* ---- reserved, odcr, savings_plan --------------------------------------------------------------- */

/*
 * reserved. The effective rate E = od x (1 - d), d the 1- or 3-year discount, split by the payment option
 * (SOURCES.md [ri-payment]: All Upfront has "no hourly charges", Partial Upfront is an upfront part plus a
 * discounted hourly rate, No Upfront is hourly only); the upfront part pays for the whole term of H hours. An
 * explicit usd_per_h or upfront_usd replaces its part. RIs come only with "one-year or three-year commitment"
 * (SOURCES.md [ri-no-term]), so an entry without `term` is a 1-year No Upfront term from the scenario start,
 * like a savings_plan's; `payment`, `upfront_usd` and `term_start` still need an explicit `term`.
 */
/*
 * The payments each provider sells for `reserved` (provider.h): gcp's committed use discounts "require no
 * upfront costs" (SOURCES.md [gcp-cud-terms]): no_upfront only; azure's reserved VM instances are paid "up
 * front or with monthly payments" (SOURCES.md [az-ri-terms]): no partial_upfront. r is the `payment` key.
 */
static int check_payment(struct load *l, const struct yamldoc_ref *r, enum payment_kind payment)
{
	if (l->sc.provider == PROVIDER_GCP && payment != PAYMENT_NO_UPFRONT)
		return yamldoc_fail(&l->y, r, "a gcp committed use discount requires no upfront costs "
					  "(SOURCES.md [gcp-cud-terms]); expected payment: no_upfront");
	if (l->sc.provider == PROVIDER_AZURE && payment == PAYMENT_PARTIAL_UPFRONT)
		return yamldoc_fail(&l->y, r, "azure reserved VM instances are paid up front or monthly "
					  "(SOURCES.md [az-ri-terms]); expected payment: all_upfront or no_upfront");
	return STATUS_OK;
}

static int read_reserved(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	static const double upfront_share[] = { [PAYMENT_NO_UPFRONT] = 0,
		[PAYMENT_PARTIAL_UPFRONT] = PARTIAL_UPFRONT_SHARE, [PAYMENT_ALL_UPFRONT] = 1 };
	struct yamldoc_ref r;
	int payment = PAYMENT_NO_UPFRONT, rc;
	double rate, hours, share;

	if ((rc = scenario_load_bought(l, e, 0, MAX_INSTANCES, "the number of reserved instances", f)) ||
	    (rc = scenario_load_only_with(l, e, "payment", "term")) || (rc = scenario_load_only_with(l, e, "upfront_usd", "term")) ||
	    (rc = scenario_load_only_with(l, e, "term_start", "term")))
		return rc;
	f->term = TERM_1Y;
	if ((rc = read_term(l, e, f)))
		return rc;
	yamldoc_child(e, "payment", &r);
	if ((rc = yamldoc_choice(&l->y, &r, payment_names, 3, &payment)))
		return rc;
	f->payment = (enum payment_kind)payment;
	if ((rc = check_payment(l, &r, f->payment)))
		return rc;
	rate = l->type.od_usd_per_h * (1.0 - (f->term == TERM_1Y ? l->type.reserved_discount
							       : l->type.reserved_3y_discount));
	hours = f->term == TERM_1Y ? TERM_1Y_H : TERM_3Y_H;
	share = upfront_share[f->payment];
	f->upfront_usd = share * rate * hours;
	f->usd_per_h = (1.0 - share) * rate;
	if (l->type.ri[f->term == TERM_3Y][f->payment].given) {  /* the offer of a price list (scenario_prices.c) */
		f->upfront_usd = l->type.ri[f->term == TERM_3Y][f->payment].upfront_usd;
		f->usd_per_h = l->type.ri[f->term == TERM_3Y][f->payment].usd_per_h;
	}
	yamldoc_child(e, "upfront_usd", &r);
	if ((rc = yamldoc_number(&l->y, &r, scenario_load_upfront, &f->upfront_usd)))
		return rc;
	return scenario_load_entry_price(l, e, f);
}

/* odcr: "charged at the equivalent On-Demand rate whether you run instances in reserved capacity or not"
 * (SOURCES.md [odcr-od-rate]), so the default rate is the on-demand price. Its dates (start, end,
 * commitment_duration) are read in scenario_odcr.c. */
static int read_odcr(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	const char *type = l->sc.serving.instance_type;
	struct yamldoc_ref r;
	int rc;

	yamldoc_child(e, "option", &r);
	if (!provider_reservable(l->sc.provider, type))
		return yamldoc_fail(&l->y, &r, "Azure on-demand capacity reservations do not support %s "
					  "(\"Support for other VM series isn't currently available: ND-series, NCads "
					  "H100 v5-series\", SOURCES.md [az-cr-excluded]); expected a supported size "
					  "such as Standard_NC24ads_A100_v4, or another option", type);
	rc = scenario_load_bought(l, e, 0, MAX_INSTANCES, "the number of instances the reservation holds", f);

	f->usd_per_h = l->sc.serving.od_usd_per_h;
	if (rc || (rc = scenario_load_entry_price(l, e, f)))
		return rc;
	return scenario_load_odcr_dates(l, e, f);
}

/* The index of type `name` in the scenario's types, or -1. */
static int type_index(const struct load *l, const char *name)
{
	for (int t = 0; t < l->sc.ntypes; t++)
		if (strcmp(l->sc.types[t].name, name) == 0)
			return t;
	return -1;
}

/*
 * savings_plan `rates`: instance type -> Savings Plans rate, USD per instance-hour. Every rate is checked;
 * the serving type's is required and sets `discount` (1 - rate / od); a rate for another type of the
 * scenario (serving.types) sets that type's discount (SOURCES.md [sp-highest-discount]); a rate for a type
 * the scenario does not hold is not used. A rate may not exceed its type's on-demand price.
 */
static int read_rates(struct load *l, const struct yamldoc_ref *rates, struct fleet_entry *f)
{
	const char *type = l->sc.serving.instance_type, *name;
	double od = l->sc.serving.od_usd_per_h, rate = 0, v;
	struct yamldoc_ref r;
	bool found = false;
	int n, rc;

	if ((rc = yamldoc_mapping(&l->y, rates, NULL, "a mapping of instance types to Savings Plans "
					"rates in USD per instance-hour", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		int t;
		yamldoc_next_pair(rates, &walk, &r, &name);
		if ((rc = yamldoc_number(&l->y, &r, scenario_load_rate, &v)))
			return rc;
		if (strcmp(name, type) != 0) {
			double od_t;
			if ((t = type_index(l, name)) <= 0)
				continue;
			od_t = l->types[t].od_usd_per_h;
			if (v > od_t)
				return yamldoc_fail(&l->y, &r, "the rate %g is above the on-demand price of %s "
							  "(%g); expected at most %g", v, name, od_t, od_t);
			f->type_discount[t] = 1.0 - v / od_t;  /* od_t >= v > 0 here */
			continue;
		}
		if (v > od)
			return yamldoc_fail(&l->y, &r, "the rate %g is above the on-demand price of %s "
						  "(%g); expected at most %g", v, type, od, od);
		rate = v;
		found = true;
	}
	if (!found)
		return yamldoc_fail(&l->y, rates, "no rate for the serving type %s; expected a key %s",
					  type, type);
	f->discount = 1.0 - rate / od;  /* od >= rate > 0 here */
	return STATUS_OK;
}

/*
 * savings_plan: an hourly commitment, billed whether used or not, that buys usage at a discount
 * (SOURCES.md [sp-commitment]). It holds no instances (max = 0). usd_per_h is the serving type's rate under
 * the plan. Several plans may be listed; they add up.
 */
static int read_savings_plan(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref r;
	int rc;

	if ((rc = scenario_load_required(l, e, "commit_usd_per_h", "the hourly commitment in USD", &r)) ||
	    (rc = yamldoc_number(&l->y, &r, &commit_bounds, &f->commit_usd_per_h)) ||
	    (rc = scenario_load_exclusive(l, e, "discount", "rates")))
		return rc;
	f->term = TERM_1Y;
	if ((rc = read_term(l, e, f)))
		return rc;
	f->discount = l->type.savings_plan_discount;
	yamldoc_child(e, "discount", &r);
	if ((rc = yamldoc_number(&l->y, &r, scenario_load_fraction, &f->discount)))
		return rc;
	/* each other type: the discount given, else its own catalogue discount; `rates` may set it */
	for (int t = 1; t < l->sc.ntypes; t++)
		f->type_discount[t] = r.node ? f->discount : l->types[t].savings_plan_discount;
	yamldoc_child(e, "rates", &r);
	if (r.node && (rc = read_rates(l, &r, f)))
		return rc;
	f->type_discount[0] = f->discount;
	f->usd_per_h = l->sc.serving.od_usd_per_h * (1.0 - f->discount);
	return STATUS_OK;
}

/* ---- the list ----------------------------------------------------------------------------------- */

/* The purchase option of a fleet entry: a kind, or a provider's own product (provider.h) into *variant. */
static int read_option(struct load *l, const struct yamldoc_ref *e, enum option_kind *kind,
		       enum provider_variant *variant)
{
	const char *names = provider_option_list(l->sc.provider);
	struct yamldoc_ref r;
	char name[SCENARIO_NAME_MAX];
	int rc;

	*variant = VARIANT_NONE;
	if ((rc = scenario_load_required(l, e, "option", names, &r)) ||
	    (rc = yamldoc_string(&l->y, &r, name, sizeof name)))
		return rc;
	if (provider_parse_variant(l->sc.provider, name, kind, variant))
		return STATUS_OK;
	if (!option_kind_parse(name, kind))
		return yamldoc_fail(&l->y, &r, "unknown option '%s'; expected %s", name, names);
	if (!provider_offers(l->sc.provider, *kind))  /* provider.h: capacity blocks, training plans are aws's */
		return yamldoc_fail(&l->y, &r, "%s is not sold on %s (the scenario's provider); expected %s",
					  name, provider_name(l->sc.provider), provider_option_list(l->sc.provider));
	return STATUS_OK;
}


/* A training plan fills the entries from f on, one per segment (f lies in l->sc.fleet). */
static int read_training_plan(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	return scenario_load_plan(l, e, f, SCENARIO_FLEET_MAX - (int)(f - l->sc.fleet));
}

/* How each option's entry is read, after its keys are checked. */
static int (*const read_entry[OPTION_KIND_COUNT])(struct load *, const struct yamldoc_ref *,
						   struct fleet_entry *) = {
	[OPTION_RESERVED] = read_reserved, [OPTION_ON_DEMAND] = scenario_load_on_demand, [OPTION_SPOT] = scenario_load_spot,
	[OPTION_ODCR] = read_odcr, [OPTION_SAVINGS_PLAN] = read_savings_plan,
	[OPTION_CAPACITY_BLOCK] = scenario_load_capacity_block, [OPTION_TRAINING_PLAN] = read_training_plan };

/*
 * What only discounts usage is not capacity (SOURCES.md [ri-regional-commitment]): a Savings Plan, and a
 * reserved entry without `scope: zonal` (a regional RI), belong in `commitments`, where they change the bill
 * and nothing else. Before version 0.9 they were fleet entries, and a reserved entry's instances ran from
 * t = 0 on top of the other entries' max; such a scenario is refused with how to write it now. Azure's
 * reserved VM instances "do not reserve or guarantee compute capacity" (SOURCES.md [az-ri-terms]): there
 * is no zonal form.
 */
static int check_capacity(struct load *l, const struct yamldoc_ref *e, enum option_kind kind)
{
	struct yamldoc_ref r, scope;
	int zonal = 0, rc;

	yamldoc_child(e, "option", &r);
	if (kind == OPTION_SAVINGS_PLAN)
		return yamldoc_fail(&l->y, &r, "a Savings Plan discounts usage and runs no instances, so it is "
					  "not a fleet entry; expected it under the top-level commitments: list, with the "
					  "same keys (commitments: [{option: savings_plan, commit_usd_per_h: ...}])");
	if (kind != OPTION_RESERVED)
		return STATUS_OK;
	if (l->sc.provider == PROVIDER_AZURE)
		return yamldoc_fail(&l->y, &r, "azure reserved VM instances are a billing discount and reserve no "
					  "capacity (SOURCES.md [az-ri-terms]); expected this entry under the top-level "
					  "commitments: list (option: reserved, count, term, payment), with the instances "
					  "it discounts run by an on_demand entry (or an odcr entry to reserve capacity)");
	yamldoc_child(e, "scope", &scope);
	if (!scope.node)
		return yamldoc_fail(&l->y, &r, "a reserved fleet entry must say scope: zonal (capacity reserved "
					  "in a zone, in service from t = 0); a regional reserved instance only discounts "
					  "usage: expected it under the top-level commitments: list (commitments: [{option: "
					  "reserved, count: N, term: 1y}]), with on_demand's max raised by N if those "
					  "instances were meant to run on top of it");
	return (rc = yamldoc_choice(&l->y, &scope, scope_names, 1, &zonal)) ? rc : STATUS_OK;
}

static int read_fleet_entry(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	int n, rc;

	if ((rc = yamldoc_mapping(&l->y, e, NULL, "a mapping such as {option: on_demand, max: 8}",
					&n)) ||
	    (rc = read_option(l, e, &f->option, &f->variant)) || (rc = check_capacity(l, e, f->option)) ||
	    (rc = scenario_load_check_keys(l, e, n, option_keys, OPTION_KIND_COUNT, f->option, NULL,
					   f->variant ? provider_variant_name(f->variant) : option_kind_name(f->option))) ||
	    (rc = scenario_load_startup(l, e, &f->startup)) || (rc = scenario_load_use(l, e, f)) ||
	    (rc = scenario_load_zone(l, e, f)))
		return rc;
	return scenario_load_typed_entry(l, e, f, read_entry[f->option]);
}

/* The first key on which Spot entries a and b (same zone, same type) describe their pool differently, or NULL. */
static const char *pool_differs(const struct fleet_entry *a, const struct fleet_entry *b)
{
	if (a->reclaims_per_day != b->reclaims_per_day)
		return "reclaims_per_day";
	if (a->reclaim_fraction != b->reclaim_fraction)
		return "reclaim_fraction";
	if (a->outage_mean_us != b->outage_mean_us)
		return "outage_mean_s";
	return NULL;
}

/* Spot entries of one zone share its pool, so they must agree on its reclaim keys. */
static int check_zone_pools(struct load *l)
{
	const struct scenario *sc = &l->sc;
	struct yamldoc_ref e, r;

	for (int i = 0; i < sc->nfleet; i++) {
		const struct fleet_entry *b = &sc->fleet[i];
		if (b->option != OPTION_SPOT || b->zone == 0)
			continue;
		for (int j = 0; j < i; j++) {
			const struct fleet_entry *a = &sc->fleet[j];
			const char *key;
			if (a->option != OPTION_SPOT || a->zone != b->zone || a->type != b->type ||
			    !(key = pool_differs(a, b)))
				continue;
			scenario_load_fleet_item(l, i, &e);
			yamldoc_child(&e, key, &r);
			return yamldoc_fail(&l->y, r.node ? &r : &e, "spot entries of %s in zone '%s' share one "
						  "Spot pool; expected the same %s as fleet.%d (the first spot entry "
						  "of the type in the zone)", sc->types[b->type].name,
						  sc->zones[b->zone - 1].name, key, l->fleet_item[j]);
		}
	}
	return STATUS_OK;
}

void scenario_load_fleet_item(const struct load *l, int i, struct yamldoc_ref *out)
{
	yamldoc_item(&l->fleet, l->fleet_item[i], out);
}

/* The list, item by item; a training_plan item fills one sc.fleet entry per segment (scenario_plan.c). */
int scenario_load_fleet(struct load *l)
{
	struct yamldoc_ref e;
	int n, rc;

	if ((rc = scenario_load_required(l, &l->root, "fleet", "a list of entries such as '- {option: "
					 "on_demand, max: 8}'", &l->fleet)) ||
	    (rc = yamldoc_list(&l->y, &l->fleet, 1, SCENARIO_FLEET_MAX,
				     "entries such as '- {option: on_demand, max: 8}'", &n)))
		return rc;
	l->sc.nfleet = 0;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		int k = l->sc.nfleet, filled = 1;
		yamldoc_next_item(&l->fleet, &walk, &e);
		if (k == SCENARIO_FLEET_MAX)  /* training plans' segments took the room */
			return yamldoc_fail(&l->y, &e, "the fleet already holds %d entries (each segment of a "
						  "training plan is one); expected at most %d in all",
						  SCENARIO_FLEET_MAX, SCENARIO_FLEET_MAX);
		if ((rc = read_fleet_entry(l, &e, &l->sc.fleet[k])))
			return rc;
		if (l->sc.fleet[k].option == OPTION_TRAINING_PLAN)
			filled = l->plan_segments;
		for (int j = 0; j < filled; j++)
			l->fleet_item[k + j] = i;
		l->sc.nfleet = k + filled;
	}
	return check_zone_pools(l);
}

/* ---- commitments --------------------------------------------------------------------------------- */

/* The keys of a commitments entry: a key only fleet entries take is refused as such. */
static int check_commit_keys(struct load *l, const struct yamldoc_ref *e, int n, enum option_kind kind)
{
	const char *key;
	char list[512];
	struct yamldoc_ref r;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;

	for (int i = 0; i < n; i++) {
		yamldoc_next_pair(e, &walk, &r, &key);
		if (scenario_load_listed(key, commit_keys[kind]))
			continue;
		for (int k = 0; k < OPTION_KIND_COUNT; k++)
			if (option_keys[k] && scenario_load_listed(key, option_keys[k]))
				return yamldoc_fail(&l->y, &r, "%s does not apply to a commitment, which runs no "
							  "instances (the fleet's entries do); expected one of: %s", key,
							  scenario_load_join(commit_keys[kind], list, sizeof list));
	}
	return scenario_load_check_keys(l, e, n, commit_keys, OPTION_KIND_COUNT, kind, NULL, option_kind_name(kind));
}

/* One commitments entry: option reserved (a regional RI) or savings_plan, with the fleet entry's keys. */
static int read_commit_entry(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	const char *names = "reserved or savings_plan";
	struct yamldoc_ref r;
	char name[SCENARIO_NAME_MAX];
	int n, rc;

	if ((rc = yamldoc_mapping(&l->y, e, NULL, "a mapping such as {option: reserved, count: 4, term: 1y}",
				  &n)) ||
	    (rc = scenario_load_required(l, e, "option", names, &r)) ||
	    (rc = yamldoc_string(&l->y, &r, name, sizeof name)))
		return rc;
	if (!option_kind_parse(name, &f->option) ||
	    (f->option != OPTION_RESERVED && f->option != OPTION_SAVINGS_PLAN))
		return yamldoc_fail(&l->y, &r, "'%s' is not a commitment (what only discounts usage); expected %s. "
					  "Options that run instances go in fleet:", name, names);
	if (f->option == OPTION_RESERVED && l->sc.provider == PROVIDER_GCP)
		return yamldoc_fail(&l->y, &r, "a gcp committed use discount for GPUs needs a reservation attached, "
					  "which holds capacity (SOURCES.md [gcp-cud-terms]); expected it in fleet: as "
					  "{option: reserved, scope: zonal, ...}, or a spend-based commitment here as "
					  "option: savings_plan");
	if ((rc = check_commit_keys(l, e, n, f->option)))
		return rc;
	f->use = USE_SERVING;
	return scenario_load_typed_entry(l, e, f, read_entry[f->option]);
}

int scenario_load_commitments(struct load *l)
{
	struct yamldoc_ref list, e;
	int n, rc;

	l->sc.ncommit = 0;
	yamldoc_child(&l->root, "commitments", &list);
	if (!list.node)
		return STATUS_OK;
	if ((rc = yamldoc_list(&l->y, &list, 0, SCENARIO_COMMIT_MAX, "entries such as '- {option: reserved, "
			       "count: 4, term: 1y}' or '- {option: savings_plan, commit_usd_per_h: 50}'", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_item(&list, &walk, &e);
		if ((rc = read_commit_entry(l, &e, &l->sc.commit[i])))
			return rc;
		l->sc.ncommit = i + 1;
	}
	return STATUS_OK;
}

/* ---- tables shared with the schema (scenario_load.h) --------------------------------------------- */

const struct scenario_load_names scenario_load_term_names = SCENARIO_LOAD_NAMES(term_names);
const struct scenario_load_names scenario_load_payment_names = SCENARIO_LOAD_NAMES(payment_names);
const struct scenario_load_variants scenario_load_option = { "option", NULL, OPTION_KIND_COUNT, option_keys };
const struct scenario_load_variants scenario_load_commit_option = { "option", NULL, OPTION_KIND_COUNT, commit_keys };
const struct scenario_load_names scenario_load_scope_names = SCENARIO_LOAD_NAMES(scope_names);
const struct yamldoc_bounds *const scenario_load_commit = &commit_bounds;
