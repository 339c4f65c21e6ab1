/*
 * pkt.c - the packet pool (see pkt.h).
 */
#include "models/core/pkt.h"

#include <stddef.h>

#include "models/base/invariant.h"

#define SLAB_PKTS 4096

struct pkt_slab {
	void *before;               /* the chain's link (slab.h) */
	struct pkt pkts[SLAB_PKTS];
};

void pkt_pool_init(struct pkt_pool *pool)
{
	*pool = (struct pkt_pool){0};
}

void pkt_pool_free(struct pkt_pool *pool)
{
	slab_chain_free(&pool->slabs, sizeof(struct pkt_slab));
	*pool = (struct pkt_pool){0};
}

/* Returned packets first (the last returned first), then the newest slab's
 * packets never used, in order: a slab is not walked to link them, which
 * wrote a cache line per packet of memory a run may never use. */
struct pkt *pkt_alloc(struct pkt_pool *pool)
{
	struct pkt *p = pool->free;
	if (p) {
		pool->free = p->next;
	} else {
		p = slab_next(&pool->slabs, sizeof(struct pkt_slab), offsetof(struct pkt_slab, pkts),
			      sizeof(struct pkt));
		if (!p)
			return NULL;
	}
	pool->live++;
	p->next = NULL;
	return p;
}

struct pkt *pkt_take(struct pkt_pool *pool)
{
	struct pkt *p = pkt_alloc(pool);
	SIM_INVARIANT(p, "out of memory for packets (%llu live)",
		      (unsigned long long)pool->live);
	return p;
}
