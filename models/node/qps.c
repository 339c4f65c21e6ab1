/*
 * qps.c - the NIC's QPs and messages: the QP table of the net (reserved at
 * once or doubled, with TCP's table beside it in TCP runs), a QP's creation
 * (its source port, its events by transport: RoCE, TCP or NVLink), the pool
 * of messages (slabs, never shrinking during a run), and each NIC's heap of
 * messages waiting for their start time, which posts them in (start, id)
 * order.  The transports that use them are nic.c (RoCE), tcp.c and
 * nvlink.c.
 */
#include "models/node/internal.h"

#include <stdlib.h>
#include <string.h>

#include "models/base/invariant.h"
#include "models/base/rng.h"
#include "models/base/slab.h"
#include "models/core/evkey.h"
#include "models/core/topology.h"

/* TCP's table (net->tcp) at cap QPs, from qps_cap: made with the first TCP
 * QP, then resized with the QPs' */
static int tcp_table(struct net *net, uint32_t cap)
{
	struct qp_tcp *a = slab_alloc((size_t)cap * sizeof(struct qp_tcp));
	if (!a)
		return -1;
	if (net->tcp && net->nqps)
		memcpy(a, net->tcp, (size_t)net->nqps * sizeof(struct qp_tcp));
	slab_free(net->tcp, (size_t)net->qps_cap * sizeof(struct qp_tcp));
	net->tcp = a;
	return 0;
}

/* the memory a QP takes: its state and its retransmission timer (in its
 * partition's heap, rto.c); TCP's state (net->tcp) comes on top in TCP
 * runs, its struct qp_cc once made */
size_t nic_qp_bytes(int tcp)
{
	return sizeof(struct qp) + sizeof(struct net_rto) + (tcp ? sizeof(struct qp_tcp) : 0);
}

size_t nic_qp_cc_bytes(void)
{
	return sizeof(struct qp_cc);
}

/* the receive windows (net->rxwin) at cap QPs, from qps_cap: in TCP runs
 * and with adaptive routing */
static int rxwin_table(struct net *net, uint32_t cap)
{
	const struct nic_config *cfg = net->nics[0].cfg;
	if (!cfg->tcp && !cfg->reorder)
		return 0;
	uint64_t **a = calloc(cap, sizeof(*a));
	if (!a)
		return -1;
	if (net->rxwin && net->nqps)
		memcpy(a, net->rxwin, (size_t)net->nqps * sizeof(*a));
	free(net->rxwin);
	net->rxwin = a;
	return 0;
}

/* the table of struct qp_cc at cap QPs: address space whose pages take
 * memory as QPs make theirs (those made move with the table) */
static int cc_table(struct net *net, uint32_t cap)
{
	struct qp_cc *a = slab_reserve((size_t)cap * sizeof(struct qp_cc));
	if (!a)
		return -1;
	for (uint32_t i = 0; net->qp_cc && i < net->nqps; i++)
		if (net->qps[i].cc)
			a[i] = net->qp_cc[i];
	slab_unreserve(net->qp_cc, (size_t)net->qps_cap * sizeof(struct qp_cc));
	net->qp_cc = a;
	return 0;
}

/* the table at n QPs: slab memory is aligned to a cache line, so that a
 * QP takes exactly its two (realloc promises only 16 bytes) */
int nic_reserve_qps(struct net *net, uint64_t n)
{
	if (n <= net->qps_cap)
		return 0;
	if (n >= UINT32_MAX)
		return -1;
	if (!net->qps && nic_qps_cached(net, n)) /* nic.qp_cache: qpcache.c */
		return nic_qps_cache_init(net, (uint32_t)n);
	uint32_t cap = (uint32_t)n;
	/* mapped with its pages present (slab.h): an all-to-all's table is
	 * gigabytes, a page fault each 4 KiB */
	struct qp *a = slab_alloc((size_t)cap * sizeof(struct qp));
	if (!a)
		return -1;
	if (net->nqps)
		memcpy(a, net->qps, (size_t)net->nqps * sizeof(struct qp));
	if ((net->tcp && tcp_table(net, cap)) || cc_table(net, cap) || rxwin_table(net, cap)) {
		slab_free(a, (size_t)cap * sizeof(struct qp));
		return -1;
	}
	slab_free(net->qps, (size_t)net->qps_cap * sizeof(struct qp));
	net->qps = a;
	net->qps_cap = cap;
	return 0;
}

