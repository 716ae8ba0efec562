/*
 * scenario_cloudwatch: the keys of arrivals kind `cloudwatch` (see scenario_load.h; models/README.md,
 * "CloudWatch metrics as traffic"):
 *     workload.arrivals: {kind: cloudwatch, path: invocations.json, id: m1, label: ..., statistic: Sum,
 *                         period_s: 60, gaps: zero, within: poisson}
 * path (required) is the JSON `aws cloudwatch get-metric-data` or `get-metric-statistics` printed; id or
 * label chooses one of several results; statistic (get-metric-statistics) is Sum or SampleCount, the two
 * statistics that count something (Average, Minimum and Maximum describe the values of the data points,
 * not how many there were, so they are no arrival count); period_s states the period instead of inferring
 * it; gaps says what a period with no point holds (zero, hold, interpolate); within how a period's count
 * is spread (poisson, even).
 *
 * The file is read whole now (cwmetrics_load), so that a malformed one fails the load with its message
 * (FILE:LINE:COL: JSON path: ...). What the numbers rest on becomes a warning (the run summary's
 * `scenario` lines, and `gpucap validate`): a result whose StatusCode is not Complete, periods with no
 * point (filled as `gaps` says), a file that holds only the first page(s) (a NextToken), a series whose
 * first timestamp is not the scenario's start (period 0 is replayed at the start all the same, as a
 * trace's first request is), and a series that ends before the horizon with no loop.
 */
#include <stdio.h>
#include <string.h>

#include "cwmetrics.h"
#include "scenario_load.h"
#include "status.h"
#include "units.h"

#define MAX_PERIOD_US (7 * DAY_US)  /* a sanity bound on period_s; CloudWatch's longest usual is 1 day */

static const char *const stat_names[] = { "Sum", "SampleCount" };
static const char *const gaps_names[] = { "zero", "hold", "interpolate" };
static const char *const within_names[] = { "poisson", "even" };

#define COUNT(a) ((int)(sizeof (a) / sizeof (a)[0]))

/* The warnings of a series read: its StatusCode, gaps, pages and span. */
static int warn_series(struct load *l, const struct yamldoc_ref *at, const struct cwmetrics *m)
{
	const struct scenario *sc = &l->sc;
	double span_s = (double)m->nperiods * (double)m->period_us / 1e6, horizon_s = (double)sc->horizon_us / 1e6;
	int rc = STATUS_OK;

	if (m->status[0] && strcmp(m->status, "Complete") != 0)
		rc = scenario_load_warn(l, at, "the CloudWatch result '%s' has StatusCode %s: %s", m->id, m->status,
					strcmp(m->status, "PartialData") == 0 ? "CloudWatch returned only part of the "
					"data asked for (more points than one call returns, or a query still being "
					"computed); the missing periods count as gaps" : "its values may be missing or "
					"incomplete");
	if (!rc && m->npoints < m->nperiods)
		rc = scenario_load_warn(l, at, "%d of the %d periods of %g s have no CloudWatch datapoint (gaps); "
					"filled with %s (gaps: %s)", m->nperiods - m->npoints, m->nperiods,
					(double)m->period_us / 1e6, sc->arrivals.cw_gaps == CWMETRICS_GAPS_ZERO ?
					"zero arrivals, as CloudWatch omits periods with nothing recorded" :
					sc->arrivals.cw_gaps == CWMETRICS_GAPS_HOLD ? "the value of the period before" :
					"values interpolated between the neighbouring points",
					gaps_names[sc->arrivals.cw_gaps]);
	if (!rc && m->more_pages)
		rc = scenario_load_warn(l, at, "the file has a NextToken: it holds only the first page of the "
					"answer; expected the whole series (let the CLI paginate: no --max-items)");
	if (!rc && m->first_unix_us != sc->start_unix_us) {
		char first[32], start[32];

		units_format_time(units_floor_s(m->first_unix_us), first, sizeof first);
		units_format_time(units_floor_s(sc->start_unix_us), start, sizeof start);
		rc = scenario_load_warn(l, at, "the metrics start at %s, the scenario at %s: the first period is "
					"replayed at the scenario start (set start: %s for the calendar to match)", first,
					start, first);
	}
	span_s = (span_s - (double)sc->arrivals.offset_us / 1e6) / sc->arrivals.speedup;  /* offset, then speedup */
	if (!rc && !sc->arrivals.loop && span_s < horizon_s)
		rc = scenario_load_warn(l, at, "the metrics cover %.4g h of the %.4g h horizon: the last %.4g h have "
					"no traffic; shorten the horizon or set loop: true", span_s / 3600,
					horizon_s / 3600, (horizon_s - span_s) / 3600);
	return rc;
}

