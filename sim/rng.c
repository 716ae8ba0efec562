/* rng: see rng.h. */
#include "rng.h"

#include <limits.h>
#include <pthread.h>

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

/* ---- the exponential ziggurat (rng.h) ---- */

uint64_t rng_zig_k[256];
double rng_zig_w[256], rng_zig_f[256];
#define ZIG_R 7.69711747013104972   /* the base layer's right edge, r */
#define ZIG_V 3.949659822581572e-3  /* each layer's area, v */

static pthread_once_t zig_once = PTHREAD_ONCE_INIT;

/* Marsaglia and Tsang's setup (their zigset, the exponential part) with j on 53 bits: layer i spans
 * [0, x_i] with x_255 = r; k[i] = 2^53 x_(i-1) / x_i is where its rectangle ends inside the layer above;
 * the base layer 0 takes the tail beyond r as well, of total area v, so its width is v / exp(-r). */
static void zig_build(void)
{
	const double m = 9007199254740992.0;  /* 2^53 */
	double de = ZIG_R, te = ZIG_R, q = ZIG_V / exp(-ZIG_R);

	rng_zig_k[0] = (uint64_t)((de / q) * m);
	rng_zig_k[1] = 0;
	rng_zig_w[0] = q / m;
	rng_zig_w[255] = de / m;
	rng_zig_f[0] = 1.0;
	rng_zig_f[255] = exp(-de);
	for (int i = 254; i >= 1; i--) {
		de = -log(ZIG_V / de + exp(-de));
		rng_zig_k[i + 1] = (uint64_t)((de / te) * m);
		te = de;
		rng_zig_f[i] = exp(-de);
		rng_zig_w[i] = de / m;
	}
}

double rng_exponential_slow(gsl_rng *r, uint64_t x)
{
	for (;;) {
		int i = (int)(x & 255);
		uint64_t j = x >> 11;
		double v;

		if (j < rng_zig_k[i])
			return (double)j * rng_zig_w[i];
		if (i == 0)  /* the tail beyond r: r plus an exponential (memorylessness) */
			return ZIG_R - log(1.0 - rng_uniform(r));
		v = (double)j * rng_zig_w[i];
		if (rng_zig_f[i] + rng_uniform(r) * (rng_zig_f[i - 1] - rng_zig_f[i]) < exp(-v))
			return v;
		x = rng_xoshiro_next(r->state);
	}
}

/* GSL's set: four SplitMix64 outputs from the seed. They are four distinct values of a bijection applied
 * to four distinct words, so at most one is zero and the state is never all zero. */
static void xo_set(void *vstate, unsigned long seed)
{
	struct rng_xoshiro_state *st = vstate;
	uint64_t x = seed;

	pthread_once(&zig_once, zig_build);  /* before any draw: every generator of the type is set first */

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
