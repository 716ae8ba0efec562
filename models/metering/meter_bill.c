/*
 * meter_bill: the meter's bill lines (meter.h, "the bill by clock hour and user"; analysis/README.md, "The
 * bill in FOCUS form"): adding a bill to them clock hour by clock hour, the lines of what the settlement
 * decides, split between the users hour by hour (SOURCES.md [jobs-cost-share]), and handing them to the
 * sink. Split out of meter.c, which keeps the settlement of the run's totals (meter_settle).
 */
#include "meter.h"

#include <assert.h>
#include <math.h>

#include "engine.h"
#include "status.h"

/* A sink call's status, the first failure kept (meter.c keeps its own the same way). */
static void sink_status(struct meter *m, int rc)
{
	if (rc != STATUS_OK && m->status == STATUS_OK)
		m->status = rc;
}

/* The clock hour holding t_us, clamped to the window's hours. */
static int hour_of(const struct meter *m, double t_us)
{
	double h = floor((t_us + (double)m->hour_phase_us) / SIM_US_PER_H_D);

	return h < 0 ? 0 : h > m->nhours - 1 ? m->nhours - 1 : (int)h;
}

const char *const meter_user_names[METER_USERS] = { "serving", "jobs" };

/* Add share of a bill line to clock hour h's lines, each user's part (part[u], summing to 1) to its own. */
static void bill_add(struct meter *m, int type, int h, const double part[METER_USERS], enum option_kind option,
		     enum charge_kind kind, double share, double quantity_h, double billed_usd, double effective_usd)
{
	double od = m->types.n > 1 ? m->types.type[type].od_usd_per_h : m->list_usd_per_h;

	for (int u = 0; u < METER_USERS; u++) {
		struct meter_bill_line *l = &m->bill[meter_bill_index(h, u, option, kind)];
		double s = share * part[u];
		if (part[u] == 0)
			continue;
		l->quantity_h += quantity_h * s;
		l->list_usd += quantity_h * s * od;
		l->billed_usd += billed_usd * s;
		l->effective_usd += effective_usd * s;
	}
}

/* The users' parts of a payer's bill: all its user's, or split by jobs_share (struct meter_payer). */
static void payer_parts(const struct meter_payer *pay, double part[METER_USERS])
{
	for (int u = 0; u < METER_USERS; u++)
		part[u] = pay->jobs_share < 0 ? (u == pay->user) : u == 1 ? pay->jobs_share : 1 - pay->jobs_share;
}

void meter_bill(struct meter *m, const struct meter_payer *pay, enum option_kind option, enum charge_kind kind,
		double t0_us, double t1_us, double quantity_h, double billed_usd, double effective_usd)
{
	int h0 = hour_of(m, t0_us), h1 = hour_of(m, t1_us > t0_us ? t1_us - 1e-6 : t0_us);
	double part[METER_USERS];

	assert(t1_us >= t0_us);
	payer_parts(pay, part);
	for (int h = h0; h <= h1; h++) {
		/* clock hour h's part of [t0, t1); the first and last hours take what lies outside the window */
		double a = h == h0 ? t0_us : (double)h * SIM_US_PER_H_D - (double)m->hour_phase_us;
		double b = h == h1 ? t1_us : (double)(h + 1) * SIM_US_PER_H_D - (double)m->hour_phase_us;
		double share = t1_us > t0_us ? (b - a) / (t1_us - t0_us) : 1;
		bill_add(m, pay->type, h, part, option, kind, share, quantity_h, billed_usd, effective_usd);
	}
}

/*
 * Each user's share of clock hour h's usage of each kind (user_hour_usd): its part of what the settlement
 * decides about that kind in that hour (SOURCES.md [jobs-cost-share]). A kind nobody used in the hour (or
 * only rounding dust of a fully used reservation) is serving's.
 */
static void hour_shares(const struct meter *m, int h, double s[METER_USERS][SAVINGS_USAGE_COUNT])
{
	for (int k = 0; k < SAVINGS_USAGE_COUNT; k++) {
		double all = 0;
		for (int u = 0; u < METER_USERS; u++)
			all += m->user_hour_usd[((size_t)h * METER_USERS + (size_t)u) * SAVINGS_USAGE_COUNT + k];
		for (int u = 0; u < METER_USERS; u++)
			s[u][k] = fabs(all) > 1e-9 ?
				m->user_hour_usd[((size_t)h * METER_USERS + (size_t)u) * SAVINGS_USAGE_COUNT + k] / all :
				u == 0;
	}
}

