/*
 * cron: five-field cron expressions ("MIN HOUR DOM MON DOW") in UTC, or on the wall clock of a time zone
 * (cron_next_in), for scheduled scaling actions (SOURCES.md [scheduled-cron-utc]: recurring schedules in
 * UTC by default or in an IANA time zone, finest resolution one minute).
 *
 * Each field is a comma-separated list of `*`, `N`, `A-B`, each optionally followed by `/STEP` (`*`/n,
 * `A-B/n`, and `N/n`, which means N to the field's end). Ranges: minute 0-59, hour 0-23, day of month
 * 1-31, month 1-12, day of week 0-7 (0 and 7 are Sunday). No names (JAN, MON) and no `@hourly` forms.
 * Days follow Vixie cron: when both the day of month and the day of week are restricted (neither field
 * begins with `*`), a day matches if either does; otherwise both must match (`*` matches every day).
 *
 * A struct cron is plain data (bit sets); no allocation, no state. Errors are STATUS_EINPUT with a
 * one-line message written into the caller's buffer.
 */
#ifndef GPUCAP_CRON_H
#define GPUCAP_CRON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tzone.h"

struct cron {
	uint64_t minutes;    /* bit m set: fires at minute m (0..59) */
	uint32_t hours;      /* bit h: hour h (0..23) */
	uint32_t days;       /* bit d: day of month d (1..31) */
	uint16_t months;     /* bit m: month m (1..12) */
	uint8_t weekdays;    /* bit w: day of week w (0 = Sunday .. 6) */
	bool days_any;       /* the day-of-month field begins with `*` (unrestricted) */
	bool weekdays_any;   /* the day-of-week field begins with `*` */
};

/*
 * Parse text (borrowed) into *c. Returns STATUS_OK, or STATUS_EINPUT with a message such as "field 2
 * (hour): 24 is out of range 0-23" in err (err_size bytes, always NUL-terminated); *c is unchanged
 * on failure.
 */
int cron_parse(struct cron *c, const char *text, char *err, size_t err_size);

/*
 * The first firing strictly after after_unix_s (seconds since the epoch, UTC) into *next_unix_s: a whole
 * minute. Returns STATUS_OK, or STATUS_DONE when c never fires within 28 years (such as "0 0 30 2 *").
 */
int cron_next(const struct cron *c, int64_t after_unix_s, int64_t *next_unix_s);

/*
 * The same on the wall clock of the zone tz (borrowed; NULL or UTC: cron_next): the fields are matched
 * against local time, so "0 9 * * 1-5" in America/New_York fires at 14:00 UTC in winter and 13:00 UTC in
 * summer (SOURCES.md [scheduled-cron-tz]). At the changes of daylight saving, as cron(8) does for jobs at
 * a fixed time: a wall minute the clock skips (02:30 when it jumps from 02:00 to 03:00) fires at the jump
 * itself, and one it reads twice (01:30 when it goes back from 02:00 to 01:00) fires once, the first time;
 * a schedule of every minute or hour thus also skips the repeated hour's second reading (cron(8) runs
 * those again). tz must cover after_unix_s and the result (tzone_load's window), else the offsets at its
 * ends are used.
 */
int cron_next_in(const struct cron *c, const struct tzone *tz, int64_t after_unix_s, int64_t *next_unix_s);

#endif
