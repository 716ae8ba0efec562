/* cron: see cron.h. */
#include "cron.h"

#include <stdio.h>
#include <stdlib.h>

#include "status.h"
#include "units.h"

#define SEARCH_DAYS (28 * 366)  /* the calendar (leap years, weekdays) repeats every 28 years until 2100 */
#define LOCAL_TRIES 4          /* wall minutes tried by cron_next_in: a second is needed only in a repeated hour */

struct field {
	const char *name;  /* for messages */
	int lo, hi;        /* allowed values */
};

static const struct field fields[5] = {
	{ "minute", 0, 59 }, { "hour", 0, 23 }, { "day of month", 1, 31 }, { "month", 1, 12 },
	{ "day of week", 0, 7 }
};

/* A decimal number at *s, advancing *s; false when there is none or it is absurdly long. */
static bool number(const char **s, int *out)
{
	int n = 0, digits = 0;

	while (**s >= '0' && **s <= '9' && digits < 6) {
		n = n * 10 + (**s - '0');
		(*s)++;
		digits++;
	}
	*out = n;
	return digits > 0 && !(**s >= '0' && **s <= '9');
}

/* One field (text up to the next space or the end) into the bit set *bits; *star when it begins with `*`. */
static int parse_field(const struct field *f, int index, const char **s, uint64_t *bits, bool *star,
		       char *err, size_t err_size)
{
	*bits = 0;
	*star = **s == '*';
	for (;;) {
		int a, b, step = 1;
		bool single = false;  /* a lone N, which `/n` extends to the field's end */
		if (**s == '*') {
			a = f->lo;
			b = f->hi;
			(*s)++;
		} else if (number(s, &a)) {
			b = a;
			single = **s != '-';
			if (**s == '-') {
				(*s)++;
				if (!number(s, &b))
					goto bad;
			}
		} else {
			goto bad;
		}
		if (**s == '/') {
			(*s)++;
			if (!number(s, &step) || step < 1)
				goto bad;
			if (single)
				b = f->hi; /* N/n: from N to the field's end */
		}
		if (a < f->lo || b > f->hi || a > b) {
			if (a == b)
				snprintf(err, err_size, "field %d (%s): %d is out of range %d-%d", index + 1, f->name,
					 a, f->lo, f->hi);
			else
				snprintf(err, err_size, "field %d (%s): %d-%d is out of range %d-%d", index + 1,
					 f->name, a, b, f->lo, f->hi);
			return STATUS_EINPUT;
		}
		for (int v = a; v <= b; v += step)
			*bits |= UINT64_C(1) << v;
		if (**s != ',')
			break;
		(*s)++;
	}
	if (**s == '\0' || **s == ' ' || **s == '\t')
		return STATUS_OK;
bad:
	snprintf(err, err_size, "field %d (%s): expected *, N, A-B, a list of those, or */STEP", index + 1,
		 f->name);
	return STATUS_EINPUT;
}

int cron_parse(struct cron *c, const char *text, char *err, size_t err_size)
{
	uint64_t bits[5];
	bool star[5];
	const char *s = text;
	int rc;

	for (int i = 0; i < 5; i++) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0') {
			snprintf(err, err_size, "%d fields; expected 5: MIN HOUR DOM MON DOW", i);
			return STATUS_EINPUT;
		}
		if ((rc = parse_field(&fields[i], i, &s, &bits[i], &star[i], err, err_size)))
			return rc;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '\0') {
		snprintf(err, err_size, "more than 5 fields; expected MIN HOUR DOM MON DOW");
		return STATUS_EINPUT;
	}
	if (bits[4] & (UINT64_C(1) << 7))
		bits[4] = (bits[4] | 1) & 0x7f; /* 7 is Sunday, as 0 */
	c->minutes = bits[0];
	c->hours = (uint32_t)bits[1];
	c->days = (uint32_t)bits[2];
	c->months = (uint16_t)bits[3];
	c->weekdays = (uint8_t)bits[4];
	c->days_any = star[2];
	c->weekdays_any = star[4];
	return STATUS_OK;
}

static bool day_matches(const struct cron *c, int64_t day)
{
	int64_t y;
	int m, d;
	int wd = (int)(((day % 7) + 7 + 4) % 7); /* 1970-01-01 was a Thursday */
	bool dom, dow;

	units_civil_from_days(day, &y, &m, &d);
	if (!(c->months >> m & 1))
		return false;
	dom = c->days >> d & 1;
	dow = c->weekdays >> wd & 1;
	if (!c->days_any && !c->weekdays_any)
		return dom || dow; /* Vixie cron: either restricted field matches */
	return dom && dow;
}

int cron_next(const struct cron *c, int64_t after_unix_s, int64_t *next_unix_s)
{
	/* the first whole minute strictly after `after` */
	int64_t t = after_unix_s >= 0 ? after_unix_s / 60 * 60 + 60 : (after_unix_s - 59) / 60 * 60 + 60;
	int64_t day = t >= 0 ? t / 86400 : (t - 86399) / 86400;
	int from = (int)((t - day * 86400) / 60); /* minute of the day to start from */

	for (int i = 0; i < SEARCH_DAYS; i++, day++, from = 0) {
		if (!day_matches(c, day))
			continue;
		for (int h = from / 60; h < 24; h++) {
			if (!(c->hours >> h & 1))
				continue;
			for (int m = h == from / 60 ? from % 60 : 0; m < 60; m++)
				if (c->minutes >> m & 1) {
					*next_unix_s = day * 86400 + h * 3600 + m * 60;
					return STATUS_OK;
				}
		}
	}
	return STATUS_DONE;
}

int cron_next_in(const struct cron *c, const struct tzone *tz, int64_t after_unix_s, int64_t *next_unix_s)
{
	int64_t wall;
	int rc;

	if (!tz || tzone_is_utc(tz))
		return cron_next(c, after_unix_s, next_unix_s);
	wall = after_unix_s + tzone_offset(tz, after_unix_s);
	for (int i = 0; i < LOCAL_TRIES; i++) {
		/* the next matching wall minute, then the first instant after `after` that reads it (the first
		 * reading of a repeated time, the jump for a skipped one) */
		if ((rc = cron_next(c, wall, &wall)) != STATUS_OK)
			return rc;
		if (tzone_from_wall(tz, wall, after_unix_s, next_unix_s) == STATUS_OK)
			return STATUS_OK;
	}
	return STATUS_DONE;  /* not reached: a wall minute after after's own is read after it */
}
