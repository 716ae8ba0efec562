/*
 * check_jobs_uniform: jobs.policy uniform_progress and adaptive_progress (models/jobs/jobs_policy_uniform.c,
 * jobs_outlook.c) on hand-built hourly availability traces, each decision worked out by hand below.
 *
 * Every case: one job of 1 instance on Spot at $1 (replayed from the trace) or On-Demand at $10, both
 * instant; 4 instance-hours (T = 4 h), a checkpoint every hour at no cost (so a notice of 120 s always
 * saves the progress), restart overhead 0.1 h: d = 0 + 0.1 = 0.1 h, the safety net at slack < 2d = 0.2 h.
 * ep(t) = T t / D. A segment on Spot shorter than an hour is never ended by an interruption here, so AWS's
 * free first hour never applies.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "jobs_fixtures.h"
#include "testutil.h"

#define US 1e-6 / 3600  /* a microsecond in hours */

static void run_policy(const char *trace, double deadline_h, double interval_h, enum job_policy p)
{
	char yaml[1024];
	struct job_spec j = job(1, 4, 0, interval_h, 0, 0.1);

	j.deadline_us = llround(deadline_h * H);
	trace_fleet(yaml, sizeof yaml, trace, 120);
	run_jobs(yaml, &j, 1, &(struct knobs){ .policy = p });
}

static void run_up(const char *trace, double deadline_h, double interval_h)
{
	run_policy(trace, deadline_h, interval_h, JOB_POLICY_UNIFORM_PROGRESS);
}

/*
 * Behind the line from the start, On-Demand, then Spot once ahead (up-late-spot.json: no Spot in hours 0-2,
 * then 1). D = 8 h, ep(t) = t / 2.
 *  - at 0+ (1 us) cp = 0 < ep: On-Demand (no Spot), ready at once, computes from 0.1 h;
 *  - hysteresis cp >= ep(t + 0.2): t - 0.1 >= (t + 0.2) / 2 from t = 0.4 h, but no Spot until 2 h;
 *  - at 2 h Spot is back, slack = 8 - 2 - (4 - s = 1 h, the checkpoint at p = 1) = 3 >= 0.2: it checkpoints
 *    (p = 1.9 h, at no cost) and moves to Spot, computes from 2.1 h, ends at 2.1 + 2.1 = 4.2 h.
 * Bill: On-Demand 2 h x $10 = $20, Spot 2.2 h x $1 = $2.20. (deadline_spot would wait for Spot: $4.10.)
 */
START_TEST(behind_goes_on_demand_then_spot_when_ahead)
{
	run_up("up-late-spot.json", 8, 1);
	ck_assert_str_eq(event_option("launch", 0), "on_demand");
	/* to the microsecond: at 0 the job is on the line (cp = ep = 0), not behind it; it is 1 us later */
	ck_assert_double_eq_tol(event_h("launch", 0), US, US / 10);
	ck_assert_double_eq_tol(event_h("job_switch", 0), 2, 1e-9);
	ck_assert_str_eq(event_option("launch", 1), "spot");
	ck_assert_double_eq_tol(event_h("launch", 1), 2, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 0), 4.2, 1e-9);
	ck_assert_double_eq_tol(M("jobs_cost_on_demand_usd"), 20.00, 0.005);
	ck_assert_double_eq_tol(M("jobs_cost_spot_usd"), 2.20, 0.005);
	ck_assert_double_eq(M("jobs_missed_deadline"), 0);
	ck_assert_double_eq(M("work_lost_instance_hours"), 0);
	/* The offline optimum waits for Spot at 2 h: 2 + 0.1 + 4 = 6.1 h <= 8 h, Spot 4.1 h x $1 = $4.10;
	 * uniform_progress's regret is 22.20 - 4.10 = $18.10. deadline_spot does just that: regret 0. */
	ck_assert_double_eq_tol(M("job_cost_optimal_usd"), 4.10, 1e-6);
	ck_assert_double_eq_tol(M("jobs_regret_usd"), 18.10, 0.005);
	ck_assert_int_eq(capture_count(&cap, "job_optimum"), 1);
	run_policy("up-late-spot.json", 8, 1, JOB_POLICY_DEADLINE_SPOT);
	ck_assert_double_eq_tol(M("cost_total_usd"), 4.10, 0.005);
	ck_assert_double_eq_tol(M("jobs_regret_usd"), 0, 0.005);
}
END_TEST

