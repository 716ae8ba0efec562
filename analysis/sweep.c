/*
 * sweep: the sweep runner (see sweep.h).
 *
 * The parent process never holds a database connection while workers run: it opens the store to register
 * the sweep and read which runs are done, closes it, then forks (SQLite connections must not cross a fork).
 * Work is handed out one run index at a time over a pipe per worker; reports come back over one shared pipe
 * as fixed-size records smaller than PIPE_BUF, so writes from several workers never interleave.
 */
#define _DEFAULT_SOURCE  /* prctl's constants with glibc */
#include "sweep.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fdio.h"
#include "scenario.h"
#include "status.h"
#include "store.h"
#include "store_limit.h"
#include "world.h"

#define REPORT_MSG_MAX DIAG_MSG_MAX  /* bytes of a failure message carried to the parent (< PIPE_BUF in all) */

/* What became of a run a worker was given. */
enum outcome {
	OUT_FAILED,  /* run and failed (recorded as 'failed') */
	OUT_OK,      /* run, status 'ok' */
	OUT_OTHER,   /* left to another process: stored 'ok' by it, or claimed by it (msg: "run by HOST:PID") */
	OUT_FULL,    /* the database's disk is full: the sweep stops (msg: the store's message) */
};

/* One finished run, worker to parent. */
struct report {
	int32_t worker;              /* which worker */
	int32_t index;               /* run index */
	int32_t ok;                  /* enum outcome */
	char msg[REPORT_MSG_MAX];    /* the failure, "" when ok */
};

/* What every run of the sweep shares, worked out once before the workers start. */
struct plan {
	const struct sweepfile *sf;  /* borrowed */
	struct scenario base;        /* the base scenario with `set`: its text, name and seed */
	int nruns;                   /* npoints x nreps */
	int64_t sweep_id;            /* from the store */
	int64_t run_id_base;         /* from the store */
	const char *name_given;      /* sweep_opts.name: the sweep stored under this name, NULL: the file's */
	bool force;                  /* sweep_opts.force: no limit on what a run adds (store_limit.h) */
	bool take_remote;            /* sweep_opts.resume: claims of another host's processes are taken over */
	struct store_claimant me;    /* this sweep process, as it claims runs (me.arg = the plan) */
	char host[256];              /* me.host */
	char pid_start[32];          /* me.pid_start */
	char running[96];            /* "HOST:PID" of another live process running this sweep, "" if none */
};

/* The overrides of run `index` (sweep.h): sets[] points into buf; returns the count. */
static int run_sets(const struct plan *pl, int index, const char **sets, char *buf, size_t size, uint64_t *seed)
{
	const struct sweepfile *sf = pl->sf;
	int p = index / sf->nreps, r = index % sf->nreps, n = 0;
	size_t o = 0;

	for (int i = 0; i < sf->nsets; i++)
		sets[n++] = sf->sets[i];
	for (int k = 0; k < sf->nparams; k++) {
		int w = snprintf(buf + o, size - o, "%s=%s", sf->params[k], sf->values[(size_t)p * sf->nparams + k]);
		sets[n++] = buf + o;
		o += (size_t)w + 1 < size - o ? (size_t)w + 1 : size - o - 1;
	}
	*seed = pl->base.seed + (uint64_t)r;
	snprintf(buf + o, size - o, "seed=%" PRIu64, *seed);
	sets[n++] = buf + o;
	return n;
}

/* The overrides joined as runs.overrides stores them (one per line). */
static void join(const char *const *sets, int n, char *out, size_t size)
{
	size_t o = 0;

	out[0] = '\0';
	for (int i = 0; i < n && o < size; i++)
		o += (size_t)snprintf(out + o, size - o, "%s%s", i ? "\n" : "", sets[i]);
}

#define SETS_BUF 16384  /* bytes of one run's swept "KEY=VALUE" texts and seed */
#define SETS_MAX (SWEEPFILE_SETS_MAX + SWEEPFILE_PARAMS_MAX + 1)

/* ---- one run, in a worker ------------------------------------------------------------------------ */

