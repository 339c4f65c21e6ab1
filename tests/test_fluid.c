/*
 * test_fluid.c - the DCQCN fluid model (models/core/fluid.h) and the
 * `fluid` command's run layer (sim/run/fluidrun.h): the integrated fixed point
 * against the solved one (paper parameters, 40G), the marking ramp, the
 * phase margin against the feedback delay, step-size independence, stable
 * and unstable settings agreeing with the integration, determinism, the
 * refusals and summary.csv's columns.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/core/fluid.h"
#include "models/scenario/scenario.h"
#include "sim/run/fluidrun.h"
#include "testlib.h"

/* the paper's setting (CoNEXT 2016, Table 1): 40G, Kmin 5KB, Kmax 200KB,
 * pmax 1 %, the paper profile (tau 50 us, tau' 55 us, g 1/256, B 10 MB,
 * T 55 us, R_AI 40 Mbps); a star incast into h0, 1 KB packets */
static const char star40[] =
	"[sim]\nduration = 200ms\n"
	"[topology]\nkind = star\nhosts = 17\nhost_link = 40Gbps\nmtu = 1000\n"
	"[ecn]\nkmin = 5KB\nkmax = 200KB\npmax = 1%\n"
	"[dcqcn]\nprofile = paper\n"
	"[job.incast]\npattern = incast\ndst = 0\nsenders = 1-16\nsize = 1GB\n";

static const char ring[] =
	"[topology]\nkind = star\nhosts = 4\n"
	"[job.x]\npattern = ring-allreduce\nsize = 1MB\n";

/* the paper's parameters in the model's units, tau* given */
static struct fluid_params paper_params(uint32_t n, double delay_s)
{
	double pkt = 8.0 * 1082; /* 1000 B + 62 B headers + 20 B on the wire */
	return (struct fluid_params){
		.flows = n, .cap_pps = 40e9 / pkt, .line_pps = 40e9 / pkt, .min_pps = 1e6 / pkt,
		.kmin_pkts = 5000.0 / 1062, .kmax_pkts = 200000.0 / 1062, .pmax = 0.01,
		.delay_s = delay_s, .cnp_s = 50e-6, .alpha_s = 55e-6, .g = 1.0 / 256,
		.cut = 0.5, .byte_pkts = 10e6 / 1082, .timer_s = 55e-6, .fr_steps = 5,
		.ai_pps = 40e6 / pkt,
		.initial_alpha = 1.0, .step_s = 100e-9,
	};
}

static struct fluidrun_result run_star(const char *dir, uint32_t n, sim_time_ps step,
				       const char *const *sets)
{
	static const char *const none[] = { NULL };
	struct scenario *s = tl_load_set(star40, sets ? sets : none);
	struct fluidrun_opts o = { .out_dir = dir, .flows = n, .step_ps = step };
	struct fluidrun_result r;
	char err[1024];
	int rc = fluidrun_run(s, &o, &r, err, sizeof(err));
	ck_assert_msg(rc == 0, "%s", err);
	tl_unload(s);
	return r;
}

static void close_to(double a, double b, double rel, const char *what)
{
	ck_assert_msg(fabs(a - b) <= rel * fabs(b), "%s: %.9g vs %.9g (rel %.3g)", what, a, b,
		      fabs(a - b) / fabs(b));
}

/* integrated time averages match the fixed-point equations to 0.1 % */
START_TEST(fixed_point_matches_integration)
{
	static const uint32_t ns[] = { 2, 8 };
	uint32_t n = ns[_i];
	struct fluidrun_result r = run_star(NULL, n, 0, NULL);
	ck_assert(r.fixed_ok);
	ck_assert(!r.beyond_ramp);
	close_to(r.fp_rate_gbps, 40.0 / n, 1e-9, "fixed-point rate C/N");
	close_to(r.mean_queue_bytes, r.fp_queue_bytes, 1e-3, "queue");
	close_to(r.mean_mark_prob, r.fp_mark_prob, 1e-3, "mark probability");
	close_to(r.mean_alpha, r.fp_alpha, 1e-3, "alpha");
	close_to(r.mean_rate_gbps, r.fp_rate_gbps, 1e-3, "rate");
	ck_assert(r.stable && !r.oscillating);
}
END_TEST

