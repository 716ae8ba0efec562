/* reservation: see reservation.h. */
#include "reservation.h"

#include <stdio.h>

#include "engine.h"
#include "status.h"


int64_t reservation_end_us(const struct fleet_entry *e)
{
	return e->start_us + e->duration_us;
}

double reservation_price(const struct fleet_entry *e)
{
	return e->upfront_usd > 0 ? e->upfront_usd : e->count * e->usd_per_h * (double)e->duration_us / SIM_US_PER_H_D;
}

void reservation_schedule(struct fleet *f, struct fleet_group *g, int phase, int64_t t_us,
			  void (*fn)(struct engine *, struct event *))
{
	g->opt.block.phase = phase;
	if (t_us > f->sc->horizon_us)
		return;
	if (engine_schedule(f->eng, &g->opt.block.timer, t_us < f->eng->now_us ? f->eng->now_us : t_us, fn) !=
	    STATUS_OK) {
		meter_fail(f->meter, STATUS_ENOMEM);
		engine_stop(f->eng);
	}
}

int reservation_open(struct fleet *f, struct fleet_group *g, bool warm, const char *why)
{
	int n = 0;
	char zone_why[160];

	/* its zone is out (fleet_zone.c): the instances come when the zone's capacity is back */
	if (fleet_zone_refuses(f, g, zone_why, sizeof zone_why)) {
		meter_count(f->meter, METER_LAUNCH_FAILURES, 1);
		meter_event(f->meter, f->eng->now_us, "launch_failed", option_kind_name(g->kind), g->max, zone_why);
		return 0;
	}
	while (n < g->max && fleet_take_slot(f, g, warm))
		n++;
	meter_event(f->meter, f->eng->now_us, warm ? "start" : "launch", option_kind_name(g->kind), n, why);
	if (!warm && g->user == FLEET_USER_SERVING)
		fleet_add_desired(f, n * g->entry->weight); /* at t = 0 fleet_start counts what is live */
	return n;
}

void reservation_leave(struct fleet *f, struct fleet_group *g, bool idle_now, int64_t doom_us, const char *why)
{
	int live = g->live;
	char cancel[96];

	snprintf(cancel, sizeof cancel, "launch cancelled: %s", why);
	f->quiet++; /* one reconcile after the whole reservation has left the desired capacity */
	for (int i = g->first; i < g->first + g->max; i++) {
		const struct instance *in = &f->pool[i];
		if (in->state == INSTANCE_FREE)
			continue;
		if (in->state == INSTANCE_LAUNCHING || (idle_now && in->busy == 0))
			fleet_retire(f, i, cancel);
		else
			fleet_interrupt(f, i, doom_us, why);
	}
	f->quiet--;
	if (g->user == FLEET_USER_SERVING)
		fleet_add_desired(f, -live * g->entry->weight);  /* in autoscaling's unit */
	else
		fleet_reconcile(f);
}

void reservation_close(struct fleet *f, struct fleet_group *g, int64_t horizon_us, const struct meter_payer *pay)
{
	const struct fleet_entry *e = g->entry;
	double t0 = e->start_us > 0 ? (double)e->start_us : 0;

	engine_cancel(f->eng, &g->opt.block.timer);
	double t1 = reservation_end_us(e) < horizon_us ? (double)reservation_end_us(e) : (double)horizon_us;
	double inside = t1 > t0 ? t1 - t0 : 0, price = reservation_price(e), after;

	meter_charge(f->meter, pay, g->kind, price * inside / (double)e->duration_us, e->count * inside, t0,
		     t1 > t0 ? t1 : t0);
	/* the bill: the reservation is paid upfront (a purchase when it starts inside the window) and used over
	 * its hours (the effective cost spreads its price) */
	meter_bill(f->meter, pay, g->kind, CHARGE_USED, t0, t1 > t0 ? t1 : t0, e->count * inside / SIM_US_PER_H_D, 0,
		   price * inside / (double)e->duration_us);
	if (e->start_us >= 0 && e->start_us < horizon_us)
		meter_bill(f->meter, pay, g->kind, CHARGE_UPFRONT, t0, t0, 0, price, 0);
	after = (double)reservation_end_us(e) - (e->start_us > horizon_us ? (double)e->start_us : (double)horizon_us);
	if (after > 0)
		meter_after_horizon(f->meter, g->kind, price * after / (double)e->duration_us);
}

double reservation_rate(const struct fleet *f, const struct fleet_group *g, int64_t now_us)
{
	const struct fleet_entry *e = g->entry;

	(void)f;
	if (now_us < e->start_us || now_us >= reservation_end_us(e))
		return 0;
	return reservation_price(e) * SIM_US_PER_H_D / (double)e->duration_us;
}
