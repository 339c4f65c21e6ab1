/*
 * export.c - a finalized scenario as the configurations of real switches
 * and NICs (scenario_export, config.h; docs/configs.md has the tables).
 *
 * Into DIR:
 *   config_db.json  a SONiC fragment: BUFFER_POOL, BUFFER_PROFILE,
 *                   BUFFER_PG, WRED_PROFILE, QUEUE, PORT_QOS_MAP,
 *                   DSCP_TO_TC_MAP, the identity TC_TO_PRIORITY_GROUP_MAP,
 *                   TC_TO_QUEUE_MAP and MAP_PFC_PRIORITY_TO_QUEUE that
 *                   PORT_QOS_MAP names, and PFC_WD; what sonic.c reads back
 *   cc_params.txt   the mlx5 cc_params names and values, "name value", as
 *                   mlx5.c reads them
 *   nic-setup.sh    a POSIX shell script that writes those values into
 *                   /sys/kernel/debug/mlx5/<PCI>/cc_params/<name>
 *   nccl.env        `export NAME=value` lines of the NCCL environment the
 *                   scenario assumes
 *   changes.txt, config_db.patch.json
 *                   after an import: what applying the files would change
 *                   (changes.c)
 *
 * Choices
 *   - ports: one switch's configuration, for the largest switch's port
 *     count, named as SONiC names 400G ports by their first lane (8 lanes
 *     each): Ethernet0, Ethernet8, ... Every switch of the model has the
 *     same QoS, so the fragment applies to each (with its own port count).
 *     After an import of a config_db.json: that file's ports, entry names,
 *     pfcwd_sw_enable, yellow and red WRED fields, the TC maps' entries of
 *     TCs that are not lossless and its single-PG and single-queue keys, so
 *     that applying the fragment changes only what the model sets.
 *   - names: the pool ingress_lossless_pool, the profile
 *     pg_lossless_profile, the WRED profile AZURE_LOSSLESS and the maps
 *     AZURE, as SONiC's templates name them.
 *   - keys in a fixed order (fields sorted by name as SONiC's
 *     sonic-cfggen writes them, ports in port order), json-c's pretty
 *     printer with spaces: the same scenario gives the same bytes.
 *   - what the targets cannot express exactly, with a log line each:
 *       pfc.headroom = auto: the largest per-port value (every port then
 *       has enough), the per-class values in the log;
 *       times that are not whole ms (PFC_WD) or whole us (cc_params), and
 *       rates not whole Mbps, bytes not whole 64-byte units, ecn.pmax not
 *       a whole percent: rounded to the nearest, and a value that is not 0
 *       to at least 1;
 *       ECN on a queue that is not lossless: the same WRED profile on it
 *       (SONiC would also drop non-ECT packets there; the model marks
 *       only);
 *       no lossless priority: no BUFFER_PROFILE, so buffer.* are not
 *       exported;
 *       dcqcn.cnp_scope = port, a dcqcn.profile other than nvidia, nic.cc
 *       = none: the values as they are, and a log line;
 *       nic.rto given as a time: NCCL_IB_TIMEOUT is the smallest n with
 *       4.096 us x 2^n >= rto.
 *   - nccl.env: NCCL_IB_TC = qos.data_dscp x 4 + the ECN bits of
 *     qos.nccl_ib_tc when given, else ECT(0) (106 for DSCP 26);
 *     NCCL_IB_TIMEOUT, NCCL_IB_RETRY_CNT always; from the jobs (the first
 *     job that sets one, a log line when others differ):
 *     NCCL_IB_QPS_PER_CONNECTION, NCCL_ALGO (Tree), NCCL_MIN_NCHANNELS and
 *     NCCL_MAX_NCHANNELS (channels).
 */
#include "models/base/files.h"
#include "models/scenario/configs/config.h"
#include "models/scenario/configs/internal.h"
#include "models/scenario/loader.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#define MAX_EXPORT_PORTS 4096
#define PS_PER_MS INT64_C(1000000000)
#define PS_PER_US INT64_C(1000000)

struct out {
	const struct scenario *s;
	char source[512]; /* s->source on one line, for the files' comments */
	const char *dir;
	FILE *log;
	char *err;
	size_t errlen;
	struct json_object *in; /* the imported config_db.json, or NULL */
	char tmp[4300];         /* the name of the file being written aside */
};

