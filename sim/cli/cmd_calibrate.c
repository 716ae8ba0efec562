/*
 * cmd_calibrate: `gpucap calibrate BILL (SCENARIO | --run N) [--db FILE] [--format auto|focus|cur]
 * [--type TYPE]... [--seed N] [--set K=V]... [--hours] [--json]`: a past period's bill (FOCUS or CUR 2.0 CSV,
 * models/formats/billfile.h) against the simulation of that period (analysis/calibrate.h), per UTC clock
 * hour and purchase class, with the error; the comparison is stored in the results file (calibrations,
 * calibration_hours). analysis/README.md, "Calibrating against a bill".
 *
 * Order, for "nothing is lost": the scenario is loaded and the bill read and checked against the scenario's
 * window before the database is opened, so bad input neither runs nor touches the results file; the run is
 * stored as `gpucap run` stores it (one transaction), then the calibration in one more. A calibration that
 * fails after the run leaves the run stored, and the message says which.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "billfile.h"
#include "calibrate.h"
#include "cmd.h"
#include "diag.h"
#include "scenario.h"
#include "status.h"
#include "store.h"
#include "store_limit.h"
#include "units.h"
#include "world.h"

#define MAX_SETS 256

static const char calibrate_usage[] =
	"usage: gpucap calibrate BILL SCENARIO [--db FILE] [--seed N] [--set KEY.PATH=VALUE]... [options]\n"
	"       gpucap calibrate BILL --run RUN [--db FILE] [options]\n"
	"\n"
	"Compare a past period's cloud bill with gpucap's simulation of that period: per UTC clock hour and\n"
	"purchase class (on_demand, spot, reserved, savings_plan, reservation), billed against simulated\n"
	"instance-hours, effective cost and commitment use, and the error: the mean absolute percentage error\n"
	"(MAPE) over the hours billed > 0, the worst hour and the total. BILL is FinOps FOCUS (1.0 to 1.2) or\n"
	"AWS CUR 2.0 as CSV; only the rows of the run's instance types are kept (the others are counted). With\n"
	"SCENARIO, the scenario (replaying the period's traffic) is run and stored first, as `gpucap run` does;\n"
	"its start and horizon must cover the bill's period. With --run, a run already in the database is\n"
	"compared. The comparison is stored in the database (tables calibrations and calibration_hours).\n"
	"\n"
	"  --run RUN        compare run RUN of the database instead of running a scenario\n"
	"  --db FILE        results database (default results.sqlite)\n"
	"  --format F       auto (default: by the header), focus or cur\n"
	"  --type TYPE      keep the bill's rows of TYPE (repeatable; default: the run's instance types)\n"
	"  --seed N, --set KEY.PATH=VALUE  as for gpucap run (with SCENARIO)\n"
	"  --hours          also print the table by clock hour and class\n"
	"  --json           print the comparison as one JSON object (every hour included) instead of text\n"
	"  -h, --help       this help\n"
	"\n"
	"Exit codes: 0 success, 2 bad bill, scenario, period or usage, 1 other failures.\n";

struct calibrate_args {
	const char *bill, *scenario, *db;
	int64_t run_id;
	enum billfile_format format;
	const char *types[BILLFILE_TYPES_MAX];
	int ntypes;
	const char *sets[MAX_SETS + 1];
	int nsets;
	char seed_set[48];
	bool hours, json;
};

static int usage_error(const char *fmt, const char *arg)
{
	fputs("gpucap calibrate: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(" (see gpucap calibrate --help)\n", stderr);
	return -1;
}

static int parse_option(struct calibrate_args *a, int c, const char *arg)
{
	char *end;
	long long id;

	switch (c) {
	case 'd': a->db = arg; return 0;
	case 'H': a->hours = true; return 0;
	case 'j': a->json = true; return 0;
	case 'f':
		a->format = strcmp(arg, "focus") == 0 ? BILLFILE_FOCUS : strcmp(arg, "cur") == 0 ? BILLFILE_CUR
											: BILLFILE_AUTO;
		return a->format == BILLFILE_AUTO && strcmp(arg, "auto") != 0
			       ? usage_error("--format '%s': expected auto, focus or cur", arg) : 0;
	case 't':
		if (a->ntypes == BILLFILE_TYPES_MAX)
			return usage_error("at most %s --type options", "16");
		a->types[a->ntypes++] = arg;
		return 0;
	case 'S':
		if (a->nsets == MAX_SETS)
			return usage_error("at most %s --set options", "256");
		a->sets[a->nsets++] = arg;
		return 0;
	case 's': return cmd_seed_set("calibrate", arg, a->seed_set, sizeof a->seed_set);
	case 'r':
		errno = 0;
		id = strtoll(arg, &end, 10);
		if (errno || end == arg || *end || id < 1)
			return usage_error("--run: expected a run id (an integer >= 1), got '%s'", arg);
		a->run_id = id;
		return 0;
	default: return -1;
	}
}

/* 0, 1 after --help, -1 after a message. */
static int parse_args(int argc, char **argv, struct calibrate_args *a)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },     { "run", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' }, { "type", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 's' },   { "set", required_argument, NULL, 'S' },
		{ "hours", no_argument, NULL, 'H' },        { "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },         { NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof *a);
	a->db = "results.sqlite";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(calibrate_usage, stdout);
			return 1;
		}
		if (c == ':')
			return usage_error("option '%s' needs a value", argv[optind - 1]);
		if (c == '?')
			return usage_error("unknown option '%s'", argv[optind - 1]);
		if (parse_option(a, c, optarg))
			return -1;
	}
	if (a->seed_set[0])
		a->sets[a->nsets++] = a->seed_set;
	if (optind < argc)
		a->bill = argv[optind++];
	if (optind < argc)
		a->scenario = argv[optind++];
	if (!a->bill || optind < argc || !a->scenario == !a->run_id)
		return usage_error("%s", "expected BILL and either SCENARIO or --run RUN");
	if (a->run_id && a->nsets)
		return usage_error("%s", "--seed and --set go with SCENARIO, not --run");
	return 0;
}

