/*
 * autoscale: see autoscale.h. In the order of a period: measuring (ready_units, measure_all), the scalable
 * target (capacity_now, capacity_set), deciding (combine, scale_from_zero, on_evaluate), then the scheduled
 * actions, and the set-up.
 */
#include "autoscale.h"

#include <math.h>
#include <stdio.h>

#include "cron.h"
#include "status.h"
#include "units.h"

/* Schedule ev, or fail the run (the engine refused: a time in the past) and stop it. */
static void schedule_or_fail(struct autoscale *a, struct event *ev, int64_t t_us,
			     void (*fn)(struct engine *, struct event *))
{
	int rc = engine_schedule(a->eng, ev, t_us, fn);

	if (rc != STATUS_OK) {
		meter_fail(a->meter, rc);
		engine_stop(a->eng);
	}
}

/*
 * With autoscaling.capacity_unit gpus or slots: the units in service over the period just ended (unit-us),
 * given its instance-us `service`: with one type, service x the serving entries' weight (one type, one
 * weight); with several, each type's instance-us (meter_types.c, since the previous evaluation) x its weight.
 */
static double ready_units(struct autoscale *a, double service)
{
	const struct meter_types *t = &a->meter->types;
	double units = 0;

	if (t->n <= 1)
		return service * (a->sc->autoscaling.capacity_unit == UNIT_GPUS ? a->sc->types[0].gpus :
				  a->sc->types[0].slots);
	for (int i = 0; i < t->n; i++) {
		double wt = a->sc->autoscaling.capacity_unit == UNIT_GPUS ? t->type[i].gpus : t->type[i].slots;
		units += (t->type[i].service_inst_us - a->type_service_at_eval[i]) * wt;
		a->type_service_at_eval[i] = t->type[i].service_inst_us;
	}
	return units;
}

/* Every metric over the period since the previous evaluation, by metric kind (NaN when nothing was in
 * service), and in *ready the instances (with copies: copies) in service on average over it. */
static void measure_all(struct autoscale *a, double metric[METRIC_KINDS], double *ready)
{
	struct meter *m = a->meter;
	double busy = m->busy_slot_us_all - a->busy_at_eval;
	/* with copies every metric is per copy (SOURCES.md [sm-ic-copies], [sm-concurrency-metric]) */
	double served_us = a->sc->copies.enabled ? m->service_copy_us : m->service_inst_us;
	double service = served_us - a->service_at_eval;
	double span_us = (double)a->sc->autoscaling.resolution_us;
	double arrivals = (double)(m->arrivals - a->arrivals_at_eval), slots;
	double queued = m->queued_us - a->queued_at_eval;
	double waiting = m->queued_served_us - a->queued_served_at_eval;

	a->busy_at_eval = m->busy_slot_us_all;
	a->queued_served_at_eval = m->queued_served_us;
	a->service_at_eval = served_us;
	slots = m->types.service_slot_us - a->slots_at_eval;
	a->slots_at_eval = m->types.service_slot_us;
	a->arrivals_at_eval = m->arrivals;
	a->queued_at_eval = m->queued_us;
	for (int k = 0; k < METRIC_KINDS; k++)
		metric[k] = NAN;
	if (a->gm_on)  /* over its own instances counted (gpumetric.h) */
		gpumetric_take(&a->gm, a->eng->now_us, &metric[METRIC_GPU_UTIL], &metric[METRIC_GPU_MEM]);
	*ready = service > 0 ? service / span_us : 0;
	if (a->sc->autoscaling.capacity_unit != UNIT_INSTANCES && service > 0)
		*ready = ready_units(a, service) / span_us;  /* in autoscaling's unit, like the capacity */
	if (service <= 0)
		return;
	/*
	 * ConcurrentRequestsPerModel / PerCopy count the requests in flight "including those queued"
	 * (SOURCES.md [sm-concurrency-metric]): (requests in service + requests waiting) / slots, per
	 * instance (copy) in service, uncapped, so an overloaded fleet scales out in proportion to its
	 * backlog. The central queue is shared out over the instances serving; time with none serving is left
	 * out of the waiting part.
	 */
	/* several types: per slot in service of whatever type (instances x slots, integrated) */
	metric[METRIC_CONCURRENCY] = (busy + waiting) / (m->types.n > 1 ? slots : service * a->sc->serving.slots);
	/* average requests waiting / average instances in service */
	metric[METRIC_BACKLOG] = queued / service;
	/* invocations per instance per minute: arrivals over the period, per average instance in service */
	metric[METRIC_INVOCATIONS] = arrivals * (60.0 * SIM_US_PER_S / span_us) / (service / span_us);
}

