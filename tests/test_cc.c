/*
 * test_cc.c - congestion control end to end (docs/model.md#ecn, #dcqcn): WRED marking
 * statistics, DCQCN fairness and queue, a late joiner, go-back-N recovery
 * on a lossy fabric, and DCQCN against PFC alone on a 16-to-1 incast.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/rng.h"
#include "models/core/wred.h"
#include "models/fabric/fabric.h"
#include "models/scenario/scenario.h"
#include "sim/run/run.h"
#include "testlib.h"

/* ---- WRED: the marking fraction at a fixed queue follows the ramp ---- */

START_TEST(wred_marking_fraction)
{
	struct wred_params w = wred_params_make(150000, 1500000, 100000000); /* 10 % */
	gsl_rng *r = rng_stream(7, 1);
	static const int64_t qs[] = { 0, 150000, 400000, 825000, 1200000, 1500000 };
	const int n = 200000;
	for (unsigned i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		int marks = 0;
		for (int k = 0; k < n; k++)
			marks += wred_mark(&w, qs[i], (uint32_t)gsl_rng_get(r));
		double p = qs[i] <= 150000 ? 0 : 0.1 * (double)(qs[i] - 150000) / 1350000.0;
		double sd = sqrt(p * (1 - p) / n);
		ck_assert_msg(fabs((double)marks / n - p) <= 4 * sd + 1e-9,
			      "q %lld: marked %.5f, expected %.5f", (long long)qs[i],
			      (double)marks / n, p);
	}
	/* nothing at or below kmin, everything above kmax */
	for (uint32_t rnd = 0; rnd < 1000; rnd++) {
		ck_assert(!wred_mark(&w, 150000, rnd * 4294967u));
		ck_assert(wred_mark(&w, 1500001, 0xFFFFFFFFu - rnd));
	}
	rng_free(r);
}
END_TEST

/* ---- DCQCN fairness on an N-to-1 incast ----
 *
 * With the hpcc profile (no byte counter, a CNP for every marked packet)
 * the flows converge to C/N.  The nvidia firmware defaults do not: the
 * per-QP CNP interval (4 us) gives every flow the same cuts whatever its
 * rate, and the byte counter (2 MB) raises fast flows more often, so a
 * 41/59 split of two flows persists for hundreds of milliseconds (turning
 * both knobs off restores fairness).  That is a property of the knobs, not
 * of the simulator, and a lesson worth showing; the test pins the fair
 * variant.  It also pins today's cut and pacing timing (cut_on = cnp,
 * rate_change_reschedules = true): with HPCC's (the hpcc profile's
 * defaults: cuts on a 4 us grid, paced send times that stay) the shares
 * over 100-200 ms spread more, measured 0.89-1.12 of C/8 at N 8 and
 * 0.93-1.08 at N 16, past the 10 % bound. */

struct window {
	double share[16]; /* per-flow goodput over the window, bytes */
	double qmean;     /* time-averaged queue at the receiver port, bytes */
	uint64_t pauses;  /* XOFF frames sent during the window */
};

/* run to t0, then measure until t1 sampling the queue every 1 us */
static void measure(struct fabric *f, uint32_t nflows, sim_time_ps t0, sim_time_ps t1,
		    struct window *w)
{
	int64_t start[16];
	fabric_run_until(f, t0);
	uint64_t pauses = tl_stats(f).pause_frames;
	for (uint32_t i = 0; i < nflows; i++)
		start[i] = tl_live(f, i)->rx_bytes;
	double qsum = 0;
	int samples = 0;
	for (sim_time_ps t = t0; t < t1; t += UNITS_PS_PER_US, samples++) {
		fabric_run_until(f, t);
		qsum += (double)f->sws[0].ports[0].q[3].bytes;
	}
	fabric_run_until(f, t1);
	for (uint32_t i = 0; i < nflows; i++)
		w->share[i] = (double)(tl_live(f, i)->rx_bytes - start[i]);
	w->qmean = qsum / samples;
	w->pauses = tl_stats(f).pause_frames - pauses;
}

