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

/*
 * A plan's own discounts for fewer types than the hour holds: the plan lists type 0 only (20% off), its
 * `discount` (50%) is every other type's. One hour, $10 of on-demand usage of each of two types, $9/h
 * committed. Type 1 (50%, rate 0.5) goes first: its $10 costs $5, all covered, $4 left; type 0 (20%, rate
 * 0.8): $4 covers 4 / 0.8 = $5 of its $10. Covered $15, excess $5, nothing lost. (Type 1 at 0% instead, as
 * if the list went one type further: type 0 first, $8 for its $10, then $1 of type 1: covered $11.)
 */
START_TEST(plan_discount_past_its_types)
{
	struct savings_hour h = { .len_h = 1.0, .usd = { [SAVINGS_ON_DEMAND] = 20.0 }, .ntypes = 2,
				  .type_usd = { [SAVINGS_ON_DEMAND] = { 10.0, 10.0 } } };
	struct savings_plan_terms p = { .commit_usd_per_h = 9, .discount = 0.5, .ntypes = 1,
					.type_discount = { 0.2 } };
	struct savings_result r;

	savings_settle(&h, 1, &p, 1, &r);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ON_DEMAND], 15.0, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 5.0, TOL);
	ck_assert_double_eq_tol(r.unused_usd, 0.0, TOL);
}
END_TEST

/*
 * Every one of the SAVINGS_TYPES_MAX (8) types in one hour: type t has $10 of on-demand usage; type 0 also
 * $10 of ODCR capacity nobody ran in. One RI of type 0 (1 instance, On-Demand $10/h, $6/h, term [0, 1 h))
 * covers type 0's on-demand $10 (1 instance-hour: all it may, so it stops before the unused ODCR). Then a
 * $6/h plan whose discount for type t is t / 8 (binary fractions: the sums are exact) covers the highest
 * discounts first: type 7 (rate 1/8) $10 for $1.25, type 6 (rate 2/8) $10 for $2.50, type 5 (rate 3/8) the
 * last $2.25: $6 covered. Plan covered 10 + 10 + 6 = $26; RI covered $10; on-demand excess
 * 80 - 10 - 26 = $44 (types 1 to 4, $40, and $4 of type 5); the unused ODCR's $10 is excess too.
 * savings_after_ris on the same hour leaves type 0's on-demand usage at 0 and every other entry as it was.
 */
START_TEST(all_eight_types)
{
	struct savings_hour h = { .len_h = 1.0, .ntypes = SAVINGS_TYPES_MAX };
	struct savings_plan_terms p = { .commit_usd_per_h = 6, .discount = 0, .ntypes = SAVINGS_TYPES_MAX };
	struct savings_ri_terms ri = { .type = 0, .count = 1, .od_usd_per_h = 10, .usd_per_h = 6,
				       .billed_usd_per_h = 6, .t0_h = 0, .t1_h = 1 };
	struct savings_result r;

	ck_assert_int_eq(SAVINGS_TYPES_MAX, 8);
	for (int t = 0; t < SAVINGS_TYPES_MAX; t++) {
		h.type_usd[SAVINGS_ON_DEMAND][t] = 10;
		p.type_discount[t] = t / 8.0;
	}
	h.usd[SAVINGS_ON_DEMAND] = 80;
	h.usd[SAVINGS_ODCR_UNUSED] = h.type_usd[SAVINGS_ODCR_UNUSED][0] = 10;
	savings_settle_all(&h, 1, &ri, 1, &p, 1, &r);
	ck_assert_double_eq_tol(r.ri_covered_usd[SAVINGS_ON_DEMAND], 10, TOL);
	ck_assert_double_eq_tol(r.ri_covered_usd[SAVINGS_ODCR_UNUSED], 0, TOL);
	ck_assert_double_eq_tol(r.ri_commit_usd, 6, TOL);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ON_DEMAND], 26, TOL);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ODCR_UNUSED], 0, TOL);
	ck_assert_double_eq_tol(r.unused_usd, 0, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 44, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ODCR_UNUSED], 10, TOL);
	savings_after_ris(&h, 1, &ri, 1);
	ck_assert_double_eq_tol(h.usd[SAVINGS_ON_DEMAND], 70, TOL);
	ck_assert_double_eq_tol(h.usd[SAVINGS_ODCR_UNUSED], 10, TOL);
	ck_assert_double_eq(h.type_usd[SAVINGS_ON_DEMAND][0], 0);
	for (int t = 1; t < SAVINGS_TYPES_MAX; t++)
		ck_assert_double_eq(h.type_usd[SAVINGS_ON_DEMAND][t], 10);
	ck_assert_double_eq(h.type_usd[SAVINGS_ODCR_UNUSED][0], 10);
}
END_TEST

