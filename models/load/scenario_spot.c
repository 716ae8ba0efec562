/*
 * scenario_spot: the on_demand and spot entries of the fleet (see scenario_fleet.c for the list and the other
 * options, scenario_load.h for the loader's helpers): scaling limits, insufficient-capacity settings, Spot
 * prices (a discount, a fixed price or a price trace, never above On-Demand), the interruption models and
 * pool-wide reclaims, and Azure's max price. Trace files are read while loading, so a malformed trace fails
 * the load like a malformed key; relative paths start from the scenario file's folder.
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

#define MAX_NOTICE_US (3600 * S_US)
#define DEFAULT_OUTAGE_MEAN_US (3600 * S_US)  /* an assumption (SOURCES.md [spot-pool-reclaims]) */
#define MAX_OUTAGE_MEAN_US (400 * DAY_US)
#define HOURS_PER_MONTH 730.0            /* 8760 h / 12: the month of the Spot Advisor's bands */

static const struct yamldoc_bounds share_bounds = { 0, 1, true, false };     /* (0, 1] */
static const struct yamldoc_bounds interruption_bounds = { 0, 100, false, false };  /* per hour */
static const struct yamldoc_bounds reclaim_bounds = { 0, 1000, false, false };      /* per day */

static const char *const outage_keys[] = { "start", "end", NULL };

/*
 * The Spot Instance Advisor's interruption-frequency bands are monthly (SOURCES.md [spot-advisor-bands]:
 * "0-5%, 5-10%, 10-15%, 15-20%, >20% monthly"). A band is read as the probability p that an instance is
 * interrupted within a month, taken at the band's middle (25% for the open ">20%": an assumption), and turned
 * into a constant rate per instance-hour: no interruption for a month has probability exp(-730 rate) = 1 - p,
 * so rate = -ln(1 - p) / 730 (a month = 730 h).
 */
static const char *const band_names[] = { "<5%", "5-10%", "10-15%", "15-20%", ">20%" };
static const double band_monthly_p[] = { 0.025, 0.075, 0.125, 0.175, 0.25 };

/* Whether r (present or not) is the scalar `auto`. */
static bool is_auto(struct load *l, const struct yamldoc_ref *r)
{
	const char *text;
	struct diag *d = l->y.d, quiet;

	if (!r->node)
		return false;
	l->y.d = &quiet;  /* not a scalar: the integer reader says so */
	bool yes = yamldoc_scalar(&l->y, r, "auto", &text) == STATUS_OK && strcmp(text, "auto") == 0;
	l->y.d = d;
	return yes;
}

/* count and max of an entry that scales (on_demand, spot); count may be `auto`. An entry for jobs is not
 * autoscaling's: its max is required (the most instances jobs may take from it). */
