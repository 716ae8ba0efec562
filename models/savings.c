/* savings: see savings.h. */
#include "savings.h"

#include <assert.h>
#include <string.h>

/* One plan in one hour: cover left[] in kind order with commit (USD at SP rates); add to *out. */
static void settle_plan(const struct savings_plan_terms *p, double len_h, double *left,
			struct savings_result *out)
{
	double commit = p->commit_usd_per_h * len_h, avail = commit;
	double rate = 1.0 - p->discount;  /* SP dollars per On-Demand dollar */

	assert(rate > 0); /* the loader keeps discount < 1 */
	out->commit_usd += commit;
	for (int k = 0; k < SAVINGS_USAGE_COUNT; k++) {
		double need = left[k] * rate;  /* what this usage costs at SP rates */
		double used = need < avail ? need : avail;
		double covered = used / rate;
		avail -= used;
		out->covered_usd[k] += covered;
		left[k] -= covered;
		if (left[k] < 1e-12)
			left[k] = 0;
	}
	out->unused_usd += avail;
}

void savings_settle(const struct savings_hour *hours, int nhours, const struct savings_plan_terms *plans,
		    int nplans, struct savings_result *out)
{
	memset(out, 0, sizeof *out);
	for (int h = 0; h < nhours; h++) {
		double left[SAVINGS_USAGE_COUNT];

		assert(hours[h].len_h > 0 && hours[h].len_h <= 1);
		memcpy(left, hours[h].usd, sizeof left);
		for (int p = 0; p < nplans; p++)
			settle_plan(&plans[p], hours[h].len_h, left, out);
		for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
			out->excess_usd[k] += left[k];
	}
}
