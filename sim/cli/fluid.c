/*
 * fluid.c - `dcqcn-sim fluid SCENARIO`: DCQCN's fluid model of the
 * scenario's incast (sim/run/fluidrun.h): fixed point, phase margin and the
 * integrated queue and rates, or a table over the number of flows.
 */
#include <stdio.h>
#include <stdlib.h>

#include "models/base/units.h"
#include "models/scenario/scenario.h"
#include "sim/cli/cli.h"
#include "sim/run/fluidrun.h"

struct fluid_args {
	struct cli_sets sets;
	const char *scenario, *out_dir;
	struct fluidrun_opts o;
	unsigned lo, hi; /* --sweep-flows A:B */
	int sweep;
};

static const char fluid_usage[] =
	"usage: dcqcn-sim fluid SCENARIO [-o DIR] [--set S.K=V]... [--step T]\n"
	"                       [--sweep-flows A:B]\n"
	"\n"
	"The DCQCN fluid model (Zhu et al., CoNEXT 2016) of SCENARIO's one incast (or\n"
	"one trace whose flows all go to one host): N flows with their start times,\n"
	"the receiver's host_link, the WRED ramp, the [dcqcn] knobs and the feedback\n"
	"delay tau* of the path (a frame out, a CNP back, as check computes it).\n"
	"Integrates the delay equations for sim.duration (flows never end), solves\n"
	"the fixed point with GSL and the linearised loop's phase margin; prints\n"
	"both, and writes DIR/queues.csv, rates.csv (the packet run's formats) and\n"
	"summary.csv.  A scenario that does not fit is refused, saying why.\n"
	"\n";

/* --step T */
static int opt_step(void *dst, const struct cli_opt *o, const char *v, const char *next)
{
	struct fluid_args *f = dst;
	char err[2048];
	(void)o;
	(void)next;
	if (units_parse_time(v, &f->o.step_ps, err, sizeof(err)) || f->o.step_ps <= 0)
		return cli_usage_error("--step %s: a time, e.g. 100ns", v);
	return 0;
}

/* --sweep-flows A:B */
static int opt_sweep_flows(void *dst, const struct cli_opt *o, const char *v, const char *next)
{
	struct fluid_args *f = dst;
	char tail;
	(void)o;
	(void)next;
	if (sscanf(v, "%u:%u%c", &f->lo, &f->hi, &tail) != 2 || f->lo < 1 || f->hi < f->lo)
		return cli_usage_error("--sweep-flows %s: A:B, 1 <= A <= B (e.g. 2:64)", v);
	f->sweep = 1;
	return 0;
}

#define FLUID_OFF(f) offsetof(struct fluid_args, f)

static const struct cli_opt fluid_opts[] = {
	{ .name = "-o", .arg = "DIR", .kind = CLI_STR, .off = FLUID_OFF(out_dir),
	  .help = "the output directory (default results/NAME-fluid)" },
	{ .name = "--set", .arg = "S.K=V", .kind = CLI_SET, .off = FLUID_OFF(sets),
	  .help = "override one key (repeatable), e.g. --set sim.duration=200ms" },
	{ .name = "--step", .arg = "T", .kind = CLI_CALL, .fn = opt_step,
	  .help = "integration step (default 100ns, at most tau*)" },
	{ .name = "--sweep-flows", .arg = "A:B", .kind = CLI_CALL, .fn = opt_sweep_flows,
	  .help = "instead: a table of N = A, the powers of 2 between, and\n"
		  "B: fixed-point queue, mark probability, alpha, phase margin,\n"
		  "stable or oscillating, and an integrated run's queue, rate\n"
		  "per flow and whether it reached the fixed point" },
	{ 0 },
};

/* SCENARIO; a second one is refused at once */
static int fluid_arg(void *dst, const char *a)
{
	struct fluid_args *f = dst;
	if (f->scenario)
		return cli_usage_error("one scenario at a time (extra argument %s)", a);
	f->scenario = a;
	return 0;
}

/* fluid SCENARIO [-o DIR] [--set S.K=V]... [--step T] [--sweep-flows A:B] */
static int fluid_main(int argc, char **argv)
{
	struct fluid_args f = { 0 };
	char err[2048], dir[4096];
	int rc = cli_parse(&cli_cmd_fluid, argc, argv, &f, fluid_arg);
	if (rc)
		return rc;
	if (!f.scenario)
		return cli_usage_error("fluid needs a SCENARIO file");
	struct scenario *s = cli_load(f.scenario, &f.sets, NULL, NULL, NULL, 0);
	if (!s)
		return EXIT_USAGE;
	if (f.sweep) {
		rc = fluidrun_sweep(s, &f.o, f.lo, f.hi, stdout, err, sizeof(err));
	} else {
		cli_out_dir(f.out_dir, f.scenario, "-fluid", dir, sizeof(dir));
		f.o.out_dir = dir;
		struct fluidrun_result r;
		rc = fluidrun_run(s, &f.o, &r, err, sizeof(err));
		if (!rc) {
			printf("dcqcn-sim: fluid results in %s/\n", dir);
			fluidrun_print(&r, stdout);
		}
	}
	scenario_free(s);
	free(s);
	if (rc)
		fprintf(stderr, "dcqcn-sim: %s\n", err);
	return rc ? EXIT_USAGE : 0;
}

const struct cli_command cli_cmd_fluid = {
	.name = "fluid",
	.usage = fluid_usage,
	.opts = fluid_opts,
	.tail = "\n"
		"Exit status: 0 done; 2 bad usage, a bad scenario or one the model does not\n"
		"take (the message says why), or a write that failed.\n",
	.main = fluid_main,
};
