/*
 * check_fleet: the fleet (models/capacity/fleet.c, fleet_share.c, fleet_zone.c) as a unit, on a real engine and meter,
 * with a fake purchase option and stub users instead of the real options, serving and jobs.
 *
 * The fake option (fake_ops, its own struct option_ops: fleet_private.h) replaces the on-demand entry's ops after
 * fleet_init: it refuses the first `refusals` launches it is asked for, records every launch and every
 * ended instance, and bills nothing. The stub users (one for serving, one for jobs) record each up, down and
 * reclaim with its pool index and time, and leave an instance's busy count as the test set it (down
 * returning with busy 0 lets the instance go at once, fleet.h).
 *
 * The scenario (rig_yaml): one entry, on_demand count 1 max 3 (its ops replaced by the fake; fleet_start with
 * initial 0 places none of it, so every test starts empty), startup 600 s
 * (every launch is ready 600 s later: the entry's startup is DELAY_DEFAULT, so the serving default), a
 * launch retry backoff of 10 s doubling per consecutive failure up to 600 s. With `zone` set, the entry is in
 * zone z1, out of capacity from 1 h to 2 h.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "engine.h"
#include "fleet_private.h"
#include "meter.h"
#include "scenario.h"
#include "scenario_fixtures.h"
#include "status.h"
#include "testutil.h"

#define LOG_MAX 64

enum call { CALL_UP, CALL_DOWN, CALL_RECLAIM, CALL_LAUNCHED, CALL_ENDED };

struct call_rec {
	enum call what;
	int user;        /* FLEET_USER_* for up/down/reclaim; -1 for the option's hooks */
	int idx;         /* pool index */
	int64_t t_us;    /* the engine's clock at the call (ended: its end_us) */
	bool early;      /* ended: terminated before the horizon */
};

struct rig {
	struct scenario sc;
	struct engine eng;
	struct meter meter;
	struct fleet f;
	struct capture cap;
	struct diag d;
	int refusals;    /* launches the fake option still refuses */
	int asked;       /* can_launch calls */
	struct call_rec log[LOG_MAX];
	int nlog;
	struct user_ctx { struct rig *r; int user; } ctx[FLEET_USERS];  /* each stub user's ctx */
};

static struct rig *current;  /* the fake option's hooks get no context of their own */

static void record(struct rig *r, enum call what, int user, int idx, int64_t t_us, bool early)
{
	ck_assert_int_lt(r->nlog, LOG_MAX);
	r->log[r->nlog++] = (struct call_rec){ what, user, idx, t_us, early };
}

/* The i-th recorded call of kind what (from 0), or NULL. */
static const struct call_rec *nth(const struct rig *r, enum call what, int i)
{
	for (int k = 0; k < r->nlog; k++)
		if (r->log[k].what == what && i-- == 0)
			return &r->log[k];
	return NULL;
}

static int count(const struct rig *r, enum call what)
{
	int n = 0;

	for (int k = 0; k < r->nlog; k++)
		n += r->log[k].what == what;
	return n;
}

/* ---- the fake option ------------------------------------------------------------------------------ */

static int fake_can_launch(struct fleet *f, struct fleet_group *g, int n, char *why, size_t size)
{
	current->asked++;
	if (current->refusals > 0) {
		current->refusals--;
		snprintf(why, size, "fake: refused");
		return STATUS_EINPUT;
	}
	return STATUS_OK;
}

static void fake_launched(struct fleet *f, struct fleet_group *g, struct instance *in)
{
	record(current, CALL_LAUNCHED, -1, (int)(in - f->pool), f->eng->now_us, false);
}

static void fake_ended(struct fleet *f, struct fleet_group *g, struct instance *in, int64_t end_us, bool early,
		       const struct meter_payer *pay)
{
	(void)pay;
	record(current, CALL_ENDED, -1, (int)(in - f->pool), end_us, early);
}

static const struct option_ops fake_ops = {
	.can_launch = fake_can_launch,
	.launched = fake_launched,
	.ended = fake_ended,
};

/* Every entry of the rig buys the fake option. */
static const struct option_ops *fake_ops_of(const struct fleet_entry *e)
{
	(void)e;
	return &fake_ops;
}

