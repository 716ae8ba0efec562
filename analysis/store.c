/* store: see store.h. */
#include "store.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "scenario.h"
#include "status.h"
#include "store_limit.h"
#include "store_private.h"


#define STAGE_RUN_ID 1                   /* the run_id of the one run in the staging database */
#define US_PER_S 1e6

/* samples has one instances_* column per option kind, in enum order (option.h, SAMPLE_COLUMNS), bound as
 * ?6 ... ?12. */
_Static_assert(OPTION_KIND_COUNT == 7, "update schema.sql, the samples statement and its binding");

/*
 * Multi-line literals are parenthesised so that clang does not take them for a missing comma. The staging
 * statements write stage.*, which only the store's own connection sees; the copies take ?1 = the run_id in
 * the file. Column lists (store_private.h) are spelled out so that a migrated file (whose added columns
 * come last) and a new one are written alike.
 */

static const char *const stmt_sql[STMT_COUNT] = {
	[STMT_RUN] = ("INSERT INTO stage.runs (run_id, " RUN_COLUMNS ") "
		      "VALUES (1, ?1, ?2, ?3, ?4, ?5, 'running', ?6, NULL, ?7, ?8, ?9, ?10, ?11, ?12, ?13, NULL, ?14)"),
	[STMT_SAMPLE] = ("INSERT INTO stage.samples (run_id, " SAMPLE_COLUMNS ") "
			 "VALUES (1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"),
	[STMT_EVENT] = "INSERT INTO stage.events (run_id, " EVENT_COLUMNS ") VALUES (1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[STMT_METRIC] = "INSERT INTO stage.metrics (run_id, name, value) VALUES (1, ?2, ?3)",
	[STMT_WARNING] = "INSERT INTO stage.warnings (run_id, " WARNING_COLUMNS ") VALUES (1, ?2, ?3, ?4)",
	[STMT_LABEL] = "INSERT INTO stage.labels (run_id, " LABEL_COLUMNS ") VALUES (1, ?2, ?3)",
	[STMT_CHARGE] = ("INSERT INTO stage.charges (run_id, " CHARGE_COLUMNS ") "
			 "VALUES (1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"),
	[STMT_HOUR] = "INSERT INTO stage.hours (run_id, " HOUR_COLUMNS ") VALUES (1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[STMT_TYPE_SAMPLE] = "INSERT INTO stage.type_samples (run_id, " TYPE_SAMPLE_COLUMNS ") VALUES (1, ?2, ?3, ?4, ?5)",
	[STMT_INPUT] = "INSERT INTO stage.run_inputs (run_id, " INPUT_COLUMNS ") VALUES (1, ?2, ?3, ?4, ?5)",
	[STMT_COPY_RUN] = ("INSERT INTO main.runs (run_id, " RUN_COLUMNS ") "
			   "SELECT ?1, name, scenario_path, scenario_text, overrides, seed, 'ok', started_at, ?2, "
			   "version, horizon_s, instance_type, sweep_id, point, replication, run_key, NULL, region "
			   "FROM stage.runs"),
	[STMT_COPY_METRICS] = "INSERT INTO main.metrics (run_id, name, value) SELECT ?1, name, value FROM stage.metrics",
	[STMT_COPY_SAMPLES] = ("INSERT INTO main.samples (run_id, " SAMPLE_COLUMNS ") SELECT ?1, " SAMPLE_COLUMNS
			       " FROM stage.samples ORDER BY t_s"),
	[STMT_COPY_EVENTS] = ("INSERT INTO main.events (run_id, " EVENT_COLUMNS ") SELECT ?1, " EVENT_COLUMNS
			      " FROM stage.events ORDER BY seq"),
	[STMT_COPY_WARNINGS] = ("INSERT INTO main.warnings (run_id, " WARNING_COLUMNS ") SELECT ?1, " WARNING_COLUMNS
				" FROM stage.warnings ORDER BY seq"),
	[STMT_COPY_LABELS] = ("INSERT INTO main.labels (run_id, " LABEL_COLUMNS ") SELECT ?1, " LABEL_COLUMNS
			      " FROM stage.labels ORDER BY key"),
	[STMT_COPY_CHARGES] = ("INSERT INTO main.charges (run_id, " CHARGE_COLUMNS ") SELECT ?1, " CHARGE_COLUMNS
			       " FROM stage.charges ORDER BY hour, option, kind"),
	[STMT_COPY_HOURS] = ("INSERT INTO main.hours (run_id, " HOUR_COLUMNS ") SELECT ?1, " HOUR_COLUMNS
			     " FROM stage.hours ORDER BY hour_start_s"),
	[STMT_COPY_TYPE_SAMPLES] = ("INSERT INTO main.type_samples (run_id, " TYPE_SAMPLE_COLUMNS ") SELECT ?1, "
				    TYPE_SAMPLE_COLUMNS " FROM stage.type_samples ORDER BY t_s, type"),
	[STMT_COPY_INPUTS] = ("INSERT INTO main.run_inputs (run_id, " INPUT_COLUMNS ") SELECT ?1, " INPUT_COLUMNS
			      " FROM stage.run_inputs ORDER BY seq"),
	[STMT_STATUS] = "SELECT status FROM main.runs WHERE run_id = ?1",
	[STMT_DELETE] = "DELETE FROM main.runs WHERE run_id = ?1",
};

