/*
 * test_scenario_keys.c - the scenario loader (models/scenario/, contract
 * scenario.h and docs/contract.md#scenario-files): the defaults, and every key parsed to its
 * exact integer or rejected with its exact "FILE:LINE: section.key:" prefix.
 *
 * What is pinned: the defaults of docs/contract.md#scenario-files (buffer.reserved and
 * pfc.xon_offset following the final mtu); every implemented key of [sim],
 * [topology], [qos], [job.NAME] (with the collectives of docs/model.md#traffic:
 * iterations, compute_gap, skew, channels, slice, schedule), [buffer],
 * [pfc], [pfcwd], [nic], [output], [criteria] and [fault.NAME] parsed
 * exactly, host sets in the order written; comments and white space; and
 * each value that is wrong on its own: a missing or unknown unit, an
 * inexact fraction, out of range, not a valid name.  [ecn], [dcqcn] and
 * the CNP keys: test_scenario_cc.c.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/scenario.h"
#include "testlib.h"

/* ---- defaults ---- */

START_TEST(test_defaults)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err;
	int d, p;

	/* docs/contract.md#scenario-files defaults */
	ck_assert_int_eq(s->duration_ps, INT64_C(1000000000000));
	ck_assert_uint_eq(s->seed, 1);
	ck_assert_int_eq(s->topo, SCN_TOPO_LEAF_SPINE);
	ck_assert_uint_eq(s->spines, 2);
	ck_assert_uint_eq(s->leaves, 4);
	ck_assert_uint_eq(s->hosts_per_leaf, 8);
	ck_assert_uint_eq(s->k, 4);
	ck_assert_uint_eq(s->star_hosts, 16);
	ck_assert_int_eq(s->host_link_bps, INT64_C(400000000000));
	ck_assert_int_eq(s->fabric_link_bps, INT64_C(400000000000));
	ck_assert_int_eq(s->host_cable_mm, 3000);
	ck_assert_int_eq(s->fabric_cable_mm, 30000);
	ck_assert_int_eq(s->switch_latency_ps, 500000);
	ck_assert_uint_eq(s->mtu_bytes, 4096);
	ck_assert_int_eq(s->ecmp, SCN_ECMP_FLOW);
	ck_assert_uint_eq(s->data_dscp, 26);
	for (d = 0; d < 64; d++)
		ck_assert_uint_eq(s->dscp_to_prio[d], d >> 3);
	ck_assert_int_eq(s->scheduler, SCN_SCHED_STRICT);
	for (p = 0; p < SCN_PRIOS; p++)
		ck_assert_uint_eq(s->dwrr_weights[p], 1);
	ck_assert_int_eq(s->cc, SCN_CC_DCQCN);
	ck_assert_uint_eq(s->njobs, 0);
	ck_assert_uint_eq(scenario_hosts(s), 32);
	ck_assert_uint_eq(scenario_switches(s), 6);
	/* [buffer] [pfc] [pfcwd] [nic] [output] of docs/contract.md#scenario-files */
	ck_assert_int_eq(s->buffer_bytes, 64000000); /* 64MB, decimal */
	ck_assert_int_eq(s->dynamic_th, 0);
	ck_assert_int_eq(s->lossy_dynamic_th, 3);
	ck_assert_int_eq(s->cell_bytes, 0);
	ck_assert_uint_eq(s->pfc_prios, 1u << 3);
	ck_assert_int_eq(s->headroom_bytes, SCN_AUTO);
	ck_assert_uint_eq(s->pause_quanta, 65535);
	ck_assert_int_eq(s->response_ps, SCN_AUTO);
	ck_assert_int_eq(s->pfcwd_enable, 1);
	ck_assert_int_eq(s->pfcwd_detect_ps, INT64_C(200000000000));  /* 200ms */
	ck_assert_int_eq(s->pfcwd_restore_ps, INT64_C(400000000000)); /* 400ms */
	ck_assert_int_eq(s->pfcwd_poll_ps, INT64_C(200000000000));    /* 200ms */
	ck_assert_int_eq(s->pfcwd_action, SCN_PFCWD_DROP);
	ck_assert_int_eq(s->nic_pause_watchdog_ps, 0);
	ck_assert_int_eq(s->sample_interval_ps, 10000000); /* 10us */
	ck_assert_uint_eq(s->nfaults, 0);
	ck_assert_int_eq(scenario_finalize(s, &err), 0);
	/* one and two data frames of mtu 4096 + 62 B headers, resolved */
	ck_assert_int_eq(s->reserved_bytes, 4158);
	ck_assert_int_eq(s->xon_offset_bytes, 8316);
	tl_unload(s);
}
END_TEST

START_TEST(test_frame_defaults_follow_mtu)
{
	struct scenario *s = tl_scn_ok("[topology]\nmtu = 9000\n");
	struct scn_error err;

	ck_assert_int_eq(s->reserved_bytes, 9062);
	ck_assert_int_eq(s->xon_offset_bytes, 18124);
	tl_unload(s);
	/* a --set of the mtu after the file: resolved at finalize */
	s = tl_scn_new();
	ck_assert_int_eq(scenario_load_string(s, "x.ini", "[sim]\nseed = 2\n", &err), 0);
	ck_assert_int_eq(scenario_set(s, "topology.mtu=256", &err), 0);
	ck_assert_int_eq(scenario_finalize(s, &err), 0);
	ck_assert_int_eq(s->reserved_bytes, 318);
	ck_assert_int_eq(s->xon_offset_bytes, 636);
	tl_unload(s);
}
END_TEST

START_TEST(test_empty_file_is_defaults)
{
	struct scenario *a = tl_scn_new(), *b = tl_scn_ok("# nothing\n\n; at all\n");
	char *pa, *pb;

	/* the same values as scenario_init(): only the source line differs */
	pa = tl_print(a);
	pb = tl_print(b);
	ck_assert_str_eq(strchr(pa, '\n'), strchr(pb, '\n'));
	free(pa);
	free(pb);
	tl_unload(a);
	tl_unload(b);
}
END_TEST

