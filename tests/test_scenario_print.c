/*
 * test_scenario_print.c - the resolved scenario printed back (scenario_print)
 * and the values `check` derives (scenario_print_derived), with the PFC
 * arithmetic behind them (pfc.h, mmu.h; docs/model.md).
 *
 * What is pinned: print -> load -> print giving the same text and values,
 * for every section, job pattern and fault kind; what is printed and what
 * is not (keys that do not apply, the CNP and [dcqcn] keys in firmware
 * units, comments in place of what would not load back); the derived
 * values against numbers worked out by hand: hosts, links, the frame and
 * its serialization, goodput, the longest path and its latency, the BDP,
 * pause quanta in ps, the peer response table, auto headroom, the shared
 * pool of each switch tier, the ECN thresholds, and docs/model.md#dcqcn's DCQCN facts
 * (42 us / 168 us byte counter, 142 us and 9.7 ms alpha half-lives).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "models/core/mmu.h"
#include "models/core/pfc.h"
#include "models/scenario/scenario.h"
#include "testlib.h"

/* ---- print and load back ---- */

/*
 * Scenarios that must print -> load -> print to the same text and values:
 * every key, [job.NAME] with each pattern, [fault.NAME] with each kind,
 * values that are not whole units, PFC, the watchdog, ECN and DCQCN off.
 */
static const char *const round_trip_texts[] = {
	"",
	"[sim]\nduration = 1.001us\nseed = 9223372036854775807\n"
	"[topology]\nspines = 3\nleaves = 5\nhosts_per_leaf = 7\n"
	"host_link = 1.5Gbps\nfabric_link = 1.6Tbps\nhost_cable = 0.005m\n"
	"fabric_cable = 0m\nswitch_latency = 83.56ns\nmtu = 9KB\n"
	"ecmp = packet\n"
	"[qos]\nnccl_ib_tc = 106\ndscp_to_priority = 63:0,26:3,48:6\n"
	"scheduler = dwrr\ndwrr_weights = 1,2,3,4,5,6,7,8\n"
	"[job.in]\npattern = incast\nsize = 1536B\nstart = 1.5ms\n"
	"dscp = 0\ndst = 34\nsenders = 0, 1-3\n"
	"[job.p]\npattern = permutation\nranks = all\nsize = 64MiB\n",
	"[topology]\nkind = fat-tree\nk = 2\n",
	"[topology]\nkind = star\nhosts = 1024\n[buffer]\nsize = 1GiB\n"
	"[job.z]\npattern = permutation\nranks = 1023,0\n",
	/* [buffer], [pfc], [pfcwd], [nic], [output], faults */
	"[buffer]\nsize = 32MiB\nreserved = 0B\ndynamic_th = -3\n"
	"lossy_dynamic_th = 7\ncell = 256B\n"
	"[pfc]\npriorities = 4,3\nheadroom = 100KB\nxon_offset = 1.5KB\n"
	"pause_quanta = 1\nresponse_time = 1.001us\n"
	"[pfcwd]\nenable = on\ndetection_time = 1us\nrestoration_time = 10s\n"
	"poll_interval = 1.5ms\naction = forward\n"
	"[nic]\npause_watchdog = 100ms\n[output]\nsample_interval = 100ns\n"
	"[job.in]\npattern = incast\n"
	"[fault.storm]\nkind = pause-storm\nnode = h31\nstart = 1ms\nduration = 2.5ms\n"
	"[fault.slow]\nkind = slow-receiver\nnode = h0\nrate = 1.5Gbps\n"
	"[fault.cut]\nkind = link-down\nlink = h3 - leaf0\nstart = 10us\n",
	/* off: the keys that do not apply are not printed */
	"[pfc]\npriorities =\n[pfcwd]\nenable = false\n[buffer]\ncell = 0\n"
	"[topology]\nmtu = 9000\n"
	"[fault.cut]\nkind = link-down\nlink = spine1-leaf3\n",
	"[topology]\nkind = fat-tree\nk = 4\n"
	"[fault.a]\nkind = link-down\nlink = agg1-core2\n",
	/* [ecn], [dcqcn] and the other congestion control keys */
	"[dcqcn]\nprofile = paper\n",
	"[dcqcn]\nprofile = hpcc\n",
	/* overridden knobs, some not whole firmware units */
	"[dcqcn]\nprofile = nvidia\nrpg_time_reset = 1.5\nrpg_byte_reset = 1000B\n"
	"rpg_ai_rate = 2.5\nrpg_hai_rate = 1.5Gbps\nrpg_gd = 20\n"
	"dce_tcp_rtt = 1ns\nclamp_tgt_rate = yes\ncnp_scope = port\n"
	"rate_to_set_on_first_cnp = 100Gbps\nmin_time_between_cnps = 0\n"
	"[ecn]\nqueues = 4,0\nkmin = 0B\nkmax = 64GiB\npmax = 0.0000001\n"
	"mark_point = enqueue\n"
	"[qos]\ncnp_dscp = 0\ncnp_priority_strict = false\n"
	"[nic]\nrto = 1.001us\n[output]\nrates = 0\n",
	"[dcqcn]\nrpg_ai_rate = 10\nprofile = paper\nrpg_byte_reset = 0\n"
	"rpg_min_dec_fac = 100\ndce_tcp_g = 0\ninitial_alpha_value = 0\n",
	"[dcqcn]\nprofile = hpcc\nrpg_threshold = 31\nrpg_min_rate = 1.000001\n",
	/* off */
	"[nic]\ncc = none\n[ecn]\nqueues =\n",
	/* the collectives of docs/model.md#traffic */
	"[job.ar]\npattern = ring-allreduce\n[job.a2a]\npattern = alltoall\n",
	"[topology]\nkind = star\nhosts = 64\n"
	"[job.ar]\npattern = ring-allreduce\nranks = 0-7, 16-23\nsize = 256MiB\n"
	"iterations = 1000\ncompute_gap = 1.001us\nstart = 2ms\nskew = 83.56ns\n"
	"channels = 64\nslice = 1.5MiB\ndscp = 34\n"
	"[job.a2a]\npattern = alltoall\nranks = 63,0-3\nsize = 1.536KB\n"
	"iterations = 7\ncompute_gap = 1000s\nskew = 1ps\nschedule = shift\n"
	"[job.in]\npattern = incast\ndst = 5\niterations = 2\nskew = 10us\n",
};

