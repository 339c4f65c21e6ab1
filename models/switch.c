/*
 * switch.c - switch forwarding and egress scheduling.
 *
 * Ingress: a frame is handed to the switch when its last bit has arrived
 * (store-and-forward); it then spends switch_latency in the forwarding
 * pipeline (one FIFO per switch: arrivals are in time order and the delay is
 * constant), is routed (topology.h), and joins the egress queue of its
 * priority.  Every switch classifies by DSCP with the scenario's
 * dscp_to_priority map (default DSCP >> 3: 26 -> 3, 48 -> 6).
 *
 * Egress: 8 queues per port, served either by strict priority (7 highest)
 * or by deficit weighted round robin (Shreedhar & Varghese 1995) with a
 * quantum of weight x one full data frame, so every visit sends at least one
 * frame.  A port has one pending event: the end of the frame it is sending.
 *
 * This version has no buffer limit: queues grow without bound and nothing is
 * dropped (the shared-buffer MMU, PFC and ECN come later).
 */
#include "fabric.h"

#include "invariant.h"
#include "rng.h"
#include "scenario.h"

static int dwrr_pick(const struct fabric *f, struct port *pt)
{
	const struct scenario *scn = f->scn;
	int64_t frame = (int64_t)scn->mtu_bytes + PKT_ROCE_HDR_BYTES;
	for (;;) {
		unsigned q = pt->dwrr_cur;
		if (!(pt->nonempty & (1u << q))) {
			pt->dwrr_deficit[q] = 0;
			pt->dwrr_cur = (uint8_t)((q + 1) % PKT_PRIOS);
			pt->dwrr_fresh = 0;
			continue;
		}
		if (!pt->dwrr_fresh) {
			pt->dwrr_deficit[q] += (int64_t)scn->dwrr_weights[q] * frame;
			pt->dwrr_fresh = 1;
		}
		int64_t need = pkt_frame_bytes(pt->q[q].head);
		if (pt->dwrr_deficit[q] >= need) {
			pt->dwrr_deficit[q] -= need;
			return (int)q;
		}
		pt->dwrr_cur = (uint8_t)((q + 1) % PKT_PRIOS);
		pt->dwrr_fresh = 0;
	}
}

static struct pkt *port_dequeue(const struct fabric *f, struct port *pt)
{
	int q = f->scn->scheduler == SCN_SCHED_STRICT ? 31 - __builtin_clz(pt->nonempty)
						       : dwrr_pick(f, pt);
	struct pkt *p = pktq_pop(&pt->q[q]);
	if (!pt->q[q].n)
		pt->nonempty &= (uint8_t)~(1u << q);
	pt->queued_bytes -= pkt_frame_bytes(p);
	return p;
}

static void port_kick(struct fabric *f, struct port *pt)
{
	if (pt->tx || !pt->nonempty)
		return;
	struct pkt *p = port_dequeue(f, pt);
	pt->tx = p;
	sim_schedule(&f->eng, &pt->tx_ev, f->eng.now + ser_time(&pt->ser, pkt_wire_bytes(p)));
}

static void port_tx_done(struct sim_engine *eng, struct sim_event *ev)
{
	struct port *pt = container_of(ev, struct port, tx_ev);
	struct fabric *f = eng->user;
	struct pkt *p = pt->tx;
	pt->tx = NULL;
	pt->tx_pkts++;
	pt->tx_bytes += pkt_frame_bytes(p);
	link_push(f, &pt->link, p);
	port_kick(f, pt);
}

static void port_enqueue(struct fabric *f, struct port *pt, struct pkt *p)
{
	pktq_push(&pt->q[p->prio], p);
	pt->nonempty |= (uint8_t)(1u << p->prio);
	pt->queued_bytes += pkt_frame_bytes(p);
	if (pt->queued_bytes > pt->max_queued_bytes)
		pt->max_queued_bytes = pt->queued_bytes;
	port_kick(f, pt);
}

/* pipeline exit: route and enqueue */
static void switch_forward(struct fabric *f, void *to, uint16_t in_port, struct pkt *p)
{
	struct sw *s = to;
	(void)in_port;
	uint32_t psn = f->scn->ecmp == SCN_ECMP_PACKET ? p->psn : 0;
	uint64_t h = rng_mix(topo_flow_key(p->src, p->dst, p->sport, psn) ^ s->salt);
	uint16_t out = topo_route(&f->topo, s->id, p->dst, h);
	SIM_INVARIANT(out < s->nports && out != p->in_port,
		      "switch %u routed a packet for h%u to port %u (in %u)", s->id,
		      (unsigned)p->dst, (unsigned)out, (unsigned)p->in_port);
	port_enqueue(f, &s->ports[out], p);
}

void switch_rx(struct fabric *f, void *to, uint16_t in_port, struct pkt *p)
{
	struct sw *s = to;
	p->in_port = in_port;
	p->prio = f->scn->dscp_to_prio[p->dscp];
	link_push(f, &s->pipeline, p);
}

void switch_init(struct fabric *f, struct sw *s, uint32_t id, struct port *ports)
{
	s->id = id;
	s->nports = topo_ports(&f->topo, id);
	s->ports = ports;
	s->salt = rng_derive(f->scn->seed, RNG_ID(RNG_SWITCH, id));
	link_init(&s->pipeline, f->scn->switch_latency_ps, switch_forward, s, 0);
	for (uint16_t i = 0; i < s->nports; i++) {
		struct port *pt = &ports[i];
		*pt = (struct port){ .idx = i, .sw = s };
		sim_event_init(&pt->tx_ev, port_tx_done);
		int host = topo_port_is_host(&f->topo, id, i);
		pt->ser.rate_bps = host ? f->topo.host_link_bps : f->topo.fabric_link_bps;
	}
}
