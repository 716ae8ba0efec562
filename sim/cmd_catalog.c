/*
 * cmd_catalog: `gpucap catalog [--json]`: the built-in instance types, prices and their sources.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "cmd.h"

int cmd_catalog(int argc, char **argv)
{
	bool json = argc > 1 && strcmp(argv[1], "--json") == 0;

	if (argc > 1 && !json) {
		if (strcmp(argv[1], "--help") && strcmp(argv[1], "-h")) {
			fprintf(stderr, "gpucap catalog: unknown argument '%s'\n", argv[1]);
			return CMD_EXIT_USAGE;
		}
		puts("usage: gpucap catalog [--json]\n\nList the built-in instance types: GPUs, GPU model, vCPUs, "
		     "On-Demand price (USD per instance-hour),\nthe reserved discount assumed, and the date and "
		     "source of each price. Scenarios override any entry\nwith a `catalog:` map.");
		return CMD_EXIT_OK;
	}
	if (!json)
		printf("%-18s %4s %-11s %5s %12s %9s  %-10s %s\n", "type", "gpus", "gpu", "vcpus", "od_usd_per_h",
		       "rsv_disc", "date", "source");
	for (size_t i = 0; i < catalog_count(); i++) {
		const struct catalog_entry *e = catalog_at(i);
		if (json)
			printf("{\"type\": \"%s\", \"gpus\": %d, \"gpu_model\": \"%s\", \"vcpus\": %d, "
			       "\"od_usd_per_h\": %.17g, \"reserved_discount\": %.17g, \"price_date\": \"%s\", "
			       "\"price_source\": \"%s\"}\n",
			       e->name, e->gpus, e->gpu_model, e->vcpus, e->od_usd_per_h, e->reserved_discount,
			       e->price_date, e->price_source);
		else
			printf("%-18s %4d %-11s %5d %12.6g %8.0f%%  %-10s %s\n", e->name, e->gpus, e->gpu_model,
			       e->vcpus, e->od_usd_per_h, 100 * e->reserved_discount, e->price_date, e->price_source);
	}
	return CMD_EXIT_OK;
}
