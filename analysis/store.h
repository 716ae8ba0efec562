/*
 * store: the SQLite results database, and the sink that writes runs into it.
 *
 * One file holds many runs; its schema is analysis/schema.sql (the tables, compiled in as store_schema_sql)
 * and analysis/summary_view.sql (the run_summary view, store_summary_view_sql) and analysis/stats_view.sql (the
 * statistics views t975 and point_stats, store_stats_view_sql), versioned by PRAGMA
 * user_version and marked as gpucap's by PRAGMA application_id. store_open() creates the file and the
 * schema when the file is new or empty, and otherwise reads it to check that it is a gpucap results
 * database of a version this build knows: opening an existing file of the current version and closing it
 * without a run leaves its bytes unchanged. A file of an older version (written by an older gpucap) is
 * first migrated to the current one, in one transaction that changes no row of an earlier run; if the
 * migration fails, it is rolled back and the file is left as it was. A file that is not SQLite, an SQLite
 * file of another program, a file written by a newer gpucap and a damaged one (tables missing) are refused
 * (STATUS_EDB, the message names the file); nothing is written to them.
 *
 * A run is staged in memory (an in-memory SQLite database attached as "stage", with the file's tables):
 * begin(), samples(), events() and metrics() write there and never touch the file. end(STATUS_OK) copies
 * the run into the file in one transaction (BEGIN IMMEDIATE ... COMMIT), so a run is in the file whole or
 * not at all: a failed run, a full disk at commit or a killed process leaves the runs committed before it
 * intact and nothing of itself, and the file byte for byte as it was. Several processes may write one file:
 * each holds SQLite's write lock only while it copies one finished run (milliseconds), and a writer that
 * finds the file locked waits for the other (store_wait.h: STORE_BUSY_TIMEOUT_MS, or GPUCAP_BUSY_TIMEOUT_MS,
 * then the whole transaction again, up to STORE_BUSY_RETRIES more times) instead of failing. Only something that holds the lock, or a
 * read transaction, for longer than that (a sqlite3 shell left inside BEGIN, say) makes a write fail
 * ("database is locked"), rolled back. The journal is SQLite's default rollback journal, so no -wal/-shm
 * files are left beside the database.
 *
 * Run ids. A plain run gets the next free id when it is copied into the file: one more than every run id
 * in use and every id reserved by a sweep. A sweep reserves npoints * nreps ids when it is registered
 * (store_sweep_register): run i of the sweep (i = point * nreps + replication) has run_id = run_id_base + i,
 * in every file it is written to, by any number of processes or shards. Every run also gets a run key
 * (store_run_key_inputs) that identifies its inputs: the scenario text, the overrides, the seed and the
 * content of every file the scenario names, which the run records in run_inputs.
 *
 * Paths that keep nothing are refused before anything is opened (STATUS_EUSAGE): "" and ":memory:", and an
 * existing path that is not a regular file (/dev/null, a directory). An open that fails after creating the
 * file (schema creation on a full disk) removes it again while it is still empty, so a failure leaves no
 * stray file.
 *
 * Errors are STATUS_EDB (STATUS_ENOMEM when SQLite ran out of memory) with "FILE: SQLite's message (while
 * doing what)" in the diag. The store prints nothing, but for the line a long wait for a lock prints when stderr
 * is a terminal (store_wait.h). One store is one connection: use it from one thread.
 */
#ifndef GPUCAP_STORE_H
#define GPUCAP_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "sink.h"

#define STORE_APPLICATION_ID 0x47504350  /* 'GPCP': PRAGMA application_id of a results file (schema.sql) */
#define STORE_SCHEMA_VERSION 13       /* the PRAGMA user_version this build writes and reads */
#define STORE_BUSY_TIMEOUT_MS 600000  /* how long one attempt waits for another process's lock: 10 min
				       * (GPUCAP_BUSY_TIMEOUT_MS overrides it: store_wait.h) */
#define STORE_BUSY_RETRIES 3          /* attempts at a write transaction after the first that timed out */

struct store;  /* opaque: one open results database */

