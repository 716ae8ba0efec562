/*
 * check_policy_target: target tracking decisions, one test per documented rule (SOURCES.md [tt-proportional],
 * [tt-scale-in-margin], [aas-cooldown-out], [aas-cooldown-in], [tt-alarms], [aas-missing-data]), on metric
 * sequences whose answers are computed by hand in the comments.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "policy.h"
#include "status.h"
#include "testutil.h"

#define MIN_US (60 * 1000000LL)

static struct policy *make_dp(double target, int min, int max, int out_dp, int in_dp)
{
	struct scenario sc;
	int st;

	memset(&sc, 0, sizeof sc);
	sc.autoscaling.policy = POLICY_TARGET_TRACKING;
	sc.autoscaling.target = target;
	sc.autoscaling.min = min;
	sc.autoscaling.max = max;
	sc.autoscaling.scale_in_margin = 0.10;
	sc.autoscaling.scale_out_datapoints = out_dp;
	sc.autoscaling.scale_in_datapoints = in_dp;
	struct policy *p = policy_new(&sc, &st);
	ck_assert_ptr_nonnull(p);
	return p;
}

static struct policy *make(double target, int min, int max, int out_cd_s, int in_cd_s)
{
	struct scenario sc;
	int st;

	memset(&sc, 0, sizeof sc);
	sc.autoscaling.policy = POLICY_TARGET_TRACKING;
	sc.autoscaling.metric = METRIC_CONCURRENCY;
	sc.autoscaling.target = target;
	sc.autoscaling.min = min;
	sc.autoscaling.max = max;
	sc.autoscaling.scale_out_cooldown_us = out_cd_s * 1000000LL;
	sc.autoscaling.scale_in_cooldown_us = in_cd_s * 1000000LL;
	sc.autoscaling.scale_in_margin = 0.10;
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

START_TEST(proportional_scale_out_rounds_up)
{
	struct policy *p = make(0.7, 1, 100, 300, 300);
	/* 10 x 0.8 / 0.7 = 11.43 -> 12 */
	struct policy_decision d = ask(p, 1, 0.8, 10);
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 12);
	policy_free(p);
	/* exact products do not round up by accident: 7 x 0.8 / 0.7 = 8 */
	p = make(0.7, 1, 100, 300, 300);
	d = ask(p, 1, 0.8, 7);
	ck_assert_int_eq(d.desired, 8);
	policy_free(p);
}
END_TEST

START_TEST(scale_in_needs_more_than_10_percent_below)
{
	struct policy *p = make(0.5, 1, 100, 0, 0);
	/* 0.46 is within 10% of 0.5 (threshold 0.45): hold */
	ck_assert_int_eq(ask(p, 1, 0.46, 10).action, POLICY_HOLD);
	/* exactly 0.45 is not "more than 10% lower": hold */
	ck_assert_int_eq(ask(p, 2, 0.45, 10).action, POLICY_HOLD);
	/* 0.30: ceil(10 x 0.3 / 0.5) = 6 */
	struct policy_decision d = ask(p, 3, 0.30, 10);
	ck_assert_int_eq(d.action, POLICY_SCALE_IN);
	ck_assert_int_eq(d.desired, 6);
	/* 0.449: ceil(10 x 0.449 / 0.5) = ceil(8.98) = 9, one fewer (rounding removes less) */
	d = ask(p, 4, 0.449, 10);
	ck_assert_int_eq(d.action, POLICY_SCALE_IN);
	ck_assert_int_eq(d.desired, 9);
	policy_free(p);
}
END_TEST

START_TEST(min_and_max_bound_the_answer)
{
	struct policy *p = make(0.5, 4, 8, 0, 0);
	ck_assert_int_eq(ask(p, 1, 1.0, 6).desired, 8);     /* 12 capped at 8 */
	ck_assert_int_eq(ask(p, 2, 0.05, 6).desired, 4);    /* 1 raised to 4 */
	ck_assert_int_eq(ask(p, 3, 0.05, 4).action, POLICY_HOLD); /* already at min */
	ck_assert_int_eq(ask(p, 4, 1.0, 8).action, POLICY_HOLD);  /* already at max */
	policy_free(p);
}
END_TEST

