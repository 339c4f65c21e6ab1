/*
 * traffic.c - turns [job.*] sections into messages and posts them on time
 * (see traffic.h).
 *
 * Patterns (docs/model.md#traffic):
 *   trace          one message per CSV row; `after` names a row that must
 *                  finish first.  One QP per row.
 *   incast         every sender sends `size` bytes to `dst`.
 *   permutation    rank i sends `size` to rank perm(i), where perm is a
 *                  random derangement (no rank sends to itself) drawn from
 *                  the job's own stream, so it depends only on (seed, job).
 *   ring-allreduce NCCL's ring: `channels` rings, each carrying S/channels
 *                  split into n chunks; 2(n-1) steps (reduce-scatter, then
 *                  all-gather) in which rank i sends chunk (i - s) mod n to
 *                  rank i+1, cut into `slice`-byte messages; slice j of step
 *                  s+1 leaves rank i once slice j of step s from rank i-1 has
 *                  arrived.  One QP per (channel, rank), so channels hash to
 *                  their own ECMP paths.
 *   alltoall       every rank sends S/n to each other rank, all at once on
 *                  one QP per pair, or `schedule = shift`: the message to
 *                  rank i+k leaves once the one to rank i+k-1 has arrived.
 *   tree           (ring-allreduce with algorithm = tree) NCCL's double
 *                  binary tree: channel c carries S/channels in `slice`
 *                  messages; each slice is reduced up the tree (a rank
 *                  sends it to its parent once it has it from all its
 *                  children; the leaves at once) and broadcast down from
 *                  the root (a rank forwards it to its children as it
 *                  arrives).  The leaves post every slice at once (NCCL
 *                  keeps NCCL_STEPS in flight per connection).
 *   storage        NVMe-oF I/O as fio describes it: every initiator keeps
 *                  iodepth I/Os of bs bytes outstanding until it has moved
 *                  size bytes; its k-th I/O goes to target (i + k) mod
 *                  targets.  A read is a command capsule (64 B, initiator
 *                  to target), the target's media time, the data (RDMA
 *                  write, target to initiator) and a completion capsule
 *                  (16 B) behind it on the same QP; a write is the command,
 *                  an RDMA read request (16 B, target to initiator), the
 *                  data (initiator to target), the media time and the
 *                  completion.  The media time is target_latency after the
 *                  target starts the I/O, and a target starts at most one
 *                  I/O per 1 / target_iops and bs / target_bw (first come,
 *                  first served).  With rw = randrw each I/O is a read with
 *                  probability rwmixread, drawn from (seed, job, initiator,
 *                  I/O).  An I/O completes when its completion reaches the
 *                  initiator: its latency is from its command's submission.
 *                  One QP each way per (initiator, target).
 * Incast, permutation and trace messages each have their own QP; every
 * iteration reuses the job's QPs (a job's connections are set up once).
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
 * So channel c's network traffic stays on rail c mod k.  The tree is a
 * chain inside each server (up: from the block's last GPU to its entry
 * GPU, down the other way) and NCCL's double binary tree between the
 * servers' entry GPUs: channel c uses tree (c / gpus_per_server) mod 2,
 * so that with 2 x gpus_per_server channels every rail carries both trees
 * (tree 1 mirrors tree 0 for an even count of servers, shifts it by one
 * for an odd one, so that a server is inner in at most one of them).
 * With one GPU per server every block is one rank: rings follow the rank
 * list, trees alternate by channel.  All-to-all, incast, permutation and
 * traces send between GPUs of one server over NVLink and otherwise from
 * the GPU's own NIC.
 *
 * QPs per connection (qps_per_connection = Q, NCCL_IB_QPS_PER_CONNECTION):
 * every connection of a ring or tree has Q QPs, each with its own UDP
 * source port, and slice j of step s goes on QP (s + j) mod Q (NCCL's
 * round robin of messages over QPs); an all-to-all message is cut into Q
 * parts, one per QP (with `shift`, part q to the next rank waits for part
 * q to this one).
 *
 * Timing.  Iteration 0 of a job is released at the job's start.  Within an
 * iteration every rank (sender, trace row) starts up to `skew` late, a delay
 * drawn from (seed, job, iteration, rank), and a host named in `straggler`
 * that much later again.  A message that depends on
 * another starts at the later of its own start and the moment its sender
 * learns the other one arrived: at once when the sender is the host it
 * arrived at (the ring), else one idle control-frame latency later
 * (traffic_notify_ps: all-to-all shift, trace `after` across hosts).
 * Iteration k+1 (all ranks wait) is released compute_gap after iteration k's
 * last message arrived plus the control-frame latency from that host to the
 * job's farthest host: the end of the iteration reaches every rank before
 * the next one starts.  These latencies are what a host needs to hear of
 * something that happened at another host; they also make every effect
 * from one part of the fabric on another take at least one fabric cable's
 * propagation, which a partitioned run relies on.
 *
 * Failure.  A QP whose retries ran out (nic.h) fails its job, as a real
 * NCCL job aborts: the failure is settled at the end of the window it
 * happened in (the windows are the same for any number of threads), the
 * job then posts nothing more, reports the iteration in progress as failed
 * at the QP's error time, and counts as over; what the job already had in
 * flight drains.  The run ends once every job has completed or failed.
 *
 * Ids.  Messages are numbered in the order jobs define them: job by job,
 * iteration by iteration, and within an iteration by (channel, step, rank,
 * slice) for rings, (rank, peer) for all-to-all, by sender, rank or row for
 * the others.  Ids are computed (the ring's in O(1) from the chunk sizes),
 * never counted at run time, so a message made late has the id it would
 * have had if every message had been made at set-up.
 */
#include "models/workload/traffic.h"

#include <gsl/gsl_randist.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/invariant.h"
#include "models/base/rng.h"
#include "models/base/slab.h"
#include "models/core/link.h"
#include "models/core/topology.h"
#include "models/node/net.h"
#include "models/node/nic.h"
#include "models/scenario/scenario.h"

/* one ring channel: S/channels split into n chunks of q + 1 bytes (chunk
 * index < r) or q bytes, each cut into slices */
struct ring_channel {
	int64_t q;
	uint32_t r;
	uint32_t m_big, m_small;       /* slices of a big or small chunk */
	uint64_t per_step;             /* messages of one step: r m_big + (n - r) m_small */
	uint64_t first;                /* id offset of the channel in its iteration */
};

/* storage: the phases of an I/O (message index = I/O x 4 + phase) */
enum { IO_CMD, IO_RREQ, IO_DATA, IO_CPL, IO_PHASES };
#define IO_CMD_BYTES 64   /* NVMe-oF command capsule (a submission queue entry) */
#define IO_SMALL_BYTES 16 /* completion capsule; RDMA read request */

/* storage: an I/O in flight in one of an initiator's iodepth slots */
struct io_slot {
	uint64_t io;
	sim_time_ps submit_ps;
	uint8_t read;
};

struct storage {
	uint32_t ninit, ntgt;
	const uint32_t *init, *tgt;    /* hosts */
	uint64_t nios;                 /* I/Os per initiator and iteration: ceil(size / bs) */
	int64_t last_bytes;            /* the last one's bytes */
	uint64_t *next;                /* per initiator: its next I/O */
	uint32_t *nfree, *free;        /* per initiator: free slots, a stack of iodepth */
	struct io_slot *slot;          /* [initiator x iodepth] */
	sim_time_ps *tgt_free;         /* per target: when it may start another I/O */
	uint8_t *halted;               /* per initiator: submits nothing more this iteration */
	uint32_t *qp;                  /* [(initiator x ntgt + target) x 2]: to the target, back */
};

/* one tree channel: its bytes in `slices` messages per edge and phase */
struct tree_channel {
	int64_t bytes;
	uint32_t slices;
	uint32_t root;                 /* rank index */
	uint64_t first;                /* id offset of the channel in its iteration */
	uint64_t cnt_first;            /* its slices' counters in cnt[] */
};

