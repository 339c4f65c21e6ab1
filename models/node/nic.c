/*
 * nic.c - the host NIC's transmit/receive skeleton and its RoCE transport:
 * QPs that send their messages packet by packet, paced by DCQCN, with
 * go-back-N loss recovery, the DCQCN notification point, PFC, and the
 * receive side that counts delivered payload per flow.  The other
 * transports plug into this skeleton where it switches on them: TCP
 * (fabric.type = ethernet-tcp) is in tcp.c, InfiniBand's credits
 * (fabric.type = infiniband) in ib.c, messages between the GPUs of one
 * server in nvlink.c; the QP table, the message pool and the messages
 * waiting for their start time are in qps.c, and what these files share in
 * internal.h.
 *
 * Transmit: QPs with data wait in a ready ring per priority (an intrusive
 * FIFO).  When the wire is free the NIC takes the first QP of the highest
 * non-empty priority, sends one packet of its current message (at most mtu
 * bytes of payload) and puts the QP back at the tail if it has more: round
 * robin among QPs, strict priority between priorities, O(1) per packet
 * whatever the number of QPs.  PFC frames (and InfiniBand's credit
 * updates) go out first and are never paused; CNP, ACK and NAK frames go
 * out ahead of data, by priority, and wait while their priority is paused
 * like data does.  Under InfiniBand a VL without credits for its next frame
 * is stalled like a paused priority (ib.c).
 *
 * Rate (docs/model.md#dcqcn): with nic.cc = dcqcn each QP is paced at its DCQCN rate
 * Rc: after a packet, the QP may send again one frame time at Rc later.  A
 * QP that must wait leaves the ready ring and sets one event (pace_ev) for
 * that time; at line rate it never waits.  The DCQCN state is advanced
 * lazily (dcqcn.h): no per-QP periodic timer.
 *
 * Transport (go-back-N, docs/model.md#dcqcn loss recovery): the receiver accepts only
 * the next expected PSN; a packet beyond it is discarded and answered by
 * one NAK (until the gap fills), a duplicate is discarded.  It acknowledges
 * every NIC_ACK_EVERY packets and the last packet of each message.  The
 * sender goes back to the NAK's PSN, or to its oldest unacknowledged PSN
 * when nothing was acknowledged for the timeout (one lazy deadline per
 * QP).  As in RC, a QP whose retries run out goes to the error state: at
 * the (retry_cnt + 1)-th timeout in a row without progress, that is
 * (retry_cnt + 1) x rto after the last progress, it stops sending for good
 * (its messages never complete) and the net's qp_failed observer hears of
 * it.  TCP's QPs use the same timer, with TCP's timeout (tcp.c).
 *
 * Notification point: a CE-marked data packet makes the receiver send a
 * CNP to the sender's QP unless one went out within min_time_between_cnps
 * (per QP, or per NIC with cnp_scope = port).
 *
 * InfiniBand congestion control (ib.cc, docs/fabrics.md#infiniband-congestion-control-ibcc--on):
 * a FECN (the CE flag) is answered by one BECN, a CNP frame on the data's
 * VL; a BECN raises the QP's CCTI (ibcc.h), and after each packet the QP
 * waits its CCT entry's delay (pace_ev, the time fixed as the packet
 * leaves).
 *
 * PFC (docs/model.md#pfc): NICs honour pause per priority (a paused priority's
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
#include "models/node/nic.h"

#include "models/base/invariant.h"
#include "models/core/evkey.h"
#include "models/core/pfc.h"
#include "models/node/internal.h"

#define NIC_XOFF_FRAMES 4

static void start_tx(struct nic *n, struct pkt *p)
{
	struct sim_engine *eng = &n->net->eng;
	if (n->net->qos.ib && p->type != PKT_PFC && p->type != PKT_CREDIT)
		n->cred.have[p->prio] -= (int32_t)pkt_credit_blocks(pkt_frame_bytes(p));
	n->tx = p;
	sim_schedule(eng, &n->tx_ev, eng->now + ser_time(&n->ser, pkt_wire_bytes(p)));
}

/* queue a CNP, ACK or NAK answering data packet d, back to its sender.  Its
 * fields are d's, not the QP's: the sender's partition writes the lines of
 * the QP that hold them */
