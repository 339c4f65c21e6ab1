/*
 * qpcache.c - nic.qp_cache: a QP has its state in the table only while it
 * needs it.  An all-to-all of n ranks opens n (n - 1) QPs (8,192 ranks:
 * 67 M, 8.6 GB at 128 B), but a rank has messages on a few of them at a
 * time; as a NIC keeps the contexts of its active QPs in a cache backed by
 * host memory, a run whose QPs exceed nic.qp_cache keeps the state of about
 * that many, and a QP at rest keeps only its home (5 B: its PSN and its
 * state; an all-to-all computes its ends and job, which other QPs keep in
 * 6 B more) and, in its partition's buckets, a pending retransmission
 * timer (8 B).  A QP's struct qp_cc (nic.h), made only once DCQCN cuts it or
 * it waits, lies in a table beside, which the same rules govern.
 *
 * The table is address space for every QP (slab_reserve): a QP's state
 * stays at its slot, so that nothing that holds a QP (the ready ring, the
 * engine's events, the samplers) sees it move.  Its pages take memory only
 * once written, and a block of whole pages whose QPs have all given their
 * state up is given back to the system (slab_drop): it reads as zeroes
 * again, and a QP whose slot reads live = 0 has no state (nic_qp).
 *
 * At rest.  A QP gives its state up only when a new QP with the same PSN,
 * job and pending timer would behave exactly as it does, so that no output
 * changes: no message, nothing unacknowledged or waiting to be sent, no
 * pacing, no timeout counted, never a packet sent twice (a copy could still
 * be on its way to the receiver), the receiver's end settled (everything
 * accepted and acknowledged, no NAK out).  Its congestion control, DCQCN's
 * or InfiniBand's, and its receiver's last CNP are kept aside (128 B, in a
 * hash of its sender's partition) unless they are as a new QP's (a QP
 * DCQCN never cut).  What a new QP sets differently (pacing's last send, the
 * last progress) is written before it is read again.  Its retransmission
 * timer is the one event a QP at rest may still have pending: it is taken
 * from the engine into the partition's buckets of such timers, which fire
 * at their times (timers_ev; those of one time by QP) as the timer would
 * have: nothing at rest, and for a QP that
 * has its state again by then what nic_rto_fire does (q->rto_heap: the
 * QP's own timer is not armed meanwhile, as it would not have been while
 * pending).  So the engine has events at the same times as before, and
 * the windows, which follow the next event, do not change.
 *
 * Threads.  A QP's sender's partition gives it its state (at a post, or a
 * control frame that reaches it) and takes it away (trim, after an
 * acknowledgement); the receiver's partition writes its receiving half only
 * while data of it is on its way, which never is the case at rest.  The
 * counts of QPs with state per block are atomic, and a block is given back
 * at once by a run of one partition, else at the window's end, when no
 * thread runs, if it is still empty.
 */
#include "models/node/internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/invariant.h"
#include "models/base/slab.h"
#include "models/core/evkey.h"

int nic_qps_cached(const struct net *net, uint64_t n)
{
	const struct nic_config *cfg = net->nics[0].cfg;
	/* TCP's state and the out-of-order maps of adaptive routing are
	 * beside the table: such runs keep every QP */
	return cfg->qp_cache && n > cfg->qp_cache && !cfg->tcp && !cfg->reorder;
}

/* QPs a block of a table of `size`-byte entries: the fewest that fill
 * whole pages */
static uint32_t block_qps(size_t size)
{
	size_t page = slab_page_bytes(), a = size, b = page;
	while (b) {
		size_t r = a % b;
		a = b;
		b = r;
	}
	return (uint32_t)(page / a);
}

static void timers_fire(struct sim_engine *eng, struct sim_event *ev);

