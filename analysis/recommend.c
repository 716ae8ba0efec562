/* recommend: see recommend.h. */
#include "recommend.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "scenario.h"
#include "status.h"
#include "store.h"
#include "world.h"
#include "yamldoc.h"

#define TERM_1Y_H 8760.0   /* 365 days (SOURCES.md [ri-terms]) */
#define TERM_3Y_H 26280.0  /* 1095 days */
#define OWN_SETS_MAX (RECOMMEND_VARY_MAX + 4)                 /* the settings a run of the search makes */
#define SETS_MAX (OWN_SETS_MAX + RECOMMEND_SETS_MAX)          /* and the --set overrides */

/* How a candidate's Savings Plan is billed. */
enum sp_mode {
	SP_OPTIMISE,   /* the cheapest commitment for its own usage (recommend_sp_optimum), billed from it */
	SP_AT,         /* a given commitment (0: no plan), billed from the usage */
	SP_SIMULATED   /* the given commitment set in the scenario (> 0): the bill as simulated */
};

/* What one search needs, shared by its candidates. */
struct ctx {
	const struct recommend_opts *o;
	struct recommend_result *r;
	struct diag *d;
	struct store *st;        /* --db, or NULL */
	uint64_t seed;           /* the scenario's seed: replication k runs seed + k */
	double scale_rate;       /* the scenario's own scale_rate */
	int sp_index;            /* fleet index of the savings_plan entry, -1 if none */
	double sp_loaded_usd_per_h;  /* its commitment as the scenario sets it */
	double sp_discount;
	int64_t *ids;            /* --db, in a search: the run ids of the candidate being evaluated (reps) */
	char session[160];       /* --db, in a search: its recommend_session label ("" until its first run) */
	int64_t session_run;     /* the run that carries the session's recommend_session_state label; 0: none yet */
	char name[128];          /* the scenario's name */
	char (*set_key)[YAMLDOC_PATH_MAX];  /* the --set overrides' keys, as yamldoc_set_key writes them (owned) */
	bool as_max_stated;      /* the scenario states autoscaling.max, under a policy */
	long as_max;             /* autoscaling.max as loaded */
	long capacity;           /* what the fleet entries hold as loaded, in autoscaling.max's units */
	int level_loaded[RECOMMEND_VARY_MAX];  /* per varied entry: its count or max as loaded */
	int unit[RECOMMEND_VARY_MAX];          /* per varied entry: autoscaling.max units one instance counts
	                                          for (0: an entry for jobs only) */
};

/* One replication's figures. */
struct rep {
	double cost_meas_usd;    /* cost of the measured window, as simulated */
	double measured_h;
	double violation;
	double slo_met;          /* 1, 0, or NaN when the run states no verdict */
	double floor;            /* slo_violation_rate_floor (0 when no request was measured) */
	char unreachable[256];   /* the run's slo_unreachable warning, "" when it has none */
	char at_max[256];        /* its fleet_at_max warning, "" when it has none */
	struct savings_hour *hours;  /* eligible usage by hour (owned) */
	int nhours;
};

/*
 * The key is read as an override reads it (yamldoc_set_key: "fleet.00.count" is entry 0) and kept in
 * that one spelling, so that two --vary of one entry are found (recommend_run) and its runs' --set name it
 * as the search does.
 */
int recommend_parse_vary(const char *text, struct recommend_vary *v, struct diag *d)
{
	const char *eq = strchr(text, '=');
	char key[sizeof v->key], canon[YAMLDOC_PATH_MAX], tail[8], what[8];
	int idx, lo, hi, step = 1, n = 0;

	memset(v, 0, sizeof *v);
	if (!eq || (size_t)(eq - text) >= sizeof key)
		goto bad;
	memcpy(key, text, (size_t)(eq - text));
	key[eq - text] = '\0';
	if (!yamldoc_set_key(key, canon, sizeof canon) || sscanf(canon, "fleet.%d.%5[a-z]%n", &idx, what, &n) != 2 ||
	    canon[n] || idx < 0 || (strcmp(what, "count") != 0 && strcmp(what, "max") != 0))
		goto bad;
	v->max = strcmp(what, "max") == 0;
	snprintf(v->key, sizeof v->key, "fleet.%d.%s", idx, what);
	if (strcmp(v->key, canon) != 0)  /* "fleet.+1.count": sscanf reads it, an override does not */
		goto bad;
	n = sscanf(eq + 1, "%d..%d%7s", &lo, &hi, tail);
	if (n == 3 && sscanf(eq + 1, "%d..%d:%d%7s", &lo, &hi, &step, tail) != 3)
		goto bad;
	if (n < 2 || lo < 0 || hi < lo || step < 1)
		goto bad;
	v->text = text;
	v->fleet_index = idx;
	v->lo = lo;
	v->hi = hi;
	v->step = step;
	return STATUS_OK;
bad:
	return diag_fail(d, STATUS_EINPUT, "--vary '%s': expected fleet.I.count=LO..HI[:STEP] (or fleet.I.max=...) "
			 "with integers 0 <= LO <= HI and STEP >= 1", text);
}

