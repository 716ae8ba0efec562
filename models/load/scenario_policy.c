/*
 * scenario_policy: the step-scaling keys of `autoscaling` (see scenario_load.h, scenario.h).
 *
 *     adjustment_type: change_in_capacity | exact_capacity | percent_change_in_capacity
 *     min_adjustment_magnitude: 2      # percent_change_in_capacity only; default none
 *     scale_out: {threshold: 0.7, comparison: greater_or_equal, evaluation_periods: 3,
 *                 datapoints_to_alarm: 2, steps: [{lower: 0, upper: 0.1, adjustment: 1}, ...]}
 *     scale_in:  {...}                 # either alarm may be omitted, not both
 *
 * The step rules checked are Application Auto Scaling's (SOURCES.md [step-bounds]): the ranges "can't
 * overlap/gap", and there is at most "one null lower bound (-inf) and one null upper bound (+inf)". Here
 * the steps must also be written in ascending order, so the only null lower bound can be the first step's
 * and the only null upper bound the last step's; each step's upper bound must equal the next one's lower.
 *
 * Also the Kubernetes HPA's keys, and scheduled actions under any policy
 * (SOURCES.md [scheduled-actions], [scheduled-cron-utc]):
 *
 *     schedule:                        # at most 32, run in list order when due together
 *       - {at: 2026-01-01T08:00:00Z, min: 4}
 *       - {cron: "0 20 * * 1-5", min: 0, max: 2}   # MIN HOUR DOM MON DOW, UTC (cron.h)
 */
#include <math.h>
#include <stdio.h>

#include "cron.h"
#include "scenario_load.h"
#include "status.h"
#include "units.h"

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

static const struct yamldoc_bounds any_number = { -HUGE_VAL, HUGE_VAL, false, false };
static const char *const hpa_keys[] = { "tolerance", "stabilization_window_s", "scale_up_percent",
	"scale_up_pods", NULL };
static const struct yamldoc_bounds hpa_tolerance = { 0, 1, false, true };
static const struct yamldoc_bounds hpa_percent = { 0, 10000, false, false };
static const char *const action_keys[] = { "at", "cron", "min", "max", NULL };  /* a scheduled action */
static const char *const predictive_keys[] = { "forecast", "lead_s", "alpha", "beta", "gamma", NULL };
static const char *const forecast_names[] = { "same_time_yesterday", "same_time_last_week", "holt_winters" };
static const struct yamldoc_bounds open_unit = { 0, 1, true, true };

/* One step adjustment's bounds and adjustment; the adjustment's range depends on the adjustment type. */
static int read_adjustment(struct load *l, const struct yamldoc_ref *e, struct step_adjustment *s)
{
	enum adjustment_kind k = l->sc.autoscaling.adjustment_type;
	struct yamldoc_ref r;
	int lo = k == ADJUST_PERCENT_CHANGE ? MIN_PERCENT : k == ADJUST_EXACT_CAPACITY ? 0 : -MAX_CHANGE;
	int hi = k == ADJUST_PERCENT_CHANGE ? MAX_PERCENT : MAX_CHANGE;
	int rc;

	if ((rc = yamldoc_mapping(&l->y, e, adjustment_keys, NULL, NULL)))
		return rc;
	s->lower = -HUGE_VAL;
	s->upper = HUGE_VAL;
	yamldoc_child(e, "lower", &r);
	if ((rc = yamldoc_number(&l->y, &r, &any_number, &s->lower)))
		return rc;
	yamldoc_child(e, "upper", &r);
	if ((rc = yamldoc_number(&l->y, &r, &any_number, &s->upper)))
		return rc;
	if (s->lower >= s->upper)
		return yamldoc_fail(&l->y, &r, "upper bound %g is not above the lower bound %g; expected "
					  "lower < upper", s->upper, s->lower);
	if ((rc = scenario_load_required(l, e, "adjustment", "an integer: instances, a capacity or a percent, "
					 "as adjustment_type says", &r)))
		return rc;
	return scenario_load_int(l, &r, lo, hi, &s->adjustment);
}

