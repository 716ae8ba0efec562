/*
 * policy_step: Application Auto Scaling step scaling on two CloudWatch-style alarms, as documented
 * (SOURCES.md [step-bounds], [step-adjustments], [step-alarms]; source
 * doc_source/application-auto-scaling-step-scaling-policies.md).
 *
 * The alarms. Each evaluation (one per autoscaling.resolution_s) adds one datapoint, the metric over the
 * period just ended, to both alarms. An alarm is in ALARM when at least datapoints_to_alarm of its last
 * evaluation_periods datapoints breach its threshold (datapoint <comparison> threshold). A missing
 * datapoint (NaN: nothing in service) does not breach and counts as missing: CloudWatch's default
 * "missing" treatment looks further back for datapoints, which is not modelled; here a missing datapoint
 * simply takes a place among the last evaluation_periods without breaching. Before evaluation_periods
 * datapoints exist, the places not yet filled count as missing. While an alarm is in ALARM it invokes the
 * policy at every evaluation (an assumption, SOURCES.md [step-alarms]: the alarm keeps invoking while it
 * stays in ALARM; the cooldowns below are what stop repeated actions).
 *
 * Rules applied when an alarm is in ALARM (SOURCES.md [step-bounds], [step-adjustments], [aas-cooldown-out],
 * [aas-cooldown-in]):
 *  - The step is the one whose bounds, relative to the threshold, contain the latest datapoint:
 *    "Above threshold: lower bound inclusive, upper exclusive; below threshold: lower exclusive, upper
 *    inclusive". An alarm that breaches above (greater, greater_or_equal) uses the first rule, one that
 *    breaches below the second. A null lower bound is -inf, a null upper +inf. The datapoint is compared
 *    with threshold + bound rather than (datapoint - threshold) with bound, so that 0.6 against a
 *    threshold of 0.5 and a bound of 0.1 is "at 0.6" as the user wrote it (0.6 - 0.5 < 0.1 in binary).
 *    No step containing the datapoint (the alarm is in ALARM on older datapoints): no action.
 *    When the latest datapoint is missing there is nothing to place in a step: no action (policy.h).
 *  - ChangeInCapacity adds the adjustment; ExactCapacity sets it; PercentChangeInCapacity adds
 *    adjustment % of the capacity, rounded: "> 1 rounded down; 0..1 -> 1; -1..0 -> -1; < -1 rounded up
 *    (toward zero)" ("30% of 11 = 3.3 -> 3"), and then raised to MinAdjustmentMagnitude in size if it is
 *    smaller. The result is clamped to [min, max]; no change, no action.
 *  - Scale-out cooldown: "capacity added by the initiating scale-out counts toward next scale-out's
 *    desired capacity" ("step +2 completes, alarm fires again with +3 step during cooldown -> only +1
 *    added"). So during the cooldown the step is applied to the capacity before the initiating scale-out
 *    and acted on only if the result exceeds the current capacity. A further scale-out in the cooldown
 *    restarts it, keeping the same base (as policy_target.c does).
 *  - Scale-in cooldown: "scale-in blocked until expiry, but a scale-out alarm during scale-in cooldown
 *    scales out immediately and ends the cooldown".
 *  - Both alarms in ALARM (overlapping thresholds): the scale-out alarm is asked first and a scale-out
 *    wins, in the spirit of "scale out if ANY policy ready to scale out" for several policies.
 * The direction of an action is the sign of the change, whichever alarm asked for it.
 */
#include "policy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

/* An alarm's settings (copied from the scenario) and its last evaluation_periods datapoints. */
struct alarm {
	struct step_alarm cfg;                          /* cfg.enabled false when the scenario omits it */
	bool breach[SCENARIO_ALARM_PERIODS_MAX];        /* ring of the last datapoints: breached or not */
	int next;                                       /* where the next datapoint goes in the ring */
};

struct step {
	struct policy base;             /* must be first */
	enum adjustment_kind type;      /* how adjustments are read */
	int min_magnitude;              /* MinAdjustmentMagnitude, instances; 0 = none */
	int64_t out_cooldown_us;        /* scale-out cooldown */
	int64_t in_cooldown_us;         /* scale-in cooldown */
	int64_t out_until_us;           /* scale-out cooldown runs until then */
	int64_t in_until_us;            /* scale-in cooldown runs until then */
	int out_base;                   /* capacity before the scale-out that started the cooldown */
	struct alarm out, in;           /* the scale-out and scale-in alarms */
};

static bool breaches(const struct step_alarm *a, double metric)
{
	if (isnan(metric))
		return false; /* a missing datapoint does not breach */
	switch (a->comparison) {
	case COMPARE_GE: return metric >= a->threshold;
	case COMPARE_GT: return metric > a->threshold;
	case COMPARE_LE: return metric <= a->threshold;
	case COMPARE_LT: return metric < a->threshold;
	}
	return false;
}

/* Add a datapoint; true when the alarm is then in ALARM (M of the last N breach). O(N), N <= 100. */
static bool alarm_push(struct alarm *a, double metric)
{
	int n = a->cfg.evaluation_periods, breaching = 0;

	a->breach[a->next] = breaches(&a->cfg, metric);
	a->next = (a->next + 1) % n;
	for (int i = 0; i < n; i++)
		breaching += a->breach[i];
	return breaching >= a->cfg.datapoints_to_alarm;
}

