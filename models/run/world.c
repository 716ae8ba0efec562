/* world: see world.h. */
#include "world.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "autoscale.h"
#include "copies.h"
#include "engine.h"
#include "feed.h"
#include "fleet.h"
#include "fluid.h"
#include "jobs.h"
#include "multimodel.h"
#include "serving.h"
#include "savings.h"
#include "status.h"
#include "units.h"
#include "workload.h"

struct world {
	const struct scenario *sc;   /* borrowed */
	struct diag *d;              /* where failures are described, borrowed */
	struct engine eng;
	struct workload wl;
	struct feed feed;            /* wl's requests drawn ahead on a second thread, when feed_on (feed.h) */
	bool feed_on;
	bool one_thread;             /* world_options.one_thread: no feed */
	struct meter meter;
	struct fleet fleet;
	struct serving serving;
	struct multimodel mm;        /* several models (sc->nmodels > 0): theirs are the requests (multimodel.h) */
	struct copies copies;        /* model copies: what the policies scale when sc->copies.enabled */
	struct jobs jobs;            /* training and batch jobs, when sc->jobs.n > 0 */
	struct fluid fluid;          /* mode: fluid's periodic tick, in place of the requests (fluid.h) */
	struct autoscale as;         /* the autoscaler: metrics, policies, scheduled actions (autoscale.h) */
	struct request_draw next;    /* the arrival scheduled next */
	struct event arrival;
	struct event sample;
	struct warn warn;            /* what the warnings need, counted as the run goes (warn.h) */
	const struct world_progress *progress;  /* told at every sample; NULL = nobody; borrowed */
};

/* Several instance types: tell the meter each one's GPUs, slots and price (meter_types.c). */
static void set_meter_types(struct world *w)
{
	const char *names[SCENARIO_TYPES_MAX];
	int gpus[SCENARIO_TYPES_MAX], slots[SCENARIO_TYPES_MAX];
	double od[SCENARIO_TYPES_MAX];

	_Static_assert(SCENARIO_TYPES_MAX <= METER_TYPES_MAX, "the meter holds every type");
	for (int i = 0; i < w->sc->ntypes; i++) {
		names[i] = w->sc->types[i].name;
		gpus[i] = w->sc->types[i].gpus;
		slots[i] = w->sc->types[i].slots;
		od[i] = w->sc->types[i].od_usd_per_h;
	}
	meter_types_set(&w->meter, w->sc->ntypes, names, gpus, slots, od);
}

static void schedule_or_fail(struct world *w, struct event *ev, int64_t t_us,
			     void (*fn)(struct engine *, struct event *))
{
	int rc = engine_schedule(&w->eng, ev, t_us, fn);

	if (rc != STATUS_OK) {
		meter_fail(&w->meter, rc);
		engine_stop(&w->eng);
	}
}

static void on_arrival(struct engine *eng, struct event *ev);

/* Draw the next request and schedule its arrival; a source that fails (a malformed trace line found while
 * streaming) stops the run with its own message. */
static void next_arrival(struct world *w)
{
	int rc = w->feed_on ? feed_next(&w->feed, &w->next, w->d) : workload_next(&w->wl, &w->next, w->d);

	if (rc == STATUS_OK) {
		/* arrivals come one after another: the engine keeps the next one beside its heap (engine.h) */
		rc = engine_schedule_lane(&w->eng, &w->arrival, w->next.arrival_us, on_arrival);
		if (rc != STATUS_OK) {
			meter_fail(&w->meter, rc);
			engine_stop(&w->eng);
		}
	} else if (rc != STATUS_DONE) {
		if (w->meter.status == STATUS_OK)
			w->meter.status = rc; /* the message is already in w->d */
		engine_stop(&w->eng);
	}
}

static void on_arrival(struct engine *eng, struct event *ev)
{
	struct world *w = container_of(ev, struct world, arrival);

	(void)eng;
	warn_arrival(&w->warn);
	serving_arrive(&w->serving, &w->next);
	next_arrival(w);
}

