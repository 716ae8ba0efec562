/* store_limit: see store_limit.h. */
#include "store_limit.h"

#include "engine.h"
#include "status.h"

#define BYTES_PER_GIB 1073741824.0

void store_estimate_run(const struct scenario *sc, struct store_estimate *out)
{
	bool used[OPTION_KIND_COUNT] = { false };

	out->samples = sc->sample_period_us > 0 ? sc->horizon_us / sc->sample_period_us : 0;
	out->hours = (sc->horizon_us + SIM_US_PER_H - 1) / SIM_US_PER_H + 1;
	for (int i = 0; i < sc->nfleet; i++)
		used[sc->fleet[i].option] = true;
	if (sc->jobs.n > 0)
		used[OPTION_ON_DEMAND] = used[OPTION_SPOT] = true;  /* jobs policies may launch either */
	out->options = 0;
	for (int k = 0; k < OPTION_KIND_COUNT; k++)
		out->options += used[k];
	/* two kinds an hour and an upfront line per option, for each user that pays (serving; the jobs too) */
	out->charges = (out->hours * 2 * out->options + out->options) * (sc->jobs.n > 0 ? 2 : 1);
	out->type_samples = sc->ntypes > 1 ? out->samples * sc->ntypes : 0;
	out->bytes = (double)out->samples * STORE_SAMPLE_ROW_BYTES + (double)out->hours * STORE_HOUR_ROW_BYTES +
		     (double)out->charges * STORE_CHARGE_ROW_BYTES +
		     (double)out->type_samples * STORE_TYPE_SAMPLE_ROW_BYTES;
}

int store_check_run_size(const struct scenario *sc, bool force, struct diag *d)
{
	struct store_estimate e;

	store_estimate_run(sc, &e);
	if (force || e.bytes <= (double)STORE_RUN_BYTES_MAX)
		return STATUS_OK;
	return diag_fail(d, STATUS_EUSAGE, "the run would add about %.2f GiB to the results database (%lld samples, "
			 "%lld hours and up to %lld charges rows, before events), more than the %.0f GiB a run may "
			 "add; expected a longer sample_period or a shorter horizon, or --force",
			 e.bytes / BYTES_PER_GIB, (long long)e.samples, (long long)e.hours, (long long)e.charges,
			 (double)STORE_RUN_BYTES_MAX / BYTES_PER_GIB);
}