/* ---- the stub users ------------------------------------------------------------------------------- */

static void stub(void *ctx, int idx, enum call what)
{
	const struct user_ctx *c = ctx;

	record(c->r, what, c->user, idx, c->r->eng.now_us, false);
}

static void stub_up(void *ctx, int idx) { stub(ctx, idx, CALL_UP); }
static void stub_down(void *ctx, int idx) { stub(ctx, idx, CALL_DOWN); }
static void stub_reclaim(void *ctx, int idx) { stub(ctx, idx, CALL_RECLAIM); }

/* ---- the rig -------------------------------------------------------------------------------------- */

static char yaml[2048];

static const char *rig_yaml(bool zone)
{
	snprintf(yaml, sizeof yaml,
		 "name: fleet\nseed: 1\nhorizon: 10h\nslo: {latency_s: 10}\n"
		 "workload:\n  arrivals: {kind: poisson, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 1, startup_s: 600}\n"
		 "launch_retry: {backoff_s: 10, multiplier: 2, max_backoff_s: 600}\n"
		 "%s"
		 "fleet:\n  - {option: on_demand, count: 1, max: 3%s}\n",
		 zone ? "zones:\n  - {name: z1, outages: [{start: 1h, end: 2h}]}\n" : "", zone ? ", zone: z1" : "");
	return yaml;
}

static struct rig *rig_new(bool zone)
{
	struct rig *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	current = r;
	parse_ok(&r->sc, rig_yaml(zone), NULL, 0);
	engine_init(&r->eng);
	ck_assert_int_eq(meter_init(&r->meter, capture_sink(&r->cap), &r->d, r->sc.slo.latency_us,
				    r->sc.serving.gpus, r->sc.serving.slots, r->sc.horizon_us, 0,
				    r->sc.sample_period_us), STATUS_OK);
	ck_assert_int_eq(fleet_init(&r->f, &r->sc, &r->eng, &r->meter, fake_ops_of), STATUS_OK);
	for (int u = 0; u < FLEET_USERS; u++) {
		r->ctx[u].r = r;
		r->ctx[u].user = u;
		fleet_set_user(&r->f, u, &(struct fleet_user){ .up = stub_up, .down = stub_down,
							       .reclaim = stub_reclaim, .ctx = &r->ctx[u] });
	}
	ck_assert_int_eq(fleet_start(&r->f, 0), STATUS_OK);
	return r;
}

static void rig_free(struct rig *r)
{
	engine_fini(&r->eng);
	fleet_fini(&r->f);
	meter_fini(&r->meter);
	scenario_fini(&r->sc);
	free(r);
	current = NULL;
}

/* Run every event up to t_s seconds, then stand the clock there. */
static void run_to(struct rig *r, double t_s)
{
	int64_t t_us = (int64_t)(t_s * 1e6);

	engine_run(&r->eng, t_us);
	engine_advance(&r->eng, t_us);
}

#define US(s) ((int64_t)((s) * 1e6))

/* ---- the tests ------------------------------------------------------------------------------------ */

START_TEST(launch_waits_its_startup_then_comes_up)
{
	/* Desired 2 at t = 0: pool slots 0 and 1 launch at once (the option's launched hook twice, meter
	 * launches 2), and come up for serving at 0 + 600 s startup, not a microsecond before. */
	struct rig *r = rig_new(false);

	ck_assert_int_eq(fleet_set_desired(&r->f, 2), 2);
	ck_assert_int_eq(r->f.pool[0].state, INSTANCE_LAUNCHING);
	ck_assert_int_eq(r->f.pool[1].state, INSTANCE_LAUNCHING);
	ck_assert_int_eq(r->f.pool[2].state, INSTANCE_FREE);
	ck_assert_int_eq(count(r, CALL_LAUNCHED), 2);
	ck_assert_uint_eq(r->meter.launches, 2);
	ck_assert_int_eq(fleet_live(&r->f), 2);
	run_to(r, 599.999999);
	ck_assert_int_eq(count(r, CALL_UP), 0);
	run_to(r, 600);
	ck_assert_int_eq(count(r, CALL_UP), 2);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(nth(r, CALL_UP, i)->user, FLEET_USER_SERVING);
		ck_assert_int_eq(nth(r, CALL_UP, i)->idx, i);
		ck_assert_int_eq(nth(r, CALL_UP, i)->t_us, US(600));
		ck_assert_int_eq(r->f.pool[i].state, INSTANCE_SERVING);
	}
	rig_free(r);
}
END_TEST