/* The bill's span inside the scenario's window [start, start + horizon], else a message naming both. */
static int check_window(const struct scenario *sc, const struct billfile *b, struct diag *d)
{
	int64_t s0 = units_floor_s(sc->start_unix_us), s1 = units_floor_s(sc->start_unix_us + sc->horizon_us);
	char x[4][32];

	if (b->first_unix_s * 1e6 >= (double)sc->start_unix_us &&
	    b->last_unix_s * 1e6 <= (double)(sc->start_unix_us + sc->horizon_us))
		return STATUS_OK;
	units_format_time((int64_t)floor(b->first_unix_s), x[0], 32);
	units_format_time((int64_t)ceil(b->last_unix_s), x[1], 32);
	units_format_time(s0, x[2], 32);
	units_format_time(s1, x[3], 32);
	return diag_fail(d, STATUS_EINPUT, "the bill covers %s to %s, the scenario %s to %s; expected a scenario whose "
			 "start and horizon cover the bill's period", x[0], x[1], x[2], x[3]);
}

/* Run the scenario into the database, as `gpucap run` does; *run_id is the stored run. */
static int run_scenario(const struct scenario *sc, const char *db, int64_t *run_id, struct diag *d)
{
	struct world_report *rep = calloc(1, sizeof *rep);
	struct store *st = NULL;
	struct sink sink;
	int rc;

	if (!rep)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	rc = store_check_run_size(sc, false, d);
	if (rc == STATUS_OK)
		rc = store_open(&st, db, d);
	if (rc == STATUS_OK) {
		sink = store_sink(st, d);
		rc = world_run(sc, &sink, GPUCAP_VERSION, rep, d);
		*run_id = store_last_run_id(st);
	}
	store_close(st);
	free(rep);
	return rc;
}

/* Compare, store and print; the bill b is read. */
static int calibrate(const struct calibrate_args *a, const struct billfile *b, const char *const *types,
		     int ntypes, struct diag *d)
{
	struct calibration c;
	struct store *st = NULL;
	int64_t id = 0;
	int rc = calibrate_run(&c, b, a->db, a->run_id, d);

	if (rc)
		return rc;
	rc = store_open(&st, a->db, d);
	if (rc == STATUS_OK)
		rc = store_calibration_add(st, &c, b, a->bill, types, ntypes, &id, d);
	store_close(st);
	if (rc == STATUS_OK) {
		if (a->json)
			calibrate_print_json(stdout, &c, b, a->bill, id);
		else {
			calibrate_print_text(stdout, &c, b, a->bill, a->hours);
			printf("\nstored: calibration %lld of run %lld in %s\n", (long long)id, (long long)a->run_id, a->db);
		}
		if (fflush(stdout) != 0 || ferror(stdout))
			rc = diag_fail(d, STATUS_EIO, "writing standard output: %s", strerror(errno));
	}
	calibrate_fini(&c);
	return rc;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_args a;
	struct scenario sc;
	struct billfile b = { 0 };
	char run_types[BILLFILE_TYPES_MAX][64];
	const char *types[BILLFILE_TYPES_MAX];
	int ntypes = 0, rc = parse_args(argc, argv, &a);
	bool loaded = false;
	struct diag d;

	if (rc)
		return rc > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	diag_clear(&d);
	if (a.scenario) {
		rc = scenario_load(&sc, a.scenario, a.sets, a.nsets, &d);
		loaded = rc == STATUS_OK;
		for (int i = 0; rc == STATUS_OK && i < sc.ntypes && i < BILLFILE_TYPES_MAX; i++)
			types[ntypes++] = sc.types[i].name;
		if (rc == STATUS_OK)
			cmd_print_warnings(&sc);
	} else {
		rc = calibrate_run_types(a.db, a.run_id, run_types, BILLFILE_TYPES_MAX, &ntypes, &d);
		for (int i = 0; i < ntypes; i++)
			types[i] = run_types[i];
	}
	if (rc == STATUS_OK && a.ntypes) {
		memcpy(types, a.types, sizeof a.types);
		ntypes = a.ntypes;
	}
	if (rc == STATUS_OK)
		rc = billfile_load(&b, a.bill, a.format, types, ntypes, &d);
	if (rc == STATUS_OK && loaded)
		rc = check_window(&sc, &b, &d);
	if (rc == STATUS_OK && loaded)
		rc = run_scenario(&sc, a.db, &a.run_id, &d);
	if (rc == STATUS_OK) {
		rc = calibrate(&a, &b, types, ntypes, &d);
		if (rc && loaded)
			fprintf(stderr, "gpucap calibrate: the run is stored (run %lld in %s); the calibration is not\n",
				(long long)a.run_id, a.db);
	}
	billfile_fini(&b);
	if (loaded)
		scenario_fini(&sc);
	if (rc)
		fprintf(stderr, "gpucap: %s\n", d.msg[0] ? d.msg : status_str(rc));
	return cmd_exit_code(rc);
}
