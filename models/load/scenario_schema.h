/*
 * scenario_schema: a JSON Schema (draft 2020-12) of the scenario file, for editors and validators
 * (`gpucap schema`; scenarios/README.md, "Editing scenarios in an editor").
 *
 * The schema is generated from two kinds of tables. The loader's own (scenario_load.h): which keys each
 * mapping accepts (per variant where a `kind`, `option` or `policy` selects them), the names each choice
 * accepts, and the bounds it reads numbers with. And this module's (scenario_schema_table.c): one entry
 * per key with its type, integer and duration ranges, default and a one-line description. Before anything
 * is written, every mapping is checked both ways: a key the loader accepts without an entry here, or an
 * entry for a key the loader does not accept, fails the generation (STATUS_EINTERNAL), so the schema and
 * the loader cannot drift apart unnoticed.
 *
 * The schema never refuses a scenario the loader accepts; it is more permissive where JSON Schema cannot
 * say what the loader checks, or only clumsily:
 *   - cross-field rules: keys that exclude each other (hourly and amplitude, path and paths, a spot
 *     entry's price models, a schedule action's at and cron), keys that need another (payment needs
 *     term, price_zone needs price_trace, columns needs format generic), order and overlap of steps,
 *     outages and alarms' step bounds, min <= max, the fleet against autoscaling, copies against the
 *     instance's GPUs, files that must exist and parse, catalog types that must exist;
 *   - a duration written as text ("7d") is checked for its form, not its range (a number of seconds is);
 *     a number written as quoted text ("10") is accepted as text, since the loader reads scalars' text;
 *   - YAML typing: a scalar the YAML 1.2 core schema reads as a number (0x10, 1e3, 2.0) or as true/True
 *     is accepted where the loader wants the decimal text, and strings accept any scalar (name: 2026);
 *   - lengths are in characters where the loader counts bytes;
 *   - which adjustments a step alarm allows depends on adjustment_type: the schema takes the widest;
 *   - `startup`: the loader ignores mean_s and cv under kind empirical and values_s under the others, so
 *     the schema allows them too (only cv under kind constant is refused, as the loader does);
 *   - target tracking's own keys (scale_out_datapoints, scale_in_datapoints, also) and scale_from_zero
 *     (refused under policy none) are listed in this module's table, the step, hpa and predictive keys
 *     come from the loader's lists.
 *
 * Writing goes to a caller's FILE; the output is deterministic (tables in order, 2-space indentation).
 */
#ifndef GPUCAP_SCENARIO_SCHEMA_H
#define GPUCAP_SCENARIO_SCHEMA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "scenario_load.h"

#define SCHEMA_ALL (~0u)  /* every variant (the `required` and `variants` masks) */
#define SCHEMA_V(i) (1u << (i))

enum scenario_schema_type {
	SCHEMA_INT,       /* an integer in [lo, hi] */
	SCHEMA_NUMBER,    /* a number within *bounds (the loader's) */
	SCHEMA_STRING,    /* a non-empty string of at most hi bytes */
	SCHEMA_DURATION,  /* a duration, lo to hi microseconds (above lo when lo_open) */
	SCHEMA_TIME,      /* an ISO-8601 UTC time */
	SCHEMA_CHOICE,    /* one of *names (the loader's) */
	SCHEMA_MAP,       /* a mapping described by *map */
	SCHEMA_LIST,      /* a list of lo to hi items, each described by *item */
	SCHEMA_DICT,      /* a mapping of names (at most hi bytes) to values described by *item */
	SCHEMA_SELECTOR,  /* the key that selects a variant (its values: the loader's variant names) */
	SCHEMA_WHEN       /* a UTC time, or a duration after some origin (a job's submit and deadline) */
};

struct scenario_schema_map;

/* One key of a mapping, or (with key NULL) the item of a list or the value of a dict. */
struct scenario_schema_key {
	const char *key;                                    /* as written; NULL ends a table */
	enum scenario_schema_type type;
	unsigned variants;                                  /* variants it describes the key in; 0: all */
	unsigned required;                                  /* variants that require it; SCHEMA_ALL: all */
	int64_t lo, hi;                                     /* see the type */
	bool lo_open;                                       /* DURATION: above lo */
	bool or_auto;                                       /* INT: the word `auto` is accepted too */
	const char *or_word;                                /* INT: this word is accepted too (NULL: none) */
	const struct yamldoc_bounds *const *bounds;   /* NUMBER */
	const struct scenario_load_names *names;            /* CHOICE */
	const struct scenario_schema_map *map;              /* MAP */
	const struct scenario_schema_key *item;             /* LIST, DICT */
	const char *dflt;                                   /* the default as JSON text; NULL: none or computed */
	const char *desc;                                   /* one line */
};

/* Keys the loader accepts in some variants of a flat mapping only (autoscaling under a policy). */
struct scenario_schema_only {
	const struct scenario_load_names *keys;  /* the loader's list of such keys, or NULL and: */
	const char *key;                         /* one key (NULL with keys NULL ends a table) */
	unsigned variants;                       /* the variants that take them */
};

/*
 * A mapping. Either `keys` (the loader's list; with `selector`, a key choosing among selector_names, and
 * `only`, keys some variants refuse) or `variants` (the loader's keys per variant).
 */
struct scenario_schema_map {
	const char *path;                                /* "serving.copies", for messages */
	const struct scenario_load_names *keys;
	const char *selector;                            /* with keys: "policy"; absent means variant 0 */
	const struct scenario_load_names *selector_names;
	const struct scenario_schema_only *only;
	const struct scenario_load_variants *variants;
	bool target_by_metric;                           /* target's bounds follow metric (autoscaling) */
	const struct scenario_schema_key *entries;       /* ends with key NULL */
	/* with variants: further spellings of the selector, each taking variant *v's keys (a provider's own
	 * products, gcp_calendar as capacity_block); i from 0, false past the last; NULL: none */
	bool (*alias)(int i, const char **name, int *v);
	/* keys that require others when present, in pairs {key, required key}, ending with NULL: JSON
	 * Schema's dependentRequired (the top level: workload needs slo and slo needs workload); NULL: none */
	const char *const *depends;
};

/* The scenario file (scenario_schema_table.c). */
extern const struct scenario_schema_map scenario_schema_root;

/*
 * Check m and every mapping under it against the loader's tables, both ways. Returns STATUS_OK, or
 * STATUS_EINTERNAL with "schema: ..." in d naming the key and the mapping.
 */
int scenario_schema_check(const struct scenario_schema_map *m, struct diag *d);

/*
 * Check the tables from `root` (scenario_schema_check), then write the schema of root (a scenario file:
 * scenario_schema_root) to out (borrowed). Returns STATUS_OK, STATUS_EINTERNAL from the check (nothing
 * written) or STATUS_EIO when a write to out failed; messages in d. out is not flushed: the caller flushes
 * it and checks that too.
 */
int scenario_schema_write(const struct scenario_schema_map *root, FILE *out, struct diag *d);

/*
 * Check the tables from `root` as above, then write the key reference of root as Markdown to out
 * (borrowed; scenario_schema_md.c): one table per mapping with each key's type, range, default, where it
 * is required and its description (`gpucap schema --markdown`, committed as scenarios/REFERENCE.md).
 * Returns as scenario_schema_write.
 */
int scenario_schema_write_markdown(const struct scenario_schema_map *root, FILE *out, struct diag *d);

#endif