/*
 * Ahead, then a drought: it waits until it falls behind, catches up on On-Demand, and goes back to Spot as
 * soon as the hysteresis holds (up-drought.json, 6-minute ticks: Spot in hours 0-3, none in 3-6.1, then 1).
 * D = 8 h.
 *  - Spot from 0, computes from 0.1 h; the notice at 3 h saves p = 2.9 h and it leaves;
 *  - waiting, ahead (ep(3) = 1.5); behind once t / 2 > 2.9: at 5.8 h (+1 us), before Spot is back at 6.1 h
 *    and before the safety net (slack < 0.2 from 8 - 1.1 - 0.2 = 6.7 h): On-Demand, computes from 5.9 h;
 *  - at 6.1 h Spot is back and cp = 3.1 is past ep(6.1) = 3.05 but short of ep(6.1 + 2d) = 3.15: it stays;
 *    the hysteresis holds at 6.2 h (t - 3 = (t + 0.2) / 2), slack = 8 - 6.2 - 1.1 = 0.7 >= 0.2: checkpoint
 *    (p = 3.2) and Spot, computes from 6.3 h, ends at 7.1 h.
 * Bill: Spot 3 h + 0.9 h = $3.90; On-Demand 5.8 .. 6.2 h = 0.4 h x $10 = $4.00.
 */
START_TEST(waits_while_ahead_catches_up_then_back_to_spot)
{
	run_up("up-drought.json", 8, 1);
	ck_assert_double_eq_tol(event_h("job_interrupt", 0), 3, 1e-9);
	ck_assert_str_eq(event_option("launch", 1), "on_demand");
	ck_assert_double_eq_tol(event_h("launch", 1), 5.8 + US, 1e-8);
	ck_assert_double_eq_tol(event_h("job_switch", 0), 6.2, 1e-8);
	ck_assert_str_eq(event_option("launch", 2), "spot");
	ck_assert_double_eq_tol(event_h("job_end", 0), 7.1, 1e-8);
	ck_assert_double_eq_tol(M("jobs_cost_spot_usd"), 3.90, 0.005);
	ck_assert_double_eq_tol(M("jobs_cost_on_demand_usd"), 4.00, 0.005);
	ck_assert_double_eq(M("jobs_missed_deadline"), 0);
}
END_TEST

/*
 * The safety net (up-net.json: Spot in hours 0-4, then none). D = 5 h, ep(t) = 0.8 t.
 *  - Spot from 0, computes from 0.1 h; the notice at 4 h saves p = 3.9 h; it leaves, ahead (ep(4) = 3.2);
 *  - it would fall behind at 3.9 / 0.8 = 4.875 h, but the slack 5 - t - 0.1 drops below 2d = 0.2 after
 *    4.7 h: at 4.7 h (+1 us) it goes On-Demand for good (job_switch), computes from 4.8 h, ends at 4.9 h.
 * Bill: Spot 4 h = $4; On-Demand 0.2 h x $10 = $2.
 */
START_TEST(safety_net_before_falling_behind)
{
	run_up("up-net.json", 5, 1);
	ck_assert_double_eq_tol(event_h("job_switch", 0), 4.7 + US, 1e-8);
	ck_assert_str_eq(event_option("launch", 1), "on_demand");
	ck_assert_double_eq_tol(event_h("job_end", 0), 4.9 + US, 1e-8);
	ck_assert_double_eq_tol(M("jobs_cost_spot_usd"), 4.00, 0.005);
	ck_assert_double_eq_tol(M("jobs_cost_on_demand_usd"), 2.00, 0.005);
	ck_assert_double_eq(M("jobs_missed_deadline"), 0);
}
END_TEST

/*
 * Without checkpoints a move would lose the progress: the first case's job (checkpoint_interval 0) stays on
 * On-Demand from 0+ to its end at 0.1 + 4 = 4.1 h: $41, no switch.
 */
START_TEST(no_checkpoints_never_leaves_on_demand)
{
	run_up("up-late-spot.json", 8, 0);
	ck_assert_int_eq(capture_count(&cap, "job_switch"), 0);
	ck_assert_double_eq_tol(event_h("job_end", 0), 4.1 + US, 1e-8);
	ck_assert_double_eq_tol(M("jobs_cost_on_demand_usd"), 41.00, 0.005);
	ck_assert_double_eq(M("jobs_cost_spot_usd"), 0);
}
END_TEST