/* Settings of the connection only (nothing is written to the file). The busy handler is store_wait's, as
 * every reader's: a long wait says so on a terminal. */
static int connection_setup(struct store *st, struct diag *d)
{
	store_wait_attach(&st->wait, st->db, st->path, st->busy_ms);
	return store_exec(st, "PRAGMA foreign_keys = ON", d, "opening");
}

/*
 * The staging database: an in-memory database attached as "stage", with the file's six run tables as the
 * file defines them (their CREATE TABLE text from sqlite_master, renamed into stage), so that a row the file
 * would refuse (a duplicate metric, a NULL where one is not allowed) is refused while staging, by the same
 * call. Only this connection sees it; writing it takes no lock on the file.
 */
static int stage_create(struct store *st, struct diag *d)
{
	static const char *const tables[] = { "runs", "metrics", "samples", "events", "warnings", "labels",
					      "charges", "hours", "type_samples", "run_inputs" };
	const char *what = "creating the in-memory staging database";
	int status = store_exec(st, "ATTACH DATABASE ':memory:' AS stage", d, what);

	for (size_t t = 0; t < sizeof tables / sizeof tables[0] && status == STATUS_OK; t++) {
		sqlite3_stmt *stmt;
		const char *sql;
		char *create;

		if (sqlite3_prepare_v2(st->db, "SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?1",
				       -1, &stmt, NULL) != SQLITE_OK)
			return store_db_error(st, d, what);
		sqlite3_bind_text(stmt, 1, tables[t], -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) != SQLITE_ROW || !(sql = (const char *)sqlite3_column_text(stmt, 0)) ||
		    strncmp(sql, "CREATE TABLE ", 13) != 0) {
			status = diag_fail(d, STATUS_EDB, "%s: no table %s to stage runs like (while %s)", st->path,
					   tables[t], what);
			sqlite3_finalize(stmt);
			break;
		}
		/* SQLite stores the text from "CREATE TABLE " on normalised: the name follows. */
		create = sqlite3_mprintf("CREATE TABLE stage.%s", sql + 13);
		sqlite3_finalize(stmt);
		if (!create)
			return diag_fail(d, STATUS_ENOMEM, "%s: out of memory (while %s)", st->path, what);
		status = store_exec(st, create, d, what);
		sqlite3_free(create);
	}
	return status;
}

/* Empty the staging database for the next run. Touches only memory. */
static void stage_clear(struct store *st)
{
	sqlite3_exec(st->db, "DELETE FROM stage.events; DELETE FROM stage.samples; DELETE FROM stage.metrics; "
		     "DELETE FROM stage.warnings; DELETE FROM stage.labels; DELETE FROM stage.charges; DELETE FROM stage.hours; "
		     "DELETE FROM stage.type_samples; DELETE FROM stage.run_inputs; DELETE FROM stage.runs", NULL, NULL, NULL);
}

static void stmts_finalize(struct store *st)
{
	for (int i = 0; i < STMT_COUNT; i++) {
		sqlite3_finalize(st->stmt[i]);  /* NULL is a no-op */
		st->stmt[i] = NULL;
	}
}

