/*
 * calibrate: a stored run's bill against a real bill of the same period (`gpucap calibrate`, analysis/README.md
 * "Calibrating against a bill"), per UTC clock hour and purchase class.
 *
 * The billed side is a struct billfile (models/formats/billfile.h). The simulated side is the run's charges
 * table (schema.sql): each bill line goes to the class of its option (on_demand -> on_demand, spot -> spot,
 * reserved -> reserved, savings_plan -> savings_plan, odcr, capacity_block and training_plan -> reservation)
 * and adds, in its clock hour, its quantity_h to the instance-hours unless its kind is 'unused' or
 * 'upfront', its effective_usd to the cost, its quantity_h to the covered hours when its kind is 'used',
 * its effective_usd to the unused cost when its kind is 'unused'. These are the rules billfile.h applies to
 * gpucap's own FOCUS export, so a run calibrated against `gpucap export --focus` of itself has no error.
 *
 * The run must cover the bill: the period of every kept row of the bill lies within [run start, run start +
 * horizon] (a run that starts at 10:30 covers a bill whose first row starts at 10:30). The run start is the start of the run's hour-0 bill lines; a run with none in hour 0 is taken
 * to start on that clock hour (the charges table keeps no other trace of the start).
 *
 * The error, for instance-hours and for cost, of all classes together and of each class:
 *   mape_pct   mean over the clock hours whose billed amount is > 0 of |simulated - billed| / billed x 100
 *              (hours billed 0 have no percentage: they are counted apart, in zero_hours, when simulated > 0);
 *   worst      the hour of the largest of those percentages (the earliest of equal ones);
 *   total_pct  (simulated - billed) / billed x 100 over the whole span (NaN when billed 0).
 *
 * Errors: as focus.h's reader (no such database, run, a run without bill lines), and STATUS_EINPUT when the
 * run does not cover the bill, naming both periods.
 */
#ifndef GPUCAP_CALIBRATE_H
#define GPUCAP_CALIBRATE_H

#include <stdint.h>
#include <stdio.h>

#include "billfile.h"
#include "diag.h"

#define CALIBRATE_ALL BILLCLASS_N  /* index of all classes together in struct calibration's errors */

struct calibrate_error {
	int hours;              /* clock hours with billed > 0 (the MAPE's denominator) */
	int zero_hours;         /* clock hours billed 0 but simulated > 0 */
	double mape_pct;        /* NaN when hours is 0 */
	double worst_pct;       /* NaN when hours is 0 */
	int64_t worst_unix_s;   /* the worst hour's start */
	double worst_billed, worst_sim;
	double billed, sim;     /* totals over the span */
	double total_pct;       /* NaN when billed is 0 */
};

struct calibration {
	int64_t run_id;
	int64_t run_start_unix_s, run_end_unix_s;  /* the run's window */
	int64_t start_unix_s;                      /* the bill's first clock hour */
	int nhours;
	struct billcell *billed, *sim;             /* [h * BILLCLASS_N + c]; owned */
	struct billcell billed_total[BILLCLASS_N + 1], sim_total[BILLCLASS_N + 1];  /* per class, and all */
	struct calibrate_error hours[BILLCLASS_N + 1], cost[BILLCLASS_N + 1];        /* per class, and all */
};

/*
 * The instance types of run run_id of the database at db_path: its serving type, then those of its
 * type_samples, up to max (<= BILLFILE_TYPES_MAX) names of up to 64 bytes in types. *n is the count.
 */
int calibrate_run_types(const char *db_path, int64_t run_id, char types[][64], int max, int *n, struct diag *d);

/* Compare bill b (borrowed) with run run_id of db_path into *c (returns owned: calibrate_fini). */
int calibrate_run(struct calibration *c, const struct billfile *b, const char *db_path, int64_t run_id,
		  struct diag *d);

/* Free what c holds and zero it. */
void calibrate_fini(struct calibration *c);

/* The comparison as text (hours: the table by clock hour too) or one JSON object, to out. bill_path names the
 * bill in the output. */
void calibrate_print_text(FILE *out, const struct calibration *c, const struct billfile *b, const char *bill_path,
			  int hours);
void calibrate_print_json(FILE *out, const struct calibration *c, const struct billfile *b, const char *bill_path,
			  int64_t calibration_id);

#endif
