/* workload: see workload.h. */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "convert.h"
#include "diag.h"
#include "engine.h"
#include "rng.h"
#include "status.h"
#include "tracefile.h"

static void mme_shares(struct workload *w);

static int make_source(struct workload *w, struct diag *d)
{
	const struct scenario *sc = w->sc;
	struct arrival_source *src = NULL;
	int rc = STATUS_OK;

	switch (sc->arrivals.kind) {
	case ARRIVAL_POISSON:
	case ARRIVAL_UNIFORM: src = arrivals_rate_new(sc, w->arrivals); break;
	case ARRIVAL_DIURNAL: src = arrivals_profile_new(sc, w->arrivals); break;
	case ARRIVAL_MMPP: src = arrivals_mmpp_new(sc, w->arrivals, w->state); break;
	case ARRIVAL_FLASH_CROWD: src = arrivals_flash_new(sc, w->arrivals); break;
	case ARRIVAL_RATE_SERIES: rc = arrivals_series_new(&src, sc, w->arrivals, d); break;
	case ARRIVAL_TRACE: rc = arrivals_trace_new(&src, sc, d); break;
	case ARRIVAL_CLOUDWATCH: rc = arrivals_cloudwatch_new(&src, sc, w->arrivals, d); break;
	}
	if (rc != STATUS_OK)
		return rc;
	if (!src)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	return arrivals_transform_new(&w->src, src, sc, w->transform, d);
}

int workload_init(struct workload *w, const struct scenario *sc, struct diag *d)
{
	double cv = sc->service.cv;
	int rc;

	memset(w, 0, sizeof *w);
	w->sc = sc;
	w->in_sizes = sc->sizes.input.kind != SIZE_NONE;
	w->out_sizes = sc->sizes.output.kind != SIZE_NONE;
	w->ln_sigma = sqrt(log1p(cv * cv));
	w->ln_mu = log(sc->service.mean_s) - 0.5 * w->ln_sigma * w->ln_sigma;
	w->horizon_us = sc->horizon_us;
	w->arrivals = rng_new(sc->seed, "arrivals");
	w->state = rng_new(sc->seed, "arrivals.state");
	w->transform = rng_new(sc->seed, "arrivals.transform");
	w->sizes = rng_new(sc->seed, "sizes");
	w->service = rng_new(sc->seed, "service");
	if (sc->reuse.conversations > 0) {
		w->reuse = rng_new(sc->seed, "prefix_reuse");
		w->recent = calloc((size_t)sc->reuse.conversations, sizeof *w->recent);
		w->ids = malloc(TRACEFILE_HASHES_MAX * sizeof *w->ids);
	}
	if (sc->mme.n > 0) {
		w->mme = rng_new(sc->seed, "multi_model");
		w->mme_cum = malloc((size_t)sc->mme.n * sizeof *w->mme_cum);
	}
	if (!w->arrivals || !w->state || !w->transform || !w->sizes || !w->service ||
	    (sc->reuse.conversations > 0 && (!w->reuse || !w->recent || !w->ids)) ||
	    (sc->mme.n > 0 && (!w->mme || !w->mme_cum))) {
		workload_fini(w);
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	}
	if (w->mme)
		mme_shares(w);
	if ((rc = make_source(w, d)) != STATUS_OK) {
		workload_fini(w);
		return rc;
	}
	return STATUS_OK;
}

void workload_fini(struct workload *w)
{
	arrivals_free(w->src);
	gsl_rng_free(w->arrivals);
	gsl_rng_free(w->state);
	gsl_rng_free(w->transform);
	gsl_rng_free(w->sizes);
	gsl_rng_free(w->service);
	gsl_rng_free(w->reuse);
	free(w->recent);
	free(w->ids);
	gsl_rng_free(w->mme);
	free(w->mme_cum);
	memset(w, 0, sizeof *w);
}

int32_t workload_draw_size(gsl_rng *rng, const struct size_dist *dist)
{
	double x = dist->mean;

	if (dist->kind == SIZE_EXPONENTIAL) {
		x = rng_exponential(rng, dist->mean);
	} else if (dist->kind == SIZE_LOGNORMAL) {
		double sigma = sqrt(log1p(dist->cv * dist->cv));
		x = rng_lognormal(rng, log(dist->mean) - 0.5 * sigma * sigma, sigma);
	}
	x = floor(x + 0.5);
	return x < 1 ? 1 : x > 1e7 ? 10000000 : (int32_t)x;
}

