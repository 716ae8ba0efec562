/*
 * check_tracefile: request traces in CSV files (models/formats/tracefile.h) and their replay as an arrival source
 * (models/traffic/arrivals_trace.c).
 *
 * The two Azure LLM traces shipped in scenarios/traces/ are read whole and compared with what a plain
 * fgets()/sscanf() pass over the same file finds: the number of data rows, the first and last timestamps
 * (both files are from 2023-11-16, whose midnight is unix 1700092800; their 7 fractional digits are
 * rounded to the microsecond here by (f + 5) / 10), and the token totals and maxima. Every file in
 * tests/data/traces/bad/ is listed in bad[] with the message it must give; the over-long line and the
 * 2,000,000-row file are generated into temporary files. Times are exact integers and compared exactly.
 */
#include <check.h>
#include <dirent.h>
#include <regex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arrivals.h"
#include "scenario.h"
#include "status.h"
#include "testutil.h"
#include "tracefile.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must name tests/data (the CMake build defines it)"
#endif

#define BAD TEST_DATA_DIR "/traces/bad/"
#define TRACES TEST_DATA_DIR "/../../scenarios/traces/"
#define US INT64_C(1000000)
#define NOV16 (INT64_C(1700092800) * US)  /* 2023-11-16T00:00:00Z */

static const char *const azure[] = {
	TRACES "AzureLLMInferenceTrace_code.csv",
	TRACES "AzureLLMInferenceTrace_conv.csv",
};

/* What an independent pass over an Azure file finds. */
struct expect {
	int64_t rows, first_us, last_us;
	double in_sum, out_sum;
	int in_max, out_max;
};

/* One Azure data line parsed with sscanf; the date must be 2023-11-16. */
static int64_t azure_line(const char *line, int *in, int *out)
{
	int y, mo, d, h, mi, s, n = 0;
	char frac[8];

	ck_assert_int_eq(sscanf(line, "%4d-%2d-%2d %2d:%2d:%2d.%7[0-9],%d,%d%n", &y, &mo, &d, &h, &mi, &s, frac,
				in, out, &n), 9);
	ck_assert_msg(y == 2023 && mo == 11 && d == 16, "unexpected date in '%s'", line);
	ck_assert_int_eq(strlen(frac), 7);
	return NOV16 + ((int64_t)h * 3600 + mi * 60 + s) * US + (atoll(frac) + 5) / 10;
}

static struct expect count_azure(const char *path)
{
	struct expect e = { 0 };
	char line[256];
	int64_t lines = 0, t;
	FILE *f = fopen(path, "r");
	int in, out;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f)) {
		ck_assert_msg(strchr(line, '\n') || feof(f), "line %lld too long for the test", (long long)lines);
		if (lines++ == 0)
			continue;  /* the header */
		t = azure_line(line, &in, &out);
		if (e.rows++ == 0)
			e.first_us = t;
		e.last_us = t;
		e.in_sum += in;
		e.out_sum += out;
		e.in_max = in > e.in_max ? in : e.in_max;
		e.out_max = out > e.out_max ? out : e.out_max;
	}
	fclose(f);
	return e;
}

static struct trace_mapping azure_mapping(void)
{
	struct trace_mapping m;

	tracefile_azure_mapping(&m);
	return m;
}

/* time_s (seconds), input_tokens, output_tokens, service_s: the columns `gpucap trace gen` writes. */
static struct trace_mapping generic_mapping(void)
{
	struct trace_mapping m = { .time_column = "time_s", .time_format = TRACE_TIME_SECONDS,
				   .input_tokens_column = "input_tokens", .output_tokens_column = "output_tokens",
				   .service_column = "service_s" };
	return m;
}

/* The Mooncake traces' layout, as the loader's `format: mooncake` sets it. */
static struct trace_mapping mooncake_mapping(void)
{
	struct trace_mapping m = { .format = TRACE_FORMAT_JSONL, .time_column = "timestamp",
				   .time_format = TRACE_TIME_MILLISECONDS, .input_tokens_column = "input_length",
				   .output_tokens_column = "output_length", .hash_column = "hash_ids",
				   .block_tokens = 512 };
	return m;
}

/* A fresh file holding text; test_remove_file() removes it and its folder. */
static char *write_file(const char *name, const char *text)
{
	char *path = test_write_file(name, text);

	ck_assert_ptr_nonnull(path);
	return path;
}


/* Open and read to the end; the records go to recs (up to n) and the count to *rows. Returns the status. */
static int read_all(const char *path, const char *label, const struct trace_mapping *m, struct trace_record *recs,
		    int n, int64_t *rows, struct diag *d)
{
	struct tracefile *t;
	struct trace_record r;
	int rc;

	*rows = 0;
	if ((rc = tracefile_open(&t, path, label, m, d)))
		return rc;
	while ((rc = tracefile_next(t, &r, d)) == STATUS_OK) {
		if (*rows < n)
			recs[*rows] = r;
		(*rows)++;
	}
	tracefile_close(t);
	return rc == STATUS_DONE ? STATUS_OK : rc;
}

/* ---- the Azure traces ----------------------------------------------------------------------------- */

