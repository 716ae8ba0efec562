/*
 * option_spot: Spot instances, their interruptions and their price.
 *
 * Rules (SOURCES.md [spot-notice-2min], [spot-per-second], [spot-max-od], [spot-billing]):
 *  - "A Spot Instance interruption notice is a warning that is issued two minutes before Amazon EC2 stops
 *    or terminates your Spot Instance": at a notice the instance stops taking requests (the fleet launches a
 *    replacement in allocation order) and is taken away notice_s later (default 120 s).
 *  - Price: the Spot price in force, "not exceeding the On-Demand price", billed per second (rounded up,
 *    60 s minimum for instances launched and ended inside the window, as on-demand: option_bill): either a
 *    fixed price (On-Demand less `discount`) or a replayed price history, integrated over the instance's
 *    billed time.
 *  - "Interrupted in the first hour: No charge" when Amazon EC2 interrupts it (Linux; "Charged for the
 *    seconds used" after the first hour, and whenever you stop or terminate it yourself). Interrupted here
 *    means it was given a notice (a drawn interruption, an availability-trace tick or a pool reclaim): the
 *    notice comes from EC2, so the instance counts as interrupted even when gpucap terminates it before the
 *    notice runs out (it finished its requests). Its first hour is measured from its launch to the moment
 *    it stops running: its termination, or, for one still under notice at the horizon, the end of the
 *    notice. An instance in service at t = 0 was launched before the window at an unknown time, so it is
 *    never taken to be in its first hour (an assumption: it pays for its seconds in the window). Not for
 *    the instances of SageMaker managed Spot training jobs (jobs.managed_spot): they pay their seconds
 *    (SOURCES.md [sm-managed-spot]).
 * Interruptions come from one of:
 *  - a rate per instance-hour (`interruptions_per_hour`, or a Spot Advisor band converted by the loader):
 *    each instance draws its time to interruption at launch, exponential, from the entry's stream;
 *  - an availability trace (SkyPilot format): launches fail while the trace shows no more capacity than is
 *    running, and at each tick the instances beyond the trace's count get a notice, newest first;
 * and, on top, pool-wide reclaims at `reclaims_per_day`: each takes `reclaim_fraction` of the running pool
 * at once (rounded up; the Can't Be Late study saw multi-instance availability all-or-none 94% of the time,
 * hence the default 1) and leaves the pool unavailable for an exponential time of mean outage_mean_s.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>

#include <gsl/gsl_randist.h>

#include "convert.h"
#include "engine.h"
#include "fleet_private.h"
#include "provider.h"
#include "rng.h"
#include "status.h"

#define PREEMPTIBLE_MAX_US (24 * 3600 * INT64_C(1000000))  /* SOURCES.md [gcp-preemptible-24h] */

static int64_t to_unix_us(const struct fleet *f, int64_t t_us)
{
	return f->sc->start_unix_us + t_us;
}

static double price_at(const struct fleet *f, const struct fleet_group *g, int64_t t_us)
{
	if (g->entry->prices.n > 0)
		return pricetrace_at(&g->entry->prices, to_unix_us(f, t_us));
	return g->usd_per_h;
}

/* USD for holding one instance over [t0, t1) at the price in force (a step function). */
static double price_integral(const struct fleet *f, const struct fleet_group *g, int64_t t0, int64_t t1)
{
	const struct pricetrace *pt = &g->entry->prices;
	double usd = 0;

	if (pt->n == 0)
		return g->usd_per_h * (double)(t1 - t0) / SIM_US_PER_H_D;
	while (t0 < t1) {
		int64_t u = to_unix_us(f, t0), next = t1;
		/* the next price change after t0, if it comes before t1 */
		for (int i = 0; i < pt->n; i++)
			if (pt->at_unix_us[i] > u) {
				int64_t c = pt->at_unix_us[i] - f->sc->start_unix_us;
				if (c < next)
					next = c;
				break;
			}
		usd += pricetrace_at(pt, u) * (double)(next - t0) / SIM_US_PER_H_D;
		t0 = next;
	}
	return usd;
}