static int stmts_prepare(struct store *st, struct diag *d)
{
	for (int i = 0; i < STMT_COUNT; i++) {
		if (sqlite3_prepare_v3(st->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &st->stmt[i],
				       NULL) != SQLITE_OK)
			return store_db_error(st, d, "preparing statements");
	}
	return STATUS_OK;
}

/*
 * Paths that would keep nothing or write beside something that is not a results file are refused before
 * SQLite sees them (models/README.md, "Limits"): "" and ":memory:" (SQLite opens a temporary or in-memory database
 * that vanishes at close, so a run would seem stored and be lost), and an existing path that is not a
 * regular file (/dev/null, a directory, a FIFO: SQLite would create "PATH-journal" beside it, in /dev for
 * /dev/null). *existed says whether the path named a file before the open.
 */
static int path_check(const char *path, bool *existed, struct diag *d)
{
	struct stat sb;

	*existed = false;
	if (path[0] == '\0' || strcmp(path, ":memory:") == 0)
		return diag_fail(d, STATUS_EUSAGE, "'%s': an in-memory or temporary database keeps nothing; "
				 "expected the path of a results file", path);
	if (stat(path, &sb) != 0)
		return STATUS_OK;  /* a new file (or one SQLite cannot open: it says why) */
	*existed = true;
	if (!S_ISREG(sb.st_mode))
		return diag_fail(d, STATUS_EUSAGE, "%s: not a regular file; expected the path of a results file "
				 "(a new one is created)", path);
	return STATUS_OK;
}

/*
 * After a failed open: a file this open created is removed if it is still empty (schema creation failed,
 * on a full disk say), with any journal SQLite left beside it, so that a failure leaves no stray file. A
 * file that holds anything (another process may have created it meanwhile and written its schema) stays.
 */
static void remove_if_created_empty(const char *path, bool existed)
{
	struct stat sb;
	char *journal;

	if (existed || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size != 0)
		return;
	unlink(path);
	journal = sqlite3_mprintf("%s-journal", path);
	if (journal)
		unlink(journal);
	sqlite3_free(journal);
}

int store_open_wait(struct store **out, const char *path, int busy_ms, struct diag *d)
{
	struct store *st;
	bool existed;
	int status;

	assert(busy_ms > 0);
	status = path_check(path, &existed, d);
	if (status != STATUS_OK)
		return status;
	st = calloc(1, sizeof *st);
	if (!st)
		return diag_fail(d, STATUS_ENOMEM, "%s: out of memory opening the results database", path);
	st->busy_ms = busy_ms;
	st->limit_bytes = (double)STORE_RUN_BYTES_MAX;
	st->path = strdup(path);
	if (!st->path) {
		status = diag_fail(d, STATUS_ENOMEM, "%s: out of memory opening the results database", path);
		goto out_free_store;
	}
	/* On failure SQLite still returns a handle (NULL only without memory) that must be closed. */
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		status = store_db_error(st, d, "opening");
		goto out_close_db;
	}
	status = connection_setup(st, d);
	if (status == STATUS_OK)
		status = store_schema_ensure(st, d);
	if (status == STATUS_OK)
		status = stage_create(st, d);
	if (status != STATUS_OK)
		goto out_close_db;
	status = stmts_prepare(st, d);
	if (status != STATUS_OK)
		goto out_finalize;
	*out = st;
	return STATUS_OK;

out_finalize:
	stmts_finalize(st);
out_close_db:
	sqlite3_close(st->db);
	remove_if_created_empty(path, existed);
	free(st->path);
out_free_store:
	free(st);
	return status;
}

int store_open(struct store **out, const char *path, struct diag *d)
{
	return store_open_wait(out, path, store_wait_timeout_ms(), d);
}

