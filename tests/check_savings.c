/*
 * check_savings: Savings Plan settlement, on the worked example SOURCES.md [sp-commitment] cites (re:Post: a
 * commitment of $0.90/h covering one $1/h instance; a second instance billed On-Demand; with nothing running
 * the $0.90 is still billed) and hand-computed variations: partial clock hours, several plans, and the order
 * in which a plan covers on-demand usage, used ODCR capacity and unused ODCR capacity. Tolerance 1e-12 USD.
 */
#include <check.h>

#include "savings.h"
#include "testutil.h"

#define TOL 1e-12

/* One clock hour (or len_h of one) with on-demand usage only. */
static struct savings_result settle1(double usage, double commit, double discount, double len_h)
{
	struct savings_plan_terms p = { .commit_usd_per_h = commit, .discount = discount };
	struct savings_hour h = { .len_h = len_h, .usd = { [SAVINGS_ON_DEMAND] = usage } };
	struct savings_result r;

	savings_settle(&h, 1, &p, 1, &r);
	return r;
}

START_TEST(commitment_covers_one_instance)
{
	/* one $1/h instance, 10% discount: $0.90 at SP rates = the whole commitment */
	struct savings_result r = settle1(1.0, 0.90, 0.10, 1.0);
	ck_assert_double_eq_tol(r.commit_usd, 0.90, TOL);
	ck_assert_double_eq_tol(r.unused_usd, 0.0, TOL);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ON_DEMAND], 1.0, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 0.0, TOL);
}
END_TEST

START_TEST(second_instance_billed_on_demand)
{
	/* two $1/h instances: the commitment covers one; the other costs $1 On-Demand: $1.90 in all */
	struct savings_result r = settle1(2.0, 0.90, 0.10, 1.0);
	ck_assert_double_eq_tol(r.commit_usd + r.excess_usd[SAVINGS_ON_DEMAND], 1.90, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 1.0, TOL);
}
END_TEST

START_TEST(unused_commitment_is_lost)
{
	/* nothing running: still $0.90, all unused */
	struct savings_result r = settle1(0.0, 0.90, 0.10, 1.0);
	ck_assert_double_eq_tol(r.commit_usd, 0.90, TOL);
	ck_assert_double_eq_tol(r.unused_usd, 0.90, TOL);
	/* half an instance-hour: $0.45 at SP rates used, $0.45 lost */
	r = settle1(0.5, 0.90, 0.10, 1.0);
	ck_assert_double_eq_tol(r.unused_usd, 0.45, TOL);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ON_DEMAND], 0.5, TOL);
}
END_TEST

START_TEST(hours_do_not_pool)
{
	/* hour 0 idle, hour 1 two instances: hour 0 loses $0.90, hour 1 bills $1 On-Demand on top */
	struct savings_hour h[2] = { { .len_h = 1.0, .usd = { 0 } }, { .len_h = 1.0, .usd = { [SAVINGS_ON_DEMAND] = 2.0 } } };
	struct savings_plan_terms p = { .commit_usd_per_h = 0.90, .discount = 0.10 };
	struct savings_result r;

	savings_settle(h, 2, &p, 1, &r);
	ck_assert_double_eq_tol(r.commit_usd, 1.80, TOL);
	ck_assert_double_eq_tol(r.unused_usd, 0.90, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 1.0, TOL);
}
END_TEST

START_TEST(partial_hours_are_prorated)
{
	/* a window ending 15 minutes into a clock hour: the commitment for it is $0.90 x 0.25 */
	struct savings_result r = settle1(0.0, 0.90, 0.10, 0.25);
	ck_assert_double_eq_tol(r.commit_usd, 0.225, TOL);
	/* a window 00:30 - 02:30 with one $1/h instance: hours of 0.5, 1 and 0.5 h. Each partial hour has
	 * $0.50 of usage ($0.45 at SP rates) against $0.45 of commitment: all covered, nothing lost; the
	 * whole hour as in commitment_covers_one_instance. Commitment 0.45 + 0.90 + 0.45 = $1.80. */
	struct savings_hour h[3] = { { .len_h = 0.5, .usd = { [SAVINGS_ON_DEMAND] = 0.5 } },
				     { .len_h = 1.0, .usd = { [SAVINGS_ON_DEMAND] = 1.0 } },
				     { .len_h = 0.5, .usd = { [SAVINGS_ON_DEMAND] = 0.5 } } };
	struct savings_plan_terms p = { .commit_usd_per_h = 0.90, .discount = 0.10 };
	savings_settle(h, 3, &p, 1, &r);
	ck_assert_double_eq_tol(r.commit_usd, 1.80, TOL);
	ck_assert_double_eq_tol(r.unused_usd, 0.0, TOL);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ON_DEMAND], 2.0, TOL);
}
END_TEST

