/*
 * arrivals_transform: what-ifs on any arrival source (arrivals.h), applied in this order:
 *   offset          skip the first `offset` of the source and start the scenario there;
 *   loop            when the source ends, start it again (rewind) one mean gap after its last arrival, so a
 *                   short trace fills the horizon; with an offset, later passes start from the beginning;
 *   speedup s       compress time: an arrival at t comes at t / s (s x the rate, same requests);
 *   scale_rate k    and growth_per_day g: the rate is multiplied by m(t) = k (1 + g)^(t / 1 day) (a
 *                   generator applies k to its own rates instead, so only traces are scaled here). Each
 *                   arrival stays with probability m when m < 1; when m >= 1 it comes floor(m) times, once
 *                   more with probability frac(m): the first at its own time t, each other one at
 *                   t + floor(u x gap) microseconds (u uniform in [0, 1)), where gap is the time to the
 *                   next arrival of the source, so every copy comes before that arrival and the profile of
 *                   the source is kept. When the next arrival has the same time (a trace written in
 *                   batches) the gap is 0 and the copies come at t too; the last arrival of the source
 *                   has a gap of 1 s. Time therefore never runs backwards, whatever m. Copies repeat the
 *                   request's sizes. At most TRANSFORM_COPIES_MAX copies are made of one arrival.
 * The draws (thinning, copies, their times) come from the stream the caller gives ("arrivals.transform"),
 * so a transform does not disturb the source's own draws. Memory is one look-ahead arrival and the copies
 * of one arrival.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include "arrivals.h"
#include "rng.h"
#include "scenario.h"
#include "status.h"

#define TRANSFORM_COPIES_MAX 1024
#define DAY_US 86400e6
#define LAST_GAP_US 1000000  /* the gap after the source's last arrival, where copies of it spread */

struct transform {
	struct arrival_source base;      /* must be first */
	struct arrival_source *inner;    /* owned */
	gsl_rng *rng;                    /* kept */
	int64_t offset_us;               /* skip this much of the first pass */
	bool loop;                       /* rewind at the end */
	double speedup;                  /* time divisor */
	double scale;                    /* rate multiplier at t = 0 */
	double growth;                   /* per day */
	/* loop state */
	bool first_pass;                 /* still in the pass the offset applies to */
	int64_t base_us;                 /* added to inner times in this pass */
	int64_t pass_last_us;            /* last inner time of this pass */
	int64_t pass_count;              /* arrivals in this pass */
	/* look-ahead and copies */
	struct arrival ahead;            /* the next arrival after speedup and loop */
	bool have_ahead;
	bool ended;                      /* the inner source is done */
	struct arrival copies[TRANSFORM_COPIES_MAX];
	int ncopies, next_copy;
};

/* The next inner arrival with offset and loop applied (times before speedup). */
static int pull(struct transform *t, struct arrival *out, struct diag *d)
{
	for (;;) {
		int rc = t->inner->ops->next(t->inner, out, d);
		if (rc == STATUS_OK) {
			if (t->first_pass && out->t_us < t->offset_us)
				continue;
			t->pass_last_us = out->t_us;
			t->pass_count++;
			out->t_us += t->base_us - (t->first_pass ? t->offset_us : 0);
			return STATUS_OK;
		}
		if (rc != STATUS_DONE || !t->loop || t->pass_count == 0 || !t->inner->ops->rewind)
			return rc;
		/* next pass: one mean gap after this pass's last arrival */
		int64_t gap = t->pass_count > 1 ? t->pass_last_us / (t->pass_count - 1) : 1000000;
		t->base_us += t->pass_last_us + (gap > 0 ? gap : 1) - (t->first_pass ? t->offset_us : 0);
		t->first_pass = false;
		t->pass_count = 0;
		if ((rc = t->inner->ops->rewind(t->inner, d)) != STATUS_OK)
			return rc;
	}
}

/* The next arrival after speedup (and offset, loop). */
static int pull_sped(struct transform *t, struct arrival *out, struct diag *d)
{
	int rc = pull(t, out, d);

	if (rc == STATUS_OK && t->speedup != 1.0)
		out->t_us = llround((double)out->t_us / t->speedup);
	return rc;
}

