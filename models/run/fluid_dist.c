/*
 * fluid_dist: the latency distribution of a fluid run's served requests, bucket by bucket (fluid.h).
 *
 * A served request's latency is L = W + S, S the service time and W its wait: none, a fixed w (the fluid
 * queue's drain times), or exponential of mean m truncated at the queue timeout tau (the stationary part: a
 * request waiting longer than tau times out instead). A row holds, for each histogram bucket [a, b), the
 * share P(a <= L < b) = F(b) - F(a), F the distribution function of L:
 *   - a fixed w: F(x) = P(S <= x - w);
 *   - an exponential wait: with H(x) = P(W' + S <= x) for W' exponential of mean m, untruncated, and W''s
 *     lack of memory (P(W' + S <= x, W' > tau) = e^(-tau/m) H(x - tau)), F(x) = (H(x) - e^(-tau/m)
 *     H(x - tau)) / (1 - e^(-tau/m)), and F = H without a timeout. For a constant S, H(x) = 1 - e^(-(x - S)/m)
 *     past S. Otherwise H = P(S <= x) - J(x), J(x) = integral_0^x f(s) e^(-(x - s)/m) ds (f the density of
 *     S), built edge by edge: J(b) = e^(-(b - a)/m) J(a) + integral_a^b f(s) e^(-(b - s)/m) ds, that last
 *     integral exact for f linear between f(a) and f(b) (product integration: the kernel may be much steeper
 *     than a bucket is wide when m is small) and scaled by the bucket's exact mass P(a < S <= b) over the
 *     linear f's, (f(a) + f(b)) (b - a) / 2, so that J tends to P(S <= x) exactly as m grows. H(x - tau),
 *     between edges, is one partial step on from the edge below. check_fluid compares rows with the closed
 *     form for exponential S (a hypoexponential), with and without a timeout, and with a convolution
 *     integrated another way for lognormal S.
 * A row covers the buckets from S's 1e-12-quantile to its (1 - 1e-12)-quantile plus the wait's: w, or
 * min(tau, 27.6 m) (P(W' > 27.6 m) = 1e-12); the mass beyond falls into its first and last bucket. Masses are
 * in mass indices (hist_add_mass): 0 below HIST_MIN_S, i + 1 for bucket i.
 */
#include "fluid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "status.h"

#define EPS 1e-12               /* a row leaves this much of S, and of the wait, outside its buckets */
#define TAIL 27.631021115928547  /* -ln EPS: P(W' > TAIL m) = EPS */
#define GRID_LO 1e-3            /* both grids start at E[S] x this */
#define W_RATIO 1.02            /* the grid of fixed waits */
#define M_RATIO 1.02            /* the grid of exponential means */
#define TOP_S 1e7               /* both grids' top without a timeout (the histogram's last bucket: 1.6e7 s) */
#define M_TOP_TAU 100.0         /* with one, the means' grid ends at 100 tau: beyond, the truncated wait is
                                   uniform on [0, tau] to within 1% */
#define NMASS (HIST_BUCKETS + 1)  /* mass indices */
#define NEDGE (HIST_BUCKETS + 2)  /* their edges, the last +infinity */
#define SQRT_2PI 2.5066282746310002

/* The mass index of a value. */
static int index_of(double v_s)
{
	return hist_bucket(v_s) + 1;
}

/* The u-quantile of S (0 < u < 1). */
static double quantile(const struct fluid_model *md, double u)
{
	switch (md->kind) {
	case SERVICE_CONSTANT:
		return md->mean_s;
	case SERVICE_EXPONENTIAL:
		return -md->mean_s * log1p(-u);
	default: {
		double s2 = log1p(md->cv * md->cv), mu = log(md->mean_s) - 0.5 * s2;
		return exp(mu + sqrt(s2) * gsl_cdf_ugaussian_Pinv(u));
	}
	}
}

/* S's density at x (0 for a constant S, which has none). */
static double density(const struct fluid_model *md, double x)
{
	if (x < 0)
		return 0;
	switch (md->kind) {
	case SERVICE_EXPONENTIAL:
		return exp(-x / md->mean_s) / md->mean_s;
	case SERVICE_LOGNORMAL: {
		double s2 = log1p(md->cv * md->cv), sd = sqrt(s2), z;
		if (x <= 0 || isinf(x))
			return 0;
		z = (log(x) - (log(md->mean_s) - 0.5 * s2)) / sd;
		return exp(-0.5 * z * z) / (x * sd * SQRT_2PI);
	}
	default:
		return 0;
	}
}

