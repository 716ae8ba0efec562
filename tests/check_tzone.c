/*
 * check_tzone: the TZif reader (models/formats/tzone.c) on the system's tz database (Debian's tzdata) and on
 * broken files in tests/data/tz (through TZDIR), and cron on a zone's wall clock (cron_next_in). The
 * expected instants were worked out from the US rule (daylight saving from 02:00 on the second Sunday of
 * March to 02:00 on the first Sunday of November) and checked with Python's zoneinfo; 2026-03-08 and
 * 2026-11-01 are Sundays.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cron.h"
#include "status.h"
#include "testutil.h"
#include "tzone.h"

#define JAN1_2026 INT64_C(1767225600)    /* 2026-01-01T00:00:00Z */
#define JAN1_2027 INT64_C(1798761600)    /* 2027-01-01T00:00:00Z */
#define SPRING_2026 INT64_C(1772953200)  /* 2026-03-08T07:00:00Z: 02:00 EST, the clock jumps to 03:00 EDT */
#define FALL_2026 INT64_C(1793512800)    /* 2026-11-01T06:00:00Z: 02:00 EDT, the clock goes back to 01:00 */
#define FRI_MAR6 INT64_C(1772755200)     /* 2026-03-06T00:00:00Z, a Friday */
#define FRI_OCT30 INT64_C(1793318400)    /* 2026-10-30T00:00:00Z, a Friday */
#define HOUR 3600
#define DAY 86400
#define EST (-5 * HOUR)
#define EDT (-4 * HOUR)

static char err[256];

static void load(struct tzone *tz, const char *name, int64_t from, int64_t to)
{
	ck_assert_msg(tzone_load(tz, name, from, to, err, sizeof err) == STATUS_OK, "%s: %s", name, err);
}

static void refused(const char *name, const char *substring)
{
	struct tzone tz;

	tzone_utc(&tz);
	err[0] = '\0';
	ck_assert_int_eq(tzone_load(&tz, name, JAN1_2026, JAN1_2027, err, sizeof err), STATUS_EINPUT);
	ck_assert_msg(strstr(err, substring) != NULL, "%s: '%s' lacks '%s'", name, err, substring);
	ck_assert_str_eq(tz.name, "UTC");  /* unchanged */
}

START_TEST(new_york_offsets_around_the_changes)
{
	struct tzone tz;

	load(&tz, "America/New_York", JAN1_2026, JAN1_2027);
	ck_assert_int_eq(tz.nchanges, 2);
	ck_assert_int_eq(tz.off0_s, EST);
	ck_assert(!tz.dst0);
	ck_assert_int_eq(tz.at_s[0], SPRING_2026);
	ck_assert(tz.dst[0]);
	ck_assert_int_eq(tz.at_s[1], FALL_2026);
	ck_assert_int_eq(tzone_offset(&tz, SPRING_2026 - 1), EST);
	ck_assert_int_eq(tzone_offset(&tz, SPRING_2026), EDT);
	ck_assert_int_eq(tzone_offset(&tz, FALL_2026 - 1), EDT);
	ck_assert_int_eq(tzone_offset(&tz, FALL_2026), EST);
	ck_assert_int_eq(tzone_offset(&tz, JAN1_2026 - 30 * DAY), EST);  /* before the table: off0 */
	ck_assert(!tzone_is_utc(&tz));
	tzone_describe(&tz, err, sizeof err);
	ck_assert_str_eq(err, "America/New_York (UTC-05:00, -04:00 daylight saving)");
}
END_TEST

/* Past 2037 the file has no transitions: the footer's rule "EST5EDT,M3.2.0,M11.1.0" gives them. In 2040 the
 * second Sunday of March is the 11th and the first of November the 4th: 07:00 and 06:00 UTC. */
START_TEST(footer_rule_after_the_last_transition)
{
	struct tzone tz;

	load(&tz, "America/New_York", INT64_C(2208988800), INT64_C(2240611200));  /* 2040 */
	ck_assert_int_eq(tz.off0_s, EST);
	ck_assert_int_eq(tz.nchanges, 2);
	ck_assert_int_eq(tz.at_s[0], INT64_C(2215062000));  /* 2040-03-11T07:00:00Z */
	ck_assert_int_eq(tz.off_s[0], EDT);
	ck_assert_int_eq(tz.at_s[1], INT64_C(2235621600));  /* 2040-11-04T06:00:00Z */
	ck_assert_int_eq(tz.off_s[1], EST);
	/* southern hemisphere, "AEST-10AEDT,M10.1.0,M4.1.0/3": daylight saving (+11) at the year's start ends
	 * on Sunday 2040-04-01 at 03:00 local (16:00 UTC the day before) and starts on Sunday 2040-10-07 at
	 * 02:00 local (16:00 UTC on the 6th) */
	load(&tz, "Australia/Sydney", INT64_C(2208988800), INT64_C(2240611200));
	ck_assert_int_eq(tz.off0_s, 11 * HOUR);
	ck_assert(tz.dst0);
	ck_assert_int_eq(tz.nchanges, 2);
	ck_assert_int_eq(tz.at_s[0], INT64_C(2216822400));
	ck_assert_int_eq(tz.off_s[0], 10 * HOUR);
	ck_assert_int_eq(tz.at_s[1], INT64_C(2233152000));
	ck_assert_int_eq(tz.off_s[1], 11 * HOUR);
}
END_TEST

