/*
 * availtrace: a SkyPilot spot availability trace (see availtrace.h).
 *
 * The file is read whole (the traces are tens of kilobytes), checked to be UTF-8 text without NUL bytes,
 * and parsed by libfyaml in JSON mode. libfyaml's messages are collected into a buffer, never printed;
 * the first error becomes ours, with its line and column. Values are checked from their text as written,
 * so "3" (a string), 3.5, -1 and null are told apart from 3 and 3.0.
 */
#include "availtrace.h"

#include <errno.h>
#include <libfyaml.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsondoc.h"
#include "status.h"
#include "units.h"

#define QUOTE_MAX 48  /* bytes of a bad value quoted back in a message */

static int nomem(const char *label, struct diag *d)
{
	return diag_at(d, STATUS_ENOMEM, label, 0, 0, "out of memory while reading the trace");
}

/* Read the whole of path into *text (returns owned, NUL-terminated) and *len. */
static int read_all(const char *path, const char *label, char **text, size_t *len, struct diag *d)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 0, n = 0, got;
	char *buf = NULL, *bigger;
	int rc = STATUS_OK;

	if (!f)
		return diag_at(d, STATUS_ENOENT, label, 0, 0, "cannot open: %s", strerror(errno));
	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 64 * 1024;
			if (!(bigger = realloc(buf, cap + 1))) {
				rc = nomem(label, d);
				goto out_close;
			}
			buf = bigger;
		}
		n += got = fread(buf + n, 1, cap - n, f);
	} while (got > 0);
	if (ferror(f))
		rc = diag_at(d, STATUS_ENOENT, label, 0, 0, "cannot read: %s", strerror(errno));
out_close:
	fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return STATUS_OK;
}

/* metadata.gap_seconds of root, in microseconds. */
static int read_gap(struct fy_node *root, int64_t *gap_us, const char *label, struct diag *d)
{
	static const char expect[] = "a positive number of seconds, at most 10 years";
	struct fy_node_pair *p = fy_node_mapping_lookup_pair_by_simple_key(root, "metadata", (size_t)-1);
	struct fy_node *meta = p ? fy_node_pair_value(p) : NULL, *gap;
	char got[QUOTE_MAX + 32];
	double s;

	if (!p)
		return jsondoc_fail(d, label, root, NULL, "missing key 'metadata'; expected a mapping with "
			       "gap_seconds");
	if (!fy_node_is_mapping(meta))
		return jsondoc_fail(d, label, meta, fy_node_pair_key(p), "metadata: expected a mapping with "
			       "gap_seconds, got %s", jsondoc_describe(meta, got, sizeof got));
	gap = fy_node_mapping_lookup_value_by_simple_key(meta, "gap_seconds", (size_t)-1);
	if (!gap)
		return jsondoc_fail(d, label, meta, fy_node_pair_key(p), "metadata: missing key 'gap_seconds'; "
			       "expected %s", expect);
	if (!jsondoc_number(gap, &s) || s <= 0 || s > (double)UNITS_DURATION_MAX_US / 1e6 || llround(s * 1e6) < 1)
		return jsondoc_fail(d, label, gap, meta, "metadata.gap_seconds: expected %s, got %s", expect,
			       jsondoc_describe(gap, got, sizeof got));
	*gap_us = llround(s * 1e6);
	return STATUS_OK;
}

/* The data list of root, into at->count (returns owned) and at->n. */
static int read_data(struct fy_node *root, struct availtrace *at, const char *label, struct diag *d)
{
	struct fy_node_pair *p = fy_node_mapping_lookup_pair_by_simple_key(root, "data", (size_t)-1);
	struct fy_node *list = p ? fy_node_pair_value(p) : NULL, *item;
	char got[QUOTE_MAX + 32];
	void *it = NULL;
	int n = 0;
	double v;

	if (!p)
		return jsondoc_fail(d, label, root, NULL, "missing key 'data'; expected a list of instance "
			       "counts");
	if (!fy_node_is_sequence(list) || fy_node_sequence_item_count(list) == 0)
		return jsondoc_fail(d, label, list, fy_node_pair_key(p), "data: expected a non-empty list of "
			       "instance counts, got %s",
			       fy_node_is_sequence(list) ? "an empty list" : jsondoc_describe(list, got, sizeof got));
	at->count = malloc((size_t)fy_node_sequence_item_count(list) * sizeof *at->count);
	if (!at->count)
		return nomem(label, d);
	while ((item = fy_node_sequence_iterate(list, &it))) {
		if (!jsondoc_number(item, &v) || v < 0 || v != floor(v) || v > INT_MAX)
			return jsondoc_fail(d, label, item, list, "data[%d]: expected a whole number of instances "
				       ">= 0, got %s", n, jsondoc_describe(item, got, sizeof got));
		at->count[n++] = (int)v;
	}
	at->n = n;
	return STATUS_OK;
}

int availtrace_load(struct availtrace *at, const char *path, const char *label, struct diag *d)
{
	struct jsondoc j;
	struct fy_node *root;
	size_t len = 0;
	char *text = NULL;
	int rc, line;

	memset(at, 0, sizeof *at);
	if (!label)
		label = path;
	if ((rc = read_all(path, label, &text, &len, d)))
		return rc;
	if ((line = jsondoc_bad_text_line((unsigned char *)text, len))) {
		rc = diag_at(d, STATUS_EINPUT, label, line, 0, "a NUL byte or bytes that are not UTF-8; "
			     "expected a JSON text file");
		goto out_free;
	}
	if (strspn(text, " \t\r\n") == len) {
		rc = diag_at(d, STATUS_EINPUT, label, 1, 0, "the file is empty; expected a spot trace "
			     "{\"metadata\": {\"gap_seconds\": G}, \"data\": [...]}");
		goto out_free;
	}
	if ((rc = jsondoc_load(&j, text, len, label, "the trace", d)))
		goto out_close;
	root = fy_document_root(j.fyd);
	if (!fy_node_is_mapping(root))
		rc = jsondoc_fail(d, label, root, NULL, "expected {\"metadata\": {\"gap_seconds\": G}, "
			     "\"data\": [...]} at top level, got %s",
			     fy_node_is_sequence(root) ? "a list" : "a single value");
	if (!rc)
		rc = read_gap(root, &at->gap_us, label, d);
	if (!rc)
		rc = read_data(root, at, label, d);
out_close:
	jsondoc_fini(&j);
	if (rc)
		availtrace_fini(at);
out_free:
	free(text);
	return rc;
}

int availtrace_at(const struct availtrace *at, int64_t t_us)
{
	if (t_us < 0)
		return at->count[0];
	return at->count[(t_us / at->gap_us) % at->n];
}

void availtrace_fini(struct availtrace *at)
{
	if (!at)
		return;
	free(at->count);
	memset(at, 0, sizeof *at);
}
