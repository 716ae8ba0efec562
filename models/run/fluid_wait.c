/*
 * fluid_wait: V(m) = P(W + S > slo | W <= tau), the share of waiting requests that miss the SLO in a
 * stationary fluid period, for W exponential with mean m (truncated at the queue timeout tau, none when 0)
 * and S the model's service time (fluid.h).
 *
 * With s = w / m, V = [ integral_0^U e^(-s) P(S > slo - m s) ds + (e^(-u/m) - e^(-tau/m)) ] / (1 - e^(-tau/m))
 * where u = min(slo, tau) and U = u / m: past slo every waiting request violates whatever S (the second
 * term), and past tau it timed out instead. In s the weight e^(-s) is smooth and P(S > slo - m s) rises
 * smoothly to 1 at s = slo / m (exponential, lognormal), so composite Simpson on 1000 intervals of [0,
 * min(U, 60)] is exact to about 1e-8 (beyond s = 60 the weight is under 1e-26); a constant S is a step,
 * integrated in closed form. (An earlier rule, Simpson on 24 intervals in x = 1 - e^(-w/m), was 5% high
 * for M/M/100 at lambda 95, slo 2 s: the integrand is steep in x near the SLO.)
 *
 * That integral costs 1000 evaluations of P(S > x): too many for every period of a year at one minute.
 * V depends on the period only through m, so fluid_wait_tabulate computes it once per run on a grid of m
 * (FLUID_VTAB_N points, geometric from slo x 1e-6 to slo x 1e3: ratio 1.014), and fluid_wait_violation
 * interpolates log V linearly in log m (V falls like e^(-slo/m) for small m, which a linear interpolation
 * of V itself follows poorly; error under 1e-4 of V; outside the grid, or without a table, it integrates;
 * the table floors V at 1e-300).
 */
#include "fluid.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

#define SIMPSON_N 1000     /* intervals in s (even) */
#define S_MAX 60.0         /* e^-60: the weight beyond is negligible */
#define VTAB_LO 1e-6       /* the grid of m, as multiples of slo */
#define VTAB_HI 1e3

/* P(S > x): here, beneath fluid.c, because the integral needs it and fluid.c calls the integral. */
double fluid_service_sf(const struct fluid_model *md, double x)
{
	if (x <= 0)
		return 1.0;
	switch (md->kind) {
	case SERVICE_CONSTANT:
		return md->mean_s > x ? 1.0 : 0.0;
	case SERVICE_EXPONENTIAL:
		return exp(-x / md->mean_s);
	default: {
		double s2 = log1p(md->cv * md->cv), mu = log(md->mean_s) - 0.5 * s2;
		return gsl_cdf_ugaussian_Q((log(x) - mu) / sqrt(s2));
	}
	}
}

static double integrate(const struct fluid_model *md, double m)
{
	double tau = md->timeout_s, top = tau > 0 ? tau : INFINITY, u = md->slo_s < top ? md->slo_s : top;
	double big_u = u / m, hi = big_u < S_MAX ? big_u : S_MAX, sum = 0, h;
	double keep = isinf(top) ? 1.0 : -expm1(-top / m);   /* P(W <= tau) */
	double beyond = exp(-big_u) - (isinf(top) ? 0.0 : exp(-top / m));  /* slo < W <= tau */

	if (!(keep > 0))
		return fluid_service_sf(md, md->slo_s);  /* tau / m underflows: no wait is kept */
	if (u < md->slo_s)
		beyond = 0;  /* tau <= slo: every kept wait is below the SLO */
	if (md->kind == SERVICE_CONSTANT) {
		/* P(S > slo - m s) = 1 exactly for s > (slo - S) / m: the integral is e^-s* - e^-U */
		double s_star = (md->slo_s - md->mean_s) / m;
		if (s_star < 0)
			s_star = 0;
		sum = s_star < big_u ? exp(-s_star) - exp(-big_u) : 0;
		return (sum + beyond) / keep;
	}
	h = hi / SIMPSON_N;
	for (int i = 0; i <= SIMPSON_N; i++) {
		double s = i * h, f = exp(-s) * fluid_service_sf(md, md->slo_s - m * s);
		sum += f * (i == 0 || i == SIMPSON_N ? 1 : i % 2 ? 4 : 2);
	}
	return (sum * h / 3.0 + beyond) / keep;
}

void fluid_wait_tabulate(struct fluid_model *md, double *tab)
{
	double lo = log(md->slo_s * VTAB_LO), step = (log(md->slo_s * VTAB_HI) - lo) / (FLUID_VTAB_N - 1);

	for (int i = 0; i < FLUID_VTAB_N; i++)
		tab[i] = log(fmax(integrate(md, exp(lo + step * i)), 1e-300));
	md->vtab = tab;
	md->vtab_log_lo = lo;
	md->vtab_step = step;
}

double fluid_wait_violation(const struct fluid_model *md, double m)
{
	double x, w;
	int i;

	if (!md->vtab || !(m > 0))
		return integrate(md, m);
	x = (log(m) - md->vtab_log_lo) / md->vtab_step;
	if (!(x >= 0 && x <= FLUID_VTAB_N - 1))
		return integrate(md, m);
	i = (int)x;
	if (i >= FLUID_VTAB_N - 1)
		return exp(md->vtab[FLUID_VTAB_N - 1]);
	w = x - i;
	return exp((1 - w) * md->vtab[i] + w * md->vtab[i + 1]);
}
