/*
 * arrivals_series: arrivals from per-window rate series (the `rate_series` kind), summed over files.
 *
 * Each file is a series of windows; window i covers [start_i, start_{i+1}), and the last one
 * [start, start + window_s). Starts are seconds from the scenario start, >= 0, strictly increasing.
 *   aggregate: a header line, then rows `window_start_s,rate_per_s[,more columns, ignored]`; within a window
 *              requests arrive as a Poisson process at that rate.
 *   servegen:  no header; rows `start,rate,cv,distribution,p1,p2` (ServeGen's per-client files,
 *              SOURCES.md [trace-servegen]). Within a window requests arrive as a renewal process whose gaps
 *              follow the fitted distribution: `Gamma` with shape p1 and scale p2 (mean p1 x p2), or
 *              `Weibull` with shape p1 and scale p2 (mean p2 x Gamma(1 + 1/p1); GSL's gsl_ran_weibull(r,
 *              a, b) takes the scale as a and the shape as b). An empty distribution with rate > 0 means
 *              Poisson; rate 0 means no arrivals (a named distribution's parameters are still checked).
 *              cv is checked to be a number, then ignored (the fitted distribution carries it).
 *
 * The rate column is authoritative. ServeGen's fits do not always have mean 1 / rate (Gamma fits do to
 * within 1% for most windows, Weibull fits are often 20% or more off, a heavy tail being hard to fit), so
 * when the fitted mean gap differs from 1 / rate by more than 1% every gap of the window is multiplied by
 * 1 / (rate x fitted mean): the shape, hence the burstiness (cv), is kept and the window's mean rate is the
 * given one. Within 1% the fitted parameters are used as they are.
 *
 * The process restarts at each window boundary, drawing the first arrival from the window's start, and
 * that first gap is drawn from the renewal process's equilibrium (forward-recurrence) distribution, not
 * from the gap distribution itself: the stationary renewal process has exactly rate x length expected
 * arrivals in any interval, whereas an ordinary one started at the window's start has about
 * (cv^2 - 1) / 2 more per window (cv of the gap distribution). For ServeGen's Weibull fits (cv^2 about 8
 * to 120 once rescaled) that is 3 to 60 extra requests per 600 s window, 0.5% to 4% of a window's load,
 * and far more for short windows (50% for 10 s windows of cv^2 = 10). The equilibrium gap is U x L with U
 * uniform on [0, 1) and L the length-biased gap: for Gamma(k, theta), L ~ Gamma(k + 1, theta); for
 * Weibull(k, lambda), L = lambda x Y^(1/k) with Y ~ Gamma(1 + 1/k, 1). (For Poisson both are exponential.)
 *
 * Several files are merged by time through a binary heap of per-file readers ordered by (next arrival,
 * file index), so equal times come out in file order. Each reader streams its file two rows at a time (the
 * window and the next row, whose start ends it), so memory is one line buffer per file whatever the
 * files' length, and nothing is allocated per arrival. All files draw from the one arrival stream, in the
 * order the arrivals are produced.
 *
 * Errors: a file that cannot be opened is STATUS_ENOENT; a malformed row is STATUS_EINPUT with "FILE:LINE:
 * what; expected what" (bad number, negative start or rate, unknown distribution, non-positive
 * parameters, windows out of order, wrong field count, a file with no windows). The scenario loader reads
 * every file through arrivals_series_check first, so a run never starts on a malformed file. Should a file
 * change under a run, rows are still checked as the simulation reaches them: a bad row late in a file fails
 * next() then (the arrival before it is still returned, and the error comes on the following call and on
 * every call after it).
 */
#include "arrivals.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>

#include "engine.h"
#include "rng.h"
#include "scenario.h"
#include "status.h"

#define LINE_BYTES 1024  /* longest line accepted, with its newline and NUL; ServeGen rows are ~100 */
#define FIELDS_MAX 8     /* fields split per row; the rest stay in the last one */
#define RESCALE_TOLERANCE 0.01  /* fitted mean gap within 1% of 1 / rate: use the fit as it is */

