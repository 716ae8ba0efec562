/*
 * fluid: `mode: fluid`, a fast path for long horizons (models/README.md, "Fluid mode").
 *
 * The world (world.c) runs as in request mode, with the same fleet, purchase options, bills, policies,
 * samples and meter; only the requests are replaced: instead of one event per request, one tick per
 * fluid.period_s ends the period [t0, t1) and computes it from formulas:
 *   - arrivals: the integral of the arrival rate over the period (fluid_rate.c), A; lambda = A / T;
 *   - capacity: c = the time-average of the instances in service over the period (the meter's integral)
 *     x slots_per_instance; S the service time, mean E[S], squared coefficient of variation cs^2;
 *   - no backlog and lambda E[S] < c: the period is stationary M/G/c. P(wait) = Erlang C(c, a) (SOURCES.md [erlang-c]),
 *     a = lambda E[S] (fractional c: linear between floor and ceil); the wait of a request that waits is exponential
 *     with mean (1 + cs^2) / 2 / (c / E[S] - lambda) (Allen-Cunneen, SOURCES.md [allen-cunneen]); with a
 *     queue timeout tau, the waits beyond tau are timeouts; P(latency > slo) = (1 - C) P(S > slo) +
 *     C E[P(S > slo - W), W <= tau] (fluid_wait.c: tabulated in the wait's mean once per run);
 *   - otherwise (a backlog q carried in, or lambda E[S] >= c): a fluid queue, dq/dt = lambda - c / E[S],
 *     until it empties (the rest of the period is then stationary as above); a request that would wait
 *     longer than tau (q / (c / E[S]) > tau) times out, and the queue never holds more than max_queue (the
 *     excess is refused); served requests wait the mean queue / (c / E[S]).
 * Expected counts are kept as doubles and handed to the meter as whole requests: each outcome's cumulative
 * total is rounded and its increase passed on, so the run's counts are the rounded expectations (the
 * latency histogram is fed in atoms: quantiles of S, and of W + S, each with its share of the served).
 * Nothing random is drawn here; the fleet still draws its own (Spot interruptions, ICE outages).
 */
#ifndef GPUCAP_FLUID_H
#define GPUCAP_FLUID_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "meter.h"
#include "scenario.h"

/* The service and queue parameters a period is computed with. */
struct fluid_model {
	enum service_kind kind;  /* constant, exponential or lognormal */
	double mean_s;           /* E[S], seconds */
	double cv;               /* coefficient of variation of S (lognormal; 1 exponential; 0 constant) */
	double slo_s;            /* the latency SLO, seconds */
	double timeout_s;        /* queue timeout, seconds; 0 = none */
	double max_queue;        /* requests the queue holds at most */
	bool realtime;           /* with c = 0 a realtime endpoint refuses arrivals; async queues them */
	const double *vtab;      /* log V(m) on a grid of log m (fluid_wait_tabulate), borrowed; NULL: integrate */
	double vtab_log_lo;      /* log of the grid's first m */
	double vtab_step;        /* its step in log m */
};

#define FLUID_VTAB_N 1500 /* points of the V(m) grid (fluid_wait.c) */

/* V(m) = P(W + S > slo | W <= tau) for W exponential with mean m truncated at md->timeout_s (none when 0):
 * interpolated in md->vtab when m is on its grid, else integrated (fluid_wait.c). */
double fluid_wait_violation(const struct fluid_model *md, double m);

/* Tabulate V on its grid into tab (FLUID_VTAB_N doubles, kept by md: md->vtab = tab). md->slo_s > 0. */
void fluid_wait_tabulate(struct fluid_model *md, double *tab);

/* One period's inputs. */
struct fluid_in {
	double period_s;   /* T, seconds */
	double arrivals;   /* expected arrivals in the period */
	double servers;    /* slots in service, time-average over the period (may be fractional) */
	double backlog;    /* requests waiting at the period's start (fluid) */
};

