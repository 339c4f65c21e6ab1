/*
 * ranks.c - one run split over processes (ranks.h).
 *
 * Messages across ranks.  A data packet points to its message (pkt.fl),
 * which lives in the process of its sender.  When the packet crosses to
 * another rank it takes a copy of the message's fields along, and there
 * points to a mirror: that rank's copy of the message, one per message and
 * partition, found by the message's id.  The receiver's mirror is the
 * message for the receiving NIC: it counts the payload, completes, and is
 * reported to the flow_done observers like any message; its completion
 * (time, bytes) goes back to the sender's rank at the window's end, where
 * it is written into the message itself, before the acknowledgement that
 * the completion sent can have arrived (that takes a cable's delay at
 * least).  A packet that comes back to its sender's rank points to the
 * message again.
 *
 * A mirror lives while packets of this rank point to it (refs: a packet
 * that arrives from another rank takes one, one that leaves for another
 * rank or goes back to its pool, PKT_F_REMOTE, gives it back) and, at its
 * receiver, while part of its payload has arrived and not all.  Mirrors
 * that may have ended are freed between windows (sweep), never while a
 * partition runs: the packet that completes a message is released before
 * the completion is reported.  A packet that arrives after its message
 * ended (a retransmission already received) finds no mirror and makes one
 * that receives nothing; the receiver discards such a packet without
 * reading its message, as it does in one process.
 *
 * Partitions on one rank hand packets over in outboxes as threads do; a
 * packet that points to a mirror moves to the mirror of the partition it
 * enters between the windows (rehome), so that each partition's thread
 * alone touches its mirrors.
 */
#include "models/fabric/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/invariant.h"
#include "models/base/slab.h"
#include "models/scenario/scenario.h"

/* a message's copy on this rank */
struct mirror {
	struct flow fl;                /* first: the packets point here */
	uint64_t handle;               /* the message in its sender's process */
	uint32_t origin;               /* the sender's rank */
	uint32_t refs;                 /* packets of this rank that point here */
	uint8_t queued;                /* in the partition's sweep list */
};

/* a completion for the sender's rank */
struct back {
	uint64_t handle;
	sim_time_ps end_ps;
	int64_t rx_bytes;
};

/* a partition's mirrors: a table by message id (linear probing) */
struct fabric_mirrors {
	struct mirror **slot;
	uint32_t cap, n;               /* cap: a power of 2 */
	struct mirror **sweep;         /* mirrors that may have ended */
	uint32_t nsweep, sweep_cap;
	struct back_list {
		struct back *b;
		uint32_t n, cap;
	} *backs;                      /* by rank: completions to report */
};

/* ---- partitions to ranks ---- */

int fabric_split_refused(const struct scenario *scn, int ranks, char *why, size_t len)
{
	struct fabric_plan p = fabric_plan_of(scn, 1);
	if (p.why_one) {
		snprintf(why, len, "cannot split the run over %d ranks: %s", ranks, p.why_one);
		return -1;
	}
	struct fabric_memory need = fabric_memory_estimate(scn);
	if (need.cache) {
		snprintf(why, len, "cannot split the run over %d ranks: its jobs open %llu QPs, more "
			 "than nic.qp_cache (%llu), whose QPs give their state up, which a run split "
			 "over ranks does not do yet; with nic.qp_cache = 0 every rank keeps every "
			 "QP's state", ranks,
			 (unsigned long long)need.qps, (unsigned long long)need.cache);
		return -1;
	}
	if (p.units < (uint32_t)ranks) {
		snprintf(why, len, "cannot split the run over %d ranks: the fabric has %u units (%s), "
			 "one rank needs one at least", ranks, p.units, p.unit_is);
		return -1;
	}
	return 0;
}

