/*
 * tree.c - the tree pattern: ring-allreduce with algorithm = tree
 * (docs/model.md#traffic).
 *
 * NCCL's double binary tree: channel c carries S/channels in `slice`
 * messages; each slice is reduced up the tree (a rank sends it to its
 * parent once it has it from all its children; the leaves at once) and
 * broadcast down from the root (a rank forwards it to its children as it
 * arrives).  The leaves post every slice at once (NCCL keeps NCCL_STEPS in
 * flight per connection).  Every link of a channel's tree has Q =
 * qps_per_connection QPs each way, and slice j goes on QP j mod Q.
 *
 * On GPU servers (ring.c's comment: the ranks in blocks, one per server,
 * rotated by channel) the tree is a chain inside each server (up: from the
 * block's last GPU to its entry GPU, down the other way) and NCCL's double
 * binary tree between the servers' entry GPUs: channel c uses tree
 * (c / gpus_per_server) mod 2, so that with 2 x gpus_per_server channels
 * every rail carries both trees (tree 1 mirrors tree 0 for an even count
 * of servers, shifts it by one for an odd one, so that a server is inner
 * in at most one of them).  With one GPU per server every block is one
 * rank, and the trees alternate by channel.
 */
#include <stdlib.h>
#include <string.h>

#include "models/core/topology.h"
#include "models/node/net.h"
#include "models/node/nic.h"
#include "models/scenario/scenario.h"
#include "models/workload/internal.h"

/* one tree channel: its bytes in `slices` messages per edge and phase */
struct tree_channel {
	int64_t bytes;
	uint32_t slices;
	uint32_t root;                 /* rank index */
	uint64_t first;                /* id offset of the channel in its iteration */
	uint64_t cnt_first;            /* its slices' counters in cnt[] */
};

/* a tree job's state (jb->pat), [c * n + r] by rank index: the parent
 * (UINT32_MAX: root), the inputs of the reduce phase, the children
 * ([kid_off[c * (n + 1) + r], kid_off[.. + r + 1]) of kids[c * n ..]);
 * slices' reduce counters */
struct tree {
	uint32_t *order;               /* rank index at position i of channel c, [c * n + i] */
	struct tree_channel *tch;
	uint32_t *tparent, *kid_off, *kids;
	uint8_t *nup, *cnt;
};

/* slice sl of channel c between rank r and its parent, up (reduce) or
 * down (broadcast) */
static void tree_send(struct traffic *t, struct traffic_job *jb, uint32_t c, uint32_t r,
		      int down, uint32_t sl, sim_time_ps start, sim_time_ps sched)
{
	const struct tree *tr = jb->pat;
	const struct tree_channel *tc = &tr->tch[c];
	uint32_t n = jb->n, u = r < tc->root ? r : r - 1; /* r among the non-roots */
	if (jb->failed)
		return;
	size_t link = ((size_t)c * (n - 1) + u) * 2 + (uint32_t)down;
	uint32_t q = jb->qps[link * jb->nq + sl % jb->nq];
	int64_t slice = jb->j->slice_bytes, left = tc->bytes - (int64_t)sl * slice;
	struct flow *fl = traffic_msg(t, jb,
				      tc->first + (uint64_t)sl * 2 * (n - 1) +
					      (uint64_t)down * (n - 1) + u,
				      q, left < slice ? left : slice, start);
	fl->pos[0] = c;
	fl->pos[1] = (uint32_t)down;
	fl->pos[2] = r;
	fl->pos[3] = sl;
	nic_post_at(t->net, fl, sched);
}

/* rank r of channel c has slice sl whole: down to its children, or
 * (reduced) up to its parent, or from the root down */
static void tree_forward(struct traffic *t, struct traffic_job *jb, uint32_t c, uint32_t r,
			 int down, uint32_t sl, sim_time_ps start, sim_time_ps sched)
{
	const struct tree *tr = jb->pat;
	uint32_t n = jb->n;
	if (!down && tr->tparent[c * n + r] != UINT32_MAX) {
		tree_send(t, jb, c, r, 0, sl, start, sched);
		return;
	}
	const uint32_t *off = &tr->kid_off[(size_t)c * (n + 1) + r];
	for (uint32_t k = off[0]; k < off[1]; k++)
		tree_send(t, jb, c, tr->kids[(size_t)c * n + k], 1, sl, start, sched);
}

