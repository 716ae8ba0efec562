/* scenario_fixtures: see scenario_fixtures.h. */
#include "scenario_fixtures.h"

#include <check.h>

#include "status.h"

const char *const full_yaml =
	"name: chat-serving\n"
	"seed: 42\n"
	"start: 2026-12-01T00:00:00Z\n"
	"horizon: 7d\n"
	"sample_period: 30s\n"
	"slo: {latency_s: 2.5}\n"
	"workload:\n"
	"  arrivals: {kind: poisson, rate_per_s: 40}\n"
	"  service: {kind: lognormal, mean_s: 1.2, cv: 0.5}\n"
	"serving:\n"
	"  instance_type: p5.48xlarge\n"
	"  slots_per_instance: 8\n"
	"  queue_timeout_s: 30\n"
	"  startup_s: 7m\n"
	"  max_queue: 5000\n"
	"fleet:\n"
	"  - {option: reserved, count: 4, scope: zonal}\n"
	"  - {option: on_demand, max: 16, usd_per_h: 60}\n"
	"autoscaling:\n"
	"  policy: target_tracking\n"
	"  metric: concurrency_per_instance\n"
	"  target: 0.7\n"
	"  min: 4\n"
	"  max: 20\n"
	"  resolution_s: 30\n"
	"  scale_out_cooldown_s: 2m\n"
	"  scale_in_cooldown_s: 600\n"
	"  scale_in_margin: 0.2\n"
	"catalog:\n"
	"  p5.48xlarge: {usd_per_h: 50.0}\n"
	"  my-l4-box: {gpus: 1, usd_per_h: 0.9}\n";

/* The smallest valid scenario, for tests that override parts of it. */
const char *const small_yaml =
	"name: small\n"
	"horizon: 1d\n"
	"slo: {latency_s: 2}\n"
	"workload:\n"
	"  arrivals: {kind: poisson, rate_per_s: 10}\n"
	"  service: {kind: exponential, mean_s: 1}\n"
	"serving:\n"
	"  instance_type: g5.xlarge\n"
	"fleet:\n"
	"  - {option: reserved, count: 2, scope: zonal}\n"
	"  - {option: on_demand, count: 1, max: 6}\n";

/* Parse text with the given overrides, asserting success. */
void parse_ok(struct scenario *sc, const char *text, const char *const *sets, int nsets)
{
	struct diag d;
	int rc = scenario_parse_string(sc, text, "t.yaml", sets, nsets, &d);

	ck_assert_msg(rc == STATUS_OK, "rc %d: %s", rc, d.msg);
}

/* Parse text with overrides, asserting STATUS_EINPUT and the exact message. */
void parse_fails(const char *text, const char *const *sets, int nsets, const char *msg)
{
	struct scenario sc;
	struct diag d;
	int rc = scenario_parse_string(&sc, text, "t.yaml", sets, nsets, &d);

	ck_assert_int_eq(rc, STATUS_EINPUT);
	ck_assert_str_eq(d.msg, msg);
	ck_assert_ptr_null(sc.text);  /* a failed load leaves the struct zeroed */
	ck_assert_int_eq(sc.nfleet, 0);
	scenario_fini(&sc);
}