/* room for one more QP: the table doubles */
static int grow_qps(struct net *net)
{
	if (net->nqps < net->qps_cap)
		return 0;
	if (net->qps_cap > UINT32_MAX / 2)
		return -1;
	return nic_reserve_qps(net, net->qps_cap ? (uint64_t)net->qps_cap * 2 : 64);
}

/* RoCEv2 UDP source port of a QP: RoCE NICs derive it from a hash of the
 * QP number, within 0xC000-0xFFFF; here from the seed and the QP id */
static uint16_t qp_sport(uint64_t seed, uint32_t qp)
{
	return (uint16_t)(0xC000u | (rng_derive(seed, RNG_ID(RNG_NIC, qp)) & 0x3FFFu));
}

void nic_qp_fresh(struct net *net, uint32_t qid, uint32_t src, uint32_t dst, uint8_t dscp)
{
	const struct nic_config *cfg = net->nics[src].cfg;
	struct qp *q = &net->qps[qid];
	*q = (struct qp){
		.id = qid, .src = (uint16_t)src, .dst = (uint16_t)dst,
		.sport = qp_sport(cfg->seed, qid), .prio = net->qos.dscp_to_prio[dscp],
		.dscp = dscp, .job = NET_NONE, .rx.last_cnp_ps = -1,
	};
	q->local = net->topo && net->topo->gps > 1 && src != dst &&
		   topo_server(net->topo, src) == topo_server(net->topo, dst);
}

/* a new QP's congestion control and pacing event */
static void cc_new(const struct nic_config *cfg, const struct qp *q, struct qp_cc *c)
{
	*c = (struct qp_cc){ 0 };
	sim_event_init(&c->pace_ev, q->local ? nvlink_fire : cfg->tcp ? tcp_wake : nic_pace_fire,
		       SIM_KEY(EVKEY_QP, q->id, EVKEY_QP_PACE));
	if (cfg->dcqcn)
		dcqcn_init(&cfg->dcqcn_params, &c->dc);
	else if (cfg->ibcc)
		ibcc_init(&cfg->ibcc_params, &c->ibcc);
}

void nic_qp_cc_make(struct net *net, struct qp *q)
{
	cc_new(net->nics[q->src].cfg, q, &net->qp_cc[q->id]);
	q->cc = 1;
	if (net->qc)
		nic_qp_cc_made(net, q->id);
}

struct qp_cc nic_qp_cc_of(const struct net *net, const struct qp *q)
{
	if (q->cc)
		return net->qp_cc[q->id];
	struct qp_cc c;
	cc_new(net->nics[q->src].cfg, q, &c);
	return c;
}

uint32_t nic_add_qp(struct net *net, uint32_t src, uint32_t dst, uint8_t dscp)
{
	if (net->qc)
		return nic_qps_cache_add(net, src, dst, dscp);
	if (grow_qps(net))
		return NET_NONE;
	const struct nic_config *cfg = net->nics[src].cfg;
	uint32_t qid = net->nqps++;
	nic_qp_fresh(net, qid, src, dst, dscp);
	if (cfg->tcp) {
		if (!net->tcp && tcp_table(net, net->qps_cap)) {
			net->nqps--;
			return NET_NONE;
		}
		tcp_open(net, qid, cfg);
	}
	return qid;
}

uint32_t nic_add_qp_pairs(struct net *net, const uint32_t *hosts, uint32_t n, uint32_t nq,
			  uint8_t dscp, uint32_t job)
{
	if (net->qc)
		return nic_qps_cache_add_pairs(net, hosts, n, nq, dscp, job);
	uint32_t first = net->nqps;
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t k = 1; k < n; k++)
			for (uint32_t q = 0; q < nq; q++) {
				uint32_t id = nic_add_qp(net, hosts[i], hosts[(i + k) % n], dscp);
				if (id == NET_NONE)
					return NET_NONE;
				/* a net numbers its QPs in the order they are opened */
				SIM_INVARIANT(id == first + ((i * (n - 1) + k - 1) * nq + q),
					      "QP %u of a span from %u is not in its place", id, first);
				nic_qp_set_job(net, id, job);
			}
	return first;
}

void nic_qp_set_job(struct net *net, uint32_t qid, uint32_t job)
{
	if (net->qc) { /* its home, and its state if it has some from the start */
		nic_qp_home_job(net, qid, job);
		if (qid < net->qc->pinned)
			net->qps[qid].job = job;
		return;
	}
	net->qps[qid].job = job;
}

/* ---- the message pool: slabs, never shrinking during a run ---- */

#define FLOW_SLAB 1024

struct flow_slab {
	void *before;               /* the chain's link (slab.h) */
	struct flow flows[FLOW_SLAB];
};

