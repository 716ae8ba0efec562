/*
 * scenario_policy: the step-scaling keys of `autoscaling` (see scenario_load.h, scenario.h).
 *
 *     adjustment_type: change_in_capacity | exact_capacity | percent_change_in_capacity
 *     min_adjustment_magnitude: 2      # percent_change_in_capacity only; default none
 *     scale_out: {threshold: 0.7, comparison: greater_or_equal, evaluation_periods: 3,
 *                 datapoints_to_alarm: 2, steps: [{lower: 0, upper: 0.1, adjustment: 1}, ...]}
 *     scale_in:  {...}                 # either alarm may be omitted, not both
 *
 * The step rules checked are Application Auto Scaling's (FACTS.md 6, step scaling): the ranges "can't
 * overlap/gap", and there is at most "one null lower bound (-inf) and one null upper bound (+inf)". Here
 * the steps must also be written in ascending order, so the only null lower bound can be the first step's
 * and the only null upper bound the last step's; each step's upper bound must equal the next one's lower.
 */
#include <math.h>
#include <stdio.h>

#include "scenario_load.h"
#include "status.h"

#define MAX_CHANGE MAX_INSTANCES  /* |adjustment| for change_in_capacity and exact_capacity */
#define MIN_PERCENT (-100)     /* percent_change_in_capacity: remove at most everything */
#define MAX_PERCENT 1000       /* ... and add at most ten times the capacity (a sanity bound) */

static const char *const step_keys[] = { "adjustment_type", "min_adjustment_magnitude", "scale_out",
	"scale_in", NULL };
static const char *const alarm_keys[] = { "threshold", "comparison", "evaluation_periods",
	"datapoints_to_alarm", "steps", NULL };
static const char *const adjustment_keys[] = { "lower", "upper", "adjustment", NULL };
static const char *const adjustment_names[] = { "change_in_capacity", "exact_capacity",
	"percent_change_in_capacity" };
static const char *const comparison_names[] = { "greater_or_equal", "greater", "less_or_equal", "less" };

static const struct scenario_yaml_bounds any_number = { -HUGE_VAL, HUGE_VAL, false, false };

/* One step adjustment's bounds and adjustment; the adjustment's range depends on the adjustment type. */
static int read_adjustment(struct load *l, const struct scenario_yaml_ref *e, struct step_adjustment *s)
{
	enum adjustment_kind k = l->sc.autoscaling.adjustment_type;
	struct scenario_yaml_ref r;
	int lo = k == ADJUST_PERCENT_CHANGE ? MIN_PERCENT : k == ADJUST_EXACT_CAPACITY ? 0 : -MAX_CHANGE;
	int hi = k == ADJUST_PERCENT_CHANGE ? MAX_PERCENT : MAX_CHANGE;
	int rc;

	if ((rc = scenario_yaml_mapping(&l->y, e, adjustment_keys, NULL, NULL)))
		return rc;
	s->lower = -HUGE_VAL;
	s->upper = HUGE_VAL;
	scenario_yaml_child(e, "lower", &r);
	if ((rc = scenario_yaml_number(&l->y, &r, &any_number, &s->lower)))
		return rc;
	scenario_yaml_child(e, "upper", &r);
	if ((rc = scenario_yaml_number(&l->y, &r, &any_number, &s->upper)))
		return rc;
	if (s->lower >= s->upper)
		return scenario_yaml_fail(&l->y, &r, "upper bound %g is not above the lower bound %g; expected "
					  "lower < upper", s->upper, s->lower);
	if ((rc = scenario_load_required(l, e, "adjustment", "an integer: instances, a capacity or a percent, "
					 "as adjustment_type says", &r)))
		return rc;
	return scenario_load_int(l, &r, lo, hi, &s->adjustment);
}

