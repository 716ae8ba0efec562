/* arrivals: what every arrival source shares (see arrivals.h). */
#include "arrivals.h"

#include <math.h>

#include "engine.h"

void arrivals_free(struct arrival_source *src)
{
	if (src)
		src->ops->free(src);
}

bool arrivals_seconds_to_us(double t_s, int64_t *t_us)
{
	double us = t_s * (double)SIM_US_PER_S;

	if (!(us < 0x1p62))
		return false;
	*t_us = llround(us);
	return true;
}
