/*
 * scenario_types: several instance types in one fleet (part of the scenario loader, scenario_load.h).
 *
 *   serving:
 *     instance_type: g6e.xlarge          # the reference type: types[0], slots_per_instance, scale 1
 *     slots_per_instance: 4
 *     types:
 *       p4d.24xlarge: {slots_per_instance: 16, service_scale: 0.5}
 *   fleet:
 *     - {option: reserved, count: 1, scope: zonal}                 # g6e.xlarge
 *     - {option: on_demand, instance_type: p4d.24xlarge, max: 2}
 *
 * Each fleet entry may name an `instance_type`: the serving type (the default) or one listed under
 * serving.types. A listed type gives its own speed: slots_per_instance (default the serving type's) and
 * service_scale, the factor its service times are multiplied by (default 1: as fast as the serving type;
 * 0.5: twice as fast). With the token model (workload.service.kind tokens) it may also give its own
 * prefill_tokens_per_s and decode_tokens_per_s or decode_table (default the workload's); service_scale
 * then multiplies the time these give. Everything the catalogue gives (GPUs, vCPUs, prices, discounts, the Capacity Block
 * rate) comes from the entry's own type, with the scenario's catalog: overrides, so an entry's defaults are
 * what they would be in a scenario serving on that type alone. The serving type itself may not be listed
 * (its speed is serving.slots_per_instance at scale 1).
 *
 * Several types are not supported together with serving.copies (slots per copy and copies per instance
 * are the serving type's), with mode: fluid (its queueing formulas have one server size), nor for entries
 * whose instances are for jobs (use: jobs or shared; jobs count the serving type's GPUs): those
 * combinations are refused. Every type listed under serving.types must be sold by the scenario's provider,
 * as the serving type must (SOURCES.md [provider-default]): a built-in row, or a catalog: entry that says
 * `provider:`, of another provider is refused at its key under serving.types, listed whether or not an entry
 * uses it; an entry's instance_type can only name a listed type. A count: auto entry must be of the serving
 * type (auto is worked out for it).
 *
 * autoscaling.capacity_unit says what autoscaling's capacity counts: instances (the default: an instance of
 * any type counts 1), gpus (an instance counts its type's GPUs) or slots (its type's slots_per_instance).
 * Each entry's `weight` is what one of its instances counts; min, max, the desired capacity, the policies'
 * answers and scheduled actions are in that unit, and the fleet fills the desired capacity in allocation
 * order (fleet.c). gpus and slots need the concurrency metric (the others are per instance) and no copies,
 * no predictive policy and no count: auto.
 */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "provider.h"
#include "scenario_load.h"
#include "status.h"

#define MAX_SERVICE_SCALE 1000.0

static const char *const serving_type_keys[] = { "slots_per_instance", "service_scale", "prefill_tokens_per_s",
	"decode_tokens_per_s", "decode_table", "kv_cache_tokens", NULL };
static const char *const unit_names[] = { "instances", "gpus", "slots" };
static const struct yamldoc_bounds scale_bounds = { 0, MAX_SERVICE_SCALE, true, false };  /* (0, max] */

/* sc.types[i] from the catalogue's view of the type, *t (copied to l->types[i] for the entries' defaults). */
static void set_type(struct load *l, int i, const char *name, const struct instance_type *t)
{
	struct scenario_type *st = &l->sc.types[i];

	l->types[i] = *t;
	snprintf(st->name, sizeof st->name, "%s", name);
	st->gpus = t->gpus;
	st->vcpus = t->vcpus;
	st->family = name[0];  /* SOURCES.md [od-quota-vcpus]: quotas by family */
	st->od_usd_per_h = t->od_usd_per_h;
	st->slots = l->sc.serving.slots;
	st->service_scale = 1;
	st->prefill_tokens_per_s = l->sc.service.prefill_tokens_per_s;
	memcpy(st->decode, l->sc.service.decode, sizeof st->decode);
	st->ndecode = l->sc.service.ndecode;
}