/*
 * Open the results database at `path` (borrowed; copied for messages), creating the file and the schema if
 * the file does not exist or is empty. On success *out is a new store (returns owned: store_close() it);
 * on failure *out is unchanged, the message in *d names the file, and a file this call created is removed
 * (while still empty). Returns STATUS_OK, STATUS_EUSAGE ("" or ":memory:", or a path that exists and is not
 * a regular file), STATUS_EDB (cannot open or create, not a database, a foreign SQLite file, a newer
 * schema version, a damaged file, an older file whose migration failed) or STATUS_ENOMEM.
 */
int store_open(struct store **out, const char *path, struct diag *d);

/*
 * What one run may add, in bytes (rows x store_limit.h's bytes per row, counted as the sink stages them):
 * STORE_RUN_BYTES_MAX after store_open(), 0 for no limit (--force). A run that passes it fails with
 * STATUS_EUSAGE and the message says so; it leaves nothing, as any failed run.
 */
void store_set_size_limit(struct store *st, int64_t bytes);

/*
 * As store_open(), but each attempt at a write transaction waits at most busy_ms (> 0) for another
 * connection's lock instead of STORE_BUSY_TIMEOUT_MS: for tests of a blocked file, and callers that would
 * rather fail fast.
 */
int store_open_wait(struct store **out, const char *path, int busy_ms, struct diag *d);

/*
 * Close the database and free the store. A run still open (begin() without end()) is rolled back.
 * NULL is allowed.
 */
void store_close(struct store *st);

/*
 * A sink (models/metering/sink.h) that writes each run into st: begin() hashes the files the scenario names (a
 * file unwritten since this store last hashed it is not read again; one that cannot be read fails the
 * run, naming it) and stages the runs row (with the tag set by store_set_tag(), the run key, the labels of
 * store_set_labels()) and the run_inputs rows, samples()/events()/warnings()/
 * metrics() stage rows (NaN is stored as NULL),
 * end(STATUS_OK, wall_s) records wall_s and copies the run into the file in one transaction (status 'ok'),
 * end(any failure) drops everything of the run. A run of a sweep whose run_id is already in the file with
 * status 'ok' (another process finished it) is left as it is and end() succeeds; one with status 'failed'
 * is replaced. The sink keeps st and d (both must outlive it); d receives the messages of failed calls.
 * A store serves one sink at a time: a later store_sink() call redirects messages to its d.
 */
struct sink store_sink(struct store *st, struct diag *d);

/* The run_id of the last run committed (or found already done) through this store, 0 if none since
 * store_open(). */
int64_t store_last_run_id(const struct store *st);

/*
 * Cap the database file at max_pages pages (> 0) for the rest of this connection (PRAGMA max_page_count;
 * the file is not changed). A write that would grow the file past the cap fails as a full disk would.
 * A cap below the current size holds the file at its current size. Returns STATUS_OK or STATUS_EDB.
 */
int store_limit_pages(struct store *st, int max_pages);

/* A run's place in a sweep. Zeroed: a plain run (run id chosen by the store, key computed by the store). */
struct store_run_tag {
	int64_t sweep_id;      /* sweeps.sweep_id; 0 outside a sweep */
	int point;             /* point index, 0.. */
	int replication;       /* replication index, 0.. */
	int64_t run_id;        /* the run id to write (sweep base + index); 0: the store picks it (for a run of a
				* sweep, run_id_base + point * nreps + replication) */
};

/*
 * The run key of a run: FNV-1a-128 (the FNV hash of 128 bits, offset basis
 * 0x6c62272e07bb014262b821756295c58d, prime 2^88 + 0x13b, each byte XORed in then multiplied) over the
 * scenario text, a NUL byte, the overrides text exactly as stored in runs.overrides, a NUL byte, and the seed
 * in decimal; written as 32 lowercase hex digits and a NUL into out. NULL texts count as empty.
 */
void store_run_key(const char *scenario_text, const char *overrides, uint64_t seed, char out[33]);

/* One file a scenario names (scenario.inputs), as a run records it in run_inputs. */
struct store_input {
	char hash[33];  /* FNV-1a-128 of the file's bytes, as store_run_key writes a key */
	int64_t bytes;  /* the file's size */
};

