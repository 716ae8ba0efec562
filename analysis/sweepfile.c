/*
 * sweepfile: reading and expanding a sweep file (see sweepfile.h).
 *
 * The file is read with the scenario's YAML reader (yamldoc.h), so its messages have the same shape
 * and positions as a scenario's. Values are collected as text, per swept key first (a "column": the key's
 * own list of values), and the points are then laid out from the columns by the form's rule.
 */
#include "sweepfile.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_qrng.h>
#include <libfyaml.h>

#include "status.h"
#include "textfile.h"
#include "yamldoc.h"

#define FILE_BYTES_MAX (1 << 20)  /* a sweep file is small; refuse anything larger */
#define VALUE_MAX 64              /* bytes of a computed value, NUL included */

static const char *const top_keys[] = { "name", "base", "replications", "set", "grid", "zip", "sample", NULL };
static const char *const range_keys[] = { "from", "to", "step", NULL };
static const char *const sample_keys[] = { "n", "method", "ranges", NULL };
static const char *const method_names[] = { "sobol" };

/* One swept key while reading: its values as text, in order. */
struct column {
	char *key;      /* owned */
	char **vals;    /* owned */
	int n;
	bool integer;   /* sample: the range is of integers */
	double lo, hi;  /* sample: the range */
};

/* A set or swept key already read: the setting it names, and where. */
struct seen {
	const char *key;                     /* as written (the document's text, borrowed) */
	char canon[YAMLDOC_PATH_MAX];  /* the setting (yamldoc_set_key: "fleet.00.count" is fleet.0.count) */
	int line, col;                       /* where messages place it; 0 when unknown */
	bool swept;
};

/* Keys read: every set key, every swept key, and the one swept key over SWEEPFILE_PARAMS_MAX refused. */
#define SEEN_MAX (SWEEPFILE_SETS_MAX + SWEEPFILE_PARAMS_MAX + 1)

struct reader {
	struct yamldoc y;
	struct sweepfile *sf;
	struct column cols[SWEEPFILE_PARAMS_MAX];
	int ncols;
	struct seen seen[SEEN_MAX];
	int nseen;
};

static int nomem(struct diag *d, const char *path)
{
	return diag_at(d, STATUS_ENOMEM, path, 0, 0, "out of memory while reading the sweep file");
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *c = malloc(n);

	return c ? memcpy(c, s, n) : NULL;
}

