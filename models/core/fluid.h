/*
 * fluid.h - the DCQCN fluid model: N flows through one bottleneck, as
 * delay-differential equations, beside the packet model (dcqcn.h).  Pure:
 * parameters in, numbers out; no scenario, no files (sim/run/fluidrun.c maps a
 * scenario onto it and writes the series).
 *
 * Source: Y. Zhu, M. Ghobadi, V. Misra, J. Padhye, "ECN or Delay: Lessons
 * Learnt from Analysis of DCQCN and TIMELY", CoNEXT 2016, section 3 (the
 * DCQCN fluid model, its fixed point and its linear stability analysis).
 * Per flow i, p the WRED marking probability of the queue q at t - tau*:
 *
 *   p(t)      = 0 (q <= Kmin); pmax (q - Kmin)/(Kmax - Kmin) (q <= Kmax); 1
 *   dq/dt     = sum_i Rc_i(t) - C                                  (q >= 0)
 *   dalpha/dt = g/tau' ((1 - (1 - p')^(tau' Rc')) - alpha)
 *   dRt/dt    = -(Rt - Rc)/tau (1 - (1 - p')^(tau Rc'))
 *               + R_AI Rc' (1 - p')^(F B) p'/((1 - p')^(-B) - 1)
 *               + R_AI Rc' (1 - p')^(F T Rc') p'/((1 - p')^(-T Rc') - 1)
 *   dRc/dt    = -Rc alpha c/tau (1 - (1 - p')^(tau Rc'))
 *               + (Rt - Rc)/2 Rc' p'/((1 - p')^(-B) - 1)
 *               + (Rt - Rc)/2 Rc' p'/((1 - p')^(-T Rc') - 1)
 *
 * with p' = p(t - tau*), Rc' = Rc(t - tau*); tau the CNP interval, tau' the
 * alpha update period, B the byte counter and T the increase timer, R_AI
 * the additive increase, F the fast-recovery steps; c = 2^(10 - rpg_gd)
 * (1/2: the paper's alpha/2).  Every byte-counter or timer expiry moves Rc
 * halfway to Rt; only those after F expiries without a CNP raise Rt (the
 * factors (1 - p')^(F B) and (1 - p')^(F T Rc'): the probability that the
 * F expiries before passed unmarked).
 * Units: packets (wire frames) and seconds; rates in packets per second.
 * The x/((1-x)^-k - 1) terms are written with log1p/expm1 and their p -> 0
 * limits (1/k), and (1 - (1-p)^(tau Rc))/tau with its tau -> 0 limit
 * (Rc (-log(1-p))), so every term is finite for p in [0, 1] and tau >= 0.
 * The model has no hyper increase, no rpg_min_dec_fac floor on a cut and
 * no clamp_tgt_rate flags (the paper's has none either).
 *
 * Integration: Heun (RK2) with a fixed step; the delayed q and Rc are read
 * from a ring buffer of the past tau* / step + 3 steps (linear interpolation
 * between steps).  Before a flow starts its Rc is 0 (in the history too);
 * at its start Rc = Rt = line rate and alpha = initial_alpha.  Flows with
 * the same start time follow the same trajectory: they are integrated once
 * (a class of flows with a multiplicity), which is exact, so an incast of
 * 64 flows costs what one flow costs.  Rc is kept in [min, line], Rt at
 * most line, alpha in [0, 1].
 *
 * Fixed point (all N flows alike, Rc = C/N): dRt/dt = dRc/dt = 0 leave one
 * equation in p, 2 c Rc alpha(p) A(p)^2 = R_AI I(p) I_F(p), with A the cut
 * rate (1-(1-p)^(tau Rc))/tau, I the increase events per second and I_F
 * those past F steps (the paper's a^2 alpha / ((b + d)(c + e)) = tau^2
 * R_AI Rc for c = 1/2); solved with GSL's Brent root finder; q follows from
 * the ramp (q = Kmax when p lies in the ramp's jump, (pmax, 1]).
 *
 * Stability: linearised around the fixed point (finite differences of the
 * per-flow equations), the open loop from p through the N flows' rates and
 * the queue back to p is L(s) = K N e^(-s tau*) / s x (-G(s)), G(s) =
 * e3' (sI - A0 - A1 e^(-s tau*))^-1 b (A1: the delayed-Rc terms), K =
 * pmax/(Kmax - Kmin); the crossover |L(jw)| = 1 by GSL's Brent solver, the
 * phase margin 180 + arg L(jw_c) degrees (phase unwrapped from low w).
 */
#ifndef DCQCN_FLUID_H
#define DCQCN_FLUID_H

#include <stdint.h>

struct fluid_params {
	uint32_t flows;          /* N */
	double cap_pps;          /* C: the bottleneck, packets/s */
	double line_pps;         /* Rc, Rt never above it */
	double min_pps;          /* Rc never below it */
	double kmin_pkts, kmax_pkts, pmax;
	double delay_s;          /* tau*: feedback delay */
	double cnp_s;            /* tau: CNP interval (0: a cut per mark) */
	double alpha_s;          /* tau': alpha update period (> 0) */
	double g;                /* alpha gain */
	double cut;              /* c: cut = alpha c (1/2 in the paper) */
	double byte_pkts;        /* B; 0 = byte counter off */
	double timer_s;          /* T (> 0) */
	double fr_steps;         /* F: fast-recovery steps (5 in the paper) */
	double ai_pps;           /* R_AI */
	double initial_alpha;
	double step_s;           /* integration step, 0 < step <= tau* */
	const double *start_s;   /* per flow start time; NULL: all at 0 */
};

struct fluid;

/* a new integration at t = 0 (NULL and err filled: bad parameters) */
struct fluid *fluid_new(const struct fluid_params *p, char *err, unsigned errlen);
void fluid_free(struct fluid *f);
/* one step of step_s */
void fluid_step(struct fluid *f);
/* steps taken; time = steps x step_s */
uint64_t fluid_steps(const struct fluid *f);
double fluid_queue_pkts(const struct fluid *f);
/* flow i's state; 0 when it has not started (rc, rt, alpha then 0) */
int fluid_flow(const struct fluid *f, uint32_t i, double *rc_pps, double *rt_pps,
	       double *alpha);
/* sums over the flows that have started: Rc and alpha */
void fluid_sums(const struct fluid *f, double *rc_pps, double *alpha);
/* classes of flows integrated (distinct start times) */
uint32_t fluid_classes(const struct fluid *f);

/* the WRED ramp */
double fluid_mark_prob(const struct fluid_params *p, double q_pkts);

struct fluid_fixed {
	double p, q_pkts, alpha, rc_pps, rt_pps;
};
/* 0, or -1 when the equations have no root in (0, 1) */
int fluid_fixed_point(const struct fluid_params *p, struct fluid_fixed *fp);

/* the derivatives of N flows alike in a steady state (the delayed q and
 * Rc equal to the current ones): d[0] dq/dt, d[1] dalpha/dt, d[2] dRt/dt,
 * d[3] dRc/dt, per flow (zero at the fixed point) */
void fluid_derivs_steady(const struct fluid_params *p, double q_pkts, double alpha,
			 double rt_pps, double rc_pps, double d[4]);

struct fluid_margin {
	double pm_deg;           /* phase margin; 180 when |L| < 1 everywhere */
	double wc_rad_s;         /* crossover; 0 when none */
};
/* 0, or -1 when no crossover could be bracketed */
int fluid_phase_margin(const struct fluid_params *p, const struct fluid_fixed *fp,
		       struct fluid_margin *m);

#endif