START_TEST(azure_files_match_an_independent_count)
{
	struct trace_mapping m = azure_mapping();
	struct expect e = count_azure(azure[_i]);
	struct trace_summary s;
	struct trace_record r, first = { 0 }, last = { 0 };
	struct tracefile *t;
	struct diag d = { "" };
	int64_t rows = 0;
	int rc;

	ck_assert_int_eq(e.rows, _i == 0 ? 8819 : 19366);  /* SOURCES.md */
	ck_assert_int_eq(tracefile_open(&t, azure[_i], NULL, &m, &d), STATUS_OK);
	while ((rc = tracefile_next(t, &r, &d)) == STATUS_OK) {
		if (rows++ == 0)
			first = r;
		last = r;
		ck_assert(r.in_tokens >= 0 && r.out_tokens >= 0 && isnan(r.service_s));
	}
	ck_assert_msg(rc == STATUS_DONE, "rc %d: %s", rc, d.msg);
	ck_assert_int_eq(tracefile_next(t, &r, &d), STATUS_DONE);  /* and stays done */
	tracefile_close(t);
	ck_assert_int_eq(rows, e.rows);
	ck_assert_int_eq(first.t_us, e.first_us);
	ck_assert_int_eq(last.t_us, e.last_us);
	ck_assert_int_eq(first.line, 2);
	ck_assert_int_eq(last.line, e.rows + 1);

	ck_assert_int_eq(tracefile_scan(azure[_i], NULL, &m, &s, &d), STATUS_OK);
	ck_assert_int_eq(s.rows, e.rows);
	ck_assert_int_eq(s.first_us, e.first_us);
	ck_assert_int_eq(s.last_us, e.last_us);
	ck_assert(s.has_tokens);
	ck_assert_double_eq(s.in_sum, e.in_sum);
	ck_assert_double_eq(s.out_sum, e.out_sum);
	ck_assert_int_eq(s.in_max, e.in_max);
	ck_assert_int_eq(s.out_max, e.out_max);
	ck_assert_int_eq(s.in_max, _i == 0 ? 7437 : 14050);
	ck_assert_int_eq(s.out_max, _i == 0 ? 1899 : 1000);
}
END_TEST

START_TEST(rewind_starts_again_at_the_first_row)
{
	struct trace_mapping m = azure_mapping();
	struct trace_record a, r;
	struct tracefile *t;
	struct diag d = { "" };
	int64_t rows = 0;

	ck_assert_int_eq(tracefile_open(&t, azure[0], NULL, &m, &d), STATUS_OK);
	ck_assert_int_eq(tracefile_next(t, &a, &d), STATUS_OK);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(tracefile_next(t, &r, &d), STATUS_OK);
	ck_assert_int_eq(tracefile_rewind(t, &d), STATUS_OK);
	while (tracefile_next(t, &r, &d) == STATUS_OK)
		if (rows++ == 0)
			ck_assert(r.t_us == a.t_us && r.line == 2 && r.in_tokens == a.in_tokens);
	ck_assert_int_eq(rows, 8819);
	ck_assert_int_eq(tracefile_rewind(t, &d), STATUS_OK);  /* after the end, too */
	ck_assert_int_eq(tracefile_next(t, &r, &d), STATUS_OK);
	ck_assert_int_eq(r.t_us, a.t_us);
	tracefile_close(t);
	tracefile_close(NULL);
}
END_TEST

/* ---- time formats and mappings ------------------------------------------------------------------- */

START_TEST(iso_times_in_every_form)
{
	struct trace_mapping m = { .time_column = "t", .time_format = TRACE_TIME_ISO };
	static const int64_t want[] = { 0, 0, 0, 1, 1, 500000, 979960, US, US, US };
	struct trace_record r[10];
	struct diag d = { "" };
	int64_t rows;
	char *path = write_file("iso.csv", "t\n2023-11-16T00:00:00Z\n2023-11-16T00:00:00+00:00\n"
				"2023-11-16 00:00:00\n2023-11-16 00:00:00.0000005\n2023-11-16T00:00:00.0000014Z\n"
				"2023-11-16T00:00:00.5\n2023-11-16 00:00:00.9799600\n2023-11-16 00:00:00.9999995\n"
				"2023-11-16T00:00:01.000000000001\n2023-11-16 00:00:01Z\n");

	ck_assert_msg(read_all(path, NULL, &m, r, 10, &rows, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(rows, 10);
	for (int i = 0; i < 10; i++) {
		ck_assert_msg(r[i].t_us == NOV16 + want[i], "row %d: %lld", i, (long long)(r[i].t_us - NOV16));
		ck_assert(r[i].in_tokens == -1 && r[i].out_tokens == -1 && isnan(r[i].service_s));
	}
	test_remove_file(path);
}
END_TEST

START_TEST(bad_iso_times_are_rejected)
{
	static const char *const bad[] = {
		"2023-11-16T00:00:00 +01:00", "2023-11-16", "2023-02-30 00:00:00", "1969-12-31 23:59:59",
		"2023-11-16 00:00:00.", "2023-11-16X00:00:00", "2023-11-16 24:00:00", "1700092800",
	};
	struct trace_mapping m = { .time_column = "t", .time_format = TRACE_TIME_ISO };
	struct trace_record r;
	struct diag d = { "" };
	int64_t rows;
	char text[128], want[128];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *path;

		snprintf(text, sizeof text, "t\n%s\n", bad[i]);
		snprintf(want, sizeof want, "x.csv:2: bad timestamp '%s' in column 't'; expected an ISO-8601", bad[i]);
		path = write_file("x.csv", text);
		ck_assert_int_eq(read_all(path, "x.csv", &m, &r, 1, &rows, &d), STATUS_EINPUT);
		ck_assert_msg(strstr(d.msg, want) == d.msg, "%s: got \"%s\"", bad[i], d.msg);
		test_remove_file(path);
	}
}
END_TEST

START_TEST(epoch_and_relative_times)
{
	static const struct {
		enum trace_time_format format;
		const char *text;
		int64_t want[3];
	} cases[] = {
		{ TRACE_TIME_EPOCH_S, "t\n1700092800\n1700092800.0000005\n1700092800.5\n", { NOV16, NOV16 + 1,
		  NOV16 + 500000 } },
		{ TRACE_TIME_EPOCH_MS, "t\n1700092800000\n1700092800000.5\n1700092800001\n", { NOV16, NOV16 + 500,
		  NOV16 + 1000 } },
		{ TRACE_TIME_SECONDS, "t\n0\n1.25\n60.\n", { 0, 1250000, 60 * US } },
		{ TRACE_TIME_SECONDS, "t\n5.5\n5.5\n7\n", { 5500000, 5500000, 7 * US } },  /* any origin, ties */
	};
	struct trace_record r[3];
	struct diag d = { "" };
	int64_t rows;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct trace_mapping m = { .time_column = "t", .time_format = cases[i].format };
		char *path = write_file("t.csv", cases[i].text);

		ck_assert_msg(read_all(path, NULL, &m, r, 3, &rows, &d) == STATUS_OK, "case %zu: %s", i, d.msg);
		ck_assert_int_eq(rows, 3);
		for (int k = 0; k < 3; k++)
			ck_assert_msg(r[k].t_us == cases[i].want[k], "case %zu row %d: %lld", i, k,
				      (long long)r[k].t_us);
		test_remove_file(path);
	}
}
END_TEST

