/*
 * test_adaptive.c - adaptive routing (topology.ecmp = adaptive): a
 * permutation that collides under flow ECMP runs at the closed-form ideal,
 * receivers take packets out of order and deliver every byte once, the
 * reorder window's overflow is recovered by go-back-N (even when an ACK
 * overtakes the NAK), failed links are
 * avoided, and the run is the same on 1, 2 and 3 threads.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "models/fabric/fabric.h"
#include "models/scenario/scenario.h"
#include "testlib.h"

/* 8 hosts on 2 leaves and 4 spines, 400G everywhere: with 2 leaves a
 * spine's link down to a leaf carries exactly what one uplink of the other
 * leaf sends it, so a leaf's choice is the only one that matters.  Seed 1's
 * permutation puts two flows on one uplink under flow ECMP. */
static const char *perm2 = "[sim]\nseed = 1\n[topology]\nspines = 4\nleaves = 2\n"
			   "hosts_per_leaf = 4\n[job.perm]\npattern = permutation\nsize = 4MB\n";

/* the last completion time of the run (on one thread: the log sees one
 * partition's messages), and its counters */
static sim_time_ps run_perm(const char *text, const char *ecmp, unsigned threads,
			    struct net_stats *st)
{
	char set[64];
	snprintf(set, sizeof(set), "topology.ecmp=%s", ecmp);
	const char *sets[] = { set, NULL };
	struct scenario *s = tl_load_set(text, sets);
	struct fabric *f = tl_build_on(s, threads);
	struct tl_log log;
	if (threads == 1)
		tl_log_attach(f, &log);
	fabric_run_until(f, INT64_MAX);
	ck_assert(fabric_finished(f));
	/* payload injected = delivered + dropped + in flight (resent copies) */
	tl_conserved(f);
	*st = tl_stats(f);
	ck_assert_uint_eq(fabric_flows_done(f), f->nhosts);
	sim_time_ps last = 0;
	for (size_t i = 0; threads == 1 && i < log.nflows; i++) {
		const struct tl_flow *fl = &log.flows[i];
		ck_assert_int_eq(fl->rx_bytes, fl->bytes); /* every byte, once */
		if (fl->end_ps > last)
			last = fl->end_ps;
	}
	if (threads == 1)
		tl_log_free(&log);
	fabric_destroy(f);
	tl_unload(s);
	return last;
}

/*
 * The ideal: no two flows share a link, so a 4 MB flow across the spines
 * ends after its NIC's serialization (976 frames of 4096 B and one of
 * 2304 B at 20 ps per wire byte), 3 switches' pipeline (500 ns) and one
 * frame each, 2 host cables (3 m) and 2 fabric cables (30 m): 83.683 us.
 */
START_TEST(permutation_at_ideal)
{
	const sim_time_ps full = (4096 + 82) * 20, last_frame = (2304 + 82) * 20;
	const sim_time_ps ideal = 976 * full + last_frame + 3 * (500000 + full) +
				  2 * 15000 + 2 * 150000;
	struct net_stats st;
	sim_time_ps flow = run_perm(perm2, "flow", 1, &st);
	ck_assert_msg(flow > 2 * ideal, "flow ECMP ended at %lld ps: no collision",
		      (long long)flow);
	sim_time_ps ar = run_perm(perm2, "adaptive", 1, &st);
	ck_assert_msg(ar >= ideal && ar <= ideal + ideal / 100,
		      "adaptive ended at %lld ps, ideal %lld ps", (long long)ar, (long long)ideal);
	ck_assert_uint_gt(st.cc.ooo_pkts, 0);
	ck_assert_uint_eq(st.cc.retransmitted_bytes, 0);
	ck_assert_uint_eq(st.cc.naks_sent, 0);
	ck_assert_uint_eq(st.drops.rx_discard + st.drops.lossless + st.drops.lossy, 0);
	ck_assert_uint_eq(st.payload_delivered, 8u * 4000000u);
}
END_TEST

