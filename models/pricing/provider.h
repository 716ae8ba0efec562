/*
 * provider: the cloud a scenario buys from (aws | gcp | azure), and the rules that differ between them.
 *
 * gpucap keeps one set of purchase-option kinds (option.h) and one result column per kind; a provider says
 * which kinds it sells and how the shared ones are billed (models/README.md, "Providers"):
 *   aws:   every kind, as documented for EC2 (SOURCES.md [od-per-second], [spot-notice-2min], ...);
 *   gcp:   on_demand (per second after a 1-minute minimum, SOURCES.md [gcp-per-second]), spot (30 s notice,
 *          no first-hour refund), reserved (a resource-based committed use discount with its attached
 *          reservation), odcr (a reservation without commitment) and savings_plan (a flexible spend-based
 *          committed use discount);
 *   azure: on_demand (pay-as-you-go, per full minute, SOURCES.md [az-per-minute]), spot (30 s eviction
 *          notice), reserved (reserved VM instances), odcr (an on-demand capacity reservation, refused for
 *          the sizes the documentation excludes), savings_plan (the savings plan for compute) and, as the
 *          variant azure_block below, a block capacity reservation.
 * Capacity Blocks and SageMaker training plans exist on aws only.
 *
 * All functions are pure: no state, no allocation. Billing times are microseconds, prices USD per
 * instance-hour. Errors: provider_bill returns STATUS_EINPUT for a provider this build does not know.
 */
#ifndef GPUCAP_PROVIDER_H
#define GPUCAP_PROVIDER_H

#include <stdbool.h>
#include <stdint.h>

#include "option.h"

enum provider {
	PROVIDER_AWS,    /* Amazon EC2 (the default: scenarios without `provider`) */
	PROVIDER_GCP,    /* Google Cloud Compute Engine */
	PROVIDER_AZURE,  /* Microsoft Azure virtual machines */
	PROVIDER_COUNT
};

/*
 * Products without an AWS counterpart, spelled by their own `option:` name and simulated as the kind whose
 * billing they share (the result columns are per kind):
 *   gcp_calendar:    a DWS calendar-mode future reservation, as capacity_block: a fixed number of VMs (1 to
 *                    80) for whole days (1 to 90) from a start, paid for the whole window, the VMs gone at
 *                    its end (SOURCES.md [gcp-calendar-limits]);
 *   gcp_preemptible: a preemptible VM, as spot, that "always" stops 24 h after its launch
 *                    (SOURCES.md [gcp-preemptible-24h]);
 *   gcp_dws_flex:    a DWS Flex-start VM, as on_demand, at a price the scenario gives, stopped 7 days after
 *                    its launch and counted against the Spot (preemptible) quota (SOURCES.md [gcp-dws-flex]);
 *   azure_block:     an Azure block capacity reservation (reservationType Block), as capacity_block: 1, 2,
 *                    4, ..., 64 VMs of one size for 1-14 whole days or 3-26 whole weeks from a start, paid
 *                    for the whole block, the VMs gone at its end (SOURCES.md [az-block-reservation]).
 */
enum provider_variant {
	VARIANT_NONE,         /* the kind itself */
	VARIANT_CALENDAR,     /* gcp_calendar (kind capacity_block) */
	VARIANT_PREEMPTIBLE,  /* gcp_preemptible (kind spot) */
	VARIANT_FLEX,         /* gcp_dws_flex (kind on_demand) */
	VARIANT_AZURE_BLOCK   /* azure_block (kind capacity_block) */
};

/* If `name` is a product of p spelled by its own name, set *kind and *variant and return true; else
 * false (both unchanged). */
bool provider_parse_variant(enum provider p, const char *name, enum option_kind *kind,
			    enum provider_variant *variant);

/* The i-th provider's own product (0 <= i), for the JSON schema's option list: its `option:` spelling into
 * *name (static storage) and the kind whose keys it takes into *kind; false (both unchanged) past the last. */
