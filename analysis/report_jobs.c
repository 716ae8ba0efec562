/* report_jobs: see report_jobs.h. The events are those of models/jobs/jobs.c (jobs_log: detail "NAME" or
 * "NAME: why"). */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "numfmt.h"
#include "report.h"
#include "report_svg.h"
#include "scenario.h"
#include "engine.h"
#include "status.h"

/* The jobs' instances per hour (as read_hours bins the samples: hour h holds h*3600 < t <= (h+1)*3600) and
 * their part of each clock hour's bill; left NULL on a file without them (before schema 12) or a run
 * without jobs. */
static int read_series(sqlite3 *db, struct report_run *run, struct diag *d)
{
	sqlite3_stmt *q;
	double *n;
	bool any = false;

	if (run->nhours > 0 && sqlite3_prepare_v2(db, "SELECT t_s, instances_jobs FROM samples WHERE run_id = ?1 AND "
						  "instances_jobs IS NOT NULL", -1, &q, NULL) == SQLITE_OK) {
		run->inst_jobs = calloc((size_t)run->nhours, sizeof *run->inst_jobs);
		n = calloc((size_t)run->nhours, sizeof *n);
		if (!run->inst_jobs || !n) {
			free(n);
			sqlite3_finalize(q);
			return diag_fail(d, STATUS_ENOMEM, "out of memory");
		}
		sqlite3_bind_int64(q, 1, run->run_id);
		while (sqlite3_step(q) == SQLITE_ROW) {
			int h = (int)ceil(sqlite3_column_double(q, 0) / 3600) - 1;
			h = h < 0 ? 0 : h;
			if (h >= run->nhours)
				continue;
			run->inst_jobs[h] += sqlite3_column_double(q, 1);
			n[h] += 1;
			any = true;
		}
		sqlite3_finalize(q);
		for (int h = 0; h < run->nhours; h++)
			run->inst_jobs[h] = n[h] > 0 ? run->inst_jobs[h] / n[h] : 0;
		free(n);
		if (!any) {
			free(run->inst_jobs);
			run->inst_jobs = NULL;
		}
	}
	if (!run->inst_jobs || !run->exact || run->ncost < 1 ||
	    sqlite3_prepare_v2(db, "SELECT hour, sum(effective_usd) FROM charges WHERE run_id = ?1 AND use = 'jobs' "
			       "GROUP BY hour", -1, &q, NULL) != SQLITE_OK)
		return STATUS_OK;
	if (!(run->cost_jobs = calloc((size_t)run->ncost, sizeof *run->cost_jobs))) {
		sqlite3_finalize(q);
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	}
	sqlite3_bind_int64(q, 1, run->run_id);
	while (sqlite3_step(q) == SQLITE_ROW) {
		int h = sqlite3_column_int(q, 0);
		if (h >= 0 && h < run->ncost)
			run->cost_jobs[h] += sqlite3_column_double(q, 1);
	}
	sqlite3_finalize(q);
	return STATUS_OK;
}

static struct report_job *add_job(struct report_run *run, const char *name)
{
	struct report_job *j;

	if (run->njobs == REPORT_JOBS_SHOWN)
		return NULL;
	if (!run->jobs && !(run->jobs = calloc(REPORT_JOBS_SHOWN, sizeof *run->jobs)))
		return NULL;
	j = &run->jobs[run->njobs++];
	memset(j, 0, sizeof *j);
	snprintf(j->name, sizeof j->name, "%s", name);
	j->submit_s = j->deadline_s = NAN;
	return j;
}

bool report_jobs_from_scenario(struct report_run *run, const struct scenario *sc)
{
	run->njobs_total = sc->jobs.n;
	for (int i = 0; i < sc->jobs.n && i < REPORT_JOBS_SHOWN; i++) {
		const struct job_spec *s = &sc->jobs.list[i];
		struct report_job *j = add_job(run, s->name);
		if (!j)
			return false;
		j->submit_s = (double)s->submit_us / SIM_US_PER_S;
		j->deadline_s = s->deadline_us == INT64_MAX ? NAN : (double)s->deadline_us / SIM_US_PER_S;
	}
	return true;
}

static char mark_of(const char *kind)
{
	static const struct { const char *kind; char mark; } marks[] = {
		{ "job_start", 's' }, { "job_resume", 's' }, { "job_checkpoint", 'c' }, { "job_interrupt", 'i' },
		{ "job_preempt", 'i' }, { "job_failure", 'i' }, { "job_end", 'e' }, { "job_terminated", 'x' },
		{ "job_switch", 'w' },
	};

	for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
		if (strcmp(kind, marks[i].kind) == 0)
			return marks[i].mark;
	return 0;
}