START_TEST(test_job_defaults)
{
	struct scenario *s = tl_scn_ok("[job.a]\npattern = incast\n"
				       "[job.b]\npattern = permutation\n");
	const struct scn_job *a = &s->jobs[0], *b = &s->jobs[1];
	uint32_t i;

	ck_assert_uint_eq(s->njobs, 2);
	ck_assert_str_eq(a->name, "a");
	ck_assert_int_eq(a->line, 1);
	ck_assert_int_eq(b->line, 3);
	ck_assert_int_eq(a->size_bytes, 4000000); /* 4MB, decimal */
	ck_assert_int_eq(a->start_ps, 0);
	ck_assert_int_eq(a->dscp, -1);
	ck_assert_uint_eq(a->dst, 0);
	/* senders default: every host but dst */
	ck_assert_uint_eq(a->senders.n, 31);
	for (i = 0; i < a->senders.n; i++)
		ck_assert_uint_eq(a->senders.hosts[i], i + 1);
	/* ranks default: all, in host order */
	ck_assert_uint_eq(b->ranks.n, 32);
	for (i = 0; i < b->ranks.n; i++)
		ck_assert_uint_eq(b->ranks.hosts[i], i);
	tl_unload(s);
}
END_TEST

START_TEST(test_collective_defaults)
{
	struct scenario *s = tl_scn_ok("[job.ar]\npattern = ring-allreduce\n"
				       "[job.a2a]\npattern = alltoall\n"
				       "[job.in]\npattern = incast\n");
	const struct scn_job *ar = &s->jobs[0], *aa = &s->jobs[1], *in = &s->jobs[2];
	uint32_t i;

	ck_assert_int_eq(ar->pattern, SCN_JOB_RING_ALLREDUCE);
	ck_assert_int_eq(aa->pattern, SCN_JOB_ALLTOALL);
	ck_assert_int_eq(ar->size_bytes, 4000000); /* 4MB, decimal */
	ck_assert_int_eq(aa->size_bytes, 4000000);
	/* ranks default: all, in host order */
	ck_assert_str_eq(ar->ranks.text, "all");
	ck_assert_uint_eq(ar->ranks.n, 32);
	ck_assert_uint_eq(aa->ranks.n, 32);
	for (i = 0; i < 32; i++) {
		ck_assert_uint_eq(ar->ranks.hosts[i], i);
		ck_assert_uint_eq(aa->ranks.hosts[i], i);
	}
	ck_assert_uint_eq(ar->iterations, 1);
	ck_assert_int_eq(ar->compute_gap_ps, 0);
	ck_assert_int_eq(ar->skew_ps, 0);
	ck_assert_uint_eq(ar->channels, 1);
	ck_assert_int_eq(ar->slice_bytes, 524288); /* 512 KiB */
	ck_assert_int_eq(aa->schedule, SCN_SCHEDULE_ALL_AT_ONCE);
	ck_assert_uint_eq(aa->iterations, 1);
	ck_assert_int_eq(ar->start_ps, 0);
	ck_assert_int_eq(ar->dscp, -1);
	/* iterations, compute_gap and skew of every pattern */
	ck_assert_uint_eq(in->iterations, 1);
	ck_assert_int_eq(in->compute_gap_ps, 0);
	ck_assert_int_eq(in->skew_ps, 0);
	ck_assert_ptr_null(in->ranks.hosts); /* not an incast key: not resolved */
	tl_unload(s);
}
END_TEST

/* ---- each key parsed exactly ---- */

