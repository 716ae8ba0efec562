/*
 * scenario_block: the capacity_block entries of the fleet, and Google Cloud's gcp_calendar and Azure's
 * azure_block, read as a block (see scenario_fleet.c for the list and the other options): the window
 * (start, then duration or end), the offerings AWS sells (ending at 11:30 UTC, whole-day lengths), the
 * instance limits, the price per instance-hour or for the whole block, calendar mode's 1-90 days and 80
 * VMs, and an Azure block's 1-14 days or 3-26 weeks, its 1, 2, 4, ..., 64 VMs and, when `requested` says
 * when it was asked for, its start within 56 days of that (same day: asked before 11:30 UTC).
 */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "engine.h"
#include "provider.h"
#include "scenario_load.h"
#include "status.h"
#include "units.h"

#define BLOCK_MAX_COUNT 64               /* "Each Capacity Block up to 64 instances" (SOURCES.md [cb-max-64]) */
#define BLOCKS_MAX_COUNT 256             /* "up to 256 across Capacity Blocks" (SOURCES.md [cb-max-256]) */
#define CALENDAR_MAX_DAYS 90             /* SOURCES.md [gcp-calendar-limits] */
#define CALENDAR_MAX_VMS 80
#define BLOCK_END_S (11 * 3600 + 1800)   /* "All Capacity Blocks end at 11:30AM UTC" (SOURCES.md [cb-end-1130]) */
#define AZ_BLOCK_MAX_VMS 64              /* sku.capacity 1, 2, 4, 8, 16, 32, 64 (SOURCES.md [az-block-reservation]) */
#define AZ_BLOCK_AHEAD_DAYS 56           /* start "today or within 56 days in the future" */
#define AZ_BLOCK_SAME_DAY_S (11 * 3600 + 1800)  /* same day: "submitted before 11:30 AM UTC" */

/* The whole-day lengths a block can be asked for: "1-day increments up to 14 days, and in 7-day increments
 * up to 182 days" (SOURCES.md [cb-durations]). */
static bool block_days_ok(int64_t days)
{
	return (days >= 1 && days <= 14) || (days >= 21 && days <= 182 && days % 7 == 0);
}

/* x mod m in [0, m) for m > 0 (times before 1970 are negative). */
static int64_t mod_pos(int64_t x, int64_t m)
{
	return ((x % m) + m) % m;
}

