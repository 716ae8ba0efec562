/*
 * fuzz_sweepfile: the sweep file reader and its expansion (analysis/sweepfile.c, sweepfile_parse on the
 * text in memory). Checked: a refusal has a message and leaves the struct zeroed; an accepted sweep has
 * its points within SWEEPFILE_RUNS_MAX and a value for every point and key.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "status.h"
#include "sweepfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct sweepfile sf;
	struct diag d = { "" };
	int rc;

	fuzz_setup();
	rc = sweepfile_parse(&sf, text, "sweeps/fuzz.yaml", &d);
	fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused sweep has a message");
	if (rc == STATUS_OK) {
		fuzz_check(sf.nreps >= 1 && sf.npoints >= 1 && sweepfile_runs(&sf) <= SWEEPFILE_RUNS_MAX,
			   "an accepted sweep has runs, at most SWEEPFILE_RUNS_MAX");
		fuzz_check(sf.base != NULL && sf.base[0], "an accepted sweep names its base");
		for (long i = 0; i < (long)sf.npoints * sf.nparams; i++)
			fuzz_check(sf.values[i] != NULL, "every point has a value for every key");
		sweepfile_fini(&sf);
	}
	free(text);
	return 0;
}