/* What serves now: copies serving with copies, else instances in service (serving or draining). */
static int serving_now(const struct world *w)
{
	return w->sc->copies.enabled ? w->meter.copies : w->meter.in_service;
}

/* Requests waiting now: serving's queue, or in fluid mode the fluid backlog (rounded). */
static int64_t queue_now(const struct world *w)
{
	if (w->sc->nmodels > 0)
		return multimodel_queue_len(&w->mm);
	return w->sc->mode == MODE_FLUID ? fluid_queue_len(&w->fluid) : serving_queue_len(&w->serving);
}

static void on_sample(struct engine *eng, struct event *ev)
{
	struct world *w = container_of(ev, struct world, sample);

	meter_sample(&w->meter, eng->now_us, queue_now(w), fleet_cost_rate(&w->fleet, eng->now_us),
		     w->sc->jobs.n > 0 ? fleet_live_of(&w->fleet, FLEET_USER_JOBS) : NAN);
	warn_sample(&w->warn, eng->now_us, serving_now(w), autoscale_capacity_max(&w->as), queue_now(w));
	if (w->meter.status != STATUS_OK) {
		engine_stop(eng);
		return;
	}
	if (w->progress)
		w->progress->fn(w->progress->arg, (double)eng->now_us / SIM_US_PER_S,
				(double)w->sc->horizon_us / SIM_US_PER_S);
	if (eng->now_us + w->sc->sample_period_us <= w->sc->horizon_us)
		schedule_or_fail(w, &w->sample, eng->now_us + w->sc->sample_period_us, on_sample);
}

/* How far `start` lies past the UTC hour mark before it: Savings Plans settle by clock hour
 * (SOURCES.md [sp-clock-hour]). */
static int64_t hour_phase_us(const struct scenario *sc)
{
	int64_t h = SIM_US_PER_H, s = sc->start_unix_us % h;

	return s < 0 ? s + h : s;
}

/* Where the measured window starts, for the warnings: the warm-up's end. */
static int64_t measured_from_us(const struct scenario *sc)
{
	return sc->warmup_us;
}

/* The serving user of the fleet's instances (fleet.h): with model copies an instance serves once a copy
 * has loaded on it, so copies hear of it first; when it goes down copies lose theirs before serving drains. */
static void serving_user_up(void *ctx, int idx)
{
	struct world *w = ctx;

	if (w->sc->copies.enabled)
		copies_instance_up(&w->copies, idx);
	else
		serving_instance_up(&w->serving, idx);
	if (w->sc->nmodels > 0)
		multimodel_instance_up(&w->mm, idx);
}

static void serving_user_down(void *ctx, int idx)
{
	struct world *w = ctx;

	if (w->sc->copies.enabled)
		copies_instance_down(&w->copies, idx);
	serving_instance_down(&w->serving, idx);
	if (w->sc->nmodels > 0)
		multimodel_instance_down(&w->mm, idx);
}

static void serving_user_reclaim(void *ctx, int idx)
{
	struct world *w = ctx;

	serving_reclaim(&w->serving, idx);
	if (w->sc->nmodels > 0)
		multimodel_reclaim(&w->mm, idx);
}

