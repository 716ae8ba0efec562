/* serving: see serving.h. */
#include "serving_private.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "diag.h"
#include "fleet.h"
#include "gpumetric.h"
#include "mme.h"
#include "prefcache.h"
#include "status.h"
#include "tally.h"
#include "tracefile.h"

#define MAX_KV_TOKENS ((int64_t)1 << 40)
#define CHUNK_REQUESTS 4096
#define SLAB_HASH_CHUNKS 1024  /* hash chunks allocated at once when the pool runs dry */

int64_t serving_kv_tokens(const struct scenario *sc, int type)
{
	double t;

	if (sc->types[type].kv_cache_tokens > 0)
		return sc->types[type].kv_cache_tokens;
	if (sc->serving.kv_cache_tokens > 0)
		return sc->serving.kv_cache_tokens;
	if (sc->serving.kv_gpu_memory_gb <= 0)
		return 0;
	/* SOURCES.md [sv-vllm-gpu-mem]: the cache gets what the usable share of GPU memory leaves after the
	 * weights */
	t = floor((sc->types[type].gpus * sc->serving.kv_gpu_memory_gb * sc->serving.kv_utilization -
		   sc->serving.kv_model_gb) * 1e9 / sc->serving.kv_bytes_per_token);
	return t > (double)MAX_KV_TOKENS ? MAX_KV_TOKENS : (int64_t)t;
}

/* The KV cache: each type's capacity, the largest of those serving entries hold, and the per-instance
 * reservations (none without a KV limit). STATUS_OK or STATUS_ENOMEM. */
static int kv_init(struct serving *s, int npool)
{
	const struct scenario *sc = s->sc;

	s->kv_max = 0;
	s->kv_used_total = 0;
	s->kv_cap_open = 0;
	s->kv_last_us = 0;
	s->kv_limited = false;
	s->kv_used_int = 0;
	s->kv_cap_int = 0;
	s->kv_limited_us = 0;
	s->kv_too_large = 0;
	for (int i = 0; i < sc->ntypes; i++)
		s->kv_type[i] = serving_kv_tokens(sc, i);
	s->kv_min = MAX_KV_TOKENS;
	for (int i = 0; i < sc->nfleet; i++) {
		if (sc->fleet[i].use == USE_JOBS)
			continue;
		if (s->kv_type[sc->fleet[i].type] > s->kv_max)
			s->kv_max = s->kv_type[sc->fleet[i].type];
		if (s->kv_type[sc->fleet[i].type] < s->kv_min)
			s->kv_min = s->kv_type[sc->fleet[i].type];
	}
	if (s->kv_type[0] == 0)  /* none, or all (the loader refuses a limit on some types only) */
		return STATUS_OK;
	s->kv_used = calloc((size_t)npool + 1, sizeof *s->kv_used);
	return s->kv_used ? STATUS_OK : STATUS_ENOMEM;
}

/* The prefix cache, one per instance (none without serving.prefix_cache_blocks): a bounded one takes its
 * whole room now. STATUS_OK or STATUS_ENOMEM. */
static int prefix_init(struct serving *s, int npool)
{
	const struct scenario *sc = s->sc;

	s->block_tokens = sc->reuse.conversations > 0 ? sc->reuse.block_tokens   /* synthetic ids (workload.h) */
							: sc->arrivals.mapping.block_tokens;
	if (sc->serving.prefix_cache_blocks == 0)
		return STATUS_OK;
	s->pc = calloc((size_t)npool + 1, sizeof *s->pc);
	s->scratch = malloc(TRACEFILE_HASHES_MAX * sizeof *s->scratch);
	if (!s->pc || !s->scratch)
		return STATUS_ENOMEM;
	s->npc = npool;
	for (int i = 0; i < npool; i++)
		if (prefcache_init(&s->pc[i], sc->serving.prefix_cache_blocks) != STATUS_OK)
			return STATUS_ENOMEM;
	return STATUS_OK;
}

/* The multi-model endpoint's state (none without serving.multi_model). STATUS_OK or STATUS_ENOMEM. */
static int mme_start(struct serving *s, int npool)
{
	if (s->sc->mme.n == 0)
		return STATUS_OK;
	s->mme = malloc(sizeof *s->mme);
	if (!s->mme)
		return STATUS_ENOMEM;
	if (mme_init(s->mme, s->sc, npool, s->meter->warmup_us) != STATUS_OK) {
		free(s->mme);
		s->mme = NULL;
		return STATUS_ENOMEM;
	}
	return STATUS_OK;
}

static double slowdown(const struct scenario *sc, int c);

