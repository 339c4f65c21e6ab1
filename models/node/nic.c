/*
 * nic.c - the host NIC: QPs that send their messages packet by packet, and
 * the receive side that counts delivered payload per flow.
 *
 * Transmit: QPs with data wait in a ready ring per priority (an intrusive
 * FIFO).  When the wire is free the NIC takes the first QP of the highest
 * non-empty priority, sends one packet of its current message (at most mtu
 * bytes of payload) and puts the QP back at the tail if it has more: round
 * robin among QPs, strict priority between priorities, O(1) per packet
 * whatever the number of QPs.  PFC frames go out first and are never
 * paused; CNP, ACK and NAK frames go out ahead of data, by priority, and
 * wait while their priority is paused like data does.
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
 * it.
 *
 * Notification point: a CE-marked data packet makes the receiver send a
 * CNP to the sender's QP unless one went out within min_time_between_cnps
 * (per QP, or per NIC with cnp_scope = port).
 *
 * PFC (docs/model.md#pfc): NICs honour pause per priority (a paused priority's
 * ready ring is skipped; the frame in flight finishes) and send PFC frames
 * ahead of data.  A NIC pauses its ToR only under a fault: `slow-receiver`
 * (below) or `pause-storm` (fault.c).
 *
 * InfiniBand (fabric.type = infiniband): a VL without credits for its next
 * frame is stalled like a paused priority, and credit updates go out ahead
 * of everything like PFC frames (ib.c).
 *
 * Receive: payload bytes are credited to the packet's flow; the flow
 * completes when all its bytes have arrived (packets may arrive out of
 * order with ecmp = packet).  Under a slow-receiver fault, received frames
 * go through a small receive buffer drained at the fault's rate: XOFF to
 * the ToR when it holds NIC_XOFF_FRAMES data frames, refreshed at half the
 * pause time, XON at NIC_XOFF_FRAMES frames minus pfc.xon_offset; frames
 * beyond that plus the host link's headroom are dropped (a lossless drop).
 *
 * NVLink (topology.gpus_per_server > 1): a QP between two GPUs of one
 * server carries its messages over NVLink, never over the NIC (nvlink.c).
 *
 * The QP table, the message pool and the messages waiting for their start
 * time are in qps.c.  What these files share is in internal.h.
 */
#include "models/node/nic.h"

#include <stdlib.h>
#include <string.h>

#include "models/base/invariant.h"
#include "models/core/evkey.h"
#include "models/core/pfc.h"
#include "models/node/internal.h"

#define NIC_XOFF_FRAMES 4
#define NIC_ACK_EVERY 16

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

/* the QP's next message to send after `fl` (assigning its first PSN) */
static void next_message(struct qp *q, struct flow *fl)
{
	q->snd = fl;
	q->snd_left = fl ? fl->bytes : 0;
	if (fl && fl->first_psn == UINT32_MAX)
		fl->first_psn = q->psn_nxt;
}

/* TCP: the sender's state of q (nic.h: a table beside the QPs) */
static struct qp_tcp_tx *tcp_tx(const struct net *net, const struct qp *q)
{
	return &net->tcp[q->id].tx;
}

/* the retransmission timeout of q: go-back-N's fixed one, or TCP's */
static sim_time_ps rto_of(const struct nic *n, const struct qp *q)
{
	return n->cfg->tcp ? tcp_tx(n->net, q)->rto : n->cfg->rto_ps;
}

static void rto_arm(struct nic *n, struct qp *q)
{
	struct sim_engine *eng = &n->net->eng;
	q->rto_at_ps = eng->now + rto_of(n, q);
	if (!sim_event_pending(&q->rto_ev))
		sim_schedule(eng, &q->rto_ev, q->rto_at_ps);
}

static void count_resent(struct net *net, const struct qp *q, uint32_t payload)
{
	net->st.cc.retransmitted_bytes += payload;
	struct net_job_stats *js = net_job(net, q->job);
	if (js)
		js->retransmitted_bytes += payload;
}

static void count_sent(struct nic *n, uint32_t payload)
{
	n->tx_pkts++;
	n->tx_payload_bytes += payload;
	n->net->st.payload_injected += payload;
	n->net->st.data_pkts_sent++;
}

