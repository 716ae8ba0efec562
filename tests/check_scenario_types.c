/*
 * check_scenario_types: the loader's side of several instance types (scenario_types.c): serving.types and
 * fleet[i].instance_type, the defaults an entry takes from its own type, and every refusal.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "scenario_fixtures.h"
#include "status.h"
#include "testutil.h"

/* g6e.xlarge serving (1 GPU, 4 vCPUs), p4d.24xlarge listed; one entry of each. */
static const char two[] =
	"name: two\nhorizon: 1d\nslo: {latency_s: 2}\n"
	"workload:\n  arrivals: {kind: poisson, rate_per_s: 5}\n  service: {kind: exponential, mean_s: 1}\n"
	"serving:\n  instance_type: g6e.xlarge\n  slots_per_instance: 3\n"
	"  types: {p4d.24xlarge: {slots_per_instance: 16, service_scale: 0.25}, g6e.12xlarge: {}}\n"
	"fleet:\n  - {option: reserved, count: 1, scope: zonal}\n  - {option: on_demand, instance_type: p4d.24xlarge, max: 2}\n"
	"  - {option: spot, instance_type: g6e.12xlarge, max: 2}\n";

START_TEST(types_and_defaults)
{
	const struct catalog_entry *g6e = catalog_find("g6e.xlarge"), *p4d = catalog_find("p4d.24xlarge"),
				   *g12 = catalog_find("g6e.12xlarge");
	struct scenario sc;

	parse_ok(&sc, two, NULL, 0);
	ck_assert_int_eq(sc.ntypes, 3);
	ck_assert_str_eq(sc.types[0].name, "g6e.xlarge");
	ck_assert_int_eq(sc.types[0].slots, 3);
	ck_assert_double_eq_tol(sc.types[0].service_scale, 1, TOL);
	ck_assert_int_eq(sc.types[0].gpus, 1);
	ck_assert_str_eq(sc.types[1].name, "p4d.24xlarge");
	ck_assert_int_eq(sc.types[1].slots, 16);
	ck_assert_double_eq_tol(sc.types[1].service_scale, 0.25, TOL);
	ck_assert_int_eq(sc.types[1].gpus, 8);
	ck_assert_int_eq(sc.types[1].vcpus, 96);
	ck_assert_int_eq(sc.types[1].family, 'p');
	/* a listed type without keys: the serving type's slots, scale 1 */
	ck_assert_int_eq(sc.types[2].slots, 3);
	ck_assert_double_eq_tol(sc.types[2].service_scale, 1, TOL);
	ck_assert_int_eq(sc.fleet[0].type, 0);
	ck_assert_int_eq(sc.fleet[1].type, 1);
	ck_assert_int_eq(sc.fleet[2].type, 2);
	/* prices from the entry's own type: reserved g6e at od x (1 - 1y discount), on-demand p4d at its od,
	 * Spot g6e.12xlarge at its od less its spot discount */
	ck_assert_double_eq_tol(sc.fleet[0].usd_per_h, g6e->od_usd_per_h * (1 - g6e->reserved_discount), 1e-9);
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, p4d->od_usd_per_h, 1e-9);
	ck_assert_double_eq_tol(sc.fleet[2].usd_per_h, g12->od_usd_per_h * (1 - g12->spot_discount), 1e-9);
	/* the serving fields stay the serving type's after the other entries were read */
	ck_assert_str_eq(sc.serving.instance_type, "g6e.xlarge");
	ck_assert_double_eq_tol(sc.serving.od_usd_per_h, g6e->od_usd_per_h, 1e-9);
	ck_assert_int_eq(sc.serving.gpus, 1);
	scenario_fini(&sc);
}
END_TEST

/*
 * A savings_plan's discount for each type (SOURCES.md [sp-highest-discount]): without rates or discount,
 * each type's catalogue discount; with `discount: 0.4`, 0.4 for every type; with rates, 1 - rate / the
 * type's On-Demand price (p4d: 1 - 11 / od), the catalogue's for a type the rates do not name (g6e.12xlarge),
 * and a rate for a type the scenario does not hold (p5.48xlarge) is not used.
 */
