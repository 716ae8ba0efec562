/*
 * check_pricelist_gcp: Google Cloud's Billing Catalog SKUs as a price list (format gcp_skus,
 * models/formats/pricelist_gcp.c): machine types priced by their GPU, vCPU and memory SKUs.
 *
 * tests/data/prices/gcp-a3.json is written for this test in the shape `gcloud billing skus list
 * --format=json` prints, with made-up round prices:
 *   a3-highgpu-8g's parts. us-central1 and us-east4
 *     (Americas) OnDemand: GPU $10 (units "10"), core $0.025 (its second tier, the one starting at 0; the
 *     first starts at 100), RAM $0.0025 per GiB-hour (units left out, as proto3 JSON does for 0);
 *     europe-west4 (EMEA): GPU $11.50, core $0.03, RAM $0.003. Beside them, to be skipped: a Spot
 *     Preemptible GPU ($3, before the OnDemand one, its description starting with the same text), an
 *     "H100 80GB Plus" GPU ($20), Commit1Yr GPU/Cpu/Ram and Preemptible core/RAM SKUs, an E2 core.
 * Prices are compared with a tolerance of 1e-9.
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

static struct pricelist load_ok(const char *file, const char *region)
{
	struct pricelist pl;
	struct diag d = { "" };
	int rc = pricelist_load(&pl, file, NULL, PRICELIST_GCP, region, &d);

	ck_assert_msg(rc == STATUS_OK, "%s: rc %d: %s", file, rc, d.msg);
	return pl;
}

/*
 * a3-highgpu-8g = 8 GPUs + 208 vCPUs + 1872 GiB (pricelist_gcp.c's table):
 *   Americas: 8 x 10 + 208 x 0.025 + 1872 x 0.0025 = 80 + 5.2 + 4.68 = 89.88 per hour.
 *   EMEA: 8 x 11.5 + 208 x 0.03 + 1872 x 0.003 = 92 + 6.24 + 5.616 = 103.856.
 * The Preemptible GPU ($3), the Plus GPU ($20) and the cheaper tier at 100 ($0.001) would each change it.
 */
START_TEST(gcp_machine_from_its_parts)
{
	struct pricelist pl = load_ok(PRICES "gcp-a3.json", "us-central1");

	ck_assert_int_eq(pl.n, 1);
	ck_assert_double_eq_tol(pricelist_find(&pl, "a3-highgpu-8g", PRICELIST_ON_DEMAND, 0, 0, false)->usd_per_h,
				89.88, TOL);
	ck_assert_ptr_null(pricelist_find(&pl, "a3-highgpu-8g", PRICELIST_RESERVED, 1, PRICELIST_NO_UPFRONT,
					  false));  /* Commit1Yr SKUs are not used */
	ck_assert_str_eq(pl.published, "2026-11-02T08:00:00Z");  /* the GPU SKU's, the latest of the three */
	pricelist_fini(&pl);
	pl = load_ok(PRICES "gcp-a3.json", "us-east4");  /* the second of serviceRegions */
	ck_assert_double_eq_tol(pl.rows[0].usd_per_h, 89.88, TOL);
	pricelist_fini(&pl);
	pl = load_ok(PRICES "gcp-a3.json", "europe-west4");
	ck_assert_double_eq_tol(pl.rows[0].usd_per_h, 103.856, TOL);
	ck_assert_str_eq(pl.published, "2026-11-01T08:00:00Z");
	pricelist_fini(&pl);
}
END_TEST

/* Machines given by the caller: a 4-GPU half of a3 (4 x 10 + 104 x 0.025 + 936 x 0.0025 = 40 + 2.6 + 2.34 =
 * 44.94) and a3-highgpu-8g reshaped to 1 GPU, 1 vCPU, 1 GiB (10 + 0.025 + 0.0025 = 10.0275). */