/* texts and the values they load to */
static const struct tl_values parsed_cases[] = {
	/* buffer.reserved and pfc.xon_offset follow the mtu */
	/* the mtu may come after [buffer] and [pfc] */
	{ "[buffer]\ndynamic_th = 1\n[pfc]\npause_quanta = 100\n[topology]\nmtu = 1024\n",
	  { TL_FIELD(reserved_bytes, 1086),
	    TL_FIELD(xon_offset_bytes, 2172) } },
	/* given values stay whatever the mtu */
	{ "[buffer]\nreserved = 5KB\n[pfc]\nxon_offset = 0B\n[topology]\nmtu = 9000\n",
	  { TL_FIELD(reserved_bytes, 5000),
	    TL_FIELD(xon_offset_bytes, 0) } },
	/* [sim] */
	{ "[sim]\nduration = 1.001us\n"
	  "seed = 9223372036854775807\n",
	  { TL_FIELD(duration_ps, 1001000), /* not 1000999 */
	    TL_FIELD(seed, UINT64_C(9223372036854775807)) } },
	{ "[sim]\nduration = 1000s\nseed = 0\n",
	  { TL_FIELD(duration_ps, INT64_C(1000) * 1000000000000),
	    TL_FIELD(seed, 0) } },
	/* topology.mtu: a plain integer or a size */
	{ "[topology]\nmtu = 4KiB\n",
	  { TL_FIELD(mtu_bytes, 4096) } },
	{ "[topology]\nmtu = 9KB\n",
	  { TL_FIELD(mtu_bytes, 9000) } },
	{ "[topology]\nmtu = 256\n",
	  { TL_FIELD(mtu_bytes, 256) } },
	/* qos.nccl_ib_tc: the TOS byte into qos.data_dscp */
	{ "[qos]\nnccl_ib_tc = 106\n",
	  { TL_FIELD(data_dscp, 26) } }, /* 106 = DSCP 26 << 2 | ECT(0) */
	{ "[qos]\nnccl_ib_tc = 104\ndata_dscp = 26\n",
	  { TL_FIELD(data_dscp, 26) } },
	/* comments and white space */
	{ "\xEF\xBB\xBF# a comment\n"
	  "; another\n"
	  "[sim] # section comment\n"
	  "  duration = 2ms   # inline hash comment\r\n"
	  "\tseed = 5 ; inline semicolon comment\n"
	  "[ topology ]\n"
	  "mtu: 1024\n"
	  "[job.x]\npattern = incast\n",
	  { TL_FIELD(duration_ps, INT64_C(2000000000)),
	    TL_FIELD(seed, 5),
	    TL_FIELD(mtu_bytes, 1024) } },
	/* [buffer] */
	{ "[buffer]\nsize = 1.5GiB\nreserved = 1MB\ndynamic_th = -7\n"
	  "lossy_dynamic_th = 7\ncell = 256B\n",
	  { TL_FIELD(buffer_bytes, INT64_C(1610612736)),
	    TL_FIELD(reserved_bytes, 1000000),
	    TL_FIELD(dynamic_th, -7),
	    TL_FIELD(lossy_dynamic_th, 7),
	    TL_FIELD(cell_bytes, 256) } },
	/* limits; a bare 0 means byte exact */
	{ "[buffer]\nsize = 64GiB\nreserved = 0B\ncell = 0\n",
	  { TL_FIELD(buffer_bytes, INT64_C(68719476736)),
	    TL_FIELD(reserved_bytes, 0),
	    TL_FIELD(cell_bytes, 0) } },
	{ "[buffer]\ncell = 4KiB\n",
	  { TL_FIELD(cell_bytes, 4096) } },
	/* [pfc] */
	{ "[pfc]\npriorities = 4, 3,0\nheadroom = 100KB\n"
	  "xon_offset = 1.5KB\npause_quanta = 1\nresponse_time = 1.001us\n",
	  { TL_FIELD(pfc_prios, (1u << 0) | (1u << 3) | (1u << 4)),
	    TL_FIELD(headroom_bytes, 100000),
	    TL_FIELD(xon_offset_bytes, 1500),
	    TL_FIELD(pause_quanta, 1),
	    TL_FIELD(response_ps, 1001000) } },
	{ "[pfc]\npriorities = 7\nheadroom = auto\nresponse_time = auto\n"
	  "pause_quanta = 65535\n",
	  { TL_FIELD(pfc_prios, 1u << 7),
	    TL_FIELD(headroom_bytes, SCN_AUTO),
	    TL_FIELD(response_ps, SCN_AUTO) } },
	/* limits */
	{ "[pfc]\nheadroom = 0B\nresponse_time = 0ps\n",
	  { TL_FIELD(headroom_bytes, 0),
	    TL_FIELD(response_ps, 0) } },
	{ "[pfc]\nheadroom = 64MB\nresponse_time = 1ms\n[buffer]\nsize = 1GB\n",
	  { TL_FIELD(headroom_bytes, 64000000),
	    TL_FIELD(response_ps, INT64_C(1000000000)) } },
	/* empty: PFC off */
	{ "[pfc]\npriorities =\n",
	  { TL_FIELD(pfc_prios, 0) } },
	/* [pfcwd], [nic], [output] */
	{ "[pfcwd]\nenable = yes\ndetection_time = 1us\n"
	  "restoration_time = 10s\npoll_interval = 1.5ms\naction = forward\n"
	  "[nic]\npause_watchdog = 100ms\n"
	  "[output]\nsample_interval = 100ns\n",
	  { TL_FIELD(pfcwd_enable, 1),
	    TL_FIELD(pfcwd_detect_ps, 1000000),
	    TL_FIELD(pfcwd_restore_ps, INT64_C(10000000000000)),
	    TL_FIELD(pfcwd_poll_ps, 1500000000),
	    TL_FIELD(pfcwd_action, SCN_PFCWD_FORWARD),
	    TL_FIELD(nic_pause_watchdog_ps, INT64_C(100000000000)),
	    TL_FIELD(sample_interval_ps, 100000) } },
	/* restoration below detection: allowed (SONiC allows it) */
	{ "[pfcwd]\nenable = true\ndetection_time = 400ms\nrestoration_time = 1ms\n"
	  "action = alert\n[nic]\npause_watchdog = 0\n[output]\nsample_interval = 1s\n",
	  { TL_FIELD(pfcwd_action, SCN_PFCWD_ALERT),
	    TL_FIELD(pfcwd_restore_ps, 1000000000),
	    TL_FIELD(nic_pause_watchdog_ps, 0),
	    TL_FIELD(sample_interval_ps, INT64_C(1000000000000)) } },
	{ "[pfcwd]\nenable = off\n",
	  { TL_FIELD(pfcwd_enable, 0) } },
	/* [criteria]: percentages with or without %, "none" for no limit */
	{ "[criteria]\nmax_ecn_mark_pct = 2.5\nmin_busbw_pct_line = 90%\n"
	  "max_pause_frame_rate = 1000\nmax_lossless_drops = 3\n",
	  { TL_FIELD(crit_max_ecn_mark_ppb, 25000000),
	    TL_FIELD(crit_min_busbw_ppb, 900000000),
	    TL_FIELD(crit_max_pause_frame_rate, 1000),
	    TL_FIELD(crit_max_lossless_drops, 3) } },
	{ "[output]\nflows = none\n",
	  { TL_FIELD(output_flows, 0) } },
	{ "[criteria]\nmax_pause_frame_rate = none\n",
	  { TL_FIELD(crit_max_pause_frame_rate, SCN_AUTO),
	    TL_FIELD(crit_max_ecn_mark_ppb, 20000000),
	    TL_FIELD(crit_min_busbw_ppb, 950000000) } },
	/* [fault.NAME] */
	/* star: sw0 = 0 */
	{ "[topology]\nkind = star\nhosts = 4\n[fault.x]\nkind = link-down\nlink = sw0-h3\n",
	  { TL_FIELD(faults[0].end_node[0], 0),
	    TL_FIELD(faults[0].end_is_host[0], 0),
	    TL_FIELD(faults[0].end_node[1], 3),
	    TL_FIELD(faults[0].end_is_host[1], 1) } },
};

TL_VALUES_TEST(parsed)