struct traffic_job {
	/* on lines of its own: a job within one partition counts its
	 * completions here, on that partition's thread */
	_Alignas(64) const struct scn_job *j;
	uint32_t index;
	uint32_t n;                    /* ranks, senders or rows */
	uint32_t steps;                /* ring: 2(n - 1) */
	uint32_t nq;                   /* QPs per connection */
	uint8_t dscp;
	uint8_t tree;                  /* ring-allreduce by the tree algorithm */
	int64_t line_bps;              /* the line rate busbw_pct_line compares to */
	uint32_t *qps;                 /* the job's QPs (layout by pattern) */
	uint32_t *order;               /* ring, tree: rank index at position i of channel
					* c, [c * n + i] */
	/* tree, [c * n + r] by rank index: the parent (UINT32_MAX: root), the
	 * inputs of the reduce phase, the children ([kid_off[c * (n + 1) + r],
	 * kid_off[.. + r + 1]) of kids[c * n ..]); slices' reduce counters */
	struct tree_channel *tch;
	uint32_t *tparent, *kid_off, *kids;
	uint8_t *nup, *cnt;
	struct storage *st;            /* storage */
	uint8_t open_ended;            /* storage with a runtime or randrw: how many
					* messages an iteration has is known only when
					* every initiator has stopped (halted) and they
					* have arrived */
	uint64_t expected;             /* open-ended: messages of the I/Os submitted */
	uint64_t expected_past;        /* and of the iterations before */
	int64_t moved;                 /* open-ended: the bytes of the I/Os submitted */
	uint32_t halted;               /* open-ended: initiators stopped */
	uint64_t id_stride;            /* ids of one iteration (per_iter but for storage:
					* 4 per I/O, whose reads take 3) */
	uint32_t *perm;                /* permutation: the derangement */
	struct ring_channel *ch;       /* ring: per channel */
	struct flow **rows;            /* trace: the iteration's messages by row */
	uint32_t *hosts;               /* every host of the job (barrier latency) */
	uint32_t nhosts;
	uint64_t per_iter;             /* messages of one iteration */
	uint64_t base;                 /* id of iteration 0's first message */
	uint32_t ranks, senders;       /* as collectives.csv reports them */
	int64_t iter_bytes;            /* size of an iteration as collectives.csv reports it */
	int64_t msg_bytes;             /* payload of an iteration's messages */
	uint8_t spread;                /* its hosts are in more than one partition */
	uint8_t complete;              /* its last iteration completed */
	uint8_t failed;                /* a QP failed (settled between windows) */
	/* the iteration in progress */
	uint32_t iter;
	sim_time_ps release_ps;
	uint64_t done;
	struct sim_order last;         /* its latest completion, and where */
	uint32_t last_host;
};

/* what a partition's thread learns in a window and leaves for its end */
struct traffic_part {
	/* on lines of its own: the partitions' threads write theirs at every
	 * completion, and a neighbour's pending flag on the line of this one's
	 * t made every completion move the line between the cores */
	_Alignas(64) struct traffic *t;
	struct net *net;
	uint32_t index;
	uint64_t done;                 /* messages completed here (also net->flows_done) */
	sim_time_ps last_done_ps;
	/* posts for other partitions: messages that waited for one completed
	 * here (trace `after`, all-to-all shift) */
	struct notice {
		struct sim_order tag;      /* the event that completed it */
		uint32_t seq;              /* within that event */
		uint32_t job, rank, k, q;  /* all-to-all: part q of rank's message to rank + k */
		struct flow *fl;           /* trace: the message waiting */
		sim_time_ps start_ps;
	} *notices;
	uint32_t nnotices, notices_cap;
	/* completions of jobs spread over partitions, by job */
	struct spread_done {
		uint64_t count;
		uint64_t expected;     /* open-ended storage: messages submitted here, */
		int64_t moved;         /* their I/Os' bytes */
		uint32_t halted;       /* and initiators stopped here */
		struct sim_order last;
		uint32_t last_host;
	} *spread;
	/* QPs that failed here in the window */
	struct qp_fail {
		struct sim_order tag;
		uint32_t job, qp;
		sim_time_ps progress_ps;
	} *fails;
	uint32_t nfails, fails_cap;
	/* iterations that completed here, to report in order at the window's end */
	struct done_coll {
		struct coll c;
		struct sim_order tag;
	} *colls;
	uint32_t ncolls, colls_cap;
	/* storage I/Os that completed here, likewise */
	struct done_io {
		struct traffic_io io;
		struct sim_order tag;
	} *ios;
	uint32_t nios, ios_cap;
	/* one of the lists above got something in this window (a window
	 * with nothing to settle is most of them), or its messages completed
	 * the traffic's count (the run may end with the window) */
	uint8_t pending;
};

static void *grow(void *a, uint32_t *cap, uint32_t n, size_t elem)
{
	if (n < *cap)
		return a;
	uint32_t c = *cap ? 2 * *cap : 16;
	void *b = realloc(a, c * elem);
	SIM_INVARIANT(b, "out of memory for the traffic's bookkeeping");
	*cap = c;
	return b;
}

/* ---- ids, skew, latency ---- */

/* split `total` into `parts` near-equal parts: part k */
static int64_t part(int64_t total, uint32_t parts, uint32_t k)
{
	return total / parts + ((int64_t)k < total % parts);
}

/* ring: slices of the chunk with index idx */
static uint32_t ring_slices(const struct ring_channel *ch, uint32_t idx)
{
	return idx < ch->r ? ch->m_big : ch->m_small;
}

/* ring: bytes of slice sl of chunk idx */
static int64_t ring_slice_bytes(const struct traffic_job *jb, const struct ring_channel *ch,
				uint32_t idx, uint32_t sl)
{
	int64_t chunk = ch->q + (idx < ch->r), slice = jb->j->slice_bytes;
	int64_t left = chunk - (int64_t)sl * slice;
	return left < slice ? left : slice;
}

/* ring: how many of ranks 0..i-1 send a big chunk at step s: the ranks i'
 * with (i' - s) mod n < r, a cyclic run of r ranks from s mod n */
static uint64_t ring_big_before(uint32_t n, uint32_t r, uint32_t s, uint32_t i)
{
	uint32_t a = s % n;
	if (a + r <= n)
		return i > a ? (i < a + r ? i : a + r) - a : 0;
	return (i > a ? i - a : 0) + (i < a + r - n ? i : a + r - n);
}

/* ring: id offset, in its iteration, of channel c, step s, rank i, slice 0 */
static uint64_t ring_index(const struct traffic_job *jb, uint32_t c, uint32_t s, uint32_t i)
{
	const struct ring_channel *ch = &jb->ch[c];
	uint64_t big = ring_big_before(jb->n, ch->r, s, i);
	return ch->first + (uint64_t)s * ch->per_step + (uint64_t)i * ch->m_small +
	       big * (ch->m_big - ch->m_small);
}

static uint64_t msg_id(const struct traffic_job *jb, uint32_t iter, uint64_t index)
{
	return jb->base + (uint64_t)iter * jb->id_stride + index;
}

sim_time_ps traffic_skew_ps(const struct traffic *t, uint32_t job, uint32_t iter, uint32_t idx)
{
	sim_time_ps skew = t->jobs[job].j->skew_ps;
	if (!skew)
		return 0;
	uint64_t x = rng_derive(rng_derive(t->scn->seed, RNG_ID(RNG_SKEW, (uint64_t)job << 32 |
										   iter)),
				idx);
	double u = (double)(x >> 11) * 0x1p-53; /* uniform in [0, 1) */
	return (sim_time_ps)(u * (double)skew + 0.5);
}

/* a 64 B control frame on a link at rate_bps: its serialization (rounded
 * up) and the cable */
static sim_time_ps ctrl_hop_ps(int64_t rate_bps, sim_time_ps prop_ps)
{
	int64_t bits = (PKT_CTRL_FRAME_BYTES + PKT_WIRE_OVERHEAD_BYTES) * 8;
	return (bits * UNITS_PS_PER_S + rate_bps - 1) / rate_bps + prop_ps;
}

sim_time_ps traffic_notify_ps(const struct traffic *t, uint32_t a, uint32_t b)
{
	if (a == b)
		return 0;
	const struct topo *tp = t->topo;
	uint32_t hops = topo_hops(tp, a, b);
	return 2 * ctrl_hop_ps(tp->host_link_bps, tp->host_prop_ps) +
	       (sim_time_ps)(hops - 1) * ctrl_hop_ps(tp->fabric_link_bps, tp->fabric_prop_ps) +
	       (sim_time_ps)hops * t->switch_latency_ps;
}

/* ---- making and posting messages ---- */

static struct flow *make(struct traffic *t, struct traffic_job *jb, uint64_t index, uint32_t qp,
			 int64_t bytes, sim_time_ps start)
{
	struct flow *fl = nic_flow_new(t->net, msg_id(jb, jb->iter, index), qp, bytes, start);
	SIM_INVARIANT(fl, "out of memory for messages");
	fl->job = jb->index;
	fl->iter = jb->iter;
	return fl;
}

static sim_time_ps later(sim_time_ps a, sim_time_ps b)
{
	return a > b ? a : b;
}

/* the host of rank (sender, row) idx */
static uint32_t rank_host(const struct traffic_job *jb, uint32_t idx)
{
	const struct scn_job *j = jb->j;
	switch (j->pattern) {
	case SCN_JOB_INCAST:
		return j->senders.hosts[idx];
	case SCN_JOB_TRACE:
		return j->rows[idx].src;
	case SCN_JOB_STORAGE:
		return j->initiators.hosts[idx];
	default:
		return j->ranks.hosts[idx];
	}
}

/* job.NAME.straggler: how late the host of rank (sender, row) idx starts */
static sim_time_ps straggle_ps(const struct traffic_job *jb, uint32_t idx)
{
	const struct scn_stragglers *st = &jb->j->stragglers;
	if (!st->n)
		return 0;
	uint32_t host = rank_host(jb, idx);
	for (uint32_t i = 0; i < st->n; i++)
		if (st->host[i] == host)
			return st->delay_ps[i];
	return 0;
}