/* A length in seconds as "21h30m" (seconds added when there are any). */
static void format_hm(int64_t s, char *buf, size_t size)
{
	if (s % 60)
		snprintf(buf, size, "%dh%02dm%02ds", (int)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
	else
		snprintf(buf, size, "%dh%02dm", (int)(s / 3600), (int)(s / 60 % 60));
}

/*
 * When the block ends: `end` (a UTC time after start) or start + `duration`, exactly one of them, into
 * *end_unix_us; *r is the key that gave it.
 */
static int read_block_end(struct load *l, const struct yamldoc_ref *e, int64_t start_unix_us,
			  struct yamldoc_ref *r, int64_t *end_unix_us)
{
	bool calendar = l->sc.provider != PROVIDER_AWS;  /* gcp_calendar, azure_block: whole days, no 11:30 end */
	const char *expect = calendar ? "a length in whole days such as 7d (or, instead of duration, end: a UTC "
					"time)"
				      : "a length such as 7d (or, instead of duration, end: a UTC time at 11:30)";
	char from[32];
	int64_t end_us = 0, len_us = 0;
	const char *s;
	int rc;

	if ((rc = scenario_load_exclusive(l, e, "duration", "end")))
		return rc;
	yamldoc_child(e, "end", r);
	if (r->node) {
		if ((rc = scenario_load_time(l, r, &end_us)))
			return rc;
		units_format_time(units_floor_s(start_unix_us), from, sizeof from);  /* for the message */
		if (end_us <= start_unix_us)
			return yamldoc_fail(&l->y, r, "the %s would end no later than it starts; "
						  "expected a time after start (%s)",
						  calendar ? "reservation" : "block", from);
		*end_unix_us = end_us;
		return STATUS_OK;
	}
	if ((rc = scenario_load_required(l, e, "duration", calendar ? "the reservation's length in whole days, "
					 "such as 7d, or its end: a UTC time" : "the block's length, such as 7d, or its "
					 "end: a UTC time at 11:30", r)) ||
	    (rc = yamldoc_scalar(&l->y, r, expect, &s)))
		return rc;
	if (units_parse_duration(s, &len_us) != STATUS_OK || len_us == 0)
		return yamldoc_bad(&l->y, r, expect);
	*end_unix_us = start_unix_us + len_us;
	return STATUS_OK;
}

/*
 * A block's start and end must be an offering AWS sells (SOURCES.md [cb-end-1130],
 * [cb-start-any-time], [cb-durations]). "All Capacity Blocks end at 11:30AM
 * UTC", and a search for N days (block_days_ok) offers the blocks that end at 11:30 closest to N days
 * after their start: "One block will have a duration that is slightly less than your desired duration,
 * while the other will have a duration slightly greater" (capacity-blocks-purchase, the page
 * SOURCES.md [cb-durations] cites; capacityBlockDurationHours and capacityBlockDurationMinutes give such
 * lengths in hours and minutes). So, with r the time from start to the first 11:30 at or after it, a block
 * lasts r + k days, and k is N (exactly N days when r = 0, slightly more otherwise) or, when r > 0, N - 1
 * (slightly less): its length is within a day of some N days.
 */
static int check_block_offering(struct load *l, const struct yamldoc_ref *r, bool by_duration,
				int64_t start_unix_us, int64_t end_unix_us)
{
	static const char *const days = "whole days from 1 to 14, or 21 to 182 in steps of 7 days";
	int64_t tod_us = mod_pos(end_unix_us, DAY_US), len_us = end_unix_us - start_unix_us;
	int64_t r_us = mod_pos(BLOCK_END_S * S_US - start_unix_us, DAY_US), k, at_us = start_unix_us + r_us;
	char to[32], hm[24], first[32];

	if (tod_us != BLOCK_END_S * S_US) {
		units_format_time((end_unix_us - mod_pos(end_unix_us, S_US)) / S_US, to, sizeof to);
		return yamldoc_fail(&l->y, r, "the block ends at %s%s; expected an end at 11:30 UTC: "
					  "\"All Capacity Blocks end at 11:30AM UTC\" (SOURCES.md [cb-end-1130])",
					  to, mod_pos(end_unix_us, S_US) ? " and a fraction of a second" : "");
	}
	k = (len_us - r_us) / DAY_US;  /* whole: both the end and start + r_us are at 11:30 */
	if (block_days_ok(k) || (r_us > 0 && block_days_ok(k + 1)))
		return STATUS_OK;
	if (r_us == 0 && by_duration)
		return yamldoc_bad(&l->y, r, days);
	if (r_us == 0)
		return yamldoc_fail(&l->y, r, "the block lasts %lld days; expected %s "
					  "(SOURCES.md [cb-durations])", (long long)k, days);
	format_hm(r_us / S_US, hm, sizeof hm);
	units_format_time(units_floor_s(at_us), first, sizeof first);
	return yamldoc_fail(&l->y, r, "the block lasts %s (to the first 11:30 UTC, %s) plus %lld days; "
				  "expected %s plus 0 to 14 days, or plus 20, 21, 27, 28, ..., 181 or 182 days (7n - 1 "
				  "or 7n, n = 3 to 26): the blocks ending at 11:30 UTC nearest to %s "
				  "(SOURCES.md [cb-start-any-time])", hm, first, (long long)k, hm, days);
}

/* Warn about a block that the run never reaches. */
static int check_block_window(struct load *l, const struct yamldoc_ref *start, int64_t start_unix_us,
			      const struct fleet_entry *f)
{
	int64_t end_unix_us = start_unix_us + f->duration_us;
	char from[32], to[32], run_from[32], run_to[32];

	if (f->start_us < l->sc.horizon_us && f->start_us + f->duration_us > 0)
		return STATUS_OK;
	units_format_time(units_floor_s(start_unix_us), from, sizeof from);
	units_format_time(units_floor_s(end_unix_us), to, sizeof to);
	units_format_time(units_floor_s(l->sc.start_unix_us), run_from, sizeof run_from);
	units_format_time(units_floor_s(l->sc.start_unix_us + l->sc.horizon_us), run_to, sizeof run_to);
	return scenario_load_warn(l, start, "capacity block from %s to %s lies entirely outside the "
				  "simulated window (%s to %s); it never serves", from, to, run_from, run_to);
}

/* "up to 256 instances across Capacity Blocks" (SOURCES.md [cb-max-256]): the blocks so far, f (the latest)
 * included. */
static int check_blocks_total(struct load *l, const struct yamldoc_ref *e, const struct fleet_entry *f)
{
	struct yamldoc_ref r;
	int total = 0;

	for (const struct fleet_entry *p = l->sc.fleet; p <= f; p++)
		total += p->option == OPTION_CAPACITY_BLOCK ? p->count : 0;
	if (total <= BLOCKS_MAX_COUNT)
		return STATUS_OK;
	yamldoc_child(e, "count", &r);
	return yamldoc_fail(&l->y, &r, "the capacity_block entries hold %d instances with this one (%d "
				  "before it); expected at most %d across all Capacity Blocks "
				  "(SOURCES.md [cb-max-256])",
				  total, total - f->count, BLOCKS_MAX_COUNT);
}

/* The block's price: per instance-hour (default the catalogue's Capacity Block rate) or for the whole block;
 * each is derived from the other. */
static int read_block_price(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	double instance_h = (double)f->count * (double)f->duration_us / SIM_US_PER_H_D;
	struct yamldoc_ref r;
	int rc;

	if ((rc = scenario_load_exclusive(l, e, "usd_per_h", "upfront_usd")))
		return rc;
	yamldoc_child(e, "upfront_usd", &r);
	if (r.node) {
		f->price_given = true;
		rc = yamldoc_number(&l->y, &r, scenario_load_upfront, &f->upfront_usd);
		f->usd_per_h = instance_h > 0 ? f->upfront_usd / instance_h : 0;  /* 0 instances: nothing bought */
		if (f->count == 0)
			f->upfront_usd = 0;
		return rc;
	}
	yamldoc_child(e, "usd_per_h", &r);
	if (!r.node && l->type.cb_usd_per_h == 0)
		return yamldoc_missing(&l->y, e, "usd_per_h", "the catalogue has no Capacity Block "
					     "rate for this type: a price per instance-hour, or upfront_usd "
					     "for the block");
	f->usd_per_h = l->type.cb_usd_per_h;
	rc = scenario_load_entry_price(l, e, f);
	f->upfront_usd = f->usd_per_h * instance_h;
	return rc;
}

/*
 * gcp_calendar, a DWS calendar-mode future reservation (SOURCES.md [gcp-calendar-limits]): "You can
 * reserve resources for a period between 1 and 90 days" and "between 1 and 80 GPU VMs per request", from
 * any start. It is simulated as a capacity block without AWS's 11:30 UTC end, the 256-instance total or
 * the catalogue rate: no vendor rate is known, so usd_per_h or upfront_usd is required.
 */
static int read_calendar(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref start, r;
	int64_t start_unix_us = 0, end_unix_us = 0, len_us;
	int rc;

	if ((rc = scenario_load_required(l, e, "start", "when the reservation begins, a UTC time", &start)) ||
	    (rc = scenario_load_time(l, &start, &start_unix_us)) ||
	    (rc = read_block_end(l, e, start_unix_us, &r, &end_unix_us)))
		return rc;
	len_us = end_unix_us - start_unix_us;
	if (len_us % DAY_US != 0 || len_us / DAY_US < 1 || len_us / DAY_US > CALENDAR_MAX_DAYS)
		return yamldoc_fail(&l->y, &r, "the reservation lasts %.6g days; expected whole days from 1 "
					  "to %d (\"between 1 and 90 days\", SOURCES.md [gcp-calendar-limits])",
					  (double)len_us / DAY_US, CALENDAR_MAX_DAYS);
	f->start_us = start_unix_us - l->sc.start_unix_us;
	f->duration_us = len_us;
	yamldoc_child(e, "usd_per_h", &r);
	if (!r.node && (yamldoc_child(e, "upfront_usd", &r), !r.node))
		return yamldoc_missing(&l->y, e, "usd_per_h", "no Google Cloud calendar-mode rate is "
					     "known (SOURCES.md [gcp-calendar-limits]): a price per VM-hour, or "
					     "upfront_usd for the reservation");
	if ((rc = scenario_load_bought(l, e, 0, MAX_INSTANCES, "the number of VMs reserved (1 to 80 per request)", f)))
		return rc;
	if (f->count > CALENDAR_MAX_VMS) {  /* 0 is allowed: a sweep may reserve nothing (see read_bought) */
		yamldoc_child(e, "count", &r);
		return yamldoc_fail(&l->y, &r, "the reservation holds %d VMs; expected at most %d (\"between 1 "
					  "and 80 GPU VMs per request\"; larger requests go through the vendor's "
					  "account team, SOURCES.md [gcp-calendar-limits]), or 0 to reserve nothing",
					  f->count, CALENDAR_MAX_VMS);
	}
	if ((rc = read_block_price(l, e, f)))
		return rc;
	return check_block_window(l, &start, start_unix_us, f);
}

/*
 * `requested` of an azure_block: when the reservation is asked for, a UTC time (optional: a scenario need
 * not say, and then nothing is checked). Azure takes dates: the start "Must be today or within 56 days in
 * the future. For same-day scheduling, requests must be submitted before 11:30 AM UTC" (SOURCES.md
 * [az-block-reservation]). So the start's UTC date is the request's or up to 56 days later, and on the
 * same date the request is before 11:30; a block starting before it is requested is refused too.
 */
static int check_requested(struct load *l, const struct yamldoc_ref *e, int64_t start_unix_us)
{
	static const char *const rule = "\"today or within 56 days in the future. For same-day scheduling, "
					"requests must be submitted before 11:30 AM UTC\" (SOURCES.md "
					"[az-block-reservation])";
	struct yamldoc_ref r;
	int64_t req_us = 0, days;
	char at[32], from[32];
	int rc;

	yamldoc_child(e, "requested", &r);
	if (!r.node)
		return STATUS_OK;
	if ((rc = scenario_load_time(l, &r, &req_us)))
		return rc;
	units_format_time(units_floor_s(req_us), at, sizeof at);
	units_format_time(units_floor_s(start_unix_us), from, sizeof from);
	if (start_unix_us < req_us)
		return yamldoc_fail(&l->y, &r, "the block is requested at %s, after its start (%s); expected a "
					  "request at or before the start: %s", at, from, rule);
	days = (start_unix_us - mod_pos(start_unix_us, DAY_US)) / DAY_US - (req_us - mod_pos(req_us, DAY_US)) / DAY_US;
	if (days > AZ_BLOCK_AHEAD_DAYS)
		return yamldoc_fail(&l->y, &r, "the block starts %lld days after the date it is requested (%s); "
					  "expected at most %d: %s", (long long)days, at, AZ_BLOCK_AHEAD_DAYS, rule);
	if (days == 0 && mod_pos(req_us, DAY_US) >= AZ_BLOCK_SAME_DAY_S * S_US)
		return yamldoc_fail(&l->y, &r, "the block starts on the day it is requested (%s), a request at "
					  "or after 11:30 UTC; expected a same-day request before 11:30 UTC, or a later "
					  "start date: %s", at, rule);
	return STATUS_OK;
}

/*
 * azure_block, an Azure block capacity reservation (SOURCES.md [az-block-reservation]): "a duration of
 * either 1-14 whole days or 3-26 whole weeks" from a start; "sku.capacity can only accept values 1, 2, 4,
 * 8, 16, 32, 64" (0 is allowed too: a sweep may reserve nothing); no Azure list price is known (SOURCES.md
 * [az-price-unknown]), so usd_per_h or upfront_usd is required. Azure's start and end are dates; the hour
 * a block opens is not documented, so the scenario's start is taken as given and the length must be whole
 * days. Which VM sizes accept a block is a per-region capability of each size (SupportedCapacityReservation
 * Types), not a list in the documentation: no size is refused. Like gcp_calendar it counts toward none of
 * AWS's Capacity Block limits.
 */
static int read_azure_block(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref start, r;
	int64_t start_unix_us = 0, end_unix_us = 0, len_us;
	int rc;

	if ((rc = scenario_load_required(l, e, "start", "when the reservation begins, a UTC time", &start)) ||
	    (rc = scenario_load_time(l, &start, &start_unix_us)) ||
	    (rc = read_block_end(l, e, start_unix_us, &r, &end_unix_us)))
		return rc;
	len_us = end_unix_us - start_unix_us;
	if (len_us % DAY_US != 0 || !block_days_ok(len_us / DAY_US))
		return yamldoc_fail(&l->y, &r, "the reservation lasts %.6g days; expected 1 to 14 whole days, or 3 "
					  "to 26 whole weeks (21, 28, ..., 182 days): \"a duration of either 1-14 whole "
					  "days or 3-26 whole weeks\" (SOURCES.md [az-block-reservation])",
					  (double)len_us / DAY_US);
	if ((rc = check_requested(l, e, start_unix_us)))
		return rc;
	f->start_us = start_unix_us - l->sc.start_unix_us;
	f->duration_us = len_us;
	yamldoc_child(e, "usd_per_h", &r);
	if (!r.node && (yamldoc_child(e, "upfront_usd", &r), !r.node))
		return yamldoc_missing(&l->y, e, "usd_per_h", "no Azure block reservation price is known "
					     "(SOURCES.md [az-price-unknown]): a price per VM-hour, or upfront_usd "
					     "for the block");
	if ((rc = scenario_load_bought(l, e, 0, MAX_INSTANCES, "the number of VMs reserved: 1, 2, 4, 8, 16, "
				       "32 or 64", f)))
		return rc;
	if (f->count > AZ_BLOCK_MAX_VMS || (f->count & (f->count - 1)) != 0) {
		yamldoc_child(e, "count", &r);
		return yamldoc_fail(&l->y, &r, "the block holds %d VMs; expected 1, 2, 4, 8, 16, 32 or 64 (\"For "
					  "Block capacity reservations, sku.capacity can only accept values 1, 2, 4, 8, "
					  "16, 32, 64\", SOURCES.md [az-block-reservation]), or 0 to reserve nothing",
					  f->count);
	}
	if ((rc = read_block_price(l, e, f)))
		return rc;
	return check_block_window(l, &start, start_unix_us, f);
}

int scenario_load_capacity_block(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref start, end, r;
	int64_t start_unix_us = 0, end_unix_us = 0;
	int rc;

	yamldoc_child(e, "requested", &r);
	if (r.node && f->variant != VARIANT_AZURE_BLOCK)
		return yamldoc_fail(&l->y, &r, "requested is when an Azure block capacity reservation is asked "
					  "for; expected it only with option: azure_block");
	if (f->variant == VARIANT_AZURE_BLOCK)
		return read_azure_block(l, e, f);
	if (f->variant == VARIANT_CALENDAR)
		return (rc = scenario_load_check_sold(l, e, SELLS_CALENDAR)) ? rc : read_calendar(l, e, f);
	if ((rc = scenario_load_check_sold(l, e, SELLS_CAPACITY_BLOCK)))
		return rc;

	yamldoc_child(e, "end", &end);
	if ((rc = scenario_load_required(l, e, "start", "when the block begins, a UTC time", &start)) ||
	    (rc = scenario_load_time(l, &start, &start_unix_us)) ||
	    (rc = read_block_end(l, e, start_unix_us, &r, &end_unix_us)) ||
	    (rc = check_block_offering(l, &r, end.node == NULL, start_unix_us, end_unix_us)))
		return rc;
	f->start_us = start_unix_us - l->sc.start_unix_us;
	f->duration_us = end_unix_us - start_unix_us;
	if ((rc = scenario_load_bought(l, e, 0, BLOCK_MAX_COUNT, "the number of instances in the block", f)) ||
	    (rc = check_blocks_total(l, e, f)) || (rc = read_block_price(l, e, f)))
		return rc;
	return check_block_window(l, &start, start_unix_us, f);
}
