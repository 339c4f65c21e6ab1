/*
 * derived.c - values the scenario implies, shared by the checks, `check`
 * and the fabric assembly: the data frame, the topology's shape and switch
 * tiers, the PFC response time and headroom of a port, and the shared pool
 * of a switch.
 *
 * PFC derived values (scenario_headroom_bytes() and the functions after
 * it, on pfc.h and mmu.h; docs/model.md#buffer, #pfc).  All integer, exact:
 *   - one quantum is 512 bit times: q quanta at R bps last
 *     ceil(q * 512 * 10^12 / R) ps (65535 at 400Gbps: 83884800 ps).
 *   - auto headroom = 2 x wire frame (mtu + 82) + ceil(2 x cable x 5 ps/mm x
 *     R / 8e12) B + response bytes + one wire frame in flight.  With an auto
 *     response time the response bytes are exactly quanta x 64 (512 bits),
 *     not re-derived from the rounded-up ps; with a given response_time they
 *     are ceil(response_ps x R / 8e12).  400Gbps over 3m at mtu 4096:
 *     2 x 4178 + 1500 + 905 x 64 + 4178 = 71954 B.
 *   - the shared pool of a switch subtracts plain bytes (8 PGs x reserved
 *     per port, one headroom per lossless priority per port), not
 *     cell-rounded ones: buffer.cell rounds each packet's charge, not the
 *     configured sizes.
 *   - switch tiers and their ports follow topology.h: leaf-spine leaf
 *     (hosts_per_leaf host ports, spines fabric ports), spine (leaves
 *     fabric ports); fat-tree edge (k/2 host, k/2 fabric), agg and core (k
 *     fabric); star sw0 (hosts host ports).  Host ports use host_link and
 *     host_cable, fabric ports fabric_link and fabric_cable.
 */
#include "models/scenario/loader.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "models/core/mmu.h"
#include "models/core/pfc.h"
#include "models/core/pkt.h"

/* ---- the words of a tier: node names (nodes.c), switch tiers (below) ---- */

const struct tier_words scn_tier_words[N_TIERS] = {
	[TOPO_HOST] = { "h", NULL, NULL, "hosts" },
	[TOPO_LEAF] = { "leaf", "leaf", "leaf switches", "leaves" },
	[TOPO_SPINE] = { "spine", "spine", "spine switches", "spines" },
	[TOPO_EDGE] = { "edge", "edge", "edge switches", "edges" },
	[TOPO_AGG] = { "agg", "agg", "agg switches", "aggs" },
	[TOPO_CORE] = { "core", "core", "core switches", "cores" },
	[TOPO_SW] = { "sw", "sw0", "sw0", "sw0" },
};

/* ---- frames and the topology ---- */

/* bytes of n data frames (mtu + RoCEv2 headers), the unit of some defaults */
int64_t scn_data_frames(const struct scenario *s, int n)
{
	return n * ((int64_t)s->mtu_bytes + PKT_ROCE_HDR_BYTES);
}

/* a KF_FRAME1/KF_FRAME2 field: its value, or the default it resolves to */
int64_t scn_frames_value(const struct key_def *k, const struct scenario *s)
{
	int64_t v = scn_load_int(s, k);

	if (v != SCN_AUTO)
		return v;
	return scn_data_frames(s, (k->flags & KF_FRAME2) ? 2 : 1);
}

int64_t scn_reserved_of(const struct scenario *s)
{
	return s->reserved_bytes == SCN_AUTO ? scn_data_frames(s, 1) : s->reserved_bytes;
}

