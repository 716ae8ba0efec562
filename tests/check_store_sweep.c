/*
 * check_store_sweep: run keys, sweeps and failed runs in the results database (analysis/store.h), and
 * merging files (analysis/merge.h). Runs are fake (store_fixtures.h): no simulation is run.
 *
 * As in check_store.c, every test works on files in fresh temporary directories and inspects them through
 * a second, read-only SQLite connection.
 */
#include <check.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "merge.h"
#include "status.h"
#include "store.h"
#include "store_fixtures.h"
#include "testutil.h"

/* FNV-1a-128 of "a" is d228cb696f1a8caf78912b704e4a8964 (the FNV reference test vectors); the sweep key of
 * no runs and the file text "a" is exactly that hash. */
START_TEST(hash_is_fnv1a_128)
{
	char key[33];

	store_sweep_key(NULL, 0, "a", NULL, key);
	ck_assert_str_eq(key, "d228cb696f1a8caf78912b704e4a8964");
	store_sweep_key(NULL, 0, "", NULL, key);
	ck_assert_str_eq(key, "6c62272e07bb014262b821756295c58d");  /* the offset basis: no byte hashed */
}
END_TEST

/*
 * The run key hashes scenario text, NUL, overrides, NUL, seed in decimal. Expected values computed
 * independently (Python: h = basis; for byte: h = ((h ^ byte) * (2**88 + 0x13b)) % 2**128):
 *   "name: a\n" \0 "seed=1\n" \0 "42"  -> b78914c8a95585b525bb5cda560b51fe
 *   "" \0 "" \0 "0"                    -> a68bb3937c8b5822836dbc78c74277f7
 * Same inputs give the same key; a change in any one of the three gives another.
 */
START_TEST(run_key_is_stable)
{
	char k1[33], k2[33], k3[33], k4[33], k5[33];

	store_run_key("name: a\n", "seed=1\n", 42, k1);
	ck_assert_str_eq(k1, "b78914c8a95585b525bb5cda560b51fe");
	store_run_key("", "", 0, k2);
	ck_assert_str_eq(k2, "a68bb3937c8b5822836dbc78c74277f7");
	store_run_key(NULL, NULL, 0, k2);
	ck_assert_str_eq(k2, "a68bb3937c8b5822836dbc78c74277f7");
	store_run_key("name: a\n", "seed=1\n", 42, k2);
	ck_assert_str_eq(k1, k2);
	store_run_key("name: b\n", "seed=1\n", 42, k3);
	store_run_key("name: a\n", "seed=2\n", 42, k4);
	store_run_key("name: a\n", "seed=1\n", 43, k5);
	ck_assert_str_ne(k1, k3);
	ck_assert_str_ne(k1, k4);
	ck_assert_str_ne(k1, k5);
	/* the NUL separators keep text and overrides apart: "ab" + "" differs from "a" + "b" */
	store_run_key("ab", "", 1, k3);
	store_run_key("a", "b", 1, k4);
	ck_assert_str_ne(k3, k4);
}
END_TEST

/* The key the store writes for a run is store_run_key() of its scenario text, overrides and seed. */
START_TEST(stored_run_has_its_key)
{
	struct diag d = { "" };
	char *path;
	char key[33], sql[128];
	struct store *st = store_with_one_run(&path, &d);

	store_close(st);
	store_run_key("name: fake\nhorizon: 1h\n", "seed=7\n", 1, key);  /* scenario_fake(..., seed 1) */
	snprintf(sql, sizeof sql, "SELECT run_key FROM runs WHERE run_id = 1");
	assert_text(path, sql, key);
	tmp_remove(path);
}
END_TEST

/* A sweep of 3 points x 2 replications over two keys, one numeric and one not. */
static const char *const sweep_params[] = { "autoscaling.target", "fleet.0.type" };
static const char *const sweep_values[] = {
	"0.5", "p5.48xlarge",
	"0.6", "p4d.24xlarge",
	"7e-1", "p5.48xlarge",
};

static struct store_sweep sweep_fixture(const char *name, const char *key)
{
	struct store_sweep sw = {
		name, "sweeps/t.yaml", "name: t\n", sweep_params, 2, 3, 2, sweep_values, key,
	};
	return sw;
}

#define KEY_A "0123456789abcdef0123456789abcdef"
#define KEY_B "fedcba9876543210fedcba9876543210"

