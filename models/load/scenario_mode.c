/*
 * scenario_mode: the `mode` and `fluid` keys (models/README.md, "Fluid mode").
 *
 *     mode: requests | fluid       (default requests)
 *     fluid: {period_s: 60s}       (only with mode: fluid)
 *
 * Read last, once everything else is known, because fluid mode models a subset of the scenario format and
 * refuses the rest by key, at the key's line and column: "mode: fluid does not support X; use mode:
 * requests". What it refuses, and why (fluid.h says what it does model):
 *   - arrivals kinds mmpp, trace, rate_series and cloudwatch: fluid mode needs the expected arrivals of each period as a
 *     closed-form integral of a rate function (poisson, uniform, diurnal, flash_crowd have one; an MMPP's
 *     rate is random, a trace or a rate series is data);
 *   - the arrivals transforms speedup, loop and offset (they re-time a source; scale_rate and
 *     growth_per_day only scale the rate and are supported);
 *   - service kinds tokens and trace (no closed-form service-time distribution), hence TTFT SLOs too;
 *   - workload.service.slowdown (the queueing formulas take a load-independent service time);
 *   - serving.copies, jobs, autoscaling.scale_from_zero (request-level mechanisms fluid does not model);
 *   - per-instance queues (serving.queue per_instance) with a routing other than random: random routing
 *     makes each instance an independent queue (fluid.c), a central queue pools them (where the routing
 *     does not change the waits); the others have no closed form;
 *   - serving.max_queue: 0, a loss system (the stationary formulas let requests wait; a positive max_queue the
 *     stationary queue reaches is refused at run time, fluid.c, as only then is it known).
 * fluid.period_s must divide autoscaling.resolution_s and sample_period, so that every policy evaluation and
 * every sample sees whole, fresh periods (a longer period would hand the policy the same value twice), and
 * with slo.window the window and the start's offset in it (windows fall on clock times; on a `timezone`'s
 * clock the period must also divide its offsets and change times), so that every
 * window holds whole periods (a period's requests all count in the window of its end: one straddling two
 * would move requests between their verdicts). Without the key the period is the largest that divides 60 s
 * and all of them (60 s unless one is not a multiple of a minute: 10 s for a 10-second resolution).
 */
#include <stdio.h>

#include "scenario_load.h"
#include "status.h"

#define DEFAULT_FLUID_PERIOD_US (60 * S_US)
#define MAX_FLUID_PERIOD_US (3600 * S_US)

static const char *const mode_names[] = { "requests", "fluid" };
static const char *const fluid_keys[] = { "period_s", NULL };

/* Refuse the feature at r (present) by name. */
static int unsupported(struct load *l, const struct yamldoc_ref *r, const char *what)
{
	return yamldoc_fail(&l->y, r, "mode: fluid does not support %s; use mode: requests", what);
}

/* The first feature of l->sc that fluid mode does not model, refused at its key; STATUS_OK if none. */
static int refuse_unsupported(struct load *l)
{
	static const char *const transforms[] = { "speedup", "loop", "offset" };
	struct yamldoc_ref wl, arr, svc, serving, as, r;
	const struct scenario *sc = &l->sc;
	char what[96];

	yamldoc_child(&l->root, "jobs", &r);
	if (r.node)
		return unsupported(l, &r, "jobs");
	yamldoc_child(&l->root, "workload", &wl);
	yamldoc_child(&wl, "arrivals", &arr);
	yamldoc_child(&arr, "kind", &r);
	if (sc->arrivals.kind == ARRIVAL_MMPP || sc->arrivals.kind == ARRIVAL_TRACE ||
	    sc->arrivals.kind == ARRIVAL_RATE_SERIES || sc->arrivals.kind == ARRIVAL_CLOUDWATCH) {
		snprintf(what, sizeof what, "arrivals kind %s",
			 sc->arrivals.kind == ARRIVAL_MMPP ? "mmpp" :
			 sc->arrivals.kind == ARRIVAL_TRACE ? "trace" :
			 sc->arrivals.kind == ARRIVAL_RATE_SERIES ? "rate_series" : "cloudwatch");
		return unsupported(l, &r, what);
	}
	for (size_t i = 0; i < sizeof transforms / sizeof transforms[0]; i++) {
		yamldoc_child(&arr, transforms[i], &r);
		if (r.node) {
			snprintf(what, sizeof what, "the arrivals transform %s", transforms[i]);
			return unsupported(l, &r, what);
		}
	}
	yamldoc_child(&wl, "service", &svc);
	yamldoc_child(&svc, "kind", &r);
	if (sc->service.kind == SERVICE_TOKENS || sc->service.kind == SERVICE_TRACE)
		return unsupported(l, &r, sc->service.kind == SERVICE_TOKENS ? "service kind tokens"
				   : "service kind trace");
	yamldoc_child(&svc, "slowdown", &r);
	if (r.node)
		return unsupported(l, &r, "workload.service.slowdown (its formulas take a service time that does "
				   "not depend on the load)");
	yamldoc_child(&l->root, "serving", &serving);
	yamldoc_child(&serving, "copies", &r);
	if (r.node)
		return unsupported(l, &r, "serving.copies");
	yamldoc_child(&serving, "routing", &r);
	if (!r.node)
		yamldoc_child(&serving, "queue", &r);
	if (sc->serving.queue == QUEUE_PER_INSTANCE && sc->serving.routing != ROUTING_RANDOM && r.node)
		return unsupported(l, &r, "per-instance queues with a routing other than random (it models random "
				   "routing, each instance an independent queue, or a central queue: expected "
				   "routing: random or queue: central)");
	yamldoc_child(&serving, "max_queue", &r);
	if (r.node && sc->serving.max_queue == 0)
		return unsupported(l, &r, "serving.max_queue: 0 (a loss system: its queueing formulas let requests "
				   "wait)");
	yamldoc_child(&l->root, "autoscaling", &as);
	yamldoc_child(&as, "scale_from_zero", &r);
	if (r.node && sc->autoscaling.scale_from_zero)
		return unsupported(l, &r, "autoscaling.scale_from_zero");
	return STATUS_OK;
}