struct topo_shape scenario_topo_shape(const struct scenario *s)
{
	static const enum topo_kind kind[] = {
		[SCN_TOPO_LEAF_SPINE] = TOPO_KIND_LEAF_SPINE,
		[SCN_TOPO_FAT_TREE] = TOPO_KIND_FAT_TREE,
		[SCN_TOPO_STAR] = TOPO_KIND_STAR,
		[SCN_TOPO_RAIL] = TOPO_KIND_RAIL,
		[SCN_TOPO_FILE] = TOPO_KIND_FILE,
	};
	return (struct topo_shape){
		.kind = kind[s->topo], .spines = s->spines, .leaves = s->leaves,
		.hosts_per_leaf = s->hosts_per_leaf, .k = s->k, .star_hosts = s->star_hosts,
		.units = s->units, .servers_per_unit = s->servers_per_unit,
		.uplinks_per_spine = s->uplinks_per_spine, .gpus_per_server = s->gpus_per_server,
		.graph = s->topo == SCN_TOPO_FILE ? s->graph : NULL,
		.host_link_bps = s->host_link_bps, .fabric_link_bps = s->fabric_link_bps,
		.host_cable_mm = s->host_cable_mm, .fabric_cable_mm = s->fabric_cable_mm,
	};
}

uint32_t scenario_hosts(const struct scenario *s)
{
	struct topo_shape shape = scenario_topo_shape(s);
	return topo_shape_hosts(&shape);
}

uint32_t scenario_switches(const struct scenario *s)
{
	struct topo_shape shape = scenario_topo_shape(s);
	return topo_shape_switches(&shape);
}

void scn_topo(const struct scenario *s, struct topo *t)
{
	struct topo_shape shape = scenario_topo_shape(s);

	topo_init(t, &shape);
}

/* ---- PFC derived values (docs/model.md#buffer, #pfc; the arithmetic is pfc.h's and
 * mmu.h's) ---- */

static sim_time_ps response_setting(const struct scenario *s)
{
	return s->response_ps == SCN_AUTO ? PFC_AUTO : s->response_ps;
}

sim_time_ps scenario_response_ps(const struct scenario *s, int64_t rate_bps)
{
	return pfc_response_ps(response_setting(s), rate_bps);
}

struct pfc_headroom scn_headroom_terms(const struct scenario *s, int64_t rate_bps,
				       int64_t cable_mm)
{
	return pfc_headroom_auto(s->mtu_bytes, rate_bps, cable_mm, response_setting(s));
}

int64_t scenario_headroom_bytes(const struct scenario *s, int64_t rate_bps, int64_t cable_mm)
{
	if (s->headroom_bytes != SCN_AUTO)
		return s->headroom_bytes;
	return scn_headroom_terms(s, rate_bps, cable_mm).total;
}

sim_time_ps scenario_rto_ps(const struct scenario *s)
{
	if (s->nic_rto_ps != SCN_AUTO)
		return s->nic_rto_ps;
	return (sim_time_ps)4096 * UNITS_PS_PER_NS << s->nic_ib_timeout; /* 4.096 us x 2^n */
}

/* the lossless priorities */
static int lossless_count(const struct scenario *s)
{
	int p, n = 0;

	for (p = 0; p < SCN_PRIOS; p++)
		n += (s->pfc_prios >> p) & 1;
	return n;
}

int64_t scenario_pool_bytes(const struct scenario *s, uint32_t host_ports,
			    uint32_t fabric_ports)
{
	int64_t nl = lossless_count(s), headroom = 0;

	if (nl)
		headroom = nl * (host_ports * scenario_headroom_bytes(s, s->host_link_bps,
								     s->host_cable_mm) +
				 fabric_ports * scenario_headroom_bytes(s, s->fabric_link_bps,
									s->fabric_cable_mm));
	return mmu_pool_bytes(s->buffer_bytes, scn_reserved_of(s), host_ports + fabric_ports, headroom);
}

/* ---- the shared pool of every switch tier (docs/model.md#buffer) ---- */

/*
 * The tiers are runs of switch numbers (topology.h numbers switches by
 * tier); the ports of a tier's first switch, in port order, fall into runs
 * of one peer tier, its port classes (leaf: hosts, then spines).
 */
/* topology.kind = file: one tier of every switch, shown by the one whose
 * ports leave the smallest shared pool (host ports, then switch ports) */
