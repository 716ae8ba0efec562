/*
 * check_policy_step: step-scaling decisions, one test per documented rule (SOURCES.md [step-bounds],
 * [step-adjustments], [step-alarms], [aas-cooldown-out], [aas-cooldown-in]), on
 * metric sequences whose answers are computed by hand in the comments. Evaluations are one minute apart.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "policy.h"
#include "status.h"
#include "testutil.h"

#define MIN_US (60 * 1000000LL)

static struct scenario sc;

/* A step scenario on capacity [min, max], no alarms yet, cooldowns in seconds. */
static void base(enum adjustment_kind type, int min, int max, int out_cd_s, int in_cd_s)
{
	memset(&sc, 0, sizeof sc);
	sc.autoscaling.policy = POLICY_STEP;
	sc.autoscaling.metric = METRIC_INVOCATIONS;
	sc.autoscaling.adjustment_type = type;
	sc.autoscaling.min = min;
	sc.autoscaling.max = max;
	sc.autoscaling.scale_out_cooldown_us = out_cd_s * 1000000LL;
	sc.autoscaling.scale_in_cooldown_us = in_cd_s * 1000000LL;
}

/* Set an alarm: M of N datapoints, threshold and comparison; steps added with add_step. */
static void alarm(struct step_alarm *a, double threshold, enum comparison_kind cmp, int n, int m)
{
	a->enabled = true;
	a->threshold = threshold;
	a->comparison = cmp;
	a->evaluation_periods = n;
	a->datapoints_to_alarm = m;
	a->nsteps = 0;
}

static void add_step(struct step_alarm *a, double lower, double upper, int adjustment)
{
	struct step_adjustment *s = &a->steps[a->nsteps++];

	s->lower = lower;
	s->upper = upper;
	s->adjustment = adjustment;
}

static struct policy *make(void)
{
	int st;
	struct policy *p = policy_new(&sc, &st);

	ck_assert_int_eq(st, STATUS_OK);
	ck_assert_ptr_nonnull(p);
	return p;
}

static struct policy_decision ask(struct policy *p, int minute, double metric, int capacity)
{
	struct policy_input in = { .now_us = minute * MIN_US, .metric = metric, .capacity = capacity, .ready = capacity };
	struct policy_decision out;

	p->ops->decide(p, &in, &out);
	return out;
}

/*
 * The documented example: threshold 50, steps relative to it: [0, 10) 0, [10, 20) +10%, [20, +inf) +30%;
 * below: (-10, 0] 0, (-20, -10] -10%, (-inf, -20] -30%.
 */
static void documented_example(int out_cd_s)
{
	base(ADJUST_PERCENT_CHANGE, 0, 100, out_cd_s, 0);
	alarm(&sc.autoscaling.scale_out, 50, COMPARE_GE, 1, 1);
	add_step(&sc.autoscaling.scale_out, 0, 10, 0);
	add_step(&sc.autoscaling.scale_out, 10, 20, 10);
	add_step(&sc.autoscaling.scale_out, 20, HUGE_VAL, 30);
	alarm(&sc.autoscaling.scale_in, 50, COMPARE_LE, 1, 1);
	add_step(&sc.autoscaling.scale_in, -HUGE_VAL, -20, -30);
	add_step(&sc.autoscaling.scale_in, -20, -10, -10);
	add_step(&sc.autoscaling.scale_in, -10, 0, 0);
}

START_TEST(documented_example_scale_out)
{
	struct policy *p;
	struct policy_decision d;

	documented_example(0);
	p = make();
	/* capacity 10: 55 is in [0, 10): adjustment 0, hold */
	ck_assert_int_eq(ask(p, 1, 55, 10).action, POLICY_HOLD);
	/* 60 (lower bound inclusive above the threshold): +10% of 10 = 1 -> 11 */
	d = ask(p, 2, 60, 10);
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 11);
	/* 70 at capacity 11: +30% of 11 = 3.3 -> 3 -> 14 */
	d = ask(p, 3, 70, 11);
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 14);
	/* 70 at capacity 10: +30% of 10 = 3 exactly -> 13 (no binary rounding loss) */
	d = ask(p, 4, 70, 10);
	ck_assert_int_eq(d.desired, 13);
	/* 69.99 is still in [10, 20): +1 */
	ck_assert_int_eq(ask(p, 5, 69.99, 10).desired, 11);
	policy_free(p);
}
END_TEST

