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
 *   a lossy PG is listed as not read; a PG entry that mixes lossless and
 *       lossy PGs is an error; a lossless PG without a profile (the dynamic
 *       buffer model) is an error that says what to supply
 *   xon (an absolute XON level) and the pool's type are logged, not read;
 *       static_th, a static pool and a pool without size are errors; a
 *       shared headroom pool (a pool's xoff, over_subscribe_ratio) is
 *       approximated with a note (sonic_buffer_done)
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

/*
 * A lossless PG whose headroom the switch computes (the dynamic buffer
 * model: no profile, profile "NULL", or a profile of headroom_type
 * dynamic): the numbers are not in config_db.json, and the model will not
 * guess them (SONiC's calculation needs the ASIC's cell size, pipeline
 * latency and MAC/PHY delay from STATE_DB, which the file does not hold),
 * so the message says what to supply.
 */
static int dynamic_headroom(struct sonic *sn, const char *path)
{
	return sonic_fail(sn, path, "no headroom profile: %s computes the lossless "
			  "profiles on the switch (from port speed, cable length and MTU) and "
			  "keeps them out of config_db.json; supply them: for each profile that "
			  "`show buffer information` lists (or sonic-db-cli APPL_DB HGETALL "
			  "BUFFER_PROFILE_TABLE:<name>), add BUFFER_PROFILE.<name> with its size, "
			  "xon, xoff, dynamic_th and pool, name it in the lossless BUFFER_PG "
			  "entries' profile, and give that pool's size (BUFFER_POOL_TABLE)",
			  sn->dynamic_model ? "the dynamic buffer model (DEVICE_METADATA.localhost."
					      "buffer_model = dynamic)" :
					      "SONiC's dynamic buffer model");
}

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
	scn_sfmt(sn->names[SCN_CFG_POOL], sizeof(sn->names[0]), "%s", name);
	json_object_object_foreach(pool, field, val)
	{
		sonic_path3(path, "BUFFER_POOL", name, field);
		if (strcmp(field, "size") == 0) {
			if (sonic_int_value(sn, val, path, 0, "bytes", &v))
				return -1;
			scn_sfmt(text, sizeof(text), "%lldB", v);
			if (sonic_agree(sn, SK_BUF_SIZE, text, path, via))
				return -1;
			sn->pool_size = v;
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
			if (v && sn->pool_xoff && v != sn->pool_xoff)
				return sonic_fail(sn, path, "%lld differs from %lld at %s: the "
						  "model has one buffer per switch", v,
						  sn->pool_xoff, sn->xoff_path);
			sn->pool_xoff = v; /* a shared headroom pool: sonic_buffer_done */
			scn_sfmt(sn->xoff_path, sizeof(sn->xoff_path), "%s", path);
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
	scn_sfmt(sn->names[SCN_CFG_PROFILE], sizeof(sn->names[0]), "%s", name);
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
		} else if (strcmp(field, "headroom_type") == 0) {
			if (sonic_value_text(sn, val, path, text, sizeof(text)))
				return -1;
			if (strcmp(text, "static") != 0)
				return dynamic_headroom(sn, path);
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
		if (ref && sonic_value_text(sn, ref, path, one, sizeof(one)))
			return -1;
		if (!ref || strcmp(one, "NULL") == 0 || strcmp(one, "[BUFFER_PROFILE|NULL]") == 0)
			return dynamic_headroom(sn, path);
		sonic_path3(path, "BUFFER_PG", key, "profile");
		if (read_profile(sn, ref, path) || sonic_saw_ports(sn, port, path))
			return -1;
		for (lp = port; sonic_next_port(&lp, one, sizeof(one));)
			for (int b = 0; b < 8; b++)
				sn->lossless_pgs += (pgs >> b) & 1;
	}
	return 0;
}

/* ---- a shared headroom pool ---- */

/* DEFAULT_LOSSLESS_BUFFER_PARAMETER: over_subscribe_ratio, which sizes the
 * shared headroom pool; default_dynamic_th is for profiles the switch
 * computes, which the import refuses, so it is logged, not read */
int sonic_read_lossless_param(struct sonic *sn, struct json_object *t)
{
	json_object_object_foreach(t, key, entry)
	{
		char path[SONIC_PATH_LEN];
		long long v;

		sonic_path2(path, "DEFAULT_LOSSLESS_BUFFER_PARAMETER", key);
		if (!json_object_is_type(entry, json_type_object))
			return sonic_fail(sn, path, "expected an object of fields");
		json_object_object_foreach(entry, field, val)
		{
			sonic_path3(path, "DEFAULT_LOSSLESS_BUFFER_PARAMETER", key, field);
			if (strcmp(field, "over_subscribe_ratio") != 0) {
				sonic_note(sn, "%s: not read (used by the switch for the profiles "
					   "it computes)", path);
				continue;
			}
			if (sonic_int_value(sn, val, path, 0, "a ratio", &v))
				return -1;
			if (sn->ratio_path[0] && v != sn->ratio)
				return sonic_fail(sn, path, "%lld differs from %lld at %s", v,
						  sn->ratio, sn->ratio_path);
			sn->ratio = v;
			scn_sfmt(sn->ratio_path, sizeof(sn->ratio_path), "%s", path);
		}
	}
	return 0;
}

/*
 * After BUFFER_PG: the lossless pool must have a size, and a shared
 * headroom pool is approximated.  SONiC's shared headroom pool (sonic-net/
 * SONiC doc/qos, "Shared headroom pool design") keeps xoff out of each
 * lossless PG's reserved size and holds it in one pool of
 * BUFFER_POOL.<pool>.xoff bytes beside the pool's size, which the buffer
 * manager sizes as the sum of the lossless PGs' xoff divided by
 * over_subscribe_ratio.  The model reserves pfc.headroom for every lossless
 * PG out of buffer.size, so: pfc.headroom = the profile's xoff (what one PG
 * may take, as on the switch) and buffer.size = size + the pool's xoff (the
 * switch's memory kept); with a ratio and no pool xoff, the pool's xoff is
 * estimated as SONiC sizes it, over the lossless PGs of the file.  A note
 * states the rule and the numbers.
 */
int sonic_buffer_done(struct sonic *sn)
{
	struct sonic_agreed *size = &sn->v[SK_BUF_SIZE];
	long long xoff = sn->pool_xoff, h, n = sn->lossless_pgs, total;
	char how[SONIC_PATH_LEN + 64];

	if (sn->names[SCN_CFG_POOL][0] && sn->pool_size < 0) {
		char path[SONIC_PATH_LEN];

		sonic_path2(path, "BUFFER_POOL", sn->names[SCN_CFG_POOL]);
		return sonic_fail(sn, path, "no size: %s", sn->dynamic_model ?
				  "the dynamic buffer model computes it on the switch; give the "
				  "size that `show buffer information` lists (or sonic-db-cli "
				  "APPL_DB HGETALL BUFFER_POOL_TABLE:<pool>)" :
				  "the model's buffer.size comes from it");
	}
	if ((!xoff && sn->ratio <= 0) || sn->pool_size < 0)
		return 0;
	if (!sn->v[SK_HEADROOM].set) {
		if (xoff)
			return sonic_fail(sn, sn->xoff_path, "%lld: a shared headroom pool, but the "
					  "lossless profile has no xoff (the most one PG may take, "
					  "which the model reserves per PG as pfc.headroom)", xoff);
		sonic_note(sn, "%s: not read (no lossless profile with an xoff to share)",
			   sn->ratio_path);
		return 0;
	}
	h = strtoll(sn->v[SK_HEADROOM].value, NULL, 10);
	if (!xoff) {
		xoff = n * h / sn->ratio;
		scn_sfmt(how, sizeof(how), "%lld lossless PGs x xoff %lldB / %s %lld = %lldB", n, h,
			 sn->ratio_path, sn->ratio, xoff);
	} else {
		scn_sfmt(how, sizeof(how), "%s %lldB", sn->xoff_path, xoff);
	}
	if (!xoff) {
		sonic_note(sn, "%s: not read (no lossless PG with an xoff to share)", sn->ratio_path);
		return 0;
	}
	total = sn->pool_size + xoff;
	if (sonic_cfg_note(sn, "a shared headroom pool (%s), which the model does not have: "
			   "approximated as buffer.size = the pool's size %lldB + its xoff %lldB "
			   "= %lldB and pfc.headroom = the profile's xoff %lldB per lossless PG "
			   "(what one PG may take); the model sets that aside for every lossless "
			   "PG (%lld x %lldB = %lldB on the file's ports) instead of sharing "
			   "%lldB among them; for the pool spread evenly instead, --set "
			   "pfc.headroom=%lldB", how, sn->pool_size, xoff, total, h, n, h, n * h,
			   xoff, n ? xoff / n : xoff))
		return -1;
	scn_sfmt(size->value, sizeof(size->value), "%lldB", total);
	scn_sfmt(how, sizeof(how), "%s + xoff", size->path);
	scn_sfmt(size->path, sizeof(size->path), "%s", how);
	return 0;
}
