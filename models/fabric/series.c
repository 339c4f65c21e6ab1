/*
 * series.c - the time series, sampled every output.sample_interval by each
 * partition for its own nodes: counters.csv (what happened in the interval,
 * added over the partitions at the end of each window), queues.csv (switch
 * egress queues that held packets, in order of global port index; with
 * output.queues = all, then the NICs' transmit backlogs in host order), and
 * rates.csv (the DCQCN state of the first output.rates QPs with data
 * outstanding, in QP order, read from a copy advanced to the sample time:
 * sampling never changes the simulation); with ib.cc, ib_cc.csv (the CCTI
 * of the same QPs, also while it is above ccti_min after their data).
 * pause.csv has its own sampler in every partition's pause_env (pause.c).
 * The order of the rows of one sample time is that of the nodes, so the
 * partitions' rows merge into the rows a single partition writes.
 *
 * counters.csv: time_us (the interval's end), data_pkts_delivered,
 * ecn_marked_pkts, cnps_sent, pause_frames, drops (lossless + lossy +
 * pfcwd + link_down), then for each job in the scenario's order
 * JOB_delivered_bytes, JOB_retransmitted_bytes, JOB_drops (net.h struct
 * net_job_stats: counted where the packet is, by its QP's job).  A sampler
 * fires before the other events of its time, so the row at t counts
 * [t - interval, t).  The run's end closes a last interval
 * (fabric_series_flush): a row at the end time t (summary.csv's
 * sim_time_us) for the interval since the last sample, which also takes the
 * events of t itself; when a sample fell on t exactly, those events are
 * added to its row instead of a second row at t.  So every column adds up
 * to its total in summary.csv, for any number of threads: each partition
 * decides the same (the samples are at the same times in all of them) and
 * the sums over partitions do not depend on how the nodes are cut.
 */
#include "models/fabric/internal.h"

#include <stdlib.h>
#include <string.h>

#include "models/base/invariant.h"
#include "models/core/evkey.h"
#include "models/scenario/scenario.h"

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

static void add_totals(struct fabric_totals *a, const struct fabric_totals *b)
{
	a->delivered_pkts += b->delivered_pkts;
	a->ecn_marked += b->ecn_marked;
	a->cnps += b->cnps;
	a->pause_frames += b->pause_frames;
	a->drops += b->drops;
}

static void add_jobs(struct net_job_stats *a, const struct net_job_stats *b, uint32_t n)
{
	for (uint32_t j = 0; j < n; j++) {
		a[j].delivered_bytes += b[j].delivered_bytes;
		a[j].retransmitted_bytes += b[j].retransmitted_bytes;
		a[j].drops += b[j].drops;
	}
}

/* what the partition counted since its last sample, added to the
 * counters of sample k (zeroed first when `fresh`) */
static void take_delta(struct fabric_part *part, uint32_t k, int fresh)
{
	uint32_t nj = part->f->scn->njobs;
	struct fabric_totals now = totals(&part->net), *l = &part->last;
	struct fabric_totals *d = &part->counts[k].d;
	struct net_job_stats *jd = part->job_counts + (size_t)k * nj;
	const struct net_job_stats *jn = part->net.jobs;
	if (fresh) {
		*d = (struct fabric_totals){0};
		memset(jd, 0, nj * sizeof(*jd));
	}
	d->delivered_pkts += now.delivered_pkts - l->delivered_pkts;
	d->ecn_marked += now.ecn_marked - l->ecn_marked;
	d->cnps += now.cnps - l->cnps;
	d->pause_frames += now.pause_frames - l->pause_frames;
	d->drops += now.drops - l->drops;
	for (uint32_t j = 0; j < nj; j++) {
		jd[j].delivered_bytes += jn[j].delivered_bytes - part->jobs_last[j].delivered_bytes;
		jd[j].retransmitted_bytes +=
			jn[j].retransmitted_bytes - part->jobs_last[j].retransmitted_bytes;
		jd[j].drops += jn[j].drops - part->jobs_last[j].drops;
	}
	*l = now;
	memcpy(part->jobs_last, jn, nj * sizeof(*jn));
}

