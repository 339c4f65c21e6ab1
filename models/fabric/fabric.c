/*
 * fabric.c - assembles the fabric of a scenario, owns its memory, samples
 * the time series and checks the end-of-run invariants (see fabric.h); and
 * estimates the memory a scenario's QPs would take, before any is built.
 * Set-up is O(hosts + links): switches and ports come from the closed-form
 * topology, and no route table is stored.
 */
#include "models/fabric/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/base/slab.h"
#include "models/core/evkey.h"
#include "models/core/pfc.h"
#include "models/scenario/scenario.h"

/* ---- the scenario as node configurations ---- */

static struct net_qos qos_of(const struct scenario *scn)
{
	struct net_qos q = {
		.lossless = scn->pfc_prios, .ecn_queues = scn->ecn_queues,
		.ecn_at_enqueue = scn->ecn_mark_point == SCN_MARK_ENQUEUE,
		.cnp_dscp = scn->cnp_dscp, .cnp_strict = (uint8_t)(scn->cnp_priority_strict != 0),
		.dwrr = scn->scheduler == SCN_SCHED_DWRR, .mtu_bytes = scn->mtu_bytes,
		.pause_quanta = scn->pause_quanta, .xon_offset_bytes = scn->xon_offset_bytes,
		.ib = scn->fabric_type == SCN_FABRIC_IB,
		.ib_credits = (int32_t)(scn->ib_vl_buffer_bytes / PKT_CREDIT_BLOCK_BYTES),
		.ib_credit_delay_ps = scn->ib_credit_delay_ps,
	};
	memcpy(q.dscp_to_prio, scn->dscp_to_prio, sizeof(q.dscp_to_prio));
	memcpy(q.dwrr_weights, scn->dwrr_weights, sizeof(q.dwrr_weights));
	if (q.ib) { /* the VL of a packet: its SL (the priority) through ib.sl_to_vl */
		for (unsigned d = 0; d < 64; d++)
			q.dscp_to_prio[d] = scn->ib_sl_to_vl[scn->dscp_to_prio[d]];
		q.vlarb = scn->ib_vl_arb[0] != 0; /* all or none (validate.c) */
		q.ibcc = scn->ib_cc != 0;
		if (q.vlarb)
			for (unsigned v = 0; v < PKT_PRIOS; v++)
				q.dwrr_weights[v] = scn->ib_vl_arb[v];
	}
	return q;
}

/* rate, headroom and response time of the ports on one kind of link */
static struct switch_port_class port_class(const struct scenario *scn, int64_t rate_bps,
					   int64_t cable_mm)
{
	sim_time_ps response = scn->response_ps == SCN_AUTO ? PFC_AUTO : scn->response_ps;
	int64_t headroom = scn->headroom_bytes != SCN_AUTO
				   ? scn->headroom_bytes
				   : pfc_headroom_auto(scn->mtu_bytes, rate_bps, cable_mm, response).total;
	return (struct switch_port_class){ .rate_bps = rate_bps, .headroom_bytes = headroom,
					   .response_ps = pfc_response_ps(response, rate_bps) };
}

static struct switch_config switch_config_of(const struct scenario *scn)
{
	static const enum switch_pfcwd_action action[] = {
		[SCN_PFCWD_DROP] = SWITCH_PFCWD_DROP,
		[SCN_PFCWD_FORWARD] = SWITCH_PFCWD_FORWARD,
		[SCN_PFCWD_ALERT] = SWITCH_PFCWD_ALERT,
	};
	return (struct switch_config){
		.host = port_class(scn, scn->host_link_bps, scn->host_cable_mm),
		.fabric = port_class(scn, scn->fabric_link_bps, scn->fabric_cable_mm),
		.latency_ps = scn->switch_latency_ps,
		.ecmp_packet = scn->ecmp == SCN_ECMP_PACKET,
		.ecmp_adaptive = scn->ecmp == SCN_ECMP_ADAPTIVE,
		.wred = wred_params_make(scn->ecn_kmin_bytes, scn->ecn_kmax_bytes, scn->ecn_pmax_ppb),
		.buffer_bytes = scn->buffer_bytes, .reserved_bytes = scn->reserved_bytes,
		.cell_bytes = scn->cell_bytes, .dynamic_th = scn->dynamic_th,
		.lossy_dynamic_th = scn->lossy_dynamic_th,
		.pfcwd_enable = (uint8_t)(scn->pfcwd_enable != 0),
		.pfcwd_action = action[scn->pfcwd_action],
		.pfcwd_detect_ps = scn->pfcwd_detect_ps, .pfcwd_restore_ps = scn->pfcwd_restore_ps,
		.pfcwd_poll_ps = scn->pfcwd_poll_ps, .seed = scn->seed,
		.ibcc = {
			/* threshold t: (16 - t)/16 of a VL's buffer; 0: never */
			.threshold_bytes = scn->ib_threshold
						   ? (uint64_t)scn->ib_vl_buffer_bytes *
							     (uint64_t)(16 - scn->ib_threshold) / 16
						   : UINT64_MAX,
			.marking_rate = (uint32_t)scn->ib_marking_rate,
			.packet_size = (uint32_t)scn->ib_packet_size_bytes,
			.victim_mask = (uint8_t)(scn->ib_victim_mask != 0),
		},
	};
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
		.cut_on_timer = k->cut_on == SCN_CUT_ON_TIMER,
	};
}