/* Only when every submitted job has an optimum is the run's regret told: a second job without a deadline
 * has none, so neither metric is there, while the first job's own figure is still in its event. */
START_TEST(regret_only_when_every_job_has_an_optimum)
{
	char yaml[1024];
	struct job_spec j[2] = { job(1, 4, 0, 1, 0, 0.1), job(1, 1, 12, 1, 0, 0.1) };

	j[0].deadline_us = llround(8 * H);
	trace_fleet(yaml, sizeof yaml, "up-late-spot.json", 120);
	run_jobs(yaml, j, 2, &(struct knobs){ .policy = JOB_POLICY_UNIFORM_PROGRESS });
	ck_assert_double_eq(M("jobs_submitted"), 2);
	ck_assert_int_eq(capture_count(&cap, "job_optimum"), 1);
	for (int i = 0; i < rep.nmetrics; i++) {
		ck_assert_str_ne(rep.metrics[i].name, "jobs_regret_usd");
		ck_assert_str_ne(rep.metrics[i].name, "job_cost_optimal_usd");
	}
}
END_TEST

static void run_from(const char *trace, double submit_h, double deadline_h, enum job_policy p)
{
	char yaml[1024];
	struct job_spec j = job(1, 4, submit_h, 1, 0, 0.1);

	j.deadline_us = llround((submit_h + deadline_h) * H);
	trace_fleet(yaml, sizeof yaml, trace, 120);
	run_jobs(yaml, &j, 1, &(struct knobs){ .policy = p });
}

/*
 * adaptive_progress learns from the pool's history (adapt-drought.json: Spot in hours 0-12, none in 12-15,
 * then 1). The job is submitted at 10 h, deadline 18 h (D - t0 = 8 h, Uniform Progress's slope 1/2).
 *  - Spot from 10 h, computes from 10.1 h; the notice at 12 h saves p = 1.9 h and it leaves.
 *  - uniform_progress: behind once (t - 10) / 2 > 1.9, at 13.8 h: On-Demand, computes from 13.9 h; at 15 h
 *    Spot is back, cp = 3 >= ep(15.2) = 2.6, slack 18 - 15 - (4 - 3, the checkpoint at p = 3) = 2 >= 0.2:
 *    it moves to Spot, computes from 15.1 h, ends at 16.1 h. Bill: On-Demand 1.2 h = $12, Spot 3.1 h = $3.10.
 *  - adaptive_progress: the slope a = (up - 0.1 drops) / ticks read (ticks 0..k, k = the current hour), and
 *    the line ep(t) = 4 - a (18 - t); waiting with p = 1.9 it is behind once 18 - t < 2.1 / a. In hour 12
 *    a = 11.9 / 13, behind after 15.71 h; hour 13: 11.9 / 14, after 15.53 h; hour 14: 11.9 / 15, after
 *    15.35 h: never inside the hour. It waits; at 15 h it takes Spot, computes from 15.1 h, ends at 17.2 h.
 *    Bill: Spot 2 + 2.2 h = $4.20, no On-Demand.
 */
START_TEST(adaptive_waits_longer_when_the_history_shows_spot)
{
	run_from("adapt-drought.json", 10, 8, JOB_POLICY_UNIFORM_PROGRESS);
	ck_assert_double_eq_tol(event_h("launch", 1), 13.8, 1e-6);
	ck_assert_double_eq_tol(event_h("job_switch", 0), 15, 1e-6);
	ck_assert_double_eq_tol(event_h("job_end", 0), 16.1, 1e-6);
	ck_assert_double_eq_tol(M("jobs_cost_on_demand_usd"), 12.00, 0.005);
	ck_assert_double_eq_tol(M("jobs_cost_spot_usd"), 3.10, 0.005);

	run_from("adapt-drought.json", 10, 8, JOB_POLICY_ADAPTIVE_PROGRESS);
	ck_assert_str_eq(event_option("launch", 1), "spot");
	ck_assert_double_eq_tol(event_h("launch", 1), 15, 1e-6);
	ck_assert_double_eq_tol(event_h("job_end", 0), 17.2, 1e-6);
	ck_assert_double_eq(M("jobs_cost_on_demand_usd"), 0);
	ck_assert_double_eq_tol(M("jobs_cost_spot_usd"), 4.20, 0.005);
	ck_assert_double_eq(M("jobs_missed_deadline"), 0);
}
END_TEST

