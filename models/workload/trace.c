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

/* every row's message (jb->pat: the iteration's messages by row), those
 * with an `after` waiting on their row's */
static void trace_release(struct traffic *t, struct traffic_job *jb, sim_time_ps sched)
{
	struct flow **rows = jb->pat;
	for (uint32_t r = 0; r < jb->n; r++) {
		const struct scn_trace_row *row = &jb->j->rows[r];
		struct flow *fl = traffic_msg(t, jb, r, jb->qps[r], row->bytes,
					      traffic_rank_start(t, jb, r) + row->start_ps);
		rows[r] = fl;
		if (row->after < 0) {
			nic_post_at(t->net, fl, sched);
		} else { /* waits for its row: posted when that one arrives */
			struct flow *first = rows[row->after];
			fl->next_dep = first->first_dep;
			first->first_dep = fl;
		}
	}
}

/* the messages that waited for this one leave, here or (their sender on
 * another partition) at the window's end */
static void trace_arrived(struct traffic *t, struct traffic_part *tp, struct traffic_job *jb,
			  const struct flow *fl, struct sim_order tag)
{
	for (struct flow *d = jb->failed ? NULL : fl->first_dep; d; d = d->next_dep) {
		sim_time_ps start = traffic_later(d->start_ps,
						  tag.time + traffic_notify_ps(t, fl->dst, d->src));
		if (traffic_part_of(t, d->src) == tp->index) {
			d->start_ps = start;
			nic_post_at(t->net, d, tag.time);
		} else {
			traffic_notice(tp, (struct notice){ .tag = tag, .job = jb->index, .fl = d,
							    .start_ps = start });
		}
	}
}

static void trace_noticed(struct traffic *t, struct traffic_job *jb, const struct notice *nt)
{
	if (jb->failed)
		return;
	nt->fl->start_ps = nt->start_ps;
	nic_post_at(t->net, nt->fl, nt->tag.time);
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
	jb->pat = calloc(jb->n, sizeof(struct flow *));
	return jb->pat ? 0 : -1;
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
};
