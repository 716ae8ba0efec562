/*
 * check_fluid: mode: fluid (models/run/fluid.h), by hand-worked cases and against the request-level mode.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "fluid.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

/* Erlang C, c = 2, a = 1: B(1) = 1/2, B(2) = (1 x 1/2) / (2 + 1/2) = 1/5; C = B / (1 - rho (1 - B)) =
 * 0.2 / (1 - 0.5 x 0.8) = 1/3. c = 1, a = 0.5: C = rho = 0.5. */
START_TEST(erlang_c_small)
{
	ck_assert_double_eq_tol(fluid_erlang_c(2, 1.0, -1, NULL), 1.0 / 3.0, 1e-12);
	ck_assert_double_eq_tol(fluid_erlang_c(1, 0.5, -1, NULL), 0.5, 1e-12);
	ck_assert_double_eq(fluid_erlang_c(2, 2.5, -1, NULL), 1.0);
}
END_TEST

/*
 * V(m) = P(W + S > slo | W <= tau) (fluid_wait.c) against closed forms, integrated and tabulated. W is
 * exponential with rate th = 1/m, S exponential with rate mu = 1/E[S], t = slo:
 *   no timeout:  P(W + S > t) = (th e^(-mu t) - mu e^(-th t)) / (th - mu)
 *   tau <= t:    th e^(-mu t) (1 - e^(-(th - mu) tau)) / (th - mu) / (1 - e^(-th tau))
 *   tau > t:     [th e^(-mu t) (1 - e^(-(th - mu) t)) / (th - mu) + e^(-th t) - e^(-th tau)] / (1 - e^(-th tau))
 * M/M/100 at lambda 95, E[S] 1 s, slo 2 s: m = 1 / (100 - 95) = 0.2 s, V = (5 e^-2 - e^-10) / 4 = 0.169159.
 * Constant S = s0: V = e^(-(t - s0) / m). Lognormal: against the integral over w written out here (the
 * trapezoid rule on 200,000 steps of the density, a different variable from fluid_wait.c's).
 */
static double v_exp(double m, double es, double t, double tau)
{
	double th = 1 / m, mu = 1 / es, keep = tau > 0 ? 1 - exp(-th * tau) : 1, u = tau > 0 && tau < t ? tau : t;
	double part = th * exp(-mu * t) * (1 - exp(-(th - mu) * u)) / (th - mu);

	if (!(tau > 0) || tau > t)
		part += exp(-th * t) - (tau > 0 ? exp(-th * tau) : 0);
	return part / keep;
}

static double v_lognormal_by_w(const struct fluid_model *md, double m)
{
	const int n = 200000;
	double top = md->timeout_s > 0 ? md->timeout_s : 50 * m + md->slo_s, h = top / n, sum = 0;

	for (int i = 0; i <= n; i++) {
		double w = i * h, f = exp(-w / m) / m * fluid_service_sf(md, md->slo_s - w);
		sum += f * (i == 0 || i == n ? 0.5 : 1);
	}
	return sum * h / (md->timeout_s > 0 ? -expm1(-md->timeout_s / m) : 1);
}

