/*
 * dcqcn.c - the DCQCN reaction point, lazy (docs/model.md#dcqcn,
 * docs/ARCHITECTURE.md#performance-rules; contract in dcqcn.h).  Rates in bits per second, times in picoseconds, alpha in [0, 1].
 *
 * Sources
 *   NVIDIA  ConnectX-4 and later firmware DCQCN knobs, as documented in
 *           "DCQCN CC Parameters" (NVIDIA networking docs; MLNX_OFED sysfs
 *           names / NVConfig names for mlxconfig): rpg_time_reset
 *           RPG_TIME_RESET, rpg_byte_reset RPG_BYTE_RESET, rpg_threshold
 *           RPG_THRESHOLD, rpg_ai_rate RPG_AI_RATE, rpg_hai_rate RPG_HAI_RATE,
 *           rpg_gd RPG_GD, rpg_min_dec_fac RPG_MIN_DEC_FAC, rpg_min_rate
 *           RPG_MIN_RATE, dce_tcp_g DCE_TCP_G, dce_tcp_rtt DCE_TCP_RTT,
 *           rate_reduce_monitor_period RATE_REDUCE_MONITOR_PERIOD,
 *           initial_alpha_value INITIAL_ALPHA_VALUE, rate_to_set_on_first_cnp
 *           RATE_TO_SET_ON_FIRST_CNP, clamp_tgt_rate CLAMP_TGT_RATE,
 *           clamp_tgt_rate_after_time_inc CLAMP_TGT_RATE_AFTER_TIME_INC.
 *   PAPER   Y. Zhu et al., "Congestion Control for Large-Scale RDMA
 *           Deployments", SIGCOMM 2015, section 3.1 (RP algorithm, equations
 *           (1) and (2), fast recovery / additive / hyper increase).
 *   HPCC    the DCQCN model of the HPCC ns-3 simulator (Li et al., SIGCOMM
 *           2019; src/point-to-point/model/rdma-hw.cc: cnp_received_mlx,
 *           UpdateAlphaMlx, CheckRateDecreaseMlx, RateIncEventTimerMlx,
 *           FastRecoveryMlx, ActiveIncreaseMlx, HyperIncreaseMlx).  Here it
 *           is the NVIDIA rule set run with that simulator's knob values and
 *           its cut timing (cut_on_timer; the profile sets it).
 *
 * State machine (same for all variants unless marked)
 *   Before the first CNP the QP is not reacting: Rc = Rt = line rate, no
 *   timer runs, sent bytes are not counted, nothing changes.
 *
 *   dcqcn_on_cnp(now):
 *     1. dcqcn_advance(now): everything due at or before now happens first.
 *     2. First CNP only: reacting = 1, alpha = initial_alpha, the alpha
 *        period starts at now (alpha_start = now), the increase timer starts
 *        at now, last_cut = never.  If first_cnp_rate_bps > 0: Rc = Rt = that
 *        rate (clamped to [min_rate, line]), and this replaces the first cut
 *        (step 5 without Rt/Rc: timer_start = last_cut = now, counters reset,
 *        cuts++); go to step 4.
 *     3. If a deferred cut is pending: nothing (at most one per window).
 *        Else if there was no cut yet, or monitor_period is 0, or
 *        now >= last_cut + monitor_period: cut(now).  Else the deferred cut
 *        is set to last_cut + monitor_period.
 *        cut_on_timer (HPCC ns-3): the CNP never cuts at once.  If no cut is
 *        pending (the flag of CheckRateDecreaseMlx is clear), the deferred
 *        cut is set to the next point of the decrease timer's grid after
 *        now: first CNP + k monitor_period, k >= 1.  Before the first cut
 *        that is first CNP + period; after it, every cut fell on the grid,
 *        so the grid is last_cut + k period.  The first CNP also starts
 *        the increase timer at the first cut, not at now (HPCC ns-3 starts
 *        its rate increase timer at a cut only); with first_cnp_rate_bps
 *        the rate is set at now as in step 2 and the first cut still
 *        follows one period later.
 *     4. PAPER: alpha = (1-g) alpha + g and the alpha decay clock restarts
 *        (alpha_start = now).  So the cut of step 3 uses the alpha before
 *        this update: equation (1) of the paper lists RT = RC,
 *        RC = RC(1 - alpha/2), alpha = (1-g) alpha + g in that order.
 *        NVIDIA/HPCC: cnp_in_period = 1 (the first CNP counts too).
 *
 *   cut(t):
 *     5. If clamp_tgt_rate, or last_inc == BYTE, or (last_inc == TIMER and
 *        clamp_after_time_inc): Rt = Rc.
 *        d = Rc alpha / 2^(gd-10); if min_dec_fac > 0:
 *        d = min(d, Rc (100 - min_dec_fac) / 100).  Rc = max(min_rate, Rc - d).
 *        timer_start = t, byte_count = 0, T = B = 0, last_inc = NONE,
 *        last_cut = t, cuts++.
 *
 *   Alpha ticks at alpha_start + k alpha_period (k >= 1):
 *     NVIDIA/HPCC: alpha = (1-g) alpha + (g if cnp_in_period), then
 *     cnp_in_period = 0.  PAPER: alpha = (1-g) alpha (the clock restarts at
 *     every CNP, so a tick only happens after a full period without one).
 *
 *   Increase event (timer: at timer_start + time_reset, then timer_start =
 *   that time; byte counter: each time byte_count reaches byte_reset_bytes,
 *   which subtracts byte_reset_bytes):
 *     6. hi = max(T, B), lo = min(T, B); when the byte counter is off
 *        (byte_reset_bytes == 0) hi = lo = T.
 *        hi < F: fast recovery (Rt unchanged);
 *        else lo > F: hyper, Rt += hai (PAPER: Rt += (lo - F) hai);
 *        else: additive, Rt += ai.
 *     7. Rt = min(Rt, line); Rc = (Rc + Rt) / 2; T++ (timer) or B++ (byte);
 *        last_inc = TIMER or BYTE; increases++.
 *
 *   dcqcn_advance(now) replays, in time order, every alpha tick, timer event
 *   and the deferred cut due at or before now.  At equal times:
 *     alpha tick, then deferred cut, then timer event.
 *   The alpha tick first: a cut uses the alpha of every period that ended at
 *   or before it.  The cut before the timer: the cut restarts the timer at
 *   its own time, so a timer event due at that same instant does not happen
 *   (congestion wins the tie; an increase that the cut would undo at once,
 *   and that would decide the clamp, is not applied).  An external event
 *   (CNP, send) at time t comes after everything internal due at t.
 *
 *   dcqcn_on_sent(bytes, now): dcqcn_advance(now); if reacting and the byte
 *   counter is on: byte_count += bytes, then one byte event per
 *   byte_reset_bytes reached.
 *
 * Laziness (docs/ARCHITECTURE.md#performance-rules): the fast path of dcqcn_advance() is three
 * comparisons (next alpha tick, next timer event, deferred cut).  k >= 1
 * elapsed alpha periods cost one step for the first period (it may hold the
 * CNP flag) and (1-g)^(k-1) for the rest: repeated multiplication while
 * k - 1 <= DCQCN_POW_MIN, pow() beyond (equal to the step-by-step product
 * within about (k-1) ulp, i.e. 1e-12 relative for k up to ~10^4; a long idle
 * QP thus costs one pow()).  Timer events are replayed one by one (each can
 * change Rt and Rc), except once Rt is at line rate and Rc = (Rc + Rt)/2
 * leaves Rc unchanged: every further timer event is then a no-op on the
 * rates and the remaining ones are only counted (T, increases), exactly as
 * the step-by-step model would.
 *
 * Where the sources disagree (and what is done here)
 *   - Cut timing.  NVIDIA: at most one cut per rate_reduce_monitor_period;
 *     modelled as "cut at once if the last cut is at least a period ago,
 *     else at last_cut + period" (docs/model.md#dcqcn).  HPCC ns-3 instead
 *     checks on a fixed grid (every period from the first CNP + 1 ns) and
 *     cuts if a CNP arrived since the last check, so its first cut is one
 *     period after the first CNP: cut_on_timer (dcqcn.cut_on = timer).  The
 *     1 ns there orders the check after an alpha update due at the same
 *     time; here the tie order (alpha tick first) does that, so the grid is
 *     first CNP + k period exactly.  PAPER: a cut on each CNP (monitor 0).
 *   - First CNP.  docs/model.md and NVIDIA: alpha = initial_alpha_value/1024 and the
 *     CNP counts for the first alpha period; with rate 0 the CNP is an
 *     ordinary CNP (the first cut happens at once).  HPCC ns-3 sets alpha = 1
 *     and does not count that CNP for alpha; not reproduced (its knob values
 *     are).  rate_to_set_on_first_cnp sets "rates (current, target)" per the
 *     NVIDIA documentation (HPCC ns-3 also sets both), so Rt = Rc = that rate.
 *   - Cut size.  NVIDIA: alpha / 2^(gd-10) bounded by rpg_min_dec_fac (Rc
 *     keeps at least min_dec_fac % of itself).  PAPER and HPCC ns-3: alpha/2
 *     (gd 11, min_dec_fac 0 gives the same).  docs/model.md#dcqcn says the first cut
 *     (alpha 1023/1024, gd 11, min_dec_fac 50) gives exactly Rc/2; its own
 *     formula gives Rc - Rc 1023/2048 = Rc 1025/2048 (the 50 % bound does not
 *     bind); the formula is implemented, exactly Rc/2 needs alpha = 1.
 *   - Increase stages.  PAPER/NVIDIA use both counters (max, min against F).
 *     HPCC ns-3 has no byte counter and uses T alone (T < F fast recovery,
 *     T == F additive, T > F hyper); the rule "byte counter off means hi =
 *     lo = T" reproduces it (with both counters and B stuck at 0 a QP would
 *     never reach hyper increase).  PAPER hyper adds i x R_HAI, i = lo - F;
 *     NVIDIA and HPCC ns-3 add R_HAI.
 *   - Clamping.  NVIDIA: clamp_tgt_rate (every cut) or the last increase was
 *     byte-driven, or timer-driven with clamp_tgt_rate_after_time_inc.  HPCC
 *     ns-3 clamps when ClampTargetRate or T != 0, the same thing when only
 *     the timer runs.  PAPER: Rt = Rc on every cut (clamp 1).
 *   - Stage counters saturate at UINT32_MAX instead of wrapping.
 */
