/*
 * internal.h - what the NIC's files share (nic.c, ib.c, nvlink.c,
 * qps.c): the ready ring, and the calls between the transports and the
 * NIC's transmit/receive skeleton in nic.c.  Nothing outside models/node
 * includes it.  The small helpers of the per-packet path are static inline
 * here, so that splitting the NIC into files costs no call per packet.
 */
#ifndef DCQCN_NODE_INTERNAL_H
#define DCQCN_NODE_INTERNAL_H

#include <stdint.h>

#include "models/base/engine.h"
#include "models/node/nic.h"

/* ---- nic.c: the transmit/receive skeleton, RoCE's go-back-N and DCQCN ---- */

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

/* the events of a RoCE QP: its pacing wait, its retransmission timer (TCP's too) */
void nic_pace_fire(struct sim_engine *eng, struct sim_event *ev);
void nic_rto_fire(struct sim_engine *eng, struct sim_event *ev);

/* TCP (fabric.type = ethernet-tcp) */
/* the pace_ev of a TCP QP: its message is due, or resent holes are late */
void tcp_wake(struct sim_engine *eng, struct sim_event *ev);
/* the connection of new QP qid opens (its entry in net->tcp exists) */
void tcp_open(struct net *net, uint32_t qid, const struct nic_config *cfg);

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

#endif