void fabric_series_room(struct fabric_part *part, uint32_t n)
{
	uint32_t nj = part->f->scn->njobs;
	if (n <= part->counts_cap)
		return;
	uint32_t cap = part->counts_cap ? 2 * part->counts_cap : 16;
	cap = cap < n ? n : cap;
	struct fabric_counts *c = realloc(part->counts, cap * sizeof(*c));
	SIM_INVARIANT(c, "out of memory for the counters' samples");
	part->counts = c;
	struct net_job_stats *jc = realloc(part->job_counts, (size_t)cap * (nj ? nj : 1) * sizeof(*jc));
	SIM_INVARIANT(jc, "out of memory for the counters' samples");
	part->job_counts = jc;
	part->counts_cap = cap;
}

/* a new sample at t: the counters of the interval ending there */
static void count(struct fabric_part *part, sim_time_ps t)
{
	fabric_series_room(part, part->ncounts + 1);
	part->counts[part->ncounts].t = t;
	take_delta(part, part->ncounts++, 1);
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
	for (uint32_t k = 0; k < part->nqps; k++) {
		const struct qp *q = &f->qps[part->qps[k]];
		if (!q->snd)
			continue;
		uint64_t b = (uint64_t)q->snd_left;
		for (const struct flow *fl = q->snd->next; fl; fl = fl->next)
			b += (uint64_t)fl->bytes;
		f->backlog[(size_t)q->src * PKT_PRIOS + q->prio] += b;
	}
	for (uint32_t k = 0; k < part->nhosts; k++) {
		uint32_t hst = part->hosts[k];
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
		for (uint32_t k = 0; k < part->nqps && part->qps[k] < n; k++) {
			const struct qp *q = &f->qps[part->qps[k]];
			if (q->snd || q->psn_una < q->psn_max)
				h->rate_sample(h->ctx, f, part->index, q);
		}
	if (h->ibcc_sample && f->niccfg.ibcc)
		for (uint32_t k = 0; k < part->nqps && part->qps[k] < n; k++) {
			const struct qp *q = &f->qps[part->qps[k]];
			/* a copy: sampling changes nothing */
			struct ibcc_qp c = nic_qp_cc_of(&part->net, q).ibcc;
			if (!q->local && (q->snd || q->psn_una < q->psn_max ||
					  ibcc_delay_ps(&f->niccfg.ibcc_params, &c, eng->now)))
				h->ibcc_sample(h->ctx, f, part->index, q);
		}
	sim_schedule(eng, ev, eng->now + f->scn->sample_interval_ps);
}

void fabric_series_init(struct fabric_part *part)
{
	sim_event_init(&part->series_ev, series_fire,
		       SIM_KEY(EVKEY_SERIES_SAMPLER, part->index, 0));
}

int fabric_series_owned(struct fabric *f)
{
	for (uint32_t i = 0; i < f->nqps; i++)
		f->parts[f->nics[f->qps[i].src].net->part].nqps++;
	for (uint32_t h = 0; h < f->nhosts; h++)
		f->parts[f->nics[h].net->part].nhosts++;
	for (uint32_t p = 0; p < f->nparts; p++) {
		struct fabric_part *part = &f->parts[p];
		part->qps = malloc((part->nqps ? part->nqps : 1) * sizeof(*part->qps));
		part->hosts = malloc((part->nhosts ? part->nhosts : 1) * sizeof(*part->hosts));
		if (!part->qps || !part->hosts)
			return -1;
		part->nqps = part->nhosts = 0;
	}
	for (uint32_t i = 0; i < f->nqps; i++) {
		struct fabric_part *part = &f->parts[f->nics[f->qps[i].src].net->part];
		part->qps[part->nqps++] = i;
	}
	for (uint32_t h = 0; h < f->nhosts; h++) {
		struct fabric_part *part = &f->parts[f->nics[h].net->part];
		part->hosts[part->nhosts++] = h;
	}
	return 0;
}

void fabric_series_free(struct fabric_part *part)
{
	free(part->qps);
	free(part->hosts);
	part->qps = part->hosts = NULL;
	part->nqps = part->nhosts = 0;
	free(part->counts);
	free(part->job_counts);
	free(part->jobs_last);
	part->counts = NULL;
	part->job_counts = NULL;
	part->jobs_last = NULL;
	part->ncounts = part->counts_cap = 0;
}

int fabric_series_jobs(struct fabric *f)
{
	uint32_t nj = f->scn->njobs;
	f->job_sum = calloc(nj ? nj : 1, sizeof(*f->job_sum));
	if (!f->job_sum)
		return -1;
	for (uint32_t p = 0; p < f->nparts; p++) {
		struct fabric_part *part = &f->parts[p];
		part->jobs_last = calloc(nj ? nj : 1, sizeof(*part->jobs_last));
		if (!part->jobs_last || net_jobs(&part->net, nj))
			return -1;
	}
	return 0;
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

/* the counters of samples [0, n) of every partition, added up, to the hook;
 * then the partitions drop them */
static void emit_counts(struct fabric *f, uint32_t n)
{
	uint32_t nj = f->scn->njobs;
	for (uint32_t k = 0; k < n; k++) {
		struct fabric_totals sum = { .njobs = nj, .jobs = f->job_sum };
		memset(f->job_sum, 0, nj * sizeof(*f->job_sum));
		for (uint32_t p = 0; p < f->nparts; p++) {
			const struct fabric_part *part = &f->parts[p];
			SIM_INVARIANT(k < part->ncounts && part->counts[k].t == f->parts[0].counts[k].t,
				      "partition %u has no counters sample at %lld", p,
				      (long long)f->parts[0].counts[k].t);
			add_totals(&sum, &part->counts[k].d);
			add_jobs(f->job_sum, part->job_counts + (size_t)k * nj, nj);
		}
		f->hooks.counters(f->hooks.ctx, f, f->parts[0].counts[k].t, &sum);
	}
	for (uint32_t p = 0; n && p < f->nparts; p++) {
		struct fabric_part *part = &f->parts[p];
		memmove(part->counts, part->counts + n, (part->ncounts - n) * sizeof(*part->counts));
		memmove(part->job_counts, part->job_counts + (size_t)n * nj,
			(size_t)(part->ncounts - n) * nj * sizeof(*part->job_counts));
		part->ncounts -= n;
	}
}

void fabric_series_window_end(struct fabric *f, sim_time_ps end)
{
	if (!f->hooks.counters)
		return;
	/* every partition sampled the same times.  The newest sample waits:
	 * when the run ends on its time, the run's last events are added to
	 * it (fabric_series_flush) */
	const struct fabric_part *p0 = &f->parts[0];
	uint32_t k = 0;
	while (k + 1 < p0->ncounts && p0->counts[k].t < end)
		k++;
	emit_counts(f, k);
}

void fabric_series_flush(struct fabric *f, sim_time_ps t)
{
	if (!f->hooks.counters)
		return;
	for (uint32_t p = 0; p < f->nparts; p++) {
		struct fabric_part *part = &f->parts[p];
		if (!fabric_part_here(f, p))
			continue; /* its rank's, which sends it */
		if (part->ncounts && part->counts[part->ncounts - 1].t == t)
			take_delta(part, part->ncounts - 1, 0); /* the events of t */
		else if (t > 0)
			count(part, t); /* the last, partial interval */
	}
	if (f->comm) /* the other ranks' last samples */
		fabric_ranks_window(f);
	emit_counts(f, f->parts[0].ncounts);
}
