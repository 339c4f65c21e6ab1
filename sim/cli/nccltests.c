/*
 * nccltests.c - `dcqcn-sim nccl-tests all_reduce_perf|all_to_all_perf
 * [SCENARIO]`: nccl-tests' binaries simulated, one run per size, and their
 * table (sim/sweeps/nccltests.h, docs/nccl-tests.md).  The options are
 * spelled as nccl-tests spells them: -b 1M, -b1M or --minbytes 1M.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "models/base/units.h"
#include "models/scenario/keyhelp.h"
#include "models/scenario/scenario.h"
#include "sim/cli/cli.h"
#include "sim/sweeps/nccltests.h"

struct nccl_args {
	struct nccltests_opts o;
	struct cli_sets sets;
	const char *test;
	int have_f, have_i; /* -f and -i exclude each other */
	int no_report;	    /* --no-report: no DIR/report.html with --out */
};

static const char nccl_usage[] =
	"usage: dcqcn-sim nccl-tests all_reduce_perf|all_to_all_perf [SCENARIO] [-b SIZE]\n"
	"                            [-e SIZE] [-f N | -i SIZE] [-g GPUS] [-n ITERS]\n"
	"                            [-w WARMUP] [-j N] [--out DIR] [--no-report]\n"
	"                            [--set S.K=V]... [--threads N] [--alone]\n"
	"\n"
	"nccl-tests' all_reduce_perf or all_to_all_perf (alltoall_perf), simulated: one\n"
	"run of SCENARIO (the embedded default without one) per size, with one job\n"
	"added, [job.nccl-tests]: pattern ring-allreduce or alltoall, ranks 0-(GPUS-1),\n"
	"the size, iterations = WARMUP + 2 x ITERS; the scenario's own jobs and faults\n"
	"run alongside (a \"#\" line names them; --alone leaves them out).  Prints nccl-tests' table on stdout, in its layout: the first\n"
	"ITERS timed iterations are the out-of-place columns, the next ITERS the\n"
	"in-place ones (time: their mean; algbw = size / time; busbw = algbw x\n"
	"2(n-1)/n for all-reduce, x (n-1)/n for all-to-all).  #wrong is 0: the\n"
	"simulator moves bytes, it does not corrupt them.  docs/nccl-tests.md.\n"
	"\n";

static const char nccl_tail[] =
	"nccl-tests' own spellings work too: -b1M, --minbytes, --maxbytes, --stepfactor,\n"
	"--stepbytes, --ngpus, --iters, --warmup_iters.\n"
	"\n"
	"Exit status: 0 every size ran and every iteration completed; 1 a run broke an\n"
	"invariant; 2 bad usage or a bad scenario (nothing runs), or a write that\n"
	"failed; 3 stopped by SIGINT, SIGTERM or SIGHUP (the rows that ran are\n"
	"printed); 5 an iteration failed (a QP ran out of retries) or did not end\n"
	"before sim.duration: its row says failed or timeout instead of numbers.\n";

/* -f and -i: one or the other */
static int step_once(const struct nccl_args *n)
{
	if (n->have_f && n->have_i)
		return cli_usage_error("-f and -i: give one (a step factor, or a step size)");
	return 0;
}

/* -b, -e, -i SIZE */
static int opt_size(void *dst, const struct cli_opt *opt, const char *v, const char *next)
{
	struct nccl_args *n = dst;
	char letter = opt->name[1];
	int64_t x;
	(void)next;
	if (nccltests_parse_size(v, &x))
		return cli_usage_error("-%c: %s is not a size (e.g. 1M; 1 B to 1000 GB, K, M and G "
				       "binary)", letter, v);
	if (letter == 'b') {
		n->o.min_bytes = x;
	} else if (letter == 'e') {
		n->o.max_bytes = x;
	} else {
		n->o.step_bytes = x;
		n->o.step_factor = 0;
		n->have_i = 1;
	}
	return step_once(n);
}