void store_close(struct store *st)
{
	if (!st)
		return;
	store_rollback(st, NULL);  /* nothing of a run begun and never ended is in the file */
	stmts_finalize(st);
	for (int i = 0; i < st->nhashes; i++)
		free(st->hashes[i].path);
	free(st->hashes);
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

int64_t store_last_run_id(const struct store *st)
{
	return st->last_run_id;
}

void store_set_tag(struct store *st, const struct store_run_tag *tag)
{
	st->tag = *tag;
}

void store_set_labels(struct store *st, const char *const *labels, int n)
{
	st->labels = labels;
	st->nlabels = n;
}

int store_label_runs(struct store *st, const int64_t *run_ids, int n, const char *key, const char *value,
		     struct diag *d)
{
	sqlite3_stmt *stmt = NULL;
	int rc = store_exec(st, "BEGIN IMMEDIATE", d, "labelling runs");

	if (rc)
		return rc;
	if (sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO main.labels (run_id, key, value) VALUES (?1, ?2, ?3)",
			       -1, &stmt, NULL) != SQLITE_OK) {
		rc = store_db_error(st, d, "labelling runs");
		goto out;
	}
	for (int i = 0; i < n && !rc; i++) {
		sqlite3_bind_int64(stmt, 1, run_ids[i]);
		sqlite3_bind_text(stmt, 2, key, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 3, value, -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) != SQLITE_DONE)
			rc = store_db_error(st, d, "labelling runs");
		sqlite3_reset(stmt);
	}
out:
	sqlite3_finalize(stmt);
	if (rc) {
		store_rollback(st, NULL);
		return rc;
	}
	return store_exec(st, "COMMIT", d, "labelling runs");
}

void store_set_size_limit(struct store *st, int64_t bytes)
{
	assert(bytes >= 0);
	st->limit_bytes = (double)bytes;
}

/*
 * n more rows of row_bytes each for the open run: STATUS_OK while the run's rows stay within the limit,
 * else the run is marked failed with a message (a run that writes far more than its scenario promised,
 * events mostly). A counter per batch: nothing here runs per event.
 */
static int staged_add(struct store *st, size_t n, int row_bytes, const char *table)
{
	st->staged_bytes += (double)n * row_bytes;
	if (st->limit_bytes <= 0 || st->staged_bytes <= st->limit_bytes)
		return STATUS_OK;
	st->failed = true;
	return diag_fail(st->d, STATUS_EUSAGE, "%s: the run has written more than the %.0f GiB a run may add "
			 "(while inserting %s); expected fewer rows (a longer sample_period, a shorter horizon), "
			 "or --force", st->path, st->limit_bytes / 1073741824.0, table);
}

int store_limit_pages(struct store *st, int max_pages)
{
	char sql[64];

	assert(max_pages > 0);
	snprintf(sql, sizeof sql, "PRAGMA main.max_page_count = %d", max_pages);
	return store_exec(st, sql, NULL, "limiting the file size");
}

/*
 * Binding one row. The first failing bind is kept in rc and the rest are skipped, so that SQLite's
 * message for it is still there when the row is given up. Texts are bound without a copy: every row is
 * stepped before the sink call returns, while the caller's strings are alive.
 */
struct binder {
	sqlite3_stmt *stmt;  /* the statement being bound, borrowed */
	int rc;              /* SQLITE_OK, or the first bind's error */
};

static void bind_real(struct binder *b, int i, double v)
{
	if (b->rc == SQLITE_OK)
		b->rc = isnan(v) ? sqlite3_bind_null(b->stmt, i) : sqlite3_bind_double(b->stmt, i, v);
}

static void bind_int64(struct binder *b, int i, int64_t v)
{
	if (b->rc == SQLITE_OK)
		b->rc = sqlite3_bind_int64(b->stmt, i, v);
}

/* Bind text of len bytes (-1: up to the NUL); NULL binds SQL NULL. */
static void bind_text(struct binder *b, int i, const char *s, int len)
{
	if (b->rc == SQLITE_OK)
		b->rc = sqlite3_bind_text(b->stmt, i, s, len, SQLITE_STATIC);
}

/* Bind SQL NULL. */
static void bind_null(struct binder *b, int i)
{
	if (b->rc == SQLITE_OK)
		b->rc = sqlite3_bind_null(b->stmt, i);
}

/*
 * Step a bound statement that returns no rows and reset it. On failure the open run is marked failed and
 * the message ("while <what>") goes to the sink's diag.
 */
static int row_write(struct store *st, struct binder *b, const char *what)
{
	int status = STATUS_OK;

	if (b->rc == SQLITE_OK)
		b->rc = sqlite3_step(b->stmt);
	if (b->rc != SQLITE_DONE) {
		status = store_db_error(st, st->d, what);
		st->failed = true;
	}
	sqlite3_reset(b->stmt);
	return status;
}

