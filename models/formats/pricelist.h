/*
 * pricelist: a vendor's published prices for instance types, read from the JSON its own tools print, as
 * plain rows (no catalogue, no scenario: models/load/scenario_prices.c maps the rows onto the catalogue).
 *
 * Formats (enum pricelist_format; models/README.md, "Price lists"; SOURCES.md [aws-price-list-api],
 * [cb-offerings-api], [az-retail-prices-api], [gcp-billing-catalog]):
 *   aws_price_list      `aws pricing get-products --service-code AmazonEC2` output: {"FormatVersion":
 *                       "aws_v1", "PriceList": ["<a product document, as a JSON string>", ...]}. Each document
 *                       has product.attributes (instanceType, regionCode, operatingSystem, tenancy,
 *                       preInstalledSw, capacitystatus, marketoption) and terms.OnDemand / terms.Reserved,
 *                       whose priceDimensions give pricePerUnit.USD per unit "Hrs" (hourly) or "Quantity"
 *                       (an upfront fee for the term). Kept: Compute Instance products with operatingSystem
 *                       Linux, tenancy Shared, preInstalledSw NA, capacitystatus Used, marketoption OnDemand
 *                       (or none), regionCode the region asked for; every other product is checked and skipped.
 *   aws_capacity_blocks `aws ec2 describe-capacity-block-offerings` output: {"CapacityBlockOfferings":
 *                       [{InstanceType, AvailabilityZone, InstanceCount, CapacityBlockDurationHours,
 *                       [CapacityBlockDurationMinutes], UpfrontFee, CurrencyCode}]}. One row per offering: the
 *                       rate per instance-hour UpfrontFee / (InstanceCount x hours); the region is the zone
 *                       less its final letters (us-east-1a -> us-east-1).
 *   azure_retail        Azure Retail Prices API JSON: {"Items": [{armSkuName, armRegionName, type
 *                       ("Consumption" | "Reservation" | "DevTestConsumption"), reservationTerm ("1 Year" |
 *                       "3 Years"), retailPrice, unitOfMeasure "1 Hour", productName, meterName,
 *                       currencyCode, serviceName}]}. Kept: serviceName "Virtual Machines", Consumption and
 *                       Reservation items, neither Windows (productName) nor Spot or Low Priority (meterName)
 *                       meters. A Reservation item's retailPrice is the price of the whole term; it becomes an
 *                       all-upfront row (the whole price up front) and a no-upfront row (the same total paid
 *                       monthly: total / term hours per hour, Azure charging nothing extra for monthly
 *                       payments).
 *   gcp_skus            Google Cloud Billing Catalog SKUs: `gcloud billing skus list --service=6F81-5844-456A
 *                       --format=json` (a list of SKUs) or the REST services.skus.list response {"skus": [...]}.
 *                       Each SKU: description, category.usageType, serviceRegions, pricingInfo[0].
 *                       pricingExpression {usageUnit, tieredRates[{startUsageAmount, unitPrice {currencyCode,
 *                       units (a string), nanos}}]}; price = units + nanos / 1e9 of the tier starting at 0.
 *                       A machine type is priced by parts (pricelist_gcp.c's table: a3-highgpu-8g = 8 x
 *                       "Nvidia H100 80GB GPU" + 208 x "A3 Instance Core" + 1872 GiB x "A3 Instance Ram"):
 *                       one On-Demand row per machine whose OnDemand parts are all in the region; some parts
 *                       without the others is an error. Commit and Preemptible SKUs are checked, not used.
 *                       The region is a Compute Engine region (us-central1), matched in serviceRegions.
 * Prices must be USD. Rows of other regions are checked and skipped; a file with no row for the region
 * fails and names the regions it has. Rows keep file order; several rows may name one (type, kind, term,
 * payment, class): pricelist_find() returns the first (aws_capacity_blocks: the lowest rate).
 *
 * Errors: STATUS_ENOENT (cannot read), STATUS_ENOMEM, and STATUS_EINPUT with "FILE:LINE:COL: JSON.PATH: what
 * was wrong; expected what", the path in the document's own terms (PriceList[3].terms.Reserved.X.
 * priceDimensions.Y.pricePerUnit.USD; a product document inside a string is parsed on its own and its
 * messages name the string's line in the file and the path inside it). A struct pricelist is caller-owned:
 * pricelist_load fills it, pricelist_fini frees it; on failure it is left zeroed.
 */
