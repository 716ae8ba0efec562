/*
 * scenario_fleet: the fleet half of the scenario loader (see scenario_load.h and scenario.h).
 *
 * Each fleet entry names a purchase option, and each option has its own keys; a key of another option is
 * refused with "KEY does not apply to OPTION; expected one of: ..." so that a price or a limit is never
 * silently ignored. Defaults come from the serving instance type (the catalogue after the scenario's
 * catalog: overrides). The rules each option follows are cited from models/SOURCES.md by ID where the numbers
 * come from AWS documentation, and called assumptions where they do not.
 *
 * Spot entries may name trace files (prices, availability), read while loading so that a malformed trace
 * fails the load like a malformed key; the trace loaders' messages (naming the trace file and line) pass
 * on unchanged. Relative trace paths start from the scenario file's folder (for text, the current one).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "availtrace.h"
#include "pricetrace.h"
#include "provider.h"
#include "scenario_load.h"
#include "status.h"
#include "units.h"

#define US_PER_H 3600000000.0
#define MAX_UPFRONT_USD 1e10             /* a 3-year all-upfront p5 is about 1.4e6 per instance */
#define TERM_1Y_H 8760.0                 /* 365 days (SOURCES.md [ri-terms]: 31,536,000 s) */
#define TERM_3Y_H 26280.0                /* 1095 days */
#define PARTIAL_UPFRONT_SHARE 0.5        /* an assumption (SOURCES.md [ri-partial-upfront-split]) */
#define MAX_NOTICE_US (3600 * S_US)
#define DEFAULT_OUTAGE_MEAN_US (3600 * S_US)  /* an assumption (SOURCES.md [spot-pool-reclaims]) */
#define MAX_OUTAGE_MEAN_US (400 * DAY_US)
#define HOURS_PER_MONTH 730.0            /* 8760 h / 12: the month of the Spot Advisor's bands */
#define BLOCK_MAX_COUNT 64               /* "Each Capacity Block up to 64 instances" (SOURCES.md [cb-max-64]) */
#define BLOCKS_MAX_COUNT 256             /* "up to 256 across Capacity Blocks" (SOURCES.md [cb-max-256]) */
#define CALENDAR_MAX_DAYS 90             /* SOURCES.md [gcp-calendar-limits] */
#define CALENDAR_MAX_VMS 80
#define BLOCK_END_S (11 * 3600 + 1800)   /* "All Capacity Blocks end at 11:30AM UTC" (SOURCES.md [cb-end-1130]) */
#define MAX_QUOTA 10000000
#define DEFAULT_BACKOFF_US (30 * S_US)   /* within "wait a few minutes" (SOURCES.md [launch-retry-backoff]) */
#define DEFAULT_MAX_BACKOFF_US (600 * S_US)
#define MAX_BACKOFF_US DAY_US
#define DEFAULT_MULTIPLIER 2.0

static const struct scenario_yaml_bounds price_bounds = { 0, MAX_USD_PER_H, false, false };
static const struct scenario_yaml_bounds rate_bounds = { 0, MAX_USD_PER_H, true, false };  /* (0, max] */
static const struct scenario_yaml_bounds upfront_bounds = { 0, MAX_UPFRONT_USD, false, false };
static const struct scenario_yaml_bounds fraction_bounds = { 0, 1, false, true };  /* [0, 1) */
static const struct scenario_yaml_bounds share_bounds = { 0, 1, true, false };     /* (0, 1] */
static const struct scenario_yaml_bounds commit_bounds = { 0, 1e6, true, false };
static const struct scenario_yaml_bounds interruption_bounds = { 0, 100, false, false };  /* per hour */
static const struct scenario_yaml_bounds reclaim_bounds = { 0, 1000, false, false };      /* per day */
static const struct scenario_yaml_bounds multiplier_bounds = { 1, 10, false, false };
static const struct scenario_yaml_bounds percent_bounds = { 0, 100, false, false };

/* The keys of each option, in the order messages list them. */
static const char *const reserved_keys[] = { "option", "count", "usd_per_h", "term", "payment", "upfront_usd",
	"term_start", "use", "instance_type", NULL };
static const char *const on_demand_keys[] = { "option", "count", "max", "usd_per_h", "ice_probability",
	"ice_outages", "startup", "use", "zone", "instance_type", "max_wait_s", NULL };
static const char *const spot_keys[] = { "option", "count", "max", "discount", "usd_per_h", "price_trace",
	"price_zone", "interruptions_per_hour", "interruption_band", "availability_trace", "notice_s",
	"reclaims_per_day", "reclaim_fraction", "outage_mean_s", "ice_probability", "ice_outages", "startup", "use",
	"zone", "instance_type", "max_usd_per_h", "eviction_policy", "disk_usd_per_h", NULL };
static const char *const odcr_keys[] = { "option", "count", "usd_per_h", "startup", "use", "zone", "instance_type",
	NULL };
static const char *const savings_plan_keys[] = { "option", "commit_usd_per_h", "discount", "rates", "term",
	"term_start", NULL };
static const char *const capacity_block_keys[] = { "option", "start", "duration", "end", "count",
	"usd_per_h", "upfront_usd", "startup", "use", "serving_hours", "notice_s", "zone", "instance_type", NULL };
static const char *const training_plan_keys[] = { "option", "usd_per_h", "segments", "expiry_notice", "startup",
	"use", "serving_hours", "notice_s", "instance_type", NULL };
static const char *const *const option_keys[OPTION_KIND_COUNT] = { [OPTION_RESERVED] = reserved_keys,
	[OPTION_ON_DEMAND] = on_demand_keys, [OPTION_SPOT] = spot_keys, [OPTION_ODCR] = odcr_keys,
	[OPTION_SAVINGS_PLAN] = savings_plan_keys, [OPTION_CAPACITY_BLOCK] = capacity_block_keys,
	[OPTION_TRAINING_PLAN] = training_plan_keys };
static const char *const outage_keys[] = { "start", "end", NULL };
static const char *const quota_keys[] = { "on_demand_vcpus", "on_demand_instances", "spot_vcpus",
	"spot_instances", NULL };
static const char *const retry_keys[] = { "backoff_s", "max_backoff_s", "multiplier", NULL };
static const char *const allocation_keys[] = { "strategy", "on_demand_base_capacity",
	"on_demand_percentage_above_base", "spot_fallback", NULL };

static const char *const term_names[] = { "1y", "3y" };
static const char *const payment_names[] = { "no_upfront", "partial_upfront", "all_upfront" };
static const char *const strategy_names[] = { "order", "mixed" };
static const char *const bool_names[] = { "false", "true" };

