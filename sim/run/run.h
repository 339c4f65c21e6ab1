/*
 * run.h - one simulation run: build the fabric of a finalized scenario, run
 * it to completion (all flows done) or to sim.duration, check the end-of-run
 * invariants, and write the run directory.
 *
 * The run owns everything it allocates, so runs are independent values and
 * several may happen in one process.  Nothing here prints on stdout; the
 * progress bar goes to the stream given in run_opts (the CLI passes stderr
 * when it is a terminal).
 */
#ifndef DCQCN_RUN_H
#define DCQCN_RUN_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "models/base/units.h"
#include "models/fabric/ranks.h"
#include "sim/run/iostats.h"

#ifndef RUN_ERR_BYTES /* a message about a file: its whole path (up to PATH_MAX) and why */
#define RUN_ERR_BYTES 8800
#endif

struct scenario;

enum run_status {
	RUN_OK = 0,          /* finished or reached sim.duration */
	RUN_INVARIANT = 1,   /* an end-of-run invariant is broken */
	RUN_EIO = 2,         /* output directory could not be written */
	RUN_INTERRUPTED = 3, /* *interrupt was set; outputs flushed, marked */
};

/* how a run ended: its traffic finished, sim.duration, SIGINT, or SIGTERM /
 * SIGHUP (a time limit, a stopped container, a closed session) */
enum run_end { RUN_END_DONE, RUN_END_DURATION, RUN_END_INTERRUPTED, RUN_END_TERMINATED };

struct run_opts {
	const char *out_dir;                   /* NULL: write no files */
	FILE *progress;                        /* NULL: no progress bar */
	volatile sig_atomic_t *interrupt;      /* NULL: not interruptible; else the
						* signal that stops the run, 0 while
						* none (SIGINT: interrupted, any
						* other: terminated) */
	unsigned threads;                      /* 0: sim.threads */
	const struct fabric_comm *comm;        /* a run split over the ranks of
						* mpirun (run_comm_mpi); NULL: this
						* process runs it all */
	const char *probe_job;                 /* a job measured apart (compare's
						* latency probe): its messages are left
						* out of fct_p50/p99 and give probe_*;
						* NULL: none */
};

/* the run's metrics (summary.csv) and cost (stats.csv) */
struct run_result {
	enum run_end end;
	sim_time_ps sim_time_ps;
	uint64_t data_bytes_delivered;
	uint64_t nvlink_bytes;                 /* messages' bytes between GPUs of one server */
	uint64_t data_bytes_in_flight;
	uint64_t max_queue_bytes;
	uint64_t drops_lossless, drops_lossy, drops_pfcwd, drops_link_down;
	uint64_t ecn_marked_pkts;              /* data packets delivered with CE */
	uint64_t data_pkts_delivered;
	uint64_t cnps_sent, naks_sent, rto_timeouts, retransmitted_bytes;
	int64_t ooo_pkts;                      /* ecmp = adaptive: data packets accepted
						* out of order (printed table only); else -1 */
	int64_t peak_headroom_bytes;           /* largest headroom use of any PG */
	uint64_t pause_frames;                 /* XOFF frames sent, refreshes included */
	uint32_t max_paused_ppm;               /* worst paused fraction of a sample interval */
	sim_time_ps credit_stall_ps;           /* InfiniBand: credit-stalled time of all
						* transmitters and VLs; -1 on roce */
	uint64_t pfcwd_storms;
	uint64_t flows_completed, flows_total;
	uint32_t collectives_completed;        /* ring-allreduce and alltoall iterations */
	sim_time_ps collective_time_ps;        /* their mean time; -1 when none */
	double busbw_GBps, busbw_pct_line;     /* their mean bus bandwidth */
	/* the iterations judged (criteria.warmup_iterations left out): how
	 * many, and the least, mean and most busbw_pct_line among them */
	uint32_t judged_iterations;
	double judged_min_pct, judged_mean_pct, judged_max_pct;
	double busbw_judged_pct;               /* the one the criteria judge (criteria.busbw_stat
						* of them); set by run_check_criteria */
	sim_time_ps fct_p50_ps, fct_p99_ps;    /* -1 when no flow completed */
	/* the same for the messages across the network and those between two
	 * GPUs of one server (NVLink) apart; -1 when none */
	sim_time_ps fct_net_p50_ps, fct_net_p99_ps, fct_nvlink_p50_ps, fct_nvlink_p99_ps;
	/* run_opts.probe_job: its messages that started before the last
	 * message of the other jobs completed (under load), how many, and
	 * their completion times; -1 when none */
	uint32_t probe_msgs;
	sim_time_ps probe_p50_ps, probe_p99_ps;
	sim_time_ps jobs_done_ps;              /* the last message of a job but the probe job
						* completed; -1 when none did */
	uint32_t nstorage;                     /* storage jobs; storage[nstorage]: all of them
						* (iostats.h) */
	struct run_storage storage[65];
	/* training jobs' steps (training.csv): how many completed, and their
	 * total time, compute, bubble and exposed communication by kind
	 * (struct coll_step); the summary prints their means */
	uint32_t train_steps;
	sim_time_ps train_step_ps, train_compute_ps, train_bubble_ps, train_exposed_ps[4];
	uint32_t jobs_failed;                  /* jobs a QP in the error state failed */
	sim_time_ps first_failure_ps;          /* the first of them; -1 when none */

