/*
 * plot.c - `dcqcn-sim plot DIR`: the figures of a run, sweep, calibrate or
 * compare directory (plots/), and the figures the other commands draw when
 * they end (run --plot, sweep --plot, calibrate, compare).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plots/plot.h"
#include "sim/cli/cli.h"
#include "sim/run/output.h"

#define TABLE_LINE_BYTES 65536 /* a line of sweep.csv */
#define TABLE_MAX_COLS 512

/* the plot scripts: $DCQCN_SIM_PLOTS, those installed beside the program
 * (BINDIR/../share/dcqcn-sim/plots: an installed program finds its own, from
 * any directory, wherever its prefix is), the source tree's plots/, and the
 * configured install folder */
const char *cli_plots_dir(void)
{
	static char beside[8192];
	const char *dirs[4];
	int n = 0;
	char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash = len > 0 ? (exe[len] = '\0', strrchr(exe, '/')) : NULL;
	if (slash) {
		*slash = '\0';
		snprintf(beside, sizeof(beside), "%s/%s", exe, DCQCN_PLOTS_RELATIVE);
		dirs[n++] = beside;
	}
	dirs[n++] = DCQCN_PLOTS_SOURCE;
	dirs[n++] = DCQCN_PLOTS_INSTALLED;
	dirs[n] = NULL;
	return plot_scripts_dir(dirs);
}

/* is name one of the comma-separated fields of list? */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		size_t l = strcspn(p, ",");
		if (l == n && !strncmp(p, name, n))
			return 1;
		p += l + (p[l] == ',');
	}
	return 0;
}

int cli_check_columns(const char *opt, const char *list, const char *known)
{
	if (!*list)
		return cli_usage_error("%s: no column names", opt);
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		char name[128];
		snprintf(name, sizeof(name), "%.*s", (int)l, p);
		p += l + (p[l] == ',');
		if (!l)
			return cli_usage_error("%s %s: an empty column name", opt, list);
		if (in_list(known, name))
			continue;
		char *cands = strdup(known), *f[TABLE_MAX_COLS];
		if (!cands)
			return cli_usage_error("out of memory");
		int n = output_split_csv(cands, f, TABLE_MAX_COLS);
		const char *guess = cli_guess(name, (const char *const *)f, (size_t)n);
		int rc = guess ? cli_usage_error("%s: %s is not a column of sweep.csv; did you "
						 "mean %s?", opt, name, guess)
			       : cli_usage_error("%s: %s is not a column of sweep.csv (the columns "
						 "of summary.csv: see docs/outputs.md)", opt,
						 name);
		free(cands);
		return rc;
	}
	return 0;
}

/* what a plot_* call ended with: its note on stdout (unless quiet) and 0,
 * or its failure on stderr and EXIT_PLOT */
static int drawn(int failed, const char *note, int quiet)
{
	if (failed) {
		fprintf(stderr, "dcqcn-sim: plot: %s\n", note);
		return EXIT_PLOT;
	}
	if (!quiet)
		printf("dcqcn-sim: %s\n", note);
	return 0;
}

/* the figures of a sweep directory: the metrics of columns (NULL: the
 * default ones), checked against sweep.csv's header first */
static int plot_sweep_dir(const char *dir, const char *path, const char *format, int quiet,
			  const char *columns)
{
	char err[2048], r0[4200];
	if (columns) {
		char header[TABLE_LINE_BYTES / 4] = "";
		FILE *fp = fopen(path, "r");
		if (fp) {
			if (!fgets(header, sizeof(header), fp))
				header[0] = '\0';
			fclose(fp);
		}
		header[strcspn(header, "\n")] = '\0';
		int rc = cli_check_columns("--columns", columns, header);
		if (rc)
			return rc;
	}
	if (plot_sweep(dir, cli_plots_dir(), format, columns, err, sizeof(err))) {
		fprintf(stderr, "dcqcn-sim: plot: %s\n", err);
		return EXIT_PLOT;
	}
	if (!quiet) {
		snprintf(r0, sizeof(r0), "%s/p000/r0", dir);
		printf("dcqcn-sim: %s (a point's own: dcqcn-sim plot %s/p000%s)\n", err, dir,
		       access(r0, F_OK) == 0 ? "/r0" : "");
	}
	return 0;
}

