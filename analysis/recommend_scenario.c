/* recommend_scenario: the scenario with the --set overrides, checked against the options (recommend_private.h). */
#include "recommend_private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "status.h"
#include "world.h"

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
	for (int v = 0; v < o->nvary; v++) {
		const struct fleet_entry *e;
		x->unit[v] = 0;  /* a commitment (commitments.I.count) holds no capacity */
		x->level_loaded[v] = 0;
		if (o->vary[v].commit || o->vary[v].fleet_index >= sc->nfleet)
			continue;
		e = &sc->fleet[o->vary[v].fleet_index];
		x->unit[v] = e->use != USE_JOBS ? e->weight * per : 0;
		x->level_loaded[v] = e->count;  /* = max for a capacity reservation; a varied max below */
	}
	r->od_usd_per_h = sc->serving.od_usd_per_h;
	for (int i = 0; i < sc->nfleet; i++)
		if (sc->fleet[i].option == OPTION_ON_DEMAND) {
			r->od_usd_per_h = sc->fleet[i].usd_per_h;
			break;
		}
	x->sp_index = -1;
	r->sp_discount = NAN;
	for (int i = 0; i < sc->ncommit; i++) {
		if (sc->commit[i].option != OPTION_SAVINGS_PLAN)
			continue;
		if (plans++)
			return diag_fail(x->d, STATUS_EINPUT, "%s: recommend chooses one Savings Plan; commitments.%d "
					 "is a second savings_plan entry", o->scenario, i);
		x->sp_index = i;
		x->sp_loaded_usd_per_h = sc->commit[i].commit_usd_per_h;
		x->sp_discount = r->sp_discount = sc->commit[i].discount;
		three |= sc->commit[i].term == TERM_3Y;
	}
	for (int v = 0; v < o->nvary; v++) {
		const struct recommend_vary *vy = &o->vary[v];
		const struct fleet_entry *e;
		for (int w = 0; w < v; w++)
			if (o->vary[w].fleet_index == vy->fleet_index && o->vary[w].commit == vy->commit)
				return diag_fail(x->d, STATUS_EINPUT, "--vary %s: %s is already varied by --vary %s; "
						 "expected each entry once", vy->text, vy->key, o->vary[w].text);
		if (vy->fleet_index >= (vy->commit ? sc->ncommit : sc->nfleet))
			return diag_fail(x->d, STATUS_EINPUT, "--vary %s: %s has %d %s entries", vy->key,
					 o->scenario, vy->commit ? sc->ncommit : sc->nfleet,
					 vy->commit ? "commitments" : "fleet");
		e = vy->commit ? &sc->commit[vy->fleet_index] : &sc->fleet[vy->fleet_index];
		r->vary_kind[v] = e->option;
		if (vy->commit && e->option != OPTION_RESERVED)
			return diag_fail(x->d, STATUS_EINPUT, "--vary %s: commitments.%d is %s; expected a reserved "
					 "entry (a Savings Plan's commitment is computed, not varied)", vy->key,
					 vy->fleet_index, option_kind_name(e->option));
		if (vy->max) {
			if (e->option != OPTION_ON_DEMAND && e->option != OPTION_SPOT)
				return diag_fail(x->d, STATUS_EINPUT, "--vary %s: fleet.%d is %s; expected an on_demand "
						 "or spot entry for a max (a commitment's count: fleet.%d.count)", vy->key,
						 vy->fleet_index, option_kind_name(e->option), vy->fleet_index);
			x->level_loaded[v] = e->max;
			r->break_even[v] = NAN;
			continue;
		}
		if (!vy->commit && e->option != OPTION_RESERVED && e->option != OPTION_ODCR &&
		    e->option != OPTION_CAPACITY_BLOCK)
			return diag_fail(x->d, STATUS_EINPUT, "--vary %s: fleet.%d is %s; expected a reserved, odcr "
					 "or capacity_block entry (or, for an on_demand or spot entry, fleet.%d.max)", vy->key,
					 vy->fleet_index, option_kind_name(e->option), vy->fleet_index);
		three |= e->term == TERM_3Y;
		/* the effective hourly rate: reserved pays upfront over the term's hours (option_reserved.c) */
		r->break_even[v] = (e->usd_per_h + (e->option == OPTION_RESERVED ? e->upfront_usd /
				    (e->term == TERM_3Y ? TERM_3Y_H : TERM_1Y_H) : 0)) / r->od_usd_per_h;
	}
	r->term_h = three ? TERM_3Y_H : TERM_1Y_H;
	/* a varied regional RI, re-billed: its terms at count 1, as the run's bill has them (world_ri_terms) */
	{
		struct savings_ri_terms ris[SCENARIO_COMMIT_MAX];
		int from[SCENARIO_COMMIT_MAX], nri = world_ri_terms(sc, ris, from);
		x->ncombos = 1;
		for (int v = 0; v < o->nvary; v++) {
			if (!o->vary[v].commit)
				continue;
			x->ncombos *= levels(&o->vary[v]);
			for (int i = 0; i < nri; i++)
				if (from[i] == o->vary[v].fleet_index) {
					x->ri[v] = ris[i];
					x->ri[v].count = 1;
				}
		}
		if (x->ncombos > RECOMMEND_GRID_MAX)
			return diag_fail(x->d, STATUS_EINPUT, "the commitments.I.count ranges make %d levels; at most %d",
					 x->ncombos, RECOMMEND_GRID_MAX);
		r->ncombos = x->ncombos;
	}
	x->growth_per_day = sc->arrivals.growth_per_day;
	x->nwin = o->term_windows > 0 ? o->term_windows : WINDOWS_DEFAULT;
	x->term = o->term;
	if (x->term == RECOMMEND_TERM_AUTO) {  /* a growing service is followed over the term by default */
		x->term = x->growth_per_day != 0 ? RECOMMEND_TERM_WINDOWS : RECOMMEND_TERM_WINDOW;
		r->term_auto = true;
	}
	r->term = x->term;
	r->term_windows = x->term == RECOMMEND_TERM_WINDOWS ? x->nwin : 0;
	r->check_term = x->term == RECOMMEND_TERM_FLUID ? RECOMMEND_TERM_WINDOWS :
			x->term == RECOMMEND_TERM_WINDOWS ? RECOMMEND_TERM_FLUID : RECOMMEND_TERM_WINDOW;
	if (r->term_h / 24 > FLUID_DAYS_MAX) {
		if (x->term == RECOMMEND_TERM_FLUID)
			return diag_fail(x->d, STATUS_EINPUT, "--term fluid: the term is %.0f days (a 3-year commitment), "
					 "longer than a run's longest horizon (%d days); use --term windows", r->term_h / 24,
					 FLUID_DAYS_MAX);
		if (x->term == RECOMMEND_TERM_WINDOWS) {  /* no fluid run of the term: checked by the windows again */
			r->check_term = RECOMMEND_TERM_WINDOWS;
			snprintf(r->check_why, sizeof r->check_why, "the %.0f-day term is longer than a fluid run's longest "
				 "horizon (%d days)", r->term_h / 24, FLUID_DAYS_MAX);
		}
	}
	if (x->term == RECOMMEND_TERM_WINDOWS && x->o->replications * x->nwin > RECOMMEND_REPS_MAX)
		return diag_fail(x->d, STATUS_EINPUT, "--replications %d x %d windows: at most %d runs per candidate",
				 x->o->replications, x->nwin, RECOMMEND_REPS_MAX);
	r->start_unix_s = (double)sc->start_unix_us / 1e6;
	x->seed = sc->seed;
	snprintf(x->name, sizeof x->name, "%s", sc->name);
	x->scale_rate = sc->arrivals.scale_rate;
	return STATUS_OK;
}

