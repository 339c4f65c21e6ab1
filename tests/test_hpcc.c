/*
 * test_hpcc.c - the reaction point's timing as HPCC's ns-3 model has it
 * (docs/model.md#dcqcn, dcqcn.cut_on and dcqcn.rate_change_reschedules):
 * cuts on a timer started at the first CNP, in closed form; a paced send
 * time that stays when the rate rises; the hpcc profile's first cut later
 * than nvidia's on a small incast; a higher start-up queue with the timer
 * than with cuts at the CNP on an 8-to-1 incast; and the same run twice.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "models/core/dcqcn.h"
#include "models/fabric/fabric.h"
#include "models/scenario/scenario.h"
#include "testlib.h"

#define US UNITS_PS_PER_US
#define LINE 100e9

/* the hpcc profile's knobs (docs/model.md#dcqcn), with its timer */
static struct dcqcn_params hpcc_timer(void)
{
	return (struct dcqcn_params){
		.variant = DCQCN_HPCC, .line_rate_bps = LINE, .time_reset_ps = 300 * US,
		.byte_reset_bytes = 0, .threshold = 1, .ai_bps = 20e6, .hai_bps = 200e6,
		.gd = 11, .min_dec_fac_pct = 0, .min_rate_bps = 1000e6, .g = 1.0 / 256,
		.alpha_period_ps = 1 * US, .monitor_period_ps = 4 * US,
		.initial_alpha = 1023.0 / 1024, .clamp_after_time_inc = 1, .cut_on_timer = 1 };
}

/* the rate at t of a copy of q: what the QP would see if looked at then */
static double rate_at(const struct dcqcn_params *p, const struct dcqcn_qp *q, sim_time_ps t)
{
	struct dcqcn_qp c = *q;
	return dcqcn_rate(p, &c, t);
}

/*
 * The first CNP at t0 = 10 us.  With the timer the rate stays at line rate
 * until t0 + P (P = 4 us) and is cut then, with the alpha of four periods:
 * the first counts the CNP, so alpha = ((1 - g) a0 + g)(1 - g)^3 with
 * a0 = 1023/1024, and Rc = L (1 - alpha / 2) (gd 11, no min_dec_fac bound).
 * Cutting at the CNP (cut_on_timer 0) gives L (1 - a0 / 2) at t0 itself.
 */
START_TEST(timer_first_cut_one_period_after_first_cnp)
{
	struct dcqcn_params p = hpcc_timer();
	struct dcqcn_qp q;
	const sim_time_ps t0 = 10 * US, P = p.monitor_period_ps;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, t0);
	ck_assert_uint_eq(q.cuts, 0);
	ck_assert(rate_at(&p, &q, t0) == LINE);
	ck_assert(rate_at(&p, &q, t0 + P - 1) == LINE);
	double g = p.g, a0 = p.initial_alpha;
	double alpha = ((1 - g) * a0 + g) * (1 - g) * (1 - g) * (1 - g);
	double want = LINE - LINE * alpha / 2;
	double got = rate_at(&p, &q, t0 + P);
	ck_assert_msg(fabs(got - want) <= 1e-12 * LINE, "Rc at t0 + P %.6f, closed form %.6f",
		      got, want);
	dcqcn_advance(&p, &q, t0 + P);
	ck_assert_uint_eq(q.cuts, 1);
	ck_assert_int_eq(q.last_cut_ps, t0 + P);

	/* the same CNP cutting at once */
	struct dcqcn_params c = p;
	c.cut_on_timer = 0;
	dcqcn_init(&c, &q);
	dcqcn_on_cnp(&c, &q, t0);
	ck_assert_uint_eq(q.cuts, 1);
	ck_assert(q.rc_bps == LINE - LINE * a0 / 2);
}
END_TEST

/*
 * After the first cut the timer keeps its grid t0 + k P: a CNP between two
 * ticks is cut at the next tick, a CNP exactly at a tick (after that tick's
 * check) at the one after, further CNPs before a tick add nothing, and a
 * tick without a CNP since the last cuts nothing.  The increase timer
 * starts at the first cut, not at the first CNP.
 */