static void send_ctrl(struct net *net, const struct pkt *d, enum pkt_type type, uint32_t psn,
		      uint8_t dscp)
{
	struct nic *n = &net->nics[d->dst];
	struct pkt *p = net_pkt(net);
	*p = (struct pkt){ .qp = d->qp, .psn = psn, .src = d->dst, .dst = d->src,
			   .sport = d->sport, .dscp = dscp, .prio = net->qos.dscp_to_prio[dscp],
			   .type = (uint8_t)type };
	pktq_push(&n->ctrlq[p->prio], p);
	n->ctrl_mask |= (uint8_t)(1u << p->prio);
	nic_kick(n);
}

/* the retransmission timeout of q: go-back-N's fixed one, or TCP's */
static sim_time_ps rto_of(const struct nic *n, const struct qp *q)
{
	return n->cfg->tcp ? tcp_tx(n->net, q)->rto : n->cfg->rto_ps;
}

static void rto_arm(struct nic *n, struct qp *q)
{
	q->rto_at_ps = n->net->eng.now + rto_of(n, q);
	if (!q->rto_pos && !q->rto_heap)
		nic_rto_set(n->net, q, q->rto_at_ps);
}

static void count_sent(struct nic *n, uint32_t payload)
{
	n->tx_pkts++;
	n->tx_payload_bytes += payload;
	n->net->st.payload_injected += payload;
	n->net->st.data_pkts_sent++;
}

/* a data packet of message fl, of which `left` bytes are from it on, PSN psn */
struct pkt *nic_data_packet(struct nic *n, struct qp *q, struct flow *fl, int64_t left,
			    uint32_t psn)
{
	uint32_t mtu = n->net->qos.mtu_bytes;
	uint32_t payload = left < mtu ? (uint32_t)left : mtu;
	struct pkt *p = net_pkt(n->net);
	/* TCP NewReno is not ECN-capable; DCTCP and RoCE are */
	uint8_t ect = n->cfg->tcp && !n->cfg->dctcp ? 0 : PKT_F_ECT;
	*p = (struct pkt){
		.fl = fl, .qp = q->id, .psn = psn, .src = q->src, .dst = q->dst,
		.sport = q->sport, .payload = (uint16_t)payload, .prio = q->prio,
		.dscp = q->dscp, .type = PKT_DATA, .flags = ect, .job = q->job,
	};
	count_sent(n, payload);
	return p;
}

/* build the next data packet of q (a TCP QP may resend a segment first);
 * the QP stays out of the ready ring */
static struct pkt *take_packet(struct nic *n, struct qp *q)
{
	struct net *net = n->net;
	if (n->cfg->tcp) {
		struct pkt *r = tcp_resend(n, q);
		if (r)
			return r;
	}
	struct flow *fl = q->snd;
	struct pkt *p = nic_data_packet(n, q, fl, q->snd_left, q->psn_nxt);
	uint32_t payload = p->payload;
	if (q->psn_nxt < q->psn_max) {
		nic_count_resent(net, q, payload);
		q->resent = 1; /* a copy may still be on its way (qpcache.c) */
	}
	else if (n->cfg->tcp)
		tcp_time_segment(net, q);
	q->psn_nxt++;
	if (q->psn_nxt > q->psn_max)
		q->psn_max = q->psn_nxt;
	q->snd_left -= payload;
	if (!q->snd_left)
		nic_next_message(q, fl->next);
	if (!q->rto_at_ps) { /* nothing was outstanding: the timer starts now */
		q->progress_ps = net->eng.now;
		rto_arm(n, q);
	}
	return p;
}

/*
 * Pacing at Rc: the QP may send again one frame time at Rc after its last
 * packet started.  While it waits, Rc can only rise at a DCQCN increase
 * event, whose time is known (the increase timer); the wait is re-examined
 * then, so a QP cut to a low rate is not stuck behind a long gap computed
 * before its rate recovered (and a cut meanwhile lengthens the wait).
 * With pace_fixed (dcqcn.rate_change_reschedules = false, as HPCC's ns-3
 * NIC) the send time is fixed from the rate as the packet leaves and
 * stays whatever the rate does (requeue stores it, last_wire 0).
 */
