/* hist: see hist.h. */
#include "hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof *h);
}

int hist_bucket(double v_s)
{
	if (!(v_s >= HIST_MIN_S)) /* also catches NaN, which must not reach the bucket index */
		return -1;
	double i = floor(log(v_s / HIST_MIN_S) / log(HIST_RATIO));
	return i >= HIST_BUCKETS - 1 ? HIST_BUCKETS - 1 : (int)i;
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
			double mid = HIST_MIN_S * pow(HIST_RATIO, i + 0.5);
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
