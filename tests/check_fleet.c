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
 * zone z1, out of capacity from 1 h to 2 h. Other tests build their own fleet on the same scenario
 * (fleet_yaml: a full fleet of 64 entries, 8 zones, a Spot pool, a shared block), each entry buying the fake
 * (fake_ops_of), or by kind (mixed_ops_of: a fake Spot for Spot entries, no option for others). The link wraps
 * gsl_rng_alloc so that a test can fail a random stream's allocation (tests/CMakeLists.txt), and every rig
 * checks that nothing was written past its struct fleet.
 */
#include <check.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "convert.h"
#include "engine.h"
#include "fleet_private.h"
#include "meter.h"
#include "rng.h"
#include "scenario.h"
#include "scenario_fixtures.h"
#include "status.h"
#include "testutil.h"

#define LOG_MAX 64

/* ---- random generators that fail on purpose (the link wraps gsl_rng_alloc: tests/CMakeLists.txt) ---- */

gsl_rng *__real_gsl_rng_alloc(const gsl_rng_type *type);
gsl_rng *__wrap_gsl_rng_alloc(const gsl_rng_type *type);

static int rng_fail_at;  /* the generator allocation to fail, counting down from 1; 0: none */

gsl_rng *__wrap_gsl_rng_alloc(const gsl_rng_type *type)
{
	if (rng_fail_at > 0 && --rng_fail_at == 0)
		return NULL;
	return __real_gsl_rng_alloc(type);
}

enum call { CALL_UP, CALL_DOWN, CALL_RECLAIM, CALL_LAUNCHED, CALL_ENDED, CALL_BACK };

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
	unsigned char past_fleet[sizeof(struct fleet_zone)];  /* right after f: nothing may write here (rig_free) */
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

/* Its zone's capacity is back (the end of a zone outage): recorded with the time (the group's index). */
static void fake_zone_back(struct fleet *f, struct fleet_group *g)
{
	record(current, CALL_BACK, -1, g->index, f->eng->now_us, false);
}

static const struct option_ops fake_ops = {
	.can_launch = fake_can_launch,
	.launched = fake_launched,
	.ended = fake_ended,
	.zone_back = fake_zone_back,
};

/* The same for a Spot entry: its instances are the Spot market (a zone's Spot pool), given a notice at a
 * zone outage. */
static const struct option_ops fake_spot_ops = {
	.can_launch = fake_can_launch,
	.launched = fake_launched,
	.ended = fake_ended,
	.zone_notice = true,
	.spot_market = true,
};

/* Every entry of the rig buys the fake option. */
static const struct option_ops *fake_ops_of(const struct fleet_entry *e)
{
	(void)e;
	return &fake_ops;
}

/* On-demand entries buy the fake option, Spot entries the fake Spot, any other none (NULL: an entry that holds
 * no instances, fleet.h). */
