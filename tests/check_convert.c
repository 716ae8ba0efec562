/*
 * check_convert: the checked double -> time/count helpers (sim/convert.h), and the runs that used to
 * overflow (issue 16): tiny Spot rates whose mean gap is past the clock's range, and a target tracking
 * target so small that the desired capacity does not fit an int.
 */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "convert.h"
#include "engine.h"
#include "status.h"
#include "testutil.h"

START_TEST(time_rounds_to_nearest)
{
	int64_t us = 0;

	ck_assert_int_eq(convert_time_us(1.5, &us), STATUS_OK);
	ck_assert_int_eq(us, 2);
	ck_assert_int_eq(convert_time_us(-1.5, &us), STATUS_OK);
	ck_assert_int_eq(us, -2);
	ck_assert_int_eq(convert_time_us(0x1p62 - 1024, &us), STATUS_OK);  /* just below the limit */
	ck_assert_int_eq(us, (INT64_C(1) << 62) - 1024);
}
END_TEST

/*
 * convert_time_us rounds without llround (a speed-up): it must give llround's answer for every double in
 * range. The cases where a shortcut goes wrong: halves either way and an ulp either side of them
 * (0.49999999999999994 + 0.5 rounds to 1 in double, so "add a half and cut" fails there), where doubles
 * stop having fractions (2^52, 2^53), the limit, and a million random values over every scale, seed printed.
 */
START_TEST(time_rounds_as_llround)
{
	const double edges[] = { 0, 0.5, 1.5, 2.5, 0.49999999999999994, 1e-300, 1, 0x1p52 - 0.5, 0x1p52 - 1.5,
				 0x1p52, 0x1p52 + 1, 0x1p53 - 1, 0x1p53, 0x1p53 + 2, 0x1p62 - 1024, 123456789.5 };
	uint64_t seed = test_seed("time_rounds_as_llround", 17);
	uint64_t x = seed * 0x9E3779B97F4A7C15u + 1;
	int64_t us;

	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
		for (int sign = -1; sign <= 1; sign += 2)
			for (int step = -2; step <= 2; step++) {
				double v = sign * edges[i];
				for (int j = 0; j < abs(step); j++)
					v = nextafter(v, step < 0 ? -INFINITY : INFINITY);
				if (!(fabs(v) < 0x1p62))
					continue;
				ck_assert_int_eq(convert_time_us(v, &us), STATUS_OK);
				if (us != llround(v))
					ck_abort_msg("%.17g: %lld, llround %lld", v, (long long)us, llround(v));
			}
	for (int i = 0; i < 1000000; i++) {
		double v;
		x ^= x << 13; /* xorshift64: any bits will do, the scale is what matters */
		x ^= x >> 7;
		x ^= x << 17;
		v = ldexp((double)(x >> 11) / 0x1p53, (int)(x % 63)) * ((x >> 6) & 1 ? -1 : 1);
		ck_assert_int_eq(convert_time_us(v, &us), STATUS_OK);
		if (us != llround(v))
			ck_abort_msg("%.17g: %lld, llround %lld", v, (long long)us, llround(v));
	}
}
END_TEST

START_TEST(time_beyond_clock_is_an_error)
{
	int64_t us = 77;

	ck_assert_int_eq(convert_time_us(0x1p62, &us), STATUS_EINTERNAL);
	ck_assert_int_eq(convert_time_us(1e19, &us), STATUS_EINTERNAL);   /* > INT64_MAX: a bare cast is UB */
	ck_assert_int_eq(convert_time_us(-1e19, &us), STATUS_EINTERNAL);
	ck_assert_int_eq(convert_time_us(INFINITY, &us), STATUS_EINTERNAL);
	ck_assert_int_eq(convert_time_us(NAN, &us), STATUS_EINTERNAL);
	ck_assert_int_eq(us, 77);  /* left alone */
}
END_TEST

START_TEST(after_rounds_down_and_past_clock_is_never)
{
	int64_t t = 5;

	ck_assert_int_eq(convert_after_us(10, 2.9, &t), STATUS_OK);
	ck_assert_int_eq(t, 12);  /* 10 + floor(2.9) */
	/* 86400e6 / 1e-10 = 8.64e20 us, past INT64_MAX = 9.22e18: never */
	ck_assert_int_eq(convert_after_us(0, 8.64e20, &t), STATUS_DONE);
	ck_assert_int_eq(convert_after_us(0, INFINITY, &t), STATUS_DONE);
	/* 10 us of room left: 10 fits, 11 does not */
	ck_assert_int_eq(convert_after_us(SIM_TIME_MAX - 10, 10.0, &t), STATUS_OK);
	ck_assert_int_eq(t, SIM_TIME_MAX);
	ck_assert_int_eq(convert_after_us(SIM_TIME_MAX - 10, 11.0, &t), STATUS_DONE);
	ck_assert_int_eq(t, SIM_TIME_MAX);
	ck_assert_int_eq(convert_after_us(0, NAN, &t), STATUS_EINTERNAL);
	ck_assert_int_eq(convert_after_us(0, -1.0, &t), STATUS_EINTERNAL);
}
END_TEST

