/*
 * cwmetrics: a CloudWatch metric series from the AWS CLI's JSON (see cwmetrics.h).
 *
 * The file is read whole (textfile_read, with the size cap) and parsed by libfyaml in JSON mode
 * (jsondoc.h), whose nodes keep their positions for messages. A get-metric-data file is read in two passes:
 * the first looks only at each result's Id and Label to choose one (so that "several results" and "no such
 * id" can list the choices before anything else is judged), the second checks every result's entries
 * (types, timestamps, values, equal lengths) and keeps the chosen one's points. Order, duplicates and the
 * period grid are then checked on the chosen points, sorted by time, and the dense series is built.
 * O(points log points); memory is the points and the periods between the first and the last.
 */
#include "cwmetrics.h"

#include <ctype.h>
#include <libfyaml.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsondoc.h"
#include "status.h"
#include "textfile.h"
#include "units.h"

#define GOT_MAX 96            /* room for a described bad value */
#define CHOICES_LISTED 8      /* results named in a message */
#define VALUE_MAX 1e12        /* a sanity bound on one period's value */
#define STAMP_EXPECT "an ISO-8601 time such as 2026-11-02T10:05:00+00:00 (Z or an offset +HH:MM/-HH:MM)"

static const char *const stat_keys[] = { "Sum", "SampleCount" };

/* One point as read: its time, value and place in its list (for messages after the sort). */
struct point {
	int64_t t_us;
	double v;
	int k;
};

struct reader {
	const char *label;                 /* the file, in messages (borrowed) */
	struct diag *d;
	const struct cwmetrics_query *q;   /* borrowed */
	struct cwmetrics *m;               /* being filled */
	struct fy_node *stamps;            /* the chosen result's Timestamps (data) or Datapoints (statistics) */
	struct fy_node *where;             /* the chosen result (data) or the root (statistics), for positions */
	char path[64];                     /* the JSON path of stamps, for messages */
	struct point *pts;                 /* the chosen result's points, owned */
	int npts;
};

/* ---- scalars -------------------------------------------------------------------------------------- */

/* A timestamp: units' ISO-8601 with "Z" or "+00:00", or with another offset "+HH:MM"/"-HH:MM". */
static bool parse_stamp(const char *s, int64_t *t_us)
{
	size_t n = strlen(s);
	char buf[64];
	const char *o = s + n - 6;
	int64_t off_s;

	if (units_parse_time_us(s, t_us) == STATUS_OK)
		return true;
	if (n < 7 || n >= sizeof buf || (o[0] != '+' && o[0] != '-') || o[3] != ':' || !isdigit((unsigned char)o[1]) ||
	    !isdigit((unsigned char)o[2]) || !isdigit((unsigned char)o[4]) || !isdigit((unsigned char)o[5]))
		return false;
	off_s = ((o[1] - '0') * 10 + (o[2] - '0')) * 3600 + ((o[4] - '0') * 10 + (o[5] - '0')) * 60;
	if (o[1] > '2' || (o[1] == '2' && o[2] > '3') || o[4] > '5')
		return false;
	memcpy(buf, s, n - 6);
	memcpy(buf + n - 6, "Z", 2);
	if (units_parse_time_us(buf, t_us) != STATUS_OK)
		return false;
	*t_us -= (o[0] == '+' ? 1 : -1) * off_s * INT64_C(1000000);  /* local = UTC + offset */
	return true;
}