static sim_time_ps pace_at(sim_time_ps from, uint32_t wire, double rc)
{
	return from + (sim_time_ps)((double)wire * 8e12 / rc);
}

/* of a QP with its struct qp_cc (one without is at line rate) */
static sim_time_ps pace_target(const struct nic *n, struct qp_cc *c)
{
	double rc = dcqcn_rate(&n->cfg->dcqcn_params, &c->dc, n->net->eng.now);
	return pace_at(c->pace_from_ps, c->last_wire, rc);
}

/* wait for the pacing target, or for the next increase event if earlier */
static void pace_wait(const struct nic *n, struct qp *q, sim_time_ps target)
{
	struct sim_engine *eng = &n->net->eng;
	struct qp_cc *c = nic_qp_cc(n->net, q);
	sim_time_ps wake = target;
	if (n->cfg->dcqcn && c->dc.reacting && !n->cfg->pace_fixed) { /* dc: not ib.cc's */
		sim_time_ps inc = c->dc.timer_start_ps + n->cfg->dcqcn_params.time_reset_ps;
		if (inc > eng->now && inc < wake)
			wake = inc;
	}
	q->pacing = 1;
	sim_schedule(eng, &c->pace_ev, wake);
}

/* after q sent a packet of `wire` bytes at now: back in the ring at once,
 * or when its rate allows */
static void requeue(struct nic *n, struct qp *q, uint32_t wire)
{
	sim_time_ps now = n->net->eng.now;
	if (n->cfg->dcqcn && q->cc) { /* else not reacting: nothing to count */
		struct qp_cc *c = &n->net->qp_cc[q->id];
		dcqcn_on_sent(&n->cfg->dcqcn_params, &c->dc, wire, now);
		c->pace_from_ps = now;
		c->last_wire = wire;
	}
	if (n->cfg->tcp) {
		tcp_try(n, q);
		return;
	}
	if (n->cfg->ibcc) { /* the CCT entry's delay after the packet, fixed now; it
			     * holds back the QP's next message too */
		struct qp_cc *c = nic_qp_cc(n->net, q);
		sim_time_ps ipd = ibcc_delay_ps(&n->cfg->ibcc_params, &c->ibcc, now);
		if (ipd) {
			c->pace_from_ps = now + ser_time(&n->ser, wire) + ipd;
			q->pacing = 1;
			sim_schedule(&n->net->eng, &c->pace_ev, c->pace_from_ps);
			return;
		}
	}
	if (!q->snd)
		return;
	if (n->cfg->dcqcn) {
		sim_time_ps line = (sim_time_ps)wire * 8 * UNITS_PS_PER_S / n->ser.rate_bps;
		sim_time_ps target = q->cc ? pace_target(n, &n->net->qp_cc[q->id])
					   : pace_at(now, wire, n->cfg->dcqcn_params.line_rate_bps);
		if (target - now > line) {
			struct qp_cc *c = nic_qp_cc(n->net, q);
			c->pace_from_ps = now; /* as a QP that had it kept them */
			c->last_wire = wire;
			if (n->cfg->pace_fixed) {
				c->pace_from_ps = target;
				c->last_wire = 0;
			}
			pace_wait(n, q, target);
			return;
		}
	}
	nic_ready_push(n, q);
}

static struct qp *gen_next(struct nic *n, struct qp *gq);

void nic_tx_next(struct nic *n)
{
	if (n->pfcq.head) {
		start_tx(n, pktq_pop(&n->pfcq));
		return;
	}
	if (n->net->qos.ib)
		ib_gate(n);
	uint8_t ctrl = n->ctrl_mask & pause_open(&n->pause);
	if (ctrl) {
		unsigned prio = 31u - (unsigned)__builtin_clz(ctrl);
		start_tx(n, pktq_pop(&n->ctrlq[prio]));
		if (!n->ctrlq[prio].n)
			n->ctrl_mask &= (uint8_t)~(1u << prio);
		return;
	}
	struct qp *q;
	do { /* an acknowledgement may have left a QP in the ring with nothing to send */
		uint8_t eligible = n->ready_mask & pause_open(&n->pause);
		if (!eligible)
			return;
		q = nic_ready_pop(n, 31u - (unsigned)__builtin_clz(eligible));
		if (q->gen) /* messages made in turn (nic.h, struct nic_gen) */
			q = gen_next(n, q);
	} while (!q || (n->cfg->tcp ? !tcp_can_send(n, q) : !q->snd));
	struct pkt *p = take_packet(n, q);
	start_tx(n, p);
	requeue(n, q, pkt_wire_bytes(p));
}

