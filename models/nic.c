/*
 * nic.c - the host NIC: QPs that send their messages packet by packet, and
 * the receive side that counts delivered payload per flow.
 *
 * Transmit: QPs with data wait in a ready ring per priority (an intrusive
 * FIFO).  When the wire is free the NIC takes the first QP of the highest
 * non-empty priority, sends one packet of its current message (at most mtu
 * bytes of payload) and puts the QP back at the tail if it has more: round
 * robin among QPs, strict priority between priorities, O(1) per packet
 * whatever the number of QPs.  This version sends at line rate (no
 * congestion control yet).
 *
 * Receive: payload bytes are credited to the packet's flow; the flow
 * completes when all its bytes have arrived (packets may arrive out of
 * order with ecmp = packet; nothing is lost in this version).
 */
#include "fabric.h"

#include "invariant.h"
#include "scenario.h"

static void ready_push(struct nic *n, struct qp *q)
{
	q->next_ready = NULL;
	if (n->ready_tail[q->prio])
		n->ready_tail[q->prio]->next_ready = q;
	else
		n->ready_head[q->prio] = q;
	n->ready_tail[q->prio] = q;
	n->ready_mask |= (uint8_t)(1u << q->prio);
	q->ready = 1;
}

static struct qp *ready_pop(struct nic *n, unsigned prio)
{
	struct qp *q = n->ready_head[prio];
	n->ready_head[prio] = q->next_ready;
	if (!n->ready_head[prio]) {
		n->ready_tail[prio] = NULL;
		n->ready_mask &= (uint8_t)~(1u << prio);
	}
	q->next_ready = NULL;
	q->ready = 0;
	return q;
}

static void nic_kick(struct fabric *f, struct nic *n)
{
	if (n->tx || !n->ready_mask)
		return;
	struct qp *q = ready_pop(n, 31u - (unsigned)__builtin_clz(n->ready_mask));
	struct flow *fl = q->head;
	uint32_t payload = fl->tx_left < f->scn->mtu_bytes ? (uint32_t)fl->tx_left
							   : f->scn->mtu_bytes;
	struct pkt *p = pkt_alloc(&f->pool);
	SIM_INVARIANT(p, "out of memory for packets (%llu live)",
		      (unsigned long long)f->pool.live);
	*p = (struct pkt){
		.flow = fl->id, .psn = q->psn++, .src = q->src, .dst = q->dst,
		.sport = q->sport, .payload = (uint16_t)payload, .prio = q->prio,
		.dscp = q->dscp, .type = PKT_DATA, .flags = PKT_F_ECT,
	};
	fl->tx_left -= payload;
	if (!fl->tx_left) {
		q->head = fl->next;
		if (!q->head)
			q->tail = NULL;
	}
	if (q->head)
		ready_push(n, q);
	n->tx = p;
	n->tx_pkts++;
	n->tx_payload_bytes += payload;
	f->payload_injected += payload;
	f->data_pkts_sent++;
	sim_schedule(&f->eng, &n->tx_ev, f->eng.now + ser_time(&n->ser, pkt_wire_bytes(p)));
}

static void nic_tx_done(struct sim_engine *eng, struct sim_event *ev)
{
	struct nic *n = container_of(ev, struct nic, tx_ev);
	struct fabric *f = eng->user;
	struct pkt *p = n->tx;
	n->tx = NULL;
	link_push(f, &n->link, p);
	nic_kick(f, n);
}

void nic_post(struct fabric *f, struct flow *fl)
{
	struct qp *q = &f->qps[fl->qp];
	struct nic *n = &f->nics[q->src];
	fl->next = NULL;
	if (q->tail)
		q->tail->next = fl;
	else
		q->head = fl;
	q->tail = fl;
	if (!q->ready)
		ready_push(n, q);
	nic_kick(f, n);
}

void nic_rx(struct fabric *f, void *to, uint16_t port, struct pkt *p)
{
	struct nic *n = to;
	(void)port;
	SIM_INVARIANT(p->dst == n->id, "h%u received a packet for h%u", n->id,
		      (unsigned)p->dst);
	struct flow *fl = &f->flows[p->flow];
	fl->rx_bytes += p->payload;
	n->rx_payload_bytes += p->payload;
	f->payload_delivered += p->payload;
	SIM_INVARIANT(fl->rx_bytes <= fl->bytes, "flow %u received %lld of %lld bytes",
		      fl->id, (long long)fl->rx_bytes, (long long)fl->bytes);
	pkt_release(&f->pool, p);
	if (fl->rx_bytes == fl->bytes) {
		fl->end_ps = f->eng.now;
		traffic_flow_done(f, fl);
	}
}

void nic_init(struct fabric *f, struct nic *n, uint32_t id)
{
	*n = (struct nic){ .id = id };
	n->ser.rate_bps = f->topo.host_link_bps;
	sim_event_init(&n->tx_ev, nic_tx_done);
}
