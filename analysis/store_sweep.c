/*
 * store_sweep: run keys, sweep keys, and the sweeps of a results database (store.h): registering a sweep and
 * its view, which of its runs are done, and failed runs. Shares the connection (store.c opens it) and the
 * write transaction and run ids (store_db.c) through store_private.h.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "scenario.h"
#include "status.h"
#include "store_private.h"

/* FNV-1a-128 (the FNV hash of 128 bits): the state as two 64-bit halves. */
struct fnv128 {
	uint64_t hi, lo;  /* high and low 64 bits */
};

#define FNV128_BASIS_HI UINT64_C(0x6c62272e07bb0142)
#define FNV128_BASIS_LO UINT64_C(0x62b821756295c58d)
#define FNV128_PRIME_LO UINT64_C(0x13b)  /* the prime is 2^88 + 0x13b */

static void fnv128_init(struct fnv128 *h)
{
	h->hi = FNV128_BASIS_HI;
	h->lo = FNV128_BASIS_LO;
}

/*
 * XOR each byte into the low bits, then multiply by 2^88 + 0x13b modulo 2^128:
 * (hi * 2^64 + lo) * (2^88 + 0x13b) = (hi * 0x13b + carry(lo * 0x13b) + (lo << 24)) * 2^64 + lo * 0x13b,
 * where carry() is the high 64 bits of the 128-bit product, worked out in 32-bit halves.
 */
static void fnv128_add(struct fnv128 *h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		uint64_t lo = h->lo ^ p[i];
		uint64_t x = (lo & UINT64_C(0xffffffff)) * FNV128_PRIME_LO;
		uint64_t y = (lo >> 32) * FNV128_PRIME_LO;
		uint64_t carry = (y + (x >> 32)) >> 32;

		h->hi = h->hi * FNV128_PRIME_LO + carry + (lo << 24);
		h->lo = lo * FNV128_PRIME_LO;
	}
}

static void fnv128_hex(const struct fnv128 *h, char out[33])
{
	snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, h->hi, h->lo);
}

/* The run key's hash before it is written out: store_run_key() and store_run_key_inputs() share it. */
static void run_key_start(struct fnv128 *h, const char *scenario_text, const char *overrides, uint64_t seed)
{
	char num[24];

	fnv128_init(h);
	if (scenario_text)
		fnv128_add(h, scenario_text, strlen(scenario_text));
	fnv128_add(h, "", 1);
	if (overrides)
		fnv128_add(h, overrides, strlen(overrides));
	fnv128_add(h, "", 1);
	snprintf(num, sizeof num, "%" PRIu64, seed);
	fnv128_add(h, num, strlen(num));
}

void store_run_key(const char *scenario_text, const char *overrides, uint64_t seed, char out[33])
{
	struct fnv128 h;

	run_key_start(&h, scenario_text, overrides, seed);
	fnv128_hex(&h, out);
}

void store_run_key_inputs(const char *scenario_text, const char *overrides, uint64_t seed,
			  const struct store_input *in, int n, char out[33])
{
	struct fnv128 h;

	run_key_start(&h, scenario_text, overrides, seed);
	for (int i = 0; i < n; i++) {
		fnv128_add(&h, "", 1);
		fnv128_add(&h, in[i].hash, strlen(in[i].hash));
	}
	fnv128_hex(&h, out);
}

#define HASH_BLOCK 65536  /* bytes read at a time: a trace of any size is hashed in this much memory */

int store_file_hash(const char *path, struct store_input *in, struct diag *d)
{
	unsigned char *buf = malloc(HASH_BLOCK);
	struct fnv128 h;
	FILE *f;
	size_t got;
	int rc = STATUS_OK;

	if (!buf)
		return diag_fail(d, STATUS_ENOMEM, "%s: out of memory (while hashing the file)", path);
	if (!(f = fopen(path, "rb"))) {
		rc = diag_fail(d, STATUS_ENOENT, "%s: cannot open: %s (while hashing a file the scenario names)", path,
			       strerror(errno));
		goto out_free;
	}
	fnv128_init(&h);
	in->bytes = 0;
	while ((got = fread(buf, 1, HASH_BLOCK, f)) > 0) {
		fnv128_add(&h, buf, got);
		in->bytes += (int64_t)got;
	}
	if (ferror(f))
		rc = diag_fail(d, STATUS_ENOENT, "%s: cannot read: %s (while hashing a file the scenario names)", path,
			       strerror(errno));
	fclose(f);
	fnv128_hex(&h, in->hash);
out_free:
	free(buf);
	return rc;
}