int fabric_ranks_threads(struct fabric *f, uint32_t *thread_of_part)
{
	int ranks = f->comm->nranks;
	uint32_t me = (uint32_t)f->comm->rank, first = UINT32_MAX, mine = 0;
	f->part_rank = calloc(f->nparts, sizeof(*f->part_rank));
	if (!f->part_rank)
		return -1;
	for (uint32_t k = 0; k < f->nthreads; k++)
		if (fabric_rank_of_thread(k, f->nthreads, ranks) == me) {
			first = first < k ? first : k;
			mine++;
		}
	SIM_INVARIANT(mine, "rank %u of %d has no thread of %u", me, ranks, f->nthreads);
	for (uint32_t p = 0; p < f->nparts; p++) {
		uint32_t r = fabric_rank_of_thread(thread_of_part[p], f->nthreads, ranks);
		f->part_rank[p] = r;
		thread_of_part[p] = r == me ? thread_of_part[p] - first : UINT32_MAX;
	}
	f->nthreads = mine;
	return 0;
}

/* ---- mirrors ---- */

static uint32_t slot_of(const struct fabric_mirrors *m, uint64_t id)
{
	uint64_t h = id * 0x9E3779B97F4A7C15ull;
	return (uint32_t)(h >> 32) & (m->cap - 1);
}

static struct mirror *find(const struct fabric_mirrors *m, uint64_t id)
{
	if (!m->cap)
		return NULL;
	for (uint32_t i = slot_of(m, id);; i = (i + 1) & (m->cap - 1)) {
		if (!m->slot[i])
			return NULL;
		if (m->slot[i]->fl.id == id)
			return m->slot[i];
	}
}

static void insert(struct fabric_mirrors *m, struct mirror *x)
{
	if (2 * (m->n + 1) > m->cap) { /* grow: at most half full */
		uint32_t cap = m->cap ? 2 * m->cap : 1024;
		struct mirror **old = m->slot;
		uint32_t oldcap = m->cap;
		m->slot = calloc(cap, sizeof(*m->slot));
		SIM_INVARIANT(m->slot, "out of memory for %u messages of other ranks", cap);
		m->cap = cap;
		for (uint32_t i = 0; i < oldcap; i++)
			if (old[i]) {
				uint32_t k = slot_of(m, old[i]->fl.id);
				while (m->slot[k])
					k = (k + 1) & (cap - 1);
				m->slot[k] = old[i];
			}
		free(old);
	}
	uint32_t k = slot_of(m, x->fl.id);
	while (m->slot[k])
		k = (k + 1) & (m->cap - 1);
	m->slot[k] = x;
	m->n++;
}

/* x out of the table, the entries after it shifted back into the gap */
static void erase(struct fabric_mirrors *m, const struct mirror *x)
{
	uint32_t i = slot_of(m, x->fl.id);
	while (m->slot[i] != x)
		i = (i + 1) & (m->cap - 1);
	for (uint32_t j = (i + 1) & (m->cap - 1); m->slot[j]; j = (j + 1) & (m->cap - 1)) {
		uint32_t home = slot_of(m, m->slot[j]->fl.id);
		/* j's entry may fill the gap at i unless its home lies in (i, j] */
		if (((j - home) & (m->cap - 1)) >= ((j - i) & (m->cap - 1))) {
			m->slot[i] = m->slot[j];
			i = j;
		}
	}
	m->slot[i] = NULL;
	m->n--;
}

static void queue(struct fabric_mirrors *m, struct mirror *x)
{
	if (x->queued)
		return;
	x->queued = 1;
	if (m->nsweep == m->sweep_cap) {
		uint32_t cap = m->sweep_cap ? 2 * m->sweep_cap : 256;
		struct mirror **s = realloc(m->sweep, cap * sizeof(*s));
		SIM_INVARIANT(s, "out of memory for the mirrors of other ranks' messages");
		m->sweep = s;
		m->sweep_cap = cap;
	}
	m->sweep[m->nsweep++] = x;
}

/* partition q's mirror of message `hdr` (sent by rank origin, where it is
 * `handle`), made from hdr if it has none, with one more packet on it */