#ifndef GPUCAP_PRICELIST_H
#define GPUCAP_PRICELIST_H

#include <stdbool.h>

#include "diag.h"

enum pricelist_format {
	PRICELIST_AWS,         /* aws_price_list */
	PRICELIST_AWS_BLOCKS,  /* aws_capacity_blocks */
	PRICELIST_AZURE,       /* azure_retail */
	PRICELIST_GCP,         /* gcp_skus */
	PRICELIST_FORMATS      /* how many */
};

/* What a row prices. */
enum pricelist_kind {
	PRICELIST_ON_DEMAND,  /* usd_per_h is the On-Demand rate */
	PRICELIST_RESERVED,   /* a term: usd_per_h hourly plus upfront_usd once, per instance */
	PRICELIST_BLOCK       /* a Capacity Block rate, usd_per_h per instance-hour */
};

/* A reservation's payment option, in the order of scenario.h's enum payment_kind. */
enum pricelist_payment { PRICELIST_NO_UPFRONT, PRICELIST_PARTIAL_UPFRONT, PRICELIST_ALL_UPFRONT };

#define PRICELIST_NAME_MAX 64  /* bytes of a type or region name, with its NUL */

struct pricelist_row {
	char type[PRICELIST_NAME_MAX];    /* instance type: "p5.48xlarge", "Standard_ND96isr_H100_v5" */
	enum pricelist_kind kind;         /* what it prices */
	int term_years;                   /* reserved: 1 or 3; else 0 */
	enum pricelist_payment payment;   /* reserved: the payment option; else PRICELIST_NO_UPFRONT */
	bool convertible;                 /* reserved (aws): OfferingClass convertible; else false */
	double usd_per_h;                 /* USD per instance-hour (reserved: the hourly part) */
	double upfront_usd;               /* reserved: USD per instance for the whole term; else 0 */
	int line;                         /* where the row's record starts in the file */
};

struct pricelist {
	struct pricelist_row *rows;       /* the rows of the region, in file order; owned */
	int n;                            /* rows */
	char published[PRICELIST_NAME_MAX];  /* aws_price_list: the latest publicationDate; else "" */
};

/* The format's name as a scenario writes it ("aws_price_list", ...), or "?". */
const char *pricelist_format_name(enum pricelist_format f);

/*
 * Read the file at `path` (borrowed) of format `f` into *pl, keeping the rows of `region` (borrowed: an AWS
 * region code such as eu-west-1, an Azure armRegionName such as eastus). `label` names the file in messages
 * (NULL: the path).
 */
int pricelist_load(struct pricelist *pl, const char *path, const char *label, enum pricelist_format f,
		   const char *region, struct diag *d);

/* The same from len bytes of text already in memory (borrowed; need not be NUL-terminated). */
int pricelist_parse(struct pricelist *pl, const char *text, size_t len, const char *label,
		    enum pricelist_format f, const char *region, struct diag *d);

/* A Google Cloud machine type's parts (gcp_skus): the start of its GPU, vCPU and memory SKUs' descriptions
 * and how many of each (GPUs, vCPUs, GiB). */
#define PRICELIST_MACHINES_MAX 8  /* machines a caller may add */
struct pricelist_machine {
	char type[PRICELIST_NAME_MAX];
	char part[3][PRICELIST_NAME_MAX];  /* GPU, vCPU, memory: "Nvidia H100 80GB GPU", "A3 Instance Core", ... */
	double count[3];                   /* GPUs, vCPUs, GiB of memory */
};

/* pricelist_load for gcp_skus with n (<= PRICELIST_MACHINES_MAX) machines besides the built-in ones (one of
 * the same type replaces the built-in shape); machines borrowed. */
int pricelist_load_gcp(struct pricelist *pl, const char *path, const char *label, const char *region,
		       const struct pricelist_machine *machines, int n, struct diag *d);

/*
 * The first row for `type` of that kind (term_years, payment and convertible are compared for reserved rows
 * only); for PRICELIST_BLOCK the lowest rate of the type. NULL when there is none. Points into pl.
 */
const struct pricelist_row *pricelist_find(const struct pricelist *pl, const char *type, enum pricelist_kind kind,
					   int term_years, enum pricelist_payment payment, bool convertible);

/* Free what *pl holds and zero it; NULL allowed. */
void pricelist_fini(struct pricelist *pl);

#endif
