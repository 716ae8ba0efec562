/*
 * scenario_finish: the checks and defaults that need the whole scenario read (scenario_load.h): the
 * autoscaling bounds against what the fleet can hold, a realtime endpoint's minimum, `count: auto`
 * resolved from the rate at t = 0. scenario_fleet.c reads the fleet entries themselves. Only the entries
 * that serve count here (use: serving or shared): an entry with use: jobs is the jobs' alone.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "scenario_load.h"
#include "status.h"
#include "units.h"

/* Whether entry f serves the workload (all of the time, or inside its serving_hours). */
static bool serves(const struct fleet_entry *f)
{
	return f->use != USE_JOBS;
}

/* The arrival rate at t = 0, per second, for count: auto; NaN when the arrival kind has none known ahead. */
static double rate_at_start(const struct scenario *sc)
{
	double rate = sc->arrivals.rate_per_s, scale = sc->arrivals.scale_rate > 0 ? sc->arrivals.scale_rate : 1;
	int64_t day = DAY_US, tod = sc->start_unix_us % day, days;

	if (tod < 0)
		tod += day;
	days = (sc->start_unix_us - tod) / day;
	switch (sc->arrivals.kind) {
	case ARRIVAL_POISSON:
	case ARRIVAL_UNIFORM:
	case ARRIVAL_MMPP:         /* the process starts calm */
		break;
	case ARRIVAL_FLASH_CROWD:
		rate *= sc->arrivals.flash_at_us <= 0 ? 1 + sc->arrivals.flash_magnitude : 1;
		break;
	case ARRIVAL_DIURNAL: {    /* as arrivals_profile.c: daily(hour of day) x weekly(day, Monday first) */
		double hour = (double)tod / SIM_US_PER_H_D;
		int weekday = (int)(((days % 7) + 7 + 3) % 7);  /* 1970-01-01 was a Thursday */
		rate *= sc->arrivals.has_hourly ? sc->arrivals.hourly[(int)hour < 24 ? (int)hour : 23] :
			1.0 + sc->arrivals.amplitude * cos(2.0 * 3.14159265358979323846 * (hour - sc->arrivals.peak_hour) / 24.0);
		rate *= sc->arrivals.weekly[weekday];
		break;
	}
	default:
		return NAN;
	}
	return rate * scale * sc->arrivals.speedup;
}

/*
 * count: auto (models/README.md, "Purchase options"): the instances target tracking's target needs for the arrival rate at
 * t = 0, lambda, with mean service time S and `slots` per instance: concurrency_per_instance target T needs
 * ceil(lambda S / (slots T)), invocations_per_instance ceil(60 lambda / T), backlog_per_instance (a queue
 * target: no capacity figure) ceil(lambda S / slots), the fewest that keep up. The entry gets what the other
 * entries starting at t = 0 do not hold already, at least 0 and at most its max.
 */
static int resolve_auto(struct load *l)
{
	struct scenario *sc = &l->sc;
	struct yamldoc_ref e, r;
	double lambda = rate_at_start(sc), S = sc->service.mean_s, a, need;
	int slots = sc->serving.slots, other = 0, iauto = -1, n;

	for (int i = 0; i < sc->nfleet; i++) {
		enum option_kind k = sc->fleet[i].option;
		if (sc->fleet[i].count_auto && !serves(&sc->fleet[i])) {
			scenario_load_fleet_item(l, i, &e);
			yamldoc_child(&e, "count", &r);
			return yamldoc_fail(&l->y, &r, "count: auto sizes the serving fleet, and this entry has "
						  "use: jobs; expected a number");
		}
		if (sc->fleet[i].count_auto && iauto >= 0) {
			scenario_load_fleet_item(l, i, &e);
			yamldoc_child(&e, "count", &r);
			return yamldoc_fail(&l->y, &r, "only one fleet entry may have count: auto (entry %d "
						  "has it too); expected a number here", l->fleet_item[iauto] + 1);
		}
		if (sc->fleet[i].count_auto)
			iauto = i;
		else if (k != OPTION_CAPACITY_BLOCK && k != OPTION_TRAINING_PLAN && serves(&sc->fleet[i]))
			other += sc->fleet[i].count;
	}
	if (iauto < 0)
		return STATUS_OK;
	scenario_load_fleet_item(l, iauto, &e);
	yamldoc_child(&e, "count", &r);
	if (sc->autoscaling.policy != POLICY_TARGET_TRACKING)
		return yamldoc_fail(&l->y, &r, "count: auto sizes the fleet for target tracking's target; "
					  "expected autoscaling.policy target_tracking, or a number");
	if (sc->copies.enabled)
		return yamldoc_fail(&l->y, &r, "count: auto does not size model copies; expected a number "
					  "(or serving.copies.initial)");
	if (isnan(lambda))
		return yamldoc_fail(&l->y, &r, "count: auto needs the arrival rate at t = 0, which a trace "
					  "or rate series does not state ahead; expected a number");
	if (sc->service.kind > SERVICE_LOGNORMAL && sc->autoscaling.metric != METRIC_INVOCATIONS)
		return yamldoc_fail(&l->y, &r, "count: auto needs the mean service time, which service kind "
					  "tokens or trace does not state ahead; expected a number, or the "
					  "invocations_per_instance metric");
	a = lambda * S;  /* offered load: slots busy on average */
	need = sc->autoscaling.metric == METRIC_CONCURRENCY ? a / (slots * sc->autoscaling.target) :
	       sc->autoscaling.metric == METRIC_INVOCATIONS ? 60.0 * lambda / sc->autoscaling.target :
	       a / slots;
	n = (int)fmin(ceil(need - 1e-9), (double)MAX_INSTANCES) - other;  /* 1e-9: 40.0000000001 is 40 */
	if (n < 0)
		n = 0;
	if (n > sc->fleet[iauto].max)
		n = sc->fleet[iauto].max;
	sc->fleet[iauto].count = n;
	return STATUS_OK;
}

