/*
 * ranks.h - one run split over processes: `mpirun -np R dcqcn-sim run`
 * (docs/SCALING.md#one-run-on-many-processes).
 *
 * The partitions (parallel.c) go to the ranks in stretches, as they go to
 * threads: a run of R ranks of T threads is cut as a run of R x T threads
 * would be, and rank r runs the threads' partitions whose stretch falls to
 * it (fabric_rank_of_thread).  Every rank builds the whole fabric, with
 * the same numbers for every node, link and QP, and runs its own
 * partitions only; another rank's stay idle here.  At the end of each
 * window the ranks exchange what crossed between them:
 *
 *   - the packets that entered a link into a partition of another rank,
 *     which enter the same outbox there as a thread's would, each data
 *     packet with a copy of its message's fields (ranks.c: a mirror of the
 *     message, which the receiver completes and reports back to the
 *     sender's rank);
 *   - what each partition left for the window's end in the traffic
 *     (traffic.h: posts, completions, failed QPs, iterations done), so that
 *     every rank settles the same lists in the same order;
 *   - each partition's counters samples (counters.csv);
 *   - the next event time and the time reached, the least and the most
 *     over the ranks.
 *
 * The order of events, and every output byte, is the same as a run on one
 * process: the windows are the same and simultaneous events fire by their
 * canonical keys.  The rows the partitions write go to rank 0 (the run
 * layer), which writes every file; the other ranks write none.
 */
#ifndef DCQCN_FABRIC_RANKS_H
#define DCQCN_FABRIC_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "models/base/bytes.h"
#include "models/base/engine.h"

struct fabric;
struct scenario;

/* How the ranks talk: the run layer provides it over MPI (sim/run/). A
 * rank that is gone ends every process with the comm's own message: these
 * return only when every rank took part. */
struct fabric_comm {
	int rank, nranks;
	void *ctx;
	/* every rank gives out[r] to rank r (out[rank] is not sent) and gets
	 * into in[r] (emptied first) what rank r gave it */
	void (*alltoall)(void *ctx, const struct bytes *out, struct bytes *in);
	/* each of v[0 .. n) becomes its least over the ranks */
	void (*min)(void *ctx, int64_t *v, int n);
};

/* the rank of thread k of a run of `threads` threads over `ranks` ranks */
uint32_t fabric_rank_of_thread(uint32_t k, uint32_t threads, int ranks);

/* why scenario scn cannot run over `ranks` ranks, into why; 0 when it can */
int fabric_split_refused(const struct scenario *scn, int ranks, char *why, size_t len);

/* `dcqcn-sim check --ranks R`: what each rank of a split run holds */
struct fabric_rank_plan {
	uint32_t threads, parts, units;
	uint32_t first, last;          /* its partitions (a stretch of them) */
	uint64_t weight;               /* ports + 2 x hosts of its units */
};
/* the plan of each of `ranks` ranks of `threads` threads (0: sim.threads,
 * or 1 if auto) into rp[ranks]; 0, or -1 out of memory */
int fabric_split_plan(const struct scenario *scn, unsigned threads, int ranks,
		      struct fabric_rank_plan *rp);

/* the fabric of scn, of which this process runs comm->rank's partitions
 * (fabric_create otherwise) */
struct fabric *fabric_create_split(const struct scenario *scn, unsigned threads,
				   const struct fabric_comm *comm, const char **err);

/* End of a split run at t, after fabric_pause_flush: every rank learns
 * what the others' partitions counted (their net counters, per-job and
 * per-kind counts, queue peaks, paused time to t, and what the
 * conservation check reads), so that fabric_stats, fabric_events,
 * fabric_paused_ps, fabric_max_queue_bytes, fabric_flows_peak and
 * fabric_check_conservation give on every rank what one process gives. */
void fabric_ranks_finish(struct fabric *f, sim_time_ps t);

#endif