void nic_pace_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct net *net = eng->user;
	struct qp *q = nic_pace_qp(net, ev);
	struct nic *n = &net->nics[q->src];
	q->pacing = 0;
	if (!q->snd || q->ready)
		return;
	struct qp_cc *c = container_of(ev, struct qp_cc, pace_ev);
	sim_time_ps target = n->cfg->ibcc ? c->pace_from_ps : pace_target(n, c);
	if (target > eng->now) {
		pace_wait(n, q, target);
		return;
	}
	nic_ready_push(n, q);
	nic_kick(n);
}

/* send from PSN r on: the message that holds it, or the first message not
 * sent yet when r is past everything sent (nothing left: snd is NULL) */
static void seek(const struct net *net, struct qp *q, uint32_t r)
{
	struct flow *fl = q->head;
	while (fl && fl->first_psn != UINT32_MAX && r >= fl->first_psn + fl->npkts)
		fl = fl->next;
	SIM_INVARIANT(r <= q->psn_max && (!fl || fl->first_psn == UINT32_MAX ||
					  r >= fl->first_psn),
		      "QP %u cannot go back to PSN %u", q->id, r);
	q->psn_nxt = r;
	if (fl && fl->first_psn == UINT32_MAX) {
		nic_next_message(q, fl);
		return;
	}
	q->snd = fl;
	q->snd_left = fl ? nic_bytes_from(fl, r, net->qos.mtu_bytes) : 0;
}

/* go back to PSN r and resend from there */
static void go_back(struct net *net, struct qp *q, uint32_t r)
{
	if (q->failed)
		return;
	seek(net, q, r);
	struct nic *n = &net->nics[q->src];
	if (q->snd && !q->ready && !q->pacing)
		nic_ready_push(n, q);
	nic_kick(n);
}

/* cumulative acknowledgement: everything below a.  A resend in progress
 * skips what the acknowledgement covers. */
void nic_acked(struct net *net, struct qp *q, uint32_t a)
{
	if (a <= q->psn_una)
		return;
	q->psn_una = a;
	q->timeouts = 0;
	q->progress_ps = net->eng.now;
	while (q->head && q->head->first_psn != UINT32_MAX &&
	       q->head->first_psn + q->head->npkts <= a) {
		struct flow *done = q->head; /* completed: the receiver acknowledged it all */
		q->head = done->next;
		if (!q->head)
			q->tail = NULL;
		nic_flow_free(net, done);
	}
	if (q->failed)
		return; /* acknowledgements still release its messages */
	if (q->psn_nxt < a)
		seek(net, q, a);
	q->rto_at_ps = q->psn_una < q->psn_max ? net->eng.now + rto_of(&net->nics[q->src], q) : 0;
	if (net->qc && !q->head && q->psn_una == q->psn_max)
		nic_qp_at_rest(net, q);
}

void nic_rto_fire(struct net *net, struct qp *q)
{
	if (q->failed || !q->rto_at_ps || q->psn_una >= q->psn_max) {
		q->rto_at_ps = 0;
		return;
	}
	if (net->eng.now < q->rto_at_ps) { /* progress moved the deadline */
		nic_rto_set(net, q, q->rto_at_ps);
		return;
	}
	net->st.cc.timeouts++;
	if (++q->timeouts > net->nics[q->src].cfg->retry_cnt) { /* retries exhausted */
		q->failed = 1;
		q->rto_at_ps = 0;
		q->snd = NULL; /* the ready ring and the pacing skip a QP with nothing to send */
		net->st.cc.qps_failed++;
		if (net->obs.qp_failed)
			net->obs.qp_failed(net->obs.qp_failed_ctx, q);
		return;
	}
	if (net->nics[q->src].cfg->tcp)
		tcp_timeout(tcp_tx(net, q), q);
	rto_arm(&net->nics[q->src], q);
	go_back(net, q, q->psn_una);
}

