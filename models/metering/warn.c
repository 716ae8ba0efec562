/* warn: see warn.h. Each rule is one function that fills one warning and says whether it holds. */
#include "warn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "engine.h"
#include "units.h"

#define SIM_US_PER_S_INT 1000000
#define MINUTE_US ((int64_t)60 * SIM_US_PER_S_INT)

void warn_init(struct warn *w, int64_t measured_from_us, int64_t hour_phase_us)
{
	memset(w, 0, sizeof *w);
	w->measured_from_us = measured_from_us;
	w->hour_phase_us = hour_phase_us;
	w->hour = -1;
	w->last_in_us = INT64_MIN;
}

void warn_sample(struct warn *w, int64_t now_us, int capacity, int max, int64_t queue_len)
{
	if (now_us <= w->measured_from_us)
		return; /* the sample covers the period before now: in the warm-up */
	w->samples++;
	if (capacity >= max && queue_len > 0)
		w->samples_at_max++;
}

void warn_scaling(struct warn *w, int64_t now_us, int direction, int from, int to)
{
	int64_t hour = (now_us + w->hour_phase_us) / SIM_US_PER_H;

	if (w->last_direction != 0 && direction != w->last_direction) {
		if (hour != w->hour) {
			w->hour = hour;
			w->reversals = 0;
		}
		if (++w->reversals > w->reversals_max) {
			w->reversals_max = w->reversals;
			w->reversals_max_hour = hour;
		}
	}
	w->last_direction = direction;
	if (direction < 0) {
		w->last_in_us = now_us;
		w->last_in_from = from;
		w->last_in_to = to;
	} else if (w->last_in_us != INT64_MIN && now_us - w->last_in_us <= WARN_REBOUND_US &&
		   w->last_in_from - w->last_in_to >= 2 && 2 * w->last_in_to <= w->last_in_from &&
		   2 * (to - w->last_in_to) >= w->last_in_from - w->last_in_to) {
		if (w->rebounds++ == 0) {
			w->rebound_first_us = w->last_in_us;
			w->rebound_from = w->last_in_from;
			w->rebound_to = w->last_in_to;
			w->rebound_back = to;
		}
		w->last_in_us = INT64_MIN; /* one rebound per scale-in */
	}
}

/* The value of metric `name` in list, NaN when absent. */
static double metric(const struct sink_metric *list, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(list[i].name, name) == 0)
			return list[i].value;
	return NAN;
}

/*
 * slo_unreachable: no capacity can meet a stated SLO. Either the floor (slo_violation_rate_floor: the share
 * of measured requests whose service time alone exceeds slo.latency_s) is above slo.max_violation_rate, or
 * a latency percentile SLO's threshold is exceeded by the service time alone of more than its (1 - p) share
 * of requests (slo_percentile_floor_ratio > 1). Both are facts of the service-time distribution, measured
 * over the run: adding instances only removes waiting and drops.
 */
bool warn_slo_unreachable(const struct scenario *sc, const struct sink_metric *metrics, int n,
			  struct sink_warning *out)
{
	double floor = metric(metrics, n, "slo_violation_rate_floor");
	double ratio = metric(metrics, n, "slo_percentile_floor_ratio");
	double allowed = sc->slo.max_violation_rate;

	if (allowed >= 0 && floor > allowed) {
		snprintf(out->message, sizeof out->message, "%.3g%% of requests take longer than slo.latency_s "
			 "(%.6g s) on service time alone, more than the %.3g%% slo.max_violation_rate allows: no "
			 "capacity can meet this SLO", 100 * floor, (double)sc->slo.latency_us / 1e6, 100 * allowed);
		return true;
	}
	if (ratio > 1) {
		snprintf(out->message, sizeof out->message, "service time alone exceeds a latency percentile "
			 "SLO's threshold for %.3g times the share of requests it allows (slo_percentile_floor_ratio): "
			 "no capacity can meet it", ratio);
		return true;
	}
	return false;
}