static struct nic_config nic_config_of(const struct scenario *scn,
				       const struct switch_config *sw)
{
	return (struct nic_config){
		.rate_bps = scn->host_link_bps, .response_ps = sw->host.response_ps,
		.rx_headroom_bytes = sw->host.headroom_bytes,
		.dcqcn = scn->cc == SCN_CC_DCQCN,
		.cnp_per_port = scn->dcqcn.cnp_scope == SCN_CNP_SCOPE_PORT,
		.pace_fixed = !scn->dcqcn.rate_change_reschedules,
		.reorder = scn->ecmp == SCN_ECMP_ADAPTIVE,
		.min_time_between_cnps_ps = scn->dcqcn.min_time_between_cnps_ps,
		.rto_ps = scenario_rto_ps(scn),
		/* TCP gives up after Linux's tcp_retries2 = 15 timeouts in a row */
		.retry_cnt = scn->fabric_type == SCN_FABRIC_TCP ? 15 : (uint32_t)scn->nic_ib_retry_cnt,
		.tcp = scn->fabric_type == SCN_FABRIC_TCP, .dctcp = scn->tcp_cc == SCN_TCP_DCTCP,
		.tcp_init_cwnd = (uint32_t)scn->tcp_init_cwnd, .tcp_rto_min_ps = scn->tcp_rto_min_ps,
		.tcp_delack_ps = scn->tcp_delack_ps, .tcp_stack_ps = scn->tcp_stack_latency_ps,
		.dcqcn_params = dcqcn_params_of(scn), .seed = scn->seed,
		.ibcc = scn->fabric_type == SCN_FABRIC_IB && scn->ib_cc,
		.ibcc_params = {
			.ccti_increase = (uint32_t)scn->ib_ccti_increase,
			.ccti_limit = (uint32_t)scn->ib_ccti_limit,
			.ccti_min = (uint32_t)scn->ib_ccti_min,
			/* 1.024 us units */
			.ccti_timer_ps = scn->ib_ccti_timer * 1024 * UNITS_PS_PER_NS,
			/* a full data frame on the host link */
			.frame_ps = ((int64_t)scn->mtu_bytes + PKT_ROCE_HDR_BYTES +
				     PKT_WIRE_OVERHEAD_BYTES) *
				    8 * UNITS_PS_PER_S / scn->host_link_bps,
		},
		.nvlink_bps = scn->nvlink_bps, .nvlink_latency_ps = scn->nvlink_latency_ps,
		/* the NIC backlogs of queues.csv (output.queues = all) read every
		 * QP: they keep their state; rates.csv's always do */
		.qp_cache = scn->output_queues == SCN_QUEUES_ALL ? 0 : scn->nic_qp_cache,
		.qp_pinned = scn->output_rates,
	};
}

/* ---- forwarding what the layers below observe to the run layer's hooks ---- */

static void fwd_flow_done(void *ctx, unsigned part, const struct flow *fl)
{
	struct fabric *f = ctx;
	if (fl->mirror)
		fabric_ranks_completed(f, part, fl);
	if (f->hooks.flow_done)
		f->hooks.flow_done(f->hooks.ctx, f, part, fl);
}

static void fwd_io_done(void *ctx, const struct traffic_io *io)
{
	struct fabric *f = ctx;
	if (f->hooks.io_done)
		f->hooks.io_done(f->hooks.ctx, f, io);
}

