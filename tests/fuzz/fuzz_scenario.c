/*
 * fuzz_scenario: the scenario loader (scenario_parse_string) on any text: YAML syntax, every key's reader,
 * the validation of the whole. The text stands for a file in tests/data/good (FUZZ_SCENARIO_DIR, set by
 * CMake), so that relative trace paths the seeds name (traces/azure_5.csv, traces/g5_prices.txt, ...) are
 * read: the loader's checks of a trace against the scenario are fuzzed too. The trace readers themselves
 * have targets of their own.
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
	rc = scenario_parse_string(&sc, text, FUZZ_SCENARIO_DIR "/fuzz.yaml", NULL, 0, &d);
	fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused scenario has a status and a message");
	if (rc == STATUS_OK) {
		fuzz_check(sc.horizon_us > 0, "a loaded scenario has a positive horizon");
		fuzz_check(sc.warnings != NULL && sc.text != NULL, "a loaded scenario owns its texts");
		scenario_fini(&sc);
	}
	free(text);
	return 0;
}
