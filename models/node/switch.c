/*
 * switch.c - switch forwarding, shared-buffer admission, PFC generation,
 * egress scheduling and the PFC watchdog.
 *
 * Ingress (docs/model.md#wire, #buffer): a frame is handed to the switch when its last bit
 * has arrived (store-and-forward).  It is routed at once (topology.h), and
 * charged to its ingress (port, priority group) by the MMU (mmu.h): reserved,
 * then shared under the dynamic threshold, then headroom for lossless
 * priorities; lossy packets are dropped at their egress dynamic threshold.
 * It then spends switch_latency in the forwarding pipeline (one FIFO per
 * switch: arrivals are in time order and the delay is constant) and joins
 * the egress queue of its priority.  Every switch classifies by DSCP with the
 * scenario's dscp_to_priority map (default DSCP >> 3: 26 -> 3, 48 -> 6);
 * PG = priority.  Bytes are released when the frame has left the switch
 * (end of serialization).
 *
 * PFC generation (docs/model.md#pfc): when a lossless PG wants XOFF (it uses
 * headroom, or its shared use reached the threshold) the switch queues a PFC
 * frame with pfc.pause_quanta on the ingress port's transmit side, ahead of
 * all data (after the frame in flight).  While the PG stays XOFF, a refresh
 * goes out at half the pause time; XON (quanta 0) once the headroom is empty
 * and the shared use is below threshold - xon_offset.
 *
 * Egress: 8 queues per port, PFC frames first, then the CNP queue when
 * qos.cnp_priority_strict, then strict priority (7 highest) or deficit
 * weighted round robin (Shreedhar & Varghese 1995, a quantum of weight x one
 * full data frame) among the queues that are not paused.  A port has one
 * pending event: the end of the frame it is sending.
 *
 * ECN (docs/model.md#ecn): on the queues of ecn.queues, an ECN-capable data packet
 * is marked CE with the WRED probability of the queue's instantaneous
 * length (wred.h): at dequeue, the bytes left behind it; at enqueue, the
 * bytes ahead of it.  Each switch draws from its own random stream.
 *
 * InfiniBand (fabric.type = infiniband; no PFC, ECN or watchdog then):
 * credit-based link-level flow control.  Every transmitter holds credits
 * per VL (= priority) in 64-byte blocks, initially ib.vl_buffer / 64, the
 * receiver's buffer for that VL.  A frame of F bytes needs ceil(F / 64)
 * blocks; a VL whose head frame does not fit is stalled (pause.h
 * pause_stall: skipped by the scheduler, reported like a pause) until
 * credits arrive.  The switch frees a packet's blocks when the packet has
 * left it (release); they go back to the upstream transmitter as a 64 B
 * credit update on the ingress port's control queue, credit_update_delay
 * after the first block freed since the last update (the blocks freed in
 * between ride along).  Admission never drops (mmu_admit_credit): credits
 * bound each ingress VL to vl_buffer.  A failed link's credits are void:
 * a restored link starts again from vl_buffer (IB link training).  A
 * packet's VL is its priority mapped by ib.sl_to_vl (fabric.c); ports
 * arbitrate VLs by qos.scheduler, or by ib.vl_arbitration (vlarb_pick).
 * With ib.cc (docs/fabrics.md#infiniband-congestion-control-ibcc--on) a
 * data packet leaving a congested port/VL that is not a victim may get a
 * FECN (fecn_mark).
 *
 * PFC watchdog (docs/model.md#pfc-watchdog, SONiC semantics): every poll_interval each
 * lossless queue that has been paused by received PFC for detection_time
 * (continuously, so without transmitting, even if empty) is in a storm.
 * drop: discard its queue and every new packet for it, ignore PFC for it,
 * and stop sending PFC from the same port's ingress PG; forward: ignore PFC
 * and keep forwarding; alert: only report.  Restored at the first poll after
 * restoration_time without a PFC frame on that priority.
 */
#include "models/node/switch.h"

#include <stdlib.h>

#include "models/base/invariant.h"
#include "models/base/rng.h"
#include "models/core/evkey.h"
#include "models/core/pfc.h"
#include "models/core/topology.h"

static struct pg *pg_of(struct sw *s, uint16_t port, unsigned prio)
{
	return &s->pgs[(size_t)port * PKT_PRIOS + prio];
}