static struct flow *attach(struct fabric *f, uint32_t q, const struct flow *hdr, uint64_t handle,
			   uint32_t origin)
{
	struct fabric_mirrors *m = f->parts[q].mirrors;
	struct mirror *x = find(m, hdr->id);
	if (!x) {
		x = aligned_alloc(64, (sizeof(*x) + 63) / 64 * 64);
		SIM_INVARIANT(x, "out of memory for a message of another rank");
		*x = (struct mirror){ .fl = *hdr, .handle = handle, .origin = origin };
		x->fl.next = NULL;
		x->fl.heap_idx = UINT32_MAX;
		x->fl.mirror = 1;
		x->fl.rx_bytes = 0;
		x->fl.end_ps = -1;
		insert(m, x);
	}
	x->refs++;
	return &x->fl;
}

/* a packet that pointed to mirror x left this rank's partition (its pool's
 * hook, or it left for another rank or partition) */
static void detach(struct fabric_mirrors *m, struct flow *fl)
{
	struct mirror *x = container_of(fl, struct mirror, fl);
	SIM_INVARIANT(x->refs, "message %llu of another rank has no packet here",
		      (unsigned long long)fl->id);
	if (!--x->refs)
		queue(m, x);
}

static void released(void *ctx, struct pkt *p)
{
	struct fabric_part *part = ctx;
	detach(part->mirrors, p->fl);
}

/* free the mirrors that ended: no packet points to them, and nothing of
 * their payload arrived, or all of it */
static void sweep(struct fabric_mirrors *m)
{
	for (uint32_t k = 0; k < m->nsweep; k++) {
		struct mirror *x = m->sweep[k];
		x->queued = 0;
		if (x->refs || (x->fl.rx_bytes && x->fl.end_ps < 0))
			continue;
		erase(m, x);
		free(x);
	}
	m->nsweep = 0;
}

void fabric_ranks_completed(struct fabric *f, unsigned part, const struct flow *fl)
{
	struct fabric_mirrors *m = f->parts[part].mirrors;
	struct mirror *x = container_of(fl, struct mirror, fl);
	struct back_list *l = &m->backs[x->origin];
	if (l->n == l->cap)
		l->b = slab_grow(l->b, &l->cap, sizeof(*l->b), 64,
				 "completions of other ranks' messages");
	l->b[l->n++] = (struct back){ x->handle, fl->end_ps, fl->rx_bytes };
	queue(m, x);
}

/* the message in b, to every other rank */
static void to_others(struct fabric *f, const struct bytes *b)
{
	for (int r = 0; r < f->comm->nranks; r++)
		if (r != f->comm->rank) {
			f->send[r].n = 0;
			bytes_put(&f->send[r], b->p, b->n);
		}
}

/* the next partition rank r's message speaks of, or UINT32_MAX at the end
 * of that part of it */
static uint32_t next_part(const struct fabric *f, uint32_t r, struct bytes_in *in)
{
	uint32_t p = bytes_get_u32(in);
	SIM_INVARIANT(p == UINT32_MAX || (p < f->nparts && f->part_rank[p] == r),
		      "rank %u sent partition %u, which it does not run", r, p);
	return p;
}

/* ---- set-up ---- */

int fabric_ranks_cross(struct fabric *f, struct link *l, uint32_t to)
{
	struct link **c = realloc(f->cross, (f->ncross + 1) * sizeof(*c));
	if (c)
		f->cross = c;
	uint32_t *t = realloc(f->cross_to, (f->ncross + 1) * sizeof(*t));
	if (t)
		f->cross_to = t;
	if (!c || !t)
		return -1;
	l->cross_id = l->far->cross_id = f->ncross;
	f->cross_to[f->ncross] = to;
	f->cross[f->ncross++] = l->far;
	return 0;
}

/* the traffic's share (traffic.h): job ji's state of every rank's
 * partitions, to every rank, before its iteration's account */
