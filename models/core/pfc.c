/*
 * pfc.c - PFC arithmetic (see pfc.h).
 */
#include "models/core/pfc.h"

#include <assert.h>

#include "models/core/link.h"
#include "models/core/pkt.h"

uint32_t pfc_response_quanta(int64_t rate_bps)
{
	static const struct {
		int64_t gbps;
		uint32_t quanta;
	} table[] = {
		{ 10, 67 }, { 25, 80 }, { 40, 118 }, { 50, 147 },
		{ 100, 394 }, { 200, 453 }, { 400, 905 },
	};
	uint32_t q = table[0].quanta;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (rate_bps >= table[i].gbps * INT64_C(1000000000))
			q = table[i].quanta;
	return q;
}

sim_time_ps pfc_quanta_ps(uint32_t quanta, int64_t rate_bps)
{
	assert(rate_bps > 0);
	if (rate_bps <= 0)
		return 0;
	return units_mul_div_ceil((int64_t)quanta * PFC_QUANTUM_BITS, UNITS_PS_PER_S, rate_bps);
}

sim_time_ps pfc_response_ps(sim_time_ps response_ps, int64_t rate_bps)
{
	if (response_ps != PFC_AUTO)
		return response_ps;
	return pfc_quanta_ps(pfc_response_quanta(rate_bps), rate_bps);
}

int64_t pfc_bytes_in(sim_time_ps ps, int64_t rate_bps)
{
	return units_mul_div_ceil(ps, rate_bps, 8 * UNITS_PS_PER_S);
}

struct pfc_headroom pfc_headroom_auto(uint32_t mtu_bytes, int64_t rate_bps, int64_t cable_mm,
				      sim_time_ps response_ps)
{
	struct pfc_headroom t;
	t.wire = (int64_t)mtu_bytes + PKT_ROCE_HDR_BYTES + PKT_WIRE_OVERHEAD_BYTES;
	t.cable = pfc_bytes_in(2 * cable_mm * LINK_PS_PER_MM, rate_bps);
	if (response_ps == PFC_AUTO) /* exactly quanta x 512 bits */
		t.response = (int64_t)pfc_response_quanta(rate_bps) * (PFC_QUANTUM_BITS / 8);
	else
		t.response = pfc_bytes_in(response_ps, rate_bps);
	t.total = 3 * t.wire + t.cable + t.response;
	return t;
}
