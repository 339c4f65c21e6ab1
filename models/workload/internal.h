/*
 * internal.h - what the files of the traffic share: the jobs' and the
 * partitions' state and the machinery of traffic.c (jobs, iterations,
 * messages on QPs, windows), and the table of operations each pattern
 * implements in a file of its own (ring.c, tree.c, alltoall.c, incast.c,
 * permutation.c, trace.c, storage.c, training.c).  Nothing outside models/workload
 * includes it.
 */
#ifndef DCQCN_WORKLOAD_INTERNAL_H
#define DCQCN_WORKLOAD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "models/base/engine.h"
#include "models/workload/traffic.h"

struct flow;
struct scenario;
struct scn_job;
struct traffic_pattern;

struct traffic_job {
	/* on lines of its own: a job within one partition counts its
	 * completions here, on that partition's thread */
	_Alignas(64) const struct scn_job *j;
	const struct traffic_pattern *ops; /* its pattern's operations */
	void *pat;                     /* its pattern's own state (NULL: none) */
	uint32_t index;
	uint32_t n;                    /* ranks, senders, initiators or rows */
	uint32_t nq;                   /* QPs per connection */
	uint8_t dscp;
	int64_t line_bps;              /* the line rate busbw_pct_line compares to */
	uint32_t *qps;                 /* the job's QPs (layout by pattern) */
	uint32_t qp_base;              /* an all-to-all's first QP: its QPs are in the
					* order of its messages, and no table */
	uint8_t open_ended;            /* storage with a runtime or randrw: how many
					* messages an iteration has is known only when
					* every initiator has stopped (halted) and they
					* have arrived */
	uint64_t expected;             /* open-ended: messages of the I/Os submitted */
	uint64_t expected_past;        /* and of the iterations before */
	int64_t moved;                 /* open-ended: the bytes of the I/Os submitted */
	uint32_t halted;               /* open-ended: initiators stopped */
	uint64_t id_stride;            /* ids of one iteration (per_iter but for storage:
					* 4 per I/O, whose reads take 3) */
	uint32_t *hosts;               /* every host of the job (barrier latency) */
	uint32_t nhosts;
	uint64_t per_iter;             /* messages of one iteration */
	uint64_t base;                 /* id of iteration 0's first message */
	uint32_t ranks, senders;       /* as collectives.csv reports them */
	int64_t iter_bytes;            /* size of an iteration as collectives.csv reports it */
	int64_t msg_bytes;             /* payload of an iteration's messages */
	uint8_t spread;                /* its hosts are in more than one partition */
	uint8_t complete;              /* its last iteration completed */
	uint8_t failed;                /* a QP failed (settled between windows) */
	/* the iteration in progress */
	uint32_t iter;
	sim_time_ps release_ps;
	uint64_t done;
	struct sim_order last;         /* its latest completion, and where */
	uint32_t last_host;
};