/* the imported file's TABLE.KEY.field (a string or number), or NULL */
static const char *imported_field(const struct out *o, const char *table, const char *key,
				  const char *field)
{
	struct json_object *t, *e, *v;

	if (!o->in || !json_object_object_get_ex(o->in, table, &t) ||
	    !json_object_object_get_ex(t, key, &e) || !json_object_object_get_ex(e, field, &v) ||
	    json_object_is_type(v, json_type_object) || json_object_is_type(v, json_type_array))
		return NULL;
	return json_object_get_string(v);
}

SCN_PRINTF(2, 3) static int fail(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->err, o->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

SCN_PRINTF(2, 3) static void note(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->log)
		return;
	fputs("# export: ", o->log);
	va_start(ap, fmt);
	vfprintf(o->log, fmt, ap);
	va_end(ap);
	fputc('\n', o->log);
}

/* v / unit rounded to the nearest, at least lo; a log line when inexact */
static int64_t in_unit(struct out *o, const char *what, int64_t v, int64_t unit,
		       const char *uname, int64_t lo)
{
	int64_t q = (v + unit / 2) / unit;

	if (q < lo)
		q = lo;
	if (q * unit != v)
		note(o, "%s: %" PRId64 " is not a whole number of %s: exported as %" PRId64, what,
		     v, uname, q);
	return q;
}

/* mkdir -p */
static int make_dir(struct out *o, const char *dir)
{
	char p[4096];
	size_t i, n = strlen(dir);

	if (n == 0 || n >= sizeof(p))
		return fail(o, "%s: bad folder name", dir);
	memcpy(p, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0777) && errno != EEXIST)
			return fail(o, "%s: cannot create (%s)", p, strerror(errno));
		if (i < n)
			p[i] = '/';
	}
	return 0;
}

static FILE *open_out(struct out *o, const char *name, char *path, size_t len)
{
	FILE *f;

	scn_sfmt(path, len, "%s/%s", o->dir, name);
	f = file_open_aside(path, o->tmp, sizeof(o->tmp));
	if (!f)
		fail(o, "%s: cannot write (%s)", path, strerror(errno));
	return f;
}

/* closes f and renames it into place: an error when a write, the close or
 * the rename failed (a full disk), and then no file replaces the old one */
static int close_out(struct out *o, FILE *f, const char *path)
{
	if (file_commit(f, o->tmp, path))
		return fail(o, "%s: cannot write (%s)", path, strerror(errno));
	return 0;
}

/* ---- config_db.json ---- */

/* the port count of the largest switch */
static uint32_t max_ports(const struct scenario *s)
{
	struct sw_tier t[3];
	uint32_t best = 0;
	int n = scn_switch_tiers(s, t), i, c;

	for (i = 0; i < n; i++) {
		uint32_t ports = 0;

		for (c = 0; c < t[i].npc; c++)
			ports += t[i].pc[c].n;
		if (ports > best)
			best = ports;
	}
	return best;
}

static void add_str(struct json_object *o, const char *key, const char *fmt, ...)
	SCN_PRINTF(3, 4);
static void add_str(struct json_object *o, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_object_add(o, key, json_object_new_string(buf));
}

static struct json_object *add_obj(struct json_object *o, const char *key)
{
	struct json_object *n = json_object_new_object();

	json_object_object_add(o, key, n);
	return n;
}

/* "3", "3-4": the contiguous ranges of a bit mask, one per call */
static int next_range(uint8_t mask, int *from, char *buf, size_t len)
{
	int a = *from, b;

	while (a < 8 && !(mask & (1u << a)))
		a++;
	if (a == 8)
		return 0;
	for (b = a; b + 1 < 8 && (mask & (1u << (b + 1))); b++)
		;
	if (a == b)
		scn_sfmt(buf, len, "%d", a);
	else
		scn_sfmt(buf, len, "%d-%d", a, b);
	*from = b + 1;
	return 1;
}

/* the headroom to export: pfc.headroom, or auto's largest per-port value */
static int64_t headroom(struct out *o)
{
	const struct scenario *s = o->s;
	struct sw_tier t[3];
	int64_t best = 0, h;
	char text[512] = "";
	size_t n = 0;
	int nt, i, c;

	if (s->headroom_bytes != SCN_AUTO)
		return s->headroom_bytes;
	nt = scn_switch_tiers(s, t);
	for (i = 0; i < nt; i++)
		for (c = 0; c < t[i].npc; c++) {
			const struct port_class *pc = &t[i].pc[c];

			h = pc->host ? scenario_headroom_bytes(s, s->host_link_bps,
							       s->host_cable_mm) :
				       scenario_headroom_bytes(s, s->fabric_link_bps,
							       s->fabric_cable_mm);
			if (h > best)
				best = h;
			if (n < sizeof(text))
				n += (size_t)scn_sfmt(text + n, sizeof(text) - n,
						  "%s%s ports to %s %" PRId64 "B", n ? ", " : "",
						  t[i].name, pc->peers, h);
		}
	note(o, "pfc.headroom = auto: xoff %" PRId64 "B, the largest per-port value (%s); "
	     "SONiC could give each port its own profile, the model's import takes one", best,
	     text);
	return best;
}

