/*
 * runpool: runs of one scenario file, each with its own overrides, in worker processes or in this one, their
 * results handed back in the order they finish; a run's results for the database are kept as a recording and
 * written into a store later, when the caller says (analysis/recommend.c: in the order a search made them).
 *
 * With jobs = 1 every run is made in this process, at runpool_submit(). With jobs > 1, runpool_open() forks
 * that many workers (before the caller opens any database: SQLite connections must not cross a fork), each
 * taking one run at a time over its own task pipe and answering over its own result pipe, one
 * length-prefixed message per run. Workers die with their parent (PR_SET_PDEATHSIG) and end when the pool is
 * closed. A worker loads the scenario with the run's overrides (scenario_load), runs it (world_run_usage) and
 * sends back the status and message, the metrics and warnings, the hourly Savings-Plan-eligible usage and,
 * when the pool records, everything the run handed its sink, field by field. The parent keeps a recording it
 * cannot write yet in one spool file (tmpfile(): removed when the process ends, however it ends; emptied
 * whenever no recording waits in it).
 *
 * runpool_store() replays a recording into a results database: the scenario is loaded again with the same
 * overrides (what the store's begin() reads: its text, overrides, seed and input files), then the sink calls
 * as the run made them, with the run's own start time and wall time. So a run stored from a recording is the
 * row-for-row twin of one stored by the run itself, and the order of run ids is the order of the
 * runpool_store() calls, whatever the number of workers.
 *
 * Errors: STATUS_ENOMEM, and STATUS_EINTERNAL when a pipe, fork or the spool fails or a worker ends without
 * answering (the message says which).
 */
#ifndef GPUCAP_RUNPOOL_H
#define GPUCAP_RUNPOOL_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "savings.h"
#include "store.h"
#include "world.h"

struct runpool;                /* opaque */
struct runpool_record;         /* opaque: what a run handed its sink */

/* One finished run. */
struct runpool_result {
	int64_t tag;                    /* the caller's, as given to runpool_submit() */
	int status;                     /* STATUS_OK, or why the run failed */
	bool load_failed;               /* the scenario with these overrides does not load (status is the
	                                   loader's, msg its message); nothing ran */
	char msg[DIAG_MSG_MAX];         /* the failure's message, "" when ok */
	struct world_report rep;        /* the metrics and warnings, when ok */
	struct savings_hour *hours;     /* eligible usage by clock hour when ok (owned), nhours of them */
	int nhours;
	struct runpool_record *record;  /* when ok and the pool records: the run's results (owned) */
};

/*
 * Open a pool of jobs (>= 1) for the scenario file at path (borrowed, kept); record: keep what each run hands
 * its sink, for runpool_store(). *out is a new pool (runpool_close() it) or, on failure, NULL.
 */
int runpool_open(struct runpool **out, const char *path, int jobs, bool record, struct diag *d);

/* Runs that can be submitted now: idle workers (with jobs = 1: 1 when no finished run waits for
 * runpool_next(), else 0). */
int runpool_idle(const struct runpool *p);

/* Runs submitted whose results runpool_next() has not returned yet. */
int runpool_busy(const struct runpool *p);

/*
 * Run the scenario with the overrides sets[0 .. nsets) (borrowed for the call) on an idle worker (the caller
 * checks runpool_idle()); tag comes back in its result. With jobs = 1 the run is made now.
 */
int runpool_submit(struct runpool *p, int64_t tag, const char *const *sets, int nsets, struct diag *d);

/*
 * Wait for a submitted run to finish and fill *res (caller-owned; runpool_result_fini() it). A worker that
 * ends without answering gives its run a failure (STATUS_EINTERNAL) rather than failing the call; the
 * call fails (STATUS_EINTERNAL) when nothing was submitted, and on a broken spool.
 */
int runpool_next(struct runpool *p, struct runpool_result *res, struct diag *d);

/*
 * Write the recorded run of res (its status ok) into st with the labels labels[0 .. nlabels) ("KEY=VALUE",
 * borrowed), the scenario loaded again with sets[0 .. nsets) (the overrides it ran with). The recording is
 * consumed (freed) whatever the outcome; *run_id is the stored run's id. Returns STATUS_OK or the store's
 * (or the loader's) failure with its message in *d.
 */
int runpool_store(struct runpool *p, struct runpool_result *res, const char *const *sets, int nsets,
		  struct store *st, const char *const *labels, int nlabels, int64_t *run_id, struct diag *d);

/* Free what res owns (its hours and recording). */
void runpool_result_fini(struct runpool *p, struct runpool_result *res);

/* End the workers (a run still going is killed) and free the pool. NULL is allowed. */
void runpool_close(struct runpool *p);

#endif