static int setup(struct world *w, const struct scenario *sc, struct sink *sink, struct diag *d)
{
	int rc, slots = 0;

	w->sc = sc;
	w->d = d;
	engine_init(&w->eng);
	/* several models: every partition of an instance is a slot: a busy one counts as 1 / (partitions per GPU) GPU */
	for (int i = 0; i < sc->nmodels; i++)
		slots += sc->models[i].slots;
	rc = meter_init(&w->meter, *sink, d, sc->slo.latency_us, sc->serving.gpus, sc->nmodels ? slots : sc->serving.slots,
			sc->horizon_us, hour_phase_us(sc), sc->sample_period_us);
	if (rc)
		return rc;
	engine_event_init(&w->arrival);
	engine_event_init(&w->sample);
	meter_set_ttft_slo(&w->meter, sc->slo.ttft_us);
	meter_set_prices(&w->meter, sc->start_unix_us, sc->serving.od_usd_per_h);
	set_meter_types(w);
	warn_init(&w->warn, measured_from_us(sc), hour_phase_us(sc));
	world_memory_estimate(sc, &w->warn.mem);
	meter_set_warmup(&w->meter, sc->warmup_us);
	meter_set_slo(&w->meter, &(struct meter_slo){
		.latency_pct_us = { sc->slo.latency_pct_us[0], sc->slo.latency_pct_us[1], sc->slo.latency_pct_us[2],
				    sc->slo.latency_pct_us[3] },
		.ttft_pct_us = { sc->slo.ttft_pct_us[0], sc->slo.ttft_pct_us[1], sc->slo.ttft_pct_us[2],
				 sc->slo.ttft_pct_us[3] },
		.tpot_pct_us = { sc->slo.tpot_pct_us[0], sc->slo.tpot_pct_us[1], sc->slo.tpot_pct_us[2],
				 sc->slo.tpot_pct_us[3] },
		.max_violation_rate = sc->slo.max_violation_rate,
		.window_us = sc->slo.window_us,
		.window_phase_us = scenario_window_phase_us(sc),
		.tz = tzone_is_utc(&sc->tz) ? NULL : &sc->tz });
	/* a jobs-only scenario has no traffic: no source, no arrival, serving simply has nothing; in fluid
	 * mode the tick stands in for the source */
	if (sc->mode == MODE_FLUID) {
		if ((rc = fluid_init(&w->fluid, sc, &w->eng, &w->meter)) != STATUS_OK)
			return rc;
	} else if (!sc->no_traffic && sc->nmodels == 0 && (rc = workload_init(&w->wl, sc, d)) != STATUS_OK)
		return rc;
	rc = fleet_init(&w->fleet, sc, &w->eng, &w->meter, option_ops_of);
	if (rc)
		return rc;
	rc = serving_init(&w->serving, sc, &w->eng, &w->meter, &w->fleet, fleet_capacity(&w->fleet));
	if (rc)
		return rc;
	if (sc->nmodels > 0 && (rc = multimodel_init(&w->mm, sc, &w->eng, &w->meter, &w->fleet, d)) != STATUS_OK)
		return rc;
	if (sc->copies.enabled) {
		rc = copies_init(&w->copies, sc, &w->eng, &w->meter, &w->fleet, &w->serving,
				 fleet_capacity(&w->fleet));
		if (rc)
			return rc;
		w->fleet.managed_initial = true;
		meter_set_copies(&w->meter, sc->copies.gpus);
	}
	fleet_set_user(&w->fleet, FLEET_USER_SERVING, &(struct fleet_user){
		.up = serving_user_up, .down = serving_user_down, .reclaim = serving_user_reclaim, .ctx = w });
	if (sc->jobs.n > 0 && (rc = jobs_init(&w->jobs, sc, &w->eng, &w->meter, &w->fleet)) != STATUS_OK)
		return rc;
	rc = autoscale_init(&w->as, sc, &w->eng, &w->meter, &w->fleet, &w->serving,
			    sc->copies.enabled ? &w->copies : NULL, &w->warn);
	if (rc)
		return rc;
	/* each job has 4 events of its own (jobs.h) */
	return evq_reserve(&w->eng.q, (size_t)fleet_capacity(&w->fleet) + 4 * (size_t)sc->jobs.n + 1024);
}

/* The engine goes first: a run that failed part-way leaves events queued, and evq_fini() marks them
 * unqueued, so the models that own them must not have freed them yet. */
