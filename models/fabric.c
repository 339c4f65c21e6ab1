/*
 * fabric.c - builds the fabric of a scenario, owns its memory, and checks
 * the end-of-run invariants.  Set-up is O(hosts + links): switches and ports
 * come from the closed-form topology, and no route table is stored.
 */
#include "fabric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "scenario.h"

/* RoCEv2 UDP source port of a QP: RoCE NICs derive it from a hash of the
 * QP number, within 0xC000-0xFFFF; here from the seed and the QP id */
static uint16_t qp_sport(uint64_t seed, uint32_t qp)
{
	return (uint16_t)(0xC000u | (rng_derive(seed, RNG_ID(RNG_NIC, qp)) & 0x3FFFu));
}

static int grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	uint32_t cap2 = *cap ? *cap : 64;
	while (cap2 < need)
		cap2 *= 2;
	void *a = realloc(*arr, (size_t)cap2 * elem);
	if (!a)
		return -1;
	*arr = a;
	*cap = cap2;
	return 0;
}

uint32_t fabric_add_qp(struct fabric *f, uint32_t src, uint32_t dst, uint8_t dscp)
{
	if (grow((void **)&f->qps, &f->qps_cap, f->nqps + 1, sizeof(*f->qps)))
		return FABRIC_NONE;
	uint32_t qid = f->nqps++;
	f->qps[qid] = (struct qp){
		.id = qid, .src = (uint16_t)src, .dst = (uint16_t)dst,
		.sport = qp_sport(f->scn->seed, qid), .prio = f->scn->dscp_to_prio[dscp],
		.dscp = dscp,
	};
	nic_qp_init(f, &f->qps[qid]);
	return qid;
}

uint32_t fabric_add_flow(struct fabric *f, uint32_t job, uint32_t qp, int64_t bytes,
			 sim_time_ps start_ps, int32_t after)
{
	if (grow((void **)&f->flows, &f->flows_cap, f->nflows + 1, sizeof(*f->flows)))
		return FABRIC_NONE;
	const struct qp *q = &f->qps[qp];
	uint32_t id = f->nflows++, mtu = f->scn->mtu_bytes;
	f->flows[id] = (struct flow){
		.id = id, .job = job, .src = q->src, .dst = q->dst, .qp = qp, .after = after,
		.first_dep = FABRIC_NONE, .next_dep = FABRIC_NONE, .first_psn = UINT32_MAX,
		.npkts = (uint32_t)((bytes + mtu - 1) / mtu), .bytes = bytes, .tx_left = bytes,
		.start_ps = start_ps, .end_ps = -1, .dscp = q->dscp, .prio = q->prio,
	};
	return id;
}

static void connect(struct fabric *f)
{
	const struct topo *t = &f->topo;
	for (uint32_t s = 0; s < f->nsw; s++) {
		struct sw *sw = &f->sws[s];
		for (uint16_t p = 0; p < sw->nports; p++) {
			struct topo_end e = topo_peer(t, s, p);
			if (e.tier == TOPO_HOST)
				link_init(&sw->ports[p].link, t->host_prop_ps, nic_rx,
					  &f->nics[e.node], 0);
			else
				link_init(&sw->ports[p].link, t->fabric_prop_ps, switch_rx,
					  &f->sws[e.node], e.port);
		}
	}
	for (uint32_t h = 0; h < f->nhosts; h++) {
		struct topo_end up = topo_host_uplink(t, h);
		link_init(&f->nics[h].link, t->host_prop_ps, switch_rx, &f->sws[up.node],
			  up.port);
	}
}

/* [dcqcn] knobs (base units) to the reaction point's parameters */
static struct dcqcn_params dcqcn_params_of(const struct scenario *scn)
{
	const struct scn_dcqcn *k = &scn->dcqcn;
	static const enum dcqcn_variant variant[] = {
		[SCN_DCQCN_NVIDIA] = DCQCN_NVIDIA, [SCN_DCQCN_PAPER] = DCQCN_PAPER,
		[SCN_DCQCN_HPCC] = DCQCN_HPCC,
	};
	return (struct dcqcn_params){
		.variant = variant[scn->dcqcn_profile],
		.line_rate_bps = (double)scn->host_link_bps,
		.time_reset_ps = k->rpg_time_reset_ps,
		.byte_reset_bytes = k->rpg_byte_reset_bytes,
		.threshold = k->rpg_threshold,
		.ai_bps = (double)k->rpg_ai_rate_bps,
		.hai_bps = (double)k->rpg_hai_rate_bps,
		.gd = k->rpg_gd,
		.min_dec_fac_pct = k->rpg_min_dec_fac_pct,
		.min_rate_bps = (double)k->rpg_min_rate_bps,
		.g = (1024.0 - k->dce_tcp_g) / 1024.0,
		.alpha_period_ps = k->dce_tcp_rtt_ps,
		.monitor_period_ps = k->rate_reduce_monitor_period_ps,
		.initial_alpha = k->initial_alpha_value / 1024.0,
		.first_cnp_rate_bps = (double)k->rate_to_set_on_first_cnp_bps,
		.clamp_tgt_rate = k->clamp_tgt_rate,
		.clamp_after_time_inc = k->clamp_tgt_rate_after_time_inc,
	};
}

