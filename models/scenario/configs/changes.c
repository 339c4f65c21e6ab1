/*
 * changes.c - export/changes.txt: what applying the exported config_db.json
 * and cc_params.txt would change on the switch and the NIC, against the
 * configurations the scenario imported (scn_write_changes, internal.h;
 * docs/configs.md#what-changes).
 *
 * Switch: every field the exported fragment writes, TABLE.KEY.field, with
 * the imported file's value at the same place: "old -> new" when they
 * differ, "(absent)" when the imported file has no such field.  An imported
 * key that lists ports ("Ethernet0,Ethernet4|3-4") stands for each of its
 * ports; a reference written "[TABLE|NAME]" equals NAME.  Fields the
 * imported file has and the fragment does not write are not listed: a
 * patch that sets the fragment's fields leaves them as they are.
 * NIC: every cc_params name the export writes, with the imported file's
 * value, "(not in FILE)" when it has none.
 * A side with nothing that differs says "no change".
 * config_db.patch.json: the switch's changes as a JSON patch (RFC 6902) of
 * "add" operations, for SONiC's `config apply-patch`: a field of an entry
 * the switch has, else the whole entry of a table it has, else the whole
 * table ([] when nothing changes).
 */
#include "models/base/files.h"
#include "models/scenario/configs/config.h"
#include "models/scenario/configs/internal.h"
#include "models/scenario/loader.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* whether the port list ports ("A", "A,B") holds port */
static int lists_port(const char *ports, size_t plen, const char *port)
{
	size_t n = strlen(port);
	const char *p = ports, *end = ports + plen;

	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t l = c ? (size_t)(c - p) : (size_t)(end - p);

		if (l == n && strncmp(p, port, n) == 0)
			return 1;
		p += l + 1;
	}
	return 0;
}

/* "3", "3-4", "0,3-4" into a bit mask of 0-7; 0 when it is not one */
static unsigned range_mask(const char *r)
{
	unsigned m = 0;

	while (*r) {
		char *e;
		long a = strtol(r, &e, 10), b = a;

		if (e == r || a < 0 || a > 7)
			return 0;
		if (*e == '-') {
			r = e + 1;
			b = strtol(r, &e, 10);
			if (e == r || b < a || b > 7)
				return 0;
		}
		for (; a <= b; a++)
			m |= 1u << a;
		if (*e != ',' && *e != '\0')
			return 0;
		r = *e ? e + 1 : e;
	}
	return m;
}

/* the value of field that the imported table t gives the exported key:
 * the entry of that key, or the entries whose port lists and ranges cover
 * it ("Ethernet0,Ethernet4|3-4", or "Ethernet0|3" and "Ethernet0|4" for
 * "Ethernet0|3-4") when they agree; NULL when none gives it, and a
 * "(...)" text when they give it in part or differ */
static const char *imported_value(struct json_object *t, const char *key, const char *field)
{
	const char *bar = strchr(key, '|'), *found = NULL;
	char port[128];
	unsigned want, got = 0;

	if (!t || !json_object_is_type(t, json_type_object))
		return NULL;
	scn_sfmt(port, sizeof(port), "%.*s", (int)(bar ? (size_t)(bar - key) : strlen(key)), key);
	want = bar ? range_mask(bar + 1) : 1;
	json_object_object_foreach(t, k, e)
	{
		const char *kb = strchr(k, '|'), *v;
		struct json_object *f;
		unsigned m;

		if ((kb == NULL) != (bar == NULL) ||
		    !lists_port(k, kb ? (size_t)(kb - k) : strlen(k), port))
			continue;
		m = (kb ? range_mask(kb + 1) : 1) & want;
		if (!m || !json_object_is_type(e, json_type_object) ||
		    !json_object_object_get_ex(e, field, &f) ||
		    json_object_is_type(f, json_type_object) || json_object_is_type(f, json_type_array))
			continue;
		v = json_object_get_string(f);
		if (found && strcmp(found, v) != 0)
			return "(differs within the range)";
		found = v;
		got |= m;
	}
	if (found && got != want)
		return "(in part of the range)";
	return found;
}

