/*
 * ring.c - the ring-allreduce pattern (docs/model.md#traffic), and the
 * channels' rank orders on GPU servers that the tree shares.
 *
 * NCCL's ring: `channels` rings, each carrying S/channels split into n
 * chunks; 2(n-1) steps (reduce-scatter, then all-gather) in which rank i
 * sends chunk (i - s) mod n to rank i+1, cut into `slice`-byte messages;
 * slice j of step s+1 leaves rank i once slice j of step s from rank i-1
 * has arrived (at once: the sender is the host it arrived at).  One QP per
 * (channel, rank), so channels hash to their own ECMP paths; with
 * qps_per_connection = Q (NCCL_IB_QPS_PER_CONNECTION) every connection has
 * Q QPs, each with its own UDP source port, and slice j of step s goes on
 * QP (s + j) mod Q (NCCL's round robin of messages over QPs).  Ids within
 * an iteration by (channel, step, rank, slice), computed in O(1) from the
 * chunk sizes.
 *
 * GPU servers (topology.gpus_per_server > 1, as NCCL builds its rings and
 * trees on them).  The ranks are grouped by server (servers in the order
 * their first rank is listed, a server's ranks in list order: a block of k
 * ranks).  Channel c visits the servers in that order and, within each,
 * the block rotated by c mod k: it enters every server at the block's GPU
 * c mod k, whose NIC is on rail c mod k.  A hop between two GPUs of one
 * server goes over NVLink (nic.h); the hop out of a server leaves through
 * the NIC of the GPU the channel entered by (the data crosses the server
 * to it, as NCCL's rings leave a server by the NIC they entered with;
 * that crossing is not charged) and reaches the next server's entry GPU.
 * So channel c's network traffic stays on rail c mod k.  (The tree's use
 * of the blocks: tree.c.)  With one GPU per server every block is one
 * rank: rings follow the rank list.  All-to-all, incast, permutation and
 * traces send between GPUs of one server over NVLink and otherwise from
 * the GPU's own NIC.
 */
#include <stdlib.h>

#include "models/core/topology.h"
#include "models/node/net.h"
#include "models/node/nic.h"
#include "models/scenario/scenario.h"
#include "models/workload/internal.h"

/* one ring channel: S/channels split into n chunks of q + 1 bytes (chunk
 * index < r) or q bytes, each cut into slices */
struct ring_channel {
	int64_t q;
	uint32_t r;
	uint32_t m_big, m_small;       /* slices of a big or small chunk */
	uint64_t per_step;             /* messages of one step: r m_big + (n - r) m_small */
	uint64_t first;                /* id offset of the channel in its iteration */
};

/* a ring job's state (jb->pat) */
struct ring {
	uint32_t steps;                /* 2(n - 1) */
	uint32_t *order;               /* rank index at position i of channel c, [c * n + i] */
	struct ring_channel *ch;       /* per channel */
};

/* slices of the chunk with index idx */
static uint32_t ring_slices(const struct ring_channel *ch, uint32_t idx)
{
	return idx < ch->r ? ch->m_big : ch->m_small;
}

/* bytes of slice sl of chunk idx */
static int64_t ring_slice_bytes(const struct traffic_job *jb, const struct ring_channel *ch,
				uint32_t idx, uint32_t sl)
{
	int64_t chunk = ch->q + (idx < ch->r), slice = jb->j->slice_bytes;
	int64_t left = chunk - (int64_t)sl * slice;
	return left < slice ? left : slice;
}

/* how many of ranks 0..i-1 send a big chunk at step s: the ranks i' with
 * (i' - s) mod n < r, a cyclic run of r ranks from s mod n */
static uint64_t ring_big_before(uint32_t n, uint32_t r, uint32_t s, uint32_t i)
{
	uint32_t a = s % n;
	if (a + r <= n)
		return i > a ? (i < a + r ? i : a + r) - a : 0;
	return (i > a ? i - a : 0) + (i < a + r - n ? i : a + r - n);
}

/* id offset, in its iteration, of channel c, step s, rank i, slice 0 */
static uint64_t ring_index(const struct traffic_job *jb, uint32_t c, uint32_t s, uint32_t i)
{
	const struct ring *rg = jb->pat;
	const struct ring_channel *ch = &rg->ch[c];
	uint64_t big = ring_big_before(jb->n, ch->r, s, i);
	return ch->first + (uint64_t)s * ch->per_step + (uint64_t)i * ch->m_small +
	       big * (ch->m_big - ch->m_small);
}

