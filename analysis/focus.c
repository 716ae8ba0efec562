/* focus: see focus.h. The mapping is the README's table ("The bill in FOCUS form"). */
#include "focus.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "status.h"
#include "store_read.h"

#define GPCP_APPLICATION_ID 0x47504350  /* a gpucap results database (schema.sql) */

const char *const focus_columns[FOCUS_NCOLUMNS] = {
	"BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency", "BillingPeriodEnd",
	"BillingPeriodStart", "CapacityReservationId", "CapacityReservationStatus", "ChargeCategory",
	"ChargeClass", "ChargeDescription", "ChargeFrequency", "ChargePeriodEnd", "ChargePeriodStart",
	"CommitmentDiscountCategory", "CommitmentDiscountId", "CommitmentDiscountName", "CommitmentDiscountStatus",
	"CommitmentDiscountType", "ConsumedQuantity", "ConsumedUnit", "ContractedCost", "ContractedUnitPrice",
	"EffectiveCost", "InvoiceIssuerName", "ListCost", "ListUnitPrice", "PricingCategory", "PricingQuantity",
	"PricingUnit", "ProviderName", "PublisherName", "RegionId", "RegionName", "ResourceId", "ResourceName",
	"ResourceType", "ServiceCategory", "ServiceName", "SkuId", "SkuPriceId", "SubAccountId", "SubAccountName",
	"Tags", "x_GpucapOption", "x_GpucapKind",
};

enum col {
	C_BILLED, C_ACCOUNT_ID, C_ACCOUNT_NAME, C_CURRENCY, C_BP_END, C_BP_START, C_CR_ID, C_CR_STATUS,
	C_CATEGORY, C_CLASS, C_DESCRIPTION, C_FREQUENCY, C_CP_END, C_CP_START, C_CD_CATEGORY, C_CD_ID, C_CD_NAME,
	C_CD_STATUS, C_CD_TYPE, C_CONSUMED_Q, C_CONSUMED_U, C_CONTRACTED, C_CONTRACTED_UP, C_EFFECTIVE,
	C_ISSUER, C_LIST, C_LIST_UP, C_PRICING_CAT, C_PRICING_Q, C_PRICING_U, C_PROVIDER, C_PUBLISHER,
	C_REGION_ID, C_REGION_NAME, C_RESOURCE_ID, C_RESOURCE_NAME, C_RESOURCE_TYPE, C_SERVICE_CAT,
	C_SERVICE_NAME, C_SKU_ID, C_SKU_PRICE_ID, C_SUB_ID, C_SUB_NAME, C_TAGS, C_X_OPTION, C_X_KIND, C_COUNT
};
_Static_assert(C_COUNT == FOCUS_NCOLUMNS, "one enum col per focus_columns entry");

/* What every row of a run shares. */
struct run_info {
	int64_t run_id;
	int version;          /* the file's schema version: before 12, no use, region or instances_jobs */
	char name[256];
	char type[64];
	char region[128];     /* runs.region; '' for a run written before version 12 */
	char *labels;         /* the run's labels as JSON members, each followed by a comma ('' without);
	                         owned (sqlite3_free) */
	char *job;            /* the member "gpucap-job":"NAME", for a run of one job (its jobs rows are that
	                         job's), followed by a comma; '' else; owned (sqlite3_free) */
	double od_usd_per_h;  /* list price per instance-hour: the list cost over the quantity */
};

/* One bill line of the charges table. */
struct line {
	int hour;
	char option[32], kind[16], use[16];
	double start_s, end_s, quantity_h, list_usd, billed_usd, effective_usd;
};

/* One FOCUS row: the cells, Tags apart (written by put_row from the run's labels and the row's use). */
struct row {
	char v[C_COUNT][320];
	const char *labels;  /* run_info.labels, borrowed */
	const char *job;     /* run_info.job, borrowed */
	const char *use;     /* the line's use, borrowed */
};

static void set(struct row *r, enum col c, const char *s)
{
	snprintf(r->v[c], sizeof r->v[c], "%s", s);
}

static void set_num(struct row *r, enum col c, double x)
{
	snprintf(r->v[c], sizeof r->v[c], "%.10f", fabs(x) < 5e-11 ? 0.0 : x);
}

