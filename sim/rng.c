/* rng: see rng.h. */
#include "rng.h"

#include <limits.h>

static uint64_t fnv1a64(const char *s)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

/* SplitMix64 (Steele, Lea, Flood 2014): advance *x by the golden-ratio increment and mix it. */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

unsigned long rng_stream_seed(uint64_t seed, const char *name)
{
	uint64_t x = seed ^ fnv1a64(name);

	return (unsigned long)splitmix64(&x);
}

/* GSL's set: four SplitMix64 outputs from the seed. They are four distinct values of a bijection applied
 * to four distinct words, so at most one is zero and the state is never all zero. */
static void xo_set(void *vstate, unsigned long seed)
{
	struct rng_xoshiro_state *st = vstate;
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		st->s[i] = splitmix64(&x);
}

static unsigned long xo_get(void *vstate)
{
	return (unsigned long)rng_xoshiro_next(vstate);
}

static double xo_get_double(void *vstate)
{
	return (double)(rng_xoshiro_next(vstate) >> 11) * 0x1.0p-53;
}

_Static_assert(sizeof(unsigned long) == sizeof(uint64_t), "gsl_rng_get returns the whole 64-bit output");

static const gsl_rng_type xoshiro256pp = {
	"xoshiro256++", ULONG_MAX, 0, sizeof(struct rng_xoshiro_state), xo_set, xo_get, xo_get_double,
};

const gsl_rng_type *const rng_xoshiro256pp = &xoshiro256pp;

gsl_rng *rng_new(uint64_t seed, const char *name)
{
	gsl_rng *r = gsl_rng_alloc(rng_xoshiro256pp);

	if (r)
		gsl_rng_set(r, rng_stream_seed(seed, name));
	return r;
}