/* The steps of an alarm: 1..10, ascending, each upper bound the next one's lower (no gap, no overlap). */
static int read_steps(struct load *l, const struct scenario_yaml_ref *alarm, struct step_alarm *a)
{
	struct scenario_yaml_ref list, e, r, prev_e = { 0 };
	int n, rc;

	if ((rc = scenario_load_required(l, alarm, "steps", "step adjustments such as '[{lower: 0, "
					 "adjustment: 1}]'", &list)) ||
	    (rc = scenario_yaml_list(&l->y, &list, 1, SCENARIO_ALARM_STEPS_MAX, "step adjustments such as "
				     "'- {lower: 0, adjustment: 1}'", &n)))
		return rc;
	for (int i = 0; i < n; i++) {
		struct step_adjustment *s = &a->steps[i];
		scenario_yaml_item(&list, i, &e);
		if ((rc = read_adjustment(l, &e, s)))
			return rc;
		if (i > 0 && s->lower == -HUGE_VAL)
			return scenario_yaml_fail(&l->y, &e, "only the first step may omit its lower bound (one "
						  "null lower bound is allowed); expected lower: %g",
						  a->steps[i - 1].upper);
		if (i > 0 && a->steps[i - 1].upper == HUGE_VAL)
			return scenario_yaml_fail(&l->y, &prev_e, "only the last step may omit its upper bound (one "
						  "null upper bound is allowed); expected upper: %g", s->lower);
		if (i > 0 && s->lower != a->steps[i - 1].upper) {
			scenario_yaml_child(&e, "lower", &r);
			return scenario_yaml_fail(&l->y, &r, "%g %s the previous step's upper bound %g; expected "
						  "steps in ascending order with no gap or overlap (lower: %g)",
						  s->lower, s->lower < a->steps[i - 1].upper ? "overlaps" :
						  "leaves a gap after", a->steps[i - 1].upper, a->steps[i - 1].upper);
		}
		prev_e = e;
	}
	a->nsteps = n;
	return STATUS_OK;
}

/* One alarm (`scale_out` or `scale_in`), if written; its comparison defaults to the direction's. */
static int read_alarm(struct load *l, const char *key, enum comparison_kind dflt, struct step_alarm *a)
{
	struct scenario_yaml_ref al, r;
	int cmp = dflt, rc;
	int64_t periods = 1, datapoints;

	scenario_yaml_child(&l->autoscaling, key, &al);
	if (!al.node)
		return STATUS_OK;
	if ((rc = scenario_yaml_mapping(&l->y, &al, alarm_keys, NULL, NULL)) ||
	    (rc = scenario_load_required(l, &al, "threshold", "the metric value the alarm compares with", &r)) ||
	    (rc = scenario_yaml_number(&l->y, &r, &any_number, &a->threshold)))
		return rc;
	scenario_yaml_child(&al, "comparison", &r);
	if ((rc = scenario_yaml_choice(&l->y, &r, comparison_names, 4, &cmp)))
		return rc;
	scenario_yaml_child(&al, "evaluation_periods", &r);
	if ((rc = scenario_yaml_int(&l->y, &r, 1, SCENARIO_ALARM_PERIODS_MAX, &periods)))
		return rc;
	datapoints = periods;
	scenario_yaml_child(&al, "datapoints_to_alarm", &r);
	if ((rc = scenario_yaml_int(&l->y, &r, 1, periods, &datapoints)))
		return rc;
	a->comparison = (enum comparison_kind)cmp;
	a->evaluation_periods = (int)periods;
	a->datapoints_to_alarm = (int)datapoints;
	if ((rc = read_steps(l, &al, a)))
		return rc;
	a->enabled = true;
	return STATUS_OK;
}

/* Refuse a step-scaling key under another policy: it would be silently ignored. */
static int refuse_step_keys(struct load *l)
{
	struct scenario_yaml_ref r;

	for (int i = 0; step_keys[i]; i++) {
		scenario_yaml_child(&l->autoscaling, step_keys[i], &r);
		if (r.node)
			return scenario_yaml_fail(&l->y, &r, "only used by autoscaling.policy step; expected no "
						  "%s under %s", step_keys[i],
						  scenario_policy_name(l->sc.autoscaling.policy));
	}
	return STATUS_OK;
}

