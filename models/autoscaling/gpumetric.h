/*
 * gpumetric: the GPU metrics an endpoint publishes, as an autoscaling policy sees them (models/README.md, "GPU
 * metrics"; SOURCES.md [sm-gpu-metrics], [nvml-utilization], [gpu-mem-prealloc], [torch-caching-allocator]).
 *
 * gpu_utilization. NVML's utilization is the share of time a kernel was running on the GPU, not how much
 * of the GPU the work needs: one request running on an instance keeps every GPU it spans busy. So an
 * instance contributes, at each moment, all its GPUs when at least one request runs on it and none
 * otherwise; the metric over a period is the time-average of that, in percent, summed over the instance's
 * GPUs (0-100 x GPUs, as GPUUtilization is), per instance counted. Nothing makes it proportional to the
 * load: that is the point the model keeps.
 * With copies (inference components) it is per copy and normalised (GPUUtilizationNormalized, 0-100): a
 * copy is busy while a request runs on it; an instance's requests are taken to sit on distinct copies
 * first, so busy copies = min(requests in service, serving copies).
 *
 * gpu_memory_utilization (no copies; needs serving.kv_cache): in percent of one GPU's memory summed over
 * the instance's GPUs, = 100 x memory held (GB) / gpu_memory_gb. With preallocation (vLLM's default) an
 * instance holds utilization x all its GPU memory from its first request on and never gives it back
 * (100 x utilization x GPUs); before its first request, and always without preallocation, it holds the
 * model's weights plus the high-water mark of the KV cache it has used since it came into service (a
 * caching allocator keeps what it once held: model_gb + hwm_tokens x bytes_per_token / 1e9).
 *
 * Which instances count: those open (serving with at least one slot) and those still finishing requests
 * (draining); an instance counts from when it opens until it has neither, and then forgets its memory (a
 * new instance in the same pool slot starts afresh). A period in which none counted has no datapoint (NaN).
 *
 * The owner tells gpumetric_note() every change of an instance's requests in service, slots, openness or
 * KV tokens in use; the sums are integrated lazily, so a note is O(1) and allocates nothing.
 */
#ifndef GPUCAP_GPUMETRIC_H
#define GPUCAP_GPUMETRIC_H

#include <stdbool.h>
#include <stdint.h>

#include "scenario.h"

struct gpumetric_inst {
	double busy;          /* its share of the numerator now: busy GPUs (copies: busy copies) */
	double count;         /* its share of the denominator now: 1 instance (copies: serving copies) or 0 */
	double mem_pct;       /* its memory now, percent summed over its GPUs; 0 while not counted */
	int64_t hwm_tokens;   /* the most KV tokens it has held since it came into service */
	bool used;            /* it has run a request since it came into service */
};

struct gpumetric {
	bool copies;              /* per copy, normalised (serving.copies) */
	int slots_per_copy;       /* serving.slots with copies */
	bool preallocate;         /* serving.kv_cache.preallocate */
	double gpu_memory_gb;     /* serving.kv_cache.gpu_memory_gb; 0 = memory not measured */
	double model_gb;          /* serving.kv_cache.model_gb */
	double bytes_per_token;   /* serving.kv_cache.bytes_per_token */
	double utilization;       /* serving.kv_cache.utilization: the preallocated share */
	int gpus[SCENARIO_TYPES_MAX];  /* GPUs of one instance of each type */
	struct gpumetric_inst *inst;   /* per pool index, owned */
	int npool;
	double busy_now, count_now, mem_now;  /* the sums over instances now */
	double busy_int, count_int, mem_int;  /* their integrals since the last take, x us */
	int64_t last_us;          /* integrals are up to here */
};

/* Set up for a pool of npool instances of scenario sc (borrowed, not kept). STATUS_OK or STATUS_ENOMEM
 * (nothing held). */
int gpumetric_init(struct gpumetric *g, const struct scenario *sc, int npool);
void gpumetric_fini(struct gpumetric *g);

/* Instance idx (of type `type`) now has `busy` requests in service, `cap` slots, is open or not, and holds
 * kv_tokens KV tokens (0 without a KV cache). */
void gpumetric_note(struct gpumetric *g, int64_t now_us, int idx, int type, int busy, int cap, bool open,
		    int64_t kv_tokens);

/* The metrics over the period since the previous take (or the start), ending now: *util_pct and *mem_pct
 * (NaN when nothing counted; mem NaN when memory is not measured). Restarts the integrals. */
void gpumetric_take(struct gpumetric *g, int64_t now_us, double *util_pct, double *mem_pct);

#endif