/* the rank index at position i of channel c */
static uint32_t rank_at(const struct traffic_job *jb, uint32_t c, uint32_t i)
{
	const struct ring *rg = jb->pat;
	return rg->order[c * jb->n + i];
}

/* slice sl of channel c, step s, from position i (its chunk has index
 * idx), decided at time `sched` */
static void ring_send(struct traffic *t, struct traffic_job *jb, uint32_t c, uint32_t s,
		      uint32_t i, uint32_t sl, sim_time_ps start, sim_time_ps sched)
{
	const struct ring *rg = jb->pat;
	uint32_t n = jb->n, idx = (i + n - s % n) % n;
	if (jb->failed)
		return;
	uint32_t q = jb->qps[((size_t)c * n + i) * jb->nq + (s + sl) % jb->nq];
	struct flow *fl = traffic_msg(t, jb, ring_index(jb, c, s, i) + sl, q,
				      ring_slice_bytes(jb, &rg->ch[c], idx, sl), start);
	fl->pos[0] = c;
	fl->pos[1] = s;
	fl->pos[2] = i;
	fl->pos[3] = sl;
	nic_post_at(t->net, fl, sched);
}

/* step 0 from every rank of every channel */
static void ring_release(struct traffic *t, struct traffic_job *jb, sim_time_ps sched)
{
	const struct ring *rg = jb->pat;
	uint32_t n = jb->n;
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t c = 0; c < jb->j->channels; c++) {
			sim_time_ps start = traffic_rank_start(t, jb, rank_at(jb, c, i));
			for (uint32_t sl = 0; sl < ring_slices(&rg->ch[c], i); sl++)
				ring_send(t, jb, c, 0, i, sl, start, sched);
		}
}

/* the next slice leaves from where this one arrived */
static void ring_arrived(struct traffic *t, struct traffic_part *tp, struct traffic_job *jb,
			 const struct flow *fl, struct sim_order tag)
{
	const struct ring *rg = jb->pat;
	uint32_t c = fl->pos[0], s = fl->pos[1], sl = fl->pos[3], next = (fl->pos[2] + 1) % jb->n;
	(void)tp;
	if (s + 1 < rg->steps)
		ring_send(t, jb, c, s + 1, next, sl,
			  traffic_later(tag.time, traffic_rank_start(t, jb, rank_at(jb, c, next))),
			  tag.time);
}

int traffic_channel_orders(const struct traffic *t, const struct traffic_job *jb,
			   uint32_t **order, uint32_t *blk)
{
	const struct scn_job *j = jb->j;
	uint32_t n = jb->n, C = j->channels, nb = 0;
	const uint32_t *h = j->ranks.hosts;
	uint32_t servers = (t->net->nhosts + t->topo->gps - 1) / t->topo->gps;
	uint32_t *grouped = malloc(n * sizeof(*grouped)), *start = malloc((n + 1) * sizeof(*start));
	uint32_t *block = malloc(servers * sizeof(*block)); /* a server's block, by first rank */
	uint32_t *o = *order = malloc((size_t)C * n * sizeof(**order));
	if (!grouped || !start || !block || !o) {
		free(grouped);
		free(start);
		free(block);
		return -1;
	}
	/* O(ranks + servers): count each block's ranks, sum the counts to each
	 * block's end, then place the ranks from the last, each block filling
	 * down to its start */
	for (uint32_t v = 0; v < servers; v++)
		block[v] = UINT32_MAX;
	for (uint32_t a = 0; a < n; a++) {
		uint32_t *b = &block[topo_server(t->topo, h[a])];
		if (*b == UINT32_MAX)
			start[*b = nb++] = 0;
		start[*b]++;
	}
	for (uint32_t b = 1; b < nb; b++)
		start[b] += start[b - 1];
	for (uint32_t a = n; a-- > 0;)
		grouped[--start[block[topo_server(t->topo, h[a])]]] = a;
	start[nb] = n;
	for (uint32_t c = 0; c < C; c++)
		for (uint32_t b = 0; b < nb; b++) {
			uint32_t k = start[b + 1] - start[b];
			for (uint32_t x = 0; x < k; x++) {
				o[c * n + start[b] + x] = grouped[start[b] + (x + c) % k];
				if (blk)
					blk[start[b] + x] = start[b];
			}
		}
	free(grouped);
	free(start);
	free(block);
	return 0;
}

