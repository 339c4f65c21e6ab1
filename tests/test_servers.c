/*
 * test_servers.c - clusters as they are built (ring.c and tree.c, GPU
 * servers; nvlink.c, NVLink; topology.h, rail-optimized): the rail wiring and parallel
 * uplinks, a job inside one server that never reaches Ethernet, NVLink and
 * NIC-bound ring all-reduce times against their closed forms, the double
 * binary tree's time and its parents, all-to-all bytes per NIC and per
 * NVLink, QPs per connection, and the loader's checks of server layouts;
 * fabrics from a links file (topology.kind = file) against the leaf-spine
 * they describe, and what such a file may not be.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "models/core/topology.h"
#include "models/fabric/fabric.h"
#include "models/node/nic.h"
#include "models/scenario/scenario.h"
#include "sim/run/run.h"
#include "testlib.h"

/* 400G goodput ceiling, bytes per second (docs/model.md#wire: 49.0 GB/s) */
#define GOODPUT_400G (400e9 / 8 * 4096.0 / 4178.0)
#define NVLINK_BPS 450e9 /* the default 3600Gbps in bytes per second */

static struct fabric *run(const struct scenario *s, struct tl_log *log)
{
	struct fabric *f = tl_build(s);
	tl_log_attach(f, log);
	fabric_run_until(f, s->duration_ps);
	ck_assert_msg(fabric_finished(f), "%llu of %llu flows done",
		      (unsigned long long)fabric_flows_done(f),
		      (unsigned long long)fabric_flows_total(f));
	tl_conserved(f);
	return f;
}

static void finish(struct fabric *f, struct tl_log *log, struct scenario *s)
{
	tl_log_free(log);
	fabric_destroy(f);
	tl_unload(s);
}

static double coll_s(const struct tl_log *log, size_t k)
{
	ck_assert_uint_lt(k, log->ncolls);
	ck_assert(!log->colls[k].failed);
	return (double)(log->colls[k].end_ps - log->colls[k].start_ps) * 1e-12;
}

/* follow the routes from src's leaf to dst under many hashes: every path
 * reaches dst through exactly topo_hops switches */
static void check_routes(const struct topo *t, uint32_t src, uint32_t dst)
{
	for (uint64_t h = 0; h < 64; h++) {
		struct topo_end at = topo_host_uplink(t, src);
		uint32_t sw = at.node, hops = 1;
		for (;;) {
			uint64_t hash = h * UINT64_C(0x9e3779b97f4a7c15) ^ sw;
			struct topo_end e = topo_peer(t, sw, topo_route(t, sw, dst, hash));
			if (e.tier == TOPO_HOST) {
				ck_assert_uint_eq(e.node, dst);
				break;
			}
			sw = e.node;
			ck_assert_uint_le(++hops, 5);
		}
		ck_assert_uint_eq(hops, topo_hops(t, src, dst));
	}
}

/* 2 units of 3 servers of 4 GPUs, 2 spines with 2 links each: host h is
 * GPU h % 4 of server h / 4 and hangs off rail leaf (unit, h % 4); every
 * port's peer points back at it; every route arrives */
