/*
 * mme: the models loaded on each instance of a SageMaker multi-model endpoint (serving.multi_model;
 * models/README.md "Multi-model endpoints").
 *
 * Each instance has memory_gb of model memory. A request for model k admitted on instance i finds k in one
 * of three states there: loaded (a hit: no wait), loading (it waits for that same load to end), or absent
 * (it loads k now, taking load_s, after unloading the least recently used models that no request on i is
 * using until k fits: SOURCES.md [mme-load-on-demand], [mme-lru-assumed]). A model counts as loaded, and
 * takes its memory, from the start of its load until it is unloaded. A model is "used" from a request's
 * admission to its completion; its recency is the later of its last admission and last completion (ties:
 * the lower model index is evicted first). An instance that stops serving unloads what no request uses,
 * and the rest as those requests finish.
 *
 * Sizes are kept as integer kilobytes (size_gb x 1e6, rounded) so that "fits" is exact. Memory is
 * npool x models x 20 bytes, all taken by mme_init; nothing is allocated afterwards. Eviction scans the
 * instance's models: O(models) per eviction, fine for the few hundred models of an endpoint.
 *
 * Metrics (SOURCES.md [mme-metrics]), over requests arriving from warmup on and loads and evictions from
 * warmup on: the hit ratio (admissions that found their model loaded), the wait caused by loading of the
 * admissions that waited (mean, p99), the time-average of models loaded per open instance over [warmup,
 * horizon), and the counts of loads and evictions.
 */
#ifndef GPUCAP_MME_H
#define GPUCAP_MME_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"
#include "meter.h"
#include "scenario.h"

struct mme {
	const struct scenario *sc;  /* kept */
	int npool;                  /* instances (pool indices) */
	int nmodels;                /* sc->mme.n */
	int64_t mem_kb;             /* model memory per instance, KB */
	int64_t *size_kb;           /* owned, per model: its size, KB */
	int64_t *ready_us;          /* owned, npool x nmodels: when the model is (or will be) loaded; -1 =
	                               not loaded */
	int64_t *last_us;           /* owned, npool x nmodels: its last admission or completion, us */
	int32_t *refs;              /* owned, npool x nmodels: requests using it (admitted, not finished) */
	int64_t *used_kb;           /* owned, per instance: memory its loaded models take, KB */
	int64_t *pinned_kb;         /* owned, per instance: of which models in use (not evictable), KB */
	int32_t *nloaded;           /* owned, per instance: models loaded */
	bool *open;                 /* owned, per instance: serving (mme_set_open) */
	int64_t loaded_open;        /* models loaded on open instances, summed */
	int nopen;                  /* open instances */
	int64_t acct_us;            /* the integrals below are up to here */
	int64_t warmup_us;          /* measured from here */
	double loaded_int;          /* integral of loaded_open over [warmup, horizon), model-us */
	double open_int;            /* integral of nopen over [warmup, horizon), instance-us */
	uint64_t admissions;        /* measured admissions */
	uint64_t hits;              /* of which found their model loaded */
	uint64_t loads;             /* loads started from warmup on */
	uint64_t evictions;         /* models unloaded for room from warmup on */
	struct hist wait;           /* the load wait of measured admissions that waited, s */
};

/* Set up for npool instances, nothing loaded, measuring from warmup_us. STATUS_OK or STATUS_ENOMEM
 * (nothing held). sc is kept. */
int mme_init(struct mme *m, const struct scenario *sc, int npool, int64_t warmup_us);
/* Free what m owns; harmless on a zeroed struct. */
void mme_fini(struct mme *m);

/* Model k is loaded or loading on instance idx. */
bool mme_has(const struct mme *m, int idx, int k);
/* Model k fits in instance idx's free memory now (no unloading needed). */
bool mme_room(const struct mme *m, int idx, int k);
/* Model k could be loaded on instance idx now, after unloading models no request uses. */
bool mme_fits(const struct mme *m, int idx, int k);

/*
 * A request for model k (arrived at arrival_us) is admitted on instance idx at now_us: a hit, a wait for
 * the load in progress, or a new load (evicting least recently used unused models first; mme_fits must
 * hold). Returns how long it waits for the model, us (0 for a hit).
 */
int64_t mme_admit(struct mme *m, int idx, int k, int64_t now_us, int64_t arrival_us);
/* A request for model k on instance idx is done (finished, or taken away) at now_us. */
void mme_release(struct mme *m, int idx, int k, int64_t now_us);
/* Instance idx starts (open) or stops serving at now_us. Stopping unloads its models no request uses. */
void mme_set_open(struct mme *m, int idx, bool open, int64_t now_us);
/* The run's metrics, the time-average up to horizon_us. */
void mme_report(struct mme *m, int64_t horizon_us, struct meter_mme *out);

#endif
