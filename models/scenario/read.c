/*
 * read.c - reading a scenario: the state of one file or one --set (struct
 * load), sections and keys as they come, the inih adaptation,
 * scenario_load_string(), scenario_load_file() and scenario_set(), and the
 * same with a forced fabric (scn_load_text, scn_load_path, scn_set_one)
 * that configs/open.c builds scenario_load_inputs() on.  Its messages go
 * through errors.c.
 *
 * How a file is read
 *   ini_parse_stream() is fed by our own reader (read_line), which sees
 *   every raw line before inih does.  Debian 12's inih is built with
 *   INI_HANDLER_LINENO 0, INI_MAX_LINE 200, INI_ALLOW_MULTILINE 1 and ';' as
 *   the only inline comment; the reader adapts it to docs/contract.md#scenario-files:
 *     - it counts lines, so the handler knows the line of the key it gets;
 *     - it strips leading white space, so an indented line is never glued
 *       onto the previous value as an inih continuation line: an indented
 *       key is an ordinary key, a stray indented word is a syntax error;
 *     - it strips inline comments: '#' or ';' preceded by white space (a
 *       value cannot contain " #" or " ;");
 *     - it checks [section] lines itself, so an unknown or malformed section
 *       is an error even when no key follows, and it reports every line that
 *       inih would reject, in line order, with the reason;
 *     - a key line longer than INI_MAX_LINE - 1 characters (comments and
 *       indentation stripped), up to LONG_LINE_MAX, is split and applied
 *       by the reader itself (inih gets an empty line), so that everything
 *       the loader prints loads back; a longer line is an error;
 *     - after the first error it returns NULL, which ends the parse.
 *   An unknown section or key, a job or fault a --set names that does not
 *   exist, and an enum value that is not valid get a "did you mean" when
 *   one name is close (keyhelp.h).
 *   Section and key names are case-sensitive.  A section given twice in one
 *   file is an error (like a key given twice), [job.NAME] and [fault.NAME]
 *   included.
 */
#include "models/scenario/keyhelp.h"
#include "models/scenario/loader.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FILE_BYTES (16L * 1024 * 1024) /* a scenario file */
#define LONG_LINE_MAX 16384 /* a key line, comments stripped */

#define SECTION_LIST                                                         \
	"sim, topology, qos, nic, job.NAME, buffer, pfc, pfcwd, ecn, dcqcn, " \
	"fault.NAME, output, criteria, fabric, ib, tcp"

/* ---- the state of one file or one --set ---- */

static struct load *load_new(struct scenario *s, const char *src,
			     struct scn_error *err)
{
	struct load *ld = calloc(1, sizeof(*ld));

	if (!ld) {
		struct place pl = { src, 0 };
		scn_set_error(err, pl, "out of memory");
		return NULL;
	}
	ld->s = s;
	ld->err = err;
	ld->src = src;
	ld->sec = -1;
	ld->item = -1;
	ld->forced_fabric = -1;
	if (err)
		err->msg[0] = '\0';
	return ld;
}

/* the folder of a scenario name, with its final '/', or "" */
static int set_dir(struct load *ld, const char *name)
{
	const char *slash = strrchr(name, '/');

	if (!slash) {
		ld->dir[0] = '\0';
		return 0;
	}
	return copy_range(ld->dir, sizeof(ld->dir), name, slash + 1);
}

static int valid_name(const char *name)
{
	size_t n = strlen(name), i;

	if (n < 1 || n >= SCN_NAME_LEN)
		return 0;
	for (i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      is_digit(c) || c == '-' || c == '_'))
			return 0;
	}
	return 1;
}

/* the index of job or fault `name` in named section sec, or -1 */
static int item_index(const struct scenario *s, int sec, const char *name)
{
	uint32_t i;

	for (i = 0; i < item_count(s, sec); i++)
		if (strcmp(item_name(s, sec, (int)i), name) == 0)
			return (int)i;
	return -1;
}

/* the job or fault of named section sec whose name is close to name, or NULL */
static const char *guess_item(const struct scenario *s, int sec, const char *name)
{
	struct scn_guess g;
	uint32_t i;

	scn_guess_init(&g, name, strlen(name));
	for (i = 0; i < item_count(s, sec); i++)
		scn_guess_add(&g, item_name(s, sec, (int)i));
	return scn_guess_best(&g);
}

/*
 * Make `name` (a section name as written, trimmed) the current section.
 * label is how messages show it ("[name]" in a file, "name.key" for --set).
 * A new [job.NAME] or [fault.NAME] is created for a file's header (key NULL)
 * or for a --set of its selecting key (pattern, kind).
 */