enum gap_kind {
	GAP_NONE,     /* rate 0: no arrivals in the window */
	GAP_POISSON,  /* exponential gaps */
	GAP_GAMMA,    /* Gamma(shape, scale) gaps */
	GAP_WEIBULL   /* Weibull(shape, scale) gaps */
};

/* One row: a window's parameters. */
struct series_row {
	double start_s;     /* window start, seconds from the scenario start */
	double rate_per_s;  /* mean arrivals per second in the window, >= 0 */
	enum gap_kind kind; /* how gaps are drawn */
	double shape;       /* Gamma or Weibull shape, > 0 */
	double scale;       /* seconds; for Gamma and Weibull the rescaled scale (see the header) */
	int line;           /* where it was read, for messages */
};

struct series_reader {
	FILE *f;                  /* the open file */
	char *path;               /* its name as given (owned copy), for messages */
	int line;                 /* lines read so far */
	struct series_row cur;    /* the window being drawn */
	struct series_row ahead;  /* the row after it, when has_ahead */
	bool has_ahead;
	bool in_window;           /* cur has arrivals left to draw */
	bool started;             /* cur's first arrival has been drawn */
	double end_s;             /* end of cur */
	double t_s;               /* the last arrival drawn, seconds */
	int64_t next_us;          /* that arrival in microseconds: the reader's key in the heap */
	char buf[LINE_BYTES];     /* the current line */
};

struct series_source {
	struct arrival_source base;     /* must be first */
	gsl_rng *rng;                   /* arrival stream (kept, owned by the caller) */
	double rate_scale;              /* scale_rate: every window's rate x this (gaps / this) */
	enum series_format format;      /* how the files are laid out */
	double window_s;                /* length of each file's last window */
	int nreaders;                   /* files */
	struct series_reader *readers;  /* one per file, owned */
	int *heap;                      /* indices of readers with an arrival pending, a min-heap */
	int nheap;                      /* entries used */
	int err;                        /* a failure met while streaming, returned from then on; 0 if none */
	struct diag err_diag;           /* its message */
};

/* ---- Parsing ---- */

static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		e--;
	*e = '\0';
	return s;
}

/* Split s in place at commas into at most FIELDS_MAX trimmed fields; returns how many. */
static int split(char *s, char **fields)
{
	int n = 0;

	for (;;) {
		char *comma = n + 1 < FIELDS_MAX ? strchr(s, ',') : NULL;

		if (comma)
			*comma = '\0';
		fields[n++] = trim(s);
		if (!comma)
			return n;
		s = comma + 1;
	}
}

/* Parse a whole field as a finite number. */
static bool parse_number(const char *s, double *x)
{
	char *end;

	if (!*s)
		return false;
	*x = strtod(s, &end);
	return *end == '\0' && isfinite(*x);
}

/*
 * Read the next non-blank line into r->buf (without its line ending): STATUS_OK, STATUS_DONE at the end
 * of the file, or an error.
 */
static int read_line(struct series_reader *r, char **text, struct diag *d)
{
	for (;;) {
		size_t len;

		if (!fgets(r->buf, sizeof r->buf, r->f)) {
			if (ferror(r->f))
				return diag_at(d, STATUS_ENOENT, r->path, r->line + 1, 0, "read error: %s",
					       strerror(errno));
			return STATUS_DONE;
		}
		r->line++;
		len = strlen(r->buf);
		if (len == sizeof r->buf - 1 && r->buf[len - 1] != '\n' && !feof(r->f))
			return diag_at(d, STATUS_EINPUT, r->path, r->line, 0,
				       "line too long; expected at most %d bytes", LINE_BYTES - 2);
		*text = trim(r->buf);
		if (**text)
			return STATUS_OK;
	}
}