/*
 * The Spot Instance Advisor's interruption-frequency bands are monthly (SOURCES.md [spot-advisor-bands]:
 * "0-5%, 5-10%, 10-15%, 15-20%, >20% monthly"). A band is read as the probability p that an instance is
 * interrupted within a month, taken at the band's middle (25% for the open ">20%": an assumption), and turned
 * into a constant rate per instance-hour: no interruption for a month has probability exp(-730 rate) = 1 - p,
 * so rate = -ln(1 - p) / 730 (a month = 730 h).
 */
static const char *const band_names[] = { "<5%", "5-10%", "10-15%", "15-20%", ">20%" };
static const double band_monthly_p[] = { 0.025, 0.075, 0.125, 0.175, 0.25 };

/* ---- helpers ------------------------------------------------------------------------------------ */


/* usd_per_h of an entry (*f->usd_per_h holds the default). */
static int read_price(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	struct scenario_yaml_ref r;

	scenario_yaml_child(e, "usd_per_h", &r);
	f->price_given = r.node != NULL;
	return scenario_yaml_number(&l->y, &r, &price_bounds, &f->usd_per_h);
}

/* A required instance count in [lo, hi]; the entry holds exactly that many (max = count). A count of 0 is
 * allowed for reserved, odcr and capacity_block so that a sweep can vary it down to nothing: the entry then
 * buys nothing and costs nothing (its price is ignored). */
static int read_bought(struct load *l, const struct scenario_yaml_ref *e, int lo, int hi, const char *what,
		       struct fleet_entry *f)
{
	struct scenario_yaml_ref r;
	int rc;

	if ((rc = scenario_load_required(l, e, "count", what, &r)) ||
	    (rc = scenario_load_int(l, &r, lo, hi, &f->count)))
		return rc;
	f->max = f->count;
	return STATUS_OK;
}

