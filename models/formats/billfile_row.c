/*
 * billfile_row: the bill reader's rules (billfile.h): the header's columns, what each row adds to which
 * class and clock hour, and the cells that hold them. The file and the CSV parser are billfile.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "billfile_private.h"
#include "status.h"
#include "units.h"


const struct billfile_col billfile_cols[C_N] = {
	{ "ChargePeriodStart", true }, { "ChargePeriodEnd", true }, { "ChargeCategory", true },
	{ "ConsumedQuantity", true }, { "ConsumedUnit", false }, { "EffectiveCost", true },
	{ "PricingCategory", true }, { "CommitmentDiscountStatus", false }, { "CommitmentDiscountType", false },
	{ "CommitmentDiscountCategory", false }, { "ChargeSubcategory", false }, { "CapacityReservationId", false },
	{ "CapacityReservationStatus", false }, { "SkuId", false }, { "ResourceType", false },
	{ "x_UsageType", false }, { "x_InstanceType", false },
	{ "line_item_usage_start_date", true }, { "line_item_usage_end_date", true },
	{ "line_item_line_item_type", true }, { "line_item_usage_type", true }, { "line_item_usage_amount", true },
	{ "line_item_unblended_cost", true }, { "pricing_term", false }, { "product_instance_type", false },
	{ "savings_plan_savings_plan_effective_cost", false }, { "reservation_effective_cost", false },
	{ "reservation_unused_amortized_upfront_fee_for_billing_period", false },
	{ "reservation_unused_recurring_fee", false }, { "savings_plan_total_commitment_to_date", false },
	{ "savings_plan_used_commitment", false },
};

const char *billclass_name(enum billclass c)
{
	static const char *const names[BILLCLASS_N] = { "on_demand", "spot", "reserved", "savings_plan",
							"reservation" };
	return c >= 0 && c < BILLCLASS_N ? names[c] : "?";
}

const char *billfile_format_name(enum billfile_format f)
{
	return f == BILLFILE_CUR ? "cur" : f == BILLFILE_FOCUS ? "focus" : "auto";
}

int billfile_fail_at(struct reader *r, enum col k, const char *fmt, const char *what, const char *expected)
{
	char msg[FIELD_MAX + 256];

	snprintf(msg, sizeof msg, fmt, what);
	r->rc = diag_at(r->d, STATUS_EINPUT, r->path, (int)r->row_line, k < C_N && r->col[k] >= 0 ? r->col[k] + 1 : 0,
			"%s: %s; expected %s", k < C_N ? billfile_cols[k].name : "row", msg, expected);
	return r->rc;
}

/* ---- values ------------------------------------------------------------------------------------------- */

/* A time in column k, in unix seconds: ISO-8601 UTC; a space for the T and no zone are taken as UTC. */
static int read_time(struct reader *r, enum col k, double *unix_s)
{
	char buf[FIELD_MAX + 2];
	size_t n = strlen(r->val[k]);
	int64_t us;

	snprintf(buf, sizeof buf, "%s", r->val[k]);
	if (n > 10 && buf[10] == ' ')
		buf[10] = 'T';
	if (n >= 19 && n < FIELD_MAX && buf[n - 1] != 'Z' && !strstr(buf + 19, "+"))
		strcat(buf, "Z");
	if (units_parse_time_us(buf, &us) != STATUS_OK)
		return billfile_fail_at(r, k, "'%s'", r->val[k], "an ISO-8601 UTC time such as 2026-11-02T00:00:00Z");
	*unix_s = (double)us / 1e6;
	return STATUS_OK;
}

