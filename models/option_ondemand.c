/*
 * option_ondemand: On-Demand instances.
 *
 * Rule (SOURCES.md [od-per-second]): "You pay only for the seconds that your On-Demand Instances are in the
 * running state, with a 60-second minimum" (option_bill rounds an instance ended inside the window up to
 * whole seconds and applies the minimum unless it was running at t = 0; one still running at the horizon is
 * billed exactly up to it). Usage is recorded by clock hour at On-Demand rates; the meter turns it into
 * the bill when the window closes, after Savings Plans have covered what they cover (savings.h). Launches
 * can fail: the account's On-Demand quota in vCPUs or instances ("Running On-Demand P instances",
 * SOURCES.md [od-quota-vcpus]), insufficient capacity (a chance per attempt, and outage windows;
 * SOURCES.md [od-ice]: InsufficientInstanceCapacity).
 * On gcp the same rule is documented (SOURCES.md [gcp-per-second]); on azure pay-as-you-go is billed per
 * full minute (SOURCES.md [az-per-minute]); provider_bill applies the scenario's provider's rule.
 * A gcp DWS Flex-start entry (`option: gcp_dws_flex`, SOURCES.md [gcp-dws-flex]) is an on-demand entry
 * whose VMs are stopped 7 days after launch and count against the Spot quota; its price is required.
 */
#include "fleet.h"
#include "provider.h"
#include "status.h"

#define FLEX_MAX_US (7 * 24 * 3600 * INT64_C(1000000))  /* SOURCES.md [gcp-dws-flex] */

static int ondemand_can_launch(struct fleet *f, struct fleet_group *g, int n, char *why, size_t size)
{
	if (g->entry->variant == VARIANT_FLEX)  /* Flex-start VMs "consume preemptible quota" */
		return fleet_check_capacity(f, g, n, f->sc->quotas.spot_vcpus, f->sc->quotas.spot_instances,
					    "Preemptible (DWS Flex-start)", why, size);
	return fleet_check_capacity(f, g, n, f->sc->quotas.on_demand_vcpus, f->sc->quotas.on_demand_instances,
				    "Running On-Demand", why, size);
}

/* A DWS Flex-start VM runs "for a maximum of seven days", then Compute Engine stops it: taken then, with no
 * notice, requests in flight handled as serving.on_interrupt says (SOURCES.md [gcp-dws-flex]). */
static void on_flex_limit(struct engine *eng, struct event *ev)
{
	struct instance *in = container_of(ev, struct instance, notice);

	fleet_interrupt(in->fleet, (int)(in - in->fleet->pool), eng->now_us, "DWS Flex-start 7-day maximum");
}

static void ondemand_launched(struct fleet *f, struct fleet_group *g, struct instance *in)
{
	int64_t start_us = in->launch_us > 0 ? in->launch_us : 0, at_us = start_us + FLEX_MAX_US;

	if (g->entry->variant != VARIANT_FLEX || at_us > f->sc->horizon_us)
		return;
	if (engine_schedule(f->eng, &in->notice, at_us, on_flex_limit) != STATUS_OK) {
		meter_fail(f->meter, STATUS_ENOMEM);
		engine_stop(f->eng);
	}
}

static void ondemand_ended(struct fleet *f, struct fleet_group *g, struct instance *in, int64_t end_us,
			   bool early)
{
	double usd, billed_us;

	/* by the provider's granularity: aws and gcp per second, 60 s minimum; azure per full minute */
	provider_bill(f->sc->provider, g->usd_per_h, in->launch_us, end_us, early, in->warm, &usd, &billed_us);
	meter_od_usage(f->meter, in->launch_us, in->launch_us + (int64_t)billed_us, g->usd_per_h);
	/* the dollars come at settlement. The GPU time paid for is the billed time, or the time held when that
	 * is longer (azure: the seconds after the last full minute run but are not billed) */
	if (billed_us < (double)(end_us - in->launch_us))
		billed_us = (double)(end_us - in->launch_us);
	meter_charge(f->meter, OPTION_ON_DEMAND, 0, billed_us, (double)in->launch_us, (double)in->launch_us + billed_us);
}

static double ondemand_rate(const struct fleet *f, const struct fleet_group *g, int64_t now_us)
{
	(void)f;
	(void)now_us;
	return (g->live + g->draining) * g->usd_per_h;
}

const struct option_ops option_on_demand_ops = {
	.can_launch = ondemand_can_launch,
	.launched = ondemand_launched,
	.ended = ondemand_ended,
	.rate = ondemand_rate,
};