static sim_time_ps rank_start(const struct traffic *t, const struct traffic_job *jb,
			      uint32_t idx)
{
	return jb->release_ps + traffic_skew_ps(t, jb->index, jb->iter, idx) +
	       straggle_ps(jb, idx);
}

/* ring, tree: the rank index at position i of channel c */
static uint32_t rank_at(const struct traffic_job *jb, uint32_t c, uint32_t i)
{
	return jb->order[c * jb->n + i];
}

/* ring: slice sl of channel c, step s, from position i (its chunk has
 * index idx), decided at time `sched` */
static void ring_send(struct traffic *t, struct traffic_job *jb, uint32_t c, uint32_t s,
		      uint32_t i, uint32_t sl, sim_time_ps start, sim_time_ps sched)
{
	uint32_t n = jb->n, idx = (i + n - s % n) % n;
	if (jb->failed)
		return;
	uint32_t q = jb->qps[((size_t)c * n + i) * jb->nq + (s + sl) % jb->nq];
	struct flow *fl = make(t, jb, ring_index(jb, c, s, i) + sl, q,
			       ring_slice_bytes(jb, &jb->ch[c], idx, sl), start);
	fl->pos[0] = c;
	fl->pos[1] = s;
	fl->pos[2] = i;
	fl->pos[3] = sl;
	nic_post_at(t->net, fl, sched);
}

/* tree: slice sl of channel c between rank r and its parent, up (reduce)
 * or down (broadcast) */
static void tree_send(struct traffic *t, struct traffic_job *jb, uint32_t c, uint32_t r,
		      int down, uint32_t sl, sim_time_ps start, sim_time_ps sched)
{
	const struct tree_channel *tc = &jb->tch[c];
	uint32_t n = jb->n, u = r < tc->root ? r : r - 1; /* r among the non-roots */
	if (jb->failed)
		return;
	uint32_t q = jb->qps[(((size_t)c * (n - 1) + u) * 2 + (uint32_t)down) * jb->nq + sl % jb->nq];
	int64_t slice = jb->j->slice_bytes, left = tc->bytes - (int64_t)sl * slice;
	struct flow *fl = make(t, jb, tc->first + (uint64_t)sl * 2 * (n - 1) + (uint64_t)down * (n - 1) + u,
			       q, left < slice ? left : slice, start);
	fl->pos[0] = c;
	fl->pos[1] = (uint32_t)down;
	fl->pos[2] = r;
	fl->pos[3] = sl;
	nic_post_at(t->net, fl, sched);
}

/* tree: rank r of channel c has slice sl whole: down to its children, or
 * (reduced) up to its parent, or from the root down */
static void tree_forward(struct traffic *t, struct traffic_job *jb, uint32_t c, uint32_t r,
			 int down, uint32_t sl, sim_time_ps start, sim_time_ps sched)
{
	uint32_t n = jb->n;
	if (!down && jb->tparent[c * n + r] != UINT32_MAX) {
		tree_send(t, jb, c, r, 0, sl, start, sched);
		return;
	}
	const uint32_t *off = &jb->kid_off[(size_t)c * (n + 1) + r];
	for (uint32_t k = off[0]; k < off[1]; k++)
		tree_send(t, jb, c, jb->kids[(size_t)c * n + k], 1, sl, start, sched);
}

/* all-to-all: part q of rank i's message to rank i + k */
static void a2a_send(struct traffic *t, struct traffic_job *jb, uint32_t i, uint32_t k,
		     uint32_t q, sim_time_ps start, sim_time_ps sched)
{
	uint32_t n = jb->n;
	if (jb->failed)
		return;
	struct flow *fl = make(t, jb, ((uint64_t)i * (n - 1) + (k - 1)) * jb->nq + q,
			       jb->qps[((size_t)i * n + k) * jb->nq + q],
			       part(jb->j->size_bytes / n, jb->nq, q), start);
	fl->pos[0] = i;
	fl->pos[1] = k;
	fl->pos[2] = q;
	nic_post_at(t->net, fl, sched);
}

/* ---- storage ---- */

/* is I/O io of initiator i a read (rw, or randrw's draw) */
static int io_is_read(const struct traffic *t, const struct traffic_job *jb, uint32_t i,
		      uint64_t io)
{
	const struct scn_job *j = jb->j;
	if (j->rw != SCN_RW_RANDRW)
		return j->rw == SCN_RW_READ;
	uint64_t x = rng_derive(rng_derive(t->scn->seed, RNG_ID(RNG_JOB, jb->index)),
				(uint64_t)i << 40 ^ io);
	return (double)(x >> 11) * 0x1p-53 * UNITS_PPB_ONE < (double)j->rwmixread_ppb;
}

static int64_t io_bytes(const struct storage *st, const struct scn_job *j, uint64_t io)
{
	return io + 1 == st->nios ? st->last_bytes : j->bs_bytes;
}

/* phase ph of the I/O in slot sl of initiator i, on its QP to or from the target */
static void io_send(struct traffic *t, struct traffic_job *jb, uint32_t i, uint32_t sl,
		    int ph, sim_time_ps start, sim_time_ps sched)
{
	const struct storage *st = jb->st;
	const struct io_slot *x = &st->slot[(size_t)i * jb->j->iodepth + sl];
	uint32_t tg = (uint32_t)((i + x->io) % st->ntgt);
	/* to the target: the command, a write's data; back: the rest */
	int back = ph == IO_RREQ || ph == IO_CPL || (ph == IO_DATA && x->read);
	int64_t bytes = ph == IO_CMD ? IO_CMD_BYTES : ph == IO_DATA ? io_bytes(st, jb->j, x->io)
								   : IO_SMALL_BYTES;
	if (jb->failed)
		return;
	struct flow *fl = make(t, jb, ((uint64_t)i * st->nios + x->io) * IO_PHASES + (uint64_t)ph,
			       st->qp[((size_t)i * st->ntgt + tg) * 2 + (size_t)back], bytes, start);
	fl->pos[0] = i;
	fl->pos[1] = sl;
	fl->pos[2] = (uint32_t)ph;
	fl->pos[3] = tg;
	nic_post_at(t->net, fl, sched);
}

/* what an initiator's submission adds to an open-ended job: at tp's
 * window end when the job is spread over partitions, else at once */
static void io_count(struct traffic_part *tp, struct traffic_job *jb, uint64_t msgs,
		     int64_t bytes, uint32_t halted)
{
	if (jb->spread && tp) {
		tp->spread[jb->index].expected += msgs;
		tp->spread[jb->index].moved += bytes;
		tp->spread[jb->index].halted += halted;
	} else {
		jb->expected += msgs;
		jb->moved += bytes;
		jb->halted += halted;
	}
}

/* initiator i submits its next I/O into a free slot, if it has one left
 * and its runtime, counted from its own start (skew, straggler), has not
 * passed, so it always submits its first; tp is the partition it runs on
 * (NULL between windows) */
static void io_submit(struct traffic *t, struct traffic_part *tp, struct traffic_job *jb,
		      uint32_t i, sim_time_ps start, sim_time_ps sched)
{
	struct storage *st = jb->st;
	const struct scn_job *j = jb->j;
	if (jb->failed || st->halted[i])
		return;
	int past = j->runtime_ps && start >= rank_start(t, jb, i) + j->runtime_ps;
	if (!past && st->nfree[i]) {
		uint32_t depth = j->iodepth, sl = st->free[(size_t)i * depth + --st->nfree[i]];
		uint64_t io = st->next[i]++;
		int read = io_is_read(t, jb, i, io);
		st->slot[(size_t)i * depth + sl] =
			(struct io_slot){ .io = io, .submit_ps = start, .read = (uint8_t)read };
		io_count(tp, jb, read ? 3 : 4, io_bytes(st, j, io), 0);
		io_send(t, jb, i, sl, IO_CMD, start, sched);
	}
	if (past || st->next[i] == st->nios) {
		st->halted[i] = 1; /* it submits nothing more */
		io_count(tp, jb, 0, 0, 1);
	}
}

/* the target starts the I/O now or when it is free; when its media is done */
static sim_time_ps io_media(const struct traffic_job *jb, uint32_t tg, int64_t bytes,
			    sim_time_ps now)
{
	const struct scn_job *j = jb->j;
	sim_time_ps *free_ps = &jb->st->tgt_free[tg], begin = later(now, *free_ps);
	sim_time_ps service = 0;
	if (j->target_iops != SCN_AUTO)
		service = (UNITS_PS_PER_S + j->target_iops - 1) / j->target_iops;
	if (j->target_bw_bps)
		service = later(service, units_mul_div_ceil(bytes * 8, UNITS_PS_PER_S,
							    j->target_bw_bps));
	*free_ps = begin + service;
	return begin + j->target_latency_ps;
}

