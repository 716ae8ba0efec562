/*
 * world_memory: the most a run's own structures could take (world.h, world_memory_estimate). Sizes are
 * the structures' own (sizeof), so the estimate follows the code; on x86-64 a request is 120 bytes and an
 * instance 160.
 */
#include "world.h"

#include "engine.h"
#include "fleet.h"
#include "meter.h"
#include "serving.h"


/*
 * A queued request: the request, and up to three ring-buffer pointers for it (the ring doubles when full,
 * and while it is copied the old ring and the new one, twice its size, are both held).
 */
#define WORLD_QUEUED_REQUEST_BYTES (sizeof(struct request) + 3 * sizeof(struct request *))
/* A clock hour of the meter: usage and measured usage, the users' usage, a bill line per user, option and
 * charge kind, a row. */
#define WORLD_HOUR_BYTES (2 * sizeof(struct savings_hour) + METER_USERS * SAVINGS_USAGE_COUNT * sizeof(double) + \
			  METER_USERS * OPTION_KIND_COUNT * CHARGE_KIND_COUNT * sizeof(struct meter_bill_line) + \
			  sizeof(struct sink_hour))

void world_memory_estimate(const struct scenario *sc, struct warn_memory *out)
{
	double npool = 0;
	int64_t nhours = (sc->horizon_us + SIM_US_PER_H - 1) / SIM_US_PER_H + 1;  /* + 1: a start off the hour */

	for (int i = 0; i < sc->nfleet; i++)
		npool += sc->fleet[i].max;
	out->queue_bytes = (double)sc->serving.max_queue * (double)WORLD_QUEUED_REQUEST_BYTES;
	out->pool_bytes = npool * ((double)sizeof(struct instance) + (double)sc->serving.slots * sizeof(struct request));
	/* a multi-model endpoint's state per instance and model (mme.h): ready, last use, refs */
	out->pool_bytes += npool * (double)sc->mme.n * (2 * sizeof(int64_t) + sizeof(int32_t));
	out->hours_bytes = (double)nhours * (double)WORLD_HOUR_BYTES;
}
