/*
 * cmd_sweep: `gpucap sweep FILE [--db DB] [--jobs N] [--resume] [--name NAME] [--shard K/N] [--shard-count N]
 * [--check] [--quiet]`. The options and the shard's environment are read here; the sweep file is
 * analysis/sweepfile.c and the runner analysis/sweep.c.
 */
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "diag.h"
#include "status.h"
#include "sweep.h"
#include "sweepfile.h"

#define JOBS_MAX 1024
#define SHARDS_MAX 1000000

static const char sweep_usage[] =
	"usage: gpucap sweep FILE [--db FILE] [--jobs N] [--resume] [--name NAME] [--shard K/N] [--shard-count N]\n"
	"                         [--check] [--force] [--quiet]\n"
	"\n"
	"Run every point x replication of the sweep FILE (YAML: name, base, replications, set, and one of\n"
	"grid, zip or sample; see analysis/README.md, \"Sweeps\") and store each run in an SQLite file.\n"
	"\n"
	"  --db FILE        results database (default results.sqlite; with a shard, NAME-shard-K-of-N.sqlite)\n"
	"  --jobs N         worker processes (default 1); the results do not depend on N\n"
	"  --resume         run only the runs the database does not hold yet (after a crash or kill); stored\n"
	"                   runs whose input files (traces, jobs CSVs, price traces) changed since are\n"
	"                   replaced: run again, with a line on stderr naming the file\n"
	"  --name NAME      store the sweep under NAME instead of the file's name: (a database holds one sweep\n"
	"                   of a name; an edited sweep file under a used name is refused without it)\n"
	"  --shard K/N      run only shard K of N (1 <= K <= N): the runs whose index i has i % N == K - 1;\n"
	"                   without it, taken from GPUCAP_SHARD=K/N, or from SLURM_ARRAY_TASK_ID (K = ID -\n"
	"                   SLURM_ARRAY_TASK_MIN + 1, N = SLURM_ARRAY_TASK_COUNT), or from JOB_COMPLETION_INDEX\n"
	"                   or AWS_BATCH_JOB_ARRAY_INDEX (0-based: K = index + 1) with N from --shard-count\n"
	"  --shard-count N  the number of shards, for an index taken from the environment\n"
	"  --check          load every point's scenario, report the invalid ones (and those over 1 GiB without\n"
	"                   --force), run nothing\n"
	"  --force          allow runs that add more than 1 GiB each to the database (refused otherwise)\n"
	"  --quiet          print only the final summary\n"
	"  -h, --help       this help\n"
	"\n"
	"Progress: on a terminal, one line on stderr (runs done, failed, elapsed, ETA); otherwise one line per\n"
	"finished run on stdout: \"run I point P rep R ok\" or \"run I point P rep R failed: MESSAGE\".\n"
	"Several sweep processes of one file on one database share the work: each run is claimed before it runs,\n"
	"so none is run twice; a process that finds the sweep begun by a live one joins it without --resume.\n"
	"A full disk stops the sweep (exit 1, the runs stored before it kept): free space, then --resume.\n"
	"Exit codes: 0 every run ok (or, with --check, every point valid), 1 some runs failed, 2 bad sweep\n"
	"file, invalid points with --check, or usage. A key set or swept twice, however written (fleet.00.count\n"
	"is fleet.0.count), is a bad sweep file; so is a FILE that is not a regular file (a FIFO: not read).\n";

struct sweep_args {
	const char *file;
	const char *db;
	const char *name;
	int jobs, shard_k, shard_n, shard_count;
	bool resume, check, quiet, force;
	char db_buf[PATH_MAX];
};

/* A decimal integer in [lo, hi] that is all of s. */
static bool parse_count(const char *s, long lo, long hi, int *out)
{
	char *end;
	long v;

	if (!*s || *s == '-' || *s == '+')
		return false;
	v = strtol(s, &end, 10);
	if (*end || v < lo || v > hi)
		return false;
	*out = (int)v;
	return true;
}

/* A sweep name as a sweep file's `name:` may be (analysis/sweepfile.c). */
static bool name_ok(const char *s)
{
	return *s && strlen(s) < SWEEPFILE_NAME_MAX && s[0] != '.' && s[0] != '-' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == strlen(s);
}

