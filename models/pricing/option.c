/* option: see option.h. */
#include "option.h"

#include <string.h>

#include "engine.h"
#include "status.h"

static const char *const names[OPTION_KIND_COUNT] = {
	[OPTION_RESERVED] = "reserved",
	[OPTION_ON_DEMAND] = "on_demand",
	[OPTION_SPOT] = "spot",
	[OPTION_ODCR] = "odcr",
	[OPTION_SAVINGS_PLAN] = "savings_plan",
	[OPTION_CAPACITY_BLOCK] = "capacity_block",
	[OPTION_TRAINING_PLAN] = "training_plan",
};

const char *option_kind_name(enum option_kind kind)
{
	return (unsigned)kind < OPTION_KIND_COUNT ? names[kind] : "?";
}

bool option_kind_parse(const char *name, enum option_kind *kind)
{
	for (int i = 0; i < OPTION_KIND_COUNT; i++) {
		if (strcmp(names[i], name) == 0) {
			*kind = (enum option_kind)i;
			return true;
		}
	}
	return false;
}

bool option_kind_supported(enum option_kind kind)
{
	return (unsigned)kind < OPTION_KIND_COUNT;
}

#define US_PER_S 1000000
#define ON_DEMAND_MIN_US (60 * (int64_t)US_PER_S)

int option_bill(enum option_kind kind, double usd_per_h, int64_t launch_us, int64_t end_us, bool ended_early,
		bool before_window, double *usd, double *billed_us)
{
	int64_t held = end_us - launch_us, billed;

	if (held < 0)
		held = 0;
	switch (kind) {
	case OPTION_ON_DEMAND:
		billed = held; /* cut at the horizon: exactly the part inside the window */
		if (ended_early) {
			billed = (held + US_PER_S - 1) / US_PER_S * US_PER_S; /* per second: round up */
			if (!before_window && billed < ON_DEMAND_MIN_US)
				billed = ON_DEMAND_MIN_US; /* the 60-second minimum, SOURCES.md [od-per-second] */
		}
		*billed_us = (double)billed;
		*usd = usd_per_h * (double)billed / SIM_US_PER_H_D;
		return STATUS_OK;
	case OPTION_RESERVED:
		*billed_us = (double)held;
		*usd = usd_per_h * (double)held / SIM_US_PER_H_D;
		return STATUS_OK;
	default:
		return STATUS_EINPUT; /* not simulated by this build */
	}
}
