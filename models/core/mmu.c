/*
 * mmu.c - shared-buffer admission (see mmu.h for the model and sources).
 */
#include "models/core/mmu.h"

enum mmu_verdict mmu_admit(const struct mmu_params *p, struct mmu_pool *pool, struct mmu_pg *pg,
			   int64_t b, int lossless, int64_t egress_bytes)
{
	if (!lossless && egress_bytes + b > mmu_threshold(p, pool, p->lossy_dynamic_th))
		return MMU_DROP_EGRESS;
	if (pg->reserved + b <= p->reserved_bytes) {
		pg->reserved += b;
		return MMU_RESERVED;
	}
	if (!lossless || pg->shared + b <= mmu_threshold(p, pool, p->dynamic_th)) {
		pg->shared += b;
		pool->used += b;
		if (pg->shared > pg->peak_shared)
			pg->peak_shared = pg->shared;
		return MMU_SHARED;
	}
	if (pg->headroom + b <= pg->headroom_bytes) {
		pg->headroom += b;
		if (pg->headroom > pg->peak_headroom)
			pg->peak_headroom = pg->headroom;
		return MMU_HEADROOM;
	}
	return MMU_DROP_HEADROOM;
}

void mmu_release(struct mmu_pool *pool, struct mmu_pg *pg, int64_t b)
{
	int64_t h = b < pg->headroom ? b : pg->headroom;
	pg->headroom -= h;
	b -= h;
	int64_t s = b < pg->shared ? b : pg->shared;
	pg->shared -= s;
	pool->used -= s;
	b -= s;
	pg->reserved -= b;
}

int mmu_wants_xoff(const struct mmu_params *p, const struct mmu_pool *pool,
		   const struct mmu_pg *pg)
{
	return pg->headroom > 0 ||
	       (pg->shared > 0 && pg->shared >= mmu_threshold(p, pool, p->dynamic_th));
}

int mmu_may_xon(const struct mmu_params *p, const struct mmu_pool *pool, const struct mmu_pg *pg)
{
	if (pg->headroom > 0)
		return 0;
	return pg->shared == 0 ||
	       pg->shared + p->xon_offset_bytes < mmu_threshold(p, pool, p->dynamic_th);
}

enum mmu_verdict mmu_admit_credit(struct mmu_pool *pool, struct mmu_pg *pg,
				  const struct mmu_params *p, int64_t b)
{
	if (pg->reserved + b <= p->reserved_bytes) {
		pg->reserved += b;
		return MMU_RESERVED;
	}
	pg->shared += b;
	pool->used += b;
	if (pg->shared > pg->peak_shared)
		pg->peak_shared = pg->shared;
	return MMU_SHARED;
}
