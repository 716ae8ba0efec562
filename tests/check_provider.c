/*
 * check_provider: each provider's billing rules (provider.h), on cases worked by hand: provider_bill on
 * its own, then whole runs of small Google Cloud and Azure scenarios (a 6 min 45 s Azure VM, a 30 s Google
 * Cloud VM, a CUD whose reservation is unused for a day, an Azure capacity reservation used half the time,
 * a 30-second Spot notice with requests in flight), and the option table and size exclusions.
 * Tolerance: dollars to 1e-9 for provider_bill (a few multiplications), 0.005 (half a cent) for whole runs;
 * GPU-hours to 1e-6.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "provider.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"

#define S 1000000LL

static struct capture cap;

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/* The bill of an instance of provider p launched at t0 inside the window and ended early at t1. */
static double bill(enum provider p, double price, int64_t t0, int64_t t1, bool early, double *billed_s)
{
	double usd = -1, billed_us = -1;

	ck_assert_int_eq(provider_bill(p, price, t0, t1, early, false, &usd, &billed_us), STATUS_OK);
	*billed_s = billed_us / S;
	return usd;
}

/*
 * Azure bills full minutes: 6 min 45 s = 405 s is billed 6 min = 360 s; at $60/h that is 360/3600 x 60 =
 * $6.00 (aws would bill 405 s = $6.75). 59 s is no full minute: $0. Still running at the horizon (not
 * ended early): billed exactly, 405 s = $6.75.
 */
START_TEST(azure_bills_full_minutes)
{
	double secs;

	ck_assert_double_eq_tol(bill(PROVIDER_AZURE, 60, 10 * S, 10 * S + 405 * S, true, &secs), 6.00, 1e-9);
	ck_assert_double_eq_tol(secs, 360, 1e-9);
	ck_assert_double_eq_tol(bill(PROVIDER_AZURE, 60, 0, 59 * S + 999999, true, &secs), 0, 1e-9);
	ck_assert_double_eq_tol(bill(PROVIDER_AZURE, 60, 0, 405 * S, false, &secs), 6.75, 1e-9);
	ck_assert_double_eq_tol(bill(PROVIDER_AWS, 60, 0, 405 * S, true, &secs), 6.75, 1e-9);
}
END_TEST

/* Google Cloud: 30 s is billed the 1-minute minimum: 60/3600 x $36 = $0.60; after it, per second: 61.5 s
 * rounds up to 62 s = 62/3600 x 36 = $0.62. */
START_TEST(gcp_bills_a_minute_then_seconds)
{
	double secs;

	ck_assert_double_eq_tol(bill(PROVIDER_GCP, 36, 0, 30 * S, true, &secs), 0.60, 1e-9);
	ck_assert_double_eq_tol(secs, 60, 1e-9);
	ck_assert_double_eq_tol(bill(PROVIDER_GCP, 36, 0, 61500000, true, &secs), 0.62, 1e-9);
	ck_assert_double_eq_tol(secs, 62, 1e-9);
}
END_TEST

START_TEST(unknown_provider_is_an_error)
{
	double usd = 0, billed = 0;

	ck_assert_int_eq(provider_bill(PROVIDER_COUNT, 1, 0, S, true, false, &usd, &billed), STATUS_EINPUT);
	ck_assert_str_eq(provider_name(PROVIDER_COUNT), "?");
	/* the first value past the last provider (azure, the last of 3) has no region and offers nothing; the
	 * last one has its own */
	ck_assert_str_eq(provider_default_region(PROVIDER_COUNT), "?");
	ck_assert_str_eq(provider_default_region(PROVIDER_AZURE), "eastus");
	ck_assert(!provider_offers(PROVIDER_COUNT, OPTION_ON_DEMAND));
	/* the option variants, by index: 4 of them (gcp_calendar, gcp_preemptible, gcp_dws_flex, azure_block),
	 * none at -1 or at 4 */
	const char *name = NULL;
	enum option_kind kind = OPTION_KIND_COUNT;
	ck_assert(provider_variant_at(0, &name, &kind));
	ck_assert_str_eq(name, "gcp_calendar");
	ck_assert_int_eq(kind, OPTION_CAPACITY_BLOCK);
	ck_assert(provider_variant_at(3, &name, &kind));
	ck_assert_str_eq(name, "azure_block");
	ck_assert(!provider_variant_at(4, &name, &kind));
	ck_assert(!provider_variant_at(-1, &name, &kind));
}
END_TEST

