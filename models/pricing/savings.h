/*
 * savings: settling Savings Plans against eligible usage, UTC clock hour by UTC clock hour.
 *
 * The rule (SOURCES.md [sp-commitment], [sp-clock-hour], [sp-fleet-order]; the re:Post worked example): a
 * plan commits to an amount in USD per hour at Savings Plan rates. Each hour, eligible usage is charged at
 * the plan's discounted rate against the commitment; commitment not used in that hour is lost ("you are still
 * billed $.90/hour because you committed to that amount"); usage beyond the commitment is billed at the
 * On-Demand rate. Several plans apply one after the other, in the order of the commitments list, each to
 * what the earlier ones left.
 *
 * Hours are UTC clock hours (the bill's hours), not hours counted from the scenario start. The window
 * rarely starts or ends on the hour: its first and last clock hours are then partial, and each plan's
 * commitment for a partial hour is pro-rated to the part inside the window (commit x len_h), as a
 * reservation's charge is (option_reserved.c); only the usage inside the window is settled against it.
 *
 * Eligible usage comes in three kinds, valued at On-Demand rates (an ODCR's at its own rate, the
 * "equivalent On-Demand rate"). Savings Plans "apply to CRs (used capacity first)" (SOURCES.md [sp-odcr];
 * the AWS page: "Discounts are preferentially applied to instance usage before covering unused Capacity
 * Reservations"), so within an hour each plan covers on-demand instance usage first, then the ODCR capacity
 * instances ran in, then the ODCR capacity nobody ran in. The first two are both instance usage and AWS
 * gives no order between them; since a plan's rate is the same for both, the order only decides which
 * option's bill the covered dollars leave, never a total.
 *
 * Several instance types (SOURCES.md [sp-highest-discount]). A plan covers each type at that type's own
 * Savings Plan rate (its discount off that type's On-Demand rate), and AWS applies a plan "to your usage in
 * order of highest savings percentage first": within an hour each plan covers the instance usage
 * (on-demand, then used ODCR capacity) of every type in decreasing order of the plan's discount for the
 * type, then the unused ODCR capacity of every type in the same order. Equal discounts go in kind order,
 * then type order (at one discount the order changes no total). With one type this is the order above.
 *
 * Regional Reserved Instances come first (SOURCES.md [ri-before-sp]: "Savings Plans apply to your usage
 * after the Reserved Instances are applied"). A regional RI is a discount, not capacity: each clock hour it
 * is charged for every hour of its term inside the window (count x its effective rate x the part of the
 * hour in the term, SOURCES.md [ri-clock-hour]), and it covers up to count instance-hours of its own
 * type's usage in that hour, however many instances ran them ("4 instances x 15 min in same hour -> 1 h
 * RI, 0 On-Demand"); what it does not cover in the hour is lost. It covers on-demand usage first, then
 * used ODCR capacity, then unused ODCR capacity (SOURCES.md [sp-odcr]: regional RIs apply to capacity
 * reservations, used capacity first). Several RIs apply in order, each to what the earlier ones left; the
 * plans then cover what the RIs left. An RI covers its own instance type only: gpucap does not model
 * size flexibility across the sizes of a family (a scenario's GPU types are distinct families in the
 * shipped catalogue).
 */
#ifndef GPUCAP_SAVINGS_H
#define GPUCAP_SAVINGS_H

#define SAVINGS_TYPES_MAX 8  /* instance types (scenario.h, SCENARIO_TYPES_MAX) */

enum savings_usage {
	SAVINGS_ON_DEMAND,    /* on-demand instance usage (reserved instances outside their term included) */
	SAVINGS_ODCR_USED,    /* ODCR capacity an instance ran in */
	SAVINGS_ODCR_UNUSED,  /* ODCR capacity nobody ran in (paid all the same) */
	SAVINGS_USAGE_COUNT
};

struct savings_plan_terms {
	double commit_usd_per_h;  /* hourly commitment, at Savings Plan rates */
	double discount;          /* Savings Plan rate = On-Demand rate x (1 - discount), 0 <= discount < 1 */
	int ntypes;               /* types with their own discount below; 0: `discount` for every type */
	double type_discount[SAVINGS_TYPES_MAX];  /* the plan's discount for type t (t < ntypes), as discount */
};

struct savings_hour {
	double t0_h;                      /* where that part starts, hours from the scenario start */
	double len_h;                     /* part of the clock hour inside the window, hours (0 < len_h <= 1) */
	double usd[SAVINGS_USAGE_COUNT];  /* eligible usage in that part, USD at On-Demand rates, by kind */
	int ntypes;                       /* 0: all the usage is of type 0; else the types in type_usd */
	double type_usd[SAVINGS_USAGE_COUNT][SAVINGS_TYPES_MAX];  /* usd[k] by type, when ntypes > 0 (they
	                                                             add up to usd[k]) */
};

/* A regional Reserved Instance commitment (see above). */
struct savings_ri_terms {
	int type;               /* the instance type it covers: an index of the hours' type_usd (0 when the
	                           hours hold one type) */
	double count;           /* instances: instance-hours it covers per clock hour */
	double od_usd_per_h;    /* the type's On-Demand rate (usage in USD / this = instance-hours) */
	double usd_per_h;       /* its effective rate per instance-hour: hourly fee + upfront / term hours */
	double billed_usd_per_h;/* the hourly fee alone (what the invoice bills each hour) */
	double t0_h, t1_h;      /* its term, hours from the scenario start: [t0_h, t1_h) */
};

struct savings_result {
	double ri_commit_usd;                     /* the RIs' charges: count x usd_per_h x hours in the term */
	double ri_billed_usd;                     /* the same at billed_usd_per_h (the hourly fees) */
	double ri_unused_usd;                     /* the part of ri_commit_usd that covered no usage */
	double ri_covered_usd[SAVINGS_USAGE_COUNT];  /* usage the RIs covered, at On-Demand rates, by kind */
	double commit_usd;                        /* commitments charged: sum over hours of commit x len_h */
	double unused_usd;                        /* the part of commit_usd that covered no usage */
	double covered_usd[SAVINGS_USAGE_COUNT];  /* usage the plans covered, at On-Demand rates, by kind */
	double excess_usd[SAVINGS_USAGE_COUNT];   /* usage left over, billed at On-Demand rates, by kind */
};

/*
 * Settle nris regional RIs, then nplans plans (borrowed, each applied in order) against hours[0 .. nhours)
 * (borrowed), one entry per clock hour the window touches, in time order. Writes *out (its covered_usd and
 * commit_usd are the plans', its ri_* the RIs'; excess_usd is what both left).
 */
void savings_settle_all(const struct savings_hour *hours, int nhours, const struct savings_ri_terms *ris, int nris,
			const struct savings_plan_terms *plans, int nplans, struct savings_result *out);

/* What the RIs leave of hours[0 .. nhours) for the plans: their cover taken off each hour's usage in place
 * (usd and type_usd), as savings_settle_all applies them before the plans. */
void savings_after_ris(struct savings_hour *hours, int nhours, const struct savings_ri_terms *ris, int nris);

/* savings_settle_all without RIs. */
void savings_settle(const struct savings_hour *hours, int nhours, const struct savings_plan_terms *plans,
		    int nplans, struct savings_result *out);

#endif
