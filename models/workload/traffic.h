/*
 * traffic.h - the [job.*] sections as messages on QPs: collectives, incasts,
 * permutations and traces, their iterations, start times, stragglers and
 * dependencies (DESIGN B7).  traffic.c opens with the patterns.
 */
#ifndef DCQCN_TRAFFIC_H
#define DCQCN_TRAFFIC_H

#include <stdint.h>

#include "engine.h"
#include "units.h"

struct net;
struct flow;
struct scenario;

/* one iteration of a job: its flows are [first_flow, first_flow + nflows) */
struct coll {
	uint32_t job, iter;
	uint32_t first_flow, nflows, done;
	uint32_t ranks;
	uint32_t senders;              /* distinct source hosts */
	int64_t bytes;                 /* collective size S, or the flows' total */
	sim_time_ps start_ps, end_ps;  /* start: release (before skew); end < 0 until done */
};

struct traffic {
	struct net *net;
	const struct scenario *scn;
	struct coll *colls;
	uint32_t ncolls, colls_cap;
	struct sim_event ev;           /* next flow start */
	uint32_t *heap;                /* flow ids waiting to start, by (start, id) */
	uint32_t n, cap;
	/* observers (NULL: not observed) */
	void *ctx;
	void (*flow_done)(void *ctx, const struct flow *fl); /* in completion order */
	void (*coll_done)(void *ctx, const struct coll *c);   /* a job iteration completed */
};

/* every job's QPs and messages, the first iterations released; registers
 * itself as the net's flow_done observer.  0, or -1 when out of memory. */
int traffic_build(struct traffic *t, struct net *net, const struct scenario *scn);
void traffic_free(struct traffic *t);
/* every message of every job has completed */
int traffic_finished(const struct traffic *t);

#endif
