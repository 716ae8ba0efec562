/*
 * check_provider_queue: Google Cloud and Azure rules that were once stood in for, on cases worked by hand:
 * the DWS Flex-start queue (option_dws.c; SOURCES.md [gcp-dws-queue]), Azure Spot's eviction policy
 * (option_spot.c; SOURCES.md [az-spot-eviction-policy]) and Google Cloud Spot prices that change at most
 * once a day (pricetrace_check_daily; SOURCES.md [gcp-spot-daily-price]).
 * Tolerance: dollars 0.005 (half a cent) for whole runs, 1e-9 for event times and waits.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "pricetrace.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"

static struct capture cap;

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/* The first event of `kind` whose option is `option` at or after t_s, or NULL. */
static const struct capture_event *find_from(const char *kind, const char *option, double t_s)
{
	for (int i = 0; i < cap.nevents; i++)
		if (strcmp(cap.events[i].kind, kind) == 0 && strcmp(cap.events[i].option, option) == 0 &&
		    cap.events[i].t_s >= t_s)
			return &cap.events[i];
	return NULL;
}

/*
 * A gcp serving fleet: one on-demand a2-ultragpu-1g ($36/h, the catalogue price given) in service from
 * t = 0, then a DWS Flex-start entry (max 1, $20/h, no startup delay) with the given ice_outages. Light
 * traffic (one 1 s request every 10 s, 10 slots) that the first VM alone serves. A scheduled action raises
 * the minimum to 2 at 00:10 (600 s): the on-demand entry is full, so the fleet asks Flex-start for a VM then.
 */
static void run_flex(const char *horizon, const char *outages)
{
	char yaml[2048];

	snprintf(yaml, sizeof yaml,
		 "name: flex\nseed: 1\nhorizon: %s\nprovider: gcp\nslo: {latency_s: 100}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: a2-ultragpu-1g, slots_per_instance: 10, startup_s: 0}\n"
		 "catalog:\n  a2-ultragpu-1g: {usd_per_h: 36}\n"
		 "fleet:\n  - {option: on_demand, count: 1, max: 1}\n"
		 "  - {option: gcp_dws_flex, max: 1, usd_per_h: 20, startup: {kind: constant, mean_s: 0}, "
		 "ice_outages: %s}\n"
		 "autoscaling:\n  policy: none\n  schedule: [{at: 2026-01-01T00:10:00Z, min: 2}]\n",
		 horizon, outages);
	capture_run(&cap, yaml, NULL, 0);
}

/*
 * A request queued through a 30-minute outage starts at its end and is billed from then. The request is
 * made at 600 s, inside the outage [600 s, 2400 s): it waits 1800 s (within the 7200 s allowed) and the VM
 * starts at 2400 s, ready at once (startup 0). Bill of a 2 h run: the on-demand VM 2 h x $36 = $72.00; the
 * Flex-start VM from 2400 s to the horizon 7200 s, 4800 s x $20/h = $26.666...; cost_on_demand_usd (both
 * are on-demand) = $98.67. No launch failure; dws_wait_mean_s = 1800.
 * (On main the launch failed at 600 s and was retried with back-off 30, 60, 120, 240, 480, 600 s: the VM
 * came at 2730 s, after 7 launch failures, and cost (7200 - 2730) / 3600 x 20 = $24.83.)
 */
START_TEST(flex_queued_through_a_30_min_outage)
{
	const struct capture_event *e;

	run_flex("2h", "[{start: 600s, end: 2400s}]");
	e = find_from("ready", "on_demand", 1);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 2400, 1e-9);
	ck_assert_double_eq(M("launch_failures"), 0);
	ck_assert_double_eq(M("dws_requests"), 1);
	ck_assert_double_eq(M("dws_requests_failed"), 0);
	ck_assert_double_eq_tol(M("dws_wait_mean_s"), 1800, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 72.0 + 4800.0 / 3600 * 20, 0.005);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 98.67, 0.005);
}
END_TEST

