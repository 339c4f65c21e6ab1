/*
 * training.c - the training pattern (docs/model.md#training): one training
 * step per iteration, built once as a graph of operations and run again at
 * every iteration.  An operation is a compute block (a timed gap on one
 * GPU) or a message; it starts when every operation it depends on has
 * ended.
 *
 * Ranks.  Rank g is (tensor rank r, replica d, stage s) with g = r + t (d +
 * dp s): the t ranks of a tensor-parallel group are consecutive, so a rank
 * list in host order keeps each group inside one GPU server's NVLink when
 * t divides gpus_per_server.
 *
 * One step.  Every GPU of stage s runs the 1F1B schedule: min(p - s - 1, m)
 * forward passes (warm-up), then a forward and a backward in turn, then
 * the backward passes left (cool-down).  A forward through a layer is the
 * attention block, a ring all-reduce of b s h e bytes over the tensor-
 * parallel group, the MLP block and another all-reduce (Megatron-LM's
 * tensor parallelism; none when t = 1); the last stage adds the output
 * layer.  A backward runs the same in reverse (MLP, all-reduce, attention,
 * all-reduce).  A stage sends its activations (b s h e bytes) to the same
 * tensor rank of the next stage after each forward and its input gradients
 * back after each backward; the next forward (backward) there waits for
 * them.  A GPU computes one block at a time, in that order, and waits for
 * the all-reduce before its next block (the all-reduce is on its compute
 * stream); pipeline sends overlap its compute.  The backward of the last
 * micro-batch fills the stage's gradient buckets (scenario/training.h);
 * each bucket is all-reduced over the dp replicas by a ring as soon as it
 * is full, one bucket after another on each GPU, overlapping the rest of
 * the backward.  The step ends when every GPU's last block and last
 * message are done; iteration k+1 is released compute_gap later (the
 * optimizer) plus the control-frame latency (traffic.c).
 *
 * Rings.  An all-reduce of S bytes over n ranks is 2(n-1) steps; at step k
 * the rank at position j sends chunk (j - k) mod n (S split into n near-
 * equal chunks, as ring.c) to position j + 1, once it has received step k -
 * 1 from position j - 1 and its own data is ready.  A rank's result is
 * ready when every message of the ring addressed to it has arrived.
 *
 * Partitions.  Every dependency is met where the operation that waits runs:
 * a message's arrival is seen at its receiver, which runs what waits for
 * it (its next block, its next ring message); a block's end is seen on its
 * GPU, which sends what waits for it.  So a completion never touches
 * another partition's operations, nothing crosses partitions but the
 * messages themselves, and the outputs do not depend on the threads.
 *
 * Ids within an iteration: the messages in the order the graph makes them
 * (the tensor groups stage by stage, replica by replica, each in schedule
 * order; then the buckets' rings, stage by stage, tensor rank by tensor
 * rank, bucket by bucket).
 */
#include <stdlib.h>
#include <string.h>

#include "models/base/bytes.h"
#include "models/base/invariant.h"
#include "models/base/slab.h"
#include "models/node/net.h"
#include "models/node/nic.h"
#include "models/scenario/scenario.h"
#include "models/scenario/training.h"
#include "models/workload/internal.h"

#define NONE UINT32_MAX

_Static_assert(SCN_TRAIN_KINDS == COLL_STEP_KINDS, "struct coll_step follows scn_train_kind");

enum { OP_COMPUTE, OP_MSG };

struct op {
	sim_time_ps ready;             /* the latest dependency met (-1: none yet) */
	sim_time_ps t;                 /* compute: its end; message: its start */
	int64_t amount;                /* compute: ps; message: bytes */
	uint32_t out, nout;            /* what waits for it: edge[out .. out + nout) */
	uint32_t ndeps, left;          /* its dependencies, those not met yet */
	uint32_t gpu, peer;            /* its GPU (compute) or sender and receiver ranks */
	uint32_t qp;                   /* message: index in jb->qps; block: its local
					* layer (-1: the output layer) */
	uint32_t block;                /* the dependency that met ready last */
	uint32_t msg;                  /* message: index within the step; block: its
					* micro-batch x 8 + enum coll_block_kind */
	uint8_t kind, cls;             /* OP_*; a message's scn_train_kind */
};

/* a GPU's step so far: written only on its partition's thread */
struct gpu {
	_Alignas(64) sim_time_ps free_ps; /* its last block's end (the step's start at first) */
	sim_time_ps compute_ps, bubble_ps, other_ps;
	sim_time_ps wait_ps[SCN_TRAIN_KINDS]; /* before blocks, by the dependency's kind */
	sim_time_ps last_arr[SCN_TRAIN_KINDS]; /* its last message received, by kind */
};

/* a partition's list of operations ready to run */
struct stack {
	_Alignas(64) uint32_t *a;
	uint32_t n, cap;
};

struct training {
	struct scn_training tr;
	uint32_t N;
	struct op *ops;
	uint32_t nops, ops_cap;
	uint32_t *edge;
	uint32_t *roots, nroots;
	uint32_t *qmap;                /* [kind * N + g]: jb->qps index of g's QP (Q_*) */
	uint32_t a2a_first;            /* jb->qps index of rank 0's first all-to-all QP:
					* g's to expert group position i at a2a_first +
					* g (ep - 1) + (i below g's ? i : i - 1) */
	struct gpu *gpus;
	struct stack *stacks;          /* one per partition */
	uint32_t nparts;
	int64_t bucket;                /* job.bucket */
	int sharded;                   /* job.optimizer = sharded */
	uint64_t msgs[SCN_TRAIN_KINDS];  /* a step's messages by kind, */
	uint64_t bytes[SCN_TRAIN_KINDS]; /* and their payload */
};