/* `statistic: Average` (Minimum, Maximum): a statistic CloudWatch has, but no count of requests. */
static int refuse_non_count(struct load *l, const struct yamldoc_ref *r)
{
	static const char *const values[] = { "Average", "Minimum", "Maximum" };
	char got[16];
	struct diag quiet;
	struct diag *d = l->y.d;
	int rc;

	if (!r->node)
		return STATUS_OK;
	l->y.d = &quiet;  /* not a short string: yamldoc_choice says what is wrong with it */
	rc = yamldoc_string(&l->y, r, got, sizeof got);
	l->y.d = d;
	for (int i = 0; rc == STATUS_OK && i < COUNT(values); i++)
		if (strcmp(got, values[i]) == 0)
			return yamldoc_fail(&l->y, r, "%s describes the values of the data points, not how many "
					    "requests there were; expected Sum or SampleCount", got);
	return STATUS_OK;
}

int scenario_load_cloudwatch(struct load *l, const struct yamldoc_ref *arr)
{
	struct cwmetrics_query *q = &l->sc.arrivals.cw_query;
	struct yamldoc_ref path, r;
	int stat = CWMETRICS_SUM, gaps = CWMETRICS_GAPS_ZERO, within = 0, rc;

	memset(q, 0, sizeof *q);
	q->index = -1;
	if ((rc = scenario_load_required(l, arr, "path", "the JSON of `aws cloudwatch get-metric-data` or "
					 "`get-metric-statistics`", &path)) ||
	    (rc = scenario_load_path(l, &path, l->sc.arrivals.path)))
		return rc;
	yamldoc_child(arr, "id", &r);
	if ((rc = yamldoc_string(&l->y, &r, q->id, sizeof q->id)))
		return rc;
	yamldoc_child(arr, "label", &r);
	if ((rc = yamldoc_string(&l->y, &r, q->label, sizeof q->label)))
		return rc;
	yamldoc_child(arr, "statistic", &r);
	if ((rc = refuse_non_count(l, &r)) || (rc = yamldoc_choice(&l->y, &r, stat_names, COUNT(stat_names), &stat)))
		return rc;
	q->stat = (enum cwmetrics_stat)stat;
	yamldoc_child(arr, "period_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, true, MAX_PERIOD_US, &q->period_us)))
		return rc;
	yamldoc_child(arr, "gaps", &r);
	if ((rc = yamldoc_choice(&l->y, &r, gaps_names, COUNT(gaps_names), &gaps)))
		return rc;
	l->sc.arrivals.cw_gaps = (enum cwmetrics_gaps)gaps;
	yamldoc_child(arr, "within", &r);
	if ((rc = yamldoc_choice(&l->y, &r, within_names, COUNT(within_names), &within)))
		return rc;
	l->sc.arrivals.cw_even = within == 1;
	return STATUS_OK;
}

/* After the transforms are read (the span warning needs speedup, offset and loop): read the file. */
int scenario_load_cloudwatch_check(struct load *l, const struct yamldoc_ref *arr)
{
	struct cwmetrics m;
	struct yamldoc_ref path;
	int rc;

	if (l->sc.arrivals.kind != ARRIVAL_CLOUDWATCH)
		return STATUS_OK;
	yamldoc_child(arr, "path", &path);
	if ((rc = cwmetrics_load(&m, l->sc.arrivals.path, NULL, &l->sc.arrivals.cw_query, l->y.d)))
		return rc;
	rc = warn_series(l, &path, &m);
	cwmetrics_fini(&m);
	return rc;
}

const struct scenario_load_names scenario_load_cw_stat_names = SCENARIO_LOAD_NAMES(stat_names);
const struct scenario_load_names scenario_load_cw_gaps_names = SCENARIO_LOAD_NAMES(gaps_names);
const struct scenario_load_names scenario_load_cw_within_names = SCENARIO_LOAD_NAMES(within_names);
