/*
 * internal.h - what the files of the fabric layer share (fabric.c,
 * series.c, parallel.c); nothing outside models/fabric includes it.
 */
#ifndef DCQCN_FABRIC_INTERNAL_H
#define DCQCN_FABRIC_INTERNAL_H

#include "models/fabric/fabric.h"

/* parallel.c */
/* the units, the partitions of a run on `threads` threads, the lookahead */
int fabric_partition(struct fabric *f, unsigned threads);
uint32_t fabric_part_of_switch(const struct fabric *f, uint32_t sw);
uint32_t fabric_part_of_host(const struct fabric *f, uint32_t h);
/* the outbox of partition `from` for packets into partition `to`, made on
 * first use; NULL out of memory */
struct link_outbox *fabric_outbox(struct fabric *f, uint32_t from, uint32_t to);
/* once every outbox is made: each partition's list of those into it; 0, or
 * -1 out of memory */
int fabric_inboxes(struct fabric *f);
void fabric_stop_threads(struct fabric *f);
/* what is still between partitions enters its links (a run stopped inside a
 * window) */
void fabric_settle(struct fabric *f);

/* series.c */
/* a partition's samplers, before the run */
void fabric_series_init(struct fabric_part *part);
void fabric_series_free(struct fabric_part *part);
/* per-job counters for the scenario's jobs (after the partitions are
 * built); 0, or -1 when out of memory */
int fabric_series_jobs(struct fabric *f);
/* each partition's QPs and hosts (once the QPs are made); 0, or -1 when out
 * of memory */
int fabric_series_owned(struct fabric *f);
/* the end of a window (every thread stopped): the counters of the sample
 * times before `end`, added over the partitions (counters.csv); the newest
 * sample waits for the next window or fabric_series_flush */
void fabric_series_window_end(struct fabric *f, sim_time_ps end);
/* end of run at t (every event run, fabric_settle done): the counters of
 * the last interval, up to and including t, and every sample still waiting */
void fabric_series_flush(struct fabric *f, sim_time_ps t);

#endif
