/*
 * fuzz_pricetrace: the Spot price history reader (pricetrace.c) in its three forms (JSON, text with and
 * without the SPOTPRICEHISTORY column), asked for g5.xlarge in any zone, g5.xlarge in us-east-1b and
 * p5.48xlarge. Checked: a refusal has a message; an accepted series is non-empty, strictly increasing in
 * time, with finite non-negative prices; capping and lookups keep to it.
 */
#include <math.h>
#include <stdint.h>

#include "fuzz.h"
#include "pricetrace.h"
#include "status.h"

static void load(const char *path, const char *type, const char *zone)
{
	struct pricetrace pt;
	struct diag d = { "" };
	int rc = pricetrace_load(&pt, path, "prices.txt", type, zone, &d);

	fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused price trace has a message");
	if (rc != STATUS_OK) {
		fuzz_check(pt.n == 0 && !pt.at_unix_us && !pt.usd_per_h, "a refused price trace is zeroed");
		return;
	}
	fuzz_check(pt.n >= 1, "an accepted price trace has a price");
	for (int i = 0; i < pt.n; i++) {
		fuzz_check(isfinite(pt.usd_per_h[i]) && pt.usd_per_h[i] >= 0, "prices are finite, not negative");
		fuzz_check(i == 0 || pt.at_unix_us[i] > pt.at_unix_us[i - 1], "price changes are in time order");
		fuzz_check(pricetrace_at(&pt, pt.at_unix_us[i]) == pt.usd_per_h[i], "a change is in force at its time");
	}
	fuzz_check(pricetrace_at(&pt, INT64_MIN) == pt.usd_per_h[0], "the first price holds before the first change");
	fuzz_check(pricetrace_at(&pt, INT64_MAX) == pt.usd_per_h[pt.n - 1], "the last price holds after the last");
	pricetrace_cap(&pt, 1.0);
	for (int i = 0; i < pt.n; i++)
		fuzz_check(pt.usd_per_h[i] <= 1.0, "a capped price is at most the cap");
	pricetrace_fini(&pt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, "prices");

	fuzz_setup();
	load(path, "g5.xlarge", NULL);
	load(path, "g5.xlarge", "us-east-1b");
	load(path, "p5.48xlarge", NULL);
	return 0;
}
