/*
 * fluid: `mode: fluid`, a fast path for long horizons (models/README.md, "Fluid mode").
 *
 * The world (world.c) runs as in request mode, with the same fleet, purchase options, bills, policies,
 * samples and meter; only the requests are replaced: instead of one event per request, one tick per
 * fluid.period_s ends the period [t0, t1) and computes it from formulas:
 *   - arrivals: the integral of the arrival rate over the period (fluid_rate.c), A; lambda = A / T;
 *   - capacity: c = the time-average of the instances in service over the period (the meter's integral)
 *     x slots_per_instance; S the service time, mean E[S], squared coefficient of variation cs^2;
 *   - no backlog and lambda E[S] < c: the period is stationary M/G/c (with random routing to per-instance
 *     queues, serving.queue per_instance: n = c / slots_per_instance independent M/G/slots queues, each at
 *     lambda / n, Poisson splitting; the formulas below then take slots for c and lambda / n for lambda). P(wait) = Erlang C(c, a) (SOURCES.md [erlang-c]),
 *     a = lambda E[S] (fractional c: linear between floor and ceil); the wait of a request that waits is exponential
 *     with mean (1 + cs^2) / 2 / (c / E[S] - lambda) (Allen-Cunneen, SOURCES.md [allen-cunneen]); with a
 *     queue timeout tau, the waits beyond tau are timeouts; P(latency > slo) = (1 - C) P(S > slo) +
 *     C E[P(S > slo - W), W <= tau] (fluid_wait.c: tabulated in the wait's mean once per run); these formulas
 *     assume the queue never holds max_queue: a period where it does with probability C rho^max_queue >
 *     FLUID_FULL_MAX fails the run, naming the key (on_tick);
 *   - otherwise (a backlog q carried in, or lambda E[S] >= c): a fluid queue, dq/dt = lambda - c / E[S],
 *     until it empties (the rest of the period is then stationary as above); a request that would wait
 *     longer than tau (q / (c / E[S]) > tau) times out, and the queue never holds more than max_queue (the
 *     excess is refused); served requests wait the backlog's drain time, q / (c / E[S]), which runs
 *     linearly from the part's first q to its last: uniform between the two.
 * Expected counts are kept as doubles and handed to the meter as whole requests: each outcome's cumulative
 * total is rounded and its increase passed on, so the run's counts are the rounded expectations. The
 * latency percentiles come from each period's distribution of latency, L = W + S with W the mixture above
 * (none, the truncated exponential, the uniform drain times) and S independent of it (SOURCES.md
 * [wait-convolution]), whose mass goes into the meter's histogram buckets by its distribution function at
 * their edges (fluid_dist.c), once per clock hour and SLO window.
 * Nothing random is drawn here; the fleet still draws its own (Spot interruptions, ICE outages).
 */
#ifndef GPUCAP_FLUID_H
#define GPUCAP_FLUID_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "hist.h"
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
	bool per_instance;       /* random routing to per-instance queues: the stationary part is c / slots
	                            independent M/G/slots queues at lambda / (c / slots) each (fluid.c) */
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

/* One period's expected outcomes (requests are fractional). The served are plain + exp_served +
 * drain_served: those that did not wait, those of the stationary part that waited (an exponential wait of
 * mean exp_mean_s truncated at tau), and those of the fluid part, whose waits are spread evenly between
 * drain_w0_s and drain_w1_s (the backlog's drain time at the part's start and end). */