/* The string at key of map into buf (kept when `out` is not NULL); absent is "" unless required. */
static int string_key(struct reader *r, struct fy_node *map, const char *key, const char *path, bool required,
		      char *out)
{
	struct fy_node *v = fy_node_mapping_lookup_value_by_simple_key(map, key, (size_t)-1);
	const char *s = v && fy_node_is_scalar(v) ? fy_node_get_scalar0(v) : NULL;
	char got[GOT_MAX];

	if (!v && !required) {
		if (out)
			out[0] = '\0';
		return STATUS_OK;
	}
	if (!v)
		return jsondoc_fail(r->d, r->label, map, NULL, "%s: no key '%s'; expected %s to be given", path,
				    key, key);
	if (!s || fy_node_get_style(v) != FYNS_DOUBLE_QUOTED || strlen(s) >= CWMETRICS_NAME_MAX)
		return jsondoc_fail(r->d, r->label, v, map, "%s.%s: expected a string of at most %d bytes, got %s",
				    path, key, CWMETRICS_NAME_MAX - 1, jsondoc_describe(v, got, sizeof got));
	if (out)
		snprintf(out, CWMETRICS_NAME_MAX, "%s", s);
	return STATUS_OK;
}

/* The list at key of map (required) into *list. */
static int list_key(struct reader *r, struct fy_node *map, const char *key, const char *path, const char *items,
		    struct fy_node **list)
{
	char got[GOT_MAX];

	*list = fy_node_mapping_lookup_value_by_simple_key(map, key, (size_t)-1);
	if (!*list)
		return jsondoc_fail(r->d, r->label, map, NULL, "%s%sno key '%s'; expected a list of %s", path,
				    *path ? ": " : "", key, items);
	if (!fy_node_is_sequence(*list))
		return jsondoc_fail(r->d, r->label, *list, map, "%s%s%s: expected a list of %s, got %s", path,
				    *path ? "." : "", key, items, jsondoc_describe(*list, got, sizeof got));
	return STATUS_OK;
}

/* Timestamp node ts at `path` into *t_us. */
static int read_stamp(struct reader *r, struct fy_node *ts, struct fy_node *near, const char *path, int64_t *t_us)
{
	char got[GOT_MAX];
	const char *s = fy_node_is_scalar(ts) ? fy_node_get_scalar0(ts) : NULL;

	if (!s || fy_node_get_style(ts) != FYNS_DOUBLE_QUOTED || !parse_stamp(s, t_us))
		return jsondoc_fail(r->d, r->label, ts, near, "%s: bad timestamp, got %s; expected %s", path,
				    jsondoc_describe(ts, got, sizeof got), STAMP_EXPECT);
	return STATUS_OK;
}

/* Value node v at `path` into *x: a JSON number in [0, VALUE_MAX]. */
static int read_value(struct reader *r, struct fy_node *v, struct fy_node *near, const char *path, double *x)
{
	char got[GOT_MAX];

	if (!jsondoc_number(v, x))
		return jsondoc_fail(r->d, r->label, v, near, "%s: %s is not a number; expected a JSON number >= 0",
				    path, jsondoc_describe(v, got, sizeof got));
	if (*x < 0 || *x > VALUE_MAX)
		return jsondoc_fail(r->d, r->label, v, near, "%s: %g is %s; expected a count >= 0 and <= %g", path,
				    *x, *x < 0 ? "negative" : "too large", VALUE_MAX);
	return STATUS_OK;
}

static int keep(struct reader *r, int n, int k, int64_t t_us, double v)
{
	if (!r->pts && !(r->pts = malloc((size_t)(n > 0 ? n : 1) * sizeof *r->pts)))
		return diag_at(r->d, STATUS_ENOMEM, r->label, 0, 0, "out of memory while reading the metrics");
	r->pts[r->npts++] = (struct point){ t_us, v, k };
	return STATUS_OK;
}

/* ---- get-metric-data ------------------------------------------------------------------------------ */

