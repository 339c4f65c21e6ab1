/*
 * pfc.h - PFC arithmetic (IEEE 802.1Qbb, docs/model.md#pfc), pure and exact: pause
 * quanta as time, the peer response table, and the headroom formula.  The
 * loader (`check` prints these) and the switch and NIC models share it.
 *
 *   one quantum is 512 bit times: q quanta at R bps last
 *   ceil(q x 512 x 10^12 / R) ps (65535 at 400Gbps: 83884800 ps).
 *
 *   peer response (pfc.response_time = auto), IEEE/SONiC table in quanta:
 *   10G 67, 25G 80, 40G 118, 50G 147, 100G 394, 200G 453, 400G 905; other
 *   rates take the entry of the largest listed rate not above them (below
 *   10G: 67).
 *
 *   auto headroom of a lossless PG = 2 x wire frame (mtu + 82) for the frames
 *   in flight when XOFF is decided and when it arrives, + ceil(2 x cable x
 *   5 ps/mm x R / 8e12) bytes (the cable round trip), + the peer response
 *   bytes, + one wire frame for the frame the peer has started.  With an auto
 *   response time the response bytes are exactly quanta x 64 (512 bits), not
 *   re-derived from the rounded-up ps; with a given response time they are
 *   ceil(response_ps x R / 8e12).  400Gbps over 3m at mtu 4096:
 *   2 x 4178 + 1500 + 905 x 64 + 4178 = 71954 B.
 */
#ifndef DCQCN_PFC_H
#define DCQCN_PFC_H

#include <stdint.h>

#include "models/base/units.h"

#define PFC_QUANTUM_BITS 512
#define PFC_AUTO (-1) /* response_ps: from the table */

uint32_t pfc_response_quanta(int64_t rate_bps);
/* a quanta count as time at a rate (> 0), exact to the picosecond (rounded up) */
sim_time_ps pfc_quanta_ps(uint32_t quanta, int64_t rate_bps);
/* the peer response time: response_ps, or the table's (PFC_AUTO) */
sim_time_ps pfc_response_ps(sim_time_ps response_ps, int64_t rate_bps);
/* bytes sent at rate_bps during ps, rounded up */
int64_t pfc_bytes_in(sim_time_ps ps, int64_t rate_bps);

/* the terms of the auto headroom formula (check prints them) */
struct pfc_headroom {
	int64_t wire;     /* one wire frame: mtu + 82 */
	int64_t cable;    /* 2 x cable propagation x rate */
	int64_t response; /* response time x rate */
	int64_t total;    /* 2 x wire + cable + response + wire */
};

/* auto headroom of a port at rate_bps with a cable of cable_mm; response_ps
 * is pfc.response_time (a time or PFC_AUTO) */
struct pfc_headroom pfc_headroom_auto(uint32_t mtu_bytes, int64_t rate_bps, int64_t cable_mm,
				      sim_time_ps response_ps);

#endif
