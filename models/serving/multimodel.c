/* multimodel: see multimodel.h. */
#include "multimodel.h"

#include <stdlib.h>
#include <string.h>

#include "status.h"

/* The model's own random streams: the scenario seed mixed with its name (FNV-1a), so that adding a model or
 * reordering the list leaves the others' draws as they were. */
static uint64_t model_seed(uint64_t seed, const char *name)
{
	uint64_t h = 1469598103934665603ULL;

	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	return seed ^ h;
}

/* The parent with the model's blocks and slots. */
static void derive(struct scenario *d, const struct scenario *sc, const struct scenario_model *m)
{
	*d = *sc;
	d->slo = m->blocks->slo;
	d->arrivals = m->blocks->arrivals;
	d->sizes = m->blocks->sizes;
	d->reuse = m->blocks->reuse;
	d->service = m->blocks->service;
	d->seed = model_seed(sc->seed, m->name);
	d->serving.slots = m->slots;
	d->types[0].slots = m->slots;
	d->models = NULL;
	d->nmodels = 0;
}

static void on_arrival(struct engine *eng, struct event *ev);

static void next_arrival(struct multimodel_one *o)
{
	struct multimodel *mm = o->mm;
	int rc = workload_next(&o->wl, &o->next, mm->d);

	if (rc == STATUS_OK)
		rc = engine_schedule(mm->eng, &o->arrival, o->next.arrival_us, on_arrival);
	if (rc == STATUS_DONE)
		return;
	if (rc != STATUS_OK) {
		meter_failed(mm->meter, rc);  /* a source's message is already in d */
		engine_stop(mm->eng);
	}
}

static void on_arrival(struct engine *eng, struct event *ev)
{
	struct multimodel_one *o = container_of(ev, struct multimodel_one, arrival);

	(void)eng;
	serving_arrive(&o->serving, &o->next);
	next_arrival(o);
}

static int init_one(struct multimodel *mm, struct multimodel_one *o, const struct scenario *sc, int i)
{
	int rc;

	o->mm = mm;
	o->name = sc->models[i].name;
	derive(&o->sc, sc, &sc->models[i]);
	engine_event_init(&o->arrival);
	if ((rc = workload_init(&o->wl, &o->sc, mm->d)) != STATUS_OK)
		return rc;
	o->wl_up = true;
	o->shadow = *mm->fleet;
	o->pool = calloc((size_t)mm->fleet->npool > 0 ? (size_t)mm->fleet->npool : 1, sizeof *o->pool);
	if (!o->pool)
		return diag_fail(mm->d, STATUS_ENOMEM, "out of memory");
	o->shadow.pool = o->pool;
	for (int k = 0; k < mm->fleet->npool; k++)
		o->pool[k].fleet = &o->shadow;
	if ((rc = serving_init(&o->serving, &o->sc, mm->eng, mm->meter, &o->shadow, mm->fleet->npool)))
		return rc;
	o->serving_up = true;
	tally_init(&o->tally, o->sc.slo.latency_us, sc->warmup_us);
	o->serving.tally = &o->tally;
	return STATUS_OK;
}

int multimodel_init(struct multimodel *mm, const struct scenario *sc, struct engine *eng, struct meter *meter,
		    struct fleet *fleet, struct diag *d)
{
	int rc;

	*mm = (struct multimodel){ .eng = eng, .meter = meter, .fleet = fleet, .d = d };
	mm->one = calloc((size_t)sc->nmodels, sizeof *mm->one);
	if (!mm->one)
		return diag_fail(d, STATUS_ENOMEM, "out of memory");
	mm->n = sc->nmodels;
	for (int i = 0; i < mm->n; i++)
		if ((rc = init_one(mm, &mm->one[i], sc, i)) != STATUS_OK)
			return rc;
	return STATUS_OK;
}

void multimodel_fini(struct multimodel *mm)
{
	for (int i = 0; mm->one && i < mm->n; i++) {
		struct multimodel_one *o = &mm->one[i];
		if (o->serving_up)
			serving_fini(&o->serving);
		if (o->wl_up)
			workload_fini(&o->wl);
		free(o->pool);
	}
	free(mm->one);
	mm->one = NULL;
	mm->n = 0;
}

void multimodel_start(struct multimodel *mm)
{
	for (int i = 0; i < mm->n; i++)
		next_arrival(&mm->one[i]);
}

/* Copy what serving reads of the real instance idx into the model's shadow; busy, cap and the requests in
 * service stay the model's own. */
static void mirror(struct multimodel *mm, struct multimodel_one *o, int idx)
{
	const struct instance *r = &mm->fleet->pool[idx];
	struct instance *s = &o->pool[idx];

	s->state = r->state;
	s->group = r->group;
	s->user = r->user;
	s->launch_us = r->launch_us;
	s->noticed = r->noticed;
	s->warm = r->warm;
	s->in_service = r->in_service;
}

void multimodel_instance_up(struct multimodel *mm, int idx)
{
	for (int i = 0; i < mm->n; i++) {
		mirror(mm, &mm->one[i], idx);
		serving_instance_up(&mm->one[i].serving, idx);
	}
}

void multimodel_instance_down(struct multimodel *mm, int idx)
{
	for (int i = 0; i < mm->n; i++) {
		mirror(mm, &mm->one[i], idx);
		serving_instance_down(&mm->one[i].serving, idx);
	}
}

void multimodel_reclaim(struct multimodel *mm, int idx)
{
	for (int i = 0; i < mm->n; i++) {
		mirror(mm, &mm->one[i], idx);
		serving_reclaim(&mm->one[i].serving, idx);
	}
}

void multimodel_stop(struct multimodel *mm)
{
	for (int i = 0; i < mm->n; i++)
		engine_cancel(mm->eng, &mm->one[i].arrival);
}

void multimodel_abandon(struct multimodel *mm)
{
	for (int i = 0; i < mm->n; i++)
		serving_abandon(&mm->one[i].serving);
}

int64_t multimodel_queue_len(const struct multimodel *mm)
{
	int64_t n = 0;

	for (int i = 0; i < mm->n; i++)
		n += serving_queue_len(&mm->one[i].serving);
	return n;
}

int multimodel_report(const struct multimodel *mm, struct sink_metric *list, int n)
{
	for (int i = 0; i < mm->n; i++)
		n = tally_report(&mm->one[i].tally, mm->one[i].name, list, n, METER_MAX_METRICS);
	return n;
}