/* InfiniBand's HCAs take adaptive routing's packets out of order too */
START_TEST(infiniband_permutation_at_ideal)
{
	char text[512];
	snprintf(text, sizeof(text), "%s[fabric]\ntype = infiniband\n", perm2);
	struct net_stats st;
	sim_time_ps flow = run_perm(text, "flow", 1, &st);
	sim_time_ps ar = run_perm(text, "adaptive", 1, &st);
	ck_assert_msg(ar * 2 < flow, "adaptive %lld ps, flow %lld ps", (long long)ar,
		      (long long)flow);
	ck_assert_uint_gt(st.cc.ooo_pkts, 0);
	ck_assert_uint_eq(st.cc.retransmitted_bytes, 0);
}
END_TEST

/* packet spraying without out-of-order placement: with seed 2 one message's
 * last packet overtakes the one before it and is discarded, and nothing
 * after it asks again, so only the retransmission timeout recovers it
 * (docs/model.md, ECMP): at the default 4.29 s none has fired by 1 s and one
 * message of 8 waits; with nic.rto = 1ms one timeout finishes the run */
START_TEST(spraying_tail_waits_for_the_timeout)
{
	static const char *text = "[sim]\nseed = 2\nduration = 1s\n[topology]\nspines = 4\n"
				  "leaves = 2\nhosts_per_leaf = 4\necmp = packet\n"
				  "[job.perm]\npattern = permutation\nsize = 4MB\n";
	for (int short_rto = 0; short_rto < 2; short_rto++) {
		const char *sets[] = { short_rto ? "nic.rto=1ms" : NULL, NULL };
		struct scenario *s = tl_load_set(text, sets);
		struct fabric *f = tl_build_on(s, 1);
		fabric_run_until(f, s->duration_ps);
		struct net_stats st = tl_stats(f);
		if (short_rto) {
			ck_assert(fabric_finished(f));
			ck_assert_uint_eq(st.cc.timeouts, 1);
		} else {
			ck_assert(!fabric_finished(f));
			ck_assert_uint_eq(fabric_flows_done(f), 7);
			ck_assert_uint_eq(st.cc.timeouts, 0);
		}
		fabric_destroy(f);
		tl_unload(s);
	}
}
END_TEST

/* with InfiniBand congestion control, a FECN on a packet that arrives out
 * of order is answered like one in order: one BECN each (the 16 hosts of
 * perm4 below collide on the spines' downlinks, which mark) */
START_TEST(infiniband_cc_out_of_order)
{
	static const char *text = "[topology]\nspines = 4\nleaves = 4\nhosts_per_leaf = 4\n"
				  "[fabric]\ntype = infiniband\n[ib]\ncc = on\nvl_buffer = 64KiB\n"
				  "[job.perm]\npattern = permutation\nsize = 4MB\n";
	struct net_stats st;
	run_perm(text, "adaptive", 1, &st);
	ck_assert_uint_gt(st.cc.ooo_pkts, 0);
	ck_assert_uint_gt(st.cc.ce_delivered, 0);
	ck_assert_uint_eq(st.cc.cnps_sent, st.cc.ce_delivered);
}
END_TEST

/* 16 hosts on 4 leaves: spines' links down to a leaf collide, which a
 * leaf cannot see; without DCQCN their queues grow and packets arrive more
 * than the 256-PSN window ahead: discarded, NAKed, resent, and still every
 * byte is delivered once (run_perm checks each message and conservation) */
static const char *perm4 = "[topology]\nspines = 4\nleaves = 4\nhosts_per_leaf = 4\n"
			   "[nic]\ncc = none\n[job.perm]\npattern = permutation\nsize = 4MB\n";

START_TEST(window_overflow_goes_back)
{
	struct net_stats st;
	run_perm(perm4, "adaptive", 1, &st);
	ck_assert_uint_gt(st.cc.naks_sent, 0);
	ck_assert_uint_gt(st.drops.rx_discard, 0);
	ck_assert_uint_gt(st.cc.retransmitted_bytes, 0);
	ck_assert_uint_gt(st.cc.ooo_pkts, 0);
	ck_assert_uint_eq(st.payload_delivered, 16u * 4000000u);
}
END_TEST