START_TEST(rail_wiring)
{
	struct scenario *s = tl_load("[topology]\nkind = rail-optimized\nunits = 2\n"
				     "servers_per_unit = 3\ngpus_per_server = 4\nspines = 2\n"
				     "uplinks_per_spine = 2\n");
	struct topo t;
	struct topo_shape shape = scenario_topo_shape(s);
	topo_init(&t, &shape);
	ck_assert_uint_eq(t.hosts, 24);
	ck_assert_uint_eq(t.switches, 10); /* 8 rail leaves, 2 spines */
	ck_assert_uint_eq(topo_ports(&t, 0), 3 + 2 * 2);
	ck_assert_uint_eq(topo_ports(&t, 8), 8 * 2);
	for (uint32_t h = 0; h < t.hosts; h++) {
		struct topo_end up = topo_host_uplink(&t, h);
		ck_assert_uint_eq(up.node, h / 12 * 4 + h % 4);     /* unit, rail */
		ck_assert_uint_eq(up.port, h / 4 % 3);              /* server in the unit */
		ck_assert_uint_eq(topo_server(&t, h), h / 4);
		struct topo_end back = topo_peer(&t, up.node, up.port);
		ck_assert(back.tier == TOPO_HOST && back.node == h);
	}
	for (uint32_t sw = 0; sw < t.switches; sw++)
		for (uint16_t p = 0; p < topo_ports(&t, sw); p++) {
			struct topo_end e = topo_peer(&t, sw, p);
			if (e.tier == TOPO_HOST)
				continue;
			struct topo_end back = topo_peer(&t, e.node, e.port);
			ck_assert_uint_eq(back.node, sw);
			ck_assert_uint_eq(back.port, p);
		}
	/* same rail of a unit: one switch; across rails or units: three */
	ck_assert_uint_eq(topo_hops(&t, 0, 4), 1);
	ck_assert_uint_eq(topo_hops(&t, 0, 1), 3);
	ck_assert_uint_eq(topo_hops(&t, 0, 12), 3);
	for (uint32_t a = 0; a < t.hosts; a += 5)
		for (uint32_t b = 0; b < t.hosts; b += 3)
			if (a != b)
				check_routes(&t, a, b);
	tl_unload(s);
}
END_TEST

/* uplinks_per_spine: 4 spines x 4 links are 16 uplinks, 1:1 under 16
 * hosts; a spine spreads over its 4 links to a leaf */
START_TEST(parallel_uplinks)
{
	struct scenario *s = tl_load("[topology]\nspines = 4\nleaves = 2\nhosts_per_leaf = 16\n"
				     "uplinks_per_spine = 4\n");
	struct topo t;
	struct topo_shape shape = scenario_topo_shape(s);
	topo_init(&t, &shape);
	ck_assert_uint_eq(topo_ports(&t, 0), 32);
	ck_assert_uint_eq(topo_ports(&t, 2), 8);
	uint8_t used[8] = { 0 };
	for (uint64_t h = 0; h < 256; h++)
		used[topo_route(&t, 2, 17, h)] = 1;
	for (int p = 0; p < 8; p++)
		ck_assert_int_eq(used[p], p >= 4); /* the 4 links to leaf 1 only */
	check_routes(&t, 0, 31);
	char *d = tl_print_derived(s);
	ck_assert_ptr_nonnull(strstr(d, "16 x 400Gbps down : 16 x 400Gbps up = 1.00:1"));
	free(d);
	tl_unload(s);
}
END_TEST

/* a ring all-reduce of the 8 GPUs of one server: every hop over NVLink,
 * T = 2(n-1)/n S / B + 2(n-1) (slice / B + latency), no byte on a NIC */
START_TEST(nvlink_ring_closed_form)
{
	struct scenario *s = tl_load("[sim]\nduration = 100ms\n"
				     "[topology]\nleaves = 2\nhosts_per_leaf = 16\n"
				     "gpus_per_server = 8\n"
				     "[job.ar]\npattern = ring-allreduce\nranks = 8-15\nsize = 256MB\n");
	struct tl_log log = { 0 };
	struct fabric *f = run(s, &log);
	double n = 8, S = 256e6, L = 512 * 1024;
	double expect = 2 * (n - 1) / n * S / NVLINK_BPS + 2 * (n - 1) * (L / NVLINK_BPS + 1e-6);
	double t = coll_s(&log, 0);
	ck_assert_msg(fabs(t - expect) <= 0.05 * expect, "ring took %.1f us, closed form %.1f us",
		      t * 1e6, expect * 1e6);
	struct net_stats st = tl_stats(f);
	ck_assert_uint_eq(st.payload_injected, 0);
	ck_assert_uint_eq(st.data_pkts_sent, 0);
	ck_assert_uint_eq(st.nvlink_bytes, (uint64_t)(2 * (n - 1) * S));
	/* judged against NVLink, not the NIC */
	ck_assert_int_eq(log.colls[0].line_bps, INT64_C(3600000000000));
	finish(f, &log, s);
}
END_TEST

