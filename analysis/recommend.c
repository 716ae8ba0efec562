/* recommend: see recommend.h. */
#include "recommend_private.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runpool.h"
#include "status.h"
#include "store.h"
#include "world.h"
#include "yamldoc.h"



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
	v->commit = strncmp(key, "commitments.", 12) == 0;
	if (!yamldoc_set_key(key, canon, sizeof canon) ||
	    sscanf(canon, v->commit ? "commitments.%d.%5[a-z]%n" : "fleet.%d.%5[a-z]%n", &idx, what, &n) != 2 ||
	    canon[n] || idx < 0 || (strcmp(what, "count") != 0 && (v->commit || strcmp(what, "max") != 0)))
		goto bad;
	v->max = strcmp(what, "max") == 0;
	snprintf(v->key, sizeof v->key, "%s.%d.%s", v->commit ? "commitments" : "fleet", idx, what);
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
	return diag_fail(d, STATUS_EINPUT, "--vary '%s': expected fleet.I.count=LO..HI[:STEP] (or fleet.I.max=..., "
			 "commitments.I.count=...) with integers 0 <= LO <= HI and STEP >= 1", text);
}

/* The day window i of the windows method starts: the middle of its segment of the term, (i + 1/2) x term / n
 * days, in whole weeks (a weekly or daily pattern keeps its phase). */
static double window_day(const struct ctx *x, int i)
{
	return 7 * floor(x->r->term_h / 24 * (i + 0.5) / x->nwin / 7 + 0.5);
}

/*
 * The --set texts of run k of e (replication k / e->per, window k % e->per): the search's own settings, then
 * the --set overrides of the other keys (one of a key set here gave the base its value; this run's replaces
 * it). A varied commitment count is the eval's (0 in a search: its levels are re-billed), the Savings Plan's
 * commitment is set only for SP_SIMULATED; the fluid method runs the term, a window of the windows method
 * runs at the traffic of its day: scale_rate x (1 + growth_per_day)^day.
 */
