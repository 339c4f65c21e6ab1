/*
 * options.c - the one option parser of the command line, and the help and
 * the usage errors it gives (docs/contract.md#commands).
 *
 * A command's table (struct cli_opt, cli.h) says, per option, its
 * spellings, whether it takes a value and what the value is (a flag, a
 * text, an integer and its range, a --set assignment, or a handler), the
 * message when the value is missing, and its line of the help.  The forms
 * read: --opt VALUE, -x VALUE, repeated options (--set, --vary, --stress;
 * the last one wins for the others unless `once`), and for nccl-tests'
 * single-letter options the value attached (-b1M).  Any argument that
 * starts with '-' (but "-" alone) and names no option is an unknown option,
 * with a "did you mean" among the command's own options.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/units.h"
#include "models/scenario/keyhelp.h"
#include "models/scenario/scenario.h"
#include "plots/plot.h"
#include "sim/cli/cli.h"

/* the help's left column: "  -o DIR        text", wider ones "  --nic-config FILE  text" */
#define HELP_NAME_COLS 12
#define HELP_INDENT "                " /* a help text's next lines */

/* the command being parsed, for the hint of a usage error; NULL: none yet */
static const struct cli_command *current;

void cli_set_command(const struct cli_command *cmd)
{
	current = cmd;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "dcqcn-sim: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (current)
		fprintf(stderr, "\n(see dcqcn-sim %s --help)\n", current->name);
	else
		fprintf(stderr, "\n(see dcqcn-sim --help)\n");
	return EXIT_USAGE;
}

const char *cli_guess(const char *word, const char *const *names, size_t n)
{
	struct scn_guess g;
	scn_guess_init(&g, word, strlen(word));
	for (size_t i = 0; i < n; i++)
		scn_guess_add(&g, names[i]);
	return scn_guess_best(&g);
}

int cli_unknown_command(const char *name, const struct cli_command *const *cmds, size_t n)
{
	const char *names[16];
	for (size_t i = 0; i < n && i < sizeof(names) / sizeof(names[0]); i++)
		names[i] = cmds[i]->name;
	const char *guess = cli_guess(name, names, n);
	if (guess)
		return cli_usage_error("unknown command %s; did you mean %s?", name, guess);
	return cli_usage_error("unknown command %s", name);
}

/* "unknown option --qiet; did you mean --quiet?": the guesses are the
 * command's own options (not those it names as another command's, nor
 * nccl-tests' own spellings) and --help */
int cli_unknown_option(const char *a)
{
	const char *names[2 * CLI_MAX_OPTS + 1];
	size_t n = 0;
	for (const struct cli_opt *o = current->opts; o->name; o++) {
		if (o->only)
			continue;
		names[n++] = o->name;
		if (o->alt && !o->alt_hidden)
			names[n++] = o->alt;
	}
	names[n++] = "--help";
	const char *guess = cli_guess(a, names, n);
	if (guess)
		return cli_usage_error("unknown option %s; did you mean %s?", a, guess);
	return cli_usage_error("unknown option %s", a);
}

/*
 * --set and --vary take one argument, section.key=value(s).  Written with a
 * space instead of '=' (--vary nic.cc none,dcqcn), the values would be
 * taken for the scenario; say what is wrong instead, and how to write it
 * when the next argument looks like the values (not an option, not a
 * scenario file).
 */
int cli_assignment_error(const char *opt, const char *v, const char *next)
{
	const char *want = strcmp(opt, "--vary") ? "section.key=value" : "section.key=V1,V2,...";
	size_t n = strlen(v);
	int is_ini = next && strlen(next) > 4 && !strcmp(next + strlen(next) - 4, ".ini");
	if (n && v[n - 1] == '=')
		n--; /* --vary nic.cc= none,dcqcn */
	if (next && next[0] == '=')
		next++; /* --vary nic.cc =none,dcqcn */
	if (!next || !*next || next[0] == '-' || is_ini)
		return cli_usage_error("%s %.*s: expected %s", opt, (int)n, v, want);
	return cli_usage_error("%s %.*s: expected %s (write %s %.*s=%s)", opt, (int)n, v, want,
			       opt, (int)n, v, next);
}

int cli_opt_format(void *dst, const struct cli_opt *o, const char *v, const char *next)
{
	(void)next;
	if (!plot_format_valid(v))
		return cli_usage_error("--format %s: png, svg or pdf", v);
	*(const char **)((char *)dst + o->off) = v;
	return 0;
}

int cli_opt_fabric(void *dst, const struct cli_opt *o, const char *v, const char *next)
{
	(void)next;
	*(const char **)((char *)dst + o->off) = v;
	if (cli_fabric_index(v) < 0)
		return cli_usage_error("--fabric %s: not a fabric (" SCN_FABRICS_JOINED(", ") ")",
				       v);
	return 0;
}

/* one help line (and its next ones): "  NAME ARG      text" */
static void print_option(FILE *out, const char *synopsis, const char *help)
{
	if (strlen(synopsis) <= HELP_NAME_COLS)
		fprintf(out, "  %-*s  ", HELP_NAME_COLS, synopsis);
	else
		fprintf(out, "  %s  ", synopsis);
	for (const char *p = help; *p;) {
		size_t l = strcspn(p, "\n");
		fprintf(out, "%s%.*s\n", p == help ? "" : HELP_INDENT, (int)l, p);
		p += l + (p[l] == '\n');
	}
}

