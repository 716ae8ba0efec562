/* tally: see tally.h. */
#include "tally.h"

#include <math.h>
#include <stdio.h>

void tally_init(struct tally *t, int64_t slo_latency_us, int64_t warmup_us)
{
	*t = (struct tally){ .slo_latency_us = slo_latency_us, .warmup_us = warmup_us };
	hist_init(&t->latency);
}

void tally_arrival(struct tally *t, int64_t arrival_us)
{
	if (arrival_us >= t->warmup_us)
		t->arrivals++;
}

void tally_served(struct tally *t, int64_t arrival_us, int64_t wait_us, int64_t latency_us)
{
	if (arrival_us < t->warmup_us)
		return;
	t->served++;
	t->wait_us += (double)wait_us;
	if (wait_us > 0)
		t->waited++;
	if (latency_us > t->slo_latency_us)  /* as the meter counts a violation: strictly over */
		t->violations++;
	hist_add(&t->latency, (double)latency_us / 1e6);
}

static int put(struct sink_metric *list, int n, int cap, const char *model, const char *metric, double v)
{
	if (n >= cap)
		return n;
	snprintf(list[n].name, sizeof list[n].name, "model.%s.%s", model, metric);
	list[n].value = v;
	return n + 1;
}

int tally_report(const struct tally *t, const char *name, struct sink_metric *list, int n, int cap)
{
	double served = (double)t->served;

	n = put(list, n, cap, name, "requests", (double)t->arrivals);
	n = put(list, n, cap, name, "served", served);
	n = put(list, n, cap, name, "dropped", (double)(t->arrivals - t->served));
	n = put(list, n, cap, name, "slo_violations", (double)t->violations);
	n = put(list, n, cap, name, "violation_rate", t->served ? (double)t->violations / served : NAN);
	n = put(list, n, cap, name, "latency_p50_s", t->served ? hist_quantile(&t->latency, 0.50) : NAN);
	n = put(list, n, cap, name, "latency_p99_s", t->served ? hist_quantile(&t->latency, 0.99) : NAN);
	n = put(list, n, cap, name, "latency_max_s", t->served ? hist_max(&t->latency) : NAN);
	n = put(list, n, cap, name, "wait_mean_s", t->served ? t->wait_us / served / 1e6 : NAN);
	return n;
}
