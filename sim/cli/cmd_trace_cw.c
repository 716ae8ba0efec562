/*
 * cmd_trace_cw: `gpucap trace stats FILE` when FILE is CloudWatch metrics JSON (the output of `aws
 * cloudwatch get-metric-data` or `get-metric-statistics`; cmd_trace.c recognises it and calls here).
 *
 * Every result of the file is read as the `cloudwatch` arrivals kind would read it (cwmetrics_load, so the
 * same checks and messages) and described: id, label, StatusCode, points, the period (inferred: the
 * smallest gap), first and last period start (UTC), gaps (periods with no point), the sum, the peak per
 * period and when, and the mean rate (the sum over the span of the periods, first to last inclusive).
 * A get-metric-statistics file is described by its Sum. Statuses other than Complete, gaps and a NextToken
 * are listed as warnings (in --json, as fields). A result that cannot be read stops the command with its
 * message, exit 2, before anything is printed (every result is read twice: once to check, once to print).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "cwmetrics.h"
#include "outfile.h"
#include "status.h"
#include "units.h"

struct cw_stats {
	double sum;         /* over the points */
	double peak;        /* the largest value */
	int peak_k;         /* its period */
};

static struct cw_stats describe(const struct cwmetrics *m)
{
	struct cw_stats s = { 0, -1, 0 };

	for (int k = 0; k < m->nperiods; k++) {
		if (isnan(m->value[k]))
			continue;
		s.sum += m->value[k];
		if (m->value[k] > s.peak) {
			s.peak = m->value[k];
			s.peak_k = k;
		}
	}
	return s;
}

/* Period k's start as "YYYY-MM-DDTHH:MM:SSZ" (whole seconds: CloudWatch's periods are). */
static const char *when(const struct cwmetrics *m, int k, char *buf, int size)
{
	units_format_time(units_floor_s(m->first_unix_us + (int64_t)k * m->period_us), buf, size);
	return buf;
}

static void print_text(const struct cwmetrics *m, const struct cw_stats *s)
{
	char a[32], b[32];
	double span_s = (double)m->nperiods * (double)m->period_us / 1e6;

	printf("result %d       id '%s', label '%s'%s%s\n", m->index, m->id, m->label, m->status[0] ? ", status " : "",
	       m->status);
	printf("  points       %d over %d periods of %g s (%d gap%s: periods with no datapoint)\n", m->npoints,
	       m->nperiods, (double)m->period_us / 1e6, m->nperiods - m->npoints,
	       m->nperiods - m->npoints == 1 ? "" : "s");
	printf("  first, last  %s, %s (period starts, UTC)\n", when(m, 0, a, sizeof a),
	       when(m, m->nperiods - 1, b, sizeof b));
	printf("  sum          %.10g\n", s->sum);
	printf("  peak         %.10g per period, at %s\n", s->peak, when(m, s->peak_k, a, sizeof a));
	printf("  mean rate    %.6g per s (sum / %g s)\n", s->sum / span_s, span_s);
	if (m->status[0] && strcmp(m->status, "Complete") != 0)
		printf("  warning      StatusCode %s: the values may be incomplete\n", m->status);
}

static void print_json(const struct cwmetrics *m, const struct cw_stats *s)
{
	char a[32], b[32], c[32];
	double span_s = (double)m->nperiods * (double)m->period_us / 1e6;

	printf("%s{\"index\": %d, \"id\": ", m->index ? ", " : "", m->index);
	cmd_json_string(m->id);
	fputs(", \"label\": ", stdout);
	cmd_json_string(m->label);
	fputs(", \"status\": ", stdout);
	cmd_json_string(m->status);
	printf(", \"points\": %d, \"periods\": %d, \"gaps\": %d, \"period_s\": %.6g, \"first\": \"%s\", "
	       "\"last\": \"%s\", \"sum\": %.10g, \"peak\": %.10g, \"peak_at\": \"%s\", \"mean_rate_per_s\": %.6g}",
	       m->npoints, m->nperiods, m->nperiods - m->npoints, (double)m->period_us / 1e6, when(m, 0, a, sizeof a),
	       when(m, m->nperiods - 1, b, sizeof b), s->sum, s->peak, when(m, s->peak_k, c, sizeof c),
	       s->sum / span_s);
}

int cmd_trace_cloudwatch(const char *path, bool json)
{
	struct cwmetrics_query q = { .index = 0 };
	struct cwmetrics m;
	struct diag d = { "" };
	int rc, n = 1;

	for (int i = 0; i < n; i++) {  /* every result read first, so that a bad one prints nothing */
		q.index = i;
		if ((rc = cwmetrics_load(&m, path, NULL, &q, &d)))
			break;
		n = m.nresults;
		cwmetrics_fini(&m);
	}
	for (int i = 0; rc == STATUS_OK && i < n; i++) {
		struct cw_stats s;

		q.index = i;
		if ((rc = cwmetrics_load(&m, path, NULL, &q, &d)))
			break;
		n = m.nresults;
		s = describe(&m);
		if (i == 0 && json) {
			fputs("{\"file\": ", stdout);
			cmd_json_string(path);
			printf(", \"format\": \"cloudwatch\", \"shape\": \"%s\", \"more_pages\": %s, \"results\": [",
			       m.shape == CWMETRICS_DATA ? "get-metric-data" : "get-metric-statistics",
			       m.more_pages ? "true" : "false");
		} else if (i == 0) {
			printf("file           %s\nformat         cloudwatch (%s, %d result%s%s)\n", path,
			       m.shape == CWMETRICS_DATA ? "get-metric-data" : "get-metric-statistics, Sum", n,
			       n == 1 ? "" : "s", m.more_pages ? "; a NextToken: only the first page" : "");
		}
		if (json)
			print_json(&m, &s);
		else
			print_text(&m, &s);
		cwmetrics_fini(&m);
	}
	if (rc == STATUS_OK && json)
		puts("]}");
	if (rc == STATUS_OK)
		rc = outfile_check_stdout(&d);
	if (rc != STATUS_OK)
		fprintf(stderr, "gpucap: %s\n", d.msg);
	return cmd_exit_code(rc);
}
