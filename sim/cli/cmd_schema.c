/*
 * cmd_schema: `gpucap schema`: the JSON Schema of the scenario file, for editors and validators, or with
 * --markdown the key reference scenarios/REFERENCE.md (scenario_schema.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "outfile.h"
#include "scenario_schema.h"
#include "status.h"

static const char help[] =
	"usage: gpucap schema [--markdown]\n"
	"\n"
	"Print a JSON Schema (draft 2020-12) of the scenario file: every key, its type, range, default and a\n"
	"one-line description, generated from the tables the loader validates with. An editor with a YAML\n"
	"language server (VS Code's YAML extension, Neovim, Emacs, ...) then completes keys, shows their\n"
	"descriptions and flags unknown keys, wrong types and out-of-range values as you type:\n"
	"\n"
	"    gpucap schema > gpucap.schema.json\n"
	"\n"
	"and make this the first line of a scenario (the path is relative to the scenario's folder):\n"
	"\n"
	"    # yaml-language-server: $schema=gpucap.schema.json\n"
	"\n"
	"The schema never rejects a scenario gpucap accepts, but gpucap validate checks more (keys that exclude\n"
	"or need each other, the fleet against autoscaling, files): run it before you trust a scenario.\n"
	"\n"
	"--markdown prints the same keys as Markdown tables instead (type, range, default, description), the\n"
	"key reference shipped as scenarios/REFERENCE.md.\n";

int cmd_schema(int argc, char **argv)
{
	struct diag d;
	bool markdown = false;
	int rc;

	if (argc > 1 && strcmp(argv[1], "--markdown") == 0) {
		markdown = true;
		argc--;
		argv++;
	}
	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			fputs(help, stdout);
			return CMD_EXIT_OK;
		}
		fprintf(stderr, "gpucap schema: unknown argument '%s'; expected --markdown or nothing (see gpucap schema --help)\n",
			argv[1]);
		return CMD_EXIT_USAGE;
	}
	diag_clear(&d);
	rc = markdown ? scenario_schema_write_markdown(&scenario_schema_root, stdout, &d)
		      : scenario_schema_write(&scenario_schema_root, stdout, &d);
	/* a failed write (STATUS_EIO, the stream's error flag) is reported with its cause by the flush */
	if (rc == STATUS_OK || rc == STATUS_EIO)
		rc = outfile_check_stdout(&d);
	if (rc != STATUS_OK)
		fprintf(stderr, "gpucap: %s\n", d.msg);
	return cmd_exit_code(rc);
}
