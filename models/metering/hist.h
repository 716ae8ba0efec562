/*
 * hist: a bounded-memory histogram of non-negative durations, for percentiles.
 *
 * Buckets are geometric with ratio HIST_RATIO = 1.02 from HIST_MIN_S (1 microsecond) up to ~10^7 s; values
 * below HIST_MIN_S share one "zero" bucket (reported as 0) and values above the last bucket are clamped
 * into it. A quantile is reported as the geometric middle of its bucket, so its relative error is at most
 * sqrt(1.02) - 1 < 1% for any value inside the range. Mean and maximum are kept exactly beside the buckets.
 * The struct is fixed-size (about 12 KiB); adding a value allocates nothing.
 */
#ifndef GPUCAP_HIST_H
#define GPUCAP_HIST_H

#include <stdint.h>

#define HIST_MIN_S 1e-6
#define HIST_RATIO 1.02
#define HIST_BUCKETS 1536   /* 1.02^1536 * 1e-6 s ~ 1.6e7 s */

struct hist {
	uint64_t counts[HIST_BUCKETS];  /* values per bucket; bucket i covers [MIN*R^i, MIN*R^(i+1)) seconds */
	uint64_t zero;                  /* values below HIST_MIN_S */
	uint64_t n;                     /* values added */
	double sum_s;                   /* their sum, seconds */
	double max_s;                   /* the largest, seconds */
};

void hist_init(struct hist *h);

/* Add one value in seconds (>= 0). */
void hist_add(struct hist *h, double v_s);

/* hist_add(h, 0.0), inline: a zero is counted below HIST_MIN_S and changes neither the sum (every value
 * added is >= 0, so the sum is never -0.0, and x + 0.0 == x) nor the maximum (>= 0 from hist_init). */
static inline void hist_add_zero(struct hist *h)
{
	h->n++;
	h->zero++;
}

/*
 * The same in two steps, for one value added to several histograms (the bucket's logarithm is the costly
 * part): hist_bucket(v_s) is v_s's bucket index, -1 for the values below HIST_MIN_S (and NaN);
 * hist_add_bucket(h, v_s, hist_bucket(v_s)) is hist_add(h, v_s).
 */
int hist_bucket(double v_s);
void hist_add_bucket(struct hist *h, double v_s, int bucket);

/* The q-quantile (0 <= q <= 1) in seconds: the smallest bucket value with at least ceil(q n) values at or
 * below it. NaN when the histogram is empty. */
double hist_quantile(const struct hist *h, double q);

/* The q-quantile of h's values together with `above` more values larger than any of them (requests never
 * answered): as hist_quantile over n + above values, and INFINITY when the rank falls among the `above`
 * ones. NaN when there is no value at all. hist_quantile(h, q) is hist_quantile_above(h, q, 0). */
double hist_quantile_above(const struct hist *h, double q, uint64_t above);

/* The lower edge of bucket i in seconds, the smallest value hist_bucket puts there (0 <= i < HIST_BUCKETS);
 * INFINITY for i = HIST_BUCKETS (the last bucket has no upper edge). Bucket i holds [edge(i), edge(i + 1)). */
double hist_edge(int i);

/*
 * Add expected, fractional counts (fluid mode: the latency distribution of many requests at once): mass[0]
 * values below HIST_MIN_S and mass[i + 1] values in bucket i, for the indices lo..hi of mass (0 <= lo <= hi
 * <= HIST_BUCKETS; negative masses count as 0), sum_s seconds in all. They are rounded to whole values so
 * that every cumulative count (the values up to a bucket) is within 1/2 of the cumulative mass; *carry,
 * in [-1/2, 1/2), is what earlier calls rounded away: it is counted first, and what this call rounds away
 * is left there, so that calls in turn add the rounded total of all their masses. The maximum becomes at
 * least the middle of the highest bucket given a value (the value a quantile there reports). Returns the
 * number of values added.
 */
uint64_t hist_add_mass(struct hist *h, const double *mass, int lo, int hi, double sum_s, double *carry);

/* Add src's values to dst (counts, sum and maximum). */
void hist_merge(struct hist *dst, const struct hist *src);

/* Mean and maximum in seconds; NaN when empty. */
double hist_mean(const struct hist *h);
double hist_max(const struct hist *h);

#endif