static int64_t charge_of(const struct sw *s, const struct pkt *p)
{
	return mmu_charge(s->mmu.cell_bytes, pkt_frame_bytes(p));
}

static int dwrr_pick(const struct net_qos *qos, struct port *pt, uint8_t eligible)
{
	int64_t frame = (int64_t)qos->mtu_bytes + PKT_ROCE_HDR_BYTES;
	for (;;) {
		unsigned q = pt->dwrr_cur;
		if (!(eligible & (1u << q))) {
			pt->dwrr_deficit[q] = 0;
			pt->dwrr_cur = (uint8_t)((q + 1) % PKT_PRIOS);
			pt->dwrr_fresh = 0;
			continue;
		}
		if (!pt->dwrr_fresh) {
			pt->dwrr_deficit[q] += (int64_t)qos->dwrr_weights[q] * frame;
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

/*
 * InfiniBand VL arbitration (ib.vl_arbitration): the current VL sends while
 * its turn's weight x 64 B is not used up (a packet that starts with some
 * left may overdraw it), then the turn passes to the next VL that may send;
 * nothing carries over.  With equal frames F a VL sends ceil(w x 64 / F)
 * frames per turn.
 */
static int vlarb_pick(const struct net_qos *qos, struct port *pt, uint8_t eligible)
{
	for (;;) {
		unsigned q = pt->dwrr_cur;
		if (eligible & (1u << q)) {
			if (!pt->dwrr_fresh) {
				pt->dwrr_deficit[q] = (int64_t)qos->dwrr_weights[q] * PKT_CREDIT_BLOCK_BYTES;
				pt->dwrr_fresh = 1;
			}
			if (pt->dwrr_deficit[q] > 0) {
				pt->dwrr_deficit[q] -= pkt_frame_bytes(pt->q[q].head);
				return (int)q;
			}
		}
		pt->dwrr_cur = (uint8_t)((q + 1) % PKT_PRIOS);
		pt->dwrr_fresh = 0;
	}
}

static struct pkt *take(struct port *pt, unsigned q)
{
	struct pkt *p = pktq_pop(&pt->q[q]);
	if (!pt->q[q].n)
		pt->nonempty &= (uint8_t)~(1u << q);
	pt->queued_bytes -= pkt_frame_bytes(p);
	return p;
}

static void ecn_mark(struct sw *s, struct pkt *p, uint64_t qlen)
{
	struct net *net = s->net;
	if (p->type != PKT_DATA || !(p->flags & PKT_F_ECT) || (p->flags & PKT_F_CE) ||
	    !(net->qos.ecn_queues >> p->prio & 1u))
		return;
	if (wred_mark(&s->cfg->wred, (int64_t)qlen, (uint32_t)gsl_rng_get(s->rng))) {
		p->flags |= PKT_F_CE;
		net->st.cc.ecn_marked++;
	}
}

/* InfiniBand: stall the VLs whose head frame lacks credits */
static void credit_gate(struct port *pt)
{
	for (uint8_t open = pt->nonempty & pause_open(&pt->pause); open; open &= open - 1) {
		unsigned q = (unsigned)__builtin_ctz(open);
		if (pt->cred.have[q] < (int32_t)pkt_credit_blocks(pkt_frame_bytes(pt->q[q].head)))
			pause_stall(&pt->pause, q);
	}
}

/*
 * InfiniBand congestion control (ib.cc): a data packet p that starts
 * leaving VL q of a port (port_kick) with at least threshold_bytes left
 * behind it in the VL's queue is eligible for a FECN, unless it is shorter
 * than packet_size, already marked, or the VL is a victim of congestion
 * downstream rather than its root (marked only with victim_mask): a credit
 * stall of it began since its last data packet left, or it lacks the
 * credits for its next packet.  One eligible packet in marking_rate + 1 is
 * marked.
 */
__attribute__((noinline)) static void fecn_mark(struct port *pt, struct pkt *p)
{
	if (p->type != PKT_DATA)
		return;
	struct net *net = pt->sw->net;
	unsigned q = p->prio; /* its queue */
	const struct switch_ibcc *cc = &pt->sw->cfg->ibcc;
	/* a stall began (pause_stall sets since) after the VL's last packet left */
	int victim = pt->pause.since[q] > pt->fecn_last_ps[q] ||
		     (pt->q[q].head && pt->cred.have[q] < (int32_t)pkt_credit_blocks(
						       pkt_frame_bytes(pt->q[q].head)));
	pt->fecn_last_ps[q] = net->eng.now;
	if ((p->flags & PKT_F_CE) || pt->q[q].bytes < cc->threshold_bytes ||
	    pkt_frame_bytes(p) < cc->packet_size || (victim && !cc->victim_mask))
		return;
	if (pt->fecn_count[q] < cc->marking_rate) {
		pt->fecn_count[q]++;
		return;
	}
	pt->fecn_count[q] = 0;
	p->flags |= PKT_F_CE;
	net->st.cc.ecn_marked++;
}

static void port_kick(struct port *pt)
{
	if (pt->tx || pt->down)
		return;
	struct net *net = pt->sw->net;
	const struct net_qos *qos = &net->qos;
	struct pkt *p = pktq_pop(&pt->ctrl);
	if (!p) {
		if (qos->ib)
			credit_gate(pt);
		uint8_t eligible = pt->nonempty & pause_open(&pt->pause);
		if (!eligible)
			return;
		unsigned cnp = qos->dscp_to_prio[qos->cnp_dscp], q;
		if (qos->cnp_strict && eligible >> cnp & 1u)
			q = cnp;
		else if (qos->vlarb)
			q = (unsigned)vlarb_pick(qos, pt, eligible);
		else if (!qos->dwrr)
			q = 31u - (unsigned)__builtin_clz(eligible);
		else
			q = (unsigned)dwrr_pick(qos, pt, eligible);
		p = take(pt, q);
		if (qos->ib)
			pt->cred.have[q] -= (int32_t)pkt_credit_blocks(pkt_frame_bytes(p));
		if (!qos->ecn_at_enqueue)
			ecn_mark(pt->sw, p, pt->q[q].bytes);
	}
	pt->tx = p;
	sim_schedule(&net->eng, &pt->tx_ev, net->eng.now + ser_time(&pt->ser, pkt_wire_bytes(p)));
	if (pt->ibcc) /* last: nothing else stays live across the call */
		fecn_mark(pt, pt->tx);
}

static void port_pause_kick(struct pause_rx *pr)
{
	port_kick(container_of(pr, struct port, pause));
}

static void send_pfc(struct port *pt, unsigned prio, uint32_t quanta)
{
	pktq_push(&pt->ctrl, net_pfc_frame(pt->sw->net, prio, quanta));
	port_kick(pt);
}

static sim_time_ps refresh_period(const struct net *net, const struct port *pt)
{
	return pfc_quanta_ps(net->qos.pause_quanta, pt->ser.rate_bps) / 2;
}

static void pg_xoff(struct pg *g)
{
	struct net *net = g->sw->net;
	struct port *pt = &g->sw->ports[g->port];
	g->xoff = 1;
	send_pfc(pt, g->prio, net->qos.pause_quanta);
	sim_schedule(&net->eng, &g->refresh_ev, net->eng.now + refresh_period(net, pt));
}

static void pg_xon(struct pg *g)
{
	g->xoff = 0;
	sim_cancel(&g->sw->net->eng, &g->refresh_ev);
	send_pfc(&g->sw->ports[g->port], g->prio, 0);
}

static void pg_refresh(struct sim_engine *eng, struct sim_event *ev)
{
	struct pg *g = container_of(ev, struct pg, refresh_ev);
	struct sw *s = g->sw;
	if (mmu_may_xon(&s->mmu, &s->pool, &g->mmu)) {
		pg_xon(g);
		return;
	}
	struct port *pt = &s->ports[g->port];
	send_pfc(pt, g->prio, s->net->qos.pause_quanta);
	sim_schedule(eng, ev, eng->now + refresh_period(s->net, pt));
}

/* InfiniBand: the credit update of a port leaves, returning what its
 * ingress freed since the last one */
static void credit_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct port *pt = container_of(ev, struct port, cred.ev);
	(void)eng;
	net_credits_send(pt->sw->net, &pt->cred, &pt->ctrl);
	port_kick(pt);
}

/* InfiniBand: blocks of VL q freed at port pt's ingress */
static void credit_return(struct port *pt, unsigned q, uint32_t blocks)
{
	if (pt->down)
		return; /* void: the restored link starts from vl_buffer */
	net_credits_freed(pt->sw->net, &pt->cred, q, blocks);
}

/* InfiniBand: a credit update from the peer arrived on port pt */
static void credit_receive(struct port *pt, struct pkt *p)
{
	unsigned q = net_credits_receive(pt->sw->net, &pt->cred, p);
	if (pt->pause.paused >> q & 1u &&
	    (!pt->q[q].n ||
	     pt->cred.have[q] >= (int32_t)pkt_credit_blocks(pkt_frame_bytes(pt->q[q].head)))) {
		pause_unstall(&pt->pause, q);
		port_kick(pt);
	}
}

/* give back a packet's buffer; XON its PG when it has drained enough */
static void release(struct sw *s, struct pkt *p)
{
	struct pg *g = pg_of(s, p->in_port, p->prio);
	int64_t b = charge_of(s, p);
	mmu_release(&s->pool, &g->mmu, b);
	s->ports[p->out_port].egress_bytes[p->prio] -= b;
	SIM_INVARIANT(g->mmu.reserved >= 0 && s->pool.used >= 0 &&
			      s->ports[p->out_port].egress_bytes[p->prio] >= 0,
		      "switch %u: buffer accounting went negative", s->id);
	if (s->net->qos.ib)
		credit_return(&s->ports[p->in_port], p->prio, pkt_credit_blocks(pkt_frame_bytes(p)));
	if (g->xoff && mmu_may_xon(&s->mmu, &s->pool, &g->mmu))
		pg_xon(g);
}

static void port_tx_done(struct sim_engine *eng, struct sim_event *ev)
{
	struct port *pt = container_of(ev, struct port, tx_ev);
	struct pkt *p = pt->tx;
	pt->tx = NULL;
	pt->tx_pkts++;
	pt->tx_bytes += pkt_frame_bytes(p);
	if (p->type != PKT_PFC && p->type != PKT_CREDIT) /* link-local: never charged */
		release(pt->sw, p);
	link_push(eng, &pt->link, p);
	port_kick(pt);
}

static int wd_drops(const struct sw *s, const struct port *pt, unsigned prio)
{
	return (pt->pause.storm >> prio & 1u) && s->cfg->pfcwd_action == SWITCH_PFCWD_DROP;
}

static void wd_drop(struct sw *s, struct pkt *p)
{
	release(s, p);
	s->ports[p->out_port].pause.wd_dropped[p->prio]++;
	net_drop(s->net, p, &s->net->st.drops.pfcwd);
}

/* pipeline exit: enqueue at the egress port chosen on arrival */
static void switch_forward(void *to, uint16_t unused, struct pkt *p)
{
	struct sw *s = to;
	struct net *net = s->net;
	struct port *pt = &s->ports[p->out_port];
	(void)unused;
	if (wd_drops(s, pt, p->prio)) {
		wd_drop(s, p);
		return;
	}
	if (pt->down) { /* the link failed while the packet was in the pipeline */
		release(s, p);
		net_drop(net, p, &net->st.drops.link_down);
		return;
	}
	if (net->qos.ecn_at_enqueue)
		ecn_mark(s, p, pt->q[p->prio].bytes);
	pktq_push(&pt->q[p->prio], p);
	pt->nonempty |= (uint8_t)(1u << p->prio);
	net->qbits[pt->gid / 64] |= UINT64_C(1) << (pt->gid % 64); /* for the queue sampler */
	pt->queued_bytes += pkt_frame_bytes(p);
	if (pt->queued_bytes > pt->max_queued_bytes)
		pt->max_queued_bytes = pt->queued_bytes;
	port_kick(pt);
}

/* routing around failed links reads the failure schedule, never another
 * switch's state: the answer depends on the time only */
static int port_down(const void *ctx, uint32_t sw, uint16_t port)
{
	const struct net *net = ctx;
	return net_port_down(net, sw, port, net->eng.now);
}

/*
 * Adaptive routing (topology.ecmp = adaptive; docs/model.md#ecmp): among the
 * ports of the ECMP set toward the destination (topo_ecmp; with failed
 * links, those topo_leads still finds a path behind), the one whose egress
 * queue of the packet's priority holds the fewest bytes: the MMU's egress
 * count, so the packets admitted to it and still in the pipeline count too.
 * Ties go to the first in the set's order from the flow's hash on (h % n,
 * wrapping), so equal queues split flows as the hash would, and a packet
 * that finds every candidate empty takes the port flow ECMP gives it.  A
 * switch reads only its own ports: the choice is the same on any number of
 * threads.
 */
static uint16_t route_adaptive(const struct sw *s, const struct pkt *p, uint64_t h)
{
	const struct net *net = s->net;
	uint16_t first = 0, best = TOPO_NO_ROUTE;
	const uint16_t *list;
	uint16_t n = topo_ecmp(net->topo, s->id, p->dst, &first, &list);
	int64_t least = INT64_MAX;
	for (uint16_t i = 0, k = (uint16_t)(h % n); i < n; i++, k = k + 1 == n ? 0 : k + 1) {
		uint16_t port = list ? list[k] : (uint16_t)(first + k);
		int64_t b = s->ports[port].egress_bytes[p->prio];
		if (b >= least ||
		    (net->nlink_down && !topo_leads(net->topo, s->id, port, p->dst, port_down, net)))
			continue;
		best = port;
		least = b;
		if (!b)
			break;
	}
	return best;
}

void switch_rx(void *to, uint16_t in_port, struct pkt *p)
{
	struct sw *s = to;
	struct net *net = s->net;
	if (s->ports[in_port].down) { /* it was on the cable when the link failed */
		net_lost(net, p);
		return;
	}
	if (p->type == PKT_PFC) {
		pause_receive(&s->ports[in_port].pause, p);
		return;
	}
	if (p->type == PKT_CREDIT) {
		credit_receive(&s->ports[in_port], p);
		return;
	}
	p->in_port = in_port;
	p->prio = net->qos.dscp_to_prio[p->dscp];
	uint32_t psn = s->cfg->ecmp_packet ? p->psn : 0;
	uint64_t h = rng_mix(topo_flow_key(p->src, p->dst, p->sport, psn) ^ s->salt);
	if (s->cfg->ecmp_adaptive)
		p->out_port = route_adaptive(s, p, h);
	else
		p->out_port = net->nlink_down
				      ? topo_route_avoiding(net->topo, s->id, p->dst, h, port_down, net)
				      : topo_route(net->topo, s->id, p->dst, h);
	if (p->out_port == TOPO_NO_ROUTE) {
		if (net->qos.ib) /* its buffer is free at once */
			credit_return(&s->ports[in_port], p->prio,
				      pkt_credit_blocks(pkt_frame_bytes(p)));
		net_drop(net, p, &net->st.drops.link_down);
		return;
	}
	SIM_INVARIANT(p->out_port < s->nports && p->out_port != in_port,
		      "switch %u routed a packet for h%u to port %u (in %u)", s->id,
		      (unsigned)p->dst, (unsigned)p->out_port, (unsigned)in_port);
	struct port *out = &s->ports[p->out_port];
	if (wd_drops(s, out, p->prio)) {
		out->pause.wd_dropped[p->prio]++;
		net_drop(net, p, &net->st.drops.pfcwd);
		return;
	}
	struct pg *g = pg_of(s, in_port, p->prio);
	int ll = net_lossless(net, p->prio);
	int64_t b = charge_of(s, p);
	switch (net->qos.ib ? mmu_admit_credit(&s->pool, &g->mmu, &s->mmu, b)
			    : mmu_admit(&s->mmu, &s->pool, &g->mmu, b, ll, out->egress_bytes[p->prio])) {
	case MMU_DROP_HEADROOM:
		net_drop(net, p, &net->st.drops.lossless);
		return;
	case MMU_DROP_EGRESS:
		net_drop(net, p, &net->st.drops.lossy);
		return;
	case MMU_HEADROOM:
		if (g->mmu.headroom > net->st.peak_headroom_bytes)
			net->st.peak_headroom_bytes = g->mmu.headroom;
		break;
	default:
		break;
	}
	out->egress_bytes[p->prio] += b;
	if (ll && !g->xoff && !g->mute && mmu_wants_xoff(&s->mmu, &s->pool, &g->mmu))
		pg_xoff(g);
	link_push(&net->eng, &s->pipeline, p);
}

/* ---- queues.csv ---- */

void switch_sample_queues(struct net *net,
			  void (*emit)(void *ctx, const struct port *pt, unsigned q, uint64_t bytes),
			  void *ctx)
{
	/* a bit per port that held packets since the last sample or at it, in
	 * order of global port index */
	for (uint32_t w = 0; w < net->nqwords; w++) {
		for (uint64_t bits = net->qbits[w]; bits; bits &= bits - 1) {
			unsigned b = (unsigned)__builtin_ctzll(bits);
			struct port *pt = &net->ports[(size_t)w * 64 + b];
			uint8_t now = 0;
			for (unsigned q = 0; q < PKT_PRIOS; q++) {
				uint64_t bytes = pt->q[q].bytes;
				if (bytes)
					now |= (uint8_t)(1u << q);
				if (bytes || (pt->qlast >> q & 1u))
					emit(ctx, pt, q, bytes);
			}
			pt->qlast = now;
			if (!now) /* emptied: its rows are done until it fills again */
				net->qbits[w] &= ~(UINT64_C(1) << b);
		}
	}
}

/* ---- PFC watchdog ---- */

static void wd_log(struct net *net, struct pause_rx *pr, unsigned prio, enum pfcwd_event ev,
		   uint64_t dropped)
{
	if (net->obs.pfcwd)
		net->obs.pfcwd(net->obs.pfcwd_ctx, pr, prio, ev, dropped);
}

static void wd_storm(struct sw *s, struct port *pt, unsigned prio)
{
	struct net *net = s->net;
	struct pause_rx *pr = &pt->pause;
	enum switch_pfcwd_action act = s->cfg->pfcwd_action;
	pr->storm |= (uint8_t)(1u << prio);
	pr->wd_dropped[prio] = 0;
	net->st.pfcwd_storms++;
	if (act == SWITCH_PFCWD_DROP) {
		while (pt->q[prio].n)
			wd_drop(s, take(pt, prio));
		struct pg *g = pg_of(s, pt->idx, prio);
		g->mute = 1;
		if (g->xoff) {
			g->xoff = 0;
			sim_cancel(&net->eng, &g->refresh_ev);
		}
	}
	wd_log(net, pr, prio, PFCWD_STORM, pr->wd_dropped[prio]);
	if (act != SWITCH_PFCWD_ALERT) {
		pr->ignore |= (uint8_t)(1u << prio);
		pause_clear(pr, prio);
	}
}

static void wd_restore(struct sw *s, struct port *pt, unsigned prio)
{
	struct pause_rx *pr = &pt->pause;
	uint8_t keep = (uint8_t)~(1u << prio);
	pr->storm &= keep;
	pr->ignore &= keep;
	pg_of(s, pt->idx, prio)->mute = 0;
	wd_log(s->net, pr, prio, PFCWD_RESTORE, pr->wd_dropped[prio]);
}

static void wd_poll(struct sim_engine *eng, struct sim_event *ev)
{
	struct sw *s = container_of(ev, struct sw, wd_ev);
	const struct switch_config *cfg = s->cfg;
	sim_time_ps now = eng->now;
	for (uint16_t i = 0; i < s->nports; i++) {
		struct port *pt = &s->ports[i];
		struct pause_rx *pr = &pt->pause;
		for (unsigned p = 0; p < PKT_PRIOS; p++) {
			if (!net_lossless(s->net, p))
				continue;
			uint8_t bit = (uint8_t)(1u << p);
			if (!(pr->storm & bit)) {
				if (pr->paused & bit && now - pr->since[p] >= cfg->pfcwd_detect_ps)
					wd_storm(s, pt, p);
			} else if (now - pr->last_frame[p] >= cfg->pfcwd_restore_ps) {
				wd_restore(s, pt, p);
			}
		}
	}
	sim_schedule(eng, ev, now + cfg->pfcwd_poll_ps);
}

/* ---- link failures ---- */

void switch_port_set_down(struct sw *s, uint16_t port, int down)
{
	struct net *net = s->net;
	struct port *pt = &s->ports[port];
	pt->down = (uint8_t)down;
	if (!down) {
		if (net->qos.ib) /* link training: credits start again */
			net_credits_full(net, &pt->cred);
		port_kick(pt);
		return;
	}
	if (net->qos.ib)
		net_credits_void(net, &pt->cred);
	/* what waits for this port is lost; PFC state toward the dead peer
	 * is void: its pauses end, and ours to it stop refreshing */
	for (unsigned p = 0; p < PKT_PRIOS; p++) {
		while (pt->q[p].n) {
			struct pkt *q = take(pt, p);
			release(s, q);
			net_drop(net, q, &net->st.drops.link_down);
		}
		pause_clear(&pt->pause, p);
		struct pg *g = pg_of(s, port, p);
		if (g->xoff) {
			g->xoff = 0;
			sim_cancel(&net->eng, &g->refresh_ev);
		}
	}
	while (pt->ctrl.n)
		pkt_release(&net->pool, pktq_pop(&pt->ctrl));
}

/* ---- set-up ---- */

static int lossless_count(uint8_t lossless)
{
	return __builtin_popcount(lossless);
}

int64_t switch_pool_bytes(const struct switch_config *cfg, uint8_t lossless,
			  uint32_t host_ports, uint32_t fabric_ports)
{
	int64_t nl = lossless_count(lossless);
	int64_t headroom = nl * ((int64_t)host_ports * cfg->host.headroom_bytes +
				 (int64_t)fabric_ports * cfg->fabric.headroom_bytes);
	return mmu_pool_bytes(cfg->buffer_bytes, cfg->reserved_bytes, host_ports + fabric_ports,
			      headroom);
}

void switch_init(struct net *net, struct sw *s, uint32_t id, const struct switch_config *cfg,
		 struct port *ports, struct pg *pgs, uint32_t first_port)
{
	const struct topo *t = net->topo;
	s->net = net;
	s->cfg = cfg;
	s->id = id;
	s->nports = topo_ports(t, id);
	s->ports = ports;
	s->pgs = pgs;
	s->salt = rng_derive(cfg->seed, RNG_ID(RNG_SWITCH, id));
	s->rng = rng_stream(cfg->seed, RNG_ID(RNG_SWITCH, id));
	SIM_INVARIANT(s->rng, "out of memory for switch %u's random stream", id);
	link_init(&s->pipeline, SIM_KEY(EVKEY_SWITCH, id, EVKEY_SW_PIPELINE), cfg->latency_ps,
		  switch_forward, s, 0);
	uint32_t host_ports = 0;
	for (uint16_t i = 0; i < s->nports; i++) {
		struct port *pt = &ports[i];
		int host = topo_port_is_host(t, id, i);
		const struct switch_port_class *pc = host ? &cfg->host : &cfg->fabric;
		host_ports += (uint32_t)host;
		uint32_t gid = first_port + i;
		*pt = (struct port){ .idx = i, .gid = gid, .sw = s, .ibcc = net->qos.ibcc };
		sim_event_init(&pt->tx_ev, port_tx_done, SIM_KEY(EVKEY_PORT, gid, EVKEY_PORT_TX));
		pt->ser.rate_bps = pc->rate_bps;
		net_credits_init(net, &pt->cred, credit_fire,
				 SIM_KEY(EVKEY_PORT, gid, EVKEY_PORT_CREDIT));
		pause_init(&net->pause, &pt->pause, 0, id, i, pc->rate_bps, pc->response_ps,
			   port_pause_kick, SIM_KEY(EVKEY_PORT, gid, EVKEY_PORT_PAUSE),
			   SIM_KEY(EVKEY_PORT, gid, EVKEY_PORT_PAUSE_DELAY));
		for (unsigned p = 0; p < PKT_PRIOS; p++) {
			struct pg *g = pg_of(s, i, p);
			*g = (struct pg){ .sw = s, .port = i, .prio = (uint8_t)p };
			g->mmu.headroom_bytes = net_lossless(net, p) ? pc->headroom_bytes : 0;
			sim_event_init(&g->refresh_ev, pg_refresh,
				       SIM_KEY(EVKEY_PORT, gid, EVKEY_PORT_PG + p));
		}
	}
	s->mmu = (struct mmu_params){
		.pool_bytes = switch_pool_bytes(cfg, net->qos.lossless, host_ports,
						s->nports - host_ports),
		.cell_bytes = cfg->cell_bytes,
		.reserved_bytes = cfg->reserved_bytes,
		.xon_offset_bytes = net->qos.xon_offset_bytes,
		.dynamic_th = cfg->dynamic_th,
		.lossy_dynamic_th = cfg->lossy_dynamic_th,
	};
	SIM_INVARIANT(s->mmu.pool_bytes > 0, "switch %u has no shared pool (the loader checks this)",
		      id);
	sim_event_init(&s->wd_ev, wd_poll, SIM_KEY(EVKEY_SWITCH, id, EVKEY_SW_WATCHDOG));
	if (cfg->pfcwd_enable && net->qos.lossless)
		sim_schedule(&net->eng, &s->wd_ev, cfg->pfcwd_poll_ps);
}

void switch_free(struct sw *s)
{
	rng_free(s->rng);
	s->rng = NULL;
}
