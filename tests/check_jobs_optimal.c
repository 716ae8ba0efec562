/*
 * check_jobs_optimal: the offline optimum of a deadline job on Spot + On-Demand (models/jobs/jobs_optimal.c)
 * against an independent brute force (every sequence of modes, one per step, on small random cases), and on
 * hand-worked cases. Its input checks, automatic resolution, infeasible jobs and allocation failures are in
 * check_jobs_optimal_input.c. Costs are compared to 1e-9 relative, hours to 1e-9 h.
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

/* The steps of the grid: from submit, d long, cut at a tick boundary and at the deadline. */
static int64_t next_boundary(const struct jobs_opt_input *in, int64_t t, int64_t d)
{
	int64_t tick = t - t % in->gap_us + in->gap_us, e = t + d;

	e = e < tick ? e : tick;
	return e < in->deadline_us ? e : in->deadline_us;
}

static int count_steps(const struct jobs_opt_input *in, int64_t d)
{
	int n = 0;

	for (int64_t t = in->submit_us; t < in->deadline_us; t = next_boundary(in, t, d))
		n++;
	return n;
}

/*
 * The cost of running plan[0 ..) (one mode per step of the grid for d) under the model of jobs_optimal.h,
 * and its Spot and On-Demand hours; false if the plan uses Spot where it is not usable or does not finish
 * by the deadline.
 */
