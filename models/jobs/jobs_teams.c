/*
 * jobs_teams: team shares of the jobs entries, as SageMaker HyperPod task governance (built on Kueue)
 * documents them (models/README.md, "Team shares"; SOURCES.md [hp-quota] .. [hp-preempt-priority]).
 *
 * Each team t has a quota q_t (instances of the jobs entries), a fair-share weight w_t, a lending mode and a
 * borrow limit. used_t is the instances its jobs hold (from placing to releasing, launching included);
 * borrowed_t = max(0, used_t - q_t). A team lends unless dont_lend; it borrows only with lend_and_borrow.
 *   lendable L = sum over lending teams of max(0, q_l - used_l)   (idle quota of lenders)
 *   B = sum over teams of borrowed_t                              (held beyond quotas)
 * and the walk keeps B <= L. A team may borrow at most cap_t = floor(q_t x borrow_limit / 100) instances
 * (the limit is read as a percent of the team's own quota, Kueue's borrowingLimit; an assumption).
 *
 * The walk (instead of jobs_queue.c's plain one), over the queue as it stood when the walk began:
 *  1. preemption, in queue order, each waiting job J of team t (n instances) treated as admitted once
 *     examined: if used_t + n <= q_t (J fits its own quota) and B > L once J's instances are counted, the
 *     borrowers give it back: the borrowing team with the largest borrowed_v / w_v (weight 0 first) loses
 *     its lowest-priority, most recently placed job, again until B <= L (reclaim); otherwise, if J can
 *     neither fit its quota nor borrow, and the team's running jobs of lower priority hold enough that
 *     J would fit its quota without them, they are preempted lowest priority first, most recently placed
 *     first, until it does (PreemptTeamTasks LowerPriority). Equal priorities never preempt each other.
 *  2. own quota: in queue order, each job that fits its team's quota is placed (the policy's entry).
 *  3. borrowing: among waiting jobs whose team may borrow them (lend_and_borrow, borrowed_t after <= cap_t,
 *     B after <= L), fair_share true takes the job of the team with the smallest borrowed_t-after / w_t
 *     (weight 0 only when no weighted team can; ties: the larger weight, then the earlier team), each
 *     team's first such job in queue order; fair_share false takes the first such job in queue order.
 *     Repeat until none can be placed.
 * A preempted job loses the work since its last checkpoint and queues again (jobs_preempt); it resumes
 * from that checkpoint when it is placed again. Borrowers never preempt one another.
 *
 * The quotas are accounting: the jobs entries must hold their sum (physical room is still the entries'
 * own, jobs_room); a preempted job's instances are free at once on self-managed entries (reserved,
 * Capacity Blocks, training plans), while on other entries they terminate and the lender launches new ones.
 */
#include "jobs.h"
#include "jobs_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

static const struct job_team *spec(const struct jobs *j, int t)
{
	return &j->sc->jobs.teams[t];
}

static int borrowed(const struct jobs *j, int t, int used)
{
	return used > spec(j, t)->quota ? used - spec(j, t)->quota : 0;
}

static int cap(const struct jobs *j, int t)
{
	const struct job_team *s = spec(j, t);

	return s->lending == TEAM_LEND_AND_BORROW ? s->quota * s->borrow_limit_pct / 100 : 0;
}

/* Team t's use counting extra more instances (the others as they are). */
static int use(const struct jobs *j, int t, int t_extra, int extra)
{
	return j->team[t].used + (t == t_extra ? extra : 0);
}

/* L with team tx holding extra more (see above). */
static int lendable(const struct jobs *j, int tx, int extra)
{
	int sum = 0;

	for (int t = 0; t < j->sc->jobs.nteams; t++)
		if (spec(j, t)->lending != TEAM_DONT_LEND && use(j, t, tx, extra) < spec(j, t)->quota)
			sum += spec(j, t)->quota - use(j, t, tx, extra);
	return sum;
}

/* B with team tx holding extra more. */
static int total_borrowed(const struct jobs *j, int tx, int extra)
{
	int sum = 0;

	for (int t = 0; t < j->sc->jobs.nteams; t++)
		sum += borrowed(j, t, use(j, t, tx, extra));
	return sum;
}