static void teardown(struct world *w)
{
	engine_fini(&w->eng);
	autoscale_fini(&w->as);
	if (w->sc->copies.enabled)
		copies_fini(&w->copies);
	serving_fini(&w->serving);
	multimodel_fini(&w->mm);
	if (w->sc->jobs.n > 0)
		jobs_fini(&w->jobs);
	fleet_fini(&w->fleet);
	if (w->feed_on)
		feed_stop(&w->feed);  /* the workload is the producer's until then */
	workload_fini(&w->wl);
	if (w->sc->mode == MODE_FLUID)
		fluid_fini(&w->fluid);
	meter_fini(&w->meter);
}

static void run_to_horizon(struct world *w)
{
	const struct scenario *sc = w->sc;

	int rc = sc->copies.enabled ? copies_start(&w->copies, autoscale_initial_capacity(sc))
				    : fleet_start(&w->fleet, autoscale_initial_capacity(sc));

	if (rc == STATUS_OK && sc->jobs.n > 0)
		rc = jobs_start(&w->jobs);
	if (rc != STATUS_OK)
		return;
	/* the fluid tick is scheduled before the sample and the evaluation, so that at equal times it runs
	 * first (engine.h) and they see the period it closes */
	if (sc->mode == MODE_FLUID && (rc = fluid_start(&w->fluid)) != STATUS_OK) {
		meter_fail(&w->meter, rc);
		return;
	}
	if (sc->nmodels > 0)
		multimodel_start(&w->mm);
	else if (!sc->no_traffic && sc->mode != MODE_FLUID) {
		/* the draws ahead on a second thread when the workload allows it; inline when it does not, when
		 * the process may use one CPU only, or when the thread cannot be had (the same requests either
		 * way: feed.h) */
		w->feed_on = !w->one_thread && !feed_unsuitable(&w->wl) && feed_worthwhile() &&
			     feed_start(&w->feed, &w->wl) == STATUS_OK;
		next_arrival(w);
	}
	if (sc->sample_period_us <= sc->horizon_us)
		schedule_or_fail(w, &w->sample, sc->sample_period_us, on_sample);
	autoscale_start(&w->as);
	engine_run(&w->eng, sc->horizon_us);
}

/* The name of an event, for messages: the world's own by name, the models' by their owner. */
static const char *event_name(const struct world *w, const struct event *ev)
{
	if (ev == &w->arrival)
		return "arrival";
	if (ev == &w->sample)
		return "sample";
	if (autoscale_event_name(&w->as, ev))
		return autoscale_event_name(&w->as, ev);
	return "fleet, serving or copies";
}

/*
 * An event scheduled into the past fails the run in every build (engine.h): the clock must never run
 * backwards. The message names the event and both times; the run's status becomes STATUS_EINTERNAL (exit 1),
 * whatever the model that met the refusal made of it, so the sink rolls the run back.
 */
static void fail_if_refused(struct world *w)
{
	const struct engine *eng = &w->eng;

	if (!eng->refused)
		return;
	w->meter.status = STATUS_EINTERNAL;
	diag_fail(w->d, STATUS_EINTERNAL, "simulation failed: the %s event was scheduled at t = %.6f s, before "
		  "the clock (t = %.6f s); time must never run backwards", event_name(w, eng->refused),
		  (double)eng->refused_t_us / SIM_US_PER_S, (double)eng->refused_now_us / SIM_US_PER_S);
}

/*
 * A run whose clock stopped advancing (more than ENGINE_SAME_INSTANT_MAX events at one instant, engine.h)
 * fails in every build, with the instant and the kinds of event that kept coming, STATUS_EINTERNAL (exit 1).
 * Called once the loop has returned, before the horizon is closed.
 */