/* the bytes of message fl from its packet of PSN r on */
static int64_t bytes_from(const struct flow *fl, uint32_t r, uint32_t mtu)
{
	return fl->bytes - (int64_t)(r - fl->first_psn) * mtu;
}

/* a data packet of message fl, of which `left` bytes are from it on, PSN psn */
static struct pkt *data_packet(struct nic *n, struct qp *q, struct flow *fl, int64_t left,
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

/* TCP: the one segment fast retransmit or a partial ACK resends,
 * without moving psn_nxt */
static struct pkt *take_rexmit(struct nic *n, struct qp *q)
{
	struct qp_tcp_tx *t = tcp_tx(n->net, q);
	uint32_t r = t->rexmit;
	struct flow *fl = q->head;
	t->rexmit = UINT32_MAX;
	while (fl && r >= fl->first_psn + fl->npkts)
		fl = fl->next;
	SIM_INVARIANT(fl && fl->first_psn != UINT32_MAX && r >= fl->first_psn,
		      "QP %u cannot resend PSN %u", q->id, r);
	struct pkt *p = data_packet(n, q, fl, bytes_from(fl, r, n->net->qos.mtu_bytes), r);
	count_resent(n->net, q, p->payload);
	if (t->rtt_psn != UINT32_MAX && t->rtt_psn >= r)
		t->rtt_psn = UINT32_MAX; /* Karn: no sample across a resend */
	return p;
}

static uint32_t tcp_next_hole(struct qp_tcp_tx *t, const struct qp *q);

/* build the next data packet of q; the QP stays out of the ready ring */
static struct pkt *take_packet(struct nic *n, struct qp *q)
{
	struct net *net = n->net;
	struct qp_tcp_tx *t = n->cfg->tcp ? tcp_tx(net, q) : NULL;
	if (t && t->in_recovery && t->rexmit == UINT32_MAX) {
		uint32_t hole = tcp_next_hole(t, q);
		if (hole != UINT32_MAX) { /* SACK: resend a hole before new data */
			t->rexmit = hole;
			t->rtx_next = hole + 1;
			t->retx_out++;
		}
	}
	if (t && t->rexmit != UINT32_MAX)
		return take_rexmit(n, q);
	struct flow *fl = q->snd;
	struct pkt *p = data_packet(n, q, fl, q->snd_left, q->psn_nxt);
	uint32_t payload = p->payload;
	if (q->psn_nxt < q->psn_max)
		count_resent(net, q, payload);
	else if (t && t->rtt_psn == UINT32_MAX) { /* time a new segment */
		t->rtt_psn = q->psn_nxt;
		t->rtt_start = net->eng.now;
	}
	q->psn_nxt++;
	if (q->psn_nxt > q->psn_max)
		q->psn_max = q->psn_nxt;
	q->snd_left -= payload;
	if (!q->snd_left)
		next_message(q, fl->next);
	if (!q->rto_at_ps) { /* nothing was outstanding: the timer starts now */
		q->progress_ps = net->eng.now;
		rto_arm(n, q);
	}
	return p;
}

/* ---- TCP (fabric.type = ethernet-tcp) ---- */

/* the segments a receiver takes beyond its next expected one: Linux's
 * default largest receive buffer (tcp_rmem), 6 MiB */
#define TCP_RWND_BYTES (6 << 20)
#define TCP_RTO_MAX_PS (120 * UNITS_PS_PER_S)
#define DCTCP_G (1.0 / 16)

static uint32_t tcp_rwnd(const struct net *net)
{
	return TCP_RWND_BYTES / net->qos.mtu_bytes;
}

/* a map of the segments of a receive window (the receiver's out of
 * order, the sender's SACKed): bit psn % bits, bits a power of two above
 * the window, allocated on first use */
static int seg_test(const uint64_t *map, uint32_t bits, uint32_t psn)
{
	return map && (map[(psn % bits) / 64] >> (psn % 64) & 1u);
}

static void seg_clear(uint64_t *map, uint32_t bits, uint32_t psn)
{
	map[(psn % bits) / 64] &= ~(1ull << (psn % 64));
}

/* 1 when the bit was not set */
static int seg_set(const struct net *net, uint64_t **map, uint32_t *bits, uint32_t psn)
{
	if (!*map) {
		uint32_t b = 64;
		while (b <= tcp_rwnd(net) + 1)
			b *= 2;
		*map = calloc(b / 64, sizeof(**map));
		SIM_INVARIANT(*map, "out of memory for a TCP window map");
		*bits = b;
	}
	if (seg_test(*map, *bits, psn))
		return 0;
	(*map)[(psn % *bits) / 64] |= 1ull << (psn % 64);
	return 1;
}

/* SACK: the next hole (below the highest SACKed segment, not SACKed, not
 * resent in this recovery), UINT32_MAX when none; rtx_next skips past the
 * SACKed ones on the way */
static uint32_t tcp_next_hole(struct qp_tcp_tx *t, const struct qp *q)
{
	uint32_t p = t->rtx_next > q->psn_una ? t->rtx_next : q->psn_una;
	while (p < t->high_sack && seg_test(t->sacked, t->sack_bits, p))
		p++;
	t->rtx_next = p;
	return p < t->high_sack ? p : UINT32_MAX;
}

/* RFC 6675's pipe: the segments sent above the highest SACKed one (in
 * flight or lost, not known yet; after a timeout's go-back, those sent
 * again) and the holes resent in this recovery; the holes below it are
 * deemed lost */
static uint32_t tcp_pipe(const struct qp_tcp_tx *t, const struct qp *q)
{
	uint32_t from = t->high_sack > q->psn_una ? t->high_sack : q->psn_una;
	return (q->psn_nxt > from ? q->psn_nxt - from : 0) + t->retx_out;
}

/* may q send a segment now: a resend, or new data within the window whose
 * message the stack has handed over; in recovery, while the pipe is below
 * cwnd, a hole first */
static int tcp_can_send(const struct nic *n, struct qp *q)
{
	struct qp_tcp_tx *t = tcp_tx(n->net, q);
	if (q->failed)
		return 0;
	if (t->rexmit != UINT32_MAX)
		return 1;
	int data = q->snd && q->snd->due_ps <= n->net->eng.now &&
		   q->psn_nxt - q->psn_una < tcp_rwnd(n->net);
	if (t->in_recovery)
		return (double)tcp_pipe(t, q) < t->cwnd && (data || tcp_next_hole(t, q) != UINT32_MAX);
	return data && (double)(q->psn_nxt - q->psn_una) < t->cwnd;
}

/*
 * Into the ready ring if q may send; else wait for its message's due time,
 * or, in recovery with resent holes outstanding, for two round trips (at
 * least 10 us): a resent hole that has not arrived by then is deemed lost
 * again and resent (RACK's time-based loss detection, simplified).
 */
static void tcp_try(struct nic *n, struct qp *q)
{
	struct sim_engine *eng = &n->net->eng;
	struct qp_tcp_tx *t = tcp_tx(n->net, q);
	if (q->ready)
		return;
	if (tcp_can_send(n, q)) {
		nic_ready_push(n, q);
		nic_kick(n);
	} else if (sim_event_pending(&q->pace_ev) || q->failed) {
		return;
	} else if (t->in_recovery && t->retx_out) {
		sim_time_ps wait = 2 * t->srtt > 10 * UNITS_PS_PER_US ? 2 * t->srtt
								       : 10 * UNITS_PS_PER_US;
		t->rack_una = q->psn_una;
		sim_schedule(eng, &q->pace_ev, eng->now + wait);
	} else if (q->snd && q->snd->due_ps > eng->now) {
		sim_schedule(eng, &q->pace_ev, q->snd->due_ps);
	}
}

void tcp_wake(struct sim_engine *eng, struct sim_event *ev)
{
	struct qp *q = container_of(ev, struct qp, pace_ev);
	struct net *net = container_of(eng, struct net, eng);
	struct qp_tcp_tx *t = tcp_tx(net, q);
	if (t->in_recovery && t->retx_out && t->rack_una == q->psn_una) {
		t->retx_out = 0; /* no progress: the resent holes are lost again */
		t->rtx_next = q->psn_una;
	}
	tcp_try(&net->nics[q->src], q);
}

/* RFC 6298: a round-trip sample r */
static void tcp_rtt_sample(struct qp_tcp_tx *t, sim_time_ps r, sim_time_ps rto_min)
{
	if (!t->srtt) {
		t->srtt = r;
		t->rttvar = r / 2;
	} else {
		sim_time_ps d = t->srtt > r ? t->srtt - r : r - t->srtt;
		t->rttvar = (3 * t->rttvar + d) / 4;
		t->srtt = (7 * t->srtt + r) / 8;
	}
	sim_time_ps rto = t->srtt + 4 * t->rttvar;
	t->rto = rto < rto_min ? rto_min : rto > TCP_RTO_MAX_PS ? TCP_RTO_MAX_PS : rto;
}

/* a loss: ssthresh to half the data in flight (at least 2 segments) */
static void tcp_halve(struct qp_tcp_tx *t, const struct qp *q)
{
	double half = (double)(q->psn_max - q->psn_una) / 2;
	t->ssthresh = half > 2 ? half : 2;
}

/* DCTCP: alpha once per window of data; one cut per window while marked */
static void dctcp_ack(struct qp_tcp_tx *t, const struct qp *q, uint32_t newly, int ece)
{
	t->win_acked += newly;
	if (ece)
		t->win_marked += newly;
	if (q->psn_una >= t->win_end) {
		double f = t->win_acked ? (double)t->win_marked / t->win_acked : 0;
		t->alpha = (1 - DCTCP_G) * t->alpha + DCTCP_G * f;
		t->win_acked = t->win_marked = 0;
		t->win_end = q->psn_max;
	}
	if (ece && q->psn_una >= t->cwr_end) {
		double c = t->cwnd * (1 - t->alpha / 2);
		t->cwnd = t->ssthresh = c > 1 ? c : 1;
		t->cwr_end = q->psn_max;
	}
}

static void acked(struct net *net, struct qp *q, uint32_t a);

/* SACK: the scoreboard forgets what the cumulative ACK a now covers; the
 * holes resent among it are no longer in the pipe */
static void sack_advance(struct qp_tcp_tx *t, const struct qp *q, uint32_t a)
{
	for (uint32_t p = q->psn_una; p < a; p++) {
		if (seg_test(t->sacked, t->sack_bits, p)) {
			seg_clear(t->sacked, t->sack_bits, p);
			t->sacked_cnt--;
		} else if (t->in_recovery && p < t->rtx_next && t->retx_out) {
			t->retx_out--;
		}
	}
}

/*
 * An ACK of everything below a (ece: the receiver echoes CE; sack: the
 * segment PSN + 1 it answers out of order, 0 none).  New data acknowledged:
 * an RTT sample, the window grows (slow start below ssthresh, else one
 * segment per window) outside recovery, and recovery ends once `recover`
 * is acknowledged.  The third duplicate ACK: fast retransmit of psn_una,
 * ssthresh and cwnd to half the flight, recovery until psn_max is
 * acknowledged, in which SACKed holes are resent while the pipe is below
 * cwnd (RFC 6675).
 */
static void tcp_ack(struct net *net, struct qp *q, uint32_t a, int ece, uint32_t sack)
{
	struct nic *n = &net->nics[q->src];
	struct qp_tcp_tx *t = tcp_tx(net, q);
	if (sack && sack - 1 >= q->psn_una && sack <= q->psn_max &&
	    seg_set(net, &t->sacked, &t->sack_bits, sack - 1)) {
		t->sacked_cnt++;
		if (sack > t->high_sack)
			t->high_sack = sack;
		if (t->in_recovery && sack - 1 < t->rtx_next && t->retx_out)
			t->retx_out--; /* a resent hole arrived */
	}
	if (a > q->psn_una) {
		uint32_t newly = a - q->psn_una;
		if (t->rtt_psn != UINT32_MAX && a > t->rtt_psn) {
			tcp_rtt_sample(t, net->eng.now - t->rtt_start, n->cfg->tcp_rto_min_ps);
			t->rtt_psn = UINT32_MAX;
		}
		sack_advance(t, q, a);
		acked(net, q, a);
		t->dupacks = 0;
		if (t->in_recovery && a >= t->recover) {
			t->in_recovery = 0;
			t->retx_out = 0;
			t->cwnd = t->ssthresh;
		} else if (!t->in_recovery && t->cwnd < t->ssthresh) {
			t->cwnd += newly;
		} else if (!t->in_recovery) {
			t->cwnd += newly / t->cwnd;
		}
		if (n->cfg->dctcp)
			dctcp_ack(t, q, newly, ece);
	} else if (a == q->psn_una && q->psn_una < q->psn_max) {
		if (++t->dupacks == 3 && !t->in_recovery) {
			net->st.cc.naks_sent++; /* fast retransmits, in summary.csv's naks_sent */
			tcp_halve(t, q);
			t->cwnd = t->ssthresh;
			t->recover = q->psn_max;
			t->in_recovery = 1;
			t->rexmit = q->psn_una;
			t->rtx_next = q->psn_una + 1;
			t->retx_out = 1;
		}
		if (n->cfg->dctcp)
			dctcp_ack(t, q, 0, ece);
	}
	tcp_try(n, q);
}

/* a timeout: cwnd to one segment, the timer backs off, resend from psn_una */
static void tcp_timeout(struct qp_tcp_tx *t, const struct qp *q)
{
	tcp_halve(t, q);
	t->cwnd = 1;
	t->dupacks = 0;
	t->in_recovery = 0;
	t->rexmit = UINT32_MAX;
	t->rtt_psn = UINT32_MAX;
	t->rto = t->rto * 2 < TCP_RTO_MAX_PS ? t->rto * 2 : TCP_RTO_MAX_PS;
	if (t->sacked) /* what was SACKed is sent again from psn_una on */
		memset(t->sacked, 0, t->sack_bits / 8);
	t->sacked_cnt = t->high_sack = t->rtx_next = t->retx_out = 0;
}

/* the receiver's cumulative ACK, CE echoed for DCTCP, with the SACK block
 * of the out-of-order segment it answers (PSN + 1; 0: none) */
static void tcp_send_ack(struct net *net, struct qp *q, uint32_t sack)
{
	struct nic *n = &net->nics[q->dst];
	struct pkt *p = net_pkt(net);
	*p = (struct pkt){ .qp = q->id, .psn = q->rx.nxt, .src = q->dst, .dst = q->src,
			   .sport = q->sport, .dscp = q->dscp, .prio = q->prio, .type = PKT_ACK,
			   .flags = q->rx.ce ? PKT_F_CE : 0, .sack = sack };
	q->rx.unacked = 0;
	sim_cancel(&net->eng, &net->tcp[q->id].delack_ev);
	net->st.cc.acks_sent++;
	pktq_push(&n->ctrlq[p->prio], p);
	n->ctrl_mask |= (uint8_t)(1u << p->prio);
	nic_kick(n);
}

static void tcp_delack_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct net *net = container_of(eng, struct net, eng);
	tcp_send_ack(net, &net->qps[container_of(ev, struct qp_tcp, delack_ev)->qp], 0);
}