/* May team t take n more instances (extra already counted as reserved) within its quota or by borrowing? */
static bool fits_own(const struct jobs *j, int t, int extra, int n)
{
	return j->team[t].used + extra + n <= spec(j, t)->quota;
}

static bool can_borrow(const struct jobs *j, int t, int extra, int n)
{
	return borrowed(j, t, j->team[t].used + extra + n) <= cap(j, t) &&
	       total_borrowed(j, t, extra + n) <= lendable(j, t, extra + n);
}

/* ---- use over time ---------------------------------------------------------------------------------- */

/* Integrate borrowed_t up to now (or the horizon). */
static void accrue(struct jobs *j)
{
	int64_t now = j->eng->now_us < j->horizon_us ? j->eng->now_us : j->horizon_us;

	if (now <= j->team_since_us)
		return;
	for (int t = 0; t < j->sc->jobs.nteams; t++)
		j->team[t].borrowed_inst_us += (double)borrowed(j, t, j->team[t].used) * (double)(now - j->team_since_us);
	j->team_since_us = now;
}

void jobs_teams_take(struct jobs *j, struct job *job)
{
	if (!j->team || job->counted)
		return;
	accrue(j);
	j->team[job->spec->team].used += job->spec->instances;
	job->counted = true;
}

void jobs_teams_drop(struct jobs *j, struct job *job)
{
	if (!j->team || !job->counted)
		return;
	accrue(j);
	j->team[job->spec->team].used -= job->spec->instances;
	job->counted = false;
}

void jobs_teams_held(struct jobs *j, const struct job *job, double inst_us)
{
	if (j->team)
		j->team[job->spec->team].held_inst_us += inst_us;
}

void jobs_teams_close(struct jobs *j, int64_t horizon_us)
{
	(void)horizon_us;
	if (j->team)
		accrue(j);
}

int jobs_teams_init(struct jobs *j)
{
	if (j->sc->jobs.nteams == 0)
		return STATUS_OK;
	j->team = calloc((size_t)j->sc->jobs.nteams, sizeof *j->team);
	j->snap = malloc(sizeof *j->snap * (size_t)(j->n > 0 ? j->n : 1));
	if (!j->team || !j->snap)
		return STATUS_ENOMEM;
	return STATUS_OK;
}

void jobs_teams_fini(struct jobs *j)
{
	free(j->team);
	free(j->snap);
	j->team = NULL;
	j->snap = NULL;
}

/* ---- preemption --------------------------------------------------------------------------------------- */

/* A job that holds instances and may be preempted (not already leaving). */
static bool running(const struct job *job)
{
	return job->counted && job->state != JOB_LEAVING;
}

/* Of team t's running jobs with priority below `below`, the one to preempt first: lowest priority, then
 * most recently placed, then the later row; NULL if none. O(jobs), fine: preemptions are rare. */
static struct job *victim(struct jobs *j, int t, int below)
{
	struct job *best = NULL;

	for (int i = 0; i < j->n; i++) {
		struct job *c = &j->job[i];
		if (c->spec->team != t || !running(c) || c->spec->priority >= below)
			continue;
		if (!best || c->spec->priority < best->spec->priority ||
		    (c->spec->priority == best->spec->priority && c->held_since_us >= best->held_since_us))
			best = c;
	}
	return best;
}

/* The borrowing team to reclaim from first: the largest borrowed_v / w_v (weight 0: infinite), ties the
 * smaller weight, then the later team; -1 if no team other than t borrows. */
static int most_over(const struct jobs *j, int t)
{
	int best = -1;
	double best_share = -1;

	for (int v = 0; v < j->sc->jobs.nteams; v++) {
		int b = borrowed(j, v, j->team[v].used);
		double share = spec(j, v)->weight ? (double)b / spec(j, v)->weight : INFINITY;
		if (v == t || b == 0)
			continue;
		if (best < 0 || share > best_share ||
		    (share == best_share && spec(j, v)->weight <= spec(j, best)->weight)) {
			best = v;
			best_share = share;
		}
	}
	return best;
}

/* J (team t, n instances, resv of its team already treated as admitted) fits its quota: reclaim what
 * borrowers hold of the lenders' idle quota until B <= L (SOURCES.md [hp-reclaim]). */
