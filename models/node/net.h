/*
 * net.h - what the nodes (switches and NICs) of one simulated network
 * share: the engine and packet pool, the QoS settings every node applies,
 * the counters, the transport tables (QPs and messages), and the callbacks
 * through which the layers above observe them.
 *
 * Layering (docs/ARCHITECTURE.md): nodes sit on the pure cores (packets,
 * links, PFC, MMU, WRED, DCQCN, topology) and talk to each other only
 * through links; nothing here knows the scenario file, the workloads or the
 * fabric assembly.  A node reaches its net through its own pointer; the
 * layers above fill `struct net` in and set the callbacks.
 */
#ifndef DCQCN_NET_H
#define DCQCN_NET_H

#include <stdint.h>

#include "models/base/engine.h"
#include "models/core/pause.h"
#include "models/core/pkt.h"

struct flow;
struct net;
struct qp;
struct qp_tcp;
struct qp_cc_kept;
struct sw;
struct port;
struct nic;
struct topo;

#define NET_NONE UINT32_MAX

/* [qos], [pfc] and [ecn] as every node applies them */
struct net_qos {
	uint8_t dscp_to_prio[64];      /* priority (= PG, = egress queue) of a DSCP */
	uint8_t lossless;              /* bit p: PFC on priority p */
	uint8_t ecn_queues;            /* bit q: WRED/ECN on egress queue q */
	uint8_t ecn_at_enqueue;        /* mark at enqueue (else at dequeue) */
	uint8_t cnp_dscp;
	uint8_t cnp_strict;            /* the CNP priority goes ahead of every data queue */
	uint8_t dwrr;                  /* scheduler: DWRR (else strict priority) */
	uint32_t dwrr_weights[PKT_PRIOS];
	uint32_t mtu_bytes;            /* RoCE payload per data packet */
	uint32_t pause_quanta;         /* quanta of every XOFF sent */
	int64_t xon_offset_bytes;
	/* fabric.type = infiniband: credit-based flow control instead of PFC */
	uint8_t ib;
	int32_t ib_credits;            /* initial credits per VL: ib.vl_buffer / 64 */
	sim_time_ps ib_credit_delay_ps;/* buffer freed to credit update sent */
	uint8_t vlarb;                 /* ib.vl_arbitration: switch ports arbitrate VLs by
					* weight x 64 B per turn (dwrr_weights) */
	uint8_t ibcc;                  /* ib.cc: switches set FECN (switch_config ibcc) */
};

/* drops by cause (docs/model.md) */
struct net_drops {
	uint64_t lossless;             /* headroom overflow (switch or NIC) */
	uint64_t lossy;                /* egress dynamic threshold */
	uint64_t pfcwd;                /* PFC watchdog action drop */
	uint64_t link_down;            /* on a failed link */
	uint64_t rx_discard;           /* out of order (go-back-N; adaptive: beyond the
					* window) or duplicate at the receiver */
	uint64_t payload;              /* payload bytes of all dropped data packets */
};

/* transport and congestion-control counters */
struct net_cc {
	uint64_t ecn_marked;           /* data packets marked CE at a switch */
	uint64_t ce_delivered;         /* data packets accepted by receivers with CE */
	uint64_t pkts_delivered;       /* data packets accepted by receivers */
	uint64_t cnps_sent, cnps_received;
	uint64_t naks_sent, acks_sent, timeouts;
	uint64_t qps_failed;           /* QPs whose retries ran out (error state) */
	uint64_t retransmitted_bytes;  /* payload sent again (PSN below psn_max) */
	uint64_t ooo_pkts;             /* data packets accepted ahead of a gap (RoCE and
					* InfiniBand with ecmp = adaptive, TCP) */
};

struct net_stats {
	uint64_t data_pkts_sent;
	uint64_t payload_injected, payload_delivered;
	uint64_t nvlink_bytes;         /* messages' bytes that arrived over NVLink */
	struct net_drops drops;
	struct net_cc cc;
	uint64_t pause_frames;         /* XOFF frames sent, refreshes included */
	uint64_t pfcwd_storms;
	int64_t peak_headroom_bytes;   /* largest headroom use of any PG */
};

