/* gpumetric: see gpumetric.h. */
#include "gpumetric.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

int gpumetric_init(struct gpumetric *g, const struct scenario *sc, int npool)
{
	memset(g, 0, sizeof *g);
	g->inst = calloc(npool > 0 ? (size_t)npool : 1, sizeof *g->inst);
	if (!g->inst)
		return STATUS_ENOMEM;
	g->npool = npool;
	g->copies = sc->copies.enabled;
	g->slots_per_copy = sc->serving.slots > 0 ? sc->serving.slots : 1;
	g->preallocate = sc->serving.kv_preallocate;
	g->gpu_memory_gb = sc->serving.kv_gpu_memory_gb;
	g->model_gb = sc->serving.kv_model_gb;
	g->bytes_per_token = sc->serving.kv_bytes_per_token;
	g->utilization = sc->serving.kv_utilization;
	for (int i = 0; i < sc->ntypes && i < SCENARIO_TYPES_MAX; i++)
		g->gpus[i] = sc->types[i].gpus;
	return STATUS_OK;
}

void gpumetric_fini(struct gpumetric *g)
{
	free(g->inst);
	g->inst = NULL;
	g->npool = 0;
}

static void advance(struct gpumetric *g, int64_t now_us)
{
	double dt = (double)(now_us - g->last_us);

	assert(now_us >= g->last_us);
	g->busy_int += g->busy_now * dt;
	g->count_int += g->count_now * dt;
	g->mem_int += g->mem_now * dt;
	g->last_us = now_us;
}

/* Memory held by an instance of `gpus` GPUs, percent of one GPU's memory summed over them (gpumetric.h):
 * preallocated (SOURCES.md [gpu-mem-prealloc]) once used, else weights + the KV high-water mark
 * (SOURCES.md [torch-caching-allocator]). */
static double memory_pct(const struct gpumetric *g, const struct gpumetric_inst *x, int gpus)
{
	if (g->gpu_memory_gb <= 0)
		return 0;
	if (g->preallocate && x->used)
		return 100.0 * g->utilization * gpus;
	return 100.0 * (g->model_gb + (double)x->hwm_tokens * g->bytes_per_token / 1e9) / g->gpu_memory_gb;
}

void gpumetric_note(struct gpumetric *g, int64_t now_us, int idx, int type, int busy, int cap, bool open,
		    int64_t kv_tokens)
{
	struct gpumetric_inst *x;
	bool counted = open || busy > 0;

	assert(idx >= 0 && idx < g->npool && type >= 0 && type < SCENARIO_TYPES_MAX);
	advance(g, now_us);
	x = &g->inst[idx];
	g->busy_now -= x->busy;
	g->count_now -= x->count;
	g->mem_now -= x->mem_pct;
	if (!counted) {  /* gone (or not yet serving): it starts afresh when it counts again */
		memset(x, 0, sizeof *x);
		return;
	}
	if (kv_tokens > x->hwm_tokens)
		x->hwm_tokens = kv_tokens;
	x->used |= busy > 0;
	if (g->copies) {
		int copies = cap / g->slots_per_copy;
		x->count = copies;
		/* SOURCES.md [nvml-utilization]: a copy with a request on it is busy, whatever its load */
		x->busy = busy < copies ? busy : copies;
	} else {
		x->count = 1;
		/* SOURCES.md [nvml-utilization]: one request keeps every GPU of the instance busy */
		x->busy = busy > 0 ? g->gpus[type] : 0;
	}
	x->mem_pct = memory_pct(g, x, g->gpus[type]);
	g->busy_now += x->busy;
	g->count_now += x->count;
	g->mem_now += x->mem_pct;
}

void gpumetric_take(struct gpumetric *g, int64_t now_us, double *util_pct, double *mem_pct)
{
	advance(g, now_us);
	*util_pct = *mem_pct = NAN;
	if (g->count_int > 0) {
		/* SOURCES.md [sm-gpu-metrics]: percent summed over GPUs per instance; per copy normalised */
		*util_pct = 100.0 * g->busy_int / g->count_int;
		if (g->gpu_memory_gb > 0 && !g->copies)
			*mem_pct = g->mem_int / g->count_int;
	}
	g->busy_int = g->count_int = g->mem_int = 0;
}
