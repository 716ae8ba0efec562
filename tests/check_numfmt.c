/*
 * check_numfmt: numbers for people (analysis/numfmt.h): grouping, money, percentages with the digits their
 * interval supports, intervals rounded to their own precision, and never scientific notation, over values
 * from 1e-9 to 1e15 (the examples: 2.1203e+07, 4.0191e+05 +- 526, 0.0060111).
 */
#include <check.h>
#include <math.h>
#include <regex.h>
#include <string.h>

#include "numfmt.h"
#include "testutil.h"

static char buf[512];

START_TEST(fixed_groups_thousands)
{
	ck_assert_str_eq(numfmt_fixed(0, 0, buf, sizeof buf), "0");
	ck_assert_str_eq(numfmt_fixed(999, 0, buf, sizeof buf), "999");
	ck_assert_str_eq(numfmt_fixed(1000, 0, buf, sizeof buf), "1,000");
	ck_assert_str_eq(numfmt_fixed(1234567.891, 1, buf, sizeof buf), "1,234,567.9");
	ck_assert_str_eq(numfmt_fixed(-1234567, 0, buf, sizeof buf), "-1,234,567");
	ck_assert_str_eq(numfmt_fixed(-0.001, 2, buf, sizeof buf), "0.00");  /* no "-0.00" */
	ck_assert_str_eq(numfmt_fixed(123456, 0, buf, sizeof buf), "123,456");
	ck_assert_str_eq(numfmt_fixed(NAN, 2, buf, sizeof buf), "\u2013");
	ck_assert_str_eq(numfmt_fixed(1234, 0, buf, 4), "1,2");  /* cut, terminated */
}
END_TEST

START_TEST(money_in_dollars_or_cents)
{
	ck_assert_str_eq(numfmt_money(2.1203e7, false, buf, sizeof buf), "$21,203,000");
	ck_assert_str_eq(numfmt_money(1234.565, true, buf, sizeof buf), "$1,234.57");
	ck_assert_str_eq(numfmt_money(-12.4, false, buf, sizeof buf), "-$12");
	ck_assert_str_eq(numfmt_money(-0.004, true, buf, sizeof buf), "$0.00");
	ck_assert_str_eq(numfmt_money(0, false, buf, sizeof buf), "$0");
}
END_TEST

START_TEST(significant_digits_in_fixed_notation)
{
	ck_assert_str_eq(numfmt_sig(2.1203e7, 3, buf, sizeof buf), "21,200,000");
	ck_assert_str_eq(numfmt_sig(0.000123456, 3, buf, sizeof buf), "0.000123");
	ck_assert_str_eq(numfmt_sig(19.834, 4, buf, sizeof buf), "19.83");
	ck_assert_str_eq(numfmt_sig(0, 3, buf, sizeof buf), "0");
	ck_assert_str_eq(numfmt_sig(-45678, 2, buf, sizeof buf), "-46,000");
}
END_TEST

START_TEST(percent_follows_its_interval)
{
	ck_assert_str_eq(numfmt_percent(0.0060111, 0.0005, buf, sizeof buf), "0.60%");
	ck_assert_str_eq(numfmt_percent(0.0060111, NAN, buf, sizeof buf), "0.601%");
	ck_assert_str_eq(numfmt_percent(0.0060111, 0.00000123, buf, sizeof buf), "0.6011%");
	ck_assert_str_eq(numfmt_percent(0.25, 0.03, buf, sizeof buf), "25%");
	ck_assert_str_eq(numfmt_percent(0.25, 0.003, buf, sizeof buf), "25.0%");
	ck_assert_str_eq(numfmt_percent(0, NAN, buf, sizeof buf), "0%");
	ck_assert_str_eq(numfmt_percent(1e-7, NAN, buf, sizeof buf), "0.0000100%");
	ck_assert_str_eq(numfmt_percent(0.5, 0.2, buf, sizeof buf), "50%");
}
END_TEST

START_TEST(interval_rounds_to_its_own_precision)
{
	ck_assert_str_eq(numfmt_pm(4.0191e5, 526, false, buf, sizeof buf), "401,910 \u00b1 530");
	ck_assert_str_eq(numfmt_pm(4.0191e5, 526, true, buf, sizeof buf), "$401,910 \u00b1 $530");
	ck_assert_str_eq(numfmt_pm(19.8349, 0.0421, false, buf, sizeof buf), "19.835 \u00b1 0.042");
	ck_assert_str_eq(numfmt_pm(0.0060111, 0.0005, false, buf, sizeof buf), "0.00601 \u00b1 0.00050");
	ck_assert_str_eq(numfmt_pm(12.5, NAN, false, buf, sizeof buf), "12.5");
	ck_assert_str_eq(numfmt_pm(123456.78, 0, true, buf, sizeof buf), "$123,457");
	ck_assert_str_eq(numfmt_pm(-3.14159, 0.5, false, buf, sizeof buf), "-3.14 \u00b1 0.50");
}
END_TEST

/* Whatever the magnitude, no exponent: every function over values 1e-9 .. 1e15, both signs. */
START_TEST(never_scientific)
{
	regex_t sci;

	ck_assert_int_eq(regcomp(&sci, "[0-9][eE][-+]?[0-9]", REG_EXTENDED | REG_NOSUB), 0);
	for (int e = -9; e <= 15; e++)
		for (int s = -1; s <= 1; s += 2) {
			double v = s * 1.23456789 * pow(10, e);
			const char *out[] = {
				numfmt_sig(v, 3, (char[512]){ 0 }, 512), numfmt_money(v, e < 3, (char[512]){ 0 }, 512),
				numfmt_percent(v, NAN, (char[512]){ 0 }, 512),
				numfmt_percent(v, fabs(v) / 7, (char[512]){ 0 }, 512),
				numfmt_pm(v, fabs(v) / 13, e % 2, (char[512]){ 0 }, 512),
				numfmt_fixed(v, 2, (char[512]){ 0 }, 512),
			};
			for (size_t i = 0; i < sizeof out / sizeof out[0]; i++)
				ck_assert_msg(regexec(&sci, out[i], 0, NULL, 0) != 0, "%g: %s", v, out[i]);
		}
	regfree(&sci);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("numfmt");
	TCase *tc = tcase_create("numfmt");

	tcase_add_test(tc, fixed_groups_thousands);
	tcase_add_test(tc, money_in_dollars_or_cents);
	tcase_add_test(tc, significant_digits_in_fixed_notation);
	tcase_add_test(tc, percent_follows_its_interval);
	tcase_add_test(tc, interval_rounds_to_its_own_precision);
	tcase_add_test(tc, never_scientific);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(suite());
}
