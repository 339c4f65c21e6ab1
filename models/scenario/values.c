/*
 * values.c - one value of a key, by its type in the key table: parsed
 * exactly (units.h) with its syntax and range checked, and formatted back
 * in a form that loads to the same value.
 *
 * Choices where the brief is silent
 *   - job.NAME.file is stored as an absolute path (relative paths resolve
 *     against the scenario file's folder, made absolute with the current
 *     directory), so the printed scenario loads back from anywhere.
 *
 * [dcqcn] (docs/model.md#dcqcn)
 *   Knobs carry their NVIDIA firmware names.  A bare number is in the
 *   firmware unit: rates Mbps, times us, rpg_byte_reset 64-byte units
 *   (32767 = 2097088 B); it may have decimals if the result is a whole
 *   number of the base unit (rpg_time_reset = 1.5 is 1.5us; 1.0000001 and
 *   rpg_byte_reset = 1.01 are errors).  A value with a unit is parsed
 *   exactly as it is (5Mbps, 300us, 2MB).  dce_tcp_g and
 *   initial_alpha_value are integers 0-1023 (1/1024 units); the clamp flags
 *   are booleans (0/1 as written in firmware, true/false also accepted) and
 *   print as 0/1.  Ranges: rpg_threshold 1-31; rpg_gd 10-20; rpg_min_dec_fac
 *   0-100 (0 = no limit); rpg_ai_rate, rpg_hai_rate 0 or 1Mbps-1600Gbps;
 *   rate_to_set_on_first_cnp 0 (keep the rate) or 1Mbps-1600Gbps;
 *   rpg_min_rate 1Mbps-1600Gbps; times 0-1s, except rpg_time_reset and
 *   dce_tcp_rtt above 0; rpg_byte_reset 0 (off) to 1GB (not necessarily a
 *   multiple of 64 B).  cnp_scope = qp | port is not a profile setting.
 *   A number is printed bare when it is a whole number of firmware units
 *   (the paper profile's 10MB byte counter is 156250 x 64 B), else with
 *   its unit, so print -> load -> print is identical.
 */
#include "models/scenario/loader.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- parsing ---- */

/* a value's number checked against the key's range (time, rate, ...) */
static int check_range(struct load *ld, const char *full, const struct key_def *k,
		       const char *value, int64_t v)
{
	if (v < k->min || v > k->max)
		return scn_fail(ld, "%s: %s out of range (%s)", full, value, k->range);
	return 0;
}

/* the next comma-separated item of *pp, trimmed, into buf; 0 at the end */
static int next_item(const char **pp, char *buf, size_t len, int *too_long)
{
	const char *b = *pp, *e;

	if (*b == '\0')
		return 0;
	e = strchr(b, ',');
	*pp = e ? e + 1 : b + strlen(b);
	if (!e)
		e = b + strlen(b);
	trim_range(&b, &e);
	*too_long = copy_range(buf, len, b, e) != 0;
	return 1;
}

/* qos.dscp_to_priority (n 64: dscp -> priority, default dscp >> 3) or
 * ib.sl_to_vl (n 8: SL -> VL, default the SL): "from:to" overrides */
static int parse_pair_map(struct load *ld, const char *full, const char *value, uint8_t *map,
			  int n)
{
	const char *from = n == 64 ? "dscp" : "sl", *to = n == 64 ? "priority" : "vl";
	uint8_t seen[64] = { 0 };
	const char *p = value;
	char item[64], e[128];
	int d, too_long;

	for (d = 0; d < n; d++)
		map[d] = (uint8_t)(n == 64 ? d >> 3 : d);
	if (*value == '\0')
		return 0; /* no overrides */
	while (next_item(&p, item, sizeof(item), &too_long)) {
		char *colon = too_long ? NULL : strchr(item, ':');
		int64_t a, b;

		if (!colon)
			return scn_fail(ld, "%s: %s: expected %s:%s pairs, e.g. %s", full, value, from,
					to, n == 64 ? "26:3,48:6" : "3:1,5:1");
		*colon = '\0';
		if (units_parse_int(item, 0, n - 1, &a, e, sizeof(e)))
			return scn_fail(ld, "%s: %s %s", full, from, e);
		if (units_parse_int(colon + 1, 0, SCN_PRIOS - 1, &b, e, sizeof(e)))
			return scn_fail(ld, "%s: %s %s", full, to, e);
		if (seen[a])
			return scn_fail(ld, "%s: %s %" PRId64 " given twice", full, from, a);
		seen[a] = 1;
		map[a] = (uint8_t)b;
	}
	return 0;
}

