/*
 * topology.h - leaf-spine, 3-tier k-ary fat-tree and star wiring, in closed
 * form: who is behind every switch port and which port leads to a host are
 * computed from indices, so set-up is O(hosts + links) and nothing stores
 * all-pairs routes (docs/ARCHITECTURE.md#performance-rules).
 *
 * Numbering.  Hosts h0..h(H-1).  Switches are numbered 0..S-1 by tier:
 *   leaf-spine: leaf l = l (0..L-1), spine s = L + s.
 *     leaf ports 0..hpl-1 go down to hosts l*hpl + p; ports hpl..hpl+S-1 go
 *     up to spine p-hpl.  Spine port l goes to leaf l.
 *   fat-tree (k even, half = k/2): edges 0..k*half-1, then aggs, then cores
 *   (half^2).  Edge e (pod e/half) ports 0..half-1 go to hosts e*half + p,
 *   ports half..k-1 to agg (pod, p-half).  Agg j of a pod: ports 0..half-1 to
 *   the pod's edges, ports half..k-1 to core j*half + (p-half).  Core
 *   j*half+m: port p goes to agg j of pod p.  k^3/4 hosts, 5k^2/4 switches.
 *   star: one switch sw0, port p goes to host p.
 *   file: any connected graph read from a links file: hosts, switches and
 *     ports numbered as graph.h says, shortest-path ECMP routing, switch
 *     names from the file; the closed forms below give way to its tables.
 *   rail-optimized (R = gpus_per_server rails, U units of P servers): a
 *     leaf-spine whose leaves are rail leaves, leaf l = unit l/R, rail l%R.
 *     Host h is GPU h%R of server h/R (unit h/(P*R)); rail leaf (u, r) port
 *     p goes down to host (u*P + p)*R + r, so NIC r of every server of a
 *     unit reaches rail leaf r of that unit.  Uplinks and spines as
 *     leaf-spine.
 *   uplinks_per_spine (leaf-spine, rail-optimized) = M parallel links
 *     between every leaf and every spine: leaf port hpl + s*M + m goes to
 *     spine s, spine port l*M + m to leaf l.
 *
 * Servers.  gpus_per_server G groups consecutive hosts: hosts G*s ..
 * G*s+G-1 are the GPUs of server s, joined by NVLink (nic.h), not by the
 * switches.  A server never straddles two leaves or edge switches (the
 * loader checks that G divides their host ports; rail-optimized places
 * its GPUs on the unit's rail leaves by construction).
 *
 * Routing: a switch sends a packet down when the destination is below it,
 * else up on one of its uplinks chosen by an ECMP hash of the packet's
 * 5-tuple (src, dst, UDP source port; plus the PSN for per-packet spraying)
 * mixed with a per-switch salt, so successive tiers do not pick correlated
 * uplinks (hash polarization).  Adaptive routing chooses among the same
 * ports (topo_ecmp) by the switch's own egress queues (switch.c).
 */
#ifndef DCQCN_TOPOLOGY_H
#define DCQCN_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#include "models/base/units.h"

enum topo_kind { TOPO_KIND_LEAF_SPINE, TOPO_KIND_FAT_TREE, TOPO_KIND_STAR, TOPO_KIND_RAIL,
		 TOPO_KIND_FILE };

struct graph;

/* what [topology] says: the kind, its size, the links and cables */
struct topo_shape {
	enum topo_kind kind;
	uint32_t spines, leaves, hosts_per_leaf; /* leaf-spine */
	uint32_t k;                              /* fat-tree, even */
	uint32_t star_hosts;                     /* star */
	uint32_t units, servers_per_unit;        /* rail-optimized */
	uint32_t uplinks_per_spine;              /* leaf-spine, rail-optimized (>= 1) */
	uint32_t gpus_per_server;                /* every kind (>= 1); rails of rail-optimized */
	const struct graph *graph;               /* file: the links file's graph (graph.h) */
	int64_t host_link_bps, fabric_link_bps;
	int64_t host_cable_mm, fabric_cable_mm;
};

enum topo_tier { TOPO_HOST, TOPO_LEAF, TOPO_SPINE, TOPO_EDGE, TOPO_AGG, TOPO_CORE, TOPO_SW };

