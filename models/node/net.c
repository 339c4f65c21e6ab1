/*
 * net.c - the shared state of the nodes (see net.h).
 */
#include "models/node/net.h"

#include <stdlib.h>

#include "models/base/invariant.h"
#include "models/base/slab.h"
#include "models/core/evkey.h"
#include "models/node/internal.h"

int net_init(struct net *net, sim_time_ps sample_interval_ps, uint32_t part)
{
	*net = (struct net){ .part = part };
	pkt_pool_init(&net->pool);
	if (sim_engine_init(&net->eng))
		return -1;
	net->eng.user = net;
	net->pause.eng = &net->eng;
	net->pause.pool = &net->pool;
	net->pause.interval_ps = sample_interval_ps;
	pause_env_init(&net->pause, SIM_KEY(EVKEY_PAUSE_SAMPLER, part, 0));
	nic_rto_init(net);
	return 0;
}

int net_ports(struct net *net, struct port *ports, size_t nports)
{
	net->ports = ports;
	net->nqwords = (uint32_t)((nports + 63) / 64);
	/* written at every enqueue: on lines of its own (slab.h) */
	net->qbits = calloc_lines(net->nqwords, sizeof(*net->qbits));
	return net->qbits ? 0 : -1;
}

void net_free(struct net *net)
{
	if (net->qc || net->rest || net->timers) { /* nic.qp_cache: its table and lists */
		int shared = net->qc != NULL;
		nic_qps_cache_free(net);
		if (shared)
			net->qps = NULL;
	}
	for (uint32_t i = 0; net->rxwin && i < net->nqps; i++)
		free(net->rxwin[i]); /* the receive windows of TCP and adaptive routing */
	free(net->rxwin);
	net->rxwin = NULL;
	for (uint32_t i = 0; net->tcp && i < net->nqps; i++)
		free(net->tcp[i].tx.sacked);
	slab_free(net->qps, (size_t)net->qps_cap * sizeof(*net->qps)); /* nic_reserve_qps */
	slab_free(net->tcp, (size_t)net->qps_cap * sizeof(*net->tcp));
	slab_unreserve(net->qp_cc, (size_t)net->qps_cap * sizeof(*net->qp_cc));
	nic_rto_free(net);
	net->qps = NULL;
	net->qp_cc = NULL;
	net->tcp = NULL;
	net->nqps = net->qps_cap = 0;
	free(net->qbits);
	net->qbits = NULL;
	free(net->jobs);
	net->jobs = NULL;
	net->njobs = 0;
	net->nqwords = 0;
	pause_env_free(&net->pause);
	pkt_pool_free(&net->pool);
	sim_engine_free(&net->eng);
}

int net_port_down(const struct net *net, uint32_t sw, uint16_t port, sim_time_ps t)
{
	for (uint32_t i = 0; i < net->nlink_down; i++) {
		const struct net_link_down *d = &net->link_down[i];
		if (d->sw == sw && d->port == port && t >= d->start_ps && t < d->end_ps)
			return 1;
	}
	return 0;
}

int net_jobs(struct net *net, uint32_t njobs)
{
	free(net->jobs);
	net->njobs = 0;
	net->jobs = calloc_lines(njobs, sizeof(*net->jobs)); /* likewise, at every packet */
	if (!net->jobs)
		return -1;
	net->njobs = njobs;
	return 0;
}

void net_drop(struct net *net, struct pkt *p, uint64_t *cause)
{
	(*cause)++;
	net->st.drops.payload += p->payload;
	/* a job's drops are those the drops total counts: a receiver's
	 * go-back-N discard (rx_discard) is not one; PFC frames belong to no
	 * QP */
	if (net->njobs && cause != &net->st.drops.rx_discard && p->type != PKT_PFC &&
	    p->qp < net->nqps) {
		struct net_job_stats *js = net_job(net, nic_qp_job(net, p->qp));
		if (js)
			js->drops++;
	}
	pkt_release(&net->pool, p);
}

void net_lost(struct net *net, struct pkt *p)
{
	if (p->type == PKT_DATA)
		net_drop(net, p, &net->st.drops.link_down);
	else
		pkt_release(&net->pool, p);
}

struct pkt *net_pkt(struct net *net)
{
	return pkt_take(&net->pool);
}

struct pkt *net_pfc_frame(struct net *net, unsigned prio, uint32_t quanta)
{
	struct pkt *p = net_pkt(net);
	*p = (struct pkt){ .type = PKT_PFC, .prio = (uint8_t)prio, .quanta = quanta };
	if (quanta)
		net->st.pause_frames++;
	return p;
}

void net_credits_init(const struct net *net, struct net_credits *c, sim_event_fn fire,
		      uint64_t key)
{
	net_credits_full(net, c);
	sim_event_init(&c->ev, fire, key);
}

void net_credits_full(const struct net *net, struct net_credits *c)
{
	for (unsigned v = 0; v < PKT_PRIOS; v++)
		c->have[v] = net->qos.ib_credits;
}

void net_credits_freed(struct net *net, struct net_credits *c, unsigned vl, uint32_t blocks)
{
	c->pend[vl] += (int32_t)blocks;
	if (!sim_event_pending(&c->ev))
		sim_schedule(&net->eng, &c->ev, net->eng.now + net->qos.ib_credit_delay_ps);
}

void net_credits_send(struct net *net, struct net_credits *c, struct pktq *q)
{
	for (unsigned v = 0; v < PKT_PRIOS; v++)
		if (c->pend[v]) {
			struct pkt *p = net_pkt(net);
			*p = (struct pkt){ .type = PKT_CREDIT, .prio = (uint8_t)v,
					   .quanta = (uint32_t)c->pend[v] };
			pktq_push(q, p);
			c->pend[v] = 0;
		}
}

unsigned net_credits_receive(struct net *net, struct net_credits *c, struct pkt *p)
{
	unsigned v = p->prio;
	c->have[v] += (int32_t)p->quanta;
	pkt_release(&net->pool, p);
	SIM_INVARIANT(c->have[v] <= net->qos.ib_credits,
		      "%d credits on VL %u, more than the peer's buffer", c->have[v], v);
	return v;
}

void net_credits_void(struct net *net, struct net_credits *c)
{
	sim_cancel(&net->eng, &c->ev);
	for (unsigned v = 0; v < PKT_PRIOS; v++)
		c->pend[v] = 0;
}