/* Parse field `s`, the `what` of the row, into *x >= 0; `expected` says what it should be. */
static int parse_field(struct series_reader *r, const char *s, const char *what, const char *expected,
		       double *x, struct diag *d)
{
	if (!parse_number(s, x))
		return diag_at(d, STATUS_EINPUT, r->path, r->line, 0,
			       "%s '%s' is not a finite number; expected %s", what, s, expected);
	if (*x < 0)
		return diag_at(d, STATUS_EINPUT, r->path, r->line, 0, "%s %g is negative; expected %s", what,
			       *x, expected);
	return STATUS_OK;
}

/* The distribution columns of a ServeGen row: kind, and the scale rescaled to the rate (see the header). */
static int parse_gaps(struct series_reader *r, char **f, struct series_row *row, struct diag *d)
{
	gsl_sf_result lg;
	double cv, log_mean, fitted_scale;

	if (!parse_number(f[2], &cv))
		return diag_at(d, STATUS_EINPUT, r->path, r->line, 0,
			       "cv '%s' is not a number; expected a coefficient of variation", f[2]);
	if (!*f[3]) {
		row->kind = row->rate_per_s > 0 ? GAP_POISSON : GAP_NONE;
		return STATUS_OK;
	}
	if (strcmp(f[3], "Gamma") == 0)
		row->kind = GAP_GAMMA;
	else if (strcmp(f[3], "Weibull") == 0)
		row->kind = GAP_WEIBULL;
	else
		return diag_at(d, STATUS_EINPUT, r->path, r->line, 0,
			       "unknown distribution '%s'; expected Gamma, Weibull or empty", f[3]);
	if (!parse_number(f[4], &row->shape) || !parse_number(f[5], &row->scale))
		return diag_at(d, STATUS_EINPUT, r->path, r->line, 0,
			       "%s parameters '%s', '%s'; expected two numbers (shape, scale)", f[3], f[4], f[5]);
	if (!(row->shape > 0 && row->scale > 0))
		return diag_at(d, STATUS_EINPUT, r->path, r->line, 0,
			       "%s shape %g, scale %g; expected both > 0", f[3], row->shape, row->scale);
	if (!(row->rate_per_s > 0)) {
		row->kind = GAP_NONE;
		return STATUS_OK;
	}
	/* The mean gap, in logs so that tiny Weibull shapes do not overflow Gamma(1 + 1/shape). */
	if (row->kind == GAP_GAMMA)
		log_mean = log(row->shape) + log(row->scale);
	else if (gsl_sf_lngamma_e(1.0 + 1.0 / row->shape, &lg) == GSL_SUCCESS)
		log_mean = lg.val + log(row->scale);
	else
		log_mean = INFINITY;
	if (!isfinite(log_mean))
		return diag_at(d, STATUS_EINPUT, r->path, r->line, 0, "%s shape %g, scale %g: mean gap out of "
			       "range; expected a finite mean", f[3], row->shape, row->scale);
	fitted_scale = row->scale;
	if (fabs(exp(log_mean) * row->rate_per_s - 1.0) > RESCALE_TOLERANCE)
		row->scale = exp(log(row->scale) - log_mean - log(row->rate_per_s)); /* mean is now 1 / rate */
	if (!(row->scale > 0 && row->scale < INFINITY)) /* a shape so small that the scale is not a double */
		return diag_at(d, STATUS_EINPUT, r->path, r->line, 0, "%s shape %g, scale %g: rescaled scale "
			       "out of range; expected a larger shape", f[3], row->shape, fitted_scale);
	return STATUS_OK;
}

/* Read the next row into *row: STATUS_OK, STATUS_DONE at the end of the file, or an error. */
static int read_row(struct series_source *src, struct series_reader *r, struct series_row *row,
		    struct diag *d)
{
	char *text, *f[FIELDS_MAX];
	int st, n;