/* Stage the labels of the run (store_set_labels): "KEY=VALUE", split at the first '='. */
static int labels_write(struct store *st)
{
	for (int i = 0; i < st->nlabels; i++) {
		struct binder b = { st->stmt[STMT_LABEL], SQLITE_OK };
		const char *eq = strchr(st->labels[i], '=');
		int status;

		assert(eq);
		bind_text(&b, 2, st->labels[i], (int)(eq - st->labels[i]));
		bind_text(&b, 3, eq + 1, -1);
		status = row_write(st, &b, "storing the run's labels");
		if (status != STATUS_OK)
			return status;
	}
	return STATUS_OK;
}

static bool same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

static bool same_version(const struct store_hash_cache *c, const struct stat *sb)
{
	return c->dev == sb->st_dev && c->ino == sb->st_ino && c->size == sb->st_size &&
	       same_time(c->mtime, sb->st_mtim) && same_time(c->ctime, sb->st_ctim);
}

/* Remember the hash of path, read while the file stayed as sb says (nothing kept without memory). */
static void hash_remember(struct store *st, const char *path, const struct stat *sb, const struct store_input *in)
{
	struct store_hash_cache *c = NULL, *grown;

	for (int i = 0; i < st->nhashes && !c; i++)
		if (strcmp(st->hashes[i].path, path) == 0)
			c = &st->hashes[i];
	if (!c) {
		char *copy = strdup(path);
		if (!copy || !(grown = realloc(st->hashes, (size_t)(st->nhashes + 1) * sizeof *grown))) {
			free(copy);
			return;
		}
		st->hashes = grown;
		c = &st->hashes[st->nhashes++];
		c->path = copy;
	}
	c->dev = sb->st_dev;
	c->ino = sb->st_ino;
	c->size = sb->st_size;
	c->mtime = sb->st_mtim;
	c->ctime = sb->st_ctim;
	c->in = *in;
}

/*
 * The content hash of one file: the one this connection read before if the file has not been written since
 * (a sweep worker runs many runs of the same trace: it reads the trace for its hash once), else read now.
 */
static int input_hash(struct store *st, const char *path, struct store_input *in)
{
	struct stat before, after;
	int status;

	if (stat(path, &before) == 0)
		for (int i = 0; i < st->nhashes; i++)
			if (strcmp(st->hashes[i].path, path) == 0 && same_version(&st->hashes[i], &before)) {
				*in = st->hashes[i].in;
				return STATUS_OK;
			}
	if ((status = store_file_hash(path, in, st->d)) != STATUS_OK)
		return status;
	/*
	 * Kept only when the file did not change while it was read, and its last change is over 1 s old: file
	 * times tick in steps of milliseconds, so a file changed again within the tick of the read would look
	 * the same (the "racy" files of git's index, settled the same way).
	 */
	if (stat(path, &after) == 0 && same_time(before.st_ctim, after.st_ctim) && before.st_ino == after.st_ino &&
	    before.st_size == after.st_size && after.st_ctim.tv_sec < time(NULL) - 1)
		hash_remember(st, path, &after, in);
	return STATUS_OK;
}

/* The content hashes of the files sc names (*in: owned, NULL when it names none). */
static int inputs_read(struct store *st, const struct scenario *sc, struct store_input **in)
{
	int status = STATUS_OK;

	*in = NULL;
	if (sc->inputs.n == 0)
		return STATUS_OK;
	if (!(*in = calloc((size_t)sc->inputs.n, sizeof **in)))
		return diag_fail(st->d, STATUS_ENOMEM, "%s: out of memory (while starting a run)", st->path);
	for (int i = 0; i < sc->inputs.n && status == STATUS_OK; i++)
		status = input_hash(st, sc->inputs.path[i], &(*in)[i]);
	if (status != STATUS_OK) {
		free(*in);
		*in = NULL;
	}
	return status;
}

