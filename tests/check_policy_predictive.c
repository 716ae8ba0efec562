/*
 * check_policy_predictive: the predictive policy on histories fed by hand (the forecasts and decisions are
 * computed in the comments), Holt-Winters on a pure daily sinusoid, and the scenario keys with each of
 * their errors provoked.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "policy.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"

#define S 1000000LL
#define H (3600 * S)
#define DAY (24 * H)
#define SLOTS 10
#define PI 3.14159265358979323846

static struct scenario sc; /* large: static, and rebuilt by each test */

/* A predictive policy on hourly periods: target 0.5, bounds [1, 1000], lead 2 h. */
static struct policy *predictive(enum forecast_kind kind, int64_t period_us, int64_t lead_us)
{
	struct policy *p;
	int status;

	memset(&sc, 0, sizeof sc);
	sc.autoscaling.policy = POLICY_PREDICTIVE;
	sc.autoscaling.target = 0.5;
	sc.autoscaling.min = 1;
	sc.autoscaling.max = 1000;
	sc.autoscaling.resolution_us = period_us;
	sc.autoscaling.lead_us = lead_us;
	sc.autoscaling.forecast = kind;
	sc.autoscaling.alpha = 0.5;
	sc.autoscaling.beta = 0.1;
	sc.autoscaling.gamma = 0.3;
	p = policy_new(&sc, &status);
	ck_assert_int_eq(status, STATUS_OK);
	ck_assert_ptr_nonnull(p);
	return p;
}

/* Evaluate at the end of period k: its rate (1/s), 2 s of busy slot-time per arrival. */
static struct policy_decision feed(struct policy *p, int64_t k, int64_t period_us, double rate, double metric,
				   int capacity)
{
	struct policy_input in = { .now_us = k * period_us, .metric = metric, .capacity = capacity, .ready = capacity,
				   .arrivals_per_s = rate, .busy_per_arrival_s = rate > 0 ? 2.0 : NAN,
				   .slots = SLOTS };
	struct policy_decision out;

	p->ops->decide(p, &in, &out);
	return out;
}

/* The hourly pattern used below: period k (hour k-1 .. k) has rate 10 x (k mod 24) + 5. */
static double pattern(int64_t k)
{
	return 10.0 * (double)(k % 24) + 5;
}

START_TEST(yesterday_reads_the_period_one_day_back)
{
	struct policy *p = predictive(FORECAST_YESTERDAY, H, 2 * H);

	for (int64_t k = 1; k <= 30; k++)
		feed(p, k, H, (double)k, NAN, 1);
	/* at 32 h: period 32, one day back period 8, observed rate 8 */
	ck_assert_double_eq(policy_predictive_forecast(p, 32 * H), 8);
	/* 31.5 h is in period 32 too; 30 h + 1 us is in period 31 -> 7 */
	ck_assert_double_eq(policy_predictive_forecast(p, 31 * H + H / 2), 8);
	ck_assert_double_eq(policy_predictive_forecast(p, 30 * H + 1), 7);
	/* the day before period 55 is 31, not yet observed; before period 24, nothing */
	ck_assert(isnan(policy_predictive_forecast(p, 55 * H)));
	ck_assert(isnan(policy_predictive_forecast(p, 20 * H)));
	policy_free(p);
}
END_TEST

START_TEST(last_week_reads_the_period_seven_days_back)
{
	struct policy *p = predictive(FORECAST_LAST_WEEK, H, 2 * H);

	for (int64_t k = 1; k <= 200; k++)
		feed(p, k, H, (double)k, NAN, 1);
	/* period 202 - 168 = 34; period 201 - 168 = 33 */
	ck_assert_double_eq(policy_predictive_forecast(p, 202 * H), 34);
	ck_assert_double_eq(policy_predictive_forecast(p, 201 * H), 33);
	/* the ring holds one week + 1: period 200 + 169 - 168 = 201 is not observed yet */
	ck_assert(isnan(policy_predictive_forecast(p, 369 * H)));
	ck_assert(isnan(policy_predictive_forecast(p, 168 * H)));
	policy_free(p);
}
END_TEST

