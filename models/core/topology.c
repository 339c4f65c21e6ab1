/*
 * topology.c - closed-form wiring and routing (see topology.h).
 */
#include "models/core/topology.h"

#include <stdio.h>

#include "models/base/invariant.h"
#include "models/core/graph.h"
#include "models/core/link.h"

uint32_t topo_shape_hosts(const struct topo_shape *s)
{
	switch (s->kind) {
	case TOPO_KIND_LEAF_SPINE:
		return s->leaves * s->hosts_per_leaf;
	case TOPO_KIND_FAT_TREE:
		return s->k * s->k * s->k / 4;
	case TOPO_KIND_STAR:
		return s->star_hosts;
	case TOPO_KIND_RAIL:
		return s->units * s->servers_per_unit * s->gpus_per_server;
	case TOPO_KIND_FILE:
		return s->graph ? s->graph->hosts : 0;
	}
	return 0;
}

uint32_t topo_shape_switches(const struct topo_shape *s)
{
	switch (s->kind) {
	case TOPO_KIND_LEAF_SPINE:
		return s->leaves + s->spines;
	case TOPO_KIND_FAT_TREE:
		return 5 * s->k * s->k / 4;
	case TOPO_KIND_STAR:
		return 1;
	case TOPO_KIND_RAIL:
		return s->units * s->gpus_per_server + s->spines;
	case TOPO_KIND_FILE:
		return s->graph ? s->graph->switches : 0;
	}
	return 0;
}

void topo_init(struct topo *t, const struct topo_shape *s)
{
	*t = (struct topo){0};
	t->kind = s->kind;
	t->hosts = topo_shape_hosts(s);
	t->switches = topo_shape_switches(s);
	t->spines = s->spines;
	t->leaves = s->leaves;
	t->hpl = s->hosts_per_leaf;
	t->g = s->graph;
	t->ups = s->uplinks_per_spine ? s->uplinks_per_spine : 1;
	t->gps = s->gpus_per_server ? s->gpus_per_server : 1;
	if (s->kind == TOPO_KIND_RAIL) { /* a leaf-spine of rail leaves */
		t->kind = TOPO_KIND_LEAF_SPINE;
		t->rails = t->gps;
		t->leaves = s->units * t->rails;
		t->hpl = s->servers_per_unit;
	}
	t->k = s->k;
	t->half = s->k / 2;
	t->host_link_bps = s->host_link_bps;
	t->fabric_link_bps = s->fabric_link_bps;
	t->host_prop_ps = s->host_cable_mm * LINK_PS_PER_MM;
	t->fabric_prop_ps = s->fabric_cable_mm * LINK_PS_PER_MM;
}

enum topo_tier topo_tier_of(const struct topo *t, uint32_t sw)
{
	switch (t->kind) {
	case TOPO_KIND_LEAF_SPINE:
		return sw < t->leaves ? TOPO_LEAF : TOPO_SPINE;
	case TOPO_KIND_FAT_TREE: {
		uint32_t pods = t->k * t->half;
		return sw < pods ? TOPO_EDGE : sw < 2 * pods ? TOPO_AGG : TOPO_CORE;
	}
	default:
		return TOPO_SW;
	}
}

uint16_t topo_ports(const struct topo *t, uint32_t sw)
{
	if (t->g)
		return graph_ports(t->g, sw);
	switch (topo_tier_of(t, sw)) {
	case TOPO_LEAF:
		return (uint16_t)(t->hpl + t->spines * t->ups);
	case TOPO_SPINE:
		return (uint16_t)(t->leaves * t->ups);
	case TOPO_EDGE:
	case TOPO_AGG:
	case TOPO_CORE:
		return (uint16_t)t->k;
	default:
		return (uint16_t)t->hosts;
	}
}

static struct topo_end end(enum topo_tier tier, uint32_t node, uint32_t port)
{
	return (struct topo_end){ .tier = tier, .node = node, .port = (uint16_t)port };
}