#include "models/core/dcqcn.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* at most this many repeated multiplications for the alpha decay, then pow() */
#define DCQCN_POW_MIN 16
/* pow(1 - g, m) for m below this is remembered, per thread */
#define DCQCN_POW_MEMO 1024

/* pow(keep, m), m > DCQCN_POW_MIN.  A run asks for the same few powers again
 * and again (a QP's packets, and the rate samples, come a similar number of
 * alpha periods apart), so each thread keeps those pow() gave: the same
 * values, without pow's cost (docs/SCALING.md#pools-and-small-costs-measured).
 * 0 marks a power not computed yet (or one that is 0: computed again, still
 * right). */
static double keep_pow(double keep, int64_t m)
{
	static _Thread_local struct {
		double keep;
		double v[DCQCN_POW_MEMO];
	} memo;
	if (m >= DCQCN_POW_MEMO)
		return pow(keep, (double)m);
	if (memo.keep != keep) {
		memset(memo.v, 0, sizeof(memo.v));
		memo.keep = keep;
	}
	if (memo.v[m] == 0.0)
		memo.v[m] = pow(keep, (double)m);
	return memo.v[m];
}

/* last_cut_ps of a QP that was never cut */
static const sim_time_ps dcqcn_never = INT64_MIN;

static void dcqcn_reset_increase(struct dcqcn_qp *q, sim_time_ps t)
{
	q->timer_start_ps = t;
	q->byte_count = 0;
	q->t_stage = 0;
	q->b_stage = 0;
	q->last_inc = DCQCN_INC_NONE;
	q->last_cut_ps = t;
	q->cuts++;
}

