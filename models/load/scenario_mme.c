/*
 * scenario_mme: serving.multi_model, a SageMaker multi-model endpoint (mme.h, models/README.md "Multi-model
 * endpoints"): {memory_gb, models: [{name, size_gb, load_s, share}]}. Absent: one model, as before.
 *
 * Read last (after the mode and `models`), because it refuses what it does not combine with: fluid mode, jobs,
 * `models`, copies,
 * continuous batching, a KV cache, a prefix cache, a jobs-only scenario. Every model must fit the memory
 * (a model larger than memory_gb could never be loaded) and the shares must not all be 0.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "scenario_load.h"
#include "status.h"

#define MAX_MEMORY_GB 1e6
#define MAX_LOAD_US (DAY_US)  /* a sanity bound: a load longer than a day is a typo */

static const char *const mme_keys[] = { "memory_gb", "models", NULL };
static const char *const model_keys[] = { "name", "size_gb", "load_s", "share", NULL };

static const struct yamldoc_bounds memory_bounds = { 0, MAX_MEMORY_GB, true, false };  /* (0, 1e6] */
static const struct yamldoc_bounds share_bounds = { 0, 1e9, false, false };            /* [0, 1e9] */

/* What serving.multi_model does not combine with: a message at m, or STATUS_OK. */
static int refuse_unsupported(struct load *l, const struct yamldoc_ref *m)
{
	const struct scenario *sc = &l->sc;
	const char *what = NULL;

	if (sc->no_traffic)
		what = "a scenario without workload (jobs only)";
	else if (sc->mode == MODE_FLUID)
		what = "mode: fluid (models are loaded per request)";
	else if (sc->jobs.n > 0)
		what = "jobs";
	else if (sc->copies.enabled)
		what = "serving.copies (inference components)";
	else if (sc->service.continuous)
		what = "workload.service.batching: continuous";
	else if (sc->serving.kv_cache_tokens > 0 || sc->serving.kv_gpu_memory_gb > 0)
		what = "a KV cache (serving.kv_cache_tokens or kv_cache)";
	else if (sc->serving.prefix_cache_blocks != 0)
		what = "a prefix cache (serving.prefix_cache_blocks)";
	else if (sc->nmodels > 0)
		what = "models (several models on MIG partitions, each with its own traffic: a multi-model endpoint "
		       "draws its models from one traffic)";
	if (!what)
		return STATUS_OK;
	return yamldoc_fail(&l->y, m, "multi_model is not supported with %s; expected one or the other",
				  what);
}

/* Item i of models at it into *out; names before it are out[-i..-1] (unique). */
static int read_model(struct load *l, const struct yamldoc_ref *it, int i, struct scenario_mme_model *out)
{
	struct yamldoc_ref r;
	int rc;

	if ((rc = yamldoc_mapping(&l->y, it, model_keys, NULL, NULL)) ||
	    (rc = scenario_load_required(l, it, "name", "the model's name", &r)) ||
	    (rc = yamldoc_string(&l->y, &r, out->name, sizeof out->name)))
		return rc;
	for (int j = 0; j < i; j++)
		if (strcmp(l->sc.mme.models[j].name, out->name) == 0)
			return yamldoc_fail(&l->y, &r, "model '%s' is listed twice; expected unique names",
						  out->name);
	if ((rc = scenario_load_required(l, it, "size_gb", "the memory the model takes once loaded, GB", &r)) ||
	    (rc = yamldoc_number(&l->y, &r, &memory_bounds, &out->size_gb)))
		return rc;
	if (out->size_gb > l->sc.mme.memory_gb)  /* SOURCES.md [mme-load-on-demand]: it could never load */
		return yamldoc_fail(&l->y, &r, "model '%s' (%g GB) is larger than memory_gb (%g GB): it could "
					  "never be loaded; expected at most memory_gb", out->name, out->size_gb,
					  l->sc.mme.memory_gb);
	if ((rc = scenario_load_required(l, it, "load_s", "the time to load the model on an instance, a "
					 "duration such as 20s", &r)) ||
	    (rc = scenario_load_duration(l, &r, 0, false, MAX_LOAD_US, &out->load_us)))
		return rc;
	out->share = 1;
	yamldoc_child(it, "share", &r);
	if (r.node && (rc = yamldoc_number(&l->y, &r, &share_bounds, &out->share)))
		return rc;
	return STATUS_OK;
}

int scenario_load_mme(struct load *l)
{
	struct yamldoc_ref serving, m, r, list, it;
	double total = 0;
	int n, rc;

	memset(&l->sc.mme, 0, sizeof l->sc.mme);
	yamldoc_child(&l->root, "serving", &serving);
	yamldoc_child(&serving, "multi_model", &m);
	if (!m.node)
		return STATUS_OK;
	if ((rc = yamldoc_mapping(&l->y, &m, mme_keys, NULL, NULL)) || (rc = refuse_unsupported(l, &m)))
		return rc;
	for (int i = 0; i < 2; i++) {  /* SOURCES.md [mme-routing-assumed]: it routes by model, one queue */
		static const char *const keys[] = { "routing", "queue" };
		yamldoc_child(&serving, keys[i], &r);
		if (r.node)
			return yamldoc_fail(&l->y, &r, "a multi-model endpoint routes each request by its model "
						  "(models/README.md \"Multi-model endpoints\") from one queue; expected no "
						  "serving.%s with multi_model", keys[i]);
	}
	l->sc.serving.routing = ROUTING_FIRST_FREE;
	l->sc.serving.queue = QUEUE_CENTRAL;
	if ((rc = scenario_load_required(l, &m, "memory_gb", "the model memory of one instance, GB", &r)) ||
	    (rc = yamldoc_number(&l->y, &r, &memory_bounds, &l->sc.mme.memory_gb)) ||
	    (rc = scenario_load_required(l, &m, "models", "a list of {name, size_gb, load_s, share}", &list)) ||
	    (rc = yamldoc_list(&l->y, &list, 1, SCENARIO_MME_MODELS_MAX, "a model {name, size_gb, load_s, "
				     "share}", &n)))
		return rc;
	l->sc.mme.models = calloc((size_t)n, sizeof *l->sc.mme.models);
	if (!l->sc.mme.models)
		return diag_fail(l->y.d, STATUS_ENOMEM, "out of memory");
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_item(&list, &walk, &it);
		if ((rc = read_model(l, &it, i, &l->sc.mme.models[i])))
			return rc;
		total += l->sc.mme.models[i].share;
	}
	if (!(total > 0))
		return yamldoc_fail(&l->y, &list, "every model's share is 0, so no request could choose one; "
					  "expected at least one share above 0");
	l->sc.mme.n = n;
	return STATUS_OK;
}

const struct scenario_load_names scenario_load_mme_keys = SCENARIO_LOAD_KEYS(mme_keys);
const struct scenario_load_names scenario_load_mme_model_keys = SCENARIO_LOAD_KEYS(model_keys);
const struct yamldoc_bounds *const scenario_load_mme_memory = &memory_bounds;
const struct yamldoc_bounds *const scenario_load_model_share = &share_bounds;
