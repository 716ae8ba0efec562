/*
 * units: durations and UTC times as scenario files write them.
 *
 * A duration is a non-negative decimal number with an optional unit: "ms", "s", "m", "h", "d" or "w"; with
 * no unit it is seconds ("90", "1.5"). "90s", "15m", "36h", "7d", "250ms". The result is microseconds,
 * rounded to the nearest one. A time is ISO-8601 in UTC: "2026-12-01T00:00:00Z", optionally with a fraction of
 * a second after the seconds ("2026-12-01T00:20:00.4Z": a point and at least one digit, any number of
 * them), and "+00:00" accepted in place of "Z"; other offsets are rejected (scenarios are in UTC). The result
 * is microseconds since the epoch: a fraction is kept to the microsecond, and one with more than 6 digits is
 * rounded to the nearest microsecond, halves up (the 7th digit decides: ".0000005" is 1 us), which may carry
 * into the next second.
 * Both return STATUS_OK or STATUS_EINPUT and leave *out unchanged on failure. They do not write messages:
 * the caller knows the key and position and says what was expected.
 */
#ifndef GPUCAP_UNITS_H
#define GPUCAP_UNITS_H

#include <stdint.h>

/* Largest duration accepted, in microseconds: 10 years. */
#define UNITS_DURATION_MAX_US ((int64_t)10 * 366 * 86400 * 1000000)

/* Parse a duration string into microseconds. */
int units_parse_duration(const char *text, int64_t *out_us);

/* Parse an ISO-8601 UTC time into microseconds since the epoch (fractions kept, see above). */
int units_parse_time_us(const char *text, int64_t *out_unix_us);

/* Whole seconds since the epoch of a time in microseconds, rounded down (also before 1970). */
int64_t units_floor_s(int64_t unix_us);

/* Format unix seconds as "YYYY-MM-DDTHH:MM:SSZ" into buf (at least 21 bytes). */
void units_format_time(int64_t unix_s, char *buf, int size);

/* Days since 1970-01-01 of the proleptic Gregorian date y-m-d, m 1..12 (H. Hinnant's days_from_civil). */
int64_t units_days_from_civil(int64_t y, int m, int d);

/* The inverse: year, month (1..12) and day (1..31) of a day count since 1970-01-01 (civil_from_days). */
void units_civil_from_days(int64_t z, int64_t *y, int *m, int *d);

#endif
