/*
 * prefcache: one instance's prefix cache, the KV-cache blocks it keeps from earlier prompts, by block id.
 *
 * A prompt is a list of block ids (a Mooncake trace's `hash_ids`: block k's id stands for the first k + 1
 * blocks of the prompt, so equal ids mean equal prefixes). A request can skip the prefill of the LEADING
 * blocks the cache holds: prefcache_hits counts them, up to the first block it does not hold. After the
 * prefill, prefcache_insert keeps all of the prompt's blocks.
 *
 * Capacity is in blocks. When a block must come in and the cache is full, the least recently used block
 * goes. Within one prompt the blocks are touched from the last to the first, so the first blocks are the
 * most recent: when the blocks of one prompt are equally old, the tail goes first and the shared prefix
 * stays, as vLLM's prefix caching evicts (SOURCES.md [prefix-lru]). Blocks in use by a request in service
 * are not pinned: the model's simplification (models/README.md, "Prefix caching").
 *
 * A cache may be unbounded (capacity PREFCACHE_UNBOUNDED): it then grows as distinct blocks arrive, doubling
 * its tables, and never evicts; memory grows with the distinct blocks seen. A bounded cache allocates all
 * it will ever hold at init, so nothing is allocated per request.
 *
 * The table is open addressing with linear probing and backward-shift deletion (no tombstones); the LRU
 * order is a doubly linked list over the node array, by index. Lookups cost O(1) expected per block.
 */
#ifndef GPUCAP_PREFCACHE_H
#define GPUCAP_PREFCACHE_H

#include <stdbool.h>
#include <stdint.h>

#define PREFCACHE_UNBOUNDED INT64_C(-1)  /* capacity: no limit */

struct prefcache_node {
	uint64_t id;    /* the block's id */
	int32_t prev;   /* the next more recently used node, -1 at the most recent */
	int32_t next;   /* the next less recently used node, -1 at the least recent */
};

struct prefcache {
	int64_t capacity;               /* blocks kept at most, or PREFCACHE_UNBOUNDED */
	int32_t n;                      /* blocks held */
	int32_t nodes_cap;              /* room in nodes */
	struct prefcache_node *nodes;   /* owned; nodes [0, n) are in use */
	int32_t mru, lru;               /* ends of the LRU list, -1 when empty */
	int32_t *table;                 /* owned; node index per bucket, -1 = empty */
	uint32_t mask;                  /* buckets - 1 (a power of two, at least twice nodes_cap) */
};

/* Set up an empty cache of `capacity` blocks (>= 0, or PREFCACHE_UNBOUNDED); a bounded one allocates its
 * whole room now. STATUS_OK, STATUS_ENOMEM (nothing held), or STATUS_EINPUT for a capacity above 2^30. */
int prefcache_init(struct prefcache *c, int64_t capacity);

/* Forget every block, keeping the room (nothing is allocated or freed): O(buckets) when not empty. */
void prefcache_clear(struct prefcache *c);

/* Free what c holds; c may have failed init (zeroed). */
void prefcache_fini(struct prefcache *c);

/* How many of ids[0..n) the cache holds, counted from ids[0] up to the first it does not hold. Borrows ids.
 * Changes nothing (a lookup is not a use: prefcache_insert is). */
int32_t prefcache_hits(const struct prefcache *c, const uint64_t *ids, int32_t n);

/* Keep ids[0..n): each becomes the most recently used, ids[0] the most recent of all; blocks not held come
 * in, evicting the least recently used when full. A cache of capacity 0 keeps nothing. Borrows ids.
 * STATUS_OK, or STATUS_ENOMEM when an unbounded cache cannot grow (the cache is then as it was before the
 * block that could not come in: the blocks before it are kept). */
int prefcache_insert(struct prefcache *c, const uint64_t *ids, int32_t n);

/* Whether the cache holds block id. */
bool prefcache_holds(const struct prefcache *c, uint64_t id);

/* Internal consistency (table and list agree, sizes), for assert() in tests. */
bool prefcache_sane(const struct prefcache *c);

#endif
