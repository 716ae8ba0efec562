/*
 * option_reserved: zonal reserved instances (a `reserved` fleet entry, `scope: zonal`), and their term and
 * payment. Regional RIs are commitments, not capacity: the bill settles them (models/pricing/savings.c,
 * SOURCES.md [ri-regional-commitment]); this file never sees them.
 *
 * Rule (SOURCES.md [ri-clock-hour], [ri-no-renew], [ri-no-term]): "Reserved Instances are billed for every
 * clock-hour during the term ... regardless of whether an instance is running." The instances are in service
 * from t = 0 and never scaled in. The cost of the simulated window is count x (hourly rate + upfront / term
 * hours) x the hours of the window inside the term: an upfront payment is amortised over every hour of its
 * term. RIs "don't auto-renew; on expiry instances continue at On-Demand rates": the part of the window
 * outside the term is billed as on-demand usage (and a Savings Plan may cover it). What the term still costs
 * after the horizon is reported as commitment_after_horizon_usd. Every reservation has a term: the loader
 * makes an entry without `term` a 1-year one from the scenario start (scenario_fleet.c).
 */
#include <assert.h>

#include "engine.h"
#include "fleet_private.h"
#include "status.h"


static double term_hours(enum term_kind t)
{
	assert(t == TERM_1Y || t == TERM_3Y);
	return t == TERM_3Y ? 26280.0 : 8760.0;
}

/* Effective USD per instance-hour inside the term. */
static double effective_rate(const struct fleet_entry *e)
{
	return e->usd_per_h + e->upfront_usd / term_hours(e->term);
}

/* The term as [start, end) in microseconds from the scenario start. */
static void term_window(const struct fleet *f, const struct fleet_entry *e, double *t0, double *t1)
{
	*t0 = (double)(e->term_start_unix_us - f->sc->start_unix_us);
	*t1 = *t0 + term_hours(e->term) * SIM_US_PER_H_D;
}

static int reserved_start(struct fleet *f, struct fleet_group *g)
{
	int n = 0;

	while (n < g->max && fleet_take_slot(f, g, true))
		n++;
	meter_event(f->meter, 0, "start", "reserved", n, "in service at t=0");
	return STATUS_OK;
}

/* The length of [t0_us, t1_us) inside the measured window [warmup, horizon). */
static double measured_part(const struct meter *m, double t0_us, double t1_us)
{
	double lo = t0_us > (double)m->warmup_us ? t0_us : (double)m->warmup_us;
	double hi = t1_us < (double)m->horizon_us ? t1_us : (double)m->horizon_us;

	return hi > lo ? hi - lo : 0;
}

static void reserved_close(struct fleet *f, struct fleet_group *g, int64_t horizon_us, const struct meter_payer *pay)
{
	const struct fleet_entry *e = g->entry;
	double t0, t1, in0, in1, inside_h, outside_us, rate = effective_rate(e), od = f->sc->types[e->type].od_usd_per_h;
	double count = e->count, cost;

	term_window(f, e, &t0, &t1);
	in0 = t0 > 0 ? t0 : 0;
	in1 = t1 < (double)horizon_us ? t1 : (double)horizon_us;
	inside_h = in1 > in0 ? (in1 - in0) / SIM_US_PER_H_D : 0;
	cost = count * rate * inside_h;
	meter_charge(f->meter, pay, OPTION_RESERVED, cost, count * inside_h * SIM_US_PER_H_D, in0,
		     in1 > in0 ? in1 : in0);
	/* the bill: the term's hours are used commitment (the hourly fee billed, the upfront fee amortised
	 * in the effective cost), and the upfront fee a purchase at the term's start when that is inside the
	 * window */
	meter_bill(f->meter, pay, OPTION_RESERVED, CHARGE_USED, in0, in1 > in0 ? in1 : in0, count * inside_h,
		   count * e->usd_per_h * inside_h, cost);
	if (e->upfront_usd > 0 && t0 >= 0 && t0 < (double)horizon_us)
		meter_bill(f->meter, pay, OPTION_RESERVED, CHARGE_UPFRONT, t0, t0, 0, count * e->upfront_usd, 0);
	/* a reservation is fully used: its instances run all along (RI utilisation in AWS's sense) */
	meter_commitment(f->meter, cost, cost, count * od * inside_h, count * od * inside_h);
	if (t1 > (double)horizon_us)
		meter_after_horizon(f->meter, OPTION_RESERVED, count * rate *
				    (t1 - (t0 > horizon_us ? t0 : (double)horizon_us)) / SIM_US_PER_H_D);
	/* outside the term the same instances run at On-Demand rates */
	outside_us = (double)horizon_us - (in1 > in0 ? in1 - in0 : 0);
	if (outside_us > 0) {
		if (in0 > 0)
			meter_od_usage(f->meter, pay, 0, (int64_t)in0, od * count);
		if (in1 < (double)horizon_us)
			meter_od_usage(f->meter, pay, in1 > 0 ? (int64_t)in1 : 0, horizon_us, od * count);
		/* the dollars come at settlement; the measured paid time is the measured window less the
		 * term's part of it */
		meter_charge_split(f->meter, pay, OPTION_ON_DEMAND, 0, count * outside_us, 0,
				   f->meter->warmup_us == 0 ? count * outside_us :
				   count * (measured_part(f->meter, 0, (double)horizon_us) -
					    measured_part(f->meter, in0, in1 > in0 ? in1 : in0)));
	}
}

static double reserved_rate(const struct fleet *f, const struct fleet_group *g, int64_t now_us)
{
	double t0, t1;

	term_window(f, g->entry, &t0, &t1);
	if ((double)now_us >= t0 && (double)now_us < t1)
		return g->entry->count * effective_rate(g->entry);
	return g->entry->count * f->sc->types[g->entry->type].od_usd_per_h;
}

const struct option_ops option_reserved_ops = {
	.start = reserved_start,
	.close = reserved_close,
	.rate = reserved_rate,
	.self_managed = true,
	.live_from_start = true,
};
