/*
 * check_scenario_schema: the schema's tables against the loader's, both ways. The shipped tables pass;
 * tables that miss a key the loader accepts, or describe a key it does not, fail the generation with a
 * message naming the key, and nothing is written.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_schema.h"
#include "status.h"
#include "testutil.h"

/* The schema of root written into a string (returns owned), *rc its status. */
static char *written(const struct scenario_schema_map *root, struct diag *d, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	diag_clear(d);
	*rc = scenario_schema_write(root, f, d);
	fclose(f);
	return buf;
}

START_TEST(test_shipped_tables_match_the_loader)
{
	struct diag d;
	int rc;
	char *json = written(&scenario_schema_root, &d, &rc);

	ck_assert_msg(rc == STATUS_OK, "%s", d.msg);
	ck_assert_str_eq(d.msg, "");
	ck_assert_msg(strncmp(json, "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\"", 60) == 0,
		      "%.80s", json);
	/* a key of each kind of table: a plain mapping, a variant, a flat variant list, a list item */
	ck_assert_ptr_nonnull(strstr(json, "\"slots_per_instance\""));
	ck_assert_ptr_nonnull(strstr(json, "\"burst_mean_s\""));
	ck_assert_ptr_nonnull(strstr(json, "\"stabilization_window_s\": false"));
	ck_assert_ptr_nonnull(strstr(json, "\"datapoints_to_alarm\""));
	free(json);
}
END_TEST

/* A loader key list like slo's first two keys (the real one grew: these tests need a fixed list). */
static const struct scenario_load_names slo_two_keys = { (const char *const[]){ "latency_s", "ttft_s", NULL }, 2 };

/* slo with the loader's keys (latency_s, ttft_s) but an entry for latency_s only. */
static const struct scenario_schema_key slo_short[] = {
	{ .key = "latency_s", .type = SCHEMA_DURATION, .hi = 1 },
	{ .key = NULL } };
static const struct scenario_schema_map slo_missing = { "slo", &slo_two_keys, .entries = slo_short };

START_TEST(test_key_without_entry_fails)
{
	struct diag d;
	int rc;
	char *json = written(&slo_missing, &d, &rc);

	ck_assert_int_eq(rc, STATUS_EINTERNAL);
	ck_assert_msg(strstr(d.msg, "slo.ttft_s") && strstr(d.msg, "no schema entry"), "%s", d.msg);
	ck_assert_str_eq(json, "");  /* nothing written */
	free(json);
}
END_TEST

static const struct scenario_schema_key slo_extra[] = {
	{ .key = "latency_s", .type = SCHEMA_DURATION, .hi = 1 },
	{ .key = "ttft_s", .type = SCHEMA_DURATION, .hi = 1 },
	{ .key = "tpot_s", .type = SCHEMA_DURATION, .hi = 1 },
	{ .key = NULL } };
static const struct scenario_schema_map slo_unknown = { "slo", &slo_two_keys, .entries = slo_extra };

START_TEST(test_entry_without_key_fails)
{
	struct diag d;
	int rc;
	char *json = written(&slo_unknown, &d, &rc);

	ck_assert_int_eq(rc, STATUS_EINTERNAL);
	ck_assert_msg(strstr(d.msg, "slo.tpot_s") && strstr(d.msg, "does not accept"), "%s", d.msg);
	free(json);
}
END_TEST

/* A size distribution (kind: constant | exponential | lognormal): cv, lognormal's own key, left out. */
static const struct scenario_schema_key size_no_cv[] = {
	{ .key = "kind", .type = SCHEMA_SELECTOR },
	{ .key = "mean", .type = SCHEMA_NUMBER, .bounds = &scenario_load_tokens },
	{ .key = NULL } };
static const struct scenario_schema_map size_missing = { "size", .variants = &scenario_load_size,
	.entries = size_no_cv };

START_TEST(test_variant_key_without_entry_fails)
{
	struct diag d;

	ck_assert_int_eq(scenario_schema_check(&size_missing, &d), STATUS_EINTERNAL);
	ck_assert_msg(strstr(d.msg, "size.cv under kind lognormal"), "%s", d.msg);
}
END_TEST

/* cv described for kind constant only (variant 0), where the loader refuses it. */
static const struct scenario_schema_key size_cv_constant[] = {
	{ .key = "kind", .type = SCHEMA_SELECTOR },
	{ .key = "mean", .type = SCHEMA_NUMBER, .bounds = &scenario_load_tokens },
	{ .key = "cv", .type = SCHEMA_NUMBER, .variants = SCHEMA_V(0), .bounds = &scenario_load_cv },
	{ .key = NULL } };
static const struct scenario_schema_map size_wrong_variant = { "size", .variants = &scenario_load_size,
	.entries = size_cv_constant };

START_TEST(test_variant_entry_without_key_fails)
{
	struct diag d;

	ck_assert_int_eq(scenario_schema_check(&size_wrong_variant, &d), STATUS_EINTERNAL);
	/* lognormal's cv has no entry now, and the constant one names a key constant does not take */
	ck_assert_msg(strstr(d.msg, "size.cv"), "%s", d.msg);
}
END_TEST

/* A mapping inside a good one is checked too. */
static const struct scenario_schema_key top_nested[] = {
	{ .key = "slo", .type = SCHEMA_MAP, .map = &slo_unknown },
	{ .key = NULL } };
static const struct scenario_load_names only_slo = { (const char *const[]){ "slo", NULL }, 1 };
static const struct scenario_schema_map nested = { "(top level)", &only_slo, .entries = top_nested };

START_TEST(test_nested_mapping_is_checked)
{
	struct diag d;

	ck_assert_int_eq(scenario_schema_check(&nested, &d), STATUS_EINTERNAL);
	ck_assert_msg(strstr(d.msg, "slo.tpot_s"), "%s", d.msg);
}
END_TEST

/* A key limited to some variants must be one the loader accepts. */
static const struct scenario_schema_only slo_only[] = { { .key = "tpot_s", .variants = 1 }, { .key = NULL } };
static const struct scenario_schema_key slo_both[] = {
	{ .key = "latency_s", .type = SCHEMA_DURATION, .hi = 1 },
	{ .key = "ttft_s", .type = SCHEMA_DURATION, .hi = 1 },
	{ .key = NULL } };
static const struct scenario_schema_map slo_bad_only = { "slo", &slo_two_keys, "kind",
	&scenario_load_startup_names, slo_only, NULL, false, slo_both, NULL, NULL };

START_TEST(test_only_key_must_be_accepted)
{
	struct diag d;

	ck_assert_int_eq(scenario_schema_check(&slo_bad_only, &d), STATUS_EINTERNAL);
	ck_assert_msg(strstr(d.msg, "slo.tpot_s is limited"), "%s", d.msg);
}
END_TEST

static Suite *scenario_schema_suite(void)
{
	Suite *s = suite_create("scenario_schema");
	TCase *tc = tcase_create("tables");

	tcase_add_test(tc, test_shipped_tables_match_the_loader);
	tcase_add_test(tc, test_key_without_entry_fails);
	tcase_add_test(tc, test_entry_without_key_fails);
	tcase_add_test(tc, test_variant_key_without_entry_fails);
	tcase_add_test(tc, test_variant_entry_without_key_fails);
	tcase_add_test(tc, test_nested_mapping_is_checked);
	tcase_add_test(tc, test_only_key_must_be_accepted);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(scenario_schema_suite());
}