/*
 * A request behind a 3-hour outage fails at 2 h. Outage [600 s, 11400 s); the request at 600 s would wait
 * 10800 s > 7200 s: it fails at 600 + 7200 = 7800 s (one launch failure, logged), unbilled. The entry backs
 * off 30 s; at 7830 s the fleet asks again: capacity comes at 11400 s, a wait of 3570 s, granted. That VM
 * runs 11400 s to the 4 h horizon (14400 s): 3000 s x $20/h = $16.666...; with the on-demand VM's 4 h x $36
 * = $144: cost_on_demand_usd = $160.67. dws_requests 2, failed 1; dws_wait_mean_s = 3570 (the granted one).
 */
START_TEST(flex_behind_a_3_hour_outage_fails_at_2_hours)
{
	const struct capture_event *e;

	run_flex("4h", "[{start: 600s, end: 11400s}]");
	e = capture_find(&cap, "launch_failed", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 7800, 1e-9);
	ck_assert_double_eq(M("launch_failures"), 1);
	e = find_from("ready", "on_demand", 1);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 11400, 1e-9);
	ck_assert_double_eq(M("dws_requests"), 2);
	ck_assert_double_eq(M("dws_requests_failed"), 1);
	ck_assert_double_eq_tol(M("dws_wait_mean_s"), 3570, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 144.0 + 3000.0 / 3600 * 20, 0.005);
}
END_TEST

/*
 * A request that fails exactly at the horizon is a failed request: events at the horizon run (engine_run
 * runs those at or before it). An outage [7000 s, 7800 s) that the request at 600 s does not meet (its
 * capacity is there at once), but ice_probability 0.999999 (a draw below it fails the request: one chance
 * in a million that it does not; with seed 1 the one draw does), horizon 7800 s = 600 + 7200: the request
 * made at 600 s fails at 7800 s, the last instant of the run: 1 request, 1 failed, 1 launch failure (logged
 * at 7800 s), unbilled. Bill: the on-demand VM 7800 s x $36/h = $78.00, nothing for Flex-start.
 */
START_TEST(flex_fails_exactly_at_the_horizon)
{
	const struct capture_event *e;

	run_flex("7800s", "[{start: 7000s, end: 7800s}], ice_probability: 0.999999");
	e = capture_find(&cap, "launch_failed", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 7800, 1e-9);
	ck_assert_double_eq(M("launch_failures"), 1);
	ck_assert_double_eq(M("dws_requests"), 1);
	ck_assert_double_eq(M("dws_requests_failed"), 1);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 78.0, 0.005);
}
END_TEST

/*
 * A request whose capacity comes exactly max_wait_s (7200 s, "up to two hours") after it is granted: outage
 * [600 s, 7800 s), the request at 600 s waits 7200 s, not more than allowed, and its VM starts at 7800 s.
 * Over 3 h: the on-demand VM 3 h x $36 = $108; the Flex-start VM 7800 s to 10800 s, 3000 s x $20/h =
 * $16.67: $124.67; 1 request, none failed, dws_wait_mean_s 7200. The same with ice_probability 1e-9 (a
 * draw below 1e-9 per attempt fails it: with seed 1 the one draw is not): the same run.
 */
START_TEST(flex_waits_exactly_max_wait)
{
	const struct capture_event *e;

	for (int v = 0; v < 2; v++) {
		run_flex("3h", v ? "[{start: 600s, end: 7800s}], ice_probability: 1e-9" : "[{start: 600s, end: 7800s}]");
		e = find_from("ready", "on_demand", 1);
		ck_assert_ptr_nonnull(e);
		ck_assert_double_eq_tol(e->t_s, 7800, 1e-9);
		ck_assert_double_eq(M("launch_failures"), 0);
		ck_assert_double_eq(M("dws_requests"), 1);
		ck_assert_double_eq(M("dws_requests_failed"), 0);
		ck_assert_double_eq_tol(M("dws_wait_mean_s"), 7200, 1e-9);
		ck_assert_double_eq_tol(M("cost_on_demand_usd"), 108.0 + 3000.0 / 3600 * 20, 0.005);
	}
}
END_TEST

