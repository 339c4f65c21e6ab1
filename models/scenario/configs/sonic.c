/*
 * sonic.c - the QoS tables of a SONiC config_db.json into a scenario
 * (scenario_import_sonic, config.h; docs/configs.md has the tables).
 *
 * Source: SONiC's config_db schema (sonic-buildimage
 * src/sonic-yang-models, the qos and buffer templates of
 * files/build_templates/), as `show runningconfiguration all` prints it.
 * The file is read with json-c; values may be JSON strings (as SONiC writes
 * them) or integers; keys may list ports ("Ethernet0,Ethernet4|3-4") and
 * references may be "[TABLE|NAME]", as older SONiC templates write them.
 *
 * What is read, and how
 *   PORT_QOS_MAP.<port>.pfc_enable       -> pfc.priorities
 *   PORT_QOS_MAP.<port>.dscp_to_tc_map   -> qos.dscp_to_priority: all 64
 *       DSCPs of the DSCP_TO_TC_MAP it names (a DSCP the map does not list
 *       goes to TC 0, as in SONiC), since the model takes TC = priority
 *   PORT_QOS_MAP.<port>.tc_to_pg_map, tc_to_queue_map, pfc_to_queue_map,
 *       pfc_to_pg_map: the maps they name must be the identity on the
 *       port's lossless TCs (TC = priority = PG = queue in the model); they
 *       set nothing
 *   PORT_QOS_MAP.<port>.pfcwd_sw_enable: must equal pfc_enable (the model's
 *       watchdog watches every lossless priority)
 *   BUFFER_PG."<port>|<pgs>".profile on the port's lossless PGs (its
 *       pfc_enable; with no PORT_QOS_MAP table, the scenario's
 *       pfc.priorities) -> the
 *       BUFFER_PROFILE:  size -> buffer.reserved, dynamic_th ->
 *       buffer.dynamic_th, xoff -> pfc.headroom, xon_offset -> pfc.xon_offset;
 *       its pool's BUFFER_POOL.<pool>.size -> buffer.size
 *   QUEUE."<port>|<queues>".wred_profile -> the WRED_PROFILE:
 *       green_min_threshold -> ecn.kmin, green_max_threshold -> ecn.kmax,
 *       green_drop_probability -> ecn.pmax (percent); the queues whose
 *       profile marks green traffic (ecn_all, ecn_green, ecn_green_yellow,
 *       ecn_green_red, with wred_green_enable true) -> ecn.queues
 *   PFC_WD.<port>: action, detection_time, restoration_time (ms) ->
 *       pfcwd.*; PFC_WD.GLOBAL.POLL_INTERVAL -> pfcwd.poll_interval;
 *       pfcwd.enable = true when a port has an entry, false when none has
 * A table that is absent sets nothing; a table present sets its keys, so a
 * PORT_QOS_MAP without pfc_enable turns PFC off and a QUEUE table without
 * ECN profiles turns ECN off.
 *
 * Choices
 *   - xon_offset, not xon: the model resumes a PG once its shared use is
 *     xon_offset below the dynamic threshold (docs/model.md#pfc), which is SONiC's
 *     xon_offset (Broadcom); xon is the absolute XON level of the ASICs
 *     that use one (Mellanox), which the model does not have: it is read
 *     and logged, never mapped.
 *   - buffer.size is the model's one shared buffer per switch, from which
 *     reserved and headroom of every port are carved (docs/model.md#buffer); it comes
 *     from the size of the pool the lossless profile names (on Broadcom
 *     the ingress_lossless_pool holds the same).  The other pools are not
 *     read (logged): the model has no separate egress or lossy pool.  A
 *     pool's xoff (a shared headroom pool) other than 0 is an error, and a
 *     static pool (mode static) too.
 *   - only what a lossless PG or an ECN queue uses is read: lossy PGs,
 *     profiles, pools and WRED profiles that no lossless PG or queue names
 *     are listed in one log line each as not read.
 *   - every field of an entry that is read is mapped, checked, ignored
 *     with a log line (listed below), or an error naming its JSON path:
 *       ignored: BUFFER_POOL type; BUFFER_PROFILE xon; QUEUE scheduler;
 *       PFC_WD pfc_stat_history; PFC_WD.GLOBAL BIG_RED_SWITCH "disable";
 *       WRED_PROFILE yellow_* and red_* while wred_yellow_enable /
 *       wred_red_enable is false or absent.
 *       errors: yellow/red thresholds with their enable flag true (the
 *       model marks green traffic only), WRED without ECN (drop), static_th,
 *       unknown fields.
 *   - every port must agree: a value that differs from the first port's is
 *     an error naming both JSON paths.  Values are compared as the model
 *     takes them (two profiles of equal values agree).
 *   - the other top-level tables (PORT, DEVICE_METADATA, SCHEDULER,
 *     BUFFER_QUEUE, ...) are listed in one log line as not read.
 *   - a value that the loader rejects gives the loader's message after the
 *     JSON path; ecn.kmax above ecn.kmin is checked here, with both paths.
 */
#include "models/scenario/configs/config.h"
#include "models/scenario/configs/internal.h"
#include "models/scenario/loader.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define MAX_JSON_BYTES ((size_t)64 << 20)
#define PATH_LEN 256
#define NOTE_LEN 2048

/* the keys this file sets, in the order they are set (a key's dep first) */
enum skey {
	K_PFC_PRIOS,
	K_DSCP_MAP,
	K_BUF_SIZE,
	K_RESERVED,
	K_DYN_TH,
	K_HEADROOM,
	K_XON_OFFSET,
	K_ECN_QUEUES,
	K_KMIN,
	K_KMAX,
	K_PMAX,
	K_WD_ENABLE,
	K_WD_ACTION,
	K_WD_DETECT,
	K_WD_RESTORE,
	K_WD_POLL,
	K_COUNT
};

