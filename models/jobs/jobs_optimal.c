/*
 * jobs_optimal: the offline optimum of a deadline job on Spot + On-Demand (the model is in jobs_optimal.h).
 *
 * The grid is built once (its boundaries, which steps allow Spot, each step's Spot and On-Demand cost and a
 * prefix sum of the Spot costs for the first-hour refund); then a backward dynamic programme runs over the
 * steps with two layers of (remaining progress q, mode) cells. A mode is idle, Spot with the segment's age
 * in steps, or On-Demand with its age; ages are capped where they stop mattering (the overhead is over and,
 * for Spot with first_hour_free, the segment is surely an hour old). Each cell keeps the minimum cost from
 * that boundary on and the hours of the optimal continuation, so the hours of one optimal plan come out
 * without storing decisions. O(steps x q x modes) time, O(steps + q x modes) memory.
 */
#include "jobs_optimal.h"

#include <math.h>
#include <stdlib.h>

#include "status.h"

#define US_PER_H 3.6e9
/* AWS: "Interrupted in the first hour: No charge" (SOURCES.md [spot-billing]) */
#define FREE_HOUR_US (3600 * (int64_t)1000000)

/* The grid: nstep steps, step s covering [b[s], b[s + 1]). */
struct grid {
	int nstep;          /* steps from submit to the deadline */
	int64_t *b;         /* nstep + 1 boundaries, us */
	bool *usable;       /* Spot usable during step s */
	double *c_spot;     /* the gang's Spot cost of step s, USD */
	double *c_od;       /* its On-Demand cost, USD */
	double *p_spot;     /* nstep + 1: p_spot[s] = sum of c_spot[0 .. s), USD */
};

/* One DP cell: the minimum cost from a boundary on, and the hours of that optimal continuation. */
struct cell {
	double c;
	double od_h;
	double spot_h;
};

