/*
 * serving: the router, the queues and the slots of the instances in service.
 *
 * Every instance serves up to `slots` requests at once; a request's latency is its wait in the queue plus
 * its service time. Where it goes is the routing's (routing.c, serving.routing); where it waits,
 * serving.queue's. With the central queue (described first below) an arriving request starts at once on an
 * instance that is serving and has a free slot (first_free: the first in fleet (pool) order); otherwise it
 * joins the back of the queue, or is refused when the queue already holds max_queue requests. With
 * per-instance queues it is sent to one open instance on arrival and starts there at once if nothing waits
 * there and a slot is free, else waits there (refused when max_queue requests wait over all instances);
 * a slot freed on an instance takes the head of that instance's queue; what waits at an instance that
 * closes, or was in flight on one taken away (requeue), is routed again; the central ring then holds only
 * requests that came while nothing was open (async). On a realtime endpoint (serving.endpoint) a request that arrives while
 * no instance is open (serving, with at least one slot: with copies, a copy serving) is refused too, even
 * while instances are launching: the invocation fails (SOURCES.md [sm-realtime-refuse-at-zero]); an async
 * endpoint queues it. When a slot frees, the head of the queue starts there. With a
 * queue_timeout, a request still waiting queue_timeout after it arrived is dropped (one timer serves the
 * whole queue: its head always has the earliest deadline).
 *
 * Token model (workload.service.kind: tokens): a request's service time is fixed when it starts, as
 * overhead + input tokens / prefill speed + output tokens / decode speed, where the decode speed per request
 * is read from the decode table at the instance's concurrency at that moment (the request included),
 * interpolated linearly between rows and held beyond the ends. The concurrency can change while it runs;
 * holding the speed fixed from the start is the model's simplification (models/README.md, "Serving model"). Its time
 * to first token is its wait plus overhead plus prefill.
 *
 * Several instance types (scenario_types.c): an instance serves its own type's slots_per_instance, and a
 * request's service time is scaled by the service_scale of the type of the instance it starts on (fixed
 * at its start, like the token model's). Its time alone (slo_violation_rate_floor) is on the fastest type
 * of the serving fleet. Routing does not look at types (nor speeds): a slow type gets its share.
 *
 * Continuous batching and the KV cache (workload.service.batching, serving.kv_cache_tokens; serving_batch.c,
 * models/README.md "Serving model"): with batching continuous, the requests decoding on one instance share its
 * iterations and decode at the decode table's speed at their current number, changing whenever one joins or
 * leaves; with a KV cache a request starts only where a slot is free and its prompt plus output fit beside
 * what the instance holds, and the queue is strictly first-come first-served (a head that fits nowhere
 * holds back those behind it).
 *
 * Prefix cache (serving.prefix_cache_blocks, serving.routing; models/README.md "Prefix caching"): each instance keeps
 * a prefcache of prompt blocks by hash id. A request carries its trace row's ids (kept in chunks from a
 * pool, HASH_CHUNK_IDS each, from arrival until it is put back); when it starts on an instance its leading
 * cached blocks shorten its prefill (cached_tokens) and all its ids enter that cache. With routing
 * cache_aware it starts on the instance, of those that can admit it, whose cache holds most of its leading
 * blocks. An instance that stops serving loses its cache.
 *
 * Multi-model endpoint (serving.multi_model; mme.h, models/README.md "Multi-model endpoints"): a request goes to the
 * first instance in pool order with a free slot that has its model loaded or loading, else to the first
 * with a free slot and free memory for it, else to the first with a free slot where the model fits after
 * unloading unused models, else it waits (in FIFO order: a
 * head that fits nowhere holds back those behind it). Its slot is taken from admission: it waits there for
 * its model's load (a new one, or the one in progress), then is served; the load wait is in its latency,
 * not in its queue wait.
 *
 * Free slots are found through a two-level bitset over the pool (which instances are serving with a free
 * slot), so dispatch costs O(pool / 4096) words, not O(pool). Requests come from a pool of fixed chunks that
 * grows only when more requests are in the system at once than ever before; each carries its own
 * completion event. Nothing is allocated per request in steady state.
 */
#ifndef GPUCAP_SERVING_H
#define GPUCAP_SERVING_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "engine.h"
#include "meter.h"
#include "scenario.h"
#include "workload.h"

struct fleet;
struct gpumetric;
struct iqueue;
struct mme;
struct prefcache;

/* A request's prefix block ids are kept in chunks of HASH_CHUNK_IDS (512 bytes a chunk), linked by handle
 * (1 + index in the serving's pool; 0 = none), from a pool with a free list. The request holds only the
 * handle of its first chunk, which also carries its count and what the cache spared, so that struct request
 * does not grow. */