/* the table, the homes and the spans of c, given back */
static void table_free(struct net *net, struct qp_cache *c)
{
	slab_unreserve(c->psn, (size_t)c->cap * sizeof(*c->psn));
	slab_unreserve(c->flags, (size_t)c->cap * sizeof(*c->flags));
	slab_unreserve(c->ends, (size_t)c->cap * sizeof(*c->ends));
	slab_unreserve(net->qps, (size_t)c->cap * sizeof(struct qp));
	slab_unreserve(net->qp_cc, (size_t)c->cap * sizeof(struct qp_cc));
	for (uint32_t k = 0; k < c->nspans; k++)
		free(c->spans[k].hosts);
	free(c->spans);
	free(c->block_live);
	free(c->cc_block_live);
	free(c);
}

int nic_qps_cache_init(struct net *net, uint32_t n)
{
	struct qp_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return -1;
	c->block = block_qps(sizeof(struct qp));
	c->cc_block = block_qps(sizeof(struct qp_cc));
	uint32_t whole = c->block > c->cc_block ? c->block : c->cc_block; /* powers of 2 */
	c->cap = (n + whole - 1) / whole * whole;
	c->pinned = net->nics[0].cfg->qp_pinned;
	c->nparts = 1;
	c->psn = slab_reserve((size_t)c->cap * sizeof(*c->psn));
	c->flags = slab_reserve((size_t)c->cap * sizeof(*c->flags));
	c->ends = slab_reserve((size_t)c->cap * sizeof(*c->ends));
	c->block_live = calloc(c->cap / c->block, sizeof(*c->block_live));
	c->cc_block_live = calloc(c->cap / c->cc_block, sizeof(*c->cc_block_live));
	net->qps = slab_reserve((size_t)c->cap * sizeof(struct qp));
	net->qp_cc = slab_reserve((size_t)c->cap * sizeof(struct qp_cc));
	if (!c->psn || !c->flags || !c->ends || !c->block_live || !c->cc_block_live ||
	    !net->qps || !net->qp_cc) {
		table_free(net, c);
		net->qps = NULL;
		net->qp_cc = NULL;
		return -1;
	}
	net->qc = c;
	net->qps_cap = c->cap;
	net->qps_limit = net->nics[0].cfg->qp_cache;
	sim_event_init(&net->timers_ev, timers_fire, SIM_KEY(EVKEY_QP, net->part, EVKEY_QP_AT_REST));
	return 0;
}

uint32_t nic_qps_cache_add(struct net *net, uint32_t src, uint32_t dst, uint8_t dscp)
{
	if (net->nqps == net->qps_cap)
		return NET_NONE;
	uint32_t qid = net->nqps++;
	net->qc->ends[qid] = (struct qp_ends){ .job = QP_HOME_NO_JOB, .src = (uint16_t)src,
					       .dst = (uint16_t)dst, .dscp = dscp };
	if (qid < net->qc->pinned)
		nic_qp_restore(net, qid);
	return qid;
}

uint32_t nic_qps_cache_add_pairs(struct net *net, const uint32_t *hosts, uint32_t n, uint32_t nq,
				 uint8_t dscp, uint32_t job)
{
	struct qp_cache *c = net->qc;
	uint64_t count = (uint64_t)n * (n ? n - 1 : 0) * nq;
	SIM_INVARIANT(job < QP_HOME_NO_JOB, "job %u beyond a home's", job);
	if (count > net->qps_cap - net->nqps)
		return NET_NONE;
	uint32_t first = net->nqps;
	if (!count)
		return first;
	struct qp_span *a = realloc(c->spans, (c->nspans + 1) * sizeof(*a));
	uint32_t *h = malloc(n * sizeof(*h));
	if (!a || !h) {
		free(h);
		if (a)
			c->spans = a;
		return NET_NONE;
	}
	memcpy(h, hosts, n * sizeof(*h));
	c->spans = a;
	c->spans[c->nspans++] = (struct qp_span){ .first = first, .count = (uint32_t)count,
						  .n = n, .nq = nq, .dscp = dscp,
						  .job = (uint8_t)job, .hosts = h };
	net->nqps += (uint32_t)count;
	for (uint32_t qid = first; qid < net->nqps && qid < c->pinned; qid++)
		nic_qp_restore(net, qid); /* its job the span's */
	return first;
}