/* a storage message arrived (at the target: a command or a write's data;
 * at the initiator: a read request, a read's data or the completion) */
static void io_arrived(struct traffic *t, struct traffic_part *tp, struct traffic_job *jb,
		       const struct flow *fl, struct sim_order tag)
{
	struct storage *st = jb->st;
	uint32_t i = fl->pos[0], sl = fl->pos[1], tg = fl->pos[3], depth = jb->j->iodepth;
	struct io_slot *x = &st->slot[(size_t)i * depth + sl];
	sim_time_ps now = tag.time;
	switch (fl->pos[2]) {
	case IO_CMD:
		if (x->read) { /* the media reads the I/O's bytes, then they go back */
			sim_time_ps ready = io_media(jb, tg, io_bytes(st, jb->j, x->io), now);
			io_send(t, jb, i, sl, IO_DATA, ready, now);
			io_send(t, jb, i, sl, IO_CPL, ready, now);
		} else {
			io_send(t, jb, i, sl, IO_RREQ, now, now);
		}
		break;
	case IO_RREQ:
		io_send(t, jb, i, sl, IO_DATA, now, now);
		break;
	case IO_DATA:
		if (!x->read)
			io_send(t, jb, i, sl, IO_CPL, io_media(jb, tg, fl->bytes, now), now);
		break;
	case IO_CPL:
		tp->ios = grow(tp->ios, &tp->ios_cap, tp->nios, sizeof(*tp->ios));
		tp->pending = 1;
		tp->ios[tp->nios++] = (struct done_io){
			.io = { .job = jb->index, .iter = jb->iter, .initiator = st->init[i],
				.target = st->tgt[tg], .read = x->read,
				.bytes = io_bytes(st, jb->j, x->io), .submit_ps = x->submit_ps,
				.end_ps = now },
			.tag = tag,
		};
		st->free[(size_t)i * depth + st->nfree[i]++] = sl;
		io_submit(t, tp, jb, i, later(now, rank_start(t, jb, i)), now);
		break;
	}
}

/* release iteration `iter` of a job at time `at`, as decided at `sched`:
 * its first messages */
static void release(struct traffic *t, struct traffic_job *jb, uint32_t iter, sim_time_ps at,
		    sim_time_ps sched)
{
	const struct scn_job *j = jb->j;
	uint32_t n = jb->n;
	jb->iter = iter;
	jb->release_ps = at;
	jb->done = 0;
	jb->last = (struct sim_order){ .time = -1 };
	switch (j->pattern) {
	case SCN_JOB_RING_ALLREDUCE:
		if (jb->tree) { /* the leaves send every slice up */
			memset(jb->cnt, 0, jb->tch[j->channels - 1].cnt_first +
						   (uint64_t)jb->tch[j->channels - 1].slices * n);
			for (uint32_t r = 0; r < n; r++) {
				sim_time_ps start = rank_start(t, jb, r);
				for (uint32_t c = 0; c < j->channels; c++)
					for (uint32_t sl = 0; !jb->nup[c * n + r] && sl < jb->tch[c].slices; sl++)
						tree_forward(t, jb, c, r, 0, sl, start, sched);
			}
			break;
		}
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t c = 0; c < j->channels; c++) {
				sim_time_ps start = rank_start(t, jb, rank_at(jb, c, i));
				for (uint32_t sl = 0; sl < ring_slices(&jb->ch[c], i); sl++)
					ring_send(t, jb, c, 0, i, sl, start, sched);
			}
		break;
	case SCN_JOB_ALLTOALL:
		for (uint32_t i = 0; i < n; i++) {
			sim_time_ps start = rank_start(t, jb, i);
			uint32_t last = j->schedule == SCN_SCHEDULE_SHIFT ? 1 : n - 1;
			for (uint32_t k = 1; k <= last; k++)
				for (uint32_t q = 0; q < jb->nq; q++)
					a2a_send(t, jb, i, k, q, start, sched);
		}
		break;
	case SCN_JOB_STORAGE: {
		struct storage *st = jb->st;
		jb->expected = 0;
		jb->moved = 0;
		jb->halted = 0;
		for (uint32_t i = 0; i < n; i++) {
			st->next[i] = 0;
			st->halted[i] = 0;
			st->nfree[i] = j->iodepth;
			for (uint32_t k = 0; k < j->iodepth; k++)
				st->free[(size_t)i * j->iodepth + k] = j->iodepth - 1 - k;
			sim_time_ps start = rank_start(t, jb, i);
			for (uint32_t k = 0; k < j->iodepth; k++)
				io_submit(t, NULL, jb, i, start, sched);
		}
		break;
	}
	case SCN_JOB_INCAST:
	case SCN_JOB_PERMUTATION:
		for (uint32_t i = 0; i < n; i++)
			nic_post_at(t->net,
				    make(t, jb, i, jb->qps[i], j->size_bytes, rank_start(t, jb, i)),
				    sched);
		break;
	case SCN_JOB_TRACE:
		for (uint32_t r = 0; r < n; r++) {
			const struct scn_trace_row *row = &j->rows[r];
			struct flow *fl = make(t, jb, r, jb->qps[r], row->bytes,
					       rank_start(t, jb, r) + row->start_ps);
			jb->rows[r] = fl;
			if (row->after < 0) {
				nic_post_at(t->net, fl, sched);
			} else { /* waits for its row: posted when that one arrives */
				struct flow *first = jb->rows[row->after];
				fl->next_dep = first->first_dep;
				first->first_dep = fl;
			}
		}
		break;
	}
}

/* the control-frame latency from host x to the job's farthest host */
static sim_time_ps barrier_ps(const struct traffic *t, const struct traffic_job *jb,
			      uint32_t x)
{
	sim_time_ps b = 0;
	for (uint32_t k = 0; k < jb->nhosts; k++)
		b = later(b, traffic_notify_ps(t, x, jb->hosts[k]));
	return b;
}

/* have all of the iteration's messages arrived */
static int iteration_complete(const struct traffic_job *jb)
{
	if (jb->open_ended)
		return jb->halted == jb->st->ninit && jb->done == jb->expected;
	return jb->done == jb->per_iter;
}

/* the iteration in progress ended at jb->last (on partition tp's thread,
 * or between windows with tp NULL): report it in order at the window's end
 * and release the next one */
static void iteration_done(struct traffic *t, struct traffic_part *tp, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	if (jb->failed)
		return; /* reported when it failed */
	if (!tp)
		tp = &t->parts[0]; /* between windows: every list is free */
	tp->colls = grow(tp->colls, &tp->colls_cap, tp->ncolls, sizeof(*tp->colls));
	tp->pending = 1;
	tp->colls[tp->ncolls++] = (struct done_coll){
		.c = { .job = jb->index, .iter = jb->iter, .ranks = jb->ranks, .senders = jb->senders,
		       .bytes = jb->open_ended ? jb->moved : jb->iter_bytes, .line_bps = jb->line_bps, .nflows = jb->per_iter, .start_ps = jb->release_ps,
		       .end_ps = jb->last.time },
		.tag = jb->last,
	};
	jb->expected_past += jb->expected;
	if (jb->iter + 1 == j->iterations)
		jb->complete = 1;
	else
		release(t, jb, jb->iter + 1,
			jb->last.time + j->compute_gap_ps + barrier_ps(t, jb, jb->last_host),
			jb->last.time);
}

static void notice(struct traffic_part *tp, struct notice n)
{
	tp->notices = grow(tp->notices, &tp->notices_cap, tp->nnotices, sizeof(*tp->notices));
	n.seq = tp->nnotices;
	tp->notices[tp->nnotices++] = n;
	tp->pending = 1;
}

/* the part that runs host h */
static uint32_t part_of(const struct traffic *t, uint32_t h)
{
	return t->net->nics[h].net->part;
}

/* a net's flow_done observer: a message completed at its receiver, on the
 * thread of partition tp */
