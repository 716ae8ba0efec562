/*
 * store_private: what the files of the store share (store.c: opening and the sink; store_schema.c: the
 * schema; store_sweep.c: run keys and sweeps; merge.c: gpucap merge; store_db.c, beneath them all: errors,
 * transactions and run ids), and nothing else includes. Like SQLite's
 * sqliteInt.h, it opens the opaque struct store to them so that they use one connection, one busy policy and
 * one message format.
 */
#ifndef GPUCAP_STORE_PRIVATE_H
#define GPUCAP_STORE_PRIVATE_H

/* Private to analysis/: the build defines GPUCAP_IN_ANALYSIS for that folder's files alone. */
#ifndef GPUCAP_IN_ANALYSIS
#error "store_private.h is private to analysis/ (models/ARCHITECTURE.md)"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include <sqlite3.h>

#include "diag.h"
#include "scenario.h"
#include "store.h"
#include "store_wait.h"

/* The columns of runs (but run_id), samples, events, warnings and labels (but run_id), in the order of schema.sql. */
#define RUN_COLUMNS "name, scenario_path, scenario_text, overrides, seed, status, started_at, wall_s, version, " \
		     "horizon_s, instance_type, sweep_id, point, replication, run_key, error, region"
#define SAMPLE_COLUMNS "t_s, arrival_rate_per_s, queue_len, busy_slots, instances_reserved, " \
			"instances_on_demand, instances_spot, instances_odcr, instances_savings_plan, " \
			"instances_capacity_block, instances_training_plan, instances_total, cost_usd_per_h, copies, instances_jobs"
#define EVENT_COLUMNS "seq, t_s, kind, option, count, detail"
#define WARNING_COLUMNS "seq, code, message"
#define LABEL_COLUMNS "key, value"
#define HOUR_COLUMNS "hour_start_s, requests, violations, latency_p50_s, latency_p95_s, latency_p99_s"
#define TYPE_SAMPLE_COLUMNS "t_s, type, instances, busy_slots"
#define INPUT_COLUMNS "seq, path, content_hash, bytes"
#define CHARGE_COLUMNS "hour, option, kind, use, start_unix_s, end_unix_s, quantity_h, list_usd, billed_usd, effective_usd"

/* The statements a store prepares once, at open, and resets and rebinds for every row. */
enum store_stmt_id {
	STMT_RUN,          /* insert the staged runs row at begin() */
	STMT_SAMPLE,       /* insert one staged samples row */
	STMT_EVENT,        /* insert one staged events row */
	STMT_METRIC,       /* insert one staged metrics row */
	STMT_WARNING,      /* insert one staged warnings row */
	STMT_LABEL,        /* insert one staged labels row */
	STMT_CHARGE,       /* insert one staged charges row */
	STMT_HOUR,         /* insert one staged hours row */
	STMT_TYPE_SAMPLE,  /* insert one staged type_samples row */
	STMT_INPUT,        /* insert one staged run_inputs row */
	STMT_COPY_RUN,     /* copy the staged run into the file at end() */
	STMT_COPY_METRICS,
	STMT_COPY_SAMPLES,
	STMT_COPY_EVENTS,
	STMT_COPY_WARNINGS,
	STMT_COPY_LABELS,
	STMT_COPY_CHARGES,
	STMT_COPY_HOURS,
	STMT_COPY_TYPE_SAMPLES,
	STMT_COPY_INPUTS,
	STMT_STATUS,       /* the status of a run of the file, by run_id */
	STMT_DELETE,       /* delete a run of the file (and, by cascade, its rows) */
	STMT_COUNT
};

/*
 * A file's content hash as this connection last read it, with what identifies that version of the file:
 * a file whose inode, size, modification and change times are all the same has not been written since
 * (any write updates the change time, which no program can set back), so its hash is not read again.
 */
struct store_hash_cache {
	char *path;              /* owned */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
	struct store_input in;
};

struct store {
	sqlite3 *db;                       /* the connection, owned; the file is "main", the staging "stage" */
	char *path;                        /* the file name as given, owned, for messages */
	int busy_ms;                       /* busy timeout of one attempt at a write transaction, ms */
	struct store_wait wait;            /* the busy handler's state (store_wait.h) */
	sqlite3_stmt *stmt[STMT_COUNT];    /* prepared statements, owned */
	struct diag *d;                    /* where the sink's messages go, kept; NULL drops them */
	struct store_run_tag tag;          /* the tag of the next (or open) run; zero for a plain run */
	bool open;                         /* begin() succeeded and end() has not been called */
	bool failed;                       /* a call of the open run failed: only end(failure) may follow */
	int64_t event_seq;                 /* seq of the last event staged in the open run */
	int64_t warning_seq;               /* seq of the last warning staged in the open run */
	const char *const *labels;         /* "KEY=VALUE" labels of the next run (store_set_labels), borrowed */
	int nlabels;
	int64_t last_run_id;               /* the last run written to the file, 0 if none */
	double limit_bytes;                /* what one run may stage (store_set_size_limit); 0: no limit */
	struct store_hash_cache *hashes;   /* the files hashed by this connection's runs, owned */
	int nhashes;
	bool disk_full;                    /* a write transaction failed because the disk (or page limit) was full */
	double staged_bytes;               /* rows staged by the open run x their bytes (store_limit.h) */
	char type_name[SINK_TYPES_MAX][SCENARIO_NAME_MAX];  /* the open run's instance types (scenario.types), for
	                                                       type_samples rows; copied at begin() */
};

