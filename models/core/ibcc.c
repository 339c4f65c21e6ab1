/*
 * ibcc.c - InfiniBand congestion control's reaction point (ibcc.h): the
 * CCTI of a QP, raised by BECNs and lowered by its timer, applied lazily.
 * Source: InfiniBand Architecture Specification volume 1, Annex A10
 * (CA congestion setting: CCTI_Increase, CCTI_Limit, CCTI_Min, CCTI_Timer);
 * the timer's restart rule (it runs again after an expiry only while the
 * CCTI is above CCTI_Min, and a BECN starts it when stopped) as the Linux
 * hfi1 driver applies it.
 */
#include "models/core/ibcc.h"

void ibcc_init(const struct ibcc_params *p, struct ibcc_qp *q)
{
	q->ccti = p->ccti_min;
	q->tick_ps = -1;
}

void ibcc_advance(const struct ibcc_params *p, struct ibcc_qp *q, sim_time_ps now)
{
	if (q->tick_ps < 0 || now - q->tick_ps < p->ccti_timer_ps)
		return;
	int64_t k = (now - q->tick_ps) / p->ccti_timer_ps; /* expiries since the timer started */
	uint32_t above = q->ccti - p->ccti_min;
	if (k >= (int64_t)above) { /* down to the floor: the timer stops */
		q->ccti = p->ccti_min;
		q->tick_ps = -1;
		return;
	}
	q->ccti -= (uint32_t)k;
	q->tick_ps += k * p->ccti_timer_ps;
}

void ibcc_on_becn(const struct ibcc_params *p, struct ibcc_qp *q, sim_time_ps now)
{
	ibcc_advance(p, q, now);
	uint32_t c = q->ccti + p->ccti_increase;
	q->ccti = c < p->ccti_limit ? c : p->ccti_limit;
	if (q->tick_ps < 0 && q->ccti > p->ccti_min)
		q->tick_ps = now;
}
