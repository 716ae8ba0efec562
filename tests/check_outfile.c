/*
 * check_outfile: output files written in full or not at all (sim/outfile.h).
 *
 * This binary is linked with -Wl,--wrap= for mkstemp, fchmod, fdopen, fflush, fsync, fclose and rename
 * (tests/CMakeLists.txt), so that each step of open and commit can be made to fail on purpose (the N-th call
 * of one function, with a chosen errno); a write that fails is a real one: the temporary file's descriptor
 * is replaced by /dev/full's. After every failure the target must hold exactly what it held before and the
 * folder must hold nothing else (no temporary file left); after a success, exactly the new content, with
 * the old file's mode. The refusals (the database read, devices, FIFOs, folders, dangling links) create
 * nothing.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, fchmod, symlink */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "outfile.h"
#include "status.h"
#include "testutil.h"

/* ---- the hook: which call fails (test-only process state: the wrappers cannot be given a context) ------ */

static const char *fail_fn;  /* the function to fail ("fsync"), NULL: none */
static int fail_nth;         /* its call to fail, counting from 1 since arming */
static int fail_errno;       /* the errno it fails with */
static int calls;            /* calls of fail_fn since arming */

static void arm(const char *fn, int nth, int err)
{
	fail_fn = fn;
	fail_nth = nth;
	fail_errno = err;
	calls = 0;
}

static int fail_now(const char *fn)
{
	if (!fail_fn || strcmp(fn, fail_fn) != 0 || ++calls != fail_nth)
		return 0;
	errno = fail_errno;
	return 1;
}

int __real_mkstemp(char *tmpl);
int __real_fchmod(int fd, mode_t mode);
FILE *__real_fdopen(int fd, const char *mode);
int __real_fflush(FILE *f);
int __real_fsync(int fd);
int __real_fclose(FILE *f);
int __real_rename(const char *from, const char *to);
int __wrap_mkstemp(char *tmpl);
int __wrap_fchmod(int fd, mode_t mode);
FILE *__wrap_fdopen(int fd, const char *mode);
int __wrap_fflush(FILE *f);
int __wrap_fsync(int fd);
int __wrap_fclose(FILE *f);
int __wrap_rename(const char *from, const char *to);

int __wrap_mkstemp(char *tmpl) { return fail_now("mkstemp") ? -1 : __real_mkstemp(tmpl); }
int __wrap_fchmod(int fd, mode_t mode) { return fail_now("fchmod") ? -1 : __real_fchmod(fd, mode); }
FILE *__wrap_fdopen(int fd, const char *mode) { return fail_now("fdopen") ? NULL : __real_fdopen(fd, mode); }
int __wrap_fflush(FILE *f) { return fail_now("fflush") ? EOF : __real_fflush(f); }
int __wrap_fsync(int fd) { return fail_now("fsync") ? -1 : __real_fsync(fd); }
int __wrap_rename(const char *from, const char *to)
{
	return fail_now("rename") ? -1 : __real_rename(from, to);
}

/* A failed fclose still closes the stream (C11 7.21.5.1): the real one runs, then the failure is reported. */
int __wrap_fclose(FILE *f)
{
	int rc = __real_fclose(f);

	return fail_now("fclose") ? EOF : rc;
}

/* ---- fixtures -------------------------------------------------------------------------------------- */

static char dir[64];
static char target[128];

static void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/gpucap-outfile-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(target, sizeof target, "%s/out.csv", dir);
	fail_fn = NULL;
}

static void teardown(void)
{
	char cmd[128];

	fail_fn = NULL;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void spill(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, mode), 0);
}

/* The whole content of path (static buffer), or "(missing)". */
static const char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return "(missing)";
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* How many entries the fixture's folder holds (not . and ..): a temporary file left makes one more. */
static int entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static mode_t mode_of(const char *path)
{
	struct stat sb;

	ck_assert_int_eq(stat(path, &sb), 0);
	return sb.st_mode & 07777;
}

/* ---- success --------------------------------------------------------------------------------------- */

