/*
 * validation_identities: Little's law as the meter reports it (littles_law_error) and the conservation
 * identities a finished run must satisfy (meter_conserved, jobs_conserved; world.c checks them at the end
 * of every run in builds without NDEBUG), each worked by hand on a meter driven call by call, and each
 * identity broken on purpose to see that the check catches it.
 *
 * The hand-worked run: horizon 100 s, one reserved single-slot, one-GPU instance billed USD 1 for the
 * 100 s (one bill line of USD 1). A arrives at 0 and is served 0..40; B arrives at 10, waits 10..40 and is
 * served 40..70; C arrives at 90 and is served 90..130, past the horizon (the run drains it).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "diag.h"
#include "jobs.h"
#include "meter.h"
#include "sink.h"
#include "status.h"
#include "testutil.h"

#define S 1000000LL  /* microseconds per second */

static struct capture cap;
static struct diag d;

/* The hand-worked run (above) in a new meter, measured from warmup_us. Free with drop(). */
static struct meter *hand_run(int64_t warmup_us)
{
	struct meter *m = calloc(1, sizeof *m);

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(meter_init(m, capture_sink(&cap), &d, 1000 * S, 1, 1, 100 * S, 0, 60 * S), STATUS_OK);
	if (warmup_us > 0)
		meter_set_warmup(m, warmup_us);
	meter_arrival(m, 0, 40 * S);  /* A */
	meter_busy(m, 0, OPTION_RESERVED, +1);
	meter_arrival(m, 10 * S, 30 * S);  /* B */
	meter_queue(m, 10 * S, +1);
	meter_busy(m, 40 * S, OPTION_RESERVED, -1);
	meter_served(m, 40 * S, 0, 0, 40 * S, -1, 40 * S);
	meter_queue(m, 40 * S, -1);
	meter_busy(m, 40 * S, OPTION_RESERVED, +1);
	meter_busy(m, 70 * S, OPTION_RESERVED, -1);
	meter_served(m, 70 * S, 10 * S, 30 * S, 60 * S, -1, 30 * S);
	meter_arrival(m, 90 * S, 40 * S);  /* C */
	meter_busy(m, 90 * S, OPTION_RESERVED, +1);
	meter_charge(m, &METER_PAYER_SERVING, OPTION_RESERVED, 1.0, 100.0 * S, 0, 100.0 * S);
	meter_bill(m, &METER_PAYER_SERVING, OPTION_RESERVED, CHARGE_USED, 0, 100.0 * S, 100.0 / 3600, 1.0, 1.0);
	meter_close(m, 100 * S);
	meter_busy(m, 130 * S, OPTION_RESERVED, -1);
	meter_served(m, 130 * S, 90 * S, 0, 40 * S, -1, 40 * S);
	meter_finish(m);
	return m;
}

static void drop(struct meter *m)
{
	meter_fini(m);
	free(m);
}

static double metric(const struct meter *m, const char *name)
{
	static struct sink_metric list[METER_MAX_METRICS];
	int n = meter_report(m, 0, 0, list);

	for (int i = 0; i < n; i++)
		if (strcmp(list[i].name, name) == 0)
			return list[i].value;
	ck_abort_msg("no metric %s", name);
	return NAN;
}

START_TEST(littles_law_hand_worked)
{
	/*
	 * Window [0, 100 s). Requests in the system, integrated: in service A 0..40 (40) + B 40..70 (30) + C
	 * 90..100 (10), waiting B 10..40 (30): 110 request-s, so L = 1.1. lambda = 3 / 100 s; times in system
	 * A 40 + B 60 + C 40 (whole, though C ends at 130 s) = 140 s, W = 46.67 s, lambda W = 1.4.
	 * |1.1 - 1.4| / 1.4 = 30 / 140 = 0.2142857: C's 30 s past the horizon, the window's edge.
	 */
	struct meter *m = hand_run(0);

	ck_assert_double_eq_tol(metric(m, "littles_law_error"), 30.0 / 140.0, 1e-12);
	drop(m);
}
END_TEST

START_TEST(littles_law_warmup_edge)
{
	/*
	 * Warm-up 5 s: window [5, 100 s); A (arrived at 0, before it) is not measured, B (10) and C (90) are.
	 * Integral: A in service 5..40 (35) + B 40..70 (30) + C 90..100 (10) + B waiting 10..40 (30) = 105
	 * request-s. Measured requests' times: B 60 + C 40 = 100 s. |105 - 100| / 100 = 0.05: A's 35 s inside
	 * the window count in L only, C's 30 s past the horizon in W only.
	 */
	struct meter *m = hand_run(5 * S);

	ck_assert_double_eq_tol(metric(m, "littles_law_error"), 0.05, 1e-12);
	drop(m);
}
END_TEST