#define HASH_CHUNK_IDS 62
struct hash_chunk {
	uint32_t next;          /* handle of the request's next chunk, or the free list's next; 0 = none */
	int32_t n;              /* first chunk: the request's ids in all */
	int32_t cached_tokens;  /* first chunk: prompt tokens its instance's prefix cache spared at its last
	                           admission */
	uint64_t id[HASH_CHUNK_IDS];
};

struct request {
	int64_t arrival_us;     /* when it arrived */
	union {
		int64_t service_us;  /* batching fixed: service time on one slot; -1: computed at start (token
		                        model) */
		uint64_t seq;        /* batching continuous (token model, where service_us is not used): order
		                        of joining a phase, the tie-break between equal keys */
	};
	int32_t in_tokens;      /* prompt tokens, -1 when unknown */
	int32_t out_tokens;     /* output tokens, -1 when unknown */
	int64_t ttft_us;        /* time to first token (wait + overhead + prefill), -1 when not modelled */
	union {
		int64_t run_us;      /* batching fixed: the service time of the current run */
		double key;          /* batching continuous: the clock value (tokens) at which its phase ends */
	};
	int64_t alone_us;       /* its service time with a slot to itself at once (token model: at
	                           concurrency 1), fixed at arrival: what no capacity can shorten */
	int64_t start_us;       /* when service started */
	int inst;               /* pool index of the instance serving it */
	union {  /* a prefix cache and a multi-model endpoint never go together (scenario_mme.c) */
		uint32_t hashes;     /* with a prefix cache: its prefix block ids, the handle of its first hash
		                        chunk; 0 = none (a row without ids); read only when s->pc */
		int32_t model;       /* multi-model endpoint: the model it invokes (mme.h) */
	};
	struct event done;      /* end of service */
	struct serving *owner;  /* kept */
	struct request *next;   /* free-list link, or the next request in service on the same instance */
	struct request *prev;   /* the previous request in service on the same instance */
};

struct serving {
	struct engine *eng;         /* kept */
	struct meter *meter;        /* kept */
	struct fleet *fleet;        /* kept */
	int slots;                  /* slots per instance */
	int64_t timeout_us;         /* queue timeout, 0 = none */
	int64_t max_queue;          /* queue bound */
	bool requeue;               /* on_interrupt: requeue (true) or drop requests of an instance taken */
	bool realtime;              /* endpoint: realtime (refuse with nothing open) or async (queue) */
	int nopen;                  /* instances open: serving with at least one slot */
	uint64_t refused_closed;    /* requests refused because nothing was open (realtime) */
	const struct scenario *sc;  /* kept: the token model's parameters */
	bool mixed;                 /* the scenario has several instance types (meter by type too) */
	double alone_scale;         /* the smallest service_scale of a serving entry's type (1 with one
	                               type): a request's time alone is on the fastest type */
	bool alone_as_drawn;        /* alone_scale x the slowdown at concurrency 1 is 1: a drawn service
	                               time is its time alone (worked out once, not per request) */
	bool drawn_as_is;           /* no slowdown table and every type's service_scale 1: a drawn service
	                               time is served as drawn (plan_service's shortcut) */
	bool copies;                /* sc->copies.enabled, kept here beside the other per-request flags */

	struct request **chunks;    /* owned request chunks */
	int nchunks;
	struct request *free_list;  /* requests not in use */

	struct request **ring;      /* the FIFO queue, owned ring buffer */
	int64_t ring_cap, head, len;
	struct event timeout;       /* fires at the head's deadline */

	/* continuous batching (serving_batch.c): per instance, owned; NULL with batching fixed */
	struct batch *batch;
	uint64_t batch_seq;         /* joins so far: heap tie-break */
	/* KV cache: per instance tokens reserved, owned; NULL without a KV limit */
	int64_t *kv_used;
	int64_t kv_type[SCENARIO_TYPES_MAX];  /* capacity of one instance of each type, tokens */
	int64_t kv_max;             /* the largest capacity of a type serving entries hold */
	int64_t kv_used_total;      /* tokens reserved over all instances */
	int64_t kv_cap_open;        /* capacity of the instances open */
	int64_t kv_last_us;         /* integrals below are up to here */
	bool kv_limited;            /* a request waits while a slot is free somewhere */
	double kv_used_int;         /* integral of kv_used_total over the measured window, token-us */
	double kv_cap_int;          /* integral of kv_cap_open over the measured window, token-us */
	double kv_limited_us;       /* measured time kv_limited held */
	uint64_t kv_too_large;      /* measured requests refused as larger than every instance's cache */

