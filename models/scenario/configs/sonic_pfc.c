/*
 * sonic_pfc.c - PFC in a SONiC config_db.json: PORT_QOS_MAP with the maps
 * it names, and the PFC watchdog's PFC_WD (sonic_read_port_qos_map,
 * sonic_read_pfc_wd; internal.h).
 *
 * Source: SONiC's config_db schema (sonic-buildimage
 * src/sonic-yang-models, the qos templates of files/build_templates/).
 *   PORT_QOS_MAP.<port>.pfc_enable -> pfc.priorities; dscp_to_tc_map ->
 *       qos.dscp_to_priority (all 64 DSCPs of the DSCP_TO_TC_MAP it names;
 *       a DSCP the map does not list goes to TC 0, as in SONiC);
 *       tc_to_pg_map, tc_to_queue_map, pfc_to_queue_map, pfc_to_pg_map
 *       must be the identity on the port's lossless TCs (TC = priority = PG
 *       = queue in the model); pfcwd_sw_enable must equal pfc_enable (the
 *       model's watchdog watches every lossless priority)
 *   PFC_WD.<port>: action, detection_time, restoration_time (ms) ->
 *       pfcwd.*; PFC_WD.GLOBAL.POLL_INTERVAL -> pfcwd.poll_interval;
 *       pfcwd.enable = true when a port has an entry, false when none has;
 *       pfc_stat_history and BIG_RED_SWITCH "disable" are logged, not read
 * sonic.c's opening comment has the whole mapping and the choices.
 */
#include "models/scenario/configs/internal.h"
#include "models/scenario/loader.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- PORT_QOS_MAP and the maps it names ---- */

/* map table: a TC (or priority) -> a PG (or queue) map must be the
 * identity on the lossless TCs */
static int check_identity(struct sonic *sn, const char *table, struct json_object *ref,
			  const char *refpath, uint8_t lossless, enum scn_cfg_name slot)
{
	struct json_object *m, *e;
	char name[128], key[4], path[SONIC_PATH_LEN];
	long long v;
	int p;

	m = sonic_deref(sn, table, ref, refpath, name, sizeof(name));
	if (!m)
		return -1;
	if (slot < SCN_CFG_NAMES)
		scn_sfmt(sn->names[slot], sizeof(sn->names[0]), "%s", name);
	for (p = 0; p < 8; p++) {
		if (!(lossless & (1u << p)))
			continue;
		scn_sfmt(key, sizeof(key), "%d", p);
		sonic_path3(path, table, name, key);
		if (!json_object_object_get_ex(m, key, &e))
			return sonic_fail(sn, path, "missing: lossless TC %d must map to %d "
					  "(the model takes TC = priority = PG = queue)", p, p);
		if (sonic_int_value(sn, e, path, 0, "a number 0-7", &v))
			return -1;
		if (v != p)
			return sonic_fail(sn, path, "%lld: not the identity on lossless TC %d "
					  "(the model takes TC = priority = PG = queue)", v, p);
	}
	return 0;
}

static int read_dscp_map(struct sonic *sn, struct json_object *ref, const char *refpath)
{
	struct json_object *m;
	char name[128], path[SONIC_PATH_LEN], mpath[SONIC_PATH_LEN], text[400];
	int map[64] = { 0 }, d;
	size_t n = 0;

	m = sonic_deref(sn, "DSCP_TO_TC_MAP", ref, refpath, name, sizeof(name));
	if (!m)
		return -1;
	sonic_first_use(sn, "DSCP_TO_TC_MAP", name);
	scn_sfmt(sn->names[SCN_CFG_DSCP_MAP], sizeof(sn->names[0]), "%s", name);
	sonic_path2(mpath, "DSCP_TO_TC_MAP", name);
	json_object_object_foreach(m, key, val)
	{
		long long dscp, tc;
		char *end;

		sonic_path3(path, "DSCP_TO_TC_MAP", name, key);
		errno = 0;
		dscp = strtoll(key, &end, 10);
		if (!is_digit(key[0]) || *end || dscp > 63)
			return sonic_fail(sn, path, "expected a DSCP 0-63 as the key");
		if (sonic_int_value(sn, val, path, 0, "a TC 0-7", &tc))
			return -1;
		if (tc > 7)
			return sonic_fail(sn, path, "%lld: expected a TC 0-7 (the model takes TC = "
					  "priority)", tc);
		map[dscp] = (int)tc;
	}
	text[0] = '\0';
	for (d = 0; d < 64; d++)
		n += (size_t)scn_sfmt(text + n, sizeof(text) - n, "%s%d:%d", d ? "," : "", d,
				      map[d]);
	return sonic_agree(sn, SK_DSCP_MAP, text, mpath, refpath);
}