/* the values of b, loaded from a's printout, are a's (where they are used) */
static void check_same_values(const struct scenario *a, const struct scenario *b)
{
#define SAME(f) ck_assert_int_eq(a->f, b->f)
	uint32_t i, j;

	SAME(duration_ps);
	SAME(seed);
	SAME(topo);
	SAME(host_link_bps);
	SAME(fabric_cable_mm);
	SAME(switch_latency_ps);
	SAME(mtu_bytes);
	SAME(data_dscp);
	ck_assert_int_eq(memcmp(a->dscp_to_prio, b->dscp_to_prio, 64), 0);
	/* [buffer] [pfc] [pfcwd] [nic] [output] */
	SAME(buffer_bytes);
	SAME(reserved_bytes);
	SAME(dynamic_th);
	SAME(lossy_dynamic_th);
	SAME(cell_bytes);
	SAME(pfc_prios);
	SAME(nic_pause_watchdog_ps);
	SAME(sample_interval_ps);
	SAME(pfcwd_enable);
	if (a->pfc_prios) {
		SAME(headroom_bytes);
		SAME(xon_offset_bytes);
		SAME(pause_quanta);
		SAME(response_ps);
	}
	if (a->pfcwd_enable) {
		SAME(pfcwd_detect_ps);
		SAME(pfcwd_restore_ps);
		SAME(pfcwd_poll_ps);
		SAME(pfcwd_action);
	}
	/* [ecn], the CNP keys, [nic], [output], [dcqcn] */
	SAME(ecn_queues);
	if (a->ecn_queues) {
		SAME(ecn_kmin_bytes);
		SAME(ecn_kmax_bytes);
		SAME(ecn_pmax_ppb);
		SAME(ecn_mark_point);
	}
	SAME(cnp_dscp);
	SAME(cnp_priority_strict);
	SAME(cc);
	SAME(nic_rto_ps);
	SAME(output_rates);
	if (a->cc == SCN_CC_DCQCN) {
		SAME(dcqcn_profile);
		SAME(dcqcn.rpg_time_reset_ps);
		SAME(dcqcn.rpg_byte_reset_bytes);
		SAME(dcqcn.rpg_threshold);
		SAME(dcqcn.rpg_ai_rate_bps);
		SAME(dcqcn.rpg_hai_rate_bps);
		SAME(dcqcn.rpg_gd);
		SAME(dcqcn.rpg_min_dec_fac_pct);
		SAME(dcqcn.rpg_min_rate_bps);
		SAME(dcqcn.dce_tcp_g);
		SAME(dcqcn.dce_tcp_rtt_ps);
		SAME(dcqcn.rate_reduce_monitor_period_ps);
		SAME(dcqcn.initial_alpha_value);
		SAME(dcqcn.rate_to_set_on_first_cnp_bps);
		SAME(dcqcn.clamp_tgt_rate);
		SAME(dcqcn.clamp_tgt_rate_after_time_inc);
		SAME(dcqcn.min_time_between_cnps_ps);
		SAME(dcqcn.cnp_scope);
	}
	/* jobs */
	SAME(njobs);
	for (j = 0; j < a->njobs; j++) {
		ck_assert_str_eq(a->jobs[j].name, b->jobs[j].name);
		SAME(jobs[j].pattern);
		ck_assert_str_eq(a->jobs[j].ranks.text, b->jobs[j].ranks.text);
		SAME(jobs[j].ranks.n);
		for (i = 0; i < a->jobs[j].ranks.n; i++)
			SAME(jobs[j].ranks.hosts[i]);
		SAME(jobs[j].size_bytes);
		SAME(jobs[j].start_ps);
		SAME(jobs[j].iterations);
		SAME(jobs[j].compute_gap_ps);
		SAME(jobs[j].skew_ps);
		SAME(jobs[j].dscp);
		if (a->jobs[j].pattern == SCN_JOB_RING_ALLREDUCE) {
			SAME(jobs[j].channels);
			SAME(jobs[j].slice_bytes);
		}
		if (a->jobs[j].pattern == SCN_JOB_ALLTOALL)
			SAME(jobs[j].schedule);
	}
	/* faults */
	SAME(nfaults);
	for (i = 0; i < a->nfaults; i++) {
		ck_assert_str_eq(a->faults[i].name, b->faults[i].name);
		SAME(faults[i].kind);
		SAME(faults[i].host);
		ck_assert_str_eq(a->faults[i].link_text, b->faults[i].link_text);
		SAME(faults[i].end_node[0]);
		SAME(faults[i].end_node[1]);
		SAME(faults[i].end_is_host[0]);
		SAME(faults[i].end_is_host[1]);
		SAME(faults[i].start_ps);
		SAME(faults[i].duration_ps);
		SAME(faults[i].priority);
		SAME(faults[i].rate_bps);
	}
#undef SAME
}