/* A listed type's own token speeds (only with the token model), into sc.types[i]. */
static int read_token_speeds(struct load *l, const struct yamldoc_ref *e, int i)
{
	static const char *const keys[] = { "prefill_tokens_per_s", "decode_tokens_per_s", "decode_table" };
	struct scenario_type *st = &l->sc.types[i];
	struct yamldoc_ref r;
	int rc;

	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		yamldoc_child(e, keys[k], &r);
		if (r.node && l->sc.service.kind != SERVICE_TOKENS)
			return yamldoc_fail(&l->y, &r, "%s needs workload.service.kind tokens; expected "
						  "service_scale for this service kind", keys[k]);
	}
	if ((rc = scenario_load_exclusive(l, e, "decode_tokens_per_s", "decode_table")))
		return rc;
	yamldoc_child(e, "prefill_tokens_per_s", &r);
	if ((rc = yamldoc_number(&l->y, &r, scenario_load_token_speed, &st->prefill_tokens_per_s)))
		return rc;
	yamldoc_child(e, "decode_table", &r);
	if (r.node)
		return scenario_load_decode_table(l, &r, st->decode, &st->ndecode);
	yamldoc_child(e, "decode_tokens_per_s", &r);
	if (!r.node)
		return STATUS_OK;
	st->decode[0].concurrency = 1;
	st->ndecode = 1;
	return yamldoc_number(&l->y, &r, scenario_load_token_speed, &st->decode[0].tokens_per_s);
}

/*
 * The entry's own type sc.types[type] (at r) must be the scenario's provider's. Whose type it is: a built-in
 * row's provider, or the catalog: entry's `provider`; a new type that does not say takes the scenario's, so
 * it always matches. The message says where the scenario's provider comes from: the `provider` key's
 * position, or the serving type when the key is absent.
 */
static int check_type_provider(struct load *l, const struct yamldoc_ref *r, int type)
{
	const struct instance_type *t = &l->types[type];
	const char *name = l->sc.types[type].name;
	enum provider p = l->sc.provider;
	struct yamldoc_ref key;
	char where[64 + SCENARIO_NAME_MAX];

	if ((catalog_find(name) == NULL && !t->provider_given) || t->provider == p)
		return STATUS_OK;
	yamldoc_child(&l->root, "provider", &key);
	if (key.node) {
		yamldoc_where_text(&key, where, sizeof where);
	} else {
		snprintf(where, sizeof where, "that of serving.instance_type %s", l->sc.types[0].name);
	}
	return yamldoc_fail(&l->y, r, "%s is %s %s instance type, but the scenario's provider is %s (%s); "
				  "expected %s %s instance type", name, provider_article(t->provider),
				  provider_name(t->provider), provider_name(p), where, provider_article(p),
				  provider_name(p));
}

/* One item of serving.types: name -> {slots_per_instance, service_scale}. */
static int read_one(struct load *l, const struct yamldoc_ref *e, const char *name, int i)
{
	struct instance_type t;
	struct yamldoc_ref r;
	int rc;

	if (strcmp(name, l->sc.types[0].name) == 0)
		return yamldoc_fail(&l->y, e, "%s is the serving type (serving.instance_type), whose speed is "
					  "serving.slots_per_instance at service_scale 1; expected another type", name);
	for (int j = 1; j < i; j++)
		if (strcmp(name, l->sc.types[j].name) == 0)  /* YAML would allow a duplicate key */
			return yamldoc_fail(&l->y, e, "%s is listed twice; expected each type once", name);
	if (strlen(name) >= SCENARIO_NAME_MAX)
		return yamldoc_fail(&l->y, e, "instance type name too long; expected at most %d bytes",
					  SCENARIO_NAME_MAX - 1);
	if ((rc = yamldoc_mapping(&l->y, e, serving_type_keys, NULL, NULL)) ||
	    (rc = scenario_load_type(l, e, name, &t)))
		return rc;
	set_type(l, i, name, &t);
	if ((rc = scenario_load_prices_note(l, name, &t)) ||
	    (rc = check_type_provider(l, e, i)))  /* listed, so it must be sold where the scenario runs */
		return rc;
	yamldoc_child(e, "slots_per_instance", &r);
	if ((rc = scenario_load_int(l, &r, 1, MAX_SLOTS, &l->sc.types[i].slots)))
		return rc;
	yamldoc_child(e, "service_scale", &r);
	if ((rc = yamldoc_number(&l->y, &r, &scale_bounds, &l->sc.types[i].service_scale)))
		return rc;
	yamldoc_child(e, "kv_cache_tokens", &r);  /* checked against the service in scenario_batching.c */
	if (r.node) {
		int tokens;
		if ((rc = scenario_load_int(l, &r, 1, 2000000000, &tokens)))
			return rc;
		l->sc.types[i].kv_cache_tokens = tokens;
	}
	return read_token_speeds(l, e, i);
}

