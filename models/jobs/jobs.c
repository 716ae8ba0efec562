/* jobs: the life of training and batch jobs on the fleet (see jobs.h). */
#include "jobs.h"
#include "jobs_private.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "convert.h"
#include "engine.h"
#include "rng.h"
#include "status.h"


_Static_assert(SCENARIO_FLEET_MAX <= 64, "struct jobs keeps sets of fleet entries in 64-bit words");

static void on_phase(struct engine *eng, struct event *ev);
static void on_failure(struct engine *eng, struct event *ev);
static void on_pending(struct engine *eng, struct event *ev);
static void on_stop(struct engine *eng, struct event *ev);
static void user_up(void *ctx, int idx);
static void user_down(void *ctx, int idx);
static void user_reclaim(void *ctx, int idx);

static void fail_run(struct jobs *j, int rc)
{
	meter_fail(j->meter, rc);
	engine_stop(j->eng);
}

void jobs_schedule(struct jobs *j, struct event *ev, int64_t t_us, void (*fn)(struct engine *, struct event *))
{
	int rc;

	engine_cancel(j->eng, ev);
	rc = engine_schedule(j->eng, ev, t_us < j->eng->now_us ? j->eng->now_us : t_us, fn);
	if (rc != STATUS_OK)
		fail_run(j, rc);
}


/* Log an event about job (its entry's option, its instances, its name and a note). */
void jobs_log(struct jobs *j, const struct job *job, const char *kind, const char *note)
{
	char detail[96];
	const char *option = job->group >= 0 ? option_kind_name(j->fleet->group[job->group].kind) : NULL;

	snprintf(detail, sizeof detail, "%s%s%s", job->spec->name, note ? ": " : "", note ? note : "");
	meter_event(j->meter, j->eng->now_us, kind, option, job->spec->instances, detail);
}

void jobs_update_policy(struct jobs *j, struct job *job)
{
	if (j->policy->update)
		j->policy->update(j, job);
}

/* ---- setup ----------------------------------------------------------------------------------------- */

static int64_t compute_us(const struct job_spec *s)
{
	return llround(s->work_h / s->instances * SIM_US_PER_H_D);
}

/* A job's name and row, sorted by name then row (qsort). */
struct named_row {
	const char *name;
	int row;
};

static int by_name(const void *a, const void *b)
{
	const struct named_row *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->row > y->row) - (x->row < y->row);
}

/*
 * Each job's failure stream, named by what it serves: "jobs.failures.<name>", and ".<k>" after it for the
 * k-th (from 1) later job of the same name, so that deleting or adding a job leaves every other named job's
 * draws as they were (an unnamed job is job-<row>, its place). Sorting by name keeps this O(n log n) for
 * lists of 100,000 jobs. STATUS_OK or STATUS_ENOMEM.
 */
static int name_streams(struct jobs *j, const struct scenario *sc)
{
	struct named_row *order = malloc(sizeof *order * (size_t)(j->n ? j->n : 1));
	char name[96];
	int k = 0;

	if (!order)
		return STATUS_ENOMEM;
	for (int i = 0; i < j->n; i++)
		order[i] = (struct named_row){ sc->jobs.list[i].name, i };
	qsort(order, (size_t)j->n, sizeof *order, by_name);
	for (int i = 0; i < j->n; i++) {
		k = i > 0 && strcmp(order[i].name, order[i - 1].name) == 0 ? k + 1 : 0;
		if (k == 0)
			snprintf(name, sizeof name, "jobs.failures.%s", order[i].name);
		else
			snprintf(name, sizeof name, "jobs.failures.%s.%d", order[i].name, k);
		if (!(j->job[order[i].row].rng = rng_new(sc->seed, name))) {
			free(order);
			return STATUS_ENOMEM;
		}
	}
	free(order);
	return STATUS_OK;
}

int jobs_init(struct jobs *j, const struct scenario *sc, struct engine *eng, struct meter *meter,
	      struct fleet *f)
{
	int total = 0, used = 0, most = 1;