/* step 5 */
static void dcqcn_cut(const struct dcqcn_params *p, struct dcqcn_qp *q, sim_time_ps t)
{
	if (p->clamp_tgt_rate || q->last_inc == DCQCN_INC_BYTE ||
	    (q->last_inc == DCQCN_INC_TIMER && p->clamp_after_time_inc))
		q->rt_bps = q->rc_bps;
	double d = ldexp(q->rc_bps * q->alpha, 10 - (int)p->gd);
	if (p->min_dec_fac_pct > 0) {
		double lim = q->rc_bps * (double)(100 - p->min_dec_fac_pct) / 100.0;
		if (lim < d)
			d = lim;
	}
	q->rc_bps -= d;
	if (q->rc_bps < p->min_rate_bps)
		q->rc_bps = p->min_rate_bps;
	dcqcn_reset_increase(q, t);
}

/* alpha ticks due at or before t */
static void dcqcn_alpha_to(const struct dcqcn_params *p, struct dcqcn_qp *q, sim_time_ps t)
{
	if (t < q->alpha_start_ps + p->alpha_period_ps)
		return;
	int64_t k = (t - q->alpha_start_ps) / p->alpha_period_ps;
	double keep = 1.0 - p->g;
	q->alpha = keep * q->alpha + (q->cnp_in_period ? p->g : 0.0);
	q->cnp_in_period = 0;
	if (k - 1 <= DCQCN_POW_MIN) {
		for (int64_t i = 1; i < k; i++)
			q->alpha *= keep;
	} else {
		q->alpha *= keep_pow(keep, k - 1);
	}
	q->alpha_start_ps += k * p->alpha_period_ps;
}

