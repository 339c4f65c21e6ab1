/*
 * main.c - the dcqcn-sim command line (DESIGN A1).
 *
 * Exit status: 0 success; 1 a broken invariant; 2 bad usage or a bad
 * scenario (the message names file:line and key); 3 interrupted (SIGINT),
 * outputs flushed and summary.csv marked end=interrupted; 4 the results
 * were written but a figure failed (plot, run --plot, sweep --plot).
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot.h"
#include "run.h"
#include "scenario.h"
#include "sweep.h"

#define EXIT_INVARIANT 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 3
#define EXIT_PLOT 4
#define MAX_SETS 256

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static const char usage[] =
	"usage:\n"
	"  dcqcn-sim run [SCENARIO] [-o DIR] [--set SECTION.KEY=VALUE]... [--seed N] [--quiet]\n"
	"                [--threads N] [--plot] [--format png|svg|pdf]\n"
	"  dcqcn-sim check SCENARIO [--set SECTION.KEY=VALUE]... [--threads N]\n"
	"  dcqcn-sim sweep SCENARIO --vary SECTION.KEY=V1,V2,... [--vary ...] [-j N]\n"
	"                [-o DIR] [--set ...] [--seed N] [--threads N] [--quiet] [--plot]\n"
	"  dcqcn-sim plot DIR [--format png|svg|pdf]\n"
	"  dcqcn-sim --help | --version\n"
	"\n"
	"run     simulate SCENARIO (the embedded default without one) and write the\n"
	"        run directory DIR (default results/NAME): scenario.ini, summary.csv,\n"
	"        stats.csv and the time series (README, Outputs); print a summary table\n"
	"check   validate SCENARIO, print the resolved scenario, derived values and\n"
	"        the partitions of a run on N threads;\n"
	"        exit 0 when valid, 2 otherwise\n"
	"--set   override one key, e.g. --set topology.spines=4 (repeatable)\n"
	"--seed  same as --set sim.seed=N\n"
	"--threads  same as --set sim.threads=N: one run on N cores (default: all);\n"
	"        the outputs are the same for every N\n"
	"--quiet no summary table, no progress bar\n"
	"--plot  draw the figures (plot DIR) when the run ends\n"
	"--format  the figures' format: png (default), svg or pdf (implies --plot)\n"
	"sweep   one run per combination of the --vary values (the last axis\n"
	"        fastest), -j N at a time, in DIR/pNNN (default results/NAME-sweep);\n"
	"        DIR/sweep.csv has a row per point with its summary and whether it\n"
	"        met the scenario's [criteria]; exit 0 even when points miss them\n"
	"plot    draw DIR/plots/*.png from the CSVs of run directory DIR with\n"
	"        gnuplot (apt-get install gnuplot-nox): queues, pause map, pause\n"
	"        and ECN rates, DCQCN rates, collectives; for a sweep directory,\n"
	"        the figures of every point\n";

struct cli {
	const char *cmd;
	const char *scenario;
	const char *out_dir;
	const char *sets[MAX_SETS];
	int nsets;
	char seed_set[64];
	char threads_set[64];
	int quiet;
	int plot; /* run --plot, sweep --plot */
	const char *format; /* --format: png (default), svg, pdf */
	int jobs; /* sweep -j */
	char *vary[SWEEP_MAX_AXES];
	int nvary;
};

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "dcqcn-sim: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see dcqcn-sim --help)\n");
	return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct cli *c)
{
	c->cmd = argv[1];
	int is_run = strcmp(c->cmd, "run") == 0, is_sweep = strcmp(c->cmd, "sweep") == 0;
	c->jobs = 1;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		int has_next = i + 1 < argc;
		if (!strcmp(a, "--vary") || !strcmp(a, "-j")) {
			if (!has_next)
				return usage_error("%s needs a value", a);
			if (!is_sweep)
				return usage_error("%s is an option of sweep", a);
			char *v = argv[++i];
			if (!strcmp(a, "-j")) {
				char *end;
				long j = strtol(v, &end, 10);
				if (*end || j < 1 || j > 256)
					return usage_error("-j %s: a number of concurrent runs, 1-256", v);
				c->jobs = (int)j;
			} else {
				if (c->nvary == SWEEP_MAX_AXES)
					return usage_error("at most %d --vary axes", SWEEP_MAX_AXES);
				c->vary[c->nvary++] = v;
			}
		} else if (!strcmp(a, "--format")) {
			if (!has_next)
				return usage_error("%s needs a value (png, svg or pdf)", a);
			if (!is_run && !is_sweep)
				return usage_error("%s is an option of run, sweep and plot", a);
			c->format = argv[++i];
			if (!plot_format_valid(c->format))
				return usage_error("--format %s: png, svg or pdf", c->format);
			c->plot = 1;
		} else if (!strcmp(a, "--set") || !strcmp(a, "-o") || !strcmp(a, "--seed") ||
			   !strcmp(a, "--threads")) {
			if (!has_next)
				return usage_error("%s needs a value", a);
			if (strcmp(a, "--set") && strcmp(a, "--threads") && !is_run && !is_sweep)
				return usage_error("%s is an option of run and sweep", a);
			const char *v = argv[++i];
			if (!strcmp(a, "-o")) {
				c->out_dir = v;
			} else if (!strcmp(a, "--seed") || !strcmp(a, "--threads")) {
				/* the loader checks the value and names the key */
				char *buf = a[2] == 's' ? c->seed_set : c->threads_set;
				snprintf(buf, sizeof(c->seed_set), "sim.%s=%s", a + 2, v);
				if (c->nsets == MAX_SETS)
					return usage_error("too many --set options (at most %d)", MAX_SETS);
				c->sets[c->nsets++] = buf;
			} else {
				if (c->nsets == MAX_SETS)
					return usage_error("too many --set options (at most %d)", MAX_SETS);
				c->sets[c->nsets++] = v;
			}
		} else if (!strcmp(a, "--plot")) {
			if (!is_run && !is_sweep)
				return usage_error("%s is an option of run and sweep", a);
			c->plot = 1;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			if (!is_run && !is_sweep)
				return usage_error("%s is an option of run and sweep", a);
			c->quiet = 1;
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown option %s", a);
		} else if (c->scenario) {
			return usage_error("one scenario at a time (extra argument %s)", a);
		} else {
			c->scenario = a;
		}
	}
	if (!is_run && !c->scenario)
		return usage_error("%s needs a SCENARIO file", c->cmd);
	if (is_sweep && !c->nvary)
		return usage_error("sweep needs at least one --vary section.key=V1,V2,...");
	return 0;
}

