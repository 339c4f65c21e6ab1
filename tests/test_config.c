/*
 * test_config.c - real switch and NIC configurations in and out
 * (models/scenario/configs/: sonic*.c, mlx5.c, export.c; docs/configs.md).
 *
 * What is pinned, with the files of tests/data/config/:
 *   - SONiC in: a full config_db.json of a 4-port leaf (non-QoS tables,
 *     lossy PGs, unused profiles, yellow/red thresholds that are off), and
 *     one file per table group (lossless buffers, WRED, PFC_WD, a PFC_WD
 *     without ports): every key's value in struct scenario (bytes, ps,
 *     ppb), the log lines that say where each came from, and that absent
 *     tables leave their keys alone;
 *   - SONiC errors, each with its exact message naming the JSON path:
 *     malformed JSON (json-c's words and the line), ports that disagree,
 *     fields that cannot be mapped, values the loader rejects, maps that
 *     are not the identity, missing references;
 *   - mlx5 in: every name's value in its base unit; errors at FILE:LINE;
 *   - out: the four files' contents, their determinism, auto headroom and
 *     inexact values logged, nic-setup.sh's dry run;
 *   - real configurations (sonic_stock.json: SONiC's qos_config.j2 with
 *     yellow and red WRED on; dynamic.json; shared_headroom*.json;
 *     cc_byte_reset*.txt): the stock profile imports with yellow and red
 *     logged as not applying, the dynamic buffer model is refused saying what
 *     to supply, a shared headroom pool gives buffer.size = size + xoff (xoff
 *     = 8 PGs x 96256 B / 2 from a ratio), rp_byte_reset's reading is a note
 *     that scenario_config_notes() prints, and nothing is noted otherwise;
 *   - export after an import: the file's port and entry names and
 *     pfcwd_sw_enable kept; changes.txt and config_db.patch.json: "no
 *     change" for an export imported as it is, old -> new after a --set,
 *     port lists and references compared as SONiC reads them;
 *   - the round trip: export, then import onto the same scenario with the
 *     QoS keys at their defaults, gives the same scenario_print() text, for
 *     a scenario where every mapped key is not at its default and for one
 *     with PFC and the watchdog off and ECN on a lossy queue; and a full
 *     config_db.json in, out and in again.
 */
#include <check.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "models/scenario/configs/config.h"
#include "models/scenario/scenario.h"
#include "testlib.h"

#define CFG TEST_DATA_DIR "/config/"
#define PS_MS INT64_C(1000000000)
#define PS_US INT64_C(1000000)

/* ---- helpers ---- */

/* a log stream into memory */
struct mlog {
	char *text;
	size_t len;
	FILE *f;
};

static void mlog_open(struct mlog *m)
{
	m->text = NULL;
	m->len = 0;
	m->f = open_memstream(&m->text, &m->len);
	ck_assert_ptr_nonnull(m->f);
}

static char *mlog_close(struct mlog *m)
{
	fclose(m->f);
	return m->text;
}

/* scenario text loaded (as x.ini), the files imported, not finalized */
static struct scenario *imported(const char *text, const char *sonic, const char *mlx5,
				 char **log)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err = { "" };
	struct mlog m;

	mlog_open(&m);
	ck_assert_msg(scenario_load_string(s, "x.ini", text, &err) == 0, "%s", err.msg);
	if (sonic)
		ck_assert_msg(scenario_import_sonic(s, sonic, m.f, &err) == 0, "%s", err.msg);
	if (mlx5)
		ck_assert_msg(scenario_import_mlx5(s, mlx5, m.f, &err) == 0, "%s", err.msg);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	if (log)
		*log = mlog_close(&m);
	else
		free(mlog_close(&m));
	return s;
}

static void has_line(const char *log, const char *line)
{
	ck_assert_msg(strstr(log, line) != NULL, "log lacks\n%s\nlog:\n%s", line, log);
}

