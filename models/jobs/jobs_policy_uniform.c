/*
 * jobs_policy_uniform: uniform_progress, the Uniform Progress policy of "Can't Be Late" (Wu et al., NSDI
 * 2024, §5.2; SOURCES.md [cant-be-late-up]).
 *
 * For a job with a deadline, submitted at t0 with deadline D, compute T (jobs.h) and the changeover delay
 * d = jobs_restart_cost_us (the first On-Demand jobs entry's mean launch delay + the restart overhead):
 *   ep(t) = T (t - t0) / (D - t0), the progress on the straight line from submission to deadline;
 *   cp(t) = the progress made (jobs_progress_us: p while computing, the saved s otherwise);
 *   slack  = D - t - C(t), with C(t) the compute and checkpoints still needed from s (jobs_remaining_us).
 * Spot is "available" when the first Spot jobs entry could launch the job's instances now (fleet_available:
 * its availability trace, pool outage and max price; what a controller polling the cloud knows) and has room
 * (jobs_room). The rules, in order:
 *  1. Safety net: a job not holding instances whose slack < 2d + jobs.switch_margin goes On-Demand to its
 *     end (jobs_switch).
 *  2. Exploitation: a job on Spot stays there until it is interrupted (it then waits in the queue).
 *  3. Hysteresis: a job on On-Demand stays there until cp(t) >= ep(t + 2d); once that holds it moves to Spot
 *     when Spot is available and slack >= 2d + margin (the safety net guards every move onto Spot, not only
 *     from idle: gpucap's reading, since a move from On-Demand costs the same d), else stays On-Demand: it
 *     leaves On-Demand only for Spot (the paper's state machine has no edge from On-Demand to idle). A job
 *     without checkpoints (checkpoint_interval 0) never leaves On-Demand: it would lose its progress. Nor
 *     does a job whose work left r is so short that Spot would not finish it for less, restart included:
 *     (d_spot + r) x Spot price >= r x On-Demand price (worth_moving; gpucap's, the paper decides at ticks).
 *  4. Taking risks: a waiting job takes Spot whenever it is available, even behind the line.
 *  5. Uniform progress: a waiting job with cp(t) < ep(t) and no Spot goes On-Demand; otherwise it waits.
 * Decisions are made when they can change: at the Spot entry's availability changes (fleet_available's
 * next change: a trace tick, an outage's end), when the waiting job falls behind the line (t0 + cp (D - t0)
 * / T), when the safety net would trip (D - C - 2d - margin) and, on On-Demand, when cp reaches ep(t + 2d)
 * at the rate it grows (1 while computing, against T / (D - t0)). The study's simulator decides once per
 * trace tick; here a crossing acts at its instant, at most a tick earlier. A job without a deadline is
 * treated as by the spot policy.
 *
 * adaptive_progress (gpucap's own; jobs_policy_adaptive) is the same state machine with another line: the
 * one that ends at (D, T) with slope a (rate below; jobs_outlook.c), ep(t) = T - a (D - t). a is
 * the larger of Uniform Progress's slope T / (D - t0) and the useful fraction of time Spot has given so far
 * (its availability trace up to now, less a restart per drop), so when the pool's history shows more Spot
 * than the job needs the line lies lower: the job waits through more of a drought before it pays for
 * On-Demand, and leaves On-Demand sooner. The safety net is the same, so no deadline the net can meet is
 * missed. On the SkyPilot AWS traces it cost 4% less regret than uniform_progress (models/README.md).
 */
#include "jobs.h"
#include "jobs_private.h"

#include <math.h>

static bool spot(const struct fleet_group *g)
{
	return g->kind == OPTION_SPOT;
}

static bool on_demand(const struct fleet_group *g)
{
	return g->kind == OPTION_ON_DEMAND;
}

/* The Spot entry if it could take the job now, else -1; *next_us: when that may change by itself. */
static int spot_now(struct jobs *j, const struct job *job, int64_t *next_us)
{
	int g = jobs_first_of(j, OPTION_SPOT);

	*next_us = INT64_MAX;
	if (g < 0 || fleet_available(j->fleet, g, next_us) < job->spec->instances)
		return -1;
	return jobs_room(j, g, job->spec->instances) ? g : -1;
}

/* The line's slope: the progress per unit of time it asks for. Uniform Progress: u = T / (D - t0), the
 * straight line from submission to deadline; adaptive_progress: the larger of u and the Spot pool's history
 * (jobs_spot_history), the line then ending at (D, T) with that slope. */
static double rate(struct jobs *j, const struct job *job)
{
	const struct job_spec *s = job->spec;
	double u = (double)job->t_us / (double)(s->deadline_us - s->submit_us), a;

	if (j->policy != &jobs_policy_adaptive)
		return u;
	a = jobs_spot_history(j, job);
	return isnan(a) || a < u ? u : a;
}

/* ep(t): the progress the line asks for at t. */
static double ep(struct jobs *j, const struct job *job, int64_t t_us)
{
	const struct job_spec *s = job->spec;

	if (j->policy == &jobs_policy_adaptive)
		return (double)job->t_us - rate(j, job) * (double)(s->deadline_us - t_us);
	return (double)job->t_us * (double)(t_us - s->submit_us) / (double)(s->deadline_us - s->submit_us);
}

