/* merge: see merge.h. IN is attached to OUT's connection as "src" for the length of one merge_file(). */
#include "merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "status.h"
#include "store_private.h"
#include "store_read.h"


/* The statements that copy one run of src into main: ?1 = src run_id, ?2 = OUT run_id, ?3 = OUT sweep_id
 * (COPY_RUN only: binding ?3 of the others fails harmlessly, SQLITE_RANGE). COPY_STATUS reads OUT at ?1. */
enum copy_id { COPY_RUN, COPY_METRICS, COPY_SAMPLES, COPY_EVENTS, COPY_WARNINGS, COPY_LABELS, COPY_CHARGES, COPY_HOURS,
	       COPY_TYPE_SAMPLES, COPY_INPUTS, COPY_STATUS, COPY_COUNT };

static const char *const copy_sql[COPY_COUNT] = {
	[COPY_RUN] = ("INSERT INTO main.runs (run_id, " RUN_COLUMNS ") SELECT ?2, name, scenario_path, "
		      "scenario_text, overrides, seed, status, started_at, wall_s, version, horizon_s, instance_type, "
		      "?3, point, replication, run_key, error, region FROM src.runs WHERE run_id = ?1"),
	[COPY_METRICS] = ("INSERT INTO main.metrics (run_id, name, value) SELECT ?2, name, value FROM src.metrics "
			  "WHERE run_id = ?1"),
	[COPY_SAMPLES] = ("INSERT INTO main.samples (run_id, " SAMPLE_COLUMNS ") SELECT ?2, " SAMPLE_COLUMNS
			  " FROM src.samples WHERE run_id = ?1 ORDER BY t_s"),
	[COPY_EVENTS] = ("INSERT INTO main.events (run_id, " EVENT_COLUMNS ") SELECT ?2, " EVENT_COLUMNS
			 " FROM src.events WHERE run_id = ?1 ORDER BY seq"),
	[COPY_WARNINGS] = ("INSERT INTO main.warnings (run_id, " WARNING_COLUMNS ") SELECT ?2, " WARNING_COLUMNS
			   " FROM src.warnings WHERE run_id = ?1 ORDER BY seq"),
	[COPY_LABELS] = ("INSERT INTO main.labels (run_id, " LABEL_COLUMNS ") SELECT ?2, " LABEL_COLUMNS
			 " FROM src.labels WHERE run_id = ?1 ORDER BY key"),
	[COPY_CHARGES] = ("INSERT INTO main.charges (run_id, " CHARGE_COLUMNS ") SELECT ?2, " CHARGE_COLUMNS
			  " FROM src.charges WHERE run_id = ?1 ORDER BY hour, option, kind"),
	[COPY_HOURS] = ("INSERT INTO main.hours (run_id, " HOUR_COLUMNS ") SELECT ?2, " HOUR_COLUMNS
			" FROM src.hours WHERE run_id = ?1 ORDER BY hour_start_s"),
	[COPY_TYPE_SAMPLES] = ("INSERT INTO main.type_samples (run_id, " TYPE_SAMPLE_COLUMNS ") SELECT ?2, "
			       TYPE_SAMPLE_COLUMNS " FROM src.type_samples WHERE run_id = ?1 ORDER BY t_s, type"),
	[COPY_INPUTS] = ("INSERT INTO main.run_inputs (run_id, " INPUT_COLUMNS ") SELECT ?2, " INPUT_COLUMNS
			 " FROM src.run_inputs WHERE run_id = ?1 ORDER BY seq"),
	[COPY_STATUS] = "SELECT status FROM main.runs WHERE run_id = ?1",
};

/* One merge: its input, statements and counts. */
struct merge {
	const char *in_path;                /* borrowed */
	char what[320];                     /* "merging IN", for messages (they name OUT first) */
	sqlite3_stmt *stmt[COPY_COUNT];     /* owned while src is attached */
	struct merge_counts counts;
};