/* the span of QP qid, or NULL: the last whose first is not beyond it */
static const struct qp_span *span_of(const struct qp_cache *c, uint32_t qid)
{
	uint32_t lo = 0, hi = c->nspans;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->spans[mid].first <= qid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || qid - c->spans[lo - 1].first >= c->spans[lo - 1].count)
		return NULL;
	return &c->spans[lo - 1];
}

/* QP qid's ends, DSCP and job */
static struct qp_ends ends_of(const struct qp_cache *c, uint32_t qid)
{
	const struct qp_span *s = span_of(c, qid);
	if (!s)
		return c->ends[qid];
	uint32_t x = (qid - s->first) / s->nq, i = x / (s->n - 1), k = x % (s->n - 1) + 1;
	return (struct qp_ends){ .src = (uint16_t)s->hosts[i],
				 .dst = (uint16_t)s->hosts[(i + k) % s->n],
				 .dscp = s->dscp, .job = s->job };
}

void nic_qps_share(struct net *const *nets, uint32_t nparts)
{
	struct qp_cache *c = nets[0]->qc;
	if (c)
		c->nparts = nparts;
	for (uint32_t p = 0; p < nparts; p++) {
		struct net *net = nets[p];
		if (p) {
			net->qps = nets[0]->qps;
			net->qp_cc = nets[0]->qp_cc;
			net->rxwin = nets[0]->rxwin;
			net->tcp = nets[0]->tcp;
			net->nqps = nets[0]->nqps;
			net->qc = c;
		}
		if (!c)
			continue;
		/* each partition keeps its share */
		uint64_t share = nets[0]->nics[0].cfg->qp_cache / nparts;
		net->qps_limit = share ? share : 1;
		if (p)
			sim_event_init(&net->timers_ev, timers_fire,
				       SIM_KEY(EVKEY_QP, net->part, EVKEY_QP_AT_REST));
	}
}

/* ---- the timers of QPs at rest: buckets of times, each with its QP ---- */

/* the timers whose times share their high 32 bits (4.29 ms of ps): a heap
 * of the low 32 bits, then the QP, in one word (8 B a timer, where a time
 * and a QP take 12) */
struct rest_timers {
	sim_time_ps hi;
	uint64_t *e;
	uint32_t n, cap;
};

static sim_time_ps timers_first(const struct net *net)
{
	const struct rest_timers *b = &net->timers[0];
	return b->hi << 32 | (sim_time_ps)(b->e[0] >> 32);
}

/* the bucket of the times with high bits hi, made where it belongs */
static struct rest_timers *bucket(struct net *net, sim_time_ps hi)
{
	uint32_t lo = 0, up = net->ntimers;
	while (lo < up) {
		uint32_t mid = lo + (up - lo) / 2;
		if (net->timers[mid].hi < hi)
			lo = mid + 1;
		else
			up = mid;
	}
	if (lo < net->ntimers && net->timers[lo].hi == hi)
		return &net->timers[lo];
	if (net->ntimers == net->timers_cap)
		net->timers = slab_grow(net->timers, &net->timers_cap, sizeof(*net->timers), 8,
					"the timers of QPs at rest");
	memmove(&net->timers[lo + 1], &net->timers[lo],
		(net->ntimers - lo) * sizeof(*net->timers));
	net->ntimers++;
	net->timers[lo] = (struct rest_timers){ .hi = hi };
	return &net->timers[lo];
}

