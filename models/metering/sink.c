/* sink: the null sink (see sink.h). */
#include "sink.h"

#include "status.h"

static int null_begin(void *self, const struct sink_run_info *info)
{
	(void)self;
	(void)info;
	return STATUS_OK;
}

static int null_samples(void *self, const struct sink_sample *rows, size_t n)
{
	(void)self;
	(void)rows;
	(void)n;
	return STATUS_OK;
}

static int null_events(void *self, const struct sink_event *rows, size_t n)
{
	(void)self;
	(void)rows;
	(void)n;
	return STATUS_OK;
}

static int null_charges(void *self, const struct sink_charge *rows, size_t n)
{
	(void)self;
	(void)rows;
	(void)n;
	return STATUS_OK;
}

static int null_hours(void *self, const struct sink_hour *rows, size_t n)
{
	(void)self;
	(void)rows;
	(void)n;
	return STATUS_OK;
}

static int null_warnings(void *self, const struct sink_warning *list, size_t n)
{
	(void)self;
	(void)list;
	(void)n;
	return STATUS_OK;
}

static int null_metrics(void *self, const struct sink_metric *list, size_t n)
{
	(void)self;
	(void)list;
	(void)n;
	return STATUS_OK;
}

static int null_end(void *self, int status, double wall_s)
{
	(void)self;
	(void)status;
	(void)wall_s;
	return STATUS_OK;
}

static const struct sink_ops null_ops = {
	null_begin, null_samples, null_events, null_charges, null_hours, null_warnings, null_metrics, null_end,
};

const struct sink sink_null = { &null_ops, NULL };
