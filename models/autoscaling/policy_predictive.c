/*
 * policy_predictive: capacity planned from a forecast of the traffic's own past, launched ahead of need by
 * the startup delay (a thing SageMaker's own autoscaling does not offer), with a reactive floor.
 *
 * Every period (resolution_s) the run hands over the period just ended: its arrival rate, the busy
 * slot-seconds per arrival (the mean service time as served) and the slots per instance (policy.h).
 *
 *  - History. Period k is (k-1, k] x resolution; its rate is recorded under k. same_time_yesterday and
 *    same_time_last_week keep a ring of one day + 1 or one week + 1 periods (1441 or 10081 doubles at 60
 *    s), allocated at creation; holt_winters keeps only its daily season (one day of periods). Nothing is
 *    allocated per decision. A period never observed reads as missing (NaN).
 *  - Forecast of the rate R for the period containing now + lead (lead_s, default startup_s + resolution_s:
 *    an instance launched now serves from now + startup, through that period):
 *      same_time_yesterday: the rate observed in the period at now + lead - 1 day;
 *      same_time_last_week: the same, - 7 days;
 *      holt_winters: additive Holt-Winters (level, trend, daily season of day / resolution periods),
 *        R = level + h x trend + season[k mod m], h = periods ahead. Additive, not multiplicative, because
 *        the diurnal rate swings around a mean and may touch zero; a negative forecast counts as 0. It is
 *        initialised by the first full day: level = that day's mean, trend 0, season = the day minus its
 *        mean; it forecasts nothing before (no arbitrary guess stands in for a missing season).
 *  - Service time S: the running mean of busy_per_arrival_s weighted by arrivals (total busy slot-seconds /
 *    total arrivals since the start). It includes work carried over between periods, which cancels over
 *    time; requests dropped unserved add no busy time, so under overload S reads low (the reactive floor
 *    below covers that case).
 *  - Predictive capacity P = ceil(R x S / (slots x target)).
 *  - Reactive floor F = ceil(busy slots now / (slots x target)), busy slots now = arrivals_per_s x
 *    busy_per_arrival_s (the mean busy slots over the period). It equals target tracking's
 *    ceil(capacity x metric / target) when every instance is in service; when some are still launching, it
 *    counts only the ones measured, so that, without cooldowns, repeated evaluations during a 20-minute
 *    startup do not compound (capacity x metric / target applied every period to a capacity that already
 *    includes the instances launched for the same load would multiply it by metric / target each period).
 *    It is applied always, not only until the history covers a season: a forecast can be wrong.
 *  - Decision: desired = max(P, F), clamped to [min, max]. Without a forecast (history too short) the policy
 *    only scales out, to F, when the metric is above the target. It never scales in while the metric is
 *    above the target, and scales in only to max(P, F, the largest P of any period from now to now + lead):
 *    never below what the current load needs, nor what it will need again before a replacement could
 *    start (need_until_lead).
 *  - Missing metric (nothing in service): no action (policy.h), the history is still recorded.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "convert.h"
#include "engine.h"
#include "policy.h"

#define DAY_S 86400

struct predictive {
	struct policy base;         /* must be first */
	enum forecast_kind kind;    /* how the rate is forecast */
	double target;              /* busy slots / slots to hold, (0, 1] */
	int64_t period_us;          /* resolution: one history entry per period */
	int64_t lead_us;            /* provision for the period containing now + lead */
	int64_t day;                /* periods per day (the season); resolution divides a day */
	int64_t back;               /* periods looked back: one day or one week */
	double *rate;               /* ring of rates, 1/s, period k at k mod nring; NaN = not observed */
	int64_t nring;              /* back + 1 (holt_winters: 0, no ring) */
	int64_t last;               /* the latest period observed; 0 = none */
	double busy_s, arrivals;    /* totals since the start: busy slot-seconds, arrivals */
	double alpha, beta, gamma;  /* holt_winters smoothing: level, trend, season */
	double *season;             /* holt_winters: day periods, at k mod day */
	double level, trend;        /* holt_winters state, 1/s and 1/s per period */
	int64_t seen;               /* holt_winters: periods observed, for the first season */
	double first_sum;           /* holt_winters: sum of the first season's rates */
};

static int ceil_tol(double x)
{
	/* ceil of a quotient that should be an integer must not become n+1 through rounding error; beyond int's
	 * range it saturates, and the clamp to max then gives max (convert.h) */
	return convert_count_saturate(ceil(x - 1e-9 * (x > 1 ? x : 1)));
}

/* The period containing run time t_us: (k-1, k] x period. */
static int64_t period_of(const struct predictive *p, int64_t t_us)
{
	return t_us <= 0 ? 0 : (t_us + p->period_us - 1) / p->period_us;
}

static void holt_winters_observe(struct predictive *p, int64_t k, double y)
{
	double *s = &p->season[k % p->day], level;

	if (p->seen < p->day) {
		*s = y;
		p->first_sum += y;
		if (++p->seen < p->day)
			return;
		p->level = p->first_sum / (double)p->day;
		p->trend = 0;
		for (int64_t i = 0; i < p->day; i++)
			p->season[i] -= p->level;
		return;
	}
	p->seen++;
	level = p->alpha * (y - *s) + (1 - p->alpha) * (p->level + p->trend);
	p->trend = p->beta * (level - p->level) + (1 - p->beta) * p->trend;
	p->level = level;
	*s = p->gamma * (y - level) + (1 - p->gamma) * *s;
}

