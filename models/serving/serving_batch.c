/*
 * serving_batch: continuous batching on each instance (workload.service.batching: continuous; serving.h,
 * models/README.md "Serving model").
 *
 * A request given a slot first spends overhead_s (and, with prefill whole, its prompt at the type's prefill
 * speed: in_tokens / prefill_tokens_per_s) on its own, holding the slot but not counted in the batch; its
 * first token comes at the end of its prefill (the prefill produces it). It then decodes its other out_tokens - 1
 * in the batch: every decoding
 * request on the instance advances at decode_speed(b) tokens per second, b the number decoding there now,
 * the type's decode table read as in the fixed model (linear between rows, held beyond the ends); the speed
 * changes for all of them at every join and leave (SOURCES.md [sv-continuous-batching]).
 *
 * With prefill chunked, prompts are processed inside the decode iterations instead (SOURCES.md
 * [sv-chunked-prefill]): while p > 0 requests prefill, one iteration takes tau = 1 / decode_speed(b) +
 * chunk_tokens / prefill_tokens_per_s (no decode term when b = 0); each decoding request advances one token
 * per iteration, and the chunk budget is shared evenly by the prefilling requests, chunk_tokens / p each.
 * This is a fluid approximation: iterations are not discrete, a last partial chunk costs its share only.
 * Every time is x the type's service_scale.
 *
 * Exact and cheap: each instance keeps a decode clock v (tokens decoded per request so far) and a prefill
 * clock u, both advancing at the current rates; a request joining at v0 finishes at v0 + out_tokens - 1. Heaps of
 * those thresholds, preallocated for the instance's slots, and one pending event per instance (the next
 * finish), rescheduled at each change: O(log slots) per change, a constant number of events per request,
 * nothing allocated per event.
 */
#include "serving_private.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include "fleet.h"
#include "status.h"

/* --- heap of requests by (key, seq) --- */