static const char *const skey_names[K_COUNT] = {
	"pfc.priorities",  "qos.dscp_to_priority", "buffer.size",
	"buffer.reserved", "buffer.dynamic_th",    "pfc.headroom",
	"pfc.xon_offset",  "ecn.queues",           "ecn.kmin",
	"ecn.kmax",        "ecn.pmax",             "pfcwd.enable",
	"pfcwd.action",    "pfcwd.detection_time", "pfcwd.restoration_time",
	"pfcwd.poll_interval",
};

/* a value and the JSON path it came from (the first port's) */
struct agreed {
	int set;
	char value[400];
	char path[PATH_LEN];
};

#define MAX_PORTS 1024

struct port {
	char name[64];
	uint8_t lossless; /* pfc_enable */
	uint8_t ecn;      /* queues with an ECN profile */
	char qpath[PATH_LEN]; /* its first QUEUE entry */
	char wpath[PATH_LEN]; /* its last QUEUE wred_profile with ECN */
};

struct sonic {
	const char *src;
	struct json_object *root;
	FILE *log;
	struct scn_error *err;
	struct agreed v[K_COUNT];
	struct port ports[MAX_PORTS];
	int nports;
	int no_pqm;               /* no PORT_QOS_MAP table: */
	uint8_t lossless;         /* the scenario's pfc.priorities are lossless */
	char not_read[NOTE_LEN];  /* lossy PGs, unused profiles, ... */
	char (*used)[PATH_LEN];   /* "TABLE.NAME" of the entries referenced */
	int nused;
};

#define MAX_USED 512

static void path2(char *out, const char *table, const char *key);

/* note that TABLE.NAME was referenced; 1 the first time */
static int first_use(struct sonic *sn, const char *table, const char *name)
{
	char p[PATH_LEN];
	int i;

	path2(p, table, name);
	for (i = 0; i < sn->nused; i++)
		if (strcmp(sn->used[i], p) == 0)
			return 0;
	if (sn->nused < MAX_USED)
		scn_sfmt(sn->used[sn->nused++], PATH_LEN, "%s", p);
	return 1;
}

static int was_used(const struct sonic *sn, const char *path)
{
	int i;

	for (i = 0; i < sn->nused; i++)
		if (strcmp(sn->used[i], path) == 0)
			return 1;
	return 0;
}

/* ---- messages ---- */

SCN_PRINTF(3, 4) static int fail(struct sonic *sn, const char *path, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return scn_set_error(sn->err, (struct place){ sn->src, 0 }, "%s: %s", path, msg);
}

/* a JSON key in a path: quoted when it holds '|', '.' or a blank */
static const char *pkey(const char *key, char *buf, size_t len)
{
	if (strpbrk(key, "|. \t")) {
		scn_sfmt(buf, len, "\"%s\"", key);
		return buf;
	}
	return key;
}

/* "TABLE.KEY" and "TABLE.KEY.FIELD" */
static void path2(char *out, const char *table, const char *key)
{
	char q[PATH_LEN];

	scn_sfmt(out, PATH_LEN, "%s.%s", table, pkey(key, q, sizeof(q)));
}

static void path3(char *out, const char *table, const char *key, const char *field)
{
	char q[PATH_LEN], r[PATH_LEN];

	scn_sfmt(out, PATH_LEN, "%s.%s.%s", table, pkey(key, q, sizeof(q)), pkey(field, r, sizeof(r)));
}

static void note(struct sonic *sn, const char *fmt, ...) SCN_PRINTF(2, 3);
static void note(struct sonic *sn, const char *fmt, ...)
{
	va_list ap;

	if (!sn->log)
		return;
	fprintf(sn->log, "# %s: ", sn->src);
	va_start(ap, fmt);
	vfprintf(sn->log, fmt, ap);
	va_end(ap);
	fputc('\n', sn->log);
}

/* add a name to the list of what was not read ("..." once it is full) */
static void not_read(struct sonic *sn, const char *what)
{
	size_t n = strlen(sn->not_read);

	if (n >= 5 && strcmp(sn->not_read + n - 5, ", ...") == 0)
		return;
	if (n + strlen(what) + 8 < sizeof(sn->not_read))
		scn_sfmt(sn->not_read + n, sizeof(sn->not_read) - n, "%s%s", n ? ", " : "", what);
	else
		scn_sfmt(sn->not_read + n, sizeof(sn->not_read) - n, ", ...");
}

/* ---- values ---- */

/* the text of a field value (a string, number or boolean) into buf */
static int value_text(struct sonic *sn, struct json_object *o, const char *path, char *buf,
		      size_t len)
{
	switch (json_object_get_type(o)) {
	case json_type_string:
		scn_sfmt(buf, len, "%s", json_object_get_string(o));
		scn_one_line(buf);
		return 0;
	case json_type_int:
		scn_sfmt(buf, len, "%lld", (long long)json_object_get_int64(o));
		return 0;
	case json_type_boolean:
		scn_sfmt(buf, len, "%s", json_object_get_boolean(o) ? "true" : "false");
		return 0;
	default:
		return fail(sn, path, "expected a string or an integer");
	}
}

/* an integer field: digits (a '-' first with neg), at most 10^15 */
static int int_value(struct sonic *sn, struct json_object *o, const char *path, int neg,
		     const char *unit, long long *v)
{
	char buf[128], *end;
	const char *p;

	if (value_text(sn, o, path, buf, sizeof(buf)))
		return -1;
	p = buf + (neg && buf[0] == '-');
	if (!is_digit(*p))
		goto bad;
	for (; *p; p++)
		if (!is_digit(*p))
			goto bad;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	if (errno || *v > 1000000000000000LL || *v < -1000000000000000LL)
		return fail(sn, path, "%s: too large", buf);
	return 0;
bad:
	return fail(sn, path, "%s: expected %s integer (%s)", buf, neg ? "an" : "a non-negative",
		    unit);
}

