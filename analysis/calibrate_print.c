/*
 * calibrate_print: a calibration (calibrate.h) as text for people, or as one JSON object (`gpucap calibrate
 * --json`; analysis/README.md "Calibrating against a bill" lists its members). JSON numbers are printed with
 * 17 significant digits (%.17g), NaN as null.
 */
#include <math.h>
#include <stdbool.h>

#include "calibrate.h"
#include "jsonout.h"
#include "numfmt.h"
#include "units.h"

static const char *pct(double v, char *buf, size_t size)
{
	if (isnan(v))
		return "n/a";
	snprintf(buf, size, "%.2f%%", v);
	return buf;
}

/* Call fn for each (clock hour, class) with anything billed or simulated, in time then class order; first
 * is true for the first call. */
static void each_hour(FILE *out, const struct calibration *c,
		      void (*fn)(FILE *out, const char *at, int k, const struct billcell *x, const struct billcell *y,
				 bool first))
{
	bool first = true;

	for (int h = 0; h < c->nhours; h++)
		for (int k = 0; k < BILLCLASS_N; k++) {
			const struct billcell *x = &c->billed[h * BILLCLASS_N + k], *y = &c->sim[h * BILLCLASS_N + k];
			char at[32];

			if (!x->hours_h && !x->cost_usd && !y->hours_h && !y->cost_usd)
				continue;
			units_format_time(c->start_unix_s + 3600 * (int64_t)h, at, sizeof at);
			fn(out, at, k, x, y, first);
			first = false;
		}
}

static void text_hour(FILE *out, const char *at, int k, const struct billcell *x, const struct billcell *y,
		      bool first)
{
	(void)first;
	fprintf(out, "%s  %-13s %10.3f %12.3f %12.4f %12.4f\n", at, billclass_name((enum billclass)k), x->hours_h,
		y->hours_h, x->cost_usd, y->cost_usd);
}

/* A class's line: billed and simulated instance-hours and cost, and the MAPEs. */
static void print_class(FILE *out, const struct calibration *c, int k)
{
	const struct billcell *b = &c->billed_total[k], *s = &c->sim_total[k];
	char x[4][48], e[2][24];

	if (k < BILLCLASS_N && b->hours_h == 0 && b->cost_usd == 0 && s->hours_h == 0 && s->cost_usd == 0)
		return;
	fprintf(out, "  %-13s %12s %12s  %12s %12s  %7s %7s\n",
		k < BILLCLASS_N ? billclass_name((enum billclass)k) : "all", numfmt_fixed(b->hours_h, 1, x[0], 48),
		numfmt_fixed(s->hours_h, 1, x[1], 48), numfmt_money(b->cost_usd, true, x[2], 48),
		numfmt_money(s->cost_usd, true, x[3], 48), pct(c->hours[k].mape_pct, e[0], 24),
		pct(c->cost[k].mape_pct, e[1], 24));
}

/* Commitment use, for the classes that have any: covered hours and unused cost, billed and simulated. */
static void print_commitments(FILE *out, const struct calibration *c)
{
	bool head = false;

	for (int k = 0; k < BILLCLASS_N; k++) {
		const struct billcell *b = &c->billed_total[k], *s = &c->sim_total[k];
		char x[4][48];

		if (!b->used_h && !s->used_h && !b->unused_usd && !s->unused_usd)
			continue;
		if (!head)
			fprintf(out, "\n  %-13s %12s %12s  %12s %12s\n", "commitment", "billed used h", "simulated",
				"billed unused", "simulated");
		head = true;
		fprintf(out, "  %-13s %12s %12s  %12s %12s\n", billclass_name((enum billclass)k),
			numfmt_fixed(b->used_h, 1, x[0], 48), numfmt_fixed(s->used_h, 1, x[1], 48),
			numfmt_money(b->unused_usd, true, x[2], 48), numfmt_money(s->unused_usd, true, x[3], 48));
	}
}

static void print_error(FILE *out, const char *what, const struct calibrate_error *e, bool money)
{
	char at[32], b[48], s[48], p[3][24];

	if (!e->hours) {
		fprintf(out, "  %s: no hour billed any, so no percentage error\n", what);
		return;
	}
	units_format_time(e->worst_unix_s, at, sizeof at);
	fprintf(out, "  %s: MAPE %s over %d hours billed > 0; total %s; worst hour %s: billed %s, simulated %s (%s)\n",
		what, pct(e->mape_pct, p[0], 24), e->hours, pct(e->total_pct, p[1], 24), at,
		money ? numfmt_money(e->worst_billed, true, b, 48) : numfmt_fixed(e->worst_billed, 2, b, 48),
		money ? numfmt_money(e->worst_sim, true, s, 48) : numfmt_fixed(e->worst_sim, 2, s, 48),
		pct(e->worst_pct, p[2], 24));
	if (e->zero_hours)
		fprintf(out, "  %s: %d hours billed nothing but simulated some (not in the MAPE)\n", what, e->zero_hours);
}

