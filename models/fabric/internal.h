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
/* room for n counters samples in the partition (a broken invariant when
 * memory runs out) */
void fabric_series_room(struct fabric_part *part, uint32_t n);
/* end of run at t (every event run, fabric_settle done): the counters of
 * the last interval, up to and including t, and every sample still waiting */
void fabric_series_flush(struct fabric *f, sim_time_ps t);

/* ranks.c: a run split over processes (ranks.h) */
/* the ranks of the partitions from the threads' (thread_of_part, for the
 * R x T threads of the plan), and this rank's threads and their partitions
 * renumbered from 0 (another rank's: UINT32_MAX); 0, or -1 out of memory */
int fabric_ranks_threads(struct fabric *f, uint32_t *thread_of_part);
/* once the fabric is wired: each partition's mirrors and release hook, the
 * buffers of the exchange; 0, or -1 out of memory */
int fabric_ranks_init(struct fabric *f);
void fabric_ranks_free(struct fabric *f);
/* l crosses into partition `to`: its number, and its far copy and `to` by
 * that number; 0, or -1 out of memory */
int fabric_ranks_cross(struct fabric *f, struct link *l, uint32_t to);
/* the least next time over the ranks, given this rank's (and f->now_all) */
sim_time_ps fabric_ranks_next(struct fabric *f, sim_time_ps t);
/* the end of a window: what crosses between the ranks (ranks.h) */
void fabric_ranks_window(struct fabric *f);
/* a mirror completed at its receiver, on partition part's thread: its
 * sender's rank learns it at the window's end */
void fabric_ranks_completed(struct fabric *f, unsigned part, const struct flow *fl);

/* what another rank's partition counted, at the end of a split run */
struct fabric_part_end {
	uint64_t live, pkts, payload;  /* fabric_part_count's */
	uint64_t max_queue;
	sim_time_ps paused_ps;         /* to the run's end */
	char err[256];                 /* a broken invariant, or "" */
};

/* fabric.c */
/* partition p's packets (fabric_check_conservation): live in its pool and
 * outboxes, found in its nodes and outboxes, and the payload of those
 * found; -1 with f->err when a switch of it is empty but its buffer
 * accounting is not */
int fabric_part_count(struct fabric *f, uint32_t p, uint64_t *live, uint64_t *pkts,
		      uint64_t *payload);
/* the largest egress queue of partition p's switches */
uint64_t fabric_part_max_queue(const struct fabric *f, uint32_t p);

#endif