START_TEST(test_leaf_spine_keys)
{
	struct scenario *s = tl_scn_ok("[topology]\n"
				       "kind = leaf-spine\n"
				       "spines = 256\n"
				       "leaves = 16\n"
				       "hosts_per_leaf = 4\n"
				       "host_link = 100Gbps\n"
				       "fabric_link = 1.6Tbps\n"
				       "host_cable = 2.5m\n"
				       "fabric_cable = 10000m\n"
				       "switch_latency = 1.001us\n"
				       "mtu = 9000\n"
				       "ecmp = packet\n"
				       /* 256 fabric ports of 20MB auto headroom each */
				       "[buffer]\nsize = 64GiB\n");

	ck_assert_int_eq(s->topo, SCN_TOPO_LEAF_SPINE);
	ck_assert_uint_eq(s->spines, 256);
	ck_assert_uint_eq(s->leaves, 16);
	ck_assert_uint_eq(s->hosts_per_leaf, 4);
	ck_assert_int_eq(s->host_link_bps, INT64_C(100000000000));
	ck_assert_int_eq(s->fabric_link_bps, INT64_C(1600000000000));
	ck_assert_int_eq(s->host_cable_mm, 2500);
	ck_assert_int_eq(s->fabric_cable_mm, 10000000);
	ck_assert_int_eq(s->switch_latency_ps, 1001000);
	ck_assert_uint_eq(s->mtu_bytes, 9000);
	ck_assert_int_eq(s->ecmp, SCN_ECMP_PACKET);
	ck_assert_uint_eq(scenario_hosts(s), 64);
	ck_assert_uint_eq(scenario_switches(s), 272);
	tl_unload(s);
}
END_TEST

START_TEST(test_fat_tree_and_star_keys)
{
	struct scenario *s = tl_scn_ok("[topology]\nkind = fat-tree\nk = 8\n");

	ck_assert_int_eq(s->topo, SCN_TOPO_FAT_TREE);
	ck_assert_uint_eq(s->k, 8);
	ck_assert_uint_eq(scenario_hosts(s), 128);    /* k^3/4 */
	ck_assert_uint_eq(scenario_switches(s), 80);  /* 5k^2/4 */
	tl_unload(s);
	s = tl_scn_ok("[topology]\nkind = fat-tree\nk = 64\n");
	ck_assert_uint_eq(scenario_hosts(s), 65536);  /* SCN_MAX_HOSTS */
	tl_unload(s);
	s = tl_scn_ok("[topology]\nkind = star\nhosts = 24\n");
	ck_assert_int_eq(s->topo, SCN_TOPO_STAR);
	ck_assert_uint_eq(s->star_hosts, 24);
	ck_assert_uint_eq(scenario_hosts(s), 24);
	ck_assert_uint_eq(scenario_switches(s), 1);
	tl_unload(s);
}
END_TEST

START_TEST(test_qos_keys)
{
	struct scenario *s = tl_scn_ok("[qos]\ndata_dscp = 24\n"
				       "dscp_to_priority = 26:3, 48:6,0:7 , 63:0\n"
				       "scheduler = dwrr\n"
				       "dwrr_weights = 1, 2,3,4,5,6,7,1000\n");
	int d;

	ck_assert_uint_eq(s->data_dscp, 24);
	for (d = 0; d < 64; d++) {
		int want = d == 0 ? 7 : d == 63 ? 0 : d >> 3;
		ck_assert_uint_eq(s->dscp_to_prio[d], want);
	}
	ck_assert_int_eq(s->scheduler, SCN_SCHED_DWRR);
	for (d = 0; d < 7; d++)
		ck_assert_uint_eq(s->dwrr_weights[d], d + 1);
	ck_assert_uint_eq(s->dwrr_weights[7], 1000);
	tl_unload(s);
	/* an empty list: no override */
	s = tl_scn_ok("[qos]\ndscp_to_priority =\n");
	for (d = 0; d < 64; d++)
		ck_assert_uint_eq(s->dscp_to_prio[d], d >> 3);
	tl_unload(s);
}
END_TEST

START_TEST(test_job_keys)
{
	struct scenario *s = tl_scn_ok("[topology]\nkind = star\nhosts = 16\n"
				       "[job.in]\npattern = incast\nsize = 1.5MB\n"
				       "start = 2.5us\ndscp = 34\ndst = 3\n"
				       "senders = 0, 2,4-7 ,15\n"
				       "[job.perm-2]\npattern = permutation\nranks = 8-11,1\n"
				       "size = 1KiB\n");
	static const uint32_t senders[] = { 0, 2, 4, 5, 6, 7, 15 };
	static const uint32_t ranks[] = { 8, 9, 10, 11, 1 };
	const struct scn_job *in = &s->jobs[0], *pm = &s->jobs[1];
	uint32_t i;

	ck_assert_int_eq(in->pattern, SCN_JOB_INCAST);
	ck_assert_int_eq(in->size_bytes, 1500000);
	ck_assert_int_eq(in->start_ps, 2500000);
	ck_assert_int_eq(in->dscp, 34);
	ck_assert_uint_eq(in->dst, 3);
	ck_assert_str_eq(in->senders.text, "0, 2,4-7 ,15"); /* as written, trimmed */
	ck_assert_uint_eq(in->senders.n, 7);
	for (i = 0; i < 7; i++)
		ck_assert_uint_eq(in->senders.hosts[i], senders[i]);
	ck_assert_int_eq(pm->pattern, SCN_JOB_PERMUTATION);
	ck_assert_str_eq(pm->name, "perm-2");
	ck_assert_int_eq(pm->size_bytes, 1024);
	ck_assert_uint_eq(pm->ranks.n, 5);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(pm->ranks.hosts[i], ranks[i]);
	tl_unload(s);
}
END_TEST

