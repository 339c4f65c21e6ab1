/*
 * nic.h - the host NIC: reliable-connected QPs that send messages packet by
 * packet (paced by DCQCN), go-back-N loss recovery, the DCQCN notification
 * point, PFC honoured per priority, and the slow-receiver and failed-link
 * states that faults set (docs/model.md#pfc, #dcqcn).  nic.c opens with the
 * model; TCP hosts are in tcp.c, InfiniBand's credits in ib.c, NVLink in
 * nvlink.c, the QP table and the message pool in qps.c (their shared
 * declarations: internal.h, private to models/node).
 */
#ifndef DCQCN_NIC_H
#define DCQCN_NIC_H

#include <stddef.h>
#include <stdint.h>

#include "models/core/dcqcn.h"
#include "models/core/ibcc.h"
#include "models/core/link.h"
#include "models/core/pause.h"
#include "models/node/net.h"

/* what every NIC of the fabric is configured with */
struct nic_config {
	int64_t rate_bps;              /* host link */
	sim_time_ps response_ps;       /* PFC frames received take effect after it */
	int64_t rx_headroom_bytes;     /* slow receiver: room beyond its XOFF point */
	uint8_t dcqcn;                 /* nic.cc = dcqcn (else line rate, PFC alone) */
	uint8_t cnp_per_port;          /* cnp_scope = port (else per QP) */
	uint8_t pace_fixed;            /* dcqcn.rate_change_reschedules = false: a paced
					* send time stays when the rate changes */
	uint8_t reorder;               /* ecmp = adaptive: RoCE and InfiniBand receivers
					* accept out of order within a window (reorder.c) */
	sim_time_ps min_time_between_cnps_ps;
	sim_time_ps rto_ps;            /* go-back-N retransmission timeout */
	uint32_t retry_cnt;            /* a QP errors at the (retry_cnt + 1)-th timeout in a row */
	/* fabric.type = ethernet-tcp: the hosts run TCP (tcp.c) */
	uint8_t tcp, dctcp;
	uint32_t tcp_init_cwnd;        /* segments */
	sim_time_ps tcp_rto_min_ps, tcp_delack_ps, tcp_stack_ps;
	struct dcqcn_params dcqcn_params;
	/* ib.cc = on (fabric.type = infiniband): a FECN is answered with a
	 * BECN, and each QP waits its CCT entry's delay between packets */
	uint8_t ibcc;
	struct ibcc_params ibcc_params;
	uint64_t seed;                 /* QP source ports */
	/* nic.qp_cache: a run that opens more QPs keeps the state of at most
	 * about this many (those at rest give theirs up), 0 every QP's; the
	 * first qp_pinned QPs (those rates.csv traces) always keep theirs */
	uint32_t qp_cache, qp_pinned;
	int64_t nvlink_bps;            /* a GPU's NVLink, per direction */
	sim_time_ps nvlink_latency_ps;
};

/*
 * A flow is one message: `bytes` from src to dst on one QP.  A QP sends
 * its messages in order; its packets are numbered by PSN across messages.
 * Messages come from the net's pool (nic_flow_new) and go back to it when
 * the receiver has acknowledged all of them (after it completed, so nothing
 * reads them any more); a packet still in flight then only carries a stale
 * pointer, which the receiver never follows (it checks the PSN first).
 * job, iter, pos and the dependency links belong to the workload that made
 * the message (traffic.h); the NIC does not read them.  Two cache lines
 * (the slabs align them): a fabric of thousands of ranks misses on each line
 * of a message at each of its steps.
 */
struct flow {
	/* first what an acknowledgement reads; 104 B, 8-aligned (7 M of them
	 * are under way at once in an all-to-all of 8,192 ranks) */
	struct flow *next;             /* in its QP's message FIFO, or the pool's free list */
	uint32_t first_psn;            /* PSN of its first packet; UINT32_MAX until sent */
	uint32_t npkts;                /* ceil(bytes / mtu) */
	uint64_t id;                   /* stable: the order in which jobs define messages */
	uint32_t iter;                 /* workload tags: the iteration, */
	uint32_t pos[4];               /* the workload's place for it (e.g. ring step), */
	uint8_t job;                   /* and the job (a scenario has at most 64) */
	uint8_t dscp, prio;
	uint8_t posted;                /* handed to its QP */
	/* then what sending and receiving read */
	uint16_t src, dst;             /* hosts, as its QP's */
	uint32_t qp;
	uint32_t heap_idx;             /* in its NIC's start heap, or UINT32_MAX */
	uint8_t mirror;                /* this process's copy of a message that another
					* process sends (models/fabric/ranks.c) */
	uint8_t gen;                   /* not a message: a struct nic_gen's place in the
					* NIC's heap of messages waiting to start */
	int64_t bytes, rx_bytes;
	sim_time_ps start_ps, end_ps;  /* end_ps < 0 until complete */
	sim_time_ps due_ps;            /* over NVLink: when it arrives; over TCP: when the
					* host stack hands it to the connection */
};
_Static_assert(sizeof(struct flow) == 104, "a message takes 104 B");

