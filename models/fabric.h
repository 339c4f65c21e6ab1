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

#include "dcqcn.h"
#include "engine.h"
#include "mmu.h"
#include "pkt.h"
#include "rng.h"
#include "topology.h"
#include "wred.h"

struct scenario;
struct fabric;
struct fabric_totals;

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

/* ---- PFC: what received pause frames hold back (switch ports and NICs) ---- */

/*
 * A transmitter's PFC receive state (DESIGN B3).  A received PFC frame waits
 * response_time in `delay` (a constant-delay FIFO, like a cable), then
 * pauses its priority for quanta x 512 bit times, or resumes it (quanta 0).
 * Paused priorities start no new frame; the frame in flight finishes.
 */
struct pause_rx {
	struct sim_event expire_ev;    /* at the earliest until[] of a paused priority */
	struct link delay;             /* received PFC frames, response_time */
	struct pause_rx *next_dirty;   /* in the fabric's pause sampler list */
	int64_t rate_bps;
	uint8_t paused;                /* bit p: priority p is paused */
	uint8_t ignore;                /* bit p: PFC watchdog storm, PFC ignored */
	uint8_t storm;                 /* bit p: watchdog storm declared */
	uint8_t dirty;
	uint8_t is_host;               /* owner: NIC of host `node`, else switch port */
	uint16_t port;
	uint32_t node;
	sim_time_ps until[PKT_PRIOS];  /* pause ends (without XON) */
	sim_time_ps since[PKT_PRIOS];  /* paused continuously since */
	sim_time_ps last_frame[PKT_PRIOS]; /* last PFC frame received; -1 none */
	sim_time_ps acc[PKT_PRIOS];    /* paused time in this sample interval */
	uint32_t frames[PKT_PRIOS];    /* XOFF frames received in this interval */
	uint64_t wd_dropped[PKT_PRIOS];/* packets the watchdog dropped, this storm */
	void (*kick)(struct fabric *f, struct pause_rx *pr); /* resume sending */
};

enum pfc_event { PFC_XOFF, PFC_REFRESH, PFC_XON, PFC_EXPIRE };
enum pfcwd_event { PFCWD_STORM, PFCWD_RESTORE };

void pause_init(struct fabric *f, struct pause_rx *pr, int is_host, uint32_t node,
		uint16_t port, int64_t rate_bps, void (*kick)(struct fabric *, struct pause_rx *));
/* a PFC frame arrived: apply it after the response time; frees p */
void pause_receive(struct fabric *f, struct pause_rx *pr, struct pkt *p);
/* eligible priorities: bit p set when p is not paused */
static inline uint8_t pause_open(const struct pause_rx *pr)
{
	return (uint8_t)~pr->paused;
}
/* end a pause now (watchdog), as if an XON had arrived */
void pause_clear(struct fabric *f, struct pause_rx *pr, unsigned prio);
/* the pause sampler's event handler (fabric.sample_ev) */
void pause_sample_fire(struct sim_engine *eng, struct sim_event *ev);
/* a new PFC frame for prio (quanta 0 = XON), counted in pause_frames if XOFF */
struct pkt *pfc_frame(struct fabric *f, unsigned prio, uint32_t quanta);

/* ---- switches ---- */

struct sw;

struct port {
	struct sim_event tx_ev;
	struct pkt *tx;                /* frame being serialized */
	struct pktq ctrl;              /* PFC frames: ahead of all data */
	struct pktq q[PKT_PRIOS];
	uint8_t nonempty;              /* bit p: q[p] has packets */
	uint8_t dwrr_cur;
	uint8_t dwrr_fresh;            /* quantum already added this visit */
	uint8_t down;                  /* its link failed (fault link-down) */
	uint8_t qdirty;                /* in the fabric's queue sampler list */
	uint8_t qlast;                 /* bit q: the last queues.csv row of q was not 0 */
	uint16_t idx;
	struct port *next_qdirty;
	struct serializer ser;
	struct link link;              /* cable to the peer */
	struct sw *sw;
	struct pause_rx pause;         /* PFC received on this port */
	int64_t egress_bytes[PKT_PRIOS]; /* MMU egress accounting (admitted, not yet sent) */
	int64_t dwrr_deficit[PKT_PRIOS];
	uint64_t queued_bytes;         /* frame bytes in all queues */
	uint64_t max_queued_bytes;
	uint64_t tx_pkts, tx_bytes;    /* frames and frame bytes sent */
};

