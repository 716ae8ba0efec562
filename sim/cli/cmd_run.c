/*
 * cmd_run: `gpucap run [SCENARIO] [--db FILE] [--seed N] [--set K=V]... [--label K=V]... [--json] [--quiet]
 * [--force]`.
 *
 * Output: the summary (lines for metrics a run does not report are left out, so a run without a warm-up or
 * percentile SLO prints what it always printed; in mode fluid a line under the wait says that latency and wait
 * are modelled), then its warnings, one per line; or with --json one object
 * with the run's metadata, labels, warnings and every metric. On a terminal a run longer than
 * PROGRESS_AFTER_S shows a progress line on stderr, rewritten in place and erased at the end.
 *
 * Order matters for "nothing is lost": the scenario is loaded and fully validated before the database is
 * opened, so bad input never touches (or creates) the results file; the run is one transaction in it.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "datadir.h"
#include "diag.h"
#include "engine.h"
#include "scenario.h"
#include "status.h"
#include "store.h"
#include "store_limit.h"
#include "units.h"
#include "world.h"

#define MAX_SETS 256
#define MAX_LABELS 64
#define PROGRESS_AFTER_S 2.0     /* a run shows progress once it has taken this long (wall clock) */
#define PROGRESS_EVERY_S 0.5     /* and rewrites the line at most this often */

static const char run_usage[] =
	"usage: gpucap run [SCENARIO] [--db FILE] [--seed N] [--set KEY.PATH=VALUE]... [--label KEY=VALUE]...\n"
	"                  [--json] [--quiet] [--force]\n"
	"\n"
	"Simulate SCENARIO (a YAML file; default: %s) and store the run in\n"
	"an SQLite file. Prints a readable summary, or every metric as one JSON object with --json.\n"
	"\n"
	"  --db FILE             results database (default results.sqlite); created if missing, runs are added\n"
	"  --seed N              random seed (same as --set seed=N); same scenario + seed = same results\n"
	"  --set KEY.PATH=VALUE  override any scalar of the scenario, e.g. --set workload.arrivals.rate_per_s=80,\n"
	"                        --set fleet.0.count=6 (list items by index); repeatable, each setting once\n"
	"                        (fleet.00.count is fleet.0.count); stored with the run\n"
	"  --label KEY=VALUE     store a label with the run (KEY: letters, digits, _; not starting with a digit);\n"
	"                        repeatable, one value per key; in the labels table and in --json\n"
	"  --json                print the run (metadata, labels, warnings, metrics) as JSON on stdout instead of\n"
	"                        the summary\n"
	"  --quiet               print nothing on success\n"
	"  --force               allow a run that adds more than 1 GiB to the database (refused otherwise)\n"
	"On a terminal, a run longer than 2 s shows its progress on stderr (not with --json or --quiet).\n"
	"  -h, --help            this help\n"
	"\n"
	"Threads: a run draws its requests (arrivals, service times, sizes) ahead on a second thread and\n"
	"simulates on the first; the results are the same byte for byte. GPUCAP_THREADS=1 keeps every run to one\n"
	"thread (sweep and recommend workers too); runs whose requests carry prefix ids use one anyway.\n"
	"\n"
	"Exit codes: 0 success, 2 bad scenario, override or usage, 1 other failures (database, memory, standard\n"
	"output that cannot be written: the run is then stored all the same, and the message says where).\n";

struct run_args {
	const char *scenario;
	const char *db;
	const char *sets[MAX_SETS + 1];
	int nsets;
	const char *labels[MAX_LABELS + 1];
	int nlabels;
	char seed_set[48];
	char default_scenario[4 * PATH_MAX];    /* the shipped default, found at run time (datadir.h) */
	bool json, quiet, force;
};

/* KEY of "KEY=VALUE": an identifier, [A-Za-z_][A-Za-z0-9_]*, of len bytes. */
static bool label_key_ok(const char *key, size_t len)
{
	if (len == 0 || !(isalpha((unsigned char)key[0]) || key[0] == '_'))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!(isalnum((unsigned char)key[i]) || key[i] == '_'))
			return false;
	return true;
}