int serving_init(struct serving *s, const struct scenario *sc, struct engine *eng, struct meter *meter,
		 struct fleet *fleet, int npool)
{
	s->eng = eng;
	s->meter = meter;
	s->fleet = fleet;
	s->slots = sc->serving.slots;
	s->timeout_us = sc->serving.queue_timeout_us;
	s->max_queue = sc->serving.max_queue;
	s->requeue = sc->serving.on_interrupt == INTERRUPT_REQUEUE;
	s->realtime = sc->serving.endpoint == ENDPOINT_REALTIME;
	s->nopen = 0;
	s->refused_closed = 0;
	s->sc = sc;
	s->gm = NULL;
	s->mixed = sc->ntypes > 1;
	s->alone_scale = 1;
	for (int i = 0; i < sc->nfleet; i++)  /* the fastest type serving requests: what no capacity beats */
		if (sc->fleet[i].use != USE_JOBS && sc->types[sc->fleet[i].type].service_scale < s->alone_scale)
			s->alone_scale = sc->types[sc->fleet[i].type].service_scale;
	s->alone_as_drawn = s->alone_scale * slowdown(sc, 1) == 1;
	s->drawn_as_is = sc->service.nslowdown == 0;
	for (int i = 0; i < sc->ntypes; i++)
		s->drawn_as_is = s->drawn_as_is && sc->types[i].service_scale == 1;
	s->copies = sc->copies.enabled;
	s->chunks = NULL;
	s->nchunks = 0;
	s->free_list = NULL;
	s->ring_cap = 1024;
	s->head = 0;
	s->len = 0;
	engine_event_init(&s->timeout);
	s->batch = NULL;
	s->batch_seq = 0;
	s->kv_used = NULL;
	s->pc = NULL;
	s->npc = 0;
	s->scratch = NULL;
	s->hchunks = NULL;
	s->nhchunks = 0;
	s->hfree = 0;
	s->pc_blocks = 0;
	s->pc_hits = 0;
	s->pc_saved = 0;
	s->mme = NULL;
	s->iq = NULL;
	s->openlist = NULL;
	s->openpos = NULL;
	s->cand = NULL;
	s->route_rng = NULL;
	s->npool = npool;
	s->nwords = (npool + 63) / 64;
	s->nsummary = (s->nwords + 63) / 64;
	s->ring = malloc((size_t)s->ring_cap * sizeof *s->ring);
	s->bits = calloc((size_t)s->nwords + 1, sizeof *s->bits);
	s->summary = calloc((size_t)s->nsummary + 1, sizeof *s->summary);
	s->wfree = calloc((size_t)s->nwords + 1, sizeof *s->wfree);
	s->nfree = 0;
	s->open = calloc((size_t)s->nwords + 1, sizeof *s->open);
	if (!s->ring || !s->bits || !s->summary || !s->wfree || !s->open || kv_init(s, npool) != STATUS_OK ||
	    prefix_init(s, npool) != STATUS_OK || mme_start(s, npool) != STATUS_OK ||
	    routing_init(s, npool) != STATUS_OK ||
	    (sc->service.continuous && serving_batch_init(s, npool) != STATUS_OK)) {
		serving_fini(s);
		return STATUS_ENOMEM;
	}
	if (sc->service.continuous || s->kv_used || s->pc || sc->slo.tpot_us > 0 || sc->slo.tpot_pct_us[0] > 0 ||
	    sc->slo.tpot_pct_us[1] > 0 || sc->slo.tpot_pct_us[2] > 0 || sc->slo.tpot_pct_us[3] > 0)
		meter_set_tokens(meter, sc->slo.tpot_us, s->kv_used != NULL);
	if (s->pc)
		meter_set_prefix_used(meter);
	return STATUS_OK;
}

void serving_fini(struct serving *s)
{
	for (int i = 0; i < s->nchunks; i++)
		free(s->chunks[i]);
	free(s->chunks);
	free(s->ring);
	free(s->bits);
	free(s->summary);
	free(s->wfree);
	free(s->open);
	free(s->kv_used);
	for (int i = 0; s->pc && i < s->npc; i++)
		prefcache_fini(&s->pc[i]);
	free(s->pc);
	free(s->scratch);
	for (int i = 0; i < s->nhchunks; i++)
		free(s->hchunks[i]);
	free(s->hchunks);
	s->pc = NULL;
	s->scratch = NULL;
	s->hchunks = NULL;
	s->nhchunks = 0;
	serving_batch_fini(s);
	routing_fini(s);
	if (s->mme)
		mme_fini(s->mme);
	free(s->mme);
	s->mme = NULL;
	s->kv_used = NULL;
	s->chunks = NULL;
	s->open = NULL;
	s->ring = NULL;
	s->bits = NULL;
	s->summary = NULL;
	s->wfree = NULL;
	s->nchunks = 0;
}

/* --- free-slot bitset --- */

static void set_free(struct serving *s, int idx)
{
	int w = idx / 64;
	uint64_t bit = UINT64_C(1) << (idx % 64);

	if (s->bits[w] & bit)
		return;
	s->bits[w] |= bit;
	s->wfree[w]++;
	s->nfree++;
	s->summary[w / 64] |= UINT64_C(1) << (w % 64);
}

static void clear_free(struct serving *s, int idx)
{
	int w = idx / 64;
	uint64_t bit = UINT64_C(1) << (idx % 64);

	if (!(s->bits[w] & bit))
		return;
	s->bits[w] &= ~bit;
	s->wfree[w]--;
	s->nfree--;
	if (s->bits[w] == 0)
		s->summary[w / 64] &= ~(UINT64_C(1) << (w % 64));
}

/* --- KV cache --- */

static int type_of(const struct serving *s, int idx);

/* The KV tokens r reserves from admission to completion: its prompt plus its whole expected output
 * (SOURCES.md [sv-kv-reserve]). */
static int64_t kv_need(const struct request *r)
{
	return (int64_t)(r->in_tokens > 0 ? r->in_tokens : 0) + (r->out_tokens > 0 ? r->out_tokens : 0);
}

/* Bring the KV integrals up to now, within the measured window [warmup, horizon). */
static void kv_account(struct serving *s)
{
	int64_t from = s->kv_last_us > s->meter->warmup_us ? s->kv_last_us : s->meter->warmup_us;
	int64_t to = s->eng->now_us < s->sc->horizon_us ? s->eng->now_us : s->sc->horizon_us;

	if (to > from) {
		s->kv_used_int += (double)s->kv_used_total * (double)(to - from);
		s->kv_cap_int += (double)s->kv_cap_open * (double)(to - from);
		if (s->kv_limited)
			s->kv_limited_us += (double)(to - from);
	}
	s->kv_last_us = s->eng->now_us;
}

/* r takes (+1) or gives back (-1) its KV tokens on instance idx. */
static void kv_reserve(struct serving *s, const struct request *r, int idx, int sign)
{
	if (!s->kv_used)
		return;
	kv_account(s);
	s->kv_used[idx] += sign * kv_need(r);
	s->kv_used_total += sign * kv_need(r);
	assert(s->kv_used[idx] >= 0);
}

/* Record whether instance idx is open (serving with at least one slot), keeping nopen. */
static void set_open(struct serving *s, int idx, bool open)
{
	uint64_t bit = UINT64_C(1) << (idx % 64);

	if (open == ((s->open[idx / 64] & bit) != 0))
		return;
	s->open[idx / 64] ^= bit;
	s->nopen += open ? 1 : -1;
	routing_set_open(s, idx, open);
	if (s->mme)
		mme_set_open(s->mme, idx, open, s->eng->now_us);
	if (s->kv_used) {
		kv_account(s);
		s->kv_cap_open += (open ? 1 : -1) * s->kv_type[type_of(s, idx)];
	}
	assert(s->nopen >= 0);
}

