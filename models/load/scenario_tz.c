/*
 * scenario_tz: the scenario's `timezone`, the IANA zone whose wall clock the diurnal profile, the weekly
 * factors and the cron schedules of scheduled actions follow (models/README.md, "Local time"). Default UTC,
 * which reads no file and changes nothing. The zone's offsets are read from the tz database once, here, for
 * the times the run can reach (tzone.h), so a run never opens a file.
 */
#include "scenario_load.h"

#include <stdio.h>

#include "status.h"
#include "tzone.h"

#define DAY_S 86400
#define MARGIN_S (2 * DAY_S)          /* either side of the run: cron looks a little past the horizon */
#define MAX_SPAN_S (100LL * 366 * DAY_S)  /* a sped-up source reaches further; past this the last offset holds */

int scenario_load_timezone(struct load *l)
{
	struct yamldoc_ref r;
	char name[TZONE_NAME_MAX], err[256];
	double reach_s;
	int64_t from_s, to_s;
	int rc;

	tzone_utc(&l->sc.tz);
	yamldoc_child(&l->root, "timezone", &r);
	if (!r.node)
		return STATUS_OK;
	if ((rc = yamldoc_string(&l->y, &r, name, sizeof name)))
		return rc;
	/* the source's clock runs `speedup` times the run's and starts `offset` in (arrivals_transform.c) */
	reach_s = (double)l->sc.horizon_us / 1e6 * (l->sc.arrivals.speedup > 1 ? l->sc.arrivals.speedup : 1) +
		  (double)l->sc.arrivals.offset_us / 1e6;
	from_s = l->sc.start_unix_us / 1000000 - MARGIN_S;
	to_s = l->sc.start_unix_us / 1000000 + (reach_s < (double)MAX_SPAN_S ? (int64_t)reach_s : MAX_SPAN_S) +
	       MARGIN_S;
	if ((rc = tzone_load(&l->sc.tz, name, from_s, to_s, err, sizeof err)) != STATUS_OK)
		return rc == STATUS_EINPUT ? yamldoc_fail(&l->y, &r, "%s; expected an IANA time zone name such as "
							  "America/New_York, Europe/Berlin or UTC", err) : rc;
	return STATUS_OK;
}