	int criteria_pass;                     /* 1: every [criteria] limit is met;
						* -1: not judged (the run did not finish) */
	char criteria_failed[256];             /* the failed ones, ';'-separated */
	unsigned warnings;                     /* scenario_warnings() of the scenario */

	uint64_t events, data_pkts;
	uint32_t threads;                      /* partitions the run used */
	double wall_s, events_per_s, pkts_per_s, peak_rss_mb;
	char err[RUN_ERR_BYTES + 64];          /* what failed, when status != 0 */
};

enum run_status run_scenario(const struct scenario *scn, const struct run_opts *opts,
			     struct run_result *res);

/* [criteria] (docs/contract.md#scenario-files) against a result: sets criteria_pass and
 * criteria_failed.  A run that did not finish its traffic (interrupted, or
 * ended by sim.duration) is not judged.  busbw applies only when a judged
 * collective iteration completed (criteria.busbw_stat of those); the ECN
 * mark share only where a reaction point answers marks (DCQCN on RoCE,
 * DCTCP on TCP: run_marks_judged); the pause frame rate only when a limit
 * is set; max_drops counts the drops of data in every class but those of
 * failed links. */
void run_check_criteria(const struct scenario *scn, struct run_result *r);
/* something reacts to ECN marks: nic.cc = dcqcn on RoCE, tcp.cc = dctcp on
 * TCP (elsewhere a mark changes no rate, and max_ecn_mark_pct is not
 * judged) */
int run_marks_judged(const struct scenario *scn);
/* the summary.csv header and row of a result */
void run_summary_csv(const struct run_result *r, char *header, size_t hlen, char *row,
		     size_t rlen);
/* the one-screen summary table */
void run_print_summary(const struct run_result *r, FILE *out);
/* what `check` prints after the derived values: the units, the partitions
 * of a run on sim.threads threads, their balance and the lookahead */
void run_print_plan(const struct scenario *scn, FILE *out);

/* a time in us as the CSV files write it, or "" when there is none (< 0);
 * buf holds 32 bytes */
const char *run_us_text(sim_time_ps ps, char *buf);

/* `dcqcn-sim check --ranks R`: each rank's partitions, units and weight,
 * or why the scenario cannot be split */
void run_print_split(const struct scenario *scn, int ranks, FILE *out);

/* Launched by `mpirun -np R` with R > 1 (the MPI build): c describes this
 * process's rank of a run split over the R ranks (models/fabric/ranks.h),
 * and 1; 0 in one process; -1 out of memory.  run_comm_free releases it. */
int run_comm_mpi(struct fabric_comm *c);
void run_comm_free(struct fabric_comm *c);
/* what this rank's exchanges cost so far (ranks.csv): MPI_Alltoallv
 * exchanges and the bytes it sent in them, MPI_Allreduce reductions, and
 * the wall time spent in both, waiting for the other ranks included */
struct run_comm_costs {
	uint64_t exchanges, sent_bytes, reductions;
	double wait_s;
};
struct run_comm_costs run_comm_costs(const struct fabric_comm *c);

#endif