	*j = (struct jobs){ .sc = sc, .eng = eng, .meter = meter, .fleet = f, .n = sc->jobs.n,
			    .horizon_us = sc->horizon_us };
	switch (sc->jobs.policy) {
	case JOB_POLICY_SPOT: j->policy = &jobs_policy_spot; break;
	case JOB_POLICY_DEADLINE_SPOT: j->policy = &jobs_policy_deadline; break;
	case JOB_POLICY_RESERVED_FIRST: j->policy = &jobs_policy_reserved; break;
	case JOB_POLICY_UNIFORM_PROGRESS: j->policy = &jobs_policy_uniform; break;
	case JOB_POLICY_ADAPTIVE_PROGRESS: j->policy = &jobs_policy_adaptive; break;
	default: j->policy = &jobs_policy_on_demand; break;
	}
	for (int i = 0; i < j->n; i++) {
		total += sc->jobs.list[i].instances;
		most = sc->jobs.list[i].instances > most ? sc->jobs.list[i].instances : most;
	}
	j->job = calloc((size_t)j->n, sizeof *j->job);
	j->queue = calloc((size_t)j->n, sizeof *j->queue);
	j->owner = malloc(sizeof *j->owner * (size_t)(f->npool > 0 ? f->npool : 1));
	j->slots = malloc(sizeof *j->slots * (size_t)(total > 0 ? total : 1));
	j->gang = malloc(sizeof *j->gang * (size_t)most);
	j->completion_s = calloc((size_t)j->n, sizeof *j->completion_s);
	if (!j->job || !j->queue || !j->owner || !j->slots || !j->gang || !j->completion_s)
		goto out_fini;
	for (int i = 0; i < f->npool; i++)
		j->owner[i] = -1;
	for (int g = 0; g < f->ngroups; g++)
		if (f->group[g].kind == OPTION_TRAINING_PLAN && f->group[g].entry->use != USE_SERVING)
			j->plans |= UINT64_C(1) << g;
	engine_event_init(&j->kick);
	engine_event_init(&j->retry);
	for (int i = 0; i < j->n; i++) {
		struct job *job = &j->job[i];
		job->spec = &sc->jobs.list[i];
		job->row = i;
		job->state = JOB_PENDING;
		job->group = -1;
		job->held = j->slots + used;
		used += job->spec->instances;
		job->t_us = compute_us(job->spec);
		job->start_us = job->end_us = -1;
		job->jobs = j;
		engine_event_init(&job->phase);
		engine_event_init(&job->failure);
		engine_event_init(&job->wake);
		engine_event_init(&job->pending);
		engine_event_init(&job->stop);
	}
	if (name_streams(j, sc) != STATUS_OK || jobs_teams_init(j) != STATUS_OK)
		goto out_fini;
	fleet_set_user(f, FLEET_USER_JOBS, &(struct fleet_user){
		.up = user_up, .down = user_down, .reclaim = user_reclaim, .ctx = j });
	return STATUS_OK;
out_fini:
	jobs_fini(j);
	return STATUS_ENOMEM;
}

void jobs_fini(struct jobs *j)
{
	for (int i = 0; j->job && i < j->n; i++)
		gsl_rng_free(j->job[i].rng);
	free(j->job);
	free(j->queue);
	free(j->owner);
	free(j->slots);
	free(j->gang);
	free(j->completion_s);
	jobs_teams_fini(j);
	j->job = NULL;
	j->queue = j->owner = j->slots = j->gang = NULL;
	j->completion_s = NULL;
}