/* what happened to one job's packets (counters.csv's JOB_* columns): the
 * job of a packet is its QP's (struct qp.job), so counting is an index, not
 * a search.  Their sums over the jobs are payload_delivered,
 * cc.retransmitted_bytes and drops.lossless + lossy + pfcwd + link_down. */
struct net_job_stats {
	uint64_t delivered_bytes;      /* payload accepted by receivers */
	uint64_t retransmitted_bytes;  /* payload sent again */
	uint64_t drops;                /* packets dropped (data and the QP's control frames) */
};

enum pfcwd_event { PFCWD_STORM, PFCWD_RESTORE };

/* a switch port whose link is down during [start_ps, end_ps) */
struct net_link_down {
	uint32_t sw;
	uint16_t port;
	sim_time_ps start_ps, end_ps;
};

/* is switch sw's port down at time t (its link failed) */
int net_port_down(const struct net *net, uint32_t sw, uint16_t port, sim_time_ps t);

/* the callbacks of the layers above (NULL: not observed) */
struct net_observer {
	/* a message completed at its receiver (called once per flow) */
	void (*flow_done)(void *ctx, struct flow *fl);
	void *flow_ctx;
	/* the PFC watchdog declared a storm or restored a queue */
	void *pfcwd_ctx;
	void (*pfcwd)(void *ctx, const struct pause_rx *pr, unsigned prio, enum pfcwd_event ev,
		      uint64_t dropped);
	/* a QP went to the error state (its retries ran out), on its sender's
	 * partition */
	void (*qp_failed)(void *ctx, const struct qp *q);
	void *qp_failed_ctx;
};

/* a pending retransmission timer: when, scheduled when, whose (rto.c) */
struct net_rto {
	sim_time_ps time, sched;
	uint32_t qid;
};

struct net {
	struct sim_engine eng;
	uint32_t part;                 /* which partition of the fabric it runs (fabric.h) */
	uint8_t remote;                /* another process runs it (a run split over MPI
					* ranks, models/fabric/ranks.h): its nodes stay idle
					* here and nothing is posted to its NICs */
	struct pkt_pool pool;
	struct pause_env pause;        /* PFC receive state's sampler and callbacks */
	struct net_qos qos;
	struct net_stats st;
	struct net_job_stats *jobs;    /* per job (net_jobs), NULL: not counted */
	uint32_t njobs;
	struct net_observer obs;

	/* Fixed once the fabric is built, and read by other partitions' threads
	 * too (the traffic layer reaches the node and QP tables through any net):
	 * on lines of their own, which this partition's writes never take from
	 * the other cores (parallel.c, Threads). */
	_Alignas(64) const struct topo *topo;
	struct sw *sws;                /* switches, by number */
	struct nic *nics;              /* NICs, by host */
	uint32_t nsw, nhosts;
	/* failed links (fault link-down), known in advance: a switch routes
	 * around a port while now is in [start, end) of one of them */
	const struct net_link_down *link_down;
	uint32_t nlink_down;
	struct port *ports;            /* every switch port, by global index (net_ports) */
	uint64_t *qbits;               /* bit g: port g held packets since the last queue sample */
	uint32_t nqwords;
	/* transport (nic.h): QPs by id (made before the run) */
	struct qp *qps;
	uint32_t nqps, qps_cap;
	struct qp_cc *qp_cc;           /* each QP's congestion control and pacing event,
					* beside qps, written only where made (nic.h) */
	uint64_t **rxwin;              /* TCP, and RoCE with nic_config.reorder: each QP's
					* receive window (tcp.c, reorder.c), made at its
					* first segment out of order; else NULL */
	struct qp_tcp *tcp;            /* TCP runs: each QP's TCP state, beside qps
					* (internal.h); else NULL */
	struct qp_cache *qc;           /* nic.qp_cache: what QPs without state keep
					* (qpcache.c), shared like qps; else NULL */

	/* the retransmission timers of its senders' QPs (rto.c): a heap, and
	 * the event that stands for the first */
	_Alignas(64) struct net_rto *rto;
	uint32_t nrto, rto_cap;
	struct sim_event rto_ev;

	/* the pool of messages */
	_Alignas(64) struct flow *flow_free; /* free messages */
	struct slab_chain flow_slabs;  /* and those never used */
	uint64_t flows_live;           /* messages taken from the pool, not returned */
	uint64_t flows_peak;           /* the most flows_live has been */
	uint64_t flows_done;           /* messages completed at their receivers */

