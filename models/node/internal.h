/*
 * internal.h - what the NIC's files share (nic.c, tcp.c, ib.c, nvlink.c,
 * qps.c; net.c frees TCP's table): TCP's per-QP state, the ready ring, and
 * the calls between the transports and the NIC's transmit/receive skeleton
 * in nic.c.  Nothing
 * outside models/node includes it.  The small helpers of the per-packet
 * path are static inline here, so that splitting the NIC into files costs
 * no call per packet.
 */
#ifndef DCQCN_NODE_INTERNAL_H
#define DCQCN_NODE_INTERNAL_H

#include <stdint.h>

#include "models/base/engine.h"
#include "models/node/nic.h"

/*
 * TCP's state of a QP (nic_config.tcp), in a table of its own indexed like
 * the QPs (net->tcp): RoCE's QPs do without it, 128 bytes instead of 320
 * (an all-to-all of n ranks opens n (n - 1) of them).
 */
struct qp_tcp {
	/* the sender's congestion state, in segments (a segment is one PSN) */
	struct qp_tcp_tx {
		double cwnd, ssthresh;
		uint32_t dupacks;
		uint32_t recover;          /* NewReno: psn_max when recovery began */
		uint32_t rexmit;           /* one segment to resend first; UINT32_MAX: none */
		uint32_t rtt_psn;          /* the segment timed; UINT32_MAX: none */
		sim_time_ps rtt_start;
		sim_time_ps srtt, rttvar, rto; /* srtt 0: no sample yet */
		uint8_t in_recovery;
		/* SACK (RFC 6675, simplified): segments the receiver reported
		 * (bit psn % sack_bits), how many at or above psn_una, one past the
		 * highest; holes are resent from rtx_next on, retx_out of them
		 * still in the pipe */
		uint64_t *sacked;
		uint32_t sack_bits, sacked_cnt, high_sack, rtx_next, retx_out;
		uint32_t rack_una;         /* psn_una when the wait for resent holes began */
		/* DCTCP: the fraction marked, per window of data */
		double alpha;
		uint32_t win_end, win_acked, win_marked;
		uint32_t cwr_end;          /* no other cut before this PSN is acknowledged */
	} tx;
	/* the receiver's delayed ACK: its partition's, on a line of its own */
	_Alignas(64) struct sim_event delack_ev;
	uint32_t qp;                   /* the QP's id */
};

/* ---- nic.c: the transmit/receive skeleton, RoCE's go-back-N and DCQCN ---- */

/* a RoCE receiver acknowledges every NIC_ACK_EVERY packets accepted in
 * order, and at the end of each message */
#define NIC_ACK_EVERY 16

/* the wire is free and the link up: start the next frame, if any (PFC
 * frames and credit updates, then control frames, then data by priority) */
void nic_tx_next(struct nic *n);

/* start the next frame unless one is on the wire or the link is down; the
 * test is inline, as it was when nic.c held every caller */
static inline void nic_kick(struct nic *n)
{
	if (n->tx || n->down)
		return;
	nic_tx_next(n);
}

/* a data packet of message fl, of which `left` bytes are from it on, PSN
 * psn (counted as sent) */
struct pkt *nic_data_packet(struct nic *n, struct qp *q, struct flow *fl, int64_t left,
			    uint32_t psn);
/* cumulative acknowledgement: everything below a */
void nic_acked(struct net *net, struct qp *q, uint32_t a);
/* p's payload reaches its message (p is released): complete when all of it has */
void nic_credit_payload(struct nic *n, struct pkt *p);
/* the same in two steps: p's payload is counted (p stays), and message fl
 * is reported complete */
void nic_count_payload(struct nic *n, const struct pkt *p);
void nic_flow_complete(struct net *net, struct flow *fl);
/* a CNP, ACK or NAK answering data packet d, on d's DSCP */
void nic_send_ctrl(struct net *net, const struct pkt *d, enum pkt_type type, uint32_t psn);
/* q's sender goes back to PSN r and resends from there */
void nic_go_back(struct net *net, struct qp *q, uint32_t r);
/* the notification point's part of receiving data packet p: CE counted and
 * answered by a CNP (rate-limited) */