/*
 * The 7-day stop counts from the VM's start, not its request: queued at 600 s through [600 s, 2400 s), it
 * starts at 2400 s and is stopped at 2400 + 604,800 = 607,200 s (no notice); the fleet asks again then and,
 * with no outage, the new VM starts at once. Bill over 8 days (691,200 s): on-demand VM 192 h x $36 =
 * $6,912; Flex-start 2400 s to the horizon, 688,800 s = 191.333 h x $20 = $3,826.67 (the stop and restart
 * leave no gap and are both in whole seconds): $10,738.67.
 */
START_TEST(flex_7_day_stop_counts_from_the_start)
{
	const struct capture_event *e;

	run_flex("8d", "[{start: 600s, end: 2400s}]");
	e = capture_find(&cap, "interrupt", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 607200, 1e-9);
	ck_assert_double_eq(M("dws_requests"), 2);
	ck_assert_double_eq_tol(M("dws_wait_mean_s"), 900, 1e-9);  /* (1800 + 0) / 2 */
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 6912.0 + 688800.0 / 3600 * 20, 0.005);
}
END_TEST

/*
 * Capacity comes when every window is over: the Flex-start entry is in zone z1, out [300 s, 1000 s) and
 * [1000 s, 1200 s), and its own ice_outages are [1200 s, 1800 s). The request at 600 s waits through all
 * three: its VM starts at 1800 s (a wait of 1200 s). The zone's second outage begins at 1000 s while the
 * request waits and leaves it alone (no cancel, no interrupt, no launch failure). Bill of 1 h: on-demand VM
 * (no zone) 1 h x $36 + Flex-start 1800 s x $20/h = $10: $46.00.
 */
START_TEST(flex_waits_through_zone_and_entry_outages)
{
	const struct capture_event *e;

	capture_run(&cap,
		    "name: flexz\nseed: 1\nhorizon: 1h\nprovider: gcp\nslo: {latency_s: 100}\n"
		    "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		    "serving: {instance_type: a2-ultragpu-1g, slots_per_instance: 10, startup_s: 0}\n"
		    "catalog:\n  a2-ultragpu-1g: {usd_per_h: 36}\n"
		    "zones:\n  - {name: z1, outages: [{start: 300s, end: 1000s}, {start: 1000s, end: 1200s}]}\n"
		    "fleet:\n  - {option: on_demand, count: 1, max: 1}\n"
		    "  - {option: gcp_dws_flex, max: 1, zone: z1, usd_per_h: 20, startup: {kind: constant, mean_s: 0}, "
		    "ice_outages: [{start: 1200s, end: 1800s}]}\n"
		    "autoscaling:\n  policy: none\n  schedule: [{at: 2026-01-01T00:10:00Z, min: 2}]\n", NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "zone_outage"), 2);
	e = find_from("ready", "on_demand", 1);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 1800, 1e-9);
	ck_assert_int_eq(capture_count(&cap, "cancel") + capture_count(&cap, "interrupt"), 0);
	ck_assert_double_eq(M("launch_failures"), 0);
	ck_assert_double_eq_tol(M("dws_wait_mean_s"), 1200, 1e-9);
	ck_assert_double_eq_tol(M("cost_on_demand_usd"), 46.00, 0.005);
}
END_TEST

/*
 * An Azure Spot VM ($1/h fixed, Standard_NC24ads_A100_v4) in service from t = 0 is evicted: the availability
 * trace (600 s steps: 2, 0, 1) empties the pool at 600 s, the 30 s notice ends at 630 s. The account's
 * Spot quota is 1 instance (quotas.spot_instances: 1). Run of 1 h (3600 s).
 * - deallocate (the default), disk_usd_per_h 0.5: the evicted VM stays stopped to the horizon and still
 *   counts against the quota, so no replacement can launch even when the trace has capacity again at 1200 s
 *   (every attempt refused by the quota). Bill: the VM ran 630 s, billed 10 full minutes = 600/3600 x $1 =
 *   $0.1667; its disks 3600 - 630 = 2970 s x $0.5/h = $0.4125; cost_spot_usd = $0.5792, spot_disk_usd =
 *   $0.4125, spot_deallocated 1, no VM ready after t = 0.
 * - delete: nothing remains and the quota is free. The trace repeats every 1800 s. Launches are refused
 *   by the trace at 630, 660, 720, 840 and 1080 s (back-off 30, 60, 120, 240, 480 s); the replacement
 *   launches at 1080 + 480 = 1560 s, is evicted at 2400 s (gone 2430 s), and the next comes at 3360 s
 *   (after the same back-offs from 2430 s). Bill, whole minutes: 630 s -> 600 s = $0.1667; 1560-2430 s =
 *   870 s -> 840 s = $0.2333; 3360 s to the horizon, billed exactly, 240 s = $0.0667; $0.4667 in all, no
 *   disk cost.
 */