/* The wait of fixed row r (< nd), the mean of exponential row r (>= nd). */
static double row_w(const struct fluid_dist *d, int r)
{
	return r == 0 ? 0 : d->w_lo * exp((r - 1) * d->w_step);
}

static double row_m(const struct fluid_dist *d, int r)
{
	return d->m_lo * exp((r - d->nd) * d->m_step);
}

/* The top of an exponential wait of mean m: where a row of it ends. */
static double wait_top(const struct fluid_dist *d, double m)
{
	double top = TAIL * m;

	return d->md.timeout_s > 0 && d->md.timeout_s < top ? d->md.timeout_s : top;
}

int fluid_dist_init(struct fluid_dist *d, const struct fluid_model *md)
{
	double tau = md->timeout_s, w_top = tau > 0 ? tau : TOP_S, m_top = tau > 0 ? M_TOP_TAU * tau : TOP_S;
	double q_lo = quantile(md, EPS), q_hi = quantile(md, 1 - EPS);
	size_t total = 0;

	memset(d, 0, sizeof *d);
	d->md = *md;
	d->md.vtab = NULL;
	d->w_lo = d->m_lo = GRID_LO * md->mean_s;
	d->w_step = log(W_RATIO);
	d->m_step = log(M_RATIO);
	/* rows 1 .. nd - 1 at w_lo R^(k - 1), the last at or past w_top; the exponential rows likewise */
	d->nd = 2 + (w_top > d->w_lo ? (int)ceil(log(w_top / d->w_lo) / d->w_step) : 0);
	d->ne = 1 + (m_top > d->m_lo ? (int)ceil(log(m_top / d->m_lo) / d->m_step) : 0);
	d->nrows = d->nd + d->ne;
	d->edge = malloc(NEDGE * sizeof *d->edge);
	d->cdf = malloc(NEDGE * sizeof *d->cdf);
	d->pdf = malloc(NEDGE * sizeof *d->pdf);
	d->scratch = malloc(NEDGE * sizeof *d->scratch);
	d->lo = malloc((size_t)d->nrows * sizeof *d->lo);
	d->hi = malloc((size_t)d->nrows * sizeof *d->hi);
	d->off = malloc((size_t)d->nrows * sizeof *d->off);
	d->touched = malloc((size_t)d->nrows * sizeof *d->touched);
	d->ready = calloc((size_t)d->nrows, sizeof *d->ready);
	d->weight = calloc((size_t)d->nrows, sizeof *d->weight);
	d->run_weight = calloc((size_t)d->ne, sizeof *d->run_weight);
	d->mass = calloc(NMASS, sizeof *d->mass);
	d->wait_mass = calloc(NMASS, sizeof *d->wait_mass);
	if (!d->edge || !d->cdf || !d->pdf || !d->scratch || !d->lo || !d->hi || !d->off || !d->touched ||
	    !d->ready || !d->weight || !d->run_weight || !d->mass || !d->wait_mass)
		return STATUS_ENOMEM;
	for (int i = 0; i < NEDGE; i++) {
		d->edge[i] = i == 0 ? 0 : hist_edge(i - 1);
		d->cdf[i] = 1 - fluid_service_sf(md, d->edge[i]);
		d->pdf[i] = density(md, d->edge[i]);
	}
	for (int r = 0; r < d->nrows; r++) {
		if (r < d->nd) {
			double w = row_w(d, r);
			d->lo[r] = index_of(w + q_lo);
			d->hi[r] = index_of(w + q_hi);
		} else {
			d->lo[r] = index_of(q_lo);
			d->hi[r] = index_of(q_hi + wait_top(d, row_m(d, r)));
		}
		d->off[r] = total;
		total += (size_t)(d->hi[r] - d->lo[r] + 1);
	}
	/* a few MB at most, touched only where rows are computed */
	d->rows = malloc(total * sizeof *d->rows);
	return d->rows ? STATUS_OK : STATUS_ENOMEM;
}

void fluid_dist_fini(struct fluid_dist *d)
{
	free(d->edge);
	free(d->cdf);
	free(d->pdf);
	free(d->scratch);
	free(d->lo);
	free(d->hi);
	free(d->off);
	free(d->touched);
	free(d->ready);
	free(d->weight);
	free(d->run_weight);
	free(d->mass);
	free(d->wait_mass);
	free(d->rows);
	memset(d, 0, sizeof *d);
}

/* J one step on: from J at a to J at b = a + width, for S's density linear from fa to fb and its mass
 * P(a < S <= b) over the step (see the top of the file). */