/* A number in column k (an absent column or an empty field is 0 when `empty_ok`). */
static int read_num(struct reader *r, enum col k, bool empty_ok, bool negative_ok, double *x)
{
	char *end;

	*x = 0;
	if (r->col[k] < 0 || r->val[k][0] == '\0') {
		if (empty_ok)
			return STATUS_OK;
		if (r->col[k] < 0)
			return billfile_fail_at(r, C_N, "the header has no column %s, which this line item needs", billfile_cols[k].name,
				       "a CUR 2.0 file with that column");
		return billfile_fail_at(r, k, "%s", "empty", "a number");
	}
	errno = 0;
	*x = strtod(r->val[k], &end);
	if (end == r->val[k] || *end || errno == ERANGE || !isfinite(*x))
		return billfile_fail_at(r, k, "'%s'", r->val[k], "a number");
	if (*x < 0 && !negative_ok)
		return billfile_fail_at(r, k, "'%s'", r->val[k], "a number >= 0");
	return STATUS_OK;
}

static bool is(const struct reader *r, enum col k, const char *text)
{
	return r->col[k] >= 0 && strcasecmp(r->val[k], text) == 0;
}

/* Whether the row is of one of the types: a type column equal to it or ending in ":TYPE". */
static bool type_matches(const struct reader *r)
{
	static const enum col focus[] = { F_SKU, F_RTYPE, F_X_USAGE_TYPE, F_X_INSTANCE_TYPE };
	static const enum col cur[] = { U_INSTANCE_TYPE, U_USAGE_TYPE };
	bool is_cur = r->b->format == BILLFILE_CUR;
	const enum col *k = is_cur ? cur : focus;
	int nk = is_cur ? 2 : 4;

	for (int i = 0; i < nk; i++) {
		const char *v = r->col[k[i]] >= 0 ? r->val[k[i]] : "";
		size_t n = strlen(v);

		for (int t = 0; t < r->ntypes && n; t++) {
			size_t m = strlen(r->types[t]);

			if (strcmp(v, r->types[t]) == 0 ||
			    (n > m && v[n - m - 1] == ':' && strcmp(v + n - m, r->types[t]) == 0))
				return true;
		}
	}
	return false;
}

/* ---- adding up ---------------------------------------------------------------------------------------- */

/*
 * Widen the bill's span to hold the clock hours [lo, hi) (unix hours). The cells are allocated with room on
 * the side the span grows to (as much again as the span), so a bill read in time order is copied O(log n)
 * times, not once per hour; billfile_load() trims the room away at the end.
 */
static int cover_hours(struct reader *r, int64_t lo, int64_t hi)
{
	struct billfile *b = r->b;
	int64_t used_lo = b->cells ? b->start_unix_s / 3600 : lo, used_hi = b->cells ? used_lo + b->nhours : hi;
	int64_t new_lo = lo < used_lo ? lo : used_lo, new_hi = hi > used_hi ? hi : used_hi, a_lo, a_hi;
	struct billcell *cells;

	if (new_hi - new_lo > BILLFILE_HOURS_MAX)
		return billfile_fail_at(r, C_N, "%s", "the bill spans more than two years", "a bill of at most 17568 clock hours");
	if (!b->cells || new_lo < r->alloc_lo || new_hi > r->alloc_lo + r->alloc_n) {
		a_lo = new_lo - (b->cells && new_lo < used_lo ? new_hi - new_lo : 0);
		a_hi = new_hi + (b->cells && new_hi > used_hi ? new_hi - new_lo : 0);
		cells = calloc((size_t)(a_hi - a_lo) * BILLCLASS_N, sizeof *cells);
		if (!cells)
			return r->rc = diag_fail(r->d, STATUS_ENOMEM, "%s: out of memory reading the bill", r->path);
		if (b->cells)  /* the hours in use; the room around them is all zero */
			memcpy(cells + (used_lo - a_lo) * BILLCLASS_N, b->cells + (used_lo - r->alloc_lo) * BILLCLASS_N,
			       (size_t)b->nhours * BILLCLASS_N * sizeof *cells);
		free(b->cells);
		b->cells = cells;
		r->alloc_lo = a_lo;
		r->alloc_n = a_hi - a_lo;
	}
	b->start_unix_s = new_lo * 3600;
	b->nhours = (int)(new_hi - new_lo);
	return STATUS_OK;
}

