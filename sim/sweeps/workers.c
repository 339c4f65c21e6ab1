/*
 * workers.c - tasks in forked worker processes (see workers.h).
 */
#include "sim/sweeps/workers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/run/run.h"

volatile pid_t workers_parent;

int workers_run(const struct workers *w, int ntasks, char *err, size_t errlen)
{
	int jobs = w->jobs > 0 ? w->jobs : 1, running = 0, next = 0, ended = 0;
	int aborted = 0, forwarded = 0;
	pid_t parent = getpid();
	pid_t *pids = calloc((size_t)jobs, sizeof(*pids));
	int *task = malloc((size_t)jobs * sizeof(*task));
	err[0] = '\0';
	if (!pids || !task) {
		free(pids);
		free(task);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int k = 0; k < jobs; k++)
		task[k] = -1;
	for (;;) {
		int sig = w->interrupt ? (int)*w->interrupt : 0;
		int stop = sig || aborted;
		if (stop && !forwarded) { /* the children stop too, with complete files */
			for (int k = 0; k < jobs; k++)
				if (pids[k])
					kill(pids[k], sig ? sig : SIGTERM);
			forwarded = 1;
		}
		while (!stop && running < jobs && next < ntasks) {
			if (w->skip && w->skip(w->ctx, next)) {
				next++;
				ended++;
				continue;
			}
			int slot = 0;
			while (pids[slot])
				slot++;
			fflush(NULL);
			pid_t pid = fork();
			if (pid == 0) {
				workers_parent = parent;
				/* a worker whose parent dies (SIGKILL, a crash) stops too, with
				 * its files complete, as on SIGTERM: nobody is left to collect
				 * its point (the parent may have died before the request) */
				prctl(PR_SET_PDEATHSIG, SIGTERM);
				if (getppid() != parent)
					raise(SIGTERM);
				w->child(w->ctx, next);
				_exit(RUN_EIO); /* not reached */
			}
			if (pid < 0) {
				snprintf(err, errlen, "fork: %s", strerror(errno));
				aborted = stop = 1;
				break;
			}
			pids[slot] = pid;
			task[slot] = next++;
			running++;
		}
		if (w->tick)
			w->tick(w->ctx, task, jobs, ended);
		if (!running)
			break;
		int ws;
		pid_t pid = wait(&ws);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		int slot = 0;
		while (slot < jobs && pids[slot] != pid)
			slot++;
		if (slot == jobs)
			continue;
		int t = task[slot];
		pids[slot] = 0;
		task[slot] = -1;
		running--;
		ended++;
		int st = WIFEXITED(ws)				 ? WEXITSTATUS(ws)
			 : w->interrupt && *w->interrupt ? RUN_INTERRUPTED
							  : WORKERS_KILLED + WTERMSIG(ws);
		if (w->done(w->ctx, t, st))
			aborted = 1;
	}
	free(pids);
	free(task);
	return ended;
}