static void flow_done(void *ctx, struct flow *fl)
{
	struct traffic_part *tp = ctx;
	struct traffic *t = tp->t;
	struct traffic_job *jb = &t->jobs[fl->job];
	struct sim_order tag = sim_current(&tp->net->eng);
	sim_time_ps now = tag.time;
	tp->done++;
	tp->last_done_ps = now;
	if (tp->done == t->flows_total)
		tp->pending = 1;
	if (t->flow_done)
		t->flow_done(t->ctx, tp->index, fl);
	switch (jb->j->pattern) {
	case SCN_JOB_RING_ALLREDUCE: {
		uint32_t c = fl->pos[0], sl = fl->pos[3];
		if (jb->tree) { /* arrived at r (down) or r's parent (up) */
			uint32_t n = jb->n, r = fl->pos[2], at = r;
			if (!fl->pos[1]) {
				at = jb->tparent[c * n + r];
				uint8_t *cnt = &jb->cnt[jb->tch[c].cnt_first + (uint64_t)sl * n + at];
				if (++*cnt < jb->nup[c * n + at])
					break;
			}
			tree_forward(t, jb, c, at, fl->pos[1], sl, later(now, rank_start(t, jb, at)), now);
			break;
		}
		/* the next slice leaves from here */
		uint32_t s = fl->pos[1], next = (fl->pos[2] + 1) % jb->n;
		if (s + 1 < jb->steps)
			ring_send(t, jb, c, s + 1, next, sl,
				  later(now, rank_start(t, jb, rank_at(jb, c, next))), now);
		break;
	}
	case SCN_JOB_ALLTOALL: {
		uint32_t i = fl->pos[0], k = fl->pos[1];
		if (jb->j->schedule != SCN_SCHEDULE_SHIFT || k + 1 >= jb->n)
			break;
		sim_time_ps start = later(rank_start(t, jb, i),
					  now + traffic_notify_ps(t, fl->dst, fl->src));
		if (part_of(t, fl->src) == tp->index)
			a2a_send(t, jb, i, k + 1, fl->pos[2], start, now);
		else
			notice(tp, (struct notice){ .tag = tag, .job = jb->index, .rank = i,
						    .k = k + 1, .q = fl->pos[2], .start_ps = start });
		break;
	}
	case SCN_JOB_STORAGE:
		io_arrived(t, tp, jb, fl, tag);
		break;
	case SCN_JOB_TRACE:
		for (struct flow *d = jb->failed ? NULL : fl->first_dep; d; d = d->next_dep) {
			sim_time_ps start = later(d->start_ps,
						  now + traffic_notify_ps(t, fl->dst, d->src));
			if (part_of(t, d->src) == tp->index) {
				d->start_ps = start;
				nic_post_at(t->net, d, now);
			} else {
				notice(tp, (struct notice){ .tag = tag, .fl = d, .start_ps = start });
			}
		}
		break;
	default:
		break;
	}
	if (jb->spread) { /* counted at the window's end, with the other partitions' */
		struct spread_done *sd = &tp->spread[jb->index];
		sd->count++;
		tp->pending = 1;
		sd->last = tag;
		sd->last_host = fl->dst;
		return;
	}
	jb->last = tag;
	jb->last_host = fl->dst;
	jb->done++;
	if (iteration_complete(jb))
		iteration_done(t, tp, jb);
}

/* a list each partition fills in a window: its items and their count,
 * fields of struct traffic_part */
struct part_list {
	size_t items, count;           /* offsetof the pointer and of the uint32_t count */
	size_t size;                   /* of one item */
	int (*cmp)(const void *, const void *);
	const char *what;              /* for the out-of-memory message */
};

/* between windows: every partition's items of list l, in one array sorted
 * by l.cmp (the caller frees it), the lists emptied; NULL when none */
static void *gather(struct traffic *t, const struct part_list *l, uint32_t *count)
{
	uint32_t n = 0;
	for (uint32_t p = 0; p < t->nparts; p++)
		n += *(uint32_t *)(void *)((char *)&t->parts[p] + l->count);
	*count = n;
	if (!n)
		return NULL;
	char *all = malloc(n * l->size);
	SIM_INVARIANT(all, "out of memory for %u %s", n, l->what);
	size_t off = 0;
	for (uint32_t p = 0; p < t->nparts; p++) {
		char *tp = (char *)&t->parts[p];
		uint32_t *k = (uint32_t *)(void *)(tp + l->count);
		if (!*k)
			continue; /* its list may never have been allocated */
		memcpy(all + off, *(char **)(void *)(tp + l->items), *k * l->size);
		off += *k * l->size;
		*k = 0;
	}
	qsort(all, n, l->size, l->cmp);
	return all;
}

/* a net's qp_failed observer, on the thread of partition tp */
static void qp_failed(void *ctx, const struct qp *q)
{
	struct traffic_part *tp = ctx;
	if (q->job >= tp->t->njobs)
		return; /* a QP no message was posted on cannot time out */
	tp->fails = grow(tp->fails, &tp->fails_cap, tp->nfails, sizeof(*tp->fails));
	tp->pending = 1;
	tp->fails[tp->nfails++] = (struct qp_fail){ .tag = sim_current(&tp->net->eng), .job = q->job,
						    .qp = q->id, .progress_ps = q->progress_ps };
}

static int cmp_fail(const void *a, const void *b)
{
	const struct qp_fail *x = a, *y = b;
	int c = sim_order_cmp(&x->tag, &y->tag);
	return c ? c : x->qp < y->qp ? -1 : x->qp > y->qp;
}

/* the QPs that failed in the window, in the order of their events: each
 * fails its job (the first one of a job that is still going) */
static void settle_failures(struct traffic *t)
{
	static const struct part_list fails = {
		offsetof(struct traffic_part, fails), offsetof(struct traffic_part, nfails),
		sizeof(struct qp_fail), cmp_fail, "failed QPs"
	};
	uint32_t n;
	struct qp_fail *all = gather(t, &fails, &n);
	if (!all)
		return;
	struct traffic_part *tp = &t->parts[0]; /* between windows: every list is free */
	for (uint32_t k = 0; k < n; k++) {
		struct traffic_job *jb = &t->jobs[all[k].job];
		if (jb->failed || jb->complete)
			continue;
		jb->failed = 1;
		t->jobs_failed++;
		tp->colls = grow(tp->colls, &tp->colls_cap, tp->ncolls, sizeof(*tp->colls));
		tp->colls[tp->ncolls++] = (struct done_coll){
			.c = { .job = jb->index, .iter = jb->iter, .ranks = jb->ranks,
			       .senders = jb->senders,
			       .bytes = jb->open_ended ? jb->moved : jb->iter_bytes,
			       .nflows = jb->per_iter, .start_ps = jb->release_ps,
			       .end_ps = all[k].tag.time, .failed = 1, .failed_qp = all[k].qp,
			       .progress_ps = all[k].progress_ps },
			.tag = all[k].tag,
		};
	}
	free(all);
}

static int notice_less(const struct notice *a, const struct notice *b)
{
	int c = sim_order_cmp(&a->tag, &b->tag);
	return c ? c < 0 : a->seq < b->seq;
}

static int cmp_notice(const void *a, const void *b)
{
	const struct notice *x = a, *y = b;
	return notice_less(x, y) ? -1 : notice_less(y, x);
}

static int cmp_done_coll(const void *a, const void *b)
{
	const struct done_coll *x = a, *y = b;
	return sim_order_cmp(&x->tag, &y->tag);
}

static int cmp_done_io(const void *a, const void *b)
{
	const struct done_io *x = a, *y = b;
	return sim_order_cmp(&x->tag, &y->tag);
}

void traffic_window_end(struct traffic *t)
{
	static const struct part_list notices = {
		offsetof(struct traffic_part, notices), offsetof(struct traffic_part, nnotices),
		sizeof(struct notice), cmp_notice, "posts between threads"
	};
	static const struct part_list colls = {
		offsetof(struct traffic_part, colls), offsetof(struct traffic_part, ncolls),
		sizeof(struct done_coll), cmp_done_coll, "completed iterations"
	};
	static const struct part_list io_list = {
		offsetof(struct traffic_part, ios), offsetof(struct traffic_part, nios),
		sizeof(struct done_io), cmp_done_io, "completed I/Os"
	};
	uint8_t pending = 0;
	for (uint32_t p = 0; p < t->nparts; p++) {
		pending |= t->parts[p].pending;
		t->parts[p].pending = 0;
	}
	if (!pending)
		return;
	settle_failures(t);
	/* posts across partitions, in the order of the events that decided them */
	uint32_t n;
	struct notice *posts = gather(t, &notices, &n);
	if (posts) {
		for (uint32_t k = 0; k < n; k++) {
			struct notice *nt = &posts[k];
			if (nt->fl && t->jobs[nt->fl->job].failed)
				continue;
			if (nt->fl) {
				nt->fl->start_ps = nt->start_ps;
				nic_post_at(t->net, nt->fl, nt->tag.time);
			} else {
				a2a_send(t, &t->jobs[nt->job], nt->rank, nt->k, nt->q, nt->start_ps,
					 nt->tag.time);
			}
		}
		free(posts);
	}
	/* the iterations of spread jobs: their completions in every partition */
	for (uint32_t ji = 0; ji < t->njobs; ji++) {
		struct traffic_job *jb = &t->jobs[ji];
		if (!jb->spread)
			continue;
		uint64_t added = 0;
		for (uint32_t p = 0; p < t->nparts; p++) {
			struct spread_done *sd = &t->parts[p].spread[ji];
			if (!sd->count)
				continue;
			added += sd->count;
			jb->done += sd->count;
			jb->expected += sd->expected;
			jb->moved += sd->moved;
			jb->halted += sd->halted;
			if (sim_order_less(&jb->last, &sd->last)) {
				jb->last = sd->last;
				jb->last_host = sd->last_host;
			}
			*sd = (struct spread_done){0};
		}
		if (added && iteration_complete(jb))
			iteration_done(t, NULL, jb);
	}
	/* the storage I/Os completed, in order */
	struct done_io *ios = gather(t, &io_list, &n);
	for (uint32_t k = 0; ios && t->io_done && k < n; k++)
		t->io_done(t->ctx, &ios[k].io);
	free(ios);
	/* the iterations completed, in order */
	struct done_coll *all = gather(t, &colls, &n);
	if (!all)
		return;
	for (uint32_t k = 0; t->coll_done && k < n; k++)
		t->coll_done(t->ctx, &all[k].c);
	free(all);
}