static int64_t gcd64(int64_t a, int64_t b)
{
	while (b != 0) {
		int64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

static bool valid(const struct jobs_opt_input *in)
{
	if (in->submit_us < 0 || in->submit_us >= in->deadline_us || in->compute_us < 0 || in->instances < 1 ||
	    in->avail == NULL || in->navail < 1 || in->gap_us <= 0 || in->overhead_spot_us < 0 ||
	    in->overhead_od_us < 0 || in->hour_us < 0 || in->resolution_us < 0)
		return false;
	for (int i = 0; i < in->navail; i++)
		if (in->avail[i] < 0)
			return false;
	if (!(in->od_usd_per_h >= 0 && isfinite(in->od_usd_per_h)))
		return false;
	return in->spot_price != NULL || (in->spot_usd_per_h >= 0 && isfinite(in->spot_usd_per_h));
}

/* The automatic delta before coarsening (jobs_optimal.h). */
static int64_t auto_resolution(const struct jobs_opt_input *in)
{
	int64_t gap = in->gap_us, g = gcd64(gcd64(gap, in->overhead_spot_us), in->overhead_od_us);
	int64_t d;

	/* T, the submission's place in its tick and the window too, so that nothing is rounded when they allow */
	g = gcd64(gcd64(gcd64(g, in->compute_us), in->submit_us % gap), in->deadline_us - in->submit_us);

	if (g % 1000000 == 0 && 60 * g >= gap)
		return g;
	if (gap % 1000000 != 0)
		return 1000000;
	d = gap / 60 / 1000000 * 1000000;
	if (d < 1000000)
		d = 1000000;
	while (d > 1000000 && gap % d != 0)
		d -= 1000000;
	return d;
}

/* True when delta d leaves more work than the automatic resolution allows. */
static bool too_fine(const struct jobs_opt_input *in, int64_t d)
{
	int64_t window = in->deadline_us - in->submit_us;

	return (double)(window / d) * (double)(in->compute_us / d + 1) > JOBS_OPT_MAX_WORK ||
	       (double)(window / d) > JOBS_OPT_MAX_STEPS;
}

/* The next whole-second divisor of gap above d; gap itself when there is none below it (or gap is not a
 * whole number of seconds). A step never spans a tick, so no delta above gap is of use. */
static int64_t coarser(int64_t gap, int64_t d)
{
	if (gap % 1000000 == 0)
		for (int64_t c = (d / 1000000 + 1) * 1000000; c < gap; c += 1000000)
			if (gap % c == 0)
				return c;
	return gap;
}

int64_t jobs_opt_resolution(const struct jobs_opt_input *in)
{
	int64_t d;

	if (in->resolution_us > 0)
		return in->resolution_us;
	d = auto_resolution(in);
	/* Coarsen until the work is bounded, through divisors of gap, so that every step inside a tick is delta
	 * long and the progress counted is the true progress (the figure stays a lower bound: overheads and T
	 * are rounded down). Doubling past a divisor would count a short step at a tick's end as a whole delta
	 * of progress: with 195 s ticks and delta 60 s, 240 s of progress per tick of 195 s. */
	while (d < in->gap_us && too_fine(in, d))
		d = coarser(in->gap_us, d);
	return d;
}

static void grid_free(struct grid *g)
{
	free(g->b);
	free(g->usable);
	free(g->c_spot);
	free(g->c_od);
	free(g->p_spot);
}

/* The end of the step that begins at t: delta later, cut at the next tick boundary and the deadline. */
static int64_t step_end(const struct jobs_opt_input *in, int64_t t, int64_t d)
{
	int64_t e = t + d, tick = (t / in->gap_us + 1) * in->gap_us;

	if (tick < e)
		e = tick;
	return e < in->deadline_us ? e : in->deadline_us;
}

/* Build the grid for delta d. Returns STATUS_OK, STATUS_ENOMEM or STATUS_EINPUT (a bad Spot price); on
 * failure nothing is left allocated. */
static int grid_init(struct grid *g, const struct jobs_opt_input *in, int64_t d)
{
	int n = 0;
	double scale = in->instances / US_PER_H;

	for (int64_t t = in->submit_us; t < in->deadline_us; t = step_end(in, t, d))
		n++;
	*g = (struct grid){ .nstep = n };
	g->b = malloc((size_t)(n + 1) * sizeof(*g->b));
	g->usable = malloc((size_t)n * sizeof(*g->usable));
	g->c_spot = malloc((size_t)n * sizeof(*g->c_spot));
	g->c_od = malloc((size_t)n * sizeof(*g->c_od));
	g->p_spot = malloc((size_t)(n + 1) * sizeof(*g->p_spot));
	if (g->b == NULL || g->usable == NULL || g->c_spot == NULL || g->c_od == NULL || g->p_spot == NULL) {
		grid_free(g);
		return STATUS_ENOMEM;
	}
	g->b[0] = in->submit_us;
	g->p_spot[0] = 0;
	for (int s = 0; s < n; s++) {
		int64_t t = g->b[s], len;
		double price = in->spot_price ? in->spot_price(in->price_ctx, t) : in->spot_usd_per_h;

		if (!(price >= 0 && isfinite(price))) {
			grid_free(g);
			return STATUS_EINPUT;
		}
		g->b[s + 1] = step_end(in, t, d);
		len = g->b[s + 1] - t;
		g->usable[s] = in->avail[(t / in->gap_us) % in->navail] >= in->instances;
		g->c_spot[s] = scale * price * (double)len;
		g->c_od[s] = scale * in->od_usd_per_h * (double)len;
		g->p_spot[s + 1] = g->p_spot[s] + g->c_spot[s];
	}
	return STATUS_OK;
}

/* The smallest age a (in steps) such that every segment of a or more steps ending at any boundary is at
 * least hour_us long; a segment ending at boundary t has at most t steps, so t + 1 bounds it there. */
static int hour_steps(const struct grid *g, int64_t hour_us)
{
	int amax = 1, lo = 0;

	/* lo: the latest boundary at least an hour before t (or 0), moving forward with t */
	for (int t = 1; t <= g->nstep; t++) {
		int a;

		while (lo + 1 <= t && g->b[t] - g->b[lo + 1] >= hour_us)
			lo++;
		a = g->b[t] - g->b[lo] >= hour_us ? t - lo : t + 1;
		if (a > amax)
			amax = a;
	}
	return amax;
}

/* True if (c, od_h) is better than *best: cheaper, or as cheap (to 1e-12 relative) with less On-Demand.
 * Inline and without fmax (a libm call): this is the DP's inner loop. */
static inline bool better(double c, double od_h, const struct cell *best)
{
	double b = best->c, ac = fabs(c), ab = fabs(b), eps;

	if (c == INFINITY)
		return false;
	if (b == INFINITY)
		return true;
	eps = 1e-12 * (ac > ab ? ac : ab);
	return c < b - eps || (c <= b + eps && od_h < best->od_h);
}

/* A candidate: pay `cost` in this step and continue from cell nx; the step runs od_h or spot_h hours. */
static inline struct cell cand(double cost, const struct cell *nx, double od_h, double spot_h)
{
	return (struct cell){ cost + nx->c, nx->od_h + od_h, nx->spot_h + spot_h };
}

static inline void take(struct cell *best, struct cell c, double refund)
{
	if (better(c.c - refund, c.od_h, best))
		*best = (struct cell){ c.c - refund, c.od_h, c.spot_h };
}

/* The DP's shape: ages in steps and the index of each mode in a row of m cells. */
struct shape {
	int as;              /* the Spot overhead, steps (rounded down) */
	int ao;              /* the On-Demand overhead, steps (rounded down) */
	int caps;            /* the largest Spot age kept, steps (>= 1) */
	int capo;            /* the largest On-Demand age kept, steps (>= 1) */
	int m;               /* cells per q: idle, Spot ages 1 .. caps, On-Demand ages 1 .. capo */
	bool fhf;            /* first_hour_free */
	int64_t hour_us;     /* the free hour, us */
};

/* The refund at boundary s of a Spot segment of age a (1 .. caps) into refund[a]: its cost so far if Spot
 * ends it there (unusable in step s) with first_hour_free and it is under an hour old, else 0. */
static void refunds(const struct grid *g, const struct shape *sh, int s, double *refund)
{
	for (int a = 1; a <= sh->caps; a++) {
		refund[a] = 0;
		if (!g->usable[s] && sh->fhf && a <= s && g->b[s] - g->b[s - a] < sh->hour_us)
			refund[a] = g->p_spot[s] - g->p_spot[s - a];
	}
}

/* Fill the layer for boundary s (cur) from the one for s + 1 (nx); refund as refunds() made it. */
static void dp_step(const struct grid *g, const struct shape *sh, int s, int q_max, const struct cell *nx,
		    struct cell *cur, const double *refund)
{
	const int m = sh->m, so = 0, oo = sh->caps;   /* Spot age a at so + a, On-Demand age a at oo + a */
	const double len_h = (double)(g->b[s + 1] - g->b[s]) / US_PER_H, inf = INFINITY;
	const bool up = g->usable[s];

	for (int k = 0; k < m; k++)
		cur[k] = (struct cell){ 0, 0, 0 };
	for (int q = 1; q <= q_max; q++) {
		struct cell *row = cur + (size_t)q * m;
		const struct cell *n0 = nx + (size_t)q * m, *n1 = nx + (size_t)(q - 1) * m;
		struct cell idle = cand(0, n0, 0, 0), odn, spn = { inf, 0, 0 };

		if (q > g->nstep - s) {   /* not enough steps left even running throughout */
			for (int k = 0; k < m; k++)
				row[k] = (struct cell){ inf, 0, 0 };
			continue;
		}
		odn = cand(g->c_od[s], (sh->ao == 0 ? n1 : n0) + oo + 1, len_h, 0);
		if (up)
			spn = cand(g->c_spot[s], (sh->as == 0 ? n1 : n0) + so + 1, 0, len_h);
		/* previous step idle */
		row[0] = idle;
		take(&row[0], odn, 0);
		take(&row[0], spn, 0);
		/* previous step On-Demand of age a: continuing keeps the segment */
		for (int a = 1; a <= sh->capo; a++) {
			int na = a < sh->capo ? a + 1 : a;
			struct cell *c = &row[oo + a];

			*c = idle;
			take(c, cand(g->c_od[s], (a >= sh->ao ? n1 : n0) + oo + na, len_h, 0), 0);
			take(c, spn, 0);
		}
		/* previous step Spot of age a: continue if Spot is still usable, else the segment is ended by
		 * force, and with first_hour_free its cost so far is refunded if it is under an hour old */
		for (int a = 1; a <= sh->caps; a++) {
			int na = a < sh->caps ? a + 1 : a;
			struct cell *c = &row[so + a];

			*c = (struct cell){ inf, 0, 0 };
			take(c, idle, refund[a]);
			take(c, odn, refund[a]);
			if (up)
				take(c, cand(g->c_spot[s], (a >= sh->as ? n1 : n0) + so + na, 0, len_h), 0);
		}
	}
}

/* Run the DP over the grid for q units of progress; writes the start's cell (idle at submit). */
static int dp_run(const struct grid *g, const struct shape *sh, int q, struct cell *start)
{
	size_t n = (size_t)(q + 1) * sh->m;
	struct cell *nx = malloc(n * sizeof(*nx)), *cur = malloc(n * sizeof(*cur));
	double *refund = malloc((size_t)(sh->caps + 1) * sizeof(*refund));

	if (nx == NULL || cur == NULL || refund == NULL) {
		free(nx);
		free(cur);
		free(refund);
		return STATUS_ENOMEM;
	}
	for (size_t k = 0; k < n; k++)   /* at the deadline: done if no progress is left */
		nx[k] = (struct cell){ k < (size_t)sh->m ? 0 : INFINITY, 0, 0 };
	for (int s = g->nstep - 1; s >= 0; s--) {
		struct cell *t;

		refunds(g, sh, s, refund);
		dp_step(g, sh, s, q, nx, cur, refund);
		t = nx;
		nx = cur;
		cur = t;
	}
	*start = nx[(size_t)q * sh->m];
	free(nx);
	free(cur);
	free(refund);
	return STATUS_OK;
}

int jobs_opt_solve(const struct jobs_opt_input *in, struct jobs_opt_result *out)
{
	struct grid g;
	struct shape sh;
	struct cell best;
	int64_t d, q;
	int rc;

	if (!valid(in))
		return STATUS_EINPUT;
	d = jobs_opt_resolution(in);
	if (in->resolution_us == 0 && too_fine(in, d))
		return STATUS_EINPUT;  /* even one step per tick is more work than the bound */
	q = in->compute_us / d;
	/* the steps number at most window / d + window / gap + 2; both they and q must fit an int */
	if (q > INT32_MAX / 2 || (in->deadline_us - in->submit_us) / d > INT32_MAX / 4 ||
	    (in->deadline_us - in->submit_us) / in->gap_us > INT32_MAX / 4)
		return STATUS_EINPUT;
	rc = grid_init(&g, in, d);
	if (rc != STATUS_OK)
		return rc;
	sh = (struct shape){
		.as = (int)(in->overhead_spot_us / d < INT32_MAX / 2 ? in->overhead_spot_us / d : INT32_MAX / 2),
		.ao = (int)(in->overhead_od_us / d < INT32_MAX / 2 ? in->overhead_od_us / d : INT32_MAX / 2),
		.fhf = in->first_hour_free,
		.hour_us = in->hour_us > 0 ? in->hour_us : FREE_HOUR_US,
	};
	/* An age past the steps there are never happens: cap the overheads there too. */
	if (sh.as > g.nstep)
		sh.as = g.nstep + 1;
	if (sh.ao > g.nstep)
		sh.ao = g.nstep + 1;
	sh.caps = sh.as > 1 ? sh.as : 1;
	sh.capo = sh.ao > 1 ? sh.ao : 1;
	if (sh.fhf) {
		int h = hour_steps(&g, sh.hour_us);

		if (h > sh.caps)
			sh.caps = h;
	}
	sh.m = 1 + sh.caps + sh.capo;
	rc = dp_run(&g, &sh, (int)q, &best);
	grid_free(&g);
	if (rc != STATUS_OK)
		return rc;
	if (!isfinite(best.c)) {
		*out = (struct jobs_opt_result){ INFINITY, 0, 0, d };
		return STATUS_DONE;
	}
	*out = (struct jobs_opt_result){ best.c, best.spot_h, best.od_h, d };
	return STATUS_OK;
}