START_TEST(plans_apply_in_order)
{
	/* $10 of usage; plan A $3/h at 40% off covers $5 On-Demand; plan B $2/h at 20% off covers $2.50;
	 * $2.50 left On-Demand. Total: 3 + 2 + 2.5 = $7.50 */
	struct savings_hour h = { .len_h = 1.0, .usd = { [SAVINGS_ON_DEMAND] = 10.0 } };
	struct savings_plan_terms p[2] = { { .commit_usd_per_h = 3.0, .discount = 0.40 },
					   { .commit_usd_per_h = 2.0, .discount = 0.20 } };
	struct savings_result r;

	savings_settle(&h, 1, p, 2, &r);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ON_DEMAND], 7.5, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 2.5, TOL);
	ck_assert_double_eq_tol(r.commit_usd + r.excess_usd[SAVINGS_ON_DEMAND], 7.5, TOL);
	ck_assert_double_eq_tol(r.unused_usd, 0.0, TOL);
}
END_TEST

START_TEST(on_demand_then_used_then_unused_odcr)
{
	/* one hour: $10 on-demand, $10 used ODCR, $10 unused ODCR. A $7.50/h plan at 50% off covers $15:
	 * the $10 on-demand, then $5 of the used ODCR; the unused ODCR is untouched. */
	struct savings_hour h = { .len_h = 1.0, .usd = { 10.0, 10.0, 10.0 } };
	struct savings_plan_terms p = { .commit_usd_per_h = 7.5, .discount = 0.5 };
	struct savings_result r;

	savings_settle(&h, 1, &p, 1, &r);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ON_DEMAND], 10.0, TOL);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ODCR_USED], 5.0, TOL);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ODCR_UNUSED], 0.0, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ODCR_USED], 5.0, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ODCR_UNUSED], 10.0, TOL);
	/* $12.50/h covers $25: everything but $5 of the unused ODCR */
	p.commit_usd_per_h = 12.5;
	savings_settle(&h, 1, &p, 1, &r);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ODCR_USED], 10.0, TOL);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ODCR_UNUSED], 5.0, TOL);
	ck_assert_double_eq_tol(r.unused_usd, 0.0, TOL);
	/* a second plan continues where the first stopped: $2.50/h at 50% off covers the last $5 */
	struct savings_plan_terms two[2] = { { .commit_usd_per_h = 12.5, .discount = 0.5 },
					     { .commit_usd_per_h = 2.5, .discount = 0.5 } };
	savings_settle(&h, 1, two, 2, &r);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ODCR_UNUSED], 10.0, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ODCR_UNUSED], 0.0, TOL);
	ck_assert_double_eq_tol(r.commit_usd, 15.0, TOL);
}
END_TEST

START_TEST(two_types_highest_discount_first)
{
	/*
	 * One hour, two types: type 0 $60 of on-demand usage, the plan's discount for it 20% (SP rate 0.8 per
	 * On-Demand dollar); type 1 $20, discount 50% (0.5). A $30/h commitment covers the highest discount
	 * first: type 1's $20 costs 20 x 0.5 = $10 (all covered, $20 of commitment left), then type 0: $20 /
	 * 0.8 = $25 covered, $35 left over. Covered 20 + 25 = $45, excess $35, nothing lost; the bill is
	 * 30 + 35 = $65 (one rate for both, or the serving type first: 30 / 0.8 = 37.5 covered of type 0,
	 * excess 22.5 + 20 = $42.50, $72.50).
	 */
	struct savings_hour h = { .len_h = 1.0, .usd = { [SAVINGS_ON_DEMAND] = 80.0 }, .ntypes = 2,
				  .type_usd = { [SAVINGS_ON_DEMAND] = { 60.0, 20.0 } } };
	struct savings_plan_terms p = { .commit_usd_per_h = 30, .discount = 0.2, .ntypes = 2,
					.type_discount = { 0.2, 0.5 } };
	struct savings_result r;

	savings_settle(&h, 1, &p, 1, &r);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ON_DEMAND], 45.0, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 35.0, TOL);
	ck_assert_double_eq_tol(r.unused_usd, 0.0, TOL);
	ck_assert_double_eq_tol(r.commit_usd + r.excess_usd[SAVINGS_ON_DEMAND], 65.0, TOL);
	/*
	 * Instance usage of every type before unused ODCR capacity: add $10 of type 1's ODCR nobody ran in
	 * (discount 50%, the highest) and make the commitment $60. Type 1's on-demand $20 costs $10, type 0's
	 * $60 costs $48 ($58 used), then the unused ODCR: $2 left covers 2 / 0.5 = $4 of it, $6 left over.
	 */
	h.usd[SAVINGS_ODCR_UNUSED] = 10.0;
	h.type_usd[SAVINGS_ODCR_UNUSED][1] = 10.0;
	p.commit_usd_per_h = 60;
	savings_settle(&h, 1, &p, 1, &r);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ON_DEMAND], 80.0, TOL);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ODCR_UNUSED], 4.0, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ODCR_UNUSED], 6.0, TOL);
	ck_assert_double_eq_tol(r.unused_usd, 0.0, TOL);
}
END_TEST