/* Check and keep one --label KEY=VALUE (the value may be empty and hold anything, '=' included). */
static int label_add(struct run_args *a, const char *text)
{
	const char *eq = strchr(text, '=');
	size_t len = eq ? (size_t)(eq - text) : 0;

	if (!eq || !label_key_ok(text, len)) {
		fprintf(stderr, "gpucap run: --label '%s': expected KEY=VALUE, KEY letters, digits and _ not starting "
			"with a digit\n", text);
		return -1;
	}
	for (int i = 0; i < a->nlabels; i++)
		if (strncmp(a->labels[i], text, len + 1) == 0) {
			fprintf(stderr, "gpucap run: --label '%s': key '%.*s' given twice\n", text, (int)len, text);
			return -1;
		}
	if (a->nlabels == MAX_LABELS) {
		fprintf(stderr, "gpucap run: at most %d --label options\n", MAX_LABELS);
		return -1;
	}
	a->labels[a->nlabels++] = text;
	return 0;
}

static int parse_args(int argc, char **argv, struct run_args *a)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },   { "seed", required_argument, NULL, 's' },
		{ "set", required_argument, NULL, 'S' },  { "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },      { "help", no_argument, NULL, 'h' },
		{ "label", required_argument, NULL, 'L' }, { "force", no_argument, NULL, 'f' },
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
		case 'f': a->force = true; break;
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
		case 'L':
			if (label_add(a, optarg))
				return -1;
			break;
		case 's':
			if (cmd_seed_set("run", optarg, a->seed_set, sizeof a->seed_set))
				return -1;
			break;
		case ':':
			fprintf(stderr, "gpucap run: option '%s' needs a value (see gpucap run --help)\n", argv[optind - 1]);
			return -1;
		default:
			fprintf(stderr, "gpucap run: unknown option '%s' (see gpucap run --help)\n", argv[optind - 1]);
			return -1;
		}
	}
	if (a->seed_set[0])
		a->sets[a->nsets++] = a->seed_set; /* --seed N is --set seed=N: both together are refused */
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

