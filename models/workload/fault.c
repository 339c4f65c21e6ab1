/*
 * fault.c - scheduled faults (DESIGN A2 [fault.*], B3).
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
 *                  comes back after duration.
 * Each fault has one event: its next action (start, storm frame, end).
 */
#include "fault.h"

#include <stdlib.h>

#include "evkey.h"
#include "net.h"
#include "nic.h"
#include "pfc.h"
#include "scenario.h"
#include "switch.h"
#include "topology.h"

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

static void set_link(struct net *net, const struct scn_fault *d, int down)
{
	net->links_down = down ? net->links_down + 1 : net->links_down - 1;
	for (int e = 0; e < 2; e++) {
		uint32_t node = d->end_node[e], other = d->end_node[1 - e];
		if (d->end_is_host[e]) {
			nic_set_down(&net->nics[node], down);
			continue;
		}
		/* the switch port whose peer is the other end */
		struct sw *s = &net->sws[node];
		for (uint16_t p = 0; p < s->nports; p++) {
			struct topo_end pe = topo_peer(net->topo, node, p);
			if ((pe.tier == TOPO_HOST) == (d->end_is_host[1 - e] != 0) &&
			    pe.node == other) {
				switch_port_set_down(s, p, down);
				break;
			}
		}
	}
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
		set_link(net, d, r->active);
		if (r->active && r->end_ps != INT64_MAX)
			sim_schedule(eng, ev, r->end_ps);
		break;
	}
}

int fault_build(struct faults *fs, struct net *net, const struct scenario *scn)
{
	fs->n = scn->nfaults;
	fs->rt = NULL;
	if (!fs->n)
		return 0;
	fs->rt = calloc(fs->n, sizeof(*fs->rt));
	if (!fs->rt)
		return -1;
	for (uint32_t i = 0; i < fs->n; i++) {
		struct fault_rt *r = &fs->rt[i];
		r->net = net;
		r->def = &scn->faults[i];
		r->nic_watchdog_ps = scn->nic_pause_watchdog_ps;
		r->end_ps = r->def->duration_ps ? r->def->start_ps + r->def->duration_ps : INT64_MAX;
		sim_event_init(&r->ev, fault_fire, SIM_KEY(EVKEY_FAULT, i, 0));
		sim_schedule(&net->eng, &r->ev, r->def->start_ps);
	}
	return 0;
}

void fault_free(struct faults *fs)
{
	free(fs->rt);
	fs->rt = NULL;
	fs->n = 0;
}
