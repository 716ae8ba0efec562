/*
 * arrivals: where requests come from. Every arrival source, real or synthetic, answers "what is the next
 * request?" through one interface, and transforms wrap any source.
 *
 * A source yields arrivals in non-decreasing time order, in microseconds from its own start (the scenario
 * start), with the request's size when it knows it (prompt and output tokens, -1 when not) and its service
 * time when a trace gives one (NaN when not). next() returns STATUS_OK, STATUS_DONE when the source has
 * nothing more, or an error with a message (a trace that turns out malformed while streaming). Sources draw
 * randomness only from the streams they are given (named by the caller), never allocate per arrival, and
 * keep memory independent of how many arrivals they produce.
 *
 * Sources (one file each): constant rate with steps, Poisson or evenly spaced (arrivals_rate.c); a daily
 * and weekly profile as a non-homogeneous Poisson process (arrivals_profile.c); bursts from a two-state
 * Markov-modulated Poisson process (arrivals_mmpp.c); a flash crowd (arrivals_flash.c); per-window rate
 * series, summed over several files (arrivals_series.c); a request trace (arrivals_trace.c); CloudWatch
 * metrics, a count per period (arrivals_cloudwatch.c). Transforms
 * (arrivals_transform.c): scale_rate, speedup, growth_per_day, loop, offset.
 */
#ifndef GPUCAP_ARRIVALS_H
#define GPUCAP_ARRIVALS_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "diag.h"
#include "scenario.h"

struct arrival {
	int64_t t_us;        /* arrival time, microseconds from the start */
	int32_t in_tokens;   /* prompt tokens, -1 when unknown */
	int32_t out_tokens;  /* output tokens, -1 when unknown */
	double service_s;    /* service time given by the source, NaN when unknown */
	const uint64_t *hashes;  /* a trace row's prefix block ids (tracefile.h: valid until the source's call
	                            after next); NULL, with nhashes 0, when the source has none */
	int32_t nhashes;
};

struct arrival_source;

struct arrival_source_ops {
	int (*next)(struct arrival_source *src, struct arrival *out, struct diag *d);
	/* Start again from the beginning (for `loop`); NULL when the source cannot. */
	int (*rewind)(struct arrival_source *src, struct diag *d);
	void (*free)(struct arrival_source *src);
};

struct arrival_source {
	const struct arrival_source_ops *ops;  /* the implementation; its state follows in a larger struct */
};

struct scenario;

/* Free a source; NULL allowed. */
void arrivals_free(struct arrival_source *src);

/* Seconds from the start to whole microseconds (rounded, convert.h); false when the time is not finite or
 * its magnitude not below 2^62 us (~146,000 years): a generator then ends. */
bool arrivals_seconds_to_us(double t_s, int64_t *t_us);

/*
 * Constructors. Each reads its parameters from sc->arrivals (validated by the loader), keeps the streams it
 * is given (owned by the caller, who frees them after the source) and returns owned (free with
 * arrivals_free). Those that read files return a status and a message; the others return NULL only when
 * out of memory.
 */
struct arrival_source *arrivals_rate_new(const struct scenario *sc, gsl_rng *rng);    /* poisson, uniform */
struct arrival_source *arrivals_profile_new(const struct scenario *sc, gsl_rng *rng); /* diurnal */
struct arrival_source *arrivals_mmpp_new(const struct scenario *sc, gsl_rng *rng, gsl_rng *state_rng);
struct arrival_source *arrivals_flash_new(const struct scenario *sc, gsl_rng *rng);
int arrivals_series_new(struct arrival_source **out, const struct scenario *sc, gsl_rng *rng, struct diag *d);
int arrivals_trace_new(struct arrival_source **out, const struct scenario *sc, struct diag *d);
int arrivals_cloudwatch_new(struct arrival_source **out, const struct scenario *sc, gsl_rng *rng,
			    struct diag *d);

/*
 * The diurnal source's thinning, exposed for tests (src must come from arrivals_profile_new): its rate at
 * t_s seconds from the start, computed exactly; for the step (minute) holding t_s, the bounds lo and hi the
 * source thins against and the rate it computes there (so lo <= rate <= hi must hold; the call moves the
 * source's current step: use it on a source that draws no more); and the exponential gaps it has drawn.
 */
double arrivals_profile_rate(const struct arrival_source *src, double t_s);
void arrivals_profile_step(struct arrival_source *src, double t_s, double *lo, double *rate, double *hi);
uint64_t arrivals_profile_candidates(const struct arrival_source *src);

/* Check every row of rate-series file `path` (in `format`) as arrivals_series_new would read it, drawing
 * nothing: STATUS_OK, STATUS_ENOENT (cannot open or read) or STATUS_EINPUT with "FILE:LINE: ..." in d. */
int arrivals_series_check(const char *path, enum series_format format, struct diag *d);

/*
 * The factor a generator multiplies its rates by: scale_rate for every kind but a trace (whose requests
 * can only be thinned or copied, which the transform does). Applying it to a generator's rate, rather
 * than thinning its output, keeps a 2% slice of a large service as cheap as the slice. 1 when unset.
 */
double arrivals_rate_scale(const struct scenario *sc);

/* Wrap `inner` (taken) in the transforms sc->arrivals asks for (returned as is when there are none). */
int arrivals_transform_new(struct arrival_source **out, struct arrival_source *inner, const struct scenario *sc,
			   gsl_rng *rng, struct diag *d);

#endif