void nic_rx_ce(struct nic *n, struct qp *q, const struct pkt *p);

/* ---- reorder.c: RoCE and InfiniBand receivers under adaptive routing ---- */

/* data packet p of q arrives (nic_config.reorder) */
void reorder_deliver(struct nic *n, struct qp *q, struct pkt *p);
/* q's sender receives NAK p (p stays) */
void reorder_nak(struct net *net, struct qp *q, const struct pkt *p);
/* the pacing wait of a RoCE QP */
void nic_pace_fire(struct sim_engine *eng, struct sim_event *ev);
/* q's retransmission timer fires (TCP's too) */
void nic_rto_fire(struct net *net, struct qp *q);

/* ---- rto.c: the retransmission timers of a partition's QPs ---- */

/* q's timer, which it does not have, is set for t (scheduled now) */
void nic_rto_set(struct net *net, struct qp *q, sim_time_ps t);
/* q's timer, which it has, is taken away: its time */
sim_time_ps nic_rto_take(struct net *net, struct qp *q);
/* the heap empty, its event idle (net_init); its memory back (net_free) */
void nic_rto_init(struct net *net);
void nic_rto_free(struct net *net);

/* QPs with data wait in a ready ring per priority, an intrusive FIFO */
static inline void nic_ready_push(struct nic *n, struct qp *q)
{
	q->next_ready = NULL;
	if (n->ready[q->prio].tail)
		n->ready[q->prio].tail->next_ready = q;
	else
		n->ready[q->prio].head = q;
	n->ready[q->prio].tail = q;
	n->ready_mask |= (uint8_t)(1u << q->prio);
	q->ready = 1;
}

/* q back at the head of its ring (a struct nic_gen with messages left) */
static inline void nic_ready_push_front(struct nic *n, struct qp *q)
{
	q->next_ready = n->ready[q->prio].head;
	n->ready[q->prio].head = q;
	if (!n->ready[q->prio].tail)
		n->ready[q->prio].tail = q;
	n->ready_mask |= (uint8_t)(1u << q->prio);
	q->ready = 1;
}

static inline struct qp *nic_ready_pop(struct nic *n, unsigned prio)
{
	struct qp *q = n->ready[prio].head;
	n->ready[prio].head = q->next_ready;
	if (!n->ready[prio].head) {
		n->ready[prio].tail = NULL;
		n->ready_mask &= (uint8_t)~(1u << prio);
	}
	q->next_ready = NULL;
	q->ready = 0;
	return q;
}

/* the QP's next message to send after `fl` (assigning its first PSN) */
static inline void nic_next_message(struct qp *q, struct flow *fl)
{
	q->snd = fl;
	q->snd_left = fl ? fl->bytes : 0;
	if (fl && fl->first_psn == UINT32_MAX)
		fl->first_psn = q->psn_nxt;
}

/* the bytes of message fl from its packet of PSN r on */
static inline int64_t nic_bytes_from(const struct flow *fl, uint32_t r, uint32_t mtu)
{
	return fl->bytes - (int64_t)(r - fl->first_psn) * mtu;
}

/* `payload` bytes of q are sent again */
static inline void nic_count_resent(struct net *net, const struct qp *q, uint32_t payload)
{
	net->st.cc.retransmitted_bytes += payload;
	struct net_job_stats *js = net_job(net, q->job);
	if (js)
		js->retransmitted_bytes += payload;
}

/* ---- tcp.c: TCP on the hosts (fabric.type = ethernet-tcp) ---- */

/* the sender's state of q (a table beside the QPs) */
static inline struct qp_tcp_tx *tcp_tx(const struct net *net, const struct qp *q)
{
	return &net->tcp[q->id].tx;
}

/* a new segment (PSN psn_nxt) leaves now: timed for an RTT sample unless
 * one is already */
static inline void tcp_time_segment(struct net *net, const struct qp *q)
{
	struct qp_tcp_tx *t = tcp_tx(net, q);
	if (t->rtt_psn == UINT32_MAX) {
		t->rtt_psn = q->psn_nxt;
		t->rtt_start = net->eng.now;
	}
}