/* The scalable target's capacity now: desired copies with copies, else desired instances. */
static int capacity_now(const struct autoscale *a)
{
	return a->sc->copies.enabled ? a->copies->desired : a->fleet->desired;
}

int autoscale_capacity_max(const struct autoscale *a)
{
	int entries = fleet_serving_capacity(a->fleet);

	return a->sc->copies.enabled || a->max < entries ? a->max : entries;
}

/* Set the scalable target's capacity; returns what it became (the fleet clamps instances). */
static int capacity_set(struct autoscale *a, int n)
{
	return a->sc->copies.enabled ? copies_set_desired(a->copies, n) : fleet_set_desired(a->fleet, n);
}

/*
 * Several target-tracking policies on one target (SOURCES.md [tt-multiple-policies]): "scale out if ANY
 * policy ready to scale out; scale in only if ALL (scale-in-enabled) policies ready; when several fire, the
 * one giving the LARGEST capacity wins". Each policy keeps its own cooldowns; a policy whose scale-in was
 * outvoted still started its scale-in cooldown (a simplification).
 */
static void combine(struct policy_decision *into, const struct policy_decision *d)
{
	if (d->action == POLICY_SCALE_OUT) {
		if (into->action != POLICY_SCALE_OUT || d->desired > into->desired)
			*into = *d;
	} else if (into->action == POLICY_SCALE_IN) {
		if (d->action == POLICY_HOLD)
			*into = *d; /* not all agree: hold */
		else if (d->desired > into->desired)
			*into = *d;
	}
}

/*
 * Scale from zero (autoscaling.scale_from_zero). A fleet at zero capacity has no metric, so target
 * tracking cannot scale it out; SageMaker documents the way out as a step scaling policy on a "backlog
 * without capacity" alarm: HasBacklogWithoutCapacity, Average, Period 60, EvaluationPeriods 2,
 * DatapointsToAlarm 2, Threshold >= 1, ChangeInCapacity +1 (SOURCES.md [sm-scale-from-zero]). Here the
 * datapoint is, while the desired capacity is 0, the queue at each evaluation on an async endpoint, and on a
 * realtime one (which queues nothing at zero: it refuses) the requests refused for want of capacity since the
 * previous evaluation, the NoCapacityInvocationFailures alarm SageMaker documents for real-time
 * scale-from-zero; the same 2 datapoints in a row bring capacity to 1.
 */
static bool scale_from_zero(struct autoscale *a, int64_t now)
{
	uint64_t refused = a->serving->refused_closed - a->refused_at_eval;
	bool breach = a->serving->realtime ? refused >= 1 : serving_queue_len(a->serving) >= 1;

	a->refused_at_eval = a->serving->refused_closed;
	if (!a->sc->autoscaling.scale_from_zero || capacity_now(a) > 0 || !breach) {
		a->backlog_periods = 0;
		return false;
	}
	if (++a->backlog_periods < 2)
		return false;
	a->backlog_periods = 0;
	warn_scaling(a->warn, now, +1, 0, 1);
	meter_event(a->meter, now, "scale_out", NULL, capacity_set(a, 1), a->serving->realtime ?
		    "scale from zero: invocations refused without capacity for 2 periods (+1)" :
		    "scale from zero: backlog without capacity for 2 periods (+1)");
	a->meter->scale_outs++;
	return true;
}