/* port p: the imported config_db.json's p-th port (in port order), or
 * "Ethernet0", "Ethernet8", ... as SONiC names a 400G port by its first lane
 * (8 lanes each) */
static void port_name(const struct scenario *s, char *buf, size_t len, uint32_t p)
{
	if (s->imported && p < s->imported->nports)
		scn_sfmt(buf, len, "%s", s->imported->ports[p]);
	else
		scn_sfmt(buf, len, "Ethernet%" PRIu32, p * 8);
}

/* the imported name of an entry (struct scn_imported), or SONiC's
 * template name def */
static const char *entry_name(const struct scenario *s, enum scn_cfg_name k, const char *def)
{
	return s->imported && s->imported->names[k][0] ? s->imported->names[k] : def;
}

/* whether the imported file's table has the entry "port|r" */
static int imported_key(const struct out *o, const char *table, const char *port, const char *r)
{
	struct json_object *t;
	char key[160];

	scn_sfmt(key, sizeof(key), "%s|%s", port, r);
	return o->in && json_object_object_get_ex(o->in, table, &t) &&
	       json_object_object_get_ex(t, key, NULL);
}

/* a table keyed "PORT|RANGE" (BUFFER_PG, QUEUE): for every port and every run
 * of the priorities in mask, an entry whose field names the profile; a run
 * that the imported file gives as single entries ("Ethernet0|3",
 * "Ethernet0|4" for 3-4) is written as they are */
static void per_port_ranges(const struct out *o, struct json_object *root, const char *table,
			    uint32_t nports, uint8_t mask, const char *field, const char *profile)
{
	struct json_object *t = add_obj(root, table);
	char port[64], key[96], r[16], one[4];

	for (uint32_t p = 0; p < nports && mask; p++) {
		port_name(o->s, port, sizeof(port), p);
		for (int from = 0, a = 0; next_range(mask, &from, r, sizeof(r)); a = from) {
			int q, single = strchr(r, '-') && !imported_key(o, table, port, r);

			while (a < 8 && !(mask & (1u << a)))
				a++;
			for (q = a; single && q < from; q++) {
				scn_sfmt(one, sizeof(one), "%d", q);
				single = imported_key(o, table, port, one);
			}
			for (q = a; q < from && single; q++) {
				scn_sfmt(key, sizeof(key), "%s|%d", port, q);
				add_str(add_obj(t, key), field, "%s", profile);
			}
			if (!single) {
				scn_sfmt(key, sizeof(key), "%s|%s", port, r);
				add_str(add_obj(t, key), field, "%s", profile);
			}
		}
	}
}

/* BUFFER_POOL, BUFFER_PROFILE, BUFFER_PG: from the lossless PG's profile */
static void db_buffers(struct out *o, struct json_object *root, uint32_t nports)
{
	const struct scenario *s = o->s;
	const char *pool = entry_name(s, SCN_CFG_POOL, "ingress_lossless_pool");
	const char *prof = entry_name(s, SCN_CFG_PROFILE, "pg_lossless_profile");
	struct json_object *t, *e;

	t = add_obj(root, "BUFFER_POOL");
	if (s->pfc_prios) {
		e = add_obj(t, pool);
		add_str(e, "mode", "dynamic");
		add_str(e, "size", "%" PRId64, s->buffer_bytes);
		add_str(e, "type", "ingress");
	}
	t = add_obj(root, "BUFFER_PROFILE");
	if (s->pfc_prios) {
		e = add_obj(t, prof);
		add_str(e, "dynamic_th", "%" PRId32, s->dynamic_th);
		add_str(e, "pool", "%s", pool);
		add_str(e, "size", "%" PRId64, scn_reserved_of(s));
		add_str(e, "xoff", "%" PRId64, headroom(o));
		add_str(e, "xon_offset", "%" PRId64,
			s->xon_offset_bytes == SCN_AUTO ? scn_data_frames(s, 2) :
							  s->xon_offset_bytes);
	} else {
		note(o, "pfc.priorities is empty: no lossless PG profile, so buffer.size, "
		     "buffer.reserved and buffer.dynamic_th are not exported");
	}
	per_port_ranges(o, root, "BUFFER_PG", nports, s->pfc_prios, "profile", prof);
}

