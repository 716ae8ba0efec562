/*
 * check_sweepfile: reading and expanding sweep files (analysis/sweepfile.h): each form (grid with lists and
 * ranges, zip, sample), the expansion order, how computed values are printed, `base` and `set`, and every
 * error, provoked by a malformed file in tests/data/bad_sweeps/ whose first line "# expect: LINE:COL: ..."
 * gives the message expected after the file's path.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "status.h"
#include "sweepfile.h"
#include "testutil.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data (the CMake build defines it)"
#endif

/* Parse text as "dir/s.yaml"; fails the test on any error. */
static void parse_ok(struct sweepfile *sf, const char *text)
{
	struct diag d;
	int rc = sweepfile_parse(sf, text, "dir/s.yaml", &d);

	ck_assert_msg(rc == STATUS_OK, "parse failed: %s", d.msg);
}

static const char *V(const struct sweepfile *sf, int p, int k)
{
	return sf->values[p * sf->nparams + k];
}

/* grid: every combination, first key slowest; lists passed on as written; base relative to the file. */
START_TEST(grid_first_key_slowest)
{
	struct sweepfile sf;

	parse_ok(&sf, "name: tvr\nbase: ../chat.yaml\nreplications: 3\nset: {horizon: 2h, fleet.1.max: 20}\n"
		 "grid:\n  autoscaling.target: [0.5, 0.60, 7e-1]\n  fleet.0.count: [0, 8]\n");
	ck_assert_str_eq(sf.name, "tvr");
	ck_assert_str_eq(sf.base, "dir/../chat.yaml");
	ck_assert_int_eq(sf.nreps, 3);
	ck_assert_int_eq(sf.form, SWEEPFILE_GRID);
	ck_assert_int_eq(sf.nsets, 2);
	ck_assert_str_eq(sf.sets[0], "horizon=2h");
	ck_assert_str_eq(sf.sets[1], "fleet.1.max=20");
	ck_assert_int_eq(sf.nparams, 2);
	ck_assert_str_eq(sf.params[0], "autoscaling.target");
	ck_assert_str_eq(sf.params[1], "fleet.0.count");
	/* 3 x 2 = 6 points; point p = (p / 2, p % 2) */
	ck_assert_int_eq(sf.npoints, 6);
	ck_assert_int_eq(sweepfile_runs(&sf), 18);
	const char *want[6][2] = { { "0.5", "0" }, { "0.5", "8" }, { "0.60", "0" }, { "0.60", "8" },
				   { "7e-1", "0" }, { "7e-1", "8" } };
	for (int p = 0; p < 6; p++)
		for (int k = 0; k < 2; k++)
			ck_assert_str_eq(V(&sf, p, k), want[p][k]);
	sweepfile_fini(&sf);
	sweepfile_fini(&sf);  /* harmless twice */
}
END_TEST

/* Ranges: integers stay integers; decimals print without binary noise (0.1 + 2 x 0.1 = 0.3). */
START_TEST(grid_ranges)
{
	struct sweepfile sf;

	parse_ok(&sf, "name: r\nbase: /abs/x.yaml\n"
		 "grid:\n  fleet.0.count: {from: 0, to: 8, step: 2}\n  autoscaling.target: {from: 0.1, to: 0.3, step: 0.1}\n");
	ck_assert_str_eq(sf.base, "/abs/x.yaml");  /* absolute: as written */
	ck_assert_int_eq(sf.nreps, 1);              /* the default */
	/* 0, 2, 4, 6, 8 (5) x 0.1, 0.2, 0.3 (3: 0.1 + 2 x 0.1 = 0.30000000000000004 reaches `to` within 1e-9 of
	 * a step) = 15 points */
	ck_assert_int_eq(sf.npoints, 15);
	ck_assert_str_eq(V(&sf, 0, 0), "0");
	ck_assert_str_eq(V(&sf, 0, 1), "0.1");
	ck_assert_str_eq(V(&sf, 2, 1), "0.3");
	ck_assert_str_eq(V(&sf, 14, 0), "8");
	ck_assert_str_eq(V(&sf, 14, 1), "0.3");
	sweepfile_fini(&sf);
	/* a step that does not land on `to`: 1, 4, 7 (10 is past 9) */
	parse_ok(&sf, "name: r\nbase: x.yaml\ngrid: {serving.slots_per_instance: {from: 1, to: 9, step: 3}}\n");
	ck_assert_str_eq(sf.base, "dir/x.yaml");
	ck_assert_int_eq(sf.npoints, 3);
	ck_assert_str_eq(V(&sf, 2, 0), "7");
	sweepfile_fini(&sf);
	/* a decimal step on integer bounds gives decimals */
	parse_ok(&sf, "name: r\nbase: x.yaml\ngrid: {workload.arrivals.rate_per_s: {from: 1, to: 2, step: 0.25}}\n");
	ck_assert_int_eq(sf.npoints, 5);
	ck_assert_str_eq(V(&sf, 1, 0), "1.25");
	ck_assert_str_eq(V(&sf, 4, 0), "2");
	sweepfile_fini(&sf);
}
END_TEST