/* the QPs of a rank: to the next tensor rank, to the next and previous
 * stages, to the next replica, to the next replica of the same experts;
 * then (qmap's a2a part) to each other rank of its expert group */
enum { Q_TP, Q_FWD, Q_BWD, Q_DP, Q_EDP, Q_KINDS };

/* ---- building the graph ---- */

/* a stage's gradient buckets of one kind (dense, experts) */
struct buckets {
	uint32_t nbmax;
	uint32_t *nb;                  /* per stage: its buckets */
	int32_t *blayer;               /* [s * nbmax + k]: the local layer that fills bucket k */
	uint32_t *at;                  /* [g * nbmax + k]: the block that fills bucket k */
};

/* the dependencies while building: (from, to) pairs */
struct build {
	struct training *tg;
	uint32_t (*pair)[2];
	uint64_t npairs, cap;
	uint32_t *cprev;               /* per GPU: its last block */
	uint32_t *arbase;              /* per GPU: the tensor all-reduce it waits for, or NONE */
	uint32_t *a2abase;             /* per GPU: the all-to-all it waits for, or NONE */
	uint32_t *f_first, *f_send, *b_first, *b_send; /* [g * m + i] */
	struct buckets bk[2];          /* dense, experts */
	uint32_t *sg, ng;              /* the tensor groups built together (an expert
					* group's): their first ranks */
	uint32_t *grp, *first;         /* scratch: a ring's ranks; first blocks [x * t + r] */
	uint32_t nmsg;
	uint32_t mb;                   /* the micro-batch and layer being built */
	int32_t layer;
	int oom;
};

static uint32_t new_op(struct build *b, uint8_t kind, uint8_t cls, uint32_t gpu, int64_t amount)
{
	struct training *tg = b->tg;
	if (tg->nops == tg->ops_cap) {
		uint32_t c = tg->ops_cap ? 2 * tg->ops_cap : 1024;
		struct op *o = realloc(tg->ops, (size_t)c * sizeof(*o));
		if (!o) {
			b->oom = 1;
			return NONE;
		}
		tg->ops = o;
		tg->ops_cap = c;
	}
	tg->ops[tg->nops] = (struct op){ .kind = kind, .cls = cls, .gpu = gpu, .peer = gpu,
					 .amount = amount, .qp = NONE, .msg = NONE };
	if (kind == OP_MSG)
		tg->ops[tg->nops].msg = b->nmsg++;
	return tg->nops++;
}

static void dep(struct build *b, uint32_t from, uint32_t to)
{
	if (from == NONE || to == NONE || b->oom)
		return;
	if (b->npairs == b->cap) {
		uint64_t c = b->cap ? 2 * b->cap : 4096;
		void *p = realloc(b->pair, c * sizeof(*b->pair));
		if (!p) {
			b->oom = 1;
			return;
		}
		b->pair = p;
		b->cap = c;
	}
	b->pair[b->npairs][0] = from;
	b->pair[b->npairs++][1] = to;
}

/* a message from rank g to rank h on the QP jb->qps[qp] */
static uint32_t new_msg(struct build *b, uint8_t cls, uint32_t qp, uint32_t g, uint32_t h,
			int64_t bytes)
{
	uint32_t u = new_op(b, OP_MSG, cls, g, bytes);
	if (u != NONE) {
		b->tg->ops[u].peer = h;
		b->tg->ops[u].qp = qp;
	}
	return u;
}

/* rank g's QP of kind q */
static uint32_t qp_of(const struct build *b, int q, uint32_t g)
{
	return b->tg->qmap[q * b->tg->N + g];
}

/* the arrivals at position j of the ring at base over n ranks: `to` waits
 * for them */
static void ring_arrivals(struct build *b, uint32_t base, uint32_t n, uint32_t j, uint32_t to)
{
	for (uint32_t k = 0; k < 2 * (n - 1); k++)
		dep(b, base + k * n + (j + n - 1) % n, to);
}

/* the all-to-all at base over n ranks: from position j to i at base + j (n
 * - 1) + (i < j ? i : i - 1); `to` waits for those addressed to i */
static void a2a_arrivals(struct build *b, uint32_t base, uint32_t n, uint32_t i, uint32_t to)
{
	for (uint32_t j = 0; j < n; j++)
		if (j != i)
			dep(b, base + j * (n - 1) + (i < j ? i : i - 1), to);
}

/* what rank g's next block or message waits for: its last block and the
 * tensor all-reduce and all-to-all it is in (every message of them
 * addressed to g) */
static void wait_for_gpu(struct build *b, uint32_t g, uint32_t to)
{
	const struct scn_training *tr = &b->tg->tr;
	dep(b, b->cprev[g], to);
	if (b->arbase[g] != NONE)
		ring_arrivals(b, b->arbase[g], tr->t, g % tr->t, to);
	if (b->a2abase[g] != NONE)
		a2a_arrivals(b, b->a2abase[g], tr->ep, (g / tr->t) % tr->d % tr->ep, to);
}

/*
 * A ring all-reduce of S bytes over ranks grp[0 .. n) by messages of kind
 * cls on their QPs of kind q: 2(n-1) steps, step k from position j at
 * base + k n + j.  Each position's messages wait for data[j] (NULL: for
 * all its GPU waits for, wait_for_gpu) and the first one for after[j] too
 * (unless NULL or NONE), the others for the previous step from j - 1.
 * Returns base.
 */