/* yellow and red WRED, which does not apply to RoCE (every packet is
 * green): off, or as the imported profile has them, so that applying the
 * fragment does not change them */
static void keep_colors(const struct out *o, struct json_object *e, const char *wred)
{
	static const char *const fields[] = {
		"red_drop_probability",	   "red_max_threshold",	   "red_min_threshold",
		"wred_red_enable",	   "wred_yellow_enable",   "yellow_drop_probability",
		"yellow_max_threshold",	   "yellow_min_threshold",
	};
	size_t i;

	for (i = 0; i < N_OF(fields); i++) {
		const char *v = imported_field(o, "WRED_PROFILE", wred, fields[i]);

		if (v)
			add_str(e, fields[i], "%s", v);
		else if (strncmp(fields[i], "wred_", 5) == 0)
			add_str(e, fields[i], "false");
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the fields of entry key of table t in name order, as sonic-cfggen writes
 * them */
static void sort_fields(struct json_object *t, const char *key)
{
	struct json_object *e, *n;
	const char *names[64];
	size_t k = 0, i;

	if (!json_object_object_get_ex(t, key, &e))
		return;
	json_object_object_foreach(e, f, v)
	{
		(void)v;
		if (k < N_OF(names))
			names[k++] = f;
	}
	qsort(names, k, sizeof(names[0]), cmp_str);
	n = json_object_new_object();
	for (i = 0; i < k; i++) {
		struct json_object *val;

		json_object_object_get_ex(e, names[i], &val);
		json_object_object_add(n, names[i], json_object_get(val));
	}
	json_object_object_add(t, key, n);
}

/* WRED_PROFILE and QUEUE: one ECN profile on the ECN queues */
static void db_wred(struct out *o, struct json_object *root, uint32_t nports)
{
	const struct scenario *s = o->s;
	const char *wred = entry_name(s, SCN_CFG_WRED, "AZURE_LOSSLESS");
	struct json_object *t, *e;

	t = add_obj(root, "WRED_PROFILE");
	if (s->ecn_queues) {
		int64_t pct = in_unit(o, "ecn.pmax", s->ecn_pmax_ppb, INT64_C(10000000),
				      "percent (green_drop_probability)", 1);

		e = add_obj(t, wred);
		add_str(e, "ecn", "ecn_all");
		add_str(e, "green_drop_probability", "%" PRId64, pct);
		add_str(e, "green_max_threshold", "%" PRId64, s->ecn_kmax_bytes);
		add_str(e, "green_min_threshold", "%" PRId64, s->ecn_kmin_bytes);
		add_str(e, "wred_green_enable", "true");
		keep_colors(o, e, wred);
		sort_fields(t, wred);
		if (s->ecn_queues & ~s->pfc_prios) {
			char q[32];

			scn_prios_text((uint8_t)(s->ecn_queues & ~s->pfc_prios), q, sizeof(q));
			note(o, "ecn.queues: queue %s is not lossless: it gets the same WRED "
			     "profile (a SONiC switch also drops non-ECT packets there; the model "
			     "marks only)", q);
		}
	}
	per_port_ranges(o, root, "QUEUE", nports, s->ecn_queues, "wred_profile", wred);
}

/* PORT_QOS_MAP and the maps it names: the scenario's DSCP map, the
 * identity from TC to PG and to queue */
static void db_qos_maps(struct out *o, struct json_object *root, uint32_t nports)
{
	static const char *const idmaps[] = { "TC_TO_PRIORITY_GROUP_MAP", "TC_TO_QUEUE_MAP",
					      "MAP_PFC_PRIORITY_TO_QUEUE" };
	static const enum scn_cfg_name idnames[] = { SCN_CFG_TC_PG, SCN_CFG_TC_QUEUE,
						     SCN_CFG_PFC_QUEUE };
	const struct scenario *s = o->s;
	const char *dscp = entry_name(s, SCN_CFG_DSCP_MAP, "AZURE");
	struct json_object *t, *e, *m;
	char port[64], key[64], prios[32];
	uint32_t p;
	size_t i;
	int d;

	scn_prios_text(s->pfc_prios, prios, sizeof(prios));
	t = add_obj(root, "PORT_QOS_MAP");
	for (p = 0; p < nports; p++) {
		port_name(s, port, sizeof(port), p);
		e = add_obj(t, port);
		add_str(e, "dscp_to_tc_map", "%s", dscp);
		if (s->pfc_prios)
			add_str(e, "pfc_enable", "%s", prios);
		add_str(e, "pfc_to_queue_map", "%s", entry_name(s, SCN_CFG_PFC_QUEUE, "AZURE"));
		/* kept from an imported PORT_QOS_MAP: the watchdog watches every
		 * lossless priority (sonic_pfc.c) */
		if (s->imported && s->imported->pfcwd_sw_enable)
			add_str(e, "pfcwd_sw_enable", "%s", prios);
		add_str(e, "tc_to_pg_map", "%s", entry_name(s, SCN_CFG_TC_PG, "AZURE"));
		add_str(e, "tc_to_queue_map", "%s", entry_name(s, SCN_CFG_TC_QUEUE, "AZURE"));
	}
	m = add_obj(add_obj(root, "DSCP_TO_TC_MAP"), dscp);
	for (d = 0; d < 64; d++) {
		scn_sfmt(key, sizeof(key), "%d", d);
		add_str(m, key, "%u", s->dscp_to_prio[d]);
	}
	for (i = 0; i < N_OF(idmaps); i++) {
		const char *name = entry_name(s, idnames[i], "AZURE"), *v;

		m = add_obj(add_obj(root, idmaps[i]), name);
		for (d = 0; d < 8; d++) {
			/* the identity on the lossless TCs; the others as imported */
			scn_sfmt(key, sizeof(key), "%d", d);
			v = s->pfc_prios & (1u << d) ? NULL : imported_field(o, idmaps[i], name, key);
			if (v)
				add_str(m, key, "%s", v);
			else
				add_str(m, key, "%d", d);
		}
	}
}

/* PFC_WD: every port's watchdog and the poll interval, in whole ms */
static void db_pfc_wd(struct out *o, struct json_object *root, uint32_t nports)
{
	static const char *const act[] = { "drop", "forward", "alert" };
	const struct scenario *s = o->s;
	struct json_object *t, *e;
	char port[64];
	int64_t det, res;
	uint32_t p;

	t = add_obj(root, "PFC_WD");
	if (!s->pfcwd_enable) {
		note(o, "pfcwd.enable is false: PFC_WD has no port entry");
		return;
	}
	det = in_unit(o, "pfcwd.detection_time", s->pfcwd_detect_ps, PS_PER_MS, "ms", 1);
	res = in_unit(o, "pfcwd.restoration_time", s->pfcwd_restore_ps, PS_PER_MS, "ms", 1);
	for (p = 0; p < nports; p++) {
		port_name(s, port, sizeof(port), p);
		e = add_obj(t, port);
		add_str(e, "action", "%s", act[s->pfcwd_action]);
		add_str(e, "detection_time", "%" PRId64, det);
		add_str(e, "restoration_time", "%" PRId64, res);
	}
	e = add_obj(t, "GLOBAL");
	add_str(e, "POLL_INTERVAL", "%" PRId64,
		in_unit(o, "pfcwd.poll_interval", s->pfcwd_poll_ps, PS_PER_MS, "ms", 1));
}

/* the fragment, table by table (always in this order: the same scenario
 * gives the same bytes) */
static struct json_object *config_db(struct out *o)
{
	struct json_object *root = json_object_new_object();
	const struct scn_imported *im = o->s->imported;
	uint32_t nports = max_ports(o->s);

	if (nports > MAX_EXPORT_PORTS)
		nports = MAX_EXPORT_PORTS;
	if (im && im->nports) {
		if (im->nports != nports)
			note(o, "config_db.json: the %" PRIu32 " ports of %s, whose names it keeps "
			     "(the model's largest switch has %" PRIu32 ")", im->nports,
			     im->switch_path, nports);
		else
			note(o, "config_db.json: the %" PRIu32 " ports of %s, whose names it keeps",
			     nports, im->switch_path);
		nports = im->nports;
	}
	db_buffers(o, root, nports);
	db_wred(o, root, nports);
	db_qos_maps(o, root, nports);
	db_pfc_wd(o, root, nports);
	if (!im || !im->nports)
		note(o, "config_db.json: %" PRIu32 " ports, Ethernet0 to Ethernet%" PRIu32
		     " (the largest switch's)", nports, nports ? (nports - 1) * 8 : 0);
	return root;
}

/* config_db.json from root */
static int write_config_db(struct out *o, struct json_object *root)
{
	char path[4200];
	FILE *f = open_out(o, "config_db.json", path, sizeof(path));

	if (!f)
		return -1;
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						   JSON_C_TO_STRING_SPACED |
						   JSON_C_TO_STRING_NOSLASHESCAPE),
	      f);
	fputc('\n', f);
	return close_out(o, f, path);
}

