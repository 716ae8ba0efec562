/*
 * scenario_schema: the check of the schema's tables against the loader's, and the JSON writer (see
 * scenario_schema.h). The tables themselves are in scenario_schema_table.c.
 */
#include "scenario_schema.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "option.h"
#include "status.h"

#define DEPTH_MAX 48  /* nesting of the written JSON; the scenario format needs about 20 */

/* ---- the check ----------------------------------------------------------------------------------- */

static bool listed(const char *key, const char *const *keys)
{
	for (int i = 0; keys[i]; i++)
		if (strcmp(keys[i], key) == 0)
			return true;
	return false;
}

static bool in_variant(const struct scenario_schema_key *e, int v)
{
	return e->variants == 0 || (e->variants & SCHEMA_V(v));
}

/* The entry of m for key in variant v (-1: any), or NULL. */
static const struct scenario_schema_key *find(const struct scenario_schema_map *m, const char *key, int v)
{
	for (const struct scenario_schema_key *e = m->entries; e->key; e++)
		if (strcmp(e->key, key) == 0 && (v < 0 || in_variant(e, v)))
			return e;
	return NULL;
}

static const char *variant_name(const struct scenario_load_variants *vs, int v)
{
	return vs->names ? vs->names[v] : option_kind_name((enum option_kind)v);
}

static int check_value(const struct scenario_schema_key *e, const char *path, struct diag *d)
{
	if ((e->type == SCHEMA_NUMBER && !e->bounds) || (e->type == SCHEMA_CHOICE && !e->names) ||
	    (e->type == SCHEMA_MAP && !e->map) || ((e->type == SCHEMA_LIST || e->type == SCHEMA_DICT) && !e->item))
		return diag_fail(d, STATUS_EINTERNAL, "schema: %s.%s has no %s", path, e->key ? e->key : "(item)",
				 e->type == SCHEMA_NUMBER ? "bounds" : e->type == SCHEMA_CHOICE ? "names" : "contents");
	if (e->type == SCHEMA_MAP)
		return scenario_schema_check(e->map, d);
	if (e->type == SCHEMA_LIST || e->type == SCHEMA_DICT)
		return check_value(e->item, path, d);
	return STATUS_OK;
}

/* A mapping with one list of keys: each key has an entry, each entry a key, each `only` key is a key. */
static int check_flat(const struct scenario_schema_map *m, struct diag *d)
{
	const char *const *keys = m->keys->names;

	for (int i = 0; keys[i]; i++)
		if (!find(m, keys[i], -1))
			return diag_fail(d, STATUS_EINTERNAL, "schema: the loader accepts %s.%s, which has no schema "
					 "entry", m->path, keys[i]);
	for (const struct scenario_schema_key *e = m->entries; e->key; e++)
		if (!listed(e->key, keys))
			return diag_fail(d, STATUS_EINTERNAL, "schema: the entry %s.%s names a key the loader "
					 "does not accept", m->path, e->key);
	for (const struct scenario_schema_only *o = m->only; o && (o->keys || o->key); o++)
		for (int i = 0; o->keys ? i < o->keys->n : i < 1; i++)
			if (!listed(o->keys ? o->keys->names[i] : o->key, keys))
				return diag_fail(d, STATUS_EINTERNAL, "schema: %s.%s is limited to some variants "
						 "but the loader does not accept it", m->path,
						 o->keys ? o->keys->names[i] : o->key);
	return STATUS_OK;
}

/* A mapping with keys per variant: each key of each variant has an entry for that variant, each entry a
 * key in one of the variants it describes. */
static int check_variants(const struct scenario_schema_map *m, struct diag *d)
{
	const struct scenario_load_variants *vs = m->variants;
	bool used;

	for (int v = 0; v < vs->n; v++)
		for (int i = 0; vs->keys[v] && vs->keys[v][i]; i++)
			if (!find(m, vs->keys[v][i], v))
				return diag_fail(d, STATUS_EINTERNAL, "schema: the loader accepts %s.%s under %s %s, "
						 "which has no schema entry", m->path, vs->keys[v][i], vs->key,
						 variant_name(vs, v));
	for (const struct scenario_schema_key *e = m->entries; e->key; e++) {
		used = false;
		for (int v = 0; v < vs->n && !used; v++)
			used = in_variant(e, v) && vs->keys[v] && listed(e->key, vs->keys[v]);
		if (!used)
			return diag_fail(d, STATUS_EINTERNAL, "schema: the entry %s.%s names a key the loader "
					 "does not accept", m->path, e->key);
	}
	return STATUS_OK;
}

