/*
 * scenario_fixtures: what the three scenario suites share (check_scenario.c, check_scenario_fleet.c,
 * check_scenario_workload.c): two scenario texts and two parse helpers that assert the outcome.
 *
 * full_yaml sets every top-level section; small_yaml is the smallest valid scenario (2 reserved g5.xlarge
 * plus on-demand count 1, max 6), for tests that override parts of it. Both are static strings: borrow them.
 * parse_ok fills a caller-owned struct scenario (the caller calls scenario_fini); parse_fails leaves none
 * behind. Both parse under the label "t.yaml" and fail the running Check test on a wrong outcome.
 * The short names, without a module prefix, are kept because these are test fixtures read in every test body.
 *
 * Floating-point values are compared with TOL = 1e-9: they are parsed, or a few operations away from
 * parsed, and none is above 1e6. S_US is one second in the engine's microseconds.
 */
#ifndef GPUCAP_SCENARIO_FIXTURES_H
#define GPUCAP_SCENARIO_FIXTURES_H

#include <stdint.h>

#include "scenario.h"

#define TOL 1e-9
#define S_US INT64_C(1000000)

/* A scenario with every section set: name chat-serving, p5.48xlarge priced 50 in its catalog. */
extern const char *const full_yaml;

/* The smallest valid scenario, for tests that override parts of it. */
extern const char *const small_yaml;

/* Parse text with the given overrides (borrowed), asserting success; sc is filled (caller finis it). */
void parse_ok(struct scenario *sc, const char *text, const char *const *sets, int nsets);

/* Parse text with overrides, asserting STATUS_EINPUT, the exact message and a zeroed failed load. */
void parse_fails(const char *text, const char *const *sets, int nsets, const char *msg);

#endif