/* ---- cc_params.txt, nic-setup.sh ---- */

/* the value of an mlx5 parameter in the driver's unit */
static int64_t mlx5_value(struct out *o, const struct mlx5_param *p)
{
	const char *f = (const char *)o->s + p->off;
	int64_t v = 0;

	if (p->unit == MLX5_FIXED)
		return p->fixed;
	if (p->size == 8) {
		memcpy(&v, f, 8);
	} else if (p->size == 4) {
		int32_t x;

		memcpy(&x, f, 4);
		v = x;
	} else {
		uint8_t x;

		memcpy(&x, f, 1);
		v = x;
	}
	switch (p->unit) {
	case MLX5_US:
		return in_unit(o, p->key, v, PS_PER_US, "us", v ? 1 : 0);
	case MLX5_MBPS:
		return in_unit(o, p->key, v, MBPS, "Mbps", v ? 1 : 0);
	case MLX5_B64:
		if (o->s->imported && o->s->imported->byte_reset_bytes)
			return v; /* read as bytes on import: written back as bytes */
		return in_unit(o, p->key, v, FW_BYTE_UNIT, "64-byte units", v ? 1 : 0);
	default:
		return v;
	}
}

void scn_mlx5_text(const struct scenario *s, size_t i, int64_t v, char *buf, size_t len)
{
	int bytes = scn_mlx5_params[i].unit == MLX5_B64 && s->imported &&
		    s->imported->byte_reset_bytes;

	scn_sfmt(buf, len, "%" PRId64 "%s", v, bytes ? "B" : "");
}

