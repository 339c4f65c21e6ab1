/*
 * calibrate.c - `dcqcn-sim calibrate [SCENARIO]`: the ECN and DCQCN
 * settings that pass [criteria] on SCENARIO and the stress scenarios with
 * the largest margin (sim/sweeps/calibrate.h), and their figure.
 */
#include <stdio.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "sim/run/run.h"
#include "sim/sweeps/calibrate.h"
#include "sim/sweeps/sweep.h"

struct cal_args {
	struct calibrate_opts o;
	struct cli_sets sets;
	const char *format;
	int quiet, no_report;
	double t0; /* when the command began (cli_now_s) */
};

static const char cal_usage[] =
	"usage: dcqcn-sim calibrate [SCENARIO] [--stress FILE]... "
	"[--tune SECTION.KEY=LO:HI[:STEP]]...\n"
	"                           [--seeds N] [--budget N] [-j N] [-o DIR]\n"
	"                           [--set SECTION.KEY=VALUE]... [--threads N]\n"
	"                           [--switch-config FILE] [--nic-config FILE]\n"
	"                           [--no-plane] [--export-failing] [--format png|svg|pdf]\n"
	"                           [--no-report] [--quiet]\n"
	"\n"
	"Search the tuned keys for the settings that pass the [criteria] of SCENARIO\n"
	"(the embedded default without one) and of every --stress scenario, on every\n"
	"seed, with the largest margin (the tightest criterion's room, relative to its\n"
	"limit).  From the scenario's own settings: a space-filling design over the\n"
	"keys (the whole grid when it fits the budget), then steps of one grid value\n"
	"that move several keys at once while they gain; the one-step neighbours of\n"
	"the best check it is robust.  Every point evaluated is a candidate; the own\n"
	"settings win a tie, and a setting that raises a risk warning is not preferred\n"
	"over one that does not.  Prints the runs spent by phase, the recommendation\n"
	"and why, the own settings, the recommendation and the runner-up side by side\n"
	"(busbw, ECN marks, pauses, queue, drops, FCT, warnings; per seed) and the\n"
	"command that runs it.  DIR (default results/NAME-calibrate) gets\n"
	"calibrate.csv (every point and its figures), plane.csv and\n"
	"plots/calibrate.png (the margin over the two most influential keys), runs/,\n"
	"and, when the recommendation passes and its neighbours were checked,\n"
	"recommended.ini and export/ (SONiC config_db.json, mlx5 cc_params,\n"
	"nic-setup.sh, nccl.env).\n"
	"\n";

/* --stress FILE */
static int opt_stress(void *dst, const struct cli_opt *opt, const char *v, const char *next)
{
	struct calibrate_opts *o = &((struct cal_args *)dst)->o;
	(void)opt;
	(void)next;
	if (o->nstress == CAL_MAX_STRESS)
		return cli_usage_error("at most %d --stress scenarios", CAL_MAX_STRESS);
	o->stress[o->nstress++] = v;
	return 0;
}

/* --tune S.K=LO:HI[:STEP] */
static int opt_tune(void *dst, const struct cli_opt *opt, const char *v, const char *next)
{
	struct calibrate_opts *o = &((struct cal_args *)dst)->o;
	char err[4400];
	(void)opt;
	(void)next;
	if (o->nkeys == CAL_MAX_KEYS)
		return cli_usage_error("at most %d --tune keys", CAL_MAX_KEYS);
	if (calibrate_parse_tune(v, &o->keys[o->nkeys++], err, sizeof(err)))
		return cli_usage_error("%s", err);
	for (int k = 0; k < o->nkeys - 1; k++)
		if (!strcmp(o->keys[k].key, o->keys[o->nkeys - 1].key))
			return cli_usage_error("--tune %s given twice", o->keys[k].key);
	return 0;
}

#define CAL_OFF(f) offsetof(struct cal_args, f)

