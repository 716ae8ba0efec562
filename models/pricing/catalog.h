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
 * Who sells what (SOURCES.md [sold-types]): Capacity Blocks and SageMaker training plans are offered for
 * P-family GPU and Trn instance types only; Google Cloud's calendar-mode reservations for A3 and newer GPU
 * machine types (and TPUs, which the catalogue has none of). Each row's `sells` says which of these time-bound
 * products its type has; catalog_sells_by_name() is the same rule read from a type's name, the default for a
 * type the catalogue does not have (a scenario's catalog: may declare otherwise: scenario_catalog.c).
 *
 * The table is static, read-only data: catalog_find() returns a pointer into it that lives for the whole
 * process. Prices are us-east-1 Linux unless the source column says otherwise.
 */
#ifndef GPUCAP_CATALOG_H
#define GPUCAP_CATALOG_H

#include <stddef.h>

#include "provider.h"

/* The time-bound products a type may be bought as (a bit set). */
enum catalog_product {
	SELLS_CAPACITY_BLOCK = 1 << 0,  /* EC2 Capacity Blocks for ML */
	SELLS_TRAINING_PLAN = 1 << 1,   /* SageMaker training plans */
	SELLS_CALENDAR = 1 << 2,        /* Google Cloud DWS calendar-mode reservations (gcp_calendar) */
};
#define SELLS_BLOCKS (SELLS_CAPACITY_BLOCK | SELLS_TRAINING_PLAN)  /* what AWS sells of a P or Trn type */

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
	unsigned sells;            /* the time-bound products of the type: enum catalog_product bits */
};

/* The entry named `name`, or NULL if the catalogue has no such type. */
const struct catalog_entry *catalog_find(const char *name);

/* The products the rule gives a type of that name and provider: SELLS_BLOCKS for an aws P-family GPU type
 * ("p" and a digit: p4d, p5, p6-b200 ...) or a Trn type ("trn"), SELLS_CALENDAR for a gcp A3 or newer
 * machine type ("a3-", "a4-", "a4x-"), else 0. */
unsigned catalog_sells_by_name(const char *type, enum provider provider);

/* The name of one product (a single bit), as a scenario's catalog: `sells` list writes it. */
const char *catalog_product_name(unsigned product);

/* The number of entries, and entry i (0 <= i < catalog_count()). */
size_t catalog_count(void);
const struct catalog_entry *catalog_at(size_t i);

#endif
