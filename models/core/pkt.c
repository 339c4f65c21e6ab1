/*
 * pkt.c - the packet pool (see pkt.h).
 */
#include "pkt.h"

#include "slab.h"

#define SLAB_PKTS 4096

struct pkt_slab {
	struct pkt_slab *next;
	struct pkt pkts[SLAB_PKTS];
};

void pkt_pool_init(struct pkt_pool *pool)
{
	*pool = (struct pkt_pool){0};
}

void pkt_pool_free(struct pkt_pool *pool)
{
	struct pkt_slab *s = pool->slabs;
	while (s) {
		struct pkt_slab *next = s->next;
		slab_free(s, sizeof(*s));
		s = next;
	}
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
		if (pool->fresh == pool->fresh_end) {
			struct pkt_slab *s = slab_alloc(sizeof(*s));
			if (!s)
				return NULL;
			s->next = pool->slabs;
			pool->slabs = s;
			pool->fresh = s->pkts;
			pool->fresh_end = s->pkts + SLAB_PKTS;
			pool->allocated += SLAB_PKTS;
		}
		p = pool->fresh++;
	}
	pool->live++;
	p->next = NULL;
	return p;
}