static uint32_t ring(struct build *b, uint8_t cls, int q, const uint32_t *grp, uint32_t n,
		     int64_t S, const uint32_t *data, const uint32_t *after)
{
	uint32_t base = b->tg->nops, steps = 2 * (n - 1);
	int64_t qb = S / n, r = S % n;
	for (uint32_t k = 0; k < steps; k++)
		for (uint32_t j = 0; j < n; j++) {
			uint32_t idx = (j + n - k % n) % n;
			uint32_t u = new_msg(b, cls, qp_of(b, q, grp[j]), grp[j], grp[(j + 1) % n],
					     qb + (idx < r));
			if (data)
				dep(b, data[j], u);
			else
				wait_for_gpu(b, grp[j], u);
			if (k)
				dep(b, base + (k - 1) * n + (j + n - 1) % n, u);
			else if (after && after[j] != NONE)
				dep(b, after[j], u);
		}
	return base;
}

/* a block of `ps` (enum coll_block_kind `kind`) on every GPU of the groups;
 * first[x * t + r] (unless NULL) gets each one's first */
static void blocks(struct build *b, int kind, sim_time_ps ps, uint32_t *first)
{
	uint32_t t = b->tg->tr.t;
	for (uint32_t x = 0; x < b->ng; x++)
		for (uint32_t r = 0; r < t; r++) {
			uint32_t g = b->sg[x] + r, u = new_op(b, OP_COMPUTE, 0, g, ps);
			if (u != NONE) {
				b->tg->ops[u].qp = (uint32_t)b->layer;
				b->tg->ops[u].msg = b->mb * 8 + (uint32_t)kind;
			}
			wait_for_gpu(b, g, u);
			b->cprev[g] = u;
			b->arbase[g] = b->a2abase[g] = NONE;
			if (first && first[x * t + r] == NONE)
				first[x * t + r] = u;
		}
}

/* each tensor group all-reduces what it has made */
static void tp_allreduce(struct build *b)
{
	uint32_t t = b->tg->tr.t, *grp = b->grp;
	for (uint32_t x = 0; t > 1 && x < b->ng; x++) {
		for (uint32_t r = 0; r < t; r++)
			grp[r] = b->sg[x] + r;
		uint32_t base = ring(b, SCN_TRAIN_TP, Q_TP, grp, t, b->tg->tr.act_bytes, NULL, NULL);
		for (uint32_t r = 0; r < t; r++)
			b->arbase[grp[r]] = base;
	}
}

/* each tensor rank's expert group (the same rank of the ng groups)
 * exchanges its tokens: every GPU sends a2a_bytes to each other */
static void ep_alltoall(struct build *b)
{
	const struct scn_training *tr = &b->tg->tr;
	uint32_t t = tr->t, n = b->ng;
	for (uint32_t r = 0; n > 1 && r < t; r++) {
		uint32_t base = b->tg->nops;
		for (uint32_t j = 0; j < n; j++)
			for (uint32_t i = 0; i < n; i++) {
				if (i == j)
					continue;
				uint32_t g = b->sg[j] + r, h = b->sg[i] + r;
				uint32_t u = new_msg(b, SCN_TRAIN_EP,
						     b->tg->a2a_first + g * (n - 1) + (i < j ? i : i - 1),
						     g, h, tr->a2a_bytes);
				wait_for_gpu(b, g, u);
			}
		for (uint32_t x = 0; x < n; x++)
			b->a2abase[b->sg[x] + r] = base;
	}
}

/* micro-batch i's sends of the groups to the same ranks `stride` away (the
 * next or previous stage) once their data is ready; into send[g * m + i] */
static void pp_send(struct build *b, int64_t stride, int q, uint32_t *send, uint32_t i)
{
	const struct scn_training *tr = &b->tg->tr;
	for (uint32_t x = 0; x < b->ng; x++)
		for (uint32_t r = 0; r < tr->t; r++) {
			uint32_t g = b->sg[x] + r;
			uint32_t u = new_msg(b, SCN_TRAIN_PP, qp_of(b, q, g), g,
					     (uint32_t)((int64_t)g + stride), tr->act_bytes);
			wait_for_gpu(b, g, u);
			send[(size_t)g * tr->m + i] = u;
		}
}

static void no_first(struct build *b)
{
	for (uint32_t x = 0; x < b->ng * b->tg->tr.t; x++)
		b->first[x] = NONE;
}

/* into arr[g * m + i]: the groups' first blocks of micro-batch i */
static void keep_first(struct build *b, uint32_t *arr, uint32_t i)
{
	uint32_t t = b->tg->tr.t;
	for (uint32_t x = 0; x < b->ng; x++)
		for (uint32_t r = 0; r < t; r++)
			arr[(size_t)(b->sg[x] + r) * b->tg->tr.m + i] = b->first[x * t + r];
}

/* micro-batch i's forward at stage s */
static void forward(struct build *b, uint32_t s, uint32_t i)
{
	const struct scn_training *tr = &b->tg->tr;
	no_first(b);
	b->mb = i;
	for (uint32_t l = 0; l < tr->lps; l++) {
		b->layer = (int32_t)l;
		blocks(b, COLL_ATTN_F, tr->attn_f_ps, b->first);
		tp_allreduce(b);
		ep_alltoall(b); /* dispatch */
		blocks(b, COLL_MLP_F, tr->mlp_f_ps, NULL);
		ep_alltoall(b); /* combine */
		tp_allreduce(b);
	}
	b->layer = -1;
	if (s + 1 == tr->p && tr->out_f_ps)
		blocks(b, COLL_OUT_F, tr->out_f_ps, NULL);
	keep_first(b, b->f_first, i);
	if (s + 1 < tr->p)
		pp_send(b, (int64_t)tr->t * tr->d, Q_FWD, b->f_send, i);
}

