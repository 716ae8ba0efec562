/*
 * scenario_plan: a `training_plan` fleet entry (scenario_load.h), a SageMaker training plan.
 *
 * A plan is a list of segments (AWS's Reserved Capacities), each with its own start, length (whole days, or
 * hours as AWS reports DurationHours) and instance count; each becomes one sc.fleet entry (OPTION_TRAINING_PLAN) in the order written, so that
 * the fleet and the bill treat a segment like a Capacity Block (option_plan.c). The entry's own keys (the
 * price per instance-hour, startup, expiry_notice, and use, read by scenario_jobs.c) apply to every
 * segment; a segment may give its own price (usd_per_h, or upfront_usd for the whole segment).
 *
 * Rules: durations "in 1-day increments from 1 to 182 days" and counts "1, 2, 4, 8, 16, 32 or 64
 * instances" (SOURCES.md [tp-durations], [tp-counts]); a plan's segments must not overlap and may start at
 * any UTC time (SOURCES.md [tp-segments]: the documentation read does not tie plans to 11:30 UTC as it does
 * Capacity Blocks); the default price is the catalogue's Capacity Block rate (an assumption,
 * SOURCES.md [tp-default-price]); the expiry notice defaults to 10 minutes (an assumption,
 * SOURCES.md [tp-expiry-notice]).
 */
#include <stdio.h>

#include "catalog.h"
#include "engine.h"
#include "scenario_load.h"
#include "status.h"
#include "units.h"

#define PLAN_MAX_DAYS 182                          /* SOURCES.md [tp-durations] */
#define DEFAULT_EXPIRY_NOTICE_US (600 * S_US)      /* an assumption (SOURCES.md [tp-expiry-notice]) */
#define MAX_EXPIRY_NOTICE_US (23 * 3600 * S_US)    /* so that the notice falls inside even a 1-day segment */

static const char *const segment_keys[] = { "start", "days", "hours", "count", "usd_per_h", "upfront_usd", NULL };
static const int plan_counts[] = { 1, 2, 4, 8, 16, 32, 64 };  /* SOURCES.md [tp-counts] */

/* An integer at r that ok() accepts, else "expected <expect>, got ...". */
static int read_int_where(struct load *l, const struct yamldoc_ref *r, bool (*ok)(int64_t),
			  const char *expect, int *out)
{
	struct diag *d = l->y.d, quiet;
	int64_t v = 0;
	int rc;

	l->y.d = &quiet;  /* any failure gets the one message below */
	rc = yamldoc_int(&l->y, r, 0, PLAN_MAX_DAYS * 1000, &v);
	l->y.d = d;
	if (rc != STATUS_OK || !ok(v))
		return yamldoc_bad(&l->y, r, expect);
	*out = (int)v;
	return STATUS_OK;
}

static bool days_ok(int64_t v)
{
	return v >= 1 && v <= PLAN_MAX_DAYS;
}

static bool hours_ok(int64_t v)
{
	return v >= 1 && v <= PLAN_MAX_DAYS * 24;
}

static bool count_ok(int64_t v)
{
	for (size_t i = 0; i < sizeof plan_counts / sizeof plan_counts[0]; i++)
		if (v == plan_counts[i])
			return true;
	return false;
}

/* "2026-01-03T11:30:00Z to 2026-01-06T11:30:00Z" for segment g (fractions of a second dropped). */
static void format_span(const struct load *l, const struct fleet_entry *g, char *buf, size_t size)
{
	char from[32], to[32];
	int64_t t0 = l->sc.start_unix_us + g->start_us;

	units_format_time(units_floor_s(t0), from, sizeof from);
	units_format_time(units_floor_s(t0 + g->duration_us), to, sizeof to);
	snprintf(buf, size, "%s to %s", from, to);
}

/* Segment g (number s of the plan f) must not overlap the plan's segments before it. */
static int check_overlap(struct load *l, const struct yamldoc_ref *start, const struct fleet_entry *f,
			 int s)
{
	const struct fleet_entry *g = &f[s];
	char mine[80], other[80];

	for (int p = 0; p < s; p++) {
		if (g->start_us >= f[p].start_us + f[p].duration_us || f[p].start_us >= g->start_us + g->duration_us)
			continue;
		format_span(l, g, mine, sizeof mine);
		format_span(l, &f[p], other, sizeof other);
		return yamldoc_fail(&l->y, start, "segment %d (%s) overlaps segment %d (%s); expected the "
					  "segments of one plan not to overlap", s, mine, p, other);
	}
	return STATUS_OK;
}

/* The segment's price: its own usd_per_h or upfront_usd, else the plan's (or the catalogue's) rate. */
static int read_segment_price(struct load *l, const struct yamldoc_ref *seg, struct fleet_entry *g)
{
	double instance_h = (double)g->count * (double)g->duration_us / SIM_US_PER_H_D;
	struct yamldoc_ref r;
	int rc;

	if ((rc = scenario_load_exclusive(l, seg, "usd_per_h", "upfront_usd")))
		return rc;
	yamldoc_child(seg, "upfront_usd", &r);
	if (r.node) {
		g->price_given = true;
		rc = yamldoc_number(&l->y, &r, scenario_load_upfront, &g->upfront_usd);
		g->usd_per_h = g->upfront_usd / instance_h;  /* count >= 1, days >= 1 */
		return rc;
	}
	yamldoc_child(seg, "usd_per_h", &r);
	if (!r.node && !g->price_given && g->usd_per_h == 0)
		return yamldoc_missing(&l->y, seg, "usd_per_h", "the catalogue has no Capacity Block rate "
					     "for this type: a price per instance-hour here or on the plan, or "
					     "upfront_usd for the segment");
	if (r.node) {
		g->price_given = true;
		if ((rc = yamldoc_number(&l->y, &r, scenario_load_price, &g->usd_per_h)))
			return rc;
	}
	g->upfront_usd = g->usd_per_h * instance_h;
	return STATUS_OK;
}

