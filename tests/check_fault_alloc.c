/*
 * The allocation-failure suite (SQLite's malloc-fault technique): this binary is linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=gsl_rng_alloc (tests/CMakeLists.txt), so
 * every allocation made by gpucap's own code (the gpucap_core objects and this file), and every random
 * generator it asks GSL for, goes through the wrappers below, which can fail the N-th one. Only gpucap's objects are wrapped: allocations inside SQLite, GSL, libfyaml, libcsv
 * and libc (strdup, getline) are not, so those libraries' own out-of-memory paths are not exercised here.
 *
 * For N = 1, 2, ... the test loads a short scenario (Spot with interruptions and reclaims, Spot replaying an
 * availability trace (a file the run hashes into its key and records in run_inputs), a Capacity Block,
 * target tracking, 4 hours), opens a results file that already holds one run, and runs it, as `gpucap run`
 * does, with the N-th allocation failing. Every N must end either with STATUS_ENOMEM and "out of memory" in
 * the message, the results file byte for byte as it was, and every block gpucap allocated freed again; or,
 * once N is past the run's last allocation, with the run succeeding. The test asserts how many allocations
 * it exercised, so it cannot silently test nothing.
 */
#include <check.h>
#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "diag.h"
#include "merge.h"
#include "scenario.h"
#include "status.h"
#include "store.h"
#include "testutil.h"
#include "world.h"

/* ---- the hook: test-only process state, as the wrappers cannot be given a context ---------------------- */

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __wrap_free(void *p);
gsl_rng *__real_gsl_rng_alloc(const gsl_rng_type *type);
gsl_rng *__wrap_gsl_rng_alloc(const gsl_rng_type *type);

static long fault_at;     /* the allocation to fail, counting from 1 since arming; 0: none */
static long fault_count;  /* allocations (malloc, calloc, realloc) since arming */
static long live;         /* blocks allocated through the wrappers and not yet freed */
static bool failed;       /* the armed fault was hit */

/*
 * The blocks the wrappers handed out, in an open-addressing set (linear probing, tombstones), so that a
 * free() of a block some library allocated (strdup, libfyaml) is not counted against gpucap. 2^20 slots are
 * far more than a short run keeps live.
 */
#define LIVE_SLOTS (1u << 20)
#define TOMBSTONE ((void *)1)
static void **live_set;

