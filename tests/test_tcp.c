/*
 * test_tcp.c - fabric.type = ethernet-tcp: the loader's [tcp] keys, and the
 * TCP transport against closed forms and the behaviour TCP is known for:
 * one flow at the goodput ceiling, losses recovered by fast retransmit
 * within round trips, a lost last segment waiting for the RTO, the RTO
 * backing off as RFC 6298 says, DCTCP
 * holding the queue near K where NewReno fills the buffer, the incast
 * collapse of a 200 ms rto_min and its cure, and the same results on 1, 2
 * and 3 threads.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/fabric.h"
#include "models/scenario/scenario.h"
#include "sim/run/run.h"
#include "testlib.h"

/* ---- the loader ---- */

static const struct tl_values tcp_defaults_cases[] = {
	{ "[fabric]\ntype = ethernet-tcp\n",
	  { TL_FIELD(fabric_type, SCN_FABRIC_TCP), TL_FIELD(pfc_prios, 0), TL_FIELD(ecn_queues, 0),
	    TL_FIELD(cc, SCN_CC_NONE), TL_FIELD(pfcwd_enable, 0), TL_FIELD(tcp_cc, SCN_TCP_NEWRENO),
	    TL_FIELD(tcp_mss_bytes, 4096), TL_FIELD(tcp_init_cwnd, 10),
	    TL_FIELD(tcp_rto_min_ps, 200 * UNITS_PS_PER_MS),
	    TL_FIELD(tcp_delack_ps, 40 * UNITS_PS_PER_MS),
	    TL_FIELD(tcp_stack_latency_ps, 25 * UNITS_PS_PER_US) } },
	{ "[fabric]\ntype = ethernet-tcp\n[ecn]\nqueues = 3\nkmin = 100KB\nkmax = 101KB\n"
	  "pmax = 100%\n[tcp]\ncc = dctcp\nmss = 8948\ninit_cwnd = 4\nrto_min = 1ms\n"
	  "delayed_ack = 0\nstack_latency = 15us\n",
	  { TL_FIELD(fabric_type, SCN_FABRIC_TCP), TL_FIELD(tcp_cc, SCN_TCP_DCTCP),
	    TL_FIELD(tcp_mss_bytes, 8948), TL_FIELD(mtu_bytes, 8948), TL_FIELD(tcp_init_cwnd, 4),
	    TL_FIELD(tcp_rto_min_ps, UNITS_PS_PER_MS), TL_FIELD(tcp_delack_ps, 0),
	    TL_FIELD(tcp_stack_latency_ps, 15 * UNITS_PS_PER_US), TL_FIELD(ecn_queues, 1 << 3),
	    TL_FIELD(ecn_kmin_bytes, 100000), TL_FIELD(ecn_kmax_bytes, 101000),
	    TL_FIELD(ecn_pmax_ppb, UNITS_PPB_ONE), TL_FIELD(pfc_prios, 0),
	    TL_FIELD(cc, SCN_CC_NONE) } },
};
TL_VALUES_TEST(tcp_defaults)

static const struct tl_case tcp_errors_cases[] = {
	{ "[tcp]\nrto_min = 1ms\n", NULL,
	  "x.ini:2: tcp.rto_min: only for fabric.type = ethernet-tcp (fabric.type is roce)" },
	{ "[fabric]\ntype = ethernet-tcp\n[tcp]\nmss = 100\n", NULL,
	  "x.ini:4: tcp.mss: 100 out of range (536-9000)" },
	{ "[fabric]\ntype = ethernet-tcp\n[tcp]\ncc = cubic\n", NULL,
	  "x.ini:4: tcp.cc: cubic is not valid (newreno, dctcp)" },
	{ "[fabric]\ntype = ethernet-tcp\n[tcp]\nrto_min = 20s\n", NULL,
	  "x.ini:4: tcp.rto_min: 20s out of range (1us-10s)" },
	{ "[fabric]\ntype = ethernet-tcp\n[pfc]\npriorities = 3\n", NULL,
	  "x.ini:4: pfc.priorities: not on fabric.type = ethernet-tcp (lossy: no pause frames)" },
	{ "[fabric]\ntype = ethernet-tcp\n[nic]\nib_timeout = 14\n", NULL,
	  "x.ini:4: nic.ib_timeout: not on fabric.type = ethernet-tcp (TCP retransmits by its "
	  "own timer: tcp.rto_min)" },
	{ "[fabric]\ntype = ethernet-tcp\n[topology]\nmtu = 1024\n", NULL,
	  "x.ini:4: topology.mtu: not on fabric.type = ethernet-tcp (a packet carries one segment "
	  "of tcp.mss)" },
	{ "[fabric]\ntype = ethernet-tcp\n[dcqcn]\nrpg_gd = 12\n", NULL,
	  "x.ini:4: dcqcn.rpg_gd: not on fabric.type = ethernet-tcp (no DCQCN" },
	{ "[fabric]\ntype = ethernet-tcp\n[tcp]\ncc = dctcp\n", NULL,
	  "x.ini:4: tcp.cc = dctcp: the switches must mark: set ecn.queues" },
	/* checked after every --set, so one can give the marking; the message
	 * still points at the file's line */
	{ "[fabric]\ntype = ethernet-tcp\n[tcp]\ncc = dctcp\n", "ecn.queues=3", NULL },
	{ "[fabric]\ntype = ethernet-tcp\n[ecn]\nqueues = 3\n[tcp]\ncc = dctcp\n", "ecn.queues=",
	  "x.ini:6: tcp.cc = dctcp: the switches must mark: set ecn.queues" },
	{ "[fabric]\ntype = ethernet-tcp\n[ib]\nvl_buffer = 1MB\n", NULL,
	  "x.ini:4: ib.vl_buffer: not on fabric.type = ethernet-tcp (a key of another "
	  "fabric.type)" },
};
TL_CASES_TEST(tcp_errors)