/* what a partition's thread learns in a window and leaves for its end */
struct traffic_part {
	/* on lines of its own: the partitions' threads write theirs at every
	 * completion, and a neighbour's pending flag on the line of this one's
	 * t made every completion move the line between the cores */
	_Alignas(64) struct traffic *t;
	struct net *net;
	uint32_t index;
	uint64_t done;                 /* messages completed here (also net->flows_done) */
	sim_time_ps last_done_ps;
	/* posts for other partitions: messages that waited for one completed
	 * here (trace `after`, all-to-all shift), handed to the job's
	 * pattern (noticed) */
	struct notice {
		struct sim_order tag;      /* the event that completed it */
		uint32_t seq;              /* within that event */
		uint32_t job, rank, k, q;  /* all-to-all: part q of rank's message to rank + k;
					    * trace: rank is the row whose message waited */
		sim_time_ps start_ps;
	} *notices;
	uint32_t nnotices, notices_cap;
	/* completions of jobs spread over partitions, by job */
	struct spread_done {
		uint64_t count;
		uint64_t expected;     /* open-ended storage: messages submitted here, */
		int64_t moved;         /* their I/Os' bytes */
		uint32_t halted;       /* and initiators stopped here */
		struct sim_order last;
		uint32_t last_host;
	} *spread;
	/* QPs that failed here in the window */
	struct qp_fail {
		struct sim_order tag;
		uint32_t job, qp;
		sim_time_ps progress_ps;
	} *fails;
	uint32_t nfails, fails_cap;
	/* iterations that completed here, to report in order at the window's end */
	struct done_coll {
		struct coll c;
		struct sim_order tag;
	} *colls;
	uint32_t ncolls, colls_cap;
	/* storage I/Os that completed here, likewise */
	struct done_io {
		struct traffic_io io;
		struct sim_order tag;
	} *ios;
	uint32_t nios, ios_cap;
	/* one of the lists above got something in this window (a window
	 * with nothing to settle is most of them), or its messages completed
	 * the traffic's count (the run may end with the window) */
	uint8_t pending;
};

/*
 * What a pattern does, per job and per step: the machinery of traffic.c
 * calls these (and no switch on the pattern).  traffic_pattern_of picks a
 * job's table.  Operations marked optional may be NULL.
 */
struct traffic_pattern {
	/* the QPs a job opens, counted from the scenario (traffic_job_qps) */
	uint64_t (*qps)(const struct scn_job *j);
	/* the hosts its data can arrive at at once (traffic_job_receivers) */
	uint64_t (*receivers)(const struct scn_job *j);
	/* optional: the messages it posts at its start that grow with its
	 * QPs (traffic_job_posted_at_once); NULL: none */
	uint64_t (*posted_at_once)(const struct scn_job *j);
	/* its geometry and per-iteration counts (n, ranks, per_iter,
	 * iter_bytes, msg_bytes; id_stride when it is not per_iter) and its
	 * state in jb->pat; 0, or -1 when out of memory */
	int (*build)(struct traffic *t, struct traffic_job *jb);
	/* its QPs into jb->qps, in the order its messages are defined (qps
	 * counts them); 0, or -1 when out of memory */
	int (*open_qps)(struct traffic *t, struct traffic_job *jb);
	/* its hosts into jb->hosts (traffic_add_hosts): the senders first,
	 * their count in jb->senders, then the others */
	void (*hosts)(struct traffic_job *jb, uint8_t *seen);
	/* the host of rank (sender, initiator, row) idx */
	uint32_t (*rank_host)(const struct traffic_job *jb, uint32_t idx);
	/* optional: on GPU servers, the line rate of a job over more than one
	 * server, at most k of its ranks on one (job_line_bps); NULL:
	 * host_link whatever the servers */
	int64_t (*gpu_line_bps)(const struct scenario *scn, const struct scn_job *j, uint32_t k);
	/* the first messages of the iteration traffic.c has just set up
	 * (jb->iter, release_ps), decided at time sched */
	void (*release)(struct traffic *t, struct traffic_job *jb, sim_time_ps sched);
	/* optional: a message of the job arrived, on partition tp's thread at
	 * tag: what it lets leave.  Per message completion: lean. */
	void (*arrived)(struct traffic *t, struct traffic_part *tp, struct traffic_job *jb,
			const struct flow *fl, struct sim_order tag);
	/* optional: between windows, a notice its arrived left for another
	 * partition (traffic_notice), in the order of the events */
	void (*noticed)(struct traffic *t, struct traffic_job *jb, const struct notice *nt);
	/* optional: the iteration's messages have all arrived: when it ends
	 * (at least jb->last.time; its compute may end later), the host that
	 * saw the end, and its account (training.csv).  NULL: at the last
	 * message, where it arrived.  Between windows or on the thread of the
	 * job's one partition. */
	void (*step)(struct traffic *t, struct traffic_job *jb, struct coll_step *cs,
		     sim_time_ps *end, uint32_t *host);
	/* optional, with step: in a run split over processes, what partition
	 * part's thread wrote of the job's state that step reads, onto b for
	 * the other ranks, and that state taken from another rank */
	void (*pack_state)(const struct traffic *t, const struct traffic_job *jb, uint32_t part,
			   struct bytes *b);
	void (*unpack_state)(struct traffic *t, struct traffic_job *jb, uint32_t part,
			     struct bytes_in *in);
	/* optional: the run ended: the messages posted but not made yet are
	 * made (traffic_flush) */
	void (*flush)(struct traffic *t, struct traffic_job *jb);
	/* optional: frees what jb->pat holds (traffic.c frees jb->pat itself) */
	void (*free)(void *pat);
};

