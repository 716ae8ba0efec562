/*
 * check_scenario: loading and validating scenarios (models/scenario/scenario.h): the format, overrides and errors.
 * The fleet is tested in check_scenario_fleet.c and the workload in check_scenario_workload.c.
 *
 * A full scenario must give exact struct values, defaults and catalogue prices included; each form of
 * --set override must edit the document (scalar, list index, added key, created mapping, dotted catalogue
 * key) and errors about overridden values must name the override. Every file in tests/data/bad/ must fail
 * with STATUS_EINPUT and a message that contains its path and the text after "# expect: " on its first
 * line (a "LINE:COL: " prefix there means the message must carry that position); a first line
 * "# expect-anywhere: TEXT" is for an error inside a trace the file names, whose message starts with the
 * trace: the load must fail as a user error (STATUS_EINPUT, or STATUS_ENOENT for a missing trace) with
 * TEXT somewhere in the message. Floating-point values are compared with a tolerance of 1e-9 (TOL in
 * scenario_fixtures.h: they are parsed, or a few operations away from parsed, and none is above 1e6).
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
#include "scenario_fixtures.h"
#include "status.h"
#include "testutil.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data (the CMake build defines it)"
#endif

#define BAD_MAX 1024

START_TEST(full_scenario_values)
{
	struct scenario sc;

	parse_ok(&sc, full_yaml, NULL, 0);
	ck_assert_str_eq(sc.name, "chat-serving");
	ck_assert_uint_eq(sc.seed, 42);
	ck_assert_int_eq(sc.start_unix_us, INT64_C(1796083200) * S_US);
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
	ck_assert_int_eq(sc.start_unix_us, INT64_C(1767225600) * S_US);  /* 2026-01-01T00:00:00Z */
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
	ck_assert_int_eq(sc.fleet[0].term, TERM_1Y);  /* a reservation without `term`: 1 year */
	ck_assert_double_eq_tol(sc.fleet[0].upfront_usd, 0, TOL);
	ck_assert_str_eq(sc.warnings, "");
	ck_assert_str_eq(sc.path, path);
	ck_assert_ptr_nonnull(strstr(sc.text, "name: minimal\n"));
	ck_assert_str_eq(sc.overrides, "");
	scenario_fini(&sc);
}
END_TEST

