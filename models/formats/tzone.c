/*
 * tzone: see tzone.h. The TZif layout is RFC 8536's: a 44-byte header (magic "TZif", version, six counts),
 * the version 1 data block (32-bit times, skipped), a second header and the version 2+ block (64-bit
 * transition times, their type indices, the types: utoff, isdst, designation index), then the footer, a
 * POSIX TZ string between newlines (SOURCES.md [tzif]).
 */
#include "tzone.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "units.h"

#define DEFAULT_TZDIR "/usr/share/zoneinfo"
#define FILE_MAX (1 << 20)  /* bytes: the largest zone file is under 4 KiB */
#define HEADER_BYTES 44
#define UTOFF_MIN_S (-89999)  /* the offsets RFC 8536 allows a local time type: -25 h + 1 s .. */
#define UTOFF_MAX_S 93599     /* .. 26 h - 1 s (the footer's POSIX offsets are within 24:59:59) */
#define SEARCH_S (27 * 3600)  /* further than any UTC offset and a change from it */

/* What a POSIX TZ rule ("EST5EDT,M3.2.0,M11.1.0") says: a standard offset and maybe a daylight one. */
struct rule {
	int32_t std_s, dst_s;  /* UTC offsets, seconds east */
	bool has_dst;
	int month[2], week[2], wday[2];  /* Mm.w.d of the start [0] and end [1] of daylight saving */
	int32_t time_s[2];               /* the local time of day of each change (may pass 24 h) */
};