static struct scenario *load(const struct cli *c)
{
	struct scenario *s = calloc(1, sizeof(*s));
	struct scn_error err = {{0}};
	if (!s) {
		fprintf(stderr, "dcqcn-sim: out of memory\n");
		return NULL;
	}
	scenario_init(s);
	int rc = c->scenario ? scenario_load_file(s, c->scenario, &err)
			     : scenario_load_string(s, "scenarios/default.ini (embedded)",
						    scenario_default_text, &err);
	for (int i = 0; rc == 0 && i < c->nsets; i++)
		rc = scenario_set(s, c->sets[i], &err);
	if (rc == 0)
		rc = scenario_finalize(s, &err);
	if (rc) {
		fprintf(stderr, "%s\n", err.msg);
		scenario_free(s);
		free(s);
		return NULL;
	}
	return s;
}

/* results/NAME, NAME = the scenario file name without folder and .ini */
static void default_out_dir(const char *scenario, char *buf, size_t len)
{
	const char *base = scenario ? strrchr(scenario, '/') : NULL;
	base = base ? base + 1 : scenario ? scenario : "default";
	size_t n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".ini"))
		n -= 4;
	snprintf(buf, len, "results/%.*s", (int)n, base);
}

/* the plot scripts: $DCQCN_SIM_PLOTS, the source tree's plots/, the installed ones */
static const char *plots_dir(void)
{
	static const char *const dirs[] = {DCQCN_PLOTS_SOURCE, DCQCN_PLOTS_INSTALLED, NULL};
	return plot_scripts_dir(dirs);
}

/* the figures of a run directory, or of every point of a sweep directory
 * (one that holds sweep.csv), in format; 0, or EXIT_PLOT with the reason
 * on stderr */