START_TEST(failed_launch_backs_off_and_retries)
{
	/* The option refuses twice. Attempt 1 at t = 0 fails: wait 10 s x 2^0 = 10 s, retry at 10 s. Attempt 2
	 * at 10 s fails: wait 10 x 2^1 = 20 s, retry at 30 s. Attempt 3 at 30 s launches (failures back to 0):
	 * ready at 30 + 600 = 630 s. Two failures counted, one launch. */
	struct rig *r = rig_new(false);

	r->refusals = 2;
	fleet_set_desired(&r->f, 1);
	ck_assert_int_eq(r->f.group[0].failures, 1);
	ck_assert_int_eq(r->f.group[0].retry_us, US(10));
	run_to(r, 29.999999);
	ck_assert_int_eq(r->asked, 2);
	ck_assert_int_eq(r->f.group[0].failures, 2);
	ck_assert_int_eq(r->f.group[0].retry_us, US(30));
	ck_assert_int_eq(count(r, CALL_LAUNCHED), 0);
	run_to(r, 30);
	ck_assert_int_eq(r->asked, 3);
	ck_assert_int_eq(r->f.group[0].failures, 0);
	ck_assert_int_eq(nth(r, CALL_LAUNCHED, 0)->t_us, US(30));
	ck_assert_uint_eq(r->meter.launch_failures, 2);
	ck_assert_uint_eq(r->meter.launches, 1);
	run_to(r, 630);
	ck_assert_int_eq(nth(r, CALL_UP, 0)->t_us, US(630));
	rig_free(r);
}
END_TEST

START_TEST(scale_in_drains_the_least_busy_and_a_busy_one_when_idle)
{
	/* Two serving at 600 s, slot 0 busy with 1 request, slot 1 idle. Desired 1: the least busy (slot 1) is
	 * drained, told down, and with busy 0 ends at once (ended early at 600 s). Desired 0: slot 0 drains,
	 * told down, but its request keeps it until the user says it is idle at 700 s: ended then. */
	struct rig *r = rig_new(false);

	fleet_set_desired(&r->f, 2);
	run_to(r, 600);
	r->f.pool[0].busy = 1;
	fleet_set_desired(&r->f, 1);
	ck_assert_int_eq(nth(r, CALL_DOWN, 0)->idx, 1);
	ck_assert_int_eq(r->f.pool[1].state, INSTANCE_FREE);
	ck_assert_int_eq(nth(r, CALL_ENDED, 0)->idx, 1);
	ck_assert_int_eq(nth(r, CALL_ENDED, 0)->t_us, US(600));
	ck_assert(nth(r, CALL_ENDED, 0)->early);
	ck_assert_uint_eq(r->meter.terminations, 1);
	fleet_set_desired(&r->f, 0);
	ck_assert_int_eq(nth(r, CALL_DOWN, 1)->idx, 0);
	ck_assert_int_eq(r->f.pool[0].state, INSTANCE_DRAINING);
	ck_assert_int_eq(r->f.group[0].draining, 1);
	ck_assert_int_eq(r->f.group[0].live, 0);
	ck_assert_int_eq(count(r, CALL_ENDED), 1);
	run_to(r, 700);
	r->f.pool[0].busy = 0;
	fleet_instance_idle(&r->f, 0);
	ck_assert_int_eq(r->f.pool[0].state, INSTANCE_FREE);
	ck_assert_int_eq(nth(r, CALL_ENDED, 1)->idx, 0);
	ck_assert_int_eq(nth(r, CALL_ENDED, 1)->t_us, US(700));
	ck_assert_int_eq(r->f.group[0].draining, 0);
	ck_assert_uint_eq(r->meter.terminations, 2);
	rig_free(r);
}
END_TEST

