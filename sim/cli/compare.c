/*
 * compare.c - `dcqcn-sim compare [SCENARIO]`: the scenario on each fabric
 * type (lossless RoCEv2, InfiniBand, lossy TCP Ethernet) side by side
 * (sim/sweeps/compare.h), and the figure.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "models/scenario/scenario.h"
#include "sim/cli/cli.h"
#include "sim/run/run.h"
#include "sim/sweeps/compare.h"

_Static_assert(SCN_FABRIC_COUNT == COMPARE_MAX_FABRICS, "compare runs every fabric type");

struct compare_args {
	struct compare_opts o;
	struct cli_sets sets;
	const char *format;
	int probe, quiet, no_report;
	double t0; /* when the command began (cli_now_s) */
};

static const char compare_usage[] =
	"usage: dcqcn-sim compare [SCENARIO] [--fabrics LIST] [--probe N] [-o DIR]\n"
	"                         [--set SECTION.KEY=VALUE]... [--threads N]\n"
	"                         [--format png|svg|pdf] [--no-report] [--quiet]\n"
	"\n"
	"Run SCENARIO (the embedded default without one) on each fabric type with that\n"
	"fabric's defaults: lossless RoCEv2 (" SCN_FABRIC_NAME_ROCE ": PFC, ECN, DCQCN), InfiniBand\n"
	"(" SCN_FABRIC_NAME_IB ": credit-based flow control) and lossy TCP Ethernet ("
	SCN_FABRIC_NAME_TCP ").\n"
	"Keys of the scenario (and --set) that do not apply to a fabric are skipped for\n"
	"it, each named on stderr (on InfiniBand: [pfc], [pfcwd], [ecn], [dcqcn],\n"
	"nic.cc).  Every run gets a background ping-pong of 4 KB messages between the\n"
	"first and the last host (a trace job, " COMPARE_PROBE_JOB "): message i starts\n"
	"when message i-1 has arrived, and not before i x 20 us; those that started\n"
	"while the other jobs ran give the latency rows.  sim.duration is raised to 10s\n"
	"unless --set gives it, so that a fabric slowed by timeouts still finishes.\n"
	"Prints the matrix: drops, retransmitted bytes, timeouts, 4 KB latency p50 and\n"
	"p99, collective time and bus bandwidth, flow completion p99 (the probe left\n"
	"out), pause frames or credit stall time, and [criteria].  DIR (default\n"
	"results/NAME-compare) gets compare.csv, probe.csv, a run directory per fabric\n"
	"and plots/compare.png.\n"
	"\n";

/* --fabrics LIST: the fabric types, comma-separated, in order */
static int opt_fabrics(void *dst, const struct cli_opt *opt, const char *list, const char *next)
{
	struct compare_opts *o = &((struct compare_args *)dst)->o;
	char buf[128];
	(void)opt;
	(void)next;
	snprintf(buf, sizeof(buf), "%s", list);
	o->nfabrics = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int k = cli_fabric_index(t);
		if (k < 0)
			return cli_usage_error("--fabrics: %s is not a fabric ("
					       SCN_FABRICS_JOINED(", ") ")", t);
		for (int i = 0; i < o->nfabrics; i++)
			if (o->fabrics[i] == scenario_fabric_names[k])
				return cli_usage_error("--fabrics: %s given twice", t);
		o->fabrics[o->nfabrics++] = scenario_fabric_names[k];
	}
	if (!o->nfabrics)
		return cli_usage_error("--fabrics: no fabric given");
	return 0;
}

#define COMPARE_OFF(f) offsetof(struct compare_args, f)

