/*
 * mmu.h - the switch shared-buffer admission core (docs/model.md#buffer), pure: no
 * engine, no packets, so a unit test can drive every branch.
 *
 * Model: SONiC/SAI ingress accounting with a dynamic threshold.  Each
 * (ingress port, priority group) has `reserved` guaranteed bytes; each
 * lossless PG also has `headroom` bytes that only the packets arriving after
 * it sent XOFF may use.  The shared pool is what the switch buffer has left.
 * A packet of b bytes charged to PG g:
 *   1. reserved:  if g.reserved + b <= reserved
 *   2. shared:    if g.shared + b <= alpha x (pool - pool_used)
 *                 (alpha = 2^dynamic_th; lossy PGs have no ingress limit:
 *                 they are limited at egress, step 4)
 *   3. headroom:  lossless only, if g.headroom + b <= headroom
 *   otherwise a lossless packet is dropped (headroom exceeded: undersized
 *   headroom, or the peer did not stop in time).
 *   4. egress, lossy queues only: dropped when the queue's egress bytes + b
 *      exceed alpha_lossy x (pool - pool_used), alpha_lossy =
 *      2^lossy_dynamic_th (checked before step 1).
 * Release happens when the packet leaves the switch, headroom first, then
 * shared, then reserved: a PG drains its headroom before its shared share.
 *
 * Steady state (the test's closed form): S saturated PGs with one alpha each
 * hold x = alpha x B / (1 + alpha x S) of a pool of B bytes.
 *
 * PFC thresholds: a lossless PG asks for XOFF as soon as it uses headroom or
 * its shared use reaches the threshold; it may send XON once its headroom is
 * empty and its shared use is below threshold - xon_offset (or it holds no
 * shared bytes at all, so that a PG whose threshold collapsed because other
 * PGs filled the pool is not paused forever).
 */
#ifndef DCQCN_MMU_H
#define DCQCN_MMU_H

#include <stdint.h>

#define MMU_PGS_PER_PORT 8   /* priority groups per port (PG = priority) */

struct mmu_params {
	int64_t pool_bytes;      /* shared pool size */
	int64_t cell_bytes;      /* accounting cell; 0 = byte exact */
	int64_t reserved_bytes;  /* per (port, PG) */
	int64_t xon_offset_bytes;
	int32_t dynamic_th;      /* lossless ingress alpha = 2^dynamic_th */
	int32_t lossy_dynamic_th;/* lossy egress alpha */
};

struct mmu_pool {
	int64_t used;            /* shared bytes in use, all PGs */
};

struct mmu_pg {
	int64_t reserved, shared, headroom; /* bytes in use */
	int64_t headroom_bytes;  /* this PG's headroom (0 for lossy) */
	int64_t peak_headroom, peak_shared;
};

enum mmu_verdict {
	MMU_RESERVED,
	MMU_SHARED,
	MMU_HEADROOM,
	MMU_DROP_HEADROOM,       /* lossless: headroom full */
	MMU_DROP_EGRESS,         /* lossy: egress dynamic threshold */
};

/* alpha x (pool - used), alpha = 2^th (th may be negative) */
static inline int64_t mmu_threshold(const struct mmu_params *p, const struct mmu_pool *pool,
				    int32_t th)
{
	int64_t free_bytes = p->pool_bytes - pool->used;
	if (free_bytes <= 0)
		return 0;
	return th >= 0 ? free_bytes << th : free_bytes >> -th;
}

/* bytes charged for a frame of frame_bytes: itself, or rounded up to
 * whole cells */
static inline int64_t mmu_charge(int64_t cell_bytes, int64_t frame_bytes)
{
	if (cell_bytes <= 0)
		return frame_bytes;
	return (frame_bytes + cell_bytes - 1) / cell_bytes * cell_bytes;
}

/* the shared pool of a switch with `ports` ports: buffer minus
 * MMU_PGS_PER_PORT x reserved per port minus the lossless headroom of all
 * its PGs (headroom_total), in plain bytes (buffer.cell rounds each packet's
 * charge, not the configured sizes); may be <= 0 */
static inline int64_t mmu_pool_bytes(int64_t buffer_bytes, int64_t reserved_bytes,
				     uint32_t ports, int64_t headroom_total)
{
	return buffer_bytes - (int64_t)ports * MMU_PGS_PER_PORT * reserved_bytes - headroom_total;
}

/* charge b bytes to pg; egress_bytes is the lossy egress queue's charged
 * bytes (ignored for lossless).  Dropped packets charge nothing. */
enum mmu_verdict mmu_admit(const struct mmu_params *p, struct mmu_pool *pool, struct mmu_pg *pg,
			   int64_t b, int lossless, int64_t egress_bytes);
/* give back b bytes of pg: headroom first, then shared, then reserved */
void mmu_release(struct mmu_pool *pool, struct mmu_pg *pg, int64_t b);
/* InfiniBand: credits bound each ingress VL, so a packet is always
 * admitted: reserved first, then shared (never dropped) */
enum mmu_verdict mmu_admit_credit(struct mmu_pool *pool, struct mmu_pg *pg,
				  const struct mmu_params *p, int64_t b);
/* lossless PG above its XOFF point */
int mmu_wants_xoff(const struct mmu_params *p, const struct mmu_pool *pool,
		   const struct mmu_pg *pg);
/* lossless PG low enough to resume its upstream */
int mmu_may_xon(const struct mmu_params *p, const struct mmu_pool *pool, const struct mmu_pg *pg);

#endif
