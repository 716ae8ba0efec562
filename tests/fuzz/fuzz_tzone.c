/*
 * fuzz_tzone: the TZif reader (tzone.c) on arbitrary bytes, as tzone_load reads a zone file, over three
 * windows: a year inside the files' explicit transitions (2026), a year past them (2040, the footer's rule)
 * and a century (the table may fill). Checked: a refusal has a message; an accepted table's changes are
 * strictly increasing, in whole minutes, within the window; every instant is found again from its wall time
 * by tzone_from_wall (the first reading after the second before it).
 */
#include <string.h>

#include "fuzz.h"
#include "status.h"
#include "tzone.h"

#define Y2026 INT64_C(1767225600)
#define Y2040 INT64_C(2208988800)
#define YEAR_S INT64_C(31536000)

static void check_table(const struct tzone *tz, int64_t from_s, int64_t to_s)
{
	fuzz_check(tz->off0_s % 60 == 0, "the offset at the start is whole minutes");
	for (int i = 0; i < tz->nchanges; i++) {
		fuzz_check(tz->at_s[i] > from_s && tz->at_s[i] <= to_s, "changes lie in the window");
		fuzz_check(i == 0 || tz->at_s[i] > tz->at_s[i - 1], "changes are strictly increasing");
		fuzz_check(tz->at_s[i] % 60 == 0 && tz->off_s[i] % 60 == 0, "changes are whole minutes");
	}
	for (int k = 0; k < 8; k++) {
		int64_t u = from_s + (to_s - from_s) / 8 * k, at = 0;

		fuzz_check(tzone_from_wall(tz, u + tzone_offset(tz, u), u - 1, &at) == STATUS_OK && at == u,
			   "an instant's wall time leads back to it");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int64_t windows[3][2] = { { Y2026, Y2026 + YEAR_S }, { Y2040, Y2040 + YEAR_S },
					       { Y2026, Y2026 + 100 * YEAR_S } };
	struct tzone tz;
	char err[256];

	fuzz_setup();
	for (int w = 0; w < 3; w++) {
		int rc;

		err[0] = '\0';
		tzone_utc(&tz);
		rc = tzone_parse(&tz, "Fuzz/Zone", data, size, windows[w][0], windows[w][1], err, sizeof err);
		fuzz_check(rc == STATUS_OK || (rc == STATUS_EINPUT && err[0]), "a refused zone file has a message");
		if (rc == STATUS_OK)
			check_table(&tz, windows[w][0], windows[w][1]);
		else
			fuzz_check(strcmp(tz.name, "UTC") == 0, "a refused zone leaves the table as it was");
	}
	return 0;
}
