/*
 * wred.h - WRED/ECN marking at a congestion point (docs/model.md#ecn), pure.
 *
 * On the instantaneous length q (bytes) of an egress queue with ECN:
 *   p = 0                               q <= kmin
 *   p = pmax (q - kmin) / (kmax - kmin) kmin < q <= kmax
 *   p = 1                               q > kmax
 * (RED, Floyd & Jacobson 1993, without averaging, as DCQCN switches are
 * configured: Zhu et al. 2015, section 3).  Only ECN-capable packets are
 * marked (CE); the caller checks ECT.  `rnd` is a uniform 32-bit random
 * number: the packet is marked when rnd < p x 2^32.
 */
#ifndef DCQCN_WRED_H
#define DCQCN_WRED_H

#include <stdint.h>

struct wred_params {
	int64_t kmin_bytes, kmax_bytes;
	uint64_t pmax_q32; /* pmax x 2^32 */
};

/* pmax in parts per 1e9 */
static inline struct wred_params wred_params_make(int64_t kmin, int64_t kmax, int64_t pmax_ppb)
{
	return (struct wred_params){
		.kmin_bytes = kmin, .kmax_bytes = kmax,
		.pmax_q32 = ((uint64_t)pmax_ppb << 32) / 1000000000u, /* < 2^62 before dividing */
	};
}

/* 1: mark this packet */
static inline int wred_mark(const struct wred_params *w, int64_t q_bytes, uint32_t rnd)
{
	if (q_bytes <= w->kmin_bytes)
		return 0;
	if (q_bytes > w->kmax_bytes)
		return 1;
	/* p x 2^32 = pmax_q32 (q - kmin) / (kmax - kmin), exact in 64 bits
	 * while q - kmin < 2^32 (pmax_q32 <= 2^32); beyond 4 GB of queue (the
	 * loader allows kmax up to 64 GiB) through a double */
	uint64_t above = (uint64_t)(q_bytes - w->kmin_bytes);
	uint64_t range = (uint64_t)(w->kmax_bytes - w->kmin_bytes);
	uint64_t p = above < (UINT64_C(1) << 32)
			     ? w->pmax_q32 * above / range
			     : (uint64_t)((double)w->pmax_q32 * (double)above / (double)range);
	return (uint64_t)rnd < p;
}

#endif
