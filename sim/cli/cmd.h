/*
 * cmd: the gpucap subcommands. Each takes the arguments after its own name (argv[0] is the subcommand)
 * and returns the process exit code: 0 success, 2 bad input or usage, 1 any other failure (recommend also 3
 * and 4: why no candidate keeps the SLO). Errors go to stderr as one line "gpucap: message"; results go to
 * stdout.
 */
#ifndef GPUCAP_CMD_H
#define GPUCAP_CMD_H

#include <stdbool.h>
#include <stddef.h>

#define CMD_EXIT_OK 0
#define CMD_EXIT_FAIL 1
#define CMD_EXIT_USAGE 2

int cmd_run(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_catalog(int argc, char **argv);
int cmd_schema(int argc, char **argv);     /* `gpucap schema` (cmd_schema.c) */
int cmd_trace(int argc, char **argv);      /* `gpucap trace stats|gen` (cmd_trace.c) */
int cmd_trace_gen(int argc, char **argv);  /* `gpucap trace gen` (cmd_trace_gen.c) */
int cmd_sweep(int argc, char **argv);      /* `gpucap sweep` (cmd_sweep.c) */
int cmd_merge(int argc, char **argv);      /* `gpucap merge` (cmd_merge.c) */
int cmd_compare(int argc, char **argv);    /* `gpucap compare` (cmd_compare.c) */
int cmd_recommend(int argc, char **argv);  /* `gpucap recommend` (cmd_recommend.c) */
int cmd_report(int argc, char **argv);     /* `gpucap report` (cmd_report.c) */
int cmd_export(int argc, char **argv);     /* `gpucap export` (cmd_export.c) */
int cmd_calibrate(int argc, char **argv);  /* `gpucap calibrate` (cmd_calibrate.c) */

/* `gpucap trace stats` of CloudWatch metrics JSON (cmd_trace_cw.c): every result of the file at path, as
 * text or (json) one JSON object. Returns the exit code. */
int cmd_trace_cloudwatch(const char *path, bool json);

/* Print s to stdout as a JSON string, quoted and escaped; NULL as null (cmd.c). */
void cmd_json_string(const char *s);

/* The exit code for a status (status.h): 0, 2 for the user's mistakes, 1 otherwise (cmd.c). */
int cmd_exit_code(int status);

struct scenario;

/* Print each of the scenario's warnings to stderr as "gpucap: warning: ..." (cmd.c). */
void cmd_print_warnings(const struct scenario *sc);

/* `--seed N` as the override "seed=N" in buf (cmd.c): N an integer from 0 to INT64_MAX. Returns 0, or -1
 * after saying on stderr what `cmd` (e.g. "run") expected. */
int cmd_seed_set(const char *cmd, const char *arg, char *buf, size_t size);

#endif
