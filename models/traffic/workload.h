/*
 * workload: where requests come from and how much work each one is.
 *
 * A workload answers one question, "what is the next request?": its arrival time, its size in tokens when
 * known, and its service time on one slot when that does not depend on the instance. The arrival source
 * (arrivals.h: a generator or a trace, with its transforms) draws from the streams "arrivals",
 * "arrivals.state" and "arrivals.transform"; request sizes that the source does not give are drawn from
 * "sizes"; service times from "service". Draws happen in arrival order, when the request arrives, so a
 * change of policy or fleet replays identical traffic with identical sizes (common random numbers).
 *
 * Service times: constant, exponential or lognormal (mean and coefficient of variation: sigma^2 =
 * ln(1 + cv^2), mu = ln(mean) - sigma^2 / 2), rounded to whole microseconds, at least 1 us; or the trace's
 * own service time; or, for the token model, computed by serving when the request starts (service_us = -1
 * here), because the decode speed depends on how many requests share the instance then.
 *
 * Synthetic prefix reuse (workload.prefix_reuse, for sources without block ids; an assumption, SOURCES.md
 * [prefix-reuse-synthetic]). Each request belongs to a conversation: with probability `share` it continues
 * one of the `conversations` most recently started ones (uniformly), else (and always for the first
 * request) it starts a new one. Its prompt is ceil(in_tokens / block_tokens) blocks (at most
 * TRACEFILE_HASHES_MAX, as a trace row's: the blocks past these are never cached) and block j of
 * conversation c has the id mix(c, j), a bijection, so two turns of one conversation share their leading
 * min(n, n') blocks and different conversations share none. The draws come from the stream
 * "prefix_reuse", in arrival order, so they change nothing else. Ids are computed, not stored: memory is
 * the ring of conversation numbers and room for the largest prompt's ids.
 *
 * Multi-model endpoint (serving.multi_model; models/README.md "Multi-model endpoints"): each request invokes model i
 * with probability share_i / sum of shares, one uniform draw from the stream "multi_model" per request, in
 * arrival order, so the choice changes nothing else.
 *
 * The workload ends (STATUS_DONE) at the first arrival after the horizon, or when the source ends. A
 * source that fails while streaming (a malformed trace line) returns its error and message. Nothing is
 * allocated per request; memory does not grow with the number of requests.
 */
#ifndef GPUCAP_WORKLOAD_H
#define GPUCAP_WORKLOAD_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "arrivals.h"
#include "diag.h"
#include "scenario.h"

struct workload {
	const struct scenario *sc;       /* kept */
	bool in_sizes, out_sizes;        /* sizes.input / sizes.output drawn (kind not none): set at init */
	struct arrival_source *src;      /* the arrival source with its transforms, owned */
	gsl_rng *arrivals;               /* stream "arrivals", owned */
	gsl_rng *state;                  /* stream "arrivals.state" (MMPP modulation), owned */
	gsl_rng *transform;              /* stream "arrivals.transform", owned */
	gsl_rng *sizes;                  /* stream "sizes", owned */
	gsl_rng *service;                /* stream "service", owned */
	double ln_mu, ln_sigma;          /* lognormal service parameters (of ln of seconds) */
	int64_t horizon_us;              /* no arrivals after this */
	/* the synthetic reuse model (scenario reuse: workload.prefix_reuse), when on: */
	gsl_rng *reuse;                  /* stream "prefix_reuse", owned; NULL when off */
	int64_t *recent;                 /* owned: the conversations most recently started, a ring of
	                                    sc->reuse.conversations */
	int64_t started;                 /* conversations started so far (the next one's number) */
	uint64_t *ids;                   /* owned: the current request's block ids, TRACEFILE_HASHES_MAX */
	/* a multi-model endpoint (scenario mme: serving.multi_model), when on: */
	gsl_rng *mme;                    /* stream "multi_model", owned; NULL when off */
	double *mme_cum;                 /* owned: cumulative shares, normalised (last = 1), sc->mme.n */
};

struct request_draw {
	int64_t arrival_us;  /* arrival time, microseconds from the start */
	int64_t service_us;  /* service time on one slot, >= 1; -1 when serving computes it (token model) */
	int32_t in_tokens;   /* prompt tokens, -1 when unknown */
	int32_t out_tokens;  /* output tokens, -1 when unknown */
	const uint64_t *hashes;  /* the prefix block ids: the trace row's (its `hash_column`) or the synthetic
	                            reuse model's; valid only until the next workload_next; NULL when none */
	int32_t nhashes;     /* how many; 0 when none */
	int32_t model;       /* multi-model endpoint: the model it invokes (index into sc->mme.models); 0 else */
};

/* Set up from a validated scenario. STATUS_OK, or a failure with its message (nothing is then held). */
int workload_init(struct workload *w, const struct scenario *sc, struct diag *d);
void workload_fini(struct workload *w);

/* Draw the next request into *out: STATUS_OK, STATUS_DONE when there is none before the horizon, or an
 * error from the source with its message in *d. */
int workload_next(struct workload *w, struct request_draw *out, struct diag *d);

/* Draw a token count from a size distribution (at least 1). */
int32_t workload_draw_size(gsl_rng *rng, const struct size_dist *dist);

#endif