/* Sort helper: descending by breakpoint. */
struct bp {
	double b;  /* (1 - d) u_h / len_h */
	double w;  /* len_h */
};

static int bp_desc(const void *a, const void *b)
{
	double x = ((const struct bp *)a)->b, y = ((const struct bp *)b)->b;
	return (x < y) - (x > y);
}

/* The bill's change from a plan of commit c on hours: commitment charged less usage it covered. */
static double sp_delta(const struct savings_hour *hours, int n, double c, double discount, double *util)
{
	struct savings_plan_terms plan = { .commit_usd_per_h = c, .discount = discount };
	struct savings_result res;
	double covered = 0;

	if (c <= 0 || n == 0) {
		if (util)
			*util = NAN;
		return 0;
	}
	savings_settle(hours, n, &plan, 1, &res);
	for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
		covered += res.covered_usd[k];
	if (util)
		*util = res.commit_usd > 0 ? (res.commit_usd - res.unused_usd) / res.commit_usd : NAN;
	return res.commit_usd - covered;
}

int recommend_sp_optimum(const struct savings_hour *hours, int n, double discount, double *usd_per_h)
{
	struct bp *bp = malloc(sizeof *bp * (size_t)(n > 0 ? n : 1));
	double total_w = 0, above = 0, best = 0, lo, hi;

	if (!bp)
		return STATUS_ENOMEM;
	for (int h = 0; h < n; h++) {
		double u = 0;
		for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
			u += hours[h].usd[k];
		bp[h].b = (1 - discount) * u / hours[h].len_h;
		bp[h].w = hours[h].len_h;
		total_w += bp[h].w;
	}
	qsort(bp, (size_t)n, sizeof *bp, bp_desc);
	/* walk the distinct breakpoints downwards; F(v) = weight strictly above v; keep the last v with
	 * F(v) <= (1 - d) W (F only grows as v falls) */
	for (int i = 0; i < n;) {
		double v = bp[i].b, group = 0;
		if (v <= 0 || above > (1 - discount) * total_w * (1 + 1e-12))
			break;
		best = v;
		for (; i < n && bp[i].b == v; i++)
			group += bp[i].w;
		above += group;
	}
	/* below the smallest positive breakpoint F is the weight of every hour with usage: when that too is at
	 * most (1 - d) W, the slope is >= 0 from c = 0 on and no plan is the cheapest */
	if (above <= (1 - discount) * total_w * (1 + 1e-12))
		best = 0;
	free(bp);
	/* on the grid of cents: f is convex, so the best cent is one of the two around the exact minimiser */
	lo = floor(best * 100 + 1e-9) / 100;
	hi = ceil(best * 100 - 1e-9) / 100;
	if (hi > lo && sp_delta(hours, n, hi, discount, NULL) < sp_delta(hours, n, lo, discount, NULL) - 1e-9)
		lo = hi;
	*usd_per_h = lo;
	return STATUS_OK;
}

/*
 * The --set texts of replication k of counts (and commit c when > 0) at scale: the search's own settings,
 * then the --set overrides of the other keys (one of a key set here gave the base its value; this run's
 * replaces it).
 */
