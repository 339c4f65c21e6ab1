/*
 * traffic.c - turns [job.*] sections into flows and starts them on time.
 *
 * Patterns (DESIGN B7):
 *   trace          one flow per CSV row; `after` names a row that must
 *                  finish first: the flow starts at the later of its start_us
 *                  and that row's completion.  One QP per row.
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
 * Incast and permutation flows each have their own QP.
 *
 * Iterations: a job's flows are generated for every iteration at set-up
 * (flow ids are stable, so the NICs' pointers stay valid).  Iteration k+1
 * is released compute_gap after iteration k's last flow completes (all ranks
 * wait); within an iteration every rank (sender) starts up to `skew` late,
 * a delay drawn from the job's skew stream per (iteration, rank).
 *
 * Flows waiting to start sit in a min-heap on (start time, flow id) with a
 * single engine event for the earliest, so a million-row trace costs one
 * pending event, not a million.
 */
#include "traffic.h"

#include <gsl/gsl_randist.h>
#include <stdlib.h>

#include "evkey.h"
#include "invariant.h"
#include "net.h"
#include "nic.h"
#include "rng.h"
#include "scenario.h"

static int start_less(const struct traffic *t, uint32_t a, uint32_t b)
{
	const struct flow *x = &t->net->flows[a], *y = &t->net->flows[b];
	return x->start_ps < y->start_ps || (x->start_ps == y->start_ps && a < b);
}

static int heap_push(struct traffic *t, uint32_t id)
{
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 256;
		uint32_t *h = realloc(t->heap, cap * sizeof(*h));
		if (!h)
			return -1;
		t->heap = h;
		t->cap = cap;
	}
	uint32_t i = t->n++;
	while (i > 0 && start_less(t, id, t->heap[(i - 1) / 2])) {
		t->heap[i] = t->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	t->heap[i] = id;
	return 0;
}

static uint32_t heap_pop(struct traffic *t)
{
	uint32_t top = t->heap[0], last = t->heap[--t->n], i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= t->n)
			break;
		if (c + 1 < t->n && start_less(t, t->heap[c + 1], t->heap[c]))
			c++;
		if (!start_less(t, t->heap[c], last))
			break;
		t->heap[i] = t->heap[c];
		i = c;
	}
	if (t->n)
		t->heap[i] = last;
	return top;
}

static void traffic_arm(struct traffic *t)
{
	struct net *net = t->net;
	if (t->n)
		sim_schedule(&net->eng, &t->ev, net->flows[t->heap[0]].start_ps);
	else
		sim_cancel(&net->eng, &t->ev);
}

static void traffic_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct traffic *t = container_of(ev, struct traffic, ev);
	struct net *net = t->net;
	while (t->n && net->flows[t->heap[0]].start_ps <= eng->now)
		nic_post(net, &net->flows[heap_pop(t)]);
	traffic_arm(t);
}

/* release iteration c: every flow's start_ps held its offset within the
 * iteration (its sender's skew; a trace row's start_us); the roots start
 * then, the others at the later of that and their dependency's completion
 * (a straggler sends nothing before it has started) */
static void release(struct traffic *t, struct coll *c)
{
	for (uint32_t i = c->first_flow; i < c->first_flow + c->nflows; i++) {
		struct flow *fl = &t->net->flows[i];
		fl->start_ps += c->start_ps;
		if (fl->after < 0)
			SIM_INVARIANT(heap_push(t, i) == 0, "out of memory for flow starts");
	}
}

static void coll_flow_done(struct traffic *t, struct coll *c)
{
	struct net *net = t->net;
	if (++c->done < c->nflows)
		return;
	c->end_ps = net->eng.now;
	if (t->coll_done)
		t->coll_done(t->ctx, c);
	const struct scn_job *j = &t->scn->jobs[c->job];
	if (c->iter + 1 < j->iterations) {
		struct coll *next = c + 1;
		next->start_ps = net->eng.now + j->compute_gap_ps;
		release(t, next);
		traffic_arm(t);
	}
}