/* p on the ramp: 0 to Kmin, pmax (q - Kmin)/(Kmax - Kmin) to Kmax, then 1;
 * along an integrated run too */
START_TEST(mark_prob_on_ramp)
{
	struct fluid_params p = paper_params(4, 4e-6);
	ck_assert(fluid_mark_prob(&p, 0) == 0);
	ck_assert(fluid_mark_prob(&p, p.kmin_pkts) == 0);
	ck_assert(fluid_mark_prob(&p, p.kmax_pkts) == p.pmax);
	ck_assert(fluid_mark_prob(&p, p.kmax_pkts + 1e-9) == 1);
	close_to(fluid_mark_prob(&p, (p.kmin_pkts + p.kmax_pkts) / 2), p.pmax / 2, 1e-12, "mid");
	struct fluid *f = fluid_new(&p, NULL, 0);
	ck_assert_ptr_nonnull(f);
	int in_ramp = 0;
	for (int k = 0; k < 200000; k++) {
		fluid_step(f);
		double q = fluid_queue_pkts(f), m = fluid_mark_prob(&p, q);
		ck_assert(q >= 0);
		if (q > p.kmin_pkts && q <= p.kmax_pkts) {
			ck_assert(m > 0 && m <= p.pmax);
			in_ramp++;
		} else {
			ck_assert(m == (q <= p.kmin_pkts ? 0.0 : 1.0));
		}
		double rc, rt, al;
		for (uint32_t i = 0; i < p.flows; i++) {
			ck_assert(fluid_flow(f, i, &rc, &rt, &al));
			ck_assert(rc >= p.min_pps && rc <= p.line_pps && rt <= p.line_pps);
			ck_assert(al >= 0 && al <= 1);
		}
	}
	ck_assert_int_gt(in_ramp, 1000);
	fluid_free(f);
}
END_TEST

/* the phase margin falls as tau* grows (4, 40, 85 us; N = 2 and 8) */
START_TEST(margin_falls_with_delay)
{
	static const double d[] = { 4e-6, 40e-6, 85e-6 };
	static const uint32_t ns[] = { 2, 8 };
	double prev = INFINITY;
	for (int i = 0; i < 3; i++) {
		struct fluid_params p = paper_params(ns[_i], d[i]);
		struct fluid_fixed fp;
		struct fluid_margin m;
		ck_assert_int_eq(fluid_fixed_point(&p, &fp), 0);
		ck_assert_int_eq(fluid_phase_margin(&p, &fp, &m), 0);
		ck_assert_msg(m.pm_deg < prev, "tau* %g: %g deg, not below %g", d[i], m.pm_deg,
			      prev);
		ck_assert(m.wc_rad_s > 0);
		prev = m.pm_deg;
	}
}
END_TEST