static void fwd_coll_done(void *ctx, const struct coll *c)
{
	struct fabric *f = ctx;
	if (f->hooks.coll_done)
		f->hooks.coll_done(f->hooks.ctx, f, c);
}

static void fwd_pfc(void *ctx, const struct pause_rx *pr, unsigned prio, enum pfc_event ev,
		    uint32_t quanta)
{
	struct fabric_part *part = ctx;
	struct fabric *f = part->f;
	if (f->hooks.pfc)
		f->hooks.pfc(f->hooks.ctx, f, part->index, pr, prio, ev, quanta);
}

static void fwd_pause_sample(void *ctx, sim_time_ps t, const struct pause_rx *pr, unsigned prio,
			     uint32_t ppm, uint32_t frames)
{
	struct fabric_part *part = ctx;
	struct fabric *f = part->f;
	if (f->hooks.pause_sample)
		f->hooks.pause_sample(f->hooks.ctx, f, part->index, t, pr, prio, ppm, frames);
}

static void fwd_pfcwd(void *ctx, const struct pause_rx *pr, unsigned prio, enum pfcwd_event ev,
		      uint64_t dropped)
{
	struct fabric_part *part = ctx;
	struct fabric *f = part->f;
	if (f->hooks.pfcwd)
		f->hooks.pfcwd(f->hooks.ctx, f, part->index, pr, prio, ev, dropped);
}

/* ---- assembly ---- */

/* every link: the far end's partition runs its events; a link into another
 * partition than its sender's takes packets into the sender's outbox.  -1
 * out of memory. */
static int connect(struct fabric *f)
{
	const struct topo *t = &f->topo;
	for (uint32_t s = 0; s < f->nsw; s++) {
		struct sw *sw = &f->sws[s];
		uint32_t from = fabric_part_of_switch(f, s);
		for (uint16_t p = 0; p < sw->nports; p++) {
			struct topo_end e = topo_peer(t, s, p);
			struct link *l = &sw->ports[p].link;
			uint64_t key = SIM_KEY(EVKEY_PORT, sw->ports[p].gid, EVKEY_PORT_LINK);
			uint32_t to;
			if (e.tier == TOPO_HOST) {
				link_init(l, key, t->host_prop_ps, nic_rx, &f->nics[e.node], 0);
				to = fabric_part_of_host(f, e.node);
			} else {
				link_init(l, key, t->fabric_prop_ps, switch_rx, &f->sws[e.node],
					  e.port);
				to = fabric_part_of_switch(f, e.node);
			}
			struct link_outbox *o;
			if (to != from && (!(o = fabric_outbox(f, from, to)) || link_cross(l, o) ||
					   (f->comm && fabric_ranks_cross(f, l, to))))
				return -1;
		}
	}
	for (uint32_t h = 0; h < f->nhosts; h++) {
		struct topo_end up = topo_host_uplink(t, h);
		link_init(&f->nics[h].link, SIM_KEY(EVKEY_NIC, h, EVKEY_NIC_LINK), t->host_prop_ps,
			  switch_rx, &f->sws[up.node], up.port);
		uint32_t from = fabric_part_of_host(f, h), to = fabric_part_of_switch(f, up.node);
		struct link_outbox *o;
		if (to != from &&
		    (!(o = fabric_outbox(f, from, to)) || link_cross(&f->nics[h].link, o) ||
		     (f->comm && fabric_ranks_cross(f, &f->nics[h].link, to))))
			return -1;
	}
	return fabric_inboxes(f);
}

static int build_parts(struct fabric *f)
{
	f->parts = calloc_lines(f->nparts, sizeof(*f->parts));
	if (!f->parts)
		return -1;
	for (uint32_t p = 0; p < f->nparts; p++) {
		struct fabric_part *part = &f->parts[p];
		part->f = f;
		part->index = p;
		if (net_init(&part->net, f->scn->sample_interval_ps, p))
			return -1;
		struct net *net = &part->net;
		net->remote = f->part_rank && f->part_rank[p] != (uint32_t)f->comm->rank;
		net->qos = f->qos;
		net->pause.ctx = part;
		net->pause.on_event = fwd_pfc;
		net->pause.on_sample = fwd_pause_sample;
		net->obs.pfcwd = fwd_pfcwd;
		net->obs.pfcwd_ctx = part;
		net->topo = &f->topo;
		net->sws = f->sws;
		net->nics = f->nics;
		net->nsw = f->nsw;
		net->nhosts = f->nhosts;
		if (net_ports(net, f->ports, f->nports))
			return -1;
		fabric_series_init(part);
	}
	return 0;
}

