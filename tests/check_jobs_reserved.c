/*
 * check_jobs_reserved: jobs on capacity booked ahead, from the scenario text through the loader to the run:
 * a SageMaker training plan's segment ending under a job (its instances gone 30 minutes before the end, the
 * job resuming from the checkpoint it saved at the expiry notice, on the plan's next segment or on
 * on-demand), a Capacity Block shared by time of day (serving by day, a job by night), and a gang launch
 * on Spot that is all or nothing.
 * Times are compared to 1e-6 h (the engine counts microseconds; every figure below is a whole number of
 * seconds); dollars to half a cent.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "testutil.h"

static struct capture cap;

static double M(const char *name)
{
	double v = capture_metric(&cap, name);

	ck_assert_msg(!isnan(v), "metric %s missing or NaN", name);
	return v;
}

/* The time of the i-th event of kind, in hours (it must exist). */
static double event_h(const char *kind, int i)
{
	const struct capture_event *e = capture_find(&cap, kind, i);

	ck_assert_msg(e != NULL, "no event %s #%d", kind, i);
	return e->t_s / 3600.0;
}

/* The time of the first on-demand launch at or after t_h hours; -1 if none. */
static double launch_after_h(double t_h)
{
	for (int i = 0; i < cap.nevents; i++)
		if (strcmp(cap.events[i].kind, "launch") == 0 && strcmp(cap.events[i].option, "on_demand") == 0 &&
		    cap.events[i].t_s >= t_h * 3600)
			return cap.events[i].t_s / 3600.0;
	return -1;
}

static const char *event_option(const char *kind, int i)
{
	const struct capture_event *e = capture_find(&cap, kind, i);

	ck_assert_msg(e != NULL, "no event %s #%d", kind, i);
	return e->option;
}

/* The last event of kind `kind` and option `option`, in hours; -1 if none. */
static double last_h(const char *kind, const char *option)
{
	double t = -1;

	for (int i = 0; i < cap.nevents; i++)
		if (strcmp(cap.events[i].kind, kind) == 0 && strcmp(cap.events[i].option, option) == 0)
			t = cap.events[i].t_s / 3600.0;
	return t;
}

/* A jobs-only scenario: the plan's first segment (day 1, 2 instances at $10/h), then either a second
 * segment (day 3) or an on-demand entry; one job of 2 instances and 60 instance-hours. */
#define HEAD "name: plan\nseed: 5\nstart: 2026-01-01T00:00:00Z\nhorizon: 4d\n" \
	"serving: {instance_type: g6.12xlarge, startup_s: 300}\n" \
	"catalog: {g6.12xlarge: {sells: [capacity_block, training_plan]}}  # (assumed)\n"
#define JOB "jobs:\n  policy: reserved_first\n  failures: {per_instance_hour: 0}\n  list:\n" \
	"    - {name: ft, instances: 2, work_instance_hours: 60, submit: 0, checkpoint_interval: 1h,\n" \
	"       checkpoint_cost: 3m, restart_overhead: 6m}\n"

/*
 * The job on segment 1 (open at t = 0, so its instances are up at once). T = 60 / 2 = 30 h; restart 0.1 h,
 * then cycles of 1 h of compute and a 0.05 h checkpoint. The segment ends at 24 h: its instances are taken
 * at 24 - 0.5 = 23.5 h, and get their notice expiry_notice (10 min) earlier, at 23.5 - 1/6 = 23.3333 h.
 * By then: 22 cycles end at 0.1 + 22 x 1.05 = 23.2 h (p = s = 22 h), then 0.1333 h more compute: p =
 * 22.1333 h. The notice leaves 10 min >= the 3 min checkpoint: the job saves s = 22.1333 h, and leaves
 * at 23.3333 + 0.05 = 23.3833 h, when the segment's instances terminate (before 23.5 h: nothing of the
 * plan runs after it). Nothing is lost. Segment 2's instances stay after the job's end (they are paid
 * for) and are taken at 72 - 0.5 = 71.5 h.
 * Segment 2 opens at 48 h: the job resumes there, restart 0.1 h, then the 30 - 22.1333 = 7.8667 h left
 * with ceil(7.8667) - 1 = 7 checkpoints: end = 48 + 0.1 + 7.8667 + 7 x 0.05 = 56.3167 h.
 * Bill: 2 segments x 2 instances x 24 h x $10 = $960, paid up front whatever the job used.
 */
