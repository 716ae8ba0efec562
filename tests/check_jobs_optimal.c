/*
 * check_jobs_optimal: the offline optimum of a deadline job on Spot + On-Demand (models/jobs/jobs_optimal.c)
 * against an independent brute force (every sequence of modes, one per step, on small random cases), on
 * hand-worked cases, and on its errors: bad input, an infeasible job, and every malloc failing in turn (this
 * binary is linked with -Wl,--wrap=malloc,--wrap=free; tests/CMakeLists.txt).
 * Costs are compared to 1e-9 relative, hours to 1e-9 h.
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

/* ---- The brute force: an explicit plan simulated step by step, in continuous time within a step. ---- */

enum { IDLE, SPOT, OD };

struct prices {
	double tick[4];     /* Spot USD per instance-hour by tick, repeating */
	int n;
	int64_t gap_us;
};

static double price_cb(void *ctx, int64_t t_us)
{
	const struct prices *p = ctx;

	return p->tick[(t_us / p->gap_us) % p->n];
}

static double spot_price(const struct jobs_opt_input *in, int64_t t)
{
	return in->spot_price ? in->spot_price(in->price_ctx, t) : in->spot_usd_per_h;
}

/*
 * The cost of running plan[0 .. nstep) (one mode per step of d from submit; the caller makes every step lie
 * in one tick) under the model of jobs_optimal.h, and its Spot and On-Demand hours; false if the plan uses
 * Spot where it is not usable or does not finish by the end of its last step.
 */
static bool simulate(const struct jobs_opt_input *in, int64_t d, const int *plan, int nstep, double *cost,
		     double *spot_h, double *od_h)
{
	int prev = IDLE;
	int64_t done = 0, ovh_left = 0, seg_start = 0;
	int64_t hour = in->hour_us > 0 ? in->hour_us : H_US;
	double seg_cost = 0;

	*cost = *spot_h = *od_h = 0;
	for (int k = 0; k < nstep; k++) {
		int64_t t0 = in->submit_us + k * d, run, work;
		bool up = in->avail[(t0 / in->gap_us) % in->navail] >= in->instances;
		double price, c;

		if (prev == SPOT && !up) {   /* taken off Spot by force */
			if (in->first_hour_free && t0 - seg_start < hour)
				*cost -= seg_cost;
			prev = IDLE;
		}
		if (plan[k] == SPOT && !up)
			return false;
		if (plan[k] == IDLE) {
			prev = IDLE;
			continue;
		}
		if (plan[k] != prev) {   /* a changeover */
			ovh_left = plan[k] == SPOT ? in->overhead_spot_us : in->overhead_od_us;
			seg_start = t0;
			seg_cost = 0;
			prev = plan[k];
		}
		run = d;
		work = d - (ovh_left < d ? ovh_left : d);
		ovh_left -= d - work;
		if (done + work >= in->compute_us) {   /* finishes in this step: pays until then */
			run = d - work + (in->compute_us - done);
			work = in->compute_us - done;
		}
		done += work;
		price = plan[k] == SPOT ? spot_price(in, t0) : in->od_usd_per_h;
		c = in->instances * price * (double)run / H_US;
		*cost += c;
		if (plan[k] == SPOT) {
			seg_cost += c;
			*spot_h += (double)run / H_US;
		} else {
			*od_h += (double)run / H_US;
		}
		if (done >= in->compute_us)
			return true;
	}
	return in->compute_us == 0;
}

struct brute {
	bool feasible;
	double cost;
	bool hours_match;   /* some minimum-cost plan has the DP's hours */
};

/* Every plan of nstep steps: the minimum cost, and whether a minimum-cost plan has hours (spot_h, od_h). */
static struct brute brute_force(const struct jobs_opt_input *in, int64_t d, int nstep, double spot_h,
				double od_h)
{
	struct brute r = { false, INFINITY, false };
	int plan[16], total = 1;

	for (int k = 0; k < nstep; k++)
		total *= 3;
	for (int pass = 0; pass < 2; pass++) {
		for (int code = 0; code < total; code++) {
			double c, sh, oh;

			for (int k = 0, x = code; k < nstep; k++, x /= 3)
				plan[k] = x % 3;
			if (!simulate(in, d, plan, nstep, &c, &sh, &oh))
				continue;
			if (pass == 0 && c < r.cost) {
				r.cost = c;
				r.feasible = true;
			}
			if (pass == 1 && close_to(c, r.cost) && close_to(sh, spot_h) && close_to(oh, od_h))
				r.hours_match = true;
		}
	}
	return r;
}

static int64_t rnd(uint64_t *x, int64_t n)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (int64_t)(*x % (uint64_t)n);
}

