/*
 * check_scenario_workload: the workload side of loading scenarios (models/scenario/scenario.h): arrival kinds
 * (poisson with rate steps, uniform, diurnal, MMPP, flash crowd, trace, rate series, CloudWatch metrics), their
 * transforms,
 * request sizes, the service model, and the trace files a scenario names. Errors must carry the exact
 * message with line and column. Floating-point values are compared with a tolerance of 1e-9 (TOL in
 * scenario_fixtures.h: parsed values, or a few operations away from parsed, none above 1e6).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario.h"
#include "scenario_fixtures.h"
#include "status.h"
#include "testutil.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data (the CMake build defines it)"
#endif

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

START_TEST(rate_steps_and_uniform_arrivals)
{
	const char *sets[] = { "workload.arrivals.kind=uniform",
			       "workload.arrivals.steps.0.at=2h", "workload.arrivals.steps.0.rate_per_s=40",
			       "workload.arrivals.steps.1.at=90000", "workload.arrivals.steps.1.rate_per_s=0" };
	const char *text =
		"name: s\nhorizon: 2d\nslo: {latency_s: 2}\nworkload:\n  arrivals: {kind: poisson, rate_per_s: 10,"
		" steps: [{at: 1h, rate_per_s: 20}, {at: 1d, rate_per_s: 5}]}\n"
		"  service: {kind: constant, mean_s: 1}\nserving: {instance_type: g5.xlarge}\n"
		"fleet:\n  - {option: reserved, count: 2, scope: zonal}\n";
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
		       "kind, prefill_tokens_per_s, decode_tokens_per_s, decode_table, overhead_s, batching, prefill, chunk_tokens");
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

/*
 * format mooncake: the Mooncake keys, times in ms from the trace's start, hash ids with 512-token blocks by
 * default (block_tokens overrides it); the shipped synthetic trace has 3,993 rows, its last at 1,022,025 ms.
 * format jsonl names its keys like CSV columns, with hash_column; where keeps rows by value (generic_4.csv's
 * prompts 100 and 400 are kept: 2 rows, 2 filtered, 500 prompt tokens). format csv is generic.
 */
