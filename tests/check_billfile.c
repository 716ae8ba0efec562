/*
 * check_billfile: bills in FOCUS and CUR 2.0 form (models/formats/billfile.h): each class rule, the split of
 * a row over the clock hours it touches, the time forms, and every documented error with its position. The
 * bills are written inline; amounts are compared with a tolerance of 1e-9 (parsed decimals, and fractions
 * of them). Hours are counted from 2026-11-02T00:00:00Z (unix 1793577600).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "billfile.h"
#include "status.h"
#include "testutil.h"

#define TOL 1e-9
#define H0 INT64_C(1793577600)  /* 2026-11-02T00:00:00Z */

static const char *const p5[] = { "p5.48xlarge" };

#define FOCUS_HEAD "ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ConsumedQuantity,ConsumedUnit,EffectiveCost," \
	"PricingCategory,CommitmentDiscountStatus,CommitmentDiscountType,CapacityReservationId," \
	"CapacityReservationStatus,SkuId\n"
#define CUR_HEAD "line_item_usage_start_date,line_item_usage_end_date,line_item_line_item_type,line_item_usage_type," \
	"line_item_usage_amount,line_item_unblended_cost,pricing_term,savings_plan_savings_plan_effective_cost," \
	"reservation_effective_cost,reservation_unused_amortized_upfront_fee_for_billing_period," \
	"reservation_unused_recurring_fee,savings_plan_total_commitment_to_date,savings_plan_used_commitment\n"

/* Load text as a bill (format fmt, type p5.48xlarge); the status, the message in d. */
static int load(const char *text, enum billfile_format fmt, struct billfile *b, struct diag *d)
{
	char *path = test_write_file("bill.csv", text);
	int rc;

	ck_assert_ptr_nonnull(path);
	rc = billfile_load(b, path, fmt, p5, 1, d);
	test_remove_file(path);
	return rc;
}

static struct billfile load_ok(const char *text)
{
	struct billfile b;
	struct diag d = { "" };
	int rc = load(text, BILLFILE_AUTO, &b, &d);

	ck_assert_msg(rc == STATUS_OK, "rc %d: %s", rc, d.msg);
	return b;
}

static const struct billcell *cell(const struct billfile *b, int hour, enum billclass c)
{
	int h = (int)((H0 - b->start_unix_s) / 3600) + hour;

	ck_assert_int_ge(h, 0);
	ck_assert_int_lt(h, b->nhours);
	return &b->cells[h * BILLCLASS_N + c];
}

static void assert_cell(const struct billfile *b, int hour, enum billclass c, double hours_h, double cost_usd,
			double used_h, double unused_usd)
{
	const struct billcell *x = cell(b, hour, c);

	ck_assert_double_eq_tol(x->hours_h, hours_h, TOL);
	ck_assert_double_eq_tol(x->cost_usd, cost_usd, TOL);
	ck_assert_double_eq_tol(x->used_h, used_h, TOL);
	ck_assert_double_eq_tol(x->unused_usd, unused_usd, TOL);
}

/*
 * One FOCUS row per rule, all in hour 0: On-Demand 2 h $110.08; Spot (Dynamic) 1 h $27.52; a Savings Plan's
 * covered 3 h $115.58 (Used) and its unused $20 (Unused: cost, no hours); a Reserved Instance's unused $7
 * (CommitmentDiscountType without "Savings Plan"); an ODCR used 1 h $55.04 and unused $55.04; rows left out:
 * a Purchase, a Tax, and a Usage row of g5.xlarge.
 */