static int count_lines(const char *text, const char *prefix)
{
	int n = 0;
	const char *p = text;

	while (p && *p) {
		n += strncmp(p, prefix, strlen(prefix)) == 0;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return n;
}

/* ---- SONiC in ---- */

START_TEST(sonic_full_config_db)
{
	char *log;
	struct scenario *s = imported("", CFG "config_db.json", NULL, &log);
	char line[512];

	ck_assert_uint_eq(s->pfc_prios, (1u << 3) | (1u << 4));
	ck_assert_int_eq(s->buffer_bytes, 32000000);
	ck_assert_int_eq(s->reserved_bytes, 4200);
	ck_assert_int_eq(s->dynamic_th, -2);
	ck_assert_int_eq(s->headroom_bytes, 96928);
	ck_assert_int_eq(s->xon_offset_bytes, 9000);
	ck_assert_uint_eq(s->ecn_queues, (1u << 3) | (1u << 4));
	ck_assert_int_eq(s->ecn_kmin_bytes, 250000);
	ck_assert_int_eq(s->ecn_kmax_bytes, 2000000);
	ck_assert_int_eq(s->ecn_pmax_ppb, 50000000);
	ck_assert_int_eq(s->pfcwd_enable, 1);
	ck_assert_int_eq(s->pfcwd_action, SCN_PFCWD_FORWARD);
	ck_assert_int_eq(s->pfcwd_detect_ps, 400 * PS_MS);
	ck_assert_int_eq(s->pfcwd_restore_ps, 800 * PS_MS);
	ck_assert_int_eq(s->pfcwd_poll_ps, 100 * PS_MS);
	ck_assert_uint_eq(s->dscp_to_prio[26], 3);
	ck_assert_uint_eq(s->dscp_to_prio[24], 3);
	ck_assert_uint_eq(s->dscp_to_prio[46], 5);
	ck_assert_uint_eq(s->dscp_to_prio[48], 6);
	/* a DSCP the map lists at 0, where dscp>>3 would give 1 and 7 */
	ck_assert_uint_eq(s->dscp_to_prio[8], 0);
	ck_assert_uint_eq(s->dscp_to_prio[63], 0);
	/* the NIC side is not in config_db.json */
	ck_assert_int_eq(s->dcqcn.rpg_ai_rate_bps, 5000000);
	ck_assert_uint_eq(s->cnp_dscp, 48);

	/* one line per key set, saying where it came from */
	ck_assert_int_eq(count_lines(log, "# "), 10);
	ck_assert_int_eq(count_lines(log, "pfc") + count_lines(log, "ecn.") +
				 count_lines(log, "buffer.") + count_lines(log, "qos."),
			 16);
	snprintf(line, sizeof(line),
		 "\necn.kmin = 250000B    # %s: WRED_PROFILE.AZURE_LOSSLESS.green_min_threshold "
		 "(via QUEUE.\"Ethernet0|3-4\".wred_profile)\n", CFG "config_db.json");
	has_line(log, line);
	snprintf(line, sizeof(line),
		 "\npfc.headroom = 96928B    # %s: BUFFER_PROFILE.pg_lossless_400000_5m_profile.xoff "
		 "(via BUFFER_PG.\"Ethernet0|3-4\".profile)\n", CFG "config_db.json");
	has_line(log, line);
	snprintf(line, sizeof(line), "\npfcwd.poll_interval = 100ms    # %s: "
		 "PFC_WD.GLOBAL.POLL_INTERVAL\n", CFG "config_db.json");
	has_line(log, line);
	snprintf(line, sizeof(line), "# %s: not read (not QoS, or not modelled): DEVICE_METADATA, "
		 "PORT, LOOPBACK_INTERFACE, CABLE_LENGTH, BUFFER_QUEUE, SCHEDULER, VLAN\n",
		 CFG "config_db.json");
	has_line(log, line);
	snprintf(line, sizeof(line), "# %s: BUFFER_PROFILE.pg_lossless_400000_5m_profile.xon: "
		 "not read", CFG "config_db.json");
	has_line(log, line);
	snprintf(line, sizeof(line), "# %s: WRED_PROFILE.AZURE_LOSSLESS.yellow_min_threshold: "
		 "not read (wred_yellow_enable is false)\n", CFG "config_db.json");
	has_line(log, line);
	has_line(log, "BUFFER_PG.\"Ethernet24|0\", BUFFER_PROFILE.ingress_lossy_profile, "
		 "BUFFER_PROFILE.egress_lossless_profile, BUFFER_PROFILE.egress_lossy_profile, "
		 "BUFFER_POOL.egress_lossless_pool, BUFFER_POOL.egress_lossy_pool\n");
	free(log);
	tl_unload(s);
}
END_TEST

/* the lossless buffer tables alone: the rest keeps its values */
START_TEST(sonic_lossless_buffers)
{
	char *log;
	struct scenario *s = imported("[ecn]\nkmin = 99KB\n", CFG "lossless.json", NULL, &log);

	ck_assert_uint_eq(s->pfc_prios, 1u << 3);
	ck_assert_int_eq(s->buffer_bytes, 48000000);
	ck_assert_int_eq(s->reserved_bytes, 8400);
	ck_assert_int_eq(s->dynamic_th, 1);
	ck_assert_int_eq(s->headroom_bytes, 200000);
	ck_assert_int_eq(s->xon_offset_bytes, 12000);
	ck_assert_int_eq(s->ecn_kmin_bytes, 99000);
	ck_assert_uint_eq(s->ecn_queues, 1u << 3);
	ck_assert_int_eq(s->pfcwd_detect_ps, 200 * PS_MS);
	/* "[BUFFER_PROFILE|name]" references (older SONiC) read the same */
	ck_assert_ptr_null(strstr(log, "not read"));
	ck_assert_int_eq(count_lines(log, ""), 6);
	free(log);
	tl_unload(s);
}
END_TEST

START_TEST(sonic_wred)
{
	char *log;
	struct scenario *s = imported("[pfc]\npriorities = 3,4\n", CFG "wred.json", NULL, &log);
	char line[256];

	ck_assert_uint_eq(s->ecn_queues, (1u << 3) | (1u << 4));
	ck_assert_int_eq(s->ecn_kmin_bytes, 100000);
	ck_assert_int_eq(s->ecn_kmax_bytes, 800000);
	ck_assert_int_eq(s->ecn_pmax_ppb, 200000000);
	ck_assert_int_eq(s->buffer_bytes, 64000000);
	snprintf(line, sizeof(line), "ecn.queues = 3,4    # %s: QUEUE.\"Ethernet0|4\".wred_profile\n",
		 CFG "wred.json");
	ck_assert(strncmp(log, line, strlen(line)) == 0);
	ck_assert_int_eq(count_lines(log, ""), 4);
	free(log);
	tl_unload(s);
}
END_TEST

START_TEST(sonic_pfcwd)
{
	struct scenario *s = imported("[pfcwd]\nenable = false\n", CFG "pfcwd.json", NULL, NULL);

	ck_assert_int_eq(s->pfcwd_enable, 1);
	ck_assert_int_eq(s->pfcwd_action, SCN_PFCWD_ALERT);
	ck_assert_int_eq(s->pfcwd_detect_ps, 150 * PS_MS);
	ck_assert_int_eq(s->pfcwd_restore_ps, 300 * PS_MS);
	ck_assert_int_eq(s->pfcwd_poll_ps, 50 * PS_MS);
	tl_unload(s);

	/* a PFC_WD table with no port entry: the watchdog is off */
	{
		char *log;

		s = imported("", CFG "pfcwd_off.json", NULL, &log);
		ck_assert_int_eq(s->pfcwd_enable, 0);
		has_line(log, "PFC_WD.GLOBAL.POLL_INTERVAL: not read (no port has a watchdog)\n");
		has_line(log, "pfcwd.enable = false    # ");
		free(log);
		tl_unload(s);
	}
}
END_TEST

/* BUFFER_PG with no PORT_QOS_MAP: the scenario's lossless priorities */
START_TEST(sonic_no_port_qos_map)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err = { "" };
	char dir[64], path[128];

	ck_assert_int_eq(scenario_set(s, "pfc.priorities=2,5", &err), 0);
	tl_write_temp(dir, path, "config_db.json",
		      "{\"BUFFER_PG\": {\"Ethernet0|2\": {\"profile\": \"p\"},"
		      " \"Ethernet0|5\": {\"profile\": \"p\"},"
		      " \"Ethernet0|0\": {\"profile\": \"lossy\"}},"
		      " \"BUFFER_PROFILE\": {\"p\": {\"xoff\": 150000, \"size\": \"0\"}}}");
	ck_assert_msg(scenario_import_sonic(s, path, NULL, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(scenario_finalize(s, &err), 0);
	ck_assert_uint_eq(s->pfc_prios, (1u << 2) | (1u << 5));
	ck_assert_int_eq(s->headroom_bytes, 150000);
	ck_assert_int_eq(s->reserved_bytes, 0);
	tl_remove_temp(dir, path);
	tl_unload(s);
}
END_TEST

/* keys that list ports ("Ethernet0,Ethernet4|3-4") and references written
 * "[TABLE|NAME]", as older SONiC templates write them */
START_TEST(sonic_port_lists)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err = { "" };
	char dir[64], path[128];

	tl_write_temp(dir, path, "config_db.json",
		      "{\"PORT_QOS_MAP\": {\"Ethernet0,Ethernet4\": {\"pfc_enable\": \"3,4\"}},"
		      " \"BUFFER_PG\": {\"Ethernet0,Ethernet4|3-4\": {\"profile\": \"[BUFFER_PROFILE|p]\"},"
		      " \"Ethernet0,Ethernet4|0-1\": {\"profile\": \"[BUFFER_PROFILE|q]\"}},"
		      " \"BUFFER_PROFILE\": {\"p\": {\"pool\": \"[BUFFER_POOL|ing]\", \"size\": \"0\","
		      " \"xoff\": \"50000\", \"dynamic_th\": \"-1\"}},"
		      " \"BUFFER_POOL\": {\"ing\": {\"size\": \"20000000\", \"type\": \"ingress\","
		      " \"mode\": \"dynamic\"}},"
		      " \"QUEUE\": {\"Ethernet0,Ethernet4|3-4\": {\"wred_profile\": \"[WRED_PROFILE|W]\","
		      " \"scheduler\": \"[SCHEDULER|s]\"}, \"Ethernet0,Ethernet4|0\": {}},"
		      " \"WRED_PROFILE\": {\"W\": {\"ecn\": \"ecn_all\", \"wred_green_enable\": \"true\","
		      " \"green_min_threshold\": \"50000\", \"green_max_threshold\": \"500000\","
		      " \"green_drop_probability\": \"15\"}}}");
	ck_assert_msg(scenario_import_sonic(s, path, NULL, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(scenario_finalize(s, &err), 0);
	ck_assert_uint_eq(s->pfc_prios, (1u << 3) | (1u << 4));
	ck_assert_uint_eq(s->ecn_queues, (1u << 3) | (1u << 4));
	ck_assert_int_eq(s->buffer_bytes, 20000000);
	ck_assert_int_eq(s->headroom_bytes, 50000);
	ck_assert_int_eq(s->dynamic_th, -1);
	ck_assert_int_eq(s->ecn_kmin_bytes, 50000);
	ck_assert_int_eq(s->ecn_kmax_bytes, 500000);
	ck_assert_int_eq(s->ecn_pmax_ppb, 150000000);
	tl_remove_temp(dir, path);
	tl_unload(s);
}
END_TEST

/* a broken file and the message it must give after "PATH: " */
struct bad_file {
	const char *file;
	const char *msg;
};

static const struct bad_file sonic_bad_cases[] = {
	{ "malformed.json", ":6: malformed JSON: object value separator ',' expected" },
	{ "no_qos.json", ": no table this importer reads (PORT_QOS_MAP, BUFFER_PG, QUEUE, PFC_WD, "
	  "DEFAULT_LOSSLESS_BUFFER_PARAMETER): nothing to import" },
	{ "disagree.json",
	  ": BUFFER_PROFILE.pg_lossless_40m.xoff (via BUFFER_PG.\"Ethernet8|3\".profile): 160000B "
	  "differs from 96928B at BUFFER_PROFILE.pg_lossless_5m.xoff (via "
	  "BUFFER_PG.\"Ethernet0|3\".profile): the model has one pfc.headroom per fabric" },
	{ "disagree_pfc.json",
	  ": PORT_QOS_MAP.Ethernet8.pfc_enable: 3 differs from 3,4 at "
	  "PORT_QOS_MAP.Ethernet0.pfc_enable: the model has one pfc.priorities per fabric" },
	{ "unmappable.json",
	  ": WRED_PROFILE.AZURE_LOSSLESS.ecn: ecn_none: not modelled (WRED drops green traffic; "
	  "the model marks ECN only, with ecn_green or ecn_all)" },
	{ "unknown_field.json", ": PFC_WD.Ethernet0.storm_limit: not modelled" },
	{ "out_of_range.json",
	  ": BUFFER_PROFILE.pg_lossless.dynamic_th (via BUFFER_PG.\"Ethernet0|3\".profile): "
	  "buffer.dynamic_th: 9 out of range (-7 to 7)" },
	{ "not_identity.json",
	  ": TC_TO_PRIORITY_GROUP_MAP.AZURE.3: 4: not the identity on lossless TC 3 (the model "
	  "takes TC = priority = PG = queue)" },
	{ "kmax_below.json",
	  ": WRED_PROFILE.W.green_max_threshold (via QUEUE.\"Ethernet0|3\".wred_profile): "
	  "100000B must be above green_min_threshold (150000B, ecn.kmin)" },
	{ "missing_ref.json", ": QUEUE.\"Ethernet0|3\".wred_profile: NOPE: no such WRED_PROFILE" },
	{ "no_such_file.json", ": cannot open (No such file or directory)" },
};

/* the file of case c fails import with the case's message after its path */
static void check_bad(const struct bad_file *c,
		      int (*import)(struct scenario *, const char *, FILE *, struct scn_error *))
{
	struct scenario *s = tl_scn_new();
	struct scn_error err = { "" };
	char path[512], want[1024];

	snprintf(path, sizeof(path), CFG "%s", c->file);
	snprintf(want, sizeof(want), "%s%s", path, c->msg);
	ck_assert_int_eq(import(s, path, NULL, &err), -1);
	ck_assert_str_eq(err.msg, want);
	tl_unload(s);
}

START_TEST(sonic_bad)
{
	check_bad(&sonic_bad_cases[_i], scenario_import_sonic);
}
END_TEST

/* small broken files written on the fly: JSON text, message after "PATH: " */
static const struct bad_file sonic_bad_text_cases[] = {
	{ "[1, 2]", "expected a JSON object of tables, as config_db.json" },
	{ "{\"PFC_WD\": [1]}", "PFC_WD: expected an object of entries" },
	{ "{}\n{}", ":2: malformed JSON: text after the top-level object" },
	{ "{\"PFC_WD\": {\"Ethernet0\": {\"detection_time\": \"2s\"}}}",
	  "PFC_WD.Ethernet0.detection_time: 2s: expected a non-negative integer (ms)" },
	{ "{\"PFC_WD\": {\"Ethernet0\": {\"action\": \"shutdown\"}}}",
	  "PFC_WD.Ethernet0.action: pfcwd.action: shutdown is not valid (drop, forward, alert)" },
	{ "{\"PFC_WD\": {\"Ethernet0\": {\"detection_time\": \"200\"},"
	  " \"Ethernet8\": {\"detection_time\": \"300\"}}}",
	  "PFC_WD.Ethernet8.detection_time: 300ms differs from 200ms at "
	  "PFC_WD.Ethernet0.detection_time: the model has one pfcwd.detection_time per fabric" },
	{ "{\"PFC_WD\": {\"GLOBAL\": {\"BIG_RED_SWITCH\": \"enable\"}}}",
	  "PFC_WD.GLOBAL.BIG_RED_SWITCH: enable: not modelled (a pause storm forced on every "
	  "port)" },
	{ "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"pfc_enable\": \"3,9\"}}}",
	  "PORT_QOS_MAP.Ethernet0.pfc_enable: 3,9: expected priorities 0-7, e.g. 3,4 or 3-4" },
	{ "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"pfc_enable\": \"3,4\", \"pfcwd_sw_enable\": "
	  "\"3\"}}}",
	  "PORT_QOS_MAP.Ethernet0.pfcwd_sw_enable: 3: not modelled (the model's watchdog watches "
	  "every lossless priority: pfc_enable is 3,4)" },
	{ "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"dscp_to_tc_map\": \"M\"}},"
	  " \"DSCP_TO_TC_MAP\": {\"M\": {\"26\": \"9\"}}}",
	  "DSCP_TO_TC_MAP.M.26: 9: expected a TC 0-7 (the model takes TC = priority)" },
	{ "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"pfc_enable\": \"3\"}},"
	  " \"BUFFER_PG\": {\"Ethernet0|0-3\": {\"profile\": \"p\"}}}",
	  "BUFFER_PG.\"Ethernet0|0-3\": mixes lossless and lossy PGs (pfc_enable is 3); the "
	  "model has one profile per lossless PG" },
	{ "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"pfc_enable\": \"3\"}},"
	  " \"BUFFER_PG\": {\"Ethernet0|3\": {\"profile\": \"p\"}},"
	  " \"BUFFER_PROFILE\": {\"p\": {\"static_th\": \"1000\"}}}",
	  "BUFFER_PROFILE.p.static_th: not modelled (the model's lossless thresholds are dynamic: "
	  "dynamic_th)" },
	{ "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"pfc_enable\": \"3\"}},"
	  " \"BUFFER_PG\": {\"Ethernet0|3\": {\"profile\": \"p\"}},"
	  " \"BUFFER_PROFILE\": {\"p\": {\"pool\": \"ing\", \"xoff\": \"2000\"}},"
	  " \"BUFFER_POOL\": {\"ing\": {\"mode\": \"dynamic\", \"xoff\": \"2000\"}}}",
	  "BUFFER_POOL.ing: no size: the model's buffer.size comes from it" },
	{ "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"pfc_enable\": \"3\"}},"
	  " \"BUFFER_PG\": {\"Ethernet0|3\": {\"profile\": \"p\"}},"
	  " \"BUFFER_PROFILE\": {\"p\": {\"xoff\": \"99MB\"}}}",
	  "BUFFER_PROFILE.p.xoff: 99MB: expected a non-negative integer (bytes)" },
	{ "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"pfc_enable\": \"3\"}},"
	  " \"BUFFER_PG\": {\"Ethernet0|3\": {\"profile\": \"p\"}},"
	  " \"BUFFER_PROFILE\": {\"p\": {\"xoff\": \"99000000\"}}}",
	  "BUFFER_PROFILE.p.xoff (via BUFFER_PG.\"Ethernet0|3\".profile): pfc.headroom: "
	  "99000000B out of range (auto or 0-64MB)" },
	{ "{\"WRED_PROFILE\": {\"W\": {\"wred_green_enable\": \"true\", \"ecn\": \"ecn_none\"}},"
	  " \"QUEUE\": {\"Ethernet0|3\": {\"wred_profile\": \"W\"}}}",
	  "WRED_PROFILE.W.ecn: ecn_none: not modelled (WRED drops green traffic; the model marks "
	  "ECN only, with ecn_green or ecn_all)" },
	{ "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"pfc_enable\": \"3\"}},"
	  " \"BUFFER_PG\": {\"Ethernet0|3\": {\"profile\": \"p\"}},"
	  " \"BUFFER_PROFILE\": {\"p\": {\"pool\": \"ing\", \"size\": \"9000\"}},"
	  " \"BUFFER_POOL\": {\"ing\": {\"size\": \"9000000\", \"xoff\": \"2000\"}}}",
	  "BUFFER_POOL.ing.xoff: 2000: a shared headroom pool, but the lossless profile has no "
	  "xoff (the most one PG may take, which the model reserves per PG as pfc.headroom)" },
	{ "{\"DEFAULT_LOSSLESS_BUFFER_PARAMETER\": {\"AZURE\": {\"over_subscribe_ratio\": "
	  "\"two\"}}}",
	  "DEFAULT_LOSSLESS_BUFFER_PARAMETER.AZURE.over_subscribe_ratio: two: expected a "
	  "non-negative integer (a ratio)" },
	{ "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"pfc_enable\": \"3\"}},"
	  " \"BUFFER_PG\": {\"Ethernet0|3\": {}}}",
	  "BUFFER_PG.\"Ethernet0|3\": no headroom profile: SONiC's dynamic buffer model computes "
	  "the lossless profiles on the switch (from port speed, cable length and MTU) and keeps "
	  "them out of config_db.json; supply them: for each profile that `show buffer "
	  "information` lists (or sonic-db-cli APPL_DB HGETALL BUFFER_PROFILE_TABLE:<name>), add "
	  "BUFFER_PROFILE.<name> with its size, xon, xoff, dynamic_th and pool, name it in the "
	  "lossless BUFFER_PG entries' profile, and give that pool's size (BUFFER_POOL_TABLE)" },
	{ "{\"PORT_QOS_MAP\": {\"Ethernet0,Ethernet4\": {\"pfc_enable\": \"3\"}},"
	  " \"BUFFER_PG\": {\"Ethernet0,Ethernet8|3\": {\"profile\": \"p\"}}}",
	  "BUFFER_PG.\"Ethernet0,Ethernet8|3\": mixes lossless and lossy PGs (pfc_enable is "
	  "empty); the model has one profile per lossless PG" },
	{ "{\"QUEUE\": {\"Ethernet0,Ethernet4|3\": {\"wred_profile\": \"W\"},"
	  " \"Ethernet4|4\": {\"wred_profile\": \"W\"}},"
	  " \"WRED_PROFILE\": {\"W\": {\"ecn\": \"ecn_all\"}}}",
	  "QUEUE.\"Ethernet4|4\".wred_profile: 3,4 differs from 3 at "
	  "QUEUE.\"Ethernet0,Ethernet4|3\".wred_profile: the model has one ecn.queues per fabric" },
	{ "{\"QUEUE\": {\"Ethernet0\": {}}}",
	  "QUEUE.Ethernet0: expected \"<port>|<list>\", e.g. \"Ethernet0|3-4\"" },
	{ "{\"QUEUE\": {\"Ethernet0|3\": {\"wred_profile\": \"W\", \"pfc_storm\": \"x\"}},"
	  " \"WRED_PROFILE\": {\"W\": {\"ecn\": \"ecn_all\"}}}",
	  "QUEUE.\"Ethernet0|3\".pfc_storm: not modelled" },
	{ "{\"QUEUE\": {\"Ethernet0|3\": {\"wred_profile\": \"W\"}, \"Ethernet8|4\": "
	  "{\"wred_profile\": \"W\"}}, \"WRED_PROFILE\": {\"W\": {\"ecn\": \"ecn_all\"}}}",
	  "QUEUE.\"Ethernet8|4\".wred_profile: 4 differs from 3 at "
	  "QUEUE.\"Ethernet0|3\".wred_profile: the model has one ecn.queues per fabric" },
	{ "{\"BUFFER_PG\": {\"Ethernet0|3-4\": {\"profile\": \"p\"}},"
	  " \"BUFFER_PROFILE\": {\"p\": {\"xoff\": \"1000\"}}}",
	  "BUFFER_PG.\"Ethernet0|3-4\": mixes lossless and lossy PGs (pfc.priorities is 3); the "
	  "model has one profile per lossless PG" },
	{ "{\"PORT_QOS_MAP\": {\"Ethernet0\": {\"pfc_enable\": \"\"}},"
	  " \"BUFFER_PG\": {}, \"PFC_WD\": {\"Ethernet0\": {\"action\": \"drop\"}},"
	  " \"WRED_PROFILE\": {}, \"QUEUE\": {}, \"X\": 1, \"PORT\": {}}",
	  NULL },
};

START_TEST(sonic_bad_text)
{
	const struct bad_file *c = &sonic_bad_text_cases[_i];
	struct scenario *s = tl_scn_new();
	struct scn_error err = { "" };
	char dir[64], path[128], want[1024];

	tl_write_temp(dir, path, "config_db.json", c->file);
	if (c->msg) {
		snprintf(want, sizeof(want), c->msg[0] == ':' ? "%s%s" : "%s: %s", path, c->msg);
		ck_assert_int_eq(scenario_import_sonic(s, path, NULL, &err), -1);
		ck_assert_str_eq(err.msg, want);
	} else {
		/* empty tables turn PFC and ECN off */
		ck_assert_msg(scenario_import_sonic(s, path, NULL, &err) == 0, "%s", err.msg);
		ck_assert_uint_eq(s->pfc_prios, 0);
		ck_assert_uint_eq(s->ecn_queues, 0);
		ck_assert_int_eq(s->pfcwd_enable, 1);
	}
	tl_remove_temp(dir, path);
	tl_unload(s);
}
END_TEST

/* ---- mlx5 in ---- */

START_TEST(mlx5_cc_params)
{
	char *log, line[256];
	struct scenario *s = imported("", NULL, CFG "cc_params.txt", &log);

	ck_assert_int_eq(s->dcqcn.clamp_tgt_rate, 1);
	ck_assert_int_eq(s->dcqcn.clamp_tgt_rate_after_time_inc, 0);
	ck_assert_int_eq(s->dcqcn.rpg_time_reset_ps, 150 * PS_US);
	ck_assert_int_eq(s->dcqcn.rpg_byte_reset_bytes, 16383 * 64);
	ck_assert_uint_eq(s->dcqcn.rpg_threshold, 3);
	ck_assert_int_eq(s->dcqcn.rpg_ai_rate_bps, 20000000);
	ck_assert_int_eq(s->dcqcn.rpg_hai_rate_bps, 100000000);
	ck_assert_uint_eq(s->dcqcn.rpg_min_dec_fac_pct, 25);
	ck_assert_int_eq(s->dcqcn.rpg_min_rate_bps, 10000000);
	ck_assert_int_eq(s->dcqcn.rate_to_set_on_first_cnp_bps, INT64_C(200000000000));
	ck_assert_uint_eq(s->dcqcn.dce_tcp_g, 1020);
	ck_assert_int_eq(s->dcqcn.dce_tcp_rtt_ps, 2 * PS_US);
	ck_assert_int_eq(s->dcqcn.rate_reduce_monitor_period_ps, 8 * PS_US);
	ck_assert_uint_eq(s->dcqcn.initial_alpha_value, 512);
	ck_assert_uint_eq(s->dcqcn.rpg_gd, 12);
	ck_assert_int_eq(s->dcqcn.min_time_between_cnps_ps, 10 * PS_US);
	ck_assert_uint_eq(s->cnp_dscp, 46);
	/* 17 keys set, 3 names read with no key, rp_byte_reset's reading */
	ck_assert_int_eq(count_lines(log, "dcqcn.") + count_lines(log, "qos."), 17);
	ck_assert_int_eq(count_lines(log, "# "), 4);
	snprintf(line, sizeof(line), "\ndcqcn.rpg_ai_rate = 20    # %s:7: rp_ai_rate\n",
		 CFG "cc_params.txt");
	has_line(log, line);
	snprintf(line, sizeof(line), "\ndcqcn.min_time_between_cnps = 10    # %s:19: "
		 "np_min_time_between_cnps\n", CFG "cc_params.txt");
	has_line(log, line);
	free(log);
	tl_unload(s);
}
END_TEST

static const struct bad_file mlx5_bad_cases[] = {
	{ "cc_unknown.txt", ":2: rp_rate_ai: not an mlx5 cc_params name (rp_* and np_* as in "
	  "/sys/kernel/debug/mlx5/<PCI>/cc_params)" },
	{ "cc_typo.txt", ":2: rpg_hai_rate: not an mlx5 cc_params name (did you mean "
	  "rp_hai_rate?)" },
	{ "cc_range.txt", ":2: rp_gd: dcqcn.rpg_gd: 25 out of range (10-20)" },
	{ "cc_value.txt", ":1: rp_time_reset: 300us: expected a non-negative integer (the "
	  "driver's unit)" },
	{ "cc_max_rate.txt", ":1: rp_max_rate: 100000: not modelled (the model's largest rate "
	  "is the line rate (0))" },
	{ "cc_twice.txt", ":3: rp_ai_rate: given twice (line 1)" },
	{ "cc_empty.txt", ": no cc_params value in the file (it is empty or holds only comments): "
	  "nothing to import" },
	{ "no_such_file.txt", ": cannot open (No such file or directory)" },
};

START_TEST(mlx5_bad)
{
	check_bad(&mlx5_bad_cases[_i], scenario_import_mlx5);
}
END_TEST

/* a knob that applies only with DCQCN on: the loader's message */
START_TEST(mlx5_cc_none)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err = { "" };
	char dir[64], path[128], want[512];

	ck_assert_int_eq(scenario_set(s, "nic.cc=none", &err), 0);
	tl_write_temp(dir, path, "cc.txt", "\n  # comment\nrp_gd=12\n");
	snprintf(want, sizeof(want), "%s:3: rp_gd: dcqcn.rpg_gd: only for nic.cc = dcqcn", path);
	ck_assert_int_eq(scenario_import_mlx5(s, path, NULL, &err), -1);
	ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
	tl_remove_temp(dir, path);
	tl_unload(s);
}
END_TEST

/* ---- out ---- */

static char *slurp_file(const char *dir, const char *name)
{
	return tl_slurp(dir, name);
}

static void rm_export(const char *dir)
{
	static const char *const files[] = { "config_db.json", "cc_params.txt", "nic-setup.sh",
					     "nccl.env", "changes.txt", "config_db.patch.json" };
	char p[256];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		unlink(p);
	}
	rmdir(dir);
}

/* export s into a new folder (dir: its path); the log into *log */
static void export_to(const struct scenario *s, char dir[64], char **log)
{
	char err[512] = "", sub[96];
	struct mlog m;

	strcpy(dir, "/tmp/test_config_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	rmdir(dir); /* the export creates it */
	mlog_open(&m);
	snprintf(sub, sizeof(sub), "%s", dir);
	ck_assert_msg(scenario_export(s, sub, m.f, err, sizeof(err)) == 0, "%s", err);
	if (log)
		*log = mlog_close(&m);
	else
		free(mlog_close(&m));
}

/* every mapped key away from its default */
static const char qos_all[] =
	"[buffer]\nsize = 32MB\nreserved = 5000B\ndynamic_th = -2\n"
	"[pfc]\npriorities = 3,4\nheadroom = 120000B\nxon_offset = 9000B\n"
	"[pfcwd]\ndetection_time = 150ms\nrestoration_time = 300ms\npoll_interval = 50ms\n"
	"action = forward\n"
	"[ecn]\nqueues = 3,4\nkmin = 250KB\nkmax = 2MB\npmax = 5%\n"
	"[qos]\ndscp_to_priority = 26:3,24:4,48:6,46:5,0:1\ncnp_dscp = 46\n"
	"[dcqcn]\nrpg_time_reset = 150\nrpg_byte_reset = 16383\nrpg_threshold = 3\n"
	"rpg_ai_rate = 20\nrpg_hai_rate = 100\nrpg_gd = 12\nrpg_min_dec_fac = 25\n"
	"rpg_min_rate = 10\ndce_tcp_g = 1020\ndce_tcp_rtt = 2\n"
	"rate_reduce_monitor_period = 8\ninitial_alpha_value = 512\n"
	"rate_to_set_on_first_cnp = 200000\nclamp_tgt_rate = 1\n"
	"clamp_tgt_rate_after_time_inc = 0\nmin_time_between_cnps = 10\n";
/* PFC, ECN on the lossless queues and the watchdog off */
static const char qos_off[] = "[pfc]\npriorities =\n[pfcwd]\nenable = false\n"
			      "[ecn]\nqueues = 1\nkmin = 10KB\nkmax = 100KB\npmax = 1%\n"
			      "[qos]\ndscp_to_priority = 8:2\n";

static const char *const round_trip_topologies[] = {
	"[topology]\nkind = star\nhosts = 4\n",
	"[topology]\nspines = 2\nleaves = 3\nhosts_per_leaf = 4\n"
	"[job.ar]\npattern = ring-allreduce\nsize = 1MB\n",
};

static void round_trip(const char *topo, const char *qos)
{
	char *text = malloc(strlen(topo) + strlen(qos) + 1), dir[64], p1[160], p2[160];
	struct scenario *a, *b;
	char *pa, *pb;

	strcpy(text, topo);
	strcat(text, qos);
	a = tl_scn_ok(text);
	export_to(a, dir, NULL);
	snprintf(p1, sizeof(p1), "%s/config_db.json", dir);
	snprintf(p2, sizeof(p2), "%s/cc_params.txt", dir);
	b = imported(topo, p1, p2, NULL);
	pa = tl_print(a);
	pb = tl_print(b);
	ck_assert_str_eq(pb, pa);
	free(pa);
	free(pb);
	rm_export(dir);
	tl_unload(a);
	tl_unload(b);
	free(text);
}

START_TEST(round_trip_all_keys)
{
	round_trip(round_trip_topologies[_i], qos_all);
}
END_TEST

START_TEST(round_trip_off)
{
	round_trip(round_trip_topologies[_i], qos_off);
}
END_TEST

/* the exported files, byte for byte where they are short */
START_TEST(export_files)
{
	char *text = malloc(sizeof(qos_all) + 200), dir[64], dir2[64], *log, *a, *b;
	struct scenario *s;
	static const char *const files[] = { "config_db.json", "cc_params.txt", "nic-setup.sh",
					     "nccl.env" };
	struct stat st;
	size_t i;

	strcpy(text, "[topology]\nkind = star\nhosts = 4\n");
	strcat(text, qos_all);
	strcat(text, "[job.a]\npattern = ring-allreduce\nsize = 1MB\nqps_per_connection = 4\n"
		     "channels = 2\nalgorithm = tree\n[nic]\nib_timeout = 18\nib_retry_cnt = 5\n");
	s = tl_scn_ok(text);
	export_to(s, dir, &log);
	export_to(s, dir2, NULL);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		a = slurp_file(dir, files[i]);
		b = slurp_file(dir2, files[i]);
		ck_assert_str_eq(a, b); /* deterministic */
		free(b);
		if (i == 0) {
			ck_assert_ptr_nonnull(strstr(a, "    \"pg_lossless_profile\": {\n"
							"      \"dynamic_th\": \"-2\",\n"
							"      \"pool\": \"ingress_lossless_pool\",\n"
							"      \"size\": \"5000\",\n"
							"      \"xoff\": \"120000\",\n"
							"      \"xon_offset\": \"9000\"\n"));
			ck_assert_ptr_nonnull(strstr(a, "\"Ethernet24|3-4\": {\n"
							"      \"profile\": \"pg_lossless_profile\"\n"));
			ck_assert_ptr_null(strstr(a, "Ethernet32"));
			ck_assert_ptr_nonnull(strstr(a, "\"green_min_threshold\": \"250000\""));
			ck_assert_ptr_nonnull(strstr(a, "\"green_drop_probability\": \"5\""));
			ck_assert_ptr_nonnull(strstr(a, "\"Ethernet8\": {\n"
							"      \"action\": \"forward\",\n"
							"      \"detection_time\": \"150\",\n"
							"      \"restoration_time\": \"300\"\n"));
			ck_assert_ptr_nonnull(strstr(a, "\"POLL_INTERVAL\": \"50\""));
			ck_assert_ptr_nonnull(strstr(a, "\"26\": \"3\",\n"));
			ck_assert_ptr_nonnull(strstr(a, "\"0\": \"1\",\n"));
		} else if (i == 1) {
			ck_assert_ptr_nonnull(strstr(a, "\nrp_clamp_tgt_rate 1\nrp_clamp_tgt_rate_ati 0\n"
							"rp_time_reset 150\nrp_byte_reset 16383\n"
							"rp_threshold 3\nrp_ai_rate 20\nrp_max_rate 0\n"
							"rp_hai_rate 100\nrp_min_dec_fac 25\n"
							"rp_min_rate 10\n"
							"rp_rate_to_set_on_first_cnp 200000\n"
							"rp_dce_tcp_g 1020\nrp_dce_tcp_rtt 2\n"
							"rp_rate_reduce_monitor_period 8\n"
							"rp_initial_alpha_value 512\nrp_gd 12\n"
							"np_min_time_between_cnps 10\nnp_cnp_dscp 46\n"));
		} else if (i == 3) {
			ck_assert_str_eq(a, "# the NCCL environment that x.ini assumes\n"
					    "export NCCL_IB_TC=106    # qos.data_dscp = 26: TOS = "
					    "DSCP x 4 + ECT(0)\n"
					    "export NCCL_IB_TIMEOUT=18    # nic.ib_timeout\n"
					    "export NCCL_IB_RETRY_CNT=5    # nic.ib_retry_cnt\n"
					    "export NCCL_IB_QPS_PER_CONNECTION=4    # "
					    "job.a.qps_per_connection\n"
					    "export NCCL_ALGO=Tree    # job.a.algorithm = tree\n"
					    "export NCCL_MIN_NCHANNELS=2    # job.a.channels\n"
					    "export NCCL_MAX_NCHANNELS=2    # job.a.channels\n");
		}
		free(a);
	}
	snprintf(text, 200, "%s/nic-setup.sh", dir);
	ck_assert_int_eq(stat(text, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0755);
	ck_assert_str_eq(log, "# export: config_db.json: 4 ports, Ethernet0 to Ethernet24 (the "
			      "largest switch's)\n");
	free(log);
	rm_export(dir);
	rm_export(dir2);
	tl_unload(s);
	free(text);
}
END_TEST

/* nic-setup.sh: its dry run prints the writes, one per name */
START_TEST(export_nic_setup_dry_run)
{
	struct scenario *s = tl_scn_ok("[dcqcn]\nrpg_ai_rate = 40\n");
	char dir[64], cmd[256], out[8192];
	size_t n;
	FILE *p;

	export_to(s, dir, NULL);
	snprintf(cmd, sizeof(cmd), "sh %s/nic-setup.sh -n 0000:3b:00.0 0000:3b:00.1", dir);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_int_eq(count_lines(out, "echo "), 2 * 18);
	ck_assert_ptr_nonnull(strstr(out, "echo 0 > /sys/kernel/debug/mlx5/0000:3b:00.0/cc_params/"
					  "rp_clamp_tgt_rate\n"));
	ck_assert_ptr_nonnull(strstr(out, "echo 40 > /sys/kernel/debug/mlx5/0000:3b:00.1/cc_params/"
					  "rp_ai_rate\n"));
	ck_assert_ptr_nonnull(strstr(out, "echo 48 > /sys/kernel/debug/mlx5/0000:3b:00.1/cc_params/"
					  "np_cnp_dscp\n"));
	/* a real write to a device that is not there fails */
	snprintf(cmd, sizeof(cmd), "sh %s/nic-setup.sh 0000:ff:00.7 2>/dev/null", dir);
	ck_assert_int_ne(system(cmd), 0);
	rm_export(dir);
	tl_unload(s);
}
END_TEST

/* values the targets cannot express: what is exported, and the log */
START_TEST(export_inexact)
{
	struct scenario *s = tl_scn_ok("[dcqcn]\nrpg_time_reset = 1.5us\nrpg_ai_rate = 2.5Mbps\n"
				       "[pfcwd]\ndetection_time = 100.4ms\n"
				       "[ecn]\nqueues = 0,3\npmax = 2.5%\n"
				       "[nic]\nrto = 1ms\n");
	char dir[64], *log, *cfg, *cc, *env;
	int64_t host = scenario_headroom_bytes(s, s->host_link_bps, s->host_cable_mm);
	int64_t fab = scenario_headroom_bytes(s, s->fabric_link_bps, s->fabric_cable_mm);
	char want[512];

	export_to(s, dir, &log);
	cfg = slurp_file(dir, "config_db.json");
	cc = slurp_file(dir, "cc_params.txt");
	env = slurp_file(dir, "nccl.env");
	/* auto headroom: the largest per-port value (400G, 30 m fabric cables) */
	ck_assert_int_eq(fab, 85454);
	ck_assert_int_eq(host, 71954);
	ck_assert_ptr_nonnull(strstr(cfg, "\"xoff\": \"85454\""));
	has_line(log, "# export: pfc.headroom = auto: xoff 85454B, the largest per-port value "
		 "(leaf ports to hosts 71954B, leaf ports to spines 85454B, spine ports to leaves "
		 "85454B)");
	has_line(log, "# export: dcqcn.rpg_time_reset: 1500000 is not a whole number of us: "
		 "exported as 2\n");
	has_line(log, "# export: dcqcn.rpg_ai_rate: 2500000 is not a whole number of Mbps: "
		 "exported as 3\n");
	has_line(log, "# export: pfcwd.detection_time: 100400000000 is not a whole number of ms: "
		 "exported as 100\n");
	has_line(log, "# export: ecn.pmax: 25000000 is not a whole number of percent "
		 "(green_drop_probability): exported as 3\n");
	has_line(log, "# export: ecn.queues: queue 0 is not lossless: it gets the same WRED "
		 "profile");
	has_line(log, "# export: nic.rto: NCCL_IB_TIMEOUT=8 (4.096 us x 2^8, the smallest at "
		 "least nic.rto)\n");
	ck_assert_ptr_nonnull(strstr(cc, "\nrp_time_reset 2\n"));
	ck_assert_ptr_nonnull(strstr(cc, "\nrp_ai_rate 3\n"));
	ck_assert_ptr_nonnull(strstr(cfg, "\"detection_time\": \"100\""));
	ck_assert_ptr_nonnull(strstr(cfg, "\"Ethernet0|0\": {\n      \"wred_profile\""));
	snprintf(want, sizeof(want), "export NCCL_IB_TIMEOUT=8    # nic.rto");
	ck_assert_ptr_nonnull(strstr(env, want));
	free(cfg);
	free(cc);
	free(env);
	free(log);
	rm_export(dir);
	tl_unload(s);
}
END_TEST

/* a full config_db.json in, out and in again: the same scenario */
START_TEST(round_trip_from_sonic)
{
	struct scenario *a = imported("", CFG "config_db.json", CFG "cc_params.txt", NULL), *b;
	char dir[64], p1[160], p2[160], *pa, *pb;

	export_to(a, dir, NULL);
	snprintf(p1, sizeof(p1), "%s/config_db.json", dir);
	snprintf(p2, sizeof(p2), "%s/cc_params.txt", dir);
	b = imported("", p1, p2, NULL);
	pa = tl_print(a);
	pb = tl_print(b);
	ck_assert_str_eq(pb, pa);
	free(pa);
	free(pb);
	rm_export(dir);
	tl_unload(a);
	tl_unload(b);
}
END_TEST

/* ---- real configurations: SONiC's own template, the dynamic buffer
 * model, a shared headroom pool, rp_byte_reset's unit, what export keeps
 * and what it would change ---- */

/* scenario_config_notes() of s, in memory */
static char *notes_of(const struct scenario *s)
{
	struct mlog m;

	mlog_open(&m);
	scenario_config_notes(s, m.f);
	return mlog_close(&m);
}

/* SONiC's qos_config.j2 as it renders AZURE_LOSSLESS (yellow and red on,
 * all three colors 1048576-2097152 B at 5%): it imports, green sets ECN,
 * yellow and red are logged as not applying, and one note says why */
START_TEST(sonic_stock_template)
{
	char *log, *notes, line[512];
	struct scenario *s = imported("", CFG "sonic_stock.json", NULL, &log);

	ck_assert_uint_eq(s->pfc_prios, (1u << 3) | (1u << 4));
	ck_assert_uint_eq(s->ecn_queues, (1u << 3) | (1u << 4));
	ck_assert_int_eq(s->ecn_kmin_bytes, 1048576);
	ck_assert_int_eq(s->ecn_kmax_bytes, 2097152);
	ck_assert_int_eq(s->ecn_pmax_ppb, 50000000);
	ck_assert_uint_eq(s->dscp_to_prio[3], 3);
	ck_assert_uint_eq(s->dscp_to_prio[46], 5);
	ck_assert_uint_eq(s->dscp_to_prio[26], 1);
	snprintf(line, sizeof(line), "# %s: WRED_PROFILE.AZURE_LOSSLESS.red_min_threshold: "
		 "1048576: does not apply (RoCE traffic is not colored: all packets are green)\n",
		 CFG "sonic_stock.json");
	has_line(log, line);
	ck_assert_int_eq(count_lines(log, "# " CFG "sonic_stock.json: WRED_PROFILE."
				     "AZURE_LOSSLESS.yellow_"), 3);
	ck_assert_int_eq(count_lines(log, "# " CFG "sonic_stock.json: WRED_PROFILE."
				     "AZURE_LOSSLESS.red_"), 3);
	notes = notes_of(s);
	snprintf(line, sizeof(line), "%s: WRED_PROFILE.AZURE_LOSSLESS: yellow and red "
		 "thresholds do not apply: RoCE traffic is not colored (no policer marks it yellow "
		 "or red), so every packet is green and only the green thresholds mark it\n",
		 CFG "sonic_stock.json");
	ck_assert_str_eq(notes, line);
	free(notes);
	free(log);
	tl_unload(s);
}
END_TEST

/* the dynamic buffer model: refused, saying what to supply */
START_TEST(sonic_dynamic_model)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err = { "" };

	ck_assert_int_eq(scenario_import_sonic(s, CFG "dynamic.json", NULL, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, CFG "dynamic.json: BUFFER_PG.\"Ethernet0|3-4\": no "
				     "headroom profile: the dynamic buffer model "
				     "(DEVICE_METADATA.localhost.buffer_model = dynamic) computes"));
	ck_assert_ptr_nonnull(strstr(err.msg, "`show buffer information`"));
	ck_assert_ptr_nonnull(strstr(err.msg, "BUFFER_PROFILE_TABLE:<name>"));
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	tl_unload(s);
}
END_TEST

/* a shared headroom pool: buffer.size = the pool's size + its xoff,
 * pfc.headroom = the profile's xoff; with over_subscribe_ratio and no pool
 * xoff, xoff = 8 PGs x 96256 B / 2 = 385024 B (SONiC's sizing) */
START_TEST(sonic_shared_headroom)
{
	static const char *const files[] = { "shared_headroom.json",
					     "shared_headroom_ratio.json" };
	static const int64_t xoff[] = { 400000, 385024 }, spread[] = { 50000, 48128 };
	char *log, *notes, want[256];
	struct scenario *s;

	snprintf(want, sizeof(want), CFG "%s", files[_i]);
	s = imported("", want, NULL, &log);
	ck_assert_int_eq(xoff[1], 8 * 96256 / 2);
	ck_assert_int_eq(s->buffer_bytes, 24000000 + xoff[_i]);
	ck_assert_int_eq(s->headroom_bytes, 96256);
	ck_assert_int_eq(s->reserved_bytes, 19456);
	notes = notes_of(s);
	ck_assert_int_eq(count_lines(notes, CFG), 1);
	snprintf(want, sizeof(want), "approximated as buffer.size = the pool's size 24000000B + "
		 "its xoff %" PRId64 "B = %" PRId64 "B and pfc.headroom = the profile's xoff "
		 "96256B per lossless PG", xoff[_i], 24000000 + xoff[_i]);
	has_line(notes, want);
	snprintf(want, sizeof(want), "--set pfc.headroom=%" PRId64 "B\n", spread[_i]);
	has_line(notes, want);
	if (_i == 1)
		has_line(notes, "(8 lossless PGs x xoff 96256B / DEFAULT_LOSSLESS_BUFFER_PARAMETER."
			 "AZURE.over_subscribe_ratio 2 = 385024B)");
	has_line(log, "buffer.size = ");
	free(notes);
	free(log);
	tl_unload(s);
}
END_TEST

/* rp_byte_reset: a bare number is 64-byte units, a B suffix bytes; either
 * reading is a note, which scenario_config_notes() prints */
START_TEST(mlx5_byte_reset_reading)
{
	char *log, *notes, want[512];
	struct scenario *s = imported("", NULL, CFG "cc_byte_reset.txt", &log);

	ck_assert_int_eq(s->dcqcn.rpg_byte_reset_bytes, 32767 * 64);
	ck_assert_int_eq(s->dcqcn.rpg_byte_reset_bytes, 2097088);
	notes = notes_of(s);
	snprintf(want, sizeof(want), "%s:2: rp_byte_reset 32767: read as 64-byte units, the mlx5 "
		 "firmware's unit: 2097088 B (mlxconfig's RPG_BYTE_RESET text says bytes: for "
		 "that reading write rp_byte_reset 32767B in the file, or --set "
		 "dcqcn.rpg_byte_reset=32767B)\n", CFG "cc_byte_reset.txt");
	ck_assert_str_eq(notes, want);
	has_line(log, want);
	free(notes);
	free(log);
	tl_unload(s);

	s = imported("", NULL, CFG "cc_byte_reset_bytes.txt", &log);
	ck_assert_int_eq(s->dcqcn.rpg_byte_reset_bytes, 32767);
	ck_assert_int_eq(s->dcqcn.rpg_ai_rate_bps, 20000000);
	notes = notes_of(s);
	snprintf(want, sizeof(want), "%s:2: rp_byte_reset 32767B: read as bytes (the B suffix); a "
		 "bare number is read as 64-byte units, the mlx5 firmware's unit (2097088 B)\n",
		 CFG "cc_byte_reset_bytes.txt");
	ck_assert_str_eq(notes, want);
	has_line(log, "dcqcn.rpg_byte_reset = 32767B    # ");
	free(notes);
	free(log);
	tl_unload(s);
}
END_TEST

/* no import, or an import with nothing to note: no notes at all */
START_TEST(config_notes_none)
{
	struct scenario *s = tl_scn_ok("");
	char *notes = notes_of(s);

	ck_assert_str_eq(notes, "");
	ck_assert_ptr_null(s->imported);
	free(notes);
	tl_unload(s);
	s = imported("", CFG "wred.json", NULL, NULL);
	notes = notes_of(s);
	ck_assert_str_eq(notes, "");
	free(notes);
	tl_unload(s);
}
END_TEST

/* export after an import: the file's port and entry names, and
 * pfcwd_sw_enable, are kept */
START_TEST(export_keeps_names)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err = { "" };
	char dir[64], path[128], edir[64], *cfg, *log;

	tl_write_temp(dir, path, "config_db.json",
		      "{\"PORT_QOS_MAP\": {\"Ethernet4\": {\"pfc_enable\": \"3\", "
		      "\"pfcwd_sw_enable\": \"3\", \"dscp_to_tc_map\": \"RDMA\"},"
		      " \"Ethernet12\": {\"pfc_enable\": \"3\", \"pfcwd_sw_enable\": \"3\"}},"
		      " \"DSCP_TO_TC_MAP\": {\"RDMA\": {\"26\": \"3\", \"48\": \"6\"}},"
		      " \"BUFFER_PG\": {\"Ethernet4|3\": {\"profile\": \"roce\"},"
		      " \"Ethernet12|3\": {\"profile\": \"roce\"}},"
		      " \"BUFFER_PROFILE\": {\"roce\": {\"pool\": \"lossless\", \"size\": \"9000\","
		      " \"xoff\": \"150000\", \"dynamic_th\": \"1\"}},"
		      " \"BUFFER_POOL\": {\"lossless\": {\"size\": \"30000000\"}},"
		      " \"QUEUE\": {\"Ethernet4|3\": {\"wred_profile\": \"ECN\"}, \"Ethernet12|3\":"
		      " {\"wred_profile\": \"ECN\"}},"
		      " \"WRED_PROFILE\": {\"ECN\": {\"ecn\": \"ecn_all\", \"green_min_threshold\":"
		      " \"100000\", \"green_max_threshold\": \"1000000\"}}}");
	ck_assert_msg(scenario_load_string(s, "x.ini", "[topology]\nkind = star\nhosts = 4\n",
					   &err) == 0, "%s", err.msg);
	ck_assert_msg(scenario_import_sonic(s, path, NULL, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(scenario_finalize(s, &err), 0);
	export_to(s, edir, &log);
	cfg = slurp_file(edir, "config_db.json");
	/* Ethernet4 before Ethernet12 (port order), no generated names */
	ck_assert_ptr_nonnull(strstr(cfg, "\"Ethernet4|3\": {\n      \"profile\": \"roce\"\n"));
	ck_assert_ptr_nonnull(strstr(cfg, "\"Ethernet12|3\": {\n      \"wred_profile\": \"ECN\"\n"));
	ck_assert_ptr_nonnull(strstr(cfg, "\"Ethernet12\": {\n      \"dscp_to_tc_map\": \"RDMA\",\n"
					  "      \"pfc_enable\": \"3\",\n      \"pfc_to_queue_map\": "
					  "\"AZURE\",\n      \"pfcwd_sw_enable\": \"3\",\n"));
	ck_assert_ptr_nonnull(strstr(cfg, "\"lossless\": {\n      \"mode\": \"dynamic\",\n"
					  "      \"size\": \"30000000\""));
	ck_assert_ptr_nonnull(strstr(cfg, "\"pool\": \"lossless\""));
	ck_assert_ptr_null(strstr(cfg, "Ethernet0"));
	ck_assert_ptr_null(strstr(cfg, "Ethernet8"));
	ck_assert_ptr_null(strstr(cfg, "pg_lossless_profile"));
	ck_assert_ptr_null(strstr(cfg, "AZURE_LOSSLESS"));
	ck_assert_ptr_nonnull(strstr(cfg, "\"Ethernet4|3\": {\n      \"wred_profile\": \"ECN\"\n"));
	has_line(log, "# export: config_db.json: the 2 ports of ");
	has_line(log, ", whose names it keeps (the model's largest switch has 4)\n");
	free(cfg);
	free(log);
	rm_export(edir);
	tl_remove_temp(dir, path);
	tl_unload(s);
}
END_TEST

/* changes.txt: an export imported as it is changes nothing; a --set after
 * the import shows as old -> new on the switch and the NIC */
START_TEST(export_changes)
{
	struct scenario *a = tl_scn_ok("[topology]\nkind = star\nhosts = 4\n[dcqcn]\n"
				       "rpg_ai_rate = 20\n[ecn]\nkmin = 300KB\n"), *b;
	char d1[64], d2[64], p1[160], p2[160], *ch, *cfg;
	struct scn_error err = { "" };
	struct stat st;

	export_to(a, d1, NULL);
	snprintf(p1, sizeof(p1), "%s/changes.txt", d1);
	ck_assert_int_ne(stat(p1, &st), 0); /* nothing imported: no changes.txt */
	snprintf(p1, sizeof(p1), "%s/config_db.json", d1);
	snprintf(p2, sizeof(p2), "%s/cc_params.txt", d1);
	b = imported("[topology]\nkind = star\nhosts = 4\n", p1, p2, NULL);
	export_to(b, d2, NULL);
	ch = slurp_file(d2, "changes.txt");
	has_line(ch, "\nswitch: no change (");
	has_line(ch, "\nNIC: no change (18 values as imported)\n");
	free(ch);
	ch = slurp_file(d2, "config_db.patch.json");
	ck_assert_str_eq(ch, "[\n]\n");
	free(ch);
	rm_export(d2);
	tl_unload(b);

	b = tl_scn_new();
	ck_assert_int_eq(scenario_load_string(b, "x.ini", "[topology]\nkind = star\nhosts = 4\n",
					      &err), 0);
	ck_assert_int_eq(scenario_import_sonic(b, p1, NULL, &err), 0);
	ck_assert_int_eq(scenario_import_mlx5(b, p2, NULL, &err), 0);
	ck_assert_int_eq(scenario_set(b, "ecn.kmin=400KB", &err), 0);
	ck_assert_int_eq(scenario_set(b, "dcqcn.rpg_ai_rate=40", &err), 0);
	ck_assert_int_eq(scenario_finalize(b, &err), 0);
	export_to(b, d2, NULL);
	ch = slurp_file(d2, "changes.txt");
	has_line(ch, "\nWRED_PROFILE.AZURE_LOSSLESS.green_min_threshold: 300000 -> 400000\n");
	has_line(ch, "\nrp_ai_rate: 20 -> 40\n");
	has_line(ch, "\n# switch: 1 value changes, ");
	has_line(ch, "\n# NIC: 1 value changes, 17 stay as imported\n");
	ck_assert_ptr_null(strstr(ch, "no change"));
	free(ch);
	rm_export(d2);
	tl_unload(b);

	/* against a file that differs in its keys: port lists and references
	 * compare as SONiC reads them, a field the file lacks is (absent) */
	b = imported("", CFG "lossless.json", NULL, NULL);
	export_to(b, d2, NULL);
	ch = slurp_file(d2, "changes.txt");
	cfg = slurp_file(d2, "config_db.json");
	ck_assert_ptr_nonnull(strstr(cfg, "\"Ethernet8|3\": {\n      \"profile\": "
					  "\"pg_lossless_profile\"\n"));
	ck_assert_ptr_null(strstr(ch, "BUFFER_PG.\"Ethernet8|3\".profile"));
	ck_assert_ptr_null(strstr(ch, "BUFFER_POOL.ingress_lossless_pool.size"));
	has_line(ch, "\nPORT_QOS_MAP.Ethernet0.dscp_to_tc_map: (absent) -> AZURE\n");
	has_line(ch, "# NIC: no cc_params was imported\n");
	free(ch);
	/* the JSON patch: a field of an entry the file has, a table it lacks */
	ch = slurp_file(d2, "config_db.patch.json");
	has_line(ch, "\"op\": \"add\",\n    \"path\": \"/PORT_QOS_MAP/Ethernet0/dscp_to_tc_map\",\n"
		 "    \"value\": \"AZURE\"\n");
	has_line(ch, "\"path\": \"/DSCP_TO_TC_MAP\",\n    \"value\": {\n      \"AZURE\": {\n");
	ck_assert_ptr_null(strstr(ch, "/BUFFER_PG/"));
	free(ch);
	free(cfg);
	rm_export(d2);
	tl_unload(b);
	rm_export(d1);
	tl_unload(a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("config");
	TCase *in = tcase_create("sonic");
	TCase *nic = tcase_create("mlx5");
	TCase *out = tcase_create("export");

	tcase_add_test(in, sonic_full_config_db);
	tcase_add_test(in, sonic_lossless_buffers);
	tcase_add_test(in, sonic_wred);
	tcase_add_test(in, sonic_pfcwd);
	tcase_add_test(in, sonic_no_port_qos_map);
	tcase_add_test(in, sonic_port_lists);
	TL_ADD_CASES(in, sonic_bad);
	TL_ADD_CASES(in, sonic_bad_text);
	tcase_add_test(in, sonic_stock_template);
	tcase_add_test(in, sonic_dynamic_model);
	tcase_add_loop_test(in, sonic_shared_headroom, 0, 2);
	suite_add_tcase(s, in);
	tcase_add_test(nic, mlx5_cc_params);
	TL_ADD_CASES(nic, mlx5_bad);
	tcase_add_test(nic, mlx5_cc_none);
	tcase_add_test(nic, mlx5_byte_reset_reading);
	tcase_add_test(nic, config_notes_none);
	suite_add_tcase(s, nic);
	tcase_add_loop_test(out, round_trip_all_keys, 0, 2);
	tcase_add_loop_test(out, round_trip_off, 0, 2);
	tcase_add_test(out, round_trip_from_sonic);
	tcase_add_test(out, export_files);
	tcase_add_test(out, export_nic_setup_dry_run);
	tcase_add_test(out, export_inexact);
	tcase_add_test(out, export_keeps_names);
	tcase_add_test(out, export_changes);
	suite_add_tcase(s, out);
	return tl_run(s);
}
