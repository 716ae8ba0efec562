/*
 * cmd_schema: `gpucap schema`: the JSON Schema of the scenario file, for editors and validators
 * (scenario_schema.h).
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "outfile.h"
#include "scenario_schema.h"
#include "status.h"

static const char help[] =
	"usage: gpucap schema\n"
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
	"or need each other, the fleet against autoscaling, files): run it before you trust a scenario.\n";

int cmd_schema(int argc, char **argv)
{
	struct diag d;
	int rc;

	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			fputs(help, stdout);
			return CMD_EXIT_OK;
		}
		fprintf(stderr, "gpucap schema: unknown argument '%s'; expected none (see gpucap schema --help)\n",
			argv[1]);
		return CMD_EXIT_USAGE;
	}
	diag_clear(&d);
	rc = scenario_schema_write(&scenario_schema_root, stdout, &d);
	/* a failed write (STATUS_EIO, the stream's error flag) is reported with its cause by the flush */
	if (rc == STATUS_OK || rc == STATUS_EIO)
		rc = outfile_check_stdout(&d);
	if (rc != STATUS_OK)
		fprintf(stderr, "gpucap: %s\n", d.msg);
	return cmd_exit_code(rc);
}