/* an ingress priority group: MMU accounting and the XOFF it sent upstream */
struct pg {
	struct mmu_pg mmu;
	struct sim_event refresh_ev;   /* while XOFF: refresh before the pause expires */
	uint8_t xoff;                  /* upstream is paused by us */
	uint8_t mute;                  /* watchdog storm on this port: send no PFC */
	uint8_t prio;
	uint16_t port;
	struct sw *sw;
};

struct sw {
	gsl_rng *rng;                  /* WRED marking stream */
	uint32_t id;
	uint16_t nports;
	struct port *ports;
	struct pg *pgs;                /* nports x 8, port-major */
	struct link pipeline;          /* switch_latency, all ingress ports */
	struct mmu_params mmu;
	struct mmu_pool pool;
	struct sim_event wd_ev;        /* PFC watchdog poll */
	uint64_t salt;                 /* per-switch ECMP hash salt */
};

void switch_init(struct fabric *f, struct sw *s, uint32_t id, struct port *ports, struct pg *pgs);
/* the queue sampler's walk over ports that held packets (queues.csv) */
void switch_sample_queues(struct fabric *f);
void switch_rx(struct fabric *f, void *sw, uint16_t in_port, struct pkt *p);
/* fail (down = 1) or restore a switch port's link, the switch's side */
void switch_port_set_down(struct fabric *f, struct sw *s, uint16_t port, int down);

/* ---- NICs, QPs, flows ---- */

/* A flow is one message: `bytes` from src to dst on one QP.  A QP sends
 * its messages in order; its packets are numbered by PSN across messages. */
struct flow {
	struct flow *next;             /* in its QP's message FIFO */
	uint32_t id, job;
	uint32_t src, dst;
	uint32_t qp;
	int32_t after;                 /* flow that must finish first, or -1 */
	uint32_t first_dep, next_dep;  /* flows waiting for this one */
	uint32_t coll;                 /* the job iteration it belongs to */
	uint32_t first_psn;            /* PSN of its first packet; UINT32_MAX until sent */
	uint32_t npkts;                /* ceil(bytes / mtu) */
	int64_t bytes, tx_left, rx_bytes;
	sim_time_ps start_ps, end_ps;  /* end_ps < 0 until complete */
	uint8_t dscp, prio;
};

/*
 * A reliable-connected QP: sender and receiver state of one connection
 * (DESIGN B6 loss recovery, go-back-N).  The sender numbers packets by PSN,
 * keeps messages until they are acknowledged and goes back to psn_una on a
 * NAK or a retransmission timeout; the receiver accepts only rcv_nxt.
 */
struct qp {
	struct qp *next_ready;         /* in the NIC's ready ring */
	struct flow *head, *tail;      /* messages not yet acknowledged */
	struct flow *snd;              /* message being sent; NULL: all sent */
	int64_t snd_off;               /* bytes of snd sent in this pass */
	uint32_t id;
	uint32_t psn_nxt, psn_una, psn_max; /* next to send, oldest unacked, highest sent + 1 */
	uint32_t rcv_nxt;              /* receiver: next PSN expected */
	uint32_t rcv_unacked;          /* receiver: packets accepted since the last ACK */
	uint16_t src, dst, sport;
	uint8_t prio, dscp;
	uint8_t ready;                 /* in the ready ring */
	uint8_t nak_sent;              /* receiver: a NAK for rcv_nxt is out */
	uint8_t pacing;                /* waiting for pace_ev */
	sim_time_ps last_send_ps;      /* pacing at Rc: the last packet started then */
	uint32_t last_wire;            /* ... with this many wire bytes */
	sim_time_ps rto_at_ps;         /* retransmission deadline; 0 = none */
	sim_time_ps last_cnp_ps;       /* notification point: last CNP sent */
	struct sim_event pace_ev, rto_ev;
	struct dcqcn_qp dc;
};

