/*
 * ibcc.h - InfiniBand congestion control's reaction point (IBTA, InfiniBand
 * Architecture Specification volume 1, Annex A10), per QP, pure: state,
 * parameters and `now`, no engine and no periodic timer
 * (docs/fabrics.md#infiniband-congestion-control-ibcc--on).
 *
 * A QP's congestion control table index (CCTI) starts at ccti_min.  A BECN
 * raises it by ccti_increase, up to ccti_limit, and starts the CCTI timer
 * if it is not running; each time the timer expires (every ccti_timer) the
 * CCTI falls by one, and the timer runs again while the CCTI is above
 * ccti_min.  The timer's expiries are applied lazily, in closed form, when
 * the QP is next looked at (ibcc_advance, called by every other entry
 * point): no event per QP.
 *
 * Between two packets the QP waits the inter-packet delay of its CCT entry.
 * The model's table has ccti_limit + 1 entries; entry i is shift 2,
 * multiplier i (the 2-bit shift and 14-bit multiplier of a CCT entry), read
 * as (frame time >> shift) x multiplier, the frame time being a full data
 * frame's on the host link (the reading of the Linux hfi1 driver for the
 * same fields): entry i delays i/4 frame times, so the QP's rate is
 * 4 / (4 + i) of the line.
 */
#ifndef DCQCN_IBCC_H
#define DCQCN_IBCC_H

#include <stdint.h>

#include "models/base/units.h"

#define IBCC_CCT_SHIFT 2u

struct ibcc_params {
	uint32_t ccti_increase;	   /* added to the CCTI by a BECN */
	uint32_t ccti_limit;	   /* the CCTI's ceiling (the table's last entry) */
	uint32_t ccti_min;	   /* its floor */
	sim_time_ps ccti_timer_ps; /* ccti_timer x 1.024 us: one step down */
	sim_time_ps frame_ps;	   /* a full data frame on the host link */
};

struct ibcc_qp {
	uint32_t ccti;
	sim_time_ps tick_ps; /* the timer counts from here; -1: not running */
};

/* a new QP: CCTI at ccti_min, the timer stopped */
void ibcc_init(const struct ibcc_params *p, struct ibcc_qp *q);
/* is q as ibcc_init left it */
static inline int ibcc_fresh(const struct ibcc_params *p, const struct ibcc_qp *q)
{
	return q->ccti == p->ccti_min && q->tick_ps == -1;
}
/* apply the timer's expiries up to now */
void ibcc_advance(const struct ibcc_params *p, struct ibcc_qp *q, sim_time_ps now);
/* a BECN arrives at now */
void ibcc_on_becn(const struct ibcc_params *p, struct ibcc_qp *q, sim_time_ps now);
/* the inter-packet delay of CCT entry i */
static inline sim_time_ps ibcc_ipd_ps(const struct ibcc_params *p, uint32_t i)
{
	return (p->frame_ps >> IBCC_CCT_SHIFT) * (sim_time_ps)i;
}
/* the delay the QP waits after a packet that leaves at now (advanced first);
 * 0 at CCTI 0 */
static inline sim_time_ps ibcc_delay_ps(const struct ibcc_params *p, struct ibcc_qp *q,
					sim_time_ps now)
{
	if (q->tick_ps >= 0)
		ibcc_advance(p, q, now);
	return q->ccti ? ibcc_ipd_ps(p, q->ccti) : 0;
}

#endif