static int read_scaling(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	bool tracking = l->sc.autoscaling.policy != POLICY_NONE && f->use != USE_JOBS;  /* a policy governs it */
	struct yamldoc_ref r;
	int rc;

	yamldoc_child(e, "count", &r);
	if (is_auto(l, &r)) {
		f->count_auto = true;  /* 0 until scenario_load_finish knows the policy and the traffic */
	} else if ((rc = scenario_load_int(l, &r, 0, MAX_INSTANCES, &f->count))) {
		const char *text;
		char expect[64];
		/* a word that is not auto: say that auto is the word */
		if (yamldoc_scalar(&l->y, &r, "a number", &text) == STATUS_OK && strspn(text, "+-0123456789") == 0) {
			snprintf(expect, sizeof expect, "an integer from 0 to %d, or auto", MAX_INSTANCES);
			return yamldoc_bad(&l->y, &r, expect);
		}
		return rc;
	}
	yamldoc_child(e, "max", &r);
	if (!r.node && f->use == USE_JOBS)
		return yamldoc_missing(&l->y, e, "max", "with use: jobs, the most instances jobs may take "
					     "from this entry");
	if (!r.node && tracking && !l->max_given)
		return yamldoc_missing(&l->y, e, "max", l->sc.autoscaling.policy == POLICY_STEP ?
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
static int read_ice(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref list, o, r;
	int n, rc;

	yamldoc_child(e, "ice_probability", &r);
	if ((rc = yamldoc_number(&l->y, &r, scenario_load_fraction, &f->ice_probability)))
		return rc;
	yamldoc_child(e, "ice_outages", &list);
	if (!list.node)
		return STATUS_OK;
	if ((rc = yamldoc_list(&l->y, &list, 1, SCENARIO_OUTAGES_MAX, "windows such as '- {start: 2h, "
				     "end: 3h}'", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		struct outage *w = &f->outages[i];
		int64_t after = i ? w[-1].end_us : 0;

		yamldoc_next_item(&list, &walk, &o);
		if ((rc = yamldoc_mapping(&l->y, &o, outage_keys, NULL, NULL)) ||
		    (rc = scenario_load_required(l, &o, "start", "when launches start failing, a duration "
						 "from the start", &r)) ||
		    (rc = scenario_load_duration(l, &r, 0, false, l->sc.horizon_us, &w->start_us)))
			return rc;
		if (w->start_us < after)
			return yamldoc_fail(&l->y, &r, "outages must be in time order and must "
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

int scenario_load_on_demand(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref r;
	int rc;

	yamldoc_child(e, "usd_per_h", &r);
	if (f->variant == VARIANT_FLEX && !r.node)  /* SOURCES.md [gcp-dws-flex]: a discount, not published */
		return yamldoc_missing(&l->y, e, "usd_per_h", "DWS Flex-start VMs are sold at a discount "
					     "that is not published (SOURCES.md [gcp-dws-flex]): their price per "
					     "VM-hour");

	f->usd_per_h = l->sc.serving.od_usd_per_h;
	if ((rc = read_scaling(l, e, f)) || (rc = scenario_load_entry_price(l, e, f)) || (rc = scenario_load_dws_wait(l, e, f)))
		return rc;
	return read_ice(l, e, f);
}

/*
 * Spot never costs more than On-Demand: the price is the Spot price "not exceeding the On-Demand price"
 * (SOURCES.md [spot-max-od]). The bound is the serving type's On-Demand price after the scenario's catalog:
 * overrides (not an on_demand entry's own usd_per_h, which may be a negotiated rate). A fixed usd_per_h above
 * it is refused; prices of a trace above it are lowered to it, with a warning that counts them.
 */
static int check_spot_price(struct load *l, const struct yamldoc_ref *r, struct fleet_entry *f)
{
	double od = l->sc.serving.od_usd_per_h;
	char expect[256];

	if (f->usd_per_h <= od)
		return STATUS_OK;
	snprintf(expect, sizeof expect, "a number from 0 to %.10g (the On-Demand price of %s)", od,
		 l->sc.serving.instance_type);
	return yamldoc_bad(&l->y, r, expect);
}

static int cap_spot_trace(struct load *l, const struct yamldoc_ref *trace, struct fleet_entry *f)
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
static int read_spot_price(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref trace, zone, r;
	int rc;

	if ((rc = scenario_load_exclusive(l, e, "usd_per_h", "discount")) ||
	    (rc = scenario_load_exclusive(l, e, "price_trace", "discount")) ||
	    (rc = scenario_load_exclusive(l, e, "price_trace", "usd_per_h")) ||
	    (rc = scenario_load_only_with(l, e, "price_zone", "price_trace")))
		return rc;
	yamldoc_child(e, "price_trace", &trace);
	yamldoc_child(e, "price_zone", &zone);
	if (trace.node) {
		if ((rc = yamldoc_string(&l->y, &zone, f->price_zone, sizeof f->price_zone)) ||
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
	yamldoc_child(e, "usd_per_h", &r);
	if (r.node)
		return (rc = scenario_load_entry_price(l, e, f)) ? rc : check_spot_price(l, &r, f);
	f->discount = l->type.spot_discount;
	yamldoc_child(e, "discount", &r);
	rc = yamldoc_number(&l->y, &r, scenario_load_fraction, &f->discount);
	f->usd_per_h = l->sc.serving.od_usd_per_h * (1.0 - f->discount);
	return rc;
}

/* The interruption model: a rate, an Advisor band (see band_monthly_p), or an availability trace; *given
 * says whether one was written. */
static int read_interruptions(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f, bool *given_out)
{
	static const char *const models[] = { "interruptions_per_hour", "interruption_band",
		"availability_trace" };
	struct yamldoc_ref r[3];
	int given = -1, band = 0, rc;

	for (int i = 0; i < 3; i++) {
		yamldoc_child(e, models[i], &r[i]);
		if (r[i].node && given >= 0)
			return yamldoc_fail(&l->y, &r[i], "%s and %s cannot both be given; expected "
						  "at most one interruption model (interruptions_per_hour, "
						  "interruption_band or availability_trace)", models[given],
						  models[i]);
		if (r[i].node)
			given = i;
	}
	f->interruptions_per_hour = 0;
	*given_out = given >= 0;
	switch (given) {
	case 0:
		return yamldoc_number(&l->y, &r[0], scenario_load_interruption, &f->interruptions_per_hour);
	case 1:
		/* the bands are AWS's Spot Instance Advisor's (SOURCES.md [spot-advisor-bands]): no other
		 * provider publishes them, so a band on a gcp or azure entry would be a number from another cloud */
		if (l->sc.provider != PROVIDER_AWS)
			return yamldoc_fail(&l->y, &r[1], "interruption_band is an AWS Spot Instance Advisor band and "
						  "the scenario's provider is %s; expected interruptions_per_hour (a rate "
						  "you measured) or an availability_trace",
						  provider_names[l->sc.provider]);
		if ((rc = yamldoc_choice(&l->y, &r[1], band_names, 5, &band)))
			return rc;
		f->interruptions_per_hour = -log(1.0 - band_monthly_p[band]) / HOURS_PER_MONTH;
		return STATUS_OK;
	case 2:
		if ((rc = scenario_load_path(l, &r[2], f->availability_trace)))
			return rc;
		return availtrace_load(&f->avail, f->availability_trace, NULL, l->y.d);
	}
	return STATUS_OK;
}

/*
 * Without an interruption model, say what can still interrupt the entry's instances, or that nothing can:
 * pool reclaims (reclaims_per_day), its zone's outages, an azure max price under a price trace, a
 * preemptible VM's 24 hours. Warned only when nothing can ("never interrupted" must be true).
 */
static int warn_uninterrupted(struct load *l, const struct yamldoc_ref *e, const struct fleet_entry *f)
{
	bool zone_outages = f->zone > 0 && l->sc.zones[f->zone - 1].noutages > 0;
	bool price = f->max_usd_per_h > 0 && f->prices.n > 0;

	if (f->reclaims_per_day > 0 || zone_outages || price)
		return STATUS_OK;
	if (f->variant == VARIANT_PREEMPTIBLE)  /* the 24-hour stop still comes (option_spot.c) */
		return scenario_load_warn(l, e, "gcp_preemptible entry has no interruption model "
					  "(interruptions_per_hour, interruption_band or availability_trace) and no "
					  "reclaims or zone outages; its VMs are stopped only by the 24-hour limit");
	return scenario_load_warn(l, e, "spot entry has no interruption model (interruptions_per_hour, "
				  "interruption_band or availability_trace), no reclaims_per_day, no zone "
				  "outages%s; its instances are never interrupted",
				  l->sc.provider == PROVIDER_AZURE ? " and no max_usd_per_h with a price_trace" : "");
}

/* The interruption notice and pool-wide reclaims. */
static int read_reclaims(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref r;
	int rc;

	f->notice_us = provider_spot_notice_us(l->sc.provider);  /* aws: 120 s */
	f->reclaims_per_day = 0;
	f->reclaim_fraction = 1;
	f->outage_mean_us = DEFAULT_OUTAGE_MEAN_US;
	yamldoc_child(e, "notice_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, MAX_NOTICE_US, &f->notice_us)))
		return rc;
	yamldoc_child(e, "reclaims_per_day", &r);
	if ((rc = yamldoc_number(&l->y, &r, scenario_load_reclaim, &f->reclaims_per_day)))
		return rc;
	yamldoc_child(e, "reclaim_fraction", &r);
	if ((rc = yamldoc_number(&l->y, &r, scenario_load_share, &f->reclaim_fraction)))
		return rc;
	yamldoc_child(e, "outage_mean_s", &r);
	return scenario_load_duration(l, &r, 0, true, MAX_OUTAGE_MEAN_US, &f->outage_mean_us);
}

/*
 * An azure Spot VM's max price (SOURCES.md [az-spot-max-price]), > 0: absent (Azure's -1, stored as 0),
 * no eviction for price. With a fixed price above it the VM could never run, which is refused; with a price trace the run
 * evicts and refuses launches while the price is above it (option_spot.c).
 */
static int read_max_price(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref r;
	int rc;

	f->max_usd_per_h = 0;
	yamldoc_child(e, "max_usd_per_h", &r);
	if (!r.node)
		return STATUS_OK;
	if (l->sc.provider != PROVIDER_AZURE)
		return yamldoc_fail(&l->y, &r, "max_usd_per_h is an Azure Spot setting; expected it only "
					  "with provider: azure");
	if ((rc = yamldoc_number(&l->y, &r, scenario_load_rate, &f->max_usd_per_h)))
		return rc;
	/* Azure creates a VM "only if the maxPrice is greater than the current Azure Spot price" (SOURCES.md
	 * [az-spot-max-price]): equal is not enough */
	if (f->prices.n == 0 && f->usd_per_h >= f->max_usd_per_h)
		return yamldoc_fail(&l->y, &r, "the Spot price %.10g is not below max_usd_per_h %.10g, so the VM "
					  "would never run (Azure creates a Spot VM only when the max price is greater "
					  "than the price); expected more than %.10g, or a price_trace",
					  f->usd_per_h, f->max_usd_per_h, f->usd_per_h);
	return STATUS_OK;
}

int scenario_load_spot(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	bool modelled = false;
	int rc;

	if ((rc = read_scaling(l, e, f)) || (rc = read_spot_price(l, e, f)) ||
	    (rc = read_interruptions(l, e, f, &modelled)) || (rc = read_reclaims(l, e, f)) ||
	    (rc = read_max_price(l, e, f)) || (!modelled && (rc = warn_uninterrupted(l, e, f))) ||
	    (rc = scenario_load_eviction(l, e, f)))
		return rc;
	return read_ice(l, e, f);
}

/* ---- tables shared with the schema (scenario_load.h) --------------------------------------------- */

const struct scenario_load_names scenario_load_outage_keys = SCENARIO_LOAD_KEYS(outage_keys);
const struct scenario_load_names scenario_load_band_names = SCENARIO_LOAD_NAMES(band_names);
const struct yamldoc_bounds *const scenario_load_share = &share_bounds;
const struct yamldoc_bounds *const scenario_load_interruption = &interruption_bounds;
const struct yamldoc_bounds *const scenario_load_reclaim = &reclaim_bounds;