static void arm_failure(struct jobs *j, struct job *job)
{
	double rate = j->sc->jobs.failures_per_instance_h * job->spec->instances, mean_us, gap_us;
	int64_t t_us;
	int rc;

	if (rate <= 0 || evq_queued(&job->failure))
		return;
	/* a failure whose gap reaches past the clock's range never happens (convert.h, SOURCES.md [rate-never]) */
	mean_us = SIM_US_PER_H_D / rate;
	gap_us = rng_exponential(job->rng, mean_us);
	rc = isinf(mean_us) ? STATUS_DONE : convert_after_us(j->eng->now_us, gap_us, &t_us);
	if (rc == STATUS_OK)
		jobs_schedule(j, &job->failure, t_us, on_failure);
	else if (rc != STATUS_DONE)
		fail_run(j, rc);  /* a NaN or negative draw: cannot happen with a positive rate */
}

/* All its instances are ready (or were taken ready): pay the restart overhead. */
void jobs_restart(struct jobs *j, struct job *job)
{
	if (job->start_us < 0) {
		job->start_us = j->eng->now_us;
		j->started++;
		j->wait_us += (double)(job->start_us - job->spec->submit_us);
		jobs_log(j, job, "job_start", NULL);
	} else {
		jobs_log(j, job, "job_resume", NULL);
	}
	job->state = JOB_RESTART;
	arm_failure(j, job);
	jobs_schedule(j, &job->phase, j->eng->now_us + job->spec->restart_us, on_phase);
}

/* Book the time job held its instances, to `until`: jobs_gpu_hours_idle's and the meter's busy GPU-hours. */
static void book_held(struct jobs *j, const struct job *job, int64_t until)
{
	if (job->nheld == 0)
		return;
	j->held_inst_us += (double)job->nheld * (double)(until - job->held_since_us);
	jobs_teams_held(j, job, (double)job->nheld * (double)(until - job->held_since_us));
	meter_job_held(j->meter, j->fleet->group[job->group].kind, job->nheld, job->held_since_us, until);
}

/* Release every instance job holds (see jobs.h, "Leaving"); `gone` is an instance being taken away now (the
 * fleet terminates it), or -1. */
void jobs_release(struct jobs *j, struct job *job, int gone, const char *why)
{
	struct fleet *f = j->fleet;
	int64_t until = j->eng->now_us < j->horizon_us ? j->eng->now_us : j->horizon_us;

	book_held(j, job, until);
	jobs_teams_drop(j, job);
	for (int k = 0; k < job->nheld; k++) {
		int idx = job->held[k];
		struct instance *in = &f->pool[idx];
		j->owner[idx] = -1;
		in->busy = 0;
		if (idx == gone)
			continue;
		if (in->state == INSTANCE_DRAINING)
			fleet_instance_idle(f, idx);
		else if (!jobs_self_managed(&f->group[in->group]))
			fleet_retire(f, idx, why);
	}
	job->nheld = job->nup = 0;
	engine_cancel(j->eng, &job->failure);
	engine_cancel(j->eng, &job->phase);
	jobs_kick(j);
}

/* ---- progress ---------------------------------------------------------------------------------------- */

/* Bring p up to now if computing. */
static void advance(struct jobs *j, struct job *job)
{
	if (job->state == JOB_COMPUTE) {
		job->p_us += j->eng->now_us - job->since_us;
		job->since_us = j->eng->now_us;
	}
}

static void rollback(struct jobs *j, struct job *job)
{
	advance(j, job);
	j->lost_inst_us += (double)(job->p_us - job->s_us) * job->spec->instances;
	job->p_us = job->s_us;
}

int64_t jobs_remaining_us(const struct jobs *j, const struct job *job)
{
	int64_t left = job->t_us - job->s_us, every = job->spec->ckpt_interval_us;

	(void)j;
	if (left <= 0)
		return 0;
	return left + (every > 0 ? ((left + every - 1) / every - 1) * job->spec->ckpt_cost_us : 0);
}

/* Compute until the next checkpoint or the end. */
static void compute(struct jobs *j, struct job *job)
{
	int64_t every = job->spec->ckpt_interval_us, stop = job->t_us;

	if (every > 0 && job->s_us + every < stop)
		stop = job->s_us + every;
	job->state = JOB_COMPUTE;
	job->since_us = j->eng->now_us;
	jobs_schedule(j, &job->phase, j->eng->now_us + (stop - job->p_us), on_phase);
}

