/*
 * routing: where a request goes (serving.routing, models/README.md "Routing"; SOURCES.md [sm-routing]).
 *
 * The candidates depend on where requests wait (serving.queue):
 *   central       the instances that can start the request now: serving with a free slot and, with a KV
 *                 cache, room for its prompt and output; none means it waits in the central queue.
 *   per_instance  the instances open (serving, at least one slot) whose type's KV cache could ever hold it;
 *                 it is sent to one and waits there if that one cannot start it now.
 * Of those, the routing takes:
 *   first_free         the lowest pool index that can start it now; per-instance, when none can, the one
 *                      with the fewest outstanding requests (lowest index on a tie)
 *   random             one drawn uniformly (SageMaker RANDOM)
 *   least_outstanding  the fewest outstanding (in service + waiting there), ties drawn uniformly (SageMaker
 *                      LEAST_OUTSTANDING_REQUESTS)
 *   round_robin        the next pool index after the one last sent to, cyclically
 *   power_of_two       two distinct ones drawn, the one with fewer outstanding (the first drawn on a tie)
 *   prefix_aware       central: the one whose prefix cache holds most of its leading blocks (lowest index
 *                      on a tie); per-instance (SageMaker PREFIX_AWARE): the same, ties to fewer
 *                      outstanding, unless none holds any of it or that one's outstanding requests have
 *                      reached prefix_threshold: then least_outstanding.
 * With copies (serving.copies, SageMaker inference components) the endpoint routes to copies, not
 * instances: random and power_of_two draw an instance with probability in proportion to its slots (its
 * serving copies), and least_outstanding and power_of_two compare outstanding requests per slot.
 * Draws come from the stream "routing" (rng.h), made only when the routing draws.
 *
 * Cost per decision: random and power_of_two O(1) over the dense list of open instances (O(open) when a KV
 * cache with several types must filter it); least_outstanding, round_robin and prefix_aware O(candidates);
 * central candidates are gathered from the free-slot bitset, O(pool / 64 + free).
 */
#include "serving_private.h"

#include <math.h>
#include <stdlib.h>

#include "fleet.h"
#include "prefcache.h"
#include "rng.h"
#include "status.h"

int routing_init(struct serving *s, int npool)
{
	const struct scenario *sc = s->sc;
	enum routing_kind k = sc->serving.routing;

	s->per_instance = sc->serving.queue == QUEUE_PER_INSTANCE;
	s->route_random_plain = k == ROUTING_RANDOM && !sc->copies.enabled;
	s->rr = -1;
	s->iq_len = 0;
	s->nblocked = 0;
	s->openlist = malloc(((size_t)npool + 1) * sizeof *s->openlist);
	s->openpos = malloc(((size_t)npool + 1) * sizeof *s->openpos);
	s->cand = malloc(((size_t)npool + 1) * sizeof *s->cand);
	if (!s->openlist || !s->openpos || !s->cand)
		return STATUS_ENOMEM;
	for (int i = 0; i < npool; i++)
		s->openpos[i] = -1;
	if (k == ROUTING_RANDOM || k == ROUTING_LEAST_OUTSTANDING || k == ROUTING_POWER_OF_TWO ||
	    (k == ROUTING_PREFIX_AWARE && s->per_instance))
		if (!(s->route_rng = rng_new(sc->seed, "routing")))
			return STATUS_ENOMEM;
	if (s->per_instance) {
		s->iq = calloc((size_t)npool + 1, sizeof *s->iq);
		if (!s->iq)
			return STATUS_ENOMEM;
		for (int i = 0; i < npool; i++) {
			engine_event_init(&s->iq[i].timeout);
			s->iq[i].owner = s;
			s->iq[i].idx = i;
		}
	}
	return STATUS_OK;
}

void routing_fini(struct serving *s)
{
	free(s->openlist);
	free(s->openpos);
	free(s->cand);
	free(s->iq);
	if (s->route_rng)
		gsl_rng_free(s->route_rng);
	s->openlist = NULL;
	s->openpos = NULL;
	s->cand = NULL;
	s->iq = NULL;
	s->route_rng = NULL;
}

/* nopen has already changed: keep the dense list (swap-remove, so its order depends only on the run). */
void routing_set_open(struct serving *s, int idx, bool open)
{
	if (open) {
		s->openpos[idx] = s->nopen - 1;
		s->openlist[s->nopen - 1] = idx;
	} else {
		int at = s->openpos[idx], last = s->openlist[s->nopen];
		s->openlist[at] = last;
		s->openpos[last] = at;
		s->openpos[idx] = -1;
	}
}