/* Write one fake run of sweep sweep_id at (point, replication), with p99 given. */
static void sweep_run_write(struct store *st, struct diag *d, int64_t sweep_id, int point, int rep, double p99)
{
	struct store_run_tag tag = { sweep_id, point, rep, 0 };
	struct scenario sc;

	scenario_fake(&sc, "swept", (uint64_t)(100 + rep));
	store_set_tag(st, &tag);
	ck_assert_msg(run_write(store_sink(st, d), &sc, 2, p99, STATUS_OK) == STATUS_OK, "message: %s", d->msg);
}

/*
 * Registering reserves npoints * nreps = 6 run ids after the runs in the file: with run 1 there, base 2
 * and ids 2..7. A second registration with the same key returns the same sweep and base and writes nothing.
 * A plain run written after it takes 8 (not 2: the ids are reserved), and a sweep run at (point 2, rep 1)
 * takes 2 + 2 * 2 + 1 = 7.
 */
START_TEST(sweep_register_is_idempotent)
{
	struct diag d = { "" };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct store_sweep sw = sweep_fixture("load test", KEY_A);
	int64_t id1, base1, id2, base2;
	struct bytes before;
	struct scenario sc;

	ck_assert_msg(store_sweep_register(st, &sw, &id1, &base1, &d) == STATUS_OK, "message: %s", d.msg);
	ck_assert_int_eq(base1, 2);
	before = file_bytes(path);
	ck_assert_int_eq(store_sweep_register(st, &sw, &id2, &base2, &d), STATUS_OK);
	ck_assert_int_eq(id2, id1);
	ck_assert_int_eq(base2, base1);
	assert_unchanged(path, before);

	scenario_fake(&sc, "plain", 5);
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 1, 0.5, STATUS_OK), STATUS_OK);
	ck_assert_int_eq(store_last_run_id(st), 8);
	sweep_run_write(st, &d, id1, 2, 1, 0.75);
	ck_assert_int_eq(store_last_run_id(st), 7);
	store_close(st);
	assert_text(path, "SELECT name || '|' || params || '|' || npoints || '|' || nreps || '|' || run_id_base "
		    "FROM sweeps", "load test|autoscaling.target\nfleet.0.type\n|3|2|2");
	assert_text(path, "SELECT sweep_id || ' ' || point || ' ' || replication || ' ' || status FROM runs "
		    "WHERE run_id = 7", "1 2 1 ok");
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sweep_params"), 6);
	ck_assert_double_eq_tol(query_double(path, "SELECT numeric_value FROM sweep_params WHERE point = 2 AND "
					     "key = 'autoscaling.target'"), 0.7, TOL);
	ck_assert(isnan(query_double(path, "SELECT numeric_value FROM sweep_params WHERE point = 2 AND "
				     "key = 'fleet.0.type'")));
	tmp_remove(path);
}
END_TEST

/*
 * The run key of a run that names files: with none, store_run_key()'s key exactly (existing databases keep
 * their keys); with one, the hash continued with NUL and the file's content hash (computed independently,
 * Python as above: "name: a\n" \0 "seed=1\n" \0 "42" \0 "d228cb696f1a8caf78912b704e4a8964" ->
 * 4a0e0e9a814d6024d6eace62b9c31c09); another content gives another key.
 */
START_TEST(run_key_covers_input_files)
{
	struct store_input in[1] = { { "d228cb696f1a8caf78912b704e4a8964", 1 } };
	char k0[33], k1[33], k2[33];

	store_run_key_inputs("name: a\n", "seed=1\n", 42, NULL, 0, k0);
	ck_assert_str_eq(k0, "b78914c8a95585b525bb5cda560b51fe");
	store_run_key_inputs("name: a\n", "seed=1\n", 42, in, 1, k1);
	ck_assert_str_eq(k1, "4a0e0e9a814d6024d6eace62b9c31c09");
	in[0].hash[0] = 'e';
	store_run_key_inputs("name: a\n", "seed=1\n", 42, in, 1, k2);
	ck_assert_str_ne(k1, k2);
}
END_TEST

/*
 * A file's content hash is FNV-1a-128 of its bytes, read in blocks: "a" gives the reference vector; a file
 * of 200,001 bytes (several 64 KiB blocks and a partial one) the hash of the same text in memory; a missing
 * file fails naming it.
 */
