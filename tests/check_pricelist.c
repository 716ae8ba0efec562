/*
 * check_pricelist: vendors' price lists (models/formats/pricelist.h).
 *
 * tests/data/prices/ holds files written for these tests in the vendors' shapes, with made-up round prices
 * chosen so that every effective rate can be checked by hand:
 *   aws-p5-g6.json (`aws pricing get-products`): p5.48xlarge and g6.xlarge in eu-west-1, each On-Demand
 *     and 12 reserved offers (1yr/3yr x No/Partial/All Upfront x standard/convertible); beside them
 *     products that must be skipped: p5 Windows ($70), p5 UnusedCapacityReservation ($0), p5 marketoption
 *     CapacityBlock ($31), p5 in us-east-1 ($55.04, publicationDate 2026-11-27), g6 Dedicated tenancy
 *     ($1.10), and a Dedicated Host product (no instance price).
 *   aws-blocks.json (`aws ec2 describe-capacity-block-offerings`): p5 in eu-west-1a 4 instances x 24 h for
 *     $3360 = 3360 / 96 = $35.00 per instance-hour, p5 in eu-west-1b 2 x 48 h for $3168 = 3168 / 96 =
 *     $33.00, a dedicated p5 block (skipped), p4d in eu-west-1c 1 x 23 h 30 min for $470 = 470 / 23.5 =
 *     $20.00, p5 in us-east-1a 1 x 24 h for $744 = $31.00.
 *   azure-nd-h100.json (Azure Retail Prices API): ND96isr H100 v5 in eastus Consumption $98.32, a Windows
 *     item, a Spot meter, a DevTestConsumption item (all skipped), a 1 Year reservation of $525,600 and a
 *     3 Years one of $1,182,600, and a westus3 Consumption item.
 * gcp-a3.json (Google Cloud SKUs) is check_pricelist_gcp's.
 * Prices are compared with a tolerance of 1e-9 (parsed decimals, or one division).
 */
#include <check.h>
#include <string.h>

#include "pricelist.h"
#include "status.h"
#include "testutil.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data (the CMake build defines it)"
#endif

#define PRICES TEST_DATA_DIR "/prices/"
#define TOL 1e-9
#define H1 8760.0   /* hours of a 1-year term */
#define H3 26280.0  /* of a 3-year term */

static struct pricelist load_ok(const char *file, enum pricelist_format f, const char *region)
{
	struct pricelist pl;
	struct diag d = { "" };
	int rc = pricelist_load(&pl, file, NULL, f, region, &d);

	ck_assert_msg(rc == STATUS_OK, "%s: rc %d: %s", file, rc, d.msg);
	return pl;
}

/* The reserved row's effective rate: hourly + upfront / term hours. */
static double effective(const struct pricelist *pl, const char *type, int years, enum pricelist_payment pay,
			bool convertible)
{
	const struct pricelist_row *r = pricelist_find(pl, type, PRICELIST_RESERVED, years, pay, convertible);

	ck_assert_msg(r != NULL, "%s %dy payment %d convertible %d missing", type, years, pay, convertible);
	return r->usd_per_h + r->upfront_usd / (years == 1 ? H1 : H3);
}

START_TEST(aws_on_demand_of_the_region)
{
	struct pricelist pl = load_ok(PRICES "aws-p5-g6.json", PRICELIST_AWS, "eu-west-1");

	/* 2 types x (1 On-Demand + 12 reserved); Windows, unused reservations, CapacityBlock, Dedicated and
	 * us-east-1 products skipped */
	ck_assert_int_eq(pl.n, 26);
	ck_assert_double_eq_tol(pricelist_find(&pl, "p5.48xlarge", PRICELIST_ON_DEMAND, 0, 0, false)->usd_per_h,
				60.0, TOL);
	ck_assert_double_eq_tol(pricelist_find(&pl, "g6.xlarge", PRICELIST_ON_DEMAND, 0, 0, false)->usd_per_h,
				1.0, TOL);
	ck_assert_ptr_null(pricelist_find(&pl, "p4d.24xlarge", PRICELIST_ON_DEMAND, 0, 0, false));
	/* the latest publicationDate of the whole file, us-east-1's included */
	ck_assert_str_eq(pl.published, "2026-11-27T10:00:00Z");
	pricelist_fini(&pl);
}
END_TEST