START_TEST(savings_plan_discount_per_type)
{
	const struct catalog_entry *g6e = catalog_find("g6e.xlarge"), *p4d = catalog_find("p4d.24xlarge"),
				   *g12 = catalog_find("g6e.12xlarge");
	char text[1024];
	struct scenario sc;

	snprintf(text, sizeof text, "%scommitments:\n  - {option: savings_plan, commit_usd_per_h: 5}\n", two);
	parse_ok(&sc, text, NULL, 0);
	ck_assert_double_eq_tol(sc.commit[0].type_discount[0], g6e->savings_plan_discount, 1e-12);
	ck_assert_double_eq_tol(sc.commit[0].type_discount[1], p4d->savings_plan_discount, 1e-12);
	ck_assert_double_eq_tol(sc.commit[0].type_discount[2], g12->savings_plan_discount, 1e-12);
	scenario_fini(&sc);
	snprintf(text, sizeof text, "%scommitments:\n  - {option: savings_plan, commit_usd_per_h: 5, discount: 0.4}\n", two);
	parse_ok(&sc, text, NULL, 0);
	for (int t = 0; t < 3; t++)
		ck_assert_double_eq_tol(sc.commit[0].type_discount[t], 0.4, 1e-12);
	scenario_fini(&sc);
	snprintf(text, sizeof text, "%scommitments:\n  - {option: savings_plan, commit_usd_per_h: 5, rates: {g6e.xlarge: 1, "
		 "p4d.24xlarge: 11, p5.48xlarge: 30}}\n", two);
	parse_ok(&sc, text, NULL, 0);
	ck_assert_double_eq_tol(sc.commit[0].type_discount[0], 1 - 1 / g6e->od_usd_per_h, 1e-12);
	ck_assert_double_eq_tol(sc.commit[0].discount, 1 - 1 / g6e->od_usd_per_h, 1e-12);
	ck_assert_double_eq_tol(sc.commit[0].type_discount[1], 1 - 11 / p4d->od_usd_per_h, 1e-12);
	ck_assert_double_eq_tol(sc.commit[0].type_discount[2], g12->savings_plan_discount, 1e-12);
	scenario_fini(&sc);
}
END_TEST

START_TEST(one_type_by_default)
{
	struct scenario sc;

	parse_ok(&sc, small_yaml, NULL, 0);
	ck_assert_int_eq(sc.ntypes, 1);
	ck_assert_str_eq(sc.types[0].name, "g5.xlarge");
	ck_assert_int_eq(sc.types[0].slots, sc.serving.slots);
	for (int i = 0; i < sc.nfleet; i++)
		ck_assert_int_eq(sc.fleet[i].type, 0);
	scenario_fini(&sc);
}
END_TEST

/* A scenario catalog: override reaches a listed type: its price is the entry's default. */
START_TEST(catalog_override_of_a_listed_type)
{
	const char *sets[] = { "catalog.p4d.24xlarge.usd_per_h=20" };
	struct scenario sc;

	parse_ok(&sc, two, sets, 1);
	ck_assert_double_eq_tol(sc.fleet[1].usd_per_h, 20, TOL);
	ck_assert_double_eq_tol(sc.types[1].od_usd_per_h, 20, TOL);
	scenario_fini(&sc);
}
END_TEST

START_TEST(refusals)
{
	const char *unlisted[] = { "fleet.1.instance_type=p5.48xlarge" };
	const char *scale_zero[] = { "serving.types.p4d.24xlarge.service_scale=0" };
	const char *jobs[] = { "fleet.1.use=jobs" };
	const char *unknown[] = { "serving.types.p4d.24xlarge.speed=2" };
	const char *fluid[] = { "mode=fluid" };
	const char *decode[] = { "serving.types.p4d.24xlarge.decode_tokens_per_s=40" };

	parse_fails(two, unlisted, 1, "--set fleet.1.instance_type=p5.48xlarge: fleet.1.instance_type: "
		    "'p5.48xlarge' has no speed in this scenario; expected the serving type (g6e.xlarge), "
		    "p4d.24xlarge, g6e.12xlarge, or add it under serving.types");
	parse_fails("name: s\nhorizon: 1d\nslo: {latency_s: 2}\n"
		    "workload:\n  arrivals: {kind: poisson, rate_per_s: 5}\n  service: {kind: exponential, mean_s: 1}\n"
		    "serving:\n  instance_type: g6e.xlarge\n  types: {g6e.xlarge: {service_scale: 2}}\n"
		    "fleet:\n  - {option: on_demand, max: 2}\n", NULL, 0,
		    "t.yaml:9:11: serving.types.g6e.xlarge: g6e.xlarge is the serving type (serving.instance_type), "
		    "whose speed is serving.slots_per_instance at service_scale 1; expected another type");
	parse_fails(two, scale_zero, 1, "--set serving.types.p4d.24xlarge.service_scale=0: "
		    "serving.types.p4d.24xlarge.service_scale: expected a number > 0 and <= 1000, got '0'");
	parse_fails(two, jobs, 1, "t.yaml:13:40: fleet.1.instance_type: an entry for jobs (use: jobs) must be of "
		    "the serving type g6e.xlarge; expected no instance_type");
	parse_fails(two, unknown, 1, "--set serving.types.p4d.24xlarge.speed=2: serving.types.p4d.24xlarge: unknown "
		    "key 'speed'; expected one of: slots_per_instance, service_scale, prefill_tokens_per_s, "
		    "decode_tokens_per_s, decode_table, kv_cache_tokens");
	parse_fails(two, decode, 1, "--set serving.types.p4d.24xlarge.decode_tokens_per_s=40: "
		    "serving.types.p4d.24xlarge.decode_tokens_per_s: decode_tokens_per_s needs workload.service.kind "
		    "tokens; expected service_scale for this service kind");
	parse_fails(two, fluid, 1, "t.yaml:10:3: serving.types: several instance types are not supported in mode: "
		    "fluid; expected mode: requests");
}
END_TEST

