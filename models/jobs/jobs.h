/*
 * jobs: training and batch jobs on the fleet's jobs entries (models/README.md, "Jobs").
 *
 * A job (struct job_spec, scenario.h) needs `instances` instances at once (gang-scheduled), all from ONE
 * fleet entry whose use is jobs, for work_h instance-hours of compute: T = work_h / instances hours at full
 * size. Its progress p is the compute done (microseconds at full size), s the progress at its last
 * checkpoint (0 at first). Times below are from the scenario start.
 *
 * Queue. At its submit time a job joins the queue, ordered by priority (higher first), then submit time,
 * then row. Whenever something may have changed (a submission, instances freed or coming up, a launch
 * backoff expiring, a recovery delay ending, a deadline switch), the queue is walked once in order, at the
 * current time but after the event that caused it has been handled. For each job the policy names the
 * entry to use now, or none (wait). No backfilling across an entry: once a job has waited for want of room
 * on an entry in a walk, no job behind it may take instances from that entry in the same walk; jobs that
 * want other entries are not held back.
 *
 * Room on an entry. A self-managed entry (reserved, capacity block, training plan: the option decides when
 * its instances come and go) has room when it holds at least `instances` idle instances: serving state, no
 * notice, not held by a job; the job takes the first ones in pool order. Another entry (on-demand, ODCR,
 * Spot) has room when it is not backing off from a failed launch and has `instances` free slots (max less
 * live and draining instances); the job then launches its instances in one request, all or nothing
 * (fleet_launch_gang). A request may be refused whole (quota, insufficient capacity, no Spot capacity for
 * all of them): nothing launches, the entry backs off as the fleet's launch_retry says, and the queue is
 * walked again when the backoff expires.
 *
 * Phases of a job that holds instances (each instance it holds has busy = 1):
 *  - launching: waiting for all its instances to be ready (the entry's startup delay);
 *  - restart: restart_overhead (loading, also at the first start), then compute;
 *  - compute: progress grows 1:1 with time; when p reaches s + checkpoint_interval (interval > 0) and that
 *    is short of T, a checkpoint starts; when p reaches T the job ends (no checkpoint at the end);
 *  - checkpoint: checkpoint_cost with no progress, then s = p and compute again.
 * With nothing going wrong and instances ready at t0 a job ends at t0 + restart + T + cost x (ceil(T /
 * interval) - 1) (interval 0: no checkpoints). At the end it releases its instances: launched ones are
 * terminated (fleet_retire), self-managed ones become idle. The job "starts" (job_start, the end of its
 * wait) when all its instances are first ready; later restarts are resumes.
 *
 * Interruptions (an instance it holds gets a notice: a Spot interruption, an availability-trace tick, a
 * pool reclaim, a Capacity Block's expiration warning). Let doom be when the instance is taken away.
 *  - computing, with checkpoint_interval > 0 and doom - now >= checkpoint_cost: it checkpoints now (s = p
 *    at the notice, the checkpoint ends at now + cost), then leaves;
 *  - in a periodic checkpoint that ends by the doom: it finishes it (s = p), then leaves;
 *  - otherwise p rolls back to s and it leaves at once.
 * Leaving releases every instance it holds (the noticed ones terminate then, the others as at the end) and
 * puts the job back in the queue. job_interruptions counts each such departure once, whatever the number of
 * instances noticed. If the doom comes before the job has left (a second notice with an earlier doom), the
 * checkpoint is lost: p rolls back to s. An instance noticed before it was ready is only seen at its doom.
 *
 * Node failures. While a job is in restart, compute or checkpoint (periodic or at a notice), failures come
 * as a Poisson process of rate instances x jobs.failures_per_instance_h per hour, drawn from the job's own
 * stream "jobs.failures.<name>" (".<k>" after it for the k-th later job of the same name; results do not
 * depend on other jobs, and deleting one leaves the others' draws as they were). A failure rolls p back to s (an
 * unfinished checkpoint is lost). With recovery automatic (HyperPod) the job keeps its instances (still
 * billed), waits replacement (no failure can strike then), then pays restart_overhead and computes. With
 * recovery none it releases its instances and rejoins the queue restart_delay later. A failure during a
 * checkpoint at a notice makes the job leave at once.
 *
 * Work lost: at each rollback, (p - s) x instances, in instance-hours.
 *
 * Deadlines: jobs_missed_deadline counts jobs that ended after their deadline, and jobs not ended by the
 * horizon whose deadline is at or before it. max_pending: a job that has never started and whose last
 * placement attempt found no room on a training-plan entry it wanted is terminated once it has pended
 * max_pending while a training plan was active (inside a segment, counted from its submission; jobs.c
 * pending_deadline) (InsufficientCapacityError), counted in jobs_terminated.
 *
 * Managed Spot training (jobs.managed_spot, SageMaker; SOURCES.md [sm-managed-spot]; policy spot and aws only,
 * checked by the loader). A job with max_wait is stopped at submit + max_wait (MaxWaitTimeInSeconds: the time
 * waiting for Spot plus the time running) unless it has ended by then (a job ending at that very instant
 * completes): wherever it is (queued, delayed, launching or holding instances) it leaves the queue, p rolls
 * back to s (the work since its last checkpoint is lost, as at any stop) and it releases its instances at
 * once, billed up to then. SageMaker's SIGTERM 120 s before is not modelled (the job is gone either way). It
 * is counted in jobs_terminated AND in jobs_missed_deadline (it never completes), and in
 * jobs_stopped_max_wait; events job_terminated and job_missed_deadline. The billing side (the jobs' Spot
 * instances pay their seconds even when EC2 interrupts them in their first hour) is option_spot.c's.
 *
 * Policies (struct jobs_policy_ops; one file each, jobs_policy_*.c) name the entry; see each file.
 *
 * Metrics (jobs_report, only when the scenario has jobs): jobs_submitted, jobs_completed,
 * jobs_missed_deadline, jobs_terminated, jobs_stopped_max_wait (only with jobs.managed_spot),
 * job_completion_p50_s / job_completion_p99_s (end - submit over
 * completed jobs, nearest rank: the smallest value with at least ceil(q n) values at or below it; NaN when
 * none completed), job_wait_mean_s (submit to start, over the jobs that started), work_lost_instance_hours,
 * job_interruptions, job_failures, jobs_cost_<option>_usd (the bills of jobs entries' instances and windows,
 * meter.h "money by user"), jobs_gpu_hours_paid (paid GPU-hours of jobs entries) and jobs_gpu_hours_idle
 * (those less the GPU-hours jobs held their instances, from taking or launching them to releasing them,
 * within the horizon); job_cost_optimal_usd and jobs_regret_usd when the regret is known (jobs_regret.c).
 * Events: job_submit, job_start, job_checkpoint (only at notices and deadline
 * switches: periodic checkpoints are not logged), job_interrupt, job_failure, job_resume, job_switch
 * (deadline_spot, uniform_progress), job_end, job_missed_deadline, job_terminated, job_optimum (at the horizon).
 *
 * Team shares (jobs.teams; jobs_teams.c): the walk admits jobs by team quota, lends idle quota and preempts
 * (job_preempt: back to the last checkpoint, release, queue again); see jobs_teams.c.
 *
 * Memory: everything is allocated by jobs_init; nothing per event.
 */
