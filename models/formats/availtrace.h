/*
 * availtrace: a Spot availability or preemption trace in the SkyPilot spot-traces JSON format:
 *     {"metadata": {"gap_seconds": G, ...}, "data": [n0, n1, ...]}
 * data[i] is the number of spot instances available (or still alive) during tick i, which covers
 * [i G, (i + 1) G) seconds from the trace's start. Values are non-negative integers (JSON numbers like 3 or
 * 3.0); other metadata keys are ignored. Parsed with libfyaml in JSON mode.
 *
 * Errors: STATUS_ENOENT (unreadable), STATUS_EINPUT with "FILE:LINE:COL: what; expected what" (not JSON,
 * no metadata.gap_seconds or not a positive number, no data list, an empty list, a negative or fractional
 * or non-numeric value) or "FILE:LINE: ..." (an empty file, one that is not UTF-8 text), STATUS_ENOMEM.
 * gap_seconds may be fractional; it is rounded to the microsecond and must stay above zero.
 */
#ifndef GPUCAP_AVAILTRACE_H
#define GPUCAP_AVAILTRACE_H

#include <stdint.h>

#include "diag.h"

struct availtrace {
	int64_t gap_us;  /* tick length, microseconds */
	int *count;      /* instances available per tick; owned */
	int n;           /* ticks, >= 1 once loaded */
};

/* Load `path` into *at (caller-owned; zeroed on failure); `label` names it in messages (NULL: the path). */
int availtrace_load(struct availtrace *at, const char *path, const char *label, struct diag *d);

/*
 * Instances available at t_us from the trace's start: count[(t_us / gap_us) mod n], so the trace repeats
 * past its end; count[0] for t_us < 0.
 */
int availtrace_at(const struct availtrace *at, int64_t t_us);

/* Free the array; NULL and zeroed structs allowed. */
void availtrace_fini(struct availtrace *at);

#endif
