/*
 * check_units: durations and UTC times (models/formats/units.h).
 *
 * One test per behaviour: each unit, exact decimal rounding, the upper bound, every kind of bad input, the
 * Gregorian calendar's leap years, and format/parse round trips over every day of eight centuries plus a
 * seeded sample of arbitrary seconds.
 */
#include <check.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "testutil.h"
#include "units.h"

#define US INT64_C(1000000)

/* Parse text as a duration, asserting success, and return the microseconds. */
static int64_t dur(const char *text)
{
	int64_t us = -1;

	ck_assert_msg(units_parse_duration(text, &us) == STATUS_OK, "'%s' was rejected", text);
	return us;
}

/* Assert that text is rejected as a duration and that the output is left alone. */
static void bad_dur(const char *text)
{
	int64_t us = 12345;

	ck_assert_msg(units_parse_duration(text, &us) == STATUS_EINPUT, "'%s' was accepted", text);
	ck_assert_int_eq(us, 12345);
}

/* A time in microseconds since the epoch. */
static int64_t tm_us(const char *text)
{
	int64_t t = -7;

	ck_assert_msg(units_parse_time_us(text, &t) == STATUS_OK, "'%s' was rejected", text);
	return t;
}

/* A time that is a whole second, in seconds since the epoch. */
static int64_t tm(const char *text)
{
	int64_t t = tm_us(text);

	ck_assert_msg(t % US == 0, "'%s' is not a whole second: %" PRId64 " us", text, t);
	return t / US;
}

static void bad_tm(const char *text)
{
	int64_t t = 12345;

	ck_assert_msg(units_parse_time_us(text, &t) == STATUS_EINPUT, "'%s' was accepted", text);
	ck_assert_int_eq(t, 12345);
}

START_TEST(duration_every_unit)
{
	ck_assert_int_eq(dur("250ms"), 250000);
	ck_assert_int_eq(dur("90s"), 90 * US);
	ck_assert_int_eq(dur("15m"), 15 * 60 * US);
	ck_assert_int_eq(dur("36h"), 36 * 3600 * US);
	ck_assert_int_eq(dur("7d"), 7 * 86400 * US);
	ck_assert_int_eq(dur("1w"), 7 * 86400 * US);
	ck_assert_int_eq(dur("0s"), 0);
}
END_TEST

START_TEST(duration_bare_number_is_seconds)
{
	ck_assert_int_eq(dur("90"), 90 * US);
	ck_assert_int_eq(dur("1.5"), 1500000);
	ck_assert_int_eq(dur("0"), 0);
	ck_assert_int_eq(dur("420"), 420 * US);
	ck_assert_int_eq(dur(".5"), 500000);
	ck_assert_int_eq(dur("2."), 2 * US);
}
END_TEST

START_TEST(duration_fractions_are_exact)
{
	ck_assert_int_eq(dur("0.1s"), 100000);  /* 0.1 has no exact binary form; no drift allowed */
	ck_assert_int_eq(dur("0.3"), 300000);
	ck_assert_int_eq(dur("1.5m"), 90 * US);
	ck_assert_int_eq(dur("0.1h"), 360 * US);
	ck_assert_int_eq(dur("2.5d"), 216000 * US);
	ck_assert_int_eq(dur("0.5ms"), 500);
	ck_assert_int_eq(dur("1.000001s"), 1000001);
	ck_assert_int_eq(dur("0.0000010000000000000000000001"), 1);
}
END_TEST

START_TEST(duration_rounds_half_up_to_the_microsecond)
{
	ck_assert_int_eq(dur("0.0000005"), 1);
	ck_assert_int_eq(dur("0.00000049999999999"), 0);
	ck_assert_int_eq(dur("1.0000015s"), 1000002);
	ck_assert_int_eq(dur("0.0004ms"), 0);
	ck_assert_int_eq(dur("0.0005ms"), 1);
	ck_assert_int_eq(dur("0.00000000001d"), 1);  /* 0.864 us */
	ck_assert_int_eq(dur("0.000000000001d"), 0); /* 0.0864 us */
}
END_TEST

START_TEST(duration_upper_bound)
{
	ck_assert_int_eq(dur("3660d"), UNITS_DURATION_MAX_US);  /* 10 x 366 days */
	ck_assert_int_eq(dur("522w"), 522 * 7 * 86400 * US);
	bad_dur("3660.0000001d");
	bad_dur("3661d");
	bad_dur("523w");
	bad_dur("316224000.000001");
	bad_dur("99999999999999999999999999999s");
	bad_dur("9223372036854775807ms");
}
END_TEST