/* Append src to the NUL-terminated dst of size bytes, cut short if it does not fit. */
static void append(char *dst, size_t size, const char *src)
{
	size_t o = strlen(dst), n = strlen(src);

	if (n > size - 1 - o)
		n = size - 1 - o;
	memcpy(dst + o, src, n);
	dst[o + n] = '\0';
}

/* A worker's buffers, allocated once. */
struct work {
	struct world_report rep;          /* the run's metrics */
	char sets[SETS_BUF];              /* the swept "KEY=VALUE" texts */
	char joined[SETS_BUF + 16384];    /* every override, one per line */
};

/* Run `index` and write it (or its failure) through st; msg receives the failure. Returns 1 if ok. */
static int run_one(const struct plan *pl, struct store *st, struct work *wk, int index, char *msg, size_t size)
{
	const struct sweepfile *sf = pl->sf;
	const char *sets[SETS_MAX];
	char *buf = wk->sets, *joined = wk->joined;
	struct store_run_tag tag = { pl->sweep_id, index / sf->nreps, index % sf->nreps, pl->run_id_base + index };
	struct scenario sc;
	struct sink sink;
	struct diag d, d2;
	uint64_t seed;
	int n = run_sets(pl, index, sets, buf, sizeof wk->sets, &seed), rc;

	rc = scenario_load(&sc, sf->base, sets, n, &d);
	if (rc == STATUS_OK)
		rc = store_check_run_size(&sc, pl->force, &d);
	if (rc == STATUS_OK) {
		store_set_tag(st, &tag);
		sink = store_sink(st, &d);
		rc = world_run(&sc, &sink, GPUCAP_VERSION, &wk->rep, &d);
	}
	scenario_fini(&sc);
	if (rc == STATUS_OK)
		return 1;
	msg[0] = '\0';
	append(msg, size, d.msg[0] ? d.msg : status_str(rc));
	join(sets, n, joined, sizeof wk->joined);
	if (store_record_failure(st, &tag, pl->base.name, sf->base, pl->base.text, joined, seed, msg, &d2)) {
		append(msg, size, " (and it could not be recorded: ");
		append(msg, size, d2.msg);
		append(msg, size, ")");
	}
	return 0;
}

/*
 * Claim run `index` (store_claim_run), then run it if it is this process's: the outcome, with its message
 * in msg. A store that found its disk full (the claim, the run or its failure record) stops the sweep.
 */
static int claim_and_run(const struct plan *pl, struct store *st, struct work *wk, int index, char *msg,
			 size_t size)
{
	enum store_claim claim;
	struct diag d;
	char who[96];
	int ok;

	msg[0] = '\0';
	if (store_claim_run(st, &pl->me, pl->sweep_id, pl->run_id_base + index, &claim, who, &d)) {
		append(msg, size, d.msg);
		return store_disk_full(st) ? OUT_FULL : OUT_FAILED;
	}
	if (claim != STORE_CLAIMED) {
		append(msg, size, claim == STORE_CLAIM_DONE ? "stored by another process" : "run by ");
		if (claim == STORE_CLAIM_TAKEN)
			append(msg, size, who);
		return OUT_OTHER;
	}
	ok = run_one(pl, st, wk, index, msg, size);
	return ok ? OUT_OK : store_disk_full(st) ? OUT_FULL : OUT_FAILED;
}

/* A worker: take indices from `tasks` until it closes, report each to `reports`. Never returns. */
static void worker(const struct plan *pl, const char *db, int id, int tasks, int reports, pid_t parent)
{
	struct work *wk = calloc(1, sizeof *wk);
	struct store *st = NULL;
	struct report r;
	struct diag d;
	int32_t index;
	int rc;

	prctl(PR_SET_PDEATHSIG, SIGKILL);  /* die with the sweep */
	if (getppid() != parent)           /* it died before prctl took effect */
		_exit(1);
	rc = wk ? store_open(&st, db, &d) : diag_fail(&d, STATUS_ENOMEM, "out of memory");
	if (rc == STATUS_OK && pl->force)
		store_set_size_limit(st, 0);
	while (fdio_read_full(tasks, &index, sizeof index)) {
		memset(&r, 0, sizeof r);
		r.worker = id;
		r.index = index;
		if (rc == STATUS_OK)
			r.ok = claim_and_run(pl, st, wk, index, r.msg, sizeof r.msg);
		else
			append(r.msg, sizeof r.msg, d.msg);
		if (write(reports, &r, sizeof r) != (ssize_t)sizeof r)
			break;
	}
	store_close(st);
	free(wk);
	_exit(0);
}

