/*
 * link.h - what carries frames between nodes: exact serialization at a rate,
 * and constant-delay FIFOs (cables at 5 ns/m, switch pipelines, the PFC
 * response delay).  Pure of any fabric: a link knows its engine only through
 * the caller and hands each frame to `deliver(to, port, pkt)` when it leaves.
 *
 * A packet that enters a link at t leaves at t + delay; the delay is constant,
 * so packets leave in the order they entered and only the head needs an
 * event (htsim's Pipe).  A link has one pending event at most, scheduled
 * when a packet becomes the head: when it enters an empty link, or when the
 * packet ahead of it leaves (engine.h: the order of simultaneous events).
 */
#ifndef DCQCN_LINK_H
#define DCQCN_LINK_H

#include <stdint.h>

#include "models/base/engine.h"
#include "models/core/pkt.h"

#define LINK_PS_PER_MM 5 /* cable propagation: 5 ns per metre (docs/model.md#wire) */

/* ---- serialization: exact, with the sub-picosecond remainder carried ---- */

struct serializer {
	int64_t rate_bps;
	int64_t rem; /* carried remainder of wire_bits * 1e12 / rate_bps */
};

/* time to put wire_bytes on the wire; the remainders add up so that a long
 * run transmits at exactly rate_bps */
static inline sim_time_ps ser_time(struct serializer *s, uint32_t wire_bytes)
{
	int64_t num = (int64_t)wire_bytes * 8 * UNITS_PS_PER_S + s->rem;
	s->rem = num % s->rate_bps;
	return num / s->rate_bps;
}

/* ---- links: constant-delay FIFOs with one pending event ---- */

/* the receiving end: `to` is the node, `port` its port the link enters */
typedef void (*link_deliver_fn)(void *to, uint16_t port, struct pkt *p);

struct link_outbox;

struct link {
	struct sim_event ev;
	struct pktq q;       /* in flight; pkt->t is when each one arrives */
	sim_time_ps delay_ps;
	sim_time_ps last_fire; /* when its last packet arrived */
	link_deliver_fn deliver;
	void *to;
	/* the far end runs on another thread: packets wait in `out`, then
	 * travel in `far`, this link's copy on cache lines of its own, which
	 * only the far end's thread writes (link_cross) */
	struct link_outbox *out;
	struct link *far;
	uint16_t to_port;
	/* a link between partitions: its number among them (in the order the
	 * fabric wired them), by which another process names it */
	uint32_t cross_id;
};

/*
 * Packets that entered links whose far end another partition runs, in the
 * order they entered, from one partition to another.  The far end takes
 * them (link_outbox_take) after the window they were sent in: they arrive no
 * sooner than a cable's propagation after they entered, which is at or
 * after the window's end.  Two buffers: the sender fills buf[side] during a
 * window while the far end, on its own thread, takes what buf[!side]
 * received in the window before; between windows the sides swap
 * (link_outbox_flip).
 *
 * A packet crosses as a copy: the sender's pool takes the packet back when
 * it enters the outbox, and the far end takes a packet from its own pool
 * for it.  Handed over as they are, packets would end in the pool of the
 * partition they were freed in: after a while each pool's packets lie next
 * to the other thread's, 64 B apart, and a core that fetches a line also
 * fetches its neighbour in the aligned 128-byte pair.
 */
struct link_outbox {
	struct link_outbuf {
		struct link_out {
			struct link *l;        /* the link's far copy */
			sim_time_ps push_ps;
			struct pkt p;
		} *e;
		uint32_t n, cap;
		sim_time_ps first; /* the earliest arrival among e[0..n) (n > 0) */
	} buf[2];
	struct pkt_pool *from, *to; /* the sender's and the far end's */
	uint8_t side;
};

/* a link whose head-arrival event has the canonical key `key` */
void link_init(struct link *l, uint64_t key, sim_time_ps delay_ps, link_deliver_fn deliver,
	       void *to, uint16_t to_port);
/* the far end of l runs on another thread: l's packets go through `out`
 * into a copy of l (same event key) that the far end alone writes.  Links
 * are embedded in the nodes that send on them, next to what their threads
 * write for every packet; the far end's arrivals written there moved those
 * lines between the cores at every packet.  -1 out of memory. */
int link_cross(struct link *l, struct link_outbox *out);
/* what link_cross allocated */
void link_free(struct link *l);

/* the packets on l's cable */
static inline const struct pktq *link_in_flight(const struct link *l)
{
	return l->far ? &l->far->q : &l->q;
}

/* p enters the link now; it leaves (deliver) at now + delay */
void link_push(struct sim_engine *eng, struct link *l, struct pkt *p);
/* the far end (engine eng) takes the packets of o's buffer `which`, each
 * exactly as if it had been pushed when it entered: its arrival event is
 * scheduled as of the moment it became the link's head (when it entered, or
 * when the packet ahead of it arrived) */
void link_outbox_take(struct sim_engine *eng, struct link_outbox *o, unsigned which);
/* a copy of p enters o's filling buffer for the far copy `far`, as if it
 * had entered the link at push_ps (link_push's way in; a run split over
 * processes puts there what another rank sent) */
void link_outbox_put(struct link_outbox *o, struct link *far, sim_time_ps push_ps,
		     const struct pkt *p);
/* between windows: the buffer the far end has emptied fills next */
void link_outbox_flip(struct link_outbox *o);
/* the earliest arrival of a packet in o, INT64_MAX when it holds none */
sim_time_ps link_outbox_first(const struct link_outbox *o);
/* free o's memory (the packets in it are copies, of no pool) */
void link_outbox_free(struct link_outbox *o);

#endif
