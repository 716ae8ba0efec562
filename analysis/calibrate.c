/* calibrate: see calibrate.h. The printing is in calibrate_print.c, the storing in store_calib.c. */
#include "calibrate.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "status.h"
#include "store_read.h"
#include "units.h"

static int db_fail(sqlite3 *db, const char *path, struct diag *d)
{
	return store_read_fail(db, NULL, path, d, "calibrating");
}

/* gpucap's purchase options by the bill's classes (calibrate.h). */
static int option_class(const char *option)
{
	static const struct {
		const char *option;
		enum billclass c;
	} map[] = {
		{ "on_demand", BILLCLASS_ON_DEMAND }, { "spot", BILLCLASS_SPOT }, { "reserved", BILLCLASS_RESERVED },
		{ "savings_plan", BILLCLASS_SAVINGS_PLAN }, { "odcr", BILLCLASS_RESERVATION },
		{ "capacity_block", BILLCLASS_RESERVATION }, { "training_plan", BILLCLASS_RESERVATION },
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(map[i].option, option) == 0)
			return (int)map[i].c;
	return -1;
}

int calibrate_run_types(const char *db_path, int64_t run_id, char types[][64], int max, int *n, struct diag *d)
{
	struct store_reader rd;
	sqlite3_stmt *st;
	int status, rc;

	*n = 0;
	status = store_read_open(&rd, db_path, 6, "gpucap calibrate", d);
	if (status != STATUS_OK)
		return status;
	if (sqlite3_prepare_v2(rd.db, "SELECT instance_type, 0 FROM runs WHERE run_id = ?1 UNION "
			       "SELECT DISTINCT type, 1 FROM type_samples WHERE run_id = ?1 ORDER BY 2, 1", -1, &st,
			       NULL) != SQLITE_OK) {
		status = db_fail(rd.db, db_path, d);
		store_read_close(&rd);
		return status;
	}
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		bool seen = false;

		for (int i = 0; i < *n; i++)
			seen |= strcmp(types[i], t) == 0;
		if (!seen && *n < max)
			snprintf(types[(*n)++], 64, "%s", t);
	}
	status = rc == SQLITE_DONE ? STATUS_OK : db_fail(rd.db, db_path, d);
	sqlite3_finalize(st);
	store_read_close(&rd);
	if (status == STATUS_OK && *n == 0)
		status = diag_fail(d, STATUS_EINPUT, "%s: no run %lld", db_path, (long long)run_id);
	return status;
}