/*
 * Multi-model endpoint (SOURCES.md [mme-routing-assumed]): of the instances with a free slot, the first that
 * has model k loaded or loading; else the first where k fits in the free memory; else the first where it fits
 * after unloading unused models; else -1 (serving.h). O(instances with a free slot).
 */
static int pick_mme(const struct serving *s, int k)
{
	int room = -1, fit = -1;

	for (int w = 0; w < s->nwords; w++)
		for (uint64_t b = s->bits[w]; b; b &= b - 1) {
			int idx = w * 64 + __builtin_ctzll(b);
			if (mme_has(s->mme, idx, k))
				return idx;
			if (room < 0 && mme_room(s->mme, idx, k))
				room = idx;
			if (fit < 0 && mme_fits(s->mme, idx, k))
				fit = idx;
		}
	return room >= 0 ? room : fit;
}

/* With a KV cache: note whether a request waits while a slot is free somewhere (the cache, not the slots,
 * holds it back). */
static void kv_check_limited(struct serving *s)
{
	bool limited;

	if (!s->kv_used)
		return;
	limited = (s->len > 0 && routing_first_free(s) >= 0) || s->nblocked > 0;
	if (limited != s->kv_limited) {
		kv_account(s);
		s->kv_limited = limited;
	}
}

/* --- request pool --- */

static struct request *request_get(struct serving *s)
{
	struct request *r, **chunks;

	if (!s->free_list) {
		chunks = realloc(s->chunks, (size_t)(s->nchunks + 1) * sizeof *chunks);
		if (!chunks)
			return NULL;
		s->chunks = chunks;
		r = malloc(CHUNK_REQUESTS * sizeof *r);
		if (!r)
			return NULL;
		s->chunks[s->nchunks++] = r;
		for (int i = 0; i < CHUNK_REQUESTS; i++) {
			engine_event_init(&r[i].done);
			r[i].hashes = 0;
			r[i].owner = s;
			r[i].next = s->free_list;
			s->free_list = &r[i];
		}
	}
	r = s->free_list;
	s->free_list = r->next;
	return r;
}

/* --- prefix block ids of the requests in the system --- */

static struct hash_chunk *chunk(const struct serving *s, uint32_t h)
{
	return &s->hchunks[(h - 1) / SLAB_HASH_CHUNKS][(h - 1) % SLAB_HASH_CHUNKS];
}

/* Give the chunks from handle h on back to the pool. */
static void hashes_free(struct serving *s, uint32_t h)
{
	while (h) {
		struct hash_chunk *c = chunk(s, h);
		uint32_t next = c->next;
		c->next = s->hfree;
		s->hfree = h;
		h = next;
	}
}

/* Keep ids[0..n) with r, in chunks from the pool (which grows by a slab only when more ids are in the system
 * than ever before). STATUS_OK or STATUS_ENOMEM (r then holds none). */
static int hashes_keep(struct serving *s, struct request *r, const uint64_t *ids, int32_t n)
{
	uint32_t *at = &r->hashes;

	r->hashes = 0;
	for (int32_t done = 0; done < n; done += HASH_CHUNK_IDS) {
		int32_t k = n - done < HASH_CHUNK_IDS ? n - done : HASH_CHUNK_IDS;
		struct hash_chunk *c;
		uint32_t h;
		if (!s->hfree) {
			struct hash_chunk **slabs = NULL, *slab = NULL;
			if ((uint64_t)(s->nhchunks + 1) * SLAB_HASH_CHUNKS < UINT32_MAX &&
			    (slabs = realloc(s->hchunks, (size_t)(s->nhchunks + 1) * sizeof *slabs)))
				s->hchunks = slabs;
			if (slabs)
				slab = malloc(SLAB_HASH_CHUNKS * sizeof *slab);
			if (!slab) {
				*at = 0;
				hashes_free(s, r->hashes);
				r->hashes = 0;
				return STATUS_ENOMEM;
			}
			s->hchunks[s->nhchunks++] = slab;
			for (uint32_t i = SLAB_HASH_CHUNKS; i > 0; i--) {
				slab[i - 1].next = s->hfree;
				s->hfree = (uint32_t)(s->nhchunks - 1) * SLAB_HASH_CHUNKS + i;
			}
		}
		h = s->hfree;
		c = chunk(s, h);
		s->hfree = c->next;
		memcpy(c->id, ids + done, (size_t)k * sizeof *ids);
		*at = h;
		at = &c->next;
	}
	*at = 0;
	if (r->hashes) {
		chunk(s, r->hashes)->n = n;
		chunk(s, r->hashes)->cached_tokens = 0;
	}
	return STATUS_OK;
}

/* r's ids, contiguous, in s->scratch (valid until the next call); returns their count. */
static int32_t hashes_gather(struct serving *s, const struct request *r)
{
	int32_t n = r->hashes ? chunk(s, r->hashes)->n : 0;
	uint32_t h = r->hashes;

	for (int32_t done = 0; done < n; done += HASH_CHUNK_IDS) {
		const struct hash_chunk *c = chunk(s, h);
		int32_t k = n - done < HASH_CHUNK_IDS ? n - done : HASH_CHUNK_IDS;
		memcpy(s->scratch + done, c->id, (size_t)k * sizeof *s->scratch);
		h = c->next;
	}
	return n;
}

/* Give r's chunks back to the pool. */
static void hashes_release(struct serving *s, struct request *r)
{
	hashes_free(s, r->hashes);
	r->hashes = 0;
}

static void request_put(struct serving *s, struct request *r)
{
	if (s->pc)  /* else the union holds no handle (serving.h) */
		hashes_release(s, r);
	r->next = s->free_list;
	s->free_list = r;
}

/* --- the queue --- */

static int queue_push(struct serving *s, struct request *r)
{
	if (s->len == s->ring_cap) {
		int64_t cap = 2 * s->ring_cap;
		struct request **ring = malloc((size_t)cap * sizeof *ring);
		if (!ring)
			return STATUS_ENOMEM;
		for (int64_t i = 0; i < s->len; i++)
			ring[i] = s->ring[(s->head + i) % s->ring_cap];
		free(s->ring);
		s->ring = ring;
		s->ring_cap = cap;
		s->head = 0;
	}
	s->ring[(s->head + s->len) % s->ring_cap] = r;
	s->len++;
	meter_queue(s->meter, s->eng->now_us, +1);
	return STATUS_OK;
}