START_TEST(timer_keeps_its_grid)
{
	struct dcqcn_params p = hpcc_timer();
	p.time_reset_ps = 10 * US;
	struct dcqcn_qp q;
	const sim_time_ps t0 = 3 * US + 7, P = p.monitor_period_ps;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, t0);
	/* no increase 10 us after the first CNP: the timer starts at t0 + P */
	dcqcn_advance(&p, &q, t0 + 10 * US);
	ck_assert_uint_eq(q.cuts, 1);
	ck_assert_uint_eq(q.increases, 0);
	dcqcn_advance(&p, &q, t0 + P + 10 * US - 1);
	ck_assert_uint_eq(q.increases, 0);
	dcqcn_advance(&p, &q, t0 + P + 10 * US);
	ck_assert_uint_eq(q.increases, 1);

	/* a CNP at t0 + 4.4 P: cut at t0 + 5 P, not at once */
	dcqcn_on_cnp(&p, &q, t0 + 4 * P + 2 * P / 5);
	dcqcn_on_cnp(&p, &q, t0 + 4 * P + 3 * P / 5);
	ck_assert_uint_eq(q.cuts, 1);
	dcqcn_advance(&p, &q, t0 + 5 * P - 1);
	ck_assert_uint_eq(q.cuts, 1);
	dcqcn_advance(&p, &q, t0 + 5 * P);
	ck_assert_uint_eq(q.cuts, 2);
	ck_assert_int_eq(q.last_cut_ps, t0 + 5 * P);
	/* a CNP at a tick comes after its check: cut at the next tick */
	dcqcn_on_cnp(&p, &q, t0 + 7 * P);
	dcqcn_advance(&p, &q, t0 + 8 * P - 1);
	ck_assert_uint_eq(q.cuts, 2);
	dcqcn_advance(&p, &q, t0 + 8 * P);
	ck_assert_uint_eq(q.cuts, 3);
	ck_assert_int_eq(q.last_cut_ps, t0 + 8 * P);
	/* no CNP: no cut however long */
	dcqcn_advance(&p, &q, t0 + 100 * P);
	ck_assert_uint_eq(q.cuts, 3);
}
END_TEST

/* rate_to_set_on_first_cnp sets the rate at the first CNP; the first cut
 * still comes one period later */
START_TEST(timer_with_first_cnp_rate)
{
	struct dcqcn_params p = hpcc_timer();
	p.first_cnp_rate_bps = 40e9;
	struct dcqcn_qp q;
	const sim_time_ps t0 = 5 * US, P = p.monitor_period_ps;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, t0);
	ck_assert(q.rc_bps == 40e9 && q.rt_bps == 40e9);
	ck_assert(rate_at(&p, &q, t0 + P - 1) == 40e9);
	ck_assert(rate_at(&p, &q, t0 + P) < 40e9);
}
END_TEST

/* ---- the NIC ---- */

/* an incast of `senders` to h0 on a 100 Gbps star, profile hpcc with the
 * given extra [dcqcn] lines */
static struct fabric *incast(const char *extra, uint32_t senders, struct scenario **scn)
{
	char text[1024];
	snprintf(text, sizeof(text),
		 "[topology]\nkind = star\nhosts = %u\nhost_link = 100Gbps\n"
		 "[dcqcn]\nprofile = hpcc\n%s"
		 "[job.incast]\npattern = incast\ndst = 0\nsize = 100MB\n",
		 senders + 1, extra);
	*scn = tl_load(text);
	return tl_build(*scn);
}

/*
 * Waits of QP 0 in a 2-to-1 incast whose increase timer fires every 1 us,
 * so that the rate often rises while a QP waits.  For each wait: the send
 * time it began with, due = last send + frame x 8 / Rc then (with
 * rescheduling off, the pacing event's own time), and whether the packet
 * left before it, at it, or later; `rose` counts the waits in which an
 * increase event came (the rate rose, unless a cut came too).
 */
struct waits {
	int n, rose, early, on_time, late;
};

