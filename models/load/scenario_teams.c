/*
 * scenario_teams: the team-share keys of the `jobs` section (models/README.md, "Team shares"): `jobs.teams`,
 * `jobs.priority_classes`, `jobs.fair_share`, and a job's `team` and `priority_class` (list items only; a
 * `jobs.trace` CSV has no team column, so teams and a trace are refused together).
 *
 * The numbers are HyperPod task governance's (SOURCES.md [hp-fair-share], [hp-lending], [hp-cluster-policy],
 * [hp-priority-class]): fair-share weight 0-100 (default 0), borrow limit 1-500 percent (default 50),
 * lending lend_and_borrow by default, up to 10 priority classes of weight 0-100.
 */
#include <stdio.h>
#include <string.h>

#include "scenario_load.h"
#include "status.h"

#define DEFAULT_BORROW_LIMIT_PCT 50  /* SOURCES.md [hp-lending] */

static const char *const team_keys[] = { "name", "quota", "fair_share_weight", "lending", "borrow_limit", NULL };
static const char *const class_keys[] = { "name", "weight", NULL };
static const char *const lending_names[] = { "lend_and_borrow", "lend", "dont_lend" };
static const char *const bools[] = { "false", "true" };

/* A name fit for a metric: 1-31 letters, digits, '_' or '-'. */
static bool name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 31)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '_' || s[i] == '-'))
			return false;
	return true;
}

/* The required `name` of item e into buf (32 bytes); `seen` earlier names (n of them, stride bytes apart)
 * must differ. */
static int read_name(struct load *l, const struct yamldoc_ref *e, const char *what, char *buf,
		     const char *seen, size_t stride, int n)
{
	struct yamldoc_ref r;
	int rc;

	if ((rc = scenario_load_required(l, e, "name", what, &r)) || (rc = yamldoc_string(&l->y, &r, buf, 32)))
		return rc;
	if (!name_ok(buf))
		return yamldoc_fail(&l->y, &r, "name '%s': expected 1 to 31 letters, digits, '_' or '-' (it "
					  "names metrics)", buf);
	for (int i = 0; i < n; i++)
		if (strcmp(seen + (size_t)i * stride, buf) == 0)
			return yamldoc_fail(&l->y, &r, "name '%s' is given twice; expected each name once", buf);
	return STATUS_OK;
}

static int read_team(struct load *l, const struct yamldoc_ref *e, int i)
{
	struct scenario_jobs *sj = &l->sc.jobs;
	struct job_team *t = &sj->teams[i];
	struct yamldoc_ref r;
	int lending = TEAM_LEND_AND_BORROW, rc;

	*t = (struct job_team){ .borrow_limit_pct = DEFAULT_BORROW_LIMIT_PCT };
	if ((rc = yamldoc_mapping(&l->y, e, team_keys, NULL, NULL)) ||
	    (rc = read_name(l, e, "the team's name", t->name, sj->teams[0].name, sizeof sj->teams[0], i)) ||
	    (rc = scenario_load_required(l, e, "quota", "the instances of the jobs entries the team is entitled "
					 "to", &r)) ||
	    (rc = scenario_load_int(l, &r, 0, MAX_INSTANCES, &t->quota)))
		return rc;
	yamldoc_child(e, "fair_share_weight", &r);
	if ((rc = scenario_load_int(l, &r, 0, 100, &t->weight)))
		return rc;
	yamldoc_child(e, "lending", &r);
	if ((rc = yamldoc_choice(&l->y, &r, lending_names, 3, &lending)))
		return rc;
	t->lending = (enum team_lending)lending;
	yamldoc_child(e, "borrow_limit", &r);
	return scenario_load_int(l, &r, 1, 500, &t->borrow_limit_pct);
}

static int read_class(struct load *l, const struct yamldoc_ref *e, int i)
{
	struct scenario_jobs *sj = &l->sc.jobs;
	struct yamldoc_ref r;
	int rc;

	if ((rc = yamldoc_mapping(&l->y, e, class_keys, NULL, NULL)) ||
	    (rc = read_name(l, e, "the class's name", sj->classes[i].name, sj->classes[0].name,
			    sizeof sj->classes[0], i)) ||
	    (rc = scenario_load_required(l, e, "weight", "the class's weight, 0-100", &r)))
		return rc;
	return scenario_load_int(l, &r, 0, 100, &sj->classes[i].weight);
}

/* Quotas are accounting over the jobs entries: more than they hold is a warning (it can never all be used). */
static int check_quotas(struct load *l, const struct yamldoc_ref *list)
{
	int sum = 0, room = 0;

	for (int i = 0; i < l->sc.jobs.nteams; i++)
		sum += l->sc.jobs.teams[i].quota;
	for (int i = 0; i < l->sc.nfleet; i++)
		if (l->sc.fleet[i].use != USE_SERVING)
			room += l->sc.fleet[i].max;
	if (sum <= room)
		return STATUS_OK;
	return scenario_load_warn(l, list, "the teams' quotas sum to %d instances, more than the %d of the fleet "
				  "entries for jobs; the quota beyond them can never be used", sum, room);
}