/* "m1 (label 'Invocations'), m2 (...)" of every result, for messages. Returns buf. */
static const char *list_results(struct fy_node *results, char *buf, size_t size)
{
	struct fy_node *res;
	void *it = NULL;
	size_t o = 0;
	int i = 0;

	buf[0] = '\0';
	while ((res = fy_node_sequence_iterate(results, &it)) && o < size) {
		const char *id = fy_node_get_scalar0(fy_node_mapping_lookup_value_by_simple_key(res, "Id", (size_t)-1));
		const char *lb = fy_node_get_scalar0(fy_node_mapping_lookup_value_by_simple_key(res, "Label",
											  (size_t)-1));

		if (i++ == CHOICES_LISTED) {
			snprintf(buf + o, size - o, ", ...");
			break;
		}
		o += (size_t)snprintf(buf + o, size - o, "%sid '%.40s' (label '%.60s')", i > 1 ? ", " : "",
				      id ? id : "", lb ? lb : "");
	}
	return buf;
}

/* Pass 1: which result the query means, into r->m->index. */
static int choose(struct reader *r, struct fy_node *results, struct fy_node *near)
{
	const struct cwmetrics_query *q = r->q;
	char path[48], list[DIAG_MSG_MAX / 2], id[CWMETRICS_NAME_MAX], lb[CWMETRICS_NAME_MAX];
	struct fy_node *res;
	void *it = NULL;
	int i = 0, found = -1, rc;

	while ((res = fy_node_sequence_iterate(results, &it))) {
		snprintf(path, sizeof path, "MetricDataResults[%d]", i);
		if (!fy_node_is_mapping(res))
			return jsondoc_fail(r->d, r->label, res, near, "%s: expected a result (a mapping with Id, "
					    "Label, Timestamps, Values, StatusCode), got %s", path,
					    jsondoc_describe(res, list, sizeof list));
		if ((rc = string_key(r, res, "Id", path, false, id)) || (rc = string_key(r, res, "Label", path, false, lb)))
			return rc;
		if (found < 0 && (q->index >= 0 ? i == q->index : (!q->id[0] || strcmp(id, q->id) == 0) &&
				  (!q->label[0] || strcmp(lb, q->label) == 0)))
			found = i;
		i++;
	}
	r->m->nresults = i;
	if (i == 0)
		return jsondoc_fail(r->d, r->label, results, near, "MetricDataResults: an empty list; expected "
				    "at least one result (did the query match no metric?)");
	if (q->index < 0 && !q->id[0] && !q->label[0] && i > 1)
		return jsondoc_fail(r->d, r->label, results, near, "MetricDataResults: %d results; expected one, "
				    "or id or label to choose among: %s", i, list_results(results, list, sizeof list));
	if (found < 0) {
		char what[2 * CWMETRICS_NAME_MAX + 32];

		snprintf(what, sizeof what, "%s%.*s%s%s%.*s%s", q->id[0] ? "id '" : "", CWMETRICS_NAME_MAX, q->id,
			 q->id[0] ? "'" : "", q->id[0] && q->label[0] ? " and label '" : q->label[0] ? "label '" : "",
			 CWMETRICS_NAME_MAX, q->label, q->label[0] ? "'" : "");
		return jsondoc_fail(r->d, r->label, results, near, "MetricDataResults: no result with %s; expected "
				    "one of: %s", what, list_results(results, list, sizeof list));
	}
	r->m->index = found;
	return STATUS_OK;
}

/* Pass 2: check result i's entries, and keep its points when it is the chosen one. */
static int read_result(struct reader *r, struct fy_node *res, int i)
{
	bool chosen = i == r->m->index;
	struct fy_node *ts, *vs, *t, *v;
	char path[48], p[80];
	void *it = NULL, *iv = NULL;
	int n, k = 0, rc;
	int64_t t_us;
	double x;

	snprintf(path, sizeof path, "MetricDataResults[%d]", i);
	if ((rc = string_key(r, res, "StatusCode", path, false, chosen ? r->m->status : NULL)) ||
	    (rc = list_key(r, res, "Timestamps", path, "timestamps", &ts)) ||
	    (rc = list_key(r, res, "Values", path, "numbers", &vs)))
		return rc;
	if ((n = fy_node_sequence_item_count(ts)) != fy_node_sequence_item_count(vs))
		return jsondoc_fail(r->d, r->label, vs, res, "%s.Values: %d values for %d timestamps; expected one "
				    "value per timestamp", path, fy_node_sequence_item_count(vs), n);
	if (chosen) {
		string_key(r, res, "Id", path, false, r->m->id);
		string_key(r, res, "Label", path, false, r->m->label);
		r->stamps = ts;
		r->where = res;
		snprintf(r->path, sizeof r->path, "%s.Timestamps", path);
	}
	while ((t = fy_node_sequence_iterate(ts, &it)) && (v = fy_node_sequence_iterate(vs, &iv))) {
		snprintf(p, sizeof p, "%s.Timestamps[%d]", path, k);
		if ((rc = read_stamp(r, t, ts, p, &t_us)))
			return rc;
		snprintf(p, sizeof p, "%s.Values[%d]", path, k);
		if ((rc = read_value(r, v, vs, p, &x)) || (chosen && (rc = keep(r, n, k, t_us, x))))
			return rc;
		k++;
	}
	return STATUS_OK;
}

