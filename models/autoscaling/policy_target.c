/*
 * policy_target: Application Auto Scaling target tracking, as documented (SOURCES.md [tt-proportional]).
 *
 * Rules implemented, each from AWS's text (SOURCES.md [tt-proportional], [tt-scale-in-margin],
 * [aas-cooldown-out], [aas-cooldown-in], [tt-alarms], [tt-high-res-scale-in], [aas-missing-data]):
 *  - Scale out when the metric is above the target, proportionally: desired = ceil(capacity x metric /
 *    target). "Always acts conservatively by rounding up or down": rounding up adds capacity on scale-out
 *    and removes less on scale-in, so ceil serves both directions.
 *  - Scale in only when the metric is "far enough below the target value (usually more than 10% lower)":
 *    metric < target x (1 - scale_in_margin), margin 0.10 by default; then desired = ceil(capacity x metric
 *    / target), never below min.
 *  - Scale-out cooldown: the policy "won't increase desired capacity again unless either a larger scale out
 *    is triggered or the cooldown period ends"; "capacity added by the initiating scale-out counts toward
 *    the next scale-out's desired capacity". So during the cooldown the proportional step is computed from
 *    the capacity before the initiating scale-out, and acted on only if it exceeds the capacity already
 *    asked for (as in the documented step-scaling example: +2, then +3 during cooldown, adds only 1). A
 *    further scale-out in the cooldown restarts it, keeping the same base.
 *  - Scale-in cooldown: scale-in is blocked until it expires, "but a scale-out alarm during scale-in cooldown
 *    scales out immediately and ends the cooldown".
 *  - The alarms: "Application Auto Scaling creates and manages the CloudWatch alarms that invoke the
 *    scaling policy". Each evaluation (every resolution_s: 60 s, or 10 s for the high-resolution
 *    concurrency metric) is one datapoint; the policy scales out only after scale_out_datapoints
 *    consecutive datapoints above the target, and in only after scale_in_datapoints consecutive ones
 *    below the scale-in threshold, acting on the latest. AWS does not publish the alarms' shape; the
 *    defaults 3 and 15 are the commonly cited ones (SOURCES.md [tt-alarms]), an assumption set in the
 *    scenario.
 *  - High-resolution metrics (resolution_s under 60 s, such as SageMaker's 10 s concurrency metric) scale
 *    out faster but "scale IN at the same speed as standard metrics" (SOURCES.md [tt-high-res-scale-in],
 *    SageMaker high-resolution scaling metrics). So with a period under a minute the scale-in alarm does
 *    not see each sample: it sees one-minute datapoints, each the average (CloudWatch's Average statistic)
 *    of the samples with data whose evaluation time falls in that minute of run time,
 *    (k x 60 s, (k + 1) x 60 s], closed at the first evaluation at or after (k + 1) x 60 s (missing if no sample
 *    had data). The scale-in alarm counts those datapoints, scale_in_datapoints of them in a row, and a
 *    scale-in acts at the evaluation that closes the last one, on that minute's average. The scale-out alarm
 *    still counts every sample.
 *  - Missing data: no action (policy.h), and the alarms start counting again ("INSUFFICIENT_DATA").
 * Several policies on one target are combined by the run (autoscale.c, combine()).
 */
#include "policy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "convert.h"
#include "engine.h"

struct target {
	struct policy base;         /* must be first */
	double target;              /* metric value to hold */
	double margin;              /* scale-in margin below the target, fraction */
	int64_t out_cooldown_us;    /* scale-out cooldown */
	int64_t in_cooldown_us;     /* scale-in cooldown */
	int64_t out_until_us;       /* scale-out cooldown runs until then */
	int64_t in_until_us;        /* scale-in cooldown runs until then */
	int out_base;               /* capacity before the scale-out that started the cooldown */
	int out_need, in_need;      /* consecutive breaching datapoints each alarm needs */
	int out_run, in_run;        /* consecutive breaching datapoints so far */
	bool minutes;               /* the period is under a minute: scale-in sees one-minute datapoints */
	int64_t minute_end_us;      /* ... the current minute ends then */
	double minute_sum;          /* ... the sum of its samples with data so far */
	int minute_n;               /* ... and how many */
};

#define MINUTE_US INT64_C(60000000)

static int clamp(const struct target *t, int n)
{
	/* the bounds live in the policy base: scheduled actions move them (autoscale.c) */
	return n < t->base.min ? t->base.min : n > t->base.max ? t->base.max : n;
}

