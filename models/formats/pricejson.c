/*
 * pricejson: the price-list readers' shared helpers (see pricejson.h).
 */
#include "pricejson.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsondoc.h"
#include "status.h"

#define GOT_MAX 96  /* room for a described value */

int pricejson_fail(struct pricejson *c, struct fy_node *n, struct fy_node *near, const char *path,
		   const char *fmt, ...)
{
	char msg[DIAG_MSG_MAX];
	const char *sep = path[0] ? ": " : "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (c->placed)
		return diag_at(c->d, STATUS_EINPUT, c->label, 0, 0, "%s%s%s", path, sep, msg);
	return jsondoc_fail(c->d, c->label, n, near, "%s%s%s", path, sep, msg);
}

int pricejson_each(struct pricejson *c, struct fy_node *root, const char *key, const char *expect,
		   int (*item)(struct pricejson *c, struct fy_node *n, const char *path))
{
	struct fy_node *list, *n;
	char path[PRICEJSON_PATH_MAX];
	void *it = NULL;
	int rc, i = 0;

	if ((rc = pricejson_child(c, root, "", key, 'l', true, expect, &list)))
		return rc;
	while ((n = fy_node_sequence_iterate(list, &it)))
		if ((rc = item(c, n, pricejson_path(path, key, NULL, i++))))
			return rc;
	return STATUS_OK;
}

const char *pricejson_path(char *buf, const char *path, const char *key, int i)
{
	if (!key)
		snprintf(buf, PRICEJSON_PATH_MAX, "%s[%d]", path, i);
	else
		snprintf(buf, PRICEJSON_PATH_MAX, "%s%s%.200s", path, path[0] ? "." : "", key);
	return buf;
}

int pricejson_child(struct pricejson *c, struct fy_node *map, const char *path, const char *key, char want,
		    bool required, const char *expect, struct fy_node **out)
{
	struct fy_node *v = fy_node_mapping_lookup_value_by_simple_key(map, key, (size_t)-1);
	char got[GOT_MAX], sub[PRICEJSON_PATH_MAX];
	bool ok;

	*out = NULL;
	if (!v && !required)
		return STATUS_OK;
	if (!v)
		return pricejson_fail(c, map, NULL, path, "missing key '%s'; expected %s", key, expect);
	ok = want == 'm' ? fy_node_is_mapping(v) : want == 'l' ? fy_node_is_sequence(v)
	     : fy_node_is_scalar(v) && fy_node_get_style(v) == FYNS_DOUBLE_QUOTED;
	if (!ok)
		return pricejson_fail(c, v, map, pricejson_path(sub, path, key, 0), "expected %s, got %s", expect,
				      jsondoc_describe(v, got, sizeof got));
	*out = v;
	return STATUS_OK;
}

int pricejson_string(struct pricejson *c, struct fy_node *map, const char *path, const char *key,
		     bool required, char *buf, size_t size)
{
	struct fy_node *v;
	char sub[PRICEJSON_PATH_MAX];
	const char *s;
	size_t len = 0;
	int rc;

	buf[0] = '\0';
	if ((rc = pricejson_child(c, map, path, key, 's', required, "a string", &v)) || !v)
		return rc;
	s = fy_node_get_scalar(v, &len);
	if (!s || len >= size || memchr(s, '\0', len))
		return pricejson_fail(c, v, map, pricejson_path(sub, path, key, 0), "a string of %zu bytes; "
				      "expected at most %zu bytes without NUL", len, size - 1);
	memcpy(buf, s, len);
	buf[len] = '\0';
	return STATUS_OK;
}

int pricejson_number(struct pricejson *c, struct fy_node *map, const char *path, const char *key, double *v)
{
	struct fy_node *n = fy_node_mapping_lookup_value_by_simple_key(map, key, (size_t)-1);
	const char *s = fy_node_is_scalar(n) ? fy_node_get_scalar0(n) : NULL;
	char got[GOT_MAX], sub[PRICEJSON_PATH_MAX], *end = NULL;

	if (!n)
		return pricejson_fail(c, map, NULL, path, "missing key '%s'; expected a price in USD", key);
	if (s && *s && strspn(s, "0123456789+-.eE") == strlen(s) && strpbrk(s, "0123456789"))
		*v = strtod(s, &end);
	if (!end || *end || !isfinite(*v) || *v < 0)
		return pricejson_fail(c, n, map, pricejson_path(sub, path, key, 0), "expected a decimal number "
				      ">= 0 (a JSON number or a string of one), got %s",
				      jsondoc_describe(n, got, sizeof got));
	return STATUS_OK;
}

bool pricejson_region(struct pricejson *c, const char *region)
{
	c->priced = true;
	if (strcmp(region, c->region) == 0)
		return true;
	for (int i = 0; i < c->nregions; i++)
		if (strcmp(c->regions[i], region) == 0)
			return false;
	if (c->nregions < PRICEJSON_REGIONS)
		snprintf(c->regions[c->nregions++], PRICELIST_NAME_MAX, "%s", region);
	else
		c->more_regions = true;
	return false;
}

int pricejson_add(struct pricejson *c, const struct pricelist_row *r)
{
	struct pricelist_row *rows;
	int cap = c->cap ? 2 * c->cap : 16;

	if (c->pl->n == c->cap) {
		if (c->cap > (1 << 24) || !(rows = realloc(c->pl->rows, (size_t)cap * sizeof *rows)))
			return diag_at(c->d, STATUS_ENOMEM, c->label, 0, 0, "out of memory while reading the "
				       "price list");
		c->pl->rows = rows;
		c->cap = cap;
	}
	c->pl->rows[c->pl->n++] = *r;
	return STATUS_OK;
}

int pricejson_finish(struct pricejson *c, const char *what)
{
	char list[PRICEJSON_REGIONS * (PRICELIST_NAME_MAX + 2) + 8] = "";
	size_t o = 0;

	if (c->pl->n > 0)
		return STATUS_OK;
	for (int i = 0; i < c->nregions; i++)
		o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "", c->regions[i]);
	if (c->more_regions)
		snprintf(list + o, sizeof list - o, ", ...");
	if (!c->priced)
		return diag_at(c->d, STATUS_EINPUT, c->label, 0, 0, "no %s at all; expected at least one for "
			       "region %s", what, c->region);
	return diag_at(c->d, STATUS_EINPUT, c->label, 0, 0, "no %s for region %s; expected a region the file "
		       "has (%s), or a file fetched for %s", what, c->region, list, c->region);
}