static int enter_section(struct load *ld, const char *name, const char *label,
			 const char *key)
{
	const char *dot = strchr(name, '.');
	size_t len = dot ? (size_t)(dot - name) : strlen(name);
	int i, sec = -1;

	for (i = 0; i < SEC_COUNT; i++)
		if (strlen(scn_section_defs[i].name) == len &&
		    strncmp(scn_section_defs[i].name, name, len) == 0)
			sec = i;
	if (sec < 0 || (!scn_section_defs[sec].named && dot)) {
		int near = sec < 0 ? scn_guess_section(name, len) : -1;

		if (near < 0)
			return scn_fail(ld, "%s: unknown section (" SECTION_LIST ")", label);
		/* the label with the section's name mended: [topology], topology.spines */
		if (ld->line > 0)
			return scn_fail(ld, "%s: unknown section (" SECTION_LIST "); did you mean [%s%s]?",
					label, scn_section_defs[near].name, name + len);
		return scn_fail(ld, "%s: unknown section (" SECTION_LIST "); did you mean %s%s.%s?",
				label, scn_section_defs[near].name, name + len, key);
	}
	if (scn_section_defs[sec].named && !dot)
		return scn_fail(ld, "%s: needs a name: [%s.NAME]", label, name);
	if (dot && !valid_name(dot + 1))
		return scn_fail(ld, "%s: name must be 1-%d letters, digits, '-' or '_'",
				label, SCN_NAME_LEN - 1);

	ld->sec = sec;
	ld->item = -1;
	memcpy(ld->secname, name, strlen(name) + 1); /* <= 5 + 1 + 31 chars */

	if (scn_section_defs[sec].named) {
		struct scenario *s = ld->s;
		const char *what = sec == SEC_FAULT ? "fault" : "job";
		int max = sec == SEC_FAULT ? SCN_MAX_FAULTS : SCN_MAX_JOBS;
		int j = item_index(s, sec, dot + 1);

		if (j < 0) {
			if (key && strcmp(key, scn_section_defs[sec].selector) != 0) {
				const char *near = guess_item(s, sec, dot + 1);

				if (!near)
					return scn_fail(ld, "%s: no %s %s yet (give %s.%s first)", label,
							what, dot + 1, name,
							scn_section_defs[sec].selector);
				return scn_fail(ld, "%s: no %s %s; did you mean %s.%s? (to create a new %s give %s.%s first)",
						label, what, dot + 1, what, near, what, name,
						scn_section_defs[sec].selector);
			}
			if (item_count(s, sec) >= (uint32_t)max)
				return scn_fail(ld, "%s: too many %ss (at most %d)", label, what,
						max);
			if (sec == SEC_FAULT) {
				j = (int)s->nfaults++;
				scn_fault_init(&s->faults[j], dot + 1, ld->line);
			} else {
				j = (int)s->njobs++;
				scn_job_init(&s->jobs[j], dot + 1, ld->line);
			}
		} else if (ld->line > 0) {
			if (*hdr_slot(ld, sec, j))
				return scn_fail(ld, "%s: section given twice (first at line %d)",
						label, *hdr_slot(ld, sec, j));
			if (sec == SEC_FAULT)
				s->faults[j].line = ld->line;
			else
				s->jobs[j].line = ld->line;
		}
		if (ld->line > 0)
			*hdr_slot(ld, sec, j) = ld->line;
		ld->item = j;
	} else if (!scn_section_defs[sec].named && ld->line > 0) {
		if (ld->sec_line[sec])
			return scn_fail(ld, "%s: section given twice (first at line %d)",
					label, ld->sec_line[sec]);
		ld->sec_line[sec] = ld->line;
	}
	return 0;
}

/*
 * An enum value that is not valid but close to a valid one (ring-allreduse):
 * the suggestion goes after values.c's message, which lists them all.
 */
static void enum_suggestion(struct load *ld, const struct key_def *k, const char *value)
{
	const char *near;
	size_t n;

	if (k->type != KT_ENUM || !ld->err)
		return;
	for (size_t i = 0; k->later && k->later[i]; i++)
		if (strcmp(value, k->later[i]) == 0)
			return; /* known, not implemented: the message says so */
	near = scn_guess_name(k->names, value);
	n = strlen(ld->err->msg);
	if (near)
		snprintf(ld->err->msg + n, sizeof(ld->err->msg) - n, "; did you mean %s?", near);
}

/* scenario_inputs.fabric: the fabric the scenario loads as, and where
 * the keys skipped for it are named */