static void on_evaluate(struct engine *eng, struct event *ev)
{
	struct autoscale *a = container_of(ev, struct autoscale, evaluate);
	struct policy_input in;
	struct policy_decision out;
	double arrivals, busy_us, metric[METRIC_KINDS];

	meter_advance(a->meter, eng->now_us);
	/* the period's arrivals and busy time, read before measure() moves the marks to now */
	arrivals = (double)(a->meter->arrivals - a->arrivals_at_eval);
	busy_us = a->meter->busy_slot_us_all - a->busy_at_eval;
	in.arrivals_per_s = arrivals * SIM_US_PER_S / (double)a->sc->autoscaling.resolution_us;
	in.busy_per_arrival_s = arrivals > 0 ? busy_us / SIM_US_PER_S / arrivals : NAN;
	in.slots = a->sc->serving.slots;
	in.now_us = eng->now_us;
	measure_all(a, metric, &in.ready);
	metriclag_push(&a->lag, metric);  /* SOURCES.md [cw-metric-delay]: the policies see them late */
	if (scale_from_zero(a, eng->now_us))
		goto next;
	in.metric = metric[a->sc->autoscaling.metric];
	in.capacity = capacity_now(a);
	a->policy->ops->decide(a->policy, &in, &out);
	for (int i = 0; i < a->nalso; i++) {
		struct policy_decision other;
		in.metric = metric[a->sc->autoscaling.also[i].metric];
		a->also[i]->ops->decide(a->also[i], &in, &other);
		combine(&out, &other);
	}
	if (out.action != POLICY_HOLD) {
		/* the bounds may have been moved by a scheduled action since the policy copied them */
		int want = out.desired < a->min ? a->min : out.desired > a->max ? a->max : out.desired;
		out.action = want > in.capacity ? POLICY_SCALE_OUT : want < in.capacity ? POLICY_SCALE_IN
			     : POLICY_HOLD;
		out.desired = want;
	}
	/* replacements launched ahead of a shared reservation going to the jobs are not scaled in before it goes
	 * (fleet_share.c): the policy counts the reservation's instances, which are about to leave */
	if (out.action == POLICY_SCALE_IN && eng->now_us < a->fleet->hold_scale_in_until_us)
		out.action = POLICY_HOLD;
	if (out.action != POLICY_HOLD) {
		int got = capacity_set(a, out.desired);
		bool out_ = out.action == POLICY_SCALE_OUT;
		/* a decision the target could not follow (the fleet pinned at its floor of reserved instances, or
		 * at the entries' ceiling) changed nothing: not an action (models/README.md, "Metrics", scale_in_actions:
		 * "policy decisions that changed desired capacity"), not logged, no flapping */
		if (got == in.capacity)
			goto next;
		if (out_)
			a->meter->scale_outs++;
		else
			a->meter->scale_ins++;
		warn_scaling(a->warn, eng->now_us, out_ ? +1 : -1, in.capacity, got);
		meter_event(a->meter, eng->now_us, out_ ? "scale_out" : "scale_in", NULL, got, out.reason);
	}
next:
	if (eng->now_us + a->sc->autoscaling.resolution_us <= a->sc->horizon_us)
		schedule_or_fail(a, &a->evaluate, eng->now_us + a->sc->autoscaling.resolution_us, on_evaluate);
}

/*
 * Scheduled actions (SOURCES.md [scheduled-actions], [scheduled-cron-utc]). Each action's next firing is kept
 * in run time; the event is set for the earliest. A firing sets MinCapacity and/or MaxCapacity and brings the
 * desired capacity into them at once: "if current < new min -> scale out to min; if current > new max ->
 * scale in to max". Cooldowns "apply only to policy-driven activities", so nothing here looks at them.
 * Actions due at the same time run in list order ("scheduled actions run in order"). Times are microseconds
 * since the epoch in UTC (an `at` keeps its fraction of a second; cron firings are whole minutes), placed on
 * the run's clock from sc->start_unix_us, which may itself have a fraction.
 */