/* The steps of an alarm: 1..10, ascending, each upper bound the next one's lower (no gap, no overlap). */
static int read_steps(struct load *l, const struct yamldoc_ref *alarm, struct step_alarm *a)
{
	struct yamldoc_ref list, e, r, prev_e = { 0 };
	int n, rc;

	if ((rc = scenario_load_required(l, alarm, "steps", "step adjustments such as '[{lower: 0, "
					 "adjustment: 1}]'", &list)) ||
	    (rc = yamldoc_list(&l->y, &list, 1, SCENARIO_ALARM_STEPS_MAX, "step adjustments such as "
				     "'- {lower: 0, adjustment: 1}'", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		struct step_adjustment *s = &a->steps[i];
		yamldoc_next_item(&list, &walk, &e);
		if ((rc = read_adjustment(l, &e, s)))
			return rc;
		if (i > 0 && s->lower == -HUGE_VAL)
			return yamldoc_fail(&l->y, &e, "only the first step may omit its lower bound (one "
						  "null lower bound is allowed); expected lower: %g",
						  a->steps[i - 1].upper);
		if (i > 0 && a->steps[i - 1].upper == HUGE_VAL)
			return yamldoc_fail(&l->y, &prev_e, "only the last step may omit its upper bound (one "
						  "null upper bound is allowed); expected upper: %g", s->lower);
		if (i > 0 && s->lower != a->steps[i - 1].upper) {
			yamldoc_child(&e, "lower", &r);
			return yamldoc_fail(&l->y, &r, "%g %s the previous step's upper bound %g; expected "
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
	struct yamldoc_ref al, r;
	int cmp = dflt, rc;
	int64_t periods = 1, datapoints;

	yamldoc_child(&l->autoscaling, key, &al);
	if (!al.node)
		return STATUS_OK;
	if ((rc = yamldoc_mapping(&l->y, &al, alarm_keys, NULL, NULL)) ||
	    (rc = scenario_load_required(l, &al, "threshold", "the metric value the alarm compares with", &r)) ||
	    (rc = yamldoc_number(&l->y, &r, &any_number, &a->threshold)))
		return rc;
	yamldoc_child(&al, "comparison", &r);
	if ((rc = yamldoc_choice(&l->y, &r, comparison_names, 4, &cmp)))
		return rc;
	yamldoc_child(&al, "evaluation_periods", &r);
	if ((rc = yamldoc_int(&l->y, &r, 1, SCENARIO_ALARM_PERIODS_MAX, &periods)))
		return rc;
	datapoints = periods;
	yamldoc_child(&al, "datapoints_to_alarm", &r);
	if ((rc = yamldoc_int(&l->y, &r, 1, periods, &datapoints)))
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
	struct yamldoc_ref r;

	for (int i = 0; step_keys[i]; i++) {
		yamldoc_child(&l->autoscaling, step_keys[i], &r);
		if (r.node)
			return yamldoc_fail(&l->y, &r, "only used by autoscaling.policy step; expected no "
						  "%s under %s", step_keys[i],
						  scenario_policy_name(l->sc.autoscaling.policy));
	}
	return STATUS_OK;
}

int scenario_load_step(struct load *l)
{
	struct yamldoc_ref *as = &l->autoscaling, r;
	int type = ADJUST_CHANGE_IN_CAPACITY, rc;

	if (l->sc.autoscaling.policy != POLICY_STEP)
		return refuse_step_keys(l);
	yamldoc_child(as, "adjustment_type", &r);
	if ((rc = yamldoc_choice(&l->y, &r, adjustment_names, 3, &type)))
		return rc;
	l->sc.autoscaling.adjustment_type = (enum adjustment_kind)type;
	yamldoc_child(as, "min_adjustment_magnitude", &r);
	if (r.node && type != ADJUST_PERCENT_CHANGE)
		return yamldoc_fail(&l->y, &r, "only used with adjustment_type "
					  "percent_change_in_capacity; expected no min_adjustment_magnitude "
					  "with %s", adjustment_names[type]);
	if ((rc = scenario_load_int(l, &r, 1, MAX_INSTANCES, &l->sc.autoscaling.min_adjustment_magnitude)))
		return rc;
	if ((rc = read_alarm(l, "scale_out", COMPARE_GE, &l->sc.autoscaling.scale_out)) ||
	    (rc = read_alarm(l, "scale_in", COMPARE_LE, &l->sc.autoscaling.scale_in)))
		return rc;
	if (!l->sc.autoscaling.scale_out.enabled && !l->sc.autoscaling.scale_in.enabled)
		return yamldoc_missing(&l->y, as, "scale_out", "with policy step, a scale_out or a "
					     "scale_in alarm such as {threshold: 0.7, steps: [{lower: 0, "
					     "adjustment: 1}]}");
	return STATUS_OK;
}

/*
 * The Kubernetes HPA's keys (SOURCES.md [hpa-tolerance], [hpa-stabilization], [hpa-scale-up-limit]):
 * tolerance (default 0.1), the scale-down stabilisation window (default 300 s), and the default scale-up
 * policies, Percent 100 and Pods 4 per period with selectPolicy Max. Only with policy hpa.
 */
int scenario_load_hpa(struct load *l)
{
	const char *const *keys = hpa_keys;
	const struct yamldoc_bounds tolerance = hpa_tolerance, percent = hpa_percent;
	struct yamldoc_ref r;
	int rc;

	l->sc.autoscaling.tolerance = 0.1;
	l->sc.autoscaling.stabilization_window_us = 300 * S_US;
	l->sc.autoscaling.scale_up_percent = 100;
	l->sc.autoscaling.scale_up_pods = 4;
	for (size_t i = 0; keys[i]; i++) {
		yamldoc_child(&l->autoscaling, keys[i], &r);
		if (r.node && l->sc.autoscaling.policy != POLICY_HPA)
			return yamldoc_fail(&l->y, &r, "%s applies only to policy hpa; expected no %s",
						  keys[i], keys[i]);
	}
	yamldoc_child(&l->autoscaling, "tolerance", &r);
	if ((rc = yamldoc_number(&l->y, &r, &tolerance, &l->sc.autoscaling.tolerance)))
		return rc;
	yamldoc_child(&l->autoscaling, "stabilization_window_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, 3600 * S_US, &l->sc.autoscaling.stabilization_window_us)))
		return rc;
	yamldoc_child(&l->autoscaling, "scale_up_percent", &r);
	if ((rc = yamldoc_number(&l->y, &r, &percent, &l->sc.autoscaling.scale_up_percent)))
		return rc;
	yamldoc_child(&l->autoscaling, "scale_up_pods", &r);
	return scenario_load_int(l, &r, 0, MAX_INSTANCES, &l->sc.autoscaling.scale_up_pods);
}

/* ---- scheduled actions ------------------------------------------------------------------------- */

#define CRON_TEXT_MAX 128  /* bytes in a cron expression, including the NUL */

/* When a scheduled action runs: `at` (a UTC time) or `cron` (a recurring UTC schedule), exactly one. */
static int read_when(struct load *l, const struct yamldoc_ref *e, struct scheduled_action *a)
{
	struct yamldoc_ref at, cr;
	char text[CRON_TEXT_MAX], err[128];
	int64_t next;
	int rc;

	yamldoc_child(e, "at", &at);
	yamldoc_child(e, "cron", &cr);
	if (at.node && cr.node)
		return yamldoc_fail(&l->y, &cr, "an action runs either at a time or on a cron schedule; "
					  "expected at or cron, not both");
	if (!at.node && !cr.node)
		return yamldoc_missing(&l->y, e, "at", "when the action runs: a UTC time such as "
					     "2026-01-01T08:00:00Z, or cron: \"0 8 * * 1-5\" (UTC)");
	if (at.node) {
		if ((rc = scenario_load_time(l, &at, &a->at_unix_us)))
			return rc;
		if (a->at_unix_us < l->sc.start_unix_us)
			return scenario_load_warn(l, &at, "is before the scenario start; the action never runs");
		return STATUS_OK;
	}
	if ((rc = yamldoc_string(&l->y, &cr, text, sizeof text)))
		return rc;
	if (cron_parse(&a->cron, text, err, sizeof err) != STATUS_OK)
		return yamldoc_fail(&l->y, &cr, "%s; expected a cron expression MIN HOUR DOM MON DOW "
					  "such as \"0 8 * * 1-5\" (UTC)", err);
	if (cron_next(&a->cron, units_floor_s(l->sc.start_unix_us) - 1, &next) != STATUS_OK)
		return yamldoc_fail(&l->y, &cr, "'%s' never fires (no such day); expected a day of "
					  "month that the month has", text);
	a->recurring = true;
	return STATUS_OK;
}

/* One scheduled action: when, and the new min and/or max (at least one; min <= max when both). */
static int read_action(struct load *l, const struct yamldoc_ref *e, struct scheduled_action *a)
{
	const char *const *keys = action_keys;
	struct yamldoc_ref r;
	int rc;

	a->min = -1;
	a->max = -1;
	if ((rc = yamldoc_mapping(&l->y, e, keys, "a scheduled action such as {at: "
					"2026-01-01T08:00:00Z, min: 4}", NULL)) ||
	    (rc = read_when(l, e, a)))
		return rc;
	yamldoc_child(e, "min", &r);
	if ((rc = scenario_load_int(l, &r, 0, MAX_INSTANCES, &a->min)) ||
	    (rc = scenario_load_check_zero(l, &r, a->min)))
		return rc;
	yamldoc_child(e, "max", &r);
	if ((rc = scenario_load_int(l, &r, 0, MAX_INSTANCES, &a->max)) ||
	    (rc = scenario_load_check_zero(l, &r, a->max)))
		return rc;
	if (a->min < 0 && a->max < 0)
		return yamldoc_missing(&l->y, e, "min", "a scheduled action sets min, max or both");
	if (a->max >= 0 && a->min > a->max)
		return yamldoc_fail(&l->y, &r, "%d is below the action's min %d; expected min <= max",
					  a->max, a->min);
	return STATUS_OK;
}

int scenario_load_schedule(struct load *l)
{
	struct yamldoc_ref list, e;
	int n, rc;

	yamldoc_child(&l->autoscaling, "schedule", &list);
	if (!list.node)
		return STATUS_OK;
	if ((rc = yamldoc_list(&l->y, &list, 1, SCENARIO_SCHEDULE_MAX, "scheduled actions such as "
				     "'- {at: 2026-01-01T08:00:00Z, min: 4}'", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_item(&list, &walk, &e);
		if ((rc = read_action(l, &e, &l->sc.autoscaling.schedule[i])))
			return rc;
	}
	l->sc.autoscaling.nschedule = n;
	return STATUS_OK;
}

/* ---- predictive -------------------------------------------------------------------------------- */

/*
 * The predictive policy's keys (policy_predictive.c):
 *
 *     target: 0.7                       # required: busy slots / slots, (0, 1]; metric concurrency only
 *     forecast: same_time_yesterday     # | same_time_last_week | holt_winters
 *     lead_s: 21m                       # default serving.startup_s + resolution_s; at most one day
 *     alpha: 0.5, beta: 0.1, gamma: 0.3 # holt_winters only, each in (0, 1)
 *
 * resolution_s must divide a day, so that a period's place in the day (the daily season) is the same every
 * day. The lead is at most a day: same_time_yesterday needs the rate at now + lead - 1 day to be observed.
 */
/* The mean copy load delay (startup_s, or the mean of its distribution). */
static int64_t copy_startup_mean_us(const struct scenario *sc)
{
	const struct delay_dist *d = &sc->copies.startup;
	int64_t sum = 0;

	switch (d->kind) {
	case DELAY_CONSTANT:
	case DELAY_LOGNORMAL:
		return d->mean_us;
	case DELAY_EMPIRICAL:
		for (int i = 0; i < d->nvalues; i++)
			sum += d->values_us[i];
		return sum / d->nvalues;
	case DELAY_DEFAULT:
		break;
	}
	return sc->copies.startup_us;
}

int scenario_load_predictive(struct load *l)
{
	const char *const *keys = predictive_keys;
	double *smoothing[3] = { &l->sc.autoscaling.alpha, &l->sc.autoscaling.beta, &l->sc.autoscaling.gamma };
	struct yamldoc_ref r;
	int forecast = FORECAST_YESTERDAY, rc;

	l->sc.autoscaling.forecast = FORECAST_YESTERDAY;
	/* a new instance serves after its startup, and with copies after a copy has loaded on it too */
	l->sc.autoscaling.lead_us = l->sc.serving.startup_us + l->sc.autoscaling.resolution_us +
				    (l->sc.copies.enabled ? copy_startup_mean_us(&l->sc) : 0);
	l->sc.autoscaling.alpha = 0.5;
	l->sc.autoscaling.beta = 0.1;
	l->sc.autoscaling.gamma = 0.3;
	for (size_t i = 0; keys[i]; i++) {
		yamldoc_child(&l->autoscaling, keys[i], &r);
		if (r.node && l->sc.autoscaling.policy != POLICY_PREDICTIVE)
			return yamldoc_fail(&l->y, &r, "%s applies only to policy predictive; expected no %s",
						  keys[i], keys[i]);
	}
	if (l->sc.autoscaling.policy != POLICY_PREDICTIVE)
		return STATUS_OK;
	yamldoc_child(&l->autoscaling, "target", &r);
	if (!r.node)
		return yamldoc_missing(&l->y, &l->autoscaling, "target", "the concurrency to hold, busy "
					     "slots / slots, such as 0.7");
	if (l->sc.autoscaling.metric != METRIC_CONCURRENCY) {
		yamldoc_child(&l->autoscaling, "metric", &r);
		return yamldoc_fail(&l->y, &r, "policy predictive plans on concurrency; expected metric "
					  "concurrency_per_instance");
	}
	if (DAY_US % l->sc.autoscaling.resolution_us != 0) {
		yamldoc_child(&l->autoscaling, "resolution_s", &r);
		return yamldoc_fail(&l->y, &r, "does not divide a day; expected a period such as 60 that "
					  "divides 86400 s (the forecast's season is a day)");
	}
	yamldoc_child(&l->autoscaling, "forecast", &r);
	if ((rc = yamldoc_choice(&l->y, &r, forecast_names, 3, &forecast)))
		return rc;
	l->sc.autoscaling.forecast = (enum forecast_kind)forecast;
	yamldoc_child(&l->autoscaling, "lead_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, DAY_US, &l->sc.autoscaling.lead_us)))
		return rc;
	if (!r.node && l->sc.autoscaling.lead_us > DAY_US)
		l->sc.autoscaling.lead_us = DAY_US; /* a startup near a day: plan as far ahead as the history allows */
	for (int i = 0; i < 3; i++) {
		yamldoc_child(&l->autoscaling, keys[2 + i], &r);
		if (r.node && forecast != FORECAST_HOLT_WINTERS)
			return yamldoc_fail(&l->y, &r, "%s applies only to forecast holt_winters; expected no "
						  "%s", keys[2 + i], keys[2 + i]);
		if ((rc = yamldoc_number(&l->y, &r, &open_unit, smoothing[i])))
			return rc;
	}
	return STATUS_OK;
}

/* ---- tables shared with the schema (scenario_load.h) --------------------------------------------- */

const struct scenario_load_names scenario_load_step_keys = SCENARIO_LOAD_KEYS(step_keys);
const struct scenario_load_names scenario_load_alarm_keys = SCENARIO_LOAD_KEYS(alarm_keys);
const struct scenario_load_names scenario_load_adjustment_keys = SCENARIO_LOAD_KEYS(adjustment_keys);
const struct scenario_load_names scenario_load_adjustment_names = SCENARIO_LOAD_NAMES(adjustment_names);
const struct scenario_load_names scenario_load_comparison_names = SCENARIO_LOAD_NAMES(comparison_names);
const struct scenario_load_names scenario_load_hpa_keys = SCENARIO_LOAD_KEYS(hpa_keys);
const struct scenario_load_names scenario_load_action_keys = SCENARIO_LOAD_KEYS(action_keys);
const struct scenario_load_names scenario_load_predictive_keys = SCENARIO_LOAD_KEYS(predictive_keys);
const struct scenario_load_names scenario_load_forecast_names = SCENARIO_LOAD_NAMES(forecast_names);
const struct yamldoc_bounds *const scenario_load_any_number = &any_number;
const struct yamldoc_bounds *const scenario_load_tolerance = &hpa_tolerance;
const struct yamldoc_bounds *const scenario_load_scale_up_percent = &hpa_percent;
const struct yamldoc_bounds *const scenario_load_open_unit = &open_unit;
