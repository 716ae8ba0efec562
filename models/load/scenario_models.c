/*
 * scenario_models: the `models` list (several models on one fleet) and `serving.partitions` (a MIG layout
 * on every GPU), models/README.md "Several models and MIG partitions".
 *
 * Each model's slo and workload are read by the very loaders of the top-level blocks (scenario_load_slo,
 * scenario_load_workload) with l->root pointing at the model's entry, so the syntax, defaults and messages
 * are the same; what the loaders leave in l->sc is then copied into the model's `blocks`. The layout is
 * checked against the serving type's GPU model (catalog.h) with mig.h's tables: it must fit one GPU, name
 * profiles that GPU has, and no `+me` profile (SOURCES.md [sm-mig-layout], [mig-profiles]).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "mig.h"
#include "option.h"
#include "scenario_load.h"
#include "status.h"

static const char *const model_keys[] = { "name", "partition", "slo", "workload", NULL };
static const char *const partitions_keys[] = { "layout", NULL };
const struct scenario_load_names scenario_load_model_keys = SCENARIO_LOAD_KEYS(model_keys);
const struct scenario_load_names scenario_load_partitions_keys = SCENARIO_LOAD_KEYS(partitions_keys);

/* A model's SLO is its latency_s only: the percentile, window, TTFT and TPOT SLOs are computed by the
 * shared meter for one threshold, so with several models they would mix the models' requests. */
static int check_model_slo(struct load *l, const struct yamldoc_ref *e)
{
	const struct scenario *sc = &l->sc;
	struct yamldoc_ref slo;
	bool other = sc->slo.ttft_us || sc->slo.tpot_us || sc->slo.window_us || sc->slo.max_violation_rate >= 0;

	for (int i = 0; i < SCENARIO_SLO_PCTS; i++)
		other = other || sc->slo.latency_pct_us[i] || sc->slo.ttft_pct_us[i] || sc->slo.tpot_pct_us[i];
	yamldoc_child(e, "slo", &slo);
	if (other)
		return yamldoc_fail(&l->y, &slo, "with models, a model's slo takes latency_s only; expected "
					  "no other key");
	return STATUS_OK;
}

/* A model's service: a time per request on its partition (README); the token model and continuous
 * batching describe a whole instance's speed, so they are refused. */
static int check_model_service(struct load *l, const struct yamldoc_ref *e)
{
	struct yamldoc_ref w, s;

	yamldoc_child(e, "workload", &w);
	yamldoc_child(&w, "service", &s);
	if (l->sc.service.kind == SERVICE_TOKENS || l->sc.service.continuous)
		return yamldoc_fail(&l->y, s.node ? &s : &w, "with models, a model's service is a time on "
					  "its partition; expected kind constant, exponential, lognormal or trace");
	return STATUS_OK;
}

static int read_name(struct load *l, const struct yamldoc_ref *e, int i)
{
	struct scenario_model *m = &l->sc.models[i];
	struct yamldoc_ref r;
	int rc;

	if ((rc = scenario_load_required(l, e, "name", "the model's name, such as chat", &r)) ||
	    (rc = yamldoc_string(&l->y, &r, m->name, sizeof m->name)))
		return rc;
	for (const char *c = m->name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'))
			return yamldoc_bad(&l->y, &r, "a name of a-z, 0-9, _ and -");
	for (int k = 0; k < i; k++)
		if (strcmp(l->sc.models[k].name, m->name) == 0)
			return yamldoc_fail(&l->y, &r, "model '%s' is already listed; expected another name",
						  m->name);
	yamldoc_child(e, "partition", &r);
	if (r.node)
		return yamldoc_string(&l->y, &r, m->partition, sizeof m->partition);
	return STATUS_OK;
}

/* Read model i's blocks with the top-level loaders, then keep them in its own scenario. */
static int read_model(struct load *l, const struct yamldoc_ref *e, int i)
{
	struct yamldoc_ref saved = l->root;
	struct scenario *b;
	int rc;

	if ((rc = yamldoc_mapping(&l->y, e, model_keys, NULL, NULL)) || (rc = read_name(l, e, i)))
		return rc;
	memset(&l->sc.slo, 0, sizeof l->sc.slo);
	memset(&l->sc.arrivals, 0, sizeof l->sc.arrivals);
	memset(&l->sc.sizes, 0, sizeof l->sc.sizes);
	memset(&l->sc.reuse, 0, sizeof l->sc.reuse);
	memset(&l->sc.service, 0, sizeof l->sc.service);
	l->root = *e;
	rc = scenario_load_slo(l);
	if (rc == STATUS_OK)
		rc = scenario_load_workload(l);
	l->root = saved;
	if (rc || (rc = check_model_slo(l, e)) || (rc = check_model_service(l, e)))
		return rc;
	b = malloc(sizeof *b);
	if (!b)
		return yamldoc_fail(&l->y, e, "out of memory");
	*b = l->sc;
	/* borrowed nothing: the parent owns these */
	b->warnings = b->path = b->text = b->overrides = NULL;
	b->jobs.list = NULL;
	b->models = NULL;
	b->nmodels = 0;
	l->sc.models[i].blocks = b;
	return STATUS_OK;
}

int scenario_load_models(struct load *l)
{
	struct yamldoc_ref list, e, r;
	int n, rc;

	yamldoc_child(&l->root, "models", &list);
	if (!list.node)
		return STATUS_OK;
	for (int k = 0; k < 2; k++) {
		yamldoc_child(&l->root, k ? "workload" : "slo", &r);
		if (r.node)
			return yamldoc_fail(&l->y, &r, "with models, each model has its own %s; expected it "
						  "under each entry of models", k ? "workload" : "slo");
	}
	if ((rc = yamldoc_list(&l->y, &list, 1, SCENARIO_MODELS_MAX, "models such as '- {name: chat, "
				     "partition: 3g.40gb, slo: {...}, workload: {...}}'", &n)))
		return rc;
	l->sc.models = calloc((size_t)n, sizeof *l->sc.models);
	if (!l->sc.models)
		return yamldoc_fail(&l->y, &list, "out of memory");
	l->sc.nmodels = n;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_item(&list, &walk, &e);
		if ((rc = read_model(l, &e, i)))
			return rc;
	}
	return STATUS_OK;
}