/* ---- a resume after an input file changed ----------------------------------------------------- */

#define REASONS_MAX 16  /* reasons told apart in the messages; runs for more are counted in the last */

/* Why stored runs are run again: one file that changed (or was not recorded), and the runs it concerns. */
struct reason {
	char what[SCENARIO_PATH_MAX + 64];  /* "FILE changed", ... */
	int64_t first;                      /* the first run concerned */
	int n;                              /* runs concerned */
};

/* What the check of a resume keeps: the reasons, the runs to delete, the files hashed so far. */
struct stale {
	struct reason reason[REASONS_MAX];
	int nreasons;
	int64_t *run_ids;   /* the stale runs, owned */
	int nstale;
	char (*path)[SCENARIO_PATH_MAX];  /* files hashed, owned: each file is read once per check */
	struct store_input *in;           /* their hashes, owned */
	int nfiles;
};

static void reason_add(struct stale *s, const char *what, int64_t run_id)
{
	int r;

	for (r = 0; r < s->nreasons; r++)
		if (strcmp(s->reason[r].what, what) == 0)
			break;
	if (r == s->nreasons) {
		if (s->nreasons == REASONS_MAX)
			r = REASONS_MAX - 1;
		else {
			snprintf(s->reason[r].what, sizeof s->reason[r].what, "%s", what);
			s->reason[r].first = run_id;
			s->nreasons++;
		}
	}
	s->reason[r].n++;
	s->run_ids[s->nstale++] = run_id;
}

/* The hash of one file, read at most once per check. */
static int cached_hash(struct stale *s, const char *path, struct store_input *out, struct diag *d)
{
	void *grown;
	int rc;

	for (int i = 0; i < s->nfiles; i++)
		if (strcmp(s->path[i], path) == 0) {
			*out = s->in[i];
			return STATUS_OK;
		}
	if ((rc = store_file_hash(path, out, d)))
		return rc;
	if (!(grown = realloc(s->path, (size_t)(s->nfiles + 1) * sizeof *s->path)))
		return STATUS_OK;  /* not cached: read again next time */
	s->path = grown;
	if (!(grown = realloc(s->in, (size_t)(s->nfiles + 1) * sizeof *s->in)))
		return STATUS_OK;
	s->in = grown;
	snprintf(s->path[s->nfiles], SCENARIO_PATH_MAX, "%s", path);
	s->in[s->nfiles++] = *out;
	return STATUS_OK;
}

/* Why stored run run_id, whose key differs, is stale: the first file whose recorded hash differs. */
static int stale_reason(struct store *st, int64_t run_id, const struct scenario *sc, const struct store_input *in,
			char *what, size_t size, struct diag *d)
{
	char hash[33];
	int rc;

	snprintf(what, size, "the files the scenario names changed");
	for (int f = 0; f < sc->inputs.n; f++) {
		if ((rc = store_run_input_hash(st, run_id, sc->inputs.path[f], hash, d)))
			return rc;
		if (!hash[0]) {
			snprintf(what, size, "stored without the content of %s (by a gpucap before schema version 10)",
				 sc->inputs.path[f]);
			return STATUS_OK;
		}
		if (strcmp(hash, in[f].hash) != 0) {
			snprintf(what, size, "%s changed", sc->inputs.path[f]);
			return STATUS_OK;
		}
	}
	return STATUS_OK;
}