static void finish(struct jobs *j, struct job *job)
{
	int64_t now = j->eng->now_us;

	job->p_us = job->t_us;
	jobs_release(j, job, -1, "job ended");
	jobs_log(j, job, "job_end", NULL);
	job->state = JOB_DONE;
	job->end_us = now;
	j->completion_s[j->completed++] = (double)(now - job->spec->submit_us) / SIM_US_PER_S;
	engine_cancel(j->eng, &job->wake);
	engine_cancel(j->eng, &job->pending);
	engine_cancel(j->eng, &job->stop);
	if (now > job->spec->deadline_us) {
		j->missed++;
		jobs_log(j, job, "job_missed_deadline", "ended after its deadline");
	}
}

/* Leave its instances now (or after the checkpoint under way: saving) and rejoin the queue. */
static void leave(struct jobs *j, struct job *job, bool saving)
{
	if (!saving)
		rollback(j, job);
	job->saving = saving;
	job->state = JOB_LEAVING;
	if (!saving) {
		engine_cancel(j->eng, &job->failure);
		jobs_schedule(j, &job->phase, j->eng->now_us, on_phase);
	}
}

/* Checkpoint now for checkpoint_cost, then leave. */
static void leave_saving(struct jobs *j, struct job *job, const char *why)
{
	advance(j, job);
	jobs_log(j, job, "job_checkpoint", why);
	if (job->spec->ckpt_cost_us == 0) {
		/* saved at once: a doom at this very instant (a notice of 0 s) must not take it back */
		job->s_us = job->p_us;
		leave(j, job, false);
		return;
	}
	job->state = JOB_LEAVING;
	job->saving = true;
	jobs_schedule(j, &job->phase, j->eng->now_us + job->spec->ckpt_cost_us, on_phase);
}

/*
 * When a job submitted at submit_us has waited max_pending_us in Active training plans: its pending time
 * counts only while a plan it could use is active (SOURCES.md [tp-pending-2d]: "only increments when jobs
 * are actively waiting for capacity in an Active plan"), not while the plans are scheduled (before their
 * first segment) nor between segments. The plans' segments are the jobs' training-plan entries' windows
 * [start, start + duration), known from the scenario; their union is walked from the submission. INT64_MAX
 * when it never gets there.
 */
static int64_t pending_deadline(const struct jobs *j, int64_t submit_us, int64_t max_pending_us)
{
	int64_t s[64], e[64], left = max_pending_us, t = submit_us;
	int n = 0;

	for (int g = 0; g < j->fleet->ngroups && n < 64; g++) {
		if (!(j->plans & (UINT64_C(1) << g)))
			continue;
		s[n] = j->fleet->group[g].entry->start_us;
		e[n] = s[n] + j->fleet->group[g].entry->duration_us;
		n++;
	}
	while (left > 0) {
		int64_t next_s = INT64_MAX, next_e = INT64_MIN;
		/* the earliest window still open at t or after it, merged with those overlapping it */
		for (int i = 0; i < n; i++)
			if (e[i] > t && (s[i] > t ? s[i] : t) < next_s)
				next_s = s[i] > t ? s[i] : t;
		if (next_s == INT64_MAX)
			return INT64_MAX;
		next_e = next_s;
		for (bool grew = true; grew;) {
			grew = false;
			for (int i = 0; i < n; i++)
				if (s[i] <= next_e && e[i] > next_e) {
					next_e = e[i];
					grew = true;
				}
		}
		if (next_e - next_s >= left)
			return next_s + left;
		left -= next_e - next_s;
		t = next_e;
	}
	return t;
}

