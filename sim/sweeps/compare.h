/*
 * compare.h - `dcqcn-sim compare`: one scenario on each fabric type
 * (lossless RoCEv2, InfiniBand, lossy TCP Ethernet), side by side.
 *
 * Each fabric runs the scenario with that fabric's defaults: it loads as
 * fabric.type = F (scenario_inputs.fabric), and the keys of the file (and
 * of --set) that do not apply to F are skipped, each named on the log
 * (on InfiniBand: [pfc], [pfcwd], [ecn], [dcqcn], nic.cc).  Every run gets
 * the same latency probe, a background ping-pong of COMPARE_PROBE_BYTES
 * messages between the first and the last host: a trace job
 * (COMPARE_PROBE_JOB, DIR/probe.csv) whose message i goes one way, starts
 * once message i-1 has arrived and not before i x COMPARE_PROBE_PERIOD_PS.
 * Its messages that started while the other jobs still ran give the
 * latency row (run.h, probe_job); they are left out of the flow
 * completion times.  sim.duration is raised to COMPARE_MIN_DURATION_PS
 * (unless --set gives it) so that a fabric slowed by timeouts still
 * finishes.
 *
 * Outputs in DIR: one run directory per fabric (DIR/roce, ...), as `run`
 * writes it; compare.csv, a row per fabric; probe.csv.  compare_print()
 * prints the matrix.
 */
#ifndef DCQCN_COMPARE_H
#define DCQCN_COMPARE_H

#include <signal.h>
#include <stdio.h>

#include "sim/run/run.h"

#define COMPARE_MAX_FABRICS 3
#define COMPARE_PROBE_JOB "latency-probe"
#define COMPARE_PROBE_BYTES 4096
#define COMPARE_PROBE_PERIOD_PS (20 * UNITS_PS_PER_US)
#define COMPARE_PROBE_DEFAULT 1000 /* messages (500 round trips) */
#define COMPARE_MIN_DURATION_PS (10 * UNITS_PS_PER_S)

struct compare_opts {
	const char *scenario;            /* NULL: the embedded default */
	const char *const *sets;         /* --set, applied where they fit */
	int nsets;
	const char *fabrics[COMPARE_MAX_FABRICS]; /* fabric.type names, in order */
	int nfabrics;
	unsigned probe_msgs;             /* 0: no probe */
	const char *out_dir;
	FILE *log;                       /* skipped keys, progress notes; NULL: none */
	FILE *progress;                  /* each run's progress bar; NULL: none */
	volatile sig_atomic_t *interrupt;
};

struct compare_row {
	const char *fabric;
	enum run_status status;          /* RUN_OK, or why the row has no numbers */
	uint8_t busbw_stat_mean;         /* criteria.busbw_stat = mean (else min) */
	struct run_result r;
};

/* every fabric of o in turn into rows[0..o->nfabrics); RUN_OK, or the
 * first status that stops the comparison (bad scenario: RUN_EIO with err;
 * RUN_INTERRUPTED).  A run that broke an invariant stops it too. */
enum run_status compare_run(const struct compare_opts *o, struct compare_row *rows, char *err,
			    size_t errlen);
/* the matrix: a row per measure, a column per fabric */
void compare_print(const struct compare_opts *o, const struct compare_row *rows, FILE *out);
/* DIR/compare.csv; 0, or -1 with err */
int compare_write_csv(const char *dir, const struct compare_row *rows, int n, char *err,
		      size_t errlen);

#endif
