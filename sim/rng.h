/*
 * rng: named random streams.
 *
 * Every stochastic source in a simulation (arrivals, service times, later each spot pool, launch delays...)
 * draws from its own generator, seeded from (scenario seed, stream name) and nothing else. Changing a
 * policy therefore leaves the traffic drawn unchanged (common random numbers), and adding a new stream does
 * not disturb the existing ones.
 *
 * The generator is xoshiro256++ (Blackman and Vigna, "Scrambled linear pseudorandom number generators",
 * ACM Trans. Math. Softw. 47(4), 2021; SOURCES.md [rng-xoshiro]): 256 bits of state, period 2^256 - 1, no
 * failure in BigCrush or PractRand to 32 TB, about a nanosecond a draw. It is offered as a GSL generator type
 * (rng_xoshiro256pp), so every gsl_ran_* distribution draws from it as from any GSL generator; gsl_rng_get
 * gives all 64 output bits and gsl_rng_uniform the top 53, k / 2^53 in [0, 1). The stream seed is
 * SplitMix64(seed XOR FNV-1a-64(name)), all 64 bits; the generator's four state words are the next four
 * outputs of SplitMix64 from that seed (the seeding its authors recommend), never all zero.
 *
 * The draws below are what the models call, inline for the loops that draw once per event: rng_uniform is
 * gsl_rng_uniform's value; rng_exponential, rng_lognormal and rng_uniform_int are faster methods than GSL's
 * for the same distributions (see each). Until gpucap 0.2 the generator was GSL's MT19937 and the draws
 * GSL's: a run's random draws, and so its figures, changed once then (tests/README.md, "Performance"); no
 * model changed.
 */
#ifndef GPUCAP_RNG_H
#define GPUCAP_RNG_H

#include <limits.h>
#include <math.h>
#include <stdint.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/* The GSL generator type of the streams ("xoshiro256++"). */
extern const gsl_rng_type *const rng_xoshiro256pp;

/* The seed rng_new would use for (seed, name); exposed for tests. */
unsigned long rng_stream_seed(uint64_t seed, const char *name);

/* A new generator for stream `name` of `seed` (returns owned; free with gsl_rng_free), NULL if out of memory. */
gsl_rng *rng_new(uint64_t seed, const char *name);

/* The generator's state (public for the inline draws below only). */
struct rng_xoshiro_state {
	uint64_t s[4];
};

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* The next 64-bit output of a xoshiro256++ state. */
static inline uint64_t rng_xoshiro_next(struct rng_xoshiro_state *st)
{
	uint64_t *s = st->s;
	uint64_t out = rng_rotl(s[0] + s[3], 23) + s[0];
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return out;
}

/* A uniform double in [0, 1): gsl_rng_uniform(r), inline for a stream of rng_new. */
static inline double rng_uniform(gsl_rng *r)
{
	if (r->type != rng_xoshiro256pp)
		return gsl_rng_uniform(r);
	return (double)(rng_xoshiro_next(r->state) >> 11) * 0x1.0p-53;
}

/*
 * An exponential draw of the given mean, by the ziggurat method (Marsaglia and Tsang, "The ziggurat method
 * for generating random variables", J. Stat. Softw. 5(8), 2000, their exponential with 256 layers): one
 * 64-bit output x; its low 8 bits choose a layer i and its top 53 bits j a point across it; when j < k[i]
 * (97.8% of draws) the draw is j w[i], a multiplication, where -log(1 - u) costs a logarithm. Otherwise
 * rng_exponential_slow (rng.c) takes the base layer's tail (r - log(1 - u), r = 7.69711747013104972) or
 * the wedge's test (f[i] + u (f[i-1] - f[i]) < exp(-x)), drawing again when that fails: exact, not an
 * approximation. The tables are built from the paper's r and layer area with the C library's exp and log,
 * once, when the first generator of the type is set (rng.c). A generator of another type gets
 * -mean log(1 - u).
 */
extern uint64_t rng_zig_k[256];                 /* j below this: inside the layer's rectangle */
extern double rng_zig_w[256], rng_zig_f[256];   /* the layer's width per unit of j; exp(-x) at its edge */
double rng_exponential_slow(gsl_rng *r, uint64_t x);

static inline double rng_exponential(gsl_rng *r, double mean)
{
	uint64_t x, j;

	if (r->type != rng_xoshiro256pp)
		return -mean * log(1.0 - gsl_rng_uniform(r));
	x = rng_xoshiro_next(r->state);
	j = x >> 11;
	if (j < rng_zig_k[x & 255])
		return mean * ((double)j * rng_zig_w[x & 255]);
	return mean * rng_exponential_slow(r, x);
}

/*
 * A lognormal draw, exp(zeta + sigma Z) for a standard normal Z from GSL's ziggurat (Marsaglia and Tsang,
 * "The ziggurat method for generating random variables", J. Stat. Softw. 5(8), 2000, as GSL implements it:
 * gsl_ran_gaussian_ziggurat), which needs one 32-bit draw and no logarithm nearly every time, where
 * gsl_ran_lognormal's polar Box-Muller method draws pairs until one falls in the circle and takes a
 * logarithm and a square root. Until gpucap 0.2 lognormal draws were gsl_ran_lognormal's.
 */
static inline double rng_lognormal(gsl_rng *r, double zeta, double sigma)
{
	return exp(zeta + sigma * gsl_ran_gaussian_ziggurat(r, 1.0));
}

/*
 * A uniform integer in [0, n), n >= 1, by Lemire's multiply-and-shift (D. Lemire, "Fast random integer
 * generation in an interval", ACM Trans. Model. Comput. Simul. 29(1), 2019): the high 64 bits of x * n for
 * a 64-bit output x, with the few x that would favour some values (the low half below 2^64 mod n) drawn
 * again, so the result is exactly uniform. It divides only in that rare case, where GSL's
 * gsl_rng_uniform_int divides twice per draw; it is not the same value as GSL's. A generator of another
 * type gets gsl_rng_uniform_int.
 */
__extension__ typedef unsigned __int128 rng_u128;

static inline unsigned long rng_uniform_int(gsl_rng *r, unsigned long n)
{
	rng_u128 m;
	uint64_t low;

	if (r->type != rng_xoshiro256pp || n == 0)
		return gsl_rng_uniform_int(r, n);
	m = (rng_u128)rng_xoshiro_next(r->state) * n;
	low = (uint64_t)m;
	if (low < n) {
		uint64_t threshold = (0 - (uint64_t)n) % n;  /* 2^64 mod n */
		while (low < threshold) {
			m = (rng_u128)rng_xoshiro_next(r->state) * n;
			low = (uint64_t)m;
		}
	}
	return (unsigned long)(m >> 64);
}

#endif