static int64_t gcd_us(int64_t a, int64_t b)
{
	while (b != 0) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* The default period: the largest dividing 60 s, the policy's resolution, the sample period, and the SLO
 * window and the start's offset in it. */
static int64_t default_period_us(const struct scenario *sc)
{
	int64_t p = gcd_us(DEFAULT_FLUID_PERIOD_US, sc->sample_period_us);

	if (sc->autoscaling.policy != POLICY_NONE)
		p = gcd_us(p, sc->autoscaling.resolution_us);
	if (sc->slo.window_us > 0)
		p = gcd_us(gcd_us(p, sc->slo.window_us), scenario_window_phase_us(sc));
	return p;
}

/* fluid.period_s must divide the policy's resolution and the sample period (see the top of the file). */
static int check_period(struct load *l, const struct yamldoc_ref *r)
{
	const struct scenario *sc = &l->sc;
	int64_t p = sc->fluid_period_us;

	if (sc->autoscaling.policy != POLICY_NONE && sc->autoscaling.resolution_us % p != 0)
		return yamldoc_fail(&l->y, r, "fluid.period_s (%g s) does not divide autoscaling.resolution_s "
					  "(%g s); expected a period that does, so that every evaluation sees whole "
					  "periods", (double)p / 1e6, (double)sc->autoscaling.resolution_us / 1e6);
	if (sc->sample_period_us % p != 0)
		return yamldoc_fail(&l->y, r, "fluid.period_s (%g s) does not divide sample_period (%g s); "
					  "expected a period that does, so that every sample sees whole periods",
					  (double)p / 1e6, (double)sc->sample_period_us / 1e6);
	if (sc->slo.window_us > 0 && (sc->slo.window_us % p != 0 || scenario_window_phase_us(sc) % p != 0))
		return yamldoc_fail(&l->y, r, "fluid.period_s (%g s) does not divide slo.window (%g s) and the "
					  "start's offset in it (%g s); expected a period that does, so that every "
					  "window holds whole periods", (double)p / 1e6,
					  (double)sc->slo.window_us / 1e6, (double)scenario_window_phase_us(sc) / 1e6);
	/* on a zone's clock the windows' UTC starts move by its offsets and one may start at a change: the
	 * period must divide each offset and the time from the start to each change (whole minutes: the
	 * default period, dividing 60 s and the start's offset in a window, does) */
	for (int i = -1; sc->slo.window_us > 0 && i < sc->tz.nchanges; i++) {
		int64_t off_us = (int64_t)tzone_segment_offset(&sc->tz, i) * 1000000;
		if (off_us % p != 0 || (i >= 0 && (sc->tz.at_s[i] * 1000000 - sc->start_unix_us) % p != 0))
			return yamldoc_fail(&l->y, r, "fluid.period_s (%g s) does not divide the UTC offsets of "
						  "timezone %s and the times of its changes, so SLO windows on its "
						  "clock would split periods; expected a period dividing 60 s",
						  (double)p / 1e6, sc->tz.name);
	}
	return STATUS_OK;
}

int scenario_load_mode(struct load *l)
{
	struct yamldoc_ref mode, fluid, r;
	int m = MODE_REQUESTS, rc;

	yamldoc_child(&l->root, "mode", &mode);
	if ((rc = yamldoc_choice(&l->y, &mode, mode_names, 2, &m)))
		return rc;
	l->sc.mode = (enum run_mode)m;
	l->sc.fluid_period_us = DEFAULT_FLUID_PERIOD_US;
	yamldoc_child(&l->root, "fluid", &fluid);
	if (fluid.node && m != MODE_FLUID)
		return yamldoc_fail(&l->y, &fluid, "fluid settings without mode: fluid; expected mode: fluid "
					  "beside them, or no fluid key");
	if ((rc = yamldoc_mapping(&l->y, &fluid, fluid_keys, NULL, NULL)))
		return rc;
	yamldoc_child(&fluid, "period_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, true, MAX_FLUID_PERIOD_US, &l->sc.fluid_period_us)))
		return rc;
	if (m != MODE_FLUID)
		return STATUS_OK;
	if (!r.node)
		l->sc.fluid_period_us = default_period_us(&l->sc);
	if ((rc = check_period(l, r.node ? &r : &mode)))
		return rc;
	return refuse_unsupported(l);
}

const struct scenario_load_names scenario_load_mode_names = SCENARIO_LOAD_NAMES(mode_names);
const struct scenario_load_names scenario_load_fluid_keys = SCENARIO_LOAD_KEYS(fluid_keys);