/* serving.copies: its defaults, autoscaling's bounds in copies, and the warning for GPUs no copy holds. */
START_TEST(copies_defaults_bounds_and_warning)
{
	const char *text =
		"name: c\nhorizon: 1d\nslo: {latency_s: 2}\n"
		"workload:\n  arrivals: {kind: poisson, rate_per_s: 5}\n  service: {kind: exponential, mean_s: 1}\n"
		"serving:\n  instance_type: p5.48xlarge\n  copies: {gpus_per_copy: 3}\n"
		"fleet:\n  - {option: reserved, count: 1, scope: zonal}\n  - {option: on_demand, count: 2, max: 5}\n"
		"autoscaling: {policy: target_tracking, target: 0.5}\n";
	const char *sets[] = { "autoscaling.max=7", "serving.copies.gpus_per_copy=2", "serving.copies.initial=20" };
	struct scenario sc;

	parse_ok(&sc, text, NULL, 0);
	ck_assert(sc.copies.enabled);
	ck_assert_int_eq(sc.copies.gpus, 3);
	ck_assert_int_eq(sc.copies.per_instance, 2);            /* floor(8 / 3) */
	ck_assert_int_eq(sc.serving.slots, 1);                  /* slots_per_copy */
	ck_assert_int_eq(sc.copies.startup_us, 120 * S_US);
	ck_assert_int_eq(sc.copies.startup.kind, DELAY_DEFAULT);
	ck_assert_int_eq(sc.copies.min_instances, 0);
	ck_assert_int_eq(sc.autoscaling.min, 2);                /* 1 reserved x 2 */
	ck_assert_int_eq(sc.autoscaling.max, 12);               /* (1 + 5) instances x 2 */
	ck_assert_int_eq(sc.copies.initial, 6);                 /* (1 + 2) starting instances x 2 */
	ck_assert_ptr_nonnull(strstr(sc.warnings, "serving.copies: 2 copies of 3 GPUs leave 2 of the "
				     "instance's 8 GPUs unused"));
	scenario_fini(&sc);
	/* max in copies; an initial above it is brought down to it; 4 copies of 2 GPUs fill the 8 */
	parse_ok(&sc, text, sets, 3);
	ck_assert_int_eq(sc.copies.per_instance, 4);
	ck_assert_int_eq(sc.autoscaling.max, 7);
	ck_assert_int_eq(sc.copies.initial, 7);
	ck_assert_str_eq(sc.warnings, "");
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

START_TEST(hpa_policy_keys_and_defaults)
{
	char text[2048];
	struct scenario sc;

	/* defaults: 15 s loop, tolerance 0.1, 300 s window, scale-up 100% or 4 pods */
	snprintf(text, sizeof text, "%s%s", small_yaml, "autoscaling: {policy: hpa, target: 0.6}\n");
	parse_ok(&sc, text, NULL, 0);
	ck_assert_int_eq(sc.autoscaling.policy, POLICY_HPA);
	ck_assert_int_eq(sc.autoscaling.resolution_us, 15 * S_US);
	ck_assert_double_eq_tol(sc.autoscaling.tolerance, 0.1, TOL);
	ck_assert_int_eq(sc.autoscaling.stabilization_window_us, 300 * S_US);
	ck_assert_double_eq_tol(sc.autoscaling.scale_up_percent, 100, TOL);
	ck_assert_int_eq(sc.autoscaling.scale_up_pods, 4);
	scenario_fini(&sc);
	snprintf(text, sizeof text, "%s%s", small_yaml, "autoscaling: {policy: hpa, target: 0.6, tolerance: 0.05,"
		 " stabilization_window_s: 10m, scale_up_percent: 50, scale_up_pods: 2, resolution_s: 30}\n");
	parse_ok(&sc, text, NULL, 0);
	ck_assert_double_eq_tol(sc.autoscaling.tolerance, 0.05, TOL);
	ck_assert_int_eq(sc.autoscaling.stabilization_window_us, 600 * S_US);
	ck_assert_double_eq_tol(sc.autoscaling.scale_up_percent, 50, TOL);
	ck_assert_int_eq(sc.autoscaling.scale_up_pods, 2);
	ck_assert_int_eq(sc.autoscaling.resolution_us, 30 * S_US);
	scenario_fini(&sc);
}
END_TEST

START_TEST(step_policy_keys_and_defaults)
{
	/* the brief's example alarms; the scale_in alarm takes its defaults */
	static const char alarms[] =
		"autoscaling:\n  policy: step\n  adjustment_type: percent_change_in_capacity\n"
		"  min_adjustment_magnitude: 2\n"
		"  scale_out: {threshold: 0.7, evaluation_periods: 3, datapoints_to_alarm: 2,\n"
		"              steps: [{lower: 0, upper: 0.1, adjustment: 10}, {lower: 0.1, adjustment: 30}]}\n"
		"  scale_in: {threshold: 0.4, steps: [{upper: 0, adjustment: -10}]}\n";
	char text[2048];
	struct scenario sc;
	const struct step_alarm *out, *in;

	snprintf(text, sizeof text, "%s%s", small_yaml, alarms);
	parse_ok(&sc, text, NULL, 0);
	out = &sc.autoscaling.scale_out;
	in = &sc.autoscaling.scale_in;
	ck_assert_int_eq(sc.autoscaling.policy, POLICY_STEP);
	ck_assert_int_eq(sc.autoscaling.adjustment_type, ADJUST_PERCENT_CHANGE);
	ck_assert_int_eq(sc.autoscaling.min_adjustment_magnitude, 2);
	ck_assert(out->enabled && in->enabled);
	ck_assert_int_eq(out->comparison, COMPARE_GE);
	ck_assert_int_eq(out->evaluation_periods, 3);
	ck_assert_int_eq(out->datapoints_to_alarm, 2);
	ck_assert_int_eq(out->nsteps, 2);
	ck_assert_double_eq_tol(out->steps[0].upper, 0.1, TOL);
	ck_assert_int_eq(out->steps[0].adjustment, 10);
	ck_assert(isinf(out->steps[1].upper) && out->steps[1].upper > 0);  /* omitted upper: +inf */
	ck_assert_int_eq(in->comparison, COMPARE_LE);              /* default below */
	ck_assert_int_eq(in->evaluation_periods, 1);               /* defaults: 1 of 1 */
	ck_assert_int_eq(in->datapoints_to_alarm, 1);
	ck_assert(isinf(in->steps[0].lower) && in->steps[0].lower < 0);  /* omitted lower: -inf */
	ck_assert_int_eq(in->steps[0].adjustment, -10);
	ck_assert_str_eq(scenario_policy_name(POLICY_STEP), "step");
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
		    "of: instance_type, slots_per_instance, queue_timeout_s, startup_s, max_queue, on_interrupt, endpoint, copies, types, kv_cache_tokens, kv_cache, prefix_cache_blocks, routing, queue, prefix_threshold, partitions, multi_model");
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

START_TEST(directory_is_refused)
{
	struct scenario sc;
	struct diag d;

	ck_assert_int_eq(scenario_load(&sc, TEST_DATA_DIR, NULL, 0, &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, TEST_DATA_DIR ": not a regular file (a directory); expected a scenario file");
}
END_TEST

/* A FIFO with no writer: opening it to read would wait forever (the test's timeout says so), reading it too. */
START_TEST(fifo_is_refused_at_once)
{
	char *path = test_write_file("fifo.yaml", "");
	struct scenario sc;
	struct diag d;
	char want[600];

	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(scenario_load(&sc, path, NULL, 0, &d), STATUS_EINPUT);
	snprintf(want, sizeof want, "%s: not a regular file (a FIFO); expected a scenario file", path);
	ck_assert_str_eq(d.msg, want);
	test_remove_file(path);
}
END_TEST

/* A device that never ends is not read to the size limit: it is refused before a byte is read. */
START_TEST(device_is_refused)
{
	struct scenario sc;
	struct diag d;

	ck_assert_int_eq(scenario_load(&sc, "/dev/zero", NULL, 0, &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "/dev/zero: not a regular file (a device); expected a scenario file");
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
	test_remove_file(path);
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
	test_remove_file(path);
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

/* ---- the bad files -------------------------------------------------------------------------------- */

static char *bad_files[BAD_MAX];
static int nbad, nfound;  /* files kept, files in the folder: enough_bad_files checks they agree */

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

	nfound = n;
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
	ck_assert_int_eq(nbad, nfound);  /* none left out (BAD_MAX) */
}
END_TEST

#define ADD(s, fn)                                          \
	do {                                                \
		TCase *tc_ = tcase_create(#fn);             \
		test_add(tc_, fn);                         \
		suite_add_tcase(s, tc_);                    \
	} while (0)

/* serving.endpoint: realtime by default, whose autoscaling min defaults to at least 1 without copies (a
 * real-time variant needs 1 or more, SOURCES.md [sm-realtime-min1]); async keeps the reserved count (0 here)
 * and takes min 0. */
START_TEST(endpoint_and_its_min)
{
	static const char text[] =
		"name: ep\nhorizon: 1d\nslo: {latency_s: 2}\n"
		"workload:\n  arrivals: {kind: poisson, rate_per_s: 10}\n  service: {kind: exponential, mean_s: 1}\n"
		"serving: {instance_type: g5.xlarge}\n"
		"fleet:\n  - {option: on_demand, count: 1, max: 4}\n"
		"autoscaling: {policy: target_tracking, target: 0.5}\n";
	const char *async[] = { "serving.endpoint=async" };
	const char *async_min0[] = { "serving.endpoint=async", "autoscaling.min=0" };
	struct scenario sc;

	parse_ok(&sc, text, NULL, 0);
	ck_assert_int_eq(sc.serving.endpoint, ENDPOINT_REALTIME);
	ck_assert_int_eq(sc.autoscaling.min, 1);
	scenario_fini(&sc);
	parse_ok(&sc, text, async, 1);
	ck_assert_int_eq(sc.serving.endpoint, ENDPOINT_ASYNC);
	ck_assert_int_eq(sc.autoscaling.min, 0);
	scenario_fini(&sc);
	parse_ok(&sc, text, async_min0, 2);
	ck_assert_int_eq(sc.autoscaling.min, 0);
	scenario_fini(&sc);
}
END_TEST

static Suite *scenario_suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *bad = tcase_create("bad_files");

	ADD(s, full_scenario_values);
	ADD(s, minimal_file_takes_defaults);
	ADD(s, numbers_may_be_quoted_and_durations_plain);
	ADD(s, copies_defaults_bounds_and_warning);
	ADD(s, override_scalar);
	ADD(s, override_list_index);
	ADD(s, override_added_key);
	ADD(s, override_created_mapping);
	ADD(s, override_dotted_catalog_key);
	ADD(s, step_policy_keys_and_defaults);
	ADD(s, hpa_policy_keys_and_defaults);
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
	ADD(s, directory_is_refused);
	ADD(s, fifo_is_refused_at_once);
	ADD(s, device_is_refused);
	ADD(s, huge_file_is_refused);
	ADD(s, empty_file);
	ADD(s, libfyaml_prints_nothing);
	ADD(s, enum_names);
	ADD(s, enough_bad_files);
	ADD(s, endpoint_and_its_min);
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