/* Check the stored runs of point p against the files its scenario names now. */
static int stale_point(const struct plan *pl, struct store *st, struct work *wk, int p, unsigned char *done,
		       const char (*keys)[33], struct stale *s, struct diag *d)
{
	const struct sweepfile *sf = pl->sf;
	const char *sets[SETS_MAX];
	struct store_input *in = NULL;
	struct scenario sc;
	struct diag pd;
	char key[33], what[SCENARIO_PATH_MAX + 64];
	uint64_t seed;
	int n = run_sets(pl, p * sf->nreps, sets, wk->sets, sizeof wk->sets, &seed), rc = STATUS_OK;

	if (scenario_load(&sc, sf->base, sets, n, &pd) != STATUS_OK) {
		/* the point no longer loads (a file it names is gone, say): its runs are run again, and fail */
		snprintf(what, sizeof what, "point %d no longer loads (%s)", p, pd.msg);
		for (int r = 0; r < sf->nreps; r++)
			if (done[p * sf->nreps + r]) {
				done[p * sf->nreps + r] = 0;
				reason_add(s, what, pl->run_id_base + p * sf->nreps + r);
			}
		return STATUS_OK;
	}
	if (sc.inputs.n && !(in = calloc((size_t)sc.inputs.n, sizeof *in)))
		rc = diag_fail(d, STATUS_ENOMEM, "out of memory");
	for (int f = 0; f < sc.inputs.n && rc == STATUS_OK; f++)
		rc = cached_hash(s, sc.inputs.path[f], &in[f], d);
	for (int r = 0; r < sf->nreps && rc == STATUS_OK; r++) {
		int i = p * sf->nreps + r;
		if (!done[i])
			continue;
		n = run_sets(pl, i, sets, wk->sets, sizeof wk->sets, &seed);
		join(sets, n, wk->joined, sizeof wk->joined);
		store_run_key_inputs(sc.text, wk->joined, seed, in, sc.inputs.n, key);
		if (strcmp(key, keys[i]) == 0)
			continue;
		rc = stale_reason(st, pl->run_id_base + i, &sc, in, what, sizeof what, d);
		if (rc == STATUS_OK) {
			done[i] = 0;
			reason_add(s, what, pl->run_id_base + i);
		}
	}
	free(in);
	scenario_fini(&sc);
	return rc;
}

/* Say why the stale runs are run again, one line per reason. */
static void stale_tell(const struct plan *pl, const struct stale *s, FILE *err)
{
	for (int r = 0; r < s->nreasons && err; r++) {
		const struct reason *re = &s->reason[r];
		/* "FILE changed" reads "since run N was stored"; any other reason is told after the runs */
		bool since = strlen(re->what) > 8 && strcmp(re->what + strlen(re->what) - 8, " changed") == 0;
		if (since)
			fprintf(err, "gpucap: sweep %s: %s since run %lld was stored", pl->sf->name, re->what,
				(long long)re->first);
		else
			fprintf(err, "gpucap: sweep %s: run %lld", pl->sf->name, (long long)re->first);
		if (re->n > 1)
			fprintf(err, " (and %d more run%s)", re->n - 1, re->n > 2 ? "s" : "");
		if (!since)
			fprintf(err, ": %s", re->what);
		fprintf(err, ": running %s again (the stored %s replaced)\n", re->n > 1 ? "them" : "it",
			re->n > 1 ? "runs are" : "run is");
	}
}

/*
 * On --resume: the runs stored as 'ok' whose run key differs from the one their point's scenario has now
 * (a trace, a jobs CSV, a price trace it names changed, or the run was stored before files were hashed)
 * are deleted, in one transaction, and marked not done, so that a sweep point never holds results of two
 * versions of an input; each reason is told on err.
 */
