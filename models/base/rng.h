/*
 * rng.h - per-consumer random streams derived from (seed, stream id).
 *
 * Every random consumer (a job's permutation, a switch's WRED, a rank's
 * skew) owns a GSL generator seeded from splitmix64(seed, id), never from
 * the clock or a shared stream, so adding a consumer does not shift the
 * numbers another one draws (docs/ARCHITECTURE.md#rules: determinism by construction).
 */
#ifndef DCQCN_RNG_H
#define DCQCN_RNG_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

/* stream ids: a kind in the top byte, an object index below */
enum rng_kind { RNG_JOB = 1, RNG_SWITCH = 2, RNG_NIC = 3, RNG_SKEW = 4 };
#define RNG_ID(kind, idx) (((uint64_t)(kind) << 56) | (uint64_t)(idx))

uint64_t rng_mix(uint64_t x);
uint64_t rng_derive(uint64_t seed, uint64_t id);
/* a taus2 generator (small state, fast) for stream id; NULL if out of memory */
gsl_rng *rng_stream(uint64_t seed, uint64_t id);
void rng_free(gsl_rng *r);

#endif
