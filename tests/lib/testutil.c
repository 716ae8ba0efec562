/* testutil: see testutil.h. */
#include "testutil.h"

#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t test_seed(const char *test, uint64_t fallback)
{
	const char *env = getenv("GPUCAP_TEST_SEED");
	uint64_t seed = fallback;

	if (env && *env)
		seed = strtoull(env, NULL, 10);
	fprintf(stderr, "%s: seed %" PRIu64 " (set GPUCAP_TEST_SEED to replay)\n", test, seed);
	return seed;
}

char *test_write_file(const char *name, const char *text)
{
	char tmpl[] = "/tmp/gpucap-test-XXXXXX";
	char *dir = mkdtemp(tmpl);
	char *path;
	FILE *f;

	if (!dir)
		return NULL;
	path = malloc(strlen(dir) + strlen(name) + 2);
	if (!path)
		return NULL;
	sprintf(path, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		free(path);
		return NULL;
	}
	fputs(text, f);
	fclose(f);
	return path;
}

void test_remove_file(char *path)
{
	char journal[4096];

	snprintf(journal, sizeof journal, "%s-journal", path);
	unlink(journal);
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	free(path);
}

void test_assert_files_listed(const char *dir, const char *prefix, const char *(*listed)(int i), int n)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int found, count = 0;

	ck_assert_msg(d != NULL, "cannot open %s", dir);
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
			continue;
		found = 0;
		for (int i = 0; i < n; i++)
			found |= strcmp(listed(i), e->d_name) == 0;
		ck_assert_msg(found, "%s is not in the table of %s files", e->d_name, prefix);
		count++;
	}
	closedir(d);
	ck_assert_int_eq(count, n);
}

/* Is name one of the comma-separated names of list? */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

void test_add(TCase *tc, const TTest *test)
{
	const char *only = getenv("GPUCAP_TEST_ONLY");

	if (!only || !*only || listed(only, test->name))
		tcase_add_test(tc, test);
}

int test_run_suite(Suite *suite)
{
	SRunner *runner = srunner_create(suite);
	int failed;

	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	if (srunner_ntests_run(runner) == 0 && getenv("GPUCAP_TEST_ONLY") && *getenv("GPUCAP_TEST_ONLY")) {
		/* a misspelt or stale name (a test binary built before the test was added) must not pass */
		fprintf(stderr, "GPUCAP_TEST_ONLY=%s: no test of this suite has that name\n", getenv("GPUCAP_TEST_ONLY"));
		failed = 1;
	}
	srunner_free(runner);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