int store_inputs_hash(const struct scenario *sc, struct store_input *in, struct diag *d)
{
	for (int i = 0; i < sc->inputs.n; i++) {
		int rc = store_file_hash(sc->inputs.path[i], &in[i], d);
		if (rc != STATUS_OK)
			return rc;
	}
	return STATUS_OK;
}

void store_sweep_key(const char *const *run_keys, int nruns, const char *file_text, const char *name,
		     char out[33])
{
	struct fnv128 h;

	fnv128_init(&h);
	for (int i = 0; i < nruns; i++)
		fnv128_add(&h, run_keys[i], strlen(run_keys[i]));
	if (file_text)
		fnv128_add(&h, file_text, strlen(file_text));
	if (name) {
		fnv128_add(&h, "", 1);
		fnv128_add(&h, name, strlen(name));
	}
	fnv128_hex(&h, out);
}

/* A decimal number: optional sign, digits with an optional fraction, an optional exponent; nothing else. */
static bool is_decimal(const char *s, double *v)
{
	char *end;

	for (const char *c = s; *c; c++)
		if (!isdigit((unsigned char)*c) && !strchr("+-.eE", *c))
			return false;
	if (!*s)
		return false;
	*v = strtod(s, &end);
	return *end == '\0' && isfinite(*v);
}

/* Prepare sql or write the connection's message. */
static int prepare(struct store *st, const char *sql, sqlite3_stmt **stmt, struct diag *d, const char *what)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, stmt, NULL) != SQLITE_OK)
		return store_db_error(st, d, what);
	return STATUS_OK;
}

/* Step a statement that returns no rows, finalize it, and report a failure. */
static int step_done(struct store *st, sqlite3_stmt *stmt, struct diag *d, const char *what)
{
	int status = sqlite3_step(stmt) == SQLITE_DONE ? STATUS_OK : store_db_error(st, d, what);

	sqlite3_finalize(stmt);
	return status;
}

/* Replace every character not [A-Za-z0-9_] by '_', in place. */
static void identifier_clean(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			*s = '_';
}

/* The names a view's columns already use (case-insensitive, as SQLite compares identifiers). */
struct names {
	char **name;  /* owned, each owned */
	int n, cap;
};

static bool names_has(const struct names *ns, const char *name)
{
	for (int i = 0; i < ns->n; i++)
		if (strcasecmp(ns->name[i], name) == 0)
			return true;
	return false;
}

static int names_add(struct names *ns, const char *name)
{
	if (ns->n == ns->cap) {
		int cap = ns->cap ? 2 * ns->cap : 128;
		char **grown = realloc(ns->name, (size_t)cap * sizeof *grown);
		if (!grown)
			return STATUS_ENOMEM;
		ns->name = grown;
		ns->cap = cap;
	}
	ns->name[ns->n] = strdup(name);
	if (!ns->name[ns->n])
		return STATUS_ENOMEM;
	ns->n++;
	return STATUS_OK;
}

static void names_free(struct names *ns)
{
	for (int i = 0; i < ns->n; i++)
		free(ns->name[i]);
	free(ns->name);
}

/* What the view of one sweep is made of, read from its sweeps row. */
struct sweep_row {
	char *name;          /* owned */
	char *params;        /* owned: the swept keys, one per line */
	int64_t base, nruns; /* run_id_base, npoints * nreps */
};