static int running(const struct fleet *f, const struct fleet_group *g)
{
	int n = 0;

	for (int i = g->first; i < g->first + g->max; i++)
		n += f->pool[i].state != INSTANCE_FREE && !f->pool[i].noticed;
	return n;
}

/* Give a notice to the k running instances of g launched last (fleet_notice_newest). */
static void interrupt_newest(struct fleet *f, struct fleet_group *g, int k, const char *why)
{
	fleet_notice_newest(f, &g->index, 1, k, why);
}

static void on_notice(struct engine *eng, struct event *ev)
{
	struct instance *in = container_of(ev, struct instance, notice);
	struct fleet *f = in->fleet;

	if (in->noticed)
		return; /* the availability trace or a pool reclaim came first */
	meter_count(f->meter, METER_SPOT_INTERRUPTIONS, 1);
	fleet_interrupt(f, (int)(in - f->pool), eng->now_us + f->group[in->group].entry->notice_us,
			"spot interruption");
}

static void schedule(struct fleet *f, struct event *ev, int64_t t_us, void (*fn)(struct engine *, struct event *))
{
	if (t_us > f->sc->horizon_us)
		return;
	if (engine_schedule(f->eng, ev, t_us, fn) != STATUS_OK) {
		meter_fail(f->meter, STATUS_ENOMEM);
		engine_stop(f->eng);
	}
}

/*
 * Schedule ev at an exponential gap of mean mean_us (microseconds, > 0, +inf allowed) after from_us, drawn
 * from g's stream (one draw, whatever the mean). A gap that reaches past the clock's range means the event
 * never happens, and nothing is scheduled (convert.h): a rate so small that its mean gap is beyond 292 000
 * years (reclaims_per_day: 1e-10) is, in effect, no event within any horizon (SOURCES.md [rate-never]).
 */
static void schedule_exp(struct fleet *f, struct fleet_group *g, struct event *ev, int64_t from_us, double mean_us,
			 void (*fn)(struct engine *, struct event *))
{
	double gap_us = rng_exponential(g->rng, mean_us);
	int64_t t_us;
	int rc = isinf(mean_us) ? STATUS_DONE : convert_after_us(from_us, gap_us, &t_us);

	if (rc == STATUS_OK)
		schedule(f, ev, t_us, fn);
	else if (rc != STATUS_DONE)
		meter_fail(f->meter, rc);  /* a NaN or negative draw: cannot happen with mean_us > 0 */
}

static void on_reclaim(struct engine *eng, struct event *ev)
{
	struct fleet_group *g = container_of(ev, struct fleet_group, opt.spot.reclaim);
	struct fleet *f = g->fleet;
	const struct fleet_entry *e = g->entry;
	int k = (int)ceil(e->reclaim_fraction * running(f, g) - 1e-9);
	char why[96];

	int64_t until_us;

	/* an outage whose end is past the clock's range lasts to the end of the run */
	if (convert_after_us(eng->now_us, rng_exponential(g->rng, (double)e->outage_mean_us), &until_us) != STATUS_OK)
		until_us = SIM_TIME_MAX;
	g->outage_until_us = until_us;
	snprintf(why, sizeof why, "spot pool reclaim: %d instances, pool out for %.0f s", k,
		 (double)(g->outage_until_us - eng->now_us) / 1e6);
	meter_event(f->meter, eng->now_us, "spot_reclaim", "spot", k, why);
	interrupt_newest(f, g, k, "spot pool reclaim");
	schedule_exp(f, g, &g->opt.spot.reclaim, eng->now_us, 86400e6 / e->reclaims_per_day, on_reclaim);
}

static void on_tick(struct engine *eng, struct event *ev)
{
	struct fleet_group *g = container_of(ev, struct fleet_group, opt.spot.tick);
	struct fleet *f = g->fleet;
	int have = availtrace_at(&g->entry->avail, eng->now_us), run = running(f, g);

	if (run > have)
		interrupt_newest(f, g, run - have, "spot availability trace");
	else
		fleet_reconcile(f); /* capacity may be back */
	g->opt.spot.next_tick++;
	schedule(f, &g->opt.spot.tick, (int64_t)g->opt.spot.next_tick * g->entry->avail.gap_us, on_tick);
}

