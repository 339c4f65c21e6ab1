/*
 * keyhelp.c - the keys as users are told about them (keyhelp.h): the
 * meaning of every key, `dcqcn-sim keys`, and the "did you mean" of a
 * mistyped section, key, enum value, job or fault name.
 *
 * Choices
 *   - The meanings sit in the key table's rows (keytable.c), with the
 *     default in words where a value cannot show it.
 *   - `keys` shows each [dcqcn] knob's nvidia default (the profile a
 *     scenario gets) and its default under every profile.
 *   - Keys of type KT_TODO (known, not implemented) are left out: no key is
 *     such today, and a key a user cannot set is no help in the list.
 *   - "Did you mean" suggests one candidate or none: a typo that is as
 *     close to two names (kmix: kmin, kmax) gets no guess, since a wrong
 *     guess costs more than none.  Distances follow the length (keyhelp.h)
 *     so that short names are not "corrected" into unrelated ones.
 */
#include "models/scenario/keyhelp.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/units.h"
#include "models/scenario/loader.h"

/* ---- the meanings ---- */

/* the section named name[0..len), or -1 */
static int section_of(const char *name, size_t len)
{
	for (int i = 0; i < SEC_COUNT; i++)
		if (strlen(scn_section_defs[i].name) == len &&
		    strncmp(scn_section_defs[i].name, name, len) == 0)
			return i;
	return -1;
}

const char *scenario_key_meaning(const char *key)
{
	const char *dot = strchr(key, '.');
	int sec, ki;

	if (!dot || strchr(dot + 1, '.'))
		return NULL;
	sec = section_of(key, (size_t)(dot - key));
	if (sec < 0 || (ki = scn_find_key((enum sec_id)sec, dot + 1)) < 0)
		return NULL;
	return scn_key_defs[ki].meaning;
}

/* append to buf (at *n), never past len */
SCN_PRINTF(4, 5)
static void add(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*n >= len)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *n, len - *n, fmt, ap);
	va_end(ap);
	if (w > 0)
		*n = *n + (size_t)w < len ? *n + (size_t)w : len - 1;
}

int scenario_key_docs_check(char *buf, size_t len)
{
	size_t n = 0;
	int bad = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_KEYS; i++) {
		const struct key_def *k = &scn_key_defs[i];

		if (k->type == KT_TODO || (k->meaning && k->meaning[0]))
			continue;
		add(buf, len, &n, "%s%s.%s: no meaning in its row of scn_key_defs[] (keytable.c)",
		    bad ? "; " : "", scn_section_defs[k->sec].name, k->name);
		bad++;
	}
	return bad;
}

/* ---- did you mean ---- */

#define GUESS_MAX_LEN 64 /* longer words are never typos of a name */

