/*
 * check_scenario_prices: the scenario's `prices:` list laid over the catalogue (models/load/scenario_prices.c),
 * and a run billed at a price list's prices.
 *
 * The files are check_pricelist's (tests/data/prices/; their prices are worked there): in eu-west-1
 * p5.48xlarge costs $60 On-Demand, and its standard reserved offers are (upfront, hourly) 1yr No (0, 40),
 * Partial (175200, 19), All (332880, 0); 3yr No (0, 28), Partial (367920, 13), All (683280, 0); convertible
 * 1yr Partial (175200, 23). The cheapest eu-west-1 p5 Capacity Block is $33 per instance-hour. In us-east-1
 * the file has only p5's On-Demand $55.04. Azure ND96isr H100 v5 in eastus: $98.32, 1 Year $525,600. Google
 * a3-highgpu-8g from its parts (gcp-a3.json): $89.88 in us-central1 (gcp's default region), $103.856 in
 * europe-west4.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "scenario.h"
#include "scenario_fixtures.h"
#include "status.h"
#include "testutil.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data (the CMake build defines it)"
#endif

#define PRICES TEST_DATA_DIR "/prices/"
#define TOL 1e-9
#define CENT 0.005

/* A p5.48xlarge scenario of 10 hours with `head` (region, prices, catalog ...) and fleet lines `fleet`. */
static const char *text(const char *head, const char *fleet)
{
	static char buf[4096];

	snprintf(buf, sizeof buf, "name: p\nstart: 2026-01-01T00:00:00Z\nhorizon: 10h\nslo: {latency_s: 2}\n"
		 "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		 "serving: {instance_type: p5.48xlarge}\n%sfleet:\n%s", head, fleet);
	return buf;
}

#define AWS_EU "region: eu-west-1\nprices: [{file: " PRICES "aws-p5-g6.json, format: aws_price_list}]\n"

START_TEST(price_list_replaces_catalogue_prices)
{
	struct scenario sc;

	parse_ok(&sc, text(AWS_EU,
			   "  - {option: reserved, count: 1, term: 1y, scope: zonal}\n"
			   "  - {option: reserved, count: 1, term: 1y, payment: partial_upfront, scope: zonal}\n"
			   "  - {option: reserved, count: 1, term: 1y, payment: all_upfront, scope: zonal}\n"
			   "  - {option: reserved, count: 1, term: 3y, scope: zonal}\n"
			   "  - {option: reserved, count: 1, term: 3y, payment: partial_upfront, scope: zonal}\n"
			   "  - {option: reserved, count: 1, term: 3y, payment: all_upfront, scope: zonal}\n"
			   "  - {option: on_demand, max: 2}\n"), NULL, 0);
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, 60, TOL);
	ck_assert_double_eq_tol(sc.types[0].od_usd_per_h, 60, TOL);
	ck_assert_double_eq_tol(sc.fleet[6].usd_per_h, 60, TOL);
	/* the offers exactly as listed, not a discount's split */
	static const double hourly[] = { 40, 19, 0, 28, 13, 0 }, upfront[] = { 0, 175200, 332880, 0, 367920, 683280 };
	for (int i = 0; i < 6; i++) {
		ck_assert_double_eq_tol(sc.fleet[i].usd_per_h, hourly[i], TOL);
		ck_assert_double_eq_tol(sc.fleet[i].upfront_usd, upfront[i], TOL);
	}
	/* the type's reserved rate from the 1yr no-upfront offer: 60 x (1 - (1 - 40 / 60)) = 40; 3-year
	 * discount 1 - 28 / 60 */
	ck_assert_double_eq_tol(sc.serving.reserved_usd_per_h, 40, 1e-9);
	ck_assert_double_eq_tol(sc.serving.reserved_3y_discount, 1 - 28.0 / 60, 1e-12);
	/* where the prices came from, in the run's warnings */
	ck_assert_msg(strstr(sc.warnings, "p5.48xlarge is priced from aws_price_list " PRICES
				     "aws-p5-g6.json (region eu-west-1, published 2026-11-27T10:00:00Z): On-Demand "
				     "$60 per instance-hour, reserved terms as listed, not the built-in catalogue's"), "%s", sc.warnings);
	scenario_fini(&sc);
}
END_TEST

START_TEST(convertible_offers_and_entry_keys_win)
{
	struct scenario sc;

	parse_ok(&sc, text("region: eu-west-1\nprices: [{file: " PRICES "aws-p5-g6.json, format: aws_price_list, "
			   "offering_class: convertible}]\ncatalog: {p5.48xlarge: {usd_per_h: 50}}\n",
			   "  - {option: reserved, count: 1, term: 1y, payment: partial_upfront, scope: zonal}\n"
			   "  - {option: reserved, count: 1, term: 1y, payment: partial_upfront, upfront_usd: 1, "
			   "scope: zonal}\n"
			   "  - {option: on_demand, max: 2}\n"), NULL, 0);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 23, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].upfront_usd, 175200, TOL);
	ck_assert_double_eq_tol(sc.fleet[1].upfront_usd, 1, TOL);  /* the entry's own key */
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 23, TOL);
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, 50, TOL);  /* catalog: over the file */
	ck_assert_ptr_nonnull(strstr(sc.warnings, "(region eu-west-1, published 2026-11-27T10:00:00Z, "
				     "convertible offers)"));
	scenario_fini(&sc);
}
END_TEST