static void share_job(void *ctx, struct traffic *t, uint32_t ji)
{
	struct fabric *f = ctx;
	struct bytes *b = &f->send[f->comm->rank]; /* a scratch, never sent */
	b->n = 0;
	for (uint32_t p = 0; p < f->nparts; p++)
		if (fabric_part_here(f, p)) {
			bytes_u32(b, p);
			traffic_ranks_pack_job(t, ji, p, b);
		}
	bytes_u32(b, UINT32_MAX);
	to_others(f, b);
	f->comm->alltoall(f->comm->ctx, f->send, f->recv);
	for (uint32_t r = 0; r < (uint32_t)f->comm->nranks; r++) {
		if (r == (uint32_t)f->comm->rank)
			continue;
		struct bytes_in in = { f->recv[r].p, f->recv[r].n, 0 };
		for (uint32_t p; (p = next_part(f, r, &in)) != UINT32_MAX;)
			traffic_ranks_unpack_job(t, ji, p, &in);
	}
}

int fabric_ranks_init(struct fabric *f)
{
	int n = f->comm->nranks;
	f->traffic.share = share_job;
	f->traffic.share_ctx = f;
	f->send = calloc((size_t)n, sizeof(*f->send));
	f->recv = calloc((size_t)n, sizeof(*f->recv));
	if (!f->send || !f->recv)
		return -1;
	for (uint32_t p = 0; p < f->nparts; p++) {
		struct fabric_part *part = &f->parts[p];
		if (!fabric_part_here(f, p))
			continue;
		part->mirrors = calloc(1, sizeof(*part->mirrors));
		if (!part->mirrors || !(part->mirrors->backs = calloc((size_t)n, sizeof(struct back_list))))
			return -1;
		part->net.pool.remote = released;
		part->net.pool.remote_ctx = part;
	}
	return 0;
}

void fabric_ranks_free(struct fabric *f)
{
	for (uint32_t p = 0; f->parts && p < f->nparts; p++) {
		struct fabric_mirrors *m = f->parts[p].mirrors;
		free(f->parts[p].end);
		f->parts[p].end = NULL;
		if (!m)
			continue;
		for (uint32_t i = 0; i < m->cap; i++)
			free(m->slot[i]);
		for (int r = 0; m->backs && r < f->comm->nranks; r++)
			free(m->backs[r].b);
		free(m->backs);
		free(m->slot);
		free(m->sweep);
		free(m);
		f->parts[p].mirrors = NULL;
	}
	int nr = f->comm ? f->comm->nranks : 0;
	bytes_free_all(f->send, nr);
	bytes_free_all(f->recv, nr);
	free(f->cross);
	free(f->cross_to);
	free(f->part_rank);
	f->send = f->recv = NULL;
}

/* ---- the exchange ---- */

sim_time_ps fabric_ranks_next(struct fabric *f, sim_time_ps t)
{
	sim_time_ps now = 0;
	for (uint32_t p = 0; p < f->nparts; p++)
		if (fabric_part_here(f, p) && f->parts[p].net.eng.now > now)
			now = f->parts[p].net.eng.now;
	int64_t v[3] = { t, -now, -(int64_t)f->vote };
	f->comm->min(f->comm->ctx, v, 3);
	f->now_all = -v[1];
	f->vote_all = (int)-v[2];
	return v[0];
}

/* the counters samples of partition p waiting for a window's end */
static void pack_counts(const struct fabric *f, const struct fabric_part *part, struct bytes *b)
{
	uint32_t nj = f->scn->njobs;
	bytes_u32(b, part->ncounts);
	bytes_put(b, part->counts, part->ncounts * sizeof(*part->counts));
	bytes_put(b, part->job_counts, (size_t)part->ncounts * nj * sizeof(*part->job_counts));
}