/* Put r back at the head of the queue (it arrived before everything waiting). */
static int queue_push_front(struct serving *s, struct request *r)
{
	if (s->len == s->ring_cap && queue_push(s, r) == STATUS_OK) {
		/* grown (and r appended at the back): move it to the front by rotating one step */
		s->len--;
		meter_queue(s->meter, s->eng->now_us, -1);
	} else if (s->len == s->ring_cap) {
		return STATUS_ENOMEM;
	}
	s->head = (s->head + s->ring_cap - 1) % s->ring_cap;
	s->ring[s->head] = r;
	s->len++;
	meter_queue(s->meter, s->eng->now_us, +1);
	return STATUS_OK;
}

static struct request *queue_pop(struct serving *s)
{
	struct request *r = s->ring[s->head];

	s->head = (s->head + 1) % s->ring_cap;
	s->len--;
	meter_queue(s->meter, s->eng->now_us, -1);
	return r;
}

int64_t serving_queue_len(const struct serving *s)
{
	return s->len + s->iq_len;
}

static void fail(struct serving *s, int rc)
{
	meter_fail(s->meter, rc);
	engine_stop(s->eng);
}

/* --- service --- */

static enum option_kind kind_of(const struct serving *s, int idx)
{
	return s->fleet->group[s->fleet->pool[idx].group].kind;
}

/* The instance type of instance idx (an index into scenario.types). */
static int type_of(const struct serving *s, int idx)
{
	return s->fleet->group[s->fleet->pool[idx].group].entry->type;
}

/* Report a busy slot of instance idx to the meter (+1 taken, -1 freed): by kind, and by type too. */
static void busy(struct serving *s, int idx, int delta)
{
	meter_busy(s->meter, s->eng->now_us, kind_of(s, idx), delta);
	if (s->mixed)
		meter_type_busy(s->meter, s->eng->now_us, type_of(s, idx), kind_of(s, idx), delta);
}

/* Tell the GPU metrics, if measured, what instance idx holds now (gpumetric.h). */
static void gm_note(struct serving *s, int idx)
{
	const struct instance *in = &s->fleet->pool[idx];

	if (s->gm)
		gpumetric_note(s->gm, s->eng->now_us, idx, type_of(s, idx), in->busy, in->cap,
			       (s->open[idx / 64] >> (idx % 64)) & 1, s->kv_used ? s->kv_used[idx] : 0);
}

static void on_done(struct engine *eng, struct event *ev);

static void unlink_inflight(struct instance *in, struct request *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		in->inflight = r->next;
	if (r->next)
		r->next->prev = r->prev;
}

/* Per-request decode speed on type t at concurrency c: linear between the rows of its table (the
 * workload's unless serving.types gives its own), held beyond its ends. */
static double decode_speed(const struct scenario_type *t, int c)
{
	const struct decode_point *p = t->decode;
	int n = t->ndecode;

	if (c <= p[0].concurrency)
		return p[0].tokens_per_s;
	for (int i = 1; i < n; i++)
		if (c <= p[i].concurrency) {
			double f = (double)(c - p[i - 1].concurrency) / (double)(p[i].concurrency - p[i - 1].concurrency);
			return p[i - 1].tokens_per_s + f * (p[i].tokens_per_s - p[i - 1].tokens_per_s);
		}
	return p[n - 1].tokens_per_s;
}

/* workload.service.slowdown at c requests in service (the one starting included): linear between rows, held
 * beyond the ends; 1 without a table. */
static double slowdown(const struct scenario *sc, int c)
{
	const struct slowdown_point *p = sc->service.slowdown;
	int n = sc->service.nslowdown;

	if (n == 0)
		return 1;
	if (c <= p[0].concurrency)
		return p[0].factor;
	for (int i = 1; i < n; i++)
		if (c <= p[i].concurrency) {
			double f = (double)(c - p[i - 1].concurrency) / (double)(p[i].concurrency - p[i - 1].concurrency);
			return p[i - 1].factor + f * (p[i].factor - p[i - 1].factor);
		}
	return p[n - 1].factor;
}

/*
 * s_ seconds as microseconds (convert.h); a time beyond the clock's range fails the run with a message naming
 * it, and gives 1 us meanwhile (the run stops after this handler and its results are thrown away).
 */
static int64_t checked_us(const struct serving *s, double s_, const char *what)
{
	int64_t us;

	if (convert_time_us(s_ * (double)SIM_US_PER_S, &us) == STATUS_OK)
		return us;
	if (s->meter->status == STATUS_OK) {
		meter_fail(s->meter, STATUS_EINTERNAL);
		diag_fail(s->meter->diag, STATUS_EINTERNAL, "simulation failed: a request's %s of %g s is beyond "
			  "what the clock can hold (%g s)", what, s_, CONVERT_TIME_MAX_US / 1e6);
	}
	engine_stop(s->eng);
	return 1;
}

int serving_type_of(const struct serving *s, int idx)
{
	return type_of(s, idx);
}

double serving_decode_speed(const struct scenario_type *t, int c)
{
	return decode_speed(t, c);
}

int64_t serving_checked_us(const struct serving *s, double s_, const char *what)
{
	return checked_us(s, s_, what);
}

/*
 * Fix the service time of r starting now on an instance of type `type` that will have `concurrency`
 * requests: as drawn (or from the token model), times the type's service_scale (scenario_types.c) and, drawn,
 * times workload.service.slowdown at that concurrency; rounded to the nearest microsecond and at least 1 us;
 * the time to first token's overhead and prefill scale too.
 */