/* a file of dir this export does not write, left by an earlier export
 * into the same folder: removed, so that the folder holds one export */
static int remove_stale(struct out *o, const char *name, const char *why)
{
	char path[4200];

	scn_sfmt(path, sizeof(path), "%s/%s", o->dir, name);
	if (unlink(path) == 0)
		note(o, "%s: removed, an earlier export's (%s)", path, why);
	else if (errno != ENOENT)
		return fail(o, "%s: cannot remove an earlier export's (%s)", path,
			    strerror(errno));
	return 0;
}

/* nic.cc = none: no cc_params.txt or nic-setup.sh (the same scenario
 * refuses to import [dcqcn] values), and none left from an earlier export
 * into the folder */
static int no_nic(struct out *o)
{
	const struct scenario *s = o->s;

	if (remove_stale(o, "cc_params.txt", "nic.cc = none writes none") ||
	    remove_stale(o, "nic-setup.sh", "nic.cc = none writes none"))
		return -1;
	if (s->fabric_type == SCN_FABRIC_ROCE)
		note(o, "nic.cc = none: no cc_params.txt or nic-setup.sh; turn DCQCN off on the "
		     "NIC with echo 0 > /sys/class/net/<dev>/ecn/roce_rp/enable/%u",
		     (unsigned)s->dscp_to_prio[s->data_dscp]);
	else
		note(o, "fabric.type = %s: no cc_params.txt or nic-setup.sh (the NICs run no "
		     "DCQCN)", scenario_fabric_names[s->fabric_type]);
	return 0;
}

const char *scenario_export_files(const struct scenario *s)
{
	return s->cc == SCN_CC_DCQCN ? "config_db.json, cc_params.txt, nic-setup.sh, nccl.env" :
				       "config_db.json, nccl.env";
}

