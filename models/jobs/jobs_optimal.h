/*
 * jobs_optimal: the offline optimum of one deadline job on Spot and On-Demand, the yardstick a policy's
 * cost is measured against ("Can't Be Late", Wu et al., NSDI 2024, §3.1 and §5.3 "Omniscient
 * (Homogeneous)"; SOURCES.md [cant-be-late]). Pure: no engine, no fleet, no I/O; called once per job after
 * a run, so it allocates its working arrays with malloc and frees them before it returns.
 *
 * The model (the contract):
 * - The job needs compute_us (T) of progress between submit_us and deadline_us (absolute simulation times,
 *   us). It runs as a gang of `instances` (N) instances, all of one kind at a time: its mode is idle, spot
 *   or on-demand.
 * - Spot availability: avail[0..navail) instance counts per tick of gap_us, tick i covering
 *   [i * gap, (i + 1) * gap) from time 0, repeating past the end: count(t) = avail[(t / gap) mod navail].
 *   Spot is usable at t iff count(t) >= N. On-demand is always usable.
 * - A changeover happens whenever the job starts running in a mode it was not running in just before (from
 *   idle, from the other mode, or on Spot again after Spot became unusable). Its first overhead_spot_us
 *   (entering Spot) or overhead_od_us (entering On-Demand) of running make no progress; after that progress
 *   grows 1:1 with running time. Progress is never lost (free, continuous checkpoints; no node failures).
 *   Going idle costs nothing. Spot becoming unusable ends a spot segment at that instant (forced).
 * - Cost: N x price x running time; Spot at spot_price(price_ctx, t) per instance-hour (the price in force
 *   at the start of each step, see below; spot_usd_per_h when spot_price is NULL), On-Demand at
 *   od_usd_per_h. The job stops paying at the instant its progress reaches T.
 * - first_hour_free (AWS, "Interrupted in the first hour: No charge"; SOURCES.md [spot-billing]): a spot
 *   segment ended by Spot becoming unusable less than hour_us (3600 s when 0; tests shorten it) after it
 *   began costs nothing. One ended by the job (idle or On-Demand), by completion, or that reached hour_us
 *   pays in full. (AWS counts the hour per instance from its launch; here per segment of the gang.)
 * - Decisions are made on a grid of steps: from submit, steps of delta, each cut short at a tick boundary
 *   (the next step starts there) and at the deadline; so a step is at most delta long and lies inside one
 *   tick, and the mode is fixed within it. When delta divides gap and submit is a multiple of delta, every
 *   step but perhaps the last is delta long.
 *
 * What is computed: the minimum cost over the plans on that grid, by backward dynamic programming over the
 * steps with state (remaining progress in units of delta, mode, age of the segment in steps), two layers.
 * Progress and overheads are counted in whole steps, rounded in the job's favour: T and the overheads are
 * rounded down to multiples of delta, and a step shorter than delta (one cut short by a tick boundary or
 * the deadline) counts as a whole delta of progress or overhead while it costs its true length. The
 * first-hour refund uses the true length of the segment. The price is read once per step, at its start.
 * What the figure is, then:
 * - When delta divides gap, the two overheads, T and submit, and the deadline is on the grid, it is the
 *   exact minimum over the plans on the grid (tests/check_jobs_optimal.c: against every plan, first hour
 *   free or not).
 * - Otherwise, without first_hour_free, it is a lower bound on every plan on the grid: rounded progress is
 *   never behind the true progress, and a plan never pays more for having progressed more.
 * - With first_hour_free that last argument fails, and the figure is NOT a bound: a segment ended by Spot
 *   just before the job would finish is free while completion pays, so more progress can cost more. For
 *   the same reason a plan that changes mode between grid points can beat every grid plan (its free
 *   segments end a sliver short of completion and its last, paid one is a sliver long); the figure is the
 *   grid's optimum, which can only fall as delta is refined onto a finer grid containing it.
 * - Without first_hour_free and with everything on the grid we expect no plan off the grid to be cheaper
 *   (costs and progress are linear in time between grid points), but this is not proven.
 *
 * delta: resolution_us if > 0; else (auto) g = gcd(gap, overhead_spot, overhead_od, T, submit mod gap,
 * deadline - submit) (zeros left out: gcd(x, 0) = x) when g is a whole number
 * of seconds with 1 s <= g and 60 g >= gap; otherwise the largest whole-second divisor of gap that is <=
 * max(1 s, gap / 60) (1 s when gap is not a whole number of seconds). Then, in both cases, while
 * (deadline - submit) / delta x (T / delta + 1) > JOBS_OPT_MAX_WORK or (deadline - submit) / delta >
 * JOBS_OPT_MAX_STEPS, delta is raised to the next whole-second divisor of gap (gap at most), to bound the
 * time and memory taken: every step inside a tick stays delta long, so the progress counted is the true
 * progress and only T and the overheads are rounded (down). If delta = gap is still over the bound the job
 * is out of range (STATUS_EINPUT). An explicit resolution_us is used as given. The delta used is in the
 * result.
 *
 * Errors: STATUS_EINPUT for malformed input (submit < 0, submit >= deadline, T < 0, N < 1, no avail,
 * gap <= 0, a negative count, overhead, hour or resolution, a negative or non-finite price, a delta or
 * gap so fine that T / delta > 2^30 or the steps would not fit an int, or an automatic resolution over the
 * bound even at one step per tick). STATUS_ENOMEM if malloc fails (an
 * explicit resolution_us is not coarsened, so its caller bounds the memory: about 48 bytes x T / delta x
 * the modes, 1 + both overheads / delta, or + an hour / delta with first_hour_free). STATUS_DONE (not an
 * error) when the job cannot make its deadline even with its progress rounded in its favour, e.g.
 * T + overhead_od > deadline - submit with Spot never usable: then cost_usd = INFINITY and spot_h = od_h =
 * 0. On any other status *out is unchanged.
 */