/*
 * A drought an hour longer (adapt-long-drought.json: none in 12-16) pins the slope, the restart per drop
 * included. Hour 15: a = 11.9 / 16 = 0.74375, behind after 18 - 2.1 / a = 15.17647 h: On-Demand then,
 * computes from 15.27647 h. (Without the restart per drop, a = 12 / 16 and the switch would come at 15.2 h;
 * with the history's a read a tick late, at 15.35 h.) At 16 h Spot is back, but the slack from the saved
 * progress (the checkpoint at p = 2) is 18 - 16 - 2 = 0 < 0.2: it stays and ends on On-Demand at
 * 15.27647 + 2.1 = 17.37647 h. Bill: On-Demand 2.2 h = $22, Spot 2 h = $2.
 * uniform_progress pays the same, from 13.8 h: its On-Demand run reaches T at 16 h + 1 us, the instant Spot
 * returns with the hysteresis met; the 1 us left is not worth a 0.1 h restart on Spot ((0.1 h + 1 us) x $1
 * > 1 us x $10), so it stays and ends there.
 */
START_TEST(adaptive_slope_counts_a_restart_per_drop)
{
	double od = 18 - 2.1 / (11.9 / 16);

	run_from("adapt-long-drought.json", 10, 8, JOB_POLICY_UNIFORM_PROGRESS);
	ck_assert_double_eq_tol(event_h("launch", 1), 13.8, 1e-6);
	ck_assert_int_eq(capture_count(&cap, "job_switch"), 0);
	ck_assert_double_eq_tol(event_h("job_end", 0), 16, 1e-6);
	ck_assert_double_eq_tol(M("jobs_cost_on_demand_usd"), 22.00, 0.005);

	run_from("adapt-long-drought.json", 10, 8, JOB_POLICY_ADAPTIVE_PROGRESS);
	ck_assert_str_eq(event_option("launch", 1), "on_demand");
	ck_assert_double_eq_tol(event_h("launch", 1), od, 1e-6);
	ck_assert_int_eq(capture_count(&cap, "job_switch"), 0);
	ck_assert_double_eq_tol(event_h("job_end", 0), od + 2.2, 1e-6);
	ck_assert_double_eq_tol(M("jobs_cost_on_demand_usd"), 22.00, 0.005);
	ck_assert_double_eq(M("jobs_missed_deadline"), 0);
}
END_TEST

/* With a history that shows less Spot than the job needs, adaptive_progress keeps Uniform Progress's line:
 * on up-late-spot.json from 0 h (no Spot in the first tick read: the history's a = 0) it decides as
 * behind_goes_on_demand_then_spot_when_ahead does, to the cent. */
START_TEST(adaptive_keeps_the_uniform_line_when_spot_is_scarce)
{
	run_from("up-late-spot.json", 0, 8, JOB_POLICY_ADAPTIVE_PROGRESS);
	ck_assert_double_eq_tol(event_h("launch", 0), US, 1e-9);
	ck_assert_double_eq_tol(event_h("job_switch", 0), 2, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 0), 4.2, 1e-9);
	ck_assert_double_eq_tol(M("jobs_cost_on_demand_usd"), 20.00, 0.005);
	ck_assert_double_eq_tol(M("jobs_cost_spot_usd"), 2.20, 0.005);
}
END_TEST

static Suite *uniform_suite(void)
{
	Suite *s = suite_create("jobs_uniform");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, behind_goes_on_demand_then_spot_when_ahead);
	tcase_add_test(tc, waits_while_ahead_catches_up_then_back_to_spot);
	tcase_add_test(tc, safety_net_before_falling_behind);
	tcase_add_test(tc, no_checkpoints_never_leaves_on_demand);
	tcase_add_test(tc, regret_only_when_every_job_has_an_optimum);
	tcase_add_test(tc, adaptive_waits_longer_when_the_history_shows_spot);
	tcase_add_test(tc, adaptive_slope_counts_a_restart_per_drop);
	tcase_add_test(tc, adaptive_keeps_the_uniform_line_when_spot_is_scarce);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(uniform_suite());
}
