/*
 * check_scenario: loading and validating scenarios (models/scenario.h).
 *
 * A full scenario must give exact struct values, defaults and catalogue prices included; each form of
 * --set override must edit the document (scalar, list index, added key, created mapping, dotted catalogue
 * key) and errors about overridden values must name the override. Every file in tests/data/bad/ must fail
 * with STATUS_EINPUT and a message that contains its path and the text after "# expect: " on its first
 * line (a "LINE:COL: " prefix there means the message must carry that position); a first line
 * "# expect-anywhere: TEXT" is for an error inside a trace the file names, whose message starts with the
 * trace: the load must fail as a user error (STATUS_EINPUT, or STATUS_ENOENT for a missing trace) with
 * TEXT somewhere in the message. Each purchase option's prices are checked against values worked out by
 * hand in comments. Floating-point values are compared with a tolerance of 1e-9 (they are parsed, or a few
 * operations away from parsed, and none is above 1e6).
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scenario.h"
#include "status.h"
#include "testutil.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data (the CMake build defines it)"
#endif

#define TOL 1e-9
#define S_US INT64_C(1000000)
#define BAD_MAX 256

static const char *const full_yaml =
	"name: chat-serving\n"
	"seed: 42\n"
	"start: 2026-12-01T00:00:00Z\n"
	"horizon: 7d\n"
	"sample_period: 30s\n"
	"slo: {latency_s: 2.5}\n"
	"workload:\n"
	"  arrivals: {kind: poisson, rate_per_s: 40}\n"
	"  service: {kind: lognormal, mean_s: 1.2, cv: 0.5}\n"
	"serving:\n"
	"  instance_type: p5.48xlarge\n"
	"  slots_per_instance: 8\n"
	"  queue_timeout_s: 30\n"
	"  startup_s: 7m\n"
	"  max_queue: 5000\n"
	"fleet:\n"
	"  - {option: reserved, count: 4}\n"
	"  - {option: on_demand, max: 16, usd_per_h: 60}\n"
	"autoscaling:\n"
	"  policy: target_tracking\n"
	"  metric: concurrency_per_instance\n"
	"  target: 0.7\n"
	"  min: 4\n"
	"  max: 20\n"
	"  resolution_s: 30\n"
	"  scale_out_cooldown_s: 2m\n"
	"  scale_in_cooldown_s: 600\n"
	"  scale_in_margin: 0.2\n"
	"catalog:\n"
	"  p5.48xlarge: {usd_per_h: 50.0}\n"
	"  my-l4-box: {gpus: 1, usd_per_h: 0.9}\n";

/* The smallest valid scenario, for tests that override parts of it. */
static const char *const small_yaml =
	"name: small\n"
	"horizon: 1d\n"
	"slo: {latency_s: 2}\n"
	"workload:\n"
	"  arrivals: {kind: poisson, rate_per_s: 10}\n"
	"  service: {kind: exponential, mean_s: 1}\n"
	"serving:\n"
	"  instance_type: g5.xlarge\n"
	"fleet:\n"
	"  - {option: reserved, count: 2}\n"
	"  - {option: on_demand, count: 1, max: 6}\n";

/* Parse text with the given overrides, asserting success. */
static void parse_ok(struct scenario *sc, const char *text, const char *const *sets, int nsets)
{
	struct diag d;
	int rc = scenario_parse_string(sc, text, "t.yaml", sets, nsets, &d);

	ck_assert_msg(rc == STATUS_OK, "rc %d: %s", rc, d.msg);
}

/* Parse text with overrides, asserting STATUS_EINPUT and the exact message. */
static void parse_fails(const char *text, const char *const *sets, int nsets, const char *msg)
{
	struct scenario sc;
	struct diag d;
	int rc = scenario_parse_string(&sc, text, "t.yaml", sets, nsets, &d);

	ck_assert_int_eq(rc, STATUS_EINPUT);
	ck_assert_str_eq(d.msg, msg);
	ck_assert_ptr_null(sc.text);  /* a failed load leaves the struct zeroed */
	ck_assert_int_eq(sc.nfleet, 0);
	scenario_fini(&sc);
}

START_TEST(full_scenario_values)
{
	struct scenario sc;

	parse_ok(&sc, full_yaml, NULL, 0);
	ck_assert_str_eq(sc.name, "chat-serving");
	ck_assert_uint_eq(sc.seed, 42);
	ck_assert_int_eq(sc.start_unix_s, INT64_C(1796083200));
	ck_assert_int_eq(sc.horizon_us, 7 * 86400 * S_US);
	ck_assert_int_eq(sc.sample_period_us, 30 * S_US);
	ck_assert_int_eq(sc.slo.latency_us, 2500000);
	ck_assert_int_eq(sc.arrivals.kind, ARRIVAL_POISSON);
	ck_assert_double_eq_tol(sc.arrivals.rate_per_s, 40, TOL);
	ck_assert_int_eq(sc.service.kind, SERVICE_LOGNORMAL);
	ck_assert_double_eq_tol(sc.service.mean_s, 1.2, TOL);
	ck_assert_double_eq_tol(sc.service.cv, 0.5, TOL);
	ck_assert_str_eq(sc.serving.instance_type, "p5.48xlarge");
	ck_assert_int_eq(sc.serving.gpus, 8);
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, 50.0, TOL);          /* the scenario's catalog: */
	ck_assert_double_eq_tol(sc.serving.reserved_usd_per_h, 32.5, TOL);    /* 50 x (1 - 0.35) */
	ck_assert_int_eq(sc.serving.slots, 8);
	ck_assert_int_eq(sc.serving.queue_timeout_us, 30 * S_US);
	ck_assert_int_eq(sc.serving.startup_us, 420 * S_US);
	ck_assert_int_eq(sc.serving.max_queue, 5000);
	ck_assert_int_eq(sc.nfleet, 2);
	ck_assert_int_eq(sc.fleet[0].option, OPTION_RESERVED);
	ck_assert_int_eq(sc.fleet[0].count, 4);
	ck_assert_int_eq(sc.fleet[0].max, 4);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 32.5, TOL);
	ck_assert(!sc.fleet[0].price_given);
	ck_assert_int_eq(sc.fleet[1].option, OPTION_ON_DEMAND);
	ck_assert_int_eq(sc.fleet[1].count, 0);
	ck_assert_int_eq(sc.fleet[1].max, 16);
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 60, TOL);
	ck_assert(sc.fleet[1].price_given);
	ck_assert_int_eq(sc.autoscaling.policy, POLICY_TARGET_TRACKING);
	ck_assert_int_eq(sc.autoscaling.metric, METRIC_CONCURRENCY);
	ck_assert_double_eq_tol(sc.autoscaling.target, 0.7, TOL);
	ck_assert_int_eq(sc.autoscaling.min, 4);
	ck_assert_int_eq(sc.autoscaling.max, 20);
	ck_assert_int_eq(sc.autoscaling.resolution_us, 30 * S_US);
	ck_assert_int_eq(sc.autoscaling.scale_out_cooldown_us, 120 * S_US);
	ck_assert_int_eq(sc.autoscaling.scale_in_cooldown_us, 600 * S_US);
	ck_assert_double_eq_tol(sc.autoscaling.scale_in_margin, 0.2, TOL);
	ck_assert_ptr_null(sc.path);
	ck_assert_str_eq(sc.text, full_yaml);
	ck_assert_str_eq(sc.overrides, "");
	scenario_fini(&sc);
	ck_assert_ptr_null(sc.text);
}
END_TEST

START_TEST(minimal_file_takes_defaults)
{
	const char *path = TEST_DATA_DIR "/good/minimal.yaml";
	struct scenario sc;
	struct diag d;

	ck_assert_msg(scenario_load(&sc, path, NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_str_eq(sc.name, "minimal");
	ck_assert_uint_eq(sc.seed, 1);
	ck_assert_int_eq(sc.start_unix_s, INT64_C(1767225600));  /* 2026-01-01T00:00:00Z */
	ck_assert_int_eq(sc.horizon_us, 86400 * S_US);
	ck_assert_int_eq(sc.sample_period_us, 60 * S_US);
	ck_assert_int_eq(sc.service.kind, SERVICE_EXPONENTIAL);
	ck_assert_double_eq_tol(sc.service.cv, 1.0, TOL);
	ck_assert_int_eq(sc.serving.gpus, 1);
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, 1.006, TOL);          /* catalogue g5.xlarge */
	ck_assert_double_eq_tol(sc.serving.reserved_usd_per_h, 1.006 * 0.7, TOL);
	ck_assert_int_eq(sc.serving.slots, 1);
	ck_assert_int_eq(sc.serving.queue_timeout_us, 0);
	ck_assert_int_eq(sc.serving.startup_us, 420 * S_US);
	ck_assert_int_eq(sc.serving.max_queue, 1000000);
	ck_assert_int_eq(sc.nfleet, 1);
	ck_assert_int_eq(sc.fleet[0].max, 2);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 1.006 * 0.7, TOL);
	ck_assert(!sc.fleet[0].price_given);
	ck_assert_int_eq(sc.autoscaling.policy, POLICY_NONE);
	ck_assert_int_eq(sc.autoscaling.metric, METRIC_CONCURRENCY);
	ck_assert_int_eq(sc.autoscaling.min, 2);
	ck_assert_int_eq(sc.autoscaling.max, 2);
	ck_assert_int_eq(sc.autoscaling.resolution_us, 60 * S_US);
	ck_assert_int_eq(sc.autoscaling.scale_out_cooldown_us, 300 * S_US);
	ck_assert_int_eq(sc.autoscaling.scale_in_cooldown_us, 300 * S_US);
	ck_assert_double_eq_tol(sc.autoscaling.scale_in_margin, 0.10, TOL);
	ck_assert_int_eq(sc.serving.on_interrupt, INTERRUPT_REQUEUE);
	ck_assert_int_eq(sc.serving.vcpus, 4);                                   /* catalogue g5.xlarge */
	ck_assert_int_eq(sc.serving.family, 'g');
	ck_assert_double_eq_tol(sc.serving.spot_discount, 0.60, TOL);
	ck_assert_double_eq_tol(sc.serving.reserved_3y_discount, 0.50, TOL);
	ck_assert_double_eq_tol(sc.serving.savings_plan_discount, 0.30, TOL);
	ck_assert_double_eq_tol(sc.serving.capacity_block_usd_per_h, 0, TOL);
	ck_assert_int_eq(sc.quotas.on_demand_vcpus, -1);
	ck_assert_int_eq(sc.quotas.on_demand_instances, -1);
	ck_assert_int_eq(sc.quotas.spot_vcpus, -1);
	ck_assert_int_eq(sc.quotas.spot_instances, -1);
	ck_assert_int_eq(sc.launch_retry.backoff_us, 30 * S_US);
	ck_assert_int_eq(sc.launch_retry.max_backoff_us, 600 * S_US);
	ck_assert_double_eq_tol(sc.launch_retry.multiplier, 2, TOL);
	ck_assert(!sc.allocation.mixed);
	ck_assert_int_eq(sc.allocation.on_demand_base, 0);
	ck_assert_double_eq_tol(sc.allocation.on_demand_pct, 100, TOL);
	ck_assert(sc.allocation.spot_fallback);
	ck_assert_int_eq(sc.fleet[0].term, TERM_NONE);
	ck_assert_double_eq_tol(sc.fleet[0].upfront_usd, 0, TOL);
	ck_assert_str_eq(sc.warnings, "");
	ck_assert_str_eq(sc.path, path);
	ck_assert_ptr_nonnull(strstr(sc.text, "name: minimal\n"));
	ck_assert_str_eq(sc.overrides, "");
	scenario_fini(&sc);
}
END_TEST