static bool at_max(const struct warn *w, const struct scenario *sc, struct sink_warning *out)
{
	double share;

	if (sc->autoscaling.policy == POLICY_NONE || w->samples == 0)
		return false; /* a fixed fleet has no maximum to hit */
	share = (double)w->samples_at_max / (double)w->samples;
	if (share <= WARN_AT_MAX_FRACTION)
		return false;
	snprintf(out->message, sizeof out->message, "the fleet sat at its maximum (autoscaling.max %d, or the "
		 "fleet entries' max) with requests waiting in %.1f%% of the measured samples (%ld of %ld; over "
		 "%.0f%%): raise the maximum or expect these waits", sc->autoscaling.max, 100 * share,
		 w->samples_at_max, w->samples, 100 * WARN_AT_MAX_FRACTION);
	return true;
}

static bool flaps(const struct warn *w, const struct scenario *sc, struct sink_warning *out)
{
	char at[32];

	if (w->reversals_max <= WARN_FLAPS_PER_HOUR)
		return false;
	units_format_time(units_floor_s(sc->start_unix_us - w->hour_phase_us) + w->reversals_max_hour * 3600,
			  at, sizeof at);
	snprintf(out->message, sizeof out->message, "scaling flapped: %d reversals between scale-out and "
		 "scale-in in the clock hour from %s (over %d in an hour); longer cooldowns or a wider "
		 "scale-in margin would steady it", w->reversals_max, at, WARN_FLAPS_PER_HOUR);
	return true;
}

/* How much slower a request is with every slot of an instance busy than alone (1: load-independent). */
static double full_slowdown(const struct scenario *sc)
{
	int n;

	if (sc->service.kind == SERVICE_TOKENS) {
		n = sc->service.ndecode;
		return n > 1 ? sc->service.decode[0].tokens_per_s / sc->service.decode[n - 1].tokens_per_s
			     : 1;
	}
	n = sc->service.nslowdown;
	return n > 0 ? sc->service.slowdown[n - 1].factor / sc->service.slowdown[0].factor : 1;
}

static bool rebounds(const struct warn *w, const struct scenario *sc, struct sink_warning *out)
{
	char at[32], why[200] = "";
	double slow = full_slowdown(sc);

	if (w->rebounds < WARN_REBOUNDS)
		return false;
	units_format_time(sc->start_unix_us / 1000000 + w->rebound_first_us / 1000000, at, sizeof at);
	if (slow > 1.05 && sc->serving.routing != ROUTING_FIRST_FREE)
		snprintf(why, sizeof why, "; target tracking sizes a scale-in as if the metric rose in proportion, "
			 "but this service is up to %.2gx slower on a full instance and the routing spreads requests",
			 slow);
	snprintf(out->message, sizeof out->message, "scale-in rebounded: %d scale-outs within %d min of a "
		 "scale-in that halved the fleet, restoring half of it or more (first at %s: %d -> %d instances, "
		 "back to %d): the scale-in removed more than the load allowed, or the traffic rose at once%s; "
		 "a lower target or a wider scale_in_margin steadies it", w->rebounds,
		 (int)(WARN_REBOUND_US / MINUTE_US), at, w->rebound_from, w->rebound_to, w->rebound_back, why);
	return true;
}

/* The highest value the metric reaches while no request waits (NaN: no such bound, or unknown). */
static double reach_without_waiting(const struct scenario *sc, enum metric_kind m)
{
	switch (m) {
	case METRIC_CONCURRENCY: return 1.0; /* every slot busy */
	case METRIC_INVOCATIONS:
		/* every slot busy: slots x 60 / mean service time arrivals a minute per instance (copy) */
		if (sc->service.kind == SERVICE_CONSTANT || sc->service.kind == SERVICE_EXPONENTIAL ||
		    sc->service.kind == SERVICE_LOGNORMAL)
			return sc->serving.slots * 60.0 / sc->service.mean_s;
		return NAN;
	case METRIC_BACKLOG: return NAN; /* counts waiting requests: waiting is what it scales on */
	case METRIC_GPU_UTIL: /* any request busies its GPUs: no bound below saturation (gpumetric.h) */
	case METRIC_GPU_MEM:  /* held memory, not load */
	case METRIC_KINDS: return NAN;
	}
	return NAN;
}

