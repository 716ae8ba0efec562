/*
 * check_jobs_teams: team shares of the jobs entries (models/jobs/jobs_teams.c, models/README.md "Team shares"), each
 * timeline worked out by hand. Every scenario runs on a reserved entry (self-managed: instances free at
 * once when a job lets them go, no startup), with no node failures, no restart overhead and free
 * checkpoints, so the figures are whole hours. Times to 1e-6 h, dollars to half a cent.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "scenario_fixtures.h"
#include "testutil.h"

static struct capture cap;

static double M(const char *name)
{
	return capture_need(&cap, name);
}

/* The metric named name, which must be there and may be NaN. */
static double M_nan(const char *name)
{
	for (int i = 0; i < cap.nmetrics; i++)
		if (strcmp(cap.metrics[i].name, name) == 0)
			return cap.metrics[i].value;
	ck_abort_msg("metric %s missing", name);
	return 0;
}

/* The time of the i-th event of kind, in hours (it must exist). */
static double event_h(const char *kind, int i)
{
	const struct capture_event *e = capture_find(&cap, kind, i);

	ck_assert_msg(e != NULL, "no event %s #%d", kind, i);
	return e->t_s / 3600.0;
}

#define HEAD(h, n) "name: teams\nseed: 3\nstart: 2026-01-01T00:00:00Z\nhorizon: " h "\n" \
	"serving: {instance_type: g6.12xlarge}\n" \
	"fleet:\n  - {option: reserved, count: " n ", use: jobs, usd_per_h: 10, scope: zonal}\n" \
	"jobs:\n  policy: reserved_first\n  failures: {per_instance_hour: 0}\n"

/* A and B each queue 40 one-instance jobs of 1 instance-hour at t = 0; C (quota 6) has none. */
static void run_borrowers(const char *b_limit)
{
	char yaml[8192];
	int n;

	n = snprintf(yaml, sizeof yaml, HEAD("4.5h", "10")
		     "  teams:\n"
		     "    - {name: A, quota: 2, fair_share_weight: 2, borrow_limit: 500}\n"
		     "    - {name: B, quota: 2, fair_share_weight: 1, borrow_limit: %s}\n"
		     "    - {name: C, quota: 6, fair_share_weight: 1}\n  list:\n", b_limit);
	for (int i = 0; i < 40; i++)
		n += snprintf(yaml + n, sizeof yaml - (size_t)n,
			      "    - {team: A, instances: 1, work_instance_hours: 1, submit: 0}\n"
			      "    - {team: B, instances: 1, work_instance_hours: 1, submit: 0}\n");
	capture_run(&cap, yaml, NULL, 0);
}

/*
 * Fair share, weights 2:1. Every hour on the hour all running jobs end together and the walk starts from
 * nothing held: A and B take their own quotas (2 each); C's 6 idle instances are lent one job at a time
 * to the team with the smallest borrowed-after / weight: A 1/2 (vs B 1/1), A 2/2 (tie with B 1/1: the
 * larger weight), B 1/1 (vs A 3/2), A 3/2 (vs B 2/1), A 4/2 (tie with B 2/1: A), then B 2/1 (A's 5/2 is
 * larger): A borrows 4, B 2, exactly 2:1 since 6 divides by 2 + 1. With another idle amount the integer
 * split is within one job (one instance) of the exact one at every walk, so over the run the borrowed
 * instance-hours are within 1 x 4.5 of 2:1; here the error is zero.
 * Over 4.5 h: A borrows 4 x 4.5 = 18 instance-hours, B 2 x 4.5 = 9. A runs 6 jobs an hour: 24 end by 4 h
 * (those placed at 0, 1, 2, 3 h), B 4 an hour: 16. Waits: A's 30 started jobs waited 0, 1, 2, 3, 4 h (6
 * each): mean 2 h, p95 the 29th of 30: 4 h. GPU-hours: A 6 x 4.5 x 4 GPUs = 108, B 4 x 4.5 x 4 = 72. The
 * bill, 10 x 4.5 x $10 = $450, splits 108:72: A $270, B $180, C $0.
 */