/* -f, -g, -n, -w N */
static int opt_count(void *dst, const struct cli_opt *opt, const char *v, const char *next)
{
	struct nccl_args *n = dst;
	int64_t x;
	char e[256];
	(void)next;
	switch (opt->name[1]) {
	case 'f':
		if (units_parse_int(v, 2, 1024, &x, e, sizeof(e)))
			return cli_usage_error("-f: %s: a step factor, 2-1024 (-i SIZE steps by a "
					       "fixed size)", v);
		n->o.step_factor = x;
		n->have_f = 1;
		return step_once(n);
	case 'g':
		if (units_parse_int(v, 2, 1000000, &x, e, sizeof(e)))
			return cli_usage_error("-g: %s: a number of GPUs (hosts), at least 2", v);
		n->o.gpus = (uint32_t)x;
		return 0;
	case 'n':
		if (units_parse_int(v, 1, 1000, &x, e, sizeof(e)))
			return cli_usage_error("-n: %s: timed iterations per placement, 1-1000", v);
		n->o.iters = (uint32_t)x;
		return 0;
	default: /* 'w' */
		if (units_parse_int(v, 0, 1000, &x, e, sizeof(e)))
			return cli_usage_error("-w: %s: warm-up iterations, 0-1000", v);
		n->o.warmup = (uint32_t)x;
		return 0;
	}
}

#define NCCL_OFF(f) offsetof(struct nccl_args, f)

/* nccl-tests' own long spellings are alternatives neither guessed nor shown */
static const struct cli_opt nccl_opts[] = {
	{ .name = "-b", .alt = "--minbytes", .alt_hidden = 1, .arg = "SIZE", .kind = CLI_CALL,
	  .fn = opt_size,
	  .help = "the smallest size (default 32M); K, M, G are binary, as in\n"
		  "nccl-tests (1M = 1048576), a fraction is allowed (1.5M)" },
	{ .name = "-e", .alt = "--maxbytes", .alt_hidden = 1, .arg = "SIZE", .kind = CLI_CALL,
	  .fn = opt_size, .help = "the largest size (default 32M)" },
	{ .name = "-f", .alt = "--stepfactor", .alt_hidden = 1, .arg = "N", .kind = CLI_CALL,
	  .fn = opt_count, .help = "multiply the size by N from -b to -e, 2-1024 (default 2)" },
	{ .name = "-i", .alt = "--stepbytes", .alt_hidden = 1, .arg = "SIZE", .kind = CLI_CALL,
	  .fn = opt_size, .help = "add SIZE instead of multiplying" },
	{ .name = "-g", .alt = "--ngpus", .alt_hidden = 1, .arg = "GPUS", .kind = CLI_CALL,
	  .fn = opt_count,
	  .help = "how many GPUs (hosts h0 to hGPUS-1) take part: 2 to the hosts\n"
		  "of the topology (default all of them)" },
	{ .name = "-n", .alt = "--iters", .alt_hidden = 1, .arg = "ITERS", .kind = CLI_CALL,
	  .fn = opt_count,
	  .help = "timed iterations per placement, 1-1000 (default 1;\n"
		  "nccl-tests: 20)" },
	{ .name = "-w", .alt = "--warmup_iters", .alt_hidden = 1, .arg = "WARMUP",
	  .kind = CLI_CALL, .fn = opt_count,
	  .help = "warm-up iterations, 0-1000 (default 1; nccl-tests: 5)" },
	{ .name = "-j", .arg = "N", .kind = CLI_INT, .off = NCCL_OFF(o.jobs), .lo = 1,
	  .hi = CLI_JOBS_MAX, .what = "a number of concurrent runs",
	  .help = "sizes simulated at a time, 1-" XSTR(CLI_JOBS_MAX) " (default 1); the table is "
		  "the\n"
		  "same for every N" },
	{ .name = "--out", .arg = "DIR", .kind = CLI_STR, .off = NCCL_OFF(o.out_dir),
	  .help = "also write DIR/nccl-tests.csv (the table's numbers) and each\n"
		  "size's run directory DIR/SIZE/; without it, nothing but stdout" },
	{ .name = "--no-report", .kind = CLI_FLAG, .off = NCCL_OFF(no_report),
	  .help = "with --out: no DIR/report.html (written by default: one page\n"
		  "with everything inline, as dcqcn-sim report DIR writes it)" },
	{ .name = "--set", .arg = "S.K=V", .kind = CLI_SET, .off = NCCL_OFF(sets),
	  .help = "override one key after the job is added (repeatable), e.g.\n"
		  "--set job.nccl-tests.channels=8 or --set sim.duration=1s" },
	{ .name = "--threads", .arg = "N", .kind = CLI_SIM_SET, .off = NCCL_OFF(sets),
	  .help = "same as --set sim.threads=N" },
	{ .name = "--alone", .kind = CLI_FLAG, .off = NCCL_OFF(o.alone),
	  .help = "leave the scenario's own [job.*] and [fault.*] sections out:\n"
		  "the collective alone on the fabric, as on an idle cluster" },
	{ 0 },
};

