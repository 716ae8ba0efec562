/*
 * report_jobs: a run's training jobs as the report draws them: each job's timeline (submit, the spans it ran,
 * checkpoints, interruptions, end, deadline) from the run's job_* events and its scenario, and the bills by
 * user (serving, jobs, each team) from its metrics. Only the first REPORT_JOBS_SHOWN jobs by submit time are
 * drawn; the page says how many there were.
 */
#ifndef GPUCAP_REPORT_JOBS_H
#define GPUCAP_REPORT_JOBS_H

#include <stdbool.h>
#include <stdio.h>

#define REPORT_JOBS_SHOWN 30
#define REPORT_JOB_MARKS 64  /* marks kept per job: the first ones (a job interrupted more is cut, and says so) */

struct scenario;
struct sqlite3;
struct report_run;
struct diag;

/* One mark on a job's row: 's' start or resume, 'c' checkpoint, 'i' interrupted (reclaimed, preempted, a node
 * failed), 'e' ended, 'x' terminated (never finished), 'w' switched to on-demand. */
struct report_job_mark {
	double t_s;
	char kind;
};

struct report_job {
	char name[64];
	double submit_s, deadline_s;  /* NaN: unknown, or no deadline */
	bool missed;                  /* a job_missed_deadline event */
	char optimum[160];            /* its job_optimum event's text after the name ("" if none) */
	int nmarks;
	bool cut;                     /* more than REPORT_JOB_MARKS marks: the rest are not drawn */
	struct report_job_mark marks[REPORT_JOB_MARKS];
};

/* The first REPORT_JOBS_SHOWN jobs of a parsed scenario into run->jobs (names, submit, deadline); run->njobs_total
 * is how many it has. Returns false when out of memory. */
bool report_jobs_from_scenario(struct report_run *run, const struct scenario *sc);

/* The job_* events of run (run->run_id) onto its jobs (jobs not known from the scenario are added in the order
 * of their first event, up to REPORT_JOBS_SHOWN). STATUS_OK, or a failure with the message in d. */
int report_jobs_read(struct sqlite3 *db, struct report_run *run, struct diag *d);

/* Draw the timeline of jobs[0..n) over [0, horizon_s] as an SVG chart with id (report_svg_jobs.c). */
void report_svg_jobs(FILE *out, const char *id, const struct report_job *jobs, int n, double horizon_s);

/* The run's jobs section: the bills by user and the job timeline chart (nothing without jobs). */
void report_jobs_section(FILE *out, const struct report_run *run);

#endif