START_TEST(documented_example_scale_in)
{
	struct policy *p;
	struct policy_decision d;

	documented_example(0);
	p = make();
	/* 45 is in (-10, 0]: 0, hold; 40 (upper bound inclusive below): (-20, -10] -> -10% of 10 = -1 -> 9 */
	ck_assert_int_eq(ask(p, 1, 45, 10).action, POLICY_HOLD);
	d = ask(p, 2, 40, 10);
	ck_assert_int_eq(d.action, POLICY_SCALE_IN);
	ck_assert_int_eq(d.desired, 9);
	/* 30: (-inf, -20] -> -30% of 10 = -3 -> 7 */
	d = ask(p, 3, 30, 10);
	ck_assert_int_eq(d.desired, 7);
	/* 50 exactly: the scale-in alarm breaches (<=) and 0 is in (-10, 0]: adjustment 0, hold */
	ck_assert_int_eq(ask(p, 4, 50, 10).action, POLICY_HOLD);
	policy_free(p);
}
END_TEST

START_TEST(percent_rounding_small_changes)
{
	struct policy *p;

	/* +10% of 5 = 0.5 -> 1; -10% of 5 = -0.5 -> -1; -30% of 11 = -3.3 -> -3 (toward zero) */
	documented_example(0);
	p = make();
	ck_assert_int_eq(ask(p, 1, 60, 5).desired, 6);
	ck_assert_int_eq(ask(p, 2, 40, 5).desired, 4);
	ck_assert_int_eq(ask(p, 3, 30, 11).desired, 8);
	/* 0% of anything is no change: hold */
	ck_assert_int_eq(ask(p, 4, 55, 5).action, POLICY_HOLD);
	policy_free(p);
}
END_TEST

START_TEST(min_adjustment_magnitude)
{
	struct policy *p;

	/* +10% of 10 = 1, raised to the magnitude 2 -> 12; -10% of 10 = -1 -> -2 -> 8; +30% of 10 = 3 is
	 * already at least 2 -> 13 */
	documented_example(0);
	sc.autoscaling.min_adjustment_magnitude = 2;
	p = make();
	ck_assert_int_eq(ask(p, 1, 60, 10).desired, 12);
	ck_assert_int_eq(ask(p, 2, 40, 10).desired, 8);
	ck_assert_int_eq(ask(p, 3, 70, 10).desired, 13);
	policy_free(p);
}
END_TEST

START_TEST(exact_capacity_and_clamp)
{
	struct policy *p;
	struct policy_decision d;

	base(ADJUST_EXACT_CAPACITY, 2, 20, 0, 0);
	alarm(&sc.autoscaling.scale_out, 0.7, COMPARE_GT, 1, 1);
	add_step(&sc.autoscaling.scale_out, 0, 0.2, 8);
	add_step(&sc.autoscaling.scale_out, 0.2, HUGE_VAL, 30);
	alarm(&sc.autoscaling.scale_in, 0.3, COMPARE_LT, 1, 1);
	add_step(&sc.autoscaling.scale_in, -HUGE_VAL, 0, 1);
	p = make();
	/* 0.7 is not > 0.7: no alarm */
	ck_assert_int_eq(ask(p, 1, 0.7, 4).action, POLICY_HOLD);
	/* 0.8: set capacity to 8 */
	d = ask(p, 2, 0.8, 4);
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 8);
	/* 0.95: 30, clamped to max 20 */
	ck_assert_int_eq(ask(p, 3, 0.95, 8).desired, 20);
	/* 0.3 is not < 0.3; 0.1: exactly 1, clamped to min 2 */
	ck_assert_int_eq(ask(p, 4, 0.3, 20).action, POLICY_HOLD);
	d = ask(p, 5, 0.1, 20);
	ck_assert_int_eq(d.action, POLICY_SCALE_IN);
	ck_assert_int_eq(d.desired, 2);
	/* already at the exact capacity: hold */
	ck_assert_int_eq(ask(p, 6, 0.8, 8).action, POLICY_HOLD);
	policy_free(p);
}
END_TEST

