/*
 * sonic_wred.c - ECN in a SONiC config_db.json: QUEUE and the WRED_PROFILE
 * its queues name (sonic_read_queue; internal.h).
 *
 * Source: SONiC's config_db schema (sonic-buildimage
 * src/sonic-yang-models, the qos templates of files/build_templates/).
 *   QUEUE."<port>|<queues>".wred_profile -> the WRED_PROFILE:
 *       green_min_threshold -> ecn.kmin, green_max_threshold -> ecn.kmax,
 *       green_drop_probability -> ecn.pmax (percent); the queues whose
 *       profile marks green traffic (ecn_all, ecn_green, ecn_green_yellow,
 *       ecn_green_red, with wred_green_enable true) -> ecn.queues; a QUEUE
 *       table without ECN profiles turns ECN off
 *   yellow_* and red_* are logged, not read: with wred_yellow_enable /
 *       wred_red_enable true (as SONiC's qos_config.j2 writes
 *       AZURE_LOSSLESS) each value is logged as not applying, and a note
 *       (scenario_config_notes) says why: RoCE traffic is not colored, every
 *       packet is green; WRED without ECN (drop) is an error; QUEUE
 *       scheduler is logged, not read
 * sonic.c's opening comment has the whole mapping and the choices.
 */
#include "models/scenario/configs/internal.h"
#include "models/scenario/loader.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- QUEUE and WRED_PROFILE ---- */

/*
 * The flags of the WRED profile w (NAME), read before its thresholds since
 * what those mean depends on them: *green = it marks green traffic with
 * ECN, dropping green is an error; colored[0], [1]: yellow, red WRED is on
 * (which does not apply to RoCE traffic: every packet is green).
 */
static int wred_flags(struct sonic *sn, struct json_object *w, const char *name, int *green,
		      int colored[2])
{
	static const char *const colors[] = { "yellow", "red" };
	struct json_object *f;
	char path[SONIC_PATH_LEN], text[64] = "ecn_none (no ecn field)", field[64];
	int en[2] = { 0, 0 }, c;
	const char *ecn = "ecn_none";

	*green = 1;
	if (json_object_object_get_ex(w, "wred_green_enable", &f)) {
		sonic_path3(path, "WRED_PROFILE", name, "wred_green_enable");
		if (sonic_bool_value(sn, f, path, green))
			return -1;
	}
	for (c = 0; c < 2; c++) {
		scn_sfmt(field, sizeof(field), "wred_%s_enable", colors[c]);
		if (json_object_object_get_ex(w, field, &f)) {
			sonic_path3(path, "WRED_PROFILE", name, field);
			if (sonic_bool_value(sn, f, path, &en[c]))
				return -1;
		}
	}
	if (json_object_object_get_ex(w, "ecn", &f)) {
		sonic_path3(path, "WRED_PROFILE", name, "ecn");
		if (sonic_value_text(sn, f, path, text, sizeof(text)))
			return -1;
		if (strcmp(text, "ecn_all") && strcmp(text, "ecn_green") &&
		    strcmp(text, "ecn_green_yellow") && strcmp(text, "ecn_green_red") &&
		    strcmp(text, "ecn_none") && strcmp(text, "ecn_yellow") &&
		    strcmp(text, "ecn_red") && strcmp(text, "ecn_yellow_red"))
			return sonic_fail(sn, path, "%s: expected ecn_none, ecn_green, "
					  "ecn_yellow, ecn_red, ecn_green_yellow, ecn_green_red, "
					  "ecn_yellow_red or ecn_all", text);
		ecn = strncmp(text, "ecn_green", 9) == 0 || strcmp(text, "ecn_all") == 0 ? "green" :
											   "none";
	}
	if (*green && strcmp(ecn, "green") != 0) {
		sonic_path3(path, "WRED_PROFILE", name, "ecn");
		return sonic_fail(sn, path, "%s: not modelled (WRED drops green traffic; the "
				  "model marks ECN only, with ecn_green or ecn_all)", text);
	}
	colored[0] = en[0];
	colored[1] = en[1];
	return 0;
}

/* yellow and red WRED on (SONiC's own template, qos_config.j2, turns both
 * on for AZURE_LOSSLESS): a note, once per profile, that they do not apply */
static int colors_note(struct sonic *sn, const char *name, const int colored[2])
{
	char path[SONIC_PATH_LEN];

	if (!colored[0] && !colored[1])
		return 0;
	sonic_path2(path, "WRED_PROFILE", name);
	return sonic_cfg_note(sn, "%s: %s%s%s thresholds do not apply: RoCE traffic is not "
			      "colored (no policer marks it yellow or red), so every packet is "
			      "green and only the green thresholds mark it", path,
			      colored[0] ? "yellow" : "", colored[0] && colored[1] ? " and " : "",
			      colored[1] ? "red" : "");
}

