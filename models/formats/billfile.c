/*
 * billfile: see billfile.h. The file is fed to libcsv a line at a time (up to and including each LF), so
 * that a row's line number is known; the fields of the columns the format uses are kept, the rest skipped.
 * What the header and each row mean is billfile_row.c's.
 */
#include "billfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "billfile_private.h"
#include "status.h"

#define BLOCK (64 * 1024)

static void on_field(void *s, size_t len, void *user)
{
	struct reader *r = user;
	const char *p = s ? s : "";  /* libcsv may pass NULL for an empty field */

	if (r->rc)
		return;
	if (r->nf == 0)
		r->row_line = r->line;
	if (r->ncols == 0) {
		if (r->nf == 0 && len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
			p += 3, len -= 3;  /* a byte-order mark */
		for (int k = 0; k < C_N; k++)
			if (r->col[k] < 0 && strlen(billfile_cols[k].name) == len && memcmp(billfile_cols[k].name, p, len) == 0)
				r->col[k] = r->nf;
	} else {
		for (int k = 0; k < C_N; k++)
			if (r->col[k] == r->nf) {
				size_t n = len < FIELD_MAX ? len : FIELD_MAX - 1;

				memcpy(r->val[k], p, n);
				r->val[k][n] = '\0';
			}
	}
	r->nf++;
}

static void on_row(int c, void *user)
{
	struct reader *r = user;
	int nf = r->nf;

	(void)c;
	r->nf = 0;
	if (r->rc || nf == 0)
		return;  /* a blank line, or the LF of a CRLF */
	if (!r->ncols) {
		r->ncols = nf;
		billfile_end_header(r);
		return;
	}
	if (nf != r->ncols) {
		char msg[64];

		snprintf(msg, sizeof msg, "%d fields", nf);
		billfile_fail_at(r, C_N, "%s", msg, "as many fields as the header");
		return;
	}
	billfile_end_row(r);
	for (int k = 0; k < C_N; k++)
		r->val[k][0] = '\0';
}

/* Feed a block to libcsv a line at a time, counting lines and refusing NUL bytes and over-long lines. */
static void feed(struct reader *r, const char *p, size_t n)
{
	while (n && !r->rc) {
		const char *nl = memchr(p, '\n', n);
		size_t len = nl ? (size_t)(nl - p) + 1 : n;

		if (memchr(p, '\0', len)) {
			r->row_line = r->line;
			billfile_fail_at(r, C_N, "%s", "a NUL byte", "a text CSV file");
			return;
		}
		if ((r->line_bytes += len) > BILLFILE_LINE_MAX) {
			r->row_line = r->line;
			billfile_fail_at(r, C_N, "%s", "line too long", "lines of at most 65536 bytes");
			return;
		}
		if (csv_parse(&r->csv, p, len, on_field, on_row, r) != len && !r->rc) {
			r->row_line = r->line;
			billfile_fail_at(r, C_N, "malformed quoting (libcsv: %s)", csv_strerror(csv_error(&r->csv)),
				"fields either unquoted or wholly in double quotes");
		}
		if (nl) {
			r->line++;
			r->line_bytes = 0;
		}
		p += len;
		n -= len;
	}
}

static int read_all(struct reader *r)
{
	char *block = malloc(BLOCK);
	size_t n;

	if (!block)
		return diag_fail(r->d, STATUS_ENOMEM, "%s: out of memory reading the bill", r->path);
	while (!r->rc && (n = fread(block, 1, BLOCK, r->f)) > 0)
		feed(r, block, n);
	if (!r->rc && ferror(r->f))
		r->rc = diag_fail(r->d, STATUS_EIO, "%s: cannot read: %s", r->path, strerror(errno));
	if (!r->rc && csv_fini(&r->csv, on_field, on_row, r) != 0 && !r->rc)
		billfile_fail_at(r, C_N, "malformed quoting at the end (libcsv: %s)", csv_strerror(csv_error(&r->csv)),
			"a closing double quote");
	free(block);
	return r->rc;
}

int billfile_load(struct billfile *b, const char *path, enum billfile_format fmt, const char *const *types,
		  int ntypes, struct diag *d)
{
	struct reader *r = calloc(1, sizeof *r);
	int rc;

	memset(b, 0, sizeof *b);
	if (!r)
		return diag_fail(d, STATUS_ENOMEM, "%s: out of memory reading the bill", path);
	*r = (struct reader){ .path = path, .b = b, .types = types, .ntypes = ntypes, .line = 1, .d = d };
	for (int k = 0; k < C_N; k++)
		r->col[k] = -1;
	b->format = fmt;
	if (!(r->f = fopen(path, "rb"))) {
		rc = diag_fail(d, STATUS_ENOENT, "%s: cannot open: %s", path, strerror(errno));
		free(r);
		return rc;
	}
	if (csv_init(&r->csv, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL | CSV_EMPTY_IS_NULL) != 0) {
		fclose(r->f);
		free(r);
		return diag_fail(d, STATUS_ENOMEM, "%s: out of memory for the CSV parser", path);
	}
	rc = read_all(r);
	if (rc == STATUS_OK && r->ncols == 0)
		rc = diag_fail(d, STATUS_EINPUT, "%s: empty; expected a FOCUS or CUR 2.0 header and rows", path);
	if (rc == STATUS_OK && b->kept == 0)
		rc = diag_fail(d, STATUS_EINPUT, "%s: no usage of %s%s in the bill (%lld rows: %lld of other instance "
			       "types or services, %lld not usage); expected rows of the scenario's instance type",
			       path, types[0], ntypes > 1 ? " and the other types" : "", (long long)b->rows,
			       (long long)b->other_type, (long long)b->not_usage);
	if (rc == STATUS_OK && r->alloc_lo != b->start_unix_s / 3600)  /* the span to the front of the cells */
		memmove(b->cells, b->cells + (b->start_unix_s / 3600 - r->alloc_lo) * BILLCLASS_N,
			(size_t)b->nhours * BILLCLASS_N * sizeof *b->cells);
	csv_free(&r->csv);
	fclose(r->f);
	free(r);
	if (rc != STATUS_OK)
		billfile_fini(b);
	return rc;
}

void billfile_fini(struct billfile *b)
{
	free(b->cells);
	memset(b, 0, sizeof *b);
}