/* Spread one row's amounts over the clock hours of [s, e), in proportion to the time in each. */
static int add_row(struct reader *r, double s, double e, enum billclass c, const struct billcell *v)
{
	int64_t first = (int64_t)floor(s / 3600), end = (int64_t)ceil(e / 3600);

	if (cover_hours(r, first, end) != STATUS_OK)
		return r->rc;
	for (int64_t h = first; h < end; h++) {
		double a = fmax(s, h * 3600.0), z = fmin(e, (h + 1) * 3600.0), f = (z - a) / (e - s);
		struct billcell *cell = &r->b->cells[(h - r->alloc_lo) * BILLCLASS_N + c];

		if (z <= a)
			continue;
		cell->hours_h += f * v->hours_h;
		cell->cost_usd += f * v->cost_usd;
		cell->used_h += f * v->used_h;
		cell->unused_usd += f * v->unused_usd;
	}
	return STATUS_OK;
}

/* FOCUS: the class and amounts of a Usage row (billfile.h). */
static int focus_row(struct reader *r, enum billclass *c, struct billcell *v)
{
	bool used = is(r, F_CD_STATUS, "Used") || is(r, F_SUBCATEGORY, "Used Commitment");
	bool unused = is(r, F_CD_STATUS, "Unused") || is(r, F_SUBCATEGORY, "Unused Commitment");
	double q, cost;

	if (read_num(r, F_QTY, true, false, &q) || read_num(r, F_EFFECTIVE, false, true, &cost))
		return r->rc;
	if (r->col[F_UNIT] >= 0 && r->val[F_UNIT][0] && !is(r, F_UNIT, "Hours") && !is(r, F_UNIT, "Hour") &&
	    !is(r, F_UNIT, "Hrs") && q != 0)
		return billfile_fail_at(r, F_UNIT, "'%s'", r->val[F_UNIT], "Hours (instance-hours)");
	v->cost_usd = cost;
	if (used || unused || is(r, F_PRICING, "Committed")) {
		bool sp = (r->col[F_CD_TYPE] >= 0 && strstr(r->val[F_CD_TYPE], "Savings Plan")) ||
			  is(r, F_CD_CATEGORY, "Spend");
		*c = sp ? BILLCLASS_SAVINGS_PLAN : BILLCLASS_RESERVED;
	} else if (is(r, F_PRICING, "Dynamic")) {
		*c = BILLCLASS_SPOT;
	} else if (r->col[F_CR_ID] >= 0 && r->val[F_CR_ID][0]) {
		*c = BILLCLASS_RESERVATION;
		unused = is(r, F_CR_STATUS, "Unused");
		used = !unused;
	} else {
		*c = BILLCLASS_ON_DEMAND;
	}
	if (unused) {
		v->unused_usd = cost;
		return STATUS_OK;
	}
	v->hours_h = q;
	v->used_h = used ? q : 0;
	return STATUS_OK;
}

/* CUR 2.0: the line item types read (billfile.h); the others are left out. */
static bool cur_kept(const struct reader *r)
{
	static const char *const kept[] = { "Usage", "SavingsPlanCoveredUsage", "DiscountedUsage", "RIFee",
					    "SavingsPlanRecurringFee" };
	for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
		if (is(r, U_TYPE, kept[i]))
			return true;
	return false;
}

