/*
 * sweep: running a sweep file's points x replications into a results database, in worker processes.
 *
 * Run i of a sweep (0 <= i < npoints x nreps) is point p = i / nreps, replication r = i % nreps. It runs the
 * base scenario with the overrides: the file's `set` (in file order), then each swept key's value of point
 * p (in file order), then seed = S + r, where S is the base scenario's seed after `set`. Its run id is the
 * sweep's run_id_base + i (store.h), whichever process runs it, so the results do not depend on the number
 * of workers or shards. A shard K of N (1 <= K <= N) runs the indices i with i % N == K - 1.
 *
 * sweep_run() registers the sweep in the database (or finds it: store_sweep_register), skips the runs
 * already stored as 'ok', and hands the others to `jobs` forked workers, one run at a time over a pipe
 * (so a slow run does not hold up the rest); each worker opens its own connection, loads the point's
 * scenario, simulates it and writes it (one short transaction at the end of the run), then reports to the
 * parent over a second pipe. A point that does not load, or a simulation that fails, is recorded as a
 * failed run (store_record_failure: status 'failed', the message in runs.error) and the sweep goes on.
 * Workers die with the parent (PR_SET_PDEATHSIG), so `kill -9` of the sweep stops everything; every run in
 * the database is whole, and a later sweep_run() with resume set runs exactly the missing ones.
 *
 * Inputs that cannot mix: with resume set, the runs stored 'ok' whose run key differs from the key their
 * point's scenario has now (a file it names changed: store_run_key_inputs) are deleted before anything runs
 * and run again, each reason told on `err` ("gpucap: sweep NAME: FILE changed since run N was stored (and
 * K more runs): running them again ..."), so a point never holds results of two versions of an input. A
 * sweep whose name the database holds for another sweep is refused (store_sweep_register); `name` stores it
 * under another name.
 *
 * Several processes, one sweep: a worker claims each run before it runs it (store_claim_run, as this
 * process: host, pid, start time); a run stored 'ok' or claimed by another live process is left to it
 * (counted in others). Without resume, a database that holds runs of the sweep is refused unless another
 * live process holds claims of it: this one joins (a line on `err`). A store that finds its disk full
 * stops the sweep: no run is handed out after it, the workers end after the run they are on, and
 * sweep_run() returns STATUS_EDB with the store's message and how to go on.
 *
 * Progress goes to `out` (one line per finished run: "run I point P rep R ok" or "... failed: MESSAGE") or,
 * when `tty` is set, to `tty` as one line rewritten in place; `quiet` prints neither. The summary line is
 * always printed to `out`. Errors that stop the sweep (a bad base scenario, a database that cannot be
 * opened, a sweep already begun without resume) return a negative status with the message in *d.
 */
#ifndef GPUCAP_SWEEP_H
#define GPUCAP_SWEEP_H

#include <stdbool.h>
#include <stdio.h>

#include "diag.h"
#include "sweepfile.h"

struct sweep_opts {
	const char *db;   /* the results database, borrowed */
	int jobs;         /* worker processes, >= 1 (fewer when fewer runs are left) */
	bool resume;      /* run the missing runs of a sweep the database already holds */
	int shard_k;      /* this shard, 1 .. shard_n */
	int shard_n;      /* shards, >= 1 (1: the whole sweep) */
	bool quiet;       /* print only the summary */
	FILE *out;        /* progress lines and the summary (stdout), borrowed */
	FILE *tty;        /* if not NULL, the one progress line goes here instead (a terminal), borrowed */
	bool force;       /* --force: a run may add more than STORE_RUN_BYTES_MAX (store_limit.h) */
	FILE *err;        /* why stored runs are run again on a resume (stderr); NULL: not told, borrowed */
	const char *name; /* --name: the name the sweep is stored under when it is not its file's (sf->name is set to
	                     it too); it enters the sweep key (store_sweep_key); NULL: the file's name */
};

struct sweep_result {
	int total;    /* runs of this shard */
	int ok;       /* run now, status 'ok' */
	int failed;   /* run now and failed (recorded as 'failed', or lost with a worker that died) */
	int skipped;  /* already 'ok' in the database */
	int others;   /* left to another sweep process of the same sweep (claimed or stored by it meanwhile) */
	int unrun;    /* not run: the sweep stopped on a full disk before handing them out */
};

/*
 * Run the sweep sf (borrowed) as o says. Returns STATUS_OK when the sweep went through (failed runs
 * included: see res->failed), STATUS_EINPUT when the base scenario with `set` does not load, STATUS_EUSAGE
 * when the database already holds runs of this sweep and o->resume is not set (and no live process runs
 * it), or holds another sweep of its name, STATUS_EDB on a full disk (the sweep stopped), STATUS_EDB/ENOMEM/
 * EINTERNAL otherwise; *res is filled in every case.
 */
int sweep_run(const struct sweepfile *sf, const struct sweep_opts *o, struct sweep_result *res,
	      struct diag *d);

/*
 * Load every point's scenario (seed of replication 0) without running anything, and print one line to
 * `out` per invalid point: "point P (KEY=VALUE, ...): MESSAGE"; a point whose run would add more than
 * STORE_RUN_BYTES_MAX to the database is invalid unless force (store_limit.h). *ninvalid receives their
 * number. Returns STATUS_OK, or a failure of the base scenario as sweep_run() does.
 */
int sweep_check(const struct sweepfile *sf, FILE *out, bool force, int *ninvalid, struct diag *d);

#endif