START_TEST(test_round_trip)
{
	struct scenario *a = tl_scn_ok(round_trip_texts[_i]), *b = tl_scn_new();
	struct scn_error err;
	char *pa = tl_print(a), *pb;

	ck_assert_msg(scenario_load_string(b, "x.ini", pa, &err) == 0,
		      "printed scenario does not load: %s\n%s", err.msg, pa);
	ck_assert_msg(scenario_finalize(b, &err) == 0, "finalize: %s", err.msg);
	pb = tl_print(b);
	ck_assert_str_eq(pa, pb);
	check_same_values(a, b);
	free(pa);
	free(pb);
	tl_unload(a);
	tl_unload(b);
}
END_TEST

/* ---- what is printed: the scenario and its derived values ---- */

/*
 * Printouts of a text (NULL: scenario_init() alone): what they must
 * contain, and what they must not.
 */
static const struct print_case {
	const char *text;
	int derived; /* scenario_print_derived(), else scenario_print() */
	const char *has[16], *lacks[12];
} print_cases[] = {
	/* infiniband: its section printed (ib.cc off: none of its keys), no PFC */
	{ "[fabric]\ntype = infiniband\n[job.in]\npattern = incast\n", 0,
	  {
		"\n[fabric]\ntype = infiniband\n",
		"\n[ib]\nvl_buffer = 128KiB\ncredit_update_delay = 100ns\nsl_to_vl =\n"
		"vl_arbitration = 0,0,0,0,0,0,0,0\ncc = false\n\n",
		"\n[pfc]\npriorities =\n",
		"\ncc = none\n",
	  },
	  { "not implemented in this version" } },
	/* the scenario as INI: every section, the keys in the order of
	 * docs/contract.md#scenario-files */
	{ "[qos]\ndscp_to_priority = 26:4,48:7,8:1\n"
	  "[job.in]\npattern = incast\n", 0,
	  {
		"# dcqcn-sim scenario, resolved from x.ini, seed 1\n",
		"\n[criteria]\nmax_ecn_mark_pct = 2%\nmax_lossless_drops = 0\n"
		"min_busbw_pct_line = 95%\nmax_pause_frame_rate = none\n",
		/* the new sections, every key, in the order of docs/contract.md#scenario-files */
		"\n[nic]\ncc = dcqcn\npause_watchdog = 0\nib_timeout = 20\nib_retry_cnt = 7\n"
		"rto = auto\n",
		"\n[buffer]\nsize = 64MB\nreserved = 4.158KB\ndynamic_th = 0\n"
		"lossy_dynamic_th = 3\ncell = 0\n",
		"\n[pfc]\npriorities = 3\nheadroom = auto\nxon_offset = 8.316KB\n"
		"pause_quanta = 65535\nresponse_time = auto\n",
		"\n[pfcwd]\nenable = true\ndetection_time = 200ms\n"
		"restoration_time = 400ms\npoll_interval = 200ms\naction = drop\n",
		"\n[output]\nsample_interval = 10us\nqueues = switches\nflows = all\nrates = 64\n",
		"\n[topology]\nkind = leaf-spine\nspines = 2\nleaves = 4\nhosts_per_leaf = 8\nuplinks_per_spine = 1\n"
		"gpus_per_server = 1\nhost_link = 400Gbps\n",
		"\nduration = 1s\n",
		"\nhost_cable = 3m\nfabric_cable = 30m\nswitch_latency = 500ns\nmtu = 4096\necmp = flow\n",
		/* 8:1 is the default (8 >> 3): not printed */
		"\ndscp_to_priority = 26:4,48:7\n",
		"\n[job.in]\npattern = incast\nsize = 4MB\nstart = 0ps\n# dscp: qos.data_dscp (26)\ndst = 0\nsenders = all\n"
		"iterations = 1\ncompute_gap = 0ps\nskew = 0ps\n",
	  },
	  {
		"not implemented",
		"# nor the keys",
		"job.*.",
		"nccl_ib_tc",
		"dwrr_weights", /* scheduler strict */
		"\nk =",
		/* keys of ring-allreduce and alltoall only */
		"\nchannels =",
		"\nslice =",
		"\nschedule =",
		"ranks",
	  } },
	/* PFC and the watchdog off: an empty list, no other key */
	{ "[pfc]\npriorities =\n[pfcwd]\nenable = false\n", 0,
	  { "\n[pfc]\npriorities =\n\n[pfcwd]\nenable = false\n\n[ecn]\n" },
	  {
		"headroom",
		"detection_time",
	  } },
	/* [ecn], the CNP keys, [dcqcn] */
	{ "[dcqcn]\nprofile = paper\nrpg_time_reset = 1.5\nrpg_hai_rate = 2.5\n"
	  "rpg_min_rate = 1.5Gbps\n", 0,
	  {
		"\n[ecn]\nqueues = 3\nkmin = 150KB\nkmax = 1.5MB\npmax = 10%\n"
		"mark_point = dequeue\n",
		"\n[qos]\ndata_dscp = 26\ncnp_dscp = 48\n",
		"\ncnp_priority_strict = true\n",
		/* every knob in firmware units, bare where whole (10MB = 156250 x 64 B),
		 * else with its unit; the clamp flags as 0/1 */
		"\n[dcqcn]\nprofile = paper\nrpg_time_reset = 1.5us\n"
		"rpg_byte_reset = 156250\nrpg_threshold = 5\nrpg_ai_rate = 40\n"
		"rpg_hai_rate = 2.5Mbps\nrpg_gd = 11\nrpg_min_dec_fac = 0\n"
		"rpg_min_rate = 1500\ndce_tcp_g = 1020\ndce_tcp_rtt = 55\n"
		"rate_reduce_monitor_period = 0\ninitial_alpha_value = 1023\n"
		"rate_to_set_on_first_cnp = 0\nclamp_tgt_rate = 1\n"
		"clamp_tgt_rate_after_time_inc = 1\ncut_on = cnp\n"
		"rate_change_reschedules = true\nmin_time_between_cnps = 50\n"
		"cnp_scope = qp\n\n[output]\n",
	  },
	  { NULL } },
	/* a byte counter that is not whole 64-byte units prints with its unit */
	{ "[dcqcn]\nrpg_byte_reset = 1000B\n", 0,
	  { "\nrpg_byte_reset = 1KB\n" },
	  { NULL } },
	/* cc = none: no [dcqcn] keys; ECN off: only queues */
	{ "[nic]\ncc = none\n[ecn]\nqueues =\n", 0,
	  {
		"\n[nic]\ncc = none\n",
		"\n[ecn]\nqueues =\n\n# [dcqcn] omitted: nic.cc = none\n\n[output]\n",
	  },
	  {
		"rpg_",
		"kmin",
	  } },
	/* the job keys of the collectives */
	{ "[job.ar]\npattern = ring-allreduce\nchannels = 2\niterations = 4\n"
	  "[job.a2a]\npattern = alltoall\nschedule = shift\nranks = 0-15\n", 0,
	  {
		"\n[job.ar]\npattern = ring-allreduce\nranks = all\nsize = 4MB\nstart = 0ps\n"
		"# dscp: qos.data_dscp (26)\niterations = 4\ncompute_gap = 0ps\nskew = 0ps\n"
		"channels = 2\nslice = 512KiB\nalgorithm = ring\nqps_per_connection = 1\n\n",
		"\n[job.a2a]\npattern = alltoall\nranks = 0-15\nsize = 4MB\nstart = 0ps\n"
		"# dscp: qos.data_dscp (26)\niterations = 1\ncompute_gap = 0ps\nskew = 0ps\n"
		"schedule = shift\nqps_per_connection = 1\n",
	  },
	  { NULL } },
	/* derived values of the defaults (docs/model.md#wire) */
	{ NULL, 1,
	  {
		"# hosts 32, switches 6, links 40 (32 host, 8 fabric)\n",
		"= 4.00:1\n",
		"4158 B",
		"4178 B on the wire",
		"host_link 400Gbps: 83.56ns\n",
		/* docs/model.md#wire: 400 x 4096/4178 = 392 Gbps = 49.0 GB/s */
		"392.15 Gbps = 49.02 GB/s",
		"4 hops (2 host links, 2 fabric links, 3 switches)",
		/* 4 x 83.56 ns + (2 x 3 m + 2 x 30 m) x 5 ns/m + 3 x 500 ns */
		"full frame on it: 2164.24ns (",
		/* + 4 x 1.68 ns + 330 ns + 1500 ns back = 4000.96 ns; x 400 Gbps / 8 */
		"4000.96ns; bandwidth-delay product at host_link: 200048 B",
	  },
	  { NULL } },
	/* a rate that does not divide the frame: the fraction of a ps is shown */
	{ "[topology]\nhost_link = 3Gbps\n", 1,
	  { "host_link 3Gbps: 11141.333ns + 1/3 ps (not a whole ps)\n" },
	  { NULL } },
	/* PFC and the buffer of the defaults: per port class and switch tier */
	{ "", 1,
	  {
		"# buffer: lossless alpha 2^0 = 1, lossy alpha 2^3 = 8, byte exact accounting\n",
		"# PFC on priorities 3: per lossless PG of each port\n",
		"# leaf ports to hosts (400Gbps, 3m): response 905 quanta = 1158.4ns; "
		"headroom 71954B = 2 x 4178B frames + 1500B cable round trip + 57920B response"
		" + 4178B frame in flight\n",
		"# leaf ports to spines (400Gbps, 30m): response 905 quanta = 1158.4ns; "
		"headroom 85454B = 2 x 4178B frames + 15000B cable round trip + 57920B response"
		" + 4178B frame in flight\n",
		"# spine ports to leaves (400Gbps, 30m): ",
		"# NIC ports to leaves (400Gbps, 3m): response 905 quanta",
		"# pause time of pause_quanta 65535: 83.8848us at 400Gbps (host_link), "
		"83.8848us at 400Gbps (fabric_link)\n",
		"# shared pool of each of the 4 leaf switches: 64MB - 10 ports x 8 PGs x 4158B reserved"
		" - 8 host ports x 1 lossless PG x 71954B headroom - 2 fabric ports x 1 lossless PG"
		" x 85454B headroom = 62920820B (98.3% of buffer.size)\n",
		"# shared pool of each of the 2 spine switches: 64MB - 4 ports x 8 PGs x 4158B reserved"
		" - 4 fabric ports x 1 lossless PG x 85454B headroom = 63525128B",
	  },
	  { NULL } },
	/* given values are named; another tier set; the pause time per rate */
	{ "[topology]\nkind = fat-tree\nk = 4\nfabric_link = 100Gbps\n"
	  "[pfc]\nheadroom = 100KB\nresponse_time = 1us\n[buffer]\ncell = 256B\ndynamic_th = -2\n", 1,
	  {
		"# buffer: lossless alpha 2^-2 = 1/4, lossy alpha 2^3 = 8, accounting in 256B cells"
		" (a 4158B data frame is charged 4352B)\n",
		"# edge ports to hosts (400Gbps, 3m): response 1us (pfc.response_time); "
		"headroom 100000B (pfc.headroom, given; auto would be 64034B)\n",
		"# agg ports to cores (100Gbps, 30m): ",
		"# core ports to aggs (100Gbps, 30m): ",
		"# NIC ports to edges (400Gbps, 3m): ",
		"83.8848us at 400Gbps (host_link), 335.5392us at 100Gbps (fabric_link)\n",
		"# shared pool of each of the 4 core switches: ",
	  },
	  { NULL } },
	/* PFC off */
	{ "[topology]\nkind = star\nhosts = 4\n[pfc]\npriorities =\n", 1,
	  {
		"# PFC off (pfc.priorities is empty): no headroom, no pause frames\n",
		"# shared pool of sw0: 64MB - 4 ports x 8 PGs x 4158B reserved = 63866944B",
	  },
	  { "headroom 7" } },
	/* InfiniBand congestion control (docs/fabrics.md): its keys and derived
	 * values; 16 - 15 = 1/16 of 128 KiB = 8 KiB, a frame 4178 B at 400G =
	 * 83.56 ns, 50 x 1.024 us = 51.2 us, 4/(4 + 127) = 3.05 % */
	{ "[fabric]\ntype = infiniband\n[ib]\ncc = on\n[job.in]\npattern = incast\n", 0,
	  {
		"\ncc = true\nthreshold = 15\nmarking_rate = 10\npacket_size = 512B\n"
		"victim_mask = false\nccti_increase = 1\nccti_limit = 127\nccti_min = 0\n"
		"ccti_timer = 50\n",
	  },
	  { "# nor the keys" } },
	{ "[fabric]\ntype = infiniband\n[ib]\ncc = on\n", 1,
	  {
		"# InfiniBand congestion control (ib.cc): FECN at a port/VL queue of 8192B or more "
		"(threshold 15), one eligible packet in 11; a BECN adds 1 to the CCTI (0-127), which "
		"falls by one every 51.200us\n",
		"# CCT entry i delays i/4 x 83.56ns (a full frame on the host link): rate 4/(4 + i) of "
		"the line, 3.1% at ccti_limit\n",
	  },
	  { "congestion control off" } },
	/* ECN and DCQCN of the defaults (docs/model.md#ecn, #dcqcn) */
	{ "", 1,
	  {
		"# ECN on queues 3: WRED kmin 150KB, kmax 1.5MB, pmax 10%, marked on dequeue\n",
		/* 150000 / 4158 = 36.075, 1500000 / 4158 = 360.750; 150 KB at 50 B/ns = 3 us */
		"# ECN thresholds: kmin 36.08, kmax 360.75 data frames of 4158 B;"
		" kmin 3.00 us, kmax 30.00 us of sending at host_link 400Gbps\n",
		"# DCQCN profile nvidia; CNPs at DSCP 48 (priority 6, strict),"
		" at most one per 4us per QP (min_time_between_cnps)\n",
		/* docs/model.md#dcqcn: the 2.1 MB byte counter fires every 42 us at 400G */
		"# DCQCN byte counter: every 2097088 B = 41.94 us at host_link 400Gbps;"
		" increase timer every 300us\n",
		/* docs/model.md#dcqcn: alpha halves in about 142 us (g = 5/1024 per us) */
		"# DCQCN alpha: g = 5/1024 per dce_tcp_rtt 1us, initial 1023/1024;"
		" half-life without CNPs ln 2 / -ln(1 - g) = 141.61 periods = 141.61 us\n",
		"# DCQCN increase steps: AI 5Mbps, HAI 50Mbps (0.00125% and 0.0125% of host_link 400Gbps)",
		"# DCQCN cut: Rc x alpha / 2 (rpg_gd 11), at most 50% of Rc (rpg_min_dec_fac 50),"
		" not below 1Mbps; at most one cut per 4us\n",
	  },
	  { NULL } },
	/* paper at 100G: byte counter 168 us, alpha half-life about 9.7 ms */
	{ "[topology]\nhost_link = 100Gbps\n[dcqcn]\nprofile = paper\n", 1,
	  {
		"# DCQCN byte counter: every 10000000 B = 800.00 us at host_link 100Gbps;",
		"g = 4/1024 per dce_tcp_rtt 55us, initial 1023/1024; half-life without CNPs"
		" ln 2 / -ln(1 - g) = 177.10 periods = 9740.44 us\n",
		"# DCQCN cut: Rc x alpha / 2 (rpg_gd 11), not below 1Mbps; a cut on every CNP\n",
		"# ECN thresholds: kmin 36.08, kmax 360.75 data frames of 4158 B;"
		" kmin 12.00 us, kmax 120.00 us of sending at host_link 100Gbps\n",
	  },
	  { NULL } },
	{ "[topology]\nhost_link = 100Gbps\n", 1,
	  { "every 2097088 B = 167.77 us at host_link 100Gbps;" },
	  { NULL } },
	/* hpcc: no byte counter; off */
	{ "[dcqcn]\nprofile = hpcc\ndce_tcp_g = 0\nrpg_gd = 13\n", 1,
	  {
		"# DCQCN byte counter off; increase timer every 300us\n",
		"# DCQCN alpha: g = 1 (dce_tcp_g 0): alpha drops to 0 after one 1us period",
		"# DCQCN cut: Rc x alpha / 8 (rpg_gd 13), not below 1Gbps;",
	  },
	  { NULL } },
	{ "[nic]\ncc = none\n[ecn]\nqueues =\n", 1,
	  {
		"# ECN off (ecn.queues is empty): no marking, no CNPs\n",
		"# congestion control off (nic.cc = none): no CNPs, senders at line rate\n",
	  },
	  { "DCQCN" } },
};

