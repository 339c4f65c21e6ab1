/*
 * test_dcqcn.c - the DCQCN reaction point (dcqcn.h, docs/model.md#dcqcn): alpha decay
 * and half-lives, cut size, one cut per monitor period, fast recovery,
 * increase stages per profile, byte-counter intervals, clamping, the order
 * of simultaneous events, and the lazy module against a step-by-step
 * reference driven by the same pseudo-random CNPs and sends, with cuts at
 * the CNP and on the timer (cut_on = timer, its reference a check event
 * every period; tests/test_hpcc.c has the timer's closed forms).
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "models/core/dcqcn.h"
#include "testlib.h"

#define US UNITS_PS_PER_US
#define MS UNITS_PS_PER_MS
#define LINE 100e9
#define FRAME_WIRE 4178 /* 4096 B payload + 62 B headers + 20 B preamble/IFG */

/* docs/model.md#dcqcn defaults per profile */
static struct dcqcn_params nvidia(double line)
{
	return (struct dcqcn_params){
		.variant = DCQCN_NVIDIA, .line_rate_bps = line, .time_reset_ps = 300 * US,
		.byte_reset_bytes = 32767 * 64, .threshold = 1, .ai_bps = 5e6, .hai_bps = 50e6,
		.gd = 11, .min_dec_fac_pct = 50, .min_rate_bps = 1e6, .g = 5.0 / 1024,
		.alpha_period_ps = 1 * US, .monitor_period_ps = 4 * US,
		.initial_alpha = 1023.0 / 1024, .first_cnp_rate_bps = 0, .clamp_tgt_rate = 0,
		.clamp_after_time_inc = 1 };
}

static struct dcqcn_params paper(double line)
{
	return (struct dcqcn_params){
		.variant = DCQCN_PAPER, .line_rate_bps = line, .time_reset_ps = 55 * US,
		.byte_reset_bytes = 10000000, .threshold = 5, .ai_bps = 40e6, .hai_bps = 200e6,
		.gd = 11, .min_dec_fac_pct = 0, .min_rate_bps = 1e6, .g = 1.0 / 256,
		.alpha_period_ps = 55 * US, .monitor_period_ps = 0,
		.initial_alpha = 1023.0 / 1024, .first_cnp_rate_bps = 0, .clamp_tgt_rate = 1,
		.clamp_after_time_inc = 1 };
}

static struct dcqcn_params hpcc(double line)
{
	return (struct dcqcn_params){
		.variant = DCQCN_HPCC, .line_rate_bps = line, .time_reset_ps = 300 * US,
		.byte_reset_bytes = 0, .threshold = 1, .ai_bps = 20e6, .hai_bps = 200e6,
		.gd = 11, .min_dec_fac_pct = 0, .min_rate_bps = 1000e6, .g = 1.0 / 256,
		.alpha_period_ps = 1 * US, .monitor_period_ps = 4 * US,
		.initial_alpha = 1023.0 / 1024, .first_cnp_rate_bps = 0, .clamp_tgt_rate = 0,
		.clamp_after_time_inc = 1 };
}

static int close_rel(double a, double b, double tol)
{
	double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
	return fabs(a - b) <= tol * m || fabs(a - b) < 1e-300;
}

/* ---- 1. alpha ---- */

/*
 * NVIDIA: g = 5/1024, one period per us.  The first CNP (t = 0) sets alpha =
 * 1023/1024 and counts for the first period, so the tick at 1 us gives
 * alpha1 = (1019/1024) 1023/1024 + 5/1024 = 1047557/2^20 (exact in binary);
 * without further CNPs every later us multiplies by exactly 1019/1024.
 *
 * Half-life: ln 2 / -ln(1019/1024) = 141.61 periods (to first order
 * ln 2 x 1024/5 = 141.96): alpha falls below alpha1/2 between 141 and 142 us
 * after the tick at 1 us.  docs/model.md's "about 142 us" is this 141.6 rounded;
 * any window such as 138-142 us contains it; we assert the closed form and
 * the exact one-period window.
 * PAPER: ln 2 / -ln(255/256) = 177.10 periods of 55 us = 9.74 ms ("about
 * 9.7 ms"): below half between the 177th and the 178th period.
 */
START_TEST(alpha_nvidia_decay)
{
	struct dcqcn_params p = nvidia(LINE);
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	ck_assert(q.alpha == 1023.0 / 1024);
	dcqcn_advance(&p, &q, 1 * US - 1);
	ck_assert(q.alpha == 1023.0 / 1024);
	dcqcn_advance(&p, &q, 1 * US);
	ck_assert(q.alpha == 1047557.0 / 1048576);
	ck_assert(q.alpha == (1019.0 / 1024) * (1023.0 / 1024) + 5.0 / 1024);
	double a1 = q.alpha, a = a1;
	for (int k = 1; k <= 300; k++) {
		dcqcn_advance(&p, &q, (1 + k) * US);
		ck_assert_msg(q.alpha == a * (1019.0 / 1024), "period %d", k);
		a = q.alpha;
		ck_assert(close_rel(q.alpha, a1 * pow(1019.0 / 1024, k), 1e-13));
	}
	double hl = log(2.0) / -log1p(-5.0 / 1024);
	ck_assert(hl > 141.6 && hl < 141.62);
	/* lazily, one jump each */
	struct dcqcn_qp h;
	dcqcn_init(&p, &h);
	dcqcn_on_cnp(&p, &h, 0);
	dcqcn_advance(&p, &h, (1 + 141) * US);
	ck_assert(h.alpha > a1 / 2);
	dcqcn_init(&p, &h);
	dcqcn_on_cnp(&p, &h, 0);
	dcqcn_advance(&p, &h, (1 + 142) * US);
	ck_assert(h.alpha < a1 / 2);
	/* a long jump (pow) agrees with 10^4 multiplications within 1e-12 */
	dcqcn_init(&p, &h);
	dcqcn_on_cnp(&p, &h, 0);
	dcqcn_advance(&p, &h, 10001 * US);
	double m = a1;
	for (int k = 0; k < 10000; k++)
		m *= 1019.0 / 1024;
	ck_assert(close_rel(h.alpha, m, 1e-12));
}
END_TEST