/*
 * The reserved offers, effective = hourly + upfront / term hours:
 *   p5 standard 1yr: No 40 + 0 = 40; Partial 19 + 175200 / 8760 = 19 + 20 = 39; All 0 + 332880 / 8760 = 38.
 *   p5 standard 3yr: No 28; Partial 13 + 367920 / 26280 = 13 + 14 = 27; All 683280 / 26280 = 26.
 *   p5 convertible 1yr: No 44; Partial 23 + 20 = 43; All 367920 / 8760 = 42.
 *   p5 convertible 3yr: No 32; Partial 17 + 14 = 31; All 788400 / 26280 = 30.
 *   g6 standard 1yr: No 0.70; Partial 0.38 + 2628 / 8760 = 0.38 + 0.30 = 0.68; All 5781.6 / 8760 = 0.66.
 *   g6 standard 3yr: No 0.50; Partial 0.26 + 5781.6 / 26280 = 0.26 + 0.22 = 0.48; All 12088.8 / 26280 = 0.46.
 *   g6 convertible 1yr: No 0.80; Partial 0.48 + 0.30 = 0.78; All 6657.6 / 8760 = 0.76.
 *   g6 convertible 3yr: No 0.60; Partial 0.36 + 0.22 = 0.58; All 14716.8 / 26280 = 0.56.
 */
START_TEST(aws_reserved_terms_by_hand)
{
	static const double p5[2][2][3] = { { { 40, 39, 38 }, { 28, 27, 26 } }, { { 44, 43, 42 }, { 32, 31, 30 } } };
	static const double g6[2][2][3] = { { { 0.70, 0.68, 0.66 }, { 0.50, 0.48, 0.46 } },
					    { { 0.80, 0.78, 0.76 }, { 0.60, 0.58, 0.56 } } };
	struct pricelist pl = load_ok(PRICES "aws-p5-g6.json", PRICELIST_AWS, "eu-west-1");

	for (int cls = 0; cls < 2; cls++)
		for (int term = 0; term < 2; term++)
			for (int pay = 0; pay < 3; pay++) {
				int years = term ? 3 : 1;

				ck_assert_double_eq_tol(effective(&pl, "p5.48xlarge", years, pay, cls), p5[cls][term][pay],
							TOL);
				ck_assert_double_eq_tol(effective(&pl, "g6.xlarge", years, pay, cls), g6[cls][term][pay],
							TOL);
			}
	/* the parts as listed: p5 standard 1yr Partial Upfront is $175,200 up front and $19 an hour */
	const struct pricelist_row *r = pricelist_find(&pl, "p5.48xlarge", PRICELIST_RESERVED, 1,
						       PRICELIST_PARTIAL_UPFRONT, false);
	ck_assert_double_eq_tol(r->upfront_usd, 175200, TOL);
	ck_assert_double_eq_tol(r->usd_per_h, 19, TOL);
	pricelist_fini(&pl);
}
END_TEST

START_TEST(aws_region_selects_rows)
{
	struct pricelist pl = load_ok(PRICES "aws-p5-g6.json", PRICELIST_AWS, "us-east-1");

	ck_assert_int_eq(pl.n, 1);  /* the p5 On-Demand row only */
	ck_assert_double_eq_tol(pl.rows[0].usd_per_h, 55.04, TOL);
	pricelist_fini(&pl);
}
END_TEST

START_TEST(aws_no_rows_for_region_names_the_regions)
{
	struct pricelist pl;
	struct diag d = { "" };

	ck_assert_int_eq(pricelist_load(&pl, PRICES "aws-p5-g6.json", "p.json", PRICELIST_AWS, "ap-south-1", &d),
			 STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "p.json: no Linux, Shared-tenancy Compute Instance prices for region ap-south-1; "
			 "expected a region the file has (eu-west-1, us-east-1), or a file fetched for ap-south-1");
	ck_assert_ptr_null(pl.rows);
	ck_assert_int_eq(pl.n, 0);
}
END_TEST

START_TEST(capacity_blocks_rate_per_instance_hour)
{
	struct pricelist pl = load_ok(PRICES "aws-blocks.json", PRICELIST_AWS_BLOCKS, "eu-west-1");

	ck_assert_int_eq(pl.n, 3);  /* two p5 blocks and the p4d one; dedicated and us-east-1 skipped */
	ck_assert_double_eq_tol(pl.rows[0].usd_per_h, 35.0, TOL);
	ck_assert_double_eq_tol(pl.rows[1].usd_per_h, 33.0, TOL);
	/* the cheapest offering of the type */
	ck_assert_double_eq_tol(pricelist_find(&pl, "p5.48xlarge", PRICELIST_BLOCK, 0, 0, false)->usd_per_h, 33.0,
				TOL);
	/* 23 h 30 min */
	ck_assert_double_eq_tol(pricelist_find(&pl, "p4d.24xlarge", PRICELIST_BLOCK, 0, 0, false)->usd_per_h, 20.0,
				TOL);
	ck_assert_int_eq(pl.rows[0].line, 4);  /* the offering's first key, as pricetrace places a record */
	pricelist_fini(&pl);
	pl = load_ok(PRICES "aws-blocks.json", PRICELIST_AWS_BLOCKS, "us-east-1");
	ck_assert_int_eq(pl.n, 1);
	ck_assert_double_eq_tol(pl.rows[0].usd_per_h, 31.0, TOL);  /* 744 / 24 */
	pricelist_fini(&pl);
}
END_TEST