uint32_t topo_leaf_host(const struct topo *t, uint32_t leaf, uint32_t port)
{
	if (t->rails)
		return ((leaf / t->rails) * t->hpl + port) * t->rails + leaf % t->rails;
	return leaf * t->hpl + port;
}

/* leaf-spine: the leaf of host h, and its port there */
static uint32_t leaf_of(const struct topo *t, uint32_t h)
{
	if (t->rails)
		return h / (t->hpl * t->rails) * t->rails + h % t->rails;
	return h / t->hpl;
}

static uint32_t leaf_port_of(const struct topo *t, uint32_t h)
{
	return t->rails ? h / t->rails % t->hpl : h % t->hpl;
}

/* file: a graph end as a topology end */
static struct topo_end of_graph(struct graph_end e)
{
	return end(e.is_host ? TOPO_HOST : TOPO_SW, e.node, e.port);
}

struct topo_end topo_peer(const struct topo *t, uint32_t sw, uint16_t port)
{
	uint32_t h = t->half, pods = t->k * h;
	if (t->g)
		return of_graph(graph_peer(t->g, sw, port));
	switch (topo_tier_of(t, sw)) {
	case TOPO_LEAF: {
		if (port < t->hpl)
			return end(TOPO_HOST, topo_leaf_host(t, sw, port), 0);
		uint32_t up = port - t->hpl; /* spine up / ups, its link up % ups */
		return end(TOPO_SPINE, t->leaves + up / t->ups, sw * t->ups + up % t->ups);
	}
	case TOPO_SPINE:
		return end(TOPO_LEAF, port / t->ups,
			   t->hpl + (sw - t->leaves) * t->ups + port % t->ups);
	case TOPO_EDGE:
		if (port < h)
			return end(TOPO_HOST, sw * h + port, 0);
		return end(TOPO_AGG, pods + (sw / h) * h + (port - h), sw % h);
	case TOPO_AGG: {
		uint32_t a = sw - pods, pod = a / h, j = a % h;
		if (port < h)
			return end(TOPO_EDGE, pod * h + port, h + j);
		return end(TOPO_CORE, 2 * pods + j * h + (port - h), pod);
	}
	case TOPO_CORE: {
		uint32_t c = sw - 2 * pods, j = c / h, m = c % h;
		return end(TOPO_AGG, pods + port * h + j, h + m);
	}
	default:
		return end(TOPO_HOST, port, 0);
	}
}

struct topo_end topo_host_uplink(const struct topo *t, uint32_t host)
{
	switch (t->kind) {
	case TOPO_KIND_LEAF_SPINE:
		return end(TOPO_LEAF, leaf_of(t, host), leaf_port_of(t, host));
	case TOPO_KIND_FAT_TREE:
		return end(TOPO_EDGE, host / t->half, host % t->half);
	case TOPO_KIND_FILE:
		return of_graph(graph_host_uplink(t->g, host));
	default:
		return end(TOPO_SW, 0, host);
	}
}

uint32_t topo_host_leaf(const struct topo *t, uint32_t host)
{
	return topo_host_uplink(t, host).node;
}

int topo_port_is_host(const struct topo *t, uint32_t sw, uint16_t port)
{
	return topo_peer(t, sw, port).tier == TOPO_HOST;
}

uint16_t topo_route(const struct topo *t, uint32_t sw, uint32_t dst, uint64_t h)
{
	uint32_t half = t->half, pods = t->k * half;
	if (t->g)
		return graph_route(t->g, sw, dst, h);
	switch (topo_tier_of(t, sw)) {
	case TOPO_LEAF:
		if (leaf_of(t, dst) == sw)
			return (uint16_t)leaf_port_of(t, dst);
		return (uint16_t)(t->hpl + h % (t->spines * t->ups));
	case TOPO_SPINE:
		return (uint16_t)(leaf_of(t, dst) * t->ups + h % t->ups);
	case TOPO_EDGE:
		if (dst / half == sw)
			return (uint16_t)(dst % half);
		return (uint16_t)(half + h % half);
	case TOPO_AGG: {
		uint32_t pod = (sw - pods) / half;
		uint32_t dst_edge = dst / half;
		if (dst_edge / half == pod)
			return (uint16_t)(dst_edge % half);
		return (uint16_t)(half + h % half);
	}
	case TOPO_CORE:
		return (uint16_t)(dst / (half * half));
	default:
		return (uint16_t)dst;
	}
}

