/*
 * fabric.h - the fabric of a scenario, assembled: the topology, the
 * switches and NICs wired by links, the workloads (jobs, faults), the
 * time-series samplers, the end-of-run invariants, and the run itself on
 * one or several threads.  A `struct fabric` is a value: created from a
 * finalized scenario and freed; nothing is global, so two fabrics can run in
 * one process.
 *
 * This is the top of models/ (docs/ARCHITECTURE.md).  It turns [topology],
 * [qos], [buffer], [pfc], [pfcwd], [ecn], [nic] and [dcqcn] into the
 * configurations of the nodes (net.h, switch.h, nic.h), builds them, and
 * forwards what they observe to the hooks of the run layer; the workloads
 * below it read their own sections ([job.*], [fault.*]).
 *
 * Partitions (parallel.c).  The fabric is cut into units that the topology
 * fixes: a leaf (or edge switch) with its hosts, and every other switch; only
 * fabric links join units.  Partitions of whole units each have their own
 * engine, packet pool and counters (a `struct net`); a run on N threads
 * gives each thread one partition, or, in a fabric of thousands of hosts,
 * several small ones that it runs one after another within each window
 * (parallel.c: a partition's state then stays in the caches while it runs).
 * Every partition simulates the same windows of time, each as long as
 * a fabric cable's propagation (the lookahead): nothing a partition does
 * reaches another sooner, so a packet sent across partitions goes into an
 * outbox and enters its link at the end of the window.  Simultaneous events
 * fire in an order fixed by the model (engine.h), so every output is the
 * same for any number of threads, 1 included.  The run ends at the end of
 * the window in which the last message completed.
 */
#ifndef DCQCN_FABRIC_H
#define DCQCN_FABRIC_H

#include <stdint.h>

#include "models/core/topology.h"
#include "models/fabric/pace.h"
#include "models/fabric/ranks.h"
#include "models/node/net.h"
#include "models/node/nic.h"
#include "models/node/switch.h"
#include "models/workload/fault.h"
#include "models/workload/traffic.h"

struct scenario;
struct fabric;
struct fabric_part;
struct fabric_threads;

/* running totals behind counters.csv (or, in the counters hook, what they
 * grew by in one sample interval): the fabric's, then each job's, in the
 * scenario's order (net.h) */
struct fabric_totals {
	uint64_t delivered_pkts, ecn_marked, cnps, pause_frames, drops;
	uint32_t njobs;
	const struct net_job_stats *jobs;
};

/* what the run layer observes (NULL: not observed).  `part` is the
 * partition on whose thread the call happens; coll_done, counters and
 * window_done are called on the coordinating thread, between windows. */
struct fabric_hooks {
	void *ctx;
	/* a flow completed (called once per flow) */
	void (*flow_done)(void *ctx, const struct fabric *f, unsigned part, const struct flow *fl);
	/* a job iteration completed (in order of completion) */
	void (*coll_done)(void *ctx, const struct fabric *f, const struct coll *c);
	/* a storage I/O completed (in order of completion) */
	void (*io_done)(void *ctx, const struct fabric *f, const struct traffic_io *io);
	/* a PFC frame took effect on a transmitter, or its pause expired */
	void (*pfc)(void *ctx, const struct fabric *f, unsigned part, const struct pause_rx *pr,
		    unsigned prio, enum pfc_event ev, uint32_t quanta);
	/* DCQCN state of a traced QP (rates.csv), every sample_interval, in QP order */
	void (*rate_sample)(void *ctx, const struct fabric *f, unsigned part, const struct qp *q);
	/* with ib.cc, the CCTI of a traced QP (ib_cc.csv), every sample_interval,
	 * in QP order, while it has data outstanding or its CCTI is above
	 * ccti_min */
	void (*ibcc_sample)(void *ctx, const struct fabric *f, unsigned part, const struct qp *q);
	/* a switch egress queue's bytes (queues.csv): while it is not empty,
	 * and once more when it has emptied; in order of ports */
	void (*queue_sample)(void *ctx, const struct fabric *f, unsigned part,
			     const struct port *pt, unsigned q, uint64_t bytes);
	/* a NIC's transmit backlog on a priority (queues.csv with
	 * output.queues = all): payload its QPs have yet to send */
	void (*nic_queue_sample)(void *ctx, const struct fabric *f, unsigned part, uint32_t host,
				 unsigned prio, uint64_t bytes);
	/* fabric counters over the sample interval ending at t (counters.csv),
	 * in time order; the last call, from fabric_pause_flush, closes the
	 * run's last (often partial) interval at the run's end, so that the
	 * deltas add up to the run's totals (fabric_stats) exactly */
	void (*counters)(void *ctx, const struct fabric *f, sim_time_ps t,
			 const struct fabric_totals *delta);
	/* one sample interval ending at t of a transmitter's priority: paused
	 * fraction in parts per million and XOFF frames received (only when
	 * either is > 0), in order of transmitters */
	void (*pause_sample)(void *ctx, const struct fabric *f, unsigned part, sim_time_ps t,
			     const struct pause_rx *pr, unsigned prio, uint32_t paused_ppm,
			     uint32_t frames);
	/* the PFC watchdog declared a storm or restored a queue */
	void (*pfcwd)(void *ctx, const struct fabric *f, unsigned part, const struct pause_rx *pr,
		      unsigned prio, enum pfcwd_event ev, uint64_t dropped);
	/* a window of time ended at `end` (exclusive): what the partitions
	 * reported in it can be merged (a run of one partition, which has
	 * nothing to merge, calls it only at the windows it closes) */
	void (*window_done)(void *ctx, const struct fabric *f, sim_time_ps end);
	/* a run split over processes (ranks.h): the rows this rank's partition
	 * `part` wrote in the window, onto what goes to rank 0 with the
	 * window's exchange; and, on rank 0, another rank's partition's rows
	 * from it, before window_done */
	void (*pack_rows)(void *ctx, unsigned part, struct bytes *b);
	void (*unpack_rows)(void *ctx, unsigned part, struct bytes_in *in);
};