int scenario_load_teams(struct load *l, const struct yamldoc_ref *jobs)
{
	struct scenario_jobs *sj = &l->sc.jobs;
	struct yamldoc_ref list, e, r;
	int fair = 1, rc;

	sj->fair_share = true;
	yamldoc_child(jobs, "teams", &list);
	if (list.node) {
		if ((rc = yamldoc_list(&l->y, &list, 1, JOB_TEAMS_MAX, "teams such as '- {name: research, "
					     "quota: 4, fair_share_weight: 50}'", &sj->nteams)))
			return rc;
		struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
		for (int i = 0; i < sj->nteams; i++) {
			yamldoc_next_item(&list, &walk, &e);
			if ((rc = read_team(l, &e, i)))
				return rc;
		}
		if ((rc = check_quotas(l, &list)))
			return rc;
		yamldoc_child(jobs, "trace", &r);
		if (r.node)
			return yamldoc_fail(&l->y, &r, "a jobs trace has no team column; expected the jobs in "
						  "jobs.list when jobs.teams is given");
	}
	yamldoc_child(jobs, "priority_classes", &list);
	if (list.node) {
		if ((rc = yamldoc_list(&l->y, &list, 1, JOB_CLASSES_MAX, "priority classes such as '- {name: "
					     "inference, weight: 100}' (at most 10)", &sj->nclasses)))
			return rc;
		struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
		for (int i = 0; i < sj->nclasses; i++) {
			yamldoc_next_item(&list, &walk, &e);
			if ((rc = read_class(l, &e, i)))
				return rc;
		}
	}
	yamldoc_child(jobs, "fair_share", &r);
	if ((rc = yamldoc_choice(&l->y, &r, bools, 2, &fair)))
		return rc;
	sj->fair_share = fair == 1;
	if (r.node && sj->nteams == 0)
		return yamldoc_fail(&l->y, &r, "fair_share applies only with jobs.teams; expected teams too, or "
					  "no fair_share");
	return STATUS_OK;
}

/* Find name (the string at r) among n names stride bytes apart; *out its index; a message naming them. */
static int find(struct load *l, const struct yamldoc_ref *r, const char *what, const char *first,
		size_t stride, int n, int *out)
{
	char name[64], list[JOB_CLASSES_MAX * 34] = "";
	int rc;

	if ((rc = yamldoc_string(&l->y, r, name, sizeof name)))
		return rc;
	for (int i = 0; i < n; i++) {
		if (strcmp(first + (size_t)i * stride, name) == 0) {
			*out = i;
			return STATUS_OK;
		}
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", first + (size_t)i * stride);
	}
	if (n == 0)
		return yamldoc_fail(&l->y, r, "%s '%s' but jobs has no %s; expected them declared first", what,
					  name, what[0] == 't' ? "teams" : "priority_classes");
	return yamldoc_fail(&l->y, r, "unknown %s '%s'; expected one of: %s", what, name, list);
}

int scenario_load_job_team(struct load *l, const struct yamldoc_ref *e, struct job_spec *j)
{
	const struct scenario_jobs *sj = &l->sc.jobs;
	struct yamldoc_ref r, p;
	int k, rc;

	j->team = -1;
	yamldoc_child(e, "team", &r);
	if (r.node && (rc = find(l, &r, "team", sj->teams[0].name, sizeof sj->teams[0], sj->nteams, &j->team)))
		return rc;
	if (!r.node && sj->nteams > 0)
		return yamldoc_missing(&l->y, e, "team", "with jobs.teams, the team the job belongs to");
	yamldoc_child(e, "priority_class", &r);
	if (!r.node)
		return STATUS_OK;
	yamldoc_child(e, "priority", &p);
	if (p.node)
		return yamldoc_fail(&l->y, &r, "priority_class and priority both given; expected one (a class "
					  "sets the priority to its weight)");
	if ((rc = find(l, &r, "priority class", sj->classes[0].name, sizeof sj->classes[0], sj->nclasses, &k)))
		return rc;
	j->priority = sj->classes[k].weight;
	return STATUS_OK;
}

const struct scenario_load_names scenario_load_team_keys = SCENARIO_LOAD_KEYS(team_keys);
const struct scenario_load_names scenario_load_class_keys = SCENARIO_LOAD_KEYS(class_keys);
const struct scenario_load_names scenario_load_lending_names = SCENARIO_LOAD_NAMES(lending_names);