	st = read_line(r, &text, d);
	if (st != STATUS_OK)
		return st;
	memset(row, 0, sizeof *row);
	row->line = r->line;
	n = split(text, f);
	if (src->format == SERIES_AGGREGATE && n < 2)
		return diag_at(d, STATUS_EINPUT, r->path, r->line, 0,
			       "1 field; expected at least 2 (window_start_s,rate_per_s)");
	if (src->format == SERIES_SERVEGEN && n != 6)
		return diag_at(d, STATUS_EINPUT, r->path, r->line, 0, "%d field%s; expected 6 "
			       "(start,rate,cv,distribution,shape,scale)", n, n == 1 ? "" : "s");
	st = parse_field(r, f[0], "window start", "seconds >= 0 from the scenario start", &row->start_s, d);
	if (st == STATUS_OK)
		st = parse_field(r, f[1], "rate", "requests per second >= 0", &row->rate_per_s, d);
	if (st != STATUS_OK)
		return st;
	if (src->format == SERIES_SERVEGEN)
		return parse_gaps(r, f, row, d);
	row->kind = row->rate_per_s > 0 ? GAP_POISSON : GAP_NONE;
	return STATUS_OK;
}

/* Read an aggregate file's header line: a first field that is a number means the header is missing. */
static int read_header(struct series_reader *r, struct diag *d)
{
	char *text, *f[FIELDS_MAX];
	double x;
	int st = read_line(r, &text, d);

	if (st != STATUS_OK)
		return st;
	split(text, f);
	if (parse_number(f[0], &x))
		return diag_at(d, STATUS_EINPUT, r->path, r->line, 0,
			       "a data row; expected a header line (window_start_s,rate_per_s,...)");
	return STATUS_OK;
}

/*
 * Read every row of one file as the source would, checking fields and order, and draw nothing: for the
 * scenario loader, so that a malformed row fails the load rather than the run. O(rows), one line buffer.
 */
int arrivals_series_check(const char *path, enum series_format format, struct diag *d)
{
	struct series_source src = { .format = format };
	struct series_reader r = { .path = (char *)path };  /* path borrowed: r is not freed */
	struct series_row row, prev = { 0 };
	int n = 0, st;

	r.f = fopen(path, "r");
	if (!r.f)
		return diag_at(d, STATUS_ENOENT, path, 0, 0, "cannot open: %s; expected a readable rate-series "
			       "file", strerror(errno));
	st = format == SERIES_AGGREGATE ? read_header(&r, d) : STATUS_OK;
	while (st == STATUS_OK && (st = read_row(&src, &r, &row, d)) == STATUS_OK) {
		if (n > 0 && !(row.start_s > prev.start_s))
			st = diag_at(d, STATUS_EINPUT, path, row.line, 0, "window start %g s is not after line "
				     "%d's %g s; expected increasing starts", row.start_s, prev.line, prev.start_s);
		prev = row;
		n++;
	}
	fclose(r.f);
	if (st == STATUS_DONE && n == 0)
		return diag_at(d, STATUS_EINPUT, path, 0, 0, "no windows; expected at least one row");
	return st == STATUS_DONE ? STATUS_OK : st;
}

/* ---- Drawing ---- */

/*
 * A gap of the window's renewal process. A Weibull gap is scale x E^(1/shape) with E ~ Exp(1), which is
 * what gsl_ran_weibull(r, scale, shape) computes; it is done in logs here so that a small shape (a huge
 * power of E times a tiny scale) neither overflows nor underflows on the way.
 */
static double draw_gap(struct series_source *src, const struct series_row *w)
{
	switch (w->kind) {
	case GAP_GAMMA:
		return gsl_ran_gamma(src->rng, w->shape, w->scale);
	case GAP_WEIBULL:
		return exp(log(w->scale) + log(rng_exponential(src->rng, 1.0)) / w->shape);
	default:
		return rng_exponential(src->rng, 1.0 / w->rate_per_s);
	}
}

