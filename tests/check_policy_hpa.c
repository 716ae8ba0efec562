/*
 * check_policy_hpa: the Kubernetes HPA's documented rules (SOURCES.md [hpa-formula], [hpa-tolerance],
 * [hpa-stabilization], [hpa-scale-up-limit], [hpa-not-ready]), one test per rule, on metric
 * sequences whose answers are computed by hand in the comments. Evaluations every 15 s (the default
 * sync period).
 */
#include <check.h>
#include <math.h>

#include "policy.h"
#include "status.h"
#include "testutil.h"

#define S 1000000LL

static struct policy *hpa(int min, int max)
{
	/* target 0.5, tolerance 0.1, window 300 s, scale-up max(100%, 4 pods) per period */
	struct policy *p = policy_hpa_new(0.5, 0.1, min, max, 300 * S, 100, 4);
	ck_assert_ptr_nonnull(p);
	return p;
}

static struct policy_decision ask(struct policy *p, int t_s, double metric, int capacity)
{
	struct policy_input in = { .now_us = t_s * S, .metric = metric, .capacity = capacity, .ready = capacity };
	struct policy_decision out;

	p->ops->decide(p, &in, &out);
	return out;
}

START_TEST(tolerance_band)
{
	struct policy *p = hpa(1, 100);
	/* ratio 0.54 / 0.5 = 1.08: within 10%, no action */
	ck_assert_int_eq(ask(p, 15, 0.54, 10).action, POLICY_HOLD);
	/* ratio 1.12: ceil(10 x 1.12) = 12 */
	struct policy_decision d = ask(p, 30, 0.56, 10);
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 12);
	policy_free(p);
}
END_TEST

START_TEST(scale_up_limited_per_period)
{
	struct policy *p = hpa(1, 1000);
	/* 2 replicas at 5x the target: recommends 10, limited to max(2 x 2, 2 + 4) = 6 */
	ck_assert_int_eq(ask(p, 15, 2.5, 2).desired, 6);
	policy_free(p);
	p = hpa(1, 1000);
	/* 10 replicas at 3x: recommends 30, limited to max(20, 14) = 20 */
	ck_assert_int_eq(ask(p, 15, 1.5, 10).desired, 20);
	policy_free(p);
}
END_TEST

START_TEST(unready_replicas_count_as_zero_on_scale_up)
{
	struct policy *p = hpa(1, 100);
	struct policy_input in = { .now_us = 15 * S, .metric = 1.0, .capacity = 4, .ready = 2 };
	struct policy_decision d;

	/* 2 of 4 ready at 2x the target: with the unready at 0% the ratio is 2 x 2 / 4 = 1: no action */
	p->ops->decide(p, &in, &d);
	ck_assert_int_eq(d.action, POLICY_HOLD);
	/* 3 of 4 ready at 2x: 2 x 3 / 4 = 1.5 -> ceil(4 x 1.5) = 6 (not ceil(4 x 2) = 8) */
	in.now_us = 30 * S;
	in.ready = 3;
	p->ops->decide(p, &in, &d);
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 6);
	/* 1 of 4 ready at 2x: 0.5, the direction reverses: no action (never a scale-in from this) */
	in.now_us = 45 * S;
	in.ready = 1;
	in.capacity = 6;
	p->ops->decide(p, &in, &d);
	ck_assert_int_eq(d.action, POLICY_HOLD);
	policy_free(p);
}
END_TEST

START_TEST(scale_down_stabilisation_window)
{
	struct policy *p = hpa(1, 100);
	/* t = 0: at target with 10 replicas (recommendation 10). From t = 15 the load halves: each
	 * recommendation is 5, but the highest within 300 s is still 10 until the t = 0 one leaves the
	 * window, at t = 315: then scale in to 5. */
	ck_assert_int_eq(ask(p, 0, 0.5, 10).action, POLICY_HOLD);
	for (int t = 15; t <= 300; t += 15)
		ck_assert_msg(ask(p, t, 0.25, 10).action == POLICY_HOLD, "scaled in early at %d s", t);
	struct policy_decision d = ask(p, 315, 0.25, 10);
	ck_assert_int_eq(d.action, POLICY_SCALE_IN);
	ck_assert_int_eq(d.desired, 5);
	policy_free(p);
}
END_TEST

START_TEST(missing_metric_holds)
{
	struct policy *p = hpa(1, 100);
	ck_assert_int_eq(ask(p, 15, NAN, 4).action, POLICY_HOLD);
	policy_free(p);
}
END_TEST