/* True if an azure max price is set and the price at t_us is above it: running VMs are evicted (SOURCES.md
 * [az-spot-max-price]). */
static bool over_max_price(const struct fleet *f, const struct fleet_group *g, int64_t t_us)
{
	return g->entry->max_usd_per_h > 0 && price_at(f, g, t_us) > g->entry->max_usd_per_h;
}

/* True if an azure max price is set and is not greater than the price at t_us: no VM is created, "only if
 * the maxPrice is greater than the current Azure Spot price" (SOURCES.md [az-spot-max-price]); a VM
 * already running at a price equal to its max stays. */
static bool max_price_refuses(const struct fleet *f, const struct fleet_group *g, int64_t t_us)
{
	return g->entry->max_usd_per_h > 0 && price_at(f, g, t_us) >= g->entry->max_usd_per_h;
}

static void on_price(struct engine *eng, struct event *ev);

/* Schedule on_price at the price trace's next change after now (none: nothing). O(changes) in all. */
static void schedule_price_change(struct fleet *f, struct fleet_group *g)
{
	const struct pricetrace *pt = &g->entry->prices;
	int64_t u = to_unix_us(f, f->eng->now_us);

	for (int i = g->opt.spot.next_price; i < pt->n; i++) {
		if (pt->at_unix_us[i] > u) {
			g->opt.spot.next_price = i + 1;
			schedule(f, &g->opt.spot.price, pt->at_unix_us[i] - f->sc->start_unix_us, on_price);
			return;
		}
	}
}

/* A price change (or t = 0) with a max price: above it, every running VM is evicted (with the notice);
 * at or below it, capacity may be launched again. */
static void on_price(struct engine *eng, struct event *ev)
{
	struct fleet_group *g = container_of(ev, struct fleet_group, opt.spot.price);
	struct fleet *f = g->fleet;

	if (over_max_price(f, g, eng->now_us))
		interrupt_newest(f, g, running(f, g), "spot price above max_usd_per_h");
	else
		fleet_reconcile(f);
	schedule_price_change(f, g);
}

static void spot_init(struct fleet *f, struct fleet_group *g)
{
	g->deallocated = 0;
	if (f->sc->provider == PROVIDER_AZURE && g->entry->variant == VARIANT_NONE)
		meter_report_dealloc(f->meter);  /* report the eviction policy's metrics (spot_deallocated) */
	engine_event_init(&g->opt.spot.reclaim);
	engine_event_init(&g->opt.spot.tick);
	engine_event_init(&g->opt.spot.price);
	g->opt.spot.next_tick = 0;
	g->opt.spot.next_price = 0;
}

static void spot_close(struct fleet *f, struct fleet_group *g, int64_t horizon_us, const struct meter_payer *pay)
{
	(void)horizon_us;
	(void)pay;  /* a Spot instance bills when it ends */
	engine_cancel(f->eng, &g->opt.spot.reclaim);
	engine_cancel(f->eng, &g->opt.spot.tick);
	engine_cancel(f->eng, &g->opt.spot.price);
}

static int spot_start(struct fleet *f, struct fleet_group *g)
{
	const struct fleet_entry *e = g->entry;

	/* an entry in a named zone is reclaimed with its zone's pool (fleet_zone.c) */
	if (e->reclaims_per_day > 0 && e->zone == 0)
		schedule_exp(f, g, &g->opt.spot.reclaim, 0, 86400e6 / e->reclaims_per_day, on_reclaim);
	if (e->avail.n > 0) {
		g->opt.spot.next_tick = 1;
		schedule(f, &g->opt.spot.tick, e->avail.gap_us, on_tick);
	}
	if (e->max_usd_per_h > 0 && e->prices.n > 0)
		schedule(f, &g->opt.spot.price, 0, on_price);
	return f->meter->status;
}