START_TEST(idle_quota_lent_by_weight)
{
	run_borrowers("500");
	ck_assert_double_eq_tol(M("team_A_borrowed_instance_hours"), 18, 1e-6);
	ck_assert_double_eq_tol(M("team_B_borrowed_instance_hours"), 9, 1e-6);
	ck_assert_double_eq_tol(M("team_A_borrowed_instance_hours") / M("team_B_borrowed_instance_hours"), 2,
				1e-9);
	ck_assert_double_eq(M("team_A_jobs_completed"), 24);
	ck_assert_double_eq(M("team_B_jobs_completed"), 16);
	ck_assert_double_eq(M("team_C_jobs_completed"), 0);
	ck_assert_double_eq_tol(M("team_A_wait_mean_s"), 2 * 3600, 1e-6);
	ck_assert_double_eq_tol(M("team_A_wait_p95_s"), 4 * 3600, 1e-6);
	ck_assert_double_eq_tol(M("team_A_gpu_hours"), 108, 1e-6);
	ck_assert_double_eq_tol(M("team_B_gpu_hours"), 72, 1e-6);
	ck_assert_double_eq_tol(M("team_A_cost_usd"), 270, 0.005);
	ck_assert_double_eq_tol(M("team_B_cost_usd"), 180, 0.005);
	ck_assert_double_eq_tol(M("team_C_cost_usd"), 0, 0.005);
	ck_assert_double_eq(M("jobs_preemptions"), 0);
}
END_TEST

/*
 * B's borrow limit 50% of its quota 2 = 1 instance binds: B borrows 1, A the other 5 (within its 500% x 2 =
 * 10). Over 4.5 h: A 5 x 4.5 = 22.5 instance-hours, B 1 x 4.5 = 4.5; A runs 7 an hour (28 end by 4 h), B 3
 * (12).
 */
START_TEST(borrow_limit_binds)
{
	run_borrowers("50");
	ck_assert_double_eq_tol(M("team_A_borrowed_instance_hours"), 22.5, 1e-6);
	ck_assert_double_eq_tol(M("team_B_borrowed_instance_hours"), 4.5, 1e-6);
	ck_assert_double_eq(M("team_A_jobs_completed"), 28);
	ck_assert_double_eq(M("team_B_jobs_completed"), 12);
}
END_TEST

/*
 * fair_share: false is first come, first served: the queue orders A's and B's jobs alternately (same
 * submit, then row), so the 6 idle instances go 3 to A and 3 to B: 13.5 instance-hours each.
 */
START_TEST(fcfs_ignores_weights)
{
	char yaml[8192];
	int n;

	n = snprintf(yaml, sizeof yaml, HEAD("4.5h", "10")
		     "  fair_share: false\n  teams:\n"
		     "    - {name: A, quota: 2, fair_share_weight: 2, borrow_limit: 500}\n"
		     "    - {name: B, quota: 2, fair_share_weight: 1, borrow_limit: 500}\n"
		     "    - {name: C, quota: 6}\n  list:\n");
	for (int i = 0; i < 40; i++)
		n += snprintf(yaml + n, sizeof yaml - (size_t)n,
			      "    - {team: A, instances: 1, work_instance_hours: 1, submit: 0}\n"
			      "    - {team: B, instances: 1, work_instance_hours: 1, submit: 0}\n");
	capture_run(&cap, yaml, NULL, 0);
	ck_assert_double_eq_tol(M("team_A_borrowed_instance_hours"), 13.5, 1e-6);
	ck_assert_double_eq_tol(M("team_B_borrowed_instance_hours"), 13.5, 1e-6);
}
END_TEST

/*
 * The lender reclaims. 4 instances; A (quota 2, borrow_limit 100% = 2) runs `big`: 4 instances, 40
 * instance-hours (T = 10 h), a free checkpoint every hour, on its 2 and C's idle 2. At 3.5 h C submits c1
 * (2 instances, 2 instance-hours: 1 h). C's own quota is borrowed: big is preempted at 3.5 h with p = 3.5 h
 * and s = 3 h (the 3 h checkpoint): it loses 0.5 h x 4 instances = 2 instance-hours. c1 runs 3.5-4.5 h; at
 * 4.5 h big is placed again (C lends its idle 2 again) and resumes from s = 3 h: 7 h more, it ends at 11.5 h.
 * Alone it would end at 10 h: 1.5 h later = the lost 0.5 h + the 1 h wait. A borrowed 2 over 0-3.5 h and
 * 4.5-11.5 h: 21 instance-hours. GPU-hours: A 4 x 4 GPUs x (3.5 + 7) = 168, C 2 x 4 x 1 = 8; the bill 4 x
 * 14 h x $10 = $560 (idle time included) splits 168:8: A $534.545, C $25.455.
 */
