/*
 * savings: settling Savings Plans against on-demand usage, clock hour by clock hour.
 *
 * The rule (FACTS.md 3, and the re:Post worked example there): a plan commits to an amount in USD per hour
 * at Savings Plan rates. Each hour, eligible usage is charged at the plan's discounted rate against the
 * commitment; commitment not used in that hour is lost ("you are still billed $.90/hour because you
 * committed to that amount"); usage beyond the commitment is billed at the On-Demand rate. Several plans
 * apply one after the other, in fleet order, each to what the earlier ones left.
 *
 * Hours are counted from the scenario start; the last one may be partial (the horizon need not be whole
 * hours), and then its commitment is pro-rated. Usage is given as on-demand cost per hour.
 */
#ifndef GPUCAP_SAVINGS_H
#define GPUCAP_SAVINGS_H

struct savings_plan_terms {
	double commit_usd_per_h;  /* hourly commitment, at Savings Plan rates */
	double discount;          /* Savings Plan rate = On-Demand rate x (1 - discount) */
};

struct savings_result {
	double commit_usd;      /* commitments charged: sum over hours of commit x hour length */
	double unused_usd;      /* the part of commit_usd that covered no usage */
	double covered_od_usd;  /* usage the plans covered, valued at On-Demand rates */
	double excess_od_usd;   /* usage left over, billed at On-Demand rates */
};

/*
 * Settle nplans plans (borrowed) against od_usd[h] (usage at On-Demand rates in hour h, h < nhours); the
 * last hour lasts last_hour_h (0 < last_hour_h <= 1) hours, the others one. Writes *out.
 */
void savings_settle(const double *od_usd, int nhours, double last_hour_h,
		    const struct savings_plan_terms *plans, int nplans, struct savings_result *out);

#endif