START_TEST(test_print)
{
	const struct print_case *c = &print_cases[_i];
	struct scenario *s = c->text ? tl_scn_ok(c->text) : tl_scn_new();
	char *p = c->derived ? tl_print_derived(s) : tl_print(s);
	size_t i;

	for (i = 0; i < sizeof(c->has) / sizeof(c->has[0]) && c->has[i]; i++)
		ck_assert_msg(strstr(p, c->has[i]) != NULL, "missing \"%s\" in\n%s", c->has[i], p);
	for (i = 0; i < sizeof(c->lacks) / sizeof(c->lacks[0]) && c->lacks[i]; i++)
		ck_assert_msg(strstr(p, c->lacks[i]) == NULL, "\"%s\" in\n%s", c->lacks[i], p);
	free(p);
	tl_unload(s);
}
END_TEST

START_TEST(test_print_pfc_content)
{
	struct scenario *s = tl_scn_ok("[pfc]\npriorities = 4,2\n"
				       "[fault.storm]\nkind = pause-storm\nnode = h3\n"
				       "[job.in]\npattern = incast\n"
				       "[fault.cut]\nkind = link-down\nlink = h3-leaf0\n");
	char *p = tl_print(s), *jobs, *faults;

	ck_assert_ptr_nonnull(strstr(p, "\npriorities = 2,4\n"));
	/* faults after jobs; only the keys of their kind; the default
	 * priority resolved to the lowest lossless one */
	jobs = strstr(p, "\n[job.in]\n");
	faults = strstr(p, "\n[fault.storm]\n");
	ck_assert_ptr_nonnull(jobs);
	ck_assert_ptr_nonnull(faults);
	ck_assert(jobs < faults);
	ck_assert_ptr_nonnull(strstr(p, "\n[fault.storm]\nkind = pause-storm\nnode = h3\nstart = 0ps\n"
					"duration = 0ps\npriority = 2\n"));
	ck_assert_ptr_nonnull(strstr(p, "\n[fault.cut]\nkind = link-down\nlink = h3-leaf0\nstart = 0ps\n"
					"duration = 0ps\n"));
	ck_assert(p[strlen(p) - 1] == '\n');
	free(p);
	tl_unload(s);
}
END_TEST

