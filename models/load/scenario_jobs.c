/*
 * scenario_jobs: the jobs half of the scenario loader (see scenario_load.h and scenario.h): the `jobs`
 * section (policy, failures, the list of jobs; the CSV of `jobs.trace` is read by scenario_jobfile.c), a
 * fleet entry's `use` and `serving_hours`, and whether the scenario has traffic at all.
 *
 * A job's instances all come from one fleet entry (gang scheduling), so a job that needs more instances
 * than the largest entry its policy can use would wait forever: it is refused while loading, naming the job
 * and that entry. Jobs are few (a campaign, not a request stream), so the list and the trace's rows are
 * held whole in l->sc.jobs.list, then sorted by submission (stable: the list's order, then the trace's,
 * breaks ties).
 *
 * `jobs.managed_spot: true` makes the jobs SageMaker managed Spot training jobs (policy spot and provider aws
 * only); a list item's `max_wait` (not a CSV column) needs it and must cover the job's failure-free run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_load.h"
#include "status.h"
#include "units.h"

#define MAX_FAILURES_PER_H 100.0              /* a sanity bound on node failures per instance-hour */
#define FAILURES_PER_GPU_H 1.97e-5            /* Llama 3's rate (SOURCES.md [llama3-failures]) */
#define DEFAULT_REPLACEMENT_US (600 * S_US)   /* an assumption (SOURCES.md [jobs-replacement]) */
#define DEFAULT_RESTART_DELAY_US (3600 * S_US)  /* an assumption (SOURCES.md [jobs-restart-delay]) */
#define DEFAULT_MAX_PENDING_US (2 * DAY_US)   /* a training plan's pending limit (SOURCES.md [tp-pending-2d]) */
#define SHARE_NOTICE_US (120 * S_US)         /* jobs leaving a shared reservation (SOURCES.md [share-by-hours]) */

static const char *const jobs_keys[] = { "policy", "switch_margin", "max_pending", "failures", "list", "trace",
	"teams", "priority_classes", "fair_share", "managed_spot", NULL };
static const char *const failure_keys[] = { "per_instance_hour", "recovery", "replacement", "restart_delay",
	NULL };
/* a list item's keys: the CSV's, then the team-share ones (scenario_teams.c) */
static const char *const job_list_keys[] = { "name", "instances", "work_instance_hours", "submit", "deadline",
	"checkpoint_interval", "checkpoint_cost", "restart_overhead", "priority", "team", "priority_class",
	"max_wait", NULL };
static const char *const recovery_names[] = { "automatic", "none" };
static const char *const use_names[] = { "serving", "jobs", "shared" };
static const char *const bools[] = { "false", "true" };

static const struct yamldoc_bounds failure_bounds = { 0, MAX_FAILURES_PER_H, false, false };

/* ---- traffic and a fleet entry's use ------------------------------------------------------------- */

int scenario_load_traffic(struct load *l)
{
	struct yamldoc_ref jobs, workload;
	int rc;

	yamldoc_child(&l->root, "jobs", &jobs);
	yamldoc_child(&l->root, "workload", &workload);
	l->sc.no_traffic = jobs.node && !workload.node;
	if (!l->sc.no_traffic)
		return STATUS_OK;
	if ((rc = scenario_load_only_with(l, &l->root, "slo", "workload")))
		return rc;
	return scenario_load_only_with(l, &l->root, "autoscaling", "workload");
}

/* Options whose instances may be shared by time of day (the training_plan option shares too). */
static bool can_share(enum option_kind k)
{
	return k == OPTION_CAPACITY_BLOCK || k == OPTION_TRAINING_PLAN;
}

/* "HH:MM" at s (5 characters) in seconds of the day; -1 when it is not a time from 00:00 to 23:59. */
static int clock_s(const char *s)
{
	for (int i = 0; i < 5; i++)
		if (i == 2 ? s[i] != ':' : (s[i] < '0' || s[i] > '9'))
			return -1;
	int h = (s[0] - '0') * 10 + (s[1] - '0'), m = (s[3] - '0') * 10 + (s[4] - '0');
	return h < 24 && m < 60 ? (h * 60 + m) * 60 : -1;
}