START_TEST(littles_law_null_without_traffic)
{
	struct meter *m = calloc(1, sizeof *m);

	ck_assert_int_eq(meter_init(m, capture_sink(&cap), &d, 1000 * S, 1, 1, 100 * S, 0, 60 * S), STATUS_OK);
	meter_close(m, 100 * S);
	meter_finish(m);
	ck_assert(isnan(metric(m, "littles_law_error")));
	drop(m);
}
END_TEST

START_TEST(conserved_hand_worked_run)
{
	/* 3 arrived = 3 served + 0 dropped; nothing left; the one bill line (USD 1) = cost_reserved_usd (USD 1);
	 * busy 80 GPU-s <= paid 100 GPU-s (idle 20 GPU-s >= 0) */
	struct meter *m = hand_run(0);
	char why[256] = "";

	ck_assert_msg(meter_conserved(m, why, sizeof why), "%s", why);
	ck_assert_double_eq_tol(metric(m, "gpu_hours_idle_reserved"), 20.0 / 3600, 1e-12);
	drop(m);
}
END_TEST

/* Break one identity in a copy of the hand-worked meter (break_it) and expect the check to name it. */
static void expect_broken(void (*break_it)(struct meter *), const char *named)
{
	struct meter *m = hand_run(0), *copy = malloc(sizeof *copy);
	char why[256] = "";

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, m, sizeof *copy);  /* shares m's arrays: read only, never freed through the copy */
	break_it(copy);
	ck_assert_msg(!meter_conserved(copy, why, sizeof why), "a broken %s passed", named);
	ck_assert_msg(strstr(why, named) != NULL, "expected %s in: %s", named, why);
	free(copy);
	drop(m);
}

static void lose_a_request(struct meter *m) { m->served--; }
static void serve_twice(struct meter *m) { m->served++; }
static void leave_one_queued(struct meter *m) { m->queued = 1; }
static void leave_one_busy(struct meter *m) { m->busy[OPTION_SPOT] = 1; }
static void cost_off_by_a_cent(struct meter *m) { m->cost_usd[OPTION_RESERVED] += 0.01; }
static void cost_on_the_wrong_option(struct meter *m)
{
	m->cost_usd[OPTION_RESERVED] -= 1.0;
	m->cost_usd[OPTION_ON_DEMAND] += 1.0;  /* the total still USD 1 */
}
static void paid_not_split(struct meter *m) { m->user_paid_gpu_us[0][OPTION_RESERVED] -= 1e6; }
static void busy_over_paid(struct meter *m) { m->busy_slot_us[OPTION_RESERVED] = 101.0 * S; }

START_TEST(conserved_catches_each_broken_identity)
{
	expect_broken(lose_a_request, "requests");
	expect_broken(serve_twice, "requests");
	expect_broken(leave_one_queued, "still in the system");
	expect_broken(leave_one_busy, "still in the system");
	expect_broken(cost_off_by_a_cent, "cost");
	expect_broken(cost_on_the_wrong_option, "cost");
	expect_broken(paid_not_split, "paid GPU-time");
	expect_broken(busy_over_paid, "idle < 0");
}
END_TEST

START_TEST(jobs_conserved_counts)
{
	/* three submitted jobs: one ended, one given up, one still computing at the end; a fourth never
	 * submitted (pending). submitted 3 = completed 1 + terminated 1 + unfinished 1. */
	struct job job[4] = { { .state = JOB_DONE }, { .state = JOB_TERMINATED }, { .state = JOB_COMPUTE },
			      { .state = JOB_PENDING } };
	struct jobs j = { .job = job, .n = 4, .submitted = 3, .completed = 1, .terminated = 1, .missed = 1 };
	char why[256] = "";

	ck_assert_msg(jobs_conserved(&j, why, sizeof why), "%s", why);
	j.submitted = 4;  /* one counted twice */
	ck_assert(!jobs_conserved(&j, why, sizeof why));
	j.submitted = 3;
	j.completed = 2;  /* an end counted without a job ending */
	ck_assert(!jobs_conserved(&j, why, sizeof why));
	j.completed = 1;
	j.terminated = 0;
	ck_assert(!jobs_conserved(&j, why, sizeof why));
	j.terminated = 1;
	j.missed = 4;  /* more missed than submitted */
	ck_assert(!jobs_conserved(&j, why, sizeof why));
	ck_assert_msg(strstr(why, "jobs") != NULL, "%s", why);
}
END_TEST

static Suite *identities_suite(void)
{
	Suite *s = suite_create("validation_identities");
	TCase *tc = tcase_create("identities");

	tcase_add_test(tc, littles_law_hand_worked);
	tcase_add_test(tc, littles_law_warmup_edge);
	tcase_add_test(tc, littles_law_null_without_traffic);
	tcase_add_test(tc, conserved_hand_worked_run);
	tcase_add_test(tc, conserved_catches_each_broken_identity);
	tcase_add_test(tc, jobs_conserved_counts);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(identities_suite());
}
