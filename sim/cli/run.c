/*
 * run.c - `dcqcn-sim run [SCENARIO]`: one simulation into its run
 * directory, a summary table, and with --fluid the fluid model beside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "models/scenario/scenario.h"
#include "sim/cli/cli.h"
#include "sim/run/fluidrun.h"
#include "sim/run/run.h"

struct run_args {
	struct cli_sets sets;
	const char *out_dir, *format, *switch_config, *nic_config, *fabric;
	int quiet, plot, fluid, report;
	double t0; /* when the command began (cli_now_s) */
	const char *args[2]; /* the scenario, and the first extra argument */
	int nargs;
};

static const char run_usage[] =
	"usage: dcqcn-sim run [SCENARIO] [-o DIR] [--set SECTION.KEY=VALUE]... [--seed N]\n"
	"                     [--threads N] [--quiet] [--plot] [--format png|svg|pdf]\n"
	"                     [--fluid] [--report] [--switch-config FILE] [--nic-config FILE]\n"
	"                     [--fabric " SCN_FABRICS_JOINED("|") "]\n"
	"\n"
	"Simulate SCENARIO (without one, the embedded scenarios/default.ini) and write\n"
	"the run directory DIR: scenario.ini, summary.csv, stats.csv, warnings.txt and\n"
	"the time series (docs/outputs.md); print a summary table.\n"
	"\n"
	"Under mpirun -np R (the MPI build), one run split over the R ranks: each runs\n"
	"its share of the partitions on --threads threads (auto: 1); rank 0 writes the\n"
	"files, byte for byte those of one process, and ranks.csv, each rank's cost\n"
	"(docs/SCALING.md; dcqcn-sim check --ranks R shows the split).\n"
	"\n";

#define RUN_OFF(f) offsetof(struct run_args, f)

static const struct cli_opt run_opts[] = {
	{ .name = "-o", .arg = "DIR", .kind = CLI_STR, .off = RUN_OFF(out_dir),
	  .help = "the run directory (default results/NAME, NAME the scenario\n"
		  "file name without .ini; results/default for the embedded one)" },
	{ .name = "--set", .arg = "S.K=V", .kind = CLI_SET, .off = RUN_OFF(sets),
	  .help = "override one key, e.g. --set topology.spines=4 (repeatable;\n"
		  "dcqcn-sim keys lists the keys)" },
	{ .name = "--seed", .arg = "N", .kind = CLI_SIM_SET, .off = RUN_OFF(sets),
	  .help = "same as --set sim.seed=N" },
	{ .name = "--threads", .arg = "N", .kind = CLI_SIM_SET, .off = RUN_OFF(sets),
	  .help = "same as --set sim.threads=N: one run on N cores (default auto:\n"
		  "every core); the outputs are the same for every N" },
	{ .name = "--quiet", .alt = "-q", .kind = CLI_FLAG, .off = RUN_OFF(quiet),
	  .help = "no summary table, no progress bar" },
	{ .name = "--plot", .kind = CLI_FLAG, .off = RUN_OFF(plot),
	  .help = "draw the figures (dcqcn-sim plot DIR) when the run ends" },
	CLI_OPT_FORMAT(RUN_OFF(format),
		       "the figures' format: png (default), svg or pdf; implies --plot"),
	{ .name = "--report", .kind = CLI_FLAG, .off = RUN_OFF(report), .help = CLI_HELP_REPORT },
	CLI_OPT_CONFIGS(RUN_OFF(switch_config), RUN_OFF(nic_config)),
	{ .name = "--fluid", .kind = CLI_FLAG, .off = RUN_OFF(fluid),
	  .help = "also DCQCN's fluid model of the scenario's incast over the run's\n"
		  "time (dcqcn-sim fluid) into DIR/fluid/; queues.png and\n"
		  "dcqcn.png draw it beside the packets.  A scenario that is not\n"
		  "one incast is refused before anything runs" },
	{ .name = "--fabric", .arg = "F", .needs = "a fabric (" SCN_FABRICS_JOINED(", ") ")",
	  .once = 1, .kind = CLI_CALL, .fn = cli_opt_fabric, .off = RUN_OFF(fabric),
	  .help = CLI_HELP_FABRIC },
	CLI_OTHERS("--vary", "V", NULL, "sweep"),
	CLI_OTHERS("-j", "N", NULL, "sweep"),
	CLI_OTHERS("--resume", NULL, NULL, "sweep"),
	CLI_OTHERS("--repeat", "N", NULL, "sweep"),
	CLI_OTHERS("--columns", "M", NULL, "sweep"),
	CLI_OTHERS("--shard", "I/N", NULL, "sweep"),
	CLI_OTHERS("--export", "DIR", "a directory", "check"),
	CLI_OTHERS("--merge", NULL, NULL, "sweep"),
	{ 0 },
};