START_TEST(focus_classes)
{
	struct billfile b = load_ok(FOCUS_HEAD
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,2,Hours,110.08,Standard,,,,,p5.48xlarge\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,1,Hours,27.52,Dynamic,,,,,p5.48xlarge\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,3,Hours,115.58,Committed,Used,Compute Savings Plan,,,p5.48xlarge\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,,,20,Committed,Unused,Compute Savings Plan,,,p5.48xlarge\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,0,Hours,7,Committed,Unused,Reserved Instance,,,p5.48xlarge\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,1,Hours,55.04,Standard,,,cr-1,Used,p5.48xlarge\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,1,Hours,55.04,Standard,,,cr-1,Unused,p5.48xlarge\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Purchase,,,0,Standard,,,,,p5.48xlarge\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Tax,,,12,Standard,,,,,\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,1,Hours,1.01,Standard,,,,,g5.xlarge\n");

	ck_assert_int_eq(b.format, BILLFILE_FOCUS);
	ck_assert_int_eq(b.start_unix_s, H0);
	ck_assert_int_eq(b.nhours, 1);
	ck_assert_int_eq(b.rows, 10);
	ck_assert_int_eq(b.kept, 7);
	ck_assert_int_eq(b.not_usage, 2);
	ck_assert_int_eq(b.other_type, 1);
	assert_cell(&b, 0, BILLCLASS_ON_DEMAND, 2, 110.08, 0, 0);
	assert_cell(&b, 0, BILLCLASS_SPOT, 1, 27.52, 0, 0);
	assert_cell(&b, 0, BILLCLASS_SAVINGS_PLAN, 3, 135.58, 3, 20);
	assert_cell(&b, 0, BILLCLASS_RESERVED, 0, 7, 0, 7);
	assert_cell(&b, 0, BILLCLASS_RESERVATION, 1, 110.08, 1, 55.04);
	billfile_fini(&b);
}
END_TEST

/*
 * One CUR row per rule, in hour 0: Usage On-Demand 2 h $110.08; Usage Spot (by the usage type) 1 h $27.52;
 * SavingsPlanCoveredUsage 3 h at its effective cost $115.58 (not the unblended $165.12); DiscountedUsage 1 h
 * at reservation_effective_cost $35.7; RIFee unused 5 + 2 = $7; SavingsPlanRecurringFee 100 - 80 = $20 unused;
 * SavingsPlanNegation and Tax left out.
 */
START_TEST(cur_classes)
{
	struct billfile b = load_ok(CUR_HEAD
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,USE1-BoxUsage:p5.48xlarge,2,110.08,OnDemand,,,,,,\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,USE1-SpotUsage:p5.48xlarge,1,27.52,,,,,,,\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,SavingsPlanCoveredUsage,USE1-BoxUsage:p5.48xlarge,3,165.12,,115.58,,,,,\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,DiscountedUsage,USE1-BoxUsage:p5.48xlarge,1,0,Reserved,,35.7,,,,\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,RIFee,USE1-HeavyUsage:p5.48xlarge,0,40,,,,5,2,,\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,SavingsPlanRecurringFee,USE1-BoxUsage:p5.48xlarge,1,100,,,,,,100,80\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,SavingsPlanNegation,USE1-BoxUsage:p5.48xlarge,0,-165.12,,,,,,,\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Tax,,0,9,,,,,,,\n");

	ck_assert_int_eq(b.format, BILLFILE_CUR);
	ck_assert_int_eq(b.kept, 6);
	ck_assert_int_eq(b.not_usage, 2);
	assert_cell(&b, 0, BILLCLASS_ON_DEMAND, 2, 110.08, 0, 0);
	assert_cell(&b, 0, BILLCLASS_SPOT, 1, 27.52, 0, 0);
	assert_cell(&b, 0, BILLCLASS_SAVINGS_PLAN, 3, 135.58, 3, 20);
	assert_cell(&b, 0, BILLCLASS_RESERVED, 1, 42.7, 1, 7);
	billfile_fini(&b);
}
END_TEST

/*
 * A row [10:30, 12:15) of 1.75 h and $7 (in the CUR's space-separated form without a zone) goes 0.5/1.75 to
 * hour 10 (0.5 h, $2), 1/1.75 to hour 11 (1 h, $4), 0.25/1.75 to hour 12 (0.25 h, $1); a second row in hour
 * 13, out of order before it, widens the span: 10 .. 13 is 4 hours from 10:00.
 */
START_TEST(row_split_over_hours)
{
	struct billfile b = load_ok(CUR_HEAD
		"2026-11-02T13:00:00.000Z,2026-11-02T14:00:00.000Z,Usage,USE1-BoxUsage:p5.48xlarge,1,4,,,,,,,\n"
		"2026-11-02 10:30:00,2026-11-02 12:15:00,Usage,USE1-BoxUsage:p5.48xlarge,1.75,7,,,,,,,\n");

	ck_assert_int_eq(b.start_unix_s, H0 + 10 * 3600);
	ck_assert_int_eq(b.nhours, 4);
	ck_assert_double_eq_tol(b.first_unix_s, (double)H0 + 10.5 * 3600, TOL);
	ck_assert_double_eq_tol(b.last_unix_s, (double)H0 + 14 * 3600, TOL);
	assert_cell(&b, 10, BILLCLASS_ON_DEMAND, 0.5, 2, 0, 0);
	assert_cell(&b, 11, BILLCLASS_ON_DEMAND, 1, 4, 0, 0);
	assert_cell(&b, 12, BILLCLASS_ON_DEMAND, 0.25, 1, 0, 0);
	assert_cell(&b, 13, BILLCLASS_ON_DEMAND, 1, 4, 0, 0);
	billfile_fini(&b);
}
END_TEST

/* FOCUS 1.0 names commitment use in ChargeSubcategory; a CRLF file with a byte-order mark and quoted fields. */
START_TEST(focus_10_subcategory_crlf_bom)
{
	struct billfile b = load_ok("\xEF\xBB\xBF" "ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ChargeSubcategory,"
		"ConsumedQuantity,EffectiveCost,PricingCategory,ResourceType\r\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,Used Commitment,1,30,Committed,\"p5.48xlarge\"\r\n"
		"2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,Unused Commitment,0,\"5\",Committed,p5.48xlarge\r\n");

	assert_cell(&b, 0, BILLCLASS_RESERVED, 1, 35, 1, 5);
	billfile_fini(&b);
}
END_TEST

/*
 * 1,000 hourly rows forward from hour 0, then 500 backward from hour -1 (the span grows at both ends, the
 * cells moved as it grows), over several 64 KiB blocks: each hour k holds 1 h at $(k + 1000).
 */
START_TEST(span_grows_both_ways)
{
	size_t size = 1600 * 160, n;
	char *text = malloc(size);
	struct billfile b;

	ck_assert_ptr_nonnull(text);
	n = (size_t)snprintf(text, size, "%s", FOCUS_HEAD);
	for (int i = 0; i < 1500; i++) {
		int k = i < 1000 ? i : 999 - i;  /* 0 .. 999, then -1 .. -500 */
		char s[32], e[32];
		time_t t = (time_t)(H0 + 3600 * (int64_t)k);
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
		t += 3600;
		gmtime_r(&t, &tm);
		strftime(e, sizeof e, "%Y-%m-%dT%H:%M:%SZ", &tm);
		n += (size_t)snprintf(text + n, size - n, "%s,%s,Usage,1,Hours,%d,Standard,,,,,p5.48xlarge\n", s, e, k + 1000);
	}
	b = load_ok(text);
	free(text);
	ck_assert_int_eq(b.start_unix_s, H0 - 500 * 3600);
	ck_assert_int_eq(b.nhours, 1500);
	for (int k = -500; k < 1000; k++)
		assert_cell(&b, k, BILLCLASS_ON_DEMAND, 1, k + 1000, 0, 0);
	billfile_fini(&b);
}
END_TEST

/* Each documented refusal, with its position; the struct is zeroed after each. */
static const struct {
	const char *text;
	enum billfile_format fmt;
	const char *msg;
} bad[] = {
	{ "a,b\n1,2\n", BILLFILE_AUTO, "bill.csv:1: row: neither a FOCUS nor a CUR 2.0 header" },
	{ "ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ConsumedQuantity,PricingCategory,SkuId\n", BILLFILE_AUTO,
	  "bill.csv:1: row: the header has no column EffectiveCost; expected a FOCUS header" },
	{ "ChargePeriodStart,ChargePeriodEnd,ChargeCategory,ConsumedQuantity,EffectiveCost,PricingCategory\n",
	  BILLFILE_AUTO, "the header names no instance type column; expected SkuId, ResourceType" },
	{ FOCUS_HEAD, BILLFILE_CUR, "the header has no column line_item_usage_start_date" },
	{ FOCUS_HEAD "2026-11-02,2026-11-02T01:00:00Z,Usage,1,Hours,1,Standard,,,,,p5.48xlarge\n", BILLFILE_AUTO,
	  "bill.csv:2:1: ChargePeriodStart: '2026-11-02'; expected an ISO-8601 UTC time" },
	{ FOCUS_HEAD "2026-11-02T01:00:00Z,2026-11-02T01:00:00Z,Usage,1,Hours,1,Standard,,,,,p5.48xlarge\n",
	  BILLFILE_AUTO, "bill.csv:2:2: ChargePeriodEnd: '2026-11-02T01:00:00Z'; expected a time after the period's start" },
	{ FOCUS_HEAD "2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,-1,Hours,1,Standard,,,,,p5.48xlarge\n",
	  BILLFILE_AUTO, "bill.csv:2:4: ConsumedQuantity: '-1'; expected a number >= 0" },
	{ FOCUS_HEAD "2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,1,Hours,,Standard,,,,,p5.48xlarge\n",
	  BILLFILE_AUTO, "bill.csv:2:6: EffectiveCost: empty; expected a number" },
	{ FOCUS_HEAD "2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,1,Hours,1e999,Standard,,,,,p5.48xlarge\n",
	  BILLFILE_AUTO, "bill.csv:2:6: EffectiveCost: '1e999'; expected a number" },
	{ FOCUS_HEAD "2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,1,GB,1,Standard,,,,,p5.48xlarge\n",
	  BILLFILE_AUTO, "bill.csv:2:5: ConsumedUnit: 'GB'; expected Hours" },
	{ FOCUS_HEAD "2024-01-01T00:00:00Z,2027-01-01T00:00:00Z,Usage,1,Hours,1,Standard,,,,,p5.48xlarge\n",
	  BILLFILE_AUTO, "bill.csv:2: row: the bill spans more than two years" },
	{ FOCUS_HEAD "2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,1,Hours,1,Standard,,,,,g5.xlarge\n",
	  BILLFILE_AUTO, "no usage of p5.48xlarge in the bill (1 rows: 1 of other instance types or services, 0 not usage)" },
	{ FOCUS_HEAD "1,2\n", BILLFILE_AUTO, "bill.csv:2: row: 2 fields; expected as many fields as the header" },
	{ FOCUS_HEAD "x\"y,1\n", BILLFILE_AUTO, "bill.csv:2: row: malformed quoting" },
	{ "", BILLFILE_AUTO, "bill.csv: empty; expected a FOCUS or CUR 2.0 header and rows" },
	{ CUR_HEAD "2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,Usage,USE1-BoxUsage:p5.48xlarge,x,1,,,,,,,\n",
	  BILLFILE_AUTO, "bill.csv:2:5: line_item_usage_amount: 'x'; expected a number" },
	{ "line_item_usage_start_date,line_item_usage_end_date,line_item_line_item_type,line_item_usage_type,"
	  "line_item_usage_amount,line_item_unblended_cost\n"
	  "2026-11-02T00:00:00Z,2026-11-02T01:00:00Z,DiscountedUsage,USE1-BoxUsage:p5.48xlarge,1,0\n", BILLFILE_AUTO,
	  "bill.csv:2: row: the header has no column reservation_effective_cost, which this line item needs" },
};
#define NBAD ((int)(sizeof bad / sizeof bad[0]))

START_TEST(bad_bill_fails_with_its_message)
{
	struct billfile b;
	struct diag d = { "" };
	int rc = load(bad[_i].text, bad[_i].fmt, &b, &d);

	ck_assert_int_eq(rc, STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, bad[_i].msg), "case %d: got '%s', expected '%s'", _i, d.msg, bad[_i].msg);
	ck_assert_ptr_null(b.cells);
	ck_assert_int_eq(b.nhours, 0);
}
END_TEST

/* A NUL byte, and a line longer than BILLFILE_LINE_MAX, are refused at their line. */
START_TEST(binary_and_long_lines_refused)
{
	char *text = malloc(BILLFILE_LINE_MAX + 512);
	struct billfile b;
	struct diag d = { "" };
	char *path;
	FILE *f;

	ck_assert_ptr_nonnull(text);
	snprintf(text, 512, "%s", FOCUS_HEAD);
	memset(text + strlen(text), 'x', BILLFILE_LINE_MAX + 2);
	text[strlen(FOCUS_HEAD) + BILLFILE_LINE_MAX + 2] = '\0';
	ck_assert_int_eq(load(text, BILLFILE_AUTO, &b, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "bill.csv:2: row: line too long"), "%s", d.msg);
	free(text);
	path = test_write_file("nul.csv", "");
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	fwrite(FOCUS_HEAD "a\0b\n", 1, sizeof FOCUS_HEAD + 3, f);
	fclose(f);
	ck_assert_int_eq(billfile_load(&b, path, BILLFILE_AUTO, p5, 1, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "nul.csv:2: row: a NUL byte; expected a text CSV file"), "%s", d.msg);
	test_remove_file(path);
	ck_assert_int_eq(billfile_load(&b, "/nonexistent/bill.csv", BILLFILE_AUTO, p5, 1, &d), STATUS_ENOENT);
}
END_TEST

START_TEST(names)
{
	ck_assert_str_eq(billclass_name(BILLCLASS_SAVINGS_PLAN), "savings_plan");
	ck_assert_str_eq(billclass_name(BILLCLASS_RESERVATION), "reservation");
	ck_assert_str_eq(billfile_format_name(BILLFILE_CUR), "cur");
	ck_assert_str_eq(billfile_format_name(BILLFILE_FOCUS), "focus");
}
END_TEST

static Suite *billfile_suite(void)
{
	Suite *s = suite_create("billfile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, focus_classes);
	tcase_add_test(tc, cur_classes);
	tcase_add_test(tc, row_split_over_hours);
	tcase_add_test(tc, focus_10_subcategory_crlf_bom);
	tcase_add_test(tc, span_grows_both_ways);
	tcase_add_loop_test(tc, bad_bill_fails_with_its_message, 0, NBAD);
	tcase_add_test(tc, binary_and_long_lines_refused);
	tcase_add_test(tc, names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(billfile_suite());
}
