/*
 * cmd_trace_gen: `gpucap trace gen --scenario FILE -o OUT.csv [--set K=V]...`: write the requests a
 * scenario's workload would draw (arrivals with their transforms, sizes, service times), in the generic
 * trace format, so they can be inspected or replayed with
 *     arrivals: {kind: trace, path: OUT.csv, format: generic,
 *                columns: {time: time_s, time_format: seconds, input_tokens: input_tokens,
 *                          output_tokens: output_tokens, service_s: service_s}}
 * Columns: time_s (seconds from the start, microsecond precision), then input_tokens and output_tokens
 * when the workload knows sizes, then service_s when service times do not depend on the instance (not for
 * the token model). The file is written in full or not at all (outfile.h): a failure (a full disk) never
 * leaves a half-written OUT.csv, nor changes one that was there.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "outfile.h"
#include "scenario.h"
#include "status.h"
#include "workload.h"

#define MAX_SETS 256

static const char gen_usage[] =
	"usage: gpucap trace gen --scenario FILE -o OUT.csv [--set KEY.PATH=VALUE]...\n"
	"\n"
	"Write the requests the scenario's workload draws over its horizon (same seed, same requests) as a CSV\n"
	"trace: time_s, then input_tokens and output_tokens when sizes are known, then service_s unless the\n"
	"token model computes it. Replay it with arrivals kind trace, format generic (see README).\n"
	"OUT.csv is written in full or not at all (a failure leaves an existing file as it was); - is\n"
	"standard output; a device, FIFO or directory is refused.\n"
	"Exit codes: 0 success, 2 bad scenario or usage, 1 write failure.\n";

static bool knows_tokens(const struct scenario *sc)
{
	if (sc->sizes.input.kind != SIZE_NONE && sc->sizes.output.kind != SIZE_NONE)
		return true;
	return sc->arrivals.kind == ARRIVAL_TRACE && sc->arrivals.mapping.input_tokens_column[0] &&
	       sc->arrivals.mapping.output_tokens_column[0];
}

static int write_trace(const struct scenario *sc, FILE *f, int64_t *rows, struct diag *d)
{
	struct workload w;
	struct request_draw r;
	bool tokens = knows_tokens(sc), service = sc->service.kind != SERVICE_TOKENS;
	int rc = workload_init(&w, sc, d);

	if (rc)
		return rc;
	fprintf(f, "time_s%s%s\n", tokens ? ",input_tokens,output_tokens" : "", service ? ",service_s" : "");
	*rows = 0;
	while ((rc = workload_next(&w, &r, d)) == STATUS_OK) {
		fprintf(f, "%" PRId64 ".%06" PRId64, r.arrival_us / 1000000, r.arrival_us % 1000000);
		if (tokens)
			fprintf(f, ",%" PRId32 ",%" PRId32, r.in_tokens, r.out_tokens);
		if (service)
			fprintf(f, ",%" PRId64 ".%06" PRId64, r.service_us / 1000000, r.service_us % 1000000);
		fputc('\n', f);
		(*rows)++;
	}
	workload_fini(&w);
	return rc == STATUS_DONE ? STATUS_OK : rc;
}

int cmd_trace_gen(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "scenario", required_argument, NULL, 's' }, { "output", required_argument, NULL, 'o' },
		{ "set", required_argument, NULL, 'S' },      { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sets[MAX_SETS], *path = NULL, *out = NULL;
	struct outfile of;
	struct scenario sc;
	struct diag d;
	int64_t rows = 0;
	int nsets = 0, c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(gen_usage, stdout);
			return CMD_EXIT_OK;
		} else if (c == 's') {
			path = optarg;
		} else if (c == 'o') {
			out = optarg;
		} else if (c == 'S' && nsets < MAX_SETS) {
			sets[nsets++] = optarg;
		} else if (c == 'S') {
			fprintf(stderr, "gpucap trace gen: at most %d --set options\n", MAX_SETS);
			return CMD_EXIT_USAGE;
		} else if (c == ':') {
			fprintf(stderr, "gpucap trace gen: %s needs a value (see gpucap trace gen --help)\n",
				argv[optind - 1]);
			return CMD_EXIT_USAGE;
		} else {
			fprintf(stderr, "gpucap trace gen: bad option '%s' (see gpucap trace gen --help)\n", argv[optind - 1]);
			return CMD_EXIT_USAGE;
		}
	}
	if (!path || !out || optind < argc) {
		fprintf(stderr, "gpucap trace gen: expected --scenario FILE and -o OUT.csv and nothing else (see "
			"gpucap trace gen --help)\n");
		return CMD_EXIT_USAGE;
	}
	rc = scenario_load(&sc, path, sets, nsets, &d);
	if (rc) {
		fprintf(stderr, "gpucap: %s\n", d.msg);
		return cmd_exit_code(rc);
	}
	cmd_print_warnings(&sc);
	rc = outfile_open(&of, out, NULL, &d);
	if (rc == STATUS_OK) {
		rc = write_trace(&sc, of.f, &rows, &d);
		/* the commit checks the stream's error flag: a write that failed part-way (a full disk) fails it */
		if (rc == STATUS_OK)
			rc = outfile_commit(&of, &d);
		outfile_abort(&of);
	}
	if (rc != STATUS_OK) {
		fprintf(stderr, "gpucap: %s\n", d.msg);
	} else {
		fprintf(stderr, "gpucap: %" PRId64 " requests written to %s\n", rows,
			strcmp(out, "-") ? out : "standard output");
	}
	scenario_fini(&sc);
	return cmd_exit_code(rc);
}