static void force_fabric(struct load *ld, const struct scenario_inputs *in)
{
	if (!in || !in->fabric)
		return;
	ld->forced_fabric = ld->s->fabric_type;
	ld->skip_log = in->log;
}

/* a key the forced fabric skips (1), named on the log; 0: not skipped */
static int skip_foreign(struct load *ld, const char *full, const struct key_def *k)
{
	const char *why;

	if (ld->forced_fabric < 0)
		return 0;
	if (k == scn_key_def_of(SEC_FABRIC, "type"))
		why = "the fabric is chosen for the comparison";
	else if (!(why = scn_fabric_foreign(k, (enum scn_fabric)ld->forced_fabric)))
		return 0;
	if (ld->skip_log) {
		const char *const *names = scn_key_def_of(SEC_FABRIC, "type")->names;
		if (ld->line > 0)
			fprintf(ld->skip_log, "%s: %s:%d: %s skipped (%s)\n", names[ld->forced_fabric],
				ld->src, ld->line, full, why);
		else
			fprintf(ld->skip_log, "%s: --set %s skipped (%s)\n", names[ld->forced_fabric],
				full, why);
	}
	return 1;
}

/* `name = value` in the current section: the handler's and --set's work;
 * 1 when the forced fabric skips it */
static int apply_key(struct load *ld, const char *name, const char *value)
{
	const struct section_def *sd = &scn_section_defs[ld->sec];
	enum scn_dcqcn_profile old_profile;
	char full[128];
	int ki, *slot;
	void *base;

	snprintf(full, sizeof(full), "%s.%s", ld->secname, name);
	ki = scn_find_key((enum sec_id)ld->sec, name);
	if (ki < 0) {
		char hint[160];

		scn_key_suggestion(ld->sec, ld->secname, name, hint, sizeof(hint));
		return scn_fail(ld, "%s: unknown key%s", full, hint);
	}
	if (!sd->implemented || scn_key_defs[ki].type == KT_TODO)
		return scn_fail(ld, "%s: not implemented yet", full);
	if (skip_foreign(ld, full, &scn_key_defs[ki]))
		return 1;

	slot = line_slot(ld, ld->sec, ld->item, ki);
	if (ld->line > 0 && *slot)
		return scn_fail(ld, "%s: given twice (first at line %d)", full, *slot);
	base = ld->item >= 0 ? item_base(ld->s, ld->sec, ld->item) : (void *)ld->s;
	old_profile = ld->s->dcqcn_profile;
	if (scn_parse_value(ld, full, &scn_key_defs[ki], base, value)) {
		enum_suggestion(ld, &scn_key_defs[ki], value);
		return -1;
	}
	if (&scn_key_defs[ki] == scn_key_def_of(SEC_DCQCN, "profile"))
		scn_apply_profile(ld, old_profile);
	*slot = ld->line > 0 ? ld->line : -1;
	if (ld->item < 0) {
		ld->s->key_line[ki] = ld->line > 0 ? ld->line : 0;
		ld->s->key_origin[ki] = ld->line > 0 ? SCN_FROM_FILE
					: ld->s->importing ? ld->s->importing
							   : SCN_FROM_SET;
	}
	return 0;
}

/* ---- reading INI text ---- */

/* turn a raw line into what inih gets; check [section] and syntax */
static int classify_line(struct load *ld, const char *line)
{
	const char *close, *b, *e, *p;
	char name[INI_MAX_LINE + 1], label[64];

	if (line[0] == '\0')
		return 0;
	if (line[0] == '[') {
		close = strchr(line, ']');
		if (!close)
			return scn_fail(ld, "%s: missing ']'", line);
		if (close[1] != '\0')
			return scn_fail(ld, "%s: unexpected text after ']'", line);
		b = line + 1;
		e = close;
		trim_range(&b, &e);
		if (copy_range(name, sizeof(name), b, e))
			return scn_fail(ld, "line too long");
		snprintf(label, sizeof(label), strlen(name) > 40 ? "[%.37s...]" : "[%s]",
			 name);
		return enter_section(ld, name, label, NULL);
	}
	/* a key line: inih needs '=' or ':' (comments are already stripped) */
	for (p = line; *p && *p != '=' && *p != ':'; p++)
		;
	if (*p == '\0' || p == line)
		return scn_fail(ld, "%s: expected key = value, [section] or a comment", line);
	return 0;
}

/*
 * A key line longer than inih's INI_MAX_LINE (a long dscp_to_priority, a
 * trace path): split at the first '=' or ':' as inih would, both sides
 * trimmed, and applied here.  What the loader prints always loads back.
 */