/* qos.dwrr_weights: one weight per priority, each in k's range */
static int parse_weights(struct load *ld, const char *full, const struct key_def *k,
			 const char *value, uint32_t w[SCN_PRIOS])
{
	const char *p = value;
	char item[64], e[128];
	uint32_t tmp[SCN_PRIOS];
	int n = 0, too_long;

	while (next_item(&p, item, sizeof(item), &too_long)) {
		int64_t v;

		if (n == SCN_PRIOS)
			return scn_fail(ld, "%s: more than %d weights (%s)", full, SCN_PRIOS,
					k->range);
		if (too_long)
			return scn_fail(ld, "%s: weight too long", full);
		if (units_parse_int(item, k->min, k->max, &v, e, sizeof(e)))
			return scn_fail(ld, "%s: weight %d: %s", full, n, e);
		tmp[n++] = (uint32_t)v;
	}
	if (n != SCN_PRIOS)
		return scn_fail(ld, "%s: %d weights given (%s)", full, n, k->range);
	memcpy(w, tmp, sizeof(tmp));
	return 0;
}

/* output.plot_qps: "auto", or up to SCN_PLOT_QPS distinct QP ids in k's range */
static int parse_flows(struct load *ld, const char *full, const struct key_def *k,
		       const char *value, struct scn_flowlist *out)
{
	const char *p = value;
	char item[64], e[128];
	struct scn_flowlist fl = { 0 };
	int too_long;

	if (strcmp(value, "auto") == 0) {
		*out = fl;
		return 0;
	}
	while (next_item(&p, item, sizeof(item), &too_long)) {
		int64_t v;

		if (fl.n == SCN_PLOT_QPS)
			return scn_fail(ld, "%s: more than %d QPs (%s)", full, SCN_PLOT_QPS,
					k->range);
		if (too_long)
			return scn_fail(ld, "%s: QP id too long", full);
		if (units_parse_int(item, k->min, k->max, &v, e, sizeof(e)))
			return scn_fail(ld, "%s: %s (%s)", full, e, k->range);
		for (uint32_t i = 0; i < fl.n; i++)
			if (fl.id[i] == (uint32_t)v)
				return scn_fail(ld, "%s: QP %" PRId64 " listed twice", full, v);
		fl.id[fl.n++] = (uint32_t)v;
	}
	if (fl.n == 0)
		return scn_fail(ld, "%s: empty (%s)", full, k->range);
	*out = fl;
	return 0;
}

/* job.NAME.straggler: up to SCN_MAX_STRAGGLERS distinct HOST:DELAY */
static int parse_stragglers(struct load *ld, const char *full, const struct key_def *k,
			    const char *value, struct scn_stragglers *out)
{
	const char *p = value;
	char item[64], e[128];
	struct scn_stragglers st = { 0 };
	int too_long;

	while (next_item(&p, item, sizeof(item), &too_long)) {
		char *colon = strchr(item, ':');
		int tier;
		uint32_t host;
		int64_t d;

		if (too_long || !colon)
			return scn_fail(ld, "%s: %s is not HOST:DELAY (%s)", full, item, k->range);
		if (st.n == SCN_MAX_STRAGGLERS)
			return scn_fail(ld, "%s: more than %d stragglers", full, SCN_MAX_STRAGGLERS);
		if (scn_parse_node_name(item, colon, &tier, &host) || tier != TOPO_HOST)
			return scn_fail(ld, "%s: %.*s is not a host name (h0, h1, ...)", full,
					(int)(colon - item), item);
		if (units_parse_time(colon + 1, &d, e, sizeof(e)))
			return scn_fail(ld, "%s: %s: %s", full, colon + 1, e);
		if (d < k->min || d > k->max)
			return scn_fail(ld, "%s: %s out of range (0-1000s)", full, colon + 1);
		for (uint32_t i = 0; i < st.n; i++)
			if (st.host[i] == host)
				return scn_fail(ld, "%s: h%" PRIu32 " listed twice", full, host);
		st.host[st.n] = host;
		st.delay_ps[st.n++] = d;
	}
	if (!st.n)
		return scn_fail(ld, "%s: empty (%s)", full, k->range);
	*out = st;
	return 0;
}