/* old equals new: the same text, or old "[TABLE|new]" */
static int same_value(const char *old, const char *new_)
{
	size_t n = strlen(old), m = strlen(new_);
	const char *bar = strchr(old, '|');

	if (strcmp(old, new_) == 0)
		return 1;
	return old[0] == '[' && bar && n > m + 2 && old[n - 1] == ']' &&
	       (size_t)(old + n - 1 - (bar + 1)) == m && strncmp(bar + 1, new_, m) == 0;
}

/* "/A/B/C" with '~' and '/' escaped (RFC 6901); c may be NULL, b too */
static void pointer(char *buf, size_t len, const char *a, const char *b, const char *c)
{
	const char *parts[3] = { a, b, c };
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 3 && parts[i] && n + 3 < len; i++) {
		const char *p;

		buf[n++] = '/';
		for (p = parts[i]; *p && n + 3 < len; p++) {
			if (*p == '~' || *p == '/') {
				buf[n++] = '~';
				buf[n++] = *p == '~' ? '0' : '1';
			} else {
				buf[n++] = *p;
			}
		}
		buf[n] = '\0';
	}
}

/* an "add" operation of a JSON patch (RFC 6902: it sets a member that
 * exists, adds one that does not) */
static void add_op(struct json_object *ops, const char *path, struct json_object *value)
{
	struct json_object *op = json_object_new_object();

	json_object_object_add(op, "op", json_object_new_string("add"));
	json_object_object_add(op, "path", json_object_new_string(path));
	json_object_object_add(op, "value", json_object_get(value));
	json_object_array_add(ops, op);
}

/* the switch's lines and, into ops, the JSON patch that makes them: a
 * field of an entry the switch has, else the whole entry of a table it
 * has, else the whole table; *changed, *same counted */
static void switch_changes(FILE *f, struct json_object *in, struct json_object *out,
			   struct json_object *ops, int *changed, int *same)
{
	json_object_object_foreach(out, table, entries)
	{
		struct json_object *it = NULL;
		int table_added = 0;

		if (in)
			json_object_object_get_ex(in, table, &it);
		json_object_object_foreach(entries, key, fields)
		{
			int entry_added = 0;

			json_object_object_foreach(fields, field, val)
			{
				const char *nv = json_object_get_string(val);
				const char *ov = imported_value(it, key, field);
				char path[SONIC_PATH_LEN], ptr[3 * SONIC_PATH_LEN];

				if (ov && same_value(ov, nv)) {
					(*same)++;
					continue;
				}
				(*changed)++;
				sonic_path3(path, table, key, field);
				fprintf(f, "%s: %s -> %s\n", path, ov ? ov : "(absent)", nv);
				if (!it && !table_added++) {
					pointer(ptr, sizeof(ptr), table, NULL, NULL);
					add_op(ops, ptr, entries);
				} else if (it && !json_object_object_get_ex(it, key, NULL)) {
					pointer(ptr, sizeof(ptr), table, key, NULL);
					if (!entry_added++)
						add_op(ops, ptr, fields);
				} else if (it) {
					pointer(ptr, sizeof(ptr), table, key, field);
					add_op(ops, ptr, val);
				}
			}
		}
	}
}

