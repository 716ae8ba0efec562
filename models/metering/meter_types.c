/*
 * meter_types: the meter's sums for a fleet of several instance types (see meter.h, struct meter_types).
 *
 * With one type the meter counts GPUs as instances x the type's GPUs and busy GPUs as busy slots x GPUs per
 * slot. With several, each bill is weighed by the GPUs of the type it is for (its payer's type,
 * struct meter_payer), and each busy slot by its own type's GPUs per slot, kept as a separate integral by option kind.
 * None of this runs with one type, so such runs add up exactly as before. The two events that change a
 * count over time (meter_type_busy, meter_type_in_service) are in meter.c, beside meter_busy and
 * meter_in_service, because they first advance the integrals (meter_advance): this file is beneath meter.c.
 */
#include "meter.h"

#include <assert.h>
#include <stdio.h>

#include "engine.h"

#define TYPE_NAME_METRIC 24  /* bytes of a type's name in a metric name: type_<name>_gpu_hours_paid fits in 47 */

void meter_types_set(struct meter *m, int n, const char *const *names, const int *gpus, const int *slots,
		     const double *od_usd_per_h)
{
	struct meter_types *t = &m->types;

	assert(n >= 0 && n <= METER_TYPES_MAX);
	t->n = n;
	for (int i = 0; i < n; i++) {
		struct meter_type *y = &t->type[i];
		size_t j = 0;
		for (; names[i][j] && j < sizeof y->name - 1; j++) {
			char c = names[i][j];
			y->name[j] = c == '.' || c == '-' ? '_' : c;
		}
		y->name[j] = '\0';
		y->gpus = gpus[i];
		y->slots = slots[i];
		y->od_usd_per_h = od_usd_per_h[i];
	}
}

void meter_type_served(struct meter *m, int type)
{
	if (m->types.n > 1)
		m->types.type[type].served++;
}

void meter_types_advance(struct meter *m, double dt)
{
	struct meter_types *t = &m->types;

	for (int i = 0; i < t->n; i++) {
		t->type[i].busy_slot_us += t->type[i].busy * dt;
		t->type[i].service_inst_us += t->type[i].in_service * dt;
	}
	for (int k = 0; k < OPTION_KIND_COUNT; k++)
		t->busy_gpu_us[k] += t->busy_gpus[k] * dt;
	t->service_slot_us += t->in_service_slots * dt;
}

void meter_types_warmup(struct meter *m)
{
	for (int k = 0; k < OPTION_KIND_COUNT; k++)
		m->types.busy_gpu_at_warmup[k] = m->types.busy_gpu_us[k];
}

int meter_types_bill_gpus(const struct meter *m, int type)
{
	return m->types.n > 1 ? m->types.type[type].gpus : m->gpus;
}

static int put(struct sink_metric *list, int n, const struct meter_type *y, const char *what, double value)
{
	if (n >= METER_MAX_METRICS)
		return n;
	snprintf(list[n].name, sizeof list[n].name, "type_%.*s_%s", TYPE_NAME_METRIC, y->name, what);
	list[n].value = value;
	return n + 1;
}

int meter_types_report(const struct meter *m, struct sink_metric *list, int n)
{
	for (int i = 0; i < (m->types.n > 1 ? m->types.n : 0); i++) {
		const struct meter_type *y = &m->types.type[i];
		n = put(list, n, y, "instance_hours", y->service_inst_us / SIM_US_PER_H_D);
		n = put(list, n, y, "requests_served", (double)y->served);
		n = put(list, n, y, "gpu_hours_paid", y->paid_gpu_us / SIM_US_PER_H_D);
		n = put(list, n, y, "gpu_hours_busy", y->busy_slot_us * y->gpus / y->slots / SIM_US_PER_H_D);
		n = put(list, n, y, "cost_usd", y->cost_usd);
	}
	return n;
}