/* Fail at r naming what `gpu` offers. */
static int fail_profiles(struct load *l, const struct yamldoc_ref *r, const struct mig_gpu *gpu,
			 const char *what)
{
	char names[256];

	return yamldoc_fail(&l->y, r, "%s; expected a profile of the %s: %s", what, gpu->model,
				  mig_profile_names(gpu, names, sizeof names));
}

/* The layout's profiles (l->sc.mig), checked one by one and then together against one GPU. */
static int read_layout(struct load *l, const struct yamldoc_ref *layout, const struct mig_gpu *gpu)
{
	const struct mig_profile *p[SCENARIO_MIG_MAX];
	char why[200], what[300], names[256];
	struct yamldoc_ref r;
	const char *name;
	int64_t count;
	int n, rc;

	if ((rc = yamldoc_mapping(&l->y, layout, NULL, "a mapping of MIG profile to count, such as "
					"{3g.40gb: 1, 4g.40gb: 1}", &n)))
		return rc;
	if (n < 1 || n > SCENARIO_MIG_MAX)
		return yamldoc_fail(&l->y, layout, "expected 1 to %d profiles", SCENARIO_MIG_MAX);
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_pair(layout, &walk, &r, &name);
		if (strstr(name, "+me"))
			return fail_profiles(l, &r, gpu, "+me profiles are not supported by SageMaker's accelerator "
					     "partitioning (SOURCES.md [sm-mig-layout])");
		if (!(p[i] = mig_profile_find(gpu, name))) {
			snprintf(what, sizeof what, "'%s' is not a MIG profile of the %s", name, gpu->model);
			return fail_profiles(l, &r, gpu, what);
		}
		if ((rc = yamldoc_int(&l->y, &r, 1, MIG_COMPUTE_SLICES, &count)))
			return rc;
		snprintf(l->sc.mig.profile[i], sizeof l->sc.mig.profile[i], "%s", name);
		l->sc.mig.count[i] = (int)count;
		l->sc.mig.n = i + 1;
		if (!mig_layout_fits(p, l->sc.mig.count, i + 1, why, sizeof why)) {
			size_t o = 0;
			for (int k = 0; k < gpu->nprofiles && o < sizeof names; k++)
				if (!gpu->profiles[k].media)
					o += (size_t)snprintf(names + o, sizeof names - o, "%s%s %d/%d x%d", o ? ", " : "",
							      gpu->profiles[k].name, gpu->profiles[k].compute,
							      gpu->profiles[k].memory, gpu->profiles[k].max_per_gpu);
			return yamldoc_fail(&l->y, &r, "%s; expected at most %d compute and %d memory slices "
						  "on one %s (profile compute/memory slices x most per GPU: %s)", why,
						  MIG_COMPUTE_SLICES, MIG_MEMORY_SLICES, gpu->model, names);
		}
	}
	return STATUS_OK;
}

