/*
 * output.h - the run directory (DESIGN A3): CSV files with a header row,
 * written as the run goes (a flow's row when it completes), times as
 * time_us with nanosecond decimals, nodes by name (h0, leaf0, spine1).
 */
#ifndef DCQCN_OUTPUT_H
#define DCQCN_OUTPUT_H

#include <stdio.h>

#include <stdint.h>

#include "units.h"

struct scenario;
struct fabric;
struct flow;
struct pause_rx;
struct qp;
struct coll;
struct port;
struct fabric_totals;

struct output {
	char dir[4096];
	FILE *flows;
	FILE *pfc;   /* pfc.csv: every PFC frame that took effect, every expiry */
	FILE *pause; /* pause.csv: paused fraction and frames per sample interval */
	FILE *pfcwd; /* pfcwd.csv: watchdog storms and restorations */
	FILE *rates; /* rates.csv: DCQCN state of traced QPs */
	FILE *colls; /* collectives.csv: one row per job iteration */
	FILE *queues; /* queues.csv: switch egress queues, sampled */
	FILE *counters; /* counters.csv: fabric counters per sample interval */
};

/* mkdir -p dir; 0 or -1 (errno set) */
int output_mkdir_p(const char *dir);
/* mkdir -p dir, write scenario.ini, open the streamed files with their
 * headers.  Returns 0, or -1 with a message in err. */
int output_open(struct output *o, const char *dir, const struct scenario *scn,
		char *err, size_t errlen);
/* one flows.csv row (end and fct empty when the flow did not complete) */
void output_flow(struct output *o, const struct fabric *f, const struct flow *fl);
/* pfc.csv: event is "xoff", "refresh", "xon" or "expire" */
void output_pfc(struct output *o, const struct fabric *f, sim_time_ps t,
		const struct pause_rx *pr, unsigned prio, const char *event, uint32_t quanta);
void output_pause(struct output *o, const struct fabric *f, sim_time_ps t,
		  const struct pause_rx *pr, unsigned prio, uint32_t paused_ppm, uint32_t frames);
/* pfcwd.csv: event is "storm" or "restore" */
void output_pfcwd(struct output *o, const struct fabric *f, sim_time_ps t,
		  const struct pause_rx *pr, unsigned prio, const char *event, uint64_t dropped);
/* rates.csv: the QP's current flow, Rc and Rt in Gbps, alpha */
void output_rate(struct output *o, const struct fabric *f, const struct qp *q);
void output_queue(struct output *o, const struct fabric *f, const struct port *pt, unsigned q,
		  uint64_t bytes);
void output_nic_queue(struct output *o, const struct fabric *f, uint32_t host, unsigned prio,
		      uint64_t bytes);
void output_counters(struct output *o, const struct fabric *f, const struct fabric_totals *d);
/* collectives.csv: one completed job iteration */
void output_coll(struct output *o, const struct fabric *f, const struct coll *c);
/* algbw and busbw (GB/s, nccl-tests definitions) and busbw as % of the host
 * link rate, of a completed iteration */
void output_coll_bw(const struct fabric *f, const struct coll *c, double *algbw,
		    double *busbw, double *pct_line);
/* write a one-row CSV file dir/name from a header and a row; 0 or -1 */
int output_write_row(const struct output *o, const char *name, const char *header,
		     const char *row);
/* flush and close; returns -1 if any write failed */
int output_close(struct output *o);

#endif