/*
 * A QP's congestion control and its pacing wait: DCQCN's state (nic.cc =
 * dcqcn, RoCE) or InfiniBand's (ib.cc), never both, and the event that
 * wakes the QP when its rate lets it send again (TCP: when its message is
 * due; NVLink: when its messages arrive).  In a table of their own indexed
 * like the QPs (net->qp_cc), made on first use (nic_qp_cc): a QP that
 * DCQCN never cut and that never waited reads as a new QP without them,
 * and such QPs, most of an all-to-all's, leave their pages of the table
 * untouched.  Three lines a QP, what the sender reads for every packet
 * first: DCQCN's state (reacting, rc_bps, the increase timer), its last
 * send, then the pacing event.
 */
struct qp_cc {
	_Alignas(64) union {
		struct dcqcn_qp dc;
		struct ibcc_qp ibcc;
	};
	/* pacing at Rc: the QP may send again last_wire bytes at Rc after
	 * pace_from_ps, when its last packet started; with pace_fixed the
	 * send time is fixed as that packet leaves: pace_from_ps is that time
	 * and last_wire 0.  Written at each packet once made (a QP without
	 * it sends at line rate, which never waits) */
	sim_time_ps pace_from_ps;
	uint32_t last_wire;
	struct sim_event pace_ev;      /* TCP: waits for a message's due_ps */
};
_Static_assert(sizeof(struct qp_cc) == 192, "a QP's congestion control takes three lines");

/*
 * A reliable-connected QP: sender and receiver state of one connection
 * (docs/model.md#dcqcn loss recovery, go-back-N).  The sender numbers packets by PSN,
 * keeps messages until they are acknowledged and goes back to psn_una on a
 * NAK or a retransmission timeout; the receiver accepts only rcv_nxt.
 * Two lines: what a QP under way reads (its congestion control and
 * pacing are in struct qp_cc, once it needs them; its retransmission
 * timer waits in its partition's heap, rto.c).
 */
struct qp {
	struct qp *next_ready;         /* in the NIC's ready ring */
	struct flow *head, *tail;      /* messages not yet acknowledged */
	struct flow *snd;              /* message being sent; NULL: all sent */
	int64_t snd_left;              /* bytes of snd from its next packet on */
	uint32_t id;
	/* its job (every message of a QP is one job's), set when the job
	 * opens it (or, for a QP opened otherwise, when its first message is
	 * posted), before any packet of it exists, and never written again:
	 * the partitions that see its packets read it without a race, in
	 * whichever process they run.  NET_NONE until then. */
	uint32_t job;
	uint32_t psn_nxt, psn_una, psn_max; /* next to send, oldest unacked, highest sent + 1 */
	uint16_t src, dst, sport;
	uint8_t prio, dscp;
	uint8_t ready;                 /* in the ready ring */
	uint8_t pacing;                /* waiting for its pace_ev */
	sim_time_ps rto_at_ps;         /* retransmission deadline; 0 = none */
	sim_time_ps progress_ps;       /* when an acknowledgement last moved psn_una (or the
					* first packet left) */
	uint8_t timeouts;              /* timeouts in a row without progress */
	uint8_t failed;                /* in the error state: sends nothing any more */
	uint8_t local;                 /* both ends are GPUs of one server: over NVLink,
					* pace_ev delivers its messages */
	/* nic.qp_cache (qpcache.c): the QP has its state here (a slot that
	 * was never written or was given back reads 0), it is in its
	 * partition's list of QPs at rest, it sent a packet twice (a copy
	 * may still be on its way: it keeps its state) */
	uint8_t live, rest, resent;
	uint8_t gen;                   /* not a QP: a struct nic_gen's place in the ring */
	/* nic.qp_cache: its retransmission timer, pending when it last gave
	 * its state up, is still in the partition's heap (qpcache.c), which
	 * fires it as its own timer would have: that one is not set meanwhile */
	uint8_t rto_heap;
	/* its struct qp_cc is made (net->qp_cc[id]); until then its congestion
	 * control is a new QP's (not reacting, at line rate) and it has never
	 * waited for pacing */
	uint8_t cc;
	/* its retransmission timer's place + 1 in its partition's heap
	 * (rto.c), 0 when it has none pending */
	uint32_t rto_pos;
	/* the receiving end, which the destination's partition writes while
	 * the source's runs the rest (models/fabric/parallel.c); the segments
	 * it received above nxt are in net->rxwin (TCP, and RoCE with
	 * nic_config.reorder) */
	struct qp_rx {
		uint32_t nxt;                  /* next PSN expected */
		uint32_t unacked;              /* packets accepted since the last ACK */
		uint8_t nak_sent;              /* a NAK for nxt is out */
		uint8_t ce;                    /* TCP: the CE state DCTCP echoes */
		sim_time_ps last_cnp_ps;       /* notification point: last CNP sent */
	} rx;
};

