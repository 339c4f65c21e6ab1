/*
 * comm_mpi.c - the ranks of a run split over processes, over MPI (run.h,
 * models/fabric/ranks.h).  Every MPI call of a split run is here; built
 * without MPI (or run without mpirun), a process is the one rank of one.
 *
 * The exchange is MPI_Alltoall of the byte counts, then MPI_Alltoallv of
 * the bytes.  MPI calls return their errors here (MPI_ERRORS_RETURN): a
 * rank that is gone (killed, out of memory) makes the collective fail on
 * the others, which say so and abort the job; mpirun names the rank that
 * ended.  No rank writes summary.csv after that.
 */
#include "sim/run/run.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef DCQCN_MPI
#include <mpi.h>

struct comm_mpi {
	int n;
	struct run_comm_costs costs;
	uint64_t *sendn, *recvn;
	int *scount, *sdispl, *rcount, *rdispl;
	struct bytes sbuf, rbuf;
};

static void check(int rc, const char *what)
{
	if (rc == MPI_SUCCESS)
		return;
	char msg[MPI_MAX_ERROR_STRING] = "";
	int len = 0, rank = -1;
	MPI_Error_string(rc, msg, &len);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	fprintf(stderr, "dcqcn-sim: rank %d: %s failed (%s): another rank of the run is gone; "
		"the run stops and no summary.csv is written\n", rank, what, msg);
	MPI_Abort(MPI_COMM_WORLD, 1);
	exit(1);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void alltoall(void *ctx, const struct bytes *out, struct bytes *in)
{
	struct comm_mpi *m = ctx;
	double t0 = now_s();
	int me;
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	for (int r = 0; r < m->n; r++)
		m->sendn[r] = r == me ? 0 : out[r].n;
	check(MPI_Alltoall(m->sendn, 1, MPI_UINT64_T, m->recvn, 1, MPI_UINT64_T, MPI_COMM_WORLD),
	      "MPI_Alltoall");
	uint64_t stotal = 0, rtotal = 0;
	for (int r = 0; r < m->n; r++) {
		if (stotal + m->sendn[r] > INT_MAX || rtotal + m->recvn[r] > INT_MAX) {
			fprintf(stderr, "dcqcn-sim: rank %d: a window's exchange passes 2 GB: "
				"more ranks, or shorter fabric cables\n", me);
			MPI_Abort(MPI_COMM_WORLD, 1);
			exit(1);
		}
		m->sdispl[r] = (int)stotal;
		m->scount[r] = (int)m->sendn[r];
		m->rdispl[r] = (int)rtotal;
		m->rcount[r] = (int)m->recvn[r];
		stotal += m->sendn[r];
		rtotal += m->recvn[r];
	}
	m->sbuf.n = 0;
	for (int r = 0; r < m->n; r++)
		if (r != me)
			bytes_put(&m->sbuf, out[r].p, out[r].n);
	m->rbuf.n = 0;
	bytes_put(&m->rbuf, NULL, rtotal); /* room */
	check(MPI_Alltoallv(m->sbuf.p, m->scount, m->sdispl, MPI_BYTE, m->rbuf.p, m->rcount,
			    m->rdispl, MPI_BYTE, MPI_COMM_WORLD),
	      "MPI_Alltoallv");
	for (int r = 0; r < m->n; r++) {
		in[r].n = 0;
		bytes_put(&in[r], m->rbuf.p + m->rdispl[r], m->recvn[r]);
	}
	m->costs.exchanges++;
	m->costs.sent_bytes += stotal;
	m->costs.wait_s += now_s() - t0;
}

static void least(void *ctx, int64_t *v, int n)
{
	struct comm_mpi *m = ctx;
	double t0 = now_s();
	check(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD),
	      "MPI_Allreduce");
	m->costs.reductions++;
	m->costs.wait_s += now_s() - t0;
}

int run_comm_mpi(struct fabric_comm *c)
{
	int init = 0, fin = 0, n = 1, me = 0;
	MPI_Initialized(&init);
	MPI_Finalized(&fin);
	if (!init || fin)
		return 0;
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	if (n < 2)
		return 0;
	struct comm_mpi *m = calloc(1, sizeof(*m));
	if (!m)
		return -1;
	m->n = n;
	m->sendn = calloc((size_t)n, sizeof(*m->sendn));
	m->recvn = calloc((size_t)n, sizeof(*m->recvn));
	m->scount = calloc((size_t)n, sizeof(int));
	m->sdispl = calloc((size_t)n, sizeof(int));
	m->rcount = calloc((size_t)n, sizeof(int));
	m->rdispl = calloc((size_t)n, sizeof(int));
	*c = (struct fabric_comm){ .rank = me, .nranks = n, .ctx = m, .alltoall = alltoall,
				   .min = least };
	if (!m->sendn || !m->recvn || !m->scount || !m->sdispl || !m->rcount || !m->rdispl) {
		run_comm_free(c);
		return -1;
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	return 1;
}

struct run_comm_costs run_comm_costs(const struct fabric_comm *c)
{
	const struct comm_mpi *m = c->ctx;
	return m ? m->costs : (struct run_comm_costs){0};
}

void run_comm_free(struct fabric_comm *c)
{
	struct comm_mpi *m = c->ctx;
	if (!m)
		return;
	free(m->sendn);
	free(m->recvn);
	free(m->scount);
	free(m->sdispl);
	free(m->rcount);
	free(m->rdispl);
	bytes_free(&m->sbuf);
	bytes_free(&m->rbuf);
	free(m);
	c->ctx = NULL;
}

#else

int run_comm_mpi(struct fabric_comm *c)
{
	(void)c;
	return 0;
}

struct run_comm_costs run_comm_costs(const struct fabric_comm *c)
{
	(void)c;
	return (struct run_comm_costs){0};
}

void run_comm_free(struct fabric_comm *c)
{
	(void)c;
}

#endif