/* The run's window: its start (calibrate.h) and start + horizon. */
static int read_window(sqlite3 *db, const char *path, struct calibration *c, struct diag *d)
{
	sqlite3_stmt *st;
	double horizon_s = 0, start_s = NAN;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT horizon_s, (SELECT min(start_unix_s) FROM charges WHERE run_id = ?1 AND "
			       "hour = 0), (SELECT min(hour) FROM charges WHERE run_id = ?1), (SELECT min(start_unix_s) "
			       "FROM charges WHERE run_id = ?1 AND hour = (SELECT min(hour) FROM charges WHERE run_id = ?1)) "
			       "FROM runs WHERE run_id = ?1", -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, path, d);
	sqlite3_bind_int64(st, 1, c->run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		horizon_s = sqlite3_column_double(st, 0);
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			start_s = sqlite3_column_double(st, 1);
		else if (sqlite3_column_type(st, 2) != SQLITE_NULL)  /* the clock hour holding the start */
			start_s = floor(sqlite3_column_double(st, 3) / 3600) * 3600 - 3600.0 * sqlite3_column_int(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? diag_fail(d, STATUS_EINPUT, "%s: no run %lld", path, (long long)c->run_id)
					 : db_fail(db, path, d);
	if (isnan(start_s))
		return diag_fail(d, STATUS_EINPUT, "%s: run %lld has no bill lines; expected a run written by gpucap "
				 "0.6 or later (schema version 6) that bought capacity", path, (long long)c->run_id);
	c->run_start_unix_s = (int64_t)llround(start_s);
	c->run_end_unix_s = (int64_t)llround(start_s + horizon_s);
	return STATUS_OK;
}

/* The run's bill lines on the bill's clock hours (those outside them are not compared). */
static int read_sim(sqlite3 *db, const char *path, struct calibration *c, struct diag *d)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT start_unix_s, option, kind, quantity_h, effective_usd FROM charges "
			       "WHERE run_id = ?1", -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, path, d);
	sqlite3_bind_int64(st, 1, c->run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t h = (int64_t)floor(sqlite3_column_double(st, 0) / 3600) - c->start_unix_s / 3600;
		int k = option_class((const char *)sqlite3_column_text(st, 1));
		const char *kind = (const char *)sqlite3_column_text(st, 2);
		double q = sqlite3_column_double(st, 3), e = sqlite3_column_double(st, 4);
		struct billcell *cell;

		if (h < 0 || h >= c->nhours || k < 0)
			continue;
		cell = &c->sim[h * BILLCLASS_N + k];
		cell->cost_usd += e;
		if (strcmp(kind, "unused") == 0)
			cell->unused_usd += e;
		else if (strcmp(kind, "upfront") != 0)
			cell->hours_h += q;
		if (strcmp(kind, "used") == 0)
			cell->used_h += q;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? STATUS_OK : db_fail(db, path, d);
}

/* Add hour h's pair (billed, simulated) to e. */
static void error_add(struct calibrate_error *e, int64_t hour_unix_s, double billed, double sim)
{
	e->billed += billed;
	e->sim += sim;
	if (billed > 1e-9) {
		double pct = fabs(sim - billed) / billed * 100;

		e->mape_pct += pct;
		if (e->hours++ == 0 || pct > e->worst_pct + 1e-9) {  /* the earliest of equal ones, rounding apart */
			e->worst_pct = pct;
			e->worst_unix_s = hour_unix_s;
			e->worst_billed = billed;
			e->worst_sim = sim;
		}
	} else if (sim > 1e-9) {
		e->zero_hours++;
	}
}

static void error_end(struct calibrate_error *e)
{
	e->mape_pct = e->hours ? e->mape_pct / e->hours : NAN;
	if (!e->hours)
		e->worst_pct = NAN;
	e->total_pct = e->billed > 1e-9 ? (e->sim - e->billed) / e->billed * 100 : NAN;
}

static void cell_add(struct billcell *to, const struct billcell *x)
{
	to->hours_h += x->hours_h;
	to->cost_usd += x->cost_usd;
	to->used_h += x->used_h;
	to->unused_usd += x->unused_usd;
}

/* Totals and errors, per class and over all (calibrate.h). */
static void compare(struct calibration *c)
{
	for (int h = 0; h < c->nhours; h++) {
		struct billcell b = { 0 }, s = { 0 };
		int64_t at = c->start_unix_s + 3600 * (int64_t)h;

		for (int k = 0; k < BILLCLASS_N; k++) {
			const struct billcell *bk = &c->billed[h * BILLCLASS_N + k], *sk = &c->sim[h * BILLCLASS_N + k];

			cell_add(&b, bk);
			cell_add(&s, sk);
			cell_add(&c->billed_total[k], bk);
			cell_add(&c->sim_total[k], sk);
			error_add(&c->hours[k], at, bk->hours_h, sk->hours_h);
			error_add(&c->cost[k], at, bk->cost_usd, sk->cost_usd);
		}
		cell_add(&c->billed_total[CALIBRATE_ALL], &b);
		cell_add(&c->sim_total[CALIBRATE_ALL], &s);
		error_add(&c->hours[CALIBRATE_ALL], at, b.hours_h, s.hours_h);
		error_add(&c->cost[CALIBRATE_ALL], at, b.cost_usd, s.cost_usd);
	}
	for (int k = 0; k <= BILLCLASS_N; k++) {
		error_end(&c->hours[k]);
		error_end(&c->cost[k]);
	}
}

int calibrate_run(struct calibration *c, const struct billfile *b, const char *db_path, int64_t run_id,
		  struct diag *d)
{
	struct store_reader rd;
	size_t n = (size_t)b->nhours * BILLCLASS_N;
	int status;

	memset(c, 0, sizeof *c);
	c->run_id = run_id;
	c->start_unix_s = b->start_unix_s;
	c->nhours = b->nhours;
	c->billed = malloc(n * sizeof *c->billed);
	c->sim = calloc(n, sizeof *c->sim);
	if (!c->billed || !c->sim) {
		calibrate_fini(c);
		return diag_fail(d, STATUS_ENOMEM, "out of memory (while calibrating)");
	}
	memcpy(c->billed, b->cells, n * sizeof *c->billed);
	status = store_read_open(&rd, db_path, 6, "gpucap calibrate", d);
	if (status == STATUS_OK) {
		status = read_window(rd.db, db_path, c, d);
		if (status == STATUS_OK &&
		    (b->first_unix_s < c->run_start_unix_s || b->last_unix_s > c->run_end_unix_s)) {
			char b0[32], b1[32], r0[32], r1[32];

			units_format_time((int64_t)floor(b->first_unix_s), b0, sizeof b0);
			units_format_time((int64_t)ceil(b->last_unix_s), b1, sizeof b1);
			units_format_time(c->run_start_unix_s, r0, sizeof r0);
			units_format_time(c->run_end_unix_s, r1, sizeof r1);
			status = diag_fail(d, STATUS_EINPUT, "the bill covers %s to %s, run %lld only %s to %s; expected a "
					   "scenario whose start and horizon cover the bill's period", b0, b1,
					   (long long)run_id, r0, r1);
		}
		if (status == STATUS_OK)
			status = read_sim(rd.db, db_path, c, d);
		store_read_close(&rd);
	}
	if (status != STATUS_OK) {
		calibrate_fini(c);
		return status;
	}
	compare(c);
	return STATUS_OK;
}

void calibrate_fini(struct calibration *c)
{
	free(c->billed);
	free(c->sim);
	memset(c, 0, sizeof *c);
}