START_TEST(no_plans_everything_on_demand)
{
	struct savings_hour h[3] = { { .len_h = 1.0, .usd = { 1.0, 0, 0 } }, { .len_h = 1.0, .usd = { 2.0, 0, 3.0 } },
				     { .len_h = 0.5, .usd = { 0.5, 0, 0 } } };
	struct savings_result r;

	savings_settle(h, 3, NULL, 0, &r);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 3.5, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ODCR_UNUSED], 3.0, TOL);
	ck_assert_double_eq_tol(r.commit_usd, 0.0, TOL);
}
END_TEST

/*
 * A regional RI's term at the clock hours' edges: 1 instance, On-Demand $10/h, $6/h effective and billed,
 * term [1 h, 2.5 h); $10 of on-demand usage in each of the hours [0, 1), [1, 2), [2, 3). Hour 0 ends
 * exactly where the term starts: nothing of it is inside (no charge, no cover: its $10 is excess). Hour 1
 * is inside: $6, it covers the $10. Hour 2 is half inside: 0.5 instance-hours for $3, covering $5 of the
 * $10 ($5 excess). Totals: charged $9 (billed $9), covered $15, unused $0, excess $15.
 */
START_TEST(ri_term_edges_by_hour)
{
	struct savings_ri_terms ri = { .type = 0, .count = 1, .od_usd_per_h = 10, .usd_per_h = 6,
				       .billed_usd_per_h = 6, .t0_h = 1, .t1_h = 2.5 };
	struct savings_hour h[3];
	struct savings_result r;

	for (int i = 0; i < 3; i++)
		h[i] = (struct savings_hour){ .t0_h = i, .len_h = 1, .usd = { [SAVINGS_ON_DEMAND] = 10 } };
	savings_settle_all(h, 3, &ri, 1, NULL, 0, &r);
	ck_assert_double_eq_tol(r.ri_commit_usd, 9, TOL);
	ck_assert_double_eq_tol(r.ri_billed_usd, 9, TOL);
	ck_assert_double_eq_tol(r.ri_covered_usd[SAVINGS_ON_DEMAND], 15, TOL);
	ck_assert_double_eq_tol(r.ri_unused_usd, 0, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 15, TOL);
	/* the same hours settled by savings_after_ris: what the RI left, hour by hour */
	savings_after_ris(h, 3, &ri, 1);
	ck_assert_double_eq_tol(h[0].usd[SAVINGS_ON_DEMAND], 10, TOL);
	ck_assert_double_eq_tol(h[1].usd[SAVINGS_ON_DEMAND], 0, TOL);
	ck_assert_double_eq_tol(h[2].usd[SAVINGS_ON_DEMAND], 5, TOL);
	/* two instances over the same hour 1 ($10 of usage): $12 charged, one instance-hour used ($10 covered),
	 * the other unused: $12 x 1 / 2 = $6 of it covered nothing */
	ri.count = 2;
	h[1] = (struct savings_hour){ .t0_h = 1, .len_h = 1, .usd = { [SAVINGS_ON_DEMAND] = 10 } };
	savings_settle_all(&h[1], 1, &ri, 1, NULL, 0, &r);
	ck_assert_double_eq_tol(r.ri_commit_usd, 12, TOL);
	ck_assert_double_eq_tol(r.ri_covered_usd[SAVINGS_ON_DEMAND], 10, TOL);
	ck_assert_double_eq_tol(r.ri_unused_usd, 6, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 0, TOL);
}
END_TEST

static Suite *savings_suite(void)
{
	Suite *s = suite_create("savings");
	TCase *tc = tcase_create("settle");

	tcase_add_test(tc, commitment_covers_one_instance);
	tcase_add_test(tc, second_instance_billed_on_demand);
	tcase_add_test(tc, unused_commitment_is_lost);
	tcase_add_test(tc, hours_do_not_pool);
	tcase_add_test(tc, partial_hours_are_prorated);
	tcase_add_test(tc, plans_apply_in_order);
	tcase_add_test(tc, on_demand_then_used_then_unused_odcr);
	tcase_add_test(tc, no_plans_everything_on_demand);
	tcase_add_test(tc, two_types_highest_discount_first);
	test_add(tc, ri_term_edges_by_hour);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(savings_suite());
}
