/* mme: see mme.h. */
#include "mme.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "status.h"

int mme_init(struct mme *m, const struct scenario *sc, int npool, int64_t warmup_us)
{
	size_t cells = (size_t)(npool > 0 ? npool : 1) * (size_t)sc->mme.n;
	size_t inst = (size_t)npool + 1;

	memset(m, 0, sizeof *m);
	m->sc = sc;
	m->npool = npool;
	m->nmodels = sc->mme.n;
	m->mem_kb = llround(sc->mme.memory_gb * 1e6);
	m->warmup_us = warmup_us;
	m->acct_us = 0;
	hist_init(&m->wait);
	m->size_kb = malloc((size_t)sc->mme.n * sizeof *m->size_kb);
	m->ready_us = malloc(cells * sizeof *m->ready_us);
	m->last_us = calloc(cells, sizeof *m->last_us);
	m->refs = calloc(cells, sizeof *m->refs);
	m->used_kb = calloc(inst, sizeof *m->used_kb);
	m->pinned_kb = calloc(inst, sizeof *m->pinned_kb);
	m->nloaded = calloc(inst, sizeof *m->nloaded);
	m->open = calloc(inst, sizeof *m->open);
	if (!m->size_kb || !m->ready_us || !m->last_us || !m->refs || !m->used_kb || !m->pinned_kb ||
	    !m->nloaded || !m->open) {
		mme_fini(m);
		return STATUS_ENOMEM;
	}
	for (int k = 0; k < m->nmodels; k++)
		m->size_kb[k] = llround(sc->mme.models[k].size_gb * 1e6);
	for (size_t c = 0; c < cells; c++)
		m->ready_us[c] = -1;
	return STATUS_OK;
}

void mme_fini(struct mme *m)
{
	free(m->size_kb);
	free(m->ready_us);
	free(m->last_us);
	free(m->refs);
	free(m->used_kb);
	free(m->pinned_kb);
	free(m->nloaded);
	free(m->open);
	memset(m, 0, sizeof *m);
}

static size_t cell(const struct mme *m, int idx, int k)
{
	assert(idx >= 0 && idx < m->npool && k >= 0 && k < m->nmodels);
	return (size_t)idx * (size_t)m->nmodels + (size_t)k;
}

/* Bring the loaded-models integrals up to now, within [warmup, horizon). */
static void account(struct mme *m, int64_t now_us)
{
	int64_t from = m->acct_us > m->warmup_us ? m->acct_us : m->warmup_us;
	int64_t to = now_us < m->sc->horizon_us ? now_us : m->sc->horizon_us;

	if (to > from) {
		m->loaded_int += (double)m->loaded_open * (double)(to - from);
		m->open_int += (double)m->nopen * (double)(to - from);
	}
	m->acct_us = now_us;
}

bool mme_has(const struct mme *m, int idx, int k)
{
	return m->ready_us[cell(m, idx, k)] >= 0;
}

bool mme_room(const struct mme *m, int idx, int k)
{
	return m->used_kb[idx] + m->size_kb[k] <= m->mem_kb;
}

bool mme_fits(const struct mme *m, int idx, int k)
{
	return mme_has(m, idx, k) || m->pinned_kb[idx] + m->size_kb[k] <= m->mem_kb;
}

/* Unload model k from instance idx (loaded, unused). */
static void unload(struct mme *m, int idx, int k, int64_t now_us)
{
	size_t c = cell(m, idx, k);

	assert(m->ready_us[c] >= 0 && m->refs[c] == 0);
	account(m, now_us);
	m->ready_us[c] = -1;
	m->used_kb[idx] -= m->size_kb[k];
	m->nloaded[idx]--;
	if (m->open[idx])
		m->loaded_open--;
	assert(m->used_kb[idx] >= 0 && m->nloaded[idx] >= 0);
}

/* The least recently used model loaded on idx that no request uses (ties: the lower index), or -1.
 * SOURCES.md [mme-lru-assumed]. */
static int lru_victim(const struct mme *m, int idx)
{
	int best = -1;

	for (int k = 0; k < m->nmodels; k++) {
		size_t c = cell(m, idx, k);
		if (m->ready_us[c] < 0 || m->refs[c] > 0)
			continue;
		if (best < 0 || m->last_us[c] < m->last_us[cell(m, idx, best)])
			best = k;
	}
	return best;
}

/* Start loading model k on idx now, unloading the least recently used unused models until it fits. */
static void load(struct mme *m, int idx, int k, int64_t now_us)
{
	size_t c = cell(m, idx, k);

	while (m->used_kb[idx] + m->size_kb[k] > m->mem_kb) {
		int v = lru_victim(m, idx);
		assert(v >= 0);  /* mme_fits held: the unused models free enough */
		unload(m, idx, v, now_us);
		if (now_us >= m->warmup_us)
			m->evictions++;
	}
	account(m, now_us);
	m->ready_us[c] = now_us + m->sc->mme.models[k].load_us;
	m->used_kb[idx] += m->size_kb[k];
	m->nloaded[idx]++;
	if (m->open[idx])
		m->loaded_open++;
	if (now_us >= m->warmup_us)
		m->loads++;
}

int64_t mme_admit(struct mme *m, int idx, int k, int64_t now_us, int64_t arrival_us)
{
	size_t c = cell(m, idx, k);
	bool hit = m->ready_us[c] >= 0 && m->ready_us[c] <= now_us;
	int64_t wait_us;

	assert(mme_fits(m, idx, k));
	if (m->ready_us[c] < 0)  /* SOURCES.md [mme-load-on-demand] */
		load(m, idx, k, now_us);
	if (m->refs[c]++ == 0)
		m->pinned_kb[idx] += m->size_kb[k];
	m->last_us[c] = now_us;
	wait_us = hit ? 0 : m->ready_us[c] - now_us;
	if (arrival_us >= m->warmup_us) {
		m->admissions++;
		if (hit)
			m->hits++;
		else
			hist_add(&m->wait, (double)wait_us / SIM_US_PER_S);
	}
	return wait_us;
}

void mme_release(struct mme *m, int idx, int k, int64_t now_us)
{
	size_t c = cell(m, idx, k);

	assert(m->refs[c] > 0);
	m->last_us[c] = now_us;
	if (--m->refs[c] > 0)
		return;
	m->pinned_kb[idx] -= m->size_kb[k];
	if (!m->open[idx])  /* its instance has stopped serving: nothing will use it there again */
		unload(m, idx, k, now_us);
}

void mme_set_open(struct mme *m, int idx, bool open, int64_t now_us)
{
	if (open == m->open[idx])
		return;
	account(m, now_us);
	m->open[idx] = open;
	m->nopen += open ? 1 : -1;
	m->loaded_open += (open ? 1 : -1) * m->nloaded[idx];
	if (open)
		return;
	for (int k = 0; k < m->nmodels; k++)
		if (m->ready_us[cell(m, idx, k)] >= 0 && m->refs[cell(m, idx, k)] == 0)
			unload(m, idx, k, now_us);
}

void mme_report(struct mme *m, int64_t horizon_us, struct meter_mme *out)
{
	account(m, horizon_us);
	out->used = true;
	out->hit_ratio = m->admissions > 0 ? (double)m->hits / (double)m->admissions : NAN;
	out->wait_mean_s = hist_mean(&m->wait);
	out->wait_p99_s = hist_quantile(&m->wait, 0.99);
	out->loaded_per_instance = m->open_int > 0 ? m->loaded_int / m->open_int : NAN;
	out->loads = m->loads;
	out->evictions = m->evictions;
}