static int sweep_row_read(struct store *st, int64_t sweep_id, struct sweep_row *r, struct diag *d,
			  const char *what)
{
	sqlite3_stmt *stmt;
	int status = prepare(st, "SELECT name, params, run_id_base, npoints * nreps FROM main.sweeps "
			     "WHERE sweep_id = ?1", &stmt, d, what);

	if (status != STATUS_OK)
		return status;
	sqlite3_bind_int64(stmt, 1, sweep_id);
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		status = store_db_error(st, d, what);
	} else {
		r->name = strdup((const char *)sqlite3_column_text(stmt, 0));
		r->params = strdup((const char *)sqlite3_column_text(stmt, 1));
		r->base = sqlite3_column_int64(stmt, 2);
		r->nruns = sqlite3_column_int64(stmt, 3);
		if (!r->name || !r->params)
			status = diag_fail(d, STATUS_ENOMEM, "%s: out of memory (while %s)", st->path, what);
	}
	sqlite3_finalize(stmt);
	return status;
}

/* The name of the view: sweep_<name>, or sweep_<name>_<id> when an object of the file has that name. */
static int view_name(struct store *st, const char *name, int64_t sweep_id, char **out, struct diag *d,
		     const char *what)
{
	sqlite3_stmt *stmt;
	char *view = sqlite3_mprintf("sweep_%s", name);
	int status;

	if (!view)
		return diag_fail(d, STATUS_ENOMEM, "%s: out of memory (while %s)", st->path, what);
	identifier_clean(view);
	status = prepare(st, "SELECT count(*) FROM main.sqlite_master WHERE lower(name) = lower(?1)", &stmt, d, what);
	if (status == STATUS_OK) {
		sqlite3_bind_text(stmt, 1, view, -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) != SQLITE_ROW)
			status = store_db_error(st, d, what);
		else if (sqlite3_column_int(stmt, 0) > 0) {
			char *longer = sqlite3_mprintf("%s_%lld", view, (long long)sweep_id);
			sqlite3_free(view);
			view = longer;
		}
		sqlite3_finalize(stmt);
	}
	if (status == STATUS_OK && !view)
		status = diag_fail(d, STATUS_ENOMEM, "%s: out of memory (while %s)", st->path, what);
	if (status != STATUS_OK)
		sqlite3_free(view);
	else
		*out = view;
	return status;
}

/* The columns of run_summary, in order, but status (the view has the runs' own). */
static int summary_columns(struct store *st, struct names *cols, struct diag *d, const char *what)
{
	sqlite3_stmt *stmt;
	int status = prepare(st, "SELECT name FROM pragma_table_info('run_summary', 'main') ORDER BY cid",
			     &stmt, d, what);
	int rc;

	while (status == STATUS_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(stmt, 0);
		if (strcmp(name, "status") != 0 && names_add(cols, name) != STATUS_OK)
			status = diag_fail(d, STATUS_ENOMEM, "%s: out of memory (while %s)", st->path, what);
	}
	if (status == STATUS_OK && rc != SQLITE_DONE)
		status = store_db_error(st, d, what);
	sqlite3_finalize(stmt);
	return status;
}

/* Append one column per swept key to the view's SELECT list, each named apart from every other column. */
static int view_param_columns(sqlite3_str *sql, const char *params, struct names *used)
{
	const char *k = params;

	while (*k) {
		const char *nl = strchr(k, '\n');
		int len = nl ? (int)(nl - k) : (int)strlen(k);
		char *key = sqlite3_mprintf("%.*s", len, k);
		char *col = sqlite3_mprintf("%.*s", len, k);
		char *named;

		if (!key || !col) {
			sqlite3_free(key);
			sqlite3_free(col);
			return STATUS_ENOMEM;
		}
		identifier_clean(col);
		named = names_has(used, col) ? sqlite3_mprintf("param_%s", col) : sqlite3_mprintf("%s", col);
		if (named && names_add(used, named) == STATUS_OK)
			/* a whole number reads as an integer (fleet.0.count 6, not 6.0) */
			sqlite3_str_appendf(sql, ", (SELECT CASE WHEN p.numeric_value = CAST(p.numeric_value AS INTEGER) "
					    "THEN CAST(p.numeric_value AS INTEGER) ELSE coalesce(p.numeric_value, p.value) END "
					    "FROM sweep_params AS p "
					    "WHERE p.sweep_id = r.sweep_id AND p.point = r.point AND p.key = %Q) AS \"%w\"",
					    key, named);
		sqlite3_free(key);
		sqlite3_free(col);
		if (!named)
			return STATUS_ENOMEM;
		sqlite3_free(named);
		k += len + (nl ? 1 : 0);
	}
	return STATUS_OK;
}