START_TEST(matches_brute_force)
{
	uint64_t x = test_seed("matches_brute_force", 20261203) * 2 + 1;   /* xorshift: never 0 */
	int avail[4], nfeasible = 0, nrefund = 0;
	struct prices pr;

	for (int i = 0; i < 600; i++) {
		int64_t d = 60 * S_US;
		int nstep = 2 + (int)rnd(&x, 9);
		struct jobs_opt_input in = {
			.instances = 1 + (int)rnd(&x, 2),
			.avail = avail,
			.navail = 1 + (int)rnd(&x, 4),
			.gap_us = d * (1 + rnd(&x, 3)),
			.overhead_spot_us = d * rnd(&x, 4),
			.overhead_od_us = d * rnd(&x, 4),
			.od_usd_per_h = 1 + (double)rnd(&x, 4),
			.first_hour_free = rnd(&x, 2),
			.hour_us = d * (2 + rnd(&x, 4)),
			.resolution_us = d,
		};
		struct jobs_opt_result res;
		struct brute b;
		int rc;

		in.submit_us = d * rnd(&x, 6);
		in.deadline_us = in.submit_us + nstep * d;
		in.compute_us = d * (1 + rnd(&x, nstep));
		for (int k = 0; k < 4; k++)
			avail[k] = (int)rnd(&x, 4);
		pr = (struct prices){ .n = 1 + (int)rnd(&x, 4), .gap_us = in.gap_us };
		for (int k = 0; k < 4; k++)
			pr.tick[k] = 0.25 * (double)(1 + rnd(&x, 12));
		if (rnd(&x, 4) == 0) {
			in.spot_usd_per_h = pr.tick[0];
		} else {
			in.spot_price = price_cb;
			in.price_ctx = &pr;
		}
		rc = jobs_opt_solve(&in, &res);
		ck_assert_int_eq(res.resolution_us, d);
		b = brute_force(&in, d, nstep, res.spot_h, res.od_h);
		ck_assert_msg(rc == (b.feasible ? STATUS_OK : STATUS_DONE), "case %d: rc %d, brute %d", i, rc,
			      b.feasible);
		if (!b.feasible) {
			ck_assert(isinf(res.cost_usd));
			continue;
		}
		nfeasible++;
		ck_assert_msg(close_to(res.cost_usd, b.cost), "case %d: DP %.12g, brute %.12g", i, res.cost_usd,
			      b.cost);
		ck_assert_msg(b.hours_match, "case %d: no min-cost plan with %g h Spot, %g h OD", i, res.spot_h,
			      res.od_h);
		/* the same case without the refund: the refund must have mattered in some cases */
		if (in.first_hour_free) {
			struct jobs_opt_result r2;

			in.first_hour_free = false;
			if (jobs_opt_solve(&in, &r2) == STATUS_OK && r2.cost_usd > res.cost_usd + 1e-9)
				nrefund++;
		}
	}
	/* the random cases must exercise both outcomes and the refund, or they test little */
	ck_assert_int_gt(nfeasible, 200);
	ck_assert_int_lt(nfeasible, 600);
	ck_assert_int_ge(nrefund, 5);
}
END_TEST

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

/* Spot always there (2 >= N = 2): one spot segment, 10 h + the 0.2 h overhead: 2 x $1 x 10.2 h = $20.4. */
START_TEST(spot_always)
{
	static const int avail[] = { 2 };
	struct jobs_opt_input in = job(avail, 1, 2, 10, 20);

	solve_ok(&in, 20.4, 10.2, 0);
}
END_TEST

/* Spot never usable (1 < N = 2): On-Demand 10 h + 0.1 h overhead: 2 x $3 x 10.1 h = $60.6. */
START_TEST(spot_never)
{
	static const int avail[] = { 1 };
	struct jobs_opt_input in = job(avail, 1, 2, 10, 12);

	solve_ok(&in, 60.6, 0, 10.1);
}
END_TEST

/* Hourly ticks, Spot usable from 2 h on; T = 4 h. Deadline 8 h: wait, then Spot 2 h .. 6.2 h (4 h + 0.2 h
 * overhead) = $4.2, against $12.3 all On-Demand. Deadline 5 h: Spot 2 .. 5 h gives at most 3 - 0.2 = 2.8 h,
 * so 1.2 h must come from On-Demand before 2 h (1.3 h with its 0.1 h overhead): 1.3 x 3 + 3 x 1 = $6.9. */
static const int ramp[] = { 0, 0, 1, 1, 1, 1, 1, 1 };

START_TEST(waiting_beats_on_demand)
{
	struct jobs_opt_input in = job(ramp, 8, 1, 4, 8);

	in.gap_us = H_US;
	solve_ok(&in, 4.2, 4.2, 0);
}
END_TEST

START_TEST(deadline_forces_on_demand)
{
	struct jobs_opt_input in = job(ramp, 8, 1, 4, 5);
	struct jobs_opt_result r;

	in.gap_us = H_US;
	solve_ok(&in, 6.9, 3.0, 1.3);
	ck_assert_int_eq(jobs_opt_solve(&in, &r), STATUS_OK);
	ck_assert_int_eq(r.resolution_us, 360 * S_US);   /* gcd(3600, 720, 360) s */
}
END_TEST

