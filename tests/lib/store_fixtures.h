/*
 * store_fixtures: what the two store suites share (check_store.c, check_store_schema.c): temporary files,
 * byte-for-byte comparison of a file, a second SQLite connection to build or inspect a database behind the
 * store's back, and a fake scenario and run to write through the store's sink.
 *
 * Every helper fails the running Check test on anything unexpected, so test bodies need not check them.
 * Queries go through a new read-only connection each time, never through the store, so a test sees what
 * another program would. Paths made by tmp_path() (or testutil's test_write_file()) live in a fresh
 * directory of their own; tmp_remove() takes the path and removes the file, its journal and that directory.
 * The short names, without a module prefix, are kept because these are test fixtures read in every test body.
 *
 * Values go in and come out of the store as doubles, so TOL only allows for rounding of the text form.
 */
#ifndef GPUCAP_STORE_FIXTURES_H
#define GPUCAP_STORE_FIXTURES_H

#include <stddef.h>
#include <stdint.h>

#include "scenario.h"
#include "sink.h"
#include "store.h"

#define TOL 1e-12

/* The whole content of a file. */
struct bytes {
	unsigned char *data;  /* owned */
	size_t len;           /* bytes */
};

/* A path to a file that does not exist yet, in a fresh directory (returns owned). */
char *tmp_path(const char *name);

/* Remove the file, its journal if any, and the directory tmp_path() or test_write_file() made; takes path. */
void tmp_remove(char *path);

/* The whole content of the file at path, which must not be empty (data returns owned). */
struct bytes file_bytes(const char *path);

/* Assert that the file at path holds exactly `before`; takes before.data. */
void assert_unchanged(const char *path, struct bytes before);

/* Run sql (one or more statements) on a new connection to path, to build foreign or tampered files. */
void raw_exec(const char *path, const char *sql);

/* The first column of the first row of sql, read through a read-only connection; NaN for NULL. */
double query_double(const char *path, const char *sql);

/* As query_double, for an integer result (a count, a PRAGMA). */
int64_t query_int(const char *path, const char *sql);

/* As query_double, for a text result; returns owned ("(null)" for NULL). */
char *query_text(const char *path, const char *sql);

/* Assert that query_text(path, sql) is exactly want. */
void assert_text(const char *path, const char *sql, const char *want);

/* Fill a caller-owned scenario with just what the store records; every string is a static literal. */
void scenario_fake(struct scenario *sc, const char *name, uint64_t seed);

/* The run information run_write() passes to begin() (its scenario set per run). */
extern const struct sink_run_info run_info;

/* One sample with fixed, non-zero values at time t_s (seconds). */
void sample_fill(struct sink_sample *s, double t_s);

/*
 * Write one whole run through the sink: nsamples samples, two events, three metrics (latency_p99_s is
 * p99), then end(end_status). Every call before end() must succeed. Returns what end() returned.
 */
int run_write(struct sink sk, const struct scenario *sc, int nsamples, double p99, int end_status);

/* A new store at a fresh path with one committed run ("first"); *path returns owned, the store too. */
struct store *store_with_one_run(char **path, struct diag *d);

/* Assert the current run_summary columns: the run columns and one column per metric, by name. */
void assert_summary_columns(const char *path);

/* Open must fail with STATUS_EDB, name the file and contain `words`, and leave the file as it was. */
void assert_refused(const char *path, const char *words);

#endif