/* Consumption $98.32; 1 Year $525,600 = all up front, or 525600 / 8760 = $60 an hour; 3 Years $1,182,600 =
 * 1182600 / 26280 = $45 an hour. */
START_TEST(azure_consumption_and_reservations)
{
	struct pricelist pl = load_ok(PRICES "azure-nd-h100.json", PRICELIST_AZURE, "eastus");
	const char *t = "Standard_ND96isr_H100_v5";
	const struct pricelist_row *r;

	ck_assert_int_eq(pl.n, 5);  /* Consumption, and two rows per reservation */
	ck_assert_double_eq_tol(pricelist_find(&pl, t, PRICELIST_ON_DEMAND, 0, 0, false)->usd_per_h, 98.32, TOL);
	r = pricelist_find(&pl, t, PRICELIST_RESERVED, 1, PRICELIST_ALL_UPFRONT, false);
	ck_assert_double_eq_tol(r->upfront_usd, 525600, TOL);
	ck_assert_double_eq_tol(r->usd_per_h, 0, TOL);
	ck_assert_double_eq_tol(effective(&pl, t, 1, PRICELIST_NO_UPFRONT, false), 60, TOL);
	ck_assert_double_eq_tol(effective(&pl, t, 3, PRICELIST_NO_UPFRONT, false), 45, TOL);
	ck_assert_double_eq_tol(effective(&pl, t, 3, PRICELIST_ALL_UPFRONT, false), 45, TOL);
	ck_assert_ptr_null(pricelist_find(&pl, t, PRICELIST_RESERVED, 1, PRICELIST_PARTIAL_UPFRONT, false));
	pricelist_fini(&pl);
	pl = load_ok(PRICES "azure-nd-h100.json", PRICELIST_AZURE, "westus3");
	ck_assert_int_eq(pl.n, 1);
	ck_assert_double_eq_tol(pl.rows[0].usd_per_h, 99, TOL);
	pricelist_fini(&pl);
}
END_TEST

/* A product document, as a JSON string inside PriceList, with `attrs` and `terms` spliced in. */
#define DOC(terms) "\"{\\\"product\\\":{\\\"productFamily\\\":\\\"Compute Instance\\\",\\\"attributes\\\":" \
	"{\\\"instanceType\\\":\\\"p5.48xlarge\\\",\\\"regionCode\\\":\\\"eu-west-1\\\",\\\"operatingSystem\\\":" \
	"\\\"Linux\\\",\\\"tenancy\\\":\\\"Shared\\\",\\\"preInstalledSw\\\":\\\"NA\\\",\\\"capacitystatus\\\":" \
	"\\\"Used\\\"}},\\\"terms\\\":" terms "}\""
#define OD(dim) "{\\\"OnDemand\\\":{\\\"S.T\\\":{\\\"priceDimensions\\\":{\\\"S.T.R\\\":" dim "}}}}"