/* an incast and a permutation among GPUs of one server stay off Ethernet */
START_TEST(same_server_jobs_stay_off_ethernet)
{
	struct scenario *s = tl_load("[sim]\nduration = 100ms\n"
				     "[topology]\nkind = star\nhosts = 16\ngpus_per_server = 8\n"
				     "[job.in]\npattern = incast\ndst = 3\nsenders = 0-2,4-7\nsize = 8MB\n"
				     "[job.p]\npattern = permutation\nranks = 8-15\nsize = 1MB\n");
	struct tl_log log = { 0 };
	struct fabric *f = run(s, &log);
	struct net_stats st = tl_stats(f);
	ck_assert_uint_eq(st.payload_injected, 0);
	ck_assert_uint_eq(st.data_pkts_sent, 0);
	ck_assert_uint_eq(st.nvlink_bytes, 7 * 8000000 + 8 * 1000000);
	/* the incast is served one message after another at h3's NVLink */
	double t = coll_s(&log, 0) > coll_s(&log, 1) ? coll_s(&log, 0) : coll_s(&log, 1);
	double incast = 7 * 8e6 / NVLINK_BPS + 1e-6;
	ck_assert_msg(fabs(t - incast) < 0.01 * incast, "incast %.2f us, closed form %.2f us",
		      t * 1e6, incast * 1e6);
	finish(f, &log, s);
}
END_TEST

/* 4 servers x 8 GPUs, rail-optimized, 8 channels: channel c leaves every
 * server by NIC c, so each NIC carries exactly one channel's hop out of
 * its server, 2(N-1) chunks of S/8/N, and the ring is NIC-bound: busbw
 * within 5 % under 8 x the 400G goodput, never above */
START_TEST(rail_ring_nic_bound)
{
	struct scenario *s = tl_load("[sim]\nduration = 100ms\n"
				     "[topology]\nkind = rail-optimized\nservers_per_unit = 4\n"
				     "gpus_per_server = 8\nspines = 4\n"
				     "[job.ar]\npattern = ring-allreduce\nsize = 256MB\nchannels = 8\n");
	struct tl_log log = { 0 };
	struct fabric *f = run(s, &log);
	double N = 32, S = 256e6;
	for (uint32_t h = 0; h < 32; h++) {
		ck_assert_uint_eq(f->nics[h].tx_payload_bytes, 2 * 31 * 1000000);
		ck_assert_uint_eq(f->nics[h].rx_payload_bytes, 2 * 31 * 1000000);
	}
	double busbw = S / coll_s(&log, 0) * 2 * (N - 1) / N, ceiling = 8 * GOODPUT_400G;
	ck_assert_msg(busbw < ceiling && busbw > 0.95 * ceiling,
		      "busbw %.2f GB/s, ceiling %.2f GB/s", busbw / 1e9, ceiling / 1e9);
	/* the rails' own leaves carry it all: nothing crosses a spine */
	for (uint32_t sp = 8; sp < 12; sp++)
		for (uint16_t p = 0; p < topo_ports(&f->topo, sp); p++)
			ck_assert_uint_eq(f->sws[sp].ports[p].tx_bytes, 0);
	ck_assert_int_eq(log.colls[0].line_bps, 8 * INT64_C(400000000000));
	finish(f, &log, s);
}
END_TEST