static void unpack_counts(const struct fabric *f, struct fabric_part *part, struct bytes_in *in)
{
	uint32_t nj = f->scn->njobs, n = bytes_get_u32(in);
	fabric_series_room(part, n);
	part->ncounts = n;
	bytes_get(in, part->counts, n * sizeof(*part->counts));
	bytes_get(in, part->job_counts, (size_t)n * nj * sizeof(*part->job_counts));
}

/* an outbox entry for another rank: the link, when it entered, the packet,
 * and for data the fields of its message, which rank holds it and where */
struct wire_pkt {
	uint32_t cross_id;
	uint32_t origin;
	sim_time_ps push_ps;
	uint64_t handle;
	struct pkt p;
};

/* what partition p's outboxes hold for partitions of rank r (their
 * filling buffers), onto b, each outbox's packets after (p, to, count);
 * the buffers are emptied */
static void pack_outboxes(struct fabric *f, uint32_t p, uint32_t r, struct bytes *b)
{
	struct fabric_part *part = &f->parts[p];
	uint32_t me = (uint32_t)f->comm->rank;
	for (uint32_t k = 0; k < part->nout; k++) {
		struct link_outbox *o = part->out[k];
		struct link_outbuf *ob = &o->buf[o->side];
		if (f->part_rank[part->out_to[k]] != r || !ob->n)
			continue;
		bytes_u32(b, p);
		bytes_u32(b, part->out_to[k]);
		bytes_u32(b, ob->n);
		for (uint32_t i = 0; i < ob->n; i++) {
			struct link_out *e = &ob->e[i];
			struct wire_pkt w = { .cross_id = e->l->cross_id, .origin = me,
					      .push_ps = e->push_ps, .p = e->p };
			struct flow *fl = e->p.type == PKT_DATA ? e->p.fl : NULL;
			if (fl && (e->p.flags & PKT_F_REMOTE)) { /* a mirror's: its sender's */
				struct mirror *x = container_of(fl, struct mirror, fl);
				w.origin = x->origin;
				w.handle = x->handle;
			} else if (fl) {
				w.handle = (uint64_t)(uintptr_t)fl;
			}
			bytes_put(b, &w, sizeof(w));
			if (!fl)
				continue;
			bytes_put(b, fl, sizeof(*fl));
			if (e->p.flags & PKT_F_REMOTE)
				detach(part->mirrors, fl); /* freed at the sweep, not before */
		}
		ob->n = 0;
	}
}

static void unpack_outboxes(struct fabric *f, struct bytes_in *in)
{
	uint32_t me = (uint32_t)f->comm->rank;
	for (uint32_t p; (p = bytes_get_u32(in)) != UINT32_MAX;) {
		uint32_t q = bytes_get_u32(in), n = bytes_get_u32(in);
		SIM_INVARIANT(p < f->nparts && q < f->nparts && f->part_rank[q] == me,
			      "packets from partition %u for partition %u came to rank %u", p, q, me);
		struct link_outbox *o = fabric_outbox(f, p, q);
		SIM_INVARIANT(o, "out of memory for an outbox");
		for (uint32_t i = 0; i < n; i++) {
			struct wire_pkt w;
			bytes_get(in, &w, sizeof(w));
			SIM_INVARIANT(w.cross_id < f->ncross, "a packet for link %u of %u", w.cross_id,
				      f->ncross);
			w.p.flags &= (uint8_t)~PKT_F_REMOTE;
			if (w.p.type == PKT_DATA) {
				struct flow hdr;
				bytes_get(in, &hdr, sizeof(hdr)); /* aligned here */
				if (w.origin == me) {
					w.p.fl = (struct flow *)(uintptr_t)w.handle;
				} else {
					w.p.fl = attach(f, q, &hdr, w.handle, w.origin);
					w.p.flags |= PKT_F_REMOTE;
				}
			}
			link_outbox_put(o, f->cross[w.cross_id], w.push_ps, &w.p);
		}
	}
}

/* completions of messages this rank sends, from the ranks that received
 * them */
