/*
 * arrivals_trace: replay a request trace (sc->arrivals.path, read with sc->arrivals.mapping) as a source
 * (see arrivals.h).
 *
 * The trace is streamed through tracefile.h, one row per arrival, so memory does not grow with its length.
 * Times in absolute clocks (ISO and epoch formats) are shifted so that the first row arrives at t = 0;
 * the shift is taken from the first row read and kept across rewinds, which restart at that same row.
 * Times written as seconds (time_format: seconds) are already seconds from the scenario start and are kept
 * as written, so a trace written by `gpucap trace gen` replays at the very same times. Token counts and service times pass through as the
 * trace gives them (-1 and NaN when the mapping has no such column). A malformed row met while streaming
 * ends the source with the reader's message ("FILE:LINE: ..."); the loader's scan normally finds it first.
 */
#include "arrivals.h"

#include <stdbool.h>
#include <stdlib.h>

#include "scenario.h"
#include "status.h"
#include "tracefile.h"

struct trace_source {
	struct arrival_source base;  /* must be first */
	struct tracefile *tf;        /* the open trace, owned */
	int64_t origin_us;           /* the first row's time, in the trace's scale */
	bool have_origin;            /* origin_us has been read */
};

static int trace_next(struct arrival_source *base, struct arrival *out, struct diag *d)
{
	struct trace_source *src = (struct trace_source *)base;
	struct trace_record r;
	int rc = tracefile_next(src->tf, &r, d);

	if (rc != STATUS_OK)
		return rc;
	if (!src->have_origin) {
		src->origin_us = r.t_us;
		src->have_origin = true;
	}
	out->t_us = r.t_us - src->origin_us;  /* >= 0: the reader rejects rows out of order */
	out->in_tokens = r.in_tokens;
	out->out_tokens = r.out_tokens;
	out->service_s = r.service_s;
	out->hashes = r.hashes;
	out->nhashes = r.nhashes;
	return STATUS_OK;
}

static int trace_rewind(struct arrival_source *base, struct diag *d)
{
	struct trace_source *src = (struct trace_source *)base;

	return tracefile_rewind(src->tf, d);
}

static void trace_free(struct arrival_source *base)
{
	struct trace_source *src = (struct trace_source *)base;

	tracefile_close(src->tf);
	free(src);
}

static const struct arrival_source_ops trace_ops = {
	.next = trace_next,
	.rewind = trace_rewind,
	.free = trace_free,
};

int arrivals_trace_new(struct arrival_source **out, const struct scenario *sc, struct diag *d)
{
	struct trace_source *src = calloc(1, sizeof *src);
	int rc;

	if (!src)
		return diag_at(d, STATUS_ENOMEM, sc->arrivals.path, 0, 0, "out of memory opening the trace");
	src->base.ops = &trace_ops;
	if (tracefile_relative(sc->arrivals.mapping.time_format)) {
		src->origin_us = 0;
		src->have_origin = true; /* relative times: kept as written */
	}
	rc = tracefile_open(&src->tf, sc->arrivals.path, NULL, &sc->arrivals.mapping, d);
	if (rc != STATUS_OK) {
		free(src);
		return rc;
	}
	*out = &src->base;
	return STATUS_OK;
}

