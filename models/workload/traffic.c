/*
 * traffic.c - turns [job.*] sections into messages and posts them on time
 * (see traffic.h): the machinery every pattern shares - jobs, iterations,
 * messages on QPs, the windows and what crosses partitions, the
 * completions - and the table of the patterns' operations (internal.h).
 *
 * Patterns (docs/model.md#traffic), one file each, which says what its
 * messages are and when they leave:
 *   trace          trace.c: one message per CSV row, after another row's.
 *   incast         incast.c: every sender sends `size` bytes to `dst`.
 *   permutation    permutation.c: rank i sends `size` to rank perm(i).
 *   ring-allreduce ring.c: NCCL's ring, `channels` of them, and how the
 *                  channels visit GPU servers.
 *   tree           tree.c: ring-allreduce with algorithm = tree, NCCL's
 *                  double binary tree.
 *   alltoall       alltoall.c: every rank sends S/n to each other rank, all
 *                  at once or `schedule = shift`.
 *   storage        storage.c: NVMe-oF I/O as fio describes it.
 *   training       training.c: training steps, a graph of compute blocks
 *                  and messages (tensor, pipeline and data parallelism).
 * Every iteration reuses the job's QPs (a job's connections are set up
 * once).
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
 * iteration by iteration, and within an iteration as each pattern's file
 * says.  Ids are computed (the ring's in O(1) from the chunk sizes),
 * never counted at run time, so a message made late has the id it would
 * have had if every message had been made at set-up.
 */
#include "models/workload/traffic.h"

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
#include "models/workload/internal.h"

/* the patterns' operations, by scn_pattern (the tree: traffic_pattern_of) */
static const struct traffic_pattern *const patterns[] = {
	[SCN_JOB_TRACE] = &traffic_trace,
	[SCN_JOB_INCAST] = &traffic_incast,
	[SCN_JOB_PERMUTATION] = &traffic_permutation,
	[SCN_JOB_RING_ALLREDUCE] = &traffic_ring,
	[SCN_JOB_ALLTOALL] = &traffic_alltoall,
	[SCN_JOB_STORAGE] = &traffic_storage,
	[SCN_JOB_TRAINING] = &traffic_training,
};

const struct traffic_pattern *traffic_pattern_of(const struct scn_job *j)
{
	if (j->pattern == SCN_JOB_RING_ALLREDUCE && j->algorithm == SCN_ALGO_TREE)
		return &traffic_tree;
	return patterns[j->pattern];
}

void *traffic_grow(void *a, uint32_t *cap, uint32_t n, size_t elem)
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

struct flow *traffic_msg(struct traffic *t, struct traffic_job *jb, uint64_t index, uint32_t qp,
			 int64_t bytes, sim_time_ps start)
{
	struct flow *fl = nic_flow_new(t->net, msg_id(jb, jb->iter, index), qp, bytes, start);
	SIM_INVARIANT(fl, "out of memory for messages");
	fl->job = jb->index;
	fl->iter = jb->iter;
	return fl;
}

uint64_t traffic_msg_id(const struct traffic_job *jb, uint64_t index)
{
	return msg_id(jb, jb->iter, index);
}

/* job.NAME.straggler: how late the host of rank (sender, row) idx starts */
static sim_time_ps straggle_ps(const struct traffic_job *jb, uint32_t idx)
{
	const struct scn_stragglers *st = &jb->j->stragglers;
	if (!st->n)
		return 0;
	uint32_t host = jb->ops->rank_host(jb, idx);
	for (uint32_t i = 0; i < st->n; i++)
		if (st->host[i] == host)
			return st->delay_ps[i];
	return 0;
}

sim_time_ps traffic_rank_start(const struct traffic *t, const struct traffic_job *jb,
			       uint32_t idx)
{
	return jb->release_ps + traffic_skew_ps(t, jb->index, jb->iter, idx) +
	       straggle_ps(jb, idx);
}

/* ---- iterations and completions ---- */

/* release iteration `iter` of a job at time `at`, as decided at `sched`:
 * its first messages */
static void release(struct traffic *t, struct traffic_job *jb, uint32_t iter, sim_time_ps at,
		    sim_time_ps sched)
{
	jb->iter = iter;
	jb->release_ps = at;
	jb->done = 0;
	jb->last = (struct sim_order){ .time = -1 };
	jb->ops->release(t, jb, sched);
}