/*
 * Read each of the sc->inputs.n files sc names (struct scenario, scenario.h) in 64 KiB blocks and write its
 * content hash and size into in[i]. Returns STATUS_OK, or STATUS_ENOENT with a message naming the file
 * that cannot be read.
 */
struct scenario;
int store_inputs_hash(const struct scenario *sc, struct store_input *in, struct diag *d);

/* The content hash and size of one file, as store_inputs_hash() reads each. */
int store_file_hash(const char *path, struct store_input *in, struct diag *d);

/*
 * The run key of a run whose scenario names n files: store_run_key() when n is 0 (so a run without files
 * has the key it had before files were hashed), else the same hash continued with, for each file in the
 * scenario's order, a NUL byte and its content hash. The paths are not hashed (they are in the scenario
 * text or the overrides already), so a sweep moved to another folder keeps its keys.
 */
void store_run_key_inputs(const char *scenario_text, const char *overrides, uint64_t seed,
			  const struct store_input *in, int n, char out[33]);

/*
 * The sweep key: FNV-1a-128 over the nruns run keys (32 characters each, no separator) in index order, then
 * the sweep file text, then, when `name` is not NULL (a sweep stored under a name other than its file's,
 * `gpucap sweep --name`), a NUL byte and that name; 32 lowercase hex digits and a NUL into out. The run keys
 * here are store_run_key()'s, without the input files: the sweep is the same sweep when a trace it reads
 * changes, and a resume finds it and runs the runs whose inputs changed again.
 */
void store_sweep_key(const char *const *run_keys, int nruns, const char *file_text, const char *name,
		     char out[33]);

/* The tag the next run written through the sink carries (copied); reset to zero after each run's end(). */
void store_set_tag(struct store *st, const struct store_run_tag *tag);

/*
 * The labels the next run written through the sink carries: n texts "KEY=VALUE" (split at the first '=';
 * keys distinct, checked by the caller), borrowed until that run's end(), which resets them to none. They
 * are stored in the labels table with the run.
 */
void store_set_labels(struct store *st, const char *const *labels, int n);

/*
 * Label runs already stored: set label key = value on each of the n run ids (replacing a value already
 * there), in one transaction. Returns STATUS_OK, or STATUS_EDB / STATUS_ENOMEM with the message in *d.
 */
int store_label_runs(struct store *st, const int64_t *run_ids, int n, const char *key, const char *value,
		     struct diag *d);

/* A sweep to register: every pointer is borrowed for the call. */
struct store_sweep {
	const char *name;           /* sweep name */
	const char *file_path;      /* the sweep file, for the record; may be NULL */
	const char *file_text;      /* its full text */
	const char *const *params;  /* the swept keys, in order, nparams of them */
	int nparams;
	int npoints, nreps;         /* points, and replications of each point (both > 0) */
	const char *const *values;  /* values[p * nparams + k]: point p's value of params[k], as text */
	const char *sweep_key;      /* 32 hex chars (store_sweep_key) */
};

/*
 * Register the sweep, or find it by sweep_key (then nothing is written). One write transaction: the sweeps
 * row (run_id_base = the next free run id; the ids base ... base + npoints * nreps - 1 are reserved), the
 * sweep_params rows, and the view sweep_<name>: the name with every character not [A-Za-z0-9_] replaced by
 * '_', and "_<sweep_id>" appended when that name is taken; one row per run of the sweep with sweep_id,
 * point, replication, status, error, one column per swept key (named after the key with every character
 * not [A-Za-z0-9_] replaced by '_', "param_" in front if that name is taken; the number when the value is
 * a decimal number, else the text), then the columns of run_summary but status.
 * A database holds one sweep of a name: a sweep not found by its key whose name is taken by another sweep
 * is refused (STATUS_EUSAGE, the message naming the sweep there and --name), nothing written.
 * Returns STATUS_OK with *sweep_id and *run_id_base set, or STATUS_EUSAGE / STATUS_EDB / STATUS_ENOMEM.
 */