static int make_sets(const struct ctx *x, const int *counts, double scale, double commit, int k,
		     char buf[OWN_SETS_MAX][96], const char *sets[SETS_MAX])
{
	int n = 0, own;

	for (int i = 0; i < x->o->nvary; i++)
		snprintf(buf[n++], 96, "%s=%d", x->o->vary[i].key, counts[i]);
	snprintf(buf[n++], 96, "seed=%" PRIu64, x->seed + (uint64_t)k);
	snprintf(buf[n++], 96, "workload.arrivals.scale_rate=%.17g", scale);
	if (commit > 0)
		snprintf(buf[n++], 96, "fleet.%d.commit_usd_per_h=%.2f", x->sp_index, commit);
	if (x->as_max_stated) {  /* a stated autoscaling.max above what these levels hold is lowered to it */
		long capacity = x->capacity;
		for (int i = 0; i < x->o->nvary; i++)
			capacity += (long)(counts[i] - x->level_loaded[i]) * x->unit[i];
		if (capacity < x->as_max)
			snprintf(buf[n++], 96, "autoscaling.max=%ld", capacity > 0 ? capacity : 0);
	}
	for (int i = 0; i < n; i++)
		sets[i] = buf[i];
	own = n;
	for (int u = 0; u < x->o->nsets; u++) {
		bool mine = false;
		for (int i = 0; i < own && !mine; i++)
			mine = strncmp(buf[i], x->set_key[u], strlen(x->set_key[u])) == 0 &&
			       buf[i][strlen(x->set_key[u])] == '=';
		if (!mine)
			sets[n++] = x->o->sets[u];
	}
	return n;
}

/*
 * Run replication k; fill *rp (rp->hours owned on success). *invalid is set when the candidate's scenario
 * does not load (STATUS_EINPUT, the loader's message in the diag): the base loaded, so its levels are at fault.
 */
static int run_rep(struct ctx *x, const int *counts, double scale, double commit, int k, struct rep *rp,
		   bool *invalid)
{
	char buf[OWN_SETS_MAX][96], *label = NULL;
	const char *sets[SETS_MAX], *labels[1];
	int nsets = make_sets(x, counts, scale, commit, k, buf, sets), rc;
	struct scenario sc;
	struct world_report *rep = calloc(1, sizeof *rep);
	struct sink sink = sink_null;

	if (!rep)
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	rc = scenario_load(&sc, x->o->scenario, sets, nsets, x->d);
	*invalid = rc == STATUS_EINPUT;
	if (rc)
		goto out_report;
	if (x->st) {
		size_t size = sizeof "recommend=", o;
		for (int i = 0; i < nsets; i++)
			size += strlen(sets[i]) + 1;
		if (!(labels[0] = label = malloc(size))) {
			rc = diag_fail(x->d, STATUS_ENOMEM, "out of memory");
			goto out_scenario;
		}
		o = (size_t)snprintf(label, size, "recommend=");
		for (int i = 0; i < nsets; i++)
			o += (size_t)snprintf(label + o, size - o, "%s%s", i ? " " : "", sets[i]);
		sink = store_sink(x->st, x->d);
		store_set_labels(x->st, labels, 1);
	}
	rc = world_run_usage(&sc, &sink, GPUCAP_VERSION, rep, &rp->hours, &rp->nhours, x->d);
	x->r->runs++;
	if (rc)
		goto out_scenario;
	if (x->st && x->ids) {
		x->ids[k] = store_last_run_id(x->st);
		if (!x->session[0])
			snprintf(x->session, sizeof x->session, "%s#%" PRId64, x->name, x->ids[k]);
	}
	rp->cost_meas_usd = world_report_get(rep, "cost_measured_usd");
	rp->measured_h = world_report_get(rep, "measured_s") / 3600;
	rp->violation = world_report_get(rep, "slo_violation_rate");
	rp->slo_met = world_report_get(rep, "slo_met");
	rp->floor = world_report_get(rep, "slo_violation_rate_floor");
	if (isnan(rp->violation))
		rp->violation = 0;  /* no measured request: nothing violated */
	if (isnan(rp->floor))
		rp->floor = 0;
	for (int w = 0; w < rep->nwarnings; w++) {
		if (strcmp(rep->warnings[w].code, "slo_unreachable") == 0)
			snprintf(rp->unreachable, sizeof rp->unreachable, "%s", rep->warnings[w].message);
		if (strcmp(rep->warnings[w].code, "fleet_at_max") == 0)
			snprintf(rp->at_max, sizeof rp->at_max, "%s", rep->warnings[w].message);
	}
out_scenario:
	scenario_fini(&sc);
	free(label);
out_report:
	free(rep);
	return rc;
}

/* Pool the replications' hours (one long profile: the commitment minimising the mean bill). */
static int pooled_optimum(const struct ctx *x, const struct rep *reps, int n, double *c)
{
	int total = 0, at = 0, rc;
	struct savings_hour *all;

	for (int k = 0; k < n; k++)
		total += reps[k].nhours;
	all = calloc((size_t)(total > 0 ? total : 1), sizeof *all);
	if (!all)
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	for (int k = 0; k < n; k++) {
		memcpy(all + at, reps[k].hours, sizeof *all * (size_t)reps[k].nhours);
		at += reps[k].nhours;
	}
	rc = recommend_sp_optimum(all, total, x->sp_discount, c);
	free(all);
	return rc ? diag_fail(x->d, rc, "out of memory") : STATUS_OK;
}