/* the connection is open before the traffic: no RTT sample yet, RTO =
 * rto_min; DCTCP starts from alpha = 1 (Linux) */
void tcp_open(struct net *net, uint32_t qid, const struct nic_config *cfg)
{
	struct qp_tcp *t = &net->tcp[qid];
	*t = (struct qp_tcp){ .tx = { .cwnd = cfg->tcp_init_cwnd, .ssthresh = 1e9,
				      .rexmit = UINT32_MAX, .rtt_psn = UINT32_MAX,
				      .rto = cfg->tcp_rto_min_ps, .alpha = 1 },
			      .qp = qid };
	sim_event_init(&t->delack_ev, tcp_delack_fire, SIM_KEY(EVKEY_QP, qid, EVKEY_QP_DELACK));
}

static int ooo_test(const struct qp *q, uint32_t psn)
{
	return seg_test(q->rx.ooo, q->rx.ooo_bits, psn);
}

static void credit_payload(struct nic *n, struct pkt *p);

/*
 * TCP's receiver: a segment beyond nxt (within the window) is kept and
 * answered at once by a duplicate ACK; the next expected one moves nxt past
 * the segments kept.  ACKs: at once when a hole fills, at a message's last
 * segment, when DCTCP's CE state changes, and for every second segment;
 * otherwise after tcp.delayed_ack.  A segment below nxt, or kept already,
 * is a duplicate (discarded, ACKed at once).
 */
