/*
 * scenario_jobfile: the CSV of `jobs.trace`, one job per row (see scenario_load.h; models/README.md, "Jobs").
 *
 * A header line names the columns, in any order: instances, work_instance_hours and submit are required;
 * name, deadline, checkpoint_interval, checkpoint_cost, restart_overhead and priority may be given, and an
 * empty cell in them means the default (as a key left out of a list item). Any other column, or one named
 * twice, is an error. Values are written as in the YAML list: submit and deadline a UTC time or a duration
 * (seconds, or a number with a unit) after the scenario start / after submit; durations likewise.
 *
 * Jobs are few, so the file is read whole (at most FILE_MAX bytes) and its rows appended to the jobs of the
 * list; memory is a job_spec per row. libcsv parses it (quoting, CRLF, blank lines skipped, spaces around
 * unquoted fields trimmed); it is fed one byte at a time so that each field's position is known. Every
 * error is "FILE:LINE:COL: column 'NAME': what; expected what", LINE counting from 1 and COL the character
 * (from 1) where the field starts, so that a message points at the cell.
 */
#include <csv.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_load.h"
#include "status.h"
#include "units.h"

#define FILE_MAX (16 << 20)  /* bytes: about 200000 rows; MAX_JOBS come first */
#define CELL_MAX 128         /* bytes kept of a cell, with its NUL; no valid value is longer */

enum { K_NAME, K_INSTANCES, K_WORK, K_SUBMIT, K_DEADLINE, K_CKPT_INTERVAL, K_CKPT_COST, K_RESTART,
       K_PRIORITY, K_N };  /* the columns, in the order of scenario_load_job_keys */

static const bool required[K_N] = { [K_INSTANCES] = true, [K_WORK] = true, [K_SUBMIT] = true };

/* One file being read. */
struct reader {
	struct load *l;
	const char *path;             /* the resolved path, for messages (borrowed) */
	const struct yamldoc_ref *trace;  /* the key that named it */
	struct csv_parser csv;
	int line, col;                /* position of the byte being fed */
	int fline, fcol;              /* where the current field starts */
	bool at_start;                /* the next byte fed starts a field */
	int nf;                       /* fields of the current row so far */
	int rline;                    /* line where the current row starts */
	int ncols;                    /* columns of the header; 0 until it has been read */
	int key[K_N];                 /* the column each header field names */
	int at[K_N];                  /* the header field of each column, -1 when absent */
	char cell[K_N][CELL_MAX];     /* the current row's cells, by column */
	size_t len[K_N];              /* their real lengths */
	int cline[K_N], ccol[K_N];    /* their positions */
	int rows;                     /* rows read */
	int late, late_line;          /* rows submitted at or after the horizon, and the first one's line */
	int rc;                       /* the first failure; the reader stops there */
};

/* ---- messages ------------------------------------------------------------------------------------- */

static int __attribute__((format(printf, 4, 5)))
fail(struct reader *r, int line, int col, const char *fmt, ...)
{
	char msg[DIAG_MSG_MAX];
	va_list ap;

	if (r->rc)
		return r->rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	r->rc = diag_at(r->l->y.d, STATUS_EINPUT, r->path, line, col, "%s", msg);
	return r->rc;
}

/* A bad value in column k of the current row: "column 'k': expected EXPECT, got 'VALUE'". */
static int bad_cell(struct reader *r, int k, const char *expect)
{
	return fail(r, r->cline[k], r->ccol[k], "column '%s': expected %s, got '%.40s%s'",
		    scenario_load_job_keys.names[k], expect, r->cell[k], r->len[k] > 40 ? "..." : "");
}

/* A check of the whole job (scenario_jobs_*_ok) that failed with msg, at column k. */
static int bad_job(struct reader *r, int k, const char *msg)
{
	return fail(r, r->cline[k], r->ccol[k], "column '%s': %s", scenario_load_job_keys.names[k], msg);
}

/* ---- cells ---------------------------------------------------------------------------------------- */

static bool given(const struct reader *r, int k)
{
	return r->at[k] >= 0 && r->len[k] > 0;
}