/* The first gap from the window's start: equilibrium (forward-recurrence) distribution, see the header. */
static double draw_first_gap(struct series_source *src, const struct series_row *w)
{
	switch (w->kind) {
	case GAP_GAMMA:
		return rng_uniform(src->rng) * gsl_ran_gamma(src->rng, w->shape + 1.0, w->scale);
	case GAP_WEIBULL: /* U x scale x Y^(1/shape), in logs as in draw_gap */
		return exp(log(gsl_rng_uniform_pos(src->rng)) + log(w->scale) +
			   log(gsl_ran_gamma(src->rng, 1.0 + 1.0 / w->shape, 1.0)) / w->shape);
	default:
		return rng_exponential(src->rng, 1.0 / w->rate_per_s);
	}
}

/* Make the row ahead the current window and read the one after: STATUS_DONE when there is none. */
static int next_window(struct series_source *src, struct series_reader *r, struct diag *d)
{
	int st;

	if (!r->has_ahead)
		return STATUS_DONE;
	r->cur = r->ahead;
	st = read_row(src, r, &r->ahead, d);
	if (st < 0)
		return st;
	r->has_ahead = st == STATUS_OK;
	if (r->has_ahead && !(r->ahead.start_s > r->cur.start_s))
		return diag_at(d, STATUS_EINPUT, r->path, r->ahead.line, 0, "window start %g s is not after "
			       "line %d's %g s; expected increasing starts", r->ahead.start_s, r->cur.line,
			       r->cur.start_s);
	r->end_s = r->has_ahead ? r->ahead.start_s : r->cur.start_s + src->window_s;
	r->in_window = r->cur.kind != GAP_NONE;
	r->started = false;
	return STATUS_OK;
}

/* Draw the reader's next arrival into r->next_us: STATUS_OK, STATUS_DONE after its last, or an error. */
static int reader_next(struct series_source *src, struct series_reader *r, struct diag *d)
{
	int st;

	for (;;) {
		if (r->in_window) {
			if (r->started)
				r->t_s += draw_gap(src, &r->cur) / src->rate_scale;
			else
				r->t_s = r->cur.start_s + draw_first_gap(src, &r->cur) / src->rate_scale;
			r->started = true;
			if (r->t_s < r->end_s)
				return arrivals_seconds_to_us(r->t_s, &r->next_us) ? STATUS_OK : STATUS_DONE;
			r->in_window = false;
		}
		st = next_window(src, r, d);
		if (st != STATUS_OK)
			return st;
	}
}

/* ---- The heap of readers, ordered by (next arrival, file index) ---- */

static bool before(const struct series_source *src, int a, int b)
{
	int64_t ta = src->readers[a].next_us, tb = src->readers[b].next_us;

	return ta < tb || (ta == tb && a < b);
}

static void sift_down(struct series_source *src, int i)
{
	int *h = src->heap;

	for (;;) {
		int l = 2 * i + 1, m = i, tmp;

		if (l < src->nheap && before(src, h[l], h[m]))
			m = l;
		if (l + 1 < src->nheap && before(src, h[l + 1], h[m]))
			m = l + 1;
		if (m == i)
			return;
		tmp = h[i];
		h[i] = h[m];
		h[m] = tmp;
		i = m;
	}
}

static void heap_push(struct series_source *src, int reader)
{
	int *h = src->heap, i = src->nheap++;

	h[i] = reader;
	while (i > 0 && before(src, h[i], h[(i - 1) / 2])) {
		int p = (i - 1) / 2, tmp = h[i];

		h[i] = h[p];
		h[p] = tmp;
		i = p;
	}
}

/* ---- The source ---- */

/* Read each file from its start and fill the heap with their first arrivals. */
static int start_all(struct series_source *src, struct diag *d)
{
	src->nheap = 0;
	src->err = 0;
	for (int i = 0; i < src->nreaders; i++) {
		struct series_reader *r = &src->readers[i];
		int st;

		r->line = 0;
		r->in_window = false;
		st = src->format == SERIES_AGGREGATE ? read_header(r, d) : STATUS_OK;
		if (st == STATUS_OK)
			st = read_row(src, r, &r->ahead, d);
		if (st == STATUS_DONE)
			return diag_at(d, STATUS_EINPUT, r->path, 0, 0, "no windows; expected at least one row");
		if (st != STATUS_OK)
			return st;
		r->has_ahead = true;
		st = reader_next(src, r, d);
		if (st < 0)
			return st;
		if (st == STATUS_OK)
			heap_push(src, i);
	}
	return STATUS_OK;
}