/* Columns in another order, an extra column, a BOM, quotes, spaces, CRLF and a blank line. */
START_TEST(generic_mapping_with_service_times)
{
	struct trace_mapping m = generic_mapping();
	struct trace_record r[3];
	struct diag d = { "" };
	int64_t rows;
	char *path = write_file("gen.csv", "\xEF\xBB\xBF" "service_s,note,\"time_s\", output_tokens ,input_tokens\r\n"
				"0.25,first,0,10,100\r\n\r\n1e-1,\"a, b\",1.5,0,7\r\n3,,2.000001,10000000,0");

	m.output_tokens_column[0] = '\0';  /* not mapped: -1 */
	ck_assert_msg(read_all(path, NULL, &m, r, 3, &rows, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(rows, 3);
	ck_assert(r[0].t_us == 0 && r[0].in_tokens == 100 && r[0].out_tokens == -1 && r[0].line == 2);
	ck_assert_double_eq_tol(r[0].service_s, 0.25, 1e-15);
	ck_assert(r[1].t_us == 1500000 && r[1].in_tokens == 7 && r[1].line == 4);
	ck_assert_double_eq_tol(r[1].service_s, 0.1, 1e-15);
	ck_assert(r[2].t_us == 2000001 && r[2].in_tokens == 0 && r[2].line == 5);
	ck_assert_double_eq_tol(r[2].service_s, 3.0, 1e-15);

	m = generic_mapping();  /* now the output column too: 10,000,000 is the largest accepted */
	ck_assert_msg(read_all(path, NULL, &m, r, 3, &rows, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(r[2].out_tokens, 10000000);
	test_remove_file(path);
}
END_TEST

START_TEST(missing_file_is_enoent)
{
	struct trace_mapping m = azure_mapping();
	struct tracefile *t = NULL;
	struct diag d = { "" };

	ck_assert_int_eq(tracefile_open(&t, BAD "no-such-file.csv", "nope.csv", &m, &d), STATUS_ENOENT);
	ck_assert_ptr_null(t);
	ck_assert_str_eq(d.msg, "nope.csv: cannot open: No such file or directory; expected a readable trace file");
}
END_TEST

/* ---- the bad files ------------------------------------------------------------------------------- */

enum { AZURE, GENERIC, MOONCAKE };  /* the mapping a bad file is read with */

static const struct {
	const char *file;   /* under tests/data/traces/bad/ */
	int mapping;        /* AZURE, GENERIC (generic_mapping()) or MOONCAKE (mooncake_mapping()) */
	const char *msg;    /* the start of the message */
} bad[] = {
	{ "bad-timestamp.csv", false, "bad-timestamp.csv:3: bad timestamp '2023-11-16 25:00:00.0000000' in column "
	  "'TIMESTAMP'; expected an ISO-8601 UTC time" },
	{ "bad-offset.csv", false, "bad-offset.csv:3: bad time offset '+25:00' in '2023-11-16 18:17:04.0000000+25:00' "
	  "in column 'TIMESTAMP'; expected +HH:MM or -HH:MM (also +HHMM, +HH) up to 18:00, or Z" },
	{ "missing-column.csv", false, "missing-column.csv:1: no column 'GeneratedTokens' in the header (TIMESTAMP, "
	  "ContextTokens, OutputTokens); expected the output-token column named in the mapping" },
	{ "negative-tokens.csv", false, "negative-tokens.csv:4: negative token count '-5' in column 'ContextTokens'; "
	  "expected a whole number of tokens from 0 to 10000000" },
	{ "non-integer-tokens.csv", false, "non-integer-tokens.csv:2: bad token count '12.5' in column "
	  "'ContextTokens'; expected a whole number of tokens from 0 to 10000000" },
	{ "too-many-tokens.csv", false, "too-many-tokens.csv:2: bad token count '10000001' in column" },
	{ "empty.csv", false, "empty.csv:1: empty file; expected a header line and rows" },
	{ "header-only.csv", false, "header-only.csv:1: no rows after the header; expected at least one row" },
	{ "binary.csv", false, "binary.csv:1: a NUL byte or bytes that are not UTF-8; expected a text CSV file" },
	{ "binary-middle.csv", false, "binary-middle.csv:5: a NUL byte or bytes that are not UTF-8" },
	{ "truncated-utf8.csv", false, "truncated-utf8.csv:3: a NUL byte or bytes that are not UTF-8" },
	{ "out-of-order.csv", false, "out-of-order.csv:4: timestamp earlier than the previous row's (line 3); "
	  "expected rows in time order" },
	{ "empty-fields.csv", false, "empty-fields.csv:3: bad timestamp '' in column 'TIMESTAMP'" },
	{ "too-few-fields.csv", false, "too-few-fields.csv:3: 2 fields; expected 3, as in the header" },
	{ "too-many-fields.csv", false, "too-many-fields.csv:2: 4 fields; expected 3, as in the header" },
	{ "bad-quote.csv", false, "bad-quote.csv:3: malformed quoting (libcsv: " },
	{ "unterminated-quote.csv", false, "unterminated-quote.csv:3: malformed quoting (libcsv: " },
	{ "negative-timestamp.csv", true, "negative-timestamp.csv:3: negative timestamp '-1.5' in column 'time_s'; "
	  "expected seconds from the start of the trace" },
	{ "bad-seconds.csv", true, "bad-seconds.csv:3: bad timestamp '1e3' in column 'time_s'" },
	{ "bad-service.csv", true, "bad-service.csv:3: bad service time 'abc' in column 'service_s'; expected "
	  "seconds, a decimal number >= 0" },
	{ "negative-service.csv", true, "negative-service.csv:3: negative service time '-0.25' in column "
	  "'service_s'" },
	/* JSON lines, read as the Mooncake traces are */
	{ "jsonl-array.jsonl", MOONCAKE, "jsonl-array.jsonl:2: a JSON array, not an object; expected one JSON "
	  "object per line" },
	{ "jsonl-scalar.jsonl", MOONCAKE, "jsonl-scalar.jsonl:3: a JSON scalar, not an object; expected one JSON "
	  "object per line" },
	{ "jsonl-two-objects.jsonl", MOONCAKE, "jsonl-two-objects.jsonl:2: a second JSON object on the line; "
	  "expected one JSON object per line" },
	{ "jsonl-split-object.jsonl", MOONCAKE, "jsonl-split-object.jsonl:2: the line ends inside a JSON object; "
	  "expected one complete JSON object per line" },
	{ "jsonl-truncated.jsonl", MOONCAKE, "jsonl-truncated.jsonl:2: " },
	{ "jsonl-bad-syntax.jsonl", MOONCAKE, "jsonl-bad-syntax.jsonl:2: not valid JSON (yajl: " },
	{ "jsonl-missing-key.jsonl", MOONCAKE, "jsonl-missing-key.jsonl:2: no key 'output_length' in the object; "
	  "expected the output-token key named in the mapping" },
	{ "jsonl-string-tokens.jsonl", MOONCAKE, "jsonl-string-tokens.jsonl:1: key 'input_length' is a string; "
	  "expected a number" },
	{ "jsonl-string-time.jsonl", MOONCAKE, "jsonl-string-time.jsonl:1: key 'timestamp' is a string; expected "
	  "a number" },
	{ "jsonl-fractional-tokens.jsonl", MOONCAKE, "jsonl-fractional-tokens.jsonl:2: bad token count '63.5' in "
	  "key 'input_length'; expected a whole number of tokens" },
	{ "jsonl-negative-tokens.jsonl", MOONCAKE, "jsonl-negative-tokens.jsonl:1: negative token count '-3' in "
	  "key 'output_length'; expected a whole number of tokens" },
	{ "jsonl-out-of-order.jsonl", MOONCAKE, "jsonl-out-of-order.jsonl:3: timestamp earlier than the previous "
	  "row's (line 2); expected rows in time order" },
	{ "jsonl-bad-hash.jsonl", MOONCAKE, "jsonl-bad-hash.jsonl:1: bad hash id '2.5' in key 'hash_ids'; "
	  "expected a whole number from 0 to 9223372036854775807" },
	{ "jsonl-hash-not-array.jsonl", MOONCAKE, "jsonl-hash-not-array.jsonl:1: key 'hash_ids' is a number; "
	  "expected an array of whole numbers (prefix block ids)" },
	{ "jsonl-empty.jsonl", MOONCAKE, "jsonl-empty.jsonl:1: no objects in the file; expected one JSON object "
	  "per line" },
};

#define NBAD ((int)(sizeof bad / sizeof bad[0]))

START_TEST(bad_file_fails_with_its_message)
{
	struct trace_mapping m = bad[_i].mapping == MOONCAKE ? mooncake_mapping() :
				 bad[_i].mapping == GENERIC ? generic_mapping() : azure_mapping();
	regex_t form;
	struct trace_summary s = { .rows = -7 };
	struct trace_record r;
	struct diag d = { "" }, d2 = { "" };
	char path[512];
	int64_t rows;

	snprintf(path, sizeof path, BAD "%s", bad[_i].file);
	ck_assert_int_eq(read_all(path, bad[_i].file, &m, &r, 1, &rows, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, bad[_i].msg) == d.msg, "%s: got \"%s\"", bad[_i].file, d.msg);
	/* every message has the form FILE:LINE: what; expected what */
	ck_assert_int_eq(regcomp(&form, "^[^:]+:[1-9][0-9]*: .+; expected .+", REG_EXTENDED | REG_NOSUB), 0);
	ck_assert_msg(regexec(&form, d.msg, 0, NULL, 0) == 0, "not FILE:LINE: what; expected what: \"%s\"", d.msg);
	regfree(&form);
	ck_assert_int_eq(tracefile_scan(path, bad[_i].file, &m, &s, &d2), STATUS_EINPUT);
	ck_assert_str_eq(d2.msg, d.msg);
	ck_assert_int_eq(s.rows, -7);  /* a failed scan leaves the summary as it was */
}
END_TEST

/* Every file in bad/ is in the table, so none is left untested. */
START_TEST(every_bad_file_is_listed)
{
	DIR *dir = opendir(BAD);
	struct dirent *e;

	ck_assert_ptr_nonnull(dir);
	while ((e = readdir(dir))) {
		bool found = e->d_name[0] == '.';

		for (int i = 0; i < NBAD; i++)
			found |= strcmp(bad[i].file, e->d_name) == 0;
		ck_assert_msg(found, "%s is not in bad[]", e->d_name);
	}
	closedir(dir);
}
END_TEST

/* A 1 MB line (generated: too big to commit) stops the reader at its line, with bounded memory. */
START_TEST(long_line_is_rejected)
{
	struct trace_mapping m = azure_mapping();
	struct trace_record r;
	struct diag d = { "" };
	char *path = write_file("long.csv", "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 00:00:00,1,1\n");
	FILE *f = fopen(path, "a");
	int64_t rows;

	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < 1024 * 1024; i++)
		putc(i % 64 ? 'x' : ',', f);
	fputs("\n2023-11-16 00:00:01,1,1\n", f);
	fclose(f);
	ck_assert_int_eq(read_all(path, "long.csv", &m, &r, 1, &rows, &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "long.csv:3: line longer than 65536 bytes; expected a CSV trace");
	ck_assert_int_eq(rows, 1);
	test_remove_file(path);
}
END_TEST

/* 2,000,000 Azure-style rows (about 80 MB): read to the end in one pass; prints the speed. */
START_TEST(streams_two_million_rows)
{
	enum { ROWS = 2000000 };
	struct trace_mapping m = azure_mapping();
	struct trace_summary s;
	struct diag d = { "" };
	struct timespec t0, t1;
	char *path = write_file("big.csv", "TIMESTAMP,ContextTokens,GeneratedTokens\r\n");
	FILE *f = fopen(path, "a");
	double secs;

	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < ROWS; i++) {  /* one row per millisecond from 18:00 */
		int64_t ms = i;
		fprintf(f, "2023-11-16 %02d:%02d:%02d.%03d0000,%d,%d\r\n", 18 + (int)(ms / 3600000),
			(int)(ms / 60000 % 60), (int)(ms / 1000 % 60), (int)(ms % 1000), 1 + i % 8000, 1 + i % 900);
	}
	fclose(f);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_msg(tracefile_scan(path, NULL, &m, &s, &d) == STATUS_OK, "%s", d.msg);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	fprintf(stderr, "streams_two_million_rows: %d rows in %.3f s (%.0f rows/s)\n", ROWS, secs, ROWS / secs);
	ck_assert_int_eq(s.rows, ROWS);
	ck_assert_int_eq(s.last_us - s.first_us, (int64_t)(ROWS - 1) * 1000);
	test_remove_file(path);
}
END_TEST

/* ---- the arrival source ------------------------------------------------------------------------- */

static struct scenario *trace_scenario(const char *path, struct trace_mapping m)
{
	struct scenario *sc = calloc(1, sizeof *sc);

	ck_assert_ptr_nonnull(sc);
	sc->arrivals.kind = ARRIVAL_TRACE;
	snprintf(sc->arrivals.path, sizeof sc->arrivals.path, "%s", path);
	sc->arrivals.mapping = m;
	return sc;
}

START_TEST(source_replays_from_zero_and_rewinds)
{
	struct scenario *sc = trace_scenario(azure[0], azure_mapping());
	struct arrival_source *src = NULL;
	struct arrival a;
	struct diag d = { "" };
	int64_t n = 0, prev = 0;
	int rc;

	ck_assert_int_eq(arrivals_trace_new(&src, sc, &d), STATUS_OK);
	ck_assert_int_eq(src->ops->next(src, &a, &d), STATUS_OK);
	ck_assert(a.t_us == 0 && a.in_tokens == 4808 && a.out_tokens == 10 && isnan(a.service_s));
	ck_assert_int_eq(src->ops->next(src, &a, &d), STATUS_OK);
	ck_assert(a.t_us == 52000 && a.in_tokens == 3180 && a.out_tokens == 8);  /* 18:17:04.03196 - 03.97996 */
	ck_assert_ptr_nonnull(src->ops->rewind);
	ck_assert_int_eq(src->ops->rewind(src, &d), STATUS_OK);
	while ((rc = src->ops->next(src, &a, &d)) == STATUS_OK) {
		ck_assert(n > 0 || a.t_us == 0);
		ck_assert(a.t_us >= prev);
		prev = a.t_us;
		n++;
	}
	ck_assert_int_eq(rc, STATUS_DONE);
	ck_assert_int_eq(n, 8819);
	ck_assert_int_eq(prev, count_azure(azure[0]).last_us - count_azure(azure[0]).first_us);
	arrivals_free(src);
	arrivals_free(NULL);
	free(sc);
}
END_TEST

START_TEST(source_passes_errors_through)
{
	struct scenario *sc = trace_scenario(BAD "out-of-order.csv", azure_mapping());
	struct arrival_source *src = NULL;
	struct arrival a;
	struct diag d = { "" };

	ck_assert_int_eq(arrivals_trace_new(&src, sc, &d), STATUS_OK);
	ck_assert_int_eq(src->ops->next(src, &a, &d), STATUS_OK);
	ck_assert_int_eq(src->ops->next(src, &a, &d), STATUS_OK);
	ck_assert_int_eq(src->ops->next(src, &a, &d), STATUS_EINPUT);
	ck_assert_msg(strstr(d.msg, "out-of-order.csv:4: timestamp earlier than the previous row's (line 3)"),
		      "%s", d.msg);
	ck_assert_int_eq(src->ops->next(src, &a, &d), STATUS_EINPUT);  /* the reader stays stopped */
	arrivals_free(src);

	snprintf(sc->arrivals.path, sizeof sc->arrivals.path, BAD "header-only.csv");
	src = NULL;
	ck_assert_int_eq(arrivals_trace_new(&src, sc, &d), STATUS_EINPUT);
	ck_assert_ptr_null(src);
	ck_assert_str_eq(d.msg, BAD "header-only.csv:1: no rows after the header; expected at least one row, one "
			 "request per line");
	free(sc);
}
END_TEST

/* ---- JSON lines, integral floats, the row filter, hash ids ------------------------------------------ */

/*
 * A JSON-lines trace with its own key names: keys in any order, keys the mapping does not name (nested
 * objects and arrays too) skipped, blank lines skipped, a byte-order mark ignored, times in seconds, token
 * counts written 63, 63.0 and 6.3e1, a row without hash ids (an empty array).
 */
START_TEST(jsonl_rows_with_their_own_keys)
{
	struct trace_mapping m = { .format = TRACE_FORMAT_JSONL, .time_column = "t",
				   .time_format = TRACE_TIME_SECONDS, .input_tokens_column = "in",
				   .output_tokens_column = "out", .service_column = "svc", .hash_column = "h" };
	char *path = write_file("a.jsonl", "\xEF\xBB\xBF{\"t\": 0.5, \"in\": 63, \"out\": 7, \"svc\": 1.25, "
				"\"h\": [3, 1, 4]}\n"
				"\n"
				"  {\"meta\": {\"in\": 99, \"t\": [1]}, \"h\": [], \"out\": 8.0, \"in\": 63.0, "
				"\"svc\": 0, \"t\": 2, \"x\": [[1], {\"h\": 2}]}\n"
				"{\"t\": 2.000001, \"in\": 6.3e1, \"out\": 9, \"svc\": 2.5e-1, \"h\": [18446744]}");
	struct trace_record r[3];
	struct diag d = { "" };
	int64_t rows;

	ck_assert_msg(read_all(path, "a.jsonl", &m, r, 3, &rows, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(rows, 3);
	ck_assert(r[0].t_us == 500000 && r[0].line == 1 && r[0].in_tokens == 63 && r[0].out_tokens == 7);
	ck_assert_double_eq_tol(r[0].service_s, 1.25, 1e-12);
	ck_assert(r[1].t_us == 2 * US && r[1].line == 3 && r[1].in_tokens == 63 && r[1].out_tokens == 8);
	ck_assert(r[1].nhashes == 0 && r[1].service_s == 0);
	ck_assert(r[2].t_us == 2 * US + 1 && r[2].line == 4 && r[2].in_tokens == 63 && r[2].out_tokens == 9);
	ck_assert_double_eq_tol(r[2].service_s, 0.25, 1e-12);
	test_remove_file(path);
}
END_TEST

/*
 * The hash ids of a row stay readable while the next row is read (the reader alternates two buffers), so a
 * one-row look-ahead (arrivals_transform.c) keeps them; a filtered row in between does not disturb them.
 */
START_TEST(jsonl_hash_ids_survive_one_row_of_look_ahead)
{
	struct trace_mapping m = { .format = TRACE_FORMAT_JSONL, .time_column = "t",
				   .time_format = TRACE_TIME_SECONDS, .hash_column = "h", .nwhere = 1,
				   .where = { { .column = "ok", .nvalues = 1, .values = { "true" } } } };
	char *path = write_file("h.jsonl", "{\"t\": 0, \"ok\": true, \"h\": [3, 1, 4]}\n"
				"{\"t\": 1, \"ok\": false, \"h\": [8, 8, 8, 8, 8]}\n"
				"{\"t\": 2, \"ok\": true, \"h\": [5, 9]}\n"
				"{\"t\": 3, \"ok\": true, \"h\": [2, 6, 5, 3]}\n");
	struct tracefile *t;
	struct trace_record a, b, c;
	struct diag d = { "" };

	ck_assert_int_eq(tracefile_open(&t, path, NULL, &m, &d), STATUS_OK);
	ck_assert_int_eq(tracefile_next(t, &a, &d), STATUS_OK);
	ck_assert_int_eq(tracefile_next(t, &b, &d), STATUS_OK);  /* skips the filtered row at t = 1 */
	ck_assert(a.nhashes == 3 && a.hashes[0] == 3 && a.hashes[1] == 1 && a.hashes[2] == 4);
	ck_assert(b.t_us == 2 * US && b.nhashes == 2 && b.hashes[0] == 5 && b.hashes[1] == 9);
	ck_assert_int_eq(tracefile_next(t, &c, &d), STATUS_OK);
	ck_assert(b.nhashes == 2 && b.hashes[0] == 5 && b.hashes[1] == 9);
	ck_assert(c.nhashes == 4 && c.hashes[0] == 2 && c.hashes[3] == 3);
	ck_assert_int_eq(tracefile_filtered(t), 1);
	ck_assert_int_eq(tracefile_next(t, &c, &d), STATUS_DONE);
	tracefile_close(t);
	test_remove_file(path);
}
END_TEST

/* 16,384 hash ids in a row are accepted, 16,385 refused (generated: long lines). */
START_TEST(jsonl_hash_ids_have_a_limit)
{
	struct trace_mapping m = mooncake_mapping();
	struct trace_record r;
	struct diag d = { "" };
	int64_t rows;

	for (int n = TRACEFILE_HASHES_MAX; n <= TRACEFILE_HASHES_MAX + 1; n++) {
		char *path = write_file("many.jsonl", "");
		FILE *f = fopen(path, "a");

		ck_assert_ptr_nonnull(f);
		fputs("{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1, \"hash_ids\": [0", f);
		for (int i = 1; i < n; i++)
			fprintf(f, ", %d", i);
		fputs("]}\n", f);
		fclose(f);
		if (n == TRACEFILE_HASHES_MAX) {
			ck_assert_msg(read_all(path, "many.jsonl", &m, &r, 1, &rows, &d) == STATUS_OK, "%s", d.msg);
			ck_assert(rows == 1 && r.nhashes == n);
		} else {
			ck_assert_int_eq(read_all(path, "many.jsonl", &m, &r, 1, &rows, &d), STATUS_EINPUT);
			ck_assert_str_eq(d.msg, "many.jsonl:1: more than 16384 hash ids in key 'hash_ids'; expected at "
					 "most 16384 prefix blocks per request");
		}
		test_remove_file(path);
	}
}
END_TEST

/*
 * Token counts written as integral decimals are whole numbers, judged on the digits (no rounding through
 * binary floating point): 63.0, 63., 6.3e1, 630e-1, 0.0063e4 and 6300E-2 are all 63; 1e2 is 100; 0.0 is 0.
 * 63.5, 6.35e1 and 1e-1 are not whole and are refused, as is 1.00000001e7 (10000000.1) and 1.0000001e7
 * (10000001, above the limit).
 */
START_TEST(integral_floats_are_whole_token_counts)
{
	static const char *const whole[] = { "63", "63.0", "63.", "6.3e1", "630e-1", "0.0063e4", "6300E-2" };
	static const char *const not_whole[] = { "63.5", "6.35e1", "1e-1", "1.00000001e7", "1.0000001e7", ".5",
		"e1", "6e", "0x3f", "63.0.0" };
	struct trace_mapping m = generic_mapping();
	struct trace_record r[3];
	struct diag d = { "" };
	int64_t rows;
	char text[128];

	for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
		char *path;

		snprintf(text, sizeof text, "time_s,input_tokens,output_tokens,service_s\n0,%s,1e2,1\n1,0.0,0,1\n",
			 whole[i]);
		path = write_file("w.csv", text);
		ck_assert_msg(read_all(path, "w.csv", &m, r, 3, &rows, &d) == STATUS_OK, "%s: %s", whole[i], d.msg);
		ck_assert_int_eq(r[0].in_tokens, 63);
		ck_assert_int_eq(r[0].out_tokens, 100);
		ck_assert_int_eq(r[1].in_tokens, 0);
		test_remove_file(path);
	}
	for (size_t i = 0; i < sizeof not_whole / sizeof not_whole[0]; i++) {
		char *path, want[160];

		snprintf(text, sizeof text, "time_s,input_tokens,output_tokens,service_s\n0,1,1,1\n1,%s,1,1\n",
			 not_whole[i]);
		path = write_file("n.csv", text);
		ck_assert_int_eq(read_all(path, "n.csv", &m, r, 3, &rows, &d), STATUS_EINPUT);
		snprintf(want, sizeof want, "n.csv:3: bad token count '%s' in column 'input_tokens'; expected a whole "
			 "number of tokens from 0 to 10000000 (such as 63, 63.0 or 6.3e1)", not_whole[i]);
		ck_assert_str_eq(d.msg, want);
		test_remove_file(path);
	}
}
END_TEST

/*
 * where: the rows whose status is SUCCESS or OK are kept (2 of 5); a FAILED row's empty token fields are not
 * read, and its time may be out of order, since it is not a request. The count of rows left out (3) comes
 * back from tracefile_filtered() and the scan. A filter column missing from the header fails like any
 * mapped column; a file whose rows are all left out fails.
 */
START_TEST(where_keeps_the_listed_values)
{
	struct trace_mapping m = { .time_column = "t", .time_format = TRACE_TIME_SECONDS,
				   .input_tokens_column = "prompt_length", .nwhere = 1,
				   .where = { { .column = "status", .nvalues = 2, .values = { "SUCCESS", "OK" } } } };
	char *path = write_file("f.csv", "t,prompt_length,status\n1,63.0,SUCCESS\n0.5,,FAILED\n2,7,success\n"
				"3,8,OK\n4,,FAILED\n");
	struct trace_record r[3];
	struct trace_summary s;
	struct diag d = { "" };
	int64_t rows;

	ck_assert_msg(read_all(path, "f.csv", &m, r, 3, &rows, &d) == STATUS_OK, "%s", d.msg);
	ck_assert_int_eq(rows, 2);
	ck_assert(r[0].t_us == 1 * US && r[0].in_tokens == 63 && r[0].line == 2);
	ck_assert(r[1].t_us == 3 * US && r[1].in_tokens == 8 && r[1].line == 5);
	ck_assert_int_eq(tracefile_scan(path, "f.csv", &m, &s, &d), STATUS_OK);
	ck_assert(s.rows == 2 && s.filtered == 3);
	test_remove_file(path);

	path = write_file("f.csv", "t,prompt_length,status\n1,5,FAILED\n2,5,FAILED\n");
	ck_assert_int_eq(read_all(path, "f.csv", &m, r, 3, &rows, &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "f.csv:3: all 2 rows were left out by the `where` filter; expected at least one "
			 "row that the filter keeps");
	test_remove_file(path);

	path = write_file("f.csv", "t,prompt_length\n1,5\n");
	ck_assert_int_eq(read_all(path, "f.csv", &m, r, 3, &rows, &d), STATUS_EINPUT);
	ck_assert_str_eq(d.msg, "f.csv:1: no column 'status' in the header (t, prompt_length); expected the filter "
			 "column named in the mapping (names are case-sensitive)");
	test_remove_file(path);

	/* JSON lines: a number's text as written (200, not 200.0), and two filters that must both hold */
	m.format = TRACE_FORMAT_JSONL;
	m.nwhere = 2;
	snprintf(m.where[0].column, sizeof m.where[0].column, "code");
	m.where[0].nvalues = 1;
	snprintf(m.where[0].values[0], sizeof m.where[0].values[0], "200");
	snprintf(m.where[1].column, sizeof m.where[1].column, "model");
	m.where[1].nvalues = 1;
	snprintf(m.where[1].values[0], sizeof m.where[1].values[0], "m-small");
	path = write_file("f.jsonl", "{\"t\": 1, \"prompt_length\": 4, \"code\": 200, \"model\": \"m-small\"}\n"
				 "{\"t\": 0, \"code\": 500, \"model\": \"m-small\"}\n"
				 "{\"t\": 2, \"prompt_length\": 5, \"code\": 200.0, \"model\": \"m-small\"}\n"
				 "{\"t\": 3, \"prompt_length\": 6, \"code\": 200, \"model\": \"m-large\"}\n"
				 "{\"t\": 4, \"prompt_length\": 7, \"code\": 200, \"model\": \"m-small\"}\n");
	ck_assert_msg(read_all(path, "f.jsonl", &m, r, 3, &rows, &d) == STATUS_OK, "%s", d.msg);
	ck_assert(rows == 2 && r[0].in_tokens == 4 && r[1].in_tokens == 7 && r[1].line == 5);
	ck_assert_int_eq(tracefile_scan(path, "f.jsonl", &m, &s, &d), STATUS_OK);
	ck_assert_int_eq(s.filtered, 3);
	test_remove_file(path);
}
END_TEST

/*
 * The shipped Mooncake synthetic trace with format mooncake: as many requests as lines, the first and last
 * timestamps and the total of hash ids as a plain line-by-line count finds them (commas in the hash array
 * + 1), and the arrival source hands each row's ids on.
 */
START_TEST(mooncake_trace_reads_whole)
{
	struct trace_mapping m = mooncake_mapping();
	struct tracefile *t;
	struct trace_record r;
	struct diag d = { "" };
	struct scenario *sc;
	struct arrival_source *src = NULL;
	struct arrival a;
	FILE *f = fopen(TRACES "mooncake_synthetic_trace.jsonl", "r");
	static char line[1 << 20];
	int64_t lines = 0, ids = 0, rows = 0, got_ids = 0, first_ms = -1, last_ms = 0;
	int rc;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f)) {
		char *h = strstr(line, "\"hash_ids\": [");

		ck_assert_ptr_nonnull(h);
		lines++;
		last_ms = atoll(strstr(line, "\"timestamp\": ") + 13);
		first_ms = first_ms < 0 ? last_ms : first_ms;
		if (h[13] != ']')
			for (ids++; *h && *h != ']'; h++)
				ids += *h == ',';
	}
	fclose(f);
	ck_assert_int_eq(tracefile_open(&t, TRACES "mooncake_synthetic_trace.jsonl", NULL, &m, &d), STATUS_OK);
	while ((rc = tracefile_next(t, &r, &d)) == STATUS_OK) {
		ck_assert(rows > 0 || r.t_us == first_ms * 1000);
		rows++;
		got_ids += r.nhashes;
		ck_assert(r.in_tokens > 0 && r.out_tokens > 0);
	}
	ck_assert_msg(rc == STATUS_DONE, "%s", d.msg);
	ck_assert_int_eq(r.t_us, last_ms * 1000);
	tracefile_close(t);
	ck_assert_int_eq(rows, lines);
	ck_assert_int_eq(rows, 3993);
	ck_assert_int_eq(got_ids, ids);

	sc = trace_scenario(TRACES "mooncake_synthetic_trace.jsonl", m);
	ck_assert_int_eq(arrivals_trace_new(&src, sc, &d), STATUS_OK);
	ck_assert_int_eq(src->ops->next(src, &a, &d), STATUS_OK);  /* {"timestamp": 0, ..., "hash_ids": [0 .. 78]} */
	ck_assert(a.t_us == 0 && a.in_tokens == 40160 && a.out_tokens == 6 && a.nhashes == 79);
	ck_assert(a.hashes[0] == 0 && a.hashes[78] == 78);
	arrivals_free(src);
	free(sc);
}
END_TEST

static Suite *tracefile_suite(void)
{
	Suite *s = suite_create("tracefile");
	TCase *tc = tcase_create("core");
	TCase *tb = tcase_create("bad_files");
	TCase *tl = tcase_create("large");

	tcase_add_loop_test(tc, azure_files_match_an_independent_count, 0, 2);
	tcase_add_test(tc, rewind_starts_again_at_the_first_row);
	tcase_add_test(tc, iso_times_in_every_form);
	tcase_add_test(tc, bad_iso_times_are_rejected);
	tcase_add_test(tc, epoch_and_relative_times);
	tcase_add_test(tc, generic_mapping_with_service_times);
	tcase_add_test(tc, missing_file_is_enoent);
	tcase_add_test(tc, source_replays_from_zero_and_rewinds);
	tcase_add_test(tc, source_passes_errors_through);
	tcase_add_test(tc, jsonl_rows_with_their_own_keys);
	tcase_add_test(tc, jsonl_hash_ids_survive_one_row_of_look_ahead);
	tcase_add_test(tc, jsonl_hash_ids_have_a_limit);
	tcase_add_test(tc, integral_floats_are_whole_token_counts);
	tcase_add_test(tc, where_keeps_the_listed_values);
	tcase_add_test(tc, mooncake_trace_reads_whole);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(tb, bad_file_fails_with_its_message, 0, NBAD);
	tcase_add_test(tb, every_bad_file_is_listed);
	tcase_add_test(tb, long_line_is_rejected);
	suite_add_tcase(s, tb);
	tcase_set_timeout(tl, 60);  /* generous for sanitizer builds; a plain -O2 build takes about a second */
	tcase_add_test(tl, streams_two_million_rows);
	suite_add_tcase(s, tl);
	return s;
}

int main(void)
{
	return test_run_suite(tracefile_suite());
}