static uint32_t dcqcn_sat_add(uint32_t a, uint64_t n)
{
	return n >= (uint64_t)(UINT32_MAX - a) ? UINT32_MAX : a + (uint32_t)n;
}

/* steps 6 and 7 */
static void dcqcn_increase(const struct dcqcn_params *p, struct dcqcn_qp *q, enum dcqcn_inc by)
{
	uint32_t t = q->t_stage, b = q->b_stage, f = p->threshold;
	uint32_t hi = t, lo = t;
	if (p->byte_reset_bytes > 0) {
		hi = t > b ? t : b;
		lo = t < b ? t : b;
	}
	if (hi >= f) { /* else fast recovery: Rt unchanged */
		if (lo > f)
			q->rt_bps += p->variant == DCQCN_PAPER ? (double)(lo - f) * p->hai_bps
							       : p->hai_bps;
		else
			q->rt_bps += p->ai_bps;
	}
	if (q->rt_bps > p->line_rate_bps)
		q->rt_bps = p->line_rate_bps;
	q->rc_bps = (q->rc_bps + q->rt_bps) / 2;
	if (by == DCQCN_INC_TIMER)
		q->t_stage = dcqcn_sat_add(q->t_stage, 1);
	else
		q->b_stage = dcqcn_sat_add(q->b_stage, 1);
	q->last_inc = (uint8_t)by;
	q->increases++;
}

void dcqcn_init(const struct dcqcn_params *p, struct dcqcn_qp *q)
{
	assert(p->alpha_period_ps > 0 && p->time_reset_ps > 0);
	assert(p->monitor_period_ps >= 0 && p->byte_reset_bytes >= 0);
	assert(p->min_dec_fac_pct <= 100 && p->g >= 0 && p->g <= 1);
	*q = (struct dcqcn_qp){ .rc_bps = p->line_rate_bps, .rt_bps = p->line_rate_bps,
				.alpha = p->initial_alpha, .last_cut_ps = dcqcn_never,
				.deferred_cut_ps = -1 };
}

int dcqcn_fresh(const struct dcqcn_params *p, const struct dcqcn_qp *q)
{
	return !q->reacting && !q->cnp_in_period && !q->last_inc &&
	       q->rc_bps == p->line_rate_bps && q->rt_bps == p->line_rate_bps &&
	       q->alpha == p->initial_alpha && q->last_cut_ps == dcqcn_never &&
	       !q->timer_start_ps && !q->alpha_start_ps && q->deferred_cut_ps == -1 &&
	       !q->byte_count && !q->t_stage && !q->b_stage && !q->cuts && !q->increases;
}

static void dcqcn_advance_slow(const struct dcqcn_params *p, struct dcqcn_qp *q,
			       sim_time_ps now)
{
	for (;;) {
		sim_time_ps t_timer = q->timer_start_ps + p->time_reset_ps;
		sim_time_ps t_cut = q->deferred_cut_ps;
		int cut_due = t_cut >= 0 && t_cut <= now;
		if (cut_due && t_cut <= t_timer) {
			dcqcn_alpha_to(p, q, t_cut);
			q->deferred_cut_ps = -1;
			dcqcn_cut(p, q, t_cut);
			continue;
		}
		if (t_timer > now)
			break;
		/* a timer event at t_timer (< t_cut if a cut is due) */
		if (q->rt_bps == p->line_rate_bps && (q->rc_bps + q->rt_bps) / 2 == q->rc_bps) {
			/* rates at their fixed point: count the events before the cut or now */
			sim_time_ps last = cut_due ? t_cut - 1 : now;
			int64_t n = (last - q->timer_start_ps) / p->time_reset_ps;
			q->timer_start_ps += n * p->time_reset_ps;
			q->t_stage = dcqcn_sat_add(q->t_stage, (uint64_t)n);
			q->increases += (uint64_t)n;
			q->last_inc = DCQCN_INC_TIMER;
			continue;
		}
		q->timer_start_ps = t_timer;
		dcqcn_increase(p, q, DCQCN_INC_TIMER);
	}
	dcqcn_alpha_to(p, q, now);
}