START_TEST(plan_segment_ends_then_next_segment)
{
	capture_run(&cap, HEAD "fleet:\n  - option: training_plan\n    use: jobs\n    usd_per_h: 10\n"
		    "    startup: {kind: constant, mean_s: 0}\n    segments:\n"
		    "      - {start: 2026-01-01T00:00:00Z, days: 1, count: 2}\n"
		    "      - {start: 2026-01-03T00:00:00Z, days: 1, count: 2}\n" JOB, NULL, 0);
	ck_assert_double_eq_tol(event_h("job_start", 0), 0, 1e-9);
	ck_assert_double_eq_tol(event_h("job_interrupt", 0), 23.5 - 1.0 / 6, 1e-6);
	ck_assert_double_eq_tol(event_h("job_checkpoint", 0), 23.5 - 1.0 / 6, 1e-6);
	ck_assert_double_eq_tol(event_h("terminate", 0), 23.5 - 1.0 / 6 + 0.05, 1e-6);
	ck_assert_double_eq_tol(event_h("terminate", 1), 23.5 - 1.0 / 6 + 0.05, 1e-6);
	ck_assert_double_eq(M("work_lost_instance_hours"), 0);
	ck_assert_str_eq(event_option("job_resume", 0), "training_plan");
	ck_assert_double_eq_tol(event_h("job_resume", 0), 48, 1e-6);
	ck_assert_double_eq_tol(event_h("job_end", 0), 48 + 0.1 + (30 - (22 + 0.4 / 3)) + 7 * 0.05, 1e-6);
	/* the job's end frees the segment's instances, the plan keeps them to 30 min before its end */
	ck_assert_double_eq_tol(last_h("terminate", "training_plan"), 72 - 0.5, 1e-6);
	ck_assert_double_eq(M("jobs_completed"), 1);
	ck_assert_double_eq_tol(M("cost_training_plan_usd"), 960.00, 0.005);
	ck_assert_double_eq_tol(M("jobs_cost_training_plan_usd"), 960.00, 0.005);
}
END_TEST

/*
 * The same job with one segment and an on-demand entry ($20/h, up at once): it leaves the plan at
 * 23.3833 h with s = 22.1333 h as above and resumes on on-demand at once: end = 23.3833 + 0.1 + 7.8667 +
 * 7 x 0.05 = 31.7 h. Bill: the segment 2 x 24 x $10 = $480; on-demand 2 x (31.7 - 23.3833) x $20 =
 * $332.67 (8.3167 h each: 29940 s).
 */
START_TEST(plan_segment_ends_then_on_demand)
{
	capture_run(&cap, HEAD "fleet:\n  - option: training_plan\n    use: jobs\n    usd_per_h: 10\n"
		    "    startup: {kind: constant, mean_s: 0}\n    segments:\n"
		    "      - {start: 2026-01-01T00:00:00Z, days: 1, count: 2}\n"
		    "  - {option: on_demand, use: jobs, max: 2, usd_per_h: 20, startup: {kind: constant, mean_s: 0}}\n"
		    JOB, NULL, 0);
	ck_assert_double_eq_tol(event_h("job_checkpoint", 0), 23.5 - 1.0 / 6, 1e-6);
	ck_assert_double_eq_tol(last_h("terminate", "training_plan"), 23.5 - 1.0 / 6 + 0.05, 1e-6);
	ck_assert_str_eq(event_option("job_resume", 0), "on_demand");
	ck_assert_double_eq_tol(event_h("job_resume", 0), 23.5 - 1.0 / 6 + 0.05, 1e-6);
	ck_assert_double_eq_tol(event_h("job_end", 0), 31.7, 1e-6);
	ck_assert_double_eq(M("work_lost_instance_hours"), 0);
	ck_assert_double_eq_tol(M("cost_training_plan_usd"), 480.00, 0.005);
	ck_assert_double_eq_tol(M("jobs_cost_on_demand_usd"), 2 * 29940 / 3600.0 * 20, 0.005);
}
END_TEST