/* One period's expected outcomes (requests are fractional). */
struct fluid_out {
	double served;         /* requests served (of the backlog and the arrivals) */
	double timed_out;      /* dropped after waiting tau */
	double refused;        /* refused: the queue was full, or a realtime endpoint had no capacity */
	double backlog;        /* requests waiting at the period's end (fluid) */
	double busy_slot_s;    /* busy slot-seconds */
	double queued_s;       /* request-seconds waited (the integral of the queue) */
	double waited;         /* served requests that waited */
	double wait_mean_s;    /* mean wait of a served request that waited */
	bool wait_fixed;       /* their wait is wait_mean_s exactly (fluid queue), not exponential */
	double violations;     /* served requests over the SLO */
	double viol_service;   /* of which their service time alone is over it */
	double under_s;        /* seconds with requests waiting */
	double over_s;         /* seconds with nobody waiting and a whole instance's slots idle */
};

/* Erlang C: P(wait) in M/M/c with c servers and offered load a (< c), by the stable recursion of Erlang B;
 * *p_le (may be NULL) gets P(N <= k) for k < c. Returns 1 when a >= c. */
double fluid_erlang_c(int c, double a, int k, double *p_le);

/* P(S > x) for the model's service time (fluid_wait.c). */
double fluid_service_sf(const struct fluid_model *md, double x);

/* Compute one period (pure). slots: per instance (for over_s). */
void fluid_period(const struct fluid_model *md, int slots, const struct fluid_in *in, struct fluid_out *out);

/* The expected arrivals in [t0_us, t1_us): the integral of the scenario's rate (fluid_rate.c). */
double fluid_rate_integral(const struct scenario *sc, int64_t t0_us, int64_t t1_us);

#define FLUID_S_ATOMS 9   /* quantiles of S the latency histogram is fed with */
#define FLUID_W_ATOMS 4   /* quantiles of a waiting request's wait */

/* The fluid run: the world owns it (caller-owned storage, fluid_init; nothing to free). */
struct fluid {
	const struct scenario *sc;   /* kept */
	struct engine *eng;          /* kept */
	struct meter *meter;         /* kept */
	struct fluid_model md;
	struct event tick;           /* the end of each period */
	int64_t t0_us;               /* the current period's start */
	double service_at_t0;        /* meter->service_inst_us there */
	double over_us;              /* the meter's over_us as fluid computed it (advance_to's is replaced) */
	double under_us;             /* the same for under_us */
	double backlog;              /* requests waiting now (fluid) */
	double s_atom[FLUID_S_ATOMS];        /* quantiles of S */
	double s_weight[FLUID_S_ATOMS];      /* their shares */
	double w_unit[FLUID_W_ATOMS];        /* the wait atoms of a unit-mean exponential wait */
	double vtab[FLUID_VTAB_N];           /* log V(m) on its grid (md.vtab points here) */
	double carry[FLUID_S_ATOMS * (FLUID_W_ATOMS + 1)];  /* fractional requests not yet handed over, per atom */
	double cum_arrivals, cum_timed_out, cum_refused, cum_viol, cum_viol_service, cum_floor;  /* expectations so far */
	double cum_floor_pct[METER_SLO_PCTS];
	uint64_t given_viol, given_viol_service;  /* handed to the meter so far */
};

/* Set up for sc (borrowed for the run), on eng and meter (kept). */
void fluid_init(struct fluid *f, const struct scenario *sc, struct engine *eng, struct meter *meter);

/* Schedule the first tick (at the first period's end); STATUS_OK or the engine's failure. */
int fluid_start(struct fluid *f);

/* Requests waiting now, rounded (for samples). */
int64_t fluid_queue_len(const struct fluid *f);

/* At the horizon: the backlog is served on the capacity still in service (waiting backlog / capacity on
 * average), or dropped as unserved when there is none; then the meter's request counts are closed. */
void fluid_close(struct fluid *f);

#endif