/* ---- runs ---- */

static struct run_result run_text(const char *text, unsigned threads)
{
	struct scenario *s = tl_load(text);
	struct run_result r;
	ck_assert_int_eq(run_scenario(s, &(struct run_opts){ .threads = threads }, &r), RUN_OK);
	tl_unload(s);
	ck_assert_msg(r.end == RUN_END_DONE, "the traffic did not finish");
	return r;
}

/*
 * One 64 MB flow across a 100G star: the segments leave back to back once
 * slow start has opened the window (a round trip is ~2 us, the window
 * doubles each), so the flow runs at the goodput ceiling, 100 Gbps x 4096
 * / (4096 + 62 + 20): it ends after the stack latency, 64 MB at that rate
 * and the path, within 1 %.  Nothing is lost.
 */
START_TEST(one_flow_reaches_the_goodput_ceiling)
{
	struct run_result r = run_text("[fabric]\ntype = ethernet-tcp\n"
				       "[topology]\nkind = star\nhosts = 2\nhost_link = 100Gbps\n"
				       "[job.a]\npattern = incast\ndst = 1\nsenders = 0\nsize = 64MB\n",
				       1);
	double goodput = 100e9 / 8 * 4096.0 / 4178.0; /* bytes/s */
	double want = 25e-6 + 64e6 / goodput;
	double got = (double)r.fct_p99_ps * 1e-12;
	ck_assert_msg(fabs(got / want - 1) < 0.01, "fct %.6f s, closed form %.6f s", got, want);
	ck_assert_uint_eq(r.drops_lossy + r.drops_lossless, 0);
	ck_assert_uint_eq(r.retransmitted_bytes, 0);
	ck_assert_uint_eq(r.rto_timeouts, 0);
}
END_TEST

/*
 * One 8 MB flow into a receiver that drains at 50 Gbps (a slow-receiver
 * fault; without PFC its buffer drops what it cannot hold): segments are
 * dropped in the middle of windows, and every loss is repaired by fast
 * retransmit (three duplicate ACKs; NewReno resends each further hole on a
 * partial ACK) within round trips: no timeout although rto_min is 200 ms,
 * and the flow ends within 2 % of the stack latency plus 8 MB at the
 * receiver's rate (50 Gbps of 4178 B frames carrying 4096 B).
 */
START_TEST(drops_are_repaired_by_fast_retransmit)
{
	struct run_result r = run_text("[fabric]\ntype = ethernet-tcp\n"
				       "[topology]\nkind = star\nhosts = 2\nhost_link = 100Gbps\n"
				       "[job.a]\npattern = incast\ndst = 1\nsenders = 0\nsize = 8MB\n"
				       "[fault.slow]\nkind = slow-receiver\nnode = h1\nrate = 50Gbps\n",
				       1);
	double want = 25e-6 + 8e6 / (50e9 / 8 * 4096.0 / 4178.0), got = (double)r.fct_p99_ps * 1e-12;
	ck_assert_uint_gt(r.drops_lossy, 0);
	ck_assert_uint_gt(r.naks_sent, 0); /* fast retransmits */
	ck_assert_uint_eq(r.rto_timeouts, 0);
	ck_assert_msg(fabs(got / want - 1) < 0.02, "fct %.6f s, closed form %.6f s", got, want);
}
END_TEST

/*
 * Four single-segment (4 KiB) messages at once into one port whose buffer
 * holds three: the fourth has no later segment to raise duplicate ACKs, so
 * it waits for the timeout, tcp.rto_min = 5 ms (no RTT sample yet), and is
 * resent: it arrives after the stack latency, 5 ms and the path (two
 * serializations of 4178 B at 100G, 2 x 3 m of cable, 500 ns of switch
 * latency: 1.198 us).  The others take the stack latency and the path,
 * each behind those queued before it.
 */
