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
 *
 * Choices
 *   - ports: one switch's configuration, for the largest switch's port
 *     count, named as SONiC names 400G ports by their first lane (8 lanes
 *     each): Ethernet0, Ethernet8, ... Every switch of the model has the
 *     same QoS, so the fragment applies to each (with its own port count).
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
};

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
	f = fopen(path, "w");
	if (!f)
		fail(o, "%s: cannot write (%s)", path, strerror(errno));
	return f;
}

/* closes f: an error when a write or the close failed (a full disk) */
static int close_out(struct out *o, FILE *f, const char *path)
{
	if (file_close(f))
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

/* "Ethernet0", "Ethernet8", ...: port p as SONiC names a 400G port by its
 * first lane (8 lanes each) */
static void port_name(char *buf, size_t len, uint32_t p)
{
	scn_sfmt(buf, len, "Ethernet%" PRIu32, p * 8);
}

/* a table keyed "PORT|RANGE" (BUFFER_PG, QUEUE): for every port and every run
 * of the priorities in mask, an entry whose field names the profile */
static void per_port_ranges(struct json_object *t, uint32_t nports, uint8_t mask,
			    const char *field, const char *profile)
{
	char port[32], key[64], r[16];

	for (uint32_t p = 0; p < nports && mask; p++) {
		port_name(port, sizeof(port), p);
		for (int from = 0; next_range(mask, &from, r, sizeof(r));) {
			scn_sfmt(key, sizeof(key), "%s|%s", port, r);
			add_str(add_obj(t, key), field, "%s", profile);
		}
	}
}

/* BUFFER_POOL, BUFFER_PROFILE, BUFFER_PG: from the lossless PG's profile */
static void db_buffers(struct out *o, struct json_object *root, uint32_t nports)
{
	const struct scenario *s = o->s;
	struct json_object *t, *e;

	t = add_obj(root, "BUFFER_POOL");
	if (s->pfc_prios) {
		e = add_obj(t, "ingress_lossless_pool");
		add_str(e, "mode", "dynamic");
		add_str(e, "size", "%" PRId64, s->buffer_bytes);
		add_str(e, "type", "ingress");
	}
	t = add_obj(root, "BUFFER_PROFILE");
	if (s->pfc_prios) {
		e = add_obj(t, "pg_lossless_profile");
		add_str(e, "dynamic_th", "%" PRId32, s->dynamic_th);
		add_str(e, "pool", "ingress_lossless_pool");
		add_str(e, "size", "%" PRId64, scn_reserved_of(s));
		add_str(e, "xoff", "%" PRId64, headroom(o));
		add_str(e, "xon_offset", "%" PRId64,
			s->xon_offset_bytes == SCN_AUTO ? scn_data_frames(s, 2) :
							  s->xon_offset_bytes);
	} else {
		note(o, "pfc.priorities is empty: no lossless PG profile, so buffer.size, "
		     "buffer.reserved and buffer.dynamic_th are not exported");
	}
	per_port_ranges(add_obj(root, "BUFFER_PG"), nports, s->pfc_prios, "profile",
			"pg_lossless_profile");
}

/* WRED_PROFILE and QUEUE: one ECN profile on the ECN queues */
static void db_wred(struct out *o, struct json_object *root, uint32_t nports)
{
	const struct scenario *s = o->s;
	struct json_object *t, *e;

	t = add_obj(root, "WRED_PROFILE");
	if (s->ecn_queues) {
		int64_t pct = in_unit(o, "ecn.pmax", s->ecn_pmax_ppb, INT64_C(10000000),
				      "percent (green_drop_probability)", 1);

		e = add_obj(t, "AZURE_LOSSLESS");
		add_str(e, "ecn", "ecn_all");
		add_str(e, "green_drop_probability", "%" PRId64, pct);
		add_str(e, "green_max_threshold", "%" PRId64, s->ecn_kmax_bytes);
		add_str(e, "green_min_threshold", "%" PRId64, s->ecn_kmin_bytes);
		add_str(e, "wred_green_enable", "true");
		add_str(e, "wred_red_enable", "false");
		add_str(e, "wred_yellow_enable", "false");
		if (s->ecn_queues & ~s->pfc_prios) {
			char q[32];

			scn_prios_text((uint8_t)(s->ecn_queues & ~s->pfc_prios), q, sizeof(q));
			note(o, "ecn.queues: queue %s is not lossless: it gets the same WRED "
			     "profile (a SONiC switch also drops non-ECT packets there; the model "
			     "marks only)", q);
		}
	}
	per_port_ranges(add_obj(root, "QUEUE"), nports, s->ecn_queues, "wred_profile",
			"AZURE_LOSSLESS");
}

/* PORT_QOS_MAP and the maps it names: the scenario's DSCP map, the
 * identity from TC to PG and to queue */
static void db_qos_maps(struct out *o, struct json_object *root, uint32_t nports)
{
	static const char *const idmaps[] = { "TC_TO_PRIORITY_GROUP_MAP", "TC_TO_QUEUE_MAP",
					      "MAP_PFC_PRIORITY_TO_QUEUE" };
	const struct scenario *s = o->s;
	struct json_object *t, *e, *m;
	char port[32], key[64], prios[32];
	uint32_t p;
	size_t i;
	int d;

	scn_prios_text(s->pfc_prios, prios, sizeof(prios));
	t = add_obj(root, "PORT_QOS_MAP");
	for (p = 0; p < nports; p++) {
		port_name(port, sizeof(port), p);
		e = add_obj(t, port);
		add_str(e, "dscp_to_tc_map", "AZURE");
		if (s->pfc_prios)
			add_str(e, "pfc_enable", "%s", prios);
		add_str(e, "pfc_to_queue_map", "AZURE");
		add_str(e, "tc_to_pg_map", "AZURE");
		add_str(e, "tc_to_queue_map", "AZURE");
	}
	m = add_obj(add_obj(root, "DSCP_TO_TC_MAP"), "AZURE");
	for (d = 0; d < 64; d++) {
		scn_sfmt(key, sizeof(key), "%d", d);
		add_str(m, key, "%u", s->dscp_to_prio[d]);
	}
	for (i = 0; i < N_OF(idmaps); i++) {
		m = add_obj(add_obj(root, idmaps[i]), "AZURE");
		for (d = 0; d < 8; d++) {
			scn_sfmt(key, sizeof(key), "%d", d);
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
	char port[32];
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
		port_name(port, sizeof(port), p);
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
	uint32_t nports = max_ports(o->s);

	if (nports > MAX_EXPORT_PORTS)
		nports = MAX_EXPORT_PORTS;
	db_buffers(o, root, nports);
	db_wred(o, root, nports);
	db_qos_maps(o, root, nports);
	db_pfc_wd(o, root, nports);
	note(o, "config_db.json: %" PRIu32 " ports, Ethernet0 to Ethernet%" PRIu32
	     " (the largest switch's)", nports, nports ? (nports - 1) * 8 : 0);
	return root;
}

static int write_config_db(struct out *o)
{
	struct json_object *root = config_db(o);
	char path[4200];
	FILE *f = open_out(o, "config_db.json", path, sizeof(path));
	int rc = -1;

	if (f) {
		fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							   JSON_C_TO_STRING_SPACED |
							   JSON_C_TO_STRING_NOSLASHESCAPE),
		      f);
		fputc('\n', f);
		rc = close_out(o, f, path);
	}
	json_object_put(root);
	return rc;
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
		return in_unit(o, p->key, v, FW_BYTE_UNIT, "64-byte units", v ? 1 : 0);
	default:
		return v;
	}
}

