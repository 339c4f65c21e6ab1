/*
 * fault.c - scheduled faults (docs/contract.md#scenario-files [fault.*], B3).
 *
 *   pause-storm    a broken NIC sends XOFF on `priority` from start for
 *                  duration, a new frame every half pause time, so its ToR
 *                  port stays paused without a gap.  With nic.pause_watchdog
 *                  set, the NIC's stall prevention stops the frames once its
 *                  receive pipeline has been stalled that long (the storm
 *                  counts as a stall from its start).
 *   slow-receiver  the NIC drains received frames at `rate` (nic.c) and
 *                  pauses its ToR through its small receive buffer.
 *   link-down      both ends of the link stop: frames queued for it and on
 *                  the cable are lost (drops_link_down), PFC state across it
 *                  ends, and switches route around it (topology.h) until it
 *                  comes back after duration: the link is down during
 *                  [start, start + duration).  Routing reads that schedule
 *                  (net_port_down), not the other switches' state, and each
 *                  end of the link has its own event, so each end's node
 *                  changes itself.
 * Each fault (each end of a failed link) has one event: its next action
 * (start, storm frame, end).
 */
#include "models/workload/fault.h"

#include <stdlib.h>

#include "models/core/evkey.h"
#include "models/core/pfc.h"
#include "models/core/topology.h"
#include "models/node/net.h"
#include "models/node/nic.h"
#include "models/node/switch.h"
#include "models/scenario/scenario.h"

static void storm_tick(struct fault_rt *r)
{
	struct net *net = r->net;
	const struct scn_fault *d = r->def;
	struct nic *n = &net->nics[d->host];
	sim_time_ps wd = r->nic_watchdog_ps, now = net->eng.now;
	if (wd && now - d->start_ps >= wd) {
		r->active = 0;
		return;
	}
	nic_send_pfc(n, d->priority, net->qos.pause_quanta);
	sim_time_ps next = now + pfc_quanta_ps(net->qos.pause_quanta, n->ser.rate_bps) / 2;
	if (wd && next > d->start_ps + wd)
		next = d->start_ps + wd;
	sim_schedule(&net->eng, &r->ev, next < r->end_ps ? next : r->end_ps);
}

/* the switch port of node `node` whose peer is the link's other end */
static int link_port(const struct net *net, const struct scn_fault *d, int e, uint16_t *port)
{
	uint32_t node = d->end_node[e], other = d->end_node[1 - e];
	const struct sw *s = &net->sws[node];
	for (uint16_t p = 0; p < s->nports; p++) {
		struct topo_end pe = topo_peer(net->topo, node, p);
		if ((pe.tier == TOPO_HOST) == (d->end_is_host[1 - e] != 0) && pe.node == other) {
			*port = p;
			return 0;
		}
	}
	return -1;
}

/* one end of a failed link goes down or comes back */
static void set_end(struct fault_rt *r, int down)
{
	const struct scn_fault *d = r->def;
	uint32_t node = d->end_node[r->end];
	if (d->end_is_host[r->end]) {
		nic_set_down(&r->net->nics[node], down);
		return;
	}
	uint16_t port;
	if (link_port(r->net, d, r->end, &port) == 0)
		switch_port_set_down(&r->net->sws[node], port, down);
}

static void fault_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct fault_rt *r = container_of(ev, struct fault_rt, ev);
	struct net *net = r->net;
	const struct scn_fault *d = r->def;
	int ending = r->active && eng->now >= r->end_ps;
	switch (d->kind) {
	case SCN_FAULT_PAUSE_STORM:
		if (ending) {
			r->active = 0;
			return;
		}
		r->active = 1;
		storm_tick(r);
		break;
	case SCN_FAULT_SLOW_RECEIVER:
		if (ending) {
			r->active = 0;
			nic_set_drain(&net->nics[d->host], 0);
			return;
		}
		r->active = 1;
		nic_set_drain(&net->nics[d->host], d->rate_bps);
		if (r->end_ps != INT64_MAX)
			sim_schedule(eng, ev, r->end_ps);
		break;
	case SCN_FAULT_LINK_DOWN:
		r->active = !ending;
		set_end(r, r->active);
		if (r->active && r->end_ps != INT64_MAX)
			sim_schedule(eng, ev, r->end_ps);
		break;
	}
}

/* the net that owns a fault's node: the one its node's events run in */
static struct net *owner(const struct net *net, const struct scn_fault *d, int e)
{
	if (d->kind != SCN_FAULT_LINK_DOWN)
		return net->nics[d->host].net;
	return d->end_is_host[e] ? net->nics[d->end_node[e]].net : net->sws[d->end_node[e]].net;
}

int fault_build(struct faults *fs, struct net *net, const struct scenario *scn)
{
	*fs = (struct faults){0};
	uint32_t n = 0, nd = 0;
	for (uint32_t i = 0; i < scn->nfaults; i++) {
		int link = scn->faults[i].kind == SCN_FAULT_LINK_DOWN;
		n += link ? 2 : 1;
		if (link)
			nd += (uint32_t)!scn->faults[i].end_is_host[0] + !scn->faults[i].end_is_host[1];
	}
	if (!n)
		return 0;
	fs->rt = calloc(n, sizeof(*fs->rt));
	fs->link_down = calloc(nd ? nd : 1, sizeof(*fs->link_down));
	if (!fs->rt || !fs->link_down)
		return -1;
	for (uint32_t i = 0; i < scn->nfaults; i++) {
		const struct scn_fault *d = &scn->faults[i];
		int ends = d->kind == SCN_FAULT_LINK_DOWN ? 2 : 1;
		sim_time_ps end_ps = d->duration_ps ? d->start_ps + d->duration_ps : INT64_MAX;
		for (int e = 0; e < ends; e++) {
			struct fault_rt *r = &fs->rt[fs->n++];
			r->net = owner(net, d, e);
			r->def = d;
			r->end = (uint8_t)e;
			r->nic_watchdog_ps = scn->nic_pause_watchdog_ps;
			r->end_ps = end_ps;
			sim_event_init(&r->ev, fault_fire, SIM_KEY(EVKEY_FAULT, i, e));
			sim_schedule(&r->net->eng, &r->ev, d->start_ps);
			uint16_t port;
			if (d->kind == SCN_FAULT_LINK_DOWN && !d->end_is_host[e] &&
			    link_port(net, d, e, &port) == 0)
				fs->link_down[fs->nlink_down++] = (struct net_link_down){
					.sw = d->end_node[e], .port = port, .start_ps = d->start_ps,
					.end_ps = end_ps,
				};
		}
	}
	return 0;
}

void fault_free(struct faults *fs)
{
	free(fs->rt);
	free(fs->link_down);
	*fs = (struct faults){0};
}