struct fluid_out {
	double served;         /* requests served (of the backlog and the arrivals) */
	double timed_out;      /* dropped after waiting tau */
	double refused;        /* refused: the queue was full, or a realtime endpoint had no capacity */
	double backlog;        /* requests waiting at the period's end (fluid) */
	double busy_slot_s;    /* busy slot-seconds */
	double queued_s;       /* request-seconds waited (the integral of the queue) */
	double waited;         /* served requests that waited (exp_served + drain_served) */
	double wait_mean_s;    /* mean wait of a served request that waited */
	double plain;          /* served without waiting */
	double exp_served;     /* served after an exponential wait (stationary part) */
	double exp_mean_s;     /* its mean before the truncation, m */
	double drain_served;   /* served from the fluid queue */
	double drain_w0_s, drain_w1_s;  /* their waits, uniform between these */
	double full;           /* P(the stationary part's queue holds max_queue or more), C rho^max_queue: its
	                          formulas assume it never does (nobody refused) */
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

/* A run whose stationary queue reaches max_queue with a probability above this fails (fluid.c, on_tick). */
#define FLUID_FULL_MAX 1e-4

/* Compute one period (pure). slots: per instance (for over_s). */
void fluid_period(const struct fluid_model *md, int slots, const struct fluid_in *in, struct fluid_out *out);

/* The drain waits uniform on [w0, w1] as fluid_drain_atoms(md, w0, w1) atoms of equal share, the k-th at
 * fluid_drain_atom(w0, w1, k, n): the middles of n equal slices, spaced at most 1% of E[S] + max(w0, w1)
 * apart (at most FLUID_DRAIN_ATOMS). Percentiles and violations use the same atoms. */
#define FLUID_DRAIN_ATOMS 64
int fluid_drain_atoms(const struct fluid_model *md, double w0, double w1);
double fluid_drain_atom(double w0, double w1, int k, int n);

/*
 * fluid_dist: a fluid run's latency distribution, fed into histograms bucket by bucket (fluid_dist.c). A
 * share of the served requests waited exactly w (fixed: none, or a drain time), another share an exponential
 * wait of mean m truncated at tau; each latency is that wait plus an independent S. Its mass in each
 * histogram bucket is the difference of its distribution function at the bucket's edges, tabulated once per
 * run on grids of w and of m (ratio 1.02), both from E[S] x 1e-3 up to tau (100 tau for m),
 * or 1e7 s without a timeout; a value between two grid points puts its requests on both, in proportion
 * (linear in log w or log m; linear in w or m between none and the first point). Rows are computed the
 * first time they are used, into storage allocated by fluid_dist_init: nothing is allocated per period.
 */
struct fluid_dist {
	struct fluid_model md;     /* copied (its vtab not used) */
	int nd, ne, nrows;         /* rows: 0 no wait, 1 .. nd - 1 fixed waits, then ne exponential waits */
	double w_lo, m_lo;         /* the first fixed wait, the first exponential mean */
	double w_step, m_step;     /* the grids' steps, in log */
	double *edge;              /* HIST_BUCKETS + 2: mass index i (hist_add_mass) covers [edge[i], edge[i + 1]) */
	double *cdf, *pdf;         /* P(S <= edge[i]) and S's density there */
	double *scratch;           /* HIST_BUCKETS + 2: a row's J at the edges (fluid_dist.c) */
	int *lo, *hi;              /* each row's first and last mass index */
	size_t *off;               /* where each row's masses start in rows */
	unsigned char *ready;      /* each row computed */
	double *rows;              /* every row's masses, each summing to 1 */
	double *weight;            /* requests on each row, this tally */
	double *run_weight;        /* requests on each exponential row, the whole run (for the waits) */
	int *touched;              /* the rows with weight, this tally */
	int ntouched;
	double *mass;              /* HIST_BUCKETS + 1: scratch, zero between tallies */
	double *wait_mass;         /* HIST_BUCKETS + 1: the run's waits, but those of the exponential rows */
	double sum_s;              /* this tally's latencies summed */
	double wait_sum_s;         /* the run's waits summed */
	double carry, wait_carry;  /* rounding carried (hist_add_mass) */
};

/* Set up for md (copied); STATUS_OK or STATUS_ENOMEM. fluid_dist_fini frees (also after a failed init, and
 * on a zeroed struct). */
int fluid_dist_init(struct fluid_dist *d, const struct fluid_model *md);
void fluid_dist_fini(struct fluid_dist *d);

/* n served requests (fractional) that waited exactly w seconds (0: no wait), or an exponential wait of mean
 * m truncated at md->timeout_s; added to this tally and to the run's waits. */
void fluid_dist_fixed(struct fluid_dist *d, double n, double w);
void fluid_dist_exp(struct fluid_dist *d, double n, double m);

/* Empty h and fill it with this tally's requests (rounded, hist_add_mass, the rounding carried to the next
 * tally); the tally starts again empty. Returns h->n. */
uint64_t fluid_dist_tally(struct fluid_dist *d, struct hist *h);

/* Empty h and fill it with the run's waits, n values in all (the rounded total of the requests handed to
 * fluid_dist_fixed and fluid_dist_exp, but n decides: the no-wait bucket takes the difference). */
void fluid_dist_waits(struct fluid_dist *d, struct hist *h, uint64_t n);

/* The expected arrivals in [t0_us, t1_us): the integral of the scenario's rate (fluid_rate.c). */
double fluid_rate_integral(const struct scenario *sc, int64_t t0_us, int64_t t1_us);

/* The fluid run: the world owns it (caller-owned storage, fluid_init; fluid_fini frees its tables). */
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
	double vtab[FLUID_VTAB_N];           /* log V(m) on its grid (md.vtab points here) */
	struct fluid_dist dist;              /* the latency distribution of the served */
	struct hist tally;                   /* scratch: one tally's latencies, handed to the meter */
	int64_t tally_end_us;                /* the tally being gathered ends here (meter_tally_end) */
	bool tally_open;                     /* a measured period is in it */
	int64_t tally_now_us;                /* its last period's hand-over time */
	double cum_arrivals, cum_timed_out, cum_refused, cum_viol, cum_viol_service, cum_floor, cum_waited;
	double cum_floor_pct[METER_SLO_PCTS];  /* expectations so far */
	uint64_t given_viol, given_viol_service, given_waited;  /* handed to the meter so far */
};

/* Set up for sc (borrowed for the run), on eng and meter (kept); STATUS_OK or STATUS_ENOMEM (the tables of
 * fluid_dist). fluid_fini frees them (also after a failed init). */
int fluid_init(struct fluid *f, const struct scenario *sc, struct engine *eng, struct meter *meter);
void fluid_fini(struct fluid *f);

/* Schedule the first tick (at the first period's end); STATUS_OK or the engine's failure. */
int fluid_start(struct fluid *f);

/* Requests waiting now, rounded (for samples). */
int64_t fluid_queue_len(const struct fluid *f);

/* At the horizon: the backlog is served on the capacity still in service (its waits spread evenly up to
 * backlog / capacity), or dropped as unserved when there is none; the last tally and the run's waits go to
 * the meter, and its request counts are closed. */
void fluid_close(struct fluid *f);

#endif