static void fail_if_stalled(struct world *w)
{
	const struct engine *eng = &w->eng;
	char kinds[160] = "";
	size_t len = 0;

	if (!eng->stalled || w->meter.status != STATUS_OK)
		return;  /* an earlier failure is the one to report */
	for (int i = 0; i < eng->nstalled_ev && len < sizeof kinds; i++) {
		const char *name = event_name(w, eng->stalled_ev[i]);
		if (strstr(kinds, name))
			continue;  /* the models' events share one name */
		len += (size_t)snprintf(kinds + len, sizeof kinds - len, "%s%s", len ? ", " : "", name);
	}
	w->meter.status = STATUS_EINTERNAL;
	diag_fail(w->d, STATUS_EINTERNAL, "simulation failed: more than %" PRIu64 " events at t = %.6f s without "
		  "the clock advancing (%s events); a rate or delay too small to move time forward?",
		  eng->same_instant_max, (double)eng->now_us / SIM_US_PER_S, kinds[0] ? kinds : "unknown");
}

/* A commitment's term as [t0, t1) in hours from the scenario start. */
static void term_hours(const struct scenario *sc, const struct fleet_entry *e, double *t0_h, double *t1_h)
{
	*t0_h = (double)(e->term_start_unix_us - sc->start_unix_us) / SIM_US_PER_H_D;
	*t1_h = *t0_h + (e->term == TERM_3Y ? 26280.0 : 8760.0);
}

int world_ri_terms(const struct scenario *sc, struct savings_ri_terms ris[SCENARIO_COMMIT_MAX],
		   int from[SCENARIO_COMMIT_MAX])
{
	int n = 0;

	for (int i = 0; i < sc->ncommit; i++) {
		const struct fleet_entry *e = &sc->commit[i];
		double t0_h, t1_h;
		if (e->option != OPTION_RESERVED)
			continue;
		double od = sc->types[e->type].od_usd_per_h;
		term_hours(sc, e, &t0_h, &t1_h);
		/* usage is valued at the rate its on-demand instances were billed: an on_demand entry of the type
		 * that states its own usd_per_h sets the instance-hour an RI covers */
		for (int f = 0; f < sc->nfleet; f++)
			if (sc->fleet[f].option == OPTION_ON_DEMAND && sc->fleet[f].type == e->type) {
				od = sc->fleet[f].usd_per_h;
				break;
			}
		if (from)
			from[n] = i;
		ris[n++] = (struct savings_ri_terms){ .type = e->type, .count = e->count,
			.od_usd_per_h = od,
			.usd_per_h = e->usd_per_h + e->upfront_usd / (t1_h - t0_h), .billed_usd_per_h = e->usd_per_h,
			.t0_h = t0_h, .t1_h = t1_h };
	}
	return n;
}

/*
 * Settle the commitments (regional RIs, then Savings Plans: savings.h) against the hourly usage, bill an
 * RI's upfront fee when its term begins inside the window, and report what their terms still cost after the
 * horizon.
 */
static void settle(struct world *w)
{
	const struct scenario *sc = w->sc;
	struct savings_plan_terms plans[SCENARIO_COMMIT_MAX];
	struct savings_ri_terms ris[SCENARIO_COMMIT_MAX];
	const struct meter_payer pay = METER_PAYER_SERVING;
	double horizon_h = (double)sc->horizon_us / SIM_US_PER_H_D;
	int n = 0, nri = world_ri_terms(sc, ris, NULL), r = 0;

	_Static_assert(SCENARIO_TYPES_MAX <= SAVINGS_TYPES_MAX, "a plan has a discount for every type");
	for (int i = 0; i < sc->ncommit; i++) {
		const struct fleet_entry *e = &sc->commit[i];
		double t0_h, t1_h, per_h;  /* per_h: what the commitment costs per hour of its term */

		term_hours(sc, e, &t0_h, &t1_h);
		if (e->option == OPTION_RESERVED) {
			per_h = ris[r].count * ris[r].usd_per_h;  /* world_ri_terms keeps the RIs in list order */
			r++;
			if (e->upfront_usd > 0 && t0_h >= 0 && t0_h < horizon_h) {
				struct meter_payer p = pay;
				p.type = e->type;
				meter_bill(&w->meter, &p, OPTION_RESERVED, CHARGE_UPFRONT, t0_h * SIM_US_PER_H_D,
					   t0_h * SIM_US_PER_H_D, 0, e->count * e->upfront_usd, 0);
			}
		} else {
			plans[n].commit_usd_per_h = e->commit_usd_per_h;
			plans[n].discount = e->discount;
			plans[n].ntypes = sc->ntypes > 1 ? sc->ntypes : 0;  /* each type at its own rate */
			for (int t = 0; t < plans[n].ntypes; t++)
				plans[n].type_discount[t] = e->type_discount[t];
			n++;
			per_h = e->commit_usd_per_h;
		}
		if (t1_h > horizon_h)
			meter_after_horizon(&w->meter, e->option, per_h * (t1_h - (t0_h > horizon_h ? t0_h : horizon_h)));
	}
	meter_settle(&w->meter, ris, nri, plans, n);
}

