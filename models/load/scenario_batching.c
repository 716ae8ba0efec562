/*
 * scenario_batching: the keys of the serving model beyond the fixed-speed token model (models/README.md, "Serving
 * model"): workload.service.batching, prefill and chunk_tokens (service kind tokens), and the KV cache of
 * an instance, serving.kv_cache_tokens or serving.kv_cache {gpu_memory_gb, model_gb, bytes_per_token,
 * utilization}; the prefix cache of an instance, serving.prefix_cache_blocks. Absent
 * keys keep today's model: fixed speeds, no KV limit, no prefix cache. And
 * workload.prefix_reuse, the synthetic reuse model that gives block ids to sources without them.
 */
#include <math.h>
#include <string.h>

#include "prefcache.h"

#include "scenario_load.h"
#include "serving.h"
#include "status.h"

#define DEFAULT_CHUNK_TOKENS 512     /* an assumption (servers set their own per-iteration token budget, vLLM
                                        max_num_batched_tokens): SOURCES.md [sv-chunked-prefill] */
#define MAX_CHUNK_TOKENS 1000000
#define DEFAULT_KV_UTILIZATION 0.9   /* vLLM's gpu_memory_utilization default, SOURCES.md [sv-vllm-gpu-mem] */

static const char *const batching_names[] = { "fixed", "continuous" };
static const char *const prefill_names[] = { "whole", "chunked" };
static const char *const kv_keys[] = { "gpu_memory_gb", "model_gb", "bytes_per_token", "utilization",
	"preallocate" /* scenario_gpumetric.c */, NULL };
static const char *const reuse_keys[] = { "share", "conversations", "block_tokens", NULL };

#define DEFAULT_REUSE_CONVERSATIONS 100  /* an assumption: SOURCES.md [prefix-reuse-synthetic] */
#define MAX_REUSE_CONVERSATIONS 1000000       /* the schema table says the same */
#define DEFAULT_REUSE_BLOCK_TOKENS 512   /* as the Mooncake traces' blocks (tracefile.h) */

static const struct yamldoc_bounds gb_bounds = { 0, 1e6, true, false };          /* (0, 1e6] */
static const struct yamldoc_bounds model_bounds = { 0, 1e6, false, false };       /* [0, 1e6] */
static const struct yamldoc_bounds bytes_bounds = { 0, 1e9, true, false };        /* (0, 1e9] */
static const struct yamldoc_bounds share_bounds = { 0, 1, true, false };          /* (0, 1] */
static const struct yamldoc_bounds reuse_bounds = { 0, 1, false, false };         /* [0, 1] */

int scenario_load_batching(struct load *l, const struct yamldoc_ref *svc)
{
	struct yamldoc_ref r, prefill;
	int batching = 0, chunked = 0, rc;

	l->sc.service.chunk_tokens = DEFAULT_CHUNK_TOKENS;
	yamldoc_child(svc, "batching", &r);
	if ((rc = yamldoc_choice(&l->y, &r, batching_names, 2, &batching)))
		return rc;
	l->sc.service.continuous = batching == 1;
	yamldoc_child(svc, "prefill", &prefill);
	if ((rc = yamldoc_choice(&l->y, &prefill, prefill_names, 2, &chunked)))
		return rc;
	if (prefill.node && !l->sc.service.continuous)
		return yamldoc_fail(&l->y, &prefill, "prefill applies to continuous batching (batching is "
					  "fixed); expected batching: continuous, or no prefill");
	l->sc.service.chunked = chunked == 1;
	yamldoc_child(svc, "chunk_tokens", &r);
	if (r.node && !l->sc.service.chunked)
		return yamldoc_fail(&l->y, &r, "chunk_tokens applies to chunked prefill; expected prefill: "
					  "chunked, or no chunk_tokens");
	return scenario_load_int(l, &r, 1, MAX_CHUNK_TOKENS, &l->sc.service.chunk_tokens);
}

static int required_gb(struct load *l, const struct yamldoc_ref *map, const char *key, const char *what,
		       const struct yamldoc_bounds *b, double *out)
{
	struct yamldoc_ref r;
	int rc;

	if ((rc = scenario_load_required(l, map, key, what, &r)))
		return rc;
	return yamldoc_number(&l->y, &r, b, out);
}

/* serving.types.*.kv_cache_tokens: token model only, and with a limit on some type, one on all (the serving
 * type's from serving.kv_cache_tokens or kv_cache). */
