/*
 * check_availtrace: SkyPilot spot availability traces (models/formats/availtrace.h).
 *
 * tests/data/spot/avail.json (written for these tests) has ticks of 600 s with counts [2, 0, 1];
 * avail-fractional-gap.json has ticks of 0.25 s, counts written 4, 3.0, 0 and 1e0, and an extra metadata
 * key. Every file in tests/data/spot/bad/avail-* is listed in bad[] with the message it must give.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "availtrace.h"
#include "status.h"
#include "testutil.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data (the CMake build defines it)"
#endif

#define SPOT TEST_DATA_DIR "/spot/"
#define US INT64_C(1000000)

static struct availtrace load_ok(const char *path)
{
	struct availtrace at;
	struct diag d = { "" };
	int rc = availtrace_load(&at, path, NULL, &d);

	ck_assert_msg(rc == STATUS_OK, "%s: rc %d: %s", path, rc, d.msg);
	return at;
}

START_TEST(ticks_cover_half_open_intervals)
{
	struct availtrace at = load_ok(SPOT "avail.json");

	ck_assert_int_eq(at.gap_us, 600 * US);
	ck_assert_int_eq(at.n, 3);
	ck_assert_int_eq(availtrace_at(&at, 0), 2);
	ck_assert_int_eq(availtrace_at(&at, 600 * US - 1), 2);  /* 599.999999 s */
	ck_assert_int_eq(availtrace_at(&at, 600 * US), 0);
	ck_assert_int_eq(availtrace_at(&at, 1200 * US), 1);
	ck_assert_int_eq(availtrace_at(&at, 1800 * US - 1), 1);
	availtrace_fini(&at);
}
END_TEST

START_TEST(trace_repeats_past_its_end)
{
	struct availtrace at = load_ok(SPOT "avail.json");

	ck_assert_int_eq(availtrace_at(&at, 1800 * US), 2);
	ck_assert_int_eq(availtrace_at(&at, 2400 * US), 0);
	ck_assert_int_eq(availtrace_at(&at, 1000 * 1800 * US + 1200 * US), 1);
	ck_assert_int_eq(availtrace_at(&at, INT64_MAX), 2);  /* tick 15372286728, and 15372286728 % 3 == 0 */
	availtrace_fini(&at);
}
END_TEST

START_TEST(before_start_is_first_tick)
{
	struct availtrace at = load_ok(SPOT "avail.json");

	ck_assert_int_eq(availtrace_at(&at, -1), 2);
	ck_assert_int_eq(availtrace_at(&at, -700 * US), 2);
	ck_assert_int_eq(availtrace_at(&at, INT64_MIN), 2);
	availtrace_fini(&at);
}
END_TEST

START_TEST(fractional_gap_and_whole_floats)
{
	struct availtrace at = load_ok(SPOT "avail-fractional-gap.json");

	ck_assert_int_eq(at.gap_us, 250000);
	ck_assert_int_eq(at.n, 4);
	ck_assert_int_eq(at.count[1], 3);
	ck_assert_int_eq(at.count[3], 1);
	ck_assert_int_eq(availtrace_at(&at, 250000), 3);
	ck_assert_int_eq(availtrace_at(&at, 749999), 0);
	ck_assert_int_eq(availtrace_at(&at, US), 4);
	availtrace_fini(&at);
}
END_TEST

START_TEST(missing_file_is_enoent)
{
	struct availtrace at;
	struct diag d = { "" };

	ck_assert_int_eq(availtrace_load(&at, SPOT "no-such.json", "trace", &d), STATUS_ENOENT);
	ck_assert_ptr_nonnull(strstr(d.msg, "trace: cannot open"));
	ck_assert_ptr_null(at.count);
	ck_assert_int_eq(at.n, 0);
}
END_TEST

START_TEST(libfyaml_prints_nothing)
{
	struct availtrace at;
	struct diag d = { "" };
	FILE *err = tmpfile();
	int saved = dup(2);

	ck_assert_ptr_nonnull(err);
	fflush(stderr);
	dup2(fileno(err), 2);
	availtrace_load(&at, SPOT "bad/avail-truncated.json", NULL, &d);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ck_assert_int_eq(lseek(fileno(err), 0, SEEK_END), 0);
	fclose(err);
	ck_assert_ptr_nonnull(strstr(d.msg, "invalid JSON"));
}
END_TEST

START_TEST(fini_accepts_null_and_zeroed)
{
	struct availtrace at = { 0 };

	availtrace_fini(NULL);
	availtrace_fini(&at);
	availtrace_fini(&at);
}
END_TEST

/* ---- the bad files -------------------------------------------------------------------------------- */