/* cc_params.txt and nic-setup.sh, from the values in vals (filled) */
static int write_nic(struct out *o, int64_t *vals)
{
	const struct scenario *s = o->s;
	char text[64];
	char path[4200];
	size_t i;
	FILE *f;

	if (s->cc != SCN_CC_DCQCN)
		return no_nic(o);
	if (s->dcqcn_profile != SCN_DCQCN_NVIDIA)
		note(o, "dcqcn.profile = %s: the NIC applies the values with NVIDIA's semantics",
		     scn_profile_names[s->dcqcn_profile]);
	if (s->dcqcn.cnp_scope != SCN_CNP_SCOPE_QP)
		note(o, "dcqcn.cnp_scope = port: not a cc_params value (the NIC's scope is its "
		     "firmware's)");
	for (i = 0; i < scn_mlx5_nparams; i++)
		vals[i] = scn_mlx5_params[i].unit != MLX5_IGNORED ?
				  mlx5_value(o, &scn_mlx5_params[i]) : 0;

	f = open_out(o, "cc_params.txt", path, sizeof(path));
	if (!f)
		return -1;
	fprintf(f, "# mlx5 cc_params (/sys/kernel/debug/mlx5/<PCI>/cc_params/<name>) of\n"
		   "# %s, in the driver's units: rates Mbps, times us,\n"
		   "# rp_byte_reset 64-byte units, rp_dce_tcp_g and rp_initial_alpha_value "
		   "1/1024\n",
		o->source);
	if (s->imported && s->imported->byte_reset_bytes)
		fprintf(f, "# rp_byte_reset in bytes, as imported (the B suffix): nic-setup.sh "
			   "writes the number\n");
	for (i = 0; i < scn_mlx5_nparams; i++)
		if (scn_mlx5_params[i].unit != MLX5_IGNORED) {
			scn_mlx5_text(s, i, vals[i], text, sizeof(text));
			fprintf(f, "%s %s\n", scn_mlx5_params[i].name, text);
		}
	if (close_out(o, f, path))
		return -1;

	f = open_out(o, "nic-setup.sh", path, sizeof(path));
	if (!f)
		return -1;
	fprintf(f,
		"#!/bin/sh\n"
		"# nic-setup.sh - the DCQCN parameters of %s\n"
		"# (cc_params.txt) into NVIDIA mlx5 NICs, through the mlx5_ib driver's debugfs.\n"
		"#\n"
		"# Usage: nic-setup.sh [-n] [PCI...]\n"
		"#   -n    dry run: print what would be written, write nothing\n"
		"#   PCI   devices such as 0000:3b:00.0; default: every device under\n"
		"#         /sys/kernel/debug/mlx5 that has cc_params\n"
		"# Run as root with debugfs mounted; the values last until the driver reloads.\n"
		"set -e\n"
		"D=/sys/kernel/debug/mlx5\n"
		"dry=0\n"
		"if [ \"${1:-}\" = \"-n\" ]; then\n"
		"\tdry=1\n"
		"\tshift\n"
		"fi\n"
		"if [ $# -eq 0 ]; then\n"
		"\tfor d in \"$D\"/*; do\n"
		"\t\tif [ -d \"$d/cc_params\" ]; then\n"
		"\t\t\tset -- \"$@\" \"${d##*/}\"\n"
		"\t\tfi\n"
		"\tdone\n"
		"fi\n"
		"if [ $# -eq 0 ]; then\n"
		"\techo \"nic-setup.sh: no mlx5 device with cc_params under $D\" >&2\n"
		"\texit 1\n"
		"fi\n"
		"put() {\n"
		"\tif [ \"$dry\" = 1 ]; then\n"
		"\t\techo \"echo $3 > $D/$1/cc_params/$2\"\n"
		"\telse\n"
		"\t\techo \"$3\" > \"$D/$1/cc_params/$2\"\n"
		"\tfi\n"
		"}\n"
		"for dev in \"$@\"; do\n"
		"\tif [ \"$dry\" = 0 ] && [ ! -d \"$D/$dev/cc_params\" ]; then\n"
		"\t\techo \"nic-setup.sh: $D/$dev/cc_params: no such folder\" >&2\n"
		"\t\texit 1\n"
		"\tfi\n",
		o->source);
	for (i = 0; i < scn_mlx5_nparams; i++)
		if (scn_mlx5_params[i].unit != MLX5_IGNORED)
			fprintf(f, "\tput \"$dev\" %s %" PRId64 "\n", scn_mlx5_params[i].name,
				vals[i]);
	fprintf(f, "done\n");
	if (close_out(o, f, path))
		return -1;
	if (chmod(path, 0755))
		return fail(o, "%s: cannot make executable (%s)", path, strerror(errno));
	return 0;
}

/* ---- nccl.env ---- */

/* the first job's value of one setting that differs from def; a log
 * line when a later job's differs from it */
static int64_t job_value(struct out *o, const char *key, size_t off, size_t size, int64_t def,
			 int *which)
{
	const struct scenario *s = o->s;
	int64_t first = def;
	uint32_t j;

	*which = -1;
	for (j = 0; j < s->njobs; j++) {
		const struct scn_job *job = &s->jobs[j];
		int64_t v;

		if (job->pattern != SCN_JOB_RING_ALLREDUCE && job->pattern != SCN_JOB_ALLTOALL)
			continue;
		if (size == 4) {
			uint32_t x;

			memcpy(&x, (const char *)job + off, 4);
			v = x;
		} else {
			int x;

			memcpy(&x, (const char *)job + off, sizeof(x));
			v = x;
		}
		if (v == def)
			continue;
		if (*which < 0) {
			*which = (int)j;
			first = v;
		} else if (v != first) {
			note(o, "job.%s.%s = %" PRId64 ": one NCCL environment; nccl.env has "
			     "job.%s's %" PRId64, job->name, key, v, s->jobs[*which].name, first);
		}
	}
	return first;
}

