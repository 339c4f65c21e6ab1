/*
 * sonic_json.c - the walk of a SONiC config_db.json that sonic.c and the
 * readers of its tables share (internal.h): JSON paths and messages, field
 * values, references between tables, the ports and the values every port
 * must agree on.
 *
 * Source: SONiC's config_db schema (sonic-buildimage
 * src/sonic-yang-models), as `show runningconfiguration all` prints it:
 * values are JSON strings (as SONiC writes them) or integers; keys may list
 * ports ("Ethernet0,Ethernet4|3-4") and references may be "[TABLE|NAME]",
 * as older SONiC templates write them.  sonic.c's opening comment has the
 * mapping and the choices.
 */
#include "models/scenario/configs/internal.h"
#include "models/scenario/loader.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- messages ---- */

int sonic_fail(struct sonic *sn, const char *path, const char *fmt, ...)
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
void sonic_path2(char *out, const char *table, const char *key)
{
	char q[SONIC_PATH_LEN];

	scn_sfmt(out, SONIC_PATH_LEN, "%s.%s", table, pkey(key, q, sizeof(q)));
}

void sonic_path3(char *out, const char *table, const char *key, const char *field)
{
	char q[SONIC_PATH_LEN], r[SONIC_PATH_LEN];

	scn_sfmt(out, SONIC_PATH_LEN, "%s.%s.%s", table, pkey(key, q, sizeof(q)),
		 pkey(field, r, sizeof(r)));
}

void sonic_note(struct sonic *sn, const char *fmt, ...)
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
void sonic_not_read(struct sonic *sn, const char *what)
{
	size_t n = strlen(sn->not_read);

	if (n >= 5 && strcmp(sn->not_read + n - 5, ", ...") == 0)
		return;
	if (n + strlen(what) + 8 < sizeof(sn->not_read))
		scn_sfmt(sn->not_read + n, sizeof(sn->not_read) - n, "%s%s", n ? ", " : "", what);
	else
		scn_sfmt(sn->not_read + n, sizeof(sn->not_read) - n, ", ...");
}

int sonic_cfg_note(struct sonic *sn, const char *fmt, ...)
{
	char msg[1400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (scn_config_note(sn->scn, sn->log, "%s: %s", sn->src, msg))
		return scn_set_error(sn->err, (struct place){ sn->src, 0 }, "out of memory");
	return 0;
}

int sonic_saw_ports(struct sonic *sn, const char *ports, const char *path)
{
	char one[64];
	const char *p = ports;
	int i;

	while (sonic_next_port(&p, one, sizeof(one))) {
		if (strchr(one, '|')) /* a table key would not read back: "PORT|PG" */
			return sonic_fail(sn, path, "%s: a port name holds no '|' (SONiC's key "
					  "separator)", one);
		for (i = 0; i < sn->npnames; i++)
			if (strcmp(sn->pnames[i], one) == 0)
				break;
		if (i < sn->npnames)
			continue;
		if (sn->npnames == SONIC_MAX_PORTS)
			return sonic_fail(sn, path, "more than %d ports", SONIC_MAX_PORTS);
		scn_sfmt(sn->pnames[sn->npnames++], sizeof(sn->pnames[0]), "%s", one);
	}
	return 0;
}

/* ---- values ---- */

/* the text of a field value (a string, number or boolean) into buf */
int sonic_value_text(struct sonic *sn, struct json_object *o, const char *path, char *buf,
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
		return sonic_fail(sn, path, "expected a string or an integer");
	}
}

/* an integer field: digits (a '-' first with neg), at most 10^15 */
int sonic_int_value(struct sonic *sn, struct json_object *o, const char *path, int neg,
		    const char *unit, long long *v)
{
	char buf[128], *end;
	const char *p;

	if (sonic_value_text(sn, o, path, buf, sizeof(buf)))
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
		return sonic_fail(sn, path, "%s: too large", buf);
	return 0;
bad:
	return sonic_fail(sn, path, "%s: expected %s integer (%s)", buf,
			  neg ? "an" : "a non-negative", unit);
}

/* "true" / "false" */
int sonic_bool_value(struct sonic *sn, struct json_object *o, const char *path, int *v)
{
	char buf[64];

	if (sonic_value_text(sn, o, path, buf, sizeof(buf)))
		return -1;
	if (strcmp(buf, "true") == 0 || strcmp(buf, "false") == 0) {
		*v = buf[0] == 't';
		return 0;
	}
	return sonic_fail(sn, path, "%s: expected true or false", buf);
}