struct fabric *fabric_create(const struct scenario *scn, unsigned threads, const char **err)
{
	return fabric_create_split(scn, threads, NULL, err);
}

struct fabric *fabric_create_split(const struct scenario *scn, unsigned threads,
				   const struct fabric_comm *comm, const char **err)
{
	struct fabric *f = calloc(1, sizeof(*f));
	*err = "out of memory building the fabric";
	if (!f)
		return NULL;
	f->scn = scn;
	f->comm = comm && comm->nranks > 1 ? comm : NULL;
	struct topo_shape shape = scenario_topo_shape(scn);
	topo_init(&f->topo, &shape);
	f->qos = qos_of(scn);
	f->swcfg = switch_config_of(scn);
	f->niccfg = nic_config_of(scn, &f->swcfg);
	f->nsw = f->topo.switches;
	f->nhosts = f->topo.hosts;
	f->sws = calloc_lines(f->nsw, sizeof(*f->sws));
	f->nics = calloc_lines(f->nhosts, sizeof(*f->nics));
	size_t nports = 0;
	for (uint32_t s = 0; s < f->nsw; s++)
		nports += topo_ports(&f->topo, s);
	f->nports = nports;
	f->ports = calloc_lines(nports, sizeof(*f->ports));
	f->pgs = calloc_lines(nports * PKT_PRIOS, sizeof(*f->pgs));
	if (!f->sws || !f->nics || !f->ports || !f->pgs || fabric_partition(f, threads) ||
	    build_parts(f) || fabric_series_jobs(f))
		goto fail;
	for (uint32_t s = 0, first = 0; s < f->nsw; s++) {
		switch_init(&f->parts[fabric_part_of_switch(f, s)].net, &f->sws[s], s, &f->swcfg,
			    f->ports + first, f->pgs + (size_t)first * PKT_PRIOS, first);
		first += f->sws[s].nports;
	}
	for (uint32_t h = 0; h < f->nhosts; h++)
		nic_init(&f->parts[fabric_part_of_host(f, h)].net, &f->nics[h], h, &f->niccfg);
	if (connect(f))
		goto fail;
	f->traffic.ctx = f;
	f->traffic.flow_done = fwd_flow_done;
	f->traffic.coll_done = fwd_coll_done;
	f->traffic.io_done = fwd_io_done;
	struct net **nets = calloc(f->nparts, sizeof(*nets));
	if (!nets)
		goto fail;
	for (uint32_t p = 0; p < f->nparts; p++)
		nets[p] = &f->parts[p].net;
	int rc = traffic_build(&f->traffic, nets, f->nparts, scn, &f->topo, f->swcfg.latency_ps);
	free(nets);
	if (rc || fault_build(&f->faults, &f->parts[0].net, scn))
		goto fail;
	/* the QPs (traffic.h) and the link failures are every partition's */
	f->qps = f->parts[0].net.qps;
	/* with nic.qp_cache, those that always have their state */
	f->nqps = nic_qps_pinned(&f->parts[0].net);
	for (uint32_t p = 0; p < f->nparts; p++) {
		struct net *net = &f->parts[p].net;
		net->link_down = f->faults.link_down;
		net->nlink_down = f->faults.nlink_down;
	}
	if (fabric_series_owned(f) || (f->comm && fabric_ranks_init(f)))
		goto fail;
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
	fabric_stop_threads(f);
	fabric_ranks_free(f);
	traffic_free(&f->traffic);
	fault_free(&f->faults);
	free(f->backlog);
	free(f->backlog_last);
	for (uint32_t i = 0; f->sws && i < f->nsw; i++) {
		for (uint16_t p = 0; f->sws[i].ports && p < f->sws[i].nports; p++)
			link_free(&f->sws[i].ports[p].link);
		switch_free(&f->sws[i]);
	}
	for (uint32_t h = 0; f->nics && h < f->nhosts; h++) {
		link_free(&f->nics[h].link);
		nic_free(&f->nics[h]);
	}
	for (uint32_t p = 0; f->parts && p < f->nparts; p++) {
		struct fabric_part *part = &f->parts[p];
		/* the outboxes: packets still in them (a run stopped early) are
		 * copies, of no pool */
		for (uint32_t k = 0; k < part->nout; k++) {
			link_outbox_free(part->out[k]);
			free(part->out[k]);
		}
		free(part->out);
		free(part->out_to);
		free(part->in);
		fabric_series_free(part);
		nic_flow_pool_free(&part->net);
		if (p) { /* partition 0's net owns the tables */
			part->net.qps = NULL;
			part->net.qp_cc = NULL;
			part->net.rxwin = NULL;
			part->net.tcp = NULL;
		}
		net_free(&part->net);
	}
	free(f->parts);
	free(f->job_sum);
	free(f->unit_of_sw);
	free(f->part_of_unit);
	free(f->thread_parts);
	free(f->thread_first);
	free(f->pgs);
	free(f->ports);
	free(f->sws);
	free(f->nics);
	free(f);
}