START_TEST(lender_reclaims_borrowed)
{
	capture_run(&cap, HEAD("14h", "4")
		    "  teams:\n"
		    "    - {name: A, quota: 2, fair_share_weight: 1, borrow_limit: 100}\n"
		    "    - {name: C, quota: 2, fair_share_weight: 1}\n  list:\n"
		    "    - {name: big, team: A, instances: 4, work_instance_hours: 40, submit: 0, "
		    "checkpoint_interval: 1h}\n"
		    "    - {name: c1, team: C, instances: 2, work_instance_hours: 2, submit: 3.5h}\n", NULL, 0);
	ck_assert_double_eq_tol(event_h("job_preempt", 0), 3.5, 1e-9);
	ck_assert_double_eq_tol(event_h("job_start", 1), 3.5, 1e-9);  /* c1 */
	ck_assert_double_eq_tol(event_h("job_resume", 0), 4.5, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 0), 4.5, 1e-9);    /* c1 */
	ck_assert_double_eq_tol(event_h("job_end", 1), 10 + 0.5 + 1, 1e-9);
	ck_assert_double_eq_tol(M("work_lost_instance_hours"), 2, 1e-9);
	ck_assert_double_eq(M("team_A_preempted"), 1);
	ck_assert_double_eq_tol(M("team_A_borrowed_instance_hours"), 21, 1e-6);
	ck_assert_double_eq_tol(M("team_C_wait_mean_s"), 0, 1e-9);
	ck_assert_double_eq_tol(M("team_A_gpu_hours"), 168, 1e-6);
	ck_assert_double_eq_tol(M("team_C_gpu_hours"), 8, 1e-6);
	ck_assert_double_eq_tol(M("team_A_cost_usd"), 560.0 * 168 / 176, 0.005);
	ck_assert_double_eq_tol(M("team_C_cost_usd"), 560.0 * 8 / 176, 0.005);
}
END_TEST

/*
 * The lender's reclaim takes from the borrowing team with the largest borrowed / weight; ties go to the
 * smaller weight, then the later team (jobs_teams.c most_over). Reserved instances, free checkpoints every
 * hour; c1 (team C, 1 instance, 1 h) comes at 2.5 h and fits C's own quota, which A and B have borrowed.
 *  - Equal weights: 4 instances; A and B quota 1, weight 1, borrow limit 100% (1 each); C quota 2. At 0, a
 *    (A, 2 instances, T = 10 h) and b (B, 2 instances, T = 10 h) each borrow 1 of C's 2. At 2.5 h, B = 2 >
 *    L = 1 (C's 1 idle left once c1 counts): A and B both at 1 / 1, same weight: the later team, B, loses
 *    b (p = 2.5 h, s = 2 h: 2 x 0.5 = 1 instance-hour lost). b waits for C's lent instance until c1 ends at
 *    3.5 h, resumes from 2 h and ends at 11.5 h; a ends at 10 h.
 *  - Equal shares, unequal weights: 5 instances; A quota 1, weight 1, limit 100% (1); B quota 1, weight 2,
 *    limit 200% (2); C quota 3. a has 2 instances (borrows 1: 1 / 1 = 1), b 3 (borrows 2: 2 / 2 = 1). At
 *    2.5 h, B = 3 > L = 2: the shares tie, the smaller weight, A, loses a, though B is the later team
 *    (2 x 0.5 = 1 instance-hour lost again).
 */