START_TEST(bounds)
{
	struct policy *p = hpa(3, 8);
	/* ceil(6 x 0.05 / 0.5) = 1 -> min 3; the window holds only this recommendation */
	ck_assert_int_eq(ask(p, 15, 0.05, 6).desired, 3);
	policy_free(p);
	p = hpa(3, 8);
	/* ceil(6 x 1.0 / 0.5) = 12 -> max 8 (within the scale-up limit of 12) */
	ck_assert_int_eq(ask(p, 15, 1.0, 6).desired, 8);
	policy_free(p);
}
END_TEST

/*
 * The edge of the tolerance band, from both sides, with target 0.6 and tolerance 0.1: metric 0.66 is
 * exactly 1 + tolerance in decimal (0.66 / 0.6 = 1.1; in binary |ratio - 1| = 0.10000000000000009) and
 * is within the band, so it holds, and it must hold every period on a steady load while new replicas
 * start. Before the hold test and the not-ready correction shared one comparison, the correction
 * (ratio > 1.1: false) skipped and the hold test (|ratio - 1| <= 0.1: false) scaled out: ceil(4 x 1.1) =
 * 5, then ceil(5 x 1.1) = 6, 7, 8, ceil(8 x 1.1) = 9: 4 -> 9 in five periods on a load that never moved.
 */
START_TEST(tolerance_edge_holds_on_a_steady_load)
{
	struct policy *p = policy_hpa_new(0.6, 0.1, 1, 100, 300 * S, 100, 4);
	struct policy_input in = { .metric = 0.66, .capacity = 4, .ready = 4 };
	struct policy_decision d;

	for (int k = 1; k <= 6; k++) {
		in.now_us = 15 * k * S;
		p->ops->decide(p, &in, &d);
		ck_assert_msg(d.action == POLICY_HOLD, "period %d: %d -> %d at the tolerance's edge", k, in.capacity,
			      d.desired);
		in.capacity = d.desired;
	}
	policy_free(p);
}
END_TEST

START_TEST(tolerance_edge_from_both_sides)
{
	struct policy *p = policy_hpa_new(0.6, 0.1, 1, 100, 300 * S, 100, 4);
	struct policy_input in = { .now_us = 15 * S, .metric = 0.6601, .capacity = 4, .ready = 4 };
	struct policy_decision d;

	/* just above the edge: 0.6601 / 0.6 = 1.10017 -> ceil(4 x 1.10017) = ceil(4.4007) = 5 */
	p->ops->decide(p, &in, &d);
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 5);
	/* the not-ready correction on the edge: 4 of 5 ready at 0.825: 0.825 / 0.6 x 4 / 5 = 1.375 x 0.8 =
	 * 1.1, within: hold (the old hold test scaled out to ceil(5 x 1.1) = 6) */
	in = (struct policy_input){ .now_us = 30 * S, .metric = 0.825, .capacity = 5, .ready = 4 };
	p->ops->decide(p, &in, &d);
	ck_assert_int_eq(d.action, POLICY_HOLD);
	/* just above it: 0.8251 / 0.6 x 0.8 = 1.100133 -> ceil(5 x 1.100133) = ceil(5.5007) = 6 */
	in.now_us = 45 * S;
	in.metric = 0.8251;
	p->ops->decide(p, &in, &d);
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 6);
	policy_free(p);

	/* the lower edge: 0.54 / 0.6 = 0.9 = 1 - tolerance: within, hold; 0.5399 / 0.6 = 0.89983 ->
	 * ceil(10 x 0.89983) = ceil(8.9983) = 9, the only recommendation in the window: in to 9 */
	p = policy_hpa_new(0.6, 0.1, 1, 100, 300 * S, 100, 4);
	in = (struct policy_input){ .now_us = 15 * S, .metric = 0.54, .capacity = 10, .ready = 10 };
	p->ops->decide(p, &in, &d);
	ck_assert_int_eq(d.action, POLICY_HOLD);
	policy_free(p);
	p = policy_hpa_new(0.6, 0.1, 1, 100, 300 * S, 100, 4);
	in.metric = 0.5399;
	p->ops->decide(p, &in, &d);
	ck_assert_int_eq(d.action, POLICY_SCALE_IN);
	ck_assert_int_eq(d.desired, 9);
	policy_free(p);
}
END_TEST

static Suite *hpa_suite(void)
{
	Suite *s = suite_create("policy_hpa");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, tolerance_band);
	tcase_add_test(tc, scale_up_limited_per_period);
	tcase_add_test(tc, unready_replicas_count_as_zero_on_scale_up);
	tcase_add_test(tc, scale_down_stabilisation_window);
	tcase_add_test(tc, missing_metric_holds);
	tcase_add_test(tc, bounds);
	tcase_add_test(tc, tolerance_edge_holds_on_a_steady_load);
	tcase_add_test(tc, tolerance_edge_from_both_sides);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(hpa_suite());
}