/* `serving_hours: "HH:MM-HH:MM"`: from != to, wrapping midnight when to < from. */
static int read_serving_hours(struct load *l, const struct yamldoc_ref *r, struct fleet_entry *f)
{
	const char *expect = "hours as \"HH:MM-HH:MM\" (UTC, from 00:00 to 23:59, the two different; \"20:00-08:00\" "
			     "wraps midnight)", *s;
	int rc;

	if ((rc = yamldoc_scalar(&l->y, r, expect, &s)))
		return rc;
	if (strlen(s) != 11 || s[5] != '-' || clock_s(s) < 0 || clock_s(s + 6) < 0 || clock_s(s) == clock_s(s + 6))
		return yamldoc_bad(&l->y, r, expect);
	f->serving_from_s = clock_s(s);
	f->serving_to_s = clock_s(s + 6);
	return STATUS_OK;
}

int scenario_load_use(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref r, hours;
	int use = USE_SERVING, rc;

	yamldoc_child(e, "use", &r);
	if ((rc = yamldoc_choice(&l->y, &r, use_names, 3, &use)))
		return rc;
	f->use = (enum fleet_use)use;
	if (f->use == USE_SHARED && !can_share(f->option))
		return yamldoc_fail(&l->y, &r, "use: shared applies only to capacity_block and training_plan "
					  "entries (shared by time of day); expected serving or jobs");
	yamldoc_child(e, "notice_s", &r);
	if (r.node && f->use != USE_SHARED && f->option != OPTION_SPOT)
		return yamldoc_fail(&l->y, &r, "notice_s applies to a %s entry only with use: shared (the "
					  "notice jobs get when serving's hours begin); expected use: shared too, or no "
					  "notice_s", option_kind_name(f->option));
	yamldoc_child(e, "serving_hours", &hours);
	if (hours.node && f->use != USE_SHARED)
		return yamldoc_fail(&l->y, &hours, "serving_hours applies only with use: shared; expected "
					  "use: shared too, or no serving_hours");
	if (f->use != USE_SHARED)
		return STATUS_OK;
	if (!hours.node)
		return yamldoc_missing(&l->y, e, "serving_hours", "with use: shared, the UTC hours in which "
					     "serving has the instances, such as \"08:00-20:00\"");
	if ((rc = read_serving_hours(l, &hours, f)))
		return rc;
	/* the notice jobs get when serving's hours begin (SOURCES.md [share-by-hours]) */
	f->share_notice_us = SHARE_NOTICE_US;
	yamldoc_child(e, "notice_s", &r);
	return scenario_load_duration(l, &r, 0, false, 3600 * S_US, &f->share_notice_us);
}

/* ---- the section's checks against the fleet ---------------------------------------------------------- */

/*
 * A jobs section needs an entry for jobs, and each policy its kind: on_demand an on_demand entry, spot a spot
 * entry, deadline_spot and uniform_progress both, reserved_first any. An entry for jobs that the policy never
 * uses is paid for nothing, so it is worth a warning.
 */
static bool both(enum job_policy p)
{
	return p == JOB_POLICY_DEADLINE_SPOT || p == JOB_POLICY_UNIFORM_PROGRESS || p == JOB_POLICY_ADAPTIVE_PROGRESS;
}