static void timers_push(struct net *net, sim_time_ps t, uint32_t qid)
{
	SIM_INVARIANT(t >= 0, "a timer at %lld ps", (long long)t);
	struct rest_timers *b = bucket(net, t >> 32);
	if (b->n == b->cap)
		b->e = slab_grow(b->e, &b->cap, sizeof(*b->e), 64, "the timers of QPs at rest");
	uint64_t x = (uint64_t)(t & UINT32_MAX) << 32 | qid;
	uint32_t i = b->n++;
	while (i > 0 && x < b->e[(i - 1) / 2]) {
		b->e[i] = b->e[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	b->e[i] = x;
	/* the event moves only to an earlier time (a timer of its time but
	 * of a lower QP leaves it as it was scheduled) */
	struct sim_event *ev = &net->timers_ev;
	if (!sim_event_pending(ev) || t < ev->time) {
		if (sim_event_pending(ev))
			sim_cancel(&net->eng, ev);
		sim_schedule(&net->eng, ev, t);
	}
}

/* the first timer out of the buckets: its QP */
static uint32_t timers_pop(struct net *net)
{
	struct rest_timers *b = &net->timers[0];
	uint32_t first = (uint32_t)b->e[0];
	uint64_t last = b->e[--b->n];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= b->n)
			break;
		if (c + 1 < b->n && b->e[c + 1] < b->e[c])
			c++;
		if (b->e[c] >= last)
			break;
		b->e[i] = b->e[c];
		i = c;
	}
	if (b->n) {
		b->e[i] = last;
	} else { /* the bucket is done */
		free(b->e);
		memmove(&net->timers[0], &net->timers[1], --net->ntimers * sizeof(*net->timers));
	}
	return first;
}

/* the time of a timer that a QP took to rest: at rest it does nothing, as
 * the timer would not have; a QP with its state again meets it as its own
 * (its deadline has moved on since: the timer is armed again for it) */
static void timers_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct net *net = container_of(ev, struct net, timers_ev);
	while (net->ntimers && timers_first(net) <= eng->now) {
		SIM_INVARIANT(timers_first(net) == eng->now,
			      "a timer of a QP at rest due at %lld ps fires at %lld ps",
			      (long long)timers_first(net), (long long)eng->now);
		uint32_t qid = timers_pop(net);
		uint8_t *f = &net->qc->flags[qid];
		if ((*f & QP_HOME_STATE) != QP_HOME_LIVE) {
			*f &= (uint8_t)~QP_HOME_TIMER;
			continue;
		}
		struct qp *q = &net->qps[qid];
		SIM_INVARIANT(q->rto_heap, "QP %u has a timer at rest and its own", qid);
		q->rto_heap = 0;
		nic_rto_fire(net, q);
	}
	if (net->ntimers)
		sim_schedule(eng, ev, timers_first(net));
}

/* ---- the congestion control of QPs at rest: a hash of QP ids ---- */

/* DCQCN's state, or InfiniBand's in its first bytes (they share the place) */
struct qp_cc_kept {
	uint32_t qid;
	sim_time_ps last_cnp_ps;       /* its receiver's last CNP (qp_rx) */
	unsigned char cc[sizeof(struct dcqcn_qp)];
};
_Static_assert(sizeof(struct ibcc_qp) <= sizeof(struct dcqcn_qp),
	       "InfiniBand's congestion control shares DCQCN's place");

static uint32_t cc_hash(const struct net *net, uint32_t qid)
{
	return (uint32_t)(qid * 2654435761u) & (net->cc_nslots - 1);
}

/* the slot of qid, or of the empty place where it would go */
static uint32_t cc_slot(const struct net *net, uint32_t qid)
{
	uint32_t i = cc_hash(net, qid);
	while (net->cc_slots[i] && (uint32_t)(net->cc_slots[i] >> 32) != qid + 1)
		i = (i + 1) & (net->cc_nslots - 1);
	return i;
}

/* twice the slots, at most half of them full */
static void cc_grow(struct net *net)
{
	uint64_t *old = net->cc_slots;
	uint32_t n = net->cc_nslots;
	net->cc_nslots = n ? 2 * n : 1024;
	net->cc_slots = calloc(net->cc_nslots, sizeof(*net->cc_slots));
	SIM_INVARIANT(net->cc_slots, "out of memory for the QPs at rest");
	for (uint32_t i = 0; i < n; i++)
		if (old[i])
			net->cc_slots[cc_slot(net, (uint32_t)(old[i] >> 32) - 1)] = old[i];
	free(old);
}