/*
 * Residues under 1e-12 USD are rounding noise and dropped; 1e-12 itself is kept (both the plan's and the
 * RI's rule). A plan committing $0: $1e-12 of on-demand usage stays, all of it excess; $5e-13 is dropped.
 * An RI (1 instance, On-Demand $1/h, the whole hour in its term) against $1 + 2^-41 of usage: it covers
 * $1 and the 2^-41 = 4.5e-13 left is dropped (excess exactly 0). An RI at $1e-12/h against 2 x 1e-12:
 * one instance-hour covers 1e-12, the 1e-12 left is kept. An RI that has covered its 1 instance-hour
 * ($10 of on-demand at $10/h) stops: the $5e-13 of used ODCR after it is not its to touch, and stays.
 * A plan of $0.50/h at 50% off against $1 + 2^-41: it covers $1 (0.5 / 0.5) and the 2^-41 left is dropped.
 */
START_TEST(residue_threshold_is_1e_12)
{
	struct savings_plan_terms p = { .commit_usd_per_h = 0, .discount = 0.5 };
	struct savings_ri_terms ri = { .type = 0, .count = 1, .od_usd_per_h = 1, .usd_per_h = 0.5,
				       .billed_usd_per_h = 0.5, .t0_h = 0, .t1_h = 1 };
	struct savings_hour h = { .len_h = 1, .usd = { [SAVINGS_ON_DEMAND] = 1e-12 } };
	struct savings_result r;

	savings_settle(&h, 1, &p, 1, &r);
	ck_assert_double_eq(r.excess_usd[SAVINGS_ON_DEMAND], 1e-12);
	h.usd[SAVINGS_ON_DEMAND] = 5e-13;
	savings_settle(&h, 1, &p, 1, &r);
	ck_assert_double_eq(r.excess_usd[SAVINGS_ON_DEMAND], 0);
	h.usd[SAVINGS_ON_DEMAND] = 1 + 0x1p-41;
	savings_settle_all(&h, 1, &ri, 1, NULL, 0, &r);
	ck_assert_double_eq(r.ri_covered_usd[SAVINGS_ON_DEMAND], 1);
	ck_assert_double_eq(r.excess_usd[SAVINGS_ON_DEMAND], 0);
	ri.od_usd_per_h = 1e-12;
	h.usd[SAVINGS_ON_DEMAND] = 2 * 1e-12;
	savings_settle_all(&h, 1, &ri, 1, NULL, 0, &r);
	ck_assert_double_eq(r.ri_covered_usd[SAVINGS_ON_DEMAND], 1e-12);
	ck_assert_double_eq(r.excess_usd[SAVINGS_ON_DEMAND], 1e-12);
	ri.od_usd_per_h = 10;
	h.usd[SAVINGS_ON_DEMAND] = 10;
	h.usd[SAVINGS_ODCR_USED] = 5e-13;
	savings_settle_all(&h, 1, &ri, 1, NULL, 0, &r);
	ck_assert_double_eq(r.ri_covered_usd[SAVINGS_ON_DEMAND], 10);
	ck_assert_double_eq(r.excess_usd[SAVINGS_ON_DEMAND], 0);
	ck_assert_double_eq(r.excess_usd[SAVINGS_ODCR_USED], 5e-13);
	p.commit_usd_per_h = 0.5;
	h = (struct savings_hour){ .len_h = 1, .usd = { [SAVINGS_ON_DEMAND] = 1 + 0x1p-41 } };
	savings_settle(&h, 1, &p, 1, &r);
	ck_assert_double_eq(r.covered_usd[SAVINGS_ON_DEMAND], 1);
	ck_assert_double_eq(r.excess_usd[SAVINGS_ON_DEMAND], 0);
	ck_assert_double_eq(r.unused_usd, 0);
}
END_TEST

/*
 * The counts bound the arrays: two hours, two RIs and two plans are passed, one of each is named. Hour 0
 * [0, 1 h) with $20 of on-demand usage; RI 1 instance, On-Demand $10/h, $6/h, term [0, 2 h); plan $2.50/h at
 * 50% off. The RI covers $10 for $6, the plan $5 for $2.50, $5 is excess; the second hour, RI and plan
 * (the same) are not used (with them: $12 of RI charges, $5 committed). savings_after_ris with one hour and
 * one RI leaves $10 in hour 0 and hour 1's $20 as it was.
 */
