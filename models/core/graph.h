/*
 * graph.h - a fabric wired by a list of links (topology.kind = file): any
 * connected graph of hosts and switches, with shortest-path ECMP routing.
 * Pure: no file, no scenario; the loader (models/scenario/links.h) reads the
 * links CSV into the arrays graph_build() takes.
 *
 * Nodes.  A node with exactly one link is a host, every other node a switch.
 * Hosts are numbered 0..H-1 and switches 0..S-1, each in order of first
 * appearance in links[] (a before b within a link).  A switch's ports are
 * numbered 0..deg-1 in the order of its links in links[]; a host's single
 * link is its NIC (port 0).  Parallel links (two cables between the same
 * two switches) are two ports each side and two ECMP paths.
 *
 * Routing: shortest paths by hop count.  The packet leaves switch sw toward
 * host d on one of the ports whose peer switch is one hop closer to d's
 * switch (the ECMP set, in ascending port order), chosen as
 * set[hash % n].  A switch that d is cabled to sends it down d's port.
 *
 * Representation.  Only the switches that have a host ("access switches", T
 * of them, T <= S) are destinations, since a host is reached through its
 * one link.  One BFS over the switches from each access switch fills
 *   dist[sw][t]   uint8_t   switch-to-switch links from sw to access switch t
 *   set_of[sw][t] uint16_t  the ECMP set of sw toward t, an id local to sw
 * and each switch's distinct ECMP sets are stored once (a leaf uses the same
 * uplink set toward every other leaf).  Memory: 3 x S x T bytes plus the
 * distinct sets; graph_route() and graph_hops() are O(1).  Set-up time
 * O(T x (S + L)) for the BFS plus O(S x T x ports) for the sets.
 *
 * Limits (each checked by graph_build, which reports the first one broken):
 *   hosts         2 .. GRAPH_MAX_HOSTS (the ECMP key has 16 bits per host)
 *   switches      1 .. GRAPH_MAX_SWITCHES
 *   ports         at most GRAPH_MAX_PORTS per node (UINT16_MAX is
 *                 GRAPH_NO_ROUTE)
 *   links         at most GRAPH_MAX_LINKS
 *   S x T         at most GRAPH_MAX_PAIRS (192 MiB of routing table)
 *   path length   at most GRAPH_MAX_PATH switches between any two switches
 *   names         1 to 31 characters: letters, digits, '-', '_', '.'
 * e.g. a 3-tier fat-tree of k = 32 (8192 hosts, 1280 switches, T = 512)
 * builds in under 0.1 s with 2 MiB of routing table; one of k = 64 (65536
 * hosts, 5120 switches, T = 2048) in about 3 s with 30 MiB.
 *
 * A built graph is only read: several threads may route through it at once.
 */
#ifndef DCQCN_GRAPH_H
#define DCQCN_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#define GRAPH_NAME_SIZE	   32 /* a node name: 1-31 characters and the NUL */
#define GRAPH_NAME_CHARS   "letters, digits, '-', '_', '.'; 1 to 31 characters"
#define GRAPH_MAX_HOSTS	   65536u
#define GRAPH_MAX_SWITCHES 65536u
#define GRAPH_MAX_PORTS	   65535u
#define GRAPH_MAX_LINKS	   (1u << 24)
#define GRAPH_MAX_PAIRS	   (1u << 26) /* switches x access switches */
#define GRAPH_MAX_PATH	   255u	      /* switches on a shortest path */
#define GRAPH_NO_ROUTE	   UINT16_MAX

/* one cable between nodes a and b (indices into the names) */
struct graph_link {
	uint32_t a, b;
	int64_t rate_bps;
	int64_t cable_mm;
};

/* a node, or the far end of a port: a host (port 0, its NIC) or a switch
 * port */
struct graph_end {
	uint32_t node; /* host index or switch number */
	uint16_t port;
	uint8_t is_host;
};

struct graph_port {
	struct graph_end peer;
	uint32_t link; /* index in links[] */
	int64_t rate_bps, cable_mm;
};

/* an ECMP set: set_port[first .. first + n - 1], ascending */
struct graph_set {
	uint32_t first;
	uint16_t n;
};

/*
 * The counts are for reading; the rest is the tables behind the functions
 * below.
 */
struct graph {
	uint32_t hosts, switches, links;
	uint32_t access; /* T: switches with at least one host */

	char (*host_name)[GRAPH_NAME_SIZE];   /* [hosts] */
	char (*switch_name)[GRAPH_NAME_SIZE]; /* [switches] */
	struct graph_end *node_end;	      /* [nodes]: the caller's node index -> number */
	uint32_t nnodes;
	uint32_t *name_slot; /* open addressing, name_mask + 1 slots */
	uint32_t name_mask;

	uint32_t *port_first; /* [switches + 1]: ports of sw in port[] */
	struct graph_port *port;
	struct graph_end *host_up; /* [hosts]: the switch port of each NIC */