/* a 128-host fat-tree (k = 8, 100G) whose permutation overruns windows:
 * with seed 5 an ACK overtakes a NAK on another path, so the NAK looks
 * stale, yet the packet it names is sent again (reorder_nak) and the run
 * ends instead of waiting for the 4.29 s retransmission timeout */
START_TEST(nak_overtaken_by_ack)
{
	static const char *ft = "[sim]\nseed = 5\nduration = 50ms\n[topology]\nkind = fat-tree\n"
				"k = 8\nhost_link = 100Gbps\nfabric_link = 100Gbps\n"
				"[job.perm]\npattern = permutation\nsize = 2MB\n";
	struct net_stats st;
	sim_time_ps last = run_perm(ft, "adaptive", 1, &st);
	ck_assert_uint_gt(st.cc.naks_sent, 0);
	ck_assert_int_lt(last, UNITS_PS_PER_MS);
	ck_assert_uint_eq(st.payload_delivered, 128u * 2000000u);
}
END_TEST

/* a link that is down for the whole run is never chosen */
START_TEST(failed_link_avoided)
{
	char text[512];
	snprintf(text, sizeof(text), "%s[fault.cut]\nkind = link-down\nlink = leaf0-spine1\n"
		 "start = 0us\nduration = 1s\n", perm2);
	struct net_stats st;
	run_perm(text, "adaptive", 1, &st);
	ck_assert_uint_eq(st.drops.link_down, 0);
	ck_assert_uint_eq(st.cc.retransmitted_bytes, 0);
}
END_TEST

/* the same counters on 1, 2 and 3 threads (with DCQCN marking on 4
 * leaves); test_threads.py compares the output files of adaptive runs */
START_TEST(same_on_threads)
{
	static const char *dcqcn = "[topology]\nspines = 4\nleaves = 4\nhosts_per_leaf = 4\n"
				   "[job.perm]\npattern = permutation\nsize = 4MB\n";
	struct net_stats st[3];
	for (unsigned t = 0; t < 3; t++)
		run_perm(dcqcn, "adaptive", t + 1, &st[t]);
	ck_assert_uint_gt(st[0].cc.ooo_pkts, 0);
	ck_assert_uint_gt(st[0].cc.ecn_marked, 0);
	for (unsigned t = 1; t < 3; t++) {
		ck_assert_uint_eq(st[t].payload_injected, st[0].payload_injected);
		ck_assert_uint_eq(st[t].cc.pkts_delivered, st[0].cc.pkts_delivered);
		ck_assert_uint_eq(st[t].cc.ooo_pkts, st[0].cc.ooo_pkts);
		ck_assert_uint_eq(st[t].cc.ecn_marked, st[0].cc.ecn_marked);
		ck_assert_uint_eq(st[t].cc.acks_sent, st[0].cc.acks_sent);
		ck_assert_uint_eq(st[t].cc.cnps_sent, st[0].cc.cnps_sent);
	}
}
END_TEST

/* a star has no choice of paths: refused with the key's place */
START_TEST(star_refused)
{
	struct scn_error err;
	struct scenario *s = tl_scn_try("[topology]\nkind = star\nhosts = 4\necmp = adaptive\n", &err);
	ck_assert_ptr_null(s);
	ck_assert_msg(strstr(err.msg, "topology.ecmp: adaptive needs a choice of paths") != NULL,
		      "%s", err.msg);
}
END_TEST

static Suite *make_adaptive_suite(void)
{
	Suite *s = suite_create("adaptive");
	TCase *tc = tcase_create("adaptive");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, permutation_at_ideal);
	tcase_add_test(tc, infiniband_permutation_at_ideal);
	tcase_add_test(tc, infiniband_cc_out_of_order);
	tcase_add_test(tc, spraying_tail_waits_for_the_timeout);
	tcase_add_test(tc, window_overflow_goes_back);
	tcase_add_test(tc, nak_overtaken_by_ack);
	tcase_add_test(tc, failed_link_avoided);
	tcase_add_test(tc, same_on_threads);
	tcase_add_test(tc, star_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_adaptive_suite());
}
