/* convert: see convert.h. Every comparison is made in double before any cast, so no cast is out of range. */
#include "convert.h"

#include <assert.h>
#include <limits.h>
#include <math.h>

#include "engine.h"
#include "status.h"

int convert_time_us(double us, int64_t *out_us)
{
	int64_t t;
	double frac;

	if (!(fabs(us) < CONVERT_TIME_MAX_US))  /* also false for NaN */
		return STATUS_EINTERNAL;
	/*
	 * llround(us) without the libm call (it is made for every request and every drawn arrival): t is us
	 * cut toward zero, and frac = us - t its fractional part, computed exactly (us is a whole number from
	 * 2^52 on, so frac = 0 there; below, t has no more bits than us and the difference is exact), so
	 * rounding half away from zero on frac gives llround's answer to the bit (check_convert compares them).
	 */
	t = (int64_t)us;
	frac = us - (double)t;
	*out_us = t + (frac >= 0.5) - (frac <= -0.5);  /* comparisons, not branches: which way a drawn
	                                                   time rounds is a coin toss the CPU cannot predict */
	return STATUS_OK;
}

int convert_after_us(int64_t now_us, double delay_us, int64_t *out_us)
{
	int64_t d;

	assert(now_us >= 0);
	if (isnan(delay_us) || delay_us < 0)
		return STATUS_EINTERNAL;
	if (!(delay_us < CONVERT_TIME_MAX_US))  /* +inf too */
		return STATUS_DONE;
	d = (int64_t)delay_us;  /* rounded down, as every drawn gap always was */
	if (d > SIM_TIME_MAX - now_us)
		return STATUS_DONE;
	*out_us = now_us + d;
	return STATUS_OK;
}

int convert_count(double x, int *out)
{
	if (!(x >= (double)INT_MIN && x <= (double)INT_MAX))
		return STATUS_EINTERNAL;
	*out = (int)x;
	return STATUS_OK;
}

int convert_count_saturate(double x)
{
	assert(!isnan(x));
	if (x >= (double)INT_MAX)
		return INT_MAX;
	if (x <= (double)INT_MIN)
		return INT_MIN;
	return (int)x;
}