START_TEST(wait_violation_exact)
{
	static double tab[FLUID_VTAB_N];
	struct fluid_model md = { .kind = SERVICE_EXPONENTIAL, .mean_s = 1.0, .slo_s = 2.0, .max_queue = 1e9 };
	const double ms[] = { 0.2, 0.013, 0.9, 3.7, 40 }, taus[] = { 0, 0.5, 1.5, 5 };

	ck_assert_double_eq_tol(fluid_wait_violation(&md, 0.2), (5 * exp(-2) - exp(-10)) / 4, 1e-7);
	for (int k = 0; k < 4; k++) {
		md.timeout_s = taus[k];
		md.vtab = NULL;
		for (int i = 0; i < 5; i++) {
			double want = v_exp(ms[i], 1.0, 2.0, taus[k]), got = fluid_wait_violation(&md, ms[i]);
			ck_assert_msg(fabs(got - want) <= 1e-7, "integrated: m %g tau %g: %.9f, want %.9f", ms[i],
				      taus[k], got, want);
		}
		fluid_wait_tabulate(&md, tab);
		for (int i = 0; i < 5; i++) {
			double want = v_exp(ms[i], 1.0, 2.0, taus[k]), got = fluid_wait_violation(&md, ms[i]);
			ck_assert_msg(fabs(got - want) <= 2e-4 * want, "tabulated: m %g tau %g: %.9f, want %.9f", ms[i],
				      taus[k], got, want);
		}
	}
	md = (struct fluid_model){ .kind = SERVICE_CONSTANT, .mean_s = 1.5, .slo_s = 2.0, .max_queue = 1e9 };
	ck_assert_double_eq_tol(fluid_wait_violation(&md, 0.2), exp(-0.5 / 0.2), 1e-12);
	md = (struct fluid_model){ .kind = SERVICE_LOGNORMAL, .mean_s = 6.0, .cv = 0.6, .slo_s = 40.0,
		.timeout_s = 60.0, .max_queue = 1e9 };
	for (int i = 0; i < 5; i++) {
		double m = ms[i] * 10, want = v_lognormal_by_w(&md, m), got;
		md.vtab = NULL;
		got = fluid_wait_violation(&md, m);
		ck_assert_msg(fabs(got - want) <= 1e-6 + 1e-5 * want, "lognormal m %g: %.9f, want %.9f", m, got, want);
		fluid_wait_tabulate(&md, tab);
		got = fluid_wait_violation(&md, m);
		ck_assert_msg(fabs(got - want) <= 2e-4 * want, "lognormal tabulated m %g: %.9f, want %.9f", m, got, want);
	}
}
END_TEST

/*
 * A stationary period of M/M/100 at lambda 95, E[S] = 1 s, slo 2 s, no timeout: the violation share is
 * (1 - C) e^-2 + C V with C = Erlang C(100, 95) and V = 0.169159 (above); about 0.15248.
 */
START_TEST(mmc_period_violations)
{
	struct fluid_model md = { .kind = SERVICE_EXPONENTIAL, .mean_s = 1.0, .slo_s = 2.0, .max_queue = 1e9 };
	struct fluid_in in = { .period_s = 60, .arrivals = 95 * 60, .servers = 100, .backlog = 0 };
	struct fluid_out out = { 0 };
	double c = fluid_erlang_c(100, 95, -1, NULL), want = (1 - c) * exp(-2) + c * (5 * exp(-2) - exp(-10)) / 4;

	fluid_period(&md, 1, &in, &out);
	ck_assert_msg(fabs(out.violations / in.arrivals - want) <= 1e-6, "violation share %.7f, want %.7f (C = %.5f)",
		      out.violations / in.arrivals, want, c);
}
END_TEST

/* Overload: lambda = 2/s on c = 1 slot with E[S] = 1 s for T = 60 s, no timeout, no backlog: the queue
 * grows at 2 - 1 = 1/s, so 60 served (1/s x 60 s), 60 left waiting, queue integral 0.5 x 60 x 60 = 1800
 * request-s, busy 60 slot-s, and the served wait the mean queue / service rate = 30 / 1 = 30 s. */
START_TEST(overloaded_backlog)
{
	struct fluid_model md = { .kind = SERVICE_EXPONENTIAL, .mean_s = 1, .slo_s = 10, .max_queue = 1e6,
				  .realtime = true };
	struct fluid_in in = { .period_s = 60, .arrivals = 120, .servers = 1, .backlog = 0 };
	struct fluid_out o;

	fluid_period(&md, 1, &in, &o);
	ck_assert_double_eq_tol(o.served, 60, 1e-9);
	ck_assert_double_eq_tol(o.backlog, 60, 1e-9);
	ck_assert_double_eq_tol(o.queued_s, 1800, 1e-9);
	ck_assert_double_eq_tol(o.busy_slot_s, 60, 1e-9);
	ck_assert_double_eq_tol(o.wait_mean_s, 30, 1e-9);
	/* the next period at lambda = 0.5: the 60 drain at 1 - 0.5 = 0.5/s, in 120 s > 60 s: 30 remain */
	in.arrivals = 30;
	in.backlog = o.backlog;
	fluid_period(&md, 1, &in, &o);
	ck_assert_double_eq_tol(o.backlog, 30, 1e-9);
	ck_assert_double_eq_tol(o.served, 60, 1e-9);
}
END_TEST

