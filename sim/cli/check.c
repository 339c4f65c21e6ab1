/*
 * check.c - `dcqcn-sim check SCENARIO`: the scenario validated and printed
 * resolved, with its derived values, its partitions and its warnings; with
 * --export, its settings for real equipment.
 */
#include <stdio.h>

#include "models/scenario/configs/config.h"
#include "models/scenario/scenario.h"
#include "sim/cli/cli.h"
#include "sim/run/run.h"

struct check_args {
	struct cli_sets sets;
	const char *switch_config, *nic_config, *export_dir, *fabric;
	const char *args[2]; /* the scenario, and the first extra argument */
	int nargs;
	int ranks;           /* --ranks: the plan of a run split over them; 0 none */
};

static const char check_usage[] =
	"usage: dcqcn-sim check SCENARIO [--set SECTION.KEY=VALUE]... [--threads N]\n"
	"                       [--ranks R] [--switch-config FILE] [--nic-config FILE]\n"
	"                       [--export DIR] [--fabric " SCN_FABRICS_JOINED("|") "]\n"
	"\n"
	"Validate SCENARIO and print it fully resolved (every key with its value, in a\n"
	"form that loads back), then as comments: derived values (hosts, switches,\n"
	"oversubscription, frame sizes, PFC headroom, shared pool, the longest path's\n"
	"latency and bandwidth-delay product), the partitions of a run on N threads,\n"
	"and the warnings: settings that load but are risky (# warnings: N).\n"
	"\n";

#define CHECK_OFF(f) offsetof(struct check_args, f)

static const struct cli_opt check_opts[] = {
	{ .name = "--set", .arg = "S.K=V", .kind = CLI_SET, .off = CHECK_OFF(sets),
	  .help = "override one key (repeatable; dcqcn-sim keys lists the keys)" },
	{ .name = "--threads", .arg = "N", .kind = CLI_SIM_SET, .off = CHECK_OFF(sets),
	  .help = "same as --set sim.threads=N: the partitions of N threads" },
	{ .name = "--ranks", .arg = "R", .kind = CLI_INT, .off = CHECK_OFF(ranks), .lo = 2,
	  .hi = 65536, .what = "MPI ranks", .once = 1,
	  .help = "also the plan of `mpirun -np R dcqcn-sim run`: the partitions\n"
		  "and weight of each rank (N threads each: --threads), or why the\n"
		  "scenario cannot be split (docs/SCALING.md)" },
	CLI_OPT_CONFIGS(CHECK_OFF(switch_config), CHECK_OFF(nic_config)),
	{ .name = "--export", .arg = "DIR", .needs = "a directory", .once = 1, .kind = CLI_STR,
	  .off = CHECK_OFF(export_dir),
	  .help = "also write the scenario for real equipment: DIR/config_db.json\n"
		  "(a SONiC fragment), DIR/cc_params.txt, DIR/nic-setup.sh (loads\n"
		  "them into mlx5 NICs; -n: dry run; with nic.cc = dcqcn only) and\n"
		  "DIR/nccl.env; what they cannot express exactly is said on stderr\n"
		  "(docs/configs.md)" },
	{ .name = "--fabric", .arg = "F", .needs = "a fabric (" SCN_FABRICS_JOINED(", ") ")",
	  .once = 1, .kind = CLI_CALL, .fn = cli_opt_fabric, .off = CHECK_OFF(fabric),
	  .help = CLI_HELP_FABRIC },
	CLI_OTHERS("--vary", "V", NULL, "sweep"),
	CLI_OTHERS("-j", "N", NULL, "sweep"),
	CLI_OTHERS("--format", "F", CLI_FORMAT_NEEDS, "run, sweep and plot"),
	CLI_OTHERS("-o", "DIR", NULL, "run and sweep"),
	CLI_OTHERS("--seed", "N", NULL, "run and sweep"),
	CLI_OTHERS("--resume", NULL, NULL, "sweep"),
	CLI_OTHERS("--repeat", "N", NULL, "sweep"),
	CLI_OTHERS("--columns", "M", NULL, "sweep"),
	CLI_OTHERS("--shard", "I/N", NULL, "sweep"),
	CLI_OTHERS("--merge", NULL, NULL, "sweep"),
	CLI_OTHERS("--plot", NULL, NULL, "run and sweep"),
	CLI_OTHERS("--fluid", NULL, NULL, "run"),
	{ .name = "--quiet", .alt = "-q", .only = "run and sweep" },
	{ 0 },
};

/* SCENARIO; more are refused once every option is read */
static int check_arg(void *dst, const char *a)
{
	struct check_args *c = dst;
	if (c->nargs == CLI_MAX_ARGS)
		return cli_usage_error("too many arguments (at most %d)", CLI_MAX_ARGS);
	if (c->nargs < 2)
		c->args[c->nargs] = a;
	c->nargs++;
	return 0;
}

static int check_main(int argc, char **argv)
{
	struct check_args c = { 0 };
	int rc = cli_parse(&cli_cmd_check, argc, argv, &c, check_arg);
	if (rc)
		return rc;
	if (c.nargs > 1)
		return cli_usage_error("one scenario at a time (extra argument %s)", c.args[1]);
	if (!c.nargs)
		return cli_usage_error("%s needs a SCENARIO file", "check");
	struct scenario *s = cli_load(c.args[0], &c.sets, c.switch_config, c.nic_config, c.fabric,
				      0);
	if (!s)
		return EXIT_USAGE;
	scenario_print(s, stdout);
	scenario_print_derived(s, stdout);
	run_print_plan(s, stdout);
	if (c.ranks)
		run_print_split(s, c.ranks, stdout);
	scenario_print_warnings(s, stdout);
	if (c.export_dir) {
		char err[4400];
		fflush(stdout);
		if (scenario_export(s, c.export_dir, stderr, err, sizeof(err))) {
			fprintf(stderr, "dcqcn-sim: check --export: %s\n", err);
			rc = EXIT_USAGE;
		} else {
			fprintf(stderr, "dcqcn-sim: exported to %s/: %s\n", c.export_dir,
				scenario_export_files(s));
		}
	}
	scenario_close(s);
	return rc;
}

const struct cli_command cli_cmd_check = {
	.name = "check",
	.usage = check_usage,
	.opts = check_opts,
	.tail = "\n"
		"Exit status: 0 valid (with or without warnings); 2 not valid (the message\n"
		"names FILE:LINE and the key, or the configuration file and the place in\n"
		"it), or an export that could not be written.\n",
	.main = check_main,
};