START_TEST(file_hash_streams_the_bytes)
{
	char *path = tmp_path("trace.csv"), key[33], *text = malloc(200002);
	struct store_input in;
	struct diag d = { "" };
	FILE *f;

	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	fputs("a", f);
	fclose(f);
	ck_assert_int_eq(store_file_hash(path, &in, &d), STATUS_OK);
	ck_assert_str_eq(in.hash, "d228cb696f1a8caf78912b704e4a8964");
	ck_assert_int_eq(in.bytes, 1);
	for (int i = 0; i < 200001; i++)
		text[i] = (char)('0' + i % 61);
	text[200001] = '\0';
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	fputs(text, f);
	fclose(f);
	ck_assert_int_eq(store_file_hash(path, &in, &d), STATUS_OK);
	store_sweep_key(NULL, 0, text, NULL, key);
	ck_assert_str_eq(in.hash, key);
	ck_assert_int_eq(in.bytes, 200001);
	free(text);
	tmp_remove(path);
	ck_assert_int_eq(store_file_hash("/nonexistent/gpucap/trace.csv", &in, &d), STATUS_ENOENT);
	ck_assert_msg(strstr(d.msg, "/nonexistent/gpucap/trace.csv: cannot open"), "message: %s", d.msg);
}
END_TEST

/*
 * A run whose scenario names a file records it in run_inputs (path, content hash, size) and its key covers
 * the content; the sweep key with a --name differs from the file's own (a NUL and the name appended), and
 * with no name is as before.
 */
START_TEST(run_records_its_input_files)
{
	struct diag d = { "" };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	char *trace = tmp_path("prices.txt"), key[33], named[33];
	char (*paths)[SCENARIO_PATH_MAX] = calloc(1, sizeof *paths);
	struct store_input in;
	struct scenario sc;
	FILE *f;

	ck_assert_ptr_nonnull(paths);
	ck_assert_ptr_nonnull(f = fopen(trace, "wb"));
	fputs("a", f);
	fclose(f);
	snprintf(paths[0], SCENARIO_PATH_MAX, "%s", trace);
	scenario_fake(&sc, "traced", 7);
	sc.inputs.path = paths;
	sc.inputs.n = 1;
	ck_assert_msg(run_write(store_sink(st, &d), &sc, 2, 0.5, STATUS_OK) == STATUS_OK, "message: %s", d.msg);
	store_close(st);
	ck_assert_int_eq(store_file_hash(trace, &in, &d), STATUS_OK);
	store_run_key_inputs(sc.text, sc.overrides, sc.seed, &in, 1, key);
	assert_text(path, "SELECT run_key FROM runs WHERE run_id = 2", key);
	{
		char *want = sqlite3_mprintf("1|%s|d228cb696f1a8caf78912b704e4a8964|1", trace);
		assert_text(path, "SELECT seq || '|' || path || '|' || content_hash || '|' || bytes FROM run_inputs "
			    "WHERE run_id = 2", want);
		sqlite3_free(want);
	}
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM run_inputs WHERE run_id = 1"), 0);
	store_sweep_key(NULL, 0, "a", "grid2", named);
	store_sweep_key(NULL, 0, "a", NULL, key);
	ck_assert_str_eq(key, "d228cb696f1a8caf78912b704e4a8964");
	ck_assert_str_ne(named, key);
	free(paths);
	tmp_remove(trace);
	tmp_remove(path);
}
END_TEST

/*
 * A connection hashes a file once while it stays unwritten (a worker's runs of one trace), and again once it
 * is written: a file last changed over 1 s ago is kept; two runs of it have one key; the file rewritten with
 * the same size (and so a new change time) gives the next run another key and the new hash.
 */
