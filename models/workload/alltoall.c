/*
 * alltoall.c - the all-to-all pattern (docs/model.md#traffic).
 *
 * Every rank sends S/n to each other rank, all at once on one QP per pair,
 * or `schedule = shift`: the message to rank i+k leaves once the one to
 * rank i+k-1 has arrived and the sender has learnt it (one idle
 * control-frame latency later, traffic_notify_ps).  With
 * qps_per_connection = Q a message is cut into Q parts, one per QP (with
 * `shift`, part q to the next rank waits for part q to this one).  Ids
 * within an iteration by (rank, peer, part).
 */
#include <stdlib.h>

#include "models/base/invariant.h"
#include "models/base/slab.h"
#include "models/core/topology.h"
#include "models/node/nic.h"
#include "models/scenario/scenario.h"
#include "models/workload/internal.h"

/* all-at-once in a run with nic.qp_cache: rank i's messages, made as its
 * NIC first serves each (nic.h, struct nic_gen), by (peer, part) as their
 * ids; jb->pat holds one a rank */
struct a2a_gen {
	struct nic_gen g;
	struct traffic *t;
	struct traffic_job *jb;
	uint32_t i;
};

/* part q of rank i's message to rank i + k: its id within an iteration,
 * and its QP's place after the job's first (a2a_open_qps) */
static uint64_t a2a_index(const struct traffic_job *jb, uint32_t i, uint32_t k, uint32_t q)
{
	return ((uint64_t)i * (jb->n - 1) + (k - 1)) * jb->nq + q;
}

/* part q of rank i's message to rank i + k, made */
static struct flow *a2a_msg(struct traffic *t, struct traffic_job *jb, uint32_t i, uint32_t k,
			    uint32_t q, sim_time_ps start)
{
	uint64_t x = a2a_index(jb, i, k, q);
	struct flow *fl = traffic_msg(t, jb, x, jb->qp_base + (uint32_t)x,
				      traffic_split(jb->j->size_bytes / jb->n, jb->nq, q), start);
	fl->pos[0] = i;
	fl->pos[1] = k;
	fl->pos[2] = q;
	return fl;
}

/* part q of rank i's message to rank i + k */
static void a2a_send(struct traffic *t, struct traffic_job *jb, uint32_t i, uint32_t k,
		     uint32_t q, sim_time_ps start, sim_time_ps sched)
{
	if (jb->failed)
		return;
	nic_post_at(t->net, a2a_msg(t, jb, i, k, q, start), sched);
}

/* message j of a rank's run: part j % Q to rank i + j / Q + 1 */
static struct flow *gen_make(struct nic_gen *g, uint32_t j)
{
	struct a2a_gen *a = (struct a2a_gen *)(void *)g;
	return a2a_msg(a->t, a->jb, a->i, j / a->jb->nq + 1, j % a->jb->nq, g->stub.start_ps);
}

static uint32_t gen_qp(const struct nic_gen *g, uint32_t j)
{
	const struct a2a_gen *a = (const struct a2a_gen *)(const void *)g;
	const struct traffic_job *jb = a->jb;
	return jb->qp_base + (uint32_t)a2a_index(jb, a->i, j / jb->nq + 1, j % jb->nq);
}

/* all-at-once, made in turn: rank i's run of messages starts at start */
static void a2a_gen_post(struct traffic *t, struct traffic_job *jb, uint32_t i,
			 sim_time_ps start, sim_time_ps sched)
{
	struct a2a_gen *a = &((struct a2a_gen *)jb->pat)[i];
	uint32_t h = jb->j->ranks.hosts[i];
	a->g.stub.id = traffic_msg_id(jb, (uint64_t)i * (jb->n - 1) * jb->nq);
	a->g.stub.src = (uint16_t)h;
	a->g.ring.prio = t->net->qos.dscp_to_prio[jb->dscp];
	nic_gen_post_at(t->net, &a->g, start, sched);
}

/* every part to every rank, or (shift) to the next rank */
static void a2a_release(struct traffic *t, struct traffic_job *jb, sim_time_ps sched)
{
	uint32_t n = jb->n;
	for (uint32_t i = 0; i < n; i++) {
		sim_time_ps start = traffic_rank_start(t, jb, i);
		if (jb->pat) {
			if (!jb->failed)
				a2a_gen_post(t, jb, i, start, sched);
			continue;
		}
		uint32_t last = jb->j->schedule == SCN_SCHEDULE_SHIFT ? 1 : n - 1;
		for (uint32_t k = 1; k <= last; k++)
			for (uint32_t q = 0; q < jb->nq; q++)
				a2a_send(t, jb, i, k, q, start, sched);
	}
}

/* shift: the part to the rank after this one's receiver leaves, here or
 * (its sender on another partition) at the window's end */