/* the net's flow_done observer: a message completed at its receiver */
static void flow_done(void *ctx, struct flow *fl)
{
	struct traffic *t = ctx;
	struct net *net = t->net;
	if (t->flow_done)
		t->flow_done(t->ctx, fl);
	coll_flow_done(t, &t->colls[fl->coll]);
	for (uint32_t d = fl->first_dep; d != NET_NONE; d = net->flows[d].next_dep) {
		struct flow *dep = &net->flows[d];
		if (dep->start_ps < net->eng.now)
			dep->start_ps = net->eng.now;
		SIM_INVARIANT(heap_push(t, d) == 0, "out of memory for flow starts");
	}
	if (fl->first_dep != NET_NONE)
		traffic_arm(t);
	if (traffic_finished(t))
		net->eng.stop = 1;
}

int traffic_finished(const struct traffic *t)
{
	return t->net->flows_done == t->net->nflows;
}

static uint8_t job_dscp(const struct scenario *scn, const struct scn_job *j)
{
	return (uint8_t)(j->dscp >= 0 ? j->dscp : scn->data_dscp);
}

/* what one job's generation needs */
struct gen {
	struct traffic *t;
	struct net *net;
	const struct scn_job *j;
	uint32_t ji;
	uint8_t dscp;
	gsl_rng *skew;      /* per (iteration, rank) start delays */
	uint32_t *qps;      /* the job's QPs, reused by every iteration */
	uint32_t *perm;     /* permutation: the derangement */
};

/* a sender's start delay in this iteration: uniform in [0, skew] */
static sim_time_ps skew_of(struct gen *g)
{
	if (!g->j->skew_ps)
		return 0;
	return (sim_time_ps)(gsl_rng_uniform(g->skew) * (double)g->j->skew_ps + 0.5);
}

/* flow on QP qp; `after` is a flow id or -1; offset: its earliest start
 * within the iteration */
static int add(struct gen *g, uint32_t qp, int64_t bytes, sim_time_ps offset, int64_t after)
{
	uint32_t id = nic_add_flow(g->net, g->ji, qp, bytes, offset, (int32_t)after);
	if (id == NET_NONE)
		return -1;
	g->net->flows[id].coll = g->t->ncolls;
	return 0;
}

static uint32_t qp(struct gen *g, uint32_t src, uint32_t dst)
{
	return nic_add_qp(g->net, src, dst, g->dscp);
}

static int derangement(struct gen *g)
{
	uint32_t n = g->j->ranks.n;
	gsl_rng *r = rng_stream(g->t->scn->seed, RNG_ID(RNG_JOB, g->ji));
	g->perm = malloc(n * sizeof(*g->perm));
	if (!r || !g->perm) {
		rng_free(r);
		return -1;
	}
	/* rejection sampling: a uniform shuffle has no fixed point with
	 * probability about 1/e, so this takes about 2.7 shuffles */
	for (int fixed = 1; fixed;) {
		for (uint32_t i = 0; i < n; i++)
			g->perm[i] = i;
		gsl_ran_shuffle(r, g->perm, n, sizeof(*g->perm));
		fixed = 0;
		for (uint32_t i = 0; i < n && !fixed; i++)
			fixed = g->perm[i] == i;
	}
	rng_free(r);
	return 0;
}

/* split `total` into `parts` near-equal parts: part k */
static int64_t part(int64_t total, uint32_t parts, uint32_t k)
{
	return total / parts + ((int64_t)k < total % parts);
}

static int gen_ring(struct gen *g, int64_t *bytes)
{
	const struct scn_job *j = g->j;
	uint32_t n = j->ranks.n, C = j->channels, steps = 2 * (n - 1);
	/* one pass to fix each rank's skew, shared by its channels */
	sim_time_ps *rank_skew = malloc(n * sizeof(*rank_skew));
	if (!rank_skew)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		rank_skew[i] = skew_of(g);
	*bytes = j->size_bytes;
	int rc = 0;
	/* first[(c, s, i)]: the flow id of slice 0 of channel c, step s, rank i;
	 * slice j of it depends on slice j of (c, s - 1, i - 1) */
	uint32_t *first = malloc((size_t)C * steps * n * sizeof(*first));
	if (!first) {
		rc = -1;
		goto out;
	}
	for (uint32_t c = 0; c < C && rc == 0; c++) {
		int64_t per_channel = part(j->size_bytes, C, c);
		for (uint32_t s = 0; s < steps && rc == 0; s++)
			for (uint32_t i = 0; i < n && rc == 0; i++) {
				size_t k = ((size_t)c * steps + s) * n + i;
				uint32_t chunk_idx = (i + n * steps - s) % n;
				int64_t chunk = part(per_channel, n, chunk_idx);
				uint32_t m = (uint32_t)((chunk + j->slice_bytes - 1) / j->slice_bytes);
				first[k] = g->net->nflows;
				for (uint32_t sl = 0; sl < m && rc == 0; sl++) {
					int64_t sz = chunk - (int64_t)sl * j->slice_bytes;
					if (sz > j->slice_bytes)
						sz = j->slice_bytes;
					int64_t after = -1;
					if (s > 0) {
						size_t pk = ((size_t)c * steps + s - 1) * n + (i + n - 1) % n;
						after = first[pk] + sl;
					}
					rc = add(g, g->qps[c * n + i], sz, rank_skew[i], after);
				}
			}
	}
out:
	free(first);
	free(rank_skew);
	return rc;
}