/* A listed type must be in the catalogue or catalog: (the message lists the catalogue: compared in part). */
START_TEST(listed_type_must_exist)
{
	const char *want = "t.yaml:9:11: serving.types.x9.huge: unknown instance type 'x9.huge'; expected a type "
			   "from the catalogue (";
	struct scenario sc;
	struct diag d = { "" };

	ck_assert_int_eq(scenario_parse_string(&sc, "name: s\nhorizon: 1d\nslo: {latency_s: 2}\n"
		"workload:\n  arrivals: {kind: poisson, rate_per_s: 5}\n  service: {kind: exponential, mean_s: 1}\n"
		"serving:\n  instance_type: g6e.xlarge\n  types: {x9.huge: {}}\n"
		"fleet:\n  - {option: on_demand, max: 2}\n", "t.yaml", NULL, 0, &d), STATUS_EINPUT);
	ck_assert_msg(strncmp(d.msg, want, strlen(want)) == 0, "message: %s", d.msg);
	ck_assert_msg(strstr(d.msg, "p4d.24xlarge") && strstr(d.msg, "or one defined under catalog:"), "message: %s",
		      d.msg);
}
END_TEST

START_TEST(refused_with_copies_and_count_auto)
{
	parse_fails("name: c\nhorizon: 1d\nslo: {latency_s: 2}\n"
		    "workload:\n  arrivals: {kind: poisson, rate_per_s: 5}\n  service: {kind: exponential, mean_s: 1}\n"
		    "serving:\n  instance_type: g6.12xlarge\n  copies: {gpus_per_copy: 1}\n  types: {p4d.24xlarge: {}}\n"
		    "fleet:\n  - {option: on_demand, max: 2}\n", NULL, 0,
		    "t.yaml:10:3: serving.types: several instance types are not supported with serving.copies; "
		    "expected one or the other");
	parse_fails("name: a\nhorizon: 1d\nslo: {latency_s: 2}\n"
		    "workload:\n  arrivals: {kind: poisson, rate_per_s: 5}\n  service: {kind: exponential, mean_s: 1}\n"
		    "serving:\n  instance_type: g6e.xlarge\n  types: {p4d.24xlarge: {}}\n"
		    "fleet:\n  - {option: on_demand, instance_type: p4d.24xlarge, count: auto, max: 4}\n"
		    "autoscaling: {policy: target_tracking, target: 0.7}\n", NULL, 0,
		    "t.yaml:11:40: fleet.0.instance_type: count: auto is worked out for the serving type g6e.xlarge; "
		    "expected a number of instances for p4d.24xlarge");
}
END_TEST

