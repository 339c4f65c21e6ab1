/*
 * cli.h - what the files of the command line share (docs/contract.md#commands):
 * the commands (one file each), the declarative option parser and help
 * writer (options.c), the signals that stop a run (signals.c), and the
 * helpers more than one command uses (common.c, plot.c).
 *
 * A command describes its options in a table of struct cli_opt, in the
 * order its help lists them; cli_parse() reads the arguments with it and
 * cli_print_help() writes `dcqcn-sim COMMAND --help` from it.  The table
 * also names the options that belong to another command (`only`), so that
 * `check --seed 3` says where --seed belongs instead of guessing.
 */
#ifndef DCQCN_CLI_H
#define DCQCN_CLI_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#define EXIT_INVARIANT 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 3
#define EXIT_PLOT 4
#define EXIT_COLL_FAILED 5 /* nccl-tests: an iteration failed or did not end */
#define EXIT_NO_PASS 5 /* calibrate: no setting passes */

#define CLI_MAX_SETS 256 /* --set, --seed and --threads of one command */
#define CLI_SIM_SET_BYTES 64 /* "sim.threads=N", as --threads N writes it */
#define CLI_JOBS_MAX 256 /* -j: runs at a time */
#define CLI_MAX_OPTS 64 /* entries of one option table */
#define CLI_MAX_ARGS 1024 /* arguments that are not options (sweep --merge DIR...) */
#define STR(x) #x
#define XSTR(x) STR(x) /* a macro's value as text: "8" */

/* ---- the fabric types (run and check --fabric, compare --fabrics) ---- */

/* the names are the scenario's (scenario.h: scenario_fabric_names[],
 * SCN_FABRICS_JOINED) */
/* index of fabric type `name` in scenario_fabric_names, or -1 */
int cli_fabric_index(const char *name);

/* ---- options ---- */

struct cli_opt;

enum cli_kind {
	CLI_FLAG, /* no value: the int at off becomes 1 */
	CLI_STR, /* the value's text into the const char * at off */
	CLI_INT, /* an integer lo-hi into the int at off */
	CLI_SET, /* section.key=value, appended to the struct cli_sets at off */
	CLI_SIM_SET, /* "sim.KEY=value" (KEY the option's name without "--"), appended
		      * to the struct cli_sets at off, the loader checks the value */
	CLI_CALL, /* fn does the rest */
};

struct cli_opt {
	const char *name; /* "--set", "-j" */
	const char *alt; /* another spelling: "-q" for --quiet, "--minbytes" for -b */
	int alt_hidden; /* alt is neither guessed nor shown in the help (nccl-tests' own) */
	const char *arg; /* the value's name in the help ("DIR"); NULL: a flag */
	const char *needs; /* what "NAME needs ..." says when the value is missing;
			    * NULL: "a value" */
	const char *only; /* not this command's: "NAME is an option of ONLY" */
	enum cli_kind kind;
	size_t off; /* where the value goes in the command's struct */
	long lo, hi; /* CLI_INT: the range */
	const char *what; /* CLI_INT: "NAME V: WHAT, LO-HI" when V is not in it */
	int once; /* a second one is refused: "NAME given twice" */
	/* CLI_CALL: what the option does with its value v (NULL for a flag) in
	 * dst; next is the argument after it (NULL at the end), for a hint.
	 * 0, or the exit status of a usage error already reported. */
	int (*fn)(void *dst, const struct cli_opt *o, const char *v, const char *next);
	const char *synopsis; /* the help's left column, instead of "NAME ARG" */
	const char *help; /* the help's text, lines separated by '\n'; NULL: not shown */
};

/* what --set, --seed and --threads collect, in order */
struct cli_sets {
	const char *v[CLI_MAX_SETS];
	int n;
	char sim[2][CLI_SIM_SET_BYTES]; /* the sim.KEY=V of --seed and --threads */
};

/* an option of another command: "NAME is an option of ONLY" (its value
 * first, if it takes one: "NAME needs NEEDS") */
#define CLI_OTHERS(nm, a, nd, o) { .name = nm, .arg = a, .needs = nd, .only = o }

/* --format F: the figures' format, into the const char * at off_ (run, sweep,
 * plot, calibrate, compare) */
#define CLI_FORMAT_NEEDS "a value (png, svg or pdf)"
#define CLI_OPT_FORMAT(off_, help_)                                                              \
	{ .name = "--format", .arg = "F", .needs = CLI_FORMAT_NEEDS, .kind = CLI_CALL,             \
	  .fn = cli_opt_format, .off = (off_), .help = help_ }

/* the help of options that several commands share */
#define CLI_HELP_SWITCH_CONFIG                                                                   \
	"the QoS of a SONiC config_db.json (buffer, PFC,\n"                                     \
	"watchdog, WRED/ECN, DSCP map), after the scenario file and\n"                          \
	"before --set; every port must agree (docs/configs.md)"
#define CLI_HELP_NIC_CONFIG                                                                      \
	"NVIDIA mlx5 cc_params, one \"name value\" per line\n"                                  \
	"(rp_ai_rate 5 ...): the [dcqcn] knobs and qos.cnp_dscp, after\n"                       \
	"--switch-config and before --set (docs/configs.md)"

/* --switch-config FILE and --nic-config FILE as run and check read them,
 * into the const char * fields at the two offsets */
#define CLI_OPT_CONFIGS(switch_off, nic_off)                                                     \
	{ .name = "--switch-config", .arg = "FILE", .needs = "a file", .once = 1,                 \
	  .kind = CLI_STR, .off = (switch_off), .help = CLI_HELP_SWITCH_CONFIG },                 \
	{ .name = "--nic-config", .arg = "FILE", .needs = "a file", .once = 1, .kind = CLI_STR,   \
	  .off = (nic_off), .help = CLI_HELP_NIC_CONFIG }