START_TEST(datapoints_m_of_n_with_missing)
{
	struct policy *p;

	/* 2 of 3 datapoints >= 0.7; change_in_capacity +1 */
	base(ADJUST_CHANGE_IN_CAPACITY, 1, 20, 0, 0);
	alarm(&sc.autoscaling.scale_out, 0.7, COMPARE_GE, 3, 2);
	add_step(&sc.autoscaling.scale_out, 0, HUGE_VAL, 1);
	p = make();
	/* [0.8]: 1 breach of 3 places: no alarm */
	ck_assert_int_eq(ask(p, 1, 0.8, 4).action, POLICY_HOLD);
	/* [0.8, missing]: the missing datapoint does not breach (and no data means no action anyway) */
	ck_assert_int_eq(ask(p, 2, NAN, 4).action, POLICY_HOLD);
	/* [0.8, missing, 0.5]: 1 of 3: no alarm */
	ck_assert_int_eq(ask(p, 3, 0.5, 4).action, POLICY_HOLD);
	/* [missing, 0.5, 0.9]: 1 of 3 (the first 0.8 has left the window): no alarm */
	ck_assert_int_eq(ask(p, 4, 0.9, 4).action, POLICY_HOLD);
	/* [0.5, 0.9, 0.75]: 2 of 3: ALARM, +1 */
	ck_assert_int_eq(ask(p, 5, 0.75, 4).desired, 5);
	/* [0.9, 0.75, missing]: still 2 of 3 in ALARM, but no datapoint to place in a step: hold */
	ck_assert_int_eq(ask(p, 6, NAN, 5).action, POLICY_HOLD);
	/* [0.75, missing, 0.6]: 1 of 3: no alarm, hold */
	ck_assert_int_eq(ask(p, 7, 0.6, 5).action, POLICY_HOLD);
	policy_free(p);

	/* ALARM on older datapoints while the latest is below the threshold: no step contains it, hold */
	p = make();
	ask(p, 1, 0.8, 4);
	ck_assert_int_eq(ask(p, 2, 0.9, 4).desired, 5);
	ck_assert_int_eq(ask(p, 3, 0.6, 5).action, POLICY_HOLD);
	policy_free(p);
}
END_TEST

START_TEST(scale_out_cooldown_counts_the_earlier_step)
{
	struct policy *p;
	struct policy_decision d;

	/* SOURCES.md [aas-cooldown-out]: step +2 completes, the alarm fires again with a +3 step during the
	 * cooldown -> +1 */
	base(ADJUST_CHANGE_IN_CAPACITY, 1, 50, 300, 300);
	alarm(&sc.autoscaling.scale_out, 0.7, COMPARE_GE, 1, 1);
	add_step(&sc.autoscaling.scale_out, 0, 0.1, 2);
	add_step(&sc.autoscaling.scale_out, 0.1, HUGE_VAL, 3);
	p = make();
	d = ask(p, 0, 0.75, 10);
	ck_assert_int_eq(d.desired, 12);
	/* minute 1, in the cooldown (until minute 5): the +2 step again from base 10 is 12: hold */
	ck_assert_int_eq(ask(p, 1, 0.75, 12).action, POLICY_HOLD);
	/* minute 2: the +3 step from base 10 = 13: only 1 more than 12 */
	d = ask(p, 2, 0.9, 12);
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 13);
	ck_assert_ptr_nonnull(strstr(d.reason, "cooldown"));
	/* that scale-out restarted the cooldown (until minute 7) with the same base: +3 from 10 is 13: hold */
	ck_assert_int_eq(ask(p, 6, 0.9, 13).action, POLICY_HOLD);
	/* minute 7: the cooldown is over; +3 from 13 = 16 */
	ck_assert_int_eq(ask(p, 7, 0.9, 13).desired, 16);
	policy_free(p);
}
END_TEST