int sonic_read_port_qos_map(struct sonic *sn, struct json_object *t)
{
	json_object_object_foreach(t, pname, entry)
	{
		struct json_object *f;
		char path[SONIC_PATH_LEN], text[128], one[128];
		int global = strcmp(pname, "global") == 0;
		const char *lp = pname;
		uint8_t wd, lossless = 0;

		sonic_path2(path, "PORT_QOS_MAP", pname);
		if (!json_object_is_type(entry, json_type_object))
			return sonic_fail(sn, path, "expected an object of fields");
		/* pfc_enable first: the maps are checked on the lossless TCs */
		if (!global) {
			text[0] = '\0';
			sonic_path3(path, "PORT_QOS_MAP", pname, "pfc_enable");
			if (json_object_object_get_ex(entry, "pfc_enable", &f) &&
			    sonic_value_text(sn, f, path, text, sizeof(text)))
				return -1;
			if (sonic_prio_list(sn, text, path, &lossless))
				return -1;
			scn_prios_text(lossless, text, sizeof(text));
			if (sonic_agree(sn, SK_PFC_PRIOS, text, path, NULL))
				return -1;
			while (sonic_next_port(&lp, one, sizeof(one))) {
				struct sonic_port *pt = sonic_port_of(sn, one, path);

				if (!pt)
					return -1;
				pt->lossless = lossless;
			}
			if (sonic_saw_ports(sn, pname, path))
				return -1;
		}
		json_object_object_foreach(entry, field, val)
		{
			static const char *const idmaps[][2] = {
				{ "tc_to_pg_map", "TC_TO_PRIORITY_GROUP_MAP" },
				{ "tc_to_queue_map", "TC_TO_QUEUE_MAP" },
				{ "pfc_to_queue_map", "MAP_PFC_PRIORITY_TO_QUEUE" },
				{ "pfc_to_pg_map", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP" },
			};
			static const enum scn_cfg_name slots[] = {
				SCN_CFG_TC_PG, SCN_CFG_TC_QUEUE, SCN_CFG_PFC_QUEUE, SCN_CFG_NAMES
			};
			size_t i;

			sonic_path3(path, "PORT_QOS_MAP", pname, field);
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
				if (check_identity(sn, idmaps[i][1], val, path, lossless, slots[i]))
					return -1;
				continue;
			}
			if (!global && strcmp(field, "pfcwd_sw_enable") == 0) {
				if (sonic_value_text(sn, val, path, text, sizeof(text)) ||
				    sonic_prio_list(sn, text, path, &wd))
					return -1;
				if (wd != lossless) {
					char want[32];

					scn_prios_text(lossless, want, sizeof(want));
					return sonic_fail(sn, path, "%s: not modelled (the model's "
							  "watchdog watches every lossless "
							  "priority: pfc_enable is %s)",
							  text, want[0] ? want : "empty");
				}
				sn->pfcwd_sw = 1; /* export keeps it */
				continue;
			}
			return sonic_fail(sn, path, "not modelled");
		}
	}
	return 0;
}

/* ---- PFC_WD ---- */

int sonic_read_pfc_wd(struct sonic *sn, struct json_object *t)
{
	struct json_object *poll = NULL;
	char ppath[SONIC_PATH_LEN] = "", first[SONIC_PATH_LEN] = "";
	int ports = 0;

	json_object_object_foreach(t, key, entry)
	{
		char path[SONIC_PATH_LEN], text[64];

		sonic_path2(path, "PFC_WD", key);
		if (!json_object_is_type(entry, json_type_object))
			return sonic_fail(sn, path, "expected an object of fields");
		if (strcmp(key, "GLOBAL") == 0) {
			json_object_object_foreach(entry, field, val)
			{
				sonic_path3(path, "PFC_WD", key, field);
				if (strcmp(field, "POLL_INTERVAL") == 0) {
					poll = val;
					scn_sfmt(ppath, sizeof(ppath), "%s", path);
				} else if (strcmp(field, "BIG_RED_SWITCH") == 0) {
					if (sonic_value_text(sn, val, path, text, sizeof(text)))
						return -1;
					if (strcmp(text, "disable") != 0)
						return sonic_fail(sn, path, "%s: not modelled (a "
								  "pause storm forced on every "
								  "port)", text);
				} else {
					return sonic_fail(sn, path, "not modelled");
				}
			}
			continue;
		}
		if (!ports++)
			scn_sfmt(first, sizeof(first), "%s", path);
		if (sonic_saw_ports(sn, key, path))
			return -1;
		json_object_object_foreach(entry, field, val)
		{
			static const struct {
				const char *field;
				enum sonic_key k;
			} ms[] = {
				{ "detection_time", SK_WD_DETECT },
				{ "restoration_time", SK_WD_RESTORE },
			};
			long long v;
			size_t i;

			sonic_path3(path, "PFC_WD", key, field);
			for (i = 0; i < N_OF(ms); i++)
				if (strcmp(field, ms[i].field) == 0)
					break;
			if (i < N_OF(ms)) {
				if (sonic_int_value(sn, val, path, 0, "ms", &v))
					return -1;
				scn_sfmt(text, sizeof(text), "%lldms", v);
				if (sonic_agree(sn, ms[i].k, text, path, NULL))
					return -1;
			} else if (strcmp(field, "action") == 0) {
				if (sonic_value_text(sn, val, path, text, sizeof(text)) ||
				    sonic_agree(sn, SK_WD_ACTION, text, path, NULL))
					return -1;
			} else if (strcmp(field, "pfc_stat_history") == 0) {
				if (ports == 1)
					sonic_note(sn, "%s: not read (statistics only)", path);
			} else {
				return sonic_fail(sn, path, "not modelled");
			}
		}
	}
	if (sonic_agree(sn, SK_WD_ENABLE, ports ? "true" : "false",
			ports ? first : "PFC_WD (no port entry)", NULL))
		return -1;
	if (poll && ports) {
		long long v;
		char text[64];

		if (sonic_int_value(sn, poll, ppath, 0, "ms", &v))
			return -1;
		scn_sfmt(text, sizeof(text), "%lldms", v);
		sonic_agree(sn, SK_WD_POLL, text, ppath, NULL);
	} else if (poll) {
		sonic_note(sn, "%s: not read (no port has a watchdog)", ppath);
	}
	return 0;
}
