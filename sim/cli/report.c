/*
 * report.c - `dcqcn-sim report DIR`: the page of a finished run, sweep,
 * calibrate, compare or nccl-tests folder (sim/report/), and the page the
 * other commands write with --report when they end (cli_report_dir).
 */
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "sim/cli/cli.h"
#include "sim/cli/version.h"
#include "sim/report/report.h"

double cli_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cli_report_dir(const char *dir, int quiet, double wall_s)
{
	return cli_report_pages(dir, quiet, wall_s, 0);
}

int cli_report_pages(const char *dir, int quiet, double wall_s, int points)
{
	struct report_meta m = {
		.version = DCQCN_VERSION " (commit " DCQCN_COMMIT ")",
		.build_type = DCQCN_BUILDTYPE,
		.wall_s = wall_s,
		.scripts_dir = cli_plots_dir(),
	};
	char err[4096];
	int npoints = points ? report_sweep_points(dir, &m, err, sizeof(err)) : 0;
	if (npoints < 0) {
		fprintf(stderr, "dcqcn-sim: report: %s\n", err);
		return EXIT_USAGE;
	}
	if (npoints && !quiet)
		printf("dcqcn-sim: report: a page in each of the %d point folders\n", npoints);
	int rc = report_write(dir, &m, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "dcqcn-sim: report: %s\n", err);
		return EXIT_USAGE;
	}
	if (rc > 0) {
		fprintf(stderr, "dcqcn-sim: report: %s\n", err);
		return EXIT_PLOT;
	}
	if (!quiet)
		printf("dcqcn-sim: report in %s\n", err);
	return 0;
}

/* ---- the command ---- */

struct report_args {
	const char *dir;
	int quiet;
};

static const char report_usage[] =
	"usage: dcqcn-sim report DIR [--quiet]\n"
	"\n"
	"Write DIR/report.html: one page, with everything inline (figures as SVG,\n"
	"no request to the network), readable on a phone and printable, of the\n"
	"finished folder DIR: a run (the verdict and each criterion's limit, measured\n"
	"value and margin, what was simulated, the settings' origins and warnings,\n"
	"a table per job, the figures), a sweep, a calibration, a compare or an\n"
	"nccl-tests folder (docs/outputs.md#the-report).  The page reads the\n"
	"folder's files only; figures need gnuplot (apt-get install gnuplot-nox).\n"
	"\n";

static const struct cli_opt report_opts[] = {
	{ .name = "--quiet", .alt = "-q", .kind = CLI_FLAG,
	  .off = offsetof(struct report_args, quiet), .help = "do not print the page's path" },
	{ 0 },
};

/* the one DIR */
static int report_arg(void *dst, const char *a)
{
	struct report_args *r = dst;
	if (r->dir)
		return cli_usage_error("report needs one folder: dcqcn-sim report DIR");
	r->dir = a;
	return 0;
}

static int report_main(int argc, char **argv)
{
	struct report_args r = { 0 };
	int rc = cli_parse(&cli_cmd_report, argc, argv, &r, report_arg);
	if (rc)
		return rc;
	if (!r.dir)
		return cli_usage_error("report needs one folder: dcqcn-sim report DIR");
	return cli_report_dir(r.dir, r.quiet, -1);
}

const struct cli_command cli_cmd_report = {
	.name = "report",
	.usage = report_usage,
	.opts = report_opts,
	.tail = "\n"
		"Exit status: 0 written; 2 bad usage, or DIR is not a finished folder of a\n"
		"kind above, or a file the page needs is missing or damaged (the message\n"
		"names it; nothing is written); 4 the page is written but a figure could\n"
		"not be drawn (the page says so where the figure would be).\n",
	.main = report_main,
};