START_TEST(file_hash_cache_sees_a_rewrite)
{
	struct diag d = { "" };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	char *trace = tmp_path("t.csv");
	char (*paths)[SCENARIO_PATH_MAX] = calloc(1, sizeof *paths);
	struct scenario sc;
	FILE *f;

	ck_assert_ptr_nonnull(paths);
	ck_assert_ptr_nonnull(f = fopen(trace, "wb"));
	fputs("a", f);
	fclose(f);
	sleep(2);  /* old enough to be kept (over 1 s) */
	snprintf(paths[0], SCENARIO_PATH_MAX, "%s", trace);
	scenario_fake(&sc, "traced", 7);
	sc.inputs.path = paths;
	sc.inputs.n = 1;
	for (int i = 0; i < 2; i++)
		ck_assert_msg(run_write(store_sink(st, &d), &sc, 2, 0.5, STATUS_OK) == STATUS_OK, "message: %s", d.msg);
	ck_assert_ptr_nonnull(f = fopen(trace, "wb"));
	fputs("b", f);
	fclose(f);
	ck_assert_msg(run_write(store_sink(st, &d), &sc, 2, 0.5, STATUS_OK) == STATUS_OK, "message: %s", d.msg);
	store_close(st);
	ck_assert_int_eq(query_int(path, "SELECT count(DISTINCT run_key) FROM runs WHERE run_id IN (2, 3)"), 1);
	ck_assert_int_eq(query_int(path, "SELECT count(DISTINCT run_key) FROM runs WHERE run_id IN (2, 4)"), 2);
	assert_text(path, "SELECT group_concat(content_hash, ' ') FROM (SELECT content_hash FROM run_inputs "
		    "ORDER BY run_id)", "d228cb696f1a8caf78912b704e4a8964 d228cb696f1a8caf78912b704e4a8964 "
		    "d228cb69721a8caf78912b704e4a8d15");
	free(paths);
	tmp_remove(trace);
	tmp_remove(path);
}
END_TEST

/* A claimant whose alive() answers from a flag: every other process live, or every one dead. */
static bool others_alive;
static bool fake_alive(const struct store_claimant *me, const char *host, int64_t pid, const char *start)
{
	(void)me;
	(void)host;
	(void)pid;
	(void)start;
	return others_alive;
}

/*
 * Claims: process A claims run r of a sweep; B, with A live, finds it taken (by "hostA:11"), and sees A
 * running the sweep; with A dead, B takes it over, and the row is B's. A run stored 'ok' is done for any
 * claimant. Every claim is one row of run_claims.
 */
START_TEST(claims_split_the_runs)
{
	struct diag d = { "" };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct store_sweep sw = sweep_fixture("claims", KEY_A);
	struct store_claimant a = { "hostA", 11, "100", fake_alive, NULL };
	struct store_claimant b = { "hostB", 22, "200", fake_alive, NULL };
	enum store_claim got;
	int64_t id, base;
	char who[96];

	ck_assert_int_eq(store_sweep_register(st, &sw, &id, &base, &d), STATUS_OK);
	ck_assert_int_eq(store_claim_run(st, &a, id, base, &got, who, &d), STATUS_OK);
	ck_assert_int_eq(got, STORE_CLAIMED);
	others_alive = true;
	ck_assert_int_eq(store_claim_run(st, &a, id, base, &got, who, &d), STATUS_OK);
	ck_assert_int_eq(got, STORE_CLAIMED);  /* its own claim, taken again */
	ck_assert_int_eq(store_claim_run(st, &b, id, base, &got, who, &d), STATUS_OK);
	ck_assert_int_eq(got, STORE_CLAIM_TAKEN);
	ck_assert_str_eq(who, "hostA:11");
	ck_assert_int_eq(store_sweep_claimed(st, &b, id, who, &d), STATUS_OK);
	ck_assert_str_eq(who, "hostA:11");
	ck_assert_int_eq(store_sweep_claimed(st, &a, id, who, &d), STATUS_OK);
	ck_assert_str_eq(who, "");  /* only its own claims */
	others_alive = false;
	ck_assert_int_eq(store_claim_run(st, &b, id, base, &got, who, &d), STATUS_OK);
	ck_assert_int_eq(got, STORE_CLAIMED);
	sweep_run_write(st, &d, id, 0, 1, 0.5);
	ck_assert_int_eq(store_claim_run(st, &a, id, base + 1, &got, who, &d), STATUS_OK);
	ck_assert_int_eq(got, STORE_CLAIM_DONE);
	store_close(st);
	assert_text(path, "SELECT group_concat(run_id || ' ' || host || ' ' || pid, ',') FROM run_claims", "2 hostB 22");
	tmp_remove(path);
}
END_TEST


/*
 * A database holds one sweep of a name: registering a sweep of a name already there under another key (the
 * sweep file edited) is refused with a usage error that names the sweep there and --name, and writes
 * nothing; the same key finds the sweep there, and another name is registered.
 */