/* the control-frame latency from host x to the job's farthest host */
static sim_time_ps barrier_ps(const struct traffic *t, const struct traffic_job *jb,
			      uint32_t x)
{
	sim_time_ps b = 0;
	for (uint32_t k = 0; k < jb->nhosts; k++)
		b = traffic_later(b, traffic_notify_ps(t, x, jb->hosts[k]));
	return b;
}

/* have all of the iteration's messages arrived */
static int iteration_complete(const struct traffic_job *jb)
{
	if (jb->open_ended)
		return jb->halted == jb->n && jb->done == jb->expected;
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
	struct coll_step cs = {0};
	sim_time_ps end = jb->last.time;
	uint32_t host = jb->last_host;
	if (t->share && jb->spread && jb->ops->pack_state) /* every rank's share of it */
		t->share(t->share_ctx, t, jb->index);
	if (jb->ops->step) /* compute may end after the last message */
		jb->ops->step(t, jb, &cs, &end, &host);
	tp->colls = traffic_grow(tp->colls, &tp->colls_cap, tp->ncolls, sizeof(*tp->colls));
	tp->pending = 1;
	tp->colls[tp->ncolls++] = (struct done_coll){
		.c = { .job = jb->index, .iter = jb->iter, .ranks = jb->ranks,
		       .senders = jb->senders,
		       .bytes = jb->open_ended ? jb->moved : jb->iter_bytes,
		       .line_bps = jb->line_bps, .nflows = jb->per_iter,
		       .start_ps = jb->release_ps, .end_ps = end, .step = cs },
		.tag = jb->last,
	};
	jb->expected_past += jb->expected;
	if (jb->iter + 1 == j->iterations)
		jb->complete = 1;
	else
		release(t, jb, jb->iter + 1, end + j->compute_gap_ps + barrier_ps(t, jb, host),
			jb->last.time);
}

void traffic_notice(struct traffic_part *tp, struct notice n)
{
	tp->notices = traffic_grow(tp->notices, &tp->notices_cap, tp->nnotices,
				   sizeof(*tp->notices));
	n.seq = tp->nnotices;
	tp->notices[tp->nnotices++] = n;
	tp->pending = 1;
}

uint32_t traffic_part_of(const struct traffic *t, uint32_t h)
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
	tp->done++;
	tp->last_done_ps = tag.time;
	if (tp->done == t->flows_total)
		tp->pending = 1;
	if (t->flow_done)
		t->flow_done(t->ctx, tp->index, fl);
	if (jb->ops->arrived) /* what leaves now */
		jb->ops->arrived(t, tp, jb, fl, tag);
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

/* ---- the windows ---- */

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
	tp->fails = traffic_grow(tp->fails, &tp->fails_cap, tp->nfails, sizeof(*tp->fails));
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
		tp->colls = traffic_grow(tp->colls, &tp->colls_cap, tp->ncolls, sizeof(*tp->colls));
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
		if (t->parts[p].net->qc) /* no thread runs: emptied QP blocks go back */
			nic_qps_window_end(t->parts[p].net);
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
			struct traffic_job *jb = &t->jobs[posts[k].job];
			jb->ops->noticed(t, jb, &posts[k]);
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
	for (uint32_t k = 0; k < n; k++) {
		if (t->coll_done)
			t->coll_done(t->ctx, &all[k].c);
		free(all[k].c.step.blocks); /* a training step's timeline */
	}
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
		last = traffic_later(last, t->parts[p].last_done_ps);
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

