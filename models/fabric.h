/*
 * fabric.h - the simulated fabric: switches, NICs, QPs, flows, and the
 * engine that moves packets between them.  A `struct fabric` is a value: it
 * is created from a finalized scenario and freed; nothing is global, so two
 * fabrics can run in one process.
 *
 * Modules (one prefix each): link_ (constant-delay FIFOs), port_ (switch
 * egress ports and their schedulers), switch_, nic_, topo_ (topology.h),
 * traffic_ (jobs to flows), fabric_ (build, run, invariants).
 *
 * Life of a data packet (DESIGN B1):
 *   NIC picks a ready QP (round robin, O(1)), serializes the frame at the
 *   host link rate -> cable (propagation, 5 ns/m) -> switch ingress, whole
 *   frame received (store-and-forward) -> switch pipeline (switch_latency) ->
 *   route (ECMP on the QP's UDP source port) -> egress queue of its priority
 *   -> scheduler (strict or DWRR) -> serialization -> cable -> ... -> NIC,
 *   which counts the payload toward its flow.
 *
 * Events: one per busy NIC or port (transmit done), one per non-empty link
 * or pipeline (head arrival), one for the traffic's start queue.
 */
#ifndef DCQCN_FABRIC_H
#define DCQCN_FABRIC_H

#include <stdint.h>

#include "engine.h"
#include "pkt.h"
#include "topology.h"

struct scenario;
struct fabric;

#define FABRIC_NONE UINT32_MAX

/* ---- serialization: exact, with the sub-picosecond remainder carried ---- */

struct serializer {
	int64_t rate_bps;
	int64_t rem; /* carried remainder of wire_bits * 1e12 / rate_bps */
};

/* time to put wire_bytes on the wire; the remainders add up so that a long
 * run transmits at exactly rate_bps */
static inline sim_time_ps ser_time(struct serializer *s, uint32_t wire_bytes)
{
	int64_t num = (int64_t)wire_bytes * 8 * UNITS_PS_PER_S + s->rem;
	s->rem = num % s->rate_bps;
	return num / s->rate_bps;
}

/* ---- links: constant-delay FIFOs with one pending event ---- */

typedef void (*link_deliver_fn)(struct fabric *f, void *to, uint16_t port, struct pkt *p);

struct link {
	struct sim_event ev;
	struct pktq q;       /* in flight; pkt->t is when each one arrives */
	sim_time_ps delay_ps;
	link_deliver_fn deliver;
	void *to;
	uint16_t to_port;
};

void link_init(struct link *l, sim_time_ps delay_ps, link_deliver_fn deliver,
	       void *to, uint16_t to_port);
void link_push(struct fabric *f, struct link *l, struct pkt *p);

/* ---- switches ---- */

struct sw;

struct port {
	struct sim_event tx_ev;
	struct pkt *tx;                /* frame being serialized */
	struct pktq q[PKT_PRIOS];
	uint8_t nonempty;              /* bit p: q[p] has packets */
	uint8_t dwrr_cur;
	uint8_t dwrr_fresh;            /* quantum already added this visit */
	uint16_t idx;
	struct serializer ser;
	struct link link;              /* cable to the peer */
	struct sw *sw;
	int64_t dwrr_deficit[PKT_PRIOS];
	uint64_t queued_bytes;         /* frame bytes in all queues */
	uint64_t max_queued_bytes;
	uint64_t tx_pkts, tx_bytes;    /* frames and frame bytes sent */
};

struct sw {
	uint32_t id;
	uint16_t nports;
	struct port *ports;
	struct link pipeline;          /* switch_latency, all ingress ports */
	uint64_t salt;                 /* per-switch ECMP hash salt */
};

void switch_init(struct fabric *f, struct sw *s, uint32_t id, struct port *ports);
void switch_rx(struct fabric *f, void *sw, uint16_t in_port, struct pkt *p);

/* ---- NICs, QPs, flows ---- */

/* A flow is one message: `bytes` from src to dst on one QP.  A QP sends
 * its messages in order. */
