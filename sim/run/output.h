/*
 * output.h - the run directory (docs/contract.md#outputs): CSV files with a header row,
 * written as the run goes (a flow's row when it completes), times as
 * time_us with nanosecond decimals, nodes by name (h0, leaf0, spine1).
 *
 * A run on several threads reports from each partition's thread: the rows
 * of flows.csv, pfc.csv, pfcwd.csv, pause.csv, queues.csv and rates.csv then
 * wait in the partition's buffer, each with its tag (the place of the event
 * that wrote it among simultaneous events, or for a sample the place of its
 * node), and are merged at the end of every window (output_merge) into the
 * order a single thread writes them in: the files are the same for any
 * number of threads.  collectives.csv and counters.csv are written between
 * windows; qps.csv (the QPs rates.csv traced: qp,job,src,dst) when the
 * output closes.
 *
 * counters.csv: time_us, data_pkts_delivered, ecn_marked_pkts, cnps_sent,
 * pause_frames, drops, then per job, in the scenario's order,
 * JOB_delivered_bytes, JOB_retransmitted_bytes, JOB_drops; one row per
 * sample interval and a last one at the run's end (models/fabric/series.c),
 * so that each column adds up to summary.csv's total.
 */
#ifndef DCQCN_OUTPUT_H
#define DCQCN_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "models/base/units.h"

#ifndef RUN_ERR_BYTES /* a message about a file: its whole path (up to PATH_MAX) and why */
#define RUN_ERR_BYTES 8800
#endif

struct scenario;
struct fabric;
struct flow;
struct pause_rx;
struct qp;
struct coll;
struct port;
struct fabric_totals;
struct out_part;
struct out_qp;

/* the files written as the run goes */
enum out_stream {
	OUT_FLOWS, OUT_PFC, OUT_PFCWD, OUT_PAUSE, OUT_QUEUES, OUT_RATES, /* from partitions */
	OUT_IBCC,                                                        /* ib.cc only */
	OUT_COLLS, OUT_COUNTERS,                                         /* between windows */
	OUT_TRAINING,              /* training.csv: only with a training job (else NULL) */
	OUT_TIMELINE,              /* training_timeline.csv: likewise */
	OUT_STREAMS
};
#define OUT_PARTITIONED OUT_COLLS /* the streams before it come from partitions */

/* where a row goes among the rows of its file: (time, a, b), then the order
 * its partition wrote it in */
struct out_tag {
	sim_time_ps time;
	int64_t a;
	uint64_t b;
};

#define OUT_FILE_BUF (128 * 1024)
#define OUT_STAGE (16 * 1024)

struct output {
	char dir[4096];
	FILE *file[OUT_STREAMS];
	char *fbuf[OUT_STREAMS];       /* their stdio buffers, OUT_FILE_BUF bytes */
	char *stage[OUT_STREAMS];      /* rows not yet handed to stdio, OUT_STAGE bytes */
	size_t staged[OUT_STREAMS];
	unsigned nparts;
	struct out_part *parts;        /* nparts > 1: rows waiting for the merge */
	struct out_buf **merging;      /* nparts: a merge's buffers that have rows */
	int opened;                    /* output_open succeeded: output_close writes qps.csv */
	struct out_qp *qps;            /* the traced QPs (output.rates), for qps.csv */
	uint32_t nqps;
	char (*job_names)[64];         /* the scenario's jobs, for qps.csv */
	uint32_t njobs;
	int oom;                       /* a buffer could not grow */
	int remote;                    /* a rank but 0 of a split run: no file, the
					* partitions' rows go to rank 0 (output_pack) */
	char err[RUN_ERR_BYTES];       /* the first write that failed: "DIR/FILE: reason" */
};

/* mkdir -p dir; 0 or -1 (errno set) */
int output_mkdir_p(const char *dir);
/* mkdir -p dir, remove the figures of an earlier run there (plots/NAME.png,
 * .svg, .pdf and plots/data/) and its summary.csv, open the streamed files
 * with their headers, for a run of nparts partitions, copy the trace files
 * to traces/JOB.csv, write scenario.ini (naming them relatively) and
 * warnings.txt.  Returns 0, or -1 with a message in err. */
int output_open(struct output *o, const char *dir, const struct scenario *scn, unsigned nparts,
		char *err, size_t errlen);