static int check_fleet(struct load *l, const struct yamldoc_ref *jobs, const struct yamldoc_ref *policy)
{
	const struct scenario *sc = &l->sc;
	const struct yamldoc_ref *at = policy->node ? policy : jobs;
	bool any = false, od = false, spot = false;
	int rc;

	for (int i = 0; i < sc->nfleet; i++) {
		const struct fleet_entry *f = &sc->fleet[i];
		if (f->use == USE_SERVING)
			continue;
		any = true;
		od |= f->option == OPTION_ON_DEMAND;
		spot |= f->option == OPTION_SPOT;
	}
	if (!any)
		return yamldoc_fail(&l->y, jobs, "no fleet entry is for jobs; expected at least one entry with "
					  "use: jobs (or use: shared)");
	if ((sc->jobs.policy == JOB_POLICY_ON_DEMAND || both(sc->jobs.policy)) && !od)
		return yamldoc_fail(&l->y, at, "policy %s needs an on_demand fleet entry with use: jobs; "
					  "expected one, or another policy", scenario_load_job_policy_names.names[sc->jobs.policy]);
	if ((sc->jobs.policy == JOB_POLICY_SPOT || both(sc->jobs.policy)) && !spot)
		return yamldoc_fail(&l->y, at, "policy %s needs a spot fleet entry with use: jobs; expected "
					  "one, or another policy", scenario_load_job_policy_names.names[sc->jobs.policy]);
	for (int i = 0; i < sc->nfleet; i++) {
		const struct fleet_entry *f = &sc->fleet[i];
		if (f->use != USE_SERVING && !scenario_jobs_usable(sc->jobs.policy, f) &&
		    (rc = scenario_load_warn(l, at, "fleet entry %d (%s, use: %s) is never used by jobs.policy %s",
					     l->fleet_item[i] + 1, option_kind_name(f->option), use_names[f->use],
					     scenario_load_job_policy_names.names[sc->jobs.policy])))
			return rc;
	}
	return STATUS_OK;
}

/* ---- jobs.list ------------------------------------------------------------------------------------ */

/* `submit` or `deadline` at r (present) into *out_us; what: "the scenario start" or "submit". */
static int read_when(struct load *l, const struct yamldoc_ref *r, int64_t base_us, const char *what,
		     int64_t *out_us)
{
	char expect[160];
	const char *s;
	int rc;

	snprintf(expect, sizeof expect, "a UTC time such as 2026-01-01T06:00:00Z, or a duration after %s such as "
		 "6h", what);
	if ((rc = yamldoc_scalar(&l->y, r, expect, &s)))
		return rc;
	if (!scenario_jobs_when(l, s, base_us, out_us))
		return yamldoc_bad(&l->y, r, expect);
	return STATUS_OK;
}

/* The durations of a job and its priority. */
static int read_job_timing(struct load *l, const struct yamldoc_ref *e, struct job_spec *j)
{
	const char *keys[] = { "checkpoint_interval", "checkpoint_cost", "restart_overhead" };
	int64_t *out[] = { &j->ckpt_interval_us, &j->ckpt_cost_us, &j->restart_us };
	struct yamldoc_ref r;
	int rc;

	for (int i = 0; i < 3; i++) {
		yamldoc_child(e, keys[i], &r);
		if ((rc = scenario_load_duration(l, &r, 0, false, MAX_JOB_US, out[i])))
			return rc;
	}
	yamldoc_child(e, "priority", &r);
	if ((rc = scenario_load_int(l, &r, -MAX_PRIORITY, MAX_PRIORITY, &j->priority)))
		return rc;
	return scenario_load_job_team(l, e, j);
}

/* When the job is submitted and due, checked; a job submitted at or after the horizon is a warning. */
static int read_job_times(struct load *l, const struct yamldoc_ref *e, struct job_spec *j)
{
	struct yamldoc_ref r;
	char msg[DIAG_MSG_MAX], at[32];
	int rc;

	if ((rc = scenario_load_required(l, e, "submit", "when the job is submitted: a UTC time, or a duration "
					 "after the scenario start", &r)) ||
	    (rc = read_when(l, &r, 0, "the scenario start", &j->submit_us)))
		return rc;
	if (!scenario_jobs_submit_ok(l, j, msg, sizeof msg))
		return yamldoc_fail(&l->y, &r, "%s", msg);
	if (j->submit_us >= l->sc.horizon_us &&
	    (rc = scenario_load_warn(l, &r, "job '%s' is submitted at %s, at or after the horizon; it never runs",
				     j->name, scenario_jobs_utc(l, j->submit_us, at))))
		return rc;
	yamldoc_child(e, "deadline", &r);
	if (!r.node)
		return STATUS_OK;
	if ((rc = read_when(l, &r, j->submit_us, "submit", &j->deadline_us)))
		return rc;
	if (!scenario_jobs_deadline_ok(l, j, msg, sizeof msg))
		return yamldoc_fail(&l->y, &r, "%s", msg);
	return STATUS_OK;
}

