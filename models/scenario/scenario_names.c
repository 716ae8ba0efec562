/*
 * scenario_names: the scenario spellings of the autoscaling enums (see scenario.h). They belong with the
 * config type, not the loader: run-time code (warn.c) names a metric in its messages, and the loader reads
 * the same tables, so a spelling is written once.
 */
#include "scenario.h"

const char *const scenario_policy_names[POLICY_PREDICTIVE + 1] = { "none", "target_tracking", "step", "hpa",
	"predictive" };
const char *const scenario_metric_names[METRIC_KINDS] = { "concurrency_per_instance", "invocations_per_instance",
	"backlog_per_instance", "gpu_utilization", "gpu_memory_utilization" };

const char *scenario_policy_name(enum policy_kind k)
{
	return (unsigned)k < sizeof scenario_policy_names / sizeof scenario_policy_names[0] ?
	       scenario_policy_names[k] : "?";
}

const char *scenario_metric_name(enum metric_kind k)
{
	return (unsigned)k < sizeof scenario_metric_names / sizeof scenario_metric_names[0] ?
	       scenario_metric_names[k] : "?";
}
