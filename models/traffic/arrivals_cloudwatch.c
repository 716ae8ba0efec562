/*
 * arrivals_cloudwatch: arrivals from a CloudWatch metric series (the `cloudwatch` kind; see arrivals.h and
 * cwmetrics.h), such as a SageMaker endpoint's Invocations, Sum per minute.
 *
 * Each period's value is its count of requests (times scale_rate). Period k covers [k P, (k + 1) P) from
 * the scenario start: the series' first timestamp is the scenario's t = 0, as a trace's first request is
 * (arrivals_trace.c). Gaps were filled when the file was read (sc->arrivals.cw_gaps). Within a period:
 *   poisson (default): a Poisson process at value / P per second, so the period's count is Poisson with
 *                      mean value (the process restarts at each period's start, which, being memoryless,
 *                      changes nothing);
 *   even:              exactly floor(carry + value) arrivals, evenly spaced at the middles of n equal
 *                      slices, (i + 1/2) P / n; the fraction left over is carried into the next period, so
 *                      over any run of periods the arrivals are the sum of the values to within 1 (with
 *                      whole values and scale_rate 1, exactly each period's value).
 * After the last period the source ends (loop, a transform, starts it again). The series is read whole
 * when the source is made (cwmetrics_load: the loader has already checked it), so memory is one double
 * per period; nothing is allocated per arrival. Draws come only from the arrival stream.
 */
#include "arrivals.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "engine.h"
#include "rng.h"
#include "scenario.h"
#include "status.h"

#define EVEN_SLACK 1e-9  /* a carry this close below a whole number counts as it (0.1 x 10 in doubles) */

struct cw_source {
	struct arrival_source base;  /* must be first */
	gsl_rng *rng;                /* arrival stream (kept, owned by the caller) */
	struct cwmetrics m;          /* the series, gaps filled; owned */
	double scale;                /* scale_rate */
	bool even;                   /* within: even */
	int k;                       /* the current period */
	bool in_period;              /* period k has arrivals left */
	double t_s;                  /* poisson: the last arrival, seconds from the start */
	double end_s;                /* poisson: the end of period k */
	double mean_gap_s;           /* poisson: P / (scale x value) */
	double carry;                /* even: the fraction of a request not yet sent, [0, 1) */
	int64_t n, i;                /* even: arrivals in period k, and sent so far */
};

/* Enter period k: set up its arrivals; false when it has none. */
static bool enter(struct cw_source *src)
{
	int64_t p_us = src->m.period_us;
	double x = src->scale * src->m.value[src->k], whole;

	if (src->even) {
		src->carry += x;
		whole = floor(src->carry + EVEN_SLACK);
		src->carry = fmax(0.0, src->carry - whole);
		src->n = (int64_t)whole;
		src->i = 0;
		return src->n > 0;
	}
	src->t_s = (double)(src->k * p_us) / SIM_US_PER_S;
	src->end_s = (double)((src->k + 1) * p_us) / SIM_US_PER_S;
	src->mean_gap_s = x > 0 ? (double)p_us / SIM_US_PER_S / x : 0;
	return x > 0;
}

static int cw_next(struct arrival_source *base, struct arrival *out, struct diag *d)
{
	struct cw_source *src = (struct cw_source *)base;
	int64_t p_us = src->m.period_us;

	(void)d;
	while (src->k < src->m.nperiods) {
		if (!src->in_period) {
			src->in_period = enter(src);
			if (!src->in_period)
				src->k++;
			continue;
		}
		if (src->even && src->i < src->n) {
			out->t_us = src->k * p_us + llround(((double)src->i + 0.5) * (double)p_us / (double)src->n);
			src->i++;
			break;
		}
		if (!src->even) {
			src->t_s += rng_exponential(src->rng, src->mean_gap_s);
			if (src->t_s < src->end_s) {
				if (!arrivals_seconds_to_us(src->t_s, &out->t_us))
					return STATUS_DONE;
				break;
			}
		}
		src->in_period = false;
		src->k++;
	}
	if (src->k >= src->m.nperiods)
		return STATUS_DONE;
	out->in_tokens = -1;
	out->out_tokens = -1;
	out->service_s = NAN;
	out->hashes = NULL;
	out->nhashes = 0;
	return STATUS_OK;
}

static int cw_rewind(struct arrival_source *base, struct diag *d)
{
	struct cw_source *src = (struct cw_source *)base;

	(void)d;
	src->k = 0;
	src->in_period = false;
	src->carry = 0;
	return STATUS_OK;
}

static void cw_free(struct arrival_source *base)
{
	struct cw_source *src = (struct cw_source *)base;

	cwmetrics_fini(&src->m);
	free(src);
}

static const struct arrival_source_ops cw_ops = {
	.next = cw_next,
	.rewind = cw_rewind,
	.free = cw_free,
};

int arrivals_cloudwatch_new(struct arrival_source **out, const struct scenario *sc, gsl_rng *rng, struct diag *d)
{
	struct cw_source *src = calloc(1, sizeof *src);
	int rc;

	if (!src)
		return diag_at(d, STATUS_ENOMEM, sc->arrivals.path, 0, 0, "out of memory opening the metrics");
	src->base.ops = &cw_ops;
	src->rng = rng;
	src->scale = arrivals_rate_scale(sc);
	src->even = sc->arrivals.cw_even;
	if ((rc = cwmetrics_load(&src->m, sc->arrivals.path, NULL, &sc->arrivals.cw_query, d))) {
		free(src);
		return rc;
	}
	cwmetrics_fill(&src->m, sc->arrivals.cw_gaps);
	*out = &src->base;
	return STATUS_OK;
}