/* The run as one JSON object: metadata, labels, warnings, then every metric (null when undefined). */
static void print_json(const struct scenario *sc, const struct run_args *a, const struct world_report *rep,
		       int64_t run_id)
{
	printf("{\"run_id\": %" PRId64 ", \"name\": ", run_id);
	cmd_json_string(sc->name);
	printf(", \"seed\": %" PRIu64 ", \"overrides\": ", sc->seed);
	cmd_json_string(sc->overrides);
	printf(", \"horizon_s\": %.17g, \"scenario_path\": ", (double)sc->horizon_us / 1e6);
	cmd_json_string(sc->path);
	printf(", \"timezone\": ");  /* the clock of the diurnal profile and cron (models/README.md, "Local time") */
	cmd_json_string(sc->tz.name[0] ? sc->tz.name : "UTC");
	printf(", \"version\": ");
	cmd_json_string(GPUCAP_VERSION);
	printf(", \"labels\": {");
	for (int i = 0; i < a->nlabels; i++) {
		const char *eq = strchr(a->labels[i], '=');
		printf("%s\"%.*s\": ", i ? ", " : "", (int)(eq - a->labels[i]), a->labels[i]); /* an identifier */
		cmd_json_string(eq + 1);
	}
	printf("}, \"warnings\": [");
	for (int i = 0; i < rep->nwarnings; i++) {
		printf("%s{\"code\": ", i ? ", " : "");
		cmd_json_string(rep->warnings[i].code);
		printf(", \"message\": ");
		cmd_json_string(rep->warnings[i].message);
		putchar('}');
	}
	putchar(']');
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

/* The run reported metric `name` with a value (a metric of a later model, or an undefined one, is not). */
static bool has(const struct world_report *rep, const char *name)
{
	return isfinite(get(rep, name));
}

/* Lines for the metrics of the warm-up, the violation split and the SLO verdict, when the run has them. */
static void print_slo_extra(const struct scenario *sc, const struct world_report *rep)
{
	if (has(rep, "slo_violations_service")) {
		printf("             %.0f from service time alone, ", get(rep, "slo_violations_service"));
		if (get(rep, "slo_violations_slowed") > 0)
			printf("%.0f from service slowed where it ran, ", get(rep, "slo_violations_slowed"));
		printf("%.0f from waiting, %.0f dropped", get(rep, "slo_violations_wait"),
		       get(rep, "slo_violations_dropped"));
		if (has(rep, "slo_violation_rate_floor"))
			printf("; floor %.3f%% with unlimited capacity", 100 * get(rep, "slo_violation_rate_floor"));
		printf("\n");
	}
	if (!has(rep, "slo_met"))
		return;
	printf("  verdict    SLO %s", get(rep, "slo_met") > 0 ? "met" : "NOT met");
	if (has(rep, "slo_windows") && get(rep, "slo_windows") > 0) {
		char at[32];
		printf("; %.0f of %.0f windows breached (%.1f%%)", get(rep, "slo_windows_breached"),
		       get(rep, "slo_windows"), 100 * get(rep, "slo_windows_breached_fraction"));
		if (has(rep, "slo_worst_window_start_s") && has(rep, "slo_worst_window_ratio")) {
			units_format_time(units_floor_s(sc->start_unix_us) + (int64_t)get(rep, "slo_worst_window_start_s"),
					  at, sizeof at);
			printf(", worst %.3gx its threshold from %s", get(rep, "slo_worst_window_ratio"), at);
		}
	}
	printf("\n");
}

/* The time-to-first-token line, with the token model. */
static void print_ttft(const struct scenario *sc, const struct world_report *rep)
{
	if (sc->service.kind != SERVICE_TOKENS || !has(rep, "ttft_p50_s"))
		return;
	printf("  TTFT       mean %.3f s, p50 %.3f, p90 %.3f, p99 %.3f", get(rep, "ttft_mean_s"), get(rep, "ttft_p50_s"),
	       get(rep, "ttft_p90_s"), get(rep, "ttft_p99_s"));
	if (sc->slo.ttft_us > 0)
		printf("; %.0f violations = %.3f%% (> %.3g s, or dropped)", get(rep, "ttft_slo_violations"),
		       100 * get(rep, "ttft_slo_violation_rate"), (double)sc->slo.ttft_us / 1e6);
	printf("\n");
}

/* The measured window's cost normalised, and what each commitment still costs after the horizon. */
static void print_cost_extra(const struct world_report *rep)
{
	static const char *const split[][2] = {
		{ "commitment_after_horizon_reserved_usd", "reserved" },
		{ "commitment_after_horizon_savings_plan_usd", "savings plan" },
		{ "commitment_after_horizon_capacity_block_usd", "capacity block" },
		{ "commitment_after_horizon_training_plan_usd", "training plan" },
	};
	const char *sep = "";

	bool grows = false;

	for (int i = 0; i < rep->nwarnings; i++)
		grows |= strcmp(rep->warnings[i].code, "extrapolated_with_growth") == 0;
	if (has(rep, "cost_per_month_usd"))
		printf("             measured window $%.2f: $%.2f per hour, $%.0f per 30-day month, $%.0f per year%s\n",
		       get(rep, "cost_measured_usd"), get(rep, "cost_per_hour_usd"), get(rep, "cost_per_month_usd"),
		       get(rep, "cost_per_year_usd"), grows ? " (this window stretched while traffic grows: see "
		       "warning extrapolated_with_growth)" : "");
	if (!(get(rep, "commitment_after_horizon_usd") > 0))
		return;
	for (size_t i = 0; i < sizeof split / sizeof split[0]; i++) {
		if (!(get(rep, split[i][0]) > 0))
			continue;
		printf("%s%s $%.2f", *sep ? sep : "             after the horizon: ", split[i][1], get(rep, split[i][0]));
		sep = ", ";
	}
	if (*sep)
		printf("\n");
}

/* The warnings, after the summary. */
static void print_warnings(const struct world_report *rep)
{
	for (int i = 0; i < rep->nwarnings; i++)
		printf("warning: %s: %s\n", rep->warnings[i].code, rep->warnings[i].message);
}

/* Seconds as "%.2f h", or `none` when undefined (no job completed, none started: NaN). Returns buf. */
static const char *hours(char *buf, size_t size, double s, const char *none)
{
	if (isnan(s))
		snprintf(buf, size, "%s", none);
	else
		snprintf(buf, size, "%.2f h", s / 3600);
	return buf;
}

/* The jobs' lines (jobs.h): what finished, by when, what was lost, and what the jobs' entries cost. */
static void print_jobs(const struct world_report *rep)
{
	char p50[32], p99[32], wait[32];

	printf("  jobs       %.0f submitted, %.0f completed, %.0f missed their deadline, %.0f terminated\n",
	       get(rep, "jobs_submitted"), get(rep, "jobs_completed"), get(rep, "jobs_missed_deadline"),
	       get(rep, "jobs_terminated"));
	if (get(rep, "jobs_stopped_max_wait") > 0)  /* absent (NaN) without jobs.managed_spot */
		printf("             %.0f stopped at max_wait (managed Spot), counted terminated and missed\n",
		       get(rep, "jobs_stopped_max_wait"));
	if (isnan(get(rep, "job_completion_p50_s")))
		printf("             completion none (no job completed); wait mean %s\n",
		       hours(wait, sizeof wait, get(rep, "job_wait_mean_s"), "none (no job started)"));
	else
		printf("             completion p50 %s, p99 %s; wait mean %s\n",
		       hours(p50, sizeof p50, get(rep, "job_completion_p50_s"), "none"),
		       hours(p99, sizeof p99, get(rep, "job_completion_p99_s"), "none"),
		       hours(wait, sizeof wait, get(rep, "job_wait_mean_s"), "none (no job started)"));
	printf("             %.2f instance-hours of work lost; %.0f interruptions, %.0f node failures\n",
	       get(rep, "work_lost_instance_hours"), get(rep, "job_interruptions"), get(rep, "job_failures"));
	printf("             their entries cost");
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		char name[64];
		snprintf(name, sizeof name, "jobs_cost_%s_usd", option_kind_name((enum option_kind)k));
		if (get(rep, name) > 0)
			printf(" %s $%.2f", option_kind_name((enum option_kind)k), get(rep, name));
	}
	printf("; %.1f of %.1f GPU-hours idle\n", get(rep, "jobs_gpu_hours_idle"), get(rep, "jobs_gpu_hours_paid"));
	if (!isnan(get(rep, "jobs_regret_usd")))  /* absent unless every job has an optimum (jobs_regret.c) */
		printf("             offline optimum $%.2f, regret $%.2f: the most a better policy could save (the "
		       "optimum knows the\n             whole Spot trace; no node failures, free checkpoints: "
		       "each job in its job_optimum event)\n", get(rep, "job_cost_optimal_usd"),
		       get(rep, "jobs_regret_usd"));
}