static bool before(const struct request *a, const struct request *b)
{
	return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static void heap_push(struct batch_heap *h, struct request *r)
{
	int i = h->n++;

	assert(h->n <= h->cap);
	while (i > 0 && before(r, h->at[(i - 1) / 2])) {
		h->at[i] = h->at[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->at[i] = r;
}

static struct request *heap_pop(struct batch_heap *h)
{
	struct request *top = h->at[0], *last = h->at[--h->n];
	int i = 0;

	for (;;) {
		int c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && before(h->at[c + 1], h->at[c]))
			c++;
		if (!before(h->at[c], last))
			break;
		h->at[i] = h->at[c];
		i = c;
	}
	if (h->n > 0)
		h->at[i] = last;
	return top;
}

/* --- set-up --- */

int serving_batch_init(struct serving *s, int npool)
{
	size_t total = 0;
	struct request **at;

	s->batch = calloc((size_t)npool + 1, sizeof *s->batch);
	if (!s->batch)
		return STATUS_ENOMEM;
	for (int i = 0; i < npool; i++)
		total += 2 * (size_t)s->sc->types[serving_type_of(s, i)].slots;
	at = malloc((total + 1) * sizeof *at);
	if (!at) {
		free(s->batch);
		s->batch = NULL;
		return STATUS_ENOMEM;
	}
	for (int i = 0; i < npool; i++) {
		struct batch *b = &s->batch[i];
		int slots = s->sc->types[serving_type_of(s, i)].slots;
		b->dec = (struct batch_heap){ at, 0, slots };
		b->pre = (struct batch_heap){ at + slots, 0, slots };
		at += 2 * slots;
		engine_event_init(&b->ev);
		b->inst = i;
		b->owner = s;
	}
	return STATUS_OK;
}

void serving_batch_fini(struct serving *s)
{
	if (s->batch)
		free(s->batch[0].dec.at);  /* the one allocation all heaps share starts there */
	free(s->batch);
	s->batch = NULL;
}

/* --- clocks --- */

/* The decode and prefill clock speeds of b now, tokens per second per request (0 when none). */
static void rates(const struct serving *s, const struct batch *b, double *rd, double *rp)
{
	const struct scenario_type *t = &s->sc->types[serving_type_of(s, b->inst)];
	double tau, scale = t->service_scale;
	int nd = b->dec.n, np = b->pre.n;

	*rd = nd > 0 ? serving_decode_speed(t, nd) / scale : 0;
	*rp = 0;
	if (!s->sc->service.chunked || np == 0)
		return;
	tau = ((nd > 0 ? 1 / serving_decode_speed(t, nd) : 0) + s->sc->service.chunk_tokens / t->prefill_tokens_per_s) *
	      scale;
	*rd = nd > 0 ? 1 / tau : 0;
	*rp = s->sc->service.chunk_tokens / (np * tau);
}

/* Bring b's clocks up to now at the rates that held since they were last brought up. */
static void advance(const struct serving *s, struct batch *b)
{
	double rd, rp, dt = (double)(s->eng->now_us - b->t_us) / SIM_US_PER_S;

	rates(s, b, &rd, &rp);
	b->v += rd * dt;
	b->u += rp * dt;
	b->t_us = s->eng->now_us;
}

/* Microseconds from now until the top of h reaches its key on a clock at `clock` moving at `rate`. */
static int64_t until_us(const struct serving *s, const struct batch_heap *h, double clock, double rate)
{
	double left = h->at[0]->key - clock;

	return left <= 0 ? 0 : serving_checked_us(s, left / rate, "service time");
}

static void on_batch(struct engine *eng, struct event *ev);

/* Schedule b's one event at its next finish (none when empty). */
static void reschedule(struct serving *s, struct batch *b)
{
	int64_t next = INT64_MAX;
	double rd, rp;
	int rc;

	engine_cancel(s->eng, &b->ev);
	rates(s, b, &rd, &rp);
	if (b->dec.n > 0)
		next = until_us(s, &b->dec, b->v, rd);
	if (b->pre.n > 0) {
		int64_t p = until_us(s, &b->pre, b->u, rp);
		next = p < next ? p : next;
	}
	if (next == INT64_MAX)
		return;
	rc = engine_schedule(s->eng, &b->ev, s->eng->now_us + next, on_batch);
	if (rc != STATUS_OK) {
		meter_fail(s->meter, rc);
		engine_stop(s->eng);
	}
}

/* --- phases --- */

/* r's first token is out now: it joins the decoding requests, or with no output is done. The clocks are up
 * to date. */
static void first_token(struct serving *s, struct batch *b, struct request *r)
{
	r->ttft_us = s->eng->now_us - r->arrival_us;
	if (serving_decoded_tokens(r->out_tokens) == 0) {  /* its only output token came with the prefill */
		serving_complete(s, r);
		return;
	}
	r->key = b->v + serving_decoded_tokens(r->out_tokens);
	r->seq = s->batch_seq++;
	heap_push(&b->dec, r);
}

/* End of r's time on its own (overhead, and with prefill whole its prompt). */
static void on_prefilled(struct engine *eng, struct event *ev)
{
	struct request *r = container_of(ev, struct request, done);
	struct serving *s = r->owner;
	struct batch *b = &s->batch[r->inst];

	(void)eng;
	advance(s, b);
	if (s->sc->service.chunked && serving_prefill_tokens(s, r) > 0) {
		r->key = b->u + serving_prefill_tokens(s, r);
		r->seq = s->batch_seq++;
		heap_push(&b->pre, r);
	} else {
		first_token(s, b, r);
	}
	reschedule(s, b);
	serving_dispatch(s, b->inst);
}

static bool due(const struct serving *s, const struct batch_heap *h, double clock, double rate)
{
	return h->n > 0 && until_us(s, h, clock, rate) == 0;
}

/* The next finish of b: prompts done (first token), then outputs done (the request leaves). */
static void on_batch(struct engine *eng, struct event *ev)
{
	struct batch *b = container_of(ev, struct batch, ev);
	struct serving *s = b->owner;
	double rd, rp;

	(void)eng;
	advance(s, b);
	rates(s, b, &rd, &rp);
	while (due(s, &b->pre, b->u, rp))
		first_token(s, b, heap_pop(&b->pre));
	rates(s, b, &rd, &rp);  /* those joined the decoding requests: the rate changed (the instant did not) */
	while (due(s, &b->dec, b->v, rd))
		serving_complete(s, heap_pop(&b->dec));
	reschedule(s, b);
	serving_dispatch(s, b->inst);
}

void serving_batch_start(struct serving *s, struct request *r, int idx)
{
	const struct scenario_type *t = &s->sc->types[serving_type_of(s, idx)];
	double alone_s = s->sc->service.overhead_s;
	int rc;

	if (!s->sc->service.chunked && serving_prefill_tokens(s, r) > 0)
		alone_s += serving_prefill_tokens(s, r) / t->prefill_tokens_per_s;
	r->ttft_us = -1;
	rc = engine_schedule(s->eng, &r->done, s->eng->now_us +
			     serving_checked_us(s, alone_s * t->service_scale, "time to first token"), on_prefilled);
	if (rc != STATUS_OK) {
		meter_fail(s->meter, rc);
		engine_stop(s->eng);
	}
}

void serving_batch_reset(struct serving *s, int idx)
{
	struct batch *b = &s->batch[idx];

	engine_cancel(s->eng, &b->ev);
	b->dec.n = 0;
	b->pre.n = 0;
	b->v = 0;
	b->u = 0;
	b->t_us = s->eng->now_us;
}
