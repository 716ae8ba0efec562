/*
 * check_fluid: mode: fluid (models/run/fluid.h), by hand-worked cases and against the request-level mode.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "fluid.h"
#include "hist.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

/* Erlang C, c = 2, a = 1: B(1) = 1/2, B(2) = (1 x 1/2) / (2 + 1/2) = 1/5; C = B / (1 - rho (1 - B)) =
 * 0.2 / (1 - 0.5 x 0.8) = 1/3. c = 1, a = 0.5: C = rho = 0.5. */
START_TEST(erlang_c_small)
{
	ck_assert_double_eq_tol(fluid_erlang_c(2, 1.0, -1, NULL), 1.0 / 3.0, 1e-12);
	ck_assert_double_eq_tol(fluid_erlang_c(1, 0.5, -1, NULL), 0.5, 1e-12);
	ck_assert_double_eq(fluid_erlang_c(2, 2.5, -1, NULL), 1.0);
}
END_TEST

/*
 * V(m) = P(W + S > slo | W <= tau) (fluid_wait.c) against closed forms, integrated and tabulated. W is
 * exponential with rate th = 1/m, S exponential with rate mu = 1/E[S], t = slo:
 *   no timeout:  P(W + S > t) = (th e^(-mu t) - mu e^(-th t)) / (th - mu)
 *   tau <= t:    th e^(-mu t) (1 - e^(-(th - mu) tau)) / (th - mu) / (1 - e^(-th tau))
 *   tau > t:     [th e^(-mu t) (1 - e^(-(th - mu) t)) / (th - mu) + e^(-th t) - e^(-th tau)] / (1 - e^(-th tau))
 * M/M/100 at lambda 95, E[S] 1 s, slo 2 s: m = 1 / (100 - 95) = 0.2 s, V = (5 e^-2 - e^-10) / 4 = 0.169159.
 * Constant S = s0: V = e^(-(t - s0) / m). Lognormal: against the integral over w written out here (the
 * trapezoid rule on 200,000 steps of the density, a different variable from fluid_wait.c's).
 */
static double v_exp(double m, double es, double t, double tau)
{
	double th = 1 / m, mu = 1 / es, keep = tau > 0 ? 1 - exp(-th * tau) : 1, u = tau > 0 && tau < t ? tau : t;
	double part = th * exp(-mu * t) * (1 - exp(-(th - mu) * u)) / (th - mu);

	if (!(tau > 0) || tau > t)
		part += exp(-th * t) - (tau > 0 ? exp(-th * tau) : 0);
	return part / keep;
}

static double v_lognormal_by_w(const struct fluid_model *md, double m)
{
	const int n = 200000;
	double top = md->timeout_s > 0 ? md->timeout_s : 50 * m + md->slo_s, h = top / n, sum = 0;

	for (int i = 0; i <= n; i++) {
		double w = i * h, f = exp(-w / m) / m * fluid_service_sf(md, md->slo_s - w);
		sum += f * (i == 0 || i == n ? 0.5 : 1);
	}
	return sum * h / (md->timeout_s > 0 ? -expm1(-md->timeout_s / m) : 1);
}

START_TEST(wait_violation_exact)
{
	static double tab[FLUID_VTAB_N];
	struct fluid_model md = { .kind = SERVICE_EXPONENTIAL, .mean_s = 1.0, .slo_s = 2.0, .max_queue = 1e9 };
	const double ms[] = { 0.2, 0.013, 0.9, 3.7, 40 }, taus[] = { 0, 0.5, 1.5, 5 };

	ck_assert_double_eq_tol(fluid_wait_violation(&md, 0.2), (5 * exp(-2) - exp(-10)) / 4, 1e-7);
	for (int k = 0; k < 4; k++) {
		md.timeout_s = taus[k];
		md.vtab = NULL;
		for (int i = 0; i < 5; i++) {
			double want = v_exp(ms[i], 1.0, 2.0, taus[k]), got = fluid_wait_violation(&md, ms[i]);
			ck_assert_msg(fabs(got - want) <= 1e-7, "integrated: m %g tau %g: %.9f, want %.9f", ms[i],
				      taus[k], got, want);
		}
		fluid_wait_tabulate(&md, tab);
		for (int i = 0; i < 5; i++) {
			double want = v_exp(ms[i], 1.0, 2.0, taus[k]), got = fluid_wait_violation(&md, ms[i]);
			ck_assert_msg(fabs(got - want) <= 2e-4 * want, "tabulated: m %g tau %g: %.9f, want %.9f", ms[i],
				      taus[k], got, want);
		}
	}
	md = (struct fluid_model){ .kind = SERVICE_CONSTANT, .mean_s = 1.5, .slo_s = 2.0, .max_queue = 1e9 };
	ck_assert_double_eq_tol(fluid_wait_violation(&md, 0.2), exp(-0.5 / 0.2), 1e-12);
	md = (struct fluid_model){ .kind = SERVICE_LOGNORMAL, .mean_s = 6.0, .cv = 0.6, .slo_s = 40.0,
		.timeout_s = 60.0, .max_queue = 1e9 };
	for (int i = 0; i < 5; i++) {
		double m = ms[i] * 10, want = v_lognormal_by_w(&md, m), got;
		md.vtab = NULL;
		got = fluid_wait_violation(&md, m);
		ck_assert_msg(fabs(got - want) <= 1e-6 + 1e-5 * want, "lognormal m %g: %.9f, want %.9f", m, got, want);
		fluid_wait_tabulate(&md, tab);
		got = fluid_wait_violation(&md, m);
		ck_assert_msg(fabs(got - want) <= 2e-4 * want, "lognormal tabulated m %g: %.9f, want %.9f", m, got, want);
	}
}
END_TEST