START_TEST(counts_bound_the_arrays)
{
	struct savings_hour h[2] = { { .t0_h = 0, .len_h = 1, .usd = { [SAVINGS_ON_DEMAND] = 20 } },
				     { .t0_h = 1, .len_h = 1, .usd = { [SAVINGS_ON_DEMAND] = 20 } } };
	struct savings_ri_terms ri = { .type = 0, .count = 1, .od_usd_per_h = 10, .usd_per_h = 6,
				       .billed_usd_per_h = 6, .t0_h = 0, .t1_h = 2 };
	struct savings_ri_terms ris[2] = { ri, ri };
	struct savings_plan_terms p[2] = { { .commit_usd_per_h = 2.5, .discount = 0.5 },
					   { .commit_usd_per_h = 2.5, .discount = 0.5 } };
	struct savings_result r;

	savings_settle_all(h, 1, ris, 1, p, 1, &r);
	ck_assert_double_eq_tol(r.ri_commit_usd, 6, TOL);
	ck_assert_double_eq_tol(r.ri_covered_usd[SAVINGS_ON_DEMAND], 10, TOL);
	ck_assert_double_eq_tol(r.commit_usd, 2.5, TOL);
	ck_assert_double_eq_tol(r.covered_usd[SAVINGS_ON_DEMAND], 5, TOL);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 5, TOL);
	savings_after_ris(h, 1, ris, 1);
	ck_assert_double_eq_tol(h[0].usd[SAVINGS_ON_DEMAND], 10, TOL);
	ck_assert_double_eq(h[1].usd[SAVINGS_ON_DEMAND], 20);
}
END_TEST

/*
 * savings_after_ris on one-type hours (ntypes 0) and with no RI. An RI of type 1 against an hour whose
 * usage is all of type 0 ($10 on-demand): it covers nothing (its $6 charge all unused, the $10 excess). An
 * RI of type 0 takes its $10 off an hour of $15: the hour's usd is $5, and its type_usd, not in use in a
 * one-type hour, stays as given (0). With no RI nothing is taken off nor added up again: an hour of two types, $0.1 and
 * $0.2, given as usd 0.3, keeps usd == 0.3 (adding the types up in doubles gives 0.30000000000000004).
 * An RI of 0 instances charges nothing and has nothing unused: $0, not 0 / 0.
 */
START_TEST(after_ris_one_type_and_none)
{
	struct savings_ri_terms ri = { .type = 1, .count = 1, .od_usd_per_h = 10, .usd_per_h = 6,
				       .billed_usd_per_h = 6, .t0_h = 0, .t1_h = 1 };
	struct savings_hour h = { .len_h = 1, .usd = { [SAVINGS_ON_DEMAND] = 10 } };
	struct savings_hour two = { .len_h = 1, .usd = { [SAVINGS_ON_DEMAND] = 0.3 }, .ntypes = 2,
				    .type_usd = { [SAVINGS_ON_DEMAND] = { 0.1, 0.2 } } };
	struct savings_result r;

	savings_settle_all(&h, 1, &ri, 1, NULL, 0, &r);
	ck_assert_double_eq_tol(r.ri_commit_usd, 6, TOL);
	ck_assert_double_eq_tol(r.ri_unused_usd, 6, TOL);
	ck_assert_double_eq(r.ri_covered_usd[SAVINGS_ON_DEMAND], 0);
	ck_assert_double_eq(r.excess_usd[SAVINGS_ON_DEMAND], 10);
	ri.type = 0;
	h.usd[SAVINGS_ON_DEMAND] = 15;
	savings_after_ris(&h, 1, &ri, 1);
	ck_assert_double_eq(h.usd[SAVINGS_ON_DEMAND], 5);
	ck_assert_double_eq(h.type_usd[SAVINGS_ON_DEMAND][0], 0);
	savings_after_ris(&two, 1, &ri, 0);
	ck_assert_double_eq(two.usd[SAVINGS_ON_DEMAND], 0.3);
	ck_assert_double_eq(two.type_usd[SAVINGS_ON_DEMAND][0], 0.1);
	ri.count = 0;
	h.usd[SAVINGS_ON_DEMAND] = 10;
	savings_settle_all(&h, 1, &ri, 1, NULL, 0, &r);
	ck_assert_double_eq(r.ri_commit_usd, 0);
	ck_assert_double_eq(r.ri_unused_usd, 0);
	ck_assert_double_eq(r.excess_usd[SAVINGS_ON_DEMAND], 10);
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
	test_add(tc, plan_discount_past_its_types);
	test_add(tc, all_eight_types);
	test_add(tc, residue_threshold_is_1e_12);
	test_add(tc, counts_bound_the_arrays);
	test_add(tc, after_ris_one_type_and_none);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(savings_suite());
}