/* Which options each provider sells, its Spot notice and Azure's capacity-reservation exclusions. */
START_TEST(options_notices_and_exclusions)
{
	ck_assert(provider_offers(PROVIDER_AWS, OPTION_CAPACITY_BLOCK));
	ck_assert(!provider_offers(PROVIDER_GCP, OPTION_CAPACITY_BLOCK));
	ck_assert(!provider_offers(PROVIDER_AZURE, OPTION_TRAINING_PLAN));
	ck_assert(provider_offers(PROVIDER_AZURE, OPTION_ODCR));
	ck_assert_int_eq(provider_spot_notice_us(PROVIDER_AWS), 120 * S);
	ck_assert_int_eq(provider_spot_notice_us(PROVIDER_GCP), 30 * S);
	ck_assert_int_eq(provider_spot_notice_us(PROVIDER_AZURE), 30 * S);
	ck_assert(provider_spot_first_hour_free(PROVIDER_AWS));
	ck_assert(!provider_spot_first_hour_free(PROVIDER_GCP));
	ck_assert(!provider_reservable(PROVIDER_AZURE, "Standard_ND96isr_H100_v5"));
	ck_assert(!provider_reservable(PROVIDER_AZURE, "standard_nd96isr_h200_v5"));
	ck_assert(!provider_reservable(PROVIDER_AZURE, "Standard_NC40ads_H100_v5"));
	ck_assert(provider_reservable(PROVIDER_AZURE, "Standard_NC24ads_A100_v4"));
	ck_assert(provider_reservable(PROVIDER_AWS, "Standard_ND96isr_H100_v5"));
}
END_TEST

/* A jobs-only run: one job of `work_h` instance-hours on one instance of `option`, no startup delay. */
static void run_one_job(const char *provider, const char *type, double od_usd_per_h, const char *option,
			double work_h, const char *horizon)
{
	char yaml[2048];

	snprintf(yaml, sizeof yaml,
		 "name: vm\nseed: 1\nhorizon: %s\nprovider: %s\nserving: {instance_type: %s}\n"
		 "catalog:\n  %s: {usd_per_h: %.17g}\n"
		 "fleet:\n  - {option: %s, use: jobs, %s: 1, startup: {kind: constant, mean_s: 0}}\n"
		 "jobs:\n  policy: %s\n  failures: {per_instance_hour: 0}\n"
		 "  list:\n    - {name: vm, instances: 1, work_instance_hours: %.17g, submit: 0}\n",
		 horizon, provider, type, type, od_usd_per_h, option,
		 strcmp(option, "on_demand") == 0 ? "max" : "count",
		 strcmp(option, "on_demand") == 0 ? "on_demand" : "reserved_first", work_h);
	capture_run(&cap, yaml, NULL, 0);
}

/* Parse text, asserting success, into *sc (the caller finis it). */
static void parse(struct scenario *sc, const char *text)
{
	struct diag d;
	int rc = scenario_parse_string(sc, text, "t.yaml", NULL, 0, &d);

	ck_assert_msg(rc == STATUS_OK, "scenario: %s", d.msg);
}

#define HEAD "name: p\nhorizon: 1h\nslo: {latency_s: 5}\n" \
	"workload:\n  arrivals: {kind: poisson, rate_per_s: 1}\n  service: {kind: exponential, mean_s: 1}\n"

/* No `provider`: the serving type's. AWS rows and new types without one are aws (120 s Spot notice); a
 * gcp row makes the scenario gcp, a new type with `provider: azure` makes it azure (30 s notice). */
START_TEST(provider_defaults_to_the_serving_type)
{
	struct scenario sc;

	parse(&sc, HEAD "serving: {instance_type: g5.xlarge}\nfleet:\n  - {option: spot, count: 1, max: 2}\n");
	ck_assert_int_eq(sc.provider, PROVIDER_AWS);
	ck_assert_int_eq(sc.fleet[0].notice_us, 120 * S);
	scenario_fini(&sc);
	parse(&sc, HEAD "serving: {instance_type: my-gpu}\ncatalog:\n  my-gpu: {gpus: 1, usd_per_h: 2}\n"
	      "fleet:\n  - {option: on_demand, count: 1, max: 2}\n");
	ck_assert_int_eq(sc.provider, PROVIDER_AWS);
	scenario_fini(&sc);
	parse(&sc, HEAD "serving: {instance_type: g2-standard-12}\ncatalog:\n  g2-standard-12: {usd_per_h: 1}\n"
	      "fleet:\n  - {option: spot, count: 1, max: 2}\n");
	ck_assert_int_eq(sc.provider, PROVIDER_GCP);
	ck_assert_int_eq(sc.fleet[0].notice_us, 30 * S);
	scenario_fini(&sc);
	parse(&sc, HEAD "serving: {instance_type: my-gpu}\ncatalog:\n  my-gpu: {gpus: 1, usd_per_h: 2, provider: azure}\n"
	      "fleet:\n  - {option: spot, count: 1, max: 2}\n");
	ck_assert_int_eq(sc.provider, PROVIDER_AZURE);
	ck_assert_int_eq(sc.fleet[0].notice_us, 30 * S);
	scenario_fini(&sc);
}
END_TEST

