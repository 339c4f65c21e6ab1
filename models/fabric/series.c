/*
 * series.c - the time series, sampled every output.sample_interval by each
 * partition for its own nodes: counters.csv (what happened in the interval,
 * added over the partitions at the end of each window), queues.csv (switch
 * egress queues that held packets, in order of global port index; with
 * output.queues = all, then the NICs' transmit backlogs in host order), and
 * rates.csv (the DCQCN state of the first output.rates QPs with data
 * outstanding, in QP order, read from a copy advanced to the sample time:
 * sampling never changes the simulation).  pause.csv has its own sampler in
 * every partition's pause_env (pause.c).  The order of the rows of one
 * sample time is that of the nodes, so the partitions' rows merge into the
 * rows a single partition writes.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include "evkey.h"
#include "invariant.h"
#include "scenario.h"

static struct fabric_totals totals(const struct net *net)
{
	const struct net_stats *st = &net->st;
	const struct net_drops *d = &st->drops;
	return (struct fabric_totals){
		.delivered_pkts = st->cc.pkts_delivered, .ecn_marked = st->cc.ce_delivered,
		.cnps = st->cc.cnps_sent, .pause_frames = st->pause_frames,
		.drops = d->lossless + d->lossy + d->pfcwd + d->link_down,
	};
}

static void count(struct fabric_part *part, sim_time_ps t)
{
	struct fabric_totals now = totals(&part->net), *l = &part->last;
	if (part->ncounts == part->counts_cap) {
		uint32_t cap = part->counts_cap ? 2 * part->counts_cap : 16;
		struct fabric_counts *c = realloc(part->counts, cap * sizeof(*c));
		SIM_INVARIANT(c, "out of memory for the counters' samples");
		part->counts = c;
		part->counts_cap = cap;
	}
	part->counts[part->ncounts++] = (struct fabric_counts){
		.t = t,
		.d = { .delivered_pkts = now.delivered_pkts - l->delivered_pkts,
		       .ecn_marked = now.ecn_marked - l->ecn_marked, .cnps = now.cnps - l->cnps,
		       .pause_frames = now.pause_frames - l->pause_frames,
		       .drops = now.drops - l->drops },
	};
	*l = now;
}

struct queue_ctx {
	struct fabric *f;
	unsigned part;
};

static void fwd_queue(void *ctx, const struct port *pt, unsigned q, uint64_t bytes)
{
	struct queue_ctx *c = ctx;
	c->f->hooks.queue_sample(c->f->hooks.ctx, c->f, c->part, pt, q, bytes);
}

/* NIC transmit backlogs of the partition's hosts: scans every QP, so only
 * with output.queues = all */
static void sample_backlogs(struct fabric_part *part)
{
	struct fabric *f = part->f;
	const struct fabric_hooks *h = &f->hooks;
	for (uint32_t i = 0; i < f->nqps; i++) {
		const struct qp *q = &f->qps[i];
		if (f->nics[q->src].net != &part->net || !q->snd)
			continue; /* another partition's QP: its thread writes it */
		uint64_t b = (uint64_t)(q->snd->bytes - q->snd_off);
		for (const struct flow *fl = q->snd->next; fl; fl = fl->next)
			b += (uint64_t)fl->bytes;
		f->backlog[(size_t)q->src * PKT_PRIOS + q->prio] += b;
	}
	for (uint32_t hst = 0; hst < f->nhosts; hst++) {
		if (f->nics[hst].net != &part->net)
			continue;
		uint8_t now = 0;
		for (unsigned p = 0; p < PKT_PRIOS; p++) {
			uint64_t *b = &f->backlog[(size_t)hst * PKT_PRIOS + p];
			if (*b)
				now |= (uint8_t)(1u << p);
			if (*b || (f->backlog_last[hst] >> p & 1u))
				h->nic_queue_sample(h->ctx, f, part->index, hst, p, *b);
			*b = 0;
		}
		f->backlog_last[hst] = now;
	}
}

static void series_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct fabric_part *part = container_of(ev, struct fabric_part, series_ev);
	struct fabric *f = part->f;
	const struct fabric_hooks *h = &f->hooks;
	if (h->counters)
		count(part, eng->now);
	if (h->queue_sample) {
		struct queue_ctx c = { .f = f, .part = part->index };
		switch_sample_queues(&part->net, fwd_queue, &c);
	}
	if (h->nic_queue_sample && f->backlog)
		sample_backlogs(part);
	uint32_t n = f->nqps < f->scn->output_rates ? f->nqps : f->scn->output_rates;
	if (h->rate_sample && f->niccfg.dcqcn)
		for (uint32_t i = 0; i < n; i++) {
			const struct qp *q = &f->qps[i];
			if (f->nics[q->src].net == &part->net && (q->snd || q->psn_una < q->psn_max))
				h->rate_sample(h->ctx, f, part->index, q);
		}
	sim_schedule(eng, ev, eng->now + f->scn->sample_interval_ps);
}

void fabric_series_init(struct fabric_part *part)
{
	sim_event_init(&part->series_ev, series_fire,
		       SIM_KEY(EVKEY_SERIES_SAMPLER, part->index, 0));
}

void fabric_series_free(struct fabric_part *part)
{
	free(part->counts);
	part->counts = NULL;
	part->ncounts = part->counts_cap = 0;
}

void fabric_start_series(struct fabric *f)
{
	const struct fabric_hooks *h = &f->hooks;
	if (!h->counters && !h->queue_sample && !h->rate_sample)
		return;
	for (uint32_t p = 0; p < f->nparts; p++)
		sim_schedule(&f->parts[p].net.eng, &f->parts[p].series_ev,
			     f->scn->sample_interval_ps);
}

void fabric_series_window_end(struct fabric *f, sim_time_ps end)
{
	if (!f->hooks.counters)
		return;
	/* every partition sampled the same times: add them up */
	uint32_t k = 0;
	for (; k < f->parts[0].ncounts && f->parts[0].counts[k].t < end; k++) {
		struct fabric_totals sum = {0};
		for (uint32_t p = 0; p < f->nparts; p++) {
			const struct fabric_totals *d = &f->parts[p].counts[k].d;
			SIM_INVARIANT(k < f->parts[p].ncounts && f->parts[p].counts[k].t ==
								     f->parts[0].counts[k].t,
				      "partition %u has no counters sample at %lld", p,
				      (long long)f->parts[0].counts[k].t);
			sum.delivered_pkts += d->delivered_pkts;
			sum.ecn_marked += d->ecn_marked;
			sum.cnps += d->cnps;
			sum.pause_frames += d->pause_frames;
			sum.drops += d->drops;
		}
		f->hooks.counters(f->hooks.ctx, f, f->parts[0].counts[k].t, &sum);
	}
	for (uint32_t p = 0; k && p < f->nparts; p++) {
		struct fabric_part *part = &f->parts[p];
		memmove(part->counts, part->counts + k, (part->ncounts - k) * sizeof(*part->counts));
		part->ncounts -= k;
	}
}