/* The time job j runs with nothing going wrong: restart_overhead + T + checkpoint_cost x (ceil(T / interval) -
 * 1), T = work / instances (as jobs.c counts it). */
static int64_t run_us(const struct job_spec *j)
{
	int64_t t = llround(j->work_h / j->instances * (double)(3600 * S_US)), every = j->ckpt_interval_us;

	return j->restart_us + t + (every > 0 ? ((t + every - 1) / every - 1) * j->ckpt_cost_us : 0);
}

/*
 * `max_wait` (SageMaker's MaxWaitTimeInSeconds; SOURCES.md [sm-managed-spot]): only with jobs.managed_spot,
 * a duration after submit, and at least the time the job runs with nothing going wrong: a shorter one could
 * never let it complete (AWS asks for MaxWait >= MaxRuntime, and a job's runtime is at least that).
 */
static int read_max_wait(struct load *l, const struct yamldoc_ref *e, struct job_spec *j)
{
	struct yamldoc_ref r;
	int rc;

	yamldoc_child(e, "max_wait", &r);
	if (!r.node)
		return STATUS_OK;
	if (!l->sc.jobs.managed_spot)
		return yamldoc_fail(&l->y, &r, "max_wait applies only with jobs.managed_spot: true (a managed Spot "
					  "training job's MaxWaitTimeInSeconds); expected managed_spot too, or no max_wait");
	if ((rc = scenario_load_duration(l, &r, 0, true, MAX_JOB_US, &j->max_wait_us)))
		return rc;
	if (j->max_wait_us >= run_us(j))
		return STATUS_OK;
	return yamldoc_fail(&l->y, &r, "job '%s' has max_wait %.6g h, shorter than it runs with nothing going "
				  "wrong (restart_overhead + compute + checkpoints: %.6g h), so it could never complete; "
				  "expected at least %.6g h", j->name, (double)j->max_wait_us / (3600 * S_US),
				  (double)run_us(j) / (3600 * S_US), (double)run_us(j) / (3600 * S_US));
}

/* Item `index` (from 0) of jobs.list at e. */
static int read_job(struct load *l, const struct yamldoc_ref *e, int index, struct job_spec *j)
{
	struct yamldoc_ref r;
	char msg[DIAG_MSG_MAX];
	int rc;

	*j = (struct job_spec){ .deadline_us = INT64_MAX };
	yamldoc_where(e, &j->line, &j->col);
	snprintf(j->name, sizeof j->name, "job-%d", index + 1);
	if ((rc = yamldoc_mapping(&l->y, e, job_list_keys, NULL, NULL)))
		return rc;
	yamldoc_child(e, "name", &r);
	if ((rc = yamldoc_string(&l->y, &r, j->name, sizeof j->name)) ||
	    (rc = scenario_load_required(l, e, "instances", "the instances the job needs at once", &r)) ||
	    (rc = scenario_load_int(l, &r, 1, MAX_INSTANCES, &j->instances)))
		return rc;
	if (!scenario_jobs_fit_ok(l, j, msg, sizeof msg))
		return yamldoc_fail(&l->y, &r, "%s", msg);
	if ((rc = scenario_load_required(l, e, "work_instance_hours", "the compute the job needs, in "
					 "instance-hours", &r)) ||
	    (rc = yamldoc_number(&l->y, &r, scenario_load_work, &j->work_h)) ||
	    (rc = read_job_times(l, e, j)) || (rc = read_job_timing(l, e, j)))
		return rc;
	return read_max_wait(l, e, j);
}