/*
 * A Capacity Block of 2 shared by time of day: serving from 08:00 to 20:00 UTC, a job by night. The block
 * runs from before the window to past it; at t = 0 (00:00) the jobs have it. The job: 2 instances, 20
 * instance-hours (T = 10 h), a checkpoint every hour costing 1 min, restart 0.1 h.
 * Night 1: restart to 0.1 h, cycles of 1 h + 1/60 h: 7 end at 0.1 + 7 x 61/60 = 7.2167 h (p = s = 7 h),
 * then compute to 8:00: p = 7.7833 h. At 08:00 serving's hours begin: the job gets the shared notice (120 s,
 * the default) >= its 1 min checkpoint, saves s = 7.7833 h and leaves at 8 + 1/60 h; the instances go to
 * serving then. At 20:00 serving finishes the requests in service on them (seconds) and they come back to
 * the job: it resumes at 20:00 + that drain (under a minute here), then restart 0.1 h and the 2.2167 h left
 * with ceil(2.2167) - 1 = 2 checkpoints: the end is 0.1 + 2.2167 + 2/60 = 2.35 h after the resume.
 */
/* The shared block scenario below, with `extra` added to the block's entry. */
static void run_shared_set(const char *extra, const char *const *sets, int nsets)
{
	char yaml[2048];

	snprintf(yaml, sizeof yaml, "name: shared\nseed: 5\nstart: 2026-01-01T00:00:00Z\nhorizon: 2d\nslo: {latency_s: 20}\n"
		    "workload:\n  arrivals: {kind: poisson, rate_per_s: 0.5}\n  service: {kind: exponential, mean_s: 2}\n"
		    "serving: {instance_type: g6.12xlarge, slots_per_instance: 4, startup_s: 60}\n"
		    "catalog: {g6.12xlarge: {sells: [capacity_block, training_plan]}}  # (assumed)\n"
		    "fleet:\n  - {option: capacity_block, start: 2025-12-31T11:30:00Z, duration: 3d, count: 2, usd_per_h: 10,"
		    " use: shared, serving_hours: \"08:00-20:00\"%s}\n"
		    "  - {option: on_demand, max: 2, usd_per_h: 20}\n"
		    "autoscaling: {policy: target_tracking, target: 0.7, min: 1, max: 4}\n"
		    "jobs:\n  policy: reserved_first\n  failures: {per_instance_hour: 0}\n  list:\n"
		    "    - {name: night, instances: 2, work_instance_hours: 20, submit: 0, checkpoint_interval: 1h,\n"
		    "       checkpoint_cost: 1m, restart_overhead: 6m}\n", extra);
	capture_run(&cap, yaml, sets, nsets);
}

static void run_shared(const char *extra)
{
	run_shared_set(extra, NULL, 0);
}

START_TEST(shared_block_serves_by_day_trains_by_night)
{
	double resume;

	run_shared("");
	ck_assert_double_eq_tol(event_h("job_start", 0), 0, 1e-9);
	ck_assert_double_eq_tol(event_h("share_switch", 0), 8, 1e-9);
	ck_assert_double_eq_tol(event_h("job_checkpoint", 0), 8, 1e-6);
	ck_assert_double_eq_tol(event_h("handover", 0), 8 + 1.0 / 60, 1e-6);
	ck_assert_double_eq_tol(event_h("share_switch", 1), 20, 1e-9);
	resume = event_h("job_resume", 0);
	ck_assert_msg(resume >= 20 && resume < 20 + 1.0 / 60, "resumed at %.6f h", resume);
	ck_assert_double_eq_tol(event_h("job_end", 0) - resume, 0.1 + (10 - (7 + 47.0 / 60)) + 2.0 / 60, 1e-6);
	ck_assert_double_eq(M("work_lost_instance_hours"), 0);
	ck_assert_double_eq(M("jobs_completed"), 1);
	/* serving's replacements launch its startup (60 s) before the jobs take the block, ready at 20:00 */
	ck_assert_double_eq_tol(launch_after_h(12), 20 - 1.0 / 60, 1e-9);
	ck_assert_double_eq_tol(event_h("share_prewarm", 0), 20 - 1.0 / 60, 1e-9);
	ck_assert_str_eq(event_option("handover", 1), "capacity_block");
	/* the block's bill, 2 x 48 h x $10 = $960 in the window, is split by the hours each side had it: the
	 * jobs 00:00-08:00 and 20:00-24:00 of both days, 24 of 48 h: $480 */
	ck_assert_double_eq_tol(M("cost_capacity_block_usd"), 960.00, 0.005);
	ck_assert_double_eq_tol(M("jobs_cost_capacity_block_usd"), 480.00, 0.005);
}
END_TEST