START_TEST(scale_in_blocked_during_cooldown)
{
	struct policy *p;

	base(ADJUST_CHANGE_IN_CAPACITY, 1, 50, 300, 300);
	alarm(&sc.autoscaling.scale_in, 0.3, COMPARE_LE, 1, 1);
	add_step(&sc.autoscaling.scale_in, -HUGE_VAL, 0, -1);
	p = make();
	ck_assert_int_eq(ask(p, 0, 0.2, 10).desired, 9);
	/* minutes 1..4: in the scale-in cooldown (until minute 5): blocked */
	for (int m = 1; m < 5; m++)
		ck_assert_int_eq(ask(p, m, 0.2, 9).action, POLICY_HOLD);
	ck_assert_int_eq(ask(p, 5, 0.2, 9).desired, 8);
	policy_free(p);
}
END_TEST

START_TEST(scale_out_ends_scale_in_cooldown)
{
	struct policy *p;
	struct policy_decision d;

	base(ADJUST_CHANGE_IN_CAPACITY, 1, 50, 0, 600);
	alarm(&sc.autoscaling.scale_out, 0.7, COMPARE_GE, 1, 1);
	add_step(&sc.autoscaling.scale_out, 0, HUGE_VAL, 2);
	alarm(&sc.autoscaling.scale_in, 0.3, COMPARE_LE, 1, 1);
	add_step(&sc.autoscaling.scale_in, -HUGE_VAL, 0, -1);
	p = make();
	ck_assert_int_eq(ask(p, 0, 0.2, 10).desired, 9);       /* scale-in cooldown until minute 10 */
	d = ask(p, 1, 0.9, 9);                                   /* scales out at once, despite it */
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 11);
	/* the scale-out ended the scale-in cooldown: a scale-in at minute 2 is allowed */
	d = ask(p, 2, 0.2, 11);
	ck_assert_int_eq(d.action, POLICY_SCALE_IN);
	ck_assert_int_eq(d.desired, 10);
	policy_free(p);
}
END_TEST

START_TEST(either_alarm_may_be_omitted)
{
	struct policy *p;

	/* only a scale-out alarm: low metrics never scale in */
	base(ADJUST_CHANGE_IN_CAPACITY, 1, 50, 0, 0);
	alarm(&sc.autoscaling.scale_out, 0.7, COMPARE_GE, 1, 1);
	add_step(&sc.autoscaling.scale_out, 0, HUGE_VAL, 1);
	p = make();
	ck_assert_int_eq(ask(p, 0, 0.0, 10).action, POLICY_HOLD);
	ck_assert_int_eq(ask(p, 1, 0.8, 10).desired, 11);
	policy_free(p);
}
END_TEST

static Suite *policy_step_suite(void)
{
	Suite *s = suite_create("policy_step");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, documented_example_scale_out);
	tcase_add_test(tc, documented_example_scale_in);
	tcase_add_test(tc, percent_rounding_small_changes);
	tcase_add_test(tc, min_adjustment_magnitude);
	tcase_add_test(tc, exact_capacity_and_clamp);
	tcase_add_test(tc, datapoints_m_of_n_with_missing);
	tcase_add_test(tc, scale_out_cooldown_counts_the_earlier_step);
	tcase_add_test(tc, scale_in_blocked_during_cooldown);
	tcase_add_test(tc, scale_out_ends_scale_in_cooldown);
	tcase_add_test(tc, either_alarm_may_be_omitted);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(policy_step_suite());
}
