/*
 * tcp.c - TCP on the hosts (fabric.type = ethernet-tcp): each QP is a TCP
 * connection whose segments are its PSNs (tcp.mss of payload each), sent
 * through the NIC's ready ring and received by the NIC's receive path
 * (nic.c) over lossy switches.
 *
 * Sender: NewReno's congestion window (RFC 5681, RFC 6582): slow start
 * below ssthresh, one segment per window above it; the third duplicate ACK
 * resends psn_una, sets ssthresh and cwnd to half the flight and starts a
 * recovery that ends when the highest PSN sent by then is acknowledged.  In recovery the holes
 * the receiver's SACK blocks reveal are resent while the pipe is below cwnd
 * (RFC 6675, simplified: one SACK block per ACK), and resent holes that
 * have not arrived two round trips later are deemed lost again (RACK,
 * RFC 8985, simplified).  The retransmission timer is RFC 6298's (srtt,
 * rttvar, rto between tcp.rto_min and 120 s, Karn's rule), run by the
 * go-back-N timer of nic.c: a timeout sets cwnd to one segment and resends
 * from psn_una.  DCTCP (tcp.cc = dctcp, RFC 8257): alpha from the fraction
 * of CE-echoed data per window (g = 1/16), one cut of cwnd x (1 - alpha/2)
 * per window; NewReno's segments are not ECN-capable, DCTCP's are.  The
 * receive window is Linux's default largest receive buffer; the host stack
 * hands each message to the connection tcp.stack_latency after it is
 * posted.
 *
 * Receiver: segments beyond the next expected one are kept (within the
 * window) and answered by a duplicate ACK with their SACK block; ACKs are
 * delayed (tcp.delayed_ack) except for every second segment, a filled hole,
 * a message's last segment and a change of the CE state DCTCP echoes.
 */
#include "models/node/internal.h"

#include <stdlib.h>
#include <string.h>

#include "models/base/invariant.h"
#include "models/core/evkey.h"

/* the segments a receiver takes beyond its next expected one: Linux's
 * default largest receive buffer (tcp_rmem), 6 MiB */
#define TCP_RWND_BYTES (6 << 20)
#define TCP_RTO_MAX_PS (120 * UNITS_PS_PER_S)
#define DCTCP_G (1.0 / 16)

static uint32_t tcp_rwnd(const struct net *net)
{
	return TCP_RWND_BYTES / net->qos.mtu_bytes;
}

/* the bits of a map of a receive window: a power of two above it */
static uint32_t win_bits(const struct net *net)
{
	uint32_t b = 64;
	while (b <= tcp_rwnd(net) + 1)
		b *= 2;
	return b;
}

/* a map of the segments of a receive window (the receiver's out of
 * order, in net->rxwin; the sender's SACKed): bit psn % bits, allocated on
 * first use */
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
		uint32_t b = win_bits(net);
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
	int64_t left = nic_bytes_from(fl, r, n->net->qos.mtu_bytes);
	struct pkt *p = nic_data_packet(n, q, fl, left, r);
	nic_count_resent(n->net, q, p->payload);
	if (t->rtt_psn != UINT32_MAX && t->rtt_psn >= r)
		t->rtt_psn = UINT32_MAX; /* Karn: no sample across a resend */
	return p;
}

/* the segment q resends before new data: one fast retransmit or a partial
 * ACK asked for, or in recovery the next SACK hole; NULL when none */