/*
 * The pre-warm is given back at the switch (fleet_share.c on_change): run_shared with room for 4 on-demand
 * instances (fleet.1.max=4). The light load (0.5 x 2 s = 1 slot of 8) keeps the policy's desired capacity at
 * its min, 1; by day the block's 2 instances are serving's floor, so serving has those 2 and no on-demand
 * instance. At 19:59 (20:00 less the 60 s startup) the pre-warm adds the block's 2 live instances: desired
 * 1 + 2 = 3, of which the block holds 2: 1 on-demand launch. At 20:00 the block goes to the job and the
 * desired capacity falls back by the 2: 3 - 2 = 1, which that on-demand instance holds, so nothing launches
 * at 20:00 (in the 5 minutes after it). Not given back, desired would stay 3 with the block gone: 2 more
 * on-demand launches at 20:00.
 */
START_TEST(shared_block_prewarm_given_back_at_the_switch)
{
	const char *room[] = { "fleet.1.max=4" };
	int at_switch = 0;

	run_shared_set("", room, 1);
	ck_assert_double_eq_tol(event_h("share_switch", 1), 20, 1e-9);
	ck_assert_double_eq_tol(launch_after_h(12), 20 - 1.0 / 60, 1e-9);
	for (int i = 0; i < cap.nevents; i++)
		if (strcmp(cap.events[i].option, "on_demand") == 0 && strcmp(cap.events[i].kind, "launch") == 0) {
			if (fabs(cap.events[i].t_s - (20 * 3600 - 60)) < 1e-6)
				ck_assert_int_eq(cap.events[i].count, 1);
			at_switch += cap.events[i].t_s >= 20 * 3600 && cap.events[i].t_s < 20 * 3600 + 300;
		}
	ck_assert_int_eq(at_switch, 0);
}
END_TEST

/*
 * A gang launches all together or not at all (SOURCES.md [jobs-gang-launch]): a job of 4 Spot instances on a
 * replayed trace showing 3 for the first 5 h, then 4. Before 5 h every attempt is refused whole (counted
 * in launch_failures) and launches nothing: no cancelled instance pays a 60 s minimum. The first attempt
 * at or after 5 h (when the entry's backoff lets it) launches the 4, ready at once; T = 4 / 4 = 1 h, no
 * restart overhead: the job ends 1 h after its launch, and Spot costs exactly 4 x 1 h x $4 = $16. The GPUs a
 * job holds are busy: 4 instances x 4 GPUs x 1 h = 16 GPU-hours paid, all busy.
 */
