/*
 * defaults_load: the helper of e2e_defaults (tests/e2e/defaults.py). `defaults_load FILE KEY=VALUE...`
 * loads the scenario FILE as it is, and once more with each `--set KEY=VALUE` alone, and prints one line
 * per override: `same KEY` when the loaded scenario (struct scenario, every field and every array it owns,
 * the loader's warnings included) equals the one without it, `differs KEY` when not, `refused KEY: message`
 * when the loader refuses the override. The first line is `base ok` or `base refused: message`, then
 * `base stable` or `base unstable` (two loads of FILE compared: a comparison of bytes only means something
 * if the same input gives the same bytes). Exit status 0 unless the arguments or memory fail.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "scenario.h"
#include "status.h"

static bool same(const struct scenario *a, const struct scenario *b);

static bool same_text(const char *a, const char *b)
{
	return (a == NULL) == (b == NULL) && (a == NULL || strcmp(a, b) == 0);
}

/* Jobs field by field: a job_spec has padding, and its name bytes after the NUL are not initialised. */
static bool same_job(const struct job_spec *a, const struct job_spec *b)
{
	return strcmp(a->name, b->name) == 0 && a->instances == b->instances && a->work_h == b->work_h &&
	       a->submit_us == b->submit_us && a->deadline_us == b->deadline_us &&
	       a->ckpt_interval_us == b->ckpt_interval_us && a->ckpt_cost_us == b->ckpt_cost_us &&
	       a->restart_us == b->restart_us && a->priority == b->priority && a->team == b->team &&
	       a->line == b->line && a->col == b->col;
}

/* What a scenario owns beyond its own bytes, compared; then the bytes with those pointers cleared. */
static bool same(const struct scenario *a, const struct scenario *b)
{
	struct scenario x = *a, y = *b;

	if (a->jobs.n != b->jobs.n || a->mme.n != b->mme.n || a->nmodels != b->nmodels ||
	    a->inputs.n != b->inputs.n || !same_text(a->warnings, b->warnings))
		return false;
	for (int i = 0; i < a->jobs.n; i++)
		if (!same_job(&a->jobs.list[i], &b->jobs.list[i]))
			return false;
	if (a->mme.n && memcmp(a->mme.models, b->mme.models, (size_t)a->mme.n * sizeof *a->mme.models) != 0)
		return false;
	for (int i = 0; i < a->inputs.n; i++)  /* the bytes after each path's NUL are not initialised */
		if (strcmp(a->inputs.path[i], b->inputs.path[i]) != 0)
			return false;
	for (int i = 0; i < a->nmodels; i++) {
		struct scenario_model m = a->models[i], n = b->models[i];

		if (!same(m.blocks, n.blocks))
			return false;
		m.blocks = n.blocks = NULL;
		if (memcmp(&m, &n, sizeof m) != 0)
			return false;
	}
	x.jobs.list = y.jobs.list = NULL;
	x.mme.models = y.mme.models = NULL;
	x.models = y.models = NULL;
	x.inputs.path = y.inputs.path = NULL;
	x.warnings = y.warnings = x.path = y.path = x.text = y.text = x.overrides = y.overrides = NULL;
	return memcmp(&x, &y, sizeof x) == 0;
}

int main(int argc, char **argv)
{
	struct scenario *base, *again, *set;
	struct diag d;

	if (argc < 2) {
		fputs("usage: defaults_load FILE KEY=VALUE...\n", stderr);
		return 2;
	}
	base = calloc(1, sizeof *base);
	again = calloc(1, sizeof *again);
	set = calloc(1, sizeof *set);
	if (!base || !again || !set)
		return 1;
	diag_clear(&d);
	if (scenario_load(base, argv[1], NULL, 0, &d) != STATUS_OK) {
		printf("base refused: %s\n", d.msg);
		return 0;
	}
	printf("base ok\n");
	if (scenario_load(again, argv[1], NULL, 0, &d) != STATUS_OK)
		return 1;
	printf("base %s\n", same(base, again) ? "stable" : "unstable");
	scenario_fini(again);
	for (int i = 2; i < argc; i++) {
		const char *sets[1] = { argv[i] };

		diag_clear(&d);
		if (scenario_load(set, argv[1], sets, 1, &d) != STATUS_OK) {
			printf("refused %s: %s\n", argv[i], d.msg);
			continue;
		}
		printf("%s %s\n", same(base, set) ? "same" : "differs", argv[i]);
		scenario_fini(set);
	}
	scenario_fini(base);
	free(base);
	free(again);
	free(set);
	return 0;
}