static const struct option_ops *mixed_ops_of(const struct fleet_entry *e)
{
	return e->option == OPTION_ON_DEMAND ? &fake_ops : e->option == OPTION_SPOT ? &fake_spot_ops : NULL;
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

/* A rig on the scenario text (every entry buying what ops_of gives it), empty at t = 0. */
static struct rig *rig_of(const char *text, fleet_ops_of_fn *ops_of)
{
	struct rig *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	current = r;
	parse_ok(&r->sc, text, NULL, 0);
	engine_init(&r->eng);
	ck_assert_int_eq(meter_init(&r->meter, capture_sink(&r->cap), &r->d, r->sc.slo.latency_us,
				    r->sc.serving.gpus, r->sc.serving.slots, r->sc.horizon_us, 0,
				    r->sc.sample_period_us), STATUS_OK);
	ck_assert_int_eq(fleet_init(&r->f, &r->sc, &r->eng, &r->meter, ops_of), STATUS_OK);
	for (int u = 0; u < FLEET_USERS; u++) {
		r->ctx[u].r = r;
		r->ctx[u].user = u;
		fleet_set_user(&r->f, u, &(struct fleet_user){ .up = stub_up, .down = stub_down,
							       .reclaim = stub_reclaim, .ctx = &r->ctx[u] });
	}
	ck_assert_int_eq(fleet_start(&r->f, 0), STATUS_OK);
	return r;
}

static struct rig *rig_new(bool zone)
{
	return rig_of(rig_yaml(zone), fake_ops_of);
}

static char big_yaml[8192];

/* rig_yaml's scenario, starting at midnight UTC, with its own `zones` (may be "") and `fleet` list items. */
static const char *fleet_yaml(const char *zones, const char *items)
{
	int n = snprintf(big_yaml, sizeof big_yaml,
			 "name: fleet\nseed: 1\nstart: 2026-01-01T00:00:00Z\nhorizon: 10h\nslo: {latency_s: 10}\n"
			 "workload:\n  arrivals: {kind: poisson, rate_per_s: 1}\n  service: {kind: constant, mean_s: 1}\n"
			 "serving: {instance_type: p5.48xlarge, slots_per_instance: 1, startup_s: 600}\n"
			 "launch_retry: {backoff_s: 10, multiplier: 2, max_backoff_s: 600}\n"
			 "%sfleet:\n%s", zones, items);

	ck_assert_int_lt(n, (int)sizeof big_yaml);
	return big_yaml;
}

/* A full fleet: SCENARIO_FLEET_MAX (64) on-demand entries of max 1 each (the first of count 1). */
static const char *full_fleet_yaml(void)
{
	static char items[4096];
	int n = 0;

	for (int i = 0; i < SCENARIO_FLEET_MAX; i++)
		n += snprintf(items + n, sizeof items - (size_t)n, "  - {option: on_demand, count: %d, max: 1}\n", i == 0);
	ck_assert_int_lt(n, (int)sizeof items);
	return fleet_yaml("", items);
}

static void rig_free(struct rig *r)
{
	for (size_t i = 0; i < sizeof r->past_fleet; i++)  /* calloc'd, and no fleet function writes past f */
		ck_assert_msg(r->past_fleet[i] == 0, "byte %zu past the struct fleet was written", i);
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

START_TEST(init_fails_when_a_random_stream_cannot_be_had)
{
	/* fleet_init allocates each entry's two streams in fleet order: entry 0's "fleet.on_demand.0" (the 1st
	 * generator) and "startup.on_demand.0" (the 2nd), then entry 1's two (3rd, 4th); no zone, so no pool
	 * stream. With the k-th of them failing, k = 1 to 4, it returns STATUS_ENOMEM and holds nothing (every
	 * stream it made freed again); with the 5th asked to fail there is none: STATUS_OK, 4 allocated. */
	struct scenario sc;
	struct engine eng;
	struct meter meter;
	struct capture cap;
	struct diag d;
	static struct fleet f;

	memset(&cap, 0, sizeof cap);
	parse_ok(&sc, fleet_yaml("", "  - {option: on_demand, count: 1, max: 1}\n  - {option: on_demand, max: 2}\n"), NULL, 0);
	engine_init(&eng);
	ck_assert_int_eq(meter_init(&meter, capture_sink(&cap), &d, sc.slo.latency_us, sc.serving.gpus,
				    sc.serving.slots, sc.horizon_us, 0, sc.sample_period_us), STATUS_OK);
	for (int k = 1; k <= 5; k++) {
		memset(&f, 0xa5, sizeof f);  /* not zeroed: fleet_init must not free a pool it never made */
		rng_fail_at = k;
		int rc = fleet_init(&f, &sc, &eng, &meter, fake_ops_of);
		ck_assert_int_eq(rc, k <= 4 ? STATUS_ENOMEM : STATUS_OK);
		ck_assert_int_eq(rng_fail_at, k <= 4 ? 0 : 1);  /* 4 generators asked for */
		if (rc != STATUS_OK) {
			ck_assert_ptr_null(f.pool);
			for (int g = 0; g < (k <= 2 ? 1 : 2); g++) {  /* the groups it reached */
				ck_assert_ptr_null(f.group[g].rng);
				ck_assert_ptr_null(f.group[g].startup_rng);
			}
		} else {
			ck_assert_int_eq(fleet_capacity(&f), 3);
			fleet_fini(&f);
		}
	}
	rng_fail_at = 0;
	engine_fini(&eng);
	meter_fini(&meter);
	scenario_fini(&sc);
}
END_TEST

START_TEST(cancelled_launch_never_was_in_service)
{
	/* Slot 0 in service from 600 s (the meter's in_service 1). Desired 2 at 600 s launches slot 1 (ready
	 * at 1200 s); desired 1 at 700 s removes the launching one first: slot 1 is cancelled, ended early at
	 * 700 s, and never having served it leaves in_service at 1. Desired 0 at 800 s: slot 0, idle, drains and
	 * ends at once: in_service 0. */
	struct rig *r = rig_new(false);

	fleet_set_desired(&r->f, 1);
	run_to(r, 600);
	ck_assert_int_eq(r->meter.in_service, 1);
	fleet_set_desired(&r->f, 2);
	ck_assert_int_eq(r->f.pool[1].state, INSTANCE_LAUNCHING);
	run_to(r, 700);
	fleet_set_desired(&r->f, 1);
	ck_assert_int_eq(r->f.pool[1].state, INSTANCE_FREE);
	ck_assert_int_eq(nth(r, CALL_ENDED, 0)->idx, 1);
	ck_assert_int_eq(nth(r, CALL_ENDED, 0)->t_us, US(700));
	ck_assert_int_eq(r->meter.in_service, 1);
	run_to(r, 800);
	fleet_set_desired(&r->f, 0);
	ck_assert_int_eq(r->f.pool[0].state, INSTANCE_FREE);
	ck_assert_int_eq(r->meter.in_service, 0);
	rig_free(r);
}
END_TEST

START_TEST(notice_newest_looks_only_at_the_listed_groups)
{
	/* Entry 0 (slots 0 and 1) launched at 0 s, entry 1 (slots 2 and 3) at 100 s. At 200 s one notice to
	 * the newest of groups[0 .. 1) = {0} (the array goes on with group 1, which is not listed): slots 0 and 1
	 * tie at 0 s, the highest index wins: slot 1. Entry 1's slots, newer, are not looked at; one Spot
	 * interruption counted. */
	struct rig *r = rig_of(fleet_yaml("", "  - {option: on_demand, count: 1, max: 2}\n  - {option: on_demand, max: 2}\n"),
			       fake_ops_of);
	int groups[2] = { 0, 1 };

	fleet_set_desired(&r->f, 2);
	run_to(r, 100);
	fleet_set_desired(&r->f, 4);
	ck_assert_int_eq(r->f.pool[3].launch_us, US(100));
	run_to(r, 200);
	fleet_notice_newest(&r->f, groups, 1, 1, "test reclaim");
	for (int i = 0; i < 4; i++)
		ck_assert_msg(r->f.pool[i].noticed == (i == 1), "slot %d noticed: %d", i, r->f.pool[i].noticed);
	ck_assert_int_eq(r->f.pool[1].noticed_us, US(200));
	ck_assert_uint_eq(r->meter.spot_interruptions, 1);
	rig_free(r);
}
END_TEST

START_TEST(gang_launch_takes_the_free_slots)
{
	/* The entry (max 3) is the jobs': a gang of 1 at 0 s takes slot 0; a gang of 2 at 0 s the free slots 1
	 * and 2; a gang of 1 more finds 3 + 1 > max 3: false, nothing launched. Three launches; at 600 s all three
	 * come up for jobs. */
	struct rig *r = rig_new(false);
	int idx[2] = { -1, -1 };

	r->f.group[0].user = FLEET_USER_JOBS;
	ck_assert(fleet_launch_gang(&r->f, &r->f.group[0], 1, idx));
	ck_assert_int_eq(idx[0], 0);
	ck_assert_int_eq(r->f.pool[0].state, INSTANCE_LAUNCHING);
	idx[0] = idx[1] = -1;
	ck_assert(fleet_launch_gang(&r->f, &r->f.group[0], 2, idx));
	ck_assert_int_eq(idx[0], 1);
	ck_assert_int_eq(idx[1], 2);
	ck_assert(!fleet_launch_gang(&r->f, &r->f.group[0], 1, idx));
	ck_assert_uint_eq(r->meter.launches, 3);
	ck_assert_int_eq(r->f.group[0].live, 3);
	run_to(r, 600);
	ck_assert_int_eq(count(r, CALL_UP), 3);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(nth(r, CALL_UP, i)->user, FLEET_USER_JOBS);
	rig_free(r);
}
END_TEST

START_TEST(scale_in_leaves_the_jobs_instances_alone)
{
	/* Entry 1 (slot 2) is the jobs': a gang of 1 takes slot 2 at 0 s. Serving asks for 2: slots 0 and 1
	 * launch. Desired 1: serving's scale-in looks at serving's entries only; entry 0's newest launching
	 * instance (0 and 1 tie at 0 s: the higher, slot 1) is cancelled. The jobs' slot 2 still launching;
	 * serving has 1 live. */
	struct rig *r = rig_of(fleet_yaml("", "  - {option: on_demand, count: 1, max: 2}\n  - {option: on_demand, max: 1}\n"),
			       fake_ops_of);
	int idx[1];

	r->f.group[1].user = FLEET_USER_JOBS;
	ck_assert(fleet_launch_gang(&r->f, &r->f.group[1], 1, idx));
	ck_assert_int_eq(idx[0], 2);
	ck_assert_int_eq(fleet_set_desired(&r->f, 2), 2);
	ck_assert_int_eq(fleet_live(&r->f), 2);
	ck_assert_int_eq(fleet_set_desired(&r->f, 1), 1);
	ck_assert_int_eq(r->f.pool[0].state, INSTANCE_LAUNCHING);
	ck_assert_int_eq(r->f.pool[1].state, INSTANCE_FREE);
	ck_assert_int_eq(r->f.pool[2].state, INSTANCE_LAUNCHING);
	ck_assert_int_eq(fleet_live(&r->f), 1);
	ck_assert_int_eq(fleet_live_of(&r->f, FLEET_USER_JOBS), 1);
	rig_free(r);
}
END_TEST

START_TEST(available_is_none_for_an_entry_without_an_option)
{
	/* Entry 1 buys nothing the fleet runs (mixed_ops_of gives the reserved entry no ops: an entry that holds
	 * no instances, fleet.h): no slots, nothing available, no time known at which that changes (INT64_MAX).
	 * Entry 0 beside it: its 2 slots. */
	struct rig *r = rig_of(fleet_yaml("", "  - {option: on_demand, max: 2}\n"
					  "  - {option: reserved, count: 2, term: 1y, payment: all_upfront, scope: zonal}\n"),
			       mixed_ops_of);
	int64_t next = 0;

	ck_assert_ptr_null(r->f.group[1].ops);
	ck_assert_int_eq(fleet_available(&r->f, 1, &next), 0);
	ck_assert_int_eq(next, INT64_MAX);
	ck_assert_int_eq(fleet_available(&r->f, 0, &next), 2);
	ck_assert_int_eq(fleet_capacity(&r->f), 2);
	rig_free(r);
}
END_TEST

START_TEST(streams_are_named_by_kind_and_place)
{
	/* Entries: on_demand, spot, on_demand, on_demand in zone z1. Each is the k-th (from 0) of its kind in
	 * its zone: "fleet.on_demand.0", "fleet.spot.0", "fleet.on_demand.1" (the spot between does not count),
	 * and in z1 "fleet.on_demand.z1.0" (the others are in no zone); its startup stream likewise. */
	struct rig *r = rig_of(fleet_yaml("zones:\n  - {name: z1}\n",
					  "  - {option: on_demand, count: 1, max: 1}\n  - {option: spot, max: 1}\n"
					  "  - {option: on_demand, max: 1}\n  - {option: on_demand, max: 1, zone: z1}\n"),
			       mixed_ops_of);
	const char *want[] = { "fleet.on_demand.0", "fleet.spot.0", "fleet.on_demand.1", "fleet.on_demand.z1.0" };
	char name[128];

	for (int g = 0; g < 4; g++) {
		fleet_zone_stream_name(&r->f, g, "fleet", name, sizeof name);
		ck_assert_str_eq(name, want[g]);
	}
	fleet_zone_stream_name(&r->f, 2, "startup", name, sizeof name);
	ck_assert_str_eq(name, "startup.on_demand.1");
	rig_free(r);
}
END_TEST

START_TEST(zone_back_comes_at_the_horizon_too)
{
	/* Zone z1 out from 9 h to 10 h, the horizon: events are scheduled unless past the horizon, so the
	 * outage's end at exactly 10 h (36000 s) still comes: the entry's zone_back hook runs then, once. */
	struct rig *r = rig_of(fleet_yaml("zones:\n  - {name: z1, outages: [{start: 9h, end: 10h}]}\n",
					  "  - {option: on_demand, count: 1, max: 1, zone: z1}\n"),
			       fake_ops_of);

	run_to(r, 35999.999999);
	ck_assert_int_eq(count(r, CALL_BACK), 0);
	run_to(r, 36000);
	ck_assert_int_eq(count(r, CALL_BACK), 1);
	ck_assert_int_eq(nth(r, CALL_BACK, 0)->idx, 0);
	ck_assert_int_eq(nth(r, CALL_BACK, 0)->t_us, US(36000));
	rig_free(r);
}
END_TEST

START_TEST(pool_reclaim_takes_its_share_of_the_pool_alone)
{
	/*
	 * Zone z1's Spot pool (serving type): entry 0, Spot, slots 0 and 1, reclaims 24 a day (a mean gap of
	 * 3600 s), reclaim_fraction 0.5, outages of mean 600 s; entry 1, on-demand in z1, slots 2 and 3, not in
	 * the pool. All four launched at 0 s. The pool's stream "spot_pool.z1" (seed 1) draws, in turn: the gap
	 * to the first reclaim t1 (exponential, mean 3600 s, rounded down to the microsecond), at t1 the pool's
	 * outage (mean 600 s), then the gap to the next reclaim. At t1: running in the pool 2 (the on-demand
	 * pair is not the pool's), so ceil(0.5 x 2) = 1 notice, to the newest (a tie at 0 s: the higher,
	 * slot 1); Spot entry's pool out until t1 + the outage; the on-demand entry untouched (INT64_MIN).
	 */
	struct rig *r = rig_of(fleet_yaml("zones:\n  - {name: z1}\n",
					  "  - {option: spot, count: 1, max: 2, zone: z1, reclaims_per_day: 24, reclaim_fraction: 0.5,"
					  " outage_mean_s: 600}\n  - {option: on_demand, max: 2, zone: z1}\n"),
			       mixed_ops_of);
	gsl_rng *pool = rng_new(1, "spot_pool.z1");
	const struct event *reclaim = &r->f.zone[0].pool[0].reclaim;
	int64_t t1, until, t2;

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(convert_after_us(0, rng_exponential(pool, 3600e6), &t1), STATUS_OK);
	ck_assert_int_eq(convert_after_us(t1, rng_exponential(pool, 600e6), &until), STATUS_OK);
	ck_assert_int_eq(convert_after_us(t1, rng_exponential(pool, 3600e6), &t2), STATUS_OK);
	gsl_rng_free(pool);
	ck_assert_int_lt(t1, r->sc.horizon_us);  /* (the seed gives a first reclaim inside the run) */
	ck_assert(evq_queued(reclaim));
	ck_assert_int_eq(reclaim->t_us, t1);
	fleet_set_desired(&r->f, 4);
	ck_assert_int_eq(fleet_live(&r->f), 4);
	engine_run(&r->eng, t1);
	for (int i = 0; i < 4; i++)
		ck_assert_msg(r->f.pool[i].noticed == (i == 1), "slot %d noticed: %d", i, r->f.pool[i].noticed);
	ck_assert_uint_eq(r->meter.spot_interruptions, 1);
	ck_assert_int_eq(r->f.group[0].outage_until_us, until);
	ck_assert_int_eq(r->f.group[1].outage_until_us, INT64_MIN);
	if (t2 <= r->sc.horizon_us) {
		ck_assert(evq_queued(reclaim));
		ck_assert_int_eq(reclaim->t_us, t2);
	}
	rig_free(r);
}
END_TEST

START_TEST(ice_outage_windows_to_the_sixteenth)
{
	/* The entry's 16 ice_outages (the most an entry may have): 1 minute each at 10-minute steps, [k x 600 s,
	 * k x 600 + 60 s) for k = 0 .. 15. fleet_check_capacity (no quota, no chance of an error) refuses inside
	 * a window and lets a launch go outside: at 0 s refused (the first window), at 60 s (its end) allowed,
	 * at 5 min allowed, at 9000 s (the 16th window's start) refused, at 9059.999999 s refused, at 9060 s (its
	 * end) allowed. */
	char items[2048];
	int n = snprintf(items, sizeof items, "  - {option: on_demand, count: 1, max: 1, ice_outages: [");
	for (int k = 0; k < SCENARIO_OUTAGES_MAX; k++)
		n += snprintf(items + n, sizeof items - (size_t)n, "%s{start: %ds, end: %ds}", k ? ", " : "", k * 600,
			      k * 600 + 60);
	snprintf(items + n, sizeof items - (size_t)n, "]}\n");
	struct rig *r = rig_of(fleet_yaml("", items), fake_ops_of);
	const struct { double t_s; int rc; } at[] = {
		{ 0, STATUS_EINPUT }, { 60, STATUS_OK }, { 300, STATUS_OK }, { 9000, STATUS_EINPUT },
		{ 9059.999999, STATUS_EINPUT }, { 9060, STATUS_OK },
	};
	char why[160];

	ck_assert_int_eq(r->sc.fleet[0].noutages, SCENARIO_OUTAGES_MAX);
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
		run_to(r, at[i].t_s);
		why[0] = '\0';
		ck_assert_msg(fleet_check_capacity(&r->f, &r->f.group[0], 1, -1, -1, "On-Demand", why, sizeof why) ==
			      at[i].rc, "at %.6f s: %s", at[i].t_s, why);
		if (at[i].rc != STATUS_OK)
			ck_assert_str_eq(why, "InsufficientInstanceCapacity (outage window)");
	}
	rig_free(r);
}
END_TEST

START_TEST(full_fleet_refuses_then_launches_and_counts_its_quota)
{
	/*
	 * A full fleet: 64 on-demand entries of max 1 (p5.48xlarge, 192 vCPUs). Desired 100 is clamped to the
	 * serving capacity, 64. The option refuses the first 64 launches: each entry is tried once at 0 s and
	 * fails (64 failures, each backed off 10 s), nothing live; the billing rate is 0 (the fake bills
	 * nothing). At 10 s every entry is retried and launches: 64 live. The account quota then counts all 64
	 * running: one more is refused by an instance quota of 64 (64 + 1 > 64), allowed by 65; refused by a
	 * vCPU quota of 64 x 192 = 12288 (12288 + 192 > 12288), allowed by 12480.
	 */
	struct rig *r = rig_of(full_fleet_yaml(), fake_ops_of);
	struct fleet_group *g0 = &r->f.group[0];
	char why[160];

	ck_assert_int_eq(r->f.ngroups, SCENARIO_FLEET_MAX);
	ck_assert_int_eq(r->sc.types[0].vcpus, 192);
	r->refusals = 64;
	ck_assert_int_eq(fleet_set_desired(&r->f, 100), 64);
	ck_assert_int_eq(r->asked, 64);
	ck_assert_uint_eq(r->meter.launch_failures, 64);
	ck_assert_int_eq(r->f.group[63].retry_us, US(10));
	ck_assert_int_eq(fleet_live(&r->f), 0);
	ck_assert_double_eq(fleet_cost_rate(&r->f, 0), 0);
	run_to(r, 10);
	ck_assert_int_eq(fleet_live(&r->f), 64);
	ck_assert_uint_eq(r->meter.launches, 64);
	ck_assert_int_eq(fleet_check_quota(&r->f, g0, 1, -1, 64, "On-Demand", why, sizeof why), STATUS_EINPUT);
	ck_assert_str_eq(why, "quota: 64 On-Demand instances");
	ck_assert_int_eq(fleet_check_quota(&r->f, g0, 1, -1, 65, "On-Demand", why, sizeof why), STATUS_OK);
	ck_assert_int_eq(fleet_check_quota(&r->f, g0, 1, 12288, -1, "On-Demand", why, sizeof why), STATUS_EINPUT);
	ck_assert_int_eq(fleet_check_quota(&r->f, g0, 1, 12480, -1, "On-Demand", why, sizeof why), STATUS_OK);
	ck_assert_double_eq(fleet_cost_rate(&r->f, US(10)), 0);
	rig_free(r);
}
END_TEST

START_TEST(every_zone_a_scenario_may_have)
{
	/* The most zones a scenario may have (8), the entry in the last, z8, out from 1 h to 2 h: slot 0,
	 * serving from 600 s, is lost at 3600 s (reclaimed, ended early then) and z8's end at 7200 s comes to
	 * its option (zone_back). Nothing past the struct fleet is written (rig_free). */
	char zones[1024];
	int n = snprintf(zones, sizeof zones, "zones:\n");
	for (int z = 1; z <= SCENARIO_ZONES_MAX; z++)
		n += snprintf(zones + n, sizeof zones - (size_t)n, "  - {name: z%d%s}\n", z,
			      z == SCENARIO_ZONES_MAX ? ", outages: [{start: 1h, end: 2h}]" : "");
	struct rig *r = rig_of(fleet_yaml(zones, "  - {option: on_demand, count: 1, max: 1, zone: z8}\n"), fake_ops_of);

	ck_assert_int_eq(r->sc.nzones, SCENARIO_ZONES_MAX);
	fleet_set_desired(&r->f, 1);
	run_to(r, 3600);
	ck_assert_int_eq(nth(r, CALL_RECLAIM, 0)->idx, 0);
	ck_assert_int_eq(nth(r, CALL_RECLAIM, 0)->t_us, US(3600));
	ck_assert_int_eq(nth(r, CALL_ENDED, 0)->t_us, US(3600));
	run_to(r, 7200);
	ck_assert_int_eq(nth(r, CALL_BACK, 0)->t_us, US(7200));
	rig_free(r);
}
END_TEST

START_TEST(shared_block_prewarms_serving_before_the_jobs_take_it)
{
	/*
	 * Entry 0 a Capacity Block shared by time of day (count 1, its window from the day before to long past
	 * the run; the fake option: the fleet launches into it),
	 * serving's from 00:00 to 06:00 UTC, the run starting at midnight; entry 1 on-demand. Desired 1: the
	 * block's slot 0 launches at 0 s. The change to jobs comes at 06:00 (21600 s); serving's startup
	 * (600 s) before it, at 21000 s, serving asks for the block's 1 live instance again elsewhere: slot 1
	 * launches then, ready at 21600 s. At 21600 s the block goes to the jobs (slot 0, idle, comes up for
	 * them at once) and the desired capacity falls back by that 1: slot 1 is up for serving at 21600 s,
	 * as the block leaves. The next change (24:00) is past the 10 h horizon.
	 */
	struct rig *r = rig_of(fleet_yaml("", "  - {option: capacity_block, start: 2025-12-31T11:30:00Z, duration: 3d,"
					  " count: 1, use: shared, serving_hours: \"00:00-06:00\"}\n"
					  "  - {option: on_demand, max: 2}\n"),
			       fake_ops_of);

	ck_assert_int_eq(r->f.group[0].user, FLEET_USER_SERVING);
	ck_assert_int_eq(r->f.group[0].share.t_us, US(21600));
	fleet_set_desired(&r->f, 1);
	ck_assert_int_eq(nth(r, CALL_LAUNCHED, 0)->idx, 0);
	run_to(r, 20999.999999);
	ck_assert_int_eq(count(r, CALL_LAUNCHED), 1);
	run_to(r, 21000);
	ck_assert_int_eq(count(r, CALL_LAUNCHED), 2);
	ck_assert_int_eq(nth(r, CALL_LAUNCHED, 1)->idx, 1);
	ck_assert_int_eq(nth(r, CALL_LAUNCHED, 1)->t_us, US(21000));
	run_to(r, 21600);
	ck_assert_int_eq(r->f.group[0].user, FLEET_USER_JOBS);
	ck_assert_int_eq(r->f.pool[0].user, FLEET_USER_JOBS);
	ck_assert_int_eq(nth(r, CALL_UP, 1)->idx, 0);
	ck_assert_int_eq(nth(r, CALL_UP, 1)->user, FLEET_USER_JOBS);
	ck_assert_int_eq(nth(r, CALL_UP, 2)->idx, 1);
	ck_assert_int_eq(nth(r, CALL_UP, 2)->user, FLEET_USER_SERVING);
	ck_assert_int_eq(nth(r, CALL_UP, 2)->t_us, US(21600));
	ck_assert_int_eq(r->f.desired, 1);
	ck_assert_int_eq(count(r, CALL_LAUNCHED), 2);
	ck_assert(!evq_queued(&r->f.group[0].share));
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
	test_add(tc, init_fails_when_a_random_stream_cannot_be_had);
	test_add(tc, cancelled_launch_never_was_in_service);
	test_add(tc, notice_newest_looks_only_at_the_listed_groups);
	test_add(tc, gang_launch_takes_the_free_slots);
	test_add(tc, scale_in_leaves_the_jobs_instances_alone);
	test_add(tc, available_is_none_for_an_entry_without_an_option);
	test_add(tc, streams_are_named_by_kind_and_place);
	test_add(tc, zone_back_comes_at_the_horizon_too);
	test_add(tc, pool_reclaim_takes_its_share_of_the_pool_alone);
	test_add(tc, ice_outage_windows_to_the_sixteenth);
	test_add(tc, full_fleet_refuses_then_launches_and_counts_its_quota);
	test_add(tc, every_zone_a_scenario_may_have);
	test_add(tc, shared_block_prewarms_serving_before_the_jobs_take_it);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