static void a2a_arrived(struct traffic *t, struct traffic_part *tp, struct traffic_job *jb,
			const struct flow *fl, struct sim_order tag)
{
	uint32_t i = fl->pos[0], k = fl->pos[1];
	if (jb->j->schedule != SCN_SCHEDULE_SHIFT || k + 1 >= jb->n)
		return;
	sim_time_ps start = traffic_later(traffic_rank_start(t, jb, i),
					  tag.time + traffic_notify_ps(t, fl->dst, fl->src));
	if (traffic_part_of(t, fl->src) == tp->index)
		a2a_send(t, jb, i, k + 1, fl->pos[2], start, tag.time);
	else
		traffic_notice(tp, (struct notice){ .tag = tag, .job = jb->index, .rank = i,
						    .k = k + 1, .q = fl->pos[2],
						    .start_ps = start });
}

static void a2a_noticed(struct traffic *t, struct traffic_job *jb, const struct notice *nt)
{
	a2a_send(t, jb, nt->rank, nt->k, nt->q, nt->start_ps, nt->tag.time);
}

static int a2a_build(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	jb->n = j->ranks.n;
	jb->nq = j->qps_per_connection;
	jb->ranks = jb->n;
	jb->per_iter = (uint64_t)jb->n * (jb->n - 1) * jb->nq;
	jb->iter_bytes = j->size_bytes;
	jb->msg_bytes = (int64_t)jb->n * (jb->n - 1) * (j->size_bytes / jb->n);
	/* all-at-once makes its messages in turn where QPs give their state
	 * up (nic.qp_cache): the messages of 8,192 ranks would not fit.  Not
	 * on GPU servers, whose messages within a server leave over NVLink as
	 * they are posted, not in the NIC's turn, nor over InfiniBand, whose
	 * credits look at the next frame of the ring's first QP (ib.c) */
	if (j->schedule != SCN_SCHEDULE_ALL_AT_ONCE || !t->net->qc || t->topo->gps > 1 ||
	    t->net->qos.ib || jb->n < 2)
		return 0;
	struct a2a_gen *gens = calloc_lines(jb->n, sizeof(*gens));
	if (!gens)
		return -1;
	for (uint32_t i = 0; i < jb->n; i++)
		gens[i] = (struct a2a_gen){ .g = { .count = (jb->n - 1) * jb->nq, .make = gen_make,
						   .qp = gen_qp },
					    .t = t, .jb = jb, .i = i };
	jb->pat = gens;
	return 0;
}

/* the run ended: each rank's messages not made yet are */
static void a2a_flush(struct traffic *t, struct traffic_job *jb)
{
	struct a2a_gen *gens = jb->pat;
	for (uint32_t i = 0; gens && i < jb->n; i++)
		nic_gen_flush(t->net, &gens[i].g);
}

/* Q per ordered pair, opened in the order of the messages, so that the QP
 * of part q from rank i to rank i + k is jb->qp_base + a2a_index(i, k, q)
 * (nic_add_qp_pairs): a table of them would take 268 MB at 8,192 ranks,
 * and with the cache their ends are computed too. */
static int a2a_open_qps(struct traffic *t, struct traffic_job *jb)
{
	jb->qp_base = nic_add_qp_pairs(t->net, jb->j->ranks.hosts, jb->n, jb->nq, jb->dscp,
				       jb->index);
	return jb->qp_base == NET_NONE ? -1 : 0;
}

static uint64_t a2a_qps(const struct scn_job *j)
{
	uint64_t n = j->ranks.n;
	return n * (n ? n - 1 : 0) * j->qps_per_connection;
}

/* release: all-at-once posts every part to every rank, one on each QP */
static uint64_t a2a_posted_at_once(const struct scn_job *j)
{
	return j->schedule == SCN_SCHEDULE_ALL_AT_ONCE ? a2a_qps(j) : 0;
}

/* the bytes to the k - 1 other ranks of a server ride NVLink: host_link x
 * (n - 1) / (n - k), the bus bandwidth at which each NIC carries its n - k
 * remote messages at line rate */
static int64_t a2a_line_bps(const struct scenario *scn, const struct scn_job *j, uint32_t k)
{
	uint32_t n = j->ranks.n;
	return units_mul_div_ceil(scn->host_link_bps, n - 1, n - k);
}

const struct traffic_pattern traffic_alltoall = {
	.qps = a2a_qps,
	.receivers = traffic_ranks_n,
	.posted_at_once = a2a_posted_at_once,
	.build = a2a_build,
	.open_qps = a2a_open_qps,
	.hosts = traffic_rank_hosts,
	.rank_host = traffic_rank_host,
	.gpu_line_bps = a2a_line_bps,
	.release = a2a_release,
	.arrived = a2a_arrived,
	.noticed = a2a_noticed,
	.flush = a2a_flush,
};
