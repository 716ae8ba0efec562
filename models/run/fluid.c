/* fluid: see fluid.h. */
#include "fluid.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

#include "status.h"


double fluid_erlang_c(int c, double a, int k, double *p_le)
{
	/* r(n) = 1 / B(n, a) by r(n) = 1 + r(n - 1) n / a, r(0) = 1 (Erlang B's stable recursion inverted);
	 * C = 1 / (1 + (1 - rho) (r(c) - 1)) ... written as B / (1 - rho (1 - B)) with B = 1 / r(c) */
	double r = 1.0, inv_a = 1.0 / a, rk = 1.0, rho = a / c, b, cc;

	if (c <= 0 || a >= c)
		return 1.0;
	if (a <= 0) {
		if (p_le)
			*p_le = 1.0;
		return 0.0;
	}
	for (int n = 1; n <= c; n++) {
		r = 1.0 + r * n * inv_a;
		if (n == k)
			rk = r;
		if (r > 1e250) {
			/* B(n) < 1e-250 and falls further: nobody waits, and the states above n (k < c included,
			 * whether k is above n or not: P(N <= k) >= P(N <= n) = 1 - O(1e-250)) are negligible */
			if (p_le)
				*p_le = 1.0;
			return 0.0;
		}
	}
	b = 1.0 / r;
	cc = b / (1.0 - rho * (1.0 - b));
	if (p_le) {
		/* P(N <= k) = sum_{n<=k} t_n / (sum_{n<c} t_n + t_c / (1 - rho)), t_n = a^n / n!; sum_{n<=k} t_n =
		 * t_k r(k), and the denominator is t_c (r(c) + rho / (1 - rho)) */
		double ratio = 1.0;  /* t_k / t_c */
		for (int n = k + 1; n <= c; n++)
			ratio *= n * inv_a;
		*p_le = k < 0 ? 0.0 : rk * ratio / (r + rho / (1.0 - rho));
	}
	return cc;
}

/* The u-quantile of S. */
static double service_quantile(const struct fluid_model *md, double u)
{
	switch (md->kind) {
	case SERVICE_CONSTANT:
		return md->mean_s;
	case SERVICE_EXPONENTIAL:
		return -md->mean_s * log1p(-u);
	default: {
		double s2 = log1p(md->cv * md->cv), mu = log(md->mean_s) - 0.5 * s2;
		return exp(mu + sqrt(s2) * gsl_cdf_ugaussian_Pinv(u));
	}
	}
}

static double cs2_of(const struct fluid_model *md)
{
	return md->kind == SERVICE_CONSTANT ? 0.0 : md->kind == SERVICE_EXPONENTIAL ? 1.0 : md->cv * md->cv;
}

/* The fluid part: the queue q evolves at lambda - mu_c for up to T seconds; adds to out, returns the time
 * spent (< T when the queue emptied with lambda < mu_c). */
static double fluid_part(const struct fluid_model *md, double lambda, double mu_c, double T, double *q,
			 struct fluid_out *out)
{
	double drift = lambda - mu_c, t = T, q0 = *q, q1, cap = md->max_queue, served, arrivals;

	if (mu_c > 0 && md->timeout_s > 0 && mu_c * md->timeout_s < cap)
		cap = mu_c * md->timeout_s;  /* beyond it a request would wait past tau */
	else if (mu_c <= 0 && md->timeout_s > 0 && lambda * md->timeout_s < cap)
		cap = lambda * md->timeout_s;  /* no service: the queue holds the last tau's arrivals */
	if (drift < 0 && q0 + drift * T <= 0)
		t = q0 / -drift;  /* the queue empties at t */
	arrivals = lambda * t;
	q1 = q0 + drift * t;
	if (q1 < 0)
		q1 = 0;
	served = mu_c * t < q0 + arrivals ? mu_c * t : q0 + arrivals;
	if (q1 > cap) {
		double excess = q1 - cap;
		bool by_timeout = md->timeout_s > 0 && cap < md->max_queue;
		if (by_timeout) {
			out->timed_out += excess;
			out->queued_s += excess * md->timeout_s;  /* each waited tau before it left */
		} else {
			out->refused += excess;
		}
		q1 = cap;
	}
	out->served += served;
	out->busy_slot_s += served * md->mean_s;
	out->queued_s += 0.5 * (q0 + q1) * t;
	out->under_s += (q0 > 0 || q1 > 0) ? t : 0;
	if (served > 0) {
		double w = mu_c > 0 ? 0.5 * (q0 + q1) / mu_c : 0;
		double waited = (q0 > 0 || q1 > 0) ? served : 0;
		out->wait_mean_s = w;
		out->wait_fixed = true;
		out->waited += waited;
		out->violations += served * fluid_service_sf(md, md->slo_s - w);
		out->viol_service += served * fluid_service_sf(md, md->slo_s);
	}
	*q = q1;
	return t;
}

