/* scenario_keys: key checks shared by the scenario readers (see scenario_load.h). */
#include <stdio.h>
#include <string.h>

#include "scenario_load.h"
#include "status.h"

bool scenario_load_listed(const char *name, const char *const *keys)
{
	for (int i = 0; keys[i]; i++)
		if (strcmp(keys[i], name) == 0)
			return true;
	return false;
}

const char *scenario_load_join(const char *const *keys, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; keys[i] && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", keys[i]);
	return buf;
}

int scenario_load_exclusive(struct load *l, const struct yamldoc_ref *map, const char *a, const char *b)
{
	struct yamldoc_ref ra, rb;

	yamldoc_child(map, a, &ra);
	yamldoc_child(map, b, &rb);
	if (ra.node && rb.node)
		return yamldoc_fail(&l->y, &rb, "%s and %s cannot both be given; expected one of them",
					  a, b);
	return STATUS_OK;
}

int scenario_load_only_with(struct load *l, const struct yamldoc_ref *map, const char *key,
			    const char *needs)
{
	struct yamldoc_ref r, n;

	yamldoc_child(map, key, &r);
	yamldoc_child(map, needs, &n);
	if (r.node && !n.node)
		return yamldoc_fail(&l->y, &r, "%s applies only with %s; expected %s too, or no %s",
					  key, needs, needs, key);
	return STATUS_OK;
}

int scenario_load_check_keys(struct load *l, const struct yamldoc_ref *map, int n,
			     const char *const *const *by_kind, int nkinds, int kind, const char *word,
			     const char *name)
{
	const char *const *keys = by_kind[kind], *key;
	struct yamldoc_ref r;
	char list[512];

	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_pair(map, &walk, &r, &key);
		if (scenario_load_listed(key, keys))
			continue;
		for (int k = 0; k < nkinds; k++)
			if (by_kind[k] && scenario_load_listed(key, by_kind[k]))
				return yamldoc_fail(&l->y, &r, "%s does not apply to %s%s%s; expected one of: %s",
							  key, word ? word : "", word ? " " : "", name,
							  scenario_load_join(keys, list, sizeof list));
		return yamldoc_mapping(&l->y, map, keys, NULL, NULL);  /* "unknown key 'x'; ..." */
	}
	return STATUS_OK;
}