START_TEST(sweep_name_taken_is_refused)
{
	struct diag d = { "" };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct store_sweep sw = sweep_fixture("grid", KEY_A), edited = sweep_fixture("grid", KEY_B);
	struct store_sweep renamed = sweep_fixture("grid2", KEY_B);
	int64_t id, base, id2;

	ck_assert_int_eq(store_sweep_register(st, &sw, &id, &base, &d), STATUS_OK);
	ck_assert_int_eq(store_sweep_register(st, &edited, &id2, &base, &d), STATUS_EUSAGE);
	ck_assert_msg(strstr(d.msg, "already holds a sweep named grid (sweep 1,") && strstr(d.msg, "--name NEW"),
		      "message: %s", d.msg);
	ck_assert_int_eq(store_sweep_register(st, &sw, &id2, &base, &d), STATUS_OK);
	ck_assert_int_eq(id2, id);
	ck_assert_int_eq(store_sweep_register(st, &renamed, &id2, &base, &d), STATUS_OK);
	ck_assert_int_ne(id2, id);
	store_close(st);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sweeps WHERE name = 'grid'"), 1);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sweeps"), 2);
	tmp_remove(path);
}
END_TEST

/*
 * The view sweep_load_test ("load test" with the space replaced): one row per run of the sweep, the fixed
 * columns, one column per swept key (autoscaling_target numeric, fleet_0_type text), then run_summary's
 * columns but status. A second sweep whose name makes the same view name ("load-test") gets sweep_load_test_2.
 */
START_TEST(sweep_view_has_param_columns)
{
	struct diag d = { "" };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct store_sweep sw = sweep_fixture("load test", KEY_A), other = sweep_fixture("load-test", KEY_B);
	int64_t id, base;

	ck_assert_int_eq(store_sweep_register(st, &sw, &id, &base, &d), STATUS_OK);
	sweep_run_write(st, &d, id, 0, 0, 0.25);
	sweep_run_write(st, &d, id, 1, 1, 0.5);
	ck_assert_int_eq(store_sweep_register(st, &other, &id, &base, &d), STATUS_OK);
	ck_assert_int_eq(id, 2);
	store_close(st);
	assert_text(path, "SELECT group_concat(name, ' ') FROM (SELECT name FROM pragma_table_info('sweep_load_test') "
		    "ORDER BY cid LIMIT 9)", "sweep_id point replication status error autoscaling_target fleet_0_type "
		    "run_id name");
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM pragma_table_info('sweep_load_test') WHERE "
				   "name = 'latency_p99_s'"), 1);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM pragma_table_info('run_summary')") + 7 - 1,
			 query_int(path, "SELECT count(*) FROM pragma_table_info('sweep_load_test')"));
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sweep_load_test"), 2);
	assert_text(path, "SELECT typeof(autoscaling_target) || ' ' || typeof(fleet_0_type) || ' ' || fleet_0_type "
		    "FROM sweep_load_test WHERE point = 1", "real text p4d.24xlarge");
	ck_assert_double_eq_tol(query_double(path, "SELECT autoscaling_target FROM sweep_load_test WHERE point = 1"),
				0.6, TOL);
	ck_assert_double_eq_tol(query_double(path, "SELECT latency_p99_s FROM sweep_load_test WHERE point = 1"),
				0.5, TOL);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM sqlite_master WHERE type = 'view' AND "
				   "name = 'sweep_load_test_2'"), 1);
	tmp_remove(path);
}
END_TEST

/*
 * store_sweep_done marks ok runs only. A failure is recorded as a 'failed' row with no metrics; a later ok
 * run of the same index replaces it; a failure recorded over an ok run leaves the ok run alone.
 */