START_TEST(alpha_nvidia_cnp_periods)
{
	/* CNPs at 0, 0.5 and 1.5 us: periods (0,1] and (1,2] saw one, (2,3] none */
	struct dcqcn_params p = nvidia(LINE);
	double g = 5.0 / 1024, a0 = 1023.0 / 1024;
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	dcqcn_on_cnp(&p, &q, US / 2);
	dcqcn_on_cnp(&p, &q, 3 * US / 2);
	double a1 = (1 - g) * a0 + g, a2 = (1 - g) * a1 + g, a3 = (1 - g) * a2;
	ck_assert(q.alpha == a1);
	dcqcn_advance(&p, &q, 2 * US);
	ck_assert(q.alpha == a2);
	dcqcn_advance(&p, &q, 3 * US);
	ck_assert(q.alpha == a3);
	/* a CNP exactly on a tick belongs to the period that starts there */
	dcqcn_on_cnp(&p, &q, 4 * US);
	ck_assert(q.alpha == (1 - g) * a3);
	dcqcn_advance(&p, &q, 5 * US);
	ck_assert(q.alpha == (1 - g) * ((1 - g) * a3) + g);
}
END_TEST

START_TEST(alpha_paper_decay)
{
	struct dcqcn_params p = paper(LINE);
	double g = 1.0 / 256, a0 = 1023.0 / 1024;
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	double a1 = (1 - g) * a0 + g; /* updated on the CNP itself */
	ck_assert(q.alpha == a1);
	dcqcn_advance(&p, &q, 55 * US - 1);
	ck_assert(q.alpha == a1);
	dcqcn_advance(&p, &q, 55 * US);
	ck_assert(q.alpha == a1 * (255.0 / 256));
	/* a CNP restarts the 55 us decay clock */
	dcqcn_on_cnp(&p, &q, 80 * US);
	double a2 = (1 - g) * (a1 * (255.0 / 256)) + g;
	ck_assert(q.alpha == a2);
	dcqcn_advance(&p, &q, 135 * US - 1);
	ck_assert(q.alpha == a2);
	dcqcn_advance(&p, &q, 135 * US);
	ck_assert(q.alpha == a2 * (255.0 / 256));

	double hl = log(2.0) / -log1p(-1.0 / 256);
	ck_assert(hl > 177.09 && hl < 177.11);
	ck_assert(hl * 55e-3 > 9.73 && hl * 55e-3 < 9.75); /* ms */
	struct dcqcn_qp h;
	dcqcn_init(&p, &h);
	dcqcn_on_cnp(&p, &h, 0);
	dcqcn_advance(&p, &h, 177 * 55 * US); /* 9.735 ms */
	ck_assert(h.alpha > a1 / 2);
	dcqcn_advance(&p, &h, 178 * 55 * US); /* 9.790 ms */
	ck_assert(h.alpha < a1 / 2);
}
END_TEST

/* ---- 2. cut size ---- */

static double first_cut(struct dcqcn_params p)
{
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	ck_assert_uint_eq(q.cuts, 1);
	return q.rc_bps;
}

/*
 * docs/model.md#dcqcn says one cut at alpha = 1023/1024 with gd 11 and min_dec_fac 50
 * "gives exactly Rc/2".  With B6's own formula the cut is
 * min(Rc 1023/2048, Rc 50/100) = Rc 1023/2048, which leaves Rc 1025/2048
 * (50.05 %), not Rc/2: the min_dec_fac bound (50 %) is larger than the alpha
 * cut and does not bind.  Exactly Rc/2 needs alpha = 1 (or the bound to
 * bind, e.g. gd 10).  We test what the formula gives.
 */
START_TEST(cut_size)
{
	struct dcqcn_params p = nvidia(LINE);
	ck_assert(first_cut(p) == LINE * 1025 / 2048);
	ck_assert(first_cut(p) == 50048828125.0);
	p.initial_alpha = 1.0;
	ck_assert(first_cut(p) == LINE / 2);
	p.min_dec_fac_pct = 60; /* the cut is limited to 40 % */
	ck_assert(first_cut(p) == LINE * 0.6);
	p.min_dec_fac_pct = 100; /* no cut at all */
	ck_assert(first_cut(p) == LINE);
	p = nvidia(LINE);
	p.gd = 10; /* alpha/1: bounded by min_dec_fac 50 to exactly Rc/2 */
	ck_assert(first_cut(p) == LINE / 2);
	p.gd = 12;
	ck_assert(first_cut(p) == LINE - LINE * (1023.0 / 1024) / 4);
	p.gd = 10; /* no bound: alpha 1 cuts everything, min_rate floors it */
	p.min_dec_fac_pct = 0;
	p.initial_alpha = 1.0;
	ck_assert(first_cut(p) == p.min_rate_bps);
	/* PAPER and HPCC: alpha/2 with no bound */
	ck_assert(first_cut(paper(LINE)) == LINE * 1025 / 2048);
	ck_assert(first_cut(hpcc(LINE)) == LINE * 1025 / 2048);
	ck_assert(first_cut(hpcc(400e9)) == 400e9 * 1025 / 2048);
}
END_TEST

/* ---- 3. one cut per monitor period ---- */

/*
 * CNPs at 0, 1, ..., 19 us with a 4 us monitor period: the CNP at 0 cuts at
 * once (no cut yet); the one at 1 us defers a cut to 4 us; 2 and 3 us add
 * nothing; at 4 us the deferred cut happens first (internal events due at t
 * come before the CNP at t), and that CNP then defers the next cut to 8 us.
 * Cuts at 0, 4, 8, 12, 16 us: 5 cuts by 19 us, with a sixth pending at 20 us
 * (the CNPs at 17-19 us); 6 once time reaches 20 us.
 */
