/*
 * reorder.c - the receive side of RoCE and InfiniBand QPs under adaptive
 * routing (topology.ecmp = adaptive, nic_config.reorder; docs/model.md#ecmp).
 *
 * Adaptive routing sends the packets of one QP over several paths, so they
 * arrive out of order; NICs made for it place each packet's data by its PSN
 * and acknowledge in order (NVIDIA documents this for ConnectX on
 * Spectrum-X Ethernet and for InfiniBand adaptive routing).  The model:
 *
 * - A window of REORDER_WINDOW PSNs from the next expected one (rx.nxt) on.
 *   A packet inside it that has not arrived yet is accepted at once: its
 *   payload counts as delivered, a CE mark is answered as in order (CNP),
 *   and it is remembered in a bitmap (rx.ooo, bit psn % REORDER_WINDOW).
 *   One arriving ahead of rx.nxt is counted in cc.ooo_pkts.
 * - The packet of PSN rx.nxt moves rx.nxt over every contiguous PSN received;
 *   the cumulative ACK (rx.nxt) goes out every NIC_ACK_EVERY packets moved
 *   over and whenever a message's last PSN is passed.
 * - A message completes when rx.nxt passes its last PSN, that is when all
 *   its bytes and all before them have arrived: in order, as the
 *   application sees it.  A message's last packet that arrives early leaves
 *   its message in rx.ends until then.
 * - A duplicate (below rx.nxt, or already in the bitmap) is discarded.  A
 *   gap inside the window is not NAKed: reordering looks like one.  A packet
 *   beyond the window is discarded and answered by a NAK of rx.nxt that
 *   also names the discarded PSN (pkt.sack = PSN + 1), every time.  The
 *   sender goes back to rx.nxt (go-back-N) unless its own state shows the
 *   NAK needs nothing: the discarded PSN is acknowledged already (it
 *   arrived since), or its current pass has not sent it yet (the pass will).
 *   So a discarded packet is always sent again, whatever order the NAK and
 *   later ACKs take on their paths; one NAK per rx.nxt would not do, for an
 *   ACK that overtakes the NAK makes it look stale.  A packet lost for good
 *   is found when REORDER_WINDOW more have arrived behind it, or else by
 *   the sender's retransmission timeout.
 *
 * The bitmap and rx.ends (2 KiB with a 256-PSN window) are allocated at a
 * QP's first packet out of order, once, in the table of receive windows
 * beside the QPs (net->rxwin), and freed with the QP table.
 */
#include <stdlib.h>

#include "models/base/invariant.h"
#include "models/node/internal.h"

/* PSNs a receiver accepts from rx.nxt on: 1 MiB of payload at 4096 B */
#define REORDER_WINDOW 256u

#define REORDER_WORDS (REORDER_WINDOW / 64)

/* q's window: a bit for each PSN received above rx.nxt (bit psn %
 * REORDER_WINDOW), then the message that each ends (NULL: none) */
static uint64_t *window(struct net *net, const struct qp *q)
{
	uint64_t **w = &net->rxwin[q->id];
	if (!*w) {
		*w = calloc(1, REORDER_WORDS * sizeof(uint64_t) +
				       REORDER_WINDOW * sizeof(struct flow *));
		SIM_INVARIANT(*w, "out of memory for QP %u's reorder window", q->id);
	}
	return *w;
}

static struct flow **window_ends(uint64_t *map)
{
	return (struct flow **)(void *)(map + REORDER_WORDS);
}

static int received(const struct net *net, const struct qp *q, uint32_t psn)
{
	const uint64_t *map = net->rxwin[q->id];
	uint32_t b = psn % REORDER_WINDOW;
	return map && (map[b / 64] >> (b % 64) & 1u);
}

/* does p carry the last PSN of its message */
static int ends_message(const struct pkt *p)
{
	const struct flow *fl = p->fl;
	return p->psn == fl->first_psn + fl->npkts - 1;
}

/* a NAK of nxt answering data packet d, which is discarded: d's fields, as
 * nic.c's control frames take them */
static void send_nak(struct net *net, const struct pkt *d, uint32_t nxt)
{
	struct nic *n = &net->nics[d->dst];
	struct pkt *p = net_pkt(net);
	*p = (struct pkt){ .qp = d->qp, .psn = nxt, .sack = d->psn + 1, .src = d->dst,
			   .dst = d->src, .sport = d->sport, .dscp = d->dscp,
			   .prio = net->qos.dscp_to_prio[d->dscp],
			   .type = PKT_NAK };
	net->st.cc.naks_sent++;
	pktq_push(&n->ctrlq[p->prio], p);
	n->ctrl_mask |= (uint8_t)(1u << p->prio);
	nic_kick(n);
}

void reorder_nak(struct net *net, struct qp *q, const struct pkt *p)
{
	uint32_t lost = p->sack - 1;
	if (lost < q->psn_una || lost >= q->psn_nxt)
		return; /* it arrived since, or the pass under way sends it */
	nic_acked(net, q, p->psn);
	nic_go_back(net, q, p->psn > q->psn_una ? p->psn : q->psn_una);
}

/* rx.nxt has passed fl's last PSN: every byte of it is in */
static void complete(struct net *net, struct flow *fl)
{
	SIM_INVARIANT(fl->rx_bytes == fl->bytes, "flow %llu completed with %lld of %lld bytes",
		      (unsigned long long)fl->id, (long long)fl->rx_bytes, (long long)fl->bytes);
	nic_flow_complete(net, fl);
}

void reorder_deliver(struct nic *n, struct qp *q, struct pkt *p)
{
	struct net *net = n->net;
	uint32_t psn = p->psn, nxt = q->rx.nxt;
	/* p->fl is only read for a PSN not acknowledged yet: its message lives */
	if (psn >= nxt && psn - nxt >= REORDER_WINDOW) { /* beyond the window */
		send_nak(net, p, nxt);
		net_drop(net, p, &net->st.drops.rx_discard);
		return;
	}
	if (psn < nxt || received(net, q, psn)) { /* a duplicate */
		net_drop(net, p, &net->st.drops.rx_discard);
		return;
	}
	net->st.cc.pkts_delivered++;
	nic_rx_ce(n, q, p);
	nic_count_payload(n, p);
	if (psn != nxt) { /* ahead of a gap: kept in the window */
		net->st.cc.ooo_pkts++;
		uint64_t *map = window(net, q);
		uint32_t b = psn % REORDER_WINDOW;
		map[b / 64] |= UINT64_C(1) << (b % 64);
		window_ends(map)[b] = ends_message(p) ? p->fl : NULL;
		pkt_release(&net->pool, p);
		return;
	}
	/* in order: move over it and what arrived behind it */
	int ended = ends_message(p);
	if (ended)
		complete(net, p->fl);
	uint32_t moved = 1;
	for (nxt++; received(net, q, nxt); nxt++, moved++) {
		uint64_t *map = net->rxwin[q->id];
		struct flow **ends = window_ends(map);
		uint32_t b = nxt % REORDER_WINDOW;
		map[b / 64] &= ~(UINT64_C(1) << (b % 64));
		if (ends[b]) {
			complete(net, ends[b]);
			ends[b] = NULL;
			ended = 1;
		}
	}
	q->rx.nxt = nxt;
	q->rx.unacked += moved;
	if (q->rx.unacked >= NIC_ACK_EVERY || ended) {
		q->rx.unacked = 0;
		net->st.cc.acks_sent++;
		nic_send_ctrl(net, p, PKT_ACK, nxt);
	}
	pkt_release(&net->pool, p);
}