/* the leaves send every slice up */
static void tree_release(struct traffic *t, struct traffic_job *jb, sim_time_ps sched)
{
	const struct tree *tr = jb->pat;
	uint32_t n = jb->n, C = jb->j->channels;
	memset(tr->cnt, 0, tr->tch[C - 1].cnt_first + (uint64_t)tr->tch[C - 1].slices * n);
	for (uint32_t r = 0; r < n; r++) {
		sim_time_ps start = traffic_rank_start(t, jb, r);
		for (uint32_t c = 0; c < C; c++)
			for (uint32_t sl = 0; !tr->nup[c * n + r] && sl < tr->tch[c].slices; sl++)
				tree_forward(t, jb, c, r, 0, sl, start, sched);
	}
}

/* arrived at r (down) or r's parent (up, once from every child) */
static void tree_arrived(struct traffic *t, struct traffic_part *tp, struct traffic_job *jb,
			 const struct flow *fl, struct sim_order tag)
{
	const struct tree *tr = jb->pat;
	uint32_t c = fl->pos[0], sl = fl->pos[3], n = jb->n, r = fl->pos[2], at = r;
	(void)tp;
	if (!fl->pos[1]) {
		at = tr->tparent[c * n + r];
		uint8_t *cnt = &tr->cnt[tr->tch[c].cnt_first + (uint64_t)sl * n + at];
		if (++*cnt < tr->nup[c * n + at])
			return;
	}
	tree_forward(t, jb, c, at, fl->pos[1], sl,
		     traffic_later(tag.time, traffic_rank_start(t, jb, at)), tag.time);
}

/* NCCL's binary tree of m nodes (ncclGetBtree): the parent of node r, or
 * UINT32_MAX for the root 0 */
static uint32_t btree_parent(uint32_t m, uint32_t r)
{
	uint32_t bit = 1;
	if (r == 0)
		return UINT32_MAX;
	while (bit < m && !(bit & r))
		bit <<= 1;
	uint32_t up = (r ^ bit) | (bit << 1);
	return up >= m ? r ^ bit : up;
}

/* tree 1 of NCCL's double binary tree (ncclGetDtree): tree 0 shifted by
 * one node for odd m, mirrored for even m */
static uint32_t dtree_parent(uint32_t m, uint32_t r, uint32_t tree)
{
	if (!tree)
		return btree_parent(m, r);
	uint32_t u = m % 2 ? btree_parent(m, (r + m - 1) % m) : btree_parent(m, m - 1 - r);
	if (u == UINT32_MAX)
		return u;
	return m % 2 ? (u + 1) % m : m - 1 - u;
}

/* channel c's parents (m blocks, block b from position bstart[b]), root,
 * reduce inputs and children; pos[] is n of scratch */
static void tree_links(const struct traffic *t, struct traffic_job *jb, uint32_t c,
		       const uint32_t *bstart, uint32_t m, uint32_t *pos)
{
	struct tree *tr = jb->pat;
	uint32_t n = jb->n;
	const uint32_t *o = &tr->order[c * n];
	uint32_t *par = &tr->tparent[c * n], tree = c / t->topo->gps % 2;
	for (uint32_t b = 0; b < m; b++) {
		/* the chain up to the block's entry rank, which goes up the
		 * tree to its parent block's entry rank */
		for (uint32_t x = bstart[b] + 1; x < bstart[b + 1]; x++)
			par[o[x]] = o[x - 1];
		uint32_t pb = dtree_parent(m, b, tree);
		par[o[bstart[b]]] = pb == UINT32_MAX ? UINT32_MAX : o[bstart[pb]];
		if (pb == UINT32_MAX)
			tr->tch[c].root = o[bstart[b]];
	}
	/* children by counting: kid_off is a prefix sum of nup */
	uint32_t *off = &tr->kid_off[(size_t)c * (n + 1)];
	for (uint32_t r = 0; r < n; r++)
		if (par[r] != UINT32_MAX)
			tr->nup[c * n + par[r]]++;
	for (uint32_t r = 0; r < n; r++) {
		off[r + 1] = off[r] + tr->nup[c * n + r];
		pos[r] = off[r];
	}
	for (uint32_t r = 0; r < n; r++)
		if (par[r] != UINT32_MAX)
			tr->kids[(size_t)c * n + pos[par[r]]++] = r;
}