static int read_data(struct reader *r, struct fy_node *root, struct fy_node *results)
{
	struct fy_node *res, *tok;
	void *it = NULL;
	int i = 0, rc;

	r->m->shape = CWMETRICS_DATA;
	if (!fy_node_is_sequence(results)) {
		char got[GOT_MAX];

		return jsondoc_fail(r->d, r->label, results, root, "MetricDataResults: expected a list of results, "
				    "got %s", jsondoc_describe(results, got, sizeof got));
	}
	if ((rc = choose(r, results, root)))
		return rc;
	tok = fy_node_mapping_lookup_value_by_simple_key(root, "NextToken", (size_t)-1);
	r->m->more_pages = fy_node_is_scalar(tok) && fy_node_get_scalar0(tok) && *fy_node_get_scalar0(tok) &&
			   fy_node_get_style(tok) == FYNS_DOUBLE_QUOTED;
	while ((res = fy_node_sequence_iterate(results, &it)))
		if ((rc = read_result(r, res, i++)))
			return rc;
	return STATUS_OK;
}

/* ---- get-metric-statistics ------------------------------------------------------------------------ */

static int read_statistics(struct reader *r, struct fy_node *root)
{
	const char *stat = stat_keys[r->q->stat];
	struct fy_node *list, *dp, *t, *v;
	char path[48], p[80], got[GOT_MAX];
	void *it = NULL;
	int64_t t_us;
	int k = 0, rc;
	double x;

	r->m->shape = CWMETRICS_STATISTICS;
	r->m->nresults = 1;
	if ((rc = string_key(r, root, "Label", "", false, r->m->label)) ||
	    (rc = list_key(r, root, "Datapoints", "", "datapoints", &list)))
		return rc;
	if (r->q->id[0])
		return jsondoc_fail(r->d, r->label, root, NULL, "id '%s' asked for, but get-metric-statistics "
				    "output has no Ids; expected no id, or label", r->q->id);
	if (r->q->label[0] && strcmp(r->q->label, r->m->label) != 0)
		return jsondoc_fail(r->d, r->label, root, NULL, "Label '%s'; expected '%s' (the label asked for)",
				    r->m->label, r->q->label);
	r->stamps = list;
	r->where = root;
	snprintf(r->path, sizeof r->path, "Datapoints");
	while ((dp = fy_node_sequence_iterate(list, &it))) {
		snprintf(path, sizeof path, "Datapoints[%d]", k);
		if (!fy_node_is_mapping(dp))
			return jsondoc_fail(r->d, r->label, dp, list, "%s: expected a datapoint (a mapping with "
					    "Timestamp and %s), got %s", path, stat, jsondoc_describe(dp, got, sizeof got));
		t = fy_node_mapping_lookup_value_by_simple_key(dp, "Timestamp", (size_t)-1);
		v = fy_node_mapping_lookup_value_by_simple_key(dp, stat, (size_t)-1);
		if (!t || !v)
			return jsondoc_fail(r->d, r->label, dp, list, "%s: no key '%s'; expected Timestamp and the "
					    "statistic asked for, %s (the CLI prints only the --statistics requested)", path,
					    t ? stat : "Timestamp", stat);
		snprintf(p, sizeof p, "%s.Timestamp", path);
		if ((rc = read_stamp(r, t, dp, p, &t_us)))
			return rc;
		snprintf(p, sizeof p, "%s.%s", path, stat);
		if ((rc = read_value(r, v, dp, p, &x)) ||
		    (rc = keep(r, fy_node_sequence_item_count(list), k, t_us, x)))
			return rc;
		k++;
	}
	return STATUS_OK;
}

