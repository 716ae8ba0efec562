/*
 * jobs_outlook: what the Spot pool's history says, for adaptive_progress's line (jobs.h, jobs_spot_history;
 * models/README.md, "Jobs").
 *
 * What a controller knows at t: the first Spot jobs entry's availability trace up to the current tick (the
 * ticks before the job's submission included: a real controller has the pool's history, as SkyPilot keeps
 * it), nothing after. From ticks 0..k (k = the tick holding now) jobs_spot_history counts the ticks that show
 * the job's instances (up) and the drops (a tick that does not show them after one that did). Each drop costs
 * a restart, d = the Spot entry's launch delay + the job's restart overhead, of Spot time without progress,
 * so the useful fraction of time Spot has given is
 *     a = (up x gap - drops x d) / ((k + 1) x gap)     (at most 1; NaN before any tick or without a trace).
 * adaptive_progress's slope is max(a, T / (D - t0)) (jobs_policy_uniform.c): the line never asks for more than Uniform Progress's straight line
 * from submission to deadline, and asks for less (the job waits through more of a drought) when the history
 * says Spot gives more than the job needs. Only the flattening helps: a line steeper than Uniform Progress's
 * when Spot has been scarce keeps the job on On-Demand even when Spot returns (its hysteresis is measured
 * against the line), which cost 2.5 times Uniform Progress's regret on the SkyPilot traces (models/README.md).
 * A Spot entry without an availability trace (its interruptions are draws of the interruption model, not a
 * history) gives no history: the policy then decides as uniform_progress does. The counts are kept in
 * j->outlook and advanced tick by tick, so a run reads each tick once (again from the start only when a job
 * of another size asks).
 */
#include "jobs.h"
#include "jobs_private.h"

#include <math.h>

#include "availtrace.h"

double jobs_spot_history(struct jobs *j, const struct job *job)
{
	struct jobs_outlook *o = &j->outlook;
	int g = jobs_first_of(j, OPTION_SPOT);
	const struct availtrace *at;
	int64_t k, d;
	double a;

	if (g < 0 || j->fleet->group[g].entry->avail.n == 0)
		return NAN;
	at = &j->fleet->group[g].entry->avail;
	if (o->instances != job->spec->instances)
		*o = (struct jobs_outlook){ .instances = job->spec->instances };
	for (k = j->eng->now_us / at->gap_us; o->ticks <= k; o->ticks++) {
		bool up = availtrace_at(at, o->ticks * at->gap_us) >= o->instances;

		o->up += up;
		o->drops += !up && o->was_up;
		o->was_up = up;
	}
	if (o->ticks == 0)
		return NAN;
	d = jobs_entry_restart_us(j, g, job);
	a = ((double)o->up * (double)at->gap_us - (double)o->drops * (double)d) / ((double)o->ticks * (double)at->gap_us);
	return a > 1 ? 1 : a;
}