/*
 * A stationary period of M/M/100 at lambda 95, E[S] = 1 s, slo 2 s, no timeout: the violation share is
 * (1 - C) e^-2 + C V with C = Erlang C(100, 95) and V = 0.169159 (above); about 0.15248.
 */
START_TEST(mmc_period_violations)
{
	struct fluid_model md = { .kind = SERVICE_EXPONENTIAL, .mean_s = 1.0, .slo_s = 2.0, .max_queue = 1e9 };
	struct fluid_in in = { .period_s = 60, .arrivals = 95 * 60, .servers = 100, .backlog = 0 };
	struct fluid_out out = { 0 };
	double c = fluid_erlang_c(100, 95, -1, NULL), want = (1 - c) * exp(-2) + c * (5 * exp(-2) - exp(-10)) / 4;

	fluid_period(&md, 1, &in, &out);
	ck_assert_msg(fabs(out.violations / in.arrivals - want) <= 1e-6, "violation share %.7f, want %.7f (C = %.5f)",
		      out.violations / in.arrivals, want, c);
}
END_TEST

/* Overload: lambda = 2/s on c = 1 slot with E[S] = 1 s for T = 60 s, no timeout, no backlog: the queue
 * grows at 2 - 1 = 1/s, so 60 served (1/s x 60 s), 60 left waiting, queue integral 0.5 x 60 x 60 = 1800
 * request-s, busy 60 slot-s, and the served wait the mean queue / service rate = 30 / 1 = 30 s. */
START_TEST(overloaded_backlog)
{
	struct fluid_model md = { .kind = SERVICE_EXPONENTIAL, .mean_s = 1, .slo_s = 10, .max_queue = 1e6,
				  .realtime = true };
	struct fluid_in in = { .period_s = 60, .arrivals = 120, .servers = 1, .backlog = 0 };
	struct fluid_out o;

	fluid_period(&md, 1, &in, &o);
	ck_assert_double_eq_tol(o.served, 60, 1e-9);
	ck_assert_double_eq_tol(o.backlog, 60, 1e-9);
	ck_assert_double_eq_tol(o.queued_s, 1800, 1e-9);
	ck_assert_double_eq_tol(o.busy_slot_s, 60, 1e-9);
	ck_assert_double_eq_tol(o.wait_mean_s, 30, 1e-9);
	/* the next period at lambda = 0.5: the 60 drain at 1 - 0.5 = 0.5/s, in 120 s > 60 s: 30 remain */
	in.arrivals = 30;
	in.backlog = o.backlog;
	fluid_period(&md, 1, &in, &o);
	ck_assert_double_eq_tol(o.backlog, 30, 1e-9);
	ck_assert_double_eq_tol(o.served, 60, 1e-9);
}
END_TEST

/*
 * The latency distribution (fluid_dist.c) against closed forms. Exponential S of mean s and an exponential
 * wait of mean m (M/M/c's, m = 1 / (c mu - lambda)): P(W + S > x) = (s e^(-x/s) - m e^(-x/m)) / (s - m) (a
 * hypoexponential); with a timeout tau the served waits are W given W <= tau, whose distribution function is
 * F(x) = (H(x) - e^(-tau/m) H(x - tau)) / (1 - e^(-tau/m)), H = 1 - that survival (0 below 0). A constant
 * S: H(x) = 1 - e^(-(x - S)/m) past S.
 */
static double hypo_h(double x, double s, double m)
{
	if (x <= 0)
		return 0;
	return 1 - (s * exp(-x / s) - m * exp(-x / m)) / (s - m);
}

static double hypo_cdf(double x, double s, double m, double tau)
{
	if (!(tau > 0))
		return hypo_h(x, s, m);
	return (hypo_h(x, s, m) - exp(-tau / m) * hypo_h(x - tau, s, m)) / -expm1(-tau / m);
}

