/*
 * cmd_catalog: `gpucap catalog [--json]`: the built-in instance types, prices and their sources; and
 * `gpucap catalog --prices FILE --format FORMAT [--region REGION] [--json]`: the rows a price list gives a
 * scenario's `prices:` entry (models/formats/pricelist.h), with each reserved offer's effective rate; and
 * `gpucap catalog --scenario FILE`: the prices a scenario's instance types and reserved entries get, after
 * its `prices:` files and `catalog:` keys, and where they came from.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "cmd.h"
#include "diag.h"
#include "pricelist.h"
#include "provider.h"
#include "scenario.h"

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

/* The rows of one price list, one a line (or one JSON object a line). */
static int list_prices(const char *file, const char *format, const char *region, bool json)
{
	static const char *const kinds[] = { "on_demand", "reserved", "capacity_block" };
	static const char *const pays[] = { "no_upfront", "partial_upfront", "all_upfront" };
	struct pricelist pl;
	struct diag d;
	int f = 0, rc;

	while (f < PRICELIST_FORMATS && strcmp(format, pricelist_format_name((enum pricelist_format)f)))
		f++;
	if (f == PRICELIST_FORMATS) {
		fprintf(stderr, "gpucap catalog: unknown --format '%s'; expected aws_price_list, "
			"aws_capacity_blocks, azure_retail or gcp_skus\n", format);
		return CMD_EXIT_USAGE;
	}
	if (!region)
		region = provider_default_region(f == PRICELIST_AZURE ? PROVIDER_AZURE : f == PRICELIST_GCP
						 ? PROVIDER_GCP : PROVIDER_AWS);
	if ((rc = pricelist_load(&pl, file, NULL, (enum pricelist_format)f, region, &d))) {
		fprintf(stderr, "gpucap: %s\n", d.msg);
		return cmd_exit_code(rc);
	}
	if (!json)
		printf("# %s %s, region %s%s%s\n%-26s %-14s %4s %-15s %-11s %12s %12s %12s %6s\n", format, file, region,
		       pl.published[0] ? ", published " : "", pl.published, "type", "kind", "term", "payment", "class",
		       "usd_per_h", "upfront_usd", "effective/h", "line");
	for (int i = 0; i < pl.n; i++) {
		const struct pricelist_row *r = &pl.rows[i];
		bool res = r->kind == PRICELIST_RESERVED;
		double eff = r->usd_per_h + (res ? r->upfront_usd / (r->term_years == 3 ? 26280.0 : 8760.0) : 0);

		if (json)
			printf("{\"type\": \"%s\", \"kind\": \"%s\", \"term_years\": %d, \"payment\": %s%s%s, "
			       "\"convertible\": %s, \"usd_per_h\": %.17g, \"upfront_usd\": %.17g, "
			       "\"effective_usd_per_h\": %.17g, \"line\": %d}\n", r->type, kinds[r->kind], r->term_years,
			       res ? "\"" : "", res ? pays[r->payment] : "null", res ? "\"" : "",
			       r->convertible ? "true" : "false", r->usd_per_h, r->upfront_usd, eff, r->line);
		else
			printf("%-26s %-14s %4s %-15s %-11s %12.6g %12.6g %12.6g %6d\n", r->type, kinds[r->kind],
			       res ? (r->term_years == 3 ? "3y" : "1y") : "-", res ? pays[r->payment] : "-",
			       res ? (r->convertible ? "convertible" : "standard") : "-", r->usd_per_h,
			       r->upfront_usd, eff, r->line);
	}
	pricelist_fini(&pl);
	return CMD_EXIT_OK;
}

/* `--prices FILE --format FORMAT [--region REGION] [--json]`, in any order. */
static int prices_command(int argc, char **argv)
{
	const char *file = NULL, *format = NULL, *region = NULL;
	bool json = false;

	for (int i = 1; i < argc; i++) {
		const char **to = !strcmp(argv[i], "--prices") ? &file : !strcmp(argv[i], "--format") ? &format
				  : !strcmp(argv[i], "--region") ? &region : NULL;

		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!to || i + 1 >= argc) {
			fprintf(stderr, "gpucap catalog: unexpected '%s'; expected --prices FILE --format FORMAT "
				"[--region REGION] [--json]\n", argv[i]);
			return CMD_EXIT_USAGE;
		} else {
			*to = argv[++i];
		}
	}
	if (!file || !format) {
		fprintf(stderr, "gpucap catalog: --prices needs a FILE and --format FORMAT\n");
		return CMD_EXIT_USAGE;
	}
	return list_prices(file, format, region, json);
}