/* ---- PFC derived values ---- */

START_TEST(test_quanta_ps)
{
	/* docs/model.md#pfc: 65535 quanta = 83.9 us at 400G, 335.5 us at 100G */
	ck_assert_int_eq(pfc_quanta_ps(65535, INT64_C(400000000000)), 83884800);
	ck_assert_int_eq(pfc_quanta_ps(65535, INT64_C(100000000000)), 335539200);
	ck_assert_int_eq(pfc_quanta_ps(905, INT64_C(400000000000)), 1158400);
	ck_assert_int_eq(pfc_quanta_ps(1, INT64_C(400000000000)), 1280);
	ck_assert_int_eq(pfc_quanta_ps(0, INT64_C(400000000000)), 0);
	/* 512 bits at 3Gbps = 170666.67 ps: rounded up */
	ck_assert_int_eq(pfc_quanta_ps(1, INT64_C(3000000000)), 170667);
	/* 65535 x 512 x 10^12 overflows 64 bits: still exact (1Gbps, 1.6Tbps) */
	ck_assert_int_eq(pfc_quanta_ps(65535, INT64_C(1000000000)), INT64_C(33553920000));
	ck_assert_int_eq(pfc_quanta_ps(65535, INT64_C(1600000000000)), 20971200);
	/* 65535 x 512 / 7e9 s = 4793417142.857 ps */
	ck_assert_int_eq(pfc_quanta_ps(65535, INT64_C(7000000000)), INT64_C(4793417143));
}
END_TEST