int store_sweep_view_create(struct store *st, int64_t sweep_id, struct diag *d, const char *what)
{
	static const char *const fixed[] = { "sweep_id", "point", "replication", "status", "error" };
	struct sweep_row r = { NULL, NULL, 0, 0 };
	struct names summary = { NULL, 0, 0 }, used = { NULL, 0, 0 };
	sqlite3_str *sql = NULL;
	char *view = NULL, *text;
	int status;

	status = sweep_row_read(st, sweep_id, &r, d, what);
	if (status == STATUS_OK)
		status = view_name(st, r.name, sweep_id, &view, d, what);
	if (status == STATUS_OK)
		status = summary_columns(st, &summary, d, what);
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && status == STATUS_OK; i++)
		status = names_add(&used, fixed[i]);
	for (int i = 0; i < summary.n && status == STATUS_OK; i++)
		status = names_add(&used, summary.name[i]);
	if (status != STATUS_OK)
		goto out;
	sql = sqlite3_str_new(st->db);
	sqlite3_str_appendf(sql, "CREATE VIEW main.\"%w\" AS SELECT r.sweep_id, r.point, r.replication, r.status, "
			    "r.error", view);
	if (view_param_columns(sql, r.params, &used) != STATUS_OK)
		status = STATUS_ENOMEM;
	for (int i = 0; i < summary.n; i++)
		sqlite3_str_appendf(sql, ", s.\"%w\"", summary.name[i]);
	/* The run id range lets SQLite compute run_summary for this sweep's runs only. */
	sqlite3_str_appendf(sql, " FROM runs AS r JOIN run_summary AS s ON s.run_id = r.run_id "
			    "WHERE r.sweep_id = %lld AND s.run_id BETWEEN %lld AND %lld", (long long)sweep_id,
			    (long long)r.base, (long long)(r.base + r.nruns - 1));
	text = sqlite3_str_finish(sql);
	if (status != STATUS_OK || !text)
		status = diag_fail(d, STATUS_ENOMEM, "%s: out of memory (while %s)", st->path, what);
	else
		status = store_exec(st, text, d, what);
	sqlite3_free(text);
out:
	names_free(&summary);
	names_free(&used);
	sqlite3_free(view);
	free(r.name);
	free(r.params);
	return status;
}

/* The sweep to register, and what registering it returns. */
struct registration {
	const struct store_sweep *sw;  /* borrowed */
	int64_t sweep_id, base;        /* out */
};

/* Find the sweep by key; *found is false when it is not in the file. */
static int sweep_find(struct store *st, const char *key, bool *found, int64_t *sweep_id, int64_t *base,
		      struct diag *d, const char *what)
{
	sqlite3_stmt *stmt;
	int status = prepare(st, "SELECT sweep_id, run_id_base FROM main.sweeps WHERE sweep_key = ?1", &stmt, d, what);
	int rc;

	if (status != STATUS_OK)
		return status;
	sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	*found = rc == SQLITE_ROW;
	if (*found) {
		*sweep_id = sqlite3_column_int64(stmt, 0);
		*base = sqlite3_column_int64(stmt, 1);
	} else if (rc != SQLITE_DONE) {
		status = store_db_error(st, d, what);
	}
	sqlite3_finalize(stmt);
	return status;
}