static double j_step(double j, double m, double width, double fa, double fb, double mass)
{
	double z = width / m, om = -expm1(-z), trap = 0.5 * (fa + fb) * width;
	double lin = z < 1e-3 ? z * (0.5 - z * (1.0 / 6.0 - z / 24.0)) : 1 - om / z;
	double kernel = fa * m * om + (fb - fa) * m * lin;

	if (!(width > 0))
		return j;
	return (1 - om) * j + (trap > 0 ? mass * kernel / trap : mass * m * om / width);
}

/* J of mean m at the edges lo .. hi, into d->scratch (S not constant). J at edge[lo] is taken as all of
 * S's mass below it (at most EPS), as if just done: H = 0 there. */
static void j_edges(struct fluid_dist *d, double m, int lo, int hi)
{
	const double *e = d->edge, *cdf = d->cdf, *pdf = d->pdf;

	d->scratch[lo] = cdf[lo];
	for (int i = lo + 1; i <= hi; i++)
		d->scratch[i] = j_step(d->scratch[i - 1], m, e[i] - e[i - 1], pdf[i - 1], pdf[i], cdf[i] - cdf[i - 1]);
}

/* H(y) = P(S <= y) - J(y) for y below edge i (J known at the edges lo .. i, d->scratch): a partial step
 * from the edge below y; *k, a guess at that edge, is moved up (y only grows from one call to the next). */
static double h_at(const struct fluid_dist *d, double m, int lo, int i, double y, int *k)
{
	const double *e = d->edge;
	double cdf_y, h;

	if (y <= e[lo])
		return 0;
	if (*k < lo)
		*k = lo;
	while (*k + 1 < i && e[*k + 1] <= y)
		(*k)++;
	cdf_y = 1 - fluid_service_sf(&d->md, y);
	h = cdf_y - j_step(d->scratch[*k], m, y - e[*k], d->pdf[*k], density(&d->md, y), cdf_y - d->cdf[*k]);
	return h > 0 ? h : 0;
}

/* The distribution function of row r at edge i (lo < i <= hi), in order of i. */
static double row_cdf(struct fluid_dist *d, int r, int i, int *k)
{
	const struct fluid_model *md = &d->md;
	double x = d->edge[i], tau = md->timeout_s, m, keep, h, h_tau;

	if (r < d->nd)
		return 1 - fluid_service_sf(md, x - row_w(d, r));
	m = row_m(d, r);
	keep = tau > 0 ? -expm1(-tau / m) : 1;
	if (md->kind == SERVICE_CONSTANT) {
		h = x < md->mean_s ? 0 : -expm1(-(x - md->mean_s) / m);
		h_tau = tau > 0 && x - tau >= md->mean_s ? -expm1(-(x - tau - md->mean_s) / m) : 0;
	} else {
		h = d->cdf[i] - d->scratch[i];
		h = h > 0 ? h : 0;
		h_tau = tau > 0 ? h_at(d, m, d->lo[r], i, x - tau, k) : 0;
	}
	return tau > 0 ? (h - exp(-tau / m) * h_tau) / keep : h;
}

/* Fill row r: masses from the distribution function at the edges, kept non-decreasing and summing to 1. */
static void row_compute(struct fluid_dist *d, int r)
{
	double *row = d->rows + d->off[r], prev = 0;
	int lo = d->lo[r], hi = d->hi[r], k = lo;

	if (r >= d->nd && d->md.kind != SERVICE_CONSTANT)
		j_edges(d, row_m(d, r), lo, hi);
	for (int i = lo + 1; i <= hi + 1; i++) {
		double c = i <= hi ? row_cdf(d, r, i, &k) : 1;
		if (!(c >= prev))
			c = prev;
		if (c > 1)
			c = 1;
		row[i - 1 - lo] = c - prev;
		prev = c;
	}
	d->ready[r] = 1;
}

/* n requests on row r, this tally. */
static void add(struct fluid_dist *d, int r, double n)
{
	if (!(n > 0))
		return;
	if (d->weight[r] == 0)
		d->touched[d->ntouched++] = r;
	d->weight[r] += n;
}

void fluid_dist_fixed(struct fluid_dist *d, double n, double w)
{
	double x, a;
	int k;

	if (!(n > 0))
		return;
	if (!(w > 0))
		w = 0;
	d->sum_s += n * (d->md.mean_s + w);
	d->wait_sum_s += n * w;
	d->wait_mass[index_of(w)] += n;
	if (w <= d->w_lo) {
		a = w / d->w_lo;  /* between no wait and the first row, linearly */
		add(d, 0, n * (1 - a));
		add(d, 1, n * a);
		return;
	}
	x = log(w / d->w_lo) / d->w_step;
	k = (int)x;
	if (1 + k >= d->nd - 1) {
		add(d, d->nd - 1, n);  /* at or past the grid's top (tau, or 1e7 s) */
		return;
	}
	a = x - k;
	add(d, 1 + k, n * (1 - a));
	add(d, 2 + k, n * a);
}