const uint8_t *traffic_window_flag(const struct traffic *t, uint32_t part)
{
	return &t->parts[part].pending;
}

uint64_t traffic_done(const struct traffic *t)
{
	uint64_t n = 0;
	for (uint32_t p = 0; p < t->nparts; p++)
		n += t->parts[p].done;
	return n;
}

sim_time_ps traffic_last_done(const struct traffic *t)
{
	sim_time_ps last = -1;
	for (uint32_t p = 0; p < t->nparts; p++)
		last = later(last, t->parts[p].last_done_ps);
	return last;
}

uint64_t traffic_flows_total(const struct traffic *t)
{
	uint64_t n = t->flows_total;
	for (uint32_t ji = 0; ji < t->njobs; ji++)
		if (t->jobs[ji].open_ended)
			n += t->jobs[ji].expected_past + (t->jobs[ji].complete ? 0 : t->jobs[ji].expected);
	return n;
}

int traffic_finished(const struct traffic *t)
{
	if (!t->open_ended && traffic_done(t) == t->flows_total)
		return 1;
	if (!t->jobs_failed && !t->open_ended)
		return 0;
	for (uint32_t ji = 0; ji < t->njobs; ji++) /* every job over: completed or failed */
		if (!t->jobs[ji].complete && !t->jobs[ji].failed)
			return 0;
	return 1;
}

/* ---- set-up ---- */

static int derangement(struct traffic *t, struct traffic_job *jb)
{
	uint32_t n = jb->n;
	gsl_rng *r = rng_stream(t->scn->seed, RNG_ID(RNG_JOB, jb->index));
	jb->perm = malloc(n * sizeof(*jb->perm));
	if (!r || !jb->perm) {
		rng_free(r);
		return -1;
	}
	/* rejection sampling: a uniform shuffle has no fixed point with
	 * probability about 1/e, so this takes about 2.7 shuffles */
	for (int fixed = 1; fixed;) {
		for (uint32_t i = 0; i < n; i++)
			jb->perm[i] = i;
		gsl_ran_shuffle(r, jb->perm, n, sizeof(*jb->perm));
		fixed = 0;
		for (uint32_t i = 0; i < n && !fixed; i++)
			fixed = jb->perm[i] == i;
	}
	rng_free(r);
	return 0;
}

/* Q QPs from src to dst at jb->qps[k * Q ..] */
static int qp(struct traffic *t, struct traffic_job *jb, size_t k, uint32_t src, uint32_t dst,
	      uint8_t dscp)
{
	for (uint32_t q = 0; q < jb->nq; q++) {
		jb->qps[k * jb->nq + q] = nic_add_qp(t->net, src, dst, dscp);
		if (jb->qps[k * jb->nq + q] == NET_NONE)
			return -1;
	}
	return 0;
}

/* ring, tree: the host whose NIC (or NVLink) carries the hop from rank a
 * to rank b of channel c, whose block entered a's server at rank `entry`:
 * a itself within a server, else the entry rank's (module comment) */
static uint32_t hop_src(const struct traffic *t, const struct traffic_job *jb, uint32_t a,
			uint32_t b, uint32_t entry)
{
	const uint32_t *h = jb->j->ranks.hosts;
	return topo_server(t->topo, h[a]) == topo_server(t->topo, h[b]) ? h[a] : h[entry];
}

uint64_t traffic_job_qps(const struct scn_job *j)
{
	uint64_t n = j->ranks.n;
	switch (j->pattern) {
	case SCN_JOB_RING_ALLREDUCE: /* job_qps: a ring's hops, or a tree's links both ways */
		return (uint64_t)j->channels * j->qps_per_connection *
		       (j->algorithm == SCN_ALGO_TREE ? 2 * (n ? n - 1 : 0) : n);
	case SCN_JOB_ALLTOALL:
		return n * (n ? n - 1 : 0) * j->qps_per_connection;
	case SCN_JOB_INCAST:
		return j->senders.n;
	case SCN_JOB_STORAGE:
		return 2 * (uint64_t)j->initiators.n * j->targets.n;
	case SCN_JOB_TRACE:
		return j->nrows;
	case SCN_JOB_PERMUTATION:
		break;
	}
	return n;
}

uint64_t traffic_job_posted_at_once(const struct scn_job *j)
{
	/* release: all-at-once posts every part to every rank, one on each QP */
	return j->pattern == SCN_JOB_ALLTOALL && j->schedule == SCN_SCHEDULE_ALL_AT_ONCE
		       ? traffic_job_qps(j)
		       : 0;
}

uint64_t traffic_job_receivers(const struct scn_job *j)
{
	switch (j->pattern) {
	case SCN_JOB_INCAST:
		return j->senders.n ? 1 : 0;
	case SCN_JOB_STORAGE:
		return j->targets.n < j->initiators.n ? j->targets.n : j->initiators.n;
	case SCN_JOB_TRACE:
		return j->nrows;
	case SCN_JOB_PERMUTATION:
	case SCN_JOB_RING_ALLREDUCE:
	case SCN_JOB_ALLTOALL:
		break;
	}
	return j->ranks.n;
}

/* the job's QPs, in the order its messages are defined (traffic_job_qps
 * counts them) */
static int job_qps(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	uint32_t n = jb->n;
	size_t count = j->pattern == SCN_JOB_RING_ALLREDUCE ? (size_t)j->channels * n * 2
		       : j->pattern == SCN_JOB_ALLTOALL     ? (size_t)n * n
							    : n;
	jb->qps = malloc(count * jb->nq * sizeof(*jb->qps));
	if (!jb->qps)
		return -1;
	const uint32_t *h = j->ranks.hosts;
	switch (j->pattern) {
	case SCN_JOB_RING_ALLREDUCE:
		for (uint32_t c = 0; c < j->channels && !jb->tree; c++) {
			uint32_t entry = rank_at(jb, c, 0);
			for (uint32_t i = 0; i < n; i++) {
				uint32_t a = rank_at(jb, c, i), b = rank_at(jb, c, (i + 1) % n);
				if (i && topo_server(t->topo, h[a]) !=
						 topo_server(t->topo, h[rank_at(jb, c, i - 1)]))
					entry = a;
				if (qp(t, jb, (size_t)c * n + i, hop_src(t, jb, a, b, entry), h[b],
				       jb->dscp))
					return -1;
			}
		}
		for (uint32_t c = 0; c < j->channels && jb->tree; c++) {
			size_t k = (size_t)c * (n - 1) * 2;
			for (uint32_t r = 0; r < n; r++) {
				uint32_t up = jb->tparent[c * n + r];
				if (up == UINT32_MAX)
					continue;
				/* between servers the hop is entry rank to entry rank */
				if (qp(t, jb, k++, h[r], h[up], jb->dscp) ||
				    qp(t, jb, k++, h[up], h[r], jb->dscp))
					return -1;
			}
		}
		break;
	case SCN_JOB_ALLTOALL:
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t k = 1; k < n; k++)
				if (qp(t, jb, (size_t)i * n + k, h[i], h[(i + k) % n], jb->dscp))
					return -1;
		break;
	case SCN_JOB_INCAST:
		for (uint32_t s = 0; s < n; s++)
			if (qp(t, jb, s, j->senders.hosts[s], j->dst, jb->dscp))
				return -1;
		break;
	case SCN_JOB_PERMUTATION:
		for (uint32_t i = 0; i < n; i++)
			if (qp(t, jb, i, h[i], h[jb->perm[i]], jb->dscp))
				return -1;
		break;
	case SCN_JOB_STORAGE: /* the QPs are the storage's, one each way per pair */
		for (uint32_t i = 0; i < jb->st->ninit; i++)
			for (uint32_t tg = 0; tg < jb->st->ntgt; tg++) {
				uint32_t a = j->initiators.hosts[i], b = j->targets.hosts[tg];
				size_t k = ((size_t)i * jb->st->ntgt + tg) * 2;
				jb->st->qp[k] = nic_add_qp(t->net, a, b, jb->dscp);
				jb->st->qp[k + 1] = nic_add_qp(t->net, b, a, jb->dscp);
				if (jb->st->qp[k] == NET_NONE || jb->st->qp[k + 1] == NET_NONE)
					return -1;
			}
		break;
	case SCN_JOB_TRACE:
		for (uint32_t r = 0; r < n; r++) {
			const struct scn_trace_row *row = &j->rows[r];
			if (qp(t, jb, r, row->src, row->dst,
			       row->dscp >= 0 ? (uint8_t)row->dscp : jb->dscp))
				return -1;
		}
		break;
	}
	return 0;
}

