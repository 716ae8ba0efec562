/* fluid: see fluid.h. */
#include "fluid.h"

#include <math.h>

#include "diag.h"
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
		out->viol_service += served * fluid_service_sf(md, md->slo_s);
		if (q0 > 0 || q1 > 0) {
			/* the drain time q / mu_c runs linearly from q0's to q1's: the served waits spread evenly */
			double w0 = q0 / mu_c, w1 = q1 / mu_c, v = 0;
			int n = fluid_drain_atoms(md, w0, w1);
			for (int k = 0; k < n; k++)
				v += fluid_service_sf(md, md->slo_s - fluid_drain_atom(w0, w1, k, n));
			out->violations += served * v / n;
			out->drain_served += served;
			out->drain_w0_s = w0;
			out->drain_w1_s = w1;
			out->waited += served;
		} else {
			out->violations += served * fluid_service_sf(md, md->slo_s);
			out->plain += served;
		}
	}
	*q = q1;
	return t;
}

int fluid_drain_atoms(const struct fluid_model *md, double w0, double w1)
{
	double n = ceil(fabs(w1 - w0) / (0.01 * (md->mean_s + (w0 > w1 ? w0 : w1))));

	return !(n >= 1) ? 1 : n > FLUID_DRAIN_ATOMS ? FLUID_DRAIN_ATOMS : (int)n;
}