static void cc_keep(struct net *net, const struct qp *q)
{
	if (2 * (net->cc_n + 1) > net->cc_nslots)
		cc_grow(net);
	if (net->cc_n == net->cc_cap)
		net->cc_kept = slab_grow(net->cc_kept, &net->cc_cap, sizeof(*net->cc_kept), 256,
					 "the QPs at rest");
	struct qp_cc_kept *k = &net->cc_kept[net->cc_n];
	k->qid = q->id;
	k->last_cnp_ps = q->rx.last_cnp_ps;
	memcpy(k->cc, &net->qp_cc[q->id].dc, sizeof(k->cc));
	net->cc_slots[cc_slot(net, q->id)] = (uint64_t)(q->id + 1) << 32 | net->cc_n++;
}

/* q's congestion control back from the table, which forgets it */
static void cc_take(struct net *net, struct qp *q)
{
	uint32_t i = cc_slot(net, q->id), mask = net->cc_nslots - 1;
	SIM_INVARIANT(net->cc_slots[i], "QP %u kept no congestion control", q->id);
	uint32_t at = (uint32_t)net->cc_slots[i];
	memcpy(&nic_qp_cc(net, q)->dc, net->cc_kept[at].cc, sizeof(net->cc_kept[at].cc));
	q->rx.last_cnp_ps = net->cc_kept[at].last_cnp_ps;
	/* the last state fills its place */
	if (at != --net->cc_n) {
		net->cc_kept[at] = net->cc_kept[net->cc_n];
		uint32_t m = cc_slot(net, net->cc_kept[at].qid);
		net->cc_slots[m] = (net->cc_slots[m] >> 32) << 32 | at;
	}
	/* linear probing without tombstones: the slots after the hole that
	 * may not stay behind it move into it */
	net->cc_slots[i] = 0;
	for (uint32_t j = (i + 1) & mask; net->cc_slots[j]; j = (j + 1) & mask) {
		uint32_t h = cc_hash(net, (uint32_t)(net->cc_slots[j] >> 32) - 1);
		if (((j - h) & mask) >= ((j - i) & mask)) {
			net->cc_slots[i] = net->cc_slots[j];
			net->cc_slots[j] = 0;
			i = j;
		}
	}
}

/* ---- state given back and given up ---- */

void nic_qp_restore(struct net *net, uint32_t qid)
{
	struct qp_cache *c = net->qc;
	struct qp_ends e = ends_of(c, qid);
	uint8_t f = c->flags[qid];
	struct net *sn = net->nics[e.src].net; /* the sender's partition, which runs this */
	nic_qp_fresh(net, qid, e.src, e.dst, e.dscp);
	struct qp *q = &net->qps[qid];
	q->psn_nxt = q->psn_una = q->psn_max = q->rx.nxt = c->psn[qid];
	q->job = e.job == QP_HOME_NO_JOB ? NET_NONE : e.job;
	if ((f & QP_HOME_STATE) == QP_HOME_AT_REST_CC)
		cc_take(sn, q);
	q->rto_heap = !!(f & QP_HOME_TIMER); /* its timer, still in the heap, fires there */
	c->flags[qid] = QP_HOME_LIVE;
	q->live = 1;
	atomic_fetch_add_explicit(&c->block_live[qid / c->block], 1, memory_order_relaxed);
	if (++sn->qps_live > sn->qps_live_peak)
		sn->qps_live_peak = sn->qps_live;
}

/* would a new QP with q's PSN, job and timer behave as q does (the
 * comment at the top) */
