/*
 * sonic_buffer.c - the buffers of a SONiC config_db.json: BUFFER_PG, the
 * BUFFER_PROFILE its lossless PGs name and that profile's BUFFER_POOL
 * (sonic_read_buffer_pg; internal.h).
 *
 * Source: SONiC's config_db schema (sonic-buildimage
 * src/sonic-yang-models, the buffer templates of files/build_templates/).
 *   BUFFER_PG."<port>|<pgs>".profile on the port's lossless PGs (its
 *       pfc_enable; with no PORT_QOS_MAP table, the scenario's
 *       pfc.priorities) -> the BUFFER_PROFILE: size -> buffer.reserved,
 *       dynamic_th -> buffer.dynamic_th, xoff -> pfc.headroom, xon_offset ->
 *       pfc.xon_offset; its pool's BUFFER_POOL.<pool>.size -> buffer.size
 *   a lossy PG, or a PG without a profile (the dynamic buffer model), is
 *       listed as not read; a PG entry that mixes lossless and lossy PGs
 *       is an error
 *   xon (an absolute XON level) and the pool's type are logged, not read;
 *       static_th, a static pool and a shared headroom pool (a pool's xoff
 *       other than 0) are errors
 * sonic.c's opening comment has the whole mapping and the choices
 * (xon_offset, not xon; buffer.size from the lossless profile's pool).
 */
#include "models/scenario/configs/internal.h"
#include "models/scenario/loader.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- BUFFER_PG, BUFFER_PROFILE, BUFFER_POOL ---- */

static int read_pool(struct sonic *sn, struct json_object *ref, const char *refpath,
		     const char *via)
{
	struct json_object *pool;
	char name[128], path[SONIC_PATH_LEN], text[64];
	long long v;

	pool = sonic_deref(sn, "BUFFER_POOL", ref, refpath, name, sizeof(name));
	if (!pool)
		return -1;
	sonic_first_use(sn, "BUFFER_POOL", name);
	json_object_object_foreach(pool, field, val)
	{
		sonic_path3(path, "BUFFER_POOL", name, field);
		if (strcmp(field, "size") == 0) {
			if (sonic_int_value(sn, val, path, 0, "bytes", &v))
				return -1;
			scn_sfmt(text, sizeof(text), "%lldB", v);
			if (sonic_agree(sn, SK_BUF_SIZE, text, path, via))
				return -1;
		} else if (strcmp(field, "type") == 0) {
			continue; /* ingress or egress: one pool in the model */
		} else if (strcmp(field, "mode") == 0) {
			if (sonic_value_text(sn, val, path, text, sizeof(text)))
				return -1;
			if (strcmp(text, "dynamic") != 0)
				return sonic_fail(sn, path, "%s: not modelled (the model's "
						  "thresholds are dynamic)", text);
		} else if (strcmp(field, "xoff") == 0) {
			if (sonic_int_value(sn, val, path, 0, "bytes", &v))
				return -1;
			if (v)
				return sonic_fail(sn, path, "%lld: not modelled (a shared "
						  "headroom pool; the model reserves "
						  "pfc.headroom per lossless PG)", v);
		} else {
			return sonic_fail(sn, path, "not modelled");
		}
	}
	return 0;
}

static int read_profile(struct sonic *sn, struct json_object *ref, const char *refpath)
{
	struct json_object *prof;
	char name[128], path[SONIC_PATH_LEN], text[64];
	long long v;
	int first;

	prof = sonic_deref(sn, "BUFFER_PROFILE", ref, refpath, name, sizeof(name));
	if (!prof)
		return -1;
	first = sonic_first_use(sn, "BUFFER_PROFILE", name);
	json_object_object_foreach(prof, field, val)
	{
		static const struct {
			const char *field;
			enum sonic_key k;
		} bytes[] = {
			{ "size", SK_RESERVED },
			{ "xoff", SK_HEADROOM },
			{ "xon_offset", SK_XON_OFFSET },
		};
		size_t i;

		sonic_path3(path, "BUFFER_PROFILE", name, field);
		for (i = 0; i < N_OF(bytes); i++)
			if (strcmp(field, bytes[i].field) == 0)
				break;
		if (i < N_OF(bytes)) {
			if (sonic_int_value(sn, val, path, 0, "bytes", &v))
				return -1;
			scn_sfmt(text, sizeof(text), "%lldB", v);
			if (sonic_agree(sn, bytes[i].k, text, path, refpath))
				return -1;
		} else if (strcmp(field, "dynamic_th") == 0) {
			if (sonic_int_value(sn, val, path, 1, "alpha = 2^dynamic_th", &v))
				return -1;
			scn_sfmt(text, sizeof(text), "%lld", v);
			if (sonic_agree(sn, SK_DYN_TH, text, path, refpath))
				return -1;
		} else if (strcmp(field, "pool") == 0) {
			if (read_pool(sn, val, path, refpath))
				return -1;
		} else if (strcmp(field, "xon") == 0) {
			if (first)
				sonic_note(sn, "%s: not read (the model resumes at "
					   "pfc.xon_offset below the dynamic threshold, "
					   "SONiC's xon_offset)", path);
		} else if (strcmp(field, "static_th") == 0) {
			return sonic_fail(sn, path, "not modelled (the model's lossless thresholds "
					  "are dynamic: dynamic_th)");
		} else {
			return sonic_fail(sn, path, "not modelled");
		}
	}
	return 0;
}

int sonic_read_buffer_pg(struct sonic *sn, struct json_object *t)
{
	json_object_object_foreach(t, key, entry)
	{
		char path[SONIC_PATH_LEN], port[SONIC_PATH_LEN], one[128];
		struct json_object *ref = NULL;
		uint8_t pgs, lossless = 0, odd = 0;
		const char *lp = port;
		int any = 0, all = 1;

		sonic_path2(path, "BUFFER_PG", key);
		if (sonic_split_port_key(sn, key, path, port, sizeof(port), &pgs))
			return -1;
		if (!json_object_is_type(entry, json_type_object))
			return sonic_fail(sn, path, "expected an object of fields");
		while (sonic_next_port(&lp, one, sizeof(one))) {
			const struct sonic_port *pt = sonic_find_port(sn, one);

			lossless = sn->no_pqm ? sn->lossless : pt ? pt->lossless : 0;
			any |= (pgs & lossless) != 0;
			if ((pgs & lossless) != pgs && all) {
				all = 0;
				odd = lossless;
			}
		}
		if (!any) {
			sonic_not_read(sn, path); /* a lossy PG */
			continue;
		}
		if (!all) {
			char l[32];

			scn_prios_text(odd, l, sizeof(l));
			return sonic_fail(sn, path, "mixes lossless and lossy PGs (%s is %s); the "
					  "model has one profile per lossless PG",
					  sn->no_pqm ? "pfc.priorities" : "pfc_enable",
					  l[0] ? l : "empty");
		}
		json_object_object_foreach(entry, field, val)
		{
			char fp[SONIC_PATH_LEN];

			sonic_path3(fp, "BUFFER_PG", key, field);
			if (strcmp(field, "profile") != 0)
				return sonic_fail(sn, fp, "not modelled");
			ref = val;
		}
		if (!ref) {
			sonic_not_read(sn, path); /* no profile: the dynamic buffer model */
			continue;
		}
		sonic_path3(path, "BUFFER_PG", key, "profile");
		if (read_profile(sn, ref, path))
			return -1;
	}
	return 0;
}