/* fat-tree: can core c still deliver to dst (core -> agg -> edge)? */
static int core_reaches(const struct topo *t, uint32_t c, uint32_t dst, topo_down_fn down,
			const void *ctx)
{
	uint32_t half = t->half, pods = t->k * half;
	uint32_t pod = dst / (half * half), j = (c - 2 * pods) / half;
	uint32_t agg = pods + pod * half + j;
	return !down(ctx, c, (uint16_t)pod) && !down(ctx, agg, (uint16_t)((dst / half) % half));
}

/* fat-tree: can agg a still deliver to dst? */
static int agg_reaches(const struct topo *t, uint32_t a, uint32_t dst, topo_down_fn down,
		       const void *ctx)
{
	uint32_t half = t->half, pods = t->k * half;
	uint32_t pod = (a - pods) / half, j = (a - pods) % half;
	if (dst / (half * half) == pod)
		return !down(ctx, a, (uint16_t)((dst / half) % half));
	for (uint32_t m = 0; m < half; m++)
		if (!down(ctx, a, (uint16_t)(half + m)) &&
		    core_reaches(t, 2 * pods + j * half + m, dst, down, ctx))
			return 1;
	return 0;
}

/* is uplink `port` of switch sw up and still leading to dst? */
static int uplink_ok(const struct topo *t, uint32_t sw, uint16_t port, uint32_t dst,
		     topo_down_fn down, const void *ctx)
{
	if (down(ctx, sw, port))
		return 0;
	struct topo_end e = topo_peer(t, sw, port);
	switch (e.tier) {
	case TOPO_SPINE:
		for (uint32_t m = 0; m < t->ups; m++)
			if (!down(ctx, e.node, (uint16_t)(leaf_of(t, dst) * t->ups + m)))
				return 1;
		return 0;
	case TOPO_AGG:
		return agg_reaches(t, e.node, dst, down, ctx);
	case TOPO_CORE:
		return core_reaches(t, e.node, dst, down, ctx);
	default:
		return 0;
	}
}

uint16_t topo_route_avoiding(const struct topo *t, uint32_t sw, uint32_t dst, uint64_t h,
			     topo_down_fn down, const void *ctx)
{
	if (t->g)
		return graph_route_avoiding(t->g, sw, dst, h, down, ctx);
	uint16_t port = topo_route(t, sw, dst, h);
	struct topo_end e = topo_peer(t, sw, port);
	int up = topo_tier_of(t, sw) < e.tier && e.tier != TOPO_HOST;
	if (!up && topo_tier_of(t, sw) == TOPO_SPINE && t->ups > 1) {
		/* down one of the parallel links to dst's leaf that is up */
		uint16_t first = (uint16_t)(port - port % t->ups), ok[256], nok = 0;
		for (uint16_t p = first; p < first + t->ups; p++)
			if (!down(ctx, sw, p))
				ok[nok++] = p;
		return nok ? ok[h % nok] : TOPO_NO_ROUTE;
	}
	if (!up)
		return down(ctx, sw, port) ? TOPO_NO_ROUTE : port;
	/* the uplinks are a contiguous range ending at the last port */
	uint16_t n = topo_ports(t, sw), first = t->kind == TOPO_KIND_LEAF_SPINE
						       ? (uint16_t)t->hpl
						       : (uint16_t)t->half;
	uint16_t ok[256], nok = 0;
	for (uint16_t p = first; p < n; p++)
		if (uplink_ok(t, sw, p, dst, down, ctx))
			ok[nok++] = p;
	return nok ? ok[h % nok] : TOPO_NO_ROUTE;
}

