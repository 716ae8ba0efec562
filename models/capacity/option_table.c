/*
 * option_table: the purchase options, in one table. A fleet entry's option (and variant) picks its ops here;
 * each option's rules live in its own file, behind struct option_ops (fleet_private.h).
 *
 * Adding an option touches:
 *  - its own file, models/capacity/option_<name>.c, defining `const struct option_ops option_<name>_ops` (its hooks:
 *    launch checks, billing, zone outages, its own events);
 *  - this file: one declaration and one row below;
 *  - the kind, if it is a new one: enum option_kind (option.h) and its name (option.c);
 *  - the loader, for its keys: a scenario_<name>.c reader (or scenario_fleet.c) and its rows in
 *    scenario_schema_table.c;
 *  - the build: its file in models/capacity/CMakeLists.txt;
 *  - the documents: models/README.md, "Purchase options", and models/SOURCES.md for the provider facts it
 *    relies on; scenarios/REFERENCE.md is generated.
 * fleet.c, fleet.h, fleet_private.h and fleet_zone.c are not touched: a run hands the fleet this table
 * (fleet_init's ops_of), so the fleet names no option and sits beneath them all.
 */
#include "fleet.h"
#include "fleet_private.h"

extern const struct option_ops option_reserved_ops;
extern const struct option_ops option_on_demand_ops;
extern const struct option_ops option_spot_ops;
extern const struct option_ops option_odcr_ops;
extern const struct option_ops option_block_ops;
extern const struct option_ops option_plan_ops;
extern const struct option_ops option_dws_ops;

static const struct {
	enum option_kind kind;
	enum provider_variant variant;  /* VARIANT_NONE: any variant (rows for a variant come first) */
	const struct option_ops *ops;
} options[] = {
	{ OPTION_ON_DEMAND, VARIANT_FLEX, &option_dws_ops },  /* gcp_dws_flex: on-demand with a queue */
	{ OPTION_RESERVED, VARIANT_NONE, &option_reserved_ops },
	{ OPTION_ON_DEMAND, VARIANT_NONE, &option_on_demand_ops },
	{ OPTION_SPOT, VARIANT_NONE, &option_spot_ops },
	{ OPTION_ODCR, VARIANT_NONE, &option_odcr_ops },
	{ OPTION_CAPACITY_BLOCK, VARIANT_NONE, &option_block_ops },
	{ OPTION_TRAINING_PLAN, VARIANT_NONE, &option_plan_ops },
	/* savings plans hold no instances: no row (settled by the meter, savings.h) */
};

const struct option_ops *option_ops_of(const struct fleet_entry *e)
{
	for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
		if (options[i].kind == e->option &&
		    (options[i].variant == e->variant || options[i].variant == VARIANT_NONE))
			return options[i].ops;
	return NULL;
}