/* Insert the sweeps row (params joined, one key per line). */
static int sweep_insert(struct store *st, struct registration *reg, struct diag *d, const char *what)
{
	const struct store_sweep *sw = reg->sw;
	sqlite3_str *params = sqlite3_str_new(st->db);
	sqlite3_stmt *stmt;
	char now[32], *text;
	int status;

	for (int k = 0; k < sw->nparams; k++)
		sqlite3_str_appendf(params, "%s\n", sw->params[k]);
	text = sqlite3_str_finish(params);
	if (!text && sw->nparams > 0)
		return diag_fail(d, STATUS_ENOMEM, "%s: out of memory (while %s)", st->path, what);
	store_now(now);
	status = store_next_run_id(st, &reg->base, d, what);
	if (status == STATUS_OK)
		status = prepare(st, "INSERT INTO main.sweeps (name, sweep_key, file_path, file_text, params, npoints, "
				 "nreps, run_id_base, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
				 &stmt, d, what);
	if (status == STATUS_OK) {
		sqlite3_bind_text(stmt, 1, sw->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 2, sw->sweep_key, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 3, sw->file_path, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 4, sw->file_text ? sw->file_text : "", -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 5, text ? text : "", -1, SQLITE_STATIC);
		sqlite3_bind_int(stmt, 6, sw->npoints);
		sqlite3_bind_int(stmt, 7, sw->nreps);
		sqlite3_bind_int64(stmt, 8, reg->base);
		sqlite3_bind_text(stmt, 9, now, -1, SQLITE_STATIC);
		status = step_done(st, stmt, d, what);
	}
	if (status == STATUS_OK)
		reg->sweep_id = sqlite3_last_insert_rowid(st->db);
	sqlite3_free(text);
	return status;
}

/* Insert the sweep_params rows: the value of every swept key at every point. */
static int sweep_params_insert(struct store *st, const struct registration *reg, struct diag *d,
			       const char *what)
{
	const struct store_sweep *sw = reg->sw;
	sqlite3_stmt *stmt;
	int status = prepare(st, "INSERT INTO main.sweep_params (sweep_id, point, key, value, numeric_value) "
			     "VALUES (?1, ?2, ?3, ?4, ?5)", &stmt, d, what);

	for (int p = 0; p < sw->npoints && status == STATUS_OK; p++) {
		for (int k = 0; k < sw->nparams && status == STATUS_OK; k++) {
			const char *value = sw->values[p * sw->nparams + k];
			double v;

			sqlite3_bind_int64(stmt, 1, reg->sweep_id);
			sqlite3_bind_int(stmt, 2, p);
			sqlite3_bind_text(stmt, 3, sw->params[k], -1, SQLITE_STATIC);
			sqlite3_bind_text(stmt, 4, value, -1, SQLITE_STATIC);
			if (is_decimal(value, &v))
				sqlite3_bind_double(stmt, 5, v);
			else
				sqlite3_bind_null(stmt, 5);
			if (sqlite3_step(stmt) != SQLITE_DONE)
				status = store_db_error(st, d, what);
			sqlite3_reset(stmt);
		}
	}
	if (stmt)
		sqlite3_finalize(stmt);
	return status;
}

/*
 * A database holds one sweep of a name: a sweep of this name with another key (the sweep file edited, or
 * the scenarios it runs) is refused, naming the one there and the ways on.
 */