/* Means, spread and the verdict of a candidate from its replications' term costs. */
static void summarise(const struct ctx *x, const struct rep *reps, const double *cost, const double *util,
		      struct recommend_candidate *c)
{
	int n = x->o->replications;
	double term[RECOMMEND_REPS_MAX], sum_w = 0, sum_h = 0, sum_u = 0, sum_v = 0, sum_f = 0;
	int nu = 0;

	c->violation_worst = 0;
	c->slo_met_reps = 0;
	c->slo_unreachable = false;
	c->at_max_reps = 0;
	c->warning[0] = '\0';
	for (int k = 0; k < n; k++) {
		sum_f += reps[k].floor;
		if (x->o->slo != RECOMMEND_SLO_RATE && reps[k].unreachable[0] && !c->slo_unreachable) {
			c->slo_unreachable = true;
			snprintf(c->warning, sizeof c->warning, "%s", reps[k].unreachable);
		}
		if (reps[k].at_max[0] && !c->at_max_reps++ && !c->slo_unreachable)
			snprintf(c->warning, sizeof c->warning, "%s", reps[k].at_max);
	}
	if (x->o->slo == RECOMMEND_SLO_RATE && sum_f / n > x->o->max_violation_rate) {
		c->slo_unreachable = true;
		snprintf(c->warning, sizeof c->warning, "%.3g%% of requests take longer than slo.latency_s on service "
			 "time alone (slo_violation_rate_floor), more than the %.4g%% --max-violation-rate allows: no "
			 "capacity can keep it", 100 * sum_f / n, 100 * x->o->max_violation_rate);
	}
	for (int k = 0; k < n; k++) {
		term[k] = cost[k] / reps[k].measured_h * x->r->term_h;
		sum_w += cost[k];
		sum_h += cost[k] / reps[k].measured_h;
		sum_v += reps[k].violation;
		if (reps[k].violation > c->violation_worst)
			c->violation_worst = reps[k].violation;
		if (reps[k].slo_met > 0)
			c->slo_met_reps++;
		if (!isnan(util[k])) {
			sum_u += util[k];
			nu++;
		}
	}
	c->cost_window_usd = sum_w / n;
	c->cost_per_hour_usd = sum_h / n;
	c->cost_term_usd = c->cost_per_hour_usd * x->r->term_h;
	c->violation_mean = sum_v / n;
	c->sp_utilization = nu ? sum_u / nu : NAN;
	c->cost_term_sd_usd = n > 1 ? gsl_stats_sd(term, 1, (size_t)n) : 0;
	gsl_sort(term, 1, (size_t)n);
	c->cost_term_p90_usd = gsl_stats_quantile_from_sorted_data(term, 1, (size_t)n, 0.9);
	if (x->o->slo == RECOMMEND_SLO_RATE)
		c->feasible = c->violation_mean <= x->o->max_violation_rate;
	else
		c->feasible = c->slo_met_reps == n;
}

/*
 * --db, in a search: label the candidate's runs (x->ids) with the search's session, the candidate's counts
 * ("fleet.0.count=3 fleet.2.count=1", "-" when nothing is varied) and its mean term cost.
 */
static int label_candidate(struct ctx *x, const struct recommend_candidate *c)
{
	char counts[RECOMMEND_VARY_MAX * 80 + 2] = "-", cost[40];
	int n = x->o->replications, o = 0, rc;

	for (int i = 0; i < x->o->nvary; i++)
		o += snprintf(counts + o, sizeof counts - (size_t)o, "%s%s=%d", i ? " " : "", x->o->vary[i].key,
			      c->counts[i]);
	snprintf(cost, sizeof cost, "%.17g", c->cost_term_usd);
	rc = store_label_runs(x->st, x->ids, n, "recommend_session", x->session, x->d);
	if (!rc)
		rc = store_label_runs(x->st, x->ids, n, "recommend_candidate", counts, x->d);
	if (!rc)
		rc = store_label_runs(x->st, x->ids, n, "recommend_term_cost_usd", cost, x->d);
	/* the session is stored as its candidates end: it says it is incomplete until the search ends */
	if (!rc && !x->session_run) {
		rc = store_label_runs(x->st, x->ids, 1, "recommend_session_state", "incomplete", x->d);
		x->session_run = rc ? 0 : x->ids[0];
	}
	return rc;
}