static void run_evict(const char *policy)
{
	char yaml[2048];

	snprintf(yaml, sizeof yaml,
		 "name: ev\nseed: 1\nhorizon: 1h\nprovider: azure\nslo: {latency_s: 100}\n"
		 "workload:\n  arrivals: {kind: uniform, rate_per_s: 0.1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: Standard_NC24ads_A100_v4, slots_per_instance: 8, startup_s: 0}\n"
		 "catalog:\n  Standard_NC24ads_A100_v4: {usd_per_h: 4}\n"
		 "quotas: {spot_instances: 1}\n"
		 "fleet:\n  - {option: spot, count: 1, max: 1, usd_per_h: 1, %s, availability_trace: "
		 TEST_DATA_DIR "/spot/avail.json}\n", policy);
	capture_run(&cap, yaml, NULL, 0);
}

START_TEST(azure_spot_deallocated_keeps_quota_and_disks)
{
	const struct capture_event *e;

	run_evict("disk_usd_per_h: 0.5");
	e = capture_find(&cap, "terminate", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 630, 1e-9);
	ck_assert_double_eq(M("spot_deallocated"), 1);
	ck_assert_double_eq_tol(M("spot_disk_usd"), 2970.0 / 3600 * 0.5, 1e-9);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 600.0 / 3600 + 2970.0 / 3600 * 0.5, 0.005);
	ck_assert_int_eq(capture_count(&cap, "ready"), 0);
	/* the trace has room from 1200 s: a refusal then is the quota's */
	ck_assert_ptr_nonnull(find_from("launch_failed", "spot", 1200));
}
END_TEST

START_TEST(azure_spot_deleted_leaves_nothing)
{
	const struct capture_event *e;

	run_evict("eviction_policy: delete");
	ck_assert_double_eq(M("spot_deallocated"), 0);
	ck_assert_double_eq_tol(M("spot_disk_usd"), 0, 1e-12);
	e = find_from("launch", "spot", 1200);
	ck_assert_ptr_nonnull(e);
	ck_assert_double_eq_tol(e->t_s, 1560, 1e-9);
	ck_assert_int_eq(capture_count(&cap, "ready"), 2);
	ck_assert_double_eq_tol(M("cost_spot_usd"), (600.0 + 840.0 + 240.0) / 3600, 0.005);
}
END_TEST

/* Parse text, expecting failure; the message must contain `words`. */
static void refused(const char *text, const char *words)
{
	struct scenario sc;
	struct diag d;
	int rc = scenario_parse_string(&sc, text, "t.yaml", NULL, 0, &d);

	ck_assert_int_eq(rc, STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, words) != NULL, "message: %s", d.msg);
}

#define HEAD "name: p\nhorizon: 1h\nslo: {latency_s: 5}\n" \
	"workload:\n  arrivals: {kind: poisson, rate_per_s: 1}\n  service: {kind: exponential, mean_s: 1}\n"

