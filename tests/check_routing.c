/*
 * check_routing: routing and per-instance queues (serving.routing, serving.queue) against queueing theory.
 *
 * c single-slot reserved instances, Poisson arrivals at lambda, exponential service of mean 1/mu = 1 s,
 * rho = lambda / c:
 *   central queue (any routing)         M/M/c: W = C(c, a) / (c mu - lambda), C Erlang C;
 *   per-instance, random                c independent M/M/1 at lambda / c: W = rho / (mu - lambda / c);
 *   per-instance, round_robin           each instance gets every c-th arrival, Erlang(c, lambda) gaps:
 *                                       GI/M/1, W = s / (mu (1 - s)), s the root in (0, 1) of
 *                                       s = (lambda / (lambda + mu (1 - s)))^c;
 *   per-instance, least_outstanding     (join the shortest queue) no closed form: strictly between M/M/c
 *   and power_of_two                    and random's M/M/1, power_of_two at or above least_outstanding.
 * Tolerance as in check_erlang.c: R = 20 replications, |mean - theory| <= 5 SE and SE <= 4% of theory;
 * "strictly between" means the whole mean +- 5 SE band is. The shipped examples' runs under every routing
 * are in check_routing_examples.c (slower; the planted bugs of routing.c name this suite).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "world.h"

#define REPS 20
#define C 4
#define LAMBDA 2.8  /* rho 0.7 */
#define HOURS 20.0

static double erlang_c(int c, double a)
{
	double b = 1.0;

	for (int k = 1; k <= c; k++)
		b = a * b / (k + a * b);
	return b / (1.0 - (a / c) * (1.0 - b));
}

/* GI/M/1 with Erlang(k, lambda) interarrival gaps and service rate mu: the mean wait. */
static double ek_m1_wait(int k, double lambda, double mu)
{
	double s = 0.5;

	for (int i = 0; i < 10000; i++)
		s = pow(lambda / (lambda + mu * (1 - s)), k);
	return s / (mu * (1 - s));
}