void tzone_utc(struct tzone *tz)
{
	memset(tz, 0, sizeof *tz);
	snprintf(tz->name, sizeof tz->name, "UTC");
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int64_t be64(const unsigned char *p)
{
	return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

/* Append a change at at_s to (off_s, dst) unless nothing changes; STATUS_EINPUT when the table is full, the
 * change is not in whole minutes or comes before the last one (RFC 8536: transition times ascend). A change at
 * the same instant as the last one replaces it (the state in force from that instant is the later one; a rule
 * whose daylight saving starts and ends at one instant, "M2.1.0,M2.1.0/3" on UTC+10, so changes nothing), and
 * both go when it restores the state before. */
static int add_change(struct tzone *tz, int64_t at_s, int32_t off_s, bool dst, char *err, size_t err_size)
{
	int n = tz->nchanges;
	int32_t cur = n ? tz->off_s[n - 1] : tz->off0_s;
	bool cur_dst = n ? tz->dst[n - 1] : tz->dst0;

	if (n && at_s < tz->at_s[n - 1]) {
		snprintf(err, err_size, "a change of UTC offset at %lld s after one at %lld s; expected times in "
			 "ascending order", (long long)at_s, (long long)tz->at_s[n - 1]);
		return STATUS_EINPUT;
	}
	if (n && at_s == tz->at_s[n - 1]) {
		int32_t before = n > 1 ? tz->off_s[n - 2] : tz->off0_s;
		bool before_dst = n > 1 ? tz->dst[n - 2] : tz->dst0;

		if (off_s == before && dst == before_dst) {
			tz->nchanges = n - 1;
		} else {
			tz->off_s[n - 1] = off_s;
			tz->dst[n - 1] = dst;
		}
		return STATUS_OK;
	}
	if (off_s == cur && dst == cur_dst)
		return STATUS_OK;
	if (off_s % 60 || at_s % 60) {
		snprintf(err, err_size, "changes to UTC%+d s at %lld s, not a whole minute", (int)off_s, (long long)at_s);
		return STATUS_EINPUT;
	}
	if (n == TZONE_CHANGES_MAX) {
		snprintf(err, err_size, "more than %d changes of UTC offset within the run", TZONE_CHANGES_MAX);
		return STATUS_EINPUT;
	}
	tz->at_s[n] = at_s;
	tz->off_s[n] = off_s;
	tz->dst[n] = dst;
	tz->nchanges = n + 1;
	return STATUS_OK;
}

/* A POSIX [+-]hh[:mm[:ss]] at *p with hours up to max_h, into *out (seconds); false when malformed. */
static bool hms(const char **p, int max_h, int32_t *out)
{
	int sign = 1, part[3] = { 0, 0, 0 }, k = 0;

	if (**p == '+' || **p == '-')
		sign = *(*p)++ == '-' ? -1 : 1;
	for (;;) {
		int digits = 0;

		while (**p >= '0' && **p <= '9' && digits < 3) {
			part[k] = part[k] * 10 + (*(*p)++ - '0');
			digits++;
		}
		if (!digits || (k > 0 && (digits != 2 || part[k] > 59)))
			return false;
		if (++k == 3 || **p != ':')
			break;
		(*p)++;
	}
	if (part[0] > max_h)
		return false;
	*out = sign * (part[0] * 3600 + part[1] * 60 + part[2]);
	return true;
}

/* A zone abbreviation: "<...>" or three or more letters. */
static bool abbrev(const char **p)
{
	const char *s = *p;

	if (*s == '<') {
		const char *e = strchr(s, '>');
		if (!e || e - s < 4)
			return false;
		*p = e + 1;
		return true;
	}
	while ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z'))
		s++;
	if (s - *p < 3)
		return false;
	*p = s;
	return true;
}

/* One ",Mm.w.d[/time]" of a rule into r's slot k. */
static bool rule_date(const char **p, struct rule *r, int k)
{
	int m, w, d;
	int n = 0;

	if (**p != ',' || (*p)[1] != 'M')
		return false;
	if (sscanf(*p + 2, "%2d.%1d.%1d%n", &m, &w, &d, &n) != 3 || n == 0 || m < 1 || m > 12 || w < 1 ||
	    w > 5 || d < 0 || d > 6)
		return false;
	*p += 2 + n;
	r->month[k] = m;
	r->week[k] = w;
	r->wday[k] = d;
	r->time_s[k] = 7200;  /* 02:00, POSIX's default */
	if (**p == '/') {
		(*p)++;
		return hms(p, 167, &r->time_s[k]);
	}
	return true;
}

/* Parse the footer's TZ string (an empty one is refused by the caller). */
static int parse_rule(const char *s, struct rule *r, char *err, size_t err_size)
{
	const char *p = s;
	int32_t v;

	memset(r, 0, sizeof *r);
	if (!abbrev(&p) || !hms(&p, 24, &v))
		goto bad;
	r->std_s = -v;  /* POSIX counts west as positive */
	if (*p == '\0')
		return STATUS_OK;
	if (!abbrev(&p))
		goto bad;
	r->has_dst = true;
	r->dst_s = r->std_s + 3600;
	if (*p != ',' && *p != '\0') {
		if (!hms(&p, 24, &v))
			goto bad;
		r->dst_s = -v;
	}
	if (*p == ',' && p[1] != 'M') {
		snprintf(err, err_size, "TZ rule \"%s\" uses a Jn or n date; only Mm.w.d dates are supported", s);
		return STATUS_EINPUT;
	}
	if (!rule_date(&p, r, 0) || !rule_date(&p, r, 1) || *p != '\0')
		goto bad;
	return STATUS_OK;
bad:
	snprintf(err, err_size, "TZ rule \"%s\" is malformed", s);
	return STATUS_EINPUT;
}

/* The instant (unix s) of change k of rule r in year y, from the offset in effect before it. */
static int64_t rule_change(const struct rule *r, int k, int64_t y)
{
	int m = r->month[k];
	int64_t first = units_days_from_civil(y, m, 1);
	int64_t next = m == 12 ? units_days_from_civil(y + 1, 1, 1) : units_days_from_civil(y, m + 1, 1);
	int wd_first = (int)(((first + 4) % 7 + 7) % 7);  /* 1970-01-01 was a Thursday (4, Sunday = 0) */
	int64_t day = first + (r->wday[k] - wd_first + 7) % 7 + 7 * (r->week[k] - 1);
	int32_t before = k == 0 ? r->std_s : r->dst_s;

	if (day >= next)
		day -= 7;  /* week 5: the last such day of the month */
	return day * 86400 + r->time_s[k] - before;
}

static int64_t year_of(int64_t unix_s)
{
	int64_t y;
	int m, d;

	units_civil_from_days(unix_s >= 0 ? unix_s / 86400 : (unix_s - 86399) / 86400, &y, &m, &d);
	return y;
}

/* Follow the rule from `lo` (after the file's last transition) to to_s: the state at lo becomes the table's
 * start when `initial`, and every change in (lo, to_s] is appended. */
static int follow_rule(struct tzone *tz, const struct rule *r, int64_t lo, int64_t to_s, bool initial, char *err,
		       size_t err_size)
{
	int rc;

	if (!r->has_dst) {
		if (initial) {
			tz->off0_s = r->std_s;
			tz->dst0 = false;
		}
		return STATUS_OK;
	}
	for (int64_t y = year_of(lo) - 1; y <= year_of(to_s) + 1; y++) {
		int64_t at[2] = { rule_change(r, 0, y), rule_change(r, 1, y) };
		int first = at[0] < at[1] ? 0 : 1;

		for (int j = 0; j < 2; j++) {
			int k = j == 0 ? first : 1 - first;
			int32_t off = k == 0 ? r->dst_s : r->std_s;

			if (at[k] <= lo) {
				if (initial) {
					tz->off0_s = off;
					tz->dst0 = k == 0;
				}
			} else if (at[k] <= to_s && (rc = add_change(tz, at[k], off, k == 0, err, err_size)))
				return rc;
		}
	}
	return STATUS_OK;
}

/* The v2+ block's parts, located by parse_header. */
struct block {
	uint32_t timecnt, typecnt, charcnt, leapcnt;
	const unsigned char *times, *idx, *types;
	const char *footer;  /* NUL-terminated copy's start, owned by the caller's buffer */
};

/* Locate the version 2+ data block and footer in buf; false with a message when the file is malformed. */
static int parse_header(const unsigned char *buf, size_t len, struct block *b, char *footer, size_t fsize,
			char *err, size_t err_size)
{
	uint64_t v1, v2, c[6];
	const unsigned char *h2, *end = buf + len, *f;

	if (len < HEADER_BYTES || memcmp(buf, "TZif", 4) != 0)
		goto bad;
	if (buf[4] < '2') {
		snprintf(err, err_size, "a version 1 TZif file (no 64-bit data); expected version 2 or later");
		return STATUS_EINPUT;
	}
	for (int i = 0; i < 6; i++)
		c[i] = be32(buf + 20 + 4 * i);
	v1 = c[3] * 5 + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0];
	if (v1 > len - HEADER_BYTES || len - HEADER_BYTES - v1 < HEADER_BYTES)
		goto bad;
	h2 = buf + HEADER_BYTES + v1;
	if (memcmp(h2, "TZif", 4) != 0)
		goto bad;
	for (int i = 0; i < 6; i++)
		c[i] = be32(h2 + 20 + 4 * i);
	v2 = c[3] * 9 + c[4] * 6 + c[5] + c[2] * 12 + c[1] + c[0];
	if (c[4] == 0 || c[5] == 0 || v2 > (uint64_t)(end - h2 - HEADER_BYTES))
		goto bad;
	if (c[2] != 0) {
		snprintf(err, err_size, "a zone with leap seconds (a \"right/\" zone); expected one without");
		return STATUS_EINPUT;
	}
	b->leapcnt = 0;
	b->timecnt = (uint32_t)c[3];
	b->typecnt = (uint32_t)c[4];
	b->charcnt = (uint32_t)c[5];
	b->times = h2 + HEADER_BYTES;
	b->idx = b->times + 8 * (size_t)b->timecnt;
	b->types = b->idx + b->timecnt;
	f = h2 + HEADER_BYTES + v2;
	footer[0] = '\0';
	if (f < end) {
		const unsigned char *nl;
		size_t n;

		if (*f != '\n' || !(nl = memchr(f + 1, '\n', (size_t)(end - f - 1))))
			goto bad;
		n = (size_t)(nl - f - 1);
		if (n >= fsize)
			goto bad;
		memcpy(footer, f + 1, n);
		footer[n] = '\0';
	}
	b->footer = footer;
	for (uint32_t i = 0; i < b->timecnt; i++)
		if (b->idx[i] >= b->typecnt || (i > 0 && be64(b->times + 8 * i) <= be64(b->times + 8 * (i - 1))))
			goto bad;
	for (uint32_t k = 0; k < b->typecnt; k++) {  /* RFC 8536: utoff in -89999..93599 (-25 h .. +26 h) */
		int32_t off = (int32_t)be32(b->types + 6 * k);
		if (off < UTOFF_MIN_S || off > UTOFF_MAX_S) {
			snprintf(err, err_size, "a UTC offset of %d s; expected -89999 to 93599 (RFC 8536)", (int)off);
			return STATUS_EINPUT;
		}
	}
	return STATUS_OK;
bad:
	snprintf(err, err_size, "not a valid TZif file (RFC 8536)");
	return STATUS_EINPUT;
}

/* Type k's offset and flag. */
static void type_of(const struct block *b, int k, int32_t *off_s, bool *dst)
{
	*off_s = (int32_t)be32(b->types + 6 * k);
	*dst = b->types[6 * k + 4] != 0;
}

int tzone_parse(struct tzone *out, const char *name, const unsigned char *buf, size_t len, int64_t from_s,
		int64_t to_s, char *err, size_t err_size)
{
	struct tzone tz;
	struct block b;
	struct rule r;
	char footer[256];
	int64_t last = INT64_MIN;
	uint32_t i = 0;
	int rc;

	if ((rc = parse_header(buf, len, &b, footer, sizeof footer, err, err_size)))
		return rc;
	if (footer[0] && (rc = parse_rule(footer, &r, err, err_size)))
		return rc;
	memset(&tz, 0, sizeof tz);
	snprintf(tz.name, sizeof tz.name, "%s", name);
	type_of(&b, 0, &tz.off0_s, &tz.dst0);  /* before the first transition: type 0 */
	for (; i < b.timecnt && be64(b.times + 8 * i) <= from_s; i++)
		type_of(&b, b.idx[i], &tz.off0_s, &tz.dst0);
	if (b.timecnt)
		last = be64(b.times + 8 * (b.timecnt - 1));
	if (i == b.timecnt) {  /* from_s is past the file's transitions: the footer's rule, if any, rules */
		if (footer[0] && (rc = follow_rule(&tz, &r, from_s, to_s, true, err, err_size)))
			return rc;
	} else {  /* the file's transitions, then the rule after the last of them */
		for (; i < b.timecnt && be64(b.times + 8 * i) <= to_s; i++) {
			int32_t off;
			bool dst;

			type_of(&b, b.idx[i], &off, &dst);
			if ((rc = add_change(&tz, be64(b.times + 8 * i), off, dst, err, err_size)))
				return rc;
		}
		if (footer[0] && to_s > last && (rc = follow_rule(&tz, &r, last, to_s, false, err, err_size)))
			return rc;
	}
	if (tz.off0_s % 60) {
		snprintf(err, err_size, "UTC%+d s at the start is not a whole minute", (int)tz.off0_s);
		return STATUS_EINPUT;
	}
	*out = tz;
	return STATUS_OK;
}

/* A name safe to join to the zone directory. */
static bool name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= TZONE_NAME_MAX || name[0] == '/' || strstr(name, ".."))
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      strchr("/_-+.", *p)))
			return false;
	return true;
}