void fluid_dist_exp(struct fluid_dist *d, double n, double m)
{
	double tau = d->md.timeout_s, u, mean_w, x, a;
	int j;

	if (!(n > 0))
		return;
	if (!(m > 0)) {
		fluid_dist_fixed(d, n, 0);
		return;
	}
	u = tau > 0 ? tau / m : 0;
	/* E[W | W <= tau] = m - tau e^-u / (1 - e^-u), tau (1/2 - u/12) to within u^3 for small u */
	mean_w = !(tau > 0) ? m : u < 1e-3 ? tau * (0.5 - u / 12) : m - tau * exp(-u) / -expm1(-u);
	if (m <= d->m_lo) {
		/* below the grid: between no wait and its first row for the latency, its mean for the wait */
		a = m / d->m_lo;
		d->sum_s += n * (d->md.mean_s + mean_w);
		d->wait_sum_s += n * mean_w;
		d->wait_mass[index_of(mean_w)] += n;
		add(d, 0, n * (1 - a));
		add(d, d->nd, n * a);
		return;
	}
	d->sum_s += n * (d->md.mean_s + mean_w);
	d->wait_sum_s += n * mean_w;
	x = log(m / d->m_lo) / d->m_step;
	j = (int)x;
	if (j >= d->ne - 1) {
		add(d, d->nrows - 1, n);  /* past the grid's top: its last row */
		d->run_weight[d->ne - 1] += n;
		return;
	}
	a = x - j;
	add(d, d->nd + j, n * (1 - a));
	add(d, d->nd + j + 1, n * a);
	d->run_weight[j] += n * (1 - a);
	d->run_weight[j + 1] += n * a;
}

uint64_t fluid_dist_tally(struct fluid_dist *d, struct hist *h)
{
	int lo = NMASS, hi = -1;

	hist_init(h);
	for (int t = 0; t < d->ntouched; t++) {
		int r = d->touched[t], rlo = d->lo[r], n = d->hi[r] - rlo + 1;
		const double *row;
		double w = d->weight[r];
		if (!d->ready[r])
			row_compute(d, r);
		row = d->rows + d->off[r];
		for (int i = 0; i < n; i++)
			d->mass[rlo + i] += w * row[i];
		lo = rlo < lo ? rlo : lo;
		hi = d->hi[r] > hi ? d->hi[r] : hi;
		d->weight[r] = 0;
	}
	d->ntouched = 0;
	if (hi >= 0) {
		hist_add_mass(h, d->mass, lo, hi, d->sum_s, &d->carry);
		memset(d->mass + lo, 0, (size_t)(hi - lo + 1) * sizeof *d->mass);
	}
	d->sum_s = 0;
	return h->n;
}

void fluid_dist_waits(struct fluid_dist *d, struct hist *h, uint64_t n)
{
	double tau = d->md.timeout_s;

	/* the exponential rows' waits: P(W in [a, b) | W <= tau) */
	for (int j = 0; j < d->ne; j++) {
		double m = row_m(d, d->nd + j), keep = tau > 0 ? -expm1(-tau / m) : 1, prev = 0;
		int top = index_of(wait_top(d, m));
		if (!(d->run_weight[j] > 0))
			continue;
		for (int i = 0; i <= top; i++) {
			double c = i < top ? -expm1(-d->edge[i + 1] / m) / keep : 1;
			if (c > 1)
				c = 1;
			if (c > prev) {
				d->wait_mass[i] += d->run_weight[j] * (c - prev);
				prev = c;
			}
		}
	}
	hist_init(h);
	hist_add_mass(h, d->wait_mass, 0, HIST_BUCKETS, d->wait_sum_s, &d->wait_carry);
	/* the two roundings of the same requests may differ by a few: the shortest waits take the difference */
	if (h->n < n) {
		h->zero += n - h->n;
	} else {
		uint64_t over = h->n - n, k = over < h->zero ? over : h->zero;
		h->zero -= k;
		over -= k;
		for (int i = 0; i < HIST_BUCKETS && over > 0; i++) {
			k = over < h->counts[i] ? over : h->counts[i];
			h->counts[i] -= k;
			over -= k;
		}
	}
	h->n = n;
}