START_TEST(test_response_quanta)
{
	static const struct {
		int64_t bps;
		uint32_t quanta;
	} t[] = {
		{ INT64_C(1000000000), 67 },	  /* below 10G: 67 */
		{ INT64_C(9999999999), 67 },	  { INT64_C(10000000000), 67 },
		{ INT64_C(24999999999), 67 },	  { INT64_C(25000000000), 80 },
		{ INT64_C(30000000000), 80 },	  { INT64_C(40000000000), 118 },
		{ INT64_C(50000000000), 147 },	  { INT64_C(99000000000), 147 },
		{ INT64_C(100000000000), 394 },  { INT64_C(150000000000), 394 },
		{ INT64_C(200000000000), 453 },  { INT64_C(399999999999), 453 },
		{ INT64_C(400000000000), 905 },  { INT64_C(800000000000), 905 },
		{ INT64_C(1600000000000), 905 },
	};
	struct scenario *s = tl_scn_new();
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ck_assert_msg(pfc_response_quanta(t[i].bps) == t[i].quanta,
			      "%lld bps: %u quanta, expected %u", (long long)t[i].bps,
			      pfc_response_quanta(t[i].bps), t[i].quanta);
	/* auto: the table's quanta as time; given: the value */
	ck_assert_int_eq(scenario_response_ps(s, INT64_C(400000000000)), 1158400);
	ck_assert_int_eq(scenario_response_ps(s, INT64_C(100000000000)), 394 * 5120);
	ck_assert_int_eq(scenario_response_ps(s, INT64_C(25000000000)), 80 * 20480);
	s->response_ps = 1000000;
	ck_assert_int_eq(scenario_response_ps(s, INT64_C(400000000000)), 1000000);
	tl_unload(s);
}
END_TEST