static struct fabric_totals totals(const struct fabric *f)
{
	const struct fabric_drops *d = &f->drops;
	return (struct fabric_totals){
		.delivered_pkts = f->cc.pkts_delivered, .ecn_marked = f->cc.ce_delivered,
		.cnps = f->cc.cnps_sent, .pause_frames = f->pause_frames,
		.drops = d->lossless + d->lossy + d->pfcwd + d->link_down,
	};
}

/* NIC transmit backlogs: scans every QP, so only with output.queues = all */
static void sample_backlogs(struct fabric *f)
{
	const struct fabric_hooks *h = &f->hooks;
	memset(f->backlog, 0, (size_t)f->nhosts * PKT_PRIOS * sizeof(*f->backlog));
	for (uint32_t i = 0; i < f->nqps; i++) {
		const struct qp *q = &f->qps[i];
		if (!q->snd)
			continue;
		uint64_t b = (uint64_t)(q->snd->bytes - q->snd_off);
		for (const struct flow *fl = q->snd->next; fl; fl = fl->next)
			b += (uint64_t)fl->bytes;
		f->backlog[(size_t)q->src * PKT_PRIOS + q->prio] += b;
	}
	for (uint32_t hst = 0; hst < f->nhosts; hst++) {
		uint8_t now = 0;
		for (unsigned p = 0; p < PKT_PRIOS; p++) {
			uint64_t b = f->backlog[(size_t)hst * PKT_PRIOS + p];
			if (b)
				now |= (uint8_t)(1u << p);
			if (b || (f->backlog_last[hst] >> p & 1u))
				h->nic_queue_sample(h->ctx, f, hst, p, b);
		}
		f->backlog_last[hst] = now;
	}
}

/*
 * Time series every sample_interval, at the end of each interval:
 * counters.csv (deltas of the fabric totals), queues.csv (switch queues
 * that held packets), rates.csv (the DCQCN state of the first output.rates
 * QPs with data outstanding, read from a copy advanced to now: sampling
 * never changes the simulation).  It samples only while there are hooks.
 */
static void series_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct fabric *f = eng->user;
	const struct fabric_hooks *h = &f->hooks;
	if (h->counters) {
		struct fabric_totals now = totals(f), d = {
			.delivered_pkts = now.delivered_pkts - f->last.delivered_pkts,
			.ecn_marked = now.ecn_marked - f->last.ecn_marked,
			.cnps = now.cnps - f->last.cnps,
			.pause_frames = now.pause_frames - f->last.pause_frames,
			.drops = now.drops - f->last.drops,
		};
		f->last = now;
		h->counters(h->ctx, f, &d);
	}
	if (h->queue_sample)
		switch_sample_queues(f);
	if (h->nic_queue_sample && f->backlog)
		sample_backlogs(f);
	uint32_t n = f->nqps < f->scn->output_rates ? f->nqps : f->scn->output_rates;
	if (h->rate_sample && f->scn->cc == SCN_CC_DCQCN)
		for (uint32_t i = 0; i < n; i++) {
			const struct qp *q = &f->qps[i];
			if (q->snd || q->psn_una < q->psn_max)
				h->rate_sample(h->ctx, f, q);
		}
	if (!fabric_finished(f))
		sim_schedule(eng, ev, eng->now + f->scn->sample_interval_ps);
}

void fabric_start_series(struct fabric *f)
{
	const struct fabric_hooks *h = &f->hooks;
	if (h->counters || h->queue_sample || h->rate_sample)
		sim_schedule(&f->eng, &f->series_ev, f->scn->sample_interval_ps);
}

struct fabric *fabric_create(const struct scenario *scn, const char **err)
{
	struct fabric *f = calloc(1, sizeof(*f));
	*err = "out of memory building the fabric";
	if (!f)
		return NULL;
	f->scn = scn;
	pkt_pool_init(&f->pool);
	topo_init(&f->topo, scn);
	if (sim_engine_init(&f->eng))
		goto fail;
	f->eng.user = f;
	f->dcqcn = dcqcn_params_of(scn);
	f->wred = wred_params_make(scn->ecn_kmin_bytes, scn->ecn_kmax_bytes, scn->ecn_pmax_ppb);
	f->nsw = f->topo.switches;
	f->nhosts = f->topo.hosts;
	f->sws = calloc(f->nsw, sizeof(*f->sws));
	f->nics = calloc(f->nhosts, sizeof(*f->nics));
	size_t nports = 0;
	for (uint32_t s = 0; s < f->nsw; s++)
		nports += topo_ports(&f->topo, s);
	f->nports = nports;
	f->ports = calloc(nports, sizeof(*f->ports));
	f->pgs = calloc(nports * PKT_PRIOS, sizeof(*f->pgs));
	if (!f->sws || !f->nics || !f->ports || !f->pgs)
		goto fail;
	sim_event_init(&f->sample_ev, pause_sample_fire);
	for (uint32_t s = 0, first = 0; s < f->nsw; s++) {
		switch_init(f, &f->sws[s], s, f->ports + first, f->pgs + (size_t)first * PKT_PRIOS);
		first += f->sws[s].nports;
	}
	for (uint32_t h = 0; h < f->nhosts; h++)
		nic_init(f, &f->nics[h], h);
	connect(f);
	if (traffic_build(f) || fault_build(f))
		goto fail;
	sim_event_init(&f->series_ev, series_fire);
	if (scn->output_queues == SCN_QUEUES_ALL) {
		f->backlog = calloc((size_t)f->nhosts * PKT_PRIOS, sizeof(*f->backlog));
		f->backlog_last = calloc(f->nhosts, 1);
		if (!f->backlog || !f->backlog_last)
			goto fail;
	}
	*err = NULL;
	return f;
fail:
	fabric_destroy(f);
	return NULL;
}