/* Erlang C at a fractional number of servers: linear between floor and ceil. */
static double erlang_frac(double c, double a, int slots, double *p_over)
{
	int lo = (int)floor(c), hi = lo + 1;
	double w = c - lo, plo, phi, clo, chi;

	clo = lo > 0 && a < lo ? fluid_erlang_c(lo, a, lo - slots, &plo) : 1.0;
	if (!(lo > 0 && a < lo))
		plo = 0;
	if (w == 0) {
		*p_over = plo;
		return clo;
	}
	chi = a < hi ? fluid_erlang_c(hi, a, hi - slots, &phi) : 1.0;
	if (!(a < hi))
		phi = 0;
	*p_over = (1 - w) * plo + w * phi;
	return (1 - w) * clo + w * chi;
}

/* The stationary part: t seconds at lambda with no backlog, lambda E[S] < c. */
static void stationary_part(const struct fluid_model *md, int slots, double lambda, double c, double t,
			    struct fluid_out *out)
{
	double n = lambda * t, a = lambda * md->mean_s, p_over, cw, m, tau = md->timeout_s, keep, served;

	if (n <= 0) {
		out->over_s += c >= slots ? t : 0;
		return;
	}
	cw = erlang_frac(c, a, slots, &p_over);
	m = 0.5 * (1.0 + cs2_of(md)) / (c / md->mean_s - lambda);
	keep = tau > 0 ? -expm1(-tau / m) : 1.0;  /* P(W <= tau | waits) */
	out->timed_out += n * cw * (1 - keep);
	served = n * (1 - cw * (1 - keep));
	out->served += served;
	out->busy_slot_s += served * md->mean_s;
	/* E[min(W, tau) | waits] = m keep; the timed out waited tau, inside it */
	out->queued_s += n * cw * m * keep;
	out->waited += n * cw * keep;
	out->wait_mean_s = tau > 0 ? m - tau * (1 - keep) / keep : m;  /* E[W | W <= tau] */
	out->wait_fixed = false;
	out->violations += n * ((1 - cw) * fluid_service_sf(md, md->slo_s) +
				cw * keep * fluid_wait_violation(md, m));
	out->viol_service += served * fluid_service_sf(md, md->slo_s);
	out->under_s += t * cw * a / c;  /* P(N > c) = rho C */
	out->over_s += t * p_over;
}

void fluid_period(const struct fluid_model *md, int slots, const struct fluid_in *in, struct fluid_out *out)
{
	double T = in->period_s, lambda = in->arrivals / T, c = in->servers, mu_c = c / md->mean_s, q = in->backlog;
	double t = 0;

	*out = (struct fluid_out){ 0 };
	if (c <= 0 && md->realtime) {
		/* nothing open: a realtime endpoint refuses every invocation; what waits keeps waiting */
		out->refused = in->arrivals;
		lambda = 0;
	}
	if (q > 0 || lambda * md->mean_s >= c)
		t = fluid_part(md, lambda, mu_c, T, &q, out);
	if (t < T && lambda * md->mean_s < c)
		stationary_part(md, slots, lambda, c, T - t, out);
	out->backlog = q;
}

/* ---- the run ------------------------------------------------------------------------------------ */

static const double s_levels[FLUID_S_ATOMS + 1] = { 0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.99, 0.999, 1 };
static const double w_levels[FLUID_W_ATOMS + 1] = { 0, 0.5, 0.9, 0.99, 1 };