/* ring, tree: the ranks grouped by server into blocks (servers in the
 * order of their first rank, a block in rank order), each block rotated
 * by c mod its size for channel c (module comment).  blk[] gets each
 * position's block start, for the tree. */
static int channel_orders(struct traffic *t, struct traffic_job *jb, uint32_t *blk)
{
	const struct scn_job *j = jb->j;
	uint32_t n = jb->n, C = j->channels, nb = 0;
	const uint32_t *h = j->ranks.hosts;
	uint32_t servers = (t->net->nhosts + t->topo->gps - 1) / t->topo->gps;
	uint32_t *grouped = malloc(n * sizeof(*grouped)), *start = malloc((n + 1) * sizeof(*start));
	uint32_t *block = malloc(servers * sizeof(*block)); /* a server's block, by first rank */
	jb->order = malloc((size_t)C * n * sizeof(*jb->order));
	if (!grouped || !start || !block || !jb->order) {
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
				jb->order[c * n + start[b] + x] = grouped[start[b] + (x + c) % k];
				if (blk)
					blk[start[b] + x] = start[b];
			}
		}
	free(grouped);
	free(start);
	free(block);
	return 0;
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

/* tree: every channel's parents, reduce inputs, children and slices */
static int tree_geometry(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	uint32_t n = jb->n, C = j->channels;
	uint32_t *blk = malloc(n * sizeof(*blk)), *pos = malloc(n * sizeof(*pos));
	jb->tch = calloc(C, sizeof(*jb->tch));
	jb->tparent = malloc((size_t)C * n * sizeof(*jb->tparent));
	jb->kid_off = calloc((size_t)C * (n + 1), sizeof(*jb->kid_off));
	jb->kids = malloc((size_t)C * n * sizeof(*jb->kids));
	jb->nup = calloc((size_t)C * n, 1);
	if (!blk || !pos || !jb->tch || !jb->tparent || !jb->kid_off || !jb->kids || !jb->nup ||
	    channel_orders(t, jb, blk)) {
		free(blk);
		free(pos);
		return -1;
	}
	/* the blocks: m servers, block b starting at position bstart[b] */
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		m += blk[i] == i;
	uint32_t *bstart = malloc((m + 1) * sizeof(*bstart));
	if (!bstart) {
		free(blk);
		free(pos);
		return -1;
	}
	for (uint32_t i = 0, b = 0; i < n; i++)
		if (blk[i] == i)
			bstart[b++] = i;
	bstart[m] = n;
	uint64_t first = 0, cnt = 0;
	for (uint32_t c = 0; c < C; c++) {
		const uint32_t *o = &jb->order[c * n];
		uint32_t *par = &jb->tparent[c * n], tree = c / t->topo->gps % 2;
		for (uint32_t b = 0; b < m; b++) {
			/* the chain up to the block's entry rank, which goes up
			 * the tree to its parent block's entry rank */
			for (uint32_t x = bstart[b] + 1; x < bstart[b + 1]; x++)
				par[o[x]] = o[x - 1];
			uint32_t pb = dtree_parent(m, b, tree);
			par[o[bstart[b]]] = pb == UINT32_MAX ? UINT32_MAX : o[bstart[pb]];
			if (pb == UINT32_MAX)
				jb->tch[c].root = o[bstart[b]];
		}
		/* children by counting: kid_off is a prefix sum of nup */
		uint32_t *off = &jb->kid_off[(size_t)c * (n + 1)];
		for (uint32_t r = 0; r < n; r++)
			if (par[r] != UINT32_MAX)
				jb->nup[c * n + par[r]]++;
		for (uint32_t r = 0; r < n; r++) {
			off[r + 1] = off[r] + jb->nup[c * n + r];
			pos[r] = off[r];
		}
		for (uint32_t r = 0; r < n; r++)
			if (par[r] != UINT32_MAX)
				jb->kids[(size_t)c * n + pos[par[r]]++] = r;
		struct tree_channel *tc = &jb->tch[c];
		tc->bytes = part(j->size_bytes, C, c);
		tc->slices = (uint32_t)((tc->bytes + j->slice_bytes - 1) / j->slice_bytes);
		tc->first = first;
		tc->cnt_first = cnt;
		first += (uint64_t)tc->slices * 2 * (n - 1);
		cnt += (uint64_t)tc->slices * n;
		jb->msg_bytes += tc->bytes * 2 * (n - 1);
	}
	free(blk);
	free(pos);
	free(bstart);
	jb->per_iter = first;
	jb->cnt = calloc(cnt, 1);
	return jb->cnt ? 0 : -1;
}

/* the ring's geometry and the messages of one iteration */
static int ring_geometry(struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	uint32_t n = jb->n;
	jb->ch = calloc(j->channels, sizeof(*jb->ch));
	if (!jb->ch)
		return -1;
	uint64_t first = 0;
	for (uint32_t c = 0; c < j->channels; c++) {
		struct ring_channel *ch = &jb->ch[c];
		int64_t per = part(j->size_bytes, j->channels, c), slice = j->slice_bytes;
		ch->q = per / n;
		ch->r = (uint32_t)(per % n);
		ch->m_big = (uint32_t)((ch->q + 1 + slice - 1) / slice);
		ch->m_small = (uint32_t)((ch->q + slice - 1) / slice);
		ch->per_step = (uint64_t)ch->r * ch->m_big + (uint64_t)(n - ch->r) * ch->m_small;
		ch->first = first;
		first += (uint64_t)jb->steps * ch->per_step;
	}
	jb->per_iter = first;
	return 0;
}

/* the distinct hosts among a list, in first-seen order */
static int add_hosts(struct traffic_job *jb, uint8_t *seen, const uint32_t *h, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		if (!seen[h[k]]) {
			seen[h[k]] = 1;
			jb->hosts[jb->nhosts++] = h[k];
		}
	return 0;
}

static int job_hosts(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	uint8_t *seen = calloc(t->net->nhosts, 1);
	jb->hosts = malloc(t->net->nhosts * sizeof(*jb->hosts));
	if (!seen || !jb->hosts) {
		free(seen);
		return -1;
	}
	switch (j->pattern) {
	case SCN_JOB_INCAST:
		add_hosts(jb, seen, j->senders.hosts, j->senders.n);
		jb->senders = jb->nhosts;
		add_hosts(jb, seen, &j->dst, 1);
		break;
	case SCN_JOB_STORAGE:
		add_hosts(jb, seen, j->initiators.hosts, j->initiators.n);
		jb->senders = jb->nhosts;
		add_hosts(jb, seen, j->targets.hosts, j->targets.n);
		break;
	case SCN_JOB_TRACE:
		for (uint32_t r = 0; r < j->nrows; r++)
			add_hosts(jb, seen, &j->rows[r].src, 1);
		jb->senders = jb->nhosts;
		for (uint32_t r = 0; r < j->nrows; r++)
			add_hosts(jb, seen, &j->rows[r].dst, 1);
		break;
	default:
		add_hosts(jb, seen, j->ranks.hosts, j->ranks.n);
		jb->senders = jb->nhosts;
		break;
	}
	free(seen);
	for (uint32_t k = 1; k < jb->nhosts; k++)
		if (part_of(t, jb->hosts[k]) != part_of(t, jb->hosts[0]))
			jb->spread = 1;
	return 0;
}

/* storage: the initiators' and targets' state, the messages of an
 * iteration (3 per read, 4 per write) */
static int storage_geometry(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	struct storage *st = jb->st = calloc(1, sizeof(*jb->st));
	if (!st)
		return -1;
	st->ninit = j->initiators.n;
	st->ntgt = j->targets.n;
	st->init = j->initiators.hosts;
	st->tgt = j->targets.hosts;
	st->nios = (uint64_t)((j->size_bytes + j->bs_bytes - 1) / j->bs_bytes);
	st->last_bytes = j->size_bytes - (int64_t)(st->nios - 1) * j->bs_bytes;
	size_t slots = (size_t)st->ninit * j->iodepth;
	st->next = calloc(st->ninit, sizeof(*st->next));
	st->nfree = calloc(st->ninit, sizeof(*st->nfree));
	st->free = calloc(slots, sizeof(*st->free));
	st->slot = calloc(slots, sizeof(*st->slot));
	st->tgt_free = calloc(st->ntgt, sizeof(*st->tgt_free));
	st->qp = calloc((size_t)st->ninit * st->ntgt * 2, sizeof(*st->qp));
	if (!st->next || !st->nfree || !st->free || !st->slot || !st->tgt_free || !st->qp)
		return -1;
	jb->n = st->ninit;
	jb->ranks = st->ninit + st->ntgt;
	jb->iter_bytes = (int64_t)st->ninit * j->size_bytes;
	jb->msg_bytes = jb->iter_bytes;
	jb->id_stride = (uint64_t)st->ninit * st->nios * IO_PHASES;
	st->halted = calloc(st->ninit, 1);
	if (!st->halted)
		return -1;
	if (j->runtime_ps || j->rw == SCN_RW_RANDRW) {
		/* which I/Os run, or how many of them read, is known when they
		 * have (counting randrw's draws here would take one per I/O) */
		jb->open_ended = 1;
		t->open_ended = 1;
		return 0;
	}
	uint64_t ios = (uint64_t)st->ninit * st->nios, msgs = j->rw == SCN_RW_READ ? 3 : 4;
	jb->per_iter = ios * msgs;
	jb->msg_bytes += (int64_t)(ios * (IO_CMD_BYTES + IO_SMALL_BYTES * (msgs - 2)));
	return 0;
}

