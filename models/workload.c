/* workload: see workload.h. */
#include "workload.h"

#include <math.h>

#include <gsl/gsl_randist.h>

#include "engine.h"
#include "rng.h"
#include "status.h"

int workload_init(struct workload *w, const struct scenario *sc)
{
	double cv = sc->service.cv;

	w->arrival_kind = sc->arrivals.kind;
	w->steps[0].at_us = 0;
	w->steps[0].rate_per_s = sc->arrivals.rate_per_s;
	w->cum[0] = 0.0;
	for (int i = 0; i < sc->arrivals.nsteps; i++) {
		const struct rate_step *prev = &w->steps[i];
		w->steps[i + 1] = sc->arrivals.steps[i];
		w->cum[i + 1] = w->cum[i] + prev->rate_per_s * (double)(w->steps[i + 1].at_us - prev->at_us) /
			(double)SIM_US_PER_S;
	}
	w->nsteps = sc->arrivals.nsteps + 1;
	w->step = 0;
	w->u = 0.0;
	w->service_kind = sc->service.kind;
	w->mean_s = sc->service.mean_s;
	w->ln_sigma = sqrt(log1p(cv * cv));
	w->ln_mu = log(w->mean_s) - 0.5 * w->ln_sigma * w->ln_sigma;
	w->horizon_us = sc->horizon_us;
	w->arrivals = rng_new(sc->seed, "arrivals");
	w->service = rng_new(sc->seed, "service");
	if (!w->arrivals || !w->service) {
		workload_fini(w);
		return STATUS_ENOMEM;
	}
	return STATUS_OK;
}

void workload_fini(struct workload *w)
{
	gsl_rng_free(w->arrivals);
	gsl_rng_free(w->service);
	w->arrivals = NULL;
	w->service = NULL;
}

static double draw_service_s(struct workload *w)
{
	switch (w->service_kind) {
	case SERVICE_CONSTANT:
		return w->mean_s;
	case SERVICE_EXPONENTIAL:
		return gsl_ran_exponential(w->service, w->mean_s);
	case SERVICE_LOGNORMAL:
		return gsl_ran_lognormal(w->service, w->ln_mu, w->ln_sigma);
	}
	return w->mean_s;
}

/* The time in seconds where the integrated rate reaches w->u, or +inf if it never does. */
static double invert(struct workload *w)
{
	while (w->step + 1 < w->nsteps && w->u > w->cum[w->step + 1])
		w->step++;
	const struct rate_step *st = &w->steps[w->step];
	if (st->rate_per_s <= 0)
		return INFINITY; /* a zero rate in the last step: no more arrivals */
	return (double)st->at_us / (double)SIM_US_PER_S + (w->u - w->cum[w->step]) / st->rate_per_s;
}

int workload_next(struct workload *w, struct request_draw *out)
{
	double t_s, svc_s;
	int64_t t_us;

	if (w->arrival_kind == ARRIVAL_POISSON)
		w->u += gsl_ran_exponential(w->arrivals, 1.0);
	else
		w->u += 1.0;
	t_s = invert(w);
	if (!(t_s * (double)SIM_US_PER_S <= (double)w->horizon_us))
		return STATUS_DONE; /* compared in double first: a huge time must not overflow llround */
	t_us = llround(t_s * (double)SIM_US_PER_S);
	if (t_us > w->horizon_us)
		return STATUS_DONE;
	svc_s = draw_service_s(w);
	out->arrival_us = t_us;
	out->service_us = llround(svc_s * (double)SIM_US_PER_S);
	if (out->service_us < 1)
		out->service_us = 1;
	return STATUS_OK;
}