static bool target_unreachable(const struct scenario *sc, struct sink_warning *out)
{
	const struct {
		enum metric_kind metric;
		double target;
	} *t, list[3] = {
		{ sc->autoscaling.metric, sc->autoscaling.target },
		{ sc->autoscaling.also[0].metric, sc->autoscaling.also[0].target },
		{ sc->autoscaling.also[1].metric, sc->autoscaling.also[1].target },
	};
	int n = 1 + sc->autoscaling.nalso;

	if (sc->autoscaling.policy != POLICY_TARGET_TRACKING && sc->autoscaling.policy != POLICY_HPA)
		return false;
	if (sc->autoscaling.policy != POLICY_TARGET_TRACKING)
		n = 1;
	for (t = list; t < list + n; t++) {
		double reach = reach_without_waiting(sc, t->metric);
		if (isnan(reach) || t->target < reach)
			continue;
		snprintf(out->message, sizeof out->message, "target %g on %s is at or above %g, the most it reaches "
			 "before requests wait: the fleet scales out only after requests have queued",
			 t->target, scenario_metric_name(t->metric), reach);
		return true;
	}
	return false;
}

/* A catalogue Capacity Block rate used while the scenario starts on or after its validity's end. */
static bool price_stale(const struct scenario *sc, struct sink_warning *out)
{
	const struct catalog_entry *c = catalog_find(sc->serving.instance_type);
	char when[32];
	int64_t until_us;

	if (!c || !c->cb_valid_until)
		return false;
	snprintf(when, sizeof when, "%sT00:00:00Z", c->cb_valid_until);
	if (units_parse_time_us(when, &until_us) != 0 || sc->start_unix_us < until_us)
		return false;
	for (int i = 0; i < sc->nfleet; i++) {
		const struct fleet_entry *f = &sc->fleet[i];
		/* the catalogue's rate, not one the scenario gave (price keys, or `catalog:` with another rate) */
		if ((f->option != OPTION_CAPACITY_BLOCK && f->option != OPTION_TRAINING_PLAN) || f->price_given ||
		    f->usd_per_h != c->cb_usd_per_h)
			continue;
		snprintf(out->message, sizeof out->message, "fleet.%d: the catalogue's Capacity Block rate for %s "
			 "($%.2f per instance-hour) was valid until %s, before the scenario start: give the rate "
			 "in force (usd_per_h or upfront_usd)", i, c->name, c->cb_usd_per_h, c->cb_valid_until);
		return true;
	}
	return false;
}

/* A trace replayed once whose last arrival, on the run's clock, comes after the horizon. */
/* A trace source without loop: its last request's time on the run's clock, seconds, in *last_s. */
static bool trace_last(const struct scenario *sc, double *last_s)
{
	const struct trace_summary *s = &sc->arrivals.summary;
	int64_t origin = tracefile_relative(sc->arrivals.mapping.time_format) ? 0 : s->first_us;

	if (sc->arrivals.kind != ARRIVAL_TRACE || sc->arrivals.loop || s->rows == 0)
		return false;
	*last_s = (double)(s->last_us - origin - sc->arrivals.offset_us) / SIM_US_PER_S_INT / sc->arrivals.speedup;
	return true;
}

static bool trace_past(const struct warn *w, const struct scenario *sc, struct sink_warning *out)
{
	const struct trace_summary *s = &sc->arrivals.summary;
	double last_s;

	if (!trace_last(sc, &last_s) || last_s <= (double)sc->horizon_us / SIM_US_PER_S_INT)
		return false;
	if (sc->arrivals.offset_us == 0 && sc->arrivals.scale_rate == 1 && sc->arrivals.growth_per_day == 0)
		snprintf(out->message, sizeof out->message, "the trace runs %.4g h past the horizon (last arrival "
			 "at %.4g h, horizon %.4g h): its last %lld of %lld requests were not replayed",
			 last_s / 3600 - (double)sc->horizon_us / SIM_US_PER_H, last_s / 3600,
			 (double)sc->horizon_us / SIM_US_PER_H, (long long)(s->rows - w->arrivals), (long long)s->rows);
	else
		snprintf(out->message, sizeof out->message, "the trace runs %.4g h past the horizon (last arrival "
			 "at %.4g h, horizon %.4g h): its requests after the horizon were not replayed",
			 last_s / 3600 - (double)sc->horizon_us / SIM_US_PER_H, last_s / 3600,
			 (double)sc->horizon_us / SIM_US_PER_H);
	return true;
}

/* The trace (without loop) ends well before the horizon: the run's tail has no traffic at all, yet its
 * hours are paid for and stretched into the per-month and per-year figures. */