/* zip: item p of every list; any scalar text, list items by index. */
START_TEST(zip_together)
{
	struct sweepfile sf;

	parse_ok(&sf, "name: z\nbase: x.yaml\nzip:\n  autoscaling.policy: [none, target_tracking]\n"
		 "  fleet.1.max: [4, 12]\n  serving.startup_s: ['5m', 7m]\n");
	ck_assert_int_eq(sf.form, SWEEPFILE_ZIP);
	ck_assert_int_eq(sf.npoints, 2);
	ck_assert_int_eq(sf.nparams, 3);
	ck_assert_str_eq(V(&sf, 0, 0), "none");
	ck_assert_str_eq(V(&sf, 0, 1), "4");
	ck_assert_str_eq(V(&sf, 0, 2), "5m");
	ck_assert_str_eq(V(&sf, 1, 0), "target_tracking");
	ck_assert_str_eq(V(&sf, 1, 1), "12");
	ck_assert_str_eq(V(&sf, 1, 2), "7m");
	sweepfile_fini(&sf);
}
END_TEST

/*
 * sample: GSL's Sobol points in 2 dimensions begin (0.5, 0.5), (0.75, 0.25), (0.25, 0.75), (0.375, 0.375).
 * target in [0.5, 0.9]: 0.5 + u x 0.4 = 0.7, 0.8, 0.6, 0.65. Integer count in [0, 8] (9 integers):
 * floor(u x 9) = floor(4.5) = 4, floor(2.25) = 2, floor(6.75) = 6, floor(3.375) = 3.
 */
START_TEST(sample_sobol)
{
	struct sweepfile sf;
	const char *want[4][2] = { { "0.7", "4" }, { "0.8", "2" }, { "0.6", "6" }, { "0.65", "3" } };

	parse_ok(&sf, "name: s\nbase: x.yaml\nreplications: 2\n"
		 "sample: {n: 4, method: sobol, ranges: {autoscaling.target: [0.5, 0.9], fleet.0.count: [0, 8]}}\n");
	ck_assert_int_eq(sf.form, SWEEPFILE_SAMPLE);
	ck_assert_int_eq(sf.npoints, 4);
	ck_assert_int_eq(sweepfile_runs(&sf), 8);
	for (int p = 0; p < 4; p++)
		for (int k = 0; k < 2; k++)
			ck_assert_str_eq(V(&sf, p, k), want[p][k]);
	sweepfile_fini(&sf);
	/* the method defaults to sobol; u near 1 stays within an integer range's hi */
	parse_ok(&sf, "name: s\nbase: x.yaml\nsample: {n: 64, ranges: {fleet.0.count: [0, 1]}}\n");
	for (int p = 0; p < 64; p++)
		ck_assert(strcmp(V(&sf, p, 0), "0") == 0 || strcmp(V(&sf, p, 0), "1") == 0);
	sweepfile_fini(&sf);
}
END_TEST