START_TEST(one_cut_per_monitor_period)
{
	struct dcqcn_params p = nvidia(LINE);
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	for (int i = 0; i < 20; i++) {
		dcqcn_on_cnp(&p, &q, i * US);
		ck_assert_uint_eq(q.cuts, (uint64_t)(i / 4 + 1));
		ck_assert_int_eq(q.last_cut_ps, (i / 4) * 4 * US);
		ck_assert_int_eq(q.deferred_cut_ps, i == 0 ? -1 : (i / 4 + 1) * 4 * US);
	}
	ck_assert_uint_eq(q.cuts, 5);
	dcqcn_advance(&p, &q, 20 * US - 1);
	ck_assert_uint_eq(q.cuts, 5);
	dcqcn_advance(&p, &q, 20 * US);
	ck_assert_uint_eq(q.cuts, 6);
	ck_assert_int_eq(q.deferred_cut_ps, -1);
	dcqcn_advance(&p, &q, 100 * US);
	ck_assert_uint_eq(q.cuts, 6);

	/* monitor 0 (PAPER): a cut on each CNP */
	struct dcqcn_params pp = paper(LINE);
	dcqcn_init(&pp, &q);
	for (int i = 0; i < 20; i++)
		dcqcn_on_cnp(&pp, &q, i * US);
	ck_assert_uint_eq(q.cuts, 20);
}
END_TEST

/* the deferred cut uses alpha at its own time (after the tick at that time) */
START_TEST(deferred_cut_alpha)
{
	struct dcqcn_params p = nvidia(LINE);
	double g = 5.0 / 1024, a0 = 1023.0 / 1024;
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	double rc1 = q.rc_bps;
	dcqcn_on_cnp(&p, &q, 3 * US / 2);
	ck_assert_int_eq(q.deferred_cut_ps, 4 * US);
	dcqcn_advance(&p, &q, 4 * US - 1);
	ck_assert(q.rc_bps == rc1);
	ck_assert_uint_eq(q.cuts, 1);
	dcqcn_advance(&p, &q, 4 * US);
	double a4 = (1 - g) * ((1 - g) * ((1 - g) * a0 + g) + g) * (1 - g);
	ck_assert(q.alpha == a4);
	ck_assert_uint_eq(q.cuts, 2);
	ck_assert(close_rel(q.rc_bps, rc1 - rc1 * a4 / 2, 1e-15));
	ck_assert(q.rt_bps == LINE); /* no increase since the first cut: no clamp */
	ck_assert_int_eq(q.timer_start_ps, 4 * US);
}
END_TEST

/*
 * Timer event and deferred cut at the same instant: the cut comes first and
 * restarts the timer, so no increase happens at that instant.  nvidia with
 * rpg_time_reset 4 us: cut at 0, timer due at 4 us; a CNP at 1 us defers a
 * cut to 4 us.
 */
START_TEST(tie_cut_before_timer)
{
	struct dcqcn_params p = nvidia(LINE);
	p.time_reset_ps = 4 * US;
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	dcqcn_on_cnp(&p, &q, 1 * US);
	double rc1 = q.rc_bps;
	dcqcn_advance(&p, &q, 4 * US);
	ck_assert_uint_eq(q.cuts, 2);
	ck_assert_uint_eq(q.increases, 0);
	ck_assert_uint_eq(q.t_stage, 0);
	ck_assert_int_eq(q.last_inc, DCQCN_INC_NONE);
	ck_assert(q.rt_bps == LINE); /* no timer increase before the cut: no clamp */
	ck_assert(q.rc_bps < rc1);
	dcqcn_advance(&p, &q, 8 * US - 1);
	ck_assert_uint_eq(q.increases, 0);
	dcqcn_advance(&p, &q, 8 * US);
	ck_assert_uint_eq(q.increases, 1);
	ck_assert_uint_eq(q.t_stage, 1);
}
END_TEST

/* ---- 4. fast recovery ---- */

START_TEST(fast_recovery_halves_the_gap)
{
	struct dcqcn_params ps[] = { nvidia(LINE), paper(LINE), hpcc(LINE) };
	for (int v = 0; v < 3; v++) {
		struct dcqcn_params p = ps[v];
		p.threshold = 100;
		struct dcqcn_qp q;
		dcqcn_init(&p, &q);
		dcqcn_on_cnp(&p, &q, 0);
		double rc0 = q.rc_bps, rt = q.rt_bps;
		ck_assert(rt == LINE);
		for (int k = 1; k <= 20; k++) {
			dcqcn_advance(&p, &q, k * p.time_reset_ps - 1);
			ck_assert_uint_eq(q.t_stage, (uint32_t)(k - 1));
			dcqcn_advance(&p, &q, k * p.time_reset_ps);
			ck_assert_uint_eq(q.t_stage, (uint32_t)k);
			ck_assert(q.rt_bps == rt);
			ck_assert_msg(close_rel(q.rc_bps, rt - (rt - rc0) / ldexp(1, k), 1e-9),
				      "variant %d k %d: %.17g", v, k, q.rc_bps);
		}
		/* the same from one lazy jump */
		struct dcqcn_qp l;
		dcqcn_init(&p, &l);
		dcqcn_on_cnp(&p, &l, 0);
		dcqcn_advance(&p, &l, 7 * p.time_reset_ps);
		ck_assert(close_rel(l.rc_bps, rt - (rt - rc0) / 128, 1e-12));
	}
}
END_TEST

/* ---- 5. increase stages ---- */

struct expect {
	double rt, rc, line;
};

static void expect_inc(struct expect *e, double inc)
{
	e->rt += inc;
	if (e->rt > e->line)
		e->rt = e->line;
	e->rc = (e->rc + e->rt) / 2;
}

static void check_rates(const struct dcqcn_qp *q, const struct expect *e, const char *what)
{
	ck_assert_msg(close_rel(q->rt_bps, e->rt, 1e-15), "%s: Rt %.17g != %.17g", what,
		      q->rt_bps, e->rt);
	ck_assert_msg(close_rel(q->rc_bps, e->rc, 1e-15), "%s: Rc %.17g != %.17g", what,
		      q->rc_bps, e->rc);
}

