/*
 * scenario_limits: the top-level keys that limit how the fleet launches (see scenario_fleet.c for the fleet
 * itself): `quotas` (vCPUs and instances, On-Demand and Spot), `launch_retry` (the back-off after a failed
 * launch) and `allocation` (fill in order, or a mixed On-Demand / Spot split).
 */
#include <string.h>

#include "scenario_load.h"
#include "status.h"
#include "units.h"

#define MAX_QUOTA 10000000
#define DEFAULT_BACKOFF_US (30 * S_US)   /* within "wait a few minutes" (SOURCES.md [launch-retry-backoff]) */
#define DEFAULT_MAX_BACKOFF_US (600 * S_US)
#define MAX_BACKOFF_US DAY_US
#define DEFAULT_MULTIPLIER 2.0

static const struct yamldoc_bounds multiplier_bounds = { 1, 10, false, false };
static const struct yamldoc_bounds percent_bounds = { 0, 100, false, false };

static const char *const quota_keys[] = { "on_demand_vcpus", "on_demand_instances", "spot_vcpus",
	"spot_instances", NULL };
static const char *const retry_keys[] = { "backoff_s", "max_backoff_s", "multiplier", NULL };
static const char *const allocation_keys[] = { "strategy", "on_demand_base_capacity",
	"on_demand_percentage_above_base", "spot_fallback", NULL };
static const char *const strategy_names[] = { "order", "mixed" };
static const char *const bool_names[] = { "false", "true" };

/* `quotas` (SOURCES.md [od-quota-vcpus]: On-Demand quotas count vCPUs per family); -1 = no limit. */
static int read_quotas(struct load *l)
{
	int *values[] = { &l->sc.quotas.on_demand_vcpus, &l->sc.quotas.on_demand_instances,
			  &l->sc.quotas.spot_vcpus, &l->sc.quotas.spot_instances };
	struct yamldoc_ref q, r;
	int rc;

	yamldoc_child(&l->root, "quotas", &q);
	if ((rc = yamldoc_mapping(&l->y, &q, quota_keys, NULL, NULL)))
		return rc;
	for (int i = 0; quota_keys[i]; i++) {
		*values[i] = -1;
		yamldoc_child(&q, quota_keys[i], &r);
		if ((rc = scenario_load_int(l, &r, 0, MAX_QUOTA, values[i])))
			return rc;
		if (r.node && strstr(quota_keys[i], "vcpus") && l->type.vcpus == 0)
			return yamldoc_fail(&l->y, &r, "the vCPUs of %s are unknown; expected "
						  "catalog.%s.vcpus, or a quota in instances",
						  l->sc.serving.instance_type, l->sc.serving.instance_type);
	}
	return STATUS_OK;
}

/* `launch_retry`: the wait after a failed launch grows by multiplier per failure, up to max_backoff_s. */
static int read_retry(struct load *l)
{
	struct yamldoc_ref lr, r;
	int rc;

	yamldoc_child(&l->root, "launch_retry", &lr);
	if ((rc = yamldoc_mapping(&l->y, &lr, retry_keys, NULL, NULL)))
		return rc;
	l->sc.launch_retry.backoff_us = DEFAULT_BACKOFF_US;
	l->sc.launch_retry.multiplier = DEFAULT_MULTIPLIER;
	yamldoc_child(&lr, "backoff_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, true, MAX_BACKOFF_US, &l->sc.launch_retry.backoff_us)))
		return rc;
	/* the cap defaults to 600 s, or to the first wait when that is longer */
	l->sc.launch_retry.max_backoff_us = l->sc.launch_retry.backoff_us > DEFAULT_MAX_BACKOFF_US
					    ? l->sc.launch_retry.backoff_us : DEFAULT_MAX_BACKOFF_US;
	yamldoc_child(&lr, "max_backoff_s", &r);
	if ((rc = scenario_load_duration(l, &r, l->sc.launch_retry.backoff_us, false, MAX_BACKOFF_US,
					 &l->sc.launch_retry.max_backoff_us)))
		return rc;
	yamldoc_child(&lr, "multiplier", &r);
	return yamldoc_number(&l->y, &r, scenario_load_multiplier, &l->sc.launch_retry.multiplier);
}

/* `allocation`: order (fill the fleet in list order) or mixed (an on-demand base, then a percentage). */
static int read_allocation(struct load *l)
{
	struct yamldoc_ref al, r, pct;
	int mixed = 0, fallback = 1, spot = 0, rc;

	yamldoc_child(&l->root, "allocation", &al);
	if ((rc = yamldoc_mapping(&l->y, &al, allocation_keys, NULL, NULL)))
		return rc;
	yamldoc_child(&al, "strategy", &r);
	if ((rc = yamldoc_choice(&l->y, &r, strategy_names, 2, &mixed)))
		return rc;
	for (int i = 0; i < l->sc.nfleet; i++)
		spot += l->sc.fleet[i].option == OPTION_SPOT && l->sc.fleet[i].use != USE_JOBS;  /* serving's */
	if (mixed && !spot)
		return yamldoc_fail(&l->y, &r, "strategy mixed splits launches between on-demand "
					  "and spot, but the fleet has no spot entry; expected a spot entry, "
					  "or strategy order");
	/* copies decide which instances go (IDLE_RELEASE); a market split would drain others, copies and all */
	if (mixed && l->sc.copies.enabled)
		return yamldoc_fail(&l->y, &r, "strategy mixed rebalances on-demand and spot by draining "
					  "instances, which would take model copies with them; with serving.copies "
					  "expected strategy order (list the entries in the order to fill)");
	l->sc.allocation.mixed = mixed;
	l->sc.allocation.on_demand_pct = 100;
	yamldoc_child(&al, "on_demand_base_capacity", &r);
	if ((rc = scenario_load_int(l, &r, 0, MAX_INSTANCES, &l->sc.allocation.on_demand_base)))
		return rc;
	yamldoc_child(&al, "on_demand_percentage_above_base", &pct);
	if ((rc = yamldoc_number(&l->y, &pct, scenario_load_percent, &l->sc.allocation.on_demand_pct)))
		return rc;
	if (!mixed && (r.node || pct.node))  /* base and percentage shape the mix */
		return yamldoc_fail(&l->y, r.node ? &r : &pct, "applies only to strategy mixed; "
					  "expected strategy: mixed, or no %s", allocation_keys[r.node ? 1 : 2]);
	yamldoc_child(&al, "spot_fallback", &r);
	rc = yamldoc_choice(&l->y, &r, bool_names, 2, &fallback);
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

const struct scenario_load_names scenario_load_quota_keys = SCENARIO_LOAD_KEYS(quota_keys);
const struct scenario_load_names scenario_load_retry_keys = SCENARIO_LOAD_KEYS(retry_keys);
const struct scenario_load_names scenario_load_allocation_keys = SCENARIO_LOAD_KEYS(allocation_keys);
const struct scenario_load_names scenario_load_strategy_names = SCENARIO_LOAD_NAMES(strategy_names);
const struct yamldoc_bounds *const scenario_load_multiplier = &multiplier_bounds;
const struct yamldoc_bounds *const scenario_load_percent = &percent_bounds;
