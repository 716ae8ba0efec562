/*
 * fuzz_cwmetrics: the CloudWatch metrics reader (cwmetrics.c: the JSON of `aws cloudwatch get-metric-data`
 * and `get-metric-statistics`) under three queries (the first result with its period inferred; by label
 * "Invocations" with statistic SampleCount; the first result on a stated 60 s grid), and, for what it
 * accepts, the gaps filled each way and (for series of at most DRAW_PERIODS_MAX periods, so that an input
 * stays fast under the sanitizers) the `cloudwatch` arrivals source drawing up to DRAWS_MAX arrivals,
 * evenly and as a Poisson process. Checked: a refusal has a message and leaves the struct zeroed; an
 * accepted series has a positive period, 1 <= points <= periods, points at both ends, values >= 0 and none
 * NaN once filled; the source's arrivals come in time order inside the series' span, with no size given,
 * and it ends with DONE.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "arrivals.h"
#include "cwmetrics.h"
#include "fuzz.h"
#include "scenario.h"
#include "status.h"

#define DRAWS_MAX 2000
#define DRAW_PERIODS_MAX 50000  /* series longer than this are read and filled, not drawn from (speed) */

static void draw(const char *path, const struct cwmetrics_query *q, const struct cwmetrics *m, bool even)
{
	struct scenario *sc = calloc(1, sizeof *sc);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct arrival_source *src = NULL;
	struct arrival a;
	struct diag d = { "" };
	int64_t prev_us = 0, end_us = (int64_t)m->nperiods * m->period_us;
	int rc, i;

	fuzz_check(sc && rng, "out of memory in the harness");
	gsl_rng_set(rng, 1);
	sc->arrivals.kind = ARRIVAL_CLOUDWATCH;
	snprintf(sc->arrivals.path, sizeof sc->arrivals.path, "%s", path);
	sc->arrivals.cw_query = *q;
	sc->arrivals.cw_even = even;
	sc->arrivals.cw_gaps = even ? CWMETRICS_GAPS_INTERPOLATE : CWMETRICS_GAPS_ZERO;
	sc->arrivals.scale_rate = 1;
	rc = arrivals_cloudwatch_new(&src, sc, rng, &d);
	fuzz_check(rc == STATUS_OK, "an accepted series opens as a source");
	for (i = 0; i < DRAWS_MAX && (rc = src->ops->next(src, &a, &d)) == STATUS_OK; i++) {
		fuzz_check(a.t_us >= prev_us && a.t_us <= end_us, "arrivals come in time order inside the span");
		fuzz_check(a.in_tokens == -1 && a.out_tokens == -1 && isnan(a.service_s), "no request size");
		prev_us = a.t_us;
	}
	fuzz_check(i == DRAWS_MAX || rc == STATUS_DONE, "the source ends with DONE");
	arrivals_free(src);
	gsl_rng_free(rng);
	free(sc);
}

static void check_series(const char *path, const struct cwmetrics_query *q)
{
	struct cwmetrics m;
	struct diag d = { "" };
	int rc = cwmetrics_load(&m, path, "cw.json", q, &d);
	bool ok = true;

	fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused metrics file has a message");
	if (rc != STATUS_OK) {
		fuzz_check(m.nperiods == 0 && !m.value, "a refused metrics file is zeroed");
		return;
	}
	fuzz_check(m.period_us > 0 && m.npoints >= 1 && m.npoints <= m.nperiods, "period, points and periods");
	fuzz_check(!isnan(m.value[0]) && !isnan(m.value[m.nperiods - 1]), "the series starts and ends at points");
	for (int how = CWMETRICS_GAPS_ZERO; how <= CWMETRICS_GAPS_INTERPOLATE; how++) {
		struct cwmetrics f = m;  /* a copy of the series with its own values, filled */
		size_t bytes = (size_t)m.nperiods * sizeof *m.value;

		fuzz_check((f.value = malloc(bytes)) != NULL, "out of memory in the harness");
		memcpy(f.value, m.value, bytes);
		cwmetrics_fill(&f, (enum cwmetrics_gaps)how);
		for (int k = 0; k < f.nperiods; k++)
			ok &= f.value[k] >= 0;
		fuzz_check(ok, "filled values are numbers >= 0");
		free(f.value);
	}
	if (m.nperiods <= DRAW_PERIODS_MAX) {  /* the source walks every period: long spans are only read */
		draw(path, q, &m, true);
		draw(path, q, &m, false);
	}
	cwmetrics_fini(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, "cw");
	struct cwmetrics_query q[3] = { { .index = 0 }, { .index = -1, .stat = CWMETRICS_SAMPLE_COUNT },
					{ .index = 0, .period_us = 60000000 } };

	fuzz_setup();
	snprintf(q[1].label, sizeof q[1].label, "Invocations");
	for (int i = 0; i < 3; i++)
		check_series(path, &q[i]);
	return 0;
}
