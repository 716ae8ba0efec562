/*
 * fuzz_scenario: the scenario loader (scenario_parse_string) on any text: YAML syntax, every key's reader,
 * the validation of the whole. Relative trace paths resolve against the working directory, where the
 * fuzzer rarely finds a file: the trace readers have targets of their own.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "scenario.h"
#include "status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct scenario sc;
	struct diag d = { "" };
	int rc;

	fuzz_setup();
	rc = scenario_parse_string(&sc, text, "fuzz.yaml", NULL, 0, &d);
	fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused scenario has a status and a message");
	if (rc == STATUS_OK) {
		fuzz_check(sc.horizon_us > 0, "a loaded scenario has a positive horizon");
		fuzz_check(sc.warnings != NULL && sc.text != NULL, "a loaded scenario owns its texts");
		scenario_fini(&sc);
	}
	free(text);
	return 0;
}
