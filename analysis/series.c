/* series: see series.h. */
#include "series.h"

#include <stdbool.h>
#include <string.h>

#include <sqlite3.h>

#include "sink.h"
#include "status.h"
#include "store.h"
#include "store_read.h"

#define SQL_MAX 4096
#define NAME_MAX_BYTES 128  /* an instance type's name (scenario.h, SCENARIO_NAME_MAX) */

struct series_run {
	int64_t run_id;
	int ntypes;                                  /* type columns: 0, or the run's types (> 1) */
	char type[SINK_TYPES_MAX][NAME_MAX_BYTES];   /* the serving type first, then by name */
};

static int db_fail(sqlite3 *db, const char *path, struct diag *d)
{
	return store_read_fail(db, NULL, path, d, "exporting the samples");
}

/* One integer from sql with ?1 = run_id (0 when no row). */
static int query_int(sqlite3 *db, const char *path, const char *sql, int64_t run_id, int64_t *v, struct diag *d)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, path, d);
	if (sqlite3_bind_parameter_count(st) > 0)
		sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? STATUS_OK : db_fail(db, path, d);
}

/* The file is ours, the run is there and finished; its types (from type_samples, when the file has it). */
static int read_run(sqlite3 *db, const char *path, struct series_run *r, struct diag *d)
{
	sqlite3_stmt *st;
	int64_t app, ok, has_table;
	int status, rc;

	if ((status = query_int(db, path, "SELECT application_id FROM pragma_application_id", 0, &app, d)))
		return status;
	if (app != STORE_APPLICATION_ID)
		return diag_fail(d, STATUS_EINPUT, "%s: not a gpucap results database", path);
	if ((status = query_int(db, path, "SELECT count(*) FROM runs WHERE run_id = ?1", r->run_id, &ok, d)))
		return status;
	if (!ok)
		return diag_fail(d, STATUS_EINPUT, "%s: no run %lld", path, (long long)r->run_id);
	if ((status = query_int(db, path, "SELECT count(*) FROM runs WHERE run_id = ?1 AND status = 'ok'", r->run_id,
				&ok, d)))
		return status;
	if (!ok)
		return diag_fail(d, STATUS_EINPUT, "%s: run %lld did not finish; it has no samples", path,
				 (long long)r->run_id);
	if ((status = query_int(db, path, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
				"'type_samples'", 0, &has_table, d)))
		return status;
	r->ntypes = 0;
	if (!has_table)
		return STATUS_OK;  /* written before schema version 9 */
	if (sqlite3_prepare_v2(db, "SELECT DISTINCT type FROM type_samples WHERE run_id = ?1 ORDER BY "
			       "type <> (SELECT instance_type FROM runs WHERE run_id = ?1), type", -1, &st, NULL) !=
	    SQLITE_OK)
		return db_fail(db, path, d);
	sqlite3_bind_int64(st, 1, r->run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && r->ntypes < SINK_TYPES_MAX)
		snprintf(r->type[r->ntypes++], NAME_MAX_BYTES, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return diag_fail(d, STATUS_EINPUT, "%s: run %lld has samples of more than %d instance types", path,
				 (long long)r->run_id, SINK_TYPES_MAX);
	return rc == SQLITE_DONE ? STATUS_OK : db_fail(db, path, d);
}

/* samples joined with each type's rows: ?1 = run_id, ?2 ... = the types. */
static void build_sql(const struct series_run *r, char *sql, size_t size)
{
	size_t n = (size_t)snprintf(sql, size, "SELECT s.*");

	for (int t = 0; t < r->ntypes; t++)
		n += (size_t)snprintf(sql + n, size - n, ", t%d.instances, t%d.busy_slots", t, t);
	n += (size_t)snprintf(sql + n, size - n, " FROM samples s");
	for (int t = 0; t < r->ntypes; t++)
		n += (size_t)snprintf(sql + n, size - n, " LEFT JOIN type_samples t%d ON t%d.run_id = s.run_id AND "
				      "t%d.t_s = s.t_s AND t%d.type = ?%d", t, t, t, t, t + 2);
	snprintf(sql + n, size - n, " WHERE s.run_id = ?1 ORDER BY s.t_s");
}

static void write_value(FILE *out, sqlite3_stmt *st, int c)
{
	if (sqlite3_column_type(st, c) != SQLITE_NULL)
		fprintf(out, "%.17g", sqlite3_column_double(st, c));
}

int series_export(const char *db_path, int64_t run_id, FILE *out, struct diag *d)
{
	struct series_run r = { .run_id = run_id };
	char sql[SQL_MAX];
	struct store_reader rd;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int status, rc, ncols, nsample;

	/* store_read.h: refuses a directory or a newer file, waits for a lock, rolls back a hot journal */
	status = store_read_open(&rd, db_path, 1, "gpucap export", d);
	if (status != STATUS_OK)
		return status;
	db = rd.db;
	status = read_run(db, db_path, &r, d);
	if (status == STATUS_OK) {
		build_sql(&r, sql, sizeof sql);
		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
			status = db_fail(db, db_path, d);
	}
	if (status != STATUS_OK)
		goto out_close_db;
	sqlite3_bind_int64(st, 1, run_id);
	for (int t = 0; t < r.ntypes; t++)
		sqlite3_bind_text(st, t + 2, r.type[t], -1, SQLITE_STATIC);
	ncols = sqlite3_column_count(st);
	nsample = ncols - 2 * r.ntypes;
	/* the header: the samples columns but run_id, then the types' */
	for (int c = 1; c < nsample; c++)
		fprintf(out, "%s%s", c > 1 ? "," : "", sqlite3_column_name(st, c));
	for (int t = 0; t < r.ntypes; t++)
		fprintf(out, ",instances:%s,busy_slots:%s", r.type[t], r.type[t]);
	fputs("\r\n", out);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int c = 1; c < ncols; c++) {
			if (c > 1)
				fputc(',', out);
			write_value(out, st, c);
		}
		fputs("\r\n", out);
	}
	if (rc != SQLITE_DONE)
		status = db_fail(db, db_path, d);
	sqlite3_finalize(st);
out_close_db:
	store_read_close(&rd);
	return status;
}