START_TEST(commit_replaces_the_whole_file_and_keeps_its_mode)
{
	struct outfile o;
	struct diag d;

	spill(target, "old\n", 0640);
	ck_assert_int_eq(outfile_open(&o, target, NULL, &d), STATUS_OK);
	ck_assert_int_eq(entries(dir), 2);  /* the target and the temporary file beside it */
	ck_assert_ptr_nonnull(strstr(o.tmp, "/.out.csv."));
	ck_assert_str_eq(slurp(target), "old\n");  /* nothing changes before the commit */
	fputs("new content\n", o.f);
	ck_assert_int_eq(outfile_commit(&o, &d), STATUS_OK);
	ck_assert_ptr_null(o.f);
	outfile_abort(&o);  /* after a commit: nothing to do, the new file stays */
	ck_assert_str_eq(slurp(target), "new content\n");
	ck_assert_int_eq(mode_of(target), 0640);
	ck_assert_int_eq(entries(dir), 1);
}
END_TEST

START_TEST(new_file_gets_fopen_mode)
{
	struct outfile o;
	struct diag d;
	mode_t old = umask(027);

	ck_assert_int_eq(outfile_open(&o, target, NULL, &d), STATUS_OK);
	fputs("x", o.f);
	ck_assert_int_eq(outfile_commit(&o, &d), STATUS_OK);
	umask(old);
	ck_assert_int_eq(mode_of(target), 0640);
	ck_assert_str_eq(slurp(target), "x");
}
END_TEST

