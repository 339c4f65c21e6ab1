/*
 * keys.c - the lookups the rooms make in the key table (keytable.c): a key
 * by section and name, its field as an integer, whether it applies given
 * its selecting key and how messages say where it does; and the defaults
 * that fabric.type and the [dcqcn] profiles set (the defaults of a new
 * scenario, job or fault: defaults.c).
 *
 * [dcqcn] profiles (docs/model.md#dcqcn)
 *   `profile` sets every knob's default (KF_PROFILE in scn_key_defs[]); a
 *   knob given explicitly wins whatever the order.  In a file, profile sets
 *   the knobs not given earlier in that file, and knobs after it are applied
 *   after it.  struct scenario records no "given" flag, so a later --set of
 *   dcqcn.profile (or a second file) treats as given every knob whose value
 *   differs from the previous profile's default and resets the others to
 *   the new profile's default: a knob given with exactly the old profile's
 *   default value follows the new profile.  Values are checked one by one;
 *   nothing depends on another knob.
 */
#include "models/scenario/loader.h"

#include <assert.h>
#include <string.h>

/* ---- lookups in the table ---- */

int scn_find_key(enum sec_id sec, const char *name)
{
	size_t i;

	for (i = 0; i < N_KEYS; i++)
		if (scn_key_defs[i].sec == sec && strcmp(scn_key_defs[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* the key definition by section and name, for keys the code names itself */
const struct key_def *scn_key_def_of(enum sec_id sec, const char *name)
{
	int i = scn_find_key(sec, name);

	return i < 0 ? NULL : &scn_key_defs[i];
}

void scn_store_int(void *base, const struct key_def *k, int64_t v)
{
	char *p = (char *)base + k->off;

	switch (k->size) {
	case 1: {
		uint8_t x = (uint8_t)v;
		memcpy(p, &x, 1);
		break;
	}
	case 4: {
		int32_t x = (int32_t)v;
		memcpy(p, &x, 4);
		break;
	}
	case 8:
		memcpy(p, &v, 8);
		break;
	default:
		break;
	}
}

/* integer and enum fields; every value stored fits int32 or int64 */
int64_t scn_load_int(const void *base, const struct key_def *k)
{
	const char *p = (const char *)base + k->off;

	switch (k->size) {
	case 1: {
		uint8_t x;
		memcpy(&x, p, 1);
		return x;
	}
	case 4: {
		int32_t x;
		memcpy(&x, p, 4);
		return x;
	}
	case 8: {
		int64_t x;
		memcpy(&x, p, 8);
		return x;
	}
	default:
		return 0;
	}
}

size_t scn_count_names(const char *const *names)
{
	size_t n = 0;

	while (names && names[n])
		n++;
	return n;
}

/* "a, b, c" */
void scn_join_names(const char *const *names, const char *sep, char *buf,
		    size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; names && names[i]; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", i ? sep : "", names[i]);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += (size_t)w;
	}
}

/* the definition of k's selecting key: "queues" in k's section, or "nic.cc" */
static const struct key_def *dep_def(const struct key_def *k)
{
	const char *dot = strchr(k->dep, '.');
	const struct key_def *d = NULL;
	int i;

	if (!dot)
		d = scn_key_def_of(k->sec, k->dep);
	for (i = 0; dot && i < SEC_COUNT; i++)
		if (strlen(scn_section_defs[i].name) == (size_t)(dot - k->dep) &&
		    strncmp(scn_section_defs[i].name, k->dep, (size_t)(dot - k->dep)) == 0)
			d = scn_key_def_of((enum sec_id)i, dot + 1);
	assert(d != NULL); /* scn_key_defs[] names only keys that exist */
	return d;
}

/* k's selecting key as messages name it: "kind" in its section, or "nic.cc" */
void scn_dep_label(const struct key_def *k, const char *secname, char *buf, size_t len)
{
	if (strchr(k->dep, '.'))
		snprintf(buf, len, "%s", k->dep);
	else
		snprintf(buf, len, "%s.%s", secname, k->dep);
}

/*
 * Does key k apply, given the selecting key's value in base (for a
 * selecting key of another section, base is the struct scenario)?  *cur:
 * its name.
 */
int scn_key_applies(const struct key_def *k, const void *base,
		    const char **cur)
{
	const struct key_def *d;
	int64_t v;

	if (!k->dep)
		return 1;
	d = dep_def(k);
	v = scn_load_int(base, d);
	if (d->type == KT_PRIOS || d->type == KT_BOOL) {
		if (cur)
			*cur = v ? "on" : "off";
		return v != 0;
	}
	if (cur)
		*cur = (v >= 0 && (size_t)v < scn_count_names(d->names)) ? d->names[v] : "?";
	return v >= 0 && v < 32 && ((k->mask >> v) & 1u);
}

/* Is k's dep an on/off switch (pfc.priorities, pfcwd.enable, ecn.queues)? */
int scn_dep_is_switch(const struct key_def *k)
{
	const struct key_def *d = k->dep ? dep_def(k) : NULL;

	return d && (d->type == KT_PRIOS || d->type == KT_BOOL);
}

/* what is off when a switch dep is 0, and why: "PFC is off", "pfc.priorities is empty" */
const char *scn_switch_off_what(const struct key_def *k)
{
	switch (k->sec) {
	case SEC_PFC:
		return "PFC is off";
	case SEC_ECN:
		return "ECN is off";
	case SEC_IB:
		return "InfiniBand congestion control is off";
	default:
		return "the PFC watchdog is off";
	}
}

const char *scn_switch_off_why(const struct key_def *k)
{
	switch (k->sec) {
	case SEC_PFC:
		return "pfc.priorities is empty";
	case SEC_ECN:
		return "ecn.queues is empty";
	case SEC_IB:
		return "ib.cc is false";
	default:
		return "pfcwd.enable is false";
	}
}

/*
 * "kind = fat-tree", "pattern = incast or permutation", "pattern =
 * permutation, ring-allreduce or alltoall", "nic.cc = dcqcn"
 */
void scn_applies_text(const struct key_def *k, char *buf, size_t len)
{
	const struct key_def *d = dep_def(k);
	size_t i, n, total = 0, done = 0;
	int w;

	for (i = 0; d->names[i]; i++)
		total += (k->mask >> i) & 1u;
	w = snprintf(buf, len, "%s = ", k->dep);
	n = (w < 0) ? 0 : (size_t)w;
	for (i = 0; d->names[i] && n < len; i++) {
		if (!((k->mask >> i) & 1u))
			continue;
		w = snprintf(buf + n, len - n, "%s%s",
			     done == 0 ? "" : done + 1 == total ? " or " : ", ", d->names[i]);
		if (w < 0)
			return;
		n += (size_t)w;
		done++;
	}
}

/*
 * fabric.type = infiniband has no PFC, no ECN marking, no DCQCN and no PFC
 * watchdog: credits keep it lossless.  Like a [dcqcn] profile, the type
 * sets the defaults of pfc.priorities, ecn.queues, nic.cc and pfcwd.enable
 * (roce: the table's; infiniband: empty, empty, none, false); a key given
 * explicitly keeps its value (given earlier in the file, or holding a value
 * other than the old type's default), and validate.c rejects a given value
 * that contradicts infiniband.
 */
int scn_fabric_default(const struct key_def *k, enum scn_fabric f, int64_t *def)
{
	if (k == scn_key_def_of(SEC_PFC, "priorities") || k == scn_key_def_of(SEC_ECN, "queues") ||
	    k == scn_key_def_of(SEC_PFCWD, "enable")) {
		*def = f != SCN_FABRIC_ROCE ? 0 : k->def[0];
		return 1;
	}
	if (k == scn_key_def_of(SEC_NIC, "cc")) {
		*def = f != SCN_FABRIC_ROCE ? SCN_CC_NONE : k->def[0];
		return 1;
	}
	return 0;
}

/* on ethernet-tcp: no PFC, watchdog or DCQCN, TCP's own retransmission
 * and segment size */
static const char *tcp_foreign(const struct key_def *k)
{
	if (k == scn_key_def_of(SEC_TOPOLOGY, "mtu"))
		return "a packet carries one segment of tcp.mss";
	switch (k->sec) {
	case SEC_PFC:
		return "lossy: no pause frames";
	case SEC_PFCWD:
		return "lossy: no pause frames to watch";
	case SEC_DCQCN:
		return "no DCQCN: TCP's congestion control is tcp.cc";
	case SEC_NIC:
		if (k == scn_key_def_of(SEC_NIC, "cc"))
			return "no DCQCN: TCP's congestion control is tcp.cc";
		if (k == scn_key_def_of(SEC_NIC, "pause_watchdog"))
			return "lossy: no pause frames";
		if (k == scn_key_def_of(SEC_NIC, "rto") || k == scn_key_def_of(SEC_NIC, "ib_timeout") ||
		    k == scn_key_def_of(SEC_NIC, "ib_retry_cnt"))
			return "TCP retransmits by its own timer: tcp.rto_min";
		return NULL;
	default:
		return NULL;
	}
}

/*
 * Why key k does not belong on fabric f whatever its value, NULL when it
 * does: a key selected by fabric.type ([ib]) on another fabric; on
 * infiniband any key of [pfc], [pfcwd], [ecn] and [dcqcn], nic.cc and
 * nic.pause_watchdog.  validate.c rejects such a key unless it holds the
 * fabric's own default; `compare` skips it.
 */
const char *scn_fabric_foreign(const struct key_def *k, enum scn_fabric f)
{
	if ((k->sec == SEC_IB && f != SCN_FABRIC_IB) ||
	    (k->dep && strcmp(k->dep, "fabric.type") == 0 && !(k->mask >> f & 1u)))
		return "a key of another fabric.type";
	if (f == SCN_FABRIC_TCP)
		return tcp_foreign(k);
	if (f != SCN_FABRIC_IB)
		return NULL;
	switch (k->sec) {
	case SEC_PFC:
		return "credits, not pause frames, keep it lossless";
	case SEC_PFCWD:
		return "no pause frames to watch: credits keep it lossless";
	case SEC_ECN:
		return "no ECN marking: credits, not congestion control, keep it lossless";
	case SEC_DCQCN:
		return "no DCQCN: credits, not congestion control, keep it lossless";
	case SEC_NIC:
		if (k == scn_key_def_of(SEC_NIC, "cc"))
			return "no DCQCN: credits, not congestion control, keep it lossless";
		if (k == scn_key_def_of(SEC_NIC, "pause_watchdog"))
			return "no pause frames: credits keep it lossless";
		return NULL;
	default:
		return NULL;
	}
}

void scn_apply_fabric(struct load *ld, enum scn_fabric old)
{
	struct scenario *s = ld->s;
	int64_t was, now;

	for (size_t i = 0; i < N_KEYS; i++) {
		const struct key_def *k = &scn_key_defs[i];

		if (!scn_fabric_default(k, old, &was) || (ld->line > 0 && ld->key_line[i] > 0))
			continue;
		if (scn_load_int(s, k) != was)
			continue;
		scn_fabric_default(k, s->fabric_type, &now);
		scn_store_int(s, k, now);
	}
}

/*
 * dcqcn.profile changed from `old` to s->dcqcn_profile: every knob not
 * given explicitly takes the new profile's default.  Given explicitly means
 * given earlier in the file being read (a knob after `profile` in the file
 * is applied after it anyway), or holding a value other than the old
 * profile's default (set by --set or an earlier file).  See the file header.
 */
void scn_apply_profile(struct load *ld, enum scn_dcqcn_profile old)
{
	struct scenario *s = ld->s;
	size_t i;

	for (i = 0; i < N_KEYS; i++) {
		const struct key_def *k = &scn_key_defs[i];

		if (!(k->flags & KF_PROFILE) || (ld->line > 0 && ld->key_line[i] > 0))
			continue;
		if (scn_load_int(s, k) != k->def[old])
			continue;
		scn_store_int(s, k, k->def[s->dcqcn_profile]);
	}
}
