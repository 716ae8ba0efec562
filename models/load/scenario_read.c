/*
 * scenario_read: the small readers every section reader of the scenario loader uses (see scenario_load.h):
 * a duration, a time, an int, a required key, a path (recorded in sc.inputs), a warning, and the realtime
 * endpoint's at-least-one-instance rule. Beneath the section readers: it calls only yamldoc and units, never
 * a section reader, so scenario.c -> scenario_<section>.c -> scenario_read.c -> yamldoc.c has no cycle.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_load.h"
#include "status.h"
#include "units.h"
#include "yamldoc.h"

/* A duration in the largest unit that divides it: "400d", "1h", "60s", "250ms". */
static void format_duration(int64_t us, char *buf, size_t size)
{
	static const struct { int64_t us; const char *unit; } units[] = {
		{ INT64_C(86400000000), "d" }, { INT64_C(3600000000), "h" }, { INT64_C(60000000), "m" },
		{ INT64_C(1000000), "s" }, { INT64_C(1000), "ms" },
	};

	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (us != 0 && us % units[i].us == 0) {
			snprintf(buf, size, "%lld%s", (long long)(us / units[i].us), units[i].unit);
			return;
		}
	}
	snprintf(buf, size, "%.6fs", (double)us / 1e6);
}

int scenario_load_duration(struct load *l, const struct yamldoc_ref *r, int64_t lo_us, bool lo_open,
			   int64_t hi_us, int64_t *out_us)
{
	char expect[192], lo[32], hi[32];
	const char *s;
	int64_t us;
	int rc;

	if (!r->node)
		return STATUS_OK;
	format_duration(lo_us, lo, sizeof lo);
	format_duration(hi_us, hi, sizeof hi);
	snprintf(expect, sizeof expect, "a duration %s %s and <= %s (seconds, or a number with a unit: ms, "
		 "s, m, h, d, w)", lo_open ? ">" : ">=", lo_us ? lo : "0", hi);
	if ((rc = yamldoc_scalar(&l->y, r, expect, &s)))
		return rc;
	if (units_parse_duration(s, &us) != STATUS_OK || us < lo_us || (lo_open && us == lo_us) ||
	    us > hi_us)
		return yamldoc_bad(&l->y, r, expect);
	*out_us = us;
	return STATUS_OK;
}

int scenario_load_time(struct load *l, const struct yamldoc_ref *r, int64_t *out_unix_us)
{
	const char *expect = "a UTC time such as 2026-12-01T00:00:00Z or 2026-12-01T00:00:00.25Z", *s;
	int64_t t;
	int rc;

	if (!r->node)
		return STATUS_OK;
	if ((rc = yamldoc_scalar(&l->y, r, expect, &s)))
		return rc;
	if (units_parse_time_us(s, &t) != STATUS_OK)
		return yamldoc_bad(&l->y, r, expect);
	*out_unix_us = t;
	return STATUS_OK;
}

int scenario_load_int(struct load *l, const struct yamldoc_ref *r, int lo, int hi, int *out)
{
	int64_t v = *out;
	int rc = yamldoc_int(&l->y, r, lo, hi, &v);

	if (rc == STATUS_OK)
		*out = (int)v;
	return rc;
}

int scenario_load_required(struct load *l, const struct yamldoc_ref *map, const char *key,
			   const char *what, struct yamldoc_ref *out)
{
	yamldoc_child(map, key, out);
	return out->node ? STATUS_OK : yamldoc_missing(&l->y, map, key, what);
}

/* Record a file the scenario names in sc.inputs (once: a price trace shared by two entries is one input). */
static int input_add(struct load *l, const char *path)
{
	char (*grown)[SCENARIO_PATH_MAX];

	for (int i = 0; i < l->sc.inputs.n; i++)
		if (strcmp(l->sc.inputs.path[i], path) == 0)
			return STATUS_OK;
	grown = realloc(l->sc.inputs.path, (size_t)(l->sc.inputs.n + 1) * sizeof *grown);
	if (!grown)
		return diag_at(l->y.d, STATUS_ENOMEM, l->y.label, 0, 0, "out of memory while reading the scenario");
	l->sc.inputs.path = grown;
	snprintf(grown[l->sc.inputs.n++], SCENARIO_PATH_MAX, "%s", path);
	return STATUS_OK;
}

int scenario_load_path(struct load *l, const struct yamldoc_ref *r, char *buf)
{
	const char *slash = l->path ? strrchr(l->path, '/') : NULL;
	char written[SCENARIO_PATH_MAX];
	int n, rc;

	if ((rc = yamldoc_string(&l->y, r, written, sizeof written)))
		return rc;
	if (written[0] == '/' || !slash)
		n = snprintf(buf, SCENARIO_PATH_MAX, "%s", written);
	else
		n = snprintf(buf, SCENARIO_PATH_MAX, "%.*s/%s", (int)(slash - l->path), l->path, written);
	if (n >= SCENARIO_PATH_MAX)
		return yamldoc_fail(&l->y, r, "the path, resolved against the scenario's folder, is %d "
					  "bytes; expected at most %d", n, SCENARIO_PATH_MAX - 1);
	return input_add(l, buf);
}

/*
 * yamldoc places and words a failure; a warning is placed and worded the same way, so it is written
 * as a failure into a diag of its own (the status that returns is not a failure of the load) and appended.
 */
int scenario_load_warn(struct load *l, const struct yamldoc_ref *r, const char *fmt, ...)
{
	struct diag *errors = l->y.d, warning;
	char msg[DIAG_MSG_MAX], *grown;
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	l->y.d = &warning;
	yamldoc_fail(&l->y, r, "%s", msg);
	l->y.d = errors;
	n = strlen(warning.msg);
	grown = realloc(l->sc.warnings, l->warnings_len + n + 2);
	if (!grown)
		return diag_at(errors, STATUS_ENOMEM, l->y.label, 0, 0, "out of memory while reading the "
			       "scenario");
	memcpy(grown + l->warnings_len, warning.msg, n);
	l->warnings_len += n;
	grown[l->warnings_len++] = '\n';
	grown[l->warnings_len] = '\0';
	l->sc.warnings = grown;
	return STATUS_OK;
}

bool scenario_load_needs_one(const struct load *l)
{
	return l->sc.serving.endpoint == ENDPOINT_REALTIME && !l->sc.copies.enabled;
}

int scenario_load_check_zero(struct load *l, const struct yamldoc_ref *r, int n)
{
	if (n != 0 || !r->node || !scenario_load_needs_one(l))
		return STATUS_OK;
	return yamldoc_fail(&l->y, r, "0 instances on a realtime endpoint without copies: a real-time "
				  "variant needs at least 1 (SOURCES.md [sm-realtime-min1]); expected at least 1, "
				  "serving.endpoint: async, or serving.copies");
}
