/*
 * storage.c - the storage pattern (docs/model.md#traffic): NVMe-oF I/O as
 * fio describes it.
 *
 * Every initiator keeps iodepth I/Os of bs bytes outstanding until it has
 * moved size bytes; its k-th I/O goes to target (i + k) mod targets.  A
 * read is a command capsule (64 B, initiator to target), the target's
 * media time, the data (RDMA write, target to initiator) and a completion
 * capsule (16 B) behind it on the same QP; a write is the command, an RDMA
 * read request (16 B, target to initiator), the data (initiator to
 * target), the media time and the completion.  The media time is
 * target_latency after the target starts the I/O, and a target starts at
 * most one I/O per 1 / target_iops and bs / target_bw (first come, first
 * served).  With rw = randrw each I/O is a read with probability
 * rwmixread, drawn from (seed, job, initiator, I/O).  An I/O completes
 * when its completion reaches the initiator: its latency is from its
 * command's submission.  One QP each way per (initiator, target).  Ids
 * within an iteration by (initiator, I/O, phase): 4 per I/O, whose reads
 * take 3.
 *
 * With a runtime (counted from the initiator's own start: skew,
 * straggler) or randrw the job is open-ended: how many messages an
 * iteration has is known only once every initiator has stopped
 * (jb->halted) and they have arrived.
 */
#include <stdlib.h>

#include "models/base/rng.h"
#include "models/node/nic.h"
#include "models/scenario/scenario.h"
#include "models/workload/internal.h"

/* the phases of an I/O (message index = I/O x 4 + phase) */
enum { IO_CMD, IO_RREQ, IO_DATA, IO_CPL, IO_PHASES };
#define IO_CMD_BYTES 64   /* NVMe-oF command capsule (a submission queue entry) */
#define IO_SMALL_BYTES 16 /* completion capsule; RDMA read request */

/* an I/O in flight in one of an initiator's iodepth slots */
struct io_slot {
	uint64_t io;
	sim_time_ps submit_ps;
	uint8_t read;
	uint8_t data_in;               /* a read's data has arrived */
	uint8_t cpl_early;             /* a read's completion arrived before its data */
};

/* a storage job's state (jb->pat); its QPs, jb->qps, are [(initiator x
 * ntgt + target) x 2]: to the target, back */
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
};

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

/* the I/O of initiator i that message fl belongs to, from its id: the
 * target of an I/O knows it from its messages, not from the initiator's
 * slot, which the initiator's partition writes (in a run split over
 * processes, another process's) */
static uint64_t io_of(const struct traffic_job *jb, const struct flow *fl)
{
	const struct storage *st = jb->pat;
	return (fl->id - jb->base) % jb->id_stride / IO_PHASES % st->nios;
}

/* phase ph of initiator i's I/O io (a read or not) in its slot sl, on its
 * QP to or from the target */