/* c's scenario does not load: keep the loader's message (in the diag) as its reason, and no figures. */
static void mark_invalid(struct ctx *x, struct recommend_candidate *c)
{
	c->invalid = true;
	c->feasible = false;
	snprintf(c->why, sizeof c->why, "%s", x->d->msg);
	diag_clear(x->d);
	c->sp_usd_per_h = c->cost_window_usd = c->cost_per_hour_usd = c->cost_term_usd = NAN;
	c->cost_term_p90_usd = c->cost_term_sd_usd = c->violation_mean = c->violation_worst = NAN;
	c->sp_utilization = NAN;
}

/* Simulate counts at scale over the replications and bill its Savings Plan as mode says (commit: the
 * SP_AT / SP_SIMULATED commitment). */
static int evaluate(struct ctx *x, const int *counts, double scale, enum sp_mode mode, double commit,
		    struct recommend_candidate *c)
{
	int n = x->o->replications, rc = STATUS_OK, done = 0;
	struct rep *reps = calloc((size_t)n, sizeof *reps);
	double cost[RECOMMEND_REPS_MAX], util[RECOMMEND_REPS_MAX];

	if (!reps)
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	memset(c, 0, sizeof *c);
	memcpy(c->counts, counts, sizeof c->counts);
	for (; done < n; done++) {
		bool invalid = false;
		rc = run_rep(x, counts, scale, mode == SP_SIMULATED ? commit : 0, done, &reps[done], &invalid);
		if (rc && invalid) {  /* not a failure: an infeasible candidate, and the search goes on */
			mark_invalid(x, c);
			rc = STATUS_OK;
			goto out_reps;
		}
		if (rc)
			goto out_reps;
		if (x->o->slo != RECOMMEND_SLO_RATE && isnan(reps[done].slo_met)) {
			rc = diag_fail(x->d, STATUS_EINPUT, "%s states no SLO verdict (slo.max_violation_rate or a "
				       "percentile SLO): give --max-violation-rate R", x->o->scenario);
			goto out_reps;
		}
	}
	c->sp_usd_per_h = x->sp_index >= 0 ? commit : NAN;
	if (x->sp_index >= 0 && mode == SP_OPTIMISE && (rc = pooled_optimum(x, reps, n, &c->sp_usd_per_h)))
		goto out_reps;
	for (int k = 0; k < n; k++) {
		cost[k] = reps[k].cost_meas_usd;
		util[k] = NAN;
		if (x->sp_index < 0)
			continue;
		if (mode == SP_SIMULATED) {
			sp_delta(reps[k].hours, reps[k].nhours, commit, x->sp_discount, &util[k]);
			continue;
		}
		/* the bill without the scenario's plan, then with the chosen one (meter_settle's arithmetic) */
		cost[k] += sp_delta(reps[k].hours, reps[k].nhours, c->sp_usd_per_h, x->sp_discount, &util[k]) -
			   sp_delta(reps[k].hours, reps[k].nhours, x->sp_loaded_usd_per_h, x->sp_discount, NULL);
	}
	summarise(x, reps, cost, util, c);
	if (x->st && x->ids)
		rc = label_candidate(x, c);
out_reps:
	for (int k = 0; k < n; k++)
		free(reps[k].hours);
	free(reps);
	return rc;
}

/*
 * Why s has no choice: slo_unreachable when every valid candidate is (capacity cannot help), else
 * fleet_at_max when every valid candidate sat at the fleet's maximum, else none in the range searched.
 */
static void none_why(struct recommend_search *s)
{
	int valid = 0, unreachable = 0, at_max = 0, last_at_max = -1;

	s->none = RECOMMEND_CHOSEN;
	s->none_why[0] = '\0';
	if (s->best >= 0)
		return;
	for (int i = 0; i < s->ncands; i++) {
		if (s->cands[i].invalid)
			continue;
		valid++;
		unreachable += s->cands[i].slo_unreachable;
		if (s->cands[i].at_max_reps > 0) {
			at_max++;
			last_at_max = i;
		}
	}
	s->none = RECOMMEND_NONE_IN_RANGE;
	if (valid && unreachable == valid) {
		s->none = RECOMMEND_SLO_UNREACHABLE;
		for (int i = 0; i < s->ncands && !s->none_why[0]; i++)
			if (!s->cands[i].invalid)
				snprintf(s->none_why, sizeof s->none_why, "%s", s->cands[i].warning);
	} else if (valid && at_max == valid) {
		s->none = RECOMMEND_FLEET_AT_MAX;
		snprintf(s->none_why, sizeof s->none_why, "%s", s->cands[last_at_max].warning);
	}
}