START_TEST(notice_drains_then_doom_takes_it_and_a_replacement_launches)
{
	/* Slot 0 serving at 600 s with a request. A notice with doom at 720 s: it is told down and drains
	 * (still busy), and the fleet, one short, launches slot 1 at 600 s (ready 1200 s). At 720 s its doom:
	 * the user is told it is taken (reclaim) and it ends early at 720 s. */
	struct rig *r = rig_new(false);

	fleet_set_desired(&r->f, 1);
	run_to(r, 600);
	r->f.pool[0].busy = 1;
	fleet_interrupt(&r->f, 0, US(720), "test notice");
	ck_assert(r->f.pool[0].noticed);
	ck_assert_int_eq(r->f.pool[0].state, INSTANCE_DRAINING);
	ck_assert_int_eq(nth(r, CALL_DOWN, 0)->idx, 0);
	ck_assert_int_eq(nth(r, CALL_LAUNCHED, 1)->idx, 1);
	ck_assert_int_eq(nth(r, CALL_LAUNCHED, 1)->t_us, US(600));
	run_to(r, 719.999999);
	ck_assert_int_eq(count(r, CALL_RECLAIM), 0);
	run_to(r, 720);
	ck_assert_int_eq(nth(r, CALL_RECLAIM, 0)->idx, 0);
	ck_assert_int_eq(nth(r, CALL_RECLAIM, 0)->t_us, US(720));
	ck_assert_int_eq(nth(r, CALL_ENDED, 0)->idx, 0);
	ck_assert_int_eq(nth(r, CALL_ENDED, 0)->t_us, US(720));
	ck_assert_int_eq(r->f.pool[0].state, INSTANCE_FREE);
	run_to(r, 1200);
	ck_assert_int_eq(r->f.pool[1].state, INSTANCE_SERVING);
	rig_free(r);
}
END_TEST

START_TEST(hand_over_moves_an_instance_between_users)
{
	/* Slot 0 serving (idle) at 600 s. The group goes to jobs: handed over, it drains from serving (down)
	 * and, idle, comes up for jobs at once, still live, nothing ended. Back to serving with a 60 s notice
	 * while a job runs on it (busy 1): jobs are told down, and at 660 s the notice runs out: jobs are told
	 * it is taken (reclaim) and it comes up for serving; still nothing ended. */
	struct rig *r = rig_new(false);
	struct instance *in = &r->f.pool[0];

	fleet_set_desired(&r->f, 1);
	run_to(r, 600);
	r->f.group[0].user = FLEET_USER_JOBS;
	fleet_hand_over(&r->f, in, 60 * S_US);
	ck_assert_int_eq(nth(r, CALL_DOWN, 0)->user, FLEET_USER_SERVING);
	ck_assert_int_eq(nth(r, CALL_UP, 1)->user, FLEET_USER_JOBS);
	ck_assert_int_eq(nth(r, CALL_UP, 1)->t_us, US(600));
	ck_assert_int_eq(in->state, INSTANCE_SERVING);
	ck_assert_int_eq(in->user, FLEET_USER_JOBS);
	ck_assert_int_eq(r->f.group[0].live, 1);
	in->busy = 1;
	r->f.group[0].user = FLEET_USER_SERVING;
	fleet_hand_over(&r->f, in, 60 * S_US);
	ck_assert_int_eq(nth(r, CALL_DOWN, 1)->user, FLEET_USER_JOBS);
	ck_assert_int_eq(in->state, INSTANCE_DRAINING);
	run_to(r, 659.999999);
	ck_assert_int_eq(count(r, CALL_UP), 2);
	run_to(r, 660);
	ck_assert_int_eq(nth(r, CALL_RECLAIM, 0)->user, FLEET_USER_JOBS);
	ck_assert_int_eq(nth(r, CALL_UP, 2)->user, FLEET_USER_SERVING);
	ck_assert_int_eq(nth(r, CALL_UP, 2)->t_us, US(660));
	ck_assert_int_eq(in->state, INSTANCE_SERVING);
	ck_assert_int_eq(in->busy, 0);
	ck_assert_int_eq(count(r, CALL_ENDED), 0);
	rig_free(r);
}
END_TEST