START_TEST(reclaim_takes_from_the_most_over_and_its_ties)
{
	capture_run(&cap, HEAD("14h", "4")
		    "  teams:\n"
		    "    - {name: A, quota: 1, fair_share_weight: 1, borrow_limit: 100}\n"
		    "    - {name: B, quota: 1, fair_share_weight: 1, borrow_limit: 100}\n"
		    "    - {name: C, quota: 2, fair_share_weight: 1}\n  list:\n"
		    "    - {name: a, team: A, instances: 2, work_instance_hours: 20, submit: 0, checkpoint_interval: 1h}\n"
		    "    - {name: b, team: B, instances: 2, work_instance_hours: 20, submit: 0, checkpoint_interval: 1h}\n"
		    "    - {name: c1, team: C, instances: 1, work_instance_hours: 1, submit: 2.5h}\n", NULL, 0);
	ck_assert_double_eq(M("jobs_preemptions"), 1);
	ck_assert_double_eq_tol(event_h("job_preempt", 0), 2.5, 1e-9);
	ck_assert_double_eq(M("team_A_preempted"), 0);
	ck_assert_double_eq(M("team_B_preempted"), 1);
	ck_assert_double_eq_tol(M("work_lost_instance_hours"), 1, 1e-9);
	ck_assert_double_eq_tol(event_h("job_resume", 0), 3.5, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 1), 10, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 2), 11.5, 1e-9);

	capture_run(&cap, HEAD("14h", "5")
		    "  teams:\n"
		    "    - {name: A, quota: 1, fair_share_weight: 1, borrow_limit: 100}\n"
		    "    - {name: B, quota: 1, fair_share_weight: 2, borrow_limit: 200}\n"
		    "    - {name: C, quota: 3, fair_share_weight: 1}\n  list:\n"
		    "    - {name: a, team: A, instances: 2, work_instance_hours: 20, submit: 0, checkpoint_interval: 1h}\n"
		    "    - {name: b, team: B, instances: 3, work_instance_hours: 30, submit: 0, checkpoint_interval: 1h}\n"
		    "    - {name: c1, team: C, instances: 1, work_instance_hours: 1, submit: 2.5h}\n", NULL, 0);
	ck_assert_double_eq(M("jobs_preemptions"), 1);
	ck_assert_double_eq(M("team_A_preempted"), 1);
	ck_assert_double_eq(M("team_B_preempted"), 0);
	ck_assert_double_eq_tol(M("work_lost_instance_hours"), 1, 1e-9);
}
END_TEST

/*
 * A team that does not lend keeps its idle quota: C dont_lend, so big (which needs to borrow 2) never
 * starts while only C's quota could lend; nothing is borrowed.
 */
START_TEST(dont_lend_keeps_quota)
{
	capture_run(&cap, HEAD("14h", "4")
		    "  teams:\n"
		    "    - {name: A, quota: 2, fair_share_weight: 1, borrow_limit: 100}\n"
		    "    - {name: C, quota: 2, lending: dont_lend}\n  list:\n"
		    "    - {name: big, team: A, instances: 4, work_instance_hours: 40, submit: 0}\n", NULL, 0);
	ck_assert_ptr_null(capture_find(&cap, "job_start", 0));
	ck_assert_double_eq_tol(M("team_A_borrowed_instance_hours"), 0, 1e-9);
}
END_TEST

/*
 * Priority within a team. Team A, quota 2, 2 instances; classes low (10) and high (90). low1: 2 instances,
 * 20 instance-hours (T = 10 h), a free checkpoint every hour, from 0. hi1 (2 instances, 1 h) at 2.25 h: the
 * team is full and cannot borrow, so low1 is preempted with p = 2.25 h, s = 2 h: 0.25 h x 2 = 0.5
 * instance-hours lost. hi1 runs 2.25-3.25 h; low1 resumes at 3.25 h from 2 h: ends at 3.25 + 8 = 11.25 h,
 * 1.25 h after its undisturbed 10 h = 0.25 h lost + 1 h wait. A job of equal priority never preempts:
 * with hi1 in class low too it waits to 10 h and ends at 11 h.
 */