/* TEST, then SCENARIO */
static int nccl_arg(void *dst, const char *a)
{
	struct nccl_args *n = dst;
	if (!n->test)
		n->test = a;
	else if (!n->o.scenario)
		n->o.scenario = a;
	else
		return cli_usage_error("one scenario at a time (extra argument %s)", a);
	return 0;
}

/* the test's collective into n->o.coll; 0 or the usage error */
static int nccl_test(struct nccl_args *n)
{
	static const char *const tests[] = { "all_reduce_perf", "all_to_all_perf",
					     "alltoall_perf", NULL };
	const char *test = n->test;
	if (!test)
		return cli_usage_error("nccl-tests needs a test: all_reduce_perf or "
				       "all_to_all_perf");
	if (!nccltests_coll_of(test, &n->o.coll))
		return 0;
	size_t len = strlen(test);
	const char *guess = scn_guess_name(tests, test);
	if (len > 4 && !strcmp(test + len - 4, ".ini") && !n->o.scenario)
		return cli_usage_error("nccl-tests %s: the test comes first (dcqcn-sim nccl-tests "
				       "all_reduce_perf %s)", test, test);
	if (guess)
		return cli_usage_error("nccl-tests: %s is not a test; did you mean %s?", test,
				       guess);
	return cli_usage_error("nccl-tests: %s is not a test (all_reduce_perf or "
			       "all_to_all_perf)", test);
}

/* the sizes run and their table; the exit status */
static int nccl_run(struct nccltests_opts *o, int report, double t0)
{
	char err[2048];
	cli_install_signals();
	signal(SIGPIPE, SIG_IGN); /* a closed pipe (| head) is a write error: the runs stop */
	o->interrupt = &cli_interrupted;
	o->progress = isatty(STDERR_FILENO) ? stderr : NULL;
	int usage_fault;
	struct nccltests *t = nccltests_prepare(o, err, sizeof(err), &usage_fault);
	if (!t) {
		if (usage_fault)
			return cli_usage_error("%s", err);
		fprintf(stderr, "dcqcn-sim: nccl-tests: %s\n", err);
		return EXIT_USAGE;
	}
	scenario_write_warnings(nccltests_scenario(t), stderr, "dcqcn-sim: warning: ");
	int st = nccltests_run(t, stdout, err, sizeof(err));
	nccltests_free(t);
	if (st != NCCLTESTS_OK)
		fprintf(stderr, "dcqcn-sim: nccl-tests: %s\n", err);
	/* a size that failed is on the page too (FAILED) */
	if (report && (st == NCCLTESTS_OK || st == NCCLTESTS_FAILED)) {
		int rrc = cli_report_dir(o->out_dir, 1, cli_now_s() - t0);
		if (rrc && st == NCCLTESTS_OK)
			return rrc;
	}
	switch (st) {
	case NCCLTESTS_OK:
		return 0;
	case NCCLTESTS_INVARIANT:
		return EXIT_INVARIANT;
	case NCCLTESTS_INTERRUPTED:
		return EXIT_INTERRUPTED;
	case NCCLTESTS_FAILED:
		return EXIT_COLL_FAILED;
	default:
		return EXIT_USAGE;
	}
}

/* nccl-tests TEST [SCENARIO] [-b SIZE] [-e SIZE] [-f N | -i SIZE] ... */
static int nccl_main(int argc, char **argv)
{
	struct nccl_args n = { 0 };
	char err[2048];
	double t0 = cli_now_s();
	nccltests_defaults(&n.o);
	int rc = cli_parse(&cli_cmd_nccltests, argc, argv, &n, nccl_arg);
	if (!rc)
		rc = nccl_test(&n);
	if (rc)
		return rc;
	n.o.sets = n.sets.v;
	n.o.nsets = n.sets.n;
	if (nccltests_check_opts(&n.o, err, sizeof(err)))
		return cli_usage_error("%s", err);
	if (n.no_report && !n.o.out_dir)
		return cli_usage_error("nccl-tests --no-report: without --out DIR there is no "
				       "page to leave out");
	return nccl_run(&n.o, n.o.out_dir && !n.no_report, t0);
}

const struct cli_command cli_cmd_nccltests = {
	.name = "nccl-tests",
	.usage = nccl_usage,
	.opts = nccl_opts,
	.tail = nccl_tail,
	.units_numbers = 1,
	.main = nccl_main,
};
