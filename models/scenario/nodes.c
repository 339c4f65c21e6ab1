/*
 * nodes.c - host sets ("all", "0-63", "0,2,4-7") and node names (h3,
 * leaf0, spine1, edge5, agg2, core0, sw0, docs/contract.md#outputs): their syntax when a
 * key is read, and their meaning in the scenario's topology (host indices,
 * the ends of a failed link and whether they are cabled) when it is
 * checked.
 *
 * Choices where the brief is silent
 *   - job.NAME.senders = all means every host except dst (the default); an
 *     explicit list that contains dst is a contradiction.  Explicit lists
 *     keep the order written; "all" is in host index order.
 */
#include "models/scenario/loader.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- host sets ---- */

/* a host index, with the white space around it */
static int parse_host_number(const char **pp, uint32_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	int digits = 0;

	while (is_blank(*p))
		p++;
	while (is_digit(*p)) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (++digits > 10 || v > UINT32_MAX)
			return -1;
		p++;
	}
	if (!digits)
		return -1;
	while (is_blank(*p))
		p++;
	*out = (uint32_t)v;
	*pp = p;
	return 0;
}

/*
 * Walk a host set.  With nhosts == 0 only the syntax is checked.  Otherwise
 * every index must be below nhosts and appear once; "all" is every host but
 * `exclude` (UINT32_MAX: none), and an explicit list that names `exclude`
 * returns HOSTSET_EXCLUDED.  The hosts go to out[] (if not NULL) and their
 * number to *count.  Returns 0, or -1 with the reason in e.
 */
int scn_hostset_walk(const char *text, uint32_t nhosts, uint32_t exclude,
		     uint32_t *out, uint32_t *count, char *e, size_t elen)
{
	uint8_t seen[SCN_MAX_HOSTS / 8];
	const char *p = text;
	uint32_t n = 0, lo, hi, h;

	if (strcmp(text, "all") == 0) {
		for (h = 0; h < nhosts; h++)
			if (h != exclude) {
				if (out)
					out[n] = h;
				n++;
			}
		*count = n;
		return 0;
	}
	if (nhosts > SCN_MAX_HOSTS) {
		snprintf(e, elen, "more than %d hosts", SCN_MAX_HOSTS);
		return -1;
	}
	memset(seen, 0, sizeof(seen));
	for (;;) {
		if (parse_host_number(&p, &lo))
			goto syntax;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_host_number(&p, &hi))
				goto syntax;
		}
		if (hi < lo) {
			snprintf(e, elen, "%" PRIu32 "-%" PRIu32 " goes backwards", lo, hi);
			return -1;
		}
		if (nhosts) {
			if (hi >= nhosts) {
				snprintf(e, elen, "host %" PRIu32 " out of range (0-%" PRIu32 ")",
					 lo >= nhosts ? lo : hi, nhosts - 1);
				return -1;
			}
			for (h = lo;; h++) {
				if (seen[h / 8] & (1u << (h % 8))) {
					snprintf(e, elen, "host %" PRIu32 " listed twice", h);
					return -1;
				}
				seen[h / 8] |= (uint8_t)(1u << (h % 8));
				if (out)
					out[n] = h;
				n++;
				if (h == hi)
					break;
			}
			if (exclude >= lo && exclude <= hi)
				return HOSTSET_EXCLUDED;
		}
		if (*p == '\0')
			break;
		if (*p != ',')
			goto syntax;
		p++;
	}
	*count = n;
	return 0;
syntax:
	snprintf(e, elen, "%s is not a host list (" HOSTSET_SYNTAX ")", text);
	return -1;
}

void scn_hostset_clear(struct scn_hostset *hs)
{
	free(hs->hosts);
	hs->hosts = NULL;
	hs->n = 0;
}

/* ---- node names (their words: scn_tier_words, derived.c) ---- */

int scn_parse_node_name(const char *b, const char *e, int *tier, uint32_t *idx)
{
	const char *d = b;
	uint64_t v = 0;
	int t;

	while (d < e && ((*d >= 'a' && *d <= 'z') || (*d >= 'A' && *d <= 'Z')))
		d++;
	if (d == e || (e - d > 1 && *d == '0') || e - d > 10)
		return -1;
	for (t = 0; t < N_TIERS; t++)
		if (strlen(scn_tier_words[t].prefix) == (size_t)(d - b) &&
		    strncmp(scn_tier_words[t].prefix, b, (size_t)(d - b)) == 0)
			break;
	if (t == N_TIERS)
		return -1;
	for (; d < e; d++) {
		if (!is_digit(*d))
			return -1;
		v = v * 10 + (uint64_t)(*d - '0');
	}
	if (v > UINT32_MAX)
		return -1;
	*tier = t;
	*idx = (uint32_t)v;
	return 0;
}

int scn_split_link(const char *text, int tier[2], uint32_t idx[2])
{
	const char *dash = strchr(text, '-');
	const char *b0 = text, *e0 = dash, *b1, *e1;

	if (!dash || strchr(dash + 1, '-'))
		return -1;
	b1 = dash + 1;
	e1 = text + strlen(text);
	trim_range(&b0, &e0);
	trim_range(&b1, &e1);
	return scn_parse_node_name(b0, e0, &tier[0], &idx[0]) ||
	       scn_parse_node_name(b1, e1, &tier[1], &idx[1]) ? -1 : 0;
}

/* ---- node names in the topology (the topology core's wiring) ---- */

static const char *const topo_article_names[] = { "a leaf-spine", "a fat-tree", "a star" };

