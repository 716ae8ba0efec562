/*
 * units: durations and UTC times (see units.h).
 *
 * Both parsers are strict and exact. A duration is read digit by digit in integer arithmetic, so "0.1s" is
 * exactly 100000 us and a value half-way between two microseconds rounds up, with no binary floating point
 * in between. A time is converted with Howard Hinnant's days_from_civil() (proleptic Gregorian calendar,
 * http://howardhinnant.github.io/date_algorithms.html), so nothing depends on the TZ variable, the locale or
 * the C library's mktime/timegm.
 */
#include "units.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "status.h"

#define US_PER_S INT64_C(1000000)

struct unit {
	const char *suffix;  /* as written after the number */
	int64_t us;          /* microseconds in one of it */
};

/* Longest suffix first, so "ms" is not read as "m" followed by junk. */
static const struct unit units[] = {
	{ "ms", 1000 },
	{ "s", US_PER_S },
	{ "m", 60 * US_PER_S },
	{ "h", 3600 * US_PER_S },
	{ "d", 86400 * US_PER_S },
	{ "w", 7 * 86400 * US_PER_S },
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The unit named by the whole of `s` ("" is seconds), or NULL. */
static const struct unit *find_unit(const char *s)
{
	if (*s == '\0')
		return &units[1];
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(s, units[i].suffix) == 0)
			return &units[i];
	return NULL;
}

/*
 * round(0.f1f2...fn * u), for the fraction digits in [frac, frac + n). Horner's scheme from the last digit,
 * t = floor((f_i * 2u + t) / 10), gives floor(2 * F * u) exactly (the floor of a floor divided by an integer
 * is the floor of the quotient); then (t + 1) / 2 rounds half up. Terms stay below 20 * u + t < 2^63.
 */
static int64_t round_fraction(const char *frac, size_t n, int64_t u)
{
	int64_t t = 0;

	for (size_t i = n; i-- > 0;)
		t = ((int64_t)(frac[i] - '0') * 2 * u + t) / 10;
	return (t + 1) / 2;
}

int units_parse_duration(const char *text, int64_t *out_us)
{
	const char *p = text, *frac = NULL;
	size_t nint = 0, nfrac = 0;
	const struct unit *u;
	int64_t whole = 0, us;

	for (; is_digit(*p); p++, nint++) {
		if (whole > (INT64_MAX - 9) / 10)
			return STATUS_EINPUT;  /* far beyond any duration we accept */
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		frac = ++p;
		for (; is_digit(*p); p++)
			nfrac++;
	}
	if (nint + nfrac == 0)
		return STATUS_EINPUT;  /* no digits: "", "s", ".", "-1", "nan" */
	u = find_unit(p);
	if (!u)
		return STATUS_EINPUT;  /* trailing junk or an unknown unit */
	if (whole > UNITS_DURATION_MAX_US / u->us)
		return STATUS_EINPUT;
	us = whole * u->us + (frac ? round_fraction(frac, nfrac, u->us) : 0);
	if (us > UNITS_DURATION_MAX_US)
		return STATUS_EINPUT;
	*out_us = us;
	return STATUS_OK;
}

int64_t units_days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void units_civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static int days_in_month(int64_t y, int m)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

/* Read exactly n digits at *p into *out and advance; false if any of them is not a digit. */
static bool fixed_digits(const char **p, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!is_digit((*p)[i]))
			return false;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return true;
}

/* Consume the character c at *p; false if it is something else. */
static bool expect_char(const char **p, char c)
{
	if (**p != c)
		return false;
	(*p)++;
	return true;
}

/*
 * A fraction of a second after the point at *p (at least one digit) in microseconds, rounded to the
 * nearest, halves up: the first 6 digits are kept and the 7th, if any, decides (1000000 when it carries).
 * Advances *p past all the digits; -1 when there is no digit.
 */
static int64_t fraction_us(const char **p)
{
	int64_t v = 0;
	int i = 0;
	bool up = false;

	if (!is_digit(**p))
		return -1;
	for (; is_digit(**p); (*p)++, i++) {
		if (i < 6)
			v = v * 10 + (**p - '0');
		else if (i == 6)
			up = **p >= '5';
	}
	for (; i < 6; i++)
		v *= 10;
	return v + up;
}

int units_parse_time_us(const char *text, int64_t *out_unix_us)
{
	const char *p = text;
	int y, mo, d, h, mi, s;
	int64_t frac_us = 0;

	if (!fixed_digits(&p, 4, &y) || !expect_char(&p, '-') || !fixed_digits(&p, 2, &mo) ||
	    !expect_char(&p, '-') || !fixed_digits(&p, 2, &d) || !expect_char(&p, 'T') ||
	    !fixed_digits(&p, 2, &h) || !expect_char(&p, ':') || !fixed_digits(&p, 2, &mi) ||
	    !expect_char(&p, ':') || !fixed_digits(&p, 2, &s))
		return STATUS_EINPUT;
	if (*p == '.') {  /* fractional seconds: at least one digit, kept to the microsecond */
		p++;
		if ((frac_us = fraction_us(&p)) < 0)
			return STATUS_EINPUT;
	}
	if (strcmp(p, "Z") != 0 && strcmp(p, "+00:00") != 0)
		return STATUS_EINPUT;  /* another offset, no offset, or trailing junk */
	if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || s > 59)
		return STATUS_EINPUT;  /* leap seconds (":60") are not representable in unix time */
	*out_unix_us = (units_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s) * INT64_C(1000000) + frac_us;
	return STATUS_OK;
}

int64_t units_floor_s(int64_t unix_us)
{
	return unix_us >= 0 ? unix_us / 1000000 : -((-unix_us + 999999) / 1000000);
}

void units_format_time(int64_t unix_s, char *buf, int size)
{
	int64_t days = unix_s / 86400, secs = unix_s % 86400, y;
	int m, d;

	if (size <= 0)
		return;
	if (secs < 0) {  /* floor division, so times before 1970 format correctly */
		secs += 86400;
		days--;
	}
	units_civil_from_days(days, &y, &m, &d);
	snprintf(buf, (size_t)size, "%04lld-%02d-%02dT%02d:%02d:%02dZ", (long long)y, m, d,
		 (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
}