/* The scenario with the --set overrides: its figures, and the overrides' keys (as the loader took them). */
/*
 * --term fluid runs every candidate over the term in fluid mode: a scenario fluid mode cannot run is refused
 * here, once, with the loader's words, rather than as every candidate invalid.
 */
static int fluid_loads(struct ctx *x)
{
	const char **sets = calloc((size_t)x->o->nsets + 2, sizeof *sets);
	char horizon[32];
	struct scenario sc;
	int rc;

	if (!sets)
		return diag_fail(x->d, STATUS_ENOMEM, "out of memory");
	for (int u = 0; u < x->o->nsets; u++)
		sets[u] = x->o->sets[u];
	snprintf(horizon, sizeof horizon, "horizon=%.0fd", x->r->term_h / 24);
	sets[x->o->nsets] = horizon;
	sets[x->o->nsets + 1] = "mode=fluid";
	rc = scenario_load(&sc, x->o->scenario, sets, x->o->nsets + 2, x->d);
	free(sets);
	if (rc) {
		char why[DIAG_MSG_MAX];
		snprintf(why, sizeof why, "%s", x->d->msg);
		return diag_fail(x->d, rc, "--term fluid runs the scenario over the term in fluid mode, which refuses "
				 "it: %s; use --term windows", why);
	}
	scenario_fini(&sc);
	return STATUS_OK;
}

int recommend_load_base(struct ctx *x)
{
	struct scenario sc;
	int rc = scenario_load(&sc, x->o->scenario, x->o->sets, x->o->nsets, x->d);

	if (rc)
		return rc;
	rc = inspect(x, &sc);
	scenario_fini(&sc);
	if (!rc && x->term == RECOMMEND_TERM_FLUID)
		rc = fluid_loads(x);
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