static int name_free(struct store *st, const struct store_sweep *sw, struct diag *d, const char *what)
{
	sqlite3_stmt *stmt;
	int status = prepare(st, "SELECT sweep_id, coalesce(file_path, ''), created_at FROM main.sweeps "
			     "WHERE name = ?1 ORDER BY sweep_id LIMIT 1", &stmt, d, what);
	int rc;

	if (status != STATUS_OK)
		return status;
	sqlite3_bind_text(stmt, 1, sw->name, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		status = diag_fail(d, STATUS_EUSAGE, "%s: already holds a sweep named %s (sweep %lld, from %s, "
				   "registered %s) of another sweep file or other scenarios; a database holds one sweep "
				   "of a name: run the file as it was to resume that one, or store this one under a new "
				   "name with --name NEW (or in another --db)", st->path, sw->name,
				   (long long)sqlite3_column_int64(stmt, 0),
				   *(const char *)sqlite3_column_text(stmt, 1) ? (const char *)sqlite3_column_text(stmt, 1)
									       : "no file",
				   (const char *)sqlite3_column_text(stmt, 2));
	else if (rc != SQLITE_DONE)
		status = store_db_error(st, d, what);
	sqlite3_finalize(stmt);
	return status;
}

static int register_body(struct store *st, void *arg, struct diag *d)
{
	static const char what[] = "registering a sweep";
	struct registration *reg = arg;
	bool found;
	int status = sweep_find(st, reg->sw->sweep_key, &found, &reg->sweep_id, &reg->base, d, what);

	if (status != STATUS_OK || found)
		return status;
	status = name_free(st, reg->sw, d, what);
	if (status == STATUS_OK)
		status = sweep_insert(st, reg, d, what);
	if (status == STATUS_OK)
		status = sweep_params_insert(st, reg, d, what);
	if (status == STATUS_OK)
		status = store_sweep_view_create(st, reg->sweep_id, d, what);
	return status;
}

int store_sweep_register(struct store *st, const struct store_sweep *sw, int64_t *sweep_id,
			 int64_t *run_id_base, struct diag *d)
{
	struct registration reg = { sw, 0, 0 };
	int status;

	assert(sw->name && sw->sweep_key && sw->npoints > 0 && sw->nreps > 0 && sw->nparams >= 0);
	status = store_write_txn(st, register_body, &reg, d, "registering a sweep");
	if (status == STATUS_OK) {
		*sweep_id = reg.sweep_id;
		*run_id_base = reg.base;
	}
	return status;
}

int store_sweep_done(struct store *st, int64_t sweep_id, int nruns, unsigned char *done, struct diag *d)
{
	static const char what[] = "reading which runs of a sweep are done";
	sqlite3_stmt *stmt;
	int status, rc;

	memset(done, 0, (size_t)nruns);
	status = prepare(st, "SELECT r.run_id - s.run_id_base FROM main.runs AS r JOIN main.sweeps AS s "
			 "ON s.sweep_id = r.sweep_id WHERE s.sweep_id = ?1 AND r.status = 'ok' AND "
			 "r.run_id BETWEEN s.run_id_base AND s.run_id_base + ?2 - 1", &stmt, d, what);
	if (status != STATUS_OK)
		return status;
	sqlite3_bind_int64(stmt, 1, sweep_id);
	sqlite3_bind_int(stmt, 2, nruns);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		int64_t i = sqlite3_column_int64(stmt, 0);
		if (i >= 0 && i < nruns)
			done[i] = 1;
	}
	if (rc != SQLITE_DONE)
		status = store_db_error(st, d, what);
	sqlite3_finalize(stmt);
	return status;
}

/* A failed run to record. */
struct failure {
	const struct store_run_tag *tag;
	const char *name, *scenario_path, *scenario_text, *overrides, *message;
	uint64_t seed;
	int64_t run_id;  /* out */
};

static int failure_body(struct store *st, void *arg, struct diag *d)
{
	static const char what[] = "recording a failed run";
	struct failure *f = arg;
	const struct store_run_tag *tag = f->tag;
	sqlite3_stmt *stmt;
	char key[33], now[32];
	bool skip;
	int status;

	status = store_tag_run_id(st, tag, &f->run_id, d, what);
	if (status == STATUS_OK)
		status = store_run_slot(st, f->run_id, &skip, d, what);
	if (status != STATUS_OK || skip)
		return status;
	store_run_key(f->scenario_text, f->overrides, f->seed, key);
	store_now(now);
	status = prepare(st, "INSERT INTO main.runs (run_id, name, scenario_path, scenario_text, overrides, seed, "
			 "status, started_at, wall_s, version, horizon_s, instance_type, sweep_id, point, replication, "
			 "run_key, error) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'failed', ?7, NULL, ?8, 0, '', ?9, ?10, ?11, "
			 "?12, ?13)", &stmt, d, what);
	if (status != STATUS_OK)
		return status;
	sqlite3_bind_int64(stmt, 1, f->run_id);
	sqlite3_bind_text(stmt, 2, f->name ? f->name : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, f->scenario_path, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 4, f->scenario_text ? f->scenario_text : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 5, f->overrides ? f->overrides : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 6, store_seed_as_int64(f->seed));
	sqlite3_bind_text(stmt, 7, now, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 8, GPUCAP_VERSION, -1, SQLITE_STATIC);
	if (tag->sweep_id) {
		sqlite3_bind_int64(stmt, 9, tag->sweep_id);
		sqlite3_bind_int(stmt, 10, tag->point);
		sqlite3_bind_int(stmt, 11, tag->replication);
	}
	sqlite3_bind_text(stmt, 12, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 13, f->message ? f->message : "", -1, SQLITE_STATIC);
	return step_done(st, stmt, d, what);
}