START_TEST(a_lost_last_segment_waits_for_the_rto)
{
	struct run_result r = run_text("[fabric]\ntype = ethernet-tcp\n[tcp]\nrto_min = 5ms\n"
				       "[topology]\nkind = star\nhosts = 5\nhost_link = 100Gbps\n"
				       "[buffer]\nsize = 12KB\nreserved = 0B\n"
				       "[job.a]\npattern = incast\ndst = 0\nsize = 4KiB\n",
				       1);
	const double path_us = 2 * 4178 * 8 / 100e9 * 1e6 + 2 * 3 * 5e-3 + 0.5;
	ck_assert_uint_eq(r.drops_lossy, 1);
	ck_assert_uint_eq(r.rto_timeouts, 1);
	double p99 = (double)r.fct_p99_ps / UNITS_PS_PER_US;
	/* to the percentile's precision: 1/65536 of 5 ms, 77 ns */
	ck_assert_msg(fabs(p99 - (25 + 5000 + path_us)) < 0.08, "slowest %.4f us, want %.4f", p99,
		      25 + 5000 + path_us);
	ck_assert_int_lt(r.fct_p50_ps, 30 * UNITS_PS_PER_US);
}
END_TEST

/*
 * RFC 6298 section 5.5: each expiry doubles the RTO ("back off the
 * timer").  One segment to h0 while h0's link is down for the first 30
 * ms, rto_min 5 ms: sent at 25 us (the stack latency) and lost; the k-th
 * timeout fires 5 ms x (2^k - 1) later, at 5.025, 15.025 and 35.025 ms.
 * The first two resends meet the cut link, the third (after it is back)
 * arrives: 3 timeouts, 2 + 1 drops, and the flow ends at 35.025 ms plus
 * the path.  Without the doubling it would time out 6 times and end at
 * 30.025 ms.
 */
START_TEST(rto_backs_off_as_rfc_6298)
{
	struct run_result r = run_text("[fabric]\ntype = ethernet-tcp\n[tcp]\nrto_min = 5ms\n"
				       "[topology]\nkind = star\nhosts = 2\nhost_link = 100Gbps\n"
				       "[job.a]\npattern = incast\ndst = 0\nsize = 4KiB\n"
				       "[fault.cut]\nkind = link-down\nlink = h0-sw0\n"
				       "duration = 30ms\n[sim]\nduration = 100ms\n",
				       1);
	const double path_us = 2 * 4178 * 8 / 100e9 * 1e6 + 2 * 5e-3 + 0.5;
	ck_assert_uint_eq(r.rto_timeouts, 3);
	ck_assert_uint_eq(r.drops_link_down, 3);
	double fct = (double)r.fct_p99_ps / UNITS_PS_PER_US;
	/* to the percentile's precision: 1/65536 of 35 ms, 0.53 us */
	ck_assert_msg(fabs(fct - (25 + 5000 * (1 + 2 + 4) + path_us)) < 1, "flow ends %.3f us",
		      fct);
}
END_TEST

/*
 * Four 16 MB flows into one 100G port with a 4 MB buffer.  NewReno fills
 * the queue until the dynamic threshold drops (its peak is over 1 MB);
 * DCTCP (marking at K = 100 KB, a step: kmin = 100 KB, kmax = 101 KB since
 * the loader wants kmax above kmin, pmax 100 %) cuts each window by
 * alpha/2 and holds the queue near K: its peak stays under 3 K, nothing
 * is dropped and the four flows end within 2 % of the stack latency plus
 * 64 MB at the goodput ceiling.
 */
START_TEST(dctcp_holds_the_queue_near_k)
{
	const char *base = "[fabric]\ntype = ethernet-tcp\n"
			   "[topology]\nkind = star\nhosts = 5\nhost_link = 100Gbps\n"
			   "[buffer]\nsize = 4MB\n"
			   "[job.a]\npattern = incast\ndst = 4\nsenders = 0-3\nsize = 16MB\n";
	char text[1024];
	snprintf(text, sizeof(text), "%s[tcp]\ncc = dctcp\n[ecn]\nqueues = 3\nkmin = 100KB\n"
		 "kmax = 101KB\npmax = 100%%\n", base);
	struct run_result d = run_text(text, 1), n = run_text(base, 1);
	double ideal = 25e-6 + 64e6 / (100e9 / 8 * 4096.0 / 4178.0);
	ck_assert_uint_gt(d.ecn_marked_pkts, 0);
	ck_assert_uint_eq(d.drops_lossy, 0);
	ck_assert_msg(d.max_queue_bytes < 300000, "DCTCP's queue peaked at %llu B",
		      (unsigned long long)d.max_queue_bytes);
	ck_assert_msg(fabs((double)d.sim_time_ps * 1e-12 / ideal - 1) < 0.02,
		      "DCTCP ended at %.6f s, ideal %.6f s", (double)d.sim_time_ps * 1e-12, ideal);
	ck_assert_uint_gt(n.drops_lossy, 0);
	ck_assert_msg(n.max_queue_bytes > 1000000, "NewReno's queue peaked at %llu B",
		      (unsigned long long)n.max_queue_bytes);
}
END_TEST