START_TEST(scale_out_cooldown_counts_added_capacity)
{
	struct policy *p = make(0.5, 1, 100, 300, 300);
	/* t=1: 4 x 0.75 / 0.5 = 6: out to 6; cooldown to t=6 with base 4 */
	ck_assert_int_eq(ask(p, 1, 0.75, 4).desired, 6);
	/* t=2, same metric: ceil(4 x 0.75/0.5) = 6 is not larger than 6: hold (not 9 from base 6) */
	ck_assert_int_eq(ask(p, 2, 0.75, 6).action, POLICY_HOLD);
	/* t=3, metric up: ceil(4 x 1.0 / 0.5) = 8 > 6: a larger scale-out goes through in the cooldown */
	struct policy_decision d = ask(p, 3, 1.0, 6);
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 8);
	/* t=4: the cooldown restarted at t=3 (to t=8), base still 4: ceil(4 x 1.0/0.5) = 8, hold */
	ck_assert_int_eq(ask(p, 4, 1.0, 8).action, POLICY_HOLD);
	/* t=8: cooldown over; base is the current 8: ceil(8 x 1.0 / 0.5) = 16 */
	ck_assert_int_eq(ask(p, 8, 1.0, 8).desired, 16);
	policy_free(p);
}
END_TEST

START_TEST(scale_in_cooldown_blocks_scale_in)
{
	struct policy *p = make(0.5, 1, 100, 300, 300);
	ck_assert_int_eq(ask(p, 1, 0.25, 10).desired, 5);        /* in to 5, cooldown to t=6 */
	ck_assert_int_eq(ask(p, 2, 0.1, 5).action, POLICY_HOLD);  /* blocked */
	ck_assert_int_eq(ask(p, 5, 0.1, 5).action, POLICY_HOLD);  /* still blocked at t=5 */
	ck_assert_int_eq(ask(p, 6, 0.1, 5).desired, 1);           /* ceil(5 x 0.1/0.5) = 1 at t=6 */
	policy_free(p);
}
END_TEST

START_TEST(scale_out_ends_scale_in_cooldown)
{
	struct policy *p = make(0.5, 1, 100, 0, 600);
	ck_assert_int_eq(ask(p, 1, 0.25, 10).desired, 5);         /* in, cooldown to t=11 */
	ck_assert_int_eq(ask(p, 2, 0.75, 5).desired, 8);          /* out at once: ceil(7.5) = 8 */
	/* the scale-out ended the scale-in cooldown: a scale-in at t=3 is allowed */
	ck_assert_int_eq(ask(p, 3, 0.2, 8).desired, 4);
	policy_free(p);
}
END_TEST

START_TEST(missing_data_holds)
{
	struct policy *p = make(0.5, 1, 100, 0, 0);
	struct policy_decision d = ask(p, 1, NAN, 3);
	ck_assert_int_eq(d.action, POLICY_HOLD);
	ck_assert_int_eq(d.desired, 3);
	policy_free(p);
}
END_TEST

START_TEST(alarms_need_consecutive_datapoints)
{
	struct policy_decision d;
	/* 3 datapoints above the target to scale out; a datapoint at or below it starts the count again */
	struct policy *p = make_dp(0.5, 1, 100, 3, 2);
	ck_assert_int_eq(ask(p, 1, 0.75, 4).action, POLICY_HOLD);
	ck_assert_int_eq(ask(p, 2, 0.75, 4).action, POLICY_HOLD);
	ck_assert_int_eq(ask(p, 3, 0.50, 4).action, POLICY_HOLD);  /* not above: reset */
	ck_assert_int_eq(ask(p, 4, 0.75, 4).action, POLICY_HOLD);
	ck_assert_int_eq(ask(p, 5, 0.75, 4).action, POLICY_HOLD);
	d = ask(p, 6, 0.75, 4);                                      /* third in a row */
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 6);
	/* 2 below 0.45 to scale in; a missing datapoint resets */
	ck_assert_int_eq(ask(p, 20, 0.25, 6).action, POLICY_HOLD);
	ck_assert_int_eq(ask(p, 21, NAN, 6).action, POLICY_HOLD);
	ck_assert_int_eq(ask(p, 22, 0.25, 6).action, POLICY_HOLD);
	d = ask(p, 23, 0.25, 6);
	ck_assert_int_eq(d.action, POLICY_SCALE_IN);
	ck_assert_int_eq(d.desired, 3);
	policy_free(p);
}
END_TEST

