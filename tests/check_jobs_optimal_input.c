/*
 * check_jobs_optimal_input: jobs_optimal's input side (models/jobs/jobs_optimal.c): a job that cannot make
 * its deadline (STATUS_DONE), every malformed field (STATUS_EINPUT), the automatic resolution, and every
 * malloc failing in turn (STATUS_ENOMEM; this binary is linked with -Wl,--wrap=malloc,--wrap=free,
 * tests/CMakeLists.txt). The optimum itself is checked in check_jobs_optimal.c. Costs are compared to 1e-9
 * relative, hours to 1e-9 h.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "jobs_optimal.h"
#include "status.h"
#include "testutil.h"

#define S_US ((int64_t)1000000)
#define H_US (3600 * S_US)
#define TOL 1e-9

/* malloc and free, failing the fail_at-th malloc (counting from 1) when fail_at > 0; live counts blocks. */
void *__real_malloc(size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void __wrap_free(void *p);
static int fail_at, nmalloc, live;

void *__wrap_malloc(size_t n)
{
	void *p;

	if (fail_at > 0 && ++nmalloc == fail_at)
		return NULL;
	p = __real_malloc(n);
	if (p != NULL)
		live++;
	return p;
}

void __wrap_free(void *p)
{
	if (p != NULL)
		live--;
	__real_free(p);
}

static bool close_to(double a, double b)
{
	return fabs(a - b) <= TOL * fmax(1, fmax(fabs(a), fabs(b)));
}

/* A job of T hours, N instances, window hours from submit 0, gap 600 s, Spot at $1/h, On-Demand at $3/h. */
static struct jobs_opt_input job(const int *avail, int navail, int n, double t_h, double window_h)
{
	return (struct jobs_opt_input){
		.submit_us = 0, .deadline_us = (int64_t)(window_h * H_US), .compute_us = (int64_t)(t_h * H_US),
		.instances = n, .avail = avail, .navail = navail, .gap_us = 600 * S_US,
		.overhead_spot_us = 720 * S_US, .overhead_od_us = 360 * S_US,
		.spot_usd_per_h = 1, .od_usd_per_h = 3,
	};
}

static void solve_ok(const struct jobs_opt_input *in, double cost, double spot_h, double od_h)
{
	struct jobs_opt_result r;

	ck_assert_int_eq(jobs_opt_solve(in, &r), STATUS_OK);
	ck_assert_msg(close_to(r.cost_usd, cost), "cost %.9g, expected %.9g", r.cost_usd, cost);
	ck_assert_msg(close_to(r.spot_h, spot_h), "spot %.9g h, expected %.9g", r.spot_h, spot_h);
	ck_assert_msg(close_to(r.od_h, od_h), "od %.9g h, expected %.9g", r.od_h, od_h);
}

/* All On-Demand needs 10 + 0.1 h > the 10 h window, and Spot never comes: STATUS_DONE, cost infinite. */
START_TEST(infeasible_is_done)
{
	static const int avail[] = { 0 };
	struct jobs_opt_input in = job(avail, 1, 1, 10, 10);
	struct jobs_opt_result r;

	ck_assert_int_eq(jobs_opt_solve(&in, &r), STATUS_DONE);
	ck_assert(isinf(r.cost_usd) && r.cost_usd > 0);
	ck_assert(r.spot_h == 0 && r.od_h == 0);
	in.deadline_us += 360 * S_US;   /* exactly enough */
	solve_ok(&in, 30.3, 0, 10.1);
}
END_TEST

/* A Spot price that turns to NaN at 1 h. */
static double bad_price(void *ctx, int64_t t_us)
{
	(void)ctx;
	return t_us >= H_US ? NAN : 1;
}

/* $1 in the first hour, then -$1 (a finite price, but negative) */
static double negative_price(void *ctx, int64_t t_us)
{
	(void)ctx;
	return t_us >= H_US ? -1 : 1;
}

/* $1 in the first hour, then +infinity (not negative, but not finite) */
static double infinite_price(void *ctx, int64_t t_us)
{
	(void)ctx;
	return t_us >= H_US ? INFINITY : 1;
}

/* Each field out of range in turn: STATUS_EINPUT, *out untouched. */
#define REJECT(change) do { \
		in = ok, change; \
		ck_assert_int_eq(jobs_opt_solve(&in, &r), STATUS_EINPUT); \
	} while (0)

START_TEST(bad_input)
{
	static const int avail[] = { 1 }, negative[] = { -1 };
	struct jobs_opt_input ok = job(avail, 1, 1, 1, 2), in;
	struct jobs_opt_result r = { 42, 0, 0, 0 };

	REJECT(in.deadline_us = in.submit_us);
	REJECT(in.submit_us = -1);
	REJECT(in.compute_us = -1);
	REJECT(in.instances = 0);
	REJECT(in.avail = NULL);
	REJECT(in.navail = 0);
	REJECT(in.avail = negative);
	REJECT(in.gap_us = 0);
	REJECT(in.overhead_spot_us = -1);
	REJECT(in.overhead_od_us = -1);
	REJECT(in.hour_us = -1);
	REJECT(in.resolution_us = -1);
	REJECT(in.resolution_us = 1);   /* T / delta = 3.6e9 > 2^30 */
	REJECT(in.gap_us = 1);          /* 7.2e9 ticks in the window */
	REJECT(in.od_usd_per_h = -3);
	REJECT(in.spot_usd_per_h = NAN);
	REJECT(in.spot_price = bad_price);   /* NaN from the second hour */
	REJECT(in.spot_price = negative_price);   /* -1 from the second hour: finite, still rejected */
	REJECT(in.spot_price = infinite_price);   /* +inf from the second hour: not negative, still rejected */
	ck_assert(r.cost_usd == 42);
}
END_TEST

