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
 *     static pool (mode static) is an error, a pool without size too.
 *   - a shared headroom pool (the pool's xoff, or DEFAULT_LOSSLESS_BUFFER_
 *     PARAMETER over_subscribe_ratio) is approximated, with a note:
 *     buffer.size = size + xoff, pfc.headroom = the profile's xoff
 *     (sonic_buffer.c, docs/configs.md#a-shared-headroom-pool).
 *   - the dynamic buffer model (DEVICE_METADATA.localhost.buffer_model =
 *     dynamic: lossless PGs without a profile, or profile NULL) is refused
 *     with a message that says what to supply: the switch computes those
 *     profiles from ASIC data that config_db.json does not hold.
 *   - only what a lossless PG or an ECN queue uses is read: lossy PGs,
 *     profiles, pools and WRED profiles that no lossless PG or queue names
 *     are listed in one log line each as not read.
 *   - every field of an entry that is read is mapped, checked, ignored
 *     with a log line (listed below), or an error naming its JSON path:
 *       ignored: BUFFER_POOL type; BUFFER_PROFILE xon; QUEUE scheduler;
 *       PFC_WD pfc_stat_history; PFC_WD.GLOBAL BIG_RED_SWITCH "disable";
 *       WRED_PROFILE yellow_* and red_* (with wred_yellow_enable /
 *       wred_red_enable true, as SONiC's qos_config.j2 writes them, each
 *       logged as not applying and a note: RoCE traffic is not colored).
 *       errors: WRED without ECN (drop), static_th, unknown fields.
 *   - notes (scenario_config_notes, config.h): what a reader of the results
 *     must know of how the file was read; export keeps the file's port and
 *     entry names and compares against its text (struct scn_imported).
 *   - every port must agree: a value that differs from the first port's is
 *     an error naming both JSON paths.  Values are compared as the model
 *     takes them (two profiles of equal values agree).
 *   - the other top-level tables (PORT, DEVICE_METADATA, SCHEDULER,
 *     BUFFER_QUEUE, ...) are listed in one log line as not read.
 *   - a value that the loader rejects gives the loader's message after the
 *     JSON path; ecn.kmax above ecn.kmin is checked here, with both paths.
 *
 * The rooms (internal.h): this file parses the file, walks its tables in
 * order and sets the keys; sonic_json.c holds the walk (JSON paths and
 * messages, field values, references, ports and the values they must agree
 * on); sonic_pfc.c reads PORT_QOS_MAP with its maps and PFC_WD,
 * sonic_buffer.c BUFFER_PG with its profiles and pools, sonic_wred.c QUEUE
 * with its WRED profiles.
 */
#include "models/scenario/configs/config.h"
#include "models/scenario/configs/internal.h"
#include "models/scenario/loader.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_JSON_BYTES ((size_t)64 << 20)

const char *const sonic_key_names[SK_COUNT] = {
	"pfc.priorities",  "qos.dscp_to_priority", "buffer.size",
	"buffer.reserved", "buffer.dynamic_th",    "pfc.headroom",
	"pfc.xon_offset",  "ecn.queues",           "ecn.kmin",
	"ecn.kmax",        "ecn.pmax",             "pfcwd.enable",
	"pfcwd.action",    "pfcwd.detection_time", "pfcwd.restoration_time",
	"pfcwd.poll_interval",
};

/* ---- the file ---- */

/* the file's JSON; its text into *text (free it) */
static struct json_object *parse(struct sonic *sn, char **text)
{
	struct json_tokener *tok;
	struct json_object *root = NULL;
	enum json_tokener_error je;
	struct place pl = { sn->src, 0 };
	char *buf, why[128];
	size_t n, i, end;

	buf = sn->text ? strdup(sn->text)
		       : scn_read_text(sn->src, MAX_JSON_BYTES, &n, why, sizeof(why));
	if (sn->text && buf)
		n = strlen(buf);
	else if (sn->text)
		snprintf(why, sizeof(why), "out of memory");
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
			scn_set_error(sn->err, pl,
				      "malformed JSON: text after the top-level object");
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
	*text = buf;
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
	if (sn->v[SK_KMIN].set && sn->v[SK_KMAX].set &&
	    strtoll(sn->v[SK_KMAX].value, NULL, 10) <= strtoll(sn->v[SK_KMIN].value, NULL, 10) &&
	    strcmp(sn->v[SK_ECN_QUEUES].value, "") != 0)
		return sonic_fail(sn, sn->v[SK_KMAX].path, "%s must be above "
				  "green_min_threshold (%s, ecn.kmin)", sn->v[SK_KMAX].value,
				  sn->v[SK_KMIN].value);
	for (k = 0; k < SK_COUNT; k++) {
		char set[600];
		struct scn_error serr;
		const struct sonic_agreed *a = &sn->v[k];

		if (!a->set)
			continue;
		scn_sfmt(set, sizeof(set), "%s=%s", sonic_key_names[k], a->value);
		if (scenario_set(s, set, &serr))
			return sonic_fail(sn, a->path, "%s", scn_loader_words(serr.msg));
		if (sn->log)
			fprintf(sn->log, "%s = %s    # %s: %s\n", sonic_key_names[k], a->value,
				sn->src, a->path);
	}
	return 0;
}

/* the QoS tables, in the order they are read (PORT_QOS_MAP first: the
 * lossless priorities decide which PGs are read) */
static const struct {
	const char *name;
	int (*read)(struct sonic *sn, struct json_object *t);
} tables[] = {
	{ "PORT_QOS_MAP", sonic_read_port_qos_map },
	{ "BUFFER_PG", sonic_read_buffer_pg },
	{ "QUEUE", sonic_read_queue },
	{ "PFC_WD", sonic_read_pfc_wd },
	{ "DEFAULT_LOSSLESS_BUFFER_PARAMETER", sonic_read_lossless_param },
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
			char path[SONIC_PATH_LEN];

			(void)val;
			sonic_path2(path, ref_tables[i], key);
			if (!sonic_was_used(sn, path))
				sonic_not_read(sn, path);
		}
	}
}

