/*
 * cmd_compare: `gpucap compare [--db DB] [--baseline RUN|POINT] [RUN|SWEEP|POINT ...]
 * [--format text|md|json|csv]` (--json, --csv: aliases): runs
 * and sweep points side by side with confidence intervals and differences against a baseline. The numbers
 * are analysis/compare.h's; this file reads the command line and picks the output.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "diag.h"
#include "outfile.h"
#include "status.h"

static const char compare_usage[] =
	"usage: gpucap compare [--db FILE] [--baseline RUN|POINT] [--min-effect F] [RUN|SWEEP|POINT ...]\n"
	"                      [--format text|md|json|csv | --json | --csv]\n"
	"\n"
	"Compare runs and sweep points of a results database: cost by option, cost per month, SLO violation\n"
	"rate and verdict, latency and TTFT percentiles, idle GPU-hours, commitment utilisation and coverage.\n"
	"Over the replications of a point: means with 95% confidence intervals (Student t); against the\n"
	"baseline: the paired difference over the runs with the same seeds (common random numbers) and the\n"
	"unpaired (Welch) difference, each with its interval and marked significant (*) when it excludes 0 and\n"
	"the difference is larger than the practical threshold (--min-effect); and the\n"
	"Pareto front of mean cost per month against mean violation rate. Runs that failed are left out (and\n"
	"counted); a sweep point with fewer ok runs than the sweep's replications is flagged as short (\"3 of 5\n"
	"replications\") in every format. The database is only read.\n"
	"\n"
	"  RUN              a run id (an integer)\n"
	"  SWEEP            a sweep's name: all its points\n"
	"  POINT            SWEEP:P, point P (0-based) of a sweep: all its replications\n"
	"                   (none given: every sweep point and every run outside a sweep)\n"
	"  --db FILE        results database (default results.sqlite); a lock held by another process is\n"
	"                   waited for (GPUCAP_BUSY_TIMEOUT_MS ms, default 10 minutes)\n"
	"  --baseline ID    the run or point the others are compared against (default: the first)\n"
	"  --min-effect F   a difference is starred only when it is also more than F times the larger of the\n"
	"                   two means (default 0.01: 1%; 0 stars any difference whose interval excludes 0)\n"
	"  --json           one JSON document instead of the table\n"
	"  --csv            CSV, one row per point and metric, instead of the table\n"
	"  --format F       text (the table, default), md (the same figures as Markdown tables, GitHub style,\n"
	"                   for a ticket), json (= --json) or csv (= --csv)\n"
	"  -h, --help       this help\n"
	"\n"
	"Exit codes: 0 success, 2 bad usage, unknown ids, an empty database, 1 other failures.\n";

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' }, { "baseline", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },     { "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },     { "format", required_argument, NULL, 'f' },
		{ "min-effect", required_argument, NULL, 'e' }, { NULL, 0, NULL, 0 },
	};
	const char *db = "results.sqlite", *baseline = NULL;
	double min_effect = COMPARE_MIN_EFFECT;
	struct compare c;
	struct diag d;
	int format = 0, rc, ch;  /* 0 table, 'j' JSON, 'c' CSV, 'm' Markdown, 't' table (given) */

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":hd:b:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h': fputs(compare_usage, stdout); return CMD_EXIT_OK;
		case 'd': db = optarg; break;
		case 'b': baseline = optarg; break;
		case 'e': {
			char *end;
			min_effect = strtod(optarg, &end);
			if (end == optarg || *end || !(min_effect >= 0 && min_effect <= 1)) {
				fprintf(stderr, "gpucap compare: --min-effect: expected a fraction from 0 to 1 (0.01 "
					"is 1%%), got '%s'\n", optarg);
				return CMD_EXIT_USAGE;
			}
			break;
		}
		case 'f':
		case 'j':
		case 'c':
			if (ch == 'f') {
				static const char *const names[] = { "text", "md", "json", "csv" };
				static const char codes[] = { 't', 'm', 'j', 'c' };
				int k = 0;
				while (k < 4 && strcmp(optarg, names[k]) != 0)
					k++;
				if (k == 4) {
					fprintf(stderr, "gpucap compare: --format: expected text, md, json or csv, got "
						"'%s'\n", optarg);
					return CMD_EXIT_USAGE;
				}
				ch = codes[k];
			}
			if (format && format != ch) {
				fprintf(stderr, "gpucap compare: --json and --csv exclude each other, and --format "
					"names one output\n");
				return CMD_EXIT_USAGE;
			}
			format = ch;
			break;
		case ':':
			fprintf(stderr, "gpucap compare: %s needs a value (see gpucap compare --help)\n", argv[optind - 1]);
			return CMD_EXIT_USAGE;
		default:
			fprintf(stderr, "gpucap compare: bad option '%s' (see gpucap compare --help)\n", argv[optind - 1]);
			return CMD_EXIT_USAGE;
		}
	}
	diag_clear(&d);
	rc = compare_load(&c, db, (const char *const *)argv + optind, argc - optind, baseline, &d);
	if (rc) {
		fprintf(stderr, "gpucap: %s\n", d.msg);
		return cmd_exit_code(rc);
	}
	compare_set_min_effect(&c, min_effect);
	for (int i = 0; i < c.npoints; i++) {
		const struct compare_point *p = &c.points[i];
		if (p->nfailed)
			fprintf(stderr, "gpucap: warning: %s: %d of its %d runs failed; compared on the %d ok\n",
				p->id, p->nfailed, p->nfailed + p->nruns, p->nruns);
		if (p->nruns + p->nfailed < p->nreps)  /* runs missing: a sweep killed or still running */
			fprintf(stderr, "gpucap: warning: %s: short, %d of %d replications (`gpucap sweep --resume` "
				"runs the missing ones)\n", p->id, p->nruns, p->nreps);
	}
	rc = format == 'j' ? compare_print_json(&c, stdout)
	     : format == 'c' ? compare_print_csv(&c, stdout)
	     : format == 'm' ? compare_print_md(&c, stdout) : compare_print_table(&c, stdout);
	compare_fini(&c);
	/* the printers' STATUS_EIO is stdout's error flag: the flush reports it, with its cause */
	if (rc == STATUS_OK || rc == STATUS_EIO)
		rc = outfile_check_stdout(&d);
	if (rc)
		fprintf(stderr, "gpucap: %s\n", d.msg);
	return cmd_exit_code(rc);
}