/* the fixed point's equations hold: dRt/dt = dRc/dt = dalpha/dt = 0 */
START_TEST(fixed_point_is_stationary)
{
	struct fluid_params p = paper_params(4, 4e-6);
	struct fluid_fixed fp;
	ck_assert_int_eq(fluid_fixed_point(&p, &fp), 0);
	ck_assert(fp.p > 0 && fp.p < p.pmax);
	close_to(fp.rc_pps, p.cap_pps / 4, 1e-12, "Rc = C/N");
	ck_assert(fp.rt_pps > fp.rc_pps);
	close_to(fp.q_pkts, p.kmin_pkts + fp.p / p.pmax * (p.kmax_pkts - p.kmin_pkts), 1e-12,
		 "q on the ramp");
	/* every derivative vanishes there, against the size of its terms */
	double d[4], L = -log1p(-fp.p), rc = fp.rc_pps;
	double cut = -expm1(-p.cnp_s * rc * L) / p.cnp_s; /* (1 - (1-p)^(tau Rc)) / tau */
	fluid_derivs_steady(&p, fp.q_pkts, fp.alpha, fp.rt_pps, rc, d);
	ck_assert_msg(fabs(d[0]) <= 1e-9 * p.cap_pps, "dq/dt %g", d[0]);
	ck_assert_msg(fabs(d[1]) <= 1e-9 * p.g / p.alpha_s * fp.alpha, "dalpha/dt %g", d[1]);
	ck_assert_msg(fabs(d[2]) <= 1e-6 * (fp.rt_pps - rc) * cut, "dRt/dt %g", d[2]);
	ck_assert_msg(fabs(d[3]) <= 1e-6 * rc * fp.alpha * p.cut * cut, "dRc/dt %g", d[3]);
	/* and not elsewhere: a queue 1 % deeper cuts Rc and Rt */
	fluid_derivs_steady(&p, fp.q_pkts * 1.01, fp.alpha, fp.rt_pps, rc, d);
	ck_assert_msg(d[2] < -1e-3 * (fp.rt_pps - rc) * cut, "dRt/dt %g", d[2]);
	ck_assert_msg(d[3] < -1e-3 * rc * fp.alpha * p.cut * cut, "dRc/dt %g", d[3]);
}
END_TEST

/* halving the step changes the results by less than 1 % */
START_TEST(step_size_independent)
{
	static const char *const shorter[] = { "sim.duration=100ms", NULL };
	struct fluidrun_result a = run_star(NULL, 4, 100000, shorter);
	struct fluidrun_result b = run_star(NULL, 4, 50000, shorter);
	ck_assert_uint_eq(b.steps, 2 * a.steps);
	close_to(b.mean_queue_bytes, a.mean_queue_bytes, 0.01, "queue");
	close_to(b.mean_mark_prob, a.mean_mark_prob, 0.01, "mark probability");
	close_to(b.mean_alpha, a.mean_alpha, 0.01, "alpha");
	close_to(b.mean_rate_gbps, a.mean_rate_gbps, 0.01, "rate");
	/* and in an oscillating setting: the swing within 1 % too */
	static const char *const far[] = { "topology.host_cable=4000m", "ecn.pmax=20%",
					   "sim.duration=100ms", NULL };
	struct fluidrun_result c = run_star(NULL, 2, 100000, far);
	struct fluidrun_result d = run_star(NULL, 2, 50000, far);
	close_to(d.mean_rate_gbps, c.mean_rate_gbps, 0.01, "rate (oscillating)");
	close_to(d.swing4_bytes, c.swing4_bytes, 0.01, "swing (oscillating)");
}
END_TEST

/* a negative margin goes with an integrated queue that keeps oscillating,
 * a positive one with a queue that settles */
START_TEST(margin_agrees_with_integration)
{
	struct fluidrun_result s = run_star(NULL, 2, 0, NULL);
	ck_assert(s.margin_ok && s.pm_deg > 0 && s.stable);
	ck_assert(!s.oscillating);
	ck_assert(s.swing4_bytes < 1.0);
	static const char *const far[] = { "topology.host_cable=4000m", "ecn.pmax=20%", NULL };
	struct fluidrun_result u = run_star(NULL, 2, 0, far);
	ck_assert(u.margin_ok && u.pm_deg < 0 && !u.stable);
	ck_assert(u.oscillating);
	ck_assert(u.swing4_bytes > 5000);
	close_to(u.delay_us, 81.466, 1e-4, "tau* of 4 km cables");
}
END_TEST