START_TEST(sweep_done_and_failures)
{
	struct diag d = { "" };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct store_sweep sw = sweep_fixture("failing", KEY_A);
	struct store_run_tag t01 = { 0, 0, 1, 0 }, t10 = { 0, 1, 0, 0 };
	unsigned char done[6];
	int64_t id, base;

	ck_assert_int_eq(store_sweep_register(st, &sw, &id, &base, &d), STATUS_OK);
	t01.sweep_id = t10.sweep_id = id;
	sweep_run_write(st, &d, id, 0, 0, 0.25);                           /* index 0 ok */
	ck_assert_int_eq(store_record_failure(st, &t01, "swept", "s.yaml", "name: x\n", "a=1\n", 101,
					      "s.yaml:3:5: expected a number", &d), STATUS_OK);   /* index 1 */
	ck_assert_int_eq(store_last_run_id(st), base + 1);
	ck_assert_int_eq(store_record_failure(st, &t10, "swept", NULL, NULL, NULL, 100, "boom", &d),
			 STATUS_OK);                                               /* index 2 */
	ck_assert_int_eq(store_sweep_done(st, id, 6, done, &d), STATUS_OK);
	ck_assert_mem_eq(done, "\1\0\0\0\0\0", 6);

	sweep_run_write(st, &d, id, 1, 0, 0.5);                            /* index 2 ok: replaces it */
	ck_assert_int_eq(store_record_failure(st, &t01, "swept", NULL, "name: x\n", "", 101, "again", &d),
			 STATUS_OK);                                               /* failed over failed */
	t01.point = 0;
	t01.replication = 0;
	ck_assert_int_eq(store_record_failure(st, &t01, "swept", NULL, "", "", 100, "late", &d), STATUS_OK);
	ck_assert_int_eq(store_sweep_done(st, id, 6, done, &d), STATUS_OK);
	ck_assert_mem_eq(done, "\1\0\1\0\0\0", 6);
	store_close(st);

	assert_text(path, "SELECT status || '|' || quote(error) FROM runs WHERE run_id = 2", "ok|NULL");
	assert_text(path, "SELECT status || '|' || error || '|' || horizon_s || '|' || instance_type || '|' || "
		    "length(run_key) FROM runs WHERE run_id = 3", "failed|again|0.0||32");
	assert_text(path, "SELECT status FROM runs WHERE run_id = 4", "ok");
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM metrics WHERE run_id = 3"), 0);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM metrics WHERE run_id = 4"), 3);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs"), 4);
	tmp_remove(path);
}
END_TEST

/*
 * A sweep run written twice (same run id: a worker orphaned by a crash finished it too) is stored once; the
 * second end() succeeds, writes nothing, and reports the run id.
 */
START_TEST(sweep_run_written_twice_is_stored_once)
{
	struct diag d = { "" };
	char *path;
	struct store *st = store_with_one_run(&path, &d);
	struct store_sweep sw = sweep_fixture("twice", KEY_A);
	struct bytes before;
	int64_t id, base;

	ck_assert_int_eq(store_sweep_register(st, &sw, &id, &base, &d), STATUS_OK);
	sweep_run_write(st, &d, id, 1, 1, 0.25);
	ck_assert_int_eq(store_last_run_id(st), base + 3);
	before = file_bytes(path);
	sweep_run_write(st, &d, id, 1, 1, 0.99);
	ck_assert_int_eq(store_last_run_id(st), base + 3);
	assert_unchanged(path, before);
	store_close(st);
	ck_assert_int_eq(query_int(path, "SELECT count(*) FROM runs WHERE sweep_id = 1"), 1);
	ck_assert_double_eq_tol(query_double(path, "SELECT value FROM metrics WHERE name = 'latency_p99_s' AND "
					     "run_id = 5"), 0.25, TOL);
	tmp_remove(path);
}
END_TEST

/* Every row of a file that merging must reproduce: runs (but the wall-clock columns), metrics, samples,
 * events, sweep_params, and the sweeps' keys and bases. Returns owned. */
static char *merge_dump(const char *path)
{
	static const char *const queries[] = {
		"SELECT run_id, name, scenario_path, scenario_text, overrides, seed, status, version, horizon_s, "
		"instance_type, sweep_id, point, replication, run_key, error FROM runs ORDER BY run_id",
		"SELECT * FROM metrics ORDER BY run_id, name",
		"SELECT * FROM samples ORDER BY run_id, t_s",
		"SELECT * FROM events ORDER BY run_id, seq",
		"SELECT * FROM sweep_params ORDER BY sweep_id, point, key",
		"SELECT sweep_id, name, sweep_key, params, npoints, nreps, run_id_base FROM sweeps ORDER BY sweep_id",
	};
	sqlite3 *db;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	for (size_t q = 0; q < sizeof queries / sizeof queries[0]; q++) {
		sqlite3_stmt *stmt;

		ck_assert_msg(sqlite3_prepare_v2(db, queries[q], -1, &stmt, NULL) == SQLITE_OK, "%s",
			      sqlite3_errmsg(db));
		fprintf(out, "%zu:\n", q);
		while (sqlite3_step(stmt) == SQLITE_ROW) {
			for (int c = 0; c < sqlite3_column_count(stmt); c++)
				fprintf(out, "%d:%s|", sqlite3_column_type(stmt, c),
					(const char *)sqlite3_column_text(stmt, c));
			fputc('\n', out);
		}
		sqlite3_finalize(stmt);
	}
	sqlite3_close(db);
	ck_assert_int_eq(fclose(out), 0);
	return text;
}