uint16_t topo_ecmp(const struct topo *t, uint32_t sw, uint32_t dst, uint16_t *first,
		   const uint16_t **list)
{
	uint32_t half = t->half, pods = t->k * half;
	uint16_t n = 1;
	*list = NULL;
	if (t->g)
		return graph_ecmp(t->g, sw, dst, list);
	switch (topo_tier_of(t, sw)) {
	case TOPO_LEAF:
		if (leaf_of(t, dst) == sw) {
			*first = (uint16_t)leaf_port_of(t, dst);
			break;
		}
		*first = (uint16_t)t->hpl;
		n = (uint16_t)(t->spines * t->ups);
		break;
	case TOPO_SPINE:
		*first = (uint16_t)(leaf_of(t, dst) * t->ups);
		n = (uint16_t)t->ups;
		break;
	case TOPO_EDGE:
	case TOPO_AGG:
		if (topo_tier_of(t, sw) == TOPO_EDGE ? dst / half == sw
						       : dst / (half * half) == (sw - pods) / half) {
			*first = topo_route(t, sw, dst, 0); /* down: the one port */
			break;
		}
		*first = (uint16_t)half;
		n = (uint16_t)half;
		break;
	default: /* core and star: one port down */
		*first = topo_route(t, sw, dst, 0);
		break;
	}
	return n;
}

int topo_leads(const struct topo *t, uint32_t sw, uint16_t port, uint32_t dst,
	       topo_down_fn down, const void *ctx)
{
	if (t->g)
		return graph_leads(t->g, sw, port, dst, down, ctx);
	struct topo_end e = topo_peer(t, sw, port);
	if (topo_tier_of(t, sw) < e.tier && e.tier != TOPO_HOST)
		return uplink_ok(t, sw, port, dst, down, ctx);
	return !down(ctx, sw, port); /* down, as topo_route_avoiding goes down */
}

uint32_t topo_hops(const struct topo *t, uint32_t src, uint32_t dst)
{
	switch (t->kind) {
	case TOPO_KIND_LEAF_SPINE:
		return leaf_of(t, src) == leaf_of(t, dst) ? 1 : 3;
	case TOPO_KIND_FAT_TREE: {
		uint32_t half = t->half;
		if (src / half == dst / half)
			return 1;
		if (src / (half * half) == dst / (half * half))
			return 3;
		return 5;
	}
	case TOPO_KIND_FILE:
		return graph_hops(t->g, src, dst);
	default:
		return 1;
	}
}

const char *topo_switch_prefix(const struct topo *t, uint32_t sw, uint32_t *num)
{
	uint32_t pods = t->k * t->half;
	if (t->g) { /* the file's name, whole */
		*num = UINT32_MAX;
		return graph_switch_name(t->g, sw);
	}
	switch (topo_tier_of(t, sw)) {
	case TOPO_LEAF:
		*num = sw;
		return "leaf";
	case TOPO_SPINE:
		*num = sw - t->leaves;
		return "spine";
	case TOPO_EDGE:
		*num = sw;
		return "edge";
	case TOPO_AGG:
		*num = sw - pods;
		return "agg";
	case TOPO_CORE:
		*num = sw - 2 * pods;
		return "core";
	default:
		*num = sw;
		return "sw";
	}
}

char *topo_switch_name(const struct topo *t, uint32_t sw, char *buf, size_t len)
{
	uint32_t num;
	const char *prefix = topo_switch_prefix(t, sw, &num);
	if (num == UINT32_MAX)
		snprintf(buf, len, "%s", prefix);
	else
		snprintf(buf, len, "%s%u", prefix, num);
	return buf;
}