static int read_int(struct reader *r, int k, int lo, int hi, int *out)
{
	char expect[64], *end;
	long long v;

	snprintf(expect, sizeof expect, "an integer from %d to %d", lo, hi);
	errno = 0;
	v = strtoll(r->cell[k], &end, 10);
	if (end == r->cell[k] || *end || errno || v < lo || v > hi || strspn(r->cell[k], "+-0123456789") != r->len[k])
		return bad_cell(r, k, expect);
	*out = (int)v;
	return STATUS_OK;
}

static int read_work(struct reader *r, double *out)
{
	const struct yamldoc_bounds *b = scenario_load_work;
	char expect[64], *end;
	double v;

	snprintf(expect, sizeof expect, "a number > 0 and <= %.0f (instance-hours)", b->hi);
	errno = 0;
	v = strtod(r->cell[K_WORK], &end);
	if (end == r->cell[K_WORK] || *end || strspn(r->cell[K_WORK], "0123456789+-.eE") != r->len[K_WORK] ||
	    !(v > b->lo && v <= b->hi))
		return bad_cell(r, K_WORK, expect);
	*out = v;
	return STATUS_OK;
}

static int read_duration(struct reader *r, int k, int64_t *out)
{
	int64_t v;

	if (!given(r, k))
		return STATUS_OK;
	if (units_parse_duration(r->cell[k], &v) != STATUS_OK || v > MAX_JOB_US)
		return bad_cell(r, k, "a duration >= 0 and <= 400d (seconds, or a number with a unit: ms, s, m, h, "
				"d, w)");
	*out = v;
	return STATUS_OK;
}

static int read_when(struct reader *r, int k, int64_t base_us, const char *what, int64_t *out)
{
	char expect[160];

	snprintf(expect, sizeof expect, "a UTC time such as 2026-01-01T06:00:00Z, or a duration after %s such as "
		 "6h", what);
	if (!scenario_jobs_when(r->l, r->cell[k], base_us, out))
		return bad_cell(r, k, expect);
	return STATUS_OK;
}

static int read_name(struct reader *r, struct job_spec *j)
{
	snprintf(j->name, sizeof j->name, "job-%d", r->l->sc.jobs.n + 1);
	if (!given(r, K_NAME))
		return STATUS_OK;
	if (r->len[K_NAME] >= sizeof j->name)
		return fail(r, r->cline[K_NAME], r->ccol[K_NAME], "column 'name': %zu bytes; expected at most %zu",
			    r->len[K_NAME], sizeof j->name - 1);
	for (size_t i = 0; i < r->len[K_NAME]; i++)
		if ((unsigned char)r->cell[K_NAME][i] < 0x20 || r->cell[K_NAME][i] == 0x7F)
			return bad_cell(r, K_NAME, "a name without control characters");
	memcpy(j->name, r->cell[K_NAME], r->len[K_NAME] + 1);
	return STATUS_OK;
}

/* The current row as a job, checked, appended. */
static int end_row(struct reader *r)
{
	struct job_spec j = { .deadline_us = INT64_MAX, .team = -1, .line = r->rline, .col = 1 };
	char msg[DIAG_MSG_MAX];
	int rc;

	if (r->nf != r->ncols)
		return fail(r, r->rline, 1, "%d field%s; expected %d, as in the header", r->nf, r->nf == 1 ? "" : "s",
			    r->ncols);
	for (int k = 0; k < K_N; k++)
		if (required[k] && !given(r, k))
			return fail(r, r->cline[k], r->ccol[k], "column '%s': empty; expected a value (the column is "
				    "required)", scenario_load_job_keys.names[k]);
	if ((rc = read_name(r, &j)) || (rc = read_int(r, K_INSTANCES, 1, MAX_INSTANCES, &j.instances)))
		return rc;
	if (!scenario_jobs_fit_ok(r->l, &j, msg, sizeof msg))
		return bad_job(r, K_INSTANCES, msg);
	if ((rc = read_work(r, &j.work_h)) || (rc = read_when(r, K_SUBMIT, 0, "the scenario start", &j.submit_us)))
		return rc;
	if (!scenario_jobs_submit_ok(r->l, &j, msg, sizeof msg))
		return bad_job(r, K_SUBMIT, msg);
	if (given(r, K_DEADLINE) && (rc = read_when(r, K_DEADLINE, j.submit_us, "submit", &j.deadline_us)))
		return rc;
	if (!scenario_jobs_deadline_ok(r->l, &j, msg, sizeof msg))
		return bad_job(r, K_DEADLINE, msg);
	if ((rc = read_duration(r, K_CKPT_INTERVAL, &j.ckpt_interval_us)) ||
	    (rc = read_duration(r, K_CKPT_COST, &j.ckpt_cost_us)) || (rc = read_duration(r, K_RESTART, &j.restart_us)) ||
	    (given(r, K_PRIORITY) && (rc = read_int(r, K_PRIORITY, -MAX_PRIORITY, MAX_PRIORITY, &j.priority))))
		return rc;
	if (j.submit_us >= r->l->sc.horizon_us && r->late++ == 0)
		r->late_line = r->rline;
	r->rows++;
	if ((rc = scenario_jobs_append(r->l, r->trace, &j)))
		r->rc = rc;
	return rc;
}