/* A run that spans the file's last transition (2037-11-01) continues with the rule: 2038-03-14 07:00 UTC. */
START_TEST(transitions_then_the_rule)
{
	struct tzone tz;

	load(&tz, "America/New_York", INT64_C(2114380800), INT64_C(2145916800));  /* 2037-01-01 .. 2038-01-01 */
	ck_assert_int_eq(tz.nchanges, 2);
	load(&tz, "America/New_York", INT64_C(2114380800), INT64_C(2177452800));  /* .. 2039-01-01 */
	ck_assert_int_eq(tz.nchanges, 4);
	ck_assert_int_eq(tz.at_s[2], INT64_C(2152162800));  /* 2038-03-14T07:00:00Z */
	for (int i = 1; i < tz.nchanges; i++)
		ck_assert(tz.at_s[i] > tz.at_s[i - 1]);
}
END_TEST

START_TEST(zone_without_daylight_saving_and_utc)
{
	struct tzone tz;

	load(&tz, "Asia/Kolkata", JAN1_2026, JAN1_2027);
	ck_assert_int_eq(tz.nchanges, 0);
	ck_assert_int_eq(tz.off0_s, 5 * HOUR + 30 * 60);
	tzone_describe(&tz, err, sizeof err);
	ck_assert_str_eq(err, "Asia/Kolkata (UTC+05:30)");
	load(&tz, "UTC", JAN1_2026, JAN1_2027);  /* built in */
	ck_assert(tzone_is_utc(&tz));
	tzone_describe(&tz, err, sizeof err);
	ck_assert_str_eq(err, "UTC");
	load(&tz, "Etc/UTC", JAN1_2026, JAN1_2027);  /* from the file */
	ck_assert(tzone_is_utc(&tz));
	ck_assert_str_eq(tz.name, "Etc/UTC");
}
END_TEST

START_TEST(unknown_and_unsafe_names_are_refused)
{
	refused("Mars/Olympus_Mons", "no time zone \"Mars/Olympus_Mons\" in ");
	refused("America", "a folder of zones");
	refused("../../etc/passwd", "not a time zone name");
	refused("/etc/localtime", "not a time zone name");
	refused("New York", "not a time zone name");
	refused("", "not a time zone name");
}
END_TEST

START_TEST(corrupted_files_are_refused)
{
	ck_assert_int_eq(setenv("TZDIR", TEST_DATA_DIR "/tz", 1), 0);
	refused("Bad/Truncated", "not a valid TZif file");
	refused("Bad/NotTzif", "not a valid TZif file");
	refused("Bad/Version1", "version 1");
	refused("Bad/RuleJ", "only Mm.w.d dates are supported");
	refused("America/New_York", "no time zone");  /* TZDIR is honoured: no such file there */
	unsetenv("TZDIR");
}
END_TEST

START_TEST(wall_times_skipped_and_repeated)
{
	struct tzone tz;
	int64_t at = 0, t0 = JAN1_2026;

	load(&tz, "America/New_York", JAN1_2026, JAN1_2027);
	/* 02:30 on 2026-03-08 does not exist: the jump itself */
	ck_assert_int_eq(tzone_from_wall(&tz, INT64_C(1772937000), t0, &at), STATUS_OK);
	ck_assert_int_eq(at, SPRING_2026);
	/* 03:00 that day is the same instant, 01:59 is 06:59 UTC */
	ck_assert_int_eq(tzone_from_wall(&tz, INT64_C(1772937000) + 1800, t0, &at), STATUS_OK);
	ck_assert_int_eq(at, SPRING_2026);
	ck_assert_int_eq(tzone_from_wall(&tz, INT64_C(1772937000) - 1860, t0, &at), STATUS_OK);
	ck_assert_int_eq(at, SPRING_2026 - 60);
	/* after the jump, 02:30 is not read again */
	ck_assert_int_eq(tzone_from_wall(&tz, INT64_C(1772937000), SPRING_2026, &at), STATUS_DONE);
	/* 01:30 on 2026-11-01 happens twice: 05:30 UTC (EDT) and 06:30 UTC (EST) */
	ck_assert_int_eq(tzone_from_wall(&tz, INT64_C(1793496600), t0, &at), STATUS_OK);
	ck_assert_int_eq(at, FALL_2026 - 1800);
	ck_assert_int_eq(tzone_from_wall(&tz, INT64_C(1793496600), at, &at), STATUS_OK);
	ck_assert_int_eq(at, FALL_2026 + 1800);
	ck_assert_int_eq(tzone_from_wall(&tz, INT64_C(1793496600), at, &at), STATUS_DONE);
}
END_TEST