/* The users' parts of a commitment's used hour: each one's share of each usage kind it covered (covered[k],
 * at On-Demand rates), weighted by the dollars covered; nothing covered: serving's. */
static void cover_parts(const double s[METER_USERS][SAVINGS_USAGE_COUNT], const double *covered,
			double part[METER_USERS])
{
	double all = 0;

	for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
		all += covered[k];
	for (int u = 0; u < METER_USERS; u++) {
		part[u] = 0;
		for (int k = 0; k < SAVINGS_USAGE_COUNT && all > 0; k++)
			part[u] += s[u][k] * covered[k] / all;
		if (all <= 0)
			part[u] = u == 0;
	}
}

/* A settled bill line, split between the users by part: on their bill lines and in their costs. */
static void bill_settled_line(struct meter *m, int h, const double part[METER_USERS], enum option_kind option,
			      enum charge_kind kind, double quantity_h, double billed_usd, double effective_usd)
{
	bill_add(m, 0, h, part, option, kind, 1, quantity_h, billed_usd, effective_usd);
	for (int u = 0; u < METER_USERS; u++)
		m->user_cost_usd[u][option] += effective_usd * part[u];
}

/*
 * The bill lines of what the settlement decides, hour by hour (the same arithmetic as meter_settle's, one
 * clock hour at a time): on-demand usage the plans left; the plans' used and unused commitment; the ODCR
 * capacity instances ran in and the rest, less what the plans covered. Quantities are the On-Demand
 * dollars over the On-Demand price. Each line is split between the users by their usage in that hour
 * (hour_shares): the on-demand excess and the ODCR lines by their share of that kind, a commitment's used
 * part by their share of the usage it covered; its unused part is serving's (the commitments are bought
 * for the fleet, and serving bore all of them before the split). The users' costs are the sums of their
 * lines (the ODCR's reservation is already in them: only what the plans covered leaves it).
 */
void meter_bill_settled(struct meter *m, const struct savings_ri_terms *ris, int nris,
			 const struct savings_plan_terms *plans, int nplans)
{
	static const double serving[METER_USERS] = { 1, 0 };
	double od = m->list_usd_per_h > 0 ? m->list_usd_per_h : 1;

	for (int h = 0; h < m->nhours; h++) {
		const struct savings_hour *u = &m->usage_by_hour[h];
		struct savings_result r;
		double covered = 0, ri_covered = 0, used_odcr, unused_odcr, ri_used_share, off_used, off_unused;
		double s[METER_USERS][SAVINGS_USAGE_COUNT], part[METER_USERS];

		savings_settle_all(u, 1, ris, nris, plans, nplans, &r);
		hour_shares(m, h, s);
		for (int k = 0; k < SAVINGS_USAGE_COUNT; k++) {
			covered += r.covered_usd[k];
			ri_covered += r.ri_covered_usd[k];
		}
		for (int v = 0; v < METER_USERS; v++)
			part[v] = s[v][SAVINGS_ON_DEMAND];
		bill_settled_line(m, h, part, OPTION_ON_DEMAND, CHARGE_USAGE, r.excess_usd[SAVINGS_ON_DEMAND] / od,
				  r.excess_usd[SAVINGS_ON_DEMAND], r.excess_usd[SAVINGS_ON_DEMAND]);
		/* the RIs' hour: the used share of their fee covered usage, the rest is lost */
		ri_used_share = r.ri_commit_usd > 0 ? 1 - r.ri_unused_usd / r.ri_commit_usd : 0;
		cover_parts(s, r.ri_covered_usd, part);
		bill_settled_line(m, h, part, OPTION_RESERVED, CHARGE_USED, ri_covered / od,
				  r.ri_billed_usd * ri_used_share, r.ri_commit_usd - r.ri_unused_usd);
		bill_settled_line(m, h, serving, OPTION_RESERVED, CHARGE_UNUSED, 0, r.ri_billed_usd * (1 - ri_used_share),
				  r.ri_unused_usd);
		cover_parts(s, r.covered_usd, part);
		bill_settled_line(m, h, part, OPTION_SAVINGS_PLAN, CHARGE_USED, covered / od, r.commit_usd - r.unused_usd,
				  r.commit_usd - r.unused_usd);
		bill_settled_line(m, h, serving, OPTION_SAVINGS_PLAN, CHARGE_UNUSED, 0, r.unused_usd, r.unused_usd);
		off_used = r.covered_usd[SAVINGS_ODCR_USED] + r.ri_covered_usd[SAVINGS_ODCR_USED];
		off_unused = r.covered_usd[SAVINGS_ODCR_UNUSED] + r.ri_covered_usd[SAVINGS_ODCR_UNUSED];
		used_odcr = u->usd[SAVINGS_ODCR_USED] - off_used;
		unused_odcr = u->usd[SAVINGS_ODCR_UNUSED] - off_unused;
		for (int v = 0; v < METER_USERS; v++) {
			part[v] = s[v][SAVINGS_ODCR_USED];
			m->user_cost_usd[v][OPTION_ODCR] -= off_used * s[v][SAVINGS_ODCR_USED] +
							    off_unused * s[v][SAVINGS_ODCR_UNUSED];
		}
		bill_add(m, 0, h, part, OPTION_ODCR, CHARGE_USED, 1, used_odcr / od, used_odcr, used_odcr);
		for (int v = 0; v < METER_USERS; v++)
			part[v] = s[v][SAVINGS_ODCR_UNUSED];
		bill_add(m, 0, h, part, OPTION_ODCR, CHARGE_UNUSED, 1, unused_odcr / od, unused_odcr, unused_odcr);
	}
}