/* A new file holding the fixture sweep (KEY_A, named name) and its runs with index % nshards == shard. */
static char *shard_file(const char *name, int shard, int nshards)
{
	struct diag d = { "" };
	struct store *st = NULL;
	struct store_sweep sw = sweep_fixture(name, KEY_A);
	char *path = tmp_path("shard.sqlite");
	int64_t id, base;

	ck_assert_int_eq(store_open(&st, path, &d), STATUS_OK);
	ck_assert_int_eq(store_sweep_register(st, &sw, &id, &base, &d), STATUS_OK);
	for (int i = 0; i < 6; i++)
		if (i % nshards == shard)
			sweep_run_write(st, &d, id, i / 2, i % 2, 0.1 * (i + 1));
	store_close(st);
	return path;
}

static int merge_into(const char *out_path, const char *in_path, struct merge_counts *n, struct diag *d)
{
	struct store *st = NULL;
	int status;

	ck_assert_int_eq(store_open(&st, out_path, d), STATUS_OK);
	status = merge_file(st, in_path, n, d);
	store_close(st);
	return status;
}

/*
 * Two shards (runs 0, 2, 4 and 1, 3, 5) merged into a fresh file give the same rows as one file holding all
 * six runs; merging them again changes no byte. The view is created in the merged file.
 */
START_TEST(merge_shards_equals_one_file)
{
	struct diag d = { "" };
	char *whole = shard_file("load", 0, 1);
	char *s1 = shard_file("load", 0, 2), *s2 = shard_file("load", 1, 2);
	char *out = tmp_path("merged.sqlite");
	struct merge_counts n;
	char *want, *got;
	struct bytes before;

	ck_assert_msg(merge_into(out, s1, &n, &d) == STATUS_OK, "message: %s", d.msg);
	ck_assert_int_eq(n.runs_copied, 3);
	ck_assert_int_eq(n.sweeps_added, 1);
	ck_assert_msg(merge_into(out, s2, &n, &d) == STATUS_OK, "message: %s", d.msg);
	ck_assert_int_eq(n.runs_copied, 3);
	ck_assert_int_eq(n.sweeps_added, 0);
	want = merge_dump(whole);
	got = merge_dump(out);
	ck_assert_str_eq(got, want);
	ck_assert_int_eq(query_int(out, "SELECT count(*) FROM sweep_load WHERE status = 'ok'"), 6);

	before = file_bytes(out);
	ck_assert_int_eq(merge_into(out, s1, &n, &d), STATUS_OK);
	ck_assert_int_eq(n.runs_copied, 0);
	ck_assert_int_eq(n.runs_present, 3);
	ck_assert_int_eq(merge_into(out, whole, &n, &d), STATUS_OK);
	ck_assert_int_eq(n.runs_present, 6);
	assert_unchanged(out, before);
	free(want);
	free(got);
	tmp_remove(whole);
	tmp_remove(s1);
	tmp_remove(s2);
	tmp_remove(out);
}
END_TEST

/*
 * Plain runs are appended after OUT's runs and reserved ids: OUT has plain run 1 and a sweep at 2..7 (base
 * 2, 6 runs); IN's plain run 1 becomes 8. Merging IN again finds it (same key and started_at) and skips it.
 * IN's sweep runs land at OUT's base: IN's run 1 + index is OUT's 2 + index.
 */
