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

struct pkt *pkt_alloc(struct pkt_pool *pool)
{
	if (!pool->free) {
		struct pkt_slab *s = slab_alloc(sizeof(*s));
		if (!s)
			return NULL;
		s->next = pool->slabs;
		pool->slabs = s;
		for (int i = SLAB_PKTS - 1; i >= 0; i--) {
			s->pkts[i].next = pool->free;
			pool->free = &s->pkts[i];
		}
		pool->allocated += SLAB_PKTS;
	}
	struct pkt *p = pool->free;
	pool->free = p->next;
	pool->live++;
	p->next = NULL;
	return p;
}