/* on the last micro-batch: the buckets of kind e that local layer l's
 * backward (-1: the output layer's) completes, from *k on */
static void fill_buckets(struct build *b, uint32_t s, int e, int32_t l, uint32_t *k)
{
	struct buckets *bk = &b->bk[e];
	const int32_t *at = &bk->blayer[(size_t)s * bk->nbmax];
	for (; bk->nb && *k < bk->nb[s] && at[*k] == l; ++*k)
		for (uint32_t x = 0; x < b->ng; x++)
			for (uint32_t r = 0; r < b->tg->tr.t; r++) {
				uint32_t g = b->sg[x] + r;
				bk->at[(size_t)g * bk->nbmax + *k] = b->cprev[g];
			}
}

/* micro-batch i's backward at stage s; the last one fills the buckets */
static void backward(struct build *b, uint32_t s, uint32_t i)
{
	const struct scn_training *tr = &b->tg->tr;
	uint32_t k[2] = { 0, 0 };
	int last = i + 1 == tr->m;
	no_first(b);
	b->mb = i;
	b->layer = -1;
	if (s + 1 == tr->p && tr->out_b_ps)
		blocks(b, COLL_OUT_B, tr->out_b_ps, b->first);
	if (last)
		fill_buckets(b, s, 0, -1, &k[0]);
	for (int32_t l = (int32_t)tr->lps - 1; l >= 0; l--) {
		b->layer = l;
		ep_alltoall(b); /* the combine's gradients */
		blocks(b, COLL_MLP_B, tr->mlp_b_ps, b->first);
		if (last && tr->E) /* the experts' gradients are complete */
			fill_buckets(b, s, 1, l, &k[1]);
		ep_alltoall(b); /* the dispatch's */
		tp_allreduce(b);
		blocks(b, COLL_ATTN_B, tr->attn_b_ps, NULL);
		if (last) /* the layer's own gradients are complete */
			fill_buckets(b, s, 0, l, &k[0]);
		tp_allreduce(b);
	}
	keep_first(b, b->b_first, i);
	if (s > 0)
		pp_send(b, -(int64_t)tr->t * tr->d, Q_BWD, b->b_send, i);
}

/* the 1F1B schedule of the groups at stage s */
static void schedule(struct build *b, uint32_t s)
{
	const struct scn_training *tr = &b->tg->tr;
	uint32_t m = tr->m, w = tr->p - s - 1 < m ? tr->p - s - 1 : m;
	for (uint32_t i = 0; i < w; i++)
		forward(b, s, i);
	for (uint32_t i = 0; i + w < m; i++) {
		forward(b, s, i + w);
		backward(b, s, i);
	}
	for (uint32_t i = m - w; i < m; i++)
		backward(b, s, i);
}

/* the pipeline's messages wait for their receivers' blocks: activations
 * before micro-batch i's forward on the next stage, gradients before its
 * backward on the previous one */
static void pipeline_deps(struct build *b)
{
	const struct scn_training *tr = &b->tg->tr;
	uint32_t stride = tr->t * tr->d, N = b->tg->N;
	for (uint32_t g = 0; g < N; g++)
		for (uint32_t i = 0; i < tr->m; i++) {
			size_t x = (size_t)g * tr->m + i;
			if (g + stride < N)
				dep(b, b->f_send[x], b->f_first[x + (size_t)stride * tr->m]);
			if (g >= stride)
				dep(b, b->b_send[x], b->b_first[x - (size_t)stride * tr->m]);
		}
}

/* the buckets of kind e of each (stage, tensor rank) all-reduced over the
 * replicas that hold the same parameters (every replica; for the experts
 * those of the same expert group position), one after another */
static void dp_rings(struct build *b, int e)
{
	const struct scn_training *tr = &b->tg->tr;
	struct buckets *bk = &b->bk[e];
	uint32_t t = tr->t, d = tr->d, step = e ? tr->ep : 1, n = d / step;
	uint32_t *grp = malloc(n * sizeof(*grp)), *data = malloc(n * sizeof(*data)),
		 *after = malloc(n * sizeof(*after));
	int64_t *bytes = malloc(bk->nbmax * sizeof(*bytes));
	int32_t *at = malloc(bk->nbmax * sizeof(*at));
	if (!grp || !data || !after || !bytes || !at)
		b->oom = 1;
	/* sharded: the last step of the reduce-scatter, n - 2, is the
	 * barrier of the all-gathers */
	int sharded = b->tg->sharded;
	uint32_t wait_step = sharded ? n - 2 : 2 * (n - 1) - 1;
	for (uint32_t s = 0; !b->oom && n > 1 && s < tr->p; s++)
		for (uint32_t x = 0; x < step; x++)
			for (uint32_t r = 0; r < t; r++) {
				uint32_t nb = scn_training_buckets(tr, b->tg->bucket, s, e, bytes, at,
								   bk->nbmax);
				for (uint32_t j = 0; j < n; j++) {
					grp[j] = r + t * (x + step * j + d * s);
					after[j] = NONE;
				}
				uint32_t first = b->tg->nops;
				for (uint32_t k = 0; k < nb; k++) {
					for (uint32_t j = 0; j < n; j++)
						data[j] = bk->at[(size_t)grp[j] * bk->nbmax + k];
					uint32_t base = ring(b, SCN_TRAIN_DP, e ? Q_EDP : Q_DP, grp, n,
							     bytes[k], data, after);
					/* the next bucket's ring starts at j once this one's
					 * last message for j (sharded: of its reduce-
					 * scatter) has arrived */
					for (uint32_t j = 0; j < n; j++)
						after[j] = base + wait_step * n + (j + n - 1) % n;
				}
				/* sharded: every bucket's all-gather from j waits for the
				 * last bucket's reduce-scatter at j (the optimizer has
				 * all of its shard) */
				for (uint32_t k = 0; sharded && k < nb; k++)
					for (uint32_t j = 0; j < n; j++)
						dep(b, after[j],
						    first + k * 2 * (n - 1) * n + (n - 1) * n + j);
			}
	free(grp);
	free(data);
	free(after);
	free(bytes);
	free(at);
}