static struct report_job *find_job(struct report_run *run, const char *detail, bool add)
{
	char name[64];
	const char *colon = strstr(detail, ": ");

	snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - detail) : (int)strlen(detail), detail);
	for (int i = 0; i < run->njobs; i++)
		if (strcmp(run->jobs[i].name, name) == 0)
			return &run->jobs[i];
	if (!add)
		return NULL;
	if (run->njobs_total < REPORT_JOBS_SHOWN)  /* a job the scenario did not tell of (not parsed again) */
		run->njobs_total++;
	return add_job(run, name);
}

int report_jobs_read(sqlite3 *db, struct report_run *run, struct diag *d)
{
	sqlite3_stmt *q;
	bool known = run->njobs > 0;  /* from the scenario: events of other jobs are not drawn */
	int status = read_series(db, run, d);

	if (status)
		return status;
	if (sqlite3_prepare_v2(db, "SELECT t_s, kind, detail FROM events WHERE run_id = ?1 AND kind LIKE 'job\\_%' "
			       "ESCAPE '\\' ORDER BY seq", -1, &q, NULL) != SQLITE_OK)
		return diag_fail(d, STATUS_EDB, "reading the jobs' events: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(q, 1, run->run_id);
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *kind = (const char *)sqlite3_column_text(q, 1), *detail = (const char *)sqlite3_column_text(q, 2);
		double t = sqlite3_column_double(q, 0);
		struct report_job *j;
		char m;
		if (!kind || !detail || !(j = find_job(run, detail, !known)))
			continue;
		if (strcmp(kind, "job_submit") == 0 && isnan(j->submit_s))
			j->submit_s = t;
		if (strcmp(kind, "job_missed_deadline") == 0)
			j->missed = true;
		if (strcmp(kind, "job_optimum") == 0 && strstr(detail, ": "))
			snprintf(j->optimum, sizeof j->optimum, "%s", strstr(detail, ": ") + 2);
		if (!(m = mark_of(kind)))
			continue;
		if (j->nmarks == REPORT_JOB_MARKS) {
			j->cut = true;
			continue;
		}
		j->marks[j->nmarks++] = (struct report_job_mark){ t, m };
	}
	sqlite3_finalize(q);
	return STATUS_OK;
}

/* Instances and cost by user: serving (everything less the jobs') and the training jobs, stacked. */
static void by_user(FILE *out, const struct report_run *run)
{
	double *serving = calloc((size_t)(run->nhours > run->ncost ? run->nhours : run->ncost) + 1, sizeof *serving);
	struct report_svg_series s[2];
	char id[64];

	if (!serving || !run->inst_jobs)
		goto out;
	for (int h = 0; h < run->nhours; h++) {
		double total = 0;
		for (int k = 0; k < OPTION_KIND_COUNT; k++)
			total += run->inst[k][h];
		serving[h] = fmax(0, total - run->inst_jobs[h]);
	}
	s[0] = (struct report_svg_series){ "serving", serving, "#1f77b4", true, false };
	s[1] = (struct report_svg_series){ "training jobs", run->inst_jobs, "#e377c2", true, false };
	snprintf(id, sizeof id, "chart-%lld-users", (long long)run->run_id);
	report_svg_xy(out, id, "Instances by user: serving and training jobs (hourly means)",
		      "hours from the start (hourly means at mid-hour)", "instances", 0.5, 1, run->nhours, s, 2, NULL, 0,
		      NAN, NULL, NAN);
	if (!run->cost_jobs)
		goto out;
	for (int h = 0; h < run->ncost; h++) {
		double total = 0;
		for (int k = 0; k < OPTION_KIND_COUNT; k++)
			total += run->cost[k][h];
		serving[h] = total - run->cost_jobs[h];
	}
	s[1].y = run->cost_jobs;
	snprintf(id, sizeof id, "chart-%lld-usercost", (long long)run->run_id);
	report_svg_xy(out, id, "Cost by user per UTC clock hour: serving and training jobs (the bill lines)",
		      "hours from the start (clock hours, at mid-hour)", "USD per hour", run->cost_x0_h + 0.5, 1,
		      run->ncost, s, 2, NULL, 0, NAN, NULL, NAN);
out:
	free(serving);
}