static bool simulate(const struct jobs_opt_input *in, int64_t d, const int *plan, double *cost,
		     double *spot_h, double *od_h)
{
	int prev = IDLE;
	int64_t done = 0, ovh_left = 0, seg_start = 0;
	int64_t hour = in->hour_us > 0 ? in->hour_us : H_US;
	double seg_cost = 0;

	*cost = *spot_h = *od_h = 0;
	for (int64_t t0 = in->submit_us, k = 0; t0 < in->deadline_us; t0 = next_boundary(in, t0, d), k++) {
		int64_t len = next_boundary(in, t0, d) - t0, run, work;
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
		run = len;
		work = len - (ovh_left < len ? ovh_left : len);
		ovh_left -= len - work;
		if (done + work >= in->compute_us) {   /* finishes in this step: pays until then */
			run = len - work + (in->compute_us - done);
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

/* Every plan on the grid: the minimum cost, and whether a minimum-cost plan has hours (spot_h, od_h). */
static struct brute brute_force(const struct jobs_opt_input *in, int64_t d, double spot_h, double od_h)
{
	struct brute r = { false, INFINITY, false };
	int plan[16], total = 1, nstep = count_steps(in, d);

	ck_assert_int_le(nstep, 16);
	for (int k = 0; k < nstep; k++)
		total *= 3;
	for (int pass = 0; pass < 2; pass++) {
		for (int code = 0; code < total; code++) {
			double c, sh, oh;

			for (int k = 0, x = code; k < nstep; k++, x /= 3)
				plan[k] = x % 3;
			if (!simulate(in, d, plan, &c, &sh, &oh))
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

/* A small random case of nstep steps of d = 60 s from a submit on the grid of d; avail and pr are its. */
static struct jobs_opt_input random_case(uint64_t *x, int nstep, int *avail, struct prices *pr)
{
	const int64_t d = 60 * S_US;
	struct jobs_opt_input in = { .avail = avail, .resolution_us = d };

	/* one draw per statement: the order of the draws is fixed (that of an initializer list is not) */
	in.instances = 1 + (int)rnd(x, 2);
	in.navail = 1 + (int)rnd(x, 4);
	in.gap_us = d * (1 + rnd(x, 3));
	in.overhead_spot_us = d * rnd(x, 4);
	in.overhead_od_us = d * rnd(x, 4);
	in.od_usd_per_h = 1 + (double)rnd(x, 4);
	in.first_hour_free = rnd(x, 2);
	in.hour_us = d * (2 + rnd(x, 4));
	in.submit_us = d * rnd(x, 6);
	in.deadline_us = in.submit_us + nstep * d;
	in.compute_us = d * (1 + rnd(x, nstep));
	for (int k = 0; k < 4; k++)
		avail[k] = (int)rnd(x, 4);
	*pr = (struct prices){ .n = 1 + (int)rnd(x, 4), .gap_us = in.gap_us };
	for (int k = 0; k < 4; k++)
		pr->tick[k] = 0.25 * (double)(1 + rnd(x, 12));
	if (rnd(x, 4) == 0) {
		in.spot_usd_per_h = pr->tick[0];
	} else {
		in.spot_price = price_cb;
		in.price_ctx = pr;
	}
	return in;
}

START_TEST(matches_brute_force)
{
	uint64_t x = test_seed("matches_brute_force", 20261203) * 2 + 1;   /* xorshift: never 0 */
	int avail[4], nfeasible = 0, nrefund = 0;
	struct prices pr;

	for (int i = 0; i < 600; i++) {
		struct jobs_opt_input in = random_case(&x, 2 + (int)rnd(&x, 9), avail, &pr);
		struct jobs_opt_result res;
		struct brute b;
		int rc;

		rc = jobs_opt_solve(&in, &res);
		ck_assert_int_eq(res.resolution_us, in.resolution_us);
		b = brute_force(&in, in.resolution_us, res.spot_h, res.od_h);
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

/*
 * Submit off the grid of the ticks (by 1 .. 59 s): a step is cut short at the first tick boundary and at
 * the deadline. The DP counts a short step as a whole one of progress or overhead (in the job's favour), so
 * without first_hour_free it must be feasible whenever some plan on its grid is, and never dearer than the
 * best one (the brute force counts progress exactly). With it, more progress can cost more (jobs_optimal.h):
 * no bound to test.
 */
START_TEST(lower_bound_off_grid)
{
	uint64_t x = test_seed("lower_bound_off_grid", 7) * 2 + 1;
	int avail[4], nbelow = 0;
	struct prices pr;

	for (int i = 0; i < 300; i++) {
		struct jobs_opt_input in = random_case(&x, 2 + (int)rnd(&x, 7), avail, &pr);
		int64_t off = S_US * (1 + rnd(&x, 59));
		struct jobs_opt_result res;
		struct brute b;
		int rc;

		in.submit_us += off;
		in.deadline_us += off;
		in.first_hour_free = false;
		rc = jobs_opt_solve(&in, &res);
		b = brute_force(&in, in.resolution_us, res.spot_h, res.od_h);
		if (!b.feasible)
			continue;
		ck_assert_msg(rc == STATUS_OK, "case %d: rc %d, but a plan finishes", i, rc);
		ck_assert_msg(res.cost_usd <= b.cost * (1 + TOL), "case %d: DP %.12g > brute %.12g", i,
			      res.cost_usd, b.cost);
		if (res.cost_usd < b.cost * (1 - TOL))
			nbelow++;
	}
	ck_assert_int_gt(nbelow, 0);   /* the rounding showed */
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

/* Spot and On-Demand both at $3/h with the same 0.2 h overhead: every mix of them costs 1 x 3 x 10.2 =
 * $30.6, and the tie goes to the plan with the fewest On-Demand hours: all Spot. */
START_TEST(tie_prefers_spot)
{
	static const int avail[] = { 1 };
	struct jobs_opt_input in = job(avail, 1, 1, 10, 20);

	in.spot_usd_per_h = 3;
	in.overhead_od_us = in.overhead_spot_us;
	solve_ok(&in, 30.6, 10.2, 0);
}
END_TEST

/* The tie's tolerance, 1e-12 relative (jobs_optimal.h), from both sides. As tie_prefers_spot, but On-Demand a
 * hair cheaper. At $3 x (1 - 5e-13)/h all On-Demand costs 30.6 x (1 - 5e-13) = $30.6 - 1.53e-11, against
 * $30.6 all Spot: 5e-13 relative, inside the tolerance (1e-12 x 30.6 = 3.06e-11), so the two tie and the
 * plan with fewer On-Demand hours wins: 10.2 h of Spot, none of On-Demand. At $3 x (1 - 2e-12)/h the
 * difference is 6.12e-11, past the tolerance: On-Demand is cheaper, and all of it (10.2 h) is bought;
 * switching to Spot would add its 0.2 h overhead. (Rounding in the costs' sums is about 1e-16 relative,
 * far below either.) */
START_TEST(near_tie_within_the_tolerance_prefers_spot)
{
	static const int avail[] = { 1 };
	struct jobs_opt_input in = job(avail, 1, 1, 10, 20);

	in.spot_usd_per_h = 3;
	in.overhead_od_us = in.overhead_spot_us;
	in.od_usd_per_h = 3 * (1 - 5e-13);
	solve_ok(&in, 30.6, 10.2, 0);
	in.od_usd_per_h = 3 * (1 - 2e-12);
	solve_ok(&in, 30.6, 0, 10.2);
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

static Suite *jobs_optimal_suite(void)
{
	Suite *s = suite_create("jobs_optimal");
	TCase *tc = tcase_create("core");

	test_add(tc, matches_brute_force);
	test_add(tc, lower_bound_off_grid);
	test_add(tc, spot_always);
	test_add(tc, spot_never);
	test_add(tc, tie_prefers_spot);
	test_add(tc, near_tie_within_the_tolerance_prefers_spot);
	test_add(tc, waiting_beats_on_demand);
	test_add(tc, deadline_forces_on_demand);
	test_add(tc, first_hour_free_refund);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(jobs_optimal_suite());
}