/* the (from, to) pairs as each operation's out-edges, and its count of
 * dependencies */
static int edges(struct build *b)
{
	struct training *tg = b->tg;
	tg->edge = malloc((b->npairs ? b->npairs : 1) * sizeof(*tg->edge));
	if (!tg->edge)
		return -1;
	for (uint64_t e = 0; e < b->npairs; e++) {
		tg->ops[b->pair[e][0]].nout++;
		tg->ops[b->pair[e][1]].ndeps++;
	}
	uint32_t at = 0;
	for (uint32_t u = 0; u < tg->nops; u++) {
		tg->ops[u].out = at;
		at += tg->ops[u].nout;
		tg->ops[u].nout = 0;
	}
	for (uint64_t e = 0; e < b->npairs; e++) {
		struct op *o = &tg->ops[b->pair[e][0]];
		tg->edge[o->out + o->nout++] = b->pair[e][1];
	}
	tg->roots = malloc(tg->N * sizeof(*tg->roots));
	if (!tg->roots)
		return -1;
	for (uint32_t u = 0; u < tg->nops; u++)
		if (!tg->ops[u].ndeps) {
			SIM_INVARIANT(tg->nroots < tg->N && tg->ops[u].kind == OP_COMPUTE,
				      "a training step's only roots are its GPUs' first blocks");
			tg->roots[tg->nroots++] = u;
		}
	return 0;
}

static void build_free(struct build *b)
{
	free(b->pair);
	free(b->cprev);
	free(b->arbase);
	free(b->a2abase);
	free(b->f_first);
	free(b->f_send);
	free(b->b_first);
	free(b->b_send);
	for (int e = 0; e < 2; e++) {
		free(b->bk[e].nb);
		free(b->bk[e].blayer);
		free(b->bk[e].at);
	}
	free(b->sg);
	free(b->grp);
	free(b->first);
}

/* the buckets of kind e: their layers by stage, the blocks that fill them */
static int buckets_of(struct build *b, int e)
{
	const struct scn_training *tr = &b->tg->tr;
	struct buckets *bk = &b->bk[e];
	if (e && !tr->E)
		return 0;
	for (uint32_t s = 0; s < tr->p; s++) {
		uint32_t nb = scn_training_buckets(tr, b->tg->bucket, s, e, NULL, NULL, 0);
		bk->nbmax = nb > bk->nbmax ? nb : bk->nbmax;
	}
	bk->nb = malloc(tr->p * sizeof(uint32_t));
	bk->blayer = malloc((size_t)tr->p * bk->nbmax * sizeof(int32_t));
	bk->at = malloc((size_t)b->tg->N * bk->nbmax * sizeof(uint32_t));
	int64_t *bytes = malloc(bk->nbmax * sizeof(int64_t));
	if (!bk->nb || !bk->blayer || !bk->at || !bytes) {
		free(bytes);
		return -1;
	}
	memset(bk->at, 0xff, (size_t)b->tg->N * bk->nbmax * sizeof(uint32_t));
	for (uint32_t s = 0; s < tr->p; s++)
		bk->nb[s] = scn_training_buckets(tr, b->tg->bucket, s, e, bytes,
						 &bk->blayer[(size_t)s * bk->nbmax], bk->nbmax);
	free(bytes);
	return 0;
}

/* the step's graph: the schedule of every expert group's tensor groups,
 * the pipeline's dependencies, the buckets' rings; 0, or -1 when out of
 * memory */
static int graph(struct training *tg)
{
	const struct scn_training *tr = &tg->tr;
	uint32_t N = tg->N, m = tr->m, ep = tr->E ? tr->ep : 1;
	struct build b = { .tg = tg, .ng = ep };
	size_t nm = (size_t)N * m;
	b.cprev = malloc(N * sizeof(uint32_t));
	b.arbase = malloc(N * sizeof(uint32_t));
	b.a2abase = malloc(N * sizeof(uint32_t));
	b.f_first = malloc(nm * sizeof(uint32_t));
	b.f_send = malloc(nm * sizeof(uint32_t));
	b.b_first = malloc(nm * sizeof(uint32_t));
	b.b_send = malloc(nm * sizeof(uint32_t));
	b.sg = malloc(ep * sizeof(uint32_t));
	b.grp = malloc(tr->t * sizeof(uint32_t));
	b.first = malloc((size_t)ep * tr->t * sizeof(uint32_t));
	if (!b.cprev || !b.arbase || !b.a2abase || !b.f_first || !b.f_send || !b.b_first ||
	    !b.b_send || !b.sg || !b.grp || !b.first || buckets_of(&b, 0) || buckets_of(&b, 1)) {
		build_free(&b);
		return -1;
	}
	memset(b.cprev, 0xff, N * sizeof(uint32_t));
	memset(b.arbase, 0xff, N * sizeof(uint32_t));
	memset(b.a2abase, 0xff, N * sizeof(uint32_t));
	memset(b.f_send, 0xff, nm * sizeof(uint32_t));
	memset(b.b_send, 0xff, nm * sizeof(uint32_t));
	for (uint32_t s = 0; s < tr->p; s++)
		for (uint32_t d = 0; d < tr->d; d += ep) {
			for (uint32_t x = 0; x < ep; x++)
				b.sg[x] = tr->t * (d + x + tr->d * s);
			schedule(&b, s);
		}
	pipeline_deps(&b);
	dp_rings(&b, 0);
	if (tr->E)
		dp_rings(&b, 1);
	SIM_INVARIANT(b.npairs < UINT32_MAX, "a training step of %llu dependencies",
		      (unsigned long long)b.npairs);
	int rc = b.oom || edges(&b) ? -1 : 0;
	build_free(&b);
	return rc;
}