static void on_phase(struct engine *eng, struct event *ev)
{
	struct job *job = container_of(ev, struct job, phase);
	struct jobs *j = job->jobs;

	(void)eng;
	switch (job->state) {
	case JOB_PENDING:
		j->submitted++;
		jobs_log(j, job, "job_submit", NULL);
		if (j->plans && j->sc->jobs.max_pending_us > 0) {
			int64_t at = pending_deadline(j, job->spec->submit_us, j->sc->jobs.max_pending_us);
			if (at < j->sc->horizon_us)
				jobs_schedule(j, &job->pending, at, on_pending);
		}
		if (j->sc->jobs.managed_spot && job->spec->max_wait_us > 0 &&
		    job->spec->max_wait_us <= j->sc->horizon_us - job->spec->submit_us)
			jobs_schedule(j, &job->stop, job->spec->submit_us + job->spec->max_wait_us, on_stop);
		jobs_enqueue(j, job);
		break;
	case JOB_DELAYED:
		jobs_enqueue(j, job);
		break;
	case JOB_RESTART:
		compute(j, job);
		break;
	case JOB_COMPUTE:
		advance(j, job);
		if (job->p_us >= job->t_us) {
			finish(j, job);
		} else {
			job->state = JOB_CKPT;
			jobs_schedule(j, &job->phase, j->eng->now_us + job->spec->ckpt_cost_us, on_phase);
		}
		break;
	case JOB_CKPT:
		job->s_us = job->p_us;
		jobs_update_policy(j, job);
		compute(j, job);
		break;
	case JOB_LEAVING:
		if (job->saving)
			job->s_us = job->p_us;
		jobs_release(j, job, -1, "job left its instances");
		jobs_enqueue(j, job);
		break;
	case JOB_REPLACING:
		jobs_restart(j, job);
		break;
	default:
		assert(0 && "no phase in this state");
	}
}

/* max_pending: see jobs.h. */
static void on_pending(struct engine *eng, struct event *ev)
{
	struct job *job = container_of(ev, struct job, pending);
	struct jobs *j = job->jobs;

	(void)eng;
	if (job->state != JOB_QUEUED || job->start_us >= 0 || !job->wanted_plan)
		return;
	jobs_dequeue(j, job);
	job->state = JOB_TERMINATED;
	j->terminated++;
	engine_cancel(j->eng, &job->wake);
	engine_cancel(j->eng, &job->stop);
	jobs_log(j, job, "job_terminated", "InsufficientCapacityError: pending too long for a training plan");
}

/* max_wait (jobs.managed_spot): see jobs.h, "Managed Spot training" (SOURCES.md [sm-managed-spot]). */
static void on_stop(struct engine *eng, struct event *ev)
{
	struct job *job = container_of(ev, struct job, stop);
	struct jobs *j = job->jobs;

	(void)eng;
	advance(j, job);
	if (job->state == JOB_COMPUTE && job->p_us >= job->t_us) {
		finish(j, job);  /* it ends at this very instant: within max_wait */
		return;
	}
	switch (job->state) {
	case JOB_QUEUED:
		jobs_dequeue(j, job);
		break;
	case JOB_DELAYED:
		break;
	default:
		assert(job->state != JOB_PENDING && job->state != JOB_DONE && job->state != JOB_TERMINATED);
		rollback(j, job);
		jobs_release(j, job, -1, "job stopped: max_wait");
		break;
	}
	engine_cancel(j->eng, &job->phase);
	engine_cancel(j->eng, &job->failure);
	engine_cancel(j->eng, &job->wake);
	engine_cancel(j->eng, &job->pending);
	job->state = JOB_TERMINATED;
	j->terminated++;
	j->stopped++;
	j->missed++;
	jobs_log(j, job, "job_terminated", "MaxWaitTimeInSeconds: waiting plus running reached max_wait");
	jobs_log(j, job, "job_missed_deadline", "stopped at max_wait");
	jobs_kick(j);
}

/* ---- what goes wrong ------------------------------------------------------------------------------------ */