static void on_scheduled(struct engine *eng, struct event *ev);

/* Action i's first firing (on the scenario's wall clock, cron_next_in) strictly after run time after_us
 * (or at/after 0 when first_run), or INT64_MAX when it has none within the horizon. O(days searched) for cron, once per firing. */
static int64_t action_next(const struct autoscale *a, int i, int64_t after_us, bool first_run)
{
	const struct scenario *sc = a->sc;
	const struct scheduled_action *act = &sc->autoscaling.schedule[i];
	int64_t at_s, t_us;

	if (!act->recurring) {
		t_us = act->at_unix_us - sc->start_unix_us;
		if (!first_run || t_us < 0 || t_us > sc->horizon_us)
			return INT64_MAX; /* a one-off action runs once, and never before the start */
		return t_us;
	}
	/* cron firings are whole seconds (whole minutes): the first one strictly after the unix time
	 * start + after_us is the first strictly after its whole second; from the start, a firing at the
	 * start itself counts (strictly after start - 1 us) */
	if (cron_next_in(&act->cron, &sc->tz, units_floor_s(sc->start_unix_us + (first_run ? -1 : after_us)),
			 &at_s) != STATUS_OK)
		return INT64_MAX;
	t_us = at_s * SIM_US_PER_S - sc->start_unix_us;
	return t_us > sc->horizon_us ? INT64_MAX : t_us;
}

/* Set the event for the earliest pending firing, if any falls within the horizon. */
static void schedule_next_action(struct autoscale *a)
{
	int64_t t = INT64_MAX;

	for (int i = 0; i < a->sc->autoscaling.nschedule; i++)
		if (a->action_next_us[i] < t)
			t = a->action_next_us[i];
	if (t <= a->sc->horizon_us)
		schedule_or_fail(a, &a->scheduled, t, on_scheduled);
}

/* Run one action: move the bounds (the one given wins if they would cross), then the capacity into them. */
static void run_action(struct autoscale *a, const struct scheduled_action *act, int64_t now_us)
{
	char detail[48];
	int cur = capacity_now(a), got = cur, want;

	if (act->min >= 0) {
		a->min = act->min;
		if (a->max < a->min)
			a->max = a->min;
	}
	if (act->max >= 0) {
		a->max = act->max;
		if (a->min > a->max)
			a->min = a->max;
	}
	if (a->policy) {
		a->policy->min = a->min;
		a->policy->max = a->max;
	}
	for (int i = 0; i < a->nalso; i++) {
		a->also[i]->min = a->min;
		a->also[i]->max = a->max;
	}
	want = cur < a->min ? a->min : cur > a->max ? a->max : cur;
	if (want != cur)
		got = capacity_set(a, want);
	snprintf(detail, sizeof detail, "min=%d max=%d", a->min, a->max);
	meter_event(a->meter, now_us, "scheduled", NULL, got, detail);
}

static void on_scheduled(struct engine *eng, struct event *ev)
{
	struct autoscale *a = container_of(ev, struct autoscale, scheduled);
	const struct scenario *sc = a->sc;

	meter_advance(a->meter, eng->now_us);
	for (int i = 0; i < sc->autoscaling.nschedule; i++) {
		if (a->action_next_us[i] != eng->now_us)
			continue;
		run_action(a, &sc->autoscaling.schedule[i], eng->now_us);
		a->action_next_us[i] = action_next(a, i, eng->now_us, false);
	}
	schedule_next_action(a);
}