static int stale_check(const struct plan *pl, struct store *st, unsigned char *done, FILE *err, struct diag *d)
{
	const struct sweepfile *sf = pl->sf;
	char (*keys)[33] = malloc((size_t)pl->nruns * sizeof *keys);
	struct work *wk = malloc(sizeof *wk);
	struct stale s = { .nreasons = 0 };
	int rc;

	s.run_ids = malloc((size_t)pl->nruns * sizeof *s.run_ids);
	if (!keys || !wk || !s.run_ids) {
		rc = diag_fail(d, STATUS_ENOMEM, "out of memory for %d run keys", pl->nruns);
		goto out_free;
	}
	rc = store_sweep_keys(st, pl->sweep_id, pl->nruns, keys, d);
	for (int p = 0; p < sf->npoints && rc == STATUS_OK; p++) {
		bool any = false;
		for (int r = 0; r < sf->nreps; r++)
			any |= done[p * sf->nreps + r] != 0;
		if (any)
			rc = stale_point(pl, st, wk, p, done, (const char (*)[33])keys, &s, d);
	}
	if (rc == STATUS_OK && s.nstale) {
		stale_tell(pl, &s, err);
		rc = store_delete_runs(st, s.run_ids, s.nstale, d);
	}
out_free:
	free(s.path);
	free(s.in);
	free(s.run_ids);
	free(wk);
	free(keys);
	return rc;
}

/* ---- who runs what: claims ------------------------------------------------------------------------ */

/*
 * The start time of process pid (field 22 of /proc/PID/stat, clock ticks after boot) into out; false when
 * there is no such process, or it is a zombie (it died, its parent has not waited for it yet).
 */
static bool proc_start(long pid, char out[32])
{
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "r")))
		return false;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (!(p = strrchr(buf, ')')) || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return false;
	for (int field = 2; field < 22 && p; field++)  /* ")" ends field 2, the name */
		p = strchr(p + 1, ' ');
	if (!p)
		return false;
	snprintf(out, 32, "%.*s", (int)strcspn(p + 1, " "), p + 1);
	return true;
}

/*
 * A claim is live when its process still runs: on this host, the process of that pid with the start time
 * recorded (another process given the pid later is not it); on another host, which cannot be asked, always,
 * unless this is a --resume (the claims of a killed shard on another machine are then taken over).
 */
static bool claim_alive(const struct store_claimant *me, const char *host, int64_t pid, const char *pid_start)
{
	const struct plan *pl = me->arg;
	char now[32];

	if (strcmp(host, me->host) != 0)
		return !pl->take_remote;
	if (pid_start[0])
		return proc_start((long)pid, now) && strcmp(now, pid_start) == 0;
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* This sweep process as a claimant: host, pid, start time. */
static void claimant_init(struct plan *pl, bool resume)
{
	pl->take_remote = resume;
	if (gethostname(pl->host, sizeof pl->host) != 0)
		snprintf(pl->host, sizeof pl->host, "localhost");
	pl->host[sizeof pl->host - 1] = '\0';
	if (!proc_start((long)getpid(), pl->pid_start))
		pl->pid_start[0] = '\0';
	pl->me.host = pl->host;
	pl->me.pid = (int64_t)getpid();
	pl->me.pid_start = pl->pid_start;
	pl->me.alive = claim_alive;
	pl->me.arg = pl;
}

/* ---- the parent ---------------------------------------------------------------------------------- */

/* Load the base scenario with `set` (its text, name and seed are every run's). */
static int load_base(struct plan *pl, const struct sweepfile *sf, struct diag *d)
{
	memset(pl, 0, sizeof *pl);
	pl->sf = sf;
	pl->nruns = sweepfile_runs(sf);
	return scenario_load(&pl->base, sf->base, (const char *const *)sf->sets, sf->nsets, d);
}

/* The sweep key: the run keys of every run in index order, then the file text (store_sweep_key). */
static int sweep_key(const struct plan *pl, char out[33], struct diag *d)
{
	char (*keys)[33] = malloc((size_t)pl->nruns * sizeof *keys);
	const char **ptrs = malloc((size_t)pl->nruns * sizeof *ptrs);
	struct work *wk = malloc(sizeof *wk);
	const char *sets[SETS_MAX];
	uint64_t seed;
	int rc = STATUS_OK;

	if (!keys || !ptrs || !wk) {
		rc = diag_fail(d, STATUS_ENOMEM, "out of memory for %d run keys", pl->nruns);
		goto out_free;
	}
	for (int i = 0; i < pl->nruns; i++) {
		int n = run_sets(pl, i, sets, wk->sets, sizeof wk->sets, &seed);
		join(sets, n, wk->joined, sizeof wk->joined);
		store_run_key(pl->base.text, wk->joined, seed, keys[i]);
		ptrs[i] = keys[i];
	}
	store_sweep_key(ptrs, pl->nruns, pl->sf->text, pl->name_given, out);
out_free:
	free(wk);
	free(ptrs);
	free(keys);
	return rc;
}

/*
 * Register the sweep and read which runs are done (*done: nruns flags, returns owned); on a resume, the runs
 * whose inputs changed are deleted and not done (stale_check).
 */
static int register_sweep(struct plan *pl, const struct sweep_opts *o, unsigned char **done, struct diag *d)
{
	const struct sweepfile *sf = pl->sf;
	struct store_sweep sw = { sf->name, sf->path, sf->text, (const char *const *)sf->params, sf->nparams,
				  sf->npoints, sf->nreps, (const char *const *)sf->values, NULL };
	struct store *st = NULL;
	char key[33];
	int rc;

	if ((rc = sweep_key(pl, key, d)))
		return rc;
	sw.sweep_key = key;
	if (!(*done = calloc((size_t)pl->nruns, 1)))
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	if ((rc = store_open(&st, o->db, d)) == STATUS_OK &&
	    (rc = store_sweep_register(st, &sw, &pl->sweep_id, &pl->run_id_base, d)) == STATUS_OK)
		rc = store_sweep_done(st, pl->sweep_id, pl->nruns, *done, d);
	if (rc == STATUS_OK && o->resume)
		rc = stale_check(pl, st, *done, o->err, d);
	else if (rc == STATUS_OK)
		rc = store_sweep_claimed(st, &pl->me, pl->sweep_id, pl->running, d);
	store_close(st);
	if (rc) {
		free(*done);
		*done = NULL;
	}
	return rc;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void format_span(double s, char *buf, size_t size)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, size, "%ldh%02ldm%02lds", t / 3600, t / 60 % 60, t % 60);
	else if (t >= 60)
		snprintf(buf, size, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, size, "%lds", t);
}