/* An integer as the scenario reader would take it: optional '-', digits only. */
static bool is_integer_text(const char *s)
{
	const char *p = s + (*s == '-');

	if (!*p || strlen(p) > 15)  /* beyond 15 digits a double no longer holds every integer exactly */
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* A computed value: an integer in full, else at most 15 significant digits (sweepfile.h). */
static void format_value(double v, bool integer, char *buf, size_t size)
{
	if (integer)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%.15g", v == 0 ? 0.0 : v);  /* no "-0" */
}

/* ---- keys ---------------------------------------------------------------------------------------- */

/* Refuse key at r, which names the same setting as the key `was` read before. */
static int twice(struct reader *rd, const struct yamldoc_ref *r, const char *key, bool swept,
		 const struct seen *was)
{
	char at[DIAG_MSG_MAX / 2];

	if (was->line > 0)
		snprintf(at, sizeof at, "%s:%d:%d", rd->sf->path, was->line, was->col);
	else
		snprintf(at, sizeof at, "%s", rd->sf->path);
	if (swept && !was->swept)
		return yamldoc_fail(&rd->y, r, "'%s' is both set and swept (set as '%s' at %s); expected each "
					  "key in one place", key, was->key, at);
	return yamldoc_fail(&rd->y, r, "'%s' is %s twice (first as '%s' at %s); expected each key once", key,
				  swept ? "swept" : "set", was->key, at);
}

/*
 * A swept or set key: non-empty, no '=', no spaces, not `seed`, and naming a setting no key before it names,
 * however written: keys are compared as the overrides resolve them (yamldoc_set_key), so
 * fleet.00.count is fleet.0.count. Each key is compared with every one before it: O(n^2) in the keys, which
 * are at most SEEN_MAX.
 */
static int check_key(struct reader *rd, const struct yamldoc_ref *r, const char *key, bool swept)
{
	struct seen *s = &rd->seen[rd->nseen];

	if (!*key || strpbrk(key, "= \t") || !yamldoc_set_key(key, s->canon, sizeof s->canon))
		return yamldoc_fail(&rd->y, r, "'%s' is not a scenario key; expected a dotted path such as "
					  "fleet.0.count", key);
	if (strcmp(key, "seed") == 0)
		return yamldoc_fail(&rd->y, r, "the seed is not %s; expected `replications: N` (replication r "
					  "runs with the base seed + r)", swept ? "swept" : "set");
	for (int i = 0; i < rd->nseen; i++)
		if (strcmp(rd->seen[i].canon, s->canon) == 0)
			return twice(rd, r, key, swept, &rd->seen[i]);
	assert(rd->nseen < SEEN_MAX);  /* the keys of `set` and of the form are counted before */
	s->key = key;
	s->swept = swept;
	yamldoc_where(r, &s->line, &s->col);
	rd->nseen++;
	return STATUS_OK;
}

/* Start column for `key` at r. */
static int add_column(struct reader *rd, const struct yamldoc_ref *r, const char *key, int nvals)
{
	struct column *c;
	int rc;

	if ((rc = check_key(rd, r, key, true)))
		return rc;
	if (rd->ncols == SWEEPFILE_PARAMS_MAX)
		return yamldoc_fail(&rd->y, r, "more than %d swept keys; expected at most %d",
					  SWEEPFILE_PARAMS_MAX, SWEEPFILE_PARAMS_MAX);
	c = &rd->cols[rd->ncols];
	c->key = dup_str(key);
	c->vals = calloc(nvals > 0 ? (size_t)nvals : 1, sizeof *c->vals);
	if (!c->key || !c->vals) {
		free(c->key);
		free(c->vals);
		memset(c, 0, sizeof *c);
		return nomem(rd->y.d, rd->sf->path);
	}
	rd->ncols++;
	return STATUS_OK;
}

static int push_value(struct reader *rd, struct column *c, const char *text)
{
	if (!(c->vals[c->n] = dup_str(text)))
		return nomem(rd->y.d, rd->sf->path);
	c->n++;
	return STATUS_OK;
}

/* ---- grid and zip values ------------------------------------------------------------------------- */

/* A list of at least one scalar: its texts as written. */
static int read_list(struct reader *rd, const struct yamldoc_ref *r, const char *key)
{
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	struct yamldoc_ref it;
	const char *text;
	int n, rc;

	if ((rc = yamldoc_list(&rd->y, r, 1, SWEEPFILE_RUNS_MAX, "values", &n)) ||
	    (rc = add_column(rd, r, key, n)))
		return rc;
	while (yamldoc_next_item(r, &walk, &it)) {
		if ((rc = yamldoc_scalar(&rd->y, &it, "a value for --set", &text)) ||
		    (rc = push_value(rd, &rd->cols[rd->ncols - 1], text)))
			return rc;
	}
	return STATUS_OK;
}

/*
 * {from, to, step}: from, from + step, ... up to to (included when reached; a step short of it by less than
 * 1e-9 of a step counts as reaching it). Integers when all three are written as integers.
 */
static int read_range(struct reader *rd, const struct yamldoc_ref *r, const char *key)
{
	static const struct yamldoc_bounds any = { -HUGE_VAL, HUGE_VAL, false, false };
	static const struct yamldoc_bounds positive = { 0, HUGE_VAL, true, false };
	struct yamldoc_ref from, to, step;
	const char *name[3] = { "from", "to", "step" };
	const struct yamldoc_ref *ref[3] = { &from, &to, &step };
	double v[3];
	bool integer = true;
	char buf[VALUE_MAX];
	int rc;

	if ((rc = yamldoc_mapping(&rd->y, r, range_keys, "a list of values or {from, to, step}", NULL)))
		return rc;
	for (int i = 0; i < 3; i++) {
		const char *text;
		yamldoc_child(r, name[i], (struct yamldoc_ref *)ref[i]);
		if (!ref[i]->node)
			return yamldoc_missing(&rd->y, r, name[i], "a range is {from, to, step}");
		if ((rc = yamldoc_number(&rd->y, ref[i], i == 2 ? &positive : &any, &v[i])) ||
		    (rc = yamldoc_scalar(&rd->y, ref[i], "a number", &text)))
			return rc;
		integer = integer && is_integer_text(text);
	}
	if (v[1] < v[0])
		return yamldoc_fail(&rd->y, &to, "%g is below from (%g); expected to >= from", v[1], v[0]);
	double count = floor((v[1] - v[0]) / v[2] + 1e-9) + 1;
	if (count > SWEEPFILE_RUNS_MAX)
		return yamldoc_fail(&rd->y, &step, "the range has %.0f values; expected at most %d",
					  count, SWEEPFILE_RUNS_MAX);
	if ((rc = add_column(rd, r, key, (int)count)))
		return rc;
	for (int i = 0; i < (int)count; i++) {
		format_value(v[0] + i * v[2], integer, buf, sizeof buf);
		if ((rc = push_value(rd, &rd->cols[rd->ncols - 1], buf)))
			return rc;
	}
	return STATUS_OK;
}

/* grid or zip: a mapping KEY -> list (or, for a grid, range). */
static int read_columns(struct reader *rd, const struct yamldoc_ref *map, bool grid)
{
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	struct yamldoc_ref v;
	const char *key;
	int n, rc;

	if ((rc = yamldoc_mapping(&rd->y, map, NULL, grid ? "a mapping of keys to lists of values or "
					"{from, to, step}" : "a mapping of keys to lists of values", &n)))
		return rc;
	if (n == 0)
		return yamldoc_fail(&rd->y, map, "no swept key; expected at least one");
	while (yamldoc_next_pair(map, &walk, &v, &key)) {
		if (grid && fy_node_is_mapping(v.node))
			rc = read_range(rd, &v, key);
		else
			rc = read_list(rd, &v, key);
		if (rc)
			return rc;
	}
	return STATUS_OK;
}

/* ---- sample -------------------------------------------------------------------------------------- */

/* One range of `sample.ranges`: [lo, hi], lo < hi. */
static int read_bounds(struct reader *rd, const struct yamldoc_ref *r, const char *key)
{
	static const struct yamldoc_bounds any = { -HUGE_VAL, HUGE_VAL, false, false };
	struct yamldoc_ref lo, hi;
	const char *tlo, *thi;
	struct column *c;
	double vlo, vhi;
	int n, rc;

	if ((rc = yamldoc_list(&rd->y, r, 2, 2, "bounds [lo, hi]", &n)))
		return rc;
	yamldoc_item(r, 0, &lo);
	yamldoc_item(r, 1, &hi);
	if ((rc = yamldoc_number(&rd->y, &lo, &any, &vlo)) || (rc = yamldoc_number(&rd->y, &hi, &any, &vhi)) ||
	    (rc = yamldoc_scalar(&rd->y, &lo, "a number", &tlo)) ||
	    (rc = yamldoc_scalar(&rd->y, &hi, "a number", &thi)))
		return rc;
	if (vhi <= vlo)
		return yamldoc_fail(&rd->y, &hi, "%s is not above lo (%s); expected lo < hi", thi, tlo);
	if ((rc = add_column(rd, r, key, 0)))
		return rc;
	c = &rd->cols[rd->ncols - 1];
	c->integer = is_integer_text(tlo) && is_integer_text(thi);
	c->lo = vlo;
	c->hi = vhi;
	return STATUS_OK;
}

/* The value of coordinate u in [0, 1) in column c's range (sweepfile.h). */
static double sample_value(const struct column *c, double u)
{
	if (!c->integer)
		return c->lo + u * (c->hi - c->lo);
	double v = c->lo + floor(u * (c->hi - c->lo + 1));
	return v > c->hi ? c->hi : v;
}

/* Fill every column with n Sobol points. */
static int draw_sobol(struct reader *rd, int n)
{
	gsl_qrng *q = gsl_qrng_alloc(gsl_qrng_sobol, (unsigned)rd->ncols);
	double u[SWEEPFILE_PARAMS_MAX];
	char buf[VALUE_MAX];
	int rc = STATUS_OK;

	if (!q)
		return nomem(rd->y.d, rd->sf->path);
	for (int k = 0; k < rd->ncols; k++) {
		free(rd->cols[k].vals);
		if (!(rd->cols[k].vals = calloc((size_t)n, sizeof(char *)))) {
			rc = nomem(rd->y.d, rd->sf->path);
			goto out_free_qrng;
		}
	}
	for (int p = 0; p < n; p++) {
		if (gsl_qrng_get(q, u) != GSL_SUCCESS) {
			rc = diag_at(rd->y.d, STATUS_EINTERNAL, rd->sf->path, 0, 0, "GSL's Sobol generator failed");
			goto out_free_qrng;
		}
		for (int k = 0; k < rd->ncols && rc == STATUS_OK; k++) {
			format_value(sample_value(&rd->cols[k], u[k]), rd->cols[k].integer, buf, sizeof buf);
			rc = push_value(rd, &rd->cols[k], buf);
		}
		if (rc)
			goto out_free_qrng;
	}
out_free_qrng:
	gsl_qrng_free(q);
	return rc;
}

static int read_sample(struct reader *rd, const struct yamldoc_ref *s)
{
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	struct yamldoc_ref r, v;
	const char *key;
	int64_t n = 0;
	int method = 0, npairs, rc;

	if ((rc = yamldoc_mapping(&rd->y, s, sample_keys, NULL, NULL)))
		return rc;
	yamldoc_child(s, "n", &r);
	if (!r.node)
		return yamldoc_missing(&rd->y, s, "n", "the number of points");
	if ((rc = yamldoc_int(&rd->y, &r, 1, SWEEPFILE_RUNS_MAX, &n)))
		return rc;
	yamldoc_child(s, "method", &r);
	if ((rc = yamldoc_choice(&rd->y, &r, method_names, 1, &method)))
		return rc;
	yamldoc_child(s, "ranges", &r);
	if (!r.node)
		return yamldoc_missing(&rd->y, s, "ranges", "a mapping of keys to [lo, hi]");
	if ((rc = yamldoc_mapping(&rd->y, &r, NULL, "a mapping of keys to [lo, hi]", &npairs)))
		return rc;
	if (npairs == 0)
		return yamldoc_fail(&rd->y, &r, "no swept key; expected at least one");
	while (yamldoc_next_pair(&r, &walk, &v, &key)) {
		if ((rc = read_bounds(rd, &v, key)))
			return rc;
	}
	return draw_sobol(rd, (int)n);
}

/* ---- the file ------------------------------------------------------------------------------------ */

/* `base`, resolved against the folder of the sweep file. */
static int read_base(struct reader *rd, const struct yamldoc_ref *root)
{
	struct yamldoc_ref r;
	const char *text, *slash = strrchr(rd->sf->path, '/');
	int dir = slash ? (int)(slash - rd->sf->path) + 1 : 0;
	int rc;

	yamldoc_child(root, "base", &r);
	if (!r.node)
		return yamldoc_missing(&rd->y, root, "base", "the scenario file swept, relative to this file");
	if ((rc = yamldoc_scalar(&rd->y, &r, "a scenario file", &text)))
		return rc;
	if (!*text)
		return yamldoc_bad(&rd->y, &r, "a scenario file");
	if (text[0] == '/')
		dir = 0;
	if (!(rd->sf->base = malloc((size_t)dir + strlen(text) + 1)))
		return nomem(rd->y.d, rd->sf->path);
	sprintf(rd->sf->base, "%.*s%s", dir, rd->sf->path, text);
	return STATUS_OK;
}

/* `set`: KEY: scalar, kept as "KEY=VALUE". */
static int read_sets(struct reader *rd, const struct yamldoc_ref *root)
{
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	struct yamldoc_ref r, v;
	const char *key, *text;
	int n, rc;

	yamldoc_child(root, "set", &r);
	if ((rc = yamldoc_mapping(&rd->y, &r, NULL, "a mapping of keys to values, such as {horizon: 2h}", &n)))
		return rc;
	if (n > SWEEPFILE_SETS_MAX)
		return yamldoc_fail(&rd->y, &r, "%d keys; expected at most %d", n, SWEEPFILE_SETS_MAX);
	if (n && !(rd->sf->sets = calloc((size_t)n, sizeof(char *))))
		return nomem(rd->y.d, rd->sf->path);
	for (int i = 0; yamldoc_next_pair(&r, &walk, &v, &key); i++) {
		if ((rc = check_key(rd, &v, key, false)) ||
		    (rc = yamldoc_scalar(&rd->y, &v, "a value for --set", &text)))
			return rc;
		if (!(rd->sf->sets[i] = malloc(strlen(key) + strlen(text) + 2)))
			return nomem(rd->y.d, rd->sf->path);
		sprintf(rd->sf->sets[i], "%s=%s", key, text);
		rd->sf->nsets++;
	}
	return STATUS_OK;
}

static int read_name(struct reader *rd, const struct yamldoc_ref *root)
{
	struct yamldoc_ref r;
	const char *expect = "a name of letters, digits, '.', '_' and '-' (at most 63)";
	const char *text;
	int rc;

	yamldoc_child(root, "name", &r);
	if (!r.node)
		return yamldoc_missing(&rd->y, root, "name", "the sweep's name");
	if ((rc = yamldoc_scalar(&rd->y, &r, expect, &text)))
		return rc;
	if (!*text || strlen(text) >= SWEEPFILE_NAME_MAX || strspn(text, "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != strlen(text) || text[0] == '.' || text[0] == '-')
		return yamldoc_bad(&rd->y, &r, expect);
	strcpy(rd->sf->name, text);
	return STATUS_OK;
}

/* The form: exactly one of grid, zip, sample. */
static int read_form(struct reader *rd, const struct yamldoc_ref *root)
{
	static const char *const forms[] = { "grid", "zip", "sample" };
	struct yamldoc_ref r[3];
	int found = -1, rc;

	for (int i = 0; i < 3; i++) {
		yamldoc_child(root, forms[i], &r[i]);
		if (!r[i].node)
			continue;
		if (found >= 0)
			return yamldoc_fail(&rd->y, &r[i], "%s and %s are both given; expected exactly one of "
						  "grid, zip and sample", forms[found], forms[i]);
		found = i;
	}
	if (found < 0)
		return yamldoc_missing(&rd->y, root, "grid", "exactly one of grid, zip and sample");
	rd->sf->form = (enum sweepfile_form)found;
	if (found == SWEEPFILE_SAMPLE)
		return read_sample(rd, &r[found]);
	if ((rc = read_columns(rd, &r[found], found == SWEEPFILE_GRID)))
		return rc;
	for (int k = 1; found == SWEEPFILE_ZIP && k < rd->ncols; k++)
		if (rd->cols[k].n != rd->cols[0].n) {
			struct yamldoc_ref v;
			const char *key;
			yamldoc_pair(&r[found], k, &v, &key);
			return yamldoc_fail(&rd->y, &v, "%d values, but %s has %d; expected lists of equal "
						  "length", rd->cols[k].n, rd->cols[0].key, rd->cols[0].n);
		}
	return STATUS_OK;
}

/* The number of points, checked against SWEEPFILE_RUNS_MAX with the replications. */
static int count_points(struct reader *rd, const struct yamldoc_ref *root, int *npoints)
{
	int64_t n = rd->sf->form == SWEEPFILE_GRID ? 1 : rd->cols[0].n;
	struct yamldoc_ref r;

	for (int k = 0; rd->sf->form == SWEEPFILE_GRID && k < rd->ncols; k++) {
		n *= rd->cols[k].n;
		if (n * rd->sf->nreps > SWEEPFILE_RUNS_MAX)
			break;
	}
	if (n * rd->sf->nreps > SWEEPFILE_RUNS_MAX) {
		yamldoc_child(root, rd->sf->form == SWEEPFILE_GRID ? "grid" : rd->sf->form == SWEEPFILE_ZIP ?
				    "zip" : "sample", &r);
		return yamldoc_fail(&rd->y, &r, "more than %d runs (points x replications); expected fewer",
					  SWEEPFILE_RUNS_MAX);
	}
	*npoints = (int)n;
	return STATUS_OK;
}

/* Lay the columns out as points (sweepfile.h: grid, first key slowest). Takes the columns' strings. */
static int lay_out(struct reader *rd)
{
	struct sweepfile *sf = rd->sf;
	size_t total = (size_t)sf->npoints * (size_t)rd->ncols;

	sf->params = calloc((size_t)rd->ncols, sizeof(char *));
	sf->values = calloc(total, sizeof(char *));
	if (!sf->params || !sf->values)
		return nomem(rd->y.d, sf->path);
	sf->nparams = rd->ncols;  /* so that sweepfile_fini() frees what is laid out if a copy fails */
	for (int p = 0; p < sf->npoints; p++) {
		int rest = p;
		for (int k = rd->ncols - 1; k >= 0; k--) {
			const struct column *c = &rd->cols[k];
			int i = sf->form == SWEEPFILE_GRID ? rest % c->n : p;
			rest = sf->form == SWEEPFILE_GRID ? rest / c->n : rest;
			if (!(sf->values[(size_t)p * rd->ncols + k] = dup_str(c->vals[i])))
				return nomem(rd->y.d, sf->path);
		}
	}
	for (int k = 0; k < rd->ncols; k++) {
		sf->params[k] = rd->cols[k].key;
		rd->cols[k].key = NULL;
	}
	return STATUS_OK;
}

static int read_all(struct reader *rd)
{
	struct yamldoc_ref root, r;
	int64_t reps = 1;
	int rc;

	yamldoc_root(&rd->y, &root);
	if (!root.node)
		return diag_at(rd->y.d, STATUS_EINPUT, rd->sf->path, 0, 0, "empty file; expected a sweep (name, "
			       "base, and one of grid, zip and sample)");
	if ((rc = yamldoc_mapping(&rd->y, &root, top_keys, NULL, NULL)) || (rc = read_name(rd, &root)) ||
	    (rc = read_base(rd, &root)))
		return rc;
	yamldoc_child(&root, "replications", &r);
	if ((rc = yamldoc_int(&rd->y, &r, 1, SWEEPFILE_REPS_MAX, &reps)))
		return rc;
	rd->sf->nreps = (int)reps;
	if ((rc = read_sets(rd, &root)) || (rc = read_form(rd, &root)) ||
	    (rc = count_points(rd, &root, &rd->sf->npoints)))
		return rc;
	return lay_out(rd);
}

/* Parse len bytes of text (NUL-terminated after them); a NUL byte among them is refused at its position. */
static int parse_text(struct sweepfile *sf, const char *text, size_t len, const char *path, struct diag *d)
{
	struct reader *rd = calloc(1, sizeof *rd);
	int rc;

	memset(sf, 0, sizeof *sf);
	diag_clear(d);
	if (!rd)
		return nomem(d, path);
	rd->sf = sf;
	sf->path = dup_str(path);
	sf->text = dup_str(text);
	if (!sf->path || !sf->text) {
		rc = nomem(d, path);
		goto out_free_reader;
	}
	rc = yamldoc_open(&rd->y, text, len, sf->path, d);
	if (rc == STATUS_OK)
		rc = read_all(rd);
	yamldoc_close(&rd->y);
out_free_reader:
	for (int k = 0; k < rd->ncols; k++) {
		for (int i = 0; i < rd->cols[k].n; i++)
			free(rd->cols[k].vals[i]);
		free(rd->cols[k].vals);
		free(rd->cols[k].key);
	}
	free(rd);
	if (rc)
		sweepfile_fini(sf);
	return rc;
}

int sweepfile_parse(struct sweepfile *sf, const char *text, const char *path, struct diag *d)
{
	return parse_text(sf, text, strlen(text), path, d);
}

int sweepfile_load(struct sweepfile *sf, const char *path, struct diag *d)
{
	char *text;
	size_t len;
	int rc;

	memset(sf, 0, sizeof *sf);
	diag_clear(d);
	if ((rc = textfile_read(path, FILE_BYTES_MAX, "a sweep file", &text, &len, d)))
		return rc;
	rc = parse_text(sf, text, len, path, d);  /* a NUL byte is refused there, at its line and column */
	free(text);
	return rc;
}

void sweepfile_fini(struct sweepfile *sf)
{
	if (!sf)
		return;
	for (int i = 0; i < sf->nsets; i++)
		free(sf->sets[i]);
	free(sf->sets);
	for (size_t i = 0; sf->values && i < (size_t)sf->npoints * (size_t)sf->nparams; i++)
		free(sf->values[i]);
	free(sf->values);
	for (int k = 0; sf->params && k < sf->nparams; k++)
		free(sf->params[k]);
	free(sf->params);
	free(sf->base);
	free(sf->text);
	free(sf->path);
	memset(sf, 0, sizeof *sf);
}

int sweepfile_runs(const struct sweepfile *sf)
{
	return sf->npoints * sf->nreps;
}