/* The largest gap between the cumulative counts of h (in n) and n cdf(edge), over every bucket edge. */
static double worst_gap(const struct fluid_dist *d, const struct hist *h, double n,
			double (*cdf)(double x, const double *p), const double *p)
{
	double seen = (double)h->zero, worst = 0;

	for (int i = 0; i < HIST_BUCKETS; i++) {
		double gap = fabs(seen - n * cdf(d->edge[i + 1], p));
		worst = gap > worst ? gap : worst;
		seen += (double)h->counts[i];
	}
	return worst;
}

static double cdf_hypo(double x, const double *p)
{
	return hypo_cdf(x, p[0], p[1], p[2]);
}

static double cdf_constant(double x, const double *p)
{
	double s = p[0], m = p[1], tau = p[2];
	double h = x < s ? 0 : -expm1(-(x - s) / m), h_tau = tau > 0 && x - tau >= s ? -expm1(-(x - tau - s) / m) : 0;

	return tau > 0 ? (h - exp(-tau / m) * h_tau) / -expm1(-tau / m) : h;
}

static double cdf_lognormal(double x, const double *p)
{
	struct fluid_model md = { .kind = SERVICE_LOGNORMAL, .mean_s = p[0], .cv = p[1] };

	return 1 - fluid_service_sf(&md, x);
}

