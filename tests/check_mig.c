/*
 * check_mig: several models on one fleet, each on its own MIG partitions (scenario_models.c, mig.c,
 * multimodel.c, tally.c). The layout rules against NVIDIA's tables, and a whole run worked out by hand.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "capture.h"
#include "mig.h"
#include "scenario.h"
#include "status.h"
#include "store.h"
#include "testutil.h"
#include "world.h"

static struct capture cap;

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/* Whether the profiles names[0..n) with counts fit one GPU of model gpu. */
static bool fits(const char *gpu, const char *const *names, const int *counts, int n)
{
	const struct mig_gpu *g = mig_gpu_find(gpu);
	const struct mig_profile *p[8];
	char why[200];

	ck_assert_ptr_nonnull(g);
	for (int i = 0; i < n; i++) {
		p[i] = mig_profile_find(g, names[i]);
		ck_assert_msg(p[i] != NULL, "%s has no %s", gpu, names[i]);
	}
	return mig_layout_fits(p, counts, n, why, sizeof why);
}

/*
 * Compute slices (of 7) and memory slices (of 8, the placement sizes: 1g = 1, 1g double-memory = 2, 2g = 2,
 * 3g = 4, 4g = 4, 7g = 8), and NVIDIA's most per GPU:
 *   3g.40gb + 4g.40gb: 3 + 4 = 7 compute, 4 + 4 = 8 memory      -> fits (the brief's example)
 *   3g.40gb x 2: 6 compute, 8 memory                           -> fits (NVIDIA: 2 per GPU)
 *   4g.40gb x 2: more than its 1 per GPU (and 8 compute)       -> no
 *   3g.40gb x 2 + 1g.10gb: 7 compute, 9 memory                 -> no
 *   1g.10gb x 7: 7 compute, 7 memory                           -> fits
 *   1g.20gb x 4: 4 compute, 8 memory                           -> fits; x 4 + 1g.10gb: 9 memory -> no
 *   mig-parted's all-balanced, 1g.10gb x 2 + 2g.20gb + 3g.40gb: 7 compute, 2 + 2 + 4 = 8 memory -> fits
 *   A100 40GB: 1g.10gb x 4: 8 memory -> fits; 4g.20gb + 3g.20gb: 7 compute, 8 memory -> fits
 *   H200: 3g.71gb + 4g.71gb -> fits; 1g.35gb x 5: more than its 4 -> no
 */
START_TEST(layout_fits_one_gpu)
{
	ck_assert(fits("H100 80GB", (const char *[]){ "3g.40gb", "4g.40gb" }, (int[]){ 1, 1 }, 2));
	ck_assert(fits("H100 80GB", (const char *[]){ "3g.40gb" }, (int[]){ 2 }, 1));
	ck_assert(!fits("H100 80GB", (const char *[]){ "4g.40gb" }, (int[]){ 2 }, 1));
	ck_assert(!fits("H100 80GB", (const char *[]){ "3g.40gb", "1g.10gb" }, (int[]){ 2, 1 }, 2));
	ck_assert(fits("H100 80GB", (const char *[]){ "1g.10gb" }, (int[]){ 7 }, 1));
	ck_assert(fits("A100 80GB", (const char *[]){ "1g.20gb" }, (int[]){ 4 }, 1));
	ck_assert(!fits("A100 80GB", (const char *[]){ "1g.20gb", "1g.10gb" }, (int[]){ 4, 1 }, 2));
	ck_assert(fits("H100 80GB", (const char *[]){ "1g.10gb", "2g.20gb", "3g.40gb" }, (int[]){ 2, 1, 1 }, 3));
	ck_assert(fits("A100 40GB", (const char *[]){ "1g.10gb" }, (int[]){ 4 }, 1));
	ck_assert(fits("A100 40GB", (const char *[]){ "4g.20gb", "3g.20gb" }, (int[]){ 1, 1 }, 2));
	ck_assert(fits("H200 141GB", (const char *[]){ "3g.71gb", "4g.71gb" }, (int[]){ 1, 1 }, 2));
	ck_assert(!fits("H200 141GB", (const char *[]){ "1g.35gb" }, (int[]){ 5 }, 1));
	ck_assert_ptr_null(mig_gpu_find("A10G 24GB"));
	ck_assert_ptr_null(mig_profile_find(mig_gpu_find("H100 80GB"), "3g.20gb"));  /* an A100 40GB name */
	ck_assert(mig_profile_find(mig_gpu_find("H100 80GB"), "1g.10gb+me")->media);
}
END_TEST