/*
 * A WRED profile: *on = it marks green traffic with ECN; its thresholds
 * then agree into ecn.kmin, kmax, pmax.  via: the queue's path.
 */
static int read_wred(struct sonic *sn, struct json_object *ref, const char *refpath, int *on)
{
	struct json_object *w;
	char name[128], path[SONIC_PATH_LEN], text[64];
	int green, first, colored[2];
	long long v;

	w = sonic_deref(sn, "WRED_PROFILE", ref, refpath, name, sizeof(name));
	if (!w)
		return -1;
	first = sonic_first_use(sn, "WRED_PROFILE", name);
	if (wred_flags(sn, w, name, &green, colored) || (first && colors_note(sn, name, colored)))
		return -1;
	*on = green;
	if (green)
		scn_sfmt(sn->names[SCN_CFG_WRED], sizeof(sn->names[0]), "%s", name);
	json_object_object_foreach(w, fld, val)
	{
		static const struct {
			const char *field;
			enum sonic_key k;
		} green_th[] = {
			{ "green_min_threshold", SK_KMIN },
			{ "green_max_threshold", SK_KMAX },
			{ "green_drop_probability", SK_PMAX },
		};
		size_t i;

		sonic_path3(path, "WRED_PROFILE", name, fld);
		for (i = 0; i < N_OF(green_th); i++)
			if (strcmp(fld, green_th[i].field) == 0)
				break;
		if (i < N_OF(green_th)) {
			if (!green) {
				if (first)
					sonic_note(sn, "%s: not read (wred_green_enable is false)",
						   path);
				continue;
			}
			if (sonic_int_value(sn, val, path, 0, i == 2 ? "percent" : "bytes", &v))
				return -1;
			scn_sfmt(text, sizeof(text), i == 2 ? "%lld%%" : "%lldB", v);
			if (sonic_agree(sn, green_th[i].k, text, path, refpath))
				return -1;
			continue;
		}
		if (strcmp(fld, "ecn") == 0 || strcmp(fld, "wred_green_enable") == 0 ||
		    strcmp(fld, "wred_yellow_enable") == 0 || strcmp(fld, "wred_red_enable") == 0)
			continue;
		if (strncmp(fld, "yellow_", 7) == 0 || strncmp(fld, "red_", 4) == 0) {
			if (!first)
				continue;
			if (!colored[fld[0] == 'r'])
				sonic_note(sn, "%s: not read (wred_%s_enable is false)", path,
					   fld[0] == 'y' ? "yellow" : "red");
			else if (sonic_value_text(sn, val, path, text, sizeof(text)))
				return -1;
			else
				sonic_note(sn, "%s: %s: does not apply (RoCE traffic is not "
					   "colored: all packets are green)", path, text);
			continue;
		}
		return sonic_fail(sn, path, "not modelled");
	}
	return 0;
}

int sonic_read_queue(struct sonic *sn, struct json_object *t)
{
	int sched_noted = 0, i;

	json_object_object_foreach(t, key, entry)
	{
		char path[SONIC_PATH_LEN], port[SONIC_PATH_LEN], one[128];
		uint8_t queues;
		const char *lp;

		sonic_path2(path, "QUEUE", key);
		if (sonic_split_port_key(sn, key, path, port, sizeof(port), &queues))
			return -1;
		if (!json_object_is_type(entry, json_type_object))
			return sonic_fail(sn, path, "expected an object of fields");
		if (sonic_saw_ports(sn, port, path))
			return -1;
		for (lp = port; sonic_next_port(&lp, one, sizeof(one));) {
			struct sonic_port *pt = sonic_port_of(sn, one, path);

			if (!pt)
				return -1;
			if (!pt->qpath[0])
				scn_sfmt(pt->qpath, sizeof(pt->qpath), "%s", path);
		}
		json_object_object_foreach(entry, field, val)
		{
			int on = 0;

			sonic_path3(path, "QUEUE", key, field);
			if (strcmp(field, "scheduler") == 0) {
				if (!sched_noted++)
					sonic_note(sn, "%s: not read (qos.scheduler and "
						   "qos.dwrr_weights come from the scenario; so "
						   "for every QUEUE entry)", path);
				continue;
			}
			if (strcmp(field, "wred_profile") != 0)
				return sonic_fail(sn, path, "not modelled");
			if (read_wred(sn, val, path, &on))
				return -1;
			for (lp = port; sonic_next_port(&lp, one, sizeof(one));) {
				struct sonic_port *pt = sonic_port_of(sn, one, path);

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
		if (sonic_agree(sn, SK_ECN_QUEUES, text,
				sn->ports[i].wpath[0] ? sn->ports[i].wpath : sn->ports[i].qpath,
				NULL))
			return -1;
	}
	if (!sn->v[SK_ECN_QUEUES].set)
		sonic_agree(sn, SK_ECN_QUEUES, "", "QUEUE", NULL);
	return 0;
}