#ifndef GPUCAP_JOBS_H
#define GPUCAP_JOBS_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "engine.h"
#include "fleet.h"
#include "meter.h"
#include "scenario.h"

struct jobs;

enum job_state {
	JOB_PENDING,     /* not submitted yet */
	JOB_QUEUED,      /* waiting for room */
	JOB_DELAYED,     /* recovery none: waiting restart_delay before rejoining the queue */
	JOB_LAUNCHING,   /* holds instances, not all ready */
	JOB_RESTART,     /* restart overhead */
	JOB_COMPUTE,     /* computing */
	JOB_CKPT,        /* periodic checkpoint */
	JOB_LEAVING,     /* leaving its instances: after a checkpoint (saving) or at once */
	JOB_REPLACING,   /* auto-resume: a failed node is being replaced */
	JOB_DONE,        /* ended */
	JOB_TERMINATED   /* given up (max_pending) or stopped (max_wait) */
};

struct job {
	const struct job_spec *spec;  /* kept (the scenario's) */
	int row;                      /* index in sc->jobs.list */
	enum job_state state;
	int group;                    /* fleet entry it holds or launches on, -1 */
	int *held;                    /* pool indices of its instances, spec->instances slots (jobs-owned) */
	int nheld;                    /* instances held */
	int nup;                      /* of those, ready (launching phase) */
	int64_t t_us;                 /* compute needed at full size, T */
	int64_t p_us;                 /* progress (as of since_us while computing) */
	int64_t s_us;                 /* saved progress */
	int64_t since_us;             /* computing: when the current stretch began */
	int64_t held_since_us;        /* when it took its instances */
	int64_t start_us;             /* first start, -1 */
	int64_t end_us;               /* end, -1 */
	bool saving;                  /* leaving: after a checkpoint (true) or at once */
	bool od_only;                 /* deadline_spot: switched to on-demand for good */
	bool wanted_plan;             /* its last placement attempt found no room on a training plan */
	bool counted;                 /* its instances count in its team's use (jobs_teams.c) */
	bool passed;                  /* teams walk: tried and not placed in this walk */
	double optimal_usd;           /* its offline optimum (jobs_regret.c), NaN if none; set at the horizon */
	struct event phase;           /* the end of the current phase (or the submission) */
	struct event failure;         /* the next node failure */
	struct event wake;            /* the policy's wake-up (deadline_spot, uniform_progress) */
	struct event pending;         /* max_pending */
	struct event stop;            /* max_wait (jobs.managed_spot): submit + max_wait */
	gsl_rng *rng;                 /* "jobs.failures.<name>[.<k>]" (jobs.c name_streams), owned */
	struct jobs *jobs;            /* owner, kept */
};

