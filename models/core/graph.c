/*
 * graph.c - a fabric from a list of links: numbering, wiring tables,
 * shortest-path ECMP routing (see graph.h).
 *
 * graph_build works in passes, each O(nodes + links) unless noted:
 *   1. names: syntax, a hash table, duplicates;
 *   2. links: ends in range, self-loops, rate and cable; degrees;
 *   3. numbering: hosts (degree 1) and switches by first appearance;
 *      two hosts linked to each other; the host and switch counts;
 *   4. ports: each switch's ports in link order, each host's uplink;
 *   5. islands: a BFS over the switches labels their components;
 *   6. distances: a BFS from each access switch, O(T x (S + L));
 *   7. ECMP sets: for each (switch, access switch) the ports one hop closer,
 *      stored once per distinct set of a switch, O(S x T x ports).
 */
#include "models/core/graph.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/invariant.h"

#define NO_SLOT	  UINT32_MAX
#define HOST_BIT  0x80000000u /* name table: a host's number, else a switch's */
#define DIST_NONE UINT8_MAX   /* not reached (yet) */

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen, const char *fmt,
						      ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int graph_name_ok(const char *s)
{
	size_t n;

	for (n = 0; s[n]; n++) {
		char c = s[n];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.'))
			return 0;
	}
	return n > 0 && n < GRAPH_NAME_SIZE;
}

/* FNV-1a of the first len bytes of s */
static uint32_t name_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static const char *slot_name(const struct graph *g, uint32_t v)
{
	return v & HOST_BIT ? g->host_name[v & ~HOST_BIT] : g->switch_name[v];
}

/* the slot of name [s, s + len) in g->name_slot: its entry, or the empty
 * slot where it would go */
static uint32_t *name_lookup(const struct graph *g, const char *s, size_t len)
{
	uint32_t i = name_hash(s, len) & g->name_mask;

	for (;; i = (i + 1) & g->name_mask) {
		uint32_t v = g->name_slot[i];
		if (v == NO_SLOT)
			return &g->name_slot[i];
		const char *n = slot_name(g, v);
		if (strlen(n) == len && memcmp(n, s, len) == 0)
			return &g->name_slot[i];
	}
}

