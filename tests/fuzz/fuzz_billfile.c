/*
 * fuzz_billfile: cloud bills (models/formats/billfile.h), FOCUS or CUR 2.0 as CSV, read by the header and
 * forced to each format, keeping p5.48xlarge, and keeping p5.48xlarge and g5.xlarge. Checked: a refusal has
 * a message and leaves the struct zeroed; an accepted bill kept a row, spans 1 .. BILLFILE_HOURS_MAX hours
 * starting on a clock hour, its first and last row times lie in the span, its counts add up to its rows,
 * and every cell is finite with instance-hours and covered hours >= 0 (covered at most used, to rounding).
 */
#include <math.h>
#include <stdint.h>

#include "billfile.h"
#include "fuzz.h"
#include "status.h"

static void load(const char *path, enum billfile_format fmt, const char *const *types, int ntypes)
{
	struct billfile b;
	struct diag d = { "" };
	int rc = billfile_load(&b, path, fmt, types, ntypes, &d);

	fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused bill has a message");
	if (rc != STATUS_OK) {
		fuzz_check(!b.cells && b.nhours == 0 && b.rows == 0, "a refused bill is zeroed");
		return;
	}
	fuzz_check(b.format != BILLFILE_AUTO && (fmt == BILLFILE_AUTO || b.format == fmt), "the format is decided");
	fuzz_check(b.kept >= 1 && b.kept + b.other_type + b.not_usage == b.rows, "the rows add up");
	fuzz_check(b.nhours >= 1 && b.nhours <= BILLFILE_HOURS_MAX && b.cells, "the span is 1 .. max hours");
	fuzz_check(b.start_unix_s % 3600 == 0, "the span starts on a clock hour");
	fuzz_check(b.first_unix_s >= (double)b.start_unix_s && b.first_unix_s < b.last_unix_s &&
		   b.last_unix_s <= (double)b.start_unix_s + 3600.0 * b.nhours, "the rows lie in the span");
	for (int i = 0; i < b.nhours * BILLCLASS_N; i++) {
		const struct billcell *c = &b.cells[i];

		fuzz_check(isfinite(c->hours_h) && isfinite(c->cost_usd) && isfinite(c->used_h) && isfinite(c->unused_usd),
			   "cells are finite");
		fuzz_check(c->hours_h >= 0 && c->used_h >= 0 && c->used_h <= c->hours_h * (1 + 1e-9) + 1e-9,
			   "instance-hours are >= 0, covered ones at most them");
	}
	billfile_fini(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const types[] = { "p5.48xlarge", "g5.xlarge" };
	const char *path = fuzz_file(data, size, "bill");

	fuzz_setup();
	load(path, BILLFILE_AUTO, types, 1);
	load(path, BILLFILE_FOCUS, types, 2);
	load(path, BILLFILE_CUR, types, 2);
	return 0;
}