/* Stage the run_inputs rows: each file the scenario names, its content hash and size. */
static int inputs_write(struct store *st, const struct scenario *sc, const struct store_input *in)
{
	for (int i = 0; i < sc->inputs.n; i++) {
		struct binder b = { st->stmt[STMT_INPUT], SQLITE_OK };
		int status;

		bind_int64(&b, 2, i + 1);
		bind_text(&b, 3, sc->inputs.path[i], -1);
		bind_text(&b, 4, in[i].hash, -1);
		bind_int64(&b, 5, in[i].bytes);
		if ((status = row_write(st, &b, "storing the run's input files")) != STATUS_OK)
			return status;
	}
	return STATUS_OK;
}

static int sink_begin(void *self, const struct sink_run_info *info)
{
	struct store *st = self;
	const struct scenario *sc = info->scenario;
	struct binder b = { st->stmt[STMT_RUN], SQLITE_OK };
	struct store_input *in;
	char key[33];
	int status;

	assert(!st->open);
	assert(sc->text && sc->overrides && info->started_at && info->version);
	if ((status = inputs_read(st, sc, &in)) != STATUS_OK)
		return status;
	store_run_key_inputs(sc->text, sc->overrides, sc->seed, in, sc->inputs.n, key);
	stage_clear(st);
	bind_text(&b, 1, sc->name, -1);
	bind_text(&b, 2, sc->path, -1);
	bind_text(&b, 3, sc->text, -1);
	bind_text(&b, 4, sc->overrides, -1);
	bind_int64(&b, 5, store_seed_as_int64(sc->seed));
	bind_text(&b, 6, info->started_at, -1);
	bind_text(&b, 7, info->version, -1);
	bind_real(&b, 8, (double)sc->horizon_us / US_PER_S);
	bind_text(&b, 9, sc->serving.instance_type, -1);
	if (st->tag.sweep_id) {
		bind_int64(&b, 10, st->tag.sweep_id);
		bind_int64(&b, 11, st->tag.point);
		bind_int64(&b, 12, st->tag.replication);
	} else {
		bind_null(&b, 10);
		bind_null(&b, 11);
		bind_null(&b, 12);
	}
	bind_text(&b, 13, key, -1);
	bind_text(&b, 14, sc->region, -1);
	status = row_write(st, &b, "starting a run");
	if (status == STATUS_OK)
		status = labels_write(st);
	if (status == STATUS_OK)
		status = inputs_write(st, sc, in);
	free(in);
	for (int i = 0; i < sc->ntypes && i < SINK_TYPES_MAX; i++)
		snprintf(st->type_name[i], sizeof st->type_name[i], "%s", sc->types[i].name);
	if (status != STATUS_OK) {
		stage_clear(st);  /* no run is open: end() after this has nothing to undo */
		st->failed = false;
		return status;
	}
	st->open = true;
	st->staged_bytes = 0;
	st->event_seq = 0;
	st->warning_seq = 0;
	return STATUS_OK;
}

/* The sample's rows of type_samples: one per instance type when the run has several (r->ntypes > 1). */
static int type_samples_write(struct store *st, const struct sink_sample *r)
{
	assert(r->ntypes <= SINK_TYPES_MAX);
	for (int t = 0; t < r->ntypes; t++) {
		struct binder b = { st->stmt[STMT_TYPE_SAMPLE], SQLITE_OK };
		int status;

		bind_real(&b, 2, r->t_s);
		bind_text(&b, 3, st->type_name[t], -1);
		bind_real(&b, 4, r->type_instances[t]);
		bind_real(&b, 5, r->type_busy_slots[t]);
		if ((status = row_write(st, &b, "inserting type_samples")) != STATUS_OK)
			return status;
	}
	return STATUS_OK;
}

static int sink_samples(void *self, const struct sink_sample *rows, size_t n)
{
	struct store *st = self;

	assert(st->open && !st->failed);
	if (staged_add(st, n, STORE_SAMPLE_ROW_BYTES, "samples") != STATUS_OK ||
	    staged_add(st, n * (size_t)(n > 0 ? rows[0].ntypes : 0), STORE_TYPE_SAMPLE_ROW_BYTES,
		       "type_samples") != STATUS_OK)
		return STATUS_EUSAGE;
	for (size_t i = 0; i < n; i++) {
		const struct sink_sample *r = &rows[i];
		struct binder b = { st->stmt[STMT_SAMPLE], SQLITE_OK };
		int status;

		if ((status = type_samples_write(st, r)) != STATUS_OK)
			return status;

		bind_real(&b, 2, r->t_s);
		bind_real(&b, 3, r->arrival_rate_per_s);
		bind_real(&b, 4, r->queue_len);
		bind_real(&b, 5, r->busy_slots);
		for (int k = 0; k < OPTION_KIND_COUNT; k++)
			bind_real(&b, 6 + k, r->instances[k]);
		bind_real(&b, 6 + OPTION_KIND_COUNT, r->instances_total);
		bind_real(&b, 7 + OPTION_KIND_COUNT, r->cost_usd_per_h);
		bind_real(&b, 8 + OPTION_KIND_COUNT, r->copies);
		bind_real(&b, 9 + OPTION_KIND_COUNT, r->instances_jobs);
		status = row_write(st, &b, "inserting samples");
		if (status != STATUS_OK)
			return status;
	}
	return STATUS_OK;
}