/* CUR 2.0: the class and amounts of a row of a type cur_kept() keeps. */
static int cur_row(struct reader *r, enum billclass *c, struct billcell *v)
{
	double q = 0, x = 0, y = 0;

	if (is(r, U_TYPE, "Usage")) {
		*c = strstr(r->val[U_USAGE_TYPE], "SpotUsage") || is(r, U_TERM, "Spot") ? BILLCLASS_SPOT
											: BILLCLASS_ON_DEMAND;
		if (read_num(r, U_AMOUNT, false, false, &q) || read_num(r, U_UNBLENDED, false, true, &x))
			return r->rc;
		v->hours_h = q;
		v->cost_usd = x;
	} else if (is(r, U_TYPE, "SavingsPlanCoveredUsage") || is(r, U_TYPE, "DiscountedUsage")) {
		bool sp = is(r, U_TYPE, "SavingsPlanCoveredUsage");

		*c = sp ? BILLCLASS_SAVINGS_PLAN : BILLCLASS_RESERVED;
		if (read_num(r, U_AMOUNT, false, false, &q) ||
		    read_num(r, sp ? U_SP_EFFECTIVE : U_RI_EFFECTIVE, false, true, &x))
			return r->rc;
		v->hours_h = v->used_h = q;
		v->cost_usd = x;
	} else if (is(r, U_TYPE, "RIFee")) {
		*c = BILLCLASS_RESERVED;
		if (read_num(r, U_RI_UNUSED_UPFRONT, true, false, &x) || read_num(r, U_RI_UNUSED_RECURRING, true, false, &y))
			return r->rc;
		v->cost_usd = v->unused_usd = x + y;
	} else {  /* SavingsPlanRecurringFee */
		*c = BILLCLASS_SAVINGS_PLAN;
		if (read_num(r, U_SP_COMMITMENT, true, false, &x) || read_num(r, U_SP_USED, true, false, &y))
			return r->rc;
		v->cost_usd = v->unused_usd = fmax(0, x - y);
	}
	return STATUS_OK;
}

/* One data row: left out (counted by reason), or its amounts spread over its hours. */
int billfile_end_row(struct reader *r)
{
	bool cur = r->b->format == BILLFILE_CUR;
	enum col ks = cur ? U_START : F_START, ke = cur ? U_END : F_END;
	enum billclass c = BILLCLASS_ON_DEMAND;
	struct billcell v = { 0 };
	double s, e;

	r->b->rows++;
	if (!(cur ? cur_kept(r) : is(r, F_CATEGORY, "Usage"))) {
		r->b->not_usage++;
		return STATUS_OK;
	}
	if (!type_matches(r)) {
		r->b->other_type++;
		return STATUS_OK;
	}
	if (cur ? cur_row(r, &c, &v) : focus_row(r, &c, &v))
		return r->rc;
	if (read_time(r, ks, &s) || read_time(r, ke, &e))
		return r->rc;
	if (e <= s)
		return billfile_fail_at(r, ke, "'%s'", r->val[ke], "a time after the period's start");
	if (r->b->kept++ == 0 || s < r->b->first_unix_s)
		r->b->first_unix_s = s;
	if (r->b->kept == 1 || e > r->b->last_unix_s)
		r->b->last_unix_s = e;
	return add_row(r, s, e, c, &v);
}

/* ---- the header ------------------------------------------------------------------------------------- */

int billfile_end_header(struct reader *r)
{
	bool focus = r->col[F_START] >= 0, cur = r->col[U_START] >= 0;
	enum col lo, hi;

	if (r->b->format == BILLFILE_AUTO) {
		if (!focus && !cur)
			return billfile_fail_at(r, C_N, "%s", "neither a FOCUS nor a CUR 2.0 header",
				       "a header with ChargePeriodStart (FOCUS) or line_item_usage_start_date (CUR 2.0)");
		r->b->format = focus ? BILLFILE_FOCUS : BILLFILE_CUR;
	}
	lo = r->b->format == BILLFILE_CUR ? U_START : F_START;
	hi = r->b->format == BILLFILE_CUR ? C_N : U_START;
	for (enum col k = lo; k < hi; k++)
		if (billfile_cols[k].required && r->col[k] < 0)
			return billfile_fail_at(r, C_N, "the header has no column %s", billfile_cols[k].name,
				       r->b->format == BILLFILE_CUR ? "an AWS CUR 2.0 header (billfile.h lists the columns read)"
								   : "a FOCUS header (billfile.h lists the columns read)");
	if (r->b->format == BILLFILE_FOCUS && r->col[F_SKU] < 0 && r->col[F_RTYPE] < 0 && r->col[F_X_USAGE_TYPE] < 0 &&
	    r->col[F_X_INSTANCE_TYPE] < 0)
		return billfile_fail_at(r, C_N, "%s", "the header names no instance type column",
			       "SkuId, ResourceType, x_UsageType or x_InstanceType");
	return STATUS_OK;
}
