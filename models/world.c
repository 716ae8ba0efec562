/* world: see world.h. */
#include "world.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "copies.h"
#include "cron.h"
#include "engine.h"
#include "fleet.h"
#include "fluid.h"
#include "gpumetric.h"
#include "jobs.h"
#include "metriclag.h"
#include "multimodel.h"
#include "policy.h"
#include "serving.h"
#include "savings.h"
#include "status.h"
#include "units.h"
#include "workload.h"

struct world {
	const struct scenario *sc;   /* borrowed */
	struct diag *d;              /* where failures are described, borrowed */
	struct engine eng;
	struct workload wl;
	struct meter meter;
	struct fleet fleet;
	struct serving serving;
	struct multimodel mm;        /* several models (sc->nmodels > 0): theirs are the requests (multimodel.h) */
	struct copies copies;        /* model copies: what the policies scale when sc->copies.enabled */
	struct jobs jobs;            /* training and batch jobs, when sc->jobs.n > 0 */
	struct fluid fluid;          /* mode: fluid's periodic tick, in place of the requests (fluid.h) */
	struct gpumetric gm;         /* GPU metrics (gpumetric.h), when gm_on */
	bool gm_on;                  /* a policy uses a GPU metric */
	struct metriclag lag;        /* autoscaling.metric_delay_s (metriclag.h); periods 0 = none */
	struct policy *policy;       /* owned; NULL for `none` */
	struct policy *also[2];      /* owned: more target-tracking policies (autoscaling.also) */
	int nalso;
	int backlog_periods;         /* consecutive evaluations with no capacity and requests waiting (async)
	                                or refused (realtime) */
	uint64_t refused_at_eval;    /* serving's refusals for want of capacity at the previous evaluation */
	struct request_draw next;    /* the arrival scheduled next */
	struct event arrival;
	struct event sample;
	struct event evaluate;
	struct event scheduled;      /* the next scheduled action's firing */
	int64_t action_next_us[SCENARIO_SCHEDULE_MAX];  /* each action's next firing; INT64_MAX = none */
	int min, max;                /* the autoscaling bounds now: the scenario's, then as scheduled */
	double busy_at_eval;         /* meter integrals at the previous evaluation */
	double service_at_eval;
	double slots_at_eval;        /* several types: the meter's service_slot_us at the previous evaluation */
	double type_service_at_eval[METER_TYPES_MAX];  /* several types, capacity_unit gpus or slots: each
	                                                   type's service_inst_us then */
	double queued_at_eval;
	double queued_served_at_eval;
	uint64_t arrivals_at_eval;
	struct warn warn;            /* what the warnings need, counted as the run goes (warn.h) */
	const struct world_progress *progress;  /* told at every sample; NULL = nobody; borrowed */
};

/* Several instance types: tell the meter each one's GPUs, slots and price (meter_types.c). */
static void set_meter_types(struct world *w)
{
	const char *names[SCENARIO_TYPES_MAX];
	int gpus[SCENARIO_TYPES_MAX], slots[SCENARIO_TYPES_MAX];
	double od[SCENARIO_TYPES_MAX];

	_Static_assert(SCENARIO_TYPES_MAX <= METER_TYPES_MAX, "the meter holds every type");
	for (int i = 0; i < w->sc->ntypes; i++) {
		names[i] = w->sc->types[i].name;
		gpus[i] = w->sc->types[i].gpus;
		slots[i] = w->sc->types[i].slots;
		od[i] = w->sc->types[i].od_usd_per_h;
	}
	meter_types_set(&w->meter, w->sc->ntypes, names, gpus, slots, od);
}

static void schedule_or_fail(struct world *w, struct event *ev, int64_t t_us,
			     void (*fn)(struct engine *, struct event *))
{
	int rc = engine_schedule(&w->eng, ev, t_us, fn);

	if (rc != STATUS_OK) {
		meter_fail(&w->meter, rc);
		engine_stop(&w->eng);
	}
}

static void on_arrival(struct engine *eng, struct event *ev);

/* Draw the next request and schedule its arrival; a source that fails (a malformed trace line found while
 * streaming) stops the run with its own message. */
static void next_arrival(struct world *w)
{
	int rc = workload_next(&w->wl, &w->next, w->d);

	if (rc == STATUS_OK) {
		/* arrivals come one after another: the engine keeps the next one beside its heap (engine.h) */
		rc = engine_schedule_lane(&w->eng, &w->arrival, w->next.arrival_us, on_arrival);
		if (rc != STATUS_OK) {
			meter_fail(&w->meter, rc);
			engine_stop(&w->eng);
		}
	} else if (rc != STATUS_DONE) {
		if (w->meter.status == STATUS_OK)
			w->meter.status = rc; /* the message is already in w->d */
		engine_stop(&w->eng);
	}
}