/* Every file in bad_sweeps fails with "PATH:LINE:COL: message" as its first line says. */
START_TEST(bad_sweep_files)
{
	const char *dir = TEST_DATA_DIR "/bad_sweeps";
	DIR *dp = opendir(dir);
	struct dirent *e;
	int n = 0, bad = 0;

	ck_assert_ptr_nonnull(dp);
	while ((e = readdir(dp))) {
		char path[512], line[512], want[1100];
		struct sweepfile sf;
		struct diag d;
		FILE *f;

		if (!strstr(e->d_name, ".yaml"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		f = fopen(path, "r");
		ck_assert_ptr_nonnull(f);
		ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
		fclose(f);
		line[strcspn(line, "\n")] = '\0';
		ck_assert_msg(strncmp(line, "# expect: ", 10) == 0, "%s: no '# expect: ' line", path);
		snprintf(want, sizeof want, "%s:%s", path, line + 10);
		int rc = sweepfile_load(&sf, path, &d);
		ck_assert_msg(rc == STATUS_EINPUT, "%s: got status %d (%s)", path, rc, d.msg);
		if (strncmp(d.msg, want, strlen(want)) != 0) {  /* report them all, then fail */
			fprintf(stderr, "%s:\n  got  %s\n  want %s\n", e->d_name, d.msg, want);
			bad++;
		}
		ck_assert_ptr_null(sf.values);  /* zeroed on failure */
		n++;
	}
	closedir(dp);
	ck_assert_int_eq(bad, 0);
	ck_assert_int_ge(n, 20);
}
END_TEST

START_TEST(missing_and_empty_files)
{
	struct sweepfile sf;
	struct diag d;
	char *path;

	ck_assert_int_eq(sweepfile_load(&sf, "/nonexistent/s.yaml", &d), STATUS_ENOENT);
	ck_assert(strstr(d.msg, "/nonexistent/s.yaml: cannot open") == d.msg);
	path = test_write_file("empty.yaml", "# nothing\n");
	ck_assert_int_eq(sweepfile_load(&sf, path, &d), STATUS_EINPUT);
	ck_assert(strstr(d.msg, "empty file") != NULL);
	test_remove_file(path);
}
END_TEST

/*
 * Found by fuzzing (tests/fuzz/crashes/sweepfile/): libfyaml 0.7.12 loops forever on a directive ('%') followed
 * by an invalid UTF-8 byte, and sweep files reached it unchecked (`gpucap sweep` hung on a 2-byte file). The
 * text is refused before libfyaml sees it: "%" is line 3, column 1, so byte 0xAE is at 3:2. Run in a test
 * case of its own with a 10 s timeout, so that a hang fails in 10 s rather than at Check's default.
 */
START_TEST(directive_with_invalid_utf8_refused)
{
	struct sweepfile sf;
	struct diag d;

	ck_assert_int_eq(sweepfile_parse(&sf, "name: s\nbase: x.yaml\n%\xae\n", "dir/s.yaml", &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "dir/s.yaml:3:2: invalid UTF-8 (byte 0xAE); expected a UTF-8 text file");
	ck_assert_ptr_null(sf.values);
}
END_TEST

/*
 * Keys are compared as the overrides resolve them: fleet.00.count and fleet.0.count set one value, so both are
 * refused, the message giving both places (the later key's, then the earlier's); so are fleet.-0.count and
 * fleet.0.count. A component that is not an index is compared as written (fleet.+0.count is no index: the
 * override refuses it when the point loads), and keys of different settings stay apart.
 */
START_TEST(same_setting_twice_refused)
{
	struct sweepfile sf;
	struct diag d;

	ck_assert_int_eq(sweepfile_parse(&sf, "name: s\nbase: x.yaml\ngrid:\n  fleet.0.count: [1, 2]\n"
					 "  fleet.00.count: [3]\n", "dir/s.yaml", &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "dir/s.yaml:5:3: grid.fleet.00.count: 'fleet.00.count' is swept twice (first as "
			 "'fleet.0.count' at dir/s.yaml:4:3); expected each key once");
	ck_assert_int_eq(sweepfile_parse(&sf, "name: s\nbase: x.yaml\nset: {fleet.2.count: 1}\n"
					 "grid: {fleet.-0.count: [1], fleet.002.count: [3]}\n", "dir/s.yaml", &d),
			 STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "dir/s.yaml:4:29: grid.fleet.002.count: 'fleet.002.count' is both set and swept (set "
			 "as 'fleet.2.count' at dir/s.yaml:3:22); expected each key in one place");
	parse_ok(&sf, "name: s\nbase: x.yaml\nset: {fleet.0.count: 1}\ngrid: {fleet.+0.count: [1], fleet.10.count: "
		 "[2], catalog.g6.xlarge.usd_per_h: [1], catalog.g6.xlarge0.usd_per_h: [2]}\n");
	ck_assert_int_eq(sf.nparams, 4);
	sweepfile_fini(&sf);
}
END_TEST

/* A FIFO (no writer) is refused at once, not waited on: the 10 s timeout of its test case would end a hang. */
START_TEST(fifo_refused)
{
	char *path = test_write_file("fifo.yaml", "");
	struct sweepfile sf;
	struct diag d;
	char want[600];

	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(sweepfile_load(&sf, path, &d), STATUS_EINPUT);
	snprintf(want, sizeof want, "%s: not a regular file (a FIFO); expected a sweep file", path);
	ck_assert_str_eq(d.msg, want);
	test_remove_file(path);
}
END_TEST

static Suite *sweepfile_suite(void)
{
	Suite *s = suite_create("sweepfile");
	TCase *tc = tcase_create("sweepfile");

	tcase_add_test(tc, grid_first_key_slowest);
	tcase_add_test(tc, grid_ranges);
	tcase_add_test(tc, zip_together);
	tcase_add_test(tc, sample_sobol);
	tcase_add_test(tc, bad_sweep_files);
	tcase_add_test(tc, missing_and_empty_files);
	tcase_add_test(tc, same_setting_twice_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("fuzz_findings");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, directive_with_invalid_utf8_refused);
	tcase_add_test(tc, fifo_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(sweepfile_suite());
}