static void look_at_waits(int reschedule, struct waits *w)
{
	char extra[128];
	snprintf(extra, sizeof(extra), "rpg_time_reset = 1\nrate_change_reschedules = %s\n",
		 reschedule ? "true" : "false");
	struct scenario *scn;
	struct fabric *f = incast(extra, 2, &scn);
	const struct dcqcn_params *p = &f->niccfg.dcqcn_params;
	*w = (struct waits){ 0 };
	for (sim_time_ps t = 0; t < 300 * US && w->n < 400; t += 10000) {
		fabric_run_until(f, t);
		struct qp *q = &f->qps[tl_live(f, 0)->qp];
		struct net *net = &f->parts[0].net;
		if (!q->pacing || !nic_qp_cc_of(net, q).dc.reacting)
			continue;
		const struct qp_cc *c = &net->qp_cc[q->id]; /* made: it reacts */
		/* a wait began since the last step: the time it was set for */
		sim_time_ps due = reschedule ? c->pace_from_ps + (sim_time_ps)((double)c->last_wire *
									 8e12 / c->dc.rc_bps)
					     : c->pace_from_ps;
		if (!reschedule) {
			ck_assert_uint_eq(c->last_wire, 0);
			ck_assert_int_eq(c->pace_ev.time, due);
		}
		uint32_t psn = q->psn_nxt;
		uint64_t incs = c->dc.increases; /* as of the send that began the wait */
		if (due - 1 > t)
			fabric_run_until(f, due - 1);
		int left_early = q->psn_nxt != psn;
		fabric_run_until(f, due);
		int left = q->psn_nxt != psn;
		w->n++;
		w->early += left_early;
		w->on_time += left && !left_early;
		w->late += !left;
		struct dcqcn_qp at_due = c->dc;
		dcqcn_advance(p, &at_due, due);
		w->rose += at_due.increases > incs;
		t = due;
	}
	tl_conserved(f);
	fabric_destroy(f);
	tl_unload(scn);
}

/* rescheduling off: every wait ends at the time set when it began, even
 * when the rate rose meanwhile; on: some end before it */
START_TEST(fixed_send_time_stays_when_rate_rises)
{
	struct waits w;
	look_at_waits(0, &w);
	ck_assert_msg(w.n >= 20 && w.rose >= 5, "waits %d, with a rise %d", w.n, w.rose);
	ck_assert_msg(w.early == 0 && w.late == 0 && w.on_time == w.n,
		      "fixed: %d early, %d late of %d", w.early, w.late, w.n);
	look_at_waits(1, &w);
	ck_assert_msg(w.n >= 20 && w.rose >= 5, "waits %d, with a rise %d", w.n, w.rose);
	ck_assert_msg(w.early > 0, "rescheduled: none of %d waits (%d with a rise) ended early",
		      w.n, w.rose);
}
END_TEST

/*
 * The time each QP of an incast first reacts (its first CNP arrived) and
 * first cuts, to 100 ns: a copy of its DCQCN state advanced to each step
 * says what the QP would do if looked at then (the QP itself is looked at
 * only when it sends or gets a CNP).  Returns the QPs that cut.
 */
static int first_cuts(struct fabric *f, uint32_t nqp, sim_time_ps cnp_at[], sim_time_ps cut_at[])
{
	const struct dcqcn_params *p = &f->niccfg.dcqcn_params;
	int cut = 0;
	for (uint32_t i = 0; i < nqp; i++)
		cnp_at[i] = cut_at[i] = -1;
	for (sim_time_ps t = 0; t <= 100 * US; t += 100000) {
		fabric_run_until(f, t);
		for (uint32_t i = 0; i < nqp; i++) {
			const struct qp *q = &f->qps[tl_live(f, i)->qp];
			struct dcqcn_qp c = nic_qp_cc_of(&f->parts[0].net, q).dc;
			if (!c.reacting)
				continue;
			if (cnp_at[i] < 0)
				cnp_at[i] = t;
			dcqcn_advance(p, &c, t);
			if (cut_at[i] < 0 && c.cuts > 0) {
				cut_at[i] = t;
				cut++;
			}
		}
	}
	return cut;
}

/*
 * A 4-to-1 incast: with nvidia every QP cuts at its first CNP (seen in
 * the same 100 ns step); with hpcc (cut_on = timer) one decrease period
 * (4 us) later: 40 steps, give or take the one in which the CNP came.
 */
