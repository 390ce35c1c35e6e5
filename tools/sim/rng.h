/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator's random numbers: splitmix64, one stream per run, so a
 * run is reproduced by its seed alone. (The pure gossip code has its own
 * xorshift per node, seeded from the run's stream.)
 */
#ifndef FTNL_SIM_RNG_H
#define FTNL_SIM_RNG_H

#include <math.h>
#include <stdint.h>

struct sim_rng {
	uint64_t state;
};

static inline void sim_rng_seed(struct sim_rng *rng, uint64_t seed)
{
	rng->state = seed ^ 0x6a09e667f3bcc909ULL;
}

static inline uint64_t sim_rng_u64(struct sim_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, bound), bound >= 1 (Lemire's multiply-shift; the bias is
 * below 2^-32 for every bound used here). */
static inline uint64_t sim_rng_below(struct sim_rng *rng, uint64_t bound)
{
	return (uint64_t)(((unsigned __int128)sim_rng_u64(rng) * bound) >> 64);
}

/* Uniform in (0, 1]. */
static inline double sim_rng_unit(struct sim_rng *rng)
{
	return ((sim_rng_u64(rng) >> 11) + 1) * 0x1.0p-53;
}

/* Exponential with the given mean. */
static inline double sim_rng_exp(struct sim_rng *rng, double mean)
{
	return -mean * log(sim_rng_unit(rng));
}

#endif /* FTNL_SIM_RNG_H */