START_TEST(yesterday_plans_a_daily_pattern)
{
	struct policy *p = predictive(FORECAST_YESTERDAY, H, 2 * H);
	struct policy_decision d;

	for (int64_t k = 1; k <= 29; k++)
		feed(p, k, H, pattern(k), NAN, 1);
	/* at 30 h (rate now 65: load now 65 x 2 / (10 x 0.5) = 26): period 32 a day back is 8, rate 85, service
	 * 2 s: ceil(85 x 2 / 5) = 34 */
	d = feed(p, 30, H, pattern(30), 0.3, 20);
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 34);
	for (int64_t k = 31; k <= 35; k++)
		feed(p, k, H, pattern(k), 0.3, 34);
	/* at 36 h (rate 125, load now 50): period 38 -> 14, rate 145, ceil(290 / 5) = 58; scale in from 70 */
	d = feed(p, 36, H, pattern(36), 0.3, 70);
	ck_assert_int_eq(d.action, POLICY_SCALE_IN);
	ck_assert_int_eq(d.desired, 58);
	/* at 47 h (rate 235, load now ceil(470 / 5) = 94): period 49 -> 25, rate 15, 6; never below 94 */
	for (int64_t k = 37; k <= 46; k++)
		feed(p, k, H, pattern(k), 0.3, 120);
	d = feed(p, 47, H, pattern(47), 0.3, 120);
	ck_assert_int_eq(d.action, POLICY_SCALE_IN);
	ck_assert_int_eq(d.desired, 94);
	policy_free(p);
}
END_TEST

START_TEST(scale_in_keeps_what_the_lead_needs)
{
	struct policy *p = predictive(FORECAST_YESTERDAY, H, 2 * H);
	struct policy_decision d;

	/* 5/s all day except 100/s in period 9 */
	for (int64_t k = 1; k <= 31; k++)
		feed(p, k, H, k == 9 ? 100 : 5, NAN, 1);
	/* at 32 h with 60 instances: period 34 (lead 2 h) a day back is 10: 5/s -> ceil(5 x 2 / 5) = 2, load now
	 * 2; but period 33, inside the lead, a day back is 9: 100/s -> ceil(200 / 5) = 40: scale in to 40 only */
	d = feed(p, 32, H, 5, 0.3, 60);
	ck_assert_int_eq(d.action, POLICY_SCALE_IN);
	ck_assert_int_eq(d.desired, 40);
	/* at 33 h with 40: periods 34 and 35 a day back are 10 and 11, 5/s: now 2 will do */
	d = feed(p, 33, H, 5, 0.3, 40);
	ck_assert_int_eq(d.action, POLICY_SCALE_IN);
	ck_assert_int_eq(d.desired, 2);
	policy_free(p);
}
END_TEST

START_TEST(no_scale_in_above_target)
{
	struct policy *p = predictive(FORECAST_YESTERDAY, H, 2 * H);

	for (int64_t k = 1; k <= 35; k++)
		feed(p, k, H, pattern(k), NAN, 1);
	/* as at 36 h above (forecast 58, load 50), but the metric 0.6 is above the target 0.5: hold at 70 */
	ck_assert_int_eq(feed(p, 36, H, pattern(36), 0.6, 70).action, POLICY_HOLD);
	policy_free(p);
}
END_TEST

START_TEST(first_day_only_reacts_outwards)
{
	struct policy *p = predictive(FORECAST_YESTERDAY, H, 2 * H);
	struct policy_decision d;

	/* no history for period 3 a day back: below the target, hold (even with more than the load needs) */
	ck_assert_int_eq(feed(p, 1, H, 20, 0.3, 30).action, POLICY_HOLD);
	/* above the target: the load now, 100 x 2 / 5 = 40 */
	d = feed(p, 2, H, 100, 0.8, 30);
	ck_assert_int_eq(d.action, POLICY_SCALE_OUT);
	ck_assert_int_eq(d.desired, 40);
	/* missing metric: no action */
	ck_assert_int_eq(feed(p, 3, H, 100, NAN, 1).action, POLICY_HOLD);
	policy_free(p);
}
END_TEST

START_TEST(bounds_clamp)
{
	struct policy *p = predictive(FORECAST_YESTERDAY, H, 2 * H);

	p->max = 12;
	ck_assert_int_eq(feed(p, 1, H, 100, 0.9, 5).desired, 12);
	p->min = 8;
	p->max = 1000;
	for (int64_t k = 2; k <= 24; k++)
		feed(p, k, H, 0.5, 0.1, 20);
	/* forecast 0.5 (period 2) and load 0.5 x 2 / 5: 1 each; min 8 */
	ck_assert_int_eq(feed(p, 25, H, 0.5, 0.1, 20).desired, 8);
	policy_free(p);
}
END_TEST

/* A pure daily sinusoid, 20 x (1 + 0.8 sin(2 pi t / day)), at the middle of each 60 s period. */
static double sinusoid(int64_t k)
{
	double t = ((double)k - 0.5) * 60.0;
	return 20.0 * (1.0 + 0.8 * sin(2 * PI * t / 86400.0));
}