/* NCCL's double binary tree (ncclGetDtree) on 8 hosts: tree 0 is
 * 0 -> 4 -> {2, 6}, 2 -> {1, 3}, 6 -> {5, 7}; tree 1 mirrors it.  With 2
 * channels (one per tree) every host's NIC sends 4 x S/2 at most (inner in
 * one tree: 1 up + 2 down, a leaf in the other: 1 up), so with PFC alone
 * T >= 2 S / G plus the pipeline's fill, 6 hops of a slice.  It takes up
 * to 10 % longer: a leaf of the other tree sends its whole share up at
 * once, so an inner host's NIC is not always busy with the slices its
 * children wait for. */
START_TEST(tree_closed_form)
{
	struct scenario *s = tl_load("[sim]\nduration = 100ms\n"
				     "[topology]\nkind = star\nhosts = 8\n[nic]\ncc = none\n"
				     "[job.ar]\npattern = ring-allreduce\nalgorithm = tree\n"
				     "size = 128MB\nchannels = 2\n");
	struct tl_log log = { 0 };
	struct fabric *f = run(s, &log);
	double S = 128e6, L = 512 * 1024;
	double expect = 2 * S / GOODPUT_400G + 6 * L / GOODPUT_400G;
	double t = coll_s(&log, 0);
	ck_assert_msg(t >= expect && t <= 1.1 * expect, "tree took %.1f us, closed form %.1f us",
		      t * 1e6, expect * 1e6);
	/* inner hosts of tree 0 (2, 4, 6) send 3 x S/2 in it and S/2 in tree 1;
	 * host 0 (tree 0's root, one child) 2 x S/2 in all */
	ck_assert_uint_eq(f->nics[2].tx_payload_bytes, 4 * 64000000);
	ck_assert_uint_eq(f->nics[4].tx_payload_bytes, 4 * 64000000);
	ck_assert_uint_eq(f->nics[0].tx_payload_bytes, 2 * 64000000);
	/* messages: 2 channels x slices x 2 (n - 1) */
	ck_assert_uint_eq(fabric_flows_total(f), 2 * 123 * 14);
	finish(f, &log, s);
}
END_TEST

/* all-to-all on 2 servers x 4 GPUs: of a rank's 7 messages of S/8, 3 go
 * over NVLink and 4 leave by its own NIC; qps_per_connection = 2 cuts each
 * into 2 parts on QPs with their own source ports */
START_TEST(alltoall_nic_and_nvlink_bytes)
{
	for (int q = 1; q <= 2; q++) {
		char text[512];
		snprintf(text, sizeof(text),
			 "[sim]\nduration = 100ms\n"
			 "[topology]\nkind = rail-optimized\nservers_per_unit = 2\n"
			 "gpus_per_server = 4\nspines = 2\n"
			 "[job.a2a]\npattern = alltoall\nsize = 8MB\nqps_per_connection = %d\n", q);
		struct scenario *s = tl_load(text);
		struct tl_log log = { 0 };
		struct fabric *f = run(s, &log);
		for (uint32_t h = 0; h < 8; h++) {
			ck_assert_uint_eq(f->nics[h].tx_payload_bytes, 4 * 1000000);
			ck_assert_uint_eq(f->nics[h].rx_payload_bytes, 4 * 1000000);
		}
		ck_assert_uint_eq(tl_stats(f).nvlink_bytes, 8 * 3 * 1000000);
		ck_assert_uint_eq(fabric_flows_total(f), 8 * 7 * (uint64_t)q);
		ck_assert_uint_eq(f->nqps, 8 * 7 * (uint32_t)q);
		for (uint32_t k = 0; q == 2 && k < f->nqps; k += 2) {
			ck_assert_uint_eq(f->qps[k].src, f->qps[k + 1].src);
			ck_assert_uint_eq(f->qps[k].dst, f->qps[k + 1].dst);
			ck_assert_uint_ne(f->qps[k].sport, f->qps[k + 1].sport);
		}
		/* 7 / (8 - 4): what each NIC allows with NVLink beside it */
		ck_assert_int_eq(log.colls[0].line_bps, 700000000000);
		finish(f, &log, s);
	}
}
END_TEST