static const struct cli_opt cal_opts[] = {
	{ .name = "--stress", .arg = "FILE", .kind = CLI_CALL, .fn = opt_stress,
	  .help = "a scenario every setting must pass too (repeatable, at most "
		  XSTR(CAL_MAX_STRESS) ")" },
	{ .name = "--tune", .arg = "S.K=LO:HI[:STEP]", .kind = CLI_CALL, .fn = opt_tune,
	  .help = "a key to search and its grid (repeatable, at most\n"
		  XSTR(CAL_MAX_KEYS) "; replaces the default keys): STEP xF multiplies "
		  "(default x2,\n"
		  "3 digits), an amount in the values' unit adds; a plain number\n"
		  "is the key's bare unit.  Default: ecn.kmin=50KB:3.2MB:x2\n"
		  "ecn.kmax=400KB:12.8MB:x2 ecn.pmax=1%:32%:x2\n"
		  "dcqcn.rpg_ai_rate=5:1280:x4 dcqcn.rpg_time_reset=25:800:x2\n"
		  "dcqcn.min_time_between_cnps=1:64:x4" },
	{ .name = "--seeds", .arg = "N", .kind = CLI_INT, .off = CAL_OFF(o.seeds), .lo = 1,
	  .hi = CAL_MAX_SEEDS, .what = "seeds per point", .once = 1,
	  .help = "run every point with sim.seed = S..S+N-1, S each scenario's own\n"
		  "(1-" XSTR(CAL_MAX_SEEDS) ", default " XSTR(CAL_DEFAULT_SEEDS) "); a point passes only "
		  "when every seed does" },
	{ .name = "--budget", .arg = "N", .kind = CLI_INT, .off = CAL_OFF(o.budget), .lo = 2,
	  .hi = CAL_MAX_BUDGET, .what = "points of the search", .once = 1,
	  .help = "points the design and its refinement may run (2-" XSTR(CAL_MAX_BUDGET)
		  ", default\n" XSTR(CAL_DEFAULT_BUDGET) "); the neighbour check and the plane "
		  "come on top" },
	{ .name = "-j", .arg = "N", .kind = CLI_INT, .off = CAL_OFF(o.jobs), .lo = 1,
	  .hi = CLI_JOBS_MAX, .what = "runs at a time", .once = 1,
	  .help = "runs at a time, 1-" XSTR(CLI_JOBS_MAX) " (default 1)" },
	{ .name = "-o", .arg = "DIR", .kind = CLI_STR, .off = CAL_OFF(o.out_dir),
	  .help = "the calibrate directory (default results/NAME-calibrate)" },
	{ .name = "--set", .arg = "S.K=V", .kind = CLI_SET, .off = CAL_OFF(sets),
	  .help = "override one key in every scenario (repeatable)" },
	{ .name = "--threads", .arg = "N", .kind = CLI_SIM_SET, .off = CAL_OFF(sets),
	  .help = "same as --set sim.threads=N" },
	{ .name = "--switch-config", .arg = "FILE", .once = 1, .kind = CLI_STR,
	  .off = CAL_OFF(o.switch_config), .synopsis = "--switch-config FILE, --nic-config FILE",
	  .help = "as for run, in every scenario" },
	{ .name = "--nic-config", .arg = "FILE", .once = 1, .kind = CLI_STR,
	  .off = CAL_OFF(o.nic_config) },
	{ .name = "--no-plane", .kind = CLI_FLAG, .off = CAL_OFF(o.no_plane),
	  .help = "no margin plane (fewer runs) and no figure" },
	{ .name = "--export-failing", .kind = CLI_FLAG, .off = CAL_OFF(o.export_failing),
	  .help = "write recommended.ini and export/ even when nothing passes or\n"
		  "the search was interrupted, each file's first line saying so" },
	CLI_OPT_FORMAT(CAL_OFF(format),
		       "the figure's format: png (default), svg or pdf"),
	{ .name = "--no-report", .kind = CLI_FLAG, .off = CAL_OFF(no_report),
	  .help = CLI_HELP_NO_REPORT },
	{ .name = "--quiet", .alt = "-q", .kind = CLI_FLAG, .off = CAL_OFF(quiet),
	  .help = "no progress lines, no printed report" },
	{ 0 },
};