START_TEST(higher_priority_preempts_within_team)
{
	const char *yaml = HEAD("14h", "2")
		"  priority_classes:\n    - {name: low, weight: 10}\n    - {name: high, weight: 90}\n"
		"  teams:\n    - {name: A, quota: 2}\n  list:\n"
		"    - {name: low1, team: A, priority_class: low, instances: 2, work_instance_hours: 20, submit: 0, "
		"checkpoint_interval: 1h}\n"
		"    - {name: hi1, team: A, priority_class: %s, instances: 2, work_instance_hours: 2, submit: 2.25h}\n";
	char buf[1024];

	snprintf(buf, sizeof buf, yaml, "high");
	capture_run(&cap, buf, NULL, 0);
	ck_assert_double_eq_tol(event_h("job_preempt", 0), 2.25, 1e-9);
	ck_assert_double_eq_tol(event_h("job_start", 1), 2.25, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 0), 3.25, 1e-9);
	ck_assert_double_eq_tol(event_h("job_resume", 0), 3.25, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 1), 10 + 0.25 + 1, 1e-9);
	ck_assert_double_eq_tol(M("work_lost_instance_hours"), 0.5, 1e-9);
	ck_assert_double_eq(M("team_A_preempted"), 1);

	snprintf(buf, sizeof buf, yaml, "low");
	capture_run(&cap, buf, NULL, 0);
	ck_assert_ptr_null(capture_find(&cap, "job_preempt", 0));
	ck_assert_double_eq_tol(event_h("job_end", 0), 10, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 1), 11, 1e-9);
}
END_TEST

/*
 * Which job a higher priority preempts, and its ties (jobs_teams.c victim: lowest priority first, then the
 * most recently placed, then the later row). Team A, quota 3, on 3 reserved instances (it cannot borrow:
 * nothing is idle to lend); classes low (10), mid (20), high (90); free checkpoints every hour, no restart.
 * In the first two cases each low or mid job holds 1 instance; h (high, 1 instance, 1 instance-hour) comes
 * at 2.5 h to a full team, so one of the three is preempted; h runs 2.5-3.5 h and the victim resumes at 3.5 h
 * from its last checkpoint.
 *  - Order: x (low, T = 10 h, placed at 1.25 h), y (low, T = 10 h, placed at 0), z (mid, T = 10 h, placed
 *    at 1.5 h, the most recent of all but of a higher priority). The victim is x: low like y but placed
 *    later. x has p = 1.25 h, s = 1 h: 0.25 instance-hours lost; it resumes from 1 h and
 *    ends at 3.5 + 9 = 12.5 h. Ends: h 3.5, y 10, z 11.5, x 12.5 h. (Had y gone: 0.5 lost, y ending at 11.5
 *    h, x at 11.25 h; had z gone: p = s = 1 h, nothing lost.)
 *  - Tie: x (row 0, low, T = 10 h) and y (row 1, low, T = 11 h), both placed at 0, and z (row 2, mid, T =
 *    10 h) at 0. x and y tie on priority and on placement: the later row, y, goes: p = 2.5 h, s = 2 h, 0.5
 *    instance-hours lost; it resumes from 2 h and ends at 3.5 + 9 = 12.5 h. Ends: h 3.5, x 10, z 10, y 12.5 h.
 *    (Had x gone: x ends at 3.5 + 8 = 11.5 h, y at 11 h.)
 *  - Placement, not the row: rows follow submission, so a later row is placed later unless it waits. Here a
 *    (row 0, mid, 2 instances, T = 1.25 h), x (row 1, low, 2 instances, T = 10 h) and y (row 2, low, 1
 *    instance, T = 10 h) all come at 0 and h (row 3) at 2.4 h. At 0, a takes 2 instances; x (2) does not fit
 *    the 1 left of the quota (and cannot borrow), y (1) does: y placed at 0. a ends at 1.25 h and x is
 *    placed then. At 2.4 h the victim is x, the low job placed last, though y is the later row: p = 1.15 h,
 *    s = 1 h, 2 instances x 0.15 h = 0.3 instance-hours lost. x needs 2 and 1 is free until h ends at 3.4 h;
 *    it resumes then from 1 h and ends at 3.4 + 9 = 12.4 h. Ends: a 1.25, h 3.4, y 10, x 12.4 h. (Had y
 *    gone: 0.4 lost, y ending at 3.4 + 8 = 11.4 h, x at 11.25 h.)
 */
