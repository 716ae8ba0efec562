/*
 * tally: one model's request counts and latencies when several models share a fleet (models/README.md "Several
 * models and MIG partitions"): what the shared meter adds up for all models, kept for one of them.
 *
 * serving records into a tally when it has one (serving.tally): arrivals, and each completion's wait and
 * latency against the model's own SLO threshold. Requests that arrived before the warm-up ends are not
 * counted, as the meter does not count them. Every request that arrived is either served or dropped by the
 * end of a run, so dropped = arrivals - served. Fixed-size, allocates nothing.
 */
#ifndef GPUCAP_TALLY_H
#define GPUCAP_TALLY_H

#include <stdint.h>

#include "hist.h"
#include "sink.h"

struct tally {
	int64_t slo_latency_us;  /* the model's slo.latency_s, microseconds */
	int64_t warmup_us;       /* arrivals before this are not counted */
	uint64_t arrivals;       /* requests counted */
	uint64_t served;         /* of those, served */
	uint64_t violations;     /* served with latency over slo_latency_us */
	uint64_t waited;         /* served after waiting in the queue (wait > 0) */
	double wait_us;          /* total wait of those served, microseconds */
	struct hist latency;     /* latencies of those served, seconds */
};

void tally_init(struct tally *t, int64_t slo_latency_us, int64_t warmup_us);
void tally_arrival(struct tally *t, int64_t arrival_us);
void tally_served(struct tally *t, int64_t arrival_us, int64_t wait_us, int64_t latency_us);

/*
 * Append the tally's metrics, named "model.NAME.METRIC" (requests, served, dropped, slo_violations,
 * violation_rate, latency_p50_s, latency_p99_s, wait_mean_s), to list at n (of cap); returns the new count.
 */
int tally_report(const struct tally *t, const char *name, struct sink_metric *list, int n, int cap);

#endif