bool provider_variant_at(int i, const char **name, enum option_kind *kind);

/* The `option:` spelling of a variant ("gcp_calendar"), or NULL for VARIANT_NONE. */
const char *provider_variant_name(enum provider_variant v);

/* The scenario spelling of p ("aws", "gcp", "azure"); "?" when out of range. */
const char *provider_name(enum provider p);

/* The scenario spellings, in enum order, for choice keys (PROVIDER_COUNT of them). */
extern const char *const provider_names[PROVIDER_COUNT];

/* The region a scenario of p is priced for when it names none (`region:`; models/README.md, "Providers"):
 * aws us-east-1, gcp us-central1, azure eastus, the regions each provider's price pages list first and
 * where its GPU types are sold ("?" when out of range). Only a label: prices are the catalogue's. */
const char *provider_default_region(enum provider p);

/* True if p sells purchase option `kind` (see the table above). */
bool provider_offers(enum provider p, enum option_kind kind);

/* The kinds p sells, as "a, b or c" for messages (static storage). */
const char *provider_option_list(enum provider p);

/* The article before p's name in a sentence: "an" for aws and azure, "a" for gcp. */
const char *provider_article(enum provider p);

/* The default Spot interruption notice of p in microseconds: 120 s on aws (SOURCES.md [spot-notice-2min]),
 * 30 s on gcp (SOURCES.md [gcp-spot-notice-30s]) and azure (SOURCES.md [az-spot-notice-30s]). */
int64_t provider_spot_notice_us(enum provider p);

/* True if p refunds a Spot instance its provider interrupts in its first hour (aws only:
 * SOURCES.md [spot-billing]; neither Google Cloud nor Azure documents such a rule). */
bool provider_spot_first_hour_free(enum provider p);

/* How soon after its creation a Spot (or preemptible) VM that p preempts costs nothing, in microseconds:
 * gcp 60 s, "If Compute Engine preempts Spot VMs less than one minute after they are created, you are not
 * billed" (SOURCES.md [gcp-spot-first-minute]), measured to the preemption notice; 0 (no such rule) on aws,
 * whose first-hour rule is provider_spot_first_hour_free, and azure. */
int64_t provider_spot_free_preempt_us(enum provider p);

/*
 * True if p accepts an odcr (a capacity reservation) of instance type `type`. Azure's on-demand capacity
 * reservations do not support the "ND-series" or the "NCads H100 v5-series" (SOURCES.md [az-cr-excluded]):
 * names beginning Standard_ND, and Standard_NC...ads_H100_v5 (compared without case, as Azure size names
 * are). Every other provider and size: true.
 */
bool provider_reservable(enum provider p, const char *type);

/*
 * The usage bill of one pay-as-you-go instance (on_demand, and spot's billed time) held from launch_us to
 * end_us at usd_per_h, by p's granularity; arguments as option_bill's (option.h):
 *   aws, gcp: option_bill's on_demand rule: whole seconds, a 60-second minimum (SOURCES.md
 *     [od-per-second], [gcp-per-second]: "if you run your virtual machine for 30 seconds, you will be billed
 *     for 1 minute of usage. After 1 minute, instances are charged in 1 second increments");
 *   azure: whole minutes, rounded down: "We charge per the full minutes your virtual machine runs, so you
 *     are not billed for any extra seconds" (SOURCES.md [az-per-minute]: 6 min 45 s is billed 6 minutes;
 *     so a VM stopped within its first minute costs nothing). An instance already running at t = 0
 *     (`before_window`) is taken to have been launched a whole number of minutes before it.
 * Either way an instance still running at the horizon (not `ended_early`) is billed exactly up to it.
 * Writes *usd and *billed_us; returns STATUS_OK, or STATUS_EINPUT for an unknown provider.
 */
int provider_bill(enum provider p, double usd_per_h, int64_t launch_us, int64_t end_us, bool ended_early,
		  bool before_window, double *usd, double *billed_us);

#endif