static void unpack_backs(struct bytes_in *in)
{
	uint32_t n = bytes_get_u32(in);
	for (uint32_t i = 0; i < n; i++) {
		struct back b;
		bytes_get(in, &b, sizeof(b));
		struct flow *fl = (struct flow *)(uintptr_t)b.handle;
		fl->end_ps = b.end_ps;
		fl->rx_bytes = b.rx_bytes;
	}
}

/* the rows this rank's partitions wrote in the window (the run layer's) */
static void pack_rows(struct fabric *f, struct bytes *b)
{
	for (uint32_t p = 0; f->hooks.pack_rows && p < f->nparts; p++)
		if (fabric_part_here(f, p)) {
			bytes_u32(b, p);
			f->hooks.pack_rows(f->hooks.ctx, p, b);
		}
	bytes_u32(b, UINT32_MAX);
}

static void unpack_rows(struct fabric *f, uint32_t r, struct bytes_in *in)
{
	for (uint32_t p; (p = next_part(f, r, in)) != UINT32_MAX;)
		f->hooks.unpack_rows(f->hooks.ctx, p, in);
}

/* packets that point to a mirror and entered another partition of this
 * rank move to that partition's mirror */
static void rehome(struct fabric *f, uint32_t p)
{
	struct fabric_part *part = &f->parts[p];
	for (uint32_t k = 0; k < part->nout; k++) {
		uint32_t q = part->out_to[k];
		struct link_outbuf *ob = &part->out[k]->buf[part->out[k]->side];
		if (!fabric_part_here(f, q))
			continue;
		for (uint32_t i = 0; i < ob->n; i++) {
			struct pkt *pk = &ob->e[i].p;
			if (!(pk->flags & PKT_F_REMOTE))
				continue;
			struct mirror *x = container_of(pk->fl, struct mirror, fl);
			pk->fl = attach(f, q, &x->fl, x->handle, x->origin);
			detach(part->mirrors, &x->fl);
		}
	}
}

void fabric_ranks_window(struct fabric *f)
{
	const struct fabric_comm *c = f->comm;
	uint32_t me = (uint32_t)c->rank, nr = (uint32_t)c->nranks;
	struct bytes *common = &f->send[me]; /* never sent: a scratch */
	common->n = 0;
	for (uint32_t p = 0; p < f->nparts; p++) {
		if (!fabric_part_here(f, p))
			continue;
		bytes_u32(common, p);
		traffic_ranks_pack(&f->traffic, p, common);
		pack_counts(f, &f->parts[p], common);
	}
	bytes_u32(common, UINT32_MAX);
	to_others(f, common);
	for (uint32_t r = 0; r < nr; r++) {
		if (r == me)
			continue;
		struct bytes *b = &f->send[r];
		uint32_t nb = 0;
		for (uint32_t p = 0; p < f->nparts; p++)
			if (fabric_part_here(f, p)) {
				pack_outboxes(f, p, r, b);
				nb += f->parts[p].mirrors->backs[r].n;
			}
		bytes_u32(b, UINT32_MAX);
		bytes_u32(b, nb);
		for (uint32_t p = 0; p < f->nparts; p++)
			if (fabric_part_here(f, p)) {
				struct back_list *l = &f->parts[p].mirrors->backs[r];
				bytes_put(b, l->b, l->n * sizeof(*l->b));
				l->n = 0;
			}
		if (r == 0) /* the rows, for rank 0's files */
			pack_rows(f, b);
	}
	c->alltoall(c->ctx, f->send, f->recv);
	for (uint32_t r = 0; r < nr; r++) {
		if (r == me)
			continue;
		struct bytes_in in = { f->recv[r].p, f->recv[r].n, 0 };
		for (uint32_t p; (p = next_part(f, r, &in)) != UINT32_MAX;) {
			traffic_ranks_unpack(&f->traffic, p, &in);
			unpack_counts(f, &f->parts[p], &in);
		}
		unpack_outboxes(f, &in);
		unpack_backs(&in);
		if (me == 0)
			unpack_rows(f, r, &in);
		SIM_INVARIANT(in.at == in.n, "rank %u sent %zu bytes more than expected", r,
			      in.n - in.at);
	}
	for (uint32_t p = 0; p < f->nparts; p++)
		if (fabric_part_here(f, p))
			rehome(f, p);
	for (uint32_t p = 0; p < f->nparts; p++)
		if (fabric_part_here(f, p))
			sweep(f->parts[p].mirrors);
}

