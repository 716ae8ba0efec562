/*
 * testutil: small helpers shared by the Check suites.
 *
 * test_seed() returns the seed a randomised test should use: GPUCAP_TEST_SEED from the environment when
 * set, else the given default; it prints the seed so a failure can be replayed. test_tmpdir() returns a
 * fresh temporary directory (owned by the caller, removed by nothing: tests clean up what they make).
 */
#ifndef GPUCAP_TESTUTIL_H
#define GPUCAP_TESTUTIL_H

#include <stdint.h>

uint64_t test_seed(const char *test, uint64_t fallback);

/* Write `text` to a new file under a fresh temporary directory; returns the path (owned by the caller). */
char *test_write_file(const char *name, const char *text);

/* Remove a file that test_write_file (or another fresh-directory helper) made, its SQLite journal if any,
 * and its directory; frees path. */
void test_remove_file(char *path);

/* Assert that every file in dir whose name starts with prefix is one of the n names listed(0) .. listed(n - 1),
 * and that there are n of them: a table of bad files leaves none untested. */
void test_assert_files_listed(const char *dir, const char *prefix, const char *(*listed)(int i), int n);

/* Run a Check suite made by `make` and return the process exit status (0 when everything passed). */
struct Suite;
int test_run_suite(struct Suite *suite);

/* tcase_add_test, unless GPUCAP_TEST_ONLY is set and does not name the test: a comma-separated list of
 * test names (START_TEST's). tests/mutate.sh sets it for a planted bug whose line in tests/mutants.txt
 * names the tests that kill it, so that a long suite is not run whole for every mutant. Leaving a test out
 * can only make a suite pass where it would fail, so a filter never passes off a surviving mutant as
 * killed. A name that matches no test of the suite fails it with "no test of this suite has that name",
 * which tests/mutate.sh reports as an error of the list, never as a kill. */
struct TCase;
struct TTest;
void test_add(struct TCase *tc, const struct TTest *test);

#endif
