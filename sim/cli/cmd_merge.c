/*
 * cmd_merge: `gpucap merge OUT IN... [--quiet]`: copy the runs of results databases IN into OUT (created if
 * missing, upgraded if older), one transaction per IN; the rules are in analysis/merge.h. An IN that is
 * refused is reported and left out, the others are merged; the exit code is that of the worst failure.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "cmd.h"
#include "diag.h"
#include "merge.h"
#include "status.h"
#include "store.h"

static const char merge_usage[] =
	"usage: gpucap merge OUT IN... [--quiet]\n"
	"\n"
	"Copy every run of the results databases IN into OUT (created if missing), one file at a time, each\n"
	"whole or not at all. Runs of a sweep keep their place (run_id_base of the sweep in OUT + index), so\n"
	"shards of one sweep merge into the file that one process would have written; a run already in OUT\n"
	"is skipped, so merging again changes nothing. Refused: files of another schema version, and a sweep\n"
	"whose name is that of a different sweep in OUT. A damaged IN is named and OUT left as it was. A lock\n"
	"held by another process on an IN or on OUT is waited for (GPUCAP_BUSY_TIMEOUT_MS ms, default 10\n"
	"minutes), and a journal left beside an IN by a killed writer is rolled back first.\n"
	"\n"
	"  --quiet     print nothing on success\n"
	"  -h, --help  this help\n"
	"\n"
	"Exit codes: 0 all merged, 2 an IN refused or bad usage, 1 other failures (a lock that outlasted the\n"
	"wait, database, memory).\n";

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "quiet", no_argument, NULL, 'q' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct store *st = NULL;
	struct diag d;
	bool quiet = false;
	int worst = STATUS_OK, rc, c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hq", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(merge_usage, stdout);
			return CMD_EXIT_OK;
		}
		if (c == 'q') {
			quiet = true;
			continue;
		}
		fprintf(stderr, "gpucap merge: bad option '%s' (see gpucap merge --help)\n", argv[optind - 1]);
		return CMD_EXIT_USAGE;
	}
	if (argc - optind < 2) {
		fprintf(stderr, "gpucap merge: expected OUT and at least one IN (see gpucap merge --help)\n");
		return CMD_EXIT_USAGE;
	}
	diag_clear(&d);
	rc = store_open(&st, argv[optind], &d);
	if (rc) {
		fprintf(stderr, "gpucap: %s\n", d.msg);
		return cmd_exit_code(rc);
	}
	for (int i = optind + 1; i < argc; i++) {
		struct merge_counts n;

		rc = merge_file(st, argv[i], &n, &d);
		if (rc == STATUS_OK && !quiet)
			printf("%s: %d runs merged into %s, %d already there, %d new sweeps\n", argv[i], n.runs_copied,
			       argv[optind], n.runs_present, n.sweeps_added);
		if (rc != STATUS_OK) {
			fprintf(stderr, "gpucap: %s\n", d.msg);
			if (worst == STATUS_OK || !status_is_user_error(rc))
				worst = rc;
		}
	}
	store_close(st);
	return cmd_exit_code(worst);
}