static int write_nccl(struct out *o)
{
	const struct scenario *s = o->s;
	int tc = s->data_dscp * 4 + (s->tc_ecn_bits >= 0 ? s->tc_ecn_bits : 2);
	int32_t ibto = s->nic_ib_timeout;
	char path[4200];
	int64_t v;
	int which;
	FILE *f;

	if (s->nic_rto_ps != SCN_AUTO) {
		for (ibto = 1; ibto < 31 && INT64_C(4096000) << ibto < s->nic_rto_ps; ibto++)
			;
		note(o, "nic.rto: NCCL_IB_TIMEOUT=%" PRId32 " (4.096 us x 2^%" PRId32
		     ", the smallest at least nic.rto)", ibto, ibto);
	}
	f = open_out(o, "nccl.env", path, sizeof(path));
	if (!f)
		return -1;
	fprintf(f, "# the NCCL environment that %s assumes\n", o->source);
	fprintf(f, "export NCCL_IB_TC=%d    # qos.data_dscp = %u: TOS = DSCP x 4 + %s\n", tc,
		s->data_dscp, s->tc_ecn_bits >= 0 ? "the ECN bits of qos.nccl_ib_tc" : "ECT(0)");
	fprintf(f, "export NCCL_IB_TIMEOUT=%" PRId32 "    # %s\n", ibto,
		s->nic_rto_ps != SCN_AUTO ? "nic.rto (4.096 us x 2^n at least nic.rto)" :
					     "nic.ib_timeout");
	fprintf(f, "export NCCL_IB_RETRY_CNT=%" PRId32 "    # nic.ib_retry_cnt\n",
		s->nic_ib_retry_cnt);
	v = job_value(o, "qps_per_connection", offsetof(struct scn_job, qps_per_connection), 4, 1,
		      &which);
	if (which >= 0)
		fprintf(f, "export NCCL_IB_QPS_PER_CONNECTION=%" PRId64
			   "    # job.%s.qps_per_connection\n", v, s->jobs[which].name);
	job_value(o, "algorithm", offsetof(struct scn_job, algorithm), sizeof(int), SCN_ALGO_RING,
		  &which);
	if (which >= 0)
		fprintf(f, "export NCCL_ALGO=Tree    # job.%s.algorithm = tree\n",
			s->jobs[which].name);
	v = job_value(o, "channels", offsetof(struct scn_job, channels), 4, 1, &which);
	if (which >= 0) {
		fprintf(f, "export NCCL_MIN_NCHANNELS=%" PRId64 "    # job.%s.channels\n", v,
			s->jobs[which].name);
		fprintf(f, "export NCCL_MAX_NCHANNELS=%" PRId64 "    # job.%s.channels\n", v,
			s->jobs[which].name);
	}
	return close_out(o, f, path);
}

int scenario_export(const struct scenario *s, const char *dir, FILE *log, char *err,
		    size_t errlen)
{
	struct out o = { .s = s, .dir = dir, .log = log, .err = err, .errlen = errlen };
	struct json_object *root;
	int64_t *vals;
	int rc = -1;

	if (errlen)
		err[0] = '\0';
	scn_sfmt(o.source, sizeof(o.source), "%s", s->source);
	scn_one_line(o.source);

	if (make_dir(&o, dir))
		return -1;
	if (s->imported && s->imported->switch_text)
		o.in = json_tokener_parse(s->imported->switch_text);
	root = config_db(&o);
	vals = calloc(scn_mlx5_nparams, sizeof(*vals));
	if (!vals)
		fail(&o, "out of memory");
	else if (!write_config_db(&o, root) && !write_nic(&o, vals) && !write_nccl(&o))
		rc = s->imported ? scn_write_changes(s, dir, root, vals, err, errlen) :
				   remove_stale(&o, "changes.txt", "nothing was imported");
	if (rc == 0 && !(s->imported && s->imported->switch_text))
		rc = remove_stale(&o, "config_db.patch.json", "no config_db.json was imported");
	if (rc == 0 && s->imported)
		note(&o, "changes.txt%s: what applying the export would change against the "
		     "imported files", s->imported->switch_text ? " and config_db.patch.json" : "");
	json_object_put(root);
	if (o.in)
		json_object_put(o.in);
	free(vals);
	return rc;
}