/* SCENARIO; a second one is refused at once */
static int cal_arg(void *dst, const char *a)
{
	struct calibrate_opts *o = &((struct cal_args *)dst)->o;
	if (o->scenario)
		return cli_usage_error("one scenario at a time (extra argument %s; a stress "
				       "scenario is --stress %s)", a, a);
	o->scenario = a;
	return 0;
}

/* calibrate [SCENARIO] [--stress F]... [--tune K=LO:HI[:STEP]]... [--seeds N]
 * [-j N] [-o DIR] [--set ...] [--threads N] [--switch-config F] [--nic-config F]
 * [--no-plane] [--format F] [--quiet] */
static int cal_main(int argc, char **argv)
{
	static struct cal_args a; /* the keys' grids: not on the stack */
	struct calibrate_opts *o = &a.o;
	char err[4400], dir[4096];
	a.t0 = cli_now_s();
	o->seeds = CAL_DEFAULT_SEEDS;
	o->jobs = 1;
	int rc = cli_parse(&cli_cmd_calibrate, argc, argv, &a, cal_arg);
	if (rc)
		return rc;
	if (!o->nkeys)
		o->nkeys = calibrate_default_keys(o->keys);
	o->sets = a.sets.v;
	o->nsets = a.sets.n;
	cli_out_dir(o->out_dir, o->scenario, "-calibrate", dir, sizeof(dir));
	o->out_dir = dir;
	int rank = 0, size;
	sweep_mpi_ranks(&rank, &size);
	o->log = a.quiet || rank ? NULL : stderr;
	o->out = a.quiet || rank ? NULL : stdout;
	o->interrupt = &cli_interrupted;
	cli_install_signals();
	int st = calibrate_run(o, NULL, err, sizeof(err));
	int plot_rc = 0;
	if ((st == RUN_OK || st == CALIBRATE_NONE_PASSES) && !o->no_plane && o->nkeys > 1 &&
	    rank == 0)
		plot_rc = cli_plot_dir(dir, a.format, a.quiet, NULL);
	/* the page says NO SETTING PASSES too */
	if (!a.no_report && (st == RUN_OK || st == CALIBRATE_NONE_PASSES) && rank == 0) {
		int rrc = cli_report_dir(dir, a.quiet, cli_now_s() - a.t0);
		if (rrc && !plot_rc)
			plot_rc = rrc;
	}
	switch (st) {
	case RUN_OK:
		return plot_rc;
	case CALIBRATE_NONE_PASSES:
		return plot_rc == EXIT_USAGE ? EXIT_USAGE : EXIT_NO_PASS;
	case RUN_INTERRUPTED:
		fprintf(stderr, "dcqcn-sim: calibrate %s; the points evaluated are in "
			"%s/calibrate.csv\n",
			cli_interrupted == SIGINT ? "interrupted" : "terminated", dir);
		return EXIT_INTERRUPTED;
	default:
		fprintf(stderr, "dcqcn-sim: calibrate: %s\n", err);
		return EXIT_USAGE;
	}
}

const struct cli_command cli_cmd_calibrate = {
	.name = "calibrate",
	.usage = cal_usage,
	.opts = cal_opts,
	.tail = "\n"
		"Exit status: 0 a setting passes everywhere; 5 none does (the closest is\n"
		"reported; --export-failing writes it, marked); 2 bad usage, a scenario that does not load, or a\n"
		"write that failed; 3 stopped by SIGINT, SIGTERM or SIGHUP (calibrate.csv has\n"
		"the points evaluated); 4 the figure failed.\n",
	.main = cal_main,
};
