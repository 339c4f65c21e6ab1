/*
 * traffic.h - the [job.*] sections as messages on QPs: collectives, incasts,
 * permutations and traces, their iterations, start times, stragglers and
 * dependencies (docs/model.md#traffic).  traffic.c opens with the rules of
 * timing and the list of the patterns, each in a file of its own (ring.c,
 * tree.c, alltoall.c, incast.c, permutation.c, trace.c, storage.c,
 * training.c).
 *
 * Memory is linear in the jobs' ranks: a message exists only once it may be
 * posted (a ring's next slice when the previous one has arrived, an
 * iteration's messages when the iteration is released) and goes back to the
 * pool once acknowledged; message ids are computed, so they do not depend
 * on when messages are made.
 */
#ifndef DCQCN_TRAFFIC_H
#define DCQCN_TRAFFIC_H

#include <stdint.h>

#include "models/base/engine.h"
#include "models/base/units.h"

struct net;
struct flow;
struct scenario;
struct scn_job;
struct topo;
struct traffic_job;
struct traffic_part;

/* a training step's account (training.csv, docs/outputs.md#training):
 * the GPU that finished last and where its time went; zero for the other
 * patterns.  Its step time = other + compute + bubble + the exposed
 * communication of the three kinds. */
#define COLL_STEP_KINDS 4          /* tensor, pipeline, data, expert parallel
				    * (scn_train_kind) */
/* a compute block of a training step (training_timeline.csv) */
enum coll_block_kind { COLL_ATTN_F, COLL_MLP_F, COLL_OUT_F, COLL_OUT_B, COLL_MLP_B, COLL_ATTN_B };
struct coll_block {
	uint32_t stage, rank;          /* the stage, and the rank that ran it */
	uint32_t mb;                   /* micro-batch */
	int32_t layer;                 /* local layer; -1: the output layer */
	uint8_t kind;                  /* enum coll_block_kind */
	sim_time_ps start_ps, end_ps;
};
struct coll_step {
	uint8_t valid;                 /* a training job's iteration */
	uint32_t gpu;                  /* the critical GPU's rank */
	sim_time_ps compute_ps;        /* its blocks */
	sim_time_ps bubble_ps;         /* waiting for a stage before it to produce */
	sim_time_ps exposed_ps[COLL_STEP_KINDS]; /* waiting for messages, by kind */
	sim_time_ps other_ps;          /* its start's skew and straggler delay */
	uint64_t msgs[COLL_STEP_KINDS], bytes[COLL_STEP_KINDS]; /* the step's, by kind */
	sim_time_ps ideal_ps;          /* the same step alone on an ideal fabric
					* (job.ideal_network, set by the run); 0: none */
	/* the blocks of the first rank of each stage (tensor rank 0, replica
	 * 0), stage by stage in the order it ran them: the traffic's, valid
	 * during the coll_done call only */
	struct coll_block *blocks;
	uint32_t nblocks;
};

/* one completed iteration of a job (collectives.csv) */
struct coll {
	uint32_t job, iter;
	uint32_t ranks;
	uint32_t senders;              /* distinct source hosts */
	int64_t bytes;                 /* collective size S, or the messages' total */
	int64_t line_bps;              /* what busbw_pct_line compares to (traffic.c,
					* job_line_bps) */
	uint64_t nflows;               /* messages of the iteration */
	sim_time_ps start_ps, end_ps;  /* start: release (before skew); end: last message,
					* or the failure */
	uint8_t failed;                /* a QP of the job went to the error state in this
					* iteration: the job failed at end_ps */
	uint32_t failed_qp;            /* which one (failed only) */
	sim_time_ps progress_ps;       /* its last progress (failed only) */
	struct coll_step step;         /* a training job's step */
};

/* one completed I/O of a storage job (storage.csv, the summary's latencies) */
struct traffic_io {
	uint32_t job, iter;
	uint32_t initiator, target;    /* hosts */
	uint8_t read;                  /* a read (target to initiator), else a write */
	int64_t bytes;
	sim_time_ps submit_ps, end_ps; /* the command's submission, the completion's arrival */
};