int routing_first_free(const struct serving *s)
{
	for (int i = 0; i < s->nsummary; i++) {
		if (s->summary[i] == 0)
			continue;
		int w = i * 64 + __builtin_ctzll(s->summary[i]);
		return w * 64 + __builtin_ctzll(s->bits[w]);
	}
	return -1;
}

/* Whether instance idx, which has a free slot, has KV room for need more tokens (always without a KV cache). */
static bool kv_room(const struct serving *s, int idx, int64_t need)
{
	return !s->kv_used || s->kv_used[idx] + need <= s->kv_type[serving_type_of(s, idx)];
}

/* The lowest pool index with a free slot and KV room, or -1. */
static int first_fit(const struct serving *s, int64_t need)
{
	if (!s->kv_used)
		return routing_first_free(s);
	for (int w = 0; w < s->nwords; w++)
		for (uint64_t b = s->bits[w]; b; b &= b - 1)
			if (kv_room(s, w * 64 + __builtin_ctzll(b), need))
				return w * 64 + __builtin_ctzll(b);
	return -1;
}

int64_t routing_outstanding(const struct serving *s, int idx)
{
	return s->fleet->pool[idx].busy + (s->iq ? s->iq[idx].len : 0);
}

/* The candidates (see the top), in *out; returns how many. Central ones are in pool order. */
static int candidates(struct serving *s, int64_t need, const int **out)
{
	int n = 0;

	if (!s->per_instance) {
		for (int w = 0; w < s->nwords; w++)
			for (uint64_t b = s->bits[w]; b; b &= b - 1)
				if (kv_room(s, w * 64 + __builtin_ctzll(b), need))
					s->cand[n++] = w * 64 + __builtin_ctzll(b);
		*out = s->cand;
		return n;
	}
	if (!s->kv_used || need <= s->kv_min) {
		*out = s->openlist;
		return s->nopen;
	}
	for (int i = 0; i < s->nopen; i++)
		if (need <= s->kv_type[serving_type_of(s, s->openlist[i])])
			s->cand[n++] = s->openlist[i];
	*out = s->cand;
	return n;
}

static int draw(struct serving *s, int n)
{
	return (int)rng_uniform_int(s->route_rng, (unsigned long)n);
}

/* The load routing compares: outstanding requests, per slot with copies. */
static double load_of(const struct serving *s, int idx)
{
	const struct instance *in = &s->fleet->pool[idx];
	double o = (double)routing_outstanding(s, idx);

	return s->sc->copies.enabled && in->cap > 0 ? o / in->cap : o;
}

/* One candidate drawn: uniformly, or with copies in proportion to its slots (a copy drawn uniformly). */
static int draw_one(struct serving *s, const int *c, int n)
{
	double total = 0, u;

	if (!s->sc->copies.enabled)
		return draw(s, n);
	for (int i = 0; i < n; i++)
		total += s->fleet->pool[c[i]].cap;
	u = rng_uniform(s->route_rng) * total;
	for (int i = 0; i < n; i++)
		if ((u -= s->fleet->pool[c[i]].cap) < 0)
			return i;
	return n - 1;
}

static int least_outstanding(struct serving *s, const int *c, int n)
{
	int best = -1, ties = 0;
	double least = HUGE_VAL;

	for (int i = 0; i < n; i++) {
		double o = load_of(s, c[i]);
		if (o < least) {
			least = o;
			best = c[i];
			ties = 1;
		} else if (o == least && draw(s, ++ties) == 0) {  /* each of the tied kept with chance 1/ties */
			best = c[i];
		}
	}
	return best;
}

/* The fewest outstanding, the lowest pool index on a tie (first_free's fallback: it draws nothing). */
static int least_lowest(const struct serving *s, const int *c, int n)
{
	int best = -1;
	int64_t least = INT64_MAX;

	for (int i = 0; i < n; i++) {
		int64_t o = routing_outstanding(s, c[i]);
		if (o < least || (o == least && c[i] < best)) {
			least = o;
			best = c[i];
		}
	}
	return best;
}

static int round_robin(struct serving *s, const int *c, int n)
{
	int next = -1, lowest = -1;

	for (int i = 0; i < n; i++) {
		if (c[i] > s->rr && (next < 0 || c[i] < next))
			next = c[i];
		if (lowest < 0 || c[i] < lowest)
			lowest = c[i];
	}
	return s->rr = next >= 0 ? next : lowest;
}