extern const struct traffic_pattern traffic_ring, traffic_tree, traffic_alltoall,
	traffic_incast, traffic_permutation, traffic_trace, traffic_storage, traffic_training;

/* traffic.c */
/* the operations of a job's pattern (a ring-allreduce by the tree
 * algorithm has the tree's) */
const struct traffic_pattern *traffic_pattern_of(const struct scn_job *j);
/* a grown list of at least n + 1 items of elem bytes (aborts when out of
 * memory) */
void *traffic_grow(void *a, uint32_t *cap, uint32_t n, size_t elem);
/* message `index` of the job's iteration in progress, on QP qp, starting
 * no earlier than start (aborts when out of memory) */
struct flow *traffic_msg(struct traffic *t, struct traffic_job *jb, uint64_t index, uint32_t qp,
			 int64_t bytes, sim_time_ps start);
/* the id of message `index` of the job's iteration in progress */
uint64_t traffic_msg_id(const struct traffic_job *jb, uint64_t index);
/* when rank (sender, row) idx starts the iteration in progress: the
 * release, its skew and its straggler delay */
sim_time_ps traffic_rank_start(const struct traffic *t, const struct traffic_job *jb,
			       uint32_t idx);
/* a post for another partition, at the window's end (noticed) */
void traffic_notice(struct traffic_part *tp, struct notice n);
/* the partition that runs host h */
uint32_t traffic_part_of(const struct traffic *t, uint32_t h);
/* Q QPs from src to dst at jb->qps[k * Q ..]; 0, or -1 when out of memory */
int traffic_qp(struct traffic *t, struct traffic_job *jb, size_t k, uint32_t src, uint32_t dst,
	       uint8_t dscp);
/* the hosts of h[0 .. n) not yet seen, onto jb->hosts */
void traffic_add_hosts(struct traffic_job *jb, uint8_t *seen, const uint32_t *h, uint32_t n);
/* hosts, rank_host and receivers of the patterns over job.ranks */
void traffic_rank_hosts(struct traffic_job *jb, uint8_t *seen);
uint32_t traffic_rank_host(const struct traffic_job *jb, uint32_t idx);
uint64_t traffic_ranks_n(const struct scn_job *j);

/* ring.c, for the tree too */
/* the rank index at each position of each channel, [c * n + i], the
 * ranks grouped by server (the GPU servers of ring.c's comment); blk[]
 * (unless NULL) gets each position's block start.  0, or -1 when out of
 * memory (*order may then be allocated). */
int traffic_channel_orders(const struct traffic *t, const struct traffic_job *jb,
			   uint32_t **order, uint32_t *blk);
/* gpu_line_bps of the ring and the tree */
int64_t traffic_ring_line_bps(const struct scenario *scn, const struct scn_job *j, uint32_t k);

static inline sim_time_ps traffic_later(sim_time_ps a, sim_time_ps b)
{
	return a > b ? a : b;
}

/* split `total` into `parts` near-equal parts: part k */
static inline int64_t traffic_split(int64_t total, uint32_t parts, uint32_t k)
{
	return total / parts + ((int64_t)k < total % parts);
}

#endif