START_TEST(new_catalog_type_has_no_reserved_discount)
{
	const char *sets[] = { "serving.instance_type=my-l4-box" };
	struct scenario sc;

	parse_ok(&sc, full_yaml, sets, 1);
	ck_assert_int_eq(sc.serving.gpus, 1);
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, 0.9, TOL);
	ck_assert_double_eq_tol(sc.serving.reserved_usd_per_h, 0.9, TOL);
	scenario_fini(&sc);
}
END_TEST

START_TEST(target_tracking_defaults_come_from_the_fleet)
{
	const char *sets[] = { "autoscaling.policy=target_tracking", "autoscaling.target=0.5" };
	struct scenario sc;

	parse_ok(&sc, small_yaml, sets, 2);
	ck_assert_int_eq(sc.autoscaling.min, 2);  /* the reserved count */
	ck_assert_int_eq(sc.autoscaling.max, 8);  /* 2 reserved + on_demand max 6 */
	ck_assert_double_eq_tol(sc.autoscaling.target, 0.5, TOL);
	scenario_fini(&sc);
}
END_TEST

START_TEST(on_demand_max_defaults_to_autoscaling_max)
{
	const char *sets[] = { "autoscaling.policy=target_tracking", "autoscaling.target=0.5",
			       "autoscaling.max=12" };
	const char *text = "name: x\nhorizon: 1d\nslo: {latency_s: 2}\n"
			   "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
			   "serving: {instance_type: g5.xlarge}\n"
			   "fleet: [{option: reserved, count: 2}, {option: on_demand}]\n";
	struct scenario sc;

	parse_ok(&sc, text, sets, 3);
	ck_assert_int_eq(sc.fleet[1].max, 12);
	ck_assert_int_eq(sc.fleet[1].count, 0);
	scenario_fini(&sc);
	/* policy none: an on_demand entry without max holds its count */
	parse_ok(&sc, text, NULL, 0);
	ck_assert_int_eq(sc.fleet[1].max, 0);
	scenario_fini(&sc);
}
END_TEST

START_TEST(numbers_may_be_quoted_and_durations_plain)
{
	const char *sets[] = { "workload.arrivals.rate_per_s=2.5e1", "slo.latency_s=0.25",
			       "serving.queue_timeout_s=1.5m" };
	struct scenario sc;

	parse_ok(&sc, small_yaml, sets, 3);
	ck_assert_double_eq_tol(sc.arrivals.rate_per_s, 25, TOL);
	ck_assert_int_eq(sc.slo.latency_us, 250000);
	ck_assert_int_eq(sc.serving.queue_timeout_us, 90 * S_US);
	scenario_fini(&sc);
}
END_TEST

START_TEST(rate_steps_and_uniform_arrivals)
{
	const char *sets[] = { "workload.arrivals.kind=uniform",
			       "workload.arrivals.steps.0.at=2h", "workload.arrivals.steps.0.rate_per_s=40",
			       "workload.arrivals.steps.1.at=90000", "workload.arrivals.steps.1.rate_per_s=0" };
	const char *text =
		"name: s\nhorizon: 2d\nslo: {latency_s: 2}\nworkload:\n  arrivals: {kind: poisson, rate_per_s: 10,"
		" steps: [{at: 1h, rate_per_s: 20}, {at: 1d, rate_per_s: 5}]}\n"
		"  service: {kind: constant, mean_s: 1}\nserving: {instance_type: g5.xlarge}\n"
		"fleet:\n  - {option: reserved, count: 2}\n";
	struct scenario sc;

	parse_ok(&sc, text, NULL, 0);
	ck_assert_int_eq(sc.arrivals.kind, ARRIVAL_POISSON);
	ck_assert_int_eq(sc.arrivals.nsteps, 2);
	ck_assert_int_eq(sc.arrivals.steps[0].at_us, 3600 * S_US);
	ck_assert_double_eq_tol(sc.arrivals.steps[0].rate_per_s, 20, TOL);
	ck_assert_int_eq(sc.arrivals.steps[1].at_us, 86400 * S_US);
	scenario_fini(&sc);
	parse_ok(&sc, text, sets, 5);
	ck_assert_int_eq(sc.arrivals.kind, ARRIVAL_UNIFORM);
	ck_assert_int_eq(sc.arrivals.steps[0].at_us, 7200 * S_US);
	ck_assert_double_eq_tol(sc.arrivals.steps[0].rate_per_s, 40, TOL);
	ck_assert_int_eq(sc.arrivals.steps[1].at_us, 90000 * S_US);
	ck_assert_double_eq_tol(sc.arrivals.steps[1].rate_per_s, 0, TOL);
	scenario_fini(&sc);
}
END_TEST

START_TEST(override_scalar)
{
	const char *sets[] = { "serving.instance_type=p5.48xlarge", "name=renamed" };
	struct scenario sc;

	parse_ok(&sc, small_yaml, sets, 2);
	ck_assert_str_eq(sc.serving.instance_type, "p5.48xlarge");
	ck_assert_int_eq(sc.serving.gpus, 8);
	ck_assert_str_eq(sc.name, "renamed");
	ck_assert_str_eq(sc.overrides, "serving.instance_type=p5.48xlarge\nname=renamed");
	ck_assert_str_eq(sc.text, small_yaml);  /* the file text as read, not as overridden */
	scenario_fini(&sc);
}
END_TEST

START_TEST(override_list_index)
{
	const char *sets[] = { "fleet.0.count=7", "fleet.1.usd_per_h=3.25" };
	struct scenario sc;

	parse_ok(&sc, small_yaml, sets, 2);
	ck_assert_int_eq(sc.fleet[0].count, 7);
	ck_assert_int_eq(sc.fleet[0].max, 7);
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 3.25, TOL);
	ck_assert(sc.fleet[1].price_given);
	scenario_fini(&sc);
}
END_TEST

START_TEST(override_added_key)
{
	const char *sets[] = { "serving.max_queue=10", "seed=9" };
	struct scenario sc;

	parse_ok(&sc, small_yaml, sets, 2);
	ck_assert_int_eq(sc.serving.max_queue, 10);
	ck_assert_uint_eq(sc.seed, 9);
	scenario_fini(&sc);
}
END_TEST

START_TEST(override_created_mapping)
{
	const char *sets[] = { "autoscaling.policy=target_tracking", "autoscaling.target=0.6",
			       "autoscaling.scale_in_margin=0" };
	struct scenario sc;

	parse_ok(&sc, small_yaml, sets, 3);
	ck_assert_int_eq(sc.autoscaling.policy, POLICY_TARGET_TRACKING);
	ck_assert_double_eq_tol(sc.autoscaling.target, 0.6, TOL);
	ck_assert_double_eq_tol(sc.autoscaling.scale_in_margin, 0, TOL);
	scenario_fini(&sc);
}
END_TEST

START_TEST(override_dotted_catalog_key)
{
	const char *existing[] = { "catalog.p5.48xlarge.usd_per_h=40" };
	const char *created[] = { "catalog.g5.xlarge.usd_per_h=2", "catalog.g5.xlarge.reserved_discount=0.5" };
	struct scenario sc;

	parse_ok(&sc, full_yaml, existing, 1);  /* the key exists in the file */
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, 40, TOL);
	ck_assert_double_eq_tol(sc.serving.reserved_usd_per_h, 26, TOL);
	scenario_fini(&sc);
	parse_ok(&sc, small_yaml, created, 2);  /* catalog: and the dotted key are both created */
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, 2, TOL);
	ck_assert_double_eq_tol(sc.serving.reserved_usd_per_h, 1, TOL);
	ck_assert_int_eq(sc.serving.gpus, 1);
	scenario_fini(&sc);
}
END_TEST

START_TEST(override_bad_value_names_the_override)
{
	const char *sets[] = { "serving.slots_per_instance=0" };

	parse_fails(small_yaml, sets, 1, "--set serving.slots_per_instance=0: serving.slots_per_instance: "
		    "expected an integer from 1 to 4096, got '0'");
}
END_TEST

START_TEST(override_unknown_key_names_the_override)
{
	const char *sets[] = { "serving.slots=4" };

	parse_fails(small_yaml, sets, 1, "--set serving.slots=4: serving: unknown key 'slots'; expected one "
		    "of: instance_type, slots_per_instance, queue_timeout_s, startup_s, max_queue, on_interrupt");
}
END_TEST

START_TEST(override_created_mapping_missing_key)
{
	const char *sets[] = { "autoscaling.policy=target_tracking" };

	parse_fails(small_yaml, sets, 1, "--set autoscaling.policy=target_tracking: autoscaling: missing "
		    "required key 'target' (the metric value to hold, such as 0.7)");
}
END_TEST

START_TEST(override_syntax_errors)
{
	const char *noeq[] = { "serving.slots_per_instance" };
	const char *nopath[] = { "=4" };
	const char *emptypart[] = { "serving..slots_per_instance=4" };

	parse_fails(small_yaml, noeq, 1, "--set serving.slots_per_instance: expected KEY.PATH=VALUE");
	parse_fails(small_yaml, nopath, 1, "--set =4: expected KEY.PATH=VALUE");
	parse_fails(small_yaml, emptypart, 1, "--set serving..slots_per_instance=4: expected KEY.PATH=VALUE");
}
END_TEST

START_TEST(override_target_not_scalar)
{
	const char *map[] = { "slo=3" };
	const char *item[] = { "fleet.0=3" };
	const char *list[] = { "fleet=3" };

	parse_fails(small_yaml, map, 1, "--set slo=3: slo: is not a scalar (it is a mapping); expected "
		    "KEY.PATH of a single value");
	parse_fails(small_yaml, item, 1, "--set fleet.0=3: fleet.0: is not a scalar (it is a list entry); "
		    "expected KEY.PATH of a single value");
	parse_fails(small_yaml, list, 1, "--set fleet=3: fleet: is not a scalar (it is a list); expected "
		    "KEY.PATH of a single value");
}
END_TEST

START_TEST(override_index_out_of_range)
{
	const char *sets[] = { "fleet.2.count=1" };
	const char *word[] = { "fleet.first.count=1" };

	parse_fails(small_yaml, sets, 1, "--set fleet.2.count=1: fleet.2: no such entry; expected an index "
		    "from 0 to 1");
	parse_fails(small_yaml, word, 1, "--set fleet.first.count=1: fleet.first: no such entry; expected an "
		    "index from 0 to 1");
}
END_TEST