START_TEST(duration_rejects_bad_text)
{
	static const char *const bad[] = { "", "s", "ms", ".", ".s", "7x", "10S", "1 s", " 1", "1s ", "1..2",
		"1.2.3", "-1", "-1s", "+1", "nan", "inf", "NaN", "1e3", "0x10", "1_000", "1,5", "5sec", "1ss",
		"1msx", "1h30m", "\t1" };

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		bad_dur(bad[i]);
}
END_TEST

START_TEST(time_known_instants)
{
	ck_assert_int_eq(tm("1970-01-01T00:00:00Z"), 0);
	ck_assert_int_eq(tm("1969-12-31T23:59:59Z"), -1);
	ck_assert_int_eq(tm("2026-01-01T00:00:00Z"), INT64_C(1767225600));
	ck_assert_int_eq(tm("2026-12-01T00:00:00Z"), INT64_C(1796083200));
	ck_assert_int_eq(tm("2000-03-01T00:00:00Z"), INT64_C(951868800));
	ck_assert_int_eq(tm("2038-01-19T03:14:08Z"), INT64_C(2147483648));
	ck_assert_int_eq(tm("0000-01-01T00:00:00Z"), INT64_C(-62167219200));
	ck_assert_int_eq(tm("9999-12-31T23:59:59Z"), INT64_C(253402300799));
}
END_TEST

START_TEST(time_offset_and_fractions)
{
	ck_assert_int_eq(tm("2026-12-01T00:00:00+00:00"), INT64_C(1796083200));
	ck_assert_int_eq(tm_us("2026-12-01T00:00:00.999999Z"), INT64_C(1796083200) * US + 999999);
	ck_assert_int_eq(tm_us("2026-12-01T00:00:01.5+00:00"), INT64_C(1796083201) * US + 500000);
}
END_TEST

/*
 * A fraction of a second is kept to the microsecond (it was dropped): 2026-01-01T00:20:00.4Z is
 * 1767225600 + 20 x 60 = 1767226800 s and 400000 us. Past 6 digits it rounds to the nearest microsecond,
 * halves up, carrying into the next second (and day, and year) when it must; before 1970 the fraction
 * still counts forward from the whole second written.
 */
START_TEST(time_fractions_to_the_microsecond)
{
	int64_t t0 = INT64_C(1767226800) * US;  /* 2026-01-01T00:20:00Z */

	ck_assert_int_eq(tm_us("2026-01-01T00:20:00.4Z"), t0 + 400000);
	ck_assert_int_eq(tm_us("2026-01-01T00:20:00.000001Z"), t0 + 1);
	ck_assert_int_eq(tm_us("2026-01-01T00:20:00.0000005Z"), t0 + 1);         /* half: up */
	ck_assert_int_eq(tm_us("2026-01-01T00:20:00.00000049999Z"), t0);         /* below half: down */
	ck_assert_int_eq(tm_us("2026-01-01T00:20:00.123456789+00:00"), t0 + 123457);
	ck_assert_int_eq(tm_us("2026-01-01T00:20:00.9999995Z"), t0 + US);         /* carries */
	ck_assert_int_eq(tm_us("2026-12-31T23:59:59.99999951Z"), tm("2027-01-01T00:00:00Z") * US);
	ck_assert_int_eq(tm_us("2026-01-01T00:20:00.000000Z"), t0);
	ck_assert_int_eq(tm_us("1969-12-31T23:59:59.25Z"), -750000);
	bad_tm("2026-01-01T00:20:00.Z");
	bad_tm("2026-01-01T00:20:00.4.5Z");
	bad_tm("2026-01-01T00:20:00,4Z");
	bad_tm("2026-01-01T00:20:00.-4Z");
	bad_tm("2026-01-01T00:20:00. 4Z");
	bad_tm("2026-01-01T00:20:00.4 Z");
	bad_tm("2026-01-01T00:20:00.4e1Z");
	bad_tm("2026-01-01T00:20:00.4");
	bad_tm("2026-01-01T00:20.4Z");
	/* whole seconds of a time in microseconds, rounded down also before 1970 */
	ck_assert_int_eq(units_floor_s(t0 + 999999), INT64_C(1767226800));
	ck_assert_int_eq(units_floor_s(0), 0);
	ck_assert_int_eq(units_floor_s(-1), -1);
	ck_assert_int_eq(units_floor_s(-US), -1);
	ck_assert_int_eq(units_floor_s(-US - 1), -2);
}
END_TEST