#ifndef GPUCAP_JOBS_OPTIMAL_H
#define GPUCAP_JOBS_OPTIMAL_H

#include <stdbool.h>
#include <stdint.h>

/* The work bound for the automatic resolution: steps x progress units. */
#define JOBS_OPT_MAX_WORK 4e7
/* The bound on the steps for the automatic resolution (each keeps about 30 bytes). */
#define JOBS_OPT_MAX_STEPS 1e6

struct jobs_opt_input {
	int64_t submit_us;               /* when the job may start, absolute simulation time, us */
	int64_t deadline_us;             /* when its progress must have reached compute_us, us */
	int64_t compute_us;              /* T: the progress needed, us of running */
	int instances;                   /* N: instances of the gang */
	const int *avail;                /* Spot instance counts per tick (borrows); navail of them */
	int navail;                      /* ticks in avail (>= 1); the pattern repeats */
	int64_t gap_us;                  /* length of one tick, us */
	int64_t overhead_spot_us;        /* running without progress after entering Spot, us */
	int64_t overhead_od_us;          /* running without progress after entering On-Demand, us */
	double (*spot_price)(void *ctx, int64_t t_us);  /* Spot USD per instance-hour at t; NULL: constant */
	void *price_ctx;                 /* passed to spot_price (borrows) */
	double spot_usd_per_h;           /* Spot USD per instance-hour when spot_price is NULL */
	double od_usd_per_h;             /* On-Demand USD per instance-hour */
	bool first_hour_free;            /* a spot segment interrupted within hour_us costs nothing */
	int64_t hour_us;                 /* the free hour's length, us; 0: 3600 s (tests shorten it) */
	int64_t resolution_us;           /* delta, us; 0: automatic (see above) */
};

struct jobs_opt_result {
	double cost_usd;                 /* the minimum cost, USD (INFINITY when infeasible) */
	double spot_h;                   /* hours the gang ran on Spot in one optimal plan (per instance) */
	double od_h;                     /* hours the gang ran on On-Demand in that plan (per instance) */
	int64_t resolution_us;           /* delta used, us */
};

/*
 * The minimum cost of `in`'s job over the plans on the grid (see above), with the Spot and On-Demand hours of
 * one optimal plan: among equal costs (to 1e-12 relative) the one with fewer On-Demand hours. Borrows in;
 * writes *out. Returns STATUS_OK, STATUS_DONE (infeasible), STATUS_EINPUT or STATUS_ENOMEM.
 */
int jobs_opt_solve(const struct jobs_opt_input *in, struct jobs_opt_result *out);

/* The delta jobs_opt_solve would use for in (resolution_us if > 0, else the automatic rule); in must be
 * valid (jobs_opt_solve checks it). */
int64_t jobs_opt_resolution(const struct jobs_opt_input *in);

#endif