START_TEST(override_through_a_scalar)
{
	const char *sets[] = { "name.first=x" };

	parse_fails(small_yaml, sets, 1, "--set name.first=x: name: is a single value, not a mapping or a "
		    "list");
}
END_TEST

START_TEST(override_empty_value)
{
	const char *sets[] = { "name=" };

	parse_fails(small_yaml, sets, 1, "--set name=: name: expected a non-empty string of at most 127 "
		    "bytes, got nothing");
}
END_TEST

START_TEST(label_names_the_text)
{
	struct scenario sc;
	struct diag d;

	ck_assert_int_eq(scenario_parse_string(&sc, "name: [", "inline", NULL, 0, &d), STATUS_EINPUT);
	ck_assert_ptr_nonnull(strstr(d.msg, "inline:"));
	ck_assert_ptr_nonnull(strstr(d.msg, "invalid YAML: "));
}
END_TEST

START_TEST(missing_file_is_enoent)
{
	const char *path = TEST_DATA_DIR "/no/such/scenario.yaml";
	struct scenario sc;
	struct diag d;

	ck_assert_int_eq(scenario_load(&sc, path, NULL, 0, &d), STATUS_ENOENT);
	ck_assert_ptr_nonnull(strstr(d.msg, path));
	ck_assert_ptr_nonnull(strstr(d.msg, "cannot open"));
	ck_assert_ptr_null(sc.path);
	scenario_fini(&sc);
}
END_TEST

START_TEST(directory_is_enoent)
{
	struct scenario sc;
	struct diag d;

	ck_assert_int_eq(scenario_load(&sc, TEST_DATA_DIR, NULL, 0, &d), STATUS_ENOENT);
	ck_assert_ptr_nonnull(strstr(d.msg, TEST_DATA_DIR ": cannot read"));
}
END_TEST

START_TEST(huge_file_is_refused)
{
	char *path = test_write_file("huge.yaml", "name: x\n");
	struct scenario sc;
	struct diag d;

	ck_assert_ptr_nonnull(path);
	ck_assert_int_eq(truncate(path, 17 << 20), 0);  /* sparse: reads as NUL bytes, costs no disk */
	ck_assert_int_eq(scenario_load(&sc, path, NULL, 0, &d), STATUS_EINPUT);
	ck_assert_ptr_nonnull(strstr(d.msg, "larger than 16 MiB; expected a scenario file"));
	ck_assert_ptr_nonnull(strstr(d.msg, path));
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	free(path);
}
END_TEST

START_TEST(empty_file)
{
	const char *path = TEST_DATA_DIR "/bad_empty/empty.yaml";
	char want[512];
	struct scenario sc;
	struct diag d;

	snprintf(want, sizeof want, "%s: empty file; expected a YAML mapping with at least name, horizon, slo, "
		 "workload, serving, fleet", path);
	ck_assert_int_eq(scenario_load(&sc, path, NULL, 0, &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, want);
}
END_TEST

START_TEST(libfyaml_prints_nothing)
{
	char *path = test_write_file("stderr.txt", "");
	int saved = dup(2), fd;
	struct scenario sc;
	struct diag d;
	struct stat st;

	ck_assert_ptr_nonnull(path);
	fd = open(path, O_WRONLY | O_TRUNC);
	ck_assert_int_ge(fd, 0);
	fflush(stderr);
	dup2(fd, 2);
	ck_assert_int_eq(scenario_parse_string(&sc, "a: [1, 2\nb: {\n", "x.yaml", NULL, 0, &d), STATUS_EINPUT);
	ck_assert_int_eq(scenario_parse_string(&sc, "a: 1\na: 2\n", "x.yaml", NULL, 0, &d), STATUS_EINPUT);
	ck_assert_int_eq(scenario_parse_string(&sc, "", "x.yaml", NULL, 0, &d), STATUS_EINPUT);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_size, 0);
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	free(path);
}
END_TEST

START_TEST(enum_names)
{
	ck_assert_str_eq(scenario_service_name(SERVICE_CONSTANT), "constant");
	ck_assert_str_eq(scenario_service_name(SERVICE_LOGNORMAL), "lognormal");
	ck_assert_str_eq(scenario_service_name(SERVICE_TOKENS), "tokens");
	ck_assert_str_eq(scenario_service_name(SERVICE_TRACE), "trace");
	ck_assert_str_eq(scenario_policy_name(POLICY_TARGET_TRACKING), "target_tracking");
	ck_assert_str_eq(scenario_metric_name(METRIC_INVOCATIONS), "invocations_per_instance");
	ck_assert_str_eq(scenario_service_name((enum service_kind)99), "?");
	scenario_fini(NULL);
}
END_TEST

/* ---- purchase options ---------------------------------------------------------------------------- */

/*
 * Parse a scenario on p5.48xlarge (catalogue: on-demand 55.04, reserved 1y 35%, 3y 55%, Savings Plan 30%,
 * spot 50%, Capacity Block 39.33; 192 vCPUs) starting 2026-01-01T00:00:00Z (unix 1767225600) for 7 days.
 * `fleet` holds the list items, one per line, so the first entry is on line 8; `extra` is appended.
 */
static void parse_fleet(struct scenario *sc, const char *fleet, const char *extra)
{
	char text[4096];

	snprintf(text, sizeof text, "name: f\nstart: 2026-01-01T00:00:00Z\nhorizon: 7d\nslo: {latency_s: 2}\n"
		 "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
		 "serving: {instance_type: p5.48xlarge}\nfleet:\n%s%s", fleet, extra);
	parse_ok(sc, text, NULL, 0);
}

#define START_UNIX_S INT64_C(1767225600)  /* 2026-01-01T00:00:00Z */

START_TEST(reserved_terms_and_payments)
{
	struct scenario sc;

	parse_fleet(&sc,
		    "  - {option: reserved, count: 1}\n"
		    "  - {option: reserved, count: 1, term: 1y}\n"
		    "  - {option: reserved, count: 1, term: 1y, payment: partial_upfront}\n"
		    "  - {option: reserved, count: 1, term: 1y, payment: all_upfront}\n"
		    "  - {option: reserved, count: 1, term: 3y}\n"
		    "  - {option: reserved, count: 1, term: 3y, payment: all_upfront}\n"
		    "  - {option: reserved, count: 2, term: 1y, payment: partial_upfront, upfront_usd: 100000,"
		    " term_start: 2025-06-01T00:00:00Z}\n"
		    "  - {option: reserved, count: 1, term: 1y, payment: all_upfront, usd_per_h: 1.5}\n", "");
	/* no term: the catalogue's reserved rate, 55.04 x (1 - 0.35) = 35.776, nothing up front */
	ck_assert_int_eq(sc.fleet[0].term, TERM_NONE);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 35.776, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].upfront_usd, 0, TOL);
	ck_assert_int_eq(sc.fleet[0].max, 1);
	/* 1y no_upfront: E = 35.776 hourly, nothing up front; term_start defaults to the scenario start */
	ck_assert_int_eq(sc.fleet[1].term, TERM_1Y);
	ck_assert_int_eq(sc.fleet[1].payment, PAYMENT_NO_UPFRONT);
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 35.776, TOL);
	ck_assert_double_eq_tol(sc.fleet[1].upfront_usd, 0, TOL);
	ck_assert_int_eq(sc.fleet[1].term_start_unix_s, START_UNIX_S);
	ck_assert(!sc.fleet[1].price_given);
	/* 1y partial: 0.5 x 35.776 x 8760 = 156698.88 up front, 0.5 x 35.776 = 17.888 hourly */
	ck_assert_int_eq(sc.fleet[2].payment, PAYMENT_PARTIAL_UPFRONT);
	ck_assert_double_eq_tol(sc.fleet[2].upfront_usd, 156698.88, TOL);
	ck_assert_double_eq_tol(sc.fleet[2].usd_per_h, 17.888, TOL);
	/* 1y all: 35.776 x 8760 = 313397.76 up front, 0 hourly */
	ck_assert_int_eq(sc.fleet[3].payment, PAYMENT_ALL_UPFRONT);
	ck_assert_double_eq_tol(sc.fleet[3].upfront_usd, 313397.76, TOL);
	ck_assert_double_eq_tol(sc.fleet[3].usd_per_h, 0, TOL);
	/* 3y: d = 0.55, E = 55.04 x 0.45 = 24.768; all upfront 24.768 x 26280 = 650903.04 */
	ck_assert_int_eq(sc.fleet[4].term, TERM_3Y);
	ck_assert_double_eq_tol(sc.fleet[4].usd_per_h, 24.768, TOL);
	ck_assert_double_eq_tol(sc.fleet[4].upfront_usd, 0, TOL);
	ck_assert_double_eq_tol(sc.fleet[5].usd_per_h, 0, TOL);
	ck_assert_double_eq_tol(sc.fleet[5].upfront_usd, 650903.04, TOL);
	/* explicit upfront_usd replaces the upfront part only; term_start 2025-06-01 = unix 1748736000 */
	ck_assert_int_eq(sc.fleet[6].count, 2);
	ck_assert_int_eq(sc.fleet[6].max, 2);
	ck_assert_double_eq_tol(sc.fleet[6].upfront_usd, 100000, TOL);
	ck_assert_double_eq_tol(sc.fleet[6].usd_per_h, 17.888, TOL);
	ck_assert_int_eq(sc.fleet[6].term_start_unix_s, INT64_C(1748736000));
	/* explicit usd_per_h replaces the hourly part only */
	ck_assert_double_eq_tol(sc.fleet[7].usd_per_h, 1.5, TOL);
	ck_assert_double_eq_tol(sc.fleet[7].upfront_usd, 313397.76, TOL);
	ck_assert(sc.fleet[7].price_given);
	ck_assert_int_eq(sc.autoscaling.min, 9);  /* the reserved counts */
	scenario_fini(&sc);
}
END_TEST

