/*
 * cwmetrics: an Amazon CloudWatch metric series, as the AWS CLI prints it with `--output json` (the
 * default), read whole into a dense series of periods.
 *
 * Two shapes are read, told apart by their top-level key:
 *   `aws cloudwatch get-metric-data`: {"MetricDataResults": [{"Id": "m1", "Label": "Invocations",
 *     "Timestamps": ["2026-11-02T10:05:00+00:00", ...], "Values": [12.0, ...], "StatusCode": "Complete"},
 *     ...], "Messages": [...], "NextToken": "..."}. Timestamps[i] goes with Values[i]; the CLI lists them
 *     newest first by default (ScanBy TimestampDescending). One result is chosen by its Id or its Label
 *     (required when there are several; the message lists them).
 *   `aws cloudwatch get-metric-statistics`: {"Label": "Invocations", "Datapoints": [{"Timestamp": "...",
 *     "Sum": 12.0, "Unit": "Count"}, ...]}, datapoints in no particular order; the statistic read is Sum
 *     or SampleCount (cwmetrics_query.stat). Other keys of a datapoint (Unit, the other statistics,
 *     ExtendedStatistics) are ignored.
 * A timestamp is the start of its period (CloudWatch's convention). Timestamps are ISO-8601 with "Z" or
 * a "+HH:MM"/"-HH:MM" offset (the CLI prints "+00:00"), optionally with fractional seconds; values are
 * JSON numbers >= 0. The points are sorted by time; two at one time are an error. The period is
 * query.period_us when given, else the smallest gap between consecutive points; every point must lie on
 * the grid first + k x period. Periods of the grid with no point are gaps: CloudWatch omits a period in
 * which nothing was recorded, so a gap usually means zero, but it may also be data that was not
 * delivered; cwmetrics_fill decides.
 *
 * Limits: the file at most CWMETRICS_BYTES_MAX bytes (a month of per-minute points, 43,200 of them, is
 * about 2 MB as the CLI prints it), at most CWMETRICS_PERIODS_MAX periods from first to last point.
 *
 * Errors: STATUS_ENOENT (cannot read); STATUS_EINPUT with "FILE:LINE:COL: JSON.PATH: what; expected what"
 * (not JSON or not UTF-8, neither shape, a missing Timestamps or Values, lists of different lengths, a bad
 * timestamp, a value that is not a number, a negative value, two points at one time, a point off the
 * period grid, no points, an unknown id or label, several results and no choice, a datapoint without the
 * statistic asked for, too many periods); STATUS_ENOMEM.
 */
#ifndef GPUCAP_CWMETRICS_H
#define GPUCAP_CWMETRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"

#define CWMETRICS_NAME_MAX 256                   /* bytes of an Id, Label or StatusCode kept, with the NUL */
#define CWMETRICS_BYTES_MAX (64u * 1024 * 1024)  /* largest file read */
#define CWMETRICS_PERIODS_MAX 5000000            /* periods from first to last point (40 MB of doubles) */

enum cwmetrics_shape {
	CWMETRICS_DATA,       /* get-metric-data: MetricDataResults */
	CWMETRICS_STATISTICS  /* get-metric-statistics: Label and Datapoints */
};

enum cwmetrics_stat {
	CWMETRICS_SUM,          /* "Sum": for a count metric such as Invocations, the requests in the period */
	CWMETRICS_SAMPLE_COUNT  /* "SampleCount": the number of data points recorded in the period */
};

enum cwmetrics_gaps {
	CWMETRICS_GAPS_ZERO,        /* a missing period had nothing recorded: 0 */
	CWMETRICS_GAPS_HOLD,        /* the value of the period before it */
	CWMETRICS_GAPS_INTERPOLATE  /* linear between the points on either side */
};

/* Which series of a file to read. */
struct cwmetrics_query {
	char id[CWMETRICS_NAME_MAX];     /* get-metric-data: the result's Id; "" = not by id */
	char label[CWMETRICS_NAME_MAX];  /* the result's Label (get-metric-statistics: checked against Label);
	                                    "" = not by label */
	int index;                       /* get-metric-data: the result at this place, >= 0; -1 = by id or
	                                    label (or the only one) */
	enum cwmetrics_stat stat;        /* get-metric-statistics: which statistic; default Sum */
	int64_t period_us;               /* the period, microseconds, > 0; 0 = inferred from the points */
};

/* One series, dense: period k covers [first_unix_us + k period_us, + period_us). */
struct cwmetrics {
	enum cwmetrics_shape shape;          /* which command printed the file */
	int nresults;                        /* results in the file (1 for get-metric-statistics) */
	int index;                           /* the chosen one's place in MetricDataResults (0 for statistics) */
	char id[CWMETRICS_NAME_MAX];         /* its Id ("" for get-metric-statistics) */
	char label[CWMETRICS_NAME_MAX];      /* its Label ("" when it has none) */
	char status[CWMETRICS_NAME_MAX];     /* its StatusCode ("" for get-metric-statistics or when absent) */
	int64_t first_unix_us;               /* the first period's start, microseconds since the epoch */
	int64_t period_us;                   /* period length, > 0 */
	int nperiods;                        /* periods from the first point's to the last's, >= 1 */
	int npoints;                         /* points read; nperiods - npoints are gaps */
	double *value;                       /* per period, >= 0; NaN for a gap until cwmetrics_fill; owned */
	bool more_pages;                     /* get-metric-data: a non-empty NextToken, so the file holds only
	                                        the first page(s) of the answer */
};

/*
 * Read the series `q` asks for (borrowed) from `path` into *m (caller-owned; zeroed on failure). `label`
 * names the file in messages (NULL: the path). Every result of a get-metric-data file is checked, not
 * only the chosen one.
 */
int cwmetrics_load(struct cwmetrics *m, const char *path, const char *label, const struct cwmetrics_query *q,
		   struct diag *d);

/* Fill the gaps (NaN periods) of m as `how` says; the series' ends are points, so every gap has both. */
void cwmetrics_fill(struct cwmetrics *m, enum cwmetrics_gaps how);

/* True when the file at path looks like CloudWatch JSON (one of the two top-level keys in its first
 * 4 KiB), for `gpucap trace stats`, which reads several kinds of file. */
bool cwmetrics_sniff(const char *path);

/* Free the array; NULL and zeroed structs allowed. */
void cwmetrics_fini(struct cwmetrics *m);

#endif