#define CLI_HELP_FABRIC                                                                          \
	"run SCENARIO as fabric.type F with F's defaults: its keys that\n"                      \
	"do not apply to F (on infiniband: [pfc], [pfcwd], [ecn],\n"                            \
	"[dcqcn], nic.cc) are skipped, each named on stderr"

/* a command: its help, its options, its body */
struct cli_command {
	const char *name;
	const char *usage; /* the help before "options:" */
	const struct cli_opt *opts; /* ends with an entry without name */
	const char *tail; /* the help after the options */
	int units_numbers; /* CLI_INT values in the units syntax (blanks around allowed), and
			    * single-letter options take their value attached (-b1M) */
	int (*main)(int argc, char **argv);
};

extern const struct cli_command cli_cmd_run, cli_cmd_check, cli_cmd_sweep, cli_cmd_calibrate,
	cli_cmd_compare, cli_cmd_plot, cli_cmd_report, cli_cmd_keys, cli_cmd_nccltests,
	cli_cmd_fluid;

/* the command being parsed (the hint of a usage error names its help) */
void cli_set_command(const struct cli_command *cmd);
/* `dcqcn-sim COMMAND --help` */
void cli_print_help(const struct cli_command *cmd, FILE *out);

/*
 * The arguments argv[2..argc) of cmd into dst (the struct the offsets of
 * its table point into): each option as its table says, each other argument
 * to arg(dst, a).  An option's checks, in order: a missing value ("NAME
 * needs ..."), another command's option (`only`), a CLI_INT's range, a
 * `once` option given twice, then what its kind or fn does with the value.
 * 0, or the exit status of the usage error reported.
 */
int cli_parse(const struct cli_command *cmd, int argc, char **argv, void *dst,
	      int (*arg)(void *dst, const char *a));

/* "dcqcn-sim: MESSAGE" and the hint "(see dcqcn-sim COMMAND --help)" on
 * stderr; returns EXIT_USAGE */
__attribute__((format(printf, 1, 2))) int cli_usage_error(const char *fmt, ...);
/* "unknown option --qiet; did you mean --quiet?" (the current command's options) */
int cli_unknown_option(const char *a);
/* "unknown command chek; did you mean check?" */
int cli_unknown_command(const char *name, const struct cli_command *const *cmds, size_t n);
/* the one of names[0..n) close to word, or NULL */
const char *cli_guess(const char *word, const char *const *names, size_t n);
/* --set or --vary (opt) given v without '=': the usage error, with how to
 * write it when next looks like the value */
int cli_assignment_error(const char *opt, const char *v, const char *next);

/* CLI_CALL handlers shared by the commands: --format F (png, svg or pdf)
 * into the const char * at o->off; --fabric F (a fabric type) likewise */
int cli_opt_format(void *dst, const struct cli_opt *o, const char *v, const char *next);
int cli_opt_fabric(void *dst, const struct cli_opt *o, const char *v, const char *next);

/* ---- signals ---- */

/* the signal that stops the run (SIGINT, SIGTERM or SIGHUP), 0 while none */
extern volatile sig_atomic_t cli_interrupted;
/* SIGINT, SIGTERM and SIGHUP stop a run cleanly; SIGXFSZ is ignored */
void cli_install_signals(void);

/* ---- helpers of several commands ---- */

struct scenario;

/* the scenario of run, check and fluid (its messages on stderr); NULL after
 * saying why */
struct scenario *cli_load(const char *path, const struct cli_sets *sets,
			  const char *switch_config, const char *nic_config, const char *fabric,
			  int quiet);
/* results/NAME, NAME = the scenario file name without folder and .ini,
 * then suffix ("-sweep"); out_dir instead when given */
void cli_out_dir(const char *out_dir, const char *scenario, const char *suffix, char *buf,
		 size_t len);
/* every name of list (comma-separated) must be a field of known (a CSV
 * header line); 0, or the usage error with a guess */
int cli_check_columns(const char *opt, const char *list, const char *known);
/* the figures of a run, sweep, calibrate or compare directory, in format;
 * 0, EXIT_USAGE for a column that is not in sweep.csv, or EXIT_PLOT with the
 * reason on stderr */
int cli_plot_dir(const char *dir, const char *format, int quiet, const char *columns);
/* the folder of the plot scripts (plot.c), NULL when none is found */
const char *cli_plots_dir(void);
/* DIR/report.html (report.c, sim/report/report.h); wall_s the command's wall
 * time (< 0 unknown); 0, EXIT_USAGE (refused, nothing written) or EXIT_PLOT
 * (written, a figure missing), the reason on stderr */
int cli_report_dir(const char *dir, int quiet, double wall_s);
/* the same, and with points the page of every point of sweep folder dir
 * first (report_sweep_points), so that the sweep's page links to them */
int cli_report_pages(const char *dir, int quiet, double wall_s, int points);
/* a monotonic clock, s */
double cli_now_s(void);
/* --report: the help shared by the commands that take it */
#define CLI_HELP_REPORT                                                                          \
	"also write DIR/report.html when it ends: one page with everything\n"                  \
	"inline (dcqcn-sim report DIR)"
/* --no-report of the commands that write DIR/report.html by default */
#define CLI_HELP_NO_REPORT                                                                       \
	"no DIR/report.html (written by default when it ends: one page with\n"                 \
	"everything inline, as dcqcn-sim report DIR writes it)"

#endif