START_TEST(spot_discount_band_and_defaults)
{
	struct scenario sc;

	parse_fleet(&sc,
		    "  - {option: spot, count: 1, interruption_band: 5-10%}\n"
		    "  - {option: spot, count: 2, max: 5, discount: 0.7, interruptions_per_hour: 0.002, notice_s: 30,"
		    " reclaims_per_day: 0.5, reclaim_fraction: 0.25, outage_mean_s: 2h, ice_probability: 0.1,"
		    " ice_outages: [{start: 1h, end: 2h}, {start: 2h, end: 3h}]}\n"
		    "  - {option: spot, count: 0, usd_per_h: 20}\n"
		    "  - {option: spot, count: 0, interruption_band: '>20%'}\n", "");
	/* the catalogue discount 0.50: 55.04 x 0.5 = 27.52; band 5-10% -> p = 7.5% a month ->
	 * -ln(1 - 0.075) / 730 = 1.0679663215e-4 per instance-hour */
	ck_assert_double_eq_tol(sc.fleet[0].discount, 0.5, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 27.52, TOL);
	ck_assert(!sc.fleet[0].price_given);
	ck_assert_double_eq_tol(sc.fleet[0].interruptions_per_hour, -log(0.925) / 730, 1e-15);
	ck_assert_double_eq_tol(sc.fleet[0].interruptions_per_hour, 1.0679663215e-4, 1e-13);
	ck_assert_int_eq(sc.fleet[0].notice_us, 120 * S_US);
	ck_assert_double_eq_tol(sc.fleet[0].reclaims_per_day, 0, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].reclaim_fraction, 1, TOL);
	ck_assert_int_eq(sc.fleet[0].outage_mean_us, 3600 * S_US);
	ck_assert_double_eq_tol(sc.fleet[0].ice_probability, 0, TOL);
	ck_assert_int_eq(sc.fleet[0].noutages, 0);
	ck_assert_int_eq(sc.fleet[0].max, 1);  /* policy none: max = count */
	ck_assert_int_eq(sc.fleet[0].prices.n, 0);
	ck_assert_str_eq(sc.fleet[0].price_trace, "");
	/* discount 0.7: 55.04 x 0.3 = 16.512; the rest as written; touching outages are allowed */
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 16.512, TOL);
	ck_assert_int_eq(sc.fleet[1].count, 2);
	ck_assert_int_eq(sc.fleet[1].max, 5);
	ck_assert_double_eq_tol(sc.fleet[1].interruptions_per_hour, 0.002, TOL);
	ck_assert_int_eq(sc.fleet[1].notice_us, 30 * S_US);
	ck_assert_double_eq_tol(sc.fleet[1].reclaims_per_day, 0.5, TOL);
	ck_assert_double_eq_tol(sc.fleet[1].reclaim_fraction, 0.25, TOL);
	ck_assert_int_eq(sc.fleet[1].outage_mean_us, 7200 * S_US);
	ck_assert_double_eq_tol(sc.fleet[1].ice_probability, 0.1, TOL);
	ck_assert_int_eq(sc.fleet[1].noutages, 2);
	ck_assert_int_eq(sc.fleet[1].outages[0].start_us, 3600 * S_US);
	ck_assert_int_eq(sc.fleet[1].outages[0].end_us, 7200 * S_US);
	ck_assert_int_eq(sc.fleet[1].outages[1].start_us, 7200 * S_US);
	ck_assert_int_eq(sc.fleet[1].outages[1].end_us, 10800 * S_US);
	/* a fixed price: discount 0; no interruption model: rate 0 and a warning at the entry (line 10) */
	ck_assert_double_eq_tol(sc.fleet[2].usd_per_h, 20, TOL);
	ck_assert_double_eq_tol(sc.fleet[2].discount, 0, TOL);
	ck_assert(sc.fleet[2].price_given);
	ck_assert_double_eq_tol(sc.fleet[2].interruptions_per_hour, 0, TOL);
	/* band >20%: p = 25% -> -ln(0.75) / 730 = 3.9408503076e-4 */
	ck_assert_double_eq_tol(sc.fleet[3].interruptions_per_hour, 3.9408503076e-4, 1e-13);
	ck_assert_str_eq(sc.warnings, "t.yaml:10:6: fleet.2: spot entry has no interruption model "
			 "(interruptions_per_hour, interruption_band or availability_trace); its instances are never "
			 "interrupted\n");
	scenario_fini(&sc);
}
END_TEST

START_TEST(spot_trace_paths)
{
	const char *path = TEST_DATA_DIR "/good/spot_traces.yaml";
	const char *text = "name: t\nstart: 2026-01-01T00:00:00Z\nhorizon: 1d\nslo: {latency_s: 2}\n"
			   "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
			   "serving: {instance_type: g5.xlarge}\n"
			   "fleet: [{option: spot, count: 1, price_trace: traces/g5_prices.txt, price_zone: us-east-1a,"
			   " availability_trace: traces/g5_avail.json}]\n";
	struct scenario sc;
	struct diag d;
	char cwd[4096];
	int rc;

	ck_assert_msg(scenario_load(&sc, path, NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	/* paths resolve against the scenario's folder */
	ck_assert_str_eq(sc.fleet[0].price_trace, TEST_DATA_DIR "/good/traces/g5_prices.txt");
	ck_assert_str_eq(sc.fleet[0].price_zone, "us-east-1b");
	/* zone us-east-1b: 0.40 from 2025-12-31T18:00Z, 0.45 from 2026-01-01T06:00Z (unix 1767247200) */
	ck_assert_int_eq(sc.fleet[0].prices.n, 2);
	ck_assert_int_eq(sc.fleet[0].prices.at_unix_us[1], INT64_C(1767247200) * S_US);
	ck_assert_double_eq_tol(sc.fleet[0].prices.usd_per_h[1], 0.45, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 0.40, TOL);  /* the price at the scenario start */
	ck_assert_double_eq_tol(sc.fleet[0].discount, 0, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].interruptions_per_hour, -log(0.925) / 730, 1e-15);
	ck_assert_str_eq(sc.fleet[1].availability_trace, TEST_DATA_DIR "/good/traces/g5_avail.json");
	ck_assert_int_eq(sc.fleet[1].avail.n, 5);
	ck_assert_int_eq(sc.fleet[1].avail.gap_us, 600 * S_US);
	ck_assert_int_eq(sc.fleet[1].avail.count[4], 3);
	ck_assert_double_eq_tol(sc.fleet[1].interruptions_per_hour, 0, TOL);
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 1.006 * 0.4, TOL);  /* discount 0.6 */
	ck_assert_str_eq(sc.warnings, "");
	scenario_fini(&sc);
	ck_assert_int_eq(sc.fleet[0].prices.n, 0);
	/* text has no folder: paths are taken as written, from the current directory */
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	ck_assert_int_eq(chdir(TEST_DATA_DIR "/good"), 0);
	rc = scenario_parse_string(&sc, text, "t.yaml", NULL, 0, &d);
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_msg(rc == STATUS_OK, "%s", d.msg);
	ck_assert_str_eq(sc.fleet[0].price_trace, "traces/g5_prices.txt");
	ck_assert_str_eq(sc.fleet[0].availability_trace, "traces/g5_avail.json");
	ck_assert_int_eq(sc.fleet[0].prices.n, 1);  /* zone us-east-1a: one row */
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 0.35, TOL);
	scenario_fini(&sc);
}
END_TEST

START_TEST(trace_failure_frees_what_was_loaded)
{
	/* the first entry's traces are loaded, then the second entry fails: nothing may leak (ASan) */
	const char *sets[] = { "fleet.1.discount=2" };
	const char *text = "name: t\nhorizon: 1d\nslo: {latency_s: 2}\n"
			   "workload: {arrivals: {kind: poisson, rate_per_s: 1}, service: {kind: constant, mean_s: 1}}\n"
			   "serving: {instance_type: g5.xlarge}\n"
			   "fleet:\n  - {option: spot, count: 1, price_trace: " TEST_DATA_DIR "/good/traces/g5_prices.txt,"
			   " price_zone: us-east-1a, availability_trace: " TEST_DATA_DIR "/good/traces/g5_avail.json}\n"
			   "  - {option: spot, count: 1}\n";

	parse_fails(text, sets, 1, "--set fleet.1.discount=2: fleet.1.discount: expected a number >= 0 and "
		    "< 1, got '2'");
}
END_TEST

START_TEST(odcr_takes_the_on_demand_price)
{
	struct scenario sc;

	parse_fleet(&sc, "  - {option: odcr, count: 3}\n  - {option: odcr, count: 1, usd_per_h: 50}\n", "");
	ck_assert_int_eq(sc.fleet[0].option, OPTION_ODCR);
	ck_assert_int_eq(sc.fleet[0].count, 3);
	ck_assert_int_eq(sc.fleet[0].max, 3);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 55.04, TOL);  /* "the equivalent On-Demand rate" */
	ck_assert(!sc.fleet[0].price_given);
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 50, TOL);
	ck_assert_int_eq(sc.autoscaling.max, 4);
	scenario_fini(&sc);
}
END_TEST

START_TEST(savings_plan_discount_and_rates)
{
	struct scenario sc;

	parse_fleet(&sc,
		    "  - {option: reserved, count: 2}\n"
		    "  - {option: savings_plan, commit_usd_per_h: 100}\n"
		    "  - {option: savings_plan, commit_usd_per_h: 50, term: 3y, discount: 0.45,"
		    " term_start: 2025-06-01T00:00:00Z}\n"
		    "  - {option: savings_plan, commit_usd_per_h: 20, rates: {p5.48xlarge: 41.28, g5.xlarge: 0.7}}\n",
		    "");
	/* catalogue discount 0.30: rate 55.04 x 0.7 = 38.528; term 1y from the scenario start; no instances */
	ck_assert_double_eq_tol(sc.fleet[1].commit_usd_per_h, 100, TOL);
	ck_assert_double_eq_tol(sc.fleet[1].discount, 0.30, TOL);
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 38.528, TOL);
	ck_assert_int_eq(sc.fleet[1].term, TERM_1Y);
	ck_assert_int_eq(sc.fleet[1].term_start_unix_s, START_UNIX_S);
	ck_assert_int_eq(sc.fleet[1].count, 0);
	ck_assert_int_eq(sc.fleet[1].max, 0);
	/* discount 0.45: 55.04 x 0.55 = 30.272 */
	ck_assert_int_eq(sc.fleet[2].term, TERM_3Y);
	ck_assert_double_eq_tol(sc.fleet[2].usd_per_h, 30.272, TOL);
	ck_assert_int_eq(sc.fleet[2].term_start_unix_s, INT64_C(1748736000));
	/* rates: only the serving type's is used, discount = 1 - 41.28 / 55.04 = 0.25 */
	ck_assert_double_eq_tol(sc.fleet[3].discount, 0.25, TOL);
	ck_assert_double_eq_tol(sc.fleet[3].usd_per_h, 41.28, TOL);
	ck_assert_int_eq(sc.autoscaling.max, 2);  /* the plans hold nothing */
	scenario_fini(&sc);
}
END_TEST