static bool trace_short(const struct scenario *sc, struct sink_warning *out)
{
	double last_s, horizon_s = (double)sc->horizon_us / SIM_US_PER_S_INT;

	if (!trace_last(sc, &last_s) || last_s >= WARN_TRACE_SHORT_SHARE * horizon_s)
		return false;
	snprintf(out->message, sizeof out->message, "the trace ends %.4g h into a %.4g h horizon (its last "
		 "arrival), %.3g times shorter: the last %.4g h have no traffic, but their capacity is paid and "
		 "counted in the per-month and per-year figures; shorten the horizon or set loop: true",
		 last_s / 3600, horizon_s / 3600, last_s > 0 ? horizon_s / last_s : INFINITY,
		 (horizon_s - last_s) / 3600);
	return true;
}

/* The mean of (1 + g)^t over [a, b] days (b > a). */
static double growth_mean(double g, double a, double b)
{
	double l = log1p(g);

	return fabs(l) < 1e-15 ? 1 : (exp(l * b) - exp(l * a)) / ((b - a) * l);
}

/*
 * extrapolated_with_growth: cost_per_year_usd (and per month) take the measured window's cost per hour to
 * hold for a year, but the scenario's traffic grows (workload.arrivals.growth_per_day: rate x (1 + g)^days
 * from the start). The message gives how much more (or less) traffic the 365 days from the measured window's
 * start carry on average than the window did, (1 + g)^t averaged over each. It is a ratio of traffic, not a
 * cost: what follows usage scales about with it, commitments do not, and capacity limits may bind first. Not
 * given when the measured window is a year or longer (nothing is stretched).
 */
static bool extrapolated(const struct scenario *sc, struct sink_warning *out)
{
	double g = sc->arrivals.growth_per_day, a, b, ratio;

	if (g == 0 || sc->no_traffic || sc->nmodels > 0)
		return false;
	a = (double)sc->warmup_us / (SIM_US_PER_H * 24.0);
	b = (double)sc->horizon_us / (SIM_US_PER_H * 24.0);
	if (b - a >= 365)  /* the window is a year or more: the per-year cost stretches nothing */
		return false;
	ratio = growth_mean(g, a, a + 365) / growth_mean(g, a, b);
	snprintf(out->message, sizeof out->message, "the per-year cost stretches the %.3g-day window, but "
		 "growth_per_day %.4g makes the next 365 days' traffic %.2fx the window's (%+.0f%%); usage costs "
		 "follow it, commitments do not; simulate the year (mode: fluid) or use recommend", b - a, g, ratio,
		 100 * (ratio - 1));
	return true;
}

/* jobs_stopped_max_wait: managed Spot training jobs stopped at their max_wait (models/jobs/jobs.h). */
static bool max_wait_stops(const struct sink_metric *metrics, int n, struct sink_warning *out)
{
	double stopped = metric(metrics, n, "jobs_stopped_max_wait");

	if (!(stopped > 0))
		return false;
	snprintf(out->message, sizeof out->message, "%.0f managed Spot training job%s reached max_wait "
		 "(MaxWaitTimeInSeconds: waiting for Spot plus running) and %s stopped, counted in jobs_terminated "
		 "and jobs_missed_deadline; a longer max_wait, checkpoints or more Spot capacity would let %s finish",
		 stopped, stopped == 1 ? "" : "s", stopped == 1 ? "was" : "were", stopped == 1 ? "it" : "them");
	return true;
}

/* The time the policy's slowest alarm needs before it can act at all (0: not known for the policy). */
static int64_t alarm_need_us(const struct scenario *sc, const char **which)
{
	int64_t res = sc->autoscaling.resolution_us, in_period = res < MINUTE_US ? MINUTE_US : res;
	int64_t out_us, in_us;

	switch (sc->autoscaling.policy) {
	case POLICY_TARGET_TRACKING:
		/* scale-in sees one-minute datapoints at least (policy_target.c) */
		out_us = sc->autoscaling.scale_out_datapoints * res;
		in_us = sc->autoscaling.scale_in_datapoints * in_period;
		*which = in_us >= out_us ? "target tracking's scale-in alarm (scale_in_datapoints x max(resolution_s, "
			 "60 s))" : "target tracking's scale-out alarm (scale_out_datapoints x resolution_s)";
		return in_us >= out_us ? in_us : out_us;
	case POLICY_STEP:
		out_us = sc->autoscaling.scale_out.enabled ? sc->autoscaling.scale_out.datapoints_to_alarm * res : 0;
		in_us = sc->autoscaling.scale_in.enabled ? sc->autoscaling.scale_in.datapoints_to_alarm * res : 0;
		*which = in_us >= out_us ? "the step scale-in alarm (datapoints_to_alarm x resolution_s)"
			 : "the step scale-out alarm (datapoints_to_alarm x resolution_s)";
		return in_us >= out_us ? in_us : out_us;
	case POLICY_HPA:
		*which = "the HPA's scale-down stabilization window plus one period";
		return sc->autoscaling.stabilization_window_us + res;
	default: return 0;
	}
}

