/*
 * fluidrun.h - `dcqcn-sim fluid` (the run layer; the model is
 * models/core/fluid.h, and the project keeps header names unique): a scenario whose traffic meets at one
 * bottleneck (one incast, or one trace whose flows all go to one host)
 * mapped onto the DCQCN fluid model (models/core/fluid.h), integrated, its
 * fixed point solved and its phase margin computed; the series written in
 * the packet run's formats (queues.csv, rates.csv) and summary.csv.
 *
 * Mapping (scenario -> model; units: packets = data wire frames of mtu +
 * 62 + 20 B, rates in those per second, the queue in frame bytes mtu + 62):
 *   N, start times  the incast's senders; each starts at the job's start
 *                   plus its straggler delay (skew is random: not modelled)
 *   C, line rate    topology.host_link (the receiver's ToR port; senders)
 *   Kmin, Kmax, pmax  ecn.kmin, kmax, pmax (instantaneous queue)
 *   tau*            the longest sender's path: a data frame out plus a CNP
 *                   back (serialization per link, 5 ns/m, switch_latency
 *                   per switch), as `check` computes its round trip
 *   tau             max(min_time_between_cnps, rate_reduce_monitor_period)
 *   tau', g         dce_tcp_rtt, (1024 - dce_tcp_g)/1024
 *   c               2^(10 - rpg_gd)
 *   B, T, R_AI      rpg_byte_reset / wire frame, rpg_time_reset, rpg_ai_rate
 *   F               rpg_threshold (fast-recovery steps)
 *   alpha(0), min   initial_alpha_value / 1024, rpg_min_rate
 * Left out: PFC (the queue is unbounded), hyper increase (rpg_hai_rate:
 * the model's Rt grows by R_AI only), rpg_min_dec_fac, clamp flags,
 * rate_to_set_on_first_cnp, cnp_scope, the flows' sizes (flows never end:
 * sim.duration is the horizon), iterations, skew and queueing delay in the
 * feedback loop.
 *
 * Errors: a scenario that does not fit, or bad options: FLUID_EUSAGE with
 * a message "fluid: ..." in err; a write that failed: FLUID_EIO.
 */
#ifndef DCQCN_FLUIDRUN_H
#define DCQCN_FLUIDRUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "models/base/units.h"
#include "models/core/fluid.h"

struct scenario;

enum fluid_status { FLUID_OK = 0, FLUID_EUSAGE = 2, FLUID_EIO = 3 };

#define FLUID_DEFAULT_STEP_PS 100000 /* 100 ns */

struct fluidrun_opts {
	const char *out_dir;        /* NULL: no files */
	sim_time_ps step_ps;        /* 0: 100 ns (or tau* when shorter) */
	sim_time_ps duration_ps;    /* 0: sim.duration */
	uint32_t flows;             /* 0: the scenario's senders; else N flows
				     * starting with the first sender */
};

/* the scenario as the model sees it */
struct fluidrun_setup {
	struct fluid_params p;
	double *start_s;            /* owned, p.start_s points here */
	int64_t frame_bytes, wire_bytes;
	uint32_t dst;
	char node[64], port[32];    /* the receiver's ToR and its port to dst */
	unsigned queue;             /* the data priority */
	sim_time_ps delay_ps, step_ps, duration_ps, sample_ps;
	uint32_t rates_flows;       /* output.rates */
	char job[32];
};

struct fluidrun_result {
	uint32_t flows, classes;
	double delay_us, step_ns, duration_ms, cap_gbps;
	int fixed_ok;
	const char *no_fixed;       /* why there is no fixed point (fixed_ok 0) */
	double fp_queue_bytes, fp_mark_prob, fp_alpha, fp_rate_gbps;
	double mean_queue_bytes, mean_mark_prob, mean_alpha, mean_rate_gbps;
	int settling;               /* the queue still drifts in the last half */
	int beyond_ramp;            /* p* > pmax: q* = kmax, no margin (not stable) */
	int margin_ok;
	double pm_deg, wc_rad_s;
	int stable;                 /* phase margin > 0 */
	double swing3_bytes, swing4_bytes; /* queue max - min, 3rd and last quarter */
	int oscillating;            /* the integrated queue's swing does not decay */
	int reached;                /* the run's 2nd half averages the fixed point:
				     * rate within 2 %, queue within 10 % (or 1 %
				     * of kmax - kmin); 0 without a fixed point */
	int slow_rate;              /* not reached: the flows are below C/N */
	double recover_ms;          /* slow_rate: additive increase's time from the
				     * mean rate to C/N with no marks (R_AI per
				     * expiry, T and B, F steps not counted) */
	double ai_mbps, timer_us;   /* R_AI, T */
	uint32_t fr_steps;          /* F */
	double alpha_tc_ms;         /* alpha's time constant tau' / g */
	char left_out[400];         /* the scenario's [dcqcn] knobs the model lacks
				     * that act here ("" when none) */
	uint64_t steps;
};

/* the setup of s (0), or FLUID_EUSAGE with why it does not fit */
int fluidrun_setup_of(const struct scenario *s, const struct fluidrun_opts *o,
		   struct fluidrun_setup *su, char *err, size_t len);
void fluidrun_setup_free(struct fluidrun_setup *su);
/* does the model take s (its traffic and its parameters), before anything
 * runs; 0, or the reason in err */
int fluidrun_check(const struct scenario *s, char *err, size_t len);
/* integrate, solve, analyse; files when o->out_dir */
int fluidrun_run(const struct scenario *s, const struct fluidrun_opts *o, struct fluidrun_result *r,
	      char *err, size_t len);
void fluidrun_print(const struct fluidrun_result *r, FILE *out);
/* N over the powers of 2 in [nlo, nhi] (and nhi): fixed point, margin and
 * an integrated run each; a table on out */
int fluidrun_sweep(const struct scenario *s, const struct fluidrun_opts *o, uint32_t nlo,
		uint32_t nhi, FILE *out, char *err, size_t len);

#endif