static void tcp_deliver(struct nic *n, struct qp *q, struct pkt *p)
{
	struct net *net = n->net;
	uint32_t psn = p->psn;
	int ce = (p->flags & PKT_F_CE) != 0;
	if (psn < q->rx.nxt || psn > q->rx.nxt + tcp_rwnd(net) || ooo_test(q, psn)) {
		net_drop(net, p, &net->st.drops.rx_discard);
		tcp_send_ack(net, q, 0);
		return;
	}
	int now_ack = n->cfg->dctcp && ce != q->rx.ce;
	if (now_ack && q->rx.unacked)
		tcp_send_ack(net, q, 0); /* DCTCP: the segments before, with the old state */
	q->rx.ce = (uint8_t)ce;
	if (ce)
		net->st.cc.ce_delivered++;
	int last = p->fl->rx_bytes + p->payload == p->fl->bytes;
	uint32_t sack = 0;
	if (psn > q->rx.nxt) {
		seg_set(net, &q->rx.ooo, &q->rx.ooo_bits, psn);
		sack = psn + 1;
		now_ack = 1;
	} else {
		q->rx.nxt++;
		while (ooo_test(q, q->rx.nxt)) { /* a hole filled */
			seg_clear(q->rx.ooo, q->rx.ooo_bits, q->rx.nxt);
			q->rx.nxt++;
			now_ack = 1;
		}
	}
	net->st.cc.pkts_delivered++;
	credit_payload(n, p);
	if (now_ack || last || ++q->rx.unacked >= 2 || !n->cfg->tcp_delack_ps)
		tcp_send_ack(net, q, sack);
	else if (!sim_event_pending(&net->tcp[q->id].delack_ev))
		sim_schedule(&net->eng, &net->tcp[q->id].delack_ev, net->eng.now + n->cfg->tcp_delack_ps);
}