int store_record_failure(struct store *st, const struct store_run_tag *tag, const char *name,
			 const char *scenario_path, const char *scenario_text, const char *overrides,
			 uint64_t seed, const char *message, struct diag *d)
{
	struct failure f = { tag, name, scenario_path, scenario_text, overrides, message, seed, 0 };
	int status = store_write_txn(st, failure_body, &f, d, "recording a failed run");

	if (status == STATUS_OK)
		st->last_run_id = f.run_id;
	return status;
}

int store_sweep_keys(struct store *st, int64_t sweep_id, int nruns, char (*keys)[33], struct diag *d)
{
	static const char what[] = "reading the run keys of a sweep";
	sqlite3_stmt *stmt;
	int status, rc;

	for (int i = 0; i < nruns; i++)
		keys[i][0] = '\0';
	status = prepare(st, "SELECT r.run_id - s.run_id_base, r.run_key FROM main.runs AS r JOIN main.sweeps AS s "
			 "ON s.sweep_id = r.sweep_id WHERE s.sweep_id = ?1 AND r.status = 'ok' AND "
			 "r.run_id BETWEEN s.run_id_base AND s.run_id_base + ?2 - 1", &stmt, d, what);
	if (status != STATUS_OK)
		return status;
	sqlite3_bind_int64(stmt, 1, sweep_id);
	sqlite3_bind_int(stmt, 2, nruns);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		int64_t i = sqlite3_column_int64(stmt, 0);
		const char *key = (const char *)sqlite3_column_text(stmt, 1);
		if (i >= 0 && i < nruns)
			snprintf(keys[i], 33, "%s", key ? key : "-");  /* a run of version 2 has none: never equal */
	}
	if (rc != SQLITE_DONE)
		status = store_db_error(st, d, what);
	sqlite3_finalize(stmt);
	return status;
}