START_TEST(gcp_machines_given_by_the_caller)
{
	static const struct pricelist_machine m[] = {
		{ "a3-half", { "Nvidia H100 80GB GPU", "A3 Instance Core", "A3 Instance Ram" }, { 4, 104, 936 } },
		{ "a3-highgpu-8g", { "Nvidia H100 80GB GPU", "A3 Instance Core", "A3 Instance Ram" }, { 1, 1, 1 } },
	};
	struct pricelist pl;
	struct diag d = { "" };

	ck_assert_int_eq(pricelist_load_gcp(&pl, PRICES "gcp-a3.json", NULL, "us-central1", m, 2, &d), STATUS_OK);
	ck_assert_int_eq(pl.n, 2);
	ck_assert_double_eq_tol(pricelist_find(&pl, "a3-half", PRICELIST_ON_DEMAND, 0, 0, false)->usd_per_h,
				44.94, TOL);
	ck_assert_double_eq_tol(pricelist_find(&pl, "a3-highgpu-8g", PRICELIST_ON_DEMAND, 0, 0, false)->usd_per_h,
				10.0275, TOL);
	pricelist_fini(&pl);
}
END_TEST

/* One gcp SKU of the given description, usage type, regions and pricing expression. */
#define GSKU(desc, usage, regions, expr) "{\"description\": \"" desc "\", \"category\": {\"usageType\": \"" \
	usage "\"}, \"serviceRegions\": [" regions "], \"pricingInfo\": [{\"pricingExpression\": " expr "}]}"
#define GEXPR(unit, price) "{\"usageUnit\": \"" unit "\", \"tieredRates\": [{\"startUsageAmount\": 0, " \
	"\"unitPrice\": {\"currencyCode\": \"USD\", " price "}}]}"
#define GUS "\"us-central1\""
#define GA3 GSKU("Nvidia H100 80GB GPU running in Americas", "OnDemand", GUS, GEXPR("h", "\"units\": \"1\"")) ", " \
	GSKU("A3 Instance Core running in Americas", "OnDemand", GUS, GEXPR("h", "\"nanos\": 500000000"))

/* The REST response form; 8 x 1 + 208 x 0.5 + 1872 x 0.25 = 8 + 104 + 468 = 580. */
START_TEST(gcp_rest_response)
{
	static const char text[] = "{\"skus\": [" GA3 ", " GSKU("A3 Instance Ram running in Americas", "OnDemand",
		GUS, GEXPR("GiBy.h", "\"units\": \"0\", \"nanos\": 250000000")) "], \"nextPageToken\": \"\"}";
	struct pricelist pl;
	struct diag d = { "" };

	ck_assert_int_eq(pricelist_parse(&pl, text, strlen(text), "t.json", PRICELIST_GCP, "us-central1", &d),
			 STATUS_OK);
	ck_assert_int_eq(pl.n, 1);
	ck_assert_str_eq(pl.rows[0].type, "a3-highgpu-8g");
	ck_assert_double_eq_tol(pl.rows[0].usd_per_h, 580.0, TOL);
	pricelist_fini(&pl);
}
END_TEST