static void *alloc_array(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

void graph_free(struct graph *g)
{
	free(g->host_name);
	free(g->switch_name);
	free(g->node_end);
	free(g->name_slot);
	free(g->port_first);
	free(g->port);
	free(g->host_up);
	free(g->access_of);
	free(g->dist);
	free(g->set_of);
	free(g->set_base);
	free(g->set);
	free(g->set_port);
	memset(g, 0, sizeof(*g));
}

/* passes 1-3: names, links, numbering; node_end and the name tables */
static int number_nodes(struct graph *g, const char (*names)[GRAPH_NAME_SIZE], uint32_t nnodes,
			const struct graph_link *links, uint32_t nlinks, uint32_t *deg, char *err,
			size_t errlen)
{
	uint32_t i;

	for (i = 0; i < nnodes; i++)
		if (!memchr(names[i], '\0', GRAPH_NAME_SIZE) || !graph_name_ok(names[i]))
			return fail(err, errlen, "node %" PRIu32 ": %.*s is not a node name (%s)",
				    i, GRAPH_NAME_SIZE - 1, names[i], GRAPH_NAME_CHARS);
	for (i = 0; i < nlinks; i++) {
		const struct graph_link *l = &links[i];
		if (l->a >= nnodes || l->b >= nnodes)
			return fail(err, errlen,
				    "link %" PRIu32 ": node %" PRIu32 " out of range (0-%" PRIu32
				    ")",
				    i, l->a >= nnodes ? l->a : l->b, nnodes - 1);
		if (l->a == l->b)
			return fail(err, errlen, "%s is linked to itself", names[l->a]);
		if (l->rate_bps <= 0)
			return fail(err, errlen, "%s-%s: rate %" PRId64 "bps must be above 0",
				    names[l->a], names[l->b], l->rate_bps);
		if (l->cable_mm < 0)
			return fail(err, errlen, "%s-%s: cable %" PRId64 "mm is negative",
				    names[l->a], names[l->b], l->cable_mm);
		if (++deg[l->a] > GRAPH_MAX_PORTS || ++deg[l->b] > GRAPH_MAX_PORTS)
			return fail(err, errlen, "%s has more than %u ports",
				    names[deg[l->a] > GRAPH_MAX_PORTS ? l->a : l->b],
				    GRAPH_MAX_PORTS);
	}
	for (i = 0; i < nnodes; i++)
		if (deg[i] == 0)
			return fail(err, errlen, "%s has no link", names[i]);
	for (i = 0; i < nlinks; i++)
		if (deg[links[i].a] == 1 && deg[links[i].b] == 1)
			return fail(err, errlen, "%s and %s are linked only to each other",
				    names[links[i].a], names[links[i].b]);

	/* first appearance in links[]: a, then b */
	for (i = 0; i < nnodes; i++)
		g->node_end[i].node = UINT32_MAX;
	for (i = 0; i < 2 * nlinks; i++) {
		uint32_t n = i & 1 ? links[i / 2].b : links[i / 2].a;
		struct graph_end *e = &g->node_end[n];
		if (e->node != UINT32_MAX)
			continue;
		e->is_host = deg[n] == 1;
		e->node = e->is_host ? g->hosts++ : g->switches++;
		if (g->hosts > GRAPH_MAX_HOSTS)
			return fail(err, errlen, "%s: more than %u hosts", names[n],
				    GRAPH_MAX_HOSTS);
		if (g->switches > GRAPH_MAX_SWITCHES)
			return fail(err, errlen, "%s: more than %u switches", names[n],
				    GRAPH_MAX_SWITCHES);
	}
	if (g->hosts < 2)
		return fail(err, errlen,
			    "%s host%s: a fabric needs at least 2 (a host is a node "
			    "with exactly one link)",
			    g->hosts ? "only one" : "no", g->hosts ? "" : "s");

	g->host_name = alloc_array(g->hosts, sizeof(*g->host_name));
	g->switch_name = alloc_array(g->switches, sizeof(*g->switch_name));
	uint32_t slots = 2;
	while (slots < 2 * nnodes)
		slots *= 2;
	g->name_slot = malloc(slots * sizeof(*g->name_slot));
	if (!g->host_name || !g->switch_name || !g->name_slot)
		return fail(err, errlen, "out of memory");
	memset(g->name_slot, 0xff, slots * sizeof(*g->name_slot));
	g->name_mask = slots - 1;
	for (i = 0; i < nnodes; i++) {
		const struct graph_end *e = &g->node_end[i];
		char *dst = e->is_host ? g->host_name[e->node] : g->switch_name[e->node];
		size_t len = strlen(names[i]);
		uint32_t *slot = name_lookup(g, names[i], len);
		if (*slot != NO_SLOT)
			return fail(err, errlen, "%s: the name of two nodes", names[i]);
		memcpy(dst, names[i], len + 1);
		*slot = e->is_host ? e->node | HOST_BIT : e->node;
	}
	return 0;
}

/* pass 4: each switch's ports in link order, each host's uplink */
static int wire(struct graph *g, const struct graph_link *links, uint32_t nlinks,
		const uint32_t *deg, char *err, size_t errlen)
{
	uint32_t i, sw, *next;

	g->port_first = alloc_array((size_t)g->switches + 1, sizeof(*g->port_first));
	g->host_up = alloc_array(g->hosts, sizeof(*g->host_up));
	next = alloc_array(g->switches, sizeof(*next));
	if (!g->port_first || !g->host_up || !next) {
		free(next);
		return fail(err, errlen, "out of memory");
	}
	for (i = 0; i < g->nnodes; i++)
		if (!g->node_end[i].is_host)
			g->port_first[g->node_end[i].node + 1] = deg[i];
	for (sw = 0; sw < g->switches; sw++)
		g->port_first[sw + 1] += g->port_first[sw];
	g->port = alloc_array(g->port_first[g->switches], sizeof(*g->port));
	if (!g->port) {
		free(next);
		return fail(err, errlen, "out of memory");
	}
	for (i = 0; i < nlinks; i++) {
		struct graph_end a = g->node_end[links[i].a], b = g->node_end[links[i].b];
		if (!a.is_host)
			a.port = (uint16_t)next[a.node]++;
		if (!b.is_host)
			b.port = (uint16_t)next[b.node]++;
		for (int side = 0; side < 2; side++) {
			struct graph_end me = side ? b : a, peer = side ? a : b;
			if (me.is_host) {
				g->host_up[me.node] = peer;
				continue;
			}
			g->port[g->port_first[me.node] + me.port] = (struct graph_port){
			    .peer = peer,
			    .link = i,
			    .rate_bps = links[i].rate_bps,
			    .cable_mm = links[i].cable_mm,
			};
		}
	}
	free(next);
	return 0;
}

/* pass 5: every switch (and so every host) in one island */
static int check_islands(struct graph *g, char *err, size_t errlen)
{
	uint32_t *label = malloc((size_t)g->switches * sizeof(*label));
	uint32_t *queue = malloc((size_t)g->switches * sizeof(*queue));
	uint32_t islands = 0, sw, h;
	int rc = 0;

	if (!label || !queue) {
		free(label);
		free(queue);
		return fail(err, errlen, "out of memory");
	}
	memset(label, 0xff, (size_t)g->switches * sizeof(*label));
	for (sw = 0; sw < g->switches; sw++) {
		uint32_t head = 0, tail = 0;
		if (label[sw] != UINT32_MAX)
			continue;
		label[sw] = islands;
		queue[tail++] = sw;
		while (head < tail) {
			uint32_t q = queue[head++];
			for (uint32_t p = g->port_first[q]; p < g->port_first[q + 1]; p++) {
				struct graph_end e = g->port[p].peer;
				if (!e.is_host && label[e.node] == UINT32_MAX) {
					label[e.node] = islands;
					queue[tail++] = e.node;
				}
			}
		}
		islands++;
	}
	if (islands > 1) {
		uint32_t home = label[g->host_up[0].node];
		for (h = 1; h < g->hosts; h++)
			if (label[g->host_up[h].node] != home)
				break;
		if (h < g->hosts) {
			rc = fail(err, errlen,
				  "%s cannot reach %s: the graph has %" PRIu32 " islands",
				  g->host_name[h], g->host_name[0], islands);
		} else {
			for (sw = 0; label[sw] == home; sw++)
				;
			rc = fail(err, errlen,
				  "%s cannot reach %s: the graph has %" PRIu32
				  " islands (one without hosts)",
				  g->switch_name[sw], g->host_name[0], islands);
		}
	}
	free(label);
	free(queue);
	return rc;
}

/* pass 6: dist[sw][t] by a BFS from each access switch */
static int distances(struct graph *g, char *err, size_t errlen)
{
	uint32_t S = g->switches, T, sw, t, h;
	uint32_t *queue;

	g->access_of = malloc((size_t)S * sizeof(*g->access_of));
	if (!g->access_of)
		return fail(err, errlen, "out of memory");
	memset(g->access_of, 0xff, (size_t)S * sizeof(*g->access_of));
	for (h = 0; h < g->hosts; h++)
		g->access_of[g->host_up[h].node] = 0;
	for (sw = 0, T = 0; sw < S; sw++)
		if (g->access_of[sw] == 0)
			g->access_of[sw] = T++;
	g->access = T;
	if ((uint64_t)S * T > GRAPH_MAX_PAIRS)
		return fail(err, errlen,
			    "%" PRIu32 " switches x %" PRIu32 " switches with hosts: the routing "
			    "table would have more than %u entries",
			    S, T, GRAPH_MAX_PAIRS);
	g->dist = malloc((size_t)S * T);
	queue = malloc((size_t)S * sizeof(*queue));
	if (!g->dist || !queue) {
		free(queue);
		return fail(err, errlen, "out of memory");
	}
	memset(g->dist, DIST_NONE, (size_t)S * T);
	for (sw = 0; sw < S; sw++) {
		uint32_t head = 0, tail = 0;
		if (g->access_of[sw] == UINT32_MAX)
			continue;
		t = g->access_of[sw];
		g->dist[(size_t)sw * T + t] = 0;
		queue[tail++] = sw;
		while (head < tail) {
			uint32_t q = queue[head++];
			uint32_t d = g->dist[(size_t)q * T + t] + 1u;
			for (uint32_t p = g->port_first[q]; p < g->port_first[q + 1]; p++) {
				struct graph_end e = g->port[p].peer;
				uint8_t *de = &g->dist[(size_t)e.node * T + t];
				if (e.is_host || *de != DIST_NONE)
					continue;
				if (d >= GRAPH_MAX_PATH) {
					free(queue);
					return fail(err, errlen,
						    "a shortest path from %s to %s crosses more "
						    "than %u switches",
						    g->switch_name[sw], g->switch_name[e.node],
						    GRAPH_MAX_PATH);
				}
				*de = (uint8_t)d;
				queue[tail++] = e.node;
			}
		}
	}
	free(queue);
	return 0;
}

/* pass 7: the ECMP sets, each switch's distinct ones stored once */
static int ecmp_sets(struct graph *g, char *err, size_t errlen)
{
	uint32_t S = g->switches, T = g->access, sw, t, slots = 2;
	size_t nsets = 0, capsets = 0, nports = 0, capports = 0;
	uint32_t *slot_gen = NULL, *slot_id = NULL;
	uint16_t *cur = NULL;
	int rc = 0;

	while (slots < 2 * T)
		slots *= 2;
	g->set_of = alloc_array((size_t)S * T, sizeof(*g->set_of));
	g->set_base = alloc_array(S, sizeof(*g->set_base));
	slot_gen = alloc_array(slots, sizeof(*slot_gen));
	slot_id = alloc_array(slots, sizeof(*slot_id));
	cur = alloc_array(GRAPH_MAX_PORTS, sizeof(*cur));
	if (!g->set_of || !g->set_base || !slot_gen || !slot_id || !cur) {
		rc = fail(err, errlen, "out of memory");
		goto out;
	}
	for (sw = 0; sw < S; sw++) {
		const uint8_t *dsw = &g->dist[(size_t)sw * T];
		uint32_t local = 0;
		g->set_base[sw] = (uint32_t)nsets;
		for (t = 0; t < T; t++) {
			uint32_t n = 0, i;
			if (dsw[t] == 0)
				continue; /* sw is t: the host's own port */
			for (uint32_t p = g->port_first[sw]; p < g->port_first[sw + 1]; p++) {
				struct graph_end e = g->port[p].peer;
				if (!e.is_host && g->dist[(size_t)e.node * T + t] + 1u == dsw[t])
					cur[n++] = (uint16_t)(p - g->port_first[sw]);
			}
			SIM_INVARIANT(n > 0, "switch %" PRIu32 " has no port toward %" PRIu32, sw,
				      t);
			/* slot_gen holds sw + 1 for the slots used by switch sw */
			for (i = name_hash((const char *)cur, n * sizeof(*cur)) & (slots - 1);
			     slot_gen[i] == sw + 1; i = (i + 1) & (slots - 1)) {
				const struct graph_set *s = &g->set[g->set_base[sw] + slot_id[i]];
				if (s->n == n &&
				    memcmp(&g->set_port[s->first], cur, n * sizeof(*cur)) == 0)
					break;
			}
			if (slot_gen[i] != sw + 1) {
				if (nsets == capsets) {
					capsets = capsets ? 2 * capsets : 64;
					void *ns = realloc(g->set, capsets * sizeof(*g->set));
					if (!ns) {
						rc = fail(err, errlen, "out of memory");
						goto out;
					}
					g->set = ns;
				}
				if (nports + n > UINT32_MAX) {
					rc = fail(err, errlen,
						  "the ECMP sets hold more than %" PRIu32 " ports",
						  UINT32_MAX);
					goto out;
				}
				while (nports + n > capports) {
					capports = capports ? 2 * capports : 256;
					void *np =
					    realloc(g->set_port, capports * sizeof(*g->set_port));
					if (!np) {
						rc = fail(err, errlen, "out of memory");
						goto out;
					}
					g->set_port = np;
				}
				memcpy(&g->set_port[nports], cur, n * sizeof(*cur));
				g->set[nsets++] = (struct graph_set){(uint32_t)nports, (uint16_t)n};
				nports += n;
				slot_gen[i] = sw + 1;
				slot_id[i] = local++;
			}
			g->set_of[(size_t)sw * T + t] = (uint16_t)slot_id[i];
		}
	}
out:
	free(slot_gen);
	free(slot_id);
	free(cur);
	return rc;
}

int graph_build(struct graph *g, const char (*names)[GRAPH_NAME_SIZE], uint32_t nnodes,
		const struct graph_link *links, uint32_t nlinks, char *err, size_t errlen)
{
	uint32_t *deg = NULL;
	int rc;

	memset(g, 0, sizeof(*g));
	if (nlinks == 0 || nnodes == 0)
		return fail(err, errlen, "no %s", nlinks ? "nodes" : "links");
	if (nlinks > GRAPH_MAX_LINKS)
		return fail(err, errlen, "more than %u links", GRAPH_MAX_LINKS);
	g->nnodes = nnodes;
	g->links = nlinks;
	deg = alloc_array(nnodes, sizeof(*deg));
	g->node_end = alloc_array(nnodes, sizeof(*g->node_end));
	if (!deg || !g->node_end)
		rc = fail(err, errlen, "out of memory");
	else
		rc = number_nodes(g, names, nnodes, links, nlinks, deg, err, errlen);
	if (rc == 0)
		rc = wire(g, links, nlinks, deg, err, errlen);
	free(deg);
	if (rc == 0)
		rc = check_islands(g, err, errlen);
	if (rc == 0)
		rc = distances(g, err, errlen);
	if (rc == 0)
		rc = ecmp_sets(g, err, errlen);
	if (rc)
		graph_free(g);
	return rc;
}

/* ---- wiring ---- */

static const struct graph_port *port_of(const struct graph *g, uint32_t sw, uint16_t port)
{
	return &g->port[g->port_first[sw] + port];
}

uint16_t graph_ports(const struct graph *g, uint32_t sw)
{
	return (uint16_t)(g->port_first[sw + 1] - g->port_first[sw]);
}

struct graph_end graph_peer(const struct graph *g, uint32_t sw, uint16_t port)
{
	return port_of(g, sw, port)->peer;
}

int64_t graph_port_rate_bps(const struct graph *g, uint32_t sw, uint16_t port)
{
	return port_of(g, sw, port)->rate_bps;
}

int64_t graph_port_cable_mm(const struct graph *g, uint32_t sw, uint16_t port)
{
	return port_of(g, sw, port)->cable_mm;
}

uint32_t graph_port_link(const struct graph *g, uint32_t sw, uint16_t port)
{
	return port_of(g, sw, port)->link;
}

struct graph_end graph_host_uplink(const struct graph *g, uint32_t host)
{
	return g->host_up[host];
}

struct graph_end graph_node(const struct graph *g, uint32_t node)
{
	return g->node_end[node];
}

/* ---- routing ---- */

static const struct graph_set *set_toward(const struct graph *g, uint32_t sw, uint32_t t)
{
	return &g->set[g->set_base[sw] + g->set_of[(size_t)sw * g->access + t]];
}

uint16_t graph_ecmp(const struct graph *g, uint32_t sw, uint32_t dst, const uint16_t **ports)
{
	const struct graph_end *up = &g->host_up[dst];

	if (up->node == sw) {
		*ports = &up->port;
		return 1;
	}
	const struct graph_set *s = set_toward(g, sw, g->access_of[up->node]);
	*ports = &g->set_port[s->first];
	return s->n;
}

uint16_t graph_route(const struct graph *g, uint32_t sw, uint32_t dst, uint64_t hash)
{
	const struct graph_end *up = &g->host_up[dst];

	if (up->node == sw)
		return up->port;
	const struct graph_set *s = set_toward(g, sw, g->access_of[up->node]);
	return g->set_port[s->first + hash % s->n];
}

/* one graph_route_avoiding call: the switches known to have no whole
 * shortest path left, a bit each (cleared when the first is found) */
struct avoid {
	const struct graph *g;
	uint32_t dst, t;
	graph_down_fn down;
	const void *ctx;
	int dead_used;
	uint64_t dead[GRAPH_MAX_SWITCHES / 64];
};

/* is a shortest path from switch sw to the host whole? */
static int reaches(struct avoid *a, uint32_t sw)
{
	const struct graph *g = a->g;
	const struct graph_end *up = &g->host_up[a->dst];

	if (sw == up->node)
		return !a->down(a->ctx, sw, up->port);
	if (a->dead_used && ((a->dead[sw / 64] >> (sw % 64)) & 1))
		return 0;
	const struct graph_set *s = set_toward(g, sw, a->t);
	for (uint16_t i = 0; i < s->n; i++) {
		uint16_t p = g->set_port[s->first + i];
		if (!a->down(a->ctx, sw, p) && reaches(a, port_of(g, sw, p)->peer.node))
			return 1;
	}
	if (!a->dead_used) {
		memset(a->dead, 0, ((size_t)g->switches + 63) / 64 * sizeof(a->dead[0]));
		a->dead_used = 1;
	}
	a->dead[sw / 64] |= UINT64_C(1) << (sw % 64);
	return 0;
}

uint16_t graph_route_avoiding(const struct graph *g, uint32_t sw, uint32_t dst, uint64_t hash,
			      graph_down_fn down, const void *ctx)
{
	const struct graph_end *up = &g->host_up[dst];
	struct avoid a;
	uint32_t ok = 0, k;
	uint16_t i;

	if (up->node == sw)
		return down(ctx, sw, up->port) ? GRAPH_NO_ROUTE : up->port;
	a.g = g;
	a.dst = dst;
	a.t = g->access_of[up->node];
	a.down = down;
	a.ctx = ctx;
	a.dead_used = 0;
	const struct graph_set *s = set_toward(g, sw, a.t);
	const uint16_t *ports = &g->set_port[s->first];
	for (i = 0; i < s->n; i++)
		if (!down(ctx, sw, ports[i]) && reaches(&a, port_of(g, sw, ports[i])->peer.node))
			ok++;
	if (ok == 0)
		return GRAPH_NO_ROUTE;
	k = (uint32_t)(hash % ok);
	for (i = 0; i < s->n; i++)
		if (!down(ctx, sw, ports[i]) && reaches(&a, port_of(g, sw, ports[i])->peer.node) &&
		    k-- == 0)
			return ports[i];
	SIM_INVARIANT(0, "graph_route_avoiding: %" PRIu32 " ports were whole, then fewer", ok);
}

int graph_leads(const struct graph *g, uint32_t sw, uint16_t port, uint32_t dst,
		graph_down_fn down, const void *ctx)
{
	const struct graph_end *up = &g->host_up[dst];
	struct avoid a;

	if (down(ctx, sw, port))
		return 0;
	if (up->node == sw)
		return 1;
	a.g = g;
	a.dst = dst;
	a.t = g->access_of[up->node];
	a.down = down;
	a.ctx = ctx;
	a.dead_used = 0;
	return reaches(&a, port_of(g, sw, port)->peer.node);
}

uint32_t graph_hops_from(const struct graph *g, uint32_t sw, uint32_t dst)
{
	uint32_t t = g->access_of[g->host_up[dst].node];
	return g->dist[(size_t)sw * g->access + t] + 1u;
}

uint32_t graph_hops(const struct graph *g, uint32_t a, uint32_t b)
{
	return a == b ? 0 : graph_hops_from(g, g->host_up[a].node, b);
}

/* ---- names ---- */

const char *graph_host_name(const struct graph *g, uint32_t host)
{
	return g->host_name[host];
}

const char *graph_switch_name(const struct graph *g, uint32_t sw)
{
	return g->switch_name[sw];
}

const char *graph_end_name(const struct graph *g, struct graph_end e)
{
	return e.is_host ? g->host_name[e.node] : g->switch_name[e.node];
}

/* [s, s + len) as a node */
static int find_range(const struct graph *g, const char *s, size_t len, struct graph_end *e)
{
	uint32_t v;

	if (len == 0 || len >= GRAPH_NAME_SIZE || !g->name_slot)
		return -1;
	v = *name_lookup(g, s, len);
	if (v == NO_SLOT)
		return -1;
	*e = (struct graph_end){.node = v & ~HOST_BIT, .port = 0, .is_host = !!(v & HOST_BIT)};
	return 0;
}

int graph_find(const struct graph *g, const char *name, struct graph_end *e)
{
	return find_range(g, name, strlen(name), e);
}

int graph_split_link(const struct graph *g, const char *text, struct graph_end e[2], char *err,
		     size_t errlen)
{
	size_t len = strlen(text);
	struct graph_end a, b;
	const char *dash, *first = NULL;
	int n = 0;

	for (dash = strchr(text, '-'); dash; dash = strchr(dash + 1, '-')) {
		size_t left = (size_t)(dash - text);
		if (find_range(g, text, left, &a) || find_range(g, dash + 1, len - left - 1, &b))
			continue;
		if (n++ == 0) {
			first = dash;
			e[0] = a;
			e[1] = b;
		} else {
			return fail(err, errlen, "%s is ambiguous: %.*s and %s, or %.*s and %s",
				    text, (int)(first - text), text, first + 1, (int)(dash - text),
				    text, dash + 1);
		}
	}
	if (n == 0)
		return fail(err, errlen, "%s is not two node names joined by '-' (e.g. %s-%s)",
			    text, g->switch_name[0], graph_end_name(g, g->port[0].peer));
	return 0;
}

uint32_t graph_ports_to(const struct graph *g, uint32_t sw, struct graph_end peer, uint16_t *ports,
			uint32_t max)
{
	uint32_t n = 0;

	for (uint32_t p = g->port_first[sw]; p < g->port_first[sw + 1]; p++) {
		struct graph_end e = g->port[p].peer;
		if (e.is_host == peer.is_host && e.node == peer.node) {
			if (n < max)
				ports[n] = (uint16_t)(p - g->port_first[sw]);
			n++;
		}
	}
	return n;
}