/* ---- the end ---- */

/* what a partition counted, for the other ranks */
struct end_wire {
	struct net_stats st;
	uint64_t kinds[SIM_KINDS];
	uint64_t events, flows_peak, flows_done;
	uint32_t max_paused_ppm;
	struct fabric_part_end end;
};

void fabric_ranks_finish(struct fabric *f, sim_time_ps t)
{
	const struct fabric_comm *c = f->comm;
	if (!c)
		return;
	uint32_t me = (uint32_t)c->rank, nr = (uint32_t)c->nranks, nj = f->scn->njobs;
	/* what reached the receivers of messages that did not complete
	 * (flows.csv's delivered_bytes) goes to their senders too */
	for (uint32_t p = 0; p < f->nparts; p++) {
		const struct fabric_mirrors *m = f->parts[p].mirrors;
		for (uint32_t i = 0; m && i < m->cap; i++)
			if (m->slot[i] && m->slot[i]->fl.end_ps < 0 && m->slot[i]->fl.rx_bytes)
				fabric_ranks_completed(f, p, &m->slot[i]->fl);
	}
	fabric_ranks_window(f);
	struct bytes *b = &f->send[me];
	b->n = 0;
	for (uint32_t p = 0; p < f->nparts; p++) {
		struct fabric_part *part = &f->parts[p];
		if (!fabric_part_here(f, p))
			continue;
		struct end_wire w = { .st = part->net.st, .events = part->net.eng.events,
				      .flows_peak = part->net.flows_peak,
				      .flows_done = part->net.flows_done,
				      .max_paused_ppm = part->net.pause.max_paused_ppm };
		memcpy(w.kinds, part->net.eng.kinds, sizeof(w.kinds));
		if (fabric_part_count(f, p, &w.end.live, &w.end.pkts, &w.end.payload))
			snprintf(w.end.err, sizeof(w.end.err), "%s", f->err);
		w.end.max_queue = fabric_part_max_queue(f, p);
		w.end.paused_ps = pause_total_ps(&part->net.pause, t);
		bytes_u32(b, p);
		bytes_put(b, &w, sizeof(w));
		bytes_put(b, part->net.jobs, nj * sizeof(*part->net.jobs));
	}
	bytes_u32(b, UINT32_MAX);
	to_others(f, b);
	c->alltoall(c->ctx, f->send, f->recv);
	for (uint32_t r = 0; r < nr; r++) {
		if (r == me)
			continue;
		struct bytes_in in = { f->recv[r].p, f->recv[r].n, 0 };
		for (uint32_t p; (p = next_part(f, r, &in)) != UINT32_MAX;) {
			struct fabric_part *part = &f->parts[p];
			struct end_wire w;
			bytes_get(&in, &w, sizeof(w));
			bytes_get(&in, part->net.jobs, nj * sizeof(*part->net.jobs));
			part->net.st = w.st;
			memcpy(part->net.eng.kinds, w.kinds, sizeof(w.kinds));
			part->net.eng.events = w.events;
			part->net.flows_peak = w.flows_peak;
			part->net.flows_done = w.flows_done;
			part->net.pause.max_paused_ppm = w.max_paused_ppm;
			part->end = malloc(sizeof(*part->end));
			SIM_INVARIANT(part->end, "out of memory at the end of the run");
			*part->end = w.end;
		}
	}
}
