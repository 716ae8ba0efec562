/*
 * sink: the only way results leave a run.
 *
 * A run hands its results to a struct sink: a table of operations and the implementation's own pointer.
 * The SQLite store (analysis/store.h) is one implementation; tests capture into memory; benchmarks use
 * sink_null. The calls come in this order, each at most once unless marked "repeatedly":
 *
 *     begin(info)  samples(rows, n)... events(rows, n)...  (repeatedly, interleaved, in time order)
 *     charges(rows, n)...  (repeatedly, once the bill is settled)  hours(rows, n)  (once)
 *     warnings(list, n)  metrics(list, n)  end(status, wall_s)
 *
 * warnings() is called once per successful run, possibly with n = 0 (models/metering/warn.h says what each code
 * means).
 *
 * begin() opens the run (the store starts a transaction); end() with status STATUS_OK makes the run
 * permanent, any other status throws away everything since begin() (nothing half-written is left). If any
 * call fails, the run calls end() with that failure. Rows and strings are borrowed: the sink copies what it
 * keeps before returning. Every call returns STATUS_OK or a negative status with a message in the diag that
 * the sink was given when it was made.
 */
#ifndef GPUCAP_SINK_H
#define GPUCAP_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "option.h"

struct scenario;

struct sink_run_info {
	const struct scenario *scenario;  /* the scenario run (name, seed, texts) */
	const char *started_at;           /* wall-clock start, ISO-8601 UTC */
	const char *version;              /* gpucap version string */
};

#define SINK_TYPES_MAX 8  /* instance types a sample describes (scenario.h, SCENARIO_TYPES_MAX) */

/*
 * One point of the time series, taken every sample period (values averaged over the period unless noted).
 * With several instance types (scenario.types, ntypes > 1) it also holds each type's figures, indexed as
 * scenario.types (0 = the serving type); with one type ntypes is 0 and those arrays are unused.
 */
struct sink_sample {
	double t_s;                                 /* end of the period, seconds from the scenario start */
	double arrival_rate_per_s;                  /* arrivals in the period / period length */
	double queue_len;                           /* requests waiting, at the sample instant */
	double busy_slots;                          /* slots serving a request, time-averaged over the period */
	double instances[OPTION_KIND_COUNT];        /* live instances per option kind, at the sample instant */
	double instances_total;                     /* sum of instances[] */
	double cost_usd_per_h;                      /* billing rate of the fleet at the sample instant */
	double instances_jobs;                      /* live instances whose user is the jobs (a shared entry's
	                                               lent to them included), at the sample instant; NaN in a
	                                               run without jobs */
	double copies;                              /* model copies serving at the sample instant; NaN
	                                               without serving.copies */
	int ntypes;                                 /* types described below: scenario.ntypes when > 1, else 0 */
	double type_instances[SINK_TYPES_MAX];      /* instances of each type in service (serving or
	                                               draining), at the sample instant */
	double type_busy_slots[SINK_TYPES_MAX];     /* slots of each type serving a request, time-averaged
	                                               over the period */
};

/* One entry of the event log (scaling decisions, launches, terminations). */
struct sink_event {
	double t_s;            /* seconds from the scenario start */
	const char *kind;      /* "scale_out", "scale_in", "launch", "ready", "terminate", ... */
	const char *option;    /* option kind name, or NULL when not about one option */
	int count;             /* instances concerned (for scaling: the new desired capacity) */
	const char *detail;    /* free text: the reason (policy, metric value, target), or NULL */
};

/*
 * One line of the run's bill (analysis/README.md, "The bill in FOCUS form"): what one purchase option charged in one
 * UTC clock hour, of one kind. Kinds: "usage" (pay-as-you-go usage: on-demand, Spot), "used" (the part of
 * a commitment or reservation that covered usage: reserved instances, Savings Plans, ODCR capacity
 * instances ran in, Capacity Blocks), "unused" (the part nobody used, paid all the same), "upfront" (a
 * purchase paid at once: a reservation's upfront fee, a Capacity Block's price). The effective amounts of
 * an option's rows sum to its cost_<option>_usd; those of the jobs' rows (use "jobs") to the run's
 * jobs_cost_<option>_usd. There is one line per (hour, option, kind, use).
 */
struct sink_charge {
	int hour;                 /* clock hour index, 0 = the one holding t = 0 */
	double start_unix_s;      /* the part of the hour inside the window: [start, end), Unix seconds */
	double end_unix_s;
	const char *option;       /* option kind name */
	const char *kind;         /* "usage", "used", "unused", "upfront" */
	const char *use;          /* whose it is: "serving" or "jobs" (models/README.md, the jobs' cost) */
	double quantity_h;        /* instance-hours */
	double list_usd;          /* the same instance-hours at the On-Demand price */
	double billed_usd;        /* what the invoice charges for it (a commitment's recurring fee share) */
	double effective_usd;     /* amortised cost: upfront fees spread over the hours they pay for */
};

/*
 * The requests measured in one UTC clock hour (analysis/README.md, "Reports"): those that ended in it (served or
 * dropped; after the horizon: the last hour), how many of them violated slo.latency_s (served over it, or
 * dropped), and the end-to-end latency percentiles of the ones served in it (NaN when none was).
 */
struct sink_hour {
	double hour_start_s;      /* the clock hour's start, seconds from the scenario start (< 0 for hour 0
	                             when the start is not on the hour) */
	uint64_t requests;
	uint64_t violations;
	double latency_p50_s;
	double latency_p95_s;
	double latency_p99_s;
};

struct sink_metric {
	char name[48];   /* metric name, e.g. "latency_p99_s" */
	double value;    /* its value; NaN when undefined (no request served, ...) */
};

/* One warning of a run (models/metering/warn.h): a code a script can test and a sentence for a person. */
struct sink_warning {
	char code[32];      /* e.g. "fleet_at_max"; [a-z_] */
	char message[512];  /* what was found, with the numbers, one line */
};

struct sink_ops {
	int (*begin)(void *self, const struct sink_run_info *info);
	int (*samples)(void *self, const struct sink_sample *rows, size_t n);
	int (*events)(void *self, const struct sink_event *rows, size_t n);
	int (*charges)(void *self, const struct sink_charge *rows, size_t n);
	int (*hours)(void *self, const struct sink_hour *rows, size_t n);
	int (*warnings)(void *self, const struct sink_warning *list, size_t n);
	int (*metrics)(void *self, const struct sink_metric *list, size_t n);
	int (*end)(void *self, int status, double wall_s);
};

struct sink {
	const struct sink_ops *ops;  /* the implementation */
	void *self;                  /* its state, kept (must outlive the sink) */
};

/* A sink that accepts everything and keeps nothing (benchmarks, validate). */
extern const struct sink sink_null;

#endif