struct pkt *tcp_take_resend(struct nic *n, struct qp *q)
{
	struct qp_tcp_tx *t = tcp_tx(n->net, q);
	if (t->in_recovery && t->rexmit == UINT32_MAX) {
		uint32_t hole = tcp_next_hole(t, q);
		if (hole != UINT32_MAX) { /* SACK: resend a hole before new data */
			t->rexmit = hole;
			t->rtx_next = hole + 1;
			t->retx_out++;
		}
	}
	return t->rexmit != UINT32_MAX ? take_rexmit(n, q) : NULL;
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
int tcp_can_send(const struct nic *n, struct qp *q)
{
	struct qp_tcp_tx *t = tcp_tx(n->net, q);
	if (q->failed)
		return 0;
	if (t->rexmit != UINT32_MAX)
		return 1;
	int data = q->snd && q->snd->due_ps <= n->net->eng.now &&
		   q->psn_nxt - q->psn_una < tcp_rwnd(n->net);
	if (t->in_recovery)
		return (double)tcp_pipe(t, q) < t->cwnd &&
		       (data || tcp_next_hole(t, q) != UINT32_MAX);
	return data && (double)(q->psn_nxt - q->psn_una) < t->cwnd;
}

/*
 * Into the ready ring if q may send; else wait for its message's due time,
 * or, in recovery with resent holes outstanding, for two round trips (at
 * least 10 us): a resent hole that has not arrived by then is deemed lost
 * again and resent (RACK's time-based loss detection, simplified).
 */
void tcp_try(struct nic *n, struct qp *q)
{
	struct sim_engine *eng = &n->net->eng;
	struct qp_tcp_tx *t = tcp_tx(n->net, q);
	if (q->ready)
		return;
	struct sim_event *pace = &nic_qp_cc(n->net, q)->pace_ev;
	if (tcp_can_send(n, q)) {
		nic_ready_push(n, q);
		nic_kick(n);
	} else if (sim_event_pending(pace) || q->failed) {
		return;
	} else if (t->in_recovery && t->retx_out) {
		sim_time_ps wait = 2 * t->srtt > 10 * UNITS_PS_PER_US ? 2 * t->srtt
								       : 10 * UNITS_PS_PER_US;
		t->rack_una = q->psn_una;
		sim_schedule(eng, pace, eng->now + wait);
	} else if (q->snd && q->snd->due_ps > eng->now) {
		sim_schedule(eng, pace, q->snd->due_ps);
	}
}

void tcp_wake(struct sim_engine *eng, struct sim_event *ev)
{
	struct net *net = container_of(eng, struct net, eng);
	struct qp *q = nic_pace_qp(net, ev);
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
void tcp_ack(struct net *net, struct qp *q, uint32_t a, int ece, uint32_t sack)
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
		nic_acked(net, q, a);
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
void tcp_timeout(struct qp_tcp_tx *t, const struct qp *q)
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

/*
 * TCP's receiver: a segment beyond nxt (within the window) is kept and
 * answered at once by a duplicate ACK; the next expected one moves nxt past
 * the segments kept.  ACKs: at once when a hole fills, at a message's last
 * segment, when DCTCP's CE state changes, and for every second segment;
 * otherwise after tcp.delayed_ack.  A segment below nxt, or kept already,
 * is a duplicate (discarded, ACKed at once).
 */
void tcp_deliver(struct nic *n, struct qp *q, struct pkt *p)
{
	struct net *net = n->net;
	uint32_t psn = p->psn;
	int ce = (p->flags & PKT_F_CE) != 0;
	uint64_t **ooo = &net->rxwin[q->id]; /* the receiver's out of order */
	uint32_t bits = win_bits(net);
	if (psn < q->rx.nxt || psn > q->rx.nxt + tcp_rwnd(net) || seg_test(*ooo, bits, psn)) {
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
		net->st.cc.ooo_pkts++;
		seg_set(net, ooo, &bits, psn);
		sack = psn + 1;
		now_ack = 1;
	} else {
		q->rx.nxt++;
		while (seg_test(*ooo, bits, q->rx.nxt)) { /* a hole filled */
			seg_clear(*ooo, bits, q->rx.nxt);
			q->rx.nxt++;
			now_ack = 1;
		}
	}
	net->st.cc.pkts_delivered++;
	nic_credit_payload(n, p);
	if (now_ack || last || ++q->rx.unacked >= 2 || !n->cfg->tcp_delack_ps)
		tcp_send_ack(net, q, sack);
	else if (!sim_event_pending(&net->tcp[q->id].delack_ev))
		sim_schedule(&net->eng, &net->tcp[q->id].delack_ev,
			     net->eng.now + n->cfg->tcp_delack_ps);
}

/* the host stack hands message fl, queued on q, to the connection
 * tcp.stack_latency after it is posted */
void tcp_post(struct nic *n, struct qp *q, struct flow *fl)
{
	fl->due_ps = n->net->eng.now + n->cfg->tcp_stack_ps;
	if (!q->snd && !q->failed)
		nic_next_message(q, fl);
	tcp_try(n, q);
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