void calibrate_print_text(FILE *out, const struct calibration *c, const struct billfile *b, const char *bill_path,
			  int hours)
{
	char t0[32], t1[32];

	units_format_time(c->start_unix_s, t0, sizeof t0);
	units_format_time(c->start_unix_s + 3600 * (int64_t)c->nhours, t1, sizeof t1);
	fprintf(out, "bill %s (%s): %s to %s, %d clock hours (UTC)\n", bill_path, billfile_format_name(b->format), t0,
		t1, c->nhours);
	fprintf(out, "  %lld rows: %lld kept, %lld of other instance types or services, %lld not usage (tax, "
		"credit, refund, fees, purchases)\n", (long long)b->rows, (long long)b->kept, (long long)b->other_type,
		(long long)b->not_usage);
	fprintf(out, "simulated: run %lld\n\n", (long long)c->run_id);
	fprintf(out, "  %-13s %12s %12s  %12s %12s  %7s %7s\n", "class", "billed h", "simulated h", "billed $",
		"simulated $", "MAPE h", "MAPE $");
	for (int k = 0; k <= BILLCLASS_N; k++)
		print_class(out, c, k);
	print_commitments(out, c);
	fputs("\nerror (simulated against billed, by clock hour):\n", out);
	print_error(out, "instance-hours", &c->hours[CALIBRATE_ALL], false);
	print_error(out, "cost", &c->cost[CALIBRATE_ALL], true);
	if (!hours)
		return;
	fputs("\nhour (UTC)            class          billed h  simulated h     billed $  simulated $\n", out);
	each_hour(out, c, text_hour);
}

static void json_num(FILE *out, const char *key, double v, bool comma)
{
	if (isnan(v) || isinf(v))
		fprintf(out, "\"%s\":null%s", key, comma ? "," : "");
	else
		fprintf(out, "\"%s\":%.17g%s", key, v, comma ? "," : "");
}

static void json_cell(FILE *out, const char *key, const struct billcell *x)
{
	fprintf(out, "\"%s\":{", key);
	json_num(out, "instance_hours", x->hours_h, true);
	json_num(out, "cost_usd", x->cost_usd, true);
	json_num(out, "commitment_used_h", x->used_h, true);
	json_num(out, "commitment_unused_usd", x->unused_usd, false);
	fputc('}', out);
}

static void json_hour(FILE *out, const char *at, int k, const struct billcell *x, const struct billcell *y,
		      bool first)
{
	fprintf(out, "%s{\"hour\":\"%s\",\"class\":\"%s\",", first ? "" : ",", at, billclass_name((enum billclass)k));
	json_cell(out, "billed", x);
	fputc(',', out);
	json_cell(out, "simulated", y);
	fputc('}', out);
}

static void json_error(FILE *out, const char *key, const struct calibrate_error *e)
{
	char at[32];

	units_format_time(e->worst_unix_s, at, sizeof at);
	fprintf(out, "\"%s\":{\"hours\":%d,\"zero_billed_hours\":%d,", key, e->hours, e->zero_hours);
	json_num(out, "mape_pct", e->mape_pct, true);
	json_num(out, "total_pct", e->total_pct, true);
	if (e->hours)
		fprintf(out, "\"worst_hour\":\"%s\",", at);
	else
		fputs("\"worst_hour\":null,", out);
	json_num(out, "worst_billed", e->hours ? e->worst_billed : NAN, true);
	json_num(out, "worst_simulated", e->hours ? e->worst_sim : NAN, true);
	json_num(out, "worst_pct", e->worst_pct, false);
	fputc('}', out);
}

void calibrate_print_json(FILE *out, const struct calibration *c, const struct billfile *b, const char *bill_path,
			  int64_t calibration_id)
{
	char t0[32];

	units_format_time(c->start_unix_s, t0, sizeof t0);
	fprintf(out, "{\"calibration_id\":%lld,\"run_id\":%lld,\"bill\":", (long long)calibration_id,
		(long long)c->run_id);
	jsonout_string(out, bill_path);
	fprintf(out, ",\"format\":\"%s\",\"start\":\"%s\",\"hours\":%d,\"rows\":%lld,\"rows_kept\":%lld,"
		"\"rows_other_type\":%lld,\"rows_not_usage\":%lld,\"classes\":{", billfile_format_name(b->format), t0,
		c->nhours, (long long)b->rows, (long long)b->kept, (long long)b->other_type, (long long)b->not_usage);
	for (int k = 0; k <= BILLCLASS_N; k++) {
		fprintf(out, "%s\"%s\":{", k ? "," : "", k < BILLCLASS_N ? billclass_name((enum billclass)k) : "all");
		json_cell(out, "billed", &c->billed_total[k]);
		fputc(',', out);
		json_cell(out, "simulated", &c->sim_total[k]);
		fputc(',', out);
		json_error(out, "instance_hours_error", &c->hours[k]);
		fputc(',', out);
		json_error(out, "cost_error", &c->cost[k]);
		fputc('}', out);
	}
	fputs("},\"by_hour\":[", out);
	each_hour(out, c, json_hour);
	fputs("]}\n", out);
}