	/* nic.qp_cache (qpcache.c), written by this partition's thread: its
	 * senders' QPs with state (and the most at once), how many it keeps,
	 * its QPs at rest oldest first (a ring), the blocks of the table it
	 * emptied (given back at the window's end), and the retransmission
	 * timers that QPs gave up with their state, which still fire (by the
	 * high half of their times, in buckets of 4.29 ms, each a heap of the
	 * low half and the QP; the event at the first) */
	_Alignas(64) uint64_t qps_live, qps_live_peak, qps_limit;
	uint32_t *rest;
	uint32_t rest_head, rest_n, rest_cap;
	uint32_t *emptied;
	uint32_t nemptied, emptied_cap;
	struct rest_timers *timers;
	uint32_t ntimers, timers_cap; /* buckets */
	struct sim_event timers_ev;
	/* the congestion control of QPs at rest that it changed (DCQCN cut
	 * them): a table of QP id + 1 and place (a hash, linear probing) and
	 * the states, dense */
	uint64_t *cc_slots;
	uint32_t cc_nslots;
	struct qp_cc_kept *cc_kept;
	uint32_t cc_n, cc_cap;
};

/* the engine and pool of partition `part`; 0, or -1 when out of memory.
 * The caller sets qos, the node tables, the observer and the pause env's
 * callbacks. */
int net_init(struct net *net, sim_time_ps sample_interval_ps, uint32_t part);
/* the fabric's switch ports, by global index (those of this net's switches
 * among them), for the queue sampler; 0, or -1 when out of memory */
int net_ports(struct net *net, struct port *ports, size_t nports);
void net_free(struct net *net);
/* count per job from now on, for njobs jobs (index: the QP's job); 0, or -1
 * when out of memory */
int net_jobs(struct net *net, uint32_t njobs);

/* the counters of a job, NULL when jobs are not counted (or the job is not
 * known: NET_NONE) */
static inline struct net_job_stats *net_job(struct net *net, uint32_t job)
{
	return job < net->njobs ? &net->jobs[job] : NULL;
}

/* a data packet is dropped: counts it under `cause` and its payload */
void net_drop(struct net *net, struct pkt *p, uint64_t *cause);
/* a frame arrived over a link that has failed since it left: a data
 * packet counts as lost with the link, a control frame just vanishes */
void net_lost(struct net *net, struct pkt *p);
/* a packet from the pool (a broken invariant when memory runs out) */
struct pkt *net_pkt(struct net *net);
/*
 * InfiniBand: what a transmitter (switch port, NIC) holds toward its peer:
 * credits per VL in 64-byte blocks, the blocks its own receive side freed
 * that the next credit update returns to the peer, and the event that
 * sends that update credit_update_delay after the first of them.
 */
struct net_credits {
	int32_t have[PKT_PRIOS];
	int32_t pend[PKT_PRIOS];
	struct sim_event ev;
};
/* have = the peer's vl_buffer on every VL; fire sends the updates */
void net_credits_init(const struct net *net, struct net_credits *c, sim_event_fn fire,
		      uint64_t key);
/* have = the peer's vl_buffer again (link training) */
void net_credits_full(const struct net *net, struct net_credits *c);
/* `blocks` of VL vl freed: returned by the next update */
void net_credits_freed(struct net *net, struct net_credits *c, unsigned vl, uint32_t blocks);
/* the update's frames (one per VL with blocks to return) onto q */
void net_credits_send(struct net *net, struct net_credits *c, struct pktq *q);
/* an update from the peer: its blocks are ours again (p is released); its VL */
unsigned net_credits_receive(struct net *net, struct net_credits *c, struct pkt *p);
/* a failed link: nothing is returned any more */
void net_credits_void(struct net *net, struct net_credits *c);
/* a new PFC frame for prio (quanta 0 = XON), counted in pause_frames if XOFF */
struct pkt *net_pfc_frame(struct net *net, unsigned prio, uint32_t quanta);

static inline int net_lossless(const struct net *net, unsigned prio)
{
	return (net->qos.lossless >> prio) & 1u;
}

#endif