START_TEST(symlink_to_file_replaces_what_it_points_at)
{
	char sub[128], real[160], link[128];
	struct outfile o;
	struct diag d;
	struct stat sb;

	snprintf(sub, sizeof sub, "%s/sub", dir);
	snprintf(real, sizeof real, "%s/real.csv", sub);
	snprintf(link, sizeof link, "%s/link.csv", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	spill(real, "old\n", 0600);
	ck_assert_int_eq(symlink("sub/real.csv", link), 0);
	ck_assert_int_eq(outfile_open(&o, link, NULL, &d), STATUS_OK);
	ck_assert_int_eq(entries(sub), 2);  /* the temporary file is beside the real file */
	fputs("new\n", o.f);
	ck_assert_int_eq(outfile_commit(&o, &d), STATUS_OK);
	ck_assert_int_eq(lstat(link, &sb), 0);
	ck_assert(S_ISLNK(sb.st_mode));
	ck_assert_str_eq(slurp(real), "new\n");
	ck_assert_int_eq(mode_of(real), 0600);
	ck_assert_int_eq(entries(sub), 1);
}
END_TEST

START_TEST(abort_removes_the_temporary_file)
{
	struct outfile o;
	struct diag d;

	spill(target, "old\n", 0644);
	ck_assert_int_eq(outfile_open(&o, target, NULL, &d), STATUS_OK);
	fputs("half of it", o.f);
	outfile_abort(&o);
	outfile_abort(&o);  /* twice: harmless */
	ck_assert_str_eq(slurp(target), "old\n");
	ck_assert_int_eq(entries(dir), 1);
}
END_TEST

/* ---- injected failures: the target as it was, no temporary file ------------------------------------ */

static const struct fault {
	const char *fn;  /* the call that fails */
	int nth;         /* which call of it */
	int err;         /* with which errno */
} commit_faults[] = {
	{ "fflush", 1, ENOSPC }, { "fsync", 1, EIO }, { "fclose", 1, EDQUOT }, { "rename", 1, EXDEV },
};

START_TEST(failed_commit_leaves_the_target)
{
	const struct fault *fa = &commit_faults[_i];
	struct outfile o;
	struct diag d;

	spill(target, "old\n", 0644);
	ck_assert_int_eq(outfile_open(&o, target, NULL, &d), STATUS_OK);
	fputs("new content\n", o.f);
	arm(fa->fn, fa->nth, fa->err);
	ck_assert_int_eq(outfile_commit(&o, &d), STATUS_EIO);
	ck_assert_msg(calls >= fa->nth, "%s was never called", fa->fn);
	fail_fn = NULL;
	ck_assert_ptr_null(o.f);
	ck_assert_msg(strstr(d.msg, target) && strstr(d.msg, strerror(fa->err)) && strstr(d.msg, "left as it was"),
		      "%s: %s", fa->fn, d.msg);
	ck_assert_str_eq(slurp(target), "old\n");
	ck_assert_int_eq(entries(dir), 1);
	outfile_abort(&o);
	ck_assert_str_eq(slurp(target), "old\n");
}
END_TEST

START_TEST(failed_commit_of_a_new_path_creates_nothing)
{
	const struct fault *fa = &commit_faults[_i];
	struct outfile o;
	struct diag d;

	ck_assert_int_eq(outfile_open(&o, target, NULL, &d), STATUS_OK);
	fputs("new content\n", o.f);
	arm(fa->fn, fa->nth, fa->err);
	ck_assert_int_eq(outfile_commit(&o, &d), STATUS_EIO);
	fail_fn = NULL;
	ck_assert_int_eq(entries(dir), 0);
}
END_TEST

/* A real failed write: the temporary file's descriptor becomes /dev/full's, so the bytes go nowhere. */
START_TEST(failed_write_leaves_the_target)
{
	struct outfile o;
	struct diag d;
	int full = open("/dev/full", O_WRONLY);

	ck_assert_int_ge(full, 0);
	spill(target, "old\n", 0644);
	ck_assert_int_eq(outfile_open(&o, target, NULL, &d), STATUS_OK);
	ck_assert_int_ge(dup2(full, fileno(o.f)), 0);
	close(full);
	for (int i = 0; i < 10000; i++)  /* past stdio's buffer: some writes fail before the commit */
		fprintf(o.f, "row %d\n", i);
	ck_assert_int_eq(outfile_commit(&o, &d), STATUS_EIO);
	ck_assert_msg(strstr(d.msg, target) && strstr(d.msg, strerror(ENOSPC)), "%s", d.msg);
	ck_assert_str_eq(slurp(target), "old\n");
	ck_assert_int_eq(entries(dir), 1);
}
END_TEST

/* The rename happened, the folder's fsync failed: the new file is whole and in place, the message says so. */
START_TEST(failed_folder_sync_is_reported)
{
	struct outfile o;
	struct diag d;

	spill(target, "old\n", 0644);
	ck_assert_int_eq(outfile_open(&o, target, NULL, &d), STATUS_OK);
	fputs("new\n", o.f);
	arm("fsync", 2, EIO);
	ck_assert_int_eq(outfile_commit(&o, &d), STATUS_EIO);
	ck_assert_int_eq(calls, 2);
	fail_fn = NULL;
	ck_assert_msg(strstr(d.msg, "written, but syncing its folder failed"), "%s", d.msg);
	ck_assert_str_eq(slurp(target), "new\n");
	ck_assert_int_eq(entries(dir), 1);
}
END_TEST

static const struct fault open_faults[] = {
	{ "mkstemp", 1, EACCES }, { "fchmod", 1, EPERM }, { "fdopen", 1, ENOMEM },
};

START_TEST(failed_open_creates_nothing)
{
	const struct fault *fa = &open_faults[_i];
	struct outfile o;
	struct diag d;

	spill(target, "old\n", 0644);
	arm(fa->fn, fa->nth, fa->err);
	ck_assert_int_eq(outfile_open(&o, target, NULL, &d), STATUS_EIO);
	ck_assert_int_eq(calls, 1);
	fail_fn = NULL;
	ck_assert_ptr_null(o.f);
	ck_assert_msg(strstr(d.msg, target) && strstr(d.msg, strerror(fa->err)), "%s: %s", fa->fn, d.msg);
	outfile_abort(&o);
	ck_assert_str_eq(slurp(target), "old\n");
	ck_assert_int_eq(entries(dir), 1);
}
END_TEST

/* ---- refusals: nothing created, nothing changed ---------------------------------------------------- */

static void assert_refused(const char *path, const char *db, const char *why)
{
	struct outfile o;
	struct diag d;
	int before = entries(dir);

	diag_clear(&d);
	ck_assert_int_eq(outfile_open(&o, path, db, &d), STATUS_EUSAGE);
	ck_assert_ptr_null(o.f);
	ck_assert_msg(strstr(d.msg, path) && strstr(d.msg, why), "%s: %s", path, d.msg);
	outfile_abort(&o);
	ck_assert_int_eq(entries(dir), before);
}

START_TEST(the_database_read_is_refused)
{
	char db[128], alias[160], cwd[4096];

	snprintf(db, sizeof db, "%s/r.sqlite", dir);
	spill(db, "SQLite format 3", 0644);
	assert_refused(db, db, "this is the results database");
	snprintf(alias, sizeof alias, "%s/./r.sqlite", dir);
	assert_refused(alias, db, "this is the results database");
	snprintf(alias, sizeof alias, "%s/link.sqlite", dir);
	ck_assert_int_eq(symlink("r.sqlite", alias), 0);
	assert_refused(alias, db, "this is the results database");
	snprintf(alias, sizeof alias, "%s/hard.sqlite", dir);
	ck_assert_int_eq(link(db, alias), 0);
	assert_refused(alias, db, "this is the results database");
	/* relative to the working folder, against the absolute path */
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	ck_assert_int_eq(chdir(dir), 0);
	assert_refused("r.sqlite", db, "this is the results database");
	/* neither exists yet: the same canonical name */
	assert_refused("./new.sqlite", "new.sqlite", "this is the results database");
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_str_eq(slurp(db), "SQLite format 3");
}
END_TEST

START_TEST(non_regular_paths_are_refused)
{
	char fifo[128], sub[128], dangling[128];
	struct stat sb;

	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0644), 0);
	assert_refused(fifo, NULL, "not a regular file");
	snprintf(sub, sizeof sub, "%s/sub", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	assert_refused(sub, NULL, "not a regular file");
	assert_refused("/dev/null", NULL, "not a regular file");
	ck_assert_int_eq(stat("/dev/null", &sb), 0);
	ck_assert(S_ISCHR(sb.st_mode));
	snprintf(dangling, sizeof dangling, "%s/dangling", dir);
	ck_assert_int_eq(symlink("nowhere", dangling), 0);
	assert_refused(dangling, NULL, "a symbolic link to nothing");
	ck_assert_int_eq(lstat(fifo, &sb), 0);
	ck_assert(S_ISFIFO(sb.st_mode));
}
END_TEST

