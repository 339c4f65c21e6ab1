/*
 * nodes.c - host sets ("all", "0-63", "0,2,4-7") and node names (h3,
 * leaf0, spine1, edge5, agg2, core0, sw0, DESIGN A3): their syntax when a
 * key is read, and their meaning in the scenario's topology (host indices,
 * the ends of a failed link and whether they are cabled) when it is
 * checked.
 *
 * Choices where the brief is silent
 *   - job.NAME.senders = all means every host except dst (the default); an
 *     explicit list that contains dst is a contradiction.  Explicit lists
 *     keep the order written; "all" is in host index order.
 */
#include "loader.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- host sets ---- */

static int parse_host_number(const char **pp, uint32_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	int digits = 0;

	while (is_digit(*p)) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (++digits > 10 || v > UINT32_MAX)
			return -1;
		p++;
	}
	if (!digits)
		return -1;
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
		while (is_blank(*p))
			p++;
		if (parse_host_number(&p, &lo))
			goto syntax;
		while (is_blank(*p))
			p++;
		hi = lo;
		if (*p == '-') {
			p++;
			while (is_blank(*p))
				p++;
			if (parse_host_number(&p, &hi))
				goto syntax;
			while (is_blank(*p))
				p++;
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

/* ---- node names ---- */

static const char *const node_prefix[NT_COUNT] = {
	"h", "leaf", "spine", "edge", "agg", "core", "sw"
};

int scn_parse_node_name(const char *b, const char *e, int *tier, uint32_t *idx)
{
	const char *d = b;
	uint64_t v = 0;
	int t;

	while (d < e && ((*d >= 'a' && *d <= 'z') || (*d >= 'A' && *d <= 'Z')))
		d++;
	if (d == e || (e - d > 1 && *d == '0') || e - d > 10)
		return -1;
	for (t = 0; t < NT_COUNT; t++)
		if (strlen(node_prefix[t]) == (size_t)(d - b) &&
		    strncmp(node_prefix[t], b, (size_t)(d - b)) == 0)
			break;
	if (t == NT_COUNT)
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

/* ---- node names in the topology ---- */

static const char *const topo_article_names[] = { "a leaf-spine", "a fat-tree", "a star" };

/* nodes of tier t in s's topology: 0 if the kind has no such tier */
static uint32_t tier_size(const struct scenario *s, int t)
{
	uint32_t half = s->k / 2;

	if (t == NT_HOST)
		return scenario_hosts(s);
	switch (s->topo) {
	case SCN_TOPO_LEAF_SPINE:
		return t == NT_LEAF ? s->leaves : t == NT_SPINE ? s->spines : 0;
	case SCN_TOPO_FAT_TREE:
		return t == NT_EDGE || t == NT_AGG ? s->k * half : t == NT_CORE ? half * half : 0;
	case SCN_TOPO_STAR:
		return t == NT_SW ? 1 : 0;
	}
	return 0;
}

/* switch number (topology.h) of switch idx of tier t */
static uint32_t switch_number(const struct scenario *s, int t, uint32_t idx)
{
	uint32_t pods = s->k * (s->k / 2);

	switch (t) {
	case NT_SPINE:
		return s->leaves + idx;
	case NT_AGG:
		return pods + idx;
	case NT_CORE:
		return 2 * pods + idx;
	default:
		return idx; /* leaf, edge, sw0 */
	}
}

/*
 * Are node (ta, a) and node (tb, b) directly cabled (topology.h wiring)?
 * If not, a hint of where they are cabled goes to why ("" if none).
 */
static int nodes_cabled(const struct scenario *s, int ta, uint32_t a, int tb,
			uint32_t b, char *why, size_t len)
{
	uint32_t half = s->k / 2;

	why[0] = '\0';
	if (ta > tb) {
		int t = ta;
		uint32_t x = a;
		ta = tb;
		tb = t;
		a = b;
		b = x;
	}
	if (ta == NT_HOST && tb == NT_LEAF) {
		if (b == a / s->hosts_per_leaf)
			return 1;
		snprintf(why, len, " (h%" PRIu32 " is cabled to leaf%" PRIu32 ")", a,
			 a / s->hosts_per_leaf);
		return 0;
	}
	if (ta == NT_HOST && tb == NT_EDGE) {
		if (b == a / half)
			return 1;
		snprintf(why, len, " (h%" PRIu32 " is cabled to edge%" PRIu32 ")", a, a / half);
		return 0;
	}
	if ((ta == NT_HOST && tb == NT_SW) || (ta == NT_LEAF && tb == NT_SPINE))
		return 1;
	if (ta == NT_EDGE && tb == NT_AGG) {
		if (a / half == b / half)
			return 1;
		snprintf(why, len, " (edge%" PRIu32 " is in pod %" PRIu32 ", agg%" PRIu32
			 " in pod %" PRIu32 ")", a, a / half, b, b / half);
		return 0;
	}
	if (ta == NT_AGG && tb == NT_CORE) {
		if (b / half == a % half)
			return 1;
		snprintf(why, len, " (agg%" PRIu32 " is cabled to core%" PRIu32 "-core%" PRIu32 ")",
			 a, (a % half) * half, (a % half) * half + half - 1);
		return 0;
	}
	return 0;
}

/* "h0-h31, leaf0-leaf3, spine0-spine1": the node names of the topology */
static void node_ranges(const struct scenario *s, char *buf, size_t len)
{
	size_t n = 0;
	int t, w;

	buf[0] = '\0';
	for (t = 0; t < NT_COUNT; t++) {
		uint32_t size = tier_size(s, t);
		if (!size)
			continue;
		if (size == 1)
			w = snprintf(buf + n, len - n, "%s%s0", n ? ", " : "", node_prefix[t]);
		else
			w = snprintf(buf + n, len - n, "%s%s0-%s%" PRIu32, n ? ", " : "",
				     node_prefix[t], node_prefix[t], size - 1);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += (size_t)w;
	}
}

int scn_resolve_link(const struct scenario *s, const char *text, uint32_t node[2],
		     uint8_t is_host[2], char *e, size_t elen)
{
	int tier[2], i;
	uint32_t idx[2];
	char names[2][24], why[96], ranges[160];

	if (scn_split_link(text, tier, idx)) {
		snprintf(e, elen, "%s is not a link", text); /* checked when read */
		return -1;
	}
	for (i = 0; i < 2; i++) {
		uint32_t size = tier_size(s, tier[i]);

		snprintf(names[i], sizeof(names[i]), "%s%" PRIu32, node_prefix[tier[i]], idx[i]);
		if (!size) {
			node_ranges(s, ranges, sizeof(ranges));
			snprintf(e, elen, "%s is not a node of %s (%s)", names[i],
				 topo_article_names[s->topo], ranges);
			return -1;
		}
		if (idx[i] >= size) {
			if (size == 1)
				snprintf(e, elen, "%s out of range (only %s0)", names[i],
					 node_prefix[tier[i]]);
			else
				snprintf(e, elen, "%s out of range (%s0-%s%" PRIu32 ")", names[i],
					 node_prefix[tier[i]], node_prefix[tier[i]], size - 1);
			return -1;
		}
	}
	if (!nodes_cabled(s, tier[0], idx[0], tier[1], idx[1], why, sizeof(why))) {
		snprintf(e, elen, "%s and %s are not directly cabled%s", names[0], names[1], why);
		return -1;
	}
	for (i = 0; i < 2; i++) {
		is_host[i] = tier[i] == NT_HOST;
		node[i] = is_host[i] ? idx[i] : switch_number(s, tier[i], idx[i]);
	}
	return 0;
}
