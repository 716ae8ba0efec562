/*
 * check_cron: the five-field cron parser and its next firing, computed by hand against the calendar
 * (2026-01-01 is a Thursday; times are UTC seconds since the epoch).
 */
#include <check.h>
#include <string.h>

#include "cron.h"
#include "status.h"
#include "testutil.h"

#define JAN1 INT64_C(1767225600)  /* 2026-01-01T00:00:00Z, a Thursday */
#define MIN 60
#define HOUR 3600
#define DAY 86400

static char err[128];

/* The next firing of expr strictly after t; fails the test when it does not parse or never fires. */
static int64_t next(const char *expr, int64_t t)
{
	struct cron c;
	int64_t out = -1;

	ck_assert_msg(cron_parse(&c, expr, err, sizeof err) == STATUS_OK, "%s: %s", expr, err);
	ck_assert_int_eq(cron_next(&c, t, &out), STATUS_OK);
	return out;
}

static void refused(const char *expr, const char *substring)
{
	struct cron c;

	err[0] = '\0';
	ck_assert_int_eq(cron_parse(&c, expr, err, sizeof err), STATUS_EINPUT);
	ck_assert_msg(strstr(err, substring) != NULL, "%s: '%s' lacks '%s'", expr, err, substring);
}

START_TEST(every_minute_is_strictly_after)
{
	ck_assert_int_eq(next("* * * * *", JAN1 + 30), JAN1 + MIN);
	ck_assert_int_eq(next("* * * * *", JAN1), JAN1 + MIN);          /* strictly after */
	ck_assert_int_eq(next("* * * * *", JAN1 - 1), JAN1);
}
END_TEST

START_TEST(steps_and_single_start_with_step)
{
	ck_assert_int_eq(next("*/15 * * * *", JAN1 + 15 * MIN), JAN1 + 30 * MIN);
	ck_assert_int_eq(next("*/15 * * * *", JAN1 + 50 * MIN), JAN1 + HOUR);
	ck_assert_int_eq(next("5/20 * * * *", JAN1 + 30 * MIN), JAN1 + 45 * MIN);  /* 5, 25, 45 */
	ck_assert_int_eq(next("10-30/10 * * * *", JAN1 + 31 * MIN), JAN1 + HOUR + 10 * MIN);
}
END_TEST

START_TEST(lists_of_minutes_and_hours)
{
	ck_assert_int_eq(next("0,30 9,17 * * *", JAN1 + 9 * HOUR), JAN1 + 9 * HOUR + 30 * MIN);
	ck_assert_int_eq(next("0,30 9,17 * * *", JAN1 + 9 * HOUR + 30 * MIN), JAN1 + 17 * HOUR);
	ck_assert_int_eq(next("0,30 9,17 * * *", JAN1 + 17 * HOUR + 30 * MIN), JAN1 + DAY + 9 * HOUR);
}
END_TEST

START_TEST(weekdays_range_skips_the_weekend)
{
	/* Thu 09:00 -> Fri 08:00; Fri 09:00 -> Mon 08:00 */
	ck_assert_int_eq(next("0 8 * * 1-5", JAN1 + 9 * HOUR), JAN1 + DAY + 8 * HOUR);
	ck_assert_int_eq(next("0 8 * * 1-5", JAN1 + DAY + 9 * HOUR), JAN1 + 4 * DAY + 8 * HOUR);
}
END_TEST

START_TEST(sunday_is_0_and_7)
{
	ck_assert_int_eq(next("0 0 * * 0", JAN1), JAN1 + 3 * DAY);  /* Sun 2026-01-04 */
	ck_assert_int_eq(next("0 0 * * 7", JAN1), JAN1 + 3 * DAY);
}
END_TEST

START_TEST(day_of_month_with_any_weekday)
{
	ck_assert_int_eq(next("0 0 13 * *", JAN1), JAN1 + 12 * DAY);  /* Tue 2026-01-13 only */
	ck_assert_int_eq(next("0 0 13 * *", JAN1 + 12 * DAY), INT64_C(1770940800));  /* 2026-02-13 */
}
END_TEST

START_TEST(both_days_restricted_either_matches)
{
	/* Vixie cron: the 13th or a Friday. Fri 01-02, Fri 01-09, Tue 01-13, Fri 01-16. */
	ck_assert_int_eq(next("0 0 13 * 5", JAN1), JAN1 + DAY);
	ck_assert_int_eq(next("0 0 13 * 5", JAN1 + DAY), JAN1 + 8 * DAY);
	ck_assert_int_eq(next("0 0 13 * 5", JAN1 + 8 * DAY), JAN1 + 12 * DAY);
	ck_assert_int_eq(next("0 0 13 * 5", JAN1 + 12 * DAY), JAN1 + 15 * DAY);
}
END_TEST

START_TEST(months_years_and_leap_days)
{
	ck_assert_int_eq(next("0 0 1 3 *", JAN1), INT64_C(1772323200));          /* 2026-03-01 */
	ck_assert_int_eq(next("0 0 1 1 *", INT64_C(1780272000)), INT64_C(1798761600));  /* 2026-06-01 -> 2027 */
	ck_assert_int_eq(next("0 0 29 2 *", JAN1), INT64_C(1835395200));         /* 2028-02-29 */
}
END_TEST

START_TEST(impossible_day_never_fires)
{
	struct cron c;
	int64_t out = 7;

	ck_assert_int_eq(cron_parse(&c, "0 0 30 2 *", err, sizeof err), STATUS_OK);
	ck_assert_int_eq(cron_next(&c, JAN1, &out), STATUS_DONE);
	ck_assert_int_eq(out, 7);
}
END_TEST

START_TEST(malformed_expressions_are_refused)
{
	refused("60 * * * *", "field 1 (minute): 60 is out of range 0-59");
	refused("0 24 * * *", "field 2 (hour)");
	refused("0 0 0 * *", "field 3 (day of month)");
	refused("0 0 * 13 *", "field 4 (month)");
	refused("0 0 * * 8", "field 5 (day of week)");
	refused("5-3 * * * *", "field 1 (minute): 5-3 is out of range 0-59");
	refused("*/0 * * * *", "field 1 (minute): expected");
	refused("a * * * *", "field 1 (minute): expected");
	refused("1,,2 * * * *", "field 1 (minute): expected");
	refused("* * * *", "4 fields; expected 5");
	refused("* * * * * *", "more than 5 fields");
	refused("", "0 fields");
}
END_TEST

static Suite *cron_suite(void)
{
	Suite *s = suite_create("cron");
	TCase *tc = tcase_create("cron");

	tcase_add_test(tc, every_minute_is_strictly_after);
	tcase_add_test(tc, steps_and_single_start_with_step);
	tcase_add_test(tc, lists_of_minutes_and_hours);
	tcase_add_test(tc, weekdays_range_skips_the_weekend);
	tcase_add_test(tc, sunday_is_0_and_7);
	tcase_add_test(tc, day_of_month_with_any_weekday);
	tcase_add_test(tc, both_days_restricted_either_matches);
	tcase_add_test(tc, months_years_and_leap_days);
	tcase_add_test(tc, impossible_day_never_fires);
	tcase_add_test(tc, malformed_expressions_are_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(cron_suite());
}