/*
 * Pacing at Rc: the QP may send again one frame time at Rc after its last
 * packet started.  While it waits, Rc can only rise at a DCQCN increase
 * event, whose time is known (the increase timer); the wait is re-examined
 * then, so a QP cut to a low rate is not stuck behind a long gap computed
 * before its rate recovered.
 */
static sim_time_ps pace_target(const struct nic *n, struct qp *q)
{
	double rc = dcqcn_rate(&n->cfg->dcqcn_params, &q->dc, n->net->eng.now);
	return q->last_send_ps + (sim_time_ps)((double)q->last_wire * 8e12 / rc);
}

/* wait for the pacing target, or for the next increase event if earlier */
static void pace_wait(const struct nic *n, struct qp *q, sim_time_ps target)
{
	struct sim_engine *eng = &n->net->eng;
	sim_time_ps wake = target;
	if (q->dc.reacting) {
		sim_time_ps inc = q->dc.timer_start_ps + n->cfg->dcqcn_params.time_reset_ps;
		if (inc > eng->now && inc < wake)
			wake = inc;
	}
	q->pacing = 1;
	sim_schedule(eng, &q->pace_ev, wake);
}

/* after q sent a packet of `wire` bytes at now: back in the ring at once,
 * or when its rate allows */
static void requeue(struct nic *n, struct qp *q, uint32_t wire)
{
	sim_time_ps now = n->net->eng.now;
	if (n->cfg->dcqcn) {
		dcqcn_on_sent(&n->cfg->dcqcn_params, &q->dc, wire, now);
		q->last_send_ps = now;
		q->last_wire = wire;
	}
	if (n->cfg->tcp) {
		tcp_try(n, q);
		return;
	}
	if (!q->snd)
		return;
	if (n->cfg->dcqcn) {
		sim_time_ps line = (sim_time_ps)wire * 8 * UNITS_PS_PER_S / n->ser.rate_bps;
		sim_time_ps target = pace_target(n, q);
		if (target - now > line) {
			pace_wait(n, q, target);
			return;
		}
	}
	nic_ready_push(n, q);
}

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
	} while (n->cfg->tcp ? !tcp_can_send(n, q) : !q->snd);
	struct pkt *p = take_packet(n, q);
	start_tx(n, p);
	requeue(n, q, pkt_wire_bytes(p));
}

