/*
 * main: the gpucap command line. Dispatches to a subcommand (cmd.h); prints help and the version; and,
 * after any command, checks that everything it wrote to standard output got there (close_stdout).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "cmd.h"
#include "gpucap_commit.h"
#include "status.h"
#include "world.h"

static const char usage[] =
	"gpucap " GPUCAP_VERSION " - what a GPU capacity plan will cost, before the money is spent\n"
	"\n"
	"usage: gpucap <command> [options]\n"
	"\n"
	"commands:\n"
	"  run [SCENARIO]     simulate a scenario (default: the shipped chat-serving example), print a\n"
	"                     summary and store the run in an SQLite file (results.sqlite)\n"
	"  sweep FILE         run every point x replication of a sweep file (parameter grids, zips, Sobol\n"
	"                     samples) in worker processes; resumable, shardable (see gpucap sweep --help)\n"
	"  validate FILE...   check scenario files without running them\n"
	"  catalog            list the built-in instance types and prices, with their sources\n"
	"  trace stats FILE   count a request trace: requests, span, requests per minute, tokens\n"
	"  trace gen          write the requests a scenario would draw, as a CSV trace\n"
	"  schema             print a JSON Schema of the scenario file, for editors\n"
	"  merge OUT IN...    copy the runs of results databases IN into OUT (sweep shards, several files)\n"
	"  compare [ID...]    runs and sweep points side by side: means, 95% intervals, paired differences\n"
	"                     against a baseline, the Pareto front of cost against SLO violations\n"
	"  recommend SCENARIO choose commitments (reserved, ODCR, block counts, Savings Plan $/h) with the\n"
	"                     lowest cost over their term that keep the SLO (see gpucap recommend --help)\n"
	"  report [ID...] -o F one self-contained HTML page of charts and tables (see gpucap report --help)\n"
	"  export --focus RUN a run's simulated bill as FinOps FOCUS 1.1 CSV, by clock hour and option\n"
	"  export --samples RUN  a run's time series as CSV, by instance type too\n"
	"  calibrate BILL ... a past period's bill (FOCUS or CUR 2.0) against its simulation, per clock hour\n"
	"                     and purchase class, with the error (see gpucap calibrate --help)\n"
	"\n"
	"options:\n"
	"  -h, --help         this help; `gpucap <command> --help` explains a command\n"
	"  --version          print the version, and the git commit it was built from when known\n"
	"\n"
	"exit codes: 0 success, 2 bad input or usage, 1 any other failure.\n"
	"Scenario keys, metrics and the database schema are documented in README.md.\n";

/*
 * Flush and close standard output and say if that failed (gnulib's close_stdout): output printed with
 * printf lands in stdio's buffer, so a full disk or a closed descriptor is often only seen here, after the
 * command returned. A command that succeeded then fails with exit 1; one that already failed said why and
 * keeps its exit code.
 */
static int close_stdout(int code)
{
	bool failed;
	int err;

	errno = 0;
	failed = fflush(stdout) != 0 || ferror(stdout);
	err = errno;
	/* EBADF at close after a clean flush: standard output was closed and nothing was written to it */
	if (fclose(stdout) != 0 && !failed && errno != EBADF) {
		failed = true;
		err = errno;
	}
	if (!failed || code != CMD_EXIT_OK)
		return code;
	fprintf(stderr, "gpucap: writing standard output: %s\n", err ? strerror(err) : "an earlier write failed");
	return CMD_EXIT_FAIL;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "gpucap: expected a command (see gpucap --help)\n");
		return CMD_EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		fputs(usage, stdout);
		return CMD_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		/* the commit is known when the build tree was a git checkout (version.cmake) */
		if (GPUCAP_COMMIT[0])
			printf("gpucap %s (git %s)\n", GPUCAP_VERSION, GPUCAP_COMMIT);
		else
			printf("gpucap %s\n", GPUCAP_VERSION);
		return CMD_EXIT_OK;
	}
	if (strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(argv[1], "sweep") == 0)
		return cmd_sweep(argc - 1, argv + 1);
	if (strcmp(argv[1], "validate") == 0)
		return cmd_validate(argc - 1, argv + 1);
	if (strcmp(argv[1], "catalog") == 0)
		return cmd_catalog(argc - 1, argv + 1);
	if (strcmp(argv[1], "trace") == 0)
		return cmd_trace(argc - 1, argv + 1);
	if (strcmp(argv[1], "schema") == 0)
		return cmd_schema(argc - 1, argv + 1);
	if (strcmp(argv[1], "merge") == 0)
		return cmd_merge(argc - 1, argv + 1);
	if (strcmp(argv[1], "compare") == 0)
		return cmd_compare(argc - 1, argv + 1);
	if (strcmp(argv[1], "recommend") == 0)
		return cmd_recommend(argc - 1, argv + 1);
	if (strcmp(argv[1], "report") == 0)
		return cmd_report(argc - 1, argv + 1);
	if (strcmp(argv[1], "export") == 0)
		return cmd_export(argc - 1, argv + 1);
	if (strcmp(argv[1], "calibrate") == 0)
		return cmd_calibrate(argc - 1, argv + 1);
	fprintf(stderr, "gpucap: unknown command '%s'; expected run, sweep, merge, compare, recommend, report, export, calibrate, validate, catalog, trace or schema (see gpucap --help)\n",
		argv[1]);
	return CMD_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct diag d;
	bool one_thread;

	/* GSL's default handler aborts the process; every GSL status is checked where it is returned. */
	gsl_set_error_handler_off();
	if (world_threads_env(&one_thread, &d) != STATUS_OK) {  /* every command that runs simulations reads it */
		fprintf(stderr, "gpucap: %s\n", d.msg);
		return CMD_EXIT_USAGE;
	}
	return close_stdout(dispatch(argc, argv));
}