static int proportional(double capacity, double metric, double target)
{
	/* ceil of a product that should be an integer must not become n+1 through rounding error; beyond int's
	 * range it saturates, and the caller's clamp to max then gives max, as an exact count would (convert.h,
	 * SOURCES.md [count-saturate]) */
	double x = capacity * metric / target;
	return convert_count_saturate(ceil(x - 1e-9 * (x > 1 ? x : 1)));
}

/*
 * The scale-in alarm's datapoint at this evaluation: the sample itself with a period of a minute or more;
 * under a minute, the average of the minute that this evaluation closes, or NaN when it closes none (no
 * datapoint for the scale-in alarm now) or none of its samples had data (a missing datapoint). *closed
 * tells whether the alarm got a datapoint now.
 */
static double scale_in_datapoint(struct target *t, const struct policy_input *in, bool *closed)
{
	double avg;

	*closed = true;
	if (!t->minutes)
		return in->metric;
	if (!isnan(in->metric)) {
		t->minute_sum += in->metric;
		t->minute_n++;
	}
	if (in->now_us < t->minute_end_us) {
		*closed = false;
		return NAN;
	}
	avg = t->minute_n > 0 ? t->minute_sum / t->minute_n : NAN;
	t->minute_sum = 0;
	t->minute_n = 0;
	t->minute_end_us = (in->now_us / MINUTE_US + 1) * MINUTE_US;
	return avg;
}

static void decide(struct policy *p, const struct policy_input *in, struct policy_decision *out)
{
	struct target *t = (struct target *)p;
	int64_t now = in->now_us;
	bool closed;
	double in_dp = scale_in_datapoint(t, in, &closed);

	out->action = POLICY_HOLD;
	out->desired = in->capacity;
	if (closed)
		t->in_run = in_dp < t->target * (1.0 - t->margin) ? t->in_run + 1 : 0; /* NaN: false */
	if (isnan(in->metric)) {
		t->out_run = 0;
		snprintf(out->reason, sizeof out->reason, "no data");
		return;
	}
	t->out_run = in->metric > t->target ? t->out_run + 1 : 0;
	if (t->out_run >= t->out_need) {
		bool cooling = now < t->out_until_us;
		int base = cooling ? t->out_base : in->capacity;
		int want = clamp(t, proportional(base, in->metric, t->target));
		if (want <= in->capacity)
			return;
		if (!cooling)
			t->out_base = in->capacity;
		t->out_until_us = now + t->out_cooldown_us;
		t->in_until_us = now; /* a scale-out ends the scale-in cooldown */
		out->action = POLICY_SCALE_OUT;
		out->desired = want;
		snprintf(out->reason, sizeof out->reason, "target_tracking: metric %.4g > target %.4g%s",
			 in->metric, t->target, cooling ? " (larger scale-out during cooldown)" : "");
		return;
	}
	if (closed && !isnan(in_dp) && t->in_run >= t->in_need && now >= t->in_until_us) {
		int want = clamp(t, proportional(in->capacity, in_dp, t->target));
		if (want >= in->capacity)
			return;
		t->in_until_us = now + t->in_cooldown_us;
		out->action = POLICY_SCALE_IN;
		out->desired = want;
		snprintf(out->reason, sizeof out->reason, "target_tracking: metric %.4g < %.4g (target %.4g - %.0f%%)",
			 in_dp, t->target * (1.0 - t->margin), t->target, t->margin * 100);
	}
}

static void target_free(struct policy *p)
{
	free(p);
}

static const struct policy_ops target_ops = { "target_tracking", decide, target_free };

struct policy *policy_target_new(const struct scenario *sc)
{
	return policy_target_new_for(sc, sc->autoscaling.target);
}

struct policy *policy_target_new_for(const struct scenario *sc, double target)
{
	struct target *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->base.ops = &target_ops;
	t->target = target;
	t->margin = sc->autoscaling.scale_in_margin;
	/* 0 stands for "not set" (a struct built by hand): one datapoint */
	t->out_need = sc->autoscaling.scale_out_datapoints > 0 ? sc->autoscaling.scale_out_datapoints : 1;
	t->in_need = sc->autoscaling.scale_in_datapoints > 0 ? sc->autoscaling.scale_in_datapoints : 1;
	t->base.min = sc->autoscaling.min;
	t->base.max = sc->autoscaling.max;
	t->out_cooldown_us = sc->autoscaling.scale_out_cooldown_us;
	t->in_cooldown_us = sc->autoscaling.scale_in_cooldown_us;
	/* 0 stands for "not set" too: a period of a minute or more */
	t->minutes = sc->autoscaling.resolution_us > 0 && sc->autoscaling.resolution_us < MINUTE_US;
	t->minute_end_us = MINUTE_US;
	t->out_until_us = INT64_MIN;
	t->in_until_us = INT64_MIN;
	return &t->base;
}
