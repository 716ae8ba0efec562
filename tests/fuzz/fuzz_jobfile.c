/*
 * fuzz_jobfile: the jobs CSV of `jobs.trace` (scenario_jobfile.c), read through the loader as a run reads
 * it: a fixed, valid jobs scenario whose `jobs.trace` names the input, written to a temporary file.
 * Checked: a refusal has a message; an accepted file gives at least the list's one job.
 */
#include <stdio.h>

#include "fuzz.h"
#include "scenario.h"
#include "status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, "jobs");
	char text[1024];
	struct scenario sc;
	struct diag d = { "" };
	int rc;

	fuzz_setup();
	snprintf(text, sizeof text,
		 "name: train\n"
		 "start: 2026-01-01T00:00:00Z\n"
		 "horizon: 7d\n"
		 "serving: {instance_type: p5.48xlarge}\n"
		 "fleet:\n"
		 "  - {option: on_demand, use: jobs, max: 16}\n"
		 "  - {option: spot, use: jobs, max: 8, interruptions_per_hour: 0.01}\n"
		 "jobs:\n"
		 "  list:\n"
		 "    - {instances: 8, work_instance_hours: 240, submit: 6h}\n"
		 "  trace: %s\n", path);
	rc = scenario_parse_string(&sc, text, "jobs.yaml", NULL, 0, &d);
	fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused jobs file has a message");
	if (rc == STATUS_OK) {
		fuzz_check(sc.jobs.n >= 1, "an accepted jobs file keeps the list's job");
		scenario_fini(&sc);
	}
	return 0;
}
