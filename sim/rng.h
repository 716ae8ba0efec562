/*
 * rng: named random streams.
 *
 * Every stochastic source in a simulation (arrivals, service times, later each spot pool, launch delays...)
 * draws from its own GSL generator, seeded from (scenario seed, stream name) and nothing else. Changing a
 * policy therefore leaves the traffic drawn unchanged (common random numbers), and adding a new stream does
 * not disturb the existing ones.
 *
 * The generator is GSL's MT19937. The stream seed is SplitMix64(seed XOR FNV-1a-64(name)), folded to the
 * 32 bits MT19937's seeding uses; a zero result is replaced by a fixed non-zero constant because GSL maps
 * seed 0 to its default seed.
 */
#ifndef GPUCAP_RNG_H
#define GPUCAP_RNG_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

/* The seed rng_new would use for (seed, name); exposed for tests. */
unsigned long rng_stream_seed(uint64_t seed, const char *name);

/* A new generator for stream `name` of `seed` (returns owned; free with gsl_rng_free), NULL if out of memory. */
gsl_rng *rng_new(uint64_t seed, const char *name);

#endif
