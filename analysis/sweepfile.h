/*
 * sweepfile: a sweep file (YAML), read, checked and expanded into its points.
 *
 * A sweep is a base scenario, fixed overrides for every run (`set`), a list of swept keys and, for each
 * point, one value per swept key; every point is run `replications` times with seeds base + 0, base + 1, ...
 * (the runner, sweep.h, does that). The file:
 *     name: target-vs-reserved          # required; letters, digits, '.', '_', '-' (at most 63)
 *     base: ../chat-serving.yaml        # required; relative to the sweep file's folder
 *     replications: 3                   # 1 .. SWEEPFILE_REPS_MAX, default 1
 *     set: {horizon: 2h}                # optional: KEY.PATH: scalar, as `--set KEY.PATH=VALUE`
 *     grid:  {KEY: [v, ...] | {from: A, to: B, step: S}, ...}   # exactly one of grid, zip, sample
 *     zip:   {KEY: [v, ...], ...}                                # lists of equal length
 *     sample: {n: 64, method: sobol, ranges: {KEY: [lo, hi], ...}}
 *
 * Expansion (deterministic; analysis/README.md, "Sweeps"):
 *  - grid: every combination, the first key slowest and the last fastest (nested loops in file order):
 *    point p has key k's value number (p / prod_{j>k} n_j) mod n_k.
 *  - zip: point p takes item p of every list.
 *  - sample: point p is the (p+1)-th point of GSL's Sobol sequence (gsl_qrng_sobol) in as many dimensions as
 *    `ranges` has keys, dimension k for the k-th key; coordinate u in [0, 1) becomes lo + u (hi - lo), or,
 *    when lo and hi are both written as integers, lo + floor(u (hi - lo + 1)) (capped at hi), so every
 *    integer of [lo, hi] takes an equal share of [0, 1).
 * A value written in a list is passed on exactly as written; a computed value (a range step, a Sobol point)
 * is printed as an integer when the range is of integers, otherwise with at most 15 significant digits
 * ("%.15g": 0.1 + 2 x 0.1 prints as 0.3, not 0.30000000000000004).
 *
 * Keys are scenario keys as `--set` takes them, list items by index ("fleet.0.count"); this module does not
 * check them against the scenario schema (loading each point does: sweep.h). `seed` may be neither set nor
 * swept (replications vary it). A key may not be both set and swept, nor swept twice.
 *
 * Errors: STATUS_EINPUT with "FILE:LINE:COL: KEY.PATH: what was wrong; expected what" (yamldoc.h),
 * STATUS_ENOENT when the file cannot be read, STATUS_ENOMEM. The struct owns everything it points to.
 */
#ifndef GPUCAP_SWEEPFILE_H
#define GPUCAP_SWEEPFILE_H

#include <limits.h>

#include "diag.h"

#define SWEEPFILE_NAME_MAX 64        /* bytes in a sweep name, NUL included */
#define SWEEPFILE_REPS_MAX 10000     /* replications per point, at most */
#define SWEEPFILE_RUNS_MAX 1000000   /* points x replications, at most */
#define SWEEPFILE_PARAMS_MAX 40      /* swept keys (GSL's Sobol generator has at most 40 dimensions) */
#define SWEEPFILE_SETS_MAX 200       /* fixed overrides */

enum sweepfile_form {
	SWEEPFILE_GRID,    /* every combination */
	SWEEPFILE_ZIP,     /* lists varied together */
	SWEEPFILE_SAMPLE   /* quasi-random points in ranges */
};

struct sweepfile {
	char name[SWEEPFILE_NAME_MAX];  /* `name` */
	char *path;                     /* the sweep file as given, owned */
	char *text;                     /* its full text, owned */
	char *base;                     /* `base`, resolved against the sweep file's folder, owned */
	int nreps;                      /* `replications`, >= 1 */
	char **sets;                    /* `set` as "KEY=VALUE" strings in file order, owned; nsets of them */
	int nsets;
	enum sweepfile_form form;       /* which of grid, zip, sample */
	char **params;                  /* the swept keys in file order, owned; nparams of them */
	int nparams;
	int npoints;                    /* points, >= 1; npoints x nreps <= SWEEPFILE_RUNS_MAX */
	char **values;                  /* values[p * nparams + k]: point p's value of params[k], owned */
};

/*
 * Read and expand the sweep file at `path` (borrowed) into sf (caller-owned storage). On failure sf is
 * zeroed and *d holds the message. sweepfile_fini() must be called after success (harmless after failure).
 */
int sweepfile_load(struct sweepfile *sf, const char *path, struct diag *d);

/* Parse `text` (borrowed) as if read from `path` (borrowed; used for messages and to resolve `base`). */
int sweepfile_parse(struct sweepfile *sf, const char *text, const char *path, struct diag *d);

/* Free what sf owns and zero it. NULL and a zeroed struct are allowed. */
void sweepfile_fini(struct sweepfile *sf);

/* The number of runs: npoints x nreps. */
int sweepfile_runs(const struct sweepfile *sf);

#endif