/* one partition: the units one thread runs (parallel.c) */
struct fabric_part {
	_Alignas(64) struct net net;   /* its engine's lines are its thread's alone */
	struct fabric *f;
	uint32_t index;
	/* packets for the partitions its links lead to: out[k] for out_to[k],
	 * in increasing order; and the outboxes of those whose links lead here,
	 * by source */
	struct link_outbox **out, **in;
	uint32_t *out_to;
	uint32_t nout, nin;
	/* time series (series.c) */
	struct sim_event series_ev;
	struct fabric_totals last;     /* this partition's totals at its last sample */
	struct net_job_stats *jobs_last; /* ... and its jobs' (njobs) */
	struct fabric_counts {         /* its counters over each interval, waiting for the
					* window's end to be added to the others' */
		sim_time_ps t;
		struct fabric_totals d;
	} *counts;
	struct net_job_stats *job_counts; /* the jobs' part of counts[k]: njobs from k x njobs */
	uint32_t ncounts, counts_cap;
	/* the QPs whose sender it runs and its hosts, in increasing order: the
	 * samplers read these alone, not the nodes of other partitions, which
	 * their threads write */
	uint32_t *qps, nqps;
	uint32_t *hosts, nhosts;
	/* a run split over processes (ranks.h): this rank's copies of the
	 * messages that other ranks send, whose packets are here; and, once
	 * the run ended, what another rank's partition counted (NULL: ours) */
	struct fabric_mirrors *mirrors;
	struct fabric_part_end *end;
};

struct fabric {
	const struct scenario *scn;
	struct topo topo;
	struct switch_config swcfg;
	struct nic_config niccfg;
	struct net_qos qos;

	struct sw *sws;
	uint32_t nsw;
	struct port *ports;            /* all switch ports, switch by switch */
	struct pg *pgs;                /* all ingress PGs, port by port */
	size_t nports;
	struct nic *nics;
	uint32_t nhosts;
	struct qp *qps;                /* every QP (the nets share the table) */
	uint32_t nqps;

	/* partitions (parallel.c) */
	uint32_t nunits;
	uint32_t *unit_of_sw;          /* by switch number */
	uint32_t *part_of_unit;
	struct fabric_part *parts;
	uint32_t nparts;
	uint32_t nthreads;
	uint32_t *thread_parts;        /* the partitions of each thread, thread by thread: */
	uint32_t *thread_first;        /* thread k's are thread_parts[first[k] .. first[k+1]) */
	sim_time_ps lookahead_ps;      /* the length of a window */
	sim_time_ps wstart, wend;      /* the window being run: [wstart, wend) */
	uint8_t window_open;
	uint8_t ended;                 /* every message completed by the end of a window */
	sim_time_ps end_ps;            /* that last completion */
	sim_time_ps stop_ps;           /* the end of the window it ended in */
	struct fabric_threads *threads;
	uint64_t window_events;        /* events fired in the open window */
	struct fabric_pace pace;       /* which windows run on the threads (pace.h) */
	uint8_t threaded;              /* the open window runs on the threads, */
	uint8_t timed;                 /* and its wall time is measured: */
	int64_t window_ns;             /* so far */

	struct traffic traffic;
	struct faults faults;