/* ---- running it ---- */

/* dependency `from` of operation u is met at `at`: u may be ready */
static void meet(struct training *tg, struct stack *st, uint32_t u, sim_time_ps at,
		 uint32_t from)
{
	struct op *o = &tg->ops[u];
	if (at > o->ready) {
		o->ready = at;
		o->block = from;
	}
	if (--o->left == 0) {
		st->a = traffic_grow(st->a, &st->cap, st->n, sizeof(*st->a));
		st->a[st->n++] = u;
	}
}

/* a block runs: after the GPU's previous block and its dependencies; the
 * wait between them is charged to the dependency that came last (a
 * pipeline message's: the bubble until it was sent, then its transfer) */
static void run_block(struct training *tg, struct stack *st, uint32_t u)
{
	struct op *o = &tg->ops[u];
	struct gpu *gp = &tg->gpus[o->gpu];
	sim_time_ps start = traffic_later(o->ready, gp->free_ps), gap = start - gp->free_ps;
	if (gap > 0) {
		const struct op *bl = &tg->ops[o->block];
		SIM_INVARIANT(bl->kind == OP_MSG, "a block waited for its own GPU");
		if (bl->cls == SCN_TRAIN_PP) {
			sim_time_ps bub = bl->t - gp->free_ps;
			bub = bub < 0 ? 0 : bub > gap ? gap : bub;
			gp->bubble_ps += bub;
			gap -= bub;
		}
		gp->wait_ps[bl->cls] += gap;
	}
	o->t = start + o->amount;
	gp->compute_ps += o->amount;
	gp->free_ps = o->t;
	for (uint32_t e = 0; e < o->nout; e++)
		meet(tg, st, tg->edge[o->out + e], o->t, u);
}

/* a message leaves at its ready time, decided at `sched` */
static void send_msg(struct traffic *t, struct traffic_job *jb, uint32_t u, sim_time_ps sched)
{
	struct training *tg = jb->pat;
	struct op *o = &tg->ops[u];
	if (jb->failed)
		return;
	o->t = o->ready;
	struct flow *fl = traffic_msg(t, jb, o->msg, jb->qps[o->qp], o->amount, o->t);
	fl->pos[0] = u;
	nic_post_at(t->net, fl, sched);
}

/* everything ready on stack st, decided at `sched` */
static void drain(struct traffic *t, struct traffic_job *jb, struct stack *st, sim_time_ps sched)
{
	struct training *tg = jb->pat;
	while (st->n) {
		uint32_t u = st->a[--st->n];
		if (tg->ops[u].kind == OP_COMPUTE)
			run_block(tg, st, u);
		else
			send_msg(t, jb, u, sched);
	}
}

static void training_release(struct traffic *t, struct traffic_job *jb, sim_time_ps sched)
{
	struct training *tg = jb->pat;
	for (uint32_t u = 0; u < tg->nops; u++) {
		struct op *o = &tg->ops[u];
		o->left = o->ndeps;
		o->ready = -1;
		o->block = NONE;
	}
	for (uint32_t g = 0; g < tg->N; g++) {
		sim_time_ps start = traffic_rank_start(t, jb, g);
		tg->gpus[g] = (struct gpu){ .free_ps = start, .other_ps = start - jb->release_ps };
		for (int k = 0; k < SCN_TRAIN_KINDS; k++)
			tg->gpus[g].last_arr[k] = -1;
	}
	for (uint32_t k = 0; k < tg->nroots; k++) {
		uint32_t u = tg->roots[k];
		struct stack *st = &tg->stacks[traffic_part_of(t, traffic_rank_host(jb, tg->ops[u].gpu))];
		st->a = traffic_grow(st->a, &st->cap, st->n, sizeof(*st->a));
		st->a[st->n++] = u;
		drain(t, jb, st, sched);
	}
}

/* a message arrived at its receiver (on its partition's thread) */
static void training_arrived(struct traffic *t, struct traffic_part *tp, struct traffic_job *jb,
			     const struct flow *fl, struct sim_order tag)
{
	struct training *tg = jb->pat;
	uint32_t u = fl->pos[0];
	struct op *o = &tg->ops[u];
	struct stack *st = &tg->stacks[tp->index];
	struct gpu *gp = &tg->gpus[o->peer];
	o->t = fl->start_ps; /* its start, as its sender set it (run_block reads it here) */
	gp->last_arr[o->cls] = traffic_later(gp->last_arr[o->cls], tag.time);
	for (uint32_t e = 0; e < o->nout; e++)
		meet(tg, st, tg->edge[o->out + e], tag.time, u);
	drain(t, jb, st, tag.time);
}