START_TEST(stages_nvidia)
{
	/* both counters, F = 1, clamp_tgt_rate so the second cut sets Rt < line */
	struct dcqcn_params p = nvidia(LINE);
	p.byte_reset_bytes = 1000;
	p.clamp_tgt_rate = 1;
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	dcqcn_on_cnp(&p, &q, 10 * US);
	ck_assert_uint_eq(q.cuts, 2);
	struct expect e = { q.rt_bps, q.rc_bps, LINE };
	ck_assert(e.rt < LINE);
	dcqcn_on_sent(&p, &q, 1000, 11 * US); /* T0 B0: fast recovery */
	expect_inc(&e, 0);
	check_rates(&q, &e, "FR");
	ck_assert_uint_eq(q.b_stage, 1);
	dcqcn_on_sent(&p, &q, 1000, 12 * US); /* T0 B1: additive */
	expect_inc(&e, 5e6);
	check_rates(&q, &e, "AI byte");
	dcqcn_advance(&p, &q, 310 * US); /* T0 B2: additive */
	expect_inc(&e, 5e6);
	check_rates(&q, &e, "AI timer");
	dcqcn_advance(&p, &q, 610 * US); /* T1 B2: min = F, additive */
	expect_inc(&e, 5e6);
	check_rates(&q, &e, "AI timer 2");
	ck_assert_uint_eq(q.t_stage, 2);
	dcqcn_on_sent(&p, &q, 1000, 611 * US); /* T2 B2: hyper */
	expect_inc(&e, 50e6);
	check_rates(&q, &e, "HAI byte");
	dcqcn_advance(&p, &q, 910 * US); /* T2 B3: hyper */
	expect_inc(&e, 50e6);
	check_rates(&q, &e, "HAI timer");
	ck_assert_uint_eq(q.t_stage, 3);
	ck_assert_uint_eq(q.b_stage, 3);
	ck_assert_uint_eq(q.increases, 6);

	/* timer only (the byte counter idle, B = 0): never hyper */
	p = nvidia(LINE);
	p.clamp_tgt_rate = 1;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	dcqcn_on_cnp(&p, &q, 10 * US);
	e = (struct expect){ q.rt_bps, q.rc_bps, LINE };
	for (int k = 1; k <= 6; k++) {
		dcqcn_advance(&p, &q, 10 * US + k * 300 * US);
		expect_inc(&e, k == 1 ? 0 : 5e6);
		check_rates(&q, &e, "timer only");
	}
}
END_TEST

START_TEST(stages_hpcc)
{
	/* byte counter off: T alone, T < F fast recovery, T == F additive, T > F hyper */
	struct dcqcn_params p = hpcc(LINE);
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	dcqcn_advance(&p, &q, 300 * US); /* a timer increase: the next cut clamps */
	dcqcn_on_cnp(&p, &q, 301 * US);
	struct expect e = { q.rt_bps, q.rc_bps, LINE };
	ck_assert(e.rt < LINE);
	static const double inc[] = { 0, 20e6, 200e6, 200e6, 200e6 };
	for (int k = 1; k <= 5; k++) {
		dcqcn_on_sent(&p, &q, 1 << 20, 301 * US + k * 300 * US - 1); /* ignored */
		dcqcn_advance(&p, &q, 301 * US + k * 300 * US);
		expect_inc(&e, inc[k - 1]);
		check_rates(&q, &e, "hpcc");
		ck_assert_uint_eq(q.b_stage, 0);
	}
}
END_TEST

START_TEST(stages_paper)
{
	struct dcqcn_params p = paper(LINE);
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	dcqcn_on_cnp(&p, &q, 1 * US); /* clamp 1: Rt = Rc of the first cut */
	struct expect e = { q.rt_bps, q.rc_bps, LINE };
	ck_assert(e.rt < LINE);
	/* timer only, F = 5: five fast-recovery steps, then additive (B = 0) */
	for (int k = 1; k <= 8; k++) {
		dcqcn_advance(&p, &q, 1 * US + k * 55 * US);
		expect_inc(&e, k <= 5 ? 0 : 40e6);
		check_rates(&q, &e, "paper timer");
	}
	/* set the stages and fire the byte counter */
	static const struct {
		uint32_t t, b;
		double inc;
	} st[] = {
		{ 4, 4, 0 },          /* max < F: fast recovery */
		{ 5, 0, 40e6 },       /* max = F: additive */
		{ 9, 5, 40e6 },       /* min = F: additive */
		{ 6, 6, 200e6 },      /* i = 1 */
		{ 7, 9, 400e6 },      /* i = 2 */
		{ 12, 10, 1000e6 },   /* i = 5 */
	};
	sim_time_ps t = 450 * US;
	for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		dcqcn_advance(&p, &q, t);
		q.t_stage = st[i].t;
		q.b_stage = st[i].b;
		dcqcn_on_sent(&p, &q, p.byte_reset_bytes, t);
		expect_inc(&e, st[i].inc);
		check_rates(&q, &e, "paper byte");
		ck_assert_uint_eq(q.b_stage, st[i].b + 1);
		ck_assert_int_eq(q.last_inc, DCQCN_INC_BYTE);
	}
}
END_TEST

/* ---- 6. byte counter ---- */

/*
 * One 4178 B wire frame per frame time (4178 x 8 / rate: 334.24 ns at 100G,
 * 83.56 ns at 400G), counted when the frame starts (frame 0 at t = 0, just
 * after the first CNP).  Event k fires on frame ceil(k R / 4178) - 1 with
 * R = 32767 x 64 = 2097088 B: every R x 8 / rate = 167.767 us at 100G
 * (168 us), 41.942 us at 400G (42 us), within one frame time.
 */
