/*
 * hist: see hist.h.
 *
 * A value's bucket is defined by the formula of bucket_by_log() below, floor(log(v / MIN) / log(RATIO)),
 * but hist_bucket() does not take a logarithm per value: it looks the bucket up in a table built once per
 * process from that same formula. bound[i] is the smallest double whose formula bucket is at least i,
 * found by bisection over the doubles themselves (positive doubles are ordered as their bit patterns), so
 * a value's bucket is the largest i with bound[i] <= v: the formula's answer for every double, as long as
 * the formula never decreases as v grows (log, division and floor are each monotonic; check_hist compares
 * the two on every double next to each bound and on millions of others). To find i without a search,
 * start[] gives, for each 1/64 of a binary octave (the value's exponent and top 6 mantissa bits), the
 * bucket of the smallest double in it; a sixty-fourth is narrower than a bucket (its top is at most 1 + 1/64
 * times its bottom, and 1.015625 < 1.02), so at most one bound lies inside it and one comparison finishes
 * the job.
 *
 * The table is computed by the first hist_bucket() call, under pthread_once so that simulations in several
 * threads share it safely; it is constant afterwards (a cache of a pure function, not state of a run).
 */
#include "hist.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Bits of a double dropped to index start[]: keeps the exponent and the top 6 bits of the mantissa. */
#define SUB_SHIFT 46

/* The table: bound[i] for i < HIST_BUCKETS (bound[0] = HIST_MIN_S), and start[] from the sixty-fourth
 * of HIST_MIN_S's octave (first_sub) to that of bound[HIST_BUCKETS - 1]. */
static struct {
	double bound[HIST_BUCKETS];
	uint64_t first_sub;
	int16_t start[64 * 48];  /* 1e-6 .. 1.6e7 s is 44 octaves: 64 entries each, with room to spare */
} table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static atomic_bool table_ready;  /* set (release) when the table is built: hist_bucket's fast path reads it
                                  * (acquire) and calls pthread_once only until then */

_Static_assert(HIST_BUCKETS <= INT16_MAX, "start[] holds bucket numbers in int16_t");

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof *h);
}

/* The definition of a value's bucket (v_s >= HIST_MIN_S): what the table reproduces. */
static int bucket_by_log(double v_s)
{
	double i = floor(log(v_s / HIST_MIN_S) / log(HIST_RATIO));
	return i >= HIST_BUCKETS - 1 ? HIST_BUCKETS - 1 : (int)i;
}

static uint64_t bits_of(double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof b);
	return b;
}

static double double_of(uint64_t b)
{
	double v;

	memcpy(&v, &b, sizeof v);
	return v;
}

/* The smallest double v >= HIST_MIN_S with bucket_by_log(v) >= i (1 <= i < HIST_BUCKETS), given a guess:
 * widen a bracket [lo, hi] of bit patterns around the guess until bucket(lo) < i <= bucket(hi), then
 * bisect it. */
static double find_bound(int i, double guess)
{
	uint64_t lo = bits_of(guess), hi = lo, step = 64, min = bits_of(HIST_MIN_S), inf = bits_of(INFINITY);

	do {
		lo = lo > min + step ? lo - step : min;
		step *= 2;
	} while (lo > min && bucket_by_log(double_of(lo)) >= i);
	step = 64;
	do {
		hi = hi < inf - step ? hi + step : inf;
		step *= 2;
	} while (hi < inf && bucket_by_log(double_of(hi)) < i);
	while (hi - lo > 1) {  /* bucket(lo) < i <= bucket(hi) */
		uint64_t mid = lo + (hi - lo) / 2;
		if (bucket_by_log(double_of(mid)) >= i)
			hi = mid;
		else
			lo = mid;
	}
	return double_of(hi);
}

static void table_build(void)
{
	uint64_t last_sub;
	int b = 0;

	table.bound[0] = HIST_MIN_S;
	for (int i = 1; i < HIST_BUCKETS; i++)
		table.bound[i] = find_bound(i, HIST_MIN_S * pow(HIST_RATIO, i));
	table.first_sub = bits_of(HIST_MIN_S) >> SUB_SHIFT;
	last_sub = bits_of(table.bound[HIST_BUCKETS - 1]) >> SUB_SHIFT;
	assert(last_sub - table.first_sub < sizeof table.start / sizeof table.start[0]);
	for (uint64_t j = table.first_sub; j <= last_sub; j++) {
		double low = double_of(j << SUB_SHIFT);
		if (low < HIST_MIN_S)
			low = HIST_MIN_S;
		while (b + 1 < HIST_BUCKETS && table.bound[b + 1] <= low)
			b++;
		table.start[j - table.first_sub] = (int16_t)b;
		/* the second edge above `low` lies past this sixty-fourth: hist_bucket needs one comparison */
		assert(b + 2 >= HIST_BUCKETS || table.bound[b + 2] >= double_of((j + 1) << SUB_SHIFT));
	}
	atomic_store_explicit(&table_ready, true, memory_order_release);
}