void cli_print_help(const struct cli_command *cmd, FILE *out)
{
	fputs(cmd->usage, out);
	fputs("options:\n", out);
	for (const struct cli_opt *o = cmd->opts; o->name; o++) {
		if (!o->help)
			continue;
		if (o->synopsis) {
			print_option(out, o->synopsis, o->help);
			continue;
		}
		char synopsis[128];
		int alt = o->alt && !o->alt_hidden;
		snprintf(synopsis, sizeof(synopsis), "%s%s%s%s%s", o->name, alt ? ", " : "",
			 alt ? o->alt : "", o->arg ? " " : "", o->arg ? o->arg : "");
		print_option(out, synopsis, o->help);
	}
	print_option(out, "--help, -h", "this text");
	fputs(cmd->tail, out);
}

/* the option a names in cmd's table, or NULL; *attached: the value of
 * -b1M (single-letter options of a units_numbers command), else NULL */
static const struct cli_opt *find_option(const struct cli_command *cmd, const char *a,
					 const char **attached)
{
	*attached = NULL;
	for (const struct cli_opt *o = cmd->opts; o->name; o++)
		if (!strcmp(a, o->name) || (o->alt && !strcmp(a, o->alt)))
			return o;
	if (!cmd->units_numbers || a[0] != '-' || !a[1])
		return NULL;
	for (const struct cli_opt *o = cmd->opts; o->name; o++)
		if (o->arg && strlen(o->name) == 2 && o->name[1] == a[1]) {
			*attached = a + 2;
			return o;
		}
	return NULL;
}

/* the integer v of option o in o->lo..o->hi into *out; 0 or -1 */
static int parse_int(const struct cli_command *cmd, const struct cli_opt *o, const char *v,
		     long *out)
{
	if (cmd->units_numbers) {
		int64_t x;
		char err[256];
		if (units_parse_int(v, o->lo, o->hi, &x, err, sizeof(err)))
			return -1;
		*out = (long)x;
		return 0;
	}
	char *end;
	long n = strtol(v, &end, 10);
	if (end == v || *end || n < o->lo || n > o->hi)
		return -1;
	*out = n;
	return 0;
}

/* --set V, or --seed V and --threads V as sim.seed=V, sim.threads=V */
static int add_set(struct cli_sets *s, const struct cli_opt *o, const char *v, const char *next)
{
	if (o->kind == CLI_SET && !strchr(v, '='))
		return cli_assignment_error(o->name, v, next);
	if (s->n == CLI_MAX_SETS)
		return cli_usage_error("too many --set options (at most %d)", CLI_MAX_SETS);
	if (o->kind == CLI_SET) {
		s->v[s->n++] = v;
		return 0;
	}
	/* one buffer per key: a second --seed rewrites the first */
	char prefix[32];
	size_t i = 0, len = (size_t)snprintf(prefix, sizeof(prefix), "sim.%s=", o->name + 2);
	while (i + 1 < sizeof(s->sim) / sizeof(s->sim[0]) && s->sim[i][0] &&
	       strncmp(s->sim[i], prefix, len))
		i++;
	snprintf(s->sim[i], sizeof(s->sim[i]), "%s%s", prefix, v);
	s->v[s->n++] = s->sim[i];
	return 0;
}

/* option o with value v (NULL for a flag) into dst; 0 or a usage error */
static int take_option(const struct cli_command *cmd, const struct cli_opt *o, const char *v,
		       const char *next, void *dst)
{
	char *field = (char *)dst + o->off;
	long n;
	switch (o->kind) {
	case CLI_FLAG:
		*(int *)field = 1;
		return 0;
	case CLI_STR:
		*(const char **)field = v;
		return 0;
	case CLI_INT:
		if (parse_int(cmd, o, v, &n))
			return cli_usage_error("%s %s: %s, %ld-%ld", o->name, v, o->what, o->lo,
					       o->hi);
		*(int *)field = (int)n;
		return 0;
	case CLI_SET:
	case CLI_SIM_SET:
		return add_set((struct cli_sets *)field, o, v, next);
	default:
		return o->fn(dst, o, v, next);
	}
}

int cli_parse(const struct cli_command *cmd, int argc, char **argv, void *dst,
	      int (*arg)(void *dst, const char *a))
{
	uint64_t seen = 0; /* the `once` options given */
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v;
		const struct cli_opt *o = find_option(cmd, a, &v);
		int rc;
		if (!o) {
			rc = a[0] == '-' && a[1] ? cli_unknown_option(a) : arg(dst, a);
			if (rc)
				return rc;
			continue;
		}
		if (o->arg && !v && i + 1 == argc)
			return cli_usage_error("%s needs %s", o->name,
					       o->needs ? o->needs : "a value");
		if (o->only)
			return cli_usage_error("%s is an option of %s", a, o->only);
		if (o->arg && !v)
			v = argv[++i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t bit = UINT64_C(1) << (o - cmd->opts);
		if (o->once && o->kind == CLI_INT) { /* the value first, then the repetition */
			long n;
			if (parse_int(cmd, o, v, &n))
				return take_option(cmd, o, v, next, dst);
		}
		if (o->once && (seen & bit))
			return cli_usage_error("%s given twice", a);
		seen |= bit;
		rc = take_option(cmd, o, v, next, dst);
		if (rc)
			return rc;
	}
	return 0;
}