static double jain(const double *x, uint32_t n)
{
	double s = 0, s2 = 0;
	for (uint32_t i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	return s * s / (n * s2);
}

START_TEST(dcqcn_fair_share_and_queue)
{
	static const uint32_t ns[] = { 2, 8, 16 };
	for (unsigned k = 0; k < 3; k++) {
		uint32_t n = ns[k];
		char text[1024];
		snprintf(text, sizeof(text),
			 "[topology]\nkind = star\nhosts = %u\nhost_link = 100Gbps\n"
			 "[dcqcn]\nprofile = hpcc\ncut_on = cnp\n"
			 "rate_change_reschedules = true\n"
			 "[job.incast]\npattern = incast\ndst = 0\nsize = 10GB\n",
			 n + 1);
		struct scenario *scn = tl_load(text);
		struct fabric *f = tl_build(scn);
		struct window w = {0};
		/* the transient of 16 flows takes tens of ms at 20 Mbps per step */
		measure(f, n, 100 * UNITS_PS_PER_MS, 200 * UNITS_PS_PER_MS, &w);
		double fair = 100e9 / 8 * 100e-3 * 4096.0 / 4178.0 / n;
		for (uint32_t i = 0; i < n; i++) {
			ck_assert_msg(fabs(w.share[i] - fair) <= 0.1 * fair,
				      "N %u: flow %u got %.0f B, fair share %.0f", n, i,
				      w.share[i], fair);
		}
		ck_assert_msg(jain(w.share, n) > 0.95, "N %u: Jain %.3f", n, jain(w.share, n));
		ck_assert_msg(w.qmean > 150000 && w.qmean < 1500000,
			      "N %u: mean queue %.0f B not between Kmin and Kmax", n, w.qmean);
		ck_assert_uint_eq(w.pauses, 0);
		ck_assert_uint_gt(tl_stats(f).cc.cnps_received, 0);
		tl_conserved(f);
		fabric_destroy(f);
		tl_unload(scn);
	}
}
END_TEST

/* two flows converged, a third joins: all three converge to C/3 (with the
 * timing pinned as above: HPCC's gives the third flow 1.11 of its share) */
START_TEST(dcqcn_late_joiner)
{
	struct scenario *scn = tl_load("[topology]\nkind = star\nhosts = 4\nhost_link = 100Gbps\n"
				    "[dcqcn]\nprofile = hpcc\ncut_on = cnp\n"
				    "rate_change_reschedules = true\n"
				    "[job.early]\npattern = incast\nsenders = 1-2\ndst = 0\n"
				    "size = 10GB\n"
				    "[job.late]\npattern = incast\nsenders = 3\ndst = 0\nsize = 10GB\n"
				    "start = 20ms\n");
	struct fabric *f = tl_build(scn);
	struct window w = {0};
	measure(f, 2, 15 * UNITS_PS_PER_MS, 20 * UNITS_PS_PER_MS, &w);
	double half = 100e9 / 8 * 5e-3 * 4096.0 / 4178.0 / 2;
	ck_assert_msg(fabs(w.share[0] - half) < 0.1 * half && fabs(w.share[1] - half) < 0.1 * half,
		      "before: %.0f %.0f of %.0f", w.share[0], w.share[1], half);
	measure(f, 3, 50 * UNITS_PS_PER_MS, 60 * UNITS_PS_PER_MS, &w);
	double third = 100e9 / 8 * 10e-3 * 4096.0 / 4178.0 / 3;
	for (int i = 0; i < 3; i++)
		ck_assert_msg(fabs(w.share[i] - third) < 0.1 * third, "after: flow %d %.0f of %.0f",
			      i, w.share[i], third);
	tl_conserved(f);
	fabric_destroy(f);
	tl_unload(scn);
}
END_TEST

/* ---- lossy fabric: PFC off, drops recovered by go-back-N ---- */

START_TEST(go_back_n_recovers_drops)
{
	struct scenario *scn = tl_load("[topology]\nkind = star\nhosts = 9\nhost_link = 100Gbps\n"
				    "[buffer]\nsize = 2MB\n[pfc]\npriorities =\n"
				    "[nic]\ncc = none\nrto = 200us\n"
				    "[job.incast]\npattern = incast\ndst = 0\nsize = 2MB\n");
	struct fabric *f = tl_build(scn);
	fabric_run_until(f, 1000 * UNITS_PS_PER_MS);
	ck_assert_msg(fabric_finished(f), "%llu of %llu flows done",
		      (unsigned long long)fabric_flows_done(f),
		      (unsigned long long)fabric_flows_total(f));
	ck_assert_uint_gt(tl_stats(f).drops.lossy, 0);
	ck_assert_uint_eq(tl_stats(f).drops.lossless, 0);
	ck_assert_uint_gt(tl_stats(f).cc.retransmitted_bytes, 0);
	ck_assert_uint_gt(tl_stats(f).cc.naks_sent + tl_stats(f).cc.timeouts, 0);
	uint64_t total = fabric_bytes_total(f);
	ck_assert_uint_eq(tl_stats(f).payload_delivered, total);
	/* every retransmitted byte was injected once more: injected =
	 * delivered + dropped (switch and receiver) + in flight */
	ck_assert_uint_ge(tl_stats(f).payload_injected, total + tl_stats(f).cc.retransmitted_bytes / 2);
	tl_conserved(f);
	fabric_destroy(f);
	tl_unload(scn);
}
END_TEST

/* go-back-N edge cases found by random scenarios: an acknowledgement that
 * arrives while the sender is resending after a timeout (the resend skips
 * what it covers, and a QP left with nothing to send leaves the ring), and
 * NAKs that a timeout made stale.  Lossy small messages with a short RTO,
 * then a pause storm that holds a ring and an all-to-all past their RTO. */
START_TEST(go_back_n_timeouts_and_late_acks)
{
	static const char *const texts[] = {
		"[topology]\nspines = 3\nleaves = 4\nhosts_per_leaf = 4\nhost_link = 25Gbps\n"
		"fabric_link = 100Gbps\nhost_cable = 1m\n[buffer]\nsize = 16MB\ndynamic_th = 1\n"
		"[pfc]\npriorities =\n[nic]\nrto = 100us\n[dcqcn]\nprofile = hpcc\n"
		"[qos]\nscheduler = dwrr\n[sim]\nseed = 14\n"
		"[job.j0]\npattern = incast\ndst = 8\nsize = 64KB\nskew = 20us\n",
		"[topology]\nkind = star\nhosts = 9\nhost_link = 100Gbps\necmp = packet\n"
		"[buffer]\nsize = 4MB\ndynamic_th = -3\n[nic]\nrto = 100us\n[dcqcn]\nprofile = paper\n"
		"[sim]\nseed = 22\n"
		"[job.j0]\npattern = ring-allreduce\nsize = 4MB\nslice = 64KB\n"
		"[job.j1]\npattern = incast\ndst = 4\nsize = 64KB\n"
		"[job.j2]\npattern = alltoall\nsize = 2MB\n"
		"[fault.f]\nkind = pause-storm\nstart = 50us\nnode = h4\nduration = 200us\n",
	};
	for (int k = 0; k < 2; k++) {
		struct scenario *scn = tl_load(texts[k]);
		struct fabric *f = tl_build(scn);
		fabric_run_until(f, 100 * UNITS_PS_PER_MS);
		ck_assert_msg(fabric_finished(f), "case %d: %llu of %llu flows done", k,
			      (unsigned long long)fabric_flows_done(f),
			      (unsigned long long)fabric_flows_total(f));
		ck_assert_uint_gt(tl_stats(f).cc.timeouts, 0);
		tl_conserved(f);
		fabric_destroy(f);
		tl_unload(scn);
	}
}
END_TEST

/* ---- DCQCN against PFC alone: 16-to-1 at 400G, default thresholds ---- */

START_TEST(dcqcn_lowers_queue_against_pfc_only)
{
	static const char *base = "[topology]\nkind = star\nhosts = 17\n"
				  "[job.incast]\npattern = incast\ndst = 0\nsize = 32MB\n";
	struct scenario *scn = tl_load(base);
	struct run_opts o = {0};
	struct run_result cc, none;
	ck_assert_int_eq(run_scenario(scn, &o, &cc), RUN_OK);
	tl_unload(scn);
	char text[512];
	snprintf(text, sizeof(text), "%s[nic]\ncc = none\n", base);
	scn = tl_load(text);
	ck_assert_int_eq(run_scenario(scn, &o, &none), RUN_OK);
	tl_unload(scn);
	ck_assert_uint_gt(cc.cnps_sent, 0);
	ck_assert_uint_gt(cc.ecn_marked_pkts, 0);
	ck_assert_uint_eq(none.cnps_sent, 0);
	ck_assert_msg(cc.max_queue_bytes < none.max_queue_bytes,
		      "peak queue with DCQCN %llu, without %llu",
		      (unsigned long long)cc.max_queue_bytes,
		      (unsigned long long)none.max_queue_bytes);
	ck_assert_uint_eq(cc.flows_completed, 16);
	ck_assert_uint_eq(cc.drops_lossless, 0);
}
END_TEST

static Suite *make_cc_suite(void)
{
	Suite *s = suite_create("cc");
	TCase *tc = tcase_create("dcqcn");
	tcase_add_test(tc, wred_marking_fraction);
	tcase_add_test(tc, dcqcn_fair_share_and_queue);
	tcase_add_test(tc, dcqcn_late_joiner);
	tcase_add_test(tc, go_back_n_recovers_drops);
	tcase_add_test(tc, go_back_n_timeouts_and_late_acks);
	tcase_add_test(tc, dcqcn_lowers_queue_against_pfc_only);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_cc_suite());
}