int scenario_schema_check(const struct scenario_schema_map *m, struct diag *d)
{
	int rc = m->variants ? check_variants(m, d) : check_flat(m, d);

	for (const struct scenario_schema_key *e = m->entries; rc == STATUS_OK && e->key; e++)
		rc = check_value(e, m->path, d);
	return rc;
}

/* ---- a small JSON writer ------------------------------------------------------------------------- */

struct out {
	FILE *f;
	int depth;
	bool first[DEPTH_MAX];  /* nothing written yet in the container at each depth */
};

/* Start a member or element: the comma, a new line and the indentation. */
static void next(struct out *o)
{
	if (o->depth == 0)
		return;  /* the document itself */
	fputs(o->first[o->depth] ? "\n" : ",\n", o->f);
	o->first[o->depth] = false;
	fprintf(o->f, "%*s", 2 * o->depth, "");
}

static void str(struct out *o, const char *s)
{
	fputc('"', o->f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(o->f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(o->f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, o->f);
	}
	fputc('"', o->f);
}

/* `"key": ` in the current object (key NULL: an array element). */
static void member(struct out *o, const char *key)
{
	next(o);
	if (key) {
		str(o, key);
		fputs(": ", o->f);
	}
}

static void jopen(struct out *o, const char *key, char brace)
{
	member(o, key);
	fputc(brace, o->f);
	o->depth++;
	o->first[o->depth] = true;
}

static void jclose(struct out *o, char brace)
{
	bool empty = o->first[o->depth];

	o->depth--;
	if (!empty)
		fprintf(o->f, "\n%*s", 2 * o->depth, "");
	fputc(brace, o->f);
}

/* `"key": TEXT`, TEXT formatted as JSON by the caller. */
static void raw(struct out *o, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void raw(struct out *o, const char *key, const char *fmt, ...)
{
	va_list ap;

	member(o, key);
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}

static void text(struct out *o, const char *key, const char *s)
{
	member(o, key);
	str(o, s);
}

/* A number as a bound: integers in full, others with 15 significant digits. */
static void number(char *buf, size_t size, double v)
{
	if (fabs(v) < 1e15 && v == floor(v))
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%.15g", v);
}

/* The names as a one-line JSON array; "false" and "true" also as YAML's booleans, which they parse as. */
static void names_array(struct out *o, const char *key, const char *const *names, int n, bool booleans)
{
	member(o, key);
	fputc('[', o->f);
	for (int i = 0; i < n; i++) {
		if (booleans && (strcmp(names[i], "false") == 0 || strcmp(names[i], "true") == 0))
			fprintf(o->f, "%s, ", names[i]);
		str(o, names[i]);
		fputs(i + 1 < n ? ", " : "", o->f);
	}
	fputc(']', o->f);
}

/* ---- the schema ---------------------------------------------------------------------------------- */

static void write_map(struct out *o, const struct scenario_schema_map *m);

/* A number's range as JSON members: ", \"minimum\": 0, \"maximum\": 1" into buf. */
static void range(char *buf, size_t size, const char *type, double lo, bool lo_open, double hi, bool hi_open)
{
	char a[40], b[40];
	size_t n = (size_t)snprintf(buf, size, "{\"type\": \"%s\"", type);

	number(a, sizeof a, lo);
	number(b, sizeof b, hi);
	if (isfinite(lo) && n < size)
		n += (size_t)snprintf(buf + n, size - n, ", \"%s\": %s", lo_open ? "exclusiveMinimum" : "minimum", a);
	if (isfinite(hi) && n < size)
		n += (size_t)snprintf(buf + n, size - n, ", \"%s\": %s", hi_open ? "exclusiveMaximum" : "maximum", b);
	if (n < size)
		snprintf(buf + n, size - n, "}");
}

/* anyOf: the typed value within its range, or its text (which the loader reads just the same). */
static void typed_or_text(struct out *o, const char *typed, const char *def)
{
	raw(o, "anyOf", "[%s, {\"$ref\": \"#/$defs/%s\"}]", typed, def);
}

static void write_bounds(struct out *o, const struct yamldoc_bounds *b)
{
	char buf[256];

	range(buf, sizeof buf, "number", b->lo, b->lo_open, b->hi, b->hi_open);
	typed_or_text(o, buf, "number_text");
}

/* The members of the schema of one value (the caller has opened its object). */
static void write_value(struct out *o, const struct scenario_schema_key *e)
{
	char buf[256];

	if (e->desc)
		text(o, "description", e->desc);
	if (e->dflt)
		raw(o, "default", "%s", e->dflt);
	switch (e->type) {
	case SCHEMA_INT:  /* in full: a double would round INT64_MAX up */
		snprintf(buf, sizeof buf, "{\"type\": \"integer\", \"minimum\": %lld, \"maximum\": %lld}%s%s%s%s",
			 (long long)e->lo, (long long)e->hi, e->or_auto ? ", {\"const\": \"auto\"}" : "",
			 e->or_word ? ", {\"const\": \"" : "", e->or_word ? e->or_word : "", e->or_word ? "\"}" : "");
		typed_or_text(o, buf, "integer_text");
		break;
	case SCHEMA_NUMBER:
		write_bounds(o, *e->bounds);
		break;
	case SCHEMA_DURATION:
		range(buf, sizeof buf, "number", (double)e->lo / 1e6, e->lo_open, (double)e->hi / 1e6, false);
		typed_or_text(o, buf, "duration_text");
		break;
	case SCHEMA_TIME:
		raw(o, "$ref", "\"#/$defs/time\"");
		break;
	case SCHEMA_STRING:
		raw(o, "$ref", "\"#/$defs/text\"");
		raw(o, "maxLength", "%lld", (long long)e->hi);
		break;
	case SCHEMA_CHOICE:
		names_array(o, "enum", e->names->names, e->names->n, true);
		break;
	case SCHEMA_MAP:
		write_map(o, e->map);
		break;
	case SCHEMA_LIST:
		raw(o, "type", "\"array\"");
		raw(o, "minItems", "%lld", (long long)e->lo);
		raw(o, "maxItems", "%lld", (long long)e->hi);
		jopen(o, "items", '{');
		write_value(o, e->item);
		jclose(o, '}');
		break;
	case SCHEMA_WHEN:
		raw(o, "anyOf", "[{\"$ref\": \"#/$defs/time\"}, {\"type\": \"number\", \"minimum\": 0}, "
		    "{\"$ref\": \"#/$defs/duration_text\"}]");
		break;
	case SCHEMA_SELECTOR:
		break;  /* the enum, or the const of one variant: written by write_variants */
	case SCHEMA_DICT:
		raw(o, "type", "\"object\"");
		raw(o, "propertyNames", "{\"minLength\": 1, \"maxLength\": %lld}", (long long)e->hi);
		jopen(o, "additionalProperties", '{');
		write_value(o, e->item);
		jclose(o, '}');
		break;
	}
}

/* "properties" for the keys, each described by its entry for variant v (-1: any); the selector is the
 * constant `name` (NULL: variant v's own name). */
static void write_properties(struct out *o, const struct scenario_schema_map *m, const char *const *keys, int v,
			     const char *name)
{
	jopen(o, "properties", '{');
	for (int i = 0; keys[i]; i++) {
		jopen(o, keys[i], '{');
		write_value(o, find(m, keys[i], v));
		if (m->variants && strcmp(keys[i], m->variants->key) == 0)
			raw(o, "const", "\"%s\"", name ? name : variant_name(m->variants, v));
		jclose(o, '}');
	}
	jclose(o, '}');
}

/* "required": the keys whose entries require them in variant v, or (v < 0) in every variant; with
 * `fewer`, not those required in every variant (written already). */
static void write_required(struct out *o, const struct scenario_schema_map *m, const char *const *keys, int v,
			   bool fewer)
{
	const char *req[64];
	unsigned r;
	int n = 0;

	for (int i = 0; keys[i] && n < 64; i++) {
		r = find(m, keys[i], v)->required;
		if (v < 0 ? r == SCHEMA_ALL : (r & SCHEMA_V(v)) && !(fewer && r == SCHEMA_ALL))
			req[n++] = keys[i];
	}
	if (n)
		names_array(o, "required", req, n, false);
}

/* `"if": {selector is name}` (the default variant also when the selector is absent). */
static void write_if(struct out *o, const char *selector, const char *name, bool dflt)
{
	jopen(o, "if", '{');
	jopen(o, "properties", '{');
	raw(o, selector, "{\"const\": \"%s\"}", name);
	jclose(o, '}');
	if (!dflt)
		raw(o, "required", "[\"%s\"]", selector);
	jclose(o, '}');
}

/* Per variant of a flat mapping: refuse the keys it does not take, require those it needs. */
static void write_flat_variant(struct out *o, const struct scenario_schema_map *m, int v)
{
	const char *const *keys = m->keys->names;

	jopen(o, NULL, '{');
	write_if(o, m->selector, m->selector_names->names[v], v == 0);
	jopen(o, "then", '{');
	jopen(o, "properties", '{');
	for (const struct scenario_schema_only *x = m->only; x->keys || x->key; x++)
		for (int i = 0; !(x->variants & SCHEMA_V(v)) && (x->keys ? i < x->keys->n : i < 1); i++)
			raw(o, x->keys ? x->keys->names[i] : x->key, "false");
	jclose(o, '}');
	write_required(o, m, keys, v, true);
	jclose(o, '}');
	jclose(o, '}');
}

/* One item of autoscaling's allOf: when the metric is one of names[0..n), the target within `then`, and
 * otherwise within `other` (NULL: no else). */
static void write_target_case(struct out *o, const char *const *names, int n,
			      const struct yamldoc_bounds *then, const struct yamldoc_bounds *other)
{
	jopen(o, NULL, '{');
	jopen(o, "if", '{');
	jopen(o, "properties", '{');
	jopen(o, "metric", '{');
	names_array(o, "enum", names, n, false);
	jclose(o, '}');
	jclose(o, '}');
	raw(o, "required", "[\"metric\"]");
	jclose(o, '}');
	for (int side = 0; side < 2 && (side == 0 || other); side++) {
		jopen(o, side == 0 ? "then" : "else", '{');
		jopen(o, "properties", '{');
		jopen(o, "target", '{');
		write_bounds(o, side == 0 ? then : other);
		jclose(o, '}');
		jclose(o, '}');
		jclose(o, '}');
	}
	jclose(o, '}');
}

/* autoscaling's target: (0, 1] for concurrency (the default metric), up to 1e9 for every other metric, and
 * for the GPU metrics (scenario_gpumetric.c), percent summed over GPUs, also at most 100 x the most GPUs an
 * instance type has (allOf: both cases hold). */
static void write_target_by_metric(struct out *o, const struct scenario_schema_map *m)
{
	const struct scenario_load_names *metric = find(m, "metric", -1)->names;

	write_target_case(o, metric->names + 1, metric->n - 1, scenario_load_invocations_target,
			  scenario_load_concurrency_target);
	write_target_case(o, metric->names + METRIC_GPU_UTIL, metric->n - METRIC_GPU_UTIL,
			  scenario_load_gpu_target, NULL);
}

/* One item of a variants map's allOf: when the selector is `name`, variant v's keys and no others. */
static void write_variant_case(struct out *o, const struct scenario_schema_map *m, const char *name, int v)
{
	const struct scenario_load_variants *vs = m->variants;

	jopen(o, NULL, '{');
	write_if(o, vs->key, name, false);
	jopen(o, "then", '{');
	write_properties(o, m, vs->keys[v], v, name);
	write_required(o, m, vs->keys[v], v, false);
	raw(o, "additionalProperties", "false");
	jclose(o, '}');
	jclose(o, '}');
}

/* A mapping with keys per variant: the selector, then for each variant (and each alias of one, such as a
 * provider's own product) its keys and no others. */
static void write_variants(struct out *o, const struct scenario_schema_map *m)
{
	const struct scenario_load_variants *vs = m->variants;
	const struct scenario_schema_key *sel = find(m, vs->key, -1);
	const char *alias;
	int av;

	jopen(o, "properties", '{');
	jopen(o, vs->key, '{');
	text(o, "description", sel->desc);
	member(o, "enum");
	fputc('[', o->f);
	for (int v = 0, first = 1; v < vs->n; v++) {
		if (!vs->keys[v])
			continue;  /* not offered here (a fleet has no savings_plan) */
		fputs(first ? "" : ", ", o->f);
		str(o, variant_name(vs, v));
		first = 0;
	}
	for (int i = 0; m->alias && m->alias(i, &alias, &av); i++) {
		fputs(", ", o->f);
		str(o, alias);
	}
	fputc(']', o->f);
	jclose(o, '}');
	jclose(o, '}');
	raw(o, "required", "[\"%s\"]", vs->key);
	jopen(o, "allOf", '[');
	for (int v = 0; v < vs->n; v++)
		if (vs->keys[v])
			write_variant_case(o, m, variant_name(vs, v), v);
	for (int i = 0; m->alias && m->alias(i, &alias, &av); i++)
		write_variant_case(o, m, alias, av);
	jclose(o, ']');
}

/* "dependentRequired": {"KEY": ["REQUIRED", ...], ...} from pairs {key, required} (grouped by key). */
static void write_depends(struct out *o, const char *const *pairs)
{
	char buf[512];
	size_t n = 0;

	n += (size_t)snprintf(buf + n, sizeof buf - n, "{");
	for (int i = 0; pairs[i] && n < sizeof buf; i += 2)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s\"%s\": [\"%s\"]", i ? ", " : "", pairs[i],
				      pairs[i + 1]);
	if (n < sizeof buf)
		snprintf(buf + n, sizeof buf - n, "}");
	raw(o, "dependentRequired", "%s", buf);
}

static void write_map(struct out *o, const struct scenario_schema_map *m)
{
	raw(o, "type", "\"object\"");
	if (m->variants) {
		write_variants(o, m);
		return;
	}
	write_properties(o, m, m->keys->names, -1, NULL);
	write_required(o, m, m->keys->names, -1, false);
	if (m->depends)
		write_depends(o, m->depends);
	raw(o, "additionalProperties", "false");
	if (!m->selector && !m->target_by_metric)
		return;
	jopen(o, "allOf", '[');
	for (int v = 0; m->selector && v < m->selector_names->n; v++)
		write_flat_variant(o, m, v);
	if (m->target_by_metric)
		write_target_by_metric(o, m);
	jclose(o, ']');
}

/* Text forms of values, shared by the keys that take them. */
static void write_defs(struct out *o)
{
	jopen(o, "$defs", '{');
	raw(o, "integer_text", "{\"description\": \"an integer written as text\", \"type\": \"string\", "
	    "\"pattern\": \"^-?[0-9]+$\"}");
	raw(o, "number_text", "{\"description\": \"a number written as text\", \"type\": \"string\", "
	    "\"pattern\": \"^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$\"}");
	raw(o, "duration_text", "{\"description\": \"a duration: a number of seconds, or a number with a unit "
	    "(ms, s, m, h, d, w) such as 250ms, 90s, 15m, 36h, 7d, 1w\", \"type\": \"string\", "
	    "\"pattern\": \"^([0-9]+[.]?[0-9]*|[.][0-9]+)(ms|s|m|h|d|w)?$\"}");
	raw(o, "time", "{\"description\": \"an ISO-8601 UTC time such as 2026-12-01T00:00:00Z\", "
	    "\"type\": \"string\", \"pattern\": \"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
	    "T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]([.][0-9]+)?(Z|[+]00:00)$\"}");
	raw(o, "text", "{\"description\": \"a non-empty string without control characters (any scalar: "
	    "the loader reads its text)\", \"type\": [\"string\", \"number\", \"boolean\", \"null\"], "
	    "\"minLength\": 1, \"pattern\": \"^[^\\\\u0000-\\\\u001f\\\\u007f]*$\"}");
	jclose(o, '}');
}

int scenario_schema_write(const struct scenario_schema_map *root, FILE *out, struct diag *d)
{
	struct out o = { out, 0, { true } };
	int rc = scenario_schema_check(root, d);

	if (rc != STATUS_OK)
		return rc;
	jopen(&o, NULL, '{');
	text(&o, "$schema", "https://json-schema.org/draft/2020-12/schema");
	text(&o, "title", "gpucap scenario");
	text(&o, "description", "A gpucap scenario file (YAML), generated by `gpucap schema " GPUCAP_VERSION "` "
	     "from the loader's tables. gpucap validate checks more than this schema can say (keys that "
	     "exclude or need each other, the fleet against autoscaling, files): see README.md.");
	write_map(&o, root);
	write_defs(&o);
	jclose(&o, '}');
	fputc('\n', out);
	/* not flushed here: the caller flushes out, and sees the cause of a failure there (cmd_schema.c) */
	if (ferror(out))
		return diag_fail(d, STATUS_EIO, "cannot write the schema");
	return STATUS_OK;
}
