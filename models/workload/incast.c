/*
 * incast.c - the incast pattern (docs/model.md#traffic): every sender
 * sends `size` bytes to `dst`, each message on a QP of its own; ids
 * within an iteration by sender.
 */
#include <stdlib.h>

#include "models/node/nic.h"
#include "models/scenario/scenario.h"
#include "models/workload/internal.h"

/* every sender's message */
static void incast_release(struct traffic *t, struct traffic_job *jb, sim_time_ps sched)
{
	for (uint32_t i = 0; i < jb->n; i++)
		nic_post_at(t->net,
			    traffic_msg(t, jb, i, jb->qps[i], jb->j->size_bytes,
					traffic_rank_start(t, jb, i)),
			    sched);
}

static int incast_build(struct traffic *t, struct traffic_job *jb)
{
	(void)t;
	jb->n = jb->j->senders.n;
	jb->ranks = jb->n + 1;
	jb->per_iter = jb->n;
	jb->iter_bytes = (int64_t)jb->n * jb->j->size_bytes;
	jb->msg_bytes = jb->iter_bytes;
	return 0;
}

static int incast_open_qps(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	jb->qps = malloc(jb->n * sizeof(*jb->qps));
	if (!jb->qps)
		return -1;
	for (uint32_t s = 0; s < jb->n; s++)
		if (traffic_qp(t, jb, s, j->senders.hosts[s], j->dst, jb->dscp))
			return -1;
	return 0;
}

/* the senders, then dst */
static void incast_hosts(struct traffic_job *jb, uint8_t *seen)
{
	traffic_add_hosts(jb, seen, jb->j->senders.hosts, jb->j->senders.n);
	jb->senders = jb->nhosts;
	traffic_add_hosts(jb, seen, &jb->j->dst, 1);
}

static uint32_t incast_rank_host(const struct traffic_job *jb, uint32_t idx)
{
	return jb->j->senders.hosts[idx];
}

static uint64_t incast_qps(const struct scn_job *j)
{
	return j->senders.n;
}

/* dst alone */
static uint64_t incast_receivers(const struct scn_job *j)
{
	return j->senders.n ? 1 : 0;
}

const struct traffic_pattern traffic_incast = {
	.qps = incast_qps,
	.receivers = incast_receivers,
	.build = incast_build,
	.open_qps = incast_open_qps,
	.hosts = incast_hosts,
	.rank_host = incast_rank_host,
	.release = incast_release,
};
