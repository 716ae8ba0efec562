/* rng: see rng.h. */
#include "rng.h"

static uint64_t fnv1a64(const char *s)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

/* SplitMix64's finaliser (Steele, Lea, Flood 2014): a bijective mix with good avalanche. */
static uint64_t splitmix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

unsigned long rng_stream_seed(uint64_t seed, const char *name)
{
	uint64_t x = splitmix64(seed ^ fnv1a64(name));
	unsigned long s = (unsigned long)((x ^ (x >> 32)) & 0xffffffffu);

	return s ? s : 0x9e3779b9ul;
}

gsl_rng *rng_new(uint64_t seed, const char *name)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (r)
		gsl_rng_set(r, rng_stream_seed(seed, name));
	return r;
}
