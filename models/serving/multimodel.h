/*
 * multimodel: several models served on one fleet, each on its own MIG partitions (models/README.md "Several models
 * and MIG partitions"; scenario `models` and `serving.partitions`).
 *
 * Each model has its own traffic (a workload with its own random streams: the scenario's seed mixed with
 * the model's name), its own FIFO queue and its own slots on every instance: one per partition of its
 * profile, GPUs x the layout's count (SOURCES.md [sm-mig-copy]). Partitions are isolated hardware, so a
 * model's requests are served only by its own slots; the models share the instances and so the bill,
 * which the fleet keeps once per instance whatever its partitions.
 *
 * Each model is a `serving` (serving.h) of a scenario derived from the parent (the model's slo, workload,
 * service and slots), on a shadow of the fleet: a copy of the fleet's struct whose pool is the model's own
 * array of instances, mirroring the real ones' state at every up/down, so that each model keeps its own
 * busy slots and requests in service per instance. All servings report to the one meter, which so holds
 * the totals (each request judged against its own model's latency threshold); each model's counts are in
 * its tally (tally.h). Arrivals of all models are events on the one engine, ordered by (time, sequence):
 * merged in time order, deterministically.
 *
 * Only a fixed fleet is supported: no autoscaling, and options whose instances are not taken away
 * (scenario_models.c refuses the rest), so an instance never drains under a model's requests.
 */
#ifndef GPUCAP_MULTIMODEL_H
#define GPUCAP_MULTIMODEL_H

#include "diag.h"
#include "engine.h"
#include "fleet.h"
#include "meter.h"
#include "scenario.h"
#include "serving.h"
#include "tally.h"
#include "workload.h"

struct multimodel;

struct multimodel_one {
	struct multimodel *mm;       /* owner, kept */
	const char *name;            /* the model's name, kept (the scenario's) */
	struct scenario sc;          /* the derived scenario: borrows the parent's owned pointers, never fini'd */
	struct workload wl;
	struct fleet shadow;         /* the fleet as this model sees it; pool is `pool` */
	struct instance *pool;       /* owned, npool entries */
	struct serving serving;
	struct tally tally;
	struct request_draw next;    /* its arrival scheduled next */
	struct event arrival;
	bool wl_up, serving_up;      /* what init set up, for fini */
};

struct multimodel {
	struct engine *eng;          /* kept */
	struct meter *meter;         /* kept */
	struct fleet *fleet;         /* the real fleet, kept */
	struct diag *d;              /* kept */
	int n;                       /* models */
	struct multimodel_one *one;  /* owned, n */
};

/* Set up sc's models (sc->nmodels > 0) on fleet (after fleet_init). STATUS_OK, or a failure in d; either
 * way multimodel_fini undoes it. */
int multimodel_init(struct multimodel *mm, const struct scenario *sc, struct engine *eng, struct meter *meter,
		    struct fleet *fleet, struct diag *d);
void multimodel_fini(struct multimodel *mm);

/* Schedule each model's first arrival. */
void multimodel_start(struct multimodel *mm);

/* The fleet's serving user hooks, forwarded to every model (fleet.h). */
void multimodel_instance_up(struct multimodel *mm, int idx);
void multimodel_instance_down(struct multimodel *mm, int idx);
void multimodel_reclaim(struct multimodel *mm, int idx);

/* At the horizon: no more arrivals. After the drain: drop what can never be served. */
void multimodel_stop(struct multimodel *mm);
void multimodel_abandon(struct multimodel *mm);

/* Requests waiting in all the models' queues. */
int64_t multimodel_queue_len(const struct multimodel *mm);

/* Append each model's metrics (tally_report) to list at n (of METER_MAX_METRICS); returns the new count. */
int multimodel_report(const struct multimodel *mm, struct sink_metric *list, int n);

#endif