/* The q-quantile of cdf, by bisection. */
static double quantile_of(double (*cdf)(double x, const double *p), const double *p, double q)
{
	double lo = 0, hi = 1;

	while (cdf(hi, p) < q)
		hi *= 2;
	for (int i = 0; i < 200; i++) {
		double mid = 0.5 * (lo + hi);
		if (cdf(mid, p) < q)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

static const double dist_qs[] = { 0.5, 0.9, 0.99, 0.999 };

/* h's quantiles within the histogram's 1% of cdf's. */
static void assert_quantiles(const struct hist *h, double (*cdf)(double x, const double *p), const double *p,
			     const char *what)
{
	for (int k = 0; k < 4; k++) {
		double want = quantile_of(cdf, p, dist_qs[k]), got = hist_quantile(h, dist_qs[k]);
		ck_assert_msg(fabs(got - want) <= 0.01 * want, "%s: q %g: %.6f, want %.6f", what, dist_qs[k], got, want);
	}
}

/* No wait: the tally is S's distribution, each cumulative count within 1/2 of n P(S <= edge), so the
 * quantiles are S's (to the histogram's 1%); the count is n rounded, the rest carried to the next tally. */
START_TEST(dist_no_wait_is_service)
{
	static struct hist h;
	struct fluid_model md = { .kind = SERVICE_LOGNORMAL, .mean_s = 6, .cv = 0.6, .timeout_s = 60 };
	struct fluid_dist d;
	const double p[] = { 6, 0.6 }, n = 1234567.4;

	ck_assert_int_eq(fluid_dist_init(&d, &md), STATUS_OK);
	fluid_dist_fixed(&d, n, 0);
	ck_assert_uint_eq(fluid_dist_tally(&d, &h), 1234567);
	ck_assert_double_eq_tol(d.carry, 0.4, 1e-6);
	ck_assert_msg(worst_gap(&d, &h, n, cdf_lognormal, p) <= 0.5 + 1e-6 * n, "gap %g", worst_gap(&d, &h, n,
		      cdf_lognormal, p));
	assert_quantiles(&h, cdf_lognormal, p, "lognormal, no wait");
	ck_assert_double_eq_tol(hist_mean(&h), 6.0, 6e-6);
	/* the next tally starts with the 0.4 carried */
	fluid_dist_fixed(&d, 0.3, 0);
	ck_assert_uint_eq(fluid_dist_tally(&d, &h), 1);
	fluid_dist_fini(&d);
}
END_TEST

/*
 * An exponential wait on exponential S (mean 1 s), and on a constant S of 1.5 s: on the grid's own means
 * each cumulative count is the closed form's to 5e-7 of the requests (about 1e-7 measured, the rounding; a
 * row is exact for a constant S), with and without a timeout and for means far below, near and above E[S]
 * and tau. Between grid means (a mixture of the two rows around it) the quantiles are still within the
 * histogram's 1%.
 */
START_TEST(dist_exponential_wait_exact)
{
	static struct hist h;
	const double taus[] = { 0, 0.5, 5 }, grid_j[] = { 50, 200, 330, 420, 540 }, off[] = { 0.037, 0.63, 2.3, 41 };
	const double n = 1e7;

	for (int kind = 0; kind < 2; kind++)
		for (int t = 0; t < 3; t++) {
			struct fluid_model md = { .kind = kind ? SERVICE_CONSTANT : SERVICE_EXPONENTIAL,
						  .mean_s = kind ? 1.5 : 1.0, .timeout_s = taus[t] };
			double (*cdf)(double, const double *) = kind ? cdf_constant : cdf_hypo;
			struct fluid_dist d;
			ck_assert_int_eq(fluid_dist_init(&d, &md), STATUS_OK);
			for (int j = 0; j < 5; j++) {
				double m = d.m_lo * exp(grid_j[j] * d.m_step), p[] = { md.mean_s, m, taus[t] }, gap;
				if (grid_j[j] >= d.ne)
					continue;
				fluid_dist_exp(&d, n, m);
				fluid_dist_tally(&d, &h);
				gap = worst_gap(&d, &h, n, cdf, p);
				ck_assert_msg(gap <= 5e-7 * n + 1, "%s S, m %g, tau %g: a cumulative count %g off",
					      kind ? "constant" : "exponential", m, taus[t], gap);
			}
			for (int j = 0; j < 4; j++) {
				double p[] = { md.mean_s, off[j], taus[t] };
				char what[96];
				fluid_dist_exp(&d, n, off[j]);
				fluid_dist_tally(&d, &h);
				snprintf(what, sizeof what, "%s S, m %g, tau %g", kind ? "constant" : "exponential",
					 off[j], taus[t]);
				assert_quantiles(&h, cdf, p, what);
			}
			fluid_dist_fini(&d);
		}
}
END_TEST

/*
 * A stationary M/M/c period (c = 10, lambda = 8/s, E[S] = 1 s, with and without a 0.3 s timeout) through
 * fluid_period and the distribution: its latency is the mixture (1 - C) S + C (W + S), W exponential of
 * mean 1 / (c mu - lambda) = 0.5 s given W <= tau, C = Erlang C(10, 8) = 0.409. Its p50, p90, p99 and p99.9
 * are the closed form's to the histogram's 1%.
 */
static double mmc_c, mmc_tau;

static double cdf_mmc(double x, const double *p)
{
	double plain = 1 - mmc_c, waited = mmc_c * (mmc_tau > 0 ? -expm1(-mmc_tau / 0.5) : 1);

	(void)p;
	return (plain * -expm1(-x) + waited * hypo_cdf(x, 1, 0.5, mmc_tau)) / (plain + waited);
}

START_TEST(dist_mmc_period_quantiles)
{
	static struct hist h;
	const double taus[] = { 0, 0.3 };

	mmc_c = fluid_erlang_c(10, 8, -1, NULL);
	for (int t = 0; t < 2; t++) {
		struct fluid_model md = { .kind = SERVICE_EXPONENTIAL, .mean_s = 1, .slo_s = 2, .timeout_s = taus[t],
					  .max_queue = 1e9 };
		struct fluid_in in = { .period_s = 3600, .arrivals = 8 * 3600, .servers = 10 };
		struct fluid_out o;
		struct fluid_dist d;
		mmc_tau = taus[t];
		fluid_period(&md, 1, &in, &o);
		ck_assert_double_eq_tol(o.exp_mean_s, 0.5, 1e-12);
		ck_assert_double_eq_tol(o.plain + o.exp_served, o.served, 1e-6);
		ck_assert_int_eq(fluid_dist_init(&d, &md), STATUS_OK);
		fluid_dist_fixed(&d, o.plain, 0);
		fluid_dist_exp(&d, o.exp_served, o.exp_mean_s);
		ck_assert_uint_eq(fluid_dist_tally(&d, &h), (uint64_t)llround(o.served));
		assert_quantiles(&h, cdf_mmc, NULL, taus[t] > 0 ? "M/M/10, tau 0.3 s" : "M/M/10");
		fluid_dist_fini(&d);
	}
}
END_TEST

/*
 * A lognormal S (mean 6 s, cv 0.6) with an exponential wait of mean 2.0 s (a grid mean) truncated at 60 s: the row against
 * the convolution written out here, P(W + S <= x) = integral_0^x g(w) P(S <= x - w) dw (g the truncated
 * exponential density; the trapezoid rule on 200,000 steps, another route than fluid_dist.c's), at a few x.
 */
static double conv_lognormal(double x, const double *p)
{
	const int steps = 200000;
	double m = p[2], tau = p[3], top = x < tau ? x : tau, hw = top / steps, sum = 0;

	for (int i = 0; i <= steps; i++) {
		double w = i * hw, f = exp(-w / m) / m * cdf_lognormal(x - w, p);
		sum += f * (i == 0 || i == steps ? 0.5 : 1);
	}
	return sum * hw / -expm1(-tau / m);
}

START_TEST(dist_lognormal_wait_against_integral)
{
	static struct hist h;
	struct fluid_model md = { .kind = SERVICE_LOGNORMAL, .mean_s = 6, .cv = 0.6, .timeout_s = 60 };
	struct fluid_dist d;
	const double n = 1e7;

	ck_assert_int_eq(fluid_dist_init(&d, &md), STATUS_OK);
	{
		double m = d.m_lo * exp(293 * d.m_step), p[] = { 6, 0.6, m, 60 }, seen = (double)h.zero;
		fluid_dist_exp(&d, n, m);
		fluid_dist_tally(&d, &h);
		seen = (double)h.zero;
		for (int i = 0; i < HIST_BUCKETS; i++) {
			double x = d.edge[i + 1];
			if (x > 1 && x < 80 && i % 10 == 0) {
				double want = n * conv_lognormal(x, p);
				ck_assert_msg(fabs(seen - want) <= 1e-5 * n, "x %g: %.0f, want %.0f", x, seen, want);
			}
			seen += (double)h.counts[i];
		}
	}
	fluid_dist_fini(&d);
}
END_TEST

static void run(const char *yaml, const char *const *sets, int nsets, struct world_report *rep)
{
	static struct capture cap;
	struct scenario sc;
	struct diag d;
	struct sink sink = capture_sink(&cap);

	ck_assert_msg(scenario_parse_string(&sc, yaml, "fluid.yaml", sets, nsets, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(world_run(&sc, &sink, "test", rep, &d) == STATUS_OK, "%s", d.msg);
	scenario_fini(&sc);
}

/*
 * A fixed fleet of 2 On-Demand single-slot instances at USD 1/h (a catalog override), Poisson 1/s,
 * exponential 1 s, 100 h: cost = 2 x 100 h x USD 1 = USD 200 exactly; the mean wait over all served
 * requests is P(wait) x E[W | wait] = C(2, 1) / (c mu - lambda) = (1/3) / (2 - 1) = 1/3 s (Allen-Cunneen's
 * factor is (1 + 1) / 2 = 1 for exponential service). Tolerance 1%: the counts are rounded expectations
 * (fluid_dist.c carries under one request of 360,000) and the waits' sum is its expectation. The p99s, to
 * the histogram's 1%: the wait's solves (1/3) e^-t = 0.01, t = ln(100/3) = 3.5066 s; the latency's, S with
 * probability 2/3 and W + S (an Erlang-2: W's mean is E[S]) with 1/3, solves e^-x (1 + x/3) = 0.01,
 * x = 5.6660 s.
 */
START_TEST(fixed_fleet_constant_rate)
{
	static const char yaml[] =
		"name: fixed\nmode: fluid\nhorizon: 100h\nslo: {latency_s: 1000}\n"
		"workload:\n  arrivals: {kind: poisson, rate_per_s: 1}\n  service: {kind: exponential, mean_s: 1}\n"
		"serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 1}\n"
		"catalog: {g6.xlarge: {usd_per_h: 1.0}}\n"
		"fleet:\n  - {option: on_demand, count: 2}\n";
	struct world_report rep;

	run(yaml, NULL, 0, &rep);
	ck_assert_double_eq_tol(world_report_get(&rep, "cost_total_usd"), 200.0, 1e-9);
	ck_assert_double_eq_tol(world_report_get(&rep, "wait_mean_s"), 1.0 / 3.0, 0.01 / 3.0);
	ck_assert_double_eq_tol(world_report_get(&rep, "waited_fraction"), 1.0 / 3.0, 0.01 / 3.0);
	ck_assert_double_eq_tol(world_report_get(&rep, "wait_p99_s"), log(100.0 / 3.0), 0.01 * log(100.0 / 3.0));
	ck_assert_double_eq_tol(world_report_get(&rep, "latency_p99_s"), 5.6660, 0.01 * 5.6660);
}
END_TEST

/*
 * Random routing to per-instance queues (serving.queue per_instance, the fluid model's independent queues):
 * 2 single-slot instances at 1 request/s, exponential 1 s, are 2 M/M/1 queues at 0.5/s. Mean wait over all
 * served requests rho / (mu - lambda_i) = 0.5 / 0.5 = 1 s (the central queue's: 1/3 s, above); waited
 * fraction rho = 0.5; wait p99 solves 0.5 e^(-t/2) = 0.01, t = 2 ln 50 = 7.8240 s; the latency is
 * exponential with mean 1 / (mu - lambda_i) = 2 s, p99 2 ln 100 = 9.2103 s. Same tolerances as above.
 */
START_TEST(per_instance_random_is_mm1)
{
	static const char yaml[] =
		"name: fixed\nmode: fluid\nhorizon: 100h\nslo: {latency_s: 1000}\n"
		"workload:\n  arrivals: {kind: poisson, rate_per_s: 1}\n  service: {kind: exponential, mean_s: 1}\n"
		"serving: {queue: per_instance, routing: random, instance_type: g6.xlarge, slots_per_instance: 1}\n"
		"catalog: {g6.xlarge: {usd_per_h: 1.0}}\n"
		"fleet:\n  - {option: on_demand, count: 2}\n";
	struct world_report rep;

	run(yaml, NULL, 0, &rep);
	ck_assert_double_eq_tol(world_report_get(&rep, "wait_mean_s"), 1.0, 0.01);
	ck_assert_double_eq_tol(world_report_get(&rep, "waited_fraction"), 0.5, 0.005);
	ck_assert_double_eq_tol(world_report_get(&rep, "wait_p99_s"), 2 * log(50.0), 0.01 * 2 * log(50.0));
	ck_assert_double_eq_tol(world_report_get(&rep, "latency_p99_s"), 2 * log(100.0), 0.01 * 2 * log(100.0));
}
END_TEST

/*
 * The benchmark scenario (tests/bench/diurnal-30d.yaml) over 3 days in both modes: cost within 1% (the
 * issue's bound) and the violation rate within 20% relative or 0.0005 absolute, whichever is larger
 * (measured: 0.56% and 0.6%; the violation rate is about 0.0016 here, from the service time's tail and
 * the timeouts of the scale-out ramps, which a per-minute fluid model only approximates).
 */
START_TEST(diurnal_error_vs_requests)
{
	static const char *const fluid[] = { "horizon=3d", "mode=fluid" };
	static const char *const reqs[] = { "horizon=3d" };
	char path[1024];
	struct world_report rf, rr;
	struct scenario sc;
	struct diag d;
	static struct capture cap;
	struct sink sink = capture_sink(&cap);
	double cf, cr, vf, vr;

	snprintf(path, sizeof path, "%s/../bench/diurnal-30d.yaml", TEST_DATA_DIR);
	ck_assert_msg(scenario_load(&sc, path, fluid, 2, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(world_run(&sc, &sink, "test", &rf, &d) == STATUS_OK, "%s", d.msg);
	scenario_fini(&sc);
	sink = capture_sink(&cap);  /* a fresh capture for the second run */
	ck_assert_msg(scenario_load(&sc, path, reqs, 1, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(world_run(&sc, &sink, "test", &rr, &d) == STATUS_OK, "%s", d.msg);
	scenario_fini(&sc);
	cf = world_report_get(&rf, "cost_total_usd");
	cr = world_report_get(&rr, "cost_total_usd");
	vf = world_report_get(&rf, "slo_violation_rate");
	vr = world_report_get(&rr, "slo_violation_rate");
	printf("diurnal 3d: cost fluid %.2f requests %.2f; violation rate fluid %.6f requests %.6f\n", cf, cr, vf, vr);
	ck_assert_msg(fabs(cf - cr) <= 0.01 * cr, "cost %g vs %g", cf, cr);
	ck_assert_msg(fabs(vf - vr) <= fmax(0.2 * vr, 0.0005), "violation rate %g vs %g", vf, vr);
}
END_TEST

/*
 * Percentiles against request mode (issue 31): a chat-like service whose traffic follows the day (diurnal
 * Poisson, 10 requests/s on average, +-60% around 14:00 UTC), lognormal service of mean 6 s, a 60 s queue
 * timeout, on-demand instances under target tracking at 70% from 2 instances (so the first hour is
 * overloaded while the fleet grows), over a grid of shapes: cv 0.3, 0.6 and 1.0 times 8, 16 and 64 slots
 * per instance. Each of the first two days is measured alone (warmup d days, horizon d + 1 days), so a
 * run's percentiles are that day's and its one daily window's verdict is that day's. In fluid mode each
 * day's p50, p90 and p99 must be within 3% of request mode's, and the verdict of the daily SLO
 * latency_p99_s: 20 s the same: request mode's daily p99 is about 11.4 s (cv 0.3), 18.7 to 19.4 s (cv 0.6)
 * and 29.5 to 30.7 s (cv 1.0), so the SLO is met, met and breached, each at least 3% from the threshold.
 * The hourly rows too, within the noise of request mode's hourly percentiles (30,000 to 60,000 requests
 * an hour: about 1% at p95 and 1 to 2% at p99): each hour's p50 and p95 at most 2 histogram buckets from
 * request mode's (4%), its p99 at most 3 (6%). Measured: days' percentiles in the same bucket or the next,
 * hours' p99 up to 3 buckets apart (cv 1.0). Before issue 31 this failed on every shape (p90 of day 0 off
 * by 4 to 18%, p99 off by up to 31%).
 */
static const char pct_yaml[] =
	"name: pct\nseed: 1\nstart: 2026-12-01T00:00:00Z\nhorizon: 1d\n"
	"slo: {latency_s: 30, latency_p99_s: 20, window: 1d}\n"
	"workload:\n  arrivals: {kind: diurnal, rate_per_s: 10, amplitude: 0.6, peak_hour: 14}\n"
	"  service: {kind: lognormal, mean_s: 6.0, cv: 0.6}\n"
	"serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 8, queue_timeout_s: 60, startup_s: 5m}\n"
	"fleet:\n  - {option: on_demand, max: 200}\n"
	"autoscaling: {policy: target_tracking, metric: concurrency_per_instance, target: 0.7, min: 2, max: 200}\n";

START_TEST(percentiles_vs_requests)
{
	static const char *const cvs[] = { "0.3", "0.6", "1.0" }, *const slots[] = { "8", "16", "64" };
	static const char *const pcts[] = { "latency_p50_s", "latency_p90_s", "latency_p99_s" };
	static struct capture req, flu;
	int cv = _i / 3, sl = _i % 3;

	for (int day = 0; day < 2; day++) {
		char s_cv[48], s_slots[48], s_warm[32], s_hor[32];
		snprintf(s_cv, sizeof s_cv, "workload.service.cv=%s", cvs[cv]);
		snprintf(s_slots, sizeof s_slots, "serving.slots_per_instance=%s", slots[sl]);
		snprintf(s_warm, sizeof s_warm, "warmup=%dd", day);
		snprintf(s_hor, sizeof s_hor, "horizon=%dd", day + 1);
		const char *sets[] = { s_cv, s_slots, s_warm, s_hor, "mode=fluid" };
		capture_run(&req, pct_yaml, sets, 4);
		capture_run(&flu, pct_yaml, sets, 5);
		for (int k = 0; k < 3; k++) {
			double r = capture_need(&req, pcts[k]), f = capture_need(&flu, pcts[k]);
			printf("cv %s slots %s day %d %s: requests %.3f fluid %.3f (%+.2f%%)\n", cvs[cv], slots[sl], day,
			       pcts[k], r, f, 100 * (f / r - 1));
			ck_assert_msg(fabs(f - r) <= 0.03 * r, "cv %s slots %s day %d %s: fluid %.3f, requests %.3f",
				      cvs[cv], slots[sl], day, pcts[k], f, r);
		}
		ck_assert_msg(capture_need(&flu, "slo_windows_breached") == capture_need(&req, "slo_windows_breached"),
			      "cv %s slots %s day %d: the daily p99 verdict differs (fluid %g breached, requests %g)",
			      cvs[cv], slots[sl], day, capture_need(&flu, "slo_windows_breached"),
			      capture_need(&req, "slo_windows_breached"));
		ck_assert_int_eq(flu.nhours, req.nhours);
		for (int h = 0; h < req.nhours; h++) {
			const struct sink_hour *r = &req.hours[h], *f = &flu.hours[h];
			const double got[] = { f->latency_p50_s, f->latency_p95_s, f->latency_p99_s };
			const double want[] = { r->latency_p50_s, r->latency_p95_s, r->latency_p99_s };
			for (int k = 0; k < 3; k++) {
				double buckets = fabs(log(got[k] / want[k])) / log(HIST_RATIO);
				ck_assert_msg(buckets <= (k < 2 ? 2 : 3) + 1e-6, "cv %s slots %s day %d hour %g: p%s %.3f, "
					      "requests %.3f (%.1f buckets apart)", cvs[cv], slots[sl], day,
					      r->hour_start_s / 3600, k == 0 ? "50" : k == 1 ? "95" : "99", got[k], want[k],
					      buckets);
			}
		}
	}
}
END_TEST

/*
 * A queue limit the stationary formulas would reach: M/M/8 at rho = 0.85 (lambda 1.1333/s, E[S] 6 s, one
 * instance of 8 slots), C = 0.57, so the queue holds 50 or more with probability C 0.85^50 = 1.7e-4, above
 * FLUID_FULL_MAX (request mode refuses about 6e-5 of the requests there): the run fails with a message naming
 * serving.max_queue, as an input fluid mode does not support. With max_queue 100 (3e-8) it runs.
 */
START_TEST(max_queue_reached_refused)
{
	static const char yaml[] =
		"name: q\nmode: fluid\nhorizon: 1h\nslo: {latency_s: 30}\n"
		"workload:\n  arrivals: {kind: poisson, rate_per_s: 1.1333}\n  service: {kind: exponential, mean_s: 6}\n"
		"serving: {queue: central, routing: first_free, instance_type: g6.xlarge, slots_per_instance: 8, queue_timeout_s: 60, max_queue: 50}\n"
		"fleet:\n  - {option: on_demand, count: 1}\n";
	static const char *const more[] = { "serving.max_queue=100" };
	static struct capture cap;
	struct sink sink = capture_sink(&cap);
	struct world_report rep;
	struct scenario sc;
	struct diag d;

	ck_assert_msg(scenario_parse_string(&sc, yaml, "q.yaml", NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(world_run(&sc, &sink, "test", &rep, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "mode: fluid does not support serving.max_queue 50 here: at t = 60 s"), "%s", d.msg);
	scenario_fini(&sc);
	run(yaml, more, 1, &rep);
}
END_TEST

/*
 * The shipped scenarios fluid supports run in fluid mode to the end with the conservation identities of
 * the finished run holding (this suite's world.c is built without NDEBUG: world.c, check_conserved): every
 * measured request served or dropped, bills adding up, busy GPU-time within paid GPU-time. chat-serving and
 * spot-burst serve a load-dependent service (a slowdown table), which fluid mode refuses (its formulas take
 * a service time independent of the load): for them the refusal, at the key, is what is asserted.
 */
START_TEST(shipped_scenarios_conserved)
{
	static const char *const names[] = { "capacity-block-launch", "chat-serving", "odcr", "predictive-diurnal",
		"realistic-mix", "recommend-commitments", "reserved-terms", "savings-plan", "spot-burst", "spot-trace" };
	static const char *const sets[] = { "mode=fluid" };
	static struct capture cap;

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct sink sink = capture_sink(&cap);  /* a fresh capture per run */
		bool slowed = strcmp(names[i], "chat-serving") == 0 || strcmp(names[i], "spot-burst") == 0;
		char path[1024];
		struct scenario sc;
		struct world_report rep;
		struct diag d;

		snprintf(path, sizeof path, "%s/%s.yaml", SCENARIO_DIR, names[i]);
		if (slowed) {
			ck_assert_int_eq(scenario_load(&sc, path, sets, 1, &d), STATUS_EINPUT);
			ck_assert_msg(strstr(d.msg, ".yaml:") && strstr(d.msg, "mode: fluid does not support "
				      "workload.service.slowdown"), "%s", d.msg);
			continue;
		}
		ck_assert_msg(scenario_load(&sc, path, sets, 1, &d) == STATUS_OK, "%s: %s", names[i], d.msg);
		ck_assert_msg(world_run(&sc, &sink, "test", &rep, &d) == STATUS_OK, "%s: %s", names[i], d.msg);
		ck_assert_msg(world_report_get(&rep, "requests_total") > 0, "%s: no requests", names[i]);
		scenario_fini(&sc);
	}
}
END_TEST

/*
 * The default fluid.period_s: the largest period dividing 60 s, autoscaling.resolution_s and sample_period.
 * The benchmark scenario (resolution 60 s, sample period 60 s by default): 60 s. With a 10 s resolution:
 * gcd(60, 10, 60) = 10 s. With a 90 s sample period: gcd(60, 60, 90) = 30 s. With an hourly SLO window and
 * a start 45 s past the hour, the window's periods must start at its start: gcd(60, 3600, 45) = 15 s. A given
 * period that does not divide the resolution, or that window's offset, is refused, at its key.
 */
START_TEST(default_period_divides)
{
	static const char *const plain[] = { "mode=fluid" };
	static const char *const res10[] = { "mode=fluid", "autoscaling.resolution_s=10" };
	static const char *const sample90[] = { "mode=fluid", "sample_period=90s" };
	static const char *const bad[] = { "mode=fluid", "autoscaling.resolution_s=10", "fluid.period_s=60" };
	static const char *const window[] = { "mode=fluid", "slo.latency_p99_s=10", "slo.window=1h",
		"start=2026-12-01T10:00:45Z" };
	static const char *const bad_window[] = { "mode=fluid", "slo.latency_p99_s=10", "slo.window=1h",
		"start=2026-12-01T10:00:45Z", "fluid.period_s=30" };
	const char *const *sets[] = { plain, res10, sample90, window };
	const int nsets[] = { 1, 2, 2, 4 };
	const int64_t want_s[] = { 60, 10, 30, 15 };
	char path[1024];
	struct scenario sc;
	struct diag d;

	snprintf(path, sizeof path, "%s/../bench/diurnal-30d.yaml", TEST_DATA_DIR);
	for (int i = 0; i < 4; i++) {
		ck_assert_msg(scenario_load(&sc, path, sets[i], nsets[i], &d) == STATUS_OK, "%s", d.msg);
		ck_assert_int_eq(sc.fluid_period_us, want_s[i] * 1000000);
		scenario_fini(&sc);
	}
	ck_assert_int_eq(scenario_load(&sc, path, bad, 3, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "fluid.period_s (60 s) does not divide autoscaling.resolution_s (10 s)"), "%s", d.msg);
	ck_assert_int_eq(scenario_load(&sc, path, bad_window, 5, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "fluid.period_s (30 s) does not divide slo.window (3600 s) and the start's "
			     "offset in it (45 s)"), "%s", d.msg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fluid");
	TCase *tc = tcase_create("fluid");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	test_add(tc, erlang_c_small);
	test_add(tc, default_period_divides);
	test_add(tc, wait_violation_exact);
	test_add(tc, mmc_period_violations);
	test_add(tc, overloaded_backlog);
	test_add(tc, dist_no_wait_is_service);
	test_add(tc, dist_exponential_wait_exact);
	test_add(tc, dist_mmc_period_quantiles);
	test_add(tc, dist_lognormal_wait_against_integral);
	test_add(tc, fixed_fleet_constant_rate);
	test_add(tc, per_instance_random_is_mm1);
	test_add(tc, diurnal_error_vs_requests);
	test_add(tc, shipped_scenarios_conserved);
	test_add(tc, max_queue_reached_refused);
	tcase_add_loop_test(tc, percentiles_vs_requests, 0, 9);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
