/*
 * ctx.h - what the files of one run share (run.c, split.c): the run's
 * context, which the fabric's hooks fill in as the run goes.  Nothing
 * outside sim/run includes it.
 */
#ifndef DCQCN_RUN_CTX_H
#define DCQCN_RUN_CTX_H

#include <stdint.h>

#include "models/base/bytes.h"
#include "models/fabric/fabric.h"
#include "sim/run/iostats.h"
#include "sim/run/output.h"
#include "sim/run/trainout.h"

struct hist;

struct run_ctx {
	struct output out;
	const struct fabric *fabric;
	int has_out;
	/* a run split over processes (models/fabric/ranks.h); NULL: one */
	const struct fabric_comm *comm;
	struct bytes *send, *recv;     /* by rank (split.c) */
	char *ranks_csv;               /* rank 0: ranks.csv's rows (run_split_costs) */
	uint32_t colls;        /* completed collective iterations */
	sim_time_ps coll_time; /* their total time */
	double busbw, pct;     /* their total busbw and % of line */
	uint32_t judged;       /* iterations after the warm-up (criteria) */
	uint32_t jobs_failed;  /* jobs whose QP went to the error state */
	sim_time_ps first_failure_ps;
	struct train_ideal ideal; /* job.ideal_network: the steps' ideal times */
	uint32_t train_steps;  /* completed training steps, and their totals */
	sim_time_ps train_step, train_compute, train_bubble, train_exposed[COLL_STEP_KINDS];
	double jmin, jmax, jsum; /* their % of line: least, most, total */
	struct iostats *io;    /* storage jobs' I/Os; NULL: none */
	uint32_t probe_job;    /* run_opts.probe_job's index; UINT32_MAX: none */
	struct part_ctx {      /* what each partition's thread counts, on lines of
				* its own (the threads write them at every completion) */
		/* completion times of the messages, by job and path: [job * 2 +
		 * over NVLink], each allocated at its first message (jobs.csv,
		 * summary.csv's network and NVLink percentiles) */
		_Alignas(64) struct hist **fct;
		sim_time_ps *job_first, *job_last; /* each job's first start, last end */
		uint64_t *job_bytes;   /* each job's bytes of completed messages */
		int oom;       /* a histogram ran out of memory */
		sim_time_ps last_end; /* the last completion, the probe's aside */
		struct probe_msg { sim_time_ps start, fct; uint8_t local; } *probe;
		uint32_t nprobe, probe_cap;
	} *part;               /* by partition */
};

/* split.c: a run split over processes (models/fabric/ranks.h) */
/* the rows of the window into their files: every rank's partitions' rows
 * to rank 0, which merges them (collective in a split run) */
void run_split_merge(struct run_ctx *c);
/* the greatest of every rank's `v` (v itself in one process) */
int run_split_max(struct run_ctx *c, int v);
/* at the end of a split run: every rank's partitions' completion times,
 * per-job counts and probe messages, and the traced QPs they sampled,
 * into every rank's context; the rows of the messages that did not
 * complete, from their senders' partitions, into flows.csv */
void run_split_finish(struct run_ctx *c, struct fabric *f);
/* each rank's costs (partitions, events, wall time, exchanges and their
 * bytes and wait, peak RSS of peak_mb) into rank 0's c->ranks_csv */
void run_split_costs(struct run_ctx *c, const struct fabric *f, double wall_s, double peak_mb);
/* the exchange buffers (0, or -1 out of memory), and their end */
int run_split_init(struct run_ctx *c, const struct fabric_comm *comm);
void run_split_free(struct run_ctx *c);

#endif
