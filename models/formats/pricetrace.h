/*
 * pricetrace: a Spot price history, as `aws ec2 describe-spot-price-history` prints it.
 *
 * Three forms are read, told apart by their first non-blank character:
 *   JSON (`--output json`): {"SpotPriceHistory": [{"AvailabilityZone": "us-east-1a", "InstanceType":
 *     "p5.48xlarge", "ProductDescription": "Linux/UNIX", "SpotPrice": "12.345600", "Timestamp":
 *     "2025-01-01T00:00:00+00:00"}, ...], "NextToken": ""}; parsed with libfyaml in JSON mode.
 *   text (`--output text`): tab-separated lines "SPOTPRICEHISTORY  AZ  TYPE  PRODUCT  PRICE  TIMESTAMP".
 *   the same without the leading SPOTPRICEHISTORY column (public archives of the history use it).
 * Rows are price changes, not samples: a price holds from its timestamp until the next row's. Rows of other
 * instance types are skipped, as are products that are not Linux ("Linux/UNIX", "Linux/UNIX (Amazon VPC)").
 * When rows of several availability zones remain and no zone was asked for, loading fails and names them.
 * Rows may come in any order (the CLI lists newest first); the series is sorted by time, and of several
 * rows with one timestamp the last in file order is kept. Every row is checked, whatever its type.
 *
 * Errors: STATUS_ENOENT for a file that cannot be read; STATUS_EINPUT with "FILE:LINE[:COL]: what was
 * wrong; expected what" for a malformed line (a bad price, a bad timestamp, a missing column, a negative
 * price), an empty file, a file that is not UTF-8 text, or rows in several zones with no zone asked for,
 * and "FILE: ..." (no line: it is about the whole file) for no row of the instance type or zone, naming
 * the types or zones present; STATUS_ENOMEM. Text columns are byte columns. Timestamps are ISO-8601 with
 * "Z" or "+00:00", optionally with fractional seconds (kept to the microsecond).
 */
#ifndef GPUCAP_PRICETRACE_H
#define GPUCAP_PRICETRACE_H

#include <stdint.h>

#include "diag.h"

struct pricetrace {
	int64_t *at_unix_us;   /* when each price takes effect, microseconds since the epoch; owned */
	double *usd_per_h;     /* the price from then on, USD per instance-hour; owned */
	int *line;             /* the file line each entry came from (the kept row of its time); owned */
	int n;                 /* entries, >= 1 once loaded */
};

/*
 * Load the prices of `instance_type` (borrowed) in `zone` (borrowed; NULL = the only zone present) from
 * `path` into *pt (caller-owned; zeroed on failure). `label` names the file in messages (NULL: the path).
 */
int pricetrace_load(struct pricetrace *pt, const char *path, const char *label, const char *instance_type,
		    const char *zone, struct diag *d);

/* The price in force at t_unix_us: the last change at or before it, or the first price before the first. */
double pricetrace_at(const struct pricetrace *pt, int64_t t_unix_us);

/* Lower every price above max_usd_per_h to it; returns how many prices (series entries) were lowered. */
int pricetrace_cap(struct pricetrace *pt, double max_usd_per_h);

/*
 * At most one price change per UTC calendar day (Google Cloud Spot, SOURCES.md [gcp-spot-daily-price]): a
 * change is an entry whose price differs from the one before it. STATUS_OK, or STATUS_EINPUT with
 * "LABEL:LINE: ..." naming the row of the second change in a day (borrows label, for messages).
 */
int pricetrace_check_daily(const struct pricetrace *pt, const char *label, struct diag *d);

/* Free the arrays; NULL and zeroed structs allowed. */
void pricetrace_fini(struct pricetrace *pt);

#endif