/* True if the top-level `mode` is written as fluid (it is read later, scenario_mode.c). */
static bool fluid_mode(struct load *l)
{
	struct yamldoc_ref r;
	struct diag *d = l->y.d, quiet;
	const char *text;
	bool yes;

	yamldoc_child(&l->root, "mode", &r);
	if (!r.node)
		return false;
	l->y.d = &quiet;  /* not a scalar: scenario_mode.c says so */
	yes = yamldoc_scalar(&l->y, &r, "a mode", &text) == STATUS_OK && strcmp(text, "fluid") == 0;
	l->y.d = d;
	return yes;
}

int scenario_load_types(struct load *l, const struct yamldoc_ref *serving)
{
	struct yamldoc_ref types, e;
	const char *name;
	int n, rc;

	set_type(l, 0, l->sc.serving.instance_type, &l->type);
	l->sc.ntypes = 1;
	if ((rc = scenario_load_prices_note(l, l->sc.serving.instance_type, &l->type)))
		return rc;
	yamldoc_child(serving, "types", &types);
	if (!types.node)
		return STATUS_OK;
	if ((rc = yamldoc_mapping(&l->y, &types, NULL, "a mapping of instance type names to "
					"{slots_per_instance, service_scale}", &n)))
		return rc;
	if (n > SCENARIO_TYPES_MAX - 1)
		return yamldoc_fail(&l->y, &types, "%d types listed; expected at most %d besides the serving "
					  "type", n, SCENARIO_TYPES_MAX - 1);
	if (n > 0 && l->sc.copies.enabled)
		return yamldoc_fail(&l->y, &types, "several instance types are not supported with "
					  "serving.copies; expected one or the other");
	if (n > 0 && fluid_mode(l))
		return yamldoc_fail(&l->y, &types, "several instance types are not supported in mode: fluid; "
					  "expected mode: requests");
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_pair(&types, &walk, &e, &name);
		if ((rc = read_one(l, &e, name, 1 + i)))
			return rc;
	}
	l->sc.ntypes = 1 + n;
	return STATUS_OK;
}

/* The index in sc.types of the entry's instance_type (at r), or a failure naming what is allowed. */
static int find_type(struct load *l, const struct yamldoc_ref *r, int *out)
{
	char name[SCENARIO_NAME_MAX], listed[512];
	size_t o = 0;
	int rc;

	if ((rc = yamldoc_string(&l->y, r, name, sizeof name)))
		return rc;
	for (int i = 0; i < l->sc.ntypes; i++)
		if (strcmp(name, l->sc.types[i].name) == 0) {
			*out = i;
			return STATUS_OK;
		}
	listed[0] = '\0';
	for (int i = 1; i < l->sc.ntypes && o < sizeof listed; i++)
		o += (size_t)snprintf(listed + o, sizeof listed - o, ", %s", l->sc.types[i].name);
	return yamldoc_fail(&l->y, r, "'%s' has no speed in this scenario; expected the serving type (%s)%s, "
				  "or add it under serving.types", name, l->sc.types[0].name, listed);
}