/* a ring's slices take a connection's QPs in turn */
START_TEST(ring_qps_per_connection)
{
	struct scenario *s = tl_load("[sim]\nduration = 100ms\n"
				     "[topology]\nkind = star\nhosts = 4\n"
				     "[job.ar]\npattern = ring-allreduce\nsize = 16MB\n"
				     "qps_per_connection = 4\n");
	struct tl_log log = { 0 };
	struct fabric *f = run(s, &log);
	ck_assert_uint_eq(f->nqps, 16);
	/* 4 MB chunks in 7 slices of 512 KiB (128 packets) and one of 329984 B
	 * (81 packets), 6 steps: slice j of step s on QP (s + j) mod 4, so
	 * each of a rank's 4 QPs carries 12 slices, QPs 0 and 3 two short ones
	 * (the PSNs sent: the run ends before the last ACKs arrive) */
	for (uint32_t k = 0; k < 16; k++)
		ck_assert_uint_eq(f->qps[k].psn_max,
				  k % 4 == 0 || k % 4 == 3 ? 10 * 128 + 2 * 81 : 11 * 128 + 81);
	finish(f, &log, s);
}
END_TEST

/* ranks listed across servers: the ring groups them by server, servers in
 * the order of their first rank (the server of h8, then of h4, then of
 * h0), a server's ranks in rank order.  The messages' ends show it: each
 * server's GPUs pass slices round in that order over NVLink, and channel c
 * goes from server to server through each server's GPU c (8 4 0; 9 5 1). */
START_TEST(ring_groups_ranks_by_server)
{
	struct scenario *s = tl_load("[sim]\nduration = 100ms\n"
				     "[topology]\nkind = star\nhosts = 12\ngpus_per_server = 4\n"
				     "[job.ar]\npattern = ring-allreduce\nsize = 1MB\nchannels = 2\n"
				     "ranks = 8,4,0,9,5,1,10,6,2,11,7,3\n");
	static const uint32_t server[3][4] = { { 8, 9, 10, 11 }, { 4, 5, 6, 7 }, { 0, 1, 2, 3 } };
	unsigned want[12][12] = { { 0 } }, seen[12][12] = { { 0 } };
	for (int v = 0; v < 3; v++)
		for (int i = 0; i < 4; i++) {
			want[server[v][i]][server[v][(i + 1) % 4]] = 1;
			if (i < 2) /* channel i leaves through GPU i */
				want[server[v][i]][server[(v + 1) % 3][i]] = 1;
		}
	struct tl_log log = { 0 };
	struct fabric *f = run(s, &log);
	ck_assert_uint_gt(log.nflows, 0);
	for (size_t k = 0; k < log.nflows; k++) {
		ck_assert_uint_lt(log.flows[k].src, 12);
		ck_assert_uint_lt(log.flows[k].dst, 12);
		seen[log.flows[k].src][log.flows[k].dst] = 1;
	}
	for (int a = 0; a < 12; a++)
		for (int b = 0; b < 12; b++)
			ck_assert_msg(seen[a][b] == want[a][b], "h%d -> h%d: %s", a, b,
				      want[a][b] ? "missing" : "not a ring hop");
	finish(f, &log, s);
}
END_TEST