/* No region: the AWS default, us-east-1, where the file has only On-Demand; the reserved offers then come
 * from the catalogue's 35% discount off the file's price: 55.04 x 0.65 = 35.776. */
START_TEST(default_region_and_partial_lists)
{
	struct scenario sc;

	parse_ok(&sc, text("prices: [{file: " PRICES "aws-p5-g6.json, format: aws_price_list}]\n",
			   "  - {option: reserved, count: 1, term: 1y, scope: zonal}\n  - {option: on_demand, max: 2}\n"),
		 NULL, 0);
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, 55.04, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 35.776, 1e-9);
	ck_assert_ptr_nonnull(strstr(sc.warnings, "(region us-east-1, published"));
	scenario_fini(&sc);
}
END_TEST

START_TEST(capacity_block_offerings_give_the_rate)
{
	struct scenario sc;

	parse_ok(&sc, text("region: eu-west-1\nprices:\n  - {file: " PRICES "aws-p5-g6.json, format: aws_price_list}\n"
			   "  - {file: " PRICES "aws-blocks.json, format: aws_capacity_blocks}\n",
			   "  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 1d, count: 1}\n"
			   "  - {option: on_demand, max: 2}\n"), NULL, 0);
	ck_assert_double_eq_tol(sc.serving.capacity_block_usd_per_h, 33, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 33, TOL);
	ck_assert_ptr_nonnull(strstr(sc.warnings, "; aws_capacity_blocks " PRICES "aws-blocks.json (region "
				     "eu-west-1): On-Demand $60 per instance-hour, reserved terms as listed, Capacity "
				     "Block rate as offered"));
	scenario_fini(&sc);
}
END_TEST

/* An Azure type the catalogue has no price for needs no catalog: usd_per_h once a price list has it. */
START_TEST(azure_retail_prices_an_azure_row)
{
	struct scenario sc;

	parse_ok(&sc, "name: a\nhorizon: 10h\nslo: {latency_s: 2}\n"
		 "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		 "serving: {instance_type: Standard_ND96isr_H100_v5}\n"
		 "prices: [{file: " PRICES "azure-nd-h100.json, format: azure_retail}]\n"
		 "fleet: [{option: on_demand, count: 1, max: 2}]\n"
		 "commitments: [{option: reserved, count: 1, term: 1y, payment: all_upfront}]\n", NULL, 0);
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, 98.32, TOL);
	ck_assert_double_eq_tol(sc.commit[0].upfront_usd, 525600, TOL);
	ck_assert_double_eq_tol(sc.commit[0].usd_per_h, 0, TOL);
	scenario_fini(&sc);
}
END_TEST

/* A gcp machine type priced from its GPU, vCPU and RAM SKUs: 1 On-Demand instance for 10 h at $89.88 =
 * $898.80 in us-central1, the provider's default region; the summary's note names the file and its date. */
START_TEST(gcp_skus_price_a_machine_by_its_parts)
{
	static struct capture cap;
	struct scenario sc;
	const char *gcp = "name: g\nstart: 2026-01-01T00:00:00Z\nhorizon: 10h\nslo: {latency_s: 2}\n"
		"workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		"serving: {instance_type: a3-highgpu-8g}\n"
		"prices: [{file: " PRICES "gcp-a3.json, format: gcp_skus}]\n"
		"fleet: [{option: on_demand, count: 1, max: 1}]\n";

	capture_run(&cap, gcp, NULL, 0);
	ck_assert_double_eq_tol(capture_need(&cap, "cost_on_demand_usd"), 898.80, CENT);
	parse_ok(&sc, gcp, NULL, 0);
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, 89.88, TOL);
	ck_assert_msg(strstr(sc.warnings, "a3-highgpu-8g is priced from gcp_skus ") &&
		      strstr(sc.warnings, "(region us-central1, published 2026-11-02T08:00:00Z): On-Demand $89.88"),
		      "%s", sc.warnings);
	scenario_fini(&sc);
}
END_TEST

/* A machine shape given under machines: (a2-ultragpu-8g here borrows the file's A3 SKUs, so its price can be
 * worked: 8 x 10 + 96 x 0.025 + 1360 x 0.0025 = 80 + 2.4 + 3.4 = $85.80 per hour). */