struct traffic {
	struct net *net;               /* any of the nets: the node and QP tables */
	const struct scenario *scn;
	const struct topo *topo;
	sim_time_ps switch_latency_ps;
	struct traffic_job *jobs;
	uint32_t njobs;
	struct traffic_part *parts;    /* one per partition (per net) */
	uint32_t nparts;
	uint64_t flows_total;          /* messages of every iteration of every job (but
					* open-ended storage jobs: traffic_flows_total) */
	uint8_t open_ended;            /* a storage job has a runtime or randrw */
	uint32_t jobs_failed;          /* jobs that failed (a QP's retries ran out) */
	uint64_t bytes_total;          /* their payload */
	/* observers (NULL: not observed) */
	void *ctx;
	/* a message completed (on the thread of `part`) */
	void (*flow_done)(void *ctx, unsigned part, const struct flow *fl);
	/* a job iteration completed, or failed (between windows, in order of
	 * completion) */
	void (*coll_done)(void *ctx, const struct coll *c);
	/* a storage I/O completed (between windows, in order of completion) */
	void (*io_done)(void *ctx, const struct traffic_io *io);
	/* a run split over processes (NULL: one process): every rank's share of
	 * job ji's state, before its iteration's account is taken between
	 * windows (traffic_ranks_pack_job); every rank calls it at once */
	void (*share)(void *ctx, struct traffic *t, uint32_t ji);
	void *share_ctx;
};

/*
 * Every job's QPs, and the first iterations released.  nets[p] is the net
 * of partition p (nparts of them; a node's own net pointer says which runs
 * it); the traffic registers itself as each net's flow_done observer.  The
 * QPs are made through nets[0], whose table the others then share.  0, or
 * -1 when out of memory.
 */
int traffic_build(struct traffic *t, struct net *const *nets, uint32_t nparts,
		  const struct scenario *scn, const struct topo *topo,
		  sim_time_ps switch_latency_ps);
void traffic_free(struct traffic *t);
/* between windows (every thread stopped): what crossed partitions in the
 * window - posts that wait for a message another partition completed, ends
 * of iterations of jobs spread over partitions - and the iterations that
 * completed, reported in order */
void traffic_window_end(struct traffic *t);
/* set while partition part has something for traffic_window_end, and when
 * its messages have completed the traffic's count (a run of one partition
 * ends at the end of that window): a run of one partition closes only the
 * windows that end with it set (sim_run_windows) */
const uint8_t *traffic_window_flag(const struct traffic *t, uint32_t part);
/* the QPs a job opens (traffic_build makes exactly these), counted from
 * the scenario alone: `run` weighs them against the machine's memory
 * before it builds anything.  An all-to-all of n ranks opens n (n - 1). */
uint64_t traffic_job_qps(const struct scn_job *j);
/* the messages a job posts at its start that grow with its QPs: an
 * all-to-all of schedule = all-at-once posts one on each (the others post a
 * few per rank).  `run` counts their memory with the QPs'. */
uint64_t traffic_job_posted_at_once(const struct scn_job *j);
/* the hosts a job's data can arrive at once, at most: an incast's one, the
 * fewer of a storage job's initiators and targets, a trace's rows (a bound),
 * every rank of the others.  sim.threads = auto bounds a window's packets
 * with it (models/fabric/parallel.c). */
uint64_t traffic_job_receivers(const struct scn_job *j);
/* messages completed so far, and the time of the last */
uint64_t traffic_done(const struct traffic *t);
/* a run that ended: the messages that were posted but not yet made (an
 * all-to-all's, made in turn: nic.h, struct nic_gen) are made, so that
 * its unfinished messages are all there */
void traffic_flush(struct traffic *t);
sim_time_ps traffic_last_done(const struct traffic *t);
/* every message of every job has completed */
int traffic_finished(const struct traffic *t);
/* messages of every iteration of every job: flows_total, plus those a
 * storage job with a runtime or randrw has submitted so far */
uint64_t traffic_flows_total(const struct traffic *t);
/* the start delay (skew) of a job's rank, or sender or trace row, in one
 * iteration: uniform in [0, job.skew], from the seed */
sim_time_ps traffic_skew_ps(const struct traffic *t, uint32_t job, uint32_t iter, uint32_t idx);
/* the idle one-way latency of a 64 B control frame from host a to host b:
 * every link's serialization and propagation, every switch's pipeline; 0
 * when a == b.  It delays what one host learns from another: a dependency
 * met elsewhere, the end of an iteration. */
sim_time_ps traffic_notify_ps(const struct traffic *t, uint32_t a, uint32_t b);

/* A run split over processes (models/fabric/ranks.h, traffic_ranks.c):
 * what partition `part` left in its lists in the window, and its jobs'
 * progress, onto b; and, on another rank, those lists taken into its copy
 * of the partition before traffic_window_end */
struct bytes;
struct bytes_in;
void traffic_ranks_pack(const struct traffic *t, uint32_t part, struct bytes *b);
void traffic_ranks_unpack(struct traffic *t, uint32_t part, struct bytes_in *in);
/* job ji's state that partition part wrote and its iteration's account
 * reads (a training step's GPUs), for the other ranks (share), and taken
 * from another rank */
void traffic_ranks_pack_job(const struct traffic *t, uint32_t ji, uint32_t part, struct bytes *b);
void traffic_ranks_unpack_job(struct traffic *t, uint32_t ji, uint32_t part, struct bytes_in *in);

#endif