int cli_plot_dir(const char *dir, const char *format, int quiet, const char *columns)
{
	char path[4200], err[2048];
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	if (access(path, F_OK) == 0) { /* a compare directory */
		if (columns)
			return cli_usage_error("plot --columns: %s is a compare directory "
					       "(--columns picks the metrics of a sweep's figures)",
					       dir);
		return drawn(plot_compare(dir, cli_plots_dir(), format, err, sizeof(err)), err,
			     quiet);
	}
	snprintf(path, sizeof(path), "%s/nccl-tests.csv", dir);
	if (access(path, F_OK) == 0) { /* an nccl-tests directory */
		if (columns)
			return cli_usage_error("plot --columns: %s is an nccl-tests directory "
					       "(--columns picks the metrics of a sweep's figures)",
					       dir);
		return drawn(plot_nccltests(dir, cli_plots_dir(), format, err, sizeof(err)), err,
			     quiet);
	}
	snprintf(path, sizeof(path), "%s/plane.csv", dir);
	if (access(path, F_OK) == 0) { /* a calibrate directory */
		if (columns)
			return cli_usage_error("plot --columns: %s is a calibrate directory "
					       "(--columns picks the metrics of a sweep's figures)",
					       dir);
		return drawn(plot_calibrate(dir, cli_plots_dir(), format, err, sizeof(err)), err,
			     quiet);
	}
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	char summary[4200];
	snprintf(summary, sizeof(summary), "%s/summary.csv", dir);
	if (access(path, F_OK) != 0 && access(summary, F_OK) != 0)
		return cli_usage_error("plot: %s is not a run, sweep, calibrate or compare directory, "
				       "nor an nccl-tests one (no summary.csv, sweep.csv, plane.csv, "
				       "compare.csv or nccl-tests.csv)", dir);
	if (access(path, F_OK) != 0) {
		if (columns)
			return cli_usage_error("plot --columns: %s has no sweep.csv (--columns "
					       "picks the metrics of a sweep's figures)", dir);
		return drawn(plot_run(dir, cli_plots_dir(), format, err, sizeof(err)), err, quiet);
	}
	return plot_sweep_dir(dir, path, format, quiet, columns);
}

/* ---- the command ---- */

struct plot_args {
	const char *dir, *format, *columns;
};

static const char plot_usage[] =
	"usage: dcqcn-sim plot DIR [--format png|svg|pdf] [--columns M,...]\n"
	"\n"
	"Draw the figures of run directory DIR into DIR/plots/ with gnuplot\n"
	"(apt-get install gnuplot-nox): queues, pause map, pause and ECN rates, DCQCN\n"
	"rates, collectives; the data each figure uses is kept in DIR/plots/data/.\n"
	"For a sweep directory (one that holds sweep.csv), the sweep's figures in\n"
	"DIR/plots/: sweep_METRIC.png, each metric against the first numeric axis\n"
	"(its values as labels, spaced by their base unit), a line per value of the\n"
	"other axes (min-max bars with --repeat); and with two or more axes\n"
	"sweep_pass.png, pass or fail over the first two axes (a cell is the worst\n"
	"over the other axes: it passes only if every such point does).  A point's\n"
	"own figures: dcqcn-sim plot DIR/p000 (DIR/p000/r0 with --repeat).  A\n"
	"calibrate, compare or nccl-tests directory gets its own figure\n"
	"(calibrate.png, compare.png, nccltests.png: busbw and time against size).\n"
	"\n";

static const struct cli_opt plot_opts[] = {
	CLI_OPT_FORMAT(offsetof(struct plot_args, format),
		       "png (default), svg or pdf; drawing a figure removes its files\n"
		       "in the other formats"),
	{ .name = "--columns", .arg = "M,...",
	  .needs = "a value (sweep.csv columns, e.g. ecn_mark_pct,pause_frame_rate)",
	  .kind = CLI_STR, .off = offsetof(struct plot_args, columns),
	  .help = "a sweep: the metrics drawn (sweep.csv columns; default\n"
		  "busbw_judged_min_pct,ecn_mark_pct)" },
	{ 0 },
};

/* the one DIR */
static int plot_arg(void *dst, const char *a)
{
	struct plot_args *p = dst;
	if (p->dir)
		return cli_usage_error("plot needs one run or sweep directory: dcqcn-sim plot DIR "
				       "[--format png|svg|pdf]");
	p->dir = a;
	return 0;
}

/* plot DIR [--format F] [--columns M,...] */
static int plot_main(int argc, char **argv)
{
	struct plot_args p = { .format = "png" };
	int rc = cli_parse(&cli_cmd_plot, argc, argv, &p, plot_arg);
	if (rc)
		return rc;
	if (!p.dir)
		return cli_usage_error("plot needs one run or sweep directory: dcqcn-sim plot DIR "
				       "[--format png|svg|pdf]");
	struct stat st;
	if (stat(p.dir, &st) || !S_ISDIR(st.st_mode))
		return cli_usage_error("plot: %s is not a run or sweep directory", p.dir);
	return cli_plot_dir(p.dir, p.format, 0, p.columns);
}

const struct cli_command cli_cmd_plot = {
	.name = "plot",
	.usage = plot_usage,
	.opts = plot_opts,
	.tail = "\n"
		"Exit status: 0 drawn; 2 bad usage, or DIR is not a run, sweep, calibrate,\n"
		"compare or nccl-tests directory; 4 a figure failed (the message names it\n"
		"and says why).\n",
	.main = plot_main,
};