/* The profile `name` of gpu, which must exist. */
static const struct mig_profile *profile(const char *gpu, const char *name)
{
	const struct mig_gpu *g = mig_gpu_find(gpu);
	const struct mig_profile *p = g ? mig_profile_find(g, name) : NULL;

	ck_assert_msg(p != NULL, "%s has no %s", gpu, name);
	return p;
}

/* Whether names[0..n) with counts fit one GPU of model gpu; the reason in why otherwise. */
static bool fits_why(const char *gpu, const char *const *names, const int *counts, int n, char *why, size_t size)
{
	const struct mig_profile *p[8];

	for (int i = 0; i < n; i++)
		p[i] = profile(gpu, names[i]);
	why[0] = '\0';
	return mig_layout_fits(p, counts, n, why, size);
}

/*
 * The H200 141GB table, row by row, against NVIDIA's MIG user guide (SOURCES.md [mig-profiles]): profile,
 * compute slices (of 7), memory slices its placement occupies (of 8), most per GPU:
 *   1g.18gb 1 1 7 | 1g.18gb+me 1 1 1 (media) | 1g.35gb 1 2 4 | 2g.35gb 2 2 3 | 3g.71gb 3 4 2 |
 *   4g.71gb 4 4 1 | 7g.141gb 7 8 1
 * and the other tables' rows (a mistyped constant there can still pass the layouts above): A100 40GB
 * 1g.5gb 1 1 7, 1g.10gb 1 2 4, 2g.10gb 2 2 3, 3g.20gb 3 4 2, 4g.20gb 4 4 1, 7g.40gb 7 8 1; 80 GB 1g.10gb
 * 1 1 7, 1g.20gb 1 2 4, 2g.20gb 2 2 3, 3g.40gb 3 4 2, 4g.40gb 4 4 1, 7g.80gb 7 8 1. The H200 names offered
 * (no +me): six, in table order.
 */
START_TEST(h200_profiles_are_nvidias_table)
{
	static const struct {
		const char *gpu, *name;
		int compute, memory, max;
		bool media;
	} rows[] = {
		{ "H200 141GB", "1g.18gb", 1, 1, 7, false }, { "H200 141GB", "1g.18gb+me", 1, 1, 1, true },
		{ "H200 141GB", "1g.35gb", 1, 2, 4, false }, { "H200 141GB", "2g.35gb", 2, 2, 3, false },
		{ "H200 141GB", "3g.71gb", 3, 4, 2, false }, { "H200 141GB", "4g.71gb", 4, 4, 1, false },
		{ "H200 141GB", "7g.141gb", 7, 8, 1, false },
		{ "A100 40GB", "1g.5gb", 1, 1, 7, false }, { "A100 40GB", "1g.10gb", 1, 2, 4, false },
		{ "A100 40GB", "2g.10gb", 2, 2, 3, false }, { "A100 40GB", "3g.20gb", 3, 4, 2, false },
		{ "A100 40GB", "4g.20gb", 4, 4, 1, false }, { "A100 40GB", "7g.40gb", 7, 8, 1, false },
		{ "A100 80GB", "1g.10gb", 1, 1, 7, false }, { "A100 80GB", "1g.20gb", 1, 2, 4, false },
		{ "H100 80GB", "2g.20gb", 2, 2, 3, false }, { "H100 80GB", "3g.40gb", 3, 4, 2, false },
		{ "H100 80GB", "4g.40gb", 4, 4, 1, false }, { "H100 80GB", "7g.80gb", 7, 8, 1, false },
	};
	char buf[200];

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct mig_profile *p = profile(rows[i].gpu, rows[i].name);
		ck_assert_msg(p->compute == rows[i].compute && p->memory == rows[i].memory &&
			      p->max_per_gpu == rows[i].max && p->media == rows[i].media,
			      "%s %s: %d %d %d, expected %d %d %d", rows[i].gpu, rows[i].name, p->compute, p->memory,
			      p->max_per_gpu, rows[i].compute, rows[i].memory, rows[i].max);
	}
	ck_assert_str_eq(mig_profile_names(mig_gpu_find("H200 141GB"), buf, sizeof buf),
			 "1g.18gb, 1g.35gb, 2g.35gb, 3g.71gb, 4g.71gb, 7g.141gb");
	ck_assert_ptr_null(mig_profile_find(mig_gpu_find("H200 141GB"), "1g.20gb"));  /* an 80 GB name */
}
END_TEST