	/* a run split over processes (ranks.h); NULL: this one runs them all */
	const struct fabric_comm *comm;
	uint32_t *part_rank;           /* the rank that runs each partition */
	sim_time_ps now_all;           /* the latest time any rank has reached */
	int vote, vote_all;            /* a value of this rank's, and the greatest of
					* every rank's, as of the last fabric_next_time */
	struct link **cross;           /* the far copies of the links between
					* partitions, by cross_id, */
	uint32_t *cross_to;            /* and the partitions they lead into */
	uint32_t ncross;
	struct bytes *send, *recv;     /* by rank: a window's messages */

	struct fabric_hooks hooks;
	struct net_job_stats *job_sum; /* scn->njobs: a sample's jobs, added over the partitions */
	uint64_t *backlog;             /* output.queues = all: per host and priority */
	uint8_t *backlog_last;         /* bit p: the last row of (host, p) was not 0 */
	char err[256];                 /* why an invariant failed */
};

/* Build the fabric of a finalized scenario on `threads` threads (0: the
 * scenario's sim.threads; more threads than the fabric has units are not
 * used).  Returns NULL and sets *err (static text) when memory runs out. */
struct fabric *fabric_create(const struct scenario *scn, unsigned threads, const char **err);
void fabric_destroy(struct fabric *f);

/* start the time-series samplers once the hooks are set */
void fabric_start_series(struct fabric *f);
/* run the events due at or before `until`, window by window; returns the
 * number fired.  It stops at the end of the window in which the last
 * message completed (fabric_finished).  A run of one partition on one
 * thread closes only the windows that have something to settle at their
 * end (sim_run_windows), with the same windows and outputs. */
uint64_t fabric_run_until(struct fabric *f, sim_time_ps until);
/* time of the next event, INT64_MAX when none */
sim_time_ps fabric_next_time(struct fabric *f);
/* simulated time: the latest any partition has reached */
sim_time_ps fabric_now(const struct fabric *f);
/* events fired so far */
uint64_t fabric_events(const struct fabric *f);
/* end of run at time t: what is still between partitions enters its links,
 * and the last sample interval of pause.csv and of counters.csv closes at t
 * (the hooks see a last, usually partial, interval ending at t; counters.csv
 * then adds up to fabric_stats).  Call once, after the last fabric_run_until. */
void fabric_pause_flush(struct fabric *f, sim_time_ps t);
/* the place of the event partition `part` is firing (engine.h): where a
 * row it writes goes in a merge of the partitions' rows */
struct sim_order fabric_tag(const struct fabric *f, unsigned part);

/* the counters of the whole fabric */
void fabric_stats(const struct fabric *f, struct net_stats *out);
/* paused (InfiniBand: credit-stalled) time of all transmitters and
 * priorities up to t, the end of the run */
sim_time_ps fabric_paused_ps(const struct fabric *f, sim_time_ps t);
/* the largest paused fraction of any transmitter in one sample interval, ppm */
uint32_t fabric_max_paused_ppm(const struct fabric *f);

/* is partition p run by this process (all are, but in a split run) */
static inline int fabric_part_here(const struct fabric *f, uint32_t p)
{
	return !f->parts[p].net.remote;
}

/* every message completed (at the end of a window) */
static inline int fabric_finished(const struct fabric *f)
{
	return f->ended;
}

/* messages the jobs define, and those completed so far */
uint64_t fabric_flows_total(const struct fabric *f);
uint64_t fabric_flows_done(const struct fabric *f);
/* the payload of all those messages */
uint64_t fabric_bytes_total(const struct fabric *f);
/* a message the fabric still holds (waiting for its start, being sent, or
 * not yet acknowledged), by id; NULL before it is made and once released.
 * A scan of every QP and NIC: for tests and end-of-run reports. */
const struct flow *fabric_flow(const struct fabric *f, uint64_t id);
/* the messages posted to their QPs that have not completed, in id order:
 * fn is called for each; -1 when out of memory */
int fabric_unfinished(const struct fabric *f, void (*fn)(void *ctx, const struct flow *fl),
		      void *ctx);

/* End-of-run invariants (docs/ARCHITECTURE.md#rules): payload injected = delivered + dropped
 * + in flight; every live packet is somewhere in the fabric; with nothing
 * in flight, every switch buffer is back to zero.  Returns 0, or -1
 * with a description in f->err.  in_flight gets the payload still in the
 * fabric. */
int fabric_check_conservation(struct fabric *f, uint64_t *in_flight);

/* messages alive at once (made, not yet acknowledged): the sum of every
 * partition's peak, an upper bound of the fabric's */
uint64_t fabric_flows_peak(const struct fabric *f);
/* the QPs that had their state at once at most (each partition's most,
 * summed), when they exceed nic.qp_cache; else 0 */
uint64_t fabric_qps_live_peak(const struct fabric *f);