static int read_list(struct load *l, const struct yamldoc_ref *jobs)
{
	struct yamldoc_ref list, e;
	struct job_spec j;
	int n, rc;

	yamldoc_child(jobs, "list", &list);
	if (!list.node)
		return STATUS_OK;
	if ((rc = yamldoc_list(&l->y, &list, 1, MAX_JOBS, "jobs such as '- {instances: 8, "
				     "work_instance_hours: 240, submit: 6h}'", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_item(&list, &walk, &e);
		if ((rc = read_job(l, &e, i, &j)) || (rc = scenario_jobs_append(l, &e, &j)))
			return rc;
	}
	return STATUS_OK;
}

/* ---- the section ---------------------------------------------------------------------------------- */

/* `jobs.failures`: node failures per instance-hour (default from the GPUs) and how a job recovers. */
static int read_failures(struct load *l, const struct yamldoc_ref *jobs)
{
	struct scenario_jobs *sj = &l->sc.jobs;
	struct yamldoc_ref fl, r;
	int recovery = 0, rc;

	sj->failures_per_instance_h = FAILURES_PER_GPU_H * l->type.gpus;
	sj->replacement_us = DEFAULT_REPLACEMENT_US;
	sj->restart_delay_us = DEFAULT_RESTART_DELAY_US;
	yamldoc_child(jobs, "failures", &fl);
	if ((rc = yamldoc_mapping(&l->y, &fl, failure_keys, NULL, NULL)))
		return rc;
	yamldoc_child(&fl, "per_instance_hour", &r);
	if ((rc = yamldoc_number(&l->y, &r, &failure_bounds, &sj->failures_per_instance_h)))
		return rc;
	yamldoc_child(&fl, "recovery", &r);
	if ((rc = yamldoc_choice(&l->y, &r, recovery_names, 2, &recovery)))
		return rc;
	sj->auto_resume = recovery == 0;
	yamldoc_child(&fl, "replacement", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, MAX_JOB_US, &sj->replacement_us)))
		return rc;
	yamldoc_child(&fl, "restart_delay", &r);
	return scenario_load_duration(l, &r, 0, false, MAX_JOB_US, &sj->restart_delay_us);
}

/* Stable sort of list[0..n) by submit_us, through tmp (n entries): a bottom-up merge sort. */
static void sort_by_submit(struct job_spec *list, struct job_spec *tmp, int n)
{
	struct job_spec *from = list, *to = tmp, *swap;

	for (int w = 1; w < n; w *= 2) {
		for (int lo = 0; lo < n; lo += 2 * w) {
			int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			int a = lo, b = mid, o = lo;
			while (a < mid || b < hi)
				to[o++] = b >= hi || (a < mid && from[a].submit_us <= from[b].submit_us) ? from[a++] :
					  from[b++];
		}
		swap = from;
		from = to;
		to = swap;
	}
	if (from != list)
		memcpy(list, from, (size_t)n * sizeof *list);
}

static int sort_jobs(struct load *l)
{
	struct job_spec *tmp;

	if (l->sc.jobs.n < 2)
		return STATUS_OK;
	tmp = malloc((size_t)l->sc.jobs.n * sizeof *tmp);
	if (!tmp)
		return diag_at(l->y.d, STATUS_ENOMEM, l->y.label, 0, 0, "out of memory sorting the jobs");
	sort_by_submit(l->sc.jobs.list, tmp, l->sc.jobs.n);
	free(tmp);
	return STATUS_OK;
}