/* config_db.patch.json: ops */
static int write_patch(const char *dir, struct json_object *ops, char *err, size_t errlen)
{
	char path[4200], tmp[4300];
	FILE *f;

	scn_sfmt(path, sizeof(path), "%s/config_db.patch.json", dir);
	f = file_open_aside(path, tmp, sizeof(tmp));
	if (f) {
		fputs(json_object_to_json_string_ext(ops, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_SPACED |
							  JSON_C_TO_STRING_NOSLASHESCAPE),
		      f);
		fputc('\n', f);
	}
	if (!f || file_commit(f, tmp, path)) {
		scn_sfmt(err, errlen, "%s: cannot write (%s)", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* the value text of name in a cc_params text (as mlx5.c reads it) into
 * buf; 0 when the file does not name it */
static int cc_value(const char *text, const char *name, char *buf, size_t len)
{
	const char *l = text;
	size_t nl = strlen(name);

	for (; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *b = l, *e;
		size_t n = strcspn(l, "\n#");

		while (b < l + n && (*b == ' ' || *b == '\t'))
			b++;
		if ((size_t)(l + n - b) <= nl || strncmp(b, name, nl) != 0 ||
		    !(b[nl] == ' ' || b[nl] == '\t' || b[nl] == '='))
			continue;
		b += nl;
		while (b < l + n && (*b == ' ' || *b == '\t' || *b == '='))
			b++;
		for (e = l + n; e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'); e--)
			;
		scn_sfmt(buf, len, "%.*s", (int)(e - b), b);
		return 1;
	}
	return 0;
}

/* the NIC's lines; *changed, *same counted */
static void nic_changes(FILE *f, const struct scenario *s, const int64_t *vals, int *changed,
			int *same)
{
	const struct scn_imported *im = s->imported;
	size_t i;

	for (i = 0; i < scn_mlx5_nparams; i++) {
		char nv[64], ov[64];
		int has;

		if (scn_mlx5_params[i].unit == MLX5_IGNORED)
			continue;
		scn_mlx5_text(s, i, vals[i], nv, sizeof(nv));
		has = cc_value(im->nic_text, scn_mlx5_params[i].name, ov, sizeof(ov));
		if (has && strcmp(ov, nv) == 0) {
			(*same)++;
			continue;
		}
		(*changed)++;
		if (has)
			fprintf(f, "%s: %s -> %s\n", scn_mlx5_params[i].name, ov, nv);
		else
			fprintf(f, "%s: (not in %s) -> %s\n", scn_mlx5_params[i].name, im->nic_path,
				nv);
	}
}

/* one side's summary */
static void summary(FILE *f, const char *side, int changed, int same)
{
	if (changed)
		fprintf(f, "# %s: %d value%s change%s, %d stay%s as imported\n", side, changed,
			changed == 1 ? "" : "s", changed == 1 ? "s" : "", same, same == 1 ? "s" : "");
	else
		fprintf(f, "%s: no change (%d values as imported)\n", side, same);
}

int scn_write_changes(const struct scenario *s, const char *dir, struct json_object *root,
		      const int64_t *vals, char *err, size_t errlen)
{
	const struct scn_imported *im = s->imported;
	struct json_object *ops = NULL;
	char path[4200], tmp[4300];
	int changed = 0, same = 0, rc;
	FILE *f;

	scn_sfmt(path, sizeof(path), "%s/changes.txt", dir);
	f = file_open_aside(path, tmp, sizeof(tmp));
	if (!f) {
		scn_sfmt(err, errlen, "%s: cannot write (%s)", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# what applying config_db.json and cc_params.txt of this folder would "
		   "change, against the imported configurations: PLACE: old -> new\n");
	if (im->switch_text) {
		struct json_object *in = json_tokener_parse(im->switch_text);

		ops = json_object_new_array();
		fprintf(f, "# switch: config_db.json against %s (the same as a JSON patch: "
			   "config_db.patch.json)\n", im->switch_path);
		switch_changes(f, in, root, ops, &changed, &same);
		summary(f, "switch", changed, same);
		json_object_put(in);
	} else {
		fprintf(f, "# switch: no config_db.json was imported\n");
	}
	if (im->nic_text) {
		changed = same = 0;
		fprintf(f, "# NIC: cc_params.txt against %s\n", im->nic_path);
		nic_changes(f, s, vals, &changed, &same);
		summary(f, "NIC", changed, same);
	} else {
		fprintf(f, "# NIC: no cc_params was imported\n");
	}
	if (file_commit(f, tmp, path)) {
		scn_sfmt(err, errlen, "%s: cannot write (%s)", path, strerror(errno));
		json_object_put(ops);
		return -1;
	}
	rc = ops ? write_patch(dir, ops, err, errlen) : 0;
	json_object_put(ops);
	return rc;
}
