/*
 * nccltests.h - `dcqcn-sim nccl-tests`: nccl-tests' all_reduce_perf and
 * all_to_all_perf, simulated (docs/nccl-tests.md).
 *
 * One run of the scenario per size, each with one more job,
 * [job.nccl-tests]: pattern ring-allreduce (all_reduce_perf) or alltoall
 * (all_to_all_perf), ranks 0-(GPUS-1), the size, and warmup + 2 x iters
 * iterations; the scenario's own jobs and faults run alongside, from the
 * start, in every run.  The first `iters` timed iterations are the
 * out-of-place columns, the next `iters` the in-place ones; the table on
 * stdout is nccl-tests' own, column for column (its src/common.cu formats).
 *
 * Sizes follow nccl-tests: from min_bytes to max_bytes, times step_factor
 * (or plus step_bytes); count = size / 4 (float).  all_reduce_perf runs
 * count x 4 bytes; all_to_all_perf sends count / GPUS elements, rounded
 * down to a multiple of 16 B, to each GPU, so its size is GPUS times that.
 *
 * Every size's scenario is loaded and checked before the first run; the
 * runs go in up to `jobs` child processes (fork, as sweeps do), into
 * out_dir/SIZE/ or a temporary directory removed at the end; the table's
 * rows come in size order whatever `jobs`.  Per-iteration times are read
 * back from each run's collectives.csv; the bandwidths are output.c's
 * (output_coll_bw) of an iteration of the mean time.
 */
#ifndef DCQCN_NCCLTESTS_H
#define DCQCN_NCCLTESTS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NCCLTESTS_JOB "nccl-tests"        /* the added job's name */
#define NCCLTESTS_MAX_SIZES 1000
#define NCCLTESTS_MAX_BYTES INT64_C(1000000000000) /* 1000 GB, a job's size at most: -b, -e, -i */

enum nccltests_coll { NCCLTESTS_ALL_REDUCE, NCCLTESTS_ALL_TO_ALL };

/* what nccltests_run returns (the command's exit status) */
enum nccltests_status {
	NCCLTESTS_OK = 0,          /* every size ran, every iteration completed */
	NCCLTESTS_INVARIANT = 1,   /* a run broke an invariant */
	NCCLTESTS_EIO = 2,         /* bad scenario, or a run could not write its files */
	NCCLTESTS_INTERRUPTED = 3, /* SIGINT, SIGTERM or SIGHUP */
	NCCLTESTS_FAILED = 5,      /* an iteration failed or did not end (rows marked) */
};

struct nccltests_opts {
	enum nccltests_coll coll;
	const char *scenario;           /* NULL: the embedded default */
	const char *const *sets;        /* --set assignments, applied after the job */
	int nsets;
	int64_t min_bytes, max_bytes;   /* -b, -e */
	int64_t step_factor;            /* -f; 0 with -i */
	int64_t step_bytes;             /* -i; 0 with -f */
	uint32_t gpus;                  /* -g; 0: every host of the topology */
	uint32_t iters, warmup;         /* -n, -w */
	int jobs;                       /* -j: runs at a time */
	int alone;                      /* --alone: the scenario's own jobs and faults
					 * left out of every run */
	const char *out_dir;            /* --out; NULL: nothing but stdout */
	FILE *progress;                 /* which sizes run (a terminal); NULL: none */
	volatile sig_atomic_t *interrupt;
};

struct nccltests;
struct scenario;

/* the defaults: all_reduce_perf, 32M, factor 2, -n 1, -w 1, -j 1 */
void nccltests_defaults(struct nccltests_opts *o);
/* all_reduce_perf, all_to_all_perf or alltoall_perf (nccl-tests' binary
 * name); 0, or -1 */
int nccltests_coll_of(const char *name, enum nccltests_coll *coll);
/* a size as nccl-tests reads -b, -e and -i: a number, a fraction allowed,
 * with an optional K, M or G (binary: 1M = 1048576), truncated to bytes;
 * 0, or -1 when it is not one or is outside 1 B - 1 TiB */
int nccltests_parse_size(const char *s, int64_t *bytes);
/* the options against each other (-e below -b, -f with -i, the number of
 * sizes, --set of a key the options give); 0, or -1 with a one-line reason
 * that names the option */
int nccltests_check_opts(const struct nccltests_opts *o, char *err, size_t errlen);

/*
 * Load the scenario of every size and check it.  NULL on error, with the
 * reason in err and *usage set when an option is at fault (-g above the
 * hosts, a size too small for the ranks) rather than the scenario.
 */
struct nccltests *nccltests_prepare(const struct nccltests_opts *o, char *err,
				    size_t errlen, int *usage);
/* run every size, print the table on out; returns an enum nccltests_status,
 * err saying why when it is not NCCLTESTS_OK */
int nccltests_run(struct nccltests *t, FILE *out, char *err, size_t errlen);
/* the first size's scenario (for its warnings) */
const struct scenario *nccltests_scenario(const struct nccltests *t);
/* removes the temporary directory, if any */
void nccltests_free(struct nccltests *t);

#endif
