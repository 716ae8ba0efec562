/*
 * jobs_private: what jobs.c (a job's life) and jobs_queue.c (the queue and placement) share, and nothing
 * else may use. See jobs.h for the model.
 */
#ifndef GPUCAP_JOBS_PRIVATE_H
#define GPUCAP_JOBS_PRIVATE_H

/* Private to models/jobs/: the build defines GPUCAP_IN_JOBS for that folder's files alone. */
#ifndef GPUCAP_IN_JOBS
#error "jobs_private.h is private to models/jobs/ (models/ARCHITECTURE.md)"
#endif

#include "jobs.h"

/* Log an event about job: its entry's option, its instances, its name and a note (may be NULL). */
void jobs_log(struct jobs *j, const struct job *job, const char *kind, const char *note);

/* Walk the queue once, after the current event (jobs_queue.c). */
void jobs_kick(struct jobs *j);

/* Put job in the queue in its place, or take it out (jobs_queue.c). */
void jobs_enqueue(struct jobs *j, struct job *job);
void jobs_dequeue(struct jobs *j, const struct job *job);

/* True if the entry's option decides when its instances exist (reserved, Capacity Block). */
bool jobs_self_managed(const struct fleet_group *g);

/* All job's instances are ready: start or resume (restart overhead, then compute). */
void jobs_restart(struct jobs *j, struct job *job);

/* Release every instance job holds; `gone` is one being taken away now (the fleet ends it), or -1. */
void jobs_release(struct jobs *j, struct job *job, int gone, const char *why);

/* Tell the policy job's saved progress, placement or queueing changed. */
void jobs_update_policy(struct jobs *j, struct job *job);

/* Try to place job (queued) now; true if placed and dequeued (jobs_queue.c). */
bool jobs_try(struct jobs *j, struct job *job);

/* Preempt job (it holds instances): back to its last checkpoint, release, rejoin the queue (jobs.c). */
void jobs_preempt(struct jobs *j, struct job *job, const char *why);

/* At the horizon: each submitted job's offline optimum, logged as job_optimum (jobs_regret.c). STATUS_OK or
 * STATUS_ENOMEM. */
int jobs_regret_close(struct jobs *j);

/* True if the run's regret can be told: every submitted job has an optimum, the jobs use only Spot and
 * On-Demand entries, and no commitment discounts their usage (jobs_regret.c). */
bool jobs_regret_known(const struct jobs *j);

/* Team shares (jobs_teams.c; every call does nothing without teams, except the walk). */
int jobs_teams_init(struct jobs *j);
void jobs_teams_fini(struct jobs *j);
void jobs_teams_take(struct jobs *j, struct job *job);  /* job took its instances */
void jobs_teams_drop(struct jobs *j, struct job *job);  /* job releases them */
void jobs_teams_held(struct jobs *j, const struct job *job, double inst_us);  /* instance-us job held */
void jobs_teams_walk(struct jobs *j);
void jobs_teams_close(struct jobs *j, int64_t horizon_us);

#endif