/* With jobs.teams: a line per team (models/jobs/jobs_teams_report.c). */
static void print_teams(const struct scenario *sc, const struct world_report *rep)
{
	for (int t = 0; t < sc->jobs.nteams; t++) {
		const char *n = sc->jobs.teams[t].name;
		char k[6][80];
		const char *what[6] = { "jobs_completed", "wait_mean_s", "wait_p95_s", "gpu_hours",
					"borrowed_instance_hours", "cost_usd" };
		for (int i = 0; i < 6; i++)
			snprintf(k[i], sizeof k[i], "team_%s_%s", n, what[i]);
		char mean[32], p95[32];
		printf("  team %-6s %.0f completed, wait mean %s, p95 %s; %.1f GPU-hours, %.1f instance-hours "
		       "borrowed; $%.2f\n", n, get(rep, k[0]), hours(mean, sizeof mean, get(rep, k[1]), "none"),
		       hours(p95, sizeof p95, get(rep, k[2]), "none"), get(rep, k[3]), get(rep, k[4]), get(rep, k[5]));
	}
}

/* Several models: one line each, from the metrics "model.NAME.*" (models/serving/tally.h). */
static void print_models(const struct scenario *sc, const struct world_report *rep)
{
	for (int i = 0; i < sc->nmodels; i++) {
		const char *n = sc->models[i].name;
		char k[8][64];
		static const char *const what[8] = { "requests", "served", "dropped", "slo_violations",
						     "violation_rate", "latency_p50_s", "latency_p99_s", "wait_mean_s" };
		for (int j = 0; j < 8; j++)
			snprintf(k[j], sizeof k[j], "model.%s.%s", n, what[j]);
		printf("  model %-16s %s x %d per instance: %.0f requests, %.0f served, %.0f dropped; %.0f over "
		       "%.3g s (%.3f%%); latency p50 %.3f s, p99 %.3f s; wait mean %.3f s\n", n,
		       sc->models[i].partition, sc->models[i].slots, get(rep, k[0]), get(rep, k[1]), get(rep, k[2]),
		       get(rep, k[3]), (double)sc->models[i].blocks->slo.latency_us / 1e6, 100 * get(rep, k[4]),
		       get(rep, k[5]), get(rep, k[6]), get(rep, k[7]));
	}
}