int store_run_input_hash(struct store *st, int64_t run_id, const char *path, char hash[33], struct diag *d)
{
	static const char what[] = "reading the input files of a run";
	sqlite3_stmt *stmt;
	int status = prepare(st, "SELECT content_hash FROM main.run_inputs WHERE run_id = ?1 AND path = ?2 "
			     "ORDER BY seq LIMIT 1", &stmt, d, what);
	int rc;

	if (status != STATUS_OK)
		return status;
	hash[0] = '\0';
	sqlite3_bind_int64(stmt, 1, run_id);
	sqlite3_bind_text(stmt, 2, path, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		snprintf(hash, 33, "%s", (const char *)sqlite3_column_text(stmt, 0));
	else if (rc != SQLITE_DONE)
		status = store_db_error(st, d, what);
	sqlite3_finalize(stmt);
	return status;
}

/* The runs to delete, for the transaction. */
struct deletion {
	const int64_t *run_ids;
	int n;
};

static int delete_body(struct store *st, void *arg, struct diag *d)
{
	static const char what[] = "deleting runs whose input files changed";
	const struct deletion *del = arg;
	sqlite3_stmt *stmt;
	int status = prepare(st, "DELETE FROM main.runs WHERE run_id = ?1", &stmt, d, what);

	for (int i = 0; i < del->n && status == STATUS_OK; i++) {
		sqlite3_bind_int64(stmt, 1, del->run_ids[i]);
		if (sqlite3_step(stmt) != SQLITE_DONE)
			status = store_db_error(st, d, what);
		sqlite3_reset(stmt);
	}
	if (stmt)
		sqlite3_finalize(stmt);
	return status;
}

int store_delete_runs(struct store *st, const int64_t *run_ids, int n, struct diag *d)
{
	struct deletion del = { run_ids, n };

	return store_write_txn(st, delete_body, &del, d, "deleting runs whose input files changed");
}

/* A claim to take, and what came of it. */
struct claim {
	const struct store_claimant *me;
	int64_t sweep_id, run_id;
	enum store_claim result;  /* out */
	char *who;                /* out: "HOST:PID" of a live claim (STORE_CLAIM_TAKEN), 96 bytes */
};

/* Is the claim row (host, pid, start) this process's, or one the claimant takes for live? */
static bool claim_held(const struct store_claimant *me, const char *host, int64_t pid, const char *start)
{
	if (strcmp(host, me->host) == 0 && pid == me->pid && strcmp(start, me->pid_start) == 0)
		return false;  /* our own: taken again */
	return me->alive(me, host, pid, start);
}

static int claim_body(struct store *st, void *arg, struct diag *d)
{
	static const char what[] = "claiming a run of a sweep";
	struct claim *c = arg;
	char status_text[16];
	sqlite3_stmt *stmt;
	int status = prepare(st, "SELECT (SELECT status FROM main.runs WHERE run_id = ?1), host, pid, pid_start "
			     "FROM (SELECT 1) LEFT JOIN main.run_claims ON run_id = ?1", &stmt, d, what);
	int rc;

	if (status != STATUS_OK)
		return status;
	sqlite3_bind_int64(stmt, 1, c->run_id);
	if ((rc = sqlite3_step(stmt)) != SQLITE_ROW) {
		status = store_db_error(st, d, what);
		sqlite3_finalize(stmt);
		return status;
	}
	snprintf(status_text, sizeof status_text, "%s",
		 sqlite3_column_type(stmt, 0) == SQLITE_NULL ? "" : (const char *)sqlite3_column_text(stmt, 0));
	c->result = STORE_CLAIMED;
	if (strcmp(status_text, "ok") == 0) {
		c->result = STORE_CLAIM_DONE;
	} else if (sqlite3_column_type(stmt, 1) != SQLITE_NULL) {
		const char *host = (const char *)sqlite3_column_text(stmt, 1);
		int64_t pid = sqlite3_column_int64(stmt, 2);
		const char *start = (const char *)sqlite3_column_text(stmt, 3);
		if (claim_held(c->me, host, pid, start)) {
			c->result = STORE_CLAIM_TAKEN;
			snprintf(c->who, 96, "%s:%lld", host, (long long)pid);
		}
	}
	sqlite3_finalize(stmt);
	if (c->result != STORE_CLAIMED)
		return STATUS_OK;
	status = prepare(st, "INSERT OR REPLACE INTO main.run_claims (run_id, sweep_id, host, pid, pid_start, "
			 "claimed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", &stmt, d, what);
	if (status == STATUS_OK) {
		char now[32];
		store_now(now);
		sqlite3_bind_int64(stmt, 1, c->run_id);
		sqlite3_bind_int64(stmt, 2, c->sweep_id);
		sqlite3_bind_text(stmt, 3, c->me->host, -1, SQLITE_STATIC);
		sqlite3_bind_int64(stmt, 4, c->me->pid);
		sqlite3_bind_text(stmt, 5, c->me->pid_start, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 6, now, -1, SQLITE_TRANSIENT);
		status = step_done(st, stmt, d, what);
	}
	return status;
}

int store_claim_run(struct store *st, const struct store_claimant *me, int64_t sweep_id, int64_t run_id,
		    enum store_claim *result, char who[96], struct diag *d)
{
	struct claim c = { me, sweep_id, run_id, STORE_CLAIMED, who };
	int status;

	who[0] = '\0';
	status = store_write_txn(st, claim_body, &c, d, "claiming a run of a sweep");
	*result = c.result;
	return status;
}

int store_sweep_claimed(struct store *st, const struct store_claimant *me, int64_t sweep_id, char who[96],
			struct diag *d)
{
	static const char what[] = "reading who runs a sweep";
	sqlite3_stmt *stmt;
	int status = prepare(st, "SELECT DISTINCT host, pid, pid_start FROM main.run_claims WHERE sweep_id = ?1",
			     &stmt, d, what);
	int rc;

	who[0] = '\0';
	if (status != STATUS_OK)
		return status;
	sqlite3_bind_int64(stmt, 1, sweep_id);
	while (!who[0] && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *host = (const char *)sqlite3_column_text(stmt, 0);
		int64_t pid = sqlite3_column_int64(stmt, 1);
		if (claim_held(me, host, pid, (const char *)sqlite3_column_text(stmt, 2)))
			snprintf(who, 96, "%s:%lld", host, (long long)pid);
	}
	if (!who[0] && rc != SQLITE_DONE)
		status = store_db_error(st, d, what);
	sqlite3_finalize(stmt);
	return status;
}

bool store_disk_full(const struct store *st)
{
	return st->disk_full;
}