START_TEST(test_hostset_lists)
{
	struct scenario *s = tl_scn_ok("[topology]\nkind = star\nhosts = 16\n"
				       "[job.in]\npattern = incast\ndst = 3\n"
				       "senders = 0,2,4-7\n");
	static const uint32_t want[] = { 0, 2, 4, 5, 6, 7 };
	uint32_t i;

	ck_assert_uint_eq(s->jobs[0].senders.n, 6);
	for (i = 0; i < 6; i++)
		ck_assert_uint_eq(s->jobs[0].senders.hosts[i], want[i]);
	tl_unload(s);
	/* senders = all: every host but dst */
	s = tl_scn_ok("[topology]\nkind = star\nhosts = 4\n"
		      "[job.in]\npattern = incast\ndst = 2\nsenders = all\n");
	ck_assert_uint_eq(s->jobs[0].senders.n, 3);
	ck_assert_uint_eq(s->jobs[0].senders.hosts[0], 0);
	ck_assert_uint_eq(s->jobs[0].senders.hosts[1], 1);
	ck_assert_uint_eq(s->jobs[0].senders.hosts[2], 3);
	tl_unload(s);
}
END_TEST

START_TEST(test_fault_keys)
{
	struct scenario *s = tl_scn_ok("[pfc]\npriorities = 5,2\n"
				       "[fault.storm]\nkind = pause-storm\nnode = h31\nstart = 1ms\n"
				       "duration = 2.5ms\n"
				       "[fault.storm2]\nkind = pause-storm\nnode = h0\npriority = 5\n"
				       "[fault.slow]\nkind = slow-receiver\nnode = h7\nrate = 1.5Gbps\n"
				       "[fault.cut]\nkind = link-down\nlink = leaf0-spine1\nstart = 10us\n"
				       "[fault.nic]\nkind = link-down\nlink = h9 - leaf1\n");
	const struct scn_fault *f = s->faults;

	ck_assert_uint_eq(s->nfaults, 5);
	ck_assert_str_eq(f[0].name, "storm");
	ck_assert_int_eq(f[0].line, 3);
	ck_assert_int_eq(f[0].kind, SCN_FAULT_PAUSE_STORM);
	ck_assert_uint_eq(f[0].host, 31);
	ck_assert_int_eq(f[0].start_ps, 1000000000);
	ck_assert_int_eq(f[0].duration_ps, 2500000000);
	ck_assert_uint_eq(f[0].priority, 2); /* the lowest lossless priority */
	ck_assert_uint_eq(f[1].priority, 5);
	ck_assert_int_eq(f[1].duration_ps, 0); /* until the end */
	ck_assert_int_eq(f[2].kind, SCN_FAULT_SLOW_RECEIVER);
	ck_assert_uint_eq(f[2].host, 7);
	ck_assert_int_eq(f[2].rate_bps, 1500000000);
	ck_assert_int_eq(f[3].kind, SCN_FAULT_LINK_DOWN);
	ck_assert_str_eq(f[3].link_text, "leaf0-spine1");
	/* leaf l = l, spine s = leaves + s */
	ck_assert_uint_eq(f[3].end_node[0], 0);
	ck_assert_uint_eq(f[3].end_node[1], 5);
	ck_assert_uint_eq(f[3].end_is_host[0], 0);
	ck_assert_uint_eq(f[3].end_is_host[1], 0);
	ck_assert_int_eq(f[3].start_ps, 10000000);
	/* h9 is on leaf 9 / 8 = 1 */
	ck_assert_uint_eq(f[4].end_node[0], 9);
	ck_assert_uint_eq(f[4].end_is_host[0], 1);
	ck_assert_uint_eq(f[4].end_node[1], 1);
	ck_assert_uint_eq(f[4].end_is_host[1], 0);
	tl_unload(s);

	/* fat-tree k = 4 (half 2): edges 0-7, aggs 8-15, cores 16-19 */
	s = tl_scn_ok("[topology]\nkind = fat-tree\nk = 4\n"
		      "[fault.a]\nkind = link-down\nlink = agg1-core2\n"
		      "[fault.b]\nkind = link-down\nlink = edge7-agg6\n"
		      "[fault.c]\nkind = link-down\nlink = h15-edge7\n"
		      "[fault.d]\nkind = link-down\nlink = core3-agg7\n");
	f = s->faults;
	ck_assert_uint_eq(f[0].end_node[0], 9);   /* agg 1: 8 + 1 */
	ck_assert_uint_eq(f[0].end_node[1], 18);  /* core 2: 16 + 2 */
	ck_assert_uint_eq(f[1].end_node[0], 7);
	ck_assert_uint_eq(f[1].end_node[1], 14);
	ck_assert_uint_eq(f[2].end_node[0], 15);
	ck_assert_uint_eq(f[2].end_is_host[0], 1);
	ck_assert_uint_eq(f[2].end_node[1], 7);
	ck_assert_uint_eq(f[3].end_node[0], 19);  /* written core first */
	ck_assert_uint_eq(f[3].end_node[1], 15);
	tl_unload(s);
}
END_TEST