static int plot_dir(const char *dir, const char *format, int quiet)
{
	char path[4200], err[2048];
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	if (access(path, F_OK) != 0) {
		if (plot_run(dir, plots_dir(), format, err, sizeof(err))) {
			fprintf(stderr, "dcqcn-sim: plot: %s\n", err);
			return EXIT_PLOT;
		}
		if (!quiet)
			printf("dcqcn-sim: %s\n", err);
		return 0;
	}
	int rc = 0, points = 0;
	for (int p = 0; p < SWEEP_MAX_POINTS; p++) {
		snprintf(path, sizeof(path), "%s/p%03d", dir, p);
		if (access(path, F_OK) != 0)
			break;
		points++;
		if (plot_run(path, plots_dir(), format, err, sizeof(err))) {
			fprintf(stderr, "dcqcn-sim: plot: %s\n", err);
			rc = EXIT_PLOT;
		}
	}
	if (!quiet)
		printf("dcqcn-sim: figures of %d sweep points in %s/pNNN/plots\n", points, dir);
	return rc;
}

/* plot DIR [--format F] */
static int cmd_plot(int argc, char **argv)
{
	const char *dir = NULL, *format = "png";
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--format")) {
			if (i + 1 == argc)
				return usage_error("--format needs a value (png, svg or pdf)");
			format = argv[++i];
			if (!plot_format_valid(format))
				return usage_error("--format %s: png, svg or pdf", format);
		} else if (argv[i][0] == '-' || dir) {
			return usage_error("plot needs one run or sweep directory: dcqcn-sim plot DIR "
					   "[--format png|svg|pdf]");
		} else {
			dir = argv[i];
		}
	}
	if (!dir)
		return usage_error("plot needs one run or sweep directory: dcqcn-sim plot DIR "
				   "[--format png|svg|pdf]");
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return usage_error("plot: %s is not a run or sweep directory", dir);
	return plot_dir(dir, format, 0);
}

/* split a CSV line of unquoted fields in place (empty fields kept) */
static int split_csv(char *line, char **f, int max)
{
	int n = 0;
	for (char *c = line; n < max;) {
		f[n++] = c;
		c = strchr(c, ',');
		if (!c)
			break;
		*c++ = '\0';
	}
	return n;
}

/* sweep.csv as a table: point, the axes, and the deployment metrics */
static void print_sweep(const char *dir, int naxes)
{
	static const char *const metrics[] = { "busbw_pct_line", "busbw_judged_min_pct",
					       "ecn_mark_pct", "pause_frame_rate",
					       "drops_lossless", "drops_lossy", "criteria_pass",
					       "criteria_failed", NULL };
	char path[4200], line[4096];
	char *f[128];
	int want[128] = {0};
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return;
	for (int row = 0; fgets(line, sizeof(line), fp); row++) {
		line[strcspn(line, "\n")] = '\0';
		int n = split_csv(line, f, 128);
		for (int col = 0; row == 0 && col < n; col++) {
			want[col] = col == 0 || (col >= 2 && col < 2 + naxes);
			for (int k = 0; metrics[k]; k++)
				want[col] |= !strcmp(f[col], metrics[k]);
		}
		for (int col = 0; col < n; col++)
			if (want[col])
				printf("  %-*s", col ? 16 : 5, *f[col] ? f[col] : "-");
		printf("\n");
	}
	fclose(fp);
}