/* may q send a segment now */
int tcp_can_send(const struct nic *n, struct qp *q);
/* into the ready ring if q may send, else wait for what will let it */
void tcp_try(struct nic *n, struct qp *q);
/* the segment q resends before new data (fast retransmit, partial ACK, a
 * SACK hole), NULL when none */
struct pkt *tcp_take_resend(struct nic *n, struct qp *q);

/* the same, with the common case (no recovery, nothing to resend) decided
 * inline on the per-packet path */
static inline struct pkt *tcp_resend(struct nic *n, struct qp *q)
{
	const struct qp_tcp_tx *t = tcp_tx(n->net, q);
	return t->in_recovery || t->rexmit != UINT32_MAX ? tcp_take_resend(n, q) : NULL;
}
/* message fl, just queued on q, is handed over by the host stack */
void tcp_post(struct nic *n, struct qp *q, struct flow *fl);
/* an ACK of everything below a (ece: CE echoed; sack: PSN + 1 of the
 * out-of-order segment it answers, 0 none) */
void tcp_ack(struct net *net, struct qp *q, uint32_t a, int ece, uint32_t sack);
/* the receiver takes data segment p of q */
void tcp_deliver(struct nic *n, struct qp *q, struct pkt *p);
/* a retransmission timeout of q */
void tcp_timeout(struct qp_tcp_tx *t, const struct qp *q);
/* the pace_ev of a TCP QP: its message is due, or resent holes are late */
void tcp_wake(struct sim_engine *eng, struct sim_event *ev);
/* the connection of new QP qid opens (its entry in net->tcp exists) */
void tcp_open(struct net *net, uint32_t qid, const struct nic_config *cfg);

/* ---- ib.c: InfiniBand's credits (net qos.ib) ---- */

/* the NIC's credits toward its ToR, full */
void ib_init(struct net *net, struct nic *n);
/* stall the VLs whose next frame lacks credits */
void ib_gate(struct nic *n);
/* a credit update from the ToR (p is released) */
void ib_receive(struct nic *n, struct pkt *p);
/* the host link failed or came back: its credits are void, then full */
void ib_retrain(struct nic *n);

/* a received frame of VL p freed its blocks: the next update returns them */
static inline void ib_return(struct nic *n, unsigned p, uint32_t blocks)
{
	struct net *net = n->net;
	if (!net->qos.ib || n->down)
		return;
	net_credits_freed(net, &n->cred, p, blocks);
}

/* ---- nvlink.c: messages between the GPUs of one server ---- */

/* reserve message fl, posted now on local QP q, on both NVLink ports */
void nvlink_send(struct net *net, struct qp *q, struct flow *fl);
/* the pace_ev of a local QP: its messages that have arrived */
void nvlink_fire(struct sim_engine *eng, struct sim_event *ev);

/* ---- qps.c: the QP table, the message pool, messages waiting to start ---- */

/* the NIC's post_ev: the waiting messages whose start time has come */
void nic_post_fire(struct sim_engine *eng, struct sim_event *ev);
/* slot qid of the table: a new QP from src to dst (its struct qp_cc is
 * made when first needed; TCP's state is the caller's) */
void nic_qp_fresh(struct net *net, uint32_t qid, uint32_t src, uint32_t dst, uint8_t dscp);

/* q's struct qp_cc, made as a new QP's now */
void nic_qp_cc_make(struct net *net, struct qp *q);

/* q's congestion control and pacing event, made on first use (on the
 * sender's thread: the receiver's never reads them) */
static inline struct qp_cc *nic_qp_cc(struct net *net, struct qp *q)
{
	if (!q->cc)
		nic_qp_cc_make(net, q);
	return &net->qp_cc[q->id];
}

/* the QP whose pacing event ev is */
static inline struct qp *nic_pace_qp(struct net *net, struct sim_event *ev)
{
	return &net->qps[container_of(ev, struct qp_cc, pace_ev) - net->qp_cc];
}

/* ---- qpcache.c: nic.qp_cache, the state of QPs while they need it ---- */

