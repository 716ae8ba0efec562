/*
 * focus: a run's simulated bill in FinOps FOCUS 1.1 form (`gpucap export --focus`, analysis/README.md "The bill in
 * FOCUS form").
 *
 * The rows come from the run's charges table (schema.sql): one bill line per (UTC clock hour, purchase
 * option, kind, use), which the meter wrote as the run settled its bill. Each line becomes one FOCUS row, and
 * a commitment's hourly fee one more per user (ChargeCategory Purchase, ChargeFrequency Recurring);
 * focus_columns lists the columns in output order. The EffectiveCost of an option's rows sums to the run's
 * cost_<option>_usd; Tags (a JSON object: the run's labels and gpucap-use) tells serving's rows from the
 * jobs', whose EffectiveCost sums to the run's jobs_cost_<option>_usd; RegionId is the run's region and
 * ResourceId names the (use, option, instance type) pool.
 *
 * Errors: STATUS_ENOENT (no such database file), STATUS_EINPUT (not a gpucap database, one older than schema
 * version 6, no such run, a run with no bill lines), STATUS_EDB, STATUS_EIO (writing failed), with the
 * message in the diag. The database is opened read-only.
 */
#ifndef GPUCAP_FOCUS_H
#define GPUCAP_FOCUS_H

#include <stdint.h>
#include <stdio.h>

#include "diag.h"

#define FOCUS_NCOLUMNS 46
extern const char *const focus_columns[FOCUS_NCOLUMNS];

/* Write run run_id of the database at db_path to out as CSV (a header line, then the rows); notes (borrowed;
 * NULL: none) gets a line when the run still owes commitments after its horizon, which the export leaves
 * out (analysis/README.md). */
int focus_export(const char *db_path, int64_t run_id, FILE *out, FILE *notes, struct diag *d);

#endif