void fluid_init(struct fluid *f, const struct scenario *sc, struct engine *eng, struct meter *meter)
{
	*f = (struct fluid){ .sc = sc, .eng = eng, .meter = meter };
	f->md = (struct fluid_model){ .kind = sc->service.kind, .mean_s = sc->service.mean_s,
		.cv = sc->service.kind == SERVICE_LOGNORMAL ? sc->service.cv : 0,
		.slo_s = (double)sc->slo.latency_us / SIM_US_PER_S,
		.timeout_s = (double)sc->serving.queue_timeout_us / SIM_US_PER_S,
		.max_queue = sc->serving.max_queue, .realtime = sc->serving.endpoint == ENDPOINT_REALTIME };
	if (f->md.slo_s > 0)
		fluid_wait_tabulate(&f->md, f->vtab);
	for (int i = 0; i < FLUID_S_ATOMS; i++) {
		f->s_atom[i] = service_quantile(&f->md, 0.5 * (s_levels[i] + s_levels[i + 1]));
		f->s_weight[i] = s_levels[i + 1] - s_levels[i];
	}
	for (int w = 0; w < FLUID_W_ATOMS; w++) {
		/* the mean of a unit-mean exponential over its slice of levels [u0, u1): the atoms then keep the
		 * mean wait exact, E[W; w0 < W < w1] = (w0 + 1) e^-w0 - (w1 + 1) e^-w1; an atom of mean m is
		 * m times this */
		double u0 = w_levels[w], u1 = w_levels[w + 1], w0 = -log1p(-u0), w1 = u1 < 1 ? -log1p(-u1) : 0;
		double e1 = u1 < 1 ? (w1 + 1) * (1 - u1) : 0;
		f->w_unit[w] = ((w0 + 1) * (1 - u0) - e1) / (u1 - u0);
	}
	engine_event_init(&f->tick);
}

/* Hand the cumulative expectation *cum (after adding x) over as a whole-number increase. */
static uint64_t whole(double *cum, double x, uint64_t *given)
{
	uint64_t now;

	*cum += x;
	now = (uint64_t)llround(*cum);
	if (now <= *given)
		return 0;
	now -= *given;
	*given += now;
	return now;
}

/* n served requests of one atom (latency, wait), through the atom's carry. */
static uint64_t atom_count(struct fluid *f, int j, double n)
{
	double k;

	f->carry[j] += n;
	k = floor(f->carry[j]);
	f->carry[j] -= k;
	return (uint64_t)k;
}

/* Hand a period's served requests to the meter, at now_us, in atoms. */
static void give_served(struct fluid *f, int64_t now_us, const struct fluid_out *o)
{
	struct meter *m = f->meter;
	double plain = o->served - o->waited;
	uint64_t viol = whole(&f->cum_viol, o->violations, &f->given_viol);
	uint64_t viol_s = whole(&f->cum_viol_service, o->viol_service, &f->given_viol_service);

	if (viol_s > viol)
		viol_s = viol;
	for (int i = 0; i < FLUID_S_ATOMS; i++) {
		uint64_t k = atom_count(f, i, plain * f->s_weight[i]);
		meter_served_batch(m, now_us, f->s_atom[i], 0, k, 0, 0, 0, (double)k * f->s_atom[i] * SIM_US_PER_S);
		for (int w = 0; w < FLUID_W_ATOMS; w++) {
			double wait = o->wait_mean_s;
			if (!o->wait_fixed && o->waited > 0)
				wait = o->wait_mean_s * f->w_unit[w];
			k = atom_count(f, FLUID_S_ATOMS * (w + 1) + i,
				       o->waited * f->s_weight[i] * (w_levels[w + 1] - w_levels[w]));
			meter_served_batch(m, now_us, wait + f->s_atom[i], wait, k, 0, 0, k,
					   (double)k * (wait + f->s_atom[i]) * SIM_US_PER_S);
		}
	}
	/* the violations are counted from the formulas, not from the atoms (they are coarse) */
	meter_served_batch(m, now_us, 0, 0, 0, viol, viol_s, 0, 0);
}

static void on_tick(struct engine *eng, struct event *ev);

int fluid_start(struct fluid *f)
{
	int64_t t1 = f->sc->fluid_period_us < f->sc->horizon_us ? f->sc->fluid_period_us : f->sc->horizon_us;

	f->t0_us = 0;
	f->service_at_t0 = 0;
	return engine_schedule(f->eng, &f->tick, t1, on_tick);
}

int64_t fluid_queue_len(const struct fluid *f)
{
	return (int64_t)llround(f->backlog);
}

/* Add one period's integrals to the meter: busy slot-time by option kind (shared out as the instances
 * paid for now), the queue, and the time under- and over-provisioned (replacing what advance_to counted,
 * which sees no request). */