struct nic {
	struct sim_event tx_ev;
	struct pkt *tx;                /* frame being serialized */
	struct pktq pfcq;              /* PFC frames: ahead of everything, never paused */
	struct pktq ctrlq[PKT_PRIOS];  /* CNP, ACK, NAK by priority: ahead of data, paused
					* with their priority */
	uint8_t ctrl_mask;             /* bit p: ctrlq[p] is not empty */
	struct pause_rx pause;         /* PFC received from the ToR */
	/* receive side under a slow-receiver fault: a small buffer drained at
	 * a fixed rate, which pauses the ToR (DESIGN B3) */
	struct pktq rxq;
	struct sim_event drain_ev, refresh_ev;
	struct serializer drain;       /* rate_bps 0: no slow-receiver fault active */
	uint8_t rx_xoff;               /* bit p: we paused the ToR on p */
	uint8_t down;                  /* host link failed (fault link-down) */
	struct serializer ser;
	struct link link;              /* cable to the ToR */
	struct qp *ready_head[PKT_PRIOS], *ready_tail[PKT_PRIOS];
	uint8_t ready_mask;            /* bit p: ready ring p is not empty */
	uint32_t id;
	sim_time_ps last_cnp_ps;       /* cnp_scope = port: last CNP sent */
	uint64_t tx_payload_bytes, rx_payload_bytes;
	uint64_t tx_pkts;
};

/* ---- faults (DESIGN A2 [fault.*]) ---- */

struct fault_rt {
	struct sim_event ev;           /* next action: start, storm tick, end */
	const struct scn_fault *def;
	sim_time_ps end_ps;            /* INT64_MAX: until the end of the run */
	uint8_t active;
};

int fault_build(struct fabric *f);

void nic_init(struct fabric *f, struct nic *n, uint32_t id);
void nic_qp_init(struct fabric *f, struct qp *q);
void nic_rx(struct fabric *f, void *nic, uint16_t port, struct pkt *p);
void nic_post(struct fabric *f, struct flow *fl);
void nic_send_pfc(struct fabric *f, struct nic *n, unsigned prio, uint32_t quanta);
void nic_set_drain(struct fabric *f, struct nic *n, int64_t rate_bps);
void nic_set_down(struct fabric *f, struct nic *n, int down);

/* ---- traffic: jobs to flows, start times, dependencies ---- */

/* one iteration of a job: its flows are [first_flow, first_flow + nflows) */
struct coll {
	uint32_t job, iter;
	uint32_t first_flow, nflows, done;
	uint32_t ranks;
	uint32_t senders;              /* distinct source hosts */
	int64_t bytes;                 /* collective size S, or the flows' total */
	sim_time_ps start_ps, end_ps;  /* start: release (before skew); end < 0 until done */
};

struct traffic {
	struct coll *colls;
	uint32_t ncolls, colls_cap;
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

/* drops by cause (DESIGN B2-B4) */
struct fabric_drops {
	uint64_t lossless;             /* headroom overflow (switch or NIC) */
	uint64_t lossy;                /* egress dynamic threshold */
	uint64_t pfcwd;                /* PFC watchdog action drop */
	uint64_t link_down;            /* on a failed link */
	uint64_t rx_discard;           /* out of order or duplicate at the receiver (go-back-N) */
	uint64_t payload;              /* payload bytes of all dropped data packets */
};

/* transport and congestion-control counters */
struct fabric_cc {
	uint64_t ecn_marked;           /* data packets marked CE at a switch */
	uint64_t ce_delivered;         /* data packets accepted by receivers with CE */
	uint64_t pkts_delivered;       /* data packets accepted by receivers */
	uint64_t cnps_sent, cnps_received;
	uint64_t naks_sent, acks_sent, timeouts;
	uint64_t retransmitted_bytes;  /* payload sent again (PSN below psn_max) */
};

struct fabric {
	struct sim_engine eng;
	const struct scenario *scn;
	struct topo topo;
	struct pkt_pool pool;

