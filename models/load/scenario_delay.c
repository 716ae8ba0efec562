/*
 * scenario_delay: the `startup` key of a fleet entry, the launch-to-ready delay of its instances (see
 * scenario.h, struct delay_dist):
 *     startup: {kind: constant, mean_s: 7m}
 *     startup: {kind: lognormal, mean_s: 420, cv: 0.3}
 *     startup: {kind: empirical, values_s: [258, 346, 381, 525]}   # measured (SOURCES.md [delay-measurements])
 * Absent, every launch takes serving.startup_s. Delays are at most one day; an empirical list holds 1 to
 * SCENARIO_DELAY_VALUES_MAX values, each drawn with equal probability.
 */
#include "scenario_load.h"

#include "status.h"


static const char *const startup_keys[] = { "kind", "mean_s", "cv", "values_s", NULL };
static const char *const kinds[] = { "constant", "lognormal", "empirical" };
static const struct yamldoc_bounds cv_bounds = { 0, 100, true, false };

static int read_values(struct load *l, const struct yamldoc_ref *s, struct delay_dist *out)
{
	struct yamldoc_ref list, v;
	int n, rc;

	if ((rc = scenario_load_required(l, s, "values_s", "a list of observed delays, such as [258, 346, 525]",
					 &list)) ||
	    (rc = yamldoc_list(&l->y, &list, 1, SCENARIO_DELAY_VALUES_MAX, "delays (durations)", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_item(&list, &walk, &v);
		if ((rc = scenario_load_duration(l, &v, 0, false, DAY_US, &out->values_us[i])))
			return rc;
	}
	out->nvalues = n;
	return STATUS_OK;
}

int scenario_load_startup(struct load *l, const struct yamldoc_ref *e, struct delay_dist *out)
{
	struct yamldoc_ref s, r;
	int kind = 0, rc;

	out->kind = DELAY_DEFAULT;
	yamldoc_child(e, "startup", &s);
	if (!s.node)
		return STATUS_OK;
	if ((rc = yamldoc_mapping(&l->y, &s, startup_keys, NULL, NULL)) ||
	    (rc = scenario_load_required(l, &s, "kind", "constant, lognormal or empirical", &r)) ||
	    (rc = yamldoc_choice(&l->y, &r, kinds, 3, &kind)))
		return rc;
	out->kind = (enum delay_kind)(kind + 1);
	out->cv = 1.0;
	if (out->kind == DELAY_EMPIRICAL)
		return read_values(l, &s, out);
	if ((rc = scenario_load_required(l, &s, "mean_s", "the mean launch-to-ready delay", &r)) ||
	    (rc = scenario_load_duration(l, &r, 0, out->kind == DELAY_LOGNORMAL, DAY_US, &out->mean_us)))
		return rc;
	yamldoc_child(&s, "cv", &r);
	if (r.node && out->kind != DELAY_LOGNORMAL)
		return yamldoc_fail(&l->y, &r, "cv applies only to kind lognormal; expected no cv");
	return yamldoc_number(&l->y, &r, &cv_bounds, &out->cv);
}

/* ---- tables shared with the schema (scenario_load.h) --------------------------------------------- */

const struct scenario_load_names scenario_load_startup_keys = SCENARIO_LOAD_KEYS(startup_keys);
const struct scenario_load_names scenario_load_startup_names = SCENARIO_LOAD_NAMES(kinds);
const struct yamldoc_bounds *const scenario_load_startup_cv = &cv_bounds;