void dcqcn_advance(const struct dcqcn_params *p, struct dcqcn_qp *q, sim_time_ps now)
{
	if (!q->reacting)
		return;
	if (now < q->alpha_start_ps + p->alpha_period_ps &&
	    now < q->timer_start_ps + p->time_reset_ps &&
	    (q->deferred_cut_ps < 0 || now < q->deferred_cut_ps))
		return;
	dcqcn_advance_slow(p, q, now);
}

/* cut_on_timer: steps 3 and 4 for a CNP at now; first: the QP's first CNP */
static void dcqcn_flag_cut(const struct dcqcn_params *p, struct dcqcn_qp *q, sim_time_ps now,
			   int first)
{
	sim_time_ps period = p->monitor_period_ps;
	if (first) { /* the decrease timer's grid starts at now */
		q->deferred_cut_ps = now + period;
		q->timer_start_ps = q->deferred_cut_ps;
	} else if (q->deferred_cut_ps < 0) { /* the flag was clear: set it */
		q->deferred_cut_ps = q->last_cut_ps + ((now - q->last_cut_ps) / period + 1) * period;
	}
	if (p->variant == DCQCN_PAPER) {
		q->alpha = (1.0 - p->g) * q->alpha + p->g;
		q->alpha_start_ps = now;
	} else {
		q->cnp_in_period = 1;
	}
}

void dcqcn_on_cnp(const struct dcqcn_params *p, struct dcqcn_qp *q, sim_time_ps now)
{
	dcqcn_advance(p, q, now);
	int first = !q->reacting;
	if (first) {
		q->reacting = 1;
		q->alpha = p->initial_alpha;
		q->alpha_start_ps = now;
		q->timer_start_ps = now;
		q->cnp_in_period = 0;
		if (p->first_cnp_rate_bps > 0) {
			double r = p->first_cnp_rate_bps;
			if (r > p->line_rate_bps)
				r = p->line_rate_bps;
			if (r < p->min_rate_bps)
				r = p->min_rate_bps;
			q->rc_bps = q->rt_bps = r;
			dcqcn_reset_increase(q, now);
			if (p->cut_on_timer) {
				dcqcn_flag_cut(p, q, now, 1);
				return;
			}
			if (p->variant == DCQCN_PAPER)
				q->alpha = (1.0 - p->g) * q->alpha + p->g;
			else
				q->cnp_in_period = 1;
			return;
		}
	}
	if (p->cut_on_timer) {
		dcqcn_flag_cut(p, q, now, first);
		return;
	}
	if (q->deferred_cut_ps < 0) {
		if (p->monitor_period_ps == 0 || q->last_cut_ps <= now - p->monitor_period_ps)
			dcqcn_cut(p, q, now);
		else
			q->deferred_cut_ps = q->last_cut_ps + p->monitor_period_ps;
	}
	if (p->variant == DCQCN_PAPER) {
		q->alpha = (1.0 - p->g) * q->alpha + p->g;
		q->alpha_start_ps = now;
	} else {
		q->cnp_in_period = 1;
	}
}

void dcqcn_on_sent(const struct dcqcn_params *p, struct dcqcn_qp *q, int64_t bytes,
		   sim_time_ps now)
{
	dcqcn_advance(p, q, now);
	if (!q->reacting || p->byte_reset_bytes == 0)
		return;
	q->byte_count += bytes;
	while (q->byte_count >= p->byte_reset_bytes) {
		q->byte_count -= p->byte_reset_bytes;
		dcqcn_increase(p, q, DCQCN_INC_BYTE);
	}
}

double dcqcn_rate(const struct dcqcn_params *p, struct dcqcn_qp *q, sim_time_ps now)
{
	dcqcn_advance(p, q, now);
	return q->rc_bps;
}
