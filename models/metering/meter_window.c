/*
 * meter_window: which SLO window a run time falls in, where a window starts, and how many windows a run
 * holds (meter.h; models/README.md "Local time"). Windows divide a day and are aligned to clock times of the
 * scenario's `timezone`: on UTC (slo.tz NULL) window k is [k w - phase, (k+1) w - phase) of run time; on a
 * zone's clock it holds the instants whose local time, read on a clock that never goes back, lies in
 * [k w, (k+1) w) since the local epoch.
 *
 * The clock that never goes back: local time L(t) = t + offset(t), except that where the clock goes back
 * (the fall-back change) L stays at the last local time reached until the clock catches up, so L is the
 * running maximum of t + offset(t). The window open when the clock went back so holds the repeated local
 * times too (a 1 h window 01:00-02:00 on a fall-back night in New York lasts two hours, 01:00 EDT to 02:00
 * EST; a 15 m window 01:45-02:00 lasts 1 h 15 m), a window index never decreases and every request is in
 * one window. Where the clock jumps forward, L jumps with it and the skipped local times' windows do not
 * occur (the next window starts at the jump). A 1 d window is a local calendar day, 23 or 25 hours long on
 * the change days.
 */
#include <assert.h>

#include "meter.h"
#include "tzone.h"

#define US_PER_S 1000000
#define REACH_US (26LL * 3600 * US_PER_S)  /* more than any UTC offset (tzone.h: below 26 h) */

static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/* Local time (unix microseconds on the never-backward clock) of unix_us, in segment seg of the table. */
static int64_t local_us(const struct meter *m, int seg, int64_t unix_us)
{
	int64_t l = unix_us + (int64_t)tzone_segment_offset(m->slo.tz, seg) * US_PER_S;

	return seg >= 0 && l < m->win_lfloor_us[seg] ? m->win_lfloor_us[seg] : l;
}

void meter_window_setup(struct meter *m)
{
	const struct tzone *tz = m->slo.tz;
	int64_t top = INT64_MIN;

	m->win_seg_from_us = m->win_seg_to_us = 0;  /* an empty segment: the first lookup searches */
	if (!tz)
		return;
	/* the running maximum of t + offset(t) at the start of each segment: the supremum of the segment
	 * before, its last microsecond's local time */
	for (int i = 0; i < tz->nchanges; i++) {
		int64_t before = tz->at_s[i] * US_PER_S - 1 + (int64_t)tzone_segment_offset(tz, i - 1) * US_PER_S;
		if (before > top)
			top = before;
		m->win_lfloor_us[i] = top;
	}
}

int64_t meter_window_local(const struct meter *m, int64_t t_us)
{
	int64_t unix_us = t_us + m->start_unix_us;
	int seg = tzone_segment(m->slo.tz, floor_div(unix_us, US_PER_S));

	return floor_div(local_us(m, seg, unix_us), m->slo.window_us);
}

int64_t meter_window_next(struct meter *m, int64_t t_us)
{
	const struct tzone *tz = m->slo.tz;
	int64_t unix_us = t_us + m->start_unix_us;

	if (!tz)
		return (t_us + m->slo.window_phase_us) / m->slo.window_us;
	/* the segment of the last call holds most calls (requests end in time order): O(1) but at a change */
	if (unix_us < m->win_seg_from_us || unix_us >= m->win_seg_to_us) {
		int seg = tzone_segment(tz, floor_div(unix_us, US_PER_S));
		m->win_seg = seg;
		m->win_seg_from_us = seg >= 0 ? tz->at_s[seg] * US_PER_S : INT64_MIN;
		m->win_seg_to_us = seg + 1 < tz->nchanges ? tz->at_s[seg + 1] * US_PER_S : INT64_MAX;
	}
	return floor_div(local_us(m, m->win_seg, unix_us), m->slo.window_us);
}

int64_t meter_window_start(const struct meter *m, int64_t k)
{
	const struct tzone *tz = m->slo.tz;
	int64_t target, seg;

	if (!tz)
		return k * m->slo.window_us - m->slo.window_phase_us;
	/* the first instant whose never-backward local time reaches k w: not before k w - 26 h, as L(t) <
	 * t + 26 h; segment by segment from there (a window's start lies at most a day or two of changes on) */
	target = k * m->slo.window_us;
	seg = tzone_segment(tz, floor_div(target - REACH_US, US_PER_S));
	for (;; seg++) {
		int64_t from = seg >= 0 ? tz->at_s[seg] * US_PER_S : INT64_MIN;
		int64_t u = target - (int64_t)tzone_segment_offset(tz, (int)seg) * US_PER_S;
		if (u < from)
			u = from;  /* the clock jumped past the target at the segment's start */
		if (seg + 1 >= tz->nchanges || u < tz->at_s[seg + 1] * US_PER_S)
			return u - m->start_unix_us;
	}
}

double meter_window_count(const struct meter *m)
{
	const struct tzone *tz = m->slo.tz;
	int64_t n = meter_window_of(m, m->horizon_us - 1) - meter_window_of(m, m->warmup_us) + 1;

	if (!tz)
		return (double)n;

	/* the windows the clock jumped over at a change inside the measured part never occur */
	for (int i = 0; i < tz->nchanges; i++) {
		int64_t c = tz->at_s[i] * US_PER_S - m->start_unix_us, skipped;
		if (c <= m->warmup_us || c >= m->horizon_us)
			continue;
		skipped = meter_window_local(m, c) - meter_window_local(m, c - 1) - 1;
		if (skipped > 0)
			n -= skipped;
	}
	return (double)n;
}