static void byte_counter_at(double rate)
{
	struct dcqcn_params p = nvidia(rate);
	const int64_t R = 32767 * 64;
	sim_time_ps frame = (sim_time_ps)FRAME_WIRE * 8 * UNITS_PS_PER_S / (sim_time_ps)rate;
	double ideal_ps = (double)R * 8 / rate * 1e12;
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	sim_time_ps at[8];
	int n = 0;
	for (int64_t i = 0; n < 8; i++) {
		uint32_t b = q.b_stage;
		dcqcn_on_sent(&p, &q, FRAME_WIRE, i * frame);
		ck_assert_uint_le(q.b_stage - b, 1);
		if (q.b_stage != b)
			at[n++] = i * frame;
	}
	for (int k = 1; k <= 8; k++) {
		int64_t idx = (k * R + FRAME_WIRE - 1) / FRAME_WIRE - 1;
		ck_assert_int_eq(at[k - 1], idx * frame);
		ck_assert(fabs((double)at[k - 1] - (k * ideal_ps - frame)) <= frame);
		if (k > 1)
			ck_assert(fabs((double)(at[k - 1] - at[k - 2]) - ideal_ps) <= frame);
	}
	double mean = (double)(at[7] - at[0]) / 7;
	ck_assert(fabs(mean - ideal_ps) < frame);
	ck_assert_int_eq(llround(mean / (double)US), llround(ideal_ps / (double)US));
}

START_TEST(byte_counter_intervals)
{
	ck_assert_int_eq((sim_time_ps)FRAME_WIRE * 8 * UNITS_PS_PER_S / (sim_time_ps)100e9, 334240);
	ck_assert_int_eq((sim_time_ps)FRAME_WIRE * 8 * UNITS_PS_PER_S / (sim_time_ps)400e9, 83560);
	ck_assert(fabs(32767.0 * 64 * 8 / 100e9 * 1e6 - 167.77) < 0.005);
	ck_assert(fabs(32767.0 * 64 * 8 / 400e9 * 1e6 - 41.94) < 0.005);
	ck_assert_int_eq(llround(32767.0 * 64 * 8 / 100e9 * 1e6), 168);
	ck_assert_int_eq(llround(32767.0 * 64 * 8 / 400e9 * 1e6), 42);
	byte_counter_at(100e9);
	byte_counter_at(400e9);
}
END_TEST

/* ---- 7. clamping ---- */

/* cut at 0, then `between` (0 none, 1 timer at 300 us, 2 byte at 1 us, 3 byte then
 * timer), then a CNP (at 200 us, or 310 us after the timer event): was Rt set to the
 * Rc before that cut? */
static int clamped(struct dcqcn_params p, int between)
{
	struct dcqcn_qp q;
	p.byte_reset_bytes = 1000;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	if (between == 2 || between == 3)
		dcqcn_on_sent(&p, &q, 1000, 1 * US);
	sim_time_ps t = between & 1 ? 310 * US : 200 * US;
	dcqcn_advance(&p, &q, t);
	ck_assert_uint_eq(q.increases, (uint64_t)(between == 0 ? 0 : between == 3 ? 2 : 1));
	double rc = q.rc_bps, rt = q.rt_bps;
	ck_assert(rt == LINE && rc < rt);
	dcqcn_on_cnp(&p, &q, t);
	ck_assert_uint_eq(q.cuts, 2);
	ck_assert(q.rt_bps == rc || q.rt_bps == rt);
	return q.rt_bps == rc;
}

START_TEST(clamp_rules)
{
	struct dcqcn_params p = nvidia(LINE); /* clamp 0, after_time_inc 1 */
	ck_assert(!clamped(p, 0));
	ck_assert(clamped(p, 1));
	ck_assert(clamped(p, 2));
	ck_assert(clamped(p, 3));
	p.clamp_after_time_inc = 0;
	ck_assert(!clamped(p, 0));
	ck_assert(!clamped(p, 1));
	ck_assert(clamped(p, 2));
	ck_assert(!clamped(p, 3)); /* the last increase was the timer's */
	p.clamp_tgt_rate = 1;
	for (int b = 0; b < 4; b++)
		ck_assert(clamped(p, b));
	/* the first cut from line rate: Rt stays at line either way */
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	ck_assert(q.rt_bps == LINE);
}
END_TEST

/* ---- first CNP, before it, bounds ---- */

START_TEST(not_reacting_before_first_cnp)
{
	struct dcqcn_params p = nvidia(LINE);
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	for (int i = 0; i < 1000; i++)
		dcqcn_on_sent(&p, &q, 1 << 20, i * MS);
	ck_assert(dcqcn_rate(&p, &q, 2000 * MS) == LINE);
	ck_assert(q.rt_bps == LINE && !q.reacting);
	ck_assert_uint_eq(q.increases + q.cuts, 0);
	ck_assert_int_eq(q.byte_count, 0);
	/* the first CNP (late) starts the state machine at its own time */
	dcqcn_on_cnp(&p, &q, 3000 * MS);
	ck_assert(q.reacting && q.cuts == 1);
	ck_assert_int_eq(q.timer_start_ps, 3000 * MS);
	ck_assert_int_eq(q.alpha_start_ps, 3000 * MS);
	ck_assert_uint_eq(q.increases, 0);
}
END_TEST

START_TEST(first_cnp_rate)
{
	struct dcqcn_params p = nvidia(LINE);
	p.first_cnp_rate_bps = 10e9;
	struct dcqcn_qp q;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	ck_assert(q.rc_bps == 10e9 && q.rt_bps == 10e9); /* "rates (current, target)" */
	ck_assert_uint_eq(q.cuts, 1);
	ck_assert(q.alpha == 1023.0 / 1024 && q.cnp_in_period);
	dcqcn_on_cnp(&p, &q, 1 * US); /* inside the monitor window: deferred */
	ck_assert_int_eq(q.deferred_cut_ps, 4 * US);
	ck_assert(dcqcn_rate(&p, &q, 4 * US) < 10e9);
	ck_assert_uint_eq(q.cuts, 2);
	/* above line rate: line rate */
	p.first_cnp_rate_bps = 1e12;
	dcqcn_init(&p, &q);
	dcqcn_on_cnp(&p, &q, 0);
	ck_assert(q.rc_bps == LINE && q.rt_bps == LINE);
	/* PAPER: alpha is still updated on that CNP */
	struct dcqcn_params pp = paper(LINE);
	pp.first_cnp_rate_bps = 10e9;
	dcqcn_init(&pp, &q);
	dcqcn_on_cnp(&pp, &q, 0);
	ck_assert(q.rc_bps == 10e9 && q.alpha == (255.0 / 256) * (1023.0 / 1024) + 1.0 / 256);
}
END_TEST