static void plan_service(struct serving *s, struct request *r, int concurrency, int type)
{
	const struct scenario *sc = s->sc;
	const struct scenario_type *t = &sc->types[type];
	double first_s, total_s, scale = t->service_scale;

	if (r->service_us >= 0 && s->drawn_as_is) {  /* what the branch below gives with scale 1 */
		r->run_us = r->service_us;
		r->ttft_us = -1;
		return;
	}
	if (r->service_us >= 0) {
		scale *= slowdown(sc, concurrency);
		r->run_us = r->service_us;
		if (scale != 1) {
			r->run_us = llround((double)r->service_us * scale);
			if (r->run_us < 1)
				r->run_us = 1;
		}
		r->ttft_us = -1;
		return;
	}
	first_s = sc->service.overhead_s + serving_prefill_tokens(s, r) / t->prefill_tokens_per_s;
	total_s = first_s + serving_decoded_tokens(r->out_tokens) / decode_speed(t, concurrency);
	if (scale != 1) {
		first_s *= scale;
		total_s *= scale;
	}
	r->ttft_us = s->eng->now_us - r->arrival_us + checked_us(s, first_s, "time to first token");
	r->run_us = checked_us(s, total_s, "service time");
	if (r->run_us < 1)
		r->run_us = 1;
}

/* The concurrency a request starting on `in` shares its model with: the instance's requests, or with
 * copies those of one copy (requests spread evenly over its serving copies, rounded up). */
static int copy_concurrency(const struct serving *s, const struct instance *in)
{
	int copies;

	if (!s->copies || in->cap == s->slots || in->cap <= 0)  /* several types: no copies */
		return in->busy;
	copies = in->cap / s->slots;
	return (in->busy + copies - 1) / copies;
}

/*
 * r is admitted on instance idx now: its prefix cache spares the prompt's leading blocks it holds (SOURCES.md
 * [prefix-lru]): cached_tokens = min(hits x block_tokens, in_tokens - 1), at least one prompt token always
 * prefilled (the server recomputes the last one to produce the first output token); then all of r's blocks
 * count as cached from now, for whatever is admitted after it. A measured admission (arrival after warmup)
 * counts its blocks and hits, each admission again (a requeued request re-admitted counts twice).
 */
static void admit_prefix(struct serving *s, struct request *r, int idx)
{
	int32_t n, hits;
	int64_t saved;
	int rc;

	if (!s->pc || !r->hashes)  /* no prefix cache, or no ids: nothing spared */
		return;
	n = hashes_gather(s, r);
	hits = prefcache_hits(&s->pc[idx], s->scratch, n);
	saved = (int64_t)hits * s->block_tokens;
	if (saved > (int64_t)r->in_tokens - 1)
		saved = r->in_tokens > 1 ? r->in_tokens - 1 : 0;
	chunk(s, r->hashes)->cached_tokens = (int32_t)saved;
	if (r->arrival_us >= s->meter->warmup_us) {
		s->pc_blocks += (uint64_t)n;
		s->pc_hits += (uint64_t)hits;
		s->pc_saved += (uint64_t)saved;
	}
	if ((rc = prefcache_insert(&s->pc[idx], s->scratch, n)) != STATUS_OK)
		fail(s, rc);
}

int32_t serving_prefill_tokens(const struct serving *s, const struct request *r)
{
	int32_t cached = s->pc && r->hashes ? chunk(s, r->hashes)->cached_tokens : 0;

	return r->in_tokens > 0 ? r->in_tokens - cached : 0;
}

static void start(struct serving *s, struct request *r, int idx)
{
	struct instance *in = &s->fleet->pool[idx];
	int rc;

	assert(in->state == INSTANCE_SERVING && in->busy < in->cap);
	if (++in->busy >= in->cap)
		clear_free(s, idx);
	busy(s, idx, +1);
	kv_reserve(s, r, idx, +1);
	r->start_us = s->eng->now_us;
	r->inst = idx;
	admit_prefix(s, r, idx);
	r->prev = NULL;
	r->next = in->inflight;
	if (in->inflight)
		in->inflight->prev = r;
	in->inflight = r;
	gm_note(s, idx);
	if (s->batch) {
		serving_batch_start(s, r, idx);
		return;
	}
	plan_service(s, r, copy_concurrency(s, in), type_of(s, idx));
	if (s->mme) {  /* SOURCES.md [mme-load-on-demand]: it holds its slot while its model loads */
		int64_t wait_us = mme_admit(s->mme, idx, r->model, s->eng->now_us, r->arrival_us);
		r->run_us += wait_us;
		if (r->ttft_us >= 0)
			r->ttft_us += wait_us;
	}
	rc = engine_schedule(s->eng, &r->done, s->eng->now_us + r->run_us, on_done);
	if (rc != STATUS_OK)
		fail(s, rc);
}

static void on_timeout(struct engine *eng, struct event *ev);

static void arm_timeout(struct serving *s)
{
	int64_t deadline;
	int rc;

	if (s->timeout_us == 0 || s->len == 0 || evq_queued(&s->timeout))
		return;
	deadline = s->ring[s->head]->arrival_us + s->timeout_us;
	if (deadline < s->eng->now_us)
		deadline = s->eng->now_us; /* a requeued request can be past its deadline already */
	rc = engine_schedule(s->eng, &s->timeout, deadline, on_timeout);
	if (rc != STATUS_OK)
		fail(s, rc);
}

/* routing_pick for a request in the system (its ids gathered only when routing looks at them). */
static int pick_for(struct serving *s, const struct request *r)
{
	if (s->mme)
		return pick_mme(s, r->model);
	if (s->sc->serving.routing != ROUTING_PREFIX_AWARE)
		return routing_pick(s, NULL, 0, kv_need(r));
	return routing_pick(s, s->scratch, hashes_gather(s, r), kv_need(r));
}

/* --- per-instance queues (serving.queue per_instance) --- */

static void iq_push(struct serving *s, int idx, struct request *r)
{
	struct iqueue *q = &s->iq[idx];

	r->next = NULL;
	if (q->tail)
		q->tail->next = r;
	else
		q->head = r;
	q->tail = r;
	q->len++;
	s->iq_len++;
	meter_queue(s->meter, s->eng->now_us, +1);
}

static struct request *iq_pop(struct serving *s, int idx)
{
	struct iqueue *q = &s->iq[idx];
	struct request *r = q->head;

	q->head = r->next;
	if (!q->head)
		q->tail = NULL;
	q->len--;
	s->iq_len--;
	meter_queue(s->meter, s->eng->now_us, -1);
	return r;
}