START_TEST(zone_outage_takes_instances_and_refuses_launches_until_its_end)
{
	/* Slot 0 serving from 600 s in zone z1, out from 3600 s to 7200 s. At 3600 s it is lost at once (an
	 * on-demand-like option: doom now): told down, reclaimed and ended at 3600 s. Every launch in the zone
	 * then fails; waits 10 x 2^k s capped at 600: failures at 3600, 3610, 3630, 3670, 3750, 3910, 4230,
	 * 4830, 5430, 6030, 6630 (11), and the retry at 7230 s, past the outage's end, launches: ready at
	 * 7830 s. */
	struct rig *r = rig_new(true);

	fleet_set_desired(&r->f, 1);
	run_to(r, 3600);
	ck_assert_int_eq(nth(r, CALL_RECLAIM, 0)->idx, 0);
	ck_assert_int_eq(nth(r, CALL_RECLAIM, 0)->t_us, US(3600));
	ck_assert_int_eq(nth(r, CALL_ENDED, 0)->t_us, US(3600));
	ck_assert_uint_eq(r->meter.launch_failures, 1);
	run_to(r, 7229.999999);
	ck_assert_uint_eq(r->meter.launch_failures, 11);
	ck_assert_int_eq(r->f.group[0].retry_us, US(7230));
	ck_assert_int_eq(count(r, CALL_LAUNCHED), 1);
	ck_assert_int_eq(r->asked, 1);  /* the zone refuses before the option is asked */
	run_to(r, 7230);
	ck_assert_int_eq(count(r, CALL_LAUNCHED), 2);
	ck_assert_int_eq(nth(r, CALL_LAUNCHED, 1)->t_us, US(7230));
	run_to(r, 7830);
	ck_assert_int_eq(nth(r, CALL_UP, 1)->t_us, US(7830));
	rig_free(r);
}
END_TEST

START_TEST(available_and_live_of_count_slots_users_and_the_zone)
{
	/* fleet_available (fleet_probe.c) is what the entry could still launch: its slots (max 3) less those
	 * live or draining, none in a zone outage; the fake option has no capacity of its own (no `available`
	 * hook), so nothing else limits it, and no time is known at which that changes by itself. Slot 0 serving
	 * from 600 s: 3 - 1 = 2. fleet_live_of counts the instances paid for by each user: 1 serving, 0 jobs
	 * (slots 1 and 2 are free, and a free slot is nobody's). In zone z1 (out from 3600 s to 7200 s) the
	 * instance is lost at 3600 s: at 4000 s nothing is live and the zone refuses, so 0; at 7200 s, the
	 * outage's end (the retry comes at 7230 s), all 3 slots again. */
	struct rig *r = rig_new(false);
	int64_t next = 0;

	fleet_set_desired(&r->f, 1);
	run_to(r, 600);
	ck_assert_int_eq(fleet_available(&r->f, 0, &next), 2);
	ck_assert_int_eq(next, INT64_MAX);
	ck_assert_int_eq(fleet_live_of(&r->f, FLEET_USER_SERVING), 1);
	ck_assert_int_eq(fleet_live_of(&r->f, FLEET_USER_JOBS), 0);
	rig_free(r);

	r = rig_new(true);
	fleet_set_desired(&r->f, 1);
	run_to(r, 4000);
	ck_assert_int_eq(fleet_live_of(&r->f, FLEET_USER_SERVING), 0);
	ck_assert_int_eq(fleet_available(&r->f, 0, NULL), 0);
	run_to(r, 7200);
	ck_assert_int_eq(fleet_available(&r->f, 0, NULL), 3);
	rig_free(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fleet");
	TCase *tc = tcase_create("fleet");

	test_add(tc, launch_waits_its_startup_then_comes_up);
	test_add(tc, failed_launch_backs_off_and_retries);
	test_add(tc, scale_in_drains_the_least_busy_and_a_busy_one_when_idle);
	test_add(tc, notice_drains_then_doom_takes_it_and_a_replacement_launches);
	test_add(tc, hand_over_moves_an_instance_between_users);
	test_add(tc, zone_outage_takes_instances_and_refuses_launches_until_its_end);
	test_add(tc, available_and_live_of_count_slots_users_and_the_zone);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
