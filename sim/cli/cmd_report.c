/*
 * cmd_report: `gpucap report [--db DB] [RUN|SWEEP|POINT ...] -o FILE`: one self-contained HTML page of
 * charts and tables. The numbers are analysis/report.h's, the page analysis/report_html.c's; this file reads
 * the command line and writes the file.
 */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "diag.h"
#include "outfile.h"
#include "report.h"
#include "status.h"

static const char report_usage[] =
	"usage: gpucap report [--db FILE] [RUN|SWEEP|POINT ...] -o FILE\n"
	"\n"
	"Write one self-contained HTML page (no script, no network request; styles and SVG charts inline) of\n"
	"the runs and sweep points of a results database. Each run: its scenario, summary and warnings;\n"
	"instances by purchase option against demand with scaling events; cost rate by option; latency\n"
	"percentiles against the SLO and the mean wait per hour; idle GPU-hours by option; commitment\n"
	"coverage and utilisation per hour. Several runs or a sweep: a comparison table with 95% intervals\n"
	"and the cost-versus-violation Pareto plot. The database is only read.\n"
	"\n"
	"  RUN              a run id (an integer): shown in detail\n"
	"  SWEEP            a sweep's name: all its points, compared\n"
	"  POINT            SWEEP:P, point P (0-based) of a sweep\n"
	"                   (none given: every run outside a sweep in detail, every point compared)\n"
	"  --db FILE        results database (default results.sqlite); a lock held by another process is\n"
	"                   waited for (GPUCAP_BUSY_TIMEOUT_MS ms, default 10 minutes)\n"
	"  -o, --output F   the HTML file to write (required; - for stdout); written in full or not at all:\n"
	"                   a failure leaves an existing F as it was. Not the database, not a device, FIFO\n"
	"                   or directory\n"
	"  -h, --help       this help\n"
	"\n"
	"Exit codes: 0 success, 2 bad usage, unknown ids, an empty database, 1 other failures.\n";

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' }, { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },     { NULL, 0, NULL, 0 },
	};
	const char *db = "results.sqlite", *path = NULL;
	struct outfile out;
	struct report r;
	struct diag d;
	int rc, ch;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":hd:o:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h': fputs(report_usage, stdout); return CMD_EXIT_OK;
		case 'd': db = optarg; break;
		case 'o': path = optarg; break;
		case ':':
			fprintf(stderr, "gpucap report: %s needs a value (see gpucap report --help)\n", argv[optind - 1]);
			return CMD_EXIT_USAGE;
		default:
			fprintf(stderr, "gpucap report: bad option '%s' (see gpucap report --help)\n", argv[optind - 1]);
			return CMD_EXIT_USAGE;
		}
	}
	if (!path) {
		fprintf(stderr, "gpucap report: -o FILE is required (see gpucap report --help)\n");
		return CMD_EXIT_USAGE;
	}
	diag_clear(&d);
	rc = outfile_open(&out, path, db, &d);
	if (rc) {
		fprintf(stderr, "gpucap: %s\n", d.msg);
		return cmd_exit_code(rc);
	}
	rc = report_load(&r, db, (const char *const *)argv + optind, argc - optind, &d);
	if (rc)
		goto out_abort;
	rc = report_write_html(&r, out.f);
	report_fini(&r);
	/* The page replaces F only once it is whole. report_write_html's STATUS_EIO is the stream's error
	 * flag, which the commit checks too and reports with its cause (a full disk, say). */
	if (rc == STATUS_OK || rc == STATUS_EIO)
		rc = outfile_commit(&out, &d);
out_abort:
	outfile_abort(&out);
	if (rc)
		fprintf(stderr, "gpucap: %s\n", d.msg);
	return cmd_exit_code(rc);
}