/* Warn about a segment that the run never reaches (it is still billed nothing, lying outside). */
static int check_window(struct load *l, const struct yamldoc_ref *start, const struct fleet_entry *g,
			int s)
{
	char span[80];

	if (g->start_us < l->sc.horizon_us && g->start_us + g->duration_us > 0)
		return STATUS_OK;
	format_span(l, g, span, sizeof span);
	return scenario_load_warn(l, start, "training plan segment %d (%s) lies entirely outside the simulated "
				  "window; it never runs", s, span);
}

/* One segment (number s) at seg into f[s], which holds the plan's own fields already. */
static int read_segment(struct load *l, const struct yamldoc_ref *seg, struct fleet_entry *f, int s)
{
	struct fleet_entry *g = &f[s];
	struct yamldoc_ref start, r, hours_r;
	int64_t start_unix_us = 0;
	int days = 0, hours = 0, rc;

	if ((rc = yamldoc_mapping(&l->y, seg, segment_keys, "a segment such as {start: "
					"2026-01-03T11:30:00Z, days: 3, count: 8}", NULL)) ||
	    (rc = scenario_load_required(l, seg, "start", "when the segment begins, a UTC time", &start)) ||
	    (rc = scenario_load_time(l, &start, &start_unix_us)))
		return rc;
	/* its length: whole days as offered, or hours as AWS reports a reservation (DurationHours), so that a
	 * first day cut short by a later start can be written (SOURCES.md [tp-durations]) */
	yamldoc_child(seg, "hours", &hours_r);
	yamldoc_child(seg, "days", &r);
	if (hours_r.node && r.node)
		return yamldoc_fail(&l->y, &hours_r, "days and hours cannot both be given; expected the segment's "
					  "length once, in whole days (as offered) or in hours (as AWS reports it)");
	if (hours_r.node)
		rc = read_int_where(l, &hours_r, hours_ok, "whole hours from 1 to 4368 (182 days; SOURCES.md "
				    "[tp-durations])", &hours);
	else if ((rc = scenario_load_required(l, seg, "days", "the segment's length in whole days, 1 to 182, or "
					      "hours", &r)) == STATUS_OK)
		rc = read_int_where(l, &r, days_ok, "whole days from 1 to 182 (SOURCES.md [tp-durations])", &days);
	if (rc ||
	    (rc = scenario_load_required(l, seg, "count", "the instances reserved: 1, 2, 4, 8, 16, 32 or 64",
					 &r)) ||
	    (rc = read_int_where(l, &r, count_ok, "1, 2, 4, 8, 16, 32 or 64 instances (SOURCES.md [tp-counts])",
				 &g->count)))
		return rc;
	g->start_us = start_unix_us - l->sc.start_unix_us;
	g->duration_us = hours > 0 ? hours * (int64_t)3600 * S_US : days * DAY_US;
	/* the instances go 30 minutes before the end, after the expiry notice: both inside the segment */
	if (g->duration_us <= 1800 * S_US + g->notice_us)
		return yamldoc_fail(&l->y, &hours_r, "a segment of %d hours ends before its expiry notice (%g min) "
					  "and the 30 minutes before the end when the instances are taken; expected more "
					  "than %g hours", hours, (double)g->notice_us / (60 * S_US),
					  (double)(1800 * S_US + g->notice_us) / (3600 * S_US));
	g->max = g->count;
	g->segment = s;
	if ((rc = check_overlap(l, &start, f, s)) || (rc = read_segment_price(l, seg, g)))
		return rc;
	return check_window(l, &start, g, s);
}

int scenario_load_plan(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f, int room)
{
	struct yamldoc_ref list, seg, r;
	struct fleet_entry plan;
	int n, rc;

	if ((rc = scenario_load_check_sold(l, e, SELLS_TRAINING_PLAN)))
		return rc;
	f->usd_per_h = l->type.cb_usd_per_h;  /* SOURCES.md [tp-default-price] */
	yamldoc_child(e, "usd_per_h", &r);
	f->price_given = r.node != NULL;
	if ((rc = yamldoc_number(&l->y, &r, scenario_load_price, &f->usd_per_h)))
		return rc;
	f->notice_us = DEFAULT_EXPIRY_NOTICE_US;
	yamldoc_child(e, "expiry_notice", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, MAX_EXPIRY_NOTICE_US, &f->notice_us)) ||
	    (rc = scenario_load_required(l, e, "segments", "a list of segments such as '- {start: "
					 "2026-01-03T11:30:00Z, days: 3, count: 8}'", &list)) ||
	    (rc = yamldoc_list(&l->y, &list, 1, SCENARIO_FLEET_MAX, "segments such as '- {start: "
				     "2026-01-03T11:30:00Z, days: 3, count: 8}'", &n)))
		return rc;
	if (n > room)
		return yamldoc_fail(&l->y, &list, "the plan's %d segments would make the fleet %d entries "
					  "long; expected at most %d fleet entries in all (each segment of a training "
					  "plan is one)", n, SCENARIO_FLEET_MAX - room + n, SCENARIO_FLEET_MAX);
	f->plan_id = l->nplans;
	plan = *f;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int s = 0; s < n; s++) {
		f[s] = plan;
		yamldoc_next_item(&list, &walk, &seg);
		if ((rc = read_segment(l, &seg, f, s)))
			return rc;
	}
	l->nplans++;
	l->plan_segments = n;
	return STATUS_OK;
}

const struct scenario_load_names scenario_load_segment_keys = SCENARIO_LOAD_KEYS(segment_keys);