START_TEST(capacity_block_times_prices_and_warnings)
{
	struct scenario sc;

	parse_fleet(&sc,
		    "  - {option: capacity_block, start: 2026-01-02T11:30:00Z, duration: 7d, count: 4}\n"
		    "  - {option: capacity_block, start: 2026-01-03T00:00:00Z, duration: 2d, count: 2, upfront_usd: 3000}\n"
		    "  - {option: capacity_block, start: 2025-12-20T11:30:00Z, duration: 1d, count: 1, usd_per_h: 30}\n"
		    "  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 2w, count: 64}\n"
		    "  - {option: capacity_block, start: 2026-01-01T11:30:00Z, duration: 182d, count: 1}\n", "");
	/* starts 1 day 11.5 h = 127800 s after the scenario start; 4 x 168 h x 39.33 = 26429.76 for the block */
	ck_assert_int_eq(sc.fleet[0].option, OPTION_CAPACITY_BLOCK);
	ck_assert_int_eq(sc.fleet[0].start_us, 127800 * S_US);
	ck_assert_int_eq(sc.fleet[0].duration_us, 7 * 86400 * S_US);
	ck_assert_int_eq(sc.fleet[0].count, 4);
	ck_assert_int_eq(sc.fleet[0].max, 4);
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, 39.33, TOL);
	ck_assert_double_eq_tol(sc.fleet[0].upfront_usd, 26429.76, TOL);
	ck_assert(!sc.fleet[0].price_given);
	/* 3000 for 2 instances x 48 h: 31.25 per instance-hour */
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 31.25, TOL);
	ck_assert_double_eq_tol(sc.fleet[1].upfront_usd, 3000, TOL);
	ck_assert(sc.fleet[1].price_given);
	/* 11 days 12.5 h = 995400 s before the start; 1 x 24 h x 30 = 720 */
	ck_assert_int_eq(sc.fleet[2].start_us, -995400 * S_US);
	ck_assert_double_eq_tol(sc.fleet[2].upfront_usd, 720, TOL);
	ck_assert_int_eq(sc.fleet[3].duration_us, 14 * 86400 * S_US);
	ck_assert_int_eq(sc.fleet[4].duration_us, 182 * 86400 * S_US);
	ck_assert_int_eq(sc.autoscaling.max, 4 + 2 + 1 + 64 + 1);
	/* the block ending at 00:00 (line 9) and the one before the horizon (line 10) warn; 11:30 ends do not */
	ck_assert_str_eq(sc.warnings,
			 "t.yaml:9:37: fleet.1.start: capacity block ends at 00:00 UTC; real Capacity Blocks end at "
			 "11:30 UTC (FACTS.md 1)\n"
			 "t.yaml:10:37: fleet.2.start: capacity block from 2025-12-20T11:30:00Z to "
			 "2025-12-21T11:30:00Z lies entirely outside the simulated window (2026-01-01T00:00:00Z to "
			 "2026-01-08T00:00:00Z); it never serves\n");
	scenario_fini(&sc);
}
END_TEST

START_TEST(quotas_retry_allocation_values)
{
	const char *sets[] = { "serving.on_interrupt=drop" };
	struct scenario sc;
	char text[2048];

	snprintf(text, sizeof text, "%s%s", small_yaml,
		 "  - {option: spot, count: 1, interruption_band: '<5%'}\n"
		 "quotas: {on_demand_vcpus: 384, on_demand_instances: 3, spot_vcpus: 0, spot_instances: 10}\n"
		 "launch_retry: {backoff_s: 1m, max_backoff_s: 15m, multiplier: 1.5}\n"
		 "allocation: {strategy: mixed, on_demand_base_capacity: 2, on_demand_percentage_above_base: 25,"
		 " spot_fallback: false}\n");
	parse_ok(&sc, text, sets, 1);
	ck_assert_int_eq(sc.serving.on_interrupt, INTERRUPT_DROP);
	ck_assert_int_eq(sc.quotas.on_demand_vcpus, 384);
	ck_assert_int_eq(sc.quotas.on_demand_instances, 3);
	ck_assert_int_eq(sc.quotas.spot_vcpus, 0);
	ck_assert_int_eq(sc.quotas.spot_instances, 10);
	ck_assert_int_eq(sc.launch_retry.backoff_us, 60 * S_US);
	ck_assert_int_eq(sc.launch_retry.max_backoff_us, 900 * S_US);
	ck_assert_double_eq_tol(sc.launch_retry.multiplier, 1.5, TOL);
	ck_assert(sc.allocation.mixed);
	ck_assert_int_eq(sc.allocation.on_demand_base, 2);
	ck_assert_double_eq_tol(sc.allocation.on_demand_pct, 25, TOL);
	ck_assert(!sc.allocation.spot_fallback);
	scenario_fini(&sc);
}
END_TEST

START_TEST(retry_cap_follows_a_long_first_wait)
{
	const char *sets[] = { "launch_retry.backoff_s=20m" };
	const char *below[] = { "launch_retry.backoff_s=20m", "launch_retry.max_backoff_s=10m" };
	struct scenario sc;

	parse_ok(&sc, small_yaml, sets, 1);
	ck_assert_int_eq(sc.launch_retry.max_backoff_us, 1200 * S_US);  /* not the 600 s default below it */
	scenario_fini(&sc);
	parse_fails(small_yaml, below, 2, "--set launch_retry.max_backoff_s=10m: launch_retry.max_backoff_s: "
		    "expected a duration >= 20m and <= 1d (seconds, or a number with a unit: ms, s, m, h, d, w), "
		    "got '10m'");
}
END_TEST

START_TEST(catalog_overrides_new_keys)
{
	const char *sets[] = { "catalog.p5.48xlarge.vcpus=96", "catalog.p5.48xlarge.spot_discount=0.4",
			       "catalog.p5.48xlarge.reserved_3y_discount=0.6",
			       "catalog.p5.48xlarge.savings_plan_discount=0.2", "catalog.p5.48xlarge.cb_usd_per_h=30" };
	struct scenario sc;

	parse_ok(&sc, full_yaml, sets, 5);
	ck_assert_int_eq(sc.serving.vcpus, 96);
	ck_assert_int_eq(sc.serving.family, 'p');
	ck_assert_double_eq_tol(sc.serving.spot_discount, 0.4, TOL);
	ck_assert_double_eq_tol(sc.serving.reserved_3y_discount, 0.6, TOL);
	ck_assert_double_eq_tol(sc.serving.savings_plan_discount, 0.2, TOL);
	ck_assert_double_eq_tol(sc.serving.capacity_block_usd_per_h, 30, TOL);
	scenario_fini(&sc);
}
END_TEST

START_TEST(vcpu_quota_needs_known_vcpus)
{
	const char *sets[] = { "serving.instance_type=my-l4-box", "quotas.on_demand_vcpus=64" };
	const char *count[] = { "serving.instance_type=my-l4-box", "quotas.on_demand_instances=4" };
	struct scenario sc;

	parse_fails(full_yaml, sets, 2, "--set quotas.on_demand_vcpus=64: quotas.on_demand_vcpus: the vCPUs of "
		    "my-l4-box are unknown; expected catalog.my-l4-box.vcpus, or a quota in instances");
	parse_ok(&sc, full_yaml, count, 2);
	ck_assert_int_eq(sc.serving.vcpus, 0);  /* a new type that does not say */
	ck_assert_int_eq(sc.quotas.on_demand_instances, 4);
	scenario_fini(&sc);
}
END_TEST

START_TEST(keys_of_other_options_do_not_apply)
{
	const char *sets[] = { "fleet.0.discount=0.2" };

	parse_fails(small_yaml, sets, 1, "--set fleet.0.discount=0.2: fleet.0.discount: discount does not apply "
		    "to reserved; expected one of: option, count, usd_per_h, term, payment, upfront_usd, "
		    "term_start");
}
END_TEST

/* ---- workload: arrival kinds, transforms, sizes, service ------------------------------------------- */

/*
 * A scenario whose workload is `workload` (lines from 6 on) and whose slo mapping is {latency_s: 2`slo`}
 * (line 4, with `slo` starting at column 29), 7 days from Monday 2026-01-05, on g5.xlarge.
 */
static const char *workload_text(const char *slo, const char *workload)
{
	static char text[4096];

	snprintf(text, sizeof text, "name: w\nstart: 2026-01-05T00:00:00Z\nhorizon: 7d\nslo: {latency_s: 2%s}\n"
		 "workload:\n%sserving: {instance_type: g5.xlarge}\nfleet:\n  - {option: on_demand, count: 1, "
		 "max: 4}\n", slo, workload);
	return text;
}

/* Parse a workload (see workload_text), asserting success. */
static void parse_workload(struct scenario *sc, const char *slo, const char *workload)
{
	parse_ok(sc, workload_text(slo, workload), NULL, 0);
}

/* Parse a workload, asserting STATUS_EINPUT and the exact message. */
static void workload_fails(const char *slo, const char *workload, const char *msg)
{
	parse_fails(workload_text(slo, workload), NULL, 0, msg);
}

#define EXP_SERVICE "  service: {kind: exponential, mean_s: 1}\n"

START_TEST(arrival_defaults)
{
	struct scenario sc;

	parse_ok(&sc, small_yaml, NULL, 0);
	ck_assert_double_eq_tol(sc.arrivals.scale_rate, 1, TOL);
	ck_assert_double_eq_tol(sc.arrivals.speedup, 1, TOL);
	ck_assert_double_eq_tol(sc.arrivals.growth_per_day, 0, TOL);
	ck_assert(!sc.arrivals.loop);
	ck_assert_int_eq(sc.arrivals.offset_us, 0);
	ck_assert_int_eq(sc.sizes.input.kind, SIZE_NONE);
	ck_assert_int_eq(sc.sizes.output.kind, SIZE_NONE);
	ck_assert_int_eq(sc.slo.ttft_us, 0);
	ck_assert_int_eq(sc.service.ndecode, 0);
	scenario_fini(&sc);
}
END_TEST

