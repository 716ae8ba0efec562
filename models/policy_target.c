/*
 * policy_target: Application Auto Scaling target tracking, as documented (../shared/FACTS.md 6).
 *
 * Rules implemented, each from the AWS text quoted in FACTS.md:
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
 *  - Missing data: no action (policy.h).
 * Not modelled here (issue 5): CloudWatch alarm datapoint counts (each evaluation is one datapoint),
 * several policies on one target, high-resolution metrics.
 */
#include "policy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

struct target {
	struct policy base;         /* must be first */
	double target;              /* metric value to hold */
	double margin;              /* scale-in margin below the target, fraction */
	int min, max;               /* capacity bounds */
	int64_t out_cooldown_us;    /* scale-out cooldown */
	int64_t in_cooldown_us;     /* scale-in cooldown */
	int64_t out_until_us;       /* scale-out cooldown runs until then */
	int64_t in_until_us;        /* scale-in cooldown runs until then */
	int out_base;               /* capacity before the scale-out that started the cooldown */
};

static int clamp(const struct target *t, int n)
{
	return n < t->min ? t->min : n > t->max ? t->max : n;
}

static int proportional(double capacity, double metric, double target)
{
	/* ceil of a product that should be an integer must not become n+1 through rounding error */
	double x = capacity * metric / target;
	return (int)ceil(x - 1e-9 * (x > 1 ? x : 1));
}

static void decide(struct policy *p, const struct policy_input *in, struct policy_decision *out)
{
	struct target *t = (struct target *)p;
	int64_t now = in->now_us;

	out->action = POLICY_HOLD;
	out->desired = in->capacity;
	if (isnan(in->metric)) {
		snprintf(out->reason, sizeof out->reason, "no data");
		return;
	}
	if (in->metric > t->target) {
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
	if (in->metric < t->target * (1.0 - t->margin) && now >= t->in_until_us) {
		int want = clamp(t, proportional(in->capacity, in->metric, t->target));
		if (want >= in->capacity)
			return;
		t->in_until_us = now + t->in_cooldown_us;
		out->action = POLICY_SCALE_IN;
		out->desired = want;
		snprintf(out->reason, sizeof out->reason, "target_tracking: metric %.4g < %.4g (target %.4g - %.0f%%)",
			 in->metric, t->target * (1.0 - t->margin), t->target, t->margin * 100);
	}
}

static void target_free(struct policy *p)
{
	free(p);
}

static const struct policy_ops target_ops = { "target_tracking", decide, target_free };

struct policy *policy_target_new(const struct scenario *sc)
{
	struct target *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->base.ops = &target_ops;
	t->target = sc->autoscaling.target;
	t->margin = sc->autoscaling.scale_in_margin;
	t->min = sc->autoscaling.min;
	t->max = sc->autoscaling.max;
	t->out_cooldown_us = sc->autoscaling.scale_out_cooldown_us;
	t->in_cooldown_us = sc->autoscaling.scale_in_cooldown_us;
	t->out_until_us = INT64_MIN;
	t->in_until_us = INT64_MIN;
	return &t->base;
}
