/*
 * option: the kinds of capacity a fleet can buy, and their names.
 *
 * The enum lists every purchase option gpucap knows by name; the result schema has one column per option
 * kind, so adding one is a schema change. option_kind_supported() says which ones this build can simulate
 * (all of them now; one file per option implements its rules, see fleet.h). Names are the scenario spellings ("on_demand").
 */
#ifndef GPUCAP_OPTION_H
#define GPUCAP_OPTION_H

#include <stdbool.h>
#include <stdint.h>

enum option_kind {
	OPTION_RESERVED,        /* reserved instances: billed every hour of the horizon, in service from the start */
	OPTION_ON_DEMAND,       /* on-demand: per second from launch, 60 s minimum */
	OPTION_SPOT,            /* Spot: per second at the price in force, free if EC2 interrupts it in its first hour */
	OPTION_ODCR,            /* On-Demand Capacity Reservation: every hour of the window, used or not */
	OPTION_SAVINGS_PLAN,    /* Savings Plan: no instances; a commitment settled per UTC clock hour */
	OPTION_CAPACITY_BLOCK,  /* Capacity Block: paid up front for its window, ends at 11:30 UTC */
	OPTION_TRAINING_PLAN,   /* SageMaker training plan segment: paid up front, whole days, instances taken
	                           30 min before its end (option_plan.c) */
	OPTION_KIND_COUNT
};

/* The scenario spelling of kind ("reserved", "on_demand", ...). */
const char *option_kind_name(enum option_kind kind);

/* Parse a scenario spelling into *kind; false if the name is unknown (then *kind is unchanged). */
bool option_kind_parse(const char *name, enum option_kind *kind);

/* True if this build can simulate the kind. */
bool option_kind_supported(enum option_kind kind);

/*
 * What one instance of `kind` costs for being held from launch_us to end_us (microseconds), at usd_per_h,
 * following the option's documented billing rule (models/SOURCES.md):
 *   on_demand: "You pay only for the seconds that your On-Demand Instances are in the running state, with a
 *     60-second minimum" (SOURCES.md [od-per-second], [window-share]). Both apply to the instance's own life:
 *     - terminated inside the window (`ended_early`): its time is rounded up to whole seconds, and at least
 *       60 s are billed, unless it was already running at t = 0 (`before_window`): it was launched before
 *       the window, so its first 60 s lie before it and the minimum is not charged again (the rounding
 *       still applies, taking its launch a whole number of seconds before t = 0);
 *     - still running at the horizon (not `ended_early`): billed exactly up to the horizon, to the
 *       microsecond, with neither rounding nor minimum: the rest of its life falls outside the window.
 *   reserved: "billed for every clock-hour during the term ... regardless of whether an instance is running"
 *     (SOURCES.md [ri-clock-hour], [window-share]): the whole interval, used or not. The simulated window is
 *     a slice of the term, so the window's share is rate x window length (fractional hours at the window's
 *     edges are pro-rated).
 * Writes the cost in USD and the billed instance-microseconds (what the bill covers). Returns STATUS_OK, or
 * STATUS_EINPUT for a kind this build does not simulate.
 */
int option_bill(enum option_kind kind, double usd_per_h, int64_t launch_us, int64_t end_us, bool ended_early,
		bool before_window, double *usd, double *billed_us);

#endif