static int write_nic(struct out *o)
{
	const struct scenario *s = o->s;
	int64_t vals[32];
	char path[4200];
	size_t i;
	FILE *f;

	if (s->cc != SCN_CC_DCQCN)
		note(o, "nic.cc = none: cc_params.txt still holds the [dcqcn] values; turn DCQCN "
		     "off on the NIC with /sys/class/net/<dev>/ecn/roce_rp/enable/<prio> = 0");
	if (s->dcqcn_profile != SCN_DCQCN_NVIDIA)
		note(o, "dcqcn.profile = %s: the NIC applies the values with NVIDIA's semantics",
		     scn_profile_names[s->dcqcn_profile]);
	if (s->dcqcn.cnp_scope != SCN_CNP_SCOPE_QP)
		note(o, "dcqcn.cnp_scope = port: not a cc_params value (the NIC's scope is its "
		     "firmware's)");
	for (i = 0; i < scn_mlx5_nparams && i < N_OF(vals); i++)
		if (scn_mlx5_params[i].unit != MLX5_IGNORED)
			vals[i] = mlx5_value(o, &scn_mlx5_params[i]);

	f = open_out(o, "cc_params.txt", path, sizeof(path));
	if (!f)
		return -1;
	fprintf(f, "# mlx5 cc_params (/sys/kernel/debug/mlx5/<PCI>/cc_params/<name>) of\n"
		   "# %s, in the driver's units: rates Mbps, times us,\n"
		   "# rp_byte_reset 64-byte units, rp_dce_tcp_g and rp_initial_alpha_value "
		   "1/1024\n",
		o->source);
	for (i = 0; i < scn_mlx5_nparams; i++)
		if (scn_mlx5_params[i].unit != MLX5_IGNORED)
			fprintf(f, "%s %" PRId64 "\n", scn_mlx5_params[i].name, vals[i]);
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

	if (errlen)
		err[0] = '\0';
	scn_sfmt(o.source, sizeof(o.source), "%s", s->source);
	scn_one_line(o.source);
	if (make_dir(&o, dir) || write_config_db(&o) || write_nic(&o) || write_nccl(&o))
		return -1;
	return 0;
}