void fabric_destroy(struct fabric *f)
{
	if (!f)
		return;
	traffic_free(f);
	free(f->faults);
	free(f->backlog);
	free(f->backlog_last);
	for (uint32_t i = 0; f->sws && i < f->nsw; i++)
		rng_free(f->sws[i].rng);
	free(f->pgs);
	free(f->ports);
	free(f->sws);
	free(f->nics);
	free(f->qps);
	free(f->flows);
	pkt_pool_free(&f->pool);
	sim_engine_free(&f->eng);
	free(f);
}

static void count_q(const struct pktq *q, uint64_t *pkts, uint64_t *payload)
{
	for (const struct pkt *p = q->head; p; p = p->next) {
		(*pkts)++;
		if (p->type == PKT_DATA)
			*payload += p->payload;
	}
}

static void count_pkt(const struct pkt *p, uint64_t *pkts, uint64_t *payload)
{
	if (!p)
		return;
	(*pkts)++;
	if (p->type == PKT_DATA)
		*payload += p->payload;
}

void fabric_drop(struct fabric *f, struct pkt *p, uint64_t *cause)
{
	(*cause)++;
	f->drops.payload += p->payload;
	pkt_release(&f->pool, p);
}

int fabric_check_conservation(struct fabric *f, uint64_t *in_flight)
{
	uint64_t pkts = 0, payload = 0, switch_pkts = 0;
	for (uint32_t s = 0; s < f->nsw; s++) {
		const struct sw *sw = &f->sws[s];
		uint64_t before = pkts;
		count_q(&sw->pipeline.q, &pkts, &payload);
		for (uint16_t p = 0; p < sw->nports; p++) {
			const struct port *pt = &sw->ports[p];
			for (int q = 0; q < PKT_PRIOS; q++)
				count_q(&pt->q[q], &pkts, &payload);
			count_pkt(pt->tx, &pkts, &payload);
			count_q(&pt->ctrl, &pkts, &payload);
			count_q(&pt->link.q, &pkts, &payload);
			count_q(&pt->pause.delay.q, &pkts, &payload);
		}
		switch_pkts = pkts - before;
		/* nothing buffered in this switch: its MMU must be back to zero */
		int64_t held = sw->pool.used;
		for (size_t g = 0; g < (size_t)sw->nports * PKT_PRIOS; g++)
			held |= sw->pgs[g].mmu.reserved | sw->pgs[g].mmu.shared |
				sw->pgs[g].mmu.headroom;
		if (!sw->pipeline.q.n && !switch_pkts && held) {
			snprintf(f->err, sizeof(f->err), "switch %u is empty but its buffer "
				 "accounting is not zero", s);
			return -1;
		}
	}
	for (uint32_t h = 0; h < f->nhosts; h++) {
		const struct nic *n = &f->nics[h];
		count_pkt(n->tx, &pkts, &payload);
		count_q(&n->pfcq, &pkts, &payload);
		for (int q = 0; q < PKT_PRIOS; q++)
			count_q(&n->ctrlq[q], &pkts, &payload);
		count_q(&n->rxq, &pkts, &payload);
		count_q(&n->link.q, &pkts, &payload);
		count_q(&n->pause.delay.q, &pkts, &payload);
	}
	*in_flight = payload;
	if (pkts != f->pool.live) {
		snprintf(f->err, sizeof(f->err),
			 "%llu packets are live in the pool but %llu are in the fabric",
			 (unsigned long long)f->pool.live, (unsigned long long)pkts);
		return -1;
	}
	if (f->payload_injected != f->payload_delivered + f->drops.payload + payload) {
		snprintf(f->err, sizeof(f->err),
			 "payload injected %llu B != delivered %llu B + dropped %llu B + in flight "
			 "%llu B",
			 (unsigned long long)f->payload_injected,
			 (unsigned long long)f->payload_delivered,
			 (unsigned long long)f->drops.payload, (unsigned long long)payload);
		return -1;
	}
	return 0;
}

uint64_t fabric_max_queue_bytes(const struct fabric *f)
{
	uint64_t m = 0;
	for (uint32_t s = 0; s < f->nsw; s++)
		for (uint16_t p = 0; p < f->sws[s].nports; p++)
			if (f->sws[s].ports[p].max_queued_bytes > m)
				m = f->sws[s].ports[p].max_queued_bytes;
	return m;
}
