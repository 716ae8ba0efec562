/*
 * capture: a sink that keeps a run's results in memory, for tests (models/metering/sink.h).
 * Events are copied (strings included); samples are counted and the last one kept.
 */
#ifndef GPUCAP_CAPTURE_H
#define GPUCAP_CAPTURE_H

#include "sink.h"

#define CAPTURE_EVENTS 4096
#define CAPTURE_WARNINGS 16
#define CAPTURE_HOURS 512
#define CAPTURE_METRICS 256

struct capture_event {
	double t_s;
	char kind[24];
	char option[24];
	int count;
};

struct capture {
	int begun, ended, end_status;
	struct capture_event events[CAPTURE_EVENTS];
	int nevents;
	long nsamples;
	struct sink_sample last_sample;
	struct sink_metric metrics[CAPTURE_METRICS];
	int nmetrics;
	struct sink_warning warnings[CAPTURE_WARNINGS];
	int nwarnings;
	int warnings_calls;  /* how many times warnings() was called (once per successful run) */
	/* the bill lines (sink_charge), summed by option kind and charge kind (meter.h, enum charge_kind) */
	long ncharges;
	/* the hourly rows (sink_hour), in the order given */
	struct sink_hour hours[CAPTURE_HOURS];
	int nhours;
	double charge_effective[OPTION_KIND_COUNT][4];
	double charge_billed[OPTION_KIND_COUNT][4];
	double charge_quantity[OPTION_KIND_COUNT][4];
	double charge_use_effective[2][OPTION_KIND_COUNT];  /* effective_usd by use (0 serving, 1 jobs) and option */
};

/* A sink writing into c (kept). */
struct sink capture_sink(struct capture *c);

/*
 * Parse yaml (with overrides) and run it into c, failing the current Check test on any error: the
 * scenario must load, the run succeed, and the sink see one begin and one successful end.
 */
void capture_run(struct capture *c, const char *yaml, const char *const *sets, int nsets);

/* The metric named name, or NaN. */
double capture_metric(const struct capture *c, const char *name);

/* The metric named name, failing the current Check test when it is missing or NaN. */
double capture_need(const struct capture *c, const char *name);

/* The i-th event of kind `kind` (0-based), or NULL. */
const struct capture_event *capture_find(const struct capture *c, const char *kind, int i);

/* The warning with code `code`, or NULL. */
const struct sink_warning *capture_warning(const struct capture *c, const char *code);

/* How many events of kind `kind` there are. */
int capture_count(const struct capture *c, const char *kind);

#endif