struct flow {
	struct flow *next;             /* in its QP's message FIFO */
	uint32_t id, job;
	uint32_t src, dst;
	uint32_t qp;
	int32_t after;                 /* flow that must finish first, or -1 */
	uint32_t first_dep, next_dep;  /* flows waiting for this one */
	int64_t bytes, tx_left, rx_bytes;
	sim_time_ps start_ps, end_ps;  /* end_ps < 0 until complete */
	uint8_t dscp, prio;
};

struct qp {
	struct qp *next_ready;         /* in the NIC's ready ring */
	struct flow *head, *tail;      /* messages left to send */
	uint32_t id;
	uint32_t psn;
	uint16_t src, dst, sport;
	uint8_t prio, dscp;
	uint8_t ready;                 /* in the ready ring */
};

struct nic {
	struct sim_event tx_ev;
	struct pkt *tx;                /* frame being serialized */
	struct serializer ser;
	struct link link;              /* cable to the ToR */
	struct qp *ready_head[PKT_PRIOS], *ready_tail[PKT_PRIOS];
	uint8_t ready_mask;            /* bit p: ready ring p is not empty */
	uint32_t id;
	uint64_t tx_payload_bytes, rx_payload_bytes;
	uint64_t tx_pkts;
};

void nic_init(struct fabric *f, struct nic *n, uint32_t id);
void nic_rx(struct fabric *f, void *nic, uint16_t port, struct pkt *p);
void nic_post(struct fabric *f, struct flow *fl);

/* ---- traffic: jobs to flows, start times, dependencies ---- */

struct traffic {
	struct sim_event ev;           /* next flow start */
	uint32_t *heap;                /* flow ids waiting to start, by (start, id) */
	uint32_t n, cap;
};

int traffic_build(struct fabric *f);
void traffic_free(struct fabric *f);
void traffic_flow_done(struct fabric *f, struct flow *fl);

/* ---- the fabric ---- */

struct fabric_hooks {
	void *ctx;
	/* a flow completed (called once per flow, in completion order) */
	void (*flow_done)(void *ctx, const struct fabric *f, const struct flow *fl);
};

struct fabric {
	struct sim_engine eng;
	const struct scenario *scn;
	struct topo topo;
	struct pkt_pool pool;

	struct sw *sws;
	uint32_t nsw;
	struct port *ports;            /* all switch ports, switch by switch */
	struct nic *nics;
	uint32_t nhosts;

	struct qp *qps;
	uint32_t nqps, qps_cap;
	struct flow *flows;
	uint32_t nflows, flows_cap, flows_done;
	struct traffic traffic;

	struct fabric_hooks hooks;

	uint64_t data_pkts_sent;
	uint64_t payload_injected, payload_delivered;
	char err[256];                 /* why fabric_create failed */
};

/* Build the fabric of a finalized scenario.  Returns NULL and sets *err
 * (static text) when memory runs out or a job cannot be expanded. */
struct fabric *fabric_create(const struct scenario *scn, const char **err);
void fabric_destroy(struct fabric *f);

/* add a flow and its QP; returns the flow id, or FABRIC_NONE when out of
 * memory.  Used by traffic_build(). */
uint32_t fabric_add_flow(struct fabric *f, uint32_t job, uint32_t src, uint32_t dst,
			 int64_t bytes, sim_time_ps start_ps, uint8_t dscp, int32_t after);

/* all flows done: nothing more will happen */
static inline int fabric_finished(const struct fabric *f)
{
	return f->flows_done == f->nflows;
}

/* End-of-run invariants (DESIGN C): payload injected = delivered + in
 * flight; every live packet is somewhere in the fabric.  Returns 0, or -1
 * with a description in f->err.  in_flight gets the payload still in the
 * fabric. */
int fabric_check_conservation(struct fabric *f, uint64_t *in_flight);

/* largest egress queue seen on any switch port, frame bytes */
uint64_t fabric_max_queue_bytes(const struct fabric *f);

#endif