static const struct {
	const char *file;  /* under tests/data/spot/bad/ */
	const char *msg;   /* must appear in the message */
} bad[] = {
	{ "avail-binary.json",
	  "avail-binary.json:1: a NUL byte or bytes that are not UTF-8; expected a JSON text file" },
	{ "avail-data-empty.json",
	  "avail-data-empty.json:3:4: data: expected a non-empty list of instance counts, got an empty "
	  "list" },
	{ "avail-data-missing.json",
	  "avail-data-missing.json:1:3: missing key 'data'" },
	{ "avail-data-not-list.json",
	  "avail-data-not-list.json:3:13: data: expected a non-empty list of instance counts, got a "
	  "mapping" },
	{ "avail-empty.json",
	  "avail-empty.json:1: the file is empty" },
	{ "avail-fractional-count.json",
	  "avail-fractional-count.json:3:15: data[1]: expected a whole number of instances >= 0, got 3.5" },
	{ "avail-gap-missing.json",
	  "avail-gap-missing.json:1:16: metadata: missing key 'gap_seconds'; expected a positive number "
	  "of seconds" },
	{ "avail-gap-negative.json",
	  "avail-gap-negative.json:2:31: metadata.gap_seconds: expected a positive number of seconds, at "
	  "most 10 years, got -300" },
	{ "avail-gap-string.json",
	  "avail-gap-string.json:1:31: metadata.gap_seconds: expected a positive number of seconds, at "
	  "most 10 years, got the string '300'" },
	{ "avail-gap-zero.json",
	  "avail-gap-zero.json:1:30: metadata.gap_seconds: expected a positive number of seconds, at most "
	  "10 years, got 0" },
	{ "avail-negative-count.json",
	  "avail-negative-count.json:4:5: data[2]: expected a whole number of instances >= 0, got -1" },
	{ "avail-not-mapping.json",
	  "avail-not-mapping.json:1:4: expected {\"metadata\": {\"gap_seconds\": G}, \"data\": [...]} at "
	  "top level, got a list" },
	{ "avail-null-count.json",
	  "avail-null-count.json:3:15: data[1]: expected a whole number of instances >= 0, got null" },
	{ "avail-string-count.json",
	  "avail-string-count.json:3:16: data[1]: expected a whole number of instances >= 0, got the "
	  "string '3'" },
	{ "avail-truncated.json",
	  "avail-truncated.json:4:1: invalid JSON: " },
};

#define NBAD ((int)(sizeof bad / sizeof bad[0]))

START_TEST(bad_file_fails_with_its_message)
{
	char path[512];
	struct availtrace at;
	struct diag d = { "" };

	snprintf(path, sizeof path, SPOT "bad/%s", bad[_i].file);
	ck_assert_int_eq(availtrace_load(&at, path, bad[_i].file, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, bad[_i].msg), "%s: got \"%s\"", bad[_i].file, d.msg);
	ck_assert_int_eq(at.n, 0);
	ck_assert_ptr_null(at.count);
}
END_TEST

START_TEST(label_defaults_to_path)
{
	struct availtrace at;
	struct diag d = { "" };

	availtrace_load(&at, SPOT "bad/avail-gap-zero.json", NULL, &d);
	ck_assert_ptr_nonnull(strstr(d.msg, SPOT "bad/avail-gap-zero.json:1:30: "));
}
END_TEST

/* Every avail-* file in bad/ is in the table, so none is left untested. */
static const char *bad_file(int i)
{
	return bad[i].file;
}

START_TEST(every_bad_file_is_listed)
{
	test_assert_files_listed(SPOT "bad", "avail-", bad_file, NBAD);
}
END_TEST

static Suite *availtrace_suite(void)
{
	Suite *s = suite_create("availtrace");
	TCase *tc = tcase_create("core");
	TCase *tb = tcase_create("bad_files");

	tcase_add_test(tc, ticks_cover_half_open_intervals);
	tcase_add_test(tc, trace_repeats_past_its_end);
	tcase_add_test(tc, before_start_is_first_tick);
	tcase_add_test(tc, fractional_gap_and_whole_floats);
	tcase_add_test(tc, missing_file_is_enoent);
	tcase_add_test(tc, libfyaml_prints_nothing);
	tcase_add_test(tc, fini_accepts_null_and_zeroed);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(tb, bad_file_fails_with_its_message, 0, NBAD);
	tcase_add_test(tb, label_defaults_to_path);
	tcase_add_test(tb, every_bad_file_is_listed);
	suite_add_tcase(s, tb);
	return s;
}

int main(void)
{
	return test_run_suite(availtrace_suite());
}