START_TEST(rates_stay_in_bounds)
{
	/* many cuts: never below min_rate; long recovery: never above line */
	struct dcqcn_params ps[] = { nvidia(LINE), paper(LINE), hpcc(LINE) };
	for (int v = 0; v < 3; v++) {
		struct dcqcn_params p = ps[v];
		p.hai_bps = 30e9;
		struct dcqcn_qp q;
		dcqcn_init(&p, &q);
		for (int i = 0; i < 2000; i++)
			dcqcn_on_cnp(&p, &q, i * 5 * US);
		ck_assert(q.rc_bps == p.min_rate_bps);
		for (int i = 0; i < 200; i++) {
			sim_time_ps t = 10 * MS + i * 100 * US;
			dcqcn_on_sent(&p, &q, 4 << 20, t);
			ck_assert(q.rc_bps <= LINE && q.rt_bps <= LINE);
			ck_assert(q.rc_bps >= p.min_rate_bps && q.rc_bps <= q.rt_bps);
		}
		ck_assert(q.rt_bps == LINE);
		/* a very long idle time: the fixed point is reached and counted, not looped */
		uint64_t inc = q.increases;
		uint32_t t = q.t_stage;
		sim_time_ps start = q.timer_start_ps;
		dcqcn_advance(&p, &q, 1000 * UNITS_PS_PER_S);
		uint64_t n = (uint64_t)((1000 * UNITS_PS_PER_S - start) / p.time_reset_ps);
		ck_assert_uint_eq(q.increases - inc, n);
		ck_assert_uint_eq(q.t_stage - t, n);
		ck_assert(close_rel(q.rc_bps, LINE, 1e-15));
		ck_assert(q.alpha >= 0 && q.alpha < 1e-300);
	}
}
END_TEST

/* ---- 8. reference: step by step, no laziness ---- */

/*
 * Every alpha tick, timer expiry and deferred cut is its own step, fired in
 * time order (ties: alpha tick, deferred cut, timer, as documented in
 * dcqcn.c); alpha is multiplied once per tick; no closed forms, no
 * fixed-point shortcut.  Written from docs/model.md#dcqcn, not from dcqcn.c.
 */
struct ref_qp {
	double rc, rt, alpha;
	int reacting, cnp_flag, last_inc;
	sim_time_ps alpha_next, timer_next, cut_at, last_cut;
	/* cut_on_timer: the decrease check every monitor period from the first
	 * CNP, and the flag a CNP raises for it (HPCC ns-3's
	 * CheckRateDecreaseMlx and m_decrease_cnp_arrived) */
	sim_time_ps check_next;
	int dec_flag;
	int64_t bytes;
	uint32_t T, B;
	uint64_t cuts, incs;
	/* what the run exercised */
	uint64_t n_fr, n_ai, n_hai, n_deferred, n_clamp, n_timer, n_byte, n_ties;
};

static void ref_init(const struct dcqcn_params *p, struct ref_qp *r)
{
	*r = (struct ref_qp){ .rc = p->line_rate_bps, .rt = p->line_rate_bps,
			      .alpha = p->initial_alpha, .cut_at = -1, .last_inc = DCQCN_INC_NONE };
}

static void ref_cut(const struct dcqcn_params *p, struct ref_qp *r, sim_time_ps t)
{
	int clamp = p->clamp_tgt_rate;
	if (r->last_inc == DCQCN_INC_BYTE)
		clamp = 1;
	if (r->last_inc == DCQCN_INC_TIMER && p->clamp_after_time_inc)
		clamp = 1;
	if (clamp) {
		r->rt = r->rc;
		r->n_clamp++;
	}
	double by_alpha = r->rc * r->alpha / pow(2.0, (double)p->gd - 10.0);
	double dec = by_alpha;
	if (p->min_dec_fac_pct != 0) {
		double by_fac = r->rc * (100.0 - p->min_dec_fac_pct) / 100.0;
		dec = fmin(by_alpha, by_fac);
	}
	r->rc = fmax(p->min_rate_bps, r->rc - dec);
	r->timer_next = t + p->time_reset_ps;
	r->bytes = 0;
	r->T = r->B = 0;
	r->last_inc = DCQCN_INC_NONE;
	r->last_cut = t;
	r->cuts++;
}

static void ref_inc(const struct dcqcn_params *p, struct ref_qp *r, int by)
{
	uint32_t F = p->threshold;
	int counter_on = p->byte_reset_bytes != 0;
	uint32_t mx = r->T, mn = r->T;
	if (counter_on) {
		mx = r->T > r->B ? r->T : r->B;
		mn = r->T > r->B ? r->B : r->T;
	}
	if (mx < F) {
		r->n_fr++;
	} else if (mn > F) {
		double i = p->variant == DCQCN_PAPER ? (double)(mn - F) : 1.0;
		r->rt += i * p->hai_bps;
		r->n_hai++;
	} else {
		r->rt += p->ai_bps;
		r->n_ai++;
	}
	r->rt = fmin(r->rt, p->line_rate_bps);
	r->rc = (r->rc + r->rt) / 2;
	if (by == DCQCN_INC_TIMER) {
		r->T++;
		r->n_timer++;
	} else {
		r->B++;
		r->n_byte++;
	}
	r->last_inc = by;
	r->incs++;
}