/* The bills by user: serving, the jobs (by option), each team; they add up to the run's cost. */
static void bills(FILE *out, const struct report_run *run)
{
	static const char *const options[] = { "reserved", "on_demand", "spot", "odcr", "savings_plan",
					       "capacity_block", "training_plan" };
	double total = report_metric(run, "cost_total_usd"), jobs = 0;
	char a[64], name[96];
	int nteams = 0;

	for (size_t k = 0; k < sizeof options / sizeof options[0]; k++) {
		double v;
		snprintf(name, sizeof name, "jobs_cost_%s_usd", options[k]);
		v = report_metric(run, name);
		jobs += isnan(v) ? 0 : v;
	}
	fprintf(out, "<table class=\"bills\"><tr><th class=\"l\">who pays</th><th>bill (USD)</th>"
		"<th>share of the run's cost</th></tr>\n");
	fprintf(out, "<tr><td class=\"l\">serving</td><td>%s</td><td>%s</td></tr>\n", numfmt_money(total - jobs, true, a,
		sizeof a), total > 0 ? numfmt_percent((total - jobs) / total, NAN, name, sizeof name) : "&ndash;");
	fprintf(out, "<tr><td class=\"l\">training jobs</td><td>%s</td><td>%s</td></tr>\n", numfmt_money(jobs, true, a,
		sizeof a), total > 0 ? numfmt_percent(jobs / total, NAN, name, sizeof name) : "&ndash;");
	for (int i = 0; i < run->nmetrics; i++) {  /* team_<name>_cost_usd: the jobs' bill split by GPU-hours held */
		const char *m = run->metrics[i].name;
		size_t len = strlen(m);
		if (strncmp(m, "team_", 5) != 0 || len < 15 || strcmp(m + len - 9, "_cost_usd") != 0)
			continue;
		fprintf(out, "<tr><td class=\"l\">&nbsp;&nbsp;team ");
		snprintf(name, sizeof name, "%.*s", (int)(len - 14), m + 5);
		report_html_escape(out, name);
		fprintf(out, "</td><td>%s</td><td>%s</td></tr>\n", numfmt_money(run->metrics[i].value, true, a, sizeof a),
			total > 0 ? numfmt_percent(run->metrics[i].value / total, NAN, name, sizeof name) : "&ndash;");
		nteams++;
	}
	fprintf(out, "<tr><th class=\"l\">the run</th><th>%s</th><th></th></tr></table>\n",
		numfmt_money(total, true, a, sizeof a));
	fprintf(out, "<p class=\"note\">The jobs pay for the instances of their entries (<code>use: jobs</code>) and "
		"the share of shared entries they used; serving pays the rest.%s</p>\n", nteams ? " Teams split the "
		"jobs' bill by the GPU-hours they held, idle instances included." : "");
}

/* Each deadline job's offline optimum (job_optimum events), and the run's regret when it is known. */
static void optima(FILE *out, const struct report_run *run)
{
	double opt = report_metric(run, "job_cost_optimal_usd"), regret = report_metric(run, "jobs_regret_usd");
	char a[32], b[32];
	int n = 0;

	for (int i = 0; i < run->njobs; i++)
		n += run->jobs[i].optimum[0] != 0;
	if (n == 0)
		return;
	if (!isnan(regret))
		fprintf(out, "<p>Against the offline optimum (each job run the cheapest way knowing the whole Spot "
			"availability trace in advance): optimum %s, regret <b>%s</b>, the most a better policy could "
			"still save on these jobs. The optimum assumes no node failures, free checkpoints beyond those "
			"any plan takes, and the trace's capacity for each job alone.</p>\n",
			numfmt_money(opt, true, a, sizeof a), numfmt_money(regret, true, b, sizeof b));
	fprintf(out, "<table class=\"bills\"><tr><th class=\"l\">job</th><th class=\"l\">offline optimum</th></tr>\n");
	for (int i = 0; i < run->njobs; i++) {
		if (!run->jobs[i].optimum[0])
			continue;
		fprintf(out, "<tr><td class=\"l\">");
		report_html_escape(out, run->jobs[i].name);
		fprintf(out, "</td><td class=\"l\">");
		report_html_escape(out, run->jobs[i].optimum);
		fprintf(out, "</td></tr>\n");
	}
	fprintf(out, "</table>\n");
}

void report_jobs_section(FILE *out, const struct report_run *run)
{
	char id[64], a[32];

	if (isnan(report_metric(run, "jobs_submitted")) && run->njobs == 0)
		return;
	fprintf(out, "<h3>Training jobs and serving, apart</h3>\n");
	bills(out, run);
	by_user(out, run);
	snprintf(id, sizeof id, "chart-%lld-jobs", (long long)run->run_id);
	report_svg_jobs(out, id, run->jobs, run->njobs, run->horizon_s);
	optima(out, run);
	if (run->njobs_total > run->njobs)
		fprintf(out, "<p class=\"note\">The first %d of the scenario's %s jobs, by submit time.</p>\n", run->njobs,
			numfmt_fixed(run->njobs_total, 0, a, sizeof a));
}