static const struct bad {
	enum pricelist_format f;
	const char *text, *msg;
} bad[] = {
	{ PRICELIST_AWS, "", "t.json:1: the file is empty; expected aws_price_list JSON" },
	{ PRICELIST_AWS, "[1]", "t.json:1:2: expected a JSON object at top level (aws_price_list)" },
	{ PRICELIST_AWS, "{\"PriceList\": [", "t.json:2:1: invalid JSON: flow sequence without a closing bracket" },
	{ PRICELIST_AWS, "{\"FormatVersion\": \"aws_v2\", \"PriceList\": []}",
	  "t.json:1:20: FormatVersion: unknown version 'aws_v2'; expected aws_v1" },
	{ PRICELIST_AWS, "{\"SpotPriceHistory\": []}", "t.json:1:3: missing key 'PriceList'; expected a list of "
	  "product documents, the output of `aws pricing get-products --service-code AmazonEC2`" },
	{ PRICELIST_AWS, "{\"PriceList\": [\n {\"product\": {}}]}", "t.json:2:4: PriceList[0]: expected a product "
	  "document written as a JSON string (as `aws pricing get-products` prints it), got a mapping" },
	{ PRICELIST_AWS, "{\"PriceList\": [\"{\\\"product\\\": \"]}", "t.json:1:17: PriceList[0] (a JSON document "
	  "in a string):2:1: invalid JSON: " },
	{ PRICELIST_AWS, "{\"PriceList\": [" DOC(OD("{\\\"unit\\\":\\\"Hrs\\\"}")) "]}",
	  "t.json:1:17: PriceList[0]: terms.OnDemand.S.T.priceDimensions.S.T.R: missing key 'pricePerUnit'; "
	  "expected a mapping {\"USD\": \"PRICE\"}" },
	{ PRICELIST_AWS, "{\"PriceList\": [" DOC(OD("{\\\"unit\\\":\\\"Hrs\\\",\\\"pricePerUnit\\\":{\\\"USD\\\":"
						 "\\\"12,5\\\"}}")) "]}",
	  "t.json:1:17: PriceList[0]: terms.OnDemand.S.T.priceDimensions.S.T.R.pricePerUnit.USD: expected a "
	  "decimal number >= 0 (a JSON number or a string of one), got the string '12,5'" },
	{ PRICELIST_AWS, "{\"PriceList\": [" DOC(OD("{\\\"unit\\\":\\\"Hrs\\\",\\\"pricePerUnit\\\":{\\\"EUR\\\":"
						 "\\\"1\\\"}}")) "]}",
	  "t.json:1:17: PriceList[0]: terms.OnDemand.S.T.priceDimensions.S.T.R.pricePerUnit: missing key 'USD'; "
	  "expected a price in USD" },
	{ PRICELIST_AWS, "{\"PriceList\": [" DOC(OD("{\\\"unit\\\":\\\"Quantity\\\",\\\"pricePerUnit\\\":"
						 "{\\\"USD\\\":\\\"1\\\"}}")) "]}",
	  "t.json:1:17: PriceList[0]: terms.OnDemand.S.T.priceDimensions.S.T.R.unit: unknown unit 'Quantity'; "
	  "expected Hrs" },
	{ PRICELIST_AWS, "{\"PriceList\": [" DOC("{\\\"Reserved\\\":{\\\"S.R\\\":{\\\"termAttributes\\\":"
		 "{\\\"LeaseContractLength\\\":\\\"2yr\\\",\\\"OfferingClass\\\":\\\"standard\\\","
		 "\\\"PurchaseOption\\\":\\\"No Upfront\\\"},\\\"priceDimensions\\\":{}}}}") "]}",
	  "t.json:1:17: PriceList[0]: terms.Reserved.S.R.termAttributes.LeaseContractLength: unknown value '2yr'; "
	  "expected 1yr or 3yr" },
	{ PRICELIST_AWS, "{\"PriceList\": [" DOC("{}") "]}", "t.json: no Linux, Shared-tenancy Compute Instance "
	  "prices for region eu-west-1; expected a region the file has (), or a file fetched for eu-west-1" },
	{ PRICELIST_AWS, "{\"PriceList\": []}", "t.json: no Linux, Shared-tenancy Compute Instance prices at all; "
	  "expected at least one for region eu-west-1" },
	{ PRICELIST_AWS_BLOCKS, "{\"CapacityBlockOfferings\": [{\"InstanceType\": \"p5.48xlarge\", "
	  "\"AvailabilityZone\": \"eu-west-1a\", \"InstanceCount\": 0, \"CapacityBlockDurationHours\": 24, "
	  "\"UpfrontFee\": \"1\"}]}",
	  "t.json:1:112: CapacityBlockOfferings[0].InstanceCount: 0; expected a whole number from 1 to 1000000" },
	{ PRICELIST_AWS_BLOCKS, "{\"CapacityBlockOfferings\": [{\"InstanceType\": \"p5.48xlarge\", "
	  "\"AvailabilityZone\": \"eu-west-1a\", \"InstanceCount\": 1, \"CapacityBlockDurationHours\": 24}]}",
	  "t.json:1:31: CapacityBlockOfferings[0]: missing key 'UpfrontFee'; expected a price in USD" },
	{ PRICELIST_AWS_BLOCKS, "{\"CapacityBlockOfferings\": [{\"InstanceType\": \"p5.48xlarge\", "
	  "\"AvailabilityZone\": \"eu-west-1a\", \"InstanceCount\": 1, \"CapacityBlockDurationHours\": 0, "
	  "\"UpfrontFee\": \"1\"}]}",
	  "t.json:1:31: CapacityBlockOfferings[0]: a block of no duration; expected CapacityBlockDurationHours (and "
	  "Minutes) > 0" },
	{ PRICELIST_AWS_BLOCKS, "{\"CapacityBlockOfferings\": [{\"InstanceType\": 5}]}",
	  "t.json:1:46: CapacityBlockOfferings[0].InstanceType: expected a string, got 5" },
	{ PRICELIST_AZURE, "{\"Items\": [{\"armSkuName\": \"Standard_ND96isr_H100_v5\", \"armRegionName\": "
	  "\"eastus\", \"type\": \"Reservation\", \"reservationTerm\": \"5 Years\", \"retailPrice\": 1}]}",
	  "t.json:1:14: Items[0]: reservationTerm '5 Years'; expected 1 Year or 3 Years" },
	{ PRICELIST_AZURE, "{\"Items\": [{\"armSkuName\": \"X\", \"armRegionName\": \"eastus\", \"type\": "
	  "\"Consumption\", \"unitOfMeasure\": \"1 Hour\", \"retailPrice\": -1}]}",
	  "t.json:1:124: Items[0].retailPrice: expected a decimal number >= 0 (a JSON number or a string of one), "
	  "got -1" },
	{ PRICELIST_AZURE, "{\"Items\": [{\"armSkuName\": \"X\", \"armRegionName\": \"eastus\", \"type\": "
	  "\"Consumption\", \"unitOfMeasure\": \"1 Hour\", \"currencyCode\": \"EUR\", \"retailPrice\": 1}]}",
	  "t.json:1:14: Items[0]: currencyCode 'EUR'; expected USD (the API's default currency)" },
	{ PRICELIST_AZURE, "{\"Items\": [{\"armSkuName\": \"X\", \"armRegionName\": \"westus\", \"type\": "
	  "\"Consumption\", \"unitOfMeasure\": \"1 Hour\", \"retailPrice\": 1}]}",
	  "t.json: no Linux Virtual Machines Consumption or Reservation prices for region eastus; expected a "
	  "region the file has (westus), or a file fetched for eastus" },
};
#define NBAD ((int)(sizeof bad / sizeof bad[0]))