static void io_send(struct traffic *t, struct traffic_job *jb, uint32_t i, uint32_t sl,
		    uint64_t io, int read, int ph, sim_time_ps start, sim_time_ps sched)
{
	const struct storage *st = jb->pat;
	uint32_t tg = (uint32_t)((i + io) % st->ntgt);
	/* to the target: the command, a write's data; back: the rest */
	int back = ph == IO_RREQ || ph == IO_CPL || (ph == IO_DATA && read);
	int64_t bytes = ph == IO_CMD ? IO_CMD_BYTES : ph == IO_DATA ? io_bytes(st, jb->j, io)
								   : IO_SMALL_BYTES;
	if (jb->failed)
		return;
	uint32_t q = jb->qps[((size_t)i * st->ntgt + tg) * 2 + (size_t)back];
	uint64_t index = ((uint64_t)i * st->nios + io) * IO_PHASES + (uint64_t)ph;
	struct flow *fl = traffic_msg(t, jb, index, q, bytes, start);
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
	struct storage *st = jb->pat;
	const struct scn_job *j = jb->j;
	if (jb->failed || st->halted[i])
		return;
	int past = j->runtime_ps && start >= traffic_rank_start(t, jb, i) + j->runtime_ps;
	if (!past && st->nfree[i]) {
		uint32_t depth = j->iodepth, sl = st->free[(size_t)i * depth + --st->nfree[i]];
		uint64_t io = st->next[i]++;
		int read = io_is_read(t, jb, i, io);
		st->slot[(size_t)i * depth + sl] =
			(struct io_slot){ .io = io, .submit_ps = start, .read = (uint8_t)read };
		io_count(tp, jb, read ? 3 : 4, io_bytes(st, j, io), 0);
		io_send(t, jb, i, sl, io, read, IO_CMD, start, sched);
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
	const struct storage *st = jb->pat;
	sim_time_ps *free_ps = &st->tgt_free[tg], begin = traffic_later(now, *free_ps);
	sim_time_ps service = 0;
	if (j->target_iops != SCN_AUTO)
		service = (UNITS_PS_PER_S + j->target_iops - 1) / j->target_iops;
	if (j->target_bw_bps)
		service = traffic_later(service, units_mul_div_ceil(bytes * 8, UNITS_PS_PER_S,
								    j->target_bw_bps));
	*free_ps = begin + service;
	return begin + j->target_latency_ps;
}

/* initiator i's I/O in slot sl completes at tag (its completion, or a
 * read's data when the completion came first): recorded, the slot freed,
 * the next I/O submitted */
static void io_complete(struct traffic *t, struct traffic_part *tp, struct traffic_job *jb,
			uint32_t i, uint32_t sl, uint32_t tg, struct sim_order tag)
{
	struct storage *st = jb->pat;
	uint32_t depth = jb->j->iodepth;
	struct io_slot *x = &st->slot[(size_t)i * depth + sl];
	tp->ios = traffic_grow(tp->ios, &tp->ios_cap, tp->nios, sizeof(*tp->ios));
	tp->pending = 1;
	tp->ios[tp->nios++] = (struct done_io){
		.io = { .job = jb->index, .iter = jb->iter, .initiator = st->init[i],
			.target = st->tgt[tg], .read = x->read,
			.bytes = io_bytes(st, jb->j, x->io), .submit_ps = x->submit_ps,
			.end_ps = tag.time },
		.tag = tag,
	};
	st->free[(size_t)i * depth + st->nfree[i]++] = sl;
	io_submit(t, tp, jb, i, traffic_later(tag.time, traffic_rank_start(t, jb, i)), tag.time);
}

/*
 * A storage message arrived (at the target: a command or a write's data;
 * at the initiator: a read request, a read's data or the completion).  A
 * read's data and its completion travel on one connection in that order;
 * where the transport completes a later message first (TCP credits a
 * segment that arrives out of order to its message at once), the
 * completion waits for the data, as the host reads them in order.
 */
static void io_arrived(struct traffic *t, struct traffic_part *tp, struct traffic_job *jb,
		       const struct flow *fl, struct sim_order tag)
{
	struct storage *st = jb->pat;
	uint32_t i = fl->pos[0], sl = fl->pos[1], tg = fl->pos[3], depth = jb->j->iodepth;
	struct io_slot *x = &st->slot[(size_t)i * depth + sl]; /* the initiator's only */
	uint64_t io = io_of(jb, fl);
	int read = io_is_read(t, jb, i, io);
	sim_time_ps now = tag.time;
	switch (fl->pos[2]) {
	case IO_CMD: /* at the target */
		if (read) { /* the media reads the I/O's bytes, then they go back */
			sim_time_ps ready = io_media(jb, tg, io_bytes(st, jb->j, io), now);
			io_send(t, jb, i, sl, io, read, IO_DATA, ready, now);
			io_send(t, jb, i, sl, io, read, IO_CPL, ready, now);
		} else {
			io_send(t, jb, i, sl, io, read, IO_RREQ, now, now);
		}
		break;
	case IO_RREQ:
		io_send(t, jb, i, sl, io, read, IO_DATA, now, now);
		break;
	case IO_DATA:
		if (!read) /* at the target */
			io_send(t, jb, i, sl, io, read, IO_CPL, io_media(jb, tg, fl->bytes, now),
				now);
		else if (x->cpl_early)
			io_complete(t, tp, jb, i, sl, tg, tag);
		else
			x->data_in = 1;
		break;
	case IO_CPL:
		if (read && !x->data_in)
			x->cpl_early = 1;
		else
			io_complete(t, tp, jb, i, sl, tg, tag);
		break;
	}
}

/* every initiator's slots free, and iodepth I/Os submitted */
static void storage_release(struct traffic *t, struct traffic_job *jb, sim_time_ps sched)
{
	struct storage *st = jb->pat;
	const struct scn_job *j = jb->j;
	jb->expected = 0;
	jb->moved = 0;
	jb->halted = 0;
	for (uint32_t i = 0; i < jb->n; i++) {
		st->next[i] = 0;
		st->halted[i] = 0;
		st->nfree[i] = j->iodepth;
		for (uint32_t k = 0; k < j->iodepth; k++)
			st->free[(size_t)i * j->iodepth + k] = j->iodepth - 1 - k;
		sim_time_ps start = traffic_rank_start(t, jb, i);
		for (uint32_t k = 0; k < j->iodepth; k++)
			io_submit(t, NULL, jb, i, start, sched);
	}
}

/* the initiators' and targets' state, the messages of an iteration (3 per
 * read, 4 per write) */
static int storage_build(struct traffic *t, struct traffic_job *jb)
{
	const struct scn_job *j = jb->j;
	struct storage *st = jb->pat = calloc(1, sizeof(*st));
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
	st->halted = calloc(st->ninit, 1);
	if (!st->next || !st->nfree || !st->free || !st->slot || !st->tgt_free || !st->halted)
		return -1;
	jb->n = st->ninit;
	jb->ranks = st->ninit + st->ntgt;
	jb->iter_bytes = (int64_t)st->ninit * j->size_bytes;
	jb->msg_bytes = jb->iter_bytes;
	jb->id_stride = (uint64_t)st->ninit * st->nios * IO_PHASES;
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

/* one each way per (initiator, target) */
static int storage_open_qps(struct traffic *t, struct traffic_job *jb)
{
	const struct storage *st = jb->pat;
	const struct scn_job *j = jb->j;
	jb->qps = malloc((size_t)st->ninit * st->ntgt * 2 * sizeof(*jb->qps));
	if (!jb->qps)
		return -1;
	for (uint32_t i = 0; i < st->ninit; i++)
		for (uint32_t tg = 0; tg < st->ntgt; tg++) {
			uint32_t a = j->initiators.hosts[i], b = j->targets.hosts[tg];
			size_t k = ((size_t)i * st->ntgt + tg) * 2;
			jb->qps[k] = nic_add_qp(t->net, a, b, jb->dscp);
			jb->qps[k + 1] = nic_add_qp(t->net, b, a, jb->dscp);
			if (jb->qps[k] == NET_NONE || jb->qps[k + 1] == NET_NONE)
				return -1;
			nic_qp_set_job(t->net, jb->qps[k], jb->index);
			nic_qp_set_job(t->net, jb->qps[k + 1], jb->index);
		}
	return 0;
}

/* the initiators, then the targets */
static void storage_hosts(struct traffic_job *jb, uint8_t *seen)
{
	const struct scn_job *j = jb->j;
	traffic_add_hosts(jb, seen, j->initiators.hosts, j->initiators.n);
	jb->senders = jb->nhosts;
	traffic_add_hosts(jb, seen, j->targets.hosts, j->targets.n);
}

static uint32_t storage_rank_host(const struct traffic_job *jb, uint32_t idx)
{
	return jb->j->initiators.hosts[idx];
}

static uint64_t storage_qps(const struct scn_job *j)
{
	return 2 * (uint64_t)j->initiators.n * j->targets.n;
}

/* the fewer of the initiators and the targets */
static uint64_t storage_receivers(const struct scn_job *j)
{
	return j->targets.n < j->initiators.n ? j->targets.n : j->initiators.n;
}

static void storage_free(void *pat)
{
	struct storage *st = pat;
	free(st->next);
	free(st->nfree);
	free(st->free);
	free(st->slot);
	free(st->tgt_free);
	free(st->halted);
}

const struct traffic_pattern traffic_storage = {
	.qps = storage_qps,
	.receivers = storage_receivers,
	.build = storage_build,
	.open_qps = storage_open_qps,
	.hosts = storage_hosts,
	.rank_host = storage_rank_host,
	.release = storage_release,
	.arrived = io_arrived,
	.free = storage_free,
};