/* DEVICE_METADATA.localhost.buffer_model: "dynamic" means the switch
 * computes the lossless profiles (sonic_buffer.c refuses PGs without one) */
static void buffer_model(struct sonic *sn)
{
	struct json_object *t, *h, *m;

	if (json_object_object_get_ex(sn->root, "DEVICE_METADATA", &t) &&
	    json_object_object_get_ex(t, "localhost", &h) &&
	    json_object_is_type(h, json_type_object) &&
	    json_object_object_get_ex(h, "buffer_model", &m) &&
	    json_object_is_type(m, json_type_string))
		sn->dynamic_model = strcmp(json_object_get_string(m), "dynamic") == 0;
}

/* natural port order: Ethernet8 before Ethernet16 */
static int port_cmp(const void *a, const void *b)
{
	const char *x = a, *y = b;
	size_t i = strcspn(x, "0123456789"), j = strcspn(y, "0123456789");
	int c = strncmp(x, y, i < j ? i : j);

	if (c || i != j)
		return c ? c : (i < j ? -1 : 1);
	if (strlen(x + i) != strlen(y + j) && x[i] != '0' && y[j] != '0')
		return strlen(x + i) < strlen(y + j) ? -1 : 1;
	return strcmp(x + i, y + j);
}

/* what export needs of the file (struct scn_imported): its text, the
 * ports in port order, the names of the entries read */
static int keep_switch(struct sonic *sn, struct scenario *s, const char *text)
{
	struct scn_imported *im = scn_imported_of(s);
	int k;

	if (!im || scn_keep_text(&im->switch_path, sn->src) || scn_keep_text(&im->switch_text, text))
		return scn_set_error(sn->err, (struct place){ sn->src, 0 }, "out of memory");
	qsort(sn->pnames, (size_t)sn->npnames, sizeof(sn->pnames[0]), port_cmp);
	free(im->ports);
	im->ports = sn->pnames;
	im->nports = (uint32_t)sn->npnames;
	sn->pnames = NULL;
	im->pfcwd_sw_enable = sn->pfcwd_sw;
	for (k = 0; k < SCN_CFG_NAMES; k++)
		memcpy(im->names[k], sn->names[k], sizeof(im->names[k]));
	return 0;
}