/* What a placement policy does (jobs_policy_*.c). */
struct jobs_policy_ops {
	/* The fleet entry job should take now (one with room: jobs_room), or -1 to wait. */
	int (*choose)(struct jobs *j, struct job *job);
	/* The job's saved progress, placement or queueing changed: re-arm what the policy watches. May be NULL. */
	void (*update)(struct jobs *j, struct job *job);
};

/* One team's state (jobs_teams.c). */
struct jobs_team {
	int used;                     /* instances its jobs hold (own quota and borrowed) */
	double borrowed_inst_us;      /* integral of max(0, used - quota), instance-microseconds */
	double held_inst_us;          /* instances its jobs held, instance-microseconds, within the horizon */
	uint64_t preempted;           /* its jobs preempted (by a lender's reclaim or a higher priority) */
};

/* What adaptive_progress has read of the Spot entry's availability trace (jobs_outlook.c). */
struct jobs_outlook {
	int instances;                /* the job size counted: a tick is up when it shows this many */
	int64_t ticks;                /* ticks read, 0..ticks-1 */
	int64_t up, drops;            /* of those, up; and the up-to-down changes */
	bool was_up;                  /* the last tick read */
};

struct jobs {
	const struct scenario *sc;    /* kept */
	struct engine *eng;           /* kept */
	struct meter *meter;          /* kept */
	struct fleet *fleet;          /* kept */
	const struct jobs_policy_ops *policy;
	struct job *job;              /* owned, n */
	int n;
	int *queue;                   /* queued job rows in queue order, owned (n slots) */
	int nqueued;
	int *owner;                   /* per pool index: the row of the job holding it, -1; owned */
	int *gang;                    /* a gang launch's pool indices (the largest job's instances); owned */
	int *slots;                   /* every job's held[] storage, owned */
	/* bit sets over fleet entries, one bit per entry (SCENARIO_FLEET_MAX <= 64, checked in jobs.c) */
	uint64_t blocked;             /* entries a waiting job wanted in the current walk */
	uint64_t tried;               /* entries without room seen for the job being placed */
	uint64_t plans;               /* training-plan entries */
	struct event kick;            /* walk the queue */
	struct event retry;           /* a launch backoff expires */
	/* sums */
	uint64_t submitted, completed, missed, terminated, interruptions, failures, started;
	uint64_t stopped;             /* of the terminated, stopped at their max_wait (managed Spot) */
	double wait_us;               /* sum of waits of started jobs */
	double lost_inst_us;          /* work lost, instance-microseconds */
	double held_inst_us;          /* instances held by jobs, instance-microseconds, within the horizon */
	double *completion_s;         /* completion times of ended jobs, owned (n slots) */
	double optimal_usd;           /* the sum of the jobs' offline optima (jobs_regret.c) */
	uint64_t optimal_n;           /* the jobs that have one */
	int64_t horizon_us;
	bool closed;
	/* team shares (jobs_teams.c): NULL without jobs.teams */
	struct jobs_team *team;       /* owned, sc->jobs.nteams */
	int *snap;                    /* the queue at the start of a teams walk, owned (n slots) */
	int64_t team_since_us;        /* borrowed_inst_us integrated up to here */
	uint64_t preemptions;         /* jobs preempted (both kinds) */
	struct jobs_outlook outlook;  /* adaptive_progress (jobs_outlook.c) */
};