START_TEST(trace_jsonl_mooncake_and_where)
{
	struct scenario sc;

	parse_workload(&sc, "", "  arrivals: {kind: trace, path: " TEST_DATA_DIR "/../../scenarios/traces/"
		       "mooncake_synthetic_trace.jsonl, format: mooncake}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.mapping.format, TRACE_FORMAT_JSONL);
	ck_assert_str_eq(sc.arrivals.mapping.time_column, "timestamp");
	ck_assert_int_eq(sc.arrivals.mapping.time_format, TRACE_TIME_MILLISECONDS);
	ck_assert_str_eq(sc.arrivals.mapping.hash_column, "hash_ids");
	ck_assert_int_eq(sc.arrivals.mapping.block_tokens, 512);
	ck_assert_int_eq(sc.arrivals.summary.rows, 3993);
	ck_assert_int_eq(sc.arrivals.summary.last_us, INT64_C(1022025000));
	scenario_fini(&sc);

	parse_workload(&sc, "", "  arrivals: {kind: trace, path: " TEST_DATA_DIR "/../../scenarios/traces/"
		       "mooncake_synthetic_trace.jsonl, format: jsonl, hash_column: hash_ids, block_tokens: 16,\n"
		       "             columns: {time: timestamp, time_format: milliseconds, input_tokens: input_length}}\n"
		       EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.mapping.format, TRACE_FORMAT_JSONL);
	ck_assert_str_eq(sc.arrivals.mapping.hash_column, "hash_ids");
	ck_assert_int_eq(sc.arrivals.mapping.block_tokens, 16);
	ck_assert_str_eq(sc.arrivals.mapping.output_tokens_column, "");
	ck_assert_int_eq(sc.arrivals.summary.rows, 3993);
	scenario_fini(&sc);

	parse_workload(&sc, "", GENERIC_TRACE "    format: csv\n    columns: {time: t, time_format: seconds, "
		       "input_tokens: prompt}\n    where: {prompt: [100, '400']}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.mapping.format, TRACE_FORMAT_CSV);
	ck_assert_int_eq(sc.arrivals.mapping.nwhere, 1);
	ck_assert_str_eq(sc.arrivals.mapping.where[0].column, "prompt");
	ck_assert_int_eq(sc.arrivals.mapping.where[0].nvalues, 2);
	ck_assert_str_eq(sc.arrivals.mapping.where[0].values[1], "400");
	ck_assert_int_eq(sc.arrivals.summary.rows, 2);
	ck_assert_int_eq(sc.arrivals.summary.filtered, 2);
	ck_assert_double_eq_tol(sc.arrivals.summary.in_sum, 500, TOL);
	scenario_fini(&sc);
}
END_TEST

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
		       "epoch_ms, seconds or milliseconds, got 'unix'");
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

/* A malformed rate-series file fails the load, with its line: a run never starts on it. */
START_TEST(rate_series_rows_are_checked_at_load)
{
	static const struct { const char *text; const char *says; } bad[] = {
		{ "window_start_s,rate_per_s\n0,3\n600,4\n1200,lots\n", ":4: " },
		{ "window_start_s,rate_per_s\n0,3\n600,4\n300,2\n", ":4: window start 300 s is not after line 3's" },
		{ "window_start_s,rate_per_s\n0,3\n600,-1\n", ":3: " },
		{ "window_start_s,rate_per_s\n", ": no windows; expected at least one row" },
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *path = test_write_file("series.csv", bad[i].text), yaml[2048], want[1024];
		struct scenario sc;
		struct diag d;

		ck_assert_ptr_nonnull(path);
		snprintf(yaml, sizeof yaml, "  arrivals: {kind: rate_series, path: %s}\n" EXP_SERVICE, path);
		ck_assert_int_eq(scenario_parse_string(&sc, workload_text("", yaml), "t.yaml", NULL, 0, &d),
				 STATUS_EINPUT);
		snprintf(want, sizeof want, "%s%s", path, bad[i].says);
		ck_assert_msg(strstr(d.msg, want) != NULL, "case %zu: '%s' lacks '%s'", i, d.msg, want);
		test_remove_file(path);
	}
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
	parse_workload(&sc, "", "  arrivals: {kind: rate_series, path: traces/series_servegen.csv, format: servegen, "
		       "window_s: 60}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.nseries, 1);
	ck_assert_str_eq(sc.arrivals.series[0], "traces/series_servegen.csv");
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

/* kind cloudwatch (scenario_cloudwatch.c): its keys, the file read at load, and the warnings it gives. */
#define CWDATA TEST_DATA_DIR "/cloudwatch/"
START_TEST(cloudwatch_keys_and_warnings)
{
	struct scenario sc;

	parse_workload(&sc, "", "  arrivals: {kind: cloudwatch, path: " CWDATA "get-metric-data.json, label: "
		       "Invocations variant-b, period_s: 60, gaps: hold, within: even}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.kind, ARRIVAL_CLOUDWATCH);
	ck_assert_str_eq(sc.arrivals.path, CWDATA "get-metric-data.json");
	ck_assert_str_eq(sc.arrivals.cw_query.label, "Invocations variant-b");
	ck_assert_str_eq(sc.arrivals.cw_query.id, "");
	ck_assert_int_eq(sc.arrivals.cw_query.index, -1);
	ck_assert_int_eq(sc.arrivals.cw_query.stat, CWMETRICS_SUM);
	ck_assert_int_eq(sc.arrivals.cw_query.period_us, 60 * S_US);
	ck_assert_int_eq(sc.arrivals.cw_gaps, CWMETRICS_GAPS_HOLD);
	ck_assert(sc.arrivals.cw_even);
	/* the PartialData result, and 3 minutes of a 7-day horizon; no gap */
	ck_assert_ptr_nonnull(strstr(sc.warnings, "the CloudWatch result 'm2' has StatusCode PartialData"));
	ck_assert_ptr_nonnull(strstr(sc.warnings, "the metrics cover 0.05 h of the 168 h horizon"));
	ck_assert_ptr_null(strstr(sc.warnings, "no CloudWatch datapoint"));
	ck_assert_ptr_nonnull(strstr(sc.warnings, "the metrics start at 2026-11-02T10:00:00Z, the scenario at "
				     "2026-01-05T00:00:00Z: the first period is replayed at the scenario start"));
	scenario_fini(&sc);
	/* defaults: Sum, inferred period, zero, poisson; m1's gap is a warning */
	parse_workload(&sc, "", "  arrivals: {kind: cloudwatch, path: " CWDATA "get-metric-data.json, id: m1, "
		       "loop: true}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.cw_query.period_us, 0);
	ck_assert_int_eq(sc.arrivals.cw_gaps, CWMETRICS_GAPS_ZERO);
	ck_assert(!sc.arrivals.cw_even);
	ck_assert_ptr_nonnull(strstr(sc.warnings, "1 of the 10 periods of 60 s have no CloudWatch datapoint "
				     "(gaps); filled with zero arrivals"));
	ck_assert_ptr_null(strstr(sc.warnings, "the metrics cover"));  /* looped */
	scenario_fini(&sc);
	parse_workload(&sc, "", "  arrivals: {kind: cloudwatch, path: " CWDATA "get-metric-statistics.json, "
		       "statistic: SampleCount}\n" EXP_SERVICE);
	ck_assert_int_eq(sc.arrivals.cw_query.stat, CWMETRICS_SAMPLE_COUNT);
	scenario_fini(&sc);
}
END_TEST

START_TEST(cloudwatch_errors)
{
	struct scenario sc;
	struct diag d;
	int rc;

	workload_fails("", "  arrivals: {kind: cloudwatch, id: m1}\n" EXP_SERVICE, "t.yaml:6:3: workload.arrivals: "
		       "missing required key 'path' (the JSON of `aws cloudwatch get-metric-data` or "
		       "`get-metric-statistics`)");
	workload_fails("", "  arrivals: {kind: cloudwatch, path: x.json, statistic: Average}\n" EXP_SERVICE,
		       "t.yaml:6:57: workload.arrivals.statistic: Average describes the values of the data points, not "
		       "how many requests there were; expected Sum or SampleCount");
	workload_fails("", "  arrivals: {kind: cloudwatch, path: x.json, within: burst}\n" EXP_SERVICE,
		       "t.yaml:6:54: workload.arrivals.within: expected poisson or even, got 'burst'");
	workload_fails("", "  arrivals: {kind: cloudwatch, path: x.json, window_s: 60}\n" EXP_SERVICE,
		       "t.yaml:6:56: workload.arrivals.window_s: window_s does not apply to kind cloudwatch; expected "
		       "one of: kind, path, id, label, statistic, period_s, gaps, within, scale_rate, speedup, "
		       "growth_per_day, loop, offset");
	/* the file's own message, naming it: several results and no choice */
	rc = scenario_parse_string(&sc, workload_text("", "  arrivals: {kind: cloudwatch, path: " CWDATA
						      "get-metric-data.json}\n" EXP_SERVICE), "t.yaml", NULL, 0, &d);
	ck_assert_int_eq(rc, STATUS_EINPUT);
	ck_assert_str_eq(d.msg, CWDATA "get-metric-data.json:4:14: MetricDataResults: 2 results; expected one, or id "
			 "or label to choose among: id 'm1' (label 'Invocations'), id 'm2' (label 'Invocations "
			 "variant-b')");
	rc = scenario_parse_string(&sc, workload_text("", "  arrivals: {kind: cloudwatch, path: " CWDATA
						      "no-such.json}\n" EXP_SERVICE), "t.yaml", NULL, 0, &d);
	ck_assert_int_eq(rc, STATUS_ENOENT);
	ck_assert_ptr_nonnull(strstr(d.msg, "no-such.json: cannot open"));
}
END_TEST


#define ADD(s, fn)                                          \
	do {                                                \
		TCase *tc_ = tcase_create(#fn);             \
		tcase_add_test(tc_, fn);                    \
		suite_add_tcase(s, tc_);                    \
	} while (0)


static Suite *scenario_workload_suite(void)
{
	Suite *s = suite_create("scenario_workload");

	ADD(s, rate_steps_and_uniform_arrivals);
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
	ADD(s, trace_jsonl_mooncake_and_where);
	ADD(s, trace_mapping_errors);
	ADD(s, rate_series_two_files);
	ADD(s, rate_series_rows_are_checked_at_load);
	ADD(s, rate_series_file_missing_is_enoent);
	ADD(s, cloudwatch_keys_and_warnings);
	ADD(s, cloudwatch_errors);
	return s;
}

int main(void)
{
	return test_run_suite(scenario_workload_suite());
}