/* When a job with progress p falls behind the line, waiting (its progress fixed). */
static double behind_at(struct jobs *j, const struct job *job)
{
	const struct job_spec *s = job->spec;

	if (j->policy == &jobs_policy_adaptive)
		return (double)s->deadline_us - (double)(job->t_us - job->p_us) / rate(j, job);
	return (double)s->submit_us + (double)job->p_us * (double)(s->deadline_us - s->submit_us) /
	       (double)job->t_us;
}

static int64_t slack(const struct jobs *j, const struct job *job)
{
	return job->spec->deadline_us - j->eng->now_us - jobs_remaining_us(j, job);
}

static int64_t net(const struct jobs *j, const struct job *job)
{
	return 2 * jobs_restart_cost_us(j, job) + j->sc->jobs.switch_margin_us;
}

static bool on_od(const struct jobs *j, const struct job *job)
{
	return job->group >= 0 && on_demand(&j->fleet->group[job->group]) && job->state != JOB_QUEUED;
}

static bool hysteresis_met(struct jobs *j, const struct job *job)
{
	return (double)jobs_progress_us(j, job) >= ep(j, job, j->eng->now_us + jobs_restart_cost_us(j, job) * 2);
}

static int64_t earliest(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* The earlier of t and the first microsecond after `at`, if that is still to come (a crossing already past
 * was acted on by choose(): the queue's own walks take it from there). */
static int64_t after(int64_t t, double at, int64_t now)
{
	return at >= (double)now && at + 1 < (double)t ? (int64_t)at + 1 : t;
}

/* When a waiting job next needs a decision: Spot's next change, falling behind the line, the safety net. */
static int64_t waiting_wake(struct jobs *j, const struct job *job, int64_t next_us)
{
	const struct job_spec *s = job->spec;
	int64_t now = j->eng->now_us;
	double behind = behind_at(j, job);

	next_us = after(next_us, (double)(s->deadline_us - jobs_remaining_us(j, job) - net(j, job)), now);
	return after(next_us, behind, now);
}

/* When a job on On-Demand next needs a decision: Spot's next change, and (before the hysteresis holds) when
 * cp would reach ep(t + 2d) if it computed from now on. */
static int64_t od_wake(struct jobs *j, const struct job *job, int64_t next_us)
{
	double r = rate(j, job);
	double gap = ep(j, job, j->eng->now_us + 2 * jobs_restart_cost_us(j, job)) - (double)jobs_progress_us(j, job);

	if (gap <= 0 || r >= 1)
		return next_us;
	return earliest(next_us, j->eng->now_us + 1 + (int64_t)(gap / (1 - r)));
}

/* Whether Spot entry g would finish the work left for less than On-Demand, its restart included: r, the
 * work left, with (d_spot + r) x spot < r x on-demand, at the prices now. Near its end a job stays. */
static bool worth_moving(struct jobs *j, const struct job *job, int g)
{
	double r = (double)(job->t_us - jobs_progress_us(j, job));
	double spot = jobs_entry_usd_per_h(j, g, j->eng->now_us);
	double od = jobs_entry_usd_per_h(j, job->group, j->eng->now_us);

	return r > 0 && ((double)jobs_entry_restart_us(j, g, job) + r) * spot < r * od;
}

static void on_wake(struct engine *eng, struct event *ev);

static void arm(struct jobs *j, struct job *job)
{
	int64_t next = INT64_MAX;
	int g = jobs_first_of(j, OPTION_SPOT);

	if (g >= 0)
		fleet_available(j->fleet, g, &next);
	if (job->state == JOB_QUEUED)
		jobs_schedule(j, &job->wake, waiting_wake(j, job, next), on_wake);
	else if (on_od(j, job))
		jobs_schedule(j, &job->wake, od_wake(j, job, next), on_wake);
	else
		engine_cancel(j->eng, &job->wake);  /* on Spot, launching or leaving: nothing to decide */
}

static void on_wake(struct engine *eng, struct event *ev)
{
	struct job *job = container_of(ev, struct job, wake);
	struct jobs *j = job->jobs;
	int64_t next;
	int g;

	(void)eng;
	if (job->od_only)
		return;
	if (job->state == JOB_QUEUED) {
		jobs_kick(j);  /* choose() decides */
	} else if (on_od(j, job) && job->spec->ckpt_interval_us > 0 && hysteresis_met(j, job) &&
		   slack(j, job) >= net(j, job) && (g = spot_now(j, job, &next)) >= 0 && worth_moving(j, job, g)) {
		jobs_move(j, job, "uniform progress: ahead of the line, to Spot");
		return;
	}
	arm(j, job);
}

static int choose(struct jobs *j, struct job *job)
{
	int64_t next;
	int g;

	if (job->spec->deadline_us == INT64_MAX)
		return jobs_first(j, job, spot);
	if (!job->od_only && slack(j, job) < net(j, job)) {
		engine_cancel(j->eng, &job->wake);
		jobs_switch(j, job);  /* queued: it only logs the switch */
	}
	if (job->od_only)
		return jobs_first(j, job, on_demand);
	if ((g = spot_now(j, job, &next)) >= 0)
		return g;
	if ((double)job->p_us < ep(j, job, j->eng->now_us))
		return jobs_first(j, job, on_demand);
	return -1;
}

static void update(struct jobs *j, struct job *job)
{
	if (job->spec->deadline_us == INT64_MAX || job->od_only) {
		engine_cancel(j->eng, &job->wake);
		return;
	}
	arm(j, job);
}

const struct jobs_policy_ops jobs_policy_uniform = { .choose = choose, .update = update };
const struct jobs_policy_ops jobs_policy_adaptive = { .choose = choose, .update = update };