START_TEST(preemption_victim_and_its_ties)
{
	const char *yaml = HEAD("20h", "3")
		"  priority_classes:\n    - {name: low, weight: 10}\n    - {name: mid, weight: 20}\n"
		"    - {name: high, weight: 90}\n"
		"  teams:\n    - {name: A, quota: 3}\n  list:\n"
		"    - {name: x, team: A, priority_class: low, instances: 1, work_instance_hours: 10, submit: %s, "
		"checkpoint_interval: 1h}\n"
		"    - {name: y, team: A, priority_class: low, instances: 1, work_instance_hours: %s, submit: 0, "
		"checkpoint_interval: 1h}\n"
		"    - {name: z, team: A, priority_class: mid, instances: 1, work_instance_hours: 10, submit: %s, "
		"checkpoint_interval: 1h}\n"
		"    - {name: h, team: A, priority_class: high, instances: 1, work_instance_hours: 1, submit: 2.5h}\n";
	char buf[2048];

	snprintf(buf, sizeof buf, yaml, "1.25h", "10", "1.5h");
	capture_run(&cap, buf, NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "job_preempt"), 1);
	ck_assert_double_eq_tol(event_h("job_preempt", 0), 2.5, 1e-9);
	ck_assert_double_eq_tol(M("work_lost_instance_hours"), 0.25, 1e-9);
	ck_assert_double_eq_tol(event_h("job_resume", 0), 3.5, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 0), 3.5, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 1), 10, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 2), 11.5, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 3), 12.5, 1e-9);
	ck_assert_double_eq(M("team_A_preempted"), 1);

	snprintf(buf, sizeof buf, yaml, "0", "11", "0");
	capture_run(&cap, buf, NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "job_preempt"), 1);
	ck_assert_double_eq_tol(event_h("job_preempt", 0), 2.5, 1e-9);
	ck_assert_double_eq_tol(M("work_lost_instance_hours"), 0.5, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 0), 3.5, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 1), 10, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 2), 10, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 3), 12.5, 1e-9);

	capture_run(&cap, HEAD("20h", "3")
		    "  priority_classes:\n    - {name: low, weight: 10}\n    - {name: mid, weight: 20}\n"
		    "    - {name: high, weight: 90}\n"
		    "  teams:\n    - {name: A, quota: 3}\n  list:\n"
		    "    - {name: a, team: A, priority_class: mid, instances: 2, work_instance_hours: 2.5, submit: 0}\n"
		    "    - {name: x, team: A, priority_class: low, instances: 2, work_instance_hours: 20, submit: 0, "
		    "checkpoint_interval: 1h}\n"
		    "    - {name: y, team: A, priority_class: low, instances: 1, work_instance_hours: 10, submit: 0, "
		    "checkpoint_interval: 1h}\n"
		    "    - {name: h, team: A, priority_class: high, instances: 1, work_instance_hours: 1, submit: 2.4h}\n",
		    NULL, 0);
	ck_assert_int_eq(capture_count(&cap, "job_preempt"), 1);
	ck_assert_double_eq_tol(event_h("job_preempt", 0), 2.4, 1e-9);
	ck_assert_double_eq_tol(M("work_lost_instance_hours"), 0.3, 1e-9);
	ck_assert_double_eq_tol(event_h("job_resume", 0), 3.4, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 0), 1.25, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 1), 3.4, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 2), 10, 1e-9);
	ck_assert_double_eq_tol(event_h("job_end", 3), 12.4, 1e-9);
}
END_TEST

/*
 * The per-team waits, nearest rank (jobs.h: the smallest value with at least ceil(q n) values at or below it),
 * with two, one and no started jobs. 2 reserved instances; teams A and B of quota 1 (borrow limit 50% of 1 =
 * 0: neither borrows), C of quota 0 with no jobs. A: a1 (1 instance, 5 h) and a2 (1 h), both at 0: a1 runs
 * 0-5 h, a2 waits for A's quota, 5-6 h. B: b1 (1 h) at 0, at once.
 *  - A: waits 0 and 5 h: mean 2.5 h = 9000 s; p95 rank ceil(0.95 x 2) = 2: 5 h = 18000 s.
 *  - B: one wait, 0: mean 0, p95 (rank 1) 0.
 *  - C: no job started: mean and p95 NaN (not 0, nor another team's figure).
 */
