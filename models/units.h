/*
 * units: durations and UTC times as scenario files write them.
 *
 * A duration is a non-negative decimal number with an optional unit: "ms", "s", "m", "h", "d" or "w"; with
 * no unit it is seconds ("90", "1.5"). "90s", "15m", "36h", "7d", "250ms". The result is microseconds,
 * rounded to the nearest one. A time is ISO-8601 in UTC: "2026-12-01T00:00:00Z", optionally with fractional
 * seconds, and "+00:00" accepted in place of "Z"; other offsets are rejected (scenarios are in UTC).
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

/* Parse an ISO-8601 UTC time into seconds since the epoch (fractions are dropped). */
int units_parse_time(const char *text, int64_t *out_unix_s);

/* Format unix seconds as "YYYY-MM-DDTHH:MM:SSZ" into buf (at least 21 bytes). */
void units_format_time(int64_t unix_s, char *buf, int size);

#endif
