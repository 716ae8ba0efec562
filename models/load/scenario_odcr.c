/*
 * scenario_odcr: an odcr entry's dates (scenario_fleet.c reads its other keys): when an EC2 On-Demand Capacity
 * Reservation starts, when it ends, and the commitment of one that starts later.
 *
 * Keys (named as a capacity_block's window is: `start`, `end`; the commitment after the API's
 * CommitmentDuration):
 *  - `start`: a UTC time, or a duration after the scenario start (as a job's `submit`); default the scenario
 *    start: the reservation is active from before the window, as it always was. A start after the scenario
 *    start is a future-dated reservation (SOURCES.md [odcr-fd-start]).
 *  - `commitment_duration`: a duration; required for a future-dated reservation, at least 14 days
 *    (SOURCES.md [odcr-fd-commitment]); also allowed for one whose start is at or before the scenario start
 *    (it was future-dated when it was requested).
 *  - `end`: a UTC time, or a duration after the scenario start; a limited reservation (EndDateType limited).
 *    Absent: unlimited, active to the horizon. It must come after the start and not before the commitment
 *    ends (SOURCES.md [odcr-fd-commitment]: during the commitment one cannot "choose an end date that is
 *    before the commitment duration").
 * A reservation with a commitment (future-dated) must be of an instance family AWS offers them for: the
 * family is the letters before the generation digit of the type's name, and only c, m, r, i, t and g pass
 * (SOURCES.md [odcr-fd-families]; so inf2 and trn1, whose names begin with i and t, are refused, and so is
 * gr6, a G-family type: a conservative reading). The dates are aws's: refused on another provider. A dated
 * reservation is for serving (use: serving): the jobs model is not taught when one opens.
 * The reservation's window is written into the entry as start_us and duration_us (0 = unlimited);
 * option_odcr.c bills and opens it.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "provider.h"
#include "scenario_load.h"
#include "status.h"
#include "units.h"

#define ODCR_MIN_COMMITMENT_US (14 * DAY_US)   /* SOURCES.md [odcr-fd-commitment] */
#define ODCR_MAX_DATE_US (3660 * DAY_US)       /* ten years: far enough for any plan, small enough to add */

static const char *const future_families[] = { "c", "m", "r", "i", "t", "g", NULL };

/* The family of an EC2 instance type name into buf: its leading letters ("g" for g6.xlarge, "trn" for
 * trn1.32xlarge, "p" for p5.48xlarge). */
static void family_of(const char *type, char *buf, size_t size)
{
	size_t n = 0;

	while (type[n] && isalpha((unsigned char)type[n]) && n + 1 < size) {
		buf[n] = (char)tolower((unsigned char)type[n]);
		n++;
	}
	buf[n] = '\0';
}

/* `start` or `end` at r (present): a UTC time, or a duration after the scenario start, into *out_us (from the
 * scenario start). */
static int read_date(struct load *l, const struct yamldoc_ref *r, int64_t *out_us)
{
	const char *expect = "a UTC time such as 2026-12-01T00:00:00Z, or a duration after the scenario start "
			     "such as 2d", *s;
	int rc;

	if ((rc = yamldoc_scalar(&l->y, r, expect, &s)))
		return rc;
	if (!scenario_jobs_when(l, s, 0, out_us) || *out_us < -ODCR_MAX_DATE_US || *out_us > ODCR_MAX_DATE_US)
		return yamldoc_bad(&l->y, r, expect);
	return STATUS_OK;
}

/* A future-dated reservation's instance family (r: the key that made it future-dated). */
static int check_family(struct load *l, const struct yamldoc_ref *r)
{
	const char *type = l->sc.serving.instance_type;  /* the entry's type while it is read */
	char family[16];

	family_of(type, family, sizeof family);
	if (scenario_load_listed(family, future_families))
		return STATUS_OK;
	return yamldoc_fail(&l->y, r, "%s is of the %s family: AWS offers future-dated Capacity Reservations "
				  "\"for instance types in the C, M, R, I, T, and G instance families only\" "
				  "(SOURCES.md [odcr-fd-families]); expected a type of those families (such as "
				  "g6.xlarge), or a reservation for immediate use (no commitment_duration, no start "
				  "after the scenario start)", type, family);
}