static int spot_can_launch(struct fleet *f, struct fleet_group *g, int n, char *why, size_t size)
{
	const struct fleet_entry *e = g->entry;
	int64_t now = f->eng->now_us;

	if (now < g->outage_until_us) {
		snprintf(why, size, "no spot capacity: pool reclaimed, back in %.0f s",
			 (double)(g->outage_until_us - now) / 1e6);
		return STATUS_EINPUT;
	}
	if (max_price_refuses(f, g, now)) {
		snprintf(why, size, "spot price %.10g not below max_usd_per_h %.10g", price_at(f, g, now),
			 e->max_usd_per_h);
		return STATUS_EINPUT;
	}
	if (e->avail.n > 0 && running(f, g) + n > availtrace_at(&e->avail, now)) {
		snprintf(why, size, "no spot capacity: the availability trace shows %d (%d running, %d asked)",
			 availtrace_at(&e->avail, now), running(f, g), n);
		return STATUS_EINPUT;
	}
	return fleet_check_capacity(f, g, n, f->sc->quotas.spot_vcpus, f->sc->quotas.spot_instances,
				    "All Spot Instance Requests for", why, size);
}

/* fleet_available: the trace's count less the running instances (none during a pool outage or above the max
 * price); the next change is the next tick, the outage's end or the next price change. */
static int spot_available(const struct fleet *f, const struct fleet_group *g, int64_t *next_us)
{
	const struct fleet_entry *e = g->entry;
	int64_t now = f->eng->now_us, next = INT64_MAX;
	int n = INT_MAX;

	if (e->avail.n > 0) {
		n = availtrace_at(&e->avail, now) - running(f, g);
		next = (now / e->avail.gap_us + 1) * e->avail.gap_us;
	}
	if (now < g->outage_until_us) {
		n = 0;
		next = g->outage_until_us < next ? g->outage_until_us : next;
	}
	if (max_price_refuses(f, g, now))
		n = 0;
	if (e->max_usd_per_h > 0 && e->prices.n > 0 && evq_queued(&g->opt.spot.price) && g->opt.spot.price.t_us < next)
		next = g->opt.spot.price.t_us;
	*next_us = next;
	return n > 0 ? n : 0;
}

/*
 * A gcp preemptible VM "always" stops 24 h after it starts (SOURCES.md [gcp-preemptible-24h]): its notice
 * comes notice_s before that unless a drawn interruption comes first. One already in service at t = 0 is
 * taken to have started at t = 0 (its real start is unknown: an assumption).
 */
static void preemptible_deadline(struct fleet *f, struct fleet_group *g, struct instance *in)
{
	int64_t start_us = in->launch_us > 0 ? in->launch_us : 0;
	int64_t at_us = start_us + PREEMPTIBLE_MAX_US - g->entry->notice_us;

	if (at_us < start_us)
		at_us = start_us;
	if (evq_queued(&in->notice)) {
		if (in->notice.t_us <= at_us)
			return;
		engine_cancel(f->eng, &in->notice);
	}
	schedule(f, &in->notice, at_us, on_notice);
}

static void spot_launched(struct fleet *f, struct fleet_group *g, struct instance *in)
{
	double rate = g->entry->interruptions_per_hour;

	if (rate > 0)
		schedule_exp(f, g, &in->notice, in->launch_us, SIM_US_PER_H_D / rate, on_notice);
	if (g->entry->variant == VARIANT_PREEMPTIBLE)
		preemptible_deadline(f, g, in);
}

/*
 * True if EC2 interrupted `in` within the first hour of its life, which then costs nothing
 * (SOURCES.md [spot-billing]):
 * it had a notice, was launched inside the window, and stopped running (at end_us when terminated early;
 * at the end of its notice when still under notice at the horizon) less than 3600 s after its launch.
 */
static bool free_interruption(const struct instance *in, int64_t end_us, bool early)
{
	int64_t stop_us = end_us;

	if (!in->noticed || in->warm)
		return false;
	if (!early) {
		if (!evq_queued(&in->doom))
			return false;
		stop_us = in->doom.t_us;
	}
	return (double)(stop_us - in->launch_us) < SIM_US_PER_H_D; /* "in the first hour": 3600 s exactly is not */
}

