/*
 * main.c - the dcqcn-sim command line (docs/contract.md#commands): the
 * commands, one file each (run.c, check.c, sweep.c, calibrate.c,
 * compare.c, plot.c, keys.c, nccltests.c, fluid.c), and the dispatch.
 *
 * `dcqcn-sim --help` is the overview; `dcqcn-sim COMMAND --help` (or -h,
 * anywhere among the arguments: the help wins over whatever else is
 * wrong) a command's usage and options, written from its option table
 * (options.c); `dcqcn-sim keys [SECTION]` the scenario keys (keyhelp.h).
 * A mistyped command or option gets a "did you mean" (one close name, or
 * nothing), and a usage error points at the command's help.
 *
 * Exit status: 0 success; 1 a broken invariant; 2 bad usage or a bad
 * scenario (the message names file:line and key), or a write that failed
 * (the message names the file and the reason); 3 stopped by SIGINT, SIGTERM
 * or SIGHUP, outputs complete and summary.csv marked end=interrupted or
 * terminated (a third signal kills at once); 4 the results were written but
 * a figure failed (plot, run --plot, sweep --plot); 5 nccl-tests: an
 * iteration of the collective failed or did not end (nccltests.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DCQCN_MPI
#include <mpi.h>
#endif

#include "sim/cli/cli.h"
#include "sim/cli/version.h"

/* `dcqcn-sim --help`, and the text of a call without a command */
static const char usage[] =
	"usage:\n"
	"  dcqcn-sim run [SCENARIO] [-o DIR] [--set SECTION.KEY=VALUE]... [--seed N]\n"
	"                [--threads N] [--quiet] [--plot] [--format png|svg|pdf] [--fluid]\n"
	"                [--report] [--switch-config FILE] [--nic-config FILE]\n"
	"  dcqcn-sim check SCENARIO [--set SECTION.KEY=VALUE]... [--threads N]\n"
	"                [--switch-config FILE] [--nic-config FILE] [--export DIR]\n"
	"  dcqcn-sim sweep SCENARIO --vary SECTION.KEY=V1,V2,... [--vary ...] [-j N]\n"
	"                [-o DIR] [--set ...] [--seed N] [--threads N] [--quiet] [--plot]\n"
	"                [--format png|svg|pdf] [--report] [--resume] [--repeat N]\n"
	"                [--columns M,...] [--shard I/N] [--switch-config FILE]\n"
	"                [--nic-config FILE]\n"
	"  dcqcn-sim sweep --merge DIR... [-o OUT] [--columns M,...] [--quiet] [--plot]\n"
	"  dcqcn-sim calibrate [SCENARIO] [--stress FILE]... [--tune SECTION.KEY=LO:HI[:STEP]]...\n"
	"                [--seeds N] [-j N] [-o DIR] [--set ...] [--switch-config FILE]\n"
	"                [--nic-config FILE] [--no-plane] [--format png|svg|pdf] [--report]\n"
	"                [--quiet]\n"
	"  dcqcn-sim compare [SCENARIO] [--fabrics LIST] [--probe N] [-o DIR] [--set ...]\n"
	"                [--threads N] [--format png|svg|pdf] [--report] [--quiet]\n"
	"  dcqcn-sim plot DIR [--format png|svg|pdf] [--columns M,...]\n"
	"  dcqcn-sim report DIR [--quiet]\n"
	"  dcqcn-sim keys [SECTION]\n"
	"  dcqcn-sim nccl-tests all_reduce_perf|all_to_all_perf [SCENARIO] [-b SIZE] [-e SIZE]\n"
	"                [-f N | -i SIZE] [-g GPUS] [-n ITERS] [-w WARMUP] [-j N] [--out DIR]\n"
	"                [--report] [--set ...] [--threads N]\n"
	"  dcqcn-sim fluid SCENARIO [-o DIR] [--set ...] [--step T] [--sweep-flows A:B]\n"
	"  dcqcn-sim COMMAND --help\n"
	"  dcqcn-sim --help | --version\n"
	"\n"
	"run     simulate SCENARIO (the embedded default without one) and write its\n"
	"        run directory (default results/NAME); print a summary table\n"
	"check   validate SCENARIO; print it resolved, with derived values, the\n"
	"        partitions of a run on N threads and warnings\n"
	"sweep   one run per combination of the --vary values, -j N at a time, and\n"
	"        DIR/sweep.csv: a row per point, with whether it met its [criteria]\n"
	"calibrate  search ECN and DCQCN settings that pass [criteria] on SCENARIO and\n"
	"        stress scenarios with the largest margin; SONiC and NIC settings out\n"
	"compare  SCENARIO on lossless RoCEv2, InfiniBand and lossy TCP Ethernet: loss,\n"
	"        latency, collective time, flow control side by side\n"
	"plot    draw the figures of a run, sweep, calibrate, compare or nccl-tests\n"
	"        directory\n"
	"report  one self-contained page (report.html) of a finished run, sweep,\n"
	"        calibrate, compare or nccl-tests folder\n"
	"keys    every scenario key: its default, meaning, values, where it applies\n"
	"nccl-tests  nccl-tests' all_reduce_perf or all_to_all_perf, simulated: one run\n"
	"        of SCENARIO per size with the collective added; nccl-tests' table\n"
	"fluid   DCQCN's fluid model of SCENARIO's incast: fixed point, phase margin,\n"
	"        the queue and rates integrated (queues.csv, rates.csv, summary.csv)\n"
	"\n"
	"dcqcn-sim COMMAND --help (or -h) shows the options of COMMAND.\n"
	"Exit status: 0 success; 1 a broken invariant; 2 bad usage or a bad scenario;\n"
	"3 stopped by SIGINT, SIGTERM or SIGHUP; 4 a figure failed (the results are written);\n"
	"5 nccl-tests: an iteration failed or did not end; calibrate: no setting passes.\n";

/* the commands, in the overview's order */
static const struct cli_command *const commands[] = {
	&cli_cmd_run,	  &cli_cmd_check, &cli_cmd_sweep, &cli_cmd_calibrate, &cli_cmd_compare,
	&cli_cmd_plot,	  &cli_cmd_report, &cli_cmd_keys, &cli_cmd_nccltests, &cli_cmd_fluid,
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static int cli_main(int argc, char **argv)
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
		printf("dcqcn-sim %s (commit %s)\n", DCQCN_VERSION, DCQCN_COMMIT);
		return 0;
	}
	const struct cli_command *cmd = NULL;
	for (size_t i = 0; i < N_COMMANDS && !cmd; i++)
		if (!strcmp(commands[i]->name, argv[1]))
			cmd = commands[i];
	if (!cmd)
		return cli_unknown_command(argv[1], commands, N_COMMANDS);
	cli_set_command(cmd);
	/* COMMAND --help, wherever it is: the help wins over whatever else is wrong */
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_print_help(cmd, stdout);
			return 0;
		}
	return cmd->main(argc, argv);
}

#ifdef DCQCN_MPI
/* launched by mpirun (Open MPI, or a PMI launcher): only then MPI_Init, so
 * that without mpirun the MPI build is the plain one */
static int under_mpirun(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}
#endif

int main(int argc, char **argv)
{
#ifdef DCQCN_MPI
	int mpi = under_mpirun();
	if (mpi)
		MPI_Init(&argc, &argv);
	int rc = cli_main(argc, argv);
	if (mpi)
		MPI_Finalize();
	return rc;
#else
	return cli_main(argc, argv);
#endif
}