static void run(const char *yaml, const char *const *sets, int nsets, struct world_report *rep)
{
	static struct capture cap;
	struct scenario sc;
	struct diag d;
	struct sink sink = capture_sink(&cap);

	ck_assert_msg(scenario_parse_string(&sc, yaml, "fluid.yaml", sets, nsets, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(world_run(&sc, &sink, "test", rep, &d) == STATUS_OK, "%s", d.msg);
	scenario_fini(&sc);
}

/*
 * A fixed fleet of 2 On-Demand single-slot instances at USD 1/h (a catalog override), Poisson 1/s,
 * exponential 1 s, 100 h: cost = 2 x 100 h x USD 1 = USD 200 exactly; the mean wait over all served
 * requests is P(wait) x E[W | wait] = C(2, 1) / (c mu - lambda) = (1/3) / (2 - 1) = 1/3 s (Allen-Cunneen's
 * factor is (1 + 1) / 2 = 1 for exponential service). Tolerance 1%: the counts are rounded per atom
 * (at most 45 requests of 360,000 are carried, 1e-4) and the atoms keep the mean exactly.
 */
START_TEST(fixed_fleet_constant_rate)
{
	static const char yaml[] =
		"name: fixed\nmode: fluid\nhorizon: 100h\nslo: {latency_s: 1000}\n"
		"workload:\n  arrivals: {kind: poisson, rate_per_s: 1}\n  service: {kind: exponential, mean_s: 1}\n"
		"serving: {instance_type: g6.xlarge, slots_per_instance: 1}\n"
		"catalog: {g6.xlarge: {usd_per_h: 1.0}}\n"
		"fleet:\n  - {option: on_demand, count: 2}\n";
	struct world_report rep;

	run(yaml, NULL, 0, &rep);
	ck_assert_double_eq_tol(world_report_get(&rep, "cost_total_usd"), 200.0, 1e-9);
	ck_assert_double_eq_tol(world_report_get(&rep, "wait_mean_s"), 1.0 / 3.0, 0.01 / 3.0);
	ck_assert_double_eq_tol(world_report_get(&rep, "waited_fraction"), 1.0 / 3.0, 0.01 / 3.0);
}
END_TEST

/*
 * The benchmark scenario (tests/bench/diurnal-30d.yaml) over 3 days in both modes: cost within 1% (the
 * issue's bound) and the violation rate within 20% relative or 0.0005 absolute, whichever is larger
 * (measured: 0.56% and 0.6%; the violation rate is about 0.0016 here, from the service time's tail and
 * the timeouts of the scale-out ramps, which a per-minute fluid model only approximates).
 */
START_TEST(diurnal_error_vs_requests)
{
	static const char *const fluid[] = { "horizon=3d", "mode=fluid" };
	static const char *const reqs[] = { "horizon=3d" };
	char path[1024];
	struct world_report rf, rr;
	struct scenario sc;
	struct diag d;
	static struct capture cap;
	struct sink sink = capture_sink(&cap);
	double cf, cr, vf, vr;

	snprintf(path, sizeof path, "%s/../bench/diurnal-30d.yaml", TEST_DATA_DIR);
	ck_assert_msg(scenario_load(&sc, path, fluid, 2, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(world_run(&sc, &sink, "test", &rf, &d) == STATUS_OK, "%s", d.msg);
	scenario_fini(&sc);
	sink = capture_sink(&cap);  /* a fresh capture for the second run */
	ck_assert_msg(scenario_load(&sc, path, reqs, 1, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(world_run(&sc, &sink, "test", &rr, &d) == STATUS_OK, "%s", d.msg);
	scenario_fini(&sc);
	cf = world_report_get(&rf, "cost_total_usd");
	cr = world_report_get(&rr, "cost_total_usd");
	vf = world_report_get(&rf, "slo_violation_rate");
	vr = world_report_get(&rr, "slo_violation_rate");
	printf("diurnal 3d: cost fluid %.2f requests %.2f; violation rate fluid %.6f requests %.6f\n", cf, cr, vf, vr);
	ck_assert_msg(fabs(cf - cr) <= 0.01 * cr, "cost %g vs %g", cf, cr);
	ck_assert_msg(fabs(vf - vr) <= fmax(0.2 * vr, 0.0005), "violation rate %g vs %g", vf, vr);
}
END_TEST

/*
 * The shipped scenarios fluid supports run in fluid mode to the end with the conservation identities of
 * the finished run holding (this suite's world.c is built without NDEBUG: world.c, check_conserved): every
 * measured request served or dropped, bills adding up, busy GPU-time within paid GPU-time.
 */
START_TEST(shipped_scenarios_conserved)
{
	static const char *const names[] = { "capacity-block-launch", "chat-serving", "odcr", "predictive-diurnal",
		"realistic-mix", "recommend-commitments", "reserved-terms", "savings-plan", "spot-burst", "spot-trace" };
	static const char *const sets[] = { "mode=fluid" };
	static struct capture cap;

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct sink sink = capture_sink(&cap);  /* a fresh capture per run */
		char path[1024];
		struct scenario sc;
		struct world_report rep;
		struct diag d;

		snprintf(path, sizeof path, "%s/%s.yaml", SCENARIO_DIR, names[i]);
		ck_assert_msg(scenario_load(&sc, path, sets, 1, &d) == STATUS_OK, "%s: %s", names[i], d.msg);
		ck_assert_msg(world_run(&sc, &sink, "test", &rep, &d) == STATUS_OK, "%s: %s", names[i], d.msg);
		ck_assert_msg(world_report_get(&rep, "requests_total") > 0, "%s: no requests", names[i]);
		scenario_fini(&sc);
	}
}
END_TEST

/*
 * The default fluid.period_s: the largest period dividing 60 s, autoscaling.resolution_s and sample_period.
 * The benchmark scenario (resolution 60 s, sample period 60 s by default): 60 s. With a 10 s resolution:
 * gcd(60, 10, 60) = 10 s. With a 90 s sample period: gcd(60, 60, 90) = 30 s. A given period that does not
 * divide the resolution is refused, at its key.
 */
START_TEST(default_period_divides)
{
	static const char *const plain[] = { "mode=fluid" };
	static const char *const res10[] = { "mode=fluid", "autoscaling.resolution_s=10" };
	static const char *const sample90[] = { "mode=fluid", "sample_period=90s" };
	static const char *const bad[] = { "mode=fluid", "autoscaling.resolution_s=10", "fluid.period_s=60" };
	const char *const *sets[] = { plain, res10, sample90 };
	const int nsets[] = { 1, 2, 2 };
	const int64_t want_s[] = { 60, 10, 30 };
	char path[1024];
	struct scenario sc;
	struct diag d;

	snprintf(path, sizeof path, "%s/../bench/diurnal-30d.yaml", TEST_DATA_DIR);
	for (int i = 0; i < 3; i++) {
		ck_assert_msg(scenario_load(&sc, path, sets[i], nsets[i], &d) == STATUS_OK, "%s", d.msg);
		ck_assert_int_eq(sc.fluid_period_us, want_s[i] * 1000000);
		scenario_fini(&sc);
	}
	ck_assert_int_eq(scenario_load(&sc, path, bad, 3, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "fluid.period_s (60 s) does not divide autoscaling.resolution_s (10 s)"), "%s", d.msg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fluid");
	TCase *tc = tcase_create("fluid");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, erlang_c_small);
	tcase_add_test(tc, default_period_divides);
	tcase_add_test(tc, wait_violation_exact);
	tcase_add_test(tc, mmc_period_violations);
	tcase_add_test(tc, overloaded_backlog);
	tcase_add_test(tc, fixed_fleet_constant_rate);
	tcase_add_test(tc, diurnal_error_vs_requests);
	tcase_add_test(tc, shipped_scenarios_conserved);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