static void ref_run_to(const struct dcqcn_params *p, struct ref_qp *r, sim_time_ps t)
{
	if (!r->reacting)
		return;
	for (;;) {
		/* the earliest internal event; ties: alpha, cut, timer */
		int which = 0;
		sim_time_ps at = r->alpha_next;
		if (r->cut_at >= 0 && r->cut_at < at) {
			which = 1;
			at = r->cut_at;
		}
		if (p->cut_on_timer && r->check_next < at) {
			which = 3;
			at = r->check_next;
		}
		if (r->timer_next < at) {
			which = 2;
			at = r->timer_next;
		}
		if (at > t)
			return;
		if (which == 3) { /* the check fires every period, flag or not */
			r->check_next += p->monitor_period_ps;
			if (r->dec_flag) {
				if (r->timer_next == at)
					r->n_ties++;
				r->dec_flag = 0;
				ref_cut(p, r, at);
			}
			continue;
		}
		if (which == 0) {
			if (p->variant != DCQCN_PAPER && r->cnp_flag)
				r->alpha = (1 - p->g) * r->alpha + p->g;
			else
				r->alpha = (1 - p->g) * r->alpha;
			r->cnp_flag = 0;
			r->alpha_next += p->alpha_period_ps;
		} else if (which == 1) {
			if (r->timer_next == at)
				r->n_ties++;
			r->cut_at = -1;
			ref_cut(p, r, at);
		} else {
			r->timer_next += p->time_reset_ps;
			ref_inc(p, r, DCQCN_INC_TIMER);
		}
	}
}

static void ref_cnp(const struct dcqcn_params *p, struct ref_qp *r, sim_time_ps t)
{
	ref_run_to(p, r, t);
	int first = !r->reacting;
	if (first) {
		r->reacting = 1;
		r->alpha = p->initial_alpha;
		r->alpha_next = t + p->alpha_period_ps;
		r->timer_next = t + p->time_reset_ps;
		if (p->cut_on_timer) { /* no increase before the first cut */
			r->check_next = t + p->monitor_period_ps;
			r->timer_next = INT64_MAX;
		}
		if (p->first_cnp_rate_bps > 0) {
			r->rc = fmax(p->min_rate_bps, fmin(p->first_cnp_rate_bps, p->line_rate_bps));
			r->rt = r->rc;
			r->bytes = 0;
			r->T = r->B = 0;
			r->last_cut = t;
			r->cuts++;
			r->dec_flag = p->cut_on_timer;
			if (p->variant == DCQCN_PAPER)
				r->alpha = (1 - p->g) * r->alpha + p->g;
			else
				r->cnp_flag = 1;
			return;
		}
	}
	if (p->cut_on_timer) {
		r->n_deferred += !r->dec_flag;
		r->dec_flag = 1;
	} else if (r->cut_at < 0) {
		if (first || p->monitor_period_ps == 0 || t - r->last_cut >= p->monitor_period_ps) {
			ref_cut(p, r, t);
		} else {
			r->cut_at = r->last_cut + p->monitor_period_ps;
			r->n_deferred++;
		}
	}
	if (p->variant == DCQCN_PAPER) {
		r->alpha = (1 - p->g) * r->alpha + p->g;
		r->alpha_next = t + p->alpha_period_ps;
	} else {
		r->cnp_flag = 1;
	}
}

static void ref_sent(const struct dcqcn_params *p, struct ref_qp *r, int64_t bytes, sim_time_ps t)
{
	ref_run_to(p, r, t);
	if (!r->reacting || p->byte_reset_bytes == 0)
		return;
	r->bytes += bytes;
	while (r->bytes >= p->byte_reset_bytes) {
		r->bytes -= p->byte_reset_bytes;
		ref_inc(p, r, DCQCN_INC_BYTE);
	}
}

static uint32_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005u + 1442695040888963407u;
	return (uint32_t)(*x >> 33);
}

static void compare(const struct dcqcn_params *p, const struct dcqcn_qp *q,
		    const struct ref_qp *r, sim_time_ps t, long step)
{
	/* with the timer the pending cut is the next check, if the flag is up */
	sim_time_ps cut_at = p->cut_on_timer ? (r->dec_flag ? r->check_next : -1) : r->cut_at;
	ck_assert_msg(close_rel(q->rc_bps, r->rc, 1e-9) && close_rel(q->rt_bps, r->rt, 1e-9) &&
			      close_rel(q->alpha, r->alpha, 1e-9),
		      "step %ld t %lld ps: Rc %.17g/%.17g Rt %.17g/%.17g alpha %.17g/%.17g", step,
		      (long long)t, q->rc_bps, r->rc, q->rt_bps, r->rt, q->alpha, r->alpha);
	ck_assert_msg(q->t_stage == r->T && q->b_stage == r->B && q->cuts == r->cuts &&
			      q->increases == r->incs && q->byte_count == r->bytes &&
			      q->last_inc == r->last_inc && q->reacting == r->reacting &&
			      q->deferred_cut_ps == cut_at,
		      "step %ld t %lld ps: T %u/%u B %u/%u cuts %llu/%llu incs %llu/%llu "
		      "bytes %lld/%lld deferred %lld/%lld",
		      step, (long long)t, q->t_stage, r->T, q->b_stage, r->B,
		      (unsigned long long)q->cuts, (unsigned long long)r->cuts,
		      (unsigned long long)q->increases, (unsigned long long)r->incs,
		      (long long)q->byte_count, (long long)r->bytes, (long long)q->deferred_cut_ps,
		      (long long)cut_at);
	ck_assert(q->rc_bps >= p->min_rate_bps && q->rc_bps <= q->rt_bps &&
		  q->rt_bps <= p->line_rate_bps);
}

/*
 * Congestion episodes (CNPs every few us, some closer than the monitor
 * period) separated by quiet phases with gaps up to 1.5 ms, sends of what
 * the QP would have sent at Rc since the previous send, and probes (bare
 * dcqcn_advance).  `quantum` rounds the gaps down to a multiple, so that
 * alpha ticks, timer events, deferred cuts and inputs fall on equal times.
 */
