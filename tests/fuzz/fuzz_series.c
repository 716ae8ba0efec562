/*
 * fuzz_series: the rate-series reader (arrivals_series.c) in both formats, aggregate and servegen: the
 * loader's check of the whole file (arrivals_series_check) and, for a file it accepts, the source itself
 * drawing up to DRAWS_MAX arrivals from it (600 s windows, seed 1). Checked: a refusal has a message; a
 * checked file opens as a source; arrivals come in time order, never before 0, with no size given; the
 * source ends with DONE or a message, never anything else.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "arrivals.h"
#include "fuzz.h"
#include "scenario.h"
#include "status.h"

#define DRAWS_MAX 2000

static void draw(const char *path, enum series_format format)
{
	struct scenario *sc = calloc(1, sizeof *sc);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct arrival_source *src = NULL;
	struct arrival a;
	struct diag d = { "" };
	int64_t prev_us = 0;
	int rc;

	fuzz_check(sc && rng, "out of memory in the harness");
	gsl_rng_set(rng, 1);
	sc->arrivals.kind = ARRIVAL_RATE_SERIES;
	sc->arrivals.nseries = 1;
	snprintf(sc->arrivals.series[0], sizeof sc->arrivals.series[0], "%s", path);
	sc->arrivals.series_format = format;
	sc->arrivals.window_us = 600 * (int64_t)1000000;
	sc->arrivals.scale_rate = 1;
	rc = arrivals_series_new(&src, sc, rng, &d);
	fuzz_check(rc == STATUS_OK, "a checked rate series opens as a source");
	for (int i = 0; i < DRAWS_MAX && (rc = src->ops->next(src, &a, &d)) == STATUS_OK; i++) {
		fuzz_check(a.t_us >= prev_us, "arrivals come in time order, from 0 on");
		fuzz_check(a.in_tokens == -1 && a.out_tokens == -1 && isnan(a.service_s),
			   "a rate series gives no request size");
		prev_us = a.t_us;
	}
	fuzz_check(rc == STATUS_OK || rc == STATUS_DONE || (rc < 0 && d.msg[0]), "a source ends with DONE or a message");
	arrivals_free(src);
	gsl_rng_free(rng);
	free(sc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, "series");
	const enum series_format formats[] = { SERIES_AGGREGATE, SERIES_SERVEGEN };

	fuzz_setup();
	for (int i = 0; i < 2; i++) {
		struct diag d = { "" };
		int rc = arrivals_series_check(path, formats[i], &d);

		fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused rate series has a message");
		if (rc == STATUS_OK)
			draw(path, formats[i]);
	}
	return 0;
}
