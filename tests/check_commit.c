/*
 * check_commit: commitments (the top-level `commitments` list: regional reserved instances and Savings
 * Plans) are billing, not capacity. Buying one changes the bill and nothing else: the same requests,
 * latencies, instances and GPU-hours; and the bill's difference is the hand computation over the run's
 * clock hours (each RI charged count x rate for every hour of its term in the window, covering up to count
 * instance-hours of that hour's usage, the rest lost; a plan then covering what the RIs left).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "savings.h"
#include "scenario.h"
#include "sink.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

#define OD 55.04                  /* p5.48xlarge On-Demand, USD per hour (the catalogue) */
#define RI_RATE (OD * (1 - 0.35)) /* 1-year no-upfront reserved: the catalogue's 35% off */

/*
 * A diurnal chat load on an autoscaled on-demand fleet of 1 to 6 instances, over 30 hours from 06:30 UTC (so
 * the first and last clock hours are partial), and the commitments given. The fleet's usage goes up and
 * down through the day, so an RI of 3 is used in full at the peak and partly at night.
 */
static char yaml[4096];
static const char *scenario(const char *commitments)
{
	snprintf(yaml, sizeof yaml,
		 "name: commit\nseed: 9\nstart: 2026-03-01T06:30:00Z\nhorizon: 30h\nslo: {latency_s: 20}\n"
		 "workload:\n  arrivals: {kind: diurnal, rate_per_s: 1.2, amplitude: 0.8, peak_hour: 15}\n"
		 "  service: {kind: lognormal, mean_s: 6, cv: 0.6}\n"
		 "serving: {instance_type: p5.48xlarge, slots_per_instance: 8, queue_timeout_s: 60, startup_s: 5m}\n"
		 "fleet:\n  - {option: on_demand, count: 1, max: 6}\n"
		 "autoscaling: {policy: target_tracking, target: 0.6, min: 1, max: 6, scale_in_cooldown_s: 600}\n"
		 "%s", commitments);
	return yaml;
}

struct run {
	struct world_report rep;
	struct savings_hour *hours;
	int nhours;
};

static void run(struct run *r, const char *commitments)
{
	struct scenario sc;
	struct diag d = { "" };
	struct sink sink = sink_null;

	memset(r, 0, sizeof *r);
	ck_assert_msg(scenario_parse_string(&sc, scenario(commitments), "commit.yaml", NULL, 0, &d) == STATUS_OK,
		      "%s", d.msg);
	ck_assert_msg(world_run_usage(&sc, &sink, "test", &r->rep, &r->hours, &r->nhours, &d) == STATUS_OK, "%s",
		      d.msg);
	scenario_fini(&sc);
}

static double M(const struct run *r, const char *name)
{
	double v = world_report_get(&r->rep, name);
	ck_assert_msg(!isnan(v) || strstr(name, "utilization"), "no metric %s", name);
	return v;
}

/* What the run did, apart from its bill: these must not move when only commitments change. */
static const char *const same[] = { "requests_served", "requests_dropped", "latency_mean_s", "latency_p50_s",
	"latency_p99_s", "latency_max_s", "slo_violation_rate", "instances_peak", "gpu_hours_paid",
	"gpu_hours_busy", "gpu_hours_idle", "gpu_hours_paid_on_demand", NULL };

static void assert_same_service(const struct run *a, const struct run *b)
{
	for (int i = 0; same[i]; i++) {
		double x = M(a, same[i]), y = M(b, same[i]);
		ck_assert_msg(x == y || (isnan(x) && isnan(y)), "%s moved: %.17g -> %.17g", same[i], x, y);
	}
	ck_assert_int_eq(a->nhours, b->nhours);
}

/* The RI's hour, by hand: count x rate x the part of the hour in [t0, t1), less the On-Demand dollars of
 * the instance-hours it covers (at most count x that part). */
static double ri_hour(const struct savings_hour *u, double count, double t0_h, double t1_h, double *left_usd)
{
	double lo = fmax(u->t0_h, t0_h), hi = fmin(u->t0_h + u->len_h, t1_h), in = hi - lo, cover;

	if (in <= 0)
		return 0;
	cover = fmin(count * in, *left_usd / OD) * OD;
	*left_usd -= cover;
	return count * RI_RATE * in - cover;
}

