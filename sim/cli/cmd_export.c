/*
 * cmd_export: `gpucap export --focus RUN [--db DB] [-o FILE]`: a run's simulated bill as FOCUS 1.1 CSV
 * (analysis/focus.h; analysis/README.md "The bill in FOCUS form"); `gpucap export --samples RUN ...`: its time series,
 * by instance type too (analysis/series.h). This file reads the command line.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "focus.h"
#include "outfile.h"
#include "series.h"
#include "status.h"

static const char export_usage[] =
	"usage: gpucap export --focus RUN [--db FILE] [-o FILE]\n"
	"       gpucap export --samples RUN [--db FILE] [-o FILE]\n"
	"\n"
	"Write a run's simulated bill in FinOps FOCUS 1.1 columns, as CSV: one row per UTC clock hour, purchase\n"
	"option, charge (usage, used and unused commitment, unused reserved capacity, upfront and hourly\n"
	"commitment fees) and user, so that it loads next to a real FOCUS bill. EffectiveCost sums, per option,\n"
	"to the run's cost_<option>_usd. Tags is a JSON object of the run's labels and gpucap-use (serving or\n"
	"jobs: the jobs' rows sum to jobs_cost_<option>_usd); RegionId is the scenario's region; ResourceId\n"
	"gpucap:run-RUN:USE:OPTION:TYPE. Commitments still owed after the horizon get no rows: a note on\n"
	"standard error says how much. The database is only read.\n"
	"With --samples, write the run's time series as CSV instead: one row per sample period, the samples\n"
	"table's columns, then for a run of several instance types instances:<type> and busy_slots:<type>.\n"
	"\n"
	"  --focus RUN      the run id (an integer) to export\n"
	"  --samples RUN    the run id whose samples to export\n"
	"  --db FILE        results database (default results.sqlite); a lock held by another process is\n"
	"                   waited for (GPUCAP_BUSY_TIMEOUT_MS ms, default 10 minutes)\n"
	"  -o, --output FILE  where to write (default: standard output, also -); written in full or not at\n"
	"                   all: a failure leaves an existing FILE as it was. Not the database, not a device,\n"
	"                   FIFO or directory\n"
	"  -h, --help       this help\n"
	"\n"
	"Exit codes: 0 success, 2 bad usage or an unknown run, 1 other failures.\n";

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },  { "focus", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' },
		{ "samples", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = "results.sqlite", *path = NULL, *run = NULL, *what = "--focus";
	struct outfile out;
	struct diag d;
	long long id;
	char *end;
	int rc, ch;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h': fputs(export_usage, stdout); return CMD_EXIT_OK;
		case 'd': db = optarg; break;
		case 'f':
		case 's':
			if (run) {
				fprintf(stderr, "gpucap export: expected one of --focus RUN or --samples RUN (see "
					"gpucap export --help)\n");
				return CMD_EXIT_USAGE;
			}
			run = optarg;
			what = ch == 's' ? "--samples" : "--focus";
			break;
		case 'o': path = optarg; break;
		case ':':
			fprintf(stderr, "gpucap export: %s needs a value (see gpucap export --help)\n", argv[optind - 1]);
			return CMD_EXIT_USAGE;
		default:
			fprintf(stderr, "gpucap export: bad option '%s' (see gpucap export --help)\n", argv[optind - 1]);
			return CMD_EXIT_USAGE;
		}
	}
	if (!run || optind != argc) {
		fprintf(stderr, "gpucap export: expected --focus RUN or --samples RUN and nothing else (see gpucap "
			"export --help)\n");
		return CMD_EXIT_USAGE;
	}
	errno = 0;
	id = strtoll(run, &end, 10);
	if (errno || end == run || *end || id < 1) {
		fprintf(stderr, "gpucap export: %s: expected a run id (an integer >= 1), got '%s'\n", what, run);
		return CMD_EXIT_USAGE;
	}
	diag_clear(&d);
	rc = outfile_open(&out, path ? path : "-", db, &d);
	if (rc == STATUS_OK) {
		rc = strcmp(what, "--samples") == 0 ? series_export(db, id, out.f, &d)
						    : focus_export(db, id, out.f, stderr, &d);
		/* The output replaces FILE only once the whole export is written. focus_export's STATUS_EIO is
		 * the stream's error flag, which the commit reports with its cause and the path. */
		if (rc == STATUS_OK || rc == STATUS_EIO)
			rc = outfile_commit(&out, &d);
		outfile_abort(&out);
	}
	if (rc)
		fprintf(stderr, "gpucap: %s\n", d.msg);
	return cmd_exit_code(rc);
}