static void on_arrival(struct engine *eng, struct event *ev)
{
	struct world *w = container_of(ev, struct world, arrival);

	(void)eng;
	warn_arrival(&w->warn);
	serving_arrive(&w->serving, &w->next);
	next_arrival(w);
}

static int capacity_max(const struct world *w);

/* What serves now: copies serving with copies, else instances in service (serving or draining). */
static int serving_now(const struct world *w)
{
	return w->sc->copies.enabled ? w->meter.copies : w->meter.in_service;
}

/* Requests waiting now: serving's queue, or in fluid mode the fluid backlog (rounded). */
static int64_t queue_now(const struct world *w)
{
	if (w->sc->nmodels > 0)
		return multimodel_queue_len(&w->mm);
	return w->sc->mode == MODE_FLUID ? fluid_queue_len(&w->fluid) : serving_queue_len(&w->serving);
}

static void on_sample(struct engine *eng, struct event *ev)
{
	struct world *w = container_of(ev, struct world, sample);

	meter_sample(&w->meter, eng->now_us, queue_now(w), fleet_cost_rate(&w->fleet, eng->now_us));
	warn_sample(&w->warn, eng->now_us, serving_now(w), capacity_max(w), queue_now(w));
	if (w->meter.status != STATUS_OK) {
		engine_stop(eng);
		return;
	}
	if (w->progress)
		w->progress->fn(w->progress->arg, (double)eng->now_us / SIM_US_PER_S,
				(double)w->sc->horizon_us / SIM_US_PER_S);
	if (eng->now_us + w->sc->sample_period_us <= w->sc->horizon_us)
		schedule_or_fail(w, &w->sample, eng->now_us + w->sc->sample_period_us, on_sample);
}

/*
 * With autoscaling.capacity_unit gpus or slots: the units in service over the period just ended (unit-us),
 * given its instance-us `service`: with one type, service x the serving entries' weight (one type, one
 * weight); with several, each type's instance-us (meter_types.c, since the previous evaluation) x its weight.
 */
static double ready_units(struct world *w, double service)
{
	const struct meter_types *t = &w->meter.types;
	double units = 0;

	if (t->n <= 1)
		return service * (w->sc->autoscaling.capacity_unit == UNIT_GPUS ? w->sc->types[0].gpus :
				  w->sc->types[0].slots);
	for (int i = 0; i < t->n; i++) {
		double wt = w->sc->autoscaling.capacity_unit == UNIT_GPUS ? t->type[i].gpus : t->type[i].slots;
		units += (t->type[i].service_inst_us - w->type_service_at_eval[i]) * wt;
		w->type_service_at_eval[i] = t->type[i].service_inst_us;
	}
	return units;
}

/* Every metric over the period since the previous evaluation, by metric kind (NaN when nothing was in
 * service), and in *ready the instances (with copies: copies) in service on average over it. */
static void measure_all(struct world *w, double metric[METRIC_KINDS], double *ready)
{
	struct meter *m = &w->meter;
	double busy = m->busy_slot_us_all - w->busy_at_eval;
	/* with copies every metric is per copy (SOURCES.md [sm-ic-copies], [sm-concurrency-metric]) */
	double served_us = w->sc->copies.enabled ? m->service_copy_us : m->service_inst_us;
	double service = served_us - w->service_at_eval;
	double span_us = (double)w->sc->autoscaling.resolution_us;
	double arrivals = (double)(m->arrivals - w->arrivals_at_eval), slots;
	double queued = m->queued_us - w->queued_at_eval;
	double waiting = m->queued_served_us - w->queued_served_at_eval;

	w->busy_at_eval = m->busy_slot_us_all;
	w->queued_served_at_eval = m->queued_served_us;
	w->service_at_eval = served_us;
	slots = m->types.service_slot_us - w->slots_at_eval;
	w->slots_at_eval = m->types.service_slot_us;
	w->arrivals_at_eval = m->arrivals;
	w->queued_at_eval = m->queued_us;
	for (int k = 0; k < METRIC_KINDS; k++)
		metric[k] = NAN;
	if (w->gm_on)  /* over its own instances counted (gpumetric.h) */
		gpumetric_take(&w->gm, w->eng.now_us, &metric[METRIC_GPU_UTIL], &metric[METRIC_GPU_MEM]);
	*ready = service > 0 ? service / span_us : 0;
	if (w->sc->autoscaling.capacity_unit != UNIT_INSTANCES && service > 0)
		*ready = ready_units(w, service) / span_us;  /* in autoscaling's unit, like the capacity */
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
	metric[METRIC_CONCURRENCY] = (busy + waiting) / (m->types.n > 1 ? slots : service * w->sc->serving.slots);
	/* average requests waiting / average instances in service */
	metric[METRIC_BACKLOG] = queued / service;
	/* invocations per instance per minute: arrivals over the period, per average instance in service */
	metric[METRIC_INVOCATIONS] = arrivals * (60.0 * SIM_US_PER_S / span_us) / (service / span_us);
}