/*
 * A provider set by an override that does not match the serving type: the message names the override where
 * a file's provider key would give its line and column, and says "an aws" (not "a aws").
 */
START_TEST(provider_override_mismatch_names_the_override)
{
	static const char *const sets[] = { "provider=gcp" };
	struct scenario sc;
	struct diag d;

	ck_assert_int_eq(scenario_parse_string(&sc, HEAD "serving: {instance_type: p5.48xlarge}\n"
					       "fleet:\n  - {option: on_demand, count: 1, max: 2}\n", "p.yaml", sets,
					       1, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "p5.48xlarge is an aws instance type, but the scenario's provider is gcp "
			     "(--set provider=gcp); expected an instance type of gcp, or provider: aws"), "%s", d.msg);
	ck_assert_ptr_null(strstr(d.msg, "line 0"));
}
END_TEST

/* A type of the scenario's provider listed under serving.types, and named by a fleet entry, is taken: a gcp
 * row, and a new catalog: type without `provider` (it takes the scenario's). Another provider's type is
 * refused at its key under serving.types, used by an entry or not (tests/data/bad/provider_*listed_type_*). */
START_TEST(entry_types_of_the_scenarios_provider)
{
	struct scenario sc;

	parse(&sc, HEAD "provider: gcp\nserving:\n  instance_type: a3-highgpu-8g\n  types:\n"
	      "    a2-ultragpu-8g: {slots_per_instance: 8, service_scale: 2}\n    my-gpu: {service_scale: 3}\n"
	      "catalog:\n  a3-highgpu-8g: {usd_per_h: 80}\n  a2-ultragpu-8g: {usd_per_h: 40}\n"
	      "  my-gpu: {gpus: 8, usd_per_h: 20}\n"
	      "fleet:\n  - {option: reserved, count: 1, scope: zonal}\n  - {option: spot, max: 2, instance_type: a2-ultragpu-8g}\n"
	      "  - {option: on_demand, max: 2, instance_type: my-gpu}\n");
	ck_assert_int_eq(sc.provider, PROVIDER_GCP);
	ck_assert_int_eq(sc.fleet[1].type, 1);
	ck_assert_int_eq(sc.fleet[2].type, 2);
	scenario_fini(&sc);
}
END_TEST

/*
 * A 6 min 45 s Azure VM: a job of 0.1125 instance-hours (405 s) on one pay-as-you-go
 * Standard_NC24ads_A100_v4 at $4/h, launched at once and terminated when the job ends. Billed 6 full
 * minutes: 0.1 h x $4 = $0.40 (per second it would be 0.1125 x 4 = $0.45). The 45 s past the sixth minute
 * are not billed but were paid-for GPU time all the same: 1 GPU x 0.1125 h paid, all busy, 0 idle.
 */
START_TEST(azure_vm_6m45s)
{
	run_one_job("azure", "Standard_NC24ads_A100_v4", 4, "on_demand", 0.1125, "1h");
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 0.40, 0.005);
	ck_assert_double_eq_tol(M("cost_total_usd"), 0.40, 0.005);
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 0.1125, 1e-6);
	ck_assert_double_eq_tol(M("gpu_hours_idle"), 0, 1e-6);
}
END_TEST

/* A 30 s Google Cloud VM: one a2-ultragpu-1g at $36/h for a 30 s job (1/120 instance-hour). Billed the
 * 1-minute minimum: 60/3600 x 36 = $0.60; paid GPU-hours 1/60, of which 1/120 busy. */
START_TEST(gcp_vm_30s)
{
	run_one_job("gcp", "a2-ultragpu-1g", 36, "on_demand", 1.0 / 120, "1h");
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 0.60, 0.005);
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 1.0 / 60, 1e-6);
	ck_assert_double_eq_tol(M("gpu_hours_busy"), 1.0 / 120, 1e-6);
}
END_TEST

/*
 * A Google Cloud CUD with its attached reservation unused for a day: 1 a3-highgpu-8g (8 GPUs) committed for
 * 1 year at $40/h, while the day's only job runs on an on-demand VM ($88/h, 1 h). The commitment is billed
 * whether used or not: 24 h x $40 = $960.00, 8 x 24 = 192 GPU-hours paid, all idle. On-demand: 1 h x $88 =
 * $88.00. The rest of the term falls after the horizon: (8760 - 24) h x $40 = $349,440.
 */