START_TEST(holt_winters_converges_on_a_daily_sinusoid)
{
	const int64_t period = 60 * S, lead = 21 * 60 * S, day = 1440;
	struct policy *p = predictive(FORECAST_HOLT_WINTERS, period, lead);
	double worst = 0;

	/* nothing before a full season */
	for (int64_t k = 1; k < day; k++)
		feed(p, k, period, sinusoid(k), NAN, 1);
	ck_assert(isnan(policy_predictive_forecast(p, (day - 1) * period + lead)));
	for (int64_t k = day; k <= 3 * day; k++)
		feed(p, k, period, sinusoid(k), NAN, 1);
	/* after 3 days, over the 4th: every forecast 21 periods ahead within 0.1/s (0.5% of the mean rate) */
	for (int64_t k = 3 * day + 1; k <= 4 * day; k++) {
		double f = policy_predictive_forecast(p, (k - 1) * period + lead);
		double err = fabs(f - sinusoid(k - 1 + lead / period));
		worst = err > worst ? err : worst;
		feed(p, k, period, sinusoid(k), NAN, 1);
	}
	printf("holt_winters: worst error on day 4 %.3g/s (tolerance 0.1)\n", worst);
	ck_assert_double_le(worst, 0.1);
	policy_free(p);
}
END_TEST

START_TEST(holt_winters_recovers_from_a_level_shift)
{
	const int64_t period = 60 * S, lead = 21 * 60 * S, day = 1440;
	struct policy *p = predictive(FORECAST_HOLT_WINTERS, period, lead);
	double worst = 0;

	/* the first day runs 4/s (20%) above the sinusoid; the next two are pure: the level must come down */
	for (int64_t k = 1; k <= day; k++)
		feed(p, k, period, sinusoid(k) + 4, NAN, 1);
	for (int64_t k = day + 1; k <= 3 * day; k++)
		feed(p, k, period, sinusoid(k), NAN, 1);
	for (int64_t k = 3 * day + 1; k <= 4 * day; k++) {
		double f = policy_predictive_forecast(p, (k - 1) * period + lead);
		double err = fabs(f - sinusoid(k - 1 + lead / period));
		worst = err > worst ? err : worst;
		feed(p, k, period, sinusoid(k), NAN, 1);
	}
	/* the season absorbed part of the shift on day 2 and sheds it at (1 - gamma) a day: tolerance 1/s, 5%
	 * of the mean rate (0.83 measured) */
	printf("holt_winters after a level shift: worst error on day 4 %.3g/s (tolerance 1)\n", worst);
	ck_assert_double_le(worst, 1.0);
	policy_free(p);
}
END_TEST

/* ---- scenario keys ----------------------------------------------------------------------------- */

static const char base[] =
	"name: p\nseed: 1\nhorizon: 1h\nslo: {latency_s: 5}\n"
	"workload:\n  arrivals: {kind: poisson, rate_per_s: 2}\n  service: {kind: exponential, mean_s: 1}\n"
	"serving: {instance_type: g6.12xlarge, slots_per_instance: 4, startup_s: 300}\n"
	"fleet:\n  - {option: on_demand, max: 8}\n"
	"autoscaling: {policy: predictive, target: 0.7}\n";

static int parse(const char *const *sets, int nsets, struct diag *d)
{
	int rc = scenario_parse_string(&sc, base, "test.yaml", sets, nsets, d);

	if (rc == STATUS_OK)
		scenario_fini(&sc);
	return rc;
}