/* a QP takes two lines (the slabs align the table to lines), the receiver's
 * fields at the end of the second */
_Static_assert(sizeof(struct qp) == 128, "a QP takes two lines");

/*
 * A run of messages that one NIC posts at one time, each on a QP of its
 * own (an all-to-all `all-at-once`: a rank's n - 1 messages), made only
 * when the NIC first serves it: 8,192 ranks post 67 M messages at once,
 * 8.6 GB.  Posted, the run takes the place in the NIC's ready ring that
 * its messages' QPs would have taken one after another, and each message
 * is made where its QP's turn would have come (nic.c, nic_gen_next): the
 * ring's order and every output are those of the messages posted at once.
 * It is used when each of its QPs is idle as it starts (no message, not in
 * the ring, not pacing, not failed), so that nothing moves a QP before its
 * turn; else its messages are all made and posted at its start.
 */
struct nic_gen {
	struct flow stub;              /* its place in the NIC's heap of messages waiting
					* to start: start_ps, the id of its first message,
					* src; gen = 1 */
	struct qp ring;                /* its place in the ready ring: prio; gen = 1 */
	uint32_t next, count;          /* its next message, and how many it has */
	uint8_t started;               /* posted: its messages are made from here on */
	/* message j (next, and next + 1 after it) with its workload fields set;
	 * the QP of message j */
	struct flow *(*make)(struct nic_gen *g, uint32_t j);
	uint32_t (*qp)(const struct nic_gen *g, uint32_t j);
};

/* The fields every frame reads or writes come first (tx_ev to ready: the
 * first 336 bytes); a fabric of thousands of NICs misses on each
 * line a packet touches. */
struct nic {
	_Alignas(64) struct sim_event tx_ev;
	struct pkt *tx;                /* frame being serialized */
	struct net *net;
	const struct nic_config *cfg;
	uint32_t id;
	uint8_t ctrl_mask;             /* bit p: ctrlq[p] is not empty */
	uint8_t ready_mask;            /* bit p: ready ring p is not empty */
	uint8_t rx_xoff;               /* bit p: we paused the ToR on p */
	uint8_t down;                  /* host link failed (fault link-down) */
	struct serializer ser;
	uint64_t tx_payload_bytes, rx_payload_bytes;
	uint64_t tx_pkts;
	struct pktq pfcq;              /* PFC frames: ahead of everything, never paused */
	/* receive side under a slow-receiver fault: a small buffer drained at
	 * a fixed rate, which pauses the ToR (docs/model.md#pfc) */
	struct serializer drain;       /* rate_bps 0: no slow-receiver fault active */
	struct pktq rxq;
	struct {
		struct qp *head, *tail;
	} ready[PKT_PRIOS];            /* QPs with something to send, by priority */
	struct pktq ctrlq[PKT_PRIOS];  /* CNP, ACK, NAK by priority: ahead of data, paused
					* with their priority */
	struct link link;              /* cable to the ToR */
	struct pause_rx pause;         /* PFC received from the ToR */
	struct sim_event drain_ev, refresh_ev;
	/* messages waiting for their start time, by (start, id), and the
	 * event that posts them */
	struct flow **wait;
	uint32_t nwait, wait_cap;
	struct sim_event post_ev;
	sim_time_ps last_cnp_ps;       /* cnp_scope = port: last CNP sent */
	/* the GPU's NVLink port (gpus_per_server > 1): busy sending until
	 * nv_tx_free, receiving until nv_rx_free */
	sim_time_ps nv_tx_free, nv_rx_free;
	/* InfiniBand (net qos.ib): credits toward the ToR per VL (64-byte
	 * blocks), and the blocks received that the next credit update returns */
	struct net_credits cred;
};

void nic_init(struct net *net, struct nic *n, uint32_t id, const struct nic_config *cfg);
/* link delivery into NIC `to` */
void nic_rx(void *to, uint16_t port, struct pkt *p);
/* a QP from host src to host dst; its id, or NET_NONE when out of memory.
 * Between two GPUs of one server (topo_server) it is an NVLink connection:
 * see nvlink.c. */