START_TEST(gcp_cud_reservation_unused_for_a_day)
{
	capture_run(&cap,
		    "name: cud\nseed: 1\nhorizon: 1d\nprovider: gcp\nserving: {instance_type: a3-highgpu-8g}\n"
		    "catalog:\n  a3-highgpu-8g: {usd_per_h: 88}\n"
		    "fleet:\n  - {option: reserved, use: jobs, count: 1, term: 1y, usd_per_h: 40, scope: zonal}\n"
		    "  - {option: on_demand, use: jobs, max: 1, startup: {kind: constant, mean_s: 0}}\n"
		    "jobs:\n  policy: on_demand\n  failures: {per_instance_hour: 0}\n"
		    "  list:\n    - {name: other, instances: 1, work_instance_hours: 1, submit: 1h}\n", NULL, 0);
	ck_assert_double_eq_tol(M("cost_reserved_usd"), 960.00, 0.005);
	ck_assert_double_eq_tol(M("gpu_hours_paid_reserved"), 192, 1e-6);
	ck_assert_double_eq_tol(M("gpu_hours_idle_reserved"), 192, 1e-6);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 88.00, 0.005);
	ck_assert_double_eq_tol(M("commitment_after_horizon_usd"), 349440.00, 0.005);
}
END_TEST

/*
 * An Azure on-demand capacity reservation used half the time: 1 Standard_NC24ads_A100_v4 reserved at the
 * pay-as-you-go rate of $4/h for a day; a 12-hour job runs in it from t = 0 (no startup delay). Billed used
 * or not: 24 h x $4 = $96.00 (not 12 x 4 = $48); 24 GPU-hours paid, 12 busy, 12 idle.
 */
START_TEST(azure_capacity_reservation_half_used)
{
	run_one_job("azure", "Standard_NC24ads_A100_v4", 4, "odcr", 12, "1d");
	ck_assert_double_eq_tol(M("cost_odcr_usd"), 96.00, 0.005);
	ck_assert_double_eq_tol(M("gpu_hours_paid_odcr"), 24, 1e-6);
	ck_assert_double_eq_tol(M("gpu_hours_busy_odcr"), 12, 1e-6);
	ck_assert_double_eq_tol(M("gpu_hours_idle_odcr"), 12, 1e-6);
}
END_TEST

/*
 * A 30-second Spot notice with requests in flight, on gcp. One Spot a2-ultragpu-1g ($10/h fixed) serves
 * from t = 0; evenly spaced arrivals every 10 s, each served in exactly 45 s (8 slots: never full). The
 * availability trace (600 s steps: 2, 0, 1) takes the pool to 0 at t = 600 s: the notice. The instance
 * stops taking requests then and is gone 30 s later, at 630 s. In flight at 600 s: the requests that
 * arrived at 560, 570, 580 and 590 s, finishing at 605, 615, 625 and 635 s; the first three finish inside
 * the notice, the last is cut off: 1 request interrupted (on AWS the 120 s notice would let it finish). The
 * instance ran 0 to 630 s and was already in service at t = 0, so no minimum applies and gcp refunds
 * nothing: 630/3600 x $10 = $1.75. The pool stays empty to the horizon (1200 s).
 */
START_TEST(gcp_spot_30s_notice_with_requests_in_flight)
{
	const struct capture_event *e;

	capture_run(&cap,
		    "name: sp\nseed: 1\nhorizon: 20m\nprovider: gcp\nslo: {latency_s: 100}\n"
		    "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 45}\n"
		    "serving: {instance_type: a2-ultragpu-1g, slots_per_instance: 8, startup_s: 0}\n"
		    "catalog:\n  a2-ultragpu-1g: {usd_per_h: 20}\n"
		    "fleet:\n  - {option: spot, count: 1, max: 1, usd_per_h: 10, availability_trace: "
		    TEST_DATA_DIR "/spot/avail.json}\n", NULL, 0);
	e = capture_find(&cap, "interrupt", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 600, 1e-9);
	e = capture_find(&cap, "terminate", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 630, 1e-9);
	ck_assert_double_eq(M("spot_interruptions"), 1);
	ck_assert_double_eq(M("requests_interrupted"), 1);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 1.75, 0.005);
}
END_TEST

/*
 * Google Cloud does not bill a Spot VM it preempts less than one minute after creating it. One Spot
 * a2-ultragpu-1g at $18/h, in service at t = 0, under an availability trace of 50 s steps 1, 0, 1, 0, 1...:
 *   VM 1 (in service at t = 0: created before the window, billed): notice at 50 s, gone at 80 s: 80 s = $0.40;
 *   the launch at 80 s fails (the trace shows 0), the retry 30 s later launches VM 2 at 110 s;
 *   VM 2: notice at 150 s, 40 s after its creation: not billed ($0; its 70 s held count as paid GPU time);
 *   the launch at 180 s fails, VM 3 launches at 210 s and runs to the horizon, 600 s: 390 s = $1.95.
 * Total $2.35, 540 s = 0.15 GPU-hours paid. With 60 s steps VM 2 launches at 120 s and gets its notice at
 * 180 s, exactly a minute after: billed, 120 to 210 s = $0.45, and VM 1 90 s = $0.45, VM 3 360 s = $1.80:
 * $2.70 (on aws, VM 2 would be free by the first-hour rule either way). On azure (whole minutes, no refund) the 50 s run bills VM 1 and VM 2 one whole minute each, $0.30 and
 * $0.30, and VM 3 exactly to the horizon, $1.95: $2.55.
 */