START_TEST(hpcc_first_cut_later_than_nvidia)
{
	static const char *const profiles[] = { "nvidia", "hpcc" };
	for (int k = 0; k < 2; k++) {
		char text[512];
		snprintf(text, sizeof(text),
			 "[topology]\nkind = star\nhosts = 5\nhost_link = 100Gbps\n"
			 "[dcqcn]\nprofile = %s\n"
			 "[job.incast]\npattern = incast\ndst = 0\nsize = 100MB\n",
			 profiles[k]);
		struct scenario *scn = tl_load(text);
		struct fabric *f = tl_build(scn);
		sim_time_ps cnp_at[4], cut_at[4];
		ck_assert_int_eq(first_cuts(f, 4, cnp_at, cut_at), 4);
		for (int i = 0; i < 4; i++) {
			sim_time_ps lag = cut_at[i] - cnp_at[i];
			if (k == 0)
				ck_assert_msg(lag == 0, "nvidia QP %d: cut %lld ps after its first CNP",
					      i, (long long)lag);
			else
				ck_assert_msg(lag >= 4 * US - 100000 && lag <= 4 * US + 100000,
					      "hpcc QP %d: cut %lld ps after its first CNP", i,
					      (long long)lag);
		}
		fabric_destroy(f);
		tl_unload(scn);
	}
}
END_TEST

/* the peak of h0's port queue over the first `until`, sampled every 100 ns,
 * and the CNPs the senders received */
static void startup(const char *extra, sim_time_ps until, int64_t *peak, uint64_t *cnps)
{
	struct scenario *scn;
	struct fabric *f = incast(extra, 8, &scn);
	*peak = 0;
	for (sim_time_ps t = 0; t <= until; t += 100000) {
		fabric_run_until(f, t);
		int64_t b = f->sws[0].ports[0].q[3].bytes;
		if (b > *peak)
			*peak = b;
	}
	*cnps = tl_stats(f).cc.cnps_received;
	tl_conserved(f);
	fabric_destroy(f);
	tl_unload(scn);
}

/*
 * 8-to-1 at 100 Gbps.  Until its first cut a sender runs at line rate in
 * both modes; with the timer each first cut comes 4 us after the QP's
 * first CNP instead of at it, so the queue, filling at 7 x 100 Gbps until
 * the cuts, takes up to 7 x 12.5 GB/s x 4 us = 350 KB more before the
 * senders slow down: the start-up peak is higher (asserted: by 100 KB at
 * least, under PFC's reach).  Same knobs otherwise (rescheduling off in
 * both).  Then determinism: the same run twice gives the same figures.
 */
START_TEST(timer_startup_peak_higher_and_deterministic)
{
	int64_t peak_timer, peak_cnp, again;
	uint64_t cnps_timer, cnps_cnp, cnps_again;
	startup("cut_on = timer\n", 50 * US, &peak_timer, &cnps_timer);
	startup("cut_on = cnp\n", 50 * US, &peak_cnp, &cnps_cnp);
	ck_assert_msg(peak_timer >= peak_cnp + 100000, "start-up peak: timer %lld B, cnp %lld B",
		      (long long)peak_timer, (long long)peak_cnp);
	ck_assert_uint_gt(cnps_timer, 0);
	startup("cut_on = timer\n", 50 * US, &again, &cnps_again);
	ck_assert_int_eq(again, peak_timer);
	ck_assert_uint_eq(cnps_again, cnps_timer);
}
END_TEST

static Suite *make_hpcc_suite(void)
{
	Suite *s = suite_create("hpcc");
	TCase *tc = tcase_create("timing");
	tcase_add_test(tc, timer_first_cut_one_period_after_first_cnp);
	tcase_add_test(tc, timer_keeps_its_grid);
	tcase_add_test(tc, timer_with_first_cnp_rate);
	tcase_add_test(tc, fixed_send_time_stays_when_rate_rises);
	tcase_add_test(tc, hpcc_first_cut_later_than_nvidia);
	tcase_add_test(tc, timer_startup_peak_higher_and_deterministic);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_hpcc_suite());
}
