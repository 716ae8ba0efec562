/*
 * scenario_routing: how an endpoint spreads requests over its instances and where they wait
 * (models/README.md "Routing"): serving.routing, serving.queue and serving.prefix_threshold.
 *
 * Defaults (DEFAULT_ROUTING, DEFAULT_QUEUE) are documented in the schema table. A multi-model endpoint
 * routes by model with its own rule (mme.h) and a central queue: scenario_mme.c refuses these keys there.
 * `cache_aware`, the former name of prefix_aware, is still read as prefix_aware.
 */
#include "scenario_load.h"
#include "status.h"

#define DEFAULT_ROUTING ROUTING_RANDOM
#define DEFAULT_QUEUE QUEUE_PER_INSTANCE

/* In enum routing_kind's order; the last is a former name. */
static const char *const routing_names[] = { "first_free", "prefix_aware", "random", "least_outstanding",
	"round_robin", "power_of_two", "cache_aware" };
static const char *const queue_names[] = { "central", "per_instance" };

int scenario_load_routing(struct load *l, const struct yamldoc_ref *serving)
{
	struct yamldoc_ref routing, queue, threshold;
	int kind = DEFAULT_ROUTING, where = DEFAULT_QUEUE, rc;

	l->sc.serving.prefix_threshold = 0;
	yamldoc_child(serving, "routing", &routing);
	if ((rc = yamldoc_choice(&l->y, &routing, routing_names, 7, &kind)))
		return rc;
	if (kind == 6)
		kind = ROUTING_PREFIX_AWARE;
	yamldoc_child(serving, "queue", &queue);
	if ((rc = yamldoc_choice(&l->y, &queue, queue_names, 2, &where)))
		return rc;
	l->sc.serving.routing = (enum routing_kind)kind;
	l->sc.serving.queue = (enum queue_kind)where;
	if (kind == ROUTING_PREFIX_AWARE && l->sc.serving.prefix_cache_blocks == 0)
		return yamldoc_fail(&l->y, &routing, "prefix_aware routing looks at each instance's prefix "
					  "cache; expected serving.prefix_cache_blocks, or another routing");
	yamldoc_child(serving, "prefix_threshold", &threshold);
	if (threshold.node && (kind != ROUTING_PREFIX_AWARE || where != QUEUE_PER_INSTANCE))
		return yamldoc_fail(&l->y, &threshold, "prefix_threshold is where prefix_aware routing with "
					  "per-instance queues stops sending a prefix to its instance; expected "
					  "routing: prefix_aware and queue: per_instance, or no prefix_threshold");
	return scenario_load_int(l, &threshold, 1, MAX_SLOTS * 1000, &l->sc.serving.prefix_threshold);
}

const struct scenario_load_names scenario_load_routing_names = SCENARIO_LOAD_NAMES(routing_names);
const struct scenario_load_names scenario_load_queue_names = SCENARIO_LOAD_NAMES(queue_names);