START_TEST(merge_appends_plain_runs)
{
	struct diag d = { "" };
	struct store *st = NULL;
	char *out, *in;
	struct store_sweep sw = sweep_fixture("load", KEY_A);
	struct merge_counts n;
	struct scenario sc;
	int64_t id, base;

	store_close(store_with_one_run(&out, &d));
	in = tmp_path("in.sqlite");
	ck_assert_int_eq(store_open(&st, in, &d), STATUS_OK);
	scenario_fake(&sc, "elsewhere", 77);
	ck_assert_int_eq(run_write(store_sink(st, &d), &sc, 2, 0.5, STATUS_OK), STATUS_OK);   /* run 1 */
	ck_assert_int_eq(store_sweep_register(st, &sw, &id, &base, &d), STATUS_OK);           /* base 2 */
	sweep_run_write(st, &d, id, 2, 0, 0.3);                                              /* run 2 + 4 */
	store_close(st);

	ck_assert_msg(merge_into(out, in, &n, &d) == STATUS_OK, "message: %s", d.msg);
	ck_assert_int_eq(n.runs_copied, 2);
	assert_text(out, "SELECT group_concat(run_id || ':' || name, ' ') FROM (SELECT * FROM runs ORDER BY run_id)",
		    "1:first 6:swept 8:elsewhere");
	assert_text(out, "SELECT run_id_base FROM sweeps", "2");
	ck_assert_int_eq(query_int(out, "SELECT count(*) FROM samples WHERE run_id = 8"), 2);
	ck_assert_int_eq(merge_into(out, in, &n, &d), STATUS_OK);
	ck_assert_int_eq(n.runs_copied, 0);
	ck_assert_int_eq(n.runs_present, 2);
	ck_assert_int_eq(query_int(out, "SELECT count(*) FROM runs"), 3);
	tmp_remove(out);
	tmp_remove(in);
}
END_TEST

/* Refused, with the file named and OUT unchanged: a version-2 file, and another sweep of the same name. */
START_TEST(merge_refuses_version_and_name_clash)
{
	struct diag d = { "" };
	struct store *st = NULL;
	char *out = shard_file("load", 0, 1), *old = tmp_path("old.sqlite"), *other = tmp_path("other.sqlite");
	struct store_sweep sw = sweep_fixture("load", KEY_B);
	struct merge_counts n;
	struct bytes before = file_bytes(out);
	int64_t id, base;

	raw_exec(old, "PRAGMA application_id = 1196442448; PRAGMA user_version = 2; CREATE TABLE runs (x)");
	ck_assert_int_eq(merge_into(out, old, &n, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, old) && strstr(d.msg, "schema version 2"), "message: %s", d.msg);

	ck_assert_int_eq(store_open(&st, other, &d), STATUS_OK);
	ck_assert_int_eq(store_sweep_register(st, &sw, &id, &base, &d), STATUS_OK);
	sweep_run_write(st, &d, id, 0, 0, 0.3);
	store_close(st);
	ck_assert_int_eq(merge_into(out, other, &n, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, other) && strstr(d.msg, out) && strstr(d.msg, "sweep 'load'"), "message: %s",
		      d.msg);
	ck_assert_int_eq(merge_into(out, out, &n, &d), STATUS_EINPUT);
	assert_unchanged(out, before);
	tmp_remove(out);
	tmp_remove(old);
	tmp_remove(other);
}
END_TEST

static Suite *store_sweep_suite(void)
{
	Suite *s = suite_create("store_sweep");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, hash_is_fnv1a_128);
	tcase_add_test(tc, run_key_is_stable);
	tcase_add_test(tc, stored_run_has_its_key);
	tcase_add_test(tc, sweep_register_is_idempotent);
	tcase_add_test(tc, sweep_view_has_param_columns);
	tcase_add_test(tc, sweep_name_taken_is_refused);
	tcase_add_test(tc, run_key_covers_input_files);
	tcase_add_test(tc, file_hash_streams_the_bytes);
	tcase_add_test(tc, run_records_its_input_files);
	tcase_add_test(tc, claims_split_the_runs);
	tcase_add_test(tc, file_hash_cache_sees_a_rewrite);
	tcase_add_test(tc, sweep_done_and_failures);
	tcase_add_test(tc, sweep_run_written_twice_is_stored_once);
	tcase_add_test(tc, merge_shards_equals_one_file);
	tcase_add_test(tc, merge_appends_plain_runs);
	tcase_add_test(tc, merge_refuses_version_and_name_clash);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(store_sweep_suite());
}