/* ---- the series ----------------------------------------------------------------------------------- */

static int by_time(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	if (x->t_us != y->t_us)
		return x->t_us < y->t_us ? -1 : 1;
	return (x->k > y->k) - (x->k < y->k);
}

/* The JSON path of point k of the chosen series, and its timestamp node. */
static struct fy_node *stamp_at(struct reader *r, int k, char *path, size_t size)
{
	struct fy_node *n = fy_node_sequence_get_by_index(r->stamps, k);

	if (r->m->shape == CWMETRICS_DATA) {
		snprintf(path, size, "MetricDataResults[%d].Timestamps[%d]", r->m->index, k);
		return n;
	}
	snprintf(path, size, "Datapoints[%d].Timestamp", k);
	return fy_node_mapping_lookup_value_by_simple_key(n, "Timestamp", (size_t)-1);
}

/* Sort, check duplicates and the grid, and build the dense series. */
static int finish(struct reader *r)
{
	struct cwmetrics *m = r->m;
	char path[80], other[80], when[24];
	struct point *p = r->pts;
	int64_t span;

	if (r->npts == 0)
		return jsondoc_fail(r->d, r->label, r->stamps, r->where, "%s: no datapoints%s%s%s; expected at "
				    "least one", r->path, m->status[0] ? " (StatusCode " : "", m->status,
				    m->status[0] ? ")" : "");
	qsort(p, (size_t)r->npts, sizeof *p, by_time);
	m->period_us = r->q->period_us;
	for (int i = 1; i < r->npts; i++) {
		if (p[i].t_us == p[i - 1].t_us) {
			struct fy_node *n = stamp_at(r, p[i].k, path, sizeof path);

			stamp_at(r, p[i - 1].k, other, sizeof other);
			return jsondoc_fail(r->d, r->label, n, r->stamps, "%s: the same time as %s; expected one "
					    "point per period", path, other);
		}
		if (!r->q->period_us && (m->period_us == 0 || p[i].t_us - p[i - 1].t_us < m->period_us))
			m->period_us = p[i].t_us - p[i - 1].t_us;
	}
	if (m->period_us == 0)
		return jsondoc_fail(r->d, r->label, r->stamps, r->where, "%s: a single datapoint gives no period; "
				    "expected the period to be stated (period_s)", r->path);
	m->first_unix_us = p[0].t_us;
	for (int i = 1; i < r->npts; i++) {
		if ((p[i].t_us - p[0].t_us) % m->period_us != 0) {
			struct fy_node *n = stamp_at(r, p[i].k, path, sizeof path);

			units_format_time(units_floor_s(p[0].t_us), when, sizeof when);
			return jsondoc_fail(r->d, r->label, n, r->stamps, "%s: %.6g s after the first point (%s), "
					    "off the %.6g s period grid; expected whole periods from the first point", path,
					    (double)(p[i].t_us - p[0].t_us) / 1e6, when, (double)m->period_us / 1e6);
		}
	}
	span = (p[r->npts - 1].t_us - p[0].t_us) / m->period_us;
	if (span >= CWMETRICS_PERIODS_MAX)
		return jsondoc_fail(r->d, r->label, r->stamps, r->where, "%s: %lld periods of %.6g s from the first "
				    "point to the last; expected at most %d", r->path, (long long)span + 1, (double)m->period_us / 1e6,
				    CWMETRICS_PERIODS_MAX);
	m->nperiods = (int)span + 1;
	m->npoints = r->npts;
	if (!(m->value = malloc((size_t)m->nperiods * sizeof *m->value)))
		return diag_at(r->d, STATUS_ENOMEM, r->label, 0, 0, "out of memory while reading the metrics");
	for (int i = 0; i < m->nperiods; i++)
		m->value[i] = NAN;
	for (int i = 0; i < r->npts; i++)
		m->value[(p[i].t_us - p[0].t_us) / m->period_us] = p[i].v;
	return STATUS_OK;
}

