/*
 * metriclag: the publishing delay of a metric (autoscaling.metric_delay_s; models/README.md, "GPU metrics";
 * SOURCES.md [cw-metric-delay]). A policy evaluated at the end of period k sees the metrics of period
 * k - periods: a ring of `periods` vectors of `width` values each, allocated once. Until `periods` vectors
 * have gone in, what comes out is all NaN: no datapoint yet, which every policy treats as missing data.
 */
#ifndef GPUCAP_METRICLAG_H
#define GPUCAP_METRICLAG_H

#include <stdint.h>

struct metriclag {
	double *ring;     /* periods x width values, owned; NULL when periods is 0 */
	int periods;      /* delay, in periods, >= 0 */
	int width;        /* values per period */
	int64_t pushed;   /* vectors gone in so far */
};

/* Set up a delay of `periods` periods of `width` values. STATUS_OK or STATUS_ENOMEM (nothing held). */
int metriclag_init(struct metriclag *m, int periods, int width);
void metriclag_fini(struct metriclag *m);

/* This period's values v[0..width) go in; v becomes the values of `periods` periods ago (NaN before). */
void metriclag_push(struct metriclag *m, double *v);

#endif
