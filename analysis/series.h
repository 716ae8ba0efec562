/*
 * series: a run's time series as CSV (`gpucap export --samples`, analysis/README.md "The results database").
 *
 * One line per sample (the samples table, in time order): its columns as the file has them (t_s, then
 * arrival rate, queue, busy slots, instances per option, ..., in the table's order; older files have fewer),
 * then, for a run of several instance types, two columns per type from type_samples:
 * `instances:<type>` (in service at the sample instant) and `busy_slots:<type>` (averaged over the period),
 * the serving type (runs.instance_type) first, then the others by name. A run of one type, or one written
 * before schema version 9, has no type columns. NULL (a metric the run did not have) is an empty field.
 * Numbers are written with 17 significant digits, so they read back exactly.
 *
 * Errors: STATUS_ENOENT (no such database file), STATUS_EINPUT (not a gpucap database, no such run, a run
 * that did not finish), STATUS_EDB, with the message in the diag. The database is opened read-only.
 */
#ifndef GPUCAP_SERIES_H
#define GPUCAP_SERIES_H

#include <stdint.h>
#include <stdio.h>

#include "diag.h"

/* Write run run_id's samples of the database at db_path to out as CSV (a header line, then the rows). */
int series_export(const char *db_path, int64_t run_id, FILE *out, struct diag *d);

#endif