static int file_tier(const struct scenario *s, const struct topo *topo, struct sw_tier t[3])
{
	uint32_t best = 0, best_h = 0, best_f = 0;
	int64_t least = INT64_MAX;

	for (uint32_t sw = 0; sw < topo->switches; sw++) {
		uint32_t h = 0, n = topo_ports(topo, sw);
		for (uint16_t p = 0; p < n; p++)
			h += (uint32_t)topo_port_is_host(topo, sw, p);
		int64_t pool = scenario_pool_bytes(s, h, n - h);
		if (pool < least) {
			least = pool;
			best = sw;
			best_h = h;
			best_f = n - h;
		}
	}
	memset(t, 0, sizeof(*t));
	t->name = "switch";
	t->label = "switches";
	t->tier = TOPO_SW;
	t->first = best;
	t->count = topo->switches;
	if (best_h)
		t->pc[t->npc++] = (struct port_class){ "hosts", best_h, 1, TOPO_HOST };
	if (best_f)
		t->pc[t->npc++] = (struct port_class){ "switches", best_f, 0, TOPO_SW };
	return 1;
}

int scn_switch_tiers(const struct scenario *s, struct sw_tier t[3])
{
	struct topo topo;
	struct sw_tier *x;
	uint16_t p, ports;
	uint32_t sw;
	int n = 0;

	scn_topo(s, &topo);
	if (topo.g)
		return file_tier(s, &topo, t);
	for (sw = 0; sw < topo.switches; sw++) {
		enum topo_tier tier = topo_tier_of(&topo, sw);

		if (n > 0 && t[n - 1].tier == tier) {
			t[n - 1].count++;
			continue;
		}
		x = &t[n++];
		memset(x, 0, sizeof(*x));
		x->name = scn_tier_words[tier].name;
		x->label = scn_tier_words[tier].label;
		x->tier = tier;
		x->first = sw;
		x->count = 1;
		ports = topo_ports(&topo, sw);
		for (p = 0; p < ports; p++) {
			enum topo_tier peer = topo_peer(&topo, sw, p).tier;
			struct port_class *pc;

			if (x->npc == 0 || x->pc[x->npc - 1].tier != peer) {
				pc = &x->pc[x->npc++];
				pc->peers = scn_tier_words[peer].peers;
				pc->host = peer == TOPO_HOST;
				pc->tier = peer;
			}
			x->pc[x->npc - 1].n++;
		}
	}
	return n;
}

uint32_t scn_tier_ports(const struct sw_tier *t, int host)
{
	uint32_t n = 0;
	int i;

	for (i = 0; i < t->npc; i++)
		n += !t->pc[i].host == !host ? t->pc[i].n : 0;
	return n;
}

int64_t scn_pool_text(const struct scenario *s, const struct sw_tier *t, char *buf,
		      size_t len)
{
	uint32_t hp = scn_tier_ports(t, 1), fp = scn_tier_ports(t, 0);
	int64_t pool = scenario_pool_bytes(s, hp, fp);
	int nl = lossless_count(s), w;
	size_t n = 0;
	char a[40];

#define APPEND(...)                                                   \
	do {                                                          \
		w = snprintf(buf + n, len - n, __VA_ARGS__);          \
		if (w < 0 || (size_t)w >= len - n)                    \
			return pool;                                  \
		n += (size_t)w;                                       \
	} while (0)
	buf[0] = '\0';
	APPEND("%s - %" PRIu32 " ports x %d PGs x %" PRId64 "B reserved",
	       units_format_size(s->buffer_bytes, a, sizeof(a)), hp + fp, MMU_PGS_PER_PORT,
	       scn_reserved_of(s));
	if (nl && hp)
		APPEND(" - %" PRIu32 " host ports x %d lossless PG%s x %" PRId64 "B headroom", hp,
		       nl, nl == 1 ? "" : "s",
		       scenario_headroom_bytes(s, s->host_link_bps, s->host_cable_mm));
	if (nl && fp)
		APPEND(" - %" PRIu32 " fabric ports x %d lossless PG%s x %" PRId64 "B headroom",
		       fp, nl, nl == 1 ? "" : "s",
		       scenario_headroom_bytes(s, s->fabric_link_bps, s->fabric_cable_mm));
	APPEND(" = %" PRId64 "B", pool);
#undef APPEND
	return pool;
}