static void storage_free(struct storage *st)
{
	if (!st)
		return;
	free(st->next);
	free(st->nfree);
	free(st->free);
	free(st->slot);
	free(st->tgt_free);
	free(st->qp);
	free(st->halted);
	free(st);
}

/*
 * The line rate a job's bus bandwidth is judged against (busbw_pct_line):
 * host_link with one GPU per server.  On GPU servers: NVLink for a job
 * within one server; for a ring or tree, the NICs of the rails its
 * channels use, min(channels, most ranks on one server) x host_link, but
 * not above a GPU's NVLink; for an all-to-all, whose bytes to the k - 1
 * other ranks of a server ride NVLink, host_link x (n - 1) / (n - k): the
 * bus bandwidth at which each NIC carries its n - k remote messages at line
 * rate; for incasts, permutations and traces, host_link.
 */
static int job_line_bps(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	const struct scenario *scn = t->scn;
	jb->line_bps = scn->host_link_bps;
	if (t->topo->gps == 1 || (j->pattern != SCN_JOB_RING_ALLREDUCE &&
				  j->pattern != SCN_JOB_ALLTOALL))
		return 0;
	uint32_t *per = calloc(t->net->nhosts / t->topo->gps, sizeof(*per));
	if (!per)
		return -1;
	uint32_t servers = 0, k = 0, n = j->ranks.n;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t *c = &per[topo_server(t->topo, j->ranks.hosts[i])];
		servers += !*c;
		k = ++*c > k ? *c : k;
	}
	free(per);
	if (servers == 1)
		jb->line_bps = scn->nvlink_bps;
	else if (j->pattern == SCN_JOB_ALLTOALL)
		jb->line_bps = units_mul_div_ceil(scn->host_link_bps, n - 1, n - k);
	else if ((int64_t)(j->channels < k ? j->channels : k) * scn->host_link_bps < scn->nvlink_bps)
		jb->line_bps = (int64_t)(j->channels < k ? j->channels : k) * scn->host_link_bps;
	else
		jb->line_bps = scn->nvlink_bps;
	return 0;
}

static int build_job(struct traffic *t, uint32_t ji, uint64_t base)
{
	const struct scenario *scn = t->scn;
	const struct scn_job *j = &scn->jobs[ji];
	struct traffic_job *jb = &t->jobs[ji];
	*jb = (struct traffic_job){ .j = j, .index = ji, .base = base, .nq = 1,
				    .dscp = (uint8_t)(j->dscp >= 0 ? j->dscp : scn->data_dscp) };
	switch (j->pattern) {
	case SCN_JOB_RING_ALLREDUCE:
		jb->n = j->ranks.n;
		jb->nq = j->qps_per_connection;
		jb->steps = 2 * (jb->n - 1);
		jb->ranks = jb->n;
		jb->iter_bytes = j->size_bytes;
		jb->tree = j->algorithm == SCN_ALGO_TREE;
		if (jb->tree ? tree_geometry(t, jb)
			     : channel_orders(t, jb, NULL) || ring_geometry(jb))
			return -1;
		if (!jb->tree)
			jb->msg_bytes = (int64_t)jb->steps * j->size_bytes;
		break;
	case SCN_JOB_ALLTOALL:
		jb->n = j->ranks.n;
		jb->nq = j->qps_per_connection;
		jb->ranks = jb->n;
		jb->per_iter = (uint64_t)jb->n * (jb->n - 1) * jb->nq;
		jb->iter_bytes = j->size_bytes;
		jb->msg_bytes = (int64_t)jb->n * (jb->n - 1) * (j->size_bytes / jb->n);
		break;
	case SCN_JOB_INCAST:
		jb->n = j->senders.n;
		jb->ranks = jb->n + 1;
		jb->per_iter = jb->n;
		jb->iter_bytes = (int64_t)jb->n * j->size_bytes;
		jb->msg_bytes = jb->iter_bytes;
		break;
	case SCN_JOB_PERMUTATION:
		jb->n = j->ranks.n;
		jb->ranks = jb->n;
		jb->per_iter = jb->n;
		jb->iter_bytes = (int64_t)jb->n * j->size_bytes;
		jb->msg_bytes = jb->iter_bytes;
		if (derangement(t, jb))
			return -1;
		break;
	case SCN_JOB_STORAGE:
		if (storage_geometry(t, jb))
			return -1;
		break;
	case SCN_JOB_TRACE:
		jb->n = j->nrows;
		jb->per_iter = jb->n;
		for (uint32_t r = 0; r < j->nrows; r++)
			jb->iter_bytes += j->rows[r].bytes;
		jb->msg_bytes = jb->iter_bytes;
		jb->rows = calloc(jb->n, sizeof(*jb->rows));
		if (!jb->rows)
			return -1;
		break;
	}
	if (!jb->id_stride)
		jb->id_stride = jb->per_iter;
	return job_qps(t, jb) || job_hosts(t, jb) || job_line_bps(t, jb) ? -1 : 0;
}

int traffic_build(struct traffic *t, struct net *const *nets, uint32_t nparts,
		  const struct scenario *scn, const struct topo *topo,
		  sim_time_ps switch_latency_ps)
{
	t->net = nets[0];
	t->scn = scn;
	t->topo = topo;
	t->switch_latency_ps = switch_latency_ps;
	t->njobs = scn->njobs;
	t->nparts = nparts;
	t->jobs = calloc_lines(scn->njobs, sizeof(*t->jobs));
	t->parts = calloc_lines(nparts, sizeof(*t->parts));
	if (!t->jobs || !t->parts)
		return -1;
	for (uint32_t p = 0; p < nparts; p++) {
		struct traffic_part *tp = &t->parts[p];
		*tp = (struct traffic_part){ .t = t, .net = nets[p], .index = p, .last_done_ps = -1 };
		tp->spread = calloc_lines(scn->njobs, sizeof(*tp->spread)); /* at every completion */
		if (!tp->spread)
			return -1;
		nets[p]->obs.flow_done = flow_done;
		nets[p]->obs.flow_ctx = tp;
		nets[p]->obs.qp_failed = qp_failed;
		nets[p]->obs.qp_failed_ctx = tp;
	}
	uint64_t qps = nets[0]->nqps;
	for (uint32_t ji = 0; ji < scn->njobs; ji++)
		qps += traffic_job_qps(&scn->jobs[ji]);
	if (nic_reserve_qps(nets[0], qps))
		return -1;
	uint64_t base = 0;
	for (uint32_t ji = 0; ji < scn->njobs; ji++) {
		if (build_job(t, ji, base))
			return -1;
		base += (uint64_t)scn->jobs[ji].iterations * t->jobs[ji].id_stride;
		t->flows_total += (uint64_t)scn->jobs[ji].iterations * t->jobs[ji].per_iter;
		t->bytes_total += (uint64_t)scn->jobs[ji].iterations * (uint64_t)t->jobs[ji].msg_bytes;
	}
	/* the QPs, made through partition 0's net, are every partition's */
	for (uint32_t p = 1; p < nparts; p++) {
		nets[p]->qps = nets[0]->qps;
		nets[p]->tcp = nets[0]->tcp;
		nets[p]->nqps = nets[0]->nqps;
	}
	/* the first iteration of every job starts at the job's start */
	for (uint32_t ji = 0; ji < t->njobs; ji++)
		release(t, &t->jobs[ji], 0, scn->jobs[ji].start_ps, 0);
	return 0;
}

void traffic_free(struct traffic *t)
{
	for (uint32_t ji = 0; t->jobs && ji < t->njobs; ji++) {
		struct traffic_job *jb = &t->jobs[ji];
		free(jb->qps);
		free(jb->perm);
		free(jb->ch);
		free(jb->order);
		free(jb->tch);
		free(jb->tparent);
		free(jb->kid_off);
		free(jb->kids);
		free(jb->nup);
		free(jb->cnt);
		storage_free(jb->st);
		free(jb->rows);
		free(jb->hosts);
	}
	for (uint32_t p = 0; t->parts && p < t->nparts; p++) {
		free(t->parts[p].notices);
		free(t->parts[p].spread);
		free(t->parts[p].colls);
		free(t->parts[p].ios);
		free(t->parts[p].fails);
	}
	free(t->parts);
	t->parts = NULL;
	t->nparts = 0;
	free(t->jobs);
	t->jobs = NULL;
	t->njobs = 0;
}