START_TEST(test_collective_keys)
{
	struct scenario *s = tl_scn_ok("[topology]\nkind = star\nhosts = 16\n"
				       "[job.ar]\npattern = ring-allreduce\nranks = 8-11,1\n"
				       "size = 1.5GB\niterations = 1000\ncompute_gap = 1.001us\n"
				       "start = 3ms\nskew = 2.5ms\nchannels = 64\nslice = 1.5MiB\n"
				       "dscp = 34\n"
				       "[job.a2a]\npattern = alltoall\nranks = 0-3\nsize = 5B\n"
				       "schedule = shift\niterations = 100000\ncompute_gap = 0s\nskew = 1ps\n"
				       "[job.a2b]\npattern = alltoall\nschedule = all-at-once\n"
				       "[job.lo]\npattern = ring-allreduce\nslice = 1KB\nchannels = 1\n"
				       "[job.hi]\npattern = ring-allreduce\nslice = 1GB\n"
				       "[job.p]\npattern = permutation\niterations = 3\nskew = 1us\n"
				       "compute_gap = 1000s\n");
	static const uint32_t ranks[] = { 8, 9, 10, 11, 1 };
	const struct scn_job *ar = &s->jobs[0], *aa = &s->jobs[1], *p = &s->jobs[5];
	uint32_t i;

	ck_assert_uint_eq(ar->ranks.n, 5);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(ar->ranks.hosts[i], ranks[i]);
	ck_assert_int_eq(ar->size_bytes, 1500000000);
	ck_assert_uint_eq(ar->iterations, 1000);
	ck_assert_int_eq(ar->compute_gap_ps, 1001000);
	ck_assert_int_eq(ar->start_ps, INT64_C(3000000000));
	ck_assert_int_eq(ar->skew_ps, INT64_C(2500000000));
	ck_assert_uint_eq(ar->channels, 64);
	ck_assert_int_eq(ar->slice_bytes, 1572864);
	ck_assert_int_eq(ar->dscp, 34);
	ck_assert_uint_eq(aa->ranks.n, 4);
	ck_assert_int_eq(aa->size_bytes, 5); /* not a multiple of 4 ranks: floor(5 / 4) each */
	ck_assert_int_eq(aa->schedule, SCN_SCHEDULE_SHIFT);
	ck_assert_uint_eq(aa->iterations, 100000);
	ck_assert_int_eq(aa->compute_gap_ps, 0);
	ck_assert_int_eq(aa->skew_ps, 1);
	ck_assert_int_eq(s->jobs[2].schedule, SCN_SCHEDULE_ALL_AT_ONCE);
	ck_assert_int_eq(s->jobs[3].slice_bytes, 1000);
	ck_assert_uint_eq(s->jobs[3].channels, 1);
	ck_assert_int_eq(s->jobs[4].slice_bytes, 1000000000);
	ck_assert_uint_eq(p->iterations, 3);
	ck_assert_int_eq(p->skew_ps, 1000000);
	ck_assert_int_eq(p->compute_gap_ps, INT64_C(1000000000000000));
	tl_unload(s);
}
END_TEST

/* ---- a value wrong on its own: the exact FILE:LINE: key: prefix ---- */