static struct run none, with_ri, both;

static void teardown(void)
{
	free(none.hours);
	free(with_ri.hours);
	free(both.hours);
	memset(&none, 0, sizeof none);
	memset(&with_ri, 0, sizeof with_ri);
	memset(&both, 0, sizeof both);
}

/* 3 regional RIs for the whole window: only the bill moves, by the hand computation hour by hour. */
START_TEST(reserved_changes_only_the_bill)
{
	double want = 0, lost = 0, covered_h = 0;

	run(&none, "");
	run(&with_ri, "commitments:\n  - {option: reserved, count: 3, term: 1y}\n");
	assert_same_service(&none, &with_ri);
	for (int h = 0; h < none.nhours; h++) {
		double left = none.hours[h].usd[SAVINGS_ON_DEMAND], before = left, d;
		d = ri_hour(&none.hours[h], 3, 0, 8760, &left);
		want += d;
		/* the usage handed back is what the RIs left for the plans */
		ck_assert_double_eq_tol(with_ri.hours[h].usd[SAVINGS_ON_DEMAND], left, 1e-9);
		covered_h += (before - left) / OD;
		lost += 3 * none.hours[h].len_h - (before - left) / OD;
	}
	ck_assert_msg(lost > 1 && covered_h > 1, "the profile must both use and lose RI hours (%g, %g)", lost,
		      covered_h);
	ck_assert_double_eq_tol(M(&with_ri, "cost_total_usd") - M(&none, "cost_total_usd"), want, 1e-6);
	ck_assert_double_eq_tol(M(&with_ri, "cost_reserved_usd"), 3 * RI_RATE * 30, 1e-6);
	ck_assert_double_eq_tol(M(&with_ri, "commitment_utilization"), 1 - lost / (3 * 30), 1e-9);
	/* the term still owes the rest of its year */
	ck_assert_double_eq_tol(M(&with_ri, "commitment_after_horizon_usd"), 3 * RI_RATE * (8760 - 30), 1e-4);
	/* a commitment bigger than the fleet's ceiling raises nothing */
	free(with_ri.hours);
	run(&with_ri, "commitments:\n  - {option: reserved, count: 12, term: 1y}\n");
	assert_same_service(&none, &with_ri);
	ck_assert_double_eq(M(&with_ri, "instances_peak"), M(&none, "instances_peak"));
	ck_assert(M(&none, "instances_peak") <= 6);
}
END_TEST

/*
 * Turning a commitment off in a what-if: a Savings Plan of $0/h and a reserved count of 0 are "none",
 * accepted, and bill exactly what no commitment bills (to the cent: the same dollars), with nothing
 * committed or left unused.
 */
START_TEST(zero_commitment_is_none)
{
	run(&none, "");
	run(&both, "commitments:\n  - {option: savings_plan, commit_usd_per_h: 0, term: 1y}\n"
	    "  - {option: reserved, count: 0, term: 1y}\n");
	assert_same_service(&none, &both);
	ck_assert_double_eq(M(&both, "cost_total_usd"), M(&none, "cost_total_usd"));
	ck_assert_double_eq(M(&both, "cost_savings_plan_usd"), 0);
	ck_assert_double_eq(M(&both, "commitment_usd"), 0);
	ck_assert_double_eq(M(&both, "commitment_unused_usd"), 0);
	ck_assert_double_eq(M(&both, "commitment_after_horizon_usd"), 0);
}
END_TEST

/*
 * An RI whose term begins mid-window at 20:45 UTC (inside a clock hour), then a Savings Plan of $40/h at
 * 30% off over what the RI left (RIs first, whatever the list's order): the difference is the hand
 * computation, the plan covering min(left, 40 x len / 0.7) of each hour's usage at 0.7 per dollar.
 */