static struct ref_qp run_against_reference(const struct dcqcn_params *p, uint64_t seed,
					   sim_time_ps end, sim_time_ps quantum)
{
	struct dcqcn_qp q;
	struct ref_qp r;
	dcqcn_init(p, &q);
	ref_init(p, &r);
	uint64_t x = seed;
	sim_time_ps t = 0, last_send = 0;
	int congested = 1;
	long step = 0;
	while (t < end) {
		uint32_t u = lcg(&x) % 100;
		sim_time_ps dt;
		if (congested)
			dt = lcg(&x) % (u < 70 ? 3 * US : 20 * US);
		else
			dt = lcg(&x) % (u < 60 ? 5 * US : u < 95 ? 100 * US : 1500 * US);
		if (quantum > 1)
			dt -= dt % quantum;
		t += dt;
		uint32_t kind = lcg(&x) % 100;
		if (congested && kind < 30) {
			dcqcn_on_cnp(p, &q, t);
			ref_cnp(p, &r, t);
		} else if (kind < (congested ? 90u : 80u)) {
			int64_t bytes = (int64_t)((double)(t - last_send) * q.rc_bps / 8e12);
			if (bytes < 64)
				bytes = 64;
			last_send = t;
			dcqcn_on_sent(p, &q, bytes, t);
			ref_sent(p, &r, bytes, t);
		} else {
			dcqcn_advance(p, &q, t);
			ref_run_to(p, &r, t);
		}
		compare(p, &q, &r, t, step++);
		if (lcg(&x) % (congested ? 15 : 150) == 0)
			congested = !congested;
	}
	return r;
}

static void add_stats(struct ref_qp *sum, const struct ref_qp *r)
{
	sum->cuts += r->cuts;
	sum->incs += r->incs;
	sum->n_fr += r->n_fr;
	sum->n_ai += r->n_ai;
	sum->n_hai += r->n_hai;
	sum->n_deferred += r->n_deferred;
	sum->n_clamp += r->n_clamp;
	sum->n_timer += r->n_timer;
	sum->n_byte += r->n_byte;
	sum->n_ties += r->n_ties;
}

/* every branch was taken at least once over the seeds */
static void check_coverage(const struct ref_qp *s, int deferred, int bytes)
{
	ck_assert(s->cuts && s->n_fr && s->n_ai && s->n_hai && s->n_clamp && s->n_timer);
	ck_assert(!deferred || s->n_deferred);
	ck_assert(bytes ? s->n_byte > 0 : s->n_byte == 0);
}

START_TEST(reference_defaults)
{
	static const uint64_t seeds[] = { 1, 42, 20150817 };
	struct dcqcn_params timer = hpcc(LINE);
	timer.cut_on_timer = 1;
	struct dcqcn_params ps[] = { nvidia(LINE), paper(LINE), hpcc(LINE), nvidia(400e9), timer };
	for (int v = 0; v < 5; v++) {
		struct ref_qp sum = {0};
		for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
			struct ref_qp r = run_against_reference(&ps[v], seeds[s], 100 * MS, 1);
			add_stats(&sum, &r);
		}
		check_coverage(&sum, ps[v].monitor_period_ps > 0, ps[v].byte_reset_bytes > 0);
	}
}
END_TEST

START_TEST(reference_stress)
{
	/* short timers, small byte counters, quantized times: many ties and fixed points */
	struct dcqcn_params a = nvidia(LINE);
	a.time_reset_ps = 2 * US;
	a.byte_reset_bytes = 64 * 1024;
	a.ai_bps = 500e6;
	a.hai_bps = 5e9;
	a.first_cnp_rate_bps = 20e9;
	a.clamp_after_time_inc = 0;
	struct dcqcn_params b = paper(LINE);
	b.time_reset_ps = 5 * US;
	b.byte_reset_bytes = 1000000;
	b.monitor_period_ps = 3 * US;
	b.g = 1.0 / 16;
	struct dcqcn_params c = hpcc(LINE);
	c.time_reset_ps = 1 * US;
	c.monitor_period_ps = 2 * US;
	c.hai_bps = 2e9;
	struct dcqcn_params d = nvidia(LINE);
	d.time_reset_ps = 4 * US;
	d.threshold = 3;
	d.min_dec_fac_pct = 0;
	d.gd = 10;
	/* the timer's cuts (cut_on = timer): hpcc's, and with nvidia's byte
	 * counter and a rate set at the first CNP */
	struct dcqcn_params e = c, f = a;
	e.cut_on_timer = 1;
	f.cut_on_timer = 1;
	struct dcqcn_params ps[] = { a, b, c, d, e, f };
	static const sim_time_ps quanta[] = { 1, 500000, 1000000 };
	uint64_t ties = 0;
	for (int v = 0; v < 6; v++) {
		struct ref_qp sum = {0};
		for (int s = 0; s < 3; s++) {
			struct ref_qp r = run_against_reference(&ps[v], 7 + s, 20 * MS, quanta[s]);
			add_stats(&sum, &r);
		}
		check_coverage(&sum, 1, ps[v].byte_reset_bytes > 0);
		ties += sum.n_ties;
	}
	ck_assert_uint_gt(ties, 0);
}
END_TEST

static Suite *make_dcqcn_suite(void)
{
	Suite *s = suite_create("dcqcn");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, alpha_nvidia_decay);
	tcase_add_test(tc, alpha_nvidia_cnp_periods);
	tcase_add_test(tc, alpha_paper_decay);
	tcase_add_test(tc, cut_size);
	tcase_add_test(tc, one_cut_per_monitor_period);
	tcase_add_test(tc, deferred_cut_alpha);
	tcase_add_test(tc, tie_cut_before_timer);
	tcase_add_test(tc, fast_recovery_halves_the_gap);
	tcase_add_test(tc, stages_nvidia);
	tcase_add_test(tc, stages_hpcc);
	tcase_add_test(tc, stages_paper);
	tcase_add_test(tc, byte_counter_intervals);
	tcase_add_test(tc, clamp_rules);
	tcase_add_test(tc, not_reacting_before_first_cnp);
	tcase_add_test(tc, first_cnp_rate);
	tcase_add_test(tc, rates_stay_in_bounds);
	suite_add_tcase(s, tc);
	TCase *ref = tcase_create("reference");
	tcase_set_timeout(ref, 120);
	tcase_add_test(ref, reference_defaults);
	tcase_add_test(ref, reference_stress);
	suite_add_tcase(s, ref);
	return s;
}

int main(void)
{
	return tl_run(make_dcqcn_suite());
}
