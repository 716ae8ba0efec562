/* metriclag: see metriclag.h. */
#include "metriclag.h"

#include <math.h>
#include <stdlib.h>

#include "status.h"

int metriclag_init(struct metriclag *m, int periods, int width)
{
	m->ring = NULL;
	m->periods = periods;
	m->width = width;
	m->pushed = 0;
	if (periods > 0 && !(m->ring = malloc((size_t)periods * (size_t)width * sizeof *m->ring)))
		return STATUS_ENOMEM;
	return STATUS_OK;
}

void metriclag_fini(struct metriclag *m)
{
	free(m->ring);
	m->ring = NULL;
}

void metriclag_push(struct metriclag *m, double *v)
{
	double *slot;

	if (m->periods == 0)
		return;
	slot = m->ring + (m->pushed % m->periods) * m->width;
	for (int i = 0; i < m->width; i++) {
		double old = m->pushed >= m->periods ? slot[i] : NAN;
		slot[i] = v[i];
		v[i] = old;
	}
	m->pushed++;
}
