/*
 * cmd_catalog: `gpucap catalog [--json]`: the built-in instance types, prices and their sources.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "cmd.h"

/* The products of bit set `sells` (catalog.h), as "cb,tp" for a person or "\"capacity_block\", ..." for JSON. */
static void products(unsigned sells, bool json, char *buf, size_t size)
{
	static const char *const brief[] = { "cb", "tp", "calendar" };
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned b = 0; b < 3 && o < size; b++)
		if (sells & (1u << b))
			o += (size_t)snprintf(buf + o, size - o, json ? "%s\"%s\"" : "%s%s", o ? (json ? ", " : ",") : "",
					      json ? catalog_product_name(1u << b) : brief[b]);
	if (!json && !buf[0])
		snprintf(buf, size, "-");
}

int cmd_catalog(int argc, char **argv)
{
	bool json = argc > 1 && strcmp(argv[1], "--json") == 0;

	if (argc > 1 && !json) {
		if (strcmp(argv[1], "--help") && strcmp(argv[1], "-h")) {
			fprintf(stderr, "gpucap catalog: unknown argument '%s'\n", argv[1]);
			return CMD_EXIT_USAGE;
		}
		puts("usage: gpucap catalog [--json]\n\nList the built-in instance types: GPUs, GPU model, vCPUs, "
		     "On-Demand price (USD per instance-hour;\n0 = none known: Google Cloud and Azure types, priced by the "
		     "scenario), the discounts assumed (1- and\n3-year reserved, 1-year Savings Plan, Spot), the "
		     "provider (--json), the last published\nCapacity Block rate (0 = unknown), the time-bound products "
		     "the type is sold as (sells:\ncb = capacity_block, tp = training_plan, calendar = gcp_calendar; "
		     "- = none), and the date and\nsource of each price. The discounts are\ntypical figures, not quotes: scenarios override any "
		     "entry with a `catalog:` map.");
		return CMD_EXIT_OK;
	}
	if (!json)
		printf("%-17s %4s %-10s %5s %11s %6s %6s %6s %6s %8s  %-8s %-10s %s\n", "type", "gpus", "gpu",
		       "vcpus", "od_usd/h", "ri_1y", "ri_3y", "sp_1y", "spot", "cb_usd/h", "sells", "date", "source");
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct catalog_entry *e = catalog_at(i);
		char sells[64];

		products(e->sells, json, sells, sizeof sells);
		if (json)
			printf("{\"type\": \"%s\", \"gpus\": %d, \"gpu_model\": \"%s\", \"vcpus\": %d, "
			       "\"od_usd_per_h\": %.17g, \"reserved_discount\": %.17g, \"reserved_3y_discount\": %.17g, "
			       "\"savings_plan_discount\": %.17g, \"spot_discount\": %.17g, \"cb_usd_per_h\": %.17g, "
			       "\"price_date\": \"%s\", \"price_source\": \"%s\", \"provider\": \"%s\", "
			       "\"sells\": [%s]}\n",
			       e->name, e->gpus, e->gpu_model, e->vcpus, e->od_usd_per_h, e->reserved_discount,
			       e->reserved_3y_discount, e->savings_plan_discount, e->spot_discount, e->cb_usd_per_h,
			       e->price_date, e->price_source, provider_name(e->provider), sells);
		else
			printf("%-17s %4d %-10s %5d %11.6g %5.0f%% %5.0f%% %5.0f%% %5.0f%% %8.2f  %-8s %-10s %s\n",
			       e->name, e->gpus, e->gpu_model, e->vcpus, e->od_usd_per_h, 100 * e->reserved_discount,
			       100 * e->reserved_3y_discount, 100 * e->savings_plan_discount, 100 * e->spot_discount,
			       e->cb_usd_per_h, sells, e->price_date, e->price_source);
	}
	return CMD_EXIT_OK;
}