/* the rows the partitions wrote, merged into their files */
void output_merge(struct output *o);

/* A run split over processes (models/fabric/ranks.h).  The ranks but 0
 * open no file: their partitions' rows wait for the window's end, when
 * output_pack puts them (and empties the buffers) onto what rank 0 takes
 * into its copy of the partition with output_unpack before output_merge;
 * rows between windows are rank 0's alone.  0, or -1 out of memory. */
struct bytes;
struct bytes_in;
int output_open_rows(struct output *o, const struct scenario *scn, unsigned nparts);
void output_pack(struct output *o, unsigned part, struct bytes *b);
void output_unpack(struct output *o, unsigned part, struct bytes_in *in);
/* the traced QPs (qps.csv) each rank's partitions sampled */
void output_qps_pack(const struct output *o, struct bytes *b);
void output_qps_unpack(struct output *o, struct bytes_in *in);
/* the flows.csv row of a message that did not complete, from the
 * partition of its sender: merged after every other row, in id order */
void output_flow_unfinished(struct output *o, const struct fabric *f, unsigned part,
			    const struct flow *fl);

/* one flows.csv row (end and fct empty when the flow did not complete);
 * part < 0: written between windows */
void output_flow(struct output *o, const struct fabric *f, int part, const struct flow *fl);
/* pfc.csv: event is "xoff", "refresh", "xon" or "expire" */
void output_pfc(struct output *o, const struct fabric *f, unsigned part,
		const struct pause_rx *pr, unsigned prio, const char *event, uint32_t quanta);
void output_pause(struct output *o, const struct fabric *f, unsigned part, sim_time_ps t,
		  const struct pause_rx *pr, unsigned prio, uint32_t paused_ppm, uint32_t frames);
/* pfcwd.csv: event is "storm" or "restore" */
void output_pfcwd(struct output *o, const struct fabric *f, unsigned part,
		  const struct pause_rx *pr, unsigned prio, const char *event, uint64_t dropped);
/* rates.csv: the QP's Rc and Rt in Gbps, alpha */
void output_rate(struct output *o, const struct fabric *f, unsigned part, const struct qp *q);
/* ib_cc.csv (ib.cc = on only): a QP's CCTI and inter-packet delay */
void output_ibcc(struct output *o, const struct fabric *f, unsigned part, const struct qp *q);
void output_queue(struct output *o, const struct fabric *f, unsigned part, const struct port *pt,
		  unsigned q, uint64_t bytes);
void output_nic_queue(struct output *o, const struct fabric *f, unsigned part, uint32_t host,
		      unsigned prio, uint64_t bytes);
void output_counters(struct output *o, sim_time_ps t, const struct fabric_totals *d);
/* collectives.csv: one completed job iteration; a training job's also
 * training.csv (docs/outputs.md#training) */
void output_coll(struct output *o, const struct fabric *f, const struct coll *c);
/* trainout.c: does the scenario have a training job (training.csv and
 * training_timeline.csv are opened), and a step's row into training.csv
 * and its blocks into training_timeline.csv (NULL: none) */
int output_has_training(const struct scenario *scn);
void output_step(FILE *fp, FILE *timeline, const struct fabric *f, const struct coll *c);
/* split a CSV line of unquoted fields (as the run writes them) in place at
 * its commas, empty fields kept: at most max fields into f; how many */
int output_split_csv(char *line, char **f, int max);
/* algbw and busbw (GB/s, nccl-tests definitions) and busbw as % of the
 * line the iteration is judged against (struct coll line_bps; the host link
 * when 0), of a completed iteration of a job of scn */
void output_coll_bw(const struct scenario *scn, const struct coll *c, double *algbw,
		    double *busbw, double *pct_line);
/* write a one-row CSV file dir/name from a header and a row; 0 or -1
 * (o->err says which file and why).  With `last`, the file is written as
 * NAME.tmp and renamed, so that it exists only complete: summary.csv, the
 * last file a run writes (output_open removes an earlier run's). */
int output_write_row(struct output *o, const char *name, const char *header, const char *row,
		     int last);
/* flush the streamed files now: 0, or -1 when a write failed (a full disk,
 * a file-size limit), with o->err naming the file and the system's reason */
int output_check(struct output *o);
/* write qps.csv, flush and close; returns -1 if any write failed (o->err
 * names the first) or a buffer could not grow */
int output_close(struct output *o);

#endif
