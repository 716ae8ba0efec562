/*
 * catalog: the default instance catalogue (see catalog.h).
 *
 * Prices: SOURCES.md [price-od]. The On-Demand figures are the post-June-2025 us-east-1 Linux prices that
 * public code states it checked against the AWS Price List offer file of 2026-09-24 ([S]); p6-b200 is the
 * us-east-2 figure from a list "verified against Cost Explorer actuals" ([S]). vCPU counts are the EC2
 * instance-type specifications (SOURCES.md [catalog-specs]: documented for p5.48xlarge = 192).
 * reserved_discount (SOURCES.md [price-reserved-discount]) is a typical 1-year commitment discount:
 * 35% for P-family, 30% for G-family, from secondary sources [S],
 * i.e. an assumption a scenario should override with its own negotiated rate; 3-year: 55% / 50% from the
 * same sources. Savings Plan: 30%, the low end of "Compute SP ~30-45% (1 yr)" [S]
 * (SOURCES.md [price-sp-discount]). Spot (SOURCES.md [price-spot-discount]): the middle of the discount a
 * pre-cut Spot snapshot implies against today's On-Demand price, where there is one (p5 45-60% -> 0.50, p5en
 * 62-69% -> 0.65, p4d 56-77% -> 0.65, p4de 72-83% -> 0.75, g5.xlarge 50-70% -> 0.60, g6.12xlarge 49-60% ->
 * 0.55), else 0.55 for G and 0.50 for P types (no source). Capacity Blocks: the last published rates, valid
 * until 2025-01-01 (SOURCES.md [price-cb]: p5.48xlarge $39.33, p4d.24xlarge $14.75); 0 (unknown) for the
 * others.
 *
 * Google Cloud and Azure rows (provider gcp / azure; SOURCES.md [gcp-machine-types], [az-gpu-sizes]): the
 * GPU counts and models of the vendors' machine-type pages, vCPUs where documented (0 = not documented:
 * no vCPU quota applies). No vendor price was found for any of them (SOURCES.md [gcp-price-unknown],
 * [az-price-unknown]; secondary figures conflict), so od_usd_per_h is 0, meaning "none": a scenario using
 * one must give usd_per_h under catalog:. Their discounts are 0 as well: no typical GPU discount is
 * documented (only maxima, "up to 57%" / "up to 91%" / "up to 65%"), so the scenario gives its own.
 *
 * The last column, what each type may be bought as beyond on-demand, Spot and reservations, follows
 * SOURCES.md [sold-types] (catalog.h); check_scenario_types checks that every row agrees with the rule.
 */
#include "catalog.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#define CB_UNTIL "2025-01-01"  /* SOURCES.md [price-cb]: the Capacity Block rates' validity */
#define NO_PRICE "no vendor price found (SOURCES.md [gcp-price-unknown], [az-price-unknown])"
#define PRICE_LIST "AWS Price List offer file 2026-09-24 via public code [S] (SOURCES.md [price-od])"

