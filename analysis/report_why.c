/*
 * report_why: why the compared plans that break the SLO break it, and the term their cost runs over
 * (report.h, struct report_why). For each point, over its runs: those warned slo_unreachable (service time
 * alone breaks the SLO: no capacity keeps it), those warned fleet_at_max (the fleet sat at its maximum with
 * requests waiting), those whose jobs missed a deadline (metric jobs_missed_deadline > 0); and the longest
 * commitment term of its first run's scenario, parsed again (0 when it has none, or cannot be parsed).
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "scenario.h"
#include "status.h"

double report_scenario_term_h(const struct scenario *sc)
{
	double term_h = 0;

	for (int i = 0; i < sc->nfleet + sc->ncommit; i++) {
		enum term_kind k = i < sc->nfleet ? sc->fleet[i].term : sc->commit[i - sc->nfleet].term;
		double h = k == TERM_3Y ? 26280 : k == TERM_1Y ? 8760 : 0;
		term_h = h > term_h ? h : term_h;
	}
	return term_h;
}

double report_term_h(const char *scenario_text, const char *overrides)
{
	const char *sets[64];
	int nsets = 0;
	char *ov = strdup(overrides ? overrides : ""), *save = NULL;
	struct scenario sc;
	struct diag ignored;
	double term_h = 0;

	if (!ov)
		return 0;
	for (char *t = strtok_r(ov, "\n", &save); t && nsets < 64; t = strtok_r(NULL, "\n", &save))
		sets[nsets++] = t;
	if (scenario_parse_string(&sc, scenario_text, "stored scenario", sets, nsets, &ignored) == 0) {
		term_h = report_scenario_term_h(&sc);
		scenario_fini(&sc);
	}
	free(ov);
	return term_h;
}

static int count_runs(sqlite3_stmt *q, const struct compare_point *p)
{
	int n = 0;

	for (int i = 0; i < p->nruns; i++) {
		sqlite3_bind_int64(q, 1, p->run_ids[i]);
		n += sqlite3_step(q) == SQLITE_ROW;
		sqlite3_reset(q);
	}
	return n;
}

int report_read_why(sqlite3 *db, struct report *r, struct diag *d)
{
	sqlite3_stmt *unreach = NULL, *atmax = NULL, *missed = NULL, *text = NULL;
	int status = STATUS_OK;

	if (r->cmp.npoints == 0)
		return STATUS_OK;
	if (!(r->why = calloc((size_t)r->cmp.npoints, sizeof *r->why)))
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	/* a database without warnings (older schema) says nothing of why: the counts stay 0 */
	sqlite3_prepare_v2(db, "SELECT 1 FROM warnings WHERE run_id = ?1 AND code = 'slo_unreachable' LIMIT 1", -1,
			   &unreach, NULL);
	sqlite3_prepare_v2(db, "SELECT 1 FROM warnings WHERE run_id = ?1 AND code = 'fleet_at_max' LIMIT 1", -1,
			   &atmax, NULL);
	sqlite3_prepare_v2(db, "SELECT 1 FROM metrics WHERE run_id = ?1 AND name = 'jobs_missed_deadline' AND value > 0",
			   -1, &missed, NULL);
	sqlite3_prepare_v2(db, "SELECT scenario_text, overrides FROM runs WHERE run_id = ?1", -1, &text, NULL);
	for (int i = 0; i < r->cmp.npoints; i++) {
		const struct compare_point *p = &r->cmp.points[i];
		struct report_why *w = &r->why[i];
		w->unreachable = unreach ? count_runs(unreach, p) : 0;
		w->at_max = atmax ? count_runs(atmax, p) : 0;
		w->missed = missed ? count_runs(missed, p) : 0;
		if (text && p->nruns > 0) {
			sqlite3_bind_int64(text, 1, p->run_ids[0]);
			if (sqlite3_step(text) == SQLITE_ROW)
				w->term_h = report_term_h((const char *)sqlite3_column_text(text, 0),
							  (const char *)sqlite3_column_text(text, 1));
			sqlite3_reset(text);
		}
	}
	sqlite3_finalize(unreach);
	sqlite3_finalize(atmax);
	sqlite3_finalize(missed);
	sqlite3_finalize(text);
	return status;
}
