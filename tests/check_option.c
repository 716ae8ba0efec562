/*
 * check_option: billing rules of each purchase option (option_bill), on hand-computed cases.
 * Tolerance: prices are compared to 1e-9 USD (the arithmetic is a few multiplications).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "option.h"
#include "status.h"
#include "testutil.h"

#define S 1000000LL
#define H (3600 * S)

/* The bill of an instance launched at t0 (warm: already running at t = 0, launched before the window). */
static double bill_of(enum option_kind k, double price, int64_t t0, int64_t t1, bool early, bool warm,
		      double *billed_s)
{
	double usd = -1, billed_us = -1;

	ck_assert_int_eq(option_bill(k, price, t0, t1, early, warm, &usd, &billed_us), STATUS_OK);
	if (billed_s)
		*billed_s = billed_us / S;
	return usd;
}

/* The bill of an instance launched inside the window. */
static double bill(enum option_kind k, double price, int64_t t0, int64_t t1, bool early, double *billed_s)
{
	return bill_of(k, price, t0, t1, early, false, billed_s);
}

START_TEST(on_demand_per_second)
{
	double secs;
	/* 1 h 30 min at $55.04/h = $82.56 */
	ck_assert_double_eq_tol(bill(OPTION_ON_DEMAND, 55.04, 0, H + 1800 * S, true, &secs), 82.56, 1e-9);
	ck_assert_double_eq_tol(secs, 5400, 1e-9);
	/* 100.2 s rounds up to 101 whole seconds: 101/3600 x $36 = $1.01 */
	ck_assert_double_eq_tol(bill(OPTION_ON_DEMAND, 36.0, 5 * S, 5 * S + 100200000, true, &secs), 1.01, 1e-9);
	ck_assert_double_eq_tol(secs, 101, 1e-9);
}
END_TEST

START_TEST(on_demand_minimum_60s)
{
	double secs;
	/* terminated after 10 s: billed 60 s. $36/h -> $0.60 */
	ck_assert_double_eq_tol(bill(OPTION_ON_DEMAND, 36.0, 0, 10 * S, true, &secs), 0.60, 1e-9);
	ck_assert_double_eq_tol(secs, 60, 1e-9);
	/* cancelled at once: still 60 s */
	ck_assert_double_eq_tol(bill(OPTION_ON_DEMAND, 36.0, 7 * S, 7 * S, true, &secs), 0.60, 1e-9);
	/* exactly 60 s and 61 s */
	ck_assert_double_eq_tol(bill(OPTION_ON_DEMAND, 36.0, 0, 60 * S, true, NULL), 0.60, 1e-9);
	ck_assert_double_eq_tol(bill(OPTION_ON_DEMAND, 36.0, 0, 61 * S, true, NULL), 0.61, 1e-9);
}
END_TEST

START_TEST(on_demand_cut_at_horizon)
{
	double secs;
	/* still running at the horizon 10 s after launch: only the 10 s inside the window, no minimum */
	ck_assert_double_eq_tol(bill(OPTION_ON_DEMAND, 36.0, 0, 10 * S, false, &secs), 0.10, 1e-9);
	ck_assert_double_eq_tol(secs, 10, 1e-9);
	/* a horizon of 10800.5 s: billed 10800.5 s exactly, not rounded up to 10801 s:
	 * 10800.5 / 3600 x $36 = $108.005 (rounding up would give $108.01) */
	ck_assert_double_eq_tol(bill(OPTION_ON_DEMAND, 36.0, 0, 10800500000LL, false, &secs), 108.005, 1e-9);
	ck_assert_double_eq_tol(secs, 10800.5, 1e-9);
	/* launched at 100.3 s, still running at the horizon 10800.5 s: 10700.2 s, $107.002 */
	ck_assert_double_eq_tol(bill(OPTION_ON_DEMAND, 36.0, 100300000, 10800500000LL, false, &secs), 107.002,
				1e-9);
	ck_assert_double_eq_tol(secs, 10700.2, 1e-9);
}
END_TEST

START_TEST(on_demand_warm_no_minimum)
{
	double secs;
	/* running at t = 0 (launched before the window), terminated at 35 s: 35 s, no 60 s minimum:
	 * 35 / 3600 x $36 = $0.35 */
	ck_assert_double_eq_tol(bill_of(OPTION_ON_DEMAND, 36.0, 0, 35 * S, true, true, &secs), 0.35, 1e-9);
	ck_assert_double_eq_tol(secs, 35, 1e-9);
	/* the per-second rounding still applies: 35.2 s -> 36 s, $0.36 */
	ck_assert_double_eq_tol(bill_of(OPTION_ON_DEMAND, 36.0, 0, 35200000, true, true, &secs), 0.36, 1e-9);
	ck_assert_double_eq_tol(secs, 36, 1e-9);
	/* launched inside the window at 0 s, same end: the minimum applies, 60 s, $0.60 */
	ck_assert_double_eq_tol(bill_of(OPTION_ON_DEMAND, 36.0, 0, 35 * S, true, false, &secs), 0.60, 1e-9);
}
END_TEST

START_TEST(reserved_whole_window)
{
	double secs;
	/* 7 days at $35.776/h = $6010.368, whatever the use */
	ck_assert_double_eq_tol(bill(OPTION_RESERVED, 35.776, 0, 168 * H, false, &secs), 6010.368, 1e-9);
	ck_assert_double_eq_tol(secs, 168 * 3600, 1e-9);
	/* a window of 90 minutes is pro-rated */
	ck_assert_double_eq_tol(bill(OPTION_RESERVED, 10.0, 0, 90 * 60 * S, false, NULL), 15.0, 1e-9);
}
END_TEST

START_TEST(unsupported_kind)
{
	double usd, us;
	ck_assert_int_eq(option_bill(OPTION_SPOT, 1.0, 0, H, true, false, &usd, &us), STATUS_EINPUT);
}
END_TEST

START_TEST(names_round_trip)
{
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		enum option_kind got = OPTION_KIND_COUNT;
		ck_assert(option_kind_parse(option_kind_name((enum option_kind)k), &got));
		ck_assert_int_eq(got, k);
	}
	enum option_kind keep = OPTION_RESERVED;
	ck_assert(!option_kind_parse("ondemand", &keep));
	ck_assert_int_eq(keep, OPTION_RESERVED);
	for (int k = 0; k < OPTION_KIND_COUNT; k++)
		ck_assert(option_kind_supported((enum option_kind)k));
}
END_TEST

static Suite *option_suite(void)
{
	Suite *s = suite_create("option");
	TCase *tc = tcase_create("billing");

	tcase_add_test(tc, on_demand_per_second);
	tcase_add_test(tc, on_demand_minimum_60s);
	tcase_add_test(tc, on_demand_cut_at_horizon);
	tcase_add_test(tc, on_demand_warm_no_minimum);
	tcase_add_test(tc, reserved_whole_window);
	tcase_add_test(tc, unsupported_kind);
	tcase_add_test(tc, names_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(option_suite());
}