/* Progress after a report: a line per run on out, or the one line on the terminal. */
static void progress(const struct plan *pl, const struct sweep_opts *o, const struct report *r,
		     const struct sweep_result *res, int pending, double t0)
{
	int done = res->ok + res->failed + res->others;
	char el[32], eta[32];

	if (o->quiet)
		return;
	if (!o->tty) {
		fprintf(o->out, "run %d point %d rep %d %s%s%s\n", r->index, r->index / pl->sf->nreps,
			r->index % pl->sf->nreps, r->ok == OUT_OK ? "ok" : r->ok == OUT_OTHER ? "left to another "
			"process" : "failed", r->ok == OUT_OK ? "" : ": ", r->msg);
		fflush(o->out);
		return;
	}
	double el_s = now_s() - t0;
	format_span(el_s, el, sizeof el);
	format_span(done ? el_s / done * (pending - done) : 0, eta, sizeof eta);
	fprintf(o->tty, "\r\033[K%s: %d/%d runs done, %d failed, %s elapsed, ETA %s", pl->sf->name,
		done + res->skipped, res->total, res->failed, el, eta);
	fflush(o->tty);
}

/* The workers' side of dispatch: task pipes, pids, the run each is on. */
struct pool {
	int n;         /* workers */
	pid_t *pid;
	int *task;     /* write end of each worker's task pipe; -1 once closed */
	int reports;   /* read end of the report pipe */
	void *parent_only[2];  /* the parent's buffers (pending runs, done flags) a forked worker inherits but
	                          never uses: the worker frees its copies, so that nothing is lost at its _exit
	                          whatever the compiler kept of the parent's frame (valgrind, tests/e2e/lib.sh) */
};