/* A node failure: back to the last checkpoint, then HyperPod's automatic replacement and auto-resume, or
 * (recovery none) back to the queue after the restart delay (SOURCES.md [hyperpod-auto-resume],
 * [hyperpod-recovery-none]). */
static void on_failure(struct engine *eng, struct event *ev)
{
	struct job *job = container_of(ev, struct job, failure);
	struct jobs *j = job->jobs;

	(void)eng;
	j->failures++;
	jobs_log(j, job, "job_failure", j->sc->jobs.auto_resume ? "node replaced, resume from checkpoint" :
			"released; rejoins the queue after the restart delay");
	if (job->state == JOB_LEAVING) {
		leave(j, job, false); /* the checkpoint at the notice is lost */
		return;
	}
	rollback(j, job);
	if (j->sc->jobs.auto_resume) {
		job->state = JOB_REPLACING;
		jobs_schedule(j, &job->phase, j->eng->now_us + j->sc->jobs.replacement_us, on_phase);
		return;
	}
	jobs_release(j, job, -1, "job failed: recovery none");
	job->state = JOB_DELAYED;
	job->group = -1;
	jobs_schedule(j, &job->phase, j->eng->now_us + j->sc->jobs.restart_delay_us, on_phase);
}

/* An instance job holds is under notice until doom_us (jobs.h, "Interruptions"; SOURCES.md
 * [jobs-notice-checkpoint]). */
static void interrupted(struct jobs *j, struct job *job, int64_t doom_us)
{
	int64_t now = j->eng->now_us;

	switch (job->state) {
	case JOB_COMPUTE:
		j->interruptions++;
		jobs_log(j, job, "job_interrupt", NULL);
		advance(j, job);
		if (job->spec->ckpt_interval_us > 0 && doom_us - now >= job->spec->ckpt_cost_us)
			leave_saving(j, job, "at the interruption notice");
		else
			leave(j, job, false);
		break;
	case JOB_CKPT:
		j->interruptions++;
		jobs_log(j, job, "job_interrupt", NULL);
		if (job->phase.t_us <= doom_us) {
			job->state = JOB_LEAVING; /* finish the checkpoint under way */
			job->saving = true;
		} else {
			leave(j, job, false);
		}
		break;
	case JOB_LEAVING:
		if (job->saving && job->phase.t_us > doom_us)
			leave(j, job, false);
		break;
	case JOB_LAUNCHING:
	case JOB_RESTART:
	case JOB_REPLACING:
		j->interruptions++;
		jobs_log(j, job, "job_interrupt", NULL);
		leave(j, job, false);
		break;
	default:
		assert(0 && "an instance held in this state");
	}
}

static void user_down(void *ctx, int idx)
{
	struct jobs *j = ctx;
	const struct instance *in = &j->fleet->pool[idx];

	if (j->owner[idx] < 0)
		return; /* idle, or being released by its job */
	interrupted(j, &j->job[j->owner[idx]], evq_queued(&in->doom) ? in->doom.t_us : j->eng->now_us);
}

static void user_reclaim(void *ctx, int idx)
{
	struct jobs *j = ctx;
	struct job *job;

	if (j->owner[idx] < 0)
		return;
	job = &j->job[j->owner[idx]];
	if (job->state != JOB_LEAVING) {
		j->interruptions++;
		jobs_log(j, job, "job_interrupt", "instance taken away");
	}
	/* A checkpoint under way that ends at this very instant (as long as the notice: a 2-minute checkpoint
	 * on AWS's 2-minute notice) completes before the instance goes: its end and the reclaim share the
	 * instant, and the reclaim, scheduled first, would otherwise run first and lose it. */
	if (job->state == JOB_LEAVING && job->saving && evq_queued(&job->phase) && job->phase.t_us <= j->eng->now_us)
		job->s_us = job->p_us;
	rollback(j, job); /* a checkpoint at the notice not finished by now is lost */
	jobs_release(j, job, idx, "job left its instances");
	jobs_enqueue(j, job);
}

