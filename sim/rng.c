/*
 * rng.c - seeded GSL streams (see rng.h).  splitmix64 (Steele et al. 2014)
 * turns (seed, id) into well-separated 64-bit seeds.
 */
#include "rng.h"

#include <gsl/gsl_rng.h>

uint64_t rng_mix(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

uint64_t rng_derive(uint64_t seed, uint64_t id)
{
	return rng_mix(rng_mix(seed) ^ id);
}

gsl_rng *rng_stream(uint64_t seed, uint64_t id)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
	if (r)
		gsl_rng_set(r, (unsigned long)rng_derive(seed, id));
	return r;
}

void rng_free(gsl_rng *r)
{
	if (r)
		gsl_rng_free(r);
}
