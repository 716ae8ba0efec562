/* arrivals: what every arrival source shares (see arrivals.h). */
#include "arrivals.h"

#include <math.h>

#include "convert.h"
#include "engine.h"
#include "status.h"

void arrivals_free(struct arrival_source *src)
{
	if (src)
		src->ops->free(src);
}

bool arrivals_seconds_to_us(double t_s, int64_t *t_us)
{
	return convert_time_us(t_s * (double)SIM_US_PER_S, t_us) == STATUS_OK;
}