/* Levels of vary v. */
static int levels(const struct recommend_vary *v)
{
	return (v->hi - v->lo) / v->step + 1;
}

/*
 * The grid, outer dimensions in full, the last one ascending with pruning: once a feasible level costs
 * more (mean term cost) than the feasible level before it, the rest of that line is skipped. This assumes
 * the mean term cost is convex (more generally: falls, then rises) in the last count over its feasible
 * levels, and that more capacity does not break the SLO; on such a curve the first rise follows the minimum.
 */
static int search(struct ctx *x, double scale, struct recommend_search *s)
{
	const struct recommend_opts *o = x->o;
	int nv = o->nvary, total = 1, idx[RECOMMEND_VARY_MAX] = { 0 }, rc;
	int inner = nv ? levels(&o->vary[nv - 1]) : 1;
	int64_t *ids = NULL;

	memset(s, 0, sizeof *s);
	s->scale_rate = scale;
	s->best = -1;
	for (int i = 0; i < nv; i++)
		total *= levels(&o->vary[i]);
	s->cands = calloc((size_t)total, sizeof *s->cands);
	if (!s->cands)
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	x->session[0] = 0;
	x->session_run = 0;
	if (x->st && !(ids = calloc((size_t)total * (size_t)o->replications, sizeof *ids)))
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	for (int line = 0; line < total / inner; line++) {
		double prev = NAN;
		for (int j = 0; j < inner; j++) {
			int counts[RECOMMEND_VARY_MAX] = { 0 }, rest = line;
			struct recommend_candidate *c = &s->cands[s->ncands];

			for (int i = nv - 2; i >= 0; i--) {
				idx[i] = rest % levels(&o->vary[i]);
				rest /= levels(&o->vary[i]);
			}
			for (int i = 0; i < nv - 1; i++)
				counts[i] = o->vary[i].lo + idx[i] * o->vary[i].step;
			if (nv)
				counts[nv - 1] = o->vary[nv - 1].lo + j * o->vary[nv - 1].step;
			x->ids = ids ? ids + (size_t)s->ncands * (size_t)o->replications : NULL;
			rc = evaluate(x, counts, scale, SP_OPTIMISE, 0, c);
			x->ids = NULL;
			if (rc)
				goto out;
			s->ncands++;
			s->invalid += c->invalid;
			if (c->feasible && (s->best < 0 || c->cost_term_usd < s->cands[s->best].cost_term_usd))
				s->best = s->ncands - 1;
			if (!c->feasible)
				continue;
			if (!isnan(prev) && c->cost_term_usd > prev) {
				s->pruned += inner - j - 1;
				break;
			}
			prev = c->cost_term_usd;
		}
	}
	none_why(s);
	rc = STATUS_OK;
	if (ids && s->best >= 0)  /* the choice: recommend_choice=1 on its runs */
		rc = store_label_runs(x->st, ids + (size_t)s->best * (size_t)o->replications, o->replications,
				      "recommend_choice", "1", x->d);
	if (!rc && x->session_run)  /* last: a session killed before here stays incomplete */
		rc = store_label_runs(x->st, &x->session_run, 1, "recommend_session_state", "complete", x->d);
out:
	free(ids);
	return rc;
}

/*
 * Whether the scenario's text with the --set overrides writes autoscaling.max (the loader's default, the
 * entries' max added up, follows a varied max by itself).
 */
static int states_as_max(struct ctx *x, const struct scenario *sc, bool *stated)
{
	struct yamldoc y = { 0 };
	struct yamldoc_ref root, as, max;
	int rc = yamldoc_open(&y, sc->text, strlen(sc->text), x->o->scenario, x->d);

	if (!rc)
		rc = yamldoc_apply_sets(&y, x->o->sets, x->o->nsets, "catalog");
	if (!rc) {
		yamldoc_root(&y, &root);
		yamldoc_child(&root, "autoscaling", &as);
		yamldoc_child(&as, "max", &max);
		*stated = max.node != NULL;
	}
	yamldoc_close(&y);
	return rc;
}