/* what a QP keeps while it has no state in the table, apart from its
 * ends: its next PSN (sent, acknowledged and expected) in c->psn and a
 * byte in c->flags, its state (QP_HOME_NEW, QP_HOME_LIVE, QP_HOME_AT_REST,
 * or QP_HOME_AT_REST_CC: its congestion control is not as new, and kept,
 * struct qp_cc_kept) and whether its retransmission timer, still pending
 * when it gave its state up, is in its sender's partition's buckets
 * (QP_HOME_TIMER).  5 B: an all-to-all of 8,192 ranks has 67 M of them. */
enum { QP_HOME_NEW, QP_HOME_LIVE, QP_HOME_AT_REST, QP_HOME_AT_REST_CC };
#define QP_HOME_STATE 3u
#define QP_HOME_TIMER 4u
#define QP_HOME_NO_JOB UINT8_MAX

/* a QP's ends, its DSCP and its job (QP_HOME_NO_JOB before its first
 * message; a scenario has at most 64): computed for the QPs of a span,
 * kept in c->ends for the others */
struct qp_ends {
	uint16_t src, dst;
	uint8_t dscp, job;
};

/* QPs opened together for every ordered pair of a list of hosts
 * (nic_add_qp_pairs): QP first + ((i (n - 1) + k - 1) nq + q) goes from
 * hosts[i] to hosts[(i + k) % n], for k in 1 .. n - 1 and q < nq */
struct qp_span {
	uint32_t first, count;
	uint32_t n, nq;
	uint8_t dscp, job;
	uint32_t *hosts;
};

/* the table of a run whose QPs exceed nic.qp_cache: address space for
 * every QP, written (and so in memory) only in the blocks of pages that
 * hold QPs with state; each QP's home; how many QPs of each block have
 * state (the partitions' threads change them) */
struct qp_cache {
	uint32_t *psn;
	uint8_t *flags;
	struct qp_ends *ends;          /* written only for QPs outside the spans */
	struct qp_span *spans;         /* by their first QP */
	uint32_t nspans;
	_Atomic unsigned char *block_live;
	uint32_t block;                /* QPs a block: whole pages of whole QPs */
	/* the same for the table of struct qp_cc: the QPs with state that
	 * made theirs */
	_Atomic unsigned char *cc_block_live;
	uint32_t cc_block;
	uint32_t pinned;               /* the first QPs, which keep their state */
	uint32_t nparts;               /* partitions sharing the table */
	uint32_t cap;                  /* QPs the table has room for */
};

/* does a table for n QPs need the cache (nic.qp_cache), and can the run
 * use it */
int nic_qps_cached(const struct net *net, uint64_t n);
/* a table with the cache for n QPs; 0, or -1 when out of memory */
int nic_qps_cache_init(struct net *net, uint32_t n);
/* a new QP in a table with the cache: its home, and its state if pinned */
uint32_t nic_qps_cache_add(struct net *net, uint32_t src, uint32_t dst, uint8_t dscp);
/* nic_add_qp_pairs in a table with the cache: a span */
uint32_t nic_qps_cache_add_pairs(struct net *net, const uint32_t *hosts, uint32_t n, uint32_t nq,
				 uint8_t dscp, uint32_t job);
/* QP qid's job (< QP_HOME_NO_JOB), in its home */
void nic_qp_home_job(struct net *net, uint32_t qid, uint32_t job);
/* QP qid made its struct qp_cc: its block of that table is in use */
void nic_qp_cc_made(struct net *net, uint32_t qid);
/* QP qid gets its state back, as it was when it gave it up */
void nic_qp_restore(struct net *net, uint32_t qid);
/* q's messages are all acknowledged: it may give its state up later */
void nic_qp_at_rest(struct net *net, struct qp *q);
/* the QPs at rest longest give their state up while the partition keeps
 * more than its share (on the senders' thread, where nothing holds them) */
void nic_qps_trim(struct net *net);

/* QP qid, with its state (given back if it had none) */
static inline struct qp *nic_qp(struct net *net, uint32_t qid)
{
	struct qp *q = &net->qps[qid];
	if (net->qc && !q->live)
		nic_qp_restore(net, qid);
	return q;
}

#endif
