/* savings: see savings.h. */
#include "savings.h"

#include <assert.h>
#include <string.h>

void savings_settle(const double *od_usd, int nhours, double last_hour_h,
		    const struct savings_plan_terms *plans, int nplans, struct savings_result *out)
{
	memset(out, 0, sizeof *out);
	for (int h = 0; h < nhours; h++) {
		double left = od_usd[h];
		double len_h = h == nhours - 1 ? last_hour_h : 1.0;
		for (int p = 0; p < nplans; p++) {
			double commit = plans[p].commit_usd_per_h * len_h;
			double rate = 1.0 - plans[p].discount;     /* SP dollars per On-Demand dollar */
			double need = left * rate;                /* what the usage costs at SP rates */
			double used = need < commit ? need : commit;
			out->commit_usd += commit;
			out->unused_usd += commit - used;
			double covered = used / rate;
			assert(rate > 0); /* the loader keeps discount < 1 */
			out->covered_od_usd += covered;
			left -= covered;
			if (left < 1e-12)
				left = 0;
		}
		out->excess_od_usd += left;
	}
}