/* Close the window at the horizon, then let the requests in the system finish. */
static void drain(struct world *w)
{
	engine_advance(&w->eng, w->sc->horizon_us);
	meter_close(&w->meter, w->sc->horizon_us);
	if (w->sc->jobs.n > 0)
		jobs_close(&w->jobs, w->sc->horizon_us);
	fleet_close(&w->fleet, w->sc->horizon_us);
	if (w->sc->copies.enabled)
		copies_close(&w->copies);
	engine_cancel(&w->eng, &w->arrival);
	multimodel_stop(&w->mm);
	engine_cancel(&w->eng, &w->sample);
	autoscale_stop(&w->as);
	if (w->sc->mode == MODE_FLUID)
		engine_cancel(&w->eng, &w->fluid.tick);
	settle(w);
	engine_run(&w->eng, SIM_TIME_MAX);
	serving_abandon(&w->serving);
	multimodel_abandon(&w->mm);
	if (w->sc->mode == MODE_FLUID)
		fluid_close(&w->fluid);
	meter_finish(&w->meter);
}

/*
 * The conservation identities of the finished run (meter_conserved, jobs_conserved), checked in builds
 * without NDEBUG: a broken one is a bug of the model, reported like fail_if_refused's (exit 1, the identity
 * in the message) rather than a silently wrong answer. Release builds skip it.
 */