/* a node: its tier, its index in the tier (leaf3: 3) and its number in the
 * topology (a host's index, a switch's number of topology.h) */
struct node {
	int tier;
	uint32_t idx, num;
};

/* nodes of tier t in the topology of s with switch tiers[] (0 if the kind
 * has no such tier); *first: the switch number of its first switch */
static uint32_t tier_size(const struct scenario *s, const struct sw_tier *tiers, int nt, int t,
			  uint32_t *first)
{
	int i;

	*first = 0;
	if (t == TOPO_HOST)
		return scenario_hosts(s);
	for (i = 0; i < nt; i++)
		if ((int)tiers[i].tier == t) {
			*first = tiers[i].first;
			return tiers[i].count;
		}
	return 0;
}

/* the names of the size nodes of tier t: "leaf0-leaf3", or "sw0" for one */
static void tier_range(int t, uint32_t size, char *buf, size_t len)
{
	const char *p = scn_tier_words[t].prefix;

	if (size == 1)
		snprintf(buf, len, "%s0", p);
	else
		snprintf(buf, len, "%s0-%s%" PRIu32, p, p, size - 1);
}

/*
 * Are nodes a and b directly cabled?  If not, a hint of where the one of
 * the lower tier is cabled goes to why ("" if none).
 */
static int nodes_cabled(const struct topo *t, struct node a, struct node b, char *why,
			size_t len)
{
	uint32_t lo = UINT32_MAX, hi = 0;
	struct topo_end e;
	uint16_t p, ports;
	char x[24], y[24], z[24];

	why[0] = '\0';
	if (a.tier > b.tier) {
		struct node c = a;
		a = b;
		b = c;
	}
	if (a.tier == TOPO_HOST) {
		e = topo_host_uplink(t, a.num);
		if (b.tier == TOPO_HOST || (int)e.tier != b.tier)
			return 0;
		if (e.node == b.num)
			return 1;
		snprintf(why, len, " (h%" PRIu32 " is cabled to %s)", a.idx,
			 topo_switch_name(t, e.node, x, sizeof(x)));
		return 0;
	}
	ports = topo_ports(t, a.num);
	for (p = 0; p < ports; p++) {
		e = topo_peer(t, a.num, p);
		if ((int)e.tier != b.tier)
			continue;
		if (e.node == b.num)
			return 1;
		lo = e.node < lo ? e.node : lo;
		hi = e.node > hi ? e.node : hi;
	}
	if (lo == UINT32_MAX)
		return 0; /* no port of a leads to b's tier */
	if (a.tier == TOPO_EDGE) /* an edge's aggs are those of its pod */
		snprintf(why, len, " (edge%" PRIu32 " is in pod %" PRIu32 ", agg%" PRIu32
			 " in pod %" PRIu32 ")", a.idx, a.idx / t->half, b.idx, b.idx / t->half);
	else
		snprintf(why, len, " (%s is cabled to %s-%s)",
			 topo_switch_name(t, a.num, x, sizeof(x)),
			 topo_switch_name(t, lo, y, sizeof(y)), topo_switch_name(t, hi, z, sizeof(z)));
	return 0;
}

/* "h0-h31, leaf0-leaf3, spine0-spine1": the node names of the topology */
static void node_ranges(const struct scenario *s, const struct sw_tier *tiers, int nt, char *buf,
			size_t len)
{
	uint32_t size, first;
	size_t n = 0;
	char r[40];
	int t, w;

	buf[0] = '\0';
	for (t = 0; t < N_TIERS; t++) {
		size = tier_size(s, tiers, nt, t, &first);
		if (!size)
			continue;
		tier_range(t, size, r, sizeof(r));
		w = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", r);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += (size_t)w;
	}
}

int scn_resolve_link(const struct scenario *s, const char *text, uint32_t node[2],
		     uint8_t is_host[2], char *e, size_t elen)
{
	struct sw_tier tiers[3];
	struct topo topo;
	struct node nd[2];
	int tier[2], nt, i;
	uint32_t idx[2], size, first;
	char names[2][24], why[96], ranges[160], r[40];

	if (scn_split_link(text, tier, idx)) {
		snprintf(e, elen, "%s is not a link", text); /* checked when read */
		return -1;
	}
	nt = scn_switch_tiers(s, tiers);
	for (i = 0; i < 2; i++) {
		size = tier_size(s, tiers, nt, tier[i], &first);
		snprintf(names[i], sizeof(names[i]), "%s%" PRIu32, scn_tier_words[tier[i]].prefix,
			 idx[i]);
		if (!size) {
			node_ranges(s, tiers, nt, ranges, sizeof(ranges));
			snprintf(e, elen, "%s is not a node of %s (%s)", names[i],
				 topo_article_names[s->topo], ranges);
			return -1;
		}
		if (idx[i] >= size) {
			tier_range(tier[i], size, r, sizeof(r));
			snprintf(e, elen, "%s out of range (%s%s)", names[i],
				 size == 1 ? "only " : "", r);
			return -1;
		}
		nd[i] = (struct node){ tier[i], idx[i],
				       tier[i] == TOPO_HOST ? idx[i] : first + idx[i] };
	}
	scn_topo(s, &topo);
	if (!nodes_cabled(&topo, nd[0], nd[1], why, sizeof(why))) {
		snprintf(e, elen, "%s and %s are not directly cabled%s", names[0], names[1], why);
		return -1;
	}
	for (i = 0; i < 2; i++) {
		is_host[i] = nd[i].tier == TOPO_HOST;
		node[i] = nd[i].num;
	}
	return 0;
}
