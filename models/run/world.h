/*
 * world: one simulation of one scenario, from the first arrival to the last metric.
 *
 * world_run() wires the pieces together: the workload's arrivals feed serving; serving fills the fleet's
 * instances; every autoscaling resolution the autoscaler (autoscale.h) measures the metrics, asks the
 * policies and sets the fleet's desired capacity (or the copies'); the meter adds everything up and streams
 * samples and events to the sink. world.c is that wiring only: it sets the models up in order, takes the
 * samples, runs the loop to the horizon, drains and settles, and reports.
 *
 * Phases: at t = 0 the fleet holds its starting instances, warm. Until the horizon, everything runs. At the
 * horizon, arrivals stop, the bill and the GPU-hour integrals close, and no instance launches or becomes
 * ready any more; then the requests already in the system run to completion on the instances still serving
 * (so every request that arrived is either served or dropped: requests_total = served + dropped), and what
 * can never be served is dropped as `unserved`. Latency counts those completions; cost does not.
 *
 * Everything lives in one heap object made and freed inside world_run; no global state. The same scenario
 * (and seed) gives the same metrics, byte for byte, apart from wall_s.
 */
#ifndef GPUCAP_WORLD_H
#define GPUCAP_WORLD_H

#include "diag.h"
#include "meter.h"
#include "savings.h"
#include "scenario.h"
#include "sink.h"
#include "warn.h"

struct world_report {
	struct sink_metric metrics[METER_MAX_METRICS];  /* every metric, in report order */
	int nmetrics;
	struct sink_warning warnings[WARN_MAX];          /* the run's warnings (warn.h), in warn_collect order */
	int nwarnings;
};

/*
 * Run sc, streaming results to sink (begin ... end). On success the sink's end() got STATUS_OK and *rep
 * holds the metrics and warnings; on failure end() got the failure, the message is in *d, and the status is returned.
 */
int world_run(const struct scenario *sc, struct sink *sink, const char *version, struct world_report *rep,
	      struct diag *d);

/*
 * Told how far a run has got: fn(arg, t_s, horizon_s) once per sample period, from inside the event loop,
 * with the simulated time now and the horizon in seconds. It must be cheap (look at the wall clock, print
 * a line now and then) and must not touch the simulation; the run's results do not depend on it.
 */
struct world_progress {
	void (*fn)(void *arg, double t_s, double horizon_s);  /* called per sample period */
	void *arg;                                           /* passed to fn, kept */
};

/* How a run is carried out, apart from what it computes: its results do not depend on these. */
struct world_options {
	const struct world_progress *progress;  /* told how far the run has got; NULL: nobody (borrowed) */
	bool one_thread;  /* draw the requests on the simulation's own thread; by default (false) they are
	                     drawn ahead on a second thread where the workload allows it (feed.h) */
};

/*
 * The environment's GPUCAP_THREADS: unset, empty or "2" (the default: requests drawn ahead on a second
 * thread) leaves *one_thread false, "1" sets it; anything else is STATUS_EUSAGE with a message in *d (and
 * *one_thread false). Runs given no options (world_run, world_run_usage: sweeps' and recommend's workers)
 * take it from here; the command line checks it once at start-up.
 */
int world_threads_env(bool *one_thread, struct diag *d);

/* As world_run, carried out as opts says (borrowed for the call; NULL: the defaults, GPUCAP_THREADS). */
int world_run_opts(const struct scenario *sc, struct sink *sink, const char *version,
		   const struct world_options *opts, struct world_report *rep, struct diag *d);

/*
 * As world_run, also handing back the run's Savings-Plan-eligible usage by UTC clock hour (savings.h), as the
 * plans were settled against it (what the scenario's regional RIs, applied first, left of it): the measured window's hours ([warmup, horizon), each len_h the part of its
 * clock hour inside it) when the scenario has a warm-up, else the whole window's. On success *hours is a new
 * array of *nhours entries (returns owned: free() it); on failure both are left as they were. The usage does
 * not depend on the plans' commitments (a plan changes the bill, never the fleet), so one run gives the bill
 * of any commitment (analysis/recommend.h).
 */
/*
 * The scenario's regional RIs (its `reserved` commitments) as the bill applies them (savings.h), in list
 * order, with from[i] (may be NULL) the commitments index of ris[i]; returns how many.
 */
int world_ri_terms(const struct scenario *sc, struct savings_ri_terms ris[SCENARIO_COMMIT_MAX],
		   int from[SCENARIO_COMMIT_MAX]);

int world_run_usage(const struct scenario *sc, struct sink *sink, const char *version, struct world_report *rep,
		    struct savings_hour **hours, int *nhours, struct diag *d);

/* The value of metric `name` in rep, or NaN if absent. */
double world_report_get(const struct world_report *rep, const char *name);

/*
 * What the run of sc (borrowed) could take in memory at most, by part (models/README.md, "Limits"), into *out: a full
 * queue, serving.max_queue x WORLD_QUEUED_REQUEST_BYTES; the fleet pool, every instance the fleet entries
 * may hold (the sum of their max) x (an instance + slots_per_instance requests in service); the meter's
 * per-clock-hour arrays, the clock hours the horizon touches x WORLD_HOUR_BYTES. The results staged for the
 * database are bounded apart (store_limit.h). Nothing is allocated (world_memory.c).
 */
void world_memory_estimate(const struct scenario *sc, struct warn_memory *out);

#endif