/* ---- the state of the run ---- */

sim_time_ps fabric_now(const struct fabric *f)
{
	if (f->comm) /* every rank's, as of the last fabric_next_time */
		return f->now_all;
	sim_time_ps t = 0;
	for (uint32_t p = 0; p < f->nparts; p++)
		t = f->parts[p].net.eng.now > t ? f->parts[p].net.eng.now : t;
	return t;
}

uint64_t fabric_events(const struct fabric *f)
{
	uint64_t n = 0;
	for (uint32_t p = 0; p < f->nparts; p++)
		n += f->parts[p].net.eng.events;
	return n;
}

void fabric_pause_flush(struct fabric *f, sim_time_ps t)
{
	fabric_settle(f);
	for (uint32_t p = 0; p < f->nparts; p++)
		if (fabric_part_here(f, p))
			pause_flush(&f->parts[p].net.pause, t);
	/* last: counters.csv then holds everything fabric_stats counts */
	fabric_series_flush(f, t);
}

struct sim_order fabric_tag(const struct fabric *f, unsigned part)
{
	return sim_current(&f->parts[part].net.eng);
}

static void add_stats(struct net_stats *a, const struct net_stats *b)
{
	a->data_pkts_sent += b->data_pkts_sent;
	a->payload_injected += b->payload_injected;
	a->payload_delivered += b->payload_delivered;
	a->nvlink_bytes += b->nvlink_bytes;
	a->drops.lossless += b->drops.lossless;
	a->drops.lossy += b->drops.lossy;
	a->drops.pfcwd += b->drops.pfcwd;
	a->drops.link_down += b->drops.link_down;
	a->drops.rx_discard += b->drops.rx_discard;
	a->drops.payload += b->drops.payload;
	a->cc.ecn_marked += b->cc.ecn_marked;
	a->cc.ce_delivered += b->cc.ce_delivered;
	a->cc.pkts_delivered += b->cc.pkts_delivered;
	a->cc.cnps_sent += b->cc.cnps_sent;
	a->cc.cnps_received += b->cc.cnps_received;
	a->cc.naks_sent += b->cc.naks_sent;
	a->cc.ooo_pkts += b->cc.ooo_pkts;
	a->cc.acks_sent += b->cc.acks_sent;
	a->cc.timeouts += b->cc.timeouts;
	a->cc.qps_failed += b->cc.qps_failed;
	a->cc.retransmitted_bytes += b->cc.retransmitted_bytes;
	a->pause_frames += b->pause_frames;
	a->pfcwd_storms += b->pfcwd_storms;
	if (b->peak_headroom_bytes > a->peak_headroom_bytes)
		a->peak_headroom_bytes = b->peak_headroom_bytes;
}

void fabric_stats(const struct fabric *f, struct net_stats *out)
{
	*out = (struct net_stats){0};
	for (uint32_t p = 0; p < f->nparts; p++)
		add_stats(out, &f->parts[p].net.st);
}

sim_time_ps fabric_paused_ps(const struct fabric *f, sim_time_ps t)
{
	sim_time_ps sum = 0;
	for (uint32_t p = 0; p < f->nparts; p++)
		sum += f->parts[p].end ? f->parts[p].end->paused_ps
				       : pause_total_ps(&f->parts[p].net.pause, t);
	return sum;
}

uint32_t fabric_max_paused_ppm(const struct fabric *f)
{
	uint32_t m = 0;
	for (uint32_t p = 0; p < f->nparts; p++)
		if (f->parts[p].net.pause.max_paused_ppm > m)
			m = f->parts[p].net.pause.max_paused_ppm;
	return m;
}