static int series_next(struct arrival_source *base, struct arrival *out, struct diag *d)
{
	struct series_source *src = (struct series_source *)base;
	int top, st;

	if (src->err) {
		if (d)
			*d = src->err_diag;
		return src->err;
	}
	if (src->nheap == 0)
		return STATUS_DONE;
	top = src->heap[0];
	out->t_us = src->readers[top].next_us;
	out->in_tokens = -1;
	out->out_tokens = -1;
	out->service_s = NAN;
	st = reader_next(src, &src->readers[top], &src->err_diag);
	if (st < 0)
		src->err = st; /* this arrival is good; the failure is returned from the next call on */
	if (st != STATUS_OK)
		src->heap[0] = src->heap[--src->nheap];
	sift_down(src, 0);
	return STATUS_OK;
}

/* Read every file again from its start (the stream goes on, so a loop draws fresh times). */
static int series_rewind(struct arrival_source *base, struct diag *d)
{
	struct series_source *src = (struct series_source *)base;

	for (int i = 0; i < src->nreaders; i++) {
		struct series_reader *r = &src->readers[i];

		if (fseek(r->f, 0, SEEK_SET) != 0)
			return diag_at(d, STATUS_ENOENT, r->path, 0, 0, "cannot rewind: %s", strerror(errno));
		clearerr(r->f);
	}
	return start_all(src, d);
}

static void series_free(struct arrival_source *base)
{
	struct series_source *src = (struct series_source *)base;

	for (int i = 0; i < src->nreaders; i++) {
		if (src->readers[i].f)
			fclose(src->readers[i].f);
		free(src->readers[i].path);
	}
	free(src->readers);
	free(src->heap);
	free(src);
}

static const struct arrival_source_ops series_ops = {
	.next = series_next,
	.rewind = series_rewind,
	.free = series_free,
};

int arrivals_series_new(struct arrival_source **out, const struct scenario *sc, gsl_rng *rng, struct diag *d)
{
	int n = sc->arrivals.nseries, st;
	struct series_source *src = calloc(1, sizeof *src);

	if (!src)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	src->base.ops = &series_ops;
	src->rng = rng;
	src->rate_scale = arrivals_rate_scale(sc);
	src->format = sc->arrivals.series_format;
	src->window_s = (double)sc->arrivals.window_us / (double)SIM_US_PER_S;
	src->readers = calloc(n > 0 ? (size_t)n : 1, sizeof *src->readers);
	src->heap = calloc(n > 0 ? (size_t)n : 1, sizeof *src->heap);
	if (!src->readers || !src->heap) {
		st = diag_fail(d, STATUS_ENOMEM, "out of memory");
		goto out_free;
	}
	for (int i = 0; i < n; i++) {
		struct series_reader *r = &src->readers[i];
		const char *path = sc->arrivals.series[i];

		src->nreaders = i + 1; /* so that series_free closes what is open so far */
		r->path = strdup(path);
		if (!r->path) {
			st = diag_fail(d, STATUS_ENOMEM, "out of memory");
			goto out_free;
		}
		r->f = fopen(path, "r");
		if (!r->f) {
			st = diag_at(d, STATUS_ENOENT, path, 0, 0, "cannot open: %s; expected a readable "
				     "rate-series file", strerror(errno));
			goto out_free;
		}
	}
	st = start_all(src, d);
	if (st != STATUS_OK)
		goto out_free;
	*out = &src->base;
	return STATUS_OK;

out_free:
	series_free(&src->base);
	return st;
}
