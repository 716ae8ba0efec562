/*
 * cmd_validate: `gpucap validate FILE... [--seed N] [--set K=V]...`: load and check scenarios without running
 * them. --seed is `run`'s (--set seed=N), so a command line that runs can be validated as it stands.
 * Prints "FILE: ok" per valid file and the error line per invalid one; exit 2 if any was invalid.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "scenario.h"
#include "status.h"

#define MAX_SETS 256

static const char validate_usage[] =
	"usage: gpucap validate FILE... [--seed N] [--set KEY.PATH=VALUE]...\n"
	"\n"
	"Check each scenario file (and the overrides) the way `gpucap run` would, without running anything.\n"
	"  --seed N              as for run (the same as --set seed=N; both together are refused)\n"
	"  --set KEY.PATH=VALUE  as for run; repeatable\n"
	"Prints 'FILE: ok' for each valid file, or the first problem as FILE:LINE:COL: message.\n"
	"Exit codes: 0 all valid, 2 at least one invalid (or bad usage), 1 other failures.\n";

int cmd_validate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "set", required_argument, NULL, 'S' }, { "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *sets[MAX_SETS + 1];
	char seed_set[48] = "";
	int nsets = 0, worst = STATUS_OK, c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(validate_usage, stdout);
			return CMD_EXIT_OK;
		}
		if (c == 'S' && nsets < MAX_SETS) {
			sets[nsets++] = optarg;
			continue;
		}
		if (c == 's') {
			if (cmd_seed_set("validate", optarg, seed_set, sizeof seed_set))
				return CMD_EXIT_USAGE;
			continue;
		}
		fprintf(stderr, "gpucap validate: bad option '%s' (see gpucap validate --help)\n", argv[optind - 1]);
		return CMD_EXIT_USAGE;
	}
	if (seed_set[0])
		sets[nsets++] = seed_set; /* --seed N is --set seed=N: both together are refused, as for run */
	if (optind >= argc) {
		fprintf(stderr, "gpucap validate: expected one scenario file or more (see gpucap validate --help)\n");
		return CMD_EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++) {
		struct scenario sc;
		struct diag d;
		int rc = scenario_load(&sc, argv[i], sets, nsets, &d);
		if (rc == STATUS_OK) {
			cmd_print_warnings(&sc);
			printf("%s: ok\n", argv[i]);
		}
		else
			fprintf(stderr, "gpucap: %s\n", d.msg);
		if (rc != STATUS_OK && (worst == STATUS_OK || !status_is_user_error(rc)))
			worst = rc;
		scenario_fini(&sc);
	}
	return cmd_exit_code(worst);
}