/* the loader: a server may not straddle two switches */
START_TEST(server_layout_errors)
{
	static const struct tl_case cases[] = {
		{ "[topology]\nhosts_per_leaf = 12\ngpus_per_server = 8\n", NULL,
		  "x.ini:3: topology.gpus_per_server: 8 does not divide hosts_per_leaf (12): "
		  "a server's GPUs must share one switch" },
		{ "[topology]\nkind = fat-tree\nk = 4\ngpus_per_server = 4\n", NULL,
		  "x.ini:4: topology.gpus_per_server: 4 does not divide k / 2" },
		{ "[topology]\nspines = 64\nuplinks_per_spine = 8\n", NULL,
		  "x.ini:3: topology.uplinks_per_spine: 64 spines x 8 uplinks_per_spine = 512 "
		  "uplinks per leaf, above 256" },
		{ "[topology]\nkind = rail-optimized\nunits = 256\nservers_per_unit = 512\n"
		  "gpus_per_server = 8\n", NULL,
		  "x.ini:4: topology.servers_per_unit: 256 units x 512 servers_per_unit x 8 "
		  "gpus_per_server = 1048576 hosts, out of range (2-65536)" },
		{ "[topology]\nleaves = 2\n", "topology.servers_per_unit=2",
		  "--set: topology.servers_per_unit: only for kind = rail-optimized" },
		{ "[job.x]\npattern = incast\nalgorithm = tree\n", NULL,
		  "x.ini:3: job.x.algorithm: only for pattern = ring-allreduce" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tl_check_case(&cases[i]);
}
END_TEST

/* a links file wired exactly as the default leaf-spine (hosts first at each
 * leaf, then the spines; names of the file's own) runs byte for byte as
 * kind = leaf-spine: the same ports, the same ECMP sets, the same times */
START_TEST(file_topology_matches_leaf_spine)
{
	static const char jobs[] = "[sim]\nduration = 100ms\n"
				   "[job.ar]\npattern = ring-allreduce\nsize = 32MB\n"
				   "[job.in]\npattern = incast\ndst = 5\nsenders = 10-20\nsize = 2MB\n";
	char text[2][1024];
	snprintf(text[0], sizeof(text[0]), "%s", jobs);
	snprintf(text[1], sizeof(text[1]), "[topology]\nkind = file\nfile = %s/links-default.csv\n%s",
		 TEST_DATA_DIR, jobs);
	struct run_result r[2];
	for (int k = 0; k < 2; k++) {
		struct scenario *s = tl_load(text[k]);
		ck_assert_uint_eq(scenario_hosts(s), 32);
		ck_assert_uint_eq(scenario_switches(s), 6);
		ck_assert_int_eq(run_scenario(s, &(struct run_opts){ .threads = 1 }, &r[k]), RUN_OK);
		tl_unload(s);
	}
	ck_assert_int_eq(r[0].sim_time_ps, r[1].sim_time_ps);
	ck_assert_int_eq(r[0].collective_time_ps, r[1].collective_time_ps);
	ck_assert_uint_eq(r[0].data_bytes_delivered, r[1].data_bytes_delivered);
	ck_assert_uint_eq(r[0].ecn_marked_pkts, r[1].ecn_marked_pkts);
	ck_assert_uint_eq(r[0].pause_frames, r[1].pause_frames);
	ck_assert_uint_eq(r[0].max_queue_bytes, r[1].max_queue_bytes);
	ck_assert_uint_eq(r[0].events, r[1].events);
	/* the switches keep the file's names */
	struct scenario *s = tl_load(text[1]);
	struct topo t;
	char name[32];
	struct topo_shape shape = scenario_topo_shape(s);
	topo_init(&t, &shape);
	ck_assert_str_eq(topo_switch_name(&t, 4, name, sizeof(name)), "spine.0");
	ck_assert_uint_eq(topo_hops(&t, 0, 31), 3);
	tl_unload(s);
}
END_TEST

/* what a links file may not be, in this version or ever */
START_TEST(file_topology_errors)
{
	char dir[64], path[128], text[512];
	static const struct {
		const char *csv, *extra, *msg;
	} cases[] = {
		{ "a,b,rate,cable\nh0,s0,400Gbps,3m\nh1,s0,100Gbps,3m\n", "",
		  ":3: 100Gbps 3m differs from the first host link on line 2 (400Gbps 3m): this "
		  "version needs every host link to share one rate and cable length" },
		{ "a,b,rate,cable\nh0,s0,400Gbps,3m\nh1,s1,400Gbps,3m\ns0,s2,400Gbps,3m\n"
		  "s1,s3,400Gbps,3m\ns2,s3,400Gbps,30m\n", "",
		  ":6: 400Gbps 30m differs from the first switch-to-switch link on line 4" },
		{ "a,b,rate,cable\nh0,s0,400Gbps,3m\nh1,s0,400Gbps,3m\nh2,s1,400Gbps,3m\n"
		  "s1,x,400Gbps,3m\nh3,s1,400Gbps,3m\n", "", "cannot reach" },
		{ "a,b,rate,cable\nh0,s0,400Gbps,3m\nh1,s1,400Gbps,3m\ns0,s1,400Gbps,3m\n",
		  "gpus_per_server = 2\n",
		  "topology.gpus_per_server: h0 and h1 are GPUs of one server on different switches" },
		{ "a,b,rate,cable\nh0,s0,400Gbps,3m\nh1,s0,400Gbps,3m\n",
		  "[fault.f]\nkind = link-down\nlink = h0-sw0\n",
		  "fault.f.kind: link-down is not available with topology.kind = file" },
		{ "a,b,rate,cable\nh5,s0,400Gbps,3m\nh1,s0,400Gbps,3m\ns0,h0,400Gbps,30m\n"
		  "h0,s1,400Gbps,30m\ns1,x,400Gbps,3m\n", "",
		  ":4: h0 is a switch (it has several links), but names h<N> are the hosts'" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tl_write_temp(dir, path, "links.csv", cases[i].csv);
		snprintf(text, sizeof(text), "[topology]\nkind = file\nfile = %s\n%s", path,
			 cases[i].extra);
		struct scn_error err;
		struct scenario *s = tl_scn_try(text, &err);
		ck_assert_msg(s == NULL, "case %zu loaded", i);
		ck_assert_msg(strstr(err.msg, cases[i].msg) != NULL, "case %zu: %s", i, err.msg);
		tl_remove_temp(dir, path);
	}
	/* a fifo is refused, not waited on */
	char fifo[] = "/tmp/links-fifo-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(fifo));
	char fpath[128];
	snprintf(fpath, sizeof(fpath), "%s/links.csv", fifo);
	ck_assert_int_eq(mkfifo(fpath, 0600), 0);
	snprintf(text, sizeof(text), "[topology]\nkind = file\nfile = %s\n", fpath);
	struct scn_error ferr;
	ck_assert_ptr_null(tl_scn_try(text, &ferr));
	ck_assert_ptr_nonnull(strstr(ferr.msg, "not a regular file (a device or a pipe)"));
	tl_remove_temp(fifo, fpath);
	static const struct tl_case keys[] = {
		{ "[topology]\nkind = file\n", NULL,
		  "x.ini:2: topology.file: required with kind = file" },
		{ "[topology]\nkind = file\nhost_link = 100Gbps\n", NULL,
		  "x.ini:3: topology.host_link: only for kind = leaf-spine, fat-tree, star or "
		  "rail-optimized (kind is file)" },
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		tl_check_case(&keys[i]);
}
END_TEST

static Suite *make_servers_suite(void)
{
	Suite *s = suite_create("servers");
	TCase *tc = tcase_create("servers");
	tcase_add_test(tc, rail_wiring);
	tcase_add_test(tc, parallel_uplinks);
	tcase_add_test(tc, nvlink_ring_closed_form);
	tcase_add_test(tc, same_server_jobs_stay_off_ethernet);
	tcase_add_test(tc, rail_ring_nic_bound);
	tcase_add_test(tc, tree_closed_form);
	tcase_add_test(tc, alltoall_nic_and_nvlink_bytes);
	tcase_add_test(tc, ring_qps_per_connection);
	tcase_add_test(tc, ring_groups_ranks_by_server);
	tcase_add_test(tc, server_layout_errors);
	tcase_add_test(tc, file_topology_matches_leaf_spine);
	tcase_add_test(tc, file_topology_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_servers_suite());
}
