/* jobs_queue: the queue of waiting jobs, room on an entry and placement (see jobs.h, "Queue" and "Room"). */
#include "jobs.h"
#include "jobs_private.h"

#include <assert.h>

static void on_kick(struct engine *eng, struct event *ev);

/* Walk the queue after the current event (never inside a fleet call: see jobs.h, "Queue"). */
void jobs_kick(struct jobs *j)
{
	if (!j->closed && !evq_queued(&j->kick))
		jobs_schedule(j, &j->kick, j->eng->now_us, on_kick);
}

/* ---- the queue ------------------------------------------------------------------------------------- */

/* True if job a goes before job b: priority (higher first), then submit, then row. */
static bool before(const struct job *a, const struct job *b)
{
	if (a->spec->priority != b->spec->priority)
		return a->spec->priority > b->spec->priority;
	if (a->spec->submit_us != b->spec->submit_us)
		return a->spec->submit_us < b->spec->submit_us;
	return a->row < b->row;
}

void jobs_enqueue(struct jobs *j, struct job *job)
{
	int k = j->nqueued;

	while (k > 0 && before(job, &j->job[j->queue[k - 1]])) {
		j->queue[k] = j->queue[k - 1];
		k--;
	}
	j->queue[k] = job->row;
	j->nqueued++;
	job->state = JOB_QUEUED;
	job->group = -1;
	jobs_update_policy(j, job);
	jobs_kick(j);
}

void jobs_dequeue(struct jobs *j, const struct job *job)
{
	int k = 0;

	while (k < j->nqueued && j->queue[k] != job->row)
		k++;
	assert(k < j->nqueued);
	for (; k + 1 < j->nqueued; k++)
		j->queue[k] = j->queue[k + 1];
	j->nqueued--;
}

/* ---- room and placement ------------------------------------------------------------------------------ */

bool jobs_self_managed(const struct fleet_group *g)
{
	return fleet_group_self_managed(g);
}

/* True if pool instance idx of a self-managed entry may be taken by a job now. */
static bool idle(const struct jobs *j, int idx)
{
	const struct instance *in = &j->fleet->pool[idx];

	return in->state == INSTANCE_SERVING && !in->noticed && in->busy == 0 && j->owner[idx] < 0;
}

bool jobs_room(struct jobs *j, int g, int instances)
{
	const struct fleet_group *grp = &j->fleet->group[g];
	bool room;

	if (grp->user != FLEET_USER_JOBS)
		return false;
	if (!grp->ops || (j->blocked & (UINT64_C(1) << g))) {
		room = false;
	} else if (jobs_self_managed(grp)) {
		int n = 0;
		for (int i = grp->first; i < grp->first + grp->max; i++)
			n += idle(j, i);
		room = n >= instances;
	} else {
		room = j->eng->now_us >= grp->retry_us && grp->max - grp->live - grp->draining >= instances;
	}
	if (!room)
		j->tried |= UINT64_C(1) << g;
	return room;
}

int jobs_first_of(const struct jobs *j, enum option_kind k)
{
	for (int g = 0; g < j->fleet->ngroups; g++)
		if (j->fleet->group[g].user == FLEET_USER_JOBS && j->fleet->group[g].kind == k)
			return g;
	return -1;
}

int jobs_first(struct jobs *j, const struct job *job, bool (*want)(const struct fleet_group *g))
{
	for (int g = 0; g < j->fleet->ngroups; g++)
		if (want(&j->fleet->group[g]) && jobs_room(j, g, job->spec->instances))
			return g;
	return -1;
}

static void hold(struct jobs *j, struct job *job, int idx)
{
	j->owner[idx] = job->row;
	j->fleet->pool[idx].busy = 1;
	job->held[job->nheld++] = idx;
}

static void on_retry(struct engine *eng, struct event *ev)
{
	(void)eng;
	jobs_kick(container_of(ev, struct jobs, retry));
}

/* Place job on entry g (which has room); false if a launch was refused (the entry backs off): all or nothing
 * (SOURCES.md [jobs-gang-launch]). */
static bool place(struct jobs *j, struct job *job, int g)
{
	struct fleet_group *grp = &j->fleet->group[g];
	int n = job->spec->instances;

	job->group = g;
	job->held_since_us = j->eng->now_us;
	jobs_teams_take(j, job);
	if (jobs_self_managed(grp)) {
		for (int i = grp->first; i < grp->first + grp->max && job->nheld < n; i++)
			if (idle(j, i))
				hold(j, job, i);
		jobs_update_policy(j, job);
		jobs_restart(j, job);
		return true;
	}
	if (!fleet_launch_gang(j->fleet, grp, n, j->gang)) {
		job->group = -1;
		return false;
	}
	for (int k = 0; k < n; k++)
		hold(j, job, j->gang[k]);
	job->state = JOB_LAUNCHING;
	jobs_update_policy(j, job);
	return true;
}

/* Walk the queue again when the first backoff of an entry a waiting job wanted expires. */
static void retry_when_backoff_ends(struct jobs *j)
{
	int64_t t = INT64_MAX;

	for (int g = 0; g < j->fleet->ngroups; g++)
		if ((j->blocked & (UINT64_C(1) << g)) && j->fleet->group[g].retry_us > j->eng->now_us &&
		    j->fleet->group[g].retry_us < t)
			t = j->fleet->group[g].retry_us;
	if (t != INT64_MAX && (!evq_queued(&j->retry) || j->retry.t_us > t))
		jobs_schedule(j, &j->retry, t, on_retry);
}

/* Try to place job now: true if it was placed (and left the queue); otherwise the entries it wanted block
 * the jobs behind it in this walk (no backfilling). */
bool jobs_try(struct jobs *j, struct job *job)
{
	int g;

	j->tried = 0;
	g = j->policy->choose(j, job);
	if (g >= 0 && place(j, job, g)) {
		jobs_dequeue(j, job);
		return true;
	}
	if (g >= 0)
		j->tried |= UINT64_C(1) << g;
	job->wanted_plan = (j->tried & j->plans) != 0;
	j->blocked |= j->tried;
	return false;
}

/* Walk the queue once (jobs.h, "Queue"); with teams, jobs_teams.c walks it. */
static void on_kick(struct engine *eng, struct event *ev)
{
	struct jobs *j = container_of(ev, struct jobs, kick);
	int k = 0;

	(void)eng;
	j->blocked = 0;
	if (j->team) {
		jobs_teams_walk(j);
	} else {
		while (k < j->nqueued)
			k += !jobs_try(j, &j->job[j->queue[k]]);
	}
	retry_when_backoff_ends(j);
}