/* Half-hour ticks, Spot usable [0, 0.5 h) and from 1 h on; T = 2 h, Spot overhead 0.1 h, deadline 4 h.
 * Without the refund: Spot from 1 h for 2.1 h = $2.1 (the short segment first would cost 0.5 + 1.7 =
 * $2.2). With first_hour_free the segment [0, 0.5 h) is ended by Spot after 0.5 h < 1 h: it is free and
 * gives 0.4 h of progress, so 1.6 h + 0.1 h from 1 h on: $1.7, with 0.5 + 1.7 = 2.2 h on Spot. */
START_TEST(first_hour_free_refund)
{
	static const int avail[] = { 1, 0, 1, 1, 1, 1, 1, 1 };
	struct jobs_opt_input in = job(avail, 8, 1, 2, 4);

	in.gap_us = 1800 * S_US;
	in.overhead_spot_us = 360 * S_US;
	solve_ok(&in, 2.1, 2.1, 0);
	in.first_hour_free = true;
	solve_ok(&in, 1.7, 2.2, 0);
}
END_TEST

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

static double bad_price(void *ctx, int64_t t_us)
{
	(void)ctx;
	return t_us >= H_US ? NAN : 1;
}

START_TEST(bad_input)
{
	static const int avail[] = { 1 }, negative[] = { -1 };
	struct jobs_opt_input ok = job(avail, 1, 1, 1, 2), in;
	struct jobs_opt_result r = { 42, 0, 0, 0 };

	in = ok, in.deadline_us = in.submit_us;
	ck_assert_int_eq(jobs_opt_solve(&in, &r), STATUS_EINPUT);
	in = ok, in.submit_us = -1;
	ck_assert_int_eq(jobs_opt_solve(&in, &r), STATUS_EINPUT);
	in = ok, in.instances = 0;
	ck_assert_int_eq(jobs_opt_solve(&in, &r), STATUS_EINPUT);
	in = ok, in.gap_us = 0;
	ck_assert_int_eq(jobs_opt_solve(&in, &r), STATUS_EINPUT);
	in = ok, in.navail = 0;
	ck_assert_int_eq(jobs_opt_solve(&in, &r), STATUS_EINPUT);
	in = ok, in.avail = negative;
	ck_assert_int_eq(jobs_opt_solve(&in, &r), STATUS_EINPUT);
	in = ok, in.overhead_od_us = -1;
	ck_assert_int_eq(jobs_opt_solve(&in, &r), STATUS_EINPUT);
	in = ok, in.od_usd_per_h = -3;
	ck_assert_int_eq(jobs_opt_solve(&in, &r), STATUS_EINPUT);
	in = ok, in.spot_price = bad_price;   /* NaN from the second hour */
	ck_assert_int_eq(jobs_opt_solve(&in, &r), STATUS_EINPUT);
	ck_assert(r.cost_usd == 42);   /* untouched */
}
END_TEST

/* The automatic resolution: the paper's setting; a gap whose 60th is no divisor; coarsening. */
START_TEST(auto_resolution)
{
	static const int avail[] = { 1 };
	struct jobs_opt_input in = job(avail, 1, 1, 48, 60);

	in.overhead_od_us = 720 * S_US;
	ck_assert_int_eq(jobs_opt_resolution(&in), 120 * S_US);   /* gcd(600, 720, 720) s */
	in.gap_us = 3601 * S_US;   /* = 13 x 277: gcd 1 s < 3601 / 60; largest divisor <= 60 s is 13 s */
	in.compute_us = H_US, in.deadline_us = 2 * H_US;   /* small enough not to coarsen */
	ck_assert_int_eq(jobs_opt_resolution(&in), 13 * S_US);
	/* 1000 h window, T = 900 h, gap 60 s, no overheads: 60 s gives 60000 x 54001 steps x units; doubling
	 * to 960 s gives 3750 x 3376 = 1.27e7 <= 4e7 (480 s: 7500 x 6751 = 5.06e7) */
	in = job(avail, 1, 1, 900, 1000);
	in.gap_us = 60 * S_US;
	in.overhead_spot_us = in.overhead_od_us = 0;
	ck_assert_int_eq(jobs_opt_resolution(&in), 960 * S_US);
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
	ck_assert_int_eq(n, 8);   /* 5 arrays of the grid, 2 layers: 7 mallocs, all failed once */
}
END_TEST

static Suite *jobs_optimal_suite(void)
{
	Suite *s = suite_create("jobs_optimal");
	TCase *tc = tcase_create("core");

	test_add(tc, matches_brute_force);
	test_add(tc, spot_always);
	test_add(tc, spot_never);
	test_add(tc, waiting_beats_on_demand);
	test_add(tc, deadline_forces_on_demand);
	test_add(tc, first_hour_free_refund);
	test_add(tc, infeasible_is_done);
	test_add(tc, bad_input);
	test_add(tc, auto_resolution);
	test_add(tc, malloc_failures);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(jobs_optimal_suite());
}
