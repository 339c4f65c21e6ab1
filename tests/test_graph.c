/*
 * test_graph.c - fabrics from a links file: the loader's rows and messages
 * (links.c), the graph core's numbering, wiring and routing (graph.c),
 * checked against a reference: all-pairs distances by Floyd-Warshall over
 * every node, on small random graphs with parallel links and failed links.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/rng.h"
#include "models/core/graph.h"
#include "models/scenario/links.h"
#include "models/scenario/scenario.h"
#include "testlib.h"

/* an assertion for the inner loops: Check records the place of every
 * ck_assert (a write to its pipe), this one costs nothing until it fails */
#define EXPECT(cond)                                                                               \
	do {                                                                                       \
		if (!(cond))                                                                       \
			ck_abort_msg("Assertion '%s' failed", #cond);                              \
	} while (0)

static struct graph load_ok(const char *name)
{
	char path[512];
	struct scn_error err = {{0}};
	struct graph g;

	snprintf(path, sizeof(path), "%s/%s", TEST_DATA_DIR, name);
	ck_assert_msg(links_load(path, &g, &err) == 0, "%s", err.msg);
	return g;
}

static uint32_t host_of(const struct graph *g, const char *name)
{
	struct graph_end e;
	ck_assert_msg(graph_find(g, name, &e) == 0 && e.is_host, "%s is not a host", name);
	return e.node;
}

static uint32_t switch_of(const struct graph *g, const char *name)
{
	struct graph_end e;
	ck_assert_msg(graph_find(g, name, &e) == 0 && !e.is_host, "%s is not a switch", name);
	return e.node;
}

/* following a port's peer twice returns to the port; a host's uplink names
 * the port it is cabled to; both ends of a cable have its rate and length */
static void check_symmetry(const struct graph *g)
{
	uint32_t host_ports = 0;

	for (uint32_t sw = 0; sw < g->switches; sw++)
		for (uint16_t p = 0; p < graph_ports(g, sw); p++) {
			struct graph_end e = graph_peer(g, sw, p);
			if (e.is_host) {
				struct graph_end up = graph_host_uplink(g, e.node);
				EXPECT(!up.is_host);
				EXPECT(up.node == sw);
				EXPECT(up.port == p);
				EXPECT(e.port == 0);
				host_ports++;
				continue;
			}
			EXPECT(e.node < g->switches);
			EXPECT(e.port < graph_ports(g, e.node));
			struct graph_end back = graph_peer(g, e.node, e.port);
			EXPECT(!back.is_host);
			EXPECT(back.node == sw);
			EXPECT(back.port == p);
			EXPECT(graph_port_rate_bps(g, sw, p) ==
			       graph_port_rate_bps(g, e.node, e.port));
			EXPECT(graph_port_cable_mm(g, sw, p) ==
			       graph_port_cable_mm(g, e.node, e.port));
			EXPECT(graph_port_link(g, sw, p) == graph_port_link(g, e.node, e.port));
		}
	EXPECT(host_ports == g->hosts);
}

/* walk src -> dst by graph_route with random hashes: dst is reached, in
 * graph_hops switches, each one hop closer */
static void check_walks(const struct graph *g, uint64_t seed, int rounds)
{
	uint64_t x = seed;

	for (int r = 0; r < rounds; r++)
		for (uint32_t src = 0; src < g->hosts; src++)
			for (uint32_t dst = 0; dst < g->hosts; dst++) {
				if (src == dst)
					continue;
				struct graph_end at = graph_host_uplink(g, src);
				uint32_t hops = 0, want = graph_hops(g, src, dst);
				for (;;) {
					hops++;
					EXPECT(hops <= want);
					EXPECT(graph_hops_from(g, at.node, dst) == want - hops + 1);
					x = rng_mix(x);
					uint16_t out = graph_route(g, at.node, dst, x);
					EXPECT(out < graph_ports(g, at.node));
					struct graph_end next = graph_peer(g, at.node, out);
					if (next.is_host) {
						EXPECT(next.node == dst);
						break;
					}
					at = next;
				}
				EXPECT(hops == want);
			}
}

/* every hash picks set[hash % n] of the ECMP set, and each member is picked */
static void check_ecmp(const struct graph *g, uint32_t sw, uint32_t dst, const uint16_t *want,
		       uint16_t nwant)
{
	const uint16_t *set;
	uint16_t n = graph_ecmp(g, sw, dst, &set);

	ck_assert_uint_eq(n, nwant);
	for (uint16_t i = 0; i < n; i++)
		ck_assert_uint_eq(set[i], want[i]);
	for (uint64_t h = 0; h < 4u * n; h++)
		ck_assert_uint_eq(graph_route(g, sw, dst, h * 7919u), want[(h * 7919u) % n]);
}

START_TEST(leaf_spine_from_file)
{
	struct graph g = load_ok("links-leafspine.csv");
	static const char *const hosts[] = {"h0", "h1", "h2", "h3"};
	static const char *const switches[] = {"leaf0", "spine0", "spine1", "leaf1"};

	ck_assert_uint_eq(g.hosts, 4);
	ck_assert_uint_eq(g.switches, 4);
	ck_assert_uint_eq(g.links, 8);
	ck_assert_uint_eq(g.access, 2);
	/* first appearance, a before b */
	for (uint32_t i = 0; i < 4; i++) {
		ck_assert_str_eq(graph_host_name(&g, i), hosts[i]);
		ck_assert_str_eq(graph_switch_name(&g, i), switches[i]);
		ck_assert_uint_eq(host_of(&g, hosts[i]), i);
		ck_assert_uint_eq(switch_of(&g, switches[i]), i);
	}
	/* ports in file order */
	ck_assert_uint_eq(graph_ports(&g, 0), 4);
	ck_assert_uint_eq(graph_ports(&g, 1), 2);
	struct graph_end e = graph_peer(&g, 0, 1);
	ck_assert(e.is_host && e.node == 1 && e.port == 0);
	e = graph_peer(&g, 0, 3);
	ck_assert(!e.is_host && e.node == 2 && e.port == 0);
	e = graph_peer(&g, 3, 3);
	ck_assert(!e.is_host && e.node == 2 && e.port == 1);
	e = graph_host_uplink(&g, 2);
	ck_assert(!e.is_host && e.node == 3 && e.port == 0);
	ck_assert_int_eq(graph_port_rate_bps(&g, 0, 0), INT64_C(100000000000));
	ck_assert_int_eq(graph_port_rate_bps(&g, 0, 2), INT64_C(400000000000));
	ck_assert_int_eq(graph_port_cable_mm(&g, 0, 0), 3000);
	ck_assert_int_eq(graph_port_cable_mm(&g, 3, 1), 2500);
	ck_assert_int_eq(graph_port_cable_mm(&g, 3, 3), 40000);
	ck_assert_int_eq(graph_port_cable_mm(&g, 2, 1), 40000);
	ck_assert_uint_eq(graph_port_link(&g, 2, 1), 7);
	e = graph_node(&g, 1); /* the loader's node 1 is leaf0 */
	ck_assert(!e.is_host && e.node == 0);
	check_symmetry(&g);

	/* routes: a local host directly, a remote one over both uplinks */
	static const uint16_t to_h1[] = {1}, up[] = {2, 3}, down1[] = {1};
	check_ecmp(&g, 0, 1, to_h1, 1);
	check_ecmp(&g, 0, 2, up, 2);
	check_ecmp(&g, 0, 3, up, 2);
	check_ecmp(&g, 3, 0, up, 2);
	check_ecmp(&g, 1, 3, down1, 1); /* spine0 to leaf1 */
	check_ecmp(&g, 2, 2, down1, 1);
	ck_assert_uint_eq(graph_hops(&g, 0, 0), 0);
	ck_assert_uint_eq(graph_hops(&g, 0, 1), 1);
	ck_assert_uint_eq(graph_hops(&g, 0, 2), 3);
	ck_assert_uint_eq(graph_hops(&g, 3, 1), 3);
	ck_assert_uint_eq(graph_hops_from(&g, 1, 0), 2);
	check_walks(&g, 1, 8);
	graph_free(&g);
}
END_TEST

START_TEST(parallel_links_are_ecmp_paths)
{
	struct graph g = load_ok("links-parallel.csv");
	static const uint16_t up_a[] = {2, 3, 4, 5}, up_b[] = {2, 3, 4, 5};
	static const uint16_t s0_to_b[] = {2, 3}, s1_to_a[] = {0, 1};

	ck_assert_uint_eq(g.hosts, 4);
	ck_assert_uint_eq(g.switches, 4);
	ck_assert_uint_eq(g.links, 12);
	/* column a is the second one: gpu.0 appears before leaf-a */
	ck_assert_str_eq(graph_host_name(&g, 0), "gpu.0");
	ck_assert_str_eq(graph_host_name(&g, 1), "gpu.1");
	ck_assert_str_eq(graph_switch_name(&g, 0), "leaf-a");
	ck_assert_str_eq(graph_switch_name(&g, 1), "spine-0");
	ck_assert_str_eq(graph_switch_name(&g, 2), "spine-1");
	ck_assert_str_eq(graph_switch_name(&g, 3), "leaf-b");
	ck_assert_uint_eq(graph_ports(&g, 0), 6);
	ck_assert_uint_eq(graph_ports(&g, 1), 4);
	ck_assert_uint_eq(graph_ports(&g, 3), 6);
	check_symmetry(&g);
	/* leaf-b: gpu.2, gpu.3, spine-0, spine-1, spine-0, spine-1 */
	struct graph_end e = graph_peer(&g, 3, 4);
	ck_assert(!e.is_host && e.node == 1 && e.port == 3);
	check_ecmp(&g, 0, 2, up_a, 4);
	check_ecmp(&g, 3, 1, up_b, 4);
	check_ecmp(&g, 1, 3, s0_to_b, 2);
	check_ecmp(&g, 2, 0, s1_to_a, 2);
	ck_assert_uint_eq(graph_hops(&g, 0, 3), 3);
	check_walks(&g, 2, 8);

	/* names with '-' and link text */
	struct graph_end ends[2];
	char why[128];
	uint16_t ports[4];
	ck_assert_int_eq(graph_split_link(&g, "leaf-b-spine-0", ends, why, sizeof(why)), 0);
	ck_assert(!ends[0].is_host && ends[0].node == 3);
	ck_assert(!ends[1].is_host && ends[1].node == 1);
	ck_assert_uint_eq(graph_ports_to(&g, 3, ends[1], ports, 4), 2);
	ck_assert_uint_eq(ports[0], 2);
	ck_assert_uint_eq(ports[1], 4);
	ck_assert_int_eq(graph_split_link(&g, "gpu.3-leaf-b", ends, why, sizeof(why)), 0);
	ck_assert(ends[0].is_host && ends[0].node == 3);
	ck_assert_uint_eq(graph_ports_to(&g, 3, ends[0], ports, 4), 1);
	ck_assert_uint_eq(ports[0], 1);
	ck_assert_uint_eq(graph_ports_to(&g, 0, ends[0], ports, 4), 0);
	ck_assert_int_eq(graph_split_link(&g, "leaf-a-spine-9", ends, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "leaf-a-spine-9 is not two node names joined by '-' (e.g. "
			      "leaf-a-gpu.0)");
	ck_assert_int_eq(graph_find(&g, "leaf", &e), -1);
	graph_free(&g);
}
END_TEST

START_TEST(ring_of_five_has_unique_paths)
{
	struct graph g = load_ok("links-ring5.csv");

	ck_assert_uint_eq(g.hosts, 5);
	ck_assert_uint_eq(g.switches, 5);
	check_symmetry(&g);
	for (uint32_t a = 0; a < 5; a++) {
		char name[8];
		snprintf(name, sizeof(name), "s%u", a);
		ck_assert_str_eq(graph_switch_name(&g, a), name);
		for (uint32_t b = 0; b < 5; b++) {
			uint32_t d = a > b ? a - b : b - a;
			d = d < 5 - d ? d : 5 - d;
			ck_assert_uint_eq(graph_hops(&g, a, b), a == b ? 0 : d + 1);
			for (uint32_t sw = 0; sw < 5; sw++) {
				const uint16_t *set;
				ck_assert_uint_eq(graph_ecmp(&g, sw, b, &set), 1);
			}
		}
	}
	/* s0: port 0 to s1, 1 to s4, 2 to h0 */
	ck_assert_uint_eq(graph_route(&g, 0, 2, 12345), 0);
	ck_assert_uint_eq(graph_route(&g, 0, 3, 12345), 1);
	ck_assert_uint_eq(graph_route(&g, 0, 0, 12345), 2);
	ck_assert_int_eq(graph_port_rate_bps(&g, 0, 1), INT64_C(200000000000));
	ck_assert_int_eq(graph_port_cable_mm(&g, 0, 1), 50000);
	check_walks(&g, 3, 4);
	graph_free(&g);
}
END_TEST

/* a graph from "a-b" pairs of node names, each link 100Gbps and 1m */
static int build_pairs(struct graph *g, const char *const *pairs, char *err, size_t errlen)
{
	char names[64][GRAPH_NAME_SIZE];
	struct graph_link links[64];
	uint32_t nnodes = 0, nlinks = 0;

	for (; pairs[nlinks]; nlinks++) {
		const char *dash = strchr(pairs[nlinks], ' ');
		uint32_t end[2];
		ck_assert_ptr_nonnull(dash);
		for (int side = 0; side < 2; side++) {
			const char *s = side ? dash + 1 : pairs[nlinks];
			size_t len = side ? strlen(s) : (size_t)(dash - s);
			uint32_t i;
			for (i = 0; i < nnodes; i++)
				if (strlen(names[i]) == len && !memcmp(names[i], s, len))
					break;
			if (i == nnodes) {
				memcpy(names[i], s, len);
				names[i][len] = '\0';
				nnodes++;
			}
			end[side] = i;
		}
		links[nlinks] = (struct graph_link){end[0], end[1], INT64_C(100000000000), 1000};
	}
	return graph_build(g, (const char(*)[GRAPH_NAME_SIZE])names, nnodes, links, nlinks, err,
			   errlen);
}

START_TEST(ring_of_four_splits_opposite_traffic)
{
	static const char *const pairs[] = {"s0 s1", "s1 s2", "s2 s3", "s3 s0", "h0 s0",
					    "h1 s1", "h2 s2", "h3 s3", NULL};
	static const uint16_t both[] = {0, 1}, one[] = {0};
	struct graph g;
	char err[256];

	ck_assert_msg(build_pairs(&g, pairs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(graph_hops(&g, 0, 2), 3);
	ck_assert_uint_eq(graph_hops(&g, 0, 1), 2);
	check_ecmp(&g, 0, 2, both, 2);
	check_ecmp(&g, 0, 1, one, 1);
	check_walks(&g, 4, 8);
	graph_free(&g);
}
END_TEST

/* link-down on port (sw, port): both ends of the cable are down */
struct downs {
	const struct graph *g;
	uint8_t link[128];
};

static int is_down(const void *ctx, uint32_t sw, uint16_t port)
{
	const struct downs *d = ctx;
	return d->link[graph_port_link(d->g, sw, port)];
}

START_TEST(route_avoiding_failed_links)
{
	struct graph g = load_ok("links-leafspine.csv");
	struct downs d = {.g = &g};

	/* nothing down: graph_route */
	for (uint32_t sw = 0; sw < g.switches; sw++)
		for (uint32_t dst = 0; dst < g.hosts; dst++)
			for (uint64_t h = 0; h < 8; h++)
				ck_assert_uint_eq(graph_route_avoiding(&g, sw, dst, h, is_down, &d),
						  graph_route(&g, sw, dst, h));
	/* leaf0-spine0 down: leaf0 sends to h2 over spine1 only */
	d.link[2] = 1;
	for (uint64_t h = 0; h < 8; h++)
		ck_assert_uint_eq(graph_route_avoiding(&g, 0, 2, h, is_down, &d), 3);
	/* spine0-leaf1 down instead: the uplink to spine0 is up but leads
	 * nowhere, leaf0 still avoids it */
	d.link[2] = 0;
	d.link[6] = 1;
	for (uint64_t h = 0; h < 8; h++) {
		ck_assert_uint_eq(graph_route_avoiding(&g, 0, 2, h, is_down, &d), 3);
		ck_assert_uint_eq(graph_route_avoiding(&g, 0, 1, h, is_down, &d), 1);
	}
	ck_assert_uint_eq(graph_route_avoiding(&g, 1, 2, 0, is_down, &d), GRAPH_NO_ROUTE);
	/* and spine1-leaf1: leaf1 is cut off */
	d.link[7] = 1;
	ck_assert_uint_eq(graph_route_avoiding(&g, 0, 3, 5, is_down, &d), GRAPH_NO_ROUTE);
	ck_assert_uint_eq(graph_route_avoiding(&g, 3, 2, 5, is_down, &d), 0);
	/* h2's own cable */
	memset(d.link, 0, sizeof(d.link));
	d.link[4] = 1;
	ck_assert_uint_eq(graph_route_avoiding(&g, 3, 2, 0, is_down, &d), GRAPH_NO_ROUTE);
	ck_assert_uint_eq(graph_route_avoiding(&g, 0, 2, 0, is_down, &d), GRAPH_NO_ROUTE);
	ck_assert_uint_eq(graph_route_avoiding(&g, 0, 3, 1, is_down, &d), 3);
	graph_free(&g);
}
END_TEST

/* ---- the reference: Floyd-Warshall over every node of a random graph ---- */

#define RN  48 /* nodes at most */
#define INF 1000

struct rgraph {
	char names[RN][GRAPH_NAME_SIZE];
	struct graph_link links[128];
	uint32_t nnodes, nlinks, nsw;
};

/* nsw switches joined by a random spanning tree and extra links (some
 * parallel), hosts on random switches, the links in random order */
static void random_graph(struct rgraph *r, uint64_t *x)
{
	uint32_t i, nh;

	memset(r, 0, sizeof(*r));
	*x = rng_mix(*x);
	r->nsw = 1 + (uint32_t)(*x % 12);
	nh = 2 + (uint32_t)(rng_mix(*x) % 20);
	for (i = 0; i < r->nsw; i++)
		snprintf(r->names[i], GRAPH_NAME_SIZE, "sw%u", i);
	for (i = 0; i < nh; i++)
		snprintf(r->names[r->nsw + i], GRAPH_NAME_SIZE, "h%u", i);
	r->nnodes = r->nsw + nh;
	for (i = 1; i < r->nsw; i++) {
		*x = rng_mix(*x);
		r->links[r->nlinks++] =
		    (struct graph_link){i, (uint32_t)(*x % i), INT64_C(1000000000) * (1 + i), i};
	}
	*x = rng_mix(*x);
	for (uint32_t extra = (uint32_t)(*x % (2 * r->nsw)); extra-- > 0;) {
		uint32_t a = (uint32_t)((*x = rng_mix(*x)) % r->nsw);
		uint32_t b = (uint32_t)((*x = rng_mix(*x)) % r->nsw);
		if (a != b)
			r->links[r->nlinks++] = (struct graph_link){a, b, 1000000000, 7};
	}
	/* a switch of one link would be a host: give it another cable */
	for (i = 0; i < r->nsw; i++) {
		uint32_t deg = 0;
		for (uint32_t l = 0; l < r->nlinks; l++)
			deg += (r->links[l].a == i) + (r->links[l].b == i);
		if (r->nsw > 1 && deg == 1)
			r->links[r->nlinks++] = (struct graph_link){i, i ? 0 : 1, 1000000000, 9};
	}
	for (i = 0; i < nh; i++) {
		*x = rng_mix(*x);
		r->links[r->nlinks++] =
		    (struct graph_link){r->nsw + i, (uint32_t)(*x % r->nsw), 1000000000, 3};
	}
	for (i = r->nlinks - 1; i > 0; i--) {
		*x = rng_mix(*x);
		uint32_t j = (uint32_t)(*x % (i + 1));
		struct graph_link t = r->links[i];
		r->links[i] = r->links[j];
		r->links[j] = t;
	}
}

/* distances in links between nodes, without the links marked in down[] */
static void floyd(const struct rgraph *r, const uint8_t *down, int dist[RN][RN])
{
	for (uint32_t i = 0; i < r->nnodes; i++)
		for (uint32_t j = 0; j < r->nnodes; j++)
			dist[i][j] = i == j ? 0 : INF;
	for (uint32_t l = 0; l < r->nlinks; l++)
		if (!down || !down[l])
			dist[r->links[l].a][r->links[l].b] = dist[r->links[l].b][r->links[l].a] = 1;
	/* hosts forward nothing: only switches are intermediate nodes */
	for (uint32_t k = 0; k < r->nsw; k++)
		for (uint32_t i = 0; i < r->nnodes; i++)
			for (uint32_t j = 0; j < r->nnodes; j++)
				if (dist[i][k] + dist[k][j] < dist[i][j])
					dist[i][j] = dist[i][k] + dist[k][j];
}

/* the file's node index of a graph end */
static uint32_t index_of(const struct rgraph *r, const struct graph *g, struct graph_end e)
{
	for (uint32_t i = 0; i < r->nnodes; i++) {
		struct graph_end n = graph_node(g, i);
		if (n.is_host == e.is_host && n.node == e.node)
			return i;
	}
	ck_abort_msg("no node for %s %u", e.is_host ? "host" : "switch", e.node);
	return 0;
}

START_TEST(random_graphs_match_reference)
{
	static int dist[RN][RN], cut[RN][RN];
	uint64_t x = 42;
	int built = 0, multi = 0, routed = 0, cut_off = 0;

	for (int trial = 0; trial < 300; trial++) {
		struct rgraph r;
		struct graph g;
		char err[256];

		random_graph(&r, &x);
		ck_assert_msg(graph_build(&g, (const char(*)[GRAPH_NAME_SIZE])r.names, r.nnodes,
					  r.links, r.nlinks, err, sizeof(err)) == 0,
			      "trial %d: %s", trial, err);
		built++;
		floyd(&r, NULL, dist);
		EXPECT(g.switches == r.nsw);
		EXPECT(g.hosts == r.nnodes - r.nsw);
		check_symmetry(&g);

		/* hops and ECMP sets by the definition */
		uint32_t hidx[RN], sidx[RN];
		for (uint32_t i = 0; i < r.nnodes; i++) {
			struct graph_end e = graph_node(&g, i);
			(e.is_host ? hidx : sidx)[e.node] = i;
		}
		for (uint32_t a = 0; a < g.hosts; a++)
			for (uint32_t b = 0; b < g.hosts; b++)
				EXPECT(graph_hops(&g, a, b) ==
				       (a == b ? 0 : (uint32_t)dist[hidx[a]][hidx[b]] - 1));
		for (uint32_t sw = 0; sw < g.switches; sw++)
			for (uint32_t b = 0; b < g.hosts; b++) {
				const uint16_t *set;
				uint16_t n = graph_ecmp(&g, sw, b, &set), k = 0;
				multi += n > 1;
				int dsw = dist[sidx[sw]][hidx[b]];
				EXPECT(graph_hops_from(&g, sw, b) == (uint32_t)dsw);
				for (uint16_t p = 0; p < graph_ports(&g, sw); p++) {
					uint32_t q = index_of(&r, &g, graph_peer(&g, sw, p));
					if (dist[q][hidx[b]] == dsw - 1 &&
					    (q == hidx[b] || q < r.nsw)) {
						EXPECT(k < n && set[k] == p);
						k++;
					}
				}
				EXPECT(k == n);
			}
		check_walks(&g, x, 2);

		/* failed links: a route iff a whole shortest path is left */
		for (int f = 0; f < 8; f++) {
			struct downs d = {.g = &g};
			for (uint32_t l = 0; l < r.nlinks; l++)
				d.link[l] = (x = rng_mix(x)) % 5 == 0;
			floyd(&r, d.link, cut);
			for (uint32_t sw = 0; sw < g.switches; sw++)
				for (uint32_t b = 0; b < g.hosts; b++) {
					int whole =
					    cut[sidx[sw]][hidx[b]] == dist[sidx[sw]][hidx[b]];
					x = rng_mix(x);
					uint16_t p =
					    graph_route_avoiding(&g, sw, b, x, is_down, &d);
					EXPECT((p != GRAPH_NO_ROUTE) == whole);
					routed += whole;
					cut_off += !whole;
					if (!whole)
						continue;
					EXPECT(!is_down(&d, sw, p));
					uint32_t q = index_of(&r, &g, graph_peer(&g, sw, p));
					EXPECT(cut[q][hidx[b]] == dist[sidx[sw]][hidx[b]] - 1);
					EXPECT(dist[q][hidx[b]] == dist[sidx[sw]][hidx[b]] - 1);
				}
		}
		graph_free(&g);
	}
	/* the cases the trials are for did occur */
	ck_assert_int_eq(built, 300);
	ck_assert_int_gt(multi, 1000);
	ck_assert_int_gt(routed, 1000);
	ck_assert_int_gt(cut_off, 1000);
}
END_TEST

/* ---- the core's checks ---- */

struct core_case {
	const char *pairs[12];
	const char *msg;
};

static const struct core_case core_cases[] = {
    {{"h0 s0", "h1 s0", "s0 s0", NULL}, "s0 is linked to itself"},
    {{"h0 h1", "h2 s0", "h3 s0", NULL}, "h0 and h1 are linked only to each other"},
    {{"h0 s0", NULL}, "h0 and s0 are linked only to each other"},
    {{"s0 s1", "s1 s2", "s2 s0", "h0 s0", NULL},
     "only one host: a fabric needs at least 2 (a host is a node with exactly one link)"},
    {{"h0 s0", "h1 s0", "s1 s2", "s2 s3", "s3 s1", "h2 s1", NULL},
     "h2 cannot reach h0: the graph has 2 islands"},
    {{"h0 s0", "h1 s0", "s1 s2", "s2 s3", "s3 s1", NULL},
     "s1 cannot reach h0: the graph has 2 islands (one without hosts)"},
    {{"h0 s0", "h1 s0", "s1 s2", "s2 s3", "s3 s1", "s4 s5", "s5 s6", "s6 s4", "h2 s4", NULL},
     "h2 cannot reach h0: the graph has 3 islands"},
    {{"h0 s0", "h1 s0", "bad!name s0", NULL},
     "node 3: bad!name is not a node name (letters, digits, '-', '_', '.'; 1 to 31 "
     "characters)"},
};

START_TEST(core_rejects)
{
	const struct core_case *c = &core_cases[_i];
	struct graph g;
	char err[256] = "";

	ck_assert_int_eq(build_pairs(&g, c->pairs, err, sizeof(err)), -1);
	ck_assert_str_eq(err, c->msg);
	graph_free(&g);
}
END_TEST

START_TEST(core_rejects_bad_arrays)
{
	static const char names[][GRAPH_NAME_SIZE] = {"h0", "s0", "h1", "h0", "s9"};
	struct graph_link links[3] = {
	    {0, 1, 1000, 0},
	    {2, 1, 1000, 0},
	    {1, 4, 1000, 0},
	};
	struct graph g;
	char err[256];

	ck_assert_int_eq(graph_build(&g, names, 3, links, 0, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "no links");
	ck_assert_int_eq(graph_build(&g, names, 0, links, 3, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "no nodes");
	ck_assert_int_eq(graph_build(&g, names, 3, links, 3, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "link 2: node 4 out of range (0-2)");
	ck_assert_int_eq(graph_build(&g, names, 4, links, 2, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "h0 has no link");
	links[1].rate_bps = 0;
	ck_assert_int_eq(graph_build(&g, names, 3, links, 2, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "h1-s0: rate 0bps must be above 0");
	links[1].rate_bps = 1000;
	links[0].cable_mm = -1;
	ck_assert_int_eq(graph_build(&g, names, 3, links, 2, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "h0-s0: cable -1mm is negative");
	links[0].cable_mm = 0;
	ck_assert_int_eq(graph_build(&g, names, 3, links, 2, err, sizeof(err)), 0);
	graph_free(&g);
	/* two nodes of one name: h0 twice, one of them a switch */
	static const char dup[][GRAPH_NAME_SIZE] = {"h0", "s0", "h1", "h0"};
	struct graph_link dl[4] = {
	    {0, 1, 1000, 0},
	    {2, 1, 1000, 0},
	    {3, 1, 1000, 0},
	    {3, 1, 1000, 0},
	};
	ck_assert_int_eq(graph_build(&g, dup, 4, dl, 4, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "h0: the name of two nodes");
	graph_free(&g);
}
END_TEST

/* a chain of n switches with a host at each end */
static int chain(struct graph *g, uint32_t n, char *err, size_t errlen)
{
	char(*names)[GRAPH_NAME_SIZE] = calloc(n + 2, GRAPH_NAME_SIZE);
	struct graph_link *links = calloc(n + 1, sizeof(*links));
	int rc;

	ck_assert_ptr_nonnull(names);
	ck_assert_ptr_nonnull(links);
	for (uint32_t i = 0; i < n; i++)
		snprintf(names[i], GRAPH_NAME_SIZE, "s%u", i);
	snprintf(names[n], GRAPH_NAME_SIZE, "a");
	snprintf(names[n + 1], GRAPH_NAME_SIZE, "b");
	for (uint32_t i = 0; i + 1 < n; i++)
		links[i] = (struct graph_link){i, i + 1, 1000, 1};
	links[n - 1] = (struct graph_link){n, 0, 1000, 1};
	links[n] = (struct graph_link){n + 1, n - 1, 1000, 1};
	rc =
	    graph_build(g, (const char(*)[GRAPH_NAME_SIZE])names, n + 2, links, n + 1, err, errlen);
	free(names);
	free(links);
	return rc;
}

START_TEST(longest_path)
{
	struct graph g;
	char err[256];

	ck_assert_msg(chain(&g, GRAPH_MAX_PATH, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(graph_hops(&g, 0, 1), GRAPH_MAX_PATH);
	check_walks(&g, 5, 1);
	graph_free(&g);
	ck_assert_int_eq(chain(&g, GRAPH_MAX_PATH + 1, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "a shortest path from s0 to s255 crosses more than 255 switches");
}
END_TEST

/* the routing table is checked before it is allocated: a ring of 8193
 * switches with two hosts each would need 8193 x 8193 entries */
START_TEST(routing_table_limit)
{
	const uint32_t n = 8193;
	char(*names)[GRAPH_NAME_SIZE] = calloc(3 * n, GRAPH_NAME_SIZE);
	struct graph_link *links = calloc(3 * n, sizeof(*links));
	struct graph g;
	char err[256];

	ck_assert_ptr_nonnull(names);
	ck_assert_ptr_nonnull(links);
	for (uint32_t i = 0; i < n; i++) {
		snprintf(names[i], GRAPH_NAME_SIZE, "s%u", i);
		snprintf(names[n + i], GRAPH_NAME_SIZE, "a%u", i);
		snprintf(names[2 * n + i], GRAPH_NAME_SIZE, "b%u", i);
		links[i] = (struct graph_link){i, (i + 1) % n, 1000, 1};
		links[n + i] = (struct graph_link){n + i, i, 1000, 1};
		links[2 * n + i] = (struct graph_link){2 * n + i, i, 1000, 1};
	}
	ck_assert_int_eq(graph_build(&g, (const char(*)[GRAPH_NAME_SIZE])names, 3 * n, links, 3 * n,
				     err, sizeof(err)),
			 -1);
	ck_assert_str_eq(err, "8193 switches x 8193 switches with hosts: the routing table would "
			      "have more than 67108864 entries");
	free(names);
	free(links);
}
END_TEST

START_TEST(ambiguous_link_text)
{
	static const char *const pairs[] = {"x x-y", "x-y y-z", "y-z z", "z x",
					    "h0 x",  "h1 z",	NULL};
	struct graph g;
	struct graph_end e[2];
	char err[256];

	ck_assert_msg(build_pairs(&g, pairs, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(graph_split_link(&g, "x-y-z", e, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "x-y-z is ambiguous: x and y-z, or x-y and z");
	ck_assert_int_eq(graph_split_link(&g, "z-x", e, err, sizeof(err)), 0);
	ck_assert_int_eq(graph_split_link(&g, "zx", e, err, sizeof(err)), -1);
	ck_assert_int_eq(graph_split_link(&g, "-x", e, err, sizeof(err)), -1);
	graph_free(&g);
}
END_TEST

/* ---- the loader's messages ---- */

struct file_case {
	const char *text;
	const char *msg; /* after "PATH" */
};

#define HDR "a,b,rate,cable\n"
#define LS4                                                                                        \
	HDR "h0,leaf0,100Gbps,3m\nh1,leaf0,100Gbps,3m\nleaf0,spine0,400Gbps,30m\n"                 \
	    "h2,leaf1,100Gbps,3m\nleaf1,spine0,400Gbps,30m\n"

static const struct file_case file_cases[] = {
    {"", ":1: header: empty file (expected a,b,rate,cable and a row per cable)"},
    {"\n\n", ":2: header: empty file (expected a,b,rate,cable and a row per cable)"},
    {HDR, ":1: row: no links after the header"},
    {"h0,leaf0,100Gbps,3m\n",
     ":1: header: missing (the first line must name the columns: a,b,rate,cable)"},
    {"a,b,speed,cable\n", ":1: speed: unknown column (a, b, rate, cable)"},
    {"a,b,rate\n", ":1: cable: missing column (the header needs a, b, rate, cable)"},
    {"a,b,rate,cable,a\n", ":1: a: duplicate column"},
    {"a,b,,rate,cable\n", ":1: column 3: empty column name (a, b, rate, cable)"},
    {HDR "h0,leaf0,100Gbps\n", ":2: row: 3 fields, the header has 4"},
    {HDR "h0,leaf0,100Gbps,3m,x\n", ":2: row: 5 fields, the header has 4"},
    {HDR "h0,leaf 0,100Gbps,3m\n",
     ":2: b: leaf 0 is not a node name (letters, digits, '-', '_', '.'; 1 to 31 "
     "characters)"},
    {HDR ",leaf0,100Gbps,3m\n",
     ":2: a: empty (a node name: letters, digits, '-', '_', '.'; 1 to 31 characters)"},
    {HDR "h0,leaf0,100Gbps,3m\nh1,abcdefghijklmnopqrstuvwxyz0123456,100Gbps,3m\n",
     ":3: b: abcdefghijklmnopqrstuvwx... is longer than 31 characters"},
    {HDR "h0,leaf0,400,3m\n", ":2: rate: missing unit after 400 (use bps, Kbps, Mbps, Gbps, Tbps)"},
    {HDR "h0,leaf0,400G,3m\n", ":2: rate: unknown unit 'G' (use bps, Kbps, Mbps, Gbps, Tbps)"},
    {HDR "h0,leaf0,2000Gbps,3m\n", ":2: rate: 2000Gbps out of range (1Gbps-1600Gbps)"},
    {HDR "h0,leaf0,100Gbps,3\n", ":2: cable: missing unit after 3 (use m)"},
    {HDR "h0,leaf0,100Gbps,0.0001m\n", ":2: cable: 0.0001m is not a whole number of millimetres"},
    {HDR "h0,leaf0,100Gbps,20km\n", ":2: cable: unknown unit 'km' (use m)"},
    {HDR "h0,leaf0,100Gbps,3m\nleaf0,leaf0,100Gbps,3m\n",
     ":3: b: leaf0 is linked to itself (a link joins two nodes)"},
    {LS4 "h8,h9,100Gbps,3m\n",
     ":7: h8 and h9 are linked only to each other (a node with one link is a host, and a "
     "host needs a switch)"},
    {HDR "h0,leaf0,100Gbps,3m\nh1,leaf0,100Gbps,3m\nleaf0,spine0,400Gbps,30m\n"
	 "leaf0,spine0,400Gbps,30m\nh2,leaf1,100Gbps,3m\nh3,leaf1,100Gbps,3m\n"
	 "leaf1,spine1,400Gbps,30m\nleaf1,spine1,400Gbps,30m\n",
     ": h2 cannot reach h0: the graph has 2 islands"},
    {HDR "s0,s1,400Gbps,1m\ns1,s2,400Gbps,1m\ns2,s0,400Gbps,1m\nh0,s0,400Gbps,1m\n",
     ": only one host: a fabric needs at least 2 (a host is a node with exactly one "
     "link)"},
    {HDR "h0,\"leaf0\n", ":2: csv: error parsing data while strict checking enabled"},
    /* what is allowed: quotes, spaces, CRLF, blank lines, parallel cables */
    {"a , b,rate,cable\r\n\r\n\"h0\", leaf0 ,100Gbps,3m\r\nh1,leaf0,100Gbps,3m\r\n"
     "leaf0,spine0,400Gbps,30m\r\nleaf0,spine0,400Gbps,30m\r\n"
     "h2,leaf1,100Gbps,3m\r\nleaf1,spine0,400Gbps,30m\r\n",
     NULL},
};

static void check_file(const char *text, const char *msg)
{
	char dir[64], path[128];
	struct scn_error err = {{0}};
	struct graph g;

	tl_write_temp(dir, path, "links.csv", text);
	int rc = links_load(path, &g, &err);
	tl_remove_temp(dir, path);
	if (!msg) {
		ck_assert_msg(rc == 0, "%s", err.msg);
		graph_free(&g);
		return;
	}
	ck_assert_int_eq(rc, -1);
	size_t n = strlen(path);
	ck_assert_msg(strncmp(err.msg, path, n) == 0, "%s", err.msg);
	ck_assert_str_eq(err.msg + n, msg);
}

START_TEST(loader_rejects)
{
	check_file(file_cases[_i].text, file_cases[_i].msg);
}
END_TEST

/* text of a header and rows built by appending */
struct text {
	char *s;
	size_t len, cap;
};

__attribute__((format(printf, 2, 3))) static void add(struct text *t, const char *fmt, ...)
{
	char row[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(row, sizeof(row), fmt, ap);
	va_end(ap);
	if (t->len + (size_t)n + 1 > t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1 << 20;
		t->s = realloc(t->s, t->cap);
		ck_assert_ptr_nonnull(t->s);
	}
	memcpy(t->s + t->len, row, (size_t)n + 1);
	t->len += (size_t)n;
}

START_TEST(loader_limits)
{
	struct text t = {0};
	char want[160];

	/* 65535 hosts on one switch and a second switch: port 65536 of sw0 */
	add(&t, "%s", HDR);
	for (unsigned h = 0; h < GRAPH_MAX_PORTS; h++)
		add(&t, "h%u,sw%u,100Gbps,1m\n", h, 0);
	add(&t, "sw%u,sw%u,100Gbps,1m\n", 0, 1);
	snprintf(want, sizeof(want), ":%u: a: sw0 has more than 65535 ports", GRAPH_MAX_PORTS + 2);
	check_file(t.s, want);

	/* 65537 hosts on two switches: the line of the 65537th host */
	t.len = 0;
	add(&t, HDR "sw%u,sw%u,100Gbps,1m\n", 0, 1);
	for (unsigned h = 0; h <= GRAPH_MAX_HOSTS; h++)
		add(&t, "h%u,sw%u,100Gbps,1m\n", h, h % 2);
	snprintf(want, sizeof(want), ":%u: h65536: more than 65536 hosts (nodes with one link)",
		 GRAPH_MAX_HOSTS + 3);
	check_file(t.s, want);

	/* 65536 hosts are allowed */
	t.len = 0;
	add(&t, HDR "sw%u,sw%u,100Gbps,1m\n", 0, 1);
	for (unsigned h = 0; h < GRAPH_MAX_HOSTS; h++)
		add(&t, "h%u,sw%u,100Gbps,1m\n", h, h % 2);
	check_file(t.s, NULL);
	free(t.s);
}
END_TEST

START_TEST(loader_files)
{
	struct scn_error err = {{0}};
	struct graph g;

	ck_assert_int_eq(links_load("/nonexistent/links.csv", &g, &err), -1);
	ck_assert_str_eq(err.msg,
			 "/nonexistent/links.csv: cannot open (No such file or directory)");
	ck_assert_int_eq(links_load("/tmp", &g, &err), -1);
	ck_assert_str_eq(err.msg, "/tmp: a directory, not a links CSV file");
	ck_assert_int_eq(links_load("/dev/zero", &g, &err), -1);
	ck_assert_str_eq(err.msg, "/dev/zero: not a regular file (a device or a pipe)");

	/* the rows as read: names by first appearance, lines of links */
	struct links_file lf;
	char path[512];
	snprintf(path, sizeof(path), "%s/links-parallel.csv", TEST_DATA_DIR);
	ck_assert_msg(links_read(path, &lf, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(lf.nnodes, 8);
	ck_assert_uint_eq(lf.nlinks, 12);
	ck_assert_str_eq(lf.names[0], "gpu.0");
	ck_assert_str_eq(lf.names[1], "leaf-a");
	ck_assert_int_eq(lf.node_line[3], 5);
	ck_assert_int_eq(lf.link_line[2], 5);
	ck_assert_int_eq(lf.links[2].rate_bps, INT64_C(400000000000));
	ck_assert_int_eq(lf.links[2].cable_mm, 30000);
	ck_assert_msg(links_build(&lf, path, &g, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(graph_port_link(&g, 3, 4), 10);
	ck_assert_int_eq(lf.link_line[graph_port_link(&g, 3, 4)], 13);
	graph_free(&g);
	links_free(&lf);
}
END_TEST

static Suite *make_graph_suite(void)
{
	Suite *s = suite_create("graph");
	TCase *tc = tcase_create("files");
	tcase_add_test(tc, leaf_spine_from_file);
	tcase_add_test(tc, parallel_links_are_ecmp_paths);
	tcase_add_test(tc, ring_of_five_has_unique_paths);
	tcase_add_loop_test(tc, loader_rejects, 0,
			    (int)(sizeof(file_cases) / sizeof(file_cases[0])));
	tcase_add_test(tc, loader_limits);
	tcase_add_test(tc, loader_files);
	suite_add_tcase(s, tc);
	tc = tcase_create("core");
	tcase_add_test(tc, ring_of_four_splits_opposite_traffic);
	tcase_add_test(tc, route_avoiding_failed_links);
	tcase_add_test(tc, random_graphs_match_reference);
	tcase_add_loop_test(tc, core_rejects, 0, (int)(sizeof(core_cases) / sizeof(core_cases[0])));
	tcase_add_test(tc, core_rejects_bad_arrays);
	tcase_add_test(tc, longest_path);
	tcase_add_test(tc, routing_table_limit);
	tcase_add_test(tc, ambiguous_link_text);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_graph_suite());
}