/*
 * scenarios/tcp-incast.ini, the teaching scenario: 31 synchronized 256 KB
 * reads into one host, 5 rounds.  Rounds that lose a last segment stall
 * for rto_min = 200 ms; with 200 us the same losses cost about a
 * millisecond: the whole job is over 100x faster.  RoCE (PFC) and
 * InfiniBand (credits) run it without a drop.
 */
START_TEST(incast_collapse_and_its_cure)
{
	const char *slow[] = { NULL }, *fast[] = { "tcp.rto_min=200us", NULL };
	const char *roce[] = { "fabric.type=roce", NULL }, *ib[] = { "fabric.type=infiniband", NULL };
	const char *const *sets[] = { slow, fast, roce, ib };
	struct run_result r[4];
	char *text = tl_slurp(TEST_SCENARIO_DIR, "tcp-incast.ini");
	for (int i = 0; i < 4; i++) {
		struct scenario *s = tl_load_set(text, sets[i]);
		ck_assert_int_eq(run_scenario(s, &(struct run_opts){ .threads = 1 }, &r[i]), RUN_OK);
		ck_assert(r[i].end == RUN_END_DONE);
		tl_unload(s);
	}
	free(text);
	ck_assert_uint_gt(r[0].rto_timeouts, 0);
	ck_assert_uint_gt(r[0].drops_lossy, 0);
	ck_assert_int_ge(r[0].sim_time_ps, 200 * UNITS_PS_PER_MS);
	ck_assert_msg(r[0].sim_time_ps > 100 * r[1].sim_time_ps, "200 ms: %lld ps, 200 us: %lld ps",
		      (long long)r[0].sim_time_ps, (long long)r[1].sim_time_ps);
	for (int i = 2; i < 4; i++) {
		ck_assert_uint_eq(r[i].drops_lossy + r[i].drops_lossless, 0);
		ck_assert_uint_eq(r[i].rto_timeouts, 0);
		ck_assert_int_lt(r[i].sim_time_ps, r[1].sim_time_ps);
	}
}
END_TEST

/* an incast with drops across a leaf-spine on 1, 2 and 3 threads: the same numbers */
START_TEST(threads_agree)
{
	const char *text = "[fabric]\ntype = ethernet-tcp\n[tcp]\nrto_min = 1ms\n"
			   "[topology]\nspines = 2\nleaves = 2\nhosts_per_leaf = 8\n"
			   "host_link = 100Gbps\nfabric_link = 100Gbps\n[buffer]\nsize = 1MB\n"
			   "[job.a]\npattern = incast\ndst = 0\nsize = 256KB\niterations = 2\n";
	struct run_result r[3];
	for (int k = 0; k < 3; k++)
		r[k] = run_text(text, (unsigned)k + 1);
	ck_assert_uint_gt(r[0].drops_lossy, 0);
	for (int k = 1; k < 3; k++) {
		ck_assert_int_eq(r[0].sim_time_ps, r[k].sim_time_ps);
		ck_assert_int_eq(r[0].fct_p99_ps, r[k].fct_p99_ps);
		ck_assert_uint_eq(r[0].drops_lossy, r[k].drops_lossy);
		ck_assert_uint_eq(r[0].retransmitted_bytes, r[k].retransmitted_bytes);
		ck_assert_uint_eq(r[0].rto_timeouts, r[k].rto_timeouts);
	}
}
END_TEST

static Suite *make_tcp_suite(void)
{
	Suite *s = suite_create("tcp");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	TL_ADD_CASES(tc, tcp_defaults);
	TL_ADD_CASES(tc, tcp_errors);
	tcase_add_test(tc, one_flow_reaches_the_goodput_ceiling);
	tcase_add_test(tc, drops_are_repaired_by_fast_retransmit);
	tcase_add_test(tc, a_lost_last_segment_waits_for_the_rto);
	tcase_add_test(tc, rto_backs_off_as_rfc_6298);
	tcase_add_test(tc, dctcp_holds_the_queue_near_k);
	tcase_add_test(tc, incast_collapse_and_its_cure);
	tcase_add_test(tc, threads_agree);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_tcp_suite());
}