/* Without traffic, an entry that serves would hold instances for nothing: a warning at each. */
static int warn_idle(struct load *l)
{
	struct yamldoc_ref e;
	int rc;

	for (int i = 0; i < l->sc.nfleet; i++) {
		if (!serves(&l->sc.fleet[i]))
			continue;
		scenario_load_fleet_item(l, i, &e);
		if ((rc = scenario_load_warn(l, &e, "the entry serves (use: %s) but the scenario has no workload; "
					     "its instances never serve (use: jobs gives them to the jobs)",
					     l->sc.fleet[i].use == USE_SHARED ? "shared" : "serving, the default")))
			return rc;
	}
	return STATUS_OK;
}

int scenario_load_finish(struct load *l)
{
	struct scenario *sc = &l->sc;
	struct yamldoc_ref r;
	int reserved = 0, count = 0, capacity = 0, holding = 0, starting = 0, per, rc;
	bool raised = false;  /* min was raised to 1 for a real-time endpoint */

	if ((rc = resolve_auto(l)))
		return rc;
	if (sc->no_traffic)
		return warn_idle(l);

	for (int i = 0; i < sc->nfleet; i++) {
		enum option_kind k = sc->fleet[i].option;
		if (!serves(&sc->fleet[i]))
			continue;
		/* as world.c starts them: a Capacity Block adds its own when it opens */
		starting += k != OPTION_CAPACITY_BLOCK && k != OPTION_TRAINING_PLAN ? sc->fleet[i].count : 0;
		/* in autoscaling's unit (capacity_unit): an instance counts its entry's weight, 1 for instances */
		reserved += sc->fleet[i].option == OPTION_RESERVED ? sc->fleet[i].count * sc->fleet[i].weight : 0;
		holding++;
		count += sc->fleet[i].count;
		capacity += sc->fleet[i].max * sc->fleet[i].weight;
	}
	if (!holding)  /* every entry has use: jobs (a commitment is no fleet entry: scenario_fleet.c) */
		return yamldoc_fail(&l->y, &l->fleet, "no entry serves the workload (the entries that "
					  "hold instances have use: jobs); expected at least one entry with use: "
					  "serving (the default) or shared");
	/* with copies, autoscaling's bounds count copies (DesiredCopyCount): per_instance to an instance */
	per = sc->copies.enabled ? sc->copies.per_instance : 1;
	if (!l->min_given)
		sc->autoscaling.min = reserved * per;
	/* a real-time variant without copies never goes below 1 instance (SOURCES.md [sm-realtime-min1]): the
	 * default is at least 1 under a policy, and an explicit 0 is refused */
	if (!l->min_given && sc->autoscaling.min < 1 && scenario_load_needs_one(l) &&
	    sc->autoscaling.policy != POLICY_NONE) {
		sc->autoscaling.min = 1;
		raised = true;
	}
	yamldoc_child(&l->autoscaling, "min", &r);
	if (sc->autoscaling.policy != POLICY_NONE && (rc = scenario_load_check_zero(l, &r, sc->autoscaling.min)))
		return rc;
	if (!l->max_given)
		sc->autoscaling.max = capacity * per;
	if ((rc = scenario_copies_finish(l, capacity, starting)))
		return rc;
	if (sc->autoscaling.policy == POLICY_NONE) {
		/* a schedule that raises min brings instances later: a plan with none at t = 0 (requests
		 * before then wait or are refused as with any fleet at zero) */
		bool scheduled = false;
		for (int i = 0; i < sc->autoscaling.nschedule; i++)
			scheduled = scheduled || sc->autoscaling.schedule[i].min >= 1;
		if (count < 1 && !sc->copies.enabled && !scheduled)
			return yamldoc_fail(&l->y, &l->fleet, "the fleet has no instances "
						  "(every count is 0), autoscaling.policy is none and no scheduled "
						  "action raises min; expected a reserved, odcr or capacity_block entry, "
						  "an on_demand or spot count of at least 1, or an autoscaling.schedule "
						  "action with min of at least 1");
		return STATUS_OK;
	}
	yamldoc_child(&l->autoscaling, "max", &r);
	/* a max above what the entries hold is what a sweep that takes an entry's count down meets: the
	 * entries are the ceiling, said once here (not an error) */
	if (sc->autoscaling.max > capacity * per) {
		if ((rc = scenario_load_warn(l, &r, "%d is more than the fleet can hold (its entries' max add up "
					     "to %d%s): the effective ceiling is %d", sc->autoscaling.max, capacity,
					     sc->copies.enabled ? " instances" : "", capacity * per)))
			return rc;
		sc->autoscaling.max = capacity * per;
	}
	yamldoc_child(&l->autoscaling, "min", &r);
	if (sc->autoscaling.min > sc->autoscaling.max)
		return yamldoc_fail(&l->y, l->min_given ? &r : &l->autoscaling, "%s%d is greater than "
					  "autoscaling.max (%d); expected min <= max",
					  l->min_given ? "" : raised ? "min (by default the "
					  "reserved count, at least 1 on a realtime endpoint without copies) " :
					  "min (by default the reserved count) ",
					  sc->autoscaling.min, sc->autoscaling.max);
	return STATUS_OK;
}