static int on_key(void *user, const char *section, const char *name, const char *value);

static int long_key_line(struct load *ld, const char *b, size_t n)
{
	char *line = malloc(n + 1);
	if (!line)
		return scn_fail(ld, "out of memory");
	memcpy(line, b, n);
	line[n] = '\0';
	int rc = -1;
	char *p = line + strcspn(line, "=:");
	if (line[0] == '[' || *p == '\0' || p == line) {
		scn_fail(ld, "%.40s...: expected key = value, [section] or a comment", line);
	} else {
		const char *kb = line, *ke = p, *vb = p + 1, *ve = line + n;
		trim_range(&kb, &ke);
		trim_range(&vb, &ve);
		line[ke - line] = '\0';
		line[ve - line] = '\0';
		on_key(ld, NULL, kb, vb);
		rc = ld->failed ? -1 : 0;
	}
	free(line);
	return rc;
}

/* inih's fgets-style reader over ld->pos: see the file header */
static char *read_line(char *str, int num, void *stream)
{
	struct load *ld = stream;
	const char *b, *e, *next, *p;
	size_t n;

	if (ld->failed || *ld->pos == '\0')
		return NULL;
	b = ld->pos;
	next = strchr(b, '\n');
	next = next ? next + 1 : b + strlen(b);
	e = next;
	ld->pos = next;
	ld->line++;
	if (ld->line == 1 && (unsigned char)b[0] == 0xEF &&
	    (unsigned char)b[1] == 0xBB && (unsigned char)b[2] == 0xBF)
		b += 3; /* UTF-8 byte order mark */
	trim_range(&b, &e);
	if (b < e && (*b == '#' || *b == ';')) {
		e = b; /* a comment line */
	} else {
		for (p = b + 1; p < e; p++)
			if ((*p == '#' || *p == ';') && is_blank(p[-1])) {
				e = p;
				break;
			}
		trim_range(&b, &e);
	}
	n = (size_t)(e - b);
	if (num < 2)
		return NULL;
	if (n > (size_t)num - 1) { /* longer than inih takes: see long_key_line */
		if (n > LONG_LINE_MAX) {
			scn_fail(ld, "line too long (at most %d characters)", LONG_LINE_MAX);
			return NULL;
		}
		if (long_key_line(ld, b, n))
			return NULL;
		str[0] = '\0'; /* inih sees an empty line: the line numbers agree */
		return str;
	}
	memcpy(str, b, n);
	str[n] = '\0';
	if (classify_line(ld, str))
		return NULL;
	return str;
}

static int on_key(void *user, const char *section, const char *name,
		       const char *value)
{
	struct load *ld = user;

	(void)section; /* the reader keeps the section, with its checks */
	if (ld->failed)
		return 1;
	if (ld->sec < 0)
		scn_fail(ld, "%s: key before any [section]", name);
	else
		apply_key(ld, name, value);
	return 1; /* errors are kept in ld; the reader then stops the parse */
}

int scn_load_text(struct scenario *s, const char *name, const char *text, struct scn_error *err,
		  const struct scenario_inputs *in)
{
	struct load *ld;
	int rc;

	if (!name)
		name = "<string>";
	ld = load_new(s, name, err);
	if (!ld)
		return -1;
	force_fabric(ld, in);
	if (set_dir(ld, name) || strlen(name) >= sizeof(s->source)) {
		scn_fail(ld, "file name too long");
		free(ld);
		return -1;
	}
	memcpy(s->source, name, strlen(name) + 1);
	ld->src = s->source;
	ld->pos = text ? text : "";
	rc = ini_parse_stream(read_line, ld, on_key, ld);
	if (!ld->failed && rc != 0) {
		/* inih found what the reader let through: should not happen */
		ld->line = rc > 0 ? rc : ld->line;
		scn_fail(ld, "syntax error");
	}
	if (!ld->failed && scn_check_file(ld))
		ld->failed = 1;
	rc = ld->failed ? -1 : 0;
	free(ld);
	return rc;
}

int scenario_load_string(struct scenario *s, const char *name, const char *text,
			 struct scn_error *err)
{
	return scn_load_text(s, name, text, err, NULL);
}