uint32_t nic_add_qp(struct net *net, uint32_t src, uint32_t dst, uint8_t dscp);
/* job's nq QPs for each ordered pair of the n hosts, in the order (i, k,
 * q): QP first + (i (n - 1) + k - 1) nq + q goes from hosts[i] to
 * hosts[(i + k) % n].  The first, or NET_NONE when out of memory.  With
 * the cache, the QPs at rest keep no ends: they are computed. */
uint32_t nic_add_qp_pairs(struct net *net, const uint32_t *hosts, uint32_t n, uint32_t nq,
			  uint8_t dscp, uint32_t job);
/* the memory a QP takes, its state and its retransmission timer: TCP's
 * state (net->tcp) comes on top in TCP runs */
size_t nic_qp_bytes(int tcp);
/* and its struct qp_cc, once it needs one */
size_t nic_qp_cc_bytes(void);
/* room for n QPs in all, made at once: a caller that knows how many it will
 * add saves the table's doublings (an all-to-all of 4,096 ranks adds 16.8 M,
 * 2.6 GB).  -1 when out of memory or beyond the QP numbers. */
int nic_reserve_qps(struct net *net, uint64_t n);
/* nic.qp_cache (qpcache.c).  The QP table, made through nets[0], is every
 * partition's; each keeps its share of the cache */
void nic_qps_share(struct net *const *nets, uint32_t nparts);
/* between windows: the blocks of the table the partition emptied go back */
void nic_qps_window_end(struct net *net);
/* QP qid if it has its state, else NULL (it has nothing in flight) */
const struct qp *nic_qp_peek(const struct net *net, uint32_t qid);
/* the first QPs, which always have their state (every QP without the
 * cache): the samplers read these */
uint32_t nic_qps_pinned(const struct net *net);
/* q's congestion control (DCQCN's or InfiniBand's): a copy, a new QP's
 * when it has none made */
struct qp_cc nic_qp_cc_of(const struct net *net, const struct qp *q);
/* the job of QP qid (set when its job opens it: nic_qp_set_job) */
uint32_t nic_qp_job(const struct net *net, uint32_t qid);
/* QP qid is job's (struct qp's job: set when the job opens it) */
void nic_qp_set_job(struct net *net, uint32_t qid, uint32_t job);
/* what a QP keeps without its state: its home and its timer's time */
size_t nic_qp_home_bytes(void);
/* and, but for the QPs of nic_add_qp_pairs, its ends */
size_t nic_qp_ends_bytes(void);
/* what the cache holds (net_free) */
void nic_qps_cache_free(struct net *net);
/* a message from the pool of the net that runs its sender: `bytes` on QP
 * qp, starting at start_ps, with the given id; the workload fields are zero.
 * NULL when out of memory. */
struct flow *nic_flow_new(struct net *net, uint64_t id, uint32_t qp, int64_t bytes,
			  sim_time_ps start_ps);
/* post g's messages at start_ps (its ring place as nic_post_at would
 * give its first message), as decided at sched; g's stub has the id of its
 * first message, its start and its sender (src) set, and g->ring.prio */
void nic_gen_post_at(struct net *net, struct nic_gen *g, sim_time_ps start_ps,
		     sim_time_ps sched);
/* the messages a started g has not made yet are made and queued on their
 * QPs, sending nothing (a run that ended: its unfinished messages) */
void nic_gen_flush(struct net *net, struct nic_gen *g);
/* a message that will not be posted goes back to the pool */
void nic_flow_free(struct net *net, struct flow *fl);
/* every slab of the net's message pool (end of run) */
void nic_flow_pool_free(struct net *net);
/* hand a message to its QP now: it is sent after the QP's earlier messages */
void nic_post(struct net *net, struct flow *fl);
/* hand a message to its QP at fl->start_ps: now if that has come, else by
 * the NIC's post event (equal start times in id order), which counts as
 * scheduled at `sched` (the time of what decided it: now, or an earlier
 * moment on another thread) */
void nic_post_at(struct net *net, struct flow *fl, sim_time_ps sched);
void nic_free(struct nic *n);
/* queue a PFC frame ahead of everything (faults: a broken NIC) */
void nic_send_pfc(struct nic *n, unsigned prio, uint32_t quanta);
/* a slow-receiver fault starts (rate > 0) or ends (rate 0) */
void nic_set_drain(struct nic *n, int64_t rate_bps);
/* the host link fails (down = 1) or comes back */
void nic_set_down(struct nic *n, int down);

#endif
