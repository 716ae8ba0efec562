/*
 * catalog: the default catalogue of GPU instance types and their prices.
 *
 * One row per instance type: GPUs, GPU model, vCPUs, the On-Demand price in USD per instance-hour, and the
 * date and source of that price (SOURCES.md [price-od]). The reserved rate is the On-Demand price less
 * `reserved_discount`, a typical one-year commitment discount from secondary sources
 * (SOURCES.md [price-reserved-discount]); the 3-year, Savings Plan and Spot discounts are likewise typical
 * figures, not quotes (SOURCES.md [price-sp-discount], [price-spot-discount]). They are assumptions, and
 * every scenario may override any number here (the scenario's `catalog:` map, or the price keys of a fleet
 * entry). The instance family (quota group) is the first letter of the name: "Running On-Demand P instances",
 * "... G and VT instances" (SOURCES.md [od-quota-vcpus]).
 *
 * Validity: the Capacity Block rates are the last published ones, documented as valid until 2025-01-01
 * (SOURCES.md [price-cb]); cb_valid_until says so, and a run that uses such a rate for a scenario starting
 * on or after that day is warned (price_stale). The other prices carry no validity end (see the field).
 *
 * The table is static, read-only data: catalog_find() returns a pointer into it that lives for the whole
 * process. Prices are us-east-1 Linux unless the source column says otherwise.
 */
#ifndef GPUCAP_CATALOG_H
#define GPUCAP_CATALOG_H

#include <stddef.h>

#include "provider.h"

struct catalog_entry {
	const char *name;          /* EC2 instance type, e.g. "p5.48xlarge" */
	int gpus;                  /* accelerators per instance */
	const char *gpu_model;     /* e.g. "H100 80GB" */
	int vcpus;                 /* vCPUs, as EC2 quotas count them */
	double od_usd_per_h;       /* On-Demand price, USD per instance-hour */
	double reserved_discount;  /* fraction off On-Demand for a 1-year reservation (assumption) */
	double reserved_3y_discount;  /* fraction off On-Demand for a 3-year reservation (assumption) */
	double savings_plan_discount; /* fraction off On-Demand under a 1-year Compute Savings Plan (assumption) */
	double spot_discount;      /* typical Spot discount off the current On-Demand price (assumption) */
	double cb_usd_per_h;       /* last published Capacity Block rate per instance-hour; 0 = unknown */
	const char *price_date;    /* when the price was observed, YYYY-MM-DD */
	const char *price_source;  /* where the price comes from (SOURCES.md [price-od]) */
	const char *cb_valid_until;/* last day (exclusive) the Capacity Block rate is valid, YYYY-MM-DD; NULL
	                              when there is no rate. On-Demand prices have no end: a list price stays
	                              in force until AWS changes it, and price_date is when it was observed,
	                              not an expiry (models/metering/warn.c, price_stale) */
	enum provider provider;    /* whose machine type it is; rows without one are aws (PROVIDER_AWS = 0).
	                              A gcp or azure row has od_usd_per_h = 0: no vendor price was found
	                              (SOURCES.md [gcp-price-unknown], [az-price-unknown]), so a scenario that
	                              uses it must give usd_per_h under catalog: (scenario.c says so) */
};

/* The entry named `name`, or NULL if the catalogue has no such type. */
const struct catalog_entry *catalog_find(const char *name);

/* The number of entries, and entry i (0 <= i < catalog_count()). */
size_t catalog_count(void);
const struct catalog_entry *catalog_at(size_t i);

#endif
