/*
 * dcqcn.h - the DCQCN reaction point (sender side, per QP), pure: state +
 * parameters + `now`, no engine and no periodic timers
 * (docs/model.md#dcqcn, docs/ARCHITECTURE.md#performance-rules).
 *
 * Alpha decay, the increase timer and a deferred cut are applied lazily, in
 * closed form or by replaying the events that fell due, whenever the QP is
 * looked at (dcqcn_advance(), called by every other entry point), so the
 * simulator never schedules a per-QP timer.  Replaying in time order gives
 * the same rates as a step-by-step implementation that fires every timer
 * (tests/test_dcqcn.c holds such a reference and compares them).
 *
 * Rates are in bits per second (double), alpha in [0, 1] (double).
 *
 * Semantics by variant (the order of every step is documented in dcqcn.c):
 *   NVIDIA (ConnectX firmware knobs): alpha is updated every dce_tcp_rtt,
 *     alpha = (1 - g) alpha + g if a CNP arrived in the period, else
 *     (1 - g) alpha; at most one cut per rate_reduce_monitor_period (a CNP
 *     inside the period defers the cut to the period's end); cut =
 *     min(Rc alpha / 2^(gd-10), Rc (100 - min_dec_fac) / 100).
 *   PAPER (Zhu et al., SIGCOMM 2015): alpha = (1 - g) alpha + g on each
 *     CNP and alpha = (1 - g) alpha every alpha_period (55 us) without one;
 *     a cut on each CNP; hyper increase adds i x R_HAI, i = min(T, B) - F.
 *   HPCC (the HPCC ns-3 "dcqcn" model): the NVIDIA rules with its knobs;
 *     with the byte counter off (byte_reset_bytes 0) the stages use T alone.
 *
 * Cut timing (any variant): cut_on_timer 0 cuts at a CNP when the last cut
 * is at least monitor_period old (else defers it to last cut + period);
 * cut_on_timer 1 (HPCC ns-3) cuts only on a grid of monitor_period from the
 * first CNP, at the first grid point after a CNP (the first cut is one
 * period after the first CNP), and starts the increase timer at that cut.
 */
#ifndef DCQCN_DCQCN_H
#define DCQCN_DCQCN_H

#include <stdint.h>

#include "models/base/units.h"

enum dcqcn_variant { DCQCN_NVIDIA, DCQCN_PAPER, DCQCN_HPCC };

struct dcqcn_params {
	enum dcqcn_variant variant;
	double line_rate_bps;           /* Rt and Rc never exceed it */
	sim_time_ps time_reset_ps;      /* rpg_time_reset: increase timer */
	int64_t byte_reset_bytes;       /* rpg_byte_reset: byte counter; 0 = off */
	uint32_t threshold;             /* rpg_threshold F */
	double ai_bps, hai_bps;         /* rpg_ai_rate, rpg_hai_rate */
	uint32_t gd;                    /* rpg_gd: cut = alpha / 2^(gd - 10) */
	uint32_t min_dec_fac_pct;       /* rpg_min_dec_fac: a cut leaves Rc >= this % of Rc
					 * (largest cut 100 - this %); 0 = no limit */
	double min_rate_bps;            /* rpg_min_rate */
	double g;                       /* (1024 - dce_tcp_g) / 1024 */
	sim_time_ps alpha_period_ps;    /* dce_tcp_rtt (PAPER: decay period) */
	sim_time_ps monitor_period_ps;  /* rate_reduce_monitor_period; 0 = every CNP */
	double initial_alpha;           /* initial_alpha_value / 1024 */
	double first_cnp_rate_bps;      /* rate_to_set_on_first_cnp; 0 = keep, else Rc = Rt = it */
	int clamp_tgt_rate;             /* Rt = Rc on every cut */
	int clamp_after_time_inc;       /* ... or when the last increase was timer-driven */
	int cut_on_timer;               /* 0: a CNP cuts at once when the last cut is at least
					 * monitor_period old, else at last cut + period;
					 * 1 (HPCC ns-3): a CNP only flags a cut, which a
					 * timer every monitor_period from the first CNP makes */
};

enum dcqcn_inc { DCQCN_INC_NONE, DCQCN_INC_TIMER, DCQCN_INC_BYTE };

struct dcqcn_qp {
	/* first what a QP that never got a CNP reads for every packet it
	 * sends (reacting, rc_bps): in struct qp they share a line with the
	 * sender's other per-packet fields */
	uint8_t reacting;               /* a CNP has arrived: the state machine runs */
	uint8_t cnp_in_period;          /* NVIDIA/HPCC: a CNP arrived in this alpha period */
	uint8_t last_inc;               /* enum dcqcn_inc, since the last cut */
	double rc_bps, rt_bps, alpha;
	sim_time_ps last_cut_ps;        /* time of the last cut; INT64_MIN before the first */
	sim_time_ps timer_start_ps;     /* the increase timer counts from here */
	sim_time_ps alpha_start_ps;     /* the current alpha period began here */
	sim_time_ps deferred_cut_ps;    /* a deferred cut falls due here; -1 none */
	int64_t byte_count;             /* bytes sent since the byte counter last fired */
	uint32_t t_stage, b_stage;      /* T and B */
	uint64_t cuts, increases;       /* counters, for tests and outputs */
};

/* a new QP at line rate, not yet reacting (Rc = Rt = line rate) */
void dcqcn_init(const struct dcqcn_params *p, struct dcqcn_qp *q);
/* is q as dcqcn_init left it, every field (a QP in this state behaves as a
 * new one: nic.qp_cache may drop it) */
int dcqcn_fresh(const struct dcqcn_params *p, const struct dcqcn_qp *q);
/* apply every timer (alpha, increase) and deferred cut due at or before now */
void dcqcn_advance(const struct dcqcn_params *p, struct dcqcn_qp *q, sim_time_ps now);
/* a CNP for this QP arrived at now */
void dcqcn_on_cnp(const struct dcqcn_params *p, struct dcqcn_qp *q, sim_time_ps now);
/* the QP sent `bytes` (wire bytes of data frames) at now: byte counter */
void dcqcn_on_sent(const struct dcqcn_params *p, struct dcqcn_qp *q, int64_t bytes,
		   sim_time_ps now);
/* current rate after dcqcn_advance(p, q, now) */
double dcqcn_rate(const struct dcqcn_params *p, struct dcqcn_qp *q, sim_time_ps now);

#endif