/* One run's report value `key` with the given queue and routing. */
static void one_run(const char *queue, const char *routing, uint64_t seed, double lambda, struct world_report *rep)
{
	static struct capture cap;
	char yaml[1024];
	struct scenario sc;
	struct diag d;
	struct sink sink = capture_sink(&cap);

	snprintf(yaml, sizeof yaml,
		 "name: routing\nseed: %llu\nhorizon: %gh\nslo: {latency_s: 1000}\n"
		 "workload:\n  arrivals: {kind: poisson, rate_per_s: %.17g}\n"
		 "  service: {kind: exponential, mean_s: 1}\n"
		 "serving: {instance_type: g6.xlarge, slots_per_instance: 1, queue: %s, routing: %s}\n"
		 "fleet:\n  - {option: reserved, count: %d, scope: zonal}\n",
		 (unsigned long long)seed, HOURS, lambda, queue, routing, C);
	ck_assert_msg(scenario_parse_string(&sc, yaml, "routing.yaml", NULL, 0, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_msg(world_run(&sc, &sink, "test", rep, &d) == STATUS_OK, "%s", d.msg);
	scenario_fini(&sc);
}

/* The mean wait over REPS replications and its standard error. */
static void mean_wait(const char *queue, const char *routing, double *mean, double *se)
{
	double w[REPS], var = 0;
	uint64_t base = test_seed("routing", 3000);
	struct world_report rep;

	*mean = 0;
	for (int r = 0; r < REPS; r++) {
		one_run(queue, routing, base + (uint64_t)r, LAMBDA, &rep);
		w[r] = world_report_get(&rep, "wait_mean_s");
		ck_assert_msg(world_report_get(&rep, "littles_law_error") < 0.01, "Little's law");
		*mean += w[r] / REPS;
	}
	for (int r = 0; r < REPS; r++)
		var += (w[r] - *mean) * (w[r] - *mean) / (REPS - 1);
	*se = sqrt(var / REPS);
	fprintf(stderr, "  %-12s %-17s wait %.5g +- %.2g (SE)\n", queue, routing, *mean, *se);
}

static void check_theory(const char *queue, const char *routing, double theory)
{
	double mean, se;

	mean_wait(queue, routing, &mean, &se);
	fprintf(stderr, "    theory %.5g (%.2f SE off)\n", theory, fabs(mean - theory) / se);
	ck_assert_msg(se <= 0.04 * theory, "%s/%s: SE %g too large against %g", queue, routing, se, theory);
	ck_assert_msg(fabs(mean - theory) <= 5 * se, "%s/%s: wait %g vs theory %g (SE %g)", queue, routing, mean,
		      theory, se);
}

static double mmc_wait(void)
{
	return erlang_c(C, LAMBDA) / (C - LAMBDA);
}

static double mm1_wait(void)
{
	double rho = LAMBDA / C;

	return rho / (1 - rho);
}

START_TEST(central_queue_is_erlang_c)
{
	check_theory("central", "random", mmc_wait());
	check_theory("central", "least_outstanding", mmc_wait());
}
END_TEST

/*
 * Random routing to a central queue draws among the instances with a free slot, found in the free-slot
 * bitset by its per-word counts (routing.c random_free): over three 64-bit words (130 single-slot
 * instances), overloaded (200 requests/s of exactly 1 s: every slot busy, a queue always waiting), every
 * request must start on an instance that is free. A pick that lands on a busy instance (a wrong count
 * boundary) would run two requests on one slot: more busy slot-time than the slots paid for, and more
 * served than the slots can serve. Worked by hand, with a 5 s queue timeout: a served request started by
 * 605 s (it arrived before the horizon and waited at most 5 s), each slot starts at most one a second, so
 * at most 130 x 605 + 130 = 78,780 are served; and the slots never idle while requests wait, so at least
 * 130 x 600 - 130 = 77,870.
 */
START_TEST(central_random_picks_free_instances_only)
{
	static struct capture cap;

	capture_run(&cap,
		    "name: words\nseed: 5\nhorizon: 600s\nslo: {latency_s: 100}\nworkload:\n"
		    "  arrivals: {kind: poisson, rate_per_s: 200}\n  service: {kind: constant, mean_s: 1}\n"
		    "serving: {instance_type: g6.xlarge, slots_per_instance: 1, queue: central, routing: random,"
		    " queue_timeout_s: 5}\nfleet:\n  - {option: reserved, count: 130, scope: zonal}\n",
		    NULL, 0);
	ck_assert_msg(capture_need(&cap, "gpu_hours_busy") <= capture_need(&cap, "gpu_hours_paid") * (1 + 1e-12),
		      "busy %g GPU-hours of %g paid", capture_need(&cap, "gpu_hours_busy"),
		      capture_need(&cap, "gpu_hours_paid"));
	ck_assert_msg(capture_need(&cap, "requests_served") <= 130 * 605 + 130, "served %g",
		      capture_need(&cap, "requests_served"));
	ck_assert_msg(capture_need(&cap, "requests_served") >= 130 * 600 - 130, "served %g: slots left idle",
		      capture_need(&cap, "requests_served"));
}
END_TEST

/*
 * The same bitset at the boundary between its words, where a pick with k equal to a word's count of free
 * slots must go on to the next word's first free slot. 200 requests arrive at once (a trace, every row at
 * 0 s) on 130 single-slot instances (words of 64, 64 and 2), constant 1 s service, a central queue, random
 * routing. Worked by hand: the first 130 start at once, one on each instance, and the other 70 wait for a
 * slot, exactly 1 s each: waited_fraction = 70 / 200 = 0.35 and wait_mean_s = 70 x 1 s / 200 = 0.35 s, for
 * every seed. During the 130 picks the draw falls on the first free slot of the second or third word about
 * 2 ln 130 = 10 times a run; a pick that stopped one slot short there would land past its word on a busy
 * instance, start two requests on one slot and leave a slot free: fewer than 70 would wait.
 */
START_TEST(central_random_at_the_word_boundary)
{
	static struct capture cap;
	char yaml[1024], rows[2048] = "time_s\n", *trace;

	for (int i = 0; i < 200; i++)
		strcat(rows, "0\n");
	trace = test_write_file("at-once.csv", rows);
	ck_assert_ptr_nonnull(trace);
	for (int seed = 1; seed <= 4; seed++) {
		snprintf(yaml, sizeof yaml,
			 "name: words\nseed: %d\nhorizon: 10s\nsample_period: 1s\nslo: {latency_s: 100}\nworkload:\n"
			 "  arrivals: {kind: trace, path: %s, format: generic, columns: {time: time_s, time_format: seconds}}\n"
			 "  service: {kind: constant, mean_s: 1}\n"
			 "serving: {instance_type: g6.xlarge, slots_per_instance: 1, queue: central, routing: random}\n"
			 "fleet:\n  - {option: reserved, count: 130, scope: zonal}\n", seed, trace);
		capture_run(&cap, yaml, NULL, 0);
		ck_assert_double_eq(capture_need(&cap, "requests_total"), 200);
		ck_assert_double_eq_tol(capture_need(&cap, "waited_fraction"), 0.35, 1e-12);
		ck_assert_double_eq_tol(capture_need(&cap, "wait_mean_s"), 0.35, 1e-9);
	}
	test_remove_file(trace);
}
END_TEST

START_TEST(random_per_instance_is_mm1_at_lambda_over_c)
{
	check_theory("per_instance", "random", mm1_wait());
}
END_TEST

START_TEST(round_robin_per_instance_is_ek_m1)
{
	double w = ek_m1_wait(C, LAMBDA, 1.0);

	ck_assert(w > mmc_wait() && w < mm1_wait());
	check_theory("per_instance", "round_robin", w);
}
END_TEST

START_TEST(least_outstanding_is_between)
{
	double lo, lo_se, p2, p2_se;

	mean_wait("per_instance", "least_outstanding", &lo, &lo_se);
	fprintf(stderr, "    M/M/c %.5g, M/M/1 at lambda/c %.5g\n", mmc_wait(), mm1_wait());
	ck_assert_msg(lo - 5 * lo_se > mmc_wait(), "least_outstanding %g not above M/M/c %g", lo, mmc_wait());
	ck_assert_msg(lo + 5 * lo_se < mm1_wait(), "least_outstanding %g not below M/M/1 %g", lo, mm1_wait());
	mean_wait("per_instance", "power_of_two", &p2, &p2_se);
	ck_assert_msg(p2 + 5 * p2_se < mm1_wait(), "power_of_two %g not below M/M/1 %g", p2, mm1_wait());
	ck_assert_msg(p2 + 5 * p2_se > lo - 5 * lo_se, "power_of_two %g below least_outstanding %g", p2, lo);
}
END_TEST

START_TEST(routing_leaves_the_traffic_alone)
{
	/* the routing draws from its own stream: the same requests arrive whatever the routing */
	static const char *const routings[] = { "first_free", "random", "least_outstanding", "round_robin",
		"power_of_two" };
	struct world_report rep;
	double total = -1;

	for (int i = 0; i < 5; i++) {
		one_run("per_instance", routings[i], 11, LAMBDA, &rep);
		if (i > 0)
			ck_assert_double_eq(world_report_get(&rep, "requests_total"), total);
		total = world_report_get(&rep, "requests_total");
	}
}
END_TEST

START_TEST(theory_formulas)
{
	/* GI/M/1 with Poisson gaps (k = 1) is M/M/1: W = rho / (mu - lambda) */
	ck_assert_double_eq_tol(ek_m1_wait(1, 0.7, 1.0), 0.7 / 0.3, 1e-9);
	/* Erlang-2 gaps at lambda = 2 (rate 1 arrivals), mu = 2: s = (2 / (2 + 2(1 - s)))^2, root 0.381966 */
	ck_assert_double_eq_tol(ek_m1_wait(2, 2.0, 2.0), 0.3819660113 / (2 * (1 - 0.3819660113)), 1e-8);
}
END_TEST

/*
 * workload.service.slowdown by hand: one instance of 4 slots, each request 1 s as drawn (the trace's svc),
 * slowdown 1.0 at 1 request in service and 2.0 at 3, linear between, held beyond:
 *   R1 t=0    1 in service (itself): x1.0 -> 1.0 s
 *   R2 t=0.1  2: x1.5 -> 1.5 s
 *   R3 t=0.2  3: x2.0 -> 2.0 s
 *   R4 t=0.3  4: held at x2.0 -> 2.0 s
 *   R5 t=5    1 (the others left by 2.3): 1.0 s
 * Latency mean 7.5 / 5 = 1.5 s, max 2.0 s; the time alone (the SLO floor) is x1.0 for each: with an SLO of
 * 1.2 s, 3 violations (R2, R3, R4), none from service time alone. Without the table: 1.0 s each.
 */
START_TEST(slowdown_by_hand)
{
	static struct capture cap;
	const char *yaml = "name: slow\nhorizon: 1h\nslo: {latency_s: 1.2}\nworkload:\n  arrivals:\n    kind: trace\n"
		"    path: " TEST_DATA_DIR "/good/traces/slowdown_five.csv\n    format: generic\n"
		"    columns: {time: t, time_format: seconds, service_s: svc}\n"
		"  service:\n    kind: trace\n    slowdown:\n      - {concurrency: 1, factor: 1.0}\n"
		"      - {concurrency: 3, factor: 2.0}\n"
		"serving: {instance_type: g6.xlarge, slots_per_instance: 4}\n"
		"fleet:\n  - {option: on_demand, count: 1, usd_per_h: 1}\n";
	const char *plain = "name: slow\nhorizon: 1h\nslo: {latency_s: 1.2}\nworkload:\n  arrivals:\n    kind: trace\n"
		"    path: " TEST_DATA_DIR "/good/traces/slowdown_five.csv\n    format: generic\n"
		"    columns: {time: t, time_format: seconds, service_s: svc}\n  service: {kind: trace}\n"
		"serving: {instance_type: g6.xlarge, slots_per_instance: 4}\n"
		"fleet:\n  - {option: on_demand, count: 1, usd_per_h: 1}\n";

	capture_run(&cap, yaml, NULL, 0);
	ck_assert_double_eq(capture_need(&cap, "requests_served"), 5);
	ck_assert_double_eq_tol(capture_need(&cap, "latency_mean_s"), 1.5, 1e-6);
	ck_assert_double_eq_tol(capture_need(&cap, "latency_max_s"), 2.0, 1e-3);
	ck_assert_double_eq(capture_need(&cap, "slo_violations"), 3);
	ck_assert_double_eq_tol(capture_need(&cap, "slo_violation_rate_floor"), 0, 1e-12);
	/* none waited: all 3 are slowed by the load, not service time alone nor waiting */
	ck_assert_double_eq(capture_need(&cap, "slo_violations_slowed"), 3);
	ck_assert_double_eq(capture_need(&cap, "slo_violations_wait"), 0);
	capture_run(&cap, plain, NULL, 0);
	ck_assert_double_eq_tol(capture_need(&cap, "latency_mean_s"), 1.0, 1e-6);
	ck_assert_double_eq(capture_need(&cap, "slo_violations"), 0);
}
END_TEST

/*
 * The autoscaling target as a trade-off on tests/data/good/target_slowdown.yaml: a chat-like service
 * (lognormal 6 s, cv 0.6, 32 slots an instance, each request 1.6 times slower with all 32 busy) behind random
 * routing to per-instance queues, target tracking on concurrency per instance at 0.5, 0.6 and 0.7 with the
 * same seed (the same requests): a higher target costs less and serves slower (p99 latency rises). With the
 * table flat (factor 1 at 32 too) the p99 does not move: "run hotter" always won. (At 0.9 this fleet
 * oscillates between its minimum and maximum: models/README.md "Load-dependent service for the other kinds".)
 */
START_TEST(target_trades_cost_for_latency)
{
	static struct capture cap;
	static const char *const targets[] = { "0.5", "0.6", "0.7" };
	double p99[3], cost[3], flat[3];

	for (int i = 0; i < 6; i++) {
		char target[64];
		const char *sets[] = { target, "workload.service.slowdown.1.factor=1" };
		struct scenario sc;
		struct world_report rep;
		struct diag d;
		struct sink sink = capture_sink(&cap);

		snprintf(target, sizeof target, "autoscaling.target=%s", targets[i % 3]);
		ck_assert_msg(scenario_load(&sc, TEST_DATA_DIR "/good/target_slowdown.yaml", sets, i < 3 ? 1 : 2,
					    &d) == STATUS_OK, "%s", d.msg);
		ck_assert_msg(world_run(&sc, &sink, "test", &rep, &d) == STATUS_OK, "%s", d.msg);
		if (i < 3) {
			p99[i] = world_report_get(&rep, "latency_p99_s");
			cost[i] = world_report_get(&rep, "cost_total_usd");
			fprintf(stderr, "  target %s: p99 %.3f s, cost $%.2f\n", targets[i], p99[i], cost[i]);
		} else {
			flat[i - 3] = world_report_get(&rep, "latency_p99_s");
			fprintf(stderr, "  target %s, flat table: p99 %.3f s\n", targets[i - 3], flat[i - 3]);
		}
		scenario_fini(&sc);
	}
	ck_assert_msg(p99[0] < p99[1] && p99[1] < p99[2], "p99 %g %g %g not rising", p99[0], p99[1], p99[2]);
	ck_assert_msg(cost[0] > cost[1] && cost[1] > cost[2], "cost %g %g %g not falling", cost[0], cost[1], cost[2]);
	ck_assert_msg(fabs(flat[2] - flat[0]) < 0.05 * flat[0], "with a flat table p99 moved: %g -> %g", flat[0],
		      flat[2]);
}
END_TEST

/*
 * The policy metrics see requests where the routing put them (gpumetric.h: an instance's GPU is busy while
 * any request runs on it). 4 instances of 4 slots, one GPU each, Poisson 4/s, exponential 1 s: random routing
 * to per-instance queues makes each instance an M/M/4 at a = 1, busy (at least one request) with probability
 * 1 - P0 = 1 - 1 / (1 + 1 + 1/2 + 1/6 + (1/24) / (1 - 1/4)) = 0.633: GPUUtilization 63% > the target 50, so
 * target tracking scales out. First-free routing from a central queue packs the same requests onto the first
 * instances: the first is busy while anything is in service (98% of the time), the second about while 5 or
 * more are (37%), the others rarely: about a third on average (a rough count), below 50, so it holds at 4.
 * (What the fleet would publish to CloudWatch in each case: the spread, not only the load, moves this metric.)
 */
START_TEST(gpu_utilization_sees_the_spread)
{
	static struct capture cap;
	static const char *const cases[][2] = { { "per_instance", "random" }, { "central", "first_free" } };
	double p0 = 1 / (1 + 1 + 1.0 / 2 + 1.0 / 6 + (1.0 / 24) / (1 - 1.0 / 4));

	ck_assert(1 - p0 > 0.5);
	for (int i = 0; i < 2; i++) {
		char yaml[1024];
		snprintf(yaml, sizeof yaml,
			 "name: gpu\nseed: 3\nhorizon: 2h\nslo: {latency_s: 100}\nworkload:\n"
			 "  arrivals: {kind: poisson, rate_per_s: 4}\n  service: {kind: exponential, mean_s: 1}\n"
			 "serving: {instance_type: g6.xlarge, slots_per_instance: 4, queue: %s, routing: %s}\n"
			 "fleet:\n  - {option: reserved, count: 4, scope: zonal}\n  - {option: on_demand, max: 4}\n"
			 "autoscaling: {policy: target_tracking, metric: gpu_utilization, target: 50, min: 4, max: 8}\n",
			 cases[i][0], cases[i][1]);
		capture_run(&cap, yaml, NULL, 0);
		fprintf(stderr, "  %s %s: %g scale-outs\n", cases[i][0], cases[i][1],
			capture_need(&cap, "scale_out_actions"));
		if (i == 0)
			ck_assert_msg(capture_need(&cap, "scale_out_actions") >= 1, "random: no scale-out");
		else
			ck_assert_msg(capture_need(&cap, "scale_out_actions") == 0, "first_free scaled out");
	}
}
END_TEST

/*
 * With copies the endpoint routes to copies (SageMaker inference components): on copies-scale-to-zero kept
 * warm (autoscaling.min 4: one instance's worth of copies all night), random routing to per-instance queues
 * draws a copy, so an instance holding 1 copy gets a quarter of the requests of one holding 4; it misses
 * no more than the central queue does (none). Drawing instances uniformly instead sent each instance the same
 * share whatever its copies: 28,480 violations on this run.
 */
START_TEST(random_routing_draws_copies)
{
	static struct capture cap;
	const char *sets[] = { "autoscaling.min=4", "serving.queue=per_instance", "serving.routing=random" };
	struct scenario sc;
	struct world_report rep;
	struct diag d;
	struct sink sink = capture_sink(&cap);

	ck_assert_msg(scenario_load(&sc, SCENARIO_DIR "/copies-scale-to-zero.yaml", sets, 3, &d) == STATUS_OK, "%s",
		      d.msg);
	ck_assert_msg(world_run(&sc, &sink, "test", &rep, &d) == STATUS_OK, "%s", d.msg);
	fprintf(stderr, "  copies kept warm, random per-instance: %g violations\n",
		world_report_get(&rep, "slo_violations"));
	ck_assert_double_eq(world_report_get(&rep, "slo_violations"), 0);
	scenario_fini(&sc);
}
END_TEST

/*
 * first_free with per-instance queues, when no instance can start a request: the fewest outstanding, the lowest
 * pool index on a tie. Two single-slot instances, service times from the trace (routing_tie.csv):
 *   R1 t=0 10 s: instance 0 (the first free), done 10.   R2 t=0 20 s: instance 1, done 20.
 *   R3 t=1 5 s: both busy, 1 outstanding each: the tie goes to instance 0: waits there until 10, done 15
 *   (latency 14, wait 9). (Instance 1 would have made it wait until 20: latency 24.)
 * Latency mean (10 + 20 + 14)/3, max 20; wait mean 9/3.
 */
START_TEST(per_instance_first_free_ties_to_the_lowest)
{
	static struct capture cap;

	capture_run(&cap, "name: tie\nhorizon: 1h\nslo: {latency_s: 100}\nworkload:\n"
		    "  arrivals: {kind: trace, path: " TEST_DATA_DIR "/good/traces/routing_tie.csv, format: generic,"
		    " columns: {time: t, time_format: seconds, service_s: svc}}\n  service: {kind: trace}\n"
		    "serving: {instance_type: g6.xlarge, slots_per_instance: 1, queue: per_instance, routing: first_free}\n"
		    "fleet:\n  - {option: reserved, count: 2, scope: zonal}\n", NULL, 0);
	ck_assert_double_eq(capture_need(&cap, "requests_served"), 3);
	ck_assert_double_eq_tol(capture_need(&cap, "latency_mean_s"), (10.0 + 20 + 14) / 3, 1e-9);
	ck_assert_double_eq_tol(capture_need(&cap, "latency_max_s"), 20, 1e-9);
	ck_assert_double_eq_tol(capture_need(&cap, "wait_mean_s"), 9.0 / 3, 1e-9);
}
END_TEST

/*
 * Random routing to a central queue reaches every free instance of a bitset word, not only its lowest
 * (routing.c random_free: k = draw(nfree) counts k set bits into the word). Two single-slot g6.xlarge (1 GPU),
 * pool order the reserved one (index 0, fleet entry 0) then the on-demand one (index 1); 400 requests of
 * exactly 1 s from a trace, one every 5 s (t = 0, 5, ..., 1995 s), so each finds both instances free:
 * nfree = 2, k = draw(2) is 0 or 1 with chance 1/2 each, and k = 1 is the second set bit of word 0, the
 * on-demand instance. The requests it serves, N, are Binomial(400, 1/2): mean 200, and by Hoeffding
 * P(|N - 200| >= 100) <= 2 exp(-2 x 100^2 / 400) = 2 exp(-50) < 1e-21, for any seed. Each is 1 s on 1 GPU:
 * busy on-demand GPU-hours N / 3600, reserved (400 - N) / 3600. A pick that stopped at the word's lowest free
 * bit (k's bits not cleared) would send all 400 to the reserved instance: N = 0.
 */
START_TEST(central_random_reaches_every_free_instance_in_a_word)
{
	static struct capture cap;
	char yaml[1024], rows[8192] = "time_s\n", *trace;

	for (int i = 0; i < 400; i++)
		snprintf(rows + strlen(rows), sizeof rows - strlen(rows), "%d\n", 5 * i);
	trace = test_write_file("every-5s.csv", rows);
	ck_assert_ptr_nonnull(trace);
	for (int seed = 1; seed <= 2; seed++) {
		double n;
		snprintf(yaml, sizeof yaml,
			 "name: word\nseed: %d\nhorizon: 1h\nslo: {latency_s: 100}\nworkload:\n"
			 "  arrivals: {kind: trace, path: %s, format: generic, columns: {time: time_s, time_format: seconds}}\n"
			 "  service: {kind: constant, mean_s: 1}\n"
			 "serving: {instance_type: g6.xlarge, slots_per_instance: 1, queue: central, routing: random}\n"
			 "fleet:\n  - {option: reserved, count: 1, scope: zonal}\n  - {option: on_demand, count: 1}\n",
			 seed, trace);
		capture_run(&cap, yaml, NULL, 0);
		ck_assert_double_eq(capture_need(&cap, "requests_served"), 400);
		ck_assert_double_eq(capture_need(&cap, "wait_mean_s"), 0);
		n = capture_need(&cap, "gpu_hours_busy_on_demand") * 3600;
		fprintf(stderr, "  seed %d: %.0f of 400 on the on-demand instance\n", seed, n);
		ck_assert_msg(n >= 100 && n <= 300, "seed %d: %g of 400 on instance 1", seed, n);
		ck_assert_double_eq_tol(capture_need(&cap, "gpu_hours_busy_reserved") * 3600, 400 - n, 1e-6);
	}
	test_remove_file(trace);
}
END_TEST

/*
 * Power of two choices with copies (routing.c power_of_two): the second copy is drawn until it is on another
 * instance than the first, and the request goes to the less loaded of the two (outstanding per slot).
 * Two g6.12xlarge (4 GPUs), one copy of 4 GPUs each (1 slot), both serving at t = 0; per-instance queues.
 * From the trace (arrival s, service s): R0 at 0 for 1000 s, then R1..R20 at 10, 20, ..., 200 s for 1 s
 * each. R0 takes either instance (both idle: load 0 each). Each later request draws the two instances (the
 * second draw is repeated until it differs from the first: with two instances of 1 slot each, every
 * request compares both, but for a 2^-64 chance per request of 64 equal draws) and compares R0's instance,
 * load 1 / 1, with the other, load 0 (its previous request left 9 s before): it goes to the other and
 * starts at once. So nobody waits: wait_mean_s 0, latency max 1000 s (R0), mean (1000 + 20 x 1) / 21.
 * A second draw that kept the first instead (drawn "until equal") routes each request to R0's instance with
 * chance 1/2, to wait behind R0 until 1000 s: every one of the 20 missing it has chance 2^-20.
 */
START_TEST(power_of_two_copies_compares_two_instances)
{
	static struct capture cap;
	char yaml[2048], rows[1024] = "t,svc\n0,1000\n", *trace;

	for (int i = 1; i <= 20; i++)
		snprintf(rows + strlen(rows), sizeof rows - strlen(rows), "%d,1\n", 10 * i);
	trace = test_write_file("p2c-copies.csv", rows);
	ck_assert_ptr_nonnull(trace);
	for (int seed = 1; seed <= 2; seed++) {
		snprintf(yaml, sizeof yaml,
			 "name: p2c\nseed: %d\nhorizon: 1h\nslo: {latency_s: 2000}\nworkload:\n"
			 "  arrivals: {kind: trace, path: %s, format: generic,"
			 " columns: {time: t, time_format: seconds, service_s: svc}}\n  service: {kind: trace}\n"
			 "serving:\n  queue: per_instance\n  routing: power_of_two\n  instance_type: g6.12xlarge\n"
			 "  copies: {gpus_per_copy: 4, slots_per_copy: 1, initial: 2}\n"
			 "fleet:\n  - {option: on_demand, max: 2, usd_per_h: 1}\n"
			 "autoscaling: {policy: none, min: 2, max: 2}\n", seed, trace);
		capture_run(&cap, yaml, NULL, 0);
		ck_assert_double_eq(capture_need(&cap, "requests_served"), 21);
		ck_assert_double_eq(capture_need(&cap, "wait_mean_s"), 0);
		ck_assert_double_eq_tol(capture_need(&cap, "latency_max_s"), 1000, 1e-6);
		ck_assert_double_eq_tol(capture_need(&cap, "latency_mean_s"), 1020.0 / 21, 1e-6);
	}
	test_remove_file(trace);
}
END_TEST

static Suite *routing_suite(void)
{
	Suite *s = suite_create("routing");
	TCase *tc = tcase_create("theory");

	tcase_set_timeout(tc, 600);
	test_add(tc, theory_formulas);
	test_add(tc, central_queue_is_erlang_c);
	test_add(tc, central_random_at_the_word_boundary);
	test_add(tc, per_instance_first_free_ties_to_the_lowest);
	test_add(tc, random_per_instance_is_mm1_at_lambda_over_c);
	test_add(tc, round_robin_per_instance_is_ek_m1);
	test_add(tc, least_outstanding_is_between);
	test_add(tc, routing_leaves_the_traffic_alone);
	test_add(tc, slowdown_by_hand);
	test_add(tc, target_trades_cost_for_latency);
	test_add(tc, gpu_utilization_sees_the_spread);
	test_add(tc, random_routing_draws_copies);
	test_add(tc, central_random_picks_free_instances_only);
	test_add(tc, central_random_reaches_every_free_instance_in_a_word);
	test_add(tc, power_of_two_copies_compares_two_instances);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run_suite(routing_suite());
}