/*
 * Refuse, before anything is written, an IN that is not a gpucap results database of this version
 * (store_read_open(): which also waits for a lock on IN and rolls back a hot journal a killed writer left
 * beside it, so that a killed shard can be merged) or lacks some of its tables.
 */
static int in_check(const char *in_path, struct diag *d)
{
	struct store_reader rd;
	sqlite3_stmt *stmt;
	int tables = 0, status = store_read_open(&rd, in_path, STORE_SCHEMA_VERSION, "gpucap merge", d);

	if (status != STATUS_OK)
		return status;
	if (sqlite3_prepare_v2(rd.db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('runs', "
			       "'metrics', 'samples', 'events', 'sweeps', 'sweep_params', 'warnings', 'labels', "
			       "'charges', 'hours', 'type_samples', 'run_inputs', 'run_claims')", -1, &stmt,
			       NULL) != SQLITE_OK)
		status = store_read_fail(rd.db, &rd.wait, in_path, d, "reading it to merge");
	else if (sqlite3_step(stmt) == SQLITE_ROW)
		tables = sqlite3_column_int(stmt, 0);
	else
		status = store_read_fail(rd.db, &rd.wait, in_path, d, "reading it to merge");
	sqlite3_finalize(stmt);  /* NULL is a no-op */
	if (status == STATUS_OK && tables != 13)
		status = diag_fail(d, STATUS_EINPUT, "%s: a gpucap results database with %d of its 13 tables; the file "
				   "is damaged; not merged", in_path, tables);
	store_read_close(&rd);
	return status;
}

/*
 * After a merge failed for a reason other than a lock: SQLite's message was written against OUT (the
 * connection's main file), but a damaged IN fails the same way ("database disk image is malformed") while
 * its pages are read. IN is checked (PRAGMA quick_check, read-only); when it is damaged, the message is
 * replaced by one that names IN (STATUS_EINPUT); otherwise status and the message are kept.
 */
static int in_blame(const char *in_path, const char *out_path, int status, struct diag *d)
{
	struct store_reader rd;
	struct diag ignored;
	sqlite3_stmt *stmt;
	char verdict[256] = "";
	int rc;

	if (store_read_open(&rd, in_path, 1, "gpucap merge", &ignored) != STATUS_OK)
		return status;
	rc = sqlite3_prepare_v2(rd.db, "PRAGMA quick_check(1)", -1, &stmt, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW)
		snprintf(verdict, sizeof verdict, "%s", (const char *)sqlite3_column_text(stmt, 0));
	else
		snprintf(verdict, sizeof verdict, "%s", sqlite3_errmsg(rd.db));
	sqlite3_finalize(stmt);
	store_read_close(&rd);
	if (strcmp(verdict, "ok") == 0)
		return status;
	for (char *nl = strchr(verdict, '\n'); nl; nl = strchr(nl, '\n'))
		*nl = ' ';  /* quick_check's first finding can span lines: the message is one */
	return diag_fail(d, STATUS_EINPUT, "%s: the file is damaged (%s); not merged, %s is unchanged", in_path,
			 verdict, out_path);
}

/* IN and OUT the same file (by device and inode)? */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Step a statement of m with the three ids bound; for COPY_STATUS, the status text (or "") into out. */
static int copy_step(struct store *st, struct merge *m, enum copy_id id, int64_t src_id, int64_t out_id,
		     int64_t out_sweep, char out[16], struct diag *d, const char *what)
{
	sqlite3_stmt *stmt = m->stmt[id];
	int rc;

	sqlite3_bind_int64(stmt, 1, id == COPY_STATUS ? out_id : src_id);
	if (id != COPY_STATUS) {
		sqlite3_bind_int64(stmt, 2, out_id);
		if (out_sweep)
			sqlite3_bind_int64(stmt, 3, out_sweep);
		else
			sqlite3_bind_null(stmt, 3);
	}
	rc = sqlite3_step(stmt);
	if (out) {
		out[0] = '\0';
		if (rc == SQLITE_ROW) {
			snprintf(out, 16, "%s", (const char *)sqlite3_column_text(stmt, 0));
			rc = SQLITE_DONE;
		}
	}
	return store_step_done(st, stmt, rc, d, what);
}

/* Copy run src_id of IN into OUT at out_id (in OUT's sweep out_sweep, 0 for none), with all its rows. */
static int run_copy(struct store *st, struct merge *m, int64_t src_id, int64_t out_id, int64_t out_sweep,
		    struct diag *d, const char *what)
{
	int status = STATUS_OK;

	for (int id = COPY_RUN; id <= COPY_INPUTS && status == STATUS_OK; id++)
		status = copy_step(st, m, (enum copy_id)id, src_id, out_id, out_sweep, NULL, d, what);
	if (status == STATUS_OK)
		m->counts.runs_copied++;
	return status;
}

/*
 * The runs of one sweep: run src_id goes to out_base + (src_id - src_base). Kept when OUT has an 'ok' run
 * there, or any run when IN's is not 'ok'; OUT's 'failed' run is replaced by IN's 'ok' one.
 */
static int sweep_runs(struct store *st, struct merge *m, int64_t src_sweep, int64_t src_base, int64_t out_sweep,
		      int64_t out_base, struct diag *d, const char *what)
{
	sqlite3_stmt *stmt;
	int status = STATUS_OK, rc;

	if (sqlite3_prepare_v2(st->db, "SELECT run_id, status = 'ok' FROM src.runs WHERE sweep_id = ?1 ORDER BY run_id",
			       -1, &stmt, NULL) != SQLITE_OK)
		return store_db_error(st, d, what);
	sqlite3_bind_int64(stmt, 1, src_sweep);
	while (status == STATUS_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		int64_t src_id = sqlite3_column_int64(stmt, 0), out_id = out_base + (src_id - src_base);
		bool src_ok = sqlite3_column_int(stmt, 1);
		char there[16];
		bool skip;

		status = copy_step(st, m, COPY_STATUS, 0, out_id, 0, there, d, what);
		if (status != STATUS_OK)
			break;
		if (!there[0] || (src_ok && strcmp(there, "failed") == 0)) {
			status = store_run_slot(st, out_id, &skip, d, what);
			if (status == STATUS_OK)
				status = run_copy(st, m, src_id, out_id, out_sweep, d, what);
		} else {
			m->counts.runs_present++;
		}
	}
	if (status == STATUS_OK && rc != SQLITE_DONE)
		status = store_db_error(st, d, what);
	sqlite3_finalize(stmt);
	return status;
}

/* Find IN's sweep in OUT by key, or register it there (row, params, view); refuse a name clash. */
static int sweep_place(struct store *st, struct merge *m, int64_t src_sweep, int64_t *out_sweep,
		       int64_t *out_base, struct diag *d, const char *what)
{
	sqlite3_stmt *stmt;
	int status = STATUS_OK, rc;

	if (sqlite3_prepare_v2(st->db, "SELECT o.sweep_id, o.run_id_base, o.sweep_key = s.sweep_key, s.name "
			       "FROM src.sweeps AS s JOIN main.sweeps AS o ON o.sweep_key = s.sweep_key OR "
			       "o.name = s.name WHERE s.sweep_id = ?1 ORDER BY 3 DESC LIMIT 1", -1, &stmt,
			       NULL) != SQLITE_OK)
		return store_db_error(st, d, what);
	sqlite3_bind_int64(stmt, 1, src_sweep);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW && sqlite3_column_int(stmt, 2)) {
		*out_sweep = sqlite3_column_int64(stmt, 0);
		*out_base = sqlite3_column_int64(stmt, 1);
	} else if (rc == SQLITE_ROW) {
		status = diag_fail(d, STATUS_EINPUT, "%s: its sweep '%s' is not the sweep of that name already in %s "
				   "(another sweep file, or other scenarios or seeds: a different sweep_key); give one "
				   "of them another name; not merged", m->in_path, sqlite3_column_text(stmt, 3),
				   st->path);
	} else if (rc != SQLITE_DONE) {
		status = store_db_error(st, d, what);
	}
	sqlite3_finalize(stmt);
	if (status != STATUS_OK || rc == SQLITE_ROW)
		return status;
	status = store_next_run_id(st, out_base, d, what);
	if (status == STATUS_OK && sqlite3_prepare_v2(st->db, "INSERT INTO main.sweeps (name, sweep_key, file_path, "
						      "file_text, params, npoints, nreps, run_id_base, created_at) "
						      "SELECT name, sweep_key, file_path, file_text, params, npoints, "
						      "nreps, ?2, created_at FROM src.sweeps WHERE sweep_id = ?1", -1,
						      &stmt, NULL) != SQLITE_OK)
		return store_db_error(st, d, what);
	if (status != STATUS_OK)
		return status;
	sqlite3_bind_int64(stmt, 1, src_sweep);
	sqlite3_bind_int64(stmt, 2, *out_base);
	status = sqlite3_step(stmt) == SQLITE_DONE ? STATUS_OK : store_db_error(st, d, what);
	sqlite3_finalize(stmt);
	if (status != STATUS_OK)
		return status;
	*out_sweep = sqlite3_last_insert_rowid(st->db);
	if (sqlite3_prepare_v2(st->db, "INSERT INTO main.sweep_params (sweep_id, point, key, value, numeric_value) "
			       "SELECT ?2, point, key, value, numeric_value FROM src.sweep_params WHERE sweep_id = ?1",
			       -1, &stmt, NULL) != SQLITE_OK)
		return store_db_error(st, d, what);
	sqlite3_bind_int64(stmt, 1, src_sweep);
	sqlite3_bind_int64(stmt, 2, *out_sweep);
	status = sqlite3_step(stmt) == SQLITE_DONE ? STATUS_OK : store_db_error(st, d, what);
	sqlite3_finalize(stmt);
	if (status == STATUS_OK)
		status = store_sweep_view_create(st, *out_sweep, d, what);
	if (status == STATUS_OK)
		m->counts.sweeps_added++;
	return status;
}

