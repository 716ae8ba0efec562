/* capture: see capture.h. */
#include "capture.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "scenario.h"
#include "status.h"
#include "world.h"

static int c_begin(void *self, const struct sink_run_info *info)
{
	struct capture *c = self;
	(void)info;
	c->begun++;
	return STATUS_OK;
}

static int c_samples(void *self, const struct sink_sample *rows, size_t n)
{
	struct capture *c = self;
	c->nsamples += (long)n;
	if (n)
		c->last_sample = rows[n - 1];
	return STATUS_OK;
}

static int c_events(void *self, const struct sink_event *rows, size_t n)
{
	struct capture *c = self;
	for (size_t i = 0; i < n && c->nevents < CAPTURE_EVENTS; i++) {
		struct capture_event *e = &c->events[c->nevents++];
		e->t_s = rows[i].t_s;
		snprintf(e->kind, sizeof e->kind, "%s", rows[i].kind);
		snprintf(e->option, sizeof e->option, "%s", rows[i].option ? rows[i].option : "");
		e->count = rows[i].count;
	}
	return STATUS_OK;
}

static int c_charges(void *self, const struct sink_charge *rows, size_t n)
{
	static const char *const kinds[4] = { "usage", "used", "unused", "upfront" };
	struct capture *c = self;
	for (size_t i = 0; i < n; i++) {
		enum option_kind o;
		int k = 0;
		ck_assert(option_kind_parse(rows[i].option, &o));
		while (k < 4 && strcmp(kinds[k], rows[i].kind) != 0)
			k++;
		ck_assert_int_lt(k, 4);
		ck_assert(rows[i].end_unix_s >= rows[i].start_unix_s);
		c->charge_effective[o][k] += rows[i].effective_usd;
		c->charge_billed[o][k] += rows[i].billed_usd;
		c->charge_quantity[o][k] += rows[i].quantity_h;
		ck_assert(strcmp(rows[i].use, "serving") == 0 || strcmp(rows[i].use, "jobs") == 0);
		c->charge_use_effective[strcmp(rows[i].use, "jobs") == 0][o] += rows[i].effective_usd;
		c->ncharges++;
	}
	return STATUS_OK;
}

static int c_hours(void *self, const struct sink_hour *rows, size_t n)
{
	struct capture *c = self;
	for (size_t i = 0; i < n && c->nhours < CAPTURE_HOURS; i++)
		c->hours[c->nhours++] = rows[i];
	return STATUS_OK;
}

static int c_warnings(void *self, const struct sink_warning *list, size_t n)
{
	struct capture *c = self;
	c->warnings_calls++;
	for (size_t i = 0; i < n && c->nwarnings < CAPTURE_WARNINGS; i++)
		c->warnings[c->nwarnings++] = list[i];
	return STATUS_OK;
}

static int c_metrics(void *self, const struct sink_metric *list, size_t n)
{
	struct capture *c = self;

	ck_assert_msg(n <= (size_t)(CAPTURE_METRICS - c->nmetrics), "capture holds %d metrics, the run reports more",
		      CAPTURE_METRICS);
	for (size_t i = 0; i < n && c->nmetrics < CAPTURE_METRICS; i++)
		c->metrics[c->nmetrics++] = list[i];
	return STATUS_OK;
}

static int c_end(void *self, int status, double wall_s)
{
	struct capture *c = self;
	(void)wall_s;
	c->ended++;
	c->end_status = status;
	return STATUS_OK;
}

static const struct sink_ops capture_ops = { c_begin, c_samples, c_events, c_charges, c_hours, c_warnings, c_metrics, c_end };

struct sink capture_sink(struct capture *c)
{
	struct sink s = { &capture_ops, c };
	memset(c, 0, sizeof *c);
	return s;
}

double capture_metric(const struct capture *c, const char *name)
{
	for (int i = 0; i < c->nmetrics; i++)
		if (strcmp(c->metrics[i].name, name) == 0)
			return c->metrics[i].value;
	return NAN;
}

double capture_need(const struct capture *c, const char *name)
{
	double v = capture_metric(c, name);

	ck_assert_msg(!isnan(v), "metric %s missing or NaN", name);
	return v;
}

const struct capture_event *capture_find(const struct capture *c, const char *kind, int i)
{
	for (int k = 0; k < c->nevents; k++)
		if (strcmp(c->events[k].kind, kind) == 0 && i-- == 0)
			return &c->events[k];
	return NULL;
}

const struct sink_warning *capture_warning(const struct capture *c, const char *code)
{
	for (int k = 0; k < c->nwarnings; k++)
		if (strcmp(c->warnings[k].code, code) == 0)
			return &c->warnings[k];
	return NULL;
}

int capture_count(const struct capture *c, const char *kind)
{
	int n = 0;
	for (int k = 0; k < c->nevents; k++)
		n += strcmp(c->events[k].kind, kind) == 0;
	return n;
}

void capture_run(struct capture *c, const char *yaml, const char *const *sets, int nsets)
{
	struct scenario sc;
	struct world_report rep;
	struct diag d;
	struct sink sink = capture_sink(c);
	int rc = scenario_parse_string(&sc, yaml, "test.yaml", sets, nsets, &d);

	ck_assert_msg(rc == STATUS_OK, "scenario: %s", d.msg);
	rc = world_run(&sc, &sink, "test", &rep, &d);
	ck_assert_msg(rc == STATUS_OK, "run: %s", d.msg);
	ck_assert_int_eq(c->begun, 1);
	ck_assert_int_eq(c->ended, 1);
	ck_assert_int_eq(c->end_status, STATUS_OK);
	scenario_fini(&sc);
}