/* The new keys where they do not belong, with their file:line:col. */
START_TEST(misplaced_keys_are_refused)
{
	refused(HEAD "serving: {instance_type: g5.xlarge}\n"
		"fleet:\n  - {option: spot, count: 1, eviction_policy: delete}\n",
		"t.yaml:9:47: fleet.0.eviction_policy: eviction_policy is an Azure Spot setting");
	refused(HEAD "provider: azure\nserving: {instance_type: Standard_NC24ads_A100_v4}\n"
		"catalog:\n  Standard_NC24ads_A100_v4: {usd_per_h: 4}\n"
		"fleet:\n  - {option: spot, count: 1, eviction_policy: delete, disk_usd_per_h: 1}\n",
		"disk_usd_per_h with eviction_policy: delete");
	refused(HEAD "provider: gcp\nserving: {instance_type: a2-ultragpu-1g}\ncatalog:\n  a2-ultragpu-1g: {usd_per_h: 36}\n"
		"fleet:\n  - {option: on_demand, count: 1, max_wait_s: 60}\n",
		"max_wait_s is the queue wait of DWS Flex-start");
	refused(HEAD "provider: gcp\nserving: {instance_type: a2-ultragpu-1g}\ncatalog:\n  a2-ultragpu-1g: {usd_per_h: 36}\n"
		"fleet:\n  - {option: gcp_dws_flex, count: 1, usd_per_h: 20, max_wait_s: 3h}\n",
		"<= 2h");
}
END_TEST

/*
 * Once a day (UTC calendar days), built by hand: prices 30 (day 1, 00:00), 32 (day 2, 00:00: the day's one
 * change), 32 (day 2, 06:00: no change), 28 (day 3, 00:00: day 3's change) is accepted; the file of
 * tests/data/bad/traces/gcp_twice_a_day.txt changes twice on day 2 (30 -> 32 at 00:00, 32 -> 28 at 23:59:59)
 * and is refused at its line 4.
 */
START_TEST(gcp_spot_price_changes_once_a_day)
{
	int64_t day = 86400 * INT64_C(1000000), t0 = INT64_C(1767225600000000);  /* 2026-01-01T00:00:00Z */
	int64_t at[4] = { t0, t0 + day, t0 + day + 6 * 3600 * INT64_C(1000000), t0 + 2 * day };
	double usd[4] = { 30, 32, 32, 28 };
	int line[4] = { 1, 2, 3, 4 };
	struct pricetrace pt = { at, usd, line, 4 };
	struct pricetrace bad;
	struct diag d;

	ck_assert_int_eq(pricetrace_check_daily(&pt, "ok.txt", &d), STATUS_OK);
	at[3] = t0 + 2 * day - 1;  /* 23:59:59.999999 of day 2: a second change that day */
	ck_assert_int_eq(pricetrace_check_daily(&pt, "ok.txt", &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "ok.txt:4:") != NULL, "message: %s", d.msg);
	ck_assert_int_eq(pricetrace_load(&bad, TEST_DATA_DIR "/bad/traces/gcp_twice_a_day.txt", "bad.txt",
					 "a3-highgpu-8g", NULL, &d), STATUS_OK);
	ck_assert_int_eq(pricetrace_check_daily(&bad, "bad.txt", &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "bad.txt:4:") != NULL, "message: %s", d.msg);
	pricetrace_fini(&bad);
}
END_TEST

static Suite *provider_queue_suite(void)
{
	Suite *s = suite_create("provider_queue");
	TCase *tr = tcase_create("runs");
	TCase *tl = tcase_create("load");

	test_add(tr, flex_queued_through_a_30_min_outage);
	test_add(tr, flex_behind_a_3_hour_outage_fails_at_2_hours);
	test_add(tr, flex_fails_exactly_at_the_horizon);
	test_add(tr, flex_waits_exactly_max_wait);
	test_add(tr, flex_7_day_stop_counts_from_the_start);
	test_add(tr, flex_waits_through_zone_and_entry_outages);
	test_add(tr, azure_spot_deallocated_keeps_quota_and_disks);
	test_add(tr, azure_spot_deleted_leaves_nothing);
	suite_add_tcase(s, tr);
	test_add(tl, misplaced_keys_are_refused);
	test_add(tl, gcp_spot_price_changes_once_a_day);
	suite_add_tcase(s, tl);
	return s;
}

int main(void)
{
	return test_run_suite(provider_queue_suite());
}