static void reclaim(struct jobs *j, int t, int extra)
{
	while (total_borrowed(j, t, extra) > lendable(j, t, extra)) {
		int v = most_over(j, t);
		struct job *c = v >= 0 ? victim(j, v, INT32_MAX) : NULL;
		if (!c)
			return;
		j->team[v].preempted++;
		jobs_preempt(j, c, "borrowed capacity reclaimed by its lender");
	}
}

/* J (team t, priority prio, n instances) can neither fit nor borrow: preempt the team's lower priorities if
 * that makes it fit its quota (SOURCES.md [hp-preempt-priority]); true if it did. */
static bool by_priority(struct jobs *j, int t, int extra, int n, int prio)
{
	int lower = 0;

	for (int i = 0; i < j->n; i++)
		if (j->job[i].spec->team == t && running(&j->job[i]) && j->job[i].spec->priority < prio)
			lower += j->job[i].spec->instances;
	if (!fits_own(j, t, extra - lower, n))
		return false;
	while (!fits_own(j, t, extra, n)) {
		struct job *c = victim(j, t, prio);
		j->team[t].preempted++;
		jobs_preempt(j, c, "preempted by a higher priority of its team");
	}
	return true;
}

static void preempt_phase(struct jobs *j, int n)
{
	int resv[JOB_TEAMS_MAX] = { 0 };

	for (int k = 0; k < n; k++) {
		struct job *job = &j->job[j->snap[k]];
		int t = job->spec->team, need = job->spec->instances;
		if (job->state != JOB_QUEUED)
			continue;
		if (fits_own(j, t, resv[t], need)) {
			reclaim(j, t, resv[t] + need);
			resv[t] += need;
		} else if (!can_borrow(j, t, resv[t], need) &&
			   by_priority(j, t, resv[t], need, job->spec->priority)) {
			resv[t] += need;
		}
	}
}

/* ---- the walk ---------------------------------------------------------------------------------------- */

/* Is a over b in the fair-share order of step 3 (a smaller borrowed-after / weight first)? */
static bool fairer(const struct jobs *j, int a, int ba, int b, int bb)
{
	int wa = spec(j, a)->weight, wb = spec(j, b)->weight;

	if ((wa == 0) != (wb == 0))
		return wa != 0;
	if (wa == 0)
		return ba < bb || (ba == bb && a < b);
	/* ba / wa < bb / wb, in integers */
	if ((long)ba * wb != (long)bb * wa)
		return (long)ba * wb < (long)bb * wa;
	return wa > wb || (wa == wb && a < b);
}

/* The next job to place by borrowing (step 3), or NULL. */
static struct job *next_borrower(struct jobs *j, int n)
{
	struct job *head[JOB_TEAMS_MAX] = { NULL };
	int best = -1, after[JOB_TEAMS_MAX] = { 0 };

	for (int k = 0; k < n; k++) {
		struct job *job = &j->job[j->snap[k]];
		int t = job->spec->team, need = job->spec->instances;
		if (job->state != JOB_QUEUED || job->passed || head[t] || fits_own(j, t, 0, need) ||
		    !can_borrow(j, t, 0, need))
			continue;
		if (!j->sc->jobs.fair_share)
			return job; /* first come, first served */
		head[t] = job;
		after[t] = borrowed(j, t, j->team[t].used + need);
	}
	for (int t = 0; t < j->sc->jobs.nteams; t++)
		if (head[t] && (best < 0 || fairer(j, t, after[t], best, after[best])))
			best = t;
	return best >= 0 ? head[best] : NULL;
}

void jobs_teams_walk(struct jobs *j)
{
	int n = j->nqueued;
	struct job *job;

	memcpy(j->snap, j->queue, sizeof *j->snap * (size_t)n);
	for (int k = 0; k < n; k++)
		j->job[j->snap[k]].passed = false;
	preempt_phase(j, n);
	for (int k = 0; k < n; k++) {
		job = &j->job[j->snap[k]];
		if (job->state == JOB_QUEUED && fits_own(j, job->spec->team, 0, job->spec->instances) &&
		    !jobs_try(j, job))
			job->passed = true;
	}
	while ((job = next_borrower(j, n)))
		if (!jobs_try(j, job))
			job->passed = true;
}
