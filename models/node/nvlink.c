/*
 * nvlink.c - messages between two GPUs of one server (topology.gpus_per_server
 * > 1): a QP between them carries its messages over the server's
 * NVLink/NVSwitch, never over the NIC.  Each GPU has an NVLink port of
 * topology.nvlink per direction; the NVSwitch is non-blocking.  A message
 * posted at t is reserved whole on the sender's egress and the receiver's
 * ingress: it starts at the latest of t and the moments both are free,
 * holds both for bytes x 8 / nvlink_bps and arrives
 * topology.nvlink_latency after it ends.  So a GPU never sends or receives
 * faster than its NVLink, messages from one sender go one after the other,
 * and an incast into one GPU is served in the order posted (first come,
 * first served, not shared).  The QP keeps its messages in its FIFO until
 * they arrive (their arrival times increase along it) and its pace_ev
 * delivers them.  No packet exists, nothing is counted as the NIC's
 * payload; net->st.nvlink_bytes counts what arrived.
 */
#include "models/node/internal.h"

/* reserve a message posted now on the sender's egress and the
 * receiver's ingress; its QP's pace_ev delivers it */
void nvlink_send(struct net *net, struct qp *q, struct flow *fl)
{
	struct nic *a = &net->nics[q->src], *b = &net->nics[q->dst];
	const struct nic_config *cfg = a->cfg;
	sim_time_ps start = net->eng.now;
	if (a->nv_tx_free > start)
		start = a->nv_tx_free;
	if (b->nv_rx_free > start)
		start = b->nv_rx_free;
	sim_time_ps end = start +
			  units_mul_div_ceil(fl->bytes * 8, UNITS_PS_PER_S, cfg->nvlink_bps);
	a->nv_tx_free = b->nv_rx_free = end;
	fl->due_ps = end + cfg->nvlink_latency_ps;
	struct sim_event *ev = &nic_qp_cc(net, q)->pace_ev;
	if (!sim_event_pending(ev))
		sim_schedule(&net->eng, ev, fl->due_ps);
}

/* the messages of a local QP that have arrived */
void nvlink_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct net *net = container_of(eng, struct net, eng);
	struct qp *q = nic_pace_qp(net, ev);
	struct flow *fl;
	while ((fl = q->head) && fl->due_ps <= eng->now) {
		q->head = fl->next;
		if (!q->head)
			q->tail = NULL;
		fl->rx_bytes = fl->bytes;
		fl->end_ps = eng->now;
		net->st.nvlink_bytes += (uint64_t)fl->bytes;
		net->flows_done++;
		if (net->obs.flow_done)
			net->obs.flow_done(net->obs.flow_ctx, fl);
		nic_flow_free(net, fl);
	}
	if (q->head && !sim_event_pending(ev))
		sim_schedule(eng, ev, q->head->due_ps);
}