struct topo {
	enum topo_kind kind;
	uint32_t hosts, switches;
	uint32_t spines, leaves, hpl; /* leaf-spine; rail-optimized: hpl = servers per unit */
	uint32_t ups;             /* uplinks per spine (parallel leaf-spine links) */
	uint32_t rails;           /* rail-optimized: rails per unit (= gps); else 0 */
	uint32_t gps;             /* GPUs (hosts) per server */
	uint32_t k, half;         /* fat-tree */
	const struct graph *g;    /* file */
	int64_t host_link_bps, fabric_link_bps;
	sim_time_ps host_prop_ps, fabric_prop_ps;
};

/* the far end of a port: a host (port 0 is its NIC) or a switch port */
struct topo_end {
	enum topo_tier tier;
	uint32_t node;            /* host index or switch number */
	uint16_t port;
};

void topo_init(struct topo *t, const struct topo_shape *shape);
uint32_t topo_shape_hosts(const struct topo_shape *shape);
uint32_t topo_shape_switches(const struct topo_shape *shape);
enum topo_tier topo_tier_of(const struct topo *t, uint32_t sw);
uint16_t topo_ports(const struct topo *t, uint32_t sw);
struct topo_end topo_peer(const struct topo *t, uint32_t sw, uint16_t port);
/* the switch port a host's NIC is cabled to */
struct topo_end topo_host_uplink(const struct topo *t, uint32_t host);
/* is the port a host-facing port (host link rate and cable) */
int topo_port_is_host(const struct topo *t, uint32_t sw, uint16_t port);
/* egress port at switch sw toward host dst, with ECMP hash h */
uint16_t topo_route(const struct topo *t, uint32_t sw, uint32_t dst, uint64_t h);
/*
 * Routing around failed links (fault link-down): `down(ctx, sw, port)` says
 * whether a switch port's link is down.  Among the uplinks that are up and
 * still lead to dst (the whole remaining path is checked in closed form),
 * pick by the hash; going down, the one port toward dst.  Returns
 * TOPO_NO_ROUTE when no path is left.
 */
#define TOPO_NO_ROUTE UINT16_MAX
typedef int (*topo_down_fn)(const void *ctx, uint32_t sw, uint16_t port);
uint16_t topo_route_avoiding(const struct topo *t, uint32_t sw, uint32_t dst, uint64_t h,
			     topo_down_fn down, const void *ctx);
/*
 * The ECMP set of switch sw toward host dst: the ports topo_route chooses
 * among (topo_route(h) is port h % n of it), in ascending order.  Returns n;
 * the set is *list[0 .. n-1] when *list is not NULL (a links file's graph),
 * else the contiguous ports *first .. *first + n - 1.  Adaptive routing
 * (topology.ecmp = adaptive) picks among them by their queues.
 */
uint16_t topo_ecmp(const struct topo *t, uint32_t sw, uint32_t dst, uint16_t *first,
		   const uint16_t **list);
/* is port `port` of dst's ECMP set at sw up, with a whole path to dst behind
 * it (the test topo_route_avoiding applies to each candidate) */
int topo_leads(const struct topo *t, uint32_t sw, uint16_t port, uint32_t dst,
	       topo_down_fn down, const void *ctx);

/* the leaf (or edge switch, or the star's switch) of a host, and its port there */
uint32_t topo_host_leaf(const struct topo *t, uint32_t host);
/* leaf-spine and rail-optimized: the host below port `port` of leaf l */
uint32_t topo_leaf_host(const struct topo *t, uint32_t leaf, uint32_t port);
/* the server of a host (hosts gps*s .. gps*s + gps - 1) */
static inline uint32_t topo_server(const struct topo *t, uint32_t host)
{
	return host / t->gps;
}

/* number of switches a packet crosses from src to dst */
uint32_t topo_hops(const struct topo *t, uint32_t src, uint32_t dst);
/* node name: h3, leaf0, spine1, edge5, agg2, core0, sw0 */
char *topo_switch_name(const struct topo *t, uint32_t sw, char *buf, size_t len);
/* the same name as a prefix ("leaf", "spine", ...) and the number after it;
 * file: the whole name and UINT32_MAX */
const char *topo_switch_prefix(const struct topo *t, uint32_t sw, uint32_t *num);

/* the ECMP key of a packet, before the per-switch salt */
static inline uint64_t topo_flow_key(uint32_t src, uint32_t dst, uint32_t sport, uint32_t psn)
{
	return ((uint64_t)src << 48) ^ ((uint64_t)dst << 32) ^ ((uint64_t)sport << 16) ^
	       ((uint64_t)psn * UINT64_C(0x9e3779b97f4a7c15));
}

#endif