static int read_doc(struct reader *r, const char *text, size_t len)
{
	struct jsondoc j;
	struct fy_node *root, *results;
	int rc;

	if ((rc = jsondoc_load(&j, text, len, r->label, "the metrics", r->d)))
		return rc;
	root = fy_document_root(j.fyd);
	results = fy_node_is_mapping(root) ?
		  fy_node_mapping_lookup_value_by_simple_key(root, "MetricDataResults", (size_t)-1) : NULL;
	if (results)
		rc = read_data(r, root, results);
	else if (fy_node_is_mapping(root) && fy_node_mapping_lookup_value_by_simple_key(root, "Datapoints", (size_t)-1))
		rc = read_statistics(r, root);
	else
		rc = jsondoc_fail(r->d, r->label, root, NULL, "neither MetricDataResults nor Datapoints at the top "
				  "level; expected the JSON of `aws cloudwatch get-metric-data` or "
				  "`get-metric-statistics`");
	if (!rc)
		rc = finish(r);
	jsondoc_fini(&j);
	return rc;
}

int cwmetrics_load(struct cwmetrics *m, const char *path, const char *label, const struct cwmetrics_query *q,
		   struct diag *d)
{
	struct reader r = { .label = label ? label : path, .d = d, .q = q, .m = m };
	size_t len;
	char *text;
	int rc;

	memset(m, 0, sizeof *m);
	if ((rc = textfile_read(path, CWMETRICS_BYTES_MAX, "CloudWatch metrics JSON", &text, &len, d)))
		return rc;
	if (memchr(text, '\0', len))
		rc = diag_at(d, STATUS_EINPUT, r.label, 0, 0, "a NUL byte; expected a JSON text file");
	else if (strspn(text, " \t\r\n") == len)
		rc = diag_at(d, STATUS_EINPUT, r.label, 1, 0, "the file is empty; expected the JSON of `aws "
			     "cloudwatch get-metric-data` or `get-metric-statistics`");
	else
		rc = read_doc(&r, text, len);
	free(r.pts);
	free(text);
	if (rc)
		cwmetrics_fini(m);
	return rc;
}

void cwmetrics_fill(struct cwmetrics *m, enum cwmetrics_gaps how)
{
	int last = 0;  /* the last point before the gap being filled: period 0 is a point */

	for (int i = 1; i < m->nperiods; i++) {
		int next = i;

		if (!isnan(m->value[i])) {
			last = i;
			continue;
		}
		while (isnan(m->value[next]))
			next++;  /* the last period is a point, so this stops */
		for (; i < next; i++)
			m->value[i] = how == CWMETRICS_GAPS_ZERO ? 0 : how == CWMETRICS_GAPS_HOLD ? m->value[last] :
				      m->value[last] + (m->value[next] - m->value[last]) * (i - last) / (next - last);
		last = next;
	}
}

bool cwmetrics_sniff(const char *path)
{
	char buf[4097];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf[strspn(buf, " \t\r\n")] == '{' &&
	       (strstr(buf, "\"MetricDataResults\"") || strstr(buf, "\"Datapoints\""));
}

void cwmetrics_fini(struct cwmetrics *m)
{
	if (!m)
		return;
	free(m->value);
	memset(m, 0, sizeof *m);
}