static const struct tl_case value_cases[] = {
	/* missing or unknown units, inexact values */
	{ "[topology]\n\n\nhost_link = 400\n", NULL, "x.ini:4: topology.host_link: missing unit" },
	{ "[sim]\nduration = 5\n", NULL, "x.ini:2: sim.duration: missing unit" },
	{ "[topology]\nhost_cable = 3\n", NULL, "x.ini:2: topology.host_cable: missing unit" },
	{ "[topology]\nhost_link = 400Gb\n", NULL, "x.ini:2: topology.host_link: unknown unit" },
	{ "[sim]\nduration = 1.0005ns\n", NULL,
	  "x.ini:2: sim.duration: 1.0005ns is not a whole number of picoseconds" },
	/* ranges and names */
	{ "[topology]\nspines = 0\n", NULL, "x.ini:2: topology.spines: 0 out of range (1-256)" },
	{ "[topology]\nleaves = 1025\n", NULL,
	  "x.ini:2: topology.leaves: 1025 out of range (1-1024)" },
	{ "[topology]\nhosts_per_leaf = 513\n", NULL,
	  "x.ini:2: topology.hosts_per_leaf: 513 out of range (1-512)" },
	{ "[topology]\nkind = fat-tree\nk = 66\n", NULL,
	  "x.ini:3: topology.k: 66 out of range (2-64)" },
	{ "[topology]\nkind = fat-tree\nk = 7\n", NULL,
	  "x.ini:3: topology.k: 7 is odd (even, 2-64)" },
	{ "[topology]\nkind = star\nhosts = 1\n", NULL,
	  "x.ini:3: topology.hosts: 1 out of range (2-1024)" },
	{ "[topology]\nhost_link = 999Mbps\n", NULL,
	  "x.ini:2: topology.host_link: 999Mbps out of range (1Gbps-1600Gbps)" },
	{ "[topology]\nfabric_cable = 10001m\n", NULL,
	  "x.ini:2: topology.fabric_cable: 10001m out of range (0-10000m)" },
	{ "[topology]\nswitch_latency = 1.001ms\n", NULL,
	  "x.ini:2: topology.switch_latency: 1.001ms out of range (0-1ms)" },
	{ "[sim]\nduration = 0s\n", NULL,
	  "x.ini:2: sim.duration: 0s out of range (above 0, at most 1000s)" },
	{ "[sim]\nduration = 1001s\n", NULL, "x.ini:2: sim.duration: 1001s out of range" },
	{ "[sim]\nseed = -1\n", NULL, "x.ini:2: sim.seed: -1 out of range" },
	{ "[sim]\nseed = 9223372036854775808\n", NULL,
	  "x.ini:2: sim.seed: 9223372036854775808 out of range" },
	{ "[qos]\ndata_dscp = 64\n", NULL, "x.ini:2: qos.data_dscp: 64 out of range (0-63)" },
	{ "[job.a]\npattern = incast\nsize = 0B\n", NULL,
	  "x.ini:3: job.a.size: 0B out of range (above 0, at most 1000GB)" },
	{ "[job.a]\npattern = incast\ndscp = 64\n", NULL,
	  "x.ini:3: job.a.dscp: 64 out of range (0-63)" },
	{ "[topology]\nkind = ring\n", NULL,
	  "x.ini:2: topology.kind: ring is not valid (leaf-spine, fat-tree, star, rail-optimized, file)" },
	{ "[topology]\necmp = spray\n", NULL,
	  "x.ini:2: topology.ecmp: spray is not valid (flow, packet, adaptive)" },
	/* topology.mtu: a plain integer or a size */
	{ "[topology]\nmtu = 255\n", NULL, "x.ini:2: topology.mtu: 255 out of range (256-9000)" },
	{ "[topology]\nmtu = 10KB\n", NULL, "x.ini:2: topology.mtu: 10KB out of range (256-9000)" },
	{ "[topology]\nmtu = 1.5B\n", NULL, "x.ini:2: topology.mtu: " },
	/* qos.dscp_to_priority, qos.dwrr_weights */
	{ "[qos]\ndscp_to_priority = 26:8\n", NULL,
	  "x.ini:2: qos.dscp_to_priority: priority 8 out of range (0-7)" },
	{ "[qos]\ndscp_to_priority = 26-3\n", NULL, "x.ini:2: qos.dscp_to_priority: " },
	{ "[qos]\ndscp_to_priority = 26:3,26:4\n", NULL,
	  "x.ini:2: qos.dscp_to_priority: dscp 26 given twice" },
	{ "[qos]\nscheduler = dwrr\ndwrr_weights = 1,2,3\n", NULL,
	  "x.ini:3: qos.dwrr_weights: 3 weights given" },
	{ "[qos]\nscheduler = dwrr\ndwrr_weights = 1,1,1,1,1,1,1,0\n", NULL,
	  "x.ini:3: qos.dwrr_weights: weight 7: 0 out of range (1-1000)" },
	/* qos.nccl_ib_tc: the TOS byte against qos.data_dscp */
	{ "[qos]\ndata_dscp = 24\nnccl_ib_tc = 106\n", NULL,
	  "x.ini:3: qos.nccl_ib_tc: 106 is DSCP 26, but qos.data_dscp is 24 (line 2)" },
	{ "[qos]\nnccl_ib_tc = 106\ndata_dscp = 24\n", NULL,
	  "x.ini:3: qos.data_dscp: 24, but qos.nccl_ib_tc (line 2) is DSCP 26" },
	{ "[qos]\nnccl_ib_tc = 256\n", NULL, "x.ini:2: qos.nccl_ib_tc: 256 out of range (0-255)" },
	/* '#' not preceded by white space is part of the value */
	{ "[sim]\nseed = 5#x\n", NULL, "x.ini:2: sim.seed: 5#x is not an integer" },
	/* [buffer] */
	{ "[buffer]\nsize = 0B\n", NULL,
	  "x.ini:2: buffer.size: 0B out of range (above 0, at most 64GiB)" },
	{ "[buffer]\nsize = 68719476737B\n", NULL,
	  "x.ini:2: buffer.size: 68719476737B out of range" },
	{ "[buffer]\nsize = 64\n", NULL, "x.ini:2: buffer.size: missing unit" },
	{ "[buffer]\nreserved = 1000001B\n", NULL,
	  "x.ini:2: buffer.reserved: 1000001B out of range (0-1MB)" },
	{ "[buffer]\ndynamic_th = 8\n", NULL,
	  "x.ini:2: buffer.dynamic_th: 8 out of range (-7 to 7)" },
	{ "[buffer]\nlossy_dynamic_th = -8\n", NULL,
	  "x.ini:2: buffer.lossy_dynamic_th: -8 out of range (-7 to 7)" },
	{ "[buffer]\ncell = 4097B\n", NULL,
	  "x.ini:2: buffer.cell: 4097B out of range (0 (byte exact) to 4096B)" },
	{ "[buffer]\ncell = 256\n", NULL, "x.ini:2: buffer.cell: missing unit" },
	/* [pfc] */
	{ "[pfc]\npriorities = 3,4,3\n", NULL, "x.ini:2: pfc.priorities: priority 3 listed twice" },
	{ "[pfc]\npriorities = 8\n", NULL, "x.ini:2: pfc.priorities: 8 out of range (0-7)" },
	{ "[pfc]\npriorities = 3,,4\n", NULL,
	  "x.ini:2: pfc.priorities: 3,,4 is not a list of priorities (0-7, e.g. 3 or 3,4; empty = PFC off)" },
	{ "[pfc]\npriorities = 3,\n", NULL,
	  "x.ini:2: pfc.priorities: 3, is not a list of priorities" },
	{ "[pfc]\npriorities = three\n", NULL, "x.ini:2: pfc.priorities: three is not an integer" },
	{ "[pfc]\nheadroom = 64000001B\n", NULL,
	  "x.ini:2: pfc.headroom: 64000001B out of range (auto or 0-64MB)" },
	{ "[pfc]\nheadroom = Auto\n", NULL, "x.ini:2: pfc.headroom: " },
	{ "[pfc]\nheadroom = 100\n", NULL, "x.ini:2: pfc.headroom: missing unit" },
	{ "[pfc]\nxon_offset = 65MB\n", NULL,
	  "x.ini:2: pfc.xon_offset: 65MB out of range (0-64MB)" },
	{ "[pfc]\npause_quanta = 0\n", NULL,
	  "x.ini:2: pfc.pause_quanta: 0 out of range (1-65535)" },
	{ "[pfc]\npause_quanta = 65536\n", NULL,
	  "x.ini:2: pfc.pause_quanta: 65536 out of range (1-65535)" },
	{ "[pfc]\nresponse_time = 1.001ms\n", NULL,
	  "x.ini:2: pfc.response_time: 1.001ms out of range (auto or 0-1ms)" },
	/* [pfcwd], [nic], [output] */
	{ "[pfcwd]\nenable = maybe\n", NULL, "x.ini:2: pfcwd.enable: 'maybe' is not a boolean" },
	{ "[pfcwd]\ndetection_time = 999ns\n", NULL,
	  "x.ini:2: pfcwd.detection_time: 999ns out of range (1us-10s)" },
	{ "[pfcwd]\nrestoration_time = 10.001s\n", NULL,
	  "x.ini:2: pfcwd.restoration_time: 10.001s out of range (1us-10s)" },
	{ "[pfcwd]\npoll_interval = 0s\n", NULL,
	  "x.ini:2: pfcwd.poll_interval: 0s out of range (1us-10s)" },
	{ "[pfcwd]\naction = panic\n", NULL,
	  "x.ini:2: pfcwd.action: panic is not valid (drop, forward, alert)" },
	{ "[nic]\npause_watchdog = 11s\n", NULL,
	  "x.ini:2: nic.pause_watchdog: 11s out of range (0 (off) to 10s)" },
	{ "[nic]\npause_watchdog = 5\n", NULL, "x.ini:2: nic.pause_watchdog: missing unit" },
	{ "[output]\nsample_interval = 99ns\n", NULL,
	  "x.ini:2: output.sample_interval: 99ns out of range (100ns-1s)" },
	{ "[output]\nsample_interval = 2s\n", NULL,
	  "x.ini:2: output.sample_interval: 2s out of range (100ns-1s)" },
	/* [output] and [criteria] */
	{ "[output]\nqueues = some\n", NULL, "x.ini:2: output.queues: " },
	{ "[criteria]\nmax_ecn_mark_pct = 150\n", NULL,
	  "x.ini:2: criteria.max_ecn_mark_pct: 150% is above 1" },
	{ "[criteria]\nmax_pause_frame_rate = lots\n", NULL,
	  "x.ini:2: criteria.max_pause_frame_rate: " },
	{ "[output]\nrates = 8\nsample_interval = 1ns\n", NULL,
	  "x.ini:3: output.sample_interval: " },
	{ "[criteria]\nmin_busbw_pct_line = -1\n", NULL, "x.ini:2: criteria.min_busbw_pct_line: " },
	{ "[criteria]\nmax_lossless_drops = -1\n", NULL,
	  "x.ini:2: criteria.max_lossless_drops: -1 out of range" },
	{ "[output]\nflows = some\n", NULL, "x.ini:2: output.flows: " },
	/* implemented now: the collectives and the job keys of docs/model.md#traffic */
	{ "[job.a]\npattern = ring-allreduce\niterations = 5\ncompute_gap = 1us\n"
	  "[job.b]\npattern = alltoall\nschedule = shift\nskew = 1us\n", NULL,
	  NULL },
	/* implemented now: [ecn], [dcqcn], the CNP keys, nic.rto, output.rates, cc = dcqcn */
	{ "[nic]\ncc = none\n", NULL, NULL },
	{ "[nic]\ncc = dcqcn\nrto = 4ms\n[ecn]\nkmin = 150KB\n[dcqcn]\nprofile = nvidia\n"
	  "rpg_time_reset = 300\n[qos]\ncnp_dscp = 48\ncnp_priority_strict = true\n"
	  "[output]\nrates = 64\n", NULL,
	  NULL },
	/* the job keys of the collectives (docs/model.md#traffic) */
	{ "[job.a]\npattern = ring-allreduce\niterations = 0\n", NULL,
	  "x.ini:3: job.a.iterations: 0 out of range (1-100000)" },
	{ "[job.a]\npattern = incast\niterations = 100001\n", NULL,
	  "x.ini:3: job.a.iterations: 100001 out of range (1-100000)" },
	{ "[job.a]\npattern = incast\niterations = 1.5\n", NULL,
	  "x.ini:3: job.a.iterations: 1.5 is not an integer" },
	{ "[job.a]\npattern = incast\ncompute_gap = 1001s\n", NULL,
	  "x.ini:3: job.a.compute_gap: 1001s out of range (0-1000s)" },
	{ "[job.a]\npattern = incast\ncompute_gap = 5\n", NULL,
	  "x.ini:3: job.a.compute_gap: missing unit" },
	{ "[job.a]\npattern = permutation\nskew = 1000.000000000001s\n", NULL,
	  "x.ini:3: job.a.skew: 1000.000000000001s out of range (0-1000s)" },
	{ "[job.a]\npattern = alltoall\nskew = -1us\n", NULL, "x.ini:3: job.a.skew: " },
	{ "[job.a]\npattern = ring-allreduce\nchannels = 0\n", NULL,
	  "x.ini:3: job.a.channels: 0 out of range (1-64)" },
	{ "[job.a]\npattern = ring-allreduce\nchannels = 65\n", NULL,
	  "x.ini:3: job.a.channels: 65 out of range (1-64)" },
	{ "[job.a]\npattern = ring-allreduce\nslice = 999B\n", NULL,
	  "x.ini:3: job.a.slice: 999B out of range (1KB-1GB)" },
	{ "[job.a]\npattern = ring-allreduce\nslice = 1000000001B\n", NULL,
	  "x.ini:3: job.a.slice: 1000000001B out of range (1KB-1GB)" },
	{ "[job.a]\npattern = ring-allreduce\nslice = 512\n", NULL,
	  "x.ini:3: job.a.slice: missing unit" },
	{ "[job.a]\npattern = alltoall\nschedule = ring\n", NULL,
	  "x.ini:3: job.a.schedule: ring is not valid (all-at-once, shift)" },
	{ "[job.a]\npattern = allreduce\n", NULL,
	  "x.ini:2: job.a.pattern: allreduce is not valid (trace, incast, permutation, ring-allreduce, alltoall, storage, training)" },
	{ "[job.a]\npattern = alltoall\nsize = 0B\n", NULL,
	  "x.ini:3: job.a.size: 0B out of range (above 0, at most 1000GB)" },
};

TL_CASES_TEST(value)

static Suite *make_scenario_keys_suite(void)
{
	Suite *su = suite_create("scenario-keys");
	TCase *tc;

	tc = tcase_create("defaults");
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_frame_defaults_follow_mtu);
	tcase_add_test(tc, test_empty_file_is_defaults);
	tcase_add_test(tc, test_job_defaults);
	tcase_add_test(tc, test_collective_defaults);
	suite_add_tcase(su, tc);

	tc = tcase_create("keys");
	TL_ADD_CASES(tc, parsed);
	tcase_add_test(tc, test_leaf_spine_keys);
	tcase_add_test(tc, test_fat_tree_and_star_keys);
	tcase_add_test(tc, test_qos_keys);
	tcase_add_test(tc, test_job_keys);
	tcase_add_test(tc, test_hostset_lists);
	tcase_add_test(tc, test_fault_keys);
	tcase_add_test(tc, test_collective_keys);
	suite_add_tcase(su, tc);

	tc = tcase_create("values");
	TL_ADD_CASES(tc, value);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tl_run(make_scenario_keys_suite());
}