/* Where each type's prices come from (scenario_origin.c), under the bill: a type priced from a price list
 * has its warning instead. */
static void print_price_origins(const struct scenario *sc)
{
	char line[512];
	bool first = true;

	for (int k = 0; k < sc->ntypes; k++)
		if (scenario_price_origin(sc, k, line, sizeof line)) {
			printf("  %-10s %s\n", first ? "prices" : "", line);
			first = false;
		}
}

static void print_summary(const struct scenario *sc, const struct world_report *rep, const char *db,
			  int64_t run_id)
{
	double total = get(rep, "requests_total");

	char unit[SCENARIO_NAME_MAX + 96];

	if (sc->copies.enabled)
		snprintf(unit, sizeof unit, "%s x %d copies of %d GPUs x %d slots", sc->serving.instance_type,
			 sc->copies.per_instance, sc->copies.gpus, sc->serving.slots);
	else if (sc->no_traffic)
		snprintf(unit, sizeof unit, "%s", sc->serving.instance_type);
	else if (sc->nmodels > 0)
		snprintf(unit, sizeof unit, "%s x %d models on MIG partitions", sc->serving.instance_type,
			 sc->nmodels);
	else
		snprintf(unit, sizeof unit, "%s x %d slots", sc->serving.instance_type, sc->serving.slots);
	printf("gpucap %s: %s, seed %" PRIu64 ", %.4g h on %s; run %" PRId64 " in %s\n", GPUCAP_VERSION,
	       sc->name, sc->seed, (double)sc->horizon_us / SIM_US_PER_H_D, unit, run_id, db);
	if (!tzone_is_utc(&sc->tz)) {  /* UTC, the default, goes without saying (and keeps the summary as it was) */
		char zone[160];

		tzone_describe(&sc->tz, zone, sizeof zone);
		printf("  clock      times of day: %s, for the diurnal profile, weekly factors, cron and SLO "
		       "windows; bills and serving_hours in UTC\n", zone);
	}
	if (get(rep, "warmup_s") > 0)
		printf("  window     first %.4g h a warm-up, left out of request metrics; %.4g h measured\n",
		       get(rep, "warmup_s") / 3600, get(rep, "measured_s") / 3600);
	if (!sc->no_traffic) {
		printf("  requests   %.0f total, %.0f served, %.0f dropped (%.0f timed out, %.0f refused)\n", total,
		       get(rep, "requests_served"), get(rep, "requests_dropped"), get(rep, "requests_timed_out"),
		       get(rep, "requests_refused"));
		if (sc->nmodels > 0)
			printf("  SLO        %.0f violations = %.3f%% of requests (each model's latency_s, or "
			       "dropped)\n", get(rep, "slo_violations"), 100 * get(rep, "slo_violation_rate"));
		else
			printf("  SLO        %.0f violations = %.3f%% of requests (latency > %.3g s, or dropped)\n",
			       get(rep, "slo_violations"), 100 * get(rep, "slo_violation_rate"),
			       (double)sc->slo.latency_us / 1e6);
		print_slo_extra(sc, rep);
		printf("  latency    mean %.3f s, p50 %.3f, p90 %.3f, p95 %.3f, p99 %.3f, max %.3f\n",
		       get(rep, "latency_mean_s"), get(rep, "latency_p50_s"), get(rep, "latency_p90_s"),
		       get(rep, "latency_p95_s"), get(rep, "latency_p99_s"), get(rep, "latency_max_s"));
		if (sc->service.kind != SERVICE_TOKENS && sc->service.nslowdown == 0 && sc->nmodels == 0)
			printf("             (load-independent service: each request takes its drawn time however busy "
			       "its instance;\n              workload.service.slowdown makes it depend on the load)\n");
		print_ttft(sc, rep);
		printf("  wait       mean %.3f s, p99 %.3f s; %.2f%% of requests waited\n", get(rep, "wait_mean_s"),
		       get(rep, "wait_p99_s"), 100 * get(rep, "waited_fraction"));
		if (sc->mode == MODE_FLUID)
			printf("             (mode fluid: modelled, the percentiles of each period's latency "
			       "distribution; models/README.md, \"Fluid mode\")\n");
		if (sc->mme.n > 0)
			printf("  models     %.2f%% cache hits; load wait mean %.3f s, p99 %.3f s; %.2f loaded per "
			       "instance; %.0f loads, %.0f evictions\n", 100 * get(rep, "model_cache_hit_ratio"),
			       get(rep, "model_loading_wait_mean_s"), get(rep, "model_loading_wait_p99_s"),
			       get(rep, "loaded_models_per_instance"), get(rep, "model_loads"),
			       get(rep, "model_evictions"));
	}
	if (sc->jobs.n > 0)
		print_jobs(rep);
	print_teams(sc, rep);
	print_models(sc, rep);
	if (sc->no_traffic)
		printf("  cost       $%.2f total\n", get(rep, "cost_total_usd"));
	else
		printf("  cost       $%.2f total, $%.4f per 1k served requests\n", get(rep, "cost_total_usd"),
		       get(rep, "cost_per_1k_requests_usd"));
	print_cost_extra(rep);
	for (int k = 0; k < OPTION_KIND_COUNT; k++) {
		char name[64], idle[64], paid[64];
		snprintf(name, sizeof name, "cost_%s_usd", option_kind_name((enum option_kind)k));
		snprintf(idle, sizeof idle, "gpu_hours_idle_%s", option_kind_name((enum option_kind)k));
		snprintf(paid, sizeof paid, "gpu_hours_paid_%s", option_kind_name((enum option_kind)k));
		if (get(rep, name) > 0 && !(get(rep, paid) > 0))  /* a commitment: regional RIs, Savings Plans */
			printf("    %-14s $%.2f, a commitment: discounts usage, runs no instance\n",
			       option_kind_name((enum option_kind)k), get(rep, name));
		else if (get(rep, name) > 0)
			printf("    %-14s $%.2f, %.1f idle GPU-hours\n", option_kind_name((enum option_kind)k),
			       get(rep, name), get(rep, idle));
	}
	print_price_origins(sc);
	printf("  GPU-hours  %.1f paid = %.1f busy + %.1f idle (%.1f%% utilised)\n", get(rep, "gpu_hours_paid"),
	       get(rep, "gpu_hours_busy"), get(rep, "gpu_hours_idle"), 100 * get(rep, "gpu_utilization"));
	printf("  fleet      peak %.0f instances, %.0f launches, %.0f scale-outs, %.0f scale-ins, %.0f launch failures\n",
	       get(rep, "instances_peak"), get(rep, "launches"), get(rep, "scale_out_actions"),
	       get(rep, "scale_in_actions"), get(rep, "launch_failures"));
	if (sc->copies.enabled)
		printf("  copies     %.1f copy-hours serving, %.0f copy loads\n", get(rep, "copy_hours"),
		       get(rep, "copy_loads"));
	if (sc->no_traffic && (get(rep, "spot_interruptions") > 0 || get(rep, "block_terminations") > 0))
		printf("  taken      %.0f spot interruptions, %.0f block terminations\n", get(rep, "spot_interruptions"),
		       get(rep, "block_terminations"));
	else if (get(rep, "spot_interruptions") > 0 || get(rep, "block_terminations") > 0)
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
	print_warnings(rep);
}

