/*
 * pkt.h - packets, the packet pool and intrusive packet FIFOs.
 *
 * A packet is a small fixed struct (<= 64 B, one cache line) taken from a
 * pool's free list and returned to it; nothing is allocated per packet once
 * the pool has grown to the run's peak (htsim's PacketDB, fq_codel's skb
 * lists).  A FIFO links packets through pkt->next, so a packet sits in at
 * most one FIFO at a time: an egress queue, a link, a switch pipeline.
 *
 * Wire model (docs/model.md#wire): a data packet is `payload` bytes of RoCE payload
 * plus 62 B of RoCEv2 headers (Eth 14, IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4);
 * control frames (CNP, PFC, InfiniBand credit updates) are 64 B.  Serialization adds 20 B of preamble
 * and inter-frame gap to either.
 */
#ifndef DCQCN_PKT_H
#define DCQCN_PKT_H

#include <stdint.h>

#include "models/base/slab.h"
#include "models/base/units.h"

#define PKT_ROCE_HDR_BYTES 62
#define PKT_CTRL_FRAME_BYTES 64
#define PKT_WIRE_OVERHEAD_BYTES 20
#define PKT_PRIOS 8

/* CNP, ACK and NAK are 64 B control frames of a QP: `psn` is the
 * (cumulative, next expected) sequence number */
enum pkt_type { PKT_DATA = 0, PKT_PFC = 1, PKT_CNP = 2, PKT_ACK = 3, PKT_NAK = 4,
		PKT_CREDIT = 5 };

/* InfiniBand link-level flow control: credits count 64-byte blocks */
#define PKT_CREDIT_BLOCK_BYTES 64

/* blocks of receive buffer a frame needs */
static inline uint32_t pkt_credit_blocks(uint32_t frame_bytes)
{
	return (frame_bytes + PKT_CREDIT_BLOCK_BYTES - 1) / PKT_CREDIT_BLOCK_BYTES;
}

enum pkt_flags {
	PKT_F_ECT = 1u << 0, /* ECN-capable transport (ECT(0)) */
	PKT_F_CE = 1u << 1,  /* congestion experienced */
	PKT_F_REMOTE = 1u << 2, /* data whose message another process sends: fl is
				 * this process's copy of it (models/fabric/ranks.c),
				 * which the pool's `remote` hook is told of on release */
};

struct flow;

struct pkt {
	_Alignas(64) struct pkt *next; /* one packet, one cache line (slabs are aligned) */
	sim_time_ps t;     /* when it leaves the delay line it sits in */
	union {
		struct flow *fl; /* data: its message (nic.h), until the receiver accepts it */
		uint32_t sack;   /* a TCP ACK: the segment (PSN + 1) whose arrival it answers
				  * out of order, 0 none: one SACK block; a NAK under
				  * adaptive routing: the PSN + 1 it discarded */
	};
	uint32_t qp;       /* data, CNP, ACK, NAK: the QP */
	union {
		uint32_t psn;    /* data, ACK, NAK: sequence number within its QP */
		uint32_t quanta; /* PFC: pause time in 512-bit-time quanta, 0 = XON;
				  * CREDIT: the 64-byte blocks it returns */
	};
	uint16_t src, dst; /* host indices */
	uint16_t sport;    /* UDP source port of the QP: the ECMP entropy */
	uint16_t payload;  /* RoCE payload bytes (data) */
	uint16_t in_port;  /* ingress port at the current switch */
	uint16_t out_port; /* egress port there, chosen on arrival */
	uint8_t prio;      /* priority (traffic class) from the DSCP map */
	uint8_t dscp;
	uint8_t type;      /* enum pkt_type */
	uint8_t flags;     /* enum pkt_flags */
	uint32_t job;      /* data: its QP's job, so that the receiver need not read
			    * the message's first line for it */
	sim_time_ps next_t; /* in a delay line (link.h): when the packet behind it
			     * leaves, so that its link need not fetch that one */
};

_Static_assert(sizeof(struct pkt) == 64, "struct pkt must be one cache line");

/* bytes the frame occupies in a buffer (headers included, no preamble) */
static inline uint32_t pkt_frame_bytes(const struct pkt *p)
{
	return p->type == PKT_DATA ? (uint32_t)p->payload + PKT_ROCE_HDR_BYTES
				   : PKT_CTRL_FRAME_BYTES;
}

/* bytes the frame occupies on the wire (preamble and IFG included) */
static inline uint32_t pkt_wire_bytes(const struct pkt *p)
{
	return pkt_frame_bytes(p) + PKT_WIRE_OVERHEAD_BYTES;
}

/* FIFO of packets; bytes counts frame bytes */
struct pktq {
	struct pkt *head, *tail;
	uint32_t n;
	uint64_t bytes;
};

static inline void pktq_push(struct pktq *q, struct pkt *p)
{
	p->next = NULL;
	if (q->tail)
		q->tail->next = p;
	else
		q->head = p;
	q->tail = p;
	q->n++;
	q->bytes += pkt_frame_bytes(p);
}

static inline struct pkt *pktq_pop(struct pktq *q)
{
	struct pkt *p = q->head;
	if (!p)
		return NULL;
	q->head = p->next;
	if (!q->head)
		q->tail = NULL;
	else /* a deep queue's packets are cold: fetch the next head while this
	      * one is sent (one serialization time before it is needed) */
		__builtin_prefetch(q->head, 1);
	q->n--;
	q->bytes -= pkt_frame_bytes(p);
	p->next = NULL;
	return p;
}

/*
 * The pool grows by slabs and never shrinks during a run; pkt_pool_free()
 * releases every slab.  `live` counts packets handed out and not returned:
 * the conservation check compares it with the packets found in the fabric.
 */
struct pkt_pool {
	struct pkt *free;              /* returned packets */
	struct slab_chain slabs;       /* and those never used */
	uint64_t live;
	/* a run split over processes: a PKT_F_REMOTE packet is released (NULL
	 * otherwise, and no such packet exists) */
	void (*remote)(void *ctx, struct pkt *p);
	void *remote_ctx;
};

void pkt_pool_init(struct pkt_pool *pool);
void pkt_pool_free(struct pkt_pool *pool);
/* NULL only when the system is out of memory */
struct pkt *pkt_alloc(struct pkt_pool *pool);
/* a packet from the pool; out of memory is a broken invariant (invariant.h) */
struct pkt *pkt_take(struct pkt_pool *pool);

/* p goes back to the pool while a copy of it lives on (in a link's outbox,
 * link.h): what p referred to is the copy's now */
static inline void pkt_release_moved(struct pkt_pool *pool, struct pkt *p)
{
	p->next = pool->free;
	pool->free = p;
	pool->live--;
}

/* p goes back to the pool */
static inline void pkt_release(struct pkt_pool *pool, struct pkt *p)
{
	if (p->flags & PKT_F_REMOTE)
		pool->remote(pool->remote_ctx, p);
	p->next = pool->free;
	pool->free = p;
	pool->live--;
}

#endif
