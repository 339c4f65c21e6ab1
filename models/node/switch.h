/*
 * switch.h - a switch: forwarding, the shared-buffer MMU with PFC headroom,
 * PFC generation, egress queues and schedulers, WRED/ECN and the PFC
 * watchdog (docs/model.md).  switch.c opens with the model and its sources.
 */
#ifndef DCQCN_SWITCH_H
#define DCQCN_SWITCH_H

#include <gsl/gsl_rng.h>
#include <stdint.h>

#include "models/core/link.h"
#include "models/core/mmu.h"
#include "models/core/pause.h"
#include "models/core/wred.h"
#include "models/node/net.h"

enum switch_pfcwd_action { SWITCH_PFCWD_DROP, SWITCH_PFCWD_FORWARD, SWITCH_PFCWD_ALERT };

/* rate, PFC headroom and peer response of one class of port */
struct switch_port_class {
	int64_t rate_bps;
	int64_t headroom_bytes;        /* per lossless PG */
	sim_time_ps response_ps;       /* PFC frames received take effect after it */
};

/* what every switch of the fabric is configured with */
struct switch_config {
	struct switch_port_class host, fabric; /* host-facing and switch-facing ports */
	sim_time_ps latency_ps;        /* forwarding pipeline, after the whole frame */
	uint8_t ecmp_packet;           /* hash the PSN too (per-packet spraying) */
	uint8_t ecmp_adaptive;         /* per packet, the least loaded port of the ECMP set */
	struct wred_params wred;
	/* buffer (docs/model.md#buffer); the pool of each switch is derived from its ports */
	int64_t buffer_bytes, reserved_bytes, cell_bytes;
	int32_t dynamic_th, lossy_dynamic_th;
	/* PFC watchdog (docs/model.md#pfc-watchdog) */
	uint8_t pfcwd_enable;
	enum switch_pfcwd_action pfcwd_action;
	sim_time_ps pfcwd_detect_ps, pfcwd_restore_ps, pfcwd_poll_ps;
	uint64_t seed;                 /* ECMP salts and WRED streams */
	/* ib.cc (net qos.ibcc): FECN on data packets leaving a congested
	 * port/VL (switch.c fecn_mark) */
	struct switch_ibcc {
		uint64_t threshold_bytes; /* a VL's queue at least this long is congested */
		uint32_t marking_rate;    /* one eligible packet in marking_rate + 1 */
		uint32_t packet_size;     /* shorter frames are not marked, bytes */
		uint8_t victim_mask;      /* mark at ports that lack credits too */
	} ibcc;
};

struct sw;

/* The fields every frame reads or writes come first, on as few cache lines
 * as they fit: a fabric of thousands of ports touches a port per hop, and
 * each line of it is a miss (tx_ev to egress_bytes: the first 200 bytes). */
struct port {
	_Alignas(64) struct sim_event tx_ev;
	struct pkt *tx;                /* frame being serialized */
	struct sw *sw;
	uint8_t nonempty;              /* bit p: q[p] has packets */
	uint8_t dwrr_cur;
	uint8_t dwrr_fresh;            /* quantum already added this visit */
	uint8_t down;                  /* its link failed (fault link-down) */
	uint8_t qlast;                 /* bit q: the last queues.csv row of q was not 0 */
	uint8_t ibcc;                  /* ib.cc: it marks FECNs (net qos.ibcc) */
	uint16_t idx;                  /* port number at its switch */
	uint32_t gid;                  /* global port index (event keys) */
	struct serializer ser;
	uint64_t queued_bytes;         /* frame bytes in all queues */
	uint64_t max_queued_bytes;
	uint64_t tx_pkts, tx_bytes;    /* frames and frame bytes sent */
	int64_t egress_bytes[PKT_PRIOS]; /* MMU egress accounting (admitted, not yet sent) */
	struct pktq ctrl;              /* PFC frames: ahead of all data */
	struct pktq q[PKT_PRIOS];
	struct link link;              /* cable to the peer */
	struct pause_rx pause;         /* PFC received on this port */
	int64_t dwrr_deficit[PKT_PRIOS];
	/* InfiniBand (net qos.ib): credits toward the peer's receive buffer,
	 * per VL in 64-byte blocks, and the blocks this port's ingress freed
	 * that the next credit update returns to the peer */
	struct net_credits cred;
	/* ib.cc: when each VL's last packet left (a stall since then makes the
	 * VL a victim of congestion downstream), and its eligible packets since
	 * its last FECN */
	sim_time_ps fecn_last_ps[PKT_PRIOS];
	uint16_t fecn_count[PKT_PRIOS];
};

/* an ingress priority group: MMU accounting and the XOFF it sent upstream;
 * what admission and release read (mmu to sw) on the first cache line */
struct pg {
	_Alignas(64) struct mmu_pg mmu;
	uint8_t xoff;                  /* upstream is paused by us */
	uint8_t mute;                  /* watchdog storm on this port: send no PFC */
	uint8_t prio;
	uint16_t port;
	struct sw *sw;
	struct sim_event refresh_ev;   /* while XOFF: refresh before the pause expires */
};

struct sw {
	/* on lines of its own: switches of two partitions never share one */
	_Alignas(64) struct net *net;
	const struct switch_config *cfg;
	gsl_rng *rng;                  /* WRED marking stream */
	uint32_t id;
	uint16_t nports;
	struct port *ports;
	struct pg *pgs;                /* nports x 8, port-major */
	struct link pipeline;          /* switch_latency, all ingress ports */
	struct mmu_params mmu;
	struct mmu_pool pool;
	struct sim_event wd_ev;        /* PFC watchdog poll */
	uint64_t salt;                 /* per-switch ECMP hash salt */
};

/* switch `id` of net->topo with its ports and PGs (topo_ports(id) and 8
 * times that), the first port having the global index first_port; its
 * links are connected by the caller (switch_rx, nic_rx) */
void switch_init(struct net *net, struct sw *s, uint32_t id, const struct switch_config *cfg,
		 struct port *ports, struct pg *pgs, uint32_t first_port);
void switch_free(struct sw *s);
/* link delivery into switch `to` on port in_port */
void switch_rx(void *to, uint16_t in_port, struct pkt *p);
/* fail (down = 1) or restore a switch port's link, the switch's side */
void switch_port_set_down(struct sw *s, uint16_t port, int down);
/* the queue sampler's walk over ports that held packets since the last
 * sample (queues.csv; net->qbits), in order of global port index: emit each queue while
 * it is not empty, and once more when it has emptied */
void switch_sample_queues(struct net *net,
			  void (*emit)(void *ctx, const struct port *pt, unsigned q, uint64_t bytes),
			  void *ctx);
/* the shared pool of a switch with these ports (docs/model.md#buffer; may be <= 0) */
int64_t switch_pool_bytes(const struct switch_config *cfg, uint8_t lossless,
			  uint32_t host_ports, uint32_t fabric_ports);

#endif