int store_sweep_register(struct store *st, const struct store_sweep *sw, int64_t *sweep_id,
			 int64_t *run_id_base, struct diag *d);

/* done[i] = 1 when run index i of the sweep is stored with status 'ok' (0 otherwise: missing or failed). */
int store_sweep_done(struct store *st, int64_t sweep_id, int nruns, unsigned char *done, struct diag *d);

/*
 * keys[i] = the run key of run index i of the sweep when it is stored with status 'ok' ("" otherwise; "-"
 * for an 'ok' run stored without a key).
 */
int store_sweep_keys(struct store *st, int64_t sweep_id, int nruns, char (*keys)[33], struct diag *d);

/* The content hash run run_id recorded for the input file `path` (run_inputs), "" when it recorded none. */
int store_run_input_hash(struct store *st, int64_t run_id, const char *path, char hash[33], struct diag *d);

/* Delete the n runs (and, by cascade, their rows) in one transaction: runs whose inputs changed. */
int store_delete_runs(struct store *st, const int64_t *run_ids, int n, struct diag *d);

/*
 * Claims: several `gpucap sweep` processes of one sweep on one database share its runs. Before running a
 * run, a process claims it (run_claims: its host, pid and the pid's start time), in one short write
 * transaction; a run already stored 'ok' or claimed by another live process is left to that one. The
 * claimant says which claims are live (alive(): a process of this host that still runs; another host's,
 * unless a --resume takes them over); a claim of a process that died is taken over. Claim rows are kept
 * after the run (which process ran what).
 */
struct store_claimant {
	const char *host;       /* this host's name */
	int64_t pid;            /* the sweep process (the workers' parent) */
	const char *pid_start;  /* its start time, "" when unknown */
	bool (*alive)(const struct store_claimant *me, const char *host, int64_t pid, const char *pid_start);
	void *arg;              /* the claimant's own, for alive() */
};

enum store_claim {
	STORE_CLAIMED,       /* the run is this process's to run */
	STORE_CLAIM_DONE,    /* already stored with status 'ok' */
	STORE_CLAIM_TAKEN,   /* claimed by another live process (who says which) */
};

/* Claim run run_id of the sweep: *result, and "HOST:PID" in who when STORE_CLAIM_TAKEN. */
int store_claim_run(struct store *st, const struct store_claimant *me, int64_t sweep_id, int64_t run_id,
		    enum store_claim *result, char who[96], struct diag *d);

/* Whether another live process holds claims of the sweep: "HOST:PID" of one in who, "" when none. */
int store_sweep_claimed(struct store *st, const struct store_claimant *me, int64_t sweep_id, char who[96],
			struct diag *d);

/* Whether a write transaction of st failed because the disk (or store_limit_pages()) was full. */
bool store_disk_full(const struct store *st);

/*
 * Record a failed run (status 'failed', error = message, no metrics; started_at now, version this gpucap's,
 * horizon_s 0 and instance_type '' since the scenario may not have loaded). Replaces an earlier row with the
 * same run_id whose status is 'failed'; an 'ok' row with that run_id is left alone (returns STATUS_OK).
 * A zeroed tag records a plain run at the next free id. NULL texts are stored as ''.
 */
int store_record_failure(struct store *st, const struct store_run_tag *tag, const char *name,
			 const char *scenario_path, const char *scenario_text, const char *overrides,
			 uint64_t seed, const char *message, struct diag *d);

/*
 * Store calibration c (analysis/calibrate.h) of bill b, read from bill_path (whose content hash is recorded)
 * keeping the ntypes instance types, as one calibrations row and its calibration_hours rows, in one write
 * transaction (store_calib.c): all or nothing. *id is the new calibration_id. Returns STATUS_OK, STATUS_ENOENT
 * (the bill cannot be read again), STATUS_EDB or STATUS_ENOMEM.
 */
struct calibration;
struct billfile;
int store_calibration_add(struct store *st, const struct calibration *c, const struct billfile *b,
			  const char *bill_path, const char *const *types, int ntypes, int64_t *id, struct diag *d);

#endif
