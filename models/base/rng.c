/*
 * rng.c - seeded GSL streams (see rng.h).  splitmix64 (Steele et al. 2014)
 * turns (seed, id) into well-separated 64-bit seeds.
 */
#include "models/base/rng.h"

#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "models/base/slab.h"

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

/* A stream and its state take a cache line of their own (gsl_rng_alloc
 * would give two small blocks, which the allocator packs next to other
 * streams'): the switches and NICs of two partitions draw on two threads, and
 * streams sharing a line would move it between the cores at every draw. */
gsl_rng *rng_stream(uint64_t seed, uint64_t id)
{
	const gsl_rng_type *type = gsl_rng_taus2;
	size_t head = (sizeof(gsl_rng) + 15) / 16 * 16;
	gsl_rng *r = calloc_lines(1, head + type->size);
	if (!r)
		return NULL;
	r->type = type;
	r->state = (char *)r + head;
	gsl_rng_set(r, (unsigned long)rng_derive(seed, id));
	return r;
}

void rng_free(gsl_rng *r)
{
	free(r);
}