static void check_conserved(struct world *w)
{
#ifndef NDEBUG
	char why[256];

	if (w->meter.status != STATUS_OK)
		return;
	if (meter_conserved(&w->meter, why, sizeof why) &&
	    (w->sc->jobs.n == 0 || jobs_conserved(&w->jobs, why, sizeof why)))
		return;
	w->meter.status = STATUS_EINTERNAL;
	diag_fail(w->d, STATUS_EINTERNAL, "simulation failed: a conservation identity does not hold: %s", why);
#else
	(void)w;
#endif
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

int world_threads_env(bool *one_thread, struct diag *d)
{
	const char *v = getenv("GPUCAP_THREADS");

	*one_thread = v && strcmp(v, "1") == 0;
	if (!v || !*v || *one_thread || strcmp(v, "2") == 0)
		return STATUS_OK;
	return diag_fail(d, STATUS_EUSAGE, "GPUCAP_THREADS must be 1 (one thread) or 2 (requests drawn ahead on a "
			 "second thread, the default), not '%s'", v);
}

int world_run(const struct scenario *sc, struct sink *sink, const char *version, struct world_report *rep,
	      struct diag *d)
{
	return world_run_opts(sc, sink, version, NULL, rep, d);
}

/* A copy of the eligible usage world_run_usage hands back (the measured hours with a warm-up), less what
 * the regional RIs covered: the usage the plans were settled against. */
static int copy_usage(const struct world *w, struct savings_hour **hours, int *nhours, struct diag *d)
{
	const struct meter *m = &w->meter;
	const struct savings_hour *src = m->warmup_us > 0 ? m->usage_meas_by_hour : m->usage_by_hour;
	int h0 = 0, n;
	struct savings_hour *copy;

	while (m->warmup_us > 0 && h0 < m->nhours && src[h0].len_h <= 0)
		h0++;  /* hours wholly inside the warm-up, as meter_settle skips them */
	n = m->nhours - h0;
	copy = malloc(sizeof *copy * (size_t)(n > 0 ? n : 1));
	if (!copy)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	memcpy(copy, src + h0, sizeof *copy * (size_t)n);
	{
		struct savings_ri_terms ris[SCENARIO_COMMIT_MAX];
		/* what the plans were settled against */
		savings_after_ris(copy, n, ris, world_ri_terms(w->sc, ris, NULL));
	}
	*hours = copy;
	*nhours = n;
	return STATUS_OK;
}

static int run_world(const struct scenario *sc, struct sink *sink, const char *version,
		     const struct world_options *opts, struct world_report *rep, struct savings_hour **hours,
		     int *nhours, struct diag *d)
{
	struct world *w = calloc(1, sizeof *w);
	struct sink_run_info info;
	struct timespec t0;
	char started[32];
	int rc;

	if (!w)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	units_format_time((int64_t)time(NULL), started, sizeof started);
	info.scenario = sc;
	info.started_at = started;
	info.version = version;
	w->progress = opts ? opts->progress : NULL;
	if (opts)
		w->one_thread = opts->one_thread;
	else
		(void)world_threads_env(&w->one_thread, NULL);  /* a bad value: the default (the CLI refuses it) */
	rc = setup(w, sc, sink, d);
	if (rc) {
		if (rc == STATUS_ENOMEM)
			diag_fail(d, rc, "cannot set up the simulation: %s", status_str(rc));
		goto out_teardown;
	}
	rc = sink->ops->begin(sink->self, &info);
	if (rc)
		goto out_teardown;
	run_to_horizon(w);
	fail_if_stalled(w);
	if (w->meter.status == STATUS_OK)
		drain(w);
	fail_if_stalled(w);
	fail_if_refused(w);
	check_conserved(w);
	rc = meter_flush(&w->meter);
	if (rc == STATUS_OK)
		rc = meter_emit_bill(&w->meter);
	if (rc == STATUS_OK)
		rc = meter_emit_hours(&w->meter);
	if (rc)
		goto out_end;
	rep->nmetrics = meter_report(&w->meter, w->eng.events_run, seconds_since(&t0), rep->metrics);
	if (sc->jobs.n > 0)
		rep->nmetrics = jobs_report(&w->jobs, rep->metrics, rep->nmetrics);
	rep->nmetrics = multimodel_report(&w->mm, rep->metrics, rep->nmetrics);
	rep->nwarnings = warn_collect(&w->warn, sc, rep->metrics, rep->nmetrics, rep->warnings, WARN_MAX);
	rc = sink->ops->warnings(sink->self, rep->warnings, (size_t)rep->nwarnings);
	if (rc)
		goto out_end;
	rc = sink->ops->metrics(sink->self, rep->metrics, (size_t)rep->nmetrics);
out_end:
	{
		int rc_end = sink->ops->end(sink->self, rc, seconds_since(&t0));
		if (rc == STATUS_OK)
			rc = rc_end;
	}
	if (rc == STATUS_OK && hours)
		rc = copy_usage(w, hours, nhours, d);
out_teardown:
	teardown(w);
	free(w);
	return rc;
}

int world_run_opts(const struct scenario *sc, struct sink *sink, const char *version,
		   const struct world_options *opts, struct world_report *rep, struct diag *d)
{
	return run_world(sc, sink, version, opts, rep, NULL, NULL, d);
}

int world_run_usage(const struct scenario *sc, struct sink *sink, const char *version, struct world_report *rep,
		    struct savings_hour **hours, int *nhours, struct diag *d)
{
	return run_world(sc, sink, version, NULL, rep, hours, nhours, d);
}

double world_report_get(const struct world_report *rep, const char *name)
{
	for (int i = 0; i < rep->nmetrics; i++)
		if (strcmp(rep->metrics[i].name, name) == 0)
			return rep->metrics[i].value;
	return NAN;
}
