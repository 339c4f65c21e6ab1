/*
 * fabric.h - the fabric of a scenario, assembled: the topology, the
 * switches and NICs wired by links, the workloads (jobs, faults), and the
 * time-series samplers; the end-of-run invariants.  A `struct fabric` is a
 * value: created from a finalized scenario and freed; nothing is global, so
 * two fabrics can run in one process.
 *
 * This is the top of models/ (docs/ARCHITECTURE.md): the only model file
 * that reads the scenario.  It turns [topology], [qos], [buffer], [pfc],
 * [pfcwd], [ecn], [nic] and [dcqcn] into the configurations of the nodes
 * (net.h, switch.h, nic.h), builds them, and forwards what they observe to
 * the hooks of the run layer.
 */
#ifndef DCQCN_FABRIC_H
#define DCQCN_FABRIC_H

#include <stdint.h>

#include "fault.h"
#include "net.h"
#include "nic.h"
#include "switch.h"
#include "topology.h"
#include "traffic.h"

struct scenario;
struct fabric;
struct fabric_totals;

/* what the run layer observes (NULL: not observed) */
struct fabric_hooks {
	void *ctx;
	/* a flow completed (called once per flow, in completion order) */
	void (*flow_done)(void *ctx, const struct fabric *f, const struct flow *fl);
	/* a job iteration completed */
	void (*coll_done)(void *ctx, const struct fabric *f, const struct coll *c);
	/* a PFC frame took effect on a transmitter, or its pause expired */
	void (*pfc)(void *ctx, const struct fabric *f, const struct pause_rx *pr, unsigned prio,
		    enum pfc_event ev, uint32_t quanta);
	/* DCQCN state of a traced QP (rates.csv), every sample_interval */
	void (*rate_sample)(void *ctx, const struct fabric *f, const struct qp *q);
	/* a switch egress queue's bytes (queues.csv): while it is not empty,
	 * and once more when it has emptied */
	void (*queue_sample)(void *ctx, const struct fabric *f, const struct port *pt,
			     unsigned q, uint64_t bytes);
	/* a NIC's transmit backlog on a priority (queues.csv with
	 * output.queues = all): payload its QPs have yet to send */
	void (*nic_queue_sample)(void *ctx, const struct fabric *f, uint32_t host, unsigned prio,
				 uint64_t bytes);
	/* fabric counters over the last sample interval (counters.csv) */
	void (*counters)(void *ctx, const struct fabric *f, const struct fabric_totals *delta);
	/* one sample interval of a transmitter's priority: paused fraction in
	 * parts per million and XOFF frames received (only when either is > 0) */
	void (*pause_sample)(void *ctx, const struct fabric *f, sim_time_ps t,
			     const struct pause_rx *pr, unsigned prio, uint32_t paused_ppm,
			     uint32_t frames);
	/* the PFC watchdog declared a storm or restored a queue */
	void (*pfcwd)(void *ctx, const struct fabric *f, const struct pause_rx *pr, unsigned prio,
		      enum pfcwd_event ev, uint64_t dropped);
};

/* running totals behind counters.csv */
struct fabric_totals {
	uint64_t delivered_pkts, ecn_marked, cnps, pause_frames, drops;
};

struct fabric {
	const struct scenario *scn;
	struct topo topo;
	struct net net;
	struct switch_config swcfg;
	struct nic_config niccfg;

	struct sw *sws;
	uint32_t nsw;
	struct port *ports;            /* all switch ports, switch by switch */
	struct pg *pgs;                /* all ingress PGs, port by port */
	size_t nports;
	struct nic *nics;
	uint32_t nhosts;

	struct traffic traffic;
	struct faults faults;

	struct fabric_hooks hooks;
	struct sim_event series_ev;    /* rates.csv, queues.csv, counters.csv sampler */
	struct fabric_totals last;     /* totals at the last sample */
	uint64_t *backlog;             /* output.queues = all: per host and priority */
	uint8_t *backlog_last;         /* bit p: the last row of (host, p) was not 0 */
	char err[256];                 /* why an invariant failed */
};

/* Build the fabric of a finalized scenario.  Returns NULL and sets *err
 * (static text) when memory runs out or a job cannot be expanded. */
struct fabric *fabric_create(const struct scenario *scn, const char **err);
void fabric_destroy(struct fabric *f);

/* start the time-series sampler once the hooks are set */
void fabric_start_series(struct fabric *f);
/* run the events due at or before `until` (stops early when every flow has
 * completed); returns the number fired */
uint64_t fabric_run_until(struct fabric *f, sim_time_ps until);
/* time of the next event, INT64_MAX when none */
sim_time_ps fabric_next_time(struct fabric *f);
/* simulated time: the time of the last event fired */
sim_time_ps fabric_now(const struct fabric *f);
/* events fired so far */
uint64_t fabric_events(const struct fabric *f);
/* close the last pause sample interval (end of run) */
void fabric_pause_flush(struct fabric *f);

/* the counters of the whole fabric */
void fabric_stats(const struct fabric *f, struct net_stats *out);
/* the largest paused fraction of any transmitter in one sample interval, ppm */
uint32_t fabric_max_paused_ppm(const struct fabric *f);

/* all flows done: nothing more will happen */
static inline int fabric_finished(const struct fabric *f)
{
	return traffic_finished(&f->traffic);
}

/* messages the jobs define, and those completed so far */
uint64_t fabric_flows_total(const struct fabric *f);
/* the payload of all those messages */
uint64_t fabric_bytes_total(const struct fabric *f);
uint64_t fabric_flows_done(const struct fabric *f);
/* a message the fabric still holds (waiting for its start, being sent, or
 * not yet acknowledged), by id; NULL before it is made and once released.
 * A scan of every QP and NIC: for tests and end-of-run reports. */
const struct flow *fabric_flow(const struct fabric *f, uint64_t id);
/* the messages posted to their QPs that have not completed, in id order:
 * fn is called for each; -1 when out of memory */
int fabric_unfinished(const struct fabric *f, void (*fn)(void *ctx, const struct flow *fl),
		      void *ctx);

/* End-of-run invariants (DESIGN C): payload injected = delivered + dropped
 * + in flight; every live packet is somewhere in the fabric; with nothing
 * in flight, every switch buffer is back to zero.  Returns 0, or -1
 * with a description in f->err.  in_flight gets the payload still in the
 * fabric. */
int fabric_check_conservation(struct fabric *f, uint64_t *in_flight);

/* largest egress queue seen on any switch port, frame bytes */
uint64_t fabric_max_queue_bytes(const struct fabric *f);

#endif