/* Whether a request needing `need` KV tokens can start on instance idx now: it serves, has a free slot and,
 * with a KV cache, room. */
static bool can_start(const struct serving *s, int idx, int64_t need)
{
	const struct instance *in = &s->fleet->pool[idx];

	return in->state == INSTANCE_SERVING && in->busy < in->cap &&
	       (!s->kv_used || s->kv_used[idx] + need <= s->kv_type[type_of(s, idx)]);
}

static void on_iq_timeout(struct engine *eng, struct event *ev);

/* Arm idx's timer at its head's deadline (at once if past: a request sent again may be). */
static void arm_iq_timeout(struct serving *s, int idx)
{
	struct iqueue *q = &s->iq[idx];
	int64_t deadline;
	int rc;

	if (s->timeout_us == 0 || q->len == 0 || evq_queued(&q->timeout))
		return;
	deadline = q->head->arrival_us + s->timeout_us;
	if (deadline < s->eng->now_us)
		deadline = s->eng->now_us;
	if ((rc = engine_schedule(s->eng, &q->timeout, deadline, on_iq_timeout)) != STATUS_OK)
		fail(s, rc);
}

/* Note whether idx has a free slot its head cannot take (the KV cache holds it back). */
static void note_blocked(struct serving *s, int idx)
{
	const struct instance *in = &s->fleet->pool[idx];
	bool blocked = s->kv_used && s->iq[idx].len > 0 && in->state == INSTANCE_SERVING && in->busy < in->cap;

	if (blocked != s->iq[idx].blocked) {
		s->iq[idx].blocked = blocked;
		s->nblocked += blocked ? 1 : -1;
	}
}

/* Start what waits at idx, oldest sent first, while its head can start; a head past its deadline (a
 * request sent again can be behind younger ones, so the timer had not reached it) is dropped instead. */
static void dispatch_instance(struct serving *s, int idx)
{
	struct iqueue *q = &s->iq[idx];

	while (q->len > 0) {
		if (s->timeout_us > 0 && q->head->arrival_us + s->timeout_us <= s->eng->now_us) {
			struct request *r = iq_pop(s, idx);
			meter_dropped(s->meter, s->eng->now_us, r->arrival_us, DROP_TIMEOUT, true);
			request_put(s, r);
			continue;
		}
		if (!can_start(s, idx, kv_need(q->head)))
			break;
		start(s, iq_pop(s, idx), idx);
	}
	note_blocked(s, idx);
	arm_iq_timeout(s, idx);
}

/* r goes to instance idx: it starts there now (at_once: nothing waits there and it can start), else waits
 * there. */
static void send_to(struct serving *s, struct request *r, int idx, bool at_once)
{
	if (at_once) {
		start(s, r, idx);
		return;
	}
	iq_push(s, idx, r);
	note_blocked(s, idx);
	arm_iq_timeout(s, idx);
}

static void send(struct serving *s, struct request *r, int idx)
{
	send_to(s, r, idx, s->iq[idx].len == 0 && can_start(s, idx, kv_need(r)));
}

/* r, already in the system (taken from a queue that closed, or from an instance taken away), is routed
 * again: to an open instance, or when none can hold it to the ring, until one opens. */
static void send_again(struct serving *s, struct request *r)
{
	int idx = s->nopen > 0 ? pick_for(s, r) : -1;

	if (idx >= 0)
		send(s, r, idx);
	else if (queue_push(s, r) != STATUS_OK) {
		meter_dropped(s->meter, s->eng->now_us, r->arrival_us, DROP_INTERRUPTED, true);
		request_put(s, r);
	}
}

/* Instance idx closed: what waits there is routed again, oldest sent first. */
static void iq_close(struct serving *s, int idx)
{
	struct iqueue *q = &s->iq[idx];

	engine_cancel(s->eng, &q->timeout);
	while (q->len > 0)
		send_again(s, iq_pop(s, idx));
	note_blocked(s, idx);
}

/* The ring holds requests that came while nothing was open: route them, oldest first, while one can go. */
static void drain_ring(struct serving *s)
{
	int idx;

	while (s->len > 0 && s->nopen > 0 && (idx = pick_for(s, s->ring[s->head])) >= 0)
		send(s, queue_pop(s), idx);
	arm_timeout(s);
}

/*
 * Central queue: start waiting requests, oldest first, while the head finds a free slot (and, with a KV
 * cache, room); the head that does not fit holds back those behind it: first come, first served.
 * Per-instance queues: start what waits at `at` (if >= 0), then route what the ring holds.
 */
static void dispatch(struct serving *s, int at)
{
	int idx;

	/* nothing waits (in the ring, or at `at`) and no KV cache to account: what follows would do nothing
	 * (a completion with an empty queue, most of a serving run's) */
	if (s->len == 0 && !s->kv_used && (!s->per_instance || at < 0 || s->iq[at].len == 0))
		return;
	if (s->per_instance) {
		if (at >= 0)
			dispatch_instance(s, at);
		drain_ring(s);
		kv_check_limited(s);
		return;
	}
	while (s->len > 0 && (idx = pick_for(s, s->ring[s->head])) >= 0)
		start(s, queue_pop(s), idx);
	kv_check_limited(s);
	arm_timeout(s);
}

void serving_dispatch(struct serving *s, int idx)
{
	dispatch(s, idx);
}

/*
 * r is done now: meter it (with its time per output token, (now - first token) / (out_tokens - 1), when it
 * has a first token and at least 2 output tokens), free its slot and KV tokens.
 */