/* Record the period just ended: its rate and its busy time. */
static void observe(struct predictive *p, const struct policy_input *in)
{
	int64_t k = period_of(p, in->now_us);
	double arrivals = in->arrivals_per_s * (double)p->period_us / SIM_US_PER_S;

	if (k <= p->last)
		return; /* one observation per period; a repeated evaluation adds nothing */
	if (p->rate) {
		/* periods skipped since the last observation were not seen */
		for (int64_t j = p->last + 1; j < k && j > k - p->nring; j++)
			p->rate[j % p->nring] = NAN;
		p->rate[k % p->nring] = in->arrivals_per_s;
	} else {
		holt_winters_observe(p, k, in->arrivals_per_s);
	}
	p->last = k;
	if (!isnan(in->busy_per_arrival_s) && arrivals > 0) {
		p->busy_s += in->busy_per_arrival_s * arrivals;
		p->arrivals += arrivals;
	}
}

double policy_predictive_forecast(const struct policy *base, int64_t at_us)
{
	const struct predictive *p = (const struct predictive *)base;
	int64_t k = period_of(p, at_us), j = k - p->back;
	double r;

	if (!p->rate) {
		if (p->seen < p->day || k <= p->last)
			return NAN;
		r = p->level + (double)(k - p->last) * p->trend + p->season[k % p->day];
		return r > 0 ? r : 0;
	}
	if (j < 1 || j > p->last || j <= p->last - p->nring)
		return NAN;
	return p->rate[j % p->nring];
}

/*
 * The most instances any period from now to now + lead is forecast to need (-1 without a forecast). An
 * instance released now could not serve again before a startup has passed, so a scale-in keeps what the
 * periods until the lead need; this also stops the churn of releasing and relaunching as the forecast of
 * single periods moves up and down with Poisson noise. O(lead / period) per decision.
 */
static int need_until_lead(const struct predictive *p, const struct policy_input *in, double service)
{
	int64_t n = (p->lead_us + p->period_us - 1) / p->period_us;
	int most = -1;

	for (int64_t i = 1; i <= n; i++) {
		int64_t ahead = i * p->period_us < p->lead_us ? i * p->period_us : p->lead_us;
		double rate = policy_predictive_forecast(&p->base, in->now_us + ahead);
		int need;
		if (isnan(rate))
			continue;
		need = ceil_tol(rate * service / (in->slots * p->target));
		if (need > most)
			most = need;
	}
	return most;
}

static void decide(struct policy *base, const struct policy_input *in, struct policy_decision *out)
{
	struct predictive *p = (struct predictive *)base;
	double rate, service, busy_now;
	int pred = -1, floor_ = 0, want;
	bool above;

	observe(p, in);
	out->action = POLICY_HOLD;
	out->desired = in->capacity;
	if (isnan(in->metric) || in->slots <= 0) {
		snprintf(out->reason, sizeof out->reason, "predictive: no data");
		return;
	}
	above = in->metric > p->target;
	busy_now = isnan(in->busy_per_arrival_s) ? 0 : in->arrivals_per_s * in->busy_per_arrival_s;
	floor_ = ceil_tol(busy_now / (in->slots * p->target));
	rate = policy_predictive_forecast(base, in->now_us + p->lead_us);
	service = p->arrivals > 0 ? p->busy_s / p->arrivals : NAN;
	if (!isnan(rate) && !isnan(service))
		pred = ceil_tol(rate * service / (in->slots * p->target));
	if (pred < 0 && !above)
		return; /* no forecast yet: act only reactively, and only outwards */
	want = pred > floor_ ? pred : floor_;
	if (want < in->capacity && pred >= 0) {
		int keep = need_until_lead(p, in, service);
		if (keep > want)
			want = keep;
	}
	want = want < p->base.min ? p->base.min : want > p->base.max ? p->base.max : want;
	if (want == in->capacity || (want < in->capacity && (above || pred < 0)))
		return;
	out->action = want > in->capacity ? POLICY_SCALE_OUT : POLICY_SCALE_IN;
	out->desired = want;
	snprintf(out->reason, sizeof out->reason, "predictive: forecast %.4g/s x %.3g s -> %d, load now -> %d",
		 rate, service, pred, floor_);
}

static void predictive_free(struct policy *base)
{
	struct predictive *p = (struct predictive *)base;

	if (p) {
		free(p->rate);
		free(p->season);
		free(p);
	}
}

static const struct policy_ops predictive_ops = { "predictive", decide, predictive_free };

struct policy *policy_predictive_new(const struct scenario *sc)
{
	struct predictive *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->base.ops = &predictive_ops;
	p->base.min = sc->autoscaling.min;
	p->base.max = sc->autoscaling.max;
	p->kind = sc->autoscaling.forecast;
	p->target = sc->autoscaling.target;
	p->period_us = sc->autoscaling.resolution_us;
	p->lead_us = sc->autoscaling.lead_us;
	p->day = (int64_t)DAY_S * SIM_US_PER_S / p->period_us;
	p->back = p->kind == FORECAST_LAST_WEEK ? 7 * p->day : p->day;
	p->alpha = sc->autoscaling.alpha;
	p->beta = sc->autoscaling.beta;
	p->gamma = sc->autoscaling.gamma;
	if (p->kind == FORECAST_HOLT_WINTERS) {
		p->season = malloc((size_t)p->day * sizeof *p->season);
		if (!p->season)
			goto out_free;
	} else {
		p->nring = p->back + 1;
		p->rate = malloc((size_t)p->nring * sizeof *p->rate);
		if (!p->rate)
			goto out_free;
		for (int64_t i = 0; i < p->nring; i++)
			p->rate[i] = NAN;
	}
	return &p->base;
out_free:
	free(p);
	return NULL;
}