/* Give worker w the next pending run, or close its pipe when there is none. */
static void hand_out(struct pool *pl, int w, const int *pending, int npending, int *next, int *sent)
{
	while (pl->task[w] >= 0) {
		if (*next == npending) {
			close(pl->task[w]);
			pl->task[w] = -1;
			return;
		}
		int32_t index = pending[*next];
		if (write(pl->task[w], &index, sizeof index) == (ssize_t)sizeof index) {
			(*next)++;
			(*sent)++;
			return;
		}
		close(pl->task[w]);  /* the worker is gone: its share goes to the others */
		pl->task[w] = -1;
	}
}

/* Fork the workers. Returns STATUS_OK or a failure with nothing left running. */
static int start_pool(struct pool *pool, const struct plan *pl, const char *db, int n, struct diag *d)
{
	int rp[2], tp[2];
	pid_t parent = getpid();

	pool->n = 0;
	pool->pid = calloc((size_t)n, sizeof *pool->pid);
	pool->task = calloc((size_t)n, sizeof *pool->task);
	if (!pool->pid || !pool->task)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	if (pipe(rp))
		return diag_fail(d, STATUS_EINTERNAL, "pipe: %s", strerror(errno));
	pool->reports = rp[0];
	fflush(NULL);  /* nothing buffered is written twice */
	for (int w = 0; w < n; w++) {
		if (pipe(tp))
			break;
		pid_t pid = fork();
		if (pid == 0) {
			close(rp[0]);
			close(tp[1]);
			for (int j = 0; j < w; j++)
				close(pool->task[j]);
			free(pool->pid);
			free(pool->task);
			for (size_t k = 0; k < sizeof pool->parent_only / sizeof pool->parent_only[0]; k++)
				free(pool->parent_only[k]);
			worker(pl, db, w, tp[0], rp[1], parent);
		}
		close(tp[0]);
		if (pid < 0) {
			close(tp[1]);
			break;
		}
		pool->pid[w] = pid;
		pool->task[w] = tp[1];
		pool->n++;
	}
	close(rp[1]);
	if (pool->n == 0) {
		close(rp[0]);
		return diag_fail(d, STATUS_EINTERNAL, "cannot start a worker process: %s", strerror(errno));
	}
	return STATUS_OK;
}

/* Stop handing out runs: close every task pipe (each worker ends after the run it is on). */
static void stop_all(struct pool *pool)
{
	for (int w = 0; w < pool->n; w++)
		if (pool->task[w] >= 0) {
			close(pool->task[w]);
			pool->task[w] = -1;
		}
}

/*
 * Hand out the pending runs and collect the reports until every worker has finished. A full disk stops the
 * handing out at once (the store's message into full[], REPORT_MSG_MAX bytes): no worker goes on trying
 * run after run against it.
 */
static void dispatch(const struct plan *pl, const struct sweep_opts *o, struct pool *pool, const int *pending,
		     int npending, struct sweep_result *res, char *full)
{
	int next = 0, sent = 0, got = 0;
	double t0 = now_s();
	struct report r;

	for (int w = 0; w < pool->n; w++)
		hand_out(pool, w, pending, npending, &next, &sent);
	while (fdio_read_full(pool->reports, &r, sizeof r)) {
		got++;
		r.msg[sizeof r.msg - 1] = '\0';
		if (r.ok == OUT_OK)
			res->ok++;
		else if (r.ok == OUT_OTHER)
			res->others++;
		else
			res->failed++;
		if (r.ok == OUT_FULL && !full[0]) {
			snprintf(full, REPORT_MSG_MAX, "%s", r.msg);
			stop_all(pool);
		}
		progress(pl, o, &r, res, npending, t0);
		if (r.worker >= 0 && r.worker < pool->n && !full[0])
			hand_out(pool, r.worker, pending, npending, &next, &sent);
	}
	/* runs never handed out after a full disk; runs handed to a worker that died without reporting */
	res->unrun = npending - next;
	res->failed += next - got;
	for (int w = 0; w < pool->n; w++) {
		if (pool->task[w] >= 0)
			close(pool->task[w]);
		waitpid(pool->pid[w], NULL, 0);
	}
	close(pool->reports);
	if (o->tty && !o->quiet)
		fputc('\n', o->tty);
}