/* Check the varied entries and the plan against the scenario; fill the rates and the term. */
static int inspect(struct ctx *x, const struct scenario *sc)
{
	const struct recommend_opts *o = x->o;
	struct recommend_result *r = x->r;
	bool three = false, as_max_stated = false;
	int plans = 0, rc, per = sc->copies.enabled ? sc->copies.per_instance : 1;

	if ((rc = states_as_max(x, sc, &as_max_stated)))
		return rc;
	/* as scenario_finish.c adds up what the fleet holds: the max of every entry that serves */
	x->as_max_stated = as_max_stated && sc->autoscaling.policy != POLICY_NONE;
	x->as_max = sc->autoscaling.max;
	x->capacity = 0;
	for (int i = 0; i < sc->nfleet; i++)
		x->capacity += sc->fleet[i].use != USE_JOBS ? (long)sc->fleet[i].max * sc->fleet[i].weight * per : 0;
	for (int v = 0; v < o->nvary && o->vary[v].fleet_index < sc->nfleet; v++) {
		const struct fleet_entry *e = &sc->fleet[o->vary[v].fleet_index];
		x->unit[v] = e->use != USE_JOBS ? e->weight * per : 0;
		x->level_loaded[v] = e->count;  /* = max for a commitment; a varied max below */
	}
	r->od_usd_per_h = sc->serving.od_usd_per_h;
	for (int i = 0; i < sc->nfleet; i++)
		if (sc->fleet[i].option == OPTION_ON_DEMAND) {
			r->od_usd_per_h = sc->fleet[i].usd_per_h;
			break;
		}
	x->sp_index = -1;
	r->sp_discount = NAN;
	for (int i = 0; i < sc->nfleet; i++) {
		if (sc->fleet[i].option != OPTION_SAVINGS_PLAN)
			continue;
		if (plans++)
			return diag_fail(x->d, STATUS_EINPUT, "%s: recommend chooses one Savings Plan; fleet.%d is a "
					 "second savings_plan entry", o->scenario, i);
		x->sp_index = i;
		x->sp_loaded_usd_per_h = sc->fleet[i].commit_usd_per_h;
		x->sp_discount = r->sp_discount = sc->fleet[i].discount;
		three |= sc->fleet[i].term == TERM_3Y;
	}
	for (int v = 0; v < o->nvary; v++) {
		const struct recommend_vary *vy = &o->vary[v];
		const struct fleet_entry *e;
		for (int w = 0; w < v; w++)
			if (o->vary[w].fleet_index == vy->fleet_index)
				return diag_fail(x->d, STATUS_EINPUT, "--vary %s: %s is already varied by --vary %s; "
						 "expected each entry once", vy->text, vy->key, o->vary[w].text);
		if (vy->fleet_index >= sc->nfleet)
			return diag_fail(x->d, STATUS_EINPUT, "--vary %s: %s has %d fleet entries", vy->key,
					 o->scenario, sc->nfleet);
		e = &sc->fleet[vy->fleet_index];
		r->vary_kind[v] = e->option;
		if (vy->max) {
			if (e->option != OPTION_ON_DEMAND && e->option != OPTION_SPOT)
				return diag_fail(x->d, STATUS_EINPUT, "--vary %s: fleet.%d is %s; expected an on_demand "
						 "or spot entry for a max (a commitment's count: fleet.%d.count)", vy->key,
						 vy->fleet_index, option_kind_name(e->option), vy->fleet_index);
			x->level_loaded[v] = e->max;
			r->break_even[v] = NAN;
			continue;
		}
		if (e->option != OPTION_RESERVED && e->option != OPTION_ODCR && e->option != OPTION_CAPACITY_BLOCK)
			return diag_fail(x->d, STATUS_EINPUT, "--vary %s: fleet.%d is %s; expected a reserved, odcr "
					 "or capacity_block entry (or, for an on_demand or spot entry, fleet.%d.max)", vy->key,
					 vy->fleet_index, option_kind_name(e->option), vy->fleet_index);
		three |= e->term == TERM_3Y;
		/* the effective hourly rate: reserved pays upfront over the term's hours (option_reserved.c) */
		r->break_even[v] = (e->usd_per_h + (e->option == OPTION_RESERVED ? e->upfront_usd /
				    (e->term == TERM_3Y ? TERM_3Y_H : TERM_1Y_H) : 0)) / r->od_usd_per_h;
	}
	r->term_h = three ? TERM_3Y_H : TERM_1Y_H;
	x->seed = sc->seed;
	snprintf(x->name, sizeof x->name, "%s", sc->name);
	x->scale_rate = sc->arrivals.scale_rate;
	return STATUS_OK;
}