/* The step containing metric, or NULL: [lower, upper) above the threshold, (lower, upper] below. */
static const struct step_adjustment *find_step(const struct step_alarm *a, double metric)
{
	bool above = a->comparison == COMPARE_GE || a->comparison == COMPARE_GT;

	for (int i = 0; i < a->nsteps; i++) {
		const struct step_adjustment *s = &a->steps[i];
		double lo = a->threshold + s->lower, hi = a->threshold + s->upper;
		if (above ? metric >= lo && metric < hi : metric > lo && metric <= hi)
			return s;
	}
	return NULL;
}

/* adjustment % of capacity, rounded as documented, then raised to MinAdjustmentMagnitude. */
static int percent_change(const struct step *st, int capacity, int percent)
{
	double x = capacity * (double)percent / 100.0;
	int n;

	/* "> 1 rounded down; 0..1 -> 1; -1..0 -> -1; < -1 rounded up (toward zero)"; the small slack keeps
	 * products that should be whole (30% of 10) from losing one to binary rounding */
	if (x > 0)
		n = x < 1 ? 1 : (int)floor(x + 1e-9 * x);
	else if (x < 0)
		n = x > -1 ? -1 : (int)ceil(x + 1e-9 * x);  /* x < 0: the slack points down */
	else
		n = 0;
	if (n != 0 && st->min_magnitude > 0 && abs(n) < st->min_magnitude)
		n = n > 0 ? st->min_magnitude : -st->min_magnitude;
	return n;
}

/* The capacity a step asks for from `capacity`, clamped to [min, max]. */
static int apply(const struct step *st, const struct step_adjustment *s, int capacity)
{
	long want;

	switch (st->type) {
	case ADJUST_EXACT_CAPACITY:
		want = s->adjustment;
		break;
	case ADJUST_PERCENT_CHANGE:
		want = (long)capacity + percent_change(st, capacity, s->adjustment);
		break;
	default:
		want = (long)capacity + s->adjustment;
		break;
	}
	return want < st->base.min ? st->base.min : want > st->base.max ? st->base.max : (int)want;
}

/* What one alarm in ALARM asks for, with the cooldowns applied; true and *out filled when it acts. */
static bool act(struct step *st, const struct alarm *a, const char *name, const struct policy_input *in,
		struct policy_decision *out)
{
	const struct step_adjustment *s = find_step(&a->cfg, in->metric);
	bool cooling = in->now_us < st->out_until_us;
	int want;

	if (!s)
		return false;
	want = apply(st, s, in->capacity);
	if (want > in->capacity) {
		/* during the scale-out cooldown, the step counts from the capacity before it began */
		if (cooling && (want = apply(st, s, st->out_base)) <= in->capacity)
			return false;
		if (!cooling)
			st->out_base = in->capacity;
		st->out_until_us = in->now_us + st->out_cooldown_us;
		st->in_until_us = in->now_us; /* a scale-out ends the scale-in cooldown */
		out->action = POLICY_SCALE_OUT;
	} else if (want < in->capacity) {
		if (in->now_us < st->in_until_us)
			return false; /* scale-in is blocked during the scale-in cooldown */
		st->in_until_us = in->now_us + st->in_cooldown_us;
		out->action = POLICY_SCALE_IN;
	} else {
		return false;
	}
	out->desired = want;
	snprintf(out->reason, sizeof out->reason, "step: %s alarm, metric %.4g vs %.4g, step %+d%s%s", name,
		 in->metric, a->cfg.threshold, s->adjustment,
		 st->type == ADJUST_PERCENT_CHANGE ? "%" : st->type == ADJUST_EXACT_CAPACITY ? " (exact)" : "",
		 cooling && out->action == POLICY_SCALE_OUT ? " (during cooldown)" : "");
	return true;
}

static void decide(struct policy *p, const struct policy_input *in, struct policy_decision *out)
{
	struct step *st = (struct step *)p;
	bool out_alarm = st->out.cfg.enabled && alarm_push(&st->out, in->metric);
	bool in_alarm = st->in.cfg.enabled && alarm_push(&st->in, in->metric);

	out->action = POLICY_HOLD;
	out->desired = in->capacity;
	snprintf(out->reason, sizeof out->reason, "no alarm");
	if (isnan(in->metric)) {
		snprintf(out->reason, sizeof out->reason, "no data");
		return;
	}
	if (out_alarm && act(st, &st->out, "scale_out", in, out))
		return;
	if (in_alarm)
		act(st, &st->in, "scale_in", in, out);
}

static void step_free(struct policy *p)
{
	free(p);
}

static const struct policy_ops step_ops = { "step", decide, step_free };

struct policy *policy_step_new(const struct scenario *sc)
{
	struct step *st = calloc(1, sizeof *st);

	if (!st)
		return NULL;
	st->base.ops = &step_ops;
	st->type = sc->autoscaling.adjustment_type;
	st->min_magnitude = sc->autoscaling.min_adjustment_magnitude;
	st->base.min = sc->autoscaling.min;
	st->base.max = sc->autoscaling.max;
	st->out_cooldown_us = sc->autoscaling.scale_out_cooldown_us;
	st->in_cooldown_us = sc->autoscaling.scale_in_cooldown_us;
	st->out_until_us = INT64_MIN;
	st->in_until_us = INT64_MIN;
	st->out.cfg = sc->autoscaling.scale_out;
	st->in.cfg = sc->autoscaling.scale_in;
	return &st->base;
}