static int sink_charges(void *self, const struct sink_charge *rows, size_t n)
{
	struct store *st = self;

	assert(st->open && !st->failed);
	if (staged_add(st, n, STORE_CHARGE_ROW_BYTES, "charges") != STATUS_OK)
		return STATUS_EUSAGE;
	for (size_t i = 0; i < n; i++) {
		const struct sink_charge *r = &rows[i];
		struct binder b = { st->stmt[STMT_CHARGE], SQLITE_OK };
		int status;

		bind_int64(&b, 2, r->hour);
		bind_text(&b, 3, r->option, -1);
		bind_text(&b, 4, r->kind, -1);
		bind_text(&b, 5, r->use, -1);
		bind_real(&b, 6, r->start_unix_s);
		bind_real(&b, 7, r->end_unix_s);
		bind_real(&b, 8, r->quantity_h);
		bind_real(&b, 9, r->list_usd);
		bind_real(&b, 10, r->billed_usd);
		bind_real(&b, 11, r->effective_usd);
		status = row_write(st, &b, "inserting charges");
		if (status != STATUS_OK)
			return status;
	}
	return STATUS_OK;
}

static int sink_hours(void *self, const struct sink_hour *rows, size_t n)
{
	struct store *st = self;

	assert(st->open && !st->failed);
	if (staged_add(st, n, STORE_HOUR_ROW_BYTES, "hours") != STATUS_OK)
		return STATUS_EUSAGE;
	for (size_t i = 0; i < n; i++) {
		const struct sink_hour *r = &rows[i];
		struct binder b = { st->stmt[STMT_HOUR], SQLITE_OK };
		int status;

		bind_real(&b, 2, r->hour_start_s);
		bind_int64(&b, 3, (int64_t)r->requests);
		bind_int64(&b, 4, (int64_t)r->violations);
		bind_real(&b, 5, r->latency_p50_s);
		bind_real(&b, 6, r->latency_p95_s);
		bind_real(&b, 7, r->latency_p99_s);
		status = row_write(st, &b, "inserting hours");
		if (status != STATUS_OK)
			return status;
	}
	return STATUS_OK;
}

static int sink_events(void *self, const struct sink_event *rows, size_t n)
{
	struct store *st = self;

	assert(st->open && !st->failed);
	if (staged_add(st, n, STORE_EVENT_ROW_BYTES, "events") != STATUS_OK)
		return STATUS_EUSAGE;
	for (size_t i = 0; i < n; i++) {
		const struct sink_event *r = &rows[i];
		struct binder b = { st->stmt[STMT_EVENT], SQLITE_OK };
		int status;

		bind_int64(&b, 2, ++st->event_seq);
		bind_real(&b, 3, r->t_s);
		bind_text(&b, 4, r->kind, -1);
		bind_text(&b, 5, r->option, -1);
		bind_int64(&b, 6, r->count);
		bind_text(&b, 7, r->detail, -1);
		status = row_write(st, &b, "inserting events");
		if (status != STATUS_OK)
			return status;
	}
	return STATUS_OK;
}

static int sink_warnings(void *self, const struct sink_warning *list, size_t n)
{
	struct store *st = self;

	assert(st->open && !st->failed);
	for (size_t i = 0; i < n; i++) {
		struct binder b = { st->stmt[STMT_WARNING], SQLITE_OK };
		int status;

		bind_int64(&b, 2, ++st->warning_seq);
		bind_text(&b, 3, list[i].code, (int)strnlen(list[i].code, sizeof list[i].code));
		bind_text(&b, 4, list[i].message, (int)strnlen(list[i].message, sizeof list[i].message));
		status = row_write(st, &b, "inserting warnings");
		if (status != STATUS_OK)
			return status;
	}
	return STATUS_OK;
}