/* a run split over processes: the GPUs of partition part and their
 * blocks' ends, which the step's account reads (training_step) */
static void training_pack(const struct traffic *t, const struct traffic_job *jb, uint32_t part,
			  struct bytes *b)
{
	const struct training *tg = jb->pat;
	for (uint32_t g = 0; g < tg->N; g++)
		if (traffic_part_of(t, traffic_rank_host(jb, g)) == part) {
			bytes_u32(b, g);
			bytes_put(b, &tg->gpus[g], sizeof(tg->gpus[g]));
		}
	bytes_u32(b, NONE);
	for (uint32_t u = 0; u < tg->nops; u++) {
		const struct op *o = &tg->ops[u];
		if (o->kind == OP_COMPUTE && traffic_part_of(t, traffic_rank_host(jb, o->gpu)) == part) {
			bytes_u32(b, u);
			bytes_put(b, &o->t, sizeof(o->t));
		}
	}
	bytes_u32(b, NONE);
}

static void training_unpack(struct traffic *t, struct traffic_job *jb, uint32_t part,
			    struct bytes_in *in)
{
	struct training *tg = jb->pat;
	(void)t;
	(void)part;
	for (uint32_t g; (g = bytes_get_u32(in)) != NONE;) {
		SIM_INVARIANT(g < tg->N, "another rank sent GPU %u of %u", g, tg->N);
		bytes_get(in, &tg->gpus[g], sizeof(tg->gpus[g]));
	}
	for (uint32_t u; (u = bytes_get_u32(in)) != NONE;) {
		SIM_INVARIANT(u < tg->nops, "another rank sent operation %u of %u", u, tg->nops);
		bytes_get(in, &tg->ops[u].t, sizeof(tg->ops[u].t));
	}
}

/* the blocks of each stage's first rank, in the order they ran (NULL when
 * out of memory: the timeline is left out) */
static void timeline(const struct training *tg, struct coll_step *cs)
{
	uint32_t stride = tg->tr.t * tg->tr.d, n = 0;
	for (uint32_t u = 0; u < tg->nops; u++)
		n += tg->ops[u].kind == OP_COMPUTE && tg->ops[u].gpu % stride == 0;
	cs->blocks = malloc((n ? n : 1) * sizeof(*cs->blocks));
	if (!cs->blocks)
		return;
	for (uint32_t u = 0; u < tg->nops; u++) {
		const struct op *o = &tg->ops[u];
		if (o->kind != OP_COMPUTE || o->gpu % stride)
			continue;
		cs->blocks[cs->nblocks++] = (struct coll_block){
			.stage = o->gpu / stride, .rank = o->gpu, .mb = o->msg / 8,
			.layer = (int32_t)o->qp, .kind = (uint8_t)(o->msg % 8),
			.start_ps = o->t - o->amount, .end_ps = o->t };
	}
}

/* the step's end: when its last GPU is done, and that GPU's account
 * (between windows, or on the thread of the job's one partition) */
static void training_step(struct traffic *t, struct traffic_job *jb, struct coll_step *cs,
			  sim_time_ps *end, uint32_t *host)
{
	struct training *tg = jb->pat;
	sim_time_ps best = -1;
	uint32_t crit = 0;
	for (uint32_t g = 0; g < tg->N; g++) {
		const struct gpu *gp = &tg->gpus[g];
		sim_time_ps fin = gp->free_ps;
		for (int k = 0; k < SCN_TRAIN_KINDS; k++)
			fin = traffic_later(fin, gp->last_arr[k]);
		if (fin > best) {
			best = fin;
			crit = g;
		}
	}
	const struct gpu *gp = &tg->gpus[crit];
	*cs = (struct coll_step){ .valid = 1, .gpu = crit, .compute_ps = gp->compute_ps,
				  .bubble_ps = gp->bubble_ps, .other_ps = gp->other_ps };
	for (int k = 0; k < SCN_TRAIN_KINDS; k++) {
		cs->exposed_ps[k] = gp->wait_ps[k];
		cs->msgs[k] = tg->msgs[k];
		cs->bytes[k] = tg->bytes[k];
	}
	/* after its last block: the tensor all-reduce it waits for, then the
	 * buckets' all-reduces */
	sim_time_ps tpe = traffic_later(gp->free_ps, gp->last_arr[SCN_TRAIN_TP]);
	cs->exposed_ps[SCN_TRAIN_TP] += tpe - gp->free_ps;
	cs->exposed_ps[SCN_TRAIN_DP] += traffic_later(tpe, best) - tpe;
	(void)t;
	*end = best;
	*host = traffic_rank_host(jb, crit);
	timeline(tg, cs);
}

/* ---- set-up ---- */

static void dims(const struct scn_job *j, struct scn_training *tr)
{
	char e[400];
	int rc = scn_training_dims(j, j->ranks.n, tr, e, sizeof(e));
	SIM_INVARIANT(rc == 0, "job.%s: %s (the loader checks it)", j->name, e);
}