/* ---- messages ---- */

uint64_t fabric_flows_total(const struct fabric *f)
{
	return traffic_flows_total(&f->traffic);
}

uint64_t fabric_bytes_total(const struct fabric *f)
{
	return f->traffic.bytes_total;
}

uint64_t fabric_flows_done(const struct fabric *f)
{
	return traffic_done(&f->traffic);
}

const struct flow *fabric_flow(const struct fabric *f, uint64_t id)
{
	const struct net *net = &f->parts[0].net;
	for (uint32_t i = 0; i < net->nqps; i++) {
		const struct qp *q = nic_qp_peek(net, i); /* NULL: no message */
		for (const struct flow *fl = q ? q->head : NULL; fl; fl = fl->next)
			if (fl->id == id)
				return fl;
	}
	for (uint32_t h = 0; h < f->nhosts; h++)
		for (uint32_t k = 0; k < f->nics[h].nwait; k++)
			if (f->nics[h].wait[k]->id == id)
				return f->nics[h].wait[k];
	return NULL;
}

static int by_id(const void *a, const void *b)
{
	const struct flow *x = *(const struct flow *const *)a, *y = *(const struct flow *const *)b;
	return (x->id > y->id) - (x->id < y->id);
}

int fabric_unfinished(const struct fabric *f, void (*fn)(void *ctx, const struct flow *fl),
		      void *ctx)
{
	size_t n = 0, cap = 0;
	const struct flow **list = NULL;
	const struct net *net = &f->parts[0].net;
	for (uint32_t i = 0; i < net->nqps; i++) {
		const struct qp *q = nic_qp_peek(net, i); /* NULL: no message */
		for (const struct flow *fl = q ? q->head : NULL; fl; fl = fl->next) {
			if (fl->end_ps >= 0)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				const struct flow **l = realloc(list, cap * sizeof(*l));
				if (!l) {
					free(list);
					return -1;
				}
				list = l;
			}
			list[n++] = fl;
		}
	}
	if (n)
		qsort(list, n, sizeof(*list), by_id);
	for (size_t k = 0; k < n; k++)
		fn(ctx, list[k]);
	free(list);
	return 0;
}

/* ---- invariants ---- */

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

/* partition p's packets: live in its pool and outboxes (copies, of no
 * pool: link.h), found in its nodes and outboxes, and the payload of those
 * found; -1 with f->err when one of its switches is empty but its buffer
 * accounting is not */
int fabric_part_count(struct fabric *f, uint32_t p, uint64_t *live, uint64_t *pkts,
		      uint64_t *payload)
{
	*live = f->parts[p].net.pool.live;
	*pkts = *payload = 0;
	for (uint32_t q = 0; q < f->parts[p].nout; q++)
		for (int b = 0; b < 2; b++) {
			const struct link_outbuf *o = &f->parts[p].out[q]->buf[b];
			*live += o->n;
			for (uint32_t k = 0; k < o->n; k++)
				count_pkt(&o->e[k].p, pkts, payload);
		}
	for (uint32_t s = 0; s < f->nsw; s++) {
		const struct sw *sw = &f->sws[s];
		if (fabric_part_of_switch(f, s) != p)
			continue;
		uint64_t before = *pkts;
		count_q(&sw->pipeline.q, pkts, payload);
		for (uint16_t k = 0; k < sw->nports; k++) {
			const struct port *pt = &sw->ports[k];
			for (int q = 0; q < PKT_PRIOS; q++)
				count_q(&pt->q[q], pkts, payload);
			count_pkt(pt->tx, pkts, payload);
			count_q(&pt->ctrl, pkts, payload);
			if (!f->cross || !pt->link.far) /* else: the far end's (below) */
				count_q(link_in_flight(&pt->link), pkts, payload);
			count_q(&pt->pause.delay.q, pkts, payload);
		}
		/* nothing buffered in this switch: its MMU must be back to zero */
		int64_t held = sw->pool.used;
		for (size_t g = 0; g < (size_t)sw->nports * PKT_PRIOS; g++)
			held |= sw->pgs[g].mmu.reserved | sw->pgs[g].mmu.shared |
				sw->pgs[g].mmu.headroom;
		if (!sw->pipeline.q.n && *pkts == before && held) {
			snprintf(f->err, sizeof(f->err), "switch %u is empty but its buffer "
				 "accounting is not zero", s);
			return -1;
		}
	}
	for (uint32_t h = 0; h < f->nhosts; h++) {
		const struct nic *n = &f->nics[h];
		if (fabric_part_of_host(f, h) != p)
			continue;
		count_pkt(n->tx, pkts, payload);
		count_q(&n->pfcq, pkts, payload);
		for (int q = 0; q < PKT_PRIOS; q++)
			count_q(&n->ctrlq[q], pkts, payload);
		count_q(&n->rxq, pkts, payload);
		if (!f->cross || !n->link.far)
			count_q(link_in_flight(&n->link), pkts, payload);
		count_q(&n->pause.delay.q, pkts, payload);
	}
	/* a split run: a link into another partition carries its packets in
	 * the far end's copy, from the far end's pool; another rank's copy of
	 * it is empty here */
	for (uint32_t k = 0; k < f->ncross; k++)
		if (f->cross_to[k] == p)
			count_q(&f->cross[k]->q, pkts, payload);
	return 0;
}