/* the flows of one iteration of the job; *bytes gets the iteration's size */
static int gen_iteration(struct gen *g, int64_t *bytes)
{
	const struct scn_job *j = g->j;
	int rc = 0;
	*bytes = 0;
	switch (j->pattern) {
	case SCN_JOB_TRACE: {
		uint32_t base = g->net->nflows;
		for (uint32_t r = 0; r < j->nrows && rc == 0; r++) {
			const struct scn_trace_row *row = &j->rows[r];
			uint8_t dscp = row->dscp >= 0 ? (uint8_t)row->dscp : g->dscp;
			uint32_t q = g->qps[r] != NET_NONE ? g->qps[r]
							    : nic_add_qp(g->net, row->src, row->dst, dscp);
			if (q == NET_NONE)
				return -1;
			g->qps[r] = q;
			int64_t after = row->after >= 0 ? (int64_t)base + row->after : -1;
			rc = add(g, q, row->bytes, row->start_ps + skew_of(g), after);
			*bytes += row->bytes;
		}
		break;
	}
	case SCN_JOB_INCAST:
		for (uint32_t s = 0; s < j->senders.n && rc == 0; s++) {
			uint32_t q = qp(g, j->senders.hosts[s], j->dst);
			rc = q == NET_NONE ? -1 : add(g, q, j->size_bytes, skew_of(g), -1);
			*bytes += j->size_bytes;
		}
		break;
	case SCN_JOB_PERMUTATION:
		for (uint32_t i = 0; i < j->ranks.n && rc == 0; i++) {
			uint32_t q = qp(g, j->ranks.hosts[i], j->ranks.hosts[g->perm[i]]);
			rc = q == NET_NONE ? -1 : add(g, q, j->size_bytes, skew_of(g), -1);
			*bytes += j->size_bytes;
		}
		break;
	case SCN_JOB_RING_ALLREDUCE:
		rc = gen_ring(g, bytes);
		break;
	case SCN_JOB_ALLTOALL: {
		uint32_t n = j->ranks.n;
		int64_t each = j->size_bytes / n;
		for (uint32_t i = 0; i < n && rc == 0; i++) {
			sim_time_ps off = skew_of(g);
			uint32_t prev = NET_NONE;
			for (uint32_t k = 1; k < n && rc == 0; k++) {
				uint32_t id = g->net->nflows;
				int64_t after = j->schedule == SCN_SCHEDULE_SHIFT && prev != NET_NONE
							? (int64_t)prev : -1;
				rc = add(g, g->qps[i * n + k], each, off, after);
				prev = id;
			}
		}
		*bytes = j->size_bytes;
		break;
	}
	}
	return rc;
}

/* the job's persistent QPs (collectives and traces reuse them every
 * iteration; incast and permutation make one per flow) */