/* `term` (1y | 3y; absent: *term unchanged) and `term_start` (default the scenario start). */
static int read_term(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	struct scenario_yaml_ref r;
	int t = f->term == TERM_3Y, rc;

	scenario_yaml_child(e, "term", &r);
	if ((rc = scenario_yaml_choice(&l->y, &r, term_names, 2, &t)))
		return rc;
	if (r.node)
		f->term = t ? TERM_3Y : TERM_1Y;
	f->term_start_unix_us = l->sc.start_unix_us;
	scenario_yaml_child(e, "term_start", &r);
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
static int check_payment(struct load *l, const struct scenario_yaml_ref *r, enum payment_kind payment)
{
	if (l->sc.provider == PROVIDER_GCP && payment != PAYMENT_NO_UPFRONT)
		return scenario_yaml_fail(&l->y, r, "a gcp committed use discount requires no upfront costs "
					  "(SOURCES.md [gcp-cud-terms]); expected payment: no_upfront");
	if (l->sc.provider == PROVIDER_AZURE && payment == PAYMENT_PARTIAL_UPFRONT)
		return scenario_yaml_fail(&l->y, r, "azure reserved VM instances are paid up front or monthly "
					  "(SOURCES.md [az-ri-terms]); expected payment: all_upfront or no_upfront");
	return STATUS_OK;
}

static int read_reserved(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	static const double upfront_share[] = { [PAYMENT_NO_UPFRONT] = 0,
		[PAYMENT_PARTIAL_UPFRONT] = PARTIAL_UPFRONT_SHARE, [PAYMENT_ALL_UPFRONT] = 1 };
	struct scenario_yaml_ref r;
	int payment = PAYMENT_NO_UPFRONT, rc;
	double rate, hours, share;

	if ((rc = read_bought(l, e, 0, MAX_INSTANCES, "the number of reserved instances", f)) ||
	    (rc = scenario_load_only_with(l, e, "payment", "term")) || (rc = scenario_load_only_with(l, e, "upfront_usd", "term")) ||
	    (rc = scenario_load_only_with(l, e, "term_start", "term")))
		return rc;
	f->term = TERM_1Y;
	if ((rc = read_term(l, e, f)))
		return rc;
	scenario_yaml_child(e, "payment", &r);
	if ((rc = scenario_yaml_choice(&l->y, &r, payment_names, 3, &payment)))
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
	scenario_yaml_child(e, "upfront_usd", &r);
	if ((rc = scenario_yaml_number(&l->y, &r, &upfront_bounds, &f->upfront_usd)))
		return rc;
	return read_price(l, e, f);
}

/* odcr: "charged at the equivalent On-Demand rate whether you run instances in reserved capacity or not"
 * (SOURCES.md [odcr-od-rate]), so the default rate is the on-demand price. */
static int read_odcr(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	const char *type = l->sc.serving.instance_type;
	struct scenario_yaml_ref r;
	int rc;

	scenario_yaml_child(e, "option", &r);
	if (!provider_reservable(l->sc.provider, type))
		return scenario_yaml_fail(&l->y, &r, "Azure on-demand capacity reservations do not support %s "
					  "(\"Support for other VM series isn't currently available: ND-series, NCads "
					  "H100 v5-series\", SOURCES.md [az-cr-excluded]); expected a supported size "
					  "such as Standard_NC24ads_A100_v4, or another option", type);
	rc = read_bought(l, e, 0, MAX_INSTANCES, "the number of instances the reservation holds", f);

	f->usd_per_h = l->sc.serving.od_usd_per_h;
	return rc ? rc : read_price(l, e, f);
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
static int read_rates(struct load *l, const struct scenario_yaml_ref *rates, struct fleet_entry *f)
{
	const char *type = l->sc.serving.instance_type, *name;
	double od = l->sc.serving.od_usd_per_h, rate = 0, v;
	struct scenario_yaml_ref r;
	bool found = false;
	int n, rc;

	if ((rc = scenario_yaml_mapping(&l->y, rates, NULL, "a mapping of instance types to Savings Plans "
					"rates in USD per instance-hour", &n)))
		return rc;
	for (int i = 0; i < n; i++) {
		int t;
		scenario_yaml_pair(rates, i, &r, &name);
		if ((rc = scenario_yaml_number(&l->y, &r, &rate_bounds, &v)))
			return rc;
		if (strcmp(name, type) != 0) {
			double od_t;
			if ((t = type_index(l, name)) <= 0)
				continue;
			od_t = l->types[t].od_usd_per_h;
			if (v > od_t)
				return scenario_yaml_fail(&l->y, &r, "the rate %g is above the on-demand price of %s "
							  "(%g); expected at most %g", v, name, od_t, od_t);
			f->type_discount[t] = 1.0 - v / od_t;  /* od_t >= v > 0 here */
			continue;
		}
		if (v > od)
			return scenario_yaml_fail(&l->y, &r, "the rate %g is above the on-demand price of %s "
						  "(%g); expected at most %g", v, type, od, od);
		rate = v;
		found = true;
	}
	if (!found)
		return scenario_yaml_fail(&l->y, rates, "no rate for the serving type %s; expected a key %s",
					  type, type);
	f->discount = 1.0 - rate / od;  /* od >= rate > 0 here */
	return STATUS_OK;
}

/*
 * savings_plan: an hourly commitment, billed whether used or not, that buys usage at a discount
 * (SOURCES.md [sp-commitment]). It holds no instances (max = 0). usd_per_h is the serving type's rate under
 * the plan. Several plans may be listed; they add up.
 */
static int read_savings_plan(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	struct scenario_yaml_ref r;
	int rc;

	if ((rc = scenario_load_required(l, e, "commit_usd_per_h", "the hourly commitment in USD", &r)) ||
	    (rc = scenario_yaml_number(&l->y, &r, &commit_bounds, &f->commit_usd_per_h)) ||
	    (rc = scenario_load_exclusive(l, e, "discount", "rates")))
		return rc;
	f->term = TERM_1Y;
	if ((rc = read_term(l, e, f)))
		return rc;
	f->discount = l->type.savings_plan_discount;
	scenario_yaml_child(e, "discount", &r);
	if ((rc = scenario_yaml_number(&l->y, &r, &fraction_bounds, &f->discount)))
		return rc;
	/* each other type: the discount given, else its own catalogue discount; `rates` may set it */
	for (int t = 1; t < l->sc.ntypes; t++)
		f->type_discount[t] = r.node ? f->discount : l->types[t].savings_plan_discount;
	scenario_yaml_child(e, "rates", &r);
	if (r.node && (rc = read_rates(l, &r, f)))
		return rc;
	f->type_discount[0] = f->discount;
	f->usd_per_h = l->sc.serving.od_usd_per_h * (1.0 - f->discount);
	return STATUS_OK;
}

/* ---- on_demand and spot ------------------------------------------------------------------------- */

/* Whether r (present or not) is the scalar `auto`. */
static bool is_auto(struct load *l, const struct scenario_yaml_ref *r)
{
	const char *text;
	struct diag *d = l->y.d, quiet;

	if (!r->node)
		return false;
	l->y.d = &quiet;  /* not a scalar: the integer reader says so */
	bool yes = scenario_yaml_scalar(&l->y, r, "auto", &text) == STATUS_OK && strcmp(text, "auto") == 0;
	l->y.d = d;
	return yes;
}

/* count and max of an entry that scales (on_demand, spot); count may be `auto`. An entry for jobs is not
 * autoscaling's: its max is required (the most instances jobs may take from it). */
static int read_scaling(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	bool tracking = l->sc.autoscaling.policy != POLICY_NONE && f->use != USE_JOBS;  /* a policy governs it */
	struct scenario_yaml_ref r;
	int rc;

	scenario_yaml_child(e, "count", &r);
	if (is_auto(l, &r)) {
		f->count_auto = true;  /* 0 until scenario_load_finish knows the policy and the traffic */
	} else if ((rc = scenario_load_int(l, &r, 0, MAX_INSTANCES, &f->count))) {
		const char *text;
		char expect[64];
		/* a word that is not auto: say that auto is the word */
		if (scenario_yaml_scalar(&l->y, &r, "a number", &text) == STATUS_OK && strspn(text, "+-0123456789") == 0) {
			snprintf(expect, sizeof expect, "an integer from 0 to %d, or auto", MAX_INSTANCES);
			return scenario_yaml_bad(&l->y, &r, expect);
		}
		return rc;
	}
	scenario_yaml_child(e, "max", &r);
	if (!r.node && f->use == USE_JOBS)
		return scenario_yaml_missing(&l->y, e, "max", "with use: jobs, the most instances jobs may take "
					     "from this entry");
	if (!r.node && tracking && !l->max_given)
		return scenario_yaml_missing(&l->y, e, "max", l->sc.autoscaling.policy == POLICY_STEP ?
					     "with step and no autoscaling.max, the most instances this entry may "
					     "hold" : "with target_tracking and no autoscaling.max, the most "
					     "instances this entry may hold");
	/* with copies, autoscaling.max counts copies: an entry may hold the instances they need */
	int most = l->sc.autoscaling.max;
	if (l->sc.copies.enabled)
		most = (most + l->sc.copies.per_instance - 1) / l->sc.copies.per_instance;
	/* with autoscaling.capacity_unit gpus or slots, autoscaling.max counts those (scenario_types.c) */
	if (f->weight > 1)
		most = (most + f->weight - 1) / f->weight;
	f->max = tracking && most > f->count ? most : f->count;
	return scenario_load_int(l, &r, f->count, MAX_INSTANCES, &f->max);
}

/*
 * Launch failures (SOURCES.md [od-ice], InsufficientInstanceCapacity): `ice_probability` per attempt, and
 * `ice_outages`, windows from the scenario start, in order, not overlapping, inside the horizon.
 */
static int read_ice(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	struct scenario_yaml_ref list, o, r;
	int n, rc;

	scenario_yaml_child(e, "ice_probability", &r);
	if ((rc = scenario_yaml_number(&l->y, &r, &fraction_bounds, &f->ice_probability)))
		return rc;
	scenario_yaml_child(e, "ice_outages", &list);
	if (!list.node)
		return STATUS_OK;
	if ((rc = scenario_yaml_list(&l->y, &list, 1, SCENARIO_OUTAGES_MAX, "windows such as '- {start: 2h, "
				     "end: 3h}'", &n)))
		return rc;
	for (int i = 0; i < n; i++) {
		struct outage *w = &f->outages[i];
		int64_t after = i ? w[-1].end_us : 0;

		scenario_yaml_item(&list, i, &o);
		if ((rc = scenario_yaml_mapping(&l->y, &o, outage_keys, NULL, NULL)) ||
		    (rc = scenario_load_required(l, &o, "start", "when launches start failing, a duration "
						 "from the start", &r)) ||
		    (rc = scenario_load_duration(l, &r, 0, false, l->sc.horizon_us, &w->start_us)))
			return rc;
		if (w->start_us < after)
			return scenario_yaml_fail(&l->y, &r, "outages must be in time order and must "
						  "not overlap; expected a start at or after the previous "
						  "outage's end (%g s)", (double)after / 1e6);
		if ((rc = scenario_load_required(l, &o, "end", "when capacity is back, a duration from the "
						 "start", &r)) ||
		    (rc = scenario_load_duration(l, &r, w->start_us, true, l->sc.horizon_us, &w->end_us)))
			return rc;
	}
	f->noutages = n;
	return STATUS_OK;
}

static int read_on_demand(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	struct scenario_yaml_ref r;
	int rc;

	scenario_yaml_child(e, "usd_per_h", &r);
	if (f->variant == VARIANT_FLEX && !r.node)  /* SOURCES.md [gcp-dws-flex]: a discount, not published */
		return scenario_yaml_missing(&l->y, e, "usd_per_h", "DWS Flex-start VMs are sold at a discount "
					     "that is not published (SOURCES.md [gcp-dws-flex]): their price per "
					     "VM-hour");

	f->usd_per_h = l->sc.serving.od_usd_per_h;
	if ((rc = read_scaling(l, e, f)) || (rc = read_price(l, e, f)) || (rc = scenario_load_dws_wait(l, e, f)))
		return rc;
	return read_ice(l, e, f);
}

/*
 * Spot never costs more than On-Demand: the price is the Spot price "not exceeding the On-Demand price"
 * (SOURCES.md [spot-max-od]). The bound is the serving type's On-Demand price after the scenario's catalog:
 * overrides (not an on_demand entry's own usd_per_h, which may be a negotiated rate). A fixed usd_per_h above
 * it is refused; prices of a trace above it are lowered to it, with a warning that counts them.
 */
static int check_spot_price(struct load *l, const struct scenario_yaml_ref *r, struct fleet_entry *f)
{
	double od = l->sc.serving.od_usd_per_h;
	char expect[256];

	if (f->usd_per_h <= od)
		return STATUS_OK;
	snprintf(expect, sizeof expect, "a number from 0 to %.10g (the On-Demand price of %s)", od,
		 l->sc.serving.instance_type);
	return scenario_yaml_bad(&l->y, r, expect);
}

static int cap_spot_trace(struct load *l, const struct scenario_yaml_ref *trace, struct fleet_entry *f)
{
	double od = l->sc.serving.od_usd_per_h;
	int n = pricetrace_cap(&f->prices, od);

	if (n == 0)
		return STATUS_OK;
	return scenario_load_warn(l, trace, "%d of the trace's %d prices of %s are above its On-Demand price "
				  "(%.10g); capped at %.10g: Spot never costs more than On-Demand", n, f->prices.n,
				  l->sc.serving.instance_type, od, od);
}

/*
 * The spot price: a trace, a fixed usd_per_h, or the on-demand price less `discount` (default the
 * catalogue's). discount is 0 when a trace or usd_per_h sets the price; with a trace, usd_per_h is the
 * trace's price at the scenario start (for reports: the run follows the trace). Prices are at most the
 * On-Demand price (check_spot_price, cap_spot_trace).
 */
static int read_spot_price(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	struct scenario_yaml_ref trace, zone, r;
	int rc;

	if ((rc = scenario_load_exclusive(l, e, "usd_per_h", "discount")) ||
	    (rc = scenario_load_exclusive(l, e, "price_trace", "discount")) ||
	    (rc = scenario_load_exclusive(l, e, "price_trace", "usd_per_h")) ||
	    (rc = scenario_load_only_with(l, e, "price_zone", "price_trace")))
		return rc;
	scenario_yaml_child(e, "price_trace", &trace);
	scenario_yaml_child(e, "price_zone", &zone);
	if (trace.node) {
		if ((rc = scenario_yaml_string(&l->y, &zone, f->price_zone, sizeof f->price_zone)) ||
		    (rc = scenario_load_path(l, &trace, f->price_trace)) ||
		    (rc = pricetrace_load(&f->prices, f->price_trace, NULL, l->sc.serving.instance_type,
					  zone.node ? f->price_zone : NULL, l->y.d)) ||
		    (rc = cap_spot_trace(l, &trace, f)))
			return rc;
		/* Google Cloud Spot prices change at most once a day (SOURCES.md [gcp-spot-daily-price]) */
		if (l->sc.provider == PROVIDER_GCP && f->variant == VARIANT_NONE &&
		    (rc = pricetrace_check_daily(&f->prices, f->price_trace, l->y.d)))
			return rc;
		f->usd_per_h = pricetrace_at(&f->prices, l->sc.start_unix_us);
		return STATUS_OK;
	}
	scenario_yaml_child(e, "usd_per_h", &r);
	if (r.node)
		return (rc = read_price(l, e, f)) ? rc : check_spot_price(l, &r, f);
	f->discount = l->type.spot_discount;
	scenario_yaml_child(e, "discount", &r);
	rc = scenario_yaml_number(&l->y, &r, &fraction_bounds, &f->discount);
	f->usd_per_h = l->sc.serving.od_usd_per_h * (1.0 - f->discount);
	return rc;
}

/* The interruption model: a rate, an Advisor band (see band_monthly_p), or an availability trace. */
static int read_interruptions(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	static const char *const models[] = { "interruptions_per_hour", "interruption_band",
		"availability_trace" };
	struct scenario_yaml_ref r[3];
	int given = -1, band = 0, rc;

	for (int i = 0; i < 3; i++) {
		scenario_yaml_child(e, models[i], &r[i]);
		if (r[i].node && given >= 0)
			return scenario_yaml_fail(&l->y, &r[i], "%s and %s cannot both be given; expected "
						  "at most one interruption model (interruptions_per_hour, "
						  "interruption_band or availability_trace)", models[given],
						  models[i]);
		if (r[i].node)
			given = i;
	}
	f->interruptions_per_hour = 0;
	switch (given) {
	case 0:
		return scenario_yaml_number(&l->y, &r[0], &interruption_bounds, &f->interruptions_per_hour);
	case 1:
		if ((rc = scenario_yaml_choice(&l->y, &r[1], band_names, 5, &band)))
			return rc;
		f->interruptions_per_hour = -log(1.0 - band_monthly_p[band]) / HOURS_PER_MONTH;
		return STATUS_OK;
	case 2:
		if ((rc = scenario_load_path(l, &r[2], f->availability_trace)))
			return rc;
		return availtrace_load(&f->avail, f->availability_trace, NULL, l->y.d);
	}
	if (f->variant == VARIANT_PREEMPTIBLE)  /* the 24-hour stop still comes (option_spot.c) */
		return scenario_load_warn(l, e, "gcp_preemptible entry has no interruption model "
					  "(interruptions_per_hour, interruption_band or availability_trace); its "
					  "VMs are stopped only by the 24-hour limit");
	return scenario_load_warn(l, e, "spot entry has no interruption model (interruptions_per_hour, "
				  "interruption_band or availability_trace); its instances are never "
				  "interrupted");
}

/* The interruption notice and pool-wide reclaims. */
static int read_reclaims(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	struct scenario_yaml_ref r;
	int rc;

	f->notice_us = provider_spot_notice_us(l->sc.provider);  /* aws: 120 s */
	f->reclaims_per_day = 0;
	f->reclaim_fraction = 1;
	f->outage_mean_us = DEFAULT_OUTAGE_MEAN_US;
	scenario_yaml_child(e, "notice_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, MAX_NOTICE_US, &f->notice_us)))
		return rc;
	scenario_yaml_child(e, "reclaims_per_day", &r);
	if ((rc = scenario_yaml_number(&l->y, &r, &reclaim_bounds, &f->reclaims_per_day)))
		return rc;
	scenario_yaml_child(e, "reclaim_fraction", &r);
	if ((rc = scenario_yaml_number(&l->y, &r, &share_bounds, &f->reclaim_fraction)))
		return rc;
	scenario_yaml_child(e, "outage_mean_s", &r);
	return scenario_load_duration(l, &r, 0, true, MAX_OUTAGE_MEAN_US, &f->outage_mean_us);
}

/*
 * An azure Spot VM's max price (SOURCES.md [az-spot-max-price]), > 0: absent (Azure's -1, stored as 0),
 * no eviction for price. With a fixed price above it the VM could never run, which is refused; with a price trace the run
 * evicts and refuses launches while the price is above it (option_spot.c).
 */
static int read_max_price(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	struct scenario_yaml_ref r;
	int rc;

	f->max_usd_per_h = 0;
	scenario_yaml_child(e, "max_usd_per_h", &r);
	if (!r.node)
		return STATUS_OK;
	if (l->sc.provider != PROVIDER_AZURE)
		return scenario_yaml_fail(&l->y, &r, "max_usd_per_h is an Azure Spot setting; expected it only "
					  "with provider: azure");
	if ((rc = scenario_yaml_number(&l->y, &r, &rate_bounds, &f->max_usd_per_h)))
		return rc;
	if (f->prices.n == 0 && f->usd_per_h > f->max_usd_per_h)
		return scenario_yaml_fail(&l->y, &r, "the Spot price %.10g is above max_usd_per_h %.10g, so the VM "
					  "would never run; expected at least %.10g, or a price_trace",
					  f->usd_per_h, f->max_usd_per_h, f->usd_per_h);
	return STATUS_OK;
}

static int read_spot(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	int rc;

	if ((rc = read_scaling(l, e, f)) || (rc = read_spot_price(l, e, f)) ||
	    (rc = read_interruptions(l, e, f)) || (rc = read_reclaims(l, e, f)) || (rc = read_max_price(l, e, f)) ||
	    (rc = scenario_load_eviction(l, e, f)))
		return rc;
	return read_ice(l, e, f);
}

/* ---- capacity_block ----------------------------------------------------------------------------- */

/* The whole-day lengths a block can be asked for: "1-day increments up to 14 days, and in 7-day increments
 * up to 182 days" (SOURCES.md [cb-durations]). */
static bool block_days_ok(int64_t days)
{
	return (days >= 1 && days <= 14) || (days >= 21 && days <= 182 && days % 7 == 0);
}

/* x mod m in [0, m) for m > 0 (times before 1970 are negative). */
static int64_t mod_pos(int64_t x, int64_t m)
{
	return ((x % m) + m) % m;
}

/* A length in seconds as "21h30m" (seconds added when there are any). */
static void format_hm(int64_t s, char *buf, size_t size)
{
	if (s % 60)
		snprintf(buf, size, "%dh%02dm%02ds", (int)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
	else
		snprintf(buf, size, "%dh%02dm", (int)(s / 3600), (int)(s / 60 % 60));
}

/*
 * When the block ends: `end` (a UTC time after start) or start + `duration`, exactly one of them, into
 * *end_unix_us; *r is the key that gave it.
 */
static int read_block_end(struct load *l, const struct scenario_yaml_ref *e, int64_t start_unix_us,
			  struct scenario_yaml_ref *r, int64_t *end_unix_us)
{
	bool calendar = l->sc.provider == PROVIDER_GCP;  /* gcp_calendar: whole days, no 11:30 end */
	const char *expect = calendar ? "a length in whole days such as 7d (or, instead of duration, end: a UTC "
					"time)"
				      : "a length such as 7d (or, instead of duration, end: a UTC time at 11:30)";
	char from[32];
	int64_t end_us = 0, len_us = 0;
	const char *s;
	int rc;

	if ((rc = scenario_load_exclusive(l, e, "duration", "end")))
		return rc;
	scenario_yaml_child(e, "end", r);
	if (r->node) {
		if ((rc = scenario_load_time(l, r, &end_us)))
			return rc;
		units_format_time(units_floor_s(start_unix_us), from, sizeof from);  /* for the message */
		if (end_us <= start_unix_us)
			return scenario_yaml_fail(&l->y, r, "the %s would end no later than it starts; "
						  "expected a time after start (%s)",
						  calendar ? "reservation" : "block", from);
		*end_unix_us = end_us;
		return STATUS_OK;
	}
	if ((rc = scenario_load_required(l, e, "duration", calendar ? "the reservation's length in whole days, "
					 "such as 7d, or its end: a UTC time" : "the block's length, such as 7d, or its "
					 "end: a UTC time at 11:30", r)) ||
	    (rc = scenario_yaml_scalar(&l->y, r, expect, &s)))
		return rc;
	if (units_parse_duration(s, &len_us) != STATUS_OK || len_us == 0)
		return scenario_yaml_bad(&l->y, r, expect);
	*end_unix_us = start_unix_us + len_us;
	return STATUS_OK;
}

/*
 * A block's start and end must be an offering AWS sells (SOURCES.md [cb-end-1130],
 * [cb-start-any-time], [cb-durations]). "All Capacity Blocks end at 11:30AM
 * UTC", and a search for N days (block_days_ok) offers the blocks that end at 11:30 closest to N days
 * after their start: "One block will have a duration that is slightly less than your desired duration,
 * while the other will have a duration slightly greater" (capacity-blocks-purchase, the page
 * SOURCES.md [cb-durations] cites; capacityBlockDurationHours and capacityBlockDurationMinutes give such
 * lengths in hours and minutes). So, with r the time from start to the first 11:30 at or after it, a block
 * lasts r + k days, and k is N (exactly N days when r = 0, slightly more otherwise) or, when r > 0, N - 1
 * (slightly less): its length is within a day of some N days.
 */
static int check_block_offering(struct load *l, const struct scenario_yaml_ref *r, bool by_duration,
				int64_t start_unix_us, int64_t end_unix_us)
{
	static const char *const days = "whole days from 1 to 14, or 21 to 182 in steps of 7 days";
	int64_t tod_us = mod_pos(end_unix_us, DAY_US), len_us = end_unix_us - start_unix_us;
	int64_t r_us = mod_pos(BLOCK_END_S * S_US - start_unix_us, DAY_US), k, at_us = start_unix_us + r_us;
	char to[32], hm[24], first[32];

	if (tod_us != BLOCK_END_S * S_US) {
		units_format_time((end_unix_us - mod_pos(end_unix_us, S_US)) / S_US, to, sizeof to);
		return scenario_yaml_fail(&l->y, r, "the block ends at %s%s; expected an end at 11:30 UTC: "
					  "\"All Capacity Blocks end at 11:30AM UTC\" (SOURCES.md [cb-end-1130])",
					  to, mod_pos(end_unix_us, S_US) ? " and a fraction of a second" : "");
	}
	k = (len_us - r_us) / DAY_US;  /* whole: both the end and start + r_us are at 11:30 */
	if (block_days_ok(k) || (r_us > 0 && block_days_ok(k + 1)))
		return STATUS_OK;
	if (r_us == 0 && by_duration)
		return scenario_yaml_bad(&l->y, r, days);
	if (r_us == 0)
		return scenario_yaml_fail(&l->y, r, "the block lasts %lld days; expected %s "
					  "(SOURCES.md [cb-durations])", (long long)k, days);
	format_hm(r_us / S_US, hm, sizeof hm);
	units_format_time(units_floor_s(at_us), first, sizeof first);
	return scenario_yaml_fail(&l->y, r, "the block lasts %s (to the first 11:30 UTC, %s) plus %lld days; "
				  "expected %s plus 0 to 14 days, or plus 20, 21, 27, 28, ..., 181 or 182 days (7n - 1 "
				  "or 7n, n = 3 to 26): the blocks ending at 11:30 UTC nearest to %s "
				  "(SOURCES.md [cb-start-any-time])", hm, first, (long long)k, hm, days);
}

/* Warn about a block that the run never reaches. */
static int check_block_window(struct load *l, const struct scenario_yaml_ref *start, int64_t start_unix_us,
			      const struct fleet_entry *f)
{
	int64_t end_unix_us = start_unix_us + f->duration_us;
	char from[32], to[32], run_from[32], run_to[32];

	if (f->start_us < l->sc.horizon_us && f->start_us + f->duration_us > 0)
		return STATUS_OK;
	units_format_time(units_floor_s(start_unix_us), from, sizeof from);
	units_format_time(units_floor_s(end_unix_us), to, sizeof to);
	units_format_time(units_floor_s(l->sc.start_unix_us), run_from, sizeof run_from);
	units_format_time(units_floor_s(l->sc.start_unix_us + l->sc.horizon_us), run_to, sizeof run_to);
	return scenario_load_warn(l, start, "capacity block from %s to %s lies entirely outside the "
				  "simulated window (%s to %s); it never serves", from, to, run_from, run_to);
}

/* "up to 256 instances across Capacity Blocks" (SOURCES.md [cb-max-256]): the blocks so far, f (the latest)
 * included. */
static int check_blocks_total(struct load *l, const struct scenario_yaml_ref *e, const struct fleet_entry *f)
{
	struct scenario_yaml_ref r;
	int total = 0;

	for (const struct fleet_entry *p = l->sc.fleet; p <= f; p++)
		total += p->option == OPTION_CAPACITY_BLOCK ? p->count : 0;
	if (total <= BLOCKS_MAX_COUNT)
		return STATUS_OK;
	scenario_yaml_child(e, "count", &r);
	return scenario_yaml_fail(&l->y, &r, "the capacity_block entries hold %d instances with this one (%d "
				  "before it); expected at most %d across all Capacity Blocks "
				  "(SOURCES.md [cb-max-256])",
				  total, total - f->count, BLOCKS_MAX_COUNT);
}

/* The block's price: per instance-hour (default the catalogue's Capacity Block rate) or for the whole block;
 * each is derived from the other. */
static int read_block_price(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	double instance_h = (double)f->count * (double)f->duration_us / US_PER_H;
	struct scenario_yaml_ref r;
	int rc;

	if ((rc = scenario_load_exclusive(l, e, "usd_per_h", "upfront_usd")))
		return rc;
	scenario_yaml_child(e, "upfront_usd", &r);
	if (r.node) {
		f->price_given = true;
		rc = scenario_yaml_number(&l->y, &r, &upfront_bounds, &f->upfront_usd);
		f->usd_per_h = instance_h > 0 ? f->upfront_usd / instance_h : 0;  /* 0 instances: nothing bought */
		if (f->count == 0)
			f->upfront_usd = 0;
		return rc;
	}
	scenario_yaml_child(e, "usd_per_h", &r);
	if (!r.node && l->type.cb_usd_per_h == 0)
		return scenario_yaml_missing(&l->y, e, "usd_per_h", "the catalogue has no Capacity Block "
					     "rate for this type: a price per instance-hour, or upfront_usd "
					     "for the block");
	f->usd_per_h = l->type.cb_usd_per_h;
	rc = read_price(l, e, f);
	f->upfront_usd = f->usd_per_h * instance_h;
	return rc;
}

/*
 * gcp_calendar, a DWS calendar-mode future reservation (SOURCES.md [gcp-calendar-limits]): "You can
 * reserve resources for a period between 1 and 90 days" and "between 1 and 80 GPU VMs per request", from
 * any start. It is simulated as a capacity block without AWS's 11:30 UTC end, the 256-instance total or
 * the catalogue rate: no vendor rate is known, so usd_per_h or upfront_usd is required.
 */
static int read_calendar(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	struct scenario_yaml_ref start, r;
	int64_t start_unix_us = 0, end_unix_us = 0, len_us;
	int rc;

	if ((rc = scenario_load_required(l, e, "start", "when the reservation begins, a UTC time", &start)) ||
	    (rc = scenario_load_time(l, &start, &start_unix_us)) ||
	    (rc = read_block_end(l, e, start_unix_us, &r, &end_unix_us)))
		return rc;
	len_us = end_unix_us - start_unix_us;
	if (len_us % DAY_US != 0 || len_us / DAY_US < 1 || len_us / DAY_US > CALENDAR_MAX_DAYS)
		return scenario_yaml_fail(&l->y, &r, "the reservation lasts %.6g days; expected whole days from 1 "
					  "to %d (\"between 1 and 90 days\", SOURCES.md [gcp-calendar-limits])",
					  (double)len_us / DAY_US, CALENDAR_MAX_DAYS);
	f->start_us = start_unix_us - l->sc.start_unix_us;
	f->duration_us = len_us;
	scenario_yaml_child(e, "usd_per_h", &r);
	if (!r.node && (scenario_yaml_child(e, "upfront_usd", &r), !r.node))
		return scenario_yaml_missing(&l->y, e, "usd_per_h", "no Google Cloud calendar-mode rate is "
					     "known (SOURCES.md [gcp-calendar-limits]): a price per VM-hour, or "
					     "upfront_usd for the reservation");
	if ((rc = read_bought(l, e, 0, MAX_INSTANCES, "the number of VMs reserved (1 to 80 per request)", f)))
		return rc;
	if (f->count > CALENDAR_MAX_VMS) {  /* 0 is allowed: a sweep may reserve nothing (see read_bought) */
		scenario_yaml_child(e, "count", &r);
		return scenario_yaml_fail(&l->y, &r, "the reservation holds %d VMs; expected at most %d (\"between 1 "
					  "and 80 GPU VMs per request\"; larger requests go through the vendor's "
					  "account team, SOURCES.md [gcp-calendar-limits]), or 0 to reserve nothing",
					  f->count, CALENDAR_MAX_VMS);
	}
	if ((rc = read_block_price(l, e, f)))
		return rc;
	return check_block_window(l, &start, start_unix_us, f);
}

static int read_capacity_block(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	struct scenario_yaml_ref start, end, r;
	int64_t start_unix_us = 0, end_unix_us = 0;
	int rc;

	if (f->variant == VARIANT_CALENDAR)
		return read_calendar(l, e, f);

	scenario_yaml_child(e, "end", &end);
	if ((rc = scenario_load_required(l, e, "start", "when the block begins, a UTC time", &start)) ||
	    (rc = scenario_load_time(l, &start, &start_unix_us)) ||
	    (rc = read_block_end(l, e, start_unix_us, &r, &end_unix_us)) ||
	    (rc = check_block_offering(l, &r, end.node == NULL, start_unix_us, end_unix_us)))
		return rc;
	f->start_us = start_unix_us - l->sc.start_unix_us;
	f->duration_us = end_unix_us - start_unix_us;
	if ((rc = read_bought(l, e, 0, BLOCK_MAX_COUNT, "the number of instances in the block", f)) ||
	    (rc = check_blocks_total(l, e, f)) || (rc = read_block_price(l, e, f)))
		return rc;
	return check_block_window(l, &start, start_unix_us, f);
}

/* ---- the list ----------------------------------------------------------------------------------- */

/* The purchase option of a fleet entry: a kind, or a provider's own product (provider.h) into *variant. */
static int read_option(struct load *l, const struct scenario_yaml_ref *e, enum option_kind *kind,
		       enum provider_variant *variant)
{
	const char *names = provider_option_list(l->sc.provider);
	struct scenario_yaml_ref r;
	char name[SCENARIO_NAME_MAX];
	int rc;

	*variant = VARIANT_NONE;
	if ((rc = scenario_load_required(l, e, "option", names, &r)) ||
	    (rc = scenario_yaml_string(&l->y, &r, name, sizeof name)))
		return rc;
	if (provider_parse_variant(l->sc.provider, name, kind, variant))
		return STATUS_OK;
	if (!option_kind_parse(name, kind))
		return scenario_yaml_fail(&l->y, &r, "unknown option '%s'; expected %s", name, names);
	if (!provider_offers(l->sc.provider, *kind))  /* provider.h: capacity blocks, training plans are aws's */
		return scenario_yaml_fail(&l->y, &r, "%s is not sold on %s (the scenario's provider); expected %s",
					  name, provider_name(l->sc.provider), provider_option_list(l->sc.provider));
	return STATUS_OK;
}


/* A training plan fills the entries from f on, one per segment (f lies in l->sc.fleet). */
static int read_training_plan(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	return scenario_load_plan(l, e, f, SCENARIO_FLEET_MAX - (int)(f - l->sc.fleet));
}

/* How each option's entry is read, after its keys are checked. */
static int (*const read_entry[OPTION_KIND_COUNT])(struct load *, const struct scenario_yaml_ref *,
						   struct fleet_entry *) = {
	[OPTION_RESERVED] = read_reserved, [OPTION_ON_DEMAND] = read_on_demand, [OPTION_SPOT] = read_spot,
	[OPTION_ODCR] = read_odcr, [OPTION_SAVINGS_PLAN] = read_savings_plan,
	[OPTION_CAPACITY_BLOCK] = read_capacity_block, [OPTION_TRAINING_PLAN] = read_training_plan };

static int read_fleet_entry(struct load *l, const struct scenario_yaml_ref *e, struct fleet_entry *f)
{
	int n, rc;

	if ((rc = scenario_yaml_mapping(&l->y, e, NULL, "a mapping such as {option: reserved, count: 4}",
					&n)) ||
	    (rc = read_option(l, e, &f->option, &f->variant)) ||
	    (rc = scenario_load_check_keys(l, e, n, option_keys, OPTION_KIND_COUNT, f->option, NULL,
					   f->variant ? provider_variant_name(f->variant) : option_kind_name(f->option))) ||
	    (rc = scenario_load_startup(l, e, &f->startup)) || (rc = scenario_load_use(l, e, f)) ||
	    (rc = scenario_load_zone(l, e, f)))
		return rc;
	return scenario_load_typed_entry(l, e, f, read_entry[f->option]);
}

void scenario_load_fleet_item(const struct load *l, int i, struct scenario_yaml_ref *out)
{
	scenario_yaml_item(&l->fleet, l->fleet_item[i], out);
}

/* The list, item by item; a training_plan item fills one sc.fleet entry per segment (scenario_plan.c). */
int scenario_load_fleet(struct load *l)
{
	struct scenario_yaml_ref e;
	int n, rc;

	if ((rc = scenario_load_required(l, &l->root, "fleet", "a list of entries such as '- {option: "
					 "reserved, count: 4}'", &l->fleet)) ||
	    (rc = scenario_yaml_list(&l->y, &l->fleet, 1, SCENARIO_FLEET_MAX,
				     "entries such as '- {option: reserved, count: 4}'", &n)))
		return rc;
	l->sc.nfleet = 0;
	for (int i = 0; i < n; i++) {
		int k = l->sc.nfleet, filled = 1;
		scenario_yaml_item(&l->fleet, i, &e);
		if (k == SCENARIO_FLEET_MAX)  /* training plans' segments took the room */
			return scenario_yaml_fail(&l->y, &e, "the fleet already holds %d entries (each segment of a "
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
	return STATUS_OK;
}

/* ---- quotas, launch_retry, allocation ------------------------------------------------------------ */

/* `quotas` (SOURCES.md [od-quota-vcpus]: On-Demand quotas count vCPUs per family); -1 = no limit. */
static int read_quotas(struct load *l)
{
	int *values[] = { &l->sc.quotas.on_demand_vcpus, &l->sc.quotas.on_demand_instances,
			  &l->sc.quotas.spot_vcpus, &l->sc.quotas.spot_instances };
	struct scenario_yaml_ref q, r;
	int rc;

	scenario_yaml_child(&l->root, "quotas", &q);
	if ((rc = scenario_yaml_mapping(&l->y, &q, quota_keys, NULL, NULL)))
		return rc;
	for (int i = 0; quota_keys[i]; i++) {
		*values[i] = -1;
		scenario_yaml_child(&q, quota_keys[i], &r);
		if ((rc = scenario_load_int(l, &r, 0, MAX_QUOTA, values[i])))
			return rc;
		if (r.node && strstr(quota_keys[i], "vcpus") && l->type.vcpus == 0)
			return scenario_yaml_fail(&l->y, &r, "the vCPUs of %s are unknown; expected "
						  "catalog.%s.vcpus, or a quota in instances",
						  l->sc.serving.instance_type, l->sc.serving.instance_type);
	}
	return STATUS_OK;
}

/* `launch_retry`: the wait after a failed launch grows by multiplier per failure, up to max_backoff_s. */
static int read_retry(struct load *l)
{
	struct scenario_yaml_ref lr, r;
	int rc;

	scenario_yaml_child(&l->root, "launch_retry", &lr);
	if ((rc = scenario_yaml_mapping(&l->y, &lr, retry_keys, NULL, NULL)))
		return rc;
	l->sc.launch_retry.backoff_us = DEFAULT_BACKOFF_US;
	l->sc.launch_retry.multiplier = DEFAULT_MULTIPLIER;
	scenario_yaml_child(&lr, "backoff_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, true, MAX_BACKOFF_US, &l->sc.launch_retry.backoff_us)))
		return rc;
	/* the cap defaults to 600 s, or to the first wait when that is longer */
	l->sc.launch_retry.max_backoff_us = l->sc.launch_retry.backoff_us > DEFAULT_MAX_BACKOFF_US
					    ? l->sc.launch_retry.backoff_us : DEFAULT_MAX_BACKOFF_US;
	scenario_yaml_child(&lr, "max_backoff_s", &r);
	if ((rc = scenario_load_duration(l, &r, l->sc.launch_retry.backoff_us, false, MAX_BACKOFF_US,
					 &l->sc.launch_retry.max_backoff_us)))
		return rc;
	scenario_yaml_child(&lr, "multiplier", &r);
	return scenario_yaml_number(&l->y, &r, &multiplier_bounds, &l->sc.launch_retry.multiplier);
}

/* `allocation`: order (fill the fleet in list order) or mixed (an on-demand base, then a percentage). */
static int read_allocation(struct load *l)
{
	struct scenario_yaml_ref al, r, pct;
	int mixed = 0, fallback = 1, spot = 0, rc;

	scenario_yaml_child(&l->root, "allocation", &al);
	if ((rc = scenario_yaml_mapping(&l->y, &al, allocation_keys, NULL, NULL)))
		return rc;
	scenario_yaml_child(&al, "strategy", &r);
	if ((rc = scenario_yaml_choice(&l->y, &r, strategy_names, 2, &mixed)))
		return rc;
	for (int i = 0; i < l->sc.nfleet; i++)
		spot += l->sc.fleet[i].option == OPTION_SPOT && l->sc.fleet[i].use != USE_JOBS;  /* serving's */
	if (mixed && !spot)
		return scenario_yaml_fail(&l->y, &r, "strategy mixed splits launches between on-demand "
					  "and spot, but the fleet has no spot entry; expected a spot entry, "
					  "or strategy order");
	/* copies decide which instances go (IDLE_RELEASE); a market split would drain others, copies and all */
	if (mixed && l->sc.copies.enabled)
		return scenario_yaml_fail(&l->y, &r, "strategy mixed rebalances on-demand and spot by draining "
					  "instances, which would take model copies with them; with serving.copies "
					  "expected strategy order (list the entries in the order to fill)");
	l->sc.allocation.mixed = mixed;
	l->sc.allocation.on_demand_pct = 100;
	scenario_yaml_child(&al, "on_demand_base_capacity", &r);
	if ((rc = scenario_load_int(l, &r, 0, MAX_INSTANCES, &l->sc.allocation.on_demand_base)))
		return rc;
	scenario_yaml_child(&al, "on_demand_percentage_above_base", &pct);
	if ((rc = scenario_yaml_number(&l->y, &pct, &percent_bounds, &l->sc.allocation.on_demand_pct)))
		return rc;
	if (!mixed && (r.node || pct.node))  /* base and percentage shape the mix */
		return scenario_yaml_fail(&l->y, r.node ? &r : &pct, "applies only to strategy mixed; "
					  "expected strategy: mixed, or no %s", allocation_keys[r.node ? 1 : 2]);
	scenario_yaml_child(&al, "spot_fallback", &r);
	rc = scenario_yaml_choice(&l->y, &r, bool_names, 2, &fallback);
	l->sc.allocation.spot_fallback = fallback;
	return rc;
}

int scenario_load_limits(struct load *l)
{
	int rc;

	if ((rc = read_quotas(l)) || (rc = read_retry(l)))
		return rc;
	return read_allocation(l);
}

/* ---- tables shared with the schema (scenario_load.h) --------------------------------------------- */

const struct scenario_load_names scenario_load_outage_keys = SCENARIO_LOAD_KEYS(outage_keys);
const struct scenario_load_names scenario_load_quota_keys = SCENARIO_LOAD_KEYS(quota_keys);
const struct scenario_load_names scenario_load_retry_keys = SCENARIO_LOAD_KEYS(retry_keys);
const struct scenario_load_names scenario_load_allocation_keys = SCENARIO_LOAD_KEYS(allocation_keys);
const struct scenario_load_names scenario_load_term_names = SCENARIO_LOAD_NAMES(term_names);
const struct scenario_load_names scenario_load_payment_names = SCENARIO_LOAD_NAMES(payment_names);
const struct scenario_load_names scenario_load_strategy_names = SCENARIO_LOAD_NAMES(strategy_names);
const struct scenario_load_names scenario_load_band_names = SCENARIO_LOAD_NAMES(band_names);
const struct scenario_load_variants scenario_load_option = { "option", NULL, OPTION_KIND_COUNT, option_keys };
const struct scenario_yaml_bounds *const scenario_load_price = &price_bounds;
const struct scenario_yaml_bounds *const scenario_load_rate = &rate_bounds;
const struct scenario_yaml_bounds *const scenario_load_upfront = &upfront_bounds;
const struct scenario_yaml_bounds *const scenario_load_fraction = &fraction_bounds;
const struct scenario_yaml_bounds *const scenario_load_share = &share_bounds;
const struct scenario_yaml_bounds *const scenario_load_commit = &commit_bounds;
const struct scenario_yaml_bounds *const scenario_load_interruption = &interruption_bounds;
const struct scenario_yaml_bounds *const scenario_load_reclaim = &reclaim_bounds;
const struct scenario_yaml_bounds *const scenario_load_multiplier = &multiplier_bounds;
const struct scenario_yaml_bounds *const scenario_load_percent = &percent_bounds;