/* two runs write the same bytes; summary.csv has the columns */
START_TEST(deterministic_and_columns)
{
	char a[] = "/tmp/fluidA-XXXXXX", b[] = "/tmp/fluidB-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(a));
	ck_assert_ptr_nonnull(mkdtemp(b));
	static const char *const shortrun[] = { "sim.duration=10ms", NULL };
	run_star(a, 3, 0, shortrun);
	run_star(b, 3, 0, shortrun);
	static const char *const files[] = { "queues.csv", "rates.csv", "summary.csv" };
	for (int i = 0; i < 3; i++) {
		char *x = tl_slurp(a, files[i]), *y = tl_slurp(b, files[i]);
		ck_assert_msg(strcmp(x, y) == 0, "%s differs", files[i]);
		if (i == 0)
			ck_assert(strncmp(x, "time_us,node,port,queue,bytes\n0.000,sw0,h0,3,0\n",
					  46) == 0);
		if (i == 1)
			ck_assert(strstr(x, "time_us,flow,rate_gbps,target_gbps,alpha\n0.000,0,"
					    "40.000000,40.000000,0.999023\n") == x);
		if (i == 2) {
			static const char *const cols[] = {
				"fixed_point_queue_bytes", "fixed_point_mark_prob",
				"fixed_point_alpha", "fixed_point_rate_gbps", "mean_queue_bytes",
				"mean_mark_prob", "mean_alpha", "mean_rate_gbps",
				"phase_margin_deg", "stable", "oscillating,reached_fixed_point\n" };
			for (int c = 0; c < 11; c++)
				ck_assert_msg(strstr(x, cols[c]) != NULL, "no column %s", cols[c]);
			ck_assert_int_eq((int)(strchr(x, '\n') - x) > 0, 1);
		}
		free(x);
		free(y);
		for (char *d = a; d; d = d == a ? b : NULL) {
			char p[256];
			snprintf(p, sizeof(p), "%s/%s", d, files[i]);
			unlink(p);
		}
	}
	rmdir(a);
	rmdir(b);
}
END_TEST

/* a run short of its fixed point says so, with why, and never reads
 * "unstable" beside "settled": pfc-vs-dcqcn.ini (nvidia, 16 flows at 100G)
 * has its fixed point at C/N = 6.25 Gbps a flow, but after the start's cuts
 * R_AI = 5 Mbps per 300 us timer needs (6.25 - r) / (5 Mbps x (1/300 us +
 * r/B)) ~ 330 ms to climb back, far beyond the 50 ms run */
START_TEST(verdict_says_why)
{
	char *text = tl_slurp(TEST_SCENARIO_DIR, "pfc-vs-dcqcn.ini");
	static const char *const none[] = { NULL };
	struct scenario *s = tl_load_set(text, none);
	free(text);
	struct fluidrun_opts o = { 0 };
	struct fluidrun_result r;
	char err[1024], buf[8192];
	ck_assert_msg(fluidrun_run(s, &o, &r, err, sizeof(err)) == 0, "%s", err);
	tl_unload(s);
	ck_assert(r.fixed_ok && r.margin_ok);
	close_to(r.fp_rate_gbps, 6.25, 1e-9, "C/N");
	ck_assert(r.slow_rate && !r.reached);
	ck_assert_msg(r.mean_rate_gbps < 0.2 * r.fp_rate_gbps, "%g Gbps", r.mean_rate_gbps);
	double rc = r.mean_rate_gbps * 1e9, B = 32767.0 * 64 * 8; /* nvidia's byte counter */
	double want = (6.25e9 - rc) / (5e6 * (1 / 300e-6 + rc / B)) * 1e3;
	close_to(r.recover_ms, want, 0.02, "recovery time");
	ck_assert(r.recover_ms > 5 * r.duration_ms);
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	fluidrun_print(&r, f);
	fclose(f);
	ck_assert_msg(!(strstr(buf, "unstable") && strstr(buf, "settled")), "%s", buf);
	ck_assert_msg(strstr(buf, "not at the fixed point") && strstr(buf, "334 ms"), "%s", buf);
	ck_assert_msg(strstr(buf, "hyper increase") && strstr(buf, "rpg_min_dec_fac") &&
		      strstr(buf, "clamp_tgt_rate"), "%s", buf);
}
END_TEST