START_TEST(counts_checked_and_saturated)
{
	int n = 9;

	ck_assert_int_eq(convert_count(2147483647.0, &n), STATUS_OK);
	ck_assert_int_eq(n, INT_MAX);
	ck_assert_int_eq(convert_count(2147483648.0, &n), STATUS_EINTERNAL);
	ck_assert_int_eq(convert_count(NAN, &n), STATUS_EINTERNAL);
	ck_assert_int_eq(n, INT_MAX);
	ck_assert_int_eq(convert_count_saturate(4.29e9), INT_MAX);
	ck_assert_int_eq(convert_count_saturate(-1e300), INT_MIN);
	ck_assert_int_eq(convert_count_saturate(-3.0), -3);
}
END_TEST

static const char *spot_yaml =
	"name: tiny-rates\n"
	"seed: 42\n"
	"start: 2026-12-01T00:00:00Z\n"
	"horizon: 1d\n"
	"slo: {latency_s: 20}\n"
	"workload:\n"
	"  arrivals: {kind: poisson, rate_per_s: 1}\n"
	"  service: {kind: constant, mean_s: 6.0}\n"
	"serving: {instance_type: p5.48xlarge, slots_per_instance: 32, startup_s: 5m}\n"
	"fleet:\n"
	"  - {option: spot, count: 2, max: 4, interruptions_per_hour: 1e-300, reclaims_per_day: 1e-10}\n"
	"  - {option: on_demand, max: 4}\n";

static int count_events(const struct capture *c, const char *kind)
{
	int n = 0;

	for (int i = 0; i < c->nevents; i++)
		n += strcmp(c->events[i].kind, kind) == 0;
	return n;
}

/*
 * reclaims_per_day: 1e-10 has a mean gap of 86400e6 / 1e-10 = 8.64e20 us, past the clock's last
 * microsecond (9.22e18 us): the chance of a reclaim within the 1-day horizon is 1 - exp(-1e-10), so the
 * right answer is none. interruptions_per_hour: 1e-300 gives a mean gap of 3.6e9 / 1e-300 = +inf: none.
 * Before the fix the gap was cast to INT64_MIN and the run failed (or reclaimed at t = -9.2e12 s).
 */
START_TEST(tiny_spot_rates_never_happen)
{
	static struct capture c;
	const char *reclaim_300[] = { "fleet.0.reclaims_per_day=1e-300" };

	capture_run(&c, spot_yaml, NULL, 0);
	ck_assert_int_eq(count_events(&c, "spot_reclaim"), 0);
	ck_assert_int_eq(count_events(&c, "interrupt"), 0);
	capture_run(&c, spot_yaml, reclaim_300, 1);  /* 86400e6 / 1e-300 = +inf */
	ck_assert_int_eq(count_events(&c, "spot_reclaim"), 0);
	ck_assert_int_eq(count_events(&c, "interrupt"), 0);
}
END_TEST

static const char *target_yaml =
	"name: tiny-target\n"
	"seed: 3\n"
	"start: 2026-12-01T00:00:00Z\n"
	"horizon: 2h\n"
	"slo: {latency_s: 20}\n"
	"workload:\n"
	"  arrivals: {kind: poisson, rate_per_s: 2}\n"
	"  service: {kind: constant, mean_s: 6.0}\n"
	"serving: {instance_type: p5.48xlarge, slots_per_instance: 4, queue_timeout_s: 60, startup_s: 5m}\n"
	"fleet:\n"
	"  - {option: on_demand, count: 4, max: 8}\n"
	"autoscaling: {policy: target_tracking, target: 7e-10, min: 4, max: 8}\n";

/*
 * A target of 7e-10 with utilisation near 2/s x 6 s / 16 slots = 0.75 on 4 instances asks for
 * ceil(4 x 0.75 / 7e-10) = 4.29e9 instances, beyond INT_MAX (2.15e9): the count saturates and the clamp
 * gives max = 8, so the fleet scales out to 8. Before the fix (int)ceil(...) gave INT_MIN, clamped to
 * min = 4: the fleet never scaled.
 */
START_TEST(tiny_target_scales_to_max)
{
	static struct capture c;
	int out = 0, to = 0;

	capture_run(&c, target_yaml, NULL, 0);
	for (int i = 0; i < c.nevents; i++) {
		if (strcmp(c.events[i].kind, "scale_out") == 0) {
			out++;
			to = c.events[i].count;
		}
	}
	ck_assert_int_ge(out, 1);
	ck_assert_int_eq(to, 8);
}
END_TEST

static Suite *convert_suite(void)
{
	Suite *s = suite_create("convert");
	TCase *tc = tcase_create("convert");

	tcase_add_test(tc, time_rounds_to_nearest);
	tcase_add_test(tc, time_rounds_as_llround);
	tcase_add_test(tc, time_beyond_clock_is_an_error);
	tcase_add_test(tc, after_rounds_down_and_past_clock_is_never);
	tcase_add_test(tc, counts_checked_and_saturated);
	tcase_add_test(tc, tiny_spot_rates_never_happen);
	tcase_add_test(tc, tiny_target_scales_to_max);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(convert_suite());
}