	uint32_t *access_of; /* [switches]: t, or UINT32_MAX */
	uint8_t *dist;	     /* [switches x access] */
	uint16_t *set_of;    /* [switches x access] */
	uint32_t *set_base;  /* [switches]: sw's first set in set[] */
	struct graph_set *set;
	uint16_t *set_port;
};

/*
 * Build g from nnodes names and nlinks links.  Checks every limit above,
 * and: link ends in range, no self-loop, rate above 0, cable 0 or more,
 * names well formed and distinct, every node linked, no two hosts linked
 * only to each other, every node reachable from every host.  Returns 0, or
 * -1 with a one-line message in err (names as given; no file, no line) and
 * g empty (graph_free is harmless).
 */
int graph_build(struct graph *g, const char (*names)[GRAPH_NAME_SIZE], uint32_t nnodes,
		const struct graph_link *links, uint32_t nlinks, char *err, size_t errlen);
void graph_free(struct graph *g);

/* is s a well-formed node name (GRAPH_NAME_CHARS)? */
int graph_name_ok(const char *s);

/* ---- wiring, O(1) ---- */

uint16_t graph_ports(const struct graph *g, uint32_t sw);
struct graph_end graph_peer(const struct graph *g, uint32_t sw, uint16_t port);
int64_t graph_port_rate_bps(const struct graph *g, uint32_t sw, uint16_t port);
int64_t graph_port_cable_mm(const struct graph *g, uint32_t sw, uint16_t port);
/* the index in links[] of the cable at that port */
uint32_t graph_port_link(const struct graph *g, uint32_t sw, uint16_t port);
/* the switch port a host's NIC is cabled to */
struct graph_end graph_host_uplink(const struct graph *g, uint32_t host);
/* the host or switch that the caller's node index became */
struct graph_end graph_node(const struct graph *g, uint32_t node);

/* ---- routing ---- */

/* egress port at switch sw toward host dst: set[hash % n] of the ECMP set
 * (every switch has one: the graph is connected) */
uint16_t graph_route(const struct graph *g, uint32_t sw, uint32_t dst, uint64_t hash);
/* the ECMP set of sw toward dst, ascending: returns n, *ports its ports */
uint16_t graph_ecmp(const struct graph *g, uint32_t sw, uint32_t dst, const uint16_t **ports);
/*
 * Routing around failed links: `down(ctx, sw, port)` says whether a switch
 * port's link is down (the same callback as topology.h's topo_down_fn).
 * Among the ports of the ECMP set that are up and from which a shortest
 * path to dst is still whole (checked to the end, over the shortest-path
 * graph toward dst, each switch at most once per call), pick the hash % n-th
 * in ascending order; toward a host on sw, its port unless down.  Returns
 * GRAPH_NO_ROUTE when no shortest path is left: a longer detour is not
 * taken (as a fabric before its routing protocol converges).  Cost per call:
 * the ports of the shortest-path graph toward dst at most, one port per hop
 * when nothing on the way is down.
 */
typedef int (*graph_down_fn)(const void *ctx, uint32_t sw, uint16_t port);
uint16_t graph_route_avoiding(const struct graph *g, uint32_t sw, uint32_t dst, uint64_t hash,
			      graph_down_fn down, const void *ctx);
/* is port `port` of sw's ECMP set toward dst up, with a whole shortest path
 * to dst behind it (graph_route_avoiding's test of one candidate) */
int graph_leads(const struct graph *g, uint32_t sw, uint16_t port, uint32_t dst,
		graph_down_fn down, const void *ctx);

/* switches on a shortest path from host a to host b (0 when a == b) */
uint32_t graph_hops(const struct graph *g, uint32_t a, uint32_t b);
/* switches on a shortest path from switch sw (counted) to host dst */
uint32_t graph_hops_from(const struct graph *g, uint32_t sw, uint32_t dst);

/* ---- names ---- */

const char *graph_host_name(const struct graph *g, uint32_t host);
const char *graph_switch_name(const struct graph *g, uint32_t sw);
const char *graph_end_name(const struct graph *g, struct graph_end e);
/* a node by its name: 0 and *e (port 0), or -1 */
int graph_find(const struct graph *g, const char *name, struct graph_end *e);
/*
 * "leafA-spineB": the two nodes of a link (names may hold '-' themselves:
 * the text must split at exactly one '-' into two names of the graph).
 * Returns 0, or -1 with a reason in err.  Whether they are cabled:
 * graph_ports_to.
 */
int graph_split_link(const struct graph *g, const char *text, struct graph_end e[2], char *err,
		     size_t errlen);
/* the ports of switch sw cabled to node peer, ascending, at most max of them
 * into ports; returns how many there are */
uint32_t graph_ports_to(const struct graph *g, uint32_t sw, struct graph_end peer, uint16_t *ports,
			uint32_t max);

#endif