int scenario_load_step(struct load *l)
{
	struct scenario_yaml_ref *as = &l->autoscaling, r;
	int type = ADJUST_CHANGE_IN_CAPACITY, rc;

	if (l->sc.autoscaling.policy != POLICY_STEP)
		return refuse_step_keys(l);
	scenario_yaml_child(as, "adjustment_type", &r);
	if ((rc = scenario_yaml_choice(&l->y, &r, adjustment_names, 3, &type)))
		return rc;
	l->sc.autoscaling.adjustment_type = (enum adjustment_kind)type;
	scenario_yaml_child(as, "min_adjustment_magnitude", &r);
	if (r.node && type != ADJUST_PERCENT_CHANGE)
		return scenario_yaml_fail(&l->y, &r, "only used with adjustment_type "
					  "percent_change_in_capacity; expected no min_adjustment_magnitude "
					  "with %s", adjustment_names[type]);
	if ((rc = scenario_load_int(l, &r, 1, MAX_INSTANCES, &l->sc.autoscaling.min_adjustment_magnitude)))
		return rc;
	if ((rc = read_alarm(l, "scale_out", COMPARE_GE, &l->sc.autoscaling.scale_out)) ||
	    (rc = read_alarm(l, "scale_in", COMPARE_LE, &l->sc.autoscaling.scale_in)))
		return rc;
	if (!l->sc.autoscaling.scale_out.enabled && !l->sc.autoscaling.scale_in.enabled)
		return scenario_yaml_missing(&l->y, as, "scale_out", "with policy step, a scale_out or a "
					     "scale_in alarm such as {threshold: 0.7, steps: [{lower: 0, "
					     "adjustment: 1}]}");
	return STATUS_OK;
}

/*
 * The Kubernetes HPA's keys (FACTS.md 6, "Kubernetes HPA"): tolerance (default 0.1), the scale-down
 * stabilisation window (default 300 s), and the default scale-up policies, Percent 100 and Pods 4 per
 * period with selectPolicy Max. Only with policy hpa.
 */
int scenario_load_hpa(struct load *l)
{
	static const char *const keys[] = { "tolerance", "stabilization_window_s", "scale_up_percent",
					    "scale_up_pods" };
	static const struct scenario_yaml_bounds tolerance = { 0, 1, false, true };
	static const struct scenario_yaml_bounds percent = { 0, 10000, false, false };
	struct scenario_yaml_ref r;
	int rc;

	l->sc.autoscaling.tolerance = 0.1;
	l->sc.autoscaling.stabilization_window_us = 300 * S_US;
	l->sc.autoscaling.scale_up_percent = 100;
	l->sc.autoscaling.scale_up_pods = 4;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		scenario_yaml_child(&l->autoscaling, keys[i], &r);
		if (r.node && l->sc.autoscaling.policy != POLICY_HPA)
			return scenario_yaml_fail(&l->y, &r, "%s applies only to policy hpa; expected no %s",
						  keys[i], keys[i]);
	}
	scenario_yaml_child(&l->autoscaling, "tolerance", &r);
	if ((rc = scenario_yaml_number(&l->y, &r, &tolerance, &l->sc.autoscaling.tolerance)))
		return rc;
	scenario_yaml_child(&l->autoscaling, "stabilization_window_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, 3600 * S_US, &l->sc.autoscaling.stabilization_window_us)))
		return rc;
	scenario_yaml_child(&l->autoscaling, "scale_up_percent", &r);
	if ((rc = scenario_yaml_number(&l->y, &r, &percent, &l->sc.autoscaling.scale_up_percent)))
		return rc;
	scenario_yaml_child(&l->autoscaling, "scale_up_pods", &r);
	return scenario_load_int(l, &r, 0, MAX_INSTANCES, &l->sc.autoscaling.scale_up_pods);
}