/* "3,4" or "3-4" or "" into a bit mask of 0-7 */
int sonic_prio_list(struct sonic *sn, const char *text, const char *path, uint8_t *mask)
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
	return sonic_fail(sn, path, "%s: expected priorities 0-7, e.g. 3,4 or 3-4", text);
}

/* ---- references between tables, and what every port must agree on ---- */

/* note that TABLE.NAME was referenced; 1 the first time */
int sonic_first_use(struct sonic *sn, const char *table, const char *name)
{
	char p[SONIC_PATH_LEN];
	int i;

	sonic_path2(p, table, name);
	for (i = 0; i < sn->nused; i++)
		if (strcmp(sn->used[i], p) == 0)
			return 0;
	if (sn->nused < SONIC_MAX_USED)
		scn_sfmt(sn->used[sn->nused++], SONIC_PATH_LEN, "%s", p);
	return 1;
}

int sonic_was_used(const struct sonic *sn, const char *path)
{
	int i;

	for (i = 0; i < sn->nused; i++)
		if (strcmp(sn->used[i], path) == 0)
			return 1;
	return 0;
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
struct json_object *sonic_deref(struct sonic *sn, const char *table, struct json_object *ref,
				const char *path, char *name, size_t len)
{
	struct json_object *t, *e;
	char text[256], buf[256];

	if (sonic_value_text(sn, ref, path, text, sizeof(text)))
		return NULL;
	scn_sfmt(name, len, "%s", ref_name(text, table, buf, sizeof(buf)));
	if (!json_object_object_get_ex(sn->root, table, &t) ||
	    !json_object_object_get_ex(t, name, &e)) {
		sonic_fail(sn, path, "%s: no such %s", name, table);
		return NULL;
	}
	if (!json_object_is_type(e, json_type_object)) {
		char p[SONIC_PATH_LEN];

		sonic_path2(p, table, name);
		sonic_fail(sn, p, "expected an object of fields");
		return NULL;
	}
	return e;
}

/*
 * Record the value of key k from path: the first port's stays, a later one
 * must agree.  via: the path that led to it (a BUFFER_PG or QUEUE entry),
 * or NULL.
 */
int sonic_agree(struct sonic *sn, enum sonic_key k, const char *value, const char *path,
		const char *via)
{
	struct sonic_agreed *a = &sn->v[k];
	char full[SONIC_PATH_LEN];

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
		return sonic_fail(sn, full, "differs from %s (the model has one %s per fabric)",
				  a->path, sonic_key_names[k]);
	return sonic_fail(sn, full, "%s differs from %s at %s: the model has one %s per fabric",
			  value, a->value, a->path, sonic_key_names[k]);
}

/* ---- ports ---- */

/* the port entry of name, added if new */
struct sonic_port *sonic_port_of(struct sonic *sn, const char *name, const char *path)
{
	int i;

	for (i = 0; i < sn->nports; i++)
		if (strcmp(sn->ports[i].name, name) == 0)
			return &sn->ports[i];
	if (sn->nports == SONIC_MAX_PORTS || strlen(name) >= sizeof(sn->ports[0].name)) {
		sonic_fail(sn, path, "more than %d ports, or a port name too long",
			   SONIC_MAX_PORTS);
		return NULL;
	}
	memset(&sn->ports[sn->nports], 0, sizeof(sn->ports[0]));
	scn_sfmt(sn->ports[sn->nports].name, sizeof(sn->ports[0].name), "%s", name);
	return &sn->ports[sn->nports++];
}

const struct sonic_port *sonic_find_port(const struct sonic *sn, const char *name)
{
	int i;

	for (i = 0; i < sn->nports; i++)
		if (strcmp(sn->ports[i].name, name) == 0)
			return &sn->ports[i];
	return NULL;
}

/* the next port of a key's list ("Ethernet0,Ethernet4", as older SONiC
 * templates write keys); 0 at its end */
int sonic_next_port(const char **p, char *buf, size_t len)
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
int sonic_split_port_key(struct sonic *sn, const char *key, const char *path, char *port,
			 size_t len, uint8_t *mask)
{
	const char *bar = strchr(key, '|');

	if (!bar || bar == key || (size_t)(bar - key) >= len)
		return sonic_fail(sn, path, "expected \"<port>|<list>\", e.g. \"Ethernet0|3-4\"");
	scn_sfmt(port, len, "%.*s", (int)(bar - key), key);
	return sonic_prio_list(sn, bar + 1, path, mask);
}
