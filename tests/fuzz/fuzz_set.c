/*
 * fuzz_set: `--set KEY.PATH=VALUE` overrides (yamldoc.c) on a fixed, valid scenario that has a
 * mapping, a list of mappings, a flow mapping and an autoscaling block for them to edit. Each line of the
 * input is one override, as each `--set` argument is (at most SETS_MAX lines; a NUL ends a line's text).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "scenario.h"
#include "status.h"

#define SETS_MAX 16

static const char base[] =
	"name: base\n"
	"start: 2026-01-01T00:00:00Z\n"
	"horizon: 1d\n"
	"slo: {latency_s: 2}\n"
	"workload:\n"
	"  arrivals: {kind: poisson, rate_per_s: 10}\n"
	"  service: {kind: exponential, mean_s: 1}\n"
	"serving:\n"
	"  instance_type: g5.xlarge\n"
	"fleet:\n"
	"  - {option: reserved, count: 2, scope: zonal}\n"
	"  - {option: on_demand, count: 0, max: 8}\n"
	"  - {option: spot, count: 0, max: 4, discount: 0.6, interruption_band: \"5-10%\"}\n"
	"autoscaling:\n"
	"  policy: target_tracking\n"
	"  metric: concurrency_per_instance\n"
	"  target: 0.7\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *line = text, *nl;
	const char *sets[SETS_MAX];
	struct scenario sc;
	struct diag d = { "" };
	int n = 0, rc;

	fuzz_setup();
	while (n < SETS_MAX && line < text + size) {
		if ((nl = memchr(line, '\n', (size_t)(text + size - line))))
			*nl = '\0';
		sets[n++] = line;
		if (!nl)
			break;
		line = nl + 1;
	}
	rc = scenario_parse_string(&sc, base, "base.yaml", sets, n, &d);
	fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused override has a status and a message");
	fuzz_check(n > 0 || rc == STATUS_OK, "the base scenario loads without overrides");
	if (rc == STATUS_OK) {
		fuzz_check(sc.horizon_us > 0, "a loaded scenario has a positive horizon");
		scenario_fini(&sc);
	}
	free(text);
	return 0;
}