static bool horizon_short(const struct scenario *sc, struct sink_warning *out)
{
	const char *which = "";
	int64_t need = alarm_need_us(sc, &which);

	if (need == 0 || sc->horizon_us >= need)
		return false;
	snprintf(out->message, sizeof out->message, "the horizon (%.4g s) is shorter than %s needs to act "
		 "(%.4g s): the run cannot show that policy's behaviour", (double)sc->horizon_us / SIM_US_PER_S_INT,
		 which, (double)need / SIM_US_PER_S_INT);
	return true;
}

bool warn_memory_budget(const struct warn_memory *m, const struct scenario *sc, struct sink_warning *out)
{
	const double gib = 1073741824.0;
	double total = m->queue_bytes + m->pool_bytes + m->hours_bytes;

	if (!(total > (double)WARN_MEMORY_BUDGET_BYTES))
		return false;
	snprintf(out->code, sizeof out->code, "memory_budget");
	snprintf(out->message, sizeof out->message, "the run could use %.2f GiB of memory, more than the %.0f GiB "
		 "budget: queue %.2f GiB (serving.max_queue %d), fleet pool %.2f GiB, per-hour arrays %.2f GiB; "
		 "a smaller max_queue or fleet max lowers it", total / gib, (double)WARN_MEMORY_BUDGET_BYTES / gib,
		 m->queue_bytes / gib, sc->serving.max_queue, m->pool_bytes / gib, m->hours_bytes / gib);
	return true;
}

/* The loader's warnings (a job submitted past the horizon, an entry no one uses, a Spot entry nothing
 * interrupts, ...), one `scenario` warning per line of sc->warnings, after the run's own. */
static int scenario_lines(const struct scenario *sc, struct sink_warning *out, int k, int max)
{
	const char *p = sc->warnings ? sc->warnings : "";

	while (*p && k < max) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		memset(&out[k], 0, sizeof out[k]);
		snprintf(out[k].code, sizeof out[k].code, "scenario");
		snprintf(out[k].message, sizeof out[k].message, "%.*s", (int)(n < sizeof out[k].message ? n :
			 sizeof out[k].message - 1), p);
		k++;
		p += n + (nl ? 1 : 0);
	}
	return k;
}

int warn_collect(const struct warn *w, const struct scenario *sc, const struct sink_metric *metrics, int n,
		 struct sink_warning *out, int max)
{
	struct sink_warning x;
	int k = 0;

#define ADD(code_, holds_) \
	do { \
		memset(&x, 0, sizeof x); \
		if ((holds_) && k < max) { \
			snprintf(x.code, sizeof x.code, "%s", code_); \
			out[k++] = x; \
		} \
	} while (0)
	ADD("slo_unreachable", warn_slo_unreachable(sc, metrics, n, &x));
	ADD("fleet_at_max", at_max(w, sc, &x));
	ADD("scaling_flaps", flaps(w, sc, &x));
	ADD("scale_in_rebound", rebounds(w, sc, &x));
	ADD("target_unreachable", target_unreachable(sc, &x));
	ADD("price_stale", price_stale(sc, &x));
	ADD("trace_past_horizon", trace_past(w, sc, &x));
	ADD("trace_shorter_than_horizon", trace_short(sc, &x));
	ADD("horizon_too_short", horizon_short(sc, &x));
	ADD("memory_budget", warn_memory_budget(&w->mem, sc, &x));
	ADD("extrapolated_with_growth", extrapolated(sc, &x));
	ADD("jobs_stopped_max_wait", max_wait_stops(metrics, n, &x));
#undef ADD
	return scenario_lines(sc, out, k, max);
}
