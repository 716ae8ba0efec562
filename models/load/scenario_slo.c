/*
 * scenario_slo: the scenario's `slo` (scenario_load.h): the latency threshold, percentile SLOs, the share of
 * requests allowed over it and the window they are checked in. Read at the top level and, with several
 * models, for each model (scenario_models.c); ttft and tpot need a token service, checked with the workload.
 */
#include <stdbool.h>

#include "scenario_load.h"
#include "status.h"

#define MAX_LATENCY_US DAY_US

static const char *const slo_keys[] = { "latency_s", "ttft_s", "latency_p50_s", "latency_p90_s", "latency_p95_s",
	"latency_p99_s", "ttft_p50_s", "ttft_p90_s", "ttft_p95_s", "ttft_p99_s", "max_violation_rate", "window",
	"tpot_s", "tpot_p50_s", "tpot_p90_s", "tpot_p95_s", "tpot_p99_s",
	NULL };
/* the percentile SLO keys, by enum scenario_slo_pct */
static const char *const slo_latency_pct_keys[] = { "latency_p50_s", "latency_p90_s", "latency_p95_s",
	"latency_p99_s" };
static const char *const slo_ttft_pct_keys[] = { "ttft_p50_s", "ttft_p90_s", "ttft_p95_s", "ttft_p99_s" };
static const char *const slo_tpot_pct_keys[] = { "tpot_p50_s", "tpot_p90_s", "tpot_p95_s", "tpot_p99_s" };
static const struct yamldoc_bounds rate_share_bounds = { 0, 1, false, false };   /* [0, 1] */

/*
 * The SLOs as planners state them: percentiles (ttft_* need service kind tokens: checked with the
 * workload), a share of requests allowed over latency_s, and a window that divides a day (so windows fall
 * on the same clock times every day, of the scenario's `timezone`: meter_window.c) and needs something to
 * check in each window.
 */
static int read_slo_percentiles(struct load *l, const struct yamldoc_ref *slo)
{
	struct yamldoc_ref r;
	bool stated = false;
	int rc;

	for (int i = 0; i < SCENARIO_SLO_PCTS; i++) {
		yamldoc_child(slo, slo_latency_pct_keys[i], &r);
		if ((rc = scenario_load_duration(l, &r, 0, true, MAX_LATENCY_US, &l->sc.slo.latency_pct_us[i])))
			return rc;
		stated |= r.node != NULL;
		yamldoc_child(slo, slo_ttft_pct_keys[i], &r);
		if ((rc = scenario_load_duration(l, &r, 0, true, MAX_LATENCY_US, &l->sc.slo.ttft_pct_us[i])))
			return rc;
		stated |= r.node != NULL;
		yamldoc_child(slo, slo_tpot_pct_keys[i], &r);
		if ((rc = scenario_load_duration(l, &r, 0, true, MAX_LATENCY_US, &l->sc.slo.tpot_pct_us[i])))
			return rc;
		stated |= r.node != NULL;
	}
	l->sc.slo.max_violation_rate = -1;
	yamldoc_child(slo, "max_violation_rate", &r);
	if ((rc = yamldoc_number(&l->y, &r, &rate_share_bounds, &l->sc.slo.max_violation_rate)))
		return rc;
	stated |= r.node != NULL;
	yamldoc_child(slo, "window", &r);
	if ((rc = scenario_load_duration(l, &r, 0, true, DAY_US, &l->sc.slo.window_us)))
		return rc;
	if (r.node && DAY_US % l->sc.slo.window_us != 0)
		return yamldoc_fail(&l->y, &r, "a window of %g s does not divide a day; expected a duration "
					  "that does (15m, 1h, 6h, 1d, ...), so windows fall on the same clock "
					  "times every day", (double)l->sc.slo.window_us / 1e6);
	if (r.node && !stated)
		return yamldoc_fail(&l->y, &r, "a window needs an SLO to check in it; expected a "
					  "percentile SLO (latency_p99_s, ...) or max_violation_rate beside it");
	return STATUS_OK;
}

int scenario_load_slo(struct load *l)
{
	struct yamldoc_ref slo, r;
	int rc;

	if ((rc = scenario_load_required(l, &l->root, "slo", "a mapping with latency_s", &slo)) ||
	    (rc = yamldoc_mapping(&l->y, &slo, slo_keys, NULL, NULL)) ||
	    (rc = scenario_load_required(l, &slo, "latency_s", "the end-to-end latency threshold, a "
					 "duration", &r)) ||
	    (rc = scenario_load_duration(l, &r, 0, true, MAX_LATENCY_US, &l->sc.slo.latency_us)))
		return rc;
	yamldoc_child(&slo, "ttft_s", &r);  /* needs service kind tokens: checked with the workload */
	if ((rc = scenario_load_duration(l, &r, 0, true, MAX_LATENCY_US, &l->sc.slo.ttft_us)))
		return rc;
	yamldoc_child(&slo, "tpot_s", &r);  /* needs service kind tokens: checked with the workload */
	if ((rc = scenario_load_duration(l, &r, 0, true, MAX_LATENCY_US, &l->sc.slo.tpot_us)))
		return rc;
	return read_slo_percentiles(l, &slo);
}

const struct scenario_load_names scenario_load_slo_keys = SCENARIO_LOAD_KEYS(slo_keys);
const struct yamldoc_bounds *const scenario_load_rate_share = &rate_share_bounds;
