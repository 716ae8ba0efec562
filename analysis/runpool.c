/*
 * runpool: see runpool.h.
 *
 * Everything that crosses a pipe or the spool is written field by field (numbers in this machine's own
 * representation: both ends are this program on this machine; strings as a length and their bytes), never as
 * a struct: padding and the bytes after a string's NUL are not data.
 */
#define _DEFAULT_SOURCE  /* prctl's constants, pread and pwrite with glibc */
#include "runpool.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fdio.h"
#include "scenario.h"
#include "sink.h"
#include "status.h"

/* ---- a growing byte buffer, and reading one back --------------------------------------------------- */

struct buf {
	char *p;
	size_t len, cap;
	bool oom;  /* a growth failed: the content is incomplete */
};

static void put(struct buf *b, const void *src, size_t n)
{
	if (b->oom || n == 0)  /* nothing (src may be NULL) */
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;
		while (cap < b->len + n)
			cap *= 2;
		if (!(p = realloc(b->p, cap))) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

static void put_u8(struct buf *b, unsigned char v) { put(b, &v, sizeof v); }
static void put_i32(struct buf *b, int32_t v) { put(b, &v, sizeof v); }
static void put_i64(struct buf *b, int64_t v) { put(b, &v, sizeof v); }
static void put_f64(struct buf *b, double v) { put(b, &v, sizeof v); }

/* A string: its length (-1 for NULL), its bytes and a NUL, so that a reader can point into the buffer. */
static void put_str(struct buf *b, const char *s)
{
	put_i32(b, s ? (int32_t)strlen(s) : -1);
	if (s)
		put(b, s, strlen(s) + 1);
}

/* A string of at most max bytes (a fixed array that need not hold a NUL). */
static void put_strn(struct buf *b, const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	put_i32(b, (int32_t)n);
	put(b, s, n);
	put_u8(b, 0);
}

struct rd {
	const char *p;
	size_t len, at;
	bool bad;  /* read past the end, or a bad length: every later read gives zeros */
};

static void get(struct rd *r, void *dst, size_t n)
{
	if (r->bad || n > r->len - r->at) {
		r->bad = true;
		memset(dst, 0, n);
		return;
	}
	memcpy(dst, r->p + r->at, n);
	r->at += n;
}

static unsigned char get_u8(struct rd *r) { unsigned char v; get(r, &v, sizeof v); return v; }
static int32_t get_i32(struct rd *r) { int32_t v; get(r, &v, sizeof v); return v; }
static int64_t get_i64(struct rd *r) { int64_t v; get(r, &v, sizeof v); return v; }
static double get_f64(struct rd *r) { double v; get(r, &v, sizeof v); return v; }

/* A string put_str wrote: a pointer into the buffer (NUL-terminated there), NULL for NULL. */
static const char *get_str(struct rd *r)
{
	int32_t n = get_i32(r);
	const char *s;

	if (r->bad || n < 0)
		return NULL;
	if ((size_t)n + 1 > r->len - r->at || r->p[r->at + (size_t)n] != '\0') {
		r->bad = true;
		return NULL;
	}
	s = r->p + r->at;
	r->at += (size_t)n + 1;
	return s;
}

/* A string into a fixed array of size bytes (cut short if longer). */
static void get_strn(struct rd *r, char *dst, size_t size)
{
	const char *s = get_str(r);

	snprintf(dst, size, "%s", s ? s : "");
}

/* A count of items that each take at least min_bytes: refused (0, bad) when the rest cannot hold them. */
static size_t get_count(struct rd *r, size_t min_bytes)
{
	int64_t n = get_i64(r);

	if (r->bad || n < 0 || (uint64_t)n > (r->len - r->at) / min_bytes) {
		r->bad = true;
		return 0;
	}
	return (size_t)n;
}

/* ---- recording what a run hands its sink ------------------------------------------------------------ */

enum op { OP_BEGIN = 1, OP_SAMPLES, OP_EVENTS, OP_CHARGES, OP_HOURS, OP_WARNINGS, OP_METRICS, OP_END };

struct recorder {
	struct buf b;
	struct diag *d;
};

static int rec_status(struct recorder *rc)
{
	return rc->b.oom ? diag_fail(rc->d, STATUS_ENOMEM, "out of memory (recording a run)") : STATUS_OK;
}

static int rec_begin(void *self, const struct sink_run_info *info)
{
	struct recorder *rc = self;

	put_u8(&rc->b, OP_BEGIN);
	put_str(&rc->b, info->started_at);
	put_str(&rc->b, info->version);
	return rec_status(rc);
}

static int rec_samples(void *self, const struct sink_sample *rows, size_t n)
{
	struct recorder *rc = self;

	put_u8(&rc->b, OP_SAMPLES);
	put_i64(&rc->b, (int64_t)n);
	for (size_t i = 0; i < n; i++) {
		const struct sink_sample *s = &rows[i];
		put_f64(&rc->b, s->t_s);
		put_f64(&rc->b, s->arrival_rate_per_s);
		put_f64(&rc->b, s->queue_len);
		put_f64(&rc->b, s->busy_slots);
		for (int k = 0; k < OPTION_KIND_COUNT; k++)
			put_f64(&rc->b, s->instances[k]);
		put_f64(&rc->b, s->instances_total);
		put_f64(&rc->b, s->cost_usd_per_h);
		put_f64(&rc->b, s->copies);
		put_f64(&rc->b, s->instances_jobs);
		put_i32(&rc->b, s->ntypes);
		for (int t = 0; t < s->ntypes && t < SINK_TYPES_MAX; t++) {
			put_f64(&rc->b, s->type_instances[t]);
			put_f64(&rc->b, s->type_busy_slots[t]);
		}
	}
	return rec_status(rc);
}

static int rec_events(void *self, const struct sink_event *rows, size_t n)
{
	struct recorder *rc = self;

	put_u8(&rc->b, OP_EVENTS);
	put_i64(&rc->b, (int64_t)n);
	for (size_t i = 0; i < n; i++) {
		put_f64(&rc->b, rows[i].t_s);
		put_str(&rc->b, rows[i].kind);
		put_str(&rc->b, rows[i].option);
		put_i32(&rc->b, rows[i].count);
		put_str(&rc->b, rows[i].detail);
	}
	return rec_status(rc);
}

static int rec_charges(void *self, const struct sink_charge *rows, size_t n)
{
	struct recorder *rc = self;

	put_u8(&rc->b, OP_CHARGES);
	put_i64(&rc->b, (int64_t)n);
	for (size_t i = 0; i < n; i++) {
		const struct sink_charge *c = &rows[i];
		put_i32(&rc->b, c->hour);
		put_f64(&rc->b, c->start_unix_s);
		put_f64(&rc->b, c->end_unix_s);
		put_str(&rc->b, c->option);
		put_str(&rc->b, c->kind);
		put_str(&rc->b, c->use);
		put_f64(&rc->b, c->quantity_h);
		put_f64(&rc->b, c->list_usd);
		put_f64(&rc->b, c->billed_usd);
		put_f64(&rc->b, c->effective_usd);
	}
	return rec_status(rc);
}

static int rec_hours(void *self, const struct sink_hour *rows, size_t n)
{
	struct recorder *rc = self;

	put_u8(&rc->b, OP_HOURS);
	put_i64(&rc->b, (int64_t)n);
	for (size_t i = 0; i < n; i++) {
		put_f64(&rc->b, rows[i].hour_start_s);
		put_i64(&rc->b, (int64_t)rows[i].requests);
		put_i64(&rc->b, (int64_t)rows[i].violations);
		put_f64(&rc->b, rows[i].latency_p50_s);
		put_f64(&rc->b, rows[i].latency_p95_s);
		put_f64(&rc->b, rows[i].latency_p99_s);
	}
	return rec_status(rc);
}

static void put_warnings(struct buf *b, const struct sink_warning *list, size_t n)
{
	put_i64(b, (int64_t)n);
	for (size_t i = 0; i < n; i++) {
		put_strn(b, list[i].code, sizeof list[i].code);
		put_strn(b, list[i].message, sizeof list[i].message);
	}
}

static void put_metrics(struct buf *b, const struct sink_metric *list, size_t n)
{
	put_i64(b, (int64_t)n);
	for (size_t i = 0; i < n; i++) {
		put_strn(b, list[i].name, sizeof list[i].name);
		put_f64(b, list[i].value);
	}
}

static int rec_warnings(void *self, const struct sink_warning *list, size_t n)
{
	struct recorder *rc = self;

	put_u8(&rc->b, OP_WARNINGS);
	put_warnings(&rc->b, list, n);
	return rec_status(rc);
}

static int rec_metrics(void *self, const struct sink_metric *list, size_t n)
{
	struct recorder *rc = self;

	put_u8(&rc->b, OP_METRICS);
	put_metrics(&rc->b, list, n);
	return rec_status(rc);
}

static int rec_end(void *self, int status, double wall_s)
{
	struct recorder *rc = self;

	put_u8(&rc->b, OP_END);
	put_i32(&rc->b, status);
	put_f64(&rc->b, wall_s);
	return rec_status(rc);
}

static const struct sink_ops recorder_ops = { rec_begin, rec_samples, rec_events, rec_charges, rec_hours,
	rec_warnings, rec_metrics, rec_end };

/* ---- replaying a recording into a sink ------------------------------------------------------------ */

/* Read n warnings (or metrics) into a new array (owned), NULL with r->bad or on no memory (*nomem). */
static struct sink_warning *get_warnings(struct rd *r, size_t *n, bool *nomem)
{
	struct sink_warning *w;

	*n = get_count(r, 2 * (sizeof(int32_t) + 1));
	if (r->bad || !(w = calloc(*n ? *n : 1, sizeof *w))) {
		*nomem = !r->bad;
		return NULL;
	}
	for (size_t i = 0; i < *n; i++) {
		get_strn(r, w[i].code, sizeof w[i].code);
		get_strn(r, w[i].message, sizeof w[i].message);
	}
	return w;
}

static struct sink_metric *get_metrics(struct rd *r, size_t *n, bool *nomem)
{
	struct sink_metric *m;

	*n = get_count(r, sizeof(int32_t) + 1 + sizeof(double));
	if (r->bad || !(m = calloc(*n ? *n : 1, sizeof *m))) {
		*nomem = !r->bad;
		return NULL;
	}
	for (size_t i = 0; i < *n; i++) {
		get_strn(r, m[i].name, sizeof m[i].name);
		m[i].value = get_f64(r);
	}
	return m;
}

/* One recorded call, made on sink (the begin() info's scenario is sc). Returns the call's status. */
static int replay_one(struct rd *r, enum op op, const struct scenario *sc, const struct sink *sink, bool *ended,
		      struct diag *d)
{
	const struct sink_ops *ops = sink->ops;
	bool nomem = false;
	size_t n;
	int rc = STATUS_OK;

	switch (op) {
	case OP_BEGIN: {
		struct sink_run_info info = { sc, NULL, NULL };
		info.started_at = get_str(r);
		info.version = get_str(r);
		if (!r->bad)
			rc = ops->begin(sink->self, &info);
		break;
	}
	case OP_SAMPLES: {
		struct sink_sample *s;
		n = get_count(r, sizeof(double) * (8 + OPTION_KIND_COUNT) + sizeof(int32_t));
		if (r->bad || !(s = calloc(n ? n : 1, sizeof *s))) {
			nomem = !r->bad;
			break;
		}
		for (size_t i = 0; i < n; i++) {
			s[i].t_s = get_f64(r);
			s[i].arrival_rate_per_s = get_f64(r);
			s[i].queue_len = get_f64(r);
			s[i].busy_slots = get_f64(r);
			for (int k = 0; k < OPTION_KIND_COUNT; k++)
				s[i].instances[k] = get_f64(r);
			s[i].instances_total = get_f64(r);
			s[i].cost_usd_per_h = get_f64(r);
			s[i].copies = get_f64(r);
			s[i].instances_jobs = get_f64(r);
			s[i].ntypes = get_i32(r);
			if (s[i].ntypes < 0 || s[i].ntypes > SINK_TYPES_MAX)
				r->bad = true;
			for (int t = 0; t < s[i].ntypes && !r->bad; t++) {
				s[i].type_instances[t] = get_f64(r);
				s[i].type_busy_slots[t] = get_f64(r);
			}
		}
		if (!r->bad)
			rc = ops->samples(sink->self, s, n);
		free(s);
		break;
	}
	case OP_EVENTS: {
		struct sink_event *e;
		n = get_count(r, sizeof(double) + 4 * sizeof(int32_t));
		if (r->bad || !(e = calloc(n ? n : 1, sizeof *e))) {
			nomem = !r->bad;
			break;
		}
		for (size_t i = 0; i < n; i++) {
			e[i].t_s = get_f64(r);
			e[i].kind = get_str(r);
			e[i].option = get_str(r);
			e[i].count = get_i32(r);
			e[i].detail = get_str(r);
		}
		if (!r->bad)
			rc = ops->events(sink->self, e, n);
		free(e);
		break;
	}
	case OP_CHARGES: {
		struct sink_charge *c;
		n = get_count(r, 6 * sizeof(double) + 4 * sizeof(int32_t));
		if (r->bad || !(c = calloc(n ? n : 1, sizeof *c))) {
			nomem = !r->bad;
			break;
		}
		for (size_t i = 0; i < n; i++) {
			c[i].hour = get_i32(r);
			c[i].start_unix_s = get_f64(r);
			c[i].end_unix_s = get_f64(r);
			c[i].option = get_str(r);
			c[i].kind = get_str(r);
			c[i].use = get_str(r);
			c[i].quantity_h = get_f64(r);
			c[i].list_usd = get_f64(r);
			c[i].billed_usd = get_f64(r);
			c[i].effective_usd = get_f64(r);
		}
		if (!r->bad)
			rc = ops->charges(sink->self, c, n);
		free(c);
		break;
	}
	case OP_HOURS: {
		struct sink_hour *h;
		n = get_count(r, 4 * sizeof(double) + 2 * sizeof(int64_t));
		if (r->bad || !(h = calloc(n ? n : 1, sizeof *h))) {
			nomem = !r->bad;
			break;
		}
		for (size_t i = 0; i < n; i++) {
			h[i].hour_start_s = get_f64(r);
			h[i].requests = (uint64_t)get_i64(r);
			h[i].violations = (uint64_t)get_i64(r);
			h[i].latency_p50_s = get_f64(r);
			h[i].latency_p95_s = get_f64(r);
			h[i].latency_p99_s = get_f64(r);
		}
		if (!r->bad)
			rc = ops->hours(sink->self, h, n);
		free(h);
		break;
	}
	case OP_WARNINGS: {
		struct sink_warning *w = get_warnings(r, &n, &nomem);
		if (w && !r->bad)
			rc = ops->warnings(sink->self, w, n);
		free(w);
		break;
	}
	case OP_METRICS: {
		struct sink_metric *m = get_metrics(r, &n, &nomem);
		if (m && !r->bad)
			rc = ops->metrics(sink->self, m, n);
		free(m);
		break;
	}
	case OP_END: {
		int status = get_i32(r);
		double wall_s = get_f64(r);
		if (!r->bad) {
			rc = ops->end(sink->self, status, wall_s);
			*ended = true;
		}
		break;
	}
	default:
		r->bad = true;
	}
	if (nomem)
		return diag_fail(d, STATUS_ENOMEM, "out of memory (storing a run)");
	if (r->bad)
		return diag_fail(d, STATUS_EINTERNAL, "a recorded run is damaged (at byte %zu of %zu)", r->at, r->len);
	return rc;
}

/* ---- the pool ---------------------------------------------------------------------------------------- */

struct runpool_record {
	char *mem;     /* the recording in memory (jobs = 1), or NULL: in the spool */
	size_t len;
	off_t at;      /* its place in the spool */
};

struct worker {
	pid_t pid;
	int task;      /* write end of its task pipe; -1 once closed */
	int result;    /* read end of its result pipe; -1 once closed */
	bool busy;     /* it has a run it has not answered */
	int64_t tag;   /* that run's tag */
};

struct runpool {
	const char *path;
	int jobs;
	bool record;
	struct worker *w;            /* jobs > 1: the workers */
	int nw;
	struct runpool_result *held; /* jobs = 1: the run made at submit, until runpool_next() (owned) */
	FILE *spool;                 /* jobs > 1 and recording: recordings not written yet */
	off_t spool_end;
	int spooled;                 /* recordings in the spool not yet consumed */
	bool pipe_ignored;           /* SIGPIPE is ignored while workers run; old_pipe was its handler */
	void (*old_pipe)(int);
};

/* A message: its length, then its bytes. */
static bool send_msg(int fd, const struct buf *b)
{
	int64_t n = (int64_t)b->len;

	return fdio_write_full(fd, &n, sizeof n) && fdio_write_full(fd, b->p, b->len);
}

/* Read one message into a new buffer (*out, owned). Returns 0, -1 at its end (EOF or error), -2 no memory. */
static int recv_msg(int fd, char **out, size_t *len)
{
	int64_t n;

	*out = NULL;
	if (!fdio_read_full(fd, &n, sizeof n) || n < 0)
		return -1;
	if (!(*out = malloc(n > 0 ? (size_t)n : 1)))
		return -2;
	if (!fdio_read_full(fd, *out, (size_t)n)) {
		free(*out);
		*out = NULL;
		return -1;
	}
	*len = (size_t)n;
	return 0;
}

/* Load and run the scenario with sets; fill *res and, recording, *rec (the recording's bytes). */
static void run_one(const char *path, const char *const *sets, int nsets, bool record, struct runpool_result *res,
		    struct buf *rec)
{
	struct scenario sc;
	struct diag d;
	struct recorder rc = { { 0 }, &d };
	struct sink sink = record ? (struct sink){ &recorder_ops, &rc } : sink_null;

	diag_clear(&d);
	res->status = scenario_load(&sc, path, sets, nsets, &d);
	res->load_failed = res->status != STATUS_OK;
	if (!res->load_failed)
		res->status = world_run_usage(&sc, &sink, GPUCAP_VERSION, &res->rep, &res->hours, &res->nhours, &d);
	scenario_fini(&sc);
	if (res->status != STATUS_OK) {
		snprintf(res->msg, sizeof res->msg, "%s", d.msg[0] ? d.msg : status_str(res->status));
		free(rc.b.p);
		return;
	}
	*rec = rc.b;
}

/* A result as a worker sends it: status, message, metrics, warnings, hours, recording. */
static void put_result(struct buf *b, const struct runpool_result *res, const struct buf *rec)
{
	put_i64(b, res->tag);
	put_i32(b, res->status);
	put_u8(b, res->load_failed);
	put_strn(b, res->msg, sizeof res->msg);
	if (res->status != STATUS_OK)
		return;
	put_metrics(b, res->rep.metrics, (size_t)res->rep.nmetrics);
	put_warnings(b, res->rep.warnings, (size_t)res->rep.nwarnings);
	put_i64(b, res->nhours);
	for (int h = 0; h < res->nhours; h++) {
		const struct savings_hour *sh = &res->hours[h];
		put_f64(b, sh->t0_h);
		put_f64(b, sh->len_h);
		for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
			put_f64(b, sh->usd[k]);
		put_i32(b, sh->ntypes);
		for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
			for (int t = 0; t < sh->ntypes && t < SAVINGS_TYPES_MAX; t++)
				put_f64(b, sh->type_usd[k][t]);
	}
	put_i64(b, (int64_t)rec->len);
	put(b, rec->p, rec->len);
}

/* A worker: take runs from `tasks` until it closes, answer each on `results`. Never returns. */
static void worker(const char *path, bool record, int tasks, int results, pid_t parent)
{
	char *msg;
	size_t len;

	prctl(PR_SET_PDEATHSIG, SIGKILL);  /* die with the search */
	if (getppid() != parent)           /* it died before prctl took effect */
		_exit(1);
	while (recv_msg(tasks, &msg, &len) == 0) {
		struct rd r = { msg, len, 0, false };
		struct runpool_result *res = calloc(1, sizeof *res);
		const char **sets = NULL;
		struct buf out = { 0 }, rec = { 0 };
		int nsets;
		bool sent;

		if (!res) {
			free(msg);
			_exit(1);
		}
		res->tag = get_i64(&r);
		nsets = get_i32(&r);
		if (nsets < 0 || nsets > (int)(len / sizeof(int32_t)) || !(sets = calloc((size_t)nsets + 1, sizeof *sets)))
			r.bad = true;
		for (int i = 0; i < nsets && !r.bad; i++)
			sets[i] = get_str(&r);
		if (r.bad) {
			res->status = STATUS_EINTERNAL;
			snprintf(res->msg, sizeof res->msg, "a worker process got a damaged task");
		} else {
			run_one(path, sets, nsets, record, res, &rec);
		}
		put_result(&out, res, &rec);
		sent = !out.oom && send_msg(results, &out);
		free(out.p);
		free(rec.p);
		free(res->hours);
		free(res);
		free(sets);
		free(msg);
		if (!sent)
			_exit(1);
	}
	_exit(0);
}

/* Fork p->jobs workers (as many as can be made). */
static int start_workers(struct runpool *p, struct diag *d)
{
	pid_t parent = getpid();
	const char *path = p->path;
	bool record = p->record;

	if (record && !(p->spool = tmpfile()))
		return diag_fail(d, STATUS_EINTERNAL, "cannot make a temporary file for the runs' results: %s",
				 strerror(errno));
	if (!(p->w = calloc((size_t)p->jobs, sizeof *p->w)))
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	p->old_pipe = signal(SIGPIPE, SIG_IGN);  /* a worker that died: writing its pipe fails instead */
	p->pipe_ignored = true;
	fflush(NULL);                             /* nothing buffered is written twice */
	for (int i = 0; i < p->jobs; i++) {
		int tp[2], rp[2];
		pid_t pid;
		if (pipe(tp))
			break;
		if (pipe(rp)) {
			close(tp[0]);
			close(tp[1]);
			break;
		}
		if ((pid = fork()) == 0) {
			close(tp[1]);
			close(rp[0]);
			for (int j = 0; j < p->nw; j++) {
				close(p->w[j].task);
				close(p->w[j].result);
			}
			if (p->spool)
				fclose(p->spool);
			free(p->w);
			free(p);
			worker(path, record, tp[0], rp[1], parent);
		}
		close(tp[0]);
		close(rp[1]);
		if (pid < 0) {
			close(tp[1]);
			close(rp[0]);
			break;
		}
		p->w[p->nw++] = (struct worker){ pid, tp[1], rp[0], false, 0 };
	}
	if (p->nw == 0)
		return diag_fail(d, STATUS_EINTERNAL, "cannot start a worker process: %s", strerror(errno));
	return STATUS_OK;
}

int runpool_open(struct runpool **out, const char *path, int jobs, bool record, struct diag *d)
{
	struct runpool *p = calloc(1, sizeof *p);
	int rc;

	*out = NULL;
	if (!p)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	p->path = path;
	p->jobs = jobs < 1 ? 1 : jobs;
	p->record = record;
	if (p->jobs > 1 && (rc = start_workers(p, d))) {
		runpool_close(p);
		return rc;
	}
	*out = p;
	return STATUS_OK;
}

int runpool_idle(const struct runpool *p)
{
	int n = 0;

	if (p->jobs == 1)
		return p->held ? 0 : 1;
	for (int i = 0; i < p->nw; i++)
		n += p->w[i].task >= 0 && !p->w[i].busy;
	return n;
}

int runpool_busy(const struct runpool *p)
{
	int n = 0;

	if (p->jobs == 1)
		return p->held ? 1 : 0;
	for (int i = 0; i < p->nw; i++)
		n += p->w[i].busy;
	return n;
}

int runpool_submit(struct runpool *p, int64_t tag, const char *const *sets, int nsets, struct diag *d)
{
	struct buf b = { 0 };

	if (p->jobs == 1) {
		struct buf rec = { 0 };
		if (p->held)
			return diag_fail(d, STATUS_EINTERNAL, "runpool: a run is already waiting");
		if (!(p->held = calloc(1, sizeof *p->held)))
			return diag_fail(d, STATUS_ENOMEM, "out of memory");
		p->held->tag = tag;
		run_one(p->path, sets, nsets, p->record, p->held, &rec);
		if (p->held->status == STATUS_OK && p->record) {
			if (rec.oom || !(p->held->record = calloc(1, sizeof *p->held->record))) {
				free(rec.p);
				p->held->status = diag_fail(d, STATUS_ENOMEM, "out of memory");
				snprintf(p->held->msg, sizeof p->held->msg, "%s", d->msg);
				diag_clear(d);
			} else {
				p->held->record->mem = rec.p;
				p->held->record->len = rec.len;
			}
		} else {
			free(rec.p);
		}
		return STATUS_OK;
	}
	for (int i = 0; i < p->nw; i++) {
		struct worker *w = &p->w[i];
		if (w->task < 0 || w->busy)
			continue;
		put_i64(&b, tag);
		put_i32(&b, nsets);
		for (int s = 0; s < nsets; s++)
			put_str(&b, sets[s]);
		if (b.oom) {
			free(b.p);
			return diag_fail(d, STATUS_ENOMEM, "out of memory");
		}
		w->busy = true;
		w->tag = tag;
		if (!send_msg(w->task, &b)) {  /* it is gone: its run comes back as a failure from runpool_next() */
			close(w->task);
			w->task = -1;
		}
		free(b.p);
		return STATUS_OK;
	}
	return diag_fail(d, STATUS_EINTERNAL, "runpool: no idle worker");
}

/* Decode a worker's answer into *res; the recording goes to the spool. */
static int take_result(struct runpool *p, const char *msg, size_t len, struct runpool_result *res, struct diag *d)
{
	struct rd r = { msg, len, 0, false };
	size_t n;
	bool nomem = false;
	struct sink_metric *m;
	struct sink_warning *w;
	int64_t reclen;

	res->tag = get_i64(&r);
	res->status = get_i32(&r);
	res->load_failed = get_u8(&r);
	get_strn(&r, res->msg, sizeof res->msg);
	if (r.bad)
		goto bad;
	if (res->status != STATUS_OK)
		return STATUS_OK;
	if (!(m = get_metrics(&r, &n, &nomem)))
		goto fail;
	res->rep.nmetrics = n < METER_MAX_METRICS ? (int)n : METER_MAX_METRICS;
	memcpy(res->rep.metrics, m, sizeof *m * (size_t)res->rep.nmetrics);
	free(m);
	if (!(w = get_warnings(&r, &n, &nomem)))
		goto fail;
	res->rep.nwarnings = n < WARN_MAX ? (int)n : WARN_MAX;
	memcpy(res->rep.warnings, w, sizeof *w * (size_t)res->rep.nwarnings);
	free(w);
	n = get_count(&r, (2 + SAVINGS_USAGE_COUNT) * sizeof(double) + sizeof(int32_t));
	if (r.bad || !(res->hours = calloc(n ? n : 1, sizeof *res->hours))) {
		nomem = !r.bad;
		goto fail;
	}
	res->nhours = (int)n;
	for (size_t h = 0; h < n && !r.bad; h++) {
		struct savings_hour *sh = &res->hours[h];
		sh->t0_h = get_f64(&r);  /* where its part starts: a commitment's term is billed from it */
		sh->len_h = get_f64(&r);
		for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
			sh->usd[k] = get_f64(&r);
		sh->ntypes = get_i32(&r);
		if (sh->ntypes < 0 || sh->ntypes > SAVINGS_TYPES_MAX)
			r.bad = true;
		for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
			for (int t = 0; t < sh->ntypes && !r.bad; t++)
				sh->type_usd[k][t] = get_f64(&r);
	}
	reclen = get_i64(&r);
	if (r.bad || reclen < 0 || (uint64_t)reclen != len - r.at)
		goto bad;
	if (!p->record)
		return STATUS_OK;
	if (!(res->record = calloc(1, sizeof *res->record)))
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	res->record->len = (size_t)reclen;
	res->record->at = p->spool_end;
	if (reclen > 0 && pwrite(fileno(p->spool), msg + r.at, (size_t)reclen, p->spool_end) != (ssize_t)reclen) {
		free(res->record);
		res->record = NULL;
		return diag_fail(d, STATUS_EINTERNAL, "cannot write the runs' temporary file: %s", strerror(errno));
	}
	p->spool_end += (off_t)reclen;
	p->spooled++;
	return STATUS_OK;
fail:
	if (nomem)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
bad:
	return diag_fail(d, STATUS_EINTERNAL, "a worker process sent a damaged result");
}

int runpool_next(struct runpool *p, struct runpool_result *res, struct diag *d)
{
	struct pollfd *fds;
	int *which, n = 0, rc;

	memset(res, 0, sizeof *res);
	if (p->jobs == 1) {
		if (!p->held)
			return diag_fail(d, STATUS_EINTERNAL, "runpool: no run submitted");
		*res = *p->held;
		free(p->held);
		p->held = NULL;
		return STATUS_OK;
	}
	if (!(fds = calloc((size_t)p->nw, sizeof *fds)) || !(which = calloc((size_t)p->nw, sizeof *which))) {
		free(fds);
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	}
	for (int i = 0; i < p->nw; i++)
		if (p->w[i].busy) {
			fds[n] = (struct pollfd){ p->w[i].result, POLLIN, 0 };
			which[n++] = i;
		}
	rc = n ? STATUS_OK : diag_fail(d, STATUS_EINTERNAL, "runpool: no run submitted");
	while (rc == STATUS_OK) {
		int k = poll(fds, (nfds_t)n, -1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			rc = diag_fail(d, STATUS_EINTERNAL, "poll: %s", strerror(errno));
			break;
		}
		for (int j = 0; j < n; j++) {
			struct worker *w = &p->w[which[j]];
			char *msg;
			size_t len;
			int got;
			if (!fds[j].revents)
				continue;
			w->busy = false;
			got = recv_msg(w->result, &msg, &len);
			if (got == -2) {
				rc = diag_fail(d, STATUS_ENOMEM, "out of memory");
			} else if (got == -1) {  /* it ended without answering: its run failed */
				int status = 0;
				close(w->result);
				w->result = -1;
				if (w->task >= 0)
					close(w->task);
				w->task = -1;
				waitpid(w->pid, &status, 0);
				res->tag = w->tag;
				res->status = STATUS_EINTERNAL;
				snprintf(res->msg, sizeof res->msg, "worker process %d ended without answering (%s %d)",
					 (int)w->pid, WIFSIGNALED(status) ? "signal" : "exit status",
					 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
			} else {
				rc = take_result(p, msg, len, res, d);
				free(msg);
			}
			goto out;
		}
	}
out:
	free(fds);
	free(which);
	return rc;
}

/* The bytes of a recording (*buf owned by the caller when it is not rec->mem). */
static int record_bytes(struct runpool *p, const struct runpool_record *rec, char **buf, struct diag *d)
{
	if (rec->mem) {
		*buf = rec->mem;
		return STATUS_OK;
	}
	if (!(*buf = malloc(rec->len ? rec->len : 1)))
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	if (rec->len && pread(fileno(p->spool), *buf, rec->len, rec->at) != (ssize_t)rec->len) {
		free(*buf);
		*buf = NULL;
		return diag_fail(d, STATUS_EINTERNAL, "cannot read the runs' temporary file: %s", strerror(errno));
	}
	return STATUS_OK;
}

/* Free a recording; the spool is emptied once it holds none. */
static void record_free(struct runpool *p, struct runpool_record *rec)
{
	if (!rec)
		return;
	if (rec->mem)
		free(rec->mem);
	else if (--p->spooled == 0 && p->spool) {
		p->spool_end = 0;
		if (ftruncate(fileno(p->spool), 0))
			p->spool_end = 0;  /* it stays as large as it grew; later recordings overwrite it */
	}
	free(rec);
}

int runpool_store(struct runpool *p, struct runpool_result *res, const char *const *sets, int nsets,
		  struct store *st, const char *const *labels, int nlabels, int64_t *run_id, struct diag *d)
{
	struct scenario sc;
	struct sink sink;
	char *bytes = NULL;
	bool ended = false;
	int rc;

	*run_id = 0;
	if (!res->record) {
		rc = diag_fail(d, STATUS_EINTERNAL, "runpool: no recording of the run to store");
		goto out;
	}
	if ((rc = record_bytes(p, res->record, &bytes, d)))
		goto out;
	if ((rc = scenario_load(&sc, p->path, sets, nsets, d)) == STATUS_OK) {
		struct rd r = { bytes, res->record->len, 0, false };
		store_set_labels(st, labels, nlabels);
		sink = store_sink(st, d);
		while (rc == STATUS_OK && !ended && r.at < r.len)
			rc = replay_one(&r, (enum op)get_u8(&r), &sc, &sink, &ended, d);
		if (rc == STATUS_OK && !ended)
			rc = diag_fail(d, STATUS_EINTERNAL, "a recorded run has no end");
		if (rc != STATUS_OK && !ended)  /* drop what was staged (end of a failure writes no message) */
			sink.ops->end(sink.self, rc, 0);
		if (rc == STATUS_OK)
			*run_id = store_last_run_id(st);
	}
	scenario_fini(&sc);
out:
	if (res->record && bytes != res->record->mem)
		free(bytes);
	record_free(p, res->record);
	res->record = NULL;
	return rc;
}

void runpool_result_fini(struct runpool *p, struct runpool_result *res)
{
	free(res->hours);
	res->hours = NULL;
	record_free(p, res->record);
	res->record = NULL;
}

void runpool_close(struct runpool *p)
{
	if (!p)
		return;
	if (p->held) {
		runpool_result_fini(p, p->held);
		free(p->held);
	}
	for (int i = 0; i < p->nw; i++) {
		struct worker *w = &p->w[i];
		if (w->busy)  /* a run nobody waits for any more */
			kill(w->pid, SIGKILL);
		if (w->task >= 0)
			close(w->task);
		if (w->result >= 0)
			close(w->result);
		waitpid(w->pid, NULL, 0);
	}
	if (p->pipe_ignored)
		signal(SIGPIPE, p->old_pipe);
	if (p->spool)
		fclose(p->spool);
	free(p->w);
	free(p);
}