static int at_rest(const struct net *net, const struct qp *q)
{
	if (!q->live || q->head || q->snd || q->ready || q->pacing || q->failed || q->local ||
	    q->resent || q->timeouts || q->rto_at_ps ||
	    (q->cc && sim_event_pending(&net->qp_cc[q->id].pace_ev)))
		return 0;
	if (q->psn_nxt != q->psn_max || q->psn_una != q->psn_max || q->rx.nxt != q->psn_max ||
	    q->rx.unacked || q->rx.nak_sent || q->rx.ce || (net->rxwin && net->rxwin[q->id]))
		return 0;
	return 1;
}

/* is q's congestion control as a new QP's */
static int cc_fresh(const struct net *net, const struct qp *q)
{
	const struct nic_config *cfg = net->nics[q->src].cfg;
	if (!q->cc) /* never made: a new QP's */
		return 1;
	if (cfg->dcqcn)
		return dcqcn_fresh(&cfg->dcqcn_params, &net->qp_cc[q->id].dc);
	return !cfg->ibcc || ibcc_fresh(&cfg->ibcc_params, &net->qp_cc[q->id].ibcc);
}

/* the blocks of the two tables: struct qp's, and struct qp_cc's tagged */
#define EMPTIED_CC (UINT32_C(1) << 31)

static _Atomic unsigned char *block_count(const struct qp_cache *c, uint32_t b)
{
	return b & EMPTIED_CC ? &c->cc_block_live[b & ~EMPTIED_CC] : &c->block_live[b];
}

/* a block's memory back to the system */
static void drop(const struct net *net, uint32_t b)
{
	const struct qp_cache *c = net->qc;
	if (b & EMPTIED_CC) {
		b &= ~EMPTIED_CC;
		slab_drop(&net->qp_cc[(size_t)b * c->cc_block],
			  (size_t)c->cc_block * sizeof(struct qp_cc));
	} else {
		slab_drop(&net->qps[(size_t)b * c->block], (size_t)c->block * sizeof(struct qp));
	}
}

/* a QP of block b gave its state up: an emptied block goes back (at the
 * window's end when other threads run) */
static void release(struct net *net, uint32_t b)
{
	struct qp_cache *c = net->qc;
	if (atomic_fetch_sub_explicit(block_count(c, b), 1, memory_order_relaxed) != 1)
		return;
	if (c->nparts == 1) { /* no other thread: the block goes back now */
		drop(net, b);
		return;
	}
	if (net->nemptied == net->emptied_cap)
		net->emptied = slab_grow(net->emptied, &net->emptied_cap, sizeof(*net->emptied),
					 64, "the QP blocks to give back");
	net->emptied[net->nemptied++] = b;
}

void nic_qp_cc_made(struct net *net, uint32_t qid)
{
	struct qp_cache *c = net->qc;
	atomic_fetch_add_explicit(&c->cc_block_live[qid / c->cc_block], 1, memory_order_relaxed);
}

/* q gives its state up (on its sender's thread) */
static void give_up(struct net *net, struct qp *q)
{
	struct qp_cache *c = net->qc;
	c->psn[q->id] = q->psn_max; /* its job is in its home since it was set */
	uint8_t f = q->rto_heap ? QP_HOME_TIMER : 0; /* in the heap since it last rested */
	if (q->rto_pos) {
		/* never both: rto_arm sets no timer while rto_heap */
		SIM_INVARIANT(!q->rto_heap, "QP %u has two retransmission timers", q->id);
		f = QP_HOME_TIMER;
		timers_push(net, nic_rto_take(net, q), q->id);
	}
	f |= QP_HOME_AT_REST;
	if (!cc_fresh(net, q) || q->rx.last_cnp_ps >= 0) { /* DCQCN cut it: kept aside */
		cc_keep(net, q);
		f = (uint8_t)((f & ~QP_HOME_STATE) | QP_HOME_AT_REST_CC);
	}
	c->flags[q->id] = f;
	q->live = 0;
	net->qps_live--;
	if (q->cc)
		release(net, q->id / c->cc_block | EMPTIED_CC);
	release(net, q->id / c->block);
}