void serving_complete(struct serving *s, struct request *r)
{
	int64_t now = s->eng->now_us;
	int idx = r->inst;
	struct instance *in = &s->fleet->pool[idx];

	in->busy--;
	unlink_inflight(in, r);
	busy(s, idx, -1);
	kv_reserve(s, r, idx, -1);
	gm_note(s, idx);
	if (s->mme)
		mme_release(s->mme, idx, r->model, now);
	if (s->mixed && r->arrival_us >= s->meter->warmup_us)
		meter_type_served(s->meter, type_of(s, idx));
	if (s->tally) {
		/* several models share the meter: each request counts against its own model's threshold */
		meter_set_slo_latency(s->meter, s->tally->slo_latency_us);
		tally_served(s->tally, r->arrival_us, r->start_us - r->arrival_us, now - r->arrival_us);
	}
	meter_served(s->meter, now, r->arrival_us, r->start_us - r->arrival_us, now - r->arrival_us,
		     r->ttft_us, r->alone_us);
	if (s->meter->tokens_used && r->ttft_us >= 0 && r->out_tokens >= 2)  /* SOURCES.md [sv-tpot] */
		meter_tpot(s->meter, r->arrival_us, llround((double)(now - r->arrival_us - r->ttft_us) /
							    (r->out_tokens - 1)));
	request_put(s, r);
	if (in->state == INSTANCE_SERVING && in->busy < in->cap)
		set_free(s, idx);
	else if (in->state == INSTANCE_DRAINING && in->busy == 0)
		fleet_instance_idle(s->fleet, idx);
}

static void on_done(struct engine *eng, struct event *ev)
{
	struct request *r = container_of(ev, struct request, done);
	struct serving *s = r->owner;

	int idx = r->inst;

	(void)eng;
	serving_complete(s, r);
	dispatch(s, idx);
}

static void on_timeout(struct engine *eng, struct event *ev)
{
	struct serving *s = container_of(ev, struct serving, timeout);

	/* The head has the earliest deadline; the timer may fire early after the head was served, and
	 * then simply re-arms for the new head. */
	while (s->len > 0 && s->ring[s->head]->arrival_us + s->timeout_us <= eng->now_us) {
		struct request *r = queue_pop(s);
		meter_dropped(s->meter, eng->now_us, r->arrival_us, DROP_TIMEOUT, true);
		request_put(s, r);
	}
	if (s->kv_used)  /* the dropped head may have been what held the others back */
		dispatch(s, -1);
	arm_timeout(s);
}

/* An instance's queue's timer: its head is due; drop what is due at the head, then start what can. */
static void on_iq_timeout(struct engine *eng, struct event *ev)
{
	struct iqueue *q = container_of(ev, struct iqueue, timeout);
	struct serving *s = q->owner;

	while (q->len > 0 && q->head->arrival_us + s->timeout_us <= eng->now_us) {
		struct request *r = iq_pop(s, q->idx);
		meter_dropped(s->meter, eng->now_us, r->arrival_us, DROP_TIMEOUT, true);
		request_put(s, r);
	}
	dispatch_instance(s, q->idx);
	kv_check_limited(s);
}

/* The service time of a request with a slot to itself at once: as drawn, or for the token model as
 * plan_service would fix it on an instance (copy) serving it alone, at concurrency 1. What no capacity
 * can shorten (slo_violation_rate_floor). */
static int64_t alone_us(const struct serving *s, const struct request_draw *draw)
{
	const struct scenario *sc = s->sc;
	double total_s, best_s;

	if (draw->service_us >= 0 && s->alone_as_drawn)
		return draw->service_us;
	if (draw->service_us >= 0) {  /* on the fastest type, alone, as plan_service rounds it */
		int64_t us = llround((double)draw->service_us * s->alone_scale * slowdown(sc, 1));
		return us < 1 ? 1 : us;
	}
	if (s->mixed) {  /* on the type where it is fastest alone, of those serving entries hold */
		best_s = HUGE_VAL;
		for (int i = 0; i < sc->nfleet; i++) {
			const struct scenario_type *t = &sc->types[sc->fleet[i].type];
			if (sc->fleet[i].use == USE_JOBS)
				continue;
			total_s = (sc->service.overhead_s + (draw->in_tokens > 0 ? draw->in_tokens : 0) / t->prefill_tokens_per_s +
				   serving_decoded_tokens(draw->out_tokens) / decode_speed(t, 1)) * t->service_scale;
			if (total_s < best_s)
				best_s = total_s;
		}
		return checked_us(s, best_s, "service time");
	}
	total_s = sc->service.overhead_s + (draw->in_tokens > 0 ? draw->in_tokens : 0) / sc->service.prefill_tokens_per_s +
		  serving_decoded_tokens(draw->out_tokens) / decode_speed(&sc->types[0], 1);
	return checked_us(s, total_s * s->alone_scale, "service time");
}

void serving_arrive(struct serving *s, const struct request_draw *draw)
{
	struct request *r;
	int64_t now = s->eng->now_us, alone = alone_us(s, draw);
	int64_t need = (int64_t)(draw->in_tokens > 0 ? draw->in_tokens : 0) + (draw->out_tokens > 0 ? draw->out_tokens : 0);
	/* central: first come, first served: with a KV cache a request may wait while slots are free; none
	 * overtakes it. Per-instance: it is sent to an open instance (the ring holds it while none is). */
	int idx = s->per_instance ? (s->nopen > 0 ? routing_pick(s, draw->hashes, draw->nhashes, need) : -1) :
		  (s->kv_used || s->mme) && s->len > 0 ? -1 :
		  s->mme ? pick_mme(s, draw->model) : routing_pick(s, draw->hashes, draw->nhashes, need);
	bool at_once = idx >= 0 && (!s->per_instance || (s->iq[idx].len == 0 && can_start(s, idx, need)));

	if (s->tally) {
		meter_set_slo_latency(s->meter, s->tally->slo_latency_us);  /* its floor: against its own threshold */
		tally_arrival(s->tally, draw->arrival_us);
	}
	meter_arrival(s->meter, draw->arrival_us, alone);
	if (s->kv_used && need > s->kv_max) {
		/* SOURCES.md [sv-kv-reserve]: it could never be admitted; refused at once rather than left to
		 * block the queue for good */
		if (draw->arrival_us >= s->meter->warmup_us)
			s->kv_too_large++;
		meter_dropped(s->meter, now, draw->arrival_us, DROP_REFUSED, true);
		return;
	}
	if (idx < 0 && s->realtime && s->nopen == 0) {
		/* SOURCES.md [sm-realtime-refuse-at-zero]: while a real-time endpoint has nothing in service "any
		 * attempts to invoke the endpoint will produce an error" (NoCapacityInvocationFailures) */
		s->refused_closed++;
		meter_dropped(s->meter, now, draw->arrival_us, DROP_REFUSED, true);
		return;
	}
	if (!at_once && s->len + s->iq_len >= s->max_queue) {
		meter_dropped(s->meter, now, draw->arrival_us, DROP_REFUSED, true);
		return;
	}
	r = request_get(s);
	if (!r) {
		fail(s, STATUS_ENOMEM);
		return;
	}
	r->arrival_us = draw->arrival_us;
	r->service_us = draw->service_us;
	r->in_tokens = draw->in_tokens;
	r->out_tokens = draw->out_tokens;
	r->alone_us = alone;
	r->hashes = 0;
	r->model = draw->model;  /* the same word as hashes: with multi_model there is no prefix cache */
	if (s->pc && hashes_keep(s, r, draw->hashes, draw->nhashes) != STATUS_OK) {
		request_put(s, r);
		fail(s, STATUS_ENOMEM);
		return;
	}
	if (idx >= 0 && s->per_instance) {
		send_to(s, r, idx, at_once);  /* nothing above changed idx: at_once is send's own test */
		kv_check_limited(s);
		return;
	}
	if (idx >= 0) {
		start(s, r, idx);
		return;
	}
	if (queue_push(s, r) != STATUS_OK) {
		request_put(s, r);
		fail(s, STATUS_ENOMEM);
		return;
	}
	kv_check_limited(s);
	arm_timeout(s);
}