START_TEST(high_resolution_scale_in_uses_minute_averages)
{
	/*
	 * SOURCES.md [tt-high-res-scale-in]: high-resolution metrics scale in "at the same speed as standard
	 * metrics". Samples every 10 s, target 0.5 (scale-in threshold 0.45), 3 datapoints to scale out, 2 to
	 * scale in, 10 instances.
	 *  - minute (0, 60]: samples at 10..50 s of 0.2 and 0.8 at 60 s: average (5 x 0.2 + 0.8) / 6 = 0.3;
	 *    the 0.8 is one sample above the target, not 3: no scale-out. Closed at 60 s: 1 datapoint below.
	 *  - minute (60, 120]: six samples of 0.3, average 0.3: the 2nd datapoint below, closed at 120 s ->
	 *    scale in to ceil(10 x 0.3 / 0.5) = 6 at 120 s, not before (each 10 s sample was not a
	 *    datapoint of the scale-in alarm: with them it would have scaled in at 20 s).
	 */
	struct scenario sc;
	struct policy_input in = { .capacity = 10, .ready = 10 };
	struct policy_decision d;
	int st;

	memset(&sc, 0, sizeof sc);
	sc.autoscaling.policy = POLICY_TARGET_TRACKING;
	sc.autoscaling.target = 0.5;
	sc.autoscaling.min = 1;
	sc.autoscaling.max = 100;
	sc.autoscaling.scale_in_margin = 0.10;
	sc.autoscaling.scale_out_datapoints = 3;
	sc.autoscaling.scale_in_datapoints = 2;
	sc.autoscaling.resolution_us = 10 * 1000000LL;
	struct policy *p = policy_new(&sc, &st);
	ck_assert_ptr_nonnull(p);
	for (int k = 1; k <= 12; k++) {
		in.now_us = k * 10 * 1000000LL;
		in.metric = k <= 5 ? 0.2 : k == 6 ? 0.8 : 0.3;
		p->ops->decide(p, &in, &d);
		if (k < 12) {
			ck_assert_msg(d.action == POLICY_HOLD, "acted at %d s", k * 10);
			continue;
		}
		ck_assert_int_eq(d.action, POLICY_SCALE_IN);
		ck_assert_int_eq(d.desired, 6);
	}
	policy_free(p);
}
END_TEST

START_TEST(none_policy_is_null)
{
	struct scenario sc;
	int st = -99;
	memset(&sc, 0, sizeof sc);
	sc.autoscaling.policy = POLICY_NONE;
	ck_assert_ptr_null(policy_new(&sc, &st));
	ck_assert_int_eq(st, STATUS_OK);
	policy_free(NULL);
}
END_TEST

static Suite *target_suite(void)
{
	Suite *s = suite_create("policy_target");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, proportional_scale_out_rounds_up);
	tcase_add_test(tc, scale_in_needs_more_than_10_percent_below);
	tcase_add_test(tc, min_and_max_bound_the_answer);
	tcase_add_test(tc, scale_out_cooldown_counts_added_capacity);
	tcase_add_test(tc, scale_in_cooldown_blocks_scale_in);
	tcase_add_test(tc, scale_out_ends_scale_in_cooldown);
	tcase_add_test(tc, missing_data_holds);
	tcase_add_test(tc, none_policy_is_null);
	tcase_add_test(tc, alarms_need_consecutive_datapoints);
	tcase_add_test(tc, high_resolution_scale_in_uses_minute_averages);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(target_suite());
}