/* "true" / "false" */
static int bool_value(struct sonic *sn, struct json_object *o, const char *path, int *v)
{
	char buf[64];

	if (value_text(sn, o, path, buf, sizeof(buf)))
		return -1;
	if (strcmp(buf, "true") == 0 || strcmp(buf, "false") == 0) {
		*v = buf[0] == 't';
		return 0;
	}
	return fail(sn, path, "%s: expected true or false", buf);
}

/* "3,4" or "3-4" or "" into a bit mask of 0-7 */
static int prio_list(struct sonic *sn, const char *text, const char *path, uint8_t *mask)
{
	const char *p = text;

	*mask = 0;
	while (*p) {
		int a, b;

		while (is_blank(*p))
			p++;
		if (!is_digit(*p) || is_digit(p[1]))
			goto bad;
		a = b = *p++ - '0';
		if (*p == '-') {
			p++;
			if (!is_digit(*p) || is_digit(p[1]))
				goto bad;
			b = *p++ - '0';
		}
		if (a > 7 || b > 7 || b < a)
			goto bad;
		for (; a <= b; a++)
			*mask |= (uint8_t)(1u << a);
		while (is_blank(*p))
			p++;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	return fail(sn, path, "%s: expected priorities 0-7, e.g. 3,4 or 3-4", text);
}

/* a reference: "NAME" or the older "[TABLE|NAME]" */
static const char *ref_name(const char *text, const char *table, char *buf, size_t len)
{
	size_t tl = strlen(table), n = strlen(text);

	if (text[0] == '[' && n > tl + 3 && strncmp(text + 1, table, tl) == 0 &&
	    text[tl + 1] == '|' && text[n - 1] == ']') {
		scn_sfmt(buf, len, "%.*s", (int)(n - tl - 3), text + tl + 2);
		return buf;
	}
	return text;
}

/* the entry NAME of TABLE, or an error at path (the referencing field) */
static struct json_object *deref(struct sonic *sn, const char *table, struct json_object *ref,
				 const char *path, char *name, size_t len)
{
	struct json_object *t, *e;
	char text[256], buf[256];

	if (value_text(sn, ref, path, text, sizeof(text)))
		return NULL;
	scn_sfmt(name, len, "%s", ref_name(text, table, buf, sizeof(buf)));
	if (!json_object_object_get_ex(sn->root, table, &t) ||
	    !json_object_object_get_ex(t, name, &e)) {
		fail(sn, path, "%s: no such %s", name, table);
		return NULL;
	}
	if (!json_object_is_type(e, json_type_object)) {
		char p[PATH_LEN];

		path2(p, table, name);
		fail(sn, p, "expected an object of fields");
		return NULL;
	}
	return e;
}

/*
 * Record the value of key k from path: the first port's stays, a later one
 * must agree.  via: the path that led to it (a BUFFER_PG or QUEUE entry),
 * or NULL.
 */
static int agree(struct sonic *sn, enum skey k, const char *value, const char *path,
		 const char *via)
{
	struct agreed *a = &sn->v[k];
	char full[PATH_LEN];

	if (via)
		scn_sfmt(full, sizeof(full), "%s (via %s)", path, via);
	else
		scn_sfmt(full, sizeof(full), "%s", path);
	if (!a->set) {
		a->set = 1;
		scn_sfmt(a->value, sizeof(a->value), "%s", value);
		scn_sfmt(a->path, sizeof(a->path), "%s", full);
		return 0;
	}
	if (strcmp(a->value, value) == 0)
		return 0;
	if (strlen(value) > 40 || strlen(a->value) > 40)
		return fail(sn, full, "differs from %s (the model has one %s per fabric)", a->path,
			    skey_names[k]);
	return fail(sn, full, "%s differs from %s at %s: the model has one %s per fabric", value,
		    a->value, a->path, skey_names[k]);
}

/* the port entry of name, added if new */
static struct port *port_of(struct sonic *sn, const char *name, const char *path)
{
	int i;

	for (i = 0; i < sn->nports; i++)
		if (strcmp(sn->ports[i].name, name) == 0)
			return &sn->ports[i];
	if (sn->nports == MAX_PORTS || strlen(name) >= sizeof(sn->ports[0].name)) {
		fail(sn, path, "more than %d ports, or a port name too long", MAX_PORTS);
		return NULL;
	}
	memset(&sn->ports[sn->nports], 0, sizeof(sn->ports[0]));
	scn_sfmt(sn->ports[sn->nports].name, sizeof(sn->ports[0].name), "%s", name);
	return &sn->ports[sn->nports++];
}

static const struct port *find_port(const struct sonic *sn, const char *name)
{
	int i;

	for (i = 0; i < sn->nports; i++)
		if (strcmp(sn->ports[i].name, name) == 0)
			return &sn->ports[i];
	return NULL;
}

/* the next port of a key's list ("Ethernet0,Ethernet4", as older SONiC
 * templates write keys); 0 at its end */
static int next_port(const char **p, char *buf, size_t len)
{
	const char *b = *p, *e;

	if (!*b)
		return 0;
	e = strchr(b, ',');
	if (!e)
		e = b + strlen(b);
	scn_sfmt(buf, len, "%.*s", (int)(e - b), b);
	*p = *e ? e + 1 : e;
	return 1;
}

/* "<ports>|<list>" into the port names and a bit mask of the list */
static int split_port_key(struct sonic *sn, const char *key, const char *path, char *port,
			  size_t len, uint8_t *mask)
{
	const char *bar = strchr(key, '|');

	if (!bar || bar == key || (size_t)(bar - key) >= len)
		return fail(sn, path, "expected \"<port>|<list>\", e.g. \"Ethernet0|3-4\"");
	scn_sfmt(port, len, "%.*s", (int)(bar - key), key);
	return prio_list(sn, bar + 1, path, mask);
}

/* ---- PORT_QOS_MAP and the maps it names ---- */

/* map table: a TC (or priority) -> a PG (or queue) map must be the
 * identity on the lossless TCs */
static int check_identity(struct sonic *sn, const char *table, struct json_object *ref,
			  const char *refpath, uint8_t lossless)
{
	struct json_object *m, *e;
	char name[128], key[4], path[PATH_LEN];
	long long v;
	int p;

	m = deref(sn, table, ref, refpath, name, sizeof(name));
	if (!m)
		return -1;
	for (p = 0; p < 8; p++) {
		if (!(lossless & (1u << p)))
			continue;
		scn_sfmt(key, sizeof(key), "%d", p);
		path3(path, table, name, key);
		if (!json_object_object_get_ex(m, key, &e))
			return fail(sn, path, "missing: lossless TC %d must map to %d (the model "
				    "takes TC = priority = PG = queue)", p, p);
		if (int_value(sn, e, path, 0, "a number 0-7", &v))
			return -1;
		if (v != p)
			return fail(sn, path, "%lld: not the identity on lossless TC %d (the model "
				    "takes TC = priority = PG = queue)", v, p);
	}
	return 0;
}

static int read_dscp_map(struct sonic *sn, struct json_object *ref, const char *refpath)
{
	struct json_object *m;
	char name[128], path[PATH_LEN], mpath[PATH_LEN], text[400];
	int map[64] = { 0 }, d;
	size_t n = 0;

	m = deref(sn, "DSCP_TO_TC_MAP", ref, refpath, name, sizeof(name));
	if (!m)
		return -1;
	first_use(sn, "DSCP_TO_TC_MAP", name);
	path2(mpath, "DSCP_TO_TC_MAP", name);
	json_object_object_foreach(m, key, val)
	{
		long long dscp, tc;
		char *end;

		path3(path, "DSCP_TO_TC_MAP", name, key);
		errno = 0;
		dscp = strtoll(key, &end, 10);
		if (!is_digit(key[0]) || *end || dscp > 63)
			return fail(sn, path, "expected a DSCP 0-63 as the key");
		if (int_value(sn, val, path, 0, "a TC 0-7", &tc))
			return -1;
		if (tc > 7)
			return fail(sn, path, "%lld: expected a TC 0-7 (the model takes TC = "
				    "priority)", tc);
		map[dscp] = (int)tc;
	}
	text[0] = '\0';
	for (d = 0; d < 64; d++)
		n += (size_t)scn_sfmt(text + n, sizeof(text) - n, "%s%d:%d", d ? "," : "", d, map[d]);
	return agree(sn, K_DSCP_MAP, text, mpath, refpath);
}

static int read_port_qos_map(struct sonic *sn, struct json_object *t)
{
	json_object_object_foreach(t, pname, entry)
	{
		struct json_object *f;
		char path[PATH_LEN], text[128], one[128];
		int global = strcmp(pname, "global") == 0;
		const char *lp = pname;
		uint8_t wd, lossless = 0;

		path2(path, "PORT_QOS_MAP", pname);
		if (!json_object_is_type(entry, json_type_object))
			return fail(sn, path, "expected an object of fields");
		/* pfc_enable first: the maps are checked on the lossless TCs */
		if (!global) {
			text[0] = '\0';
			path3(path, "PORT_QOS_MAP", pname, "pfc_enable");
			if (json_object_object_get_ex(entry, "pfc_enable", &f) &&
			    value_text(sn, f, path, text, sizeof(text)))
				return -1;
			if (prio_list(sn, text, path, &lossless))
				return -1;
			scn_prios_text(lossless, text, sizeof(text));
			if (agree(sn, K_PFC_PRIOS, text, path, NULL))
				return -1;
			while (next_port(&lp, one, sizeof(one))) {
				struct port *pt = port_of(sn, one, path);

				if (!pt)
					return -1;
				pt->lossless = lossless;
			}
		}
		json_object_object_foreach(entry, field, val)
		{
			static const char *const idmaps[][2] = {
				{ "tc_to_pg_map", "TC_TO_PRIORITY_GROUP_MAP" },
				{ "tc_to_queue_map", "TC_TO_QUEUE_MAP" },
				{ "pfc_to_queue_map", "MAP_PFC_PRIORITY_TO_QUEUE" },
				{ "pfc_to_pg_map", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP" },
			};
			size_t i;

			path3(path, "PORT_QOS_MAP", pname, field);
			if (strcmp(field, "dscp_to_tc_map") == 0) {
				if (read_dscp_map(sn, val, path))
					return -1;
				continue;
			}
			if (!global && strcmp(field, "pfc_enable") == 0)
				continue;
			for (i = 0; !global && i < N_OF(idmaps); i++)
				if (strcmp(field, idmaps[i][0]) == 0)
					break;
			if (!global && i < N_OF(idmaps)) {
				if (check_identity(sn, idmaps[i][1], val, path, lossless))
					return -1;
				continue;
			}
			if (!global && strcmp(field, "pfcwd_sw_enable") == 0) {
				if (value_text(sn, val, path, text, sizeof(text)) ||
				    prio_list(sn, text, path, &wd))
					return -1;
				if (wd != lossless) {
					char want[32];

					scn_prios_text(lossless, want, sizeof(want));
					return fail(sn, path, "%s: not modelled (the model's watchdog "
						    "watches every lossless priority: pfc_enable is %s)",
						    text, want[0] ? want : "empty");
				}
				continue;
			}
			return fail(sn, path, "not modelled");
		}
	}
	return 0;
}

/* ---- BUFFER_PG, BUFFER_PROFILE, BUFFER_POOL ---- */

static int read_pool(struct sonic *sn, struct json_object *ref, const char *refpath,
		     const char *via)
{
	struct json_object *pool;
	char name[128], path[PATH_LEN], text[64];
	long long v;

	pool = deref(sn, "BUFFER_POOL", ref, refpath, name, sizeof(name));
	if (!pool)
		return -1;
	first_use(sn, "BUFFER_POOL", name);
	json_object_object_foreach(pool, field, val)
	{
		path3(path, "BUFFER_POOL", name, field);
		if (strcmp(field, "size") == 0) {
			if (int_value(sn, val, path, 0, "bytes", &v))
				return -1;
			scn_sfmt(text, sizeof(text), "%lldB", v);
			if (agree(sn, K_BUF_SIZE, text, path, via))
				return -1;
		} else if (strcmp(field, "type") == 0) {
			continue; /* ingress or egress: one pool in the model */
		} else if (strcmp(field, "mode") == 0) {
			if (value_text(sn, val, path, text, sizeof(text)))
				return -1;
			if (strcmp(text, "dynamic") != 0)
				return fail(sn, path, "%s: not modelled (the model's thresholds are "
					    "dynamic)", text);
		} else if (strcmp(field, "xoff") == 0) {
			if (int_value(sn, val, path, 0, "bytes", &v))
				return -1;
			if (v)
				return fail(sn, path, "%lld: not modelled (a shared headroom pool; "
					    "the model reserves pfc.headroom per lossless PG)", v);
		} else {
			return fail(sn, path, "not modelled");
		}
	}
	return 0;
}

static int read_profile(struct sonic *sn, struct json_object *ref, const char *refpath)
{
	struct json_object *prof;
	char name[128], path[PATH_LEN], text[64];
	long long v;
	int first;

	prof = deref(sn, "BUFFER_PROFILE", ref, refpath, name, sizeof(name));
	if (!prof)
		return -1;
	first = first_use(sn, "BUFFER_PROFILE", name);
	json_object_object_foreach(prof, field, val)
	{
		static const struct {
			const char *field;
			enum skey k;
		} bytes[] = {
			{ "size", K_RESERVED },
			{ "xoff", K_HEADROOM },
			{ "xon_offset", K_XON_OFFSET },
		};
		size_t i;

		path3(path, "BUFFER_PROFILE", name, field);
		for (i = 0; i < N_OF(bytes); i++)
			if (strcmp(field, bytes[i].field) == 0)
				break;
		if (i < N_OF(bytes)) {
			if (int_value(sn, val, path, 0, "bytes", &v))
				return -1;
			scn_sfmt(text, sizeof(text), "%lldB", v);
			if (agree(sn, bytes[i].k, text, path, refpath))
				return -1;
		} else if (strcmp(field, "dynamic_th") == 0) {
			if (int_value(sn, val, path, 1, "alpha = 2^dynamic_th", &v))
				return -1;
			scn_sfmt(text, sizeof(text), "%lld", v);
			if (agree(sn, K_DYN_TH, text, path, refpath))
				return -1;
		} else if (strcmp(field, "pool") == 0) {
			if (read_pool(sn, val, path, refpath))
				return -1;
		} else if (strcmp(field, "xon") == 0) {
			if (first)
				note(sn, "%s: not read (the model resumes at pfc.xon_offset below the "
			     "dynamic threshold, SONiC's xon_offset)", path);
		} else if (strcmp(field, "static_th") == 0) {
			return fail(sn, path, "not modelled (the model's lossless thresholds are "
				    "dynamic: dynamic_th)");
		} else {
			return fail(sn, path, "not modelled");
		}
	}
	return 0;
}

static int read_buffer_pg(struct sonic *sn, struct json_object *t)
{
	json_object_object_foreach(t, key, entry)
	{
		char path[PATH_LEN], port[PATH_LEN], one[128];
		struct json_object *ref = NULL;
		uint8_t pgs, lossless = 0, odd = 0;
		const char *lp = port;
		int any = 0, all = 1;

		path2(path, "BUFFER_PG", key);
		if (split_port_key(sn, key, path, port, sizeof(port), &pgs))
			return -1;
		if (!json_object_is_type(entry, json_type_object))
			return fail(sn, path, "expected an object of fields");
		while (next_port(&lp, one, sizeof(one))) {
			const struct port *pt = find_port(sn, one);

			lossless = sn->no_pqm ? sn->lossless : pt ? pt->lossless : 0;
			any |= (pgs & lossless) != 0;
			if ((pgs & lossless) != pgs && all) {
				all = 0;
				odd = lossless;
			}
		}
		if (!any) {
			not_read(sn, path); /* a lossy PG */
			continue;
		}
		if (!all) {
			char l[32];

			scn_prios_text(odd, l, sizeof(l));
			return fail(sn, path, "mixes lossless and lossy PGs (%s is %s); the model "
				    "has one profile per lossless PG",
				    sn->no_pqm ? "pfc.priorities" : "pfc_enable", l[0] ? l : "empty");
		}
		json_object_object_foreach(entry, field, val)
		{
			char fp[PATH_LEN];

			path3(fp, "BUFFER_PG", key, field);
			if (strcmp(field, "profile") != 0)
				return fail(sn, fp, "not modelled");
			ref = val;
		}
		if (!ref) {
			not_read(sn, path); /* no profile: the dynamic buffer model */
			continue;
		}
		path3(path, "BUFFER_PG", key, "profile");
		if (read_profile(sn, ref, path))
			return -1;
	}
	return 0;
}

/* ---- QUEUE and WRED_PROFILE ---- */

/*
 * A WRED profile: *on = it marks green traffic with ECN; its thresholds
 * then agree into ecn.kmin, kmax, pmax.  via: the queue's path.
 */
static int read_wred(struct sonic *sn, struct json_object *ref, const char *refpath, int *on)
{
	static const char *const colors[] = { "yellow", "red" };
	struct json_object *w, *f;
	char name[128], path[PATH_LEN], text[64] = "ecn_none (no ecn field)", field[64];
	int green = 1, en[2] = { 0, 0 }, c, first;
	const char *ecn = "ecn_none";
	long long v;

	w = deref(sn, "WRED_PROFILE", ref, refpath, name, sizeof(name));
	if (!w)
		return -1;
	first = first_use(sn, "WRED_PROFILE", name);
	/* the flags first: what the thresholds mean depends on them */
	if (json_object_object_get_ex(w, "wred_green_enable", &f)) {
		path3(path, "WRED_PROFILE", name, "wred_green_enable");
		if (bool_value(sn, f, path, &green))
			return -1;
	}
	for (c = 0; c < 2; c++) {
		scn_sfmt(field, sizeof(field), "wred_%s_enable", colors[c]);
		if (json_object_object_get_ex(w, field, &f)) {
			path3(path, "WRED_PROFILE", name, field);
			if (bool_value(sn, f, path, &en[c]))
				return -1;
		}
	}
	if (json_object_object_get_ex(w, "ecn", &f)) {
		path3(path, "WRED_PROFILE", name, "ecn");
		if (value_text(sn, f, path, text, sizeof(text)))
			return -1;
		if (strcmp(text, "ecn_all") && strcmp(text, "ecn_green") &&
		    strcmp(text, "ecn_green_yellow") && strcmp(text, "ecn_green_red") &&
		    strcmp(text, "ecn_none") && strcmp(text, "ecn_yellow") &&
		    strcmp(text, "ecn_red") && strcmp(text, "ecn_yellow_red"))
			return fail(sn, path, "%s: expected ecn_none, ecn_green, ecn_yellow, ecn_red, "
				    "ecn_green_yellow, ecn_green_red, ecn_yellow_red or ecn_all", text);
		ecn = strncmp(text, "ecn_green", 9) == 0 || strcmp(text, "ecn_all") == 0 ? "green" :
											   "none";
	}
	if (green && strcmp(ecn, "green") != 0) {
		path3(path, "WRED_PROFILE", name, "ecn");
		return fail(sn, path, "%s: not modelled (WRED drops green traffic; the model marks "
			    "ECN only, with ecn_green or ecn_all)", text);
	}
	*on = green;
	for (c = 0; c < 2; c++) {
		static const char *const th[] = { "min_threshold", "max_threshold",
						  "drop_probability" };
		int i;

		if (!en[c])
			continue;
		for (i = 0; i < 3; i++) {
			scn_sfmt(field, sizeof(field), "%s_%s", colors[c], th[i]);
			if (json_object_object_get_ex(w, field, &f))
				break;
		}
		if (i == 3)
			scn_sfmt(field, sizeof(field), "wred_%s_enable", colors[c]);
		path3(path, "WRED_PROFILE", name, field);
		return fail(sn, path, "not modelled (the model marks green traffic only)");
	}
	json_object_object_foreach(w, fld, val)
	{
		static const struct {
			const char *field;
			enum skey k;
		} green_th[] = {
			{ "green_min_threshold", K_KMIN },
			{ "green_max_threshold", K_KMAX },
			{ "green_drop_probability", K_PMAX },
		};
		size_t i;

		path3(path, "WRED_PROFILE", name, fld);
		for (i = 0; i < N_OF(green_th); i++)
			if (strcmp(fld, green_th[i].field) == 0)
				break;
		if (i < N_OF(green_th)) {
			if (!green) {
				if (first)
					note(sn, "%s: not read (wred_green_enable is false)", path);
				continue;
			}
			if (int_value(sn, val, path, 0, i == 2 ? "percent" : "bytes", &v))
				return -1;
			scn_sfmt(text, sizeof(text), i == 2 ? "%lld%%" : "%lldB", v);
			if (agree(sn, green_th[i].k, text, path, refpath))
				return -1;
			continue;
		}
		if (strcmp(fld, "ecn") == 0 || strcmp(fld, "wred_green_enable") == 0 ||
		    strcmp(fld, "wred_yellow_enable") == 0 || strcmp(fld, "wred_red_enable") == 0)
			continue;
		if (strncmp(fld, "yellow_", 7) == 0 || strncmp(fld, "red_", 4) == 0) {
			/* their enable flag is false (checked above) */
			if (first)
				note(sn, "%s: not read (wred_%s_enable is false)", path,
			     fld[0] == 'y' ? "yellow" : "red");
			continue;
		}
		return fail(sn, path, "not modelled");
	}
	return 0;
}

static int read_queue(struct sonic *sn, struct json_object *t)
{
	int sched_noted = 0, i;

	json_object_object_foreach(t, key, entry)
	{
		char path[PATH_LEN], port[PATH_LEN], one[128];
		uint8_t queues;
		const char *lp;

		path2(path, "QUEUE", key);
		if (split_port_key(sn, key, path, port, sizeof(port), &queues))
			return -1;
		if (!json_object_is_type(entry, json_type_object))
			return fail(sn, path, "expected an object of fields");
		for (lp = port; next_port(&lp, one, sizeof(one));) {
			struct port *pt = port_of(sn, one, path);

			if (!pt)
				return -1;
			if (!pt->qpath[0])
				scn_sfmt(pt->qpath, sizeof(pt->qpath), "%s", path);
		}
		json_object_object_foreach(entry, field, val)
		{
			int on = 0;

			path3(path, "QUEUE", key, field);
			if (strcmp(field, "scheduler") == 0) {
				if (!sched_noted++)
					note(sn, "%s: not read (qos.scheduler and qos.dwrr_weights "
					     "come from the scenario; so for every QUEUE entry)", path);
				continue;
			}
			if (strcmp(field, "wred_profile") != 0)
				return fail(sn, path, "not modelled");
			if (read_wred(sn, val, path, &on))
				return -1;
			for (lp = port; next_port(&lp, one, sizeof(one));) {
				struct port *pt = port_of(sn, one, path);

				if (!pt)
					return -1;
				if (on)
					pt->ecn |= queues;
				if (on || !pt->wpath[0]) /* the last that adds queues */
					scn_sfmt(pt->wpath, sizeof(pt->wpath), "%s", path);
			}
		}
	}
	for (i = 0; i < sn->nports; i++) {
		char text[32];

		if (!sn->ports[i].qpath[0])
			continue;
		scn_prios_text(sn->ports[i].ecn, text, sizeof(text));
		if (agree(sn, K_ECN_QUEUES, text,
			  sn->ports[i].wpath[0] ? sn->ports[i].wpath : sn->ports[i].qpath, NULL))
			return -1;
	}
	if (!sn->v[K_ECN_QUEUES].set)
		agree(sn, K_ECN_QUEUES, "", "QUEUE", NULL);
	return 0;
}

/* ---- PFC_WD ---- */

static int read_pfc_wd(struct sonic *sn, struct json_object *t)
{
	struct json_object *poll = NULL;
	char ppath[PATH_LEN] = "", first[PATH_LEN] = "";
	int ports = 0;

	json_object_object_foreach(t, key, entry)
	{
		char path[PATH_LEN], text[64];

		path2(path, "PFC_WD", key);
		if (!json_object_is_type(entry, json_type_object))
			return fail(sn, path, "expected an object of fields");
		if (strcmp(key, "GLOBAL") == 0) {
			json_object_object_foreach(entry, field, val)
			{
				path3(path, "PFC_WD", key, field);
				if (strcmp(field, "POLL_INTERVAL") == 0) {
					poll = val;
					scn_sfmt(ppath, sizeof(ppath), "%s", path);
				} else if (strcmp(field, "BIG_RED_SWITCH") == 0) {
					if (value_text(sn, val, path, text, sizeof(text)))
						return -1;
					if (strcmp(text, "disable") != 0)
						return fail(sn, path, "%s: not modelled (a pause storm "
							    "forced on every port)", text);
				} else {
					return fail(sn, path, "not modelled");
				}
			}
			continue;
		}
		if (!ports++)
			scn_sfmt(first, sizeof(first), "%s", path);
		json_object_object_foreach(entry, field, val)
		{
			static const struct {
				const char *field;
				enum skey k;
			} ms[] = {
				{ "detection_time", K_WD_DETECT },
				{ "restoration_time", K_WD_RESTORE },
			};
			long long v;
			size_t i;

			path3(path, "PFC_WD", key, field);
			for (i = 0; i < N_OF(ms); i++)
				if (strcmp(field, ms[i].field) == 0)
					break;
			if (i < N_OF(ms)) {
				if (int_value(sn, val, path, 0, "ms", &v))
					return -1;
				scn_sfmt(text, sizeof(text), "%lldms", v);
				if (agree(sn, ms[i].k, text, path, NULL))
					return -1;
			} else if (strcmp(field, "action") == 0) {
				if (value_text(sn, val, path, text, sizeof(text)) ||
				    agree(sn, K_WD_ACTION, text, path, NULL))
					return -1;
			} else if (strcmp(field, "pfc_stat_history") == 0) {
				if (ports == 1)
					note(sn, "%s: not read (statistics only)", path);
			} else {
				return fail(sn, path, "not modelled");
			}
		}
	}
	if (agree(sn, K_WD_ENABLE, ports ? "true" : "false",
		  ports ? first : "PFC_WD (no port entry)", NULL))
		return -1;
	if (poll && ports) {
		long long v;
		char text[64];

		if (int_value(sn, poll, ppath, 0, "ms", &v))
			return -1;
		scn_sfmt(text, sizeof(text), "%lldms", v);
		agree(sn, K_WD_POLL, text, ppath, NULL);
	} else if (poll) {
		note(sn, "%s: not read (no port has a watchdog)", ppath);
	}
	return 0;
}

/* ---- the file ---- */

static struct json_object *parse(struct sonic *sn)
{
	struct json_tokener *tok;
	struct json_object *root = NULL;
	enum json_tokener_error je;
	struct place pl = { sn->src, 0 };
	char *buf, why[128];
	size_t n, i, end;

	buf = scn_read_text(sn->src, MAX_JSON_BYTES, &n, why, sizeof(why));
	if (!buf) {
		scn_set_error(sn->err, pl, "%s", why);
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		free(buf);
		scn_set_error(sn->err, pl, "out of memory");
		return NULL;
	}
	root = json_tokener_parse_ex(tok, buf, (int)n);
	je = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (!root && je == json_tokener_continue) {
		je = json_tokener_error_parse_eof;
		end = n;
	}
	if (root && je == json_tokener_success) {
		for (i = end; i < n && is_blank(buf[i]); i++)
			;
		if (i < n) {
			json_object_put(root);
			root = NULL;
			end = i;
			pl.line = 1;
			for (i = 0; i < end; i++)
				pl.line += buf[i] == '\n';
			scn_set_error(sn->err, pl, "malformed JSON: text after the top-level object");
		}
	} else {
		if (root)
			json_object_put(root);
		root = NULL;
		pl.line = 1;
		for (i = 0; i < end && i < n; i++)
			pl.line += buf[i] == '\n';
		scn_set_error(sn->err, pl, "malformed JSON: %s", json_tokener_error_desc(je));
	}
	json_tokener_free(tok);
	free(buf);
	if (root && !json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		scn_set_error(sn->err, pl, "expected a JSON object of tables, as config_db.json");
		return NULL;
	}
	return root;
}

static int apply(struct sonic *sn, struct scenario *s)
{
	int k;

	/* ecn.kmax above ecn.kmin, with both paths (the loader would name
	 * --set at finalize) */
	if (sn->v[K_KMIN].set && sn->v[K_KMAX].set &&
	    strtoll(sn->v[K_KMAX].value, NULL, 10) <= strtoll(sn->v[K_KMIN].value, NULL, 10) &&
	    strcmp(sn->v[K_ECN_QUEUES].value, "") != 0)
		return fail(sn, sn->v[K_KMAX].path, "%s must be above green_min_threshold (%s, "
			    "ecn.kmin)", sn->v[K_KMAX].value, sn->v[K_KMIN].value);
	for (k = 0; k < K_COUNT; k++) {
		char set[600];
		struct scn_error serr;
		const struct agreed *a = &sn->v[k];

		if (!a->set)
			continue;
		scn_sfmt(set, sizeof(set), "%s=%s", skey_names[k], a->value);
		if (scenario_set(s, set, &serr))
			return fail(sn, a->path, "%s", scn_loader_words(serr.msg));
		if (sn->log)
			fprintf(sn->log, "%s = %s    # %s: %s\n", skey_names[k], a->value, sn->src,
				a->path);
	}
	return 0;
}

/* the QoS tables, in the order they are read (PORT_QOS_MAP first: the
 * lossless priorities decide which PGs are read) */
static const struct {
	const char *name;
	int (*read)(struct sonic *sn, struct json_object *t);
} tables[] = {
	{ "PORT_QOS_MAP", read_port_qos_map },
	{ "BUFFER_PG", read_buffer_pg },
	{ "QUEUE", read_queue },
	{ "PFC_WD", read_pfc_wd },
	/* read through the references of the tables above */
	{ "DSCP_TO_TC_MAP", NULL },
	{ "BUFFER_PROFILE", NULL },
	{ "BUFFER_POOL", NULL },
	{ "WRED_PROFILE", NULL },
	{ "TC_TO_PRIORITY_GROUP_MAP", NULL },
	{ "TC_TO_QUEUE_MAP", NULL },
	{ "MAP_PFC_PRIORITY_TO_QUEUE", NULL },
	{ "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", NULL },
};

/* the entries of the referenced tables that nothing referenced */
static void unused_entries(struct sonic *sn)
{
	static const char *const ref_tables[] = { "BUFFER_PROFILE", "BUFFER_POOL",
						  "WRED_PROFILE", "DSCP_TO_TC_MAP" };
	size_t i;

	for (i = 0; i < N_OF(ref_tables); i++) {
		struct json_object *t;

		if (!json_object_object_get_ex(sn->root, ref_tables[i], &t) ||
		    !json_object_is_type(t, json_type_object))
			continue;
		json_object_object_foreach(t, key, val)
		{
			char path[PATH_LEN];

			(void)val;
			path2(path, ref_tables[i], key);
			if (!was_used(sn, path))
				not_read(sn, path);
		}
	}
}

int scenario_import_sonic(struct scenario *s, const char *path, FILE *log,
			  struct scn_error *err)
{
	struct sonic *sn = calloc(1, sizeof(*sn));
	char others[NOTE_LEN] = "";
	size_t i, n = 0;
	int rc = -1;

	if (!sn)
		return scn_set_error(err, (struct place){ path, 0 }, "out of memory");
	sn->used = calloc(MAX_USED, PATH_LEN);
	if (!sn->used) {
		free(sn);
		return scn_set_error(err, (struct place){ path, 0 }, "out of memory");
	}
	sn->src = path;
	sn->log = log;
	sn->lossless = s->pfc_prios;
	sn->err = err;
	sn->root = parse(sn);
	if (!sn->root)
		goto out;
	json_object_object_foreach(sn->root, tname, tval)
	{
		for (i = 0; i < N_OF(tables); i++)
			if (strcmp(tname, tables[i].name) == 0)
				break;
		if (i == N_OF(tables)) {
			if (n + strlen(tname) + 3 < sizeof(others))
				n += (size_t)scn_sfmt(others + n, sizeof(others) - n, "%s%s",
						  n ? ", " : "", tname);
			continue;
		}
		if (!json_object_is_type(tval, json_type_object)) {
			fail(sn, tname, "expected an object of entries");
			goto out;
		}
	}
	if (others[0])
		note(sn, "not read (not QoS, or not modelled): %s", others);
	sn->no_pqm = !json_object_object_get_ex(sn->root, "PORT_QOS_MAP", NULL);
	for (i = 0; i < N_OF(tables) && tables[i].read; i++) {
		struct json_object *t;

		if (json_object_object_get_ex(sn->root, tables[i].name, &t) &&
		    tables[i].read(sn, t))
			goto out;
	}
	unused_entries(sn);
	if (sn->not_read[0])
		note(sn, "not read (no lossless PG or ECN queue uses them): %s", sn->not_read);
	rc = apply(sn, s);
out:
	if (sn->root)
		json_object_put(sn->root);
	free(sn->used);
	free(sn);
	return rc;
}