START_TEST(keys_and_defaults)
{
	const char *sets[] = { "autoscaling.forecast=holt_winters", "autoscaling.alpha=0.2" };
	struct diag d;

	ck_assert_int_eq(scenario_parse_string(&sc, base, "test.yaml", NULL, 0, &d), STATUS_OK);
	ck_assert_int_eq(sc.autoscaling.policy, POLICY_PREDICTIVE);
	ck_assert_int_eq(sc.autoscaling.forecast, FORECAST_YESTERDAY);
	/* startup 300 s + resolution 60 s */
	ck_assert_int_eq(sc.autoscaling.lead_us, 360 * S);
	ck_assert_double_eq(sc.autoscaling.beta, 0.1);
	scenario_fini(&sc);
	ck_assert_int_eq(scenario_parse_string(&sc, base, "test.yaml", sets, 2, &d), STATUS_OK);
	ck_assert_int_eq(sc.autoscaling.forecast, FORECAST_HOLT_WINTERS);
	ck_assert_double_eq(sc.autoscaling.alpha, 0.2);
	ck_assert_double_eq(sc.autoscaling.gamma, 0.3);
	scenario_fini(&sc);
	/* with copies, a new instance serves once a copy has loaded on it: + the mean copy startup */
	for (int i = 0; i < 2; i++) {
		char yaml[1024];
		snprintf(yaml, sizeof yaml, "name: p\nhorizon: 1h\nslo: {latency_s: 5}\n"
			 "workload:\n  arrivals: {kind: poisson, rate_per_s: 2}\n"
			 "  service: {kind: exponential, mean_s: 1}\n"
			 "serving: {instance_type: g6.12xlarge, startup_s: 300, copies: {gpus_per_copy: 1, %s}}\n"
			 "fleet:\n  - {option: on_demand, max: 8}\n"
			 "autoscaling: {policy: predictive, target: 0.7}\n",
			 i == 0 ? "startup_s: 90" : "startup: {kind: empirical, values_s: [60, 120]}");
		ck_assert_int_eq(scenario_parse_string(&sc, yaml, "test.yaml", NULL, 0, &d), STATUS_OK);
		ck_assert_int_eq(sc.autoscaling.lead_us, (300 + 60 + 90) * S);
		scenario_fini(&sc);
	}
}
END_TEST

START_TEST(key_errors)
{
	static const struct { const char *set; const char *says; } bad[] = {
		{ "autoscaling.forecast=tomorrow", "tomorrow" },
		{ "autoscaling.lead_s=2d", "lead_s" },
		{ "autoscaling.resolution_s=7", "divide a day" },
		{ "autoscaling.alpha=0.5", "holt_winters" },
		{ "autoscaling.metric=invocations_per_instance", "concurrency" },
		{ "autoscaling.policy=target_tracking\nautoscaling.forecast=holt_winters", "only to policy predictive" },
	};
	struct diag d;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *sets[2] = { bad[i].set, NULL };
		char one[128], *nl;
		int n = 1;
		snprintf(one, sizeof one, "%s", bad[i].set);
		if ((nl = strchr(one, '\n'))) {
			*nl = '\0';
			sets[0] = one;
			sets[1] = nl + 1;
			n = 2;
		}
		ck_assert_int_eq(parse(sets, n, &d), STATUS_EINPUT);
		ck_assert_msg(strstr(d.msg, bad[i].says), "%s: %s", bad[i].set, d.msg);
	}
	{
		const char *sets[] = { "autoscaling.forecast=holt_winters", "autoscaling.gamma=1" };
		ck_assert_int_eq(parse(sets, 2, &d), STATUS_EINPUT);
		ck_assert_msg(strstr(d.msg, "gamma"), "%s", d.msg);
	}
}
END_TEST

START_TEST(target_is_required)
{
	static const char no_target[] =
		"name: p\nhorizon: 1h\nslo: {latency_s: 5}\n"
		"workload:\n  arrivals: {kind: poisson, rate_per_s: 2}\n  service: {kind: exponential, mean_s: 1}\n"
		"serving: {instance_type: g6.12xlarge, slots_per_instance: 4}\n"
		"fleet:\n  - {option: on_demand, max: 8}\n"
		"autoscaling: {policy: predictive}\n";
	struct diag d;

	ck_assert_int_eq(scenario_parse_string(&sc, no_target, "test.yaml", NULL, 0, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "target"), "%s", d.msg);
}
END_TEST

static Suite *predictive_suite(void)
{
	Suite *s = suite_create("policy_predictive");
	TCase *tc = tcase_create("forecasts");
	TCase *keys = tcase_create("keys");

	tcase_add_test(tc, yesterday_reads_the_period_one_day_back);
	tcase_add_test(tc, last_week_reads_the_period_seven_days_back);
	tcase_add_test(tc, yesterday_plans_a_daily_pattern);
	tcase_add_test(tc, no_scale_in_above_target);
	tcase_add_test(tc, scale_in_keeps_what_the_lead_needs);
	tcase_add_test(tc, first_day_only_reacts_outwards);
	tcase_add_test(tc, bounds_clamp);
	tcase_add_test(tc, holt_winters_converges_on_a_daily_sinusoid);
	tcase_add_test(tc, holt_winters_recovers_from_a_level_shift);
	suite_add_tcase(s, tc);
	tcase_add_test(keys, keys_and_defaults);
	tcase_add_test(keys, key_errors);
	tcase_add_test(keys, target_is_required);
	suite_add_tcase(s, keys);
	return s;
}

int main(void)
{
	return test_run_suite(predictive_suite());
}
