/*
 * store_calib: a calibration (analysis/calibrate.h) into the results file, its calibrations row and its
 * calibration_hours rows in one write transaction (schema.sql), so that it is there whole or not at all.
 */
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "status.h"
#include "store.h"
#include "store_private.h"

#define WHAT "storing the calibration"

struct calib_write {
	const struct calibration *c;
	const struct billfile *b;
	const char *bill_path;
	const char *hash;
	const char *types;  /* one per line */
	int64_t id;         /* out */
};

static void bind_error(sqlite3_stmt *s, int i, const struct calibrate_error *e)
{
	if (!e->hours) {
		for (int k = 0; k < 3; k++)
			sqlite3_bind_null(s, i + k);
	} else {
		sqlite3_bind_double(s, i, e->mape_pct);
		sqlite3_bind_int64(s, i + 1, e->worst_unix_s);
		sqlite3_bind_double(s, i + 2, e->worst_pct);
	}
	if (e->total_pct == e->total_pct)
		sqlite3_bind_double(s, i + 3, e->total_pct);
	else
		sqlite3_bind_null(s, i + 3);
}

static int write_summary(struct store *st, struct calib_write *w, struct diag *d)
{
	const struct calibration *c = w->c;
	const struct billcell *b = &c->billed_total[CALIBRATE_ALL], *s = &c->sim_total[CALIBRATE_ALL];
	sqlite3_stmt *q;
	char now[32];
	int rc;

	if (sqlite3_prepare_v2(st->db, "INSERT INTO main.calibrations VALUES (NULL, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
			       "?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)", -1, &q,
			       NULL) != SQLITE_OK)
		return store_db_error(st, d, WHAT);
	store_now(now);
	sqlite3_bind_int64(q, 1, c->run_id);
	sqlite3_bind_text(q, 2, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 3, w->bill_path, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 4, w->hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 5, billfile_format_name(w->b->format), -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 6, w->types, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 7, c->start_unix_s);
	sqlite3_bind_int(q, 8, c->nhours);
	sqlite3_bind_int64(q, 9, w->b->rows);
	sqlite3_bind_int64(q, 10, w->b->kept);
	sqlite3_bind_int64(q, 11, w->b->other_type);
	sqlite3_bind_int64(q, 12, w->b->not_usage);
	sqlite3_bind_double(q, 13, b->hours_h);
	sqlite3_bind_double(q, 14, s->hours_h);
	sqlite3_bind_double(q, 15, b->cost_usd);
	sqlite3_bind_double(q, 16, s->cost_usd);
	bind_error(q, 17, &c->hours[CALIBRATE_ALL]);
	bind_error(q, 21, &c->cost[CALIBRATE_ALL]);
	rc = store_step_done(st, q, sqlite3_step(q), d, WHAT);
	sqlite3_finalize(q);
	w->id = sqlite3_last_insert_rowid(st->db);
	return rc;
}

static int write_body(struct store *st, void *arg, struct diag *d)
{
	struct calib_write *w = arg;
	const struct calibration *c = w->c;
	sqlite3_stmt *q;
	int rc = write_summary(st, w, d);

	if (rc)
		return rc;
	if (sqlite3_prepare_v2(st->db, "INSERT INTO main.calibration_hours VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
			       "?10, ?11)", -1, &q, NULL) != SQLITE_OK)
		return store_db_error(st, d, WHAT);
	for (int h = 0; h < c->nhours && !rc; h++)
		for (int k = 0; k < BILLCLASS_N && !rc; k++) {
			const struct billcell *x = &c->billed[h * BILLCLASS_N + k], *y = &c->sim[h * BILLCLASS_N + k];

			if (!x->hours_h && !x->cost_usd && !y->hours_h && !y->cost_usd && !x->unused_usd && !y->unused_usd)
				continue;
			sqlite3_bind_int64(q, 1, w->id);
			sqlite3_bind_int64(q, 2, c->start_unix_s + 3600 * (int64_t)h);
			sqlite3_bind_text(q, 3, billclass_name((enum billclass)k), -1, SQLITE_STATIC);
			sqlite3_bind_double(q, 4, x->hours_h);
			sqlite3_bind_double(q, 5, y->hours_h);
			sqlite3_bind_double(q, 6, x->cost_usd);
			sqlite3_bind_double(q, 7, y->cost_usd);
			sqlite3_bind_double(q, 8, x->used_h);
			sqlite3_bind_double(q, 9, y->used_h);
			sqlite3_bind_double(q, 10, x->unused_usd);
			sqlite3_bind_double(q, 11, y->unused_usd);
			rc = store_step_done(st, q, sqlite3_step(q), d, WHAT);
		}
	sqlite3_finalize(q);
	return rc;
}

int store_calibration_add(struct store *st, const struct calibration *c, const struct billfile *b,
			  const char *bill_path, const char *const *types, int ntypes, int64_t *id, struct diag *d)
{
	struct store_input in;
	struct calib_write w = { .c = c, .b = b, .bill_path = bill_path };
	char list[BILLFILE_TYPES_MAX * 66] = "";
	int rc = store_file_hash(bill_path, &in, d);

	if (rc)
		return rc;
	for (int i = 0; i < ntypes; i++) {
		size_t o = strlen(list);
		snprintf(list + o, sizeof list - o, "%s%s", i ? "\n" : "", types[i]);
	}
	w.hash = in.hash;
	w.types = list;
	rc = store_write_txn(st, write_body, &w, d, WHAT);
	if (rc == STATUS_OK)
		*id = w.id;
	return rc;
}
