/*
 * cmd_run: `gpucap run [SCENARIO] [--db FILE] [--seed N] [--set K=V]... [--json] [--quiet]`.
 *
 * Order matters for "nothing is lost": the scenario is loaded and fully validated before the database is
 * opened, so bad input never touches (or creates) the results file; the run is one transaction in it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "datadir.h"
#include "diag.h"
#include "scenario.h"
#include "status.h"
#include "store.h"
#include "world.h"

#define MAX_SETS 256

static const char run_usage[] =
	"usage: gpucap run [SCENARIO] [--db FILE] [--seed N] [--set KEY.PATH=VALUE]... [--json] [--quiet]\n"
	"\n"
	"Simulate SCENARIO (a YAML file; default: %s) and store the run in\n"
	"an SQLite file. Prints a readable summary, or every metric as one JSON object with --json.\n"
	"\n"
	"  --db FILE             results database (default results.sqlite); created if missing, runs are added\n"
	"  --seed N              random seed (same as --set seed=N); same scenario + seed = same results\n"
	"  --set KEY.PATH=VALUE  override any scalar of the scenario, e.g. --set workload.arrivals.rate_per_s=80,\n"
	"                        --set fleet.0.count=6 (list items by index); repeatable; stored with the run\n"
	"  --json                print the metrics as JSON on stdout instead of the summary\n"
	"  --quiet               print nothing on success\n"
	"  -h, --help            this help\n"
	"\n"
	"Exit codes: 0 success, 2 bad scenario, override or usage, 1 other failures (database, memory).\n";

struct run_args {
	const char *scenario;
	const char *db;
	const char *sets[MAX_SETS + 1];
	int nsets;
	char seed_set[48];
	char default_scenario[4 * PATH_MAX];    /* the shipped default, found at run time (datadir.h) */
	bool json, quiet;
};

static int parse_args(int argc, char **argv, struct run_args *a)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },   { "seed", required_argument, NULL, 's' },
		{ "set", required_argument, NULL, 'S' },  { "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },      { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof *a);
	a->db = "results.sqlite";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': a->db = optarg; break;
		case 'j': a->json = true; break;
		case 'q': a->quiet = true; break;
		case 'h':
			if (datadir_default_scenario(a->default_scenario, sizeof a->default_scenario))
				snprintf(a->default_scenario, sizeof a->default_scenario,
					 "scenarios/%s of the installed data, not found from here", DATADIR_DEFAULT_SCENARIO);
			printf(run_usage, a->default_scenario);
			return 1;
		case 'S':
			if (a->nsets == MAX_SETS) {
				fprintf(stderr, "gpucap run: at most %d --set options\n", MAX_SETS);
				return -1;
			}
			a->sets[a->nsets++] = optarg;
			break;
		case 's': {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-' || v > INT64_MAX) {
				fprintf(stderr, "gpucap run: --seed '%s': expected an integer from 0 to %" PRId64 "\n",
					optarg, INT64_MAX);
				return -1;
			}
			snprintf(a->seed_set, sizeof a->seed_set, "seed=%llu", v);
			break;
		}
		case ':':
			fprintf(stderr, "gpucap run: option '%s' needs a value (see gpucap run --help)\n", argv[optind - 1]);
			return -1;
		default:
			fprintf(stderr, "gpucap run: unknown option '%s' (see gpucap run --help)\n", argv[optind - 1]);
			return -1;
		}
	}
	if (a->seed_set[0])
		a->sets[a->nsets++] = a->seed_set; /* last, so --seed wins over a --set seed=... */
	if (optind < argc)
		a->scenario = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "gpucap run: one scenario at a time; unexpected '%s'\n", argv[optind]);
		return -1;
	}
	if (!a->scenario) {
		if (datadir_default_scenario(a->default_scenario, sizeof a->default_scenario)) {
			fprintf(stderr, "gpucap run: %s\n", a->default_scenario);
			return -1;
		}
		a->scenario = a->default_scenario;
	}
	return 0;
}

static void print_json(const struct world_report *rep, int64_t run_id)
{
	printf("{\"run_id\": %" PRId64, run_id);
	for (int i = 0; i < rep->nmetrics; i++) {
		double v = rep->metrics[i].value;
		if (isfinite(v))
			printf(", \"%s\": %.17g", rep->metrics[i].name, v);
		else
			printf(", \"%s\": null", rep->metrics[i].name);
	}
	printf("}\n");
}

static double get(const struct world_report *rep, const char *name)
{
	return world_report_get(rep, name);
}