/* SCENARIO; more are refused once every option is read */
static int run_arg(void *dst, const char *a)
{
	struct run_args *r = dst;
	if (r->nargs == CLI_MAX_ARGS)
		return cli_usage_error("too many arguments (at most %d)", CLI_MAX_ARGS);
	if (r->nargs < 2)
		r->args[r->nargs] = a;
	r->nargs++;
	return 0;
}

/* the files `run --fluid` writes into DIR/fluid/: removed by a run without
 * it, so that the figures never draw an older run's fluid model */
static const char *const fluid_files[] = { "queues.csv", "rates.csv", "summary.csv", NULL };

static void remove_fluid(const char *dir)
{
	char path[4200];
	for (int i = 0; fluid_files[i]; i++) {
		snprintf(path, sizeof(path), "%s/fluid/%s", dir, fluid_files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/fluid", dir);
	rmdir(path);
}

/* run --fluid: the fluid model over the packet run's time into DIR/fluid;
 * 0, or -1 with the message in err */
static int run_fluid(const struct scenario *s, const char *dir, sim_time_ps until, int quiet,
		     char *err, size_t errlen)
{
	char sub[4200];
	snprintf(sub, sizeof(sub), "%s/fluid", dir);
	struct fluidrun_opts o = { .out_dir = sub, .duration_ps = until };
	struct fluidrun_result r;
	if (fluidrun_run(s, &o, &r, err, errlen))
		return -1;
	if (!quiet) {
		printf("dcqcn-sim: fluid model in %s/\n", sub);
		fluidrun_print(&r, stdout);
	}
	return 0;
}

/* a rank but 0 of a run split over mpirun's ranks: it runs its share and
 * says nothing; rank 0 reports, plots and gives the exit status of all */
static int run_other_rank(struct scenario *s, const char *dir, const struct fabric_comm *comm)
{
	cli_install_signals();
	struct run_opts opts = { .out_dir = dir, .interrupt = &cli_interrupted, .comm = comm };
	struct run_result r;
	enum run_status st = run_scenario(s, &opts, &r);
	scenario_close(s);
	return st == RUN_OK ? 0 : st == RUN_INVARIANT ? EXIT_INVARIANT
		: st == RUN_INTERRUPTED ? EXIT_INTERRUPTED : EXIT_USAGE;
}

/* the run of s into dir, its summary and figures; the exit status */
static int run_into(struct scenario *s, const struct run_args *a, const char *dir,
		    const struct fabric_comm *comm)
{
	if (comm && comm->rank)
		return run_other_rank(s, dir, comm);
	remove_fluid(dir);
	char page[4200];
	snprintf(page, sizeof(page), "%s/report.html", dir); /* never an earlier run's page */
	unlink(page);
	cli_install_signals();
	struct run_opts opts = {
		.out_dir = dir,
		.progress = !a->quiet && isatty(STDERR_FILENO) ? stderr : NULL,
		.interrupt = &cli_interrupted,
		.comm = comm,
	};
	struct run_result r;
	enum run_status st = run_scenario(s, &opts, &r);
	if (!a->quiet && st != RUN_EIO) {
		printf("dcqcn-sim: results in %s/\n", dir);
		run_print_summary(&r, stdout);
	}
	if (a->fluid && st == RUN_OK &&
	    run_fluid(s, dir, r.sim_time_ps, a->quiet, r.err, sizeof(r.err)))
		st = RUN_EIO;
	scenario_close(s);
	/* the results stand when plotting fails; the exit status says it did */
	int plot_rc = a->plot && st == RUN_OK ? cli_plot_dir(dir, a->format, a->quiet, NULL) : 0;
	/* a run stopped by a signal is reported too: its page says NOT JUDGED */
	if (a->report && (st == RUN_OK || st == RUN_INTERRUPTED)) {
		int rrc = cli_report_dir(dir, a->quiet, cli_now_s() - a->t0);
		if (rrc == EXIT_USAGE && st == RUN_OK)
			return EXIT_USAGE;
		if (rrc && !plot_rc)
			plot_rc = rrc;
	}
	switch (st) {
	case RUN_OK:
		return plot_rc;
	case RUN_INVARIANT:
		fprintf(stderr, "dcqcn-sim: invariant broken: %s\n", r.err);
		return EXIT_INVARIANT;
	case RUN_INTERRUPTED:
		fprintf(stderr, "dcqcn-sim: %s; results so far in %s/\n",
			cli_interrupted == SIGINT ? "interrupted" : "terminated", dir);
		return EXIT_INTERRUPTED;
	default:
		fprintf(stderr, "dcqcn-sim: %s\n", r.err);
		return EXIT_USAGE;
	}
}

static int run_main(int argc, char **argv)
{
	struct run_args a = { .t0 = cli_now_s() };
	int rc = cli_parse(&cli_cmd_run, argc, argv, &a, run_arg);
	if (rc)
		return rc;
	if (a.nargs > 1)
		return cli_usage_error("one scenario at a time (extra argument %s)", a.args[1]);
	if (a.format)
		a.plot = 1;
	const char *scenario = a.nargs ? a.args[0] : NULL;
	/* under mpirun -np R (R > 1): one run split over the ranks */
	struct fabric_comm comm = {0};
	int split = run_comm_mpi(&comm);
	if (split < 0)
		return cli_usage_error("out of memory for the ranks of the run");
	int quiet_rank = split && comm.rank;
	struct scenario *s = cli_load(scenario, &a.sets, a.switch_config, a.nic_config, a.fabric,
				      a.quiet || quiet_rank);
	if (!s) {
		run_comm_free(&comm);
		return EXIT_USAGE;
	}
	char err[2048];
	if (a.fluid && fluidrun_check(s, err, sizeof(err))) { /* the model must take it */
		scenario_free(s);
		free(s);
		run_comm_free(&comm);
		return cli_usage_error("--%s", err); /* "fluid: why" */
	}
	if (!quiet_rank) /* and DIR/warnings.txt */
		scenario_write_warnings(s, stderr, "dcqcn-sim: warning: ");
	char dir[4096];
	cli_out_dir(a.out_dir, scenario, "", dir, sizeof(dir));
	rc = run_into(s, &a, dir, split ? &comm : NULL);
	run_comm_free(&comm);
	return rc;
}

const struct cli_command cli_cmd_run = {
	.name = "run",
	.usage = run_usage,
	.opts = run_opts,
	.tail = "\n"
		"Exit status: 0 success; 1 a broken invariant (the message names the check);\n"
		"2 bad usage, a bad scenario (the message names FILE:LINE and the key) or a\n"
		"write that failed (the message names the file and why: a full disk, a\n"
		"file-size limit; the run stops at once and writes no summary.csv);\n"
		"3 stopped by SIGINT (end = interrupted) or SIGTERM / SIGHUP (end =\n"
		"terminated): every file complete, summary.csv not judged; a third signal\n"
		"kills at once; 4 a figure failed (the results are written; with --report,\n"
		"the page is written and says which).\n",
	.main = run_main,
};