START_TEST(gcp_spot_preempted_within_a_minute_is_free)
{
	static const char *const fmt =
		"name: sp\nseed: 1\nhorizon: 10m\nprovider: %s\nslo: {latency_s: 100}\n"
		"workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 5}\n"
		"serving: {instance_type: %s, slots_per_instance: 8, startup_s: 0}\n"
		"catalog:\n  %s: {usd_per_h: 20, gpus: 1%s}\n"
		"fleet:\n  - {option: spot, count: 1, max: 1, usd_per_h: 18, availability_trace: "
		TEST_DATA_DIR "/spot/avail-%ds.json}\n";
	char yaml[1024];

	snprintf(yaml, sizeof yaml, fmt, "gcp", "a2-ultragpu-1g", "a2-ultragpu-1g", "", 50);
	capture_run(&cap, yaml, NULL, 0);
	ck_assert_double_eq(M("spot_interruptions"), 2);
	ck_assert_double_eq_tol(capture_find(&cap, "launch", 0)->t_s, 110, 1e-9);
	ck_assert_double_eq_tol(capture_find(&cap, "interrupt", 1)->t_s, 150, 1e-9);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 2.35, 0.005);
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 0.15, 1e-6);
	snprintf(yaml, sizeof yaml, fmt, "gcp", "a2-ultragpu-1g", "a2-ultragpu-1g", "", 60);
	capture_run(&cap, yaml, NULL, 0);
	ck_assert_double_eq_tol(capture_find(&cap, "interrupt", 1)->t_s - capture_find(&cap, "launch", 0)->t_s, 60,
				1e-9);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 2.70, 0.005);
	snprintf(yaml, sizeof yaml, fmt, "azure", "my-gpu", "my-gpu", ", provider: azure", 50);
	capture_run(&cap, yaml, NULL, 0);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 2.55, 0.005);
}
END_TEST

/*
 * A gcp calendar-mode reservation: 2 a3-highgpu-8g (8 GPUs) from 06:00 for 1 day at $50 per VM-hour, in a
 * 2-day run with light traffic. Charged for its whole window: 2 x 50 x 24 = $2,400.00; 2 x 8 x 24 = 384
 * GPU-hours paid. Its VMs launch at 6 h and are terminated at its end, 30 h (AWS would start taking them
 * at 29 h 20 min, 40 minutes before).
 */
START_TEST(gcp_calendar_window_and_end)
{
	const struct capture_event *e;

	capture_run(&cap,
		    "name: cal\nseed: 1\nstart: 2026-01-01T00:00:00Z\nhorizon: 2d\nprovider: gcp\nslo: {latency_s: 100}\n"
		    "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 5}\n"
		    "serving: {instance_type: a3-highgpu-8g, slots_per_instance: 8, startup_s: 0}\n"
		    "catalog:\n  a3-highgpu-8g: {usd_per_h: 88}\n"
		    "fleet:\n  - {option: gcp_calendar, start: 2026-01-01T06:00:00Z, duration: 1d, count: 2, "
		    "usd_per_h: 50}\n  - {option: on_demand, count: 1, max: 1}\n", NULL, 0);
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 2400.00, 0.005);
	ck_assert_double_eq_tol(M("gpu_hours_paid_capacity_block"), 384, 1e-6);
	e = capture_find(&cap, "block_expiring", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 30 * 3600.0, 1e-9);
}
END_TEST

/*
 * An Azure block capacity reservation (SOURCES.md [az-block-reservation]): 2 Standard_ND96isr_H100_v5 (8
 * GPUs) from day 1 00:00 for 3 days at $40 per VM-hour, in a 5-day run with light traffic. Paid for the
 * whole block, used or not: 2 x 40 x 72 = $5,760.00; 2 x 8 x 72 = 1,152 GPU-hours paid, almost all idle.
 * Its VMs launch when it starts (86,400 s) and are taken at its end (4 days = 345,600 s; no 40-minute
 * warning as on AWS): no event of the block falls outside that window.
 */
