/*
 * store_limit: how much one run adds to a results database, estimated before it runs, and the limit a run
 * may add (models/README.md, "Limits").
 *
 * A run is staged in memory while it simulates and then copied into the file (store.h), so what it writes
 * costs its size twice: in memory during the run, on disk after. Rows are counted from the scenario alone
 * where the scenario fixes them: samples (one per sample period), hours (one per UTC clock hour the run
 * touches) and charges (at most two per clock hour and purchase option in use, plus one upfront row per
 * option). Events (launches, scaling actions, ...) depend on the simulation: they are counted while the run
 * is staged, and the store's sink stops a run whose rows pass the limit (store_set_size_limit, store.h).
 * Bytes per row are what SQLite takes for a row of each table, measured with dbstat on a 28-day run and
 * rounded up (samples 56 B, events 59 B, hours 55 B, charges 68 B measured).
 *
 * Errors: STATUS_EUSAGE with a message that gives the estimate, the limit and the ways out (a longer
 * sample_period, a shorter horizon, --force).
 */
#ifndef GPUCAP_STORE_LIMIT_H
#define GPUCAP_STORE_LIMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "scenario.h"

/* SOURCES.md [limit-db-run] */
#define STORE_RUN_BYTES_MAX (INT64_C(1) << 30)  /* what one run may add without --force: 1 GiB */
#define STORE_SAMPLE_ROW_BYTES 64               /* bytes of one samples row */
#define STORE_EVENT_ROW_BYTES 64                /* bytes of one events row */
#define STORE_HOUR_ROW_BYTES 64                 /* bytes of one hours row */
#define STORE_CHARGE_ROW_BYTES 80               /* bytes of one charges row */
#define STORE_TYPE_SAMPLE_ROW_BYTES 48          /* bytes of one type_samples row (not measured: a samples
                                                   row's key and three values, rounded up) */

struct store_estimate {
	int64_t samples;   /* rows of samples: floor(horizon / sample_period) */
	int64_t hours;     /* rows of hours: ceil(horizon / 1 h) + 1 (a start off the hour touches one more) */
	int64_t options;   /* purchase options in use: the fleet's kinds, and on_demand and spot with jobs */
	int64_t charges;   /* rows of charges, at most: hours x 2 x options + options */
	int64_t type_samples; /* rows of type_samples: samples x types with several types, else 0 */
	double bytes;      /* those rows x their STORE_*_ROW_BYTES (events not included: counted as they come) */
};

/* The rows and bytes the run of sc (borrowed) will add, before events. */
void store_estimate_run(const struct scenario *sc, struct store_estimate *out);

/*
 * STATUS_OK when the run of sc fits in STORE_RUN_BYTES_MAX or force is set; otherwise STATUS_EUSAGE with
 * the estimate in *d. Nothing is opened or written.
 */
int store_check_run_size(const struct scenario *sc, bool force, struct diag *d);

#endif