/* Service time in seconds for the distribution kinds; NAN for the token model. */
static double draw_service_s(struct workload *w, const struct arrival *a)
{
	switch (w->sc->service.kind) {
	case SERVICE_CONSTANT: return w->sc->service.mean_s;
	case SERVICE_EXPONENTIAL: return rng_exponential(w->service, w->sc->service.mean_s);
	case SERVICE_LOGNORMAL: return rng_lognormal(w->service, w->ln_mu, w->ln_sigma);
	case SERVICE_TRACE: return a->service_s;
	case SERVICE_TOKENS: return NAN;
	}
	return NAN;
}

/* Block j of conversation c: splitmix64's finalizer (a bijection of 64-bit words) of (c, j) packed into
 * one word, so distinct (c, j) never share an id. */
static uint64_t block_id(int64_t c, int32_t j)
{
	uint64_t z = ((uint64_t)c << 24) ^ (uint64_t)j;  /* j < 2^24: prompts are at most 1e7 tokens */

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* The synthetic reuse model (workload.h): the conversation of the next request and its block ids. */
static void reuse_ids(struct workload *w, struct request_draw *out)
{
	const int32_t bt = w->sc->reuse.block_tokens;
	int32_t n = out->in_tokens > 0 ? (int32_t)((out->in_tokens + (int64_t)bt - 1) / bt) : 0;
	int64_t k = w->sc->reuse.conversations, c;

	if (w->started > 0 && rng_uniform(w->reuse) < w->sc->reuse.share) {
		c = w->recent[rng_uniform_int(w->reuse, (unsigned long)(w->started < k ? w->started : k))];
	} else {
		c = w->started++;
		w->recent[c % k] = c;
	}
	if (n > TRACEFILE_HASHES_MAX)  /* as a trace row's ids: the blocks past these are never cached */
		n = TRACEFILE_HASHES_MAX;
	for (int32_t j = 0; j < n; j++)
		w->ids[j] = block_id(c, j);
	out->hashes = n > 0 ? w->ids : NULL;
	out->nhashes = n;
}

/* The cumulative normalised shares of a multi-model endpoint's models (workload.h). */
static void mme_shares(struct workload *w)
{
	const struct scenario *sc = w->sc;
	double total = 0, run = 0;

	for (int i = 0; i < sc->mme.n; i++)
		total += sc->mme.models[i].share;
	for (int i = 0; i < sc->mme.n; i++) {
		run += sc->mme.models[i].share;
		w->mme_cum[i] = run / total;
	}
	w->mme_cum[sc->mme.n - 1] = 1;  /* no rounding gap at the top */
}

/* The model the next request invokes: the first i with u < cum[i] (binary search; a model of share 0 has
 * cum[i] = cum[i - 1] and is never chosen). */
static int32_t mme_pick(struct workload *w)
{
	double u = rng_uniform(w->mme);
	int lo = 0, hi = w->sc->mme.n - 1;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (u < w->mme_cum[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

int workload_next(struct workload *w, struct request_draw *out, struct diag *d)
{
	struct arrival a = { .hashes = NULL, .nhashes = 0 };  /* generators leave these alone */
	double svc_s;
	int rc = w->src->ops->next(w->src, &a, d);

	if (rc != STATUS_OK)
		return rc;
	if (a.t_us > w->horizon_us)
		return STATUS_DONE;
	if (a.in_tokens < 0 && w->in_sizes)
		a.in_tokens = workload_draw_size(w->sizes, &w->sc->sizes.input);
	if (a.out_tokens < 0 && w->out_sizes)
		a.out_tokens = workload_draw_size(w->sizes, &w->sc->sizes.output);
	out->arrival_us = a.t_us;
	out->in_tokens = a.in_tokens;
	out->out_tokens = a.out_tokens;
	out->hashes = a.hashes;
	out->nhashes = a.nhashes;
	if (w->reuse)
		reuse_ids(w, out);
	out->model = w->mme ? mme_pick(w) : 0;
	svc_s = draw_service_s(w, &a);
	if (isnan(svc_s)) {
		out->service_us = -1;
	} else {
		if (convert_time_us(svc_s * (double)SIM_US_PER_S, &out->service_us) != STATUS_OK)
			return diag_fail(d, STATUS_EINTERNAL, "simulation failed: a service time of %g s was drawn, "
					 "beyond what the clock can hold (%g s)", svc_s, CONVERT_TIME_MAX_US / 1e6);
		if (out->service_us < 1)
			out->service_us = 1;
	}
	return STATUS_OK;
}