void nic_pace_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct qp *q = container_of(ev, struct qp, pace_ev);
	struct net *net = eng->user;
	struct nic *n = &net->nics[q->src];
	q->pacing = 0;
	if (!q->snd || q->ready)
		return;
	sim_time_ps target = pace_target(n, q);
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
		next_message(q, fl);
		return;
	}
	q->snd = fl;
	q->snd_left = fl ? bytes_from(fl, r, net->qos.mtu_bytes) : 0;
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
static void acked(struct net *net, struct qp *q, uint32_t a)
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
}

void nic_rto_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct qp *q = container_of(ev, struct qp, rto_ev);
	struct net *net = eng->user;
	if (q->failed || !q->rto_at_ps || q->psn_una >= q->psn_max) {
		q->rto_at_ps = 0;
		return;
	}
	if (eng->now < q->rto_at_ps) { /* progress moved the deadline */
		sim_schedule(eng, ev, q->rto_at_ps);
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

void nic_post(struct net *net, struct flow *fl)
{
	struct qp *q = &net->qps[fl->qp];
	struct nic *n = &net->nics[q->src];
	if (q->job == NET_NONE)
		q->job = fl->job;
	fl->posted = 1;
	fl->next = NULL;
	if (q->tail)
		q->tail->next = fl;
	else
		q->head = fl;
	q->tail = fl;
	if (q->local) {
		nvlink_send(n->net, q, fl);
		return;
	}
	if (n->cfg->tcp) { /* the host stack hands it over tcp.stack_latency later */
		fl->due_ps = n->net->eng.now + n->cfg->tcp_stack_ps;
		if (!q->snd && !q->failed)
			next_message(q, fl);
		tcp_try(n, q);
		return;
	}
	if (!q->snd && !q->failed) {
		next_message(q, fl);
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

/* the payload reaches the host */
/* p's payload reaches its message: complete when all of it has */
static void credit_payload(struct nic *n, struct pkt *p)
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
	pkt_release(&net->pool, p);
	if (fl->rx_bytes == fl->bytes) {
		fl->end_ps = net->eng.now;
		net->flows_done++;
		if (net->obs.flow_done)
			net->obs.flow_done(net->obs.flow_ctx, fl);
	}
}

/* the payload reaches the host */
static void deliver(struct nic *n, struct pkt *p)
{
	struct net *net = n->net;
	struct qp *q = &net->qps[p->qp];
	ib_return(n, p->prio, pkt_credit_blocks(pkt_frame_bytes(p)));
	if (n->cfg->tcp) {
		tcp_deliver(n, q, p);
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
	if (p->flags & PKT_F_CE) {
		net->st.cc.ce_delivered++;
		if (n->cfg->dcqcn)
			np_mark(n, q, p);
	}
	int last = fl->rx_bytes + p->payload == fl->bytes;
	if (++q->rx.unacked >= NIC_ACK_EVERY || last) {
		q->rx.unacked = 0;
		net->st.cc.acks_sent++;
		send_ctrl(net, p, PKT_ACK, q->rx.nxt, p->dscp);
	}
	credit_payload(n, p);
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
		struct qp *q = &net->qps[p->qp];
		ib_return(n, p->prio, pkt_credit_blocks(pkt_frame_bytes(p)));
		switch (p->type) {
		case PKT_CNP:
			net->st.cc.cnps_received++;
			dcqcn_on_cnp(&n->cfg->dcqcn_params, &q->dc, net->eng.now);
			break;
		case PKT_ACK:
			if (n->cfg->tcp)
				tcp_ack(net, q, p->psn, (p->flags & PKT_F_CE) != 0, p->sack);
			else
				acked(net, q, p->psn);
			break;
		case PKT_NAK:
			/* a NAK below psn_una is stale: a timeout or an earlier
			 * NAK already resent that range and it was acknowledged */
			if (p->psn >= q->psn_una) {
				acked(net, q, p->psn);
				go_back(net, q, p->psn);
			}
			break;
		default:
			break;
		}
		pkt_release(&net->pool, p);
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