/* The next firing of expr in New York strictly after t. */
static int64_t next_ny(const struct tzone *tz, const char *expr, int64_t t)
{
	struct cron c;
	int64_t out = -1;

	ck_assert_msg(cron_parse(&c, expr, err, sizeof err) == STATUS_OK, "%s: %s", expr, err);
	ck_assert_int_eq(cron_next_in(&c, tz, t, &out), STATUS_OK);
	return out;
}

/* "0 9 * * 1-5" at 09:00 New York time: 14:00 UTC in winter (EST), 13:00 UTC in summer (EDT). */
START_TEST(weekday_cron_follows_daylight_saving)
{
	struct tzone tz;
	int64_t t;

	load(&tz, "America/New_York", JAN1_2026, JAN1_2027);
	t = next_ny(&tz, "0 9 * * 1-5", FRI_MAR6);
	ck_assert_int_eq(t, FRI_MAR6 + 14 * HOUR);                     /* Friday 03-06, EST */
	t = next_ny(&tz, "0 9 * * 1-5", t);
	ck_assert_int_eq(t, FRI_MAR6 + 3 * DAY + 13 * HOUR);           /* Monday 03-09, EDT */
	t = next_ny(&tz, "0 9 * * 1-5", FRI_OCT30);
	ck_assert_int_eq(t, FRI_OCT30 + 13 * HOUR);                    /* Friday 10-30, EDT */
	t = next_ny(&tz, "0 9 * * 1-5", t);
	ck_assert_int_eq(t, FRI_OCT30 + 3 * DAY + 14 * HOUR);          /* Monday 11-02, EST */
	/* on the change days themselves (Sundays), a daily schedule */
	ck_assert_int_eq(next_ny(&tz, "0 9 * * *", SPRING_2026 - 7 * HOUR - DAY), SPRING_2026 - DAY + 7 * HOUR);
	ck_assert_int_eq(next_ny(&tz, "0 9 * * *", SPRING_2026 - 7 * HOUR), SPRING_2026 + 6 * HOUR);
	ck_assert_int_eq(next_ny(&tz, "0 9 * * *", FALL_2026 - 6 * HOUR), FALL_2026 + 8 * HOUR);
	/* UTC (and NULL) is cron_next */
	tzone_utc(&tz);
	ck_assert_int_eq(next_ny(&tz, "0 9 * * 1-5", FRI_MAR6), FRI_MAR6 + 9 * HOUR);
	ck_assert_int_eq(next_ny(NULL, "0 9 * * 1-5", FRI_MAR6), FRI_MAR6 + 9 * HOUR);
}
END_TEST

/* cron(8)'s rule for fixed times: a skipped 02:30 fires at the jump, a repeated 01:30 fires once (the first). */
START_TEST(cron_at_skipped_and_repeated_times)
{
	struct tzone tz;
	int64_t t;

	load(&tz, "America/New_York", JAN1_2026, JAN1_2027);
	t = next_ny(&tz, "30 2 * * *", SPRING_2026 - 12 * HOUR);
	ck_assert_int_eq(t, SPRING_2026);
	t = next_ny(&tz, "30 2 * * *", t);
	ck_assert_int_eq(t, SPRING_2026 + DAY - 30 * 60);   /* 03-09 02:30 EDT = 06:30 UTC */
	t = next_ny(&tz, "30 1 * * *", FALL_2026 - 12 * HOUR);
	ck_assert_int_eq(t, FALL_2026 - 30 * 60);           /* 05:30 UTC, the first 01:30 */
	t = next_ny(&tz, "30 1 * * *", t);
	ck_assert_int_eq(t, FALL_2026 + DAY + 30 * 60);     /* not 06:30 UTC: 11-02 01:30 EST */
	/* from inside the repeated hour's second reading, its 01:45 is still ahead */
	ck_assert_int_eq(next_ny(&tz, "45 1 * * *", FALL_2026 + 600), FALL_2026 + 45 * 60);
}
END_TEST

static Suite *tzone_suite(void)
{
	Suite *s = suite_create("tzone");
	TCase *tc = tcase_create("tzone");

	tcase_add_test(tc, new_york_offsets_around_the_changes);
	tcase_add_test(tc, footer_rule_after_the_last_transition);
	tcase_add_test(tc, transitions_then_the_rule);
	tcase_add_test(tc, zone_without_daylight_saving_and_utc);
	tcase_add_test(tc, unknown_and_unsafe_names_are_refused);
	tcase_add_test(tc, corrupted_files_are_refused);
	tcase_add_test(tc, wall_times_skipped_and_repeated);
	tcase_add_test(tc, weekday_cron_follows_daylight_saving);
	tcase_add_test(tc, cron_at_skipped_and_repeated_times);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(tzone_suite());
}