START_TEST(time_leap_years)
{
	ck_assert_int_eq(tm("2024-02-29T00:00:00Z") + 86400, tm("2024-03-01T00:00:00Z"));
	ck_assert_int_eq(tm("2000-02-29T00:00:00Z") + 86400, tm("2000-03-01T00:00:00Z"));
	ck_assert_int_eq(tm("2023-02-28T00:00:00Z") + 86400, tm("2023-03-01T00:00:00Z"));
	bad_tm("2023-02-29T00:00:00Z");
	bad_tm("1900-02-29T00:00:00Z");  /* divisible by 100, not by 400 */
	bad_tm("2100-02-29T00:00:00Z");
	bad_tm("2026-02-30T00:00:00Z");
	bad_tm("2026-04-31T00:00:00Z");
	bad_tm("2026-06-31T00:00:00Z");
	ck_assert_int_eq(tm("2026-12-31T00:00:00Z") + 86400, tm("2027-01-01T00:00:00Z"));
}
END_TEST

START_TEST(time_rejects_bad_text)
{
	static const char *const bad[] = { "", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z",
		"2026-12-00T00:00:00Z", "2026-12-32T00:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T23:60:00Z",
		"2026-12-01T23:59:60Z", "2026-12-01T00:00:00", "2026-12-01T00:00:00+01:00",
		"2026-12-01T00:00:00-00:00", "2026-12-01T00:00:00Zx", "2026-12-01T00:00:00Z ",
		"2026-12-01 00:00:00Z", "2026-12-01t00:00:00Z", "2026-12-01T00:00:00z", "2026-1-01T00:00:00Z",
		"26-12-01T00:00:00Z", "2026-12-01T00:00:00.Z", "2026-12-01", "2026-12-01T00:00Z",
		"+2026-12-01T00:00:00Z", "2026-12-01T00:00:00+00", "now", "1796083200" };

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		bad_tm(bad[i]);
}
END_TEST

START_TEST(time_format_known_instants)
{
	char buf[32];

	units_format_time(0, buf, sizeof buf);
	ck_assert_str_eq(buf, "1970-01-01T00:00:00Z");
	units_format_time(-1, buf, sizeof buf);
	ck_assert_str_eq(buf, "1969-12-31T23:59:59Z");
	units_format_time(INT64_C(1796083200) + 3600 + 120 + 3, buf, sizeof buf);
	ck_assert_str_eq(buf, "2026-12-01T01:02:03Z");
	units_format_time(INT64_C(951782400), buf, sizeof buf);
	ck_assert_str_eq(buf, "2000-02-29T00:00:00Z");
}
END_TEST

START_TEST(time_format_truncates_safely)
{
	char buf[8];

	memset(buf, 'x', sizeof buf);
	units_format_time(0, buf, sizeof buf);
	ck_assert_str_eq(buf, "1970-01");
	units_format_time(0, buf, 0);  /* no room at all: nothing written */
	ck_assert_str_eq(buf, "1970-01");
}
END_TEST

START_TEST(time_round_trip_every_day)
{
	char buf[32];
	int64_t first = tm("1600-01-01T00:00:00Z"), last = tm("2400-12-31T00:00:00Z");

	for (int64_t t = first; t <= last; t += 86400) {
		units_format_time(t, buf, sizeof buf);
		ck_assert_msg(tm(buf) == t, "%" PRId64 " formats as %s, which parses differently", t, buf);
	}
}
END_TEST

START_TEST(time_round_trip_random_seconds)
{
	uint64_t x = test_seed("time_round_trip_random_seconds", 20261201);
	int64_t lo = tm("0000-01-01T00:00:00Z"), span = tm("9999-12-31T23:59:59Z") - lo;
	char buf[32];

	for (int i = 0; i < 100000; i++) {
		x = x * 6364136223846793005u + 1442695040888963407u;  /* Knuth's MMIX LCG */
		int64_t t = lo + (int64_t)((x >> 11) % (uint64_t)span);

		units_format_time(t, buf, sizeof buf);
		ck_assert_msg(tm(buf) == t, "%" PRId64 " formats as %s", t, buf);
	}
}
END_TEST

#define ADD(s, fn)                                          \
	do {                                                \
		TCase *tc_ = tcase_create(#fn);             \
		tcase_add_test(tc_, fn);                    \
		suite_add_tcase(s, tc_);                    \
	} while (0)

static Suite *units_suite(void)
{
	Suite *s = suite_create("units");

	ADD(s, duration_every_unit);
	ADD(s, duration_bare_number_is_seconds);
	ADD(s, duration_fractions_are_exact);
	ADD(s, duration_rounds_half_up_to_the_microsecond);
	ADD(s, duration_upper_bound);
	ADD(s, duration_rejects_bad_text);
	ADD(s, time_known_instants);
	ADD(s, time_offset_and_fractions);
	ADD(s, time_fractions_to_the_microsecond);
	ADD(s, time_leap_years);
	ADD(s, time_rejects_bad_text);
	ADD(s, time_format_known_instants);
	ADD(s, time_format_truncates_safely);
	ADD(s, time_round_trip_every_day);
	ADD(s, time_round_trip_random_seconds);
	return s;
}

int main(void)
{
	return test_run_suite(units_suite());
}