void serving_instance_up(struct serving *s, int idx)
{
	serving_set_capacity(s, idx, s->sc->types[type_of(s, idx)].slots);
}

void serving_set_capacity(struct serving *s, int idx, int slots)
{
	struct instance *in = &s->fleet->pool[idx];

	in->cap = slots;
	set_open(s, idx, in->state == INSTANCE_SERVING && in->cap > 0);
	gm_note(s, idx);
	if (in->state == INSTANCE_SERVING && in->busy < in->cap)
		set_free(s, idx);
	else
		clear_free(s, idx);
	if (s->per_instance && !(in->state == INSTANCE_SERVING && in->cap > 0))
		iq_close(s, idx);  /* no slot left (copies): what waits there goes elsewhere */
	dispatch(s, idx);
}

/* An instance that stops serving loses its prefix cache: when it serves again (or its pool index holds a new
 * instance) the cache starts empty. */
static void prefix_forget(struct serving *s, int idx)
{
	if (s->pc)
		prefcache_clear(&s->pc[idx]);
}

void serving_instance_down(struct serving *s, int idx)
{
	prefix_forget(s, idx);
	clear_free(s, idx);
	set_open(s, idx, false);
	gm_note(s, idx);
	if (s->per_instance)  /* it drains: what waits there is routed again */
		iq_close(s, idx);
	kv_check_limited(s);
}

/* Order the requests of one instance by arrival, newest first, so pushing each to the front of the queue
 * leaves them oldest first. Insertion sort: an instance has at most `slots` requests. */
static struct request *newest_first(struct request *list)
{
	struct request *out = NULL;

	while (list) {
		struct request *r = list, **at = &out;
		list = list->next;
		while (*at && ((*at)->arrival_us > r->arrival_us))
			at = &(*at)->next;
		r->next = *at;
		*at = r;
	}
	return out;
}

void serving_reclaim(struct serving *s, int idx)
{
	struct instance *in = &s->fleet->pool[idx];
	struct request *r = newest_first(in->inflight);

	in->inflight = NULL;
	prefix_forget(s, idx);
	clear_free(s, idx);
	set_open(s, idx, false);
	if (s->batch)
		serving_batch_reset(s, idx);
	while (r) {
		struct request *next = r->next;
		engine_cancel(s->eng, &r->done);
		in->busy--;
		busy(s, idx, -1);
		kv_reserve(s, r, idx, -1);
		if (s->mme)
			mme_release(s->mme, idx, r->model, s->eng->now_us);
		meter_interrupted(s->meter, r->arrival_us);
		if (s->requeue && s->per_instance) {
			send_again(s, r);  /* the router sends it again, to the back of where it goes */
		} else if (!s->requeue || queue_push_front(s, r) != STATUS_OK) {
			/* dropped, by choice (on_interrupt: drop) or because the queue cannot grow */
			meter_dropped(s->meter, s->eng->now_us, r->arrival_us, DROP_INTERRUPTED, true);
			request_put(s, r);
		}
		r = next;
	}
	assert(in->busy == 0);
	gm_note(s, idx);
	if (s->per_instance)
		iq_close(s, idx);
	/* a requeued head may be past its deadline already: let the timer see to it now */
	engine_cancel(s->eng, &s->timeout);
	dispatch(s, -1);
}

void serving_abandon(struct serving *s)
{
	for (int i = 0; s->iq && s->iq_len > 0 && i < s->npool; i++) {
		engine_cancel(s->eng, &s->iq[i].timeout);
		while (s->iq[i].len > 0) {
			struct request *r = iq_pop(s, i);
			meter_dropped(s->meter, s->eng->now_us, r->arrival_us, DROP_UNSERVED, true);
			request_put(s, r);
		}
	}
	while (s->len > 0) {
		struct request *r = queue_pop(s);
		meter_dropped(s->meter, s->eng->now_us, r->arrival_us, DROP_UNSERVED, true);
		request_put(s, r);
	}
	engine_cancel(s->eng, &s->timeout);
	if (s->kv_used) {  /* the KV results of the measured window [warmup, horizon) */
		int64_t measured = s->sc->horizon_us - s->meter->warmup_us;
		kv_account(s);
		meter_set_kv(s->meter, s->kv_cap_int > 0 ? s->kv_used_int / s->kv_cap_int : NAN,
			     measured > 0 ? s->kv_limited_us / (double)measured : NAN, s->kv_too_large);
	}
	if (s->mme) {  /* SOURCES.md [mme-metrics] */
		struct meter_mme out;
		mme_report(s->mme, s->sc->horizon_us, &out);
		meter_set_mme(s->meter, &out);
	}
	if (s->pc)  /* SOURCES.md [prefix-lru]: hit blocks over blocks looked up, measured admissions */
		meter_set_prefix(s->meter, s->pc_blocks > 0 ? (double)s->pc_hits / (double)s->pc_blocks : NAN,
				 s->pc_saved);
}