static const struct catalog_entry entries[] = {
	{ "p5.48xlarge", 8, "H100 80GB", 192, 55.04, 0.35, 0.55, 0.30, 0.50, 39.33, "2026-09-24", PRICE_LIST, CB_UNTIL, PROVIDER_AWS, SELLS_BLOCKS },
	{ "p5en.48xlarge", 8, "H200 141GB", 192, 63.296, 0.35, 0.55, 0.30, 0.65, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, SELLS_BLOCKS },
	{ "p4d.24xlarge", 8, "A100 40GB", 96, 21.957642, 0.35, 0.55, 0.30, 0.65, 14.75, "2026-09-24", PRICE_LIST, CB_UNTIL, PROVIDER_AWS, SELLS_BLOCKS },
	{ "p4de.24xlarge", 8, "A100 80GB", 96, 27.44705, 0.35, 0.55, 0.30, 0.75, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, SELLS_BLOCKS },
	{ "p6-b200.48xlarge", 8, "B200", 192, 113.9328, 0.35, 0.55, 0.30, 0.50, 0, "2026-09-24",
	  "us-east-2 list verified against Cost Explorer, public code [S] (SOURCES.md [price-od])", NULL, PROVIDER_AWS,
	  SELLS_BLOCKS },
	{ "g5.xlarge", 1, "A10G 24GB", 4, 1.006, 0.30, 0.50, 0.30, 0.60, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, 0 },
	{ "g5.2xlarge", 1, "A10G 24GB", 8, 1.212, 0.30, 0.50, 0.30, 0.55, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, 0 },
	{ "g5.12xlarge", 4, "A10G 24GB", 48, 5.672, 0.30, 0.50, 0.30, 0.55, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, 0 },
	{ "g5.48xlarge", 8, "A10G 24GB", 192, 16.288, 0.30, 0.50, 0.30, 0.55, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, 0 },
	{ "g6.xlarge", 1, "L4 24GB", 4, 0.8048, 0.30, 0.50, 0.30, 0.55, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, 0 },
	{ "g6.2xlarge", 1, "L4 24GB", 8, 0.9776, 0.30, 0.50, 0.30, 0.55, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, 0 },
	{ "g6.12xlarge", 4, "L4 24GB", 48, 4.6016, 0.30, 0.50, 0.30, 0.55, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, 0 },
	{ "g6.48xlarge", 8, "L4 24GB", 192, 13.3504, 0.30, 0.50, 0.30, 0.55, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, 0 },
	{ "g6e.xlarge", 1, "L40S 48GB", 4, 1.861, 0.30, 0.50, 0.30, 0.55, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, 0 },
	{ "g6e.12xlarge", 4, "L40S 48GB", 48, 10.49264, 0.30, 0.50, 0.30, 0.55, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, 0 },
	{ "g6e.48xlarge", 8, "L40S 48GB", 192, 30.13118, 0.30, 0.50, 0.30, 0.55, 0, "2026-09-24", PRICE_LIST, NULL, PROVIDER_AWS, 0 },
	/* Google Cloud (SOURCES.md [gcp-machine-types]) */
	{ "a3-highgpu-8g", 8, "H100 80GB", 208, 0, 0, 0, 0, 0, 0, "", NO_PRICE, NULL, PROVIDER_GCP, SELLS_CALENDAR },
	{ "a3-megagpu-8g", 8, "H100 80GB", 0, 0, 0, 0, 0, 0, 0, "", NO_PRICE, NULL, PROVIDER_GCP, SELLS_CALENDAR },
	{ "a3-ultragpu-8g", 8, "H200 141GB", 0, 0, 0, 0, 0, 0, 0, "", NO_PRICE, NULL, PROVIDER_GCP, SELLS_CALENDAR },
	{ "a2-highgpu-8g", 8, "A100 40GB", 0, 0, 0, 0, 0, 0, 0, "", NO_PRICE, NULL, PROVIDER_GCP, 0 },
	{ "a2-ultragpu-1g", 1, "A100 80GB", 0, 0, 0, 0, 0, 0, 0, "", NO_PRICE, NULL, PROVIDER_GCP, 0 },
	{ "a2-ultragpu-8g", 8, "A100 80GB", 0, 0, 0, 0, 0, 0, 0, "", NO_PRICE, NULL, PROVIDER_GCP, 0 },
	{ "g2-standard-12", 1, "L4 24GB", 0, 0, 0, 0, 0, 0, 0, "", NO_PRICE, NULL, PROVIDER_GCP, 0 },
	{ "g2-standard-48", 4, "L4 24GB", 0, 0, 0, 0, 0, 0, 0, "", NO_PRICE, NULL, PROVIDER_GCP, 0 },
	/* Azure (SOURCES.md [az-gpu-sizes]) */
	{ "Standard_ND96isr_H100_v5", 8, "H100 80GB", 96, 0, 0, 0, 0, 0, 0, "", NO_PRICE, NULL, PROVIDER_AZURE, 0 },
	{ "Standard_ND96isr_H200_v5", 8, "H200 141GB", 96, 0, 0, 0, 0, 0, 0, "", NO_PRICE, NULL, PROVIDER_AZURE, 0 },
	{ "Standard_NC24ads_A100_v4", 1, "A100 80GB", 24, 0, 0, 0, 0, 0, 0, "", NO_PRICE, NULL, PROVIDER_AZURE, 0 },
	{ "Standard_NC96ads_A100_v4", 4, "A100 80GB", 96, 0, 0, 0, 0, 0, 0, "", NO_PRICE, NULL, PROVIDER_AZURE, 0 },
};

/* Does type start with prefix, followed (when digit is set) by a digit? */
static bool starts(const char *type, const char *prefix, bool digit)
{
	size_t n = strlen(prefix);

	return strncmp(type, prefix, n) == 0 && (!digit || isdigit((unsigned char)type[n]));
}

unsigned catalog_sells_by_name(const char *type, enum provider provider)
{
	switch (provider) {
	case PROVIDER_AWS:
		return starts(type, "p", true) || starts(type, "trn", false) ? SELLS_BLOCKS : 0;
	case PROVIDER_GCP:
		return starts(type, "a3-", false) || starts(type, "a4-", false) || starts(type, "a4x-", false)
			       ? SELLS_CALENDAR : 0;
	default:
		return 0;
	}
}

const char *catalog_product_name(unsigned product)
{
	switch (product) {
	case SELLS_CAPACITY_BLOCK:
		return "capacity_block";
	case SELLS_TRAINING_PLAN:
		return "training_plan";
	case SELLS_CALENDAR:
		return "gcp_calendar";
	default:
		return "?";
	}
}

size_t catalog_count(void)
{
	return sizeof entries / sizeof entries[0];
}

const struct catalog_entry *catalog_at(size_t i)
{
	return i < catalog_count() ? &entries[i] : NULL;
}

const struct catalog_entry *catalog_find(const char *name)
{
	for (size_t i = 0; i < catalog_count(); i++)
		if (strcmp(entries[i].name, name) == 0)
			return &entries[i];
	return NULL;
}