static int power_of_two(struct serving *s, const int *c, int n)
{
	int i, j;

	if (n == 1)
		return c[0];
	i = draw_one(s, c, n);
	if (s->sc->copies.enabled) {  /* a second copy, drawn until on another instance */
		for (int k = 0; k < 64 && (j = draw_one(s, c, n)) == i; k++)
			;
		if (j == i)
			return c[i];
	} else {
		j = draw(s, n - 1);
		if (j >= i)
			j++;
	}
	return load_of(s, c[j]) < load_of(s, c[i]) ? c[j] : c[i];
}

/* The most leading blocks cached (ids[0..n)), ties as the top says; *hits gets how many. */
static int most_cached(const struct serving *s, const int *c, int nc, const uint64_t *ids, int32_t n,
		       int32_t *hits)
{
	int best = -1;

	*hits = -1;
	for (int i = 0; i < nc; i++) {
		int32_t h = prefcache_hits(&s->pc[c[i]], ids, n);
		if (h > *hits || (h == *hits && s->per_instance &&
				  routing_outstanding(s, c[i]) < routing_outstanding(s, best))) {
			*hits = h;
			best = c[i];
		}
	}
	return best;
}

static int prefix_aware(struct serving *s, const int *c, int nc, const uint64_t *ids, int32_t n)
{
	int32_t hits;
	int best = most_cached(s, c, nc, ids, n, &hits);
	int threshold = s->sc->serving.prefix_threshold > 0 ? s->sc->serving.prefix_threshold :
			s->sc->types[serving_type_of(s, best)].slots;

	if (!s->per_instance)
		return best;
	if (hits <= 0 || routing_outstanding(s, best) >= threshold)
		return least_outstanding(s, c, nc);
	return best;
}

/*
 * Central queue, random routing, no KV cache and no copies: the candidates are exactly the free-slot bits, so
 * the one drawn is found in the bitset itself, without gathering the list: n = the bits set (s->nfree), k =
 * draw(n), the k-th set bit in pool order, which is c[draw(n)] of the list candidates() would have built (the
 * same draw from the same stream, the same instance). The count of each word's bits (s->wfree) skips whole
 * words, so a request costs O(pool / 4096 + words with a free slot + k's place in its word).
 */
static int random_free(struct serving *s)
{
	int k;

	if (s->nfree == 0)
		return -1;
	k = draw(s, s->nfree);
	for (int i = 0; i < s->nsummary; i++)
		for (uint64_t b = s->summary[i]; b; b &= b - 1) {
			int w = i * 64 + __builtin_ctzll(b);
			uint64_t bits = s->bits[w];
			if (k >= s->wfree[w]) {
				k -= s->wfree[w];
				continue;
			}
			while (k-- > 0)
				bits &= bits - 1;
			return w * 64 + __builtin_ctzll(bits);
		}
	return -1;  /* not reached: k < nfree */
}

static int pick_general(struct serving *s, const uint64_t *ids, int32_t nids, int64_t need);

int routing_pick(struct serving *s, const uint64_t *ids, int32_t nids, int64_t need)
{
	if (s->route_random_plain) {
		if (!s->per_instance && !s->kv_used)
			return random_free(s);
		/* per-instance, every open instance a candidate (candidates() would return the open list): the
		 * one at draw(nopen), as draw_one would take it from that list */
		if (s->per_instance && (!s->kv_used || need <= s->kv_min))
			return s->nopen > 0 ? s->openlist[draw(s, s->nopen)] : -1;
	}
	return pick_general(s, ids, nids, need);
}

/* Every other routing (kept out of routing_pick so that its shortcuts run without this one's set-up). */
__attribute__((noinline)) static int pick_general(struct serving *s, const uint64_t *ids, int32_t nids,
						  int64_t need)
{
	const int *c;
	int n, idx;

	if (s->sc->serving.routing == ROUTING_FIRST_FREE) {
		if ((idx = first_fit(s, need)) >= 0 || !s->per_instance)
			return idx;
		n = candidates(s, need, &c);
		return least_lowest(s, c, n);
	}
	if ((n = candidates(s, need, &c)) == 0)
		return -1;
	switch (s->sc->serving.routing) {
	case ROUTING_RANDOM:
		return c[draw_one(s, c, n)];
	case ROUTING_LEAST_OUTSTANDING:
		return least_outstanding(s, c, n);
	case ROUTING_ROUND_ROBIN:
		return round_robin(s, c, n);
	case ROUTING_POWER_OF_TWO:
		return power_of_two(s, c, n);
	case ROUTING_PREFIX_AWARE:
		return prefix_aware(s, c, n, ids, nids);
	case ROUTING_FIRST_FREE:
		break;
	}
	return -1;
}