/* The progress line: shown on stderr once the run has taken PROGRESS_AFTER_S, rewritten in place. */
struct progress {
	struct timespec t0;   /* when the run started */
	double after_s;       /* show it from this many seconds on */
	double shown_at_s;    /* when it was last written; < 0: never */
	int width;            /* characters of the last line written */
};

static double progress_elapsed(const struct progress *p)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - p->t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - p->t0.tv_nsec);
}

/* Called per sample period from inside the run (world.h): one clock read, a line at most every 0.5 s. */
static void progress_tell(void *arg, double t_s, double horizon_s)
{
	struct progress *p = arg;
	double elapsed = progress_elapsed(p), f = horizon_s > 0 ? t_s / horizon_s : 1;
	char line[128];
	int n;

	if (elapsed < p->after_s || (p->shown_at_s >= 0 && elapsed - p->shown_at_s < PROGRESS_EVERY_S) || f <= 0)
		return;
	n = snprintf(line, sizeof line, "gpucap: simulated %.4g h of %.4g h (%.0f%%), about %.0f s to go",
		     t_s / 3600, horizon_s / 3600, 100 * f, elapsed * (1 - f) / f);
	fprintf(stderr, "\r%-*s", p->width > n ? p->width : n, line);
	fflush(stderr);
	p->width = n;
	p->shown_at_s = elapsed;
}

