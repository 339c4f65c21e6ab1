/*
 * sweep_mpi.c - the ranks of a sweep in the MPI build (sweep.h): which rank
 * this process is, and what the ranks agree on.  Every MPI call of a sweep
 * is here; built without MPI, a process is the one rank of one.
 *
 * The statuses are reduced with MPI_MAX (-1 for not run), and rank 0
 * broadcasts the outcome of writing sweep.csv, which is also the barrier
 * the caller relies on.
 */
#include "sim/sweeps/internal.h"

#include <stdint.h>
#include <stdio.h>

#ifdef DCQCN_MPI
#include <mpi.h>
#endif

#include "sim/run/run.h"
#include "sim/sweeps/sweep.h"

int sweep_mpi_ranks(int *rank, int *size)
{
	*rank = 0;
	*size = 1;
#ifdef DCQCN_MPI
	int init = 0, fin = 0;
	MPI_Initialized(&init);
	MPI_Finalized(&fin);
	if (!init || fin)
		return 0;
	MPI_Comm_rank(MPI_COMM_WORLD, rank);
	MPI_Comm_size(MPI_COMM_WORLD, size);
	return 1;
#else
	return 0;
#endif
}

int sweep_mpi_same(uint64_t h, int mpi)
{
#ifdef DCQCN_MPI
	if (mpi) {
		uint64_t lo = h, hi = h;
		MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
		MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
		return lo == hi;
	}
#else
	(void)h;
	(void)mpi;
#endif
	return 1;
}

int sweep_mpi_max(int x, int mpi)
{
#ifdef DCQCN_MPI
	if (mpi)
		MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
#else
	(void)mpi;
#endif
	return x;
}

void sweep_mpi_gather(int *status, int ntasks, int *worst, int *interrupted)
{
#ifdef DCQCN_MPI
	MPI_Allreduce(MPI_IN_PLACE, status, ntasks, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	int local[3] = { *worst == RUN_INVARIANT ? 2 : *worst != RUN_OK, *interrupted, 0 };
	MPI_Allreduce(MPI_IN_PLACE, local, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (local[0] == 2)
		*worst = RUN_INVARIANT;
	else if (local[0] == 1 && *worst == RUN_OK)
		*worst = RUN_EIO;
	*interrupted = local[1];
#else
	(void)status;
	(void)ntasks;
	(void)worst;
	(void)interrupted;
#endif
}

void sweep_mpi_share_csv(const struct sweep_opts *o, int rank, int *wrc, int *failed,
			 int *unjudged, char *err, size_t errlen)
{
#ifdef DCQCN_MPI
	int out[3] = { *wrc, *failed, *unjudged };
	MPI_Bcast(out, 3, MPI_INT, 0, MPI_COMM_WORLD);
	if (rank != 0 && out[0])
		snprintf(err, errlen, "rank 0 could not write %s/sweep.csv", o->out_dir);
	*wrc = out[0];
	*failed = out[1];
	*unjudged = out[2];
#else
	(void)o;
	(void)rank;
	(void)wrc;
	(void)failed;
	(void)unjudged;
	(void)err;
	(void)errlen;
#endif
}