START_TEST(azure_block_billed_whole_and_serves_its_window)
{
	const struct capture_event *e;
	int launches = 0;  /* VMs launched, from the launch events' counts */

	capture_run(&cap,
		    "name: azb\nseed: 1\nstart: 2026-01-01T00:00:00Z\nhorizon: 5d\nprovider: azure\n"
		    "slo: {latency_s: 100}\n"
		    "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 5}\n"
		    "serving: {instance_type: Standard_ND96isr_H100_v5, slots_per_instance: 8, startup_s: 0}\n"
		    "catalog:\n  Standard_ND96isr_H100_v5: {usd_per_h: 98}\n"
		    "fleet:\n  - {option: azure_block, start: 2026-01-02T00:00:00Z, duration: 3d, count: 2, "
		    "usd_per_h: 40}\n  - {option: on_demand, count: 1, max: 1}\n", NULL, 0);
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 5760.00, 0.005);
	ck_assert_double_eq_tol(M("gpu_hours_paid_capacity_block"), 1152, 1e-6);
	ck_assert(M("gpu_hours_busy_capacity_block") < 0.01 * 1152);
	e = capture_find(&cap, "block_expiring", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 4 * 86400.0, 1e-9);
	for (int i = 0; i < cap.nevents; i++) {
		if (strcmp(cap.events[i].option, "capacity_block") != 0)
			continue;
		ck_assert_msg(cap.events[i].t_s >= 86400 && cap.events[i].t_s <= 4 * 86400.0, "%s at %g s",
			      cap.events[i].kind, cap.events[i].t_s);
		launches += strcmp(cap.events[i].kind, "launch") == 0 ? cap.events[i].count : 0;
	}
	ck_assert_int_eq(launches, 2);
}
END_TEST

/* Assert that the loader refuses text with a message containing expect. */
static void refused(const char *text, const char *expect)
{
	struct scenario sc;
	struct diag d;

	ck_assert_int_eq(scenario_parse_string(&sc, text, "t.yaml", NULL, 0, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, expect), "expected '%s' in: %s", expect, d.msg);
}

#define AZ_HEAD HEAD "provider: azure\nserving: {instance_type: Standard_ND96isr_H100_v5}\n" \
	"catalog:\n  Standard_ND96isr_H100_v5: {usd_per_h: 98}\nfleet:\n"

/* An azure_block lasts 1-14 whole days or 3-26 whole weeks: 3 weeks (21 days) is taken; 15 days and 27
 * weeks (189 days) are refused with the rule quoted. */
START_TEST(azure_block_lengths)
{
	static const char *const rule = "expected 1 to 14 whole days, or 3 to 26 whole weeks (21, 28, ..., 182 "
					"days): \"a duration of either 1-14 whole days or 3-26 whole weeks\" (SOURCES.md "
					"[az-block-reservation])";
	struct scenario sc;

	parse(&sc, AZ_HEAD "  - {option: azure_block, start: 2026-01-01T00:00:00Z, duration: 3w, count: 4, "
	      "usd_per_h: 40}\n");
	ck_assert_int_eq(sc.fleet[0].option, OPTION_CAPACITY_BLOCK);
	ck_assert_int_eq(sc.fleet[0].variant, VARIANT_AZURE_BLOCK);
	ck_assert_int_eq(sc.fleet[0].duration_us, 21 * 86400 * S);
	ck_assert_int_eq(sc.fleet[0].count, 4);
	scenario_fini(&sc);
	refused(AZ_HEAD "  - {option: azure_block, start: 2026-01-01T00:00:00Z, duration: 15d, count: 4, "
		"usd_per_h: 40}\n", rule);
	refused(AZ_HEAD "  - {option: azure_block, start: 2026-01-01T00:00:00Z, duration: 27w, count: 4, "
		"usd_per_h: 40}\n", rule);
	refused(AZ_HEAD "  - {option: azure_block, start: 2026-01-01T00:00:00Z, duration: 27w, count: 4, "
		"usd_per_h: 40}\n", "the reservation lasts 189 days");
}
END_TEST

/* azure_block is Azure's: an aws or gcp scenario does not know it, and azure does not sell AWS's
 * capacity_block. */
START_TEST(azure_block_only_on_azure)
{
	refused(HEAD "provider: aws\nserving: {instance_type: p5.48xlarge}\nfleet:\n"
		"  - {option: azure_block, start: 2026-01-01T00:00:00Z, duration: 3d, count: 2, usd_per_h: 40}\n",
		"unknown option 'azure_block'; expected reserved, on_demand, spot, odcr, savings_plan, "
		"capacity_block or training_plan");
	refused(HEAD "provider: gcp\nserving: {instance_type: a3-highgpu-8g}\n"
		"catalog:\n  a3-highgpu-8g: {usd_per_h: 88}\nfleet:\n"
		"  - {option: azure_block, start: 2026-01-01T00:00:00Z, duration: 3d, count: 2, usd_per_h: 40}\n",
		"unknown option 'azure_block'");
	refused(AZ_HEAD "  - {option: capacity_block, start: 2026-01-01T00:00:00Z, duration: 3d, count: 2, "
		"usd_per_h: 40}\n", "capacity_block is not sold on azure (the scenario's provider); expected "
		"reserved, on_demand, spot, odcr, savings_plan or azure_block");
}
END_TEST