/*
 * H200 layouts at the edges of one GPU (7 compute slices, 8 memory slices, NVIDIA's most per GPU):
 *   7g.141gb x 1: 7 compute, 8 memory, both exactly full            -> fits
 *   7g.141gb x 2: more than its 1 per GPU                            -> no, "at most 1 fit"
 *   1g.35gb x 4: 4 compute, 4 x 2 = 8 memory, exactly full           -> fits
 *   1g.35gb x 4 + 1g.18gb: 5 compute, 9 memory, one slice over       -> no
 *   2g.35gb x 3 + 1g.18gb: 6 + 1 = 7 compute, exactly; 6 + 1 = 7 mem -> fits
 *   2g.35gb x 3 + 1g.18gb x 2: 8 compute, one over (8 memory)        -> no
 *   3g.71gb x 2 + 1g.18gb: 7 compute, 8 + 1 = 9 memory               -> no
 *   4g.71gb + 2g.35gb + 1g.18gb: 7 compute, 4 + 2 + 1 = 7 memory     -> fits
 *   1g.18gb x 7: 7 compute, 7 memory                                 -> fits; x 8: more than its 7 -> no
 * A layout over a profile's count is refused naming that count, before the slices are summed: A100 40GB
 * 1g.10gb x 5 would also take 10 memory slices, but the reason given is "at most 4 fit".
 */
START_TEST(h200_layouts_at_the_edges)
{
	char why[200];

	ck_assert(fits_why("H200 141GB", (const char *[]){ "7g.141gb" }, (int[]){ 1 }, 1, why, sizeof why));
	ck_assert(!fits_why("H200 141GB", (const char *[]){ "7g.141gb" }, (int[]){ 2 }, 1, why, sizeof why));
	ck_assert_str_eq(why, "2 x 7g.141gb do not fit one GPU: at most 1 fit");
	ck_assert(fits_why("H200 141GB", (const char *[]){ "1g.35gb" }, (int[]){ 4 }, 1, why, sizeof why));
	ck_assert(!fits_why("H200 141GB", (const char *[]){ "1g.35gb", "1g.18gb" }, (int[]){ 4, 1 }, 2, why,
			    sizeof why));
	ck_assert_msg(strstr(why, "5 compute slices (of 7) and 9 memory slices (of 8)") != NULL, "%s", why);
	ck_assert(fits_why("H200 141GB", (const char *[]){ "2g.35gb", "1g.18gb" }, (int[]){ 3, 1 }, 2, why,
			   sizeof why));
	ck_assert(!fits_why("H200 141GB", (const char *[]){ "2g.35gb", "1g.18gb" }, (int[]){ 3, 2 }, 2, why,
			    sizeof why));
	ck_assert_msg(strstr(why, "8 compute slices (of 7) and 8 memory slices (of 8)") != NULL, "%s", why);
	ck_assert(!fits_why("H200 141GB", (const char *[]){ "3g.71gb", "1g.18gb" }, (int[]){ 2, 1 }, 2, why,
			    sizeof why));
	ck_assert(fits_why("H200 141GB", (const char *[]){ "4g.71gb", "2g.35gb", "1g.18gb" }, (int[]){ 1, 1, 1 }, 3,
			   why, sizeof why));
	ck_assert(fits_why("H200 141GB", (const char *[]){ "1g.18gb" }, (int[]){ 7 }, 1, why, sizeof why));
	ck_assert(!fits_why("H200 141GB", (const char *[]){ "1g.18gb" }, (int[]){ 8 }, 1, why, sizeof why));
	ck_assert_str_eq(why, "8 x 1g.18gb do not fit one GPU: at most 7 fit");
	ck_assert(!fits_why("A100 40GB", (const char *[]){ "1g.10gb" }, (int[]){ 5 }, 1, why, sizeof why));
	ck_assert_str_eq(why, "5 x 1g.10gb do not fit one GPU: at most 4 fit");
}
END_TEST

