/*
 * signals.c - SIGINT, SIGTERM and SIGHUP stop a run with every file
 * complete (exit status 3; docs/contract.md#commands); a third signal
 * kills at once.
 */
#include <signal.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "sim/sweeps/workers.h"

volatile sig_atomic_t cli_interrupted;
static volatile sig_atomic_t signals_seen;

/* The first two signals ask the run to stop at its next slice, with every
 * file complete; a third one (the user insists) kills at once.  A worker of
 * sweep or nccl-tests gets a terminal's Ctrl-C directly and once more from
 * the sweep that started it, which forwards it: that copy of a signal
 * already seen does not count.  Only a worker has such a parent
 * (workers_parent, set where workers.c forks it): a top-level command's
 * parent is whatever launched it - a shell, timeout, Slurm - and each of
 * its signals counts. */
static void on_signal(int sig, siginfo_t *si, void *uctx)
{
	(void)uctx;
	pid_t forwarder = workers_parent;
	if (cli_interrupted && si && si->si_code == SI_USER && forwarder != 0 &&
	    si->si_pid == forwarder)
		return;
	if (!cli_interrupted)
		cli_interrupted = sig;
	if (++signals_seen >= 3) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

/* SIGINT, SIGTERM (timeout, Slurm, systemd, docker stop) and SIGHUP stop a
 * run cleanly; sigaction keeps the handler for every delivery.  SIGXFSZ is
 * ignored so that a file-size limit is a write error like a full disk. */
void cli_install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	/* one handler at a time: signals sent back to back would otherwise
	 * interrupt one another's count, and a third could be lost */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGXFSZ, SIG_IGN);
}