/* The automatic resolution: the paper's setting; a gap whose 60th is no divisor, and one whose 60th is; coarsening. */
START_TEST(auto_resolution)
{
	static const int avail[] = { 1 };
	struct jobs_opt_input in = job(avail, 1, 1, 48, 60);
	struct jobs_opt_result res;

	in.overhead_od_us = 720 * S_US;
	ck_assert_int_eq(jobs_opt_resolution(&in), 120 * S_US);   /* gcd(600, 720, 720) s */
	in.gap_us = 3601 * S_US;   /* = 13 x 277: gcd 1 s < 3601 / 60; largest divisor <= 60 s is 13 s */
	in.compute_us = H_US, in.deadline_us = 2 * H_US;   /* small enough not to coarsen */
	ck_assert_int_eq(jobs_opt_resolution(&in), 13 * S_US);
	/* gap 3600 s, overheads 61 s and 0: gcd 1 s < 3600 / 60, so the largest divisor of 3600 s up to 3600 / 60
	 * = 60 s: 60 s itself (T = 1 h, a 2 h window: 120 steps, no coarsening) */
	in.gap_us = 3600 * S_US;
	in.overhead_spot_us = 61 * S_US, in.overhead_od_us = 0;
	ck_assert_int_eq(jobs_opt_resolution(&in), 60 * S_US);
	/* SkyPilot's 195 s ticks, T = 48 h, 60 h window, d = 720 s: gcd 15 s gives 14400 x 11521 = 1.66e8 > 4e7;
	 * the next divisor of 195 s, 39 s, gives 5538 x 4431 = 2.45e7 (doubling to 60 s would count the 15 s
	 * left at each tick's end as 60 s of progress) */
	in = job(avail, 1, 1, 48, 60);
	in.gap_us = 195 * S_US;
	in.overhead_spot_us = in.overhead_od_us = 720 * S_US;
	ck_assert_int_eq(jobs_opt_resolution(&in), 39 * S_US);
	/* 300 h window, T = 200 h, gap 60 s, no overheads: the divisors of 60 s up to 60 s itself (18000 x
	 * 12001 = 2.2e8) stay over the bound: delta = gap, and the job is out of the optimum's range */
	in = job(avail, 1, 1, 200, 300);
	in.gap_us = 60 * S_US;
	in.overhead_spot_us = in.overhead_od_us = 0;
	ck_assert_int_eq(jobs_opt_resolution(&in), 60 * S_US);
	ck_assert_int_eq(jobs_opt_solve(&in, &res), STATUS_EINPUT);
	/* 100 h window, T = 50 h, gap 60 s, a 61 s overhead: gcd 1 s; through 60's divisors, 30 s gives 12000 x
	 * 6001 = 7.2e7 > 4e7, 60 s 6000 x 3001 = 1.8e7 */
	in = job(avail, 1, 1, 50, 100);
	in.gap_us = 60 * S_US;
	in.overhead_spot_us = 61 * S_US, in.overhead_od_us = 0;
	ck_assert_int_eq(jobs_opt_resolution(&in), 60 * S_US);
	ck_assert_int_eq(jobs_opt_solve(&in, &res), STATUS_OK);
	in.resolution_us = 7 * S_US;   /* given: used as is */
	ck_assert_int_eq(jobs_opt_resolution(&in), 7 * S_US);
}
END_TEST

/* Every malloc failing in turn: STATUS_ENOMEM, *out untouched, nothing left allocated; then success. */
START_TEST(malloc_failures)
{
	static const int avail[] = { 1, 0, 1 };
	struct jobs_opt_input in = job(avail, 3, 1, 2, 4);
	struct jobs_opt_result r;
	int n;

	in.first_hour_free = true;
	for (n = 1;; n++) {
		int rc;

		r = (struct jobs_opt_result){ 42, 0, 0, 0 };
		fail_at = n, nmalloc = 0, live = 0;
		rc = jobs_opt_solve(&in, &r);
		fail_at = 0;
		ck_assert_int_eq(live, 0);
		if (rc == STATUS_OK)
			break;
		ck_assert_int_eq(rc, STATUS_ENOMEM);
		ck_assert(r.cost_usd == 42);
	}
	ck_assert_int_eq(n, 9);   /* 5 arrays of the grid, 2 layers, the refunds: 8 mallocs, each failed once */
}
END_TEST

static Suite *jobs_optimal_input_suite(void)
{
	Suite *s = suite_create("jobs_optimal_input");
	TCase *tc = tcase_create("core");

	test_add(tc, infeasible_is_done);
	test_add(tc, bad_input);
	test_add(tc, auto_resolution);
	test_add(tc, malloc_failures);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(jobs_optimal_input_suite());
}
