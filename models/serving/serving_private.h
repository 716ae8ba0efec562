/*
 * serving_private: what serving.c and serving_batch.c, the two files of the serving module, share. Not for
 * other modules.
 */
#ifndef GPUCAP_SERVING_PRIVATE_H
#define GPUCAP_SERVING_PRIVATE_H

/* Private to models/serving/: the build defines GPUCAP_IN_SERVING for that folder's files alone. */
#ifndef GPUCAP_IN_SERVING
#error "serving_private.h is private to models/serving/ (models/ARCHITECTURE.md)"
#endif

#include "serving.h"

/* A min-heap of requests by (key, seq), preallocated with room for every slot of its instance. */
struct batch_heap {
	struct request **at;  /* owned (one allocation per batch, see serving_batch_init) */
	int n, cap;
};

/*
 * One instance's continuous batch. The decode clock v counts the tokens each decoding request has
 * decoded since the clock began; a request that joins at v0 with out tokens finishes at v = v0 + out, so
 * one heap of finish thresholds serves all of them however the speed changes. The prefill clock u does the
 * same for prompt tokens under chunked prefill. One event is pending: the next finish of either heap.
 */
struct batch {
	double v;                /* decode clock, tokens per decoding request */
	double u;                /* prefill clock (chunked), prompt tokens per prefilling request */
	int64_t t_us;            /* when the clocks were last brought up to date */
	struct batch_heap dec;   /* decoding requests by finish threshold on v */
	struct batch_heap pre;   /* prefilling requests (chunked) by threshold on u */
	struct event ev;         /* the next finish */
	int inst;                /* its pool index */
	struct serving *owner;   /* kept */
};

/* serving_batch.c. init: set up s->batch for the pool (STATUS_OK or STATUS_ENOMEM, nothing held); fini
 * accepts an uninitialised (NULL) batch. start: r was given a slot on idx now: run it in the batch. reset:
 * instance idx was taken away: forget its batch (its requests are dealt with by the caller). */
int serving_batch_init(struct serving *s, int npool);
void serving_batch_fini(struct serving *s);
void serving_batch_start(struct serving *s, struct request *r, int idx);
void serving_batch_reset(struct serving *s, int idx);

/* One instance's queue (serving.queue per_instance): requests linked by next, oldest sent first. */
struct iqueue {
	struct request *head, *tail;
	int64_t len;
	struct event timeout;    /* at its head's deadline (serving.queue_timeout_s) */
	bool blocked;            /* counted in nblocked */
	int idx;                 /* its pool index */
	struct serving *owner;   /* kept */
};

/* serving.c: r has finished now (meter, slot, KV, instance); then start what waits for instance idx (with
 * a central queue: anywhere). */
void serving_complete(struct serving *s, struct request *r);
void serving_dispatch(struct serving *s, int idx);

/* routing.c (see there). init: per-instance queues, the dense open list, the routing stream (STATUS_OK or
 * STATUS_ENOMEM; fini frees what init got, and accepts a partly set up serving). set_open: instance idx
 * opened or closed, nopen already counts it. pick: where a request with prefix ids[0..n) and KV need
 * `need` goes, or -1 (central: none can start it now; per-instance: none open could hold it).
 * outstanding: requests in service on idx and waiting there. first_free: the lowest pool index with a
 * free slot, or -1. */
int routing_init(struct serving *s, int npool);
void routing_fini(struct serving *s);
void routing_set_open(struct serving *s, int idx, bool open);
int routing_pick(struct serving *s, const uint64_t *ids, int32_t n, int64_t need);
int64_t routing_outstanding(const struct serving *s, int idx);
int routing_first_free(const struct serving *s);
/* The prompt tokens r prefills at its current admission: in_tokens less what the prefix cache spared (0 when
 * unknown). */
int32_t serving_prefill_tokens(const struct serving *s, const struct request *r);
/*
 * The output tokens decoded after the first: the prefill produces the first output token (vLLM's definition
 * of TTFT and TPOT, SOURCES.md [sv-tpot]), so a request of out_tokens decodes out_tokens - 1 more (none for
 * 0 or 1, or unknown, -1).
 */
static inline int32_t serving_decoded_tokens(int32_t out_tokens)
{
	return out_tokens > 1 ? out_tokens - 1 : 0;
}

/* The instance type of instance idx; decode speed on type t at c requests decoding. */
int serving_type_of(const struct serving *s, int idx);
double serving_decode_speed(const struct scenario_type *t, int c);
/* s_ seconds in microseconds, failing the run if beyond the clock (serving.c checked_us). */
int64_t serving_checked_us(const struct serving *s, double s_, const char *what);

#endif