START_TEST(reserved_then_plan_by_hand)
{
	double t0 = 14.25, want = 0;  /* 06:30 + 14.25 h = 20:45 UTC */

	run(&none, "");
	run(&both, "commitments:\n  - {option: savings_plan, commit_usd_per_h: 40, discount: 0.3}\n"
		   "  - {option: reserved, count: 2, term: 1y, term_start: 2026-03-01T20:45:00Z}\n");
	assert_same_service(&none, &both);
	for (int h = 0; h < none.nhours; h++) {
		const struct savings_hour *u = &none.hours[h];
		double left = u->usd[SAVINGS_ON_DEMAND], c = 40 * u->len_h;
		want += ri_hour(u, 2, t0, t0 + 8760, &left);
		want += c - fmin(left, c / 0.7);
	}
	ck_assert_double_eq_tol(M(&both, "cost_total_usd") - M(&none, "cost_total_usd"), want, 1e-6);
	ck_assert_double_eq_tol(M(&both, "cost_reserved_usd"), 2 * RI_RATE * (30 - t0), 1e-6);
	ck_assert_double_eq_tol(M(&both, "cost_savings_plan_usd"), 40 * 30, 1e-6);
}
END_TEST

/* settle_ri's rule on one hour, by hand: 4 instances x 15 min = 1 instance-hour, all of it covered by 1 RI
 * (the EC2 User Guide's example); 1 RI and 4 instances for the whole hour: 1 covered, 3 On-Demand. */
START_TEST(one_hour_examples)
{
	struct savings_ri_terms ri = { .type = 0, .count = 1, .od_usd_per_h = 1, .usd_per_h = 0.6,
				       .billed_usd_per_h = 0.6, .t0_h = 0, .t1_h = 8760 };
	struct savings_hour u = { .t0_h = 5, .len_h = 1, .usd = { 1.0 } };
	struct savings_result r;

	savings_settle_all(&u, 1, &ri, 1, NULL, 0, &r);
	ck_assert_double_eq_tol(r.ri_covered_usd[SAVINGS_ON_DEMAND], 1, 1e-12);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 0, 1e-12);
	ck_assert_double_eq_tol(r.ri_commit_usd, 0.6, 1e-12);
	ck_assert_double_eq_tol(r.ri_unused_usd, 0, 1e-12);
	u.usd[SAVINGS_ON_DEMAND] = 4;
	savings_settle_all(&u, 1, &ri, 1, NULL, 0, &r);
	ck_assert_double_eq_tol(r.ri_covered_usd[SAVINGS_ON_DEMAND], 1, 1e-12);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 3, 1e-12);
	/* half an hour of usage: half the RI's hour is lost */
	u.usd[SAVINGS_ON_DEMAND] = 0.5;
	savings_settle_all(&u, 1, &ri, 1, NULL, 0, &r);
	ck_assert_double_eq_tol(r.ri_unused_usd, 0.3, 1e-12);
	/* outside the term: no charge, no cover */
	ri.t0_h = 6;
	savings_settle_all(&u, 1, &ri, 1, NULL, 0, &r);
	ck_assert_double_eq(r.ri_commit_usd, 0);
	ck_assert_double_eq_tol(r.excess_usd[SAVINGS_ON_DEMAND], 0.5, 1e-12);
	/* used ODCR capacity after on-demand usage, then unused (regional RIs apply to capacity reservations) */
	ri.t0_h = 0;
	ri.count = 2;
	u = (struct savings_hour){ .t0_h = 5, .len_h = 1, .usd = { 0.5, 1.0, 1.0 } };
	savings_settle_all(&u, 1, &ri, 1, NULL, 0, &r);
	ck_assert_double_eq_tol(r.ri_covered_usd[SAVINGS_ON_DEMAND], 0.5, 1e-12);
	ck_assert_double_eq_tol(r.ri_covered_usd[SAVINGS_ODCR_USED], 1.0, 1e-12);
	ck_assert_double_eq_tol(r.ri_covered_usd[SAVINGS_ODCR_UNUSED], 0.5, 1e-12);
}
END_TEST

static Suite *commit_suite(void)
{
	Suite *s = suite_create("commit");
	TCase *tc = tcase_create("commit");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, reserved_changes_only_the_bill);
	tcase_add_test(tc, zero_commitment_is_none);
	tcase_add_test(tc, reserved_then_plan_by_hand);
	tcase_add_test(tc, one_hour_examples);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(commit_suite());
}
