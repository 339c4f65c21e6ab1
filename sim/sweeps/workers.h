/*
 * workers.h - tasks run in forked worker processes, a few at a time: the
 * points of a sweep, the sizes of nccl-tests.  The parent starts up to
 * `jobs` children, waits for any to end and hands its exit status back;
 * a signal (*interrupt) or an abort stops it from starting more and is
 * passed on to the children still running, so that they stop with their
 * files complete.  A child whose parent dies (killed with SIGKILL, or
 * crashed) gets SIGTERM and stops the same way.
 */
#ifndef DCQCN_WORKERS_H
#define DCQCN_WORKERS_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#define WORKERS_KILLED 128

struct workers {
	int jobs;                              /* children at once, at least 1 */
	volatile sig_atomic_t *interrupt;      /* NULL, or the signal that stops it (0: none) */
	void *ctx;
	/* task i needs no run (done before: sweep --resume); NULL: every task runs */
	int (*skip)(void *ctx, int task);
	/* runs task i in the child and exits with its status (_exit); must not
	 * return */
	void (*child)(void *ctx, int task);
	/* task i ended with this exit status: a child killed by a signal is
	 * RUN_INTERRUPTED while *interrupt is set (the parent passed it on),
	 * else WORKERS_KILLED + the signal (killed from outside, or crashed);
	 * nonzero aborts: nothing more starts, the children still running get
	 * SIGTERM */
	int (*done)(void *ctx, int task, int status);
	/* before each wait: the task of every slot (-1: idle) and how many
	 * have ended; NULL: nothing */
	void (*tick)(void *ctx, const int *task_of_slot, int slots, int ended);
};

/* in a worker, the process that started it (whose copy of a signal it
 * forwards is not a new signal: sim/cli/signals.c); 0 in every other
 * process, a top-level command among them */
extern volatile pid_t workers_parent;

/* run tasks 0..ntasks-1; returns how many ended (or were skipped).  A fork
 * that fails aborts as done() can, with "fork: REASON" in err (left empty
 * otherwise); -1 when out of memory (err says so). */
int workers_run(const struct workers *w, int ntasks, char *err, size_t errlen);

#endif
