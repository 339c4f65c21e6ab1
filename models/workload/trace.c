/*
 * trace.c - the trace pattern (docs/model.md#traffic): one message per
 * CSV row, each on a QP of its own (with the row's dscp when it has one);
 * `after` names a row that must finish first: the message then starts at
 * the later of its own start and the moment its sender learns that row's
 * message arrived (one idle control-frame latency later when they are
 * different hosts, traffic_notify_ps).  Ids within an iteration by row.
 */
#include <stdlib.h>

#include "models/node/nic.h"
#include "models/scenario/scenario.h"
#include "models/workload/internal.h"

/* a trace job's state (jb->pat): the iteration's messages by row, and the
 * rows that wait for each row (its `after`), as a list by row index: the
 * scenario's, the same in every process of a run split over ranks, where
 * a message that completes is another process's copy of it */
struct trace {
	struct flow **rows;
	int32_t *dep_first, *dep_next; /* -1: none */
};

/* every row's message, those with an `after` waiting on their row's */
static void trace_release(struct traffic *t, struct traffic_job *jb, sim_time_ps sched)
{
	struct trace *tr = jb->pat;
	for (uint32_t r = 0; r < jb->n; r++) {
		const struct scn_trace_row *row = &jb->j->rows[r];
		struct flow *fl = traffic_msg(t, jb, r, jb->qps[r], row->bytes,
					      traffic_rank_start(t, jb, r) + row->start_ps);
		tr->rows[r] = fl;
		if (row->after < 0)
			nic_post_at(t->net, fl, sched);
		/* else it waits for its row: posted when that one arrives */
	}
}

/* the messages that waited for this one leave, here or (their sender on
 * another partition) at the window's end */
static void trace_arrived(struct traffic *t, struct traffic_part *tp, struct traffic_job *jb,
			  const struct flow *fl, struct sim_order tag)
{
	const struct trace *tr = jb->pat;
	uint32_t r = (uint32_t)((fl->id - jb->base) % jb->id_stride);
	for (int32_t k = jb->failed ? -1 : tr->dep_first[r]; k >= 0; k = tr->dep_next[k]) {
		struct flow *d = tr->rows[k];
		sim_time_ps start = traffic_later(d->start_ps,
						  tag.time + traffic_notify_ps(t, fl->dst, d->src));
		if (traffic_part_of(t, d->src) == tp->index) {
			d->start_ps = start;
			nic_post_at(t->net, d, tag.time);
		} else {
			traffic_notice(tp, (struct notice){ .tag = tag, .job = jb->index,
							    .rank = (uint32_t)k, .start_ps = start });
		}
	}
}

static void trace_noticed(struct traffic *t, struct traffic_job *jb, const struct notice *nt)
{
	if (jb->failed)
		return;
	struct flow *d = ((struct trace *)jb->pat)->rows[nt->rank];
	d->start_ps = nt->start_ps;
	nic_post_at(t->net, d, nt->tag.time);
}

static int trace_build(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	(void)t;
	jb->n = j->nrows;
	jb->per_iter = jb->n;
	for (uint32_t r = 0; r < j->nrows; r++)
		jb->iter_bytes += j->rows[r].bytes;
	jb->msg_bytes = jb->iter_bytes;
	struct trace *tr = jb->pat = calloc(1, sizeof(*tr));
	if (!tr)
		return -1;
	tr->rows = calloc(jb->n, sizeof(*tr->rows));
	tr->dep_first = malloc(jb->n * sizeof(*tr->dep_first));
	tr->dep_next = malloc(jb->n * sizeof(*tr->dep_next));
	if (!tr->rows || !tr->dep_first || !tr->dep_next)
		return -1;
	for (uint32_t r = 0; r < jb->n; r++)
		tr->dep_first[r] = tr->dep_next[r] = -1;
	for (uint32_t r = 0; r < jb->n; r++) /* the later rows first, as they wait */
		if (j->rows[r].after >= 0) {
			tr->dep_next[r] = tr->dep_first[j->rows[r].after];
			tr->dep_first[j->rows[r].after] = (int32_t)r;
		}
	return 0;
}

static void trace_free(void *pat)
{
	struct trace *tr = pat;
	free(tr->rows);
	free(tr->dep_first);
	free(tr->dep_next);
}

static int trace_open_qps(struct traffic *t, struct traffic_job *jb)
{
	jb->qps = malloc(jb->n * sizeof(*jb->qps));
	if (!jb->qps)
		return -1;
	for (uint32_t r = 0; r < jb->n; r++) {
		const struct scn_trace_row *row = &jb->j->rows[r];
		if (traffic_qp(t, jb, r, row->src, row->dst,
			       row->dscp >= 0 ? (uint8_t)row->dscp : jb->dscp))
			return -1;
	}
	return 0;
}

/* the rows' sources, then their destinations */
static void trace_hosts(struct traffic_job *jb, uint8_t *seen)
{
	const struct scn_job *j = jb->j;
	for (uint32_t r = 0; r < j->nrows; r++)
		traffic_add_hosts(jb, seen, &j->rows[r].src, 1);
	jb->senders = jb->nhosts;
	for (uint32_t r = 0; r < j->nrows; r++)
		traffic_add_hosts(jb, seen, &j->rows[r].dst, 1);
}

static uint32_t trace_rank_host(const struct traffic_job *jb, uint32_t idx)
{
	return jb->j->rows[idx].src;
}

/* one QP per row; the rows bound the receivers */
static uint64_t trace_rows(const struct scn_job *j)
{
	return j->nrows;
}

const struct traffic_pattern traffic_trace = {
	.qps = trace_rows,
	.receivers = trace_rows,
	.build = trace_build,
	.open_qps = trace_open_qps,
	.hosts = trace_hosts,
	.rank_host = trace_rank_host,
	.release = trace_release,
	.arrived = trace_arrived,
	.noticed = trace_noticed,
	.free = trace_free,
};