START_TEST(too_long_a_path_is_refused)
{
	char path[PATH_MAX + 16];
	struct outfile o;
	struct diag d;

	memset(path, 'a', sizeof path - 1);
	path[sizeof path - 1] = '\0';
	ck_assert_int_eq(outfile_open(&o, path, NULL, &d), STATUS_EUSAGE);
	ck_assert_ptr_nonnull(strstr(d.msg, "path too long"));
	ck_assert_ptr_null(o.f);
}
END_TEST

/* ---- standard output ------------------------------------------------------------------------------- */

START_TEST(dash_is_standard_output_and_checked)
{
	struct outfile o;
	struct diag d;
	int full = open("/dev/full", O_WRONLY);

	ck_assert_int_ge(full, 0);
	ck_assert_int_eq(outfile_open(&o, "-", "r.sqlite", &d), STATUS_OK);
	ck_assert_ptr_eq(o.f, stdout);
	ck_assert_int_eq(dup2(full, STDOUT_FILENO), STDOUT_FILENO);  /* this test's own forked process */
	close(full);
	fputs("a page\n", o.f);
	ck_assert_int_eq(outfile_commit(&o, &d), STATUS_EIO);
	ck_assert_str_eq(d.msg, "writing standard output: No space left on device");
	outfile_abort(&o);  /* never closes stdout */
	clearerr(stdout);
}
END_TEST

static Suite *outfile_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("outfile");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, commit_replaces_the_whole_file_and_keeps_its_mode);
	tcase_add_test(tc, new_file_gets_fopen_mode);
	tcase_add_test(tc, symlink_to_file_replaces_what_it_points_at);
	tcase_add_test(tc, abort_removes_the_temporary_file);
	tcase_add_loop_test(tc, failed_commit_leaves_the_target, 0, sizeof commit_faults / sizeof commit_faults[0]);
	tcase_add_loop_test(tc, failed_commit_of_a_new_path_creates_nothing, 0,
			    sizeof commit_faults / sizeof commit_faults[0]);
	tcase_add_test(tc, failed_write_leaves_the_target);
	tcase_add_test(tc, failed_folder_sync_is_reported);
	tcase_add_loop_test(tc, failed_open_creates_nothing, 0, sizeof open_faults / sizeof open_faults[0]);
	tcase_add_test(tc, the_database_read_is_refused);
	tcase_add_test(tc, non_regular_paths_are_refused);
	tcase_add_test(tc, too_long_a_path_is_refused);
	tcase_add_test(tc, dash_is_standard_output_and_checked);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(outfile_suite());
}