static void nic_pause_kick(struct pause_rx *pr)
{
	nic_kick(container_of(pr, struct nic, pause));
}

void nic_send_pfc(struct nic *n, unsigned prio, uint32_t quanta)
{
	pktq_push(&n->pfcq, net_pfc_frame(n->net, prio, quanta));
	nic_kick(n);
}

static void nic_tx_done(struct sim_engine *eng, struct sim_event *ev)
{
	struct nic *n = container_of(ev, struct nic, tx_ev);
	struct pkt *p = n->tx;
	n->tx = NULL;
	link_push(eng, &n->link, p);
	nic_kick(n);
}

/* fl joins the end of its QP's messages */
static struct qp *post_append(struct net *net, struct flow *fl)
{
	struct qp *q = nic_qp(net, fl->qp);
	if (q->job == NET_NONE) {
		q->job = fl->job;
		if (net->qc) /* read by the partitions that drop its packets */
			nic_qp_home_job(net, q->id, fl->job);
	}
	fl->posted = 1;
	fl->next = NULL;
	if (q->tail)
		q->tail->next = fl;
	else
		q->head = fl;
	q->tail = fl;
	return q;
}

/* may g's messages be made in turn: is each of their QPs idle (nic.h) */
static int gen_idle(const struct net *net, const struct nic_gen *g)
{
	for (uint32_t j = g->next; j < g->count; j++) {
		const struct qp *q = nic_qp_peek(net, g->qp(g, j)); /* NULL: at rest */
		if (q && (q->head || q->snd || q->ready || q->pacing || q->failed || q->local ||
			  (q->cc && sim_event_pending(&net->qp_cc[q->id].pace_ev))))
			return 0;
	}
	return 1;
}

/* g's start: its first message is posted as it would be, and g stands in
 * the ring for the others, which the NIC, busy with the first or paused,
 * would not have served before they were all posted (each post's kick
 * does nothing after the first's) */
static void gen_start(struct net *net, struct nic_gen *g)
{
	struct nic *n = &net->nics[g->stub.src];
	g->started = 1;
	if (n->cfg->tcp || !gen_idle(net, g)) {
		while (g->next < g->count)
			nic_post(net, g->make(g, g->next++));
		return;
	}
	/* the first QPs, which the samplers read (nic_qps_pinned), have their
	 * messages now, as they would: a rank's pinned QPs are the first of
	 * its run */
	uint32_t pinned = nic_qps_pinned(net);
	do
		nic_post(net, g->make(g, g->next++));
	while (g->next < g->count && g->qp(g, g->next) < pinned);
	if (g->next < g->count)
		nic_ready_push(n, &g->ring);
}

/* the ring reached g: its next message is made, and its QP served now
 * if it would have been in the ring here (returned), else NULL */
static struct qp *gen_next(struct nic *n, struct qp *gq)
{
	struct nic_gen *g = container_of(gq, struct nic_gen, ring);
	struct flow *fl = g->make(g, g->next++);
	if (g->next < g->count) /* the rest keep their place, ahead of the ring */
		nic_ready_push_front(n, gq);
	struct qp *q = post_append(n->net, fl);
	if (q->snd || q->failed)
		return NULL;
	nic_next_message(q, fl);
	return q->ready || q->pacing ? NULL : q;
}

void nic_gen_flush(struct net *net, struct nic_gen *g)
{
	while (g->started && g->next < g->count) {
		struct flow *fl = g->make(g, g->next++);
		struct qp *q = post_append(net, fl);
		if (!q->snd && !q->failed)
			nic_next_message(q, fl);
	}
}

void nic_post(struct net *net, struct flow *fl)
{
	if (fl->gen) {
		gen_start(net, container_of(fl, struct nic_gen, stub));
		return;
	}
	struct qp *q = post_append(net, fl);
	struct nic *n = &net->nics[q->src];
	if (q->local) {
		nvlink_send(n->net, q, fl);
		return;
	}
	if (n->cfg->tcp) { /* the host stack hands it over tcp.stack_latency later */
		tcp_post(n, q, fl);
		return;
	}
	if (!q->snd && !q->failed) {
		nic_next_message(q, fl);
		if (!q->ready && !q->pacing)
			nic_ready_push(n, q);
	}
	nic_kick(n);
}