/*
 * A gcp preemptible VM stops 24 h after it starts: one in service at t = 0 with no drawn interruptions
 * gets its 30 s notice at 24 h - 30 s = 86,370 s and is gone by 86,400 s; it is the only interruption in a
 * 25-hour run, and a replacement is launched after it.
 */
START_TEST(gcp_preemptible_stops_after_24h)
{
	const struct capture_event *e;

	capture_run(&cap,
		    "name: pre\nseed: 1\nhorizon: 25h\nprovider: gcp\nslo: {latency_s: 100}\n"
		    "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 5}\n"
		    "serving: {instance_type: a2-ultragpu-1g, slots_per_instance: 8, startup_s: 0}\n"
		    "catalog:\n  a2-ultragpu-1g: {usd_per_h: 20}\n"
		    "fleet:\n  - {option: gcp_preemptible, count: 1, max: 1, usd_per_h: 6}\n", NULL, 0);
	e = capture_find(&cap, "interrupt", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 86370, 1e-9);
	ck_assert_ptr_null(capture_find(&cap, "interrupt", 1));
	e = capture_find(&cap, "terminate", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert(e->t_s >= 86370 && e->t_s <= 86400);
	ck_assert_ptr_nonnull(capture_find(&cap, "launch", 0));
	ck_assert_double_eq(M("spot_interruptions"), 1);
}
END_TEST

/*
 * An Azure Spot max price. One Spot Standard_NC24ads_A100_v4 in service at t = 0 with max_usd_per_h 2; its
 * price trace: $1 from 00:00, $3 from 02:00, $1.50 from 04:00; a 6-hour run with light traffic. At 2 h the
 * price passes the max: eviction notice at 7,200 s, gone 30 s later (7,230 s). Launches are refused while
 * the price is $3; the retries back off from 7,230 s by 30, 60, 120, 240, 480 s (to 8,160 s), then every
 * 600 s (the default cap): 8,760, ..., 14,160 s (refused: $3 until 14,400 s), 14,760 s (launched).
 * Bill (azure: full minutes for an instance ended early; the one at the horizon billed exactly):
 *   first VM, 0 to 7,230 s: 120 full minutes = 0 to 7,200 s at $1 = $2.00;
 *   second VM, 14,760 to 21,600 s = 1.9 h at $1.50 = $2.85;  total $4.85.
 */
START_TEST(azure_spot_max_price_evicts)
{
	const struct capture_event *e;

	capture_run(&cap,
		    "name: mx\nseed: 1\nstart: 2026-01-01T00:00:00Z\nhorizon: 6h\nprovider: azure\n"
		    "slo: {latency_s: 100}\n"
		    "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 5}\n"
		    "serving: {instance_type: Standard_NC24ads_A100_v4, slots_per_instance: 8, startup_s: 0}\n"
		    "catalog:\n  Standard_NC24ads_A100_v4: {usd_per_h: 4}\n"
		    "fleet:\n  - {option: spot, count: 1, max: 1, max_usd_per_h: 2, price_trace: "
		    TEST_DATA_DIR "/spot/azure-prices.txt}\n", NULL, 0);
	e = capture_find(&cap, "interrupt", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 7200, 1e-9);
	e = capture_find(&cap, "terminate", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 7230, 1e-9);
	e = capture_find(&cap, "launch", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 14760, 1e-9);
	ck_assert_double_eq(M("spot_interruptions"), 1);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 4.85, 0.005);
}
END_TEST

/*
 * Azure creates a Spot VM "only if the maxPrice is greater than the current Azure Spot price". The same run
 * as above with max_usd_per_h 1.5: the price passes it at 2 h (eviction notice at 7,200 s, gone at 7,230 s,
 * as before); from 4 h the price is $1.50, equal to the max: every retry is refused to the horizon, so no
 * VM launches again (with "at or below" one would launch at 14,760 s for $2.85 more). Bill: the first VM's
 * 120 full minutes at $1 = $2.00.
 */
START_TEST(azure_spot_max_price_equal_refuses_launch)
{
	const struct capture_event *e;

	capture_run(&cap,
		    "name: mx\nseed: 1\nstart: 2026-01-01T00:00:00Z\nhorizon: 6h\nprovider: azure\n"
		    "slo: {latency_s: 100}\n"
		    "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 5}\n"
		    "serving: {instance_type: Standard_NC24ads_A100_v4, slots_per_instance: 8, startup_s: 0}\n"
		    "catalog:\n  Standard_NC24ads_A100_v4: {usd_per_h: 4}\n"
		    "fleet:\n  - {option: spot, count: 1, max: 1, max_usd_per_h: 1.5, price_trace: "
		    TEST_DATA_DIR "/spot/azure-prices.txt}\n", NULL, 0);
	e = capture_find(&cap, "interrupt", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 7200, 1e-9);
	ck_assert_ptr_null(capture_find(&cap, "launch", 0));
	ck_assert_double_eq(M("spot_interruptions"), 1);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 2.00, 0.005);
}
END_TEST