void traffic_flush(struct traffic *t)
{
	for (uint32_t ji = 0; ji < t->njobs; ji++)
		if (t->jobs[ji].ops->flush)
			t->jobs[ji].ops->flush(t, &t->jobs[ji]);
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

uint64_t traffic_job_qps(const struct scn_job *j)
{
	return traffic_pattern_of(j)->qps(j);
}

uint64_t traffic_job_posted_at_once(const struct scn_job *j)
{
	const struct traffic_pattern *ops = traffic_pattern_of(j);
	return ops->posted_at_once ? ops->posted_at_once(j) : 0;
}

uint64_t traffic_job_receivers(const struct scn_job *j)
{
	return traffic_pattern_of(j)->receivers(j);
}

uint64_t traffic_ranks_n(const struct scn_job *j)
{
	return j->ranks.n;
}

int traffic_qp(struct traffic *t, struct traffic_job *jb, size_t k, uint32_t src, uint32_t dst,
	       uint8_t dscp)
{
	for (uint32_t q = 0; q < jb->nq; q++) {
		uint32_t id = nic_add_qp(t->net, src, dst, dscp);
		if (id == NET_NONE)
			return -1;
		jb->qps[k * jb->nq + q] = id;
		/* its job from the start, which every partition that sees its
		 * packets reads, whichever process posts its messages */
		nic_qp_set_job(t->net, id, jb->index);
	}
	return 0;
}

void traffic_add_hosts(struct traffic_job *jb, uint8_t *seen, const uint32_t *h, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		if (!seen[h[k]]) {
			seen[h[k]] = 1;
			jb->hosts[jb->nhosts++] = h[k];
		}
}

void traffic_rank_hosts(struct traffic_job *jb, uint8_t *seen)
{
	traffic_add_hosts(jb, seen, jb->j->ranks.hosts, jb->j->ranks.n);
	jb->senders = jb->nhosts;
}

uint32_t traffic_rank_host(const struct traffic_job *jb, uint32_t idx)
{
	return jb->j->ranks.hosts[idx];
}

/* the job's distinct hosts (the pattern's senders first), and whether
 * they are in more than one partition */
static int job_hosts(struct traffic *t, struct traffic_job *jb)
{
	uint8_t *seen = calloc(t->net->nhosts, 1);
	jb->hosts = malloc(t->net->nhosts * sizeof(*jb->hosts));
	if (!seen || !jb->hosts) {
		free(seen);
		return -1;
	}
	jb->ops->hosts(jb, seen);
	free(seen);
	for (uint32_t k = 1; k < jb->nhosts; k++)
		if (traffic_part_of(t, jb->hosts[k]) != traffic_part_of(t, jb->hosts[0]))
			jb->spread = 1;
	return 0;
}

/*
 * The line rate a job's bus bandwidth is judged against (busbw_pct_line):
 * host_link with one GPU per server.  On GPU servers: NVLink for a job
 * within one server; for a ring or tree, the NICs of the rails its
 * channels use, min(channels, most ranks on one server) x host_link, but
 * not above a GPU's NVLink; for an all-to-all, whose bytes to the k - 1
 * other ranks of a server ride NVLink, host_link x (n - 1) / (n - k): the
 * bus bandwidth at which each NIC carries its n - k remote messages at line
 * rate (the patterns' gpu_line_bps); for incasts, permutations, traces and
 * storage, host_link.
 */
static int job_line_bps(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	const struct scenario *scn = t->scn;
	jb->line_bps = scn->host_link_bps;
	if (t->topo->gps == 1 || !jb->ops->gpu_line_bps)
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
	jb->line_bps = servers == 1 ? scn->nvlink_bps : jb->ops->gpu_line_bps(scn, j, k);
	return 0;
}

static int build_job(struct traffic *t, uint32_t ji, uint64_t base)
{
	const struct scenario *scn = t->scn;
	const struct scn_job *j = &scn->jobs[ji];
	struct traffic_job *jb = &t->jobs[ji];
	*jb = (struct traffic_job){ .j = j, .ops = traffic_pattern_of(j), .index = ji,
				    .base = base, .nq = 1,
				    .dscp = (uint8_t)(j->dscp >= 0 ? j->dscp : scn->data_dscp) };
	if (jb->ops->build(t, jb))
		return -1;
	if (!jb->id_stride)
		jb->id_stride = jb->per_iter;
	return jb->ops->open_qps(t, jb) || job_hosts(t, jb) || job_line_bps(t, jb) ? -1 : 0;
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
	nic_qps_share(nets, nparts);
	/* the first iteration of every job starts at the job's start */
	for (uint32_t ji = 0; ji < t->njobs; ji++)
		release(t, &t->jobs[ji], 0, scn->jobs[ji].start_ps, 0);
	return 0;
}

void traffic_free(struct traffic *t)
{
	for (uint32_t ji = 0; t->jobs && ji < t->njobs; ji++) {
		struct traffic_job *jb = &t->jobs[ji];
		if (jb->pat && jb->ops->free)
			jb->ops->free(jb->pat);
		free(jb->pat);
		free(jb->qps);
		free(jb->hosts);
	}
	for (uint32_t p = 0; t->parts && p < t->nparts; p++) {
		for (uint32_t k = 0; k < t->parts[p].ncolls; k++) /* not reported */
			free(t->parts[p].colls[k].c.step.blocks);
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