double fluid_drain_atom(double w0, double w1, int k, int n)
{
	return w0 + (w1 - w0) * (k + 0.5) / n;
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

/*
 * The stationary part: t seconds at lambda with no backlog, lambda E[S] < c. Pooled (a central queue): M/G/c.
 * Random routing to per-instance queues (md->per_instance, more than one instance's slots): n = c / slots
 * queues of `slots` servers at a / n each; P(wait) and the wait's mean are one queue's; requests are
 * waiting somewhere with probability 1 - (1 - rho_i C_i)^n (independent queues); the fleet's queue reaches
 * max_queue about when one queue reaches max_queue / n. Whether a whole instance's slots are idle (over_s)
 * stays the pooled figure: it is about capacity, not routing.
 */
static void stationary_part(const struct fluid_model *md, int slots, double lambda, double c, double t,
			    struct fluid_out *out)
{
	double n = lambda * t, a = lambda * md->mean_s, p_over, cw, m, tau = md->timeout_s, keep, served;
	double waiting, full;

	if (n <= 0) {
		out->over_s += c >= slots ? t : 0;
		return;
	}
	cw = erlang_frac(c, a, slots, &p_over);
	m = 0.5 * (1.0 + cs2_of(md)) / (c / md->mean_s - lambda);
	waiting = cw * a / c;  /* P(N > c) = rho C */
	full = cw * exp(md->max_queue * log(a / c));  /* P(queue >= K) = C rho^K (M/M/c) */
	if (md->per_instance && c > slots) {
		double ni = c / slots, ai = a / ni, p_unused;
		cw = erlang_frac(slots, ai, slots, &p_unused);
		m = 0.5 * (1.0 + cs2_of(md)) / (slots / md->mean_s - lambda / ni);
		waiting = -expm1(ni * log1p(-cw * ai / slots));
		full = cw * exp(md->max_queue / ni * log(ai / slots));
	}
	keep = tau > 0 ? -expm1(-tau / m) : 1.0;  /* P(W <= tau | waits) */
	out->timed_out += n * cw * (1 - keep);
	served = n * (1 - cw * (1 - keep));
	out->served += served;
	out->busy_slot_s += served * md->mean_s;
	/* E[min(W, tau) | waits] = m keep; the timed out waited tau, inside it */
	out->queued_s += n * cw * m * keep;
	out->waited += n * cw * keep;
	out->plain += n * (1 - cw);
	out->exp_served += n * cw * keep;
	out->exp_mean_s = m;
	out->violations += n * ((1 - cw) * fluid_service_sf(md, md->slo_s) +
				cw * keep * fluid_wait_violation(md, m));
	out->viol_service += served * fluid_service_sf(md, md->slo_s);
	out->under_s += t * waiting;
	/* the largest over the period's parts */
	if (full > out->full)
		out->full = full;
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
	if (out->waited > 0) {
		double m = out->exp_mean_s, tau = md->timeout_s, keep = tau > 0 && m > 0 ? -expm1(-tau / m) : 1;
		double exp_w = !(m > 0) ? 0 : tau > 0 ? m - tau * (1 - keep) / keep : m;  /* E[W | W <= tau] */
		out->wait_mean_s = (out->drain_served * 0.5 * (out->drain_w0_s + out->drain_w1_s) +
				    out->exp_served * exp_w) / out->waited;
	}
}

/* ---- the run ------------------------------------------------------------------------------------ */

int fluid_init(struct fluid *f, const struct scenario *sc, struct engine *eng, struct meter *meter)
{
	*f = (struct fluid){ .sc = sc, .eng = eng, .meter = meter };
	f->md = (struct fluid_model){ .kind = sc->service.kind, .mean_s = sc->service.mean_s,
		.cv = sc->service.kind == SERVICE_LOGNORMAL ? sc->service.cv : 0,
		.slo_s = (double)sc->slo.latency_us / SIM_US_PER_S,
		.timeout_s = (double)sc->serving.queue_timeout_us / SIM_US_PER_S,
		.max_queue = sc->serving.max_queue, .realtime = sc->serving.endpoint == ENDPOINT_REALTIME,
		.per_instance = sc->serving.queue == QUEUE_PER_INSTANCE };
	if (f->md.slo_s > 0)
		fluid_wait_tabulate(&f->md, f->vtab);
	engine_event_init(&f->tick);
	return fluid_dist_init(&f->dist, &f->md);
}

void fluid_fini(struct fluid *f)
{
	fluid_dist_fini(&f->dist);
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

/* Hand the open tally's latencies to the meter (at its last period's time: its hour and window). */
static void tally_close(struct fluid *f)
{
	if (!f->tally_open)
		return;
	fluid_dist_tally(&f->dist, &f->tally);
	meter_served_batch(f->meter, f->tally_now_us, &f->tally, 0, 0, 0, f->tally.sum_s * SIM_US_PER_S);
	f->tally_open = false;
}

/* Requests are about to be handed over at now_us: close the tally if now_us is in another clock hour or
 * SLO window (before the meter enters it), and open one if none is. */
static void tally_enter(struct fluid *f, int64_t now_us)
{
	if (f->tally_open && now_us >= f->tally_end_us)
		tally_close(f);
	if (!f->tally_open) {
		f->tally_open = true;
		f->tally_end_us = meter_tally_end(f->meter, now_us);
	}
	f->tally_now_us = now_us;
}

/* The drain waits uniform on [w0, w1] of n served requests, as atoms (fluid_drain_atoms), into the
 * distribution; returns the share of them over the SLO. */
static double give_drained(struct fluid *f, double n, double w0, double w1)
{
	int k = fluid_drain_atoms(&f->md, w0, w1);
	double v = 0;

	for (int i = 0; i < k; i++) {
		double w = fluid_drain_atom(w0, w1, i, k);
		fluid_dist_fixed(&f->dist, n / k, w);
		v += fluid_service_sf(&f->md, f->md.slo_s - w);
	}
	return v / k;
}

/* Hand a period's served requests to the meter, at now_us: the counts now, their latencies into the tally. */
static void give_served(struct fluid *f, int64_t now_us, const struct fluid_out *o)
{
	uint64_t viol = whole(&f->cum_viol, o->violations, &f->given_viol);
	uint64_t viol_s = whole(&f->cum_viol_service, o->viol_service, &f->given_viol_service);
	uint64_t waited = whole(&f->cum_waited, o->waited, &f->given_waited);

	if (viol_s > viol)
		viol_s = viol;
	tally_enter(f, now_us);
	fluid_dist_fixed(&f->dist, o->plain, 0);
	fluid_dist_exp(&f->dist, o->exp_served, o->exp_mean_s);
	if (o->drain_served > 0)
		give_drained(f, o->drain_served, o->drain_w0_s, o->drain_w1_s);
	/* the violations are counted from the formulas (fluid_period), beside the distribution */
	meter_served_batch(f->meter, now_us, NULL, viol, viol_s, waited, 0);
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
	if (o.full > FLUID_FULL_MAX && m->status == STATUS_OK) {
		/* requests would be refused at the queue's limit, which the stationary formulas do not model */
		meter_fail(m, STATUS_EINPUT);
		diag_fail(m->diag, STATUS_EINPUT, "mode: fluid does not support serving.max_queue %g here: at t = %.0f s "
			  "the stationary queue reaches it with probability %.2g (its formulas refuse nobody); use "
			  "mode: requests, or a larger max_queue", f->md.max_queue, (double)t1 / SIM_US_PER_S, o.full);
		engine_stop(eng);
		return;
	}
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
			/* served in order: the waits run evenly from 0 to the whole drain time */
			uint64_t v, vs;
			tally_enter(f, now);
			v = (uint64_t)llround(f->backlog * give_drained(f, f->backlog, 0, f->backlog / mu_c));
			vs = (uint64_t)llround(f->backlog * fluid_service_sf(&f->md, f->md.slo_s));
			meter_served_batch(m, now, NULL, v, vs < v ? vs : v, n, 0);
		} else {
			meter_dropped_batch(m, now, DROP_UNSERVED, n, n, 0);
		}
	}
	f->backlog = 0;
	tally_close(f);
	fluid_dist_waits(&f->dist, &f->tally, m->served);
	meter_waits_batch(m, &f->tally);
	/* the measured requests are those handed over, served or dropped (fluid.h: rounded expectations) */
	m->requests = m->served + m->timed_out + m->refused + m->unserved + m->interrupted_dropped;
}