/*
 * A VM already running when the price reaches its max exactly stays: Azure evicts when the price is above
 * the max, not at it. The same run with max_usd_per_h 3: at 2 h the price is $3, equal: no notice, no
 * eviction; the VM in service from t = 0 runs to the 6 h horizon (billed exactly there): 2 h x $1 + 2 h x
 * $3 + 2 h x $1.50 = $11.00, no interruption, nothing launched.
 */
START_TEST(azure_spot_max_price_equal_keeps_a_running_vm)
{
	capture_run(&cap,
		    "name: mx\nseed: 1\nstart: 2026-01-01T00:00:00Z\nhorizon: 6h\nprovider: azure\n"
		    "slo: {latency_s: 100}\n"
		    "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.01}\n  service: {kind: constant, mean_s: 5}\n"
		    "serving: {instance_type: Standard_NC24ads_A100_v4, slots_per_instance: 8, startup_s: 0}\n"
		    "catalog:\n  Standard_NC24ads_A100_v4: {usd_per_h: 4}\n"
		    "fleet:\n  - {option: spot, count: 1, max: 1, max_usd_per_h: 3, price_trace: "
		    TEST_DATA_DIR "/spot/azure-prices.txt}\n", NULL, 0);
	ck_assert_ptr_null(capture_find(&cap, "interrupt", 0));
	ck_assert_ptr_null(capture_find(&cap, "launch", 0));
	ck_assert_double_eq(M("spot_interruptions"), 0);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 11.00, 0.005);
}
END_TEST

/*
 * A gcp DWS Flex-start VM runs at most 7 days: one in service at t = 0 at $30/h is stopped at 7 x 86,400 =
 * 604,800 s (no notice) and replaced at once (startup 0) for the last day of an 8-day run.
 * Bill: 168 h x $30 = $5,040 (in service at t = 0: no minimum; whole seconds) + 24 h x $30 = $720 = $5,760.
 */
START_TEST(gcp_dws_flex_stops_after_7_days)
{
	const struct capture_event *e;

	capture_run(&cap,
		    "name: flex\nseed: 1\nhorizon: 8d\nprovider: gcp\nslo: {latency_s: 100}\n"
		    "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.001}\n  service: {kind: constant, mean_s: 5}\n"
		    "serving: {instance_type: a3-highgpu-8g, slots_per_instance: 8, startup_s: 0}\n"
		    "catalog:\n  a3-highgpu-8g: {usd_per_h: 88}\n"
		    "fleet:\n  - {option: gcp_dws_flex, count: 1, max: 1, usd_per_h: 30}\n", NULL, 0);
	e = capture_find(&cap, "interrupt", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 604800, 1e-9);
	ck_assert_str_eq(e->option, "on_demand");
	e = capture_find(&cap, "launch", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 604800, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 5760.00, 0.005);
}
END_TEST

static Suite *provider_suite(void)
{
	Suite *s = suite_create("provider");
	TCase *tc = tcase_create("bill");
	TCase *tr = tcase_create("runs");

	tcase_add_test(tc, azure_bills_full_minutes);
	tcase_add_test(tc, gcp_bills_a_minute_then_seconds);
	tcase_add_test(tc, unknown_provider_is_an_error);
	tcase_add_test(tc, options_notices_and_exclusions);
	tcase_add_test(tc, provider_defaults_to_the_serving_type);
	tcase_add_test(tc, provider_override_mismatch_names_the_override);
	tcase_add_test(tc, entry_types_of_the_scenarios_provider);
	tcase_add_test(tc, azure_block_lengths);
	tcase_add_test(tc, azure_block_only_on_azure);
	suite_add_tcase(s, tc);
	tcase_add_test(tr, azure_vm_6m45s);
	tcase_add_test(tr, gcp_vm_30s);
	tcase_add_test(tr, gcp_cud_reservation_unused_for_a_day);
	tcase_add_test(tr, azure_capacity_reservation_half_used);
	tcase_add_test(tr, gcp_spot_30s_notice_with_requests_in_flight);
	tcase_add_test(tr, gcp_spot_preempted_within_a_minute_is_free);
	tcase_add_test(tr, gcp_calendar_window_and_end);
	tcase_add_test(tr, azure_block_billed_whole_and_serves_its_window);
	tcase_add_test(tr, gcp_preemptible_stops_after_24h);
	tcase_add_test(tr, azure_spot_max_price_evicts);
	tcase_add_test(tr, azure_spot_max_price_equal_refuses_launch);
	test_add(tr, azure_spot_max_price_equal_keeps_a_running_vm);
	tcase_add_test(tr, gcp_dws_flex_stops_after_7_days);
	suite_add_tcase(s, tr);
	return s;
}

int main(void)
{
	return test_run_suite(provider_suite());
}