static int sink_metrics(void *self, const struct sink_metric *list, size_t n)
{
	struct store *st = self;

	assert(st->open && !st->failed);
	for (size_t i = 0; i < n; i++) {
		struct binder b = { st->stmt[STMT_METRIC], SQLITE_OK };
		int status;

		/* The name is a fixed array: never read past it, even if it is not terminated. */
		bind_text(&b, 2, list[i].name, (int)strnlen(list[i].name, sizeof list[i].name));
		bind_real(&b, 3, list[i].value);
		status = row_write(st, &b, "inserting metrics");
		if (status != STATUS_OK)
			return status;
	}
	return STATUS_OK;
}

/* The staged run and where it goes, for the copy transaction. */
struct copy {
	double wall_s;   /* the run's wall-clock duration */
	int64_t run_id;  /* out: the run id in the file */
};

/* Inside the write transaction: the run id, then the runs row and its rows, copied from the stage. */
static int copy_body(struct store *st, void *arg, struct diag *d)
{
	static const char what[] = "committing a run";
	struct copy *c = arg;
	bool skip;
	int status;

	status = store_tag_run_id(st, &st->tag, &c->run_id, d, what);
	if (status == STATUS_OK)
		status = store_run_slot(st, c->run_id, &skip, d, what);
	if (status != STATUS_OK || skip)
		return status;
	if (sqlite3_bind_double(st->stmt[STMT_COPY_RUN], 2, c->wall_s) != SQLITE_OK)
		return store_db_error(st, d, what);
	status = store_step_with_id(st, STMT_COPY_RUN, c->run_id, d, what);
	if (status == STATUS_OK)
		status = store_step_with_id(st, STMT_COPY_METRICS, c->run_id, d, what);
	if (status == STATUS_OK)
		status = store_step_with_id(st, STMT_COPY_SAMPLES, c->run_id, d, what);
	if (status == STATUS_OK)
		status = store_step_with_id(st, STMT_COPY_EVENTS, c->run_id, d, what);
	if (status == STATUS_OK)
		status = store_step_with_id(st, STMT_COPY_WARNINGS, c->run_id, d, what);
	if (status == STATUS_OK)
		status = store_step_with_id(st, STMT_COPY_LABELS, c->run_id, d, what);
	if (status == STATUS_OK)
		status = store_step_with_id(st, STMT_COPY_CHARGES, c->run_id, d, what);
	if (status == STATUS_OK)
		status = store_step_with_id(st, STMT_COPY_HOURS, c->run_id, d, what);
	if (status == STATUS_OK)
		status = store_step_with_id(st, STMT_COPY_TYPE_SAMPLES, c->run_id, d, what);
	if (status == STATUS_OK)
		status = store_step_with_id(st, STMT_COPY_INPUTS, c->run_id, d, what);
	return status;
}

/*
 * end(STATUS_OK) copies the staged run into the file; any other status drops it (also when begin() failed,
 * or a staging write failed). Either way the stage is emptied, the tag reset, and the store is ready for
 * the next begin().
 */
static int sink_end(void *self, int status, double wall_s)
{
	struct store *st = self;
	int rc = STATUS_OK;

	if (status == STATUS_OK) {
		struct copy c = { wall_s, 0 };

		assert(st->open && !st->failed);
		rc = store_write_txn(st, copy_body, &c, st->d, "committing a run");
		if (rc == STATUS_OK)
			st->last_run_id = c.run_id;
	}
	stage_clear(st);
	memset(&st->tag, 0, sizeof st->tag);
	st->labels = NULL;
	st->nlabels = 0;
	st->open = false;
	st->failed = false;
	return rc;
}

static const struct sink_ops store_ops = {
	sink_begin, sink_samples, sink_events, sink_charges, sink_hours, sink_warnings, sink_metrics, sink_end,
};

struct sink store_sink(struct store *st, struct diag *d)
{
	struct sink sink = { &store_ops, st };

	st->d = d;
	return sink;
}