/* The policy and its timing keys. */
static int read_policy(struct load *l, const struct yamldoc_ref *jobs, struct yamldoc_ref *policy)
{
	struct yamldoc_ref r;
	int p = JOB_POLICY_ON_DEMAND, rc;

	yamldoc_child(jobs, "policy", policy);
	if ((rc = yamldoc_choice(&l->y, policy, scenario_load_job_policy_names.names,
				 scenario_load_job_policy_names.n, &p)))
		return rc;
	l->sc.jobs.policy = (enum job_policy)p;
	yamldoc_child(jobs, "switch_margin", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, MAX_JOB_US, &l->sc.jobs.switch_margin_us)))
		return rc;
	l->sc.jobs.max_pending_us = DEFAULT_MAX_PENDING_US;
	yamldoc_child(jobs, "max_pending", &r);
	return scenario_load_duration(l, &r, 0, true, MAX_JOB_US, &l->sc.jobs.max_pending_us);
}

/*
 * `jobs.managed_spot` (SOURCES.md [sm-managed-spot]): the jobs are SageMaker managed Spot training jobs, so
 * only with policy spot (SageMaker runs them on Spot capacity alone) and provider aws.
 */
static int read_managed_spot(struct load *l, const struct yamldoc_ref *jobs)
{
	struct yamldoc_ref r;
	int on = 0, rc;

	yamldoc_child(jobs, "managed_spot", &r);
	if ((rc = yamldoc_choice(&l->y, &r, bools, 2, &on)))
		return rc;
	l->sc.jobs.managed_spot = on == 1;
	if (!l->sc.jobs.managed_spot)
		return STATUS_OK;
	if (l->sc.jobs.policy != JOB_POLICY_SPOT)
		return yamldoc_fail(&l->y, &r, "managed_spot (SageMaker managed Spot training) runs jobs on Spot "
					  "only; expected jobs.policy: spot, or no managed_spot");
	if (l->sc.provider != PROVIDER_AWS)
		return yamldoc_fail(&l->y, &r, "managed_spot is SageMaker's, on aws; expected provider aws, or no "
					  "managed_spot");
	return STATUS_OK;
}

int scenario_load_jobs(struct load *l)
{
	struct yamldoc_ref jobs, policy, list, trace;
	int rc;

	yamldoc_child(&l->root, "jobs", &jobs);
	if (!jobs.node)
		return STATUS_OK;
	if ((rc = yamldoc_mapping(&l->y, &jobs, jobs_keys, NULL, NULL)) ||
	    (rc = read_policy(l, &jobs, &policy)) || (rc = read_managed_spot(l, &jobs)) ||
	    (rc = read_failures(l, &jobs)) ||
	    (rc = check_fleet(l, &jobs, &policy)) || (rc = scenario_load_teams(l, &jobs)))
		return rc;
	yamldoc_child(&jobs, "list", &list);
	yamldoc_child(&jobs, "trace", &trace);
	if (!list.node && !trace.node)
		return yamldoc_missing(&l->y, &jobs, "list", "the jobs: a list, or a CSV file under trace, "
					     "or both");
	if ((rc = read_list(l, &jobs)))
		return rc;
	if (trace.node && ((rc = scenario_load_path(l, &trace, l->sc.jobs.trace)) ||
			   (rc = scenario_load_jobfile(l, &trace))))
		return rc;
	return sort_jobs(l);
}

/* ---- tables shared with the schema (scenario_load.h) --------------------------------------------- */

const struct scenario_load_names scenario_load_jobs_keys = SCENARIO_LOAD_KEYS(jobs_keys);
const struct scenario_load_names scenario_load_failure_keys = SCENARIO_LOAD_KEYS(failure_keys);
const struct scenario_load_names scenario_load_job_list_keys = SCENARIO_LOAD_KEYS(job_list_keys);
const struct scenario_load_names scenario_load_recovery_names = SCENARIO_LOAD_NAMES(recovery_names);
const struct scenario_load_names scenario_load_use_names = SCENARIO_LOAD_NAMES(use_names);
const struct yamldoc_bounds *const scenario_load_failure_rate = &failure_bounds;