/* ---- the header ----------------------------------------------------------------------------------- */

static void header_field(struct reader *r, const char *s, size_t len)
{
	char list[256];
	int k;

	if (r->nf == 0 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {  /* a byte-order mark */
		s += 3;
		len -= 3;
	}
	for (k = 0; k < K_N; k++)
		if (strlen(scenario_load_job_keys.names[k]) == len && memcmp(scenario_load_job_keys.names[k], s, len) == 0)
			break;
	if (k == K_N) {
		fail(r, r->fline, r->fcol, "unknown column '%.*s'; expected columns among: %s", (int)(len < 64 ? len : 64),
		     s, scenario_load_join(scenario_load_job_keys.names, list, sizeof list));
		return;
	}
	if (r->at[k] >= 0) {
		fail(r, r->fline, r->fcol, "column '%s' is named twice (also field %d); expected each column once",
		     scenario_load_job_keys.names[k], r->at[k] + 1);
		return;
	}
	if (r->nf >= K_N)
		return;  /* cannot happen: K_N names, each at most once */
	r->at[k] = r->nf;
	r->key[r->nf] = k;
}

static void end_header(struct reader *r)
{
	for (int k = 0; k < K_N; k++)
		if (required[k] && r->at[k] < 0) {
			fail(r, r->rline, 1, "no column '%s' in the header; expected the columns instances, "
			     "work_instance_hours and submit, and any of name, deadline, checkpoint_interval, "
			     "checkpoint_cost, restart_overhead, priority", scenario_load_job_keys.names[k]);
			return;
		}
	r->ncols = r->nf;
}

/* ---- libcsv's callbacks and the feeding ----------------------------------------------------------- */

static void on_field(void *s, size_t len, void *user)
{
	struct reader *r = user;

	r->at_start = true;
	if (r->rc)
		return;
	if (r->nf == 0)
		r->rline = r->fline;
	if (r->ncols == 0) {
		header_field(r, s ? s : "", len);  /* libcsv may pass NULL for an empty field */
	} else if (r->nf >= r->ncols) {
		fail(r, r->fline, r->fcol, "more fields than the header's %d; expected %d", r->ncols, r->ncols);
	} else {
		int k = r->key[r->nf];
		size_t n = len < CELL_MAX ? len : CELL_MAX - 1;

		if (n > 0)
			memcpy(r->cell[k], s, n);
		r->cell[k][n] = '\0';
		r->len[k] = len;
		r->cline[k] = r->fline;
		r->ccol[k] = r->fcol;
	}
	r->nf++;
}

static void on_row(int c, void *user)
{
	struct reader *r = user;

	(void)c;
	r->at_start = true;
	if (!r->rc && r->ncols == 0)
		end_header(r);
	else if (!r->rc)
		end_row(r);
	r->nf = 0;
	for (int k = 0; k < K_N; k++) {
		r->len[k] = 0;
		r->cell[k][0] = '\0';
		r->cline[k] = r->rline;  /* an absent column's empty cell points at the row */
		r->ccol[k] = 1;
	}
}

static int csv_failed(struct reader *r)
{
	return fail(r, r->line, r->col, "malformed quoting (libcsv: %s); expected fields either unquoted or "
		    "wholly in double quotes", csv_strerror(csv_error(&r->csv)));
}

/*
 * Feed the text, one byte at a time, keeping the position of each field's first byte (a newline that ends
 * the previous row does not start a field: blank lines are skipped). Bytes must be UTF-8 without NULs.
 */
static void feed(struct reader *r, const unsigned char *text, size_t n)
{
	int need = 0;

	for (size_t i = 0; i < n && !r->rc; i++) {
		unsigned char c = text[i];
		bool newline = c == '\n' || c == '\r';

		if (c == 0 || (need > 0) != ((c & 0xC0) == 0x80) || c == 0xC0 || c == 0xC1 || c > 0xF4) {
			fail(r, r->line, r->col, "a NUL byte or bytes that are not UTF-8; expected a text CSV file");
			return;
		}
		need = need > 0 ? need - 1 : c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
		if (r->at_start) {
			r->fline = r->line;
			r->fcol = r->col;
			r->at_start = newline;
		}
		if (csv_parse(&r->csv, &c, 1, on_field, on_row, r) != 1) {
			csv_failed(r);
			return;
		}
		if (c == '\n') {
			r->line++;
			r->col = 1;
		} else if ((c & 0xC0) != 0x80) {
			r->col++;  /* a character's first byte */
		}
	}
	if (!r->rc && need > 0)
		fail(r, r->line, r->col, "the file ends inside a UTF-8 character; expected a text CSV file");
	if (!r->rc && csv_fini(&r->csv, on_field, on_row, r) != 0)
		csv_failed(r);
}

/* ---- the file ------------------------------------------------------------------------------------- */

/* Read the file at path whole into *text (owned by the caller), *n bytes. */
static int slurp(struct load *l, const char *path, unsigned char **text, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL, *grown;
	size_t cap = 0, got = 0;
	int rc = STATUS_OK;

	if (!f)
		return diag_at(l->y.d, STATUS_ENOENT, path, 0, 0, "cannot open: %s", strerror(errno));
	do {
		if (got == cap && (cap = cap ? 2 * cap : 4096) > FILE_MAX) {
			rc = diag_at(l->y.d, STATUS_EINPUT, path, 0, 0, "larger than %d MiB; expected a CSV of jobs",
				     FILE_MAX >> 20);
			goto out_close;
		}
		if (!(grown = realloc(buf, cap))) {
			rc = diag_at(l->y.d, STATUS_ENOMEM, path, 0, 0, "out of memory reading the jobs");
			goto out_close;
		}
		buf = grown;
		got += fread(buf + got, 1, cap - got, f);
	} while (got == cap);
	if (ferror(f))
		rc = diag_at(l->y.d, STATUS_ENOENT, path, 0, 0, "cannot read: %s", strerror(errno));
out_close:
	fclose(f);
	if (rc != STATUS_OK) {
		free(buf);
		return rc;
	}
	*text = buf;
	*n = got;
	return STATUS_OK;
}

int scenario_load_jobfile(struct load *l, const struct yamldoc_ref *trace)
{
	struct reader *r = calloc(1, sizeof *r);
	unsigned char *text = NULL;
	size_t n = 0;
	int rc;

	if (!r)
		return diag_at(l->y.d, STATUS_ENOMEM, l->y.label, 0, 0, "out of memory reading the jobs");
	*r = (struct reader){ .l = l, .path = l->sc.jobs.trace, .trace = trace, .line = 1, .col = 1,
			      .at_start = true };
	for (int k = 0; k < K_N; k++)
		r->at[k] = -1;
	if ((rc = slurp(l, r->path, &text, &n)))
		goto out_free_reader;
	if (csv_init(&r->csv, CSV_STRICT | CSV_STRICT_FINI) != 0) {
		rc = diag_at(l->y.d, STATUS_ENOMEM, r->path, 0, 0, "out of memory");
		goto out_free_text;
	}
	feed(r, text, n);
	if (!r->rc && r->ncols == 0)
		fail(r, 0, 0, "empty file; expected a header line and rows");
	else if (!r->rc && r->rows == 0)
		fail(r, r->rline, 0, "no rows after the header; expected a job per row");
	rc = r->rc;
	if (!rc && r->late)
		rc = scenario_load_warn(l, trace, "%d job%s of %s (the first at line %d) %s submitted at or after the "
					"horizon; %s never run%s", r->late, r->late == 1 ? "" : "s", r->path,
					r->late_line, r->late == 1 ? "is" : "are", r->late == 1 ? "it" : "they",
					r->late == 1 ? "s" : "");
	csv_free(&r->csv);
out_free_text:
	free(text);
out_free_reader:
	free(r);
	return rc;
}