/* largest egress queue seen on any switch port, frame bytes */
uint64_t fabric_max_queue_bytes(const struct fabric *f);

/* The memory the jobs' QPs take, against the machine's.  A run whose QPs
 * do not fit is refused before anything is built: an all-to-all of n ranks
 * opens n (n - 1) QPs (8,192 ranks: 67 M, 10.2 GB with their timers), and
 * the system would kill it halfway.  An all-to-all `all-at-once` also
 * posts a message on each of them at its start (8,192 ranks: 8.6 GB more):
 * they count too.  A run numbers its QPs in 32 bits. */
enum fabric_memory_verdict {
	FABRIC_MEMORY_FITS,            /* or the machine's memory is unknown */
	FABRIC_MEMORY_TOO_MANY_QPS,    /* UINT32_MAX QPs or more: more than a run can number */
	FABRIC_MEMORY_TOO_LARGE,       /* more bytes than the machine's memory */
};
struct fabric_memory {
	uint64_t qps;                  /* QPs the jobs open */
	size_t qp_bytes;               /* bytes a QP takes (TCP's state too, nic.h) */
	size_t cc_bytes;               /* and more once DCQCN cuts it or it waits (struct
					* qp_cc), not in `bytes`: 0 when nothing can */
	uint64_t msgs;                 /* messages posted at once on them (all-to-all) */
	size_t msg_bytes;              /* bytes a message takes */
	uint64_t bytes;                /* the QPs' and the messages' bytes (at the peak) */
	/* QPs beyond nic.qp_cache: a QP has its state (qp_bytes) only while it
	 * needs it and keeps home_bytes else (models/node/qpcache.c); at most
	 * about `live` have it at once, the cache and those busy (all of a
	 * job's but an all-to-all's, 2 x ranks x qps_per_connection of an
	 * all-to-all's, whose `all-at-once` messages are then made as each
	 * NIC serves them and count as many); cache 0: every QP keeps its
	 * state (nic.qp_cache = 0, or the QPs fit, or a run that cannot give
	 * it up: TCP, ecmp = adaptive, output.queues = all) */
	uint64_t cache, live;
	size_t home_bytes;
	uint64_t ids;                  /* the jobs' tables of their QPs' ids and the QPs'
					* ends, bytes (with the cache; an all-to-all
					* computes its QPs') */
	uint64_t phys;                 /* the machine's memory, bytes; 0: unknown */
	uint64_t most;                 /* QPs of the job that opens the most, */
	uint32_t job;                  /* that job (its index in the scenario) */
	enum fabric_memory_verdict verdict;
};
struct fabric_memory fabric_memory_estimate(const struct scenario *scn);

/* what `check` prints: the units, the partitions of a run on `threads`
 * threads and the lookahead */
struct fabric_plan {
	uint32_t units, parts, threads;
	const char *unit_is;           /* what a unit is in this topology */
	sim_time_ps lookahead_ps;
	const char *why_one;           /* why a run cannot use more than one thread, or NULL */
	/* sim.threads = auto took fewer threads than the cores for a fabric
	 * of this weight (0: it did not), or for jobs that deliver this many
	 * data packets a window at most (0: it did not) */
	uint64_t auto_light;
	double auto_sparse;
	/* sim.partitions = auto cut finer than the weight asks: every job is a
	 * ring all-reduce (parallel.c, RING_PARTS a thread) */
	uint8_t auto_rings;
	/* weights of the threads' shares (a unit: its switch's ports plus twice
	 * its hosts): total, heaviest and lightest; 0 out of memory */
	uint64_t weight_total, weight_max, weight_min;
	/* on several threads, a window after one of fewer than window_one
	 * events runs on one thread, after one of window_threads or more on
	 * the threads, and in between the way measured cheaper (pace.h) */
	uint64_t window_one, window_threads;
};
struct fabric_plan fabric_plan_of(const struct scenario *scn, unsigned threads);

/* sim.threads = auto: a thread for each this much weight at most.  A
 * fabric this light holds too little work a window for a second partition
 * to pay; heavier, the traffic decides, and the windows' pace (pace.h).
 * The measurements behind the bound: docs/SCALING.md#pools-and-small-costs-measured. */
#define FABRIC_AUTO_THREAD_WEIGHT 256

/* sim.threads = auto: a thread for each this many data packets the jobs
 * can deliver in a window at most (their receiving hosts' links at
 * host_link, every job at once).  A window needs some 64 events a thread (a
 * data packet is 11-20 across a fabric) before the threads can pay; the
 * measurements: docs/SCALING.md#pools-and-small-costs-measured. */
#define FABRIC_AUTO_WINDOW_PACKETS 8

#endif