int fabric_check_conservation(struct fabric *f, uint64_t *in_flight)
{
	struct net_stats sum, *st = &sum;
	fabric_stats(f, &sum);
	uint64_t pkts = 0, payload = 0, live = 0;
	for (uint32_t p = 0; p < f->nparts; p++) {
		uint64_t l, k, b;
		const struct fabric_part_end *e = f->parts[p].end;
		if (e && e->err[0]) {
			snprintf(f->err, sizeof(f->err), "%s", e->err);
			return -1;
		}
		if (e) {
			l = e->live;
			k = e->pkts;
			b = e->payload;
		} else if (fabric_part_count(f, p, &l, &k, &b)) {
			return -1;
		}
		live += l;
		pkts += k;
		payload += b;
	}
	*in_flight = payload;
	if (pkts != live) {
		snprintf(f->err, sizeof(f->err),
			 "%llu packets are live in the pools but %llu are in the fabric",
			 (unsigned long long)live, (unsigned long long)pkts);
		return -1;
	}
	if (st->payload_injected != st->payload_delivered + st->drops.payload + payload) {
		snprintf(f->err, sizeof(f->err),
			 "payload injected %llu B != delivered %llu B + dropped %llu B + in flight "
			 "%llu B",
			 (unsigned long long)st->payload_injected,
			 (unsigned long long)st->payload_delivered,
			 (unsigned long long)st->drops.payload, (unsigned long long)payload);
		return -1;
	}
	return 0;
}

uint64_t fabric_qps_live_peak(const struct fabric *f)
{
	uint64_t n = 0;
	for (uint32_t p = 0; p < f->nparts; p++)
		n += f->parts[p].net.qps_live_peak;
	return n;
}

uint64_t fabric_flows_peak(const struct fabric *f)
{
	uint64_t n = 0;
	for (uint32_t p = 0; p < f->nparts; p++)
		n += f->parts[p].net.flows_peak;
	return n;
}

uint64_t fabric_part_max_queue(const struct fabric *f, uint32_t part)
{
	uint64_t m = 0;
	for (uint32_t s = 0; s < f->nsw; s++)
		for (uint16_t p = 0; fabric_part_of_switch(f, s) == part && p < f->sws[s].nports; p++)
			if (f->sws[s].ports[p].max_queued_bytes > m)
				m = f->sws[s].ports[p].max_queued_bytes;
	return m;
}

uint64_t fabric_max_queue_bytes(const struct fabric *f)
{
	uint64_t m = 0;
	for (uint32_t p = 0; p < f->nparts; p++) {
		uint64_t q = f->parts[p].end ? f->parts[p].end->max_queue
					     : fabric_part_max_queue(f, p);
		m = q > m ? q : m;
	}
	return m;
}

/* the one-packet messages of an all-to-all that a host link sends within
 * two round trips of a leaf-spine without queues (a cable of 5 ns/m, three
 * switches each way), and two more: those a rank has under way at once */
static uint64_t in_flight_frames(const struct scenario *scn, const struct scn_job *j)
{
	sim_time_ps way = (2 * scn->host_cable_mm + 2 * scn->fabric_cable_mm) * 5 +
			  3 * scn->switch_latency_ps;
	int64_t frame = j->size_bytes / j->ranks.n / j->qps_per_connection + PKT_ROCE_HDR_BYTES +
			PKT_WIRE_OVERHEAD_BYTES;
	uint64_t f = (uint64_t)units_mul_div_ceil(scn->host_link_bps, 4 * way,
						  8 * frame * UNITS_PS_PER_S) + 2;
	uint64_t all = (uint64_t)(j->ranks.n - 1) * j->qps_per_connection;
	return f < all ? f : all;
}