START_TEST(bad_input_fails_with_its_path)
{
	const struct bad *b = &bad[_i];
	const char *region = b->f == PRICELIST_AZURE ? "eastus" : "eu-west-1";
	struct pricelist pl;
	struct diag d = { "" };

	ck_assert_int_eq(pricelist_parse(&pl, b->text, strlen(b->text), "t.json", b->f, region, &d), STATUS_EINPUT);
	ck_assert_msg(strncmp(d.msg, b->msg, strlen(b->msg)) == 0, "case %d:\n got      %s\n expected %s", _i,
		      d.msg, b->msg);
	ck_assert_ptr_null(pl.rows);
}
END_TEST

START_TEST(binary_and_missing_files)
{
	struct pricelist pl;
	struct diag d = { "" };

	ck_assert_int_eq(pricelist_parse(&pl, "{\"a\"\0}", 6, "t.json", PRICELIST_AWS, "x", &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "t.json:1: a NUL byte or bytes that are not UTF-8; expected a JSON text file");
	/* text without a NUL after it (fuzz_pricelist's finding): a blank byte, then one not to be read */
	ck_assert_int_eq(pricelist_parse(&pl, " {", 1, "t.json", PRICELIST_AWS, "x", &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "t.json:1: the file is empty; expected aws_price_list JSON");
	ck_assert_int_eq(pricelist_load(&pl, PRICES "no-such.json", "n.json", PRICELIST_AWS, "x", &d),
			 STATUS_ENOENT);
	pricelist_fini(NULL);
	pricelist_fini(&pl);
	ck_assert_str_eq(pricelist_format_name(PRICELIST_AWS_BLOCKS), "aws_capacity_blocks");
}
END_TEST

static Suite *pricelist_suite(void)
{
	Suite *s = suite_create("pricelist");
	TCase *tc = tcase_create("read"), *tb = tcase_create("bad");

	tcase_add_test(tc, aws_on_demand_of_the_region);
	tcase_add_test(tc, aws_reserved_terms_by_hand);
	tcase_add_test(tc, aws_region_selects_rows);
	tcase_add_test(tc, aws_no_rows_for_region_names_the_regions);
	tcase_add_test(tc, capacity_blocks_rate_per_instance_hour);
	tcase_add_test(tc, azure_consumption_and_reservations);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(tb, bad_input_fails_with_its_path, 0, NBAD);
	tcase_add_test(tb, binary_and_missing_files);
	suite_add_tcase(s, tb);
	return s;
}

int main(void)
{
	return test_run_suite(pricelist_suite());
}