static int make_sets(const struct ctx *x, const struct eval *e, int k, char buf[OWN_SETS_MAX][96],
		     const char *sets[SETS_MAX])
{
	int n = 0, own, rep = k / e->per;
	double scale = e->scale;

	if (e->method == RECOMMEND_TERM_WINDOWS)
		scale *= pow(1 + x->growth_per_day, window_day(x, k % e->per));
	for (int i = 0; i < x->o->nvary; i++)
		snprintf(buf[n++], 96, "%s=%d", x->o->vary[i].key, e->counts[i]);
	snprintf(buf[n++], 96, "seed=%" PRIu64, x->seed + (uint64_t)rep);
	snprintf(buf[n++], 96, "workload.arrivals.scale_rate=%.17g", scale);
	if (e->mode == SP_SIMULATED && x->sp_index >= 0)
		snprintf(buf[n++], 96, "commitments.%d.commit_usd_per_h=%.2f", x->sp_index, e->commit);
	if (e->method == RECOMMEND_TERM_FLUID) {
		snprintf(buf[n++], 96, "horizon=%.0fd", x->r->term_h / 24);
		snprintf(buf[n++], 96, "mode=fluid");
	}
	if (x->as_max_stated) {  /* a stated autoscaling.max above what these levels hold is lowered to it */
		long capacity = x->capacity;
		for (int i = 0; i < x->o->nvary; i++)
			capacity += (long)(e->counts[i] - x->level_loaded[i]) * x->unit[i];
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
 * --db, at the frontier: label e's runs with its search's session, its levels ("fleet.0.count=3
 * fleet.2.count=1", "-" when nothing is varied) and its mean term cost.
 */
static int label_candidate(struct ctx *x, struct srch *s, const struct eval *e, const struct recommend_candidate *c)
{
	char counts[RECOMMEND_VARY_MAX * 80 + 2] = "-", cost[40];
	int n = e->nruns, o = 0, rc;

	for (int i = 0; i < x->o->nvary; i++)
		o += snprintf(counts + o, sizeof counts - (size_t)o, "%s%s=%d", i ? " " : "", x->o->vary[i].key,
			      c->counts[i]);
	snprintf(cost, sizeof cost, "%.17g", c->cost_term_usd);
	rc = store_label_runs(x->st, e->ids, n, "recommend_session", s->session, x->d);
	if (!rc)
		rc = store_label_runs(x->st, e->ids, n, "recommend_candidate", counts, x->d);
	if (!rc)
		rc = store_label_runs(x->st, e->ids, n, "recommend_term_cost_usd", cost, x->d);
	/* the session is stored as its candidates end: it says it is incomplete until the search ends */
	if (!rc && !s->session_run) {
		static const char *const cases[] = { "base", "low", "high" };  /* x->srch[] order */
		rc = store_label_runs(x->st, e->ids, 1, "recommend_session_state", "incomplete", x->d);
		if (!rc)  /* which traffic case the search is: the report names the sessions by it */
			rc = store_label_runs(x->st, e->ids, 1, "recommend_case", cases[s - x->srch], x->d);
		s->session_run = rc ? 0 : e->ids[0];
	}
	return rc;
}

/* Levels of vary v in the grid of simulated candidates: a commitment's count is re-billed, not simulated. */
static int grid_levels(const struct recommend_vary *v)
{
	return v->commit ? 1 : levels(v);
}

/* The innermost varied entry that changes capacity (a line of the grid runs along it); -1 when none does. */
static int inner_vary(const struct recommend_opts *o)
{
	int i = o->nvary - 1;

	while (i >= 0 && o->vary[i].commit)
		i--;
	return i;
}

/* ---- the search, its runs in worker processes ------------------------------------------------------ */

/*
 * The runs are made by a runpool (--jobs workers, or this process) in whatever order they finish, and taken
 * up again in the order one process made them before there were workers: the base search's candidates in
 * grid order, the on-demand-only plan, the check, then the low and the high searches. That order (the
 * frontier) is where runs are counted, stored with their labels and failures reported, so the figures, the
 * run ids, the labels and the messages do not depend on the number of workers: a candidate's figures come
 * from its own runs only, and a line's pruning from its candidates before. When nothing needed is left to
 * hand out, a line's next candidate is run ahead of the pruning decision, so that workers are not idle; if
 * the pruning then rules it out, its runs are thrown away (never counted nor stored). With one worker
 * nothing is ever run ahead, and the runs are made in the frontier's order.
 */

/* A new candidate evaluation into *out, kept in x->evals. STATUS_OK or STATUS_ENOMEM. */
static int new_eval(struct ctx *x, enum phase ph, int slot, const int *counts, double scale, enum sp_mode mode,
		    double commit, bool exists, struct eval **out)
{
	struct eval *e = calloc(1, sizeof *e);
	enum recommend_term method = x->term;
	int per;

	if (ph == PH_CHECK)  /* a method that follows the term is checked by the other one */
		method = x->r->check_term;
	per = method == RECOMMEND_TERM_WINDOWS ? x->nwin : 1;

	if (e && x->nevals == x->cap_evals) {
		int cap = x->cap_evals ? 2 * x->cap_evals : 64;
		struct eval **p = realloc(x->evals, (size_t)cap * sizeof *p);
		if (p) {
			x->evals = p;
			x->cap_evals = cap;
		}
	}
	if (!e || x->nevals == x->cap_evals || !(e->reps = calloc((size_t)(x->o->replications * per), sizeof *e->reps)) ||
	    (x->st && !(e->ids = calloc((size_t)(x->o->replications * per), sizeof *e->ids)))) {
		if (e)
			free(e->reps);
		free(e);
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	}
	e->index = x->nevals;
	e->phase = ph;
	e->slot = slot;
	memcpy(e->counts, counts, sizeof e->counts);
	e->scale = scale;
	e->mode = mode;
	e->commit = commit;
	e->method = method;
	e->per = per;
	e->nruns = x->o->replications * per;
	e->exists = exists;
	x->evals[x->nevals++] = e;
	*out = e;
	return STATUS_OK;
}

/* Free what the replications of e still hold (their hours, messages and recordings). */
static void free_reps(struct ctx *x, struct eval *e)
{
	if (!e->reps)
		return;
	for (int k = 0; k < e->nruns; k++) {
		struct runpool_result res = { .hours = e->reps[k].hours, .record = e->reps[k].record };
		runpool_result_fini(x->pool, &res);
		free(e->reps[k].msg);
	}
	free(e->reps);
	e->reps = NULL;
}

/* Make the candidate of line l, level j of search s (exists false: run ahead), into *out (may be NULL). */
static int line_eval(struct ctx *x, struct srch *s, int l, int j, bool exists, struct eval **out)
{
	const struct recommend_opts *o = x->o;
	int counts[RECOMMEND_VARY_MAX] = { 0 }, in = inner_vary(o), rest = l, rc;
	struct eval *e;

	/* the capacity levels; a commitment's count stays 0 in the runs (its levels are re-billed) */
	for (int i = o->nvary - 1; i >= 0; i--) {
		int lv = grid_levels(&o->vary[i]);
		if (i == in || o->vary[i].commit)
			continue;
		counts[i] = o->vary[i].lo + rest % lv * o->vary[i].step;
		rest /= lv;
	}
	if (in >= 0)
		counts[in] = o->vary[in].lo + j * o->vary[in].step;
	rc = new_eval(x, s == &x->srch[0] ? PH_BASE : s == &x->srch[1] ? PH_LOW : PH_HIGH, l * s->inner + j, counts,
		      s->scale, SP_OPTIMISE, 0, exists, &e);
	if (rc)
		return rc;
	s->slot[l * s->inner + j] = e;
	s->line[l].next = j + 1;
	if (out)
		*out = e;
	return STATUS_OK;
}

/* Make search s at scale: every line's first candidate. */
static int start_search(struct ctx *x, struct srch *s, struct recommend_search *out, double scale)
{
	const struct recommend_opts *o = x->o;

	s->active = true;
	s->out = out;
	s->scale = scale;
	out->scale_rate = scale;
	out->best = -1;
	s->total = 1;
	for (int i = 0; i < o->nvary; i++)
		s->total *= grid_levels(&o->vary[i]);
	s->inner = inner_vary(o) >= 0 ? levels(&o->vary[inner_vary(o)]) : 1;
	if (!(s->slot = calloc((size_t)s->total, sizeof *s->slot)) ||
	    !(s->line = calloc((size_t)(s->total / s->inner), sizeof *s->line)))
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	for (int l = 0; l < s->total / s->inner; l++) {
		int rc;
		s->line[l].prev = NAN;
		if ((rc = line_eval(x, s, l, 0, true, NULL)))
			return rc;
	}
	return STATUS_OK;
}

/*
 * Every search has finished: the choice by its rule, the ladder, then the check: the choice simulated with its
 * commitments set (when it has a plan or a varied RI, or the term method follows the term; by the other such
 * method then).
 */
static int choose(struct ctx *x)
{
	struct recommend_result *r = x->r;
	const struct recommend_candidate *b;
	bool commits = false;
	int rc;

	if ((rc = recommend_choose_rule(x)))
		return rc;
	if (r->base.best < 0)
		return STATUS_OK;
	if ((rc = recommend_ladder(x)))
		return rc;
	b = &r->base.cands[r->base.best];
	for (int i = 0; i < x->o->nvary; i++)
		commits |= x->o->vary[i].commit && b->counts[i] > 0;
	if (!commits && !(x->sp_index >= 0 && b->sp_usd_per_h > 0) && x->term == RECOMMEND_TERM_WINDOW)
		return STATUS_OK;
	/* a scenario's plan cannot be set to $0 (the loader wants > 0): no plan is billed by taking the
	 * scenario's own off the hours, as the search does (SP_AT 0) */
	return new_eval(x, PH_CHECK, 0, b->counts, r->base.scale_rate,
			x->sp_index >= 0 && b->sp_usd_per_h > 0 ? SP_SIMULATED : SP_AT,
			x->sp_index >= 0 ? b->sp_usd_per_h : 0, true, &x->check);
}

/*
 * Every line of s is done: its candidates in grid order into s->out (each simulated candidate's commitment
 * levels one after the other, in --vary order), the cheapest that keeps the constraint (the first on a tie)
 * and why there is none. When every search is done, the choice (choose).
 */
static int finish_search(struct ctx *x, struct srch *s)
{
	struct recommend_search *out = s->out;
	int n = 0, per = x->ncombos;

	for (int l = 0; l < s->total / s->inner; l++)
		n += s->line[l].decided * per;
	if (!(out->cands = calloc((size_t)(n ? n : 1), sizeof *out->cands)) ||
	    !(s->order = calloc((size_t)(n ? n : 1), sizeof *s->order)))
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	for (int l = 0; l < s->total / s->inner; l++)
		for (int j = 0; j < s->line[l].decided; j++) {
			struct eval *e = s->slot[l * s->inner + j];
			for (int c = 0; c < per; c++) {
				struct recommend_candidate *k = &out->cands[out->ncands];
				struct savings_ri_terms ris[RECOMMEND_VARY_MAX];
				s->order[out->ncands] = e;
				if (e->combos) {
					*k = e->combos[c];
				} else {  /* invalid: every level of it */
					*k = e->c;
					recommend_combo(x, c, k->counts, ris);
				}
				out->invalid += k->invalid;
				out->ncands++;
			}
		}
	out->best = recommend_cheapest(out);
	recommend_none_why(out);
	s->finished = true;
	for (int i = 0; i < 3; i++)
		if (x->srch[i].active && !x->srch[i].finished)
			return STATUS_OK;
	return choose(x);
}

/*
 * Decide line l of s as far as its candidates allow, in order: once a feasible candidate costs more than the
 * feasible one before it, the rest of the line is pruned (a candidate run ahead is dropped); else the next
 * level is made. A candidate that failed stops the line there (the frontier reports it).
 */
static int advance_line(struct ctx *x, struct srch *s, int l)
{
	struct line *ln = &s->line[l];
	int rc;

	if (ln->done)
		return STATUS_OK;
	while (!ln->done) {
		int j = ln->decided;
		struct eval *e = s->slot[l * s->inner + j], *ahead;
		if (!e || !e->decided || (e->stop != STOP_NONE && e->stop != STOP_INVALID))
			return STATUS_OK;
		ln->decided++;
		/* with --growth every candidate is priced in every case (the regret), so nothing is pruned */
		if (e->c.feasible && !isnan(ln->prev) && e->c.cost_term_usd > ln->prev && !x->o->growth_given) {
			s->out->pruned += s->inner - j - 1;
			ln->done = true;
			if (j + 1 < s->inner && (ahead = s->slot[l * s->inner + j + 1])) {
				ahead->dropped = true;
				free_reps(x, ahead);
				s->slot[l * s->inner + j + 1] = NULL;
			}
		} else {
			if (e->c.feasible)
				ln->prev = e->c.cost_term_usd;
			if (j + 1 == s->inner)
				ln->done = true;
			else if ((ahead = s->slot[l * s->inner + j + 1]))
				ahead->exists = true;
			else if ((rc = line_eval(x, s, l, j + 1, true, NULL)))
				return rc;
		}
	}
	if (++s->lines_done == s->total / s->inner)
		return finish_search(x, s);
	return STATUS_OK;
}

/*
 * Every run of e has answered: find where it stopped, if it did, and else bill it and summarise it.
 */
static int decide(struct ctx *x, struct eval *e)
{
	struct recommend_candidate *c = &e->c;
	struct rep *reps = e->reps;
	int rc = STATUS_OK;

	memset(c, 0, sizeof *c);
	memcpy(c->counts, e->counts, sizeof c->counts);
	e->stop = STOP_NONE;
	for (e->stop_k = 0; e->stop_k < e->nruns; e->stop_k++) {
		struct rep *rp = &reps[e->stop_k];
		e->stop_status = rp->status;
		if (rp->status != STATUS_OK) {
			e->stop = !rp->load_failed ? STOP_RUN : rp->status == STATUS_EINPUT ? STOP_INVALID : STOP_LOAD;
			break;
		}
		if (x->o->slo != RECOMMEND_SLO_RATE && isnan(rp->slo_met)) {
			e->stop = STOP_VERDICT;
			e->stop_status = STATUS_EINPUT;
			break;
		}
	}
	if (e->stop == STOP_INVALID)  /* not a failure: an infeasible candidate, and the search goes on */
		recommend_mark_invalid(c, reps[e->stop_k].msg);
	else if (e->stop == STOP_NONE && (rc = recommend_bill_eval(x, e)))
		return rc;
	for (int k = 0; k < e->nruns; k++) {  /* the usage is billed: only the recordings wait for the frontier */
		free(reps[k].hours);
		reps[k].hours = NULL;
	}
	e->decided = true;
	if (srch_of(x, e->phase) && e->exists)
		return advance_line(x, srch_of(x, e->phase), e->slot / srch_of(x, e->phase)->inner);
	return STATUS_OK;
}

/* Take a finished run into its candidate (a dropped one's results are thrown away). */
static int take(struct ctx *x, struct runpool_result *res)
{
	struct eval *e = x->evals[res->tag / RECOMMEND_REPS_MAX];
	struct rep *rp;

	if (e->dropped) {
		runpool_result_fini(x->pool, res);
		return STATUS_OK;
	}
	rp = &e->reps[res->tag % RECOMMEND_REPS_MAX];
	rp->status = res->status;
	rp->load_failed = res->load_failed;
	if (res->status != STATUS_OK) {
		size_t len = strlen(res->msg) + 1;
		if (!(rp->msg = malloc(len))) {
			runpool_result_fini(x->pool, res);
			return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
		}
		memcpy(rp->msg, res->msg, len);
	}
	if (res->status == STATUS_OK) {
		const struct world_report *rep = &res->rep;
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
			if (strcmp(rep->warnings[w].code, "extrapolated_with_growth") == 0)
				snprintf(rp->extrapolated, sizeof rp->extrapolated, "%s", rep->warnings[w].message);
		}
		rp->hours = res->hours;
		rp->nhours = res->nhours;
		rp->record = res->record;
		res->hours = NULL;
		res->record = NULL;
	}
	runpool_result_fini(x->pool, res);
	return ++e->got == e->nruns ? decide(x, e) : STATUS_OK;
}

/*
 * The candidate whose next run to hand out (*out, NULL: none): the earliest (in the frontier's order) that the
 * searches need; else one run ahead; else a line's next candidate, run ahead of its pruning decision.
 */
static int pick(struct ctx *x, struct eval **out)
{
	struct eval *best = NULL;

	for (int pass = 0; pass < 2 && !best; pass++)
		for (int i = 0; i < x->nevals; i++) {
			struct eval *e = x->evals[i];
			if (e->dropped || e->handed == e->nruns || e->exists != (pass == 0))
				continue;
			if (!best || e->phase < best->phase || (e->phase == best->phase && e->slot < best->slot))
				best = e;
		}
	*out = best;
	if (best)
		return STATUS_OK;
	for (int i = 0; i < 3; i++) {
		struct srch *s = &x->srch[i];
		for (int l = 0; s->active && l < s->total / s->inner; l++) {
			struct line *ln = &s->line[l];
			const struct eval *pending;
			if (ln->done || ln->decided >= s->inner)  /* nothing pending on it (its slots end there) */
				continue;
			pending = s->slot[l * s->inner + ln->decided];
			/* one candidate ahead of the one being decided, unless that one has failed */
			if (ln->next == ln->decided + 1 && ln->next < s->inner && pending && !pending->decided)
				return line_eval(x, s, l, ln->next, false, out);
		}
	}
	return STATUS_OK;
}

/* The label "recommend=" + the overrides, space-separated (owned, NULL when out of memory). */
static char *run_label(const char *const *sets, int n)
{
	size_t size = sizeof "recommend=", o;
	char *label;

	for (int i = 0; i < n; i++)
		size += strlen(sets[i]) + 1;
	if (!(label = malloc(size)))
		return NULL;
	o = (size_t)snprintf(label, size, "recommend=");
	for (int i = 0; i < n; i++)
		o += (size_t)snprintf(label + o, size - o, "%s%s", i ? " " : "", sets[i]);
	return label;
}

/* Give every idle worker a run. */
static int hand_out(struct ctx *x)
{
	while (runpool_idle(x->pool) > 0) {
		char buf[OWN_SETS_MAX][96];
		const char *sets[SETS_MAX];
		struct eval *e;
		int k, n, rc;
		if ((rc = pick(x, &e)) || !e)
			return rc;
		k = e->handed++;
		n = make_sets(x, e, k, buf, sets);
		if ((rc = runpool_submit(x->pool, (int64_t)e->index * RECOMMEND_REPS_MAX + k, sets, n, x->d)))
			return rc;
	}
	return STATUS_OK;
}

/*
 * At the frontier: count e's runs, store them (--db) in order with their labels, and stop the search where a
 * run failed, as one process making them in this order would have (a run that states no verdict is stored,
 * then stops it). s: e's search, NULL outside one.
 */
static int settle(struct ctx *x, struct eval *e, struct srch *s)
{
	int n = e->stop == STOP_VERDICT ? e->stop_k + 1 : e->stop_k, rc = STATUS_OK;

	for (int k = 0; k < n && rc == STATUS_OK; k++) {
		char buf[OWN_SETS_MAX][96], *label;
		const char *sets[SETS_MAX];
		int nsets;
		x->r->runs++;
		if (!x->st)
			continue;
		nsets = make_sets(x, e, k, buf, sets);
		if (!(label = run_label(sets, nsets))) {
			rc = diag_fail(x->d, STATUS_ENOMEM, "out of memory");
			break;
		}
		rc = runpool_store(x->pool, &(struct runpool_result){ .record = e->reps[k].record }, sets, nsets, x->st,
				   (const char *const[]){ label }, 1, &e->ids[k], x->d);
		e->reps[k].record = NULL;
		free(label);
		if (!rc && s && !s->session[0])
			snprintf(s->session, sizeof s->session, "%s#%" PRId64, x->name, e->ids[k]);
	}
	if (rc)
		return rc;
	switch (e->stop) {
	case STOP_RUN:
		x->r->runs++;  /* it ran */
		/* fall through */
	case STOP_LOAD:
		return diag_fail(x->d, e->stop_status, "%s", e->reps[e->stop_k].msg);
	case STOP_VERDICT:
		return diag_fail(x->d, STATUS_EINPUT, "%s states no SLO verdict (slo.max_violation_rate or a percentile "
				 "SLO): give --max-violation-rate R", x->o->scenario);
	case STOP_INVALID:
		break;
	case STOP_NONE:
		if (s && x->st)
			rc = label_candidate(x, s, e, &e->c);
		break;
	}
	free_reps(x, e);
	return rc;
}

/*
 * --db, the base search's end: on the choice's runs, how the term was priced (recommend_term_method: window,
 * fluid or windows:N), the rule of the choice (recommend_choose) and, when a ladder costs less, the ladder
 * (recommend_ladder: "KEY=NOW+LATER@HOURS") and what its later purchase still costs after the term
 * (recommend_owed_after_term_usd, 0 without a ladder).
 */
static int label_decision(struct ctx *x, const struct eval *e)
{
	static const char *const choose[] = { "base", "expected", "regret" };
	const struct recommend_ladder *L = &x->r->ladder;
	char method[32], ladder[128], owed[40];
	int rc;

	snprintf(method, sizeof method, x->term == RECOMMEND_TERM_FLUID ? "fluid" : x->term == RECOMMEND_TERM_WINDOWS ?
		 "windows:%d" : "window", x->nwin);
	snprintf(owed, sizeof owed, "%.17g", L->better ? L->owed_usd : 0.0);
	rc = store_label_runs(x->st, e->ids, e->nruns, "recommend_term_method", method, x->d);
	if (!rc)
		rc = store_label_runs(x->st, e->ids, e->nruns, "recommend_choose", choose[x->r->choose], x->d);
	if (!rc)
		rc = store_label_runs(x->st, e->ids, e->nruns, "recommend_owed_after_term_usd", owed, x->d);
	if (!rc && L->better) {
		snprintf(ladder, sizeof ladder, "%s=%d+%d@%.17g", x->o->vary[L->vary].key, L->now, L->later, L->at_h);
		rc = store_label_runs(x->st, e->ids, e->nruns, "recommend_ladder", ladder, x->d);
	}
	return rc;
}

/* --db, a search's end: recommend_choice=1 on the choice's runs, then its session complete (its last write). */
static int end_search(struct ctx *x, struct srch *s)
{
	int rc = STATUS_OK;

	if (x->st && s->out->best >= 0) {
		const struct eval *e = s->order[s->out->best];
		rc = store_label_runs(x->st, e->ids, e->nruns, "recommend_choice", "1", x->d);
		/* its runs stand for every commitment level: they are labelled with the chosen one */
		if (!rc)
			rc = label_candidate(x, s, e, &s->out->cands[s->out->best]);
		if (!rc && s == &x->srch[0])
			rc = label_decision(x, e);
	}
	if (!rc && x->st && s->session_run)  /* last: a session killed before here stays incomplete */
		rc = store_label_runs(x->st, &s->session_run, 1, "recommend_session_state", "complete", x->d);
	return rc;
}

/* Move the frontier as far as the decided candidates allow; x->f_phase is PH_END when all is done. */
static int frontier(struct ctx *x)
{
	struct recommend_result *r = x->r;
	int rc;

	while (x->f_phase != PH_END) {
		struct srch *s = srch_of(x, x->f_phase);
		struct eval *e;
		if (s && s->active) {
			while (x->f_slot < s->total) {
				int l = x->f_slot / s->inner, j = x->f_slot % s->inner;
				if (s->line[l].done && j >= s->line[l].decided) {  /* pruned: the next line */
					x->f_slot = (l + 1) * s->inner;
					continue;
				}
				if (!(e = s->slot[x->f_slot]) || !e->exists || !e->decided)
					return STATUS_OK;
				if ((rc = settle(x, e, s)))
					return rc;
				x->f_slot++;
			}
			/* the base search's choice may follow the others (choose_by_rule): it ends with the check */
			if (s != &x->srch[0] && (rc = end_search(x, s)))
				return rc;
		} else if (x->f_phase == PH_OD) {
			if (!(e = x->od)->decided)
				return STATUS_OK;
			if ((rc = settle(x, e, NULL)))
				return rc;
			r->od = e->c;
			r->od_ok = !e->c.invalid;
			if (e->c.invalid)  /* that fleet cannot be loaded: say so, and go on */
				snprintf(r->od_why, sizeof r->od_why, "%s", e->c.why);
		} else if (x->f_phase == PH_CHECK) {
			if (!x->base_ended && (rc = end_search(x, &x->srch[0])))
				return rc;
			x->base_ended = true;
			if (r->base.best >= 0)
				r->check = r->base.cands[r->base.best];
			if (r->base.best >= 0 && (e = x->check)) {
				if (!e->decided)
					return STATUS_OK;
				if ((rc = settle(x, e, NULL)))
					return rc;
				if (e->c.invalid && e->method != x->term) {  /* the other method refuses the scenario */
					snprintf(r->check_why, sizeof r->check_why, "%s", e->c.why);
				} else if (e->c.invalid) {  /* the commitments, set, are refused: say so */
					return diag_fail(x->d, STATUS_EINPUT, "%s", e->c.why);
				} else {
					r->check = e->c;
					r->checked = true;
				}
			}
		}
		x->f_phase++;
		x->f_slot = 0;
	}
	return STATUS_OK;
}

/* Run the searches: hand out runs, take them back, move the frontier, until it has passed everything. */
static int run_all(struct ctx *x, const int *od_levels, double base)
{
	const struct recommend_opts *o = x->o;
	int rc;

	if ((rc = start_search(x, &x->srch[0], &x->r->base, x->scale_rate * base)) ||
	    (rc = new_eval(x, PH_OD, 0, od_levels, x->scale_rate * base, SP_AT, 0, true, &x->od)))
		return rc;
	if (o->growth_given && ((rc = start_search(x, &x->srch[1], &x->r->low, x->scale_rate * o->growth[0])) ||
				(rc = start_search(x, &x->srch[2], &x->r->high, x->scale_rate * o->growth[2]))))
		return rc;
	for (;;) {
		struct runpool_result res;
		if ((rc = frontier(x)) || x->f_phase == PH_END || (rc = hand_out(x)))
			return rc;
		if (runpool_busy(x->pool) == 0)  /* nothing running, nothing handed out: no worker is left */
			return diag_fail(x->d, STATUS_EINTERNAL, "recommend: no worker process is left to run the search");
		if ((rc = runpool_next(x->pool, &res, x->d)) || (rc = take(x, &res)))
			return rc;
	}
}

/*
 * --db, after everything: the whole result as recommend --json writes it, on the base session's first run
 * (label recommend_result), so the report's decision shows what recommend printed, to the cent. A search
 * killed before here has no such label, and the report says less.
 */
static int store_result(struct ctx *x)
{
	char *json = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!x->st || !x->srch[0].session_run)
		return STATUS_OK;
	if (!(f = open_memstream(&json, &len)))
		return diag_fail(x->d, STATUS_ENOMEM, "recommend: out of memory for its result");
	recommend_write_json(f, x->o, x->r);
	if (fclose(f) != 0) {
		free(json);
		return diag_fail(x->d, STATUS_ENOMEM, "recommend: out of memory for its result");
	}
	if (len > 0 && json[len - 1] == '\n')
		json[len - 1] = 0;
	rc = store_label_runs(x->st, &x->srch[0].session_run, 1, "recommend_result", json, x->d);
	free(json);
	return rc;
}

/* The most runs a search could make: every grid point of each search and the two plans, each replicated. */
static int runs_at_most(const struct recommend_opts *o, int total)
{
	return ((o->growth_given ? 3 : 1) * total + 2) * o->replications;
}

int recommend_run(const struct recommend_opts *o, struct recommend_result *r, struct diag *d)
{
	struct ctx x = { .o = o, .r = r, .d = d };
	int od_levels[RECOMMEND_VARY_MAX] = { 0 }, total = 1, jobs, rc;
	double base = o->growth_given ? o->growth[1] : 1;

	memset(r, 0, sizeof *r);
	r->base.best = r->low.best = r->high.best = -1;
	r->case_best[0] = r->case_best[1] = r->case_best[2] = -1;
	r->choose = o->choose;
	if (o->choose != RECOMMEND_CHOOSE_BASE && !o->growth_given)
		return diag_fail(d, STATUS_EINPUT, "--choose expected or regret needs --growth LOW,BASE,HIGH (the cases "
				 "to weigh)");
	if (o->term_windows != 0 && (o->term_windows < 2 || o->term_windows > 52))
		return diag_fail(d, STATUS_EINPUT, "--term windows:%d: expected 2 to 52 windows", o->term_windows);
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
	if (o->jobs < 0 || o->jobs > RECOMMEND_JOBS_MAX)
		return diag_fail(d, STATUS_EINPUT, "--jobs %d: expected 1 to %d", o->jobs, RECOMMEND_JOBS_MAX);
	jobs = o->jobs < 1 ? 1 : o->jobs < runs_at_most(o, total) ? o->jobs : runs_at_most(o, total);
	/* the workers start before the database is opened: no SQLite connection crosses a fork */
	if ((rc = recommend_load_base(&x)) || (rc = runpool_open(&x.pool, o->scenario, jobs, o->db != NULL, d)) ||
	    (o->db && (rc = store_open(&x.st, o->db, d))))
		goto out;
	/* on-demand only: no commitment, no Spot, the most on-demand capacity searched */
	for (int i = 0; i < o->nvary; i++)
		if (o->vary[i].max && r->vary_kind[i] == OPTION_ON_DEMAND)
			od_levels[i] = o->vary[i].lo + (levels(&o->vary[i]) - 1) * o->vary[i].step;
	rc = run_all(&x, od_levels, base);
	if (!rc)
		rc = store_result(&x);
out:
	for (int i = 0; i < x.nevals; i++) {  /* before the pool: recordings left in its spool */
		free_reps(&x, x.evals[i]);
		free(x.evals[i]->combos);
		recommend_free_terms(x.evals[i]->terms, o->replications);
		free(x.evals[i]->ids);
		free(x.evals[i]);
	}
	free(x.evals);
	runpool_close(x.pool);  /* a run still going (one run ahead and ruled out) is killed */
	for (int i = 0; i < 3; i++) {
		free(x.srch[i].slot);
		free(x.srch[i].order);
		free(x.srch[i].line);
	}
	store_close(x.st);
	free(x.set_key);
	return rc;
}

void recommend_result_fini(struct recommend_result *r)
{
	for (int c = 0; c < 3; c++)
		free(r->case_cost[c]);
	free(r->base.cands);
	free(r->low.cands);
	free(r->high.cands);
	memset(r, 0, sizeof *r);
}