/* the QPs give their state up at rest (fabric.h, struct fabric_memory) */
static void cached_memory(const struct scenario *scn, struct fabric_memory *n)
{
	uint64_t busy = scn->output_rates, msgs = 0;
	n->ids = 0;
	for (uint32_t k = 0; k < scn->njobs; k++) {
		const struct scn_job *j = &scn->jobs[k];
		if (j->pattern != SCN_JOB_ALLTOALL) {
			busy += traffic_job_qps(j);
			msgs += traffic_job_posted_at_once(j);
			/* the job's table of its QPs' ids, and their ends (an
			 * all-to-all computes both, alltoall.c) */
			n->ids += traffic_job_qps(j) * (sizeof(uint32_t) + nic_qp_ends_bytes());
			continue;
		}
		/* shift: about two of a rank's parts are under way (the one
		 * sent, the one acknowledged).  all-at-once: a rank's NIC serves
		 * its messages in turn, a packet each, so that messages of more
		 * than a packet are all under way after the first round; of one
		 * packet, those sent within about two round trips */
		uint64_t b = 2 * (uint64_t)j->ranks.n * j->qps_per_connection;
		uint64_t at_once = traffic_job_posted_at_once(j);
		if (at_once && j->ranks.n &&
		    j->size_bytes / j->ranks.n > (int64_t)scn->mtu_bytes * j->qps_per_connection)
			b = at_once;
		else if (at_once)
			b = j->ranks.n * in_flight_frames(scn, j);
		b = b < traffic_job_qps(j) ? b : traffic_job_qps(j);
		busy += b;
		/* made in turn on one GPU a server but over InfiniBand (alltoall.c) */
		msgs += scn->gpus_per_server == 1 && scn->fabric_type != SCN_FABRIC_IB && at_once
				? b
				: at_once;
	}
	n->cache = scn->nic_qp_cache;
	n->live = n->cache + busy < n->qps ? n->cache + busy : n->qps;
	n->msgs = msgs;
	n->home_bytes = nic_qp_home_bytes();
	n->bytes = n->qps * n->home_bytes + n->ids + n->live * n->qp_bytes + n->msgs * n->msg_bytes;
}

struct fabric_memory fabric_memory_estimate(const struct scenario *scn)
{
	struct fabric_memory n = { .msg_bytes = sizeof(struct flow) };
	for (uint32_t j = 0; j < scn->njobs; j++) {
		uint64_t q = traffic_job_qps(&scn->jobs[j]);
		n.job = q > n.most ? j : n.job;
		n.most = q > n.most ? q : n.most;
		n.qps += q;
		n.msgs += traffic_job_posted_at_once(&scn->jobs[j]);
	}
	n.qp_bytes = nic_qp_bytes(scn->fabric_type == SCN_FABRIC_TCP);
	/* TCP's QPs and those of InfiniBand's congestion control make their
	 * struct qp_cc as they first send; DCQCN's when it first reacts, and
	 * NVLink's as they first post */
	int ibcc = scn->fabric_type == SCN_FABRIC_IB && scn->ib_cc;
	if (scn->fabric_type == SCN_FABRIC_TCP || ibcc)
		n.qp_bytes += nic_qp_cc_bytes();
	else if (scn->cc == SCN_CC_DCQCN || scn->gpus_per_server > 1)
		n.cc_bytes = nic_qp_cc_bytes();
	n.bytes = n.qps * n.qp_bytes + n.msgs * n.msg_bytes;
	if (scn->nic_qp_cache && n.qps > scn->nic_qp_cache && scn->fabric_type != SCN_FABRIC_TCP &&
	    scn->ecmp != SCN_ECMP_ADAPTIVE && scn->output_queues != SCN_QUEUES_ALL)
		cached_memory(scn, &n);
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	n.phys = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
	n.verdict = n.qps >= UINT32_MAX		     ? FABRIC_MEMORY_TOO_MANY_QPS
		    : n.phys && n.bytes > n.phys ? FABRIC_MEMORY_TOO_LARGE
						 : FABRIC_MEMORY_FITS;
	return n;
}