struct flow *nic_flow_new(struct net *net, uint64_t id, uint32_t qp, int64_t bytes,
			  sim_time_ps start_ps)
{
	const struct qp *q = nic_qp(net, qp);
	net = net->nics[q->src].net;
	/* freed messages first, then the newest slab's never used (as packets) */
	struct flow *fl = net->flow_free;
	if (fl) {
		net->flow_free = fl->next;
	} else {
		fl = slab_next(&net->flow_slabs, sizeof(struct flow_slab),
			       offsetof(struct flow_slab, flows), sizeof(struct flow));
		if (!fl)
			return NULL;
	}
	if (++net->flows_live > net->flows_peak)
		net->flows_peak = net->flows_live;
	uint32_t mtu = net->qos.mtu_bytes;
	*fl = (struct flow){
		.id = id, .src = q->src, .dst = q->dst, .qp = qp, .first_psn = UINT32_MAX,
		.npkts = (uint32_t)((bytes + mtu - 1) / mtu), .heap_idx = UINT32_MAX,
		.bytes = bytes, .start_ps = start_ps, .end_ps = -1,
		.dscp = q->dscp, .prio = q->prio,
	};
	return fl;
}

void nic_flow_free(struct net *net, struct flow *fl)
{
	fl->next = net->flow_free;
	net->flow_free = fl;
	net->flows_live--;
}

void nic_flow_pool_free(struct net *net)
{
	slab_chain_free(&net->flow_slabs, sizeof(struct flow_slab));
	net->flow_free = NULL;
}

/* ---- messages waiting for their start: a heap per NIC on (start, id) ---- */

static int wait_less(const struct flow *a, const struct flow *b)
{
	return a->start_ps < b->start_ps || (a->start_ps == b->start_ps && a->id < b->id);
}

static void wait_place(struct nic *n, uint32_t i, struct flow *fl)
{
	n->wait[i] = fl;
	fl->heap_idx = i;
}

static struct flow *wait_pop(struct nic *n)
{
	struct flow *top = n->wait[0], *last = n->wait[--n->nwait];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n->nwait)
			break;
		if (c + 1 < n->nwait && wait_less(n->wait[c + 1], n->wait[c]))
			c++;
		if (!wait_less(n->wait[c], last))
			break;
		wait_place(n, i, n->wait[c]);
		i = c;
	}
	if (n->nwait)
		wait_place(n, i, last);
	top->heap_idx = UINT32_MAX;
	return top;
}

void nic_post_at(struct net *net, struct flow *fl, sim_time_ps sched)
{
	struct nic *n = &net->nics[fl->src]; /* its QP's */
	net = n->net;
	if (net->remote) { /* its sender runs in another process, which posts it */
		if (!fl->gen) /* (a split run has no generator: no QP cache) */
			nic_flow_free(net, fl);
		return;
	}
	if (fl->start_ps <= net->eng.now) {
		nic_post(net, fl);
		return;
	}
	if (n->nwait == n->wait_cap) {
		uint32_t cap = n->wait_cap ? 2 * n->wait_cap : 8;
		struct flow **w = realloc(n->wait, cap * sizeof(*w));
		SIM_INVARIANT(w, "out of memory for h%u's waiting messages", n->id);
		n->wait = w;
		n->wait_cap = cap;
	}
	uint32_t i = n->nwait++;
	while (i > 0 && wait_less(fl, n->wait[(i - 1) / 2])) {
		wait_place(n, i, n->wait[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	wait_place(n, i, fl);
	if (i == 0)
		sim_schedule_at(&net->eng, &n->post_ev, fl->start_ps, sched);
}

void nic_gen_post_at(struct net *net, struct nic_gen *g, sim_time_ps start_ps,
		     sim_time_ps sched)
{
	g->stub.start_ps = start_ps;
	g->stub.gen = 1;
	g->stub.heap_idx = UINT32_MAX;
	g->ring.gen = 1;
	g->next = 0;
	g->started = 0;
	nic_post_at(net, &g->stub, sched);
}

/* the NIC's post_ev: the waiting messages whose start time has come */
void nic_post_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct nic *n = container_of(ev, struct nic, post_ev);
	while (n->nwait && n->wait[0]->start_ps <= eng->now)
		nic_post(n->net, wait_pop(n));
	if (n->nwait)
		sim_schedule(eng, ev, n->wait[0]->start_ps);
}

/* what a NIC allocated: its heap of waiting messages */
void nic_free(struct nic *n)
{
	free(n->wait);
	n->wait = NULL;
	n->nwait = n->wait_cap = 0;
}
