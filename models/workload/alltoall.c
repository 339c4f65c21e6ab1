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

#include "models/node/nic.h"
#include "models/scenario/scenario.h"
#include "models/workload/internal.h"

/* part q of rank i's message to rank i + k */
static void a2a_send(struct traffic *t, struct traffic_job *jb, uint32_t i, uint32_t k,
		     uint32_t q, sim_time_ps start, sim_time_ps sched)
{
	uint32_t n = jb->n;
	if (jb->failed)
		return;
	struct flow *fl = traffic_msg(t, jb, ((uint64_t)i * (n - 1) + (k - 1)) * jb->nq + q,
				      jb->qps[((size_t)i * n + k) * jb->nq + q],
				      traffic_split(jb->j->size_bytes / n, jb->nq, q), start);
	fl->pos[0] = i;
	fl->pos[1] = k;
	fl->pos[2] = q;
	nic_post_at(t->net, fl, sched);
}

/* every part to every rank, or (shift) to the next rank */
static void a2a_release(struct traffic *t, struct traffic_job *jb, sim_time_ps sched)
{
	uint32_t n = jb->n;
	for (uint32_t i = 0; i < n; i++) {
		sim_time_ps start = traffic_rank_start(t, jb, i);
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
	(void)t;
	jb->n = j->ranks.n;
	jb->nq = j->qps_per_connection;
	jb->ranks = jb->n;
	jb->per_iter = (uint64_t)jb->n * (jb->n - 1) * jb->nq;
	jb->iter_bytes = j->size_bytes;
	jb->msg_bytes = (int64_t)jb->n * (jb->n - 1) * (j->size_bytes / jb->n);
	return 0;
}

/* Q per ordered pair, [(i * n + k) * Q + q] from rank i to rank i + k */
static int a2a_open_qps(struct traffic *t, struct traffic_job *jb)
{
	uint32_t n = jb->n;
	const uint32_t *h = jb->j->ranks.hosts;
	jb->qps = malloc((size_t)n * n * jb->nq * sizeof(*jb->qps));
	if (!jb->qps)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t k = 1; k < n; k++)
			if (traffic_qp(t, jb, (size_t)i * n + k, h[i], h[(i + k) % n], jb->dscp))
				return -1;
	return 0;
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
};