static void give_integrals(struct fluid *f, const struct fluid_out *o)
{
	struct meter *m = f->meter;
	int live = 0;

	for (int k = 0; k < OPTION_KIND_COUNT; k++)
		live += m->live[k];
	for (int k = 0; k < OPTION_KIND_COUNT && live > 0; k++) {
		double b = o->busy_slot_s * SIM_US_PER_S * m->live[k] / live;
		m->busy_slot_us[k] += b;
		m->busy_slot_us_all += b;
	}
	m->queued_us += o->queued_s * SIM_US_PER_S;
	if (m->in_service > 0)
		m->queued_served_us += o->queued_s * SIM_US_PER_S;
	f->under_us += o->under_s * SIM_US_PER_S;
	f->over_us += o->over_s * SIM_US_PER_S;
	m->under_us = f->under_us;
	m->over_us = f->over_us;
}

static void on_tick(struct engine *eng, struct event *ev)
{
	struct fluid *f = container_of(ev, struct fluid, tick);
	const struct scenario *sc = f->sc;
	struct meter *m = f->meter;
	int64_t t1 = eng->now_us, next;
	struct fluid_in in;
	struct fluid_out o;
	bool measured = f->t0_us >= sc->warmup_us;

	meter_advance(m, t1);
	in.period_s = (double)(t1 - f->t0_us) / SIM_US_PER_S;
	in.arrivals = fluid_rate_integral(sc, f->t0_us, t1);
	in.servers = (m->service_inst_us - f->service_at_t0) / (double)(t1 - f->t0_us) * sc->serving.slots;
	in.backlog = f->backlog;
	fluid_period(&f->md, sc->serving.slots, &in, &o);
	f->backlog = o.backlog;
	/* the arrivals every policy and sample reads, rounded cumulatively */
	f->cum_arrivals += in.arrivals;
	m->arrivals = (uint64_t)llround(f->cum_arrivals);
	give_integrals(f, &o);
	if (measured) {
		uint64_t g;
		give_served(f, t1 - 1, &o);
		uint64_t n;
		g = m->timed_out;
		n = whole(&f->cum_timed_out, o.timed_out, &g);
		meter_dropped_batch(m, t1 - 1, DROP_TIMEOUT, n, n, o.timed_out * f->md.timeout_s * SIM_US_PER_S);
		g = m->refused;
		meter_dropped_batch(m, t1 - 1, DROP_REFUSED, whole(&f->cum_refused, o.refused, &g), 0, 0);
		g = m->floor_count;
		m->floor_count += whole(&f->cum_floor, in.arrivals * fluid_service_sf(&f->md, f->md.slo_s), &g);
		for (int i = 0; i < METER_SLO_PCTS; i++)
			if (sc->slo.latency_pct_us[i] > 0) {
				g = m->floor_pct[i];
				m->floor_pct[i] += whole(&f->cum_floor_pct[i], in.arrivals * fluid_service_sf(&f->md,
							 (double)sc->slo.latency_pct_us[i] / SIM_US_PER_S), &g);
			}
	}
	f->t0_us = t1;
	f->service_at_t0 = m->service_inst_us;
	next = t1 + sc->fluid_period_us < sc->horizon_us ? t1 + sc->fluid_period_us : sc->horizon_us;
	if (next > t1) {
		int rc = engine_schedule(eng, &f->tick, next, on_tick);
		if (rc != STATUS_OK) {
			meter_fail(m, rc);
			engine_stop(eng);
		}
	}
}

void fluid_close(struct fluid *f)
{
	struct meter *m = f->meter;
	int64_t now = f->sc->horizon_us;
	double mu_c = (double)m->in_service * f->sc->serving.slots / f->md.mean_s;
	uint64_t n = (uint64_t)llround(f->backlog);

	if (n > 0 && f->sc->horizon_us > f->sc->warmup_us) {
		if (mu_c > 0) {
			double w = 0.5 * f->backlog / mu_c;  /* served in order: the mean wait is half the drain */
			meter_served_batch(m, now, w + f->md.mean_s, w, n, 0, 0, n,
					   (double)n * (w + f->md.mean_s) * SIM_US_PER_S);
			uint64_t v = (uint64_t)llround(f->backlog * fluid_service_sf(&f->md, f->md.slo_s - w));
			meter_served_batch(m, now, 0, 0, 0, v, 0, 0, 0);
		} else {
			meter_dropped_batch(m, now, DROP_UNSERVED, n, n, 0);
		}
	}
	f->backlog = 0;
	/* the measured requests are those handed over, served or dropped (fluid.h: rounded expectations) */
	m->requests = m->served + m->timed_out + m->refused + m->unserved + m->interrupted_dropped;
}