START_TEST(team_waits_two_one_and_none)
{
	capture_run(&cap, HEAD("8h", "2")
		    "  teams:\n    - {name: A, quota: 1}\n    - {name: B, quota: 1}\n    - {name: C, quota: 0}\n"
		    "  list:\n"
		    "    - {name: a1, team: A, instances: 1, work_instance_hours: 5, submit: 0}\n"
		    "    - {name: a2, team: A, instances: 1, work_instance_hours: 1, submit: 0}\n"
		    "    - {name: b1, team: B, instances: 1, work_instance_hours: 1, submit: 0}\n", NULL, 0);
	ck_assert_double_eq_tol(M("team_A_wait_mean_s"), 9000, 1e-6);
	ck_assert_double_eq_tol(M("team_A_wait_p95_s"), 18000, 1e-6);
	ck_assert_double_eq_tol(M("team_B_wait_mean_s"), 0, 1e-6);
	ck_assert_double_eq_tol(M("team_B_wait_p95_s"), 0, 1e-6);
	ck_assert(isnan(M_nan("team_C_wait_mean_s")));
	ck_assert(isnan(M_nan("team_C_wait_p95_s")));
	ck_assert_double_eq(M("team_A_jobs_completed"), 2);
	ck_assert_double_eq(M("team_B_jobs_completed"), 1);
	ck_assert_double_eq(M("team_C_jobs_completed"), 0);
}
END_TEST

/* The loader's defaults (HyperPod's): weight 0, lend_and_borrow, borrow limit 50, fair share on; a class
 * sets the job's priority to its weight. */
START_TEST(loader_defaults)
{
	struct scenario sc;

	parse_ok(&sc, HEAD("1d", "4")
		 "  priority_classes:\n    - {name: urgent, weight: 77}\n"
		 "  teams:\n    - {name: a, quota: 3}\n    - {name: b-2, quota: 1, lending: dont_lend, borrow_limit: 500}\n"
		 "  list:\n    - {team: b-2, priority_class: urgent, instances: 1, work_instance_hours: 1, submit: 0}\n"
		 "    - {team: a, instances: 1, work_instance_hours: 1, submit: 0, priority: 5}\n", NULL, 0);
	ck_assert_int_eq(sc.jobs.nteams, 2);
	ck_assert_int_eq(sc.jobs.teams[0].quota, 3);
	ck_assert_int_eq(sc.jobs.teams[0].weight, 0);
	ck_assert_int_eq(sc.jobs.teams[0].lending, TEAM_LEND_AND_BORROW);
	ck_assert_int_eq(sc.jobs.teams[0].borrow_limit_pct, 50);
	ck_assert_int_eq(sc.jobs.teams[1].lending, TEAM_DONT_LEND);
	ck_assert_int_eq(sc.jobs.teams[1].borrow_limit_pct, 500);
	ck_assert(sc.jobs.fair_share);
	ck_assert_int_eq(sc.jobs.list[0].team, 1);
	ck_assert_int_eq(sc.jobs.list[0].priority, 77);
	ck_assert_int_eq(sc.jobs.list[1].team, 0);
	ck_assert_int_eq(sc.jobs.list[1].priority, 5);
	ck_assert_ptr_null(strstr(sc.warnings ? sc.warnings : "", "quotas"));
	scenario_fini(&sc);
}
END_TEST

/* Quotas summing past the jobs entries (5 > 4) are a warning. */
START_TEST(quotas_beyond_fleet_warn)
{
	struct scenario sc;

	parse_ok(&sc, HEAD("1d", "4")
		 "  teams:\n    - {name: a, quota: 3}\n    - {name: b, quota: 2}\n"
		 "  list:\n    - {team: a, instances: 1, work_instance_hours: 1, submit: 0}\n", NULL, 0);
	ck_assert_ptr_nonnull(sc.warnings);
	ck_assert_ptr_nonnull(strstr(sc.warnings, "the teams' quotas sum to 5 instances, more than the 4"));
	scenario_fini(&sc);
}
END_TEST

static Suite *jobs_teams_suite(void)
{
	Suite *s = suite_create("jobs_teams");
	TCase *tc = tcase_create("core");

	test_add(tc, loader_defaults);
	test_add(tc, quotas_beyond_fleet_warn);
	test_add(tc, idle_quota_lent_by_weight);
	test_add(tc, borrow_limit_binds);
	test_add(tc, fcfs_ignores_weights);
	test_add(tc, lender_reclaims_borrowed);
	test_add(tc, reclaim_takes_from_the_most_over_and_its_ties);
	test_add(tc, dont_lend_keeps_quota);
	test_add(tc, higher_priority_preempts_within_team);
	test_add(tc, preemption_victim_and_its_ties);
	test_add(tc, team_waits_two_one_and_none);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(jobs_teams_suite());
}
