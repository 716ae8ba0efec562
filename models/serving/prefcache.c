/*
 * prefcache: one instance's prefix cache (see prefcache.h).
 *
 * Nodes live in one array: a block's node index is stable until it is evicted, when the last node moves
 * into its place (so nodes [0, n) are always the ones in use) and the table entry of the moved node is
 * updated. The table maps a block id to its node: linear probing from a multiplicative hash, deletion by
 * backward shift, so a probe stops at the first empty bucket.
 */
#include "prefcache.h"

#include <stdlib.h>
#include <string.h>

#include "status.h"

#define MAX_CAPACITY (INT64_C(1) << 30)
#define FIRST_ROOM 1024   /* nodes of an unbounded cache before its first growth */

/* Fibonacci hashing: the id times 2^64 / phi, top bits. */
static uint32_t bucket_of(const struct prefcache *c, uint64_t id)
{
	return (uint32_t)((id * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & c->mask;
}

/* The bucket holding id, or -1. */
static int64_t find(const struct prefcache *c, uint64_t id)
{
	if (!c->table)
		return -1;
	for (uint32_t b = bucket_of(c, id);; b = (b + 1) & c->mask) {
		int32_t k = c->table[b];
		if (k < 0)
			return -1;
		if (c->nodes[k].id == id)
			return b;
	}
}

/* Buckets for room nodes: the smallest power of two at least twice room (load at most 1/2), at least 2. */
static uint32_t buckets_for(int32_t room)
{
	uint32_t b = 2;

	while (b < 2u * (uint32_t)room)
		b <<= 1;
	return b;
}

static void put(struct prefcache *c, int32_t k)
{
	uint32_t b = bucket_of(c, c->nodes[k].id);

	while (c->table[b] >= 0)
		b = (b + 1) & c->mask;
	c->table[b] = k;
}

/* Tables for room nodes, the n nodes held re-entered. The cache is unchanged on failure. */
static int grow(struct prefcache *c, int32_t room)
{
	uint32_t nb = buckets_for(room);
	struct prefcache_node *nodes = realloc(c->nodes, (size_t)room * sizeof *nodes);
	int32_t *table;

	if (!nodes)
		return STATUS_ENOMEM;
	c->nodes = nodes;  /* the first n are unchanged: safe to keep even if the table fails */
	table = malloc((size_t)nb * sizeof *table);
	if (!table)
		return STATUS_ENOMEM;
	free(c->table);
	c->table = table;
	c->mask = nb - 1;
	c->nodes_cap = room;
	memset(c->table, 0xff, (size_t)nb * sizeof *table);  /* every bucket -1 */
	for (int32_t k = 0; k < c->n; k++)
		put(c, k);
	return STATUS_OK;
}

int prefcache_init(struct prefcache *c, int64_t capacity)
{
	memset(c, 0, sizeof *c);
	c->mru = c->lru = -1;
	if (capacity != PREFCACHE_UNBOUNDED && (capacity < 0 || capacity > MAX_CAPACITY))
		return STATUS_EINPUT;
	c->capacity = capacity;
	if (capacity == 0)
		return STATUS_OK;
	if (grow(c, capacity == PREFCACHE_UNBOUNDED ? FIRST_ROOM : (int32_t)capacity)) {
		prefcache_fini(c);
		return STATUS_ENOMEM;
	}
	return STATUS_OK;
}

void prefcache_fini(struct prefcache *c)
{
	free(c->nodes);
	free(c->table);
	c->nodes = NULL;
	c->table = NULL;
	c->n = c->nodes_cap = 0;
}

bool prefcache_holds(const struct prefcache *c, uint64_t id)
{
	return find(c, id) >= 0;
}

int32_t prefcache_hits(const struct prefcache *c, const uint64_t *ids, int32_t n)
{
	int32_t k = 0;

	while (k < n && find(c, ids[k]) >= 0)
		k++;
	return k;
}

static void unlink_node(struct prefcache *c, int32_t k)
{
	struct prefcache_node *x = &c->nodes[k];

	if (x->prev >= 0)
		c->nodes[x->prev].next = x->next;
	else
		c->mru = x->next;
	if (x->next >= 0)
		c->nodes[x->next].prev = x->prev;
	else
		c->lru = x->prev;
}

static void push_mru(struct prefcache *c, int32_t k)
{
	c->nodes[k].prev = -1;
	c->nodes[k].next = c->mru;
	if (c->mru >= 0)
		c->nodes[c->mru].prev = k;
	c->mru = k;
	if (c->lru < 0)
		c->lru = k;
}

/* Empty bucket b and shift back the entries after it that probed past it (linear probing's deletion). */
static void remove_bucket(struct prefcache *c, uint32_t b)
{
	uint32_t j = b;

	c->table[b] = -1;
	for (;;) {
		j = (j + 1) & c->mask;
		if (c->table[j] < 0)
			return;
		uint32_t home = bucket_of(c, c->nodes[c->table[j]].id);
		/* the entry at j may move to b if its home is not in the cyclic range (b, j] */
		if (((j - home) & c->mask) >= ((j - b) & c->mask)) {
			c->table[b] = c->table[j];
			c->table[j] = -1;
			b = j;
		}
	}
}

/* Evict the least recently used node; the last node moves into its slot. */
static void evict(struct prefcache *c)
{
	int32_t k = c->lru, last = c->n - 1;

	unlink_node(c, k);
	remove_bucket(c, (uint32_t)find(c, c->nodes[k].id));
	if (k != last) {
		uint32_t b = (uint32_t)find(c, c->nodes[last].id);
		c->nodes[k] = c->nodes[last];
		c->table[b] = k;
		if (c->nodes[k].prev >= 0)
			c->nodes[c->nodes[k].prev].next = k;
		else
			c->mru = k;
		if (c->nodes[k].next >= 0)
			c->nodes[c->nodes[k].next].prev = k;
		else
			c->lru = k;
	}
	c->n--;
}

/* Make block id the most recently used, bringing it in if it is not held. */
static int touch(struct prefcache *c, uint64_t id)
{
	int64_t b = find(c, id);
	int32_t k;

	if (b >= 0) {
		k = c->table[b];
		unlink_node(c, k);
		push_mru(c, k);
		return STATUS_OK;
	}
	if (c->capacity != PREFCACHE_UNBOUNDED && c->n == c->capacity)
		evict(c);
	else if (c->n == c->nodes_cap && (c->nodes_cap >= MAX_CAPACITY || grow(c, c->nodes_cap * 2)))
		return STATUS_ENOMEM;  /* an unbounded cache stops at 2^30 blocks as a bounded one does */
	k = c->n++;
	c->nodes[k].id = id;
	put(c, k);
	push_mru(c, k);
	return STATUS_OK;
}

int prefcache_insert(struct prefcache *c, const uint64_t *ids, int32_t n)
{
	int rc;

	if (c->capacity == 0)
		return STATUS_OK;
	for (int32_t i = n - 1; i >= 0; i--)  /* the first block last: the most recent (prefcache.h) */
		if ((rc = touch(c, ids[i])))
			return rc;
	return STATUS_OK;
}

bool prefcache_sane(const struct prefcache *c)
{
	int32_t count = 0, prev = -1, used = 0;

	if (c->capacity == 0)
		return c->n == 0;
	if (c->capacity != PREFCACHE_UNBOUNDED && c->n > c->capacity)
		return false;
	for (int32_t k = c->mru; k >= 0; k = c->nodes[k].next) {
		if (k >= c->n || c->nodes[k].prev != prev || ++count > c->n)
			return false;
		prev = k;
	}
	if (count != c->n || c->lru != prev)
		return false;
	for (uint32_t b = 0; b <= c->mask; b++) {
		int32_t k = c->table[b];
		if (k < 0)
			continue;
		if (k >= c->n || find(c, c->nodes[k].id) != (int64_t)b)
			return false;
		used++;
	}
	return used == c->n;
}

void prefcache_clear(struct prefcache *c)
{
	if (c->n == 0)
		return;
	memset(c->table, 0xff, ((size_t)c->mask + 1) * sizeof *c->table);  /* every bucket -1 */
	c->n = 0;
	c->mru = -1;
	c->lru = -1;
}