START_TEST(test_headroom_auto)
{
	struct scenario *s = tl_scn_new();

	/* 2 x 4178 frames + 2 x 15 ns x 50 B/ns + 905 quanta x 64 B + 4178 */
	ck_assert_int_eq(2 * 4178 + 1500 + 905 * 64 + 4178, 71954);
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(400000000000), 3000), 71954);
	/* 100Gbps over 100 m: + 2 x 500 ns x 12.5 B/ns + 394 quanta */
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(100000000000), 100000),
			 2 * 4178 + 12500 + 394 * 64 + 4178);
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(100000000000), 100000), 50250);
	/* the default fabric port: 30 m at 400Gbps */
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(400000000000), 30000), 85454);
	/* no cable; 1 mm at 1Gbps is 0.00125 B: rounded up to 1 */
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(1000000000), 0), 3 * 4178 + 67 * 64);
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(1000000000), 1), 3 * 4178 + 1 + 67 * 64);
	/* auto response bytes are exactly quanta x 64, even where the time is
	 * not a whole ps (67 quanta at 3Gbps = 11434666.67 ps, rounded up) */
	ck_assert_int_eq(scenario_response_ps(s, INT64_C(3000000000)), 11434667);
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(3000000000), 0), 3 * 4178 + 67 * 64);
	/* the longest cable at the fastest link does not overflow: 2 x 50 us x 200 B/ns */
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(1600000000000), 10000000),
			 3 * 4178 + INT64_C(20000000) + 905 * 64);
	/* another mtu */
	s->mtu_bytes = 9000;
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(400000000000), 3000),
			 3 * 9082 + 1500 + 905 * 64);
	s->mtu_bytes = 4096;
	/* a given response time: time x rate, rounded up */
	s->response_ps = 1000000; /* 1us at 100Gbps = 12500 B */
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(100000000000), 100000),
			 2 * 4178 + 12500 + 12500 + 4178);
	s->response_ps = 1; /* 1 ps at 100Gbps = 0.0125 B */
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(100000000000), 0), 3 * 4178 + 1);
	/* a given headroom is returned as is */
	s->headroom_bytes = 100000;
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(400000000000), 3000), 100000);
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(1000000000), 0), 100000);
	tl_unload(s);
}
END_TEST