int autoscale_initial_capacity(const struct scenario *sc)
{
	int n = 0;

	if (sc->copies.enabled)
		return sc->copies.initial;

	for (int i = 0; i < sc->nfleet; i++) {
		enum option_kind k = sc->fleet[i].option;
		/* blocks and plans add themselves; a jobs entry's instances are the jobs' (jobs.h) */
		if (k != OPTION_CAPACITY_BLOCK && k != OPTION_TRAINING_PLAN && sc->fleet[i].use != USE_JOBS)
			n += sc->fleet[i].count * sc->fleet[i].weight;  /* in autoscaling's unit */
	}
	if (sc->autoscaling.policy != POLICY_NONE) {
		if (n < sc->autoscaling.min)
			n = sc->autoscaling.min;
		if (n > sc->autoscaling.max)
			n = sc->autoscaling.max;
	}
	return n;
}

/* The GPU metrics when a policy uses one, and the metrics' delay (scenario_gpumetric.c). */
static int setup_gpu_metrics(struct autoscale *a, const struct scenario *sc)
{
	int rc;

	for (int i = -1; i < sc->autoscaling.nalso && sc->autoscaling.policy != POLICY_NONE; i++) {
		enum metric_kind m = i < 0 ? sc->autoscaling.metric : sc->autoscaling.also[i].metric;
		a->gm_on |= m == METRIC_GPU_UTIL || m == METRIC_GPU_MEM;
	}
	if (a->gm_on) {
		if ((rc = gpumetric_init(&a->gm, sc, fleet_capacity(a->fleet))))
			return rc;
		a->serving->gm = &a->gm;
	}
	return metriclag_init(&a->lag, (int)(sc->autoscaling.metric_delay_us / sc->autoscaling.resolution_us),
			      METRIC_KINDS);
}

int autoscale_init(struct autoscale *a, const struct scenario *sc, struct engine *eng, struct meter *meter,
		   struct fleet *fleet, struct serving *serving, struct copies *copies, struct warn *warn)
{
	int rc;

	a->sc = sc;
	a->eng = eng;
	a->meter = meter;
	a->fleet = fleet;
	a->serving = serving;
	a->copies = copies;
	a->warn = warn;
	engine_event_init(&a->evaluate);
	engine_event_init(&a->scheduled);
	a->min = sc->autoscaling.min;
	a->max = sc->autoscaling.max;
	if ((rc = setup_gpu_metrics(a, sc)))
		return rc;
	a->policy = policy_new(sc, &rc);
	if (rc)
		return rc;
	for (int i = 0; i < sc->autoscaling.nalso && sc->autoscaling.policy == POLICY_TARGET_TRACKING; i++) {
		a->also[i] = policy_target_new_for(sc, sc->autoscaling.also[i].target);
		if (!a->also[i])
			return STATUS_ENOMEM;
		a->also[i]->min = sc->autoscaling.min;
		a->also[i]->max = sc->autoscaling.max;
		a->nalso = i + 1;
	}
	return STATUS_OK;
}

void autoscale_start(struct autoscale *a)
{
	const struct scenario *sc = a->sc;

	if (a->policy && sc->autoscaling.resolution_us <= sc->horizon_us)
		schedule_or_fail(a, &a->evaluate, sc->autoscaling.resolution_us, on_evaluate);
	for (int i = 0; i < sc->autoscaling.nschedule; i++)
		a->action_next_us[i] = action_next(a, i, 0, true);
	schedule_next_action(a);
}

void autoscale_stop(struct autoscale *a)
{
	engine_cancel(a->eng, &a->evaluate);
	engine_cancel(a->eng, &a->scheduled);
}

void autoscale_fini(struct autoscale *a)
{
	policy_free(a->policy);
	for (int i = 0; i < a->nalso; i++)
		policy_free(a->also[i]);
	if (a->gm_on)
		gpumetric_fini(&a->gm);
	metriclag_fini(&a->lag);
}

const char *autoscale_event_name(const struct autoscale *a, const struct event *ev)
{
	if (ev == &a->evaluate)
		return "policy evaluation";
	if (ev == &a->scheduled)
		return "scheduled action";
	return NULL;
}