/* Malformed inputs, read for us-central1: the message with its JSON path. */
static const struct bad {
	const char *text, *msg;
} bad[] = {
	{ "[" GSKU("Nvidia H100 80GB GPU running in Americas", "OnDemand", GUS, GEXPR("h",
	  "\"units\": \"2.5\"")) "]",
	  "t.json:1:248: [0].pricingInfo[0].pricingExpression.tieredRates[0].unitPrice.units: '2.5'; "
	  "expected a string of at most 12 decimal digits (whole USD)" },
	{ "[" GSKU("X", "OnDemand", GUS, GEXPR("h", "\"units\": 2")) "]",
	  "t.json:1:240: [0].pricingInfo[0].pricingExpression.tieredRates[0].unitPrice.units: "
	  "expected a string, got 2" },
	{ "[" GSKU("X", "OnDemand", GUS, GEXPR("h", "\"nanos\": 1000000000")) "]",
	  "t.json:1:240: [0].pricingInfo[0].pricingExpression.tieredRates[0].unitPrice.nanos: "
	  "expected an integer from 0 to 999999999 (billionths of a USD), got 1000000000" },
	{ "[{\"description\": \"X\", \"category\": {\"usageType\": \"OnDemand\"}}]",
	  "t.json:1:4: [0]: missing key 'pricingInfo'; expected a list of pricing info "
	  "{pricingExpression, effectiveTime}" },
	{ "[" GSKU("X", "OnDemand", GUS, "{\"usageUnit\": \"h\", \"tieredRates\": [{\"unitPrice\": "
	  "{\"currencyCode\": \"EUR\", \"units\": \"1\"}}]}") "]",
	  "t.json:1:186: [0].pricingInfo[0].pricingExpression.tieredRates[0].unitPrice: currencyCode "
	  "'EUR'; expected USD (the API's default currency)" },
	{ "[" GSKU("X", "OnDemand", GUS, "{\"usageUnit\": \"h\", \"tieredRates\": "
	  "[{\"startUsageAmount\": 10, \"unitPrice\": {\"currencyCode\": \"USD\"}}]}") "]",
	  "t.json:1:172: [0].pricingInfo[0].pricingExpression.tieredRates: no tier with "
	  "startUsageAmount 0; expected the tier the price starts at" },
	{ "[" GSKU("A3 Instance Ram running in Americas", "OnDemand", GUS, GEXPR("h", "\"units\": "
	  "\"1\"")) "]",
	  "t.json:1:4: [0]: usageUnit 'h' for a3-highgpu-8g's memory; expected GiBy.h" },
	{ "[" GSKU("Nvidia H100 80GB GPU running in EMEA", "OnDemand", "\"europe-west4\"", GEXPR("h",
	  "\"units\": \"1\"")) "]",
	  "t.json: no OnDemand GPU, vCPU and memory SKUs of a machine type for region us-central1; "
	  "expected a region the file has (europe-west4), or a file fetched for us-central1" },
	{ "[" GA3 "]",
	  "t.json: a3-highgpu-8g: no OnDemand SKU for its memory ('A3 Instance Ram ...') in region "
	  "us-central1; expected one for each of its GPUs, vCPUs and memory" },
	{ "[" GSKU("E2 Instance Core running in Americas", "OnDemand", GUS, GEXPR("h", "\"units\": "
	  "\"1\"")) "]",
	  "t.json: no OnDemand GPU, vCPU and memory SKUs of a machine type at all; expected at least "
	  "one for region us-central1" },
	{ "{\"nextPageToken\": \"\"}",
	  "t.json:1:3: missing key 'skus'; expected a list of SKUs, the Cloud Billing Catalog API's "
	  "response" },
	{ "\"skus\"",
	  "t.json:1:2: expected a JSON object at top level (gcp_skus, or the list gcloud prints)" },
};
#define NBAD ((int)(sizeof bad / sizeof bad[0]))

START_TEST(bad_input_fails_with_its_path)
{
	const struct bad *b = &bad[_i];
	struct pricelist pl;
	struct diag d = { "" };

	ck_assert_int_eq(pricelist_parse(&pl, b->text, strlen(b->text), "t.json", PRICELIST_GCP, "us-central1", &d),
			 STATUS_EINPUT);
	ck_assert_msg(strcmp(d.msg, b->msg) == 0, "case %d:\n got      %s\n expected %s", _i, d.msg, b->msg);
	ck_assert_ptr_null(pl.rows);
}
END_TEST

static Suite *pricelist_gcp_suite(void)
{
	Suite *s = suite_create("pricelist_gcp");
	TCase *tc = tcase_create("read"), *tb = tcase_create("bad");

	tcase_add_test(tc, gcp_machine_from_its_parts);
	tcase_add_test(tc, gcp_rest_response);
	tcase_add_test(tc, gcp_machines_given_by_the_caller);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(tb, bad_input_fails_with_its_path, 0, NBAD);
	suite_add_tcase(s, tb);
	return s;
}

int main(void)
{
	return test_run_suite(pricelist_gcp_suite());
}
