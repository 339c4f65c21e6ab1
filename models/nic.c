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
 * PFC (DESIGN B3): NICs honour pause per priority (a paused priority's
 * ready ring is skipped; the frame in flight finishes) and send PFC frames
 * ahead of data.  A NIC pauses its ToR only under a fault: `slow-receiver`
 * (below) or `pause-storm` (fault.c).
 *
 * Receive: payload bytes are credited to the packet's flow; the flow
 * completes when all its bytes have arrived (packets may arrive out of
 * order with ecmp = packet).  Under a slow-receiver fault, received frames
 * go through a small receive buffer drained at the fault's rate: XOFF to
 * the ToR when it holds NIC_XOFF_FRAMES data frames, refreshed at half the
 * pause time, XON at NIC_XOFF_FRAMES frames minus pfc.xon_offset; frames
 * beyond that plus the host link's headroom are dropped (a lossless drop).
 */
#include "fabric.h"

#include "invariant.h"
#include "scenario.h"

#define NIC_XOFF_FRAMES 4

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

static void start_tx(struct fabric *f, struct nic *n, struct pkt *p)
{
	n->tx = p;
	sim_schedule(&f->eng, &n->tx_ev, f->eng.now + ser_time(&n->ser, pkt_wire_bytes(p)));
}

static void nic_kick(struct fabric *f, struct nic *n)
{
	if (n->tx || n->down)
		return;
	if (n->ctrl.head) {
		start_tx(f, n, pktq_pop(&n->ctrl));
		return;
	}
	uint8_t eligible = n->ready_mask & pause_open(&n->pause);
	if (!eligible)
		return;
	struct qp *q = ready_pop(n, 31u - (unsigned)__builtin_clz(eligible));
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
	n->tx_pkts++;
	n->tx_payload_bytes += payload;
	f->payload_injected += payload;
	f->data_pkts_sent++;
	start_tx(f, n, p);
}

static void nic_pause_kick(struct fabric *f, struct pause_rx *pr)
{
	nic_kick(f, container_of(pr, struct nic, pause));
}

void nic_send_pfc(struct fabric *f, struct nic *n, unsigned prio, uint32_t quanta)
{
	pktq_push(&n->ctrl, pfc_frame(f, prio, quanta));
	nic_kick(f, n);
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

/* the payload reaches the host */
static void deliver(struct fabric *f, struct nic *n, struct pkt *p)
{
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

static int64_t xoff_bytes(const struct fabric *f)
{
	return NIC_XOFF_FRAMES * ((int64_t)f->scn->mtu_bytes + PKT_ROCE_HDR_BYTES);
}

static int below_xon(const struct fabric *f, const struct nic *n)
{
	return (int64_t)n->rxq.bytes + f->scn->xon_offset_bytes <= xoff_bytes(f);
}

static void rx_xon_check(struct fabric *f, struct nic *n)
{
	if (!n->rx_xoff || !below_xon(f, n))
		return;
	for (unsigned p = 0; p < PKT_PRIOS; p++)
		if (n->rx_xoff & (1u << p))
			nic_send_pfc(f, n, p, 0);
	n->rx_xoff = 0;
	sim_cancel(&f->eng, &n->refresh_ev);
}

static sim_time_ps refresh_period(const struct fabric *f, const struct nic *n)
{
	return scenario_quanta_ps(f->scn->pause_quanta, n->ser.rate_bps) / 2;
}

static void rx_refresh(struct sim_engine *eng, struct sim_event *ev)
{
	struct nic *n = container_of(ev, struct nic, refresh_ev);
	struct fabric *f = eng->user;
	for (unsigned p = 0; p < PKT_PRIOS; p++)
		if (n->rx_xoff & (1u << p))
			nic_send_pfc(f, n, p, f->scn->pause_quanta);
	sim_schedule(eng, ev, eng->now + refresh_period(f, n));
}

static void drain_arm(struct fabric *f, struct nic *n)
{
	if (!n->rxq.head || sim_event_pending(&n->drain_ev))
		return;
	sim_time_ps t = n->drain.rate_bps ? ser_time(&n->drain, pkt_wire_bytes(n->rxq.head)) : 0;
	sim_schedule(&f->eng, &n->drain_ev, f->eng.now + t);
}

static void drain_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct nic *n = container_of(ev, struct nic, drain_ev);
	struct fabric *f = eng->user;
	deliver(f, n, pktq_pop(&n->rxq));
	rx_xon_check(f, n);
	drain_arm(f, n);
}

/* a slow-receiver fault starts (rate > 0) or ends (rate 0) */
void nic_set_drain(struct fabric *f, struct nic *n, int64_t rate_bps)
{
	n->drain = (struct serializer){ .rate_bps = rate_bps };
	if (!rate_bps && sim_event_pending(&n->drain_ev))
		sim_schedule(&f->eng, &n->drain_ev, f->eng.now);
}

static void rx_buffered(struct fabric *f, struct nic *n, struct pkt *p)
{
	int64_t limit = xoff_bytes(f) + scenario_headroom_bytes(f->scn, n->ser.rate_bps,
								 f->scn->host_cable_mm);
	int ll = (f->scn->pfc_prios >> p->prio) & 1u;
	if ((int64_t)(n->rxq.bytes + pkt_frame_bytes(p)) > limit) {
		fabric_drop(f, p, ll ? &f->drops.lossless : &f->drops.lossy);
		return;
	}
	pktq_push(&n->rxq, p);
	if (ll && (int64_t)n->rxq.bytes >= xoff_bytes(f) && !(n->rx_xoff & (1u << p->prio))) {
		n->rx_xoff |= (uint8_t)(1u << p->prio);
		nic_send_pfc(f, n, p->prio, f->scn->pause_quanta);
		if (!sim_event_pending(&n->refresh_ev))
			sim_schedule(&f->eng, &n->refresh_ev, f->eng.now + refresh_period(f, n));
	}
	drain_arm(f, n);
}

void nic_rx(struct fabric *f, void *to, uint16_t port, struct pkt *p)
{
	struct nic *n = to;
	(void)port;
	if (n->down) { /* it was on the cable when the link failed */
		if (p->type == PKT_DATA)
			fabric_drop(f, p, &f->drops.link_down);
		else
			pkt_release(&f->pool, p);
		return;
	}
	if (p->type == PKT_PFC) {
		pause_receive(f, &n->pause, p);
		return;
	}
	SIM_INVARIANT(p->dst == n->id, "h%u received a packet for h%u", n->id,
		      (unsigned)p->dst);
	if (n->drain.rate_bps || n->rxq.head)
		rx_buffered(f, n, p);
	else
		deliver(f, n, p);
}

void nic_set_down(struct fabric *f, struct nic *n, int down)
{
	n->down = (uint8_t)down;
	if (down) {
		while (n->ctrl.n)
			pkt_release(&f->pool, pktq_pop(&n->ctrl));
		for (unsigned p = 0; p < PKT_PRIOS; p++)
			pause_clear(f, &n->pause, p);
	}
	nic_kick(f, n);
}

void nic_init(struct fabric *f, struct nic *n, uint32_t id)
{
	*n = (struct nic){ .id = id };
	n->ser.rate_bps = f->topo.host_link_bps;
	sim_event_init(&n->tx_ev, nic_tx_done);
	sim_event_init(&n->drain_ev, drain_fire);
	sim_event_init(&n->refresh_ev, rx_refresh);
	pause_init(f, &n->pause, 1, id, 0, n->ser.rate_bps, nic_pause_kick);
}