/* ISO-8601 UTC, to the second (FOCUS: "YYYY-MM-DDTHH:mm:ssZ"). */
static void set_time(struct row *r, enum col c, double unix_s)
{
	time_t t = (time_t)llround(unix_s);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(r->v[c], sizeof r->v[c], "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The calendar month (AWS bills by month) holding unix_s: its start and end. */
static void set_billing_period(struct row *r, double unix_s)
{
	time_t t = (time_t)llround(unix_s);
	struct tm tm;

	gmtime_r(&t, &tm);
	tm.tm_mday = 1;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	strftime(r->v[C_BP_START], sizeof r->v[0], "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (++tm.tm_mon == 12) {
		tm.tm_mon = 0;
		tm.tm_year++;
	}
	strftime(r->v[C_BP_END], sizeof r->v[0], "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* RFC 4180: quote a field holding a comma, a quote or a line break; double the quotes. */
static void put_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* Tags (FOCUS 1.1: a JSON object of key-value pairs): the run's labels (already JSON) and gpucap-use, as
 * one CSV field (JSON always holds quotes: the field is quoted and its quotes doubled). */
static void put_tags(FILE *out, const char *labels, const char *job, const char *use)
{
	fputs("\"{", out);
	for (const char *s = labels; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	for (const char *s = strcmp(use, "jobs") == 0 && job ? job : ""; *s; s++) {  /* the one job's rows */
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fprintf(out, "\"\"gpucap-use\"\":\"\"%s\"\"}\"", use);
}

static void put_row(FILE *out, const struct row *r)
{
	for (int c = 0; c < C_COUNT; c++) {
		if (c)
			fputc(',', out);
		if (c == C_TAGS)
			put_tags(out, r->labels, r->job, r->use);
		else
			put_field(out, r->v[c]);
	}
	fputs("\r\n", out);
}

/* The display name of an option, for descriptions. */
static const char *option_title(const char *option)
{
	static const char *const names[][2] = {
		{ "reserved", "Reserved Instance" }, { "on_demand", "On-Demand" }, { "spot", "Spot" },
		{ "odcr", "On-Demand Capacity Reservation" }, { "savings_plan", "Savings Plan" },
		{ "capacity_block", "Capacity Block for ML" }, { "training_plan", "SageMaker training plan" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(names[i][0], option) == 0)
			return names[i][1];
	return option;
}

/* The columns every row has, and those of the line's time and option. */
static void row_common(struct row *r, const struct run_info *ri, const struct line *l)
{
	char buf[320];

	memset(r, 0, sizeof *r);
	r->labels = ri->labels;
	r->job = ri->job;
	r->use = l->use;
	set_num(r, C_BILLED, 0);
	set_num(r, C_EFFECTIVE, 0);
	set_num(r, C_LIST, 0);
	set_num(r, C_CONTRACTED, 0);
	snprintf(buf, sizeof buf, "gpucap-run-%lld", (long long)ri->run_id);
	set(r, C_ACCOUNT_ID, buf);
	set(r, C_ACCOUNT_NAME, ri->name);
	set(r, C_CURRENCY, "USD");
	set_billing_period(r, l->start_s);
	set_time(r, C_CP_START, l->start_s);
	set_time(r, C_CP_END, l->end_s);
	set(r, C_ISSUER, "Amazon Web Services, Inc.");
	set(r, C_PROVIDER, "AWS");
	set(r, C_PUBLISHER, "Amazon Web Services");
	set(r, C_SERVICE_CAT, "Compute");
	set(r, C_SERVICE_NAME, "Amazon Elastic Compute Cloud");
	set(r, C_RESOURCE_TYPE, "Instance");
	set(r, C_REGION_ID, ri->region);
	set(r, C_REGION_NAME, ri->region);
	/* one resource per pool of the run: whose, how bought, which type (analysis/README.md) */
	snprintf(buf, sizeof buf, "gpucap:run-%lld:%s:%s:%s", (long long)ri->run_id, l->use, l->option, ri->type);
	set(r, C_RESOURCE_ID, buf);
	snprintf(buf, sizeof buf, "%s %s instances of %s", ri->type, option_title(l->option), l->use);
	set(r, C_RESOURCE_NAME, buf);
	set(r, C_SKU_ID, ri->type);
	snprintf(buf, sizeof buf, "%s/%s", ri->type, l->option);
	set(r, C_SKU_PRICE_ID, buf);
	set(r, C_X_OPTION, l->option);
	set(r, C_X_KIND, l->kind);
	set(r, C_PRICING_U, "Hours");
}

/* Quantities and unit prices of a Usage row. */
static void row_usage(struct row *r, const struct run_info *ri, const struct line *l, bool consumed)
{
	if (consumed) {
		set_num(r, C_CONSUMED_Q, l->quantity_h);
		set(r, C_CONSUMED_U, "Hours");
	}
	set_num(r, C_PRICING_Q, l->quantity_h);
	set_num(r, C_LIST, l->list_usd);
	set_num(r, C_LIST_UP, ri->od_usd_per_h);
	set_num(r, C_CONTRACTED, l->list_usd);
	set_num(r, C_CONTRACTED_UP, ri->od_usd_per_h);
}

static bool is_commitment(const char *option)
{
	return strcmp(option, "reserved") == 0 || strcmp(option, "savings_plan") == 0;
}

static bool is_reservation(const char *option)
{
	return strcmp(option, "odcr") == 0 || strcmp(option, "capacity_block") == 0 ||
	       strcmp(option, "training_plan") == 0;
}

static void set_commitment(struct row *r, const char *option)
{
	bool sp = strcmp(option, "savings_plan") == 0;

	set(r, C_CD_CATEGORY, sp ? "Spend" : "Usage");
	set(r, C_CD_TYPE, sp ? "Compute Savings Plan" : "Reserved Instance");
	set(r, C_CD_ID, sp ? "gpucap:savings_plan" : "gpucap:reserved");
	set(r, C_CD_NAME, sp ? "Savings Plans of the scenario" : "Reserved Instances of the scenario");
}

/* The FOCUS rows of one bill line (one, or two for a commitment's used or unused hour). */
static void write_line(FILE *out, const struct run_info *ri, const struct line *l, double *fee_usd)
{
	struct row r;
	char buf[320];
	const char *title = option_title(l->option);
	bool used = strcmp(l->kind, "used") == 0, unused = strcmp(l->kind, "unused") == 0;

	row_common(&r, ri, l);
	if (strcmp(l->kind, "upfront") == 0) {
		/* a purchase paid at once: billed now, its effective cost spread over the usage rows */
		set(&r, C_CATEGORY, "Purchase");
		set(&r, C_FREQUENCY, "One-Time");
		set(&r, C_PRICING_CAT, "Standard");
		set_num(&r, C_BILLED, l->billed_usd);
		set_num(&r, C_CONTRACTED, l->billed_usd);
		set_num(&r, C_PRICING_Q, 1);
		set(&r, C_PRICING_U, "Purchases");
		snprintf(buf, sizeof buf, "%s %s upfront fee", ri->type, title);
		if (is_commitment(l->option))
			set_commitment(&r, l->option);
		else {
			snprintf(buf, sizeof buf, "gpucap:%s", l->option);  /* capacity_block, training_plan */
			set(&r, C_CR_ID, buf);
		}
		set(&r, C_DESCRIPTION, buf);
		put_row(out, &r);
		return;
	}
	set(&r, C_CATEGORY, "Usage");
	set(&r, C_FREQUENCY, "Usage-Based");
	set_num(&r, C_EFFECTIVE, l->effective_usd);
	if (is_commitment(l->option)) {
		/* covered usage or unused commitment: nothing billed on the row, the hour's fee on its own row */
		row_usage(&r, ri, l, used);
		set(&r, C_PRICING_CAT, "Committed");
		set_commitment(&r, l->option);
		set(&r, C_CD_STATUS, used ? "Used" : "Unused");
		if (unused) {
			set_num(&r, C_PRICING_Q, 0);
			set_num(&r, C_LIST, 0);
			set_num(&r, C_CONTRACTED, l->effective_usd);
		}
		snprintf(buf, sizeof buf, "%s %s %s", ri->type, title,
			 used ? "covered usage" : "unused commitment");
		*fee_usd += l->billed_usd;
	} else {
		row_usage(&r, ri, l, true);
		set_num(&r, C_BILLED, l->billed_usd);
		set(&r, C_PRICING_CAT, strcmp(l->option, "spot") == 0 ? "Dynamic" : "Standard");
		if (strcmp(l->option, "spot") == 0)
			set_num(&r, C_CONTRACTED, l->billed_usd);
		if (is_reservation(l->option)) {
			snprintf(buf, sizeof buf, "gpucap:%s", l->option);
			set(&r, C_CR_ID, buf);
			set(&r, C_CR_STATUS, unused ? "Unused" : "Used");
		}
		snprintf(buf, sizeof buf, "%s %s %s", ri->type, title,
			 unused ? "unused reserved capacity" : used ? "reserved capacity used" : "usage");
	}
	set(&r, C_DESCRIPTION, buf);
	put_row(out, &r);
}

/* A commitment's fee for one clock hour: billed, never effective (the usage rows carry that). */
static void write_fee(FILE *out, const struct run_info *ri, const struct line *l, double fee_usd)
{
	struct row r;
	char buf[320];
	struct line fee = *l;

	snprintf(fee.kind, sizeof fee.kind, "fee");
	row_common(&r, ri, &fee);
	set(&r, C_CATEGORY, "Purchase");
	set(&r, C_FREQUENCY, "Recurring");
	set(&r, C_PRICING_CAT, "Standard");
	set_commitment(&r, l->option);
	set_num(&r, C_BILLED, fee_usd);
	set_num(&r, C_CONTRACTED, fee_usd);
	set_num(&r, C_PRICING_Q, (l->end_s - l->start_s) / 3600.0);
	snprintf(buf, sizeof buf, "%s %s hourly fee", ri->type, option_title(l->option));
	set(&r, C_DESCRIPTION, buf);
	put_row(out, &r);
}

static int db_fail(sqlite3 *db, const char *path, struct diag *d)
{
	return store_read_fail(db, NULL, path, d, "exporting the bill");
}

static int read_run(sqlite3 *db, const char *path, struct run_info *ri, struct diag *d)
{
	sqlite3_stmt *st;
	int rc, app = 0, version = 0;

	if (sqlite3_prepare_v2(db, "SELECT (SELECT application_id FROM pragma_application_id), "
			       "(SELECT user_version FROM pragma_user_version)", -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, path, d);
	if (sqlite3_step(st) == SQLITE_ROW) {
		app = sqlite3_column_int(st, 0);
		version = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	if (app != GPCP_APPLICATION_ID)
		return diag_fail(d, STATUS_EINPUT, "%s: not a gpucap results database", path);
	if (version < 6)
		return diag_fail(d, STATUS_EINPUT, "%s: results database schema version %d: runs written before "
				 "version 6 have no bill lines to export (run the scenario again)", path, version);
	ri->version = version;
	if (sqlite3_prepare_v2(db, version >= 12 ? "SELECT name, instance_type, status, region FROM runs WHERE run_id = ?1"
						 : "SELECT name, instance_type, status, NULL FROM runs WHERE run_id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, path, d);
	sqlite3_bind_int64(st, 1, ri->run_id);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		return rc == SQLITE_DONE ? diag_fail(d, STATUS_EINPUT, "%s: no run %lld", path, (long long)ri->run_id)
					 : db_fail(db, path, d);
	}
	snprintf(ri->name, sizeof ri->name, "%s", (const char *)sqlite3_column_text(st, 0));
	snprintf(ri->type, sizeof ri->type, "%s", (const char *)sqlite3_column_text(st, 1));
	if (sqlite3_column_type(st, 3) != SQLITE_NULL)
		snprintf(ri->region, sizeof ri->region, "%s", (const char *)sqlite3_column_text(st, 3));
	rc = strcmp((const char *)sqlite3_column_text(st, 2), "ok") == 0;
	sqlite3_finalize(st);
	if (!rc)
		return diag_fail(d, STATUS_EINPUT, "%s: run %lld did not finish; it has no bill", path,
				 (long long)ri->run_id);
	return STATUS_OK;
}

/* Append s to b as a JSON string (RFC 8259: quote, backslash and control characters escaped; other bytes,
 * UTF-8 included, as they are). */
static void json_string(sqlite3_str *b, const char *s)
{
	sqlite3_str_appendchar(b, 1, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			sqlite3_str_appendf(b, "\\%c", c);
		else if (c < 0x20)
			sqlite3_str_appendf(b, "\\u%04x", c);
		else
			sqlite3_str_appendchar(b, 1, (char)c);
	}
	sqlite3_str_appendchar(b, 1, '"');
}

/*
 * A run that submitted one job (its job_submit events name one job): all its jobs rows are that job's, so
 * Tags say which ("gpucap-job"). With several jobs an hour's line is shared by them (bill lines are kept
 * per user, not per job), and no job is named.
 */
static int read_job(sqlite3 *db, const char *path, struct run_info *ri, struct diag *d)
{
	sqlite3_stmt *st;
	sqlite3_str *b = sqlite3_str_new(db);

	if (sqlite3_prepare_v2(db, "SELECT count(DISTINCT detail), min(detail) FROM events WHERE run_id = ?1 AND "
			       "kind = 'job_submit'", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_free(sqlite3_str_finish(b));
		return db_fail(db, path, d);
	}
	sqlite3_bind_int64(st, 1, ri->run_id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1) {
		sqlite3_str_appendall(b, "\"gpucap-job\":");
		json_string(b, (const char *)sqlite3_column_text(st, 1));
		sqlite3_str_appendchar(b, 1, ',');
	}
	sqlite3_finalize(st);
	ri->job = sqlite3_str_finish(b);
	if (!ri->job)
		ri->job = sqlite3_mprintf("%s", "");
	return ri->job ? STATUS_OK : diag_fail(d, STATUS_ENOMEM, "%s: out of memory (while exporting the bill)", path);
}

/*
 * The run's labels (`gpucap run --label K=V`) as JSON members "K":"V", each followed by a comma, in key
 * order, into ri->labels. Keys starting gpucap- are the export's own (gpucap-use) and are left out, so
 * that Tags never holds a key twice.
 */
static int read_labels(sqlite3 *db, const char *path, struct run_info *ri, struct diag *d)
{
	sqlite3_stmt *st;
	sqlite3_str *b = sqlite3_str_new(db);
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT key, value FROM labels WHERE run_id = ?1 AND key NOT LIKE 'gpucap-%' "
			       "ORDER BY key", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_free(sqlite3_str_finish(b));
		return db_fail(db, path, d);
	}
	sqlite3_bind_int64(st, 1, ri->run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		json_string(b, (const char *)sqlite3_column_text(st, 0));
		sqlite3_str_appendchar(b, 1, ':');
		json_string(b, (const char *)sqlite3_column_text(st, 1));
		sqlite3_str_appendchar(b, 1, ',');
	}
	sqlite3_finalize(st);
	if (sqlite3_str_errcode(b) != SQLITE_OK) {
		sqlite3_free(sqlite3_str_finish(b));
		return diag_fail(d, STATUS_ENOMEM, "%s: out of memory (while exporting the bill)", path);
	}
	ri->labels = sqlite3_str_finish(b);
	if (!ri->labels)
		ri->labels = sqlite3_mprintf("%s", "");
	if (!ri->labels)
		return diag_fail(d, STATUS_ENOMEM, "%s: out of memory (while exporting the bill)", path);
	return rc == SQLITE_DONE ? read_job(db, path, ri, d) : db_fail(db, path, d);
}

/*
 * What the run still owes for commitments after its horizon (commitment_after_horizon_usd), into *usd (0
 * when the metric is missing). The export writes no projected rows for it: the results database keeps the
 * dollars but not the terms' ends, so no honest charge period can be given (analysis/README.md).
 */
static int read_after_horizon(sqlite3 *db, const char *path, int64_t run_id, double *usd, struct diag *d)
{
	sqlite3_stmt *st;

	*usd = 0;
	if (sqlite3_prepare_v2(db, "SELECT value FROM metrics WHERE run_id = ?1 AND name = "
			       "'commitment_after_horizon_usd'", -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, path, d);
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		*usd = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return STATUS_OK;
}

int focus_export(const char *db_path, int64_t run_id, FILE *out, FILE *notes, struct diag *d)
{
	/* a file before version 12 has no use: its lines are serving's (schema.sql, version 12) */
	static const char lines_sql[] =
		"SELECT hour, option, kind, start_unix_s, end_unix_s, quantity_h, list_usd, billed_usd, effective_usd, "
		"use FROM charges WHERE run_id = ?1 ORDER BY hour, option, use, "
		"CASE kind WHEN 'upfront' THEN 0 WHEN 'usage' THEN 1 WHEN 'used' THEN 2 ELSE 3 END";
	static const char lines_v6_sql[] =
		"SELECT hour, option, kind, start_unix_s, end_unix_s, quantity_h, list_usd, billed_usd, effective_usd, "
		"'serving' FROM charges WHERE run_id = ?1 ORDER BY hour, option, "
		"CASE kind WHEN 'upfront' THEN 0 WHEN 'usage' THEN 1 WHEN 'used' THEN 2 ELSE 3 END";
	struct run_info ri = { .run_id = run_id };
	struct line prev = { .hour = -1 };
	struct store_reader rd;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	double fee = 0, quantity = 0, list = 0, after_usd = 0;
	int status, rc, n = 0;

	/* store_read.h: refuses a directory or a newer file, waits for a lock, rolls back a hot journal */
	status = store_read_open(&rd, db_path, 1, "gpucap export", d);
	if (status != STATUS_OK)
		return status;
	db = rd.db;
	status = read_run(db, db_path, &ri, d);
	if (status == STATUS_OK)
		status = read_labels(db, db_path, &ri, d);
	if (status == STATUS_OK)
		status = read_after_horizon(db, db_path, run_id, &after_usd, d);
	/* the list price per instance-hour: every line's list cost is its quantity at it */
	if (status == STATUS_OK) {
		if (sqlite3_prepare_v2(db, "SELECT total(quantity_h), total(list_usd) FROM charges WHERE run_id = ?1",
				       -1, &st, NULL) != SQLITE_OK)
			status = db_fail(db, db_path, d);
		else {
			sqlite3_bind_int64(st, 1, run_id);
			if (sqlite3_step(st) == SQLITE_ROW) {
				quantity = sqlite3_column_double(st, 0);
				list = sqlite3_column_double(st, 1);
			}
			sqlite3_finalize(st);
			ri.od_usd_per_h = quantity > 0 ? list / quantity : 0;
		}
	}
	if (status == STATUS_OK &&
	    sqlite3_prepare_v2(db, ri.version >= 12 ? lines_sql : lines_v6_sql, -1, &st, NULL) != SQLITE_OK)
		status = db_fail(db, db_path, d);
	if (status != STATUS_OK) {
		sqlite3_free(ri.labels);
		sqlite3_free(ri.job);
		store_read_close(&rd);
		return status;
	}
	for (int c = 0; c < FOCUS_NCOLUMNS; c++)
		fprintf(out, "%s%s", c ? "," : "", focus_columns[c]);
	fputs("\r\n", out);
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct line l;
		l.hour = sqlite3_column_int(st, 0);
		snprintf(l.option, sizeof l.option, "%s", (const char *)sqlite3_column_text(st, 1));
		snprintf(l.kind, sizeof l.kind, "%s", (const char *)sqlite3_column_text(st, 2));
		l.start_s = sqlite3_column_double(st, 3);
		l.end_s = sqlite3_column_double(st, 4);
		l.quantity_h = sqlite3_column_double(st, 5);
		l.list_usd = sqlite3_column_double(st, 6);
		l.billed_usd = sqlite3_column_double(st, 7);
		l.effective_usd = sqlite3_column_double(st, 8);
		snprintf(l.use, sizeof l.use, "%s", (const char *)sqlite3_column_text(st, 9));
		/* a commitment's hour ends (for one user): its fee row follows its usage rows */
		if (fee != 0 && (l.hour != prev.hour || strcmp(l.option, prev.option) != 0 ||
				 strcmp(l.use, prev.use) != 0)) {
			write_fee(out, &ri, &prev, fee);
			fee = 0;
		}
		write_line(out, &ri, &l, &fee);
		prev = l;
		n++;
	}
	if (fee != 0)
		write_fee(out, &ri, &prev, fee);
	status = rc == SQLITE_DONE ? STATUS_OK : db_fail(db, db_path, d);
	sqlite3_finalize(st);
	sqlite3_free(ri.labels);
	sqlite3_free(ri.job);
	store_read_close(&rd);
	if (status == STATUS_OK && after_usd > 0 && notes)
		fprintf(notes, "gpucap export: note: run %lld still owes $%.2f of commitments after its horizon "
			"(commitment_after_horizon_usd); the export has no projected rows for it: the results database "
			"keeps the dollars but not the terms' ends (gpucap recommend prices a whole term)\n",
			(long long)run_id, after_usd);
	if (status == STATUS_OK && n == 0)
		status = diag_fail(d, STATUS_EINPUT, "%s: run %lld has no bill lines", db_path, (long long)run_id);
	if (status == STATUS_OK && ferror(out))
		status = diag_fail(d, STATUS_EIO, "writing the bill failed");
	return status;
}