int scenario_load_capacity_unit(struct load *l)
{
	const struct scenario *sc = &l->sc;
	struct yamldoc_ref r;
	int unit = UNIT_INSTANCES, rc;

	yamldoc_child(&l->autoscaling, "capacity_unit", &r);
	if ((rc = yamldoc_choice(&l->y, &r, unit_names, 3, &unit)))
		return rc;
	l->sc.autoscaling.capacity_unit = (enum capacity_unit)unit;
	if (unit == UNIT_INSTANCES)
		return STATUS_OK;
	if (sc->copies.enabled)
		return yamldoc_fail(&l->y, &r, "with serving.copies autoscaling counts copies; expected "
					  "capacity_unit: instances");
	if (sc->autoscaling.policy == POLICY_PREDICTIVE)
		return yamldoc_fail(&l->y, &r, "the predictive policy sizes instances; expected "
					  "capacity_unit: instances");
	bool per_instance = sc->autoscaling.policy != POLICY_NONE && sc->autoscaling.metric != METRIC_CONCURRENCY;
	for (int i = 0; i < sc->autoscaling.nalso; i++)
		per_instance |= sc->autoscaling.also[i].metric != METRIC_CONCURRENCY;
	if (per_instance)
		return yamldoc_fail(&l->y, &r, "%s counts per instance; expected metric "
					  "concurrency_per_instance (per slot, whatever the unit) or capacity_unit: "
					  "instances", "a policy metric other than concurrency_per_instance");
	return STATUS_OK;
}

/* What one instance of type `type` counts for in autoscaling's capacity. */
static int weight_of(const struct load *l, int type)
{
	switch (l->sc.autoscaling.capacity_unit) {
	case UNIT_GPUS:
		return l->sc.types[type].gpus;
	case UNIT_SLOTS:
		return l->sc.types[type].slots;
	default:
		return 1;
	}
}

int scenario_load_typed_entry(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f,
			      int (*read)(struct load *, const struct yamldoc_ref *, struct fleet_entry *))
{
	struct yamldoc_ref r;
	struct instance_type saved_type;
	int type = 0, filled, rc;
	char saved[sizeof l->sc.serving];  /* the serving fields, while the entry's type stands in */

	yamldoc_child(e, "instance_type", &r);
	if (r.node && (rc = find_type(l, &r, &type)))
		return rc;
	if (type != 0 && f->use != USE_SERVING)
		return yamldoc_fail(&l->y, &r, "an entry for jobs (use: %s) must be of the serving type %s; "
					  "expected no instance_type", f->use == USE_JOBS ? "jobs" : "shared",
					  l->sc.types[0].name);
	f->weight = weight_of(l, type);  /* before read: an entry's default max is in instances */
	if (type == 0) {
		rc = read(l, e, f);
	} else {
		/* the entry's defaults are its own type's: swap the type in while it is read */
		memcpy(saved, &l->sc.serving, sizeof l->sc.serving);
		saved_type = l->type;
		l->type = l->types[type];
		snprintf(l->sc.serving.instance_type, sizeof l->sc.serving.instance_type, "%s", l->sc.types[type].name);
		scenario_load_serve_type(l);
		rc = read(l, e, f);
		memcpy(&l->sc.serving, saved, sizeof l->sc.serving);
		l->type = saved_type;
	}
	if (rc)
		return rc;
	if (f->count_auto && l->sc.autoscaling.capacity_unit != UNIT_INSTANCES)
		return yamldoc_fail(&l->y, e, "count: auto is worked out in instances; expected a number, or "
					  "autoscaling.capacity_unit: instances");
	if (type != 0 && f->count_auto)
		return yamldoc_fail(&l->y, &r, "count: auto is worked out for the serving type %s; expected "
					  "a number of instances for %s", l->sc.types[0].name, l->sc.types[type].name);
	filled = f->option == OPTION_TRAINING_PLAN ? l->plan_segments : 1;
	for (int j = 0; j < filled; j++) {
		f[j].type = type;
		f[j].weight = f->weight;
	}
	return STATUS_OK;
}

const struct scenario_load_names scenario_load_serving_type_keys = SCENARIO_LOAD_KEYS(serving_type_keys);
const struct yamldoc_bounds *const scenario_load_service_scale = &scale_bounds;
const struct scenario_load_names scenario_load_capacity_unit_names = SCENARIO_LOAD_NAMES(unit_names);