static void user_up(void *ctx, int idx)
{
	struct jobs *j = ctx;
	struct job *job;

	if (j->owner[idx] < 0) {
		jobs_kick(j); /* a self-managed instance came up */
		return;
	}
	job = &j->job[j->owner[idx]];
	if (job->state == JOB_LAUNCHING && ++job->nup == job->nheld)
		jobs_restart(j, job);
}

/* Team shares: a lender reclaims its quota, or a higher priority of the team needs room (jobs_teams.c;
 * SOURCES.md [hp-reclaim], [hp-preempt-priority]). Like a reclaimed instance: the work since the last
 * checkpoint is lost (a checkpoint under way too), the instances go at once, the job queues again. */
void jobs_preempt(struct jobs *j, struct job *job, const char *why)
{
	j->preemptions++;
	jobs_log(j, job, "job_preempt", why);
	rollback(j, job);
	jobs_release(j, job, -1, "job preempted");
	jobs_enqueue(j, job);
}

/* Leave the instances job holds to be placed again: checkpoint first if it is computing (and checkpoints at
 * all), else roll back; a queued job is placed again at once. */
static void relocate(struct jobs *j, struct job *job, const char *why)
{
	switch (job->state) {
	case JOB_QUEUED:
		jobs_kick(j);
		break;
	case JOB_COMPUTE:
		if (job->spec->ckpt_interval_us > 0)
			leave_saving(j, job, why);
		else
			leave(j, job, false);
		break;
	case JOB_CKPT:
		job->state = JOB_LEAVING;
		job->saving = true;
		break;
	case JOB_LAUNCHING:
	case JOB_RESTART:
	case JOB_REPLACING:
		leave(j, job, false);
		break;
	default:
		break; /* leaving or delayed: the policy chooses again when it is placed again */
	}
}

void jobs_switch(struct jobs *j, struct job *job)
{
	if (job->od_only)
		return;
	job->od_only = true;
	jobs_log(j, job, "job_switch", "deadline: on-demand from now on");
	relocate(j, job, "deadline switch to on-demand");
}

void jobs_move(struct jobs *j, struct job *job, const char *why)
{
	jobs_log(j, job, "job_switch", why);
	relocate(j, job, why);
}

int64_t jobs_progress_us(const struct jobs *j, const struct job *job)
{
	if (job->state == JOB_COMPUTE)
		return job->p_us + (j->eng->now_us - job->since_us);
	return job->p_us;
}

/* ---- start and close ------------------------------------------------------------------------------------ */

int jobs_start(struct jobs *j)
{
	for (int i = 0; i < j->n; i++)
		if (j->job[i].spec->submit_us <= j->horizon_us)
			jobs_schedule(j, &j->job[i].phase, j->job[i].spec->submit_us, on_phase);
	return j->meter->status;
}

void jobs_close(struct jobs *j, int64_t horizon_us)
{
	jobs_teams_close(j, horizon_us);
	engine_cancel(j->eng, &j->kick);
	engine_cancel(j->eng, &j->retry);
	for (int i = 0; i < j->n; i++) {
		struct job *job = &j->job[i];
		book_held(j, job, horizon_us);
		engine_cancel(j->eng, &job->phase);
		engine_cancel(j->eng, &job->failure);
		engine_cancel(j->eng, &job->wake);
		engine_cancel(j->eng, &job->pending);
		engine_cancel(j->eng, &job->stop);
		if (job->end_us < 0 && job->state != JOB_TERMINATED && job->state != JOB_PENDING &&
		    job->spec->deadline_us <= horizon_us) {
			j->missed++;
			jobs_log(j, job, "job_missed_deadline", "not ended by its deadline");
		}
	}
	if (jobs_regret_close(j) != STATUS_OK)
		fail_run(j, STATUS_ENOMEM);
	j->closed = true;
}