static int training_build(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	struct training *tg = jb->pat = calloc(1, sizeof(*tg));
	if (!tg)
		return -1;
	dims(j, &tg->tr);
	tg->N = jb->n = jb->ranks = j->ranks.n;
	tg->bucket = j->bucket_bytes;
	tg->sharded = j->optimizer == SCN_OPT_SHARDED;
	tg->nparts = t->nparts;
	tg->stacks = calloc_lines(t->nparts, sizeof(*tg->stacks));
	tg->gpus = calloc_lines(tg->N, sizeof(*tg->gpus));
	tg->qmap = malloc((size_t)Q_KINDS * tg->N * sizeof(*tg->qmap));
	if (!tg->stacks || !tg->gpus || !tg->qmap)
		return -1;
	/* the QPs' places in jb->qps, in the order open_qps makes them */
	uint32_t nq = 0, stride = tg->tr.t * tg->tr.d, ep = tg->tr.E ? tg->tr.ep : 1;
	for (int q = 0; q < Q_KINDS; q++)
		for (uint32_t g = 0; g < tg->N; g++) {
			int has = q == Q_TP	 ? tg->tr.t > 1
				  : q == Q_FWD ? g + stride < tg->N
				  : q == Q_BWD ? g >= stride
				  : q == Q_DP  ? tg->tr.d > 1
					       : tg->tr.E && tg->tr.d / ep > 1;
			tg->qmap[q * tg->N + g] = has ? nq++ : NONE;
		}
	tg->a2a_first = nq;
	if (graph(tg))
		return -1;
	scn_training_messages(&tg->tr, tg->bucket, tg->msgs, tg->bytes);
	uint64_t msgs = 0;
	jb->msg_bytes = 0;
	for (int k = 0; k < SCN_TRAIN_KINDS; k++) {
		msgs += tg->msgs[k];
		jb->msg_bytes += (int64_t)tg->bytes[k];
	}
	jb->per_iter = 0;
	for (uint32_t u = 0; u < tg->nops; u++)
		jb->per_iter += tg->ops[u].kind == OP_MSG;
	SIM_INVARIANT(jb->per_iter == msgs, "a training step of %llu messages, formula %llu",
		      (unsigned long long)jb->per_iter, (unsigned long long)msgs);
	jb->iter_bytes = jb->msg_bytes;
	return 0;
}

/* the rank one hop along a QP of kind q from g */
static uint32_t qp_peer(const struct training *tg, int q, uint32_t g)
{
	uint32_t t = tg->tr.t, stride = t * tg->tr.d;
	switch (q) {
	case Q_TP:
		return g - g % t + (g % t + 1) % t;
	case Q_FWD:
		return g + stride;
	case Q_BWD:
		return g - stride;
	default: { /* the next replica of the same stage, tensor rank (and
		  * experts: ep replicas on) */
		uint32_t r = g % t, d = (g / t) % tg->tr.d, s = g / stride;
		uint32_t step = q == Q_EDP ? tg->tr.ep : 1;
		return r + t * ((d + step) % tg->tr.d + tg->tr.d * s);
	}
	}
}

/* the rank of g's k-th all-to-all QP: the k-th other one of its expert
 * group */
static uint32_t a2a_peer(const struct training *tg, uint32_t g, uint32_t k)
{
	uint32_t t = tg->tr.t, j = (g / t) % tg->tr.d % tg->tr.ep, i = k < j ? k : k + 1;
	return g + t * i - t * j;
}

static int training_open_qps(struct traffic *t, struct traffic_job *jb)
{
	struct training *tg = jb->pat;
	uint64_t n = traffic_job_qps(jb->j);
	jb->qps = malloc((n ? n : 1) * sizeof(*jb->qps));
	if (!jb->qps)
		return -1;
	for (int q = 0; q < Q_KINDS; q++)
		for (uint32_t g = 0; g < tg->N; g++) {
			uint32_t k = tg->qmap[q * tg->N + g];
			if (k != NONE && traffic_qp(t, jb, k, traffic_rank_host(jb, g),
						    traffic_rank_host(jb, qp_peer(tg, q, g)), jb->dscp))
				return -1;
		}
	for (uint32_t g = 0; tg->tr.E && tg->tr.ep > 1 && g < tg->N; g++)
		for (uint32_t k = 0; k + 1 < tg->tr.ep; k++)
			if (traffic_qp(t, jb, tg->a2a_first + (size_t)g * (tg->tr.ep - 1) + k,
				       traffic_rank_host(jb, g), traffic_rank_host(jb, a2a_peer(tg, g, k)),
				       jb->dscp))
				return -1;
	return 0;
}

/* a QP to the next tensor rank (t > 1), to the next and previous stages,
 * to the next replica (d > 1), to the next of the same experts (d / ep >
 * 1), to each other rank of its expert group */
static uint64_t training_qps(const struct scn_job *j)
{
	uint64_t n = j->ranks.n, t = j->tp, p = j->pp, d = n / (t * p);
	uint64_t ep = j->experts ? j->ep : 1;
	return (t > 1 ? n : 0) + 2 * (n / p) * (p - 1) + (d > 1 ? n : 0) +
	       (j->experts && d / ep > 1 ? n : 0) + n * (ep - 1);
}

static void training_free(void *pat)
{
	struct training *tg = pat;
	free(tg->ops);
	free(tg->edge);
	free(tg->roots);
	free(tg->qmap);
	free(tg->gpus);
	for (uint32_t p = 0; tg->stacks && p < tg->nparts; p++)
		free(tg->stacks[p].a);
	free(tg->stacks);
}

const struct traffic_pattern traffic_training = {
	.qps = training_qps,
	.receivers = traffic_ranks_n,
	.build = training_build,
	.open_qps = training_open_qps,
	.hosts = traffic_rank_hosts,
	.rank_host = traffic_rank_host,
	.release = training_release,
	.arrived = training_arrived,
	.step = training_step,
	.pack_state = training_pack,
	.unpack_state = training_unpack,
	.free = training_free,
};
