/*
 * convert: the one place where a double becomes a time or a count.
 *
 * A double that becomes an int64 time in microseconds or an int count goes through these functions, never
 * through a bare cast, lround or llround: a cast of a value beyond the integer's range (or of NaN) is
 * undefined behaviour in C, and on x86 it gives INT64_MIN, a time far in the past, or INT_MIN, a fleet that
 * never scales (issue 16: `reclaims_per_day: 1e-300` hung, a `target` of 7e-10 never scaled).
 *
 * Three outcomes, one per kind of value:
 *  - a time or duration that must exist (a service time, a job's compute time, a sped-up trace time):
 *    convert_time_us() fails with STATUS_EINTERNAL when it does not fit the clock; the caller names the
 *    value in its message and the run fails (exit 1);
 *  - the time of an event drawn from a rate (an exponential gap after now): a gap that reaches past the
 *    clock's last microsecond (SIM_TIME_MAX, 292 000 years, far beyond any horizon, which is at most 10
 *    years) means the event never happens: convert_after_us() returns STATUS_DONE and the caller schedules
 *    nothing. This is the exact answer, not an approximation: an event past the horizon has no effect;
 *  - a count that is then clamped to a bound (a policy's desired capacity, clamped to [min, max]):
 *    convert_count_saturate() saturates at INT_MIN / INT_MAX, which the clamp turns into the bound, again
 *    exactly what an unbounded integer would give.
 * No function here allocates or writes messages; failures leave *out unchanged.
 */
#ifndef GPUCAP_CONVERT_H
#define GPUCAP_CONVERT_H

#include <stdint.h>

/* The largest time in microseconds convert_time_us() accepts: 2^62 (146 000 years), well inside int64 so
 * that a time plus a duration of that size still fits. */
#define CONVERT_TIME_MAX_US 0x1p62

/*
 * us (microseconds, any double) rounded to the nearest microsecond, halves away from zero, into *out_us.
 * STATUS_OK, or STATUS_EINTERNAL when us is NaN or its magnitude is not below CONVERT_TIME_MAX_US.
 */
int convert_time_us(double us, int64_t *out_us);

/*
 * The time delay_us (microseconds, >= 0, +inf allowed) after now_us (>= 0), the delay rounded down to
 * the microsecond, into *out_us. STATUS_OK; STATUS_DONE ("never") when that time is past SIM_TIME_MAX or
 * delay_us is +inf; STATUS_EINTERNAL when delay_us is NaN or negative (a bug in the caller's draw).
 */
int convert_after_us(int64_t now_us, double delay_us, int64_t *out_us);

/* x (already rounded to a whole number) as an int into *out. STATUS_OK, or STATUS_EINTERNAL when x is NaN
 * or outside [INT_MIN, INT_MAX]. */
int convert_count(double x, int *out);

/* x (already rounded to a whole number, not NaN: asserted) as an int, saturated to [INT_MIN, INT_MAX]; for
 * a count the caller then clamps to a smaller range, which makes the saturation exact. */
int convert_count_saturate(double x);

#endif