/* what the model does not take is refused, saying why */
START_TEST(refusals)
{
	struct fluidrun_opts o = { 0 };
	struct fluidrun_setup su;
	char err[1024];
	struct scenario *s = tl_load(ring);
	ck_assert_int_eq(fluidrun_setup_of(s, &o, &su, err, sizeof(err)), FLUID_EUSAGE);
	ck_assert_str_eq(err, "fluid: job.x is pattern = ring-allreduce; the fluid model takes "
			      "one incast");
	tl_unload(s);
	/* a storage job too (its name was missing from the message's list) */
	s = tl_load("[job.x]\npattern = storage\ninitiators = 0\ntargets = 1\nsize = 1MB\n");
	ck_assert_int_eq(fluidrun_setup_of(s, &o, &su, err, sizeof(err)), FLUID_EUSAGE);
	ck_assert_str_eq(err, "fluid: job.x is pattern = storage; the fluid model takes one "
			      "incast");
	tl_unload(s);
	static const char *const nocc[] = { "nic.cc=none", NULL };
	s = tl_load_set(star40, nocc);
	ck_assert_int_eq(fluidrun_setup_of(s, &o, &su, err, sizeof(err)), FLUID_EUSAGE);
	ck_assert(strstr(err, "nic.cc = none") != NULL);
	tl_unload(s);
	static const char *const noecn[] = { "ecn.queues=", NULL };
	s = tl_load_set(star40, noecn);
	ck_assert_int_eq(fluidrun_setup_of(s, &o, &su, err, sizeof(err)), FLUID_EUSAGE);
	ck_assert(strstr(err, "ecn.queues") != NULL);
	tl_unload(s);
	/* and the model's own parameter checks */
	struct fluid_params p = paper_params(2, 4e-6);
	p.step_s = 5e-6; /* longer than tau* */
	ck_assert_ptr_null(fluid_new(&p, err, sizeof(err)));
	ck_assert(strstr(err, "step") != NULL);
}
END_TEST

/* flows that start together are integrated once; a straggler apart */
START_TEST(classes_and_stragglers)
{
	static const char *const late[] = { "job.incast.straggler=h3:1ms", NULL };
	struct scenario *s = tl_load_set(star40, late);
	struct fluidrun_opts o = { .flows = 4 };
	struct fluidrun_setup su;
	char err[1024];
	ck_assert_int_eq(fluidrun_setup_of(s, &o, &su, err, sizeof(err)), 0);
	ck_assert(su.start_s[0] == 0 && su.start_s[1] == 0 && su.start_s[3] == 0);
	close_to(su.start_s[2], 1e-3, 1e-12, "h3 straggles 1 ms");
	struct fluid *f = fluid_new(&su.p, err, sizeof(err));
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fluid_classes(f), 2);
	double rc, rt, al;
	ck_assert(!fluid_flow(f, 2, &rc, &rt, &al));
	for (int k = 0; k < 10001; k++)
		fluid_step(f);
	ck_assert(fluid_flow(f, 2, &rc, &rt, &al));
	fluid_free(f);
	fluidrun_setup_free(&su);
	tl_unload(s);
}
END_TEST

static Suite *make_fluid_suite(void)
{
	Suite *s = suite_create("fluid");
	TCase *tc = tcase_create("fluid");
	tcase_add_loop_test(tc, fixed_point_matches_integration, 0, 2);
	tcase_add_test(tc, mark_prob_on_ramp);
	tcase_add_loop_test(tc, margin_falls_with_delay, 0, 2);
	tcase_add_test(tc, fixed_point_is_stationary);
	tcase_add_test(tc, step_size_independent);
	tcase_add_test(tc, margin_agrees_with_integration);
	tcase_add_test(tc, deterministic_and_columns);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, verdict_says_why);
	tcase_add_test(tc, classes_and_stragglers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_fluid_suite());
}