	/* prefix cache (serving.prefix_cache_blocks; models/README.md "Prefix caching"): NULL without one */
	struct prefcache *pc;       /* per instance, owned */
	int npc;                    /* how many */
	uint64_t *scratch;          /* owned: one request's ids, contiguous, TRACEFILE_HASHES_MAX of them */
	struct hash_chunk **hchunks;  /* owned slabs of hash chunks */
	int nhchunks;
	uint32_t hfree;             /* handle of the first hash chunk not in use; 0 = none */
	int32_t block_tokens;       /* tokens per block */
	uint64_t pc_blocks;         /* blocks looked up at measured admissions */
	uint64_t pc_hits;           /* of those, leading blocks the cache held */
	uint64_t pc_saved;          /* prompt tokens their prefill skipped */

	struct gpumetric *gm;       /* told every change of an instance's requests, slots, openness and KV
	                               tokens (gpumetric.h); NULL = GPU metrics not measured; kept */
	struct mme *mme;            /* multi-model endpoint (serving.multi_model), owned; NULL without */

	uint64_t *bits;             /* bit i: instance i is serving with a free slot; owned */
	uint64_t *summary;          /* bit w: bits[w] != 0; owned */
	uint8_t *wfree;             /* wfree[w]: the bits set in bits[w]; owned */
	int nfree;                  /* the bits set in bits[], instances with a free slot */
	uint64_t *open;             /* bit i: instance i is open (serving, cap > 0); owned */
	int nwords, nsummary;
	struct tally *tally;        /* several models: this one's counts (tally.h), kept; NULL = one model */

	/* routing (routing.c) and per-instance queues (serving.queue per_instance) */
	int npool;                  /* instances the pool can hold */
	bool per_instance;          /* requests wait at the instance they were sent to; the ring above then
	                               holds only those that arrived while nothing was open (async) */
	struct iqueue *iq;          /* per instance, owned; NULL with a central queue */
	int64_t iq_len;             /* requests waiting in the instances' queues, all told */
	int nblocked;               /* per-instance with a KV cache: instances with a free slot whose queue's
	                               head does not fit (kv_limited) */
	int64_t kv_min;             /* the smallest KV capacity of a type serving entries hold */
	int *openlist;              /* the open instances, dense, nopen of them; owned */
	int *openpos;               /* each instance's place in openlist, -1 = not open; owned */
	int *cand;                  /* scratch: one routing decision's candidates; owned */
	int rr;                     /* round_robin: the pool index last sent to, -1 = none yet */
	gsl_rng *route_rng;         /* the stream "routing", owned; NULL when the routing draws nothing */
	bool route_random_plain;    /* routing random, no copies: routing_pick's shortcuts apply (routing.c) */
};

/* The KV-cache tokens of one instance of type `type` (an index into sc->types): serving.kv_cache_tokens, or
 * derived from serving.kv_cache with the type's GPUs; 0 = no limit. The loader calls it to validate. */
int64_t serving_kv_tokens(const struct scenario *sc, int type);

/* Set up for a pool of npool instances. STATUS_OK or STATUS_ENOMEM (nothing held). */
int serving_init(struct serving *s, const struct scenario *sc, struct engine *eng, struct meter *meter,
		 struct fleet *fleet, int npool);
void serving_fini(struct serving *s);

/* A request arrives now. */
void serving_arrive(struct serving *s, const struct request_draw *draw);

/* Instance idx starts / stops taking new requests (its requests in service go on). Up gives it `slots`
 * request slots. */
void serving_instance_up(struct serving *s, int idx);

/* Instance idx now serves up to `slots` requests at once (with copies: its serving copies' slots). Fewer
 * than it has in service is fine: those finish, and none starts there until it is below the new count.
 * Starts waiting requests if that freed room. */
void serving_set_capacity(struct serving *s, int idx, int slots);
void serving_instance_down(struct serving *s, int idx);

/* Instance idx is taken away now (end of a Spot notice, a Capacity Block's end): its requests in service
 * go back to the head of the queue, oldest first, to start again from scratch, or are dropped, as
 * serving.on_interrupt says. Each counts in requests_interrupted. */
void serving_reclaim(struct serving *s, int idx);

/* Requests waiting now. */
int64_t serving_queue_len(const struct serving *s);

/* Drop whatever still waits (the run is over and nothing will serve it). */
void serving_abandon(struct serving *s);

#endif