int tzone_load(struct tzone *tz, const char *name, int64_t from_s, int64_t to_s, char *err, size_t err_size)
{
	const char *dir = getenv("TZDIR");
	char path[1024];
	unsigned char *buf;
	size_t len;
	FILE *f;
	int rc;

	if (strcmp(name, "UTC") == 0) {
		tzone_utc(tz);
		return STATUS_OK;
	}
	if (!name_ok(name)) {
		snprintf(err, err_size, "\"%s\" is not a time zone name", name);
		return STATUS_EINPUT;
	}
	if (!dir || !*dir)
		dir = DEFAULT_TZDIR;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "rb"))) {
		snprintf(err, err_size, "no time zone \"%s\" in %s (is tzdata installed?)", name, dir);
		return STATUS_EINPUT;
	}
	if (!(buf = malloc(FILE_MAX))) {
		fclose(f);
		return STATUS_ENOMEM;
	}
	len = fread(buf, 1, FILE_MAX, f);
	if (ferror(f) && len == 0) {  /* a directory such as "America" */
		snprintf(err, err_size, "no time zone \"%s\" in %s (a folder of zones?)", name, dir);
		rc = STATUS_EINPUT;
	} else {
		rc = tzone_parse(tz, name, buf, len, from_s, to_s, err, err_size);
	}
	free(buf);
	fclose(f);
	return rc;
}