static int check_type_kv(struct load *l, const struct yamldoc_ref *serving)
{
	struct yamldoc_ref types, e, r;
	bool some = false;

	yamldoc_child(serving, "types", &types);
	for (int i = 1; i < l->sc.ntypes; i++) {
		yamldoc_child(&types, l->sc.types[i].name, &e);
		yamldoc_child(&e, "kv_cache_tokens", &r);
		if (r.node && l->sc.service.kind != SERVICE_TOKENS)
			return yamldoc_fail(&l->y, &r, "a KV cache holds tokens; expected workload.service.kind "
						  "tokens, or no KV cache");
		some |= r.node != NULL;
	}
	for (int i = 0; some && i < l->sc.ntypes; i++)
		if (serving_kv_tokens(&l->sc, i) == 0)
			return yamldoc_fail(&l->y, &types, "%s has no KV cache size while another type has one; "
						  "expected serving.kv_cache_tokens or kv_cache for the serving type, and "
						  "kv_cache_tokens for every type that does not use them",
						  l->sc.types[i].name);
	return STATUS_OK;
}

/* serving.kv_cache_tokens or serving.kv_cache (not both); continuous batching is refused with copies. */
int scenario_load_kv(struct load *l, const struct yamldoc_ref *serving)
{
	struct yamldoc_ref r, kv;
	int tokens = 0, rc;

	yamldoc_child(serving, "copies", &r);
	if (r.node && l->sc.service.continuous)
		return yamldoc_fail(&l->y, &r, "continuous batching models one batch per instance, not per "
					  "model copy; expected no copies with workload.service.batching: continuous");
	if ((rc = scenario_load_exclusive(l, serving, "kv_cache_tokens", "kv_cache")))
		return rc;
	yamldoc_child(serving, "kv_cache_tokens", &r);
	yamldoc_child(serving, "kv_cache", &kv);
	if ((r.node || kv.node) && l->sc.service.kind != SERVICE_TOKENS)
		return yamldoc_fail(&l->y, r.node ? &r : &kv, "a KV cache holds tokens; expected "
					  "workload.service.kind tokens, or no KV cache");
	if (r.node && (rc = scenario_load_int(l, &r, 1, 2000000000, &tokens)))
		return rc;
	l->sc.serving.kv_cache_tokens = tokens;
	if (!kv.node)
		return check_type_kv(l, serving);
	if ((rc = yamldoc_mapping(&l->y, &kv, kv_keys, NULL, NULL)) ||
	    (rc = required_gb(l, &kv, "gpu_memory_gb", "memory per GPU in GB", &gb_bounds,
			      &l->sc.serving.kv_gpu_memory_gb)) ||
	    (rc = required_gb(l, &kv, "model_gb", "the model's weights per instance in GB", &model_bounds,
			      &l->sc.serving.kv_model_gb)) ||
	    (rc = required_gb(l, &kv, "bytes_per_token", "KV-cache bytes per token", &bytes_bounds,
			      &l->sc.serving.kv_bytes_per_token)))
		return rc;
	l->sc.serving.kv_utilization = DEFAULT_KV_UTILIZATION;
	yamldoc_child(&kv, "utilization", &r);
	if ((rc = yamldoc_number(&l->y, &r, &share_bounds, &l->sc.serving.kv_utilization)))
		return rc;
	for (int i = 0; i < l->sc.ntypes; i++)
		if (l->sc.types[i].kv_cache_tokens == 0 && serving_kv_tokens(&l->sc, i) < 1)
			return yamldoc_fail(&l->y, &kv, "the model leaves no room for the KV cache on %s "
						  "(%d GPUs x %g GB x %g - %g GB); expected gpus x gpu_memory_gb x "
						  "utilization > model_gb + bytes_per_token / 1e9", l->sc.types[i].name,
						  l->sc.types[i].gpus, l->sc.serving.kv_gpu_memory_gb,
						  l->sc.serving.kv_utilization, l->sc.serving.kv_model_gb);
	return check_type_kv(l, serving);
}

#define MAX_PREFIX_BLOCKS (1 << 30)  /* prefcache_init's bound */

/* Whether r (present) is the scalar `unbounded`. */
static bool is_unbounded(struct load *l, const struct yamldoc_ref *r)
{
	const char *text;
	struct diag *d = l->y.d, quiet;
	bool yes;

	l->y.d = &quiet;  /* not a scalar: the integer reader says so */
	yes = yamldoc_scalar(&l->y, r, "unbounded", &text) == STATUS_OK && strcmp(text, "unbounded") == 0;
	l->y.d = d;
	return yes;
}

/*
 * serving.prefix_cache_blocks: N (1..2^30) or unbounded; it needs the token model and block ids that say
 * which prompt blocks repeat: a trace with hash ids (format mooncake, or jsonl with hash_column) or the
 * synthetic model workload.prefix_reuse (which in turn needs a prefix cache). Then serving.routing
 * (scenario_routing.c), which may look at the prefix cache.
 */