	struct sw *sws;
	uint32_t nsw;
	struct port *ports;            /* all switch ports, switch by switch */
	struct pg *pgs;                /* all ingress PGs, port by port */
	size_t nports;
	struct nic *nics;
	uint32_t nhosts;

	struct qp *qps;
	uint32_t nqps, qps_cap;
	struct flow *flows;
	uint32_t nflows, flows_cap, flows_done;
	struct traffic traffic;
	struct fault_rt *faults;
	uint32_t nfaults;
	uint32_t links_down;           /* failed links now: routing avoids them */

	/* PFC sampling (pause.csv) */
	struct sim_event sample_ev;
	sim_time_ps sample_start;
	struct pause_rx *dirty;
	uint32_t max_paused_ppm;

	struct fabric_hooks hooks;
	struct dcqcn_params dcqcn;     /* from [dcqcn] and the host link rate */
	struct wred_params wred;
	struct sim_event series_ev;    /* rates.csv, queues.csv, counters.csv sampler */
	struct port *qdirty;           /* switch ports with queued bytes since the last sample */
	struct fabric_totals last;     /* totals at the last sample */
	uint64_t *backlog;             /* output.queues = all: per host and priority */
	uint8_t *backlog_last;         /* bit p: the last row of (host, p) was not 0 */
	struct fabric_cc cc;

	uint64_t data_pkts_sent;
	uint64_t payload_injected, payload_delivered;
	struct fabric_drops drops;
	uint64_t pause_frames;         /* XOFF frames sent, refreshes included */
	uint64_t pfcwd_storms;
	int64_t peak_headroom_bytes;   /* largest headroom use of any PG */
	char err[256];                 /* why fabric_create failed */
};

/* a data packet is dropped (cause counter already chosen by the caller) */
void fabric_drop(struct fabric *f, struct pkt *p, uint64_t *cause);
/* start the time-series sampler once the hooks are set */
void fabric_start_series(struct fabric *f);
/* close the last pause sample interval (end of run) */
void fabric_pause_flush(struct fabric *f);

/* Build the fabric of a finalized scenario.  Returns NULL and sets *err
 * (static text) when memory runs out or a job cannot be expanded. */
struct fabric *fabric_create(const struct scenario *scn, const char **err);
void fabric_destroy(struct fabric *f);

/* add a QP from src to dst; returns its id, or FABRIC_NONE when out of memory */
uint32_t fabric_add_qp(struct fabric *f, uint32_t src, uint32_t dst, uint8_t dscp);
/* add a flow (message) on QP qp; returns the flow id, or FABRIC_NONE when out
 * of memory.  Used by traffic_build(). */
uint32_t fabric_add_flow(struct fabric *f, uint32_t job, uint32_t qp, int64_t bytes,
			 sim_time_ps start_ps, int32_t after);

/* all flows done: nothing more will happen */
static inline int fabric_finished(const struct fabric *f)
{
	return f->flows_done == f->nflows;
}

/* End-of-run invariants (DESIGN C): payload injected = delivered + dropped
 * + in flight; every live packet is somewhere in the fabric; with nothing
 * in flight, every switch buffer is back to zero.  Returns 0, or -1
 * with a description in f->err.  in_flight gets the payload still in the
 * fabric. */
int fabric_check_conservation(struct fabric *f, uint64_t *in_flight);

/* largest egress queue seen on any switch port, frame bytes */
uint64_t fabric_max_queue_bytes(const struct fabric *f);

#endif
