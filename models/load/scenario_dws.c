/*
 * scenario_dws: the loader's keys for two provider rules that gpucap once stood in for (scenario_load.h):
 *  - `max_wait_s` of a gcp_dws_flex entry, the longest a Flex-start request waits in the queue
 *    (SOURCES.md [gcp-dws-queue]; option_dws.c runs the queue);
 *  - `eviction_policy` and `disk_usd_per_h` of an azure Spot entry (SOURCES.md [az-spot-eviction-policy];
 *    option_spot.c bills and counts deallocated VMs).
 * Errors name the key's file:line:col and what was expected, as the rest of the loader does.
 */
#include "scenario_load.h"
#include "status.h"

#define DWS_MAX_WAIT_US (7200 * S_US)  /* requests wait "for up to two hours": SOURCES.md [gcp-dws-queue] */

int scenario_load_dws_wait(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref r;

	f->max_wait_us = DWS_MAX_WAIT_US;
	yamldoc_child(e, "max_wait_s", &r);
	if (!r.node)
		return STATUS_OK;
	if (f->variant != VARIANT_FLEX)
		return yamldoc_fail(&l->y, &r, "max_wait_s is the queue wait of DWS Flex-start; expected it "
					  "only with option: gcp_dws_flex");
	return scenario_load_duration(l, &r, 0, false, DWS_MAX_WAIT_US, &f->max_wait_us);
}

static const char *const policies[] = { "deallocate", "delete" };
const struct scenario_load_names scenario_load_eviction_names = SCENARIO_LOAD_NAMES(policies);

int scenario_load_eviction(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	static const struct yamldoc_bounds disk_bounds = { 0, MAX_USD_PER_H, false, false };
	struct yamldoc_ref pol, disk;
	int choice = 0, rc;

	f->evict_delete = false;  /* Azure's default: deallocate */
	f->disk_usd_per_h = 0;
	yamldoc_child(e, "eviction_policy", &pol);
	yamldoc_child(e, "disk_usd_per_h", &disk);
	if (l->sc.provider != PROVIDER_AZURE || f->variant != VARIANT_NONE) {
		if (pol.node)
			return yamldoc_fail(&l->y, &pol, "eviction_policy is an Azure Spot setting; expected "
						  "it only with provider: azure");
		if (disk.node)
			return yamldoc_fail(&l->y, &disk, "disk_usd_per_h is the storage cost of a deallocated "
						  "Azure Spot VM; expected it only with provider: azure");
		return STATUS_OK;
	}
	if ((rc = yamldoc_choice(&l->y, &pol, policies, 2, &choice)))
		return rc;
	f->evict_delete = choice == 1;
	if (disk.node && f->evict_delete)
		return yamldoc_fail(&l->y, &disk, "disk_usd_per_h with eviction_policy: delete, whose evicted "
					  "VMs keep no disk; expected it only with eviction_policy: deallocate");
	return yamldoc_number(&l->y, &disk, &disk_bounds, &f->disk_usd_per_h);
}