/* capacity_unit: each entry's weight, and autoscaling's defaults in that unit. */
START_TEST(capacity_unit_weights_and_defaults)
{
	const char *gpus[] = { "autoscaling.capacity_unit=gpus", "autoscaling.policy=target_tracking",
			       "autoscaling.target=0.7", "fleet.1.max=2", "fleet.2.max=2" };
	const char *slots[] = { "autoscaling.capacity_unit=slots", "autoscaling.policy=target_tracking",
				"autoscaling.target=0.7", "fleet.1.max=2", "fleet.2.max=2" };
	struct scenario sc;

	/* gpus: g6e.xlarge 1, p4d.24xlarge 8, g6e.12xlarge 4. min = reserved 1 x 1 = 1; max = 1 + 2 x 8 + 2 x 4 = 25 */
	parse_ok(&sc, two, gpus, 5);
	ck_assert_int_eq(sc.autoscaling.capacity_unit, UNIT_GPUS);
	ck_assert_int_eq(sc.fleet[0].weight, 1);
	ck_assert_int_eq(sc.fleet[1].weight, 8);
	ck_assert_int_eq(sc.fleet[2].weight, 4);
	ck_assert_int_eq(sc.autoscaling.min, 1);
	ck_assert_int_eq(sc.autoscaling.max, 25);
	scenario_fini(&sc);
	/* slots: 3, 16, 3. min = 3; max = 3 + 32 + 6 = 41 */
	parse_ok(&sc, two, slots, 5);
	ck_assert_int_eq(sc.fleet[1].weight, 16);
	ck_assert_int_eq(sc.autoscaling.min, 3);
	ck_assert_int_eq(sc.autoscaling.max, 41);
	scenario_fini(&sc);
	/* default: instances, every weight 1 */
	parse_ok(&sc, two, NULL, 0);
	for (int i = 0; i < sc.nfleet; i++)
		ck_assert_int_eq(sc.fleet[i].weight, 1);
	scenario_fini(&sc);
}
END_TEST

/* An entry's default max, with a policy and without its own max, is autoscaling.max in its instances:
 * 40 GPUs / 8 GPUs a p4d = 5. */
START_TEST(capacity_unit_entry_default_max)
{
	struct scenario sc;

	parse_ok(&sc, "name: m\nhorizon: 1d\nslo: {latency_s: 2}\n"
		 "workload:\n  arrivals: {kind: poisson, rate_per_s: 5}\n  service: {kind: exponential, mean_s: 1}\n"
		 "serving:\n  instance_type: g6e.xlarge\n  types: {p4d.24xlarge: {}, g6e.12xlarge: {}}\n"
		 "fleet:\n  - {option: on_demand, instance_type: p4d.24xlarge, count: 1}\n"
		 "  - {option: spot, instance_type: g6e.12xlarge}\n"
		 "autoscaling: {policy: target_tracking, target: 0.7, capacity_unit: gpus, min: 8, max: 40}\n",
		 NULL, 0);
	ck_assert_int_eq(sc.fleet[0].max, 5);   /* 40 / 8 */
	ck_assert_int_eq(sc.fleet[1].max, 10);  /* 40 / 4 */
	scenario_fini(&sc);
}
END_TEST

START_TEST(capacity_unit_refusals)
{
	const char *metric[] = { "autoscaling.capacity_unit=gpus", "autoscaling.policy=target_tracking",
				 "autoscaling.target=100", "autoscaling.metric=invocations_per_instance",
				 "fleet.1.max=2", "fleet.2.max=2" };
	const char *word[] = { "autoscaling.capacity_unit=vcpus" };

	parse_fails(two, metric, 6, "--set autoscaling.capacity_unit=gpus: autoscaling.capacity_unit: a policy "
		    "metric other than concurrency_per_instance counts per instance; expected metric "
		    "concurrency_per_instance (per slot, whatever the unit) or capacity_unit: instances");
	parse_fails(two, word, 1, "--set autoscaling.capacity_unit=vcpus: autoscaling.capacity_unit: expected "
		    "instances, gpus or slots, got 'vcpus'");
}
END_TEST

static Suite *scenario_types_suite(void)
{
	Suite *s = suite_create("scenario_types");
	TCase *tc = tcase_create("load");

	tcase_add_test(tc, types_and_defaults);
	tcase_add_test(tc, one_type_by_default);
	tcase_add_test(tc, savings_plan_discount_per_type);
	tcase_add_test(tc, catalog_override_of_a_listed_type);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, listed_type_must_exist);
	tcase_add_test(tc, refused_with_copies_and_count_auto);
	tcase_add_test(tc, capacity_unit_weights_and_defaults);
	tcase_add_test(tc, capacity_unit_entry_default_max);
	tcase_add_test(tc, capacity_unit_refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(scenario_types_suite());
}