/* The scenario with the --set overrides: its figures, and the overrides' keys (as the loader took them). */
static int load_base(struct ctx *x)
{
	struct scenario sc;
	int rc = scenario_load(&sc, x->o->scenario, x->o->sets, x->o->nsets, x->d);

	if (rc)
		return rc;
	rc = inspect(x, &sc);
	scenario_fini(&sc);
	if (rc)
		return rc;
	x->set_key = calloc((size_t)(x->o->nsets > 0 ? x->o->nsets : 1), sizeof *x->set_key);
	if (!x->set_key)
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	for (int u = 0; u < x->o->nsets; u++) {
		const char *eq = strchr(x->o->sets[u], '=');
		char key[YAMLDOC_PATH_MAX];
		size_t len = eq ? (size_t)(eq - x->o->sets[u]) : 0;
		/* the loader took it, so it is KEY=VALUE with a key yamldoc_set_key reads */
		if (len < sizeof key) {
			memcpy(key, x->o->sets[u], len);
			key[len] = '\0';
			yamldoc_set_key(key, x->set_key[u], sizeof x->set_key[u]);
		}
	}
	return STATUS_OK;
}

int recommend_run(const struct recommend_opts *o, struct recommend_result *r, struct diag *d)
{
	struct ctx x = { .o = o, .r = r, .d = d };
	int od_levels[RECOMMEND_VARY_MAX] = { 0 }, total = 1, rc;
	double base = o->growth_given ? o->growth[1] : 1;

	memset(r, 0, sizeof *r);
	r->base.best = r->low.best = r->high.best = -1;
	for (int i = 0; i < o->nvary; i++)
		total *= levels(&o->vary[i]);
	if (total > RECOMMEND_GRID_MAX)
		return diag_fail(d, STATUS_EINPUT, "the --vary ranges make %d candidates; at most %d", total,
				 RECOMMEND_GRID_MAX);
	if (o->replications < 1 || o->replications > RECOMMEND_REPS_MAX)
		return diag_fail(d, STATUS_EINPUT, "--replications %d: expected 1 to %d", o->replications,
				 RECOMMEND_REPS_MAX);
	if (o->nsets < 0 || o->nsets > RECOMMEND_SETS_MAX)
		return diag_fail(d, STATUS_EINPUT, "at most %d --set options", RECOMMEND_SETS_MAX);
	if ((rc = load_base(&x)) || (o->db && (rc = store_open(&x.st, o->db, d)))) {
		free(x.set_key);
		return rc;
	}
	/* on-demand only: no commitment, no Spot, the most on-demand capacity searched */
	for (int i = 0; i < o->nvary; i++)
		if (o->vary[i].max && r->vary_kind[i] == OPTION_ON_DEMAND)
			od_levels[i] = o->vary[i].lo + (levels(&o->vary[i]) - 1) * o->vary[i].step;
	rc = search(&x, x.scale_rate * base, &r->base);
	if (!rc) {
		rc = evaluate(&x, od_levels, x.scale_rate * base, SP_AT, 0, &r->od);
		r->od_ok = rc == STATUS_OK && !r->od.invalid;
		if (r->od.invalid)  /* that fleet cannot be loaded: say so, and go on */
			snprintf(r->od_why, sizeof r->od_why, "%s", r->od.why);
	}
	if (!rc && r->base.best >= 0) {
		const struct recommend_candidate *b = &r->base.cands[r->base.best];
		r->check = *b;
		if (x.sp_index >= 0 && b->sp_usd_per_h > 0) {
			rc = evaluate(&x, b->counts, x.scale_rate * base, SP_SIMULATED, b->sp_usd_per_h, &r->check);
			r->checked = true;
			if (!rc && r->check.invalid)  /* the plan's commitment, set, is refused: say so */
				rc = diag_fail(d, STATUS_EINPUT, "%s", r->check.why);
		}
	}
	if (!rc && o->growth_given)
		rc = search(&x, x.scale_rate * o->growth[0], &r->low);
	if (!rc && o->growth_given)
		rc = search(&x, x.scale_rate * o->growth[2], &r->high);
	store_close(x.st);
	free(x.set_key);
	return rc;
}

void recommend_result_fini(struct recommend_result *r)
{
	free(r->base.cands);
	free(r->low.cands);
	free(r->high.cands);
	memset(r, 0, sizeof *r);
}
