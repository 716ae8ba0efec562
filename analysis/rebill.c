/* rebill: see rebill.h. */
#include "rebill.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

double rebill_ris(const struct savings_hour *hours, int n, const struct savings_ri_terms *ris, int nris,
		  struct savings_hour *left)
{
	struct savings_result res;
	double covered = 0;

	if (left && left != hours && n > 0)
		memcpy(left, hours, sizeof *left * (size_t)n);
	if (nris == 0 || n == 0)
		return 0;
	savings_settle_all(hours, n, ris, nris, NULL, 0, &res);
	for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
		covered += res.ri_covered_usd[k];
	if (left)
		savings_after_ris(left, n, ris, nris);
	return res.ri_commit_usd - covered;
}

double rebill_plan(const struct savings_hour *hours, int n, double commit_usd_per_h, double discount, double *util)
{
	struct savings_plan_terms plan = { .commit_usd_per_h = commit_usd_per_h, .discount = discount };
	struct savings_result res;
	double covered = 0;

	if (commit_usd_per_h <= 0 || n == 0) {
		if (util)
			*util = NAN;
		return 0;
	}
	savings_settle(hours, n, &plan, 1, &res);
	for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
		covered += res.covered_usd[k];
	if (util)
		*util = res.commit_usd > 0 ? (res.commit_usd - res.unused_usd) / res.commit_usd : NAN;
	return res.commit_usd - covered;
}

/* Sort helper: descending by breakpoint. */
struct bp {
	double b;  /* (1 - d) u_h / len_h */
	double w;  /* len_h */
};

static int bp_desc(const void *a, const void *b)
{
	double x = ((const struct bp *)a)->b, y = ((const struct bp *)b)->b;
	return (x < y) - (x > y);
}

int rebill_sp_optimum(const struct savings_hour *hours, int n, double discount, double *usd_per_h)
{
	struct bp *bp = malloc(sizeof *bp * (size_t)(n > 0 ? n : 1));
	double total_w = 0, above = 0, best = 0, lo, hi;

	if (!bp)
		return STATUS_ENOMEM;
	for (int h = 0; h < n; h++) {
		double u = 0;
		for (int k = 0; k < SAVINGS_USAGE_COUNT; k++)
			u += hours[h].usd[k];
		bp[h].b = (1 - discount) * u / hours[h].len_h;
		bp[h].w = hours[h].len_h;
		total_w += bp[h].w;
	}
	qsort(bp, (size_t)n, sizeof *bp, bp_desc);
	/* walk the distinct breakpoints downwards; F(v) = weight strictly above v; keep the last v with
	 * F(v) <= (1 - d) W (F only grows as v falls) */
	for (int i = 0; i < n;) {
		double v = bp[i].b, group = 0;
		if (v <= 0 || above > (1 - discount) * total_w * (1 + 1e-12))
			break;
		best = v;
		for (; i < n && bp[i].b == v; i++)
			group += bp[i].w;
		above += group;
	}
	/* below the smallest positive breakpoint F is the weight of every hour with usage: when that too is at
	 * most (1 - d) W, the slope is >= 0 from c = 0 on and no plan is the cheapest */
	if (above <= (1 - discount) * total_w * (1 + 1e-12))
		best = 0;
	free(bp);
	/* on the grid of cents: f is convex, so the best cent is one of the two around the exact minimiser */
	lo = floor(best * 100 + 1e-9) / 100;
	hi = ceil(best * 100 - 1e-9) / 100;
	if (hi > lo && rebill_plan(hours, n, hi, discount, NULL) < rebill_plan(hours, n, lo, discount, NULL) - 1e-9)
		lo = hi;
	*usd_per_h = lo;
	return STATUS_OK;
}

/* Append hour u to out[*n] placed at t_h, cut to the first frac of it (0 < frac <= 1). */
static void place(struct savings_hour *out, int *n, const struct savings_hour *u, double t_h, double frac)
{
	struct savings_hour *h = &out[(*n)++];

	*h = *u;
	h->t0_h = t_h;
	h->len_h = u->len_h * frac;
	for (int k = 0; k < SAVINGS_USAGE_COUNT; k++) {
		h->usd[k] *= frac;
		for (int t = 0; t < h->ntypes; t++)
			h->type_usd[k][t] *= frac;
	}
}

int rebill_term_of_windows(const struct savings_hour *const *win, const int *nwin_h, int nwin, double term_h,
			   struct savings_hour **out, int *nout)
{
	long cap = 0;
	int n = 0;
	struct savings_hour *all;

	for (int i = 0; i < nwin; i++) {
		double span = 0;
		for (int h = 0; h < nwin_h[i]; h++)
			span += win[i][h].len_h;
		if (nwin_h[i] == 0 || span <= 0)
			return STATUS_EINPUT;
		/* a segment holds at most one more repetition of its window than it has whole ones */
		cap += (long)ceil(term_h / nwin / span + 1) * nwin_h[i];
	}
	if (!(all = malloc(sizeof *all * (size_t)(cap > 0 ? cap : 1))))
		return STATUS_ENOMEM;
	for (int i = 0; i < nwin; i++) {
		double t = term_h * i / nwin, end = term_h * (i + 1) / nwin;
		for (int h = 0; t < end - 1e-9; h = (h + 1) % nwin_h[i]) {
			double len = win[i][h].len_h, frac = t + len > end ? (end - t) / len : 1;
			place(all, &n, &win[i][h], t, frac);
			t += len * frac;
		}
	}
	*out = all;
	*nout = n;
	return STATUS_OK;
}