/* a trace path: relative to the scenario's folder, made absolute */
static int resolve_file(struct load *ld, const char *full, const char *value,
			char out[4096])
{
	char cwd[4096];
	const char *p;
	int n;

	if (*value == '\0')
		return scn_fail(ld, "%s: empty (a CSV file)", full);
	for (p = value; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return scn_fail(ld, "%s: control character in the path", full);
	if (value[0] == '/')
		n = snprintf(out, 4096, "%s", value);
	else if (ld->dir[0] == '/')
		n = snprintf(out, 4096, "%s%s", ld->dir, value);
	else {
		if (!getcwd(cwd, sizeof(cwd)))
			return scn_fail(ld, "%s: cannot get the current directory (%s)", full,
					strerror(errno));
		n = snprintf(out, 4096, "%s/%s%s", strcmp(cwd, "/") ? cwd : "",
			     ld->dir, value);
	}
	if (n < 0 || n >= 4096)
		return scn_fail(ld, "%s: path too long (at most 4095 characters)", full);
	return 0;
}

/* pfc.priorities or ecn.queues: "3", "3,4", "" (off) into a bit mask */
static int parse_prios(struct load *ld, const char *full, const struct key_def *k,
		       const char *value, uint8_t *mask)
{
	int ecn = k->sec == SEC_ECN;
	const char *what = ecn ? "queue" : "priority";
	const char *p = value;
	char item[64], e[128];
	unsigned m = 0;

	if (*value == '\0') {
		*mask = 0;
		return 0;
	}
	for (;;) {
		const char *b = p, *end = strchr(p, ',');
		int last = end == NULL;
		int64_t v;

		if (last)
			end = p + strlen(p);
		p = last ? end : end + 1;
		trim_range(&b, &end);
		if (b == end || copy_range(item, sizeof(item), b, end))
			return scn_fail(ld, "%s: %s is not a list of %s (0-7, e.g. 3 or 3,4; empty = %s off)",
					full, value, ecn ? "queues" : "priorities",
					ecn ? "ECN" : "PFC");
		if (units_parse_int(item, 0, SCN_PRIOS - 1, &v, e, sizeof(e)))
			return scn_fail(ld, "%s: %s", full, e);
		if (m & (1u << v))
			return scn_fail(ld, "%s: %s %" PRId64 " listed twice", full, what, v);
		m |= 1u << v;
		if (last)
			break;
	}
	*mask = (uint8_t)m;
	return 0;
}

/* Is value a bare number (no unit): digits, '.', a sign, white space? */
static int is_bare_number(const char *value)
{
	const char *p;

	for (p = value; *p; p++)
		if (!is_digit(*p) && *p != '.' && *p != '+' && *p != '-' && !is_blank(*p))
			return 0;
	return 1;
}

/* Is the number in front of value's unit zero ("0Mbps", "0.0 Gbps")? */
static int is_zero_number(const char *value)
{
	const char *p = value;
	int digits = 0;

	while (is_blank(*p))
		p++;
	if (*p == '+')
		p++;
	for (; is_digit(*p) || *p == '.'; p++) {
		if (is_digit(*p) && *p != '0')
			return 0;
		digits += is_digit(*p);
	}
	return digits > 0;
}

/*
 * A [dcqcn] knob (KT_FW_*): a bare number is in the firmware unit (us,
 * Mbps, 64-byte units) and must be a whole number of the base unit; a value
 * with a unit is parsed as it is.  The result is range-checked by the
 * caller.  Returns 0, or -1 with the reason (value as read) in e.
 */
static int parse_fw(const struct key_def *k, const char *value, int64_t *v, char *e,
		    size_t elen)
{
	char buf[80];
	int rc;

	if (*value == '\0') {
		snprintf(e, elen, "empty value");
		return -1;
	}
	if (!is_bare_number(value)) {
		switch (k->type) {
		case KT_FW_TIME:
			return units_parse_time(value, v, e, elen) ? -1 : 0;
		case KT_FW_RATE:
			rc = units_parse_rate(value, v, e, elen);
			/* units_parse_rate refuses 0, which some knobs allow: a
			 * valid unit (checked before the range) after a zero */
			if (rc == UNITS_ERANGE && !strchr(value, '-') && is_zero_number(value)) {
				*v = 0;
				return 0;
			}
			return rc ? -1 : 0;
		default:
			return units_parse_size(value, v, e, elen) ? -1 : 0;
		}
	}
	if (strlen(value) > 40) {
		snprintf(e, elen, "%.37s... has too many digits", value);
		return -1;
	}
	switch (k->type) {
	case KT_FW_TIME:
		snprintf(buf, sizeof(buf), "%sus", value);
		return units_parse_time(buf, v, e, elen) ? -1 : 0;
	case KT_FW_RATE:
		snprintf(buf, sizeof(buf), "%sMbps", value);
		rc = units_parse_rate(buf, v, e, elen);
		if (rc == UNITS_ERANGE && !strchr(value, '-') && is_zero_number(value)) {
			*v = 0;
			return 0;
		}
		return rc ? -1 : 0;
	default:
		/* n x 64 B is whole exactly when n KiB (n x 1024 B) is whole
		 * and a multiple of 16 */
		snprintf(buf, sizeof(buf), "%sKiB", value);
		rc = units_parse_size(buf, v, e, elen);
		if (rc == 0 && *v % 16 == 0) {
			*v /= 16;
			return 0;
		}
		if (rc == 0 || rc == UNITS_EINEXACT)
			snprintf(e, elen, "%s x 64 B is not a whole number of bytes", value);
		else if (strchr(value, '-'))
			snprintf(e, elen, "%s is negative (must be 0 or more)", value);
		else if (rc == UNITS_ERANGE)
			snprintf(e, elen, "%s is too large", value);
		else
			snprintf(e, elen, "%s is not a number", value);
		return -1;
	}
}

/* fault.NAME.node: a host name, h3 */
static int parse_node(struct load *ld, const char *full, const struct key_def *k, void *base,
		      const char *value)
{
	int tier;
	uint32_t idx;

	if (scn_parse_node_name(value, value + strlen(value), &tier, &idx))
		return scn_fail(ld, "%s: %s is not a host name (h0, h1, ...)", full, value);
	if (tier != TOPO_HOST)
		return scn_fail(ld, "%s: %s is a switch (pause-storm and slow-receiver are NIC faults: give a host, e.g. h3)",
				full, value);
	if (idx > (uint32_t)k->max)
		return scn_fail(ld, "%s: %s out of range (h0-h%" PRId64 ")", full, value,
				k->max);
	scn_store_int(base, k, (int64_t)idx);
	return 0;
}

/* fault.NAME.link: "A-B" of node names, kept as text until finalize */
static int parse_link(struct load *ld, const char *full, const struct key_def *k, void *base,
		      const char *value)
{
	char *text = (char *)base + k->off;
	int tier[2];
	uint32_t idx[2];

	if (scn_split_link(value, tier, idx))
		return scn_fail(ld, "%s: %s is not a link (A-B of node names: " NODE_EXAMPLES
				"; e.g. leaf0-spine1 or h3-leaf0)", full, value);
	if (strlen(value) >= sizeof(((struct scn_fault *)0)->link_text))
		return scn_fail(ld, "%s: longer than %zu characters", full,
				sizeof(((struct scn_fault *)0)->link_text) - 1);
	memcpy(text, value, strlen(value) + 1);
	return 0;
}

/* one of k->names; a value of k->later is known but not implemented */
static int parse_enum(struct load *ld, const char *full, const struct key_def *k, void *base,
		      const char *value)
{
	char names[128];
	size_t i;

	for (i = 0; k->names[i]; i++)
		if (strcmp(value, k->names[i]) == 0) {
			scn_store_int(base, k, (int64_t)i);
			return 0;
		}
	scn_join_names(k->names, " | ", names, sizeof(names));
	for (i = 0; k->later && k->later[i]; i++)
		if (strcmp(value, k->later[i]) == 0)
			return scn_fail(ld, "%s: %s not implemented yet (only %s = %s in this version)",
					full, value, k->name, names);
	scn_join_names(k->names, ", ", names, sizeof(names));
	if (k->later) {
		size_t n = strlen(names);
		snprintf(names + n, sizeof(names) - n, "; later: ");
		n = strlen(names);
		scn_join_names(k->later, ", ", names + n, sizeof(names) - n);
	}
	return scn_fail(ld, "%s: %s is not valid (%s)", full, value, names);
}

/* qos.nccl_ib_tc: the TOS byte, DSCP in the upper six bits, ECN below */
static int parse_tc(struct load *ld, const char *full, const struct key_def *k, void *base,
		    const char *value)
{
	char e[256];
	int64_t v = 0;

	if (units_parse_int(value, k->min, k->max, &v, e, sizeof(e)))
		return scn_fail(ld, "%s: %s", full, e);
	((struct scenario *)base)->tc_ecn_bits = (int8_t)(v & 3);
	v >>= 2;
	if (ld->line > 0) {
		int dl = ld->key_line[scn_find_key(SEC_QOS, "data_dscp")];
		if (dl && ld->s->data_dscp != v)
			return scn_fail(ld, "%s: %s is DSCP %" PRId64 ", but qos.data_dscp is %u (line %d)",
					full, value, v, ld->s->data_dscp, dl);
	}
	scn_store_int(base, k, v);
	return 0;
}

/* a host set's text, checked for form only: resolved at finalize */
static int parse_hostset(struct load *ld, const char *full, const struct key_def *k, void *base,
			 const char *value)
{
	struct scn_hostset *hs = (struct scn_hostset *)((char *)base + k->off);
	char e[256];
	uint32_t n;

	if (*value == '\0')
		return scn_fail(ld, "%s: empty (" HOSTSET_SYNTAX ")", full);
	if (strlen(value) >= sizeof(hs->text))
		return scn_fail(ld, "%s: longer than %zu characters", full,
				sizeof(hs->text) - 1);
	if (scn_hostset_walk(value, 0, UINT32_MAX, NULL, &n, e, sizeof(e)))
		return scn_fail(ld, "%s: %s", full, e);
	scn_hostset_clear(hs);
	memcpy(hs->text, value, strlen(value) + 1);
	return 0;
}

#define NOT_STORED 1 /* parse_stored(): k takes a number, parse_number() reads it */
#define STORED 1     /* parse_number(): the value is stored already (auto, none, 0) */

/* the keys whose value is stored as it is read (flags, lists, names, text):
 * 0 or -1, or NOT_STORED for a key that takes a number */
static int parse_stored(struct load *ld, const char *full, const struct key_def *k, void *base,
			const char *value)
{
	char e[256];
	char *field = (char *)base + k->off;

	switch (k->type) {
	case KT_TODO:
		return scn_fail(ld, "%s: not implemented yet", full);
	case KT_BOOL: {
		int b;
		if (units_parse_bool(value, &b, e, sizeof(e)))
			return scn_fail(ld, "%s: %s", full, e);
		scn_store_int(base, k, b);
		return 0;
	}
	case KT_PRIOS:
		return parse_prios(ld, full, k, value, (uint8_t *)field);
	case KT_NODE:
		return parse_node(ld, full, k, base, value);
	case KT_LINK:
		return parse_link(ld, full, k, base, value);
	case KT_ENUM:
		return parse_enum(ld, full, k, base, value);
	case KT_TC:
		return parse_tc(ld, full, k, base, value);
	case KT_DSCP_MAP:
	case KT_SL_MAP:
		return parse_pair_map(ld, full, value, (uint8_t *)field,
				      k->type == KT_DSCP_MAP ? 64 : SCN_PRIOS);
	case KT_WEIGHTS:
		return parse_weights(ld, full, k, value, (uint32_t *)(void *)field);
	case KT_HOSTSET:
		return parse_hostset(ld, full, k, base, value);
	case KT_FILE:
		return resolve_file(ld, full, value, field);
	case KT_FLOWS:
		return parse_flows(ld, full, k, value, (struct scn_flowlist *)(void *)field);
	case KT_STRAGGLERS:
		return parse_stragglers(ld, full, k, value, (struct scn_stragglers *)(void *)field);
	default:
		return NOT_STORED;
	}
}

/* a key that takes a number: its value in the base unit into *v (range not
 * yet checked), or STORED (auto, none, a firmware 0), or -1 */
static int parse_number(struct load *ld, const char *full, const struct key_def *k, void *base,
			const char *value, int64_t *v)
{
	char e[256];
	size_t i;
	int rc = 0;

	switch (k->type) {
	case KT_FRACTION:
		rc = units_parse_fraction(value, v, e, sizeof(e));
		break;
	case KT_PERCENT: {
		char pct[64];
		size_t n = strlen(value);
		if (n + 2 > sizeof(pct))
			return scn_fail(ld, "%s: %s is not a percentage (%s)", full, value, k->range);
		snprintf(pct, sizeof(pct), "%s%s", value, n && value[n - 1] == '%' ? "" : "%");
		if (units_parse_fraction(pct, v, e, sizeof(e)))
			return scn_fail(ld, "%s: %s (%s)", full, e, k->range);
		break;
	}
	case KT_INT_NONE:
	case KT_INT_AUTO:
		if (strcmp(value, k->type == KT_INT_NONE ? "none" : "auto") == 0) {
			scn_store_int(base, k, SCN_AUTO);
			return STORED;
		}
		if (units_parse_int(value, k->min, k->max, v, e, sizeof(e)))
			return scn_fail(ld, "%s: %s is not valid (%s)", full, value, k->range);
		break;
	case KT_FW_TIME:
	case KT_FW_RATE:
	case KT_FW_BYTES:
		if (parse_fw(k, value, v, e, sizeof(e)))
			return scn_fail(ld, "%s: %s (%s)", full, e, k->range);
		if (*v == 0 && (k->flags & KF_ZERO)) {
			scn_store_int(base, k, 0);
			return STORED;
		}
		break;
	case KT_SIZE_AUTO:
	case KT_TIME_AUTO:
		if (strcmp(value, "auto") == 0) {
			scn_store_int(base, k, SCN_AUTO);
			return STORED;
		}
		rc = k->type == KT_SIZE_AUTO ? units_parse_size(value, v, e, sizeof(e))
					     : units_parse_time(value, v, e, sizeof(e));
		if (rc)
			return scn_fail(ld, "%s: %s (%s)", full, e, k->range);
		break;
	case KT_INT:
		if (units_parse_int(value, k->min, k->max, v, e, sizeof(e)))
			return scn_fail(ld, "%s: %s", full, e);
		if ((k->flags & KF_EVEN) && *v % 2)
			return scn_fail(ld, "%s: %s is odd (%s)", full, value, k->range);
		break;
	case KT_TIME:
		rc = units_parse_time(value, v, e, sizeof(e));
		break;
	case KT_RATE:
		rc = units_parse_rate(value, v, e, sizeof(e));
		break;
	case KT_LENGTH:
		rc = units_parse_length(value, v, e, sizeof(e));
		break;
	case KT_SIZE:
		rc = units_parse_size(value, v, e, sizeof(e));
		break;
	case KT_MTU:
		for (i = 0; is_digit(value[i]); i++)
			;
		if (i > 0 && value[i] == '\0') {
			if (units_parse_int(value, k->min, k->max, v, e, sizeof(e)))
				return scn_fail(ld, "%s: %s", full, e);
		} else {
			rc = units_parse_size(value, v, e, sizeof(e));
		}
		break;
	default: /* parse_stored()'s */
		break;
	}
	if (rc)
		return scn_fail(ld, "%s: %s", full, e);
	return 0;
}

/* parse `value` for key k into base (struct scenario, scn_job or scn_fault) */
int scn_parse_value(struct load *ld, const char *full, const struct key_def *k,
		    void *base, const char *value)
{
	int64_t v = 0;
	size_t i;
	int rc;

	if ((k->flags & KF_ZERO) && strcmp(value, "0") == 0) {
		scn_store_int(base, k, 0);
		return 0;
	}
	if (k == scn_key_def_of(SEC_FABRIC, "type")) {
		/* the keys whose defaults follow the fabric type (keys.c) */
		enum scn_fabric old = ((struct scenario *)base)->fabric_type;

		for (i = 0; k->names[i]; i++)
			if (strcmp(value, k->names[i]) == 0) {
				scn_store_int(base, k, (int64_t)i);
				scn_apply_fabric(ld, old);
				return 0;
			}
	}
	rc = parse_stored(ld, full, k, base, value);
	if (rc != NOT_STORED)
		return rc;
	rc = parse_number(ld, full, k, base, value, &v);
	if (rc)
		return rc == STORED ? 0 : -1;
	if (k->type != KT_INT && check_range(ld, full, k, value, v))
		return -1;
	if (k->sec == SEC_QOS && strcmp(k->name, "data_dscp") == 0 && ld->line > 0) {
		int tl = ld->key_line[scn_find_key(SEC_QOS, "nccl_ib_tc")];
		if (tl && ld->s->data_dscp != v)
			return scn_fail(ld, "%s: %s, but qos.nccl_ib_tc (line %d) is DSCP %u",
					full, value, tl, ld->s->data_dscp);
	}
	scn_store_int(base, k, v);
	return 0;
}

/* ---- formatting ---- */

/* a [dcqcn] knob: a whole number of firmware units bare, else with a unit */
static void format_fw(int64_t v, int64_t unit, char *(*with_unit)(int64_t, char *, size_t),
		      char *buf, size_t len)
{
	if (v % unit == 0)
		snprintf(buf, len, "%" PRId64, v / unit);
	else
		with_unit(v, buf, len);
}

/* a DSCP or SL map: the pairs that differ from the default map */
static void format_pair_map(const struct key_def *k, const char *p, char *buf, size_t len)
{
	size_t n = 0;

	for (int i = 0; i < (k->type == KT_DSCP_MAP ? 64 : SCN_PRIOS); i++) {
		uint8_t prio = (uint8_t)p[i];
		int w;
		if (prio == (uint8_t)(k->type == KT_DSCP_MAP ? i >> 3 : i))
			continue;
		w = snprintf(buf + n, len - n, "%s%d:%u", n ? "," : "", i, prio);
		if (w < 0 || (size_t)w >= len - n)
			break;
		n += (size_t)w;
	}
}

/* 8 weights, by priority or VL */
static void format_weights(const char *p, char *buf, size_t len)
{
	uint32_t w[SCN_PRIOS];

	memcpy(w, p, sizeof(w));
	snprintf(buf, len, "%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32
		 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32,
		 w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
}

/* "auto", or the QP ids */
static void format_flows(const char *p, char *buf, size_t len)
{
	struct scn_flowlist fl;
	size_t n = 0;

	memcpy(&fl, p, sizeof(fl));
	snprintf(buf, len, "%s", fl.n ? "" : "auto");
	for (int i = 0; i < (int)fl.n && n + 12 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%" PRIu32, i ? "," : "", fl.id[i]);
}

/* "h5:2ms,h9:500us" */
static void format_stragglers(const char *p, char *buf, size_t len)
{
	struct scn_stragglers st;
	char d[40];
	size_t n = 0;

	memcpy(&st, p, sizeof(st));
	buf[0] = '\0';
	for (int i = 0; i < (int)st.n && n + 60 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%sh%" PRIu32 ":%s", i ? "," : "",
				      st.host[i], units_format_time(st.delay_ps[i], d, sizeof(d)));
}

void scn_format_value(const struct key_def *k, const void *base, char *buf,
		      size_t len)
{
	const char *p = (const char *)base + k->off;
	int64_t v;

	buf[0] = '\0';
	if ((k->flags & KF_ZERO) && scn_load_int(base, k) == 0) {
		snprintf(buf, len, "0");
		return;
	}
	switch (k->type) {
	case KT_BOOL:
		if (k->flags & KF_NUM01)
			snprintf(buf, len, "%d", scn_load_int(base, k) ? 1 : 0);
		else
			snprintf(buf, len, "%s", scn_load_int(base, k) ? "true" : "false");
		break;
	case KT_FRACTION:
	case KT_PERCENT:
		units_format_fraction(scn_load_int(base, k), buf, len);
		break;
	case KT_INT_NONE:
	case KT_INT_AUTO:
		v = scn_load_int(base, k);
		if (v == SCN_AUTO)
			snprintf(buf, len, "%s", k->type == KT_INT_NONE ? "none" : "auto");
		else
			snprintf(buf, len, "%" PRId64, v);
		break;
	case KT_FW_TIME:
		format_fw(scn_load_int(base, k), UNITS_PS_PER_US, units_format_time, buf, len);
		break;
	case KT_FW_RATE:
		format_fw(scn_load_int(base, k), MBPS, units_format_rate, buf, len);
		break;
	case KT_FW_BYTES:
		format_fw(scn_load_int(base, k), FW_BYTE_UNIT, units_format_size, buf, len);
		break;
	case KT_PRIOS:
		scn_prios_text((uint8_t)scn_load_int(base, k), buf, len);
		break;
	case KT_SIZE_AUTO:
	case KT_TIME_AUTO:
		v = scn_load_int(base, k);
		if (v == SCN_AUTO)
			snprintf(buf, len, "auto");
		else if (k->type == KT_SIZE_AUTO)
			units_format_size(v, buf, len);
		else
			units_format_time(v, buf, len);
		break;
	case KT_NODE: {
		uint32_t h;
		memcpy(&h, p, sizeof(h));
		snprintf(buf, len, "h%" PRIu32, h);
		break;
	}
	case KT_LINK:
		snprintf(buf, len, "%s", p);
		break;
	case KT_INT:
	case KT_MTU:
	case KT_TC:
		snprintf(buf, len, "%" PRId64, scn_load_int(base, k));
		break;
	case KT_TIME:
		units_format_time(scn_load_int(base, k), buf, len);
		break;
	case KT_RATE:
		units_format_rate(scn_load_int(base, k), buf, len);
		break;
	case KT_LENGTH:
		units_format_length(scn_load_int(base, k), buf, len);
		break;
	case KT_SIZE:
		v = (k->flags & (KF_FRAME1 | KF_FRAME2))
			    ? scn_frames_value(k, (const struct scenario *)base)
			    : scn_load_int(base, k);
		units_format_size(v, buf, len);
		break;
	case KT_ENUM:
		v = scn_load_int(base, k);
		snprintf(buf, len, "%s",
			 v >= 0 && (size_t)v < scn_count_names(k->names) ? k->names[v] : "?");
		break;
	case KT_DSCP_MAP:
	case KT_SL_MAP:
		format_pair_map(k, p, buf, len);
		break;
	case KT_WEIGHTS:
		format_weights(p, buf, len);
		break;
	case KT_HOSTSET:
		snprintf(buf, len, "%s", ((const struct scn_hostset *)(const void *)p)->text);
		break;
	case KT_FILE:
		snprintf(buf, len, "%s", p);
		break;
	case KT_FLOWS:
		format_flows(p, buf, len);
		break;
	case KT_STRAGGLERS:
		format_stragglers(p, buf, len);
		break;
	case KT_TODO:
		break;
	}
}

void scn_prios_text(uint8_t mask, char *buf, size_t len)
{
	size_t n = 0;
	int p, w;

	buf[0] = '\0';
	for (p = 0; p < SCN_PRIOS; p++) {
		if (!(mask & (1u << p)))
			continue;
		w = snprintf(buf + n, len - n, "%s%d", n ? "," : "", p);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += (size_t)w;
	}
}
