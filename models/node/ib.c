/*
 * ib.c - InfiniBand's credit-based link-level flow control at the NIC
 * (fabric.type = infiniband; the switch side is switch.c, the credit
 * counters net.c).  The NIC holds credits per VL toward its ToR, in 64-byte
 * blocks, and starts a frame (control or data) of a VL only with credits
 * for all of it; a VL whose next frame does not fit is stalled
 * (pause_stall) until a credit update brings enough.  A frame it receives
 * frees its blocks when accepted (or discarded; under a slow-receiver fault
 * when drained, with no drop and no PFC: credits bound the receive buffer);
 * they go back to the ToR ib.credit_update_delay later, batched, as a credit
 * update ahead of everything (like PFC frames).  A link that fails and comes
 * back starts from full credits (link training).  Source: the InfiniBand
 * Architecture Specification, volume 1, link-level flow control.
 */
#include "models/node/internal.h"

#include "models/core/evkey.h"

/* blocks the next frame of VL p needs (control frames first),
 * 0 when it has none; drops QPs with nothing to send from the ring head */
static inline uint32_t next_blocks(struct nic *n, unsigned p)
{
	if (n->ctrlq[p].n)
		return pkt_credit_blocks(PKT_CTRL_FRAME_BYTES);
	while (n->ready[p].head && !n->ready[p].head->snd)
		nic_ready_pop(n, p);
	const struct qp *q = n->ready[p].head;
	if (!q)
		return 0;
	int64_t left = q->snd_left;
	uint32_t mtu = n->net->qos.mtu_bytes;
	uint32_t payload = left < mtu ? (uint32_t)left : mtu;
	return pkt_credit_blocks(payload + PKT_ROCE_HDR_BYTES);
}

/* stall the VLs whose next frame lacks credits */
void ib_gate(struct nic *n)
{
	for (uint8_t open = (n->ctrl_mask | n->ready_mask) & pause_open(&n->pause); open;
	     open &= open - 1) {
		unsigned p = (unsigned)__builtin_ctz(open);
		uint32_t need = next_blocks(n, p);
		if (need && n->cred.have[p] < (int32_t)need)
			pause_stall(&n->pause, p);
	}
}

/* the update timer: the blocks freed since the first of them go back to
 * the ToR, ahead of everything */
static void credit_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct nic *n = container_of(ev, struct nic, cred.ev);
	(void)eng;
	net_credits_send(n->net, &n->cred, &n->pfcq);
	nic_kick(n);
}

/* a credit update from the ToR */
void ib_receive(struct nic *n, struct pkt *p)
{
	unsigned v = net_credits_receive(n->net, &n->cred, p);
	if (n->pause.paused >> v & 1u && n->cred.have[v] >= (int32_t)next_blocks(n, v)) {
		pause_unstall(&n->pause, v);
		nic_kick(n);
	}
}

/* full credits toward the ToR, and the update timer */
void ib_init(struct net *net, struct nic *n)
{
	net_credits_init(net, &n->cred, credit_fire, SIM_KEY(EVKEY_NIC, n->id, EVKEY_NIC_CREDIT));
}

/* the link's credits are void; training restores them */
void ib_retrain(struct nic *n)
{
	net_credits_void(n->net, &n->cred);
	net_credits_full(n->net, &n->cred);
}
