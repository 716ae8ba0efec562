/*
 * fuzz_pricelist: the vendors' price-list readers (pricelist*.c): every input is read as each format
 * (aws_price_list, aws_capacity_blocks, azure_retail, gcp_skus) for two regions, eu-west-1 and the format's
 * default.
 * Checked: a refusal has a message and leaves the list zeroed; an accepted list has rows, each of a named
 * type with finite non-negative prices, reserved rows of a 1- or 3-year term and no others with an upfront
 * fee; pricelist_find gives, for a type's blocks, the lowest rate of them.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "pricelist.h"
#include "status.h"

static void check_rows(const struct pricelist *pl)
{
	fuzz_check(pl->n >= 1 && pl->rows, "an accepted price list has rows");
	for (int i = 0; i < pl->n; i++) {
		const struct pricelist_row *r = &pl->rows[i];
		const struct pricelist_row *f = pricelist_find(pl, r->type, r->kind, r->term_years, r->payment,
							       r->convertible);

		fuzz_check(r->type[0] != '\0', "a row names its type");
		fuzz_check(isfinite(r->usd_per_h) && r->usd_per_h >= 0 && isfinite(r->upfront_usd) &&
			   r->upfront_usd >= 0, "prices are finite, not negative");
		fuzz_check(r->kind == PRICELIST_RESERVED ? r->term_years == 1 || r->term_years == 3
			   : r->term_years == 0 && r->upfront_usd == 0, "only reserved rows have a term or upfront fee");
		fuzz_check(f != NULL, "a row is found by its own keys");
		if (r->kind == PRICELIST_BLOCK)
			fuzz_check(f->usd_per_h <= r->usd_per_h, "the block found is the cheapest");
	}
}

static void parse(const uint8_t *data, size_t size, enum pricelist_format f, const char *region)
{
	struct pricelist pl;
	struct diag d = { "" };
	int rc = pricelist_parse(&pl, (const char *)data, size, "prices.json", f, region, &d);

	fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused price list has a message");
	if (rc != STATUS_OK) {
		fuzz_check(pl.n == 0 && !pl.rows, "a refused price list is zeroed");
		return;
	}
	check_rows(&pl);
	pricelist_fini(&pl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_setup();
	for (int f = 0; f < PRICELIST_FORMATS; f++) {
		parse(data, size, (enum pricelist_format)f, "eu-west-1");
		parse(data, size, (enum pricelist_format)f, f == PRICELIST_AZURE ? "eastus" : f == PRICELIST_GCP
		      ? "us-central1" : "us-east-1");
	}
	return 0;
}