/* The connection helpers (store_db.c), from here to store_now. */

/*
 * Write "FILE: SQLite's message (while what)" for the connection's last error into d (and, for a lock
 * waited for in vain, how long: store_wait_note()) and return
 * STATUS_ENOMEM if SQLite ran out of memory, STATUS_EDB otherwise. Call it before anything else touches
 * the connection (a ROLLBACK would replace the message).
 */
int store_db_error(const struct store *st, struct diag *d, const char *what);

/*
 * Finish a step of stmt whose sqlite3_step() returned rc: reset the statement, and return STATUS_OK when rc
 * is SQLITE_DONE, else store_db_error(st, d, what) (read before the reset, which would clear the message).
 * A caller that reads a row turns SQLITE_ROW into SQLITE_DONE first.
 */
int store_step_done(const struct store *st, sqlite3_stmt *stmt, int rc, struct diag *d, const char *what);

/* Run SQL with no result rows (BEGIN, COMMIT, a PRAGMA, a script); returns STATUS_OK or store_db_error(). */
int store_exec(struct store *st, const char *sql, struct diag *d, const char *what);

/* Roll back the open transaction, if SQLite has not already done so (it does on some errors). */
int store_rollback(struct store *st, struct diag *d);

/* Step the prepared statement st->stmt[id], which takes the run id as ?1 (and nothing else, or ?2 already
 * bound); store_step_done's result. */
int store_step_with_id(struct store *st, enum store_stmt_id id, int64_t run_id, struct diag *d, const char *what);

/*
 * Run body(st, arg, d) inside BEGIN IMMEDIATE ... COMMIT on the file. Another writer is waited for (busy_ms,
 * then STORE_BUSY_RETRIES more attempts, each running body again from the start); any other failure, of
 * body or of COMMIT, rolls everything back, so the file is as it was, and keeps the first message.
 */
int store_write_txn(struct store *st, int (*body)(struct store *st, void *arg, struct diag *d), void *arg,
		    struct diag *d, const char *what);

/*
 * The next free run id of the file, inside a write transaction: one more than every run id in use and
 * every run id reserved by a sweep (run_id_base + npoints * nreps - 1).
 */
int store_next_run_id(struct store *st, int64_t *run_id, struct diag *d, const char *what);

/*
 * Inside a write transaction, make room for a run at run_id: *skip is set when a run that is not 'failed'
 * is already there (a run of a sweep that another process finished), and a 'failed' one is deleted (with
 * its rows), to be replaced.
 */
int store_run_slot(struct store *st, int64_t run_id, bool *skip, struct diag *d, const char *what);

/*
 * Inside a write transaction, the run id a tagged run is written at: the tag's, or run_id_base + point *
 * nreps + replication of its sweep, or (a zeroed tag) the next free one. A sweep that does not exist is
 * STATUS_EDB.
 */
int store_tag_run_id(struct store *st, const struct store_run_tag *tag, int64_t *run_id, struct diag *d,
		     const char *what);

/* The unsigned seed as the int64 with the same bits (SQLite integers are signed), without overflow. */
int64_t store_seed_as_int64(uint64_t seed);

/* The wall-clock time now as ISO-8601 UTC, "YYYY-MM-DDTHH:MM:SSZ". */
void store_now(char out[32]);

/* The other files of the family. */

/*
 * Make st's file a results database this build can write (store_schema.c): create the schema in a new or
 * empty file, migrate an older version in one transaction, refuse another program's file, a newer version or
 * a damaged one (STATUS_EDB, the message naming the file). Nothing is written to a refused file.
 */
int store_schema_ensure(struct store *st, struct diag *d);

/*
 * Create the view sweep_<name> of sweep sweep_id (from its sweeps and sweep_params rows), inside the
 * caller's write transaction (store_sweep.c).
 */
int store_sweep_view_create(struct store *st, int64_t sweep_id, struct diag *d, const char *what);

#endif