/* The scalable target's capacity now: desired copies with copies, else desired instances. */
static int capacity_now(const struct world *w)
{
	return w->sc->copies.enabled ? w->copies.desired : w->fleet.desired;
}

/* The most the scalable target may hold now: the autoscaling max in force, and for instances the fleet
 * entries' max (fleet_capacity) too. */
static int capacity_max(const struct world *w)
{
	int entries = fleet_serving_capacity(&w->fleet);

	return w->sc->copies.enabled || w->max < entries ? w->max : entries;
}

/* Set the scalable target's capacity; returns what it became (the fleet clamps instances). */
static int capacity_set(struct world *w, int n)
{
	return w->sc->copies.enabled ? copies_set_desired(&w->copies, n) : fleet_set_desired(&w->fleet, n);
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
static bool scale_from_zero(struct world *w, int64_t now)
{
	uint64_t refused = w->serving.refused_closed - w->refused_at_eval;
	bool breach = w->serving.realtime ? refused >= 1 : serving_queue_len(&w->serving) >= 1;

	w->refused_at_eval = w->serving.refused_closed;
	if (!w->sc->autoscaling.scale_from_zero || capacity_now(w) > 0 || !breach) {
		w->backlog_periods = 0;
		return false;
	}
	if (++w->backlog_periods < 2)
		return false;
	w->backlog_periods = 0;
	warn_scaling(&w->warn, now, +1);
	meter_event(&w->meter, now, "scale_out", NULL, capacity_set(w, 1), w->serving.realtime ?
		    "scale from zero: invocations refused without capacity for 2 periods (+1)" :
		    "scale from zero: backlog without capacity for 2 periods (+1)");
	w->meter.scale_outs++;
	return true;
}

static void on_evaluate(struct engine *eng, struct event *ev)
{
	struct world *w = container_of(ev, struct world, evaluate);
	struct policy_input in;
	struct policy_decision out;
	double arrivals, busy_us, metric[METRIC_KINDS];

	meter_advance(&w->meter, eng->now_us);
	/* the period's arrivals and busy time, read before measure() moves the marks to now */
	arrivals = (double)(w->meter.arrivals - w->arrivals_at_eval);
	busy_us = w->meter.busy_slot_us_all - w->busy_at_eval;
	in.arrivals_per_s = arrivals * SIM_US_PER_S / (double)w->sc->autoscaling.resolution_us;
	in.busy_per_arrival_s = arrivals > 0 ? busy_us / SIM_US_PER_S / arrivals : NAN;
	in.slots = w->sc->serving.slots;
	in.now_us = eng->now_us;
	measure_all(w, metric, &in.ready);
	metriclag_push(&w->lag, metric);  /* SOURCES.md [cw-metric-delay]: the policies see them late */
	if (scale_from_zero(w, eng->now_us))
		goto next;
	in.metric = metric[w->sc->autoscaling.metric];
	in.capacity = capacity_now(w);
	w->policy->ops->decide(w->policy, &in, &out);
	for (int i = 0; i < w->nalso; i++) {
		struct policy_decision other;
		in.metric = metric[w->sc->autoscaling.also[i].metric];
		w->also[i]->ops->decide(w->also[i], &in, &other);
		combine(&out, &other);
	}
	if (out.action != POLICY_HOLD) {
		/* the bounds may have been moved by a scheduled action since the policy copied them */
		int want = out.desired < w->min ? w->min : out.desired > w->max ? w->max : out.desired;
		out.action = want > in.capacity ? POLICY_SCALE_OUT : want < in.capacity ? POLICY_SCALE_IN
			     : POLICY_HOLD;
		out.desired = want;
	}
	/* replacements launched ahead of a shared reservation going to the jobs are not scaled in before it goes
	 * (fleet_share.c): the policy counts the reservation's instances, which are about to leave */
	if (out.action == POLICY_SCALE_IN && eng->now_us < w->fleet.hold_scale_in_until_us)
		out.action = POLICY_HOLD;
	if (out.action != POLICY_HOLD) {
		int got = capacity_set(w, out.desired);
		bool out_ = out.action == POLICY_SCALE_OUT;
		if (out_)
			w->meter.scale_outs++;
		else
			w->meter.scale_ins++;
		warn_scaling(&w->warn, eng->now_us, out_ ? +1 : -1);
		meter_event(&w->meter, eng->now_us, out_ ? "scale_out" : "scale_in", NULL, got, out.reason);
	}
next:
	if (eng->now_us + w->sc->autoscaling.resolution_us <= w->sc->horizon_us)
		schedule_or_fail(w, &w->evaluate, eng->now_us + w->sc->autoscaling.resolution_us, on_evaluate);
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

/* Action i's first firing strictly after run time after_us (or at/after 0 when first_run), or INT64_MAX
 * when it has none within the horizon. O(days searched) for cron, once per firing. */
static int64_t action_next(const struct world *w, int i, int64_t after_us, bool first_run)
{
	const struct scenario *sc = w->sc;
	const struct scheduled_action *a = &sc->autoscaling.schedule[i];
	int64_t at_s, t_us;

	if (!a->recurring) {
		t_us = a->at_unix_us - sc->start_unix_us;
		if (!first_run || t_us < 0 || t_us > sc->horizon_us)
			return INT64_MAX; /* a one-off action runs once, and never before the start */
		return t_us;
	}
	/* cron firings are whole seconds (whole minutes): the first one strictly after the unix time
	 * start + after_us is the first strictly after its whole second; from the start, a firing at the
	 * start itself counts (strictly after start - 1 us) */
	if (cron_next(&a->cron, units_floor_s(sc->start_unix_us + (first_run ? -1 : after_us)), &at_s) !=
	    STATUS_OK)
		return INT64_MAX;
	t_us = at_s * SIM_US_PER_S - sc->start_unix_us;
	return t_us > sc->horizon_us ? INT64_MAX : t_us;
}

static void on_scheduled(struct engine *eng, struct event *ev);

/* Set the event for the earliest pending firing, if any falls within the horizon. */
static void schedule_next_action(struct world *w)
{
	int64_t t = INT64_MAX;

	for (int i = 0; i < w->sc->autoscaling.nschedule; i++)
		if (w->action_next_us[i] < t)
			t = w->action_next_us[i];
	if (t <= w->sc->horizon_us)
		schedule_or_fail(w, &w->scheduled, t, on_scheduled);
}

/* Run one action: move the bounds (the one given wins if they would cross), then the capacity into them. */
static void run_action(struct world *w, const struct scheduled_action *a, int64_t now_us)
{
	char detail[48];
	int cur = capacity_now(w), got = cur, want;

	if (a->min >= 0) {
		w->min = a->min;
		if (w->max < w->min)
			w->max = w->min;
	}
	if (a->max >= 0) {
		w->max = a->max;
		if (w->min > w->max)
			w->min = w->max;
	}
	if (w->policy) {
		w->policy->min = w->min;
		w->policy->max = w->max;
	}
	for (int i = 0; i < w->nalso; i++) {
		w->also[i]->min = w->min;
		w->also[i]->max = w->max;
	}
	want = cur < w->min ? w->min : cur > w->max ? w->max : cur;
	if (want != cur)
		got = capacity_set(w, want);
	snprintf(detail, sizeof detail, "min=%d max=%d", w->min, w->max);
	meter_event(&w->meter, now_us, "scheduled", NULL, got, detail);
}

static void on_scheduled(struct engine *eng, struct event *ev)
{
	struct world *w = container_of(ev, struct world, scheduled);
	const struct scenario *sc = w->sc;

	meter_advance(&w->meter, eng->now_us);
	for (int i = 0; i < sc->autoscaling.nschedule; i++) {
		if (w->action_next_us[i] != eng->now_us)
			continue;
		run_action(w, &sc->autoscaling.schedule[i], eng->now_us);
		w->action_next_us[i] = action_next(w, i, eng->now_us, false);
	}
	schedule_next_action(w);
}

/* Starting capacity: the counts in the fleet, raised to autoscaling.min and capped at max if scaling;
 * with copies, the initial copies (the scenario loader settled them). */
static int initial_capacity(const struct scenario *sc)
{
	int n = 0;

	if (sc->copies.enabled)
		return sc->copies.initial;

	for (int i = 0; i < sc->nfleet; i++) {
		enum option_kind k = sc->fleet[i].option;
		/* blocks and plans add themselves; a jobs entry's instances are the jobs' (jobs.h) */
		if (k != OPTION_CAPACITY_BLOCK && k != OPTION_TRAINING_PLAN && k != OPTION_SAVINGS_PLAN &&
		    sc->fleet[i].use != USE_JOBS)
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

/* How far `start` lies past the UTC hour mark before it: Savings Plans settle by clock hour
 * (SOURCES.md [sp-clock-hour]). */
static int64_t hour_phase_us(const struct scenario *sc)
{
	int64_t h = 3600 * SIM_US_PER_S, s = sc->start_unix_us % h;

	return s < 0 ? s + h : s;
}

/* Where the measured window starts, for the warnings: the warm-up's end. */
static int64_t measured_from_us(const struct scenario *sc)
{
	return sc->warmup_us;
}

/* How far `start` lies past the last UTC mark of an SLO window (windows are aligned to clock times from
 * midnight; a window divides a day, so the epoch, a midnight, is such a mark). 0 without a window. */
static int64_t window_phase_us(const struct scenario *sc)
{
	int64_t wl = sc->slo.window_us, s;

	if (wl <= 0)
		return 0;
	s = sc->start_unix_us % wl;
	return s < 0 ? s + wl : s;
}

/* The serving user of the fleet's instances (fleet.h): with model copies an instance serves once a copy
 * has loaded on it, so copies hear of it first; when it goes down copies lose theirs before serving drains. */
static void serving_user_up(void *ctx, int idx)
{
	struct world *w = ctx;

	if (w->sc->copies.enabled)
		copies_instance_up(&w->copies, idx);
	else
		serving_instance_up(&w->serving, idx);
	if (w->sc->nmodels > 0)
		multimodel_instance_up(&w->mm, idx);
}

static void serving_user_down(void *ctx, int idx)
{
	struct world *w = ctx;

	if (w->sc->copies.enabled)
		copies_instance_down(&w->copies, idx);
	serving_instance_down(&w->serving, idx);
	if (w->sc->nmodels > 0)
		multimodel_instance_down(&w->mm, idx);
}

static void serving_user_reclaim(void *ctx, int idx)
{
	struct world *w = ctx;

	serving_reclaim(&w->serving, idx);
	if (w->sc->nmodels > 0)
		multimodel_reclaim(&w->mm, idx);
}

/* The GPU metrics when a policy uses one, and the metrics' delay (scenario_gpumetric.c). */
static int setup_gpu_metrics(struct world *w, const struct scenario *sc)
{
	int rc;

	for (int i = -1; i < sc->autoscaling.nalso && sc->autoscaling.policy != POLICY_NONE; i++) {
		enum metric_kind m = i < 0 ? sc->autoscaling.metric : sc->autoscaling.also[i].metric;
		w->gm_on |= m == METRIC_GPU_UTIL || m == METRIC_GPU_MEM;
	}
	if (w->gm_on) {
		if ((rc = gpumetric_init(&w->gm, sc, fleet_capacity(&w->fleet))))
			return rc;
		w->serving.gm = &w->gm;
	}
	return metriclag_init(&w->lag, (int)(sc->autoscaling.metric_delay_us / sc->autoscaling.resolution_us),
			      METRIC_KINDS);
}

static int setup(struct world *w, const struct scenario *sc, struct sink *sink, struct diag *d)
{
	int rc, slots = 0;

	w->sc = sc;
	w->d = d;
	engine_init(&w->eng);
	/* several models: every partition of an instance is a slot: a busy one counts as 1 / (partitions per GPU) GPU */
	for (int i = 0; i < sc->nmodels; i++)
		slots += sc->models[i].slots;
	rc = meter_init(&w->meter, *sink, d, sc->slo.latency_us, sc->serving.gpus, sc->nmodels ? slots : sc->serving.slots,
			sc->horizon_us, hour_phase_us(sc), sc->sample_period_us);
	if (rc)
		return rc;
	engine_event_init(&w->arrival);
	engine_event_init(&w->sample);
	engine_event_init(&w->evaluate);
	engine_event_init(&w->scheduled);
	w->min = sc->autoscaling.min;
	w->max = sc->autoscaling.max;
	meter_set_ttft_slo(&w->meter, sc->slo.ttft_us);
	meter_set_prices(&w->meter, sc->start_unix_us, sc->serving.od_usd_per_h);
	set_meter_types(w);
	warn_init(&w->warn, measured_from_us(sc), hour_phase_us(sc));
	world_memory_estimate(sc, &w->warn.mem);
	meter_set_warmup(&w->meter, sc->warmup_us);
	meter_set_slo(&w->meter, &(struct meter_slo){
		.latency_pct_us = { sc->slo.latency_pct_us[0], sc->slo.latency_pct_us[1], sc->slo.latency_pct_us[2],
				    sc->slo.latency_pct_us[3] },
		.ttft_pct_us = { sc->slo.ttft_pct_us[0], sc->slo.ttft_pct_us[1], sc->slo.ttft_pct_us[2],
				 sc->slo.ttft_pct_us[3] },
		.tpot_pct_us = { sc->slo.tpot_pct_us[0], sc->slo.tpot_pct_us[1], sc->slo.tpot_pct_us[2],
				 sc->slo.tpot_pct_us[3] },
		.max_violation_rate = sc->slo.max_violation_rate,
		.window_us = sc->slo.window_us,
		.window_phase_us = window_phase_us(sc) });
	/* a jobs-only scenario has no traffic: no source, no arrival, serving simply has nothing; in fluid
	 * mode the tick stands in for the source */
	if (sc->mode == MODE_FLUID)
		fluid_init(&w->fluid, sc, &w->eng, &w->meter);
	else if (!sc->no_traffic && sc->nmodels == 0 && (rc = workload_init(&w->wl, sc, d)) != STATUS_OK)
		return rc;
	rc = fleet_init(&w->fleet, sc, &w->eng, &w->meter);
	if (rc)
		return rc;
	rc = serving_init(&w->serving, sc, &w->eng, &w->meter, &w->fleet, fleet_capacity(&w->fleet));
	if (rc)
		return rc;
	if (sc->nmodels > 0 && (rc = multimodel_init(&w->mm, sc, &w->eng, &w->meter, &w->fleet, d)) != STATUS_OK)
		return rc;
	if (sc->copies.enabled) {
		rc = copies_init(&w->copies, sc, &w->eng, &w->meter, &w->fleet, &w->serving,
				 fleet_capacity(&w->fleet));
		if (rc)
			return rc;
		w->fleet.managed_initial = true;
		meter_set_copies(&w->meter, sc->copies.gpus);
	}
	fleet_set_user(&w->fleet, FLEET_USER_SERVING, &(struct fleet_user){
		.up = serving_user_up, .down = serving_user_down, .reclaim = serving_user_reclaim, .ctx = w });
	if (sc->jobs.n > 0 && (rc = jobs_init(&w->jobs, sc, &w->eng, &w->meter, &w->fleet)) != STATUS_OK)
		return rc;
	if ((rc = setup_gpu_metrics(w, sc)))
		return rc;
	w->policy = policy_new(sc, &rc);
	if (rc)
		return rc;
	for (int i = 0; i < sc->autoscaling.nalso && sc->autoscaling.policy == POLICY_TARGET_TRACKING; i++) {
		w->also[i] = policy_target_new_for(sc, sc->autoscaling.also[i].target);
		if (!w->also[i])
			return STATUS_ENOMEM;
		w->also[i]->min = sc->autoscaling.min;
		w->also[i]->max = sc->autoscaling.max;
		w->nalso = i + 1;
	}
	/* each job has 4 events of its own (jobs.h) */
	return evq_reserve(&w->eng.q, (size_t)fleet_capacity(&w->fleet) + 4 * (size_t)sc->jobs.n + 1024);
}

/* The engine goes first: a run that failed part-way leaves events queued, and evq_fini() marks them
 * unqueued, so the models that own them must not have freed them yet. */
static void teardown(struct world *w)
{
	engine_fini(&w->eng);
	policy_free(w->policy);
	for (int i = 0; i < w->nalso; i++)
		policy_free(w->also[i]);
	if (w->sc->copies.enabled)
		copies_fini(&w->copies);
	serving_fini(&w->serving);
	if (w->gm_on)
		gpumetric_fini(&w->gm);
	metriclag_fini(&w->lag);
	multimodel_fini(&w->mm);
	if (w->sc->jobs.n > 0)
		jobs_fini(&w->jobs);
	fleet_fini(&w->fleet);
	workload_fini(&w->wl);
	meter_fini(&w->meter);
}

static void run_to_horizon(struct world *w)
{
	const struct scenario *sc = w->sc;

	int rc = sc->copies.enabled ? copies_start(&w->copies, initial_capacity(sc))
				    : fleet_start(&w->fleet, initial_capacity(sc));

	if (rc == STATUS_OK && sc->jobs.n > 0)
		rc = jobs_start(&w->jobs);
	if (rc != STATUS_OK)
		return;
	/* the fluid tick is scheduled before the sample and the evaluation, so that at equal times it runs
	 * first (engine.h) and they see the period it closes */
	if (sc->mode == MODE_FLUID && (rc = fluid_start(&w->fluid)) != STATUS_OK) {
		meter_fail(&w->meter, rc);
		return;
	}
	if (sc->nmodels > 0)
		multimodel_start(&w->mm);
	else if (!sc->no_traffic && sc->mode != MODE_FLUID)
		next_arrival(w);
	if (sc->sample_period_us <= sc->horizon_us)
		schedule_or_fail(w, &w->sample, sc->sample_period_us, on_sample);
	if (w->policy && sc->autoscaling.resolution_us <= sc->horizon_us)
		schedule_or_fail(w, &w->evaluate, sc->autoscaling.resolution_us, on_evaluate);
	for (int i = 0; i < sc->autoscaling.nschedule; i++)
		w->action_next_us[i] = action_next(w, i, 0, true);
	schedule_next_action(w);
	engine_run(&w->eng, sc->horizon_us);
}

/* The name of an event, for messages: the world's own by name, the models' by their owner. */
static const char *event_name(const struct world *w, const struct event *ev)
{
	if (ev == &w->arrival)
		return "arrival";
	if (ev == &w->sample)
		return "sample";
	if (ev == &w->evaluate)
		return "policy evaluation";
	if (ev == &w->scheduled)
		return "scheduled action";
	return "fleet, serving or copies";
}

/*
 * An event scheduled into the past fails the run in every build (engine.h): the clock must never run
 * backwards. The message names the event and both times; the run's status becomes STATUS_EINTERNAL (exit 1),
 * whatever the model that met the refusal made of it, so the sink rolls the run back.
 */
static void fail_if_refused(struct world *w)
{
	const struct engine *eng = &w->eng;

	if (!eng->refused)
		return;
	w->meter.status = STATUS_EINTERNAL;
	diag_fail(w->d, STATUS_EINTERNAL, "simulation failed: the %s event was scheduled at t = %.6f s, before "
		  "the clock (t = %.6f s); time must never run backwards", event_name(w, eng->refused),
		  (double)eng->refused_t_us / SIM_US_PER_S, (double)eng->refused_now_us / SIM_US_PER_S);
}

/*
 * A run whose clock stopped advancing (more than ENGINE_SAME_INSTANT_MAX events at one instant, engine.h)
 * fails in every build, with the instant and the kinds of event that kept coming, STATUS_EINTERNAL (exit 1).
 * Called once the loop has returned, before the horizon is closed.
 */
static void fail_if_stalled(struct world *w)
{
	const struct engine *eng = &w->eng;
	char kinds[160] = "";
	size_t len = 0;

	if (!eng->stalled || w->meter.status != STATUS_OK)
		return;  /* an earlier failure is the one to report */
	for (int i = 0; i < eng->nstalled_ev && len < sizeof kinds; i++) {
		const char *name = event_name(w, eng->stalled_ev[i]);
		if (strstr(kinds, name))
			continue;  /* the models' events share one name */
		len += (size_t)snprintf(kinds + len, sizeof kinds - len, "%s%s", len ? ", " : "", name);
	}
	w->meter.status = STATUS_EINTERNAL;
	diag_fail(w->d, STATUS_EINTERNAL, "simulation failed: more than %" PRIu64 " events at t = %.6f s without "
		  "the clock advancing (%s events); a rate or delay too small to move time forward?",
		  eng->same_instant_max, (double)eng->now_us / SIM_US_PER_S, kinds[0] ? kinds : "unknown");
}

/* Settle the Savings Plans, and report what their terms still cost after the horizon. */
static void settle(struct world *w)
{
	const struct scenario *sc = w->sc;
	struct savings_plan_terms plans[SCENARIO_FLEET_MAX];
	int n = 0;

	_Static_assert(SCENARIO_TYPES_MAX <= SAVINGS_TYPES_MAX, "a plan has a discount for every type");
	for (int i = 0; i < sc->nfleet; i++) {
		const struct fleet_entry *e = &sc->fleet[i];
		if (e->option != OPTION_SAVINGS_PLAN)
			continue;
		plans[n].commit_usd_per_h = e->commit_usd_per_h;
		plans[n].discount = e->discount;
		plans[n].ntypes = sc->ntypes > 1 ? sc->ntypes : 0;  /* each type at its own rate */
		for (int t = 0; t < plans[n].ntypes; t++)
			plans[n].type_discount[t] = e->type_discount[t];
		n++;
		double term_h = e->term == TERM_3Y ? 26280.0 : 8760.0;
		double end_h = (double)(e->term_start_unix_us - sc->start_unix_us) / 3.6e9 + term_h;
		double horizon_h = (double)sc->horizon_us / 3.6e9;
		if (end_h > horizon_h)
			meter_after_horizon(&w->meter, OPTION_SAVINGS_PLAN, e->commit_usd_per_h * (end_h - horizon_h));
	}
	meter_settle(&w->meter, plans, n);
}

/* Close the window at the horizon, then let the requests in the system finish. */
static void drain(struct world *w)
{
	engine_advance(&w->eng, w->sc->horizon_us);
	meter_close(&w->meter, w->sc->horizon_us);
	if (w->sc->jobs.n > 0)
		jobs_close(&w->jobs, w->sc->horizon_us);
	fleet_close(&w->fleet, w->sc->horizon_us);
	if (w->sc->copies.enabled)
		copies_close(&w->copies);
	engine_cancel(&w->eng, &w->arrival);
	multimodel_stop(&w->mm);
	engine_cancel(&w->eng, &w->sample);
	engine_cancel(&w->eng, &w->evaluate);
	engine_cancel(&w->eng, &w->scheduled);
	if (w->sc->mode == MODE_FLUID)
		engine_cancel(&w->eng, &w->fluid.tick);
	settle(w);
	engine_run(&w->eng, SIM_TIME_MAX);
	serving_abandon(&w->serving);
	multimodel_abandon(&w->mm);
	if (w->sc->mode == MODE_FLUID)
		fluid_close(&w->fluid);
	meter_finish(&w->meter);
}

/*
 * The conservation identities of the finished run (meter_conserved, jobs_conserved), checked in builds
 * without NDEBUG: a broken one is a bug of the model, reported like fail_if_refused's (exit 1, the identity
 * in the message) rather than a silently wrong answer. Release builds skip it.
 */
static void check_conserved(struct world *w)
{
#ifndef NDEBUG
	char why[256];

	if (w->meter.status != STATUS_OK)
		return;
	if (meter_conserved(&w->meter, why, sizeof why) &&
	    (w->sc->jobs.n == 0 || jobs_conserved(&w->jobs, why, sizeof why)))
		return;
	w->meter.status = STATUS_EINTERNAL;
	diag_fail(w->d, STATUS_EINTERNAL, "simulation failed: a conservation identity does not hold: %s", why);
#else
	(void)w;
#endif
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

int world_run(const struct scenario *sc, struct sink *sink, const char *version, struct world_report *rep,
	      struct diag *d)
{
	return world_run_progress(sc, sink, version, NULL, rep, d);
}

/* A copy of the eligible usage world_run_usage hands back (the measured hours with a warm-up). */
static int copy_usage(const struct world *w, struct savings_hour **hours, int *nhours, struct diag *d)
{
	const struct meter *m = &w->meter;
	const struct savings_hour *src = m->warmup_us > 0 ? m->usage_meas_by_hour : m->usage_by_hour;
	int h0 = 0, n;
	struct savings_hour *copy;

	while (m->warmup_us > 0 && h0 < m->nhours && src[h0].len_h <= 0)
		h0++;  /* hours wholly inside the warm-up, as meter_settle skips them */
	n = m->nhours - h0;
	copy = malloc(sizeof *copy * (size_t)(n > 0 ? n : 1));
	if (!copy)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	memcpy(copy, src + h0, sizeof *copy * (size_t)n);
	*hours = copy;
	*nhours = n;
	return STATUS_OK;
}

static int run_world(const struct scenario *sc, struct sink *sink, const char *version,
		     const struct world_progress *progress, struct world_report *rep, struct savings_hour **hours,
		     int *nhours, struct diag *d)
{
	struct world *w = calloc(1, sizeof *w);
	struct sink_run_info info;
	struct timespec t0;
	char started[32];
	int rc;

	if (!w)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	units_format_time((int64_t)time(NULL), started, sizeof started);
	info.scenario = sc;
	info.started_at = started;
	info.version = version;
	w->progress = progress;
	rc = setup(w, sc, sink, d);
	if (rc) {
		if (rc == STATUS_ENOMEM)
			diag_fail(d, rc, "cannot set up the simulation: %s", status_str(rc));
		goto out_teardown;
	}
	rc = sink->ops->begin(sink->self, &info);
	if (rc)
		goto out_teardown;
	run_to_horizon(w);
	fail_if_stalled(w);
	if (w->meter.status == STATUS_OK)
		drain(w);
	fail_if_stalled(w);
	fail_if_refused(w);
	check_conserved(w);
	rc = meter_flush(&w->meter);
	if (rc == STATUS_OK)
		rc = meter_emit_bill(&w->meter);
	if (rc == STATUS_OK)
		rc = meter_emit_hours(&w->meter);
	if (rc)
		goto out_end;
	rep->nmetrics = meter_report(&w->meter, w->eng.events_run, seconds_since(&t0), rep->metrics);
	if (sc->jobs.n > 0)
		rep->nmetrics = jobs_report(&w->jobs, rep->metrics, rep->nmetrics);
	rep->nmetrics = multimodel_report(&w->mm, rep->metrics, rep->nmetrics);
	rep->nwarnings = warn_collect(&w->warn, sc, rep->metrics, rep->nmetrics, rep->warnings, WARN_MAX);
	rc = sink->ops->warnings(sink->self, rep->warnings, (size_t)rep->nwarnings);
	if (rc)
		goto out_end;
	rc = sink->ops->metrics(sink->self, rep->metrics, (size_t)rep->nmetrics);
out_end:
	{
		int rc_end = sink->ops->end(sink->self, rc, seconds_since(&t0));
		if (rc == STATUS_OK)
			rc = rc_end;
	}
	if (rc == STATUS_OK && hours)
		rc = copy_usage(w, hours, nhours, d);
out_teardown:
	teardown(w);
	free(w);
	return rc;
}

int world_run_progress(const struct scenario *sc, struct sink *sink, const char *version,
		       const struct world_progress *progress, struct world_report *rep, struct diag *d)
{
	return run_world(sc, sink, version, progress, rep, NULL, NULL, d);
}

int world_run_usage(const struct scenario *sc, struct sink *sink, const char *version, struct world_report *rep,
		    struct savings_hour **hours, int *nhours, struct diag *d)
{
	return run_world(sc, sink, version, NULL, rep, hours, nhours, d);
}

double world_report_get(const struct world_report *rep, const char *name)
{
	for (int i = 0; i < rep->nmetrics; i++)
		if (strcmp(rep->metrics[i].name, name) == 0)
			return rep->metrics[i].value;
	return NAN;
}
