/*
 * tzone: a named time zone of the IANA tz database, as the UTC offsets in effect over one run.
 *
 * tzone_load() reads the compiled zone file (TZif, RFC 8536) of a name such as "America/New_York" from the
 * directory $TZDIR, else /usr/share/zoneinfo (Debian's package `tzdata`), and keeps only what a run needs:
 * the offset in effect at `from` and every change of offset (or of daylight saving) up to `to`. A run then
 * looks offsets up in that table and never touches a file, and two runs in one process keep their own tables
 * (the C library's TZ, tzset and localtime_r are process-wide). "UTC" is built in and reads no file.
 *
 * The reader takes the version 2+ section (64-bit times): its transitions, its local time types (UTC
 * offset and daylight-saving flag), and for times after the last transition the footer's POSIX TZ rule
 * ("EST5EDT,M3.2.0,M11.1.0": standard and daylight offsets and the days they start, in the Mm.w.d form
 * the database uses; a rule in the Jn or n forms is refused with a message). A version 1 file, or one with
 * leap seconds (the "right/" zones), is refused. Every offset in the table must be a whole number of
 * minutes, and so must every change (true of every zone since 1972): the diurnal profile and cron work in
 * whole minutes of local time.
 *
 * A wall time is a count of seconds since 1970-01-01 00:00 on the local clock (UTC seconds plus the offset).
 * Errors are STATUS_EINPUT with a one-line message in the caller's buffer; a failed load leaves *tz as it
 * was. A struct tzone is plain data and may be copied.
 */
#ifndef GPUCAP_TZONE_H
#define GPUCAP_TZONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TZONE_NAME_MAX 64      /* bytes in a zone's name, including the NUL */
#define TZONE_CHANGES_MAX 256  /* offset changes over one run (two a year: 128 years of daylight saving) */

struct tzone {
	char name[TZONE_NAME_MAX];         /* "UTC" or the IANA name it was loaded from */
	int32_t off0_s;                    /* UTC offset in effect before at_s[0], seconds (east positive) */
	bool dst0;                         /* and whether that is daylight saving time */
	int nchanges;                      /* entries used in the arrays below */
	int64_t at_s[TZONE_CHANGES_MAX];   /* when the offset changes, unix seconds, strictly increasing */
	int32_t off_s[TZONE_CHANGES_MAX];  /* the offset from at_s[i] on, seconds */
	bool dst[TZONE_CHANGES_MAX];       /* whether that is daylight saving time */
};

/* Make *tz the built-in UTC (offset 0, no changes). */
void tzone_utc(struct tzone *tz);

/*
 * Load the zone `name` (borrowed) for the unix seconds [from_s, to_s]. A name made of letters, digits and
 * "/_-+", without "..", not starting with "/". Returns STATUS_OK, or STATUS_EINPUT with a message ("no such
 * time zone in /usr/share/zoneinfo", "not a TZif file", ...) in err (err_size bytes, NUL-terminated).
 */
int tzone_load(struct tzone *tz, const char *name, int64_t from_s, int64_t to_s, char *err, size_t err_size);

/* The same from the bytes of a TZif file (borrowed), for tests and fuzzing; name is only recorded. */
int tzone_parse(struct tzone *tz, const char *name, const unsigned char *buf, size_t len, int64_t from_s,
		int64_t to_s, char *err, size_t err_size);

/* True when the zone is UTC for the whole table (offset 0, no changes), such as "UTC" and "Etc/UTC". */
bool tzone_is_utc(const struct tzone *tz);

/* The index of the table's segment holding unix_s: -1 before at_s[0], else the last i with at_s[i] <=
 * unix_s. O(log n). */
int tzone_segment(const struct tzone *tz, int64_t unix_s);

/* The UTC offset (seconds) of segment i (-1: off0_s). */
int32_t tzone_segment_offset(const struct tzone *tz, int i);

/* The UTC offset in seconds in effect at unix_s. */
int32_t tzone_offset(const struct tzone *tz, int64_t unix_s);

/*
 * The first instant after after_s (unix seconds) at which the local clock reads wall_s, into *out: when the
 * clock goes back, a wall time is read twice, and a later after_s finds the second reading. A wall time the
 * clock skips when it goes forward gives the instant of the jump (the first whose wall time is past wall_s),
 * as cron(8) runs jobs of the skipped hour at the change. Returns STATUS_OK, or STATUS_DONE when no reading
 * or jump of wall_s comes after after_s.
 */
int tzone_from_wall(const struct tzone *tz, int64_t wall_s, int64_t after_s, int64_t *out);

/* A line for summaries: "UTC", or "America/New_York (UTC-05:00, -04:00 daylight saving)" (the distinct
 * offsets of the table, standard first), into buf (size bytes). */
void tzone_describe(const struct tzone *tz, char *buf, size_t size);

#endif