/* notification point: answer a CE mark with a CNP, rate-limited */
static void np_mark(struct nic *n, struct qp *q, const struct pkt *d)
{
	struct net *net = n->net;
	sim_time_ps *last = n->cfg->cnp_per_port ? &n->last_cnp_ps : &q->rx.last_cnp_ps;
	if (*last >= 0 && net->eng.now - *last < n->cfg->min_time_between_cnps_ps)
		return;
	*last = net->eng.now;
	net->st.cc.cnps_sent++;
	send_ctrl(net, d, PKT_CNP, 0, net->qos.cnp_dscp);
}

/* message fl has arrived whole */
void nic_flow_complete(struct net *net, struct flow *fl)
{
	fl->end_ps = net->eng.now;
	net->flows_done++;
	if (net->obs.flow_done)
		net->obs.flow_done(net->obs.flow_ctx, fl);
}

/* p's payload reaches its message: complete when all of it has */
void nic_credit_payload(struct nic *n, struct pkt *p)
{
	struct flow *fl = p->fl;
	nic_count_payload(n, p);
	pkt_release(&n->net->pool, p);
	if (fl->rx_bytes == fl->bytes)
		nic_flow_complete(n->net, fl);
}

/* p's payload is counted to its message and the receiver (p stays) */
void nic_count_payload(struct nic *n, const struct pkt *p)
{
	struct net *net = n->net;
	struct flow *fl = p->fl;
	fl->rx_bytes += p->payload;
	n->rx_payload_bytes += p->payload;
	net->st.payload_delivered += p->payload;
	/* the QP's job, which the packet carries: every message of a QP is one
	 * job's, the QP's lines are its sender's thread's, and the message's
	 * first line need not be fetched */
	struct net_job_stats *js = net_job(net, p->job);
	if (js)
		js->delivered_bytes += p->payload;
	SIM_INVARIANT(fl->rx_bytes <= fl->bytes, "flow %llu received %lld of %lld bytes",
		      (unsigned long long)fl->id, (long long)fl->rx_bytes, (long long)fl->bytes);
}

/* the payload reaches the host */
static void deliver(struct nic *n, struct pkt *p)
{
	struct net *net = n->net;
	struct qp *q = &net->qps[p->qp];
	/* data comes only from a QP with state (qpcache.c) */
	SIM_INVARIANT(!net->qc || q->live, "data of QP %u, which has no state", p->qp);
	ib_return(n, p->prio, pkt_credit_blocks(pkt_frame_bytes(p)));
	if (n->cfg->tcp) {
		tcp_deliver(n, q, p);
		return;
	}
	if (n->cfg->reorder) {
		reorder_deliver(n, q, p);
		return;
	}
	if (p->psn != q->rx.nxt) { /* go-back-N: only the next PSN is accepted;
				     * p->fl may be released already: not read */
		if (p->psn > q->rx.nxt && !q->rx.nak_sent) {
			q->rx.nak_sent = 1;
			net->st.cc.naks_sent++;
			send_ctrl(net, p, PKT_NAK, q->rx.nxt, p->dscp);
		}
		net_drop(net, p, &net->st.drops.rx_discard);
		return;
	}
	struct flow *fl = p->fl;
	q->rx.nxt++;
	q->rx.nak_sent = 0;
	net->st.cc.pkts_delivered++;
	nic_rx_ce(n, q, p);
	int last = fl->rx_bytes + p->payload == fl->bytes;
	if (++q->rx.unacked >= NIC_ACK_EVERY || last) {
		q->rx.unacked = 0;
		net->st.cc.acks_sent++;
		send_ctrl(net, p, PKT_ACK, q->rx.nxt, p->dscp);
	}
	nic_credit_payload(n, p);
}

static int64_t xoff_bytes(const struct net *net)
{
	return NIC_XOFF_FRAMES * ((int64_t)net->qos.mtu_bytes + PKT_ROCE_HDR_BYTES);
}