static const char *const charge_kind_names[CHARGE_KIND_COUNT] = { "usage", "used", "unused", "upfront" };

/* Add bill line l (clock hour h, user u, option o, kind k) to the batch, handing a full batch to the sink;
 * returns the rows now in the batch (0 after a sink failure). */
static int emit_line(struct meter *m, int n, int h, int u, int o, int k)
{
	const struct meter_bill_line *l = &m->bill[meter_bill_index(h, u, o, k)];
	int64_t t0 = (int64_t)h * SIM_US_PER_H - m->hour_phase_us, t1 = t0 + SIM_US_PER_H;
	struct sink_charge *c;

	/* settlement dust (1e-12 of a dollar) is no bill line */
	if (fabs(l->effective_usd) < 1e-9 && fabs(l->billed_usd) < 1e-9 && fabs(l->quantity_h) < 1e-9)
		return n;
	if (n == METER_BATCH) {
		sink_status(m, m->sink.ops->charges(m->sink.self, m->charge_rows, (size_t)n));
		n = 0;
		if (m->status != STATUS_OK)
			return 0;
	}
	if (t0 < 0)
		t0 = 0;
	if (t1 > m->horizon_us)
		t1 = m->horizon_us;
	c = &m->charge_rows[n++];
	c->hour = h;
	c->start_unix_s = (double)(m->start_unix_us + t0) / SIM_US_PER_S;
	c->end_unix_s = (double)(m->start_unix_us + t1) / SIM_US_PER_S;
	c->option = option_kind_name((enum option_kind)o);
	c->kind = charge_kind_names[k];
	c->use = meter_user_names[u];
	c->quantity_h = l->quantity_h;
	c->list_usd = l->list_usd;
	c->billed_usd = l->billed_usd;
	c->effective_usd = l->effective_usd;
	return n;
}

int meter_emit_bill(struct meter *m)
{
	int n = 0;

	for (int h = 0; h < m->nhours && m->status == STATUS_OK; h++)
		for (int u = 0; u < METER_USERS && m->status == STATUS_OK; u++)
			for (int o = 0; o < OPTION_KIND_COUNT && m->status == STATUS_OK; o++)
				for (int k = 0; k < CHARGE_KIND_COUNT && m->status == STATUS_OK; k++)
					n = emit_line(m, n, h, u, o, k);
	if (n > 0 && m->status == STATUS_OK)
		sink_status(m, m->sink.ops->charges(m->sink.self, m->charge_rows, (size_t)n));
	return m->status;
}