char *scenario_read_text(const char *path, size_t *length, struct scn_error *err)
{
	struct place pl = { path, 0 };
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nul;
	size_t len = 0, cap = 0, got;

	if (!f) {
		scn_set_error(err, pl, "cannot open (%s)", strerror(errno));
		return NULL;
	}
	struct stat st;
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		scn_set_error(err, pl, "is a directory, not a scenario file");
		return NULL;
	}
	for (;;) {
		if (cap - len < 4096) {
			char *nb;
			cap = cap ? cap * 2 : 16384;
			if (cap > (size_t)MAX_FILE_BYTES + 4096) {
				free(buf);
				fclose(f);
				scn_set_error(err, pl, "larger than %ld bytes", MAX_FILE_BYTES);
				return NULL;
			}
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				scn_set_error(err, pl, "out of memory");
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;
		free(buf);
		fclose(f);
		scn_set_error(err, pl, "read error: %s", strerror(e));
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	nul = memchr(buf, '\0', len);
	if (nul) {
		const char *p;
		pl.line = 1;
		for (p = buf; p < nul; p++)
			pl.line += *p == '\n';
		free(buf);
		scn_set_error(err, pl, "NUL byte in the file (not a text file)");
		return NULL;
	}
	if (length)
		*length = len;
	return buf;
}

int scn_load_path(struct scenario *s, const char *path, struct scn_error *err,
		  const struct scenario_inputs *in)
{
	char *buf = scenario_read_text(path, NULL, err);
	if (!buf)
		return -1;
	int rc = scn_load_text(s, path, buf, err, in);
	free(buf);
	return rc;
}

int scenario_load_file(struct scenario *s, const char *path, struct scn_error *err)
{
	return scn_load_path(s, path, err, NULL);
}

int scenario_set(struct scenario *s, const char *assignment, struct scn_error *err)
{
	return scn_set_one(s, assignment, err, NULL);
}

int scn_set_one(struct scenario *s, const char *assignment, struct scn_error *err,
		const struct scenario_inputs *in)
{
	struct load *ld = load_new(s, "--set", err);
	const char *eq, *kb, *ke, *vb, *ve;
	char *key = NULL, *value = NULL, *dot;
	uint32_t njobs = s->njobs, nfaults = s->nfaults;
	int skipped;
	int rc = -1;

	if (!ld)
		return -1;
	force_fabric(ld, in);
	if (!assignment)
		assignment = "";
	eq = strchr(assignment, '=');
	kb = assignment;
	ke = eq ? eq : assignment + strlen(assignment);
	trim_range(&kb, &ke);
	vb = eq ? eq + 1 : ke;
	ve = vb + strlen(vb);
	trim_range(&vb, &ve);
	key = malloc((size_t)(ke - kb) + 1);
	value = malloc((size_t)(ve - vb) + 1);
	if (!key || !value) {
		scn_fail(ld, "out of memory");
		goto out;
	}
	copy_range(key, (size_t)(ke - kb) + 1, kb, ke);
	copy_range(value, (size_t)(ve - vb) + 1, vb, ve);
	dot = strrchr(key, '.');
	if (!eq || !dot || dot == key || dot[1] == '\0') {
		scn_fail(ld, "%s: expected section.key=value", key);
		goto out;
	}
	if (strlen(key) > 100) {
		scn_fail(ld, "%.40s...: key too long", key);
		goto out;
	}
	*dot = '\0';
	{
		char label[128];
		const struct key_def *k;
		const char *cur = "?";
		char want[128], dep[80];

		snprintf(label, sizeof(label), "%s.%s", key, dot + 1);
		if (enter_section(ld, key, label, dot + 1) ||
		    (skipped = apply_key(ld, dot + 1, value)) < 0)
			goto out;
		if (skipped) {
			rc = 0;
			goto out;
		}
		k = &scn_key_defs[scn_find_key((enum sec_id)ld->sec, dot + 1)];
		if (!scn_key_applies(k, ld->item >= 0 ? item_cbase(s, ld->sec, ld->item) : (void *)s,
				     &cur)) {
			scn_dep_label(k, ld->secname, dep, sizeof(dep));
			if (scn_dep_is_switch(k)) {
				scn_fail(ld, "%s: %s (%s; set %s first)", label, scn_switch_off_what(k),
					 scn_switch_off_why(k), dep);
				goto out;
			}
			scn_applies_text(k, want, sizeof(want));
			scn_fail(ld, "%s: only for %s (%s is %s; set %s first)", label, want,
				 k->dep, cur, dep);
			goto out;
		}
	}
	rc = 0;
out:
	if (rc && s->njobs > njobs)
		s->njobs = njobs; /* a job this --set created: it has no allocation */
	if (rc && s->nfaults > nfaults)
		s->nfaults = nfaults;
	free(key);
	free(value);
	free(ld);
	return rc;
}