static const struct cli_opt compare_opts[] = {
	{ .name = "--fabrics", .arg = "LIST", .kind = CLI_CALL, .fn = opt_fabrics,
	  .help = "the fabrics, comma-separated, in order (default\n"
		  SCN_FABRICS_JOINED(",") ")" },
	{ .name = "--probe", .arg = "N", .kind = CLI_INT, .off = COMPARE_OFF(probe), .lo = 0,
	  .hi = 100000, .what = "probe messages",
	  .help = "probe messages (default " XSTR(COMPARE_PROBE_DEFAULT) "; 0: no probe)" },
	{ .name = "-o", .arg = "DIR", .kind = CLI_STR, .off = COMPARE_OFF(o.out_dir),
	  .help = "the compare directory (default results/NAME-compare)" },
	{ .name = "--set", .arg = "S.K=V", .kind = CLI_SET, .off = COMPARE_OFF(sets),
	  .help = "override one key on every fabric where it applies (repeatable)" },
	{ .name = "--threads", .arg = "N", .kind = CLI_SIM_SET, .off = COMPARE_OFF(sets),
	  .help = "same as --set sim.threads=N" },
	CLI_OPT_FORMAT(COMPARE_OFF(format),
		       "the figure's format: png (default), svg or pdf"),
	{ .name = "--no-report", .kind = CLI_FLAG, .off = COMPARE_OFF(no_report),
	  .help = CLI_HELP_NO_REPORT },
	{ .name = "--quiet", .alt = "-q", .kind = CLI_FLAG, .off = COMPARE_OFF(quiet),
	  .help = "no progress, no skipped keys, no matrix" },
	{ 0 },
};

/* SCENARIO; a second one is refused at once */
static int compare_arg(void *dst, const char *a)
{
	struct compare_opts *o = &((struct compare_args *)dst)->o;
	if (o->scenario)
		return cli_usage_error("one scenario at a time (extra argument %s)", a);
	o->scenario = a;
	return 0;
}

/* what compare prints and returns when compare_run gave st */
static int compare_outcome(const struct compare_args *a, const struct compare_row *rows,
			   enum run_status st, const char *dir, char *err, size_t errlen)
{
	if (st == RUN_OK && compare_write_csv(dir, rows, a->o.nfabrics, err, errlen))
		st = RUN_EIO;
	if (st == RUN_OK && !a->quiet) {
		printf("dcqcn-sim: compare: results in %s/\n", dir);
		compare_print(&a->o, rows, stdout);
	}
	switch (st) {
	case RUN_OK: {
		int rc = cli_plot_dir(dir, a->format, a->quiet, NULL);
		int rrc = a->no_report ? 0 : cli_report_dir(dir, a->quiet, cli_now_s() - a->t0);
		return rc ? rc : rrc;
	}
	case RUN_INVARIANT:
		fprintf(stderr, "dcqcn-sim: invariant broken: %s\n", err);
		return EXIT_INVARIANT;
	case RUN_INTERRUPTED:
		fprintf(stderr, "dcqcn-sim: compare %s; the runs so far are in %s/\n",
			cli_interrupted == SIGINT ? "interrupted" : "terminated", dir);
		return EXIT_INTERRUPTED;
	default:
		fprintf(stderr, "dcqcn-sim: compare: %s\n", err);
		return EXIT_USAGE;
	}
}

static int compare_main(int argc, char **argv)
{
	static struct compare_args a; /* the rows' results: not on the stack */
	static struct compare_row rows[COMPARE_MAX_FABRICS];
	char err[4400], dir[4096];
	a.t0 = cli_now_s();
	for (int i = 0; i < SCN_FABRIC_COUNT; i++)
		a.o.fabrics[i] = scenario_fabric_names[i];
	a.o.nfabrics = SCN_FABRIC_COUNT;
	a.probe = COMPARE_PROBE_DEFAULT;
	int rc = cli_parse(&cli_cmd_compare, argc, argv, &a, compare_arg);
	if (rc)
		return rc;
	a.o.probe_msgs = (unsigned)a.probe;
	a.o.sets = a.sets.v;
	a.o.nsets = a.sets.n;
	cli_out_dir(a.o.out_dir, a.o.scenario, "-compare", dir, sizeof(dir));
	a.o.out_dir = dir;
	a.o.log = a.quiet ? NULL : stderr;
	a.o.progress = !a.quiet && isatty(STDERR_FILENO) ? stderr : NULL;
	a.o.interrupt = &cli_interrupted;
	cli_install_signals();
	enum run_status st = compare_run(&a.o, rows, err, sizeof(err));
	return compare_outcome(&a, rows, st, dir, err, sizeof(err));
}

const struct cli_command cli_cmd_compare = {
	.name = "compare",
	.usage = compare_usage,
	.opts = compare_opts,
	.tail = "\n"
		"Exit status: 0 every fabric ran (whatever its criteria); 1 a run broke an\n"
		"invariant; 2 bad usage, a scenario that does not load on a fabric, or a write\n"
		"that failed; 3 stopped by SIGINT, SIGTERM or SIGHUP; 4 the figure failed.\n",
	.main = compare_main,
};