static void table_need(void)
{
	if (!atomic_load_explicit(&table_ready, memory_order_acquire))
		pthread_once(&table_once, table_build);
}

int hist_bucket(double v_s)
{
	int i;

	if (!(v_s >= HIST_MIN_S)) /* also catches NaN, which must not reach the bucket index */
		return -1;
	table_need();
	if (v_s >= table.bound[HIST_BUCKETS - 1])  /* the last bucket, up to +inf */
		return HIST_BUCKETS - 1;
	i = table.start[(bits_of(v_s) >> SUB_SHIFT) - table.first_sub];
	/* at most one edge lies inside a sixty-fourth (table_build checks it): add 0 or 1 without a branch,
	 * which would be mispredicted half the time */
	return i + (v_s >= table.bound[i + 1]);
}

void hist_add_bucket(struct hist *h, double v_s, int bucket)
{
	h->n++;
	h->sum_s += v_s;
	if (v_s > h->max_s)
		h->max_s = v_s;
	if (bucket < 0)
		h->zero++;
	else
		h->counts[bucket]++;
}

void hist_add(struct hist *h, double v_s)
{
	hist_add_bucket(h, v_s, hist_bucket(v_s));
}

double hist_edge(int i)
{
	assert(i >= 0 && i <= HIST_BUCKETS);
	if (i == HIST_BUCKETS)
		return INFINITY;
	table_need();
	return table.bound[i];
}

/* The value a quantile in bucket i reports (before the maximum caps it). */
static double middle(int i)
{
	return HIST_MIN_S * pow(HIST_RATIO, i + 0.5);
}

uint64_t hist_add_mass(struct hist *h, const double *mass, int lo, int hi, double sum_s, double *carry)
{
	double x = *carry, before = floor(x + 0.5);
	uint64_t added = 0;
	int top = -2;

	assert(lo >= 0 && hi <= HIST_BUCKETS);
	for (int i = lo; i <= hi; i++) {
		double now;
		uint64_t k;
		if (mass[i] > 0)
			x += mass[i];
		now = floor(x + 0.5);
		k = (uint64_t)(now - before);
		before = now;
		if (k == 0)
			continue;
		if (i == 0)
			h->zero += k;
		else
			h->counts[i - 1] += k;
		added += k;
		top = i - 1;
	}
	*carry = x - before;
	h->n += added;
	h->sum_s += sum_s;
	if (top >= 0 && middle(top) > h->max_s)
		h->max_s = middle(top);
	return added;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (src->n == 0)
		return;
	dst->zero += src->zero;
	for (int i = 0; i < HIST_BUCKETS; i++)
		dst->counts[i] += src->counts[i];
	dst->n += src->n;
	dst->sum_s += src->sum_s;
	if (src->max_s > dst->max_s)
		dst->max_s = src->max_s;
}

double hist_quantile(const struct hist *h, double q)
{
	return hist_quantile_above(h, q, 0);
}

double hist_quantile_above(const struct hist *h, double q, uint64_t above)
{
	uint64_t rank, seen;

	if (h->n + above == 0)
		return NAN;
	rank = (uint64_t)ceil(q * (double)(h->n + above));
	if (rank < 1)
		rank = 1;
	if (rank > h->n)
		return INFINITY;
	seen = h->zero;
	if (seen >= rank)
		return 0.0;
	for (int i = 0; i < HIST_BUCKETS; i++) {
		seen += h->counts[i];
		if (seen >= rank) {
			double mid = middle(i);
			/* The exact maximum is known: never report more than it. */
			return mid > h->max_s ? h->max_s : mid;
		}
	}
	return h->max_s;
}

double hist_mean(const struct hist *h)
{
	return h->n ? h->sum_s / (double)h->n : NAN;
}

double hist_max(const struct hist *h)
{
	return h->n ? h->max_s : NAN;
}
