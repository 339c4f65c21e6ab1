/*
 * rto.c - the retransmission timers of a partition's QPs: a heap of each
 * pending timer's (time, sched, QP) and one event of the engine that
 * stands for its first, with exactly the time, sched and key
 * (SIM_KEY(EVKEY_QP, qid, EVKEY_QP_RTO)) the QP's own event had, so that
 * every timer fires where it did in the engine's order (engine.h) and
 * counts as a qp.rto event.  A QP keeps only its place in the heap (4 B):
 * an event of its own took 56 B of every QP and 40 B of the engine's heap
 * while pending, and an all-to-all `all-at-once` of 8,192 ranks has 7 M of
 * them pending at once (docs/SCALING.md#qps-while-they-are-needed).
 *
 * A timer is never cancelled but when its QP gives its state up
 * (qpcache.c): then it leaves the heap for the partition's heap of the
 * timers of QPs at rest.  As before, a timer whose deadline moved fires at
 * its first time and is set again for the new one (nic_rto_fire).
 */
#include "models/node/internal.h"

#include <stdlib.h>

#include "models/base/invariant.h"
#include "models/base/slab.h"
#include "models/core/evkey.h"

static int before(const struct net_rto *a, const struct net_rto *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	if (a->sched != b->sched)
		return a->sched < b->sched;
	return a->qid < b->qid; /* the order of the keys */
}

static void place(struct net *net, uint32_t i, struct net_rto e)
{
	net->rto[i] = e;
	net->qps[e.qid].rto_pos = i + 1;
}

static void sift_up(struct net *net, uint32_t i, struct net_rto e)
{
	while (i > 0 && before(&e, &net->rto[(i - 1) / 2])) {
		place(net, i, net->rto[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	place(net, i, e);
}

static void sift_down(struct net *net, uint32_t i, struct net_rto e)
{
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= net->nrto)
			break;
		if (c + 1 < net->nrto && before(&net->rto[c + 1], &net->rto[c]))
			c++;
		if (!before(&net->rto[c], &e))
			break;
		place(net, i, net->rto[c]);
		i = c;
	}
	place(net, i, e);
}

/* the event stands for the first timer, or is idle when there is none */
static void stand_in(struct net *net)
{
	struct sim_event *ev = &net->rto_ev;
	if (!net->nrto) {
		sim_cancel(&net->eng, ev);
		return;
	}
	const struct net_rto *first = &net->rto[0];
	uint64_t key = SIM_KEY(EVKEY_QP, first->qid, EVKEY_QP_RTO);
	if (sim_event_pending(ev) && ev->time == first->time && ev->sched == first->sched &&
	    ev->key == key)
		return;
	sim_cancel(&net->eng, ev);
	ev->key = key;
	sim_schedule_at(&net->eng, ev, first->time, first->sched);
}

void nic_rto_set(struct net *net, struct qp *q, sim_time_ps t)
{
	SIM_INVARIANT(!q->rto_pos, "QP %u has two retransmission timers", q->id);
	if (net->nrto == net->rto_cap)
		net->rto = slab_grow(net->rto, &net->rto_cap, sizeof(*net->rto), 64,
				     "the retransmission timers");
	struct net_rto e = { .time = t, .sched = net->eng.now, .qid = q->id };
	sift_up(net, net->nrto++, e);
	if (q->rto_pos == 1)
		stand_in(net);
}

/* the timer at place i leaves the heap */
static void take(struct net *net, uint32_t i)
{
	net->qps[net->rto[i].qid].rto_pos = 0;
	struct net_rto last = net->rto[--net->nrto];
	if (i == net->nrto)
		return;
	if (i > 0 && before(&last, &net->rto[(i - 1) / 2]))
		sift_up(net, i, last);
	else
		sift_down(net, i, last);
}

sim_time_ps nic_rto_take(struct net *net, struct qp *q)
{
	uint32_t i = q->rto_pos - 1;
	sim_time_ps t = net->rto[i].time;
	take(net, i);
	if (i == 0)
		stand_in(net);
	return t;
}

/* the first timer's time has come: its QP's */
static void rto_first_fire(struct sim_engine *eng, struct sim_event *ev)
{
	(void)eng;
	struct net *net = container_of(ev, struct net, rto_ev);
	struct qp *q = &net->qps[net->rto[0].qid];
	take(net, 0);
	nic_rto_fire(net, q);
	stand_in(net);
}

void nic_rto_init(struct net *net)
{
	sim_event_init(&net->rto_ev, rto_first_fire, 0);
}

void nic_rto_free(struct net *net)
{
	free(net->rto);
	net->rto = NULL;
	net->nrto = net->rto_cap = 0;
}
