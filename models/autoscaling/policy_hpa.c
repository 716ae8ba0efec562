/*
 * policy_hpa: the Kubernetes Horizontal Pod Autoscaler, as its documentation describes it
 * (kubernetes/website horizontal-pod-autoscale.md; SOURCES.md [hpa-sync-period], [hpa-formula],
 * [hpa-tolerance], [hpa-stabilization], [hpa-scale-up-limit], [hpa-not-ready], [hpa-missing-metrics]).
 * Replicas are instances here.
 *
 * Rules implemented:
 *  - The control loop runs every `--horizontal-pod-autoscaler-sync-period`, default 15 s: the scenario's
 *    resolution_s (its default for this policy is 15 s).
 *  - desiredReplicas = ceil(currentReplicas x currentMetricValue / desiredMetricValue); "skip if ratio
 *    within tolerance (default 0.1)". One comparison, direction(), decides both whether a ratio is within
 *    the tolerance and which way it points, for the hold test and for the not-ready correction alike: a
 *    ratio exactly at 1 +- tolerance is within (it holds), with a relative slack of 1e-9 so that a ratio
 *    that is exactly on the edge in decimal (0.66 / 0.6 = 1 + 0.1) but not in binary is within too.
 *  - Missing metrics: no action (the documented fallbacks for partly missing pods need per-pod metrics,
 *    which the fleet-wide metric here does not have; a period with no instance in service is missing).
 *  - Scale-down stabilisation: "the controller takes the highest recommendation within the window",
 *    default 300 s; scale-up stabilisation 0.
 *  - Default scale-up behaviour: policies Percent 100 / 15 s and Pods 4 / 15 s with selectPolicy Max, i.e.
 *    at most max(100% of the current replicas, 4 pods) more per 15 s period; default scale-down policy
 *    Percent 100 / 15 s (no limit beyond the stabilisation).
 *  - Readiness: not-yet-ready pods do not contribute to the metric (it is measured over instances in
 *    service), and on a scale-up they are "assumed 0%": the ratio is recomputed as ratio x ready /
 *    current, and "if the direction reverses or within tolerance -> no action". Ready is the average
 *    number in service over the period, so an instance that became ready part-way through counts for the
 *    part it served (the role of the initial readiness delay).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "convert.h"
#include "policy.h"

#define HPA_WINDOW_MAX 512  /* recommendations kept: window / period, at most */

struct hpa {
	struct policy base;           /* must be first */
	double target;                /* desired metric value */
	double tolerance;             /* no action while |metric / target - 1| <= tolerance */
	int64_t window_us;            /* scale-down stabilisation window */
	double up_percent;            /* scale-up limit per period: percent of current replicas */
	int up_pods;                  /* scale-up limit per period: pods */
	int64_t recs_at[HPA_WINDOW_MAX];  /* recent recommendations: when ... */
	int recs[HPA_WINDOW_MAX];         /* ... and how many replicas */
	int nrecs, head;              /* ring buffer */
};

static void remember(struct hpa *h, int64_t now, int rec)
{
	int i = (h->head + h->nrecs) % HPA_WINDOW_MAX;

	if (h->nrecs == HPA_WINDOW_MAX) {
		h->head = (h->head + 1) % HPA_WINDOW_MAX;
		h->nrecs--;
		i = (h->head + h->nrecs) % HPA_WINDOW_MAX;
	}
	h->recs_at[i] = now;
	h->recs[i] = rec;
	h->nrecs++;
}

/* The highest recommendation made within the window ending now (the current one included). */
static int highest_in_window(struct hpa *h, int64_t now)
{
	int best = 0;

	while (h->nrecs > 0 && h->recs_at[h->head] < now - h->window_us) {
		h->head = (h->head + 1) % HPA_WINDOW_MAX;
		h->nrecs--;
	}
	for (int k = 0; k < h->nrecs; k++) {
		int v = h->recs[(h->head + k) % HPA_WINDOW_MAX];
		if (v > best)
			best = v;
	}
	return best;
}

static int clamp(const struct hpa *h, int n)
{
	return n < h->base.min ? h->base.min : n > h->base.max ? h->base.max : n;
}

/* +1 if the ratio is above the tolerance band, -1 below it, 0 within (edges included, 1e-9 slack). */
static int direction(const struct hpa *h, double ratio)
{
	double slack = 1e-9 * (ratio > 1.0 ? ratio : 1.0);

	if (ratio - 1.0 > h->tolerance + slack)
		return 1;
	if (1.0 - ratio > h->tolerance + slack)
		return -1;
	return 0;
}

static void decide(struct policy *p, const struct policy_input *in, struct policy_decision *out)
{
	struct hpa *h = (struct hpa *)p;
	int cur = in->capacity, rec, want, dir;
	double ratio;

	out->action = POLICY_HOLD;
	out->desired = cur;
	if (isnan(in->metric) || cur <= 0) {
		snprintf(out->reason, sizeof out->reason, "hpa: no data");
		return;
	}
	ratio = in->metric / h->target;
	dir = direction(h, ratio);
	if (dir > 0 && in->ready < cur) {
		ratio *= in->ready / cur; /* unready replicas at 0% on a scale-up */
		if (direction(h, ratio) <= 0)
			dir = 0; /* within the tolerance now, or reversed: no action */
	}
	/* beyond int's range the recommendation saturates, and the clamp to max gives max (convert.h) */
	rec = dir == 0 ? cur : convert_count_saturate(ceil(cur * ratio - 1e-9));
	rec = clamp(h, rec);
	remember(h, in->now_us, rec);
	want = rec;
	if (rec < cur) {
		want = highest_in_window(h, in->now_us); /* scale-down stabilisation */
		if (want > cur)
			want = cur;
	} else if (rec > cur) {
		double pct = cur * (1.0 + h->up_percent / 100.0);
		int limit = (int)floor(pct + 1e-9) > cur + h->up_pods ? (int)floor(pct + 1e-9) : cur + h->up_pods;
		if (want > limit)
			want = limit; /* selectPolicy Max of Percent and Pods */
	}
	if (want == cur)
		return;
	out->action = want > cur ? POLICY_SCALE_OUT : POLICY_SCALE_IN;
	out->desired = want;
	snprintf(out->reason, sizeof out->reason, "hpa: metric %.4g, target %.4g, recommendation %d", in->metric,
		 h->target, rec);
}

static void hpa_free(struct policy *p)
{
	free(p);
}

static const struct policy_ops hpa_ops = { "hpa", decide, hpa_free };

struct policy *policy_hpa_new(double target, double tolerance, int min, int max, int64_t window_us,
			      double up_percent, int up_pods)
{
	struct hpa *h = calloc(1, sizeof *h);

	if (!h)
		return NULL;
	h->base.ops = &hpa_ops;
	h->target = target;
	h->tolerance = tolerance;
	h->base.min = min;
	h->base.max = max;
	h->window_us = window_us;
	h->up_percent = up_percent;
	h->up_pods = up_pods;
	return &h->base;
}