START_TEST(diurnal_sinusoid_and_weekly)
{
	struct scenario sc;

	parse_workload(&sc, "", "  arrivals: {kind: diurnal, rate_per_s: 100, amplitude: 0.3, peak_hour: 18.5,"
		       " weekly: [1, 1, 1, 1, 1.2, 0.6, 0.5]}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.kind, ARRIVAL_DIURNAL);
	ck_assert_double_eq_tol(sc.arrivals.rate_per_s, 100, TOL);
	ck_assert_double_eq_tol(sc.arrivals.amplitude, 0.3, TOL);
	ck_assert_double_eq_tol(sc.arrivals.peak_hour, 18.5, TOL);
	ck_assert(!sc.arrivals.has_hourly);
	ck_assert(sc.arrivals.has_weekly);
	ck_assert_double_eq_tol(sc.arrivals.weekly[0], 1, TOL);    /* Monday */
	ck_assert_double_eq_tol(sc.arrivals.weekly[4], 1.2, TOL);  /* Friday */
	ck_assert_double_eq_tol(sc.arrivals.weekly[5], 0.6, TOL);
	ck_assert_double_eq_tol(sc.arrivals.weekly[6], 0.5, TOL);  /* Sunday */
	scenario_fini(&sc);
	/* the defaults: amplitude 0.5, peak at 14:00, every weekday x 1 */
	parse_workload(&sc, "", "  arrivals: {kind: diurnal, rate_per_s: 7}\n" EXP_SERVICE);
	ck_assert_double_eq_tol(sc.arrivals.amplitude, 0.5, TOL);
	ck_assert_double_eq_tol(sc.arrivals.peak_hour, 14, TOL);
	ck_assert(!sc.arrivals.has_hourly);
	ck_assert(!sc.arrivals.has_weekly);
	for (int i = 0; i < 7; i++)
		ck_assert_double_eq_tol(sc.arrivals.weekly[i], 1, TOL);
	scenario_fini(&sc);
	workload_fails("", "  arrivals: {kind: diurnal, rate_per_s: 7, peak_hour: 24}\n" EXP_SERVICE,
		       "t.yaml:6:55: workload.arrivals.peak_hour: expected a number >= 0 and < 24, got '24'");
	workload_fails("", "  arrivals: {kind: diurnal, rate_per_s: 7, amplitude: 1.5}\n" EXP_SERVICE,
		       "t.yaml:6:55: workload.arrivals.amplitude: expected a number >= 0 and <= 1, got '1.5'");
}
END_TEST

START_TEST(diurnal_hourly_factors)
{
	struct scenario sc;

	/* hour h has factor h / 2: 0 at midnight, 11.5 at 23:00 */
	parse_workload(&sc, "", "  arrivals:\n    kind: diurnal\n    rate_per_s: 40\n    hourly: [0, 0.5, 1, 1.5,"
		       " 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5, 10, 10.5, 11, 11.5]\n"
		       EXP_SERVICE);
	ck_assert(sc.arrivals.has_hourly);
	for (int h = 0; h < 24; h++)
		ck_assert_double_eq_tol(sc.arrivals.hourly[h], h / 2.0, TOL);
	ck_assert(!sc.arrivals.has_weekly);
	scenario_fini(&sc);
	workload_fails("", "  arrivals:\n    kind: diurnal\n    rate_per_s: 40\n    hourly: [1, 1, 1, 1, 1, 1, 1, 1,"
		       " 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n    amplitude: 0.2\n" EXP_SERVICE,
		       "t.yaml:10:16: workload.arrivals.amplitude: hourly and amplitude cannot both be given; "
		       "expected one of them");
	workload_fails("", "  arrivals: {kind: diurnal, rate_per_s: 7, weekly: [1, 1, 1, 1, 1, 1, -1]}\n"
		       EXP_SERVICE, "t.yaml:6:71: workload.arrivals.weekly.6: expected a number >= 0, got '-1'");
}
END_TEST

START_TEST(mmpp_values)
{
	struct scenario sc;

	parse_workload(&sc, "", "  arrivals: {kind: mmpp, rate_per_s: 10, burst_rate_per_s: 250, burst_mean_s: 5m,"
		       " calm_mean_s: 2h}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.kind, ARRIVAL_MMPP);
	ck_assert_double_eq_tol(sc.arrivals.rate_per_s, 10, TOL);
	ck_assert_double_eq_tol(sc.arrivals.burst_rate_per_s, 250, TOL);
	ck_assert_int_eq(sc.arrivals.burst_mean_us, 300 * S_US);
	ck_assert_int_eq(sc.arrivals.calm_mean_us, 7200 * S_US);
	scenario_fini(&sc);
	workload_fails("", "  arrivals: {kind: mmpp, rate_per_s: 10, burst_rate_per_s: 250, burst_mean_s: 0,"
		       " calm_mean_s: 2h}\n" EXP_SERVICE, "t.yaml:6:79: workload.arrivals.burst_mean_s: expected a "
		       "duration > 0 and <= 400d (seconds, or a number with a unit: ms, s, m, h, d, w), got '0'");
}
END_TEST

START_TEST(flash_crowd_values)
{
	struct scenario sc;

	parse_workload(&sc, "", "  arrivals: {kind: flash_crowd, rate_per_s: 20, at: 6h, magnitude: 15, decay_s: 90}"
		       "\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.kind, ARRIVAL_FLASH_CROWD);
	ck_assert_double_eq_tol(sc.arrivals.rate_per_s, 20, TOL);
	ck_assert_int_eq(sc.arrivals.flash_at_us, 6 * 3600 * S_US);
	ck_assert_double_eq_tol(sc.arrivals.flash_magnitude, 15, TOL);
	ck_assert_int_eq(sc.arrivals.flash_decay_us, 90 * S_US);
	scenario_fini(&sc);
	/* the crowd may come at the very start or the very end (the horizon, 7d) */
	parse_workload(&sc, "", "  arrivals: {kind: flash_crowd, rate_per_s: 20, at: 0, magnitude: 0, decay_s: 1}\n"
		       EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.flash_at_us, 0);
	scenario_fini(&sc);
	parse_workload(&sc, "", "  arrivals: {kind: flash_crowd, rate_per_s: 20, at: 7d, magnitude: 1e4, decay_s: 1}"
		       "\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.flash_at_us, 7 * 86400 * S_US);
	ck_assert_double_eq_tol(sc.arrivals.flash_magnitude, 1e4, TOL);
	scenario_fini(&sc);
}
END_TEST

START_TEST(transforms_values)
{
	const char *sets[] = { "workload.arrivals.scale_rate=3", "workload.arrivals.offset=90m" };
	struct scenario sc;

	parse_workload(&sc, "", "  arrivals: {kind: uniform, rate_per_s: 3, scale_rate: 2.5, speedup: 60, "
		       "growth_per_day: 0.02, loop: true, offset: 3d}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.kind, ARRIVAL_UNIFORM);
	ck_assert_double_eq_tol(sc.arrivals.scale_rate, 2.5, TOL);
	ck_assert_double_eq_tol(sc.arrivals.speedup, 60, TOL);
	ck_assert_double_eq_tol(sc.arrivals.growth_per_day, 0.02, TOL);
	ck_assert(sc.arrivals.loop);
	ck_assert_int_eq(sc.arrivals.offset_us, 3 * 86400 * S_US);
	scenario_fini(&sc);
	parse_ok(&sc, small_yaml, sets, 2);  /* overrides reach the new keys like any other */
	ck_assert_double_eq_tol(sc.arrivals.scale_rate, 3, TOL);
	ck_assert_int_eq(sc.arrivals.offset_us, 90 * 60 * S_US);
	scenario_fini(&sc);
	/* the bounds: scale_rate 1000, speedup 1e6, growth 10 and a shrink just above -1, offset 400d */
	parse_workload(&sc, "", "  arrivals: {kind: poisson, rate_per_s: 3, scale_rate: 1000, speedup: 1e6, "
		       "growth_per_day: -0.999, loop: false, offset: 400d}\n" EXP_SERVICE);
	ck_assert_double_eq_tol(sc.arrivals.growth_per_day, -0.999, TOL);
	ck_assert(!sc.arrivals.loop);
	ck_assert_int_eq(sc.arrivals.offset_us, 400 * 86400 * S_US);
	scenario_fini(&sc);
	workload_fails("", "  arrivals: {kind: poisson, rate_per_s: 3, growth_per_day: -1}\n" EXP_SERVICE,
		       "t.yaml:6:60: workload.arrivals.growth_per_day: expected a number > -1 and <= 10, got '-1'");
	workload_fails("", "  arrivals: {kind: poisson, rate_per_s: 3, loop: yes}\n" EXP_SERVICE,
		       "t.yaml:6:50: workload.arrivals.loop: expected false or true, got 'yes'");
}
END_TEST

START_TEST(arrival_keys_follow_the_kind)
{
	workload_fails("", "  arrivals: {kind: diurnal, rate_per_s: 3, steps: [{at: 1h, rate_per_s: 4}]}\n"
		       EXP_SERVICE, "t.yaml:6:44: workload.arrivals.steps: steps does not apply to kind diurnal; "
		       "expected one of: kind, rate_per_s, amplitude, peak_hour, hourly, weekly, scale_rate, speedup, "
		       "growth_per_day, loop, offset");
	workload_fails("", "  arrivals: {kind: mmpp, rate_per_s: 3, burst: 4}\n" EXP_SERVICE,
		       "t.yaml:6:41: workload.arrivals: unknown key 'burst'; expected one of: kind, rate_per_s, "
		       "burst_rate_per_s, burst_mean_s, calm_mean_s, scale_rate, speedup, growth_per_day, loop, "
		       "offset");
}
END_TEST

START_TEST(sizes_values)
{
	struct scenario sc;

	parse_workload(&sc, "", "  arrivals: {kind: poisson, rate_per_s: 3}\n  sizes:\n"
		       "    input_tokens: {kind: lognormal, mean: 1200, cv: 2.5}\n"
		       "    output_tokens: {kind: exponential, mean: 300}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.sizes.input.kind, SIZE_LOGNORMAL);
	ck_assert_double_eq_tol(sc.sizes.input.mean, 1200, TOL);
	ck_assert_double_eq_tol(sc.sizes.input.cv, 2.5, TOL);
	ck_assert_int_eq(sc.sizes.output.kind, SIZE_EXPONENTIAL);
	ck_assert_double_eq_tol(sc.sizes.output.mean, 300, TOL);
	ck_assert_double_eq_tol(sc.sizes.output.cv, 1, TOL);   /* the default, as for the service */
	scenario_fini(&sc);
	parse_workload(&sc, "", "  arrivals: {kind: poisson, rate_per_s: 3}\n  sizes:\n"
		       "    output_tokens: {kind: constant, mean: 64}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.sizes.input.kind, SIZE_NONE);
	ck_assert_int_eq(sc.sizes.output.kind, SIZE_CONSTANT);
	ck_assert_double_eq_tol(sc.sizes.output.mean, 64, TOL);
	scenario_fini(&sc);
	workload_fails("", "  arrivals: {kind: poisson, rate_per_s: 3}\n  sizes:\n"
		       "    input_tokens: {kind: constant, mean: 64, cv: 2}\n" EXP_SERVICE,
		       "t.yaml:8:50: workload.sizes.input_tokens.cv: cv does not apply to kind constant; expected one "
		       "of: kind, mean");
	workload_fails("", "  arrivals: {kind: poisson, rate_per_s: 3}\n  sizes:\n"
		       "    input_tokens: {kind: constant, mean: 2e7}\n" EXP_SERVICE,
		       "t.yaml:8:42: workload.sizes.input_tokens.mean: expected a number > 0 and <= 10000000, got "
		       "'2e7'");
}
END_TEST

#define TOKEN_SIZES "  sizes: {input_tokens: {kind: constant, mean: 1000}, output_tokens: {kind: constant, " \
		    "mean: 200}}\n"

START_TEST(tokens_service_one_speed)
{
	struct scenario sc;

	parse_workload(&sc, ", ttft_s: 1.5", "  arrivals: {kind: poisson, rate_per_s: 3}\n" TOKEN_SIZES
		       "  service: {kind: tokens, prefill_tokens_per_s: 12000, decode_tokens_per_s: 45, "
		       "overhead_s: 250ms}\n");
	ck_assert_int_eq(sc.service.kind, SERVICE_TOKENS);
	ck_assert_double_eq_tol(sc.service.prefill_tokens_per_s, 12000, TOL);
	ck_assert_int_eq(sc.service.ndecode, 1);
	ck_assert_int_eq(sc.service.decode[0].concurrency, 1);
	ck_assert_double_eq_tol(sc.service.decode[0].tokens_per_s, 45, TOL);
	ck_assert_double_eq_tol(sc.service.overhead_s, 0.25, TOL);
	ck_assert_double_eq_tol(sc.service.mean_s, 0, TOL);
	ck_assert_int_eq(sc.slo.ttft_us, 1500000);
	scenario_fini(&sc);
	parse_workload(&sc, "", "  arrivals: {kind: poisson, rate_per_s: 3}\n" TOKEN_SIZES
		       "  service: {kind: tokens, prefill_tokens_per_s: 12000, decode_tokens_per_s: 45}\n");
	ck_assert_double_eq_tol(sc.service.overhead_s, 0, TOL);
	scenario_fini(&sc);
	workload_fails("", "  arrivals: {kind: poisson, rate_per_s: 3}\n" TOKEN_SIZES
		       "  service: {kind: tokens, prefill_tokens_per_s: 12000}\n",
		       "t.yaml:8:3: workload.service: missing required key 'decode_tokens_per_s' (output tokens per "
		       "second per request, or a decode_table)");
	workload_fails("", "  arrivals: {kind: poisson, rate_per_s: 3}\n" TOKEN_SIZES
		       "  service: {kind: tokens, mean_s: 1, prefill_tokens_per_s: 12000, decode_tokens_per_s: 4}\n",
		       "t.yaml:8:35: workload.service.mean_s: mean_s does not apply to kind tokens; expected one of: "
		       "kind, prefill_tokens_per_s, decode_tokens_per_s, decode_table, overhead_s");
}
END_TEST

START_TEST(tokens_service_decode_table)
{
	struct scenario sc;

	parse_workload(&sc, "", "  arrivals: {kind: poisson, rate_per_s: 3}\n" TOKEN_SIZES
		       "  service:\n    kind: tokens\n    prefill_tokens_per_s: 9000\n    decode_table:\n"
		       "      - {concurrency: 1, tokens_per_s: 60}\n      - {concurrency: 8, tokens_per_s: 42.5}\n"
		       "      - {concurrency: 32, tokens_per_s: 20}\n");
	ck_assert_int_eq(sc.service.ndecode, 3);
	ck_assert_int_eq(sc.service.decode[0].concurrency, 1);
	ck_assert_double_eq_tol(sc.service.decode[0].tokens_per_s, 60, TOL);
	ck_assert_int_eq(sc.service.decode[1].concurrency, 8);
	ck_assert_double_eq_tol(sc.service.decode[1].tokens_per_s, 42.5, TOL);
	ck_assert_int_eq(sc.service.decode[2].concurrency, 32);
	ck_assert_double_eq_tol(sc.service.decode[2].tokens_per_s, 20, TOL);
	scenario_fini(&sc);
	workload_fails("", "  arrivals: {kind: poisson, rate_per_s: 3}\n" TOKEN_SIZES
		       "  service:\n    kind: tokens\n    prefill_tokens_per_s: 9000\n    decode_tokens_per_s: 5\n"
		       "    decode_table: [{concurrency: 1, tokens_per_s: 60}]\n",
		       "t.yaml:12:5: workload.service.decode_table: decode_tokens_per_s and decode_table cannot "
		       "both be given; expected one of them");
	workload_fails("", "  arrivals: {kind: poisson, rate_per_s: 3}\n" TOKEN_SIZES
		       "  service:\n    kind: tokens\n    prefill_tokens_per_s: 9000\n"
		       "    decode_table: [{concurrency: 0, tokens_per_s: 60}]\n",
		       "t.yaml:11:34: workload.service.decode_table.0.concurrency: expected an integer from 1 to "
		       "4096, got '0'");
}
END_TEST

START_TEST(ttft_needs_the_tokens_service)
{
	workload_fails(", ttft_s: 1", "  arrivals: {kind: poisson, rate_per_s: 3}\n" EXP_SERVICE,
		       "t.yaml:4:29: slo.ttft_s: ttft_s needs workload.service.kind tokens: time to first token is "
		       "the wait plus the prefill (kind is exponential); expected no ttft_s");
	workload_fails(", ttft_s: 2d", "  arrivals: {kind: poisson, rate_per_s: 3}\n" TOKEN_SIZES
		       "  service: {kind: tokens, prefill_tokens_per_s: 9000, decode_tokens_per_s: 5}\n",
		       "t.yaml:4:29: slo.ttft_s: expected a duration > 0 and <= 1d (seconds, or a number with a "
		       "unit: ms, s, m, h, d, w), got '2d'");
}
END_TEST

/* The Azure sample: 5 rows from 2023-11-16 18:17:03.97996 UTC to 10 s later, 11000 prompt and 200 output
 * tokens in all. */
START_TEST(trace_azure_file)
{
	const char *path = TEST_DATA_DIR "/good/trace_azure.yaml";
	struct scenario sc;
	struct diag d;

	ck_assert_msg(scenario_load(&sc, path, NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(sc.arrivals.kind, ARRIVAL_TRACE);
	ck_assert_str_eq(sc.arrivals.path, TEST_DATA_DIR "/good/traces/azure_5.csv");
	ck_assert_str_eq(sc.arrivals.mapping.time_column, "TIMESTAMP");
	ck_assert_int_eq(sc.arrivals.mapping.time_format, TRACE_TIME_ISO);
	ck_assert_str_eq(sc.arrivals.mapping.input_tokens_column, "ContextTokens");
	ck_assert_str_eq(sc.arrivals.mapping.output_tokens_column, "GeneratedTokens");
	ck_assert_str_eq(sc.arrivals.mapping.service_column, "");
	ck_assert_int_eq(sc.arrivals.summary.rows, 5);
	ck_assert_int_eq(sc.arrivals.summary.first_us, INT64_C(1700158623979960));
	ck_assert_int_eq(sc.arrivals.summary.last_us - sc.arrivals.summary.first_us, 10 * S_US);
	ck_assert(sc.arrivals.summary.has_tokens);
	ck_assert_double_eq_tol(sc.arrivals.summary.in_sum, 4808 + 3180 + 110 + 2000 + 902, TOL);
	ck_assert_double_eq_tol(sc.arrivals.summary.out_sum, 10 + 8 + 27 + 150 + 5, TOL);
	ck_assert_int_eq(sc.arrivals.summary.in_max, 4808);
	ck_assert_int_eq(sc.arrivals.summary.out_max, 150);
	ck_assert(sc.arrivals.loop);
	ck_assert_double_eq_tol(sc.arrivals.speedup, 2, TOL);
	ck_assert_double_eq_tol(sc.arrivals.rate_per_s, 0, TOL);
	ck_assert_int_eq(sc.service.kind, SERVICE_TOKENS);  /* the token counts come from the trace */
	ck_assert_int_eq(sc.slo.ttft_us, 2 * S_US);
	scenario_fini(&sc);
}
END_TEST

#define GENERIC_TRACE "  arrivals:\n    kind: trace\n    path: " TEST_DATA_DIR "/good/traces/generic_4.csv\n"

/* generic_4.csv: arrivals at 0, 1.5, 3 and 7.25 s; prompts 100 + 200 + 50 + 400, outputs 20 + 40 + 10 + 80. */
START_TEST(trace_generic_columns)
{
	struct scenario sc;

	parse_workload(&sc, "", GENERIC_TRACE "    format: generic\n    columns: {time: t, time_format: seconds, "
		       "input_tokens: prompt, output_tokens: completion, service_s: svc}\n  service: {kind: trace}\n");
	ck_assert_str_eq(sc.arrivals.path, TEST_DATA_DIR "/good/traces/generic_4.csv");
	ck_assert_str_eq(sc.arrivals.mapping.time_column, "t");
	ck_assert_int_eq(sc.arrivals.mapping.time_format, TRACE_TIME_SECONDS);
	ck_assert_str_eq(sc.arrivals.mapping.input_tokens_column, "prompt");
	ck_assert_str_eq(sc.arrivals.mapping.output_tokens_column, "completion");
	ck_assert_str_eq(sc.arrivals.mapping.service_column, "svc");
	ck_assert_int_eq(sc.arrivals.summary.rows, 4);
	ck_assert_int_eq(sc.arrivals.summary.first_us, 0);
	ck_assert_int_eq(sc.arrivals.summary.last_us, 7250000);
	ck_assert_double_eq_tol(sc.arrivals.summary.in_sum, 750, TOL);
	ck_assert_double_eq_tol(sc.arrivals.summary.out_sum, 150, TOL);
	ck_assert_int_eq(sc.service.kind, SERVICE_TRACE);
	scenario_fini(&sc);
	/* only the time column: time_format defaults to iso, the other columns to none */
	parse_workload(&sc, "", "  arrivals:\n    kind: trace\n    path: " TEST_DATA_DIR "/good/traces/azure_5.csv\n"
		       "    format: generic\n    columns: {time: TIMESTAMP}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.mapping.time_format, TRACE_TIME_ISO);
	ck_assert_str_eq(sc.arrivals.mapping.input_tokens_column, "");
	ck_assert_int_eq(sc.arrivals.summary.rows, 5);
	ck_assert(!sc.arrivals.summary.has_tokens);
	scenario_fini(&sc);
	/* token counts may come per field: prompts from the trace, outputs from workload.sizes */
	parse_workload(&sc, "", GENERIC_TRACE "    format: generic\n    columns: {time: t, time_format: seconds, "
		       "input_tokens: prompt}\n  sizes: {output_tokens: {kind: constant, mean: 30}}\n"
		       "  service: {kind: tokens, prefill_tokens_per_s: 9000, decode_tokens_per_s: 5}\n");
	ck_assert_int_eq(sc.service.kind, SERVICE_TOKENS);
	ck_assert_int_eq(sc.sizes.input.kind, SIZE_NONE);
	scenario_fini(&sc);
	workload_fails("", GENERIC_TRACE "    format: generic\n    columns: {time: t, time_format: seconds, "
		       "input_tokens: prompt}\n  service: {kind: tokens, prefill_tokens_per_s: 9000, "
		       "decode_tokens_per_s: 5}\n", "t.yaml:11:19: workload.service.kind: service kind tokens needs "
		       "token counts: a trace with input and output token columns, or workload.sizes.input_tokens "
		       "and output_tokens");
}
END_TEST

START_TEST(trace_mapping_errors)
{
	const char *want = TEST_DATA_DIR "/good/traces/generic_4.csv:1:";
	struct scenario sc;
	struct diag d;
	int rc;

	workload_fails("", GENERIC_TRACE "    columns: {time: t}\n" EXP_SERVICE,
		       "t.yaml:9:5: workload.arrivals.columns: columns applies only to format generic (format is "
		       "azure, whose columns are fixed); expected format: generic, or no columns");
	workload_fails("", GENERIC_TRACE "    format: generic\n    columns: {time_format: iso}\n" EXP_SERVICE,
		       "t.yaml:10:5: workload.arrivals.columns: missing required key 'time' (the header name of the "
		       "arrival-time column)");
	workload_fails("", GENERIC_TRACE "    format: generic\n    columns: {time: t, service_s: "
		       "a_column_name_of_sixty_four_bytes_which_is_one_more_than_allowed}\n" EXP_SERVICE,
		       "t.yaml:10:35: workload.arrivals.columns.service_s: expected a non-empty string of at most 63 "
		       "bytes, got 64 bytes");
	workload_fails("", GENERIC_TRACE "    format: generic\n    columns: {time: t, time_format: unix}\n"
		       EXP_SERVICE, "t.yaml:10:37: workload.arrivals.columns.time_format: expected iso, epoch_s, "
		       "epoch_ms or seconds, got 'unix'");
	/* service kind trace needs a service_s column (azure has none) */
	workload_fails("", "  arrivals:\n    kind: trace\n    path: " TEST_DATA_DIR "/good/traces/azure_5.csv\n"
		       "  service: {kind: trace}\n", "t.yaml:9:19: workload.service.kind: service kind trace takes "
		       "each request's service time from the trace; expected workload.arrivals.kind trace with "
		       "columns.service_s");
	/* a header without the named column: the trace's own message, naming it and its line */
	rc = scenario_parse_string(&sc, workload_text("", GENERIC_TRACE "    format: generic\n    columns: {time: "
						      "when}\n" EXP_SERVICE), "t.yaml", NULL, 0, &d);
	ck_assert_int_eq(rc, STATUS_EINPUT);
	ck_assert_msg(strncmp(d.msg, want, strlen(want)) == 0, "%s", d.msg);
	ck_assert_ptr_null(sc.text);
}
END_TEST

START_TEST(rate_series_two_files)
{
	const char *path = TEST_DATA_DIR "/good/rate_series.yaml";
	struct scenario sc;
	struct diag d;

	ck_assert_msg(scenario_load(&sc, path, NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(sc.arrivals.kind, ARRIVAL_RATE_SERIES);
	ck_assert_int_eq(sc.arrivals.nseries, 2);
	ck_assert_str_eq(sc.arrivals.series[0], TEST_DATA_DIR "/good/traces/series_a.csv");
	ck_assert_str_eq(sc.arrivals.series[1], TEST_DATA_DIR "/good/traces/series_b.csv");
	ck_assert_int_eq(sc.arrivals.series_format, SERIES_AGGREGATE);
	ck_assert_int_eq(sc.arrivals.window_us, 600 * S_US);
	ck_assert_double_eq_tol(sc.arrivals.scale_rate, 0.5, TOL);
	scenario_fini(&sc);
	/* one file by `path`, servegen, a window of its own; relative to the current folder for text */
	ck_assert_int_eq(chdir(TEST_DATA_DIR "/good"), 0);
	parse_workload(&sc, "", "  arrivals: {kind: rate_series, path: traces/series_b.csv, format: servegen, "
		       "window_s: 60}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.nseries, 1);
	ck_assert_str_eq(sc.arrivals.series[0], "traces/series_b.csv");
	ck_assert_int_eq(sc.arrivals.series_format, SERIES_SERVEGEN);
	ck_assert_int_eq(sc.arrivals.window_us, 60 * S_US);
	scenario_fini(&sc);
	workload_fails("", "  arrivals: {kind: rate_series, path: traces/series_a.csv, paths: [traces/series_b.csv]}"
		       "\n" EXP_SERVICE, "t.yaml:6:60: workload.arrivals.paths: path and paths cannot both be given; "
		       "expected one of them");
	workload_fails("", "  arrivals: {kind: rate_series, format: aggregate}\n" EXP_SERVICE,
		       "t.yaml:6:3: workload.arrivals: missing required key 'paths' (a list of rate-series CSV "
		       "files, or path: one file)");
}
END_TEST

START_TEST(rate_series_file_missing_is_enoent)
{
	struct scenario sc;
	struct diag d;
	int rc = scenario_parse_string(&sc, workload_text("", "  arrivals: {kind: rate_series, paths: ["
							  TEST_DATA_DIR "/good/traces/series_a.csv, "
							  TEST_DATA_DIR "/no/such/series.csv]}\n" EXP_SERVICE),
				       "t.yaml", NULL, 0, &d);

	ck_assert_int_eq(rc, STATUS_ENOENT);
	ck_assert_msg(strstr(d.msg, "t.yaml:6:") == d.msg, "%s", d.msg);
	ck_assert_ptr_nonnull(strstr(d.msg, "workload.arrivals.paths.1: cannot open " TEST_DATA_DIR
				     "/no/such/series.csv: No such file or directory; expected a readable file"));
	ck_assert_ptr_null(sc.text);
	/* a folder opens but does not read */
	rc = scenario_parse_string(&sc, workload_text("", "  arrivals: {kind: rate_series, path: " TEST_DATA_DIR
						      "}\n" EXP_SERVICE), "t.yaml", NULL, 0, &d);
	ck_assert_int_eq(rc, STATUS_ENOENT);
	ck_assert_ptr_nonnull(strstr(d.msg, "workload.arrivals.path: cannot read " TEST_DATA_DIR ": "));
}
END_TEST

/* ---- the bad files -------------------------------------------------------------------------------- */

static char *bad_files[BAD_MAX];
static int nbad;

static int is_yaml(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 5 && strcmp(e->d_name + n - 5, ".yaml") == 0;
}

/* Collect tests/data/bad/ (sorted, so the loop index names the same file every run). */
static void collect_bad_files(void)
{
	struct dirent **list;
	int n = scandir(TEST_DATA_DIR "/bad", &list, is_yaml, alphasort);

	for (int i = 0; i < n; i++) {
		if (nbad < BAD_MAX) {
			bad_files[nbad] = malloc(strlen(TEST_DATA_DIR "/bad/") + strlen(list[i]->d_name) + 1);
			sprintf(bad_files[nbad++], "%s/bad/%s", TEST_DATA_DIR, list[i]->d_name);
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
}

/*
 * The expectation on the first line of path, into buf: the text after "# expect: " (returns false), or
 * after "# expect-anywhere: " (returns true) for an error inside a file the scenario names, whose message
 * starts with that file rather than the scenario.
 */
static bool read_expectation(const char *path, char *buf, size_t size)
{
	static const char plain[] = "# expect: ", anywhere[] = "# expect-anywhere: ";
	FILE *f = fopen(path, "rb");
	char line[1024];
	bool any;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	any = strncmp(line, anywhere, sizeof anywhere - 1) == 0;
	ck_assert_msg(any || strncmp(line, plain, sizeof plain - 1) == 0,
		      "%s: first line is not '# expect: ...' or '# expect-anywhere: ...'", path);
	snprintf(buf, size, "%s", line + (any ? sizeof anywhere : sizeof plain) - 1);
	ck_assert_msg(buf[0] != '\0', "%s: the expectation is empty", path);
	return any;
}

START_TEST(bad_file_fails_with_its_message)
{
	const char *path = bad_files[_i];
	char expect[1024], want[2048];
	struct scenario sc;
	struct diag d;
	bool anywhere = read_expectation(path, expect, sizeof expect);
	int rc = scenario_load(&sc, path, NULL, 0, &d);

	ck_assert_msg(strchr(d.msg, '\n') == NULL, "message is not one line: %s", d.msg);
	ck_assert_ptr_null(sc.text);
	if (anywhere) {  /* a trace's own message: a user error (exit 2), naming the trace */
		ck_assert_msg(rc == STATUS_EINPUT || rc == STATUS_ENOENT, "%s: rc %d (%s)", path, rc, d.msg);
		ck_assert_msg(strstr(d.msg, expect) != NULL, "%s\n  message: %s\n  expected anywhere: %s", path,
			      d.msg, expect);
		return;
	}
	/* "12:19: msg" must follow "path:"; a message without position follows "path: " */
	snprintf(want, sizeof want, expect[0] >= '0' && expect[0] <= '9' ? "%s:%s" : "%s: %s", path, expect);
	ck_assert_msg(rc == STATUS_EINPUT, "%s: rc %d (%s)", path, rc, d.msg);
	ck_assert_msg(strncmp(d.msg, path, strlen(path)) == 0, "message does not start with the file: %s",
		      d.msg);
	ck_assert_msg(strstr(d.msg, want) != NULL, "%s\n  message: %s\n  expected: %s", path, d.msg, want);
}
END_TEST

START_TEST(enough_bad_files)
{
	ck_assert_int_ge(nbad, 25);
}
END_TEST

#define ADD(s, fn)                                          \
	do {                                                \
		TCase *tc_ = tcase_create(#fn);             \
		tcase_add_test(tc_, fn);                    \
		suite_add_tcase(s, tc_);                    \
	} while (0)

static Suite *scenario_suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *bad = tcase_create("bad_files");

	ADD(s, full_scenario_values);
	ADD(s, minimal_file_takes_defaults);
	ADD(s, new_catalog_type_has_no_reserved_discount);
	ADD(s, target_tracking_defaults_come_from_the_fleet);
	ADD(s, on_demand_max_defaults_to_autoscaling_max);
	ADD(s, numbers_may_be_quoted_and_durations_plain);
	ADD(s, rate_steps_and_uniform_arrivals);
	ADD(s, override_scalar);
	ADD(s, override_list_index);
	ADD(s, override_added_key);
	ADD(s, override_created_mapping);
	ADD(s, override_dotted_catalog_key);
	ADD(s, override_bad_value_names_the_override);
	ADD(s, override_unknown_key_names_the_override);
	ADD(s, override_created_mapping_missing_key);
	ADD(s, override_syntax_errors);
	ADD(s, override_target_not_scalar);
	ADD(s, override_index_out_of_range);
	ADD(s, override_through_a_scalar);
	ADD(s, override_empty_value);
	ADD(s, label_names_the_text);
	ADD(s, missing_file_is_enoent);
	ADD(s, directory_is_enoent);
	ADD(s, huge_file_is_refused);
	ADD(s, empty_file);
	ADD(s, libfyaml_prints_nothing);
	ADD(s, enum_names);
	ADD(s, reserved_terms_and_payments);
	ADD(s, spot_discount_band_and_defaults);
	ADD(s, spot_trace_paths);
	ADD(s, trace_failure_frees_what_was_loaded);
	ADD(s, odcr_takes_the_on_demand_price);
	ADD(s, savings_plan_discount_and_rates);
	ADD(s, capacity_block_times_prices_and_warnings);
	ADD(s, quotas_retry_allocation_values);
	ADD(s, retry_cap_follows_a_long_first_wait);
	ADD(s, catalog_overrides_new_keys);
	ADD(s, vcpu_quota_needs_known_vcpus);
	ADD(s, keys_of_other_options_do_not_apply);
	ADD(s, arrival_defaults);
	ADD(s, diurnal_sinusoid_and_weekly);
	ADD(s, diurnal_hourly_factors);
	ADD(s, mmpp_values);
	ADD(s, flash_crowd_values);
	ADD(s, transforms_values);
	ADD(s, arrival_keys_follow_the_kind);
	ADD(s, sizes_values);
	ADD(s, tokens_service_one_speed);
	ADD(s, tokens_service_decode_table);
	ADD(s, ttft_needs_the_tokens_service);
	ADD(s, trace_azure_file);
	ADD(s, trace_generic_columns);
	ADD(s, trace_mapping_errors);
	ADD(s, rate_series_two_files);
	ADD(s, rate_series_file_missing_is_enoent);
	ADD(s, enough_bad_files);
	tcase_add_loop_test(bad, bad_file_fails_with_its_message, 0, nbad);
	suite_add_tcase(s, bad);
	return s;
}

int main(void)
{
	int rc;

	collect_bad_files();
	rc = test_run_suite(scenario_suite());
	for (int i = 0; i < nbad; i++)
		free(bad_files[i]);
	return rc;
}
