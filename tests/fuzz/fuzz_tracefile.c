/*
 * fuzz_tracefile: the request-trace reader (tracefile.c, tracefile_json.c) as the loader uses it (tracefile_scan, the whole
 * file checked once) and as the trace arrivals source streams it (tracefile_open, _next to the end,
 * _rewind, _next again), under seven mappings: the Azure one (ISO times, token columns), a column `t` in
 * each numeric time format with token and service columns, the Mooncake JSON-lines one (hash ids), a
 * JSON-lines one with a `where` filter, and a `;`-delimited CSV with ISO times (offsets such as +02:00). Checked: a refusal has a message; a file the scan accepts streams
 * without error, row for row, in time order, with the scan's counts; hash ids come with a count.
 */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "status.h"
#include "tracefile.h"

/* Stream the whole file under m; when the scan accepted it (scanned), compare with its summary. */
static void stream(const char *path, const struct trace_mapping *m, const struct trace_summary *s, int scanned)
{
	struct tracefile *t = NULL;
	struct trace_record rec, first = { 0 };
	struct diag d = { "" };
	int64_t rows = 0, prev_us = INT64_MIN;
	int rc = tracefile_open(&t, path, "trace.csv", m, &d);

	fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused trace header has a message");
	if (rc != STATUS_OK)
		return;
	while ((rc = tracefile_next(t, &rec, &d)) == STATUS_OK) {
		fuzz_check(rec.t_us >= prev_us, "rows come in time order");
		fuzz_check(rec.in_tokens >= -1 && rec.out_tokens >= -1, "token counts are -1 or more");
		fuzz_check(isnan(rec.service_s) || rec.service_s >= 0, "a service time is NaN or not negative");
		fuzz_check(rec.nhashes >= 0 && rec.nhashes <= TRACEFILE_HASHES_MAX &&
			   (rec.nhashes == 0 || rec.hashes), "hash ids come with their count");
		if (rows == 0)
			first = rec;
		prev_us = rec.t_us;
		rows++;
	}
	fuzz_check(rc == STATUS_DONE || (rc < 0 && d.msg[0]), "a failed row has a message");
	if (scanned) {
		fuzz_check(rc == STATUS_DONE, "a scanned trace streams to its end");
		fuzz_check(rows == s->rows, "streaming reads as many rows as the scan");
		fuzz_check(rows == 0 || (first.t_us == s->first_us && prev_us == s->last_us),
			   "streaming sees the scan's first and last times");
	}
	if (tracefile_rewind(t, &d) == STATUS_OK && (rc = tracefile_next(t, &rec, &d)) == STATUS_OK && rows > 0)
		fuzz_check(rec.t_us == first.t_us, "a rewound trace starts again at its first row");
	tracefile_close(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, "trace");
	static const enum trace_time_format formats[] = { TRACE_TIME_EPOCH_S, TRACE_TIME_EPOCH_MS,
							  TRACE_TIME_SECONDS };
	struct trace_mapping m;
	struct trace_summary s;
	struct diag d = { "" };
	int rc;

	fuzz_setup();
	for (int i = -1; i < 6; i++) {
		if (i < 0) {
			tracefile_azure_mapping(&m);
		} else if (i == 5) {
			memset(&m, 0, sizeof m);
			strcpy(m.time_column, "t");
			m.time_format = TRACE_TIME_ISO;
			strcpy(m.input_tokens_column, "prompt");
			m.delimiter = ';';
		} else if (i == 3) {
			tracefile_mooncake_mapping(&m);
		} else if (i == 4) {
			memset(&m, 0, sizeof m);
			m.format = TRACE_FORMAT_JSONL;
			strcpy(m.time_column, "t");
			m.time_format = TRACE_TIME_SECONDS;
			strcpy(m.input_tokens_column, "prompt");
			strcpy(m.hash_column, "h");
			m.nwhere = 1;
			strcpy(m.where[0].column, "ok");
			m.where[0].nvalues = 2;
			strcpy(m.where[0].values[0], "true");
			strcpy(m.where[0].values[1], "1");
		} else {
			memset(&m, 0, sizeof m);
			strcpy(m.time_column, "t");
			m.time_format = formats[i];
			strcpy(m.input_tokens_column, "prompt");
			strcpy(m.output_tokens_column, "completion");
			strcpy(m.service_column, "svc");
		}
		d.msg[0] = '\0';
		rc = tracefile_scan(path, "trace.csv", &m, &s, &d);
		fuzz_check(rc == STATUS_OK || (rc < 0 && d.msg[0]), "a refused trace has a message");
		fuzz_check(rc != STATUS_OK || (s.rows >= 1 && s.first_us <= s.last_us),
			   "an accepted trace has rows, first before last");
		stream(path, &m, &s, rc == STATUS_OK);
	}
	return 0;
}