int scenario_load_prefix(struct load *l, const struct yamldoc_ref *serving)
{
	struct yamldoc_ref r;
	int blocks = 0, rc;

	l->sc.serving.prefix_cache_blocks = 0;
	yamldoc_child(serving, "prefix_cache_blocks", &r);
	if (r.node) {
		if (l->sc.no_traffic || l->sc.service.kind != SERVICE_TOKENS)
			return yamldoc_fail(&l->y, &r, "a prefix cache skips prompt tokens; expected "
						  "workload.service.kind tokens, or no prefix_cache_blocks");
		if ((l->sc.arrivals.kind != ARRIVAL_TRACE || !l->sc.arrivals.mapping.hash_column[0]) &&
		    l->sc.reuse.conversations == 0)
			return yamldoc_fail(&l->y, &r, "a prefix cache needs each request's prefix block "
						  "ids; expected a trace with hash ids (workload.arrivals format mooncake, "
						  "or jsonl with hash_column), workload.prefix_reuse, or no "
						  "prefix_cache_blocks");
		if (is_unbounded(l, &r)) {
			l->sc.serving.prefix_cache_blocks = PREFCACHE_UNBOUNDED;
		} else {
			const char *text;
			struct diag *d = l->y.d, quiet;
			l->y.d = &quiet;  /* the integer reader's message does not mention unbounded */
			int bad = scenario_load_int(l, &r, 1, MAX_PREFIX_BLOCKS, &blocks);
			l->y.d = d;
			if (bad) {
				if ((rc = yamldoc_scalar(&l->y, &r, "a number of blocks, or unbounded", &text)))
					return rc;
				return yamldoc_fail(&l->y, &r, "expected a number of blocks from 1 to %d, or "
							  "unbounded, got '%s'", MAX_PREFIX_BLOCKS, text);
			}
			l->sc.serving.prefix_cache_blocks = blocks;
		}
	}
	if (l->sc.reuse.conversations > 0 && !r.node) {
		struct yamldoc_ref workload, reuse;
		yamldoc_child(&l->root, "workload", &workload);
		yamldoc_child(&workload, "prefix_reuse", &reuse);
		return yamldoc_fail(&l->y, &reuse, "prefix_reuse says which prompts share prefixes, for a "
					  "prefix cache; expected serving.prefix_cache_blocks, or no prefix_reuse");
	}
	return scenario_load_routing(l, serving);
}

/*
 * workload.prefix_reuse: {share (required, [0, 1]), conversations (1..1e6, default 100), block_tokens
 * (default 512)}. A source with its own block ids (a trace with hash ids) is refused: the trace already
 * says which prefixes repeat. Needs token counts (the token model: checked by the prefix cache, which the
 * model feeds and which scenario_load_prefix requires).
 */
int scenario_load_reuse(struct load *l, const struct yamldoc_ref *workload)
{
	struct yamldoc_ref reuse, r;
	int conversations = DEFAULT_REUSE_CONVERSATIONS, block_tokens = DEFAULT_REUSE_BLOCK_TOKENS, rc;

	memset(&l->sc.reuse, 0, sizeof l->sc.reuse);
	yamldoc_child(workload, "prefix_reuse", &reuse);
	if (!reuse.node)
		return STATUS_OK;
	if ((rc = yamldoc_mapping(&l->y, &reuse, reuse_keys, NULL, NULL)))
		return rc;
	if (l->sc.arrivals.kind == ARRIVAL_TRACE && l->sc.arrivals.mapping.hash_column[0])
		return yamldoc_fail(&l->y, &reuse, "this trace's hash ids already say which prompt prefixes "
					  "repeat; expected no prefix_reuse with a trace that has hash ids (format "
					  "mooncake, or hash_column)");
	if ((rc = scenario_load_required(l, &reuse, "share", "the share of requests that continue an earlier "
					 "conversation, 0 to 1", &r)) ||
	    (rc = yamldoc_number(&l->y, &r, &reuse_bounds, &l->sc.reuse.share)))
		return rc;
	yamldoc_child(&reuse, "conversations", &r);
	if ((rc = scenario_load_int(l, &r, 1, MAX_REUSE_CONVERSATIONS, &conversations)))
		return rc;
	yamldoc_child(&reuse, "block_tokens", &r);
	if ((rc = scenario_load_int(l, &r, 1, MAX_CHUNK_TOKENS, &block_tokens)))
		return rc;
	l->sc.reuse.conversations = conversations;
	l->sc.reuse.block_tokens = block_tokens;
	return STATUS_OK;
}

const struct scenario_load_names scenario_load_batching_names = SCENARIO_LOAD_NAMES(batching_names);
const struct scenario_load_names scenario_load_prefill_names = SCENARIO_LOAD_NAMES(prefill_names);
const struct scenario_load_names scenario_load_kv_keys = SCENARIO_LOAD_KEYS(kv_keys);
const struct scenario_load_names scenario_load_reuse_keys = SCENARIO_LOAD_KEYS(reuse_keys);
const struct yamldoc_bounds *const scenario_load_reuse_share = &reuse_bounds;
