/* savings: see savings.h. */
#include "savings.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

/* The plan's discount for type t. */
static double discount_of(const struct savings_plan_terms *p, int t)
{
	return t < p->ntypes ? p->type_discount[t] : p->discount;
}

/*
 * The order in which plan p covers the usage of an hour with nt types: (kind, type) pairs, instance usage
 * (on-demand, used ODCR) before unused ODCR capacity, each part by decreasing discount, ties in kind then
 * type order (SOURCES.md [sp-highest-discount], [sp-odcr]). Writes n = SAVINGS_USAGE_COUNT x nt pairs.
 */
static void cover_order(const struct savings_plan_terms *p, int nt, int *kind, int *type)
{
	int n = 0;

	for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
		for (int t = 0; t < nt; t++, n++) {
			int at = n;
			double d = discount_of(p, t);
			bool unused = k == SAVINGS_ODCR_UNUSED;
			/* insertion: before the first pair placed that comes later in the order */
			for (int i = 0; i < n; i++) {
				bool u = kind[i] == SAVINGS_ODCR_UNUSED;
				if (unused < u || (unused == u && d > discount_of(p, type[i]))) {
					at = i;
					break;
				}
			}
			memmove(kind + at + 1, kind + at, (size_t)(n - at) * sizeof *kind);
			memmove(type + at + 1, type + at, (size_t)(n - at) * sizeof *type);
			kind[at] = k;
			type[at] = t;
		}
}

/* One plan in one hour: cover left[][] in cover_order with commit (USD at SP rates); add to *out. */
static void settle_plan(const struct savings_plan_terms *p, double len_h, int nt,
			double left[SAVINGS_USAGE_COUNT][SAVINGS_TYPES_MAX], struct savings_result *out)
{
	double commit = p->commit_usd_per_h * len_h, avail = commit;
	int kind[SAVINGS_USAGE_COUNT * SAVINGS_TYPES_MAX], type[SAVINGS_USAGE_COUNT * SAVINGS_TYPES_MAX];

	out->commit_usd += commit;
	cover_order(p, nt, kind, type);
	for (int i = 0; i < SAVINGS_USAGE_COUNT * nt; i++) {
		int k = kind[i], t = type[i];
		double rate = 1.0 - discount_of(p, t);  /* SP dollars per On-Demand dollar */
		double need, used, covered;

		assert(rate > 0); /* the loader keeps discount < 1 */
		need = left[k][t] * rate;  /* what this usage costs at SP rates */
		used = need < avail ? need : avail;
		covered = used / rate;
		avail -= used;
		out->covered_usd[k] += covered;
		left[k][t] -= covered;
		if (left[k][t] < 1e-12)
			left[k][t] = 0;
	}
	out->unused_usd += avail;
}

/* One RI in one hour: cover left[][ri->type] in kind order with up to count instance-hours of the part of
 * the hour inside its term; add to *out. */
static void settle_ri(const struct savings_ri_terms *ri, const struct savings_hour *u,
		      double left[SAVINGS_USAGE_COUNT][SAVINGS_TYPES_MAX], struct savings_result *out)
{
	double lo = u->t0_h > ri->t0_h ? u->t0_h : ri->t0_h, hi = u->t0_h + u->len_h;
	double in_h, cap_h, charge;

	if (hi > ri->t1_h)
		hi = ri->t1_h;
	if (hi <= lo)
		return;  /* the hour is outside the term: no charge, no cover */
	in_h = hi - lo;
	cap_h = ri->count * in_h;  /* instance-hours it may cover */
	charge = ri->count * ri->usd_per_h * in_h;
	out->ri_commit_usd += charge;
	out->ri_billed_usd += ri->count * ri->billed_usd_per_h * in_h;
	assert(ri->od_usd_per_h > 0);
	for (int k = 0; k < SAVINGS_USAGE_COUNT && cap_h > 0; k++) {
		double *usd = &left[k][ri->type], inst_h = *usd / ri->od_usd_per_h;
		double take = inst_h < cap_h ? inst_h : cap_h;
		cap_h -= take;
		out->ri_covered_usd[k] += take * ri->od_usd_per_h;
		*usd -= take * ri->od_usd_per_h;
		if (*usd < 1e-12)
			*usd = 0;
	}
	out->ri_unused_usd += ri->count > 0 ? charge * cap_h / (ri->count * in_h) : 0;
}

/* Hour u's usage by kind and type into left (one type: all of it as type 0); returns the types. */
static int usage_left(const struct savings_hour *u, double left[SAVINGS_USAGE_COUNT][SAVINGS_TYPES_MAX])
{
	int nt = u->ntypes > 0 ? u->ntypes : 1;

	for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
		for (int t = 0; t < nt; t++)
			left[k][t] = u->ntypes > 0 ? u->type_usd[k][t] : u->usd[k];
	return nt;
}

void savings_after_ris(struct savings_hour *hours, int nhours, const struct savings_ri_terms *ris, int nris)
{
	for (int h = 0; h < nhours && nris > 0; h++) {
		struct savings_hour *u = &hours[h];
		double left[SAVINGS_USAGE_COUNT][SAVINGS_TYPES_MAX] = { { 0 } };
		struct savings_result r = { 0 };
		int nt = usage_left(u, left);

		for (int i = 0; i < nris; i++)
			settle_ri(&ris[i], u, left, &r);
		for (int k = 0; k < SAVINGS_USAGE_COUNT; k++) {
			u->usd[k] = 0;
			for (int t = 0; t < nt; t++) {
				if (u->ntypes > 0)
					u->type_usd[k][t] = left[k][t];
				u->usd[k] += left[k][t];
			}
		}
	}
}

void savings_settle(const struct savings_hour *hours, int nhours, const struct savings_plan_terms *plans,
		    int nplans, struct savings_result *out)
{
	savings_settle_all(hours, nhours, NULL, 0, plans, nplans, out);
}

void savings_settle_all(const struct savings_hour *hours, int nhours, const struct savings_ri_terms *ris, int nris,
			const struct savings_plan_terms *plans, int nplans, struct savings_result *out)
{
	memset(out, 0, sizeof *out);
	for (int h = 0; h < nhours; h++) {
		const struct savings_hour *u = &hours[h];
		double left[SAVINGS_USAGE_COUNT][SAVINGS_TYPES_MAX] = { { 0 } };
		int nt;

		assert(u->len_h > 0 && u->len_h <= 1);
		assert(u->ntypes >= 0 && u->ntypes <= SAVINGS_TYPES_MAX);
		nt = usage_left(u, left);
		for (int i = 0; i < nris; i++) {
			/* an hour without usage of several types holds ntypes = 0: left[][t >= nt] is 0 */
			assert(ris[i].type >= 0 && ris[i].type < SAVINGS_TYPES_MAX);
			settle_ri(&ris[i], u, left, out);
		}
		for (int p = 0; p < nplans; p++)
			settle_plan(&plans[p], u->len_h, nt, left, out);
		for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
			for (int t = 0; t < nt; t++)
				out->excess_usd[k] += left[k][t];
	}
}