static size_t slot_of(const void *p)
{
	return (size_t)(((uintptr_t)p >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 12) & (LIVE_SLOTS - 1);
}

static void track(void *p)
{
	size_t i;

	if (!p)
		return;
	if (!live_set)
		live_set = __real_calloc(LIVE_SLOTS, sizeof *live_set);
	for (i = slot_of(p); live_set[i] && live_set[i] != TOMBSTONE; i = (i + 1) & (LIVE_SLOTS - 1))
		;
	live_set[i] = p;
	live++;
}

static void untrack(void *p)
{
	if (!p || !live_set)
		return;
	for (size_t i = slot_of(p); live_set[i]; i = (i + 1) & (LIVE_SLOTS - 1)) {
		if (live_set[i] == p) {
			live_set[i] = TOMBSTONE;
			live--;
			return;
		}
	}
}

static bool fail_now(void)
{
	if (fault_at <= 0)
		return false;
	if (++fault_count != fault_at)
		return false;
	failed = true;
	return true;
}

void *__wrap_malloc(size_t size)
{
	void *p = fail_now() ? NULL : __real_malloc(size);

	track(p);
	return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
	void *p = fail_now() ? NULL : __real_calloc(n, size);

	track(p);
	return p;
}

void *__wrap_realloc(void *old, size_t size)
{
	void *p;

	if (fail_now())
		return NULL;  /* the old block stays allocated, as realloc promises */
	p = __real_realloc(old, size);
	if (p || size == 0) {
		untrack(old);
		track(p);
	}
	return p;
}

/* GSL's generators are allocated inside GSL, out of the wrappers' sight; their allocation is failed too */
gsl_rng *__wrap_gsl_rng_alloc(const gsl_rng_type *type)
{
	return fail_now() ? NULL : __real_gsl_rng_alloc(type);
}

void __wrap_free(void *p)
{
	untrack(p);
	__real_free(p);
}

static void arm(long n)
{
	fault_at = n;
	fault_count = 0;
	failed = false;
}

/* ---- the run --------------------------------------------------------------------------------------- */

/* A second Spot entry's availability trace (a file the scenario names, hashed into the run key and stored
 * in run_inputs). */
static const char avail_trace[] =
	"{\"metadata\": {\"gap_seconds\": 3600}, \"data\": [2, 2, 0, 1, 2, 2]}\n";

/* The scenario, with %s for the availability trace's path. */
static const char *scenario_format =
	"name: fault-alloc\n"
	"seed: 7\n"
	"start: 2026-12-01T10:00:00Z\n"
	"horizon: 4h\n"
	"slo: {latency_s: 20}\n"
	"workload:\n"
	"  arrivals: {kind: poisson, rate_per_s: 0.5}\n"
	"  service: {kind: lognormal, mean_s: 6.0, cv: 0.6}\n"
	"serving: {instance_type: p5.48xlarge, slots_per_instance: 4, queue_timeout_s: 60, startup_s: 5m,\n"
	"          on_interrupt: requeue}\n"
	"fleet:\n"
	"  - {option: spot, max: 4, interruptions_per_hour: 0.5, reclaims_per_day: 12, reclaim_fraction: 1.0,\n"
	"     outage_mean_s: 20m}\n"
	"  - {option: capacity_block, start: 2026-12-01T11:30:00Z, duration: 1d, count: 1, usd_per_h: 39.33}\n"
	"  - {option: spot, max: 2, availability_trace: %s}\n"
	"  - {option: on_demand, max: 4}\n"
	"autoscaling: {policy: target_tracking, target: 0.5, min: 1, max: 6, scale_in_cooldown_s: 300}\n";

static char scenario_text[4096];  /* scenario_format with the trace's path */

/* Load, open, run and close as `gpucap run` does (sim/cli/cmd_run.c); the status, the message in *d. */
static int run_once(const char *db, struct diag *d)
{
	struct scenario sc;
	struct world_report *rep;
	struct store *st = NULL;
	struct sink sink;
	int rc;

	diag_clear(d);
	rc = scenario_parse_string(&sc, scenario_text, "fault.yaml", NULL, 0, d);
	if (rc)
		return rc;
	rep = calloc(1, sizeof *rep);
	if (!rep) {
		rc = diag_fail(d, STATUS_ENOMEM, "out of memory");
		goto out_scenario;
	}
	rc = store_open(&st, db, d);
	if (rc)
		goto out_report;
	sink = store_sink(st, d);
	rc = world_run(&sc, &sink, "test", rep, d);
	store_close(st);
out_report:
	free(rep);
out_scenario:
	scenario_fini(&sc);
	return rc;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = __real_malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void spill(const char *path, const char *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/*
 * Every allocation of a short run with Spot, a Capacity Block and target tracking fails once, in turn;
 * each ends with exit status ENOMEM, "out of memory", no block of gpucap's leaked and the results file
 * unchanged, until N passes the last allocation and the run succeeds.
 */
START_TEST(every_allocation_fails_cleanly)
{
	char *db = test_write_file("fault.sqlite", "");
	struct diag d;
	char *before, *after;
	size_t nbefore, nafter;
	long n, last_failed = 0;
	int rc;

	char *trace = test_write_file("avail.json", avail_trace);

	snprintf(scenario_text, sizeof scenario_text, scenario_format, trace);
	remove(db);
	ck_assert_msg(run_once(db, &d) == STATUS_OK, "%s", d.msg);  /* the earlier run the file holds */
	before = slurp(db, &nbefore);
	for (n = 1;; n++) {
		long live0 = live;
		arm(n);
		rc = run_once(db, &d);
		fault_at = 0;  /* disarmed; `failed` still says whether the fault was hit */
		ck_assert_msg(live == live0, "N = %ld: %ld blocks leaked", n, live - live0);
		if (!failed) {
			ck_assert_msg(rc == STATUS_OK, "N = %ld (no fault hit): status %d, %s", n, rc, d.msg);
			break;
		}
		last_failed = n;
		if (rc == STATUS_OK) {
			/* an allocation whose failure the run survives (none is expected to exist): still no
			 * harm, but put the file back for the next N */
			spill(db, before, nbefore);
			continue;
		}
		ck_assert_msg(rc == STATUS_ENOMEM, "N = %ld: status %d (%s), expected out of memory", n, rc, d.msg);
		ck_assert_msg(strstr(d.msg, "out of memory") != NULL, "N = %ld: message '%s'", n, d.msg);
		after = slurp(db, &nafter);
		ck_assert_msg(nafter == nbefore && memcmp(before, after, nbefore) == 0,
			      "N = %ld: the results file changed", n);
		__real_free(after);
	}
	printf("allocation-failure suite: %ld allocations failed in turn, all clean\n", last_failed);
	/* the run allocates the scenario, the store, the world, the queue, the fleet's pool, the meter's buffers,
	 * the random streams...: 21 allocations of gpucap's own plus the generators when this was written; fewer
	 * than 20 means the hook is not wired in */
	ck_assert_int_ge(last_failed, 20);
	__real_free(before);
	test_remove_file(db);
	test_remove_file(trace);
}
END_TEST

/*
 * The readers (issue 29): `compare` of a results file and `merge` of it into another, as the commands do,
 * with every allocation of gpucap's own failing once, in turn. Each ends either with STATUS_ENOMEM and "out
 * of memory" in the message, no block leaked, the input byte for byte as it was and the merge's output too;
 * or, once N is past the last allocation, with both succeeding.
 */
static int read_and_merge(const char *db, const char *out_path, struct diag *d)
{
	struct compare c;
	struct merge_counts counts;
	struct store *out = NULL;
	int rc;

	diag_clear(d);
	rc = compare_load(&c, db, NULL, 0, NULL, d);
	if (rc)
		return rc;
	compare_fini(&c);
	rc = store_open(&out, out_path, d);
	if (rc)
		return rc;
	rc = merge_file(out, db, &counts, d);
	store_close(out);
	return rc;
}

START_TEST(readers_fail_cleanly)
{
	char *db = test_write_file("fault-read.sqlite", "");
	char *out_path = test_write_file("fault-merged.sqlite", "");
	char *trace = test_write_file("avail-read.json", avail_trace);
	char *before, *after, *out_before, *out_after;
	size_t nbefore, nafter, nout_before, nout_after;
	struct store *st = NULL;
	struct diag d;
	long n, last_failed = 0;
	int rc;

	snprintf(scenario_text, sizeof scenario_text, scenario_format, trace);
	remove(db);
	remove(out_path);
	ck_assert_msg(run_once(db, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(run_once(db, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(store_open(&st, out_path, &d) == STATUS_OK, "%s", d.msg);  /* an empty results file */
	store_close(st);
	before = slurp(db, &nbefore);
	out_before = slurp(out_path, &nout_before);
	for (n = 1;; n++) {
		long live0 = live;
		arm(n);
		rc = read_and_merge(db, out_path, &d);
		fault_at = 0;
		ck_assert_msg(live == live0, "N = %ld: %ld blocks leaked", n, live - live0);
		if (!failed) {
			ck_assert_msg(rc == STATUS_OK, "N = %ld (no fault hit): status %d, %s", n, rc, d.msg);
			break;
		}
		last_failed = n;
		if (rc == STATUS_OK) {  /* a failure survived: put the output back for the next N */
			spill(out_path, out_before, nout_before);
			continue;
		}
		ck_assert_msg(rc == STATUS_ENOMEM, "N = %ld: status %d (%s), expected out of memory", n, rc, d.msg);
		ck_assert_msg(strstr(d.msg, "out of memory") != NULL, "N = %ld: message '%s'", n, d.msg);
		after = slurp(db, &nafter);
		ck_assert_msg(nafter == nbefore && memcmp(before, after, nbefore) == 0, "N = %ld: the input changed", n);
		__real_free(after);
		out_after = slurp(out_path, &nout_after);
		ck_assert_msg(nout_after == nout_before && memcmp(out_before, out_after, nout_before) == 0,
			      "N = %ld: the merge's output changed", n);
		__real_free(out_after);
	}
	printf("allocation-failure suite, readers: %ld allocations failed in turn, all clean\n", last_failed);
	/* compare allocates its points and per-point arrays, merge its statements' state: fewer than 3 means
	 * the hook missed them */
	ck_assert_int_ge(last_failed, 3);
	__real_free(before);
	__real_free(out_before);
	test_remove_file(db);
	test_remove_file(out_path);
	test_remove_file(trace);
}
END_TEST

static Suite *fault_suite(void)
{
	Suite *s = suite_create("fault_alloc");
	TCase *tc = tcase_create("alloc");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, every_allocation_fails_cleanly);
	tcase_add_test(tc, readers_fail_cleanly);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(fault_suite());
}