START_TEST(gang_launches_all_or_nothing)
{
	char yaml[1024];
	double start;

	snprintf(yaml, sizeof yaml, "name: gang\nseed: 5\nhorizon: 24h\n"
		 "serving: {instance_type: g6.12xlarge, startup_s: 300}\n"
		 "catalog: {g6.12xlarge: {sells: [capacity_block, training_plan]}}  # (assumed)\n"
		 "fleet:\n  - {option: spot, use: jobs, max: 4, usd_per_h: 4, availability_trace: %s/spot/jobs-gang.json,"
		 " startup: {kind: constant, mean_s: 0}}\n"
		 "jobs:\n  policy: spot\n  failures: {per_instance_hour: 0}\n  list:\n"
		 "    - {name: gang, instances: 4, work_instance_hours: 4, submit: 0}\n", TEST_DATA_DIR);
	capture_run(&cap, yaml, NULL, 0);
	start = event_h("job_start", 0);
	ck_assert_msg(start >= 5 && start < 6, "started at %.6f h", start);
	ck_assert_double_eq_tol(event_h("launch", 0), start, 1e-9);
	ck_assert_int_eq(capture_find(&cap, "launch", 0)->count, 4);
	ck_assert_ptr_null(capture_find(&cap, "launch", 1));
	ck_assert_ptr_null(capture_find(&cap, "cancel", 0));
	ck_assert(M("launch_failures") >= 1);
	ck_assert_double_eq_tol(event_h("job_end", 0), start + 1, 1e-9);
	ck_assert_double_eq_tol(M("cost_spot_usd"), 16.00, 0.005);
	/* the job held the 4 instances (4 GPUs each) for all of their paid hour: 16 GPU-hours, all busy */
	ck_assert_double_eq_tol(M("gpu_hours_paid"), 16, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_busy_spot"), 16, 1e-9);
	ck_assert_double_eq_tol(M("gpu_hours_idle"), 0, 1e-9);
	ck_assert_double_eq_tol(M("gpu_utilization"), 1, 1e-12);
}
END_TEST

/*
 * The same with notice_s: 30 on the block: at 08:00 the notice (30 s) is shorter than the 1 min checkpoint,
 * so the job rolls back to s = 7 h (losing 0.7833 h x 2 instances = 1.5667 instance-hours) and leaves at
 * once: the instances go to serving at 08:00 (with the default 120 s notice it saved and left at 08:01).
 */
START_TEST(shared_block_short_notice_loses_work)
{
	run_shared(", notice_s: 30");
	ck_assert_ptr_null(capture_find(&cap, "job_checkpoint", 0));
	ck_assert_double_eq_tol(event_h("job_interrupt", 0), 8, 1e-9);
	ck_assert_double_eq_tol(event_h("handover", 0), 8, 1e-9);
	ck_assert_double_eq_tol(M("work_lost_instance_hours"), 2 * (47.0 / 60), 1e-6);
}
END_TEST

/*
 * A training plan shared by time of day keeps its two notices apart: notice_s (30 s) when serving's hours
 * begin, expiry_notice (10 min) before the segment's end. At 08:00 the job cannot save its 1 min checkpoint
 * in 30 s: it rolls back to s = 7 h (1.5667 instance-hours lost, as with the block) and leaves at once.
 */
START_TEST(shared_plan_notices_apart)
{
	capture_run(&cap, "name: sp\nseed: 5\nstart: 2026-01-01T00:00:00Z\nhorizon: 1d\nslo: {latency_s: 20}\n"
		    "workload:\n  arrivals: {kind: poisson, rate_per_s: 0.5}\n  service: {kind: exponential, mean_s: 2}\n"
		    "serving: {instance_type: g6.12xlarge, slots_per_instance: 4, startup_s: 60}\n"
		    "catalog: {g6.12xlarge: {sells: [capacity_block, training_plan]}}  # (assumed)\n"
		    "fleet:\n  - option: training_plan\n    use: shared\n    serving_hours: \"08:00-20:00\"\n"
		    "    notice_s: 30\n    expiry_notice: 10m\n    usd_per_h: 10\n    segments:\n"
		    "      - {start: 2025-12-31T00:00:00Z, days: 4, count: 2}\n"
		    "  - {option: on_demand, max: 2, usd_per_h: 20}\n"
		    "autoscaling: {policy: target_tracking, target: 0.7, min: 1, max: 4}\n"
		    "jobs:\n  policy: reserved_first\n  failures: {per_instance_hour: 0}\n  list:\n"
		    "    - {name: night, instances: 2, work_instance_hours: 20, submit: 0, checkpoint_interval: 1h,\n"
		    "       checkpoint_cost: 1m, restart_overhead: 6m}\n", NULL, 0);
	ck_assert_ptr_null(capture_find(&cap, "job_checkpoint", 0));
	ck_assert_double_eq_tol(event_h("job_interrupt", 0), 8, 1e-9);
	ck_assert_double_eq_tol(M("work_lost_instance_hours"), 2 * (47.0 / 60), 1e-6);
	ck_assert_ptr_null(capture_find(&cap, "plan_expiring", 0)); /* the segment ends after the horizon */
}
END_TEST

static Suite *jobs_reserved_suite(void)
{
	Suite *s = suite_create("jobs_reserved");
	TCase *tc = tcase_create("core");

	test_add(tc, plan_segment_ends_then_next_segment);
	test_add(tc, plan_segment_ends_then_on_demand);
	test_add(tc, shared_block_serves_by_day_trains_by_night);
	test_add(tc, shared_block_short_notice_loses_work);
	test_add(tc, shared_plan_notices_apart);
	test_add(tc, shared_block_prewarm_given_back_at_the_switch);
	test_add(tc, gang_launches_all_or_nothing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(jobs_reserved_suite());
}