/* The commitment at r (present) into f->commitment_us: at least 14 days. */
static int read_commitment(struct load *l, const struct yamldoc_ref *r, struct fleet_entry *f)
{
	int rc;

	if ((rc = scenario_load_duration(l, r, 0, true, ODCR_MAX_DATE_US, &f->commitment_us)))
		return rc;
	if (f->commitment_us >= ODCR_MIN_COMMITMENT_US)
		return STATUS_OK;
	return yamldoc_fail(&l->y, r, "the commitment is %.6g days; expected at least 14 days: the minimum "
				  "commitment duration of a future-dated Capacity Reservation "
				  "(SOURCES.md [odcr-fd-commitment])", (double)f->commitment_us / DAY_US);
}

/* `end` at r (present): after the start and the commitment, after the scenario start. */
static int read_end(struct load *l, const struct yamldoc_ref *r, struct fleet_entry *f)
{
	int64_t end_us = 0, commit_end_us = f->start_us + f->commitment_us;
	char at[32], from[32];
	int rc;

	if ((rc = read_date(l, r, &end_us)))
		return rc;
	units_format_time(units_floor_s(l->sc.start_unix_us + f->start_us), from, sizeof from);
	if (end_us <= f->start_us || end_us <= 0)
		return yamldoc_fail(&l->y, r, "the reservation would end no later than it starts (%s) or the "
					  "scenario starts; expected an end after both", from);
	if (end_us < commit_end_us) {
		units_format_time(units_floor_s(l->sc.start_unix_us + commit_end_us), at, sizeof at);
		return yamldoc_fail(&l->y, r, "the reservation would end before its commitment does (%s, "
					  "commitment_duration after its start %s): during the commitment a limited "
					  "reservation's end date may not be before it (SOURCES.md "
					  "[odcr-fd-commitment]); expected an end at %s or later", at, from, at);
	}
	f->duration_us = end_us - f->start_us;
	return STATUS_OK;
}

/* Fail at r unless the entry may have dates: provider aws, use serving. */
static int check_dated(struct load *l, const struct yamldoc_ref *r, const struct fleet_entry *f)
{
	if (l->sc.provider != PROVIDER_AWS)
		return yamldoc_fail(&l->y, r, "start, end and commitment_duration date an EC2 Capacity "
					  "Reservation, an aws product; expected none on %s",
					  provider_name(l->sc.provider));
	if (f->use != USE_SERVING)
		return yamldoc_fail(&l->y, r, "a dated odcr entry is modelled for the serving fleet only; "
					  "expected use: serving, or no start, end nor commitment_duration");
	return STATUS_OK;
}

int scenario_load_odcr_dates(struct load *l, const struct yamldoc_ref *e, struct fleet_entry *f)
{
	struct yamldoc_ref start, end, commit;
	const struct yamldoc_ref *first;
	int rc;

	f->start_us = 0;
	f->duration_us = 0;
	f->commitment_us = 0;
	yamldoc_child(e, "start", &start);
	yamldoc_child(e, "end", &end);
	yamldoc_child(e, "commitment_duration", &commit);
	first = start.node ? &start : commit.node ? &commit : &end;
	if (!first->node)
		return STATUS_OK;  /* an immediate, unlimited reservation over the whole window */
	if ((rc = check_dated(l, first, f)) || (start.node && (rc = read_date(l, &start, &f->start_us))))
		return rc;
	if (f->start_us > 0 && !commit.node)
		return yamldoc_missing(&l->y, e, "commitment_duration", "a reservation starting after the scenario "
					     "start is future-dated and needs a commitment, at least 14d (SOURCES.md "
					     "[odcr-fd-commitment])");
	if (commit.node &&
	    ((rc = check_family(l, f->start_us > 0 ? &start : &commit)) || (rc = read_commitment(l, &commit, f))))
		return rc;
	return end.node ? read_end(l, &end, f) : STATUS_OK;
}