static int below_xon(const struct nic *n)
{
	return (int64_t)n->rxq.bytes + n->net->qos.xon_offset_bytes <= xoff_bytes(n->net);
}

static void rx_xon_check(struct nic *n)
{
	if (!n->rx_xoff || !below_xon(n))
		return;
	for (unsigned p = 0; p < PKT_PRIOS; p++)
		if (n->rx_xoff & (1u << p))
			nic_send_pfc(n, p, 0);
	n->rx_xoff = 0;
	sim_cancel(&n->net->eng, &n->refresh_ev);
}

static sim_time_ps refresh_period(const struct nic *n)
{
	return pfc_quanta_ps(n->net->qos.pause_quanta, n->ser.rate_bps) / 2;
}

static void rx_refresh(struct sim_engine *eng, struct sim_event *ev)
{
	struct nic *n = container_of(ev, struct nic, refresh_ev);
	for (unsigned p = 0; p < PKT_PRIOS; p++)
		if (n->rx_xoff & (1u << p))
			nic_send_pfc(n, p, n->net->qos.pause_quanta);
	sim_schedule(eng, ev, eng->now + refresh_period(n));
}

static void drain_arm(struct nic *n)
{
	struct sim_engine *eng = &n->net->eng;
	if (!n->rxq.head || sim_event_pending(&n->drain_ev))
		return;
	sim_time_ps t = n->drain.rate_bps ? ser_time(&n->drain, pkt_wire_bytes(n->rxq.head)) : 0;
	sim_schedule(eng, &n->drain_ev, eng->now + t);
}

static void drain_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct nic *n = container_of(ev, struct nic, drain_ev);
	(void)eng;
	deliver(n, pktq_pop(&n->rxq));
	rx_xon_check(n);
	drain_arm(n);
}

void nic_set_drain(struct nic *n, int64_t rate_bps)
{
	struct sim_engine *eng = &n->net->eng;
	n->drain = (struct serializer){ .rate_bps = rate_bps };
	if (!rate_bps && sim_event_pending(&n->drain_ev))
		sim_schedule(eng, &n->drain_ev, eng->now);
}

static void rx_buffered(struct nic *n, struct pkt *p)
{
	struct net *net = n->net;
	int64_t limit = xoff_bytes(net) + n->cfg->rx_headroom_bytes;
	int ll = net_lossless(net, p->prio);
	if (net->qos.ib) { /* credits bound the buffer: no drop, no PFC */
		pktq_push(&n->rxq, p);
		drain_arm(n);
		return;
	}
	if ((int64_t)(n->rxq.bytes + pkt_frame_bytes(p)) > limit) {
		net_drop(net, p, ll ? &net->st.drops.lossless : &net->st.drops.lossy);
		return;
	}
	pktq_push(&n->rxq, p);
	if (ll && (int64_t)n->rxq.bytes >= xoff_bytes(net) && !(n->rx_xoff & (1u << p->prio))) {
		n->rx_xoff |= (uint8_t)(1u << p->prio);
		nic_send_pfc(n, p->prio, net->qos.pause_quanta);
		if (!sim_event_pending(&n->refresh_ev))
			sim_schedule(&net->eng, &n->refresh_ev, net->eng.now + refresh_period(n));
	}
	drain_arm(n);
}

