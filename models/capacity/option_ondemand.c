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
 * A gcp DWS Flex-start entry (`option: gcp_dws_flex`) is billed by ondemand_ended too, from option_dws.c,
 * which adds its queue, its 7-day stop and its quota.
 */
#include "fleet_private.h"
#include "provider.h"
#include "status.h"

static int ondemand_can_launch(struct fleet *f, struct fleet_group *g, int n, char *why, size_t size)
{
	return fleet_check_capacity(f, g, n, f->sc->quotas.on_demand_vcpus, f->sc->quotas.on_demand_instances,
				    "Running On-Demand", why, size);
}

static void ondemand_ended(struct fleet *f, struct fleet_group *g, struct instance *in, int64_t end_us,
			   bool early, const struct meter_payer *pay)
{
	double usd, billed_us;

	/* by the provider's granularity: aws and gcp per second, 60 s minimum; azure per full minute */
	provider_bill(f->sc->provider, g->usd_per_h, in->launch_us, end_us, early, in->warm, &usd, &billed_us);
	meter_od_usage(f->meter, pay, in->launch_us, in->launch_us + (int64_t)billed_us, g->usd_per_h);
	/* the dollars come at settlement. The GPU time paid for is the billed time, or the time held when that
	 * is longer (azure: the seconds after the last full minute run but are not billed) */
	if (billed_us < (double)(end_us - in->launch_us))
		billed_us = (double)(end_us - in->launch_us);
	meter_charge(f->meter, pay, OPTION_ON_DEMAND, 0, billed_us, (double)in->launch_us,
		     (double)in->launch_us + billed_us);
}

static double ondemand_rate(const struct fleet *f, const struct fleet_group *g, int64_t now_us)
{
	(void)f;
	(void)now_us;
	return (g->live + g->draining) * g->usd_per_h;
}

const struct option_ops option_on_demand_ops = {
	.can_launch = ondemand_can_launch,
	.ended = ondemand_ended,
	.rate = ondemand_rate,
};
