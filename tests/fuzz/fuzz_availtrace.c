/*
 * fuzz_availtrace: the Spot availability trace reader (availtrace.c, SkyPilot's JSON). Checked: a refusal
 * has a message and leaves the struct zeroed; an accepted trace has a positive tick, at least one tick and
 * counts that are not negative, and lookups anywhere on the clock (before 0, past the end, at its limits)
 * return one of its counts.
 */
#include <stdint.h>

#include "availtrace.h"
#include "fuzz.h"
#include "status.h"

/* Whether c is one of the trace's counts. */
static int is_count(const struct availtrace *at, int c)
{
	for (int i = 0; i < at->n; i++)
		if (at->count[i] == c)
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, "avail");
	const int64_t probes[] = { INT64_MIN, -1, 0, 1, 599999999, 600000000, 86400000000, INT64_MAX };
	struct availtrace at;
	struct diag d = { "" };
	int rc;

	fuzz_setup();
	rc = availtrace_load(&at, path, "avail.json", &d);
	fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused availability trace has a message");
	if (rc != STATUS_OK) {
		fuzz_check(at.n == 0 && !at.count, "a refused availability trace is zeroed");
		return 0;
	}
	fuzz_check(at.gap_us > 0 && at.n >= 1, "an accepted trace has a positive tick and a count");
	for (int i = 0; i < at.n; i++)
		fuzz_check(at.count[i] >= 0, "counts are not negative");
	for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
		fuzz_check(is_count(&at, availtrace_at(&at, probes[i])), "a lookup returns one of the counts");
	availtrace_fini(&at);
	return 0;
}
