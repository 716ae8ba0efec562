/*
 * cmd: what every subcommand shares (cmd.h): the exit code for a status, and the scenario's warnings on
 * stderr. Beneath main.c and the cmd_*.c files, so that they call down into it and main.c only dispatches.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "jsonout.h"
#include "scenario.h"
#include "status.h"

int cmd_exit_code(int status)
{
	if (status == STATUS_OK)
		return CMD_EXIT_OK;
	return status_is_user_error(status) ? CMD_EXIT_USAGE : CMD_EXIT_FAIL;
}

void cmd_print_warnings(const struct scenario *sc)
{
	const char *w = sc->warnings;

	while (w && *w) {
		const char *nl = strchr(w, '\n');
		int len = nl ? (int)(nl - w) : (int)strlen(w);
		fprintf(stderr, "gpucap: warning: %.*s\n", len, w);
		w += len + (nl ? 1 : 0);
	}
}

int cmd_seed_set(const char *cmd, const char *arg, char *buf, size_t size)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v > INT64_MAX) {
		fprintf(stderr, "gpucap %s: --seed '%s': expected an integer from 0 to %" PRId64 "\n", cmd, arg,
			INT64_MAX);
		return -1;
	}
	snprintf(buf, size, "seed=%llu", v);
	return 0;
}

void cmd_json_string(const char *s)
{
	jsonout_string(stdout, s);
}