int scn_edit_distance(const char *a, size_t alen, const char *b)
{
	/* three rows of the optimal string alignment table */
	int r0[GUESS_MAX_LEN + 1], r1[GUESS_MAX_LEN + 1], r2[GUESS_MAX_LEN + 1];
	int *prev2 = r0, *prev = r1, *cur = r2;
	size_t blen = strlen(b);

	if (alen > GUESS_MAX_LEN || blen > GUESS_MAX_LEN)
		return 1000;
	for (size_t j = 0; j <= blen; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= alen; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= blen; j++) {
			int cost = a[i - 1] != b[j - 1];
			int d = prev[j] + 1;

			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (prev[j - 1] + cost < d)
				d = prev[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
		int *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[blen];
}

void scn_guess_init(struct scn_guess *g, const char *word, size_t wlen)
{
	g->word = word;
	g->wlen = wlen;
	g->best = NULL;
	g->dist = 0;
	g->tie = 0;
}

void scn_guess_add(struct scn_guess *g, const char *cand)
{
	size_t clen = strlen(cand), longer = clen > g->wlen ? clen : g->wlen;
	int d = scn_edit_distance(g->word, g->wlen, cand);
	int most = longer <= 5 ? 1 : 2;

	if (d == 0 || d > most || 2 * (size_t)d >= longer)
		return;
	if (g->best && strcmp(g->best, cand) == 0)
		return; /* the same name again (a key of two sections) */
	if (!g->best || d < g->dist) {
		g->best = cand;
		g->dist = d;
		g->tie = 0;
	} else if (d == g->dist) {
		g->tie = 1;
	}
}

const char *scn_guess_best(const struct scn_guess *g)
{
	return g->tie ? NULL : g->best;
}

int scn_guess_section(const char *name, size_t len)
{
	struct scn_guess g;

	scn_guess_init(&g, name, len);
	for (int i = 0; i < SEC_COUNT; i++)
		scn_guess_add(&g, scn_section_defs[i].name);
	for (int i = 0; scn_guess_best(&g) && i < SEC_COUNT; i++)
		if (scn_section_defs[i].name == scn_guess_best(&g))
			return i;
	return -1;
}

void scn_key_suggestion(int sec, const char *secname, const char *name, char *buf, size_t len)
{
	struct scn_guess g;
	const char *best, *other = NULL;
	int others = 0;

	buf[0] = '\0';
	scn_guess_init(&g, name, strlen(name));
	for (size_t i = 0; i < N_KEYS; i++)
		if ((int)scn_key_defs[i].sec == sec && scn_key_defs[i].type != KT_TODO)
			scn_guess_add(&g, scn_key_defs[i].name);
	best = scn_guess_best(&g);
	if (best) {
		snprintf(buf, len, "; did you mean %s.%s?", secname, best);
		return;
	}
	/* [pfc] kmin = ...: the key of another section */
	if (scn_section_defs[sec].named)
		return;
	for (size_t i = 0; i < N_KEYS; i++) {
		const struct key_def *k = &scn_key_defs[i];

		if ((int)k->sec != sec && !scn_section_defs[k->sec].named && k->type != KT_TODO &&
		    strcmp(k->name, name) == 0) {
			other = scn_section_defs[k->sec].name;
			others++;
		}
	}
	if (others == 1)
		snprintf(buf, len, "; did you mean %s.%s?", other, name);
}

const char *scn_guess_name(const char *const *names, const char *value)
{
	struct scn_guess g;

	scn_guess_init(&g, value, strlen(value));
	for (size_t i = 0; names && names[i]; i++)
		scn_guess_add(&g, names[i]);
	return scn_guess_best(&g);
}

/* ---- keys known ---- */

/* "sim, topology, ..., job.NAME, ..." */
static void section_list(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < SEC_COUNT; i++)
		add(buf, len, &n, "%s%s%s", i ? ", " : "", scn_section_defs[i].name,
		    scn_section_defs[i].named ? ".NAME" : "");
}

int scenario_key_known(const char *key, char *err, size_t errlen)
{
	const char *dot = strchr(key, '.'), *last = strrchr(key, '.');
	char list[256], hint[160], secname[128];
	int sec;

	if (!dot || dot == key || !last[1]) {
		snprintf(err, errlen, "%s: expected section.key", key);
		return -1;
	}
	sec = section_of(key, (size_t)(dot - key));
	if (sec < 0 || (!scn_section_defs[sec].named && dot != last)) {
		int near = sec < 0 ? scn_guess_section(key, (size_t)(dot - key)) : -1;

		section_list(list, sizeof(list));
		hint[0] = '\0';
		if (near >= 0)
			snprintf(hint, sizeof(hint), "; did you mean %s%s?",
				 scn_section_defs[near].name, dot);
		snprintf(err, errlen, "%s: unknown section (%s)%s", key, list, hint);
		return -1;
	}
	if (scn_section_defs[sec].named && dot == last) {
		snprintf(err, errlen, "%s: needs a name: %s.NAME%s", key,
			 scn_section_defs[sec].name, dot);
		return -1;
	}
	if (scn_find_key((enum sec_id)sec, last + 1) >= 0)
		return 0;
	snprintf(secname, sizeof(secname), "%.*s", (int)(last - key), key);
	scn_key_suggestion(sec, secname, last + 1, hint, sizeof(hint));
	snprintf(err, errlen, "%s: unknown key%s", key, hint);
	return -1;
}

/* ---- base units (sweep.csv) ---- */

/* v parts per 1e9 as a plain decimal fraction, exactly: 100000000 is "0.1" */
static void ppb_text(int64_t v, char *buf, size_t len)
{
	int64_t whole = v / UNITS_PPB_ONE, frac = v % UNITS_PPB_ONE;
	char digits[16];
	int n = 9;

	if (frac == 0) {
		snprintf(buf, len, "%" PRId64, whole);
		return;
	}
	snprintf(digits, sizeof(digits), "%09" PRId64, frac);
	while (n > 1 && digits[n - 1] == '0')
		n--;
	snprintf(buf, len, "%" PRId64 ".%.*s", whole, n, digits);
}

/*
 * A [dcqcn] knob's value (KT_FW_*): a bare number is in the firmware unit
 * (us, Mbps, 64-byte units), as the loader reads it (values.c parse_fw).
 */
static int fw_value(enum key_type type, const char *text, int64_t *v)
{
	char buf[80], e[128];
	int bare = *text != '\0';

	for (const char *p = text; *p; p++)
		if (!strchr("0123456789.+- \t", *p))
			bare = 0;
	if (bare && strlen(text) > 40)
		return -1;
	switch (type) {
	case KT_FW_TIME:
		snprintf(buf, sizeof(buf), bare ? "%sus" : "%s", text);
		return units_parse_time(buf, v, e, sizeof(e)) ? -1 : 0;
	case KT_FW_RATE:
		snprintf(buf, sizeof(buf), bare ? "%sMbps" : "%s", text);
		switch (units_parse_rate(buf, v, e, sizeof(e))) {
		case UNITS_OK:
			return 0;
		case UNITS_ERANGE: /* the rate parser refuses 0, which a knob may be */
			*v = 0;
			return !strchr(buf, '-') && strspn(buf, "0.+ ") > 0 &&
					       !strchr("123456789", buf[strspn(buf, "0.+ ")])
				       ? 0
				       : -1;
		default:
			return -1;
		}
	default:
		if (!bare)
			return units_parse_size(text, v, e, sizeof(e)) ? -1 : 0;
		snprintf(buf, sizeof(buf), "%sKiB", text); /* n x 64 B = n KiB / 16 */
		if (units_parse_size(buf, v, e, sizeof(e)) || *v % 16)
			return -1;
		*v /= 16;
		return 0;
	}
}

int scenario_key_base_value(const char *key, const char *text, char *num, size_t numlen,
			    const char **unit)
{
	const char *dot = strchr(key, '.'), *last = strrchr(key, '.');
	char e[128];
	int64_t v = 0;
	int rc = 0, sec, idx;

	*unit = NULL;
	if (numlen)
		num[0] = '\0';
	if (!dot || dot == key || !last[1])
		return -1;
	sec = section_of(key, (size_t)(dot - key));
	if (sec < 0 || (idx = scn_find_key((enum sec_id)sec, last + 1)) < 0)
		return -1;
	const struct key_def *k = &scn_key_defs[idx];
	switch (k->type) {
	case KT_SIZE: case KT_MTU: case KT_SIZE_AUTO: case KT_FW_BYTES:
		*unit = "B";
		break;
	case KT_TIME: case KT_TIME_AUTO: case KT_FW_TIME:
		*unit = "ps";
		break;
	case KT_RATE: case KT_FW_RATE:
		*unit = "bps";
		break;
	case KT_LENGTH:
		*unit = "mm";
		break;
	case KT_FRACTION: case KT_PERCENT:
		*unit = "frac";
		break;
	case KT_INT: case KT_INT_AUTO: case KT_INT_NONE: case KT_TC:
		*unit = "n";
		break;
	default: /* enums, lists, names, files: no number */
		return 0;
	}
	if (((k->flags & KF_ZERO) && strcmp(text, "0") == 0) ||
	    ((k->type == KT_SIZE_AUTO || k->type == KT_TIME_AUTO || k->type == KT_INT_AUTO) &&
	     strcmp(text, "auto") == 0) ||
	    (k->type == KT_INT_NONE && strcmp(text, "none") == 0)) {
		if (strcmp(text, "0") == 0)
			snprintf(num, numlen, "0");
		return 0; /* auto, none: no number, an empty cell */
	}
	switch (k->type) {
	case KT_SIZE: case KT_SIZE_AUTO:
		rc = units_parse_size(text, &v, e, sizeof(e));
		break;
	case KT_MTU:
		rc = strspn(text, "0123456789") == strlen(text) && *text
			     ? units_parse_int(text, 0, INT64_MAX, &v, e, sizeof(e))
			     : units_parse_size(text, &v, e, sizeof(e));
		break;
	case KT_TIME: case KT_TIME_AUTO:
		rc = units_parse_time(text, &v, e, sizeof(e));
		break;
	case KT_RATE:
		rc = units_parse_rate(text, &v, e, sizeof(e));
		break;
	case KT_LENGTH:
		rc = units_parse_length(text, &v, e, sizeof(e));
		break;
	case KT_FRACTION:
		rc = units_parse_fraction(text, &v, e, sizeof(e));
		break;
	case KT_PERCENT: {
		char pct[64];
		size_t n = strlen(text);
		if (n + 2 > sizeof(pct))
			return -1;
		snprintf(pct, sizeof(pct), "%s%s", text, n && text[n - 1] == '%' ? "" : "%");
		rc = units_parse_fraction(pct, &v, e, sizeof(e));
		break;
	}
	case KT_FW_TIME: case KT_FW_RATE: case KT_FW_BYTES:
		rc = fw_value(k->type, text, &v);
		break;
	default: /* the integers */
		rc = units_parse_int(text, INT64_MIN, INT64_MAX, &v, e, sizeof(e));
		break;
	}
	if (rc)
		return -1;
	if (k->type == KT_FRACTION || k->type == KT_PERCENT)
		ppb_text(v, num, numlen);
	else
		snprintf(num, numlen, "%" PRId64, v);
	return 0;
}

/* ---- dcqcn-sim keys ---- */

/* the values k takes, as users write them */
static void values_text(const struct key_def *k, char *buf, size_t len)
{
	switch (k->type) {
	case KT_ENUM:
		scn_join_names(k->names, " | ", buf, len);
		return;
	case KT_BOOL:
		snprintf(buf, len, "%s", (k->flags & KF_NUM01) ? "0 | 1 (true | false too)"
							     : "true | false");
		return;
	case KT_HOSTSET:
		snprintf(buf, len, "host indices (" HOSTSET_SYNTAX ")");
		return;
	case KT_FILE:
		snprintf(buf, len, "a CSV file (%s)",
			 k->sec == SEC_TOPOLOGY ? "a,b,rate,cable" : "src,dst,bytes,start_us[,dscp,after]");
		return;
	case KT_NODE:
		snprintf(buf, len, "a host name: h0, h1, ...");
		return;
	case KT_LINK:
		snprintf(buf, len, "A-B of two cabled node names (" NODE_EXAMPLES ")");
		return;
	case KT_DSCP_MAP:
		snprintf(buf, len, "dscp:priority pairs, e.g. 26:3,48:6; empty = none");
		return;
	case KT_SL_MAP:
		snprintf(buf, len, "sl:vl pairs (0-7), e.g. 3:1,5:1; empty = none");
		return;
	default:
		break;
	}
	if (k->range)
		snprintf(buf, len, "%s%s", k->range, k->type == KT_MTU ? " (bytes)" : "");
	else if (k->type == KT_INT && k->sec == SEC_JOB)
		snprintf(buf, len, "a host index");
	else
		snprintf(buf, len, "%" PRId64 "-%" PRId64, k->min, k->max);
}

/* where k applies, or "" for everywhere */
static void applies_text(const struct key_def *k, char *buf, size_t len)
{
	const char *sec = scn_section_defs[k->sec].name;
	const char *name = scn_section_defs[k->sec].named ? ".NAME" : "";
	char want[256];

	buf[0] = '\0';
	if (!k->dep)
		return;
	if (scn_dep_is_switch(k)) {
		const struct key_def *d = scn_key_def_of(k->sec, k->dep);

		snprintf(buf, len, "only when %s.%s is %s", sec, k->dep,
			 d && d->type == KT_BOOL ? "true" : "not empty");
		return;
	}
	scn_applies_text(k, want, sizeof(want));
	if (strchr(k->dep, '.'))
		snprintf(buf, len, "only for %s", want);
	else
		snprintf(buf, len, "only for %s%s.%s", sec, name, want);
}

/* the key line: "sim.duration = 1s", "job.NAME.pattern (required)" */
static void print_key(FILE *out, const struct key_def *k, struct scenario *s,
		      const void *base)
{
	const char *sec = scn_section_defs[k->sec].name;
	const char *name = scn_section_defs[k->sec].named ? ".NAME" : "";
	char value[4200], text[512];

	if (k->def_text) {
		fprintf(out, "%s%s.%s (%s%s)\n", sec, name, k->name,
			strcmp(k->def_text, "required") ? "default: " : "", k->def_text);
	} else {
		scn_format_value(k, base, value, sizeof(value));
		fprintf(out, "%s%s.%s = %s%s\n", sec, name, k->name, value,
			(k->flags & KF_FRAME1)	 ? " (one data frame: mtu + 62 B)"
			: (k->flags & KF_FRAME2) ? " (two data frames: 2 x (mtu + 62 B))"
						 : "");
	}
	fprintf(out, "    %s\n", k->meaning ? k->meaning : "(no meaning documented)");
	values_text(k, text, sizeof(text));
	fprintf(out, "    values: %s\n", text);
	if (k->flags & KF_PROFILE) {
		size_t n = 0;

		text[0] = '\0';
		for (int p = 0; scn_profile_names[p]; p++) {
			scn_store_int(s, k, k->def[p]);
			scn_format_value(k, s, value, sizeof(value));
			add(text, sizeof(text), &n, "%s%s %s", p ? ", " : "", scn_profile_names[p],
			    value);
		}
		scn_store_int(s, k, k->def[0]);
		fprintf(out, "    default by dcqcn.profile: %s\n", text);
	}
	applies_text(k, text, sizeof(text));
	if (text[0])
		fprintf(out, "    %s\n", text);
}

static const char keys_header[] =
	"# The keys of a scenario file ([section], key = value) and of --set section.key=value,\n"
	"# section by section:\n"
	"#   section.key = default\n"
	"#       meaning\n"
	"#       values: what it takes\n"
	"#       only for ...: where it applies (elsewhere it is an error)\n"
	"# Units: sizes B KB MB GB (1 KB = 1000 B) KiB MiB GiB; rates bps Kbps Mbps Gbps Tbps;\n"
	"# times ps ns us ms s; lengths m; fractions 10% or 0.1; a bare 0 needs no unit.\n"
	"# [job.NAME] and [fault.NAME] are named (letters, digits, '-', '_'); a --set of\n"
	"# job.NAME.pattern or fault.NAME.kind creates one.  The [dcqcn] knobs' defaults\n"
	"# follow dcqcn.profile (nvidia shown, the others below each knob).\n";

int scenario_print_keys(FILE *out, const char *section, char *err, size_t errlen)
{
	int only = -1;
	struct scenario *s;
	struct scn_job *job;
	struct scn_fault *fault;

	if (section) {
		const char *asked = section, *dot = strchr(section, '.');
		size_t len = dot ? (size_t)(dot - section) : strlen(section);

		/* "[ecn]" as a file writes it */
		if (section[0] == '[' && len >= 2 && section[len - 1] == ']' && !dot) {
			section++;
			len -= 2;
		}

		only = section_of(section, len);
		if (only < 0 || (dot && !scn_section_defs[only].named)) {
			char list[256], hint[128] = "";
			int near = only < 0 ? scn_guess_section(section, len) : -1;

			section_list(list, sizeof(list));
			if (near >= 0)
				snprintf(hint, sizeof(hint), "; did you mean %s?",
					 scn_section_defs[near].name);
			snprintf(err, errlen, "no section %s (%s)%s", asked, list, hint);
			return -1;
		}
	}
	s = calloc(1, sizeof(*s));
	job = calloc(1, sizeof(*job));
	fault = calloc(1, sizeof(*fault));
	if (!s || !job || !fault) {
		free(s);
		free(job);
		free(fault);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	scenario_init(s);
	scn_job_init(job, "NAME", 0);
	scn_fault_init(fault, "NAME", 0);
	fputs(keys_header, out);
	for (int sec = 0; sec < SEC_COUNT; sec++) {
		const struct section_def *sd = &scn_section_defs[sec];

		if ((only >= 0 && sec != only) || !sd->implemented)
			continue;
		fprintf(out, "\n[%s%s]\n", sd->name, sd->named ? ".NAME" : "");
		for (size_t i = 0; i < N_KEYS; i++) {
			const struct key_def *k = &scn_key_defs[i];

			if ((int)k->sec != sec || k->type == KT_TODO)
				continue;
			print_key(out, k, s,
				  sec == SEC_JOB ? (const void *)job
				  : sec == SEC_FAULT ? (const void *)fault : (const void *)s);
		}
	}
	scenario_free(s);
	free(s);
	free(job);
	free(fault);
	return 0;
}
