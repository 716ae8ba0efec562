/*
 * scenario_schema_md: the scenario key reference as Markdown (`gpucap schema --markdown`, committed as
 * scenarios/REFERENCE.md), written from the same tables as the JSON Schema (scenario_schema.h): one table
 * per mapping, in the order the document nests them, each key with its type, range, default, where it is
 * required and its one-line description. A mapping reached from several places (a launch delay) is
 * written once, under the path the table gives it.
 *
 * The output is deterministic; e2e_schema compares it byte for byte with the committed file.
 */
#include "scenario_schema.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "option.h"
#include "status.h"
#include "units.h"

#define MAPS_MAX 128  /* distinct mappings; the scenario format has about 50 */

struct md {
	FILE *f;
	const struct scenario_schema_map *seen[MAPS_MAX];
	int nseen;
};

static const char *variant_name(const struct scenario_load_variants *vs, int v)
{
	return vs->names ? vs->names[v] : option_kind_name((enum option_kind)v);
}

/* Text with the characters a Markdown table cell cannot hold escaped. */
static void cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

/* A duration in the largest unit that divides it: 400d, 1h, 90s, 250ms, 0. */
static void duration(FILE *f, int64_t us)
{
	static const struct { int64_t us; const char *unit; } units[] = {
		{ DAY_US, "d" }, { 3600 * S_US, "h" }, { 60 * S_US, "m" }, { S_US, "s" }, { 1000, "ms" } };

	if (us == 0) {
		fputs("0", f);
		return;
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (us % units[i].us == 0) {
			fprintf(f, "%" PRId64 "%s", us / units[i].us, units[i].unit);
			return;
		}
	fprintf(f, "%" PRId64 "us", us);
}

static void number(FILE *f, double v)
{
	if (fabs(v) < 1e15 && v == floor(v))
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.15g", v);
}

/* The names of a choice, `a`, `b`, `c`. */
static void names(FILE *f, const char *const *n, int count)
{
	for (int i = 0; i < count; i++)
		fprintf(f, "%s`%s`", i ? ", " : "", n[i]);
}

static void write_maps(struct md *o, const struct scenario_schema_map *m);

/* The type and range columns of one value, sep between them (" | "; " " for a list's items). */
static void type_and_range(struct md *o, const struct scenario_schema_key *e, const struct scenario_schema_map *m,
			   const char *sep)
{
	FILE *f = o->f;
	const struct yamldoc_bounds *b;

	switch (e->type) {
	case SCHEMA_INT:
		fprintf(f, "integer%s%" PRId64 " .. %" PRId64 "%s", sep, e->lo, e->hi, e->or_auto ? ", or `auto`" : "");
		if (e->or_word)
			fprintf(f, ", or `%s`", e->or_word);
		break;
	case SCHEMA_NUMBER:
		b = *e->bounds;
		fprintf(f, "number%s", sep);
		if (isfinite(b->lo)) {
			fputs(b->lo_open ? "> " : ">= ", f);
			number(f, b->lo);
		}
		if (isfinite(b->lo) && isfinite(b->hi))
			fputs(", ", f);
		if (isfinite(b->hi)) {
			fputs(b->hi_open ? "< " : "<= ", f);
			number(f, b->hi);
		}
		if (!isfinite(b->lo) && !isfinite(b->hi))
			fputs("any", f);
		break;
	case SCHEMA_DURATION:
		fprintf(f, "duration%s", sep);
		fputs(e->lo_open ? "> " : ">= ", f);
		duration(f, e->lo);
		fputs(", <= ", f);
		duration(f, e->hi);
		break;
	case SCHEMA_TIME:
		fprintf(f, "UTC time%s", sep);
		break;
	case SCHEMA_WHEN:
		fprintf(f, "UTC time or duration%s", sep);
		break;
	case SCHEMA_STRING:
		fprintf(f, "text%s1 .. %" PRId64 " bytes", sep, e->hi);
		break;
	case SCHEMA_CHOICE:
		fprintf(f, "choice%s", sep);
		names(f, e->names->names, e->names->n);
		break;
	case SCHEMA_SELECTOR:
		fprintf(f, "choice%s", sep);
		for (int v = 0, first = 1; v < m->variants->n; v++)
			if (m->variants->keys[v]) {
				fprintf(f, "%s`%s`", first ? "" : ", ", variant_name(m->variants, v));
				first = 0;
			}
		break;
	case SCHEMA_MAP:
		fprintf(f, "mapping%ssee `%s`", sep, e->map->path);
		break;
	case SCHEMA_LIST:
		fprintf(f, "list of %" PRId64 " .. %" PRId64 "%s", e->lo, e->hi, sep);
		if (e->item->type == SCHEMA_MAP)
			fprintf(f, "items: see `%s`", e->item->map->path);
		else {
			fputs("items: ", f);
			type_and_range(o, e->item, m, " ");
		}
		break;
	case SCHEMA_DICT:
		fprintf(f, "mapping of names%snames 1 .. %" PRId64 " bytes; ", sep, e->hi);
		if (e->item->type == SCHEMA_MAP)
			fprintf(f, "values: see `%s`", e->item->map->path);
		else {
			fputs("values: ", f);
			type_and_range(o, e->item, m, " ");
		}
		break;
	}
}

static bool listed(const char *key, const char *const *keys)
{
	for (int i = 0; keys[i]; i++)
		if (strcmp(keys[i], key) == 0)
			return true;
	return false;
}

/* The variants of m that take e's key: the loader's key lists per variant (a variants map), or its `only`
 * table (a flat map with a selector); bit v for variant v. */
static unsigned taken_by(const struct scenario_schema_map *m, const struct scenario_schema_key *e, int n)
{
	unsigned mask = 0;

	for (int v = 0; v < n; v++) {
		bool takes = true;

		if (m->variants)
			takes = (e->variants == 0 || (e->variants & SCHEMA_V(v))) && m->variants->keys[v] &&
				listed(e->key, m->variants->keys[v]);
		for (const struct scenario_schema_only *o = m->only; !m->variants && o && (o->keys || o->key); o++)
			if (o->keys ? listed(e->key, o->keys->names) : strcmp(o->key, e->key) == 0)
				takes = (o->variants & SCHEMA_V(v)) != 0;
		if (takes)
			mask |= SCHEMA_V(v);
	}
	return mask;
}

/* The variants of m among mask, `a`, `b`; "all" when every one. */
static void variants(FILE *f, const struct scenario_schema_map *m, unsigned mask)
{
	int n = m->variants ? m->variants->n : m->selector_names ? m->selector_names->n : 0;
	unsigned offered = 0;  /* the variants the map has (a fleet entry has no savings_plan) */
	bool first = true;

	for (int v = 0; v < n && v < 32; v++)
		if (!m->variants || m->variants->keys[v])
			offered |= SCHEMA_V(v);
	if (mask == 0 || mask == SCHEMA_ALL || n == 0 || (mask & offered) == offered) {
		fputs("all", f);
		return;
	}
	for (int v = 0; v < n; v++)
		if (mask & SCHEMA_V(v)) {
			fprintf(f, "%s`%s`", first ? "" : ", ",
				m->variants ? variant_name(m->variants, v) : m->selector_names->names[v]);
			first = false;
		}
}

static void row(struct md *o, const struct scenario_schema_map *m, const struct scenario_schema_key *e)
{
	FILE *f = o->f;
	size_t n;

	fprintf(f, "| `%s` | ", e->key);
	type_and_range(o, e, m, " | ");
	fputs(" | ", f);
	if (e->dflt) {
		n = strlen(e->dflt);
		if (n >= 2 && e->dflt[0] == '"' && e->dflt[n - 1] == '"')
			fprintf(f, "`%.*s`", (int)(n - 2), e->dflt + 1);
		else
			fprintf(f, "`%s`", e->dflt);
	}
	fputs(" | ", f);
	if (e->required == SCHEMA_ALL)
		fputs("yes", f);
	else if (e->required) {
		fputs("with ", f);
		variants(f, m, e->required);
	}
	if (m->variants || m->selector) {
		fputs(" | ", f);
		variants(f, m, taken_by(m, e, m->variants ? m->variants->n : m->selector_names->n));
	}
	fputs(" | ", f);
	if (e->desc)
		cell(f, e->desc);
	fputs(" |\n", f);
}

static bool seen(struct md *o, const struct scenario_schema_map *m)
{
	for (int i = 0; i < o->nseen; i++)
		if (o->seen[i] == m)
			return true;
	if (o->nseen < MAPS_MAX)
		o->seen[o->nseen++] = m;
	return false;
}

/* The mapping a value holds, directly or as a list's items or a dict's values, or NULL. */
static const struct scenario_schema_map *held(const struct scenario_schema_key *e)
{
	if (e->type == SCHEMA_MAP)
		return e->map;
	if ((e->type == SCHEMA_LIST || e->type == SCHEMA_DICT) && e->item->type == SCHEMA_MAP)
		return e->item->map;
	return NULL;
}

/* m's table, then the tables of the mappings it holds, in order. */
static void write_maps(struct md *o, const struct scenario_schema_map *m)
{
	FILE *f = o->f;
	const char *sel = m->variants ? m->variants->key : m->selector;

	if (seen(o, m))
		return;
	fprintf(f, "\n## `%s`\n\n", m->path);
	if (sel)
		fprintf(f, "Which keys apply depends on `%s` (the column \"for\").\n\n", sel);
	fprintf(f, "| key | type | range | default | required |%s description |\n", sel ? " for |" : "");
	fprintf(f, "|---|---|---|---|---|%s---|\n", sel ? "---|" : "");
	for (const struct scenario_schema_key *e = m->entries; e->key; e++)
		row(o, m, e);
	for (const struct scenario_schema_key *e = m->entries; e->key; e++)
		if (held(e))
			write_maps(o, held(e));
}

int scenario_schema_write_markdown(const struct scenario_schema_map *root, FILE *out, struct diag *d)
{
	struct md o = { .f = out, .nseen = 0 };
	int rc = scenario_schema_check(root, d);

	if (rc != STATUS_OK)
		return rc;
	fputs("# Scenario keys\n\n"
	      "Generated by `gpucap schema --markdown` from the schema table (`models/load/scenario_schema_table.c`),\n"
	      "the same table `gpucap schema` writes the JSON Schema from; do not edit it by hand: change the table\n"
	      "and run `build/gpucap schema --markdown > scenarios/REFERENCE.md` (`e2e_schema` compares the two).\n"
	      "What each key does in the model is told in [models/README.md](../models/README.md); how scenario\n"
	      "files are written (durations, times, overrides) in [scenarios/README.md](README.md).\n\n"
	      "One table per mapping, in the order the file nests them; `*` in a path stands for a list index or a\n"
	      "name. Durations are seconds or a number with a unit (`250ms`, `90s`, `15m`, `36h`, `7d`, `1w`);\n"
	      "times are ISO-8601 UTC. An empty default is none, or one computed from other keys (the model\n"
	      "manual says how).\n", out);
	write_maps(&o, root);
	if (ferror(out))
		return diag_fail(d, STATUS_EIO, "cannot write the key reference");
	return STATUS_OK;
}