START_TEST(gcp_machines_key_prices_another_type)
{
	struct scenario sc;

	parse_ok(&sc, "name: g\nhorizon: 10h\nslo: {latency_s: 2}\n"
		 "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		 "serving: {instance_type: a2-ultragpu-8g}\n"
		 "prices: [{file: " PRICES "gcp-a3.json, format: gcp_skus, machines: {a2-ultragpu-8g: {gpu: Nvidia "
		 "H100 80GB GPU, gpus: 8, core: A3 Instance Core, vcpus: 96, ram: A3 Instance Ram, memory_gib: 1360}}}]\n"
		 "fleet: [{option: on_demand, count: 1, max: 1}]\n", NULL, 0);
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, 85.80, TOL);
	scenario_fini(&sc);
	parse_fails(text("prices: [{file: x.json, format: azure_retail, machines: {}}]\n",
			 "  - {option: on_demand, max: 2}\n"), NULL, 0, "t.yaml:7:47: prices.0.machines: machines "
		    "applies to gcp_skus files (a Google Cloud machine is priced by its parts); expected no machines "
		    "here");
	parse_fails(text("prices: [{file: x.json, format: gcp_skus, machines: {m: {gpu: G, gpus: 0, core: C, "
			 "vcpus: 1, ram: R, memory_gib: 1}}}]\n",
			 "  - {option: on_demand, max: 2}\n"), NULL, 0, "t.yaml:7:72: prices.0.machines.m.gpus: expected an "
		    "integer from 1 to 64, got '0'");
}
END_TEST

START_TEST(bad_prices_entries)
{
	parse_fails(text("prices: [{file: x.json, format: oci_prices}]\n", "  - {option: on_demand, max: 2}\n"),
		    NULL, 0, "t.yaml:7:33: prices.0.format: expected aws_price_list, aws_capacity_blocks, "
		    "azure_retail or gcp_skus, got 'oci_prices'");
	parse_fails(text("prices: [{file: x.json, format: aws_capacity_blocks, offering_class: standard}]\n",
			 "  - {option: on_demand, max: 2}\n"),
		    NULL, 0, "t.yaml:7:70: prices.0.offering_class: offering_class applies to aws_price_list "
		    "files (EC2 reserved instances are standard or convertible); expected no offering_class here");
	parse_fails(text("region: ap-south-1\nprices: [{file: " PRICES "aws-blocks.json, format: "
			 "aws_capacity_blocks}]\n", "  - {option: on_demand, max: 2}\n"),
		    NULL, 0, PRICES "aws-blocks.json: no default-tenancy Capacity Block offerings for region "
		    "ap-south-1; expected a region the file has (eu-west-1, us-east-1), or a file fetched for "
		    "ap-south-1");
	/* a file that prices none of the scenario's types: Capacity Block offerings for p5 and p4d only */
	parse_fails("name: g\nhorizon: 1h\nslo: {latency_s: 2}\n"
		    "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		    "serving: {instance_type: g6.xlarge}\nregion: eu-west-1\n"
		    "prices: [{file: " PRICES "aws-blocks.json, format: aws_capacity_blocks}]\n"
		    "fleet: [{option: on_demand, count: 1}]\n", NULL, 0,
		    "t.yaml:7:11: prices.0: " PRICES "aws-blocks.json has no aws_capacity_blocks price for g6.xlarge in "
		    "region eu-west-1; expected a price list of the scenario's instance types");
}
END_TEST

/* A run bills at the file's prices: 1 reserved 1yr Partial Upfront instance at 19 + 175200 / 8760 = $39 an
 * hour for 10 h = $390; 1 On-Demand instance at $60 for 10 h = $600. */
START_TEST(run_bills_at_the_files_prices)
{
	static struct capture cap;

	capture_run(&cap, text(AWS_EU, "  - {option: reserved, count: 1, term: 1y, payment: partial_upfront, "
			       "scope: zonal}\n  - {option: on_demand, count: 1, max: 1}\n"), NULL, 0);
	ck_assert_double_eq_tol(capture_need(&cap, "cost_reserved_usd"), 390.00, CENT);
	ck_assert_double_eq_tol(capture_need(&cap, "cost_on_demand_usd"), 600.00, CENT);
}
END_TEST

static Suite *scenario_prices_suite(void)
{
	Suite *s = suite_create("scenario_prices");
	TCase *tc = tcase_create("prices");

	tcase_add_test(tc, price_list_replaces_catalogue_prices);
	tcase_add_test(tc, convertible_offers_and_entry_keys_win);
	tcase_add_test(tc, default_region_and_partial_lists);
	tcase_add_test(tc, capacity_block_offerings_give_the_rate);
	tcase_add_test(tc, azure_retail_prices_an_azure_row);
	tcase_add_test(tc, gcp_skus_price_a_machine_by_its_parts);
	tcase_add_test(tc, gcp_machines_key_prices_another_type);
	tcase_add_test(tc, bad_prices_entries);
	tcase_add_test(tc, run_bills_at_the_files_prices);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(scenario_prices_suite());
}