static void print_summary(const struct scenario *sc, const struct world_report *rep, const char *db,
			  int64_t run_id)
{
	double total = get(rep, "requests_total");

	char unit[SCENARIO_NAME_MAX + 96];

	if (sc->copies.enabled)
		snprintf(unit, sizeof unit, "%s x %d copies of %d GPUs x %d slots", sc->serving.instance_type,
			 sc->copies.per_instance, sc->copies.gpus, sc->serving.slots);
	else
		snprintf(unit, sizeof unit, "%s x %d slots", sc->serving.instance_type, sc->serving.slots);
	printf("gpucap %s: %s, seed %" PRIu64 ", %.4g h on %s; run %" PRId64 " in %s\n", GPUCAP_VERSION,
	       sc->name, sc->seed, (double)sc->horizon_us / 3.6e9, unit, run_id, db);
	printf("  requests   %.0f total, %.0f served, %.0f dropped (%.0f timed out, %.0f refused)\n", total,
	       get(rep, "requests_served"), get(rep, "requests_dropped"), get(rep, "requests_timed_out"),
	       get(rep, "requests_refused"));
	printf("  SLO        %.0f violations = %.3f%% of requests (latency > %.3g s, or dropped)\n",
	       get(rep, "slo_violations"), 100 * get(rep, "slo_violation_rate"), (double)sc->slo.latency_us / 1e6);
	printf("  latency    mean %.3f s, p50 %.3f, p90 %.3f, p95 %.3f, p99 %.3f, max %.3f\n",
	       get(rep, "latency_mean_s"), get(rep, "latency_p50_s"), get(rep, "latency_p90_s"),
	       get(rep, "latency_p95_s"), get(rep, "latency_p99_s"), get(rep, "latency_max_s"));
	printf("  wait       mean %.3f s, p99 %.3f s; %.2f%% of requests waited\n", get(rep, "wait_mean_s"),
	       get(rep, "wait_p99_s"), 100 * get(rep, "waited_fraction"));
	printf("  cost       $%.2f total, $%.4f per 1k served requests\n", get(rep, "cost_total_usd"),
	       get(rep, "cost_per_1k_requests_usd"));
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		char name[64], idle[64];
		snprintf(name, sizeof name, "cost_%s_usd", option_kind_name((enum option_kind)k));
		snprintf(idle, sizeof idle, "gpu_hours_idle_%s", option_kind_name((enum option_kind)k));
		if (get(rep, name) > 0)
			printf("    %-14s $%.2f, %.1f idle GPU-hours\n", option_kind_name((enum option_kind)k),
			       get(rep, name), get(rep, idle));
	}
	printf("  GPU-hours  %.1f paid = %.1f busy + %.1f idle (%.1f%% utilised)\n", get(rep, "gpu_hours_paid"),
	       get(rep, "gpu_hours_busy"), get(rep, "gpu_hours_idle"), 100 * get(rep, "gpu_utilization"));
	printf("  fleet      peak %.0f instances, %.0f launches, %.0f scale-outs, %.0f scale-ins, %.0f launch failures\n",
	       get(rep, "instances_peak"), get(rep, "launches"), get(rep, "scale_out_actions"),
	       get(rep, "scale_in_actions"), get(rep, "launch_failures"));
	if (sc->copies.enabled)
		printf("  copies     %.1f copy-hours serving, %.0f copy loads\n", get(rep, "copy_hours"),
		       get(rep, "copy_loads"));
	if (get(rep, "spot_interruptions") > 0 || get(rep, "block_terminations") > 0)
		printf("  taken      %.0f spot interruptions, %.0f block terminations; %.0f requests interrupted "
		       "(%.0f dropped)\n", get(rep, "spot_interruptions"), get(rep, "block_terminations"),
		       get(rep, "requests_interrupted"), get(rep, "requests_interrupted_dropped"));
	if (get(rep, "commitment_usd") > 0)
		printf("  commitment $%.2f in the window, %.1f%% used ($%.2f unused), %.1f%% coverage; "
		       "$%.2f still to pay after the horizon\n", get(rep, "commitment_usd"),
		       100 * get(rep, "commitment_utilization"), get(rep, "commitment_unused_usd"),
		       100 * get(rep, "commitment_coverage"), get(rep, "commitment_after_horizon_usd"));
	else if (get(rep, "commitment_after_horizon_usd") > 0)
		printf("  commitment $%.2f still to pay after the horizon\n", get(rep, "commitment_after_horizon_usd"));
	printf("  engine     %.0f events in %.2f s (%.1f M events/s)\n", get(rep, "sim_events"), get(rep, "wall_s"),
	       get(rep, "sim_events") / get(rep, "wall_s") / 1e6);
}

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct scenario sc;
	struct world_report *rep = NULL;
	struct store *st = NULL;
	struct sink sink;
	struct diag d;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	diag_clear(&d);
	rc = scenario_load(&sc, a.scenario, a.sets, a.nsets, &d);
	if (rc) {
		fprintf(stderr, "gpucap: %s\n", d.msg);
		return cmd_exit_code(rc);
	}
	cmd_print_warnings(&sc);
	rep = calloc(1, sizeof *rep);
	if (!rep) {
		rc = diag_fail(&d, STATUS_ENOMEM, "out of memory");
		goto out_scenario;
	}
	rc = store_open(&st, a.db, &d);
	if (rc)
		goto out_report;
	sink = store_sink(st, &d);
	rc = world_run(&sc, &sink, GPUCAP_VERSION, rep, &d);
	if (rc)
		goto out_store;
	if (a.json)
		print_json(rep, store_last_run_id(st));
	else if (!a.quiet)
		print_summary(&sc, rep, a.db, store_last_run_id(st));
out_store:
	store_close(st);
out_report:
	free(rep);
out_scenario:
	scenario_fini(&sc);
	if (rc)
		fprintf(stderr, "gpucap: %s\n", d.msg[0] ? d.msg : status_str(rc));
	return cmd_exit_code(rc);
}