void nic_qp_at_rest(struct net *net, struct qp *q)
{
	if (q->rest || q->id < net->qc->pinned)
		return;
	if (net->rest_n == net->rest_cap) { /* the ring doubles, its items in order */
		uint32_t cap = net->rest_cap ? 2 * net->rest_cap : 256;
		uint32_t *a = malloc(cap * sizeof(*a));
		SIM_INVARIANT(a, "out of memory for the QPs at rest");
		for (uint32_t k = 0; k < net->rest_n; k++)
			a[k] = net->rest[(net->rest_head + k) % net->rest_cap];
		free(net->rest);
		net->rest = a;
		net->rest_head = 0;
		net->rest_cap = cap;
	}
	net->rest[(net->rest_head + net->rest_n++) % net->rest_cap] = q->id;
	q->rest = 1;
}

void nic_qps_trim(struct net *net)
{
	while (net->qps_live > net->qps_limit && net->rest_n) {
		struct qp *q = &net->qps[net->rest[net->rest_head]];
		net->rest_head = (net->rest_head + 1) % net->rest_cap;
		net->rest_n--;
		q->rest = 0;
		if (at_rest(net, q)) /* else busy again: listed when it next rests */
			give_up(net, q);
	}
}

void nic_qps_window_end(struct net *net)
{
	struct qp_cache *c = net->qc;
	for (uint32_t k = 0; k < net->nemptied; k++)
		if (!atomic_load_explicit(block_count(c, net->emptied[k]), memory_order_relaxed))
			drop(net, net->emptied[k]);
	net->nemptied = 0;
}

const struct qp *nic_qp_peek(const struct net *net, uint32_t qid)
{
	if (!net->qc)
		return &net->qps[qid];
	return (net->qc->flags[qid] & QP_HOME_STATE) == QP_HOME_LIVE ? &net->qps[qid] : NULL;
}

uint32_t nic_qps_pinned(const struct net *net)
{
	if (!net->qc)
		return net->nqps;
	return net->nqps < net->qc->pinned ? net->nqps : net->qc->pinned;
}

uint32_t nic_qp_job(const struct net *net, uint32_t qid)
{
	if (!net->qc)
		return net->qps[qid].job;
	uint8_t j = ends_of(net->qc, qid).job;
	return j == QP_HOME_NO_JOB ? NET_NONE : j;
}

void nic_qp_home_job(struct net *net, uint32_t qid, uint32_t job)
{
	SIM_INVARIANT(job < QP_HOME_NO_JOB, "job %u of QP %u beyond a home's", job, qid);
	const struct qp_span *s = span_of(net->qc, qid);
	if (s) /* a span's are its job's from the start */
		SIM_INVARIANT(job == s->job, "QP %u of job %u is given job %u", qid, s->job, job);
	else
		net->qc->ends[qid].job = (uint8_t)job;
}

size_t nic_qp_home_bytes(void)
{
	/* and its retransmission timer, pending at rest for nic.rto (4.29 s)
	 * after its first packet: the low half of its time and its QP in the
	 * partition's buckets */
	return sizeof(uint32_t) + sizeof(uint8_t) + sizeof(uint64_t);
}

size_t nic_qp_ends_bytes(void)
{
	return sizeof(struct qp_ends);
}

void nic_qps_cache_free(struct net *net)
{
	struct qp_cache *c = net->qc;
	if (c && net->part == 0) /* partition 0's net made it */
		table_free(net, c);
	net->qc = NULL;
	net->qp_cc = NULL;
	free(net->rest);
	free(net->emptied);
	for (uint32_t k = 0; k < net->ntimers; k++)
		free(net->timers[k].e);
	free(net->timers);
	free(net->cc_slots);
	free(net->cc_kept);
	net->cc_slots = NULL;
	net->cc_kept = NULL;
	net->cc_n = net->cc_cap = net->cc_nslots = 0;
	net->rest = net->emptied = NULL;
	net->timers = NULL;
	net->rest_n = net->rest_cap = net->nemptied = net->emptied_cap = 0;
	net->ntimers = net->timers_cap = 0;
}
