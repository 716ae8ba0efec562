/*
 * merge: `gpucap merge OUT IN...`, copying the runs of results databases into another (analysis/store.h).
 *
 * Each IN is merged in one write transaction on OUT, so it is in OUT whole or not at all. Sweeps are matched
 * by sweep_key: a sweep of IN not in OUT is registered in OUT (with its view, and run_id_base the next free
 * run id of OUT); run i of the sweep is written at OUT's run_id_base + i, so shards of one sweep merged into
 * a fresh file give the same run ids and rows as one file that ran the whole sweep. A run of a sweep already
 * in OUT with status 'ok' is skipped; one in OUT with status 'failed' is replaced by IN's if that is 'ok'.
 * A run's rows go with it, its input files (run_inputs) included; run_claims (which sweep process ran which
 * run, in the file it ran in) is not copied. Runs outside a sweep are appended with new run ids, except one
 * already in OUT (same run_key, started_at, scenario text, overrides and seed), which is skipped: merging a
 * file twice changes nothing.
 * Refused (nothing of IN written, the message names the file): an IN that is not a gpucap results database,
 * one of another schema version than this build writes (STORE_SCHEMA_VERSION), IN being OUT, and an IN with
 * a sweep whose name is that of a different sweep (another sweep_key) already in OUT. IN is opened by
 * store_read_open() first (store_read.h), so a lock on it is waited for and a hot journal a killed writer left
 * beside it is rolled back. An IN found damaged while it is copied (SQLite's "database disk image is
 * malformed", which it reports against the connection's main file, OUT) is checked and named (STATUS_EINPUT),
 * OUT rolled back as it was.
 */
#ifndef GPUCAP_MERGE_H
#define GPUCAP_MERGE_H

#include "diag.h"
#include "store.h"

/* What merging one file did. */
struct merge_counts {
	int runs_copied;   /* runs of IN written into OUT */
	int runs_present;  /* runs of IN already in OUT, skipped */
	int sweeps_added;  /* sweeps of IN registered in OUT */
};

/*
 * Merge the results database at in_path (borrowed; only read) into out (kept for the call). *counts is
 * written on success. Returns STATUS_OK, STATUS_EINPUT (IN refused: another version, not gpucap's, a
 * directory, damaged, a sweep name clash, IN is OUT), STATUS_ENOENT (IN missing), STATUS_EDB (a lock on IN
 * or OUT that outlasted the wait, an I/O error) or STATUS_ENOMEM.
 */
int merge_file(struct store *out, const char *in_path, struct merge_counts *counts, struct diag *d);

#endif