void nic_rx(void *to, uint16_t port, struct pkt *p)
{
	struct nic *n = to;
	struct net *net = n->net;
	(void)port;
	if (n->down) { /* it was on the cable when the link failed */
		net_lost(net, p);
		return;
	}
	if (p->type == PKT_PFC) {
		pause_receive(&n->pause, p);
		return;
	}
	if (p->type == PKT_CREDIT) {
		ib_receive(n, p);
		return;
	}
	SIM_INVARIANT(p->dst == n->id, "h%u received a packet for h%u", n->id,
		      (unsigned)p->dst);
	if (p->type != PKT_DATA) {
		struct qp *q = nic_qp(net, p->qp); /* it may have been at rest */
		ib_return(n, p->prio, pkt_credit_blocks(pkt_frame_bytes(p)));
		switch (p->type) {
		case PKT_CNP: /* with ib.cc: a BECN */
			net->st.cc.cnps_received++;
			if (n->cfg->ibcc)
				ibcc_on_becn(&n->cfg->ibcc_params, &nic_qp_cc(net, q)->ibcc,
					     net->eng.now);
			else
				dcqcn_on_cnp(&n->cfg->dcqcn_params, &nic_qp_cc(net, q)->dc,
					     net->eng.now);
			break;
		case PKT_ACK:
			if (n->cfg->tcp)
				tcp_ack(net, q, p->psn, (p->flags & PKT_F_CE) != 0, p->sack);
			else
				nic_acked(net, q, p->psn);
			break;
		case PKT_NAK:
			if (n->cfg->reorder) {
				reorder_nak(net, q, p);
				break;
			}
			/* a NAK below psn_una is stale: a timeout or an earlier
			 * NAK already resent that range and it was acknowledged */
			if (p->psn >= q->psn_una) {
				nic_acked(net, q, p->psn);
				go_back(net, q, p->psn);
			}
			break;
		default:
			break;
		}
		pkt_release(&net->pool, p);
		if (net->qc) /* nothing holds a QP now */
			nic_qps_trim(net);
		return;
	}
	if (n->drain.rate_bps || n->rxq.head)
		rx_buffered(n, p);
	else
		deliver(n, p);
}

void nic_set_down(struct nic *n, int down)
{
	struct net *net = n->net;
	n->down = (uint8_t)down;
	if (net->qos.ib)
		ib_retrain(n);
	if (down) {
		while (n->pfcq.n)
			pkt_release(&net->pool, pktq_pop(&n->pfcq));
		for (unsigned p = 0; p < PKT_PRIOS; p++)
			while (n->ctrlq[p].n)
				pkt_release(&net->pool, pktq_pop(&n->ctrlq[p]));
		n->ctrl_mask = 0;
		for (unsigned p = 0; p < PKT_PRIOS; p++)
			pause_clear(&n->pause, p);
	}
	nic_kick(n);
}

void nic_init(struct net *net, struct nic *n, uint32_t id, const struct nic_config *cfg)
{
	*n = (struct nic){ .net = net, .cfg = cfg, .id = id };
	n->ser.rate_bps = cfg->rate_bps;
	sim_event_init(&n->tx_ev, nic_tx_done, SIM_KEY(EVKEY_NIC, id, EVKEY_NIC_TX));
	n->last_cnp_ps = -1;
	sim_event_init(&n->drain_ev, drain_fire, SIM_KEY(EVKEY_NIC, id, EVKEY_NIC_DRAIN));
	sim_event_init(&n->refresh_ev, rx_refresh, SIM_KEY(EVKEY_NIC, id, EVKEY_NIC_REFRESH));
	sim_event_init(&n->post_ev, nic_post_fire, SIM_KEY(EVKEY_NIC, id, EVKEY_NIC_POST));
	ib_init(net, n);
	pause_init(&net->pause, &n->pause, 1, id, 0, cfg->rate_bps, cfg->response_ps,
		   nic_pause_kick, SIM_KEY(EVKEY_NIC, id, EVKEY_NIC_PAUSE),
		   SIM_KEY(EVKEY_NIC, id, EVKEY_NIC_PAUSE_DELAY));
}

/* ---- for reorder.c: control frames, CE marks, going back ---- */

void nic_send_ctrl(struct net *net, const struct pkt *d, enum pkt_type type, uint32_t psn)
{
	send_ctrl(net, d, type, psn, d->dscp);
}

void nic_go_back(struct net *net, struct qp *q, uint32_t r)
{
	go_back(net, q, r);
}

void nic_rx_ce(struct nic *n, struct qp *q, const struct pkt *p)
{
	if (p->flags & PKT_F_CE) {
		n->net->st.cc.ce_delivered++;
		if (n->cfg->dcqcn) {
			np_mark(n, q, p);
		} else if (n->cfg->ibcc) { /* a FECN: a BECN back, on its VL */
			n->net->st.cc.cnps_sent++;
			send_ctrl(n->net, p, PKT_CNP, 0, p->dscp);
		}
	}
}