START_TEST(test_cell_and_pool)
{
	struct scenario *s = tl_scn_ok("");

	/* byte exact */
	ck_assert_int_eq(mmu_charge(s->cell_bytes, 4158), 4158);
	ck_assert_int_eq(mmu_charge(s->cell_bytes, 1), 1);
	s->cell_bytes = 256;
	ck_assert_int_eq(mmu_charge(s->cell_bytes, 4158), 17 * 256);
	ck_assert_int_eq(mmu_charge(s->cell_bytes, 4096), 4096);
	ck_assert_int_eq(mmu_charge(s->cell_bytes, 1), 256);
	ck_assert_int_eq(mmu_charge(s->cell_bytes, 0), 0);
	s->cell_bytes = 0;
	/* default leaf: 64MB - 10 x 8 x 4158 - 8 x 71954 - 2 x 85454 */
	ck_assert_int_eq(scenario_pool_bytes(s, 8, 2), 64000000 - 332640 - 575632 - 170908);
	/* default spine: 4 fabric ports */
	ck_assert_int_eq(scenario_pool_bytes(s, 0, 4), 64000000 - 4 * 8 * 4158 - 4 * 85454);
	/* two lossless priorities: two headrooms per port */
	s->pfc_prios = (1u << 3) | (1u << 4);
	ck_assert_int_eq(scenario_pool_bytes(s, 8, 2),
			 64000000 - 332640 - 2 * 575632 - 2 * 170908);
	/* PFC off: reserved only */
	s->pfc_prios = 0;
	ck_assert_int_eq(scenario_pool_bytes(s, 8, 2), 64000000 - 332640);
	/* may be negative */
	s->buffer_bytes = 1000;
	ck_assert_int_eq(scenario_pool_bytes(s, 8, 2), 1000 - 332640);
	tl_unload(s);
	/* an unfinalized scenario: the reserved default from its mtu */
	s = tl_scn_new();
	s->mtu_bytes = 9000;
	ck_assert_int_eq(scenario_pool_bytes(s, 1, 0),
			 64000000 - 8 * 9062 - (3 * 9082 + 1500 + 905 * 64));
	tl_unload(s);
}
END_TEST

static Suite *make_scenario_print_suite(void)
{
	Suite *su = suite_create("scenario-print");
	TCase *tc;

	tc = tcase_create("round_trip");
	tcase_add_loop_test(tc, test_round_trip, 0,
			    (int)(sizeof(round_trip_texts) / sizeof(round_trip_texts[0])));
	suite_add_tcase(su, tc);

	tc = tcase_create("print");
	tcase_add_loop_test(tc, test_print, 0,
			    (int)(sizeof(print_cases) / sizeof(print_cases[0])));
	tcase_add_test(tc, test_print_pfc_content);
	suite_add_tcase(su, tc);

	tc = tcase_create("pfc");
	tcase_add_test(tc, test_quanta_ps);
	tcase_add_test(tc, test_response_quanta);
	tcase_add_test(tc, test_headroom_auto);
	tcase_add_test(tc, test_cell_and_pool);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tl_run(make_scenario_print_suite());
}