int scenario_import_sonic(struct scenario *s, const char *path, FILE *log,
			  struct scn_error *err)
{
	return scenario_import_sonic_text(s, path, NULL, log, err);
}

char *scenario_read_config(const char *path, int nic, size_t *len, struct scn_error *err)
{
	char why[128];
	char *text = scn_read_text(path, nic ? SCN_MAX_MLX5_BYTES : MAX_JSON_BYTES, len, why,
				   sizeof(why));
	if (!text)
		scn_set_error(err, (struct place){ path, 0 }, "%s", why);
	return text;
}

static int import_sonic(struct scenario *s, const char *path, const char *text0,
		   FILE *log, struct scn_error *err)
{
	struct sonic *sn = calloc(1, sizeof(*sn));
	char others[SONIC_NOTE_LEN] = "", *text = NULL;
	size_t i, n = 0;
	int rc = -1;

	if (!sn)
		return scn_set_error(err, (struct place){ path, 0 }, "out of memory");
	sn->used = calloc(SONIC_MAX_USED, SONIC_PATH_LEN);
	sn->pnames = calloc(SONIC_MAX_PORTS, sizeof(sn->pnames[0]));
	if (!sn->used || !sn->pnames) {
		free(sn->used);
		free(sn->pnames);
		free(sn);
		return scn_set_error(err, (struct place){ path, 0 }, "out of memory");
	}
	sn->src = path;
	sn->text = text0;
	sn->scn = s;
	sn->pool_size = -1;
	sn->log = log;
	sn->lossless = s->pfc_prios;
	sn->err = err;
	sn->root = parse(sn, &text);
	if (!sn->root)
		goto out;
	buffer_model(sn);
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
			sonic_fail(sn, tname, "expected an object of entries");
			goto out;
		}
	}
	if (others[0])
		sonic_note(sn, "not read (not QoS, or not modelled): %s", others);
	int readable = 0;
	for (i = 0; i < N_OF(tables) && tables[i].read; i++)
		readable += json_object_object_get_ex(sn->root, tables[i].name, NULL);
	if (!readable) { /* {}, a config without QoS: nothing would be imported */
		scn_set_error(err, (struct place){ path, 0 },
			      "no table this importer reads (PORT_QOS_MAP, BUFFER_PG, QUEUE, PFC_WD, "
			      "DEFAULT_LOSSLESS_BUFFER_PARAMETER): nothing to import");
		goto out;
	}
	sn->no_pqm = !json_object_object_get_ex(sn->root, "PORT_QOS_MAP", NULL);
	for (i = 0; i < N_OF(tables) && tables[i].read; i++) {
		struct json_object *t;

		if (json_object_object_get_ex(sn->root, tables[i].name, &t) &&
		    tables[i].read(sn, t))
			goto out;
	}
	unused_entries(sn);
	if (sn->not_read[0])
		sonic_note(sn, "not read (no lossless PG or ECN queue uses them): %s",
			   sn->not_read);
	if (sonic_buffer_done(sn) || apply(sn, s) || keep_switch(sn, s, text))
		goto out;
	rc = 0;
out:
	if (sn->root)
		json_object_put(sn->root);
	free(text);
	free(sn->used);
	free(sn->pnames);
	free(sn);
	return rc;
}

/* the keys the file sets are marked as its (scenario.h key_origin) */
int scenario_import_sonic_text(struct scenario *s, const char *path, const char *text0, FILE *log,
			      struct scn_error *err)
{
	s->importing = SCN_FROM_SWITCH_CONFIG;
	int rc = import_sonic(s, path, text0, log, err);
	s->importing = 0;
	return rc;
}