/* Erase the line, if one was shown. */
static void progress_end(const struct progress *p)
{
	if (p->shown_at_s >= 0)
		fprintf(stderr, "\r%*s\r", p->width, "");
}

/* Progress on a terminal only, never with --json or --quiet. GPUCAP_PROGRESS_AFTER_S (seconds) moves the
 * threshold, for tests. */
static bool progress_init(struct progress *p, const struct run_args *a)
{
	const char *after = getenv("GPUCAP_PROGRESS_AFTER_S");

	if (a->json || a->quiet || !isatty(STDERR_FILENO))
		return false;
	clock_gettime(CLOCK_MONOTONIC, &p->t0);
	p->after_s = after && *after ? atof(after) : PROGRESS_AFTER_S;
	p->shown_at_s = -1;
	p->width = 0;
	return true;
}

/* The memory_budget warning (warn.h) on stderr before the run, so that a run that then runs out of memory
 * has said so; it is reported again with the run's warnings. */
static void print_memory_warning(const struct scenario *sc)
{
	struct warn_memory mem;
	struct sink_warning x;

	world_memory_estimate(sc, &mem);
	if (warn_memory_budget(&mem, sc, &x))
		fprintf(stderr, "gpucap: warning: %s: %s\n", x.code, x.message);
}

/*
 * The run is stored before its summary is printed, so a summary that cannot be written (a full disk, a
 * closed standard output) fails the command (exit 1) with a message saying where the run is kept.
 */
static int check_stdout(const char *db, int64_t run_id, struct diag *d)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return STATUS_OK;
	return diag_fail(d, STATUS_EIO, "writing standard output: %s (the run is stored: run %" PRId64 " in %s)",
			 errno ? strerror(errno) : "an earlier write failed", run_id, db);
}

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct scenario sc;
	struct world_report *rep = NULL;
	struct store *st = NULL;
	struct sink sink;
	struct progress progress = { .shown_at_s = -1 };
	struct world_progress tell;
	struct world_options opts = { .progress = NULL };
	struct diag d;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	diag_clear(&d);
	(void)world_threads_env(&opts.one_thread, &d);  /* its value was checked at start-up (main.c) */
	rc = scenario_load(&sc, a.scenario, a.sets, a.nsets, &d);
	if (rc) {
		fprintf(stderr, "gpucap: %s\n", d.msg);
		return cmd_exit_code(rc);
	}
	cmd_print_warnings(&sc);
	print_memory_warning(&sc);
	rc = store_check_run_size(&sc, a.force, &d);  /* before the file is opened (or created) */
	if (rc)
		goto out_scenario;
	rep = calloc(1, sizeof *rep);
	if (!rep) {
		rc = diag_fail(&d, STATUS_ENOMEM, "out of memory");
		goto out_scenario;
	}
	rc = store_open(&st, a.db, &d);
	if (rc)
		goto out_report;
	if (a.force)
		store_set_size_limit(st, 0);
	sink = store_sink(st, &d);
	store_set_labels(st, a.labels, a.nlabels);
	tell.fn = progress_tell;
	tell.arg = &progress;
	opts.progress = progress_init(&progress, &a) ? &tell : NULL;
	rc = world_run_opts(&sc, &sink, GPUCAP_VERSION, &opts, rep, &d);
	progress_end(&progress);
	if (rc)
		goto out_store;
	if (a.json)
		print_json(&sc, &a, rep, store_last_run_id(st));
	else if (!a.quiet)
		print_summary(&sc, rep, a.db, store_last_run_id(st));
	rc = check_stdout(a.db, store_last_run_id(st), &d);
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
