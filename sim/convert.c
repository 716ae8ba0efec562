/* convert: see convert.h. Every comparison is made in double before any cast, so no cast is out of range. */
#include "convert.h"

#include <assert.h>
#include <limits.h>
#include <math.h>

#include "engine.h"
#include "status.h"

/*
 * llround(us) for |us| < CONVERT_TIME_MAX_US (2^62), without the library call (this runs for every drawn
 * time): truncate, then step away from zero when the dropped fraction is at least one half. The fraction
 * us - t is exact: below 2^53, us and its integer part t are both multiples of us's ulp and differ by
 * less than 1; from 2^53 on, us is an integer and the fraction is 0. So the result is llround's, halves
 * away from zero included, for every double in range (check_convert compares the two).
 */
static int64_t round_us(double us)
{
	int64_t t = (int64_t)us;  /* toward zero; in range, as |us| < 2^62 */
	double frac = us - (double)t;

	return t + (frac >= 0.5) - (frac <= -0.5);
}

int convert_time_us(double us, int64_t *out_us)
{
	if (!(fabs(us) < CONVERT_TIME_MAX_US))  /* also false for NaN */
		return STATUS_EINTERNAL;
	*out_us = round_us(us);
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