/* Every sweep of IN and its runs. */
static int merge_sweeps(struct store *st, struct merge *m, struct diag *d, const char *what)
{
	sqlite3_stmt *stmt;
	int status = STATUS_OK, rc;

	if (sqlite3_prepare_v2(st->db, "SELECT sweep_id, run_id_base FROM src.sweeps ORDER BY sweep_id", -1, &stmt,
			       NULL) != SQLITE_OK)
		return store_db_error(st, d, what);
	while (status == STATUS_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		int64_t src_sweep = sqlite3_column_int64(stmt, 0), src_base = sqlite3_column_int64(stmt, 1);
		int64_t out_sweep = 0, out_base = 0;

		status = sweep_place(st, m, src_sweep, &out_sweep, &out_base, d, what);
		if (status == STATUS_OK)
			status = sweep_runs(st, m, src_sweep, src_base, out_sweep, out_base, d, what);
	}
	if (status == STATUS_OK && rc != SQLITE_DONE)
		status = store_db_error(st, d, what);
	sqlite3_finalize(stmt);
	return status;
}

/*
 * The runs of IN outside its sweeps, appended at OUT's next free run ids unless OUT has the same run. The
 * ids to copy are read first, so that rows copied by this merge are not matched against each other.
 */
static int merge_plain(struct store *st, struct merge *m, struct diag *d, const char *what)
{
	sqlite3_stmt *stmt;
	int64_t *ids = NULL;
	size_t n = 0, cap = 0;
	int status = STATUS_OK, rc;

	if (sqlite3_prepare_v2(st->db, "SELECT r.run_id, EXISTS (SELECT 1 FROM main.runs AS o WHERE "
			       "o.run_key IS r.run_key AND o.started_at = r.started_at AND o.seed = r.seed AND "
			       "o.overrides = r.overrides AND o.scenario_text = r.scenario_text) FROM src.runs AS r "
			       "WHERE r.sweep_id IS NULL OR r.sweep_id NOT IN (SELECT sweep_id FROM src.sweeps) "
			       "ORDER BY r.run_id", -1, &stmt, NULL) != SQLITE_OK)
		return store_db_error(st, d, what);
	while (status == STATUS_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (sqlite3_column_int(stmt, 1)) {
			m->counts.runs_present++;
			continue;
		}
		if (n == cap) {
			size_t grown_cap = cap ? 2 * cap : 64;
			int64_t *grown = realloc(ids, grown_cap * sizeof *grown);
			if (!grown) {
				status = diag_fail(d, STATUS_ENOMEM, "%s: out of memory (while %s)", st->path, what);
				break;
			}
			ids = grown;
			cap = grown_cap;
		}
		ids[n++] = sqlite3_column_int64(stmt, 0);
	}
	if (status == STATUS_OK && rc != SQLITE_DONE)
		status = store_db_error(st, d, what);
	sqlite3_finalize(stmt);
	for (size_t i = 0; i < n && status == STATUS_OK; i++) {
		int64_t out_id;

		status = store_next_run_id(st, &out_id, d, what);
		if (status == STATUS_OK)
			status = run_copy(st, m, ids[i], out_id, 0, d, what);
	}
	free(ids);
	return status;
}