/* Each model's partition: in the layout, one model per profile; its slots = GPUs x the profile's count. */
static int read_model_partitions(struct load *l, const struct yamldoc_ref *parts)
{
	struct yamldoc_ref list, e, r;

	yamldoc_child(&l->root, "models", &list);
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < l->sc.nmodels; i++) {
		struct scenario_model *m = &l->sc.models[i];
		int k = 0;
		yamldoc_next_item(&list, &walk, &e);
		yamldoc_child(&e, "partition", &r);
		if (!r.node)
			return yamldoc_missing(&l->y, &e, "partition", "the MIG profile of the layout each copy "
						     "of the model takes");
		while (k < l->sc.mig.n && strcmp(l->sc.mig.profile[k], m->partition) != 0)
			k++;
		if (k == l->sc.mig.n)
			return yamldoc_fail(&l->y, &r, "'%s' is not in serving.partitions.layout; expected one "
						  "of its profiles", m->partition);
		for (int j = 0; j < i; j++)
			if (strcmp(l->sc.models[j].partition, m->partition) == 0)
				return yamldoc_fail(&l->y, &r, "model '%s' already takes the %s partitions; "
							  "expected another profile (one model per profile)",
							  l->sc.models[j].name, m->partition);
		/* one copy per partition, one request per copy at a time (README) */
		m->slots = l->sc.serving.gpus * l->sc.mig.count[k];
	}
	(void)parts;
	return STATUS_OK;
}

/* What several models are not combined with: each would need a rule of its own. */
static int refuse_with_models(struct load *l)
{
	static const char *const keys[][2] = { { "autoscaling", "an autoscaling policy (the fleet is fixed)" },
					       { "jobs", "jobs" }, { "mode", "mode" } };
	struct yamldoc_ref r, serving;

	for (int i = 0; i < 3; i++) {
		yamldoc_child(&l->root, keys[i][0], &r);
		bool used = i == 0 ? (l->sc.autoscaling.policy != POLICY_NONE || l->sc.autoscaling.nschedule > 0)
			  : i == 1 ? l->sc.jobs.n > 0 : l->sc.mode != MODE_REQUESTS;
		if (r.node && used)
			return yamldoc_fail(&l->y, &r, "with models, %s is not supported; expected no %s",
						  keys[i][1], keys[i][0]);
	}
	for (int i = 0; i < l->sc.nfleet; i++) {
		enum option_kind k = l->sc.fleet[i].option;
		if (k == OPTION_ON_DEMAND || k == OPTION_RESERVED)
			continue;
		yamldoc_item(&l->fleet, l->fleet_item[i], &r);
		return yamldoc_fail(&l->y, &r, "with models, a %s entry is not supported: its instances can be "
					  "taken away, and draining an instance shared by models is not modelled; "
					  "expected on_demand or reserved", option_kind_name(k));
	}
	yamldoc_child(&l->root, "serving", &serving);
	yamldoc_child(&serving, "copies", &r);
	if (!r.node)
		yamldoc_child(&serving, "types", &r);
	if (r.node)
		return yamldoc_fail(&l->y, &r, "with models, each model's copies are its partitions; expected "
					  "no serving.copies or serving.types");
	return STATUS_OK;
}

int scenario_load_partitions(struct load *l)
{
	struct yamldoc_ref serving, parts, layout, list;
	const struct catalog_entry *ce;
	const struct mig_gpu *gpu;
	int rc;

	yamldoc_child(&l->root, "serving", &serving);
	yamldoc_child(&serving, "partitions", &parts);
	yamldoc_child(&l->root, "models", &list);
	if (!parts.node && !list.node)
		return STATUS_OK;
	if (!parts.node)
		return yamldoc_missing(&l->y, &serving, "partitions", "the MIG layout the models' partitions "
					     "come from, needed with models");
	if (!list.node)
		return yamldoc_fail(&l->y, &parts, "partitions are taken by the copies of models; expected "
					  "models, each naming its partition");
	if ((rc = refuse_with_models(l)))
		return rc;
	ce = catalog_find(l->sc.serving.instance_type);
	gpu = ce ? mig_gpu_find(ce->gpu_model) : NULL;
	if (!gpu)
		return yamldoc_fail(&l->y, &parts, "%s (%s) has no MIG partitions here; expected a type with "
					  "A100 40GB, A100 80GB, H100 80GB or H200 141GB GPUs (p4d, p4de, p5, "
					  "p5en)", l->sc.serving.instance_type, ce ? ce->gpu_model : "not in the catalogue");
	if ((rc = yamldoc_mapping(&l->y, &parts, partitions_keys, NULL, NULL)) ||
	    (rc = scenario_load_required(l, &parts, "layout", "a mapping of MIG profile to count, such as "
					 "{3g.40gb: 1, 4g.40gb: 1}", &layout)) ||
	    (rc = read_layout(l, &layout, gpu)))
		return rc;
	return read_model_partitions(l, &parts);
}