/* The prices of one scenario's types and reserved entries, and the notes that say where they came from. */
static int scenario_prices(const char *path)
{
	static const char *const pays[] = { "no_upfront", "partial_upfront", "all_upfront" };
	struct scenario sc;
	struct diag d;
	int rc = scenario_load(&sc, path, NULL, 0, &d);

	if (rc) {
		fprintf(stderr, "gpucap: %s\n", d.msg);
		return cmd_exit_code(rc);
	}
	printf("# %s, region %s\n%-26s %12s\n", path, sc.region, "type", "od_usd/h");
	for (int i = 0; i < sc.ntypes; i++)
		printf("%-26s %12.6g\n", sc.types[i].name, sc.types[i].od_usd_per_h);
	printf("serving type: reserved 1y no-upfront rate %.6g, 3y discount %.4g, Capacity Block rate %.6g\n",
	       sc.serving.reserved_usd_per_h, sc.serving.reserved_3y_discount, sc.serving.capacity_block_usd_per_h);
	for (int i = 0; i < sc.nfleet + sc.ncommit; i++) {
		const struct fleet_entry *f = i < sc.nfleet ? &sc.fleet[i] : &sc.commit[i - sc.nfleet];
		double h = f->term == TERM_3Y ? 26280.0 : 8760.0;

		if (f->option == OPTION_RESERVED)
			printf("%s.%d reserved %s %s: usd_per_h %.6g, upfront_usd %.6g, effective %.6g per hour\n",
			       i < sc.nfleet ? "fleet" : "commitments", i < sc.nfleet ? i : i - sc.nfleet,
			       f->term == TERM_3Y ? "3y" : "1y", pays[f->payment], f->usd_per_h, f->upfront_usd,
			       f->usd_per_h + f->upfront_usd / h);
	}
	for (const char *p = sc.warnings, *e; p && *p; p = *e ? e + 1 : e) {
		char line[2 * DIAG_MSG_MAX];

		e = strchr(p, '\n');
		e = e ? e : p + strlen(p);
		snprintf(line, sizeof line, "%.*s", (int)(e - p), p);
		if (strstr(line, " is priced from "))
			printf("source: %s\n", line);
	}
	printf("(types without a source line have the built-in catalogue's prices: gpucap catalog)\n");
	scenario_fini(&sc);
	return CMD_EXIT_OK;
}

int cmd_catalog(int argc, char **argv)
{
	bool json = argc > 1 && strcmp(argv[1], "--json") == 0;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--prices"))
			return prices_command(argc, argv);
	if (argc == 3 && !strcmp(argv[1], "--scenario"))
		return scenario_prices(argv[2]);
	if (argc > 1 && !json) {
		if (strcmp(argv[1], "--help") && strcmp(argv[1], "-h")) {
			fprintf(stderr, "gpucap catalog: unknown argument '%s'\n", argv[1]);
			return CMD_EXIT_USAGE;
		}
		puts("usage: gpucap catalog [--json]\n       gpucap catalog --prices FILE --format FORMAT [--region REGION] "
		     "[--json]\n       gpucap catalog --scenario FILE\n\nList the built-in instance types: GPUs, GPU model, vCPUs, "
		     "On-Demand price (USD per instance-hour;\n0 = none known: Google Cloud and Azure types, priced by the "
		     "scenario), the discounts assumed (1- and\n3-year reserved, 1-year Savings Plan, Spot), the "
		     "provider (--json), the last published\nCapacity Block rate (0 = unknown), the time-bound products "
		     "the type is sold as (sells:\ncb = capacity_block, tp = training_plan, calendar = gcp_calendar; "
		     "- = none), and the date and\nsource of each price. The discounts are\ntypical figures, not quotes: scenarios override any "
		     "entry with a `catalog:` map, or take\nprices from vendors' price lists with `prices:`. With --prices, "
		     "list the rows such a file gives\nfor REGION (default us-east-1; azure_retail: eastus): FORMAT is "
		     "aws_price_list (aws pricing\nget-products), aws_capacity_blocks (aws ec2 "
		     "describe-capacity-block-offerings) or azure_retail;\neach reserved offer with its effective rate, "
		     "hourly + upfront / term hours. With --scenario, show the prices the\nscenario's types and reserved entries get "
		     "(after its prices: and catalog:) and where they came from.");
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