/* "K/N" with 1 <= K <= N. */
static bool parse_shard(const char *s, int *k, int *n)
{
	char buf[64];
	char *slash;

	if (strlen(s) >= sizeof buf)
		return false;
	strcpy(buf, s);
	if (!(slash = strchr(buf, '/')))
		return false;
	*slash = '\0';
	return parse_count(buf, 1, SHARDS_MAX, k) && parse_count(slash + 1, 1, SHARDS_MAX, n) && *k <= *n;
}

/* The shard from the environment when --shard is not given (see sweep_usage). -1 with a message on error. */
static int shard_from_env(struct sweep_args *a)
{
	const char *g = getenv("GPUCAP_SHARD"), *id = getenv("SLURM_ARRAY_TASK_ID");
	const char *idx = getenv("JOB_COMPLETION_INDEX"), *what = "JOB_COMPLETION_INDEX";
	int v, min = 0, max;

	if (g) {
		if (!parse_shard(g, &a->shard_k, &a->shard_n)) {
			fprintf(stderr, "gpucap sweep: GPUCAP_SHARD='%s': expected K/N with 1 <= K <= N\n", g);
			return -1;
		}
		return 0;
	}
	if (id) {
		const char *smin = getenv("SLURM_ARRAY_TASK_MIN"), *smax = getenv("SLURM_ARRAY_TASK_MAX");
		const char *scount = getenv("SLURM_ARRAY_TASK_COUNT");
		if (!parse_count(id, 0, INT_MAX, &v) || (smin && !parse_count(smin, 0, v, &min))) {
			fprintf(stderr, "gpucap sweep: SLURM_ARRAY_TASK_ID='%s' (SLURM_ARRAY_TASK_MIN='%s'): expected "
				"integers, MIN <= ID\n", id, smin ? smin : "");
			return -1;
		}
		a->shard_k = v - min + 1;
		if (scount && parse_count(scount, 1, SHARDS_MAX, &a->shard_n))
			;
		else if (smax && parse_count(smax, min, INT_MAX, &max))
			a->shard_n = max - min + 1;
		else if (a->shard_count)
			a->shard_n = a->shard_count;
		else {
			fprintf(stderr, "gpucap sweep: SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT "
				"nor SLURM_ARRAY_TASK_MAX; expected them, or --shard-count N\n");
			return -1;
		}
	} else if (idx || (idx = getenv("AWS_BATCH_JOB_ARRAY_INDEX"), what = "AWS_BATCH_JOB_ARRAY_INDEX", idx)) {
		if (!parse_count(idx, 0, SHARDS_MAX - 1, &v)) {
			fprintf(stderr, "gpucap sweep: %s='%s': expected an integer >= 0\n", what, idx);
			return -1;
		}
		if (!a->shard_count) {
			fprintf(stderr, "gpucap sweep: %s is set; expected --shard-count N (the number of shards)\n",
				what);
			return -1;
		}
		a->shard_k = v + 1;
		a->shard_n = a->shard_count;
	} else {
		if (a->shard_count) {
			fprintf(stderr, "gpucap sweep: --shard-count without a shard index in the environment "
				"(SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX); use --shard K/N\n");
			return -1;
		}
		return 0;
	}
	if (a->shard_k > a->shard_n) {
		fprintf(stderr, "gpucap sweep: shard %d of %d from %s; expected K <= N\n", a->shard_k, a->shard_n,
			id ? "SLURM_ARRAY_TASK_ID" : what);
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct sweep_args *a)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },     { "jobs", required_argument, NULL, 'j' },
		{ "resume", no_argument, NULL, 'r' },       { "shard", required_argument, NULL, 's' },
		{ "shard-count", required_argument, NULL, 'n' }, { "check", no_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },        { "help", no_argument, NULL, 'h' },
		{ "force", no_argument, NULL, 'f' },        { "name", required_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 },
	};
	bool shard_given = false;
	int c;

	memset(a, 0, sizeof *a);
	a->jobs = 1;
	a->shard_k = a->shard_n = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': a->db = optarg; break;
		case 'N':
			if (!name_ok(optarg)) {
				fprintf(stderr, "gpucap sweep: --name '%s': expected 1 to %d letters, digits, '.', '_' or "
					"'-', not starting with '.' or '-' (as a sweep file's name:)\n", optarg,
					SWEEPFILE_NAME_MAX - 1);
				return -1;
			}
			a->name = optarg;
			break;
		case 'r': a->resume = true; break;
		case 'c': a->check = true; break;
		case 'q': a->quiet = true; break;
		case 'f': a->force = true; break;
		case 'h': fputs(sweep_usage, stdout); return 1;
		case 'j':
			if (!parse_count(optarg, 1, JOBS_MAX, &a->jobs)) {
				fprintf(stderr, "gpucap sweep: --jobs '%s': expected an integer from 1 to %d\n", optarg,
					JOBS_MAX);
				return -1;
			}
			break;
		case 'n':
			if (!parse_count(optarg, 1, SHARDS_MAX, &a->shard_count)) {
				fprintf(stderr, "gpucap sweep: --shard-count '%s': expected an integer from 1 to %d\n",
					optarg, SHARDS_MAX);
				return -1;
			}
			break;
		case 's':
			if (!parse_shard(optarg, &a->shard_k, &a->shard_n)) {
				fprintf(stderr, "gpucap sweep: --shard '%s': expected K/N with 1 <= K <= N\n", optarg);
				return -1;
			}
			shard_given = true;
			break;
		case ':':
			fprintf(stderr, "gpucap sweep: option '%s' needs a value (see gpucap sweep --help)\n",
				argv[optind - 1]);
			return -1;
		default:
			fprintf(stderr, "gpucap sweep: unknown option '%s' (see gpucap sweep --help)\n", argv[optind - 1]);
			return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "gpucap sweep: expected one sweep file (see gpucap sweep --help)\n");
		return -1;
	}
	a->file = argv[optind];
	return shard_given ? 0 : shard_from_env(a);
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_args a;
	struct sweepfile sf;
	struct sweep_result res;
	struct diag d;
	int rc = parse_args(argc, argv, &a), ninvalid;

	if (rc)
		return rc > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	if ((rc = sweepfile_load(&sf, a.file, &d))) {
		fprintf(stderr, "gpucap: %s\n", d.msg);
		return CMD_EXIT_USAGE;  /* a bad sweep file, missing or not, is the user's to fix */
	}
	if (a.check) {
		rc = sweep_check(&sf, stdout, a.force, &ninvalid, &d);
		if (rc == STATUS_OK)
			printf("sweep %s: %d points, %d invalid\n", sf.name, sf.npoints, ninvalid);
		goto out_sweepfile;
	}
	if (a.name)
		snprintf(sf.name, sizeof sf.name, "%s", a.name);  /* the name everything shows; the key says it */
	if (!a.db && a.shard_n > 1) {
		snprintf(a.db_buf, sizeof a.db_buf, "%s-shard-%d-of-%d.sqlite", sf.name, a.shard_k, a.shard_n);
		a.db = a.db_buf;
	}
	struct sweep_opts o = { a.db ? a.db : "results.sqlite", a.jobs, a.resume, a.shard_k, a.shard_n, a.quiet,
				stdout, isatty(STDERR_FILENO) ? stderr : NULL, a.force, stderr, a.name };
	rc = sweep_run(&sf, &o, &res, &d);
	if (rc == STATUS_OK && res.others)
		printf("sweep %s: %d runs%s: %d ok, %d failed, %d skipped (already done), %d run by another process; "
		       "database %s\n", sf.name, res.total, a.shard_n > 1 ? " in this shard" : "", res.ok, res.failed,
		       res.skipped, res.others, o.db);
	else if (rc == STATUS_OK)
		printf("sweep %s: %d runs%s: %d ok, %d failed, %d skipped (already done); database %s\n", sf.name,
		       res.total, a.shard_n > 1 ? " in this shard" : "", res.ok, res.failed, res.skipped, o.db);
out_sweepfile:
	sweepfile_fini(&sf);
	if (rc) {
		fprintf(stderr, "gpucap: %s\n", d.msg[0] ? d.msg : status_str(rc));
		return cmd_exit_code(rc);
	}
	if (a.check)
		return ninvalid ? CMD_EXIT_USAGE : CMD_EXIT_OK;
	return res.failed ? CMD_EXIT_FAIL : CMD_EXIT_OK;
}