/* every channel's links and slices, the blocks' starts bstart[0 .. m] */
static int tree_channels(const struct traffic *t, struct traffic_job *jb, const uint32_t *bstart,
			 uint32_t m)
{
	struct tree *tr = jb->pat;
	const struct scn_job *j = jb->j;
	uint32_t n = jb->n, C = j->channels;
	uint32_t *pos = malloc(n * sizeof(*pos));
	if (!pos)
		return -1;
	uint64_t first = 0, cnt = 0;
	for (uint32_t c = 0; c < C; c++) {
		tree_links(t, jb, c, bstart, m, pos);
		struct tree_channel *tc = &tr->tch[c];
		tc->bytes = traffic_split(j->size_bytes, C, c);
		tc->slices = (uint32_t)((tc->bytes + j->slice_bytes - 1) / j->slice_bytes);
		tc->first = first;
		tc->cnt_first = cnt;
		first += (uint64_t)tc->slices * 2 * (n - 1);
		cnt += (uint64_t)tc->slices * n;
		jb->msg_bytes += tc->bytes * 2 * (n - 1);
	}
	free(pos);
	jb->per_iter = first;
	tr->cnt = calloc(cnt, 1);
	return tr->cnt ? 0 : -1;
}

/* every channel's parents, reduce inputs, children and slices */
static int tree_build(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	uint32_t n = jb->n = j->ranks.n, C = j->channels;
	struct tree *tr = jb->pat = calloc(1, sizeof(*tr));
	if (!tr)
		return -1;
	jb->nq = j->qps_per_connection;
	jb->ranks = n;
	jb->iter_bytes = j->size_bytes;
	uint32_t *blk = malloc(n * sizeof(*blk));
	tr->tch = calloc(C, sizeof(*tr->tch));
	tr->tparent = malloc((size_t)C * n * sizeof(*tr->tparent));
	tr->kid_off = calloc((size_t)C * (n + 1), sizeof(*tr->kid_off));
	tr->kids = malloc((size_t)C * n * sizeof(*tr->kids));
	tr->nup = calloc((size_t)C * n, 1);
	if (!blk || !tr->tch || !tr->tparent || !tr->kid_off || !tr->kids || !tr->nup ||
	    traffic_channel_orders(t, jb, &tr->order, blk)) {
		free(blk);
		return -1;
	}
	/* the blocks: m servers, block b starting at position bstart[b] */
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		m += blk[i] == i;
	uint32_t *bstart = malloc((m + 1) * sizeof(*bstart));
	if (!bstart) {
		free(blk);
		return -1;
	}
	for (uint32_t i = 0, b = 0; i < n; i++)
		if (blk[i] == i)
			bstart[b++] = i;
	bstart[m] = n;
	free(blk);
	int rc = tree_channels(t, jb, bstart, m);
	free(bstart);
	return rc;
}

/* Q each way per link of each channel's tree, by rank (the root has none):
 * up, then down.  Between servers the hop is entry rank to entry rank. */
static int tree_open_qps(struct traffic *t, struct traffic_job *jb)
{
	const struct tree *tr = jb->pat;
	const struct scn_job *j = jb->j;
	uint32_t n = jb->n;
	const uint32_t *h = j->ranks.hosts;
	jb->qps = malloc((size_t)j->channels * n * 2 * jb->nq * sizeof(*jb->qps));
	if (!jb->qps)
		return -1;
	for (uint32_t c = 0; c < j->channels; c++) {
		size_t k = (size_t)c * (n - 1) * 2;
		for (uint32_t r = 0; r < n; r++) {
			uint32_t up = tr->tparent[c * n + r];
			if (up == UINT32_MAX)
				continue;
			if (traffic_qp(t, jb, k++, h[r], h[up], jb->dscp) ||
			    traffic_qp(t, jb, k++, h[up], h[r], jb->dscp))
				return -1;
		}
	}
	return 0;
}

/* a tree's links both ways */
static uint64_t tree_qps(const struct scn_job *j)
{
	uint64_t n = j->ranks.n;
	return (uint64_t)j->channels * j->qps_per_connection * (2 * (n ? n - 1 : 0));
}

static void tree_free(void *pat)
{
	struct tree *tr = pat;
	free(tr->order);
	free(tr->tch);
	free(tr->tparent);
	free(tr->kid_off);
	free(tr->kids);
	free(tr->nup);
	free(tr->cnt);
}

const struct traffic_pattern traffic_tree = {
	.qps = tree_qps,
	.receivers = traffic_ranks_n,
	.build = tree_build,
	.open_qps = tree_open_qps,
	.hosts = traffic_rank_hosts,
	.rank_host = traffic_rank_host,
	.gpu_line_bps = traffic_ring_line_bps,
	.release = tree_release,
	.arrived = tree_arrived,
	.free = tree_free,
};