/* the geometry and the messages of one iteration */
static int ring_build(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	uint32_t n = jb->n = j->ranks.n;
	struct ring *rg = jb->pat = calloc(1, sizeof(*rg));
	if (!rg)
		return -1;
	jb->nq = j->qps_per_connection;
	rg->steps = 2 * (n - 1);
	jb->ranks = n;
	jb->iter_bytes = j->size_bytes;
	if (traffic_channel_orders(t, jb, &rg->order, NULL))
		return -1;
	rg->ch = calloc(j->channels, sizeof(*rg->ch));
	if (!rg->ch)
		return -1;
	uint64_t first = 0;
	for (uint32_t c = 0; c < j->channels; c++) {
		struct ring_channel *ch = &rg->ch[c];
		int64_t per = traffic_split(j->size_bytes, j->channels, c), slice = j->slice_bytes;
		ch->q = per / n;
		ch->r = (uint32_t)(per % n);
		ch->m_big = (uint32_t)((ch->q + 1 + slice - 1) / slice);
		ch->m_small = (uint32_t)((ch->q + slice - 1) / slice);
		ch->per_step = (uint64_t)ch->r * ch->m_big + (uint64_t)(n - ch->r) * ch->m_small;
		ch->first = first;
		first += (uint64_t)rg->steps * ch->per_step;
	}
	jb->per_iter = first;
	jb->msg_bytes = (int64_t)rg->steps * j->size_bytes;
	return 0;
}

/* the host whose NIC (or NVLink) carries the hop from rank a to rank b of
 * channel c, whose block entered a's server at rank `entry`: a itself
 * within a server, else the entry rank's (module comment) */
static uint32_t hop_src(const struct traffic *t, const struct traffic_job *jb, uint32_t a,
			uint32_t b, uint32_t entry)
{
	const uint32_t *h = jb->j->ranks.hosts;
	return topo_server(t->topo, h[a]) == topo_server(t->topo, h[b]) ? h[a] : h[entry];
}

/* Q per (channel, position), position i to i + 1 */
static int ring_open_qps(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	uint32_t n = jb->n;
	const uint32_t *h = j->ranks.hosts;
	jb->qps = malloc((size_t)j->channels * n * jb->nq * sizeof(*jb->qps));
	if (!jb->qps)
		return -1;
	for (uint32_t c = 0; c < j->channels; c++) {
		uint32_t entry = rank_at(jb, c, 0);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t a = rank_at(jb, c, i), b = rank_at(jb, c, (i + 1) % n);
			if (i && topo_server(t->topo, h[a]) !=
					 topo_server(t->topo, h[rank_at(jb, c, i - 1)]))
				entry = a;
			if (traffic_qp(t, jb, (size_t)c * n + i, hop_src(t, jb, a, b, entry), h[b],
				       jb->dscp))
				return -1;
		}
	}
	return 0;
}

static uint64_t ring_qps(const struct scn_job *j)
{
	return (uint64_t)j->channels * j->qps_per_connection * j->ranks.n;
}

/* the NICs of the rails the channels use, min(channels, k) x host_link,
 * but not above a GPU's NVLink (job_line_bps) */
int64_t traffic_ring_line_bps(const struct scenario *scn, const struct scn_job *j, uint32_t k)
{
	if ((int64_t)(j->channels < k ? j->channels : k) * scn->host_link_bps < scn->nvlink_bps)
		return (int64_t)(j->channels < k ? j->channels : k) * scn->host_link_bps;
	return scn->nvlink_bps;
}

static void ring_free(void *pat)
{
	struct ring *rg = pat;
	free(rg->order);
	free(rg->ch);
}

const struct traffic_pattern traffic_ring = {
	.qps = ring_qps,
	.receivers = traffic_ranks_n,
	.build = ring_build,
	.open_qps = ring_open_qps,
	.hosts = traffic_rank_hosts,
	.rank_host = traffic_rank_host,
	.gpu_line_bps = traffic_ring_line_bps,
	.release = ring_release,
	.arrived = ring_arrived,
	.free = ring_free,
};