/*
 * True if `in` runs SageMaker managed Spot training jobs (jobs.managed_spot and a jobs instance): SageMaker
 * bills a training job's billable seconds, the time it ran on Spot, so EC2's free first hour does not apply
 * (SOURCES.md [sm-managed-spot]); the seconds are billed as any Spot instance's.
 */
static bool managed_spot(const struct fleet *f, const struct instance *in)
{
	return f->sc->jobs.managed_spot && in->user == FLEET_USER_JOBS;
}

/* The bill lines of a Spot instance billed for billed_us from launch_us: clock hour by clock hour, at the
 * prices in force (nothing when paid is false: an interruption in the first hour). */
static void spot_bill(struct fleet *f, struct fleet_group *g, const struct meter_payer *pay, int64_t launch_us,
		      double billed_us, bool paid)
{
	int64_t t = launch_us, end = launch_us + (int64_t)billed_us;

	if (billed_us <= 0)
		return;
	while (t < end) {
		int64_t b = meter_hour_end(f->meter, t);
		if (b > end)
			b = end;
		meter_bill(f->meter, pay, OPTION_SPOT, CHARGE_USAGE, (double)t, (double)b,
			   (double)(b - t) / SIM_US_PER_H_D, paid ? price_integral(f, g, t, b) : 0, paid ? price_integral(f, g, t, b) : 0);
		t = b;
	}
	if ((double)(end - launch_us) < billed_us)  /* the free interruption's fractional microsecond */
		meter_bill(f->meter, pay, OPTION_SPOT, CHARGE_USAGE, (double)end, billed_us + (double)launch_us,
			   (billed_us - (double)(end - launch_us)) / SIM_US_PER_H_D, 0, 0);
}

/*
 * Azure's eviction policy (SOURCES.md [az-spot-eviction-policy]). With `deallocate` (the default) an evicted
 * VM is stopped, not deleted: it "won't be automatically restarted" but keeps counting against the quota
 * (g->deallocated, counted by fleet_check_quota) and its disks' storage is charged, `disk_usd_per_h`, from its
 * eviction to the horizon: nothing in the scenario deletes it (an assumption: the planner who deletes
 * evicted VMs at once says `eviction_policy: delete`). The storage goes to the Spot bill (cost_spot_usd,
 * FOCUS lines with no instance-hours) and no GPU time: the VM no longer runs. With `delete` nothing remains.
 */
static void deallocate(struct fleet *f, struct fleet_group *g, const struct meter_payer *pay, int64_t at_us)
{
	int64_t horizon = f->sc->horizon_us, t = at_us;
	double rate = g->entry->disk_usd_per_h;

	g->deallocated++;
	meter_count(f->meter, METER_SPOT_DEALLOCATED, 1);
	meter_event(f->meter, at_us, "deallocate", option_kind_name(g->kind), 1, "evicted VM kept stopped");
	if (rate <= 0 || at_us >= horizon)
		return;
	meter_spot_disk(f->meter, rate * (double)(horizon - at_us) / SIM_US_PER_H_D);
	meter_charge(f->meter, pay, OPTION_SPOT, rate * (double)(horizon - at_us) / SIM_US_PER_H_D, 0, (double)at_us,
		     (double)horizon);
	while (t < horizon) {  /* the bill by clock hour */
		int64_t b = meter_hour_end(f->meter, t);
		if (b > horizon)
			b = horizon;
		meter_bill(f->meter, pay, OPTION_SPOT, CHARGE_USAGE, (double)t, (double)b, 0,
			   rate * (double)(b - t) / SIM_US_PER_H_D, rate * (double)(b - t) / SIM_US_PER_H_D);
		t = b;
	}
}