int sweep_run(const struct sweepfile *sf, const struct sweep_opts *o, struct sweep_result *res,
	      struct diag *d)
{
	struct plan pl;
	struct pool pool = { 0 };
	unsigned char *done = NULL;
	int *pending = NULL, npending = 0, rc;
	void (*old_pipe)(int);
	char full[REPORT_MSG_MAX] = "";

	memset(res, 0, sizeof *res);
	diag_clear(d);
	if ((rc = load_base(&pl, sf, d)))
		goto out_base;
	pl.force = o->force;
	pl.name_given = o->name;
	claimant_init(&pl, o->resume);
	if ((rc = register_sweep(&pl, o, &done, d)))
		goto out_base;
	if (!(pending = malloc((size_t)pl.nruns * sizeof *pending))) {
		rc = diag_fail(d, STATUS_ENOMEM, "out of memory");
		goto out_done;
	}
	for (int i = o->shard_k - 1; i < pl.nruns; i += o->shard_n) {
		res->total++;
		if (done[i])
			res->skipped++;
		else
			pending[npending++] = i;
	}
	if (res->skipped && !o->resume && pl.running[0] && o->err)
		fprintf(o->err, "gpucap: sweep %s is being run by process %s on %s: joining it (each run is claimed "
			"before it runs: none runs twice)\n", sf->name, pl.running, o->db);
	if (res->skipped && !o->resume && !pl.running[0]) {
		rc = diag_fail(d, STATUS_EUSAGE, "%s already holds %d of the %d runs of sweep %s%s; run again with "
			       "--resume to run the %d missing ones", o->db, res->skipped, res->total, sf->name,
			       o->shard_n > 1 ? " in this shard" : "", npending);
		goto out_pending;
	}
	if (npending == 0)
		goto out_pending;
	old_pipe = signal(SIGPIPE, SIG_IGN);  /* a worker that died: its pipe's write fails instead */
	pool.parent_only[0] = pending;
	pool.parent_only[1] = done;
	if ((rc = start_pool(&pool, &pl, o->db, o->jobs < npending ? o->jobs : npending, d)) == STATUS_OK)
		dispatch(&pl, o, &pool, pending, npending, res, full);
	signal(SIGPIPE, old_pipe);
	if (rc == STATUS_OK && full[0])
		rc = diag_fail(d, STATUS_EDB, "%s; the sweep stopped (%d runs stored now, %d left; every run stored "
			       "is whole): free space, then run the sweep again with --resume", full, res->ok,
			       res->total - res->skipped - res->ok - res->others);
	free(pool.pid);
	free(pool.task);
out_pending:
	free(pending);
out_done:
	free(done);
out_base:
	scenario_fini(&pl.base);
	return rc;
}

int sweep_check(const struct sweepfile *sf, FILE *out, bool force, int *ninvalid, struct diag *d)
{
	struct plan pl;
	struct work *wk = NULL;
	const char *sets[SETS_MAX];
	struct scenario sc;
	struct diag pd;
	uint64_t seed;
	int rc;

	*ninvalid = 0;
	if ((rc = load_base(&pl, sf, d)))
		goto out_base;
	if (!(wk = malloc(sizeof *wk))) {
		rc = diag_fail(d, STATUS_ENOMEM, "out of memory");
		goto out_base;
	}
	for (int p = 0; p < sf->npoints; p++) {
		int n = run_sets(&pl, p * sf->nreps, sets, wk->sets, sizeof wk->sets, &seed);
		if (scenario_load(&sc, sf->base, sets, n, &pd) != STATUS_OK ||
		    store_check_run_size(&sc, force, &pd) != STATUS_OK) {
			fprintf(out, "point %d (", p);
			for (int k = 0; k < sf->nparams; k++)
				fprintf(out, "%s%s", k ? ", " : "", sets[sf->nsets + k]);
			fprintf(out, "): %s\n", pd.msg);
			(*ninvalid)++;
		}
		scenario_fini(&sc);
	}
	free(wk);
out_base:
	scenario_fini(&pl.base);
	return rc;
}