bool tzone_is_utc(const struct tzone *tz)
{
	return tz->nchanges == 0 && tz->off0_s == 0;
}

int tzone_segment(const struct tzone *tz, int64_t unix_s)
{
	int lo = 0, hi = tz->nchanges;  /* the first change after unix_s is in [lo, hi] */

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (tz->at_s[mid] <= unix_s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

int32_t tzone_segment_offset(const struct tzone *tz, int i)
{
	return i < 0 ? tz->off0_s : tz->off_s[i];
}

int32_t tzone_offset(const struct tzone *tz, int64_t unix_s)
{
	return tzone_segment_offset(tz, tzone_segment(tz, unix_s));
}

int tzone_from_wall(const struct tzone *tz, int64_t wall_s, int64_t after_s, int64_t *out)
{
	int a = tzone_segment(tz, wall_s - SEARCH_S), b = tzone_segment(tz, wall_s + SEARCH_S);
	int64_t best = INT64_MAX;

	for (int j = a; j <= b; j++) {  /* segments in time order; only those near wall_s can read it */
		int64_t u = wall_s - tzone_segment_offset(tz, j);

		if (u > after_s && u < best && (j < 0 || u >= tz->at_s[j]) && (j + 1 >= tz->nchanges ||
										 u < tz->at_s[j + 1]))
			best = u;  /* the clock reads wall_s at u */
		if (j >= 0 && tz->at_s[j] > after_s && tz->at_s[j] < best &&
		    tz->at_s[j] + tzone_segment_offset(tz, j - 1) <= wall_s && wall_s < tz->at_s[j] + tz->off_s[j])
			best = tz->at_s[j];  /* the clock jumps over wall_s at this change */
	}
	if (best == INT64_MAX)
		return STATUS_DONE;
	*out = best;
	return STATUS_OK;
}

static int put_offset(char *buf, size_t size, int32_t off_s)
{
	int32_t a = off_s < 0 ? -off_s : off_s;

	return snprintf(buf, size, "%c%02d:%02d", off_s < 0 ? '-' : '+', (int)(a / 3600), (int)(a / 60 % 60));
}

void tzone_describe(const struct tzone *tz, char *buf, size_t size)
{
	size_t n;

	if (tzone_is_utc(tz)) {
		snprintf(buf, size, "%s", tz->name);
		return;
	}
	n = (size_t)snprintf(buf, size, "%s (UTC", tz->name);
	for (int pass = 0; pass < 2; pass++) {  /* standard offsets, then daylight ones */
		int32_t seen[8];
		int nseen = 0;

		for (int i = -1; i < tz->nchanges && n < size; i++) {
			int32_t off = tzone_segment_offset(tz, i);
			bool dst = i < 0 ? tz->dst0 : tz->dst[i], dup = false;

			if (dst != (pass == 1))
				continue;
			for (int k = 0; k < nseen; k++)
				dup |= seen[k] == off;
			if (dup || nseen == 8)
				continue;
			seen[nseen++] = off;
			if (n > strlen(tz->name) + 5 && n < size)
				n += (size_t)snprintf(buf + n, size - n, ", ");
			if (n < size)
				n += (size_t)put_offset(buf + n, size - n, off);
			if (pass == 1 && n < size)
				n += (size_t)snprintf(buf + n, size - n, " daylight saving");
		}
	}
	if (n < size)
		snprintf(buf + n, size - n, ")");
}