/*
 * True if Google Cloud preempted `in` less than a minute after creating it, which then costs nothing
 * (SOURCES.md [gcp-spot-first-minute]): it was launched inside the window and its notice (the preemption;
 * a drawn interruption, a pool reclaim or zone outage, a preemptible VM's 24 hours) came less than 60 s
 * after its launch. Measured to the notice, not to the end of the 30 s notice: Google counts from the
 * preemption. An instance stopped by the fleet (scale-in) is not preempted: billed as usual.
 */
static bool free_preemption(const struct fleet *f, const struct instance *in)
{
	int64_t within = provider_spot_free_preempt_us(f->sc->provider);

	return within > 0 && in->noticed && !in->warm && in->noticed_us - in->launch_us < within;
}

static void spot_ended(struct fleet *f, struct fleet_group *g, struct instance *in, int64_t end_us, bool early,
		       const struct meter_payer *pay)
{
	double usd, billed_us, meas_usd, meas_us, paid_us, meas_paid_us;
	int64_t from = in->launch_us > f->meter->warmup_us ? in->launch_us : f->meter->warmup_us;

	/* the provider's granularity as on-demand (aws, gcp: per second, 60 s minimum; azure: full minutes);
	 * the dollars at the prices in force */
	provider_bill(f->sc->provider, g->usd_per_h, in->launch_us, end_us, early, in->warm, &usd, &billed_us);
	usd = price_integral(f, g, in->launch_us, in->launch_us + (int64_t)billed_us);
	if ((provider_spot_first_hour_free(f->sc->provider) && !managed_spot(f, in) &&
	     free_interruption(in, end_us, early)) || free_preemption(f, in)) {
		usd = 0; /* the time it was held inside the window still counts as paid GPU time, at $0 */
		billed_us = (double)(end_us - in->launch_us);
	}
	/* the measured part: the billed time from the warm-up's end on, at the prices in force then */
	meas_us = (double)in->launch_us + billed_us - (double)from;
	if (meas_us < 0)
		meas_us = 0;
	meas_usd = usd > 0 && meas_us > 0 ? price_integral(f, g, from, from + (int64_t)meas_us) : 0;
	/* the GPU time paid for: the time held when longer than the billed time (azure's unbilled seconds) */
	paid_us = billed_us > (double)(end_us - in->launch_us) ? billed_us : (double)(end_us - in->launch_us);
	meas_paid_us = (double)in->launch_us + paid_us - (double)from;
	if (meas_paid_us < 0)
		meas_paid_us = 0;
	if (f->meter->warmup_us == 0) {
		meas_usd = usd;  /* the whole bill is measured, exactly */
		meas_paid_us = paid_us;
	}
	meter_charge_split(f->meter, pay, OPTION_SPOT, usd, paid_us, meas_usd, meas_paid_us);
	spot_bill(f, g, pay, in->launch_us, billed_us, usd > 0);
	/* evicted (taken at the end of a notice, which on azure is always an eviction) */
	if (early && in->noticed && f->sc->provider == PROVIDER_AZURE && g->entry->variant == VARIANT_NONE &&
	    !g->entry->evict_delete)
		deallocate(f, g, pay, end_us);
}

static double spot_rate(const struct fleet *f, const struct fleet_group *g, int64_t now_us)
{
	return (g->live + g->draining) * price_at(f, g, now_us);
}

/* A zone outage (fleet_zone.c): each running instance gets its interruption notice (notice_s), counted as a
 * Spot interruption and billed as one (free in its first hour where the provider says so). */
static void spot_zone_lost(struct fleet *f, struct fleet_group *g, int64_t now_us)
{
	meter_count(f->meter, METER_SPOT_INTERRUPTIONS, (uint64_t)fleet_zone_take(f, g, g->entry->notice_us, "zone outage"));
}

const struct option_ops option_spot_ops = {
	.init = spot_init,
	.start = spot_start,
	.close = spot_close,
	.can_launch = spot_can_launch,
	.available = spot_available,
	.launched = spot_launched,
	.ended = spot_ended,
	.rate = spot_rate,
	.zone_lost = spot_zone_lost,
	.zone_notice = true,
	.spot_market = true,
};