#define TWO_MODELS \
	"name: mig-hand\nhorizon: 1h\n" \
	"serving:\n  instance_type: p5.48xlarge\n  partitions:\n    layout: {3g.40gb: 1, 4g.40gb: 1}\n" \
	"models:\n" \
	"  - name: chat\n    partition: 3g.40gb\n    slo: {latency_s: 3}\n" \
	"    workload:\n      arrivals: {kind: trace, path: " TEST_DATA_DIR "/good/traces/mig_chat.csv, format: " \
	"generic, columns: {time: t, time_format: seconds, service_s: svc}}\n      service: {kind: trace}\n" \
	"  - name: embed\n    partition: 4g.40gb\n    slo: {latency_s: 1.1}\n" \
	"    workload:\n      arrivals: {kind: trace, path: " TEST_DATA_DIR "/good/traces/mig_embed.csv, format: " \
	"generic, columns: {time: t, time_format: seconds, service_s: svc}}\n      service: {kind: trace}\n" \
	"fleet:\n  - {option: on_demand, count: 1}\n"

/*
 * One p5.48xlarge (8 H100 80GB; the catalogue has no single-GPU H100 type), layout {3g.40gb: 1, 4g.40gb: 1}
 * on each GPU: chat has 8 x 1 = 8 slots (its 3g.40gb partitions), embed 8 x 1 = 8 (its 4g.40gb ones).
 *   chat (SLO 3 s), mig_chat.csv: 10 requests at t = 0.1 k s (k = 0..9), 2 s each.
 *     k = 0..7 start at once on the 8 chat slots, end at 0.1 k + 2: latency 2, wait 0.
 *     k = 8 (t 0.8): all 8 busy, though embed's slots are all free (isolated partitions); the first chat
 *     slot frees at 2.0: starts 2.0, ends 4.0: wait 1.2, latency 3.2 > 3, a violation.
 *     k = 9 (t 0.9): the next frees at 2.1: starts 2.1, ends 4.1: wait 1.2, latency 3.2, a violation.
 *     requests 10, violations 2 (rate 0.2), wait mean 2.4 / 10 = 0.24 s, latency max 3.2, p50 2.
 *   embed (SLO 1.1 s), mig_embed.csv: 9 requests at t = 1.0 + 0.1 k (k = 0..8), 1 s each.
 *     k = 0..7 start at once, end at 2.0 + 0.1 k: latency 1.
 *     k = 8 (t 1.8): the first embed slot frees at 2.0: starts 2.0, ends 3.0: wait 0.2, latency 1.2 > 1.1.
 *     requests 9, violations 1, wait mean 0.2 / 9 s, latency max 1.2.
 *   Totals: 19 requests, 3 violations (each against its own model's threshold), latency max 3.2 s,
 *   latency mean (8 x 2 + 2 x 3.2 + 8 x 1 + 1.2) / 19 = 31.6 / 19 s.
 *   Bill: one on-demand instance for the 1 h horizon, billed once whatever its partitions: 1 x 55.04.
 */
START_TEST(two_models_timeline_by_hand)
{
	capture_run(&cap, TWO_MODELS, NULL, 0);
	ck_assert_double_eq(M("model.chat.requests"), 10);
	ck_assert_double_eq(M("model.chat.served"), 10);
	ck_assert_double_eq(M("model.chat.dropped"), 0);
	ck_assert_double_eq(M("model.chat.slo_violations"), 2);
	ck_assert_double_eq_tol(M("model.chat.violation_rate"), 0.2, 1e-12);
	ck_assert_double_eq_tol(M("model.chat.wait_mean_s"), 0.24, 1e-9);
	ck_assert_double_eq_tol(M("model.chat.latency_max_s"), 3.2, 1e-9);
	ck_assert_double_eq_tol(M("model.chat.latency_p50_s"), 2.0, 2.0 * 0.01);  /* hist.h: within 1% */
	ck_assert_double_eq(M("model.embed.requests"), 9);
	ck_assert_double_eq(M("model.embed.slo_violations"), 1);
	ck_assert_double_eq_tol(M("model.embed.wait_mean_s"), 0.2 / 9, 1e-9);
	ck_assert_double_eq_tol(M("model.embed.latency_max_s"), 1.2, 1e-9);
	ck_assert_double_eq(M("requests_total"), 19);
	ck_assert_double_eq(M("requests_served"), 19);
	ck_assert_double_eq(M("slo_violations"), 3);
	ck_assert_double_eq_tol(M("latency_max_s"), 3.2, 1e-9);
	ck_assert_double_eq_tol(M("latency_mean_s"), 31.6 / 19, 1e-9);
	ck_assert_double_eq_tol(M("cost_total_usd"), 55.04, 1e-9);
}
END_TEST