static double multiplier(const struct transform *t, int64_t t_us)
{
	return t->growth == 0 ? t->scale : t->scale * pow(1.0 + t->growth, (double)t_us / DAY_US);
}

static int cmp_time(const void *a, const void *b)
{
	const struct arrival *x = a, *y = b;
	return (x->t_us > y->t_us) - (x->t_us < y->t_us);
}

/* Turn the arrival `cur` (with the gap to the next one) into 0..n copies. */
static void make_copies(struct transform *t, const struct arrival *cur, int64_t gap_us)
{
	double m = multiplier(t, cur->t_us), whole = floor(m);
	int n = (int)whole + (rng_uniform(t->rng) < m - whole ? 1 : 0);

	if (n > TRANSFORM_COPIES_MAX)
		n = TRANSFORM_COPIES_MAX;
	t->ncopies = n;
	t->next_copy = 0;
	assert(gap_us >= 0 && "the source's arrivals are in time order");
	for (int i = 0; i < n; i++) {
		t->copies[i] = *cur;
		if (i > 0)
			t->copies[i].t_us += (int64_t)(rng_uniform(t->rng) * (double)gap_us);
	}
	if (n > 2)
		qsort(t->copies + 1, (size_t)n - 1, sizeof t->copies[0], cmp_time);
}

static int transform_next(struct arrival_source *src, struct arrival *out, struct diag *d)
{
	struct transform *t = (struct transform *)src;

	while (t->next_copy >= t->ncopies) {
		struct arrival cur;
		int rc;
		if (t->ended)
			return STATUS_DONE;
		if (!t->have_ahead) {
			if ((rc = pull_sped(t, &t->ahead, d)) != STATUS_OK)
				return rc;
			t->have_ahead = true;
		}
		cur = t->ahead;
		rc = pull_sped(t, &t->ahead, d);
		if (rc == STATUS_DONE)
			t->ended = true;
		else if (rc != STATUS_OK)
			return rc;
		/* the copies must come before the next arrival: a tie leaves no room (gap 0), it is not a
		 * missing gap to fill with the default (that put copies after the rows of their own batch) */
		make_copies(t, &cur, t->ended ? LAST_GAP_US : t->ahead.t_us - cur.t_us);
	}
	*out = t->copies[t->next_copy++];
	return STATUS_OK;
}

static void transform_free(struct arrival_source *src)
{
	struct transform *t = (struct transform *)src;

	arrivals_free(t->inner);
	free(t);
}

static const struct arrival_source_ops transform_ops = { transform_next, NULL, transform_free };

double arrivals_rate_scale(const struct scenario *sc)
{
	if (sc->arrivals.kind == ARRIVAL_TRACE)
		return 1.0;
	return sc->arrivals.scale_rate > 0 ? sc->arrivals.scale_rate : 1.0;
}

int arrivals_transform_new(struct arrival_source **out, struct arrival_source *inner, const struct scenario *sc,
			   gsl_rng *rng, struct diag *d)
{
	/* 0 stands for "not set" (a struct built by hand): no change */
	double speedup = sc->arrivals.speedup > 0 ? sc->arrivals.speedup : 1.0;
	/* generators apply scale_rate to their own rates (arrivals_rate_scale); a trace is scaled here */
	double scale = sc->arrivals.kind != ARRIVAL_TRACE ? 1.0 :
		sc->arrivals.scale_rate > 0 ? sc->arrivals.scale_rate : 1.0;
	struct transform *t;

	(void)d;
	if (sc->arrivals.offset_us == 0 && !sc->arrivals.loop && speedup == 1.0 && scale == 1.0 &&
	    sc->arrivals.growth_per_day == 0) {
		*out = inner;
		return STATUS_OK;
	}
	t = calloc(1, sizeof *t);
	if (!t) {
		arrivals_free(inner);
		return STATUS_ENOMEM;
	}
	t->base.ops = &transform_ops;
	t->inner = inner;
	t->rng = rng;
	t->offset_us = sc->arrivals.offset_us;
	t->loop = sc->arrivals.loop;
	t->speedup = speedup;
	t->scale = scale;
	t->growth = sc->arrivals.growth_per_day;
	t->first_pass = true;
	*out = &t->base;
	return STATUS_OK;
}