/* Inside OUT's write transaction (run again from the start if another writer made it wait too long). */
static int merge_body(struct store *st, void *arg, struct diag *d)
{
	struct merge *m = arg;
	const char *what = m->what;
	int status;

	memset(&m->counts, 0, sizeof m->counts);
	status = merge_sweeps(st, m, d, what);
	if (status == STATUS_OK)
		status = merge_plain(st, m, d, what);
	return status;
}

int merge_file(struct store *out, const char *in_path, struct merge_counts *counts, struct diag *d)
{
	struct merge m = { .in_path = in_path };
	sqlite3_stmt *attach;
	int64_t waited = out->wait.waited_ms;
	int status;

	if (same_file(in_path, out->path))
		return diag_fail(d, STATUS_EINPUT, "%s: is the output file %s itself; not merged", in_path, out->path);
	status = in_check(in_path, d);
	if (status != STATUS_OK)
		return status;
	if (sqlite3_prepare_v2(out->db, "ATTACH DATABASE ?1 AS src", -1, &attach, NULL) != SQLITE_OK)
		return store_db_error(out, d, "attaching a file to merge");
	sqlite3_bind_text(attach, 1, in_path, -1, SQLITE_STATIC);
	status = sqlite3_step(attach) == SQLITE_DONE ? STATUS_OK : store_db_error(out, d, "attaching a file to merge");
	sqlite3_finalize(attach);
	if (status != STATUS_OK)
		return status;
	for (int i = 0; i < COPY_COUNT && status == STATUS_OK; i++)
		if (sqlite3_prepare_v2(out->db, copy_sql[i], -1, &m.stmt[i], NULL) != SQLITE_OK)
			status = store_db_error(out, d, "preparing to merge");
	snprintf(m.what, sizeof m.what, "merging %s", in_path);
	/* the transaction locks both files: a wait may be for either, and the terminal line says so */
	out->wait.also = in_path;
	if (status == STATUS_OK)
		status = store_write_txn(out, merge_body, &m, d, m.what);
	out->wait.also = NULL;
	for (int i = 0; i < COPY_COUNT; i++)
		sqlite3_finalize(m.stmt[i]);
	sqlite3_exec(out->db, "DETACH DATABASE src", NULL, NULL, NULL);
	if (status == STATUS_EDB && out->wait.waited_ms == waited)
		status = in_blame(in_path, out->path, status, d);
	if (status == STATUS_OK)
		*counts = m.counts;
	return status;
}