/* One value of a query on the results file at path (the first column of its first row). */
static double db_value(const char *path, const char *sql)
{
	sqlite3 *q;
	sqlite3_stmt *stmt;
	double v;

	ck_assert_int_eq(sqlite3_open_v2(path, &q, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_msg(sqlite3_prepare_v2(q, sql, -1, &stmt, NULL) == SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(q));
	ck_assert_msg(sqlite3_step(stmt) == SQLITE_ROW, "no row: %s", sql);
	v = sqlite3_column_double(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_close(q);
	return v;
}

/* The per-model metrics reach the results database as rows "model.NAME.METRIC" of `metrics` (same run
 * as above: chat 2 violations of 10, embed 1 of 9). */
START_TEST(per_model_metrics_in_the_database)
{
	struct world_report *rep = calloc(1, sizeof *rep);
	char *scen = test_write_file("mig.yaml", TWO_MODELS), *db = test_write_file("mig.sqlite", "");
	struct store *st = NULL;
	struct scenario sc;
	struct sink sink;
	struct diag d = {{0}};

	ck_assert_ptr_nonnull(rep);
	remove(db);
	ck_assert_msg(scenario_load(&sc, scen, NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(store_open(&st, db, &d) == STATUS_OK, "%s", d.msg);
	sink = store_sink(st, &d);
	ck_assert_msg(world_run(&sc, &sink, "test", rep, &d) == STATUS_OK, "%s", d.msg);
	store_close(st);
	ck_assert_double_eq(db_value(db, "SELECT value FROM metrics WHERE name = 'model.chat.slo_violations'"), 2);
	ck_assert_double_eq(db_value(db, "SELECT value FROM metrics WHERE name = 'model.chat.requests'"), 10);
	ck_assert_double_eq(db_value(db, "SELECT value FROM metrics WHERE name = 'model.embed.slo_violations'"), 1);
	ck_assert_double_eq(db_value(db, "SELECT count(*) FROM metrics WHERE name LIKE 'model.embed.%'"), 9);
	scenario_fini(&sc);
	free(rep);
	test_remove_file(db);
	test_remove_file(scen);
}
END_TEST

#define POISSON_MODELS \
	"name: mig-poisson\nhorizon: 2h\nseed: 7\n" \
	"serving:\n  instance_type: p4de.24xlarge\n  partitions:\n    layout: {3g.40gb: 2}\n" \
	"models:\n" \
	"  - name: a\n    partition: 3g.40gb\n    slo: {latency_s: 2}\n" \
	"    workload: {arrivals: {kind: poisson, rate_per_s: 5}, service: {kind: exponential, mean_s: 1}}\n" \
	"fleet:\n  - {option: on_demand, count: 1}\n"

/* Each model draws from its own streams: same seed, same numbers; with 16 slots (8 GPUs x 2 partitions)
 * and 5 requests/s of 1 s, about 5 busy of 16: the Erlang-C wait is negligible, so violations are those
 * of the service alone, P(S > 2) = e^-2 = 13.5%, within a few points over ~36000 requests. */
START_TEST(own_streams_deterministic)
{
	double v1, r1;

	capture_run(&cap, POISSON_MODELS, NULL, 0);
	v1 = M("model.a.slo_violations");
	r1 = M("model.a.requests");
	ck_assert_double_eq_tol(M("model.a.violation_rate"), exp(-2.0), 0.01);
	ck_assert_double_eq_tol(r1, 5 * 7200, 5 * 7200 * 0.03);
	capture_run(&cap, POISSON_MODELS, NULL, 0);
	ck_assert_double_eq(M("model.a.slo_violations"), v1);
	ck_assert_double_eq(M("model.a.requests"), r1);
}
END_TEST

static Suite *mig_suite(void)
{
	Suite *s = suite_create("mig");
	TCase *tc = tcase_create("runs");

	test_add(tc, layout_fits_one_gpu);
	test_add(tc, h200_profiles_are_nvidias_table);
	test_add(tc, h200_layouts_at_the_edges);
	test_add(tc, two_models_timeline_by_hand);
	test_add(tc, per_model_metrics_in_the_database);
	test_add(tc, own_streams_deterministic);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(mig_suite());
}