static int job_qps(struct gen *g)
{
	const struct scn_job *j = g->j;
	uint32_t n = j->ranks.n, count = 0;
	if (j->pattern == SCN_JOB_RING_ALLREDUCE)
		count = j->channels * n;
	else if (j->pattern == SCN_JOB_ALLTOALL)
		count = n * n;
	else if (j->pattern == SCN_JOB_TRACE)
		count = j->nrows;
	if (!count)
		return 0;
	g->qps = malloc((size_t)count * sizeof(*g->qps));
	if (!g->qps)
		return -1;
	for (uint32_t i = 0; i < count; i++)
		g->qps[i] = NET_NONE;
	if (j->pattern == SCN_JOB_RING_ALLREDUCE) {
		for (uint32_t c = 0; c < j->channels; c++)
			for (uint32_t i = 0; i < n; i++)
				if ((g->qps[c * n + i] = qp(g, j->ranks.hosts[i],
							     j->ranks.hosts[(i + 1) % n])) ==
				    NET_NONE)
					return -1;
	} else if (j->pattern == SCN_JOB_ALLTOALL) {
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t k = 1; k < n; k++)
				if ((g->qps[i * n + k] = qp(g, j->ranks.hosts[i],
							     j->ranks.hosts[(i + k) % n])) ==
				    NET_NONE)
					return -1;
	}
	return 0;
}

static int add_coll(struct traffic *t, struct coll c)
{
	if (t->ncolls == t->colls_cap) {
		uint32_t cap = t->colls_cap ? t->colls_cap * 2 : 16;
		struct coll *a = realloc(t->colls, cap * sizeof(*a));
		if (!a)
			return -1;
		t->colls = a;
		t->colls_cap = cap;
	}
	t->colls[t->ncolls++] = c;
	return 0;
}

static uint32_t distinct_sources(const struct net *net, uint32_t first, uint32_t end)
{
	uint32_t n = 0;
	uint8_t *seen = calloc(net->nhosts, 1);
	SIM_INVARIANT(seen, "out of memory");
	for (uint32_t i = first; i < end; i++)
		if (!seen[net->flows[i].src]) {
			seen[net->flows[i].src] = 1;
			n++;
		}
	free(seen);
	return n;
}

static int build_job(struct traffic *t, uint32_t ji)
{
	struct net *net = t->net;
	const struct scn_job *j = &t->scn->jobs[ji];
	struct gen g = { .t = t, .net = net, .j = j, .ji = ji, .dscp = job_dscp(t->scn, j) };
	int rc = -1;
	g.skew = rng_stream(t->scn->seed, RNG_ID(RNG_SKEW, ji));
	if (!g.skew || job_qps(&g) ||
	    (j->pattern == SCN_JOB_PERMUTATION && derangement(&g)))
		goto out;
	uint32_t ranks = j->pattern == SCN_JOB_INCAST ? j->senders.n + 1
			 : j->pattern == SCN_JOB_TRACE ? 0 : j->ranks.n;
	for (uint32_t it = 0; it < j->iterations; it++) {
		uint32_t first = net->nflows;
		int64_t bytes;
		if (gen_iteration(&g, &bytes))
			goto out;
		struct coll c = { .job = ji, .iter = it, .first_flow = first,
				  .nflows = net->nflows - first, .ranks = ranks, .bytes = bytes,
				  .start_ps = j->start_ps, .end_ps = -1 };
		c.senders = distinct_sources(net, first, net->nflows);
		if (add_coll(t, c))
			goto out;
	}
	rc = 0;
out:
	rng_free(g.skew);
	free(g.qps);
	free(g.perm);
	return rc;
}

int traffic_build(struct traffic *t, struct net *net, const struct scenario *scn)
{
	t->net = net;
	t->scn = scn;
	sim_event_init(&t->ev, traffic_fire, SIM_KEY(EVKEY_TRAFFIC, 0, 0));
	net->obs.flow_done = flow_done;
	net->obs.flow_ctx = t;
	for (uint32_t ji = 0; ji < scn->njobs; ji++)
		if (build_job(t, ji))
			return -1;
	for (uint32_t i = 0; i < net->nflows; i++) {
		struct flow *fl = &net->flows[i];
		if (fl->after >= 0) {
			struct flow *first = &net->flows[fl->after];
			fl->next_dep = first->first_dep;
			first->first_dep = i;
		}
	}
	/* the first iteration of every job starts at the job's start */
	for (uint32_t c = 0; c < t->ncolls; c++)
		if (t->colls[c].iter == 0)
			release(t, &t->colls[c]);
	traffic_arm(t);
	return 0;
}

void traffic_free(struct traffic *t)
{
	free(t->colls);
	free(t->heap);
	t->colls = NULL;
	t->heap = NULL;
	t->n = t->cap = t->ncolls = t->colls_cap = 0;
}