/* The policies. */
extern const struct jobs_policy_ops jobs_policy_on_demand;
extern const struct jobs_policy_ops jobs_policy_spot;
extern const struct jobs_policy_ops jobs_policy_deadline;
extern const struct jobs_policy_ops jobs_policy_reserved;
extern const struct jobs_policy_ops jobs_policy_uniform;
extern const struct jobs_policy_ops jobs_policy_adaptive;

/* Set up the jobs of sc (sc->jobs.n > 0) on fleet f and register the jobs user of f's instances. All
 * arguments are kept. STATUS_OK or STATUS_ENOMEM (nothing held). */
int jobs_init(struct jobs *j, const struct scenario *sc, struct engine *eng, struct meter *meter,
	      struct fleet *f);

/* Schedule the submissions (those within the horizon). STATUS_OK or a failure. */
int jobs_start(struct jobs *j);

/* At the horizon (the clock there): count the jobs that missed their deadline, close the held time, cancel
 * every job event. Before fleet_close. */
void jobs_close(struct jobs *j, int64_t horizon_us);

void jobs_fini(struct jobs *j);

/* Append the per-team metrics (jobs_teams_report.c); returns the new count. */
int jobs_teams_report(const struct jobs *j, struct sink_metric *list, int n);

/* Append the jobs metrics to list (at n of METER_MAX_METRICS); returns the new count. After meter_settle. */
int jobs_report(const struct jobs *j, struct sink_metric *list, int n);

/* Conservation of a finished run's jobs (after jobs_close): jobs_submitted = jobs_completed + jobs_terminated +
 * the submitted jobs still unfinished at the end, each counter equal to the jobs in that state, and
 * jobs_missed_deadline at most jobs_submitted. True when it holds; otherwise false with what broke in why
 * (n bytes). Pure. */
bool jobs_conserved(const struct jobs *j, char *why, size_t n);

/* For policies: may entry g take `instances` instances now (see "Room" above)? Entries already wanted by a
 * waiting job in this walk have no room; an entry without room is remembered for the job being placed. */
bool jobs_room(struct jobs *j, int g, int instances);

/* For policies: the first jobs entry in fleet order for which want(g) holds and that has room, or -1. */
int jobs_first(struct jobs *j, const struct job *job, bool (*want)(const struct fleet_group *g));

/* For policies: move job to on-demand for good (deadline_spot): a queued job is placed again; one on another
 * entry checkpoints if it is computing (and checkpoints at all), else rolls back, then leaves. */
void jobs_switch(struct jobs *j, struct job *job);

/* For policies: leave the instances job holds and be placed again (the policy chooses anew): a job computing
 * checkpoints first if it checkpoints at all, else rolls back; one in a checkpoint finishes it; event
 * job_switch with `why` (kept only for the call). Unlike jobs_switch, nothing is decided for good. */
void jobs_move(struct jobs *j, struct job *job, const char *why);

/* For policies: the progress made now, p (microseconds of compute; the saved s when it is not computing). */
int64_t jobs_progress_us(const struct jobs *j, const struct job *job);

/* For policies: the cost of one more start on On-Demand, the first On-Demand jobs entry's mean launch delay
 * (serving.startup_s without one) + the job's restart overhead: the Can't Be Late study's changeover delay d
 * (jobs_policy_deadline.c). */
int64_t jobs_restart_cost_us(const struct jobs *j, const struct job *job);

/* The cost of one start of job on entry g: the entry's mean launch delay (serving.startup_s without a
 * `startup`) + the job's restart overhead. */
int64_t jobs_entry_restart_us(const struct jobs *j, int g, const struct job *job);

/* For policies: the first jobs entry of kind k in fleet order, -1 if none (jobs_queue.c). */
int jobs_first_of(const struct jobs *j, enum option_kind k);

/* For policies: the fraction of time the first Spot jobs entry has given job useful compute, from its
 * availability trace up to the current tick, less a restart per drop (jobs_outlook.c); NaN without a trace
 * or before its first tick. */
double jobs_spot_history(struct jobs *j, const struct job *job);

/* For policies: entry g's price per instance-hour at t (its price trace, else its fixed price). */
double jobs_entry_usd_per_h(const struct jobs *j, int g, int64_t t_us);

/* For policies: the compute still needed from the saved progress, checkpoints included (microseconds). */
int64_t jobs_remaining_us(const struct jobs *j, const struct job *job);

/* Schedule ev for job at t_us (now if earlier), replacing it if queued; a failure stops the run. */
void jobs_schedule(struct jobs *j, struct event *ev, int64_t t_us, void (*fn)(struct engine *, struct event *));

#endif