static int cmd_sweep(const struct cli *c)
{
	struct sweep_opts o = { .scenario = c->scenario, .sets = c->sets, .nsets = c->nsets,
				.jobs = c->jobs, .interrupt = &interrupted };
	char err[2048], dir[4096];
	for (int i = 0; i < c->nvary; i++) {
		if (sweep_parse_vary(c->vary[i], &o.axes[i], err, sizeof(err)))
			return usage_error("%s", err);
		o.naxes++;
	}
	if (c->out_dir) {
		snprintf(dir, sizeof(dir), "%s", c->out_dir);
	} else {
		default_out_dir(c->scenario, dir, sizeof(dir));
		strncat(dir, "-sweep", sizeof(dir) - strlen(dir) - 1);
	}
	o.out_dir = dir;
	o.log = c->quiet ? NULL : stderr;
	signal(SIGINT, on_sigint);
	int failed = 0;
	int st = sweep_run(&o, &failed, err, sizeof(err));
	if (st == RUN_EIO && !failed && access(dir, F_OK) != 0) {
		fprintf(stderr, "dcqcn-sim: sweep: %s\n", err);
		return EXIT_USAGE;
	}
	if (!c->quiet) {
		printf("dcqcn-sim: sweep results in %s/sweep.csv (%d point%s missed the criteria)\n",
		       dir, failed, failed == 1 ? "" : "s");
		print_sweep(dir, o.naxes);
	}
	int plot_rc = c->plot && st == RUN_OK ? plot_dir(dir, c->format, c->quiet) : 0;
	switch (st) {
	case RUN_OK:
		return plot_rc;
	case RUN_INVARIANT:
		fprintf(stderr, "dcqcn-sim: sweep: %s\n", err);
		return EXIT_INVARIANT;
	case RUN_INTERRUPTED:
		fprintf(stderr, "dcqcn-sim: sweep interrupted; finished points in %s/\n", dir);
		return EXIT_INTERRUPTED;
	default:
		fprintf(stderr, "dcqcn-sim: sweep: %s\n", err);
		return EXIT_USAGE;
	}
}

static void print_warning(void *ctx, const char *key, const char *text)
{
	(void)ctx;
	fprintf(stderr, "dcqcn-sim: warning: %s: %s\n", key, text);
}

static int cmd_run(const struct cli *c)
{
	struct scenario *s = load(c);
	if (!s)
		return EXIT_USAGE;
	scenario_warnings(s, print_warning, NULL); /* also in DIR/warnings.txt */
	char dir[4096];
	if (c->out_dir)
		snprintf(dir, sizeof(dir), "%s", c->out_dir);
	else
		default_out_dir(c->scenario, dir, sizeof(dir));
	signal(SIGINT, on_sigint);
	struct run_opts opts = {
		.out_dir = dir,
		.progress = !c->quiet && isatty(STDERR_FILENO) ? stderr : NULL,
		.interrupt = &interrupted,
	};
	struct run_result r;
	enum run_status st = run_scenario(s, &opts, &r);
	scenario_free(s);
	free(s);
	if (!c->quiet && st != RUN_EIO) {
		printf("dcqcn-sim: results in %s/\n", dir);
		run_print_summary(&r, stdout);
	}
	/* the results stand when plotting fails; the exit status says it did */
	int plot_rc = c->plot && st == RUN_OK ? plot_dir(dir, c->format, c->quiet) : 0;
	switch (st) {
	case RUN_OK:
		return plot_rc;
	case RUN_INVARIANT:
		fprintf(stderr, "dcqcn-sim: invariant broken: %s\n", r.err);
		return EXIT_INVARIANT;
	case RUN_INTERRUPTED:
		fprintf(stderr, "dcqcn-sim: interrupted; results so far in %s/\n", dir);
		return EXIT_INTERRUPTED;
	default:
		fprintf(stderr, "dcqcn-sim: %s\n", r.err);
		return EXIT_USAGE;
	}
}

static int cmd_check(const struct cli *c)
{
	struct scenario *s = load(c);
	if (!s)
		return EXIT_USAGE;
	scenario_print(s, stdout);
	scenario_print_derived(s, stdout);
	run_print_plan(s, stdout);
	scenario_print_warnings(s, stdout);
	scenario_free(s);
	free(s);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("dcqcn-sim %s\n", DCQCN_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "plot"))
		return cmd_plot(argc, argv);
	if (strcmp(argv[1], "run") && strcmp(argv[1], "check") && strcmp(argv[1], "sweep"))
		return usage_error("unknown command %s", argv[1]);
	struct cli c = {0};
	int rc = parse_args(argc, argv, &c);
	if (rc)
		return rc;
	if (!strcmp(c.cmd, "sweep"))
		return cmd_sweep(&c);
	return !strcmp(c.cmd, "run") ? cmd_run(&c) : cmd_check(&c);
}
